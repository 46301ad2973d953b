"""The cases of conformance/vectors/time.json (written by generate.py): RFC 3339 texts the
core's parse_iso8601 (Python parse_time, Node parseTime, Java Snowfleet.parseTime) must
accept with the Unix ms they denote, and texts it must refuse with the rule it names.

Expected values come from model/time_model.py. Every accepted value is also checked here
against Python's datetime (year 0000, which datetime lacks, through year 0400: the
Gregorian calendar repeats every 400 years), and every refusal's rule against the model's
own message, so a vector cannot contradict either.
"""

from __future__ import annotations

import datetime as _dt
import re

import snowfleet_model as m
import time_model as tm

_UNIX = _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)
_DAYS_PER_400_YEARS = 146_097

# (id suffix, text, source)
ACCEPTED = [
    ("seed_literal", "2025-01-24T19:35:58.021Z", "001 section 4: the API sketch's millisecond"),
    ("twitter_worked_example", "2023-11-14T22:13:20Z", "000: 1700000000000 ms"),
    ("unix_epoch", "1970-01-01T00:00:00Z", "Unix ms 0"),
    ("before_unix_epoch", "1969-12-31T23:59:59.999Z", "times before 1970 are negative ms"),
    ("epoch_default", "2024-01-01T00:00:00Z", "the default preset's epoch"),
    ("epoch_twitter", "2010-11-04T01:42:54.657Z", "the twitter preset's epoch"),
    ("epoch_discord", "2015-01-01T00:00:00Z", "the discord preset's epoch"),
    ("default_window_end", "2093-09-06T15:47:35.551Z", "the default layout's last ms"),
    ("lowercase_t_and_z", "2025-01-24t19:35:58.021z", "RFC 3339 5.6: 't' and 'z' may be lower case"),
    ("offset_east", "2025-01-24T20:35:58.021+01:00", "a numeric offset: local = UTC + offset"),
    ("offset_half_hour", "2025-01-25T01:05:58.021+05:30", "offsets have minutes"),
    ("offset_west", "2025-01-24T11:35:58.021-08:00", "a negative offset"),
    ("offset_plus_zero", "2025-01-24T19:35:58.021+00:00", "+00:00 is UTC"),
    ("offset_minus_zero", "2025-01-24T19:35:58.021-00:00",
     "RFC 3339 4.3: -00:00 (local offset unknown) is a UTC time"),
    ("offset_max_east", "2025-01-25T19:34:58.021+23:59", "the largest offset, +23:59"),
    ("offset_max_west", "2025-01-23T19:36:58.021-23:59", "the largest offset, -23:59"),
    ("offset_crosses_year", "2024-01-01T00:30:00+01:00", "an offset moves the date back a year"),
    ("fraction_1_digit", "2024-06-01T12:00:00.5Z", "one fraction digit is tenths"),
    ("fraction_2_digits", "2024-06-01T12:00:00.25Z", "two fraction digits are hundredths"),
    ("fraction_3_digits", "2024-06-01T12:00:00.021Z", "three fraction digits are ms"),
    ("fraction_zero", "2024-06-01T12:00:00.0Z", "a zero fraction"),
    ("fraction_micro_zeros", "2024-06-01T12:00:00.021000Z",
     "digits past the ms are accepted when they are 0 (microsecond clocks print them)"),
    ("fraction_nano_zeros", "2024-06-01T12:00:00.021000000Z", "nanosecond precision, zeros"),
    ("leap_day_2024", "2024-02-29T12:00:00Z", "a leap day"),
    ("leap_day_2000", "2000-02-29T00:00:00Z", "a century divisible by 400 is a leap year"),
    ("leap_day_year_0000", "0000-02-29T00:00:00Z", "year 0000 is a leap year (divisible by 400)"),
    ("april_30", "2023-04-30T23:59:59.999Z", "the last day of a 30-day month"),
    ("december_31", "2023-12-31T23:59:59.999Z", "the last ms of a year"),
    ("year_0000_first", "0000-01-01T00:00:00Z", "the first instant with a 4-digit year"),
    ("year_9999_last", "9999-12-31T23:59:59.999Z",
     "the last instant with a 4-digit year (the latest layout epoch)"),
    ("year_0000_east_offset", "0000-01-01T00:00:00+23:59",
     "an offset may move the instant before year 0000"),
    ("year_9999_west_offset", "9999-12-31T23:59:59.999-23:59",
     "an offset may move the instant past year 9999"),
]

