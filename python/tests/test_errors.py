"""The exception table: one class per core error kind, checked against the core's own list
(_snowfleet.error_kinds()) and against the static stubs, so none of them can drift."""

from __future__ import annotations

import ast
import pickle
import sys
from pathlib import Path
from types import FrameType
from typing import Callable, List, Type

import pytest

import snowfleet
from snowfleet import _snowfleet
from snowfleet.testing import ScriptedClock

from conftest import EPOCH

KINDS = _snowfleet.error_kinds()
EXPECTED_BASE = {"argument": ValueError, "range": OverflowError}
STUB = Path(snowfleet.__file__).with_name("_errors.pyi")


def test_core_list_is_the_documented_one() -> None:
    codes = [code for code, _, _, _ in KINDS]
    assert codes == ["INVALID_ARGUMENT", "TIMESTAMP_OUT_OF_RANGE", "CLOCK_MOVED_BACKWARDS",
                     "FORK_DETECTED", "GENERATOR_CLOSED", "NODE_ID_UNAVAILABLE", "LEASE_LOST",
                     "INTERNAL"]


@pytest.mark.parametrize("code, name, category, summary", KINDS, ids=[k[0] for k in KINDS])
def test_one_class_per_kind(code: str, name: str, category: str, summary: str) -> None:
    cls = getattr(snowfleet, name)
    assert snowfleet.ERROR_CLASSES[code] is cls
    assert name in snowfleet.__all__
    assert cls.__name__ == name and cls.__module__ == "snowfleet"
    assert cls.code == code and cls.category == category
    assert issubclass(cls, snowfleet.SnowfleetError)
    assert issubclass(cls, EXPECTED_BASE.get(category, RuntimeError))
    for other in {ValueError, OverflowError, RuntimeError} - {EXPECTED_BASE.get(category, RuntimeError)}:
        assert not issubclass(cls, other), f"{name} must not be a {other.__name__}"
    assert cls.__doc__ and summary in cls.__doc__
    exc = cls("boom")
    assert str(exc) == "boom" and exc.code == code
    clone = pickle.loads(pickle.dumps(exc))
    assert type(clone) is cls and str(clone) == "boom"


def test_classes_match_the_stubs() -> None:
    tree = ast.parse(STUB.read_text())
    stub_classes = {node.name for node in tree.body if isinstance(node, ast.ClassDef)}
    assert stub_classes == {"SnowfleetError"} | {name for _, name, _, _ in KINDS}
    stub_all = next(node.value for node in tree.body
                    if isinstance(node, ast.Assign) and node.targets[0].id == "__all__")  # type: ignore[attr-defined]
    assert set(ast.literal_eval(stub_all)) == stub_classes


def test_clock_moved_backwards_carries_drift_ms() -> None:
    clock = ScriptedClock([EPOCH + 1000, (EPOCH + 400, 1, 1)])
    gen = snowfleet.Generator(7, clock=clock)
    gen.next_id()
    with pytest.raises(snowfleet.ClockMovedBackwards) as info:
        gen.next_id()
    exc = info.value
    assert exc.drift_ms == 600 and exc.code == "CLOCK_MOVED_BACKWARDS"
    assert "600" in str(exc) and isinstance(exc, RuntimeError)
    clone = pickle.loads(pickle.dumps(exc))
    assert clone.drift_ms == 600 and str(clone) == str(exc)
    assert snowfleet.ClockMovedBackwards("x").drift_ms == 0


def test_clock_moved_backwards_built_by_hand_keeps_its_fields() -> None:
    exc = snowfleet.ClockMovedBackwards("m", 5)
    assert str(exc) == "m" and exc.args == ("m",) and exc.drift_ms == 5
    assert snowfleet.ClockMovedBackwards("m", drift_ms=7).drift_ms == 7
    assert snowfleet.ClockMovedBackwards().args == ("",)
    clone = pickle.loads(pickle.dumps(exc))
    assert type(clone) is snowfleet.ClockMovedBackwards
    assert str(clone) == "m" and clone.args == ("m",) and clone.drift_ms == 5


