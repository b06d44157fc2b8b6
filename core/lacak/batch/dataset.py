"""Datasets: many generated instances, solved or not, streamed as records (``lacak batch``).

A batch is ``count`` jobs; job ``i`` generates an instance of a puzzle kind
with the job's seed (:func:`lacak.batch.job_seed`), prepares it as the kind
declares (:class:`~lacak.BatchKind`), optionally solves it with the strategy
:func:`lacak.choose` picks, and gives one *record*, a line of JSON::

    {"index": 0, "seed": 5281..., "ok": true, "instance": {...}, "result": {...},
     "digest": "9f0c..."}

``instance`` is the kind's form of the instance (``Maze.to_dict()`` for a
maze), ``result`` the documented result shape (:meth:`SearchResult.to_dict
<lacak.SearchResult.to_dict>`; its ``stats.seconds`` is ``null`` unless
timings are asked for, so that a batch is the same file every time), and a
job that raised or whose search a limit stopped has ``"ok": false`` and
``"error": {"type", "message"}``. Every record ends with its ``digest``: the XXH3-64
hash (16 hex digits) of the line's bytes before ``,"digest":``, seeded with the digest
of the record before it (0 for the first), so that a file can be checked record by
record with nothing but itself: a record changed, removed, added or moved breaks the
chain where it is (:func:`record_digest`). docs/batch.md describes it all.

Records come in job order whatever runs the jobs (:func:`records`), so a
batch written by one process, a pool of any size or a Dask cluster is the
same file, byte for byte; :func:`write` streams them to JSON Lines (gzip for
``.gz``) or ``.npz`` and resumes an interrupted file, which it checks first. No job
runs in the process that writes the file: a job that kills its process is one failed
record, never the batch.

>>> import lacak
>>> spec = lacak.batch.dataset.spec("maze", generator="kruskal", size=(3, 4))
>>> [record.index for record in lacak.batch.dataset.records(spec, count=3, seed=1, workers=1)]
[0, 1, 2]
"""

from __future__ import annotations

import binascii
import contextlib
import itertools
import math
import os
import signal
import threading
import time
from collections.abc import Generator, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from .. import progress
from ..errors import (
    InvalidOptionError,
    LacakError,
    LimitReachedError,
    UnknownComponentError,
)
from .files import open_output
from .jobs import Outcome, _Run
from .pool import _apart, _iter_many
from .seeds import _mixer, job_seed

if TYPE_CHECKING:
    import concurrent.futures


from .records import _DIGEST_END, _DIGEST_KEY, _XXH3_BYTES, DIGEST_BYTES, Made, record_digest
from .specs import Spec, _Drawn, _whole, spec
from .summary import Record, Summary

__all__ = [
    "DIGEST_BYTES",
    "MAX_REJECTED",
    "Record",
    "Spec",
    "Summary",
    "dask_executor",
    "record_digest",
    "records",
    "spec",
    "write",
]

#: Draws in a row that may be rejected (too short, too long, a duplicate) before a
#: batch gives up: the generator cannot make what was asked for.
MAX_REJECTED = 10_000

#: The seconds a chunk of jobs should take (chunks grow to it as jobs are timed).
CHUNK_SECONDS = 0.25
#: The same for a Dask cluster, where sending a task costs more.
DASK_CHUNK_SECONDS = 1.0
#: The most jobs a chunk holds.
MAX_CHUNK = 4096

#: Errors of the whole batch rather than of one job: the first job raising one stops
#: the batch (it is bad input, and every job would say the same).
_SETUP_ERRORS = (UnknownComponentError, InvalidOptionError)


