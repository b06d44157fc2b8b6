"""``lacak.drawing``: dashed outlines in SVG and PNG, large pictures drawn at their size,
and :func:`lacak.picture`, a kind's picture that shows itself in a notebook and saves
itself by suffix (with a puzzle kind of the test's own, no built-in plugin)."""

from __future__ import annotations

import io
import itertools
import math
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import attrs
import lacak
import pytest
from hypothesis import given
from hypothesis import strategies as st
from lacak.drawing import Canvas, Picture, _dashes
from PIL import Image

from .plugin_helpers import make_registry

SVG = "{http://www.w3.org/2000/svg}"


def _box(dash: tuple[float, float] | None) -> Canvas:
    canvas = Canvas(60, 40, background="#ffffff")
    canvas.rect(10, 10, 40, 20, fill="#ffffff", stroke="#000000", stroke_width=2, dash=dash)
    return canvas


def test_a_dashed_outline_in_svg() -> None:
    dashed = ET.fromstring(_box((4, 3)).svg()).findall(f"{SVG}rect")[-1]
    solid = ET.fromstring(_box(None).svg()).findall(f"{SVG}rect")[-1]
    assert dashed.get("stroke-dasharray") == "4 3"
    assert solid.get("stroke-dasharray") is None


def _dark_along_top(canvas: Canvas) -> int:
    with Image.open(io.BytesIO(canvas.png())) as image:
        grey = image.convert("L")
        return sum(grey.getpixel((x, 10)) < 128 for x in range(12, 48))


def test_a_dashed_outline_in_png_has_gaps() -> None:
    solid, dashed = _dark_along_top(_box(None)), _dark_along_top(_box((4, 4)))
    assert solid == 36  # (the whole top edge, between the rounded ends)
    assert 10 <= dashed <= 26  # about half of it, in dashes


@pytest.mark.parametrize("dash", [(0, 3), (4, -1), (1, 2, 3)])
def test_a_dash_needs_two_lengths_above_zero(dash: Any) -> None:
    with pytest.raises(ValueError, match="dash is"):
        Canvas(10, 10).rect(0, 0, 5, 5, fill="#ffffff", stroke="#000000", dash=dash)


@given(
    st.lists(st.tuples(st.integers(-50, 50), st.integers(-50, 50)), min_size=2, max_size=6),
    st.floats(0.5, 20),
    st.floats(0.5, 20),
)
def test_dashes_cover_the_line_in_the_pattern(points: list[tuple[int, int]], drawn: float,
                                              gap: float) -> None:  # fmt: skip
    pieces = _dashes(points, drawn, gap)
    total = sum(math.dist(a, b) for a, b in itertools.pairwise(points))
    lengths = [sum(math.dist(a, b) for a, b in itertools.pairwise(p)) for p in pieces]
    assert all(length <= drawn + 1e-6 for length in lengths)
    assert all(length == pytest.approx(drawn) for length in lengths[:-1])
    period = drawn + gap
    whole, part = divmod(total, period)
    assert sum(lengths) == pytest.approx(whole * drawn + min(part, drawn), abs=1e-6)


def test_a_large_picture_is_drawn_at_its_size() -> None:
    canvas = Canvas(4000, 2100, background="#ffffff")  # 8.4 million pixels
    canvas.rect(0, 0, 10, 10, fill="#000000")
    with Image.open(io.BytesIO(canvas.png())) as image:
        assert image.size == (4000, 2100)
        assert image.getpixel((5, 5)) == (0, 0, 0) and image.getpixel((20, 20)) == (255, 255, 255)


@attrs.frozen
class Dots:
    """A puzzle kind of the test's own: ``count`` dots in a row, its picture."""

    count: int
    kind = "dots"
    initial = 0

    def is_goal(self, state: int) -> bool:
        return state == self.count

    def successors(self, state: int) -> Any:
        if state < self.count:
            yield "+", state + 1, 1.0


