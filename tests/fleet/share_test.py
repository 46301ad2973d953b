#!/usr/bin/env python3
"""A host-shared node id across languages: 64 processes (Python, Node and Java) name one
private registry and one share (local:DIR?share=fleet, the default layout 41.10.12) and mint
as fast as they can for a few seconds, all on the one state word the share's file holds.

Checks: every process reports the same node id; while they run, exactly one slot file is
in the registry and it is locked, by one open-file-description read lock per live sharer;
an exclusive claim of that node id is refused meanwhile; one process per language is
SIGKILLed in the middle of minting and every other keeps minting after the kills; no id is
minted twice over all processes (every id each was handed is collected, as runs of
consecutive ids); each process's ids ascend; the slot is free once all have exited.

Prints the figures: processes by language, ids, ids/s over the minting window beside the
cap (4,096 ids per ms: 4,096,000 ids/s), the ratio, how many of the window's milliseconds
were spent to the last sequence number, and the load average (the machine may be shared:
the ratio is reported, not asserted).

Run by scripts/test/fleet.sh when the cross-language tests are on. Environment: FLEET_PY,
FLEET_JAR and FLEET_JAVA as fleet_test.py (javac is taken from beside FLEET_JAVA), node
with the addon built in this checkout; SNOWFLEET_CLI (optional: the exclusive claim is also
tried with the CLI); SHARE_PROCESSES (default 64), SHARE_SECONDS (minting window, default
4), SHARE_BATCH (ids per call, default 2048).
"""
import fcntl
import os
import re
import shutil
import signal
import struct
import subprocess
import tempfile
import threading
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PROCESSES = int(os.environ.get("SHARE_PROCESSES", "64"))
SECONDS = float(os.environ.get("SHARE_SECONDS", "4"))
BATCH = int(os.environ.get("SHARE_BATCH", "2048"))
CLI = os.environ.get("SNOWFLEET_CLI")
LANGS = ("python", "node", "java")
EPOCH, NODE_BITS, SEQ_BITS = 1704067200000, 10, 12  # the default layout
PER_MS = 1 << SEQ_BITS
F_OFD_GETLK = getattr(fcntl, "F_OFD_GETLK", 36)  # Linux; older Pythons lack the name


def now_ms():
    return time.time_ns() // 1_000_000


def id_ms(id_):
    return (id_ >> (NODE_BITS + SEQ_BITS)) + EPOCH


def id_node(id_):
    return (id_ >> SEQ_BITS) & ((1 << NODE_BITS) - 1)


def ofd_locked(path):
    """Whether some open file description holds a lock on `path` (F_OFD_GETLK with a write
    lock asked: any lock held conflicts), as tests/local_util.hpp's locked()."""
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW | os.O_NONBLOCK)
    try:
        # struct flock (x86-64 and aarch64): short l_type, l_whence; off_t l_start, l_len;
        # pid_t l_pid (0: F_OFD_GETLK requires it).
        fl = struct.pack("hhqqi4x", fcntl.F_WRLCK, os.SEEK_SET, 0, 0, 0)
        l_type = struct.unpack("hhqqi4x", fcntl.fcntl(fd, F_OFD_GETLK, fl))[0]
        return l_type != fcntl.F_UNLCK
    finally:
        os.close(fd)


def ofd_locks(path):
    """The OFD locks /proc/locks lists on `path`'s inode, as (type, pid) pairs (pid -1:
    an OFD lock names no process)."""
    st = os.stat(path)
    dev = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    out = []
    with open("/proc/locks") as f:
        for line in f:
            parts = line.split()
            # "1: OFDLCK ADVISORY READ -1 08:01:1234 0 EOF" ("->" marks a waiter)
            if "->" in parts:
                continue
            if len(parts) >= 6 and parts[1] == "OFDLCK" and parts[5] == dev:
                out.append((parts[3], int(parts[4])))
    return out


def load_text():
    return "load average " + " ".join(f"{x:.1f}" for x in os.getloadavg())


