"""min_id / max_id / id_range: the ids of a time, for range scans over an id column,
delegated to the core. Times are aware datetimes or Unix milliseconds (int)."""

from __future__ import annotations

import datetime as _dt
from typing import NamedTuple, Union

from . import _snowfleet as _core
from ._convert import _shown, as_int
from ._errors import InvalidArgument
from ._layout import Layout, layout_arg

Time = Union[_dt.datetime, int]
_UNIX_EPOCH = _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)


def time_ms(value: object, name: str) -> int:
    """An aware datetime or an int of Unix ms as Unix ms. A naive datetime is InvalidArgument
    (its instant depends on the machine's zone), as is one with a sub-millisecond part (an
    id's timestamp is whole ms, and nothing is rounded silently); other types TypeError."""
    if isinstance(value, _dt.datetime):
        if value.tzinfo is None or value.utcoffset() is None:
            raise InvalidArgument(
                f"{name} must be an aware datetime (with a tzinfo) or Unix ms, got the naive "
                f"{_shown(value)}")
        delta = value - _UNIX_EPOCH
        # The core's rule and message: whole milliseconds only, nothing rounded.
        return _core.whole_ms(name, delta.days * 86400 + delta.seconds, delta.microseconds * 1000)
    if isinstance(value, _dt.date):
        raise TypeError(f"{name} must be an aware datetime or an int of Unix ms, got a date "
                        f"{_shown(value)}")
    return as_int(value, name)


class IdRange(NamedTuple):
    """Inclusive id bounds: ``first <= id <= last`` (SQL ``id BETWEEN first AND last``)."""

    first: int
    last: int


def min_id(time: Time, layout: Union[Layout, str, None] = None) -> int:
    """The lowest id any node can mint in ``time``'s millisecond (node 0, sequence 0).

    >>> min_id(1737747358021)
    141264821508112384

    ``time`` is an aware datetime or Unix ms; a naive datetime is InvalidArgument, a time
    outside the layout's window TimestampOutOfRange."""
    return _core.min_id(layout_arg(layout)._native, time_ms(time, "time"))


def max_id(time: Time, layout: Union[Layout, str, None] = None) -> int:
    """The highest id any node can mint in ``time``'s millisecond (every node and sequence
    bit set). The same rules as :func:`min_id`.

    >>> max_id(1737747358021) - min_id(1737747358021) == 2**22 - 1
    True
    """
    return _core.max_id(layout_arg(layout)._native, time_ms(time, "time"))


def id_range(start: Time, end: Time, *, slack_ms: int = 0,
             layout: Union[Layout, str, None] = None) -> IdRange:
    """Inclusive bounds of the ids stamped in ``[start, end)``.

    A strict generator stamps an id with the millisecond it was minted in, so ``slack_ms=0``
    is exact. A monotonic generator may stamp ids up to its ``max_drift_ms`` ahead of the
    wall clock (never behind): to find every id minted between start and end, pass that
    ``max_drift_ms`` as ``slack_ms``; it widens the upper bound only.

    >>> import datetime as dt
    >>> utc = dt.timezone.utc
    >>> r = id_range(dt.datetime(2026, 12, 1, tzinfo=utc), dt.datetime(2026, 12, 2, tzinfo=utc))
    >>> r.first == min_id(dt.datetime(2026, 12, 1, tzinfo=utc))
    True

    An empty or reversed range, a negative slack and naive datetimes are InvalidArgument; a
    time outside the layout's window TimestampOutOfRange."""
    return IdRange(*_core.id_range(layout_arg(layout)._native, time_ms(start, "start"),
                                   time_ms(end, "end"), as_int(slack_ms, "slack_ms")))
