"""Running many generate or solve jobs through any ``concurrent.futures.Executor``.

By default jobs run in a local process pool. For more than one machine, pass
a Dask executor::

    from distributed import Client
    client = Client("scheduler:8786")
    lacak.batch.generate_many("maze", "wilson", (100, 100), count=10_000, seed=1,
                              executor=client.get_executor())

Job seeds are derived from the batch seed with :class:`numpy.random.SeedSequence`,
so job ``i`` gets the same seed (and the same instance) whatever executor runs it.

A batch gives back one :class:`Outcome` per job, in job order
(:func:`run_many`) or as the jobs finish (:func:`iter_many`): the job's value,
or the error it ended with. One job's failure never costs another its result:

- an exception in a job is caught where the job runs and comes back as data:
  the exception itself when it pickles (every :class:`~lacak.LacakError`
  does), else a :class:`~lacak.JobError` naming its type and message; the
  traceback text comes with it (:attr:`Outcome.traceback`);
- a worker process that dies (a signal, ``os._exit``, a crash) breaks a
  process pool. When lacak owns the pool, the jobs the dead pool's workers
  were running are run again after the others, each alone in a fresh
  one-process pool (so a second death is that job's own), and reported as a
  :class:`~lacak.WorkerDiedError` if it dies again; jobs that were waiting
  go on in a fresh pool. A caller's executor is never replaced: when it
  breaks, its unfinished jobs are reported, not retried.

Worker processes note the job they are running in a small file (one per
worker, in a temporary folder), which is how lacak tells the job a dead
worker was running from those it had not started. They end when the process
that started them ends, whatever ends it: on Linux the kernel kills them
(``PR_SET_PDEATHSIG``, asked for by each worker as it starts); elsewhere a
thread in each worker looks twice a second whether its parent is still there
(:mod:`lacak.processes`).

The shape is modelled on :func:`concurrent.futures.as_completed` (records as
jobs finish) and :meth:`~concurrent.futures.Executor.map` (in order), with
per-job results as in Rust's ``Result`` (:meth:`Outcome.unwrap`) rather than
``asyncio.gather(return_exceptions=True)``'s mixed list; the retry of a dead
worker's jobs follows pytest-xdist (a crashed worker is replaced and its test
reported) and Dask's ``allowed_failures`` (a task whose workers keep dying is
given up as ``KilledWorker``).
"""

from __future__ import annotations

import collections
import contextlib
import contextvars
import functools
import itertools
import mmap
import operator
import os
import pickle
import reprlib
import tempfile
import traceback
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, TypeVar

import attrs

from .errors import InvalidOptionError, JobError, WorkerDiedError, exit_text
from .limits import Limits
from .processes import end_with_parent, owner
from .results import SearchResult

if TYPE_CHECKING:
    import concurrent.futures

__all__ = [
    "Outcome",
    "derive_seeds",
    "generate_many",
    "iter_many",
    "job_seed",
    "run_many",
    "solve_many",
]

T = TypeVar("T")
R = TypeVar("R")


def _whole(value: Any, what: str) -> int:
    """``value`` as a non-negative ``int`` (numpy integers too, never a bool)."""
    if isinstance(value, bool):
        raise InvalidOptionError(f"{what} must be a non-negative integer, got {value!r}")
    try:
        number = operator.index(value)
    except TypeError:
        raise InvalidOptionError(
            f"{what} must be a non-negative integer, got {reprlib.repr(value)}"
        ) from None
    if number < 0:
        raise InvalidOptionError(f"{what} must be a non-negative integer, got {number}")
    return number


def derive_seeds(seed: int, count: int) -> list[int]:
    """``count`` independent 63-bit seeds derived from ``seed``, stable everywhere:
    ``derive_seeds(seed, count)[i] == job_seed(seed, i)``, whatever ``count``.

    >>> derive_seeds(42, 2) == derive_seeds(42, 2) and len(set(derive_seeds(42, 2))) == 2
    True
    >>> derive_seeds(42, 3)[:2] == derive_seeds(42, 2)
    True

    :param seed: the batch seed, a non-negative integer (any size).
    :param count: how many seeds.
    :raises InvalidOptionError: ``seed`` or ``count`` is not a non-negative integer
        (``None`` included: a batch always has a seed, so it can be run again).
    """
    mixer = _mixer(_whole(seed, "the batch seed"))
    return [mixer.child(index) for index in range(_whole(count, "the number of seeds"))]


