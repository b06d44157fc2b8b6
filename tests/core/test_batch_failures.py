"""Batches keep what they finished: raising jobs and dead workers in real process pools.

The jobs below run in real ``ProcessPoolExecutor`` workers (forked, so the
functions of this module are found there): one raises, one calls
``os._exit(1)``, one kills itself with ``SIGKILL``; every other job's record is
kept, the bad ones are reported, and lacak's own pool retries a dead worker's
job once.
"""

from __future__ import annotations

import concurrent.futures
import inspect
import io
import os
import pickle
import signal
import threading
import time
from typing import Any

import lacak
import lacak.errors
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak.batch import Outcome, iter_many, run_many


class Unpicklable(Exception):
    """An exception that cannot cross a process boundary: its constructor does not
    take its ``args`` (as ``UnknownComponentError``'s did), so unpickling fails,
    and it holds a lock, so pickling fails too (even where ``tblib``, which Dask
    installs, pickles exceptions without calling their constructors)."""

    def __init__(self, a: str, b: str) -> None:
        super().__init__(f"{a} and {b}")
        self.lock = threading.Lock()


def job(item: object) -> object:
    """Twice the item, or the failure it names."""
    if item == "raise":
        raise ValueError("boom in a job")
    if item == "unpicklable":
        raise Unpicklable("left", "right")
    if item == "exit":
        os._exit(1)
    if item == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    if item == "lambda":
        return lambda: None  # a result that cannot be pickled
    if item == "slow":
        time.sleep(0.3)
        return "slow done"
    assert isinstance(item, int)
    return item * 2


GOOD = [1, 2, 3, 4, 5, 6, 7, 8]
MIXED = [1, "raise", 2, "exit", 3, "kill", 4, "slow", 5, "unpicklable", 6, "lambda", 7, 8]


def check_mixed(records: list[Outcome[object]], *, retried: bool) -> None:
    """Every good job's value is there, and every bad one says what happened."""
    assert [r.index for r in records] == list(range(len(MIXED)))
    for record, item in zip(records, MIXED, strict=True):
        if isinstance(item, int):
            assert record.ok and record.value == item * 2 and record.unwrap() == item * 2
            assert 1 <= record.attempts <= 2
    by_item = dict(zip(MIXED, records, strict=True))
    assert by_item["slow"].value == "slow done"
    raised = by_item["raise"]
    assert isinstance(raised.error, ValueError) and str(raised.error) == "boom in a job"
    assert raised.traceback is not None and "in job" in raised.traceback
    assert "boom in a job" in raised.traceback
    with pytest.raises(ValueError, match="boom in a job"):
        raised.unwrap()
    summary = by_item["unpicklable"].error
    assert isinstance(summary, lacak.JobError) and isinstance(summary, lacak.LacakError)
    assert summary.type_name is not None and summary.type_name.endswith("Unpicklable")
    assert "left and right" in str(summary) and summary.index == MIXED.index("unpicklable")
    result = by_item["lambda"].error
    assert isinstance(result, lacak.JobError) and "cannot be pickled" in str(result)
    for item, code in (("exit", 1), ("kill", -signal.SIGKILL)):
        record = by_item[item]
        died = record.error
        assert isinstance(died, lacak.WorkerDiedError) and died.index == record.index
        if retried:
            assert record.attempts == died.attempts == 2
            assert died.exitcode == code
            how = "exit code 1" if code == 1 else "signal 9, SIGKILL"
            assert str(died) == f"worker died ({how}) twice running job {record.index}"


@pytest.mark.parametrize("chunksize", [1, 3])
def test_lacak_s_own_pool_keeps_every_good_record(chunksize: int) -> None:
    check_mixed(run_many(job, MIXED, workers=2, chunksize=chunksize), retried=True)


class PlainJob:
    """:func:`job`, promising plain values: a chunk whose jobs all succeed crosses back
    as one run (pickled once), and the outcomes are the same."""

    plain_values = True

    def __call__(self, item: object) -> object:
        return job(item)


