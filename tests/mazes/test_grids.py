"""Mazes on every grid: the grids' structure, perfect mazes from every generator that walks
a graph, exact uniformity of Wilson and Aldous-Broder (a chi-square test over all spanning
trees of small grids, counted by the matrix-tree theorem), JSON, remaking, braids, masks.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter

import lacak
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak_mazes.generators.graph import GRAPH_GENERATORS
from lacak_mazes.gridmaze import GridMaze
from lacak_mazes.grids import GRIDS, make_grid
from lacak_mazes.grids.masks import mask_from_png, mask_from_text, mask_from_word
from lacak_mazes.kind import validate

from .test_statistics import chi_square_limit

SHAPED = ("cylinder", "torus", "hex", "triangle", "upsilon", "polar")


def grid_sizes() -> st.SearchStrategy[tuple[str, tuple[int, int]]]:
    def sized(name: str) -> st.SearchStrategy[tuple[str, tuple[int, int]]]:
        low = 3 if name in ("cylinder", "torus") else 1
        if name == "triangle":  # one column of triangles falls apart (a test below)
            return st.tuples(st.integers(1, 7), st.integers(2, 7)).map(lambda s: (name, s))
        if name == "polar":
            return st.integers(1, 6).map(lambda r: (name, (r, r)))
        return st.tuples(st.integers(low, 7), st.integers(3 if low == 3 else 1, 7)).map(
            lambda size: (name, size)
        )

    return st.sampled_from(SHAPED).flatmap(sized)


# -- the grids ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(GRIDS))
def test_neighbours_are_mutual_and_sides_match_them(name: str) -> None:
    grid = make_grid(name, (5, 5))
    for cell, around in enumerate(grid.neighbours):
        assert len(set(around)) == len(around)
        for other in around:
            assert cell in grid.neighbours[other]
        across = [side.neighbour for side in grid.sides[cell] if side.neighbour >= 0]
        assert sorted(set(across)) == sorted(around)
    assert len(grid.ids) == len(set(grid.ids)) == grid.size


@pytest.mark.parametrize("name", ["rect", "hex", "triangle", "upsilon", "polar"])
def test_shared_sides_are_the_same_segment_seen_from_both_cells(name: str) -> None:
    """Except across a seam, the side a cell shares with a neighbour is drawn in the same
    place from both cells: the pictures' walls meet."""
    grid = make_grid(name, (4, 4))

    def key(points: tuple) -> frozenset:
        return frozenset((round(x, 6), round(y, 6)) for x, y in points)

    for cell, around in enumerate(grid.sides):
        for side in around:
            if side.neighbour < 0:
                continue
            back = [s for s in grid.sides[side.neighbour] if s.neighbour == cell]
            assert any(key(s.points) == key(side.points) for s in back), (cell, side)


def test_known_shapes() -> None:
    assert make_grid("polar", (4, 4)).counts == (1, 6, 12, 24)  # Buck's figure 7.4
    hexes = make_grid("hex", (3, 3))
    assert len(hexes.neighbours[hexes.index[(1, 1)]]) == 6
    triangles = make_grid("triangle", (3, 3))
    assert len(triangles.neighbours[triangles.index[(1, 1)]]) == 3
    upsilon = make_grid("upsilon", (4, 4))
    assert len(upsilon.neighbours[upsilon.index[(1, 1)]]) == 8  # an octagon
    assert len(upsilon.neighbours[upsilon.index[(1, 2)]]) == 4  # a square
    torus = make_grid("torus", (3, 4))
    assert {len(around) for around in torus.neighbours} == {4}


@pytest.mark.parametrize(
    ("name", "size", "message"),
    [
        ("torus", (2, 5), "at least 3"),
        ("cylinder", (4, 2), "at least 3"),
        ("polar", (3, 4), "rings"),
        ("hexagons!", (3, 3), "no maze grid"),
        ("triangle", (3, 1), "at least 2 columns"),
    ],
)
def test_bad_grids_are_one_clear_error(name: str, size: tuple, message: str) -> None:
    with pytest.raises(lacak.InvalidOptionError, match=message):
        make_grid(name, size)


