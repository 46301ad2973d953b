"""The argument rulebook as data: what every public entry point accepts and refuses, in every
language (vectors/arguments.json; see README.md, kind "arguments").

Each case calls one entry point with arguments written in a host-neutral form:

    {"int": "5"}      an integer, in the host's integer type (decimal text: 64-bit and beyond)
    {"float": 1.5}    a number with a fraction (a type error wherever an integer is required)
    {"text": "..."}   a string
    {"bool": true}    a boolean (a type error wherever an integer or a string is required)

and expects either a result or an error. ``{"error": "TYPE"}`` is the one rule a binding keeps
for itself: a value of the wrong host type is the host's own type error (Python TypeError,
JavaScript TypeError; C++ and Java reject it at compile time, so their runners skip the case).
Every other error is one of the core's codes, with the substrings its message must contain
(the argument's canonical name and the value). A runner also checks that a refused call left
the generator as it was (its next id follows its last one).

Arguments are named canonically (snake_case); Node and Java runners spell them camelCase.
"""

from __future__ import annotations

INT64_MAX = (1 << 63) - 1


def i(v: int) -> dict:
    return {"int": str(v)}


def t(v: str) -> dict:
    return {"text": v}


def f(v: float) -> dict:
    return {"float": v}


def b(v: bool) -> dict:
    return {"bool": v}


def err(code: str, *contains: str) -> dict:
    out = {"error": code}
    if contains:
        out["message_contains"] = list(contains)
    return out


TYPE = {"error": "TYPE"}

# The lists of core/include/snowfleet/lists.h, in order: the fields of Stats and Status
# (SNOWFLEET_STATS_FIELDS / SNOWFLEET_STATUS_FIELDS), a layout's properties
# (SNOWFLEET_LAYOUT_FIELDS) and a generator's arguments (SNOWFLEET_GENERATOR_ARGS). The C++
# runner checks the lists match; each language's runner checks what it built from them.
STATS_FIELDS = [
    "ids_issued", "rewinds_seen", "waits", "waited_ns_total", "waited_ns_max", "refusals",
    "ms_borrowed", "mark_writes", "lease_refusals", "mark_write_failures",
    "lease_renewal_failures",
]
STATUS_FIELDS = [
    "healthy", "reason", "wall_ms", "last_ms", "drift_ms", "node_id", "mode", "lease_state",
    "mark_ms", "lease_expires_in_ms", "mark_headroom_ms",
]
LAYOUT_FIELDS = [
    "epoch_ms", "timestamp_bits", "node_bits", "datacenter_bits", "machine_bits",
    "sequence_bits", "timestamp_shift", "node_shift", "max_node_id", "max_datacenter_id",
    "max_machine_id", "max_sequence", "max_elapsed_ms", "max_timestamp_ms",
]
GENERATOR_ARGS = [
    "layout", "node_id", "datacenter_id", "machine_id", "node_source", "mode", "max_wait_ms",
    "max_drift_ms", "clock",
]