@pytest.mark.parametrize("chunksize", [1, 3])
def test_plain_values_keep_every_good_record_and_their_attempts(chunksize: int) -> None:
    """Runs of plain values through lacak's pool, with workers killed among them: the
    jobs of a chunk run again after a death count their attempts (``lambda`` is left
    out: it is not plain data, and a broken promise costs its whole chunk)."""
    items = [item for item in MIXED if item != "lambda"]
    records = run_many(PlainJob(), items, workers=2, chunksize=chunksize)
    assert [r.index for r in records] == list(range(len(items)))
    for record, item in zip(records, items, strict=True):
        if isinstance(item, int):
            assert record.ok and record.value == item * 2 and 1 <= record.attempts <= 2
        elif item in ("exit", "kill"):
            assert isinstance(record.error, lacak.WorkerDiedError) and record.attempts == 2
        elif item == "slow":
            assert record.value == "slow done"
        else:
            assert not record.ok


def test_a_run_after_a_death_counts_its_jobs_attempts() -> None:
    """Job 0 ran before job 1 killed its worker in the same chunk: it runs again (in a
    run of its own) and says it was started twice."""
    records = run_many(PlainJob(), [3, "kill", 4], workers=2, chunksize=3)
    assert [(r.value, r.attempts) for r in records[::2]] == [(6, 2), (8, 1)]
    assert isinstance(records[1].error, lacak.WorkerDiedError)


@pytest.mark.parametrize("failing", [1, 2])
def test_a_pool_found_broken_as_a_chunk_is_sent_loses_nothing(
    monkeypatch: pytest.MonkeyPatch, failing: int
) -> None:
    """A worker may die between two waits: lacak's pool is then broken when the next
    chunk is sent. That chunk never ran; it is sent again (to a fresh pool when nothing
    is in flight, the first call; else once what is in flight is mended)."""
    import concurrent.futures.process as cfp

    submit = cfp.ProcessPoolExecutor.submit
    calls = []

    def breaking(self: cfp.ProcessPoolExecutor, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        calls.append(fn)
        if len(calls) == failing:
            raise cfp.BrokenProcessPool("a child process terminated abruptly (simulated)")
        return submit(self, fn, *args, **kwargs)

    monkeypatch.setattr(cfp.ProcessPoolExecutor, "submit", breaking)
    records = run_many(job, list(range(10)), workers=2, chunksize=2)
    assert [r.value for r in records] == [2 * i for i in range(10)]
    assert all(r.ok and r.attempts == 1 for r in records)
    assert len(calls) == 6  # five chunks, one of them sent twice


def test_a_job_that_dies_with_no_note_is_still_found(monkeypatch: pytest.MonkeyPatch) -> None:
    """If lacak cannot tell which job a dead worker ran, it runs the unfinished jobs
    once more as they were, then each alone: the good ones still come back."""
    import lacak.batch

    monkeypatch.setattr(lacak.batch.pool, "_running", lambda markers: {})
    records = run_many(job, [1, "kill", 2, 3], workers=2)
    assert [r.value for r in records] == [2, None, 4, 6]
    died = records[1].error
    assert isinstance(died, lacak.WorkerDiedError) and died.exitcode == -signal.SIGKILL


def test_a_caller_s_executor_stays_usable_after_job_errors() -> None:
    puzzles = [lacak.generate("sliding", "walk", (2, 2), seed=s, moves=4) for s in range(3)]
    with concurrent.futures.ProcessPoolExecutor(2) as pool:
        records = run_many(job, [1, "raise", "unpicklable", 2], executor=pool)
        assert [r.value for r in records] == [2, None, None, 4]
        assert isinstance(records[1].error, ValueError)
        unknown = lacak.batch.solve_many(puzzles, "nosuch", executor=pool)
        for record in unknown:
            error = record.error
            assert isinstance(error, lacak.UnknownComponentError) and error.name == "nosuch"
            assert "unknown strategy 'nosuch'" in str(error)
        solved = lacak.batch.solve_many(puzzles, "bfs", executor=pool)
        assert [r.unwrap().length for r in solved] == [
            lacak.solve(p, "bfs").length for p in puzzles
        ]
        assert pool.submit(abs, -5).result() == 5


def test_a_caller_s_broken_pool_keeps_finished_records_and_retries_nothing() -> None:
    items = [1, 2, 3, "slow", "kill", 4, 5, 6]
    with concurrent.futures.ProcessPoolExecutor(2) as pool:
        assert pool.submit(abs, -1).result() == 1  # the workers are up
        records = run_many(job, items, executor=pool)
    assert [r.index for r in records] == list(range(len(items)))
    assert all(r.attempts == 1 for r in records)
    assert [r.value for r in records[:3]] == [2, 4, 6]  # finished before the death
    killed = records[4].error
    assert isinstance(killed, lacak.WorkerDiedError) and "not retried" in str(killed)
    assert killed.exitcode in (None, -signal.SIGKILL)
    for record in records[3:]:
        assert record.ok or isinstance(record.error, lacak.JobError)
    assert any(isinstance(r.error, lacak.JobError) for r in records[5:])


def test_in_this_process_errors_are_kept_as_they_were() -> None:
    records = run_many(job, [1, "raise", "unpicklable", 2], workers=1)
    assert [r.value for r in records] == [2, None, None, 4]
    assert isinstance(records[2].error, Unpicklable)  # nothing was pickled
    assert "boom in a job" in (records[1].traceback or "")


def test_threads_and_streaming() -> None:
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        records = list(iter_many(job, [1, "raise", 2, "lambda"], executor=pool, chunksize=2))
    assert sorted(r.index for r in records) == [0, 1, 2, 3]
    by_index = {r.index: r for r in records}
    assert by_index[0].value == 2 and by_index[2].value == 4
    assert isinstance(by_index[1].error, ValueError) and by_index[3].ok  # threads do not pickle
    stream = iter_many(job, ["slow"] * 6, workers=2)
    first = next(stream)
    assert first.value == "slow done"
    stream.close()  # the jobs not started are cancelled, the pool shut down


def test_dask_keeps_records_too() -> None:
    import distributed

    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2,
                            dashboard_address=None) as client:  # fmt: skip
        records = run_many(job, [1, "raise", "unpicklable", 2], executor=client.get_executor())
    assert [r.value for r in records] == [2, None, None, 4]
    assert isinstance(records[1].error, ValueError)
    assert isinstance(records[2].error, lacak.JobError)


