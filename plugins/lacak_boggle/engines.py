"""Which Boggle engine walks a board, and the compiled one's loading and first compile.

Three engines give the same words, paths, scores and node counts:

``dfs``
    the depth-first walk in Python (:mod:`lacak_boggle.walk`), no start-up cost;
``numba``
    the same walk compiled to machine code (:mod:`lacak_boggle.compiled`,
    ``pip install 'lacak[fast]'``): about 4-6 times as fast, but a process
    pays about 0.5 s to import numba and load the machine code, and the very
    first use on a machine compiles it (6-10 s);
``numpy`` (batches only)
    a level-synchronous walk over every board of a batch at once
    (:mod:`lacak_boggle.batch`).

``engine="auto"`` (the default everywhere) is a rule of what is asked and of
the machine, never of what the process did before (:func:`auto_engine`):

1. ``LACAK_BOGGLE_ENGINE`` (``dfs``, ``numba`` or ``numpy``) names the engine,
   when it is set (``numpy`` means ``dfs`` for one board);
2. one board: ``dfs`` (0.3 ms a 4x4 board; the compiled walk's start-up is
   worth about 2,000 of them);
3. a batch: ``numba`` when numba is installed and either its machine code is
   ready on this machine (:func:`compiled_ready`) and the batch has at least
   :data:`COMPILED_FROM` boards, or the batch has at least
   :data:`COMPILE_FROM` boards (worth compiling it first); else ``numpy``,
   or ``dfs`` for fewer than :data:`NUMPY_FROM` boards.

The first compile is announced through :mod:`lacak.progress` (the command
line shows it on a terminal) and remembered in lacak's cache folder (a
marker naming numba's cache files), which is what :func:`compiled_ready`
reads. :func:`warm` compiles up front.

Nothing here imports numba until the compiled walk is used.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import lacak
from lacak.store.compiled import CompiledEngine

from .results import Entries, make_result

if TYPE_CHECKING:
    from .board import Board
    from .results import BoggleResult
    from .wordgraph import WordGraph

__all__ = [
    "COMPILED_FROM",
    "COMPILE_FROM",
    "ENGINE",
    "ENGINES",
    "ENGINE_VARIABLE",
    "NUMPY_FROM",
    "auto_engine",
    "compiled_available",
    "compiled_ready",
    "engine_for_batch",
    "engine_for_board",
    "engine_for_job",
    "load_compiled",
    "require_compiled",
    "solve_compiled",
    "warm",
]

#: The engines a batch may use (one board: all but ``numpy``).
ENGINES = ("auto", "numba", "numpy", "dfs")
#: The environment variable that says what ``engine="auto"`` means.
ENGINE_VARIABLE = "LACAK_BOGGLE_ENGINE"
#: Boards in a batch from which ``auto`` uses the compiled walk when its machine code is
#: ready: loading it (about 0.5 s) is then repaid against the numpy engine.
COMPILED_FROM = 10_000
#: Boards in a batch from which ``auto`` uses the compiled walk even when it must be
#: compiled first (6-10 s, once per machine).
COMPILE_FROM = 200_000
#: Boards in a batch from which ``auto`` prefers the numpy engine to the Python walk.
NUMPY_FROM = 8
#: Most tiles the compiled walk takes (its set of tiles in use is one 64-bit mask).
MAX_COMPILED_CELLS = 64

#: The compiled walk: its module, its first compile (announced, once per machine) and
#: whether its machine code is ready here (a marker in lacak's cache folder, ``engines``).
ENGINE = CompiledEngine(
    name="boggle", module="lacak_boggle.compiled", title="the Boggle engine",
    seconds="about 10 s",
)  # fmt: skip
#: What the first compile says while it runs.
COMPILING = f"compiling {ENGINE.title} once for this machine (numba; {ENGINE.seconds})"


# -- what auto means ----------------------------------------------------------------------


def forced_engine() -> str | None:
    """The engine ``LACAK_BOGGLE_ENGINE`` names, or ``None`` when it is unset or ``auto``.

    :raises InvalidOptionError: it names no engine.
    """
    return lacak.store.compiled.engine_named(ENGINE_VARIABLE, ENGINES, "Boggle")


def auto_engine(boards: int, *, batch: bool = True) -> str:
    """What ``engine="auto"`` means for ``boards`` boards (see the module documentation).

    :param batch: whether the boards are solved together (:func:`~lacak_boggle.solve_many`);
        ``False`` for one board (:func:`~lacak_boggle.solve_board`).
    :raises InvalidOptionError: ``LACAK_BOGGLE_ENGINE`` names no engine.

    >>> auto_engine(1, batch=False) in ("dfs", "numba")
    True
    """
    forced = forced_engine()
    if forced is not None:
        return "dfs" if forced == "numpy" and not batch else forced
    if not batch:
        return "dfs"
    if (
        compiled_available()
        and (boards >= COMPILE_FROM or (boards >= COMPILED_FROM and compiled_ready()))
        and load_compiled() is not None  # numba installed but failing: the others
    ):
        return "numba"
    return "numpy" if boards >= NUMPY_FROM else "dfs"


def engine_for_board(engine: str, cells: int = 16) -> str:
    """The engine that walks one board of ``cells`` tiles (every tile one graph column):
    ``engine`` itself, or :func:`auto_engine`'s choice for ``"auto"``; ``dfs`` for a
    board too large for the compiled walk.

    :raises InvalidOptionError: an unknown engine, or ``"numba"`` where the compiled
        walk cannot run.
    """
    if engine not in ("auto", "dfs", "numba"):
        raise lacak.InvalidOptionError(
            f"unknown engine {engine!r} for one board; choose auto, dfs or numba"
        )
    chosen = auto_engine(1, batch=False) if engine == "auto" else engine
    if chosen == "numba":
        require_compiled(_asker(engine))
    return "dfs" if cells > MAX_COMPILED_CELLS else chosen


def engine_for_batch(engine: str, boards: int, *, deadline: float | None = None) -> str:
    """The engine ``engine`` stands for, for a batch of ``boards`` boards
    (``"auto"``: :func:`auto_engine`).

    :param deadline: when the batch must be done by (a time of :func:`lacak.limits.now`):
        the compiled walk not yet compiled here, with too little time left for its first
        compile (:meth:`lacak.store.compiled.CompiledEngine.require_by`), gives ``"numpy"``
        after one warning, rather than a compile that would hold the answer.
    :raises InvalidOptionError: an unknown engine, or ``"numba"`` where the compiled
        walk cannot run.
    """
    if engine not in ENGINES:
        raise lacak.InvalidOptionError(
            f"unknown engine {engine!r}; choose one of {', '.join(ENGINES)}"
        )
    chosen = auto_engine(boards) if engine == "auto" else engine
    if chosen == "numba":
        if deadline is None:
            require_compiled(_asker(engine))
        elif ENGINE.require_by(deadline, _asker(engine), instead="the numpy engine") is None:
            return "numpy"
    return chosen


def engine_for_job(engine: str) -> str:
    """The engine that walks the board of one job of ``lacak batch boggle``: ``engine``
    itself (``"dfs"`` or ``"numba"``), or for ``"auto"`` the engine
    ``LACAK_BOGGLE_ENGINE`` names, else ``numba`` when its machine code is ready on
    this machine (:func:`compiled_ready`: each worker then loads it once, about
    0.5 s, and walks a 4x4 board in about 60 us instead of 300), else ``dfs`` (a
    batch job never waits for the first compile: ``--engine numba`` makes it,
    once, before the jobs start).

    :raises InvalidOptionError: an unknown engine, or ``"numba"`` where the compiled
        walk cannot run.

    >>> engine_for_job("dfs")
    'dfs'
    """
    if engine not in ("auto", "dfs", "numba"):
        raise lacak.InvalidOptionError(
            f"unknown engine {engine!r} for a batch job; choose auto, dfs or numba"
        )
    if engine == "auto":
        forced = forced_engine()
        if forced is not None:
            engine = "dfs" if forced == "numpy" else forced
        elif ENGINE.loaded() or (compiled_ready() and load_compiled() is not None):
            return "numba"  # (loaded in this process already: no need to look at the disk)
        else:
            return "dfs"
    if engine == "numba":
        require_compiled(_asker("auto" if forced_engine() else engine))
    return engine


def _asker(engine: str) -> str:
    """Who asked for the engine ``engine`` stands for: the caller, or the environment."""
    return f"{ENGINE_VARIABLE}=numba" if engine == "auto" and forced_engine() else ""


# -- loading the compiled walk --------------------------------------------------------------


def compiled_available() -> bool:
    """Whether the compiled walk can run here: numba is installed (``lacak[fast]``)
    and did not fail to load in this process."""
    return ENGINE.available()


def load_compiled() -> Any:
    """The compiled walk's module (:mod:`lacak_boggle.compiled`) with its machine code
    ready, or ``None`` when it cannot be loaded: numba missing, or failing (an
    incompatible numpy, ...). The reason is kept, and the engine is then not
    available in this process.

    The first use on a machine compiles the walk, announced through
    :func:`lacak.progress.announce` and shown as a :func:`lacak.progress.task`.
    """
    return ENGINE.load()


def require_compiled(asked: str = "") -> Any:
    """:func:`load_compiled`, for a caller that asked for ``engine="numba"``.

    :param asked: who asked, when not the caller (``"LACAK_BOGGLE_ENGINE=numba"``).
    :raises InvalidOptionError: the compiled walk cannot run here, saying why.
    """
    module = load_compiled()
    if module is None:
        who = f"{asked} asks for the numba engine, which" if asked else "the numba engine"
        raise lacak.InvalidOptionError(
            f"{who} cannot run ({ENGINE.failure()}); pip install 'lacak[fast]', or choose "
            "another engine"
        )
    return module


def warm() -> bool:
    """Compile the walk now (or check that it is compiled), so no later call waits.

    :returns: whether the compiled walk can run here.
    """
    return load_compiled() is not None


def compiled_ready() -> bool:
    """Whether the compiled walk's machine code is ready on this machine: numba is
    installed, lacak compiled the walk here before (a marker in its cache folder,
    ``engines`` of :func:`lacak.store.paths.cache_dir`), and numba's cache files that the
    marker names are still there. Loading it then costs about 0.5 s; otherwise the
    first use compiles it (6-10 s)."""
    return ENGINE.ready()


# -- one board with the compiled walk ---------------------------------------------------------


def solve_compiled(
    board: Board, name: str, graph: WordGraph, columns: list[int], min_length: int, started: float
) -> BoggleResult:
    """One board (its tiles' graph ``columns``) walked by the compiled walk.

    :param started: :func:`time.perf_counter` when the solve began (for ``seconds``).
    """
    import numpy as np  # here: the Python walk, which most single boards take, needs none

    compiled = require_compiled()
    rows = np.array([columns], dtype=np.int64)
    walked = compiled.walk(graph, rows, board.shape, min_length, compiled.PATHS)
    words = graph.words
    spelled = [words[r] for r in walked.rank.tolist()]
    size = int(walked.best_sizes[0])
    best = tuple(walked.best_paths[0, :size].tolist()) if size else None
    paths, sizes = walked.paths, walked.sizes

    def make_paths() -> list[tuple[tuple[int, ...], ...]]:
        return [(tuple(p[:n]),) for p, n in zip(paths.tolist(), sizes.tolist(), strict=True)]

    depth = int(walked.deepest[0])
    stats = lacak.SearchStats(
        expanded=int(walked.expanded[0]),
        generated=int(walked.generated[0]),
        max_frontier=depth,
        depth=depth,
        seconds=time.perf_counter() - started,
    )
    entries = Entries(spelled, make_paths, score=int(walked.score[0]))
    return make_result(
        board, name, entries, min_length=min_length, all_paths=False, stats=stats, best=best
    )
