"""lacak_sliding: sliding-tile puzzles (the 8-puzzle, the 15-puzzle, any ROWSxCOLS board).

Registers the ``sliding`` puzzle kind, its heuristics (``misplaced``,
``manhattan``, ``weighted``, ``linear-conflict``, the pattern databases
``pdb``, ``pdb-555``, ``pdb-663``, ``pdb-78``, ``pdb-6666``), its scramblers
(``random``, ``walk``), the specialised strategies ``astar-tiles``,
``bfs-tiles`` and ``idastar-tiles``, and the ``lacak sliding`` commands. See
``docs/sliding.md``.

The tiles strategies live in :mod:`lacak_sliding.tiles`, the pattern databases in
:mod:`lacak_sliding.pdb`; the old flat module paths (``lacak_sliding.tiles_idastar``,
``lacak_sliding.pdb_build``, ...) still import, with a :class:`DeprecationWarning`, until
the next release (:mod:`lacak_sliding._moved`).

Each hook imports the modules it registers inside itself: that defers them (numpy and
the searchers' code among them) until lacak asks for that kind of component, so that
starting ``lacak`` stays fast; it dodges no import circle.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import lacak
from lacak.options import Number, Text

from . import _moved

_moved.install()

#: What a board option (a goal) accepts from a request lacak does not trust (the web
#: API's): board text in any notation (tiles, spaces, commas, rows split by / or ;).
BOARD_TEXT = Text(max_length=10_000, pattern=r"[0-9\s,/;()\[\]]*", like="1 2 3 / 4 5 6 / 7 8 0")


@lacak.hookimpl
def register_puzzles(register: Callable[[lacak.PuzzleType], None]) -> None:
    """The ``sliding`` kind: ``lacak.parse("sliding", "123450786", goal=..., size=...)``.

    It declares its whole pipeline: parsing (board text, a goal, a
    ``ROWSxCOLS`` size), the choice of strategy and heuristic (``choice.py``),
    pictures (text and SVG, ``pictures.py``), its JSON extras and the advice
    shown when a limit stops a search; ``lacak sliding solve`` is built from it.
    """
    from . import batch, choice, learning, pictures, puzzle  # (deferred: see the docstring)

    register(
        lacak.PuzzleType(
            kind="sliding",
            parse=puzzle.parse,
            validate=puzzle.validate,
            choose=choice.choose,
            description="sliding-tile puzzles: tiles row by row, 0 = blank (123450786)",
            options={"goal": None, "size": None, "allow_unsolvable": False},
            accepts={
                "goal": BOARD_TEXT,
                "size": Text(max_length=24, pattern=r"[0-9 xX×,]*", like="3x4"),
            },
            help={
                "goal": "Goal board, in any board notation (default: tiles in order, blank last).",
                "size": "Board size ROWSxCOLS (3x4: 3 rows of 4 tiles), for a board that is not "
                "square and not written in rows.",
                "allow_unsolvable": "Search even when the goal cannot be reached (the search "
                "then ends with 'no path').",
            },
            example="123450786",
            render=pictures.render,
            formats=("text", "svg", "png"),
            extras=puzzle.extras,
            advice=choice.advice,
            batch=batch.BATCH,
            # the task and the Gymnasium env (docs/machine-learning.md)
            tasks=learning.TASKS,
            gym=learning.GYM,
            # the page of lacak serve: lacak_sliding/page/, package data
            page=lacak.Page(
                package="lacak_sliding",
                script="sliding.js",
                styles=("sliding.css",),
                title="Sliding",
            ),
        )
    )


@lacak.hookimpl
def register_heuristics(register: Callable[[lacak.Heuristic], None]) -> None:
    """Misplaced tiles (H1), Manhattan distance (H2), ``w1*H1 + w2*H2``, linear conflict."""
    from . import heuristics as h  # (deferred: see the module docstring)

    register(
        lacak.Heuristic(
            name="misplaced",
            kind="sliding",
            estimate=h.misplaced,
            prepare=h.prepare_misplaced,
            admissible=True,
            consistent=True,
            description="H1: tiles not on their goal cell",
        )
    )
    register(
        lacak.Heuristic(
            name="manhattan",
            kind="sliding",
            estimate=h.manhattan,
            prepare=h.prepare_manhattan,
            admissible=True,
            consistent=True,
            description="H2: sum of the tiles' row and column distances to their goal cells",
        )
    )
    register(
        lacak.Heuristic(
            name="weighted",
            kind="sliding",
            estimate=h.weighted,
            prepare=h.prepare_weighted,
            # with the default weights (1, 1) neither; configured with w1 + w2 <= 1 it is
            # admissible (and in fact consistent, which the flag cannot show: configure
            # keeps consistent only when the catalogue entry has it)
            admissible=False,
            consistent=False,
            admissible_for=h.weighted_admissible,
            # |change of w1*misplaced + w2*manhattan| <= w1 + w2 per move: consistent too
            consistent_for=h.weighted_admissible,
            options={"w1": 1.0, "w2": 1.0},
            accepts={
                "w1": Number(minimum=0, maximum=1_000_000),
                "w2": Number(minimum=0, maximum=1_000_000),
            },
            description="w1*H1 + w2*H2 (weighted:w1=1,w2=2); admissible only when w1 + w2 <= 1",
        )
    )
    register(
        lacak.Heuristic(
            name="linear-conflict",
            kind="sliding",
            estimate=h.linear_conflict,
            prepare=h.prepare_linear_conflict,
            admissible=True,
            consistent=True,
            description="Manhattan + 2 per tile that must leave its goal row or column",
        )
    )
    # additive pattern databases: pdb, pdb-555, pdb-663, pdb-78, pdb-6666 (docs/pattern-databases.md)
    from .pdb.spec import heuristics as pattern_databases  # (deferred: see the docstring)

    for heuristic in pattern_databases():
        register(heuristic)


@lacak.hookimpl
def register_generators(register: Callable[[lacak.Generator], None]) -> None:
    """``random`` (uniform over solvable boards) and ``walk`` (k random moves from the goal)."""
    from . import generators  # (deferred: see the module docstring)

    register(
        lacak.Generator(
            kind="sliding",
            name="random",
            make=generators.random_board,
            description="a board drawn uniformly from all boards that can reach the goal",
            options={"goal": ""},
            accepts={"goal": BOARD_TEXT},
            metadata={"uniform": True},
        )
    )
    register(
        lacak.Generator(
            kind="sliding",
            name="walk",
            make=generators.random_walk,
            description="the goal scrambled by k random blank moves (never undoing the last)",
            options={"moves": 50, "goal": ""},
            # generators.MAX_MOVES, repeated so that registering imports nothing more
            accepts={"moves": Number(minimum=0, maximum=1_000_000), "goal": BOARD_TEXT},
            metadata={"uniform": False},
        )
    )


@lacak.hookimpl
def register_searchers(register: Callable[[lacak.Searcher], None]) -> None:
    """``astar-tiles``, ``bfs-tiles`` and ``idastar-tiles``: the sliding-puzzle fast paths."""
    from .tiles import astar, bfs, idastar  # (deferred: see the module docstring)

    register(
        lacak.Searcher(
            name="astar-tiles",
            search=astar.astar_tiles,
            description="A* for sliding puzzles: int-encoded boards, incremental heuristics, bucket queue",
            optimal=True,
            heuristic="required",
            kinds={"sliding"},
        )
    )
    register(
        lacak.Searcher(
            name="bfs-tiles",
            search=bfs.bfs_tiles,
            description="breadth-first search for sliding puzzles on int-encoded boards: fewest moves",
            optimal=True,
            heuristic="unused",
            kinds={"sliding"},
        )
    )
    register(
        lacak.Searcher(
            name="idastar-tiles",
            search=idastar.idastar_tiles,
            description="IDA* for sliding puzzles: one mutable board, incremental pattern-database or table heuristics",
            optimal=True,
            heuristic="required",
            kinds={"sliding"},
            options={"split_depth": 0},
            accepts={"split_depth": Number(minimum=0, maximum=200)},
            splits=True,
        )
    )


@lacak.hookimpl
def register_commands(cli: Any) -> None:
    """``lacak sliding solve|estimate|scramble|strategies|heuristics|pdb``."""
    from .cli import sliding_group  # (deferred: see the module docstring)

    cli.add_command(sliding_group())
