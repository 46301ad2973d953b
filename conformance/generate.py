#!/usr/bin/env python3
"""Writes conformance/vectors/*.json from the reference model, and checks them.

    python3 conformance/generate.py           # (re)write the vector files
    python3 conformance/generate.py --check   # exit 1 when a checked-in file is stale

Every expected value comes from model/snowfleet_model.py, or model/time_model.py for
time.json (whose cases are listed in time_cases.py), never from the core under test.
The seeds' worked examples and Working Python assertions are asserted here against the
model's results, so a vector that contradicts the seeds cannot be written.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "model"))

import snowfleet_model as m  # noqa: E402
from time_cases import time_cases  # noqa: E402  (time.json's cases, from model/time_model.py)
from id_space_cases import id_space_cases  # noqa: E402  (id spaces and window edges)
from differential_cases import differential_cases  # noqa: E402  (found by the differential test)
from argument_cases import argument_cases  # noqa: E402  (arguments.json: the rulebook as data)

VECTORS = HERE / "vectors"
SCHEMA_VERSION = 1
E = 1704067200000  # the default epoch, 2024-01-01T00:00:00Z
DEFAULT = "41.10.12@1704067200000"
TWITTER = "41.5.5.12@1288834974657"
U64 = 1 << 64


def s(v: int) -> str:
    return str(v)


def error_of(exc: m.ModelError, drift: bool = False, contains=None) -> dict:
    out = {"error": exc.code}
    if drift:
        out["drift_ms"] = exc.drift_ms
    if contains:
        out["message_contains"] = contains
    return out


def run_summary(ids, layout: m.Layout) -> dict:
    out = {"count": len(ids), "strictly_increasing": all(a < b for a, b in zip(ids, ids[1:])),
           "sum": str(sum(ids) % U64)}
    if ids:
        out["first"] = str(ids[0])
        out["last"] = str(ids[-1])
        out["max_sequence"] = max(i & layout.max_sequence for i in ids)
    return out


# --------------------------------------------------------------------------- layout cases


def layout_cases():
    cases = []

    def parse(cid, text, source, contains=None):
        try:
            expect = m.Layout.parse(text).describe()
        except m.ModelError as e:
            expect = error_of(e, contains=contains)
        cases.append({"id": cid, "source": source, "op": "parse", "text": text, "expect": expect})
        return expect

    d = parse("layout.parse.default_preset", "default",
              "001 section 11: 1 | 41 | 10 | 12, epoch 2024-01-01 (bit layout assertions)")
    # The seed's bit-layout assertions, on the model's answer.
    assert d["max_node_id"] == 1023 and d["max_sequence"] == 4095
    assert d["max_elapsed_ms"] == "2199023255551"
    assert d["timestamp_shift"] == 22 and d["node_shift"] == 12
    parse("layout.parse.default_text", DEFAULT, "001 section 5: the 41/10/12 layout")
    t = parse("layout.parse.twitter_preset", "twitter",
              "000: Twitter epoch 1288834974657, 41 / 5 dc + 5 machine / 12")
    assert t["text"] == TWITTER and t["max_datacenter_id"] == 31 and t["max_machine_id"] == 31
    parse("layout.parse.twitter_text", TWITTER, "000: the 4-field text form")
    parse("layout.parse.discord_preset", "discord", "issue 2: discord preset, epoch 1420070400000")
    parse("layout.parse.discord_text", "41.5.5.12@1420070400000", "issue 2: discord preset")
    parse("layout.parse.zero_datacenter_is_unsplit", "41.0.10.12@1704067200000",
          "a 0-bit datacenter field is the unsplit layout (canonical text has 3 fields)")
    parse("layout.parse.seed_42_8_13", "42.8.13@1704067200000",
          "001 section 5a: 42/8/13 gives 139 years, 256 nodes, 8,192 ids per ms")
    parse("layout.parse.seed_41_12_10", "41.12.10@1704067200000",
          "001 section 9: 41/12/10, 4,096 nodes at 1,024 ids per ms")
    parse("layout.parse.seed_41_6_16", "41.6.16@1704067200000",
          "003: 6 worker bits and 16 sequence bits for 50k ids/ms bursts")
    parse("layout.parse.unix_epoch", "41.10.12@0", "001 section 5a: the Unix epoch exhausts in 2039")
    parse("layout.parse.max_timestamp_bits", "52.0.11@0",
          "52 timestamp bits, the most a layout allows (timestamps stay below 2^53)")
    parse("layout.parse.no_node_bits", "41.0.22@1704067200000", "a single-node layout")
    parse("layout.parse.no_sequence_bits", "52.11.0@1704067200000", "one id per ms per node")
    parse("layout.parse.max_epoch", "41.10.12@253402300799999", "the latest allowed epoch")
    for cid, text, why in [
        ("layout.parse.sum_64", "41.10.13@1704067200000", "fields must add up to 63 (the "
                                                          "message quotes the text)"),
        ("layout.parse.sum_62", "41.10.11@1704067200000", "fields must add up to 63"),
        ("layout.parse.two_fields", "41.22@1704067200000", "3 or 4 fields"),
        ("layout.parse.five_fields", "41.5.5.6.6@1704067200000", "3 or 4 fields"),
        ("layout.parse.no_epoch", "41.10.12", "the epoch is required"),
        ("layout.parse.negative_epoch", "41.10.12@-1", "epochs are >= 0"),
        ("layout.parse.epoch_small", "41.10.12@2024", "the epoch is in ms, a plain integer "
                                                     "(2024 is accepted as 2024 ms)"),
        ("layout.parse.epoch_text", "41.10.12@abc", "the epoch must be digits"),
        ("layout.parse.epoch_too_late", "41.10.12@253402300800000", "epochs end in year 9999"),
        ("layout.parse.timestamp_bits_53", "53.0.10@0", "at most 52 timestamp bits: with the "
                                                        "latest epoch, 53 would pass 2^53 ms"),
        ("layout.parse.timestamp_bits_0", "0.51.12@0", "at least 1 timestamp bit"),
        ("layout.parse.letters", "a.b.c@1", "bit widths are integers"),
        ("layout.parse.empty", "", "empty text"),
        ("layout.parse.unknown_preset", "snowflake", "unknown preset name"),
        ("layout.parse.trailing_space", "41.10.12@1704067200000 ", "no surrounding whitespace"),
        ("layout.parse.sign", "+41.10.12@1704067200000", "no signs"),
    ]:
        r = parse(cid, text, why, contains=[text] if text else None)  # messages quote the text
        assert "error" in r or cid == "layout.parse.epoch_small", cid

    def create(cid, source, epoch, ts, seq, node=None, dc=None, machine=None):
        case = {"id": cid, "source": source, "op": "create", "epoch_ms": s(epoch),
                "timestamp_bits": ts}
        try:
            if dc is None:
                case["node_bits"] = node
                lay = m.Layout.create(epoch, ts, node, seq)
            else:
                case["datacenter_bits"], case["machine_bits"] = dc, machine
                lay = m.Layout.create_split(epoch, ts, dc, machine, seq)
            expect = lay.describe()
        except m.ModelError as e:
            expect = error_of(e)
        case["sequence_bits"] = seq
        case["expect"] = expect
        cases.append(case)

    create("layout.create.default", "issue 2: the default layout from its fields", E, 41, 12, node=10)
    create("layout.create.twitter", "000: the Twitter layout from its fields", 1288834974657, 41, 12,
           dc=5, machine=5)
    create("layout.create.split_needs_datacenter_bits", "a split layout has >= 1 datacenter bit",
           E, 41, 12, dc=0, machine=10)
    create("layout.create.sum_mismatch", "fields must add up to 63", E, 41, 12, node=11)
    create("layout.create.negative_bits", "bit widths are >= 0", E, 41, 23, node=-1)
    create("layout.create.negative_epoch", "epochs are >= 0", -1, 41, 12, node=10)
    return cases


# --------------------------------------------------------------------------- codec cases


def codec_cases():
    cases = []

    def compose(cid, source, layout, ts, seq, node=None, dc=None, machine=None):
        lay = m.Layout.parse(layout)
        case = {"id": cid, "source": source, "op": "compose", "layout": layout,
                "timestamp_ms": s(ts)}
        try:
            if dc is None:
                case["node_id"] = node
                expect = {"id": s(m.compose(lay, ts, node, seq))}
            else:
                case["datacenter_id"], case["machine_id"] = dc, machine
                expect = {"id": s(m.compose_split(lay, ts, dc, machine, seq))}
        except m.ModelError as e:
            expect = error_of(e)
        case["sequence"] = seq
        case["expect"] = expect
        cases.append(case)
        return expect

    def decode(cid, source, layout, id_text):
        lay = m.Layout.parse(layout)
        try:
            d = m.decode(lay, int(id_text))
            expect = {k: (s(v) if k == "timestamp_ms" else v) for k, v in d.items()}
        except m.ModelError as e:
            expect = error_of(e)
        cases.append({"id": cid, "source": source, "op": "decode", "layout": layout,
                      "value": id_text, "expect": expect})
        return expect

    r = compose("codec.seed001.api_sketch_literal", "001 sections 4-5: node 37 at 1737747358021",
                DEFAULT, 1737747358021, 0, node=37)
    assert r == {"id": "141264821508263936"}
    r = decode("codec.seed001.api_sketch_decode", "001 section 4: decode(141264821508263936)",
               DEFAULT, "141264821508263936")
    assert r == {"timestamp_ms": "1737747358021", "node_id": 37, "datacenter_id": 0,
                 "machine_id": 37, "sequence": 0}
    r = decode("codec.seed001.ends_in_37_is_node_496",
               "001 section 4: 141264821510144037 decodes to node 496, sequence 37",
               DEFAULT, "141264821510144037")
    assert r["timestamp_ms"] == "1737747358021" and r["node_id"] == 496 and r["sequence"] == 37
    r = compose("codec.seed001.node_496_seq_37", "001 section 4: the same id from its fields",
                DEFAULT, 1737747358021, 37, node=496)
    assert r == {"id": "141264821510144037"}
    r = compose("codec.seed000.twitter_worked_example",
                "000: 1700000000000 ms, dc 7, machine 13, seq 4095 -> 1724551110457221119",
                TWITTER, 1700000000000, 4095, dc=7, machine=13)
    assert r == {"id": "1724551110457221119"}
    r = decode("codec.seed000.twitter_decode", "000: decoding 1724551110457221119 (and back)",
               TWITTER, "1724551110457221119")
    assert r == {"timestamp_ms": "1700000000000", "node_id": 237, "datacenter_id": 7,
                 "machine_id": 13, "sequence": 4095}
    r = compose("codec.seed000.twitter_timestamp_part",
                "000: 411165025343 << 22 = 1724551110456246272", TWITTER, 1700000000000, 0,
                dc=0, machine=0)
    assert r == {"id": "1724551110456246272"}
    compose("codec.seed000.twitter_as_node_id", "000: dc 7 / machine 13 is node 7 << 5 | 13 = 237",
            TWITTER, 1700000000000, 4095, node=237)
    compose("codec.seed000.twitter_preset_name", "000: the preset by name", "twitter",
            1700000000000, 4095, dc=7, machine=13)
    compose("codec.seed001.max_node_positive", "001 section 11: node 1023 at epoch + 1 stays positive",
            DEFAULT, E + 1, 0, node=1023)
    compose("codec.epoch_itself", "the epoch is the first representable ms", DEFAULT, E, 0, node=0)
    compose("codec.last_ms_of_window", "the last representable ms, all fields at maximum", DEFAULT,
            E + (1 << 41) - 1, 4095, node=1023)
    decode("codec.decode_max_int64", "2^63 - 1 decodes (all fields at maximum)", DEFAULT,
           "9223372036854775807")
    decode("codec.decode_zero", "0 is the epoch, node 0, sequence 0", DEFAULT, "0")
    compose("codec.discord_layout", "issue 2: discord preset", "discord", 1420070400000 + 123456,
            7, dc=1, machine=2)
    compose("codec.layout_42_8_13", "001 section 5a: 42/8/13", "42.8.13@1704067200000",
            E + (1 << 41) + 5, 8191, node=255)
    compose("codec.layout_41_6_16", "003: 6 node bits + 16 sequence bits", "41.6.16@1704067200000",
            E + 77, 65535, node=63)
    decode("codec.decode_split_other_epoch", "decode with a split layout", "discord",
           "1234567890123456789")
    # Rejections: nothing is masked.
    compose("codec.error.timestamp_before_epoch", "000: inputs before the epoch are rejected",
            DEFAULT, E - 1, 0, node=1)
    compose("codec.error.timestamp_past_window", "the window ends at epoch + 2^41 - 1", DEFAULT,
            E + (1 << 41), 0, node=1)
    compose("codec.error.timestamp_negative", "negative timestamps are rejected", DEFAULT,
            -5, 0, node=1)
    compose("codec.error.node_too_large", "000/issue 2: node ids above the field are rejected",
            DEFAULT, E, 0, node=1024)
    cases[-1]["expect"]["message_contains"] = ["1024"]
    compose("codec.error.node_negative", "negative node ids are rejected", DEFAULT, E, 0, node=-1)
    compose("codec.error.sequence_too_large", "sequence above 4095 is rejected", DEFAULT, E, 4096,
            node=1)
    cases[-1]["expect"]["message_contains"] = ["4096"]
    compose("codec.error.sequence_negative", "negative sequence is rejected", DEFAULT, E, -1, node=1)
    compose("codec.error.datacenter_too_large", "000: datacenter ids are 0..31", TWITTER,
            1700000000000, 0, dc=32, machine=0)
    compose("codec.error.machine_too_large", "000: machine ids are 0..31", TWITTER, 1700000000000,
            0, dc=0, machine=32)
    compose("codec.error.datacenter_negative", "negative datacenter ids are rejected", TWITTER,
            1700000000000, 0, dc=-1, machine=0)
    compose("codec.error.split_on_unsplit_layout", "an unsplit layout has a 0-bit datacenter field",
            DEFAULT, E, 0, dc=1, machine=0)
    compose("codec.error.timestamp_checked_first", "with several bad fields, the timestamp is "
            "reported first (field order)", DEFAULT, E - 1, 4096, node=1024)
    decode("codec.error.decode_negative", "negative ids are rejected", DEFAULT, "-1")
    decode("codec.error.decode_above_int64", "ids above 2^63 - 1 are rejected, not wrapped",
           DEFAULT, "9223372036854775808")
    decode("codec.error.decode_far_above_int64", "ids far above 2^63 - 1 are rejected", DEFAULT,
           "18446744073709551616")

    for cid, text, why in [
        ("codec.parse_id.zero", "0", "zero is an id"),
        ("codec.parse_id.seed_literal", "141264821508263936", "001: the API sketch literal"),
        ("codec.parse_id.max_int64", "9223372036854775807", "2^63 - 1"),
        ("codec.parse_id.leading_zeros", "00012", "digits only; leading zeros are harmless"),
        ("codec.parse_id.above_int64", "9223372036854775808", "2^63 does not fit"),
        ("codec.parse_id.twenty_digits", "10000000000000000000", "20 digits never fit"),
        ("codec.parse_id.negative", "-5", "ids are non-negative"),
        ("codec.parse_id.plus_sign", "+5", "no signs"),
        ("codec.parse_id.empty", "", "empty text"),
        ("codec.parse_id.letters", "12a", "digits only"),
        ("codec.parse_id.space", " 12", "no whitespace"),
        ("codec.parse_id.float", "1.5e3", "no floats"),
    ]:
        try:
            expect = {"id": s(m.parse_id(text))}
        except m.ModelError as e:
            expect = error_of(e)
        cases.append({"id": cid, "source": why, "op": "parse_id", "text": text, "expect": expect})
    return cases


# --------------------------------------------------------------------------- scenarios


class Scenario:
    """Builds one scenario case while running it through the model."""

    def __init__(self, cid: str, source: str):
        self.case = {"id": cid, "source": source, "generators": [], "steps": []}
        self.gens = {}
        self.specs = {}
        self.clocks = {}

    def gen(self, name="g", layout=DEFAULT, node_id=7, mode="strict", max_wait_ms=5.0,
            max_drift_ms=1000, clock=None, clock_of=None, deferred=False):
        """A generator on its own scripted clock (`clock`) or on another generator's clock
        object (`clock_of`: one time, so one id space for the same node bits). A `deferred`
        one is constructed by an `open` step."""
        spec = {"name": name, "layout": layout, "node_id": node_id, "mode": mode,
                "max_wait_ms": max_wait_ms, "max_drift_ms": max_drift_ms}
        if clock_of is not None:
            spec["clock_of"] = clock_of
        else:
            spec["clock"] = clock
        if deferred:
            spec["deferred"] = True
        self.case["generators"].append(spec)
        self.specs[name] = spec
        try:
            self.clocks[name] = (self.clocks[clock_of] if clock_of is not None
                                 else m.ScriptedClock(clock))
        except m.ModelError as e:
            assert not deferred
            spec["expect_construct_error"] = error_of(e)
            return None
        return None if deferred else self._construct(name, record_error=True)

    def _construct(self, name, record_error):
        spec = self.specs[name]
        try:
            g = m.Generator(m.Layout.parse(spec["layout"]), spec["node_id"], spec["mode"],
                            spec["max_wait_ms"], spec["max_drift_ms"], self.clocks[name])
            self.gens[name] = g
            return g
        except m.ModelError as e:
            if not record_error:
                raise
            spec["expect_construct_error"] = error_of(e)
            return None

    def open(self, gen, contains=None):
        try:
            self._construct(gen, record_error=False)
            return self._step(gen, "open", {})
        except m.ModelError as e:
            return self._step(gen, "open", error_of(e, contains=contains))

    def close(self, gen="g"):
        self.gens[gen].close()
        return self._step(gen, "close", {})

    def _step(self, gen, op, expect, **fields):
        step = {"gen": gen, "op": op}
        step.update(fields)
        step["expect"] = expect
        self.case["steps"].append(step)
        return expect

    def next_id(self, gen="g", drift=False, contains=None):
        g = self.gens[gen]
        try:
            return self._step(gen, "next_id", {"id": s(g.next_id())})
        except m.ModelError as e:
            return self._step(gen, "next_id", error_of(e, drift, contains))

    def repeat(self, n, gen="g"):
        g = self.gens[gen]
        ids = [g.next_id() for _ in range(n)]
        self._step(gen, "next_id", run_summary(ids, g.layout), repeat=n)
        return ids

    def batch(self, n, gen="g", drift=False):
        g = self.gens[gen]
        try:
            ids = g.next_ids(n)
            self._step(gen, "next_ids", run_summary(ids, g.layout), n=n)
            return ids
        except m.ModelError as e:
            self._step(gen, "next_ids", error_of(e, drift), n=n)
            return None

    def stats(self, gen="g"):
        return self._step(gen, "stats", self.gens[gen].stats_view())

    def status(self, gen="g"):
        return self._step(gen, "status", self.gens[gen].status())

    def drift(self, gen="g"):
        return self._step(gen, "drift", {"drift_ms": self.gens[gen].drift()})

    def clock(self, gen="g"):
        return self._step(gen, "clock", self.clocks[gen].describe())


def seg(ms, count=None, step_ms=None, every=None):
    out = {"ms": s(ms)}
    if count is not None:
        out["count"] = count
    if step_ms is not None:
        out["step_ms"] = step_ms
    if every is not None:
        out["every"] = every
    return out


def scripted(values):
    """The seed's scripted_clock(values): the values, then +1 ms per read."""
    segs = [seg(v) for v in values]
    segs[-1]["step_ms"] = 1
    return segs


