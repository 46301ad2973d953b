#!/usr/bin/env python3
"""Multi-process fleet tests: many processes lease node ids, get killed, stopped, and lose
their etcd; every id any of them minted is collected and checked for duplicates.

Run by scripts/test/fleet.sh. Environment:
  FLEET_WORKER         path to the fleet_worker binary (tests/fleet_worker.cc); the
                       outage_probe binary (tests/outage_probe.cc) is expected beside it
  SNOWFLEET_TEST_ETCD  host:port of a running etcd (the etcd tests fail without it)
  ETCD_BIN             etcd server binary, for the test that kills and restarts its own etcd
  FLEET_POLYGLOT=1     also run the cross-language tests (Python, Node, Java, Go and Rust
                       processes on one local registry, and on one etcd prefix when
                       SNOWFLEET_TEST_ETCD is set), with FLEET_PY (a python that can
                       import snowfleet), FLEET_JAR and FLEET_JAVA (the jar and a java
                       binary), FLEET_GO (go/internal/fleetworker built), FLEET_RUST
                       (rust/snowfleet/examples/fleet_worker.rs built), and node with the
                       addon built in this checkout (scripts/demo/fleet-demo/bindings.sh
                       builds them all)
"""
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import unittest

WORKER = os.path.abspath(os.environ.get("FLEET_WORKER", "out/fleet/tests/fleet_worker"))
PROBE = os.path.join(os.path.dirname(WORKER), "outage_probe")
ETCD = os.environ.get("SNOWFLEET_TEST_ETCD")
ETCD_BIN = os.environ.get("ETCD_BIN", shutil.which("etcd") or "etcd")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEMO = os.path.join(ROOT, "scripts", "demo", "fleet-demo")


def polyglot_cmd(lang, source, seconds, layout):
    """The demo worker of one language: same line protocol as fleet_worker."""
    if lang == "python":
        return [os.environ["FLEET_PY"], os.path.join(DEMO, "worker.py"), source, str(seconds), layout]
    if lang == "node":
        return ["node", os.path.join(DEMO, "worker.js"), source, str(seconds), layout]
    if lang == "go":
        return [os.environ["FLEET_GO"], source, str(seconds), layout]
    if lang == "rust":
        return [os.environ["FLEET_RUST"], source, str(seconds), layout]
    return [os.environ["FLEET_JAVA"], "-cp", os.environ["FLEET_JAR"],
            os.path.join(DEMO, "FleetWorker.java"), source, str(seconds), layout]
EPOCH = 1704067200000
TOTAL = {"ids": 0, "processes": 0}


def now_ms():
    return int(time.time() * 1000)


def decode(id_, node_bits=10, seq_bits=12, epoch=EPOCH):
    return {"ms": (id_ >> (node_bits + seq_bits)) + epoch,
            "node": (id_ >> seq_bits) & ((1 << node_bits) - 1)}


