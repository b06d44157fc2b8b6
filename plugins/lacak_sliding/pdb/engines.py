"""Which builder makes a pattern database: the compiled one (numba) or numpy.

Kept apart from both builders, with no numpy and no numba imported, so that
checking a partition (:func:`lacak_sliding.pdb.build_bytes`) costs nothing.

>>> compiled_supports(16, 8), compiled_supports(63, 5)
(True, False)
"""

from __future__ import annotations

import functools
import importlib.util
import math
import os

import lacak

__all__ = [
    "BUILDER",
    "ENGINES",
    "ENGINE_VARIABLE",
    "MAX_CELLS",
    "MAX_TABLE",
    "choose_engine",
    "compiled_available",
    "compiled_supports",
]

#: The builders :func:`lacak_sliding.pdb.build.build_database` may use.
ENGINES = ("auto", "numba", "numpy")

#: The environment variable naming the builder ``engine="auto"`` uses.
ENGINE_VARIABLE = "LACAK_PDB_ENGINE"

#: Most cells a board may have for the compiled builder (occupied cells are bits of one int64).
MAX_CELLS = 62

#: Most entries (sets of occupied cells x cells) the compiled builder's region tables may have.
MAX_TABLE = 1 << 27

#: The compiled builder: its machine code kept and checked in lacak's cache, and a
#: first compile that a time limit it might outlast does not start
#: (:meth:`lacak.store.compiled.CompiledEngine.require_by`: the numpy builder then).
BUILDER = lacak.store.compiled.CompiledEngine(
    name="sliding-pdb",
    module="lacak_sliding.pdb.compiled",
    title="the compiled pattern-database builder",
    seconds="about 5 s",
)


@functools.lru_cache(maxsize=1)
def compiled_available() -> bool:
    """Whether the compiled builder (:mod:`lacak_sliding.pdb.compiled`, numba) can run here."""
    return importlib.util.find_spec("numba") is not None


def compiled_supports(cells: int, k: int) -> bool:
    """Whether the compiled builder takes a group of ``k`` tiles on a board of ``cells`` cells."""
    return cells <= MAX_CELLS and 1 <= k < cells and math.comb(cells, k) * cells <= MAX_TABLE


def choose_engine(width: int, height: int, k: int, engine: str = "auto") -> str:
    """``"numba"`` or ``"numpy"``: the builder of a group of ``k`` tiles on the board.

    ``auto`` takes ``$LACAK_PDB_ENGINE`` when set, else the compiled builder when
    numba is installed (``lacak[fast]``) and takes the board, else numpy.

    :raises InvalidOptionError: an unknown engine, or ``numba`` where it cannot run.
    """
    if engine == "auto":
        engine = os.environ.get(ENGINE_VARIABLE, "").strip().lower() or "auto"
    if engine not in ENGINES:
        raise lacak.InvalidOptionError(
            f"unknown pattern database builder {engine!r}; choose one of {', '.join(ENGINES)}"
        )
    if engine == "numpy":
        return engine
    usable = compiled_available() and compiled_supports(width * height, k)
    if engine == "numba" and not usable:
        raise lacak.InvalidOptionError(
            "the compiled pattern database builder cannot run here (numba is not installed, "
            "or the board is too large for it); pip install 'lacak[fast]' or use numpy"
        )
    return "numba" if usable else "numpy"
