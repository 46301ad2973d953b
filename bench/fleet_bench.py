#!/usr/bin/env python3
"""Leased vs unleased next_id, measured side by side in the same runs.

    cmake -S . -B out/release -G Ninja -DSNOWFLEET_BUILD_BENCH=ON && ninja -C out/release snowfleet_bench
    python3 bench/fleet_bench.py [--runs 5] [--bin out/release/bench/snowfleet_bench]
    SNOWFLEET_BENCH_ETCD=127.0.0.1:2379 python3 bench/fleet_bench.py   # adds the etcd rows

Runs the BM_Lease* benchmarks `runs` times, then prints per benchmark the median ns/id and
ids/s, the ratio to its unleased peer from the same runs, and the mark writes per run.
Then the same with the TSC window off (SNOWFLEET_TSC_WINDOW=0): every wall read is then
exact, which is where an etcd lease checks its deadline (one CLOCK_MONOTONIC read).
"""
import argparse
import json
import os
import statistics
import subprocess

PEER = {
    "BM_LeaseLocal_Monotonic": "BM_LeaseNone_Monotonic",
    "BM_LeaseLocal_Strict": "BM_LeaseNone_Strict",
    "BM_LeaseEtcd_Monotonic": "BM_LeaseNone_Monotonic/etcd-peer",
    "BM_LeaseEtcd_Strict": "BM_LeaseNone_Strict/etcd-peer",
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--bin", default="out/release/bench/snowfleet_bench")
    args = ap.parse_args()
    table(args, {}, "TSC window on (default)")
    table(args, {"SNOWFLEET_TSC_WINDOW": "0"}, "TSC window off: every wall read exact")


def table(args, env, title):
    ns, writes, per_write = {}, {}, {}
    for _ in range(args.runs):
        out = subprocess.run([args.bin, "--benchmark_filter=BM_Lease", "--benchmark_format=json"],
                             check=True, capture_output=True, text=True,
                             env=dict(os.environ, SNOWFLEET_BENCH_LEASE="1", **env)).stdout
        for b in json.loads(out)["benchmarks"]:
            if "Warmup" in b["name"]:
                continue
            name = b["name"].split("/iterations")[0].split("/min_time")[0].split("/real_time")[0]
            ns.setdefault(name, []).append(1e9 / b["items_per_second"])
            writes.setdefault(name, []).append(b.get("mark_writes", 0))
            per_write.setdefault(name, []).append(b.get("ids_per_mark_write", 0))
    print(f"\n{title}: median of {args.runs} runs (peer = same generator without a lease, same runs)")
    print(f"{'benchmark':36} {'ns/id':>8} {'ids/s':>14} {'vs peer':>8} {'marks/run':>10} {'ids/mark':>12}")
    for name, vals in ns.items():
        m = statistics.median(vals)
        peer = PEER.get(name)
        ratio = f"{m / statistics.median(ns[peer]):.3f}" if peer in ns else "-"
        print(f"{name:36} {m:8.2f} {1e9 / m:14,.0f} {ratio:>8} "
              f"{statistics.median(writes[name]):10.0f} {statistics.median(per_write[name]):12,.0f}")


if __name__ == "__main__":
    main()
