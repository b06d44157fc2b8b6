"""Running a batch's jobs on an executor: the local process pool lacak owns, or a caller's.

:func:`iter_many` (outcomes as jobs finish) and :func:`run_many` (in job order) send jobs
in chunks to any :class:`concurrent.futures.Executor`; when lacak owns a process pool, the
jobs of a worker that died run again, each alone in a fresh one-process pool (see
:mod:`lacak.batch`).
"""

from __future__ import annotations

import collections
import contextlib
import contextvars
import gc
import itertools
import os
import pickle
import reprlib
import shutil
import signal
import tempfile
import time
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from .. import progress
from ..errors import InvalidOptionError, JobError, WorkerDiedError, exit_text
from .jobs import Outcome, _outcome, _Reply, _Run, _Task
from .processes import end_with_parent, owner
from .seeds import _whole

if TYPE_CHECKING:
    import concurrent.futures

T = TypeVar("T")
R = TypeVar("R")




def _running(markers: str) -> dict[int, int]:
    """``{pid: job}``: the job each worker of a dead pool had noted as started."""
    found = {}
    for name in os.listdir(markers):
        try:
            with open(os.path.join(markers, name), "rb") as f:
                text = f.read().strip()
            found[int(name)] = int(text)
        except (OSError, ValueError):  # an empty note (zero bytes): killed before it wrote one
            continue
    return found


def _exitcodes(processes: Any, running: dict[int, int]) -> dict[int, int | None]:
    """``{job: exit code of the worker that ran it}``. The codes come from the pool's
    process table, where :class:`~concurrent.futures.ProcessPoolExecutor` keeps
    it; where it does not (another version, another executor) they are ``None``:
    they only make the report clearer, nothing depends on them."""
    codes: dict[int, int | None] = {}
    for pid, job in running.items():
        process = processes.get(pid) if isinstance(processes, dict) else None
        code = getattr(process, "exitcode", None)
        codes[job] = code if isinstance(code, int) else None
    return codes


