#!/usr/bin/env python3
"""Claim storm on one etcd prefix: 1,024 claimants of a 10-bit layout,
generators spread over a few processes per language plus CLI runs, start at one instant.
Every claim must succeed on a distinct slot, no id may be minted twice, the 1,025th claimant
gets NODE_ID_UNAVAILABLE naming the prefix and the number of slots held, and a storm whose
processes are SIGKILLed leaves no slot key behind past one TTL.

Prints the storm's figures: wall time until every claimant held a slot, claim latency
(median, p99, max: each generator constructor's duration), etcd requests per claimant, in
all and by kind (transactions, ranges: read from etcd's own gRPC counters, so every language
is counted alike; a process's claims share transactions), held generators that
refused their first ids, etcd's CPU time, the idle mark load once all 1,024 slots are held
(etcd transactions per second), and the load average beside them (the machine is shared).

Run by scripts/test/fleet.sh; starts a private etcd. Environment as fleet_test.py, plus
STORM_WORKER (tests/storm_worker.cc), SNOWFLEET_CLI, STORM_TTL (default 5), STORM_BUDGET_S
(default 90: a hang guard, not the target), STORM_LANGS (which of python,node,java take part when
FLEET_POLYGLOT=1; default all).
"""
import os
import re
import signal
import subprocess
import sys
import time
import unittest
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fleet_test import Etcd, Worker, assert_unique, ETCD_BIN  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
STORM = os.path.abspath(os.environ.get("STORM_WORKER", "out/fleet/tests/storm_worker"))
CLI = os.path.abspath(os.environ.get("SNOWFLEET_CLI", "out/fleet/core/snowfleet"))
TTL = int(os.environ.get("STORM_TTL", "5"))
LAYOUT = "41.10.12@1704067200000"
SLOTS = 1024
POLYGLOT = os.environ.get("FLEET_POLYGLOT") == "1"
# Generators per process by language (the C++ workers take whatever is left), CLI runs.
# STORM_LANGS narrows it (e.g. "python"); the default is every language built.
SPREAD = {"python": [64, 64], "node": [32, 32], "java": [48, 48]} if POLYGLOT else {}
if os.environ.get("STORM_LANGS"):
    SPREAD = {k: v for k, v in SPREAD.items() if k in os.environ["STORM_LANGS"].split(",")}
CLI_RUNS = 8
# A hang guard, not a speed check: the targets (5 s on a machine otherwise idle, 10 s beside
# two builds) are printed beside the figure, since a timing assertion on a shared 2-core
# machine would only measure the neighbours.
BUDGET_S = float(os.environ.get("STORM_BUDGET_S", "90"))
TARGETS_S = ((5.0, "machine otherwise idle"), (10.0, "beside two builds"))


def storm_cmd(lang, source, count, start_at):
    if lang == "cpp":
        return [STORM, "--source", source, "--generators", str(count), "--layout", LAYOUT,
                "--start-at", str(start_at), "--hold-seconds", "120"]
    if lang == "python":
        return [os.environ["FLEET_PY"], os.path.join(HERE, "storm_worker.py"), source, str(count),
                LAYOUT, str(start_at)]
    if lang == "node":
        return ["node", os.path.join(HERE, "storm_worker.js"), source, str(count), LAYOUT,
                str(start_at)]
    return [os.environ["FLEET_JAVA"], "-cp", os.environ["FLEET_JAR"],
            os.path.join(HERE, "StormWorker.java"), source, str(count), LAYOUT, str(start_at)]


def etcd_requests(endpoint):
    """Requests etcd has received so far, by gRPC method (the JSON gateway forwards each
    POST as one gRPC message)."""
    text = urllib.request.urlopen(f"http://{endpoint}/metrics", timeout=5).read().decode()
    out = {}
    for m in re.finditer(r'^grpc_server_msg_received_total\{[^}]*grpc_method="(\w+)"[^}]*\} (\S+)$',
                         text, re.M):
        out[m.group(1)] = out.get(m.group(1), 0) + int(float(m.group(2)))
    return out


def held_slots(endpoint, prefix):
    import base64
    import json
    key = f"{prefix}/slots/"
    end = key[:-1] + chr(ord(key[-1]) + 1)
    body = json.dumps({"key": base64.b64encode(key.encode()).decode(),
                       "range_end": base64.b64encode(end.encode()).decode(),
                       "count_only": True}).encode()
    req = urllib.request.Request(f"http://{endpoint}/v3/kv/range", data=body, method="POST")
    return int(json.loads(urllib.request.urlopen(req, timeout=5).read()).get("count", 0))


