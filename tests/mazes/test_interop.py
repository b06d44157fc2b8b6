"""lacak mazes to and from maze-dataset, and their easy-to-hard pixels
(:mod:`lacak_mazes.interop`, ``lacak batch maze --format pixels``).

maze-dataset is not a test dependency (it brings Jupyter and matplotlib), so lacak is
checked against it three ways: against what its own code made of ten mazes, recorded
in ``data/maze_dataset_reference.npz`` (``data/make_maze_dataset_reference.py``);
against a stand-in module with its constructors' signatures, for which class
:func:`to_maze_dataset` picks and what it gives it; and against maze-dataset itself
where it is installed (the tests marked so skip elsewhere).
"""

from __future__ import annotations

import json
import sys
import types
import warnings
from collections import deque
from pathlib import Path
from typing import Any

import lacak
import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lacak.batch import job_seed
from lacak.cli import make_cli
from lacak_mazes import Maze
from lacak_mazes.interop import (
    MissingDependencyError,
    connection_list,
    from_connection_list,
    from_maze_dataset,
    pixel_pair,
    pixels,
    to_maze_dataset,
)

REFERENCE = Path(__file__).parent / "data" / "maze_dataset_reference.npz"
GENERATORS = ["wilson", "kruskal", "recursive-backtracker", "prim", "eller", "sidewinder",
              "hunt-and-kill", "binary-tree", "aldous-broder"]  # fmt: skip


@st.composite
def mazes(draw: Any, *, braid: bool = True) -> Maze:
    """A maze of a random generator, size and seed (braided, with loops, sometimes)."""
    rows, cols = draw(st.integers(1, 9)), draw(st.integers(1, 9))
    options: dict[str, Any] = {"braid": draw(st.sampled_from([0.0, 0.5, 1.0]))} if braid else {}
    if draw(st.booleans()):
        options["weights"] = "1-5"
    maze = lacak.generate("maze", draw(st.sampled_from(GENERATORS)), (rows, cols),
                          seed=draw(st.integers(0, 2**32)), **options)  # fmt: skip
    return maze.with_endpoints()


def reference() -> list[dict[str, np.ndarray]]:
    """The recorded mazes: what maze-dataset's own code made of each."""
    with np.load(REFERENCE) as data:
        found: dict[int, dict[str, np.ndarray]] = {}
        for key in data.files:
            number, name = key.split("_", 1)
            found.setdefault(int(number), {})[name] = data[key]
    return [found[i] for i in sorted(found)]


# -- against maze-dataset's own output, recorded -------------------------------------------


