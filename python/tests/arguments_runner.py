"""The Python runner of conformance/vectors/arguments.json (kind ``arguments``, format in
conformance/README.md): the argument rulebook, called exactly as a user of the package would
call it. Python runs every case: ``{"error": "TYPE"}`` is Python's TypeError, and integers
past int64 are plain Python ints (the package refuses them with InvalidArgument)."""

from __future__ import annotations

import inspect
from typing import Any, Callable, Dict, List

import pytest

import snowfleet
from snowfleet.testing import ScriptedClock

FROZEN_MS = 1737747358021


def host_value(value: Dict[str, Any]) -> Any:
    """A host-neutral argument value as Python's natural type."""
    (kind, raw), = value.items()
    if kind == "int":
        return int(raw)
    if kind == "float":
        return float(raw)
    if kind == "text":
        return str(raw)
    if kind == "bool":
        return bool(raw)
    raise AssertionError(f"unknown argument kind {kind!r}")


def _check_error(exc: BaseException, expect: Dict[str, Any]) -> None:
    code = expect["error"]
    if code == "TYPE":
        assert type(exc) is TypeError, f"expected TypeError, got {type(exc).__name__}: {exc}"
    else:
        cls = snowfleet.ERROR_CLASSES[code]
        assert type(exc) is cls, f"expected {cls.__name__} ({code}), got {type(exc).__name__}: {exc}"
        assert exc.code == code  # type: ignore[attr-defined]
    for part in expect.get("message_contains", []):
        assert part in str(exc), f"{part!r} not in message {str(exc)!r}"


def _outcome(expect: Dict[str, Any], call: Callable[[], Any]) -> Any:
    """The call's result when `expect` is a result; else checks the call raises as expected
    and returns None."""
    if "error" not in expect:
        return call()
    with pytest.raises(Exception) as info:
        call()
    _check_error(info.value, expect)
    return None


def _generator_case(args: Dict[str, Any], expect: Dict[str, Any]) -> None:
    gen = _outcome(expect, lambda: snowfleet.Generator(clock=ScriptedClock(FROZEN_MS), **args))
    if gen is None:
        return
    try:
        assert gen.node_id == expect["node_id"]
        assert str(gen.layout) == expect["layout"]
        assert gen.mode == expect["mode"]
        assert gen.max_wait_ms == expect["max_wait_ms"]
        assert gen.max_drift_ms == expect["max_drift_ms"]
    finally:
        gen.close()


def _call_case(op: str, args: Dict[str, Any], expect: Dict[str, Any], closed: bool) -> None:
    with snowfleet.Generator(9, clock=ScriptedClock(FROZEN_MS)) as gen:
        before = gen.next_id()
        if closed:
            gen.close()
        issued = gen.stats().ids_issued
        if op == "status":
            status = gen.status()
            assert (status.healthy, status.reason) == (expect["healthy"], expect["reason"])
            return
        if op == "close":
            gen.close()
            assert gen.closed
            return
        if op == "next_id":
            got = _outcome(expect, gen.next_id)
            if got is not None:
                assert got > before
        else:
            got = _outcome(expect, lambda: gen.next_ids(args["n"]))
            if got is not None:
                assert len(got) == expect["count"] and all(i > before for i in got)
        if got is None:
            # Refused: nothing was issued, and an open generator continues after `before`.
            assert gen.stats().ids_issued == issued
            if not gen.closed:
                assert gen.next_id() > before


# Layout properties that are not fields of the list: its text, preset name and whether split.
_LAYOUT_EXTRAS = ("text", "preset", "split")


def _field_names(record: str) -> List[str]:
    """The names the package really offers for ``record``, in the host's order."""
    if record in ("stats", "status"):
        return list({"stats": snowfleet.Stats, "status": snowfleet.Status}[record]._fields)
    if record in ("uuid7_stats", "uuid7_status"):
        with snowfleet.Uuid7Generator(clock=ScriptedClock(FROZEN_MS)) as g:
            got = g.stats() if record == "uuid7_stats" else g.status()
        return list(got._fields)
    if record == "layout":
        props = [n for n, v in vars(snowfleet.Layout).items() if isinstance(v, property)]
        return [n for n in props if n not in _LAYOUT_EXTRAS]
    raise AssertionError(f"unknown record {record!r}")


def arguments_case(case: Dict[str, Any]) -> None:
    op, expect = case["op"], case["expect"]
    args = {name: host_value(value) for name, value in case["args"].items()}
    if op == "generator":
        _generator_case(args, expect)
    elif op in ("next_ids", "next_id", "status", "close"):
        _call_case(op, args, expect, case.get("closed", False))
    elif op == "decode":
        d = _outcome(expect, lambda: snowfleet.decode(args["id"], layout=args["layout"]))
        if d is not None:
            assert d._asdict() == dict(expect, timestamp_ms=int(expect["timestamp_ms"]))
    elif op == "compose":
        got = _outcome(expect, lambda: snowfleet.compose(**args))
        if got is not None:
            assert str(got) == expect["id"]
    elif op == "layout_create":
        layout = _outcome(expect, lambda: snowfleet.Layout.create(**args))
        if layout is not None:
            assert layout.text == expect["text"]
    elif op == "fields" and args["record"] == "generator_args":
        # node_id is also positional (Generator(5)), so it comes first; the keyword-only
        # arguments follow in the list's order.
        params = list(inspect.signature(snowfleet.Generator).parameters.values())
        positional = [p.name for p in params if p.kind != p.KEYWORD_ONLY]
        keywords = [p.name for p in params if p.kind == p.KEYWORD_ONLY]
        assert set(positional) <= set(expect["names"]), positional
        assert keywords == [n for n in expect["names"] if n not in positional]
    elif op == "fields":
        assert _field_names(args["record"]) == expect["names"]
    else:
        raise AssertionError(f"unknown op {op!r}")
