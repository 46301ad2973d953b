"""Test helpers: the core's scripted clock, so your code can be tested against clock rewinds,
freezes and retreats too.

>>> from snowfleet import Generator, decode
>>> from snowfleet.testing import ScriptedClock
>>> clock = ScriptedClock([{"ms": 1737747358021}])          # frozen
>>> Generator(37, clock=clock).next_id()
141264821508263936
"""

from __future__ import annotations

from typing import Iterable, List, Mapping, Tuple, Union

from . import _snowfleet as _core
from ._convert import as_bool, as_int
from ._errors import InvalidArgument

__all__ = ["ScriptedClock", "ScriptedRandom", "SegmentSpec"]

#: One segment: a Unix ms (a frozen reading), a tuple ``(ms, count=1, step_ms=0, every=1)``
#: or a mapping with those keys (the conformance vectors' ``clock`` format, with int values).
SegmentSpec = Union[int, Tuple[int, ...], Mapping[str, int]]


def _segment(ms: int, count: int = 1, step_ms: int = 0, every: int = 1) -> Tuple[int, int, int, int]:
    return (
        as_int(ms, "ms"),
        as_int(count, "count"),
        as_int(step_ms, "step_ms"),
        as_int(every, "every"),
    )


def _script(segments: Union[int, Iterable[SegmentSpec]]) -> List[Tuple[int, int, int, int]]:
    if isinstance(segments, int) and not isinstance(segments, bool):
        return [_segment(segments)]
    if isinstance(segments, (str, bytes)) or not isinstance(segments, Iterable):
        raise TypeError(
            f"segments must be an int or an iterable of segments, got {type(segments).__name__}"
        )
    out: List[Tuple[int, int, int, int]] = []
    for seg in segments:
        if isinstance(seg, Mapping):
            out.append(_segment(**seg))
        elif isinstance(seg, tuple):
            out.append(_segment(*seg))
        else:
            out.append(_segment(seg))
    return out


class ScriptedClock(_core.ScriptedClock):
    """A clock for tests: wall readings come from a script; monotonic time is virtual and
    advances only when something sleeps on it (so waits take no real time). Thread-safe.

    The script is a list of segments. Segment ``{ms, count, step_ms, every}`` yields
    ``count`` readings ``ms + step_ms * (i // every)`` for ``i`` in ``0 .. count-1``; after the
    last segment the clock keeps extending the last segment's pattern, so

    * ``ScriptedClock(t)`` or ``[t]`` is frozen at ``t``,
    * ``[a, (b, 1, 1)]`` reads a, b, b+1, b+2, ...,
    * ``[(t, 1, -4)]`` retreats 4 ms per read,
    * ``[{"ms": t, "step_ms": 1, "every": 2}]`` advances 1 ms every 2 reads.

    ``ticking=True`` (or setting ``clock.ticking``) lets the time a generator sleeps on the
    clock pass on its wall readings, so a test of a wait sees it end as on a real clock.

    Pass it as ``Generator(..., clock=clock)``. The counters ``reads``, ``sleep_count``,
    ``slept_ns``, ``max_sleep_ns`` and ``min_sleep_ns`` show what the generator did.
    """

    # _ready: set once the native clock exists. A script the core refuses leaves the Python
    # object behind a half-built native one, reachable from the traceback (pytest shows
    # `self` with repr()): repr() and Generator must not touch it.
    __slots__ = ("_ready",)

    def __init__(
        self, segments: Union[int, Iterable[SegmentSpec]] = 0, *, ticking: bool = False
    ) -> None:
        on = as_bool(ticking, "ticking")
        self._ready = False
        super().__init__(_script(segments))
        self._ready = True
        if on:
            self.set_ticking(True)

    @property
    def ticking(self) -> bool:
        """While True, time slept on the clock passes on the wall too: every reading is the
        script's plus what was slept since ticking was turned on (or the script last set),
        so a generator that waits sees the clock move as it would on a real one. Off by
        default (a frozen script stays frozen while a generator waits). Settable."""
        return super().ticking

    @ticking.setter
    def ticking(self, on: bool) -> None:
        self.set_ticking(as_bool(on, "ticking"))

    def set_ticking(self, on: bool) -> None:
        """Sets :attr:`ticking` (the core's name for it)."""
        super().set_ticking(as_bool(on, "on"))

    def set_script(self, segments: Union[int, Iterable[SegmentSpec]]) -> None:
        """Replaces the remaining script (readings restart at its first segment)."""
        super().set_script(_script(segments))

    def append(self, ms: int, count: int = 1, step_ms: int = 0, every: int = 1) -> None:
        """Appends one segment to the script."""
        super().append(*_segment(ms, count, step_ms, every))

    def set_wall_ms(self, ms: int) -> None:
        """Freezes the wall clock at ``ms`` (replaces the script)."""
        super().set_wall_ms(as_int(ms, "ms"))

    def advance_wall_ms(self, delta_ms: int) -> None:
        """Moves the wall clock by ``delta_ms`` (may be negative: a rewind) from the reading
        it would return next, and freezes it there."""
        super().advance_wall_ms(as_int(delta_ms, "delta_ms"))

    def sleep_ns(self, ns: int) -> None:
        """Advances virtual monotonic time by ``ns`` (no real sleep)."""
        super().sleep_ns(as_int(ns, "ns"))

    def __repr__(self) -> str:
        if not getattr(self, "_ready", False):
            return "ScriptedClock(<construction failed>)"
        return f"ScriptedClock(next wall ms {self.peek_wall_ms()}, reads={self.reads})"


class ScriptedRandom(_core.ScriptedRandom):
    """A random source for tests of :class:`snowfleet.Uuid7Generator`: the splitmix64
    sequence from ``seed`` (0 .. 2**64 - 1), so with a ScriptedClock every UUID is known in
    advance (conformance/vectors/uuid7.json). Not random: never use it outside tests."""

    __slots__ = ()

    def __init__(self, seed: int = 0) -> None:
        value = as_int(seed, "seed")
        if not 0 <= value < 1 << 64:
            raise InvalidArgument(f"seed must be in [0, 2**64 - 1], got {value}")
        super().__init__(value)

