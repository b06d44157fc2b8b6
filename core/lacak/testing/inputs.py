"""Checking that an entry point answers bad input with a LacakError and nothing else."""

from __future__ import annotations

import inspect
import traceback
from collections.abc import Callable
from typing import Any

from ..errors import LacakError, PluginError

__all__ = ["only_lacak_errors"]


def only_lacak_errors(function: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
    """Call ``function(*args, **kwargs)``; fail unless it returns or raises a LacakError.

    lacak's rule for library calls (docs/api.md, "Bad input"): an argument of the
    wrong type or value, or an option the component does not take, is a
    :class:`~lacak.LacakError` with a clear message. Not accepted either: a
    :class:`~lacak.PluginError` that the facade's last guard made of a plugin's
    ``TypeError``, ``ValueError``, ... (it has that error as its cause), since the
    plugin should have refused the input itself. The one exception is Python's own
    check of the call: arguments that do not fit the signature (a missing argument,
    an unknown keyword of a function without ``**options``) are a :class:`TypeError`
    before any code runs, accepted here exactly when :meth:`inspect.Signature.bind`
    refuses the arguments too.

    >>> import lacak
    >>> only_lacak_errors(lacak.as_flag, "yes", "option 'x'")
    True
    >>> only_lacak_errors(lacak.as_flag, 42, "option 'x'")  # InvalidOptionError: fine
    >>> only_lacak_errors(int, "seven")
    Traceback (most recent call last):
    ...
    AssertionError: int('seven') raised ValueError, not a LacakError: ...

    :returns: what ``function`` returned, or ``None`` when it raised a LacakError
        (or Python refused the call).
    :raises AssertionError: any other exception escaped; the message shows the call,
        the error and where it was raised.
    """
    try:
        return function(*args, **kwargs)
    except LacakError as error:
        cause = error.__cause__
        if (
            isinstance(error, PluginError)
            and isinstance(cause, Exception)
            and not isinstance(cause, LacakError)
        ):
            _fail(function, args, kwargs, cause, guarded=True)
        return None
    except TypeError as error:
        if _binds(function, args, kwargs):
            _fail(function, args, kwargs, error)
        return None
    except Exception as error:
        _fail(function, args, kwargs, error)
        raise  # not reached: _fail raises


def _binds(function: Callable[..., Any], args: Any, kwargs: Any) -> bool:
    """Whether the arguments fit ``function``'s signature (``True`` when it has none)."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):  # some builtins have no signature to read
        return True
    try:
        signature.bind(*args, **kwargs)
    except TypeError:
        return False
    return True


def _fail(
    function: Callable[..., Any],
    args: Any,
    kwargs: Any,
    error: BaseException,
    guarded: bool = False,
) -> None:
    shown = ", ".join(
        [*(repr(a)[:200] for a in args), *(f"{k}={v!r}"[:200] for k, v in kwargs.items())]
    )
    name = getattr(function, "__qualname__", repr(function))
    where = "".join(traceback.format_exception(error)[-3:])
    how = " in a plugin (lacak's last guard made it a PluginError)" if guarded else ""
    raise AssertionError(
        f"{name}({shown}) raised {type(error).__name__}{how}, not a LacakError: {error}\n{where}"
    ) from error
