"""Runs every case of the shared conformance vectors (conformance/vectors/*.json) through the
Python package, exactly as a user would call it. Format: conformance/README.md. No case is
skipped; a missing or empty vectors directory is a failure, not a pass."""

from __future__ import annotations

import json
import uuid
from typing import Any, Dict, Iterable, List, Tuple

import pytest

import snowfleet
from snowfleet.testing import ScriptedClock, ScriptedRandom

from arguments_runner import arguments_case
from conftest import VECTORS_DIR

KINDS = ("layout", "codec", "scenario", "time", "arguments", "text", "range", "uuid7")


def _load() -> List[Tuple[str, Dict[str, Any]]]:
    cases: List[Tuple[str, Dict[str, Any]]] = []
    for path in sorted(VECTORS_DIR.glob("*.json")):
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        assert doc["schema_version"] == 1, path
        assert doc["kind"] in KINDS, path
        for case in doc["cases"]:
            case = dict(case, _kind=doc["kind"])
            cases.append((f"{path.stem}:{case['id']}", case))
    return cases


CASES = _load()


def test_vectors_present() -> None:
    """Every kind of vector file is there, with cases, and case ids are unique per file."""
    kinds = {case["_kind"] for _, case in CASES}
    assert kinds == set(KINDS), f"vectors missing under {VECTORS_DIR}: found kinds {kinds}"
    ids = [name for name, _ in CASES]
    assert len(ids) == len(set(ids)), "duplicate case ids"


# ---- expectations -------------------------------------------------------------------------


def _is_error(expect: Any) -> bool:
    return isinstance(expect, dict) and "error" in expect


def _check_error(exc: BaseException, expect: Dict[str, Any]) -> None:
    code = expect["error"]
    cls = snowfleet.ERROR_CLASSES[code]
    assert type(exc) is cls, f"expected {cls.__name__} ({code}), got {type(exc).__name__}: {exc}"
    assert isinstance(exc, snowfleet.SnowfleetError)
    assert exc.code == code
    if "drift_ms" in expect:
        assert exc.drift_ms == expect["drift_ms"], str(exc)  # type: ignore[attr-defined]
    for part in expect.get("message_contains", []):
        assert part in str(exc), f"{part!r} not in message {str(exc)!r}"


def _expect_raises(expect: Dict[str, Any], fn: Any, *args: Any, **kwargs: Any) -> None:
    with pytest.raises(snowfleet.SnowfleetError) as info:
        fn(*args, **kwargs)
    _check_error(info.value, expect)


def _same(actual: Any, expected: Any, what: str) -> None:
    # Number rule: 64-bit values travel as decimal strings.
    if isinstance(expected, str) and not isinstance(actual, str):
        actual = str(actual)
    assert actual == expected, f"{what}: got {actual!r}, expected {expected!r}"
    if isinstance(expected, bool) or isinstance(actual, bool):
        assert type(actual) is type(expected), f"{what}: type {type(actual).__name__}"


def _check_fields(obj: Any, expected: Dict[str, Any]) -> None:
    for key, value in expected.items():
        _same(getattr(obj, key), value, key)


# ---- layout -------------------------------------------------------------------------------


def _layout_case(case: Dict[str, Any]) -> None:
    if case["op"] == "parse":
        call, args = snowfleet.Layout.parse, {"text": case["text"]}
    elif case["op"] == "create":
        call = snowfleet.Layout.create
        args = {"epoch_ms": int(case["epoch_ms"])}
        for key in ("timestamp_bits", "node_bits", "datacenter_bits", "machine_bits", "sequence_bits"):
            if key in case:
                args[key] = case[key]
    else:
        raise AssertionError(f"unknown layout op {case['op']!r}")
    expect = case["expect"]
    if _is_error(expect):
        _expect_raises(expect, call, **args)
        return
    layout = call(**args)
    _check_fields(layout, expect)
    assert snowfleet.Layout.parse(layout.text) == layout  # the text form round-trips


# ---- codec --------------------------------------------------------------------------------