@pytest.mark.parametrize(
    "recorded", reference(), ids=lambda r: "x".join(map(str, r["cells"].shape))
)
def test_lacak_makes_what_maze_dataset_made(recorded: dict[str, np.ndarray]) -> None:
    maze = Maze(recorded["cells"]).with_solution(recorded["solution"].tolist())
    assert np.array_equal(connection_list(maze), recorded["connections"])
    assert from_connection_list(recorded["connections"]) == maze.without_endpoints()
    # maze-dataset's RasterizedMazeDataset pair, and its as_pixels at 1 pixel a block
    inputs, target = pixels(maze, style="maze-dataset")
    assert np.array_equal(inputs, recorded["rasterized"][0])
    assert np.array_equal(target, recorded["rasterized"][1])
    if maze.size > 1:  # (as_pixels shows the path; the pair drops nothing then)
        shown = recorded["as_pixels"]
        assert np.array_equal(inputs[1:-1:2, 1:-1:2][(shown != [0, 0, 255]).any(-1)],
                              shown[(shown != [0, 0, 255]).any(-1)])  # fmt: skip
    # the easy-to-hard layout is the same pictures: channels first, 0/1; a 0/1 path
    easy_in, easy_target = pixels(maze)
    assert np.array_equal(easy_in, recorded["rasterized"][0].transpose(2, 0, 1) // 255)
    assert np.array_equal(easy_target, recorded["rasterized"][1].any(-1))
    if "back" in recorded:  # its tokens read back into the same maze (in a square grid:
        # they give no size, it reads one from the cells named)
        back, (rows, cols) = recorded["back"], maze.shape
        assert np.array_equal(back[:, :rows, :cols], recorded["connections"])
        assert back.sum() == recorded["connections"].sum()
        assert recorded["tokens"][0] == "<ADJLIST_START>"


def test_the_reference_is_ten_mazes_with_a_single_cell_and_loops() -> None:
    found = reference()
    assert len(found) == 10 and found[0]["cells"].shape == (1, 1)
    assert any(Maze(r["cells"]).passages >= Maze(r["cells"]).size for r in found)  # loops


# -- connection lists, pixels: properties ----------------------------------------------


@settings(max_examples=60, deadline=None)
@given(mazes())
def test_connection_lists_round_trip_and_mean_down_and_right(maze: Maze) -> None:
    links = connection_list(maze)
    assert links.shape == (2, *maze.shape) and links.dtype == bool
    for (row, col), down, right in zip(np.ndindex(*maze.shape), links[0].flat, links[1].flat,
                                       strict=True):  # fmt: skip
        assert down == maze.is_open((row, col), "S") and right == maze.is_open((row, col), "E")
    back = from_connection_list(links, start=maze.start, end=maze.end, solution=maze.solution)
    assert back.to_json() == attrs_free(maze).to_json()


def attrs_free(maze: Maze) -> Maze:
    """``maze`` as a connection list keeps it: cells, ends and solution (no generator,
    seed or options)."""
    return Maze(maze.cells, start=maze.start, end=maze.end, solution=maze.solution)


def connected(mask: np.ndarray, start: tuple[int, int], end: tuple[int, int]) -> bool:
    """Whether ``end`` is reached from ``start`` through 4-neighbouring true pixels."""
    seen, queue = {start}, deque([start])
    while queue:
        r, c = queue.popleft()
        for step in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if (0 <= step[0] < mask.shape[0] and 0 <= step[1] < mask.shape[1]
                    and mask[step] and step not in seen):  # fmt: skip
                seen.add(step)
                queue.append(step)
    return end in seen


@settings(max_examples=60, deadline=None)
@given(mazes())
def test_pixels_are_the_maze_and_a_connected_path_from_start_to_end(maze: Maze) -> None:
    inputs, target = pixels(maze)
    height, width = 4 * maze.height + 4, 4 * maze.width + 4
    assert inputs.shape == (3, height, width) and target.shape == (height, width)
    assert inputs.dtype == target.dtype == np.uint8
    assert set(np.unique(inputs)) <= {0, 1} and set(np.unique(target)) <= {0, 1}
    # a cell (r, c) is the block at 4r+3, 4c+3: its pixel of the 2r+1, 2c+1 picture
    (sr, sc), (er, ec) = maze.start, maze.end
    start, end = (4 * sr + 3, 4 * sc + 3), (4 * er + 3, 4 * ec + 3)
    if maze.size > 1:
        colour = {tuple(inputs[:, r, c]) for r, c in (start, end)}
        assert colour == ({(1, 0, 0)} if start == end else {(0, 1, 0), (1, 0, 0)})
        assert tuple(inputs[:, start[0], start[1]]) == ((1, 0, 0) if start == end else (0, 1, 0))
    # the path: its cells' blocks, the passages between, nothing else
    assert target.sum() == (4 * (2 * len(maze.solution) - 1) if maze.size > 1 else 0)
    for r, c in maze.solution:
        if maze.size > 1:
            assert target[4 * r + 3 : 4 * r + 5, 4 * c + 3 : 4 * c + 5].all()
    if maze.size > 1:
        assert connected(target.astype(bool), start, end)
        # and the target is on open pixels only: the path never crosses a wall
        assert not (target.astype(bool) & (inputs.sum(0) == 0)).any()
    # walls: the frame, and every pixel of a wall between two cells
    assert not inputs[:, [0, 1, 2, -1, -2, -3], :].any()
    assert (inputs.sum(0) > 0).sum() == 4 * (maze.size + maze.passages) or maze.size == 1


@settings(max_examples=30, deadline=None)
@given(mazes(braid=False), st.sampled_from(["easy-to-hard", "maze-dataset"]))
def test_pixels_of_the_record_s_json_are_those_of_the_maze(maze: Maze, style: str) -> None:
    data = maze.to_dict()
    made = pixel_pair(data["cells"], data["solution"], style)
    for mine, theirs in zip(made, pixels(maze, style=style), strict=True):
        assert np.array_equal(mine, theirs)


def test_pixels_find_a_path_when_the_maze_has_none() -> None:
    maze = lacak.generate("maze", "prim", (4, 5), seed=3)
    assert np.array_equal(pixels(maze)[1], pixels(maze.with_endpoints())[1])
    ends = maze.with_endpoints((0, 0), (3, 4), solution=False)
    assert np.array_equal(pixels(ends)[1], pixels(maze.with_endpoints((0, 0), (3, 4)))[1])
    path = maze.path((1, 1), (2, 2))
    assert pixels(maze, path)[1].sum() == 4 * (2 * len(path) - 1)


def test_bad_input_is_refused_in_one_line() -> None:
    maze = lacak.generate("maze", "wilson", (3, 3), seed=1)
    with pytest.raises(lacak.InvalidOptionError, match="style is one of"):
        pixels(maze, style="rgb")
    hexes = lacak.generate("maze", "wilson", (3, 3), seed=1, grid="hex")
    masked = lacak.generate("maze", "wilson", (3, 3), seed=1, mask="X../.../...")
    for other in (hexes, masked):
        for call in (pixels, connection_list, to_maze_dataset):
            with pytest.raises(lacak.InvalidPuzzleError, match="rectangular mazes of cells only"):
                call(other)
    with pytest.raises(lacak.InvalidPuzzleError, match="takes a lacak Maze"):
        pixels("maze")
    with pytest.raises(lacak.InvalidPuzzleError, match=r"through|wall|path"):
        pixels(maze, [(0, 0), (2, 2)])
    with pytest.raises(lacak.InvalidPuzzleError, match=r"\(2, rows, cols\)"):
        from_connection_list(np.zeros((3, 2, 2)))
    wraps = np.zeros((2, 2, 2), dtype=bool)
    wraps[0, 1, 0] = True  # down from the last row: a periodic lattice
    with pytest.raises(lacak.InvalidPuzzleError, match="out of the grid"):
        from_connection_list(wraps)
    with pytest.raises(lacak.InvalidPuzzleError, match="takes a maze-dataset maze"):
        from_maze_dataset(maze)


# -- to_maze_dataset with a stand-in, and without maze-dataset -------------------------


class _Lattice:
    def __init__(self, *, connection_list: np.ndarray, **fields: Any) -> None:
        self.connection_list = connection_list
        self.__dict__.update(fields)


class _Targeted(_Lattice):
    pass


class _Solved(_Targeted):
    def __init__(self, *, connection_list: np.ndarray, solution: np.ndarray,
                 generation_meta: dict[str, Any] | None = None) -> None:  # fmt: skip
        super().__init__(connection_list=connection_list, solution=solution,
                         start_pos=solution[0], end_pos=solution[-1],
                         generation_meta=generation_meta)  # fmt: skip


@pytest.fixture
def stand_in(monkeypatch: pytest.MonkeyPatch) -> None:
    """``maze_dataset.maze`` as a stand-in with maze-dataset's three classes' keywords."""
    package = types.ModuleType("maze_dataset")
    module = types.ModuleType("maze_dataset.maze")
    module.LatticeMaze, module.TargetedLatticeMaze, module.SolvedMaze = (  # type: ignore[attr-defined]
        _Lattice, _Targeted, _Solved)  # fmt: skip
    package.maze = module  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "maze_dataset", package)
    monkeypatch.setitem(sys.modules, "maze_dataset.maze", module)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)  # (one stand-in will do)
