"""The carving order of every built-in maze generator (``carving=True``): replayed from an
empty grid (a full one for wall-adders) it makes exactly the maze, one passage between
adjacent cells a step; asking for it changes nothing in the maze; the same seed gives
the same steps; and it goes through JSON and the command line."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import lacak
import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak.cli import make_cli
from lacak.testing import one_line_error
from lacak_mazes import Maze
from lacak_mazes.carving import Carving

#: The built-in generators (a third-party one need not take the option).
BUILT_IN = sorted(
    name
    for name, generator in lacak.generators("maze").items()
    if generator.metadata.get("module", "").startswith("lacak_mazes.")
)
#: Generators that grow one tree from a root: each step joins a new cell to it.
GROW_ONE_TREE = {
    "recursive-backtracker",
    "hunt-and-kill",
    "prim",
    "prim-frontier",
    "growing-tree",
    "aldous-broder",
}
#: Option values worth trying, per generator (the defaults always are).
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "hunt-and-kill": [
        {"hunt": hunt, "hunt_chance": chance}
        for hunt in ("rows", "columns", "random")
        for chance in (0.0, 0.4)
    ],
    "growing-tree": [{"policy": policy} for policy in ("newest", "oldest", "random", "mix")],
    "binary-tree": [{"bias": bias} for bias in ("NW", "NE", "SW", "SE")],
    "eller": [{"join": 0.2, "down": 0.8}],
}
STEP = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
BIT = {"N": 1, "E": 2, "S": 4, "W": 8}
BACK = {"N": "S", "E": "W", "S": "N", "W": "E"}


def digest(maze: Maze) -> str:
    """The maze's JSON without its carving, hashed: what it is, not how it was made."""
    data = maze.to_dict()
    data.pop("carving", None)
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


def replay(height: int, width: int, steps: list[list[Any]], adds: str) -> list[list[int]]:
    """Replay the JSON steps on a plain grid, checking each one on the way."""
    cells = [[0] * width for _ in range(height)]
    if adds == "walls":  # one open room
        for r in range(height):
            for c in range(width):
                for side, (dr, dc) in STEP.items():
                    if 0 <= r + dr < height and 0 <= c + dc < width:
                        cells[r][c] |= BIT[side]
    for number, (r, c, side) in enumerate(steps):
        dr, dc = STEP[side]
        nr, nc = r + dr, c + dc
        assert 0 <= r < height and 0 <= c < width, f"step {number} starts outside"
        assert 0 <= nr < height and 0 <= nc < width, f"step {number} leaves the grid"
        is_open = bool(cells[r][c] & BIT[side])
        assert is_open == (adds == "walls"), f"step {number} does nothing"
        cells[r][c] ^= BIT[side]
        cells[nr][nc] ^= BIT[BACK[side]]
    return cells


@st.composite
def requests(draw: st.DrawFn) -> tuple[str, tuple[int, int], int, dict[str, Any]]:
    name = draw(st.sampled_from(BUILT_IN))
    size = (draw(st.integers(1, 24)), draw(st.integers(1, 24)))
    seed = draw(st.integers(0, 2**40))
    options = draw(st.sampled_from([{}, *VARIANTS.get(name, [])]))
    return name, size, seed, options


@settings(max_examples=150, deadline=None)
@given(requests())
def test_replaying_the_carving_makes_the_maze(request: Any) -> None:
    name, size, seed, options = request
    plain = lacak.generate("maze", name, size, seed=seed, **options)
    carved = lacak.generate("maze", name, size, seed=seed, carving=True, **options)
    assert plain.carving is None
    assert carved.carving is not None
    assert digest(carved) == digest(plain)  # asking for the order changes nothing
    assert carved.to_dict()["cells"] == plain.to_dict()["cells"]
    data = carved.carving.to_dict()
    cells = replay(carved.height, carved.width, data["steps"], data["adds"])
    assert cells == plain.cells.tolist()
    if data["adds"] == "passages":
        assert len(data["steps"]) == plain.passages == plain.size - 1
    again = lacak.generate("maze", name, size, seed=seed, carving=True, **options)
    assert again.carving is not None
    assert again.carving.to_dict() == data  # deterministic
    if name in GROW_ONE_TREE and data["steps"]:
        # each step reaches a cell not yet in the tree from one that is
        first = data["steps"][0]
        dr, dc = STEP[first[2]]
        tree = {(first[0] + dr, first[1] + dc)}
        for r, c, side in data["steps"]:
            dr, dc = STEP[side]
            assert (r, c) not in tree and (r + dr, c + dc) in tree
            tree.add((r, c))


