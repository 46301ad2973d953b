"""Differential test: Hypothesis draws scenarios (layouts, modes, budgets, node ids,
scripted clocks with rewinds, freezes, steps and jumps, and sequences of next_id, next_ids,
status, drift, stats, close and open, sometimes with a second generator on the same clock),
and each runs through the core and through the pure-Python reference model
(conformance/model/snowfleet_model.py) in lockstep: ids, errors (code and drift_ms), clock
counters, stats and status must be identical, and the ids must obey the id rules (see
differential_runner.py and differential_strategies.py).

Sizes and seeds. The search is split into shards, shard k seeded with SEED + k (database
off, so a run is reproducible and independent of earlier ones):

* the normal pytest run: SNOWFLEET_DIFF_SHARDS (2) shards of SNOWFLEET_DIFF_EXAMPLES (1,500)
  scenarios each, a few seconds;
* CI (scripts/test/python.sh): `python test_differential.py --examples 50000 --shards 10
  --jobs 2` runs 10 shards of 5,000 scenarios as pytest processes, two at a time, and
  prints the scenarios run, ids compared and time taken;
* a search beyond those: set SNOWFLEET_DIFF_SEED (default 20100) to another base seed.

A failure prints the shrunk scenario and the same as a conformance scenario case: keep it
as a vector by adding it to conformance/differential_cases.py (see there).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List

import pytest

from conftest import require

require("hypothesis")
from hypothesis import HealthCheck, Phase, given, note, seed, settings  # noqa: E402

import differential_runner as dr  # noqa: E402
from differential_runner import Run, run_scenario, to_vector_case  # noqa: E402
from differential_strategies import scenarios  # noqa: E402

SEED = int(os.environ.get("SNOWFLEET_DIFF_SEED", "20100"))  # shard k: SEED + k
SHARDS = int(os.environ.get("SNOWFLEET_DIFF_SHARDS", "2"))
EXAMPLES = int(os.environ.get("SNOWFLEET_DIFF_EXAMPLES", "1500"))  # per shard
FIGURES_LINE = re.compile(r"differential shard (\d+): (\d+) scenarios, (\d+) ids compared, "
                          r"([0-9.]+) s wall, ([0-9.]+) s CPU")


def _check(scenario: Dict[str, Any], figures: Dict[str, int]) -> None:
    try:
        figures["ids"] += run_scenario(scenario)
    except AssertionError:
        try:
            case = to_vector_case(scenario, "differential.CHANGE_ME", "differential test: ...")
            note("as a conformance case:\n" + json.dumps(case, indent=1))
        except Exception as e:  # noqa: BLE001  (a scenario the vector format cannot hold)
            note(f"(no conformance case: {type(e).__name__}: {e})")
        raise
    finally:
        figures["scenarios"] += 1


def _shard(k: int) -> Callable[[], None]:
    figures = {"scenarios": 0, "ids": 0}

    @seed(SEED + k)
    @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=False,
              suppress_health_check=list(HealthCheck), print_blob=False,
              report_multiple_bugs=False, phases=[Phase.explicit, Phase.generate, Phase.shrink])
    @given(scenarios())
    def search(scenario: Dict[str, Any]) -> None:
        _check(scenario, figures)

    def test() -> None:
        started, cpu = time.perf_counter(), time.process_time()
        search()
        print(f"\ndifferential shard {k}: {figures['scenarios']} scenarios, {figures['ids']} "
              f"ids compared, {time.perf_counter() - started:.1f} s wall, "
              f"{time.process_time() - cpu:.1f} s CPU")

    test.__name__ = test.__qualname__ = f"test_differential_shard_{k}"
    test.__doc__ = f"Core and model agree on shard {k}'s {EXAMPLES} scenarios (seed {SEED + k})."
    return test


for _k in range(SHARDS):
    globals()[f"test_differential_shard_{_k}"] = _shard(_k)


E = 1704067200000  # the default epoch
INT64_MAX = (1 << 63) - 1
END_43 = (1 << 43) - 1  # the last ms of 43.0.20@0, a clock can read it
END_41 = E + (1 << 41) - 1  # the last ms of 41.x.y@E


def _one(layout: str, mode: str, clock: List[Dict[str, int]], steps: List[Any],
         max_wait_ms: float = 5.0, max_drift_ms: int = 1000) -> Dict[str, Any]:
    return {"generators": [{"name": "g", "layout": layout, "node_id": 0, "mode": mode,
                            "max_wait_ms": max_wait_ms, "max_drift_ms": max_drift_ms,
                            "clock": clock}],
            "steps": [dict({"gen": "g", "op": op}, **({"n": n} if n is not None else {}))
                      for op, n in steps]}


#: Edges too rare (or too costly) to leave to the search, run once in the normal suite.
EDGES: Dict[str, Dict[str, Any]] = {
    # Without node bits the window ends at id 2^63 - 1; 2^20 ids fill its last ms.
    **{f"window_end_no_node_bits_{mode}": _one(
        "43.0.20@0", mode, [{"ms": END_43 - 1}, {"ms": END_43}],
        [("next_ids", 2), ("next_ids", 1 << 20), ("next_id", None), ("status", None),
         ("stats", None)]) for mode in ("strict", "monotonic")},
    # A strict call finds E + 50 spent (2 ids per ms), waits, sees a 2 ms rewind, waits it
    # out, finds E + 50 still spent, reserves E + 51 ahead and holds it; the clock stalls at
    # E + 50 past the budget plus 1 ms, so the id is returned 1 ms ahead of the clock
    # (within max_wait_ms). Then the clock moves on.
    "reserve_ahead_clock_stalls": _one(
        f"41.21.1@{E}", "strict",
        [{"ms": E + 50, "count": 2}, {"ms": E + 48, "count": 2, "step_ms": 1},
         {"ms": E + 50, "count": 3}, {"ms": E + 51, "step_ms": 1}],
        [("next_ids", 2), ("next_id", None), ("status", None), ("next_id", None)]),
    # As above, but the clock goes back 40 ms while E + 51 is held: the call refuses it
    # (CLOCK_MOVED_BACKWARDS, drift 41) rather than return an id 41 ms ahead; E + 51 is
    # skipped, and the next call refuses the rewind too.
    "reserve_ahead_then_rewind_refused": _one(
        f"41.21.1@{E}", "strict",
        [{"ms": E + 50, "count": 2}, {"ms": E + 48, "count": 2, "step_ms": 1},
         {"ms": E + 50}, {"ms": E + 10}],
        [("next_ids", 2), ("next_id", None), ("status", None), ("next_id", None)]),
    # The same at the window's last ms: nothing to reserve ahead, so the call refuses.
    "reserve_ahead_at_window_end_refused": _one(
        f"41.21.1@{E}", "strict",
        [{"ms": END_41, "count": 2}, {"ms": END_41 - 2, "count": 2, "step_ms": 1},
         {"ms": END_41}],
        [("next_ids", 2), ("next_id", None), ("status", None)]),
    # Monotonic with max_drift_ms 0 and no wait budget: a 2 ms rewind makes it unhealthy.
    "monotonic_rewind_unhealthy": _one(
        f"41.10.12@{E}", "monotonic", [{"ms": E + 100}, {"ms": E + 98}],
        [("next_id", None), ("status", None), ("drift", None), ("next_id", None)],
        max_wait_ms=0.0, max_drift_ms=0),
}


@pytest.mark.parametrize("name", sorted(EDGES))
def test_differential_edge(name: str) -> None:
    run = Run(EDGES[name])
    run.run()
    ids = [i for _, i in run.issued]
    if name.startswith("window_end"):
        assert ids[-1] == INT64_MAX and len(ids) == 2 + (1 << 20)
    if name == "reserve_ahead_clock_stalls":
        assert [i >> 22 for i in ids] == [50, 50, 51, 52]


# ---- the runner itself can fail ----------------------------------------------------------

PLAIN = _one(f"41.10.12@{E}", "strict", [{"ms": E + 5, "step_ms": 1}],
             [("next_id", None), ("next_ids", 3), ("status", None)])


def test_runner_reports_a_discrepancy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dr.ObservedGenerator, "next_id", lambda self: 1)
    with pytest.raises(dr.Discrepancy, match="step 0 .next_id on g.: core"):
        run_scenario(PLAIN)


def test_runner_reports_an_error_path_that_changes_state(monkeypatch: pytest.MonkeyPatch) -> None:
    def reserve(self: Any, want: int) -> Any:
        self.space.state += 1
        raise dr.m.ModelError("CLOCK_MOVED_BACKWARDS", "refused", 1)

    monkeypatch.setattr(dr.m.Generator, "reserve", reserve)
    with pytest.raises(dr.Violation, match="an error path changed the state"):
        run_scenario(PLAIN)


def test_runner_reports_a_strict_id_ahead_of_its_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    plain = dr.m.Generator.reserve

    def reserve(self: Any, want: int) -> Any:
        first, count = plain(self, want)
        return first + (6 << self.layout.sequence_bits), count  # 6 ms ahead, budget 5

    monkeypatch.setattr(dr.m.Generator, "reserve", reserve)
    with pytest.raises(dr.Violation, match="6 ms ahead of the latest reading"):
        run_scenario(PLAIN)


def test_runner_reports_ids_out_of_order() -> None:
    run = Run(PLAIN)
    run.issued = [("g", 5), ("g", 5)]
    with pytest.raises(dr.Violation, match="not strictly ascending"):
        run.check_issued()


def test_vector_case_runs_in_the_conformance_runner() -> None:
    """A scenario turned into a vector case passes the Python conformance runner, and the
    same case with one expected id changed fails it."""
    from test_conformance import _scenario_case

    case = to_vector_case(EDGES["monotonic_rewind_unhealthy"], "differential.example", "test")
    _scenario_case(case)
    step = next(s for s in case["steps"] if s["op"] == "next_id")
    step["expect"]["id"] = str(int(step["expect"]["id"]) + 1)
    with pytest.raises(AssertionError, match="step 0 .next_id."):
        _scenario_case(case)


def main(argv: List[str]) -> int:
    """Runs `--shards` shards, `--jobs` at a time, each a pytest process, and prints the
    figures of each and their total."""
    ap = argparse.ArgumentParser(description="the differential test at CI size")
    ap.add_argument("--examples", type=int, default=100_000, help="scenarios in total")
    ap.add_argument("--shards", type=int, default=10)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    here = Path(__file__).resolve()
    root = here.parents[2]
    env = dict(os.environ, SNOWFLEET_DIFF_SHARDS=str(args.shards),
               SNOWFLEET_DIFF_EXAMPLES=str(-(-args.examples // args.shards)))
    started = time.perf_counter()
    pending = list(range(args.shards))
    running: List[Any] = []
    totals = [0, 0, 0.0]
    failed = []
    while pending or running:
        while pending and len(running) < args.jobs:
            k = pending.pop(0)
            cmd = [sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:randomly", "-p",
                   "no:cacheprovider", "--rootdir", str(root), "-c", str(root / "pyproject.toml"),
                   f"{here}::test_differential_shard_{k}"]
            running.append((k, subprocess.Popen(cmd, cwd=here.parent, env=env, text=True,
                                                stdout=subprocess.PIPE,
                                                stderr=subprocess.STDOUT)))
        k, proc = running.pop(0)
        out, _ = proc.communicate()
        found = FIGURES_LINE.search(out)
        if proc.returncode != 0 or not found:
            failed.append(k)
            print(out, flush=True)
            continue
        print(found.group(0), flush=True)
        totals[0] += int(found.group(2))
        totals[1] += int(found.group(3))
        totals[2] += float(found.group(5))
    print(f"differential: {totals[0]} scenarios, {totals[1]} ids compared, "
          f"{time.perf_counter() - started:.1f} s wall, {totals[2]:.1f} s CPU in the searches, "
          f"{args.shards} shards on {args.jobs} jobs"
          + (f"; FAILED shards {failed}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
