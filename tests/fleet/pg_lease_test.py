#!/usr/bin/env python3
"""postgres:// node ids on a private PostgreSQL, through the real engine (fleet_worker and
the CLI), with faults: the server restarted and stopped, connections killed with
pg_terminate_backend, a holder SIGSTOPped past its TTL, its row deleted, the table
restored from an older dump. Every worker writes a history (`fleet_worker --history`);
tests/fleet/history_check.py checks them all: zero duplicates, zero ids past a deadline,
zero overlapping holders.

    SNOWFLEET_PG_URL=... SNOWFLEET_PG_DIR=... FLEET_WORKER=out/fleet/tests/fleet_worker \
      SNOWFLEET_CLI=out/fleet/core/snowfleet python3 tests/fleet/pg_lease_test.py
(scripts/lib.sh's pg_private_start exports the first two; scripts/test/fleet.sh runs it.)
"""
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import history_check  # noqa: E402
from fleet_test import Worker, decode, polyglot_cmd  # noqa: E402

URL = os.environ.get("SNOWFLEET_PG_URL", "")
PG_DIR = os.environ.get("SNOWFLEET_PG_DIR", "")
PG_BIN = "/usr/lib/postgresql/15/bin"
CLI = os.environ.get("SNOWFLEET_CLI", "out/fleet/core/snowfleet")
# Renewals every 1.66 s; local deadline = renewal sent + 4 s (margin 1 s).
TTL = 5
MAX_WAIT_MS = 5.0


def mono_ns():
    return time.monotonic_ns()  # CLOCK_MONOTONIC: the clock the histories use