class Worker:
    """One fleet_worker process; a thread collects its lines with their arrival time."""

    def __init__(self, source, *args, cmd=None):
        self.cmd = cmd or [WORKER, "--source", source, *map(str, args)]
        self.proc = subprocess.Popen(self.cmd, stdout=subprocess.PIPE, text=True, bufsize=1,
                                     cwd="/")
        self.lines = []  # (arrival_ms, line)
        self.lock = threading.Lock()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        TOTAL["processes"] += 1

    def _read(self):
        for line in self.proc.stdout:
            with self.lock:
                self.lines.append((now_ms(), line.rstrip("\n")))

    def snapshot(self):
        with self.lock:
            return list(self.lines)

    def wait_for(self, prefix, timeout=15.0):
        end = time.time() + timeout
        while time.time() < end:
            for _, line in self.snapshot():
                if line.startswith(prefix):
                    return line
            if self.proc.poll() is not None:
                self.reader.join(2)
                for _, line in self.snapshot():
                    if line.startswith(prefix):
                        return line
                return None
            time.sleep(0.01)
        return None

    def node(self):
        line = self.wait_for(("node ", "error "))
        if line and line.startswith("node "):
            return int(line.split()[1])
        return None

    def why_no_node(self):
        """Why node() gave None, for an assertion's message: the process's state and its
        first lines (a claim's error is one)."""
        rc = self.proc.poll()
        state = "still running (no answer in time)" if rc is None else f"exited with {rc}"
        return f"no node: the worker is {state}; its first lines: {self.snapshot()[:3]}"

    def claimed_mark(self):
        """The slot's persisted mark once the generator existed: the history it claimed plus
        its own first reservation."""
        line = self.wait_for("node ")
        return int(line.split()[2])

    def finish(self, timeout=30):
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.reader.join(5)
        self.proc.stdout.close()
        return self.proc.returncode

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        return self.finish()

    def ids(self):
        out = []
        for _, line in self.snapshot():
            if line.startswith("ids "):
                out.extend(int(x) for x in line.split()[2:])
        return out

    def errors(self):
        return [line for _, line in self.snapshot() if line.startswith("error ")]


def is_slow_mark_write(error):
    """A refusal because the generator's own mark write (an fsync on a loaded machine) did
    not land within the call's wait budget: LEASE_LOST, no id issued."""
    return "LEASE_LOST" in error and "is not persisted beyond" in error and "in time" in error


def assert_unique(test, workers):
    all_ids = [i for w in workers for i in w.ids()]
    TOTAL["ids"] += len(all_ids)
    test.assertEqual(len(all_ids), len(set(all_ids)), "an id was minted twice")
    return all_ids


def print_languages(title, langs, workers):
    """Per language: processes, node ids and ids minted; then the fleet's totals."""
    print(f"\n  {title}:", flush=True)
    for lang in dict.fromkeys(langs):
        mine = [w for l, w in zip(langs, workers) if l == lang]
        print(f"    {lang:7} {len(mine)} process{'es' if len(mine) > 1 else '  '}, "
              f"node {','.join(str(w.node()) for w in mine):9} "
              f"{sum(len(w.ids()) for w in mine):>9,} ids", flush=True)
    ids = [i for w in workers for i in w.ids()]
    nodes = {w.node() for w in workers}
    refusals = sum(len(w.errors()) for w in workers)
    print(f"    {len(ids):,} ids from {len(workers)} processes, {len(set(ids)):,} distinct, "
          f"minted twice: {len(ids) - len(set(ids))}; {len(nodes)} distinct node ids; "
          f"{refusals} refused calls", flush=True)


