"""The Maze value: invariants, JSON, endpoints and paths."""

from __future__ import annotations

import json
from xml.etree import ElementTree

import lacak
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak_mazes import Maze

from .helpers import (
    braid_mazes,
    cells_of,
    diameter,
    distances,
    grid_edges,
    is_tree,
    maze_from_pairs,
    perfect_mazes,
    spanning_trees,
)


def test_spanning_tree_counts_match_the_matrix_tree_theorem() -> None:
    # 2x2: 4, 2x3: 15, 3x3: 192 (known counts of grid spanning trees)
    counts = {shape: sum(1 for _ in spanning_trees(*shape)) for shape in [(2, 2), (2, 3), (3, 3)]}
    assert counts == {(2, 2): 4, (2, 3): 15, (3, 3): 192}


def test_is_perfect_agrees_with_a_union_find_on_every_edge_subset() -> None:
    edges = grid_edges(2, 3)
    for mask in range(1 << len(edges)):
        pairs = [e for i, e in enumerate(edges) if mask >> i & 1]
        assert maze_from_pairs(2, 3, pairs).is_perfect() == is_tree(2, 3, pairs)


@settings(max_examples=40)
@given(braid_mazes())
def test_json_round_trip(maze: Maze) -> None:
    again = Maze.from_json(maze.to_json())
    assert again == maze and hash(again) == hash(maze)
    assert json.loads(maze.to_json()) == maze.to_dict()


@settings(max_examples=40)
@given(perfect_mazes())
def test_json_round_trip_with_solution(maze: Maze) -> None:
    solved = maze.with_endpoints()
    text = solved.to_json()
    data = json.loads(text)
    assert set(data) == {
        "height",
        "width",
        "algorithm",
        "seed",
        "options",
        "cells",
        "start",
        "end",
        "solution",
    }
    assert Maze.from_json(text) == solved
    # the maze kind reads the maze with its endpoints, as a puzzle
    puzzle = lacak.parse("maze", text)
    assert puzzle.maze == solved
    assert (puzzle.initial, puzzle.goal) == (solved.start, solved.end)


def test_cells_are_read_only_and_compact() -> None:
    maze = lacak.generate("maze", "wilson", (4, 5), seed=1)
    assert maze.cells.dtype == np.uint8 and maze.cells.shape == (4, 5)
    with pytest.raises(ValueError):
        maze.cells[0, 0] = 0
    source = np.zeros((1, 2), dtype=np.uint8)
    source[0, 0], source[0, 1] = 2, 8
    built = Maze(source)
    source[0, 0] = 0  # the maze keeps its own copy
    assert built.cells[0, 0] == 2


