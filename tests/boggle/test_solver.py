"""The solver against the reference solver, scores, paths, check, limits and tracing."""

from __future__ import annotations

import itertools

import attrs
import lacak
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from lacak_boggle import Board, check, official_min_length, score, solve_board
from lacak_boggle.engines import compiled_available

from . import reference
from .conftest import timeless
from .strategies import BIG_ALPHABETS, cases, foreign_cases

SETTINGS = settings(max_examples=150, deadline=None)
#: The single-board engines (the compiled one when numba is installed, as it is for the tests).
ENGINES = ["dfs", "auto"] + (["numba"] if compiled_available() else [])


def _paths_as_tuples(result: lacak.SearchResult) -> dict[str, list[tuple[tuple[int, int], ...]]]:
    return {w.word: list(w.paths) for w in result.words}


@SETTINGS
@given(case=cases(), min_length=st.integers(1, 4), engine=st.sampled_from(ENGINES))
@example(
    case=(
        [["QU", "A"], ["T", "#"]],
        lacak.Dictionary(name="x", language="", words=["QUA", "QUAT", "QAT"], alphabet="AQTU"),
    ),
    min_length=1,
    engine="dfs",
)
def test_same_words_and_first_paths_as_the_reference(case, min_length: int, engine: str) -> None:
    tiles, dictionary = case
    board = Board.from_rows(tiles)
    result = solve_board(board, dictionary, min_length=min_length, engine=engine)
    expected = reference.solve(tiles, dictionary.words, min_length)
    assert result.word_list == sorted(expected)
    for found in result.words:
        assert found.path == expected[found.word][0]
        assert found.paths == (found.path,)


@SETTINGS
@given(case=cases(), min_length=st.integers(1, 4))
def test_the_engines_give_the_same_result(case, min_length: int) -> None:
    tiles, dictionary = case
    results = [
        solve_board(Board.from_rows(tiles), dictionary, min_length=min_length, engine=engine)
        for engine in ENGINES
    ]
    first = results[0]
    for other in results[1:]:
        assert other == attrs.evolve(
            first, stats=attrs.evolve(first.stats, seconds=other.stats.seconds)
        )
        assert other.words == first.words
        assert timeless(other.to_dict()) == timeless(first.to_dict())


@SETTINGS
@given(case=cases(max_side=4))
def test_all_paths_are_every_path_of_the_reference(case) -> None:
    tiles, dictionary = case
    result = solve_board(Board.from_rows(tiles), dictionary, min_length=1, all_paths=True)
    assert _paths_as_tuples(result) == reference.solve(tiles, dictionary.words, 1)


@SETTINGS
@given(case=cases())
def test_every_path_is_legal_and_spells_its_word(case) -> None:
    tiles, dictionary = case
    board = Board.from_rows(tiles)
    for found in solve_board(board, dictionary, min_length=1, all_paths=True).words:
        for path in found.paths:
            assert board.is_path(path)
            assert len(set(path)) == len(path)
            assert all(reference.adjacent(a, b) for a, b in itertools.pairwise(path))
            assert "".join(tiles[r][c] for r, c in path) == found.word
            assert found.word in dictionary


@SETTINGS
@given(case=cases(), engine=st.sampled_from(ENGINES))
def test_scores_follow_the_table(case, engine: str) -> None:
    tiles, dictionary = case
    result = solve_board(Board.from_rows(tiles), dictionary, min_length=1, engine=engine)
    for found in result.words:
        assert found.score == reference.points(found.word) == score(len(found.word))
    assert result.score == sum(reference.points(w) for w in result.word_list)
    assert result.count == len(result.word_list)


def test_score_table() -> None:
    assert [score(n) for n in range(0, 12)] == [0, 0, 0, 1, 1, 2, 3, 5, 11, 11, 11, 11]


def test_qu_counts_two_letters(tiny: lacak.Dictionary) -> None:
    result = solve_board("QU A / # T", tiny)
    assert result.word_list == ["QUA", "QUAT"]  # three and four letters on two and three tiles
    assert [w.score for w in result.words] == [1, 1]
    assert result.get("quat").path == ((0, 0), (0, 1), (1, 1))


def test_lone_q_is_not_qu(tiny: lacak.Dictionary) -> None:
    result = solve_board("Q A / X T", tiny, min_length=2)
    assert "QUA" not in result
    assert result.word_list == ["AT", "TA", "TAX"]
    assert "QUA" in solve_board("Q A / U T", tiny)  # a Q tile and a U tile do spell QU


