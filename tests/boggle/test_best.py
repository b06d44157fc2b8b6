"""The search for the best board: its boards (:mod:`lacak_boggle.space`), the search
(:func:`lacak_boggle.best_board`) and ``lacak boggle best``; work bounded by counting
boards scored, never by the clock."""

from __future__ import annotations

import itertools
import json
import random

import lacak
import lacak_boggle
import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak.cli import make_cli
from lacak.testing import one_line_error
from lacak_boggle import Board, best_board, solve_board
from lacak_boggle.best import BoardSearch
from lacak_boggle.solver import resolve_dictionary
from lacak_boggle.space import BoardSpace, symmetries
from lacak_boggle.wordgraph import compile_dictionary

from .conftest import TINY_WORDS

SHAPES = [(1, 2), (2, 2), (2, 3), (3, 2), (3, 3), (3, 4), (4, 4)]


@pytest.fixture(scope="module")
def eng() -> lacak.Dictionary:
    return resolve_dictionary("eng")


def _space(shape: tuple[int, int], engine: str = "numpy") -> BoardSpace:
    words = lacak.Dictionary(name="tiny", language="en", words=TINY_WORDS,
                             alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ")  # fmt: skip
    return BoardSpace.create(shape, words, compile_dictionary(words), engine=engine)


def _images(space: BoardSpace, state: bytes) -> set[bytes]:
    return {bytes(state[i] for i in perm) for perm in symmetries(*space.shape)}


def _naive_neighbours(space: BoardSpace, state: bytes) -> set[bytes]:
    """Every change and swap, folded by hand (no numpy), without the state itself."""
    out = set()
    board = list(state)
    for cell, tile in itertools.product(range(space.cells), range(len(space.alphabet))):
        if board[cell] != tile:
            changed = board.copy()
            changed[cell] = tile
            out.add(min(_images(space, bytes(changed))))
    for i, j in itertools.combinations(range(space.cells), 2):
        if board[i] != board[j]:
            swapped = board.copy()
            swapped[i], swapped[j] = swapped[j], swapped[i]
            out.add(min(_images(space, bytes(swapped))))
    out.discard(state)
    return out


@pytest.mark.parametrize("shape", SHAPES)
def test_symmetries_are_the_rectangles_group(shape: tuple[int, int]) -> None:
    perms = symmetries(*shape)
    rows, cols = shape
    assert len(perms) == (8 if rows == cols and rows > 1 else 2 if 1 in shape else 4)
    assert perms[0] == tuple(range(rows * cols))
    group = set(perms)
    for p, q in itertools.product(perms, repeat=2):
        assert sorted(p) == list(range(rows * cols))
        assert tuple(p[i] for i in q) in group  # closed under composition


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(SHAPES), st.randoms(use_true_random=False))
def test_neighbours_are_the_changes_and_swaps_folded(shape, rng: random.Random) -> None:
    space = _space(shape)
    state = space.random_state(rng)
    assert len(state) == space.cells and max(state) < len(space.alphabet)
    assert state == min(_images(space, state))  # a state is canonical
    near = space.neighbours(state)
    assert len(near) == len(set(near))
    assert set(near) == _naive_neighbours(space, state)
    for other in near:  # legal: the same size, tiles of the alphabet, canonical
        assert len(other) == space.cells and max(other) < len(space.alphabet)
        assert other == min(_images(space, other))
    assert space.random_neighbour(state, rng) in set(near)
    child = space.crossover(state, space.random_state(rng), rng)
    assert len(child) == space.cells and child == min(_images(space, child))


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(SHAPES), st.randoms(use_true_random=False))
def test_canonical_is_the_same_for_every_mirror_image(shape, rng: random.Random) -> None:
    space = _space(shape)
    board = [rng.randrange(len(space.alphabet)) for _ in range(space.cells)]
    images = [[board[i] for i in perm] for perm in symmetries(*shape)]
    folded = space.canonical(np.array(images, dtype=np.uint8)).tolist()
    assert all(f == folded[0] for f in folded)
    assert bytes(folded[0]) == min(bytes(i) for i in images)


