"""The sliding kind on the one pipeline: choice, estimate, notation, stdin, pictures, progress.

``lacak.solve(puzzle)`` and ``lacak sliding solve`` choose the same and give the
same result; ``estimate`` prints the course notes' worked examples; boards may
be written as vectors; long output is summarised; pattern-database builds are
announced through :mod:`lacak.progress`.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import lacak
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak.cli import make_cli
from lacak.testing import replay
from lacak.testing import strategies as lst
from lacak_sliding import choice, pdb, pictures
from lacak_sliding.generators import random_board
from lacak_sliding.pdb import build as pdb_build
from lacak_sliding.puzzle import SlidingPuzzle

from .helpers import distances


@pytest.fixture(scope="module")
def cli():  # type: ignore[no-untyped-def]
    return make_cli()


@pytest.fixture
def fresh_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty cache folder, and no pattern database in memory."""
    monkeypatch.setenv("LACAK_CACHE_DIR", str(tmp_path))
    pdb.forget_memory()
    yield tmp_path / "pdb"
    pdb.forget_memory()


def run(cli, *args: str, input: str | None = None):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli, list(args), input=input)


# -- one choice, one result -------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(
    shape=st.sampled_from([(2, 2), (2, 3), (3, 2), (3, 3), (2, 4)]),
    seed=lst.seeds(),
    heuristic=st.sampled_from([None, "misplaced", "linear-conflict"]),
    strategy=st.sampled_from([None, "astar-tiles", "bfs", "idastar"]),
)
def test_the_library_and_the_command_choose_and_find_the_same(
    cli, shape: tuple[int, int], seed: int, heuristic: str | None, strategy: str | None
) -> None:  # type: ignore[no-untyped-def]
    puzzle = random_board(shape, seed)
    text = puzzle.format_state(puzzle.initial)
    chosen = lacak.choose(puzzle, strategy, heuristic)
    library = lacak.solve(puzzle, strategy, heuristic=heuristic)
    args = ["sliding", "solve", text, "--size", f"{shape[0]}x{shape[1]}", "--json"]
    args += ["--strategy", strategy] if strategy else []
    args += ["--heuristic", heuristic] if heuristic else []
    done = run(cli, *args)
    assert done.exit_code == 0, done.output
    data = json.loads(done.stdout)
    assert data["strategy"] == chosen.searcher.name == library.strategy
    assert data["heuristic"] == (chosen.heuristic.spec if chosen.heuristic else None)
    assert data["heuristic"] == library.heuristic
    expected = lacak.result_json(library, puzzle)
    for key in ("found", "length", "actions", "states", "sliding"):
        assert data[key] == expected[key], key
    for count in ("expanded", "generated", "max_frontier", "depth", "iterations"):
        assert data["stats"][count] == expected["stats"][count], count


@pytest.mark.parametrize(
    ("shape", "expected"),
    [
        ((2, 2), ("idastar-tiles", "manhattan")),
        ((3, 3), ("idastar-tiles", "manhattan")),
        ((2, 4), ("idastar-tiles", "manhattan")),
        ((4, 4), ("idastar-tiles", "pdb-663")),
        ((3, 4), ("idastar-tiles", "pdb")),
        ((4, 3), ("idastar-tiles", "pdb")),
        ((2, 8), ("idastar-tiles", "pdb")),
        ((4, 5), ("idastar-tiles", "pdb")),
        ((5, 5), ("idastar-tiles", "pdb")),
        ((6, 6), ("idastar-tiles", "linear-conflict")),
        ((8, 8), ("idastar-tiles", "linear-conflict")),
        ((32, 32), ("idastar-tiles", "linear-conflict")),
    ],
)
def test_the_kind_chooses_the_strongest_affordable_heuristic(
    shape: tuple[int, int], expected: tuple[str, str]
) -> None:
    """Choosing builds nothing: a 4x4 board names pdb-663 before any database exists."""
    puzzle = random_board(shape, 1)
    picked = lacak.choose(puzzle)
    assert (picked.searcher.name, picked.heuristic.name if picked.heuristic else None) == expected
    assert (picked.strategy_from, picked.heuristic_from) == ("kind", "kind")
    if expected[1] == "pdb":
        partition = pdb.Partition.default(puzzle.width, puzzle.height, puzzle.goal)
        assert partition.entries() <= choice.AFFORDABLE


