#!/usr/bin/env python3
"""core/src's folders are its architecture; this fails when the code disagrees.

1. Every folder of core/src holding sources opens with a README.md whose `May use:` line
   names the folders it may include from ("May use: ids, base", or "May use: nothing").
   Each `#include "..."` in the folder must be the public API ("snowfleet/..."), a file of
   the folder itself (a bare name), or a file of a folder that line names ("base/quote.hpp").
2. core/sources.txt, the list CMake and binding.gyp build from, names every source of the
   library once and nothing else (core/src/registry/ and the CLI's main.cc are built apart).

    python3 tests/check_core_tree.py              # the repository's core/
    python3 tests/check_core_tree.py --self-test  # shows it fails on a tree that breaks the rules
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

SOURCE_SUFFIXES = {".cc", ".hpp", ".h"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
BUILT_APART = {"src/cli/main.cc"}  # the executable's entry point (core/CMakeLists.txt)
APART_FOLDERS = {"registry", "capi"}  # their own libraries (core/CMakeLists.txt)


def folders(src: Path) -> list[Path]:
    return sorted(
        d for d in [src, *src.rglob("*")]
        if d.is_dir() and any(f.suffix in SOURCE_SUFFIXES for f in d.iterdir() if f.is_file())
    )


def may_use(readme: Path, known: set[str]) -> tuple[set[str], list[str]]:
    if not readme.is_file():
        return set(), [f"{readme}: missing (it says what the folder owns and may use)"]
    lines = [l for l in readme.read_text().splitlines() if l.startswith("May use:")]
    if len(lines) != 1:
        return set(), [f"{readme}: needs exactly one 'May use:' line, has {len(lines)}"]
    names = {n.strip() for n in lines[0][len("May use:"):].split(",") if n.strip()}
    if names == {"nothing"}:
        return set(), []
    unknown = sorted(names - known)
    return names, [f"{readme}: 'May use:' names {', '.join(unknown)}, not a folder"] if unknown else []


def check_includes(src: Path) -> list[str]:
    dirs = folders(src)
    if src in dirs:
        return [f"{src}: sources belong in a subsystem's folder, not at the top"]
    known = {d.relative_to(src).as_posix() for d in dirs}
    errors = []
    for d in dirs:
        name = d.relative_to(src).as_posix()
        allowed, problems = may_use(d / "README.md", known)
        errors += problems
        for f in sorted(p for p in d.iterdir() if p.is_file() and p.suffix in SOURCE_SUFFIXES):
            for inc in INCLUDE.findall(f.read_text()):
                if inc.startswith("snowfleet/"):
                    continue
                target = (d / inc) if "/" not in inc else (src / inc)
                owner = d if "/" not in inc else target.parent
                where = f"{f.relative_to(src.parent)}: #include \"{inc}\""
                if ".." in Path(inc).parts or not target.is_file():
                    errors.append(f"{where}: not a file of this folder nor \"<folder>/<file>\" under {src}")
                    continue
                used = owner.relative_to(src).as_posix()
                if used != name and used not in allowed:
                    errors.append(f"{where}: {name}/ may use {', '.join(sorted(allowed)) or 'nothing'}"
                                  f" ({d.relative_to(src.parent)}/README.md), not {used}/")
    return errors


def check_source_list(core: Path) -> list[str]:
    listed: list[str] = []
    for line in (core / "sources.txt").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#") and not line.startswith("["):
            listed.append(line)
    src = core / "src"
    on_disk = {
        f.relative_to(core).as_posix() for f in src.rglob("*.cc")
        if f.relative_to(src).parts[0] not in APART_FOLDERS
    } - BUILT_APART
    errors = [f"core/sources.txt lists {f} twice" for f in sorted({f for f in listed if listed.count(f) > 1})]
    errors += [f"core/sources.txt lists {f}, which is not a library source" for f in sorted(set(listed) - on_disk)]
    errors += [f"core/sources.txt does not list {f}" for f in sorted(on_disk - set(listed))]
    return errors


def check(core: Path) -> list[str]:
    return check_includes(core / "src") + check_source_list(core)


def self_test() -> int:
    """A tree that breaks each rule once: each break must be reported."""
    with tempfile.TemporaryDirectory() as tmp:
        core = Path(tmp)
        files = {
            "src/base/README.md": "May use: nothing\n",
            "src/base/a.cc": '#include "mint/m.hpp"\n',  # a lower folder includes a higher one
            "src/mint/README.md": "May use: base, ids\n",  # ids is not a folder
            "src/mint/m.hpp": '#include "a.cc"\n',  # a bare name of another folder
            "src/mint/m.cc": '#include "m.hpp"\n#include "base/a.cc"\n#include "snowfleet/x.hpp"\n',
            "src/lease/l.cc": "",  # no README
            "sources.txt": "[core]\nsrc/base/a.cc\nsrc/base/a.cc\nsrc/gone.cc\n",
        }
        for name, text in files.items():
            (core / name).parent.mkdir(parents=True, exist_ok=True)
            (core / name).write_text(text)
        errors = check(core)
        expected = ["src/base/a.cc: #include \"mint/m.hpp\": base/ may use nothing",
                    "'May use:' names ids", "src/mint/m.hpp: #include \"a.cc\": not a file",
                    "lease/README.md: missing", "lists src/base/a.cc twice",
                    "lists src/gone.cc", "does not list src/lease/l.cc", "does not list src/mint/m.cc"]
        missed = [e for e in expected if not any(e in got for got in errors)]
        if missed or len(errors) != len(expected):
            print("check_core_tree self-test: expected", *expected, "got", *errors, sep="\n  ")
            return 1
    print(f"check_core_tree self-test: the broken tree's {len(expected)} faults were reported")
    return 0


def main() -> int:
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    core = Path(__file__).resolve().parents[1] / "core"
    errors = check(core)
    for e in errors:
        print(e)
    if not errors:
        print(f"core/src: {len(folders(core / 'src'))} folders include only what their README allows; "
              "core/sources.txt lists every library source once")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