def test_equality_covers_every_field() -> None:
    maze = lacak.generate("maze", "kruskal", (5, 5), seed=3)
    assert maze == lacak.generate("maze", "kruskal", (5, 5), seed=3)
    assert maze != lacak.generate("maze", "kruskal", (5, 5), seed=4)
    assert maze != maze.with_endpoints()
    assert maze.with_endpoints() == maze.with_endpoints()
    assert maze != Maze(maze.cells)  # no algorithm or seed
    assert len({maze, lacak.generate("maze", "kruskal", (5, 5), seed=3)}) == 1


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "not valid JSON"),
        ("[]", "JSON object"),
        ('{"height": 1}', "no 'cells'"),
        ('{"cells": []}', "non-empty list of rows"),
        ('{"cells": [[0, 0], [0]]}', "row 1 of the maze cells has 1 cells"),
        ('{"cells": [[16]]}', "bitmask 0-15"),
        ('{"cells": [["a"]]}', "bitmask 0-15"),
        ('{"cells": [[true]]}', "bitmask 0-15"),
        ('{"cells": [[1]]}', "passage north out of the grid"),
        ('{"cells": [[4]]}', "passage south out of the grid"),
        ('{"cells": [[8]]}', "passage west out of the grid"),
        ('{"cells": [[2]]}', "passage east out of the grid"),
        ('{"cells": [[2, 0]]}', "open to the east but cell [0, 1] is not open to the west"),
        ('{"cells": [[0, 8]]}', "open to the west but cell [0, 0] is not open to the east"),
        ('{"cells": [[4], [0]]}', "open to the south but cell [1, 0] is not open to the north"),
        ('{"cells": [[0], [1]]}', "open to the north but cell [0, 0] is not open to the south"),
        ('{"cells": [[2, 8]], "height": 2}', "'height' is 2 but 'cells' has 1 rows"),
        ('{"cells": [[2, 8]], "width": 3}', "'width' is 3 but 'cells' has 2 columns"),
        ('{"cells": [[2, 8]], "start": [0, 2], "end": [0, 0]}', "start [0, 2] is outside"),
        ('{"cells": [[2, 8]], "start": [0, 0], "end": [-1, 0]}', "end [-1, 0] is outside"),
        ('{"cells": [[2, 8]], "start": "a1"}', "must be [row, col]"),
        ('{"cells": [[2, 8]], "solution": [[0, 0], [0, 1]]}', "needs a start and an end"),
        (
            '{"cells": [[0, 0]], "start": [0, 0], "end": [0, 1], "solution": [[0, 0], [0, 1]]}',
            "through a wall at step 1",
        ),
        (
            '{"cells": [[2, 8]], "start": [0, 0], "end": [0, 1], "solution": [[0, 1]]}',
            "must run from start",
        ),
        ('{"cells": [[0]], "seed": "x"}', "'seed' must be an integer"),
        ('{"cells": [[0]], "algorithm": 3}', "'algorithm' must be a string"),
        ('{"cells": [[0]], "algorithm": 0}', "'algorithm' must be a string"),
        ('{"cells": [[0]], "algorithm": false}', "'algorithm' must be a string"),
        ('{"cells": [[0]], "algorithm": []}', "'algorithm' must be a string"),
        ('{"cells": [[0]], "algorithm": ""}', None),
        ('{"cells": [[0]], "algorithm": null}', None),
        ('{"cells": [[0]], "algorithm": "\\ud800"}', "lone surrogate"),
        ('{"cells": [[0]], "algorithm": "a\\u001b[2Jb"}', "control characters"),
        ('{"cells": [[0]], "start": [0, 0.0], "end": [0, 0]}', "must be [row, col]"),
        ('{"cells": [[0]], "seed": ' + "9" * 5000 + "}", "a number with too many digits"),
        ('{"cells": [[' + "1" * 4400 + "]]}", "a number with too many digits"),
        ("[" * 200_000, "nested too deeply"),
        ('{"cells": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested too deeply"),
    ],
)
def test_malformed_json_gives_clear_errors(text: str, message: str | None) -> None:
    if message is None:
        assert Maze.from_json(text).algorithm == ""
        return
    with pytest.raises(
        lacak.InvalidPuzzleError, match=message.replace("[", r"\[").replace("]", r"\]")
    ):
        Maze.from_json(text)


def test_validate_perfect_names_the_problem() -> None:
    loop = Maze.from_rows([[6, 12], [3, 9]])
    with pytest.raises(lacak.InvalidPuzzleError, match="loops"):
        loop.validate_perfect()
    cut = Maze.from_rows([[2, 8], [0, 0]])
    with pytest.raises(lacak.InvalidPuzzleError, match=r"not connected: cell \[1, 0\]"):
        cut.validate_perfect()
    lacak.generate("maze", "eller", (3, 3), seed=0).validate_perfect()


@settings(max_examples=40)
@given(perfect_mazes(max_side=7))
def test_suggested_endpoints_are_at_maximum_distance(maze: Maze) -> None:
    solved = maze.with_endpoints()
    assert solved.solution is not None and solved.start is not None and solved.end is not None
    assert len(solved.solution) - 1 == diameter(maze)
    assert distances(maze, solved.start)[solved.end] == diameter(maze)
    assert solved.start <= solved.end  # the start comes first row by row
    solved.check_path(solved.solution)


@settings(max_examples=40)
@given(st.data())
def test_paths_are_shortest_and_valid(data: st.DataObject) -> None:
    maze = data.draw(braid_mazes())
    start = data.draw(cells_of(maze))
    end = data.draw(cells_of(maze))
    reach = distances(maze, start)
    if end not in reach:
        with pytest.raises(lacak.UnsolvableError):
            maze.path(start, end)
        return
    path = maze.path(start, end)
    assert path[0] == start and path[-1] == end
    assert len(path) - 1 == reach[end]
    maze.check_path(path)


