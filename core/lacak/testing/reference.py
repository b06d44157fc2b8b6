"""Slow, obviously correct reference computations to test fast code against."""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Hashable, Iterable, Mapping
from typing import Any

import attrs

from ..results import SearchResult

__all__ = ["GraphPuzzle", "distances_to_goal", "fewest_moves", "replay", "shortest_cost"]


@attrs.frozen
class GraphPuzzle:
    """A puzzle given as an explicit weighted directed graph; handy for testing searchers.

    :param edges: ``{state: [(action, next_state, cost), ...]}``.
    :param initial: the start state.
    :param goals: the goal states.
    """

    edges: Mapping[Hashable, tuple[tuple[Hashable, Hashable, float], ...]]
    initial: Hashable
    goals: frozenset[Hashable] = attrs.field(converter=frozenset)
    kind: str = "graph"

    def is_goal(self, state: Hashable) -> bool:
        """Whether ``state`` is one of the goals."""
        return state in self.goals

    def successors(self, state: Hashable) -> Iterable[tuple[Hashable, Hashable, float]]:
        """The ``(action, next_state, cost)`` edges out of ``state``."""
        return self.edges.get(state, ())


def shortest_cost(puzzle: Any, *, max_states: int = 1_000_000) -> float | None:
    """The least path cost from ``puzzle.initial`` to a goal (Dijkstra), or ``None``."""
    counter = itertools.count()
    frontier = [(0.0, next(counter), puzzle.initial)]
    best = {puzzle.initial: 0.0}
    while frontier:
        cost, _, state = heapq.heappop(frontier)
        if cost > best.get(state, float("inf")):
            continue
        if puzzle.is_goal(state):
            return cost
        if len(best) > max_states:
            raise RuntimeError(f"reference search exceeded {max_states} states")
        for _action, nxt, step in puzzle.successors(state):
            new = cost + step
            if new < best.get(nxt, float("inf")):
                best[nxt] = new
                heapq.heappush(frontier, (new, next(counter), nxt))
    return None


def fewest_moves(puzzle: Any, *, max_states: int = 1_000_000) -> int | None:
    """The fewest actions from ``puzzle.initial`` to a goal (breadth-first), or ``None``."""
    seen = {puzzle.initial}
    level = [puzzle.initial]
    moves = 0
    while level:
        if any(puzzle.is_goal(state) for state in level):
            return moves
        following = []
        for state in level:
            for _action, nxt, _step in puzzle.successors(state):
                if nxt not in seen:
                    seen.add(nxt)
                    following.append(nxt)
        if len(seen) > max_states:
            raise RuntimeError(f"reference search exceeded {max_states} states")
        level = following
        moves += 1
    return None


def distances_to_goal(puzzle: Any, states: Iterable[Hashable]) -> dict[Hashable, float | None]:
    """True remaining cost from each of ``states`` (one Dijkstra each; small puzzles only)."""
    out = {}
    for state in states:
        out[state] = shortest_cost(_Restart(puzzle, state))
    return out


@attrs.frozen
class _Restart:
    puzzle: Any
    initial: Hashable

    @property
    def kind(self) -> str:
        return self.puzzle.kind

    def is_goal(self, state: Hashable) -> bool:
        return self.puzzle.is_goal(state)

    def successors(self, state: Hashable) -> Iterable[tuple[Hashable, Hashable, float]]:
        return self.puzzle.successors(state)


def replay(puzzle: Any, result: SearchResult) -> float:
    """Check that ``result``'s path is legal and ends in a goal; return its cost.

    :raises AssertionError: an illegal action, a wrong state, a wrong cost, or no goal.
    """
    assert result.found, f"no path found ({result.stopped})"
    assert len(result.states) == len(result.actions) + 1, "states and actions do not line up"
    assert result.states[0] == puzzle.initial, "the path does not start at the initial state"
    state = puzzle.initial
    total = 0.0
    for step, action in enumerate(result.actions):
        moves = {a: (s, c) for a, s, c in puzzle.successors(state)}
        assert action in moves, f"step {step}: action {action!r} is not legal in {state!r}"
        state, cost = moves[action]
        total += cost
        assert result.states[step + 1] == state, f"step {step}: state differs from the puzzle's"
    assert puzzle.is_goal(state), "the path does not end in a goal"
    assert abs(total - result.cost) < 1e-9 * max(1.0, total), (
        f"reported cost {result.cost} but the path costs {total}"
    )
    return total
