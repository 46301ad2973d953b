"""The exception table: one class per core error kind, checked against the core's own list
(_snowfleet.error_kinds()) and against the static stubs, so none of them can drift."""

from __future__ import annotations

import ast
import pickle
from pathlib import Path

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
