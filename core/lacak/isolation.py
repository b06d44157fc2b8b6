"""Running plugin code so that it cannot spoil lacak's output or hang it.

Two guards, used by the plugin loader and the registry around every import of
a plugin and every call of one of its hooks:

- :func:`stdout_to_stderr`: while plugin code runs, ``sys.stdout`` is
  ``sys.stderr``, so what a plugin prints (``print``, ``click.echo``,
  ``sys.stdout.write``) is shown but never mixed into lacak's output, such as
  ``--json``;
- :func:`call_with_timeout`: the call runs in a daemon thread that is waited
  for at most a given time; past it, :class:`PluginTimeout` is raised and the
  thread is left behind (Python cannot stop it), so a blocking plugin is
  reported and skipped instead of hanging lacak.
"""

from __future__ import annotations

import contextlib
import contextvars
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

__all__ = ["PluginTimeout", "call_with_timeout", "stdout_to_stderr"]

T = TypeVar("T")


class PluginTimeout(TimeoutError):
    """Plugin code did not return within the time it was given."""


_lock = threading.Lock()
_depth = 0
_saved: Any = None  # sys.stdout before the outermost redirection
_installed: Any = None  # what the outermost redirection put in its place


@contextlib.contextmanager
def stdout_to_stderr() -> Iterator[None]:
    """Send what is written to ``sys.stdout`` to ``sys.stderr`` inside the block.

    Nested and concurrent uses (several threads loading plugins) share one
    redirection: the first to enter installs it, the last to leave restores
    ``sys.stdout`` — unless someone else replaced ``sys.stdout`` meanwhile, in
    which case their stream is left alone.
    """
    global _depth, _saved, _installed
    with _lock:
        if _depth == 0:
            _saved, _installed = sys.stdout, sys.stderr
            sys.stdout = _installed
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0:
                if sys.stdout is _installed:
                    sys.stdout = _saved
                _saved = _installed = None


def call_with_timeout(function: Callable[[], T], timeout: float | None, what: str) -> T:
    """``function()``, waited for at most ``timeout`` seconds.

    The call runs in a daemon thread (with a copy of the caller's context
    variables); what it returns or raises (``SystemExit`` included) is
    returned or raised here. ``None`` calls ``function`` directly.

    :param what: what is called, for the error message (``"register_searchers"``).
    :raises PluginTimeout: it did not return in time; it goes on running in
        its thread, and what it does later must be ignored by the caller.
    """
    if timeout is None:
        return function()
    outcome: list[Any] = []
    failure: list[BaseException] = []
    context = contextvars.copy_context()

    def run() -> None:
        try:
            outcome.append(context.run(function))
        except BaseException as error:  # handed to the caller, which decides
            failure.append(error)

    thread = threading.Thread(target=run, name=f"lacak plugin: {what}", daemon=True)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        raise PluginTimeout(f"{what} did not return within {timeout:g} s")
    if failure:
        raise failure[0]
    result: T = outcome[0]
    return result
