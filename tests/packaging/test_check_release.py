"""check_release.py must refuse a wheel pip would install wrong.

    python3 -m pytest -q tests/packaging/test_check_release.py

The wheel is written by the release wheels' build backend (scikit-build-core, as
scripts/dist/build.sh runs it, tags included) without its CMake step, so with a stand-in native
module; each test damages it the way a packaging bug would and runs check_release.py on a
directory holding only that wheel. The first test is the baseline: the undamaged wheel passes.
"""

from __future__ import annotations

import base64
import hashlib
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHECK = ROOT / "tests" / "packaging" / "check_release.py"
WHEEL_TAGS = ROOT / "scripts" / "dist" / "wheel_tags.py"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """snowfleet's cp311 manylinux_2_17_x86_64 wheel from scikit-build-core, less the module."""
    pytest.importorskip("scikit_build_core", reason="pip install scikit-build-core (test/python.sh does)")
    out = tmp_path_factory.mktemp("built")
    plat = "manylinux_2_17_x86_64"
    tags = subprocess.run([sys.executable, str(WHEEL_TAGS), "cp311", plat], capture_output=True,
                          text=True, check=True).stdout.split()
    settings = ["wheel.cmake=false", "wheel.platlib=true", "wheel.reproducible=true",
                *(f"wheel.tags={t}" for t in tags)]
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--disable-pip-version-check",
                    "--no-deps", "--no-build-isolation", "-w", str(out),
                    *(f"--config-settings={s}" for s in settings), str(ROOT)],
                   capture_output=True, text=True, check=True)
    (wheel,) = out.glob("*.whl")
    name = subprocess.run([sys.executable, str(WHEEL_TAGS), "--name", "cp311", plat],
                          capture_output=True, text=True, check=True).stdout.strip()
    return wheel.rename(wheel.with_name(f"snowfleet-{(ROOT / 'VERSION').read_text().strip()}-{name}.whl"))


def with_module(tmp_path: Path, built: Path, module_tag: str = "cp311",
               platform: str = "x86_64-linux-gnu") -> Path:
    """The built wheel with a stand-in native module for CPython module_tag on platform."""
    (tmp_path / "dist").mkdir()
    wheel = Path(shutil.copy(built, tmp_path / "dist" / built.name))
    abi = f"cpython-{module_tag[2:]}-{platform}"
    return rewrite(wheel, lambda n, d: d, add={f"snowfleet/_snowfleet.{abi}.so": b"\x7fELF stand-in"})


def rewrite(wheel: Path, edit, new_name: str | None = None, add: dict | None = None) -> Path:
    """The wheel with each member passed through edit(name, data) and the members in add
    added; RECORD re-hashed."""
    with zipfile.ZipFile(wheel) as z:
        members = {i.filename: z.read(i.filename) for i in z.infolist()}
    members = {n: edit(n, d) for n, d in members.items()}
    record = next(n for n in members if n.endswith("/RECORD"))
    lines = members[record].decode().splitlines()
    for n, d in (add or {}).items():
        members[n] = d
        lines.insert(0, f"{n},sha256=,0")
    rows = []
    for row in lines:
        arc, digest, size = row.rsplit(",", 2)
        if digest and arc in members:
            h = base64.urlsafe_b64encode(hashlib.sha256(members[arc]).digest()).rstrip(b"=")
            digest, size = f"sha256={h.decode()}", str(len(members[arc]))
        rows.append(f"{arc},{digest},{size}")
    members[record] = edit(record, ("\n".join(rows) + "\n").encode())
    target = wheel.with_name(new_name) if new_name else wheel
    wheel.unlink()
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as z:
        for n, d in members.items():
            z.writestr(n, d)
    return target


def check(wheel: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(CHECK), str(wheel.parent)], capture_output=True,
                          text=True)


def test_an_undamaged_wheel_passes(tmp_path: Path, built: Path) -> None:
    run = check(with_module(tmp_path, built))
    assert run.returncode == 0, run.stderr


def test_a_wheel_whose_native_module_is_for_another_python_fails(tmp_path: Path, built: Path) -> None:
    # A cp311 wheel carrying a CPython 3.12 module installs and then cannot import (the
    # dab06bc class of bug: a module named for the wrong interpreter).
    run = check(with_module(tmp_path, built, module_tag="cp312"))
    assert run.returncode == 1 and "cpython-312" in run.stderr, run.stdout + run.stderr


def test_a_wheel_whose_native_module_is_named_for_another_platform_fails(tmp_path: Path, built: Path) -> None:
    # CPython on x86_64 glibc imports no _snowfleet.cpython-311-x86_64-linux-musl.so: pybind11
    # once named every target's module for the build machine when the interpreter changed.
    run = check(with_module(tmp_path, built, platform="x86_64-linux-musl"))
    assert run.returncode == 1 and "named for x86_64-linux-musl" in run.stderr, run.stdout + run.stderr


def test_a_manylinux2014_alias_for_another_arch_fails(tmp_path: Path, built: Path) -> None:
    # pip < 20.3 reads only the alias: on aarch64 it would install this x86_64 wheel.
    wheel = with_module(tmp_path, built)
    name = wheel.name.replace("manylinux2014_x86_64", "manylinux2014_aarch64")
    run = check(rewrite(wheel, lambda n, d: d, new_name=name))
    assert run.returncode == 1 and "manylinux2014_aarch64" in run.stderr, run.stdout + run.stderr


def test_a_record_row_without_a_hash_fails(tmp_path: Path, built: Path) -> None:
    # PEP 376/427: every file but RECORD itself is listed with its hash.
    def drop_hash(n: str, d: bytes) -> bytes:
        if n.endswith("/RECORD"):
            return re.sub(rb"(snowfleet/_snowfleet[^,]*\.so),sha256=[^,]*,", rb"\1,,", d)
        return d

    run = check(rewrite(with_module(tmp_path, built), drop_hash))
    assert run.returncode == 1 and "_snowfleet" in run.stderr, run.stdout + run.stderr


def test_an_extra_without_its_requirements_fails(tmp_path: Path, built: Path) -> None:
    # `pip install snowfleet[test]` would install none of pytest, mypy, hypothesis.
    def drop_extra_requirements(n: str, d: bytes) -> bytes:
        if n.endswith("/METADATA"):
            return re.sub(rb"Requires-Dist: [^\n]*extra == [^\n]*\n", b"", d)
        return d

    run = check(rewrite(with_module(tmp_path, built), drop_extra_requirements))
    assert run.returncode == 1 and "Requires-Dist" in run.stderr, run.stdout + run.stderr


def test_metadata_passes_packagings_validation(tmp_path: Path, built: Path) -> None:
    # (License-File is a Metadata-Version 2.4 field: a 2.1 METADATA carrying it is refused.)
    from packaging.metadata import Metadata

    with zipfile.ZipFile(with_module(tmp_path, built)) as z:
        meta = z.read(next(n for n in z.namelist() if n.endswith("/METADATA")))
    Metadata.from_email(meta, validate=True)
