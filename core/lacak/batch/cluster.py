"""Running lacak's batches and split searches on a Dask cluster
(``pip install 'lacak[dask]'``): an executor that keeps every result when a worker
dies. Imported only when a Dask executor is used."""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import functools
import threading
from collections.abc import Callable, Iterator
from typing import Any

from ..errors import LimitReachedError
from ..limits import current_deadline, now

__all__ = ["DaskExecutor", "dask_client", "local_cluster", "reliable"]


class DaskExecutor(cf.Executor):
    """A :class:`concurrent.futures.Executor` over a Dask ``distributed.Client``, which
    passes each task's outcome on by asking its Dask future for it.

    Dask's own (``client.get_executor()``) reads a task's state after its result
    came; when a worker died meanwhile and the result was being made again, it took
    the result for an error and failed the task with a nonsense error (seen here:
    ``'list' object has no attribute 'with_traceback'``). Here the outcome is what
    the Dask future's ``result()`` gives: the result (Dask makes it again if it was
    lost) or the task's error. :func:`lacak.batch.iter_many` runs a
    ``client.get_executor()`` it is given through one of these.

    Submitted tasks are not pure (each runs, as ``client.get_executor()``'s do);
    cancelling a :class:`~concurrent.futures.Future` cancels its Dask task.
    """

    def __init__(self, client: Any) -> None:
        self.client = client
        self._lock = threading.Lock()
        self._tasks: dict[cf.Future[Any], Any] = {}  # those not finished, with their Dask futures

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> cf.Future[Any]:
        """``fn(*args, **kwargs)`` as a Dask task: its future here."""
        task = self.client.submit(fn, *args, pure=False, **kwargs)
        future: cf.Future[Any] = cf.Future()
        with self._lock:
            self._tasks[future] = task
        future.add_done_callback(self._cancelled)
        task.add_done_callback(functools.partial(self._passed_on, future))
        return future

    def _passed_on(self, future: cf.Future[Any], task: Any) -> None:
        """(In Dask's callback thread) the task's outcome, given to ``future``."""
        if future.cancelled():
            return
        try:
            result = task.result()
        except BaseException as error:  # the task's error, or Dask's (KilledWorker, cancelled)
            with contextlib.suppress(cf.InvalidStateError):  # (cancelled meanwhile)
                future.set_exception(error)
        else:
            with contextlib.suppress(cf.InvalidStateError):
                future.set_result(result)

    def _cancelled(self, future: cf.Future[Any]) -> None:
        with self._lock:
            task = self._tasks.pop(future, None)
        if task is not None and future.cancelled():
            task.cancel()

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Cancel the tasks not finished (the client is the caller's, and stays open)."""
        with self._lock:
            pending = list(self._tasks.items())
        for future, _task in pending:
            future.cancel()


def dask_client(executor: Any) -> Any:
    """The Dask client behind ``executor``: a :class:`DaskExecutor`'s, or that of Dask's
    own ``client.get_executor()``; ``None`` for any other executor."""
    if isinstance(executor, DaskExecutor):
        return executor.client
    kind = type(executor)
    if kind.__name__ == "ClientExecutor" and kind.__module__.startswith("distributed"):
        return getattr(executor, "_client", None)
    return None


def reliable(executor: cf.Executor) -> cf.Executor:
    """``executor``, or for Dask's own ``client.get_executor()`` a :class:`DaskExecutor`
    over the same client."""
    client = dask_client(executor)
    if client is None or isinstance(executor, DaskExecutor):
        return executor
    return DaskExecutor(client)


@contextlib.contextmanager
def local_cluster(workers: int, **options: Any) -> Iterator[Any]:
    """A Dask ``LocalCluster`` of ``workers`` processes for the block, started within the
    deadline of the work running now (:func:`lacak.deadline`, ``with budget:``).

    Starting one takes a second or more (each worker process imports Dask), several on
    a loaded machine, so a command's ``--timeout`` counts it: the cluster starts on a
    thread of its own while this one waits until the deadline at most. One that is not
    up by then is closed as soon as it is, in the background.

    :param options: for ``distributed.LocalCluster`` (``n_workers`` is ``workers``).
    :raises LimitReachedError: the deadline passed before the cluster was up.
    """
    at = current_deadline()
    if at is None:
        import distributed  # (optional and slow to import: Dask)

        with distributed.LocalCluster(n_workers=workers, **options) as cluster:
            yield cluster
        return
    lock = threading.Lock()
    started: list[Any] = []  # the cluster, or the error that stopped it
    up = threading.Event()
    abandoned = False

    def start() -> None:
        try:
            import distributed  # (importing it takes a second on a busy machine too)

            made: Any = distributed.LocalCluster(n_workers=workers, **options)
        except BaseException as error:  # (given to the waiting thread)
            made = error
        with lock:
            started.append(made)
            late = abandoned
        up.set()
        if late and not isinstance(made, BaseException):
            # (best effort: at the interpreter's exit Dask's loop may be closing already)
            with contextlib.suppress(Exception):
                made.close()

    threading.Thread(target=start, name="lacak-local-cluster", daemon=True).start()
    up.wait(max(0.0, at - now()))
    with lock:
        ready = bool(started)  # (up just now: the thread has not looked yet, it is ours)
        abandoned = not ready
    if not ready:
        raise LimitReachedError(
            f"the time limit was reached while starting a Dask cluster of {workers} workers"
        )
    (made,) = started
    if isinstance(made, BaseException):
        raise made
    with made:
        yield made
