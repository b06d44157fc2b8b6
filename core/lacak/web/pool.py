"""Running the server's work off the event loop, in a bounded pool of workers.

Generations and searches are CPU work: they run in a pool of worker
processes (threads, for a server given a registry of its own, as tests do),
never on the event loop, so a long search holds one worker and nothing else.
The pool is bounded twice: a fixed number of workers, and a fixed number of
jobs that may wait for one (:attr:`Pool.queue`); past that a request is
refused at once (:class:`Busy`, HTTP 503) rather than queued without end.
Each worker process may be given an address-space limit, so one search cannot
take the machine's memory (it then fails with lacak's
:class:`~lacak.OutOfMemoryError`). A worker that dies (a crash, a signal) is
replaced, and the requests it was running are answered with :class:`Lost`.

What jobs leave behind is bounded too. After each job the cache files written
since the pool started are cut to :attr:`Caps.max_cache_bytes
<lacak.web.work.Caps.max_cache_bytes>` (:func:`lacak.store.cache.trim`, the largest
first, in a thread: the answer does not wait for it). Worker processes whose
memory has grown past ``recycle_mb`` (half their limit, by default: databases
for goal after goal, kept in memory) are replaced once the job that showed it
is done: the jobs already sent to them finish there, and the next ones go to
fresh workers, so that no request inherits what earlier ones grew.

Worker processes end with the process that started them, whatever ends it:
:meth:`Pool.close` stops them (jobs running included); a server killed with
SIGKILL cannot, so each worker also watches its parent (on Linux the kernel
kills it the moment its parent goes, ``PR_SET_PDEATHSIG``; elsewhere a thread
of the worker sees the parent gone within half a second: :mod:`lacak.batch.processes`). Workers ignore
SIGINT: Ctrl-C reaches the whole foreground process group, and it is the
server's to answer, not each worker's with a traceback.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ..batch.processes import end_with_parent, owner
from ..errors import LacakError, OutOfMemoryError, PluginError
from ..output import plural
from ..plugin.registry import Registry, default_registry, using
from ..store import cache
from ..store.paths import cache_dir
from . import work

__all__ = ["Busy", "Lost", "Overrun", "Pool"]


class Busy(Exception):
    """Every worker is busy and the queue is full: try again shortly."""


class Lost(Exception):
    """The worker running the job died (a crash, a signal or the memory limit)."""


class Overrun(Exception):
    """The job ran far past its time limit (a component that does not check its deadline)."""


def _init_worker(parent: int, tied: bool, memory_mb: int | None) -> None:
    """Set up a worker process: SIGINT ignored, ended with its server (``parent``, which
    started it on its main thread when ``tied``: :func:`lacak.batch.processes.end_with_parent`),
    its memory limit, and lacak's plugins loaded once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    end_with_parent(parent, tied)
    if memory_mb:
        try:
            import resource  # (deferred: POSIX only, and only with a memory limit)

            limit = memory_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        except (ImportError, ValueError, OSError):  # no such limit on this system
            pass
    os.environ.setdefault("LACAK_PROGRESS", "0")
    default_registry()


#: The jobs a worker runs, by name (names cross the process boundary, functions need not).
JOBS: Mapping[str, Callable[..., dict[str, Any]]] = {
    "generate": work.generate,
    "solve": work.solve,
}


def run_job(name: str, kind: str, request: Mapping[str, Any], caps: work.Caps) -> dict[str, Any]:
    """Run job ``name`` in this process (a worker): its JSON answer, or a
    :class:`~lacak.LacakError`. Any other exception is a bug in a component and
    comes back as a :class:`~lacak.PluginError` carrying its type and message (so
    that it always crosses back from a process)."""
    try:
        return JOBS[name](kind, request, caps)
    except LacakError:
        raise
    except MemoryError as error:
        raise OutOfMemoryError(
            f"the {name} ran out of the memory a request may use here ({error or 'MemoryError'}); "
            "ask for less (a node limit, a smaller size)"
        ) from None
    except Exception as error:
        raise PluginError(f"the {name} failed with {type(error).__name__}: {error}") from None


def _peak_bytes() -> int:
    """The most memory this process has held at once (its peak resident set), in bytes
    (0 where that cannot be told)."""
    try:
        import resource  # (deferred: POSIX only)
    except ImportError:  # (Windows)
        return 0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(peak if sys.platform == "darwin" else peak * 1024)  # (bytes there, kB here)


def run_in_worker(
    name: str, kind: str, request: Mapping[str, Any], caps: work.Caps
) -> tuple[dict[str, Any], int]:
    """:func:`run_job` in a worker process, with the worker's peak memory (bytes) after it."""
    return run_job(name, kind, request, caps), _peak_bytes()