@settings(max_examples=40, deadline=None)
@given(grid_sizes(), st.sampled_from(sorted(GRAPH_GENERATORS)), st.integers(0, 2**32))
def test_every_graph_generator_makes_perfect_mazes_on_every_grid(
    grid_size: tuple[str, tuple[int, int]], algorithm: str, seed: int
) -> None:
    name, size = grid_size
    maze = lacak.generate("maze", algorithm, size, seed=seed, grid=name)
    assert isinstance(maze, GridMaze) and maze.grid.type == name
    assert maze.is_perfect()
    maze.validate_perfect()
    again = lacak.generate("maze", algorithm, size, seed=seed, grid=name)
    assert again.links.tolist() == maze.links.tolist()  # the same seed, the same carving
    with_ends = maze.with_endpoints()
    assert GridMaze.from_json(with_ends.to_json()) == with_ends
    puzzle = lacak.parse("maze", with_ends.to_json())
    result = lacak.solve(puzzle)
    assert result.found and list(result.states) == list(with_ends.solution)


def test_a_seed_gives_the_same_maze_on_every_machine() -> None:
    """Pinned links: the graph generators' random numbers are PCG64's raw output."""
    maze = lacak.generate("maze", "wilson", (2, 3), seed=1, grid="hex")
    assert maze.links.tolist() == [[0, 1], [2, 1], [3, 1], [4, 3], [5, 1]]


@pytest.mark.parametrize("algorithm", ["eller", "sidewinder", "binary-tree", "recursive-division"])
def test_row_generators_say_where_they_run(algorithm: str) -> None:
    with pytest.raises(lacak.InvalidOptionError, match="row by row on the plain rectangle"):
        lacak.generate("maze", algorithm, (4, 4), seed=1, grid="hex")


# -- uniformity --------------------------------------------------------------------------


def spanning_tree_count(grid) -> int:
    """Kirchhoff's matrix-tree theorem: any cofactor of the Laplacian."""
    laplacian = np.zeros((grid.size, grid.size))
    for a, b in grid.edges:
        laplacian[a, a] += 1
        laplacian[b, b] += 1
        laplacian[a, b] -= 1
        laplacian[b, a] -= 1
    return round(float(np.linalg.det(laplacian[1:, 1:])))


def _root(parent: list[int], cell: int) -> int:
    while parent[cell] != cell:
        cell = parent[cell]
    return cell


def all_spanning_trees(grid) -> set[frozenset]:
    """Every spanning tree, by brute force over sets of ``size - 1`` edges."""
    trees = set()
    for edges in itertools.combinations(grid.edges, grid.size - 1):
        parent = list(range(grid.size))
        for a, b in edges:
            ra, rb = _root(parent, a), _root(parent, b)
            if ra == rb:
                break
            parent[ra] = rb
        else:
            trees.add(frozenset(edges))
    return trees


UNIFORM_CASES = [
    ("hex", (2, 3), None),
    ("triangle", (3, 4), None),
    ("polar", (2, 2), None),
    ("upsilon", (2, 3), None),
    ("cylinder", (2, 3), None),
    ("torus", (3, 3), "X../.../..X"),
    ("rect", (3, 3), "X../.../..."),
]


@pytest.mark.parametrize("algorithm", ["wilson", "aldous-broder"])
@pytest.mark.parametrize(("name", "size", "mask"), UNIFORM_CASES)
def test_uniform_generators_are_uniform_on_every_grid(
    algorithm: str, name: str, size: tuple[int, int], mask: str | None
) -> None:
    grid = make_grid(name, size, mask=None if mask is None else mask_from_text(mask))
    trees = all_spanning_trees(grid)
    assert len(trees) == spanning_tree_count(grid)
    samples = 40 * len(trees)
    counts: Counter = Counter()
    for seed in range(samples):
        maze = lacak.generate("maze", algorithm, size, seed=seed, grid=name, mask=mask)
        tree = frozenset(tuple(sorted(link)) for link in maze.links.tolist())
        assert tree in trees
        counts[tree] += 1
    expected = samples / len(trees)
    statistic = sum((counts[tree] - expected) ** 2 / expected for tree in trees)
    assert statistic < chi_square_limit(len(trees) - 1), (statistic, len(trees))


