#!/usr/bin/env python3
"""The SQL conformance runner: runs conformance/vectors/{codec,range,layout}.json through the
functions of sql/postgresql/snowfleet.sql in a real PostgreSQL, with psql.

    python3 sql/postgresql/tests/conformance_runner.py --psql "psql -h HOST -p PORT -U USER DB"

Every case becomes one call of a snowfleet function inside a PL/pgSQL wrapper that returns
its result as text, or 'ERROR: ' and the error's message, so one psql run executes them
all; a refused case must carry the vector's error code at the start of its message (the
functions raise 'INVALID_ARGUMENT: ...', 'TIMESTAMP_OUT_OF_RANGE: ...') and every
message_contains part. No case is skipped: layout.json's 'create' cases (fields given one by
one, which SQL has no call for) are checked through their text form instead.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import shlex
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[3]
VECTORS = ROOT / "conformance" / "vectors"
SQL = ROOT / "sql" / "postgresql" / "snowfleet.sql"

PRELUDE = r"""
\set ON_ERROR_STOP 1
CREATE SCHEMA IF NOT EXISTS snowfleet_test;
CREATE OR REPLACE FUNCTION snowfleet_test.try(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE r text;
BEGIN
  EXECUTE q INTO r;
  RETURN coalesce(r, 'NULL');
EXCEPTION WHEN OTHERS THEN
  RETURN 'ERROR: ' || SQLERRM;
END $$;
"""


def lit(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def layout_text(case) -> str:
    """A layout.json 'create' case as the text form (a 0-bit datacenter field is refused by
    create_split but is the unsplit form in text, so that one case keeps its own check)."""
    ts, seq, epoch = case["timestamp_bits"], case["sequence_bits"], case["epoch_ms"]
    if "datacenter_bits" in case:
        return f"{ts}.{case['datacenter_bits']}.{case['machine_bits']}.{seq}@{epoch}"
    return f"{ts}.{case['node_bits']}.{seq}@{epoch}"


def queries(kind: str, case):
    """(sql, how to read the result) for one case, or None for a case SQL cannot express."""
    op = case["op"]
    lay = lit(case.get("layout", "default"))
    if kind == "codec":
        if op == "parse_id":
            return f"SELECT snowfleet.parse_id({lit(case['text'])})::text", "id"
        if op == "decode":
            # The time column too, read back as ms: it must be the same millisecond.
            return (f"SELECT concat_ws(',', d.timestamp_ms, d.node_id, d.datacenter_id, "
                    f"d.machine_id, d.sequence, snowfleet.to_ms(d.\"time\")) FROM snowfleet.decode("
                    f"snowfleet.parse_id({lit(case['value'])}), {lay}) d"), "decoded"
        ts, seq = case["timestamp_ms"], case["sequence"]
        if "datacenter_id" in case:
            return (f"SELECT snowfleet.compose_split_ms({ts}, {case['datacenter_id']}, "
                    f"{case['machine_id']}, {seq}, {lay})::text"), "id"
        return f"SELECT snowfleet.compose_ms({ts}, {case['node_id']}, {seq}, {lay})::text", "id"
    if kind == "range":
        if op == "id_range":
            slack = case.get("slack_ms", "0")
            return (f"SELECT r.first || ',' || r.last FROM snowfleet.id_range_ms("
                    f"{case['start_ms']}, {case['end_ms']}, {slack}, {lay}) r"), "range"
        return f"SELECT snowfleet.{op}_ms({case['timestamp_ms']}, {lay})::text", "id"
    assert kind == "layout"
    text = case["text"] if op == "parse" else layout_text(case)
    if op == "create" and "datacenter_bits" in case and case["datacenter_bits"] == 0:
        return None  # "41.0.10.12@..." is the valid unsplit text; create_split refuses it
    return (f"SELECT concat_ws(',', l.epoch_ms, l.timestamp_bits, l.datacenter_bits, "
            f"l.machine_bits, l.sequence_bits) FROM snowfleet.layout({lit(text)}) l"), "layout"


def check(kind: str, case, how: str, got: str):
    """A failure message, or None."""
    expect = case["expect"]
    if "error" in expect:
        if not got.startswith(f"ERROR: {expect['error']}: "):
            return f"expected {expect['error']}, got {got!r}"
        for part in expect.get("message_contains", []):
            if part not in got:
                return f"{part!r} not in {got!r}"
        return None
    if got.startswith("ERROR"):
        return f"expected success, got {got!r}"
    if how == "id":
        want = expect["id"]
    elif how == "decoded":
        want = ",".join(str(expect[k]) for k in
                        ("timestamp_ms", "node_id", "datacenter_id", "machine_id", "sequence",
                         "timestamp_ms"))
    elif how == "range":
        want = f"{expect['first']},{expect['last']}"
    else:
        want = ",".join(str(expect[k]) for k in
                        ("epoch_ms", "timestamp_bits", "datacenter_bits", "machine_bits",
                         "sequence_bits"))
    return None if got == want else f"got {got!r}, expected {want!r}"


def run_all(psql: str, sqls: list) -> dict | None:
    """Runs every expression in one psql session (the functions loaded once), each through
    snowfleet_test.try so an error is a result; returns {index: text}, None if psql failed."""
    script = [PRELUDE, f"\\i {SQL}", "\\pset format unaligned", "\\pset tuples_only on"]
    for i, sql in enumerate(sqls):
        script.append(f"SELECT {i} || E'\\t' || snowfleet_test.try({lit(sql)});")
    run = subprocess.run(shlex.split(psql) + ["-X", "-q", "-v", "ON_ERROR_STOP=1"],
                         input="\n".join(script), capture_output=True, text=True)
    if run.returncode != 0:
        print(run.stderr, file=sys.stderr)
        return None
    results = {}
    for line in run.stdout.splitlines():
        if "\t" in line:
            i, got = line.split("\t", 1)
            results[int(i)] = got
    return results


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--psql", required=True, help="the psql command line, database included")
    args = ap.parse_args(argv)
    cases = []
    for name in ("codec.json", "range.json", "layout.json"):
        doc = json.loads((VECTORS / name).read_text(encoding="utf-8"))
        for case in doc["cases"]:
            q = queries(doc["kind"], case)
            if q is not None:
                cases.append((doc["kind"], case, *q))
    results = run_all(args.psql, [sql for _, _, sql, _ in cases])
    if results is None:
        return 1
    failures = 0
    for i, (kind, case, _, how) in enumerate(cases):
        problem = "no result" if i not in results else check(kind, case, how, results[i])
        if problem:
            failures += 1
            print(f"FAIL {kind}:{case['id']}: {problem}")
    print(f"sql conformance: {len(cases) - failures} of {len(cases)} cases passed "
          f"(codec.json, range.json, layout.json)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