def test_official_minimum_length() -> None:
    assert official_min_length(4, 4) == 3
    assert official_min_length(1, 16) == 3
    assert official_min_length(5, 5) == 4
    assert official_min_length(6, 6) == 4
    words = lacak.Dictionary(name="m", language="", words=["ABC", "ABCD"], alphabet="ABCDX")
    assert solve_board("ABCD", words).word_list == ["ABC", "ABCD"]
    big = "ABCDX/XXXXX/XXXXX/XXXXX/XXXXX"
    assert solve_board(big, words).word_list == ["ABCD"]
    assert solve_board(big, words, min_length=3).min_length == 3


def test_blank_tiles_stop_words(tiny: lacak.Dictionary) -> None:
    assert solve_board("C#T/#A#", tiny, min_length=2).word_list == ["AT", "CAT", "TA"]
    assert solve_board("CA#T", tiny, min_length=2).word_list == []


def test_the_reference_example_with_min_length_2() -> None:
    """The Indonesian tutorial's board: its RESULT starts AH, AHO, HUS."""
    result = solve_board("AHORJ/QQUOI/SSCPD/MUPSM/AUULI", "ind", min_length=2)
    for word in ("AH", "AHO", "HUS"):
        assert word in result
    assert result.get("AHO").path == ((0, 0), (0, 1), (0, 2))
    assert result.min_length == 2
    assert all(len(w) >= 2 for w in result.word_list)
    default = solve_board("AHORJ/QQUOI/SSCPD/MUPSM/AUULI", "ind")
    assert default.min_length == 4
    assert set(default.word_list) == {w for w in result.word_list if len(w) >= 4}


@SETTINGS
@given(case=cases(), data=st.data())
def test_check_agrees_with_solve(case, data: st.DataObject) -> None:
    tiles, dictionary = case
    board = Board.from_rows(tiles)
    min_length = data.draw(st.integers(1, 4))
    result = solve_board(board, dictionary, min_length=min_length)
    candidates = [*dictionary.words, *result.word_list, "Q", "ZZZ"]
    word = data.draw(st.sampled_from(candidates))
    answer = check(board, word, dictionary, min_length=min_length)
    assert answer.valid == (word in result)
    assert answer.in_dictionary == (word in dictionary)
    assert answer.on_board == bool(reference.spellings(tiles, word))
    assert list(answer.paths) == reference.spellings(tiles, word)
    if answer.valid:
        assert answer.path == result.get(word).path
        assert answer.score == result.get(word).score


def test_check_reports_each_part(tiny: lacak.Dictionary) -> None:
    answer = check("CAT/XQY", "cat", tiny)
    assert (answer.word, answer.on_board, answer.in_dictionary, answer.valid) == (
        "CAT",
        True,
        True,
        True,
    )
    assert answer.path == ((0, 0), (0, 1), (0, 2))
    assert answer.to_dict()["path"] == [[0, 0], [0, 1], [0, 2]]
    not_word = check("CAT/XQY", "TAC", tiny)
    assert (not_word.on_board, not_word.in_dictionary, not_word.valid) == (True, False, False)
    absent = check("CAT/XQY", "TAXI", tiny)
    assert (absent.on_board, absent.in_dictionary, absent.path) == (False, True, None)
    short = check("CAT/XQY", "AT", tiny)
    assert (short.on_board, short.in_dictionary, short.long_enough, short.valid) == (
        True,
        True,
        False,
        False,
    )
    assert check("CAT/XQY", "AT", tiny, min_length=2).valid
    with pytest.raises(lacak.InvalidOptionError):
        check("CAT/XQY", "", tiny)
    with pytest.raises(lacak.InvalidOptionError):
        check("CAT/XQY", "C4T", tiny)


@SETTINGS
@given(case=cases(), budget=st.integers(0, 60))
def test_the_general_walk_agrees_and_honours_limits(case, budget: int) -> None:
    tiles, dictionary = case
    board = Board.from_rows(tiles)
    fast = solve_board(board, dictionary, min_length=1)
    unlimited_general = solve_board(
        board, dictionary, min_length=1, limits=lacak.Limits(seconds=60)
    )
    assert unlimited_general.entries == fast.entries
    assert unlimited_general.complete
    limited = solve_board(board, dictionary, min_length=1, limits=lacak.Limits(max_expanded=budget))
    assert limited.stats.expanded <= budget
    assert set(limited.word_list) <= set(fast.word_list)
    if limited.complete:
        assert limited.entries == fast.entries
    for found in limited.words:
        assert found.path == fast.get(found.word).path


