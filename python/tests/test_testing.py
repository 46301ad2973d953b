"""snowfleet.testing.ScriptedClock: the script format and the counters."""

from __future__ import annotations

import pytest

from snowfleet import ClockMovedBackwards, Generator, InvalidArgument, decode
from snowfleet.testing import ScriptedClock

from conftest import EPOCH


def _reads(clock: ScriptedClock, n: int) -> list:  # type: ignore[type-arg]
    return [clock.wall_ns() // 1_000_000 for _ in range(n)]


def test_segment_spellings() -> None:
    assert _reads(ScriptedClock(5), 3) == [5, 5, 5]
    assert _reads(ScriptedClock([5, (10, 1, 1)]), 4) == [5, 10, 11, 12]
    assert _reads(ScriptedClock([{"ms": 100, "step_ms": -4}]), 3) == [100, 96, 92]
    assert _reads(ScriptedClock([{"ms": 0, "step_ms": 1, "every": 2}]), 5) == [0, 0, 1, 1, 2]
    assert _reads(ScriptedClock([(7, 2), 9]), 4) == [7, 7, 9, 9]


@pytest.mark.parametrize("bad, exc", [
    ([], InvalidArgument), ([(5, 0)], InvalidArgument), ([(5, 1, 0, 0)], InvalidArgument),
    ([{"ms": 5, "speed": 1}], TypeError), ([{"count": 1}], TypeError), (["5"], TypeError),
    ([5.0], TypeError), (True, TypeError), ("5", TypeError), ([(1, 2, 3, 4, 5)], TypeError),
])
def test_bad_scripts(bad: object, exc: type) -> None:
    with pytest.raises(exc):
        ScriptedClock(bad)  # type: ignore[arg-type]


def test_counters_and_control() -> None:
    clock = ScriptedClock(EPOCH)
    assert (clock.reads, clock.sleep_count, clock.slept_ns, clock.max_sleep_ns, clock.min_sleep_ns) == (0, 0, 0, 0, 0)
    assert clock.peek_wall_ms() == EPOCH and clock.reads == 0
    clock.wall_ns()
    assert clock.reads == 1
    clock.sleep_ns(300)
    clock.sleep_ns(100)
    assert (clock.sleep_count, clock.slept_ns, clock.max_sleep_ns, clock.min_sleep_ns) == (2, 400, 300, 100)
    assert clock.monotonic_ns() == 400
    clock.set_wall_ms(EPOCH + 50)
    assert clock.peek_wall_ms() == EPOCH + 50
    clock.advance_wall_ms(-20)
    assert _reads(clock, 2) == [EPOCH + 30, EPOCH + 30]
    clock.set_script([(1, 1), (2, 1, 1)])
    clock.append(100)
    assert _reads(clock, 4) == [1, 2, 100, 100]
    with pytest.raises(TypeError):
        clock.set_wall_ms(1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        clock.advance_wall_ms(True)
    assert "ScriptedClock" in repr(clock)


def test_drives_a_generator_through_a_rewind() -> None:
    clock = ScriptedClock(EPOCH + 1000)
    gen = Generator(4, clock=clock)
    first = gen.next_id()
    clock.advance_wall_ms(-3)  # inside the 5 ms budget: waited out on virtual time
    clock.append(EPOCH + 1000, 1, 1)
    second = gen.next_id()
    assert second > first and decode(second).timestamp_ms == EPOCH + 1000
    assert gen.stats().waits == 1 and clock.slept_ns > 0


def test_one_clock_can_drive_two_generators() -> None:
    clock = ScriptedClock([(EPOCH, 1, 1)])
    a, b = Generator(1, clock=clock), Generator(2, clock=clock)
    assert decode(a.next_id()).timestamp_ms == EPOCH
    assert decode(b.next_id()).timestamp_ms == EPOCH + 1


def test_a_clock_whose_construction_failed_is_safe_to_show() -> None:
    # pytest shows `self` of the failed __init__'s frame with repr(): that used to reach a
    # native clock that was never constructed and block on its mutex for ever.
    with pytest.raises(InvalidArgument, match="9300000000000") as info:
        ScriptedClock(9_300_000_000_000)
    tb = info.tb
    while tb.tb_next is not None and "self" not in tb.tb_frame.f_locals:
        tb = tb.tb_next
    half_built = tb.tb_frame.f_locals.get("self")
    assert half_built is not None, "the failed __init__'s frame holds the object"
    assert repr(half_built) == "ScriptedClock(<construction failed>)"
    with pytest.raises(TypeError, match="construction failed"):
        Generator(1, clock=half_built)


ONE_BIT = "41.21.1@1704067200000"  # 2 ids per ms: the 3rd id of a ms must wait for the next


def test_a_frozen_clock_does_not_move_while_a_generator_waits() -> None:
    clock = ScriptedClock(EPOCH + 1000)
    assert clock.ticking is False
    gen = Generator(1, layout=ONE_BIT, clock=clock)
    gen.next_id(), gen.next_id()
    with pytest.raises(ClockMovedBackwards):
        gen.next_id()  # slept its whole budget on virtual time; the wall never moved
    assert clock.slept_ns >= 5_000_000 and gen.stats().ids_issued == 2


@pytest.mark.parametrize("turn_on", ["kwarg", "property", "method"])
def test_a_ticking_clock_moves_while_a_generator_waits(turn_on: str) -> None:
    clock = ScriptedClock(EPOCH + 1000, ticking=turn_on == "kwarg")
    if turn_on == "property":
        clock.ticking = True
    elif turn_on == "method":
        clock.set_ticking(True)
    assert clock.ticking is True
    gen = Generator(1, layout=ONE_BIT, clock=clock)
    gen.next_id(), gen.next_id()
    third = gen.next_id()  # served: the time it slept passed on the wall
    assert decode(third, layout=ONE_BIT).timestamp_ms == EPOCH + 1001
    assert 0 < clock.slept_ns <= 1_000_000 and gen.stats().waits == 1
    clock.ticking = False
    assert clock.ticking is False


@pytest.mark.parametrize("bad", [1, 0, "yes", None])
def test_ticking_takes_a_bool(bad: object) -> None:
    with pytest.raises(TypeError, match="ticking"):
        ScriptedClock(EPOCH, ticking=bad)  # type: ignore[arg-type]
    clock = ScriptedClock(EPOCH)
    with pytest.raises(TypeError, match="ticking"):
        clock.ticking = bad  # type: ignore[assignment]
    with pytest.raises(TypeError):
        clock.set_ticking(bad)  # type: ignore[arg-type]
    assert clock.ticking is False