def test_recursive_division_adds_walls() -> None:
    maze = lacak.generate("maze", "recursive-division", (9, 12), seed=3, carving=True)
    assert maze.carving is not None and maze.carving.adds == "walls"
    inner_walls = 9 * 11 + 8 * 12
    assert len(maze.carving) == inner_walls - maze.passages


def test_default_json_is_unchanged() -> None:
    maze = lacak.generate("maze", "wilson", (6, 7), seed=2)
    assert "carving" not in maze.to_dict()
    assert '"carving"' not in maze.to_json()
    assert maze.to_json().endswith('"solution": null\n}') or maze.to_json().endswith("null\n}")


def test_json_round_trip_and_equality() -> None:
    maze = lacak.generate("maze", "prim", (5, 8), seed=11, carving=True)
    back = Maze.from_json(maze.to_json())
    assert back.carving is not None
    assert back.carving.to_dict() == maze.carving.to_dict()
    assert Maze.from_dict(json.loads(json.dumps(maze.to_dict()))).carving is not None
    assert back == lacak.generate("maze", "prim", (5, 8), seed=11)  # how it was made aside


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda steps: steps[:-1], "does not make this maze"),
        (lambda steps: [*steps, steps[0]], "same passage"),
        (lambda steps: [[0, 0, "N"], *steps[1:]], "leaves the"),
        (lambda steps: [[0, 0, "X"], *steps[1:]], "side N, E, S or W"),
        (lambda steps: [[0, True, "E"], *steps[1:]], "side N, E, S or W"),
    ],
)
def test_a_carving_that_does_not_make_the_maze_is_refused(change: Any, message: str) -> None:
    data = lacak.generate("maze", "kruskal", (4, 5), seed=1, carving=True).to_dict()
    data["carving"]["steps"] = change(data["carving"]["steps"])
    with pytest.raises(lacak.InvalidPuzzleError, match=message):
        Maze.from_dict(data)


def test_bad_carving_values() -> None:
    data = lacak.generate("maze", "kruskal", (2, 2), seed=1).to_dict()
    for bad in ([1, 2], {"adds": "passages"}, {"adds": "doors", "steps": []}):
        with pytest.raises(lacak.InvalidPuzzleError, match="carving"):
            Maze.from_dict({**data, "carving": bad})
    with pytest.raises(lacak.InvalidOptionError, match="carving"):
        lacak.generate("maze", "kruskal", (2, 2), seed=1, carving="maybe")
    with pytest.raises(lacak.InvalidPuzzleError, match="shape"):
        Carving([1, 2, 3, 4])


def test_replay_part_way() -> None:
    maze = lacak.generate("maze", "recursive-backtracker", (6, 6), seed=5, carving=True)
    assert maze.carving is not None
    assert not maze.carving.replay(6, 6, 0).any()
    assert int(np.count_nonzero(maze.carving.replay(6, 6, 3))) == 4  # a path of 4 cells


def test_command_line_carving() -> None:
    runner = CliRunner()
    main = make_cli()
    args = ["maze", "generate", "-a", "eller", "--size", "4x5", "--seed", "2", "--json"]
    plain = runner.invoke(main, args)
    carved = runner.invoke(main, [*args, "-O", "carving=true"])
    assert plain.exit_code == 0 and carved.exit_code == 0, carved.output
    assert "carving" not in json.loads(plain.output)
    data = json.loads(carved.output)
    assert data["carving"]["adds"] == "passages" and len(data["carving"]["steps"]) == 19
    assert {k: v for k, v in data.items() if k != "carving"} == json.loads(plain.output)
    one_line_error(runner.invoke(main, [*args, "-O", "carving=perhaps"]), "carving")


@pytest.mark.parametrize("name", BUILT_IN)
@pytest.mark.parametrize("size", [(64, 96), (97, 40)])
def test_large_mazes_too(name: str, size: tuple[int, int]) -> None:
    """Sides of 32 and more take the numpy paths (Wilson's long walks in blocks,
    Aldous-Broder's blocks of moves): their carving is the maze's too."""
    plain = lacak.generate("maze", name, size, seed=9)
    carved = lacak.generate("maze", name, size, seed=9, carving=True)
    assert carved.carving is not None and digest(carved) == digest(plain)
    data = carved.carving.to_dict()
    assert replay(*size, data["steps"], data["adds"]) == plain.cells.tolist()


