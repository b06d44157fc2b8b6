"""Boggle for lacak: boards, real dice, a word-graph solver, scores, word checks and pictures.

Registered through the ``lacak`` entry-point group like any plugin:

- puzzle kind ``boggle`` (``lacak.parse("boggle", "AHORJ/QQUOI/...")``);
- strategy ``boggle``: every word on a board (``lacak.solve(board)``);
- generators ``classic4``, ``classic4-1976``, ``big5``, ``superbig6`` (real
  dice, shaken) and ``random`` (letters weighted by a dictionary);
- commands ``lacak boggle solve|check|shake|dice|solve-many|best`` (``solve`` is
  lacak's :func:`lacak.cli.solve_command`, built from the puzzle kind);
- an objective for local search over boards (``PuzzleType.objective``):
  ``lacak boggle best`` and :func:`best_board` run lacak's local search
  strategies on it to find high-scoring boards.

The library API is importable from here (loaded on first use, so that
starting ``lacak`` stays fast)::

    from lacak_boggle import Board, solve_board, check, solve_many, score_many, shake, best_board

Dictionaries come from the registry (``lacak.dictionary("eng")``); this
plugin never imports the dictionaries plugin.
"""

from __future__ import annotations

import importlib
from typing import Any

import lacak
from lacak.options import Named, Number, OneOf

#: The dice sets of :data:`lacak_boggle.dice.DICE_SETS` registered as generators, with their
#: tray and a description (:mod:`lacak_boggle._trays`: registering them loads no dice).
from ._trays import DICE_INFO as _DICE_INFO

__all__ = [
    "BLANK",
    "DEFAULT_DICTIONARY",
    "DEFAULT_MAX_PATHS",
    "DICE_SETS",
    "BestBoard",
    "Board",
    "BoardSpace",
    "BoggleResult",
    "BoggleScores",
    "DiceSet",
    "FoundWord",
    "WordCheck",
    "WordGraph",
    "best_board",
    "board_canvas",
    "board_png",
    "board_renderable",
    "board_svg",
    "check",
    "compile_dictionary",
    "official_min_length",
    "random_board",
    "resolve_dictionary",
    "score",
    "score_many",
    "shake",
    "solve_board",
    "solve_many",
    "warm",
]

_EXPORTS = {
    "BLANK": "board",
    "Board": "board",
    "official_min_length": "board",
    "DEFAULT_DICTIONARY": "solver",
    "DEFAULT_MAX_PATHS": "solver",
    "check": "solver",
    "resolve_dictionary": "solver",
    "solve_board": "solver",
    "BoggleResult": "results",
    "FoundWord": "results",
    "WordCheck": "results",
    "score": "results",
    "DICE_SETS": "dice",
    "DiceSet": "dice",
    "random_board": "dice",
    "shake": "dice",
    "WordGraph": "wordgraph",
    "compile_dictionary": "wordgraph",
    "board_renderable": "render",
    "board_svg": "render",
    "board_png": "render",
    "board_canvas": "render",
    "solve_many": "batch",
    "score_many": "batch",
    "BoggleScores": "batch",
    "warm": "engines",
    "best_board": "best",
    "BestBoard": "best",
    "BoardSpace": "space",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'lacak_boggle' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])


# The functions below (and the hooks) import the plugin's modules when lacak first calls
# them: that defers them (registering the plugin on every start loads none), it dodges no
# circle (no module of the plugin imports this one).


def _kind(name: str) -> Any:
    """``lacak_boggle.kind.<name>``, imported when first called (registering loads nothing)."""

    def call(*args: Any, **kwargs: Any) -> Any:
        from . import kind  # (deferred: see above)

        return getattr(kind, name)(*args, **kwargs)

    call.__name__ = name
    call.__doc__ = f"See :func:`lacak_boggle.kind.{name}`."
    return call


def _validate(instance: Any) -> None:
    from .board import validate_board  # (deferred: see above)

    validate_board(instance)


def _search(puzzle: Any, **kwargs: Any) -> Any:
    from .solver import search_board  # (deferred: see above)

    return search_board(puzzle, **kwargs)


def _shake(name: str) -> Any:
    def make(size: Any = None, seed: int | None = None) -> Any:
        from .dice import DICE_SETS, _check_size, shake  # (deferred: see above)

        _check_size(size, DICE_SETS[name])
        return shake(name, seed)

    make.__name__ = f"shake_{name.replace('-', '_')}"
    return make


def _random(size: Any = None, seed: int | None = None, dictionary: Any = None) -> Any:
    from .dice import random_board  # (deferred: see above)

    return random_board((4, 4) if size is None else size, seed, dictionary=dictionary)


#: Help texts of the kind's options (``lacak boggle solve --NAME``).
_HELP = {
    "dictionary": "Dictionary name (see 'lacak dictionaries list') or a dictionary file "
    "(NAME|FILE); default eng, or $LACAK_BOGGLE_DICTIONARY.",
    "min_length": "Shortest word that counts, in letters (default: 3 up to 4x4, 4 on "
    "larger boards).",
    "all_paths": "List every path of every word (default: the first path of each).",
    "max_words": "Stop once N words are found (in the walk's order), show them, exit 1; "
    "0 (the default) for no limit.",
    "max_paths": "With --all-paths: stop rather than keep more than N paths, all words "
    "together (about 2 kB each at the peak of --json); 0 for no limit; exit 1 when "
    "reached. Default 50000.",
}


