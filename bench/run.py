#!/usr/bin/env python3
"""Runs the core benchmarks and prints each figure beside its peer, as a ratio.

    cmake -S . -B out/release -G Ninja -DSNOWFLEET_BUILD_BENCH=ON && ninja -C out/release
    python3 bench/run.py [--binary out/release/bench/snowfleet_bench] [--repetitions 7]
                         [--json FILE]

Each benchmark runs `--repetitions` times inside one process (Google Benchmark repetitions);
the table shows medians. The monotonic rows are run a second time with the TSC window
disabled (SNOWFLEET_TSC_WINDOW=0), so the cost of a plain clock_gettime path is visible too.
--json also writes every row's median in the bench JSON form that bench/chart.py reads
(its docstring describes the form).
"""

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys

TARGETS = {
    "strict": "strict next_id >= 4.0M ids/s (97.7% of 4,096,000/s)",
    "mono": "monotonic next_id <= 1.25x clock_gettime(CLOCK_REALTIME)",
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default="out/release/bench/snowfleet_bench")
    ap.add_argument("--repetitions", type=int, default=7)
    ap.add_argument("--json", help="also write the rows to this file (bench JSON form)")
    a = ap.parse_args()
    r = run(a.binary, a.repetitions)
    plain = run(a.binary, a.repetitions, {"SNOWFLEET_TSC_WINDOW": "0"},
                "BM_ClockRead|BM_MonotonicNextId/|BM_MonotonicShared|BM_MutexMonotonicShared")
    print(f"medians of {a.repetitions} repetitions, one process per table; host has "
          f"{os.cpu_count()} CPUs")
    print(f"{'benchmark':44s} {'ns/id':>9s} {'ids/s':>12s}  vs peer")
    rows = []

    def row(key, group, label, ips, peer=None, peer_label=""):
        """Prints one row and keeps it for --json (group: snowfleet, peer, reference or
        variant, the TSC-window-off runs)."""
        rows.append({"key": key, "label": label, "group": group, "family": "snowflake",
                     "ns_per_id": ns(ips)})
        ratio = ""
        if peer:
            ratio = f"{ips / peer:5.2f}x the throughput of {peer_label}"
        print(f"{label:44s} {ns(ips):9.2f} {ips / 1e6:10.3f}M  {ratio}")
    row("clock", "reference", "clock_gettime(CLOCK_REALTIME)", r["BM_ClockRead"])
    row("strict", "snowfleet", "strict next_id, 1 thread", r["BM_StrictNextId"],
        r["BM_SeedMutexSpin"], "seed mutex+spin")
    row("seed", "peer", "seed algorithm, mutex + busy spin", r["BM_SeedMutexSpin"])
    print(f"{'':44s} strict = {r['BM_StrictNextId'] / 4.096e6 * 100:.2f}% of the 4,096,000/s cap")
    row("mono", "snowfleet", "monotonic next_id, 1 thread", r["BM_MonotonicNextId"])
    print(f"{'':44s} cost = {ns(r['BM_MonotonicNextId']) / ns(r['BM_ClockRead']):.3f}x one clock read")
    row("batch4096", "snowfleet", "monotonic next_ids(4096), per id", r["BM_MonotonicNextIds/4096"])
    row("batch10000", "snowfleet", "monotonic next_ids(10000), per id",
        r["BM_MonotonicNextIds/10000"])
    row("shared", "snowfleet", "monotonic, 2 threads share one generator", r["BM_MonotonicShared"],
        r["BM_MutexMonotonicShared"], "mutex version")
    row("mutexShared", "peer", "mutex version, 2 threads", r["BM_MutexMonotonicShared"])
    print("\nwith the TSC window disabled (SNOWFLEET_TSC_WINDOW=0): every id calls clock_gettime")
    row("clockPlain", "variant", "clock_gettime(CLOCK_REALTIME)", plain["BM_ClockRead"])
    row("monoPlain", "variant", "monotonic next_id, 1 thread", plain["BM_MonotonicNextId"])
    print(f"{'':44s} cost = {ns(plain['BM_MonotonicNextId']) / ns(plain['BM_ClockRead']):.3f}x one clock read")
    row("sharedPlain", "variant", "monotonic, 2 threads share one generator",
        plain["BM_MonotonicShared"], plain["BM_MutexMonotonicShared"], "mutex version")
    print("\ntargets (issue 2): " + "; ".join(TARGETS.values()))
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump({"schema": "snowfleet-bench/1", "language": "C++",
                       "runtime": f"{platform.machine()} Linux {platform.release()}",
                       "command": f"python3 bench/run.py --repetitions {a.repetitions}",
                       "rows": rows}, f, indent=2)
            f.write("\n")

if __name__ == "__main__":
    sys.exit(main())