def generator_cases():
    def gen(cid, source, args, expect):
        return {"id": "arguments.generator." + cid, "source": source, "op": "generator",
                "args": args, "expect": expect}

    ok = lambda node, layout="41.10.12@1704067200000", mode="strict", wait=5.0, drift=1000: {
        "node_id": node, "layout": layout, "mode": mode, "max_wait_ms": wait,
        "max_drift_ms": drift}
    twitter = "41.5.5.12@1288834974657"
    return [
        gen("node_id", "the plainest generator", {"node_id": i(37)}, ok(37)),
        gen("node_id_last", "the node field's last value", {"node_id": i(1023)}, ok(1023)),
        gen("node_id_above", "one past the node field", {"node_id": i(1024)},
            err("INVALID_ARGUMENT", "node_id", "1024")),
        gen("node_id_negative", "a negative node id", {"node_id": i(-1)},
            err("INVALID_ARGUMENT", "node_id", "-1")),
        gen("node_id_past_int64", "an integer no int64 holds",
            {"node_id": i(1 << 63)}, err("INVALID_ARGUMENT", "9223372036854775808")),
        gen("node_id_float", "node_id=1.5", {"node_id": f(1.5)}, TYPE),
        gen("node_id_text", "a string where an integer is required", {"node_id": t("37")}, TYPE),
        gen("node_id_bool", "a boolean is not an integer", {"node_id": b(True)}, TYPE),
        gen("nothing", "neither a node id nor a node source", {},
            err("INVALID_ARGUMENT", "node_id", "node_source")),
        gen("node_source_empty", "node_source=\"\"", {"node_source": t("")},
            err("INVALID_ARGUMENT", "node_source", "''")),
        gen("node_source_empty_with_node_id", "node_source=\"\" beside a node id",
            {"node_id": i(5), "node_source": t("")},
            err("INVALID_ARGUMENT", "node_source", "''")),
        gen("node_id_and_source", "two node forms at once",
            {"node_id": i(5), "node_source": t("static:5")},
            err("INVALID_ARGUMENT", "node_id=5", "node_source='static:5'")),
        gen("node_source_static", "a static node source", {"node_source": t("static:41")},
            ok(41)),
        gen("node_source_bad", "an unknown node source", {"node_source": t("nowhere:1")},
            err("INVALID_ARGUMENT", "nowhere:1")),
        gen("node_source_control_bytes", "a message quotes control bytes as \\xNN",
            {"node_source": t("static:\n1")}, err("INVALID_ARGUMENT", "static:\\x0a1")),
        gen("node_source_int", "an integer where a string is required", {"node_source": i(5)},
            TYPE),
        gen("dc_machine", "datacenter + machine on a split layout",
            {"layout": t("twitter"), "datacenter_id": i(3), "machine_id": i(5)},
            ok(3 * 32 + 5, twitter)),
        gen("dc_machine_last", "the last datacenter and machine",
            {"layout": t("twitter"), "datacenter_id": i(31), "machine_id": i(31)},
            ok(1023, twitter)),
        gen("dc_above", "a datacenter past its field",
            {"layout": t("twitter"), "datacenter_id": i(32), "machine_id": i(0)},
            err("INVALID_ARGUMENT", "datacenter_id", "32")),
        gen("machine_above", "a machine past its field",
            {"layout": t("twitter"), "datacenter_id": i(0), "machine_id": i(32)},
            err("INVALID_ARGUMENT", "machine_id", "32")),
        gen("machine_negative", "a negative machine",
            {"layout": t("twitter"), "datacenter_id": i(0), "machine_id": i(-1)},
            err("INVALID_ARGUMENT", "machine_id", "-1")),
        gen("dc_without_machine", "half a node",
            {"layout": t("twitter"), "datacenter_id": i(3)},
            err("INVALID_ARGUMENT", "datacenter_id=3", "machine_id")),
        gen("machine_without_dc", "the other half",
            {"layout": t("twitter"), "machine_id": i(3)},
            err("INVALID_ARGUMENT", "machine_id=3", "datacenter_id")),
        gen("dc_machine_and_node_id", "two node forms at once",
            {"layout": t("twitter"), "node_id": i(1), "datacenter_id": i(0), "machine_id": i(1)},
            err("INVALID_ARGUMENT", "node_id=1", "datacenter_id=0")),
        gen("dc_machine_unsplit", "an unsplit layout: datacenter 0, machine = the node",
            {"datacenter_id": i(0), "machine_id": i(1023)}, ok(1023)),
        gen("dc_machine_unsplit_dc", "an unsplit layout has no datacenter bits",
            {"datacenter_id": i(1), "machine_id": i(0)},
            err("INVALID_ARGUMENT", "datacenter_id", "[0, 0]")),
        gen("dc_float", "a fraction where an integer is required",
            {"layout": t("twitter"), "datacenter_id": f(1.5), "machine_id": i(0)}, TYPE),
        gen("layout_text", "a layout by its text", {"node_id": i(1), "layout": t("41.5.5.12@0")},
            ok(1, "41.5.5.12@0")),
        gen("layout_bad", "a layout the parser refuses",
            {"node_id": i(1), "layout": t("41.10.13")}, err("INVALID_ARGUMENT", "41.10.13")),
        gen("layout_int", "a number is not a layout", {"node_id": i(1), "layout": i(41)}, TYPE),
        gen("node_id_past_layout", "the node field is the layout's",
            {"node_id": i(32), "layout": t("41.5.17@0")},
            err("INVALID_ARGUMENT", "node_id", "32", "[0, 31]")),
        gen("mode_monotonic", "the other mode", {"node_id": i(2), "mode": t("monotonic")},
            ok(2, mode="monotonic")),
        gen("mode_bad", "an unknown mode", {"node_id": i(2), "mode": t("Strict")},
            err("INVALID_ARGUMENT", "mode", "'Strict'")),
        gen("mode_empty", "an empty mode", {"node_id": i(2), "mode": t("")},
            err("INVALID_ARGUMENT", "mode", "''")),
        gen("mode_int", "a number is not a mode", {"node_id": i(2), "mode": i(1)}, TYPE),
        gen("max_wait_ms_fraction", "a fractional budget", {"node_id": i(3), "max_wait_ms": f(2.5)},
            ok(3, wait=2.5)),
        gen("max_wait_ms_int", "an integer budget", {"node_id": i(3), "max_wait_ms": i(0)},
            ok(3, wait=0.0)),
        gen("max_wait_ms_negative", "a negative budget",
            {"node_id": i(3), "max_wait_ms": f(-0.5)},
            err("INVALID_ARGUMENT", "max_wait_ms", "-0.5")),
        gen("max_wait_ms_above", "a budget past a minute",
            {"node_id": i(3), "max_wait_ms": i(60001)},
            err("INVALID_ARGUMENT", "max_wait_ms", "60001")),
        gen("max_wait_ms_just_above", "the message names the value given, not a rounding of it",
            {"node_id": i(3), "max_wait_ms": f(60000.0000001)},
            err("INVALID_ARGUMENT", "max_wait_ms", "got 60000.0000001")),
        gen("max_wait_ms_just_below_zero", "a tiny negative budget is not '-0'",
            {"node_id": i(3), "max_wait_ms": f(-1e-7)},
            err("INVALID_ARGUMENT", "max_wait_ms", "got -1e-07")),
        gen("max_wait_ms_text", "a string is not a number",
            {"node_id": i(3), "max_wait_ms": t("5")}, TYPE),
        gen("max_drift_ms", "a drift bound", {"node_id": i(4), "max_drift_ms": i(0)},
            ok(4, drift=0)),
        gen("max_drift_ms_negative", "a negative drift bound",
            {"node_id": i(4), "max_drift_ms": i(-1)},
            err("INVALID_ARGUMENT", "max_drift_ms", "-1")),
        gen("max_drift_ms_above", "a drift bound past a day",
            {"node_id": i(4), "max_drift_ms": i(86400001)},
            err("INVALID_ARGUMENT", "max_drift_ms", "86400001")),
        gen("max_drift_ms_float", "a fraction where an integer is required",
            {"node_id": i(4), "max_drift_ms": f(1.5)}, TYPE),
    ]


