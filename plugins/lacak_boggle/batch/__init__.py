"""Solving thousands of boards at once.

Three engines, all exact and all reporting each word's lexicographically
smallest path (so they agree with :func:`~lacak_boggle.solve_board` result for
result, node counts included):

``numba``
    the depth-first walk compiled (:mod:`lacak_boggle.compiled`, from the
    optional extra ``lacak[fast]``), over every board of a shape in one call.
``numpy``
    a level-synchronous walk over *all* boards together. The frontier is a set
    of arrays (board, cell, visited mask, graph state, rank); one level
    expands every frontier entry to its up to eight neighbours at once,
    drops used tiles, looks the next state up in the dense transition table,
    and keeps what is still the start of a word. Words are collected with the
    index of the entry that found them; paths are rebuilt from per-level
    parent indices at the end, and the smallest path per word is chosen with
    one ``lexsort``.
``dfs``
    the single-board depth-first walk in Python, board after board.

Every engine hands back the same arrays (:class:`_Found`: per word found its
board, rank and path; per board its node counts), and :meth:`_Found.results`
makes the :class:`~lacak_boggle.BoggleResult` objects, whose path tuples are
only made when asked for. ``engine="auto"`` is described in
:mod:`lacak_boggle.engines`; boards the array engines cannot take (more than 63
tiles, multi-letter tiles that are not dice digraphs) and ``all_paths`` use
the Python walk of :func:`~lacak_boggle.solve_board`.

With ``workers`` > 1 (or an executor), this process maps the tiles to graph
columns and sends jobs of at most :data:`JOB_BOARDS` boards as one integer
array; workers load the compiled dictionary from the disk cache by its
digest (nothing big is pickled) and send back the engine's arrays, and this
process builds each job's results while the workers solve the next. Without
an executor, the numba engine runs its jobs on threads (its walk releases
the GIL), the others on process

This package's modules, each a concern: :mod:`~lacak_boggle.batch.arrays` (the
array engines' walks and the arrays they give back), :mod:`~lacak_boggle.batch.plan`
(a batch sorted into groups for them, and its limits),
:mod:`~lacak_boggle.batch.jobs` (the groups in pieces for workers),
:mod:`~lacak_boggle.batch.solve` (:func:`solve_many`) and
:mod:`~lacak_boggle.batch.scores` (:func:`score_many`).
"""

from __future__ import annotations

from ..engines import ENGINES

# The module lacak_boggle.batch had the names imported "as" themselves too, outside its
# __all__: they still read from here, but each is looked up in its own module, so set
# one there (lacak_boggle.batch.plan.PROBE_NODES), not here.
from .arrays import CHUNK as CHUNK
from .arrays import FRONTIER_CAP as FRONTIER_CAP
from .arrays import solve_columns as solve_columns
from .arrays import walk_arrays as walk_arrays
from .jobs import JOB_BOARDS as JOB_BOARDS
from .plan import PARALLEL_FROM as PARALLEL_FROM
from .plan import PROBE_NODES as PROBE_NODES
from .scores import BoggleScores, score_many
from .solve import solve_many

__all__ = ["ENGINES", "BoggleScores", "score_many", "solve_many"]