def decode_default(value):
    return m.decode(m.Layout.parse(DEFAULT), int(value))


def scenario_cases():
    out = []

    # --- seeds 001 section 11, in order -------------------------------------------------
    sc = Scenario("seed.node_1023_positive",
                  "001 section 11: node 1023 on a clock at epoch + 1 stays positive and decodes")
    sc.gen(node_id=1023, clock=[seg(E + 1)])
    one = int(sc.next_id()["id"])
    assert one < (1 << 63)
    assert decode_default(one)["node_id"] == 1023 and decode_default(one)["timestamp_ms"] == E + 1
    out.append(sc.case)

    sc = Scenario("seed.monotone_within_ms", "001 section 11: five ids in one ms, sequence 0..4")
    sc.gen(clock=scripted([E] * 5))
    ids = [int(sc.next_id()["id"]) for _ in range(5)]
    assert ids == sorted(ids) and len(set(ids)) == 5
    assert [decode_default(i)["sequence"] for i in ids] == [0, 1, 2, 3, 4]
    sc.stats()
    out.append(sc.case)

    sc = Scenario("seed.monotone_across_ms", "001 section 11: monotonicity across milliseconds")
    sc.gen(clock=scripted([E, E, E + 1]))
    ids = [int(sc.next_id()["id"]) for _ in range(3)]
    assert ids == sorted(ids) and len(set(ids)) == 3
    out.append(sc.case)

    sc = Scenario("seed.api_sketch_literal",
                  "001 section 11: node 37 at 1737747358021 issues 141264821508263936")
    sc.gen(node_id=37, clock=[seg(1737747358021)])
    assert sc.next_id() == {"id": "141264821508263936"}
    out.append(sc.case)

    sc = Scenario("seed.large_rewind_refused",
                  "001 section 11: a 600 ms rewind is refused, not absorbed; the refusal changes "
                  "no state, so the next call is refused too (Twitter snowflake issue #6)")
    sc.gen(max_wait_ms=5.0, clock=scripted([E + 1000, E + 400]))
    sc.next_id()
    r = sc.next_id(drift=True, contains=["600"])
    assert r["error"] == "CLOCK_MOVED_BACKWARDS" and r["drift_ms"] == 600
    r = sc.next_id(drift=True)
    assert r["error"] == "CLOCK_MOVED_BACKWARDS" and r["drift_ms"] == 599
    sc.stats()
    sc.status()
    sc.clock()
    out.append(sc.case)

    sc = Scenario("seed.small_rewind_waited_out",
                  "001 section 11: a 2 ms rewind is waited out and continues at sequence 1")
    sc.gen(max_wait_ms=5.0, clock=scripted([E + 1000, E + 998, E + 1000]))
    one, two = int(sc.next_id()["id"]), int(sc.next_id()["id"])
    assert two > one
    assert decode_default(two)["timestamp_ms"] == E + 1000 and decode_default(two)["sequence"] == 1
    sc.stats()
    c = sc.clock()
    assert c["sleep_count"] == 1 and c["slept_ns"] == str(2 * m.NS_PER_MS)
    out.append(sc.case)

    sc = Scenario("seed.retreating_clock_bounded",
                  "001 section 11: a clock retreating 4 ms per read passes every per-sample drift "
                  "test; the call still ends within the 5 ms budget instead of hanging")
    sc.gen(max_wait_ms=5.0, clock=[seg(E + 1_000_000, step_ms=-4)])
    sc.next_id()
    r = sc.next_id(drift=True)
    assert r["error"] == "CLOCK_MOVED_BACKWARDS"
    c = sc.clock()
    assert int(c["slept_ns"]) <= 5 * m.NS_PER_MS  # the seed allows < 50 ms of real time
    sc.stats()
    out.append(sc.case)

    sc = Scenario("seed.retreating_clock_deadline",
                  "001 section 8: a clock retreating 1 ms per 2 reads stays inside the per-sample "
                  "budget for a while; the one deadline ends the call after 5 ms of waiting")
    sc.gen(max_wait_ms=5.0, clock=[seg(E + 1000, count=1), seg(E + 999, step_ms=-1, every=3)])
    sc.next_id()
    r = sc.next_id(drift=True)
    assert r["error"] == "CLOCK_MOVED_BACKWARDS"
    c = sc.clock()
    assert c["slept_ns"] == str(5 * m.NS_PER_MS)
    sc.stats()
    out.append(sc.case)

    sc = Scenario("seed.exhaustion_rolls_to_next_ms",
                  "001 section 11: the last sequence of a ms is issued, then the next call sleeps "
                  "(never spins) until the clock reaches the next ms and restarts at sequence 0")
    sc.gen(clock=[seg(E + 9, count=4095 + 3), seg(E + 10, count=4)])
    sc.repeat(4095)
    last = int(sc.next_id()["id"])
    assert decode_default(last)["sequence"] == 4095
    rolled = int(sc.next_id()["id"])
    assert decode_default(rolled)["timestamp_ms"] == E + 10
    assert decode_default(rolled)["sequence"] == 0
    c = sc.clock()
    assert c["sleep_count"] >= 1 and 0 < int(c["max_sleep_ns"]) <= m.NS_PER_MS
    assert int(c["min_sleep_ns"]) > 0
    sc.stats()
    out.append(sc.case)

    sc = Scenario("seed.frozen_clock_refuses_call_4097",
                  "001 section 11: a frozen clock issues 4,096 ids, then call 4,097 raises "
                  "ClockMovedBackwards within the budget instead of blocking")
    sc.gen(node_id=1, clock=[seg(E + 5)])
    ids = sc.repeat(4096)
    assert len(set(ids)) == 4096 and ids == sorted(ids)
    r = sc.next_id(drift=True)
    assert r == {"error": "CLOCK_MOVED_BACKWARDS", "drift_ms": 0}
    c = sc.clock()
    assert c["slept_ns"] == str(5 * m.NS_PER_MS)
    sc.stats()
    sc.status()
    out.append(sc.case)

    # Same, then the clock moves: the refused calls changed nothing (the seed's own
    # _wait_next_ms bumps the sequence before raising; a retry would reissue sequence 1).
    probe = m.Generator(m.Layout.parse(DEFAULT), 1, clock=m.ScriptedClock([seg(E + 5)]))
    for _ in range(4096):
        probe.next_id()
    for _ in range(2):
        try:
            probe.next_id()
        except m.ModelError:
            pass
    frozen_reads = probe.clock.reads
    sc = Scenario("strict.exhaustion.refusal_changes_nothing",
                  "004 / Twitter snowflake issue #6: after call 4,097 is refused on a frozen "
                  "clock, a retry is refused again (not sequence 1 reissued) and once the clock "
                  "moves the next id starts the new ms at sequence 0")
    sc.gen(node_id=1, clock=[seg(E + 5, count=frozen_reads), seg(E + 6, step_ms=1)])
    sc.repeat(4096)
    assert sc.next_id(drift=True)["error"] == "CLOCK_MOVED_BACKWARDS"
    assert sc.next_id(drift=True)["error"] == "CLOCK_MOVED_BACKWARDS"
    nxt = int(sc.next_id()["id"])
    assert decode_default(nxt)["timestamp_ms"] == E + 6 and decode_default(nxt)["sequence"] == 0
    sc.stats()
    out.append(sc.case)

    sc = Scenario("seed.monotonic_frozen_50000",
                  "001 section 11: MonotonicSnowflake on a frozen clock: 50,000 unique sorted ids, "
                  "no error, about 12 ms ahead of the wall clock")
    sc.gen(node_id=1, mode="monotonic", clock=[seg(E + 5)])
    ids = sc.repeat(50_000)
    assert len(set(ids)) == 50_000 and ids == sorted(ids)
    st = sc.stats()
    assert st["ms_borrowed"] == 12
    d = sc.drift()
    assert d["drift_ms"] == 12
    out.append(sc.case)

    sc = Scenario("seed.monotonic_frozen_10000_borrows",
                  "001 section 11: 10,000 ids on a frozen clock run from +77 to +79 ms and use the "
                  "whole sequence space")
    sc.gen(node_id=9, mode="monotonic", clock=[seg(E + 77)])
    ids = sc.repeat(10_000)
    assert len(set(ids)) == 10_000 and ids == sorted(ids)
    assert decode_default(ids[0])["timestamp_ms"] == E + 77
    assert decode_default(ids[-1])["timestamp_ms"] == E + 79
    assert max(decode_default(i)["sequence"] for i in ids) == 4095
    sc.stats()
    out.append(sc.case)

    sc = Scenario("seed.monotonic_sequence_resets_each_ms",
                  "001 section 11 (c): two ids per ms for 9,000 calls: the sequence resets every "
                  "ms, so it never exceeds 1")
    sc.gen(node_id=9, mode="monotonic", clock=[seg(E, step_ms=1, every=2)])
    ids = sc.repeat(9000)
    assert max(decode_default(i)["sequence"] for i in ids) == 1
    sc.stats()
    out.append(sc.case)

    sc = Scenario("seed.monotonic_absorbs_rewind",
                  "001 section 11: MonotonicSnowflake absorbs a 600 ms rewind with no error and no "
                  "duplicate, running ahead of the wall clock")
    sc.gen(node_id=9, mode="monotonic", clock=[seg(E + 1000), seg(E + 400), seg(E + 401)])
    a, b, c = (int(sc.next_id()["id"]) for _ in range(3))
    assert a < b < c
    assert decode_default(b)["timestamp_ms"] == E + 1000 and decode_default(b)["sequence"] == 1
    sc.stats()
    st = sc.status()
    assert st["healthy"] and st["drift_ms"] == 599
    out.append(sc.case)

    sc = Scenario("seed.two_nodes_same_ms",
                  "001 section 11: two nodes at the same millisecond never collide")
    sc.gen(name="a", node_id=1, clock=[seg(E + 99)])
    sc.gen(name="b", node_id=2, clock=[seg(E + 99)])
    ia, ib = sc.next_id("a")["id"], sc.next_id("b")["id"]
    assert ia != ib
    out.append(sc.case)

    # --- strict mode beyond the seed ------------------------------------------------------
    sc = Scenario("strict.max_wait_zero_refuses_any_rewind",
                  "001 section 11: with max_wait_ms = 0 every rewind is above the budget")
    sc.gen(max_wait_ms=0.0, clock=[seg(E + 1000), seg(E + 999), seg(E + 1000), seg(E + 1001)])
    sc.next_id()
    assert sc.next_id(drift=True) == {"error": "CLOCK_MOVED_BACKWARDS", "drift_ms": 1}
    sc.next_id()
    sc.next_id()
    sc.stats()
    out.append(sc.case)

    sc = Scenario("strict.max_wait_zero_still_rolls_over",
                  "a spent millisecond still gets up to 1 ms to roll over when max_wait_ms = 0")
    sc.gen(max_wait_ms=0.0, clock=[seg(E + 1, count=4097), seg(E + 2)])
    sc.repeat(4096)
    r = sc.next_id()
    assert decode_default(r["id"])["timestamp_ms"] == E + 2
    sc.clock()
    out.append(sc.case)

    sc = Scenario("strict.fractional_budget",
                  "max_wait_ms may be fractional: 2.5 waits out 2 ms and refuses 3 ms")
    sc.gen(max_wait_ms=2.5, clock=[seg(E + 100), seg(E + 98), seg(E + 100), seg(E + 97),
                                   seg(E + 101)])
    sc.next_id()
    sc.next_id()
    assert sc.next_id(drift=True) == {"error": "CLOCK_MOVED_BACKWARDS", "drift_ms": 3}
    sc.next_id()
    sc.stats()
    sc.clock()
    out.append(sc.case)

    sc = Scenario("strict.rewind_then_advance",
                  "004: rewind then advance: ids refused during the rewind, then resume strictly "
                  "above everything issued before")
    sc.gen(clock=[seg(E + 500, count=3), seg(E + 200, count=3, step_ms=1), seg(E + 501, step_ms=1)])
    before = sc.repeat(3)
    for _ in range(3):
        sc.next_id(drift=True)
    after = sc.repeat(3)
    assert min(after) > max(before)
    sc.stats()
    out.append(sc.case)

    sc = Scenario("strict.batch_crosses_milliseconds",
                  "next_ids(10000) on a ticking clock fills 4,096 per ms, ascending")
    sc.gen(clock=[seg(E + 1000, step_ms=1)])
    ids = sc.batch(10_000)
    assert ids == sorted(ids) and len(set(ids)) == 10_000
    sc.stats()
    sc.clock()
    out.append(sc.case)

    sc = Scenario("strict.batch_waits_for_next_ms",
                  "a batch larger than what is left of the ms waits (bounded) for the next ms")
    sc.gen(clock=[seg(E + 7, count=3), seg(E + 8, count=3), seg(E + 9, step_ms=1)])
    sc.next_id()
    ids = sc.batch(4096)
    assert ids == sorted(ids)
    sc.stats()
    sc.clock()
    out.append(sc.case)

    sc = Scenario("strict.batch_frozen_clock_refused",
                  "a batch that cannot complete on a frozen clock is refused; its reserved ids "
                  "are skipped, never reissued")
    sc.gen(clock=[seg(E + 3, count=200), seg(E + 4, step_ms=1)])
    sc.batch(5000, drift=True)
    after = sc.next_id()
    sc.stats()
    out.append(sc.case)

    sc = Scenario("strict.batch_sizes",
                  "next_ids(0) is empty; sizes above 2^24 or negative are invalid arguments")
    sc.gen(clock=[seg(E + 1, step_ms=1)])
    sc.batch(0)
    sc.batch(1)
    sc.batch((1 << 24) + 1)
    sc.batch(-1)
    sc.stats()
    out.append(sc.case)

    sc = Scenario("strict.clock_before_epoch",
                  "a wall clock before the layout's epoch refuses with TimestampOutOfRange")
    sc.gen(clock=[seg(E - 1), seg(E)])
    sc.next_id()
    sc.next_id()
    sc.stats()
    out.append(sc.case)

    sc = Scenario("strict.clock_past_window",
                  "past the end of the timestamp window the generator refuses, it never wraps")
    small = "33.10.20@1704067200000"
    end = E + (1 << 33) - 1
    sc.gen(layout=small, clock=[seg(end), seg(end + 1)])
    sc.next_id()
    sc.next_id()
    sc.status()
    out.append(sc.case)

    sc = Scenario("strict.twitter_layout_generator",
                  "000: a generator on the Twitter layout as node 237 (datacenter 7, machine 13)")
    sc.gen(layout=TWITTER, node_id=237, clock=[seg(1700000000000)])
    first = sc.next_id()
    dd = m.decode(m.Layout.parse(TWITTER), int(first["id"]))
    assert dd["datacenter_id"] == 7 and dd["machine_id"] == 13
    sc.repeat(4095)
    out.append(sc.case)

    sc = Scenario("strict.status_tracks_the_clock",
                  "status(): healthy on a good clock, unhealthy while a rewind exceeds the "
                  "budget, healthy again once the clock catches up")
    sc.gen(clock=[seg(E + 1000), seg(E + 1000), seg(E + 900), seg(E + 997), seg(E + 1001)])
    sc.next_id()
    assert sc.status()["healthy"]
    assert not sc.status()["healthy"]
    assert sc.status()["healthy"]
    sc.status()
    out.append(sc.case)

    sc = Scenario("strict.fresh_generator_status",
                  "a generator that has issued nothing is healthy with last_ms -1")
    sc.gen(clock=[seg(E + 10)])
    sc.status()
    sc.drift()
    sc.stats()
    out.append(sc.case)

    # --- monotonic mode beyond the seed ---------------------------------------------------
    sc = Scenario("monotonic.drift_limit_waits_then_refuses",
                  "issue 2: max_drift_ms bounds how far the logical clock runs ahead; on a frozen "
                  "clock it waits out the budget, then refuses")
    sc.gen(mode="monotonic", max_drift_ms=2, clock=[seg(E + 50)])
    ids = sc.repeat(3 * 4096)
    assert ids == sorted(ids)
    r = sc.next_id(drift=True)
    assert r["error"] == "CLOCK_MOVED_BACKWARDS" and r["drift_ms"] == 3
    sc.stats()
    sc.drift()
    sc.clock()
    out.append(sc.case)

    sc = Scenario("monotonic.drift_limit_waits_for_clock",
                  "at the drift limit on a moving clock the generator waits for the wall clock "
                  "and continues")
    sc.gen(mode="monotonic", max_drift_ms=1, clock=[seg(E + 50, count=2 * 4096 + 1),
                                                   seg(E + 51, step_ms=1)])
    ids = sc.repeat(2 * 4096 + 10)
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    sc.stats()
    sc.clock()
    out.append(sc.case)

    sc = Scenario("monotonic.large_rewind_beyond_drift_refused",
                  "a rewind larger than max_drift_ms + max_wait_ms is refused at once")
    sc.gen(mode="monotonic", max_drift_ms=10, clock=[seg(E + 1000), seg(E + 400), seg(E + 995),
                                                     seg(E + 1000)])
    sc.next_id()
    r = sc.next_id(drift=True)
    assert r == {"error": "CLOCK_MOVED_BACKWARDS", "drift_ms": 600}
    sc.next_id()
    sc.next_id()
    sc.stats()
    sc.status()
    out.append(sc.case)

    sc = Scenario("monotonic.leap_second_absorbed",
                  "the default max_drift_ms (1000) absorbs a 1-second step back")
    sc.gen(mode="monotonic", clock=[seg(E + 5000), seg(E + 4000, step_ms=1)])
    sc.next_id()
    sc.repeat(10)
    assert sc.status()["healthy"]
    sc.stats()
    out.append(sc.case)

    sc = Scenario("monotonic.batch_borrows_within_drift",
                  "next_ids(10000) on a frozen clock borrows 2 ms with one state update")
    sc.gen(mode="monotonic", clock=[seg(E + 20)])
    ids = sc.batch(10_000)
    assert ids == sorted(ids)
    sc.stats()
    sc.clock()
    out.append(sc.case)

    sc = Scenario("monotonic.batch_at_drift_limit_waits",
                  "a batch that would run past max_drift_ms takes what fits, waits for the clock, "
                  "then continues")
    sc.gen(mode="monotonic", max_drift_ms=1,
           clock=[seg(E + 20, count=2), seg(E + 21, step_ms=1)])
    ids = sc.batch(20_000)
    assert ids == sorted(ids) and len(set(ids)) == 20_000
    sc.stats()
    sc.clock()
    out.append(sc.case)

    sc = Scenario("monotonic.window_end_refused",
                  "the logical clock cannot borrow past the end of the window")
    small = "33.10.20@1704067200000"
    end = E + (1 << 33) - 1
    sc.gen(layout=small, mode="monotonic", clock=[seg(end)])
    sc.repeat(1 << 20)
    sc.next_id()
    sc.stats()
    out.append(sc.case)

    sc = Scenario("monotonic.two_generators_same_node_differ_in_time_only",
                  "two monotonic nodes at the same frozen ms issue disjoint ids")
    sc.gen(name="a", node_id=3, mode="monotonic", clock=[seg(E + 42)])
    sc.gen(name="b", node_id=4, mode="monotonic", clock=[seg(E + 42)])
    sc.repeat(5000, gen="a")
    sc.repeat(5000, gen="b")
    out.append(sc.case)

    # --- construction errors ------------------------------------------------------------
    sc = Scenario("construct.invalid_arguments",
                  "issue 2/3/4/5: bad generator arguments are rejected with InvalidArgument")
    sc.gen(name="node_too_large", node_id=1024, clock=[seg(E)])
    sc.gen(name="node_negative", node_id=-1, clock=[seg(E)])
    sc.gen(name="bad_mode", mode="fast", clock=[seg(E)])
    sc.gen(name="negative_wait", max_wait_ms=-1.0, clock=[seg(E)])
    sc.gen(name="huge_wait", max_wait_ms=60001.0, clock=[seg(E)])
    sc.gen(name="negative_drift", mode="monotonic", max_drift_ms=-1, clock=[seg(E)])
    sc.gen(name="twitter_node_too_large", layout=TWITTER, node_id=1024, clock=[seg(E)])
    sc.gen(name="single_node_layout", layout="41.0.22@1704067200000", node_id=1, clock=[seg(E)])
    for g in sc.case["generators"]:
        assert g["expect_construct_error"]["error"] == "INVALID_ARGUMENT", g
    sc.case["generators"][0]["expect_construct_error"]["message_contains"] = ["1024"]
    out.append(sc.case)

    ids = [c["id"] for c in out]
    assert len(ids) == len(set(ids))
    out.extend(id_space_cases(Scenario, seg))
    out.extend(differential_cases(Scenario, seg))
    ids = [c["id"] for c in out]
    assert len(ids) == len(set(ids))
    return out


