"""Batches as records (lacak.batch.dataset, ``lacak batch``): in job order whatever runs them,
streamed, resumable byte for byte, failures kept as data."""

from __future__ import annotations

import concurrent.futures
import gzip
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import lacak
import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak.batch import dataset, derive_seeds, iter_many, job_seed
from lacak.cli import make_cli
from lacak.plugin.registry import using

from .plugin_helpers import tick_registry

TICK = tick_registry()


def tick_lines(count: int, seed: int = 3, **run: Any) -> list[bytes]:
    """The record lines of a batch of tick puzzles, solved (every 7th seed's job raises)."""
    spec = dataset.spec("tick", solve=True, options={"fail_every": 7}, registry=TICK)
    with using(TICK):
        return [record.line for record in dataset.records(spec, count=count, seed=seed, **run)]


SERIAL = tick_lines(40, workers=1)


def cli(*args: str) -> Any:
    return CliRunner().invoke(make_cli(TICK), ["batch", "tick", *args])


# -- seeds and streaming -------------------------------------------------------------------


@given(seed=st.integers(0, 2**70), count=st.integers(0, 12), index=st.integers(0, 11))
def test_a_job_s_seed_is_the_same_however_many_jobs(seed: int, count: int, index: int) -> None:
    seeds = derive_seeds(seed, count)
    assert seeds == [job_seed(seed, i) for i in range(count)]
    if index < count:
        assert derive_seeds(seed, index + 1)[index] == seeds[index]


def test_records_are_json_in_the_documented_shape() -> None:
    records = [json.loads(line) for line in SERIAL]
    assert [r["index"] for r in records] == list(range(40))
    assert all(r["seed"] == job_seed(3, r["index"]) for r in records)
    good = [r for r in records if r["ok"]]
    assert good and all(list(r) == ["index", "seed", "ok", "instance", "result", "digest"]
                        for r in good)  # fmt: skip
    for record in good:
        assert record["instance"] == {"target": record["seed"] % 40}
        assert record["result"]["length"] == (record["seed"] % 40 + 1) // 2
        assert record["result"]["stats"]["seconds"] is None  # no clock in a record
    assert all(line.endswith(b"}\n") and line.count(b"\n") == 1 for line in SERIAL)


@settings(max_examples=30, deadline=None)
@given(count=st.integers(0, 40), chunk=st.integers(1, 6), threads=st.integers(1, 3))
def test_records_do_not_depend_on_workers_or_chunks(count: int, chunk: int, threads: int) -> None:
    with concurrent.futures.ThreadPoolExecutor(threads) as pool:
        lines = tick_lines(count, executor=pool, chunksize=chunk)
    assert lines == SERIAL[:count]


@pytest.mark.parametrize("chunk", [1, 4, None])
def test_a_process_pool_gives_the_same_records(chunk: int | None) -> None:
    assert tick_lines(40, workers=2, chunksize=chunk) == SERIAL


@settings(max_examples=25, deadline=None)
@given(count=st.integers(0, 60), chunk=st.integers(1, 5), window=st.integers(1, 4),
       ordered=st.booleans())  # fmt: skip
def test_iter_many_reads_items_as_it_needs_them(count: int, chunk: int, window: int,
                                                ordered: bool) -> None:  # fmt: skip
    """Items are read lazily: never more than the window's worth ahead of what was
    given back, so memory stays flat however long the batch."""
    read = [0]

    def items() -> Iterator[int]:
        for item in range(count):
            read[0] += 1
            yield item

    given_back = []
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        for outcome in iter_many(abs, items(), executor=pool, chunksize=chunk, window=window,
                                 ordered=ordered, start=5):  # fmt: skip
            given_back.append(outcome.index)
            waiting = lacak.batch.WAITING_PER_WINDOW * window * chunk
            assert read[0] - len(given_back) <= waiting + 2 * window * chunk + chunk
    expected = list(range(5, 5 + count))
    assert given_back == expected if ordered else sorted(given_back) == expected