class Sharer:
    """One worker process: stdin takes the `go` line, a thread collects its stdout lines;
    its ids are in its run file."""

    def __init__(self, lang, cmd, runfile):
        self.lang, self.cmd, self.runfile = lang, cmd, runfile
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1, cwd="/")
        self.lines = []
        self.lock = threading.Lock()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.killed_ms = None

    def _read(self):
        for line in self.proc.stdout:
            with self.lock:
                self.lines.append(line.rstrip("\n"))

    def snapshot(self):
        with self.lock:
            return list(self.lines)

    def line(self, prefix):
        return next((l for l in self.snapshot() if l.startswith(prefix)), None)

    def node(self):
        line = self.line("node ")
        return int(line.split()[1]) if line else None

    def errors(self):
        return [l for l in self.snapshot() if l.startswith("error ")]

    def go(self, end_ms):
        self.proc.stdin.write(f"go {end_ms}\n")
        self.proc.stdin.flush()

    def runs(self):
        """(first id, count) per run of consecutive ids, in the order handed out."""
        try:
            with open(self.runfile) as f:
                text = f.read()
        except FileNotFoundError:
            return []
        lines = text.split("\n")
        if lines and lines[-1] != "":
            lines = lines[:-1]  # a SIGKILL may cut the last write short
        return [(int(a), int(b)) for a, b in (l.split() for l in lines if l)]

    def finish(self, timeout):
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.reader.join(5)
        for pipe in (self.proc.stdin, self.proc.stdout):
            try:
                pipe.close()
            except OSError:
                pass
        return self.proc.returncode


def wait_until(what, timeout, step=0.02):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if what():
            return True
        time.sleep(step)
    return what()


