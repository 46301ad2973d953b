"""snowfleet's Python benchmark: every figure next to its peers, measured in the same run.

    pip install . -Ccmake.define.SNOWFLEET_PYTHON_TEST_HOOKS=ON snowflake-id
    python python/bench/bench.py              # 7 rounds, medians
    python python/bench/bench.py --rounds 11 --json out.json   # also the rows as JSON

Rows are measured round-robin (one trial of every row per round), so noise on a shared
machine spreads over all rows alike; the report gives each row's median and range. Every
call goes through a pre-bound callable in the same loop shape, so the loop's own cost is in
every row equally (the `pure-Python call` reference row is that loop calling a no-op
lambda).

Peers: `snowflake-id` from PyPI, and the reference's pure-Python Snowflake / MonotonicSnowflake
(001 section 11), executed from the verbatim copy in conformance/model/reference_snowflake.py.

Throughput rows that are not about the format's 4,096 ids/ms cap use a monotonic generator
with max_drift_ms at its maximum (one day), so the logical clock never has to wait for the
wall clock inside a measurement; strict mode is measured as sustained ids/s, where a caller
this fast saturates the cap (4.096 M ids/s per node).
"""

from __future__ import annotations

import argparse
import gc
import itertools
import json
import statistics
import sys
import threading
import time
from typing import Callable, Dict, List, Optional, Tuple

import snowfleet

try:  # the reference rows' hooks: built only with -DSNOWFLEET_PYTHON_TEST_HOOKS=ON
    from snowfleet import _snowfleet_testing as _testing
except ImportError:
    _testing = None

CAP_IDS_PER_S = 4096 * 1000
ONE_DAY_MS = 86_400_000

# ---- the reference's generator (001 section 11, "Working Python") ---------------------------

def _seed_generators():  # type: ignore[no-untyped-def]
    """The reference's Snowflake and MonotonicSnowflake, run from the verbatim copy in
    conformance/model/reference_snowflake.py (its code block only: the assertion block that
    follows it is not run here)."""
    import pathlib

    model = pathlib.Path(__file__).resolve().parents[2] / "conformance" / "model"
    path = model / "reference_snowflake.py"
    code = path.read_text(encoding="utf-8").split("\ndef scripted_clock")[0]
    namespace: Dict[str, object] = {}
    exec(compile(code, str(path), "exec"), namespace)
    return namespace["Snowflake"], namespace["MonotonicSnowflake"]


Snowflake, MonotonicSnowflake = _seed_generators()


# ---- measurement --------------------------------------------------------------------------


def per_call_ns(fn: Callable[[], object], calls: int) -> float:
    """ns per call of fn over `calls` calls (one timed loop, GC off)."""
    repeat = itertools.repeat(None, calls)
    start = time.perf_counter_ns()
    for _ in repeat:
        fn()
    return (time.perf_counter_ns() - start) / calls


def per_id_batch_ns(fn: Callable[[int], object], n: int, batches: int) -> float:
    start = time.perf_counter_ns()
    for _ in itertools.repeat(None, batches):
        fn(n)
    return (time.perf_counter_ns() - start) / (n * batches)


def sustained_ids_per_s(fn: Callable[[], object], seconds: float) -> float:
    """ids/s of fn called back to back for about `seconds` (checks the time every 4,096)."""
    count = 0
    start = time.perf_counter()
    end = start + seconds
    now = start
    while now < end:
        for _ in itertools.repeat(None, 4096):
            fn()
        count += 4096
        now = time.perf_counter()
    return count / (now - start)


class Row:
    def __init__(self, name: str, unit: str, measure: Callable[[], float], group: str) -> None:
        self.name, self.unit, self.measure, self.group = name, unit, measure, group
        self.samples: List[float] = []

    @property
    def median(self) -> float:
        return statistics.median(self.samples)


def build_rows(scale: float) -> List[Row]:
    calls = max(1000, int(1_000_000 * scale))
    seconds = max(0.02, 0.5 * scale)
    batches = max(2, int(50 * scale))
    rows: List[Row] = []

    # Strict rows use node 2: generators of one node share its id space, and the monotonic
    # rows (node 1) run ahead of the wall clock, which a strict sibling would have to wait out.
    def fresh_monotonic() -> snowfleet.Generator:
        return snowfleet.Generator(1, mode="monotonic", max_drift_ms=ONE_DAY_MS)

    # snowfleet
    rows.append(Row("snowfleet strict next_id (sustained)", "ids/s",
                    lambda: sustained_ids_per_s(snowfleet.Generator(2).next_id, seconds), "snowfleet"))
    rows.append(Row("snowfleet monotonic next_id", "ns/call",
                    lambda: per_call_ns(fresh_monotonic().next_id, calls), "snowfleet"))
    rows.append(Row("snowfleet next_ids(10_000), monotonic", "ns/id",
                    lambda: per_id_batch_ns(fresh_monotonic().next_ids, 10_000, batches), "snowfleet"))
    rows.append(Row("snowfleet next_ids(10_000), strict", "ns/id",
                    lambda: per_id_batch_ns(snowfleet.Generator(2).next_ids, 10_000, 2), "snowfleet"))

    # peers
    try:
        from snowflake import SnowflakeGenerator  # snowflake-id from PyPI

        rows.append(Row("peer snowflake-id next(gen)", "ns/call",
                        lambda: per_call_ns(SnowflakeGenerator(1).__next__, calls), "peer"))
    except ImportError:
        print("note: snowflake-id is not installed (pip install snowflake-id); row skipped",
              file=sys.stderr)
    rows.append(Row("peer seed Snowflake.next_id (strict)", "ns/call",
                    lambda: per_call_ns(Snowflake(1).next_id, calls), "peer"))
    rows.append(Row("peer seed MonotonicSnowflake.next_id", "ns/call",
                    lambda: per_call_ns(MonotonicSnowflake(1).next_id, calls), "peer"))

    # references
    if _testing is not None:
        testing = _testing
        rows.append(Row("ref bare pybind11 call (noop)", "ns/call",
                        lambda: per_call_ns(testing.noop, calls), "ref"))
        rows.append(Row("ref monotonic next_id via pybind11 dispatch", "ns/call",
                        lambda: per_call_ns(testing.PybindGenerator(1, "monotonic", ONE_DAY_MS).next_id,
                                            calls), "ref"))
    else:
        print("note: snowfleet._snowfleet_testing is not installed (pip install . "
              "-Ccmake.define.SNOWFLEET_PYTHON_TEST_HOOKS=ON); pybind11 reference rows skipped",
              file=sys.stderr)
    rows.append(Row("ref time.time_ns()", "ns/call",
                    lambda: per_call_ns(time.time_ns, calls), "ref"))
    rows.append(Row("ref pure-Python call (lambda: None)", "ns/call",
                    lambda: per_call_ns(lambda: None, calls), "ref"))
    return rows