def test_the_uniformity_test_rejects_a_biased_generator_on_a_grid() -> None:
    grid = make_grid("hex", (2, 3))
    trees = all_spanning_trees(grid)
    samples = 40 * len(trees)
    counts = Counter(
        frozenset(tuple(sorted(link)) for link in lacak.generate(
            "maze", "recursive-backtracker", (2, 3), seed=seed, grid="hex").links.tolist())
        for seed in range(samples)
    )  # fmt: skip
    expected = samples / len(trees)
    statistic = sum((counts[tree] - expected) ** 2 / expected for tree in trees)
    assert statistic > 3 * chi_square_limit(len(trees) - 1)


# -- masks -------------------------------------------------------------------------------


def test_ascii_masks_switch_cells_off() -> None:
    maze = lacak.generate("maze", "kruskal", None, seed=4, mask="X..X/..../X..X")
    assert maze.grid.size == 8 and maze.is_perfect()
    assert (0, 0) not in maze.grid.index and (1, 0) in maze.grid.index
    assert maze.options["mask"] == "X..X/..../X..X"


def test_a_mask_that_cuts_the_grid_apart_is_refused() -> None:
    with pytest.raises(lacak.InvalidOptionError, match="separate pieces"):
        lacak.generate("maze", "wilson", None, seed=1, mask="..X../..X../..X..")


@pytest.mark.parametrize("bad", ["..?", "", "XXX/XXX"])
def test_bad_masks_are_one_clear_error(bad: str) -> None:
    with pytest.raises(lacak.InvalidOptionError):
        lacak.generate("maze", "wilson", None, seed=1, mask=bad)


def test_png_masks_read_dark_pixels_as_no_cell() -> None:
    import io

    from PIL import Image

    image = Image.new("L", (4, 3), 255)
    image.putpixel((0, 0), 0)
    image.putpixel((3, 2), 10)
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    assert mask_from_png(buffer.getvalue()) == ("X...", "....", "...X")
    with pytest.raises(lacak.InvalidOptionError, match="not a picture"):
        mask_from_png(b"not a png")


def test_word_masks_are_one_piece_and_the_same_everywhere() -> None:
    rows = mask_from_word("Hi", scale=1)
    maze = lacak.generate("maze", "wilson", None, seed=2, mask="/".join(rows))
    assert maze.is_perfect()
    assert rows == mask_from_word("Hi", scale=1)
    assert all(len(row) == len(rows[0]) for row in rows)


def test_masks_work_on_other_grids_too() -> None:
    maze = lacak.generate("maze", "wilson", None, seed=3, grid="hex", mask="X...X/...../X...X")
    assert maze.grid.size == 11 and maze.is_perfect()
    with pytest.raises(lacak.InvalidOptionError, match="takes no mask"):
        lacak.generate("maze", "wilson", (3, 3), seed=3, grid="polar", mask="X../.../...")


# -- braids ------------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(grid_sizes(), st.floats(0.0, 1.0), st.integers(0, 2**20))
def test_braids_link_dead_ends_away(grid_size, share: float, seed: int) -> None:
    name, size = grid_size
    plain = lacak.generate("maze", "kruskal", size, seed=seed, grid=name)
    braided = lacak.generate("maze", "kruskal", size, seed=seed, grid=name, braid=share)
    assert braided.components() == 1
    before = set(map(tuple, plain.links.tolist()))
    after = list(map(tuple, braided.links.tolist()))
    assert before <= set(after)  # braiding only adds passages
    assert braided.loops() == len(after) - len(before)
    if share == 1.0:  # no dead end left that had a wall to open
        degrees = braided.degrees()
        assert all(
            degrees[cell] != 1 or len(braided.grid.neighbours[cell]) == 1
            for cell in range(braided.size)
        )
    if share > 0:
        assert braided.options["braid"] == share
        validate(braided)  # the kind's check: one piece, loops allowed
        report = braided.stats()["braid"]  # the share achieved, counted from the plain maze
        dead_before = int((plain.degrees() == 1).sum())
        dead_after = int((braided.degrees() == 1).sum())
        assert report == {
            "asked": share, "dead_ends_before": dead_before, "dead_ends": dead_after,
            "achieved": round((dead_before - dead_after) / dead_before, 6) if dead_before else 0.0,
        }  # fmt: skip
    else:
        assert "braid" not in braided.stats()


