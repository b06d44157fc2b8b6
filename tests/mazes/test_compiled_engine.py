"""The maze generators' compiled engine: the same mazes as Python, byte for byte, for
every seed, size and option; ``LACAK_MAZE_ENGINE``; and everything without numba."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import lacak
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lacak_mazes import breadth_first
from lacak_mazes.generators import engine
from lacak_mazes.generators.backtracker import recursive_backtracker
from lacak_mazes.generators.growing_tree import growing_tree
from lacak_mazes.generators.huntkill import hunt_and_kill
from lacak_mazes.generators.kruskal import kruskal, prim
from lacak_mazes.generators.wilson import wilson

needs_numba = pytest.mark.skipif(not engine.ENGINE.available(), reason="numba is not installed")

#: Every walking generator the compiled engine runs, with each option that changes its loop.
CASES: list[tuple[Any, dict[str, Any]]] = [
    (recursive_backtracker, {}),
    (hunt_and_kill, {}),
    (hunt_and_kill, {"hunt": "columns"}),
    (hunt_and_kill, {"hunt": "random"}),
    (hunt_and_kill, {"hunt_chance": 0.3}),
    (hunt_and_kill, {"hunt_chance": 1.0}),
    (hunt_and_kill, {"hunt": "random", "hunt_chance": 0.05}),
    (hunt_and_kill, {"hunt": "columns", "hunt_chance": 0.5}),
    (growing_tree, {}),
    (growing_tree, {"policy": "oldest"}),
    (growing_tree, {"policy": "random"}),
    (growing_tree, {"policy": "mix"}),
    (growing_tree, {"policy": "mix", "newest": 0.9}),
    (growing_tree, {"policy": "mix", "newest": 0.0}),
    (wilson, {}),
    (kruskal, {}),
    (prim, {}),
]
IDS = [f"{make.__name__}-{'-'.join(f'{k}={v}' for k, v in options.items())}"
       for make, options in CASES]  # fmt: skip


def _both(monkeypatch: pytest.MonkeyPatch, make, height: int, width: int, seed: int,
          **options) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    monkeypatch.setenv(engine.ENGINE_VARIABLE, "python")
    python = make(height, width, seed, **options)
    monkeypatch.setenv(engine.ENGINE_VARIABLE, "numba")
    compiled = make(height, width, seed, **options)
    return python.cells, compiled.cells


@needs_numba
@pytest.mark.parametrize(("make", "options"), CASES, ids=IDS)
def test_compiled_mazes_are_the_python_mazes(monkeypatch, make, options) -> None:
    sizes = [(1, 1), (1, 9), (7, 1), (2, 2), (3, 17), (16, 5), (32, 32), (33, 47), (64, 40)]
    for seed, (height, width) in enumerate(sizes * 4):
        python, compiled = _both(monkeypatch, make, height, width, seed * 7919 + 3, **options)
        assert python.tobytes() == compiled.tobytes(), (height, width, seed)


@needs_numba
@pytest.mark.parametrize(("make", "options"), CASES, ids=IDS)
@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)  # (it sets both)
@given(height=st.integers(1, 40), width=st.integers(1, 40), seed=st.integers(0, 2**63 - 1))
def test_compiled_mazes_are_the_python_mazes_for_any_seed(
    monkeypatch, make, options, height: int, width: int, seed: int
) -> None:
    python, compiled = _both(monkeypatch, make, height, width, seed, **options)
    assert python.tobytes() == compiled.tobytes()


@needs_numba
def test_large_mazes_are_the_same(monkeypatch) -> None:
    # Wilson's long walks go on in numpy blocks in Python: the kernel walks move for move
    for make, options in [(wilson, {}), (recursive_backtracker, {}), (hunt_and_kill, {}),
                          (growing_tree, {"policy": "mix"}), (kruskal, {})]:  # fmt: skip
        python, compiled = _both(monkeypatch, make, 150, 211, 12345, **options)
        assert python.tobytes() == compiled.tobytes(), make.__name__


@needs_numba
def test_the_kernels_draw_numpys_pcg64_stream() -> None:
    from lacak_mazes.generators._common import Rng
    from lacak_mazes.generators.compiled import raw

    rng = Rng(99, salt=3)
    rng.raw(5)
    words = rng.words()
    assert raw(words, 10_000).tolist() == rng.raw(10_000).tolist()


@needs_numba
def test_breadth_first_is_the_same_with_the_kernels(monkeypatch) -> None:
    maze = recursive_backtracker(23, 31, 4)
    cells = maze.cells.tobytes()
    engine.ENGINE.require()
    for source, target in [(0, -1), (5, 700), (700, 5), (100, 100)]:
        monkeypatch.setenv(engine.ENGINE_VARIABLE, "python")
        python = breadth_first.reach(cells, 31, source, target)
        monkeypatch.setenv(engine.ENGINE_VARIABLE, "numba")
        compiled = breadth_first.reach(cells, 31, source, target)
        assert compiled.queue == python.queue
        assert compiled.came == python.came
        assert compiled.expanded == python.expanded
        if target >= 0:
            assert compiled.path(target) == python.path(target)
    monkeypatch.setenv(engine.ENGINE_VARIABLE, "numba")
    ends = maze.with_endpoints()
    monkeypatch.setenv(engine.ENGINE_VARIABLE, "python")
    assert maze.with_endpoints() == ends


def test_the_variable_chooses_the_engine(monkeypatch) -> None:
    monkeypatch.setenv(engine.ENGINE_VARIABLE, "python")
    assert engine.kernels(10**8) is None
    monkeypatch.setenv(engine.ENGINE_VARIABLE, "cuda")
    with pytest.raises(lacak.InvalidOptionError, match="LACAK_MAZE_ENGINE='cuda' names no maze"):
        engine.kernels(10)
    with pytest.raises(lacak.InvalidOptionError, match="names no maze engine"):
        lacak.generate("maze", "wilson", (4, 4), seed=1)


def test_a_bad_variable_is_one_line_on_the_command_line(monkeypatch) -> None:
    from click.testing import CliRunner
    from lacak.cli import make_cli

    monkeypatch.setenv(engine.ENGINE_VARIABLE, "fast")
    result = CliRunner().invoke(make_cli(), ["maze", "generate", "--size", "4x4", "--seed", "1"])
    assert result.exit_code == 2
    assert "LACAK_MAZE_ENGINE" in result.output
    assert "Traceback" not in result.output


@needs_numba
def test_numba_asked_for_is_used(monkeypatch) -> None:
    monkeypatch.setenv(engine.ENGINE_VARIABLE, "numba")
    assert engine.kernels(4) is engine.ENGINE.load()
    monkeypatch.setenv(engine.ENGINE_VARIABLE, "auto")
    assert engine.kernels(4) is engine.ENGINE.load()  # loaded: used from then on


class _Engine:
    """A stand-in for the compiled engine that notes what ``auto`` asks of it."""

    def __init__(self) -> None:
        self.is_ready = False
        self.calls: list[str] = []

    def loaded(self) -> bool:
        return False

    def available(self) -> bool:
        return True

    def ready(self) -> bool:
        return self.is_ready

    def load(self, compile: bool = True) -> None:
        self.calls.append("load")

    def compile_in_background(self) -> str:
        self.calls.append("background")
        return "running"


def test_auto_weighs_the_maze_and_the_time_spent(monkeypatch) -> None:
    stand_in = _Engine()
    calls = stand_in.calls
    monkeypatch.delenv(engine.ENGINE_VARIABLE, raising=False)
    monkeypatch.setattr(engine, "ENGINE", stand_in)
    monkeypatch.setattr(engine, "_spent", [0.0])
    assert engine.kernels(100) is None and calls == []
    assert engine.kernels(engine.LOAD_FROM) is None and calls == []  # not ready: Python
    assert engine.kernels(engine.COMPILE_FROM) is None and calls == ["background"]
    stand_in.is_ready = True
    engine.kernels(engine.LOAD_FROM)
    assert calls[-1] == "load"
    calls.clear()
    engine.kernels(100)
    assert calls == []
    with engine.timed():
        engine._spent[0] += engine.LOAD_AFTER
    engine.kernels(100)
    assert calls == ["load"]


_WITHOUT_NUMBA = """
import json, os, sys
sys.modules["numba"] = None  # numba cannot be imported, nor found
import lacak
from lacak_mazes.generators import engine
out = {"available": engine.ENGINE.available()}
os.environ["LACAK_MAZE_ENGINE"] = "auto"
maze = lacak.generate("maze", "wilson", (40, 40), seed=3)
out["auto"] = maze.cells.tobytes().hex()
out["ends"] = [list(c) for c in maze.with_endpoints().solution[:3]]
os.environ["LACAK_MAZE_ENGINE"] = "numba"
try:
    lacak.generate("maze", "recursive-backtracker", (4, 4), seed=3)
except lacak.InvalidOptionError as error:
    out["numba"] = str(error)
print(json.dumps(out))
"""


def test_without_numba_every_maze_is_made_in_python(monkeypatch) -> None:
    env = {**os.environ, "LACAK_MAZE_ENGINE": "auto"}
    done = subprocess.run([sys.executable, "-c", _WITHOUT_NUMBA], capture_output=True,
                          text=True, env=env, check=True)  # fmt: skip
    out = json.loads(done.stdout)
    assert out["available"] is False
    monkeypatch.setenv(engine.ENGINE_VARIABLE, "python")
    maze = wilson(40, 40, 3)
    assert out["auto"] == maze.cells.tobytes().hex()
    solution = maze.with_endpoints().solution
    assert solution is not None
    assert out["ends"] == [list(c) for c in solution[:3]]
    assert "numba is not installed" in out["numba"] and "lacak[fast]" in out["numba"]
    assert "\n" not in out["numba"]