def job_seed(seed: int, index: int) -> int:
    """The seed of job ``index`` of a batch seeded ``seed``, found without making the ones
    before it (a batch of any length, or resumed): the first 63 bits of the state of
    :class:`numpy.random.SeedSequence` ``(seed, spawn_key=(index,))``, the ``index``-th
    child of ``SeedSequence(seed)``.

    >>> job_seed(42, 1) == derive_seeds(42, 2)[1]
    True
    >>> import numpy as np
    >>> child = np.random.SeedSequence(42).spawn(2)[1]
    >>> job_seed(42, 1) == int(child.generate_state(2, np.uint32).view(np.uint64)[0] >> 1)
    True

    :raises InvalidOptionError: ``seed`` or ``index`` is not a non-negative integer.
    """
    return _mixer(_whole(seed, "the batch seed")).child(_whole(index, "a job's index"))


# SeedSequence's hash (numpy/random/bit_generator.pyx, after M. E. O'Neill's seed_seq),
# in Python: the pool mixed from the batch seed is the same for every job, so it is
# made once and only the job's index is mixed in per job (4 us, not 15 us a job).
_M32 = 0xFFFFFFFF
_INIT_A, _MULT_A = 0x43B0D7E5, 0x931E8875
_INIT_B, _MULT_B = 0x8B51F9DD, 0x58F38DED
_MIX_L, _MIX_R = 0xCA01F9DD, 0x4973F715


def _words(number: int) -> list[int]:
    """``number`` as 32-bit words, least significant first (``[0]`` for 0)."""
    out = []
    while True:
        out.append(number & _M32)
        number >>= 32
        if not number:
            return out


def _hashmix(value: int, const: int) -> tuple[int, int]:
    value ^= const
    const = (const * _MULT_A) & _M32
    value = (value * const) & _M32
    return value ^ (value >> 16), const


def _mix(x: int, y: int) -> int:
    mixed = (_MIX_L * x - _MIX_R * y) & _M32
    return mixed ^ (mixed >> 16)


class _Mixer:
    """The SeedSequence pool of a batch seed, before a spawn key is mixed in."""

    def __init__(self, seed: int) -> None:
        run = _words(seed)
        run += [0] * (4 - len(run))  # padded, as a SeedSequence with a spawn key pads it
        const = _INIT_A
        pool = []
        for word in run[:4]:
            value, const = _hashmix(word, const)
            pool.append(value)
        for src in range(4):
            for dst in range(4):
                if src != dst:
                    value, const = _hashmix(pool[src], const)
                    pool[dst] = _mix(pool[dst], value)
        for word in run[4:]:
            pool, const = self._add(pool, const, word)
        self.pool, self.const = pool, const

    @staticmethod
    def _add(pool: list[int], const: int, word: int) -> tuple[list[int], int]:
        pool = list(pool)
        for dst in range(4):
            value, const = _hashmix(word, const)
            pool[dst] = _mix(pool[dst], value)
        return pool, const

    def child(self, index: int) -> int:
        # _add for each 32-bit word of the index, written out: only the first two
        # words of the pool are read at the end (the other two never flow into them),
        # but the constant goes through all four hashes of every word
        p0, p1 = self.pool[0], self.pool[1]
        const = self.const
        while True:
            word = index & _M32
            value = word ^ const
            const = (const * _MULT_A) & _M32
            value = (value * const) & _M32
            mixed = (_MIX_L * p0 - _MIX_R * (value ^ (value >> 16))) & _M32
            p0 = mixed ^ (mixed >> 16)
            value = word ^ const
            const = (const * _MULT_A) & _M32
            value = (value * const) & _M32
            mixed = (_MIX_L * p1 - _MIX_R * (value ^ (value >> 16))) & _M32
            p1 = mixed ^ (mixed >> 16)
            const = (const * _MULT_A * _MULT_A) & _M32  # the hashes for the pool's words 2, 3
            index >>= 32
            if not index:
                break
        # generate_state(2, uint32), read as one little-endian uint64
        const = _INIT_B
        value = p0 ^ const
        const = (const * _MULT_B) & _M32
        value = (value * const) & _M32
        low = value ^ (value >> 16)
        value = p1 ^ const
        const = (const * _MULT_B) & _M32
        value = (value * const) & _M32
        return ((value ^ (value >> 16)) << 31) | (low >> 1)

    def children(self, first: int, count: int) -> list[int]:
        """``[child(i) for i in range(first, first + count)]``, with numpy (about 40 times
        faster a seed) for indices below 2**32; :meth:`child` for the rest."""
        import numpy as np

        if first + count > 2**32 or count < 16:
            return [self.child(index) for index in range(first, first + count)]
        m32 = np.uint64(_M32)
        word = np.arange(first, first + count, dtype=np.uint64)
        const = self.const
        value = (word ^ np.uint64(const)) * np.uint64((const * _MULT_A) & _M32) & m32
        const = (const * _MULT_A) & _M32
        mixed = (np.uint64(_MIX_L * self.pool[0]) - np.uint64(_MIX_R) * (value ^ (value >> 16)))
        p0 = (mixed & m32) ^ ((mixed & m32) >> 16)
        value = (word ^ np.uint64(const)) * np.uint64((const * _MULT_A) & _M32) & m32
        mixed = (np.uint64(_MIX_L * self.pool[1]) - np.uint64(_MIX_R) * (value ^ (value >> 16)))
        p1 = (mixed & m32) ^ ((mixed & m32) >> 16)
        const = _INIT_B
        value = (p0 ^ np.uint64(const)) * np.uint64((const * _MULT_B) & _M32) & m32
        low = value ^ (value >> 16)
        const = (const * _MULT_B) & _M32
        value = (p1 ^ np.uint64(const)) * np.uint64((const * _MULT_B) & _M32) & m32
        seeds: list[int] = (((value ^ (value >> 16)) << 31) | (low >> 1)).tolist()
        return seeds


