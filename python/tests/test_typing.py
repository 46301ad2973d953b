"""The stubs match the built module (mypy.stubtest) and the package type-checks strictly."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import require

HERE = Path(__file__).parent


def _run(*args: str) -> None:
    proc = subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True, cwd=HERE)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_stubtest() -> None:
    require("mypy")
    _run("mypy.stubtest", "snowfleet", "--allowlist", str(HERE / "stubtest-allowlist.txt"),
         "--ignore-unused-allowlist")


def test_package_and_usage_type_check_strictly() -> None:
    require("mypy")
    _run("mypy", "--strict", "--no-incremental", "-p", "snowfleet")
    _run("mypy", "--strict", "--no-incremental", str(HERE / "typing_usage.py"))
