"""lacak's maze plugin: perfect mazes from a dozen generators, their solutions, and pictures.

Everything heavy is imported when first used, so that this module stays cheap
to import on every ``lacak`` start: the hooks below import the plugin's modules
inside them (deferring them, not dodging a circle: no module of the plugin
imports this one), and so does :func:`__getattr__` for :class:`Maze` and
:class:`MazePuzzle`. The generators are the sub-package
:mod:`lacak_mazes.generators`; their old paths (``lacak_mazes.wilson``, ...) are
deprecated aliases (:mod:`lacak_mazes._moved`).

>>> import lacak
>>> maze = lacak.generate("maze", "hunt-and-kill", (3, 5), seed=7).with_endpoints()
>>> maze.is_perfect(), len(maze.solution) > 1
(True, True)
>>> puzzle = lacak.parse("maze", maze.to_json())        # a MazePuzzle: the maze, start, end
>>> lacak.solve(puzzle).states == maze.solution
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import lacak

from . import _moved

if TYPE_CHECKING:
    from .maze import Maze
    from .puzzle import MazePuzzle

__all__ = ["Maze", "MazePuzzle"]

_moved.install()


# Here and in the hooks below the plugin's modules are imported when first needed: that
# defers them (``import lacak_mazes`` on every start loads none), it dodges no circle.


def __getattr__(name: str) -> Any:
    if name == "Maze":
        from .maze import Maze  # (deferred: see above)

        return Maze
    if name == "MazePuzzle":
        from .puzzle import MazePuzzle  # (deferred: see above)

        return MazePuzzle
    raise AttributeError(f"module 'lacak_mazes' has no attribute {name!r}")


@lacak.hookimpl
def register_puzzles(register: Any) -> None:
    from .kind import PUZZLE_TYPE  # (deferred: see above)

    register(PUZZLE_TYPE)


@lacak.hookimpl
def register_generators(register: Any) -> None:
    from .generators import GENERATORS  # (deferred: see above)

    for generator in GENERATORS:
        register(generator)


@lacak.hookimpl
def register_heuristics(register: Any) -> None:
    from .heuristics import HEURISTIC  # (deferred: see above)

    register(HEURISTIC)


@lacak.hookimpl
def register_searchers(register: Any) -> None:
    from .solvers import SEARCHERS  # (deferred: see above)

    for searcher in SEARCHERS:
        register(searcher)


@lacak.hookimpl
def register_commands(cli: Any) -> None:
    from .cli import maze_group  # (deferred: see above)

    cli.add_command(maze_group())
