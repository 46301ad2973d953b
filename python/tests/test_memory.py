"""Memory stays flat over many generator lifetimes: nothing a generator allocates (the core
object, its state word, a scripted clock, the Python wrapper) outlives it.

Each pattern runs 1,000 lifetimes as a warm-up (allocator pools, caches, the shared state
registry), then 10,000 more; the growth across those 10,000 must stay under a generous bound.
Two figures: the C heap in use (glibc mallinfo2: exact, so the bound is tight) and the
resident set (/proc/self/statm: coarse, so the bound is a few MB). Run with -s to see them."""

from __future__ import annotations

import ctypes
import gc
import os
import threading
from typing import Callable, Dict, Optional

import pytest

from snowfleet import Generator
from snowfleet.testing import ScriptedClock

from conftest import EPOCH

pytestmark = pytest.mark.skipif(
    not os.path.exists("/proc/self/statm"), reason="reads the RSS from /proc/self/statm"
)

WARM_UP = 1_000
LIFETIMES = 10_000
MAX_RSS_GROWTH = 4 << 20  # bytes over LIFETIMES
MAX_HEAP_GROWTH = 512 << 10  # about 50 bytes a lifetime


class _MallInfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost".split()
        )
    ]


def _mallinfo2() -> Optional[Callable[[], _MallInfo2]]:
    """glibc >= 2.33's mallinfo2, or None (another libc)."""
    try:
        fn = ctypes.CDLL(None).mallinfo2
    except (OSError, AttributeError):
        return None
    fn.restype = _MallInfo2
    return fn  # type: ignore[no-any-return]


MALLINFO2 = _mallinfo2()


def _rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _heap() -> int:
    """Bytes of C heap in use (small chunks plus mmapped ones); 0 without mallinfo2."""
    if MALLINFO2 is None:
        return 0
    info = MALLINFO2()
    return int(info.uordblks + info.hblkhd)


def _create_use_close(n: int) -> None:
    for i in range(n):
        gen = Generator(i % 8)
        gen.next_id()
        gen.next_ids(10)
        gen.close()


def _with_block(n: int) -> None:
    for _ in range(n):
        # 600 ids: a batch large enough to run without the GIL.
        with Generator(7, mode="monotonic") as gen:
            gen.next_ids(600)


def _scripted_clock(n: int) -> None:
    for i in range(n):
        with Generator(5, clock=ScriptedClock(EPOCH + 86_400_000 + i)) as gen:
            gen.next_ids(3)


def _four_threads(n: int) -> None:
    def live(count: int, node: int) -> None:
        for _ in range(count):
            with Generator(node) as gen:
                gen.next_id()
                gen.next_ids(600)

    threads = [threading.Thread(target=live, args=(n // 4, k)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


PATTERNS: Dict[str, Callable[[int], None]] = {
    "create_use_close": _create_use_close,
    "with_block": _with_block,
    "scripted_clock": _scripted_clock,
    "four_threads": _four_threads,
}


@pytest.mark.parametrize("pattern", sorted(PATTERNS))
def test_memory_is_flat_over_generator_lifetimes(pattern: str) -> None:
    run = PATTERNS[pattern]
    run(WARM_UP)
    gc.collect()
    rss_before, heap_before = _rss(), _heap()
    run(LIFETIMES)
    gc.collect()
    rss_growth, heap_growth = _rss() - rss_before, _heap() - heap_before
    heap_text = f"{heap_growth:+d} B" if MALLINFO2 is not None else "n/a (no mallinfo2)"
    print(f"\n{pattern}: {LIFETIMES} lifetimes: RSS {rss_growth / 1024:+.0f} KiB, heap {heap_text}")
    assert rss_growth < MAX_RSS_GROWTH
    assert heap_growth < MAX_HEAP_GROWTH
