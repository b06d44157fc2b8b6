"""A shaken board made again from what it records: its dice (the generator), size, seed
and options.

Every board a generator makes records them (:attr:`~lacak_boggle.board.Board.dice`, its
shape, :attr:`~lacak_boggle.board.Board.seed` and
:attr:`~lacak_boggle.board.Board.options`, the ``dictionary`` of ``random`` letters), and
so does its JSON (``lacak boggle shake --json``, a batch record's ``instance``).
:func:`remake` reads them back and shakes the same board, so that a saved board, a batch
record or a picture's caption is enough to have it again: ``lacak boggle shake --from
board.json`` prints the same bytes.

>>> import json, lacak
>>> board = lacak.generate("boggle", "random", (3, 5), seed=8, dictionary="ind")
>>> remake(lacak.parse("boggle", json.dumps(board.to_dict()))).to_dict() == board.to_dict()
True
>>> made_with(board)
'random 3x5, seed 8, dictionary=ind'
"""

from __future__ import annotations

from typing import Any

import lacak

from .board import Board

__all__ = ["made_with", "remake"]


def remake(board: Board, *, registry: lacak.Registry | None = None) -> Board:
    """The board ``board`` records, shaken again by its generator (from ``registry``):
    the same tiles and record.

    :param board: a :class:`~lacak_boggle.board.Board` (read from a shaken board's JSON,
        say).
    :raises InvalidPuzzleError: ``board`` records no generator (``dice``) or no seed.
    :raises UnknownComponentError: no Boggle generator of that name is registered here
        (or no dictionary of the name it records).
    :raises InvalidOptionError: the generator does not take an option ``board``
        records.
    """
    if not board.dice or board.seed is None:
        raise lacak.InvalidPuzzleError(
            "this board records no dice and seed (a shaken board's 'dice' and 'seed'), so "
            "it cannot be shaken again"
        )
    return lacak.generate("boggle", board.dice, board.shape, seed=board.seed,
                          registry=registry, **board.options)  # fmt: skip


def made_with(board: Board) -> str:
    """``classic4 4x4, seed 7`` or ``random 3x5, seed 8, dictionary=ind``: what makes the
    board again, in words (its dice, size, seed and options)."""
    parts = [f"{board.dice or 'board'} {board.rows}x{board.cols}"]
    if board.seed is not None:
        parts.append(f"seed {board.seed}")
    parts += [f"{key}={_option_text(value)}" for key, value in board.options.items()]
    return ", ".join(parts)


def _option_text(value: Any) -> str:
    """An option's value as ``-O KEY=VALUE`` takes it back."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)
