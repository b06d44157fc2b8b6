"""Hunt-and-kill's options: how to hunt (rows, columns, random) and how often.

The default settings must keep giving the mazes lacak gave before the options
existed: ``data/hunt_and_kill_digests.json`` holds digests of mazes made by
the unmodified generator (the commit it was recorded at is in the file).

The statistical tests use fixed seeds, so they are deterministic; their
margins are several standard errors of the means they compare, so other
seeds would pass too (they are not tuned to these).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import statistics
from pathlib import Path
from typing import Any

import lacak
import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import example, given, settings
from hypothesis import strategies as st
from lacak.cli import make_cli
from lacak.testing import one_line_error
from lacak.testing import strategies as lst
from lacak_mazes import Maze
from lacak_mazes.generators.huntkill import HUNTS

from .helpers import transpose

DIGESTS = json.loads((Path(__file__).parent / "data" / "hunt_and_kill_digests.json").read_text())


def digest(maze: Maze) -> str:
    """A short fingerprint of the shape and the cells of ``maze``."""
    data = f"{maze.height}x{maze.width}:".encode() + maze.cells.tobytes()
    return hashlib.sha256(data).hexdigest()[:16]


def generate(size: Any, seed: int, **options: Any) -> Maze:
    return lacak.generate("maze", "hunt-and-kill", size, seed=seed, **options)


# -- the default is what it was ---------------------------------------------------


@pytest.mark.parametrize("key", sorted(DIGESTS["digests"]))
def test_default_mazes_are_byte_for_byte_what_they_were(key: str) -> None:
    hunt, size, seed = key.split()
    maze = generate(size, int(seed), hunt=hunt)
    assert digest(maze) == DIGESTS["digests"][key]


@pytest.mark.parametrize("zero", [0.0, 0, np.float64(0.0), -0.0])
def test_hunt_chance_zero_is_the_default(zero: Any) -> None:
    for key, expected in DIGESTS["digests"].items():
        hunt, size, seed = key.split()
        assert digest(generate(size, int(seed), hunt=hunt, hunt_chance=zero)) == expected, key


# -- every setting makes perfect mazes ----------------------------------------------

#: Chances in [0, 1], with the edges and the extremes of floating point.
CHANCES = st.one_of(
    st.sampled_from([0.0, 1.0, 0.5, 5e-324, 1e-12, 1 - 2**-53]),
    st.floats(min_value=0.0, max_value=1.0),
)


@settings(max_examples=150)
@given(
    size=lst.grid_sizes(max_side=16),
    seed=lst.seeds(),
    hunt=st.sampled_from(HUNTS),
    chance=CHANCES,
)
@example(size=(1, 16), seed=0, hunt="columns", chance=1.0)
@example(size=(16, 1), seed=0, hunt="rows", chance=1.0)
@example(size=(1, 1), seed=0, hunt="random", chance=0.5)
def test_every_setting_makes_perfect_mazes(
    size: tuple[int, int], seed: int, hunt: str, chance: float
) -> None:
    maze = generate(size, seed, hunt=hunt, hunt_chance=chance)
    maze.validate_perfect()
    assert maze.shape == size and maze.algorithm == "hunt-and-kill" and maze.seed == seed
    assert generate(size, seed, hunt=hunt, hunt_chance=chance) == maze


@settings(max_examples=100)
@given(size=lst.grid_sizes(max_side=14), seed=lst.seeds(), chance=CHANCES)
def test_columns_is_the_row_scan_of_the_transposed_grid(
    size: tuple[int, int], seed: int, chance: float
) -> None:
    """Exactly: an HxW maze hunted by columns is the transpose of the WxH maze hunted by
    rows, same seed. With the row scan equal to a full scan from the top (tested in
    test_generators), the column scan is a full scan from the left, column by column."""
    height, width = size
    columns = generate((height, width), seed, hunt="columns", hunt_chance=chance)
    rows = generate((width, height), seed, hunt="rows", hunt_chance=chance)
    assert np.array_equal(columns.cells, transpose(rows).cells)


def test_a_chance_changes_the_maze() -> None:
    base = generate((30, 30), 5)
    for chance in (1e-3, 0.3, 1.0):
        assert generate((30, 30), 5, hunt_chance=chance) != base
    assert generate((30, 30), 5, hunt="columns") != base


# -- texture ------------------------------------------------------------------------

#: The values of hunt_chance docs/mazes.md shows (its table comes from docs/gallery).
VALUES = (0.0, 0.1, 0.3, 1.0)


def mean_and_error(values: list[float]) -> tuple[float, float]:
    """The mean of ``values`` and its standard error."""
    return statistics.fmean(values), statistics.stdev(values) / math.sqrt(len(values))


def texture(
    hunt: str, chance: float, seeds: range, side: int = 40
) -> dict[str, tuple[float, float]]:
    """Mean and standard error of texture statistics over mazes of ``side x side``."""
    samples: dict[str, list[float]] = {}
    for seed in seeds:
        maze = generate((side, side), seed, hunt=hunt, hunt_chance=chance)
        numbers = maze.stats()
        cells = maze.cells
        east_west, north_south = int((cells == 10).sum()), int((cells == 5).sum())
        numbers["straight_east_west"] = east_west / (east_west + north_south)
        for key in (
            "dead_end_share",
            "corridor_length",
            "straightness",
            "horizontal_share",
            "straight_east_west",
        ):
            samples.setdefault(key, []).append(numbers[key])
    return {key: mean_and_error(values) for key, values in samples.items()}


def apart(first: tuple[float, float], second: tuple[float, float]) -> float:
    """How many standard errors of their difference separate two means (signed)."""
    return (second[0] - first[0]) / math.hypot(first[1], second[1])


@pytest.mark.parametrize("hunt", ["rows", "random"])  # columns: rows transposed, same numbers
def test_hunting_more_often_gives_more_dead_ends_and_shorter_corridors(hunt: str) -> None:
    table = [texture(hunt, chance, range(40)) for chance in VALUES]
    for before, after in itertools.pairwise(table):
        assert apart(before["dead_end_share"], after["dead_end_share"]) > 5, (before, after)
        assert apart(before["corridor_length"], after["corridor_length"]) < -5, (before, after)
    # and a lot: from about 10% dead ends to twice as many or more
    assert table[-1]["dead_end_share"][0] > 2 * table[0]["dead_end_share"][0]


@pytest.mark.parametrize("chance", [0.0, 0.5])
def test_columns_give_the_transposed_texture_of_rows(chance: float) -> None:
    """On square grids, over many seeds (different seeds for the two scans)."""
    rows = texture("rows", chance, range(150))
    columns = texture("columns", chance, range(10_000, 10_150))
    for key in ("dead_end_share", "corridor_length", "straightness"):  # no direction
        assert abs(apart(rows[key], columns[key])) < 4, key
    for key in ("horizontal_share", "straight_east_west"):  # east-west is north-south
        flipped = (1 - columns[key][0], columns[key][1])
        assert abs(apart(rows[key], flipped)) < 4, key
        if chance:  # the row scan has a direction, so the comparison has power
            assert abs(apart(rows[key], (0.5, 0.0))) > 10, key


# -- options: validation, ranges, library and command line -------------------------


@pytest.mark.parametrize(
    "value",
    [-0.1, -1e-300, 1.0000001, 2, float("nan"), float("inf"), "0.5", True, None, [0.5], 1j],
)
def test_bad_hunt_chance(value: Any) -> None:
    with pytest.raises(
        lacak.InvalidOptionError,
        match=r"hunt-and-kill option 'hunt_chance' is a probability in \[0, 1\], got ",
    ):
        generate((4, 4), 1, hunt_chance=value)


@pytest.mark.parametrize("value", ["Columns", "cols", "", " rows", 3, ["rows"], None])
def test_bad_hunt(value: Any) -> None:
    with pytest.raises(
        lacak.InvalidOptionError, match="option 'hunt' is one of rows, columns, random, got "
    ):
        generate((4, 4), 1, hunt=value)


def test_metadata_ranges_are_the_hunts_and_the_defaults_are_inside() -> None:
    generator = lacak.generators("maze")["hunt-and-kill"]
    assert generator.options == {"hunt": "rows", "hunt_chance": 0.0, "carving": False,
                                 "grid": "rect", "mask": None, "braid": 0.0,
                                 "weave": 0.0, "weights": None}  # fmt: skip
    ranges = generator.metadata["option_ranges"]
    assert ranges == {
        "hunt": {"choices": list(HUNTS)},
        "hunt_chance": {"min": 0.0, "max": 1.0},
    }


@pytest.mark.parametrize(
    "name",
    [
        n
        for n in sorted(lacak.generators("maze"))
        if lacak.generators("maze")[n].metadata.get("option_ranges")
    ],
)
def test_declared_option_ranges_are_what_the_generator_accepts(name: str) -> None:
    """Every value a generator's ``option_ranges`` allows works, and values just outside fail."""
    generator = lacak.generators("maze")[name]
    for key, spec in generator.metadata["option_ranges"].items():
        default = generator.options[key]
        if "choices" in spec:
            assert default in spec["choices"]
            for value in spec["choices"]:
                generator((3, 4), 1, **{key: value}).validate_perfect()
            outside: list[Any] = ["not-a-choice"]
        else:
            assert spec.get("min", -math.inf) <= default <= spec.get("max", math.inf)
            outside = []
            for bound, away in (("min", -math.inf), ("max", math.inf)):
                if bound in spec:
                    generator((3, 4), 1, **{key: spec[bound]}).validate_perfect()
                    outside.append(math.nextafter(spec[bound], away))
        for value in outside:
            with pytest.raises(lacak.InvalidOptionError, match=key):
                generator((3, 4), 1, **{key: value})


