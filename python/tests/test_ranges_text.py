"""min_id / max_id / id_range with Python's time types, and the base32 / base62 forms, beyond
the conformance vectors (which pin the values and refusals in ms and text)."""

from __future__ import annotations

import datetime as dt

import pytest

import snowfleet

UTC = dt.timezone.utc


def test_an_aware_datetime_is_its_instant_whatever_its_zone() -> None:
    t = dt.datetime(2025, 1, 24, 19, 35, 58, 21000, tzinfo=UTC)
    plus1 = t.astimezone(dt.timezone(dt.timedelta(hours=1)))
    assert snowfleet.min_id(t) == snowfleet.min_id(plus1) == snowfleet.min_id(1737747358021)
    assert snowfleet.max_id(plus1) == snowfleet.min_id(t) + 2**22 - 1


def test_a_naive_datetime_is_refused_naming_it() -> None:
    naive = dt.datetime(2026, 12, 1)
    with pytest.raises(snowfleet.InvalidArgument, match="naive.*2026, 12, 1"):
        snowfleet.min_id(naive)
    with pytest.raises(snowfleet.InvalidArgument, match="end"):
        snowfleet.id_range(dt.datetime(2026, 12, 1, tzinfo=UTC), naive)


def test_a_sub_millisecond_datetime_is_refused_not_rounded() -> None:
    with pytest.raises(snowfleet.InvalidArgument, match="whole millisecond"):
        snowfleet.max_id(dt.datetime(2026, 12, 1, 0, 0, 0, 1, tzinfo=UTC))


def test_out_of_layout_times_and_wrong_types() -> None:
    with pytest.raises(snowfleet.TimestampOutOfRange, match="got 915148800000"):  # 1999-01-01
        snowfleet.min_id(dt.datetime(1999, 1, 1, tzinfo=UTC))
    with pytest.raises(snowfleet.TimestampOutOfRange):
        snowfleet.min_id(0)
    with pytest.raises(TypeError):
        snowfleet.min_id(1.5e12)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        snowfleet.min_id(dt.date(2026, 12, 1))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        snowfleet.min_id(True)  # type: ignore[arg-type]


def test_id_range_holds_the_ids_of_a_generator_in_its_window() -> None:
    gen = snowfleet.Generator(node_id=5, mode="monotonic")
    start = dt.datetime.now(UTC).replace(microsecond=0)
    ids = gen.next_ids(1000)
    end = start + dt.timedelta(seconds=10)
    r = snowfleet.id_range(start, end, slack_ms=1000, layout="default")
    assert isinstance(r, snowfleet.IdRange)
    assert all(r.first <= i <= r.last for i in ids)
    gen.close()


def test_id_range_layout_and_slack() -> None:
    r = snowfleet.id_range(1700000000000, 1700000001000, layout=snowfleet.Layout.TWITTER)
    assert r == (snowfleet.min_id(1700000000000, layout="twitter"),
                 snowfleet.max_id(1700000000999, layout="twitter"))
    wide = snowfleet.id_range(1700000000000, 1700000001000, slack_ms=500, layout="twitter")
    assert wide.last == snowfleet.max_id(1700000001499, layout="twitter")
    with pytest.raises(snowfleet.InvalidArgument, match="slack_ms"):
        snowfleet.id_range(1700000000000, 1700000001000, slack_ms=-1, layout="twitter")


def test_text_forms_round_trip_and_sort_like_the_ids() -> None:
    ids = sorted({snowfleet.compose(timestamp_ms=1737747358021 + k, node_id=k % 1024)
                  for k in range(0, 10**9, 7_654_321)})
    for fmt, parse in ((snowfleet.format_base32, snowfleet.parse_base32),
                       (snowfleet.format_base62, snowfleet.parse_base62)):
        texts = [fmt(i) for i in ids]
        assert texts == sorted(texts)  # str order is code point order: byte order here
        assert [parse(t) for t in texts] == ids
    assert snowfleet.parse_base32(snowfleet.format_base32(42).lower()) == 42
    with pytest.raises(TypeError):
        snowfleet.parse_base32(b"0000000000000")  # type: ignore[arg-type]
    with pytest.raises(snowfleet.InvalidArgument, match="2\\^63"):
        snowfleet.parse_base62("zzzzzzzzzzz")