@functools.lru_cache(maxsize=16)
def _mixer(seed: int) -> _Mixer:
    return _Mixer(seed)


@attrs.frozen
class Outcome(Generic[R]):
    """What became of one job of a batch: its value, or the error it ended with.

    >>> record = run_many(abs, [-3])[0]
    >>> record.ok, record.value, record.unwrap()
    (True, 3, 3)
    """

    #: the job's position in the batch (0-based).
    index: int
    #: what the job returned (``None`` when it failed).
    value: R | None = None
    #: the exception the job ended with (``None`` when it succeeded): its own
    #: exception, or a :class:`~lacak.JobError` / :class:`~lacak.WorkerDiedError`.
    error: BaseException | None = None
    #: how many times the job was started (2 when it was run again after its worker died).
    attempts: int = 1
    #: the error's traceback as text, formatted where the job ran.
    traceback: str | None = attrs.field(default=None, repr=False, eq=False)

    @property
    def ok(self) -> bool:
        """Whether the job succeeded."""
        return self.error is None

    def unwrap(self) -> R:
        """The job's value.

        :raises BaseException: the job's error, when it failed (a worker's
            traceback is its ``__cause__``).
        """
        if self.error is not None:
            raise self.error
        return self.value  # type: ignore[return-value]


class _RemoteTraceback(Exception):
    """The traceback of a job's error, as formatted in the worker that raised it
    (the ``__cause__`` of an error from a worker, as in :mod:`concurrent.futures`)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


# A job's reply: (index, succeeded, value or error, traceback text). The value or
# the error is pickled in the worker when it crosses a process boundary, so a
# bad one is one job's error and never the pool's.
_Reply = tuple[int, bool, Any, "str | None"]


def _describe(error: BaseException) -> str:
    """``module.Type: message``, whatever ``str(error)`` does."""
    name = _qualname(error)
    try:
        message = str(error)
    except Exception:  # a broken __str__
        message = "<the message cannot be shown>"
    return f"{name}: {message}" if message else name


def _qualname(value: object) -> str:
    kind = type(value)
    module = kind.__module__
    return kind.__qualname__ if module == "builtins" else f"{module}.{kind.__qualname__}"


def _failure(index: int, error: BaseException, pickled: bool) -> _Reply:
    """The reply for a job that raised ``error``: the error itself when it pickles
    and unpickles as the same, else a :class:`JobError` summary."""
    text = "".join(traceback.format_exception(error))
    if not pickled:
        return (index, False, error, text)
    try:
        data = pickle.dumps(error, protocol=pickle.HIGHEST_PROTOCOL)
        again = pickle.loads(data)
        if type(again) is type(error) and str(again) == str(error):
            return (index, False, data, text)
    except Exception:  # it cannot be pickled, or unpickled: send what it said
        pass
    summary = JobError(f"job {index} raised {_describe(error)}", index=index,
                       type_name=_qualname(error))  # fmt: skip
    return (index, False, pickle.dumps(summary, protocol=pickle.HIGHEST_PROTOCOL), text)


class _Run(NamedTuple):
    """The jobs of a chunk that all succeeded, with values that are plain data: what a
    worker sends back for them (one list, pickled once) and how :func:`_iter_many`
    gives them back (one object, not an :class:`Outcome` a job)."""

    #: the index of the first job (the others follow it, one apart).
    first: int
    #: the jobs' values, in job order.
    values: list[Any]
    #: how many times each job was started, when one was started before (its worker
    #: died); ``None`` when every job ran once.
    attempts: list[int] | None = None


@attrs.frozen
class _Task:
    """Runs a chunk of ``(index, item)`` jobs where the executor puts it.

    A process worker first notes the job it starts in the file named after its
    pid in ``markers`` (fixed-width, overwritten in place through a shared memory
    map: no system call a job), so that after a worker dies lacak knows which job
    it was running.

    Every job of the chunk runs, then each value is finished in a second pass:
    given to ``function.finish(value)`` when ``function`` has that method (its
    result is the job's, an exception it raises the job's error), and pickled
    when it crosses a process boundary. The work of making records is then done
    in one pass over the chunk, whose code stays warm in the caches, rather than
    once after each job's own work (which leaves it cold: 2-5x slower).

    A ``function`` whose ``plain_values`` attribute is true promises values (after
    ``finish``) of built-in data only, which pickle and unpickle anywhere: when
    every job of a chunk of consecutive jobs succeeds, their values come back as
    one :class:`_Run`, pickled once with the reply rather than one by one.
    """

    function: Callable[[Any], Any]
    markers: str | None = None
    pickled: bool = False

    def __call__(self, chunk: Sequence[tuple[int, Any]]) -> list[_Reply] | _Run:
        note: str | None = None
        board: mmap.mmap | None = None
        if self.markers is not None:
            note = os.path.join(self.markers, str(os.getpid()))
            try:
                fd = os.open(note, os.O_RDWR | os.O_CREAT, 0o600)
                try:
                    os.ftruncate(fd, _NOTE)
                    board = mmap.mmap(fd, _NOTE)
                finally:
                    os.close(fd)
            except (OSError, ValueError):  # no note (a full disk, say): found the slow way
                board = None
        function = self.function
        try:
            # the first half: the jobs, back to back (the code between two jobs is
            # what runs cold after each job's work, so it is kept short)
            replies: list[_Reply] = []
            append = replies.append
            for index, item in chunk:
                if board is not None:
                    _mark(board, index)
                try:
                    append((index, True, function(item), None))
                except Exception as error:
                    append(_failure(index, error, self.pickled))
            plain = getattr(function, "plain_values", False) is True
            finish = getattr(function, "finish", None)
            if finish is not None or (self.pickled and not plain):
                for k, reply in enumerate(replies):
                    if reply[1]:
                        if board is not None:
                            _mark(board, reply[0])
                        replies[k] = self.finished(reply, finish, plain)
        finally:
            if board is not None:
                board.close()
            if note is not None:  # (made even when mapping it failed)
                with contextlib.suppress(OSError):
                    os.unlink(note)
        if plain and replies:
            first = replies[0][0]
            if replies[-1][0] - first == len(replies) - 1 and all(r[1] for r in replies):
                return _Run(first, [reply[2] for reply in replies])
            if self.pickled:  # (a chunk with a failure: each value on its own)
                return [self.finished(r, None, False) if r[1] else r for r in replies]
        return replies

    def finished(
        self, reply: _Reply, finish: Callable[[Any], Any] | None, plain: bool
    ) -> _Reply:
        """A job's reply, its value finished, and pickled as it should be (a plain value
        is pickled later, when its chunk does not come back as a :class:`_Run`)."""
        index, _ok, value, _text = reply
        if finish is not None:
            try:
                value = finish(value)
            except Exception as error:
                return _failure(index, error, self.pickled)
        if not self.pickled or plain:
            return (index, True, value, None)
        try:
            return (index, True, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL), None)
        except Exception as error:
            summary = JobError(
                f"the result of job {index} ({_qualname(value)}) cannot be pickled: "
                f"{_describe(error)}",
                index=index,
                type_name=_qualname(error),
            )
            summary.__cause__ = error
            return _failure(index, summary, True)


def _mark(board: mmap.mmap, index: int) -> None:
    text = b"%20d" % index
    if len(text) == _NOTE:  # (an index past 20 digits goes unnoted)
        board[:] = text


def _outcome(reply: _Reply, attempts: int, pickled: bool) -> Outcome[Any]:
    index, ok, payload, text = reply
    if pickled:
        try:
            payload = pickle.loads(payload)
        except Exception as error:
            what = "result" if ok else "error"
            lost = JobError(f"the {what} of job {index} cannot be unpickled here: "
                            f"{_describe(error)}", index=index)  # fmt: skip
            return Outcome(index, error=lost, attempts=attempts, traceback=text)
        if not ok and text and payload.__cause__ is None:
            payload.__cause__ = _RemoteTraceback(text)
    if ok:
        return Outcome(index, value=payload, attempts=attempts)
    return Outcome(index, error=payload, attempts=attempts, traceback=text)


#: Bytes of a worker's note: the job it runs, right-aligned (zero bytes before its first).
_NOTE = 20


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
    :class:`lacak.cluster.DaskExecutor`, which keeps a result Dask made again after
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
        from .cluster import reliable

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
        import concurrent.futures as cf

        jobs = enumerate(source, self.next)
        exhausted = False
        normal = False
        with contextlib.ExitStack() as stack:
            folder = None
            if self.processes:
                _sweep_markers()
                folder = stack.enter_context(tempfile.TemporaryDirectory(
                    prefix=f"{_MARKERS}{os.getpid()}-"))  # fmt: skip
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
        import concurrent.futures as cf

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
    import shutil

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
    (:func:`lacak.processes.end_with_parent`).

    :param owner: the pid of the process that made the pool (:func:`lacak.processes.owner`).
    :param tied: whether it forked this worker on its main thread.
    """
    import gc

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
    import multiprocessing
    import multiprocessing.connection

    from . import progress

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
    import signal

    from . import progress

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
        import time

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
    import concurrent.futures as cf

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


