"""The snowfleet command line: ``python -m snowfleet ...`` and the ``snowfleet`` console script.

The commands are the core's (the same text and exit codes as the C++ ``snowfleet``
executable and ``npx snowfleet``); this module only copies what they print to
``sys.stdout`` and ``sys.stderr``. ``python -m snowfleet --help`` lists them.
"""

from __future__ import annotations

import sys
from typing import List, Optional

from . import _snowfleet


def main(argv: Optional[List[str]] = None) -> int:
    """Runs one command (``argv`` defaults to ``sys.argv[1:]``) and returns its exit status."""
    code, out, err = _snowfleet.run_cli(sys.argv[1:] if argv is None else argv)
    sys.stdout.write(out)
    sys.stderr.write(err)
    return code


if __name__ == "__main__":
    sys.exit(main())