def _run_with_registry(
    registry: Registry, name: str, kind: str, request: Mapping[str, Any], caps: work.Caps
) -> dict[str, Any]:
    with using(registry):
        return run_job(name, kind, request, caps)


class Pool:
    """A bounded pool of workers for the server's jobs.

    :param workers: how many jobs run at once.
    :param queue: how many more may wait for a worker before requests are refused.
    :param processes: worker processes (the default); ``False`` for threads.
    :param memory_mb: the address-space limit of each worker process (``None``: none).
    :param registry: the registry jobs use (threads only: a process loads the
        installed plugins itself).
    :param recycle_mb: a worker process whose peak memory has passed this many MB is
        replaced once its job is done (default: half of ``memory_mb``; ``None``
        without it: never).
    """

    def __init__(
        self,
        workers: int = 2,
        *,
        queue: int = 32,
        processes: bool = True,
        memory_mb: int | None = None,
        registry: Registry | None = None,
        recycle_mb: int | None = None,
    ) -> None:
        if workers < 1 or queue < 0:
            raise ValueError("a pool has at least one worker and a queue of zero or more")
        if processes and registry is not None:
            raise ValueError("worker processes load the installed plugins; use threads")
        self.workers = workers
        self.queue = queue
        self.processes = processes
        self.memory_mb = memory_mb
        self.registry = registry
        if recycle_mb is None and memory_mb:
            recycle_mb = max(1, memory_mb // 2)
        self.recycle_mb = recycle_mb
        #: When the pool started (:func:`time.time`): cache files written since are its jobs'.
        self.started = time.time()
        self._lock = threading.Lock()
        self._pending = 0
        self._warmed = False
        self._closed = False
        self._retired: list[concurrent.futures.Executor] = []
        self._trimming = False
        self._trim_again = False
        self._executor = self._new_executor()

    def _new_executor(self) -> concurrent.futures.Executor:
        if self.processes:
            context = multiprocessing.get_context("spawn")
            return concurrent.futures.ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=context,
                initializer=_init_worker,
                initargs=(*owner(context), self.memory_mb),
            )
        return concurrent.futures.ThreadPoolExecutor(
            max_workers=self.workers, thread_name_prefix="lacak-web"
        )

    @property
    def pending(self) -> int:
        """Jobs running or waiting for a worker."""
        return self._pending

    def _done(self, _future: concurrent.futures.Future[Any]) -> None:
        with self._lock:
            self._pending -= 1

    def _submit(
        self, name: str, kind: str, request: Mapping[str, Any], caps: work.Caps
    ) -> concurrent.futures.Future[Any]:
        # The count is taken under the pool's lock, the job submitted outside it: the
        # executor's own locks are held while it resolves futures (and so runs _done), so
        # holding this lock around submit() could deadlock with a worker's death.
        with self._lock:
            if self._closed:
                raise Busy("the server is stopping")
            if self._pending >= self.workers + self.queue:
                busy = "the worker is" if self.workers == 1 else f"all {self.workers} workers are"
                waiting = f"{plural(self.queue, 'request')} {'waits' if self.queue == 1 else 'wait'}"
                raise Busy(f"{busy} busy and {waiting}; try again shortly")
            self._pending += 1
        future: concurrent.futures.Future[Any]
        try:
            if self.registry is not None:
                future = self._executor.submit(
                    _run_with_registry, self.registry, name, kind, request, caps
                )
            elif self.processes:
                with self._spawning():
                    future = self._executor.submit(run_in_worker, name, kind, request, caps)
            else:
                future = self._executor.submit(run_job, name, kind, request, caps)
        except BaseException:
            with self._lock:
                self._pending -= 1
            raise
        future.add_done_callback(self._done)
        return future

    async def run(
        self,
        name: str,
        kind: str,
        request: Mapping[str, Any],
        caps: work.Caps,
        *,
        timeout: float,
    ) -> dict[str, Any]:
        """Run a job on a worker and wait for its answer.

        :raises Busy: the pool and its queue are full.
        :raises Lost: the worker died.
        :raises Overrun: no answer within ``timeout`` seconds (the job is cancelled if
            it has not started; a job already running goes on to its own end).
        :raises LacakError: what the job raised (bad input, an unknown name, ...).
        """
        executor = self._executor
        try:
            future = self._submit(name, kind, request, caps)
        except BrokenProcessPool:
            self._replace(executor)
            executor = self._executor
            future = self._submit(name, kind, request, caps)
        try:
            answer: Any = await asyncio.wait_for(asyncio.wrap_future(future), timeout)
        except asyncio.TimeoutError:
            raise Overrun(
                f"the {name} gave no answer within {timeout:g} seconds"
            ) from None
        except BrokenProcessPool:
            self._replace(executor)
            raise Lost(
                f"the worker running the {name} died (a crash, or the memory limit); "
                "it has been replaced"
            ) from None
        except OutOfMemoryError:
            self._retire(executor)  # (what it grew to stays with that worker)
            raise
        finally:
            self._trim_soon(caps)
        if not self.processes or self.registry is not None:
            return dict(answer)
        result, peak = answer
        if self.recycle_mb is not None and peak > self.recycle_mb * 2**20:
            self._retire(executor)
        return dict(result)

    def _replace(self, broken: concurrent.futures.Executor) -> None:
        """A fresh executor in place of ``broken`` (its jobs are lost), unless another
        request has replaced it already, or the pool is closed."""
        with self._lock:
            if self._executor is not broken or self._closed:
                return
            self._executor = self._new_executor()
        _stop(broken, wait=False)

    def _retire(self, used: concurrent.futures.Executor) -> None:
        """Send the jobs to come to fresh workers, and let ``used`` finish the jobs it has
        and then end (a worker grown too large), unless that is done already."""
        if not self.processes:
            return
        with self._lock:
            if self._executor is not used or self._closed:
                return
            self._executor = self._new_executor()
            self._retired = [e for e in self._retired if _alive(e)] + [used]
        used.shutdown(wait=False)

    def _trim_soon(self, caps: work.Caps) -> None:
        """Cut the cache files written since the pool started to ``caps.max_cache_bytes``,
        in a thread (one trim at a time; a request while one runs asks for another)."""
        with self._lock:
            if self._trimming:
                self._trim_again = True
                return
            self._trimming = True

        def run() -> None:
            while True:
                with contextlib.suppress(Exception):  # (a cache folder that cannot be listed)
                    cache.trim(cache_dir(), caps.max_cache_bytes, since=self.started)
                with self._lock:
                    if not self._trim_again:
                        self._trimming = False
                        return
                    self._trim_again = False

        threading.Thread(target=run, name="lacak-web-trim", daemon=True).start()

    @contextlib.contextmanager
    def _spawning(self) -> Iterator[None]:
        """Within the block, worker processes started by this thread ignore SIGINT from
        their first instruction (a disposition to ignore a signal is inherited; the
        main thread only can set it): a Ctrl-C while a worker starts prints nothing."""
        if not self.processes or threading.current_thread() is not threading.main_thread():
            yield
            return
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, previous)

    def warm(self) -> list[concurrent.futures.Future[Any]]:
        """Start every worker now (a process loads lacak's plugins once), not on the
        first requests (once: later calls do nothing)."""
        if self._warmed:
            return []
        self._warmed = True
        with self._spawning():
            return [self._executor.submit(_noop) for _ in range(self.workers)]

    def close(self) -> None:
        """Stop the workers now: jobs waiting are cancelled, worker processes are ended
        (those running a job too: its request is answered with :class:`Lost`), and no
        job is taken after. Closing again does nothing."""
        with self._lock:
            self._closed = True
            executors = [self._executor, *self._retired]
            self._retired = []
        for executor in executors:
            _stop(executor, wait=True)


def _alive(executor: concurrent.futures.Executor) -> bool:
    """Whether any worker process of ``executor`` is still running."""
    try:
        processes = list((getattr(executor, "_processes", None) or {}).values())
    except RuntimeError:
        return True
    return any(process.is_alive() for process in processes)


#: Seconds :func:`_stop` waits for ended workers before it kills them.
STOP_WAIT = 5.0


def _stop(executor: concurrent.futures.Executor, *, wait: bool) -> None:
    """Shut an executor down without waiting for its jobs: its worker processes (if any)
    are sent SIGTERM; with ``wait``, they are waited for, and sent SIGKILL if they are
    still there after :data:`STOP_WAIT` seconds."""
    try:  # (the executor's own thread may change its table of processes meanwhile)
        processes = list((getattr(executor, "_processes", None) or {}).values())
    except RuntimeError:
        processes = []
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(OSError, ValueError):
            process.terminate()
    if not wait:
        return
    until = time.monotonic() + STOP_WAIT
    for process in processes:
        with contextlib.suppress(OSError, ValueError, AssertionError):
            process.join(max(0.0, until - time.monotonic()))
            if process.is_alive():
                process.kill()
                process.join(1.0)


def _noop() -> None:
    """A job that does nothing (it makes a worker start)."""
