"""What reaches lacak's standard output: lacak's own answers, and nothing else.

A search, and every call into a plugin's code, may print; none of it must mix into
the answer lacak writes (JSON read by a program, a picture):

- :func:`quiet`: code that runs while lacak works (every search, every plugin
  call) writes nothing to lacak's standard output: under
  :func:`stdout_for_lacak`, what it writes to ``sys.stdout`` goes to stderr;
- :func:`stdout_for_lacak`: what the command line wraps every command in. File
  descriptor 1 points at stderr (so C code and ``os.write(1, ...)`` cannot reach
  the real standard output either), and ``sys.stdout`` writes lacak's own output
  to a duplicate of the real standard output (whose ``isatty()`` still decides
  colours and pictures) unless :func:`quiet` code writes;
- :func:`stdout_to_stderr`: while a plugin is imported or one of its hooks runs
  (:mod:`lacak.plugin.loader`), ``sys.stdout`` is ``sys.stderr``, so what it prints
  is shown but never mixed into lacak's output.

The kernel's :meth:`lacak.Searcher.__call__` runs every search :func:`quiet`; the plugin
host's guarded calls (:mod:`lacak.plugin.isolation`) mark their code the same way.
"""

from __future__ import annotations

import contextlib
import contextvars
import io
import os
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["QUIET", "quiet", "stdout_for_lacak", "stdout_to_stderr"]


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
    which case their stream is left alone. The block is also :func:`quiet`.
    """
    global _depth, _saved, _installed
    with _lock:
        if _depth == 0:
            _saved, _installed = sys.stdout, sys.stderr
            sys.stdout = _installed
        _depth += 1
    token = QUIET.set(True)
    try:
        yield
    finally:
        QUIET.reset(token)
        with _lock:
            _depth -= 1
            if _depth == 0:
                if sys.stdout is _installed:
                    sys.stdout = _saved
                _saved = _installed = None


#: Set while code runs that must write nothing to lacak's standard output.
QUIET: contextvars.ContextVar[object] = contextvars.ContextVar("lacak_quiet", default=None)


class quiet:  # (used as a function: ``with quiet():``)
    """Inside the block (in this thread or task), what is written to ``sys.stdout``
    goes to ``sys.stderr`` while :func:`stdout_for_lacak` is in force: every search
    runs so (:meth:`lacak.Searcher.__call__`), since no searcher writes lacak's answer,
    and so does every :class:`PluginCall`. Outside :func:`stdout_for_lacak` it
    changes nothing. (A class, not a generator: every search enters one.)"""

    __slots__ = ("_token",)

    def __enter__(self) -> None:
        self._token = QUIET.set(True)

    def __exit__(self, *_exc: object) -> None:
        QUIET.reset(self._token)


class _Stdout(io.TextIOBase):
    """``sys.stdout`` under :func:`stdout_for_lacak`: lacak's own output goes to the
    real standard output, what :func:`quiet` code writes to ``sys.stderr``."""

    def __init__(self, real: Any) -> None:
        self._real = real
        self.buffer = _StdoutBuffer(self)

    def _target(self) -> Any:
        return sys.stderr if QUIET.get() is not None else self._real

    def write(self, text: str) -> int:
        self._target().write(text)
        return len(text)

    def writelines(self, lines: Any) -> None:
        self._target().writelines(lines)

    def flush(self) -> None:
        # lacak's own output is flushed whoever asks (a fork that copies an unflushed
        # buffer into a child writes it twice)
        self._real.flush()
        if QUIET.get() is not None:
            sys.stderr.flush()

    def isatty(self) -> bool:
        return bool(self._real.isatty())  # the real stdout decides colours and pictures

    def fileno(self) -> int:
        return int(self._target().fileno())

    def writable(self) -> bool:
        return True

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return str(self._real.encoding)

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return getattr(self._real, "errors", None)

    @property
    def closed(self) -> bool:
        return bool(self._real.closed)

    def close(self) -> None:  # (closing sys.stdout must not close lacak's output)
        with contextlib.suppress(OSError, ValueError):
            self.flush()

    def __getattr__(self, name: str) -> Any:  # line_buffering, name, mode, ...
        if name.startswith("__") or name == "_real":
            raise AttributeError(name)
        return getattr(self._real, name)


class _StdoutBuffer(io.RawIOBase):
    """``sys.stdout.buffer`` under :func:`stdout_for_lacak` (bytes, routed alike)."""

    def __init__(self, stdout: _Stdout) -> None:
        self._stdout = stdout

    def write(self, data: Any) -> int:
        target = self._stdout._target()
        target.flush()  # what was written as text comes first
        target.buffer.write(data)
        return len(data)

    def flush(self) -> None:
        self._stdout._target().buffer.flush()

    def writable(self) -> bool:
        return True

    def close(self) -> None:  # (as _Stdout.close)
        with contextlib.suppress(OSError, ValueError):
            self.flush()

    def isatty(self) -> bool:
        return self._stdout.isatty()

    def fileno(self) -> int:
        return self._stdout.fileno()


@contextlib.contextmanager
def stdout_for_lacak() -> Iterator[None]:
    """Within the block, only lacak's own output reaches standard output.

    When ``sys.stdout`` is a real file descriptor, that descriptor is pointed at
    stderr for the block (what C code, ``os.write(1, ...)`` and child processes
    write there goes to stderr), and lacak writes to a duplicate of the real one.
    ``sys.stdout`` becomes a stream that writes to that duplicate, except in
    :func:`quiet` code, whose writes go to ``sys.stderr``. The terminal's size is
    kept in ``COLUMNS`` and ``LINES`` when only the real standard output is a
    terminal. Everything is restored when the block ends.
    """
    original = sys.stdout
    real, restore = _duplicate(original)
    stdout = _Stdout(real)
    sys.stdout = stdout
    try:
        yield
    finally:
        if sys.stdout is stdout:
            sys.stdout = original
        restore()


def _duplicate(stream: Any) -> tuple[Any, Callable[[], None]]:
    """Point file descriptor 1 at stderr's; :returns: ``(the stream lacak's output goes
    to, undo)``: a stream on a duplicate of descriptor 1 when ``stream`` writes there
    (the usual ``sys.stdout``), else ``stream`` itself. Nothing changes when stderr
    has no descriptor (a test's captured streams) or descriptor 1 is closed."""
    try:
        err = sys.stderr.fileno()
        saved = os.dup(1)
    except (AttributeError, OSError, ValueError):  # (io.UnsupportedOperation is both)
        return stream, lambda: None
    try:
        out = stream.fileno()
        stream.flush()
    except (AttributeError, OSError, ValueError):
        out = None
    real = stream
    if out == 1:
        buffering = 1 if getattr(stream, "line_buffering", False) else -1
        real = open(  # noqa: SIM115 (closed by undo)
            os.dup(saved), "w", buffering=buffering, encoding=stream.encoding,
            errors=getattr(stream, "errors", None), closefd=True,
        )  # fmt: skip
        if getattr(stream, "write_through", False):
            real.reconfigure(write_through=True)
    size = _terminal_size(saved, err)
    os.dup2(err, 1)

    def undo() -> None:
        with contextlib.suppress(OSError, ValueError):
            real.flush()
        _flush_c_stdio()  # what C code buffered for descriptor 1 goes where it was sent
        os.dup2(saved, 1)
        os.close(saved)
        if real is not stream:
            with contextlib.suppress(OSError, ValueError):
                real.close()
        for name, value in size.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value

    return real, undo


def _terminal_size(out: int, err: int) -> dict[str, str | None]:
    """Put the terminal's size in ``COLUMNS``/``LINES`` when descriptor ``out`` is a
    terminal and ``err`` is not (what asks descriptor 1 for the size would not find it);
    :returns: the values to restore."""
    if "COLUMNS" in os.environ or not os.isatty(out) or os.isatty(err):
        return {}
    try:
        columns, lines = os.get_terminal_size(out)
    except OSError:
        return {}
    if columns <= 0 or lines <= 0:  # (a terminal that does not know its size)
        return {}
    previous = {"COLUMNS": None, "LINES": os.environ.get("LINES")}
    os.environ["COLUMNS"], os.environ["LINES"] = str(columns), str(lines)
    return previous


def _flush_c_stdio() -> None:
    """``fflush(NULL)``, when ctypes is already loaded (a plugin used it to reach C's
    stdio; loading it only for this would cost every command)."""
    ctypes = sys.modules.get("ctypes")
    if ctypes is None or os.name != "posix":
        return
    with contextlib.suppress(Exception):
        ctypes.CDLL(None).fflush(None)