def _first_bad_step(maze: Maze, path: list[tuple[int, int]]) -> str | None:
    """What check_path should say of ``path``, one step at a time (the reference)."""
    sides = {(-1, 0): "N", (0, 1): "E", (1, 0): "S", (0, -1): "W"}
    for step, (row, col) in enumerate(path):
        if not (0 <= row < maze.height and 0 <= col < maze.width):
            return f"leaves the grid at step {step}"
    for step in range(1, len(path)):
        (r0, c0), (r1, c1) = path[step - 1], path[step]
        side = sides.get((r1 - r0, c1 - c0))
        if side is None or not maze.is_open((r0, c0), side):
            return f"goes through a wall at step {step}"
    return None


@settings(max_examples=150)
@given(st.data())
def test_check_path_agrees_with_a_step_by_step_check(data: st.DataObject) -> None:
    """Random walks of any steps (long jumps such as (1, -2) included, and cells off the
    grid): check_path, which tests every step at once, says what a step-by-step check
    says, and names the same step."""
    maze = data.draw(braid_mazes())
    jumps = st.tuples(st.integers(-2, 2), st.integers(-2, 2))
    path = [data.draw(cells_of(maze))]
    for _ in range(data.draw(st.integers(0, 12))):
        row, col = path[-1]
        inside = 0 <= row < maze.height and 0 <= col < maze.width
        if inside and maze.neighbors((row, col)) and data.draw(st.booleans()):
            path.append(data.draw(st.sampled_from(maze.neighbors((row, col))))[1])
        else:  # any jump of up to two rows and columns, which may be no step at all
            jump = data.draw(jumps)
            path.append((row + jump[0], col + jump[1]))
    expected = _first_bad_step(maze, path)
    if expected is None:
        maze.check_path(path)
    else:
        with pytest.raises(lacak.InvalidPuzzleError, match=expected):
            maze.check_path(path)


@settings(max_examples=30)
@given(st.data())
def test_one_given_endpoint_is_completed_with_the_farthest_cell(data: st.DataObject) -> None:
    maze = data.draw(perfect_mazes(max_side=6))
    start = data.draw(cells_of(maze))
    solved = maze.with_endpoints(start=start)
    assert solved.start == start
    assert len(solved.solution) - 1 == max(distances(maze, start).values())
    ended = maze.with_endpoints(end=start)
    assert ended.end == start and ended.solution[-1] == start


@pytest.mark.parametrize("cell", [(5, 0), (0, 5), (-1, 0), (0, -1)])
def test_endpoints_outside_the_grid_are_refused(cell: tuple[int, int]) -> None:
    maze = lacak.generate("maze", "sidewinder", (5, 5), seed=1)
    with pytest.raises(lacak.InvalidPuzzleError, match="outside the 5x5 maze"):
        maze.with_endpoints(start=cell)
    with pytest.raises(lacak.InvalidPuzzleError, match="outside"):
        maze.puzzle(start=(0, 0), end=cell)


def test_with_solution_checks_the_path() -> None:
    maze = Maze.from_rows([[2, 8], [0, 0]])
    assert maze.with_solution([(0, 0), (0, 1)]).end == (0, 1)
    with pytest.raises(lacak.InvalidPuzzleError, match="wall"):
        maze.with_solution([(0, 0), (1, 0)])
    with pytest.raises(lacak.InvalidPuzzleError, match="at least one"):
        maze.with_solution([])
    with pytest.raises(lacak.UnsolvableError):
        maze.with_endpoints((0, 0), (1, 1))


def test_neighbors_and_degrees() -> None:
    maze = Maze.from_rows([[6, 12], [1, 1]])
    assert maze.neighbors((0, 0)) == [("E", (0, 1)), ("S", (1, 0))]
    assert maze.is_open((0, 1), "W") and not maze.is_open((0, 1), "E")
    assert maze.degrees().tolist() == [[2, 2], [1, 1]]
    assert maze.passages == 3 and maze.is_perfect()
    assert repr(lacak.generate("maze", "wilson", (2, 3), seed=5)) == "<Maze 2x3 wilson, seed=5>"


