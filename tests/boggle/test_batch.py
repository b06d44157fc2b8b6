"""solve_many: every engine agrees with solve_board, board for board."""

from __future__ import annotations

import concurrent.futures

import lacak
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak_boggle import Board, BoggleResult, score_many, shake, solve_board, solve_many
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

    monkeypatch.setattr(batch.plan, "PARALLEL_FROM", 1)
    monkeypatch.setattr(batch.jobs, "JOB_BOARDS", 5)
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
    solve_columns = batch.arrays.solve_columns

    def deadly(graph, columns, shape, min_length, engine, *mode):
        killer = graph.single_columns["Z"]
        if os.getpid() != parent and (columns == killer).all(axis=1).any():
            os.kill(os.getpid(), signal.SIGKILL)
        return solve_columns(graph, columns, shape, min_length, engine, *mode)

    monkeypatch.setattr(batch.jobs, "solve_columns", deadly)
    monkeypatch.setattr(batch.plan, "PARALLEL_FROM", 1)
    monkeypatch.setattr(batch.jobs, "JOB_BOARDS", 4)
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


def _scores_of(results: list[BoggleResult]) -> dict[str, list[int]]:
    return {
        "count": [r.count for r in results],
        "score": [r.score for r in results],
        "min_length": [r.min_length for r in results],
        "expanded": [r.stats.expanded for r in results],
        "generated": [r.stats.generated for r in results],
        "depth": [r.stats.depth for r in results],
    }


def _arrays(scores) -> dict[str, list[int]]:
    names = ("count", "score", "min_length", "expanded", "generated", "depth")
    return {name: getattr(scores, name).tolist() for name in names}


@settings(max_examples=80, deadline=None)
@given(
    case=batches(),
    engine=st.sampled_from(ENGINES),
    min_length=st.none() | st.integers(1, 3),
    as_text=st.booleans(),
)
def test_score_many_agrees_with_the_single_board_solver(
    case, engine: str, min_length, as_text: bool
) -> None:
    boards_, dictionary = case
    given_ = [b.to_text() for b in boards_] if as_text else boards_
    scores = score_many(given_, dictionary, engine=engine, min_length=min_length)
    singles = [solve_board(b, dictionary, min_length=min_length) for b in boards_]
    assert len(scores) == len(boards_) and scores.errors == {} and scores.ok.all()
    assert _arrays(scores) == _scores_of(singles)
    assert all(a.dtype == np.int64 for a in _arrays_raw(scores))
    with pytest.raises(lacak.InvalidOptionError, match="words=True"):
        scores.word_lists()
    # words-only: the word lists as well, and the same counts
    listed = score_many(given_, dictionary, engine=engine, min_length=min_length, words=True)
    assert _arrays(listed) == _arrays(scores)
    assert listed.word_lists() == [r.word_list for r in singles]
    assert [listed.words(i) for i in range(len(boards_))] == [tuple(r.word_list) for r in singles]


def _arrays_raw(scores):
    return [scores.count, scores.score, scores.min_length, scores.expanded, scores.generated,
            scores.depth]  # fmt: skip


def test_score_many_reads_every_text_form_as_board_does(tiny: lacak.Dictionary) -> None:
    """Plain text boards are read straight into the engines; every other form (and
    every plain board that is not a board) goes through Board, with the same answers."""
    texts = [
        "CAT/XQY",  # plain
        "CAT/XQY/TAC",
        "cat/xqy",  # lower case: read by Board
        "C A T / X QU Y",  # spaced, with a QU tile
        "CAQuT/XYZT",  # compact with Qu
        "CAT/XQ",  # ragged: an error
        "CAT//XQY",  # an empty row: an error
        "RRR/RRR",  # letters no word uses: blanks
        "#AT/C#T",
        "QUA/TXX",  # a lone Q, then U: not the QU tile
        "ABCDEFGHIJKLMNOPQRSTUVWXYZ/ABCDEFGHIJKLMNOPQRSTUVWXYZ/ABCDEFGHIJKLMNOPQRSTUVWXYZ",
        "A" * 64,  # more tiles than the array engines take
        "CAT",
        "C A T / X Qu Y",  # the canonical text of a board with a digraph: read directly
        "C  A T / X QU Y",  # other spacing: read by Board
        "C A T/X Qu Y",
        "Th A T / A # Qu",
        "Ab A T / A # Qu",  # a tile that is not a dice digraph
        "c A T / X Qu Y",
        "A B / C",  # ragged: an error
    ]
    for engine in ENGINES:
        scores = score_many(texts, tiny, engine=engine, min_length=2, words=True)
        assert sorted(scores.errors) == [5, 6, 19]
        assert str(scores.errors[19]).startswith("board 19: ragged")
        assert str(scores.errors[5]).startswith("board 5: ragged")
        assert str(scores.errors[6]).startswith("board 6: row 1 of the board is empty")
        records = solve_many(texts, tiny, engine=engine, min_length=2)
        assert [r.index for r in records] == list(range(len(texts)))
        for i, record in enumerate(records):
            if i in scores.errors:
                assert not record.ok and str(record.error) == str(scores.errors[i])
                assert [a[i] for a in _arrays(scores).values()] == [-1] * 6
                continue
            single = solve_board(texts[i], tiny, min_length=2)
            expected = _scores_of([single])
            assert {k: [v[i]] for k, v in _arrays(scores).items()} == expected, texts[i]
            assert _scores_of([record.unwrap()]) == expected
            assert list(scores.words(i)) == single.word_list == scores.word_lists()[i]
    assert scores.ok.tolist() == [i not in (5, 6, 19) for i in range(len(texts))]
    with pytest.raises(lacak.InvalidPuzzleError, match="board 5: ragged"):
        scores.unwrap()
    with pytest.raises(lacak.InvalidPuzzleError, match="board 6: row 1"):
        scores.words(6)
    assert scores.word_lists()[5] is None
    fine = score_many(texts[:2], tiny)
    assert fine.unwrap() is fine and fine.dictionary == "tiny"
    assert len(score_many([], tiny)) == 0
    with pytest.raises(lacak.InvalidOptionError, match="unknown engine"):
        score_many(["CAT"], tiny, engine="gpu")


