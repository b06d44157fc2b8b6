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
    └── CacheError (OSError)

The command line turns any of them into one line on stderr and exit status 2.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator
from difflib import get_close_matches

__all__ = [
    "CacheError",
    "DictionaryError",
    "DuplicateComponentError",
    "InvalidInputError",
    "InvalidOptionError",
    "InvalidPuzzleError",
    "LacakError",
    "LimitReachedError",
    "OutOfMemoryError",
    "PluginError",
    "UnknownComponentError",
    "UnsolvableError",
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


class OutOfMemoryError(LacakError, MemoryError):
    """Something lacak was asked to build does not fit in memory.

    The message says what was too big and what to try instead. It is also a
    :class:`MemoryError`, so ``except MemoryError`` still catches it.
    """


class CacheError(LacakError, OSError):
    """A cache folder lacak cannot use where it needs one (``lacak sliding pdb build``).

    The message names the folder and what to do (set ``LACAK_CACHE_DIR`` to a
    writable folder, free some space). It is also an :class:`OSError`. Where
    lacak can carry on without a cache, it warns instead (see :mod:`lacak.cache`).
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
    :param available: every name that does exist.
    """

    def __init__(self, what: str, name: str, available: Iterable[str]) -> None:
        self.what = what
        self.name = name
        self.available = sorted(available)
        self.suggestions = (
            get_close_matches(name, self.available, n=3, cutoff=0.5)
            if isinstance(name, str)
            else []
        )
        super().__init__(what, name)

    def __str__(self) -> str:  # KeyError would repr() the args; we want prose
        """``unknown strategy 'bsf'; did you mean 'bfs'? Available: bfs, dfs.``

        >>> print(UnknownComponentError("strategy", "zzz", ["bfs", "dfs"]))
        unknown strategy 'zzz'. Available: bfs, dfs.
        >>> print(UnknownComponentError("strategy", "bsf", ["bfs", "dfs"]))
        unknown strategy 'bsf'; did you mean 'bfs'? Available: bfs, dfs.
        """
        message = f"unknown {self.what} {self.name!r}"
        if self.suggestions:
            message += "; did you mean " + " or ".join(repr(s) for s in self.suggestions) + "?"
        else:
            message += "."
        if self.available:
            message += " Available: " + ", ".join(self.available) + "."
        else:
            message += f" No {self.what} is registered."
        return message
