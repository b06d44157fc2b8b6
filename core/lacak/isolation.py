"""Running plugin code so that it cannot spoil lacak's output or answers, or hang it.

The guards, used by the plugin loader, the registry and the command line:

- :func:`stdout_to_stderr`: while a plugin is imported or one of its hooks runs,
  ``sys.stdout`` is ``sys.stderr``, so what it prints is shown but never mixed
  into lacak's output;
- :func:`call_with_timeout`: an import or a hook runs in a daemon thread that is
  waited for at most a given time; past it, :class:`PluginTimeout` is raised and
  the thread is left behind (Python cannot stop it), so a blocking plugin is
  reported and skipped instead of hanging lacak;
- :class:`PluginCall`: every function of a component a third-party plugin
  registered (a searcher's ``search``, a heuristic's ``estimate``, a kind's
  ``render``, ...) is called through one (the registry wraps them once). What
  escapes it becomes a :class:`~lacak.PluginError` naming the plugin and the
  component; a heuristic's numbers are checked (:class:`Estimate`,
  :class:`Prepare`): an estimate is a finite number ``>= 0``;
- :func:`quiet`: code that runs while lacak works (every search, every plugin
  call) writes nothing to lacak's standard output: under
  :func:`stdout_for_lacak`, what it writes to ``sys.stdout`` goes to stderr;
- :func:`stdout_for_lacak`: what the command line wraps every command in. File
  descriptor 1 points at stderr (so C code and ``os.write(1, ...)`` cannot reach
  the real standard output either), and ``sys.stdout`` writes lacak's own output
  to a duplicate of the real standard output (whose ``isatty()`` still decides
  colours and pictures) unless :func:`quiet` code writes;
- :func:`watchdog`: what the ``lacak`` script runs in. A deadline (``--timeout``)
  that plugin code overruns by :data:`GRACE` seconds ends the process with one
  line naming the plugin and the component (exit status 1), since Python cannot
  stop a thread; and plugin code that holds the interpreter (a C call that never
  releases the GIL, such as a catastrophic regular expression), which no thread
  of the process can even notice, is ended by a *sentinel*, a small forked
  process that kills this one (status 137 by SIGKILL) after one line naming the
  plugin, :data:`SENTINEL_GRACE` seconds later. Imports and hooks of third-party
  plugins are watched the same way against their own time limit.

What cannot be bounded: in a library (no :func:`watchdog`), a component that
blocks runs as long as it blocks (a thread cannot be stopped); code in threads a
plugin starts itself is not marked as plugin code; without ``os.fork`` (Windows)
there is no sentinel.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import io
import math
import numbers
import os
import reprlib
import select
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from .errors import LacakError, PluginError

__all__ = [
    "GRACE",
    "PLUGIN_ERRORS",
    "SENTINEL_GRACE",
    "Estimate",
    "PluginCall",
    "PluginTimeout",
    "Prepare",
    "call_with_timeout",
    "culprit",
    "note_plugin_module",
    "one_line",
    "quiet",
    "stdout_for_lacak",
    "stdout_to_stderr",
    "watchdog",
]

T = TypeVar("T")

#: What a plugin's code may raise that lacak reports and survives: any
#: ``Exception``, and ``SystemExit`` (a plugin calling ``sys.exit()`` must not
#: end every lacak command). ``KeyboardInterrupt`` still stops lacak.
PLUGIN_ERRORS: tuple[type[BaseException], ...] = (Exception, SystemExit)

#: What passes out of a plugin's component as it is: lacak's own errors (a
#: component refusing bad input, a limit), and running out of memory (which the
#: search turns into an :class:`~lacak.OutOfMemoryError` saying what to try).
_PASSED: tuple[type[BaseException], ...] = (LacakError, MemoryError)

#: Seconds plugin code may run past a watched deadline before :func:`watchdog` ends
#: the process (a search stops within a fraction of a second of its deadline).
GRACE = 1.0

#: Seconds more before the sentinel ends a process whose plugin code holds the interpreter.
SENTINEL_GRACE = 2.0


class PluginTimeout(TimeoutError):
    """Plugin code did not return within the time it was given."""


def one_line(error: BaseException) -> str:
    """``Type: message`` on one line."""
    text = " ".join(str(error).split()) or repr(error)
    return f"{type(error).__name__}: {text}"


# -- plugin code writes to stderr ---------------------------------------------------

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
    token = _QUIET.set(True)
    try:
        yield
    finally:
        _QUIET.reset(token)
        with _lock:
            _depth -= 1
            if _depth == 0:
                if sys.stdout is _installed:
                    sys.stdout = _saved
                _saved = _installed = None


#: Set while code runs that must write nothing to lacak's standard output.
_QUIET: contextvars.ContextVar[object] = contextvars.ContextVar("lacak_quiet", default=None)


class quiet:  # (used as a function: ``with quiet():``)
    """Inside the block (in this thread or task), what is written to ``sys.stdout``
    goes to ``sys.stderr`` while :func:`stdout_for_lacak` is in force: every search
    runs so (:meth:`lacak.Searcher.__call__`), since no searcher writes lacak's answer,
    and so does every :class:`PluginCall`. Outside :func:`stdout_for_lacak` it
    changes nothing. (A class, not a generator: every search enters one.)"""

    __slots__ = ("_token",)

    def __enter__(self) -> None:
        self._token = _QUIET.set(True)

    def __exit__(self, *_exc: object) -> None:
        _QUIET.reset(self._token)


class _Stdout(io.TextIOBase):
    """``sys.stdout`` under :func:`stdout_for_lacak`: lacak's own output goes to the
    real standard output, what :func:`quiet` code writes to ``sys.stderr``."""

    def __init__(self, real: Any) -> None:
        self._real = real
        self.buffer = _StdoutBuffer(self)

    def _target(self) -> Any:
        return sys.stderr if _QUIET.get() is not None else self._real

    def write(self, text: str) -> int:
        self._target().write(text)
        return len(text)

    def writelines(self, lines: Any) -> None:
        self._target().writelines(lines)

    def flush(self) -> None:
        # lacak's own output is flushed whoever asks (a fork that copies an unflushed
        # buffer into a child writes it twice)
        self._real.flush()
        if _QUIET.get() is not None:
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


# -- third-party components ---------------------------------------------------------


class PluginCall:
    """A function of a component that a third-party plugin registered, called isolated.

    It runs :func:`quiet`; any exception but lacak's own errors and ``MemoryError``
    (``SystemExit`` too) becomes a :class:`~lacak.PluginError` naming the plugin and
    the component, with the original as its cause; in a process under
    :func:`watchdog`, the plugin is the one named if it overruns a deadline. It
    pickles (a batch sends components to its workers) and looks like the function
    (``__wrapped__``, ``__name__``, ``__doc__``).

    :param plugin: the plugin's name, as ``lacak plugins`` shows it.
    :param what: the component, as messages name it (``"heuristic 'sliding/gaschnig'"``,
        ``"puzzle kind 'jugs' (render)"``).
    """

    def __init__(self, function: Callable[..., Any], plugin: str, what: str) -> None:
        self.function = function
        self.plugin = plugin
        self.what = what
        functools.update_wrapper(self, function, updated=())

    @property
    def label(self) -> str:
        """``heuristic 'sliding/nan' of plugin 'hostile'``."""
        return f"{self.what} of plugin {self.plugin!r}"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if _arm_on_call:
            _arm_sentinel(self)
        token = _QUIET.set(self)
        try:
            return self.function(*args, **kwargs)
        except _PASSED:
            raise
        except PLUGIN_ERRORS as error:
            raise _failed(self, error) from error
        finally:
            _QUIET.reset(token)

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.function, self.plugin, self.what))

    def __eq__(self, other: object) -> bool:
        """Equal to its function (a catalogued component equals the one registered)."""
        if isinstance(other, PluginCall):
            return bool(self.function == other.function)
        return bool(self.function == other)

    def __hash__(self) -> int:
        return hash(self.function)

    def __repr__(self) -> str:
        return f"<{self.label}: {self.function!r}>"


def _failed(call: Any, error: BaseException) -> PluginError:
    return PluginError(f"plugin {call.plugin!r} failed in {call.what}: {one_line(error)}")


class Estimate(PluginCall):
    """A third-party heuristic's ``estimate(puzzle, state, **options)``, its numbers
    checked (see :class:`Estimator`)."""

    def __call__(self, puzzle: Any, state: Any, **options: Any) -> Any:
        value = PluginCall.__call__(self, puzzle, state, **options)
        if (type(value) is int and value >= 0) or (type(value) is float and 0.0 <= value < _INF):
            return value
        return _checked(value, state, self)

    def bind(self, puzzle: Any, options: Any) -> Estimator:
        """``state -> estimate`` for ``puzzle`` (what ``Heuristic.for_puzzle`` gives),
        one checked call per state."""
        return Estimator(functools.partial(self.function, puzzle, **options), self.plugin,
                         self.what)  # fmt: skip


class Prepare(PluginCall):
    """A third-party heuristic's ``prepare(puzzle, **options)``: the function it returns is
    an :class:`Estimator`."""

    def __call__(self, *args: Any, **kwargs: Any) -> Estimator:
        return Estimator(PluginCall.__call__(self, *args, **kwargs), self.plugin, self.what)


_INF = math.inf


class Estimator:
    """``state -> estimate`` of a third-party heuristic: each number is checked to be a
    finite number ``>= 0`` (an ``int`` or a ``float`` is two comparisons; a ``bool`` is
    not a number here), else :class:`~lacak.PluginError` naming the plugin stops the
    search: a ``nan`` breaks a search's order (an A* "solution" of thousands of moves),
    and ``inf`` is not a dead end to every searcher (IDA* would search without bound).
    Attributes of the prepared function (a table a specialised searcher reads) are
    its own."""

    __slots__ = ("function", "plugin", "what")

    def __init__(self, function: Callable[[Any], Any], plugin: str, what: str) -> None:
        self.function = function
        self.plugin = plugin
        self.what = what

    @property
    def label(self) -> str:
        return f"{self.what} of plugin {self.plugin!r}"

    def __call__(self, state: Any) -> Any:
        if _arm_on_call:
            _arm_sentinel(self)
        token = _QUIET.set(self)
        try:
            value = self.function(state)
        except _PASSED:
            raise
        except PLUGIN_ERRORS as error:
            raise _failed(self, error) from error
        finally:
            _QUIET.reset(token)
        if (type(value) is int and value >= 0) or (type(value) is float and 0.0 <= value < _INF):
            return value
        return _checked(value, state, self)

    def __getattr__(self, name: str) -> Any:
        if name in Estimator.__slots__ or name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.function, name)


def _checked(value: Any, state: Any, call: Any) -> Any:
    """``value`` if it is a finite real number ``>= 0`` of another type (numpy's), else
    the :class:`~lacak.PluginError` that says so."""
    if not isinstance(value, bool) and isinstance(value, numbers.Real):
        try:
            number = float(value)
        except (TypeError, ValueError, OverflowError):
            number = math.nan
        if 0.0 <= number < _INF:
            return value
    raise PluginError(
        f"{call.label} returned {reprlib.repr(value)} for the state {reprlib.repr(state)}: "
        "an estimate is a finite number >= 0 (a bug in the plugin)"
    )


#: The code of the calls above: the watchdog finds plugin code on a thread's stack by them.
_CALL_CODES = frozenset({PluginCall.__call__.__code__, Estimator.__call__.__code__})

#: Third-party plugin modules and their plugins' names (code a plugin's puzzle runs
#: outside any :class:`PluginCall`, its ``successors``, is found by its module).
_MODULES: dict[str, str] = {}


def note_plugin_module(module: str, plugin: str) -> None:
    """Remember that code of module ``module`` (and its submodules) is plugin ``plugin``'s."""
    if module:
        _MODULES[module] = plugin


def culprit(frame: Any) -> str | None:
    """The plugin code running in ``frame`` (a thread's innermost frame): the innermost
    :class:`PluginCall`'s ``label``, else ``plugin 'x' (module.function)`` for a frame of
    a third-party plugin's module, else ``None`` (lacak's own code)."""
    found = None
    while frame is not None:
        code = frame.f_code
        if code in _CALL_CODES:
            call = frame.f_locals.get("self")
            if call is not None:
                return str(call.label)
        elif found is None and _MODULES:
            module = frame.f_globals.get("__name__") or ""
            parts = module.split(".")
            for end in range(len(parts), 0, -1):
                plugin = _MODULES.get(".".join(parts[:end]))
                if plugin is not None:
                    found = f"plugin {plugin!r} ({module}.{code.co_name})"
                    break
        frame = frame.f_back
    return found


# -- time limits ---------------------------------------------------------------------


def call_with_timeout(
    function: Callable[[], T], timeout: float | None, what: str, *, plugin: str | None = None
) -> T:
    """``function()``, waited for at most ``timeout`` seconds.

    The call runs in a daemon thread (with a copy of the caller's context
    variables); what it returns or raises (``SystemExit`` included) is
    returned or raised here. ``None`` calls ``function`` directly. Under
    :func:`watchdog`, a call that holds the interpreter so that the wait cannot
    even end is ended by the sentinel, with a line naming ``plugin``.

    :param what: what is called, for the error message (``"register_searchers"``).
    :param plugin: whose code it is, for the sentinel's line.
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
    key = None
    if plugin is not None:
        key = _sentinel_request(
            time.monotonic() + timeout + GRACE,
            f"Error: stopped: {what} of plugin {plugin!r} did not return within {timeout:g} s "
            f"and holds the interpreter (LACAK_DISABLE_PLUGINS={plugin} skips the plugin)",
        )
    try:
        thread.start()
        thread.join(timeout)
    finally:
        _sentinel_release(key)
    if thread.is_alive():
        raise PluginTimeout(f"{what} did not return within {timeout:g} s")
    if failure:
        raise failure[0]
    result: T = outcome[0]
    return result


class _Deadline:
    """A deadline entered in the watched thread (``None``: no time limit inside)."""

    __slots__ = ("at",)

    def __init__(self, at: float | None) -> None:
        self.at = at


class _Watch:
    """What :func:`watchdog` watches: the deadlines entered in one thread, in order."""

    def __init__(self) -> None:
        self.ident = threading.get_ident()
        self.deadlines: list[_Deadline] = []
        self.thread: threading.Thread | None = None
        self.armed: tuple[float, int] | None = None  # (deadline, sentinel key)
        self.lock = threading.Lock()

    def current(self) -> float | None:
        """The deadline in force in the watched thread (``None``: none)."""
        try:
            return self.deadlines[-1].at
        except IndexError:  # (none, or the last one ended as the watchdog looked)
            return None

    def changed(self) -> None:
        """The current deadline changed: the sentinel is armed anew at the next plugin call."""
        global _arm_on_call
        at = self.current()
        with self.lock:
            if self.armed is not None and self.armed[0] != at:
                _sentinel_release(self.armed[1])
                self.armed = None
            _arm_on_call = at is not None and self.armed is None
        if at is not None and self.thread is None:
            self.thread = threading.Thread(target=self.run, name="lacak watchdog", daemon=True)
            self.thread.start()

    def run(self) -> None:
        """Every tenth of a second: has plugin code overrun the deadline by :data:`GRACE`?"""
        global _arm_on_call
        while _watch is self:
            time.sleep(0.1)
            at = self.current()
            if at is None or time.perf_counter() < at + GRACE:
                continue
            frame = sys._current_frames().get(self.ident)
            running = culprit(frame)
            del frame
            if running is not None:
                _stop(f"Error: stopped: {running} did not return within the time limit "
                      f"(it ran {GRACE:g} s past it)")  # fmt: skip
            with self.lock:  # lacak's own code, which keeps its deadlines itself
                if self.armed is not None:
                    _sentinel_release(self.armed[1])
                    self.armed = None
                    _arm_on_call = True


_watch: _Watch | None = None

#: Whether the next plugin call in the watched thread arms the sentinel for the deadline.
_arm_on_call = False


def entered(at: float | None) -> object:
    """A deadline (``perf_counter`` time, or ``None``) is in force from now in this thread
    (what ``with budget:`` and :func:`lacak.deadline` call).

    :returns: what to hand to :func:`left` when it ends.
    """
    watch = _watch
    if watch is None or threading.get_ident() != watch.ident:
        return None
    entry = _Deadline(at)
    watch.deadlines.append(entry)
    watch.changed()
    return entry


def left(entry: object) -> None:
    """The deadline :func:`entered` gave ``entry`` for is no longer in force."""
    watch = _watch
    if entry is None or watch is None:
        return
    deadlines = watch.deadlines
    for index in range(len(deadlines) - 1, -1, -1):
        if deadlines[index] is entry:
            del deadlines[index]
            break
    watch.changed()


def _arm_sentinel(call: Any) -> None:
    """The first plugin call under a deadline: the sentinel ends the process if plugin
    code holds the interpreter :data:`SENTINEL_GRACE` seconds after the watchdog's time."""
    global _arm_on_call
    watch = _watch
    if watch is None or threading.get_ident() != watch.ident:
        return
    with watch.lock:
        at = watch.current()
        if not _arm_on_call or at is None:
            return
        _arm_on_call = False
        when = time.monotonic() + (at - time.perf_counter()) + GRACE + SENTINEL_GRACE
        key = _sentinel_request(
            when,
            f"Error: stopped: plugin code ({call.label}, or code it called) did not return "
            "within the time limit and holds the interpreter",
        )
        if key is not None:
            watch.armed = (at, key)


def _stop(line: str) -> None:
    """Say ``line`` on stderr and end the process with status 1 (from the watchdog's thread:
    the main thread is stuck in plugin code)."""
    flusher = threading.Thread(target=_flush_all, daemon=True)
    flusher.start()
    flusher.join(0.5)  # (a stream whose lock a stuck thread holds is given up on)
    with contextlib.suppress(OSError):
        os.write(2, (line + "\n").encode("utf-8", "replace"))
    os._exit(1)


def _flush_all() -> None:
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()


class _Sentinel:
    """A forked process that ends this one when a request's time passes unreleased: it
    writes the request's line to stderr and kills this process (SIGKILL). It reads its
    requests from a pipe, and ends when the pipe closes (this process is done)."""

    def __init__(self) -> None:
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the sentinel: only system calls from here (threads may have held locks)
            try:
                os.close(write)
                _sentinel_loop(read, os.getppid())
            finally:
                os._exit(0)
        os.close(read)
        self.fd = write
        self.pid = pid
        self.keys = 0

    def send(self, line: str) -> bool:
        try:
            os.write(self.fd, (line.replace("\n", " ") + "\n").encode("utf-8", "replace"))
        except OSError:  # it is gone
            return False
        return True


def _sentinel_loop(fd: int, parent: int) -> None:
    """The sentinel's work: ``arm KEY TIME LINE`` and ``release KEY`` requests from ``fd``."""
    with contextlib.suppress(OSError):
        os.closerange(0, 2)
        os.closerange(3, fd)
        os.closerange(fd + 1, 1 << 16)
    with contextlib.suppress(OSError, ValueError):  # Ctrl-C is the process group's: not ours
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    armed: dict[str, tuple[float, bytes]] = {}
    pending = b""
    while True:
        timeout = None
        if armed:
            timeout = max(0.0, min(at for at, _line in armed.values()) - time.monotonic())
        ready, _, _ = select.select([fd], [], [], timeout)
        if ready:
            data = os.read(fd, 65536)
            if not data:
                return  # the process is done
            pending += data
            *lines, pending = pending.split(b"\n")
            for request in lines:
                verb, _, rest = request.partition(b" ")
                if verb == b"arm":
                    key, _, rest = rest.partition(b" ")
                    when, _, line = rest.partition(b" ")
                    armed[key.decode()] = (float(when), line + b"\n")
                elif verb == b"release":
                    armed.pop(rest.decode(), None)
            continue
        now = time.monotonic()
        for at, line in armed.values():
            if at <= now:
                os.write(2, line)
                os.kill(parent, signal.SIGKILL)
                return


_sentinel: _Sentinel | None = None


def _sentinel_request(when: float, line: str) -> int | None:
    """Ask the sentinel (started now if need be) to end this process at ``when``
    (``time.monotonic()``) with ``line``, unless released; ``None`` when no process is
    watched (or there can be no sentinel)."""
    global _sentinel
    if _watch is None or not hasattr(os, "fork"):
        return None
    if _sentinel is None:
        try:
            _sentinel = _Sentinel()
        except OSError:
            return None
    sentinel = _sentinel
    sentinel.keys += 1
    key = sentinel.keys
    return key if sentinel.send(f"arm {key} {when!r} {line}") else None


def _sentinel_release(key: int | None) -> None:
    if key is not None and _sentinel is not None:
        _sentinel.send(f"release {key}")


def _forget() -> None:
    """In a forked child (a pool's worker): nothing is watched there."""
    global _watch, _sentinel, _arm_on_call
    _watch, _arm_on_call = None, False
    if _sentinel is not None:
        with contextlib.suppress(OSError):
            os.close(_sentinel.fd)
        _sentinel = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget)


@contextlib.contextmanager
def watchdog() -> Iterator[None]:
    """Within the block, watch this thread's deadlines and plugin calls (the ``lacak``
    script runs so; a library is never ended by lacak).

    A deadline entered here (``with budget:``, :func:`lacak.deadline`) that plugin code
    (a :class:`PluginCall`, or a third-party plugin module's code) still runs
    :data:`GRACE` seconds past ends the process: one line on stderr naming the plugin
    and the component, exit status 1. Code that holds the interpreter then is ended by
    the sentinel :data:`SENTINEL_GRACE` seconds later; and so is a third-party import
    or hook that holds it past its own time limit (:func:`call_with_timeout`).
    """
    global _watch
    if _watch is not None:  # (nested: the outer one watches)
        yield
        return
    _watch = _Watch()
    try:
        yield
    finally:
        _forget()
