"""Every maze records what makes it again (issue 25, item 4): its generator, size, seed and
the options given besides the defaults, in its JSON, its caption and its pictures; made
again from its JSON (``lacak.remake``, ``lacak maze generate --from``), it is the same
maze, byte for byte."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import lacak
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak.cli import make_cli
from lacak.options import Number, OneOf
from lacak.testing import strategies as lst
from lacak_mazes.generators import GRID_OPTIONS
from lacak_mazes.maze import Maze
from lacak_mazes.remake import remake
from lacak_mazes.render import caption

GENERATORS = lacak.default_registry().generators("maze")


@st.composite
def generated(draw: st.DrawFn) -> tuple[str, tuple[int, int], int, dict[str, Any]]:
    """A generator, a size, a seed and options drawn from what each option accepts."""
    name = draw(st.sampled_from(sorted(GENERATORS)), label="generator")
    generator = GENERATORS[name]
    options: dict[str, Any] = {}
    for key, accepts in generator.accepts.items():
        if key in GRID_OPTIONS:  # the grid's options: tests/mazes/test_grids.py
            continue
        if not draw(st.booleans(), label=f"give {key}"):
            continue
        if isinstance(accepts, OneOf):
            options[key] = draw(st.sampled_from(accepts.values), label=key)
        elif isinstance(accepts, Number):
            options[key] = draw(st.floats(accepts.minimum, accepts.maximum), label=key)
    size = draw(st.tuples(st.integers(1, 9), st.integers(1, 9)), label="size")
    return name, size, draw(lst.seeds(), label="seed"), options


@settings(max_examples=80, deadline=None)
@given(made=generated(), ends=st.sampled_from(["none", "suggested", "solution"]),
       carving=st.booleans())  # fmt: skip
def test_a_maze_made_again_from_its_json_is_the_same_bytes(
    made: tuple[str, tuple[int, int], int, dict[str, Any]], ends: str, carving: bool
) -> None:
    name, size, seed, options = made
    if carving and "carving" in GENERATORS[name].options:
        options = {**options, "carving": True}
    maze = lacak.generate("maze", name, size, seed=seed, **options)
    options.pop("carving", None)
    if ends != "none":
        maze = maze.with_endpoints(solution=ends == "solution")
    text = maze.to_json()
    saved = json.loads(text)
    defaults = GENERATORS[name].options
    assert saved["options"] == {k: v for k, v in options.items() if v != defaults[k]}
    again = remake(Maze.from_json(text))
    assert again.to_json() == text
    for key, value in saved["options"].items():
        assert f"{key}={value}" in caption(maze)


def test_the_command_makes_a_saved_maze_again(tmp_path: Path) -> None:
    runner = CliRunner()
    cli = make_cli()
    made = runner.invoke(cli, ["maze", "generate", "--size", "6x10", "--seed", "3", "-O",
                               "hunt=columns", "-O", "hunt_chance=0.3", "--solution", "--json"])  # fmt: skip
    assert made.exit_code == 0, made.output
    saved = tmp_path / "m.json"
    saved.write_text(made.stdout)
    again = runner.invoke(cli, ["maze", "generate", "--from", str(saved), "--json"])
    assert again.exit_code == 0, again.output
    assert again.stdout == made.stdout
    svg = runner.invoke(cli, ["maze", "generate", "--from", str(saved), "-f", "svg"])
    assert "<title>hunt-and-kill 6x10, seed 3, hunt=columns, hunt_chance=0.3</title>" in svg.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seed", "4"], "not with --seed"),
        (["-O", "hunt=rows", "--size", "3x3"], "not with --size, -O"),
    ],
)
def test_from_gives_the_generator_size_seed_and_options(
    tmp_path: Path, args: list[str], message: str
) -> None:
    saved = tmp_path / "m.json"
    saved.write_text(lacak.generate("maze", "wilson", (3, 3), seed=1).to_json())
    done = CliRunner().invoke(make_cli(), ["maze", "generate", "--from", str(saved), *args])
    assert done.exit_code == 2 and message in done.stderr


def test_a_maze_that_records_no_generator_cannot_be_made_again() -> None:
    with pytest.raises(lacak.InvalidPuzzleError, match="cannot be made again"):
        remake(Maze.from_json('{"cells": [[0]]}'))


@pytest.mark.parametrize(
    "options", [[1], {"a": [1]}, {"a": float("nan")}, {"a": None}, "x"]
)
def test_options_in_json_are_names_to_numbers_text_or_flags(options: Any) -> None:
    data = json.dumps({"cells": [[0]], "options": options}, allow_nan=True)
    with pytest.raises(lacak.InvalidPuzzleError):
        Maze.from_json(data)
