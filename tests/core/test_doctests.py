"""The examples in the core's docstrings run and give what they show."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import lacak
import pytest

MODULES = sorted(
    name for _, name, _ in pkgutil.walk_packages(lacak.__path__, "lacak.")
    if not name.endswith("__main__")
)


@pytest.mark.parametrize("name", ["lacak", *MODULES])
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
