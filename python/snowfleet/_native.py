"""The one ImportError for a native module that cannot be imported: which module, why, and the
pip command that installs one this interpreter can load."""

from __future__ import annotations

import importlib.machinery
import shlex
import sys
from pathlib import Path
from typing import Optional


def native_import_error(error: ImportError, init_file: str, version: Optional[str]) -> ImportError:
    """Return the ImportError that replaces `error`, raised while the package whose __init__.py
    is `init_file` imported snowfleet._snowfleet (or snowfleet._version); `version` is the
    Python layer's, if it was read."""
    # Python reports a missing submodule as "cannot import name ... from partially initialized
    # module (most likely due to a circular import)", which sends the user the wrong way: say
    # what the directory holds instead. A module that is there but refused by the dynamic loader
    # keeps the loader's own reason (wrong libc, wrong CPU, truncated file).
    package_dir = Path(init_file).parent
    requirement = f"snowfleet=={version}" if version else "snowfleet"
    # quoted: an interpreter under "/opt/my apps/..." must paste into a shell as is
    interpreter = shlex.quote(sys.executable or "python3")
    pip = f"{interpreter} -m pip install --force-reinstall --no-cache-dir"
    if getattr(error, "name", None) == "snowfleet._version":
        # The version file the build writes, not the native module: say which is missing.
        return ImportError(
            f"snowfleet cannot import snowfleet._version (the version file its build writes "
            f"into {package_dir}): {error}. Reinstall it: {pip} {requirement}"
        )
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    found = sorted(p.name for p in package_dir.glob("_snowfleet.*") if p.suffix != ".pyi")
    if not found:
        reason = (
            f"{package_dir} holds no _snowfleet module "
            f"(Python {python} loads _snowfleet{suffixes[0]})"
        )
    elif not any("_snowfleet" + suffix in found for suffix in suffixes):
        reason = (
            f"{package_dir} holds only {', '.join(found)}, built for another Python "
            f"(Python {python} loads _snowfleet{suffixes[0]})"
        )
    else:
        reason = str(error)
    return ImportError(
        f"snowfleet cannot import its native module snowfleet._snowfleet: {reason}. Install the "
        f"build for this Python: {pip} {requirement}"
    )
