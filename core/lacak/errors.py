"""The lacak exception hierarchy.

Every error lacak raises on purpose derives from :class:`LacakError`. Each
subclass also inherits the builtin exception it refines, so callers that
already catch ``ValueError`` or ``KeyError`` keep working::

    LacakError
    ├── InvalidInputError (ValueError)
    │   ├── InvalidPuzzleError
    │   └── InvalidOptionError
    ├── UnsolvableError (ValueError)
    ├── UnknownComponentError (KeyError)
    ├── DuplicateComponentError (ValueError)
    ├── DictionaryError (ValueError)
    ├── PluginError (RuntimeError)
    ├── LimitReachedError (RuntimeError)
    ├── OutOfMemoryError (MemoryError)
    ├── CacheError (OSError)
    └── JobError (RuntimeError)
        └── WorkerDiedError

Every one of them pickles and unpickles with its message and its fields, so a
batch job's error comes back from a worker process as itself.

The command line turns any of them into one line on stderr and exit status 2.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterable, Iterator
from difflib import get_close_matches
from typing import Any

__all__ = [
    "CacheError",
    "DictionaryError",
    "DuplicateComponentError",
    "InvalidInputError",
    "InvalidOptionError",
    "InvalidPuzzleError",
    "JobError",
    "LacakError",
    "LimitReachedError",
    "OutOfMemoryError",
    "PluginError",
    "UnknownComponentError",
    "UnsolvableError",
    "WorkerDiedError",
    "memory_guard",
]


class LacakError(Exception):
    """Root of every error lacak raises on purpose."""


class InvalidInputError(LacakError, ValueError):
    """Input that cannot be parsed or does not make sense."""


class InvalidPuzzleError(InvalidInputError):
    """A puzzle, board or maze description that is malformed."""


class InvalidOptionError(InvalidInputError):
    """An option (size, weight, limit, parameter string) with a bad value."""


class UnsolvableError(LacakError, ValueError):
    """The instance has no solution at all (not merely none within the limits)."""


class DuplicateComponentError(LacakError, ValueError):
    """Two plugins registered a component under the same name."""


class DictionaryError(LacakError, ValueError):
    """A word list that cannot be read or is malformed.

    Errors about a file carry where it happened (also in the message).
    """

    #: The file (or other origin) that is malformed, when known.
    path: str | None = None
    #: 1-based line of the problem in the file, when known.
    line: int | None = None
    #: 1-based column of the problem in the file, when known.
    column: int | None = None


class PluginError(LacakError, RuntimeError):
    """A plugin failed to import, validate or register."""


class LimitReachedError(LacakError, RuntimeError):
    """A search stopped at one of its :class:`~lacak.Limits` before an answer."""


class OutOfMemoryError(MemoryError, LacakError):
    """Something lacak was asked to build does not fit in memory.

    The message says what was too big and what to try instead. It is also a
    :class:`MemoryError`, so ``except MemoryError`` still catches it.
    (``MemoryError`` comes first among its bases because it has its own
    ``__new__``: picklers that make an exception with ``cls.__new__(cls)``,
    as ``tblib``'s does once Dask has installed it, then get a safe one.)
    """


class CacheError(LacakError, OSError):
    """A cache folder lacak cannot use where it needs one (``lacak sliding pdb build``).

    The message names the folder and what to do (set ``LACAK_CACHE_DIR`` to a
    writable folder, free some space). It is also an :class:`OSError`. Where
    lacak can carry on without a cache, it warns instead (see :mod:`lacak.store.cache`).
    """


@contextlib.contextmanager
def memory_guard(what: str, hint: str = "") -> Iterator[None]:
    """Turn a :class:`MemoryError` inside the block into an :class:`OutOfMemoryError`.

    >>> with memory_guard("the frontier of a 1000x1000 board"):
    ...     pass

    :param what: what was being built, as a noun phrase ("the pattern database of tiles 1-8").
    :param hint: what the user can do instead, appended after a semicolon.
    """
    try:
        yield
    except OutOfMemoryError:
        raise
    except MemoryError:
        message = f"not enough memory for {what}"
        if hint:
            message += f"; {hint}"
        raise OutOfMemoryError(message) from None


class UnknownComponentError(LacakError, KeyError):
    """No component of that kind is registered under that name.

    It is also a :class:`KeyError`, so ``except KeyError`` catches it. The
    message names what was asked for, the close matches, and what exists.

    :param what: the kind of component, e.g. ``"strategy"`` or ``"heuristic for sliding"``.
    :param name: the name that was asked for.
    :param available: every name that does exist (or, with ``where``, that applies there).
    :param where: where the name was looked for, after the name
        (``"for sliding puzzles"``).
    """

    def __init__(self, what: str, name: str, available: Iterable[str], where: str = "") -> None:
        self.what = what
        self.name = name
        self.where = where
        self.available = sorted(available)
        self.suggestions = (
            get_close_matches(name, self.available, n=3, cutoff=0.5)
            if isinstance(name, str)
            else []
        )
        super().__init__(what, name)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as the arguments of its constructor (``BaseException`` would pickle
        ``args``, which the constructor does not take), plus any attribute set later."""
        return (type(self), (self.what, self.name, self.available, self.where), self.__dict__)

    def __str__(self) -> str:  # KeyError would repr() the args; we want prose
        """``unknown strategy 'bsf'; did you mean 'bfs'? Available: bfs, dfs.``

        >>> print(UnknownComponentError("strategy", "zzz", ["bfs", "dfs"]))
        unknown strategy 'zzz'. Available: bfs, dfs.
        >>> print(UnknownComponentError("strategy", "bsf", ["bfs", "dfs"]))
        unknown strategy 'bsf'; did you mean 'bfs'? Available: bfs, dfs.
        >>> print(UnknownComponentError("strategy", "zzz", ["bfs"], "for maze puzzles"))
        unknown strategy 'zzz' for maze puzzles. Available: bfs.
        """
        message = f"unknown {self.what} {self.name!r}" + (f" {self.where}" if self.where else "")
        if self.suggestions:
            message += "; did you mean " + " or ".join(repr(s) for s in self.suggestions) + "?"
        else:
            message += "."
        if self.available:
            message += " Available: " + ", ".join(self.available) + "."
        else:
            message += f" No {self.what} is registered{' ' + self.where if self.where else ''}."
        return message


class JobError(LacakError, RuntimeError):
    """A job of a batch (:mod:`lacak.batch`) failed, and its own exception cannot say so.

    The job raised an exception that cannot be pickled (``type_name`` names it
    and the message carries its text), its result could not be pickled, or it
    never ran because the executor it was sent to broke. A job that raises a
    picklable exception (every :class:`LacakError`, and most others) is
    reported with that exception itself.

    :param message: what happened, naming the job.
    :param index: the job's position in its batch.
    :param type_name: the qualified type name of the exception this summarises, if any.
    """

    def __init__(
        self, message: str, *, index: int | None = None, type_name: str | None = None
    ) -> None:
        super().__init__(message)
        #: the job's position in its batch, when known.
        self.index = index
        #: the type of the exception this error stands for, e.g. ``"mymodule.BadThing"``.
        self.type_name = type_name


class WorkerDiedError(JobError):
    """The process running a batch job died (killed by a signal, ``os._exit``, a crash).

    When lacak owns the process pool the job has been run a second time, alone
    in a fresh pool, and died again; with a caller's executor it is not retried.

    :param exitcode: the worker's exit code, negative for the signal that
        killed it (``-9`` for ``SIGKILL``), ``None`` when it could not be learnt.
    :param attempts: how many times the job was started.
    """

    def __init__(
        self,
        message: str,
        *,
        index: int | None = None,
        exitcode: int | None = None,
        attempts: int = 1,
    ) -> None:
        super().__init__(message, index=index)
        #: the worker's exit code (negative: killed by that signal), or ``None``.
        self.exitcode = exitcode
        #: how many times the job was started before it was given up.
        self.attempts = attempts

    @property
    def how(self) -> str:
        """How the worker ended: ``"signal 9, SIGKILL"``, ``"exit code 1"`` or
        ``"exit status unknown"``.

        >>> WorkerDiedError("died", exitcode=-9).how
        'signal 9, SIGKILL'
        """
        return exit_text(self.exitcode)


def exit_text(exitcode: int | None) -> str:
    """A process's exit code in words (negative: the signal that killed it)."""
    if exitcode is None:
        return "exit status unknown"
    if exitcode < 0:
        try:
            return f"signal {-exitcode}, {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"signal {-exitcode}"
    return f"exit code {exitcode}"