@given(maze=mazes())
def test_to_maze_dataset_picks_the_class_and_round_trips(stand_in: None, maze: Maze) -> None:
    solved = to_maze_dataset(maze)
    assert type(solved) is _Solved and solved.solution.tolist() == [list(c) for c in maze.solution]
    assert np.array_equal(solved.connection_list, connection_list(maze))
    assert from_maze_dataset(solved).to_json() == maze.to_json()  # the same bytes
    ends = maze.with_endpoints(maze.start, maze.end, solution=False)
    targeted = to_maze_dataset(ends)
    assert type(targeted) is _Targeted and list(targeted.start_pos) == list(maze.start)
    assert from_maze_dataset(targeted).to_json() == ends.to_json()
    plain = to_maze_dataset(maze.without_endpoints())
    assert type(plain) is _Lattice
    assert from_maze_dataset(plain).to_json() == maze.without_endpoints().to_json()
    # a maze-dataset maze lacak did not make: its cells, ends and path
    del solved.generation_meta
    assert from_maze_dataset(solved).to_json() == attrs_free(maze).to_json()
    # a puzzle's ends are the puzzle's; a path given is the one converted
    puzzle = maze.puzzle(maze.end, maze.start)
    assert type(to_maze_dataset(puzzle)) is (_Solved if maze.start == maze.end else _Targeted)
    reverse = to_maze_dataset(maze, list(reversed(maze.solution)))
    assert from_maze_dataset(reverse).solution == tuple(reversed(maze.solution))