# --------------------------------------------------------------------------- files


def documents():
    return {
        "layout.json": {
            "schema_version": SCHEMA_VERSION, "kind": "layout",
            "description": "Layout parsing, printing, presets, derived limits and rejections.",
            "generated_by": "conformance/generate.py", "cases": layout_cases()},
        "codec.json": {
            "schema_version": SCHEMA_VERSION, "kind": "codec",
            "description": "compose / decode / parse_id, with the seeds' worked examples and "
                           "out-of-range inputs.",
            "generated_by": "conformance/generate.py", "cases": codec_cases()},
        "scenarios.json": {
            "schema_version": SCHEMA_VERSION, "kind": "scenario",
            "description": "Generators on scripted clocks: every executable assertion of the "
                           "seeds' Working Python, rewinds, exhaustion, drift, batches, stats.",
            "generated_by": "conformance/generate.py", "cases": scenario_cases()},
        "arguments.json": {
            "schema_version": SCHEMA_VERSION, "kind": "arguments",
            "description": "The argument rulebook: what every public entry point accepts and "
                           "refuses (constructor options, batch sizes, decode/compose host "
                           "forms, calls after close), and the Stats/Status field names.",
            "generated_by": "conformance/generate.py", "cases": argument_cases()},
        "time.json": {
            "schema_version": SCHEMA_VERSION, "kind": "time",
            "description": "RFC 3339 time text to Unix ms (parse_iso8601 / parse_time / "
                           "parseTime): accepted forms with their ms, refused forms with the "
                           "rule the message names.",
            "generated_by": "conformance/generate.py", "cases": time_cases()},
    }


def render(doc) -> str:
    return json.dumps(doc, indent=1, ensure_ascii=False, allow_nan=False) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--check", action="store_true", help="fail if checked-in files are stale")
    args = ap.parse_args(argv)
    stale = []
    for name, doc in documents().items():
        path = VECTORS / name
        text = render(doc)
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            VECTORS.mkdir(exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(HERE.parent)} ({len(doc['cases'])} cases)")
    if stale:
        print("stale vector files (run python3 conformance/generate.py): " + ", ".join(stale),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