def test_a_named_heuristic_is_kept_and_the_strategy_follows_the_board() -> None:
    puzzle = random_board((4, 4), 3)
    picked = lacak.choose(puzzle, heuristic="linear-conflict")
    assert picked.label == "idastar-tiles + linear-conflict"
    assert lacak.choose(puzzle, "astar-tiles").label.startswith("astar-tiles + pdb-663")


def test_a_limit_on_a_15_puzzle_advises_a_pattern_database(cli, fresh_cache: Path) -> None:  # type: ignore[no-untyped-def]
    board = random_board((4, 4), 11)
    text = board.format_state(board.initial)
    done = run(cli, "sliding", "solve", text, "-H", "linear-conflict", "--max-nodes", "50")
    assert done.exit_code == 1
    assert "not found with idastar-tiles + linear-conflict" in done.stdout
    # the usual goal's 6-6-3 ships with lacak: a first use unpacks it
    shipped = "shipped with lacak: unpacked once, in about a second"
    assert f"hint: a pattern-database heuristic: -H pdb-663 ({shipped})" in done.stdout
    # another goal's is built: "about 30 s" with numpy, "in a few seconds" compiled
    goal = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15"
    other = run(cli, "sliding", "solve", text, "--goal", goal, "-H", "linear-conflict",
                "--max-nodes", "50")  # fmt: skip
    estimate = "in a few seconds" if pdb_build.compiled_available() else "about 30 s"
    assert f"-H pdb-663 (built once, {estimate})" in other.stdout
    weak = run(cli, "sliding", "solve", text, "-s", "astar", "-H", "manhattan", "--max-nodes", "5")
    assert "-H pdb-663" in weak.stdout and "--strategy idastar-tiles" in weak.stdout


def test_the_advice_knows_a_cached_database(fresh_cache: Path) -> None:
    puzzle = random_board((3, 3), 4)
    partition = pdb.Partition.default(3, 3, puzzle.goal)
    assert choice.build_note(partition) == "built once, in a few seconds"
    pdb.pattern_heuristic(partition)
    assert choice.build_note(partition) == "cached: loads in about a second"


# -- estimate: the course notes' worked examples -------------------------------------------


def test_estimate_the_course_notes_h1_and_h2(cli) -> None:  # type: ignore[no-untyped-def]
    """The notes: H1 = 3 (tiles 1, 4 and 5 misplaced), H2 = 4 (1 + 1 + 2). Their boards are
    pictures; 523146780 against the default goal is a board with exactly those counts."""
    done = run(cli, "sliding", "estimate", "523146780", "-H", "misplaced", "-H", "manhattan",
               "--json")  # fmt: skip
    assert done.exit_code == 0, done.output
    data = json.loads(done.stdout)
    assert data["board"] == "523146780" and data["goal"] == "123456780"
    assert (data["rows"], data["cols"], data["solvable"]) == (3, 3, True)
    h1, h2 = data["estimates"]
    assert h1 == {"heuristic": "misplaced", "value": 3, "admissible": True, "tiles": [1, 4, 5]}
    assert h2 == {
        "heuristic": "manhattan",
        "value": 4,
        "admissible": True,
        "distances": [[1, 1], [4, 1], [5, 2]],
    }
    text = run(cli, "sliding", "estimate", "523146780", "-H", "misplaced", "-H", "manhattan")
    assert text.exit_code == 0
    lines = text.stdout.splitlines()
    assert lines[0] == "board 523146780 (3x3), goal 123456780"
    assert any(line.split()[:3] == ["misplaced", "3", "yes"] and "tiles 1, 4, 5" in line
               for line in lines)  # fmt: skip
    assert any(line.split()[:3] == ["manhattan", "4", "yes"] and "1: 1, 4: 1, 5: 2" in line
               for line in lines)  # fmt: skip


@pytest.mark.parametrize(
    ("board", "value"),
    [("123450786", 4), ("123405786", 2), ("120453786", 6), ("123456780", 6)],
)
def test_estimate_the_best_first_example(cli, board: str, value: int) -> None:  # type: ignore[no-untyped-def]
    """The notes' best-first search with H1 + H2, start 123450786 (h = 4), goal 103425786:
    the children 123405786 (h = 2), 120453786 (h = 6) and 123456780."""
    done = run(cli, "sliding", "estimate", board, "--goal", "103425786", "-H", "weighted", "--json")
    assert json.loads(done.stdout)["estimates"][0]["value"] == value


