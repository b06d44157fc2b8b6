"""Time limits on plugin code (:mod:`lacak.plugin.isolation`): the watchdog and its sentinel.

- :func:`call_with_timeout`: an import or a hook runs in a daemon thread that is
  waited for at most a given time; past it, :class:`PluginTimeout` is raised and
  the thread is left behind (Python cannot stop it), so a blocking plugin is
  reported and skipped instead of hanging lacak;
- :func:`watchdog`: what the ``lacak`` script runs in. A deadline (``--timeout``)
  that plugin code overruns by :data:`GRACE` seconds ends the process with one
  line naming the plugin and the component (exit status 1), since Python cannot
  stop a thread; and plugin code that holds the interpreter (a C call that never
  releases the GIL, such as a catastrophic regular expression), which no thread
  of the process can even notice, is ended by a *sentinel*, a small forked
  process that kills this one (status 137 by SIGKILL) after one line naming the
  plugin, :data:`SENTINEL_GRACE` seconds later. Imports and hooks of third-party
  plugins are watched the same way against their own time limit.

The kernel's deadlines (:func:`lacak.deadline`, ``with budget:``) tell this module when
they begin and end through :func:`lacak.limits.watch_deadlines`, which this module
calls when it is imported: the kernel never imports the plugin host.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import select
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from ... import limits
from .calls import before_next_call, culprit

__all__ = ["GRACE", "SENTINEL_GRACE", "PluginTimeout", "call_with_timeout", "watchdog"]

T = TypeVar("T")

#: Seconds plugin code may run past a watched deadline before :func:`watchdog` ends
#: the process (a search stops within a fraction of a second of its deadline).
GRACE = 1.0

#: Seconds more before the sentinel ends a process whose plugin code holds the interpreter.
SENTINEL_GRACE = 2.0


class PluginTimeout(TimeoutError):
    """Plugin code did not return within the time it was given."""


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
        at = self.current()
        with self.lock:
            if self.armed is not None and self.armed[0] != at:
                _sentinel_release(self.armed[1])
                self.armed = None
            _set_arm(at is not None and self.armed is None)
        if at is not None and self.thread is None:
            self.thread = threading.Thread(target=self.run, name="lacak watchdog", daemon=True)
            self.thread.start()

    def run(self) -> None:
        """Every tenth of a second: has plugin code overrun the deadline by :data:`GRACE`?"""
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
                    _set_arm(True)


_watch: _Watch | None = None

#: Whether the next plugin call in the watched thread arms the sentinel for the deadline.
_arm_on_call = False


def _set_arm(arm: bool) -> None:
    """Whether the next plugin call arms the sentinel (:func:`_arm_sentinel` runs first)."""
    global _arm_on_call
    _arm_on_call = arm
    before_next_call(_arm_sentinel if arm else None)


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
    watch = _watch
    if watch is None or threading.get_ident() != watch.ident:
        return
    with watch.lock:
        at = watch.current()
        if not _arm_on_call or at is None:
            return
        _set_arm(False)
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
    global _watch, _sentinel
    _watch = None
    _set_arm(False)
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



limits.watch_deadlines(entered, left)
