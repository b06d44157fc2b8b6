"""lacak's executor over a Dask client: a task's outcome is what its Dask future's
``result()`` gives, whatever state the future went through on the way (Dask's own
executor read the state after the result, and failed a task whose worker died as its
result came with a nonsense error)."""

from __future__ import annotations

import concurrent.futures as cf
from collections.abc import Callable
from typing import Any

import pytest
from lacak.batch import run_many
from lacak.batch.cluster import DaskExecutor


class FakeTask:
    """A Dask future, as far as the executor uses one: its callback comes when the task
    is first done, and ``result()`` may then still wait (a lost result made again)."""

    def __init__(self, outcome: Callable[[], Any]) -> None:
        self.outcome = outcome
        self.callbacks: list[Callable[[Any], None]] = []
        self.cancelled = False

    def add_done_callback(self, callback: Callable[[Any], None]) -> None:
        self.callbacks.append(callback)

    def result(self) -> Any:
        return self.outcome()

    def cancel(self) -> None:
        self.cancelled = True

    def done(self) -> None:
        for callback in self.callbacks:
            callback(self)


class FakeClient:
    def __init__(self) -> None:
        self.tasks: list[FakeTask] = []
        self.kwargs: list[dict[str, Any]] = []

    def submit(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> FakeTask:
        self.kwargs.append(kwargs)
        task = FakeTask(lambda: fn(*args))
        self.tasks.append(task)
        return task


def test_the_result_is_what_the_dask_future_gives() -> None:
    client = FakeClient()
    executor = DaskExecutor(client)
    future = executor.submit(divmod, 7, 2)
    assert not future.done()
    client.tasks[0].done()
    assert future.result(timeout=1) == (3, 1)
    assert client.kwargs == [{"pure": False}]


def test_a_task_s_error_is_the_future_s() -> None:
    client = FakeClient()
    executor = DaskExecutor(client)
    future = executor.submit(divmod, 1, 0)
    client.tasks[0].done()
    with pytest.raises(ZeroDivisionError):
        future.result(timeout=1)


def test_cancelling_a_future_cancels_its_task_and_shutdown_cancels_the_rest() -> None:
    client = FakeClient()
    executor = DaskExecutor(client)
    first, second, third = (executor.submit(abs, -k) for k in range(3))
    assert first.cancel()
    assert client.tasks[0].cancelled
    client.tasks[0].done()  # (Dask calls back a cancelled task too: nothing to pass on)
    assert first.cancelled()
    client.tasks[1].done()
    executor.shutdown()
    assert second.result(timeout=1) == 1
    assert not client.tasks[1].cancelled
    assert third.cancelled() and client.tasks[2].cancelled


def test_a_batch_runs_through_it() -> None:
    client = FakeClient()

    class Running(DaskExecutor):
        def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> cf.Future[Any]:
            future = super().submit(fn, *args, **kwargs)
            client.tasks[-1].done()  # the task runs at once, here
            return future

    outcomes = run_many(abs, [-3, 4, -5], executor=Running(client))
    assert [outcome.value for outcome in outcomes] == [3, 4, 5]


def test_only_dask_s_own_executor_is_replaced() -> None:
    from lacak.batch.cluster import dask_client, reliable

    ours = DaskExecutor(FakeClient())
    with cf.ThreadPoolExecutor(1) as threads:
        assert reliable(threads) is threads and dask_client(threads) is None
    assert reliable(ours) is ours and dask_client(ours) is ours.client
