"""snowfleet.Generator: the core's thread-safe generator, with Pythonic construction."""

from __future__ import annotations

import array
from types import TracebackType
from typing import NamedTuple, Optional, Type, Union

from . import _snowfleet as _core
from ._convert import as_float, as_int, as_str
from ._errors import InvalidArgument
from ._layout import Layout, layout_arg

#: Largest ``n`` for :meth:`Generator.next_ids`.
MAX_BATCH: int = _core.MAX_BATCH


class Stats(NamedTuple):
    """Counters, monotonically increasing over a generator's life."""

    ids_issued: int
    rewinds_seen: int
    """Wall readings behind the highest reading the generator had seen."""
    waits: int
    """Calls that had to wait (rewind inside the budget, spent millisecond, drift limit)."""
    waited_ns_total: int
    waited_ns_max: int
    refusals: int
    """Calls refused because the clock was unusable."""
    ms_borrowed: int
    """Monotonic mode: ms the logical clock ran past the wall clock on sequence overflow."""
    mark_writes: int
    """Leased node ids: high-water marks persisted (about one a second while minting, plus
    one at close()). 0 without a lease."""
    lease_refusals: int
    """Calls refused with LeaseLost."""


class Status(NamedTuple):
    """Whether the generator can issue ids right now (a service maps not healthy to 503)."""

    healthy: bool
    reason: str
    """Empty when healthy."""
    wall_ms: int
    """The wall reading taken for this status."""
    last_ms: int
    """Unix ms of the last issued id (-1 before the first)."""
    drift_ms: int
    """max(0, last_ms - wall_ms)."""
    node_id: int
    mode: str
    lease_state: str
    """``"none"`` unless the node id is leased (``node_source="local..."`` or ``"etcd://..."``);
    then ``"held"``, ``"unconfirmed"`` (etcd, past the local deadline), ``"lost"`` or
    ``"released"`` (after close())."""
    mark_ms: int
    """The slot's persisted high-water mark, Unix ms: no later holder of the slot issues an id
    at or below it. -1 without a lease."""
    lease_expires_in_ms: int
    """etcd: ms until the local lease deadline (negative once past it). -1 when the lease
    cannot expire while the process lives (``"local"``) or there is no lease."""


class Generator(_core.Generator):
    """A thread-safe Snowflake id generator (the C++ core's ``snowfleet::Generator``).

    ``mode="strict"`` (the seeds' Snowflake) reads the wall clock for every id, waits out a
    rewind of up to ``max_wait_ms`` and refuses a larger one with ClockMovedBackwards;
    ``mode="monotonic"`` never follows the clock down and borrows the next millisecond when
    one is spent, refusing only when it would run more than ``max_drift_ms`` ahead.

    The node id comes from ``node_id`` or from ``node_source`` (``"static:37"``,
    ``"env:VAR"``, ``"k8s[:OFFSET]"``, ``"local[:DIR]"``, ``"etcd://host:port/prefix"``;
    the last two lease the node id, see :meth:`status`). ``clock`` takes a
    :class:`snowfleet.testing.ScriptedClock` for deterministic tests.

    :meth:`next_id` keeps the GIL (releasing it would cost more than the id) except while it
    waits; :meth:`next_ids` releases it for a whole large batch. A generator created before
    ``os.fork()`` raises ForkDetected in the child instead of minting the parent's ids.
    Generators of one process with the same (unleased) node id, the same layout and the system
    clock share one state word, so they never mint the same id, whatever thread uses them.

    >>> with Generator(37) as gen:
    ...     decode(gen.next_id()).node_id
    37
    """

    __slots__ = ()

    def __init__(
        self,
        node_id: Optional[int] = None,
        *,
        layout: Union[Layout, str, None] = None,
        mode: str = "strict",
        max_wait_ms: float = 5.0,
        max_drift_ms: int = 1000,
        clock: Optional[_core.ScriptedClock] = None,
        node_source: Optional[str] = None,
    ) -> None:
        lay = layout_arg(layout)
        if node_source is None:
            if node_id is None:
                raise TypeError("Generator() needs node_id (or node_source=...)")
            node, source = as_int(node_id, "node_id"), ""
        else:
            if node_id is not None:
                raise TypeError("Generator() takes node_id or node_source, not both")
            node, source = -1, as_str(node_source, "node_source")
            if not source:
                raise InvalidArgument("node_source must not be empty")
        if clock is not None and not isinstance(clock, _core.ScriptedClock):
            raise TypeError(
                f"clock must be a snowfleet.testing.ScriptedClock or None, got {type(clock).__name__}"
            )
        if clock is not None and not getattr(clock, "_ready", True):
            raise TypeError("clock is a ScriptedClock whose construction failed")
        super().__init__(
            lay._native,
            node,
            source,
            as_str(mode, "mode"),
            as_float(max_wait_ms, "max_wait_ms"),
            as_int(max_drift_ms, "max_drift_ms"),
            clock,
        )

    # next_id() is the native method itself (see bindings/python/_snowfleet.cc).

    def next_ids(self, n: int) -> "array.array[int]":
        """``n`` ascending ids as an ``array.array('q')`` (a buffer of int64: zero-copy into
        ``numpy.frombuffer(ids, dtype=numpy.int64)`` or ``memoryview``). Each run of ids
        inside one millisecond costs one clock read and one state update; the GIL is released
        for a large batch. If a wait fails part-way, the ids already reserved are skipped
        (never issued to anyone) and the error is raised."""
        return self._next_ids(as_int(n, "n"))

    def stats(self) -> Stats:
        """The generator's counters (exact once no call is in flight)."""
        return Stats(*self._stats())

    def status(self) -> Status:
        """Reads the clock once and reports whether a call now would be served."""
        return Status(*self._status())

    @property
    def layout(self) -> Layout:
        """The layout of every id this generator mints."""
        return Layout._wrap(self._layout)

    def __enter__(self) -> "Generator":
        return self

    def __exit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        tb: Optional[TracebackType],
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        state = ", closed" if self.closed else ""
        return (
            f"Generator(node_id={self.node_id}, layout={str(self.layout)!r}, "
            f"mode={self.mode!r}{state})"
        )
