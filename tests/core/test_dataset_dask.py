"""``lacak batch`` on a real Dask ``LocalCluster`` (two worker processes on 127.0.0.1): the
same bytes as lacak's own pool and as one process, for every built-in kind, and no
record lost when a worker is killed. One cluster serves the whole module (it is slow
to start)."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from lacak.batch import dataset
from lacak.cli import make_cli

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """A LocalCluster of two worker processes, started as ``--scheduler local:2`` starts it."""
    with dataset.dask_executor("local:2") as (executor, threads):
        assert threads == 2
        yield executor


def address(executor: Any) -> str:
    return str(executor.client.scheduler.address)


BATCHES = {
    "maze": ["-a", "wilson", "--size", "9x7", "-n", "60", "--solution", "--solve"],
    "sliding": ["--size", "3x3", "-n", "40", "--uniform"],
    "boggle": ["-n", "40", "--dice", "big5"],
}


@pytest.mark.parametrize("kind", sorted(BATCHES))
def test_dask_lacak_s_pool_and_one_process_write_the_same_bytes(
    cluster: Any, kind: str, tmp_path: Path
) -> None:
    files = {}
    for name, how in (("dask", ["--scheduler", address(cluster), "--chunk-size", "3"]),
                      ("pool", ["-w", "2"]), ("one", ["-w", "1"])):  # fmt: skip
        out = tmp_path / f"{name}.jsonl.gz"
        result = CliRunner().invoke(make_cli(), ["batch", kind, *BATCHES[kind], "--seed", "5",
                                                 *how, "-o", str(out)])  # fmt: skip
        assert result.exit_code == 0, result.output
        files[name] = out.read_bytes()
    assert files["dask"] == files["pool"] == files["one"]


@pytest.mark.parametrize("kind", sorted(BATCHES))
def test_dask_writes_a_task_batch_as_lacak_s_pool_does(
    cluster: Any, kind: str, tmp_path: Path
) -> None:
    files = {}
    for name, how in (("dask", ["--scheduler", address(cluster), "--chunk-size", "3"]),
                      ("pool", ["-w", "2"])):  # fmt: skip
        out = tmp_path / f"{name}.jsonl"
        result = CliRunner().invoke(make_cli(), ["batch", kind, "--task", "--level", "2", "-n",
                                                 "20", "--seed", "5", *how, "-o", str(out)])  # fmt: skip
        assert result.exit_code == 0, result.output
        files[name] = out.read_bytes()
    assert files["dask"] == files["pool"]


def test_a_killed_dask_worker_loses_no_record(cluster: Any) -> None:
    client = cluster.client
    spec = dataset.spec("sliding", size=(3, 3), kind_options={"uniform": True})
    expected = [r.line for r in dataset.records(spec, count=200, seed=2, workers=1)]
    lines = []
    for record in dataset.records(spec, count=200, seed=2, executor=cluster, chunksize=1):
        lines.append(record.line)
        if len(lines) == 5:
            pids = client.run(os.getpid)
            os.kill(next(iter(pids.values())), signal.SIGKILL)
    assert lines == expected
