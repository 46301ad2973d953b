#!/usr/bin/env python3
"""What a user gets from the release artifacts scripts/dist/build.sh writes (default out/dist/):
fails when one of them lacks what pyproject.toml, package.json, pom.xml and LICENSE promise.

- every wheel: a manylinux_2_17 one also named manylinux2014 (pip < 20.3), its native module
  named for its CPython and platform (_snowfleet.cpython-311-aarch64-linux-musl.so), the `snowfleet`
  console script ([project.scripts] as entry_points.txt), the license file, METADATA with
  the keywords, project URLs and extras pyproject.toml declares (what `pip install
  snowfleet[test]` and the PyPI page read), RECORD hashes that match;
- every archive (wheels, sdist, npm tarball, jar, -sources and -javadoc jars): LICENSE;
- one version: VERSION's, in every file name, METADATA, _version.py, the npm package.json
  and the jar's manifest and pom.properties.

    python3 tests/packaging/check_release.py [DIST]   # exits 1 and names each gap

(scripts/dist/check.sh checks the native files; this checks what surrounds them.)
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import re
import sys
import tarfile
import zipfile
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts" / "dist"))
from wheel_tags import platform_tags  # noqa: E402  (the rule scripts/dist/build.sh writes by)


def metadata_fields(text: str) -> list[tuple[str, str]]:
    """The header fields of a METADATA / PKG-INFO (up to the first blank line)."""
    head = text.split("\n\n", 1)[0]
    return [tuple(line.split(": ", 1)) for line in head.splitlines() if ": " in line]


def check_wheel(path: Path, project: dict, license_text: str, version: str) -> list[str]:
    errors = []
    where = path.name
    # The platform tags are the first (auditwheel's, checked by dist/check.sh) and the aliases
    # dist/build.sh adds to it (manylinux2014 for manylinux_2_17: pip < 20.3, e.g. RHEL 8's
    # 20.2.4, reads only that), one rule written once, in the writer.
    platforms = path.name[:-len(".whl")].split("-")[-1].split(".")
    expected = platform_tags(platforms[0])
    if platforms != expected:
        errors.append(f"{where}: platform tags {'.'.join(platforms)}, want {'.'.join(expected)} "
                      "(a manylinux_2_17 wheel is also manylinux2014 of the same arch: pip < 20.3)")
    py_tag = path.name.split("-")[2]  # cp311
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        info = f"snowfleet-{version}.dist-info"
        if f"{info}/METADATA" not in names:
            return [f"{where}: no {info}/METADATA (another version's dist-info?)"]
        if f"{info}/RECORD" not in names:
            return errors + [f"{where}: no {info}/RECORD"]
        # the native module is the one this wheel's Python tag loads, named for its platform
        # (CPython imports no module named for another arch or libc)
        m = re.fullmatch(r"(manylinux|musllinux)_\d+_\d+_(\w+)", platforms[0])
        soabi_platform = f"{m.group(2)}-linux-{'musl' if m.group(1) == 'musllinux' else 'gnu'}" if m else None
        for n in names:
            m = re.fullmatch(r"snowfleet/_snowfleet\.cpython-(\d+)-?([^.]*)\.so", n)
            if m and f"cp{m.group(1)}" != py_tag:
                errors.append(f"{where}: {n} is for CPython {m.group(1)}, the wheel is {py_tag}")
            if m and soabi_platform and m.group(2) != soabi_platform:
                errors.append(f"{where}: {n} is named for {m.group(2) or 'no platform'}, "
                              f"the wheel is {platforms[0]} ({soabi_platform})")
        meta = z.read(f"{info}/METADATA").decode()
        fields = metadata_fields(meta)
        keys = {k for k, _ in fields}

        # The console script: pip writes bin/snowfleet from entry_points.txt only.
        scripts = project.get("scripts", {})
        ep = z.read(f"{info}/entry_points.txt").decode() if f"{info}/entry_points.txt" in names else ""
        for name, target in scripts.items():
            if not re.search(rf"^\[console_scripts\][^\[]*^{re.escape(name)}\s*=\s*{re.escape(target)}\s*$",
                             ep, re.M | re.S):
                errors.append(f"{where}: no console script {name} = {target} "
                              f"({info}/entry_points.txt {'lacks it' if ep else 'missing'}): "
                              f"`pip install` gives no `{name}` command")

        # The license file (MIT: the notice goes with every copy).
        lic = [n for n in names if n.startswith(f"{info}/") and re.search(r"/(licenses/)?LICEN[SC]E", n)]
        if not lic:
            errors.append(f"{where}: carries no LICENSE ({info}/licenses/LICENSE or {info}/LICENSE)")
        elif z.read(lic[0]).decode() != license_text:
            errors.append(f"{where}: {lic[0]} differs from LICENSE")

        # What pyproject.toml declares and PyPI / pip read from METADATA.
        if project.get("keywords") and "Keywords" not in keys:
            errors.append(f"{where}: METADATA has no Keywords (pyproject.toml: {project['keywords']})")
        urls = {v for k, v in fields if k == "Project-URL"}
        for label, url in project.get("urls", {}).items():
            if f"{label}, {url}" not in urls:
                errors.append(f"{where}: METADATA has no Project-URL: {label}, {url}")
        extras = {v for k, v in fields if k == "Provides-Extra"}
        requires = {v for k, v in fields if k == "Requires-Dist"}
        for extra, deps in project.get("optional-dependencies", {}).items():
            if extra not in extras:
                errors.append(f"{where}: METADATA has no Provides-Extra: {extra} "
                              f"(`pip install snowfleet[{extra}]` installs none of its requirements)")
            for d in deps:
                if f'{d}; extra == "{extra}"' not in requires:
                    errors.append(f'{where}: METADATA has no Requires-Dist: {d}; extra == "{extra}"')
        got = dict(fields).get("Version")
        if got != version:
            errors.append(f"{where}: METADATA Version {got}, VERSION says {version}")
        vfile = "snowfleet/_version.py"
        if vfile in names and f'"{version}"' not in z.read(vfile).decode():
            errors.append(f"{where}: {vfile} is not {version}")

        # RECORD: every file listed with its hash, nothing unlisted.
        record = z.read(f"{info}/RECORD").decode().splitlines()
        listed = {}
        for row in record:
            arc, digest, _size = row.rsplit(",", 2)
            listed[arc] = digest
        for arc in listed:
            if arc not in names:
                errors.append(f"{where}: RECORD lists {arc}, which the wheel does not hold")
        for n in names:
            if n.endswith("/"):
                continue
            if n not in listed:
                errors.append(f"{where}: {n} is not in RECORD")
            elif not listed[n]:
                if n != f"{info}/RECORD":
                    errors.append(f"{where}: RECORD row of {n} has no hash")
            else:
                algo, want = listed[n].split("=", 1)
                have = base64.urlsafe_b64encode(hashlib.new(algo, z.read(n)).digest()).rstrip(b"=").decode()
                if have != want:
                    errors.append(f"{where}: RECORD hash of {n} does not match")
    return errors


def archive_names(path: Path) -> tuple[list[str], callable]:
    if path.suffix in (".whl", ".jar"):
        z = zipfile.ZipFile(path)
        return z.namelist(), lambda n: z.read(n)
    t = tarfile.open(path)
    members = {m.name: m for m in t.getmembers() if m.isfile()}
    return list(members), lambda n: t.extractfile(members[n]).read()


def main(argv: list[str]) -> int:
    dist = Path(argv[1] if len(argv) > 1 else ROOT / "out" / "dist")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    license_text = (ROOT / "LICENSE").read_text()
    version = (ROOT / "VERSION").read_text().strip()
    errors: list[str] = []
    artifacts = sorted(p for p in dist.iterdir() if p.name.endswith((".whl", ".jar", ".tgz", ".tar.gz")))
    if not artifacts:
        print(f"FAIL: no artifact in {dist}", file=sys.stderr)
        return 1
    for a in artifacts:
        if f"-{version}" not in a.name:
            errors.append(f"{a.name}: not version {version}")
        if a.suffix == ".whl":
            errors += check_wheel(a, project, license_text, version)
        names, read = archive_names(a)
        if a.suffix != ".whl":  # (a wheel's license file is checked above)
            lic = [n for n in names if re.search(r"(^|/)LICEN[SC]E(\.txt|\.md)?$", n)]
            if not lic:
                errors.append(f"{a.name}: carries no LICENSE")
            elif read(lic[0]).decode() != license_text:
                errors.append(f"{a.name}: {lic[0]} differs from LICENSE")
        if a.name.endswith(".tgz"):
            pkg = json.loads(read("package/package.json"))
            if pkg.get("version") != version:
                errors.append(f"{a.name}: package.json version {pkg.get('version')}")
        if a.suffix == ".jar":
            manifest = read("META-INF/MANIFEST.MF").decode() if "META-INF/MANIFEST.MF" in names else ""
            if not a.name.endswith(("-sources.jar", "-javadoc.jar")):
                if f"Implementation-Version: {version}" not in manifest:
                    errors.append(f"{a.name}: MANIFEST.MF has no Implementation-Version: {version}")
            props = [n for n in names if n.endswith("/pom.properties")]
            for p in props:
                if f"version={version}" not in read(p).decode():
                    errors.append(f"{a.name}: {p} is not version {version}")
        print(f"checked {a.name}")
    for e in errors:
        print(f"FAIL: {e}", file=sys.stderr)
    if errors:
        return 1
    print(f"check_release: {len(artifacts)} artifacts: console script, LICENSE, metadata, version {version}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
