"""The rest of the plain rectangle's generators on the compiled engine: binary tree,
sidewinder, Eller, recursive division, Aldous-Broder and prim-frontier give the same
mazes as Python, byte for byte, for every seed, size and option (issue 26)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lacak_mazes.generators import engine
from lacak_mazes.generators._common import Rng
from lacak_mazes.generators._grid import maze_from_links
from lacak_mazes.generators.aldous_broder import aldous_broder
from lacak_mazes.generators.division import recursive_division
from lacak_mazes.generators.eller import eller
from lacak_mazes.generators.prim import prim_frontier
from lacak_mazes.generators.simple import _sidewinder, _sidewinder_rows, binary_tree, sidewinder

needs_numba = pytest.mark.skipif(not engine.ENGINE.available(), reason="numba is not installed")

#: Each generator with each option that changes its loop.
CASES: list[tuple[Any, dict[str, Any]]] = [
    (binary_tree, {}),
    (binary_tree, {"bias": "NE"}),
    (binary_tree, {"bias": "SW"}),
    (binary_tree, {"bias": "SE"}),
    (sidewinder, {}),
    (eller, {}),
    (eller, {"join": 0.2, "down": 0.9}),
    (eller, {"join": 1.0, "down": 0.0}),
    (eller, {"join": 0.0, "down": 1.0}),
    (recursive_division, {}),
    (aldous_broder, {}),
    (prim_frontier, {}),
]
IDS = [f"{make.__name__}-{'-'.join(f'{k}={v}' for k, v in options.items())}"
       for make, options in CASES]  # fmt: skip


def _both(monkeypatch: pytest.MonkeyPatch, make, height: int, width: int, seed: int,
          **options) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    monkeypatch.setenv(engine.ENGINE_VARIABLE, "python")
    python = make(height, width, seed, **options)
    monkeypatch.setenv(engine.ENGINE_VARIABLE, "numba")
    compiled = make(height, width, seed, **options)
    assert compiled.is_perfect()
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
    # Aldous-Broder's walk in numpy blocks of up to 262,144 moves, sidewinder's blocks of
    # rows, the levels of recursive division: the kernels go move for move, row for row
    for make, options in CASES:
        python, compiled = _both(monkeypatch, make, 150, 211, 12345, **options)
        assert python.tobytes() == compiled.tobytes(), make.__name__


@needs_numba
def test_aldous_broders_walk_is_counted_move_by_move() -> None:
    from lacak_mazes.generators.compiled import aldous_broder as walk

    rng = Rng(5, salt=9)
    start = int(rng.below(12 * 17, 1)[0])
    cells, moves = walk(rng.words(), 12, 17, start)
    # every cell but the start is entered once, after at least one move each
    assert moves >= 12 * 17 - 1
    assert int(np.count_nonzero(cells)) == 12 * 17


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)  # (the block size is set each example)
@given(height=st.integers(1, 70), width=st.integers(1, 70), seed=st.integers(0, 2**63 - 1),
       block=st.sampled_from([1, 7, 64, 1 << 15]))  # fmt: skip
def test_sidewinder_by_blocks_of_rows_is_the_whole(
    monkeypatch, height: int, width: int, seed: int, block: int
) -> None:
    monkeypatch.setattr("lacak_mazes.generators.simple.ROWS_BLOCK", block)
    whole = _sidewinder(Rng(seed, salt=12), height, width, False)
    rows = _sidewinder_rows(Rng(seed, salt=12), height, width)
    assert rows.cells.tobytes() == whole.cells.tobytes()


@settings(max_examples=30, deadline=None)
@given(height=st.integers(1, 70), width=st.integers(1, 70), seed=st.integers(0, 2**63 - 1),
       bias=st.sampled_from(["NW", "NE", "SW", "SE"]))  # fmt: skip
def test_binary_tree_by_blocks_of_rows_is_the_whole(
    height: int, width: int, seed: int, bias: str
) -> None:
    # the coins of all the cells at once, as the numpy engine drew them before its blocks
    coins = (Rng(seed, salt=11).raw(height * width) >> np.uint64(63)).astype(bool)
    vertical, horizontal = (1 if bias[0] == "N" else 4), (8 if bias[1] == "W" else 2)
    links = np.where(coins, vertical, horizontal).astype(np.uint8).reshape(height, width)
    edge_row, edge_col = (0 if vertical == 1 else height - 1), (0 if horizontal == 8 else width - 1)
    links[edge_row, :] = horizontal
    links[:, edge_col] = vertical
    links[edge_row, edge_col] = 0
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(engine.ENGINE_VARIABLE, "python")
        patch.setattr("lacak_mazes.generators.simple.ROWS_BLOCK", 37)
        maze = binary_tree(height, width, seed, bias=bias)
    assert maze.cells.tobytes() == maze_from_links(links).cells.tobytes()
