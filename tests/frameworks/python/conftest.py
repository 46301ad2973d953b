"""Shared fixtures of the framework integration tests: a fresh database on the test area's
PostgreSQL (SNOWFLEET_PG_URL, started by scripts/test/frameworks.sh), the JavaScript client
that reads a service's JSON, and the largest id."""

from __future__ import annotations

import os
import shutil
import subprocess
import uuid
from pathlib import Path
from typing import Dict, Iterator

import pytest

HERE = Path(__file__).resolve().parent
MAX_ID = (1 << 63) - 1


def pg_url() -> str:
    url = os.environ.get("SNOWFLEET_PG_URL")
    if not url:
        pytest.fail("SNOWFLEET_PG_URL is not set: run these tests through scripts/test/frameworks.sh")
    return url


@pytest.fixture
def pg_database() -> Iterator[str]:
    """A new, empty PostgreSQL database; yields its libpq URL and drops it afterwards."""
    import psycopg

    name = "t_" + uuid.uuid4().hex[:12]
    with psycopg.connect(pg_url(), autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    yield pg_url().rsplit("/", 1)[0] + "/" + name
    with psycopg.connect(pg_url(), autocommit=True) as conn:
        conn.execute(f"DROP DATABASE {name} WITH (FORCE)")


def js_client_reads(body: str, expected: Dict[str, int]) -> str:
    """Runs the JavaScript client on a JSON body: each path must hold its id as a string that
    BigInt reads exactly. Returns what it printed."""
    node = shutil.which("node")
    assert node, "node is needed to read the JSON as a JavaScript client"
    args = [f"{path}={value}" for path, value in expected.items()]
    run = subprocess.run([node, str(HERE.parent / "js_client.js"), *args], input=body,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr + "\n" + body
    return run.stdout
