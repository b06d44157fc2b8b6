"""The examples in the sliding modules' docstrings run."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize(
    "module",
    [
        "lacak_sliding.puzzle",
        "lacak_sliding.heuristics",
        "lacak_sliding.generators",
        "lacak_sliding.tiles.astar",
        "lacak_sliding.tiles.bfs",
        "lacak_sliding.tiles.encoding",
        "lacak_sliding.tiles.idastar",
        "lacak_sliding.tiles.idastar.split",
        "lacak_sliding.choice",
        "lacak_sliding.pictures",
        "lacak_sliding.remake",
    ],
)
def test_docstring_examples(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0 and result.attempted > 0