def test_estimate_every_heuristic_but_the_databases(cli) -> None:  # type: ignore[no-untyped-def]
    data = json.loads(run(cli, "sliding", "estimate", "867254301", "--json").stdout)
    names = [row["heuristic"].partition(":")[0] for row in data["estimates"]]
    assert {"misplaced", "manhattan", "weighted", "linear-conflict"} <= set(names)
    assert not any(name.startswith("pdb") for name in names)
    for row in data["estimates"]:
        assert isinstance(row["value"], int) and row["value"] >= 0


def test_estimate_vector_notation_from_standard_input(cli) -> None:  # type: ignore[no-untyped-def]
    """The notes' search: from (1,2,3,8,4,5,7,0,6) to their goal vector (1,2,3,8,0,4,7,6,5)."""
    done = run(cli, "sliding", "estimate", "-", "--goal", "(1,2,3,8,0,4,7,6,5)", "-H", "misplaced",
               "--json", input="( 1, 2, 3, 8, 4, 5, 7, 0, 6 )\n")  # fmt: skip
    assert done.exit_code == 0, done.output
    data = json.loads(done.stdout)
    assert data["board"] == "(1,2,3,8,4,5,7,0,6)" and data["goal"] == "(1,2,3,8,0,4,7,6,5)"
    assert data["estimates"][0]["tiles"] == [4, 5, 6]


def test_estimate_an_unsolvable_board_says_so(cli) -> None:  # type: ignore[no-untyped-def]
    done = run(cli, "sliding", "estimate", "123456870", "-H", "misplaced")
    assert done.exit_code == 0 and "cannot be reached" in done.stdout
    assert (
        json.loads(run(cli, "sliding", "estimate", "123456870", "--json").stdout)["solvable"]
        is False
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["12345678"], "not a square"),
        (["123450786", "-H", "manhatan"], "did you mean 'manhattan'"),
        (["(1,2,3,4,5,0,7,8,6"], "unbalanced parentheses"),
        (["123450786", "--size", "4x4"], "16"),
    ],
)
def test_estimate_bad_input_is_one_line(cli, args: list[str], message: str) -> None:  # type: ignore[no-untyped-def]
    done = run(cli, "sliding", "estimate", *args)
    assert done.exit_code == 2
    assert done.output.count("\n") == 1 and message in done.output


# -- vector notation -------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["(1,2,3,8,0,4,7,6,5)", "( 1, 2, 3, 8, 0, 4, 7, 6, 5 )", "(1 2 3 8 0 4 7 6 5)"]
)
def test_vector_notation_is_read_and_written_back(text: str) -> None:
    puzzle = lacak.parse("sliding", text, goal="(1,2,3,8,0,4,7,6,5)")
    assert puzzle.initial == (1, 2, 3, 8, 0, 4, 7, 6, 5) and puzzle.notation == "vector"
    assert puzzle.format_state(puzzle.initial) == "(1,2,3,8,0,4,7,6,5)"
    again = lacak.parse("sliding", puzzle.format_state(puzzle.goal), allow_unsolvable=True)
    assert again.initial == puzzle.goal


@settings(max_examples=40)
@given(puzzle=st.sampled_from([(2, 3), (3, 3), (4, 4), (3, 5)]).flatmap(
    lambda shape: lst.seeds().map(lambda seed: random_board(shape, seed))
))  # fmt: skip
def test_vector_notation_round_trips(puzzle: SlidingPuzzle) -> None:
    text = puzzle.format_state(puzzle.initial, "vector")
    again = lacak.parse("sliding", text, size=puzzle.size)
    assert again.initial == puzzle.initial and again.format_state(again.initial) == text


@pytest.mark.parametrize(
    "text", ["(1,2,3,4,5,0,7,8,6", "1,2,3,4,5,0,7,8,6)", "((123450786))", "()"]
)
def test_broken_vectors_are_clear_errors(text: str) -> None:
    with pytest.raises(lacak.InvalidPuzzleError, match=r"parentheses|empty"):
        lacak.parse("sliding", text)


def test_solve_a_vector_keeps_the_notation(cli) -> None:  # type: ignore[no-untyped-def]
    done = run(cli, "sliding", "solve", "(1,2,3,4,5,0,7,8,6)", "--json")
    data = json.loads(done.stdout)
    assert data["states"] == ["(1,2,3,4,5,0,7,8,6)", "(1,2,3,4,5,6,7,8,0)"]


# -- sizes are ROWSxCOLS ---------------------------------------------------------------


