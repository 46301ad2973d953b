"""check_release.py must refuse a wheel pip would install wrong (breaker-fixes2).

    python3 -m pytest -q tests/packaging/test_check_release.py

Each test writes one wheel with scripts/packaging/make_wheel.py (a stand-in native module),
damages it the way a packaging bug would, and runs check_release.py on a directory holding
only that wheel. The first test is the baseline: the undamaged wheel passes.
"""

from __future__ import annotations

import base64
import hashlib
import re
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAKE_WHEEL = ROOT / "scripts" / "packaging" / "make_wheel.py"
CHECK = ROOT / "tests" / "packaging" / "check_release.py"


def make_wheel(tmp_path: Path, py_tag: str = "cp311", module_tag: str = "cp311",
               plat: str = "manylinux_2_17_x86_64") -> Path:
    staging = tmp_path / "staging"
    (staging / "snowfleet").mkdir(parents=True)
    (staging / "snowfleet" / "__init__.py").write_text("")
    abi = f"cpython-{module_tag[2:]}-x86_64-linux-gnu"
    (staging / "snowfleet" / f"_snowfleet.{abi}.so").write_bytes(b"\x7fELF stand-in")
    out = tmp_path / "dist"
    run = subprocess.run([sys.executable, str(MAKE_WHEEL), str(staging), str(out), py_tag, plat],
                         capture_output=True, text=True, check=True)
    return Path(run.stdout.strip())


def rewrite(wheel: Path, edit, new_name: str | None = None) -> Path:
    """The wheel with each member passed through edit(name, data); RECORD re-hashed."""
    with zipfile.ZipFile(wheel) as z:
        members = {i.filename: z.read(i.filename) for i in z.infolist()}
    members = {n: edit(n, d) for n, d in members.items()}
    record = next(n for n in members if n.endswith("/RECORD"))
    rows = []
    for row in members[record].decode().splitlines():
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


def test_an_undamaged_wheel_passes(tmp_path: Path) -> None:
    run = check(make_wheel(tmp_path))
    assert run.returncode == 0, run.stderr


def test_a_wheel_whose_native_module_is_for_another_python_fails(tmp_path: Path) -> None:
    # A cp311 wheel carrying a CPython 3.12 module installs and then cannot import (the
    # dab06bc class of bug: a module named for the wrong interpreter).
    run = check(make_wheel(tmp_path, py_tag="cp311", module_tag="cp312"))
    assert run.returncode == 1 and "cpython-312" in run.stderr, run.stdout + run.stderr


def test_a_manylinux2014_alias_for_another_arch_fails(tmp_path: Path) -> None:
    # pip < 20.3 reads only the alias: on aarch64 it would install this x86_64 wheel.
    wheel = make_wheel(tmp_path)
    name = wheel.name.replace("manylinux2014_x86_64", "manylinux2014_aarch64")
    run = check(rewrite(wheel, lambda n, d: d, new_name=name))
    assert run.returncode == 1 and "manylinux2014_aarch64" in run.stderr, run.stdout + run.stderr


def test_a_record_row_without_a_hash_fails(tmp_path: Path) -> None:
    # PEP 376/427: every file but RECORD itself is listed with its hash.
    def drop_hash(n: str, d: bytes) -> bytes:
        if n.endswith("/RECORD"):
            return re.sub(rb"(snowfleet/_snowfleet[^,]*\.so),sha256=[^,]*,", rb"\1,,", d)
        return d

    run = check(rewrite(make_wheel(tmp_path), drop_hash))
    assert run.returncode == 1 and "_snowfleet" in run.stderr, run.stdout + run.stderr


def test_an_extra_without_its_requirements_fails(tmp_path: Path) -> None:
    # `pip install snowfleet[test]` would install none of pytest, mypy, hypothesis.
    def drop_extra_requirements(n: str, d: bytes) -> bytes:
        if n.endswith("/METADATA"):
            return re.sub(rb"Requires-Dist: [^\n]*extra == [^\n]*\n", b"", d)
        return d

    run = check(rewrite(make_wheel(tmp_path), drop_extra_requirements))
    assert run.returncode == 1 and "Requires-Dist" in run.stderr, run.stdout + run.stderr


def test_metadata_passes_packagings_validation(tmp_path: Path) -> None:
    # License-File is a Metadata-Version 2.4 field; make_wheel writes 2.1.
    from packaging.metadata import Metadata

    with zipfile.ZipFile(make_wheel(tmp_path)) as z:
        meta = z.read(next(n for n in z.namelist() if n.endswith("/METADATA")))
    Metadata.from_email(meta, validate=True)