def test_a_growing_chunk_size_is_asked_for_each_chunk() -> None:
    asked = []

    def size() -> int:
        asked.append(len(asked) + 1)
        return asked[-1]

    records = list(iter_many(abs, range(-10, 0), workers=2, chunksize=size, ordered=True))
    assert [r.value for r in records] == list(range(10, 0, -1))
    assert asked[:4] == [1, 2, 3, 4]  # chunks of 1, 2, 3 and 4 jobs: all ten
    with pytest.raises(lacak.InvalidOptionError, match="a chunk size must be a positive"):
        list(iter_many(abs, range(5), workers=2, chunksize=lambda: 0))


def test_a_spec_finds_its_generator_again_when_the_plugins_change() -> None:
    """A process looks a spec's generator up once, and again after a plugin is added or
    removed: a batch never runs a generator its registry no longer has."""
    from .plugin_helpers import TickPlugin, make_registry, make_tick

    def make_tock(size: Any, seed: int, kinds: int = 40) -> Any:
        return make_tick(size, seed + 1, kinds=kinds)

    class Tock:
        @lacak.hookimpl
        def register_generators(self, register: Any) -> None:
            register(lacak.Generator(kind="tick", name="count", make=make_tock,
                                     options={"kinds": 40}))  # fmt: skip

    registry = make_registry(TickPlugin())
    spec = dataset.spec("tick", registry=registry)

    def lines() -> list[bytes]:
        with using(registry):
            return [r.line for r in dataset.records(spec, count=3, seed=5, workers=1)]

    before = lines()
    assert lines() == before
    registry.remove_plugin("plugin0")
    registry.add_plugin(Tock(), name="tock")
    after = lines()
    targets = [json.loads(line)["instance"]["target"] for line in after]
    seeds = [json.loads(line)["seed"] for line in after]
    assert targets == [(seed + 1) % 40 for seed in seeds] and after != before
    registry.remove_plugin("tock")
    with pytest.raises(lacak.UnknownComponentError):
        lines()


# -- failures are data ---------------------------------------------------------------------


def test_a_raising_job_is_its_record_and_the_rest_go_on() -> None:
    records = [json.loads(line) for line in SERIAL]
    failed = [r for r in records if not r["ok"]]
    assert failed and all(r["seed"] % 7 == 0 for r in failed)
    assert all(r["ok"] for r in records if r["seed"] % 7)
    for record in failed:
        assert list(record) == ["index", "seed", "ok", "error", "digest"]
        assert record["error"]["type"] == "PluginError"
        assert f"no tick for seed {record['seed']}" in record["error"]["message"]


def test_the_summary_counts_failures_and_the_exit_status_says_so(tmp_path: Path) -> None:
    out = tmp_path / "ticks.jsonl"
    result = cli("-n", "40", "--seed", "3", "-O", "fail_every=7", "--solve", "-w", "2",
                 "-o", str(out), "--json")  # fmt: skip
    assert result.exit_code == 1, result.output
    summary = json.loads(result.stdout)
    failed = sum(1 for line in SERIAL if b'"ok":false' in line)
    assert summary["records"] == 40 and summary["failed"] == failed
    assert summary["ok"] == 40 - failed and summary["errors"] == {"PluginError": failed}
    assert summary["complete"] and not summary["succeeded"]
    assert out.read_bytes() == b"".join(SERIAL)
    fine = cli("-n", "5", "--seed", "3", "-O", "kinds=4", "-o", str(tmp_path / "fine.jsonl"))
    assert fine.exit_code == 0, fine.output


def test_a_limit_is_a_failed_record_with_its_error() -> None:
    spec = dataset.spec("tick", solve=True, strategy="bfs", limits=lacak.Limits(max_expanded=2),
                        options={"kinds": 40}, registry=TICK)  # fmt: skip
    with using(TICK):
        records = [r.data() for r in dataset.records(spec, count=20, seed=1, workers=1)]
    stopped = [r for r in records if r["result"]["stopped"] == "node-limit"]
    assert stopped and all(not r["ok"] for r in stopped)
    assert all(r["error"]["type"] == "LimitReachedError" for r in stopped)
    assert all(r["ok"] for r in records if r["result"]["found"])


