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
