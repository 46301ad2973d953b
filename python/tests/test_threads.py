"""Threads: one generator shared by many threads never repeats an id, and the GIL is released
wherever a call may wait (so a waiting generator does not freeze other Python threads)."""

from __future__ import annotations

import threading
import time
from typing import List

import pytest

import snowfleet
from snowfleet import Generator, _snowfleet
from snowfleet.testing import ScriptedClock

from conftest import EPOCH


def _mint_in_threads(gen: Generator, threads: int, per_thread: int) -> List[int]:
    out: List[List[int]] = [[] for _ in range(threads)]
    start = threading.Barrier(threads)

    def work(i: int) -> None:
        start.wait()
        mine = out[i]
        k = 0
        while len(mine) < per_thread:
            # No refusal is tolerated: the core's wait budget bounds waiting for a clock
            # that does not advance, not for the threads that took each new millisecond.
            if k % 2:
                mine.extend(gen.next_ids(100))
            else:
                for _ in range(100):
                    mine.append(gen.next_id())
            k += 1

    ts = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    for mine in out:  # each thread sees its own ids ascending
        assert all(a < b for a, b in zip(mine, mine[1:]))
    return [i for mine in out for i in mine]


def test_shared_strict_generator_never_repeats() -> None:
    gen = Generator(3)
    ids = _mint_in_threads(gen, threads=4, per_thread=20_000)
    assert len(ids) == len(set(ids)) >= 80_000
    assert gen.stats().ids_issued == len(ids)
    assert gen.stats().refusals == 0


def test_shared_monotonic_generator_never_repeats() -> None:
    gen = Generator(3, mode="monotonic")
    ids = _mint_in_threads(gen, threads=4, per_thread=20_000)
    assert len(ids) == len(set(ids)) >= 80_000
    assert gen.stats().ids_issued == len(ids)
    assert gen.stats().refusals == 0


def test_shared_scripted_generator_never_repeats() -> None:
    gen = Generator(3, mode="monotonic", clock=ScriptedClock([(EPOCH, 1, 1, 500)]))
    ids = _mint_in_threads(gen, threads=3, per_thread=10_000)
    assert len(ids) == len(set(ids)) >= 30_000
    assert gen.stats().ids_issued == len(ids)
    assert gen.stats().refusals == 0


def test_waits_release_the_gil_through_the_core_hooks() -> None:
    # A frozen clock: 4,096 ids, then call 4,097 waits (virtually) until its budget ends.
    clock = ScriptedClock(EPOCH + 5)
    gen = Generator(1, clock=clock)
    for _ in range(4096):
        gen.next_id()
    assert clock.sleep_count == 0
    before = _snowfleet._gil_releases()
    try:
        gen.next_id()
    except snowfleet.ClockMovedBackwards:
        pass
    assert clock.sleep_count > 0
    assert _snowfleet._gil_releases() - before == clock.sleep_count


def test_real_clock_waits_release_the_gil() -> None:
    # Strict mode at full speed spends part of every millisecond waiting for the next one.
    gen = Generator(1)
    before = _snowfleet._gil_releases()
    for _ in range(1000):  # a slow or preempted caller may not fill a millisecond at once
        for _ in range(10_000):
            gen.next_id()
        if gen.stats().waits:
            break
    assert gen.stats().waits > 0
    assert _snowfleet._gil_releases() - before >= gen.stats().waits


def test_a_long_batch_does_not_freeze_other_threads() -> None:
    # max_drift_ms=0: the batch must wait for the wall clock after every 4,096 ids, so
    # 409,600 ids take ~100 ms of real time. Another thread must run meanwhile.
    gen = Generator(1, mode="monotonic", max_drift_ms=0, max_wait_ms=1000)
    ticks: List[float] = []
    stop = threading.Event()

    def ticker() -> None:
        while not stop.is_set():
            ticks.append(time.perf_counter())

    t = threading.Thread(target=ticker)
    t.start()
    try:
        while not ticks:
            time.sleep(0.001)
        started = time.perf_counter()
        ids = gen.next_ids(4096 * 100)
        ended = time.perf_counter()
    finally:
        stop.set()
        t.join()
    assert len(ids) == 409_600 and gen.stats().waits > 0
    assert ended - started > 0.05
    during = [x for x in ticks if started + 0.005 < x < ended - 0.005]
    # With the GIL held for the whole call this would be 0.
    assert len(during) > 100, (len(during), ended - started)


def test_two_generators_of_one_node_id_in_two_threads_never_repeat() -> None:
    # Same node id, same layout, system clock: the core gives both one state word, so two
    # threads that each made their own generator cannot mint the same id.
    a, b = Generator(21), Generator(21)
    x, y, z = a.next_id(), b.next_id(), a.next_id()
    assert x < y < z  # one ascending sequence (separate words would restart b's sequence)
    out: List[List[int]] = [[], []]
    start = threading.Barrier(2)

    def work(gen: Generator, mine: List[int]) -> None:
        start.wait()
        for k in range(200):
            if k % 2:
                mine.extend(gen.next_ids(1000))  # GIL released: truly concurrent
            else:
                mine.extend(gen.next_id() for _ in range(100))

    ts = [threading.Thread(target=work, args=(g, mine)) for g, mine in zip((a, b), out)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    ids = out[0] + out[1]
    assert len(ids) == len(set(ids)) == 2 * 100 * 1100
    assert a.stats().ids_issued == len(out[0]) + 2 and b.stats().ids_issued == len(out[1]) + 1
    a.close()  # closing one leaves its sibling minting after everything issued
    assert b.next_id() > max(ids)


def test_a_strict_generator_waits_for_its_monotonic_sibling() -> None:
    # 16 ids per ms: a monotonic burst of 80,000 ids runs ~5 s ahead of the wall clock, and
    # a strict generator of the same node id (sharing the word) must not mint below it.
    layout = "41.18.4@1704067200000"
    mono = Generator(22, layout=layout, mode="monotonic", max_drift_ms=60_000)
    strict = Generator(22, layout=layout, max_wait_ms=5)
    last = mono.next_ids(80_000)[-1]
    assert mono.drift_ms > 1000
    assert not strict.status().healthy
    with pytest.raises(snowfleet.ClockMovedBackwards) as info:
        strict.next_id()
    assert info.value.drift_ms > 1000
    assert mono.next_id() > last  # the monotonic sibling carries on
