"""Test helpers for lacak plugins: hypothesis strategies, reference searches, contract suites
and a check of the CLI's one-line errors.

Needs ``pytest`` and ``hypothesis`` (``pip install lacak[test]``). A plugin
author subclasses a contract and names a component::

    from lacak.testing import HeuristicContract, strategies as lst

    class TestGaschnig(HeuristicContract):
        kind = "sliding"
        heuristic = "gaschnig"

        def puzzles(self):
            return lst.registered_puzzles("sliding", ["123456780", "123405786"])

pytest then runs every test of the contract against that component.
"""

from __future__ import annotations

from . import strategies
from .cli import one_line_error
from .contracts import GeneratorContract, HeuristicContract, SearcherContract
from .inputs import only_lacak_errors
from .reference import GraphPuzzle, distances_to_goal, fewest_moves, replay, shortest_cost

__all__ = [
    "GeneratorContract",
    "GraphPuzzle",
    "HeuristicContract",
    "SearcherContract",
    "distances_to_goal",
    "fewest_moves",
    "one_line_error",
    "only_lacak_errors",
    "replay",
    "shortest_cost",
    "strategies",
]