@attrs.frozen
class _Generate:
    kind: str
    algorithm: str
    size: Any
    options: dict[str, Any]

    def __call__(self, seed: int) -> Any:
        from .api import generate

        return generate(self.kind, self.algorithm, self.size, seed=seed, **self.options)


@attrs.frozen
class _Solve:
    strategy: str | None
    heuristic: str | None
    limits: Limits | None
    options: dict[str, Any]

    def __call__(self, puzzle: Any) -> SearchResult:
        from .api import solve

        return solve(
            puzzle, self.strategy, heuristic=self.heuristic, limits=self.limits, **self.options
        )


def generate_many(
    kind: str,
    algorithm: str,
    size: Any,
    *,
    count: int,
    seed: int,
    executor: concurrent.futures.Executor | None = None,
    workers: int | None = None,
    **options: Any,
) -> list[Outcome[Any]]:
    """Generate ``count`` instances; instance ``i`` uses ``derive_seeds(seed, count)[i]``.

    ``seed`` is required (there is no "random" batch): the same seed gives the
    same instances on every machine and executor, so a batch can always be
    made again.

    :param executor: as for :func:`iter_many`.
    :param workers: as for :func:`iter_many`.
    :returns: one :class:`Outcome` per instance, in order: ``outcome.value`` is
        the instance, or ``outcome.error`` says why it could not be made.
    :raises InvalidOptionError: ``seed`` or ``count`` is not a non-negative
        integer (``seed=None`` included).
    """
    return run_many(_Generate(kind, algorithm, size, options), derive_seeds(seed, count),
                    executor=executor, workers=workers)  # fmt: skip


def solve_many(
    puzzles: Sequence[Any],
    strategy: str | None = None,
    *,
    heuristic: str | None = None,
    limits: Limits | None = None,
    executor: concurrent.futures.Executor | None = None,
    workers: int | None = None,
    **options: Any,
) -> list[Outcome[SearchResult]]:
    """Solve every puzzle (picklable) with the named strategy and heuristic.

    :param executor: as for :func:`iter_many`.
    :param workers: as for :func:`iter_many`.
    :returns: one :class:`Outcome` per puzzle, in order: ``outcome.value`` is
        its :class:`~lacak.SearchResult`, or ``outcome.error`` says why it has
        none (an unknown strategy is every job's
        :class:`~lacak.UnknownComponentError`).
    """
    return run_many(_Solve(strategy, heuristic, limits, options), puzzles, executor=executor,
                    workers=workers)  # fmt: skip
