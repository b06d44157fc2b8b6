"""Running lacak's batches and split searches on a Dask cluster
(``pip install 'lacak[dask]'``): an executor that keeps every result when a worker
dies. Imported only when a Dask executor is used."""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import functools
import threading
from collections.abc import Callable
from typing import Any

__all__ = ["DaskExecutor", "dask_client", "reliable"]


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
