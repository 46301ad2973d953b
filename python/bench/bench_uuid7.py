"""snowfleet's UUIDv7 benchmark, with its peers measured in the same run.

    pip install . uuid-utils uuid6
    python python/bench/bench_uuid7.py              # 7 rounds, medians
    python python/bench/bench_uuid7.py --json F     # also the rows in the bench JSON form

Rows run round-robin (one trial of each per round) through a pre-bound callable in the same
loop shape, so noise on a shared machine and the loop's own cost fall on every row alike.

Peers: `uuid_utils.uuid7()` (Rust, returns its own UUID type) and
`uuid_utils.compat.uuid7()` (returns a `uuid.UUID`); `uuid6.uuid7()` (pure Python); and the
fastest pure-Python UUIDv7 written here on the stdlib (`time.time_ns`, `os.urandom`, a
`uuid.UUID` made without running `UUID.__init__`), which no check or counter slows down.
Targets: `next_uuid7_str` faster than `uuid_utils.uuid7()`; `next_uuid7`
(a `uuid.UUID`) faster than the fastest pure-Python or stdlib path.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import statistics
import time
import uuid
from typing import Callable, Dict, List

import snowfleet

_new = object.__new__
_set = object.__setattr__
_UUID = uuid.UUID
_unknown = uuid.SafeUUID.unknown


def stdlib_fastest_uuid7() -> uuid.UUID:
    """RFC 9562 UUIDv7 in pure Python: ms, version, 74 random bits (no counter, so not
    monotonic within a millisecond), and UUID.__init__ skipped."""
    value = ((time.time_ns() // 1_000_000) << 80) | int.from_bytes(os.urandom(10), "big")
    value = (value & ~(0xF000 << 64) & ~(0xC000 << 48)) | (0x7000 << 64) | (0x8000 << 48)
    u = _new(_UUID)
    _set(u, "int", value)
    _set(u, "is_safe", _unknown)
    return u


def rows() -> Dict[str, Callable[[], object]]:
    gen = snowfleet.Uuid7Generator(mode="monotonic", max_drift_ms=86_400_000)
    out: Dict[str, Callable[[], object]] = {
        "snowfleet next_uuid7_str (str)": gen.next_uuid7_str,
        "snowfleet next_uuid7_bytes (bytes)": gen.next_uuid7_bytes,
        "snowfleet next_uuid7 (uuid.UUID)": gen.next_uuid7,
        "pure Python, stdlib only (uuid.UUID)": stdlib_fastest_uuid7,
    }
    try:
        import uuid_utils
        import uuid_utils.compat

        out["uuid_utils.uuid7() (Rust, its UUID)"] = uuid_utils.uuid7
        out["uuid_utils.compat.uuid7() (uuid.UUID)"] = uuid_utils.compat.uuid7
    except ImportError:
        print("uuid-utils not installed: its rows are missing")
    try:
        import uuid6

        out["uuid6.uuid7() (pure Python, uuid.UUID)"] = uuid6.uuid7
    except ImportError:
        print("uuid6 not installed: its row is missing")
    return out


def trial(fn: Callable[[], object], n: int) -> float:
    loop = range(n)
    start = time.perf_counter_ns()
    for _ in loop:
        fn()
    return (time.perf_counter_ns() - start) / n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--n", type=int, default=200_000, help="calls per trial")
    ap.add_argument("--json", help="also write the rows to this file (the bench JSON form that "
                    "bench/chart.py reads)")
    args = ap.parse_args()
    table = rows()
    results: Dict[str, List[float]] = {name: [] for name in table}
    for _ in range(args.rounds):
        for name, fn in table.items():
            results[name].append(trial(fn, args.n))
    print(f"ns per UUID, median of {args.rounds} rounds of {args.n:,} calls (min-max)")
    for name, ns in results.items():
        print(f"  {name:44s} {statistics.median(ns):8.1f}   ({min(ns):.1f}-{max(ns):.1f})")
    if args.json:
        ours = "snowfleet "
        json_rows = [{"key": name, "label": name[len(ours):] if name.startswith(ours) else name,
                      "group": "snowfleet" if name.startswith(ours) else "peer",
                      "family": "uuid7", "ns_per_id": statistics.median(ns), "samples": ns}
                     for name, ns in results.items()]
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"schema": "snowfleet-bench/1", "language": "Python",
                       "runtime": f"snowfleet {snowfleet.__version__}, CPython "
                                  f"{sys.version.split()[0]}",
                       "command": f"python python/bench/bench_uuid7.py --rounds {args.rounds}",
                       "rows": json_rows}, f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