def run(*args: str) -> Any:
    return CliRunner().invoke(make_cli(), list(args), catch_exceptions=False)


def test_the_command_line_reaches_the_options() -> None:
    made = run(
        "maze", "generate", "--size", "12x9", "--seed", "4", "-O", "hunt=columns",
        "-O", "hunt_chance=0.3", "--json",
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    maze = generate((12, 9), 4, hunt="columns", hunt_chance=0.3)
    assert Maze.from_json(made.stdout) == maze
    measured = run(
        "maze", "stats", "--size", "12x9", "--seed", "4", "-O", "hunt=columns",
        "-O", "hunt_chance=0.3", "--json",
    )  # fmt: skip
    assert json.loads(measured.stdout) == maze.stats()


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("hunt_chance=2", "option 'hunt_chance' is a probability in [0, 1], got 2.0"),
        ("hunt_chance=-0.5", "option 'hunt_chance' is a probability in [0, 1], got -0.5"),
        ("hunt_chance=lots", "option 'hunt_chance' must be a float, got 'lots'"),
        ("hunt_chance=nan", "option 'hunt_chance' must be a float, got 'nan'"),
        ("hunt=diagonal", "option 'hunt' is one of rows, columns, random, got 'diagonal'"),
        ("hunt_often=1", "has no option 'hunt_often'"),
    ],
)
def test_command_line_option_errors_are_one_line(option: str, message: str) -> None:
    for command in ("generate", "stats"):
        result = run("maze", command, "--size", "5x5", "-O", option)
        assert result.exit_code == 2
        assert message in one_line_error(result)


