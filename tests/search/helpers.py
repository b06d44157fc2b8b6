"""Puzzles for testing the generic strategies: graphs, reversible graphs."""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Any

import attrs
from hypothesis import strategies as st
from lacak.testing import GraphPuzzle
from lacak.testing import strategies as lst


@attrs.frozen
class ReversibleGraph:
    """A :class:`GraphPuzzle` with one goal state and predecessors: a ReversiblePuzzle."""

    graph: GraphPuzzle
    goal: Hashable
    kind: str = "graph"

    @property
    def initial(self) -> Hashable:
        return self.graph.initial

    def is_goal(self, state: Hashable) -> bool:
        return state == self.goal

    def successors(self, state: Hashable) -> Iterable[tuple[Hashable, Hashable, float]]:
        return self.graph.successors(state)

    def predecessors(self, state: Hashable) -> Iterable[tuple[Hashable, Hashable, float]]:
        return [
            (action, source, cost)
            for source, moves in self.graph.edges.items()
            for action, target, cost in moves
            if target == state
        ]


@st.composite
def reversible_graphs(
    draw: st.DrawFn, *, max_states: int = 12, unit_costs: bool = True
) -> ReversibleGraph:
    """Random digraphs (unit-cost unless told) with one goal state (reachable or not)."""
    graph = draw(lst.graph_puzzles(max_states=max_states, unit_costs=unit_costs))
    goal = draw(st.integers(0, len(graph.edges) - 1))
    return ReversibleGraph(graph=graph, goal=goal)


def unit_graphs(**kwargs: Any) -> st.SearchStrategy[GraphPuzzle]:
    """Random digraphs where every step costs 1."""
    return lst.graph_puzzles(unit_costs=True, **kwargs)
