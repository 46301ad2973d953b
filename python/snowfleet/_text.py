"""An id's sortable text forms, delegated to the core: Crockford base32 (13 characters,
TSID's form; upper case out, either case and the I/L/O aliases in) and fixed-width base62
(11 characters of 0-9A-Za-z). Both sort as their ids do under byte order (a "C" collation)."""

from __future__ import annotations

from . import _snowfleet as _core
from ._convert import as_int, as_str


def format_base32(id: int) -> str:
    """>>> format_base32(141264821508263936)
    '03XEZKD8M4M00'

    A negative id is InvalidArgument."""
    return _core.format_id_as(as_int(id, "id"), "base32")


def parse_base32(text: str) -> int:
    """>>> parse_base32("03xezkd8m4m00")
    141264821508263936

    Exactly 13 characters of Crockford's alphabet with a first one 0-7 (at most 2**63 - 1),
    else InvalidArgument quoting the text and naming the rule."""
    return _core.parse_id_as(as_str(text, "text"), "base32")


def parse_id_text(text: str) -> int:
    """>>> parse_id_text("8000000000000"), parse_id_text("03xezkd8m4m00")
    (8000000000000, 141264821508263936)

    An id in whichever text form it is, as the CLI's ``decode`` reads it: digits only are
    decimal whatever the length, else 13 characters are base32 and 11 base62; anything else
    is InvalidArgument quoting the text."""
    return _core.parse_id_as(as_str(text, "text"), "any")


def format_base62(id: int) -> str:
    """>>> format_base62(141264821508263936)
    '0AQzeOt0YV6'

    A negative id is InvalidArgument."""
    return _core.format_id_as(as_int(id, "id"), "base62")


def parse_base62(text: str) -> int:
    """>>> parse_base62("AzL8n0Y58m7") == 2**63 - 1
    True

    Exactly 11 characters of 0-9A-Za-z (case-sensitive) worth at most 2**63 - 1, else
    InvalidArgument quoting the text and naming the rule."""
    return _core.parse_id_as(as_str(text, "text"), "base62")
