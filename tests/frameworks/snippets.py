#!/usr/bin/env python3
"""The code blocks of a guide, as files the tests run.

    python3 tests/frameworks/snippets.py docs/web-services.md OUTDIR

A fenced block right after ``<!-- snippet: NAME -->`` is written to OUTDIR/NAME (the tests
run it from there); a block after ``<!-- file: PATH -->`` must equal the repository's PATH
(a file a test compiles and runs), else this fails naming it. A marker without a block
after it fails too, so no block can silently stop being tested.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Dict, List, Tuple

ROOT = Path(__file__).resolve().parents[2]
MARKER = re.compile(r"^<!-- (snippet|file): (\S+) -->\n```[\w-]*\n(.*?)^```$", re.M | re.S)
ANY_MARKER = re.compile(r"^<!-- (snippet|file): ", re.M)


def blocks(text: str) -> List[Tuple[str, str, str]]:
    found = MARKER.findall(text)
    if len(found) != len(ANY_MARKER.findall(text)):
        raise SystemExit("a snippet/file marker is not followed directly by a fenced block")
    return found


def extract(doc: Path, outdir: Path) -> Dict[str, Path]:
    """Writes the snippets to outdir and checks the file blocks; returns name -> path."""
    outdir.mkdir(parents=True, exist_ok=True)
    written: Dict[str, Path] = {}
    errors = []
    for kind, name, body in blocks(doc.read_text()):
        if kind == "snippet":
            path = outdir / name
            path.write_text(body)
            written[name] = path
        elif (ROOT / name).read_text() != body:
            errors.append(f"{doc}: the block marked 'file: {name}' differs from {name}")
    if errors:
        raise SystemExit("\n".join(errors))
    return written


if __name__ == "__main__":
    doc, out = Path(sys.argv[1]), Path(sys.argv[2])
    names = extract(doc, out)
    files = sum(1 for kind, _, _ in blocks(doc.read_text()) if kind == "file")
    print(f"{doc}: {len(names)} snippets extracted to {out} ({', '.join(names)}); "
          f"{files} file blocks equal their files")
