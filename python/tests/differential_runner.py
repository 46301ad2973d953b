"""Runs one scenario through the core (the installed `snowfleet` package) and through the
reference model (conformance/model/snowfleet_model.py) in lockstep, and checks that they
agree and that what they issue obeys the id rules (below).

A scenario is a conformance scenario case without the expectations (conformance/README.md,
kind `scenario`): ``{"generators": [...], "steps": [...]}`` with segment ``ms`` as ints.
After every step both sides must agree on the outcome (ids, or the error's code and
``drift_ms``), on both clocks' counters and on every live generator's stats; ``status`` and
``drift`` steps compare every field both expose. Independently of the core, the model's
own results are checked against the requirements: ids strictly ascending (so never issued
twice) within every set of generators whose ids can overlap, no error path changes the
state, a strict generator never returns an id more than ``max_wait_ms`` ahead of the
highest wall reading of its call (a monotonic one: ``max_drift_ms``). The highest, not the
last: a call that reserved ids ahead and holds them until the clock reaches them returns
them when its budget runs out even if the clock went back meanwhile (the core and the
model alike).

`to_vector_case` turns a scenario into a case of conformance/vectors/scenarios.json (the
model provides every expected value) through conformance/differential_cases.py, which
generate.py uses for the cases kept there.
"""

from __future__ import annotations

import sys
from typing import Any, Dict, List, Tuple

import snowfleet
from snowfleet.testing import ScriptedClock as CoreClock

from conftest import REPO_ROOT

for _dir in (REPO_ROOT / "conformance", REPO_ROOT / "conformance" / "model"):
    if str(_dir) not in sys.path:
        sys.path.insert(0, str(_dir))

import differential_cases  # noqa: E402  (conformance/differential_cases.py)
import snowfleet_model as m  # noqa: E402

Outcome = Tuple[str, Any]  # ("ok", value) or ("error", (code, drift_ms or None))


class Discrepancy(AssertionError):
    """The core and the model disagree."""


class Violation(AssertionError):
    """The model's own results break an id rule (a model bug, or a rule
    the model and the core may share)."""


# --------------------------------------------------------------------------- the model side


