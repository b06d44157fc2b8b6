"""Mazes on every grid: the same answers, byte for byte, as when they were recorded
(golden digests, before the grids became flat arrays), and the same with either engine
(``LACAK_MAZE_ENGINE``), for every graph generator, grid and seed."""

from __future__ import annotations

import hashlib
import json
import pathlib
from typing import Any

import lacak
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lacak_mazes.generators import engine
from lacak_mazes.generators.graph import GRAPH_GENERATORS
from lacak_mazes.grids import make_grid

DIGESTS = pathlib.Path(__file__).parent / "data" / "grid_maze_digests.json"

#: Every graph generator, with each option that changes its loop.
CASES: list[tuple[str, dict[str, Any]]] = [
    ("recursive-backtracker", {}),
    ("hunt-and-kill", {}),
    ("hunt-and-kill", {"hunt": "columns"}),
    ("hunt-and-kill", {"hunt": "random"}),
    ("hunt-and-kill", {"hunt_chance": 0.3}),
    ("hunt-and-kill", {"hunt": "columns", "hunt_chance": 1.0}),
    ("growing-tree", {}),
    ("growing-tree", {"policy": "oldest"}),
    ("growing-tree", {"policy": "random"}),
    ("growing-tree", {"policy": "mix"}),
    ("growing-tree", {"policy": "mix", "newest": 0.9}),
    ("wilson", {}),
    ("kruskal", {}),
    ("prim", {}),
    ("prim-frontier", {}),
    ("aldous-broder", {}),
]
MASK = ("..X....", ".......", "...XX..", ".......", "X.....X")
#: Each grid of the recorded digests: its name, size and mask.
GRIDS: list[tuple[str, tuple[int, int], Any]] = [
    ("rect", (5, 7), MASK),
    ("cylinder", (4, 6), None),
    ("torus", (5, 4), None),
    ("hex", (5, 7), None),
    ("hex", (5, 7), MASK),
    ("triangle", (4, 7), None),
    ("upsilon", (5, 6), None),
    ("upsilon", (5, 7), MASK),
    ("polar", (5, 5), None),
]
SEEDS = (0, 1, 99, 2**40 + 3)


def _key(name: str, options: dict[str, Any], grid: str, size: tuple[int, int], mask: Any,
         seed: int) -> str:  # fmt: skip
    extra = ",".join(f"{k}={v}" for k, v in options.items())
    return f"{name}[{extra}] {grid} {size[0]}x{size[1]}{' masked' if mask else ''} {seed}"


def _digest(name: str, options: dict[str, Any], grid: str, size: tuple[int, int], mask: Any,
            seed: int) -> str:  # fmt: skip
    maze = lacak.generate("maze", name, size, seed=seed, grid=grid, mask=mask, **options)
    return hashlib.sha256(maze.to_json().encode()).hexdigest()[:16]


def _all() -> dict[str, str]:
    return {
        _key(name, options, grid, size, mask, seed): _digest(name, options, grid, size, mask, seed)
        for name, options in CASES
        for grid, size, mask in GRIDS
        for seed in SEEDS
    }


@pytest.mark.parametrize("variable", ["python", "numba"])
def test_grid_mazes_are_as_recorded(monkeypatch, variable) -> None:
    if variable == "numba" and not engine.GRAPH_ENGINE.available():
        pytest.skip("numba is not installed")
    monkeypatch.setenv(engine.ENGINE_VARIABLE, variable)
    recorded = json.loads(DIGESTS.read_text())["digests"]
    assert _all() == recorded


if __name__ == "__main__":  # python tests/mazes/test_grid_engines.py: record the digests
    import subprocess

    commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True)
    data = {"recorded_at": commit.stdout.strip(), "digests": _all()}
    DIGESTS.write_text(json.dumps(data, indent=1) + "\n")


needs_numba = pytest.mark.skipif(
    not engine.GRAPH_ENGINE.available(), reason="numba is not installed"
)
GRID_NAMES = ("rect", "cylinder", "torus", "hex", "triangle", "upsilon", "polar")


def _links(monkeypatch, variable: str, name: str, grid, seed: int, options) -> np.ndarray:
    monkeypatch.setenv(engine.ENGINE_VARIABLE, variable)
    return np.array(GRAPH_GENERATORS[name](grid, seed, **options), dtype=np.int64).reshape(-1, 2)


