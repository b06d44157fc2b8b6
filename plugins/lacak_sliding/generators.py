"""Seeded scramblers: uniformly random solvable boards, and random walks from the goal.

Randomness comes from :class:`random.Random` through ``getrandbits`` only,
which gives the same numbers for the same seed on every Python version, so
the same seed gives the same board everywhere. Without a seed one is picked
and stored on the puzzle (``puzzle.seed``) so the run can be repeated; the puzzle also
records its generator and options (``puzzle.generator``, ``puzzle.options``), so that
:func:`lacak_sliding.remake.remake` makes it again.
"""

from __future__ import annotations

import random
import secrets
from typing import Any

import lacak

from .puzzle import OPPOSITE, SlidingPuzzle, goal_tiles, is_solvable, parse_board_size, parse_tiles

__all__ = ["random_board", "random_walk"]


def _below(rng: random.Random, n: int) -> int:
    """A uniform integer in ``[0, n)`` from ``getrandbits`` (stable across Python versions)."""
    if n <= 1:
        return 0
    bits = (n - 1).bit_length()
    while True:
        value = rng.getrandbits(bits)
        if value < n:
            return value


def _setup(size: Any, seed: int | None, goal: str) -> tuple[int, int, tuple[int, ...], int]:
    # (an empty text is "no size" where a board's tiles tell it, not here: refused)
    dims = parse_board_size(size if size is not None else (3, 3)) if size != "" else None
    if dims is None:
        raise lacak.InvalidOptionError("sliding puzzle size must look like 3x4, got ''")
    rows, cols = dims
    width, height = cols, rows
    if seed is None:
        seed = secrets.randbits(63)
    elif isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise lacak.InvalidOptionError(f"seed must be a non-negative integer, got {seed!r}")
    goal_t = parse_tiles(goal, (rows, cols), what="goal")[0] if goal else goal_tiles(width, height)
    return width, height, goal_t, seed


def random_board(size: Any = None, seed: int | None = None, *, goal: str = "") -> SlidingPuzzle:
    """A board drawn uniformly from all boards that can reach the goal.

    A uniformly random arrangement is drawn (Fisher-Yates); when it cannot
    reach the goal, the two first non-blank tiles are swapped, which maps
    the unsolvable half one-to-one onto the solvable half.

    :param size: ``(rows, cols)``, ``"ROWSxCOLS"`` or ``n`` for ``n x n`` (default 3x3):
        ``(2, 3)`` and ``"2x3"`` are 2 rows of 3 tiles.
    :param seed: the same seed gives the same board everywhere.
    :param goal: the goal board (default tiles in order, blank last).

    >>> random_board((3, 3), seed=7) == random_board("3x3", seed=7)
    True
    >>> board = random_board("2x3", seed=7)
    >>> board.rows, board.cols
    (2, 3)
    """
    width, height, goal_t, seed = _setup(size, seed, goal)
    rng = random.Random(seed)
    tiles = list(range(width * height))
    for i in range(len(tiles) - 1, 0, -1):
        j = _below(rng, i + 1)
        tiles[i], tiles[j] = tiles[j], tiles[i]
    if not is_solvable(tiles, goal_t, width):
        a, b = [p for p, t in enumerate(tiles) if t][:2]
        tiles[a], tiles[b] = tiles[b], tiles[a]
    return SlidingPuzzle(width=width, height=height, initial=tiles, goal=goal_t, seed=seed,
                         generator="random")  # fmt: skip


#: Most moves a random walk takes (a million take a few seconds).
MAX_MOVES = 1_000_000


def random_walk(
    size: Any = None, seed: int | None = None, *, moves: int = 50, goal: str = ""
) -> SlidingPuzzle:
    """A board ``moves`` random blank moves away from the goal (never undoing the last move).

    The optimal solution is at most ``moves`` long (often shorter).

    :param size: ``(rows, cols)``, ``"ROWSxCOLS"`` or ``n`` (default 3x3).
    :param seed: the same seed gives the same board everywhere.
    :param moves: number of random moves (0 to :data:`MAX_MOVES`).
    :param goal: the goal board (default tiles in order, blank last).
    """
    if isinstance(moves, bool) or not isinstance(moves, int) or not 0 <= moves <= MAX_MOVES:
        raise lacak.InvalidOptionError(
            f"moves must be an integer from 0 to {MAX_MOVES:,}, got {moves!r}"
        )
    width, height, goal_t, seed = _setup(size, seed, goal)
    rng = random.Random(seed)
    puzzle = SlidingPuzzle(width=width, height=height, initial=goal_t, goal=goal_t, seed=seed,
                           generator="walk", options={"moves": moves})  # fmt: skip
    tiles = list(goal_t)
    blank = tiles.index(0)
    last = None
    for _ in range(moves):
        options = [(a, p) for a, p in puzzle.neighbours(blank) if a != last]
        action, other = options[_below(rng, len(options))]
        tiles[blank], tiles[other] = tiles[other], 0
        blank = other
        last = OPPOSITE[action]
    return puzzle.with_initial(tiles)
