#!/usr/bin/env python3
"""Reading ids in SQL: snowfleet.timestamp_ms, snowfleet.timestamp and snowfleet.decode over
a table of ids, with the plain-SQL file and with the extension, each beside the same
arithmetic written by hand in the same database, in one run.

    python3 bench/sql/bench_decode.py --plain "psql ... -d plain" --extension "psql ... -d ext" \\
        [--rows 1000000] [--runs 7]

Each database gets a table of --rows ids (one per ms from 2026-12-01, nodes and sequences
varied, default layout). Every query reads every row inside the server and returns one row
(an aggregate), so the figure is the function's cost, not the client's. Each measurement
runs the query twice in one session and keeps the second (plans and caches warm), by psql's
\\timing; the runs go round every query in turn, so a noisy neighbour slows them alike, and
the table shows medians. Parallel workers and JIT are off (the per-row cost is compared,
one core each). Prints the CPU model.

The hand-written peers: `(id >> 22) + 1704067200000` for timestamp_ms; to_timestamp of it as
float8 seconds for timestamp (the fastest form, exact for today's dates; the plain-SQL file
computes an exact one for every layout's window); and a ROW of the six fields for decode.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import re
import shlex
import statistics
import subprocess
import sys

SETUP = "SET max_parallel_workers_per_gather = 0; SET jit = off;"
TABLE = """
DROP TABLE IF EXISTS bench_ids;
CREATE TABLE bench_ids AS
SELECT ((1796083200000 - 1704067200000 + g) << 22) | ((g % 1024) << 12) | (g % 4096) AS id
  FROM generate_series(1, {rows}) g;
VACUUM ANALYZE bench_ids;
"""
EPOCH = "1704067200000"
TS = f"((id >> 22) + {EPOCH})"
QUERIES = {
    "timestamp_ms": (
        "SELECT max(snowfleet.timestamp_ms(id)) FROM bench_ids",
        f"SELECT max({TS}) FROM bench_ids"),
    "timestamp": (
        "SELECT max(snowfleet.timestamp(id)) FROM bench_ids",
        f"SELECT max(to_timestamp({TS}::float8 / 1000)) FROM bench_ids"),
    "decode": (
        "SELECT count(d) FROM (SELECT snowfleet.decode(id) AS d FROM bench_ids OFFSET 0) s",
        f"SELECT count(d) FROM (SELECT ROW({TS}, to_timestamp({TS}::float8 / 1000), "
        f"(id >> 12) & 1023, 0::bigint, (id >> 12) & 1023, id & 4095) AS d "
        f"FROM bench_ids OFFSET 0) s"),
}
TIME = re.compile(r"^Time: ([0-9.]+) ms", re.M)


def psql(cmd: str, script: str) -> str:
    run = subprocess.run(shlex.split(cmd) + ["-X", "-q", "-v", "ON_ERROR_STOP=1"], input=script,
                         capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"psql failed: {run.stderr}")
    return run.stdout


def measure(cmd: str, query: str) -> float:
    """ms of the second of two runs of query in one session."""
    out = psql(cmd, f"{SETUP}\n\\timing on\n{query};\n{query};\n")
    return float(TIME.findall(out)[-1])


def cpu_model() -> str:
    try:
        for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--plain", required=True, help="psql command line of a database holding snowfleet.sql")
    ap.add_argument("--extension", required=True, help="psql command line of a database with the extension")
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--runs", type=int, default=7)
    a = ap.parse_args(argv)
    targets = {"plain": a.plain, "extension": a.extension}
    for cmd in targets.values():
        psql(cmd, TABLE.format(rows=a.rows))
    version = psql(a.plain, "\\pset tuples_only on\nSHOW server_version;").strip()
    times = {(t, q, w): [] for t in targets for q in QUERIES for w in (0, 1)}
    load = os.getloadavg()[0]
    for _ in range(a.runs):
        for q, pair in QUERIES.items():
            for t, cmd in targets.items():
                for w in (0, 1):
                    times[(t, q, w)].append(measure(cmd, pair[w]))
    print(f"snowfleet in SQL: {a.rows:,} ids, median of {a.runs} interleaved runs; PostgreSQL "
          f"{version}; {cpu_model()}, {os.cpu_count()} CPUs (load {load:.1f} -> "
          f"{os.getloadavg()[0]:.1f}); no parallel workers, no JIT")
    print(f"{'query':14s} {'target':10s} {'hand-written':>14s} {'snowfleet':>12s} {'ratio':>7s}")
    for q in QUERIES:
        for t in targets:
            hand = statistics.median(times[(t, q, 1)])
            ours = statistics.median(times[(t, q, 0)])
            print(f"{q:14s} {t:10s} {hand * 1e6 / a.rows:9.1f} ns/id {ours * 1e6 / a.rows:7.1f} ns/id "
                  f"{ours / hand:6.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