def fmt(value: float, unit: str) -> str:
    if unit == "ids/s":
        return f"{value / 1e6:8.3f} M ids/s"
    return f"{value:8.1f} {unit}"


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=7, help="trials per row (default 7)")
    parser.add_argument("--scale", type=float, default=1.0, help="work per trial (default 1.0)")
    parser.add_argument("--smoke", action="store_true", help="tiny run (checks the script works)")
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args(argv)
    if args.smoke:
        args.rounds, args.scale = 1, 0.002

    rows = build_rows(args.scale)
    gc.disable()
    try:
        for _ in range(args.rounds):
            for row in rows:
                row.samples.append(row.measure())
    finally:
        gc.enable()

    print(f"snowfleet {snowfleet.__version__}, Python {sys.version.split()[0]}, "
          f"{args.rounds} rounds, medians (min .. max)")
    for row in rows:
        lo, hi = min(row.samples), max(row.samples)
        print(f"  {row.name:<46}{fmt(row.median, row.unit)}   "
              f"({fmt(lo, row.unit).strip()} .. {fmt(hi, row.unit).strip()})")

    by_name: Dict[str, Row] = {row.name: row for row in rows}
    peers = [row for row in rows if row.group == "peer"]
    fastest = min(peers, key=lambda r: r.median)
    mono = by_name["snowfleet monotonic next_id"].median
    batch = by_name["snowfleet next_ids(10_000), monotonic"].median
    strict = by_name["snowfleet strict next_id (sustained)"].median
    checks: List[Tuple[str, str, bool]] = [
        (f"strict next_id: {strict / 1e6:.2f} M ids/s = {strict / CAP_IDS_PER_S:.1%} of the "
         f"format's cap", ">= 4.0 M ids/s", strict >= 4.0e6),
        (f"monotonic next_id: {mono:.1f} ns/call", "<= 110 ns", mono <= 110),
        (f"next_ids(10_000): {batch:.2f} ns/id", "<= 5 ns/id", batch <= 5),
        (f"single call vs fastest peer ({fastest.name[5:]}): {fastest.median / mono:.1f}x",
         ">= 3x", fastest.median / mono >= 3),
        (f"batch per id vs fastest peer: {fastest.median / batch:.0f}x", ">= 50x",
         fastest.median / batch >= 50),
        (f"strict ids/s vs fastest peer's calls/s: {strict * fastest.median / 1e9:.1f}x", "", True),
    ]
    bare = by_name.get("ref bare pybind11 call (noop)")
    if bare is not None:
        checks.append((f"monotonic next_id vs a bare pybind11 call: {mono / bare.median:.2f}x",
                       "", True))
    print("ratios and targets:")
    for text, target, ok in checks:
        mark = ("ok  " if ok else "MISS") if target else "    "
        print(f"  {mark} {text:<72} {target}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(bench_json(rows, args), f, indent=2)
            f.write("\n")
    return 0


def bench_json(rows: List[Row], args: argparse.Namespace) -> Dict[str, object]:
    """The rows in the bench JSON form bench/chart.py reads: each row's median as ns per id
    (the strict row's sustained ids/s inverted) beside its own unit, median and samples."""
    group = {"snowfleet": "snowfleet", "peer": "peer", "ref": "reference"}
    out = []
    for row in rows:
        label = row.name.split(" ", 1)[1]  # without the group word that starts each name
        out.append({"key": row.name, "label": label, "group": group[row.group],
                    "family": "snowflake",
                    "ns_per_id": 1e9 / row.median if row.unit == "ids/s" else row.median,
                    "unit": row.unit, "median": row.median, "samples": row.samples})
    command = "python python/bench/bench.py" + (" --smoke" if args.smoke else
                                               f" --rounds {args.rounds} --scale {args.scale:g}")
    return {"schema": "snowfleet-bench/1", "language": "Python",
            "runtime": f"snowfleet {snowfleet.__version__}, CPython {sys.version.split()[0]}",
            "command": command, "rows": out}


if __name__ == "__main__":
    sys.exit(main())
