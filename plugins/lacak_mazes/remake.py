"""A maze made again from what it records: its generator, size, seed and options.

Every maze a generator makes records them (:attr:`~lacak_mazes.maze.Maze.algorithm`,
its shape, :attr:`~lacak_mazes.maze.Maze.seed` and :attr:`~lacak_mazes.maze.Maze.options`,
the options given besides the defaults), and so does its JSON. :func:`remake` reads them
back and makes the same maze, its chosen or suggested ends, its solution and its carving
order included, so that a saved maze, a batch record or a picture's caption is enough to
have it again: ``lacak maze generate --from maze.json`` prints the same bytes.

>>> import lacak
>>> maze = lacak.generate("maze", "hunt-and-kill", (4, 6), seed=3, hunt="columns")
>>> remake(lacak.parse("maze", maze.to_json()).maze) == maze
True
"""

from __future__ import annotations

from typing import Any

import lacak

__all__ = ["remake"]


def remake(maze: Any, *, registry: lacak.Registry | None = None) -> Any:
    """The maze ``maze`` records, made again by its generator (from ``registry``): the
    same cells, ends, solution and carving order.

    :param maze: a :class:`~lacak_mazes.maze.Maze` (read from JSON, say).
    :raises InvalidPuzzleError: ``maze`` records no generator or no seed.
    :raises UnknownComponentError: no generator of that name is registered here.
    """
    if not maze.algorithm or maze.seed is None:
        raise lacak.InvalidPuzzleError(
            "this maze records no generator and seed (its 'algorithm' and 'seed'), so it "
            "cannot be made again"
        )
    options = dict(maze.options)
    if (
        getattr(maze, "carving", None) is not None
    ):  # (asked only then: not every generator records one)
        options["carving"] = True
    made = lacak.generate("maze", maze.algorithm, (maze.height, maze.width), seed=maze.seed,
                          registry=registry, **options)  # fmt: skip
    if maze.start is not None or maze.end is not None:
        made = made.with_endpoints(maze.start, maze.end, solution=maze.solution is not None)
    return made
