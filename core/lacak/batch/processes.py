"""Worker processes that end with the process that started them, however it ends.

lacak starts worker processes in two places: the pools of batches
(:mod:`lacak.batch`) and the pool of ``lacak serve`` (:mod:`lacak.web.pool`).
A worker waiting for its next job would outlive a parent killed with
``SIGKILL`` for ever (the pipe it reads from is held open by its siblings), so
each worker calls :func:`end_with_parent` as it starts, with what the parent
gave it from :func:`owner`::

    pool = ProcessPoolExecutor(2, initializer=end_with_parent, initargs=owner())

On Linux, when the parent forks its workers on its main thread (which lives as
long as the process), the kernel ends them: ``prctl(PR_SET_PDEATHSIG, SIGKILL)``
sends a worker ``SIGKILL`` when that thread ends, at once, even while the worker
runs compiled code that holds the interpreter. (The signal follows the forking
*thread*, so it cannot serve a pool forked from another thread, which may end
before the pool does.) Otherwise a daemon thread of the worker looks every
:data:`WATCH_SECONDS` whether its parent changed (an orphan is handed to another
process) and ends the worker when it did; that needs the GIL, so a job holding
it delays the end until it lets go.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from multiprocessing.context import BaseContext

__all__ = ["WATCH_SECONDS", "end_with_parent", "owner"]

#: How often a worker that cannot have the kernel's signal looks whether its parent lives.
WATCH_SECONDS = 0.5

#: ``prctl(2)``'s ``PR_SET_PDEATHSIG`` (Linux): a signal sent to this process when the
#: thread that forked it ends.
_PR_SET_PDEATHSIG = 1


def owner(context: BaseContext | None = None) -> tuple[int, bool]:
    """What a worker started from here from now on needs to end with this process (the
    arguments of :func:`end_with_parent`): this process's pid, and whether this process
    is the worker's parent and starts it on its main thread, which lives as long as the
    process. (A process pool starts its workers on the thread that first submits to
    it; lacak's pools are made and submitted to on one thread. With ``forkserver`` the
    workers' parent is the fork server.)

    :param context: the multiprocessing context the workers start with (default the
        global one).
    """
    method = (context or multiprocessing).get_start_method()
    here = threading.current_thread() is threading.main_thread()
    return os.getpid(), method in ("fork", "spawn") and here


def end_with_parent(owner: int, tied: bool) -> None:
    """Make this worker process end when its parent ends, whatever ends it.

    :param owner: the pid of the process that made the pool (:func:`owner`); when
        ``tied`` and it is gone already, this worker ends now.
    :param tied: whether ``owner`` is this worker's parent and started it on its main
        thread, so that the kernel's signal (Linux) can be asked for; otherwise a thread
        watches whatever process is its parent now (``owner``, or a fork server).
    """
    if tied and _parent_death_signal():
        if os.getppid() != owner:  # it ended before the signal was asked for
            os._exit(1)
        return
    threading.Thread(target=_watch, args=(os.getppid(), owner), name="lacak-parent-watch",
                     daemon=True).start()  # fmt: skip


def _parent_death_signal() -> bool:
    """Ask the kernel for ``SIGKILL`` when this process's parent thread ends (Linux);
    whether it was given."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        done = libc.prctl(ctypes.c_int(_PR_SET_PDEATHSIG), ctypes.c_ulong(signal.SIGKILL),
                          ctypes.c_ulong(0), ctypes.c_ulong(0), ctypes.c_ulong(0))  # fmt: skip
    except (OSError, AttributeError, ValueError, TypeError):  # no libc, or no prctl in it
        return False
    return bool(done == 0)


def _watch(parent: int, owner: int) -> None:
    """(A worker's daemon thread) end the process once its parent is no longer ``parent``,
    or ``owner`` is gone: a parent killed before this thread started (the worker was
    already handed to another process, which ``parent`` is then) is seen by the
    second."""
    while os.getppid() == parent and _exists(owner):
        time.sleep(WATCH_SECONDS)
    os._exit(1)


def _exists(pid: int) -> bool:
    """Whether process ``pid`` exists (signal 0 checks without sending anything)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # (it exists, but is not ours to signal)
        return True
    return True
