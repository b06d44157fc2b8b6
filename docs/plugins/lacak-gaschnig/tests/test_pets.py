"""The pets dictionary and the jugs amounts command, tested as their author would."""

from __future__ import annotations

import doctest
import json

import lacak
import lacak_jugs
import lacak_pets
import pytest
from click.testing import CliRunner
from lacak.cli import make_cli
from lacak.testing import one_line_error


def test_doctests() -> None:
    assert doctest.testmod(lacak_pets).failed == 0


def test_the_dictionary_is_registered_normalised_and_counted_without_loading() -> None:
    source = lacak.dictionaries()["pets"]
    assert source.count == len(lacak_pets.WORDS) and source.language == "en"
    words = lacak.dictionary("pets").words
    assert words == tuple(sorted(word.upper() for word in lacak_pets.WORDS))


def test_boggle_finds_the_pets_on_a_board() -> None:
    result = CliRunner().invoke(make_cli(), ["boggle", "solve", "CAT/ODG", "-d", "pets", "--json"])
    assert result.exit_code == 0
    assert [w["word"] for w in json.loads(result.stdout)["boggle"]["words"]] == ["CAT", "COD"]


@pytest.mark.parametrize(
    ("capacities", "amounts"),
    [((3, 5), [0, 1, 2, 3, 4, 5]), ((2, 4), [0, 2, 4]), ((4, 6), [0, 2, 4, 6]), ((7,), [0, 7])],
)
def test_amounts_are_the_multiples_of_the_gcd(capacities, amounts) -> None:  # type: ignore[no-untyped-def]
    assert lacak_jugs.amounts(capacities)[0] == amounts


def test_amounts_command() -> None:
    cli = make_cli()
    result = CliRunner().invoke(cli, ["jugs", "amounts", "-", "--json"], input="3,5\n")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {
        "capacities": [3, 5],
        "amounts": [0, 1, 2, 3, 4, 5],
        "contents": 16,
    }
    assert one_line_error(CliRunner().invoke(cli, ["jugs", "amounts", "3,x"]), "whole numbers")
    too_big = CliRunner().invoke(cli, ["jugs", "amounts", "3000,5000,1000"])
    assert "at most 1,000,000" in one_line_error(too_big)
