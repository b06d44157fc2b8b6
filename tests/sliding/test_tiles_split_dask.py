"""``idastar-tiles`` split across a real Dask ``LocalCluster`` (two worker processes on
127.0.0.1): the one-process answer and counts on Korf instances, through the library and
``lacak sliding solve --scheduler``; a worker killed mid-search loses nothing."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from collections.abc import Iterator
from typing import Any

import lacak
import pytest
from click.testing import CliRunner
from lacak import Limits
from lacak.batch import dataset
from lacak.cli import make_cli
from lacak_sliding import korf
from lacak_sliding.generators import random_walk

from .test_tiles_split import summary

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A LocalCluster of two worker processes, started as ``--scheduler local:2`` starts
    it; its workers (and this process) keep databases in a private cache."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("LACAK_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "lacak-cache"))
        with dataset.dask_executor("local:2") as (executor, threads):
            assert threads == 2
            yield executor


def one(puzzle: Any, heuristic: str, **kwargs: Any) -> lacak.SearchResult:
    return lacak.solve(puzzle, "idastar-tiles", heuristic=heuristic, **kwargs)


@pytest.mark.parametrize("item", [i for i in korf.instances() if i.length <= 42],
                         ids=lambda i: f"korf{i.id}-{i.length}")  # fmt: skip
def test_korf_instances_on_a_local_cluster(cluster: Any, item: korf.KorfInstance) -> None:
    puzzle = korf.puzzle(item)
    expected = one(puzzle, "pdb-555")
    split = one(puzzle, "pdb-555", executor=cluster)
    assert split.length == item.length
    assert summary(split) == summary(expected)


def test_korf_instance_cut_short_on_a_local_cluster(cluster: Any) -> None:
    puzzle = korf.puzzle(korf.instances()[0])
    limits = Limits(max_depth=47)
    expected = one(puzzle, "linear-conflict", limits=limits)
    split = one(puzzle, "linear-conflict", limits=limits, executor=cluster, split_depth=8)
    assert summary(split) == summary(expected)


def test_cli_scheduler_gives_the_one_process_answer(cluster: Any) -> None:
    address = str(cluster.client.scheduler.address)
    board = " ".join(map(str, korf.instances()[41].tiles))  # korf 42, 42 moves
    answers = []
    for extra in ([], ["--scheduler", address]):
        result = CliRunner().invoke(make_cli(), ["sliding", "solve", board, "-H", "pdb-555",
                                                 "--json", "--goal", " ".join(map(str, range(16))),
                                                 *extra])  # fmt: skip
        assert result.exit_code == 0, result.output
        data = json.loads(result.output)
        del data["stats"]["seconds"]
        answers.append(data)
    assert answers[0] == answers[1]


def test_a_killed_dask_worker_loses_nothing(cluster: Any) -> None:
    client = cluster.client
    puzzle = random_walk((4, 4), moves=80, seed=11)  # 48 moves, 2.3 million nodes
    expected = one(puzzle, "manhattan")
    killed: list[int] = []

    def kill() -> None:
        time.sleep(1.0)
        pids = client.run(os.getpid)
        pid = next(iter(pids.values()))
        os.kill(pid, signal.SIGKILL)
        killed.append(pid)

    thread = threading.Thread(target=kill, daemon=True)
    thread.start()
    split = one(puzzle, "manhattan", executor=cluster, split_depth=6)
    thread.join()
    assert killed
    assert summary(split) == summary(expected)