def _positive(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidOptionError(f"{what} must be a positive integer, got {reprlib.repr(value)}")
    return value


#: Chunks in flight per worker when no ``window`` is given (one running, the rest queued).
WINDOW_PER_WORKER = 4
#: With ``ordered=True``, finished records that may wait for an earlier one, in windows:
#: room for the other workers to go on past a slow job, with memory still bounded.
WAITING_PER_WINDOW = 4


def iter_many(
    function: Callable[[T], R],
    items: Iterable[T],
    *,
    executor: concurrent.futures.Executor | None = None,
    workers: int | None = None,
    chunksize: int | Callable[[], int] = 1,
    ordered: bool = False,
    start: int = 0,
    window: int | None = None,
) -> Generator[Outcome[R], None, None]:
    """``function(item)`` for every item, run by ``executor``: one :class:`Outcome`
    per item, yielded as the jobs finish (each says its ``index``), or in job
    order with ``ordered=True``.

    Without an executor a :class:`~concurrent.futures.ProcessPoolExecutor` of
    ``workers`` processes (default: one per core) runs the jobs, and is
    replaced when a worker dies; with one worker, or one job, they run in
    this process. ``function`` and the items must be picklable for a process
    pool or a Dask cluster.

    The items are read as they are needed, so a batch may be as long as one
    likes (a generator, even an endless one whose reader stops when it has
    enough): at most ``window`` chunks are in flight at once, and with
    ``ordered=True`` at most about :data:`WAITING_PER_WINDOW` windows of finished
    records wait for those before them (the other workers go on past a slow job).
    Memory stays flat however many jobs there are.

    A ``function`` with a ``finish(value)`` method runs in two halves: each
    chunk's jobs first, then ``finish`` on each value that came back (its result
    is the job's value, an exception it raises the job's error). Work that is
    the same for every job (making a record, say) then runs in one warm pass
    over the chunk, not cold after each job's own work. A ``function`` whose
    ``plain_values`` attribute is ``True`` promises values (after ``finish``) of
    built-in data only (tuples, bytes, numbers, strings, ``None``): a chunk whose
    jobs all succeed then crosses back pickled once, not value by value.

    A job that raises gives an error record, and the executor goes on. A
    worker that dies breaks a process pool: with lacak's own pool, the jobs
    it was running are run again at once, each alone in a fresh one-process
    pool, and reported as :class:`~lacak.WorkerDiedError` if they die again;
    the jobs that were waiting go on in a fresh pool. With a caller's process
    pool, which cannot be mended, its unfinished jobs are reported (the jobs
    it was running as :class:`~lacak.WorkerDiedError`, the others as
    :class:`~lacak.JobError`) and not retried. A Dask cluster retries on its
    own (its ``allowed_failures``); its ``KilledWorker`` is then the job's error.
    A Dask ``client.get_executor()`` is run through
    :class:`lacak.batch.cluster.DaskExecutor`, which keeps a result Dask made again after
    a worker died (Dask's own executor can take it for an error).

    Jobs on a :class:`~concurrent.futures.ThreadPoolExecutor` run in a copy of the
    caller's :mod:`contextvars` context (as :func:`asyncio.to_thread` does), so a
    registry made current with :func:`lacak.plugin.registry.using` applies to them, as it
    does to the workers a process pool forks.

    Stopping the iteration early (or an exception such as ``KeyboardInterrupt``
    while it waits) cancels the jobs not started; lacak's own pool is shut down
    and its workers stopped.

    :param chunksize: jobs sent to a worker at a time (each still gets its own
        record), or a function called before each chunk is made that says how
        many (a reader can make chunks grow as it learns how long jobs take).
    :param ordered: yield the records in job order.
    :param start: the index of the first item (a resumed batch keeps its numbers).
    :param window: most chunks in flight at once; default
        :data:`WINDOW_PER_WORKER` per worker (of lacak's pool or a caller's
        process pool), else 32.
    :raises InvalidOptionError: ``workers``, ``chunksize`` or ``window`` is not a
        positive integer, ``start`` not a non-negative one, or ``workers`` is given
        with an ``executor``.
    """
    stream = _iter_many(function, items, executor=executor, workers=workers,
                        chunksize=chunksize, ordered=ordered, start=start, window=window)  # fmt: skip
    try:
        for given in stream:
            if isinstance(given, _Run):
                attempts = given.attempts
                for k, value in enumerate(given.values):
                    yield Outcome(given.first + k, value=value,
                                  attempts=1 if attempts is None else attempts[k])  # fmt: skip
            else:
                yield given
    finally:
        stream.close()


def _iter_many(
    function: Callable[[Any], Any],
    items: Iterable[Any],
    *,
    executor: concurrent.futures.Executor | None = None,
    workers: int | None = None,
    chunksize: int | Callable[[], int] = 1,
    ordered: bool = False,
    start: int = 0,
    window: int | None = None,
    apart: bool = False,
) -> Generator[Outcome[Any] | _Run, None, None]:
    """:func:`iter_many`, whose chunks of jobs that all succeeded with plain values
    (see :class:`_Task`) come back as one :class:`_Run` each: what a reader of many
    small jobs takes, to spend nothing a job on objects it does not need.

    With ``apart`` and no executor, no job runs in this process: one worker, or one
    job, is lacak's pool of one process (a batch that writes a file must outlive a job
    that kills its process, and a worker's death is survived)."""
    sizes: Callable[[], int]
    if callable(chunksize):
        sizes = _checked_sizes(chunksize)
    else:
        fixed = _positive(chunksize, "chunksize")
        sizes = lambda: fixed  # noqa: E731
    start = _whole(start, "start")
    if window is not None:
        window = _positive(window, "window")
    if workers is not None:
        workers = _positive(workers, "workers")
        if executor is not None:
            raise InvalidOptionError("give workers or an executor, not both")
    if executor is not None:
        from .cluster import reliable  # (it imports concurrent.futures, slow to import)

        executor = reliable(executor)  # (Dask's own can lose a result when a worker dies)
    source = iter(items)
    count = 0
    if executor is None:
        count = workers if workers is not None else os.cpu_count() or 1
        head = list(itertools.islice(source, 2))
        if not apart and (count == 1 or len(head) <= 1):
            # a chunk at a time, as a worker would: the jobs, then their outcomes (the code
            # of each step then runs warm, not once after every job's own work)
            task = _Task(function)
            jobs = enumerate(itertools.chain(head, source), start)
            while chunk := list(itertools.islice(jobs, sizes())):
                replies = task(chunk)
                if isinstance(replies, _Run):
                    yield replies
                    continue
                for reply in replies:
                    yield _outcome(reply, 1, pickled=False)
            return
        source = itertools.chain(head, source)
    else:
        count = getattr(executor, "_max_workers", 0) or 0
    if window is None:
        window = WINDOW_PER_WORKER * count if count else 32
    yield from _Stream(function, executor, count, sizes, window, ordered, start).run(source)


def _checked_sizes(sizes: Callable[[], int]) -> Callable[[], int]:
    def size() -> int:
        return _positive(sizes(), "a chunk size")

    return size


def run_many(
    function: Callable[[T], R],
    items: Iterable[T],
    *,
    executor: concurrent.futures.Executor | None = None,
    workers: int | None = None,
    chunksize: int = 1,
) -> list[Outcome[R]]:
    """:func:`iter_many`, collected in job order: ``result[i]`` is item ``i``'s record.

    >>> [record.value for record in run_many(abs, [-1, -2, 3], workers=1)]
    [1, 2, 3]
    >>> [record.unwrap() for record in run_many(abs, [-1, -2, 3])]  # raises the first error
    [1, 2, 3]

    :raises InvalidOptionError: as :func:`iter_many`.
    """
    return list(iter_many(function, items, executor=executor, workers=workers,
                          chunksize=chunksize, ordered=True))  # fmt: skip


_Chunk = list[tuple[int, Any]]


class _Stream:
    """The jobs of :func:`iter_many` on ``executor``, or on lacak's own pools of
    ``workers`` processes: chunks are made from the items as room frees up."""

    def __init__(
        self,
        function: Callable[[Any], Any],
        executor: concurrent.futures.Executor | None,
        workers: int,
        sizes: Callable[[], int],
        window: int,
        ordered: bool,
        start: int,
    ) -> None:
        import concurrent.futures as cf  # here, not at module level: it is slow to import

        self.function = function
        self.executor = executor
        self.workers = workers
        self.sizes = sizes
        self.window = window
        self.ordered = ordered
        self.own = executor is None
        self.processes = self.own or isinstance(executor, cf.ProcessPoolExecutor)
        self.pickled = not isinstance(executor, cf.ThreadPoolExecutor)
        # how many times a job was started before, for jobs to be run again (their
        # worker died), until their record is made: every other job is started once
        self.started: dict[int, int] = {}
        self.ready: dict[int, Outcome[Any] | _Run] = {}  # finished, not yet given back
        self.waiting = 0  # jobs in ready
        self.next = start  # (ordered) the job whose record comes next
        self.retry: collections.deque[_Chunk] = collections.deque()  # run before new chunks
        self.futures: dict[concurrent.futures.Future[list[_Reply] | _Run], _Chunk] = {}
        self.blind = False  # a pool broke with no job noted as running: retried once as it was
        self.broken: str | None = None  # why a caller's executor can run nothing more
        self.last_size = 1

    # -- bookkeeping ------------------------------------------------------------------

    def finish(self, outcome: Outcome[Any]) -> None:
        self.started.pop(outcome.index, None)
        self.ready[outcome.index] = outcome
        self.waiting += 1

    def finish_run(self, run: _Run) -> None:
        if self.started:  # (a job of it may have been started before its worker died)
            indices = range(run.first, run.first + len(run.values))
            attempts = [self.started.pop(index, 0) + 1 for index in indices]
            if any(attempt > 1 for attempt in attempts):
                run = run._replace(attempts=attempts)
        self.ready[run.first] = run
        self.waiting += len(run.values)

    def given_back(self) -> Iterator[Outcome[Any] | _Run]:
        if self.ordered:
            while self.next in self.ready:
                given = self.ready.pop(self.next)
                jobs = len(given.values) if isinstance(given, _Run) else 1
                self.next += jobs
                self.waiting -= jobs
                yield given
        else:
            ready, self.ready = self.ready, {}
            self.waiting = 0
            yield from ready.values()

    def room(self) -> bool:
        """Whether another chunk may be sent: fewer than ``window`` in flight, and (in
        order) not too many records waiting for an earlier one. Chunks to run again
        are always sent, as the record that comes next may be among them."""
        if len(self.futures) >= self.window:
            return False
        return bool(self.retry) or not self.ordered or (
            self.waiting < WAITING_PER_WINDOW * self.window * self.last_size
        )

    def take(self, jobs: Iterator[tuple[int, Any]]) -> _Chunk:
        if self.retry:
            return self.retry.popleft()
        size = self.sizes()
        self.last_size = size
        return list(itertools.islice(jobs, size))

    # -- the run ----------------------------------------------------------------------

    def run(self, source: Iterator[Any]) -> Iterator[Outcome[Any] | _Run]:
        import concurrent.futures as cf  # (slow to import)

        jobs = enumerate(source, self.next)
        exhausted = False
        normal = False
        with contextlib.ExitStack() as stack:
            folder = None
            if self.processes:
                _sweep_markers()
                # (a caller's pool may go on with a job after this run ended early, and
                # note it in a folder being removed: what is left, _sweep_markers takes)
                folder = stack.enter_context(tempfile.TemporaryDirectory(
                    prefix=f"{_MARKERS}{os.getpid()}-", ignore_cleanup_errors=True))  # fmt: skip
            generation = 0
            pool: Any = None
            task = _Task(self.function)
            markers: str | None = None
            table: Any = None
            try:
                while True:
                    while (self.retry or not exhausted) and self.room():
                        chunk = self.take(jobs)
                        if not chunk:
                            exhausted = True
                            break
                        if self.broken is not None:
                            for index, _item in chunk:
                                self.finish(Outcome(index, error=JobError(
                                    f"job {index} did not run: {self.broken}", index=index),
                                    attempts=0))  # fmt: skip
                            continue
                        if pool is None:
                            if folder is not None:
                                markers = os.path.join(folder, str(generation))
                                os.mkdir(markers)
                                generation += 1
                            pool = self.executor or cf.ProcessPoolExecutor(
                                self.workers, initializer=_worker_started, initargs=owner())
                            task = _Task(self.function, markers, self.pickled)
                        try:
                            # threads run in the caller's context, as asyncio.to_thread
                            runs = task if self.pickled else _InContext(task)
                            future = pool.submit(runs, chunk)
                        except Exception as error:  # a caller's executor that is shut down or broken
                            if self.own and isinstance(error, cf.process.BrokenProcessPool):
                                # lacak's pool broke since the last wait (a worker died): this
                                # chunk never ran, and goes again when the pool is mended
                                self.retry.appendleft(chunk)
                                if not self.futures:  # nothing in flight to mend: a fresh pool
                                    pool.shutdown(wait=True)
                                    pool, table = None, None
                                break
                            for index, _item in chunk:
                                self.finish(Outcome(index, error=error,
                                                    attempts=self.started.get(index, 0)))  # fmt: skip
                            continue
                        if table is None:
                            table = getattr(pool, "_processes", None)  # see _exitcodes
                        self.futures[future] = chunk
                    yield from self.given_back()
                    if not self.futures:
                        if exhausted and not self.retry:
                            break
                        if not self.room():  # cannot happen: what blocks is in flight
                            raise AssertionError("lacak.batch: a job was lost")
                        continue
                    done, _ = cf.wait(self.futures, return_when=cf.FIRST_COMPLETED)
                    broken = self.collect(done)
                    if broken:
                        # a broken pool ends every job in flight: gather them all
                        rest, _ = cf.wait(self.futures)
                        broken += self.collect(rest)
                        if self.own:
                            pool.shutdown(wait=True)
                        yield from self.given_back()
                        yield from self.mend(broken, markers, table)
                        if self.own:
                            pool, table = None, None
                    yield from self.given_back()
                normal = True
            finally:
                if pool is not None and self.own:
                    if not normal:
                        _stop_workers(pool)
                    pool.shutdown(wait=True, cancel_futures=True)
                elif not normal:
                    for future in self.futures:
                        future.cancel()

    def collect(
        self, done: Iterable[concurrent.futures.Future[list[_Reply] | _Run]]
    ) -> list[_Chunk]:
        """Record what the finished futures give; return the chunks a broken pool lost."""
        import concurrent.futures as cf  # (slow to import)

        broken = []
        for future in sorted(done, key=lambda f: self.futures[f][0][0]):
            chunk = self.futures.pop(future)
            try:
                replies = future.result()
            except cf.process.BrokenProcessPool:
                broken.append(chunk)
                continue
            except Exception as error:  # the executor's own failure (Dask's KilledWorker)
                for index, _item in chunk:
                    attempts = self.started.get(index, 0) + 1
                    self.finish(Outcome(index, error=error, attempts=attempts))
                continue
            if isinstance(replies, _Run):
                self.finish_run(replies)
                continue
            started = self.started
            for reply in replies:
                self.finish(_outcome(reply, started.get(reply[0], 0) + 1, self.pickled))
        return broken

    def mend(
        self, broken: list[_Chunk], markers: str | None, table: Any
    ) -> Iterator[Outcome[Any] | _Run]:
        """After a process pool broke: which jobs were running (and are suspects), which
        were waiting; run the suspects again alone (lacak's pool) or report them."""
        running = _running(markers) if markers is not None else {}
        codes = _exitcodes(table, running)
        unfinished = [index for chunk in broken for index, _item in chunk]
        if self.own and not set(codes) & set(unfinished):
            if not self.blind:
                self.blind = True
                self.retry.extendleft(reversed(broken))
                return
            codes = dict.fromkeys(unfinished)  # cannot tell which: all are suspects
        for chunk in broken:  # the jobs up to the one running did start
            ran = [k for k, (index, _item) in enumerate(chunk) if index in codes]
            for index, _item in chunk[: ran[-1] + 1] if ran else ():
                self.started[index] = self.started.get(index, 0) + 1
        if self.own:
            waiting = [[(i, item) for i, item in chunk if i not in codes] for chunk in broken]
            self.retry.extendleft(reversed([chunk for chunk in waiting if chunk]))
            suspects = sorted(i for i in unfinished if i in codes)
            items = {index: item for chunk in broken for index, item in chunk}
            for outcome in _alone(self.function, items, suspects, self.started, codes):
                self.finish(outcome)
                yield from self.given_back()
            return
        self.broken = ("a worker of the caller's executor died, which breaks it (a process "
                       "pool whose worker died cannot run anything more)")  # fmt: skip
        for index in unfinished:  # a caller's pool is broken for good: report, do not retry
            if index in codes:
                died: JobError = WorkerDiedError(
                    f"worker died ({exit_text(codes[index])}) running job {index}; not "
                    "retried, as the executor is the caller's (a process pool whose worker "
                    "died cannot run anything more)",
                    index=index, exitcode=codes[index], attempts=self.started.get(index, 0),
                )  # fmt: skip
            else:
                died = JobError(f"job {index} did not finish: a worker of the caller's "
                                "executor died, which breaks it", index=index)  # fmt: skip
            self.finish(Outcome(index, error=died, attempts=max(1, self.started.get(index, 0))))


#: The start of the name of a batch's folder of workers' notes (then its pid and a dash).
_MARKERS = "lacak-batch-"


def _sweep_markers() -> None:
    """Remove the folders of workers' notes that batches killed before they could remove
    them left (their process is gone; a batch removes its own when it ends)."""
    folder = tempfile.gettempdir()
    try:
        names = [n for n in os.listdir(folder) if n.startswith(_MARKERS)]
    except OSError:
        return
    for name in names:
        pid = name[len(_MARKERS) :].split("-", 1)[0]
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:  # (a process of another user's is PermissionError: kept)
            shutil.rmtree(os.path.join(folder, name), ignore_errors=True)
        except (OSError, OverflowError):
            continue


def _worker_started(owner: int | None = None, tied: bool = False) -> None:
    """A worker of lacak's pool, just forked: the objects it shares with its parent are
    put out of its garbage collector's reach (:func:`gc.freeze`), so that no collection
    walks them, which costs time and writes to every page they are on, making the
    worker a copy of them (CPython's advice for forked workers); and it is made to end
    when ``owner``, the process that started it, ends
    (:func:`lacak.batch.processes.end_with_parent`).

    :param owner: the pid of the process that made the pool (:func:`lacak.batch.processes.owner`).
    :param tied: whether it forked this worker on its main thread.
    """
    gc.freeze()
    if owner is not None:
        end_with_parent(owner, tied)


def _apart(function: Callable[[Any], Any], index: int, item: Any) -> Outcome[Any]:
    """Job ``index`` (``function(item)``) run in a process of its own, started from
    this one as lacak's pool's workers are (so it sees what they see), never here: a
    job that kills its process costs only itself. What it reports to
    :mod:`lacak.progress` is shown by this process's reporter. A job whose process dies
    is run once more in a fresh one, and a second death is its
    :class:`~lacak.WorkerDiedError`, as in lacak's pool.

    Ctrl-C here ends the job's process (which ignores it: this process decides).

    :returns: the job's outcome (its value, or the error it raised, pickled across as
        a pool worker's is).
    """
    code: int | None = None
    for attempt in (1, 2):
        reply, code = _in_a_child(function, index, item)
        if reply is not None:
            return _outcome(reply, attempt, pickled=True)
    died = WorkerDiedError(f"worker died ({exit_text(code)}) twice running job {index}",
                           index=index, exitcode=code, attempts=2)  # fmt: skip
    return Outcome(index, error=died, attempts=2)


def _in_a_child(function: Callable[[Any], Any], index: int,
                item: Any) -> tuple[_Reply | None, int | None]:  # fmt: skip
    """One run of :func:`_apart`: the job's reply (``None`` when its process died) and
    the process's exit code."""
    import multiprocessing  # (slow to import: only when a worker starts)
    import multiprocessing.connection  # (slow to import: only when a worker starts)

    context = multiprocessing.get_context()  # (the start method of lacak's pools)
    reader, writer = context.Pipe(duplex=False)
    reporter = progress.current()
    child = context.Process(target=_child, name=f"lacak-job-{index}",
                            args=(function, index, item, writer, owner(),
                                  reporter is not None))  # fmt: skip
    shown: dict[int, progress.Task] = {}
    reply: _Reply | None = None
    try:
        child.start()
        writer.close()  # (the child's end: only the child holds it now)
        while reply is None:
            ready = multiprocessing.connection.wait([reader, child.sentinel])
            if reader not in ready and not reader.poll():
                break  # the child ended and sent nothing more
            try:
                message = reader.recv()
            except (EOFError, OSError):
                break
            if message[0] == "done":
                reply = message[1]
            elif reporter is not None:
                _replay(reporter, shown, message)
    finally:
        if reporter is not None:
            for task in shown.values():
                reporter.stop(task)
        if child.is_alive() and reply is None:
            child.kill()
        child.join()
        reader.close()
    return reply, child.exitcode


def _child(function: Callable[[Any], Any], index: int, item: Any, writer: Any,
           owner: tuple[int, bool], forward: bool) -> None:  # fmt: skip
    """(The process of :func:`_in_a_child`) run the job and send its reply back, with
    what it reports on the way."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to act on
    _worker_started(*owner)
    with progress.reporting(_Forwarder(writer) if forward else None):
        replies = _Task(function, None, pickled=True)([(index, item)])
    if isinstance(replies, _Run):  # (plain values, not pickled one by one)
        reply: _Reply = (index, True, pickle.dumps(replies.values[0],
                                                   protocol=pickle.HIGHEST_PROTOCOL), None)
    else:
        reply = replies[0]
    writer.send(("done", reply))
    writer.close()


def _replay(reporter: Any, shown: dict[int, Any], message: tuple[Any, ...]) -> None:
    """Show here what a job's process reported (:class:`_Forwarder`'s messages)."""
    what, *fields = message
    if what == "start":
        key, description, total = fields
        shown[key] = reporter.start(description, total)
    elif what == "stop":
        task = shown.pop(fields[0], None)
        if task is not None:
            reporter.stop(task)
    elif what == "update":
        key, completed, total, description = fields
        if key in shown:
            shown[key].update(completed=completed, total=total, description=description)
    elif what == "advance":
        key, amount = fields
        if key in shown:
            shown[key].advance(amount)
    elif what == "announce":
        reporter.announce(fields[0])


class _Forwarder:
    """A :class:`lacak.progress.Reporter` that sends what it is told to the process
    that started this one (:func:`_replay` shows it there); advances are sent at most
    ten times a second."""

    def __init__(self, writer: Any) -> None:
        self.writer = writer
        self.keys = itertools.count()

    def send(self, message: tuple[Any, ...]) -> None:
        with contextlib.suppress(OSError, ValueError):  # (the parent stopped listening)
            self.writer.send(message)

    def start(self, description: str, total: float | None) -> _ForwardedTask:
        task = _ForwardedTask(self, next(self.keys))
        self.send(("start", task.key, description, total))
        return task

    def stop(self, task: Any) -> None:
        if isinstance(task, _ForwardedTask):
            task.flush()
            self.send(("stop", task.key))

    def announce(self, message: str) -> None:
        self.send(("announce", message))


class _ForwardedTask:
    """A task of a :class:`_Forwarder`."""

    def __init__(self, forwarder: _Forwarder, key: int) -> None:
        self.forwarder = forwarder
        self.key = key
        self.pending = 0.0
        self.sent = 0.0

    def update(self, *, completed: float | None = None, total: float | None = None,
               description: str | None = None) -> None:  # fmt: skip
        self.flush()
        self.forwarder.send(("update", self.key, completed, total, description))

    def advance(self, amount: float = 1) -> None:
        self.pending += amount
        now = time.monotonic()
        if now - self.sent > 0.1:
            self.sent = now
            self.flush()

    def flush(self) -> None:
        if self.pending:
            amount, self.pending = self.pending, 0.0
            self.forwarder.send(("advance", self.key, amount))


class _InContext:
    """``task(chunk)`` in a copy of the context this was made in (one copy per chunk: a
    context cannot be entered by two threads at once)."""

    def __init__(self, task: Callable[[Any], Any]) -> None:
        self.task = task
        self.context = contextvars.copy_context()

    def __call__(self, chunk: Any) -> Any:
        return self.context.run(self.task, chunk)


def _stop_workers(pool: Any) -> None:
    """Stop the workers of lacak's own pool at once (a batch interrupted, or left early):
    their jobs' records are not wanted any more."""
    processes = list(dict(getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        with contextlib.suppress(Exception):
            process.terminate()
    for process in processes:
        with contextlib.suppress(Exception):
            process.join(5)
    # A worker stopped while it wrote a reply leaves half a message in the result
    # pipe, and the executor's manager thread then waits for the rest for ever, so
    # shutdown() never returns (seen on CPython 3.11 after Ctrl-C). With every
    # worker gone, closing the parent's own write end gives that read an EOF: the
    # manager thread sees a broken pool and ends.
    if processes and all(not process.is_alive() for process in processes):
        writer: Any = getattr(getattr(pool, "_result_queue", None), "_writer", None)
        if writer is not None:
            with contextlib.suppress(Exception):
                writer.close()


def _alone(
    function: Callable[[Any], Any],
    items: dict[int, Any],
    suspects: list[int],
    started: dict[int, int],
    first_death: dict[int, int | None],
) -> Iterator[Outcome[Any]]:
    """Each job a dead worker was running, run again alone in a one-process pool
    (replaced after a death): a second death is that job's own."""
    import concurrent.futures as cf  # (slow to import)

    task = _Task(function, None, pickled=True)
    solo: cf.ProcessPoolExecutor | None = None
    try:
        for i in suspects:
            if solo is None:
                solo = cf.ProcessPoolExecutor(1, initializer=_worker_started,
                                              initargs=owner())
            future = solo.submit(task, [(i, items[i])])
            table = getattr(solo, "_processes", None)
            started[i] = started.get(i, 0) + 1
            try:
                replies = future.result()
            except cf.process.BrokenProcessPool:
                solo.shutdown(wait=True)
                solo = None
                codes = [getattr(p, "exitcode", None) for p in dict(table or {}).values()]
                code = codes[0] if len(codes) == 1 and isinstance(codes[0], int) else None
                if code is None:
                    code = first_death.get(i)
                died = WorkerDiedError(f"worker died ({exit_text(code)}) twice running job {i}",
                                       index=i, exitcode=code, attempts=started[i])  # fmt: skip
                yield Outcome(i, error=died, attempts=started[i])
            except Exception as error:
                yield Outcome(i, error=error, attempts=started[i])
            else:
                if isinstance(replies, _Run):
                    yield Outcome(i, value=replies.values[0], attempts=started[i])
                else:
                    yield _outcome(replies[0], started[i], pickled=True)
    finally:
        if solo is not None:
            solo.shutdown(wait=True, cancel_futures=True)