class _Sizes:
    """Chunk sizes that grow to :data:`CHUNK_SECONDS` of work as jobs are timed, and
    shrink at the end of a round so that every worker has some of the last jobs, but
    not below a tenth of that work (a chunk of a few short jobs costs more to send
    and collect than it balances: each of the last chunks of a thousand 1 ms jobs
    cost 0.1-0.2 ms, and there were dozens)."""

    def __init__(self, workers: int, target: float, fixed: int | None) -> None:
        self.workers = max(1, workers)
        self.target = target
        self.fixed = fixed
        self.mean: float | None = None
        self.left = 0

    def observe(self, seconds: float) -> None:
        self.mean = seconds if self.mean is None else 0.9 * self.mean + 0.1 * seconds

    def __call__(self) -> int:
        if self.fixed is not None:
            return self.fixed
        if self.mean is None:
            return 1
        per_job = max(self.mean, 1e-6)
        least = int(self.target / 10 / per_job)
        size = min(int(self.target / per_job), MAX_CHUNK, max(least, self.left // (4 * self.workers)))
        return max(1, size)


class _Job:
    """What a worker runs: job ``(index, seed)`` of a batch, in two halves (see
    :func:`lacak.batch.iter_many`). The seeds are derived in the parent, a block at a
    time as its jobs are taken (:func:`_jobs`): in a warm loop, not cold in the worker
    after each job's own work.

    Its values are :class:`Made` as plain tuples (which pickle 5x faster than the
    named ones: no ``__reduce_ex__``): built-in data, so a chunk whose jobs all
    succeed comes back as one list (``plain_values``)."""

    __slots__ = ("spec",)

    plain_values = True

    def __init__(self, spec: Spec) -> None:
        self.spec = spec

    def __reduce__(self) -> tuple[type[_Job], tuple[Spec]]:
        return (_Job, (self.spec,))

    def __call__(self, job: tuple[int, int]) -> Made | _Drawn:
        if progress.active():
            return self.spec.start(job)
        return self.spec._start(job)

    def finish(self, drawn: Made | _Drawn) -> tuple[Any, ...]:
        if isinstance(drawn, Made):
            return tuple(drawn)
        return self.spec._row(drawn)


def _jobs(first: int, count: int, seed: int, sizes: _Sizes) -> Iterator[tuple[int, int]]:
    """Jobs ``(index, seed)`` of a batch seeded ``seed``, from ``first``."""
    mixer = _mixer(_whole(seed, "the batch seed"))
    sizes.left = count
    for block in range(first, first + count, _SEED_BLOCK):
        size = min(_SEED_BLOCK, first + count - block)
        for index, job in zip(range(block, block + size), mixer.children(block, size),
                              strict=True):
            sizes.left -= 1
            yield index, job


#: Job seeds made at a time (with numpy) as the jobs are read.
_SEED_BLOCK = 256


def records(
    spec: Spec,
    *,
    count: int,
    seed: int,
    start: int = 0,
    written: int = 0,
    seen: Iterable[bytes] = (),
    executor: concurrent.futures.Executor | None = None,
    workers: int | None = None,
    chunksize: int | None = None,
    summary: Summary | None = None,
    chain: int = 0,
) -> Iterator[Record]:
    """The records of a batch, in job order, made as they are read.

    Job ``i`` uses seed :func:`job_seed(seed, i) <lacak.batch.job_seed>`, so a
    record does not depend on what runs the jobs or on how they are chunked.
    Draws that ``spec`` rejects (a solution too short or too long, an instance
    seen before) are drawn again with the next jobs, so record indices may skip.
    Each record ends with its digest, chained to the one before it (see
    :func:`record_digest`). No job runs in this process: the first runs alone in a
    process of its own, with its progress shown here, so that what it builds (a
    pattern database, a compiled dictionary) is on disk before the workers start;
    the others run in lacak's pool (of one process for one worker) or ``executor``.

    :param count: the records the whole batch has.
    :param seed: the batch's seed.
    :param start: the first job to run (a resumed batch: one past its last record).
    :param written: records already written (a resumed batch).
    :param seen: digests of the instances already written (a resumed ``unique`` batch).
    :param executor: as for :func:`lacak.batch.iter_many` (a Dask client's executor).
    :param workers: processes of lacak's own pool (default: one per core); with an
        ``executor``, how many jobs it runs at once (chunks are sized by it).
    :param chunksize: jobs per chunk (default: chunks that grow to about
        :data:`CHUNK_SECONDS` of work).
    :param summary: where the draws rejected are counted (count the records with
        :meth:`Summary.add`, as :func:`write` does once it has written each).
    :param chain: the digest of the record before ``start`` (a resumed batch: its last
        record's, as an integer), which the first record's digest follows.
    :raises LimitReachedError: :data:`MAX_REJECTED` draws in a row were rejected
        (after the records made so far).
    :raises UnknownComponentError: the first job found an unknown strategy or
        heuristic (the same for every job).
    :raises InvalidOptionError: bad counts, or a bad option the first job found.
    """
    spec = spec.seeded(seed)  # (a task batch's entries record the batch's seed)
    rows = _rows(spec, count=count, seed=seed, start=start, written=written, seen=seen,
                 executor=executor, workers=workers, chunksize=chunksize,
                 summary=summary, chain=chain)  # fmt: skip
    try:
        for row in rows:
            yield Record(*row)
    finally:
        rows.close()  # (now, not when it is collected: its pool is shut down)


#: A record as :func:`_rows` gives it: the fields of :class:`Record`, in its order.
_Row = tuple[int, int, bytes, bool, "str | None", tuple[tuple[str, float], ...], float]


def _rows(
    spec: Spec,
    *,
    count: int,
    seed: int,
    start: int = 0,
    written: int = 0,
    seen: Iterable[bytes] = (),
    executor: concurrent.futures.Executor | None = None,
    workers: int | None = None,
    chunksize: int | None = None,
    summary: Summary | None = None,
    chain: int = 0,
) -> Generator[_Row, None, None]:
    """:func:`records`, each as a plain tuple (what :func:`write` reads: no object a
    record but the tuple)."""
    count = _whole(count, "the number of records")
    start = _whole(start, "the first job")
    written = _whole(written, "the records written")
    if chunksize is not None:
        chunksize = _whole(chunksize, "the chunk size", least=1)
    dask = executor is not None and not _is_local(executor)
    if executor is not None:
        pool_size = workers or getattr(executor, "_max_workers", 0) or 0
        workers = None
    else:
        pool_size = workers if workers is not None else os.cpu_count() or 1
    sizes = _Sizes(pool_size, DASK_CHUNK_SECONDS if dask else CHUNK_SECONDS, chunksize)
    known = set(seen) if spec.unique else set()
    needed = count - written
    index = start
    in_a_row = 0
    drawn = kept = 0
    first = True
    while needed > 0:
        if drawn:
            rate = max(kept / drawn, 1 / MAX_REJECTED)
            size = min(math.ceil(needed / rate * 1.1) + 1, MAX_REJECTED)
        else:
            size = needed
        here: list[Outcome[Any]] = []
        if first:
            # the first job here: it loads what the others need, and bad input shows now
            first = False
            here.append(_first(spec, index, seed))
        pool = _iter_many(_Job(spec), _jobs(index + len(here), size - len(here), seed, sizes),
                          executor=executor, workers=workers, chunksize=sizes, ordered=True,
                          start=index + len(here), apart=True)  # fmt: skip
        try:
            for job, made in _made(itertools.chain(here, pool)):
                index = job + 1
                drawn += 1
                if isinstance(made, BaseException):
                    made_seed = job_seed(seed, job)
                    line, ok = spec.error_line(job, made_seed, made), False
                    error, measures, seconds = type(made).__name__, (), 0.0
                else:
                    # (a Made, as a plain tuple from a worker)
                    line, made_seed, ok, reason, digest, measures, seconds, error = made
                    sizes.observe(seconds)
                    if reason is None and digest is not None:
                        if digest in known:
                            reason = "duplicate"
                        else:
                            known.add(digest)
                    if reason is not None:
                        in_a_row += 1
                        if summary is not None:
                            summary.rejected[reason] += 1
                            summary.job_seconds += seconds
                        if in_a_row >= MAX_REJECTED:
                            raise LimitReachedError(
                                f"gave up: {MAX_REJECTED:,} draws in a row were rejected "
                                f"({_reasons(summary)}); the generator cannot make "
                                f"{count:,} such instances"
                            )
                        continue
                in_a_row = 0
                kept += 1
                needed -= 1
                # the record, its digest after the bytes made without it (its "}\n" cut):
                # _DIGEST_TAIL(record_digest(head, chain)), made the quicker way
                head = line[:-2]
                digest = _XXH3_BYTES(head, chain)
                chain = int.from_bytes(digest, "big")
                line = b"".join((head, _DIGEST_KEY, binascii.hexlify(digest), _DIGEST_END))
                yield (job, made_seed, line, ok, error, measures, seconds)
                if needed == 0:
                    break
        finally:
            pool.close()  # the jobs not needed any more are cancelled, the pool shut down


def _made(given: Iterable[Outcome[Any] | _Run]) -> Iterator[tuple[int, Any]]:
    """``(index, Made or the job's error)`` of each job, from outcomes and runs."""
    for each in given:
        if isinstance(each, _Run):
            yield from zip(itertools.count(each.first), each.values)
        elif each.error is None:
            yield each.index, each.value
        else:
            yield each.index, each.error


def _reasons(summary: Summary | None) -> str:
    if summary is None or not summary.rejected:
        return "rejected"
    names = {"length": "solution length out of range", "duplicate": "duplicates",
             "kind": "refused by the kind"}  # fmt: skip
    return ", ".join(f"{names.get(k, k)}: {n:,}" for k, n in sorted(summary.rejected.items()))


def _first(spec: Spec, index: int, seed: int) -> Outcome[Made]:
    """The first job, run alone before the others start, in a process of its own (as
    every job: one that kills its process costs only its record), with its progress
    shown here (a one-time build is announced): what it builds is on disk before the
    workers start. An error of the whole batch (bad input) is raised, not recorded."""
    outcome = _apart(spec.run, index, (index, job_seed(seed, index)))
    if isinstance(outcome.error, _SETUP_ERRORS):
        raise outcome.error
    return outcome


def _is_local(executor: Any) -> bool:
    import concurrent.futures as cf  # (slow to import)

    return isinstance(executor, (cf.ProcessPoolExecutor, cf.ThreadPoolExecutor))


# -- Dask --------------------------------------------------------------------------------


@contextlib.contextmanager
def dask_executor(scheduler: str) -> Iterator[tuple[concurrent.futures.Executor, int]]:
    """A Dask cluster's executor and its number of worker threads, for the block.

    :param scheduler: ``tcp://HOST:PORT`` (or another Dask address) of a running
        scheduler, or ``local:N`` to start a ``LocalCluster`` of ``N`` worker
        processes on 127.0.0.1 (closed after the block).
    :raises InvalidOptionError: Dask is not installed (the message says what to
        install), the address is malformed, or the scheduler cannot be reached.
    :raises LimitReachedError: the running deadline (a command's ``--timeout``) passed
        before a ``local:N`` cluster was up.
    """
    try:
        import distributed  # (deferred: Dask, the [dask] extra)
    except ImportError:
        raise InvalidOptionError(
            "--scheduler needs Dask, which is not installed: pip install 'lacak[dask]'"
        ) from None
    import logging  # (only with Dask)

    with contextlib.ExitStack() as stack:
        if scheduler.startswith("local:"):
            text = scheduler.removeprefix("local:")
            if not text.isdigit() or int(text) < 1:
                raise InvalidOptionError(
                    f"--scheduler local:N starts N worker processes; N must be a positive "
                    f"integer, not {text!r}"
                )
            # its workers' own logs (a heartbeat that misses the scheduler as the cluster
            # closes, a worker killed) would put tracebacks on the terminal: what matters
            # comes back as the tasks' results or errors
            from .cluster import local_cluster  # (started within the running deadline)

            cluster = stack.enter_context(local_cluster(
                int(text), threads_per_worker=1, processes=True, host="127.0.0.1",
                dashboard_address=None, silence_logs=logging.CRITICAL,
            ))  # fmt: skip
            client = stack.enter_context(distributed.Client(cluster))
        elif "://" in scheduler:
            try:
                client = stack.enter_context(distributed.Client(scheduler, timeout="10s"))
            except (OSError, TimeoutError) as error:
                raise InvalidOptionError(
                    f"cannot reach the Dask scheduler at {scheduler}: {error}"
                ) from None
        else:
            raise InvalidOptionError(
                f"--scheduler is tcp://HOST:PORT (a Dask scheduler) or local:N, not {scheduler!r}"
            )
        threads = sum(client.nthreads().values()) or 1
        quiet = _CancelledCascade()
        logger = logging.getLogger("tornado.application")
        logger.addFilter(quiet)
        stack.callback(logger.removeFilter, quiet)
        from .cluster import DaskExecutor  # (it imports concurrent.futures, slow to import)

        yield DaskExecutor(client), threads


class _CancelledCascade:
    """Drops the tracebacks Dask's executor logs about futures lacak cancelled (a batch or
    a split search that needs no more): Dask sets the result of a cancelled
    :class:`concurrent.futures.Future` anyway and logs the ``InvalidStateError`` it gets,
    or logs the ``FutureCancelledError`` of its own future. Nothing is wrong; the results
    are simply not wanted."""

    def filter(self, record: Any) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if error is None:
            return True
        name = type(error).__name__
        return not (name in _CANCELLED and "cancel" in str(error).lower())


#: What Dask logs about a future cancelled on its way (its own, or the executor's).
_CANCELLED = frozenset({"InvalidStateError", "FutureCancelledError", "CancelledError"})


def write(
    spec: Spec,
    out: str | os.PathLike[str] | None,
    *,
    count: int,
    seed: int,
    resume: bool = False,
    overwrite: bool = False,
    executor: concurrent.futures.Executor | None = None,
    workers: int | None = None,
    chunksize: int | None = None,
    summary: Summary | None = None,
) -> Summary:
    """Write a batch's records to ``out``, in job order, as they come.

    ``out`` ending in ``.jsonl`` (or anything else) is JSON Lines, ``.gz`` gzipped
    JSON Lines, ``.npz`` stacked arrays (for kinds that declare them); ``None`` or
    ``"-"`` is standard output. An interruption (``KeyboardInterrupt``) leaves a
    whole file of the records finished so far, and ``resume=True`` finishes it: the
    file is then the same, byte for byte, as one written without a break.

    :param resume: finish the file an interrupted run left (it is checked to be
        this batch's).
    :param overwrite: replace an existing file (otherwise it is refused).
    :param summary: the summary to count into (kept by the caller, it tells what was
        done even when this raises).
    :returns: the summary.
    :raises InvalidOptionError: bad options, an existing file, or a file to resume
        that is not this batch's.
    :raises LimitReachedError: the batch gave up (see :func:`records`); the file
        holds the records made so far.
    """
    spec = spec.seeded(seed)  # (a task batch's entries record the batch's seed)
    summary = summary if summary is not None else Summary(spec.kind, count)
    summary.out = None if out is None or str(out) == "-" else str(out)
    sink, state = open_output(out, spec, seed=seed, count=count, resume=resume,
                              overwrite=overwrite, summary=summary)  # fmt: skip
    complete = False
    guard = _Deferred()
    try:
        with guard, progress.task(f"{spec.kind} batch", total=count) as shown:
            shown.update(completed=state.records)
            last = time.monotonic()
            done = state.records
            note = summary.note
            rows = _rows(spec, count=count, seed=seed, start=state.next_index,
                         written=state.records, seen=state.seen, executor=executor,
                         workers=workers, chunksize=chunksize, summary=summary,
                         chain=state.chain)  # fmt: skip
            with contextlib.closing(rows):  # (its pool shut down here, even on an error)
                for _index, _seed, line, ok, error, measures, seconds in rows:
                    guard.busy = True  # (guard.holding(), spelled out: it runs for every record)
                    sink.write(line)
                    note(ok, error, measures, seconds=seconds)
                    guard.busy = False
                    if guard.pending:
                        guard.raise_pending()
                    done += 1
                    now = time.monotonic()
                    if now - last > 0.2:
                        last = now
                        elapsed = time.perf_counter() - summary.began
                        rate = summary.written / elapsed if elapsed > 0 else 0.0
                        shown.update(completed=done, description=f"{spec.kind} batch: "
                                     f"{rate:,.0f} records/s")  # fmt: skip
            shown.update(completed=done)
        complete = summary.records >= count
    except KeyboardInterrupt:
        summary.interrupted = True
        raise
    except LacakError as error:
        if isinstance(error, LimitReachedError):
            summary.gave_up = str(error)
        raise
    finally:
        summary.stop()
        with guard.holding(again=False):
            sink.close(complete)
    return summary


class _Deferred:
    """Ctrl-C while a record is being written waits until it is written (a gzip stream
    cut in the middle of a write has a wrong checksum); at any other time, such as
    while waiting for the workers, it interrupts at once. Only in the main thread,
    and only when Ctrl-C raises ``KeyboardInterrupt`` (Python's own handler)."""

    def __init__(self) -> None:
        self.busy = False
        self.pending = False
        self.previous: Any = None

    def __enter__(self) -> _Deferred:
        if threading.current_thread() is threading.main_thread() and (
            signal.getsignal(signal.SIGINT) is signal.default_int_handler
        ):
            self.previous = signal.signal(signal.SIGINT, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)
            self.previous = None

    def _handle(self, signum: int, frame: Any) -> None:
        if self.busy:
            self.pending = True
            return
        raise KeyboardInterrupt

    @contextlib.contextmanager
    def holding(self, *, again: bool = True) -> Iterator[None]:
        """Run the block whole; a Ctrl-C during it is raised after it (if ``again``)."""
        self.busy = True
        try:
            yield
        finally:
            self.busy = False
        if self.pending and again:
            self.raise_pending()

    def raise_pending(self) -> None:
        """Raise the Ctrl-C that came while busy."""
        self.pending = False
        raise KeyboardInterrupt