def remove_tree_racing_healers(path):
    """rmtree, retried: live holders put the registry's files back (their mark keepers check
    every ~100 ms), as they would under a real cleaner, so one pass can meet a new file."""
    for _ in range(200):
        try:
            shutil.rmtree(path)
            return
        except FileNotFoundError:
            return
        except OSError:
            time.sleep(0.005)
    shutil.rmtree(path)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Etcd:
    """A private single-member etcd on loopback ports that a test may kill and restart."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="snowfleet-etcd-")
        self.client, self.peer = free_port(), free_port()
        self.endpoint = f"127.0.0.1:{self.client}"
        self.proc = None

    def start(self):
        if getattr(self, "log", None) is None:
            self.log = open(f"{self.dir}/log", "ab")
        self.proc = subprocess.Popen(
            [ETCD_BIN, "--name", "t", "--data-dir", f"{self.dir}/data",
             "--listen-client-urls", f"http://{self.endpoint}",
             "--advertise-client-urls", f"http://{self.endpoint}",
             "--listen-peer-urls", f"http://127.0.0.1:{self.peer}",
             "--initial-advertise-peer-urls", f"http://127.0.0.1:{self.peer}",
             "--initial-cluster", f"t=http://127.0.0.1:{self.peer}"],
            stdout=self.log, stderr=subprocess.STDOUT)
        end = time.time() + 20
        while time.time() < end:
            try:
                with socket.create_connection(("127.0.0.1", self.client), 0.2):
                    pass
                out = subprocess.run(["curl", "-s", "--noproxy", "*", "-X", "POST", f"http://{self.endpoint}/v3/kv/range",
                                      "-d", '{"key":"AA=="}'], capture_output=True, text=True)
                if '"header"' in out.stdout:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError("etcd did not start; see " + self.dir + "/log")

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def close(self):
        if self.proc and self.proc.poll() is None:
            self.kill()
        if getattr(self, "log", None):
            self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)


class LocalRegistry(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="snowfleet-registry-")
        self.addCleanup(shutil.rmtree, self.dir, True)

    def test_many_processes_get_distinct_node_ids(self):
        workers = [Worker(f"local:{self.dir}", "--seconds", 2, "--burst", 8) for _ in range(16)]
        codes = [w.finish() for w in workers]
        self.assertEqual(codes, [0] * 16, [w.errors() for w in workers])
        nodes = [w.node() for w in workers]
        self.assertEqual(len(set(nodes)), 16, nodes)
        all_ids = assert_unique(self, workers)
        self.assertGreater(len(all_ids), 16 * 100)
        for w in workers:
            self.assertTrue(all(decode(i)["node"] == w.node() for i in w.ids()))

    def test_killed_process_slot_is_reusable_and_its_ids_are_not_reissued(self):
        layout = "41.2.20@1704067200000"  # 4 slots
        src = f"local:{self.dir}"
        holders = [Worker(src, "--layout", layout, "--seconds", 60, "--burst", 8) for _ in range(4)]
        nodes = [w.node() for w in holders]
        self.assertEqual(sorted(nodes), [0, 1, 2, 3])
        extra = Worker(src, "--layout", layout)
        self.assertEqual(extra.finish(), 2)
        self.assertIn("NODE_ID_UNAVAILABLE", extra.errors()[0])
        self.assertIn(self.dir, extra.errors()[0])
        time.sleep(0.5)
        victim = holders[1]
        victim.proc.send_signal(signal.SIGKILL)
        victim.finish()
        victim_ids = victim.ids()
        self.assertTrue(victim_ids)
        heir = Worker(src, "--layout", layout, "--seconds", 2.5, "--burst", 8, "--keep-going")
        self.assertEqual(heir.node(), nodes[1])
        # The victim reserved up to a second ahead and never closed: the heir found that
        # mark and (strict mode) refuses, naming it, until its clock passes the mark.
        victim_last = max(decode(i, 2, 20)["ms"] for i in victim_ids)
        self.assertEqual(heir.finish(), 0)
        # The refusals name the victim's mark (the heir's own reservation comes on top of it).
        # On an overloaded machine a refusal can also be the heir's own mark write outlasting
        # the call's wait budget (LEASE_LOST "not persisted beyond ... in time"): no id either.
        refusals = [e for e in heir.errors() if not is_slow_mark_write(e)]
        named = {int(re.search(r"high-water mark (\d+)", e).group(1)) for e in refusals}
        for e in refusals:
            self.assertIn("CLOCK_MOVED_BACKWARDS", e)
        self.assertLessEqual(len(named), 1)
        mark = named.pop() if named else victim_last
        self.assertGreaterEqual(mark, victim_last)
        self.assertGreaterEqual(heir.claimed_mark(), mark)
        self.assertTrue(heir.ids())
        self.assertGreater(min(decode(i, 2, 20)["ms"] for i in heir.ids()), mark)
        self.assertGreater(min(heir.ids()), max(victim_ids))
        for w in holders:
            w.stop()
        assert_unique(self, holders + [heir])


    def test_registry_deleted_under_live_holders_gives_no_slot_away(self):
        """logind removes $XDG_RUNTIME_DIR at logout and tmp cleaners age files out:
        whatever is deleted or replaced, a newcomer must not claim a live holder's slot on
        fresh files and read the missing mark as "no history"."""
        layout = "41.1.21@1704067200000"  # 2 slots, both held (1 node bit)
        for how in ("directory removed", "files removed", "directory replaced"):
            with self.subTest(how=how):
                reg = tempfile.mkdtemp(prefix="snowfleet-wiped-")
                self.addCleanup(shutil.rmtree, reg, True)
                self.addCleanup(shutil.rmtree, reg + ".old", True)
                src = f"local:{reg}"
                holders = [Worker(src, "--layout", layout, "--seconds", 30, "--burst", 32,
                                  "--pause-us", 500, "--keep-going") for _ in range(2)]
                self.assertEqual(sorted(w.node() for w in holders), [0, 1])
                time.sleep(0.3)
                if how == "directory removed":
                    remove_tree_racing_healers(reg)
                elif how == "files removed":
                    for name in os.listdir(reg):
                        try:
                            os.unlink(os.path.join(reg, name))
                        except FileNotFoundError:
                            pass
                else:
                    os.rename(reg, reg + ".old")
                    os.makedirs(reg, exist_ok=True)  # a holder may have put it back already
                newcomers = [Worker(src, "--layout", layout, "--seconds", 2, "--burst", 32,
                                    "--pause-us", 500, "--keep-going") for _ in range(2)]
                codes = [w.finish() for w in newcomers]
                # The holders put the registry back at their next mark write (about once a
                # second while minting; maintain() does it every ~100 ms).
                marks = [os.path.join(reg, f"slot-000{n}.mark") for n in (0, 1)]
                end = time.time() + 5
                while time.time() < end and not all(map(os.path.exists, marks)):
                    time.sleep(0.05)
                for w in holders:
                    self.assertEqual(w.stop(), 0, w.errors()[:3])
                assert_unique(self, holders + newcomers)
                self.assertEqual(codes, [2, 2], [w.snapshot()[:2] for w in newcomers])
                for w in newcomers:
                    self.assertIn("NODE_ID_UNAVAILABLE", w.errors()[0])
                self.assertTrue(all(map(os.path.exists, marks)), os.listdir(reg))
                # Later claimants find the history the holders put back.
                for w in holders:
                    heir = Worker(src, "--layout", layout, "--seconds", 0.2, "--keep-going")
                    node = heir.node()
                    victim = next(h for h in holders if h.node() == node)
                    self.assertGreaterEqual(heir.claimed_mark(),
                                            max(decode(i, 1, 21)["ms"] for i in victim.ids()))
                    heir.stop()


@unittest.skipUnless(os.environ.get("FLEET_POLYGLOT") == "1", "FLEET_POLYGLOT not set")
class PolyglotLocalRegistry(unittest.TestCase):
    def test_python_node_java_go_rust_share_one_registry_and_a_killed_slot_is_reused(self):
        reg = tempfile.mkdtemp(prefix="snowfleet-polyglot-")
        self.addCleanup(shutil.rmtree, reg, True)
        layout, src = "41.3.19@1704067200000", f"local:{reg}"  # 8 slots
        langs = ["python", "node", "java", "go", "rust", "node"]
        # Long enough that no survivor ends before the slowest extra (a JVM starting on a
        # loaded machine) has claimed: a survivor's freed slot would be taken, legitimately.
        fleet = [Worker(src, cmd=polyglot_cmd(l, src, 20, layout)) for l in langs]
        nodes = [w.node() for w in fleet]
        self.assertNotIn(None, nodes, [w.snapshot()[:2] for w in fleet])
        self.assertEqual(len(set(nodes)), 6, list(zip(langs, nodes)))
        time.sleep(1.0)
        victim = fleet[1]  # a node process
        victim.proc.send_signal(signal.SIGKILL)
        victim.finish()
        # Fill the registry (two never-used slots and the victim's) from other languages:
        # whoever gets the victim's slot must mint only above the victim's ids.
        # They run long enough that none ends (freeing its slot, which another extra would then
        # take, legitimately) before the slowest has claimed: a JVM compiling its source file
        # on a loaded machine took over 3 s and got the slot a finished Python extra had left.
        extra_langs = ["rust", "go", "java"]
        extra = [Worker(src, cmd=polyglot_cmd(l, src, 10, layout)) for l in extra_langs]
        got = [w.node() for w in extra]
        self.assertNotIn(None, got)
        self.assertEqual(len(set(nodes[:1] + nodes[2:] + got)), 8,
                         f"fleet {list(zip(langs, nodes))}, extra {got}")
        heirs = [w for w in extra if w.node() == victim.node()]
        self.assertEqual(len(heirs), 1)
        heir = heirs[0]
        for w in fleet + extra:
            w.finish(60)
        self.assertTrue(heir.ids())
        self.assertGreater(min(heir.ids()), max(victim.ids()))
        for e in heir.errors():  # strict: refuses until its clock passes the victim's mark
            if not is_slow_mark_write(e):  # (or its own mark write outlasted the wait budget)
                self.assertIn("CLOCK_MOVED_BACKWARDS", e)
        print_languages(f"one local registry, 8 slots; the killed {langs[1]} process's slot "
                        f"went to {extra_langs[extra.index(heir)]}", langs + extra_langs,
                        fleet + extra)
        all_ids = assert_unique(self, fleet + extra)
        self.assertGreater(len(all_ids), 1000)


@unittest.skipUnless(os.environ.get("FLEET_POLYGLOT") == "1" and ETCD,
                     "FLEET_POLYGLOT and SNOWFLEET_TEST_ETCD not both set")
class PolyglotEtcdPrefix(unittest.TestCase):
    def test_python_node_java_go_rust_share_one_etcd_prefix(self):
        prefix = f"polyglot-{os.getpid()}-{time.monotonic_ns()}"
        layout, src = "41.10.12@1704067200000", f"etcd://{ETCD}/{prefix}?ttl=5"
        langs = ["python", "node", "java", "go", "rust", "python", "node", "java", "go", "rust"]
        fleet = [Worker(src, cmd=polyglot_cmd(l, src, 8, layout)) for l in langs]
        nodes = [w.node() for w in fleet]
        self.assertNotIn(None, nodes, [w.snapshot()[:2] for w in fleet])
        self.assertEqual(len(set(nodes)), len(fleet), list(zip(langs, nodes)))
        codes = [w.finish(60) for w in fleet]
        self.assertEqual(codes, [0] * len(fleet), list(zip(langs, codes)))
        for lang, w, node in zip(langs, fleet, nodes):
            self.assertTrue(w.ids(), (lang, w.snapshot()[-3:]))
            self.assertEqual({decode(i)["node"] for i in w.ids()}, {node}, lang)
            # A refusal may only be the lease's guard (a mark write or a renewal that a loaded
            # machine delayed past its budget), never an id from a slot it does not hold.
            for e in w.errors():
                self.assertIn("LEASE_LOST", e, lang)
        print_languages(f"one etcd prefix ({prefix})", langs, fleet)
        assert_unique(self, fleet)


@unittest.skipUnless(ETCD, "SNOWFLEET_TEST_ETCD not set")
class EtcdFleet(unittest.TestCase):
    def prefix(self, name):
        return f"{name}-{os.getpid()}-{time.monotonic_ns()}"

    def test_racing_claimants_exactly_one_wins(self):
        for round_ in range(6):
            # Alternate between a pinned slot and a one-slot layout (the probing path).
            if round_ % 2:
                src, extra = f"etcd://{ETCD}/{self.prefix('race')}?ttl=5&node=7", []
            else:
                src, extra = f"etcd://{ETCD}/{self.prefix('race')}?ttl=5", ["--layout", "41.0.22@1704067200000"]
            racers = [Worker(src, *extra, "--seconds", 1, "--burst", 4) for _ in range(6)]
            codes = [w.finish() for w in racers]
            winners = [w for w, c in zip(racers, codes) if c == 0]
            self.assertEqual(len(winners), 1, [w.snapshot()[:2] for w in racers])
            for w, c in zip(racers, codes):
                if c != 0:
                    self.assertEqual(c, 2)
                    self.assertIn("NODE_ID_UNAVAILABLE", w.errors()[0])
            assert_unique(self, racers)

    def test_stopped_holder_raises_lease_lost_after_sigcont_before_minting(self):
        src = f"etcd://{ETCD}/{self.prefix('stop')}?ttl=2&node=5"
        a = Worker(src, "--seconds", 30, "--burst", 4, "--keep-going")
        self.assertEqual(a.node(), 5)
        time.sleep(1.0)
        a.proc.send_signal(signal.SIGSTOP)
        stopped_at = now_ms()
        time.sleep(4.0)  # well past TTL 2 s: etcd expires the lease
        b = Worker(src, "--seconds", 1, "--burst", 4)
        self.assertEqual(b.node(), 5, b.snapshot()[:3])  # the slot was free for someone else
        self.assertEqual(b.finish(), 0, b.errors())
        a.proc.send_signal(signal.SIGCONT)
        self.assertIsNotNone(a.wait_for("error LEASE_LOST", 10), a.snapshot()[-5:])
        time.sleep(0.5)
        a.stop()
        a_ids = a.ids()
        self.assertTrue(a_ids)
        # Nothing was minted after the pause: every id of A predates the SIGSTOP.
        latest = max(decode(i)["ms"] for i in a_ids)
        self.assertLessEqual(latest, stopped_at + 20)
        self.assertTrue(all("LEASE_LOST" in e for e in a.errors()), a.errors()[:3])
        self.assertIn("status lost 0", "\n".join(l for _, l in a.snapshot()))
        assert_unique(self, [a, b])
        self.assertGreater(min(b.ids()), max(a_ids))


class EtcdOutage(unittest.TestCase):
    def setUp(self):
        if not shutil.which(ETCD_BIN):
            self.skipTest("no etcd binary")
        self.etcd = Etcd()
        self.etcd.start()
        self.addCleanup(self.etcd.close)

    def test_etcd_killed_minting_continues_until_the_deadline_then_refuses(self):
        ttl = 3  # keepalive every 1 s, deadline = last keepalive + 3 s - 0.6 s margin
        src = f"etcd://{self.etcd.endpoint}/outage?ttl={ttl}"
        a = Worker(src, "--seconds", 40, "--burst", 4, "--keep-going")
        self.assertIsNotNone(a.node(), a.why_no_node())
        time.sleep(2.0)
        killed_at = now_ms()
        self.etcd.kill()
        self.assertIsNotNone(a.wait_for("error LEASE_LOST", 10))
        lost_line = next(l for _, l in a.snapshot() if l.startswith("error LEASE_LOST"))
        refused_at = int(lost_line.split()[2])
        minted_in_outage = [i for i in a.ids() if decode(i)["ms"] > killed_at]
        # It went on minting for more than the 1 s reserved ahead (the mark leads by the TTL) ...
        self.assertGreater(max(decode(i)["ms"] for i in minted_in_outage), killed_at + 1000)
        # ... and stopped by the local deadline: at most TTL - margin after the last keepalive.
        self.assertGreaterEqual(refused_at, killed_at + 1000)
        self.assertLessEqual(refused_at, killed_at + ttl * 1000 - 600 + 150)
        self.assertLessEqual(max(decode(i)["ms"] for i in a.ids()), refused_at)
        # etcd comes back with the lease still alive: a keepalive confirms it, minting resumes.
        restarted_at = now_ms()
        self.etcd.start()
        end = time.time() + 10
        while time.time() < end and not any(decode(i)["ms"] > restarted_at for i in a.ids()):
            time.sleep(0.1)
        self.assertTrue(any(decode(i)["ms"] > restarted_at for i in a.ids()), a.snapshot()[-3:])
        self.assertEqual(a.stop(), 0)
        assert_unique(self, [a])


class EtcdOutageFigures(unittest.TestCase):
    """etcd stopped (SIGSTOP: requests hang) or killed (connections refused) under 4 minting
    threads: no call blocks on the store, and past the lease's local deadline every call
    raises LEASE_LOST, none mints. Prints the figures."""

    def setUp(self):
        if not shutil.which(ETCD_BIN):
            self.skipTest("no etcd binary")
        self.etcd = Etcd()
        self.etcd.start()
        self.addCleanup(self.etcd.close)

    def run_outage(self, how, mode):
        # TTL 5: keepalives every 1.7 s, deadline = last keepalive + 4 s, and a request to a
        # stopped etcd times out after 1.7 s, which is what a minting call used to wait.
        src = f"etcd://{self.etcd.endpoint}/probe-{how}-{mode}?ttl=5"
        probe = subprocess.Popen([PROBE, "--source", src, "--threads", "4", "--seconds", "8",
                                  "--mode", mode], stdout=subprocess.PIPE, text=True)
        self.addCleanup(lambda: probe.poll() is None and probe.kill())
        self.assertTrue(probe.stdout.readline().startswith("node "))
        time.sleep(1.5)
        probe.send_signal(signal.SIGUSR1)  # the outage starts now
        if how == "stopped":
            self.etcd.proc.send_signal(signal.SIGSTOP)
            self.addCleanup(lambda: self.etcd.proc.send_signal(signal.SIGCONT))
        else:
            self.etcd.kill()
        out, _ = probe.communicate(timeout=120)
        self.assertNotIn("unexpected", out)
        summary = next(l for l in out.splitlines() if l.startswith("summary "))
        fig = {k: int(v) for k, v in (kv.split("=") for kv in summary.split()[1:])}
        print(f"\n  etcd {how}, {mode}, 4 threads: {fig['ok_calls']:,} ids, slowest call "
              f"while the lease was valid {fig['slowest_ok_us']} us (during the outage "
              f"{fig['slowest_ok_outage_us']} us); past the deadline "
              f"{fig['refused_after_deadline']:,} calls all refused (slowest "
              f"{fig['slowest_refusal_us']} us, p99 {fig['p99_refusal_us']} us), ids minted "
              f"past it {fig['ids_after_deadline']}", flush=True)
        self.assertEqual(fig["deadline_known"], 1, summary)
        self.assertGreater(fig["refused_after_deadline"], 0, summary)
        self.assertEqual(fig["ids_after_deadline"], 0, summary)
        # No call waits on the store: before the fix one call per thread blocked on the mark
        # write until the request timed out (1.7 s here). The bound only catches that; the
        # figures above are what to read (a loaded machine adds scheduling delays).
        self.assertLess(fig["slowest_ok_outage_us"], 1_000_000, summary)
        self.assertLess(fig["slowest_refusal_us"], 1_000_000, summary)
        return fig

    def test_etcd_stopped_strict(self):
        self.run_outage("stopped", "strict")

    def test_etcd_stopped_monotonic(self):
        self.run_outage("stopped", "monotonic")

    def test_etcd_killed_strict(self):
        self.run_outage("killed", "strict")


if __name__ == "__main__":
    result = unittest.main(exit=False, verbosity=2).result
    print(f"fleet: {TOTAL['processes']} processes, {TOTAL['ids']} ids collected, "
          f"{'zero duplicates' if result.wasSuccessful() else 'FAILED'}")
    raise SystemExit(0 if result.wasSuccessful() else 1)