class Finished:
    """A job in two halves: ``job``, then ``finish`` (run once every job of a chunk has
    run), which fails as its value says: the second half's failure is its job's alone."""

    def __call__(self, item: object) -> object:
        return ("first half", job(item) if item not in ("finish-raise", "finish-exit") else item)

    def finish(self, value: tuple[str, object]) -> object:
        half, item = value
        assert half == "first half"
        if item == "finish-raise":
            raise ValueError("boom in finish")
        if item == "finish-exit":
            os._exit(3)
        return ("finished", item)


FINISHED = [1, "finish-raise", 2, "raise", 3, "finish-exit", 4, "lambda", 5]


@pytest.mark.parametrize("where", ["here", "threads", "pool"])
@pytest.mark.parametrize("chunksize", [1, 4])
def test_a_job_s_second_half_runs_after_the_chunk_and_fails_alone(where: str,
                                                                  chunksize: int) -> None:
    """``function.finish`` makes each value final after the chunk's jobs ran, wherever
    they run; one that raises (or kills its worker) is that job's error, noted as such."""
    items = FINISHED if where == "pool" else [i for i in FINISHED if i != "finish-exit"]
    if where == "threads":
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            records = run_many(Finished(), items, executor=pool, chunksize=chunksize)
    else:
        records = run_many(Finished(), items, workers=2 if where == "pool" else 1,
                           chunksize=chunksize)  # fmt: skip
    assert [r.index for r in records] == list(range(len(items)))
    for record, item in zip(records, items, strict=True):
        if isinstance(item, int):
            assert record.ok and record.value == ("finished", item * 2)
        elif item == "finish-raise":
            assert isinstance(record.error, ValueError) and "boom in finish" in str(record.error)
            assert "in finish" in (record.traceback or "")
        elif item == "raise":  # the first half's error: finish never sees it
            assert isinstance(record.error, ValueError) and "boom in a job" in str(record.error)
        elif item == "finish-exit":
            died = record.error
            assert isinstance(died, lacak.WorkerDiedError) and died.index == record.index
            assert died.exitcode == 3 and record.attempts == 2
        else:  # "lambda": finished, then it cannot cross back from a worker
            if where == "pool":
                assert isinstance(record.error, lacak.JobError)
                assert "cannot be pickled" in str(record.error)
            else:
                assert record.ok and record.value[0] == "finished"


