"""The snowfleet command line: ``python -m snowfleet ...`` and the ``snowfleet`` console script.

The commands are the core's (the same text and exit codes as the C++ ``snowfleet``
executable and ``npx snowfleet``), and so is the writing: the core writes the process's
stdout and stderr itself, a chunk at a time, so ``next -n`` stays flat in memory and a
failed write ends the command the same way in every package (status 1 and one line naming
the reason; 141 and nothing said when the reader closed the pipe, as ``| head`` does).
``python -m snowfleet --help`` lists them.
"""

from __future__ import annotations

import sys
from typing import List, Optional

from . import _snowfleet


def main(argv: Optional[List[str]] = None) -> int:
    """Runs one command (``argv`` defaults to ``sys.argv[1:]``) and returns its exit status."""
    for stream in (sys.stdout, sys.stderr):  # what Python wrote before goes first
        if stream is not None:
            try:
                stream.flush()
            except (OSError, ValueError):
                pass  # the core's own write names the failure
    return _snowfleet.run_cli_stdio(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    sys.exit(main())
