"""Notebooks show pictures (issue 25, item 6): a maze, a Boggle board, a sliding board and a
search tree each display as SVG in Jupyter (``_repr_svg_``), a well-formed picture of
themselves."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import lacak
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak.testing import strategies as lst

SVG = "{http://www.w3.org/2000/svg}"


def _svg(value: object) -> ET.Element:
    text = value._repr_svg_()  # type: ignore[attr-defined]
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg"
    return root


@settings(max_examples=20, deadline=None)
@given(seed=lst.seeds(), size=st.tuples(st.integers(1, 8), st.integers(1, 8)))
def test_a_maze_shows_as_its_svg(seed: int, size: tuple[int, int]) -> None:
    maze = lacak.generate("maze", "wilson", size, seed=seed).with_endpoints()
    assert maze._repr_svg_() == maze.render("svg")
    _svg(maze)


@pytest.mark.parametrize("text", ["CAT/DOG", "A QU / # E", "AHORJ/QQUOI/SSCPD/MUPSM/AUULI"])
def test_a_boggle_board_shows_its_tiles(text: str) -> None:
    board = lacak.parse("boggle", text)
    letters = [t.text for t in _svg(board).iter(f"{SVG}text")]
    assert len(letters) == sum(tile != "#" for row in board.tiles for tile in row)


def test_a_sliding_board_shows_its_start_and_goal() -> None:
    puzzle = lacak.parse("sliding", "123450786")
    labels = [t.text for t in _svg(puzzle).iter(f"{SVG}text")]
    assert labels.count("start") == labels.count("goal") == 1


def test_a_search_tree_shows_its_nodes() -> None:
    puzzle = lacak.parse("sliding", "123450786", goal="103425786")
    result = lacak.solve(puzzle, "bfs", trace=True)
    assert result.trace is not None
    root = _svg(result.trace)
    assert len(root.findall(f".//{SVG}rect")) >= len(result.trace.nodes)