def test_score_many_leaves_odd_texts_to_board(tiny: lacak.Dictionary) -> None:
    """Texts the direct reading must not take (or must take whole) answer as Board reads them."""
    texts = [
        "",  # no tiles
        "/CAT",  # an empty row first
        "CAT/",  # ... or last
        "\u00c4AT/CAT",  # not ASCII
        "CAT/X1Y",  # a byte no tile has, in a plain text of the right shape
        "CAT/XQY/T/A",  # plain, the first of its length sets another shape
        "C A T / X / Y",  # a "/" as a tile
        "C A /T X",  # a "/" that is not a row break
        "C A T / X Qu",  # ragged, spaced
        "C A T / X Xy Y",  # a tile no graph column is
        "C A T / X Qu Y",  # (fine: read directly, among the others)
        "CAT/XQY",
        "QUA/TCA",
    ]
    for engine in ENGINES:
        scores = score_many(texts, tiny, engine=engine, min_length=2, words=True)
        for i, text in enumerate(texts):
            try:
                single = solve_board(Board.parse(text), tiny, min_length=2)
            except lacak.InvalidPuzzleError as error:
                assert str(scores.errors[i]) == f"board {i}: {error}", text
                continue
            assert i not in scores.errors, text
            assert {k: [v[i]] for k, v in _arrays(scores).items()} == _scores_of([single]), text
            assert scores.word_lists()[i] == single.word_list, text


def test_score_many_with_workers(monkeypatch) -> None:
    from lacak_boggle import batch

    monkeypatch.setattr(batch.plan, "PARALLEL_FROM", 1)
    monkeypatch.setattr(batch.jobs, "JOB_BOARDS", 5)
    boards_ = [shake("classic4", seed) for seed in range(12)] + ["CA/T"]
    expected = _scores_of([solve_board(b, "eng") for b in boards_[:-1]])
    for engine in ENGINES:
        given_ = [*boards_[:6], *(str(b) for b in boards_[6:])]  # Boards and text
        scores = score_many(given_, "eng", workers=2, engine=engine, words=True)
        assert {k: v[:-1] for k, v in _arrays(scores).items()} == expected
        assert list(scores.errors) == [12]
        assert scores.word_lists()[:-1] == [solve_board(b, "eng").word_list for b in boards_[:-1]]


def test_results_built_in_a_batch_are_the_results_a_constructor_builds() -> None:
    """found_result writes a BoggleResult's slots directly: every field, as the
    constructor sets them."""
    import attrs
    from lacak_boggle.results import Entries, found_result

    board = shake("classic4", 3)
    stats = lacak.SearchStats(expanded=5, generated=9, max_frontier=3, depth=3, seconds=0.5)
    entries = Entries(("ACT", "CAT"), (((0, 1, 2),), ((1, 0, 2),)))
    cells = ((0, 0), (0, 1), (0, 2))
    fast = found_result(board, "eng", entries, cells, min_length=3, stats=stats, strategy="s")
    slow = BoggleResult.from_states(
        [cells[:k] for k in range(4)], cells, stats=stats, strategy="s", kind="boggle",
        board=board, dictionary="eng", min_length=3, entries=entries,
    )  # fmt: skip
    for field in attrs.fields(BoggleResult):
        assert getattr(fast, field.name) == getattr(slow, field.name), field.name
    assert fast == slow and hash(fast) == hash(slow) and repr(fast) == repr(slow)
    assert fast.words == slow.words and fast.score == slow.score == 2


def test_entries_made_later_and_their_score() -> None:
    from lacak_boggle.results import Entries, score, total_score

    asked = []

    def make(key: int):
        asked.append(key)
        return [((0, 1, 2),), ((2, 1, 0, 3, 4, 5, 6, 7),)]

    entries = Entries.later(("CAT", "SEQUENCE"), make, 7, 99)
    assert entries.words == ("CAT", "SEQUENCE") and entries.score == 99 and asked == []
    assert entries[1] == ("SEQUENCE", ((2, 1, 0, 3, 4, 5, 6, 7),)) and asked == [7]
    assert entries == Entries(("CAT", "SEQUENCE"), make(7)) and asked == [7, 7]
    assert Entries(("CAT", "SEQUENCE")[:0]).score == 0
    assert Entries(("CAT", "SEQUENCE"), make(7)).score == score(3) + score(8) == 12
    words = ["AA", "CAT", "TAXI", "TAXES", "QUEENS", "ABSOLUT", "ABSOLUTE", "ABSOLUTELY"]
    assert total_score(words) == sum(score(len(w)) for w in words) == 34