def next_ids_cases():
    # On a generator for node 9 of the default layout and a frozen scripted clock (the
    # runner's "batch generator"); "closed": true closes it first.
    def batch(cid, source, n, expect, closed=False):
        case = {"id": "arguments.next_ids." + cid, "source": source, "op": "next_ids",
                "args": {"n": n}, "expect": expect}
        if closed:
            case["closed"] = True
        return case

    return [
        batch("zero", "an empty batch", i(0), {"count": 0}),
        batch("three", "a small batch", i(3), {"count": 3}),
        batch("negative", "a negative count", i(-1),
              err("INVALID_ARGUMENT", "n must be", "got -1")),
        batch("above_max", "past the largest batch", i((1 << 24) + 1),
              err("INVALID_ARGUMENT", "n must be", "got 16777217")),
        batch("past_int64", "an integer no int64 holds", i(1 << 64),
              err("INVALID_ARGUMENT", "18446744073709551616")),
        batch("float", "next_ids(1.5)", f(1.5), TYPE),
        batch("text", "a string where a count is required", t("3"), TYPE),
        batch("bool", "a boolean is not a count", b(True), TYPE),
        batch("closed_zero", "next_ids(0) after close()", i(0),
              err("GENERATOR_CLOSED", "closed"), closed=True),
        batch("closed_negative", "a closed generator answers first", i(-1),
              err("GENERATOR_CLOSED", "closed"), closed=True),
        batch("closed_three", "a batch after close()", i(3),
              err("GENERATOR_CLOSED", "closed"), closed=True),
    ]


