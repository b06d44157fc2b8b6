"""Terminal and SVG pictures of a board and a word's path."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import lacak
import pytest
from hypothesis import given, settings
from lacak_boggle import Board, board_renderable, board_svg, solve_board
from rich.console import Console

from .strategies import cases

SVG = "{http://www.w3.org/2000/svg}"


def _text(renderable) -> str:
    console = Console(width=120, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_terminal_board_numbers_the_path() -> None:
    board = Board.from_string("A QU E / T H #")
    out = _text(board_renderable(board, [(1, 0), (1, 1), (0, 2)], title="THE"))
    assert "T¹" in out and "H²" in out and "E³" in out
    assert "Qu" in out and "■" in out and "THE" in out
    plain = _text(board_renderable(board))
    assert "¹" not in plain


def test_terminal_colours_the_path() -> None:
    console = Console(width=80, record=True, color_system="truecolor", force_terminal=True)
    console.print(board_renderable(Board.from_string("AB"), [(0, 1)]))
    styled = console.export_text(styles=True)
    assert "\x1b[" in styled


def test_a_bad_path_is_refused() -> None:
    board = Board.from_string("AB/CD")
    with pytest.raises(lacak.InvalidInputError):
        board_renderable(board, [(0, 0), (0, 0)])
    with pytest.raises(lacak.InvalidInputError):
        board_svg(board, [(5, 5)])


@settings(max_examples=40, deadline=None)
@given(case=cases(max_side=6))
def test_svg_draws_every_tile_and_the_path(case) -> None:
    tiles, dictionary = case
    board = Board.from_rows(tiles)
    best = solve_board(board, dictionary, min_length=1).best()
    path = best.path if best else None
    root = ET.fromstring(board_svg(board, path, caption="caption <&>"))
    rects = root.findall(f"{SVG}rect")
    assert len(rects) == 1 + board.rows * board.cols  # background + tiles
    texts = [t.text for t in root.findall(f"{SVG}text")]
    assert texts[-1] == "caption <&>"
    letters = [t for t in board.flat if t != "#"]
    assert len(texts) - 1 == len(letters)
    lines = root.findall(f"{SVG}polyline")
    if path:
        assert len(lines) == 1
        points = lines[0].get("points").split()
        assert len(points) == len(path)
        xs = [float(p.split(",")[0]) for p in points]
        ys = [float(p.split(",")[1]) for p in points]
        # consecutive points are neighbouring tile centres: one tile plus one gap apart at most
        spacing = 64 + 6
        for x0, x1, y0, y1 in zip(xs, xs[1:], ys, ys[1:], strict=False):
            assert 0 < max(abs(x1 - x0), abs(y1 - y0)) <= spacing
    else:
        assert not lines


def test_svg_tile_text_is_escaped_and_dice_styled() -> None:
    svg = board_svg(Board.from_string("A QU / ẞ #"))
    root = ET.fromstring(svg)
    assert [t.text for t in root.findall(f"{SVG}text")] == ["A", "Qu", "ẞ"]
