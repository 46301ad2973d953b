"""The reference's section 11 "Working Python" assertions, run against snowfleet (the behaviour
spec): bit layout, monotonicity, the printed literal, both halves of the rewind threshold,
the per-call deadline, exhaustion that sleeps instead of spinning, the frozen clock, and the
monotonic generator's immunity. The scripted clock replaces the reference's clock lambdas."""

from __future__ import annotations

import time

import pytest

from snowfleet import ClockMovedBackwards, Generator, Layout, decode
from snowfleet.testing import ScriptedClock

from conftest import EPOCH

MAX_NODE, MAX_SEQUENCE = 1023, 4095


def test_bit_layout() -> None:
    layout = Layout.DEFAULT
    assert layout.max_node_id == MAX_NODE and layout.max_sequence == MAX_SEQUENCE
    assert layout.max_elapsed_ms == 2_199_023_255_551
    assert layout.timestamp_shift == 22 and layout.node_shift == 12
    one = Generator(1023, clock=ScriptedClock(EPOCH + 1)).next_id()
    assert 0 < one < (1 << 63)
    assert decode(one).node_id == 1023 and decode(one).timestamp_ms == EPOCH + 1


def test_monotonic_inside_one_millisecond() -> None:
    gen = Generator(7, clock=ScriptedClock([EPOCH] * 5))
    ids = [gen.next_id() for _ in range(5)]
    assert ids == sorted(ids) and len(set(ids)) == 5
    assert [decode(i).sequence for i in ids] == [0, 1, 2, 3, 4]


def test_monotonic_across_milliseconds() -> None:
    gen = Generator(7, clock=ScriptedClock([EPOCH, EPOCH, (EPOCH + 1, 1, 1)]))
    ids = [gen.next_id() for _ in range(3)]
    assert ids == sorted(ids) and len(set(ids)) == 3


def test_the_literal_printed_in_section_4() -> None:
    first = Generator(37, clock=ScriptedClock(1_737_747_358_021)).next_id()
    assert first == 141264821508263936
    assert decode(first)[:2] == (1_737_747_358_021, 37) and decode(first).sequence == 0
    d = decode(141264821510144037)
    assert (d.timestamp_ms, d.node_id, d.sequence) == (1_737_747_358_021, 496, 37)


def test_a_large_rewind_is_refused() -> None:
    gen = Generator(7, max_wait_ms=5.0, clock=ScriptedClock([EPOCH + 1000, (EPOCH + 400, 1, 1)]))
    gen.next_id()
    with pytest.raises(ClockMovedBackwards):
        gen.next_id()


def test_a_small_rewind_is_waited_out() -> None:
    clock = ScriptedClock([EPOCH + 1000, EPOCH + 998, (EPOCH + 1000, 1, 1)])
    gen = Generator(7, max_wait_ms=5.0, clock=clock)
    one, two = gen.next_id(), gen.next_id()
    assert two > one
    assert decode(two).timestamp_ms == EPOCH + 1000 and decode(two).sequence == 1
    assert clock.sleep_count >= 1


def test_max_wait_ms_bounds_the_call() -> None:
    clock = ScriptedClock([(EPOCH + 1_000_000, 1, -4)])  # retreats 4 ms per read
    gen = Generator(7, max_wait_ms=5.0, clock=clock)
    gen.next_id()
    started = time.monotonic()
    with pytest.raises(ClockMovedBackwards):
        gen.next_id()
    assert (time.monotonic() - started) * 1000 < 50
    assert clock.slept_ns <= 5_000_000  # virtual time: the budget, not a sample of the drift


def test_exhaustion_sleeps_instead_of_spinning() -> None:
    clock = ScriptedClock([(EPOCH + 9, 4097), (EPOCH + 10, 4)])
    gen = Generator(7, clock=clock)
    ids = [gen.next_id() for _ in range(4096)]
    assert decode(ids[-1]).sequence == MAX_SEQUENCE
    rolled = gen.next_id()
    assert decode(rolled).timestamp_ms == EPOCH + 10 and decode(rolled).sequence == 0
    assert clock.sleep_count > 0, "the exhaustion path must sleep, not busy-spin"
    assert 0 < clock.min_sleep_ns and clock.max_sleep_ns <= 1_000_000


def test_a_frozen_clock_refuses_call_4097() -> None:
    gen = Generator(1, clock=ScriptedClock(EPOCH + 5))
    frozen = [gen.next_id() for _ in range(MAX_SEQUENCE + 1)]
    assert len(set(frozen)) == 4096 and frozen == sorted(frozen)
    started = time.monotonic()
    with pytest.raises(ClockMovedBackwards):
        gen.next_id()
    assert (time.monotonic() - started) * 1000 < 100


def test_monotonic_is_immune_to_a_frozen_clock() -> None:
    gen = Generator(1, mode="monotonic", clock=ScriptedClock(EPOCH + 5))
    immune = [gen.next_id() for _ in range(50_000)]
    assert len(set(immune)) == 50_000 and immune == sorted(immune)


def test_monotonic_resets_the_sequence_every_millisecond() -> None:
    gen = Generator(9, mode="monotonic", clock=ScriptedClock([(EPOCH, 1, 1, 2)]))
    assert max(decode(gen.next_id()).sequence for _ in range(9000)) == 1


def test_monotonic_borrows_and_runs_ahead() -> None:
    gen = Generator(9, mode="monotonic", clock=ScriptedClock(EPOCH + 77))
    ids = [gen.next_id() for _ in range(10_000)]
    assert len(set(ids)) == 10_000 and ids == sorted(ids)
    assert decode(ids[0]).timestamp_ms == EPOCH + 77
    assert gen.stats().ms_borrowed == 2