# (id suffix, text, rule the message must contain, source)
_YEAR = "the year must be 4 ASCII digits (0000-9999, no sign)"
REFUSED = [
    ("hour_negative", "2024-06-01T-1:00:00Z", "the hour must be 2 ASCII digits",
     "the CLI once took hour -1"),
    ("t_minus", "T-1:00", _YEAR, "the CLI's old sscanf reader's loose fields"),
    ("fraction_negative", "2024-06-01T00:00:00.-12Z",
     "a fraction '.' must be followed by ASCII digits", "the CLI once took .-12 ms"),
    ("february_31", "2024-02-31T00:00:00Z", "day 31 is outside 01-29 for 2024-02",
     "the CLI once took February 31"),
    ("space_separator", "2024-06-01 00:00:00Z",
     "the date and the time must be separated by 'T', not a space",
     "RFC 3339 mentions a space only in a note; refused here"),
    ("space_in_field", "2024-06-01T00:00: 5Z", "the second must be 2 ASCII digits",
     "the CLI once took a space inside a field"),
    ("leading_space", " 2024-06-01T00:00:00Z", _YEAR, "no surrounding whitespace"),
    ("trailing_space", "2024-06-01T00:00:00Z ", "unexpected text after the offset",
     "no surrounding whitespace"),
    ("february_29_not_leap", "2023-02-29T00:00:00Z", "day 29 is outside 01-28 for 2023-02",
     "2023 is not a leap year"),
    ("february_29_century", "1900-02-29T00:00:00Z", "day 29 is outside 01-28 for 1900-02",
     "a century not divisible by 400 is not a leap year"),
    ("april_31", "2024-04-31T00:00:00Z", "day 31 is outside 01-30 for 2024-04", "30-day month"),
    ("day_00", "2024-06-00T00:00:00Z", "day 00 is outside 01-30 for 2024-06", "days start at 01"),
    ("day_32", "2024-01-32T00:00:00Z", "day 32 is outside 01-31 for 2024-01", "day range"),
    ("month_00", "2024-00-01T00:00:00Z", "month 00 is outside 01-12", "month range"),
    ("month_13", "2024-13-01T00:00:00Z", "month 13 is outside 01-12", "month range"),
    ("month_1_digit", "2024-6-01T00:00:00Z", "the month must be 2 ASCII digits", "fixed widths"),
    ("hour_24", "2024-06-01T24:00:00Z", "hour 24 is outside 00-23",
     "RFC 3339 has no 24:00"),
    ("minute_60", "2024-06-01T00:60:00Z", "minute 60 is outside 00-59", "minute range"),
    ("second_61", "2024-06-01T00:00:61Z", "second 61 is outside 00-59", "second range"),
    ("leap_second", "2016-12-31T23:59:60Z",
     "second 60 is a leap second, which Unix milliseconds (and so ids) cannot represent",
     "a real leap second: Unix ms (and so an id) cannot represent it"),
    ("leap_second_rfc_example", "1990-12-31T15:59:60-08:00", "leap second",
     "RFC 3339 5.8's leap second example"),
    ("no_offset", "2024-06-01T00:00:00", "an offset is required",
     "a local time without an offset is ambiguous"),
    ("date_only", "2024-06-01", "a time is required after the date", "a full date-time is needed"),
    ("no_seconds", "2024-06-01T00:00Z", "expected ':' and the seconds after the minute",
     "seconds are required"),
    ("empty", "", "the text is empty", "empty text"),
    ("offset_no_colon", "2024-06-01T00:00:00+0100", "the offset must be +HH:MM or -HH:MM",
     "ISO 8601 basic offsets are not RFC 3339"),
    ("offset_hour_only", "2024-06-01T00:00:00+01", "the offset must be +HH:MM or -HH:MM",
     "offset minutes are required"),
    ("offset_1_digit", "2024-06-01T00:00:00+1:00", "the offset hour must be 2 ASCII digits",
     "fixed widths"),
    ("offset_hour_24", "2024-06-01T00:00:00+24:00", "offset hour 24 is outside 00-23",
     "offset range"),
    ("offset_minute_60", "2024-06-01T00:00:00-00:60", "offset minute 60 is outside 00-59",
     "offset range"),
    ("offset_name", "2024-06-01T00:00:00UTC", "expected Z, +HH:MM or -HH:MM after the time",
     "zone names are not offsets"),
    ("z_then_offset", "2024-06-01T00:00:00Z+01:00", "unexpected text after the offset",
     "one offset"),
    ("year_plus_sign", "+2024-06-01T00:00:00Z", _YEAR, "no signed (expanded) years"),
    ("year_negative", "-0001-06-01T00:00:00Z", _YEAR, "no years before 0000"),
    ("year_5_digits", "10000-01-01T00:00:00Z", _YEAR, "no years after 9999"),
    ("year_2_digits", "24-06-01T00:00:00Z", _YEAR, "no 2-digit years"),
    ("basic_format", "20240601T000000Z", _YEAR, "ISO 8601 basic format is not RFC 3339"),
    ("unix_ms_digits", "1704067200000", _YEAR, "a number of ms is not a time text"),
    ("word", "yesterday", _YEAR, "words are not times"),
    ("fraction_empty", "2024-06-01T00:00:00.Z", "a fraction '.' must be followed by ASCII digits",
     "a fraction has at least one digit"),
    ("fraction_sub_ms", "2024-06-01T00:00:00.0001Z",
     "the fraction has a non-zero digit past the millisecond, and an id's timestamp is whole "
     "milliseconds", "an id's timestamp is whole ms: nothing is truncated silently"),
    ("fraction_micro", "2024-06-01T00:00:00.123456Z", "whole milliseconds",
     "microseconds are refused unless zero"),
    ("fraction_comma", "2024-06-01T00:00:00,5Z", "expected Z, +HH:MM or -HH:MM after the time",
     "ISO 8601's comma fraction is not RFC 3339"),
    ("separator_letter", "2024-06-01X00:00:00Z", "expected 'T' between the date and the time",
     "only 'T' or 't' separates date and time"),
    ("unicode_minus", "2024\u221206-01T00:00:00Z", "expected '-' between the year and the month",
     "U+2212 MINUS SIGN is not '-'"),
    ("fullwidth_digits", "\uff12\uff10\uff12\uff14-06-01T00:00:00Z", _YEAR,
     "fullwidth digits are not ASCII digits"),
    ("arabic_indic_digits", "2024-06-\u0660\u0661T00:00:00Z", "the day must be 2 ASCII digits",
     "Arabic-Indic digits are not ASCII digits"),
    ("nul_after", "2024-06-01T00:00:00Z\u0000", "unexpected text after the offset",
     "a NUL byte is text too (quoted as \\x00: messages are C strings)"),
    ("newline_after", "2024-06-01T00:00:00Z\n", "unexpected text after the offset",
     "a trailing newline (quoted as \\x0a)"),
    ("long_text", "2024-06-01T00:00:00Z" + "0" * 80, "unexpected text after the offset",
     "the message quotes the first 60 bytes and '...'"),
]


