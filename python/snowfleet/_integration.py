"""What the framework integrations (snowfleet.sqlalchemy, .django, .pydantic) share: one
reading of an id value from outside, and one message for a missing optional dependency."""

from __future__ import annotations

from ._codec import parse_id
from ._convert import as_int


def as_id(value: object, name: str = "id") -> int:
    """An id from an int or its decimal text (JSON, forms, URLs): the core's rule, 0 to
    2**63 - 1 in plain decimal digits. A bool, a float or anything else is a TypeError; a
    value outside the range or text that is not digits is InvalidArgument naming it."""
    if isinstance(value, str):
        return parse_id(value)
    return parse_id(str(as_int(value, name)))


def missing_extra(module: str, package: str, extra: str) -> ImportError:
    """The ImportError for ``import snowfleet.<module>`` when ``package`` is not installed."""
    return ImportError(
        f"snowfleet.{module} needs {package}, which is not installed: "
        f"pip install 'snowfleet[{extra}]'"
    )
