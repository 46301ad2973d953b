"""The cases of conformance/vectors/layout.json (written by generate.py): layout text parsed
and printed, presets, layouts made from their fields, derived limits, and invalid layouts.
Expected values come from model/snowfleet_model.py; the reference's bit-layout assertions are
checked here against them.
"""

from __future__ import annotations

import snowfleet_model as m
from scenario import error_of, s

E = 1704067200000  # the default epoch, 2024-01-01T00:00:00Z
DEFAULT = "41.10.12@1704067200000"
TWITTER = "41.5.5.12@1288834974657"


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
    # The reference's bit-layout assertions, on the model's answer.
    assert d["max_node_id"] == 1023 and d["max_sequence"] == 4095
    assert d["max_elapsed_ms"] == "2199023255551"
    assert d["timestamp_shift"] == 22 and d["node_shift"] == 12
    parse("layout.parse.default_text", DEFAULT, "001 section 5: the 41/10/12 layout")
    t = parse("layout.parse.twitter_preset", "twitter",
              "000: Twitter epoch 1288834974657, 41 / 5 dc + 5 machine / 12")
    assert t["text"] == TWITTER and t["max_datacenter_id"] == 31 and t["max_machine_id"] == 31
    parse("layout.parse.twitter_text", TWITTER, "000: the 4-field text form")
    parse("layout.parse.discord_preset", "discord", "discord preset, epoch 1420070400000")
    parse("layout.parse.discord_text", "41.5.5.12@1420070400000", "discord preset")
    parse("layout.parse.zero_datacenter_is_unsplit", "41.0.10.12@1704067200000",
          "a 0-bit datacenter field is the unsplit layout (canonical text has 3 fields)")
    parse("layout.parse.seed_42_8_13", "42.8.13@1704067200000",
          "001 section 5a: 42/8/13 gives 139 years, 256 nodes, 8,192 ids per ms")
    parse("layout.parse.seed_41_12_10", "41.12.10@1704067200000",
          "001 section 9: 41/12/10, 4,096 nodes at 1,024 ids per ms")
    parse("layout.parse.seed_41_6_16", "41.6.16@1704067200000",
          "003: 6 worker bits and 16 sequence bits for 50k ids/ms bursts")
    parse("layout.parse.unix_epoch", "41.10.12@0", "001 section 5a: the Unix epoch exhausts in 2039")
    # The core's integers are 1 to 19 ASCII digits worth at most 2^63 - 1, leading zeros
    # included (parse_uint); the SQL functions read them the same way.
    parse("layout.parse.epoch_19_digits", "41.10.12@0000001704067200000",
          "a 19-digit epoch (leading zeros) is the default layout's")
    parse("layout.parse.width_19_digits", "0000000000000000041.10.12@1704067200000",
          "a 19-digit bit width (leading zeros) is 41")
    parse("layout.error.epoch_20_digits", "41.10.12@00000001704067200000",
          "20 digits are more than an int64's 19", contains=["00000001704067200000"])
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

    # A width above 63 is named by its field and range, like any other out-of-range width.
    for cid, text, rule in [
        ("layout.parse.timestamp_bits_64", "64.0.0@0", "timestamp_bits must be in [1, 52], got 64"),
        ("layout.parse.sequence_bits_19_digits", "41.10.9223372036854775807@0",
         "sequence_bits must be in [0, 62], got 9223372036854775807"),
        ("layout.parse.datacenter_bits_99", "41.99.1.12@0",
         "datacenter_bits must be in [0, 62], got 99"),
    ]:
        r = parse(cid, text, "a bit width above 63: " + rule.split(" must")[0] + "'s range",
                  contains=[text, rule])
        assert "error" in r, cid

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

    create("layout.create.default", "the default layout from its fields", E, 41, 12, node=10)
    create("layout.create.twitter", "000: the Twitter layout from its fields", 1288834974657, 41, 12,
           dc=5, machine=5)
    create("layout.create.split_needs_datacenter_bits", "a split layout has >= 1 datacenter bit",
           E, 41, 12, dc=0, machine=10)
    create("layout.create.sum_mismatch", "fields must add up to 63", E, 41, 12, node=11)
    create("layout.create.negative_bits", "bit widths are >= 0", E, 41, 23, node=-1)
    create("layout.create.negative_epoch", "epochs are >= 0", -1, 41, 12, node=10)
    return cases
