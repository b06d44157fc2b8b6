"""The one JSON form every maze can take: its grid, its cells by id and its passages as
pairs of ids (see ``docs/mazes.md``). A maze on any grid is written in it
(:meth:`GridMaze.to_dict <lacak_mazes.gridmaze.GridMaze.to_dict>`), and the plain
rectangle when asked (:meth:`Maze.to_dict(links=True) <lacak_mazes.Maze.to_dict>`): both
call :func:`graph_dict`, so the two agree key for key.

>>> import numpy as np
>>> rect_links(np.array([[2, 12], [2, 9]], dtype=np.uint8)).tolist()
[[0, 1], [1, 3], [2, 3]]
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ._common import E, S

__all__ = ["graph_dict", "graph_text", "rect_links"]


def rect_links(cells: np.ndarray) -> np.ndarray:
    """The passages of a bitmask rectangle as pairs of cell indices (``row * width +
    col``): each cell's east one, then its south one, cell by cell."""
    height, width = cells.shape
    flat = np.asarray(cells, dtype=np.uint8).ravel()
    index = np.arange(height * width, dtype=np.int64)
    east = index[(flat & E) != 0]
    south = index[(flat & S) != 0]
    pairs = np.concatenate([np.stack([east, east + 1], axis=1),
                            np.stack([south, south + width], axis=1)])  # fmt: skip
    return pairs[np.argsort(pairs[:, 0], kind="stable")]


def graph_dict(
    grid: Mapping[str, Any],
    ids: Sequence[Sequence[int]],
    links: np.ndarray,
    *,
    tunnels: np.ndarray | None = None,
    start: int | None = None,
    end: int | None = None,
    solution: Sequence[int] | None = None,
    weights: np.ndarray | None = None,
    algorithm: str = "",
    seed: int | None = None,
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The JSON object of a maze given by cell index: ``grid``, ``algorithm``, ``seed``,
    ``options``, ``cells``, ``links``, ``tunnels`` (only when there are some), ``start``,
    ``end``, ``solution`` and ``weights`` (only when there are some), cells by id."""
    data: dict[str, Any] = {
        "grid": dict(grid),
        "algorithm": algorithm,
        "seed": seed,
        "options": dict(options or {}),
        "cells": [list(cell) for cell in ids],
        "links": [[list(ids[a]), list(ids[b])] for a, b in links.tolist()],
    }
    if tunnels is not None and len(tunnels):
        data["tunnels"] = [[list(ids[c]) for c in tunnel] for tunnel in tunnels.tolist()]
    data["start"] = None if start is None else list(ids[start])
    data["end"] = None if end is None else list(ids[end])
    data["solution"] = None if solution is None else [list(ids[c]) for c in solution]
    if weights is not None:
        data["weights"] = [int(w) if w == int(w) else float(w) for w in weights.tolist()]
    return data


def graph_text(data: Mapping[str, Any]) -> str:
    """:func:`graph_dict`'s object as JSON text: one key a line, each value compact."""
    lines = [f"  {json.dumps(key)}: {json.dumps(value, separators=(',', ':'))}"
             for key, value in data.items()]  # fmt: skip
    return "{\n" + ",\n".join(lines) + "\n}"
