"""Runs scenario cases written as data through the reference model, into the cases of
vectors/scenarios.json.

A case entry (see scenario_cases_reference.py and the other scenario_cases_*.py files) is

    {"id": "...", "source": "...",
     "generators": [{"name": "g", "node_id": 1023, "clock": [{"ms": E + 1}]}],
     "steps": [{"op": "next_id", "expect": {"id": {"max": INT64_MAX}},
                "decoded": {"node_id": 1023, "timestamp_ms": E + 1}}]}

Generators take the vector's generator fields, each optional but the clock (`name` "g",
`layout` the default one, `node_id` 7, `mode` "strict", `max_wait_ms` 5.0, `max_drift_ms`
1000; clock segments with `ms` as an int), plus `expect` (a partial expectation of the
construction: `{"error": CODE}`) and `message_contains` (added to the construction error).

Steps take the vector's step fields (`op`, `gen` defaulting to the first generator,
`repeat`, `n`); the model supplies every expected value. What a step may add, none of it
written to the vector except `message_contains` and `drift_ms`:

- `expect`: a partial expectation of the step's result, asserted against the model's. Each
  key must be present and equal (an int matches a decimal string; `{"min": a, "max": b}` is
  an inclusive range, either bound optional). An `expect` without `error` asserts the step
  succeeds.
- `decoded`: fields of the step's id decoded with the generator's layout;
  `decoded_first` / `decoded_last` the same for the first / last id of a run.
- `checks`: named checks on the ids the step issued: `ascending`, `unique` (none issued
  twice, in this step or an earlier one), `above_earlier` (all above every id issued
  before in the scenario), `follows_earlier` (the first is the last id issued before + 1).
- `with_drift`: a refusal's expectation carries `drift_ms` (so does naming `drift_ms` in
  `expect`); `message_contains`: substrings the error's message must contain, for every
  runner (the model's own messages are not checked).
"""

from __future__ import annotations

from typing import Any, Dict, List

import snowfleet_model as m

DEFAULT = "41.10.12@1704067200000"
U64 = 1 << 64


def s(v: int) -> str:
    return str(v)


def error_of(exc: m.ModelError, drift: bool = False, contains=None) -> dict:
    out = {"error": exc.code}
    if drift:
        out["drift_ms"] = exc.drift_ms
    if contains:
        out["message_contains"] = contains
    return out


def run_summary(ids, layout: m.Layout) -> dict:
    out = {"count": len(ids), "strictly_increasing": all(a < b for a, b in zip(ids, ids[1:])),
           "sum": str(sum(ids) % U64)}
    if ids:
        out["first"] = str(ids[0])
        out["last"] = str(ids[-1])
        out["max_sequence"] = max(i & layout.max_sequence for i in ids)
    return out


def seg(ms, count=None, step_ms=None, every=None):
    """A clock segment as the vector writes it (`ms` a decimal string)."""
    out = {"ms": s(ms)}
    if count is not None:
        out["count"] = count
    if step_ms is not None:
        out["step_ms"] = step_ms
    if every is not None:
        out["every"] = every
    return out


def scripted(values):
    """The reference's scripted_clock(values) as segments: the values, then +1 ms per read."""
    segs = [{"ms": v} for v in values]
    segs[-1]["step_ms"] = 1
    return segs