def _render(puzzle: Dots, result: Any, format: str, *, full: bool = False,
            colour: str = "#000000") -> Any:  # fmt: skip
    canvas = Canvas(20 * puzzle.count + 20, 40, background="#ffffff", title=f"{puzzle.count} dots")
    reached = result.goal if result is not None and result.found else 0
    for i in range(puzzle.count):
        canvas.circle(20 + 20 * i, 20, 6, fill=colour if i < reached else "#cccccc")
    if format == "text":
        return "".join("●" if i < reached else "○" for i in range(puzzle.count))
    return canvas.svg() if format == "svg" else canvas.png()


class DotsPlugin:
    def __init__(self, formats: tuple[str, ...] = ("text", "svg", "png")) -> None:
        self.formats = formats

    @lacak.hookimpl
    def register_puzzles(self, register: Any) -> None:
        register(lacak.PuzzleType(kind="dots", parse=lambda text: Dots(int(text)),
                                  render=_render, formats=self.formats,
                                  render_options={"colour": "#000000"}))  # fmt: skip


@pytest.fixture
def registry() -> lacak.Registry:
    return make_registry(DotsPlugin())


def test_a_picture_of_a_puzzle_and_of_its_solution(registry: lacak.Registry) -> None:
    puzzle = Dots(3)
    alone = lacak.picture(puzzle, registry=registry)
    result = lacak.SearchResult.from_states([0, 1, 2, 3], ["+", "+", "+"], kind="dots")
    solved = lacak.picture(puzzle, result, registry=registry, colour="#ff0000")
    assert repr(alone) == "<Picture dots puzzle (text, svg, png)>"
    assert repr(solved) == "<Picture dots solution (text, svg, png)>"
    assert alone.text() == "○○○" and solved.text() == "●●●"
    fills = [c.get("fill") for c in ET.fromstring(solved._repr_svg_()).iter(f"{SVG}circle")]
    assert fills == ["#ff0000"] * 3
    assert solved._repr_png_() is None  # (SVG is shown; PNG only for a kind without it)


def test_a_picture_saves_itself_by_suffix(registry: lacak.Registry, tmp_path: Path) -> None:
    picture = lacak.picture(Dots(2), registry=registry)
    assert picture.save(tmp_path / "a.svg").read_text().startswith("<svg")
    with Image.open(picture.save(tmp_path / "a.PNG")) as image:
        assert image.format == "PNG" and image.size == (60, 40)
    assert picture.save(tmp_path / "a.txt").read_text() == "○○"
    with pytest.raises(lacak.InvalidOptionError, match=r"not 'a\.gif'"):
        picture.save(tmp_path / "a.gif")


def test_a_kind_that_draws_png_only_shows_png() -> None:
    registry = make_registry(DotsPlugin(("text", "png")))
    picture = lacak.picture(Dots(2), registry=registry)
    png = picture._repr_png_()
    assert picture._repr_svg_() is None and png is not None and png[:4] == b"\x89PNG"
    with pytest.raises(lacak.InvalidOptionError, match="drawn as text, png, not svg"):
        picture.svg()


def test_what_cannot_be_drawn_is_one_clear_error(registry: lacak.Registry) -> None:
    with pytest.raises(lacak.InvalidOptionError, match=r"take no option 'size'.*colour"):
        lacak.picture(Dots(2), registry=registry, size=3)
    with pytest.raises(lacak.InvalidPuzzleError, match="needs the puzzle's kind"):
        lacak.picture(object(), registry=registry)
    with pytest.raises(lacak.UnknownComponentError):
        lacak.picture(Dots(2), registry=make_registry())
    text_only = make_registry(DotsPlugin(("text",)))
    with pytest.raises(lacak.InvalidOptionError, match="'dots' draws no pictures"):
        lacak.picture(Dots(2), registry=text_only)


def test_a_picture_is_drawn_when_shown_and_a_bad_renderer_is_the_plugin_s_bug() -> None:
    calls: list[str] = []

    def draw(format: str) -> Any:
        calls.append(format)
        return "not bytes"

    picture = Picture(draw, ("svg", "png"), "a test")
    assert calls == []
    with pytest.raises(lacak.PluginError, match="PNG came as text"):
        picture.png()
    assert calls == ["png"]
