"""Reference model of snowfleet's time text parser (RFC 3339 date-time -> Unix ms), in plain
Python, for producing conformance/vectors/time.json. Written apart from the C++ core
(core/src/ids/time_text.cc): the grammar is matched one regular expression per element on the
UTF-8 bytes, and days are counted from year 0000 by leap-year arithmetic.

The profile (also written on snowfleet::parse_iso8601 in the core's header):

    YYYY-MM-DD ('T'|'t') HH:MM:SS ['.' 1*DIGIT] ('Z'|'z'|('+'|'-') HH:MM)

* year 0000-9999, 4 ASCII digits, no sign; month 01-12; the day must exist in that month
  of that year (proleptic Gregorian: leap when divisible by 4, except centuries not
  divisible by 400); hour 00-23, minute 00-59, second 00-59;
* second 60 (a leap second) is refused: Unix milliseconds cannot represent it;
* a fraction has 1 or more digits; digits past the third (ms) must all be 0;
* an offset is required, HH 00-23 and MM 00-59; -00:00 is UTC;
* nothing else: no space for 'T', no surrounding space, no trailing bytes.

The first element that fails names the rule in the message, with the same wording as the
core (the vectors pin substrings of it). The text is quoted cut to 60 bytes (backing off
to a UTF-8 character boundary, then "...") with control bytes written as \\xNN.
"""

from __future__ import annotations

import re

from snowfleet_model import invalid

MS_PER_DAY = 86_400_000
QUOTE_BYTES = 60
SHAPE = "YYYY-MM-DDTHH:MM:SS[.mmm] then Z, +HH:MM or -HH:MM"
_CUMULATIVE_DAYS = (0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334)
_DIGITS = re.compile(rb"[0-9]+")


def quote(text: str) -> str:
    """The text as a message quotes it."""
    raw = text.encode("utf-8")
    cut = raw
    if len(raw) > QUOTE_BYTES:
        n = QUOTE_BYTES
        back = 0
        while back < 3 and raw[n] & 0xC0 == 0x80:
            n -= 1
            back += 1
        cut = raw[:n]
    shown = b"".join(b"\\x%02x" % b if b < 0x20 or b == 0x7F else bytes([b]) for b in cut)
    return "'" + shown.decode("utf-8") + ("...'" if len(cut) < len(raw) else "'")


def is_leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def month_days(year: int, month: int) -> int:
    if month == 2:
        return 29 if is_leap(year) else 28
    return 30 if month in (4, 6, 9, 11) else 31


def days_since_year_zero(year: int, month: int, day: int) -> int:
    """Days from 0000-01-01 to year-month-day (year >= 0)."""
    leap_years_before = (year + 3) // 4 - (year + 99) // 100 + (year + 399) // 400
    days = 365 * year + leap_years_before + _CUMULATIVE_DAYS[month - 1] + day - 1
    if month > 2 and is_leap(year):
        days += 1
    return days


UNIX_EPOCH_DAYS = days_since_year_zero(1970, 1, 1)  # 719528


class _Cursor:
    def __init__(self, text: str):
        self.text = text
        self.data = text.encode("utf-8")
        self.pos = 0

    def fail(self, rule: str):
        raise invalid(f"time must be RFC 3339 ({SHAPE}), got {quote(self.text)}: {rule}")

    def match(self, pattern: bytes):
        m = re.compile(pattern).match(self.data, self.pos)
        if m is None:
            return None
        self.pos = m.end()
        return m.group(0)

    def need(self, pattern: bytes, rule: str) -> bytes:
        got = self.match(pattern)
        if got is None:
            self.fail(rule)
        return got

    def number(self, name: str, width: int, low: int, high: int) -> int:
        value = int(self.need(rb"[0-9]{%d}" % width, f"the {name} must be {width} ASCII digits"))
        if not low <= value <= high:
            self.fail(f"{name} {value:02d} is outside {low:02d}-{high:02d}")
        return value

    @property
    def done(self) -> bool:
        return self.pos == len(self.data)


def parse_time(text: str) -> int:
    """Unix ms of an RFC 3339 date-time, or ModelError INVALID_ARGUMENT naming the rule."""
    c = _Cursor(text)
    if c.done:
        c.fail("the text is empty")
    year = int(c.need(rb"[0-9]{4}(?![0-9])", "the year must be 4 ASCII digits (0000-9999, no sign)"))
    c.need(rb"-", "expected '-' between the year and the month")
    month = c.number("month", 2, 1, 12)
    c.need(rb"-", "expected '-' between the month and the day")
    day = int(c.need(rb"[0-9]{2}", "the day must be 2 ASCII digits"))
    last = month_days(year, month)
    if not 1 <= day <= last:
        c.fail(f"day {day:02d} is outside 01-{last:02d} for {year:04d}-{month:02d}")

    if c.match(rb"[Tt]") is None:
        if c.done:
            c.fail("a time is required after the date (THH:MM:SS and an offset)")
        if c.match(rb" ") is not None:
            c.fail("the date and the time must be separated by 'T', not a space")
        c.fail("expected 'T' between the date and the time")
    hour = c.number("hour", 2, 0, 23)
    c.need(rb":", "expected ':' between the hour and the minute")
    minute = c.number("minute", 2, 0, 59)
    c.need(rb":", "expected ':' and the seconds after the minute (HH:MM:SS)")
    second = int(c.need(rb"[0-9]{2}", "the second must be 2 ASCII digits"))
    if second == 60:
        c.fail("second 60 is a leap second, which Unix milliseconds (and so ids) cannot represent")
    if second > 59:
        c.fail(f"second {second:02d} is outside 00-59")

    ms = 0
    if c.match(rb"\.") is not None:
        digits = c.need(_DIGITS.pattern, "a fraction '.' must be followed by ASCII digits")
        if digits[3:].strip(b"0"):
            c.fail("the fraction has a non-zero digit past the millisecond, and an id's "
                   "timestamp is whole milliseconds")
        ms = int(digits[:3].ljust(3, b"0"))

    if c.done:
        c.fail("an offset is required: Z, +HH:MM or -HH:MM (a local time is ambiguous)")
    offset_minutes = 0
    if c.match(rb"[Zz]") is None:
        sign = c.need(rb"[+-]", "expected Z, +HH:MM or -HH:MM after the time")
        offset_hour = c.number("offset hour", 2, 0, 23)
        c.need(rb":", "the offset must be +HH:MM or -HH:MM")
        offset_minute = c.number("offset minute", 2, 0, 59)
        offset_minutes = (offset_hour * 60 + offset_minute) * (1 if sign == b"+" else -1)
    if not c.done:
        c.fail("unexpected text after the offset")

    days = days_since_year_zero(year, month, day) - UNIX_EPOCH_DAYS
    local_ms = days * MS_PER_DAY + ((hour * 60 + minute) * 60 + second) * 1000 + ms
    return local_ms - offset_minutes * 60_000
