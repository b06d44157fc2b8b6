"""The corridors maze generator, tested with lacak.testing's generator contract and by hand."""

from __future__ import annotations

import doctest

import lacak
import lacak_corridors
import pytest
from click.testing import CliRunner
from hypothesis import example, given
from lacak.cli import make_cli
from lacak.testing import GeneratorContract, one_line_error, only_lacak_errors
from lacak.testing import strategies as lst


class TestCorridorsContract(GeneratorContract):
    """The same seed gives the same maze; every maze passes the maze kind's validate."""

    kind = "maze"
    algorithm = "corridors"

    def sizes(self):  # type: ignore[no-untyped-def]
        return lst.grid_sizes(min_side=1, max_side=15)


def test_doctests() -> None:
    assert doctest.testmod(lacak_corridors).failed == 0


def test_one_door_between_each_pair_of_rows() -> None:
    maze = lacak.generate("maze", "corridors", (6, 9), seed=3)
    south = [[bool(cell & 4) for cell in row] for row in maze.cells.tolist()]
    assert [sum(row) for row in south] == [1, 1, 1, 1, 1, 0]
    assert all(cell & 2 for row in maze.cells.tolist() for cell in row[:-1])  # rows are open


def test_sizes_are_rows_by_columns_in_every_form() -> None:
    mazes = [lacak.generate("maze", "corridors", size, seed=1) for size in ((3, 4), "3x4")]
    assert mazes[0] == mazes[1] and mazes[0].shape == (3, 4)
    assert lacak.generate("maze", "corridors", 5, seed=1).shape == (5, 5)


def test_the_metadata_is_what_the_mazes_measure() -> None:
    metadata = lacak.generators("maze")["corridors"].metadata
    share = lacak.generate("maze", "corridors", (150, 150), seed=2024).stats()["dead_end_share"]
    assert metadata["perfect"] is True and metadata["uniform"] is False
    assert abs(share - metadata["dead_ends"]) < 0.002


@given(size=lst.anything(), seed=lst.seeds())
@example(size=[float("inf")], seed=0)  # (int() of it raises OverflowError: found by CI)
@example(size=(float("nan"), 3), seed=0)
def test_any_size_is_a_maze_or_a_lacak_error(size, seed) -> None:  # type: ignore[no-untyped-def]
    only_lacak_errors(lacak.generate, "maze", "corridors", size, seed=seed)


def test_command_line() -> None:
    result = CliRunner().invoke(
        make_cli(), ["maze", "generate", "-a", "corridors", "--size", "3x5", "--seed", "2"]
    )
    assert result.exit_code == 0 and result.stdout.endswith("corridors 3x5, seed 2\n")
    bad = CliRunner().invoke(make_cli(), ["maze", "generate", "-a", "corridors", "--size", "0x5"])
    assert "maze" in one_line_error(bad)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_solution_goes_through_every_door(seed: int) -> None:
    maze = lacak.generate("maze", "corridors", (5, 7), seed=seed).with_endpoints()
    assert maze.is_perfect() and len(maze.solution) >= 5