def cpu_seconds(pid):
    """User + system CPU time a process has used so far (from /proc)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def slow_warnings(etcd):
    """What etcd logged about its own slowness: a disk that syncs slowly (the machine's
    other load) stalls every request, which then times out on the client."""
    try:
        with open(f"{etcd.dir}/log", errors="replace") as f:
            text = f.read()
    except OSError:
        return "log unreadable"
    return (f"{text.count('slow fdatasync')} slow fdatasync, "
            f"{text.count('took too long')} requests that took too long")


def load_text():
    return "load average " + " ".join(f"{x:.1f}" for x in os.getloadavg())


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


class EtcdClaimStorm(unittest.TestCase):
    def setUp(self):
        self.etcd = Etcd()
        self.etcd.start()
        self.addCleanup(self.etcd.close)
        self.prefix = f"storm-{os.getpid()}"
        self.source = f"etcd://{self.etcd.endpoint}/{self.prefix}?ttl={TTL}"
        self.workers = []
        self.addCleanup(self.kill_all)

    def kill_all(self):
        for w in self.workers:
            if w.proc.poll() is None:
                w.proc.kill()
            w.finish(5)

    def test_1024_claimants_distinct_slots_then_refusal_then_sigkill_frees_every_slot(self):
        # Which processes: the languages' shares, the CLI runs, C++ workers for the rest.
        plan = [(lang, n) for lang, counts in SPREAD.items() for n in counts]
        rest = SLOTS - CLI_RUNS - sum(n for _, n in plan)
        cpp = 4
        plan += [("cpp", rest // cpp + (1 if i < rest % cpp else 0)) for i in range(cpp)]
        before = etcd_requests(self.etcd.endpoint)
        cpu_before, load_before = cpu_seconds(self.etcd.proc.pid), load_text()
        start_at = int(time.time() * 1000) + (3000 if POLYGLOT else 500)  # JVM start-up
        for lang, n in plan:
            self.workers.append(Worker(self.source, cmd=storm_cmd(lang, self.source, n, start_at)))
        time.sleep(max(0.0, start_at / 1000 - time.time()))
        cli = [subprocess.Popen([CLI, "next", "--node-source", self.source, "--layout", LAYOUT,
                                 "-n", "4"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True) for _ in range(CLI_RUNS)]
        cli_out = [p.communicate(timeout=60) + (p.returncode,) for p in cli]
        ready = [w.wait_for("ready ", 60) for w in self.workers]
        wall_s = (time.time() * 1000 - start_at) / 1000
        after = etcd_requests(self.etcd.endpoint)
        etcd_cpu = cpu_seconds(self.etcd.proc.pid) - cpu_before
        workers_cpu = sum(cpu_seconds(w.proc.pid) for w in self.workers if w.proc.poll() is None)
        for w, r in zip(self.workers, ready):
            self.assertIsNotNone(r, (w.cmd[:2], w.snapshot()[-3:]))

        claims, errors, nodes, mint_refusals = [], [], [], []
        for w in self.workers:
            ready_seen = False
            for _, line in w.snapshot():
                if line.startswith("claimed "):
                    _, node, us = line.split()[:3]
                    nodes.append(int(node))
                    claims.append(int(us) / 1000)
                elif line.startswith("ready "):
                    ready_seen = True
                elif line.startswith("error "):
                    # After `ready`: a held slot refusing to mint (fenced: the mark keeper's
                    # write did not land within the wait budget); counted, not a claim failure.
                    (mint_refusals if ready_seen else errors).append(line)
        cli_claims = 0
        for out, err, rc in cli_out:
            if rc == 0:
                cli_claims += 1
            else:
                errors.append("cli: " + err.strip())
        cli_ids = [int(x) for out, _, _ in cli_out for x in out.split()]
        requests = {k: after.get(k, 0) - before.get(k, 0) for k in after}
        total_requests = sum(requests.values())
        n = len(claims) + len(errors) + cli_claims
        print(f"\nstorm: {n} claimants ({len(self.workers)} processes: "
              f"{', '.join(f'{l} {c}' for l, c in plan)}; {CLI_RUNS} CLI runs), TTL {TTL} s: "
              f"{len(claims)} generator claims held, {cli_claims} CLI claims, {len(errors)} refused, all held after {wall_s:.2f} s")
        if claims:
            print(f"storm: claim latency ms: median {pct(claims, 0.5):.1f}, p99 {pct(claims, 0.99):.1f}, "
                  f"max {max(claims):.1f}")
        print(f"storm: etcd requests {total_requests} ({n} claimants, {total_requests / n:.2f} per claimant; "
              f"{', '.join(f'{k} {v}' for k, v in sorted(requests.items()) if v)}; "
              f"includes each generator's first mark write and keepalives)")
        print(f"storm: per claimant: Txn {requests.get('Txn', 0) / n:.3f}, "
              f"Range {requests.get('Range', 0) / n:.3f}")
        print(f"storm: etcd's own warnings: {slow_warnings(self.etcd)}")
        print(f"storm: CPU etcd {etcd_cpu:.1f} s, claimant processes {workers_cpu:.1f} s; {load_before} at the start, {load_text()} at the end")
        print(f"storm: {len(mint_refusals)} held generators refused their first ids"
              + (f" (e.g. {mint_refusals[0].split(' ', 3)[3][:160]})" if mint_refusals else ""))
        if errors:
            # Why, grouped (the numbers in a message differ from claimant to claimant).
            causes = {}
            for e in errors:
                cause = re.sub(r"\d+", "N", e.split(": ", 1)[-1])[:200]
                causes[cause] = causes.get(cause, 0) + 1
            for cause, count in sorted(causes.items(), key=lambda kv: -kv[1])[:5]:
                print(f"storm: {count} refused: {cause}")
        self.assertEqual(errors, [], f"{len(errors)} refused, e.g. {errors[:2]}")
        self.assertEqual(len(claims), SLOTS - CLI_RUNS)
        owners = {}
        for w in self.workers:
            for _, line in w.snapshot():
                if line.startswith("claimed "):
                    owners.setdefault(int(line.split()[1]), []).append(os.path.basename(w.cmd[1]) + f"/{w.proc.pid}")
        shared = {n: o for n, o in owners.items() if len(o) > 1}
        self.assertEqual(len(set(nodes)), len(nodes), f"two generators hold one slot: {list(shared.items())[:5]}")
        # Every generator's ids, and the CLI's: none minted twice.
        ids = assert_unique(self, self.workers) + cli_ids
        self.assertEqual(len(ids), len(set(ids)), "an id was minted twice")
        verdicts = "; ".join(f"{t:.0f} s {why}: {'met' if wall_s < t else 'missed'}" for t, why in TARGETS_S)
        print(f"storm: every claim held after {wall_s:.2f} s (targets {verdicts}; "
              f"{load_before} at the start)", flush=True)
        self.assertLess(wall_s, BUDGET_S, "the storm did not finish within its hang guard")

        # The CLI runs have released their slots: fill them, then one more is refused.
        fill = Worker(self.source, cmd=storm_cmd("cpp", self.source, CLI_RUNS + 1, 0))
        self.workers.append(fill)
        line = fill.wait_for("ready ", 30)
        self.assertEqual(line, f"ready {CLI_RUNS} 1", fill.snapshot()[-3:])
        refusal = fill.errors()[0]
        self.assertIn("NODE_ID_UNAVAILABLE", refusal)
        self.assertIn(f"{self.prefix}/slots/", refusal)
        self.assertIn(f"{SLOTS} of {SLOTS} slots held", refusal)
        print(f"storm: claimant 1,025: {refusal.split(' ', 3)[3]}")
        all_nodes = nodes + [int(l.split()[1]) for _, l in fill.snapshot() if l.startswith("claimed ")]
        self.assertEqual(sorted(all_nodes), list(range(SLOTS)))

        # Every slot held, nobody minting: what the mark keepers alone cost etcd.
        idle_before, t0 = etcd_requests(self.etcd.endpoint).get("Txn", 0), time.monotonic()
        time.sleep(3)
        idle = (etcd_requests(self.etcd.endpoint).get("Txn", 0) - idle_before) / (time.monotonic() - t0)
        print(f"storm: idle mark load with {SLOTS} slots held: {idle:.0f} etcd Txn/s ({load_text()})")

        # SIGKILL every holder: etcd deletes every slot key within one TTL of the kill.
        for w in self.workers:
            w.proc.send_signal(signal.SIGKILL)
        killed = time.monotonic()
        while held_slots(self.etcd.endpoint, self.prefix) and time.monotonic() < killed + 3 * TTL:
            time.sleep(0.05)
        left, freed_s = held_slots(self.etcd.endpoint, self.prefix), time.monotonic() - killed
        print(f"storm: SIGKILLed all {len(self.workers)} processes; slot keys left {left}, "
              f"all gone {freed_s:.2f} s after the kill (TTL {TTL} s)")
        self.assertEqual(left, 0)
        self.assertLessEqual(freed_s, TTL + 1.0)  # etcd checks expiry every 500 ms


if __name__ == "__main__":
    unittest.main(verbosity=2)
