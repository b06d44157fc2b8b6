"""lacak_mazes.geometry: the shapes the maze page draws every grid with are the grid's own
sides and centres, in flat lists, each corner once."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak_mazes.geometry import grid_geometry
from lacak_mazes.grids import GRIDS, make_grid


def sides_of(shapes: dict, cell: int) -> list[tuple[int, list[tuple[float, float]]]]:  # type: ignore[type-arg]
    """A cell's sides read back from the flat lists, as the page reads them."""
    points, sides = shapes["points"], shapes["sides"]
    found = []
    at = shapes["first"][cell]
    while at < shapes["first"][cell + 1]:
        neighbour, k = sides[at], sides[at + 1]
        corners = [(points[2 * c], points[2 * c + 1]) for c in sides[at + 2 : at + 2 + k]]
        found.append((neighbour, corners))
        at += 2 + k
    return found


def check(grid) -> None:  # type: ignore[no-untyped-def]
    shapes = json.loads(json.dumps(grid_geometry(grid)))  # as the page receives them
    assert len(shapes["first"]) == grid.size + 1 and shapes["first"][-1] == len(shapes["sides"])
    assert (shapes["width"], shapes["height"]) == pytest.approx(grid.extent, abs=1e-3)
    assert shapes["step"] == pytest.approx(grid.longest_step, abs=1e-3)
    corners = list(zip(shapes["points"][0::2], shapes["points"][1::2], strict=True))
    assert len(set(corners)) == len(corners)  # each corner once
    for cell in range(grid.size):
        got = sides_of(shapes, cell)
        assert [n for n, _ in got] == [side.neighbour for side in grid.sides[cell]]
        for (_, points), side in zip(got, grid.sides[cell], strict=True):
            assert len(points) == len(side.points)
            for p, q in zip(points, side.points, strict=True):
                assert math.dist(p, q) < 1e-3
        centre = shapes["centres"][2 * cell : 2 * cell + 2]
        assert math.dist(centre, grid.centres[cell]) < 1e-3


@pytest.mark.parametrize("name", sorted(GRIDS))
def test_every_grid_s_shapes_are_its_own(name: str) -> None:
    check(make_grid(name, (4, 4) if name == "polar" else (3, 5)))


def test_a_masked_grid_s_shapes_leave_the_cells_out() -> None:
    grid = make_grid("hex", (3, 4), mask=["X...", "....", "..X."])
    assert grid.size == 10
    check(grid)


@settings(max_examples=25, deadline=None)
@given(name=st.sampled_from(sorted(GRIDS)), rows=st.integers(3, 7), cols=st.integers(3, 7))
def test_any_grid_s_shapes_are_its_own(name: str, rows: int, cols: int) -> None:
    check(make_grid(name, (rows, rows) if name == "polar" else (rows, cols)))