@pytest.mark.parametrize(
    ("cells", "message"),
    [
        ([[-1]], "bitmask 0-15"),
        ([[20]], "bitmask 0-15"),
        ([[1.5]], "not integers"),
        ([[True]], "not integers"),
        ([[1, 2], [3]], "grid of bitmasks"),
        ([], "non-empty 2-D grid"),
        ([1, 2], "non-empty 2-D grid"),
    ],
)
def test_bad_cell_arrays(cells: object, message: str) -> None:
    with pytest.raises(lacak.InvalidPuzzleError, match=message):
        Maze(cells)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda m: Maze(m.cells, start=(0.7, 0.2), end=(0, 1)), "start is \\[row, col\\]"),
        (lambda m: Maze(m.cells, start=(0, 0), end=(True, 1)), "end is \\[row, col\\]"),
        (lambda m: Maze(m.cells, start=(0, 0), end=(0, 1), solution=5), "list of \\[row"),
        (lambda m: Maze(m.cells, start=(0, 0), end=(0, 1), solution="ab"), "list of \\[row"),
        (lambda m: m.with_solution([(0, 0, 0)]), "step 0 of a solution"),
        (lambda m: m.with_solution([(0, 0), (0, 1.0)]), "step 1 of a solution"),
        (lambda m: m.with_solution(7), "list of \\[row"),
        (lambda m: m.check_path([(0,)]), "step 0 of the path"),
        (lambda m: m.neighbors((5, 5)), "outside the 1x2 maze"),
        (lambda m: m.neighbors((-1, 0)), "outside the 1x2 maze"),
        (lambda m: m.neighbors("ab"), "must be \\(row, col\\)"),
        (lambda m: m.is_open((0, 9), "E"), "outside the 1x2 maze"),
        (lambda m: Maze(m.cells, algorithm=0), "algorithm must be a string"),
        (lambda m: Maze(m.cells, algorithm="\ud800"), "lone surrogate"),
    ],
)
def test_library_calls_refuse_bad_cells_with_puzzle_errors(make, message: str) -> None:  # type: ignore[no-untyped-def]
    maze = Maze.from_rows([[2, 8]])
    with pytest.raises(lacak.InvalidPuzzleError, match=message):
        make(maze)


def test_is_open_refuses_unknown_directions() -> None:
    maze = Maze.from_rows([[2, 8]])
    assert maze.is_open((0, 0), "E") and not maze.is_open((0, 0), "W")
    for direction in ("X", "e", "", None):
        with pytest.raises(lacak.InvalidOptionError, match="one of N, E, S, W"):
            maze.is_open((0, 0), direction)  # type: ignore[arg-type]


def test_cells_may_be_numpy_integers_and_pairs() -> None:
    maze = Maze.from_rows([[2, 8]])
    solved = maze.with_solution(np.array([[0, 0], [0, 1]]))
    assert solved.solution == ((0, 0), (0, 1)) and solved.start == (0, 0)
    assert Maze(maze.cells, start=(np.int64(0), np.int32(1)), end=(0, 0)).start == (0, 1)
    assert maze.neighbors(np.array([0, 1])) == [("W", (0, 0))]
    assert not maze.contains((0, 0.5)) and not maze.contains((0,))  # type: ignore[arg-type]


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 20)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(st.characters(exclude_categories=()), max_size=5),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=12,
)
MAZE_KEYS = ["cells", "start", "end", "solution", "algorithm", "seed", "height", "width"]


@settings(max_examples=150)
@given(
    fields=st.dictionaries(st.sampled_from(MAZE_KEYS), JSON_VALUES, max_size=6),
    cells=st.lists(st.lists(st.integers(0, 15), min_size=1, max_size=3), min_size=1, max_size=3),
    keep_cells=st.booleans(),
)
def test_any_json_object_is_a_maze_or_an_invalid_puzzle_error(
    fields: dict[str, object], cells: list[list[int]], keep_cells: bool
) -> None:
    """Whatever the fields hold, reading gives a Maze or an InvalidPuzzleError, never another
    exception; and a Maze read that way writes JSON that reads back equal."""
    if keep_cells:
        fields = {**fields, "cells": cells}
    try:
        maze = Maze.from_json(json.dumps(fields))
    except lacak.InvalidPuzzleError:
        return
    assert Maze.from_json(maze.to_json()) == maze
    maze.algorithm.encode("utf-8")  # printable: no lone surrogates
    ElementTree.fromstring(maze.render("svg"))  # and well-formed in XML
