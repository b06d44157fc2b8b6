"""What requests leave on the server's disk and in its workers: the cache files they write
are capped (``Caps.max_cache_bytes``, the largest removed first, :func:`lacak.store.cache.trim`),
what was in the cache when the server started stays, and a worker grown past its share of
memory is replaced after its job (``Pool(recycle_mb=...)``)."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import lacak
import pytest
from fastapi.testclient import TestClient
from lacak.store import cache
from lacak.web.pool import Pool

from .conftest import SMALL, make_app

FORMAT = cache.CacheFormat(tag="lacak-test-table", version=1, what="the test table")


def _saved(path: Path, size: int, *, mtime: float | None = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    assert cache.save(path, FORMAT, path.stem, [bytes(size)], meta={})
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return path


def _mine(root: Path, since: float) -> list[Path]:
    """lacak's cache files under ``root`` written at or after ``since``."""
    return sorted(
        path for path in root.rglob("*")
        if path.is_file() and path.stat().st_mtime >= since
        and path.read_bytes()[:8] == cache.MAGIC
    )  # fmt: skip


def test_trim_removes_the_largest_files_first_and_small_ones_stay(tmp_path: Path) -> None:
    since = time.time() - 1000
    engine = _saved(tmp_path / "engines" / "m.bin", 2_000, mtime=since + 1)  # oldest, small
    tables = [_saved(tmp_path / "pdb" / f"g{i}.pdb", 30_000 + i, mtime=since + 2 + i)
              for i in range(3)]  # fmt: skip
    removed = cache.trim(tmp_path, 40_000, since=since)
    assert removed == [tables[2], tables[1]]
    assert engine.exists() and tables[0].exists()


def test_trim_removes_the_oldest_of_equal_files_written_since_until_they_fit(tmp_path: Path) -> None:
    since = time.time() - 1000
    old = _saved(tmp_path / "pdb" / "old.pdb", 50_000, mtime=since - 10)  # before: kept
    files = [
        _saved(tmp_path / sub / f"t{i}.bin", 10_000, mtime=since + i)
        for i, sub in enumerate(["pdb", "boggle", "pdb", "words", "pdb"])
    ]
    foreign = tmp_path / "pdb" / "notes.txt"  # not a lacak cache file: kept
    foreign.write_bytes(b"x" * 90_000)
    temporary = tmp_path / "pdb" / f"{cache.TEMP_PREFIX}host-1-abc"
    temporary.write_bytes(cache.MAGIC + bytes(90_000))  # a writer's: kept
    removed = cache.trim(tmp_path, 25_000, since=since)
    assert removed == files[:3]  # the oldest of them, until the rest fit
    left = sum(path.stat().st_size for path in files[3:])
    assert left <= 25_000 and all(path.exists() for path in files[3:])
    assert old.exists() and foreign.exists() and temporary.exists()


def test_trim_skips_what_it_cannot_read_without_waiting(tmp_path: Path) -> None:
    since = time.time() - 100
    fifo = tmp_path / "pdb" / "fifo.pdb"
    fifo.parent.mkdir()
    os.mkfifo(fifo)
    (tmp_path / "pdb" / "link.pdb").symlink_to(_saved(tmp_path / "elsewhere" / "x.bin", 10))
    started = time.monotonic()
    assert cache.trim(tmp_path, 0, since=since) == [tmp_path / "elsewhere" / "x.bin"]
    assert time.monotonic() - started < 30  # (a FIFO opened for reading would wait for good)
    assert fifo.exists()


def test_trim_of_a_folder_that_does_not_exist_removes_nothing(tmp_path: Path) -> None:
    assert cache.trim(tmp_path / "nowhere", 0) == []


def test_the_databases_requests_build_stay_under_the_server_s_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every new goal left its pattern databases in the cache (two 5x5 requests that both
    stopped at the time limit added 38 MB)."""
    monkeypatch.setenv("LACAK_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("LACAK_PDB_ENGINE", "numpy")  # (no compiling into a fresh cache)
    kept = _saved(tmp_path / "pdb" / "built-before.pdb", 100_000, mtime=time.time() - 3600)
    caps = lacak.web.work.Caps(**{**SMALL.to_dict(), "max_cache_bytes": 40_000})
    pool = Pool(1, processes=False)
    goals = ["123456708", "123456078", "123405678", "012345678", "120345678"]
    with TestClient(make_app(pool=pool, caps=caps)) as client:
        for goal in goals:
            answer = client.post(
                "/api/kinds/sliding/solve",
                json={"puzzle": "123456780", "options": {"goal": goal}, "strategy": "astar",
                      "heuristic": "pdb"},
            )  # fmt: skip
            assert answer.status_code == 200, answer.text
        until = time.monotonic() + 30
        while time.monotonic() < until:
            written = _mine(tmp_path, pool.started)
            if sum(path.stat().st_size for path in written) <= 40_000:
                break
            time.sleep(0.05)
    written = _mine(tmp_path, pool.started)
    assert written and sum(path.stat().st_size for path in written) <= 40_000
    assert kept.exists()  # what was there before the server started is not the server's


def _processes(executor: Any) -> list[Any]:
    return list((getattr(executor, "_processes", None) or {}).values())


def _solved_by(pool: Pool, client: TestClient) -> tuple[Any, list[Any]]:
    """Solve a small puzzle: the executor that ran it, and its worker processes."""
    executor = pool._executor
    answer = client.post("/api/kinds/sliding/solve", json={"puzzle": "123450786"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["result"]["found"] is True
    return executor, _processes(executor)


def test_a_worker_grown_past_its_share_of_memory_is_replaced_after_its_job() -> None:
    """A request that grew a worker (a 3 GB file read, databases for goal after goal)
    left it so for every request after."""
    pool = Pool(1, processes=True, recycle_mb=1)  # every worker is past 1 MB after a job
    try:
        with TestClient(make_app(pool=pool)) as client:
            ran = [_solved_by(pool, client) for _ in range(3)]
            assert len({id(executor) for executor, _ in ran}) == 3  # fresh workers each time
            used = [process for _, processes in ran for process in processes]
            until = time.monotonic() + 60
            while any(p.is_alive() for p in used) and time.monotonic() < until:
                time.sleep(0.05)
            assert not any(p.is_alive() for p in used)  # the replaced ones ended
    finally:
        pool.close()


def test_a_worker_within_its_share_is_kept() -> None:
    pool = Pool(1, processes=True, recycle_mb=100_000)
    try:
        with TestClient(make_app(pool=pool)) as client:
            ran = [_solved_by(pool, client) for _ in range(3)]
            assert len({id(executor) for executor, _ in ran}) == 1
            assert len({process.pid for _, processes in ran for process in processes}) == 1
    finally:
        pool.close()
