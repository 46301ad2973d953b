"""Argument conversion: Python values to the core's C++ types, rejecting what must not be
coerced (a bool, a float or a str where an int is required; an int that does not fit the C++
type). Domain checks (ranges of node ids, bit widths, ...) are the core's job."""

from __future__ import annotations

import numbers
import operator

from ._errors import InvalidArgument

INT64_MIN = -(1 << 63)
INT64_MAX = (1 << 63) - 1


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def as_int(value: object, name: str) -> int:
    """`value` as an int that fits in int64; TypeError for non-integers (bool included),
    InvalidArgument (a ValueError) when it does not fit."""
    if type(value) is int:
        v = value
    elif isinstance(value, bool):
        raise TypeError(f"{name} must be an int, got bool {value!r}")
    else:
        try:
            v = operator.index(value)  # type: ignore[arg-type]  # int subclasses, numpy ints
        except TypeError:
            raise TypeError(
                f"{name} must be an int, got {type(value).__name__} {_shown(value)}"
            ) from None
    if not INT64_MIN <= v <= INT64_MAX:
        raise InvalidArgument(f"{name} must fit in a signed 64-bit integer, got {v}")
    return v


def as_float(value: object, name: str) -> float:
    """An int or float as a float; TypeError for anything else (bool included)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, got {type(value).__name__} {_shown(value)}")
    try:
        return float(value)
    except OverflowError:
        raise InvalidArgument(f"{name} is too large, got {_shown(value)}") from None


def as_bool(value: object, name: str) -> bool:
    """A bool as is; TypeError for anything else (0 and 1 included)."""
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be a bool, got {type(value).__name__} {_shown(value)}")
    return value


def as_str(value: object, name: str) -> str:
    """A str as is; TypeError for anything else."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, got {type(value).__name__} {_shown(value)}")
    return value