@unittest.skipUnless(os.environ.get("FLEET_POLYGLOT") == "1", "FLEET_POLYGLOT not set")
class HostSharedNodeId(unittest.TestCase):
    def setUp(self):
        self.reg = tempfile.mkdtemp(prefix="snowfleet-share-")
        self.work = tempfile.mkdtemp(prefix="snowfleet-share-runs-")
        self.addCleanup(shutil.rmtree, self.reg, True)
        self.addCleanup(shutil.rmtree, self.work, True)
        self.sharers = []
        self.addCleanup(self.kill_all)

    def kill_all(self):
        for s in self.sharers:
            if s.proc.poll() is None:
                s.proc.kill()
            s.finish(5)

    def java_classes(self):
        """ShareWorker compiled once: 20-odd JVMs compiling the source file each would take
        the machine for most of a minute."""
        classes = os.path.join(self.work, "classes")
        javac = os.path.join(os.path.dirname(os.environ["FLEET_JAVA"]), "javac")
        subprocess.run([javac, "-nowarn", "-d", classes, "-cp", os.environ["FLEET_JAR"],
                        os.path.join(HERE, "ShareWorker.java")], check=True)
        return classes

    def command(self, lang, source, runfile, classes):
        if lang == "python":
            return [os.environ["FLEET_PY"], os.path.join(HERE, "share_worker.py"), source,
                    runfile, str(BATCH)]
        if lang == "node":
            return ["node", os.path.join(HERE, "share_worker.js"), source, runfile, str(BATCH)]
        # A small heap and the client compiler: 20-odd JVMs start on a 2-core machine.
        return [os.environ["FLEET_JAVA"], "-Xmx64m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-cp", f"{os.environ['FLEET_JAR']}:{classes}",
                "ShareWorker", source, runfile, str(BATCH)]

    def slot_files(self):
        return sorted(n for n in os.listdir(self.reg) if re.fullmatch(r"slot-\d+", n))

    def exclusive_claim(self, node):
        """An exclusive claim of the shared node id from a Python process: ("refused" or
        "claimed", Unix ms of the outcome, what it said)."""
        py = subprocess.run(
            [os.environ["FLEET_PY"], "-c",
             "import sys, time, snowfleet\n"
             "try:\n"
             "    g = snowfleet.Generator(node_source=sys.argv[1])\n"
             "except snowfleet.SnowfleetError as e:\n"
             "    print('refused', time.time_ns() // 10**6, e.code, e)\n"
             "else:\n"
             "    print('claimed', time.time_ns() // 10**6, g.node_id, g.next_id())\n",
             f"local:{self.reg}?node={node}"],
            capture_output=True, text=True, timeout=60, cwd="/")
        if py.returncode != 0:
            return "failed", 0, py.stderr.strip()[-300:]
        outcome, at, said = py.stdout.strip().split(" ", 2)
        return outcome, int(at), said

    def cli_claim(self, node):
        cli = subprocess.run([CLI, "next", "--node-source", f"local:{self.reg}?node={node}",
                              "-n", "1"], capture_output=True, text=True, timeout=60)
        return cli.returncode, cli.stdout.strip(), cli.stderr.strip()

    def test_64_processes_in_three_languages_share_one_node_id(self):
        t_start = time.monotonic()
        source = f"local:{self.reg}?share=fleet"
        classes = self.java_classes()
        langs = [LANGS[i % len(LANGS)] for i in range(PROCESSES)]
        load_before = load_text()
        for i, lang in enumerate(langs):
            runfile = os.path.join(self.work, f"runs-{i:02d}-{lang}")
            self.sharers.append(Sharer(lang, self.command(lang, source, runfile, classes), runfile))

        # Everyone joins: one node id.
        joined = wait_until(lambda: all(s.line("node ") or s.proc.poll() is not None
                                        for s in self.sharers), 90, 0.05)
        started_s = time.monotonic() - t_start
        not_joined = [(s.lang, s.proc.poll(), s.snapshot()[-2:]) for s in self.sharers
                      if s.node() is None]
        self.assertTrue(joined and not not_joined, f"not joined: {not_joined[:4]}")
        nodes = {s.node() for s in self.sharers}
        self.assertEqual(len(nodes), 1, f"node ids reported: {sorted(nodes)}")
        node = nodes.pop()
        slot = f"slot-{node:04d}"
        path = os.path.join(self.reg, slot)
        self.assertEqual(self.slot_files(), [slot])

        # All joined, none minting yet: every sharer holds the slot file with a read lock of
        # its own, and an exclusive claim of the node id is refused.
        self.assertTrue(ofd_locked(path))
        locks_joined = ofd_locks(path)
        self.assertEqual(len(locks_joined), PROCESSES, f"locks on {slot}: {locks_joined[:4]}...")
        self.assertEqual({t for t, _ in locks_joined}, {"READ"})
        outcome, _, said = self.exclusive_claim(node)
        self.assertEqual(outcome, "refused", f"an exclusive claim of node {node} was granted "
                         f"while {PROCESSES} processes shared it: {said}")
        self.assertIn("NODE_ID_UNAVAILABLE", said)
        refusals = ["Python, all joined: " + said]
        if CLI:
            rc, out, err = self.cli_claim(node)
            self.assertNotEqual(rc, 0, f"the CLI claimed node {node} while it was shared: {out}")
            self.assertEqual(out, "")
            refusals.append("CLI, all joined: " + err)

        # Go: every process mints until the same instant.
        go_ms = now_ms() + 200
        end_ms = go_ms + int(SECONDS * 1000)
        for s in self.sharers:
            s.go(end_ms)
        self.assertTrue(wait_until(lambda: all(s.line("minting ") for s in self.sharers), 30),
                        "not every process started minting")
        # An exclusive claim again while they mint (beside them, so it does not hold up the
        # kills below: a Python start on a busy machine takes a while).
        during = []
        claimer = threading.Thread(target=lambda: during.append(self.exclusive_claim(node)))
        claimer.start()

        # While they mint: one slot file, read-locked once per sharer.
        time.sleep(max(0.0, (go_ms + 0.2 * SECONDS * 1000 - now_ms()) / 1000))
        self.assertEqual(self.slot_files(), [slot])
        self.assertTrue(ofd_locked(path))
        locks_all = ofd_locks(path)
        self.assertEqual(len(locks_all), PROCESSES, f"locks on {slot}: {locks_all[:4]}...")

        # SIGKILL one process per language in the middle of minting: one whose run file
        # grows (it is being handed ids); if none of the language's does within half a
        # second, that is noted and one is killed anyway.
        failures, victims = [], []
        for k, lang in enumerate(LANGS):
            at = go_ms + (0.35 + 0.1 * k) * SECONDS * 1000
            time.sleep(max(0.0, (at - now_ms()) / 1000))
            mine = [s for s in self.sharers if s.lang == lang and s.proc.poll() is None]
            sizes = {s: os.path.getsize(s.runfile) for s in mine}
            growing = []
            wait_until(lambda: growing.extend(s for s in mine if os.path.getsize(s.runfile) > sizes[s])
                       or growing, 0.5, 0.005)
            if not growing:
                failures.append(f"no {lang} process was handed ids for 0.5 s from "
                                f"{now_ms() - 500 - go_ms} ms into the window: "
                                + "; ".join(f"{s.proc.pid}: {s.errors()[-1:]}" for s in mine[:3]))
            victim = (growing or mine)[0]
            victim.proc.send_signal(signal.SIGKILL)
            victim.killed_ms = now_ms()
            victim.proc.wait()
            victims.append(victim)
        last_kill_ms = max(v.killed_ms for v in victims)
        survivors = [s for s in self.sharers if s not in victims]
        # The victims' locks went with them; the survivors still hold the slot.
        locks_after = ofd_locks(path)
        checked_ms = now_ms()
        gone = [(s.lang, s.proc.pid, s.proc.poll(), s.snapshot()[-1:]) for s in survivors
                if s.proc.poll() is not None or s.line("closed ")]
        if checked_ms < end_ms and not gone:
            self.assertEqual(len(locks_after), len(survivors),
                             f"{checked_ms - go_ms} ms into the window")
        else:  # some survivor already finished: it released the slot as it closed
            self.assertLessEqual(len(locks_after), len(survivors))
        self.assertEqual(self.slot_files(), [slot])

        for s in survivors:
            s.finish(60)
        claimer.join(60)
        self.assertTrue(during, "the exclusive claim during minting did not finish")
        outcome, at, said = during[0]
        if outcome == "claimed":  # legitimate only once the sharers had all gone
            self.assertGreater(at, end_ms, f"an exclusive claim of node {node} was granted "
                               f"{at - go_ms} ms into the minting window: {said}")
            refusals.append(f"Python, while minting: not tried in time ({at - end_ms} ms after "
                            f"the window; granted then: {said})")
        else:
            self.assertEqual(outcome, "refused", said)
            self.assertIn("NODE_ID_UNAVAILABLE", said)
            refusals.append(f"Python, {at - go_ms} ms into the window: {said}")
        wall_s = time.monotonic() - t_start
        self.assertEqual([s.proc.returncode for s in survivors], [0] * len(survivors),
                         [(s.lang, s.proc.returncode, s.snapshot()[-2:]) for s in survivors
                          if s.proc.returncode][:4])
        # All gone: the slot is free again.
        self.assertEqual(self.slot_files(), [slot])
        self.assertFalse(ofd_locked(path), "the slot is still locked")
        self.assertEqual(ofd_locks(path), [])

        # Every id each process was handed: one node id, each process's ids ascending, runs
        # inside one millisecond, and no id handed to two processes (or twice to one).
        spans, per_ms = [], {}
        count = {lang: 0 for lang in LANGS}
        stopped = []  # survivors with no id after the last kill
        for s in self.sharers:
            runs = s.runs()
            if s not in victims:
                handed = int(s.line("closed ").split()[1])
                self.assertEqual(sum(n for _, n in runs), handed,
                                 f"{s.lang} process {s.proc.pid}: run file and count differ")
                if not runs or id_ms(runs[-1][0]) <= last_kill_ms:
                    stopped.append(s)
            prev = -1
            for first, n in runs:
                self.assertGreater(first, prev, f"{s.lang} process {s.proc.pid}: ids not ascending")
                self.assertEqual(id_node(first), node)
                self.assertLessEqual((first & (PER_MS - 1)) + n, PER_MS,
                                     "a run of consecutive ids crosses a millisecond")
                prev = first + n - 1
                spans.append((first, prev))
                ms = id_ms(first)
                per_ms[ms] = per_ms.get(ms, 0) + n
            count[s.lang] += sum(n for _, n in runs)
        spans.sort()
        total = sum(b - a + 1 for a, b in spans)
        twice, reach = 0, -1  # ids inside a span that an earlier span covers already
        for a, b in spans:
            if a <= reach:
                twice += min(b, reach) - a + 1
            reach = max(reach, b)
        errors = [e for s in self.sharers for e in s.errors()]
        kinds = {}
        for e in errors:
            kind = re.sub(r"\d+", "N", e.split(" ", 3)[3])[:150]
            kinds[kind] = kinds.get(kind, 0) + 1
        if stopped:
            last = [s.errors()[-1] for s in stopped if s.errors()]
            failures.append(f"{len(stopped)} of {len(survivors)} surviving processes were handed "
                            f"no id after the last kill ({', '.join(sorted({s.lang for s in stopped}))})"
                            + (f"; {len(last)} were refused last with e.g. {last[0]}" if last else ""))

        self.assertGreater(total, 0, "no id minted")
        first_ms, last_ms = min(per_ms), max(per_ms)
        window_ms = last_ms - first_ms + 1
        rate = total / (window_ms / 1000)
        cap = PER_MS * 1000
        full = sum(1 for v in per_ms.values() if v == PER_MS)
        after_kill = sum(v for ms, v in per_ms.items() if ms > last_kill_ms)
        after_ms = last_ms - last_kill_ms
        print(f"\n  share: {PROCESSES} processes on local:DIR?share=fleet, node {node}, "
              f"layout 41.10.12, batches of {BATCH}; all joined {started_s:.1f} s after the "
              f"first start ({load_before} then)", flush=True)
        for lang in LANGS:
            mine = [s for s in self.sharers if s.lang == lang]
            print(f"    {lang:6} {len(mine)} processes, {count[lang]:>11,} ids", flush=True)
        print(f"    ids {total:,} ({len(spans):,} runs), minted twice {twice}; refused calls "
              f"{len(errors)}", flush=True)
        for kind, n in sorted(kinds.items(), key=lambda kv: -kv[1])[:4]:
            print(f"      {n} refused: {kind}", flush=True)
        closed = [s.line("closed ").split() for s in survivors]
        print(f"    mark writes by the survivors {sum(int(c[2]) for c in closed):,}, failed "
              f"{sum(int(c[3]) for c in closed):,}", flush=True)
        print(f"    window {window_ms} ms: {rate:,.0f} ids/s, cap {cap:,} ids/s, ratio "
              f"{rate / cap:.3f}; {full} of {len(per_ms)} milliseconds with ids spent to the "
              f"last sequence number", flush=True)
        print(f"    SIGKILLed {', '.join(f'{v.lang} {v.proc.pid}' for v in victims)} "
              f"{victims[0].killed_ms - go_ms}..{last_kill_ms - go_ms} ms into the window; "
              f"after the last kill {len(survivors) - len(stopped)} of {len(survivors)} "
              f"processes were handed ids, {after_kill:,} ids in {after_ms} ms "
              f"({after_kill / max(after_ms, 1) / PER_MS:.3f} of the cap)", flush=True)
        print(f"    slot {slot}: {len(locks_all)} OFD read locks while all ran, "
              f"{len(locks_after)} after the kills, none after the exits", flush=True)
        for r in refusals:
            print(f"    exclusive claim of node {node}, {r[:220]}", flush=True)
        print(f"    {load_text()} at the end; test wall time {wall_s:.1f} s", flush=True)
        self.assertEqual(twice, 0, "an id was handed out twice")
        self.assertEqual(failures, [])


if __name__ == "__main__":
    unittest.main(verbosity=2)