class Scenario:
    """Builds one scenario case while running it through the model."""

    def __init__(self, cid: str, source: str):
        self.case = {"id": cid, "source": source, "generators": [], "steps": []}
        self.gens = {}
        self.specs = {}
        self.clocks = {}

    def gen(self, name="g", layout=DEFAULT, node_id=7, mode="strict", max_wait_ms=5.0,
            max_drift_ms=1000, clock=None, clock_of=None, deferred=False):
        """A generator on its own scripted clock (`clock`) or on another generator's clock
        object (`clock_of`: one time, so one id space for the same node bits). A `deferred`
        one is constructed by an `open` step."""
        spec = {"name": name, "layout": layout, "node_id": node_id, "mode": mode,
                "max_wait_ms": max_wait_ms, "max_drift_ms": max_drift_ms}
        if clock_of is not None:
            spec["clock_of"] = clock_of
        else:
            spec["clock"] = clock
        if deferred:
            spec["deferred"] = True
        self.case["generators"].append(spec)
        self.specs[name] = spec
        try:
            self.clocks[name] = (self.clocks[clock_of] if clock_of is not None
                                 else m.ScriptedClock(clock))
        except m.ModelError as e:
            assert not deferred
            spec["expect_construct_error"] = error_of(e)
            return None
        return None if deferred else self._construct(name, record_error=True)

    def _construct(self, name, record_error):
        spec = self.specs[name]
        try:
            g = m.Generator(m.Layout.parse(spec["layout"]), spec["node_id"], spec["mode"],
                            spec["max_wait_ms"], spec["max_drift_ms"], self.clocks[name])
            self.gens[name] = g
            return g
        except m.ModelError as e:
            if not record_error:
                raise
            spec["expect_construct_error"] = error_of(e)
            return None

    def open(self, gen, contains=None):
        try:
            self._construct(gen, record_error=False)
            return self._step(gen, "open", {})
        except m.ModelError as e:
            return self._step(gen, "open", error_of(e, contains=contains))

    def close(self, gen="g"):
        self.gens[gen].close()
        return self._step(gen, "close", {})

    def _step(self, gen, op, expect, **fields):
        step = {"gen": gen, "op": op}
        step.update(fields)
        step["expect"] = expect
        self.case["steps"].append(step)
        return expect

    def next_id(self, gen="g", drift=False, contains=None):
        g = self.gens[gen]
        try:
            return self._step(gen, "next_id", {"id": s(g.next_id())})
        except m.ModelError as e:
            return self._step(gen, "next_id", error_of(e, drift, contains))

    def repeat(self, n, gen="g"):
        g = self.gens[gen]
        ids = [g.next_id() for _ in range(n)]
        self._step(gen, "next_id", run_summary(ids, g.layout), repeat=n)
        return ids

    def batch(self, n, gen="g", drift=False):
        g = self.gens[gen]
        try:
            ids = g.next_ids(n)
            self._step(gen, "next_ids", run_summary(ids, g.layout), n=n)
            return ids
        except m.ModelError as e:
            self._step(gen, "next_ids", error_of(e, drift), n=n)
            return None

    def stats(self, gen="g"):
        return self._step(gen, "stats", self.gens[gen].stats_view())

    def status(self, gen="g"):
        return self._step(gen, "status", self.gens[gen].status())

    def drift(self, gen="g"):
        return self._step(gen, "drift", {"drift_ms": self.gens[gen].drift()})

    def clock(self, gen="g"):
        return self._step(gen, "clock", self.clocks[gen].describe())


# --------------------------------------------------------------------------- the interpreter

GEN_KEYS = {"name", "layout", "node_id", "mode", "max_wait_ms", "max_drift_ms", "clock",
            "clock_of", "deferred", "expect", "message_contains"}
STEP_KEYS = {"op", "gen", "repeat", "n", "expect", "decoded", "decoded_first", "decoded_last",
             "checks", "with_drift", "message_contains"}
CHECKS = {"ascending", "unique", "above_earlier", "follows_earlier"}


def _matches(actual: Any, want: Any) -> bool:
    if isinstance(want, dict):  # an inclusive range
        value = int(actual)
        return want.get("min", value) <= value <= want.get("max", value)
    if isinstance(want, bool) or isinstance(actual, bool):
        return actual is want
    if isinstance(want, int) and isinstance(actual, str):
        return int(actual) == want
    return actual == want


def _assert_partial(where: str, actual: Dict[str, Any], want: Dict[str, Any]) -> None:
    if "error" not in want:
        assert "error" not in actual, f"{where}: expected success, the model gives {actual}"
    for key, value in want.items():
        assert key in actual and _matches(actual[key], value), \
            f"{where}: expected {key} {value!r}, the model gives {actual}"