@settings(max_examples=60, deadline=None)
@given(case=cases(max_side=4), depth=st.integers(0, 4))
def test_max_depth_bounds_the_tiles_per_word(case, depth: int) -> None:
    tiles, dictionary = case
    board = Board.from_rows(tiles)
    full = solve_board(board, dictionary, min_length=1, all_paths=True)
    cut = solve_board(board, dictionary, min_length=1, limits=lacak.Limits(max_depth=depth))
    short = {w.word: [p for p in w.paths if len(p) <= depth] for w in full.words}
    assert cut.word_list == sorted(word for word, paths in short.items() if paths)
    for found in cut.words:
        assert found.path == short[found.word][0]
    if not cut.found:
        assert cut.stopped in (lacak.StopReason.DEPTH, lacak.StopReason.EXHAUSTED)


@settings(max_examples=40, deadline=None)
@given(case=cases(max_side=3))
def test_tracing_records_the_search_tree(case) -> None:
    tiles, dictionary = case
    board = Board.from_rows(tiles)
    trace = lacak.SearchTrace()
    traced = solve_board(board, dictionary, min_length=1, trace=trace)
    assert traced.entries == solve_board(board, dictionary, min_length=1).entries
    ids = {node.id for node in trace.nodes}
    assert trace.nodes[0].state == ()
    for node in trace.nodes[1:]:
        assert node.parent in ids
        assert node.state[-1] == node.action
        assert len(node.state) == node.depth
    assert len(trace.nodes) == traced.stats.generated + 1
    goals = [node for node in trace.nodes if node.goal]
    assert len(goals) == (1 if traced.found else 0)
    if goals:
        assert goals[0].state == traced.actions


def test_stats_count_the_walk(tiny: lacak.Dictionary) -> None:
    fast = solve_board("CAT/XQY", tiny, min_length=2)
    general = solve_board("CAT/XQY", tiny, min_length=2, limits=lacak.Limits(seconds=10))
    assert fast.stats.expanded == general.stats.expanded > 1
    assert fast.stats.generated == general.stats.generated
    assert fast.stats.depth == general.stats.depth == 3


def test_result_is_a_search_result_for_the_best_word(tiny: lacak.Dictionary) -> None:
    result = solve_board("CAT/OXI", tiny)
    assert isinstance(result, lacak.SearchResult)
    best = result.best()
    # COAT, TACO and TAXI all have 4 letters and 1 point: the alphabetical first wins
    assert {w.word for w in result.words if len(w.word) == 4} == {"COAT", "TACO", "TAXI"}
    assert best.word == "COAT"
    assert result.actions == best.path
    assert result.states[0] == () and result.states[-1] == best.path
    assert result.cost == len(best.path)
    assert result.stopped is lacak.StopReason.GOAL
    empty = solve_board("XXX", tiny)
    assert not empty.found and empty.stopped is lacak.StopReason.EXHAUSTED and empty.count == 0


def test_letters_no_word_uses_start_no_word(tiny: lacak.Dictionary) -> None:
    """A tile with a letter outside the dictionary's alphabet (or, with no alphabet
    declared, a letter no word uses) is a tile no word starts on or passes through,
    never an error (issue 13)."""
    small = lacak.Dictionary(name="abc", language="", words=["AB", "ABC", "BA"])
    assert solve_board("ABZ", small, min_length=2).word_list == ["AB", "BA"]
    assert solve_board("AZB", small, min_length=1).word_list == []  # Z parts A from B
    assert solve_board("A BZ", small, min_length=1).word_list == []  # B, then no Z
    assert solve_board("A B / Z C", small, min_length=2).word_list == ["AB", "ABC", "BA"]
    assert solve_board("ÄBC", tiny).word_list == []
    answer = check("ÄBC", "ÄB", tiny, min_length=2)
    assert (answer.on_board, answer.in_dictionary, answer.valid) == (True, False, False)
    assert check("ÄBC", "ABC", tiny).on_board is False


@SETTINGS
@given(case=foreign_cases(), min_length=st.integers(1, 3), engine=st.sampled_from(ENGINES))
@example(
    case=([["A", "R"], ["H", "O"]], lacak.Dictionary(name="k", language="", words=["AH", "AHO", "HO"])),
    min_length=2,
    engine="dfs",
)
@example(
    case=(
        [["QU", "A"], ["IN", "T"]],
        lacak.Dictionary(name="k", language="", words=["AT", "TA"], alphabet="AT"),
    ),
    min_length=1,
    engine="numba" if "numba" in ENGINES else "dfs",
)
def test_tiles_outside_the_alphabet_agree_with_the_reference(
    case, min_length: int, engine: str
) -> None:
    """Every engine (one board, every path, batches, and check) gives the reference's
    words on boards with letters the dictionary does not know."""
    from lacak_boggle import solve_many

    tiles, dictionary = case
    board = Board.from_rows(tiles)
    expected = reference.solve(tiles, dictionary.words, min_length)
    result = solve_board(board, dictionary, min_length=min_length, engine=engine)
    assert result.word_list == sorted(expected)
    assert [w.path for w in result.words] == [expected[w][0] for w in result.word_list]
    every = solve_board(board, dictionary, min_length=min_length, all_paths=True)
    assert _paths_as_tuples(every) == expected
    for batch_engine in ("dfs", "numpy", *(["numba"] if "numba" in ENGINES else [])):
        (batch,) = solve_many([board], dictionary, min_length=min_length, engine=batch_engine)
        assert batch.unwrap().entries == result.entries
        assert batch.unwrap().stats.expanded == result.stats.expanded
    for word in [*dictionary.words[:5], *expected]:
        answer = check(board, word, dictionary, min_length=min_length)
        assert answer.valid == (word in expected)
        assert list(answer.paths) == reference.spellings(tiles, word)


