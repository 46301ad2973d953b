"""Layout, compose, decode and parse_id from Python."""

from __future__ import annotations

import datetime as dt
import pickle
import re
from typing import Any, Dict

import pytest

import snowfleet
from snowfleet import InvalidArgument, Layout, compose, decode, parse_id


def test_presets() -> None:
    assert str(Layout.DEFAULT) == "41.10.12@1704067200000"
    assert str(Layout.TWITTER) == "41.5.5.12@1288834974657"
    assert str(Layout.DISCORD) == "41.5.5.12@1420070400000"
    assert Layout() == Layout.DEFAULT == Layout.parse("default") == Layout("41.10.12@1704067200000")
    assert Layout.TWITTER.preset == "twitter" and Layout.parse("41.10.12@0").preset == ""


def test_parse_split_layout_properties() -> None:
    layout = Layout.parse("41.5.5.12@1288834974657")
    assert layout == Layout.TWITTER
    assert (layout.epoch_ms, layout.timestamp_bits, layout.node_bits, layout.datacenter_bits,
            layout.machine_bits, layout.sequence_bits) == (1288834974657, 41, 10, 5, 5, 12)
    assert layout.split and not Layout.DEFAULT.split
    assert (layout.node_shift, layout.timestamp_shift) == (12, 22)
    assert (layout.max_node_id, layout.max_datacenter_id, layout.max_machine_id,
            layout.max_sequence) == (1023, 31, 31, 4095)
    assert layout.max_elapsed_ms == (1 << 41) - 1
    assert layout.max_timestamp_ms == 1288834974657 + (1 << 41) - 1
    assert layout.text == str(layout) and repr(layout) == "Layout('41.5.5.12@1288834974657')"


def test_create() -> None:
    assert Layout.create(epoch_ms=1704067200000, timestamp_bits=41, node_bits=10,
                         sequence_bits=12) == Layout.DEFAULT
    assert Layout.create(epoch_ms=1288834974657, timestamp_bits=41, datacenter_bits=5,
                         machine_bits=5, sequence_bits=12) == Layout.TWITTER
    # None is "not given", as leaving the field out.
    assert Layout.create(epoch_ms=1288834974657, timestamp_bits=41, node_bits=None,
                         datacenter_bits=5, machine_bits=5, sequence_bits=12) == Layout.TWITTER
    with pytest.raises(InvalidArgument) as info:
        Layout.create(epoch_ms=0, timestamp_bits=41, node_bits=10, sequence_bits=11)
    assert "63" in str(info.value)
    with pytest.raises(TypeError):
        Layout.create(epoch_ms=0, timestamp_bits=41.0, node_bits=10, sequence_bits=12)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Layout.create(epoch_ms=True, timestamp_bits=41, node_bits=10, sequence_bits=12)
    with pytest.raises(InvalidArgument):
        Layout.create(epoch_ms=0, timestamp_bits=1 << 40, node_bits=10, sequence_bits=12)


@pytest.mark.parametrize(
    "fields, named",
    [
        # Which fields go together is the core's rule (Layout::create(LayoutArgs)), the same
        # InvalidArgument in every language, not a Python TypeError.
        ({"timestamp_bits": 41, "sequence_bits": 12}, "node_bits, or datacenter_bits"),
        ({"timestamp_bits": 41, "node_bits": 10, "datacenter_bits": 5, "machine_bits": 5,
          "sequence_bits": 12}, "node_bits=10"),
        ({"timestamp_bits": 41, "machine_bits": 5, "sequence_bits": 12}, "machine_bits=5"),
        ({"node_bits": 10, "sequence_bits": 12}, "timestamp_bits"),
        ({"timestamp_bits": 41, "node_bits": 10}, "sequence_bits"),
        # A width no 32-bit int holds is checked as given, not wrapped into range.
        ({"timestamp_bits": 41, "node_bits": (1 << 32) + 10, "sequence_bits": 12}, "4294967306"),
    ],
)
def test_create_rules_are_the_cores(fields: Dict[str, Any], named: str) -> None:
    with pytest.raises(InvalidArgument, match=re.escape(named)):
        Layout.create(epoch_ms=0, **fields)
    with pytest.raises(InvalidArgument, match="epoch_ms"):
        Layout.create(**{**fields, "epoch_ms": None})


@pytest.mark.parametrize("text", ["", "41.10.12", "41.10.12@", "41.10.12@-1", "x", "41.10.13@0",
                                  "41.10.12@1704067200000 ", "1.2.3.4.5@0"])
def test_parse_rejects_malformed_text(text: str) -> None:
    with pytest.raises(InvalidArgument):
        Layout.parse(text)


def test_layout_type_errors() -> None:
    with pytest.raises(TypeError):
        Layout.parse(41)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        snowfleet.Generator(1, layout=41)  # type: ignore[arg-type]


