"""Checks on the vector files themselves (run by scripts/test/core.sh with pytest):
they are strict JSON, follow schema.json, have unique ids, and are not stale against the
reference model; the reference's own Working Python still passes."""

import json
import pathlib
import runpy
import subprocess
import sys

import jsonschema
import pytest

HERE = pathlib.Path(__file__).resolve().parent
FILES = sorted((HERE / "vectors").glob("*.json"))


def strict_load(path):
    def no_constants(name):
        raise ValueError(f"{path.name}: non-standard JSON constant {name}")
    return json.loads(path.read_text(encoding="utf-8"), parse_constant=no_constants)


def test_the_files_are_these():
    assert [p.name for p in FILES] == [
        "arguments.json", "codec.json", "layout.json", "range.json", "scenarios.json", "text.json",
        "time.json", "uuid7.json"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_file_follows_schema(path):
    schema = json.loads((HERE / "schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(strict_load(path))


def test_schema_rejects_a_bad_case():
    schema = json.loads((HERE / "schema.json").read_text())
    doc = strict_load(HERE / "vectors" / "codec.json")
    doc["cases"][0]["expect"] = {"id": 141264821508263936}  # a number, not a string
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(doc, schema)


def test_schema_rejects_a_time_refusal_without_its_rule():
    schema = json.loads((HERE / "schema.json").read_text())
    doc = strict_load(HERE / "vectors" / "time.json")
    refusal = next(c for c in doc["cases"] if "error" in c["expect"])
    del refusal["expect"]["message_contains"]  # a refusal must say which rule it names
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(doc, schema)


def test_case_ids_are_unique_across_files():
    ids = [c["id"] for p in FILES for c in strict_load(p)["cases"]]
    assert len(ids) == len(set(ids))


def test_vectors_are_not_stale():
    r = subprocess.run([sys.executable, str(HERE / "generate.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_the_reference_snowflakes_own_assertions_pass():
    runpy.run_path(str(HERE / "model" / "reference_snowflake.py"), run_name="reference_snowflake")
