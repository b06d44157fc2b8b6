"""The fast paths of issue 14 against the obviously correct reference solver.

Every way of solving many boards quickly (``solve_many`` and ``score_many`` with
each engine, and the jobs of ``lacak batch boggle``, which walk a
:class:`~lacak_boggle.board.BatchBoard` with the engine it names) must give exactly
the words, points and first paths of :mod:`tests.boggle.reference`, on random
boards of any shape up to 6x6 with multi-letter tiles (``QU``, ``TH``, ``ING``
...) and blanks.
"""

from __future__ import annotations

import json

import attrs
import lacak
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak.cli import make_cli
from lacak_boggle import Board, score_many, solve_board, solve_many
from lacak_boggle import engines as engines_module
from lacak_boggle.board import BatchBoard
from lacak_boggle.engines import compiled_available, engine_for_job
from lacak_boggle.kind import batch_prepare
from lacak_boggle.results import score
from lacak_boggle.solver import search_board

from . import reference
from .conftest import timeless
from .strategies import cases

COMPILED = compiled_available()
needs_numba = pytest.mark.skipif(not COMPILED, reason="numba (lacak[fast]) is not installed")

#: Engines of many boards, and of one batch job.
MANY = ["numpy", "dfs"] + (["numba"] if COMPILED else [])
JOB = ["dfs"] + (["numba"] if COMPILED else [])


def _expected(tiles, dictionary, min_length):
    """The reference's answer: ``{word: first path}`` and the points."""
    solved = reference.solve(tiles, dictionary.words, min_length)
    firsts = {word: paths[0] for word, paths in solved.items()}
    return firsts, sum(reference.points(word) for word in solved)


def _official(tiles) -> int:
    return 3 if len(tiles) * len(tiles[0]) <= 16 else 4


@settings(max_examples=120, deadline=None)
@given(case=cases(), engine=st.sampled_from(MANY), min_length=st.none() | st.integers(1, 4))
def test_solve_and_score_many_agree_with_the_reference(case, engine: str, min_length) -> None:
    tiles, dictionary = case
    wanted = _official(tiles) if min_length is None else min_length
    firsts, points = _expected(tiles, dictionary, wanted)
    board = Board.from_rows(tiles)
    (outcome,) = solve_many([board], dictionary, engine=engine, min_length=min_length)
    result = outcome.unwrap()
    assert {w.word: w.path for w in result.words} == firsts  # words and first paths
    assert result.word_list == sorted(firsts)
    assert result.score == points and result.count == len(firsts)
    scores = score_many([board], dictionary, engine=engine, min_length=min_length, words=True)
    assert (int(scores.count[0]), int(scores.score[0])) == (len(firsts), points)
    assert scores.word_lists() == [sorted(firsts)]
    assert score_many([board.to_text()], dictionary, engine=engine,
                      min_length=min_length).score.tolist() == [points]  # fmt: skip


@settings(max_examples=120, deadline=None)
@given(
    case=cases(),
    engine=st.sampled_from(JOB),
    min_length=st.integers(1, 4),
    scores_only=st.booleans(),
)
def test_a_batch_job_agrees_with_the_reference(case, engine, min_length, scores_only) -> None:
    tiles, dictionary = case
    firsts, points = _expected(tiles, dictionary, min_length)
    board = BatchBoard(tiles=tiles, dictionary=dictionary, min_length=min_length, engine=engine,
                       scores_only=scores_only)  # fmt: skip
    result = search_board(board)
    assert {w.word: w.path for w in result.words} == firsts
    assert result.score == points and result.count == len(firsts)
    # the best word: most points, then most letters, then alphabetical first
    best = min(result.words, key=lambda w: (-w.score, -len(w.word), w.word), default=None)
    assert result.best() == best
    if best is not None:
        assert best.score == reference.points(best.word) == score(len(best.word))
        assert result.actions == best.path
    # the record's JSON: as the plain board's, less the words when only scores are kept
    plain = solve_board(Board.from_rows(tiles), dictionary, min_length=min_length, engine="dfs")
    data, whole = timeless(result.to_dict(board)), timeless(plain.to_dict())
    if scores_only:
        assert "words" not in data["boggle"]
        whole["boggle"].pop("words")
    assert data == whole
    assert data["boggle"]["best"] == (best.word if best else None)


def test_batch_boards_are_boards_that_name_their_engine(tiny: lacak.Dictionary) -> None:
    board = batch_prepare(Board.from_string("CAT/OAT"), solve=True, dictionary=None,
                          min_length=2, engine="dfs", scores_only=True)  # fmt: skip
    assert isinstance(board, BatchBoard) and isinstance(board, Board)
    assert (board.engine, board.scores_only, board.min_length) == ("dfs", True, 2)
    assert board.dictionary is not None and board.dictionary.name == "eng"
    assert board.to_rows() == [["C", "A", "T"], ["O", "A", "T"]]
    # not solving: the board as shaken
    shaken = Board.from_string("CAT/OAT")
    assert batch_prepare(shaken, solve=False) is shaken