def decode_cases():
    def dec(cid, source, id_value, expect, layout="default"):
        return {"id": "arguments.decode." + cid, "source": source, "op": "decode",
                "args": {"layout": t(layout), "id": id_value}, "expect": expect}

    fields = {"timestamp_ms": "1737747358021", "node_id": 37, "datacenter_id": 0,
              "machine_id": 37, "sequence": 0}
    split = {"timestamp_ms": "1737747358021", "node_id": 101, "datacenter_id": 3,
             "machine_id": 5, "sequence": 7}
    split_id = ((1737747358021 - 1288834974657) << 22) | (101 << 12) | 7
    return [
        dec("int", "an id as the host's integer", i(141264821508263936), fields),
        dec("text", "an id as decimal text, in every language",
            t("141264821508263936"), fields),
        dec("split_int", "a split layout gives datacenter and machine", i(split_id), split,
            "twitter"),
        dec("split_text", "the same as text", t(str(split_id)), split, "twitter"),
        dec("zero_text", "the smallest id", t("0"),
            {"timestamp_ms": "1704067200000", "node_id": 0, "datacenter_id": 0,
             "machine_id": 0, "sequence": 0}),
        dec("max_text", "the largest id", t(str(INT64_MAX)),
            {"timestamp_ms": str(1704067200000 + (1 << 41) - 1), "node_id": 1023,
             "datacenter_id": 0, "machine_id": 1023, "sequence": 4095}),
        dec("negative_int", "a negative id", i(-1), err("INVALID_ARGUMENT", "id must be", "got -1")),
        dec("negative_text", "a sign is not a digit", t("-1"), err("INVALID_ARGUMENT", "'-1'")),
        dec("plus_text", "a sign is not a digit", t("+1"), err("INVALID_ARGUMENT", "'+1'")),
        dec("space_text", "no surrounding space", t(" 1"), err("INVALID_ARGUMENT", "' 1'")),
        dec("empty_text", "an empty string", t(""), err("INVALID_ARGUMENT", "''")),
        dec("hex_text", "decimal only", t("0x10"), err("INVALID_ARGUMENT", "'0x10'")),
        dec("past_int64_text", "text past 2^63-1", t(str(1 << 63)),
            err("INVALID_ARGUMENT", "'9223372036854775808'")),
        dec("past_int64_int", "an integer past 2^63-1", i(1 << 63),
            err("INVALID_ARGUMENT", "9223372036854775808")),
        dec("nul_text", "a NUL byte is quoted, not cut", t("12\u00003"),
            err("INVALID_ARGUMENT", "'12\\x003'")),
        dec("float", "a fraction is not an id", f(1.5), TYPE),
        dec("bool", "a boolean is not an id", b(False), TYPE),
    ]


def compose_cases():
    def comp(cid, source, args, expect, layout="default"):
        full = {"layout": t(layout), "timestamp_ms": i(1737747358021), "sequence": i(0)}
        full.update(args)
        return {"id": "arguments.compose." + cid, "source": source, "op": "compose",
                "args": full, "expect": expect}

    twitter_101 = ((1737747358021 - 1288834974657) << 22) | (101 << 12)
    return [
        comp("node_id", "the whole node", {"node_id": i(37)}, {"id": "141264821508263936"}),
        comp("dc_machine", "the node as two halves",
             {"datacenter_id": i(3), "machine_id": i(5)}, {"id": str(twitter_101)}, "twitter"),
        comp("node_id_split", "the whole node of a split layout", {"node_id": i(101)},
             {"id": str(twitter_101)}, "twitter"),
        comp("none", "no node", {}, err("INVALID_ARGUMENT", "node_id", "datacenter_id")),
        comp("both", "two node forms at once",
             {"node_id": i(101), "datacenter_id": i(3), "machine_id": i(5)},
             err("INVALID_ARGUMENT", "node_id=101", "datacenter_id=3"), "twitter"),
        comp("dc_only", "half a node", {"datacenter_id": i(3)},
             err("INVALID_ARGUMENT", "datacenter_id=3", "machine_id"), "twitter"),
        comp("machine_above", "a machine past its field",
             {"datacenter_id": i(3), "machine_id": i(32)},
             err("INVALID_ARGUMENT", "machine_id", "32"), "twitter"),
        comp("timestamp_before_epoch", "before the epoch",
             {"node_id": i(1), "timestamp_ms": i(1704067199999)},
             err("TIMESTAMP_OUT_OF_RANGE", "timestamp_ms", "1704067199999")),
        comp("sequence_above", "a sequence past its field",
             {"node_id": i(1), "sequence": i(4096)}, err("INVALID_ARGUMENT", "sequence", "4096")),
        {"id": "arguments.compose.sequence_default", "source": "an absent sequence is 0",
         "op": "compose", "args": {"layout": t("default"), "timestamp_ms": i(1737747358021),
                                   "node_id": i(37)},
         "expect": {"id": "141264821508263936"}},
        comp("node_float", "a fraction where an integer is required", {"node_id": f(1.5)},
             TYPE),
        comp("sequence_text", "a string where an integer is required",
             {"node_id": i(1), "sequence": t("0")}, TYPE),
    ]


