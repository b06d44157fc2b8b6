"""Korf's instances: the shipped files are intact, and the easiest are solved to their published lengths."""

from __future__ import annotations

from collections.abc import Iterator

import lacak
import pytest
from lacak.testing import replay
from lacak_sliding import korf


@pytest.fixture(scope="module", autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Databases built by these tests go to a temporary cache, never the user's."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("LACAK_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "lacak-cache"))
        yield


@pytest.mark.parametrize(
    ("name", "count", "side", "mean"), [("korf100", 100, 4, 53.05), ("korf24", 50, 5, 100.78)]
)
def test_files_are_intact(name: str, count: int, side: int, mean: float) -> None:
    items = korf.instances(name)
    assert [i.id for i in items] == list(range(1, count + 1))
    assert round(sum(i.length for i in items) / count, 2) == mean
    n = side * side
    for item in items:
        assert sorted(item.tiles) == list(range(n))
        puzzle = korf.puzzle(item)
        assert puzzle.solvable
        assert puzzle.goal == tuple(range(n))
        # the parity of every solution is the parity of the blank's distance to its goal cell
        blank = item.tiles.index(0)
        assert item.length % 2 == (blank // side + blank % side) % 2
        assert item.source


def test_first_instance_as_published() -> None:
    first = korf.instances()[0]
    assert first.tiles == (14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3)
    assert first.length == 57


EASIEST = [i for i in korf.instances() if i.length <= 46]


def test_there_are_a_handful_of_easy_ones() -> None:
    assert [i.id for i in EASIEST] == [9, 12, 13, 16, 19, 42, 55, 61, 71, 79, 85, 86, 93, 97]


@pytest.mark.parametrize("item", EASIEST, ids=lambda i: f"korf{i.id}-{i.length}")
def test_easiest_instances_reach_their_published_length(item: korf.KorfInstance) -> None:
    puzzle = korf.puzzle(item)
    result = lacak.solve(puzzle, "idastar-tiles", heuristic="pdb-555")
    replay(puzzle, result)
    assert result.length == item.length
    assert result.stats.generated >= result.stats.expanded - 1 > 0


def test_the_manhattan_bound_is_below_the_length() -> None:
    manhattan = lacak.heuristics("sliding")["manhattan"]
    pdb = lacak.default_registry().heuristic("sliding", "pdb-555")
    for item in korf.instances():
        puzzle = korf.puzzle(item)
        m = manhattan(puzzle, puzzle.initial)
        p = pdb.for_puzzle(puzzle)(puzzle.initial)
        assert m <= p <= item.length


@pytest.mark.parametrize(
    ("text", "ids"), [("1-3", [1, 2, 3]), ("5,7-8", [5, 7, 8]), ("all", list(range(1, 101)))]
)
def test_parse_ids(text: str, ids: list[int]) -> None:
    assert korf.parse_ids(text, 100) == ids


@pytest.mark.parametrize("text", ["0", "101", "1-x", "", "3-1", "1-100000000000", "5,-3-2"])
def test_parse_ids_rejects(text: str) -> None:
    with pytest.raises(lacak.InvalidOptionError):
        korf.parse_ids(text, 100)


def test_unknown_set() -> None:
    with pytest.raises(lacak.InvalidOptionError, match="korf100"):
        korf.instances("korf8")