def test_braided_rectangles_keep_their_bitmask_form() -> None:
    maze = lacak.generate("maze", "wilson", (10, 10), seed=5, braid=0.5)
    assert type(maze).__name__ == "Maze" and not maze.is_perfect()
    plain = lacak.generate("maze", "wilson", (10, 10), seed=5)
    report = maze.stats()["braid"]
    assert report["dead_ends_before"] == plain.stats()["dead_ends"]
    assert report["dead_ends"] == maze.stats()["dead_ends"] < report["dead_ends_before"]
    solved = lacak.solve(maze.with_endpoints().puzzle())
    assert solved.found


# -- JSON and remaking -------------------------------------------------------------------


@pytest.mark.parametrize("name", SHAPED)
def test_json_names_the_grid_and_remakes_byte_for_byte(name: str) -> None:
    from lacak_mazes.remake import remake

    size = (4, 4)
    maze = lacak.generate("maze", "hunt-and-kill", size, seed=9, grid=name, braid=0.25)
    maze = maze.with_endpoints()
    data = json.loads(maze.to_json())
    assert data["grid"]["type"] == name
    assert len(data["cells"]) == maze.grid.size
    assert remake(GridMaze.from_json(maze.to_json())).to_json() == maze.to_json()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(links=[[[0, 0], [9, 9]]]), "not a cell"),
        (lambda d: d.update(links=[[0, 1]]), "cell id like"),
        (lambda d: d.update(links=d["links"] + [d["links"][0]]), "twice"),
        (lambda d: d.update(grid={"type": "nope", "rows": 2, "cols": 2}), "no maze grid"),
        (lambda d: d.update(cells=d["cells"][::-1]), "not those of"),
        (lambda d: d.update(start=[9, 9]), "not a cell"),
    ],
)
def test_broken_json_is_one_clear_error(change, message: str) -> None:
    maze = lacak.generate("maze", "wilson", (3, 3), seed=1, grid="hex").with_endpoints()
    data = json.loads(maze.to_json())
    change(data)
    with pytest.raises(lacak.InvalidPuzzleError, match=message):
        GridMaze.from_json(json.dumps(data))


def test_links_that_are_not_neighbours_are_refused() -> None:
    grid = make_grid("triangle", (2, 2))
    far = next(b for b in range(grid.size) if b not in grid.neighbours[0] and b != 0)
    with pytest.raises(lacak.InvalidPuzzleError, match="not neighbours"):
        GridMaze(grid, [[0, far]])


# -- pictures ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", SHAPED)
def test_every_grid_draws_svg_and_png(name: str) -> None:
    maze = lacak.generate("maze", "wilson", (5, 5), seed=2, grid=name).with_endpoints()
    svg = maze.render("svg")
    assert svg.startswith("<svg") and svg.count("<polyline") > maze.grid.size // 2
    png = maze.render("png")
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


def test_text_pictures_only_where_they_read_well() -> None:
    maze = lacak.generate("maze", "wilson", (3, 4), seed=2, grid="cylinder").with_endpoints()
    text = maze.render("text")
    assert "S" in text and "E" in text
    hexes = lacak.generate("maze", "wilson", (3, 4), seed=2, grid="hex")
    with pytest.raises(lacak.InvalidOptionError, match="SVG or PNG"):
        hexes.render("text")


# -- weaves ------------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(
    st.sampled_from(["kruskal", "recursive-backtracker", "growing-tree"]),
    st.tuples(st.integers(1, 9), st.integers(1, 9)),
    st.floats(0.05, 1.0),
    st.integers(0, 2**32),
)
def test_woven_mazes_are_perfect_and_their_tunnels_pass_under_straight_corridors(
    algorithm: str, size: tuple[int, int], share: float, seed: int
) -> None:
    maze = lacak.generate("maze", algorithm, size, seed=seed, weave=share)
    assert maze.is_perfect()  # checked by the constructor too: every tunnel is straight
    under = maze.under
    assert len(under) == len(maze.tunnels)
    ends = {c for a, _u, b in maze.tunnels.tolist() for c in (a, b)}
    assert not under & ends
    maze = maze.with_endpoints()
    assert GridMaze.from_json(maze.to_json()) == maze
    result = lacak.solve(lacak.parse("maze", maze.to_json()))
    assert result.found and len(result.states) == len(maze.solution)
    braided = lacak.generate("maze", algorithm, size, seed=seed, weave=share, braid=1.0)
    assert braided.under == maze.under  # a braid never opens a crossing's walls