def test_bad_input_stops_the_batch_before_it_writes(tmp_path: Path) -> None:
    result = cli("-n", "5", "-s", "nosuch", "-o", str(tmp_path / "x.jsonl"))
    assert result.exit_code == 2
    assert "unknown strategy 'nosuch'" in result.stderr
    result = cli("-n", "5", "-H", "nosuch", "--solve", "-s", "astar",
                 "-o", str(tmp_path / "y.jsonl"))  # fmt: skip
    assert result.exit_code == 2 and "Error:" in result.stderr
    assert not (tmp_path / "y.jsonl").read_bytes()


def _same_program(child: Any, me: Any, psutil: Any) -> bool:
    """Whether ``child`` runs what this process runs (a pool worker); a child that has
    ended meanwhile (another test's, not yet reaped) is none."""
    try:
        return bool(child.cmdline() == me.cmdline())
    except (psutil.ZombieProcess, psutil.NoSuchProcess):
        return False


def test_a_killed_worker_loses_no_record() -> None:
    """A worker of lacak's pool killed in the middle of a batch: its job runs again, and
    the records are those of a run with no death."""
    psutil = pytest.importorskip("psutil")

    spec = dataset.spec("tick", solve=True, options={"fail_every": 7, "pause": 0.02},
                        registry=TICK)  # fmt: skip
    me = psutil.Process()
    killed = []
    lines = []
    with using(TICK):
        for record in dataset.records(spec, count=40, seed=3, workers=2, chunksize=2):
            lines.append(record.line)
            if len(lines) == 4:
                workers = [p for p in me.children() if _same_program(p, me, psutil)]
                workers[0].send_signal(signal.SIGKILL)
                killed.append(workers[0].pid)
    assert killed and lines == SERIAL


# -- drawing again ---------------------------------------------------------------------------


def test_unique_and_length_bounds_draw_again() -> None:
    spec = dataset.spec("tick", options={"kinds": 9}, min_length=2, max_length=3, unique=True,
                        registry=TICK)  # fmt: skip
    summary = dataset.Summary("tick", 4)
    with using(TICK):
        records = [r.data() for r in dataset.records(spec, count=4, seed=5, workers=2,
                                                     summary=summary)]  # fmt: skip
    targets = [r["instance"]["target"] for r in records]
    assert len(set(targets)) == 4 and all(3 <= t <= 6 for t in targets)  # lengths 2 and 3
    indices = [r["index"] for r in records]
    assert indices == sorted(indices) and indices[-1] >= 4
    assert sum(summary.rejected.values()) == indices[-1] + 1 - 4
    assert all(r["seed"] == job_seed(5, r["index"]) for r in records)
    with using(TICK):
        again = [r.data() for r in dataset.records(spec, count=4, seed=5, workers=1)]
    assert again == records


def test_a_batch_that_cannot_be_made_gives_up(monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Path) -> None:  # fmt: skip
    monkeypatch.setattr(dataset, "MAX_REJECTED", 30)
    out = tmp_path / "few.jsonl"
    result = cli("-n", "5", "-O", "kinds=3", "--unique", "-w", "1", "-o", str(out), "--json")
    assert result.exit_code == 1
    assert "gave up: 30 draws in a row were rejected (duplicates: " in result.stderr
    assert "the generator cannot make 5 such instances" in result.stderr
    summary = json.loads(result.stdout)
    assert summary["records"] == 3 and not summary["complete"]
    assert len(out.read_bytes().splitlines()) == 3


# -- files, interruptions, resume ------------------------------------------------------------


