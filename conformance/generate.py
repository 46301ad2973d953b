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
from id_space_cases import ID_SPACE_SCENARIOS  # noqa: E402  (id spaces and window edges)
from differential_cases import differential_cases  # noqa: E402  (found by the differential test)
from argument_cases import argument_cases  # noqa: E402  (arguments.json: the rulebook as data)
from scenario import build, error_of, s  # noqa: E402  (runs scenario data through the model)
from scenario_cases_seeds import SEED_SCENARIOS  # noqa: E402
from scenario_cases_strict import STRICT_SCENARIOS  # noqa: E402
from scenario_cases_monotonic import CONSTRUCT_SCENARIOS, MONOTONIC_SCENARIOS  # noqa: E402

VECTORS = HERE / "vectors"
SCHEMA_VERSION = 1
E = 1704067200000  # the default epoch, 2024-01-01T00:00:00Z
DEFAULT = "41.10.12@1704067200000"
TWITTER = "41.5.5.12@1288834974657"


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


def scenario_cases():
    """scenarios.json: the cases written as data in scenario_cases_*.py and id_space_cases.py
    (run through the model by scenario.build), then the differential test's finds."""
    entries = (SEED_SCENARIOS + STRICT_SCENARIOS + MONOTONIC_SCENARIOS + CONSTRUCT_SCENARIOS
               + ID_SPACE_SCENARIOS)
    out = [build(entry) for entry in entries]
    out.extend(differential_cases())
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