def test_a_solution_that_does_not_join_the_ends_is_refused(stand_in: None) -> None:
    maze = lacak.generate("maze", "wilson", (3, 3), seed=2).with_endpoints()
    solved = to_maze_dataset(maze)
    solved.start_pos = np.array([9, 9])
    with pytest.raises(lacak.InvalidPuzzleError, match="does not start at the maze's start"):
        from_maze_dataset(solved)


def test_without_maze_dataset_the_error_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "maze_dataset", None)  # (import then fails)
    monkeypatch.setitem(sys.modules, "maze_dataset.maze", None)
    maze = lacak.generate("maze", "wilson", (3, 3), seed=1)
    with pytest.raises(MissingDependencyError, match=r"pip install 'lacak\[maze-dataset\]'"):
        to_maze_dataset(maze)
    assert issubclass(MissingDependencyError, (lacak.LacakError, ImportError))
    pixels(maze)  # pixels need numpy only


# -- against maze-dataset itself, where it is installed -----------------------------------


@pytest.fixture(scope="module")
def maze_dataset() -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (its own: rust_fst not loaded, ...)
        return pytest.importorskip("maze_dataset")


@settings(max_examples=40, deadline=None)
@given(maze=mazes())
def test_maze_dataset_itself_agrees(maze_dataset: Any, maze: Maze) -> None:
    from maze_dataset import SolvedMaze
    from maze_dataset.dataset.rasterized import process_maze_rasterized_input_target
    from maze_dataset.tokenization import MazeTokenizerModular

    solved = to_maze_dataset(maze)
    assert type(solved) is SolvedMaze and solved.is_valid_path(solved.solution)
    assert from_maze_dataset(solved).to_json() == maze.to_json()  # the same bytes
    assert solved.serialize()["generation_meta"]["lacak"]["algorithm"] == maze.algorithm
    assert np.array_equal(solved.coord_degrees(), maze.degrees())
    made = process_maze_rasterized_input_target(solved)
    inputs, target = pixels(maze, style="maze-dataset")
    assert np.array_equal(made[0], inputs) and np.array_equal(made[1], target)
    if maze.is_perfect() and maze.size > 1:  # its own search finds our path, its tokens read back
        found = solved.find_shortest_path(solved.start_pos, solved.end_pos)
        assert [tuple(c) for c in found.tolist()] == list(maze.solution)
        tokenizer = MazeTokenizerModular()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (its tokenizers' deprecations)
            back = SolvedMaze.from_tokens(solved.as_tokens(tokenizer), tokenizer)
        rows, cols = maze.shape  # (a square grid: its tokens give no size)
        links = back.connection_list
        assert np.array_equal(links[:, :rows, :cols], solved.connection_list)
        assert links.sum() == solved.connection_list.sum()
        assert from_maze_dataset(back).solution == maze.solution


# -- lacak batch maze --format pixels ------------------------------------------------------


def cli(*args: str) -> Any:
    return CliRunner().invoke(make_cli(), ["batch", "maze", "--seed", "3", *args])


ARGS = ("-a", "wilson", "--size", "5x6", "-n", "9", "--format", "pixels")


def test_batch_pixels_are_the_mazes_pixels(tmp_path: Path) -> None:
    out = tmp_path / "px.npz"
    result = cli(*ARGS, "-w", "2", "-o", str(out))
    assert result.exit_code == 0, result.output
    with np.load(out) as arrays:
        assert arrays["inputs"].shape == (9, 3, 24, 28) and arrays["inputs"].dtype == np.uint8
        assert arrays["targets"].shape == (9, 24, 28) and arrays["targets"].dtype == np.uint8
        for i, seed in enumerate(arrays["seed"].tolist()):
            assert seed == job_seed(3, i)
            maze = lacak.generate("maze", "wilson", (5, 6), seed=seed).with_endpoints()
            inputs, target = pixels(maze)
            assert np.array_equal(arrays["inputs"][i], inputs)
            assert np.array_equal(arrays["targets"][i], target)
            assert np.array_equal(arrays["cells"][i], maze.cells)
    # JSON Lines records hold them too, beside the maze (with its solution: implied)
    (record,) = [json.loads(line) for line in cli(*ARGS[:4], "-n", "1", "--format",
                                                   "pixels").stdout.splitlines()]  # fmt: skip
    assert record["instance"]["solution"] and set(record["pixels"]) == {"inputs", "targets"}
    # without --format pixels, nothing changes
    plain = tmp_path / "plain.npz"
    assert cli(*ARGS[:6], "-o", str(plain)).exit_code == 0
    with np.load(plain) as arrays:
        assert "inputs" not in arrays and "targets" not in arrays


def test_batch_pixels_are_the_same_bytes_whatever_runs_them_and_after_a_resume(
    tmp_path: Path,
) -> None:
    one, two = tmp_path / "one.npz", tmp_path / "two.npz"
    assert cli(*ARGS, "-w", "1", "-o", str(one)).exit_code == 0
    assert cli(*ARGS, "-w", "2", "--chunk-size", "1", "-o", str(two)).exit_code == 0
    assert one.read_bytes() == two.read_bytes()
    # a run killed in the middle of a record leaves the .npz's journal: --resume finishes it
    plain = tmp_path / "plain.jsonl"
    assert cli(*ARGS, "-w", "2", "-o", str(plain)).exit_code == 0
    lines = plain.read_bytes().splitlines(keepends=True)
    cut = tmp_path / "cut.npz"
    Path(str(cut) + ".jsonl").write_bytes(b"".join(lines[:4]) + lines[4][:500])
    resumed = cli(*ARGS, "-w", "2", "-o", str(cut), "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert cut.read_bytes() == one.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cut.npz", "one.npz", "plain.jsonl",
                                                          "two.npz"]  # fmt: skip


@pytest.mark.parametrize(
    ("given", "says"),
    [
        (("--format", "rgb"), "--format is one of cells, pixels, not 'rgb'"),
        (("--format", "pixels", "--grid", "hex"), "rectangular mazes of cells only"),
        (("--format", "pixels", "--grid", "torus"), "rectangular mazes of cells only"),
    ],
)
def test_batch_pixels_refuse_what_they_cannot_draw(
    tmp_path: Path, given: tuple[str, ...], says: str
) -> None:
    out = tmp_path / "x.npz"
    result = cli("-w", "1", "--size", "4x4", "-n", "2", *given, "-o", str(out))
    assert result.exit_code == 2, result.output
    message = result.stderr.strip()
    assert message.startswith("Error: ") and "\n" not in message and says in message, message
    assert not out.exists()


def test_batch_pixels_refuse_a_mask(tmp_path: Path) -> None:
    mask = tmp_path / "mask.txt"
    mask.write_text("X..\n...\n")
    result = cli("-w", "1", "-n", "2", "--format", "pixels", "--mask", str(mask))
    assert result.exit_code == 2 and "rectangular mazes of cells only" in result.stderr