def test_the_alphabet_has_qu_for_q(eng: lacak.Dictionary) -> None:
    space = BoardSpace.create((4, 4), eng, compile_dictionary(eng))
    assert "QU" in space.alphabet and "Q" not in space.alphabet and len(space.alphabet) == 26
    board = space.board(space.state("QABC/DEFG/HIJK/LMNO"))
    assert "QU" in board.flat


@pytest.mark.parametrize("engine", ["numpy", "dfs"])
def test_values_are_the_scores_of_boggle_solve(eng: lacak.Dictionary, engine: str) -> None:
    space = BoardSpace.create((3, 4), eng, compile_dictionary(eng), engine=engine)
    rng = random.Random(5)
    states = [space.random_state(rng) for _ in range(20)]
    states += space.neighbours(states[0])[:30]
    got = space.values(states)
    assert got == [solve_board(space.board(s), eng).score for s in states]
    assert space.evaluations == len(set(states))
    assert space.values(states) == got and space.evaluations == len(set(states))  # remembered


def test_a_state_is_the_same_for_a_board_and_its_mirror(eng: lacak.Dictionary) -> None:
    space = BoardSpace.create((4, 4), eng, compile_dictionary(eng))
    assert space.state("PERS/LATG/SINE/TERS") == space.state("SREP/GTAL/ENIS/SRET")
    assert (
        space.value(space.state("PERS/LATG/SINE/TERS"))
        == solve_board("PERS/LATG/SINE/TERS", eng).score
    )


def test_bad_spaces_say_why(eng: lacak.Dictionary) -> None:
    graph = compile_dictionary(eng)
    with pytest.raises(lacak.InvalidOptionError, match="at most 63 tiles"):
        BoardSpace.create((8, 8), eng, graph)
    with pytest.raises(lacak.InvalidOptionError, match="no letter"):
        BoardSpace.create((2, 2), eng, graph, alphabet=["A", "7"])
    space = BoardSpace.create((2, 2), eng, graph)
    with pytest.raises(lacak.InvalidPuzzleError, match="not 2x2"):
        space.state("ABC/DEF")


# -- the search ---------------------------------------------------------------------------


@pytest.mark.parametrize("strategy", ["hill-climbing", "simulated-annealing", "beam", "genetic"])
def test_best_board_scores_as_boggle_solve_does(eng: lacak.Dictionary, strategy: str) -> None:
    found = best_board((3, 3), eng, strategy=strategy, seconds=None, evaluations=1_500,
                       seed=3, engine="numpy")  # fmt: skip
    solved = lacak.solve(found.board, dictionary=eng)
    assert found.score == solved.score and list(found.words) == solved.word_list
    assert found.score == max(found.runs) and found.found >= 1
    assert found.stopped in ("evaluations", "runs")
    assert found.evaluations >= 1_500 or found.stopped == "runs"


def test_same_seed_same_board(eng: lacak.Dictionary) -> None:
    def search(seed: int, engine: str) -> tuple[str, int, tuple[int, ...]]:
        found = best_board((3, 3), eng, seconds=None, evaluations=2_000, seed=seed,
                           engine=engine, sideways=5)  # fmt: skip
        return found.board.to_text(), found.score, found.runs

    first = search(7, "numpy")
    assert search(7, "numpy") == first
    assert search(7, "dfs") == first  # the engine changes nothing but the speed


def test_restarts_bound_the_runs(eng: lacak.Dictionary) -> None:
    found = best_board((2, 3), eng, seconds=None, restarts=2, seed=1, engine="numpy")
    assert len(found.runs) == 3 and found.stopped == "runs"
    assert 1 <= found.found <= sum(1 for score in found.runs if score == found.score)


def test_the_first_run_is_always_made(eng: lacak.Dictionary) -> None:
    found = best_board((2, 2), eng, seconds=0, seed=1, engine="numpy")
    assert len(found.runs) == 1 and found.stopped == "time"
    assert found.score == solve_board(found.board, eng).score


