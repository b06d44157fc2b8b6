"""Exact distances by exhaustive search, and hypothesis strategies for sliding puzzles."""

from __future__ import annotations

import functools
from collections import deque

from hypothesis import strategies as st
from lacak.testing import strategies as lst
from lacak_sliding.generators import random_board, random_walk
from lacak_sliding.puzzle import SlidingPuzzle, goal_tiles

SMALL = ((2, 2), (2, 3), (3, 2))


@functools.cache
def distances(
    width: int, height: int, goal: tuple[int, ...] | None = None
) -> dict[tuple[int, ...], int]:
    """True distance to ``goal`` of every board that can reach it (breadth-first from the goal)."""
    goal = goal or goal_tiles(width, height)
    puzzle = SlidingPuzzle(width=width, height=height, initial=goal, goal=goal)
    found = {goal: 0}
    queue = deque([goal])
    while queue:
        state = queue.popleft()
        d = found[state] + 1
        for _a, other, _c in puzzle.successors(state):
            if other not in found:
                found[other] = d
                queue.append(other)
    return found


def true_distance(puzzle: SlidingPuzzle, state: tuple[int, ...] | None = None) -> int:
    """The exact distance from ``state`` (default the start) to the puzzle's goal."""
    table = distances(puzzle.width, puzzle.height, puzzle.goal)
    return table[puzzle.initial if state is None else state]


@st.composite
def boards(
    draw: st.DrawFn, sizes: tuple[tuple[int, int], ...] = SMALL, custom_goal: bool = False
) -> SlidingPuzzle:
    """Uniformly random solvable boards of the given sizes, ``(rows, cols)`` (goal random too
    with ``custom_goal``)."""
    shape = draw(st.sampled_from(sizes))
    goal = ""
    if custom_goal:
        goal_board = random_board(shape, draw(lst.seeds()))
        goal = " ".join(map(str, goal_board.initial))
    return random_board(shape, draw(lst.seeds()), goal=goal)


@st.composite
def walks(draw: st.DrawFn, size: tuple[int, int] = (3, 3), max_moves: int = 14) -> SlidingPuzzle:
    """Boards a few random moves from the goal (``size`` is ``(rows, cols)``)."""
    return random_walk(size, draw(lst.seeds()), moves=draw(st.integers(0, max_moves)))