def test_sizes_are_rows_by_columns_everywhere(cli) -> None:  # type: ignore[no-untyped-def]
    made = lacak.generate("sliding", "random", "2x5", seed=3)
    assert (made.rows, made.cols, made.width, made.height) == (2, 5, 5, 2)
    assert lacak.generate("sliding", "walk", (2, 5), seed=3, moves=4).size == "2x5"
    parsed = lacak.parse("sliding", "1234506789", size="2x5")
    assert parsed.board(parsed.initial).splitlines()[0].split() == ["1", "2", "3", "4", "5"]
    scrambled = json.loads(run(cli, "sliding", "scramble", "--size", "2x5", "--seed", "3",
                               "--json").stdout)  # fmt: skip
    assert (scrambled["rows"], scrambled["cols"], scrambled["size"]) == (2, 5, "2x5")
    assert scrambled["board"] == made.format_state(made.initial)
    solved = json.loads(run(cli, "sliding", "solve", scrambled["board"], "--size", "2x5",
                            "--json").stdout)  # fmt: skip
    assert solved["found"] and (solved["sliding"]["rows"], solved["sliding"]["cols"]) == (2, 5)
    info = json.loads(run(cli, "sliding", "pdb", "info", "default", "--size", "3x4",
                          "--json").stdout)  # fmt: skip
    assert (info["height"], info["width"], info["size"]) == (3, 4, "3x4")


def test_a_size_that_contradicts_rows_names_both(cli) -> None:  # type: ignore[no-untyped-def]
    done = run(cli, "sliding", "solve", "1 2 3 / 4 5 0", "--size", "3x2")
    assert done.exit_code == 2 and "is 2x3 (rows x columns), but the size is 3x2" in done.output


# -- standard input and long output ------------------------------------------------------


def test_solve_reads_standard_input(cli) -> None:  # type: ignore[no-untyped-def]
    done = run(cli, "sliding", "solve", "-", input="123450786\n")
    assert done.exit_code == 0, done.output
    assert "found: 1 move with" in done.stdout and "moves: D" in done.stdout
    rows = run(cli, "sliding", "solve", "-", "--json", input="1 2 3\n4 5 0\n7 8 6\n")
    assert json.loads(rows.stdout)["states"][-1] == "1 2 3 / 4 5 6 / 7 8 0"


def test_echo_into_lacak_sliding_solve() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "lacak", "sliding", "solve", "-"],
        input="123450786\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "found: 1 move with idastar-tiles + manhattan" in done.stdout


def test_a_long_path_is_summarised_unless_full(cli) -> None:  # type: ignore[no-untyped-def]
    """dfs on 867254301 finds a 65,387-move path: 3.6 MB printed in full in 0.1.0."""
    done = run(cli, "sliding", "solve", "867254301", "--strategy", "dfs")
    assert done.exit_code == 0
    assert "found: 65,387 moves with dfs" in done.stdout
    assert len(done.stdout) < 5_000, len(done.stdout)
    assert "(65,363 moves more; --full shows all)" in done.stdout
    assert "65,364 boards more; --full shows all" in done.stdout
    assert "65387: R" in done.stdout  # the last board is drawn


def test_full_shows_every_move_and_board(cli) -> None:  # type: ignore[no-untyped-def]
    args = ["sliding", "solve", "867254301", "-s", "dfs", "--max-depth", "60"]
    cut, full = run(cli, *args), run(cli, *args, "--full")
    assert cut.exit_code == full.exit_code == 0
    length = int(full.stdout.split()[1])
    assert length > 40 and "--full shows all" in cut.stdout
    assert "--full shows all" not in full.stdout
    moves = full.stdout.splitlines()[1].split()[1:]
    assert len(moves) == length
    assert f"{length}: {moves[-1]}" in full.stdout


# -- pictures -------------------------------------------------------------------------------


