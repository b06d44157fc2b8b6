"""Solving many boards at once: :func:`solve_many`, a result per board."""

from __future__ import annotations

import concurrent.futures
import time
from collections.abc import Iterable, Sequence

import lacak
import lacak.batch
from lacak.batch import Outcome

from ..board import Board
from ..results import BoggleResult
from ..solver import DictionaryLike
from .arrays import WORDS
from .plan import _cap, _check_limits, _check_options, _parse_all, _prepare, _solve_here, _walk_plan

__all__ = ["solve_many"]


def solve_many(
    boards: Iterable[Board | str | Sequence[Sequence[str]]],
    dictionary: DictionaryLike = None,
    *,
    min_length: int | None = None,
    all_paths: bool = False,
    engine: str = "auto",
    workers: int | None = 1,
    executor: concurrent.futures.Executor | None = None,
    registry: lacak.Registry | None = None,
    limits: lacak.Limits | None = None,
) -> list[Outcome[BoggleResult]]:
    """Solve many boards with one dictionary: one record per board, in order.

    :param boards: :class:`Board` objects or their text forms (any mix of sizes).
    :param dictionary: as for :func:`~lacak_boggle.solve_board` (default ``eng``).
    :param min_length: one minimum for every board; default: each board's official one.
    :param all_paths: collect every path (uses the depth-first engine).
    :param engine: ``"auto"``, ``"numba"``, ``"numpy"`` or ``"dfs"`` (``"auto"``:
        see :mod:`lacak_boggle.engines`); boards the array engines cannot take fall
        back to the depth-first walk.
    :param workers: workers to use (threads for the numba engine, processes
        for the others); ``None`` means one per core, ``1`` (the default)
        solves in this process. Batches of fewer than ``PARALLEL_FROM`` (256)
        boards are solved in this process.
    :param executor: any :class:`concurrent.futures.Executor` (a Dask
        client's, or a process pool kept for many calls) to run the jobs,
        whatever the batch's size: at least one per core (or per worker when
        ``workers`` > 1), at most ``JOB_BOARDS`` boards each.
    :param limits: **each board's** limits, as :func:`~lacak_boggle.solve_board`
        takes them: a board that reaches one has the result that function gives
        (``stopped`` set, the words found so far). ``seconds`` also bounds the
        set-up (reading and compiling the dictionary), which raises
        :class:`~lacak.LimitReachedError` when it passes them. Every engine walks
        with a cap of :data:`PROBE_NODES` nodes a board (no real board comes
        near it); a board that reaches it is walked again alone, by the Python
        walk, under ``limits``.
    :returns: one :class:`lacak.batch.Outcome` per board, in order. Its
        ``value`` is a :class:`BoggleResult` with the same words, paths,
        scores and node counts as :func:`~lacak_boggle.solve_board` gives
        (``strategy`` is ``boggle-ENGINE``, or ``boggle`` for boards left to
        the Python walk; ``seconds`` is the wait for the board's job, shared
        among its boards); or its ``error`` says why the board has none: an
        :class:`~lacak.InvalidPuzzleError` naming the board, the error of the
        job that solved it, or a :class:`~lacak.WorkerDiedError`. A process
        worker that dies is replaced and its job run again (by
        :func:`lacak.batch.iter_many`); a job whose worker dies twice is run
        again board by board, so that only a board that kills its worker is
        lost. Word lists, counts and scores are there at once; the path
        tuples of a result are made when first asked for (the compiled walk
        finds them then, walking that board again).
    :raises InvalidOptionError: an unknown engine, ``"numba"`` where the
        compiled walk cannot run, or a bad number of workers.

    >>> import lacak
    >>> words = lacak.Dictionary(name="tiny", language="en", words=["CAT", "ACT", "TAX"], alphabet="ACQTXY")
    >>> [r.value.word_list for r in solve_many(["CAT/XQY", "ACT/QXY"], words)]
    [['CAT', 'TAX'], ['ACT']]
    >>> solve_many(["CAT", "CA/T"], words)[1].error
    InvalidPuzzleError('board 1: ragged board: row 1 has 1 tile but row 0 has 2')
    """
    _check_options(workers, min_length, engine)
    started = time.perf_counter()
    limits = _check_limits(limits)
    parsed = _parse_all(boards)
    words, plan = _prepare(dictionary, registry, limits)
    cap = _cap(limits)
    records: list[Outcome[BoggleResult] | None] = [None] * len(parsed)
    for i, board in enumerate(parsed):
        if not isinstance(board, Board):
            records[i] = Outcome(i, error=board)
    plan.add(((i, b) for i, b in enumerate(parsed) if isinstance(b, Board)), min_length,
             all_paths or cap < 0)  # fmt: skip
    for i in plan.alone:
        records[i] = _solve_here(i, parsed[i], words, min_length, all_paths, limits)  # type: ignore[arg-type]
    clock = [started]  # the first piece's boards share the preparation too
    for done in _walk_plan(plan, engine, workers, executor, WORDS, max(cap, 0), limits.seconds):
        if done.error is not None:
            for i in done.members:
                records[i] = Outcome(i, error=done.error.error, attempts=done.error.attempts,
                                     traceback=done.error.traceback)  # fmt: skip
            continue
        assert done.found is not None
        # each board's seconds: the wait for its piece, shared among the piece's boards
        now = time.perf_counter()
        share = (now - clock[0]) / max(1, len(done.members))
        clock[0] = now
        at = 0
        for pack in done.found:
            chunk = done.members[at : at + pack.boards]
            solved = [parsed[i] for i in chunk]
            made = pack.results(plan.graph, solved, words.name, done.least,  # type: ignore[arg-type]
                                done.columns[at : at + pack.boards], seconds=share)  # fmt: skip
            for i, result in zip(chunk, made, strict=True):
                records[i] = Outcome(i, value=result)
            if pack.over is not None:  # walked again alone, under the limits
                for i, over in zip(chunk, pack.over.tolist(), strict=True):
                    if over:
                        records[i] = _solve_here(i, parsed[i], words, min_length, False,  # type: ignore[arg-type]
                                                 limits)  # fmt: skip
            at += pack.boards
    return [r for r in records if r is not None]