def _rewound_generator() -> snowfleet.Generator:
    """A generator whose second next_id() raises ClockMovedBackwards (600 ms behind)."""
    gen = snowfleet.Generator(7, clock=ScriptedClock([EPOCH + 1000, (EPOCH + 400, 1, 1)]))
    gen.next_id()
    return gen


def test_core_raised_clock_moved_backwards_looks_built_by_hand() -> None:
    gen = _rewound_generator()
    with pytest.raises(snowfleet.ClockMovedBackwards) as info:
        gen.next_id()
    exc = info.value
    by_hand = snowfleet.ClockMovedBackwards(str(exc), 600)
    assert exc.args == by_hand.args == (str(exc),)
    assert vars(exc) == vars(by_hand) == {"drift_ms": 600}


def _python_calls_raising(cls: Type[Exception], action: Callable[[], object]) -> List[str]:
    """The Python functions entered while `action` runs and raises `cls`."""
    calls: List[str] = []

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event == "call":
            calls.append(f"{frame.f_code.co_filename}:{frame.f_code.co_name}")

    with pytest.raises(cls):
        sys.setprofile(profile)
        try:
            action()
        finally:
            sys.setprofile(None)
    return calls


def test_raising_a_core_error_runs_no_python_code() -> None:
    # The translator runs under C++ frames, possibly on a daemon thread at interpreter exit:
    # Python code there may give up the GIL, and re-taking it after finalization started ends
    # the thread with pthread_exit, whose unwind crashes the zig-built wheels.
    gen = _rewound_generator()
    assert _python_calls_raising(snowfleet.ClockMovedBackwards, gen.next_id) == []
    closed = snowfleet.Generator(7)
    closed.close()
    assert _python_calls_raising(snowfleet.GeneratorClosed, closed.next_id) == []


def test_a_class_with_its_own_new_is_refused_and_changes_nothing() -> None:
    class Odd(snowfleet.GeneratorClosed):
        def __new__(cls, *args: object) -> "Odd":
            return super().__new__(cls, *args)

    with pytest.raises(TypeError, match="GENERATOR_CLOSED must not override __new__"):
        _snowfleet._register_error_classes(dict(snowfleet.ERROR_CLASSES, GENERATOR_CLOSED=Odd))
    gen = snowfleet.Generator(7)
    gen.close()
    with pytest.raises(snowfleet.GeneratorClosed) as info:
        gen.next_id()
    assert type(info.value) is snowfleet.GeneratorClosed


def test_core_errors_map_to_their_class() -> None:
    with pytest.raises(snowfleet.InvalidArgument) as bad:
        snowfleet.Layout.parse("41.10.11@0")
    assert "63" in str(bad.value) and isinstance(bad.value, ValueError)
    with pytest.raises(snowfleet.TimestampOutOfRange) as early:
        snowfleet.compose(timestamp_ms=EPOCH - 1, node_id=1)
    assert isinstance(early.value, OverflowError) and early.value.code == "TIMESTAMP_OUT_OF_RANGE"


def test_catching_by_builtin_family() -> None:
    with pytest.raises(ValueError):
        snowfleet.Generator(2048)
    with pytest.raises(OverflowError):
        snowfleet.compose(timestamp_ms=1 << 50, node_id=0, layout="41.10.12@0")
    gen = snowfleet.Generator(1, clock=ScriptedClock([EPOCH + 100, EPOCH]))
    gen.next_id()
    with pytest.raises(RuntimeError):
        gen.next_id()


def test_messages_quoting_cut_non_ascii_text_still_raise_the_right_class() -> None:
    # The core quotes at most 80 bytes of a bad layout: the cut may split a UTF-8 sequence.
    with pytest.raises(snowfleet.InvalidArgument) as info:
        snowfleet.Layout.parse("é" * 60)
    assert "é" in str(info.value)
    with pytest.raises(snowfleet.InvalidArgument):
        snowfleet.Generator(node_source="static:" + "ß" * 150)
