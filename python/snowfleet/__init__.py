"""snowfleet: Snowflake-style 64-bit ids with a clock-rewind guard and deadlines.

A thin layer over one C++ core shared with the Node.js and Java packages::

    import snowfleet
    gen = snowfleet.Generator(node_id=37)        # default layout, strict mode, max_wait_ms=5
    id = gen.next_id()                            # -> int
    snowfleet.decode(id).node_id                  # -> 37
    ids = gen.next_ids(10_000)                    # -> array('q'), zero-copy into numpy
    snowfleet.Uuid7Generator().next_uuid7()       # -> uuid.UUID (RFC 9562 version 7)

Every error is a :class:`SnowfleetError` with the core's stable ``.code``; the subclasses
also derive from ValueError (bad arguments), OverflowError (a time outside the layout) or
RuntimeError (clock, state and availability failures).
"""

from __future__ import annotations

# The build writes _version.py from the repository's VERSION file (pyproject.toml), and the
# native module carries the same file's contents: a layer and a module from two releases (a
# half-finished upgrade, a stale extension) are refused here, before either is used. A module
# that is missing or cannot be loaded is one ImportError saying why and how to reinstall.
try:
    from ._version import __version__
    from . import _snowfleet
except ImportError as _import_error:  # private: stubtest checks the public names
    from ._native import native_import_error

    raise native_import_error(_import_error, __file__, globals().get("__version__")) from None

if _snowfleet.__version__ != __version__:
    raise ImportError(
        f"snowfleet {__version__}'s Python layer found the native module "
        f"snowfleet._snowfleet {_snowfleet.__version__} ({_snowfleet.__file__}): the two "
        f"come from different releases. Reinstall one release: "
        f"pip install --force-reinstall --no-cache-dir snowfleet=={__version__}"
    )

# One class per core error kind (generated from the core's list in _errors.py; the tests fail
# if a kind is missing here or in the stubs).
from ._errors import (
    ERROR_CLASSES,
    ClockMovedBackwards,
    ForkDetected,
    GeneratorClosed,
    InternalError,
    InvalidArgument,
    LeaseLost,
    NodeIdUnavailable,
    SnowfleetError,
    TimestampOutOfRange,
)
from ._layout import Layout
from ._codec import Decoded, compose, decode, parse_id, parse_time
from ._ranges import IdRange, id_range, max_id, min_id
from ._text import format_base32, format_base62, parse_base32, parse_base62, parse_id_text
from ._generator import MAX_BATCH, Generator, Stats, Status
from ._uuid7 import Uuid7Decoded, Uuid7Generator, decode_uuid7

__all__ = [
    "ERROR_CLASSES",
    "MAX_BATCH",
    "Decoded",
    "Generator",
    "IdRange",
    "Layout",
    "Stats",
    "Status",
    "Uuid7Decoded",
    "Uuid7Generator",
    "compose",
    "decode",
    "decode_uuid7",
    "format_base32",
    "format_base62",
    "id_range",
    "max_id",
    "min_id",
    "parse_base32",
    "parse_base62",
    "parse_id_text",
    "parse_id",
    "parse_time",
    # errors
    "SnowfleetError",
    "InvalidArgument",
    "TimestampOutOfRange",
    "ClockMovedBackwards",
    "ForkDetected",
    "GeneratorClosed",
    "NodeIdUnavailable",
    "LeaseLost",
    "InternalError",
]