def test_kruskal_weaves_many_crossings_when_asked() -> None:
    maze = lacak.generate("maze", "kruskal", (20, 20), seed=1, weave=1.0)
    assert len(maze.tunnels) > 40 and maze.stats()["crossings"] == len(maze.tunnels)


def test_a_tunnel_must_pass_under_a_straight_corridor() -> None:
    maze = lacak.generate("maze", "kruskal", (6, 6), seed=2, weave=1.0)
    data = json.loads(maze.to_json())
    a, under, _b = data["tunnels"][0]
    data["tunnels"][0] = [a, under, a]
    with pytest.raises(lacak.InvalidPuzzleError, match="straight"):
        GridMaze.from_json(json.dumps(data))


@pytest.mark.parametrize(("algorithm", "grid"), [("wilson", "rect"), ("kruskal", "hex")])
def test_weaving_is_refused_where_it_is_not_built(algorithm: str, grid: str) -> None:
    with pytest.raises(lacak.InvalidOptionError, match="cross under"):
        lacak.generate("maze", algorithm, (5, 5), seed=1, grid=grid, weave=0.5)


@pytest.mark.parametrize("name", ["rect", *SHAPED])
def test_links_are_pairs_of_cell_ids_that_prove_a_perfect_maze_without_the_grid(name: str) -> None:
    maze = lacak.generate("maze", "wilson", (4, 5) if name != "polar" else 4, seed=3, grid=name)
    data = maze.to_dict(links=True) if name == "rect" else maze.to_dict()
    cells = [tuple(cell) for cell in data["cells"]]
    links = [(tuple(a), tuple(b)) for a, b in data["links"]]
    assert len(links) == len(cells) - 1
    reached, todo = {cells[0]}, [cells[0]]
    around: dict = {}
    for a, b in links:
        around.setdefault(a, []).append(b)
        around.setdefault(b, []).append(a)
    while todo:
        for other in around.get(todo.pop(), []):
            if other not in reached:
                reached.add(other)
                todo.append(other)
    assert reached == set(cells)
    again = lacak.parse("maze", json.dumps(data)).maze
    assert again.is_perfect() and again.passages == len(links)


def test_the_rectangle_gives_the_same_cells_and_links_when_asked() -> None:
    maze = lacak.generate("maze", "kruskal", (3, 4), seed=2).with_endpoints()
    text = maze.to_json(links=True)
    graph = GridMaze.from_json(text)
    assert graph.grid.type == "rect" and graph.to_maze() == maze
    assert lacak.solve(lacak.parse("maze", text)).length == len(maze.solution) - 1
    assert make_grid("rectangle", (2, 2)).type == "rect"


# -- a third party's grid ----------------------------------------------------------------


class _FakeEntryPoint:
    def __init__(self, name: str, load) -> None:  # type: ignore[no-untyped-def]
        self.name, self.value, self._load = name, f"tests:{name}", load

    def load(self):  # type: ignore[no-untyped-def]
        return self._load()


def test_a_third_party_grid_gets_the_generators_solvers_pictures_and_json(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import importlib.metadata

    import attrs
    from lacak_mazes import grids
    from lacak_mazes.grids import RectGrid

    @attrs.frozen(slots=False)
    class Ladder(RectGrid):
        type = "ladder"
        description = "two rows, a ladder"

    def broken():  # type: ignore[no-untyped-def]
        raise ImportError("no such module")

    points = [_FakeEntryPoint("ladder", lambda: Ladder), _FakeEntryPoint("broken", broken)]
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda group=None: points)
    grids.grid_types.cache_clear()
    try:
        with pytest.warns(lacak.PluginWarning, match="broken"):
            types = grids.grid_types()
        assert types["ladder"] is Ladder and "broken" not in types
        maze = lacak.generate("maze", "wilson", (2, 6), seed=1, grid="ladder").with_endpoints()
        assert maze.grid.type == "ladder" and maze.is_perfect()
        again = lacak.parse("maze", maze.to_json())
        assert lacak.solve(again).length == len(maze.solution) - 1
        assert maze.render("svg").startswith("<svg")
    finally:
        grids.grid_types.cache_clear()