def _datetime_ms(text: str) -> int:
    """Unix ms of an accepted text by Python's datetime (never by the model)."""
    t = text.upper()
    years_shift = 400 if t.startswith("0000") else 0  # datetime starts at year 1
    if years_shift:
        t = "0400" + t[4:]
    head, fraction, zone = re.fullmatch(r"(.{19})(?:\.([0-9]+))?(.*)", t).groups()
    # %f takes 1 to 6 digits; past the 3rd, an accepted text has only zeros.
    t = f"{head}.{(fraction or '0')[:6]}{zone}"
    got = _dt.datetime.strptime(t, "%Y-%m-%dT%H:%M:%S.%f%z")
    ms = (got - _UNIX) // _dt.timedelta(milliseconds=1)
    return ms - (_DAYS_PER_400_YEARS * tm.MS_PER_DAY if years_shift else 0)


def time_cases():
    cases = []
    for suffix, text, source in ACCEPTED:
        ms = tm.parse_time(text)
        assert ms == _datetime_ms(text), (text, ms, _datetime_ms(text))
        cases.append({"id": f"time.accept.{suffix}", "source": source, "op": "parse_time",
                      "text": text, "expect": {"timestamp_ms": str(ms)}})
    for suffix, text, rule, source in REFUSED:
        try:
            tm.parse_time(text)
        except m.ModelError as e:
            contains = [tm.quote(text), rule]
            for part in contains:
                assert part in str(e), (text, part, str(e))
            expect = {"error": e.code, "message_contains": contains}
        else:
            raise AssertionError(f"the model accepts {text!r}, listed as refused")
        cases.append({"id": f"time.refuse.{suffix}", "source": source, "op": "parse_time",
                      "text": text, "expect": expect})

    by_id = {c["id"]: c["expect"] for c in cases}
    # Anchors: the reference's instants, the presets' epochs, both ends of 0000-9999.
    assert by_id["time.accept.seed_literal"] == {"timestamp_ms": "1737747358021"}
    assert by_id["time.accept.twitter_worked_example"] == {"timestamp_ms": "1700000000000"}
    for preset, (epoch, *_bits) in m.PRESETS.items():
        assert by_id[f"time.accept.epoch_{preset}"] == {"timestamp_ms": str(epoch)}
    assert by_id["time.accept.default_window_end"] == {
        "timestamp_ms": str(m.Layout.parse("default").max_timestamp_ms)}
    assert by_id["time.accept.year_9999_last"] == {"timestamp_ms": str(m.MAX_EPOCH_MS)}
    assert by_id["time.accept.year_0000_first"] == {"timestamp_ms": "-62167219200000"}
    for c in cases:
        if c["id"].startswith("time.accept.offset_") and c["id"] != "time.accept.offset_crosses_year":
            assert c["expect"] == by_id["time.accept.seed_literal"], c["id"]
    assert by_id["time.refuse.long_text"]["message_contains"][0].endswith("...'")
    assert by_id["time.refuse.nul_after"]["message_contains"][0].endswith("\\x00'")
    return cases
