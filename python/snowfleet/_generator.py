"""snowfleet.Generator: the core's thread-safe generator, with Pythonic construction."""

from __future__ import annotations

import array
import inspect
from types import TracebackType
from typing import List, NamedTuple, Optional, Tuple, Type, Union

from . import _snowfleet as _core
from ._convert import as_float, as_int, as_str
from ._layout import Layout, layout_arg

#: Largest ``n`` for :meth:`Generator.next_ids`.
MAX_BATCH: int = _core.MAX_BATCH


class Stats(NamedTuple):
    """Counters, monotonically increasing over a generator's life. The fields are the core's
    (``_snowfleet.stats_fields()``, checked at import); each one's doc is the core's."""

    ids_issued: int
    rewinds_seen: int
    waits: int
    waited_ns_total: int
    waited_ns_max: int
    refusals: int
    ms_borrowed: int
    mark_writes: int
    lease_refusals: int
    mark_write_failures: int
    lease_renewal_failures: int


class Status(NamedTuple):
    """Whether the generator can issue ids right now (a service maps not healthy to 503). The
    fields are the core's (``_snowfleet.status_fields()``, checked at import); each one's doc
    is the core's."""

    healthy: bool
    reason: str
    wall_ms: int
    last_ms: int
    drift_ms: int
    node_id: int
    mode: str
    lease_state: str
    mark_ms: int
    lease_expires_in_ms: int
    mark_headroom_ms: int


def _adopt_core_fields(record: type, fields: List[Tuple[str, str]]) -> None:
    """Checks that ``record`` declares the core's fields in the core's order (the
    declarations above exist for type checkers; the core's lists are the definition) and
    gives each field the core's doc."""
    declared = tuple(record._fields)  # type: ignore[attr-defined]
    core = tuple(name for name, _ in fields)
    if declared != core:
        raise ImportError(
            f"snowfleet.{record.__name__} declares {declared}, the core's fields are {core}"
        )
    for name, doc in fields:
        getattr(record, name).__doc__ = doc


_adopt_core_fields(Stats, _core.stats_fields())
_adopt_core_fields(Status, _core.status_fields())


class Generator(_core.Generator):
    """A thread-safe Snowflake id generator (the C++ core's ``snowfleet::Generator``).

    ``mode="strict"`` (the classic Snowflake) reads the wall clock for every id, waits out a
    rewind of up to ``max_wait_ms`` and refuses a larger one with ClockMovedBackwards;
    ``mode="monotonic"`` never follows the clock down and borrows the next millisecond when
    one is spent, refusing only when it would run more than ``max_drift_ms`` ahead.

    The node comes from exactly one of ``node_id``, ``datacenter_id`` + ``machine_id`` (the
    two halves of a split layout's node, e.g. ``layout="twitter"``) or ``node_source``
    (``"static:37"``, ``"env:VAR"``, ``"k8s[:OFFSET]"``, ``"local[:DIR][?share=NAME]"``,
    ``"etcd://host:port/prefix"``, ``"postgres://..."``, ``"k8s-lease://PREFIX"``; the last
    four lease the node id, see :meth:`status`; ``share=NAME`` gives every process of the
    host naming the share one node id).
    Arguments left out (None) take the core's defaults: the default layout, ``"strict"``,
    ``max_wait_ms=5``, ``max_drift_ms=1000``. The core checks every rule (one node form,
    ranges, mode names) and raises InvalidArgument naming the argument and the value; a value
    of the wrong type is a TypeError. ``clock`` takes a
    :class:`snowfleet.testing.ScriptedClock` for deterministic tests.

    :meth:`next_id` keeps the GIL (releasing it would cost more than the id) except while it
    waits; :meth:`next_ids` releases it for a whole large batch. A generator created before
    ``os.fork()`` claims a slot of its own in the child if its node source leases
    (``local``, ``etcd``: pre-fork servers just work), and otherwise raises ForkDetected in the
    child instead of minting the parent's ids.
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
        datacenter_id: Optional[int] = None,
        machine_id: Optional[int] = None,
        node_source: Optional[str] = None,
        mode: Optional[str] = None,
        max_wait_ms: Optional[float] = None,
        max_drift_ms: Optional[int] = None,
        clock: Optional[_core.ScriptedClock] = None,
    ) -> None:
        # Only host type conversion here: None means "not given", and the core decides
        # which combinations are valid and what the defaults are.
        if clock is not None and not isinstance(clock, _core.ScriptedClock):
            raise TypeError(
                f"clock must be a snowfleet.testing.ScriptedClock or None, got {type(clock).__name__}"
            )
        if clock is not None and not getattr(clock, "_ready", True):
            raise TypeError("clock is a ScriptedClock whose construction failed")
        # By name: the native constructor's parameters are SNOWFLEET_GENERATOR_ARGS's names.
        super().__init__(
            layout=None if layout is None else layout_arg(layout)._native,
            node_id=None if node_id is None else as_int(node_id, "node_id"),
            datacenter_id=(
                None if datacenter_id is None else as_int(datacenter_id, "datacenter_id")
            ),
            machine_id=None if machine_id is None else as_int(machine_id, "machine_id"),
            node_source=None if node_source is None else as_str(node_source, "node_source"),
            mode=None if mode is None else as_str(mode, "mode"),
            max_wait_ms=None if max_wait_ms is None else as_float(max_wait_ms, "max_wait_ms"),
            max_drift_ms=None if max_drift_ms is None else as_int(max_drift_ms, "max_drift_ms"),
            clock=clock,
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


def _check_core_args() -> None:
    """Checks that Generator's arguments are the core's (``_snowfleet.generator_args()``,
    SNOWFLEET_GENERATOR_ARGS): node_id, also positional, first, then the keyword-only ones in
    the core's order."""
    params = list(inspect.signature(Generator.__init__).parameters.values())[1:]
    positional = [p.name for p in params if p.kind != p.KEYWORD_ONLY]
    keywords = [p.name for p in params if p.kind == p.KEYWORD_ONLY]
    core = [name for name, _ in _core.generator_args()]
    if not set(positional) <= set(core) or keywords != [n for n in core if n not in positional]:
        raise ImportError(
            f"snowfleet.Generator takes {positional + keywords}, the core's are {core}"
        )


_check_core_args()
