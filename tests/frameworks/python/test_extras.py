"""Each integration module, imported without its framework, is one ImportError naming the
extra to install; with it, the package type-checks strictly and matches its stubs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[3] / "python" / "tests"


@pytest.mark.parametrize("module, framework, extra", [
    ("sqlalchemy", "sqlalchemy", "sqlalchemy"),
    ("django", "django", "django"),
    ("pydantic", "pydantic", "pydantic"),
])
def test_a_missing_framework_names_the_extra(module: str, framework: str, extra: str) -> None:
    code = (f"import sys; sys.modules[{framework!r}] = None\n"
            f"try:\n    import snowfleet.{module}\nexcept ImportError as e:\n    print(e)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert f"pip install 'snowfleet[{extra}]'" in out.stdout, out.stdout + out.stderr


@pytest.mark.parametrize("command", [
    ["mypy", "--strict", "--no-incremental", "-p", "snowfleet"],
    ["mypy.stubtest", "snowfleet", "--allowlist", str(TESTS / "stubtest-allowlist.txt"),
     "--ignore-unused-allowlist"],
])
def test_types_with_the_frameworks_installed(command: list) -> None:
    run = subprocess.run([sys.executable, "-m", *command], capture_output=True, text=True, cwd=TESTS)
    assert run.returncode == 0, run.stdout + run.stderr