def test_engine_for_job(monkeypatch: pytest.MonkeyPatch) -> None:
    assert engine_for_job("dfs") == "dfs"
    with pytest.raises(lacak.InvalidOptionError, match="unknown engine 'warp'"):
        engine_for_job("warp")
    monkeypatch.setenv("LACAK_BOGGLE_ENGINE", "dfs")
    assert engine_for_job("auto") == "dfs"
    monkeypatch.setenv("LACAK_BOGGLE_ENGINE", "numpy")  # a batch engine: one board walks in Python
    assert engine_for_job("auto") == "dfs"
    monkeypatch.delenv("LACAK_BOGGLE_ENGINE")
    # auto never compiles: without machine code ready (and none loaded here), Python
    monkeypatch.setattr(engines_module, "ENGINE", attrs.evolve(engines_module.ENGINE))  # unloaded
    monkeypatch.setattr(engines_module, "compiled_ready", lambda: False)
    assert engine_for_job("auto") == "dfs"
    if COMPILED:
        monkeypatch.setattr(engines_module, "compiled_ready", lambda: True)
        assert engine_for_job("auto") == "numba"
        assert engine_for_job("numba") == "numba"


def test_numba_named_where_it_cannot_run(monkeypatch: pytest.MonkeyPatch) -> None:
    broken = attrs.evolve(engines_module.ENGINE)
    broken._failure.append("ImportError: no numba here")
    monkeypatch.setattr(engines_module, "ENGINE", broken)
    with pytest.raises(lacak.InvalidOptionError, match="no numba here"):
        engine_for_job("numba")
    assert engine_for_job("auto") == "dfs"  # failing here: auto does not use it


def _batch(*args: str) -> list[dict]:  # type: ignore[type-arg]
    result = CliRunner().invoke(make_cli(), ["batch", "boggle", "--seed", "3", "-w", "1", *args])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


@needs_numba
@pytest.mark.parametrize("dice", ["classic4", "superbig6"])
@pytest.mark.parametrize("scores_only", [False, True])
def test_lacak_batch_boggle_engines_write_the_same_records(dice: str, scores_only: bool) -> None:
    """superbig6: 6x6 boards with digraph (Qu, Th, In, Er, He, An) and blank faces."""
    extra = ["--scores-only"] if scores_only else []
    python = _batch("-n", "6", "--dice", dice, "--engine", "dfs", *extra)
    compiled = _batch("-n", "6", "--dice", dice, "--engine", "numba", *extra)
    assert python == compiled
    assert [r["result"]["boggle"]["count"] for r in python] == [
        solve_board(Board.from_rows(r["instance"]["board"]), "eng", engine="dfs").count
        for r in python
    ]
    if scores_only:
        assert all("words" not in r["result"]["boggle"] for r in python)


@needs_numba
def test_lacak_batch_boggle_non_square_random_boards() -> None:
    python = _batch("-n", "5", "--dice", "random", "--size", "3x5", "--engine", "dfs", "-m", "3")
    compiled = _batch("-n", "5", "--dice", "random", "--size", "3x5", "--engine", "numba",
                      "-m", "3")  # fmt: skip
    assert python == compiled and all(r["instance"]["size"] == "3x5" for r in python)
    for record in python:
        tiles = record["instance"]["board"]
        firsts, points = _expected(tiles, lacak.dictionary("eng"), 3)
        answer = record["result"]["boggle"]
        assert answer["score"] == points
        assert {w["word"]: tuple(map(tuple, w["path"])) for w in answer["words"]} == firsts


def test_an_unknown_engine_is_one_line() -> None:
    result = CliRunner().invoke(make_cli(), ["batch", "boggle", "-n", "2", "--engine", "warp"])
    assert result.exit_code != 0
    assert "unknown engine 'warp'" in result.stderr
    assert "Traceback" not in result.output and len(result.stderr.strip().splitlines()) == 1


def test_a_batch_loads_its_dictionary_once_before_the_workers_start() -> None:
    """The parent loads the dictionary and its word graph while planning, so that the
    workers it forks begin with them (each loaded them on its first job before)."""
    from lacak_boggle import kind

    kind._batch_dictionary.cache_clear()
    lacak.batch.dataset.spec("boggle", kind_options={"engine": "dfs", "scores_only": True})
    assert kind._batch_dictionary.cache_info().currsize == 1
    spec = lacak.batch.dataset.spec("boggle", kind_options={"engine": "dfs"})
    spec((0, 5))
    info = kind._batch_dictionary.cache_info()
    assert (info.currsize, info.misses) == (1, 1)  # the job found it loaded


def test_a_bad_dictionary_is_one_error_before_any_job() -> None:
    from lacak.testing.cli import one_line_error

    result = CliRunner().invoke(make_cli(), ["batch", "boggle", "-n", "3", "-d", "no-such-list"])
    one_line_error(result, "unknown dictionary 'no-such-list'")
