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
from ._generator import MAX_BATCH, Generator, Stats, Status
from ._uuid7 import Uuid7Decoded, Uuid7Generator, decode_uuid7

__version__ = "0.1.0"

__all__ = [
    "ERROR_CLASSES",
    "MAX_BATCH",
    "Decoded",
    "Generator",
    "Layout",
    "Stats",
    "Status",
    "Uuid7Decoded",
    "Uuid7Generator",
    "compose",
    "decode",
    "decode_uuid7",
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