#: What the options accept from a request lacak does not trust (the web API's): a
#: registered dictionary's name (never a file), bounded numbers, fixed words.
_DICTIONARY = Named("dictionaries")
_MIN_LENGTH = Number(minimum=1, maximum=100, integer=True)
_COUNT = Number(minimum=0, maximum=10_000_000, integer=True)


#: How ``lacak batch boggle`` shakes and solves boards (see :class:`lacak.BatchKind`).
_BATCH = lacak.BatchKind(
    generator="classic4",
    solve=True,
    options={
        "dice": None,
        "dictionary": None,
        "min_length": 0,
        "scores_only": False,
        "engine": "auto",
    },
    accepts={
        "dice": OneOf(*_DICE_INFO, "random"),
        "dictionary": _DICTIONARY,
        "min_length": Number(minimum=0, maximum=100, integer=True),
        "engine": OneOf("auto", "dfs", "numba"),
    },
    flags={"dictionary": "-d", "min_length": "-m"},
    help={
        "dice": "Dice set to shake (classic4, classic4-1976, big5, superbig6) or random "
        "(the generator; default classic4).",
        "dictionary": _HELP["dictionary"],
        "min_length": "Shortest word that counts, in letters (default: the board's official "
        "minimum).",
        "scores_only": "Record each board's word count and score, not its words.",
        "engine": "auto, dfs (the walk in Python) or numba (compiled, lacak[fast]); auto: "
        "numba when this machine has compiled it, else dfs.",
    },
    plan=_kind("batch_plan"),
    prepare=_kind("batch_prepare"),
    instance=_kind("batch_instance"),
    record=_kind("batch_record"),
    measures={"words": "result.boggle.count", "score": "result.boggle.score"},
    arrays={"board": "instance.board"},
)


@lacak.hookimpl
def register_puzzles(register: Any) -> None:
    """The ``boggle`` puzzle kind, with its part of the pipeline (:mod:`lacak_boggle.kind`)."""
    from . import learning  # (deferred, as the library API: loaded on first use)

    register(
        lacak.PuzzleType(
            kind="boggle",
            parse=_kind("parse"),
            validate=_validate,
            description="Boggle boards: rows split by / or newlines, tiles by spaces when "
            "one has several letters (A QU E / ...)",
            options={"dictionary": None, "min_length": None},
            accepts={
                "dictionary": _DICTIONARY,
                "min_length": _MIN_LENGTH,
                "max_words": _COUNT,
                "max_paths": _COUNT,
            },
            flags={"dictionary": "-d", "min_length": "-m"},
            choose=_kind("choose"),
            render=_kind("render"),
            formats=("text", "svg", "png"),
            text_report=True,
            # the boggle searcher's options (DEFAULT_MAX_PATHS repeated: no solver loaded)
            solve_options={"all_paths": False, "max_words": 0, "max_paths": 50_000},
            extras=_kind("extras"),
            advice=_kind("advice"),
            # local search over boards (lacak boggle best, lacak_boggle.best_board)
            objective=_kind("objective"),
            help=_HELP,
            example="AHORJ/QQUOI/SSCPD/MUPSM/AUULI",
            batch=_BATCH,
            # the tasks and the Gymnasium env (docs/machine-learning.md)
            tasks=learning.TASKS,
            gym=learning.GYM,
            # the page of lacak serve: lacak_boggle/page/, package data
            page=lacak.Page(
                package="lacak_boggle", script="boggle.js", styles=("boggle.css",), title="Boggle"
            ),
        )
    )


@lacak.hookimpl
def register_searchers(register: Any) -> None:
    """The ``boggle`` strategy."""
    register(
        lacak.Searcher(
            name="boggle",
            search=_search,
            description="every word on a Boggle board: depth-first walk of the board and a "
            "compiled word graph together (max_words=0, max_paths=0: no limit)",
            kinds={"boggle"},
            options={
                "dictionary": None,
                "min_length": None,
                "all_paths": False,
                "max_words": 0,  # 0: no limit (as on the command line)
                # solver.DEFAULT_MAX_PATHS, repeated so that registering loads no solver
                "max_paths": 50_000,
            },
            accepts={
                "dictionary": _DICTIONARY,
                "min_length": _MIN_LENGTH,
                "max_words": _COUNT,
                "max_paths": _COUNT,
            },
        )
    )


@lacak.hookimpl
def register_generators(register: Any) -> None:
    """Dice sets and random letters."""
    for name, (rows, cols, description) in _DICE_INFO.items():
        register(
            lacak.Generator(
                kind="boggle",
                name=name,
                make=_shake(name),
                description=description,
                metadata={"rows": rows, "cols": cols, "dice": rows * cols},
            )
        )
    register(
        lacak.Generator(
            kind="boggle",
            name="random",
            make=_random,
            description="random letters weighted by a dictionary's letter frequencies "
            "(size ROWSxCOLS, default 4x4)",
            options={"dictionary": None},
            accepts={"dictionary": _DICTIONARY},
        )
    )


@lacak.hookimpl
def register_commands(cli: Any) -> None:
    """``lacak boggle ...``."""
    from .cli import boggle_group  # (deferred: see above)

    cli.add_command(boggle_group())