def test_algorithms_lists_the_options_with_their_ranges() -> None:
    listed = json.loads(run("maze", "algorithms", "--json").stdout)["algorithms"]
    row = next(row for row in listed if row["name"] == "hunt-and-kill")
    assert row["options"] == {"hunt": "rows", "hunt_chance": 0.0, "carving": False,
                              "grid": "rect", "mask": None, "braid": 0.0, "weave": 0.0,
                              "weights": None}  # fmt: skip
    assert row["option_ranges"] == {
        "hunt": {"choices": ["rows", "columns", "random"]},
        "hunt_chance": {"min": 0.0, "max": 1.0},
    }
    assert all("option_ranges" in row for row in listed)
    result = CliRunner().invoke(make_cli(), ["maze", "algorithms"], env={"COLUMNS": "400"})
    flat = " ".join(result.stdout.split())
    assert "hunt=rows [rows|columns|random], hunt_chance=0.0 [0 to 1]" in flat


def test_algorithms_shows_what_it_can_of_odd_ranges_from_a_plugin() -> None:
    """``option_ranges`` comes from plugins: odd values are shown as they are or left out."""

    class Odd:
        @lacak.hookimpl
        def register_generators(self, register: Any) -> None:
            for name, ranges in (
                ("odd-text", "junk"),
                ("odd-number", {"mode": 3}),
                ("odd-words", {"mode": {"min": "a", "max": "z"}}),
                ("odd-low", {"mode": {"min": 2}}),
                ("odd-empty", {"mode": {}}),
            ):
                register(
                    lacak.Generator(
                        kind="maze",
                        name=name,
                        make=lambda size, seed=None, **o: Maze.from_rows([[0]]),
                        options={"mode": 5},
                        metadata={"perfect": True, "option_ranges": ranges},
                    )
                )

    registry = lacak.Registry()
    registry.add_plugin(Odd(), "odd")
    cli = make_cli(registry)
    result = CliRunner().invoke(cli, ["maze", "algorithms"], env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.output
    flat = " ".join(result.stdout.split())
    assert "mode=5 [a to z]" in flat and "mode=5 [>= 2]" in flat
    listed = json.loads(CliRunner().invoke(cli, ["maze", "algorithms", "--json"]).stdout)
    ranges = {row["name"]: row["option_ranges"] for row in listed["algorithms"]}
    assert ranges["odd-text"] == {} and ranges["odd-number"] == {}
    assert ranges["odd-low"] == {"mode": {"min": 2}}
