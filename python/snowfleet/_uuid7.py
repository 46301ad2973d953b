"""snowfleet.Uuid7Generator: RFC 9562 UUIDv7 from the core's guarded generator."""

from __future__ import annotations

import uuid
from types import TracebackType
from typing import List, NamedTuple, Optional, Type, Union

from . import _snowfleet as _core
from ._convert import as_float, as_int, as_str
from ._errors import InvalidArgument
from ._generator import Stats, Status

_FORMS = {"uuid": 0, "str": 1, "bytes": 2}


class Uuid7Decoded(NamedTuple):
    """What a UUIDv7 carries: Unix ms, the 26-bit counter, the 48 random bits."""

    timestamp_ms: int
    counter: int
    random: int


class Uuid7Generator(_core.Uuid7Generator):
    """A thread-safe UUIDv7 generator (the core's ``snowfleet::Uuid7Generator``).

    The same generator as :class:`Generator` underneath (layout ``48.0.15@0``), so the same
    rewind guard, ``mode`` (``"strict"`` or ``"monotonic"``), ``max_wait_ms`` and
    ``max_drift_ms`` apply, and UUIDs are strictly increasing per generator and across its
    threads. The counter is RFC 9562 §6.2 Method 1, seeded per millisecond from a CSPRNG
    (see the README). In a forked child it keeps minting with fresh random bits.

    :meth:`next_uuid7` returns a ``uuid.UUID``; :meth:`next_uuid7_str` the canonical text and
    :meth:`next_uuid7_bytes` the 16 bytes, both faster. ``clock`` and ``random`` take a
    :class:`snowfleet.testing.ScriptedClock` and :class:`snowfleet.testing.ScriptedRandom`,
    which make every UUID deterministic.

    >>> with Uuid7Generator() as gen:
    ...     gen.next_uuid7().version
    7
    """

    __slots__ = ()

    def __init__(
        self,
        *,
        mode: Optional[str] = None,
        max_wait_ms: Optional[float] = None,
        max_drift_ms: Optional[int] = None,
        clock: Optional[_core.ScriptedClock] = None,
        random: Optional[_core.ScriptedRandom] = None,
    ) -> None:
        if clock is not None and not isinstance(clock, _core.ScriptedClock):
            raise TypeError(
                f"clock must be a snowfleet.testing.ScriptedClock or None, got {type(clock).__name__}"
            )
        if random is not None and not isinstance(random, _core.ScriptedRandom):
            raise TypeError(
                "random must be a snowfleet.testing.ScriptedRandom or None, got "
                f"{type(random).__name__}"
            )
        super().__init__(
            None if mode is None else as_str(mode, "mode"),
            None if max_wait_ms is None else as_float(max_wait_ms, "max_wait_ms"),
            None if max_drift_ms is None else as_int(max_drift_ms, "max_drift_ms"),
            clock,
            random,
        )

    # next_uuid7(), next_uuid7_str() and next_uuid7_bytes() are the native methods.

    def next_uuid7s(self, n: int, form: str = "uuid") -> List[Union[uuid.UUID, str, bytes]]:
        """``n`` ascending UUIDs as a list, each a ``uuid.UUID`` (``form="uuid"``), its text
        (``"str"``) or its 16 bytes (``"bytes"``)."""
        if form not in _FORMS:
            raise InvalidArgument(f"form must be 'uuid', 'str' or 'bytes', got {form!r}")
        return self._next_batch(as_int(n, "n"), _FORMS[form])

    @property
    def closed(self) -> bool:
        """True once close() was called."""
        return bool(self._closed())

    @property
    def mode(self) -> str:
        """'strict' or 'monotonic'."""
        return str(self._mode())

    @property
    def max_wait_ms(self) -> float:
        """Rewinds up to this many ms are waited out, larger ones refused."""
        return float(self._max_wait_ms())

    @property
    def max_drift_ms(self) -> int:
        """Monotonic mode: how far ahead of the wall clock UUIDs may run, in ms."""
        return int(self._max_drift_ms())

    def stats(self) -> Stats:
        """The generator's counters (exact once no call is in flight), as Generator's."""
        return Stats(*self._stats())

    def status(self) -> Status:
        """Reads the clock once and reports whether a call now would be served, as
        Generator's (``node_id`` is 0: a UUIDv7 has no node)."""
        return Status(*self._status())

    def __enter__(self) -> "Uuid7Generator":
        return self

    def __exit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        tb: Optional[TracebackType],
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Uuid7Generator(mode={self.mode!r}{', closed' if self.closed else ''})"


def decode_uuid7(value: Union[uuid.UUID, str, bytes]) -> Uuid7Decoded:
    """The fields of a UUIDv7 given as ``uuid.UUID``, text or 16 bytes. Another version
    raises InvalidArgument naming the UUID."""
    if isinstance(value, uuid.UUID):
        value = value.bytes
    elif not isinstance(value, (str, bytes)):
        raise TypeError(f"a UUID must be uuid.UUID, str or bytes, got {type(value).__name__}")
    return Uuid7Decoded(*_core.decode_uuid7(value))
