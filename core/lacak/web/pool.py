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
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ..errors import LacakError, PluginError
from ..registry import Registry, using
from . import work

__all__ = ["Busy", "Lost", "Overrun", "Pool"]


class Busy(Exception):
    """Every worker is busy and the queue is full: try again shortly."""


class Lost(Exception):
    """The worker running the job died (a crash, a signal or the memory limit)."""


class Overrun(Exception):
    """The job ran far past its time limit (a component that does not check its deadline)."""


def _watch_parent(parent: int) -> None:
    """End this worker process once the server that started it is gone (even killed), so
    that no worker outlives its server."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)


def _init_worker(memory_mb: int | None) -> None:
    """Set up a worker process: its memory limit, lacak's plugins loaded once, and a
    watch that ends it with its server."""
    threading.Thread(
        target=_watch_parent, args=(os.getppid(),), daemon=True, name="lacak-web-parent"
    ).start()
    if memory_mb:
        try:
            import resource

            limit = memory_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        except (ImportError, ValueError, OSError):  # no such limit on this system
            pass
    os.environ.setdefault("LACAK_PROGRESS", "0")
    from ..registry import default_registry

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
        from ..errors import OutOfMemoryError

        raise OutOfMemoryError(
            f"the {name} ran out of the memory a request may use here ({error or 'MemoryError'}); "
            "ask for less (a node limit, a smaller size)"
        ) from None
    except Exception as error:
        raise PluginError(f"the {name} failed with {type(error).__name__}: {error}") from None


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
    """

    def __init__(
        self,
        workers: int = 2,
        *,
        queue: int = 32,
        processes: bool = True,
        memory_mb: int | None = None,
        registry: Registry | None = None,
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
        self._lock = threading.Lock()
        self._pending = 0
        self._warmed = False
        self._executor = self._new_executor()

    def _new_executor(self) -> concurrent.futures.Executor:
        if self.processes:
            return concurrent.futures.ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_init_worker,
                initargs=(self.memory_mb,),
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
    ) -> concurrent.futures.Future[dict[str, Any]]:
        # The count is taken under the pool's lock, the job submitted outside it: the
        # executor's own locks are held while it resolves futures (and so runs _done), so
        # holding this lock around submit() could deadlock with a worker's death.
        with self._lock:
            if self._pending >= self.workers + self.queue:
                raise Busy(
                    f"all {self.workers} workers are busy and {self.queue} requests wait; "
                    "try again shortly"
                )
            self._pending += 1
        try:
            if self.registry is not None:
                future = self._executor.submit(
                    _run_with_registry, self.registry, name, kind, request, caps
                )
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
            return await asyncio.wait_for(asyncio.wrap_future(future), timeout)
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

    def _replace(self, broken: concurrent.futures.Executor) -> None:
        """A fresh executor in place of ``broken`` (its jobs are lost), unless another
        request has replaced it already."""
        with self._lock:
            if self._executor is not broken:
                return
            self._executor = self._new_executor()
        broken.shutdown(wait=False, cancel_futures=True)

    def warm(self) -> list[concurrent.futures.Future[Any]]:
        """Start every worker now (a process loads lacak's plugins once), not on the
        first requests (once: later calls do nothing)."""
        if self._warmed:
            return []
        self._warmed = True
        return [self._executor.submit(_noop) for _ in range(self.workers)]

    def close(self) -> None:
        """Stop the workers (jobs waiting are cancelled)."""
        self._executor.shutdown(wait=False, cancel_futures=True)


def _noop() -> None:
    """A job that does nothing (it makes a worker start)."""