def _tree_steps(maze: Maze) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Each step's cell, and the cell it was reached from."""
    cells, froms = [], []
    assert maze.carving is not None
    for r, c, side in maze.carving.to_dict()["steps"]:
        dr, dc = STEP[side]
        cells.append((r, c))
        froms.append((r + dr, c + dc))
    return cells, froms


@settings(max_examples=60, deadline=None)
@given(
    size=st.tuples(st.integers(1, 12), st.integers(1, 12)),
    seed=st.integers(0, 2**40),
    hunt=st.sampled_from(["rows", "columns", "random"]),
)
def test_hunt_and_kill_marks_its_hunts(size: tuple[int, int], seed: int, hunt: str) -> None:
    """Issue 25, item 8: the carving tells the hunts from the walk. A walk step goes on from
    the cell the step before reached; a hunt comes only when the walk is stuck (no
    unvisited neighbour), and a row (column) hunt joins the first unvisited cell, row by
    row (column by column), that has a visited neighbour: the reference's scan."""
    maze = lacak.generate("maze", "hunt-and-kill", size, seed=seed, hunt=hunt, carving=True)
    assert maze.carving is not None
    hunts = set(maze.carving.marks.get("hunt", ()))
    assert set(maze.carving.marks) <= {"hunt"}
    assert maze.carving.marked("hunt").tolist() == [i in hunts for i in range(len(maze.carving))]
    cells, froms = _tree_steps(maze)
    rows, cols = size
    tree = {froms[0]} if cells else set()

    def outside(r: int, c: int) -> bool:
        return 0 <= r < rows and 0 <= c < cols and (r, c) not in tree

    order = [(r, c) for r in range(rows) for c in range(cols)]
    if hunt == "columns":
        order = [(r, c) for c in range(cols) for r in range(rows)]
    for i, (cell, came_from) in enumerate(zip(cells, froms, strict=True)):
        here = cells[i - 1] if i else froms[0]
        if i not in hunts:
            assert came_from == here, (i, "a walk step goes on from where the walk is")
        else:
            stuck = not any(outside(here[0] + dr, here[1] + dc) for dr, dc in STEP.values())
            assert stuck, (i, "a hunt only when the walk is stuck")
            if hunt != "random":
                first = next(
                    (r, c) for r, c in order if (r, c) not in tree
                    and any((r + dr, c + dc) in tree for dr, dc in STEP.values())
                )  # fmt: skip
                assert cell == first, (i, "the scan's first unvisited cell next to the maze")
        tree.add(cell)


def test_hunt_and_kill_marks_are_the_same_for_a_seed_and_go_through_json() -> None:
    made = [lacak.generate("maze", "hunt-and-kill", (9, 13), seed=5, hunt_chance=0.3,
                           carving=True) for _ in range(2)]  # fmt: skip
    data = made[0].to_dict()["carving"]
    assert data["marks"]["hunt"] and data == made[1].to_dict()["carving"]
    back = Maze.from_json(made[0].to_json())
    assert back.carving is not None and back.carving.to_dict() == data
    columns = lacak.generate("maze", "hunt-and-kill", (13, 9), seed=5, hunt_chance=0.3,
                             hunt="columns", carving=True)  # fmt: skip
    assert columns.carving is not None
    assert columns.carving.marks == made[0].carving.marks  # the transpose, step for step


@pytest.mark.parametrize("name", sorted(set(BUILT_IN) - {"hunt-and-kill"}))
def test_the_other_generators_mark_nothing(name: str) -> None:
    maze = lacak.generate("maze", name, (5, 6), seed=3, carving=True)
    assert maze.carving is not None and maze.carving.marks == {}
    assert "marks" not in maze.to_dict()["carving"]  # their JSON as it was


@pytest.mark.parametrize(
    ("marks", "message"),
    [
        ({"hunt": [99]}, "names step 99"),
        ({"hunt": [-1]}, "names step -1"),
        ({"hunt": ["1"]}, "list of step numbers"),
        ({"hunt": [True]}, "list of step numbers"),
        ({"hunt": 3}, "list of step numbers"),
        ({"": [1]}, "list of step numbers"),
        ([1, 2], "map a name"),
    ],
)
def test_bad_marks_are_refused(marks: Any, message: str) -> None:
    data = lacak.generate("maze", "hunt-and-kill", (4, 5), seed=4, carving=True).to_dict()
    data["carving"]["marks"] = marks
    with pytest.raises(lacak.InvalidPuzzleError, match=message):
        Maze.from_dict(data)
