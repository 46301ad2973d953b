"""Every public name carries a docstring (module, functions, classes and their members)."""

from __future__ import annotations

import inspect
from typing import Any, Iterator, Tuple

import pytest

import snowfleet
import snowfleet.testing


def _public() -> Iterator[Tuple[str, Any]]:
    yield "snowfleet", snowfleet
    yield "snowfleet.testing", snowfleet.testing
    for module in (snowfleet, snowfleet.testing):
        for name in module.__all__:
            obj = getattr(module, name)
            if name in ("ERROR_CLASSES", "MAX_BATCH", "SegmentSpec"):
                continue  # data, documented in the module
            yield f"{module.__name__}.{name}", obj
            if inspect.isclass(obj) and not issubclass(obj, BaseException):
                for member, value in inspect.getmembers(obj):
                    if member.startswith("_") or member in ("count", "index"):
                        continue  # private, or tuple's own methods on NamedTuples
                    yield f"{module.__name__}.{name}.{member}", value


@pytest.mark.parametrize("name, obj", list(_public()), ids=[n for n, _ in _public()])
def test_has_docstring(name: str, obj: Any) -> None:
    doc = inspect.getdoc(obj)
    assert doc and doc.strip(), f"{name} has no docstring"
