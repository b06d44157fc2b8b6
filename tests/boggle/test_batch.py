"""solve_many: every engine agrees with solve_board, board for board."""

from __future__ import annotations

import concurrent.futures

import lacak
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak_boggle import Board, BoggleResult, shake, solve_board, solve_many
from lacak_boggle.engines import compiled_available

from .conftest import timeless
from .strategies import boards


def solved(records: list[lacak.batch.Outcome[BoggleResult]]) -> list[BoggleResult]:
    """The records' results, in board order (raising the first error)."""
    assert [r.index for r in records] == list(range(len(records)))
    return [r.unwrap() for r in records]


#: The engines to compare (the compiled one when numba is installed, as it is for the tests).
ENGINES = ["numpy", "dfs", "auto"] + (["numba"] if compiled_available() else [])


@st.composite
def batches(draw: st.DrawFn):
    letters = draw(st.sampled_from(["AB", "AEST", "AEHINQRTU"]))
    tiles = draw(st.lists(boards(letters=letters, max_side=5), min_size=1, max_size=8))
    words = set(draw(st.lists(st.text(alphabet=letters, min_size=1, max_size=6), max_size=40)))
    for rows in tiles:  # words read along rows, so some are always found
        for row in rows:
            text = "".join(t for t in row if t != "#")
            if text:
                words.add(text[:6])
    dictionary = lacak.Dictionary(name="batch", language="", words=sorted(words), alphabet=letters)
    return [Board.from_rows(t) for t in tiles], dictionary


@settings(max_examples=80, deadline=None)
@given(
    case=batches(),
    engine=st.sampled_from(ENGINES),
    min_length=st.none() | st.integers(1, 3),
)
def test_engines_agree_with_the_single_board_solver(case, engine: str, min_length) -> None:
    boards_, dictionary = case
    many = solved(solve_many(boards_, dictionary, engine=engine, min_length=min_length))
    assert len(many) == len(boards_)
    for board, result in zip(boards_, many, strict=True):
        single = solve_board(board, dictionary, min_length=min_length)
        assert result.board == board
        assert result.entries == single.entries
        assert result.min_length == single.min_length
        assert (result.found, result.actions, result.states, result.score) == (
            single.found,
            single.actions,
            single.states,
            single.score,
        )
        assert result.words == single.words
        assert timeless(result.to_dict(), engine=True) == timeless(single.to_dict(), engine=True)
        counts = ("expanded", "generated", "depth", "max_frontier")
        assert [getattr(result.stats, c) for c in counts] == [
            getattr(single.stats, c) for c in counts
        ]


def test_real_dice_boards_with_english() -> None:
    boards_ = [shake("classic4", seed) for seed in range(30)] + [
        shake("big5", s) for s in range(10)
    ]
    boards_ += [shake("superbig6", s) for s in range(5)]
    by_engine = [solved(solve_many(boards_, "eng", engine=e)) for e in ENGINES]
    for board, *results in zip(boards_, *by_engine, strict=True):
        single = solve_board(board, "eng")
        assert all(r.entries == single.entries for r in results)
        assert all(r.stats.generated == single.stats.generated for r in results)
    assert sum(r.count for r in by_engine[0]) > 1000


def test_all_paths_and_odd_tiles_fall_back_to_the_walk(tiny: lacak.Dictionary) -> None:
    boards_ = ["QU A T / X # O", "CAT/OAT", "CAT ING/TAE A"]
    results = solved(solve_many(boards_, tiny, all_paths=True, min_length=2))
    for text, result in zip(boards_, results, strict=True):
        assert result.entries == solve_board(text, tiny, all_paths=True, min_length=2).entries
        assert result.all_paths
    wide = "A" * 64  # more tiles than a 64-bit mask
    only_aa = lacak.Dictionary(name="a", language="", words=["AA"])
    assert solve_many([wide], only_aa, engine="numpy", min_length=2)[0].unwrap().count == 1


def test_workers_and_executors(monkeypatch) -> None:
    from lacak_boggle import batch

    monkeypatch.setattr(batch, "PARALLEL_FROM", 1)
    monkeypatch.setattr(batch, "JOB_BOARDS", 5)
    boards_ = [shake("classic4", seed) for seed in range(12)]
    expected = [solve_board(b, "eng").entries for b in boards_]
    in_process = solved(solve_many(boards_, "eng", workers=1))
    assert [r.entries for r in in_process] == expected
    for engine in ENGINES:  # numba on threads; numpy and dfs on processes
        pooled = solved(solve_many(boards_, "eng", workers=2, engine=engine))
        assert [r.entries for r in pooled] == expected
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        threaded = solved(solve_many(boards_, "eng", engine="dfs", executor=pool))
    assert [r.entries for r in threaded] == expected
    calls = []

    class Recording(concurrent.futures.ThreadPoolExecutor):
        def submit(self, fn, /, *args, **kwargs):
            ((_, (_, columns)),) = args[0]  # one piece per job: (index, (job, columns))
            calls.append(len(columns))
            return super().submit(fn, *args, **kwargs)

    with Recording(2) as pool:
        assert [r.entries for r in solved(solve_many(boards_, "eng", executor=pool))] == expected
    assert sorted(calls) == [4, 4, 4]  # 12 boards in jobs of at most 5


