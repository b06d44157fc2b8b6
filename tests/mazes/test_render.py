"""Pictures and statistics."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import lacak
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak_mazes import Maze
from lacak_mazes.render import MAX_PIXELS, best_cell_width, render, render_text, rich_text

from .helpers import braid_mazes, corridor_stretches, perfect_mazes

WALLS = set("|-+─│┌┐└┘├┤┬┴┼╵╶╷╴")


@settings(max_examples=40)
@given(
    st.one_of(braid_mazes(), perfect_mazes().map(lambda m: m.with_endpoints())),
    st.booleans(),
    st.integers(1, 4),
)
def test_text_pictures_show_exactly_the_passages(maze: Maze, unicode: bool, k: int) -> None:
    lines = render_text(maze, unicode=unicode, cell_width=k).split("\n")
    assert len(lines) == 2 * maze.height + 1
    assert all(len(line) == maze.width * (k + 1) + 1 for line in lines)
    for r in range(maze.height):
        for c in range(maze.width):
            east = lines[2 * r + 1][(c + 1) * (k + 1)]
            south = lines[2 * r + 2][c * (k + 1) + 1]
            assert (east not in WALLS) == maze.is_open((r, c), "E"), (r, c)
            assert (south not in WALLS) == maze.is_open((r, c), "S"), (r, c)
    text = "\n".join(lines)
    if maze.solution is not None:
        assert (text.count("S") == 1 and text.count("E") == 1) or maze.start == maze.end
        dot = "•" if unicode else "*"
        assert text.count(dot) == max(0, len(maze.solution) - 2)


def test_ascii_picture_is_the_classic_one() -> None:
    maze = Maze.from_rows([[6, 12], [1, 1]]).with_endpoints()
    assert maze.solution == ((1, 0), (0, 0), (0, 1), (1, 1))
    assert render_text(maze, unicode=False, cell_width=3) == "\n".join(
        ["+---+---+", "| *...* |", "+ . + . +", "| S | E |", "+---+---+"]
    )


def test_unicode_picture_of_a_small_maze() -> None:
    maze = Maze.from_rows([[6, 12], [1, 1]])
    assert render_text(maze, cell_width=1) == "┌───┐\n│   │\n│ ╷ │\n│ │ │\n└─┴─┘"
    assert str(maze) == render_text(maze, cell_width=1)


def test_rich_text_marks_the_solution() -> None:
    maze = lacak.generate("maze", "wilson", (5, 8), seed=2).with_endpoints()
    text = rich_text(maze, cell_width=3)
    assert text.plain == render_text(maze, cell_width=3)
    styled = {str(span.style) for span in text.spans}
    assert {"bold yellow", "bold green", "bold red"} <= styled


def test_best_cell_width() -> None:
    assert best_cell_width(19, 80) == 3
    assert best_cell_width(20, 80) == 1
    assert best_cell_width(30, 80) == 1


def test_svg_is_well_formed_and_sized() -> None:
    maze = lacak.generate("maze", "kruskal", (6, 9), seed=1).with_endpoints()
    svg = render(maze, "svg", cell_size=10, wall_width=2, wall="navy", solution="#00ff00")
    root = ET.fromstring(svg)
    assert root.get("width") == "92" and root.get("height") == "62"
    ns = "{http://www.w3.org/2000/svg}"
    assert root.find(f"{ns}polyline") is not None
    assert len(root.findall(f"{ns}circle")) == 2
    path = root.find(f"{ns}path")
    assert path is not None and path.get("stroke") == "#000080"
    assert "kruskal 6x9, seed 1" in svg
    plain = render(maze.without_endpoints(), "svg")
    assert "polyline" not in plain and "circle" not in plain


def test_png_decodes_with_the_right_size_and_colours() -> None:
    from PIL import Image

    maze = lacak.generate("maze", "prim", (7, 5), seed=3).with_endpoints()
    data = render(maze, "png", cell_size=12, wall_width=3, background="white", wall="black")
    image = Image.open(io.BytesIO(data))
    assert image.size == (5 * 12 + 3, 7 * 12 + 3)
    assert image.getpixel((0, 0)) == (0, 0, 0)  # a corner is a wall
    assert image.getpixel((6, 6)) != (0, 0, 0)  # inside cell (0, 0)
    assert image.info.get("Title") == "prim 7x5"
    # passages: the wall pixel between two cells is background exactly when they are joined
    for r in range(7):
        for c in range(4):
            pixel = image.getpixel(((c + 1) * 12 + 1, r * 12 + 3 + 4))
            if maze.is_open((r, c), "E") and (r, c) not in maze.solution:
                assert pixel == (255, 255, 255)
            if not maze.is_open((r, c), "E"):
                assert pixel == (0, 0, 0)


@pytest.mark.parametrize(
    ("format", "options", "message"),
    [
        ("gif", {}, "unknown maze format"),
        ("svg", {"cell_width": 2}, "takes no option"),
        ("svg", {"wall": "not-a-colour"}, "not a colour"),
        ("png", {"cell_size": 4, "wall_width": 4}, "less than the cell size"),
        ("png", {"cell_size": 1}, "cell size"),
        ("text", {"cell_width": 9}, "cell width"),
        ("text", {"ascii": "maybe"}, "ascii"),
        # 0.1.0's name of box drawing, now "text" (ASCII is ascii=True)
        ("unicode", {}, "Unicode box drawing is 'text'"),
    ],
)
def test_picture_option_errors(format: str, options: dict, message: str) -> None:
    maze = lacak.generate("maze", "sidewinder", (3, 3), seed=1)
    with pytest.raises(lacak.InvalidOptionError, match=message):
        render(maze, format, **options)


def test_stats_by_hand() -> None:
    # a 2x2 "U": (0,0)-(1,0)-(1,1)-(0,1)
    maze = Maze.from_rows([[4, 4], [3, 9]]).with_endpoints()
    stats = maze.stats()
    assert stats["dead_ends"] == 2 and stats["dead_end_share"] == 0.5
    assert stats["corridors"] == 2 and stats["straightness"] == 0.0
    assert stats["junctions"] == 0 and stats["branching"] == 0.0
    assert stats["solution_length"] == 3 and stats["perfect"] is True
    corridor = Maze.from_rows([[2, 10, 8]]).stats()
    assert corridor["straightness"] == 1.0 and corridor["solution_length"] is None
    cross = Maze.from_rows([[0, 4, 0], [2, 15, 8], [0, 1, 0]]).stats()
    assert cross["junctions"] == 1 and cross["branching"] == 3.0


def test_corridor_length_and_horizontal_share_by_hand() -> None:
    def stats(rows: list[list[int]]) -> tuple[float, float]:
        numbers = Maze.from_rows(rows).stats()
        return numbers["corridor_length"], numbers["horizontal_share"]

    assert stats([[4, 4], [3, 9]]) == (3.0, 0.333333)  # the "U": one corridor of 3 steps
    assert stats([[2, 10, 10, 8]]) == (3.0, 1.0)  # one straight corridor
    assert stats([[4], [5], [1]]) == (2.0, 0.0)
    assert stats([[0, 4, 0], [2, 15, 8], [0, 1, 0]]) == (1.0, 0.5)  # four arms of one step
    assert stats([[6, 12], [3, 9]]) == (4.0, 0.5)  # a ring: one loop of 4 steps
    assert stats([[6, 14, 8], [3, 9, 0]]) == (2.5, 0.6)  # a ring of 4 and a tail of 1
    assert stats([[6, 12, 0], [3, 9, 0]]) == (4.0, 0.5)  # a ring, and a cell cut off
    assert stats([[0]]) == (0.0, 0.0)


@settings(max_examples=80)
@given(maze=st.one_of(braid_mazes(), perfect_mazes()))
def test_corridor_length_and_horizontal_share_are_what_a_walk_finds(maze: Maze) -> None:
    stats = maze.stats()
    lengths = corridor_stretches(maze)
    assert sum(lengths) == maze.passages
    expected = sum(lengths) / len(lengths) if lengths else 0.0
    assert stats["corridor_length"] == pytest.approx(expected, abs=1e-6)
    east_west = sum(
        1
        for r in range(maze.height)
        for c in range(maze.width)
        for _d, (r2, _c2) in maze.neighbors((r, c))
        if r2 == r
    )
    horizontal = east_west / (2 * maze.passages) if maze.passages else 0.0
    assert stats["horizontal_share"] == pytest.approx(horizontal, abs=1e-6)


SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("algorithm", ["a<b&c", "</title><script>x</script>", "\"'&amp;", "]]>"])
def test_svg_escapes_the_title(algorithm: str) -> None:
    maze = Maze.from_rows([[2, 8]], algorithm=algorithm, start=(0, 0), end=(0, 1))
    root = ET.fromstring(render(maze, "svg"))
    title = root.find(f"{SVG}title")
    assert title is not None and title.text == f"{algorithm} 1x2"
    assert root.find(f"{SVG}script") is None


@settings(max_examples=80)
@given(algorithm=st.text(st.characters(exclude_categories=()), max_size=12))
def test_any_algorithm_name_is_refused_or_drawn_as_valid_svg(algorithm: str) -> None:
    """A name either fails validation (not text, control characters) or appears, escaped,
    in an SVG that an XML parser reads back."""
    try:
        maze = Maze.from_rows([[2, 8]], algorithm=algorithm, seed=3)
    except lacak.InvalidPuzzleError:
        return
    title = ET.fromstring(render(maze, "svg")).find(f"{SVG}title")
    assert title is not None and title.text == f"{algorithm or 'maze'} 1x2, seed 3"


def test_png_size_is_capped_before_any_memory_is_taken() -> None:
    maze = Maze(np.zeros((60, 60), dtype=np.uint8))  # 60 cells of 200 px: 12001 x 12001
    with pytest.raises(lacak.InvalidOptionError, match="over the limit of 100,000,000 pixels"):
        render(maze, "png", cell_size=200)
    assert MAX_PIXELS == 100_000_000
    small = render(maze, "png", cell_size=20)  # 1201 x 1201: fine
    assert isinstance(small, bytes) and small.startswith(b"\x89PNG")


def test_default_cell_size_keeps_big_mazes_within_the_pixel_cap() -> None:
    # all walls, so the SVG is small; it uses the same default geometry as the PNG
    maze = Maze(np.zeros((3000, 2600), dtype=np.uint8))
    root = ET.fromstring(render(maze, "svg"))
    width, height = int(root.get("width", "0")), int(root.get("height", "0"))
    assert width * height <= MAX_PIXELS
    assert width == 2600 * 3 + 1  # 3-pixel cells, the largest that fit


def test_text_is_box_drawing_and_ascii_on_request() -> None:
    maze = lacak.generate("maze", "kruskal", (3, 4), seed=2).with_endpoints()
    assert render(maze, "text", cell_width=1) == render_text(maze, cell_width=1)
    assert render(maze, "text", ascii=True, cell_width=1) == render_text(
        maze, unicode=False, cell_width=1
    )
    assert render(maze) == str(maze.render()) == render_text(maze)


def test_the_kind_draws_the_puzzle_with_the_path_found() -> None:
    from lacak_mazes.render import caption, render_puzzle

    maze = lacak.generate("maze", "wilson", (4, 6), seed=3).with_endpoints()
    puzzle = lacak.parse("maze", maze.to_json())
    result = lacak.solve(puzzle)
    drawn = render_puzzle(puzzle, result, "text", cell_width=3, ascii=True)
    assert drawn.plain == render_text(maze, unicode=False, cell_width=3) + "\n" + caption(maze)
    assert caption(maze).endswith(f"solution {len(maze.solution) - 1} steps")
    # no result: the start and the end, no path
    alone = render_puzzle(puzzle, None, "svg", cell_size=10, color=["wall=navy"])
    assert "<polyline" not in alone and alone.count("<circle") == 2 and "#000080" in alone
    assert "<polyline" in render_puzzle(puzzle, result, "svg", color={"solution": "red"})
    assert render_puzzle(puzzle, result, "png").startswith(b"\x89PNG")
    with pytest.raises(lacak.InvalidOptionError, match="takes no option 'wall'"):
        render_puzzle(puzzle, result, "svg", wall="navy")
    with pytest.raises(lacak.InvalidOptionError, match="--color takes NAME=COLOUR"):
        render_puzzle(puzzle, result, "svg", color=["sky=blue"])


def test_one_step_is_a_step() -> None:
    from lacak_mazes.render import caption

    assert caption(Maze.from_rows([[2, 8]]).with_endpoints()) == "maze 1x2, solution 1 step"
