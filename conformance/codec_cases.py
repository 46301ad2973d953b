"""The cases of conformance/vectors/codec.json (written by generate.py): compose, decode and
parse_id, with the reference's worked examples and out-of-range inputs. Expected values come
from model/snowfleet_model.py; the reference's worked examples are checked here against them.
"""

from __future__ import annotations

import snowfleet_model as m
from scenario import error_of, s

E = 1704067200000  # the default epoch, 2024-01-01T00:00:00Z
DEFAULT = "41.10.12@1704067200000"
TWITTER = "41.5.5.12@1288834974657"


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
    decode("codec.decode_latest_time", "2^63 - 1 under 52 timestamp bits after the latest "
           "epoch: the latest time any layout stamps (year 152,713; SQL's timestamp() lost "
           "microseconds there)", "52.0.11@253402300799999", "9223372036854775807")
    compose("codec.discord_layout", "discord preset", "discord", 1420070400000 + 123456,
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
    compose("codec.error.node_too_large", "node ids above the field are rejected",
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
