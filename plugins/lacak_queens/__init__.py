"""lacak_queens: the N-queens puzzle, for local search and for systematic search.

Registers the kind ``queens`` (``lacak queens solve``, batches and the generic page come
from its :class:`lacak.PuzzleType`), its objective for the local search strategies, the
generators ``random`` (one queen a column, at random rows) and ``empty``, and the
heuristic ``attacks``. See ``docs/queens.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import lacak
from lacak.options import Number

#: What a size accepts from a request lacak does not trust (the web API's); MAX_SIZE of
#: board.py, repeated so that registering imports nothing more.
_SIZE = Number(minimum=1, maximum=1000)


def _choose(puzzle: Any, heuristic: str | None, registry: Any) -> tuple[str, str | None]:
    """Depth-first search places queens on an incomplete board (AIMA's incremental
    form); a complete board is solved by greedy best-first search on the attacking
    pairs, moving one queen at a time."""
    if puzzle.complete:
        return "best-first", heuristic or "attacks"
    return ("astar" if heuristic else "dfs"), heuristic or "attacks"


def _extras(puzzle: Any, result: Any) -> dict[str, Any]:
    """The board a search ended at and its attacking pairs, under ``"queens"``."""
    from .board import attacks
    from .render import shown_state

    rows = shown_state(puzzle, result)
    return {
        "queens": {
            "n": puzzle.n,
            "board": puzzle.format_state(rows),
            "attacks": attacks(rows),
            "complete": puzzle.complete,
        }
    }


def _advice(puzzle: Any, result: Any) -> str | None:
    if puzzle.complete:
        return "local search climbs faster: -s hill-climbing -O sideways=100 -O restarts=50"
    return None


def _parse(text: str) -> Any:
    from . import board

    return board.parse(text)


def _validate(instance: Any) -> None:
    from . import board

    board.validate(instance)


def _to_text(instance: Any) -> str:
    from . import board

    return board.to_text(instance)


def _objective(puzzle: Any) -> lacak.Objective:
    from . import board

    return board.objective(puzzle)


def _render(puzzle: Any, result: Any, format: str = "text", **options: Any) -> str | bytes:
    from . import render

    return render.render(puzzle, result, format, **options)


@lacak.hookimpl
def register_puzzles(register: Callable[[lacak.PuzzleType], None]) -> None:
    register(
        lacak.PuzzleType(
            kind="queens",
            parse=_parse,
            description="N queens, none attacking another: complete boards for local search "
            "(15863724), empty columns for depth-first placing (8, 15......)",
            validate=_validate,
            example="15863724",
            choose=_choose,
            render=_render,
            formats=("text", "svg", "png"),
            extras=_extras,
            advice=_advice,
            to_text=_to_text,
            objective=_objective,
            batch=lacak.BatchKind(
                generator="random", measures={"attacks": "result.queens.attacks"}
            ),
        )
    )


def _attacks(puzzle: Any, state: Any) -> int:
    from .board import attacks

    return attacks(state)


@lacak.hookimpl
def register_heuristics(register: Callable[[lacak.Heuristic], None]) -> None:
    register(
        lacak.Heuristic(
            name="attacks",
            kind="queens",
            estimate=_attacks,
            description="pairs of queens attacking each other (not admissible: one move can "
            "end several)",
        )
    )


def _random(size: Any, seed: int | None) -> Any:
    from . import board

    return board.random_board(size, seed)


def _empty(size: Any, seed: int | None) -> Any:
    from . import board

    return board.empty_board(size, seed)


@lacak.hookimpl
def register_generators(register: Callable[[lacak.Generator], None]) -> None:
    register(
        lacak.Generator(
            kind="queens",
            name="random",
            make=_random,
            description="one queen a column, each on a random row (a complete board)",
            metadata={"uniform": True},
        )
    )
    register(
        lacak.Generator(
            kind="queens",
            name="empty",
            make=_empty,
            description="an empty board, to place queens on from the left",
            metadata={"uniform": True},
        )
    )
