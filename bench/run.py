#!/usr/bin/env python3
"""Runs the core benchmarks and prints each figure beside its peer, as a ratio.

    cmake -S . -B out/release -G Ninja -DSNOWFLEET_BUILD_BENCH=ON && ninja -C out/release
    python3 bench/run.py [--binary out/release/bench/snowfleet_bench] [--repetitions 7]
                         [--json FILE] [--instructions N]

Each benchmark runs `--repetitions` times inside one process (Google Benchmark repetitions);
the table shows medians. The monotonic rows are run a second time with the TSC window
disabled (SNOWFLEET_TSC_WINDOW=0), so the cost of a plain clock_gettime path is visible too.
Each ratio line divides a row by the clock read measured in the same process.
--instructions N (default 100000; 0 skips it) also counts, under valgrind's callgrind, the
instructions of N calls of the clock read, monotonic next_id (window on and off) and UUIDv7
next (snowfleet_count_instructions beside the bench binary), per call.
--json also writes every row's median in the bench JSON form that bench/chart.py reads
(its docstring describes the form).
"""

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
from typing import Dict, Optional

TARGETS = {
    "strict": "strict next_id >= 4.0M ids/s (97.7% of 4,096,000/s)",
    "mono": "monotonic next_id <= 1.0x clock_gettime(CLOCK_REALTIME) (TSC window on), "
            "<= 1.3x with it off",
    "uuid7": "UUIDv7 next <= 1.3x clock_gettime(CLOCK_REALTIME)",
    "batch": "next_ids(4096) <= 2 ns/id",
    "shared": "2 threads, one monotonic generator >= 1.4x a mutex version",
}


def run(binary, reps, env_extra=None, filt=None):
    env = dict(os.environ, **(env_extra or {}))
    cmd = [binary, "--benchmark_format=json", f"--benchmark_repetitions={reps}",
           "--benchmark_report_aggregates_only=false"]
    if filt:
        cmd.append(f"--benchmark_filter={filt}")
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
    rows = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("run_type") != "iteration":
            continue
        name = b["run_name"].split("/")[0]
        if "/4096/" in b["run_name"] or b["run_name"].endswith("/4096"):
            name += "/4096"
        elif "/10000/" in b["run_name"]:
            name += "/10000"
        rows.setdefault(name, []).append(b["items_per_second"])
    return {k: statistics.median(v) for k, v in rows.items()}


def ns(ips):
    return 1e9 / ips


