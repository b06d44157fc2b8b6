"""``--timeout`` covers reading a maze and suggesting its ends (issue 10)."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time
from pathlib import Path

import lacak
import numpy as np
import pytest
from lacak_mazes import Maze

#: CPU seconds on top of --timeout: start-up, and writing the answer after the deadline
#: (CPU time, which a loaded machine stretches little: cache misses, a shared core).
SLACK = 5.0

#: Wall-clock seconds on top of --timeout, for a machine so loaded that the process
#: gets a small share of a core (CI machines are shared): the CPU bound is the test.
WALL_SLACK = 60.0


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def binary_tree(height: int, width: int, seed: int) -> Maze:
    """A perfect maze made with numpy at once: every cell opens east or south (a binary tree)."""
    rng = np.random.default_rng(seed)
    east = rng.random((height, width)) < 0.5
    east[-1, :] = True  # the last row can only go east
    east[:, -1] = False  # the last column can only go south
    south = ~east
    south[-1, :] = False
    return Maze.from_edges(east, south)


@pytest.fixture(scope="module")
def huge_maze(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 4096x4096 maze (16 M cells, 40 MB of JSON) without endpoints."""
    maze = binary_tree(4096, 4096, 1)
    assert maze.is_perfect()
    path = tmp_path_factory.mktemp("mazes") / "huge.json"
    path.write_text(maze.to_json())
    return path


@pytest.mark.slow
@pytest.mark.parametrize("as_json", [False, True])
def test_timeout_covers_reading_and_suggesting_the_ends(huge_maze: Path, as_json: bool) -> None:
    """It used to read the file and search for its longest path (15 s) before the clock started."""
    timeout = 1.0
    args = [sys.executable, "-m", "lacak", "maze", "solve", str(huge_maze)]
    args += ["--timeout", str(timeout)] + (["--json"] if as_json else [])
    started, cpu = time.perf_counter(), _children_cpu()
    done = subprocess.run(args, capture_output=True, text=True, timeout=120)
    seconds, cpu = time.perf_counter() - started, _children_cpu() - cpu
    assert done.returncode == 1, done.stderr
    assert cpu < timeout + SLACK  # the process's own CPU time: the same on a loaded machine
    assert seconds < timeout + WALL_SLACK
    if as_json:
        report = json.loads(done.stdout)
        assert report["found"] is False and report["stopped"] == "time-limit"
        assert report["states"] == [] and "maze" not in report  # no path, nor a puzzle yet
    else:
        assert "--timeout was reached" in done.stdout


def test_a_search_for_the_longest_path_stops_at_the_running_deadline() -> None:
    maze = binary_tree(300, 300, 2)  # 90,000 cells: more than one chunk of work
    with lacak.Limits(seconds=0).start(), pytest.raises(lacak.LimitReachedError, match="ends"):
        maze.farthest_pair()
    expected = maze.farthest_pair()  # no running budget: no checks
    with lacak.Limits(seconds=600).start():
        assert maze.farthest_pair() == expected


def test_reading_a_large_maze_stops_at_the_running_deadline() -> None:
    text = binary_tree(400, 400, 3).to_json()
    with lacak.Limits(seconds=0).start(), pytest.raises(lacak.LimitReachedError, match="reading"):
        Maze.from_json(text)
    with lacak.Limits(seconds=600).start():
        assert Maze.from_json(text).size == 160_000


@pytest.mark.parametrize("bad", [True, 1.0, 16, -1, "3"])
def test_the_fast_row_check_still_refuses_bad_cells(bad: object) -> None:
    rows: list[list[object]] = [[2, 8], [0, 0]]
    rows[1][0] = bad
    with pytest.raises(lacak.InvalidPuzzleError, match=r"cell \[1, 0\]"):
        Maze.from_rows(rows)  # type: ignore[arg-type]