def test_svg_of_the_boards_along_the_path(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "path.svg"
    done = run(cli, "sliding", "solve", "123450786", "--goal", "103425786", "-o", str(out))
    assert done.exit_code == 0, done.output
    svg = out.read_text()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert svg.count(">start<") == 1 and ">1: L<" in svg and ">2: U<" in svg
    assert svg.count('fill="#d9d9d9"') == 3  # one blank per board
    assert run(cli, "sliding", "solve", "123450786", "-f", "svg").stdout.startswith("<svg")
    contradiction = run(cli, "sliding", "solve", "123450786", "-f", "json", "-o", str(out))
    assert contradiction.exit_code == 2


def test_render_without_a_result_draws_the_start_and_the_goal() -> None:
    puzzle = lacak.parse("sliding", "123450786", goal="103425786")
    text = pictures.render(puzzle, None, "text")
    assert text.splitlines()[0].split() == ["start", "goal"]
    assert "path:" not in text
    assert pictures.render(puzzle, None, "svg").count(">goal<") == 1
    png = pictures.render(puzzle, None, "png")
    assert isinstance(png, bytes) and png.startswith(b"\x89PNG")
    with pytest.raises(lacak.InvalidOptionError, match="text, svg or png"):
        pictures.render(puzzle, None, "gif")


@settings(max_examples=20, deadline=None)
@given(moves=st.integers(0, 90), seed=lst.seeds())
def test_a_cut_picture_keeps_both_ends(moves: int, seed: int) -> None:
    puzzle = lacak.generate("sliding", "walk", (3, 3), seed=seed, moves=moves)
    result = lacak.solve(puzzle, "dfs", limits=lacak.Limits(max_depth=moves))
    if not result.found:
        return
    replay(puzzle, result)
    cut = pictures.render_text(puzzle, result)
    full = pictures.render_text(puzzle, result, full=True)
    last = f"{result.length}: {result.actions[-1]}" if result.actions else "start"
    assert last in cut and last in full and "start" in cut
    assert ("--full shows all" in cut) == (result.length + 1 > lacak.output.CUT_ABOVE)
    assert "--full shows all" not in full


# -- progress: builds are announced and shown ---------------------------------------------


class FakeTask:
    def __init__(self, log: list[Any], description: str, total: float | None) -> None:
        self.log, self.description, self.total, self.completed = log, description, total, 0.0

    def update(self, *, completed: float | None = None, total: float | None = None,
               description: str | None = None) -> None:  # fmt: skip
        if completed is not None:
            self.completed = completed
        if description is not None:
            self.description = description

    def advance(self, amount: float = 1) -> None:
        self.completed += amount


class FakeReporter:
    """Records what long work reports (lacak.progress.reporting installs it)."""

    def __init__(self) -> None:
        self.log: list[Any] = []
        self.tasks: list[FakeTask] = []

    def start(self, description: str, total: float | None) -> FakeTask:
        task = FakeTask(self.log, description, total)
        self.tasks.append(task)
        self.log.append(("start", description))
        return task

    def stop(self, task: FakeTask) -> None:
        self.log.append(("stop", task.description, task.completed, task.total))

    def announce(self, message: str) -> None:
        self.log.append(("announce", message))


def test_a_first_use_that_builds_is_announced_and_shown(fresh_cache: Path) -> None:
    puzzle = lacak.parse("sliding", "867254301")
    reporter = FakeReporter()
    with lacak.progress.reporting(reporter):
        result = lacak.solve(puzzle, "idastar-tiles", heuristic="pdb:1,2,3,4/5,6,7,8")
    assert result.length == distances(3, 3)[puzzle.initial]
    announcements = [entry[1] for entry in reporter.log if entry[0] == "announce"]
    assert announcements == [
        "building the 4-4 pattern databases for 3x3 boards once (a few seconds); "
        f"later runs load them from {fresh_cache}"
    ]
    builds = [entry for entry in reporter.log if entry[0] == "stop" and "pattern" in entry[1]]
    assert len(builds) == 2
    for _stop, description, completed, total in builds:
        assert (
            description.startswith("pattern database of tiles ") and "(3x3), level " in description
        )
        assert completed == total == 3024  # every placement reached, and shown
    again = FakeReporter()
    pdb.forget_memory()
    with lacak.progress.reporting(again):
        lacak.solve(puzzle, "idastar-tiles", heuristic="pdb:1,2,3,4/5,6,7,8")
    assert not [entry for entry in again.log if entry[0] == "announce"]  # loaded, not built


def test_the_15_puzzle_default_announces_its_one_time_build(fresh_cache: Path) -> None:
    """What the first solve of a 15-puzzle says for a goal whose databases lacak does not
    ship (the build takes seconds compiled, half a minute with numpy); the usual goal's
    and Korf's ship, and are missing nowhere."""
    for goal in ((*range(1, 16), 0), tuple(range(16))):
        assert pdb.missing_groups(pdb.Partition.named("663", 4, 4, goal)) == []
    partition = pdb.Partition.named("663", 4, 4, (*range(1, 15), 0, 15))
    assert pdb.missing_groups(partition) == [g for g in partition.groups if len(g) > 1]
    assert pdb.build_announcement(partition, partition.groups) == (
        "building the 6-6-3 pattern databases for 4x4 boards once "
        f"({'a few seconds' if pdb_build.compiled_available() else 'about 30 s'}); "
        f"later runs load them from {fresh_cache}"
    )


def test_nothing_is_announced_without_a_reporter(fresh_cache: Path) -> None:
    assert not lacak.progress.active()
    puzzle = lacak.parse("sliding", "867254301")
    assert lacak.solve(puzzle, "idastar-tiles", heuristic="pdb:1,2,3/4,5,6").found


def test_pdb_build_reports_through_lacak_progress(
    cli, fresh_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    reporter = FakeReporter()
    monkeypatch.setattr("lacak.cli._reporter", lambda: reporter)
    done = run(cli, "sliding", "pdb", "build", "44", "--json")
    assert done.exit_code == 0, done.output
    said = [entry[1] for entry in reporter.log if entry[0] == "announce"]
    assert [line for line in said if line.startswith("building")] == [
        f"building the 4-4 pattern databases for 3x3 boards once (a few seconds); "
        f"later runs load them from {fresh_cache}"
    ]
    # and the first compiles on a fresh machine: the builder's, the search engine's
    assert all(line.startswith(("building", "compiling")) for line in said), said
    stops = [entry for entry in reporter.log if entry[0] == "stop" and entry[3] is not None]
    assert len(stops) == 2 and all(entry[2] == entry[3] == 3024 for entry in stops)


# -- structure -----------------------------------------------------------------------------


def test_library_modules_import_no_command_line_code() -> None:
    """Importing and using every library module of the plugin loads no CLI module."""
    script = (
        "import sys, lacak\n"
        "from lacak_sliding import choice, generators, heuristics, korf, pdb, pictures, puzzle\n"
        "from lacak_sliding.pdb import build, cache, lookup, partition, placements, spec\n"
        "from lacak_sliding.tiles import astar, bfs, encoding, idastar\n"
        "from lacak_sliding.tiles.idastar import deepen, engines, generated, split\n"
        "p = lacak.parse('sliding', '123450786')\n"
        "r = lacak.solve(p)\n"
        "pictures.render(p, r, 'svg'); lacak.result_json(r, p)\n"
        "bad = sorted(m for m in sys.modules if m.endswith('.cli')\n"
        "             or m.startswith('lacak.cli.') or m == 'click')\n"
        "print(bad)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize(
    ("heuristic", "limits"),
    [
        ("manhattan", lacak.Limits(max_expanded=20_000)),  # the generated search
        ("linear-conflict", lacak.Limits(max_expanded=20_000)),  # linear conflict's own
        ("weighted:2,1", lacak.Limits(max_expanded=20_000, max_depth=60)),  # the explicit stack
    ],
)
def test_a_long_idastar_tiles_search_shows_its_progress(
    monkeypatch: pytest.MonkeyPatch, heuristic: str, limits: lacak.Limits
) -> None:
    """Past Budget.SHOW_AFTER (a second; 0 here) every Python engine reports nodes and rate
    (the compiled one, which a process that has loaded it uses from the first iteration,
    has its own test in test_tiles_compiled.py)."""
    monkeypatch.setattr(lacak.Budget, "SHOW_AFTER", 0.0)
    monkeypatch.setenv("LACAK_TILES_ENGINE", "python")
    puzzle = random_board((4, 4), 5)
    reporter = FakeReporter()
    with lacak.progress.reporting(reporter):
        result = lacak.solve(puzzle, "idastar-tiles", heuristic=heuristic, limits=limits)
    assert result.stopped is lacak.StopReason.NODES
    starts = [entry for entry in reporter.log if entry[0] == "start"]
    stops = [entry for entry in reporter.log if entry[0] == "stop"]
    assert starts == [("start", "searching")] and len(stops) == 1
    assert stops[0][1].startswith("searching: ") and "nodes expanded" in stops[0][1]
    quiet = lacak.solve(puzzle, "idastar-tiles", heuristic=heuristic, limits=limits)
    assert (quiet.stats.expanded, quiet.stats.generated) == (
        result.stats.expanded,
        result.stats.generated,
    )


def test_solve_help_lists_the_kind_s_options_in_the_order_declared(cli) -> None:  # type: ignore[no-untyped-def]
    text = run(cli, "sliding", "solve", "--help").stdout
    where = [text.index(flag) for flag in ("--goal", "--size", "--allow-unsolvable")]
    assert where == sorted(where)
    assert "ROWSxCOLS (3x4: 3 rows of 4 tiles)" in " ".join(text.split())
    assert "lacak sliding scramble --size 4x4 --seed 7 | head -1 | lacak sliding solve -" in text
