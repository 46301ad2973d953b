"""Exception classes, built at import from the core's list of error kinds.

One class per entry of the core's SNOWFLEET_ERROR_KINDS: named by its ``name`` column,
carrying its ``code``, documented by its summary, and deriving from :class:`SnowfleetError`
plus the builtin family its ``category`` calls for (argument -> ValueError, range ->
OverflowError, everything else -> RuntimeError). Because the classes are generated from
``_snowfleet.error_kinds()`` this table cannot drift from the core; ``_errors.pyi`` spells
them out for type checkers and a test checks that file against the core's list too.
"""

# No `from __future__ import annotations`: SnowfleetError's __module__ is `snowfleet`, where
# documentation tools (scripts/dev/api-docs.sh) could not resolve a string "ClassVar[str]".
from typing import Any, ClassVar, Dict, List, Tuple, Type

from . import _snowfleet as _core

__all__: List[str] = ["SnowfleetError"]


class SnowfleetError(Exception):
    """Base class of every error snowfleet raises.

    ``code`` is the core's stable code (e.g. ``"CLOCK_MOVED_BACKWARDS"``), identical in every
    language; ``category`` is the core's category of that code.
    """

    code: ClassVar[str] = ""
    category: ClassVar[str] = ""


SnowfleetError.__module__ = "snowfleet"  # its public home (repr, pickling)

# Host base class per core category.
_CATEGORY_BASES: Dict[str, Type[Exception]] = {
    "argument": ValueError,
    "range": OverflowError,
}


def _clock_moved_backwards_init(self: Any, message: str = "", drift_ms: int = 0) -> None:
    """Carries ``drift_ms``: how many ms the clock was behind the last issued millisecond."""
    Exception.__init__(self, message)
    # In the instance dict, so pickling keeps it (BaseException.__reduce__ passes __dict__).
    self.drift_ms = drift_ms


# Per-code extras for the few kinds that carry data beyond the message.
_EXTRAS: Dict[str, Dict[str, Any]] = {
    "CLOCK_MOVED_BACKWARDS": {"__init__": _clock_moved_backwards_init, "drift_ms": 0},
}


def _build() -> Dict[str, Type[SnowfleetError]]:
    by_code: Dict[str, Type[SnowfleetError]] = {}
    for code, name, category, summary in _core.error_kinds():
        base = _CATEGORY_BASES.get(category, RuntimeError)
        namespace: Dict[str, Any] = {
            "__doc__": f"{summary}\n\ncode: {code!r}, category: {category!r}.",
            "__module__": "snowfleet",
            "__qualname__": name,
            "code": code,
            "category": category,
        }
        namespace.update(_EXTRAS.get(code, {}))
        bases: Tuple[type, ...] = (SnowfleetError, base)
        by_code[code] = type(name, bases, namespace)
    return by_code


#: {code: exception class}, in the core's declaration order.
ERROR_CLASSES: Dict[str, Type[SnowfleetError]] = _build()

for _cls in ERROR_CLASSES.values():
    globals()[_cls.__name__] = _cls
    __all__.append(_cls.__name__)
del _cls

_core._register_error_classes(ERROR_CLASSES)
