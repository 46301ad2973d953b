#!/usr/bin/env bash
# Sets the release version: writes VERSION (what CMake, binding.gyp and pyproject.toml read)
# and the copies npm and Maven need spelled out (package.json, package-lock.json,
# java/pom.xml, java/integrations' poms, the install snippets of the READMEs and
# docs/integrations). tests/packaging/check_metadata.py fails when
# they disagree.
#   bash scripts/dev/set-version.sh 0.2.0
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$(repo_root)"
new=${1:?usage: dev/set-version.sh MAJOR.MINOR.PATCH}
[[ "$new" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "version must be MAJOR.MINOR.PATCH, got '$new'" >&2; exit 2; }
old=$(head -1 VERSION)
printf '%s\n' "$new" >VERSION
python3 - "$old" "$new" <<'PY'
import re, sys
old, new = sys.argv[1:]
edits = [
    ("package.json", r'(\n  "version": ")' + re.escape(old) + '"', 1),
    ("package-lock.json", r'(\n  "version": ")' + re.escape(old) + '"', 1),
    ("package-lock.json", r'(\n    "": \{\n      "name": "snowfleet",\n      "version": ")' + re.escape(old) + '"', 1),
    ("java/pom.xml", r"(<artifactId>snowfleet</artifactId>\n  <version>)" + re.escape(old) + "<", 1),
]
for path, pattern, count in edits:
    text = open(path).read()
    end = '"' if path.endswith(".json") else "<"
    text, n = re.subn(pattern, lambda m: m.group(1) + new + end, text, count=count)
    if n != count:
        sys.exit(f"{path}: version {old} not found where expected")
    open(path, "w").write(text)
# The integrations' Maven poms: their own version and the core's they build on.
import glob
for path in ["java/integrations/pom.xml", *sorted(glob.glob("java/integrations/*/pom.xml"))]:
    text = open(path).read()
    for tag in ("version", "snowfleet.version"):
        text = text.replace(f"<{tag}>{old}</{tag}>", f"<{tag}>{new}</{tag}>")
    open(path, "w").write(text)
# Install snippets and artifact names users copy (the Java README, the root README's quick
# start, the integration pages).
for path in ["java/README.md", "README.md", *sorted(glob.glob("docs/integrations/*.md"))]:
    text = open(path).read()
    for a, b in [(f"<version>{old}</version>", f"<version>{new}</version>"),
                 (f"snowfleet-{old}", f"snowfleet-{new}"), (f"snowfleet:{old}", f"snowfleet:{new}"),
                 (f"-Dversion={old}", f"-Dversion={new}"), (f"version {old}", f"version {new}")]:
        text = text.replace(a, b)
    open(path, "w").write(text)
PY
python3 tests/packaging/check_metadata.py
