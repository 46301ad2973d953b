#!/usr/bin/env python3
"""Package metadata written once: fails when a package file drifts from the repository's.

- the version: VERSION is the one place it is written. CMake and binding.gyp read the file,
  pyproject.toml reads it through scikit-build-core; package.json, package-lock.json and
  java/pom.xml must spell it literally (npm and Maven read no other file), so they are
  compared here. `bash scripts/dev/set-version.sh X.Y.Z` rewrites all of them.
- the license (LICENSE), description, repository and keywords, the same on PyPI, npm and
  Maven Central (Maven has no keywords element).

    python3 tests/packaging/check_metadata.py      # prints what it checked, exits 1 on drift
"""

from __future__ import annotations

import json
import re
import sys
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
POM_NS = {"m": "http://maven.apache.org/POM/4.0.0"}


def integration_versions() -> dict[str, str | None]:
    """The Java integrations' versions: each pom's (or its parent's) and the core's they use."""
    found: dict[str, str | None] = {}
    for path in sorted((ROOT / "java" / "integrations").glob("**/pom.xml")):
        if "target" in path.parts:
            continue
        root = ET.parse(path).getroot()
        rel = path.relative_to(ROOT).as_posix()
        for what in ("m:version", "m:parent/m:version", "m:properties/m:snowfleet.version"):
            node = root.find(what, POM_NS)
            if node is not None:
                found[f"{rel} {what.replace('m:', '')}"] = (node.text or "").strip()
    return found


def main() -> int:
    errors: list[str] = []

    def same(what: str, values: dict[str, object]) -> None:
        distinct = {json.dumps(v, sort_keys=True) for v in values.values()}
        if len(distinct) != 1:
            errors.append(f"{what} differs: " + "; ".join(f"{k}={v!r}" for k, v in values.items()))

    version = (ROOT / "VERSION").read_text().strip()
    if not re.fullmatch(r"\d+\.\d+\.\d+", version):
        errors.append(f"VERSION must hold MAJOR.MINOR.PATCH, got {version!r}")

    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    project = pyproject["project"]
    pkg = json.loads((ROOT / "package.json").read_text())
    lock = json.loads((ROOT / "package-lock.json").read_text())
    pom = ET.parse(ROOT / "java" / "pom.xml").getroot()

    def pom_text(path: str) -> str | None:
        node = pom.find(path, POM_NS)
        return None if node is None else (node.text or "").strip()

    # The version.
    if "version" in project or "version" not in project.get("dynamic", []):
        errors.append("pyproject.toml must take its version from VERSION (dynamic), not spell it")
    provider = pyproject["tool"]["scikit-build"].get("metadata", {}).get("version", {})
    if provider.get("input") != "VERSION":
        errors.append(f"pyproject.toml's version provider reads {provider.get('input')!r}, not VERSION")
    same(
        "the version",
        {
            "VERSION": version,
            "package.json": pkg["version"],
            "package-lock.json": lock["version"],
            'package-lock.json packages[""]': lock["packages"][""]["version"],
            "java/pom.xml": pom_text("m:version"),
            **integration_versions(),
        },
    )
    java_readme = (ROOT / "java" / "README.md").read_text()
    for snippet in (f"<version>{version}</version>", f"snowfleet-{version}.jar"):
        if snippet not in java_readme:
            errors.append(f"java/README.md lacks {snippet!r} (scripts/dev/set-version.sh writes it)")
    # No source file spells the version: each reads it from the build.
    for rel, pattern in [
        ("python/snowfleet/__init__.py", r"__version__\s*=\s*['\"]"),
        ("core/src/cli/main.cc", re.escape(version)),
        ("CMakeLists.txt", r"project\([^)]*VERSION\s+\d"),
    ]:
        if re.search(pattern, (ROOT / rel).read_text()):
            errors.append(f"{rel} spells the version instead of reading VERSION")

    # The license, description, repository and keywords.
    license_text = (ROOT / "LICENSE").read_text() if (ROOT / "LICENSE").exists() else ""
    if not license_text.startswith("MIT License"):
        errors.append("LICENSE is missing or is not the MIT license the package files name")
    same(
        "the license",
        {
            "LICENSE": "MIT" if license_text.startswith("MIT License") else license_text[:20],
            "pyproject.toml": project.get("license", {}).get("text"),
            "package.json": pkg["license"],
            "java/pom.xml": pom_text("m:licenses/m:license/m:name"),
        },
    )
    if "License :: OSI Approved :: MIT License" not in project["classifiers"]:
        errors.append("pyproject.toml's classifiers lack the MIT license classifier")
    same(
        "the description",
        {
            "pyproject.toml": project["description"],
            "package.json": pkg["description"],
            "java/pom.xml": pom_text("m:description"),
        },
    )
    repo = project.get("urls", {}).get("Repository")
    same(
        "the repository",
        {
            "pyproject.toml": repo,
            "package.json": re.sub(r"^git\+|\.git$", "", pkg.get("repository", {}).get("url", "")),
            "package.json homepage": pkg.get("homepage"),
            "java/pom.xml url": pom_text("m:url"),
            "java/pom.xml scm": pom_text("m:scm/m:url"),
        },
    )
    same("the keywords", {"pyproject.toml": project["keywords"], "package.json": pkg["keywords"]})

    for e in errors:
        print(f"FAIL: {e}", file=sys.stderr)
    if not errors:
        print(f"package metadata agrees: version {version}, license MIT, repository {repo}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