class ObservedClock(m.ScriptedClock):
    """The model's scripted clock, remembering every reading (ms)."""

    def __init__(self, segments: List[dict]):
        super().__init__(segments)
        self.readings: List[int] = []

    def wall_ns(self) -> int:
        ns = super().wall_ns()
        self.readings.append(ns // m.NS_PER_MS)
        return ns


class ObservedGenerator(m.Generator):
    """The model's generator, checking each reservation against the requirements."""

    def __init__(self, spec: Dict[str, Any], clock: ObservedClock):
        super().__init__(m.Layout.parse(spec["layout"]), spec["node_id"], spec["mode"],
                         spec["max_wait_ms"], spec["max_drift_ms"], clock)
        self.max_wait_ms = spec["max_wait_ms"]

    def reserve(self, want: int) -> Tuple[int, int]:
        before, seen = self.space.state, len(self.clock.readings)
        try:
            first, count = super().reserve(want)
        except m.ModelError as e:
            # The one refusal after a state change: ids reserved ahead under contention,
            # refused when the clock went back while they were held. They are skipped.
            if self.space.state != before and "held ids reserved ahead" not in str(e):
                raise Violation(f"an error path changed the state: {before} -> "
                                f"{self.space.state}") from None
            raise
        readings = self.clock.readings[seen:]
        last_ms = (first + count - 1) >> self.layout.sequence_bits
        ahead = last_ms - (max(readings) - self.layout.epoch_ms)
        bound = self.max_wait_ms if self.mode == "strict" else self.max_drift_ms
        if ahead > bound:
            raise Violation(f"{self.mode} generator issued ms {last_ms}, {ahead} ms ahead of "
                            f"the latest reading of its call (readings {readings[-5:]}), "
                            f"more than {bound}")
        return first, count


# --------------------------------------------------------------------------- helpers


def _error(exc: BaseException) -> Outcome:
    code = getattr(exc, "code", None)
    if not code:
        return ("error", (f"{type(exc).__name__}: {exc}", None))
    drift = getattr(exc, "drift_ms", None) if code == "CLOCK_MOVED_BACKWARDS" else None
    return ("error", (code, drift))


def _model(call, *args) -> Outcome:
    try:
        return ("ok", call(*args))
    except m.ModelError as e:
        return _error(e)


def _core(call, *args) -> Outcome:
    try:
        return ("ok", call(*args))
    except snowfleet.SnowfleetError as e:
        return _error(e)
    except (TypeError, ValueError, OverflowError) as e:  # not a core error: never equal
        return _error(e)


def _same(what: str, core: Any, model: Any) -> None:
    if core != model:
        if isinstance(core, tuple) and isinstance(model, tuple) and core[0] == model[0] == "ok":
            core, model = _first_difference(core[1], model[1])
        raise Discrepancy(f"{what}: core {core!r} != model {model!r}")


def _first_difference(a: Any, b: Any) -> Tuple[Any, Any]:
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return f"[{i}]={x} of {len(a)}", f"[{i}]={y} of {len(b)}"
        return f"{len(a)} ids", f"{len(b)} ids"
    return a, b


def _clock_view(clock: Any) -> Tuple[int, ...]:
    return (clock.reads, clock.sleep_count, clock.slept_ns, clock.max_sleep_ns,
            clock.min_sleep_ns)


def _model_clock_view(clock: ObservedClock) -> Tuple[int, ...]:
    d = clock.describe()
    return tuple(int(d[k]) for k in ("reads", "sleep_count", "slept_ns", "max_sleep_ns",
                                     "min_sleep_ns"))


STAT_KEYS = ("ids_issued", "rewinds_seen", "waits", "waited_ns_total", "waited_ns_max",
             "refusals", "ms_borrowed")


def _core_stats(gen: snowfleet.Generator) -> Tuple[int, ...]:
    st = gen.stats()
    if st.mark_writes or st.lease_refusals or st.mark_write_failures or st.lease_renewal_failures:
        raise Discrepancy(f"lease counters on an unleased generator: {st}")
    return tuple(getattr(st, k) for k in STAT_KEYS)


def _model_stats(gen: ObservedGenerator) -> Tuple[int, ...]:
    return tuple(int(gen.stats_view()[k]) for k in STAT_KEYS)


def _core_status(gen: snowfleet.Generator) -> Dict[str, Any]:
    st = gen.status()
    if (st.reason == "") != st.healthy or st.lease_state != "none" or st.mark_ms != -1 \
            or st.lease_expires_in_ms != -1 or st.mark_headroom_ms != -1 or st.mode != gen.mode:
        raise Discrepancy(f"status fields inconsistent: {st}")
    return {"healthy": st.healthy, "wall_ms": st.wall_ms, "last_ms": st.last_ms,
            "drift_ms": st.drift_ms, "node_id": st.node_id}


def _model_status(gen: ObservedGenerator) -> Dict[str, Any]:
    st = gen.status()
    return dict(st, wall_ms=int(st["wall_ms"]), last_ms=int(st["last_ms"]))


# --------------------------------------------------------------------------- the run


class Run:
    """One scenario, both sides. `ids` counts the ids compared."""

    def __init__(self, scenario: Dict[str, Any]):
        self.scenario = scenario
        self.specs = {g["name"]: g for g in scenario["generators"]}
        self.model_gens: Dict[str, ObservedGenerator] = {}
        self.core_gens: Dict[str, snowfleet.Generator] = {}
        self.model_clocks: Dict[str, ObservedClock] = {}
        self.core_clocks: Dict[str, CoreClock] = {}
        self.dropped: set = set()
        self.issued: List[Tuple[str, int]] = []
        self.ids = 0

    def add(self, spec: Dict[str, Any]) -> None:
        """Makes `spec`'s clock (or takes its owner's) and, unless deferred, constructs it.
        A generator whose clock owner failed to construct is left out, with its steps."""
        name, owner = spec["name"], spec.get("clock_of")
        if owner is not None:
            if owner not in self.model_gens:
                self.dropped.add(name)
                return
            self.model_clocks[name] = self.model_clocks[owner]
            self.core_clocks[name] = self.core_clocks[owner]
        else:
            model = _model(ObservedClock, spec["clock"])
            core = _core(CoreClock, spec["clock"])
            _same(f"scripted clock of {name}", _tag(core), _tag(model))
            if model[0] != "ok":
                self.dropped.add(name)
                return
            self.model_clocks[name], self.core_clocks[name] = model[1], core[1]
        if not spec.get("deferred"):
            self.construct(name)

    def construct(self, name: str) -> None:
        spec = self.specs[name]
        model = _model(ObservedGenerator, spec, self.model_clocks[name])
        args = {k: spec[k] for k in ("layout", "mode", "max_wait_ms", "max_drift_ms")}
        clock = self.core_clocks[name]
        core = _core(lambda: snowfleet.Generator(spec["node_id"], clock=clock, **args))
        _same(f"constructing {name}", _tag(core), _tag(model))
        if model[0] == "ok":
            self.model_gens[name], self.core_gens[name] = model[1], core[1]

    def step(self, index: int, step: Dict[str, Any]) -> None:
        name, op = step["gen"], step["op"]
        where = f"step {index} ({op} on {name})"
        if name in self.dropped:
            return
        if op == "open":
            if self.specs[name].get("deferred") and name not in self.model_gens:
                self.construct(name)
                self.compare_state(where)
            return
        mg, cg = self.model_gens.get(name), self.core_gens.get(name)
        if mg is None:
            return  # never constructed: no step uses it (see differential_cases.replay)
        if op == "next_id":
            model, core = _model(mg.next_id), _core(cg.next_id)
            _same(where, core, model)
            if model[0] == "ok":
                self.issued.append((name, model[1]))
                self.ids += 1
        elif op == "next_ids":
            model = _model(mg.next_ids, step["n"])
            core = _core(lambda: cg.next_ids(step["n"]).tolist())
            _same(where, core, model)
            if model[0] == "ok":
                self.issued.extend((name, i) for i in model[1])
                self.ids += len(model[1])
        elif op == "status":
            _same(where, _core(_core_status, cg), _model(_model_status, mg))
        elif op == "drift":
            _same(where, _core(lambda: cg.drift_ms), _model(mg.drift))
        elif op == "close":
            mg.close()
            cg.close()
        elif op not in ("stats", "clock"):  # compared after every step anyway
            raise AssertionError(f"unknown op {op!r}")
        self.compare_state(where)

    def compare_state(self, where: str) -> None:
        seen = set()
        for name, mclock in self.model_clocks.items():
            if id(mclock) in seen:
                continue
            seen.add(id(mclock))
            _same(f"{where}: clock counters (reads, sleeps, slept, max, min) of {name}",
                  _clock_view(self.core_clocks[name]), _model_clock_view(mclock))
        for name, mg in self.model_gens.items():
            _same(f"{where}: stats {STAT_KEYS} of {name}", _core_stats(self.core_gens[name]),
                  _model_stats(mg))

    def check_issued(self) -> None:
        """Strictly ascending, in issue order, among generators whose ids can overlap (same
        epoch and timestamp position, overlapping node << sequence ranges), so no id twice
        there; other generators' ids differ in their node bits. (Under another epoch the
        same bits are another id space, whose ids may coincide: docs/id-spaces.md.)"""
        for group in _overlap_groups(self.scenario["generators"]):
            run = [i for name, i in self.issued if name in group]
            for a, b in zip(run, run[1:]):
                if not a < b:
                    raise Violation(f"ids of {sorted(group)} not strictly ascending: {a}, {b}")
            if any(not 0 <= i <= m.INT64_MAX for i in run):
                raise Violation("an id outside [0, 2^63 - 1]")

    def run(self) -> None:
        for spec in self.scenario["generators"]:
            self.add(spec)
        self.compare_state("after construction")
        for index, step in enumerate(self.scenario["steps"]):
            self.step(index, step)
        self.check_issued()


def _tag(outcome: Outcome) -> Outcome:
    """An outcome without the constructed object (only success or the error counts)."""
    return ("ok", None) if outcome[0] == "ok" else outcome


def _overlap_groups(specs: List[Dict[str, Any]]) -> List[set]:
    def key(spec):
        try:
            lay = m.Layout.parse(spec["layout"])
        except m.ModelError:
            return None
        node = spec["node_id"]
        if not isinstance(node, int) or not 0 <= node <= lay.max_node_id:
            return None
        low = node << lay.sequence_bits
        return lay.epoch_ms, lay.timestamp_shift, low, low | lay.max_sequence

    keys = {s["name"]: key(s) for s in specs}
    groups: List[set] = []
    for name, k in keys.items():
        if k is None:
            continue
        joined = [g for g in groups if any(
            keys[o][:2] == k[:2] and keys[o][2] <= k[3] and k[2] <= keys[o][3] for o in g)]
        merged = {name}.union(*joined)
        groups = [g for g in groups if g not in joined] + [merged]
    return groups


def run_scenario(scenario: Dict[str, Any]) -> int:
    """Runs `scenario` on both sides; returns the number of ids compared. Raises
    Discrepancy or Violation."""
    run = Run(scenario)
    run.run()
    return run.ids


def to_vector_case(scenario: Dict[str, Any], cid: str, source: str) -> Dict[str, Any]:
    """`scenario` as a conformance scenario case (expected values from the model), with a
    `clock` and a `stats` step after every step so a runner compares what this test did."""
    return differential_cases.replay(scenario, cid, source, checkpoints=True)
