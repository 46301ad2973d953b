"""Threads: one generator shared by many threads never repeats an id, and the GIL is released
wherever a call may wait (so a waiting generator does not freeze other Python threads)."""

from __future__ import annotations

import sys
import threading
import time
from typing import Callable, List

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


def _other_thread_ran_during(calls: Callable[[], bool]) -> bool:
    """Whether another Python thread ran while `calls` ran on this one. The switch interval
    is set to 100 s, so the interpreter never takes the GIL from this thread while it runs:
    the other thread (woken before `calls` starts, then waiting for the GIL) can run only if
    a call releases the GIL. `calls` returns True to stop early (it is called until then or
    until it has run 1,000 times)."""
    ran: List[bool] = []
    go = threading.Lock()
    go.acquire()

    def other() -> None:
        with go:  # blocks without the GIL until released below
            ran.append(True)

    old = sys.getswitchinterval()
    sys.setswitchinterval(100.0)
    thread = threading.Thread(target=other, daemon=True)
    try:
        thread.start()  # it blocks on `go`, releasing the GIL, before start() returns here
        go.release()  # now it wants the GIL, which this thread keeps unless a call releases it
        for _ in range(1000):
            if calls() or ran:
                break
        return bool(ran)
    finally:
        sys.setswitchinterval(old)
        thread.join()


def test_waits_release_the_gil_through_the_core_hooks() -> None:
    # Two ids per ms: every third call of a millisecond waits (really) for the next one, and
    # the core calls the binding's wait hooks around that sleep. (A scripted clock's sleeps
    # take no time, so this thread would take the GIL back before the other one could run:
    # the hooks are the same for every clock, so the system clock proves them.)
    gen = Generator(1, layout="41.21.1@1704067200000")
    assert _other_thread_ran_during(lambda: bool(gen.next_id() and False))
    assert gen.stats().waits > 0


def test_the_shipped_module_has_no_test_hooks() -> None:
    # Benchmark reference rows live in the test-only module _snowfleet_testing (built only
    # with -DSNOWFLEET_PYTHON_TEST_HOOKS=ON); the GIL tests above need no hook at all.
    for name in ("_noop", "_next_id_pybind11", "_gil_releases"):
        assert not hasattr(_snowfleet, name), name
        assert not hasattr(_snowfleet.Generator, name), name


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
