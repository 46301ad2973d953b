"""The examples in the docstrings run (with the package's names in scope)."""

from __future__ import annotations

import doctest
import importlib

import pytest

import snowfleet

MODULES = ["snowfleet._layout", "snowfleet._codec", "snowfleet._generator", "snowfleet.testing"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    names = {n: getattr(snowfleet, n) for n in snowfleet.__all__}
    result = doctest.testmod(module, extraglobs={"snowfleet": snowfleet, **names},
                             optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
