"""The examples in the Boggle modules' docstrings run."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize(
    "module",
    [
        "lacak_boggle.board",
        "lacak_boggle.results",
        "lacak_boggle.solver",
        "lacak_boggle.dice",
        "lacak_boggle.batch.solve",
        "lacak_boggle.batch.scores",
        "lacak_boggle.engines",
        "lacak_boggle.remake",
        "lacak_boggle.space",
        "lacak_boggle.best",
    ],
)
def test_docstring_examples(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0 and result.attempted > 0
