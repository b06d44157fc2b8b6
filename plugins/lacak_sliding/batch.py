"""How ``lacak batch sliding`` makes boards: ``--moves M`` (a random walk of M moves from
the goal) or ``--uniform`` (a board drawn uniformly), each solved by default.

The core runs the batch (:mod:`lacak.batch.dataset`); this module only declares what the
kind's own options mean (see :class:`lacak.BatchKind`).
"""

from __future__ import annotations

from typing import Any

import lacak

__all__ = ["BATCH", "plan"]


def plan(*, moves: int | None = None, uniform: bool = False) -> dict[str, Any]:
    """The generator the options name: ``random`` for ``--uniform``, ``walk`` with its
    ``moves`` for ``--moves M`` (the default: ``walk``, 50 moves).

    :raises InvalidOptionError: both ``--moves`` and ``--uniform``.
    """
    if uniform and moves is not None:
        raise lacak.InvalidOptionError(
            "--uniform draws boards uniformly and --moves scrambles the goal: give one"
        )
    if uniform:
        return {"generator": "random"}
    if moves is not None:
        return {"generator": "walk", "options": {"moves": moves}}
    return {}


#: How ``lacak batch sliding`` makes boards (see :class:`lacak.BatchKind`).
BATCH = lacak.BatchKind(
    generator="walk",
    solve=True,
    options={"moves": 50, "uniform": False},
    help={
        "moves": "Scramble the goal by M random moves (the walk generator; default 50).",
        "uniform": "Draw each board uniformly from all solvable boards (the random generator).",
    },
    plan=plan,
)
