"""compose / decode / parse_id / parse_time: packing and unpacking ids, and reading id and time
text, delegated to the core."""

from __future__ import annotations

import datetime as _dt
from typing import NamedTuple, Optional, Union

from . import _snowfleet as _core
from ._convert import as_int, as_str
from ._errors import TimestampOutOfRange
from ._layout import Layout, layout_arg

_UNIX_EPOCH = _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)


class Decoded(NamedTuple):
    """The fields of an id. ``datacenter_id`` and ``machine_id`` are the two halves of
    ``node_id`` (0 and ``node_id`` for an unsplit layout)."""

    timestamp_ms: int
    """Unix milliseconds."""
    node_id: int
    datacenter_id: int
    machine_id: int
    sequence: int

    @property
    def datetime(self) -> _dt.datetime:
        """``timestamp_ms`` as an aware UTC datetime (exact to the millisecond). A datetime
        holds years 1-9999 only: a time outside them (a layout whose window passes 9999, e.g.
        ``52.0.11@0``) is TimestampOutOfRange naming it as the CLI writes it
        (``+144683-05-23T16:29:30.495Z``); ``timestamp_ms`` holds every time."""
        try:
            return _UNIX_EPOCH + _dt.timedelta(milliseconds=self.timestamp_ms)
        except OverflowError:
            text = _core.format_iso8601(self.timestamp_ms)
            raise TimestampOutOfRange(
                f"timestamp_ms {self.timestamp_ms} ({text}) is outside the years 1-9999 a "
                f"datetime holds; read timestamp_ms instead") from None


def decode(id: Union[int, str], layout: Union[Layout, str, None] = None) -> Decoded:
    """Unpacks an id, given as an int or as its decimal text, with ``layout`` (default: the
    default layout).

    >>> decode(141264821508263936)
    Decoded(timestamp_ms=1737747358021, node_id=37, datacenter_id=0, machine_id=37, sequence=0)
    >>> decode("141264821508263936").node_id
    37

    Raises InvalidArgument for a negative id or one above 2**63 - 1, and for text that is not
    plain decimal digits (:func:`parse_id`'s rules); TypeError for anything but an int or a
    str.
    """
    native = layout_arg(layout)._native
    if isinstance(id, str):
        return Decoded(*_core.decode_text(native, id))
    return Decoded(*_core.decode(native, as_int(id, "id")))


def compose(
    *,
    timestamp_ms: int,
    node_id: Optional[int] = None,
    sequence: Optional[int] = None,
    layout: Union[Layout, str, None] = None,
    datacenter_id: Optional[int] = None,
    machine_id: Optional[int] = None,
) -> int:
    """Packs fields into an id. Give ``node_id``, or ``datacenter_id`` and ``machine_id``
    (the core refuses any other combination with InvalidArgument); ``sequence`` left out
    (or None) is 0, the node's first id of that millisecond. Nothing is masked: a
    timestamp outside the layout's window raises TimestampOutOfRange, a node id or sequence
    outside its field InvalidArgument.

    >>> compose(timestamp_ms=1737747358021, node_id=37)
    141264821508263936
    """
    return _core.compose(
        layout_arg(layout)._native,
        as_int(timestamp_ms, "timestamp_ms"),
        None if node_id is None else as_int(node_id, "node_id"),
        None if datacenter_id is None else as_int(datacenter_id, "datacenter_id"),
        None if machine_id is None else as_int(machine_id, "machine_id"),
        None if sequence is None else as_int(sequence, "sequence"),
    )


def parse_id(text: str) -> int:
    """Parses a decimal id such as ``"141264821508263936"``: digits only, at most
    2**63 - 1, else InvalidArgument quoting the text."""
    return _core.parse_id(as_str(text, "text"))


def parse_time(text: str) -> int:
    """Parses an RFC 3339 date-time into Unix milliseconds, with the core's one parser (the
    CLI's ``--time`` and every language read time text with it).

    >>> parse_time("2025-01-24T20:35:58.021+01:00")
    1737747358021

    ``YYYY-MM-DDTHH:MM:SS[.fraction]`` then ``Z``, ``+HH:MM`` or ``-HH:MM``: ``t``/``z`` may be
    lower case; no space for ``T``; years 0000-9999; the day must exist in its month; digits
    past the millisecond must be 0 (an id's timestamp is whole ms); no leap second (``:60``).
    Anything else raises InvalidArgument quoting the text and naming the rule; a non-str is a
    TypeError. Compose an id from it with ``compose(timestamp_ms=parse_time(text), ...)``.
    """
    return _core.parse_iso8601(as_str(text, "text"))
