"""What the maze modules share: directions, their bits, and flat cell indices.

A cell's open sides are a bitmask (``N=1, E=2, S=4, W=8``). Cells are
numbered row by row (``index = row * width + col``): the breadth-first
search, the statistics and the generators that walk the grid in Python use
flat integer indices and the precomputed tables here. (Sizes, seeds and
random numbers, which only the generators use, are in
:mod:`lacak_mazes.generators._common`.)

This module is loaded whenever the plugins register (the pictures' module
uses it), so numpy is imported inside :func:`is_integer`, which needs it.
"""

from __future__ import annotations

import functools
from typing import Any

__all__ = [
    "BIT",
    "DIRECTIONS",
    "DX",
    "DY",
    "LETTER",
    "OPPOSITE",
    "E",
    "N",
    "S",
    "W",
    "flat_offsets",
    "flat_steps",
    "is_integer",
    "trace_back",
]

#: Open-side bits of a cell.
N, E, S, W = 1, 2, 4, 8
#: Direction letters in bit order.
DIRECTIONS = "NESW"
#: Bit of each direction letter.
BIT = {"N": N, "E": E, "S": S, "W": W}
#: Direction letter of each bit.
LETTER = {N: "N", E: "E", S: "S", W: "W"}
#: The side a passage enters its neighbour by.
OPPOSITE = {N: S, E: W, S: N, W: E}
#: Row and column change of each bit.
DY = {N: -1, E: 0, S: 1, W: 0}
DX = {N: 0, E: 1, S: 0, W: -1}

def flat_offsets(width: int) -> dict[int, int]:
    """The change of flat index (``row * width + col``) a step through each side makes."""
    return {N: -width, E: 1, S: width, W: -1}


@functools.lru_cache(maxsize=64)
def flat_steps(width: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """For each bitmask: ``(flat offset, back bit)`` of every open side, ``N, E, S, W`` order.

    The back bit is the side of the neighbour that faces the cell left.
    """
    offset = flat_offsets(width)
    return tuple(
        tuple((offset[bit], OPPOSITE[bit]) for bit in (N, E, S, W) if mask & bit)
        for mask in range(16)
    )


def trace_back(came: bytearray, width: int, source: int, target: int) -> list[int]:
    """Flat cells from ``source`` to ``target``, following ``came`` back from ``target``.

    ``came[cell]`` is the bit of the side of ``cell`` that leads back towards ``source``.
    """
    offset = flat_offsets(width)
    path = [target]
    here = target
    while here != source:
        here += offset[came[here]]
        path.append(here)
    path.reverse()
    return path


def is_integer(value: Any) -> bool:
    """Whether ``value`` is a whole number: an ``int`` (not a ``bool``) or a numpy integer."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    import numpy as np  # here: see the module's documentation

    return isinstance(value, np.integer)
