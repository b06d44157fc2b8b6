"""A batch's jobs for workers: boards in pieces of at most :data:`JOB_BOARDS`, sent as
one integer array each with the digest of the compiled dictionary (nothing big is
pickled), and run on threads, processes or any executor."""

from __future__ import annotations

import concurrent.futures
from collections.abc import Iterator
from typing import Any

import attrs
import lacak
import lacak.batch
from lacak.batch import Outcome

from ..wordgraph import WordGraph, load_graph
from ..wordgraph.files import _cache_file, _is_sound
from .arrays import PATHS, _Found, solve_columns

#: Boards per job sent to a worker (several jobs per worker balance the load, and
#: let this process build one job's results while the workers solve the next).
JOB_BOARDS = 256


@attrs.frozen
class _Chunk:
    """A picklable job: solve boards of one shape, given as their tiles' graph
    columns, with a graph the worker loads from the disk cache by its digest."""

    digest: str
    alphabet: str
    words: tuple[str, ...] | None
    min_length: int
    engine: str
    shape: tuple[int, int]
    mode: int = PATHS
    #: each board's walk stops at this many nodes expanded (0: never)
    cap: int = 0

    def __call__(self, columns: Any) -> list[_Found]:
        graph = load_graph(self.digest, self.words, self.alphabet)
        if self.mode == PATHS and not self.cap:
            return solve_columns(graph, columns, self.shape, self.min_length, self.engine)
        return solve_columns(graph, columns, self.shape, self.min_length, self.engine,
                             self.mode, self.cap)  # fmt: skip


@attrs.frozen(eq=False)
class _Piece:
    """A job's worth of boards: their indices, the job, and their tiles' columns."""

    members: list[int]
    job: _Chunk
    columns: Any


def _solve_piece(piece: tuple[_Chunk, Any]) -> list[_Found]:
    """What a worker runs for a piece: ``job(columns)``."""
    job, columns = piece
    return job(columns)


def _pieces(job: _Chunk, members: list[int], table: Any, count: int) -> list[_Piece]:
    """One group's boards in pieces: at least ``count``, at most ``JOB_BOARDS`` boards each."""
    boards = len(members)
    parts = max(count, -(-boards // JOB_BOARDS))
    size = -(-boards // parts)
    return [_Piece(members[k : k + size], job, table[k : k + size]) for k in range(0, boards, size)]


def _run_pieces(
    pieces: list[_Piece], engine: str, count: int, executor: concurrent.futures.Executor | None
) -> Iterator[tuple[_Piece, Outcome[list[_Found]]]]:
    """Each piece with its record, as the pieces finish (so that this process builds
    one piece's results while the workers solve the next).

    Without an executor the compiled walk runs on threads (it releases the GIL;
    the threads share the graph, and results need no pickling) and the other
    engines on lacak's process pool, which replaces a dead worker and runs its
    job again. A piece whose worker died twice there is run again board by
    board, so that only the boards that kill a worker are lost.
    """
    items = [(piece.job, piece.columns) for piece in pieces]
    if executor is None and engine == "numba":
        with concurrent.futures.ThreadPoolExecutor(max_workers=count) as threads:
            for outcome in lacak.batch.iter_many(_solve_piece, items, executor=threads):
                yield pieces[outcome.index], outcome
        return
    if executor is not None:
        for outcome in lacak.batch.iter_many(_solve_piece, items, executor=executor):
            yield pieces[outcome.index], outcome
        return
    died: list[tuple[_Piece, Outcome[list[_Found]]]] = []
    for outcome in lacak.batch.iter_many(_solve_piece, items, workers=max(2, count)):
        piece = pieces[outcome.index]
        if isinstance(outcome.error, lacak.WorkerDiedError):
            died.append((piece, outcome))
        else:
            yield piece, outcome
    if not died:
        return
    # board by board: a piece of one board each, with its own record
    singles = [
        (_Piece([i], piece.job, piece.columns[k : k + 1]), outcome)
        for piece, outcome in died
        for k, i in enumerate(piece.members)
    ]
    items = [(one.job, one.columns) for one, _ in singles]
    for outcome in lacak.batch.iter_many(_solve_piece, items, workers=max(2, count)):
        one, before = singles[outcome.index]
        error = outcome.error
        if isinstance(error, lacak.WorkerDiedError):
            (board,) = one.members
            attempts = before.attempts + outcome.attempts
            error = lacak.WorkerDiedError(
                f"worker died ({error.how}) solving board {board}: twice with the other "
                "boards of its job, and twice alone",
                index=board, exitcode=error.exitcode, attempts=attempts,
            )  # fmt: skip
            outcome = attrs.evolve(outcome, error=error, attempts=attempts)
        yield one, outcome


def _job(
    graph: WordGraph,
    words: lacak.Dictionary,
    min_length: int,
    engine: str,
    shape: tuple[int, int],
    *,
    remote: bool,
    mode: int = PATHS,
    cap: int = 0,
) -> _Chunk:
    """The job for one group; it carries the words when the workers may lack the
    disk cache (a remote executor such as Dask's, or no cache here)."""
    cached = _cache_file(graph.digest)
    local = not remote and cached is not None and _is_sound(cached, graph.digest)
    return _Chunk(graph.digest, words.alphabet, None if local else graph.words, min_length,
                  engine, shape, mode, cap)  # fmt: skip
