"""A scrambled board made again from what it records: its generator, size, seed, goal and
options.

Every board a scrambler makes records them (:attr:`~lacak_sliding.puzzle.SlidingPuzzle.generator`,
its size, :attr:`~lacak_sliding.puzzle.SlidingPuzzle.seed`, its goal and
:attr:`~lacak_sliding.puzzle.SlidingPuzzle.options`, a ``walk``'s ``moves`` among them), and
so does its JSON (``lacak sliding scramble --json``, a batch record's ``instance``).
:func:`remake` reads them back and makes the same board, so that a saved scramble, a batch
record or the line under a scramble is enough to have it again: ``lacak sliding scramble
--from scramble.json`` prints the same bytes.

>>> import json, lacak
>>> board = lacak.generate("sliding", "walk", "3x4", seed=3, moves=20, goal="0 1 2 3 4 5 6 7 8 9 10 11")
>>> saved = json.dumps(board.to_dict())
>>> remake(lacak.parse("sliding", saved)).to_dict() == board.to_dict()
True
>>> made_with(board)
'walk 3x4, seed 3, moves=20, goal=0 1 2 3 4 5 6 7 8 9 10 11'
"""

from __future__ import annotations

from typing import Any

import lacak

from .puzzle import SlidingPuzzle, goal_tiles

__all__ = ["made_with", "remake"]


def remake(puzzle: SlidingPuzzle, *, registry: lacak.Registry | None = None) -> SlidingPuzzle:
    """The board ``puzzle`` records, made again by its generator (from ``registry``): the
    same start, goal, notation and record.

    :param puzzle: a :class:`~lacak_sliding.puzzle.SlidingPuzzle` (read from a scramble's
        JSON, say).
    :raises InvalidPuzzleError: ``puzzle`` records no generator or no seed.
    :raises UnknownComponentError: no sliding generator of that name is registered here.
    :raises InvalidOptionError: the generator does not take an option ``puzzle`` records.
    """
    if not puzzle.generator or puzzle.seed is None:
        raise lacak.InvalidPuzzleError(
            "this board records no generator and seed (a scramble's 'generator' and "
            "'seed'), so it cannot be made again"
        )
    options = puzzle.options
    generator = lacak.generators("sliding", registry=registry)[puzzle.generator]
    if "goal" in generator.options:
        options["goal"] = puzzle.format_state(puzzle.goal, "spaces")
    return lacak.generate("sliding", puzzle.generator, (puzzle.rows, puzzle.cols),
                          seed=puzzle.seed, registry=registry, **options)  # fmt: skip


def made_with(puzzle: SlidingPuzzle) -> str:
    """``walk 3x4, seed 7, moves=50``: what makes the board again, in words (its
    generator, size, seed, options, and its goal unless it is the usual one).

    .. rubric:: Examples

    >>> from lacak_sliding.generators import random_board
    >>> made_with(random_board("3x3", seed=7, goal="123804765"))
    'random 3x3, seed 7, goal=123804765'
    """
    parts = [f"{puzzle.generator or 'board'} {puzzle.size}"]
    if puzzle.seed is not None:
        parts.append(f"seed {puzzle.seed}")
    parts += [f"{key}={_option_text(value)}" for key, value in puzzle.options.items()]
    if puzzle.goal != goal_tiles(puzzle.cols, puzzle.rows):
        notation = "compact" if len(puzzle.goal) <= 10 else "spaces"
        parts.append(f"goal={puzzle.format_state(puzzle.goal, notation)}")
    return ", ".join(parts)


def _option_text(value: Any) -> str:
    """An option's value as ``-O KEY=VALUE`` takes it back."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)