def psql(sql):
    p = subprocess.run(["psql", "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", URL], input=sql,
                       capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        raise RuntimeError(p.stderr.strip())
    return p.stdout.strip()


def as_postgres(args):
    return (["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []) + args


def pg_ctl(*args):
    subprocess.run(as_postgres([f"{PG_BIN}/pg_ctl", "-D", os.path.join(PG_DIR, "data"), *args]),
                   check=True, capture_output=True, timeout=60)


def pg_start():
    port = URL.rsplit(":", 1)[1].split("/")[0]
    opts = (f"-c listen_addresses=127.0.0.1 -c unix_socket_directories={PG_DIR} -c fsync=off "
            f"-c port={port}")
    pg_ctl("-l", os.path.join(PG_DIR, "log"), "-w", "-o", opts, "start")


class TcpLink:
    """A TCP forwarder in front of the server that the test can cut: from `cut()` on, every
    connection through it is closed and new ones are refused, as a partition would leave a
    holder (its renewals fail; it mints on until its local deadline)."""

    def __init__(self, host, port):
        self.target = (host, port)
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.socks = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            with self.lock:
                self.socks += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(a, b):
        try:
            while data := a.recv(65536):
                b.sendall(data)
        except OSError:
            pass
        for s in (a, b):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self):
        self.server.close()
        with self.lock:
            for s in self.socks:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass


@unittest.skipUnless(URL and PG_DIR, "SNOWFLEET_PG_URL/SNOWFLEET_PG_DIR not set (pg_private_start)")
class PostgresLeases(unittest.TestCase):
    maxDiff = 400

    def setUp(self):
        self.table = "lease_" + self.id().split(".")[-1][5:35]
        psql(f"DROP TABLE IF EXISTS {self.table};")
        self.hist_dir = tempfile.mkdtemp(prefix="pglease-hist-")
        self.addCleanup(shutil.rmtree, self.hist_dir, True)
        self.workers = []

    def source(self, query=""):
        return f"{URL}?table={self.table}&ttl={TTL}{query}"

    def worker(self, query="", seconds=60):
        w = Worker(self.source(query), "--seconds", seconds, "--burst", 4, "--pause-us", 1000,
                   "--keep-going", "--max-wait-ms", MAX_WAIT_MS, "--history",
                   os.path.join(self.hist_dir, f"w{len(self.workers) + 1}"))
        self.workers.append(w)
        self.addCleanup(lambda: w.proc.poll() is None and w.proc.kill())
        return w

    def check(self):
        """Stops every worker and checks every history; returns the report."""
        for w in self.workers:
            if w.proc.poll() is None:
                os.kill(w.proc.pid, signal.SIGCONT)
            w.stop()
        paths = [os.path.join(self.hist_dir, f) for f in sorted(os.listdir(self.hist_dir))]
        report = history_check.check(paths)
        print("\n  " + report.summary(), flush=True)
        self.assertEqual(report.violations, [], report.summary())
        ids = [i for w in self.workers for i in w.ids()]
        self.assertEqual(len(ids), len(set(ids)), "an id minted twice")
        return report

    def refusals_since(self, t):
        paths = [os.path.join(self.hist_dir, f) for f in os.listdir(self.hist_dir)]
        return [r for p in history_check.parse(paths) for r in p.refusals if r[0] >= t]

    def ids_after(self, w, t_ms):
        return [line for at, line in w.snapshot() if line.startswith("ids ") and at > t_ms]

    def test_two_generators_and_the_cli_get_different_slots(self):
        ws = [self.worker(), self.worker()]
        nodes = [w.node() for w in ws]
        self.assertNotIn(None, nodes, [w.snapshot()[:2] for w in ws])
        cli = subprocess.run([CLI, "next", "--node-source", self.source(), "-n", "3"],
                             capture_output=True, text=True, timeout=60)
        self.assertEqual(cli.returncode, 0, cli.stderr)
        ids = [int(x) for x in cli.stdout.split()]
        self.assertEqual(len(ids), 3)
        cli_node = (ids[0] >> 12) & 1023
        self.assertEqual(len({*nodes, cli_node}), 3, (nodes, cli_node))
        # The table was created with a row per slot of the layout; the CLI gave its row back.
        self.assertEqual(psql(f"SELECT count(*) FROM {self.table}"), "1024")
        self.assertEqual(psql(f"SELECT expires_at = '-infinity' FROM {self.table} "
                              f"WHERE slot = {cli_node}"), "t")
        time.sleep(TTL)  # several renewals
        self.assertEqual(self.refusals_since(0), [])
        held = psql(f"SELECT string_agg(slot::text, ',' ORDER BY slot) FROM {self.table} "
                    "WHERE expires_at > now()")
        self.assertEqual(held, ",".join(str(n) for n in sorted(nodes)))
        self.check()

    @unittest.skipUnless(os.environ.get("FLEET_POLYGLOT") == "1", "FLEET_POLYGLOT=1 not set")
    def test_python_node_and_java_processes_share_one_table(self):
        src = self.source()
        layout = "41.10.12@1704067200000"
        langs = ["python", "node", "java"]
        fleet = [Worker(src, cmd=polyglot_cmd(lang, src, 8, layout)) for lang in langs]
        fleet.append(self.worker(seconds=8))
        nodes = [w.node() for w in fleet]
        self.assertNotIn(None, nodes, [w.snapshot()[:2] for w in fleet])
        self.assertEqual(len(set(nodes)), 4, list(zip(langs + ["c++"], nodes)))
        for w in fleet:
            w.finish(60)
        ids = [i for w in fleet for i in w.ids()]
        self.assertEqual(len(ids), len(set(ids)), "an id minted twice")
        for w, node in zip(fleet, nodes):
            self.assertTrue(w.ids(), w.snapshot()[-3:])
            self.assertEqual({decode(i)["node"] for i in w.ids()}, {node})

    def test_a_pinned_slot_that_is_held_is_refused_clearly(self):
        w = self.worker()
        node = w.node()
        p = subprocess.run([CLI, "next", "--node-source", self.source(f"&node={node}")],
                           capture_output=True, text=True, timeout=60)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn(f"slot {node} of table {self.table} is held by another process", p.stderr)
        self.check()

    def test_a_table_named_by_a_reserved_word_works(self):
        psql('DROP TABLE IF EXISTS "user"; DROP SCHEMA IF EXISTS "select" CASCADE; '
             'CREATE SCHEMA "select";')
        for table in ("user", "select.order"):
            cli = [CLI, "next", "-n", "3", "--node-source", f"{URL}?table={table}&ttl={TTL}"]
            for _ in range(2):  # creates the table, then claims from it
                p = subprocess.run(cli, capture_output=True, text=True, timeout=60)
                self.assertEqual(p.returncode, 0, p.stderr)
                self.assertEqual(len(p.stdout.split()), 3)
            quoted = ".".join(f'"{part}"' for part in table.split("."))
            self.assertEqual(psql(f"SELECT sum(epoch) FROM {quoted}"), "2")  # two claims

    def test_a_pinned_slot_no_claim_can_take_is_refused_saying_why(self):
        cli = [CLI, "next", "--node-source", self.source("&node=3")]
        p = subprocess.run(cli, capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        psql(f"UPDATE {self.table} SET epoch = 9223372036854775807 WHERE slot = 3")
        p = subprocess.run(cli, capture_output=True, text=True, timeout=60)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn(f"slot 3 of table {self.table} cannot be claimed: its epoch is "
                      "9223372036854775807", p.stderr)
        self.assertNotIn("held by another process", p.stderr)
        # Nor is a slot whose mark lies past the layout's window held by anyone.
        psql(f"UPDATE {self.table} SET epoch = 1, mark_ms = 9000000000000000, "
             "written_xid = pg_current_xact_id() WHERE slot = 3")
        p = subprocess.run(cli, capture_output=True, text=True, timeout=60)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn(f"slot 3 of table {self.table} cannot be claimed: slot 3 has the mark "
                      "9000000000000000, past the last millisecond of layout", p.stderr)
        self.assertNotIn("held by another process", p.stderr)

    def test_rows_edited_to_the_limits_are_passed_over_or_bounded(self):
        """Hand edits at the columns' limits: a row whose epoch is 2^63 - 1 cannot be
        claimed (its epoch cannot grow), so claims take another slot; a ttl_ms of 2^31 - 1
        (no member leases for longer than 3600 s) fences a claim by 3602 s at most."""
        layout = "41.2.20@1704067200000"  # 4 slots
        cli = [CLI, "next", "--layout", layout, "--node-source", self.source()]
        p = subprocess.run(cli, capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        psql(f"UPDATE {self.table} SET epoch = 9223372036854775807 WHERE slot <> 2")
        for _ in range(5):
            # Slot 2's mark back to 0 as snowfleet would write it (written_xid = xmin: no
            # rollback), so the claim need not wait out the last one's.
            psql(f"UPDATE {self.table} SET mark_ms = 0, written_xid = pg_current_xact_id() "
                 "WHERE slot = 2")
            p = subprocess.run(cli, capture_output=True, text=True, timeout=60)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual((int(p.stdout) >> 20) & 3, 2)
        psql(f"UPDATE {self.table} SET epoch = 0, ttl_ms = 2147483647")  # also a rollback
        p = subprocess.run(cli + ["--max-wait-ms", "0"], capture_output=True, text=True,
                           timeout=60)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("CLOCK_MOVED_BACKWARDS", p.stderr)
        # The fence, and the mark written a TTL ahead of it.
        mark = int(psql(f"SELECT max(mark_ms) FROM {self.table}"))
        self.assertLess(mark, time.time() * 1000 + (3602 + TTL + 5) * 1000, p.stderr)

    def mint_through(self, fault, hold=TTL + 1.0):
        ws = [self.worker(), self.worker()]
        self.assertNotIn(None, [w.node() for w in ws], [w.snapshot()[:2] for w in ws])
        time.sleep(1.0)
        t0 = mono_ns()
        fault()
        time.sleep(hold)
        after = int(time.time() * 1000)
        time.sleep(1.0)
        report = self.check()
        for w in ws:
            self.assertTrue(self.ids_after(w, after), "a holder stopped minting after the fault")
        return report, self.refusals_since(t0)

    def test_connections_killed_with_pg_terminate_backend(self):
        def kill():
            for _ in range(3):
                psql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                     "WHERE pid <> pg_backend_pid() AND backend_type = 'client backend';")
                time.sleep(0.7)
        _, refused = self.mint_through(kill)
        self.assertEqual(refused, [], "a killed connection cost a refusal: the next one reconnects")

    def test_server_restarted(self):
        log = os.path.join(PG_DIR, "log")
        _, refused = self.mint_through(lambda: pg_ctl("-m", "fast", "-w", "-l", log, "restart"))
        self.assertEqual(refused, [], "a restart shorter than the deadline cost a refusal")

    def test_server_stopped_past_the_deadline_then_started(self):
        ws = [self.worker(), self.worker()]
        self.assertNotIn(None, [w.node() for w in ws])
        time.sleep(1.0)
        t0 = mono_ns()
        pg_ctl("-m", "immediate", "-w", "stop")
        try:
            time.sleep(TTL + 1.0)
        finally:
            pg_start()
        self.assertTrue(self.refusals_since(t0), "holders minted past their deadline")
        time.sleep(TTL)
        back = int(time.time() * 1000)
        time.sleep(1.5)
        # Nobody claimed the rows meanwhile: the holders' next renewals find them theirs.
        for w in ws:
            self.assertTrue(self.ids_after(w, back), "a holder did not resume")
        self.check()

    def test_a_holder_paused_past_its_ttl_refuses_and_a_newcomer_takes_the_slot(self):
        a = self.worker()
        node = a.node()
        self.assertIsNotNone(node, a.why_no_node())
        time.sleep(1.0)
        os.kill(a.proc.pid, signal.SIGSTOP)
        time.sleep(TTL + 0.5)  # past the row's expires_at
        b = self.worker(f"&node={node}")
        self.assertEqual(b.node(), node, b.snapshot()[:3])
        time.sleep(1.0)
        os.kill(a.proc.pid, signal.SIGCONT)
        time.sleep(2.5)  # a's deadline has passed: it refuses; its renewal finds the row taken
        self.assertTrue(any("LEASE_LOST" in e or "LEASE" in e for e in a.errors()), a.errors()[:3])
        self.check()
        self.assertGreater(len(b.ids()), 1000)

    def test_the_row_deleted_under_a_holder_stops_it(self):
        a = self.worker()
        node = a.node()
        self.assertIsNotNone(node, a.why_no_node())
        time.sleep(1.0)
        psql(f"DELETE FROM {self.table} WHERE slot = {node};")
        time.sleep(TTL / 3 + 1.0)  # the next renewal finds no row
        self.assertTrue(any("LEASE_LOST" in e for e in a.errors()), a.errors()[:3])
        # A newcomer gets the slot through the insert branch, and fences past any deadline.
        b = self.worker(f"&node={node}")
        self.assertEqual(b.node(), node, b.snapshot()[:3])
        time.sleep(TTL + 3.0)
        self.assertGreater(len(b.ids()), 100)
        self.check()

    def test_the_table_restored_from_an_older_dump_refuses_and_never_duplicates(self):
        first = subprocess.run([CLI, "next", "--node-source", self.source()], capture_output=True,
                               text=True, timeout=60)  # creates the table
        self.assertEqual(first.returncode, 0, first.stderr)
        dump = subprocess.run([f"{PG_BIN}/pg_dump", "--data-only", "-t", self.table, URL],
                              capture_output=True, text=True, check=True, timeout=60).stdout
        a = self.worker()
        node = a.node()
        self.assertIsNotNone(node, a.why_no_node())
        time.sleep(1.5)
        psql(f"TRUNCATE {self.table};\n" + dump)
        time.sleep(TTL / 3 + 1.0)  # a's next renewal finds a row it did not write
        self.assertTrue(any("LEASE_LOST" in e for e in a.errors()), a.errors()[:3])
        b = self.worker(f"&node={node}")  # the restored row looks free: fenced, not trusted
        self.assertEqual(b.node(), node, b.snapshot()[:3])
        time.sleep(TTL + 3.0)
        self.assertGreater(len(b.ids()), 100)
        a_ids, b_ids = a.ids(), b.ids()
        self.assertTrue(a_ids and b_ids)
        self.assertLess(max(a_ids), min(b_ids), "the newcomer minted below the old holder's ids")
        self.check()

    def test_a_cut_off_holder_whose_ttl_the_restored_dump_lacks_is_fenced_by_the_bound(self):
        # The dump holds the slot's row as a holder at TTL 2 left it; the holder the restore
        # forgets claims it after the dump at TTL 12 and is cut off from the server, so it
        # mints on to its local deadline (9.6 s after its last renewal). The longest TTL in
        # the restored table is 2 s: the stated bound makes the newcomer fence 14 s ahead.
        node = 9
        first = subprocess.run([CLI, "next", "--node-source",
                                f"{URL}?table={self.table}&ttl=2&max_ttl=12&node={node}"],
                               capture_output=True, text=True, timeout=60)
        self.assertEqual(first.returncode, 0, first.stderr)
        dump = subprocess.run([f"{PG_BIN}/pg_dump", "--data-only", "-t", self.table, URL],
                              capture_output=True, text=True, check=True, timeout=60).stdout
        host_port = URL.split("@", 1)[1].split("/", 1)[0]
        link = TcpLink(host_port.rsplit(":", 1)[0], int(host_port.rsplit(":", 1)[1]))
        self.addCleanup(link.cut)
        holder = Worker(f"{URL.replace(host_port, f'127.0.0.1:{link.port}')}?table={self.table}"
                        f"&ttl=12&max_ttl=12&node={node}", "--seconds", 12, "--burst", 16,
                        "--pause-us", 1000, "--keep-going")
        self.assertEqual(holder.node(), node, holder.snapshot()[:3])
        time.sleep(1.0)
        link.cut()
        psql(f"TRUNCATE {self.table};\n" + dump)
        newcomer = Worker(f"{URL}?table={self.table}&ttl=2&max_ttl=12&node={node}",
                          "--seconds", 20, "--burst", 16, "--pause-us", 1000, "--keep-going")
        self.assertEqual(newcomer.node(), node, newcomer.snapshot()[:3])
        holder.finish()
        newcomer.finish()
        mine, theirs = set(holder.ids()), newcomer.ids()
        twice = sum(1 for i in theirs if i in mine)
        print(f"\n  holder (TTL 12, cut off) {len(mine):,} ids, newcomer (TTL 2, max_ttl 12) "
              f"{len(theirs):,} ids, minted by both: {twice:,}", flush=True)
        self.assertTrue(mine and theirs)
        self.assertEqual(twice, 0)
        self.assertLess(max(mine), min(theirs))
        # A member whose bound is below a TTL the table shows is refused, naming both.
        psql(f"UPDATE {self.table} SET ttl_ms = 10000 WHERE slot = 3;")  # a member at TTL 10
        low = subprocess.run([CLI, "next", "--node-source",
                              f"{URL}?table={self.table}&ttl=2&max_ttl=4&node={node}"],
                             capture_output=True, text=True, timeout=60)
        self.assertNotEqual(low.returncode, 0, low.stdout)
        self.assertIn("above this spec's max_ttl=4", low.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