def test_layout_is_an_immutable_hashable_value() -> None:
    a, b = Layout.TWITTER, Layout.parse("twitter")
    assert a == b and hash(a) == hash(b) and a is not b
    assert a != Layout.DISCORD and a != "twitter"
    assert len({a, b, Layout.DISCORD}) == 2
    assert pickle.loads(pickle.dumps(a)) == a
    with pytest.raises(AttributeError):
        a.epoch_ms = 0  # type: ignore[misc]
    with pytest.raises(AttributeError):
        a._native = Layout.DEFAULT._native


def test_decode_the_seed_literals() -> None:
    d = decode(141264821508263936)
    assert d == snowfleet.Decoded(timestamp_ms=1737747358021, node_id=37, datacenter_id=0,
                                  machine_id=37, sequence=0)
    assert d.datetime == dt.datetime(2025, 1, 24, 19, 35, 58, 21000, tzinfo=dt.timezone.utc)
    # The constant that ends in "37" is node 496, sequence 37 (001 section 4).
    assert decode(141264821510144037)[1:] == (496, 0, 496, 37)


def test_a_time_past_year_9999_is_timestamp_out_of_range_naming_it() -> None:
    d = decode(2**63 - 1, layout="52.0.11@0")
    assert d.timestamp_ms == 2**52 - 1
    with pytest.raises(snowfleet.TimestampOutOfRange,
                       match=r"timestamp_ms 4503599627370495 \(\+144683-05-23T16:29:30\.495Z\) "
                             r"is outside the years 1-9999 a datetime holds") as e:
        d.datetime  # noqa: B018
    assert e.value.__cause__ is None and e.value.__suppress_context__
    assert decode(0, layout="43.0.20@253402300799999").datetime.year == 9999


def test_decode_split_layout() -> None:
    d = decode(1724551110457221119, layout=Layout.TWITTER)
    assert (d.timestamp_ms, d.datacenter_id, d.machine_id, d.node_id, d.sequence) == (
        1700000000000, 7, 13, 237, 4095)
    assert decode(1724551110457221119, "twitter") == d


def test_decode_accepts_decimal_text() -> None:
    assert decode("141264821508263936") == decode(141264821508263936)
    assert decode("1724551110457221119", layout="twitter").machine_id == 13


@pytest.mark.parametrize("bad, exc", [(-1, InvalidArgument), (1 << 63, InvalidArgument),
                                      (-(1 << 64), InvalidArgument), (1.0, TypeError),
                                      ("-1", InvalidArgument), ("0x10", InvalidArgument),
                                      (b"141264821508263936", TypeError), (True, TypeError)])
def test_decode_rejects(bad: object, exc: type) -> None:
    with pytest.raises(exc):
        decode(bad)  # type: ignore[arg-type]


def test_compose_round_trips() -> None:
    assert compose(timestamp_ms=1737747358021, node_id=37) == 141264821508263936
    # An absent sequence is the core's default, 0; None is absent.
    assert compose(timestamp_ms=1737747358021, node_id=37, sequence=None) == 141264821508263936
    assert compose(timestamp_ms=1737747358021, node_id=496, sequence=37) == 141264821510144037
    assert compose(timestamp_ms=1700000000000, datacenter_id=7, machine_id=13, sequence=4095,
                   layout="twitter") == 1724551110457221119


def test_compose_rejects() -> None:
    with pytest.raises(snowfleet.TimestampOutOfRange):
        compose(timestamp_ms=0, node_id=1)
    with pytest.raises(InvalidArgument) as info:
        compose(timestamp_ms=1737747358021, node_id=1024)
    assert "1024" in str(info.value)
    with pytest.raises(InvalidArgument):
        compose(timestamp_ms=1737747358021, node_id=1, sequence=4096)
    with pytest.raises(InvalidArgument):
        compose(timestamp_ms=1737747358021, node_id=1, sequence=1 << 64)
    # Which node form was given is the core's rule (compose(NodeArgs)), as for generators.
    with pytest.raises(InvalidArgument, match="got none"):
        compose(timestamp_ms=1737747358021)
    with pytest.raises(InvalidArgument, match="node_id=1"):
        compose(timestamp_ms=1737747358021, node_id=1, datacenter_id=1, machine_id=1)
    with pytest.raises(InvalidArgument, match="machine_id"):
        compose(timestamp_ms=1737747358021, datacenter_id=1, layout="twitter")
    with pytest.raises(TypeError):
        compose(timestamp_ms=1737747358021.0, node_id=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        compose(timestamp_ms=1737747358021, node_id=False)


def test_parse_id() -> None:
    assert parse_id("141264821508263936") == 141264821508263936
    assert parse_id("9223372036854775807") == (1 << 63) - 1
    for bad in ["", "-1", "9223372036854775808", "12a", " 1", "1.0", "+1"]:
        with pytest.raises(InvalidArgument):
            parse_id(bad)
    with pytest.raises(TypeError):
        parse_id(12)  # type: ignore[arg-type]
