"""The examples in the strategies' docstrings run."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize(
    "module",
    [
        "lacak_search.breadth",
        "lacak_search.depth",
        "lacak_search.local",
        "lacak_search.priority",
        "lacak_search.recursive",
    ],
)
def test_docstring_examples(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0 and result.attempted > 0