def test_search_beats_random_boards(eng: lacak.Dictionary) -> None:
    found = best_board((4, 4), eng, seconds=None, evaluations=3_000, seed=2, engine="numpy")
    rng = random.Random(0)
    space = BoardSpace.create((4, 4), eng, compile_dictionary(eng))
    mean = sum(space.values([space.random_state(rng) for _ in range(50)])) / 50
    assert found.score > 3 * mean


def test_a_board_itself_has_no_objective() -> None:
    with pytest.raises(lacak.InvalidPuzzleError, match="lacak boggle best"):
        lacak.solve(Board.from_string("CAT/DOG"), "hill-climbing")


def test_the_kind_gives_a_board_search_its_objective(eng: lacak.Dictionary) -> None:
    space = BoardSpace.create((2, 2), eng, compile_dictionary(eng))
    start = space.random_state(random.Random(1))
    search = BoardSearch(space, start, space.objective())
    assert lacak.objective_of(search) is search.objective
    assert search.format_state(start) == space.text(start)


def test_bad_arguments_say_why(eng: lacak.Dictionary) -> None:
    with pytest.raises(lacak.InvalidOptionError, match="no local search"):
        best_board((3, 3), eng, strategy="bfs", evaluations=10)
    with pytest.raises(lacak.UnknownComponentError):
        best_board((3, 3), eng, strategy="hill-climbin", evaluations=10)
    with pytest.raises(lacak.InvalidOptionError, match="evaluations"):
        best_board((3, 3), eng, evaluations=0)
    with pytest.raises(lacak.InvalidOptionError):
        best_board("0x3", eng, evaluations=10)


# -- lacak boggle best ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def cli():
    return make_cli()


def _run(cli, *args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_cli_json_board_is_what_solve_scores(cli) -> None:
    result = _run(cli, "boggle", "best", "--size", "3x3", "-d", "eng", "--evaluations", "800",
                  "--seed", "4", "--engine", "numpy", "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert {"board", "score", "words", "runs", "found", "evaluations"} <= set(data)
    solved = _run(cli, "boggle", "solve", data["board"], "-d", "eng", "--json")
    assert json.loads(solved.stdout)["boggle"]["score"] == data["score"]
    again = _run(cli, "boggle", "best", "--size", "3x3", "-d", "eng", "--evaluations", "800",
                 "--seed", "4", "--engine", "numpy", "--json")  # fmt: skip
    assert json.loads(again.stdout)["board"] == data["board"]


def test_cli_text_and_strategy_options(cli) -> None:
    result = _run(cli, "boggle", "best", "--size", "2x3", "--evaluations", "300", "--seed", "1",
                  "-s", "hill-climbing", "-O", "sideways=3", "--restarts", "1",
                  "--engine", "numpy")  # fmt: skip
    assert result.exit_code == 0, result.output
    first = result.stdout.splitlines()[0]
    assert Board.from_string(first).shape == (2, 3)
    assert "points" in result.stdout and "found by" in result.stdout


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--size", "3by3"], "3x4"),
        (["--size", "9x9"], "63"),
        (["-d", "no-such-dictionary"], "no-such-dictionary"),
        (["-s", "bfs"], "no local search"),
        (["-O", "nope=1"], "nope"),
        (["--min-length", "0"], "min-length"),
    ],
)
def test_cli_bad_input_is_one_line(cli, args: list[str], fragment: str) -> None:
    result = CliRunner().invoke(cli, ["boggle", "best", "--evaluations", "10", *args])
    one_line_error(result, fragment)


def test_the_plugin_exports_best_board() -> None:
    assert lacak_boggle.best_board is best_board
    assert "best_board" in lacak_boggle.__all__


def test_a_step_stops_when_the_boards_allowed_are_scored(eng: lacak.Dictionary) -> None:
    # a 4x4 step values 520 boards; the budget is looked at every 256 of them
    found = best_board((4, 4), eng, seconds=None, evaluations=300, seed=1, engine="numpy")
    assert 300 <= found.evaluations <= 300 + 256 + 1
    assert found.score == solve_board(found.board, eng).score