def _codec_case(case: Dict[str, Any]) -> None:
    op, expect = case["op"], case["expect"]
    if op == "compose":
        args: Dict[str, Any] = {"timestamp_ms": int(case["timestamp_ms"]), "layout": case["layout"]}
        for key in ("node_id", "datacenter_id", "machine_id", "sequence"):
            if key in case:
                args[key] = case[key]
        if _is_error(expect):
            _expect_raises(expect, snowfleet.compose, **args)
        else:
            _same(snowfleet.compose(**args), expect["id"], "id")
    elif op == "decode":
        value = int(case["value"])  # as a Python user would convert the text
        if _is_error(expect):
            _expect_raises(expect, snowfleet.decode, value, case["layout"])
        else:
            _check_fields(snowfleet.decode(value, case["layout"]), expect)
    elif op == "parse_id":
        if _is_error(expect):
            _expect_raises(expect, snowfleet.parse_id, case["text"])
        else:
            _same(snowfleet.parse_id(case["text"]), expect["id"], "id")
    else:
        raise AssertionError(f"unknown codec op {op!r}")


# ---- time ---------------------------------------------------------------------------------


def _time_case(case: Dict[str, Any]) -> None:
    if case["op"] != "parse_time":
        raise AssertionError(f"unknown time op {case['op']!r}")
    expect = case["expect"]
    if _is_error(expect):
        _expect_raises(expect, snowfleet.parse_time, case["text"])
    else:
        _same(snowfleet.parse_time(case["text"]), expect["timestamp_ms"], "timestamp_ms")


# ---- scenario -----------------------------------------------------------------------------


def _clock(segments: Iterable[Dict[str, Any]]) -> ScriptedClock:
    return ScriptedClock([dict(seg, ms=int(seg["ms"])) for seg in segments])


def _generator_args(spec: Dict[str, Any]) -> Dict[str, Any]:
    args = {key: spec[key] for key in ("layout", "mode", "max_wait_ms", "max_drift_ms") if key in spec}
    if "node_id" in spec:
        args["node_id"] = spec["node_id"]
    return args


def _check_run(ids: List[int], expect: Dict[str, Any], layout: snowfleet.Layout) -> None:
    if _is_error(expect):
        raise AssertionError(f"expected {expect}, got {len(ids)} ids")
    summary: Dict[str, Any] = {
        "count": len(ids),
        "strictly_increasing": all(a < b for a, b in zip(ids, ids[1:])),
        "sum": str(sum(ids) % (1 << 64)),
    }
    if ids:
        summary["first"] = str(ids[0])
        summary["last"] = str(ids[-1])
        summary["max_sequence"] = max(snowfleet.decode(i, layout).sequence for i in ids)
    for key, value in expect.items():
        assert key in summary, f"RUN key {key!r} unknown or undefined for {len(ids)} ids"
        _same(summary[key], value, key)


def _scenario_case(case: Dict[str, Any]) -> None:
    gens: Dict[str, snowfleet.Generator] = {}
    clocks: Dict[str, ScriptedClock] = {}
    deferred: Dict[str, Dict[str, Any]] = {}  # opened by an "open" step
    made: List[snowfleet.Generator] = []  # every generator constructed: closed at the end
    first = None

    def construct(spec: Dict[str, Any]) -> None:
        # On its own scripted clock, or on the clock object of the generator clock_of names
        # (one clock object: one time). The clock is made here, so a script the core refuses
        # is the construction error the case expects.
        clock = clocks[spec["clock_of"]] if "clock_of" in spec else _clock(spec["clock"])
        gen = snowfleet.Generator(clock=clock, **_generator_args(spec))
        made.append(gen)
        gens[spec["name"]] = gen
        clocks[spec["name"]] = clock

    try:
        for spec in case["generators"]:
            if "expect_construct_error" in spec:
                _expect_raises(spec["expect_construct_error"], construct, spec)
                continue
            first = first or spec["name"]
            if spec.get("deferred"):
                deferred[spec["name"]] = spec
            else:
                construct(spec)

        for index, step in enumerate(case["steps"]):
            name = step.get("gen", first)
            expect, op = step["expect"], step["op"]
            where = f"step {index} ({op} {name})"
            try:
                if op == "open":
                    if _is_error(expect):
                        _expect_raises(expect, construct, deferred[name])
                    else:
                        assert expect == {}, f"open expects {{}} or an error, got {expect}"
                        construct(deferred[name])
                    continue
                gen, clock = gens[name], clocks[name]
                if op == "next_id" and step.get("repeat", 1) == 1:
                    if _is_error(expect):
                        _expect_raises(expect, gen.next_id)
                    else:
                        _same(gen.next_id(), expect["id"], "id")
                elif op == "next_id":
                    _check_run([gen.next_id() for _ in range(step["repeat"])], expect, gen.layout)
                elif op == "next_ids":
                    if _is_error(expect):
                        _expect_raises(expect, gen.next_ids, step["n"])
                    else:
                        ids = gen.next_ids(step["n"])
                        assert ids.typecode == "q"
                        _check_run(ids.tolist(), expect, gen.layout)
                elif op == "stats":
                    _check_fields(gen.stats(), expect)
                elif op == "status":
                    _check_fields(gen.status(), expect)
                elif op == "drift":
                    _same(gen.drift_ms, expect["drift_ms"], "drift_ms")
                elif op == "clock":
                    _check_fields(clock, expect)
                elif op == "close":
                    assert expect == {}, f"close expects {{}}, got {expect}"
                    gen.close()
                else:
                    raise AssertionError(f"unknown scenario op {op!r}")
            except AssertionError as e:
                raise AssertionError(f"{where}: {e}") from None
    finally:
        # Scenarios never see each other's open generators (nor share their state).
        for gen in made:
            gen.close()