@settings(max_examples=40, deadline=None)
@given(
    items=st.lists(st.integers(-5, 5) | st.sampled_from(["raise", "unpicklable", "lambda"]),
                   max_size=12),
    chunksize=st.integers(1, 4),
    where=st.sampled_from(["here", "threads"]),
    plain=st.booleans(),
)  # fmt: skip
def test_one_record_per_job_in_order(items: list[object], chunksize: int, where: str,
                                     plain: bool) -> None:  # fmt: skip
    """Whatever mix of jobs, every job has exactly one record, in order, and a
    job's record does not depend on the others (nor on whether its values come back
    a run at a time)."""
    function = PlainJob() if plain else job
    if where == "here":
        records = run_many(function, items, workers=1, chunksize=chunksize)
    else:
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            records = run_many(function, items, executor=pool, chunksize=chunksize)
    assert [r.index for r in records] == list(range(len(items)))
    for record, item in zip(records, items, strict=True):
        assert record.attempts == 1
        if isinstance(item, int):
            assert record.ok and record.value == 2 * item
        elif item == "lambda":
            assert record.ok and callable(record.value)  # nothing pickled here
        else:
            assert not record.ok and record.value is None
            assert isinstance(record.error, ValueError if item == "raise" else Unpicklable)


@pytest.mark.parametrize(
    "arguments", [{"workers": 0}, {"workers": True}, {"chunksize": 0},
                  {"workers": 2, "executor": concurrent.futures.ThreadPoolExecutor(1)}],
)  # fmt: skip
def test_bad_batch_options(arguments: dict[str, object]) -> None:
    with pytest.raises(lacak.InvalidOptionError):
        run_many(abs, [1, 2], **arguments)  # type: ignore[arg-type]


# -- every LacakError pickles ------------------------------------------------------------


def all_lacak_errors() -> list[type[lacak.LacakError]]:
    """Every LacakError class: those of lacak.errors and the plugins' own."""
    lacak.default_registry()  # the plugins' modules are imported
    found: set[type[lacak.LacakError]] = set()
    stack = [lacak.LacakError]
    while stack:
        cls = stack.pop()
        if cls not in found:
            found.add(cls)
            stack.extend(cls.__subclasses__())
    in_module = {c for _, c in inspect.getmembers(lacak.errors, inspect.isclass)
                 if issubclass(c, lacak.LacakError)}  # fmt: skip
    assert in_module <= found and len(in_module) >= 13
    return sorted(found, key=lambda c: (c.__module__, c.__qualname__))


def make_error(cls: type[lacak.LacakError], message: str) -> lacak.LacakError:
    if issubclass(cls, lacak.UnknownComponentError):
        return cls("strategy", message, ["bfs", message + "x", "dfs"])
    if issubclass(cls, lacak.WorkerDiedError):
        return cls(message, index=3, exitcode=-9, attempts=2)
    if issubclass(cls, lacak.JobError):
        return cls(message, index=4, type_name="mod.Thing")
    error = cls(message)
    if isinstance(error, lacak.DictionaryError):
        error.path, error.line, error.column = "words.json", 3, 14
    return error


def tblib_dumps(error: BaseException) -> bytes:
    """Pickled as ``tblib`` pickles exceptions once Dask has installed it (making them
    with ``cls.__new__`` and setting their attributes, not calling ``__init__``)."""
    from tblib.pickling_support import pickle_exception

    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer)
    pickler.dispatch_table = {type(error): pickle_exception}
    pickler.dump(error)
    return buffer.getvalue()


@given(message=st.text(max_size=40), dumps=st.sampled_from([pickle.dumps, tblib_dumps]))
def test_every_lacak_error_pickles_with_its_message_and_fields(message: str, dumps) -> None:
    for cls in all_lacak_errors():
        error = make_error(cls, message)
        again = pickle.loads(dumps(error))
        assert type(again) is cls
        assert str(again) == str(error)
        assert again.args == error.args
        assert vars(again) == vars(error)
        if isinstance(error, lacak.UnknownComponentError):
            assert (again.what, again.name, again.available, again.suggestions) == (
                error.what, error.name, error.available, error.suggestions)  # fmt: skip
        if isinstance(error, lacak.DictionaryError):
            assert (again.path, again.line, again.column) == ("words.json", 3, 14)
