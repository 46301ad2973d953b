"""The cases of conformance/vectors/range.json (written by generate.py): min_id / max_id of a
millisecond and id_range of [start_ms, end_ms) with its slack, at the window edges and with
the refusals. Expected values come from model/text_model.py.
"""

from __future__ import annotations

import snowfleet_model as m
import text_model as t
from scenario import error_of, s

E = 1704067200000
DEFAULT = "41.10.12@1704067200000"
LAST = E + (1 << 41) - 1  # the default layout's last millisecond


def range_cases():
    cases = []

    def one(cid, source, op, layout, ms, contains=None):
        lay = m.Layout.parse(layout)
        try:
            expect = {"id": s((t.min_id if op == "min_id" else t.max_id)(lay, ms))}
        except m.ModelError as e:
            expect = error_of(e, contains=contains)
        cases.append({"id": cid, "source": source, "op": op, "layout": layout,
                      "timestamp_ms": s(ms), "expect": expect})
        return expect

    def rng(cid, source, layout, start, end, slack=None, contains=None):
        lay = m.Layout.parse(layout)
        case = {"id": cid, "source": source, "op": "id_range", "layout": layout,
                "start_ms": s(start), "end_ms": s(end)}
        if slack is not None:
            case["slack_ms"] = s(slack)
        try:
            first, last = t.id_range(lay, start, end, slack or 0)
            expect = {"first": s(first), "last": s(last)}
        except m.ModelError as e:
            expect = error_of(e, contains=contains)
        case["expect"] = expect
        cases.append(case)
        return expect

    r = one("range.min_id.seed_literal", "the lowest id of 1737747358021", "min_id",
            DEFAULT, 1737747358021)
    assert r == {"id": str(141264821508263936 - (37 << 12))}  # the literal is node 37 of it
    r = one("range.max_id.seed_literal", "the highest id of 1737747358021", "max_id",
            DEFAULT, 1737747358021)
    assert r == {"id": str(141264821508263936 - (37 << 12) + (1 << 22) - 1)}
    one("range.min_id.epoch", "the epoch's lowest id is 0", "min_id", DEFAULT, E)
    one("range.max_id.last_ms", "the last ms's highest id is 2^63 - 1", "max_id", DEFAULT, LAST)
    one("range.min_id.twitter", "a split layout: datacenter and machine both 0", "min_id",
        "twitter", 1700000000000)
    one("range.max_id.twitter", "a split layout: every node bit set", "max_id", "twitter",
        1700000000000)
    one("range.max_id.discord_by_text", "a layout given as text", "max_id",
        "41.5.5.12@1420070400000", 1420070400000 + 86400000)
    one("range.max_id.no_node_bits", "a layout without node bits", "max_id",
        "51.0.12@1704067200000", E + 5)
    one("range.error.min_id_before_epoch", "before the epoch: out of range", "min_id", DEFAULT,
        E - 1, contains=[str(E - 1)])
    one("range.error.max_id_past_window", "past the window: out of range", "max_id", DEFAULT,
        LAST + 1, contains=[str(LAST + 1)])
    one("range.error.min_id_negative", "a negative time", "min_id", DEFAULT, -1, contains=["-1"])

    rng("range.id_range.one_day", "2026-12-01T00:00Z to 2026-12-02T00:00Z", DEFAULT,
        1796083200000, 1796169600000)
    rng("range.id_range.one_ms", "[t, t+1) is min_id(t)..max_id(t)", DEFAULT, E + 10, E + 11)
    rng("range.id_range.slack", "monotonic: the upper bound widened by max_drift_ms", DEFAULT,
        1796083200000, 1796169600000, slack=1000)
    rng("range.id_range.zero_slack", "slack 0 is the exact range", DEFAULT, E + 10, E + 20,
        slack=0)
    rng("range.id_range.whole_window", "the whole window: 0 to 2^63 - 1", DEFAULT, E, LAST + 1)
    rng("range.id_range.slack_clamped", "slack never passes the last ms", DEFAULT, LAST - 5,
        LAST, slack=100)
    rng("range.id_range.huge_slack", "a slack past int64 arithmetic is clamped, not wrapped",
        DEFAULT, E, E + 1, slack=2**63 - 1)
    rng("range.id_range.twitter", "a split layout", "twitter", 1700000000000, 1700000001000)
    rng("range.error.end_not_after_start", "an empty range has no bounds", DEFAULT, E + 5, E + 5,
        contains=["end_ms"])
    rng("range.error.end_before_start", "a reversed range is refused, not swapped", DEFAULT,
        E + 6, E + 5, contains=["end_ms"])
    rng("range.error.negative_slack", "slack is a widening only", DEFAULT, E, E + 5, slack=-1,
        contains=["slack_ms", "-1"])
    rng("range.error.start_before_epoch", "start before the epoch", DEFAULT, E - 1, E + 5,
        contains=["start_ms", str(E - 1)])
    rng("range.error.end_past_window", "end past the window's end (last ms + 1)", DEFAULT, E,
        LAST + 2, contains=["end_ms", str(LAST + 2)])
    rng("range.error.end_at_epoch", "[epoch, epoch) is empty: InvalidArgument like any empty range",
        DEFAULT, E, E, contains=["end_ms", "after start_ms"])
    rng("range.error.end_before_epoch", "a reversed range at the epoch is empty too", DEFAULT, E,
        E - 3, contains=["end_ms", "after start_ms"])
    return cases