_TEXT: Dict[str, Any] = {"base32": (snowfleet.format_base32, snowfleet.parse_base32),
                         "base62": (snowfleet.format_base62, snowfleet.parse_base62),
                         "any": (None, snowfleet.parse_id_text)}


def _text_case(case: Dict[str, Any]) -> None:
    fmt, parse = _TEXT[case["encoding"]]
    expect = case["expect"]
    if case["op"] == "parse":
        if _is_error(expect):
            _expect_raises(expect, parse, case["text"])
        else:
            _same(parse(case["text"]), expect["id"], "id")
        return
    value = int(case["value"])
    if _is_error(expect):
        _expect_raises(expect, fmt, value)
        return
    _same(fmt(value), expect["text"], "text")
    if case["op"] == "round_trip":
        assert parse(expect["text"]) == value


def _range_case(case: Dict[str, Any]) -> None:
    expect, layout = case["expect"], case["layout"]
    if case["op"] == "id_range":
        call: Any = lambda: snowfleet.id_range(  # noqa: E731
            int(case["start_ms"]), int(case["end_ms"]), slack_ms=int(case.get("slack_ms", "0")),
            layout=layout)
    else:
        fn = snowfleet.min_id if case["op"] == "min_id" else snowfleet.max_id
        call = lambda: fn(int(case["timestamp_ms"]), layout=layout)  # noqa: E731
    if _is_error(expect):
        _expect_raises(expect, call)
    elif case["op"] == "id_range":
        got = call()
        _same(got.first, expect["first"], "first")
        _same(got.last, expect["last"], "last")
    else:
        _same(call(), expect["id"], "id")


def _uuid7_case(case: Dict[str, Any]) -> None:
    """uuid7.json: generators on a scripted clock and random source; decode of UUID text."""
    if case["op"] == "decode":
        expect = case["expect"]
        if _is_error(expect):
            _expect_raises(expect, snowfleet.decode_uuid7, case["text"])
            return
        d = snowfleet.decode_uuid7(case["text"])
        assert str(d.timestamp_ms) == expect["timestamp_ms"]
        assert d.counter == expect["counter"]
        assert str(d.random) == expect["random"]
        assert str(uuid.UUID(case["text"])) == expect["canonical"]
        return
    assert case["op"] == "generate"
    gen = snowfleet.Uuid7Generator(mode=case["mode"], max_wait_ms=case["max_wait_ms"],
                                   clock=_clock(case["clock"]),
                                   random=ScriptedRandom(int(case["seed"])))
    for step in case["steps"]:
        expect = step["expect"]

        def call() -> List[str]:
            if step["op"] == "next":
                return [str(gen.next_uuid7())]
            return [str(u) for u in gen.next_uuid7s(step["n"])]

        if _is_error(expect):
            _expect_raises(expect, call)
        elif "uuids" in expect:
            assert call() == expect["uuids"]
        else:
            got = call()
            assert (len(got), got[0], got[-1]) == (expect["count"], expect["first"], expect["last"])


RUNNERS = {
    "text": _text_case,
    "range": _range_case,
    "layout": _layout_case,
    "codec": _codec_case,
    "scenario": _scenario_case,
    "time": _time_case,
    "arguments": arguments_case,
    "uuid7": _uuid7_case,
}


@pytest.mark.parametrize("case", [case for _, case in CASES], ids=[name for name, _ in CASES])
def test_case(case: Dict[str, Any]) -> None:
    RUNNERS[case["_kind"]](case)
