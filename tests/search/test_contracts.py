"""Every generic strategy against lacak.testing.SearcherContract, on random graphs."""

from __future__ import annotations

from typing import Any, ClassVar

from hypothesis import strategies as st
from lacak.testing import SearcherContract
from lacak.testing import strategies as lst

from .helpers import reversible_graphs, unit_graphs


def zero(_puzzle: Any, _state: Any) -> int:
    return 0


class _WithZeroHeuristic(SearcherContract):
    """Graph puzzles have no registered heuristics; use h = 0 (admissible)."""

    def _solve(self, puzzle: Any, **kwargs: Any) -> Any:
        import lacak

        heuristic = lacak.Heuristic(
            name="zero", kind="graph", estimate=zero, admissible=True, consistent=True
        )
        return lacak.solve(puzzle, self.strategy, heuristic=heuristic, **{**self.options, **kwargs})


class TestDfs(SearcherContract):
    strategy = "dfs"


class TestDfsIterative(SearcherContract):
    strategy = "dfs"
    options: ClassVar[dict[str, Any]] = {"iterative": True}


class TestDfsPath(SearcherContract):
    strategy = "dfs"
    options: ClassVar[dict[str, Any]] = {"duplicates": "path"}

    def puzzles(self) -> st.SearchStrategy[Any]:
        return lst.graph_puzzles(max_states=7)


class TestBfs(SearcherContract):
    strategy = "bfs"

    def puzzles(self) -> st.SearchStrategy[Any]:
        return unit_graphs()


class TestBfsPath(SearcherContract):
    strategy = "bfs"
    options: ClassVar[dict[str, Any]] = {"duplicates": "path"}

    def puzzles(self) -> st.SearchStrategy[Any]:
        return unit_graphs(max_states=7)


class TestBidirectionalBfs(SearcherContract):
    strategy = "bidirectional-bfs"

    def puzzles(self) -> st.SearchStrategy[Any]:
        return reversible_graphs()


class TestUniformCost(SearcherContract):
    strategy = "uniform-cost"


class TestAstar(_WithZeroHeuristic):
    strategy = "astar"


class TestAstarPath(_WithZeroHeuristic):
    strategy = "astar"
    options: ClassVar[dict[str, Any]] = {"duplicates": "path"}

    def puzzles(self) -> st.SearchStrategy[Any]:
        return lst.graph_puzzles(max_states=7)


class TestWeightedAstar(_WithZeroHeuristic):
    strategy = "weighted-astar"
    options: ClassVar[dict[str, Any]] = {"weight": 1.5}


class TestBestFirst(_WithZeroHeuristic):
    strategy = "best-first"


class TestIdastar(SearcherContract):
    strategy = "idastar"


class TestIddfs(SearcherContract):
    strategy = "iddfs"

    def puzzles(self) -> st.SearchStrategy[Any]:
        return unit_graphs(max_states=8)


class TestIddfsClosed(SearcherContract):
    strategy = "iddfs"
    options: ClassVar[dict[str, Any]] = {"duplicates": "closed"}

    def puzzles(self) -> st.SearchStrategy[Any]:
        return unit_graphs()


class TestRbfs(SearcherContract):
    strategy = "rbfs"

    def puzzles(self) -> st.SearchStrategy[Any]:
        return lst.graph_puzzles(max_states=8)


class TestRbfsZeroHeuristic(_WithZeroHeuristic):
    strategy = "rbfs"

    def puzzles(self) -> st.SearchStrategy[Any]:
        return lst.graph_puzzles(max_states=8)
