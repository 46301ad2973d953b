"""Shared helpers for the snowfleet test suite."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

#: The repository root (python/tests/ -> ../..).
REPO_ROOT = Path(__file__).resolve().parents[2]

#: conformance/vectors of this checkout; SNOWFLEET_CONFORMANCE_DIR overrides it.
VECTORS_DIR = Path(os.environ.get("SNOWFLEET_CONFORMANCE_DIR", REPO_ROOT / "conformance" / "vectors"))

EPOCH = 1704067200000  # the default layout's epoch


@pytest.fixture
def epoch() -> int:
    return EPOCH


def require(module: str):  # type: ignore[no-untyped-def]
    """Imports an optional test dependency. scripts/test/python.sh installs them all and sets
    SNOWFLEET_NO_SKIP=1, so there a missing one fails instead of skipping."""
    if os.environ.get("SNOWFLEET_NO_SKIP") == "1":
        return __import__(module)
    return pytest.importorskip(module)
