"""Terminal and SVG pictures of a board and a word's path."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

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


def test_the_path_is_drawn_under_the_letters_and_png_is_the_same_picture() -> None:
    """Issue 25, item 5: the word's line runs under the letters it joins (they stay
    legible), and ``-o x.png`` draws the picture the SVG draws."""
    import io

    from lacak_boggle.render import board_canvas, board_png
    from PIL import Image

    board = Board.from_string("AHORJ/QQUOI/SSCPD/MUPSM/AUULI")
    path = [(3, 3), (4, 4), (3, 4), (2, 3), (1, 4), (0, 3)]
    svg = board_svg(board, path, caption="SIMPIR")
    root = ET.fromstring(svg)
    order = [child.tag.removeprefix(SVG) for child in root]
    assert order.index("polyline") < min(i for i, t in enumerate(order) if t == "text")
    canvas = board_canvas(board, path, caption="SIMPIR")
    image = Image.open(io.BytesIO(board_png(board, path, caption="SIMPIR")))
    assert image.format == "PNG" and image.size == (canvas.width, canvas.height)
    assert root.get("width") == str(canvas.width)
    # the word's first tile is green, a tile off the path white, in the PNG as in the SVG
    # (tiles of 64 px, 6 px apart, 12 px from the edge: a point near each one's corner)
    def near_corner(r: int, c: int) -> tuple[int, int]:
        return (12 + c * 70 + 10, 12 + r * 70 + 10)

    def close(pixel: Any, colour: str) -> bool:
        want = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
        return all(abs(a - b) <= 3 for a, b in zip(pixel[:3], want, strict=True))

    assert close(image.getpixel(near_corner(3, 3)), "#a9dfbf")
    assert close(image.getpixel(near_corner(2, 3)), "#f9e79f")
    assert close(image.getpixel(near_corner(0, 0)), "#fdfefe")
    assert board_png(board, path, caption="SIMPIR") == board_png(board, path, caption="SIMPIR")