def test_bad_options(tiny: lacak.Dictionary) -> None:
    with pytest.raises(lacak.InvalidOptionError, match="unknown engine"):
        solve_board("CAT", tiny, engine="gpu")
    for bad in (0, -1, True, 2.5):
        with pytest.raises(lacak.InvalidOptionError):
            solve_board("CAT", tiny, min_length=bad)
    with pytest.raises(lacak.UnknownComponentError):
        solve_board("CAT", "no-such-dictionary")
    with pytest.raises(lacak.DictionaryError):
        solve_board("CAT", "/no/such/file.json")


def test_dictionary_from_a_file(tmp_path, tiny: lacak.Dictionary) -> None:
    path = tmp_path / "mine.json"
    path.write_text('{"C": ["cat", "coat"], "T": ["taco"]}', encoding="utf-8")
    result = solve_board("CAT/OAT", str(path))
    assert result.dictionary == "mine"
    assert result.word_list == ["CAT", "COAT", "TACO"]
    # no X or I in any word and no alphabet declared: those tiles start no word
    assert solve_board("CAT/OXI", path).word_list == ["CAT", "COAT", "TACO"]
    path.write_text('{"alphabet": "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "words": ["cat", "coat", "taco"]}')
    assert solve_board("CAT/OXI", path).word_list == ["CAT", "COAT", "TACO"]


def test_board_dictionary_is_used_by_default(tiny: lacak.Dictionary) -> None:
    board = Board.from_string("CAT/XQY").with_dictionary(tiny, min_length=2)
    assert solve_board(board).word_list == ["AT", "CAT", "TA", "TAX"]
    assert check(board, "at").valid


@pytest.mark.parametrize("size", sorted(BIG_ALPHABETS))
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_large_alphabets(size: int, data: st.DataObject) -> None:
    from lacak_boggle import solve_many
    from lacak_boggle.wordgraph import compile_dictionary

    letters = BIG_ALPHABETS[size]
    assert len(set(letters)) == size
    # the rarest letters (the last columns) matter most: draw from both ends
    pool = letters[:3] + letters[-5:]
    rows, cols = data.draw(st.integers(1, 4)), data.draw(st.integers(1, 4))
    flat = data.draw(st.lists(st.sampled_from(pool), min_size=rows * cols, max_size=rows * cols))
    tiles = [flat[r * cols : (r + 1) * cols] for r in range(rows)]
    words = data.draw(
        st.lists(st.text(alphabet=pool, min_size=1, max_size=5), min_size=1, max_size=40)
    )
    words += ["".join(row) for row in tiles]
    dictionary = lacak.Dictionary(name="big", language="", words=words, alphabet=letters)
    graph = compile_dictionary(dictionary)
    if size <= 30:
        assert graph.transitions.typecode == "i"
    if any(ch in word for word in words for ch in letters[40:62]):
        assert graph.transitions.typecode == "q"  # letter masks need the high bits
    result = solve_board(Board.from_rows(tiles), dictionary, min_length=1)
    expected = reference.solve(tiles, dictionary.words, 1)
    assert result.word_list == sorted(expected)
    assert [w.path for w in result.words] == [expected[w][0] for w in result.word_list]
    (batch,) = solve_many([Board.from_rows(tiles)], dictionary, min_length=1, engine="numpy")
    assert batch.unwrap().entries == result.entries


def test_the_default_dictionary_can_be_changed(monkeypatch) -> None:
    from lacak_boggle.solver import DEFAULT_DICTIONARY, resolve_dictionary

    assert DEFAULT_DICTIONARY == "eng"
    assert resolve_dictionary(None).name == "eng"
    monkeypatch.setenv("LACAK_BOGGLE_DICTIONARY", "ind")
    assert resolve_dictionary(None).name == "ind"
    assert solve_board("AHORJ/QQUOI/SSCPD/MUPSM/AUULI", min_length=2).dictionary == "ind"
