"""Reference model of an id's text forms (Crockford base32 as TSID writes it, fixed-width
base62) and of the time-range helpers (min_id, max_id, id_range). Pure Python, written
from the definitions (big integers, string alphabets), not from the core's bit tricks.
"""

from __future__ import annotations

import snowfleet_model as m

B32 = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
MAX_ID = 2**63 - 1
ALIASES = {"I": "1", "L": "1", "O": "0"}


def _digits(value: int, alphabet: str, width: int) -> str:
    out = []
    for _ in range(width):
        value, d = divmod(value, len(alphabet))
        out.append(alphabet[d])
    assert value == 0
    return "".join(reversed(out))


def format_text(encoding: str, value: int) -> str:
    if value < 0:
        raise m.invalid(f"id must be non-negative, got {value}")
    return _digits(value, B32, 13) if encoding == "base32" else _digits(value, B62, 11)


def parse_text(encoding: str, text: str) -> int:
    """The value, or ModelError INVALID_ARGUMENT whose message names the broken rule."""
    if encoding == "any":
        return parse_any(text)
    if encoding == "base32":
        if len(text) != 13:
            raise m.invalid(f"13 characters, got {text!r}")
        value = 0
        for i, ch in enumerate(text):
            up = ALIASES.get(ch.upper(), ch.upper()) if ch.isascii() else ch
            if up not in B32:
                raise m.invalid(f"position {i} is not Crockford base32: {text!r}")
            value = value * 32 + B32.index(up)
    else:
        if len(text) != 11:
            raise m.invalid(f"11 characters, got {text!r}")
        value = 0
        for i, ch in enumerate(text):
            if ch not in B62:
                raise m.invalid(f"position {i} is not base62: {text!r}")
            value = value * 62 + B62.index(ch)
    if value > MAX_ID:
        raise m.invalid(f"2^63 - 1 at most, got {text!r}")
    return value


def parse_any(text: str) -> int:
    """decode's rule: digits only are decimal (any length), else 13 characters base32 and
    11 base62, else INVALID_ARGUMENT naming the three forms."""
    if text and all(c in "0123456789" for c in text):
        if int(text) > MAX_ID:
            raise m.invalid(f"id must be a decimal integer in [0, {MAX_ID}], got {text!r}")
        return int(text)
    if len(text) == 13:
        return parse_text("base32", text)
    if len(text) == 11:
        return parse_text("base62", text)
    raise m.invalid(f"an id must be decimal digits, 13 characters of base32 or 11 of base62, "
                    f"got {text!r} ({len(text)} characters)")


def _window(layout: m.Layout, name: str, ms: int, lo: int, hi: int) -> None:
    if not lo <= ms <= hi:
        raise m.ModelError("TIMESTAMP_OUT_OF_RANGE", f"{name} must be in [{lo}, {hi}], got {ms}")


def min_id(layout: m.Layout, ms: int) -> int:
    _window(layout, "timestamp_ms", ms, layout.epoch_ms, layout.max_timestamp_ms)
    return m.compose(layout, ms, 0, 0)


def max_id(layout: m.Layout, ms: int) -> int:
    _window(layout, "timestamp_ms", ms, layout.epoch_ms, layout.max_timestamp_ms)
    return m.compose(layout, ms, layout.max_node_id, layout.max_sequence)


def id_range(layout: m.Layout, start: int, end: int, slack: int = 0) -> tuple:
    """Inclusive bounds of the ids stamped in [start, end), the upper end widened by slack
    ms (a monotonic generator stamps up to max_drift_ms ahead of the wall clock) but never
    past the layout's last millisecond."""
    last = layout.max_timestamp_ms
    _window(layout, "start_ms", start, layout.epoch_ms, last)
    # An empty or reversed range is refused as such before end_ms's window is checked:
    # [E, E) at the epoch is empty, not a time out of range.
    if end <= start:
        raise m.invalid(f"end_ms must be after start_ms, got {start} and {end}")
    _window(layout, "end_ms", end, layout.epoch_ms + 1, last + 1)
    if slack < 0:
        raise m.invalid(f"slack_ms must be >= 0, got {slack}")
    return min_id(layout, start), max_id(layout, min(end - 1 + slack, last))
