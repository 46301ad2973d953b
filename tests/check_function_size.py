#!/usr/bin/env python3
"""Short functions: no function in the listed folders of core/src longer than 80 lines or
with a cyclomatic complexity above 15, as lizard (PyPI) counts them: every folder of core/src,
a new one included.

    python3 tests/check_function_size.py    # exit 77 (skipped) when lizard is not installed
"""

from __future__ import annotations

import sys
from pathlib import Path

MAX_LENGTH = 80
MAX_CCN = 15
SUFFIXES = {".cc", ".hpp", ".h"}


def main() -> int:
    try:
        import lizard
    except ImportError:
        print("lizard is not installed (pip install lizard): skipped")
        return 77
    src = Path(__file__).resolve().parent.parent / "core" / "src"
    failures = []
    for folder in sorted(p.name for p in src.iterdir() if p.is_dir()):
        for path in sorted((src / folder).rglob("*")):
            if path.suffix not in SUFFIXES:
                continue
            for f in lizard.analyze_file(str(path)).function_list:
                if f.length > MAX_LENGTH or f.cyclomatic_complexity > MAX_CCN:
                    failures.append(f"{path.relative_to(src.parent.parent)}:{f.start_line}: {f.name} has "
                                    f"{f.length} lines, CCN {f.cyclomatic_complexity} "
                                    f"(limits {MAX_LENGTH}, {MAX_CCN})")
    for line in failures:
        print(line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
