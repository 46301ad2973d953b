"""scripts/dist/build.sh dates its artifacts (SOURCE_DATE_EPOCH) from a tree that is not a git
checkout too: an unpacked `git archive` gave it an empty value, and zig stopped at the first
compile with "environment variable 'SOURCE_DATE_EPOCH' ('') must be a non-negative decimal
integer".

    python3 -m pytest -q tests/packaging/test_dist_epoch.py
"""

from __future__ import annotations

import io
import os
import subprocess
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True,
                          check=True).stdout.strip()


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """HEAD as `git archive HEAD | tar -x` leaves it: no .git, every file dated at the commit."""
    if subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True).returncode:
        pytest.skip("not a git checkout: nothing to export")
    tree = tmp_path_factory.mktemp("exported")
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "HEAD"], capture_output=True,
                             check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as t:
        t.extractall(tree)
    return tree


def epoch(tree: Path, **env: str) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k != "SOURCE_DATE_EPOCH"} | env
    # GIT_CEILING_DIRECTORIES: a temporary directory inside some other checkout stays outside it
    environ["GIT_CEILING_DIRECTORIES"] = str(tree.parent)
    return subprocess.run(["bash", "scripts/dist/build.sh", "--epoch"], cwd=tree, env=environ,
                          capture_output=True, text=True)


def test_an_exported_tree_is_dated_at_its_commit(exported: Path) -> None:
    run = epoch(exported)
    assert run.returncode == 0, run.stderr
    value = run.stdout.split()[0]
    assert value == git("log", "-1", "--format=%ct"), run.stdout
    assert "not a git checkout" in run.stdout


def test_a_checkout_is_dated_at_its_commit() -> None:
    run = epoch(ROOT)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split()[0] == git("log", "-1", "--format=%ct"), run.stdout


@pytest.mark.parametrize("value", ["abc", "-5", "1.5"])
def test_a_value_that_is_not_seconds_is_refused_at_once_naming_it(exported: Path, value: str) -> None:
    run = epoch(exported, SOURCE_DATE_EPOCH=value)
    assert run.returncode == 1, run.stdout
    assert f"SOURCE_DATE_EPOCH='{value}'" in run.stderr, run.stderr


def test_a_value_given_is_used(exported: Path) -> None:
    run = epoch(exported, SOURCE_DATE_EPOCH="1700000000")
    assert run.returncode == 0 and run.stdout.startswith("1700000000 "), run.stdout + run.stderr