def _check_ids(where: str, checks: List[str], ids: List[int], issued: List[int]) -> None:
    for check in checks:
        if check == "ascending":
            ok = ids == sorted(ids)
        elif check == "unique":
            ok = len(set(ids) | set(issued)) == len(ids) + len(set(issued))
        elif check == "above_earlier":
            ok = bool(ids) and bool(issued) and min(ids) > max(issued)
        elif check == "follows_earlier":
            ok = bool(ids) and bool(issued) and ids[0] == issued[-1] + 1
        else:
            raise AssertionError(f"{where}: unknown check {check!r} (known: {sorted(CHECKS)})")
        assert ok, f"{where}: check {check} fails on the model's ids"


def _run_step(sc: Scenario, where: str, step: Dict[str, Any], gen: str,
              issued: List[int]) -> None:
    op = step["op"]
    want = step.get("expect", {})
    drift = bool(step.get("with_drift")) or "drift_ms" in want
    contains = step.get("message_contains")
    ids: List[int] = []
    if op == "next_id" and "repeat" in step:
        ids = sc.repeat(step["repeat"], gen=gen)
        result = sc.case["steps"][-1]["expect"]
    elif op == "next_id":
        result = sc.next_id(gen, drift=drift, contains=contains)
        ids = [int(result["id"])] if "id" in result else []
    elif op == "next_ids":
        ids = sc.batch(step["n"], gen=gen, drift=drift) or []
        result = sc.case["steps"][-1]["expect"]
    elif op == "open":
        result = sc.open(gen, contains=contains)
    elif op == "close":
        result = sc.close(gen)
    elif op in ("stats", "status", "drift", "clock"):
        result = getattr(sc, op)(gen)
    else:
        raise AssertionError(f"{where}: unknown op {op!r}")
    if "expect" in step:
        _assert_partial(where, result, want)
    layout = sc.gens[gen].layout if gen in sc.gens else None
    for key, pick in (("decoded", "only"), ("decoded_first", 0), ("decoded_last", -1)):
        if key in step:
            assert len(ids) == 1 if pick == "only" else ids, f"{where}: {key} needs an id"
            value = ids[0 if pick == "only" else pick]
            _assert_partial(f"{where} {key}", m.decode(layout, value), step[key])
    _check_ids(where, step.get("checks", []), ids, issued)
    issued.extend(ids)


def build(entry: Dict[str, Any]) -> Dict[str, Any]:
    """The scenario case `entry` describes, every expected value from the model, after
    asserting each expectation and check the entry makes."""
    cid = entry["id"]
    assert set(entry) <= {"id", "source", "generators", "steps"}, f"{cid}: {set(entry)}"
    sc = Scenario(cid, entry["source"])
    for spec in entry["generators"]:
        unknown = set(spec) - GEN_KEYS
        assert not unknown, f"{cid}: unknown generator fields {sorted(unknown)}"
        kwargs = {k: v for k, v in spec.items() if k not in ("expect", "message_contains")}
        if "clock" in kwargs:
            kwargs["clock"] = [seg(**segment) for segment in kwargs["clock"]]
        sc.gen(**kwargs)
        made = sc.case["generators"][-1]
        where = f"{cid} generator {made['name']}"
        if "expect" in spec:
            _assert_partial(where, made.get("expect_construct_error", {}), spec["expect"])
        if "message_contains" in spec:
            assert "expect_construct_error" in made, f"{where}: constructs"
            made["expect_construct_error"]["message_contains"] = spec["message_contains"]
    first = sc.case["generators"][0]["name"]
    issued: List[int] = []
    for i, step in enumerate(entry.get("steps", [])):
        unknown = set(step) - STEP_KEYS
        assert not unknown, f"{cid} step {i}: unknown fields {sorted(unknown)}"
        _run_step(sc, f"{cid} step {i} ({step['op']})", step, step.get("gen", first), issued)
    return sc.case