@needs_numba
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    case=st.sampled_from(CASES),
    kind=st.sampled_from(GRID_NAMES),
    rows=st.integers(3, 14),
    cols=st.integers(3, 14),
    seed=st.integers(0, 2**63 - 1),
    masked=st.booleans(),
)
def test_compiled_grid_mazes_are_the_python_mazes(monkeypatch, case, kind, rows, cols, seed,
                                                  masked) -> None:  # fmt: skip
    name, options = case
    mask = None
    if masked and kind != "polar":
        mask = ["".join("X" if (r * 7 + c * 3 + seed) % 11 == 0 else "." for c in range(cols))
                for r in range(rows)]  # fmt: skip
    grid = make_grid(kind, (rows, rows if kind == "polar" else cols), mask=mask)
    monkeypatch.setenv(engine.ENGINE_VARIABLE, "numba")
    if grid.flat.size < 2 or engine.GRAPH_ENGINE.load().reached(
        grid.flat.offsets, grid.flat.targets) != grid.size:  # fmt: skip
        return  # (a mask that cuts the grid apart: no maze)
    python = _links(monkeypatch, "python", name, grid, seed, options)
    compiled = _links(monkeypatch, "numba", name, grid, seed, options)
    assert np.array_equal(python, compiled)
    # a spanning tree: one link fewer than cells, every cell joined
    assert len(compiled) == grid.size - 1
    parent = list(range(grid.size))

    def root(c: int) -> int:
        while parent[c] != c:
            c = parent[c]
        return c

    for a, b in compiled.tolist():
        assert b in grid.neighbours[a]
        ra, rb = root(a), root(b)
        assert ra != rb
        parent[ra] = rb


@pytest.mark.parametrize("part", [1 << 15, 5])
def test_the_flat_grid_is_the_layouts(monkeypatch, part) -> None:
    """Each built-in grid's arrays (computed without its geometry, a few rows at a time)
    say the same ids and neighbours, in the same order, as its layout."""
    from lacak_mazes.grids import shapes
    from lacak_mazes.grids.base import Flat

    monkeypatch.setattr(shapes, "_PART", part)
    for kind in GRID_NAMES:
        for rows in range(1, 9):
            for cols in range(1, 9):
                if kind == "polar" and rows != cols:
                    continue
                for mask in (None, [("X." * cols)[r % 2 : r % 2 + cols] for r in range(rows)]):
                    if mask is not None and (kind == "polar" or rows * cols < 2):
                        continue
                    try:
                        grid = make_grid(kind, (rows, cols), mask=mask)
                    except lacak.InvalidOptionError:
                        continue  # (a size the grid cannot take)
                    flat, drawn = grid.flat, Flat.of_layout(grid._layout)
                    assert np.array_equal(flat.offsets, drawn.offsets), (kind, rows, cols, mask)
                    assert np.array_equal(flat.targets, drawn.targets), (kind, rows, cols, mask)
                    assert np.array_equal(flat.ids, drawn.ids), (kind, rows, cols, mask)
                    assert grid.neighbours == grid._layout.neighbours
                    assert grid.ids == grid._layout.ids


def test_a_maze_is_made_without_the_geometry() -> None:
    """Making a maze on a built-in grid builds no cell's sides (they are built when drawn)."""
    grid = make_grid("hex", (30, 40))
    GRAPH_GENERATORS["wilson"](grid, 3)
    assert "_layout" not in vars(grid)
    assert len(grid.sides) == grid.size and "_layout" in vars(grid)


@needs_numba
def test_a_grid_that_says_only_its_layout(monkeypatch) -> None:
    """A third party's grid gives only its layout: its flat arrays are derived from it,
    and both engines make the same mazes on it."""
    import attrs
    from lacak_mazes.grids import Grid, HexGrid

    @attrs.frozen(slots=False)
    class Drawn(HexGrid):
        topology = Grid.topology  # (no arrays of its own)

    grid = Drawn(6, 7)
    assert grid.neighbours == HexGrid(6, 7).neighbours
    for name, options in CASES:
        python = _links(monkeypatch, "python", name, grid, 5, options)
        assert np.array_equal(python, _links(monkeypatch, "numba", name, grid, 5, options))


def test_the_variable_chooses_the_graph_engine(monkeypatch) -> None:
    monkeypatch.setenv(engine.ENGINE_VARIABLE, "python")
    assert engine.graph_kernels(10**8) is None
    monkeypatch.setenv(engine.ENGINE_VARIABLE, "cuda")
    with pytest.raises(lacak.InvalidOptionError, match="names no maze engine"):
        engine.graph_kernels(10)


def test_auto_uses_the_graph_kernels_by_the_same_rule(monkeypatch) -> None:
    """``auto``: Python for a small maze while the kernels are not loaded, the kernels
    for a large one when their machine code is ready."""

    class StandIn:
        def __init__(self) -> None:
            self.calls: list[str] = []

        def loaded(self) -> bool:
            return False

        def available(self) -> bool:
            return True

        def ready(self) -> bool:
            return True

        def load(self, compile: bool = True) -> str:
            self.calls.append(f"load compile={compile}")
            return "kernels"

    stand_in = StandIn()
    monkeypatch.delenv(engine.ENGINE_VARIABLE, raising=False)
    monkeypatch.setattr(engine, "GRAPH_ENGINE", stand_in)
    monkeypatch.setattr(engine, "_spent", [0.0])
    assert engine.graph_kernels(100) is None and stand_in.calls == []
    assert engine.graph_kernels(engine.LOAD_FROM) == "kernels"
    assert stand_in.calls == ["load compile=False"]
