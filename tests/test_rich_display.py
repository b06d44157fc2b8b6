"""Notebooks show pictures (issue 25, item 6): a maze, a Boggle board, a sliding board and a
search tree each display as SVG in Jupyter (``_repr_svg_``), a well-formed picture of
themselves; a search result as a table (``_repr_html_``), a Boggle result as its board
with the best word and its words; ``lacak.picture`` draws any kind's solution."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import lacak
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak.output import plural
from lacak.testing import strategies as lst
from PIL import Image

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


def test_a_search_tree_shows_the_same_drawing_as_svg_and_png() -> None:
    puzzle = lacak.parse("sliding", "123450786", goal="103425786")
    trace = lacak.solve(puzzle, "bfs", trace=True).trace
    assert trace is not None
    root = _svg(trace)
    with Image.open(io.BytesIO(trace.to_png())) as image:
        assert image.format == "PNG"
        assert image.size == (int(root.get("width", 0)), int(root.get("height", 0)))
    dashed = [r for r in root.iter(f"{SVG}rect") if r.get("stroke-dasharray")]
    assert len(dashed) == sum(node.order is None for node in trace.nodes)
    assert repr(trace) == f"<SearchTrace of {len(trace.nodes)} nodes>"


def test_a_search_result_shows_as_a_table() -> None:
    puzzle = lacak.parse("sliding", "123405786")
    result = lacak.solve(puzzle, "astar", heuristic="manhattan")
    table = ET.fromstring(result._repr_html_())
    assert table.tag == "table"
    assert table.findtext("caption") == "sliding: found: 2 moves with astar (manhattan)"
    rows = {row.findtext("th"): row.findtext("td") for row in table.iter("tr")}
    assert rows["moves"] == "R D" and rows["stopped"] == "goal"
    assert rows["expanded"] == f"{result.stats.expanded:,}"


def test_a_search_result_table_is_escaped_and_cut() -> None:
    long = lacak.SearchResult.from_states(range(61), ["<b>"] * 60, strategy="a&b", kind="k<")
    table = ET.fromstring(long._repr_html_())  # (well-formed: every < and & escaped)
    assert table.findtext("caption") == "k<: found: 60 moves with a&b"
    moves = {row.findtext("th"): row.findtext("td") or "" for row in table.iter("tr")}["moves"]
    assert moves.split().count("<b>") == 24 and "(36 moves more)" in moves
    stopped = lacak.SearchResult.not_found(0, lacak.StopReason.NODES, strategy="bfs")
    assert "not found with bfs: stopped at the node-limit" in stopped._repr_html_()


def test_a_boggle_result_shows_its_best_word_and_its_words() -> None:
    board = lacak.parse("boggle", "CAT/ODG", dictionary="eng")
    result = lacak.solve(board)
    assert result.count > 0
    best = result.best()
    assert best is not None
    picture = _svg(result)
    assert picture.findtext(f"{SVG}title") == f"{best.word} ({plural(best.score, 'point')})"
    html = result._repr_html_()
    root = ET.fromstring(html)  # one element: the picture and two paragraphs
    assert root.find(f"{SVG}svg") is not None
    counts, words = root.findall("p")
    assert "".join(counts.itertext()).startswith(f"{result.count} words, {result.score} points")
    assert (words.text or "").strip() == best.word  # best first
    assert [int(s.text or "") for s in words.findall("sub")] == sorted(
        (w.score for w in result.words), reverse=True
    )  # every word, with its score


def test_a_picture_of_each_built_in_kind_s_solution() -> None:
    puzzle = lacak.parse("sliding", "123405786")
    sliding = lacak.picture(puzzle, lacak.solve(puzzle, "bfs"))
    labels = [t.text for t in _svg(sliding).iter(f"{SVG}text")]
    assert "1: R" in labels and "2: D" in labels
    maze = lacak.generate("maze", "wilson", (4, 5), seed=3).with_endpoints(solution=False)
    way = lacak.solve(maze.puzzle())
    drawn = lacak.picture(maze.puzzle(), way)
    assert drawn.svg() == maze.with_solution(way.states).render("svg")
    with Image.open(io.BytesIO(drawn.png())) as image:
        assert image.format == "PNG" and min(image.size) > 20
