#!/usr/bin/env python3
"""Writes conformance/vectors/*.json from the reference model, and checks them.

    python3 conformance/generate.py           # (re)write the vector files
    python3 conformance/generate.py --check   # exit 1 when a checked-in file is stale

Every expected value comes from model/snowfleet_model.py, or model/time_model.py for
time.json, or model/text_model.py for text.json and range.json, never from the core under
test. The cases live in one file per vector file or theme: layout_cases.py,
codec_cases.py, time_cases.py, argument_cases.py, text_cases.py, range_cases.py, and for
scenarios.json the data in scenario_cases_*.py, id_space_cases.py and
differential_cases.py, which scenario.py runs through the model. The reference's worked
examples and Working Python assertions are asserted there against the model's results,
so a vector that contradicts the reference cannot be written.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "model"))

from time_cases import time_cases  # noqa: E402  (time.json's cases, from model/time_model.py)
from id_space_cases import ID_SPACE_SCENARIOS  # noqa: E402  (id spaces and window edges)
from differential_cases import differential_cases  # noqa: E402  (found by the differential test)
from argument_cases import argument_cases  # noqa: E402  (arguments.json: the rulebook as data)
from layout_cases import layout_cases  # noqa: E402  (layout.json's cases)
from codec_cases import codec_cases  # noqa: E402  (codec.json's cases)
from text_cases import text_cases  # noqa: E402  (text.json: base32 / base62 forms)
from range_cases import range_cases  # noqa: E402  (range.json: min_id / max_id / id_range)
from uuid7_cases import uuid7_cases  # noqa: E402  (uuid7.json's cases)
from scenario import build  # noqa: E402  (runs scenario data through the model)
from scenario_cases_reference import REFERENCE_SCENARIOS  # noqa: E402
from scenario_cases_strict import STRICT_SCENARIOS  # noqa: E402
from scenario_cases_monotonic import CONSTRUCT_SCENARIOS, MONOTONIC_SCENARIOS  # noqa: E402

VECTORS = HERE / "vectors"
SCHEMA_VERSION = 1


# --------------------------------------------------------------------------- scenarios


def scenario_cases():
    """scenarios.json: the cases written as data in scenario_cases_*.py and id_space_cases.py
    (run through the model by scenario.build), then the differential test's finds."""
    entries = (REFERENCE_SCENARIOS + STRICT_SCENARIOS + MONOTONIC_SCENARIOS + CONSTRUCT_SCENARIOS
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
            "description": "compose / decode / parse_id, with the reference's worked examples and "
                           "out-of-range inputs.",
            "generated_by": "conformance/generate.py", "cases": codec_cases()},
        "scenarios.json": {
            "schema_version": SCHEMA_VERSION, "kind": "scenario",
            "description": "Generators on scripted clocks: every executable assertion of the "
                           "reference's Working Python, rewinds, exhaustion, drift, batches, stats.",
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
        "text.json": {
            "schema_version": SCHEMA_VERSION, "kind": "text",
            "description": "An id's sortable text forms: Crockford base32 (13 characters, TSID's "
                           "form) and fixed-width base62 (11 characters); the round trip of "
                           "every codec.json id, the parsing rules and the refusals.",
            "generated_by": "conformance/generate.py", "cases": text_cases()},
        "range.json": {
            "schema_version": SCHEMA_VERSION, "kind": "range",
            "description": "min_id / max_id of a millisecond and the inclusive id bounds of "
                           "[start_ms, end_ms) with a slack, at the window edges, and refusals.",
            "generated_by": "conformance/generate.py", "cases": range_cases()},
        "uuid7.json": {
            "schema_version": SCHEMA_VERSION, "kind": "uuid7",
            "description": "UUIDv7 generators on a scripted clock and the scripted (splitmix64) "
                           "random source: every UUID pinned; decode of UUID text and its "
                           "refusals (other versions, malformed text).",
            "generated_by": "conformance/generate.py", "cases": uuid7_cases()},
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