@pytest.mark.parametrize("name", ["t.jsonl", "t.jsonl.gz"])
@pytest.mark.parametrize("cut", [0, 1, 17, 39])
def test_resume_finishes_a_cut_file_byte_for_byte(tmp_path: Path, name: str, cut: int) -> None:
    whole, part = tmp_path / "whole" / name, tmp_path / "part" / name
    whole.parent.mkdir(), part.parent.mkdir()
    args = ["-n", "40", "--seed", "3", "-O", "fail_every=7", "--solve"]
    assert cli(*args, "-o", str(whole)).exit_code == 1
    kept = b"".join(SERIAL[:cut]) + SERIAL[cut][:25]  # a crash in the middle of a line
    part.write_bytes(gzip.compress(kept, mtime=0)[:-8] if name.endswith(".gz") else kept)
    result = cli(*args, "-o", str(part), "--resume", "-w", "2", "--json")
    assert result.exit_code == 1, result.output
    summary = json.loads(result.stdout)
    assert (summary["records"], summary["written"]) == (40, 40 - cut)
    assert part.read_bytes() == whole.read_bytes()
    data = gzip.decompress(whole.read_bytes()) if name.endswith(".gz") else whole.read_bytes()
    assert data == b"".join(SERIAL)


def test_resume_refuses_another_batch_s_file(tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    assert cli("-n", "6", "--seed", "3", "-o", str(out)).exit_code == 0
    other_seed = cli("-n", "9", "--seed", "4", "-o", str(out), "--resume")
    assert other_seed.exit_code == 2 and "not a record of this batch" in other_seed.stderr
    other_options = cli("-n", "9", "--seed", "3", "-O", "kinds=5", "-o", str(out), "--resume")
    assert other_options.exit_code == 2
    assert "was not written by this command" in other_options.stderr
    exists = cli("-n", "9", "--seed", "3", "-o", str(out))
    assert exists.exit_code == 2 and "--resume finishes it, --overwrite replaces it" in exists.stderr
    assert cli("-n", "9", "--seed", "3", "-o", str(out), "--resume").exit_code == 0
    assert len(out.read_bytes().splitlines()) == 9
    fewer = cli("-n", "4", "--seed", "3", "-o", str(out), "--resume")
    assert fewer.exit_code == 2 and "more than the 4 asked for" in fewer.stderr


@pytest.mark.parametrize("name", ["m.jsonl", "m.jsonl.gz", "m.npz"])
def test_ctrl_c_leaves_a_whole_file_that_resume_finishes(tmp_path: Path, name: str) -> None:
    """A real interruption (SIGINT, as Ctrl-C sends) of a real ``lacak`` process."""
    args = [sys.executable, "-m", "lacak", "batch", "maze", "--size", "12x12", "-n", "3000",
            "--solution", "--seed", "9", "-w", "2"]  # fmt: skip
    whole, part = tmp_path / "whole" / name, tmp_path / "part" / name
    whole.parent.mkdir(), part.parent.mkdir()
    env = {**os.environ, "LACAK_PROGRESS": "0"}
    process = subprocess.Popen([*args, "-o", str(part)], stderr=subprocess.PIPE, env=env)
    journal = part.with_name(name + ".jsonl") if name.endswith(".npz") else part
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not any(f.stat().st_size for f in part.parent.iterdir()):
        time.sleep(0.05)  # (a .gz file is written beside its name, and moved there when closed)
    time.sleep(0.3)
    process.send_signal(signal.SIGINT)
    _out, err = process.communicate(timeout=60)
    if process.returncode == 0:
        pytest.skip("the batch finished before it could be interrupted")
    assert process.returncode == 130, err.decode()
    assert "--resume to finish it" in err.decode()
    kept = journal.read_bytes()
    kept = gzip.decompress(kept) if name.endswith(".gz") else kept
    assert kept.endswith(b"\n") and 0 < kept.count(b"\n") < 3000
    assert all(json.loads(line)["index"] == i for i, line in enumerate(kept.splitlines()))
    subprocess.run([*args, "-o", str(part), "--resume"], check=True, env=env,
                   capture_output=True)  # fmt: skip
    subprocess.run([*args, "-o", str(whole)], check=True, env=env, capture_output=True)
    assert part.read_bytes() == whole.read_bytes()
    assert not journal.exists() or journal == part


def test_npz_stacks_the_declared_arrays(tmp_path: Path) -> None:
    out = tmp_path / "mazes.npz"
    result = CliRunner().invoke(make_cli(), ["batch", "maze", "-a", "kruskal", "--size", "5x7",
                                             "-n", "30", "--solution", "-o", str(out)])  # fmt: skip
    assert result.exit_code == 0, result.output
    arrays = np.load(out)
    assert arrays["cells"].shape == (30, 5, 7) and arrays["cells"].dtype == np.uint8
    assert arrays["start"].shape == (30, 2) and arrays["ok"].all()
    assert list(arrays["index"]) == list(range(30))
    assert list(arrays["seed"]) == derive_seeds(0, 30)
    for i in (0, 29):
        maze = lacak.generate("maze", "kruskal", (5, 7), seed=int(arrays["seed"][i]))
        maze = maze.with_endpoints(solution=True)
        assert (arrays["cells"][i] == maze.cells).all()
        cells = int(arrays["solution_shape"][i][0])
        assert [tuple(c) for c in arrays["solution"][i][:cells]] == list(maze.solution)
        assert (arrays["solution"][i][cells:] == -1).all()
    assert not (tmp_path / "mazes.npz.jsonl").exists()


def test_output_options_that_cannot_be(tmp_path: Path) -> None:
    nowhere = cli("-n", "2", "-o", str(tmp_path / "t.npz"))
    assert nowhere.exit_code == 2 and "declare no arrays" in nowhere.stderr
    assert cli("-n", "2", "--json").exit_code == 2
    assert "--resume needs the file" in cli("-n", "2", "--resume").stderr
    both = cli("-n", "2", "-w", "2", "--scheduler", "local:2")
    assert both.exit_code == 2 and "give one" in both.stderr
    assert "pyarrow read JSON Lines" in cli("-n", "2", "-o", str(tmp_path / "t.parquet")).stderr


def test_records_go_to_standard_output_without_a_file() -> None:
    result = cli("-n", "3", "--seed", "3", "-O", "fail_every=7", "--solve")
    assert result.exit_code == 1  # (the first job raises)
    assert result.stdout_bytes == b"".join(SERIAL[:3])


def test_without_dask_the_scheduler_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    result = cli("-n", "2", "--scheduler", "tcp://127.0.0.1:1")
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "Error: --scheduler needs Dask, which is not installed: pip install 'lacak[dask]'"
    )


@settings(max_examples=100)
@given(seed=st.integers(0, 2**70) | st.sampled_from([0, 2**32 - 1, 2**32, 2**130]),
       first=st.integers(0, 2**33) | st.sampled_from([0, 2**32 - 300, 2**32 - 1]),
       count=st.integers(0, 300))  # fmt: skip
def test_job_seeds_made_together_are_those_made_one_by_one(seed: int, first: int,
                                                          count: int) -> None:
    from lacak.batch.seeds import _mixer

    mixer = _mixer(seed)
    assert mixer.children(first, count) == [job_seed(seed, i) for i in range(first, first + count)]


@settings(max_examples=200)
@given(seed=st.integers(0, 2**70) | st.sampled_from([0, 2**32 - 1, 2**32, 2**128, 2**130]),
       index=st.integers(0, 2**40) | st.sampled_from([0, 2**32 - 1, 2**32]))  # fmt: skip
def test_job_seeds_are_numpy_s_seed_sequence_children(seed: int, index: int) -> None:
    child = np.random.SeedSequence(seed, spawn_key=(index,))
    assert job_seed(seed, index) == int(child.generate_state(2, np.uint32).view(np.uint64)[0] >> 1)
