"""lacak's maze plugin: perfect mazes from a dozen generators, their solutions, and pictures.

Everything heavy is imported when first used, so that this module stays cheap
to import on every ``lacak`` start.

>>> import lacak
>>> maze = lacak.generate("maze", "hunt-and-kill", (3, 5), seed=7).with_endpoints()
>>> maze.is_perfect(), len(maze.solution) > 1
(True, True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import lacak

if TYPE_CHECKING:
    from .maze import Maze
    from .puzzle import MazePuzzle

__all__ = ["Maze", "MazePuzzle"]


def __getattr__(name: str) -> Any:
    if name == "Maze":
        from .maze import Maze

        return Maze
    if name == "MazePuzzle":
        from .puzzle import MazePuzzle

        return MazePuzzle
    raise AttributeError(f"module 'lacak_mazes' has no attribute {name!r}")


def _parse(text: str | bytes) -> Maze:
    from .maze import Maze

    return Maze.from_json(text)


def _validate(instance: Any) -> None:
    from .maze import Maze

    if not isinstance(instance, Maze):
        raise lacak.InvalidPuzzleError(f"expected a Maze, got {type(instance).__name__}")
    instance.validate_perfect()


@lacak.hookimpl
def register_puzzles(register: Any) -> None:
    register(
        lacak.PuzzleType(
            kind="maze",
            parse=_parse,
            validate=_validate,
            description="rectangular mazes as JSON (cells of open-side bitmasks N=1 E=2 S=4 W=8)",
            text_types=(str, bytes),
        )
    )


@lacak.hookimpl
def register_generators(register: Any) -> None:
    from .generators import GENERATORS

    for generator in GENERATORS:
        register(generator)


@lacak.hookimpl
def register_heuristics(register: Any) -> None:
    from .heuristics import HEURISTIC

    register(HEURISTIC)


@lacak.hookimpl
def register_searchers(register: Any) -> None:
    from .solvers import SEARCHERS

    for searcher in SEARCHERS:
        register(searcher)


@lacak.hookimpl
def register_commands(cli: Any) -> None:
    from .cli import maze

    cli.add_command(maze)