def cpu_model():
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def instructions(counter, call, n, env_extra=None) -> Optional[float]:
    """Instructions per call of `call` (clock, next_id, uuid7) over n calls, counted by
    callgrind inside count_loop only; None without valgrind."""
    if not shutil.which("valgrind") or not os.path.exists(counter):
        return None
    env = dict(os.environ, **(env_extra or {}))
    proc = subprocess.run(["valgrind", "--tool=callgrind", "--toggle-collect=*count_loop*",
                           "--callgrind-out-file=/dev/null", counter, call, str(n)],
                          env=env, check=True, capture_output=True, text=True)
    m = re.search(r"Collected : (\d+)", proc.stderr)
    if not m:
        raise SystemExit(f"run.py: no 'Collected' line from callgrind:\n{proc.stderr}")
    return int(m.group(1)) / n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default="out/release/bench/snowfleet_bench")
    ap.add_argument("--repetitions", type=int, default=7)
    ap.add_argument("--json", help="also write the rows to this file (bench JSON form)")
    ap.add_argument("--instructions", type=int, default=100_000, metavar="N",
                    help="callgrind instruction counts over N calls (0: none)")
    a = ap.parse_args()
    r = run(a.binary, a.repetitions)
    plain = run(a.binary, a.repetitions, {"SNOWFLEET_TSC_WINDOW": "0"},
                "BM_ClockRead|BM_FloorClockCas|BM_MonotonicNextId/|BM_MonotonicShared|"
                "BM_MutexMonotonicShared")
    counter = os.path.join(os.path.dirname(a.binary), "snowfleet_count_instructions")
    off = {"SNOWFLEET_TSC_WINDOW": "0"}
    counts: Dict[str, Optional[float]] = {}
    if a.instructions > 0:
        counts = {"clock": instructions(counter, "clock", a.instructions),
                  "mono": instructions(counter, "next_id", a.instructions),
                  "monoPlain": instructions(counter, "next_id", a.instructions, off),
                  "uuid7": instructions(counter, "uuid7", a.instructions)}
    print(f"{cpu_model()}, {os.cpu_count()} CPUs; medians of {a.repetitions} repetitions, "
          "one process per table")
    print(f"{'benchmark':44s} {'ns/id':>9s} {'ids/s':>12s}  vs peer")
    rows = []

    def row(key, group, label, ips, peer=None, peer_label="", family="snowflake"):
        """Prints one row and keeps it for --json (group: snowfleet, peer, reference or
        variant, the TSC-window-off runs)."""
        rows.append({"key": key, "label": label, "group": group, "family": family,
                     "ns_per_id": ns(ips)})
        if counts.get(key) is not None:
            rows[-1]["instructions_per_id"] = counts[key]
        ratio = ""
        if peer:
            ratio = f"{ips / peer:5.2f}x the throughput of {peer_label}"
        print(f"{label:44s} {ns(ips):9.2f} {ips / 1e6:10.3f}M  {ratio}")

    def versus(ips, clock_ips, target=None):
        goal = (f"target <= {target}x" if target else
                "a CAS design's floor: threads sharing a word pay it, a thread owning it does not")
        print(f"{'':44s} cost = {clock_ips / ips:.3f}x one clock read ({goal})")
    row("clock", "reference", "clock_gettime(CLOCK_REALTIME)", r["BM_ClockRead"])
    row("strict", "snowfleet", "strict next_id, 1 thread", r["BM_StrictNextId"],
        r["BM_SeedMutexSpin"], "seed mutex+spin")
    row("seed", "peer", "seed algorithm, mutex + busy spin", r["BM_SeedMutexSpin"])
    print(f"{'':44s} strict = {r['BM_StrictNextId'] / 4.096e6 * 100:.2f}% of the 4,096,000/s cap")
    row("mono", "snowfleet", "monotonic next_id, 1 thread", r["BM_MonotonicNextId"])
    versus(r["BM_MonotonicNextId"], r["BM_ClockRead"], 1.0)
    row("floorTsc", "reference", "floor: rdtsc + one CAS, nothing else", r["BM_FloorTscCas"])
    versus(r["BM_FloorTscCas"], r["BM_ClockRead"])
    row("batch4096", "snowfleet", "monotonic next_ids(4096), per id", r["BM_MonotonicNextIds/4096"])
    row("batch10000", "snowfleet", "monotonic next_ids(10000), per id",
        r["BM_MonotonicNextIds/10000"])
    row("shared", "snowfleet", "monotonic, 2 threads share one generator", r["BM_MonotonicShared"],
        r["BM_MutexMonotonicShared"], "mutex version")
    row("mutexShared", "peer", "mutex version, 2 threads", r["BM_MutexMonotonicShared"])
    print("\nwith the TSC window disabled (SNOWFLEET_TSC_WINDOW=0): every id calls clock_gettime")
    row("clockPlain", "variant", "clock_gettime(CLOCK_REALTIME), window-off run",
        plain["BM_ClockRead"])
    row("monoPlain", "variant", "monotonic next_id, TSC window off", plain["BM_MonotonicNextId"])
    versus(plain["BM_MonotonicNextId"], plain["BM_ClockRead"], 1.3)
    row("floorClock", "reference", "floor: clock_gettime, division, one CAS",
        plain["BM_FloorClockCas"])
    versus(plain["BM_FloorClockCas"], plain["BM_ClockRead"])
    row("sharedPlain", "variant", "monotonic, 2 threads, TSC window off",
        plain["BM_MonotonicShared"], plain["BM_MutexMonotonicShared"], "mutex version")
    print("\nUUIDv7 (TSC window on)")
    row("uuid7", "snowfleet", "UUIDv7 next, 1 thread", r["BM_Uuid7Next"], family="uuid7")
    versus(r["BM_Uuid7Next"], r["BM_ClockRead"], 1.3)
    row("uuid7Batch4096", "snowfleet", "UUIDv7 next(4096), per UUID", r["BM_Uuid7NextBatch/4096"],
        family="uuid7")
    if counts:
        print(f"\ninstructions per call (callgrind, {a.instructions:,} calls): " + ", ".join(
            f"{key} {n:.1f}" if n is not None else f"{key} n/a (no valgrind)"
            for key, n in counts.items()))
    print("\ntargets: " + "; ".join(TARGETS.values()))
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump({"schema": "snowfleet-bench/1", "language": "C++",
                       "runtime": f"{platform.machine()} Linux {platform.release()}",
                       "command": f"python3 bench/run.py --repetitions {a.repetitions}",
                       "cpu": cpu_model(),
                       "rows": rows}, f, indent=2)
            f.write("\n")

if __name__ == "__main__":
    sys.exit(main())
