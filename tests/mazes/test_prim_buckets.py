"""Compiled Prim's bucketed heap (:func:`lacak_mazes.generators.compiled_graph.prim_tree`)
pops what one :mod:`heapq` of ``(weight, cell, there)`` pops: the same links in the same
order, on crafted weights (ties, weights on a bucket's edge, every bucket count from one
to 65536) and on grids large enough to have many buckets."""

from __future__ import annotations

import heapq

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lacak_mazes.generators import engine
from lacak_mazes.generators.graph import GRAPH_GENERATORS
from lacak_mazes.grids import make_grid

pytestmark = pytest.mark.skipif(
    not engine.GRAPH_ENGINE.available(), reason="numba is not installed"
)
KINDS = ("rect", "cylinder", "torus", "hex", "triangle", "upsilon", "polar")


def _heapq_prim(offsets, targets, weight, start: int) -> list[tuple[int, int]]:
    """:func:`lacak_mazes.generators.graph.prim`'s loop, on the given weights and start."""
    visited = bytearray(len(offsets) - 1)
    heap: list[tuple[float, int, int]] = []

    def add(cell: int) -> None:
        visited[cell] = 1
        for p in range(offsets[cell], offsets[cell + 1]):
            there = int(targets[p])
            if not visited[there]:
                heapq.heappush(heap, (float(weight[p]), cell, there))

    add(start)
    links = []
    while heap:
        _, here, there = heapq.heappop(heap)
        if not visited[there]:
            links.append((here, there))
            add(there)
    return links


def _grid(kind: str, rows: int, cols: int, holes: int):
    """A grid, with every ``holes``-th cell masked off when ``holes`` (which may cut it
    apart: Prim then spans the start's part only, with either heap)."""
    mask = None
    if holes and kind != "polar" and rows * cols > 1:
        mask = ["".join("X" if (r * cols + c) % holes == 1 else "." for c in range(cols))
                for r in range(rows)]  # fmt: skip
    try:
        return make_grid(kind, (rows, rows if kind == "polar" else cols), mask=mask)
    except Exception:  # (a size or mask the grid cannot take)
        return None


def _wall_weights(offsets, targets, draw) -> np.ndarray:
    """One weight a wall, from ``draw()``, on both of its sides."""
    weight = np.full(len(targets), np.nan)
    for a in range(len(offsets) - 1):
        for p in range(offsets[a], offsets[a + 1]):
            b = targets[p]
            if a < b:
                weight[p] = draw()
                for q in range(offsets[b], offsets[b + 1]):
                    if targets[q] == a:
                        weight[q] = weight[p]
    assert not np.isnan(weight).any()
    return weight


#: Weights that tie and that sit on (or a hair under) the edges of the buckets.
EDGES = sorted({x for k in range(17) for x in (k / 16, np.nextafter(k / 16, 0.0))} - {1.0})


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    kind=st.sampled_from(KINDS),
    rows=st.integers(1, 12),
    cols=st.integers(1, 12),
    holes=st.sampled_from([0, 0, 3, 5]),
    bits=st.integers(0, 16),
    style=st.sampled_from(["edges", "few", "tied", "random"]),
    data=st.data(),
)
def test_the_bucketed_heap_pops_what_heapq_pops(kind, rows, cols, holes, bits, style,
                                                data) -> None:  # fmt: skip
    grid = _grid(kind, rows, cols, holes)
    if grid is None:
        return
    kernels = engine.GRAPH_ENGINE.load()
    offsets, targets = grid.flat.offsets, grid.flat.targets
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="weights"))
    if style == "edges":
        weight = _wall_weights(offsets, targets, lambda: EDGES[rng.integers(len(EDGES))])
    elif style == "few":  # a handful of weights: many ties, a few buckets used
        weight = _wall_weights(offsets, targets, lambda: rng.integers(4) / 7)
    elif style == "tied":  # all alike: the cells' order alone decides
        weight = _wall_weights(offsets, targets, lambda: 0.5)
    else:
        weight = _wall_weights(offsets, targets, lambda: float(rng.random()))
    start = data.draw(st.integers(0, grid.size - 1), label="start")
    want = _heapq_prim(offsets, targets, weight, start)
    got = kernels.prim_tree(offsets, targets, weight, start, bits)
    assert got.tolist() == [list(link) for link in want]


@pytest.mark.parametrize(
    ("kind", "size"), [("rect", (140, 130)), ("hex", (110, 110)), ("polar", (80, 80))]
)
def test_prim_on_a_grid_of_many_buckets_is_the_python_one(monkeypatch, kind, size) -> None:
    """The whole compiled generator on grids of 8 to 16 buckets (the engine test's grids
    have one): the same maze as the Python one."""
    grid = make_grid(kind, size)
    assert len(grid.flat.targets) >= 8 * 8192  # (8 buckets or more)
    made = {}
    for variable in ("python", "numba"):
        monkeypatch.setenv(engine.ENGINE_VARIABLE, variable)
        made[variable] = np.asarray(GRAPH_GENERATORS["prim"](grid, 7)).reshape(-1, 2)
    assert np.array_equal(made["python"], made["numba"])
    assert len(made["numba"]) == grid.size - 1
