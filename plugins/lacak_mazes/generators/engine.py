"""Which engine makes a plain rectangle's maze: Python, or the compiled kernels.

Two engines give the same mazes, byte for byte, for every seed and size (the
tests compare them):

``python``
    the pure-Python generators of this package, no start-up cost;
``numba``
    every generator of the plain rectangle -- the walking ones (recursive
    backtracker, hunt-and-kill, growing tree, Wilson, Aldous-Broder, prim-frontier),
    Kruskal's and Prim's spanning tree, Eller, recursive division, binary tree and
    sidewinder -- and the breadth-first search of endpoints and solutions as machine
    code (:mod:`lacak_mazes.generators.compiled`, ``pip install 'lacak[fast]'``):
    10-40 times as fast, but a process pays about 0.5 s to import numba and load
    the machine code, and the very first use on a machine compiles it (about
    10-20 s, once).

The generators that walk a graph, on every other grid (hexagons, triangles,
rings, octagons, wraps, masks), have kernels of their own,
:mod:`lacak_mazes.generators.compiled_graph` (:data:`GRAPH_ENGINE`,
:func:`graph_kernels`), chosen by the same variable and the same rule.

``LACAK_MAZE_ENGINE`` (``auto``, ``python`` or ``numba``) chooses; ``auto`` (or
unset) is a rule of what is asked, of the machine and of the work this process
has done, never of the maze's answer (both engines give the same):

1. the compiled kernels once this process has loaded them;
2. else, when their machine code is ready on this machine
   (:meth:`~lacak.store.compiled.CompiledEngine.ready`), from a maze of
   :data:`LOAD_FROM` cells on, or once this process has spent :data:`LOAD_AFTER`
   seconds making mazes in Python (a batch of small mazes repays the load);
3. else Python; from a maze of :data:`COMPILE_FROM` cells on, the first compile
   starts in a process of its own (announced, once per machine:
   :meth:`~lacak.store.compiled.CompiledEngine.compile_in_background`), and a
   later maze loads the machine code once it is there. No maze waits for a compile,
   and small mazes never start one: a batch of them uses the kernels once they are
   ready (``LACAK_MAZE_ENGINE=numba`` once, or :func:`warm`, compiles them).

``numba`` compiles first when it must (announced) and is an error, in one line,
where numba cannot run. A maze asked for with its carving (``carving=True``)
is always made in Python.
"""

from __future__ import annotations

import time
from types import ModuleType
from typing import Any

import lacak
from lacak.store.compiled import CompiledEngine, engine_named

__all__ = [
    "COMPILE_FROM",
    "ENGINE",
    "ENGINES",
    "ENGINE_VARIABLE",
    "GRAPH_ENGINE",
    "LOAD_AFTER",
    "LOAD_FROM",
    "forced_engine",
    "graph_kernels",
    "kernels",
    "loaded_kernels",
    "timed",
    "warm",
]

#: The compiled kernels: their module, first compile and machine code on this machine.
ENGINE = CompiledEngine(
    name="mazes",
    module="lacak_mazes.generators.compiled",
    title="the maze engine",
    seconds="about 15 s",
)
#: The compiled kernels of the generators that walk a graph (any grid).
GRAPH_ENGINE = CompiledEngine(
    name="maze-grids",
    module="lacak_mazes.generators.compiled_graph",
    title="the maze engine for grids",
    seconds="about 10 s",
)
#: What ``LACAK_MAZE_ENGINE`` may say.
ENGINES = ("auto", "python", "numba")
#: The environment variable that chooses the engine.
ENGINE_VARIABLE = "LACAK_MAZE_ENGINE"
#: Cells of one maze from which ``auto`` loads machine code that is ready (Python makes
#: them in about 0.5 s, what loading costs).
LOAD_FROM = 1_000_000
#: Seconds of Python mazes in a process after which ``auto`` loads ready machine code.
LOAD_AFTER = 0.5
#: Cells of one maze from which ``auto`` starts the first compile in the background.
COMPILE_FROM = 4_000_000

#: Seconds this process has spent making mazes in Python (what ``auto`` weighs).
_spent = [0.0]


def forced_engine() -> str | None:
    """The engine ``LACAK_MAZE_ENGINE`` names, or ``None`` when it is unset or ``auto``.

    :raises InvalidOptionError: it names no engine.
    """
    return engine_named(ENGINE_VARIABLE, ENGINES, "maze")


def kernels(cells: int) -> ModuleType | None:
    """The compiled kernels to make a maze of ``cells`` cells with, or ``None`` for
    Python (see the module documentation).

    :raises InvalidOptionError: ``LACAK_MAZE_ENGINE`` names no engine, or asks for
        ``numba`` where it cannot run.
    """
    forced = forced_engine()
    if forced == "python":
        return None
    if forced == "numba":
        return ENGINE.require(f"{ENGINE_VARIABLE}=numba")
    if ENGINE.loaded():
        return ENGINE.load()
    if not ENGINE.available():
        return None
    if cells >= LOAD_FROM or _spent[0] >= LOAD_AFTER:
        if ENGINE.ready():
            return ENGINE.load(compile=False)
        if cells >= COMPILE_FROM:
            ENGINE.compile_in_background()
    return None


def graph_kernels(cells: int) -> ModuleType | None:
    """The compiled kernels of the graph generators (:data:`GRAPH_ENGINE`) to make a
    maze of ``cells`` cells on a grid with, or ``None`` for Python: :func:`kernels`'
    rule, for these kernels.

    :raises InvalidOptionError: as :func:`kernels`.
    """
    forced = forced_engine()
    if forced == "python":
        return None
    if forced == "numba":
        return GRAPH_ENGINE.require(f"{ENGINE_VARIABLE}=numba")
    if GRAPH_ENGINE.loaded():
        return GRAPH_ENGINE.load()
    if not GRAPH_ENGINE.available():
        return None
    if cells >= LOAD_FROM or _spent[0] >= LOAD_AFTER:
        if GRAPH_ENGINE.ready():
            return GRAPH_ENGINE.load(compile=False)
        if cells >= COMPILE_FROM:
            GRAPH_ENGINE.compile_in_background()
    return None


def loaded_kernels() -> ModuleType | None:
    """The compiled kernels when this process has loaded them and ``LACAK_MAZE_ENGINE``
    does not say ``python`` (what a maze's breadth-first searches use: they never
    load them themselves)."""
    if not ENGINE.loaded():
        return None
    try:
        if forced_engine() == "python":
            return None
    except lacak.InvalidOptionError:
        return None
    return ENGINE.load()


class timed:  # (used as a function)
    """``with timed():`` around a maze made in Python: its seconds count towards
    :data:`LOAD_AFTER`."""

    __slots__ = ("began",)

    def __enter__(self) -> timed:
        self.began = time.perf_counter()
        return self

    def __exit__(self, *exc: Any) -> None:
        _spent[0] += time.perf_counter() - self.began


def warm() -> bool:
    """Compile the kernels now (or load them), so that no maze waits for it later.

    :returns: whether the compiled engine can run here.
    """
    return ENGINE.load() is not None