def after_close_cases():
    def closed(cid, source, call, expect):
        return {"id": "arguments.closed." + cid, "source": source, "op": call,
                "args": {}, "closed": True, "expect": expect}

    return [
        closed("next_id", "a closed generator refuses", "next_id",
               err("GENERATOR_CLOSED", "closed")),
        closed("status", "status() after close() reports it", "status",
               {"healthy": False, "reason": "generator is closed"}),
        closed("close_again", "close() is idempotent", "close", {}),
    ]


def layout_create_cases():
    def lay(cid, source, args, expect):
        return {"id": "arguments.layout_create." + cid, "source": source, "op": "layout_create",
                "args": args, "expect": expect}

    base = {"epoch_ms": i(1288834974657), "timestamp_bits": i(41), "sequence_bits": i(12)}
    return [
        lay("unsplit", "the node field whole", {**base, "node_bits": i(10)},
            {"text": "41.10.12@1288834974657"}),
        lay("split", "the node field as datacenter + machine",
            {**base, "datacenter_bits": i(5), "machine_bits": i(5)},
            {"text": "41.5.5.12@1288834974657"}),
        lay("no_node", "no node field", base,
            err("INVALID_ARGUMENT", "node_bits", "datacenter_bits")),
        lay("both_node_forms", "two node forms at once",
            {**base, "node_bits": i(10), "datacenter_bits": i(5), "machine_bits": i(5)},
            err("INVALID_ARGUMENT", "node_bits=10", "datacenter_bits=5")),
        lay("datacenter_alone", "half a split node field",
            {**base, "datacenter_bits": i(5)},
            err("INVALID_ARGUMENT", "datacenter_bits=5", "machine_bits")),
        lay("no_epoch", "the epoch is required",
            {"timestamp_bits": i(41), "sequence_bits": i(12), "node_bits": i(10)},
            err("INVALID_ARGUMENT", "epoch_ms")),
        lay("no_sequence_bits", "the sequence width is required",
            {"epoch_ms": i(0), "timestamp_bits": i(41), "node_bits": i(10)},
            err("INVALID_ARGUMENT", "sequence_bits")),
        lay("node_bits_named", "an unsplit node field's error names node_bits",
            {**base, "node_bits": i(63)}, err("INVALID_ARGUMENT", "node_bits", "63")),
        lay("width_past_int32", "a width no 32-bit int holds is refused, not wrapped",
            {**base, "node_bits": i((1 << 32) + 10)},
            err("INVALID_ARGUMENT", "node_bits", "4294967306")),
        lay("sum_not_63", "the widths add up to 63",
            {**base, "node_bits": i(9)}, err("INVALID_ARGUMENT", "63", "62")),
        lay("split_zero_datacenter", "a split node field has a datacenter",
            {**base, "datacenter_bits": i(0), "machine_bits": i(10)},
            err("INVALID_ARGUMENT", "datacenter_bits >= 1")),
        lay("float_width", "a fraction is not a width", {**base, "node_bits": f(10.5)}, TYPE),
        lay("text_epoch", "a string is not an epoch",
            {**base, "epoch_ms": t("0"), "node_bits": i(10)}, TYPE),
    ]


def field_cases():
    return [
        {"id": "arguments.fields.stats", "source": "Stats defined once",
         "op": "fields", "args": {"record": t("stats")}, "expect": {"names": STATS_FIELDS}},
        {"id": "arguments.fields.status", "source": "Status defined once",
         "op": "fields", "args": {"record": t("status")}, "expect": {"names": STATUS_FIELDS}},
        {"id": "arguments.fields.uuid7_stats",
         "source": "a UUIDv7 generator's stats() are Generator's Stats",
         "op": "fields", "args": {"record": t("uuid7_stats")}, "expect": {"names": STATS_FIELDS}},
        {"id": "arguments.fields.uuid7_status",
         "source": "a UUIDv7 generator's status() is Generator's Status",
         "op": "fields", "args": {"record": t("uuid7_status")},
         "expect": {"names": STATUS_FIELDS}},
        {"id": "arguments.fields.layout", "source": "a layout's properties defined once",
         "op": "fields", "args": {"record": t("layout")}, "expect": {"names": LAYOUT_FIELDS}},
        {"id": "arguments.fields.generator_args", "source": "a generator's arguments defined once",
         "op": "fields", "args": {"record": t("generator_args")},
         "expect": {"names": GENERATOR_ARGS}},
    ]


def argument_cases():
    cases = (generator_cases() + next_ids_cases() + decode_cases() + compose_cases() +
             layout_create_cases() + after_close_cases() + field_cases())
    ids = [c["id"] for c in cases]
    assert len(ids) == len(set(ids)), "duplicate case ids"
    return cases
