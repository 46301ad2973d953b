#!/usr/bin/env python3
"""The sdist and the npm tarball carry only what they build from: lists each one's contents
and fails on a file outside its allow-list or a build input missing from it.

    python3 tests/packaging/check_archives.py sdist   # needs `python -m build` (test/python.sh)
    python3 tests/packaging/check_archives.py npm     # needs npm (test/node.sh)

The sdist builds the core and the Python extension (plus the tests and conformance vectors
packagers run); the npm tarball builds the addon, and its README.md (the one npm's page shows)
is node/README.md. Neither carries another language's sources,
the C++ tests, benches, scripts or build outputs.
"""

from __future__ import annotations

import fnmatch
import json
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SDIST_ALLOWED = [
    "PKG-INFO", "pyproject.toml", "CMakeLists.txt", "VERSION", "LICENSE", "README.md",
    "CHANGELOG.md", ".gitignore", ".clang-format", ".editorconfig", "cmake/*", "core/include/*",
    "core/src/*", "core/sources.txt", "core/CMakeLists.txt", "bindings/python/*",
    "python/snowfleet/*", "python/tests/*", "python/README.md", "conformance/*",
]
SDIST_REQUIRED = [
    "pyproject.toml", "CMakeLists.txt", "VERSION", "LICENSE", "core/CMakeLists.txt",
    "core/sources.txt", "core/src/cli/cli.cc", "core/src/base/version.cc",
    "core/include/snowfleet/snowfleet.hpp", "bindings/python/_snowfleet.cc",
    "python/snowfleet/__init__.py", "python/snowfleet/__main__.py", "python/README.md",
]
NPM_ALLOWED = [
    "package.json", "README.md", "LICENSE", "VERSION", "binding.gyp", "bindings/node/*",
    "core/CMakeLists.txt", "core/include/*", "core/src/*", "core/sources.txt", "node/cli.js",
    "node/index.js", "node/index.mjs", "node/index.d.ts", "node/integrations/*",
    "node/README.md", "node/tools/core_sources.js", "node/tools/etcd_probe.js",
    "prebuilds/*",
]
NPM_REQUIRED = [
    "package.json", "README.md", "LICENSE", "VERSION", "binding.gyp", "core/sources.txt",
    "core/src/cli/cli.cc", "core/src/base/version.cc", "core/include/snowfleet/snowfleet.hpp",
    "bindings/node/addon.cc", "node/tools/core_sources.js", "node/cli.js",
    "node/index.js", "node/index.d.ts", "node/README.md", "node/integrations/json.js",
    "node/integrations/typeorm.d.ts",
]


def check(name: str, files: list[str], allowed: list[str], required: list[str]) -> list[str]:
    print(f"{name}: {len(files)} files")
    for f in files:
        print(f"  {f}")
    errors = [f"{name} carries {f}" for f in files if not any(fnmatch.fnmatch(f, p) for p in allowed)]
    errors += [f"{name} lacks {f}" for f in required if f not in files]
    return errors


def sdist_files(outdir: Path) -> list[str]:
    subprocess.run(
        [sys.executable, "-m", "build", "--sdist", "--outdir", str(outdir), str(ROOT)],
        check=True, capture_output=True, text=True,
    )
    (sdist,) = outdir.glob("snowfleet-*.tar.gz")
    with tarfile.open(sdist) as tar:
        names = [m.name.split("/", 1)[1] for m in tar.getmembers() if m.isfile()]
    return sorted(names)


def npm_files(outdir: Path) -> tuple[list[str], bytes]:
    """The npm tarball's files and its README.md, packed as scripts/dist/build.sh packs it: from
    the stage node/tools/stage_package.js writes (without the prebuilds dist/build.sh adds)."""
    stage = outdir / "stage"
    subprocess.run(["node", str(ROOT / "node/tools/stage_package.js"), str(stage)], check=True)
    run = subprocess.run(
        ["npm", "pack", "--json", "--ignore-scripts", "--pack-destination", str(outdir)],
        cwd=stage, check=True, capture_output=True, text=True,
    )
    with tarfile.open(outdir / json.loads(run.stdout)[0]["filename"]) as tar:
        names = [m.name.split("/", 1)[1] for m in tar.getmembers() if m.isfile()]
        readme = tar.extractfile("package/README.md").read() if "README.md" in names else b""
    return sorted(names), readme


def main(which: list[str]) -> int:
    errors: list[str] = []
    if not which or set(which) - {"sdist", "npm"}:
        print("usage: check_archives.py sdist|npm...", file=sys.stderr)
        return 2
    if "sdist" in which:
        with tempfile.TemporaryDirectory() as tmp:
            errors += check("sdist", sdist_files(Path(tmp)), SDIST_ALLOWED, SDIST_REQUIRED)
    if "npm" in which:
        with tempfile.TemporaryDirectory() as tmp:
            files, readme = npm_files(Path(tmp))
        errors += check("npm tarball", files, NPM_ALLOWED, NPM_REQUIRED)
        # npm's page shows the README at the package root: the Node one, not the repository's.
        if readme != (ROOT / "node" / "README.md").read_bytes():
            errors.append("npm tarball's README.md is not node/README.md")
    for e in errors:
        print(f"FAIL: {e}", file=sys.stderr)
    if not errors:
        print(f"{' and '.join(which)}: carries only what it builds from")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