def test_bad_arguments(tiny: lacak.Dictionary) -> None:
    with pytest.raises(lacak.InvalidOptionError, match="unknown engine"):
        solve_many(["CAT"], tiny, engine="gpu")
    for workers in (0, -2, True):
        with pytest.raises(lacak.InvalidOptionError):
            solve_many(["CAT"], tiny, workers=workers)
    cat, ragged = solve_many(["CAT", "CA/T"], tiny)  # a bad board is its own record
    assert cat.unwrap().word_list == solve_board("CAT", tiny).word_list
    assert isinstance(ragged.error, lacak.InvalidPuzzleError) and ragged.index == 1
    with pytest.raises(lacak.InvalidPuzzleError, match="board 1: ragged"):
        ragged.unwrap()
    with pytest.raises(lacak.InvalidOptionError):
        solve_many(["CAT"], tiny, min_length=0)
    assert solve_many([], tiny) == []


def test_results_are_lazy_but_whole() -> None:
    """Results made from the engines' arrays hold the words at once, make their path
    tuples on demand, and compare, hash and pickle as results with every path."""
    import pickle

    boards_ = [shake("classic4", seed) for seed in range(10)]
    for engine in ENGINES:
        for result in solved(solve_many(boards_, "eng", engine=engine)):
            single = solve_board(result.board, "eng", engine="dfs")
            assert (result.word_list, result.count, result.score) == (
                single.word_list,
                single.count,
                single.score,
            )
            assert result.entries._pairs is None  # no path tuple made for those
            assert result.entries.words == tuple(single.word_list)
            again = pickle.loads(pickle.dumps(result))
            assert again == result and hash(again) == hash(result)
            assert again.entries == single.entries
            assert result.get(single.word_list[-1]) == single.get(single.word_list[-1])
            assert result.to_dict()["boggle"]["words"] == [w.to_dict() for w in result.words]
    every = solve_board(boards_[0], "eng", all_paths=True)
    assert every.to_dict()["boggle"]["words"] == [w.to_dict(all_paths=True) for w in every.words]
    assert any(len(w["paths"]) > 1 for w in every.to_dict()["boggle"]["words"])


def test_a_worker_that_dies_costs_only_its_board(monkeypatch) -> None:
    """A board whose worker is killed (SIGKILL, in a real process worker) is
    reported; every other board of the batch, of its job too, is solved."""
    import multiprocessing
    import os
    import signal

    from lacak_boggle import batch

    if multiprocessing.get_start_method() != "fork":
        pytest.skip("the crash is planted by monkeypatching, which forked workers inherit")
    parent = os.getpid()
    solve_columns = batch.solve_columns

    def deadly(graph, columns, shape, min_length, engine, *mode):
        killer = graph.single_columns["Z"]
        if os.getpid() != parent and (columns == killer).all(axis=1).any():
            os.kill(os.getpid(), signal.SIGKILL)
        return solve_columns(graph, columns, shape, min_length, engine, *mode)

    monkeypatch.setattr(batch, "solve_columns", deadly)
    monkeypatch.setattr(batch, "PARALLEL_FROM", 1)
    monkeypatch.setattr(batch, "JOB_BOARDS", 4)
    boards_ = [shake("classic4", seed) for seed in range(11)]
    boards_.insert(5, Board.parse("ZZZZ/ZZZZ/ZZZZ/ZZZZ"))
    records = solve_many(boards_, "eng", workers=2, engine="numpy")
    assert [r.index for r in records] == list(range(12))
    for board, record in zip(boards_, records, strict=True):
        if board.flat[0] != "Z":
            assert record.unwrap().entries == solve_board(board, "eng").entries
    died = records[5].error
    assert isinstance(died, lacak.WorkerDiedError) and died.exitcode == -signal.SIGKILL
    assert records[5].attempts == died.attempts == 4 and died.index == 5
    assert "worker died (signal 9, SIGKILL) solving board 5" in str(died)


def test_a_caller_s_process_pool_survives_bad_boards(tiny: lacak.Dictionary) -> None:
    with concurrent.futures.ProcessPoolExecutor(2) as pool:
        records = solve_many(["CAT", "CA/T", "C1T", "CAT/OAT"], tiny, executor=pool)
        assert [r.ok for r in records] == [True, False, False, True]
        assert "board 2" in str(records[2].error)
        again = solve_many(["CAT/XQY"], tiny, min_length=2, executor=pool)
        assert again[0].unwrap().word_list == solve_board("CAT/XQY", tiny, min_length=2).word_list
