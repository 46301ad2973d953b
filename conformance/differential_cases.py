"""Scenario cases found by the differential test (python/tests/test_differential.py), appended
to vectors/scenarios.json by generate.py.

The differential test draws scenarios in the vector format without the expectations:

    {"generators": [{"name": "g", "layout": "41.10.12@1704067200000", "node_id": 7,
                     "mode": "strict", "max_wait_ms": 5.0, "max_drift_ms": 1000,
                     "clock": [{"ms": 1704067200005, "count": 3, "step_ms": -1}]},
                    {"name": "h", ..., "clock_of": "g", "deferred": true}],
     "steps": [{"gen": "g", "op": "next_ids", "n": 5000}, {"gen": "h", "op": "open"}, ...]}

(segment `ms` as ints), runs each through the core and the model, and when they disagree
prints the shrunk scenario as a case of this file's list. To keep it as a vector, add it
to DIFFERENTIAL_SCENARIOS below with an id and a source saying what it pins, then run
`python3 conformance/generate.py`: `replay` runs it through the model, which supplies every
expected value, and every language's runner then checks its core against them.

Rules `replay` shares with the differential test's runner: a generator whose clock owner
(the generator named by its `clock_of`) failed to construct is left out with its steps,
and a step on a generator that is not open (never constructed, or its `open` failed) is
left out, except `open` itself, which may be retried.
"""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

from scenario import Scenario, seg

E = 1704067200000  # the default epoch

# (id, source, scenario): each a discrepancy between the core and the model that the
# differential test found, kept so every language's core is checked against it.
DIFFERENTIAL_SCENARIOS: List[Tuple[str, str, Dict[str, Any]]] = [
    ("differential.max_wait_half_ns_rounds_away_from_zero",
     "differential test: max_wait_ms 2.0000005 is 2,000,000.5 ns as a double; the budget "
     "rounds it away from zero to 2,000,001 ns (the model rounded half to even, so it slept "
     "1 ns less and read the clock once less before refusing)",
     {"generators": [{"name": "g", "layout": f"41.10.12@{E}", "node_id": 7, "mode": "strict",
                      "max_wait_ms": 2.0000005, "max_drift_ms": 1000,
                      "clock": [{"ms": E + 10}, {"ms": E + 8}]}],
      "steps": [{"gen": "g", "op": "next_id"}, {"gen": "g", "op": "next_id"}]}),
]


def replay(scenario: Dict[str, Any], cid: str, source: str,
           checkpoints: bool = False) -> Dict[str, Any]:
    """`scenario` as a scenario case, every expected value from the model. With
    `checkpoints`, a `clock` and a `stats` step follow every step (what the differential
    test compares after each step)."""
    sc = Scenario(cid, source)
    dropped = set()
    for spec in scenario["generators"]:
        owner = spec.get("clock_of")
        if owner is not None and (owner in dropped or owner not in sc.gens):
            dropped.add(spec["name"])
            continue
        keys = ("name", "layout", "node_id", "mode", "max_wait_ms", "max_drift_ms")
        kwargs = {k: spec[k] for k in keys}
        if owner is not None:
            kwargs["clock_of"] = owner
        else:
            kwargs["clock"] = [seg(**s) for s in spec["clock"]]
        sc.gen(deferred=bool(spec.get("deferred")), **kwargs)
    deferred = {s["name"] for s in scenario["generators"] if s.get("deferred")}
    for step in scenario["steps"]:
        name, op = step["gen"], step["op"]
        if name in dropped:
            continue
        if op == "open":
            if name in deferred and name not in sc.gens:
                sc.open(name)
            else:
                continue
        elif name not in sc.gens:
            continue
        elif op in ("next_id", "next_ids"):
            if op == "next_id":
                sc.next_id(name, drift=True)
            else:
                sc.batch(step["n"], gen=name, drift=True)
            expect = sc.case["steps"][-1]["expect"]
            if expect.get("error", "CLOCK_MOVED_BACKWARDS") != "CLOCK_MOVED_BACKWARDS":
                del expect["drift_ms"]  # only CLOCK_MOVED_BACKWARDS carries one
        elif op == "close":
            sc.close(name)
        else:
            getattr(sc, op)(name)  # stats, status, drift, clock
        if checkpoints:
            for other in sc.gens:
                sc.stats(other)
            owners = {}
            for other in sc.gens:
                owners.setdefault(id(sc.clocks[other]), other)
            for other in owners.values():
                sc.clock(other)
    return sc.case


def differential_cases() -> List[Dict[str, Any]]:
    return [replay(scenario, cid, source, checkpoints=True)
            for cid, source, scenario in DIFFERENTIAL_SCENARIOS]
