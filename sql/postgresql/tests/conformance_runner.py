#!/usr/bin/env python3
"""The SQL conformance runner: runs the conformance vectors through the snowfleet functions
of a real PostgreSQL, with psql, for one of two targets:

    --target plain       sql/postgresql/snowfleet.sql, loaded with \\i (the default)
    --target extension   CREATE EXTENSION snowfleet (sql/extension/, built and installed)

    python3 sql/postgresql/tests/conformance_runner.py --psql "psql -h HOST -p PORT -U USER DB" \\
        [--target extension] [--results OUT.json] [--same-as OTHER.json]

Files and ops: codec.json, range.json, layout.json, text.json (base32/base62/any),
time.json (parse_time_ms, and parse_time as a timestamptz), uuid7.json's decode cases
(uuid7_decode and uuid7_timestamp of the text, and of the uuid), and arguments.json's
decode and compose cases (the host forms SQL has: a bigint or a decimal text through
parse_id; the node as compose_ms or compose_split_ms).

Every case becomes one query inside a PL/pgSQL wrapper that returns its result as text, or
'ERROR <SQLSTATE>: <message>', so one psql run executes them all. A refused case must carry
the vector's error code as its message prefix ('INVALID_ARGUMENT: ...') with that kind's
SQLSTATE (22023, TIMESTAMP_OUT_OF_RANGE 22008), and every message_contains part. Where
PostgreSQL itself refuses the call before any snowfleet function runs, the case expects that
refusal: a value of the wrong SQL type or an integer no bigint holds (the vectors' "TYPE":
no function of that signature, 42883, or the literal's own error), a text holding a NUL
byte (no PostgreSQL text can, 22021), and a compose call naming no node form or two (SQL
has one function per form: 42883). Cases with no SQL counterpart (layout_create from
fields, minting) are counted as not applicable, by reason.

--results writes every raw result ({case id: text}); --same-as compares this run with
another's file and fails on any difference: the plain-SQL file and the extension must give
identical answers and identical errors, message for message.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import shlex
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[3]
VECTORS = ROOT / "conformance" / "vectors"
SQL = ROOT / "sql" / "postgresql" / "snowfleet.sql"
SQLSTATE = {"INVALID_ARGUMENT": "22023", "TIMESTAMP_OUT_OF_RANGE": "22008"}
# PostgreSQL's own refusals of a call no snowfleet function receives.
NO_SUCH_FUNCTION = "42883"
HOST_TYPE = {NO_SUCH_FUNCTION, "22003", "22P02", "42804"}
NUL_TEXT = "22021"
UUID_TEXT = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
                       r"|[0-9a-fA-F]{32}")

PRELUDE = r"""
\set ON_ERROR_STOP 1
SET client_min_messages = warning;
CREATE SCHEMA IF NOT EXISTS snowfleet_test;
CREATE OR REPLACE FUNCTION snowfleet_test.try(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE r text;
BEGIN
  EXECUTE q INTO r;
  RETURN coalesce(r, 'NULL');
EXCEPTION WHEN OTHERS THEN
  RETURN 'ERROR ' || SQLSTATE || ': ' || SQLERRM;
END $$;
"""

LOAD = {
    "plain": f"\\i {SQL}",
    "extension": "CREATE EXTENSION IF NOT EXISTS snowfleet;",
}


class NotApplicable(Exception):
    """A case with no SQL counterpart; its message is the reason, counted in the summary."""


def lit(text: str) -> str:
    """A SQL expression for text: a literal, or (for a NUL byte, which no PostgreSQL text
    holds) a conversion PostgreSQL refuses with 22021."""
    if "\0" in text:
        return f"convert_from('\\x{text.encode().hex()}'::bytea, 'UTF8')"
    return "'" + text.replace("'", "''") + "'"


def layout_text(case) -> str:
    """A layout.json 'create' case as the text form (a 0-bit datacenter field is refused by
    create_split but is the unsplit form in text, so that one case keeps its own check)."""
    ts, seq, epoch = case["timestamp_bits"], case["sequence_bits"], case["epoch_ms"]
    if "datacenter_bits" in case:
        return f"{ts}.{case['datacenter_bits']}.{case['machine_bits']}.{seq}@{epoch}"
    return f"{ts}.{case['node_bits']}.{seq}@{epoch}"


DECODED = ("concat_ws(',', d.timestamp_ms, d.node_id, d.datacenter_id, d.machine_id, d.sequence, "
           "snowfleet.to_ms(d.\"time\"))")
DECODED_KEYS = ("timestamp_ms", "node_id", "datacenter_id", "machine_id", "sequence", "timestamp_ms")
LAYOUT_KEYS = ("epoch_ms", "timestamp_bits", "datacenter_bits", "machine_bits", "sequence_bits")


def decode_sql(id_expr: str, layout: str) -> str:
    # The time column too, read back as ms: it must be the same millisecond.
    return f"SELECT {DECODED} FROM snowfleet.decode({id_expr}, {layout}) d"


def arg_sql(v: dict) -> str:
    """A host-neutral argument as SQL: an int as a literal (PostgreSQL types it bigint, or
    numeric past bigint), a float, a text, a boolean."""
    if "int" in v:
        return v["int"]
    if "float" in v:
        return repr(v["float"])
    if "text" in v:
        return lit(v["text"]) + "::text"
    return "true" if v["bool"] else "false"


def q_codec(case):
    op, lay = case["op"], lit(case.get("layout", "default"))
    if op == "parse_id":
        return f"SELECT snowfleet.parse_id({lit(case['text'])})::text", "id"
    if op == "decode":
        return decode_sql(f"snowfleet.parse_id({lit(case['value'])})", lay), "decoded"
    ts, seq = case["timestamp_ms"], case["sequence"]
    if "datacenter_id" in case:
        return (f"SELECT snowfleet.compose_split_ms({ts}, {case['datacenter_id']}, "
                f"{case['machine_id']}, {seq}, {lay})::text"), "id"
    return f"SELECT snowfleet.compose_ms({ts}, {case['node_id']}, {seq}, {lay})::text", "id"


def q_range(case):
    lay = lit(case.get("layout", "default"))
    if case["op"] == "id_range":
        slack = case.get("slack_ms", "0")
        return (f"SELECT r.first || ',' || r.last FROM snowfleet.id_range_ms("
                f"{case['start_ms']}, {case['end_ms']}, {slack}, {lay}) r"), "range"
    return f"SELECT snowfleet.{case['op']}_ms({case['timestamp_ms']}, {lay})::text", "id"


def q_layout(case):
    text = case["text"] if case["op"] == "parse" else layout_text(case)
    if case["op"] == "create" and case.get("datacenter_bits") == 0:
        # "41.0.10.12@..." is the valid unsplit text; create_split refuses it.
        raise NotApplicable("create_split with 0 datacenter bits (SQL takes layout texts)")
    return (f"SELECT concat_ws(',', l.epoch_ms, l.timestamp_bits, l.datacenter_bits, "
            f"l.machine_bits, l.sequence_bits) || ',' || snowfleet.layout_text({lit(text)}) "
            f"FROM snowfleet.layout({lit(text)}) l"), "layout"


def q_text(case):
    form, op = case["encoding"], case["op"]
    if op == "parse":
        # The "any" form is parse_id_text (whichever form the text is in).
        fn = "parse_id_text" if form == "any" else f"parse_{form}"
        return f"SELECT snowfleet.{fn}({lit(case['text'])})::text", "id"
    fmt = f"snowfleet.format_{form}({case['value']})"
    if op == "format":
        return f"SELECT {fmt}", "text"
    return f"SELECT {fmt} || ',' || snowfleet.parse_{form}({fmt})", "round_trip"


def q_time(case):
    t = lit(case["text"])
    # The ms, and the timestamptz read back as ms: the same instant both ways.
    return (f"SELECT snowfleet.parse_time_ms({t}) || ',' || "
            f"snowfleet.to_ms(snowfleet.parse_time({t}))"), "time"


def q_uuid7(case):
    if case["op"] != "decode":
        raise NotApplicable("UUIDv7 minting (SQL mints on the server's clock, no scripted one; mint.sh)")
    t = lit(case["text"])
    fields = "concat_ws(',', u.timestamp_ms, u.counter, u.random, snowfleet.to_ms(u.\"time\"))"
    # Through the text (the core's UUID rules), and for a text of the core's UUID forms,
    # through the uuid type too: both must agree, and uuid7_timestamp with them.
    sql = (f"SELECT {fields} || ',' || snowfleet.to_ms(snowfleet.uuid7_timestamp({t})) "
           f"FROM snowfleet.uuid7_decode({t}) u")
    if UUID_TEXT.fullmatch(case["text"]):
        sql += (f" UNION ALL SELECT {fields} || ',' || snowfleet.to_ms(snowfleet.uuid7_timestamp("
                f"{t}::uuid)) || ',' || {t}::uuid::text FROM snowfleet.uuid7_decode({t}::uuid) u")
        sql = f"SELECT string_agg(x, ',') FROM ({sql}) s(x)"
    return sql, "uuid7"


def q_arguments(case):
    op, args = case["op"], case["args"]
    if op == "layout_create":
        raise NotApplicable("layout from fields (SQL takes layout texts; layout.json covers them)")
    if op not in ("decode", "compose"):
        raise NotApplicable("minting (SQL mints on the server's clock and settings; mint.sh)")
    lay = lit(args["layout"]["text"])
    if op == "decode":
        v = args["id"]
        if "text" in v:
            return decode_sql(f"snowfleet.parse_id({arg_sql(v)})", lay), "decoded"
        return decode_sql(arg_sql(v), lay), "decoded"
    # The node form chooses the function; named arguments, as a user would pass them.
    split = "datacenter_id" in args or "machine_id" in args
    fn = "compose_split_ms" if split else "compose_ms"
    named = [f"{k} => {arg_sql(v)}" for k, v in args.items() if k != "layout"]
    return f"SELECT snowfleet.{fn}({', '.join(named)}, layout => {lay})::text", "id"


QUERIES = {"codec": q_codec, "range": q_range, "layout": q_layout, "text": q_text,
           "time": q_time, "uuid7": q_uuid7, "arguments": q_arguments}
FILES = ("codec.json", "range.json", "layout.json", "text.json", "time.json", "uuid7.json",
         "arguments.json")


def host_refusal(kind: str, case):
    """The SQLSTATEs PostgreSQL refuses this case with before any snowfleet function runs
    (see the module's doc), or None."""
    expect = case["expect"]
    texts = [case.get("text", "")] + [v.get("text", "") for v in case.get("args", {}).values()]
    if any("\0" in t for t in texts):
        return {NUL_TEXT}
    if kind != "arguments":
        return None
    if expect.get("error") == "TYPE":
        return HOST_TYPE
    ints = [v["int"] for v in case["args"].values() if "int" in v]
    if any(not -(1 << 63) <= int(x) < (1 << 63) for x in ints):
        return HOST_TYPE
    args = case["args"]
    if case["op"] == "compose" and ("node_id" in args) == ("datacenter_id" in args or "machine_id" in args) \
            or case["op"] == "compose" and ("datacenter_id" in args) != ("machine_id" in args):
        return {NO_SUCH_FUNCTION}
    return None


def expected_text(how: str, expect) -> str:
    if how == "id":
        return expect["id"]
    if how == "text":
        return expect["text"]
    if how == "round_trip":
        return f"{expect['text']},{expect.get('id', '')}"
    if how == "decoded":
        return ",".join(str(expect[k]) for k in DECODED_KEYS)
    if how == "range":
        return f"{expect['first']},{expect['last']}"
    if how == "time":
        return f"{expect['timestamp_ms']},{expect['timestamp_ms']}"
    if how == "uuid7":
        one = (f"{expect['timestamp_ms']},{expect['counter']},{expect['random']},"
               f"{expect['timestamp_ms']},{expect['timestamp_ms']}")
        return f"{one},{one},{expect['canonical']}"
    return ",".join(str(expect[k]) for k in LAYOUT_KEYS) + "," + expect["text"]


def check(kind: str, case, how: str, got: str):
    """A failure message, or None."""
    expect = dict(case["expect"])
    refused_by = host_refusal(kind, case)
    if refused_by is not None:
        state = got[6:11] if got.startswith("ERROR ") else None
        return None if state in refused_by else f"expected PostgreSQL to refuse it {sorted(refused_by)}, got {got!r}"
    if "error" in expect:
        code = expect["error"]
        if not got.startswith(f"ERROR {SQLSTATE[code]}: {code}: "):
            return f"expected {SQLSTATE[code]} {code}, got {got!r}"
        for part in expect.get("message_contains", []):
            if part not in got:
                return f"{part!r} not in {got!r}"
        return None
    if got.startswith("ERROR"):
        return f"expected success, got {got!r}"
    if how == "round_trip":
        expect["id"] = case["value"]
    want = expected_text(how, expect)
    return None if got == want else f"got {got!r}, expected {want!r}"


def run_all(psql: str, sqls: list, target: str = "plain") -> dict | None:
    """Runs every query in one psql session (the target's functions loaded first), each
    through snowfleet_test.try so an error is a result; returns {index: text}, None if psql
    failed."""
    script = [PRELUDE, LOAD[target], "\\pset format unaligned", "\\pset tuples_only on"]
    for i, sql in enumerate(sqls):
        script.append(f"SELECT {i} || E'\\t' || replace(snowfleet_test.try({lit(sql)}), E'\\n', '\\n');")
    run = subprocess.run(shlex.split(psql) + ["-X", "-q", "-v", "ON_ERROR_STOP=1"],
                         input="\n".join(script), capture_output=True, text=True,
                         env={**os.environ, "PGCLIENTENCODING": "UTF8"})
    if run.returncode != 0:
        print(run.stderr, file=sys.stderr)
        return None
    results = {}
    for line in run.stdout.splitlines():
        if "\t" in line:
            i, got = line.split("\t", 1)
            results[int(i)] = got
    return results


def compare(mine: dict, other_path: str, label: str) -> int:
    """Differences between this run's raw results and another run's file, printed; 0 when
    identical."""
    other = json.loads(pathlib.Path(other_path).read_text(encoding="utf-8"))
    keys = sorted(set(mine) | set(other))
    diff = [k for k in keys if mine.get(k) != other.get(k)]
    for k in diff[:20]:
        print(f"DIFFERS {k}:\n  this:  {mine.get(k)!r}\n  other: {other.get(k)!r}")
    print(f"{label}: {len(keys) - len(diff)} of {len(keys)} results identical to {other_path}")
    return len(diff)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--psql", required=True, help="the psql command line, database included")
    ap.add_argument("--target", choices=sorted(LOAD), default="plain")
    ap.add_argument("--results", help="write the raw results here (JSON)")
    ap.add_argument("--same-as", help="fail unless the raw results equal this file's")
    args = ap.parse_args(argv)
    cases, not_applicable = [], {}
    for name in FILES:
        doc = json.loads((VECTORS / name).read_text(encoding="utf-8"))
        for case in doc["cases"]:
            try:
                sql, how = QUERIES[doc["kind"]](case)
            except NotApplicable as e:
                not_applicable[str(e)] = not_applicable.get(str(e), 0) + 1
                continue
            cases.append((doc["kind"], case, sql, how))
    results = run_all(args.psql, [sql for _, _, sql, _ in cases], args.target)
    if results is None:
        return 1
    failures, raw = 0, {}
    for i, (kind, case, _, how) in enumerate(cases):
        got = results.get(i)
        raw[case["id"]] = got
        problem = "no result" if got is None else check(kind, case, how, got)
        if problem:
            failures += 1
            print(f"FAIL {case['id']}: {problem}")
    refused = sum(1 for kind, case, _, _ in cases if host_refusal(kind, case) is not None)
    print(f"sql conformance ({args.target}): {len(cases) - failures} of {len(cases)} cases passed "
          f"({refused} of them refused by PostgreSQL itself: a type, a NUL byte, a signature); "
          f"not applicable: " + ", ".join(f"{n} {why}" for why, n in sorted(not_applicable.items())))
    if args.results:
        pathlib.Path(args.results).write_text(json.dumps(raw, indent=1, sort_keys=True) + "\n",
                                              encoding="utf-8")
    if args.same_as:
        failures += compare(raw, args.same_as, f"sql conformance ({args.target})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
