"""``lacak maze ...`` end to end with click's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path

import lacak
import pytest
from click.testing import CliRunner
from lacak.cli import make_cli
from lacak.testing import one_line_error
from lacak_mazes import Maze


@pytest.fixture(scope="module")
def cli():  # type: ignore[no-untyped-def]
    return make_cli()


def run(cli, *args: str, input: str | None = None):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


def test_generate_draws_the_readme_demo(cli) -> None:  # type: ignore[no-untyped-def]
    result = run(cli, "maze", "generate", "--size", "10x19", "--seed", "7", "--solution")
    assert result.exit_code == 0, result.output
    lines = result.stdout.rstrip("\n").split("\n")
    assert len(lines) == 2 * 10 + 1 + 1  # the maze and a caption
    assert all(len(line) <= 80 for line in lines)
    assert lines[0].startswith("┌───") and lines[-2].startswith("└───")
    maze = lacak.generate("maze", "hunt-and-kill", (10, 19), seed=7).with_endpoints()
    # the caption docs/mazes.md and the README show
    assert lines[-1] == f"hunt-and-kill 10x19, seed 7, solution {len(maze.solution) - 1} steps"
    picture = "\n".join(lines[:-1])
    from lacak_mazes.render import render_text

    assert picture == render_text(maze, cell_width=3)
    wide = run(cli, "maze", "generate", "--size", "12x30", "--seed", "7", "--solution")
    assert all(len(line) <= 80 for line in wide.stdout.splitlines())


def test_generate_without_size_fits_the_terminal(cli) -> None:  # type: ignore[no-untyped-def]
    result = run(cli, "maze", "generate", "--format", "text")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80 and len(lines) <= 24
    assert "seed " in lines[-1]  # the seed picked is shown, to reproduce the maze
    seed = int(lines[-1].split("seed ")[1].split(",")[0])
    size = lines[-1].split()[1].rstrip(",")
    again = run(cli, "maze", "generate", "--format", "text", "--size", size, "--seed", str(seed))
    assert again.stdout == result.stdout


def test_generate_json_round_trips(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    result = run(
        cli,
        "maze",
        "generate",
        "-a",
        "wilson",
        "--size",
        "5x7",
        "--seed",
        "3",
        "--endpoints",
        "-f",
        "json",
    )
    assert result.exit_code == 0
    maze = Maze.from_json(result.stdout)
    assert maze == lacak.generate("maze", "wilson", (5, 7), seed=3).with_endpoints(solution=False)
    data = json.loads(result.stdout)
    assert data["solution"] is None and data["start"] is not None
    out = tmp_path / "maze.json"
    saved = run(
        cli,
        "maze",
        "generate",
        "-a",
        "wilson",
        "--size",
        "5x7",
        "--seed",
        "3",
        "--solution",
        "-o",
        str(out),
    )
    assert saved.exit_code == 0 and "wrote" in saved.stderr
    assert Maze.from_json(out.read_text()).solution is not None


def test_generate_options_and_pictures(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    png, svg = tmp_path / "m.png", tmp_path / "m.svg"
    result = run(
        cli,
        "maze",
        "generate",
        "-a",
        "growing-tree",
        "-O",
        "policy=mix",
        "-O",
        "newest=0.3",
        "--size",
        "8x8",
        "--seed",
        "1",
        "--solution",
        "-o",
        str(png),
        "--cell-size",
        "9",
        "--color",
        "wall=#123456",
    )
    assert result.exit_code == 0, result.output
    assert png.read_bytes().startswith(b"\x89PNG")
    result = run(cli, "maze", "generate", "--size", "4x4", "--seed", "1", "-o", str(svg))
    assert result.exit_code == 0 and svg.read_text().startswith("<svg")
    text = run(
        cli, "maze", "generate", "--size", "3x3", "--seed", "1", "-f", "text", "--cell-width", "1",
        "--ascii",
    )  # fmt: skip
    assert text.stdout.splitlines()[0] == "+-+-+-+"
    boxes = run(
        cli, "maze", "generate", "--size", "3x3", "--seed", "1", "-f", "text", "--cell-width", "1"
    )
    assert boxes.stdout.splitlines()[0] == "┌─────┐"
    ends = run(
        cli,
        "maze",
        "generate",
        "--size",
        "3x3",
        "--seed",
        "1",
        "--start",
        "0,0",
        "--end",
        "2,2",
        "-f",
        "json",
    )
    assert json.loads(ends.stdout)["start"] == [0, 0]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--size", "0x4"], "at least 1x1"),
        (["--size", "big"], "must look like 3x4"),
        (["--algorithm", "wilsen"], "did you mean 'wilson'"),
        (["-O", "policy=upside"], "has no option 'policy'"),
        (["-a", "growing-tree", "-O", "policy=upside"], "policy"),
        (["-a", "growing-tree", "-O", "newest=lots"], "must be a float"),
        (["-a", "growing-tree", "-O", "policy"], "-O takes KEY=VALUE, got 'policy'"),
        (["--start", "0;0"], "--start must look like ROW,COL"),
        (["--size", "3x3", "--start", "5,5"], "outside the 3x3 maze"),
        (["--color", "sky=blue", "-f", "svg"], "--color takes NAME=COLOUR"),
        (["--color", "wall=nope", "-f", "svg"], "not a colour"),
        (["--size", "3x3", "-f", "png"], "PNG is binary"),
    ],
)
def test_generate_errors_are_one_line(cli, args: list[str], message: str) -> None:  # type: ignore[no-untyped-def]
    if message == "PNG is binary":
        # CliRunner's stdout is not a terminal, so PNG goes to stdout as bytes
        result = run(cli, "maze", "generate", *args)
        assert result.exit_code == 0 and result.stdout_bytes.startswith(b"\x89PNG")
        return
    line = one_line_error(run(cli, "maze", "generate", *args))
    assert message in line


def _maze_file(tmp_path: Path, maze: Maze) -> str:
    path = tmp_path / "maze.json"
    path.write_text(maze.to_json())
    return str(path)


@pytest.mark.parametrize("strategy", ["tree-path", "dead-end-fill", "wall-follower", "bfs"])
def test_solve(cli, tmp_path: Path, strategy: str) -> None:  # type: ignore[no-untyped-def]
    if strategy not in lacak.searchers():
        pytest.skip(f"no {strategy!r} strategy registered")
    maze = lacak.generate("maze", "kruskal", (6, 8), seed=5)
    file = _maze_file(tmp_path, maze)
    result = run(cli, "maze", "solve", file, "--strategy", strategy, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    expected = maze.with_endpoints()
    assert report["maze"]["path"] == [list(cell) for cell in expected.solution]
    assert report["states"] == [f"{r},{c}" for r, c in expected.solution]
    assert report["found"] and report["length"] == len(expected.solution) - 1
    assert report["kind"] == "maze" and report["heuristic"] is None
    assert report["strategy"] == strategy and report["stats"]["expanded"] >= 1
    assert len(report["actions"]) == report["length"]
    assert all(action in ("N", "E", "S", "W") for action in report["actions"])
    short = json.loads(run(cli, "maze", "solve", file, "-s", strategy, "-f", "json").stdout)
    assert short["maze"] == report["maze"] and short["actions"] == report["actions"]


def test_solve_with_endpoints_heuristic_and_stdin(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    maze = lacak.generate("maze", "eller", (5, 5), seed=9)
    result = run(
        cli, "maze", "solve", "-", "--start", "0,0", "--end", "4,4", "--json", input=maze.to_json()
    )
    report = json.loads(result.stdout)
    assert report["maze"]["start"] == [0, 0] and report["maze"]["end"] == [4, 4]
    assert report["maze"]["path"] == [list(c) for c in maze.path((0, 0), (4, 4))]
    assert report["maze"]["rows"] == report["maze"]["cols"] == 5
    left = run(
        cli,
        "maze",
        "solve",
        _maze_file(tmp_path, maze),
        "--strategy",
        "wall-follower",
        "-O",
        "hand=left",
    )
    assert left.exit_code == 0
    assert left.stdout.startswith(
        f"found: {len(maze.with_endpoints().solution) - 1} moves with wall-follower\n"
    )
    if "astar" in lacak.searchers():
        astar = run(
            cli,
            "maze",
            "solve",
            _maze_file(tmp_path, maze),
            "--strategy",
            "astar",
            "--heuristic",
            "manhattan",
            "--json",
        )
        assert json.loads(astar.stdout)["heuristic"] == "manhattan"
        short = run(cli, "maze", "solve", _maze_file(tmp_path, maze), "-H", "manhattan", "--json")
        assert json.loads(short.stdout)["strategy"] == "astar"  # a heuristic asks for astar


def test_wall_follower_solves_an_open_room_corner_to_corner(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # the reported case: every inner wall of a 3x3 maze knocked out, both ends on the
    # outer wall; the wall follower said "no path (exhausted)" where bfs takes 4 steps
    room = tmp_path / "room.json"
    room.write_text('{"cells": [[6, 14, 12], [7, 15, 13], [3, 11, 9]]}')
    for hand in ("right", "left"):
        args = ["maze", "solve", str(room), "--start", "0,0", "--end", "2,2"]
        result = run(cli, *args, "--strategy", "wall-follower", "-O", f"hand={hand}", "--json")
        assert result.exit_code == 0, result.output
        report = json.loads(result.stdout)
        assert report["found"] and report["length"] == 4
        assert report["maze"]["path"][0] == [0, 0] and report["maze"]["path"][-1] == [2, 2]
        assert report["states"][0] == "0,0" and report["states"][-1] == "2,2"


def test_solve_errors(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.json"
    bad.write_text('{"cells": [[2, 0]]}')
    assert "not open to the west" in one_line_error(run(cli, "maze", "solve", str(bad)))
    bad.write_text("{nope")
    assert "not valid JSON" in one_line_error(run(cli, "maze", "solve", str(bad)))
    good = _maze_file(tmp_path, lacak.generate("maze", "kruskal", (3, 3), seed=1))
    assert "outside the 3x3 maze" in one_line_error(
        run(cli, "maze", "solve", good, "--start", "3,0")
    )
    assert "unknown strategy" in one_line_error(
        run(cli, "maze", "solve", good, "--strategy", "teleport")
    )
    assert "-O takes KEY=VALUE, got 'left'" in one_line_error(
        run(cli, "maze", "solve", good, "--strategy", "wall-follower", "-O", "left")
    )
    assert "No such option '-S'" in one_line_error(  # 0.1.0's --strategy-option is -O now
        run(cli, "maze", "solve", good, "--strategy", "wall-follower", "-S", "hand=left")
    )
    cut = tmp_path / "cut.json"
    cut.write_text('{"cells": [[2, 8], [0, 0]]}')
    # ends the walls cut apart: not an error, a search that found nothing (exit 1)
    for strategy in ("bfs", "tree-path"):
        apart = CliRunner().invoke(
            cli,
            ["maze", "solve", str(cut), "--start", "0,0", "--end", "1,1", "--strategy", strategy],
        )
        assert apart.exit_code == 1, apart.output
        assert apart.output.startswith(
            f"not found with {strategy}: no path exists (stopped: exhausted)"
        )
        report = CliRunner().invoke(
            cli,
            [
                "maze",
                "solve",
                str(cut),
                "--start",
                "0,0",
                "--end",
                "1,1",
                "--json",
                "--strategy",
                strategy,
            ],
        )
        assert report.exit_code == 1
        data = json.loads(report.output)
        assert data["found"] is False and data["stopped"] == "exhausted"
        assert data["states"] == ["0,0"] and data["actions"] == [] and data["length"] is None
        assert data["maze"]["path"] is None and data["maze"]["end"] == [1, 1]
    missing = tmp_path / "missing.json"
    for command in ("solve", "stats"):
        line = one_line_error(run(cli, "maze", command, str(missing)))
        assert line.startswith(f"Error: cannot read {str(missing)!r}: ")
    binary = tmp_path / "binary.json"
    binary.write_bytes(b'{"cells": [[0]]}\xff')
    assert one_line_error(run(cli, "maze", "solve", str(binary))) == (
        f"Error: {binary} is not a UTF-8 text file"
    )
    piped = CliRunner().invoke(cli, ["maze", "solve", "-"], input=b"\xff")
    assert one_line_error(piped) == "Error: standard input is not a UTF-8 text file"


def test_stats(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    result = run(cli, "maze", "stats", "-a", "wilson", "--size", "30x30", "--seed", "1", "--json")
    stats = json.loads(result.stdout)
    assert stats == lacak.generate("maze", "wilson", (30, 30), seed=1).stats()
    file = _maze_file(tmp_path, lacak.generate("maze", "kruskal", (5, 5), seed=1))
    text = run(cli, "maze", "stats", file, "--endpoints")
    assert "dead_end_share" in text.stdout and "solution_length" in text.stdout
    assert "at least 1x1" in one_line_error(run(cli, "maze", "stats", "--size", "0x0"))


def test_algorithms(cli) -> None:  # type: ignore[no-untyped-def]
    result = run(cli, "maze", "algorithms", "--json")
    rows = json.loads(result.stdout)["algorithms"]
    names = [row["name"] for row in rows]
    assert names == sorted(lacak.generators("maze"))
    wilson = next(row for row in rows if row["name"] == "wilson")
    assert wilson["uniform"] and wilson["perfect"] and wilson["plugin"] == "mazes"
    growing = next(row for row in rows if row["name"] == "growing-tree")
    assert growing["options"] == {
        "policy": "newest",
        "newest": 0.5,
        "carving": False,
        "grid": "rect",
        "mask": None,
        "braid": 0.0,
        "weave": 0.0,
        "weights": None,
    }
    table = run(cli, "maze", "algorithms")
    assert "hunt-and-kill" in table.stdout and "aldous-broder" in table.stdout


def _file(tmp_path: Path, text: str, name: str = "maze.json") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


# a loop (0,0)-(0,1)-(1,1)-(1,0) and a closed-off end (0,2): no path, and the textbook DFS
# (duplicates=parent) goes round the loop for ever without a limit
LOOP = '{"cells": [[6, 12, 0], [3, 9, 0]], "start": [0, 0], "end": [0, 2]}'


def test_option_values_are_the_whole_text_after_the_first_equals(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    file = _file(tmp_path, LOOP)
    # one KEY=VALUE per -O: a comma is part of the value, which must then be a yes/no
    line = one_line_error(
        run(cli, "maze", "solve", file, "--strategy", "dfs", "-O", "iterative=yes,duplicates=path")
    )
    assert "option 'iterative' must be true or false" in line and "'yes,duplicates=path'" in line
    report = run(
        cli, "maze", "solve", file, "--strategy", "dfs", "-O", "iterative=yes", "-O",
        "duplicates=path", "--max-depth", "6", "--json",
    )  # fmt: skip
    assert report.exit_code == 1
    # depth limits 0..4: by 4, every path that repeats no cell (3 moves at most) was searched
    assert json.loads(report.stdout)["stats"]["iterations"] == 5
    once = run(cli, "maze", "solve", file, "--strategy", "dfs", "-O", " iterative = no ", "--json")
    assert json.loads(once.stdout)["stats"]["iterations"] == 1
    for bad, message in [
        (["-O", "iterative=maybe"], "must be true or false"),
        (["-O", "=yes"], "-O takes KEY=VALUE"),
        (["-O", "depth=3"], "has no option 'depth'"),
    ]:
        assert message in one_line_error(run(cli, "maze", "solve", file, "--strategy", "dfs", *bad))
    generate = ["maze", "generate", "-a", "eller", "--size", "3x3", "--seed", "1", "--json"]
    assert "option 'join' must be a float, got '1,0'" in one_line_error(
        run(cli, *generate, "-O", "join=1,0")
    )
    assert "must be a float, got 'nan'" in one_line_error(run(cli, *generate, "-O", "join=nan"))
    made = json.loads(run(cli, *generate, "-O", "join=1", "-O", "down=0").stdout)
    assert (
        made["cells"]
        == lacak.generate("maze", "eller", (3, 3), seed=1, join=1.0, down=0.0).to_dict()["cells"]
    )
    assert "option 'policy' is one of" in one_line_error(
        run(cli, "maze", "generate", "-a", "growing-tree", "-O", "policy=mix=1")
    )


@pytest.mark.parametrize(
    ("limit", "stopped"),
    [
        (["--max-nodes", "200"], "node-limit"),
        (["--max-depth", "12"], "depth-limit"),
        (["--timeout", "0"], "time-limit"),
    ],
)
def test_solve_limits_stop_a_search_that_would_run_for_ever(  # type: ignore[no-untyped-def]
    cli, tmp_path: Path, limit: list[str], stopped: str
) -> None:
    file = _file(tmp_path, LOOP)
    args = ["maze", "solve", file, "--strategy", "dfs", "-O", "duplicates=parent", *limit]
    report = run(cli, *args, "--json")
    assert report.exit_code == 1, report.output
    data = json.loads(report.stdout)
    assert data["found"] is False and data["stopped"] == stopped
    if stopped == "node-limit":
        assert data["stats"]["expanded"] == 200
    if stopped == "depth-limit":
        assert data["stats"]["depth"] == 12
    assert data["maze"]["path"] is None and data["maze"]["start"] == [0, 0]
    text = run(cli, *args)
    assert text.exit_code == 1
    assert text.stdout.startswith("not found with dfs: ") and f"(stopped: {stopped})" in text.stdout
    # what helps: the maze's own strategy, which expands each cell at most once
    assert "hint: tree-path (the default) finds a shortest path" in text.stdout


def test_solve_limits_with_the_maze_strategies(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    maze = lacak.generate("maze", "kruskal", (6, 6), seed=1).with_endpoints()
    file = _maze_file(tmp_path, maze)
    steps = len(maze.solution) - 1
    for strategy in ("tree-path", "dead-end-fill", "bfs"):
        enough = run(cli, "maze", "solve", file, "--strategy", strategy, "--max-depth", str(steps))
        assert enough.exit_code == 0, (strategy, enough.output)
        short = run(cli, "maze", "solve", file, "--strategy", strategy, "--max-depth", str(steps - 1), "--json")  # fmt: skip
        assert short.exit_code == 1 and json.loads(short.stdout)["stopped"] == "depth-limit"
        few = run(cli, "maze", "solve", file, "--strategy", strategy, "--max-nodes", "3", "--json")
        assert json.loads(few.stdout)["stats"]["expanded"] <= 3
    for bad in (["--max-depth", "-1"], ["--max-nodes", "-5"], ["--timeout", "-1"]):
        line = one_line_error(run(cli, "maze", "solve", file, *bad))
        assert f"Invalid value for '{bad[0]}'" in line and "x>=0" in line
    assert "Invalid value" in one_line_error(run(cli, "maze", "solve", file, "--max-depth", "x"))


class _Terminal:
    """The current standard output, claiming to be a terminal."""

    def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
        import sys

        return getattr(sys.stdout, name)

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("algorithm", ["[/]oops", "[bold]x", ":smile: [link=x]y[/link]"])
def test_data_printed_on_a_terminal_is_not_rich_markup(  # type: ignore[no-untyped-def]
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, algorithm: str
) -> None:
    import types

    import lacak.cli.kit

    # the kit prints pictures through rich when standard output is a terminal
    monkeypatch.setattr(lacak.cli.kit, "sys", types.SimpleNamespace(stdout=_Terminal()))
    file = _file(tmp_path, json.dumps({"cells": [[2, 8]], "algorithm": algorithm}))
    result = run(cli, "maze", "solve", file)
    assert result.exit_code == 0, result.output
    assert f"{algorithm} 1x2, solution 1 step" in result.stdout.splitlines()


def test_plugin_names_and_descriptions_are_not_rich_markup() -> None:
    from lacak_mazes import Maze as MazeClass

    class Odd:
        @lacak.hookimpl
        def register_generators(self, register):  # type: ignore[no-untyped-def]
            register(
                lacak.Generator(
                    kind="maze",
                    name="[/]odd",
                    make=lambda size, seed=None, **o: MazeClass.from_rows([[0]]),
                    description="[bold]loud[/bold] :smile: [/]",
                    options={"mode": "[red]"},
                    metadata={"perfect": True},
                )
            )

    registry = lacak.Registry()
    registry.add_plugin(Odd(), "odd")
    result = CliRunner().invoke(
        make_cli(registry), ["maze", "algorithms"], env={"COLUMNS": "400"}, catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    flat = " ".join(result.stdout.split())
    assert "[/]odd" in flat and "[bold]loud[/bold] :smile: [/]" in flat and "mode=[red]" in flat


def test_algorithms_says_what_a_question_mark_means() -> None:
    """A generator without ``dead_ends`` (or ``perfect``, ``uniform``) in its metadata shows
    ``?``; the list then says which generators leave what out, and what metadata is expected."""
    from lacak_mazes import Maze as MazeClass

    class Quiet:
        @lacak.hookimpl
        def register_generators(self, register):  # type: ignore[no-untyped-def]
            register(
                lacak.Generator(
                    kind="maze",
                    name="quiet",
                    make=lambda size, seed=None, **o: MazeClass.from_rows([[0]]),
                    metadata={"perfect": True, "uniform": False},
                )
            )

    registry = lacak.Registry()
    registry.add_plugin(Quiet(), "quiet")
    result = CliRunner().invoke(
        make_cli(registry), ["maze", "algorithms"], env={"COLUMNS": "400"}, catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    (row,) = [line for line in result.stdout.splitlines() if "quiet" in line and "│" in line]
    assert row.split("│")[3].strip() == "?"  # dead ends
    flat = " ".join(result.stdout.split())
    assert "?: not in the generator's metadata (quiet)." in flat
    assert "'dead_ends' (the share of cells with one opening, from 0 to 1" in flat
    full = CliRunner().invoke(make_cli(), ["maze", "algorithms"], env={"COLUMNS": "400"})
    assert "?:" not in full.stdout  # every installed generator says all three


def test_unwritable_output_is_one_line_and_exit_2(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    target = tmp_path / "no" / "such" / "dir" / "maze.svg"
    line = one_line_error(
        run(cli, "maze", "generate", "--size", "3x3", "--seed", "1", "-o", str(target))
    )
    assert line == f"Error: cannot write {str(target)!r}: No such file or directory"
    maze = _maze_file(tmp_path, lacak.generate("maze", "kruskal", (3, 3), seed=1))
    line = one_line_error(run(cli, "maze", "solve", maze, "-o", str(target)))
    assert line.startswith("Error: cannot write")
    assert "is a directory" in one_line_error(
        run(cli, "maze", "generate", "--size", "3x3", "-o", str(tmp_path))
    )


def test_generate_json_flag_is_format_json(cli) -> None:  # type: ignore[no-untyped-def]
    args = ["maze", "generate", "-a", "wilson", "--size", "4x5", "--seed", "2", "--solution"]
    flag = run(cli, *args, "--json")
    assert flag.exit_code == 0
    assert flag.stdout == run(cli, *args, "-f", "json").stdout
    assert flag.stdout == run(cli, *args, "--json", "-f", "json").stdout
    assert Maze.from_json(flag.stdout).solution is not None
    assert "cannot go with -f svg" in one_line_error(run(cli, *args, "--json", "-f", "svg"))


def test_maze_files_with_hostile_numbers_and_nesting(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    for text, message in [
        ('{"cells": [[' + "1" * 5000 + "]]}", "too many digits"),
        ("[" * 200_000, "nested too deeply"),
        ('{"cells": [[2, 8]], "algorithm": "\\ud800"}', "lone surrogate"),
    ]:
        file = _file(tmp_path, text)
        for command in ("solve", "stats"):
            assert message in one_line_error(run(cli, "maze", command, file))


# ---------------------------------------------------------------- one grammar (issue 11)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        # 0.1.0 wrote JSON into m.svg, and SVG into m.png
        (["-o", "m.svg", "--json"], "--json contradicts -o {dir}/m.svg (a .svg file)"),
        (["-f", "svg", "-o", "m.png"], "-f svg contradicts -o {dir}/m.png (a .png file)"),
        (["-f", "json", "-o", "m.svg"], "-f json contradicts -o {dir}/m.svg"),
        (["-f", "text", "-o", "m.json"], "-f text contradicts -o {dir}/m.json"),
        (["--json", "-f", "png", "-o", "m.png"], "--json prints JSON; it cannot go with -f png"),
    ],
)
@pytest.mark.parametrize("command", ["generate", "solve"])
def test_a_format_that_contradicts_the_file_is_refused(  # type: ignore[no-untyped-def]
    cli, tmp_path: Path, command: str, args: list[str], message: str
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    args = [str(out / arg) if arg.startswith("m.") else arg for arg in args]
    if command == "generate":
        head = ["maze", "generate", "--size", "3x3", "--seed", "1"]
    else:
        head = [
            "maze",
            "solve",
            _maze_file(tmp_path, lacak.generate("maze", "kruskal", (3, 3), seed=1)),
        ]
    line = one_line_error(run(cli, *head, *args))
    assert message.format(dir=out) in line
    assert list(out.iterdir()) == []  # nothing written


def test_generate_writes_the_format_of_the_file_s_suffix(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from lacak_mazes.render import render_text

    args = ["maze", "generate", "-a", "wilson", "--size", "4x6", "--seed", "3", "--solution"]
    maze = lacak.generate("maze", "wilson", (4, 6), seed=3).with_endpoints()
    for name in ("m.svg", "m.PNG", "m.json", "m.txt", "m.out"):
        result = run(cli, *args, "-o", str(tmp_path / name))
        assert result.exit_code == 0, result.output
        assert result.stderr.startswith(f"wrote {tmp_path / name} (wilson 4x6, seed 3, solution ")
    assert (tmp_path / "m.svg").read_text().startswith("<svg")
    assert (tmp_path / "m.PNG").read_bytes().startswith(b"\x89PNG")
    assert Maze.from_json((tmp_path / "m.json").read_text()) == maze
    picture = render_text(maze, cell_width=3)
    for name in ("m.txt", "m.out"):  # text, plain (no colour codes in a file)
        assert (tmp_path / name).read_text().startswith(picture + "\n")
    agree = run(cli, *args, "-f", "svg", "-o", str(tmp_path / "again.svg"))
    assert agree.exit_code == 0 and (tmp_path / "again.svg").read_text().startswith("<svg")


def test_solve_writes_the_format_of_the_file_s_suffix(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    maze = lacak.generate("maze", "kruskal", (5, 6), seed=4).with_endpoints()
    file = _maze_file(tmp_path, maze.without_endpoints())
    for name in ("s.svg", "s.png", "s.json"):
        result = run(cli, "maze", "solve", file, "-o", str(tmp_path / name))
        assert result.exit_code == 0, result.output
    svg = (tmp_path / "s.svg").read_text()
    assert svg.startswith("<svg") and "<polyline" in svg and svg.count("<circle") == 2
    assert (tmp_path / "s.png").read_bytes().startswith(b"\x89PNG")
    data = json.loads((tmp_path / "s.json").read_text())  # the result, not a maze
    assert data["kind"] == "maze" and data["maze"]["path"] == [list(c) for c in maze.solution]


def test_solve_json_is_the_common_result_shape(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from lacak.results import COMMON_KEYS

    maze = lacak.generate("maze", "eller", (4, 4), seed=5).with_endpoints()
    result = run(cli, "maze", "solve", _maze_file(tmp_path, maze), "--json")
    data = json.loads(result.stdout)
    assert list(data) == [*COMMON_KEYS, "maze"]
    assert list(data["maze"]) == ["rows", "cols", "start", "end", "path"]
    # short arrays stay on one line in the pretty output
    assert f'    "start": {json.dumps(list(maze.start))},' in result.stdout.splitlines()
    assert data["length"] == len(maze.solution) - 1 == data["cost"]


def test_stats_reads_standard_input(cli) -> None:  # type: ignore[no-untyped-def]
    maze = lacak.generate("maze", "prim", (6, 6), seed=2)
    result = run(cli, "maze", "stats", "-", "--json", input=maze.to_json())
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == maze.stats()


@pytest.mark.parametrize("grid", ["rect", "hex"])
def test_stats_report_the_share_a_braid_achieved(cli, grid: str) -> None:  # type: ignore[no-untyped-def]
    maze = lacak.generate("maze", "wilson", (12, 12), seed=2, braid=0.3, grid=grid)
    report = maze.stats()["braid"]
    result = run(cli, "maze", "stats", "-", input=maze.to_json())
    assert result.exit_code == 0, result.output
    line = next(line for line in result.stdout.splitlines() if line.startswith("braid"))
    assert line.split(None, 1)[1] == (
        f"{report['achieved']:.1%} of {report['dead_ends_before']} dead ends removed (asked 30%)"
    )


@pytest.mark.parametrize(
    ("command", "flags"),
    [
        ("generate", ["--size ROWSxCOLS", "ROWSxCOLS, e.g. 10x25: 10 rows of 25", "--json",
                      "-O, --option KEY=VALUE", "--ascii", "--color NAME=COLOUR"]),
        ("stats", ["ROWSxCOLS, e.g. 10x25: 10 rows of 25", "--json", "'-' for standard"]),
        ("solve", ["-s, --strategy", "-H, --heuristic", "-O, --option KEY=VALUE", "--json",
                   "--start", "--end", "--ascii", "--cell-width", "--color", "--trace",
                   "'-' reads standard input"]),
        ("algorithms", ["--json"]),
    ],
)  # fmt: skip
def test_help_speaks_the_grammar(cli, command: str, flags: list[str]) -> None:  # type: ignore[no-untyped-def]
    text = " ".join(run(cli, "maze", command, "--help").stdout.split())
    for flag in flags:
        assert " ".join(flag.split()) in text, flag
    if command == "solve":  # the kind's options in the order it declares them
        order = ["--start", "--end", "--ascii", "--cell-width", "--cell-size", "--color"]
        assert sorted(order, key=text.index) == order
        assert "FILE ('-' reads standard input) (a file holding, e.g., '{" in text
