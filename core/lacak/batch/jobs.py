"""One job of a batch and what it gives back: an :class:`Outcome` (its value, or the error
it ended with, as data), and a task that runs jobs in a worker and notes which one runs.
"""

from __future__ import annotations

import contextlib
import mmap
import os
import pickle
import traceback
from collections.abc import Callable, Sequence
from typing import Any, Generic, NamedTuple, TypeVar

import attrs

from ..errors import JobError

#: Bytes of a worker's note: the job it runs, right-aligned (zero bytes before its first).
_NOTE = 20

T = TypeVar("T")
R = TypeVar("R")


@attrs.frozen
class Outcome(Generic[R]):
    """What became of one job of a batch: its value, or the error it ended with.

    >>> from lacak.batch import run_many
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
