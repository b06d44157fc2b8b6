"""Every path is bounded: limits on solving and checking, deep words without recursion,
``--timeout``, ``--max-words`` and ``--max-paths``, and memory errors that say what was too big.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

import lacak
import pytest
from click.testing import CliRunner
from hypothesis import example, given, settings
from hypothesis import strategies as st
from lacak.cli import make_cli
from lacak_boggle import Board, batch, check, score_many, solve_board, solve_many, wordgraph
from lacak_boggle import solver as solver_module
from lacak_boggle.engines import compiled_available
from lacak_boggle.solver import DEFAULT_MAX_PATHS
from lacak_boggle.wordgraph import CompileStopped, compile_dictionary, compile_words

from .strategies import cases

SETTINGS = settings(max_examples=120, deadline=None)
#: The single-board engines (the compiled one when numba is installed, as it is for the tests).
ENGINES = ["dfs", "auto"] + (["numba"] if compiled_available() else [])

ALL_A_5x5 = "/".join(["AAAAA"] * 5)
ALL_A_4x4 = "/".join(["AAAA"] * 4)


def _dictionary(*words: str, name: str = "deep") -> lacak.Dictionary:
    return lacak.Dictionary(name=name, language="", words=list(words))


def _legal(board: Board, word: str, path: tuple[tuple[int, int], ...]) -> bool:
    return board.is_path(path) and board.spell(path) == word


class _Looks:
    """A fake clock for :func:`lacak.limits.use_clock` that counts the looks at it and
    keeps the CPU time of each (``time``: the time it says, 0.0 unless ``ticking``, when
    it says how many looks there were)."""

    def __init__(self, *, ticking: bool = False) -> None:
        self.ticking = ticking
        self.cpu = [time.process_time()]

    def __call__(self) -> float:
        self.cpu.append(time.process_time())
        return float(len(self.cpu) - 1) if self.ticking else 0.0

    @property
    def count(self) -> int:
        return len(self.cpu) - 1

    def longest_gap(self) -> float:
        """The most CPU seconds spent between two looks (or since the clock was made)."""
        points = [*self.cpu, time.process_time()]
        return max(b - a for a, b in itertools.pairwise(points))


def _random_words(count: int, seed: int, letters: str = "ABCDEFGHIJKLMNOPRSTU") -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(letters) for _ in range(rng.randint(3, 12))) for _ in range(count)]


#: Words read, sorted or compiled at most between two looks at the deadline (2**16);
#: the CPU seconds one such step may take on a slow machine, far above what it takes.
STEP_WORDS = 65_536
STEP_CPU = 0.5


# -- limits on solving --------------------------------------------------------------


@SETTINGS
@given(
    case=cases(max_side=5),
    budget=st.none() | st.integers(0, 80),
    max_words=st.none() | st.integers(0, 6),
    max_paths=st.none() | st.integers(0, 12),
    all_paths=st.booleans(),
)
@example(
    case=([["A", "A"], ["A", "T"]], _dictionary("AA", "AT", "AAT", name="x")),
    budget=None,
    max_words=None,
    max_paths=3,
    all_paths=True,
)
def test_limits_are_honoured(case, budget, max_words, max_paths, all_paths: bool) -> None:
    tiles, dictionary = case
    board = Board.from_rows(tiles)
    full = solve_board(board, dictionary, min_length=1, all_paths=True, max_paths=None)
    assert full.complete and not full.stopped.is_limit
    limits = lacak.Limits(max_expanded=budget)
    cut = solve_board(
        board, dictionary, min_length=1, all_paths=all_paths, limits=limits,
        max_words=max_words, max_paths=max_paths,
    )  # fmt: skip
    # a result that stopped early says so, with the limit's reason, as SearchResult does
    assert cut.complete == (not cut.stopped.is_limit)
    if cut.complete:
        expected = full if all_paths else solve_board(board, dictionary, min_length=1)
        assert cut.entries == expected.entries
    else:
        assert cut.to_dict()["boggle"]["complete"] is False
        assert cut.to_dict()["stopped"] == str(cut.stopped)
    if budget is not None:
        assert cut.stats.expanded <= budget
    if max_words is not None:
        assert cut.count <= max_words
    kept = sum(len(w.paths) for w in cut.words)
    if all_paths and max_paths is not None:
        assert kept <= max_paths
    # what was found is part of the whole answer, each path legal and the first the smallest
    assert set(cut.word_list) <= set(full.word_list)
    for found in cut.words:
        whole = full.get(found.word)
        assert found.path == whole.path
        assert set(found.paths) <= set(whole.paths)
        assert all(_legal(board, found.word, p) for p in found.paths)
    if cut.stopped is lacak.StopReason.MEMORY:  # only a word or path too many stops it
        assert (max_words is not None and cut.count == max_words) or (
            all_paths and max_paths is not None and kept == max_paths
        )


def test_a_limit_sets_stopped_even_when_words_were_found(tiny: lacak.Dictionary) -> None:
    result = solve_board("CAT/OXI", tiny, limits=lacak.Limits(max_expanded=5))
    assert result.found and result.count > 0
    assert result.stopped is lacak.StopReason.NODES and not result.complete
    cut = solve_board("CAT/OXI", tiny, max_words=2)
    assert cut.count == 2 and cut.stopped is lacak.StopReason.MEMORY
    exact = solve_board("CAT/OXI", tiny)
    assert solve_board("CAT/OXI", tiny, max_words=exact.count).complete  # no word too many


def test_max_depth_is_reported_when_it_cut_words(tiny: lacak.Dictionary) -> None:
    result = solve_board("CAT/OXI", tiny, limits=lacak.Limits(max_depth=3))
    assert result.found and result.stopped is lacak.StopReason.DEPTH and not result.complete
    assert all(len(w.path) <= 3 for w in result.words)


def test_no_time_left_stops_before_the_walk(tiny: lacak.Dictionary) -> None:
    result = solve_board(ALL_A_5x5, _dictionary("A" * 25), limits=lacak.Limits(seconds=0))
    assert result.stopped is lacak.StopReason.TIME and result.count == 0 and not result.complete


def test_the_worst_board_stops_at_the_time_limit() -> None:
    """By a clock that moves a second per look (the walk looks every 256 nodes): the
    work is counted, not timed, so a loaded machine passes as a quiet one does."""
    words = _dictionary("A" * 25, "AAAA")
    compile_dictionary(words)  # (before the clock: compiling looks at it too)
    ticking = _Looks(ticking=True)
    # the first path of A*25 comes at once; proving there is no other word takes for ever
    with lacak.limits.use_clock(ticking):
        result = solve_board(ALL_A_5x5, words, limits=lacak.Limits(seconds=50))
    assert result.stopped is lacak.StopReason.TIME and "AAAA" in result.word_list
    assert result.stats.expanded <= 256 * 51 and ticking.count <= 50 + 3


def test_all_paths_are_capped_by_default() -> None:
    result = solve_board(ALL_A_4x4, _dictionary("A" * 14), all_paths=True)
    (word,) = result.words
    assert len(word.paths) == DEFAULT_MAX_PATHS
    assert result.stopped is lacak.StopReason.MEMORY and not result.complete
    assert len(set(word.paths)) == DEFAULT_MAX_PATHS
    board = Board.from_string(ALL_A_4x4)
    assert all(_legal(board, word.word, p) for p in word.paths[:: DEFAULT_MAX_PATHS // 50])


def test_the_default_cap_is_one_number() -> None:
    import lacak_boggle
    from lacak_boggle import cli

    assert lacak_boggle.DEFAULT_MAX_PATHS == DEFAULT_MAX_PATHS == cli._MAX_PATHS
    assert lacak.searchers()["boggle"].options["max_paths"] == DEFAULT_MAX_PATHS
    assert lacak.default_registry().puzzle_types()["boggle"].solve_options["max_paths"] == (
        DEFAULT_MAX_PATHS
    )


def test_the_searcher_takes_the_same_bounds(tiny: lacak.Dictionary) -> None:
    board = Board.from_string("CAT/OXI")
    assert lacak.solve(board, "boggle", dictionary=tiny, max_words=1).count == 1
    options = lacak.parse_options("max_paths=2", lacak.searchers()["boggle"].options, what="boggle")
    assert options["max_paths"] == 2
    paths = lacak.solve(
        Board.from_string("AA/AT"), "boggle", dictionary=tiny, min_length=2, all_paths=True,
        **{k: v for k, v in options.items() if k == "max_paths"},
    )  # fmt: skip
    assert sum(len(w.paths) for w in paths.words) == 2
    timed = lacak.solve(board, "boggle", dictionary=tiny, limits=lacak.Limits(seconds=0))
    assert timed.stopped is lacak.StopReason.TIME


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"max_words": -1}, "max_words"),
        ({"max_paths": 1.5}, "max_paths"),
        ({"max_paths": True}, "max_paths"),
        ({"limits": 3}, "limits"),
    ],
)
def test_bad_bounds_are_option_errors(tiny: lacak.Dictionary, options, fragment: str) -> None:
    with pytest.raises(lacak.InvalidOptionError, match=fragment):
        solve_board("CAT", tiny, **options)


# -- compiling: deadline, no recursion ---------------------------------------------------


def test_compiling_stops_at_its_deadline(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("LACAK_CACHE_DIR", str(tmp_path))
    rng = random.Random(5)
    words = sorted(
        {
            "".join(rng.choice("ABCDEFGHIJ") for _ in range(rng.randint(3, 10)))
            for _ in range(60_000)
        }
    )
    with pytest.raises(CompileStopped, match="time limit") as raised:
        compile_words(words, deadline=time.perf_counter())  # (passed at the first look)
    assert isinstance(raised.value, lacak.LimitReachedError)
    # 310,000 words: compiling them looks at the clock well over 30 times. By a clock that
    # moves a second per look, 30 seconds stop it, whatever the machine's load (a 2 s
    # wall-clock bound here failed on a loaded 2-core machine: 2.6 s)
    more = {"".join(rng.choice("ABCDEFGHIJ") for _ in range(12)) for _ in range(250_000)}
    big = _dictionary(*words, *more, name="big")
    ticking = _Looks(ticking=True)
    with lacak.limits.use_clock(ticking):
        result = solve_board("ABC/DEF", big, limits=lacak.Limits(seconds=30))
    assert result.stopped is lacak.StopReason.TIME and result.count == 0
    assert ticking.count <= 30 + 2
    assert not list((tmp_path / "boggle").glob("*.dawg"))  # nothing half-made is cached
    timed = check("ABC/DEF", "ABC", big, limits=lacak.Limits(seconds=0))
    assert timed.stopped is lacak.StopReason.TIME and not timed.valid
    # a word list read from its file for the first time: reading it counts too
    file = tmp_path / "big.json"  # reading these words looks at the clock many times
    file.write_text(json.dumps([*words, *more]), encoding="utf-8")
    ticking = _Looks(ticking=True)
    with lacak.limits.use_clock(ticking):
        result = solve_board("ABC/DEF", file, limits=lacak.Limits(seconds=10))
    assert ticking.count <= 10 + 2
    assert result.stopped is lacak.StopReason.TIME and result.dictionary == "big"
    unknown = check("ABC/DEF", "ABC", file, limits=lacak.Limits(seconds=0))
    assert unknown.stopped is lacak.StopReason.TIME and unknown.in_dictionary is None
    assert unknown.to_dict()["in_dictionary"] is None and not unknown.valid
    assert check("ABC/DEF", "ABC", big, min_length=2).valid == ("ABC" in words)


def test_reading_a_word_list_looks_at_the_deadline_every_few_thousand_words(
    tmp_path: Path,
) -> None:
    """Issue 23: a 100 MB list took 11 s under --timeout 3; reading, normalising and sorting
    looked at the clock once each. Now every step of 65,536 words (or 1 MB of JSON) looks."""
    words = _random_words(300_000, 1)  # unsorted, some repeated
    file = tmp_path / "many.json"
    file.write_text(json.dumps(words), encoding="utf-8")
    looks = _Looks()
    with lacak.limits.use_clock(looks), lacak.deadline(1.0):
        read = lacak.Dictionary.from_file(file, cache=False)
    assert read.words == tuple(sorted(set(words)))
    # normalising, then sorting the runs and merging them: each step of 65,536 words looks
    assert looks.count >= 2 * (len(words) // STEP_WORDS + 1)
    assert looks.longest_gap() < STEP_CPU
    ticking = _Looks(ticking=True)  # the time is up at the fifth look
    with (
        lacak.limits.use_clock(ticking),
        lacak.deadline(5.0),
        pytest.raises(lacak.LimitReachedError, match="the words of a dictionary"),
    ):
        lacak.Dictionary.from_file(file, cache=False)
    assert ticking.count == 5


def test_compiling_looks_at_the_deadline_every_few_thousand_words_or_states() -> None:
    """Every step of the compile (the key, the columns, the trie, the tables) and of the
    Daciuk build for long words (by states made, not by words) looks at the clock."""
    words = sorted(set(_random_words(300_000, 2)))
    looks = _Looks()
    with lacak.limits.use_clock(looks):
        graph = compile_words(words, deadline=time.perf_counter() + 3600)
    assert graph.contains(words[1234]) and len(graph.words) == len(words)
    assert looks.count >= 4 * (len(words) // STEP_WORDS + 1)
    assert looks.longest_gap() < STEP_CPU
    # 200 words of 1,000 letters: 200,000 states, a look every 4,096 of them (it was one
    # look for the lot: 2 MB of such words took 7.3 s under --timeout 2)
    rng = random.Random(3)
    long = sorted({"".join(rng.choice("ABCDEFGH") for _ in range(1000)) for _ in range(200)})
    looks = _Looks()
    with lacak.limits.use_clock(looks):
        graph = compile_words(long, deadline=time.perf_counter() + 3600)
    assert graph.longest == 1000 and graph.contains(long[7])
    assert looks.count >= 200_000 // 4096
    assert looks.longest_gap() < STEP_CPU
    ticking = _Looks(ticking=True)
    with lacak.limits.use_clock(ticking), pytest.raises(CompileStopped, match="time limit"):
        compile_words(long, deadline=10.0)
    assert ticking.count == 10


def test_a_solve_reading_a_list_for_the_first_time_stops_at_its_deadline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The solve's time limit covers reading and compiling: with a clock that moves a
    second per look, ``seconds=k`` stops the set-up at the k-th look, nothing cached."""
    monkeypatch.setenv("LACAK_CACHE_DIR", str(tmp_path / "cache"))
    file = tmp_path / "many.json"
    file.write_text(json.dumps(_random_words(200_000, 4)), encoding="utf-8")
    for seconds in (3, 9, 30):
        ticking = _Looks(ticking=True)
        with lacak.limits.use_clock(ticking):
            result = solve_board("ABC/DEF", file, limits=lacak.Limits(seconds=seconds))
        assert result.stopped is lacak.StopReason.TIME and result.count == 0
        assert ticking.count <= seconds + 2  # the budget's start, the deadline's look, the result
    assert not list((tmp_path / "cache").glob("*/*.dawg"))  # nothing half-made is cached


def test_a_timeout_ends_the_set_up_of_a_list_of_long_words(
    tmp_path: Path, env: dict[str, str]
) -> None:
    """In a subprocess, the CPU time it used (a loaded machine stretches the wall clock,
    not that): 4,000 words of 1,000 letters, read and compiled for the first time."""
    rng = random.Random(6)
    words = ["".join(rng.choice("ABCDEFGH") for _ in range(1000)) for _ in range(4000)]
    file = tmp_path / "long.json"
    file.write_text(json.dumps(words), encoding="utf-8")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = _lacak("boggle", "solve", "ABC/DEF", "-d", str(file), "--timeout", "1", "--json",
                  env=env, timeout=300)  # fmt: skip
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout)["stopped"] == "time-limit"
    assert cpu < 1 + 6  # start-up and the set-up up to the deadline (it took 20 s and more)
    assert time.perf_counter() - started < 1 + 60


def test_deep_words_compile_and_solve_without_recursion() -> None:
    limit = sys.getrecursionlimit()
    word = "X" + "AB" * 600  # one row: a path deeper than the recursion limit
    dictionary = _dictionary("A" * 600, "BA", word)
    graph = compile_dictionary(dictionary, use_cache=False)
    assert graph.contains("A" * 600) and graph.rank(word) == 2 and graph.longest == 1201
    board = Board.from_string(word)
    for options in ({}, {"limits": lacak.Limits(seconds=60)}, {"all_paths": True}):
        result = solve_board(board, dictionary, min_length=2, engine="dfs", **options)
        assert result.word_list == ["BA", word], options
        assert result.get(word).path == tuple((0, c) for c in range(1201))
    assert solve_board("AA/AA", dictionary, min_length=2).count == 0
    answer = check(board, word, dictionary)
    assert answer.valid and len(answer.paths) == 1
    assert sys.getrecursionlimit() == limit


def test_no_recursion_limit_is_touched_in_the_plugin() -> None:
    folder = Path(solver_module.__file__).parent
    for module in folder.glob("*.py"):
        assert "setrecursionlimit" not in module.read_text(encoding="utf-8"), module.name


_HUGE = """
import json, sys, lacak
from lacak_boggle import check, solve_board
from lacak_boggle.wordgraph import compile_words
limit = sys.getrecursionlimit()
word = "A" * 50_000
graph = compile_words([word, "AB"])
assert graph.contains(word) and not graph.contains(word[:-1])
result = solve_board("AB/BA", sys.argv[1], min_length=2)
print(json.dumps([result.word_list, check("AB/BA", "AB", sys.argv[1], min_length=2).valid,
                  sys.getrecursionlimit() == limit]))
"""


def _run(*args: str, env: dict[str, str], timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        args, capture_output=True, text=True, timeout=timeout, env=env, check=False
    )


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "LACAK_CACHE_DIR": str(tmp_path / "cache")}


def test_a_word_of_50000_letters_is_no_crash(tmp_path: Path, env: dict[str, str]) -> None:
    """In a subprocess: the old code died of a segmentation fault here."""
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(["AB", "A" * 50_000, "BAB"]), encoding="utf-8")
    done = _run(sys.executable, "-c", _HUGE, str(path), env=env)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [["AB", "BAB"], True, True]
    # the file that validates is one Boggle can use
    lacak_cli = [sys.executable, "-m", "lacak"]
    valid = _run(*lacak_cli, "dictionaries", "validate", str(path), env=env)
    assert valid.returncode == 0, valid.stderr
    solved = _run(*lacak_cli, "boggle", "solve", "AB/BA", "-d", str(path), "--json", env=env)
    assert solved.returncode == 0, solved.stderr
    assert json.loads(solved.stdout)["boggle"]["words"][0]["word"] == "BAB"


# -- checking a word -------------------------------------------------------------------


@SETTINGS
@given(
    data=st.data(),
    case=cases(max_side=4),
    budget=st.none() | st.integers(0, 40),
    max_paths=st.none() | st.integers(0, 5),
)
def test_check_honours_its_limits(data, case, budget, max_paths) -> None:
    tiles, dictionary = case
    board = Board.from_rows(tiles)
    word = data.draw(st.sampled_from(dictionary.words) if dictionary.words else st.just("A"))
    full = check(board, word, dictionary, max_paths=None)
    assert full.complete
    cut = check(
        board, word, dictionary, limits=lacak.Limits(max_expanded=budget), max_paths=max_paths
    )
    assert cut.paths == full.paths[: len(cut.paths)]  # the first ones, in the same order
    assert cut.complete == (cut.stopped is None)
    if cut.complete:
        assert cut == full
    if max_paths is not None:
        assert len(cut.paths) <= max_paths
    assert cut.in_dictionary == full.in_dictionary
    assert not cut.valid or full.valid


def test_check_is_bounded(tiny: lacak.Dictionary) -> None:
    capped = check("AA/AA", "AAA", _dictionary("AAA"), max_paths=3)
    assert len(capped.paths) == 3 and capped.valid
    assert capped.stopped is lacak.StopReason.MEMORY and not capped.complete
    assert capped.to_dict()["complete"] is False
    assert capped.paths == check("AA/AA", "AAA", _dictionary("AAA"), max_paths=None).paths[:3]
    words = _dictionary("A" * 26)
    compile_dictionary(words)  # (before the clock)
    ticking = _Looks(ticking=True)
    # 26 letters on 25 tiles: no path, but every ordering of the tiles is a prefix
    with lacak.limits.use_clock(ticking):
        stuck = check(ALL_A_5x5, "A" * 26, words, limits=lacak.Limits(seconds=30))
    assert stuck.stopped is lacak.StopReason.TIME and not stuck.paths and not stuck.valid
    assert ticking.count <= 30 + 3
    assert check("CAT", "CAT", tiny).stopped is None


# -- memory ----------------------------------------------------------------------------


def test_memory_errors_say_what_was_too_big(monkeypatch, tiny: lacak.Dictionary) -> None:
    def no_memory(*_args, **_kwargs):
        raise MemoryError

    with monkeypatch.context() as patch:
        patch.setattr(solver_module, "walk_general", no_memory)
        with pytest.raises(lacak.OutOfMemoryError, match=r"found on the 2x3 board.*max-paths"):
            solve_board("CAT/OXI", tiny, all_paths=True)
    with monkeypatch.context() as patch:
        patch.setattr(wordgraph.build, "_compile", no_memory)
        with pytest.raises(lacak.OutOfMemoryError, match="word graph of 3 words"):
            compile_words(["A", "B", "C"])
    with monkeypatch.context() as patch:
        patch.setattr(batch.arrays, "_numpy_walk", no_memory)
        # a batch keeps going: each board's record holds the error, which says what was too big
        records = solve_many(["CAT/OXI"] * 8, tiny, engine="numpy")
        assert len(records) == 8
        for record in records:
            assert not record.ok
            assert isinstance(record.error, lacak.OutOfMemoryError)
            assert "numpy engine's frontier for 8 boards" in str(record.error)


@pytest.mark.parametrize("engine", ENGINES)
def test_every_engine_honours_limits(engine: str) -> None:
    """The compiled walk has no limits: a solve with limits runs the Python walk."""
    dictionary = _dictionary("A" * 25, "AAAA")
    compile_dictionary(dictionary)  # (before the clock)
    ticking = _Looks(ticking=True)
    with lacak.limits.use_clock(ticking):
        result = solve_board(ALL_A_5x5, dictionary, limits=lacak.Limits(seconds=30),
                             engine=engine)  # fmt: skip
    assert result.stopped is lacak.StopReason.TIME and "AAAA" in result.word_list
    assert ticking.count <= 30 + 3
    words = solve_board(ALL_A_5x5, dictionary, max_words=1, engine=engine)
    assert words.count == 1 and words.stopped is lacak.StopReason.MEMORY


# -- the command line --------------------------------------------------------------------


def _lacak(*args: str, env: dict[str, str], timeout: float = 60) -> subprocess.CompletedProcess:
    return _run(sys.executable, "-m", "lacak", *args, env=env, timeout=timeout)


def test_timeout_ends_the_worst_solve(tmp_path: Path, env: dict[str, str]) -> None:
    words = tmp_path / "a25.json"
    words.write_text(json.dumps(["A" * 25, "AAAA"]), encoding="utf-8")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = _lacak(
        "boggle", "solve", ALL_A_5x5, "-d", str(words), "--timeout", "1", "--json", env=env
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # (it ran past 300 s before): its CPU time, which a loaded machine does not stretch,
    # and a wall-clock margin a machine at load 10 meets
    assert (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime) < 1 + 6
    assert time.perf_counter() - started < 1 + 30
    assert done.returncode == 1, done.stderr
    data = json.loads(done.stdout)
    assert data["boggle"]["complete"] is False and data["stopped"] == "time-limit"
    assert {w["word"] for w in data["boggle"]["words"]} <= {"AAAA", "A" * 25}
    (note,) = done.stderr.splitlines()
    assert note.startswith("note: stopped early (time-limit: --timeout 1 was reached)")


def test_max_paths_caps_all_paths(tmp_path: Path, env: dict[str, str]) -> None:
    words = tmp_path / "a14.json"
    words.write_text(json.dumps(["A" * 14]), encoding="utf-8")
    base = ["boggle", "solve", ALL_A_4x4, "-d", str(words), "--all-paths", "--json"]
    capped = _lacak(*base, "--max-paths", "1000", env=env)
    assert capped.returncode == 1
    (word,) = json.loads(capped.stdout)["boggle"]["words"]
    assert len(word["paths"]) == 1000 and "--max-paths 1000 was reached" in capped.stderr
    default = _lacak(*base, env=env)  # took 8.5 GB in 120 s before
    assert default.returncode == 1
    (word,) = json.loads(default.stdout)["boggle"]["words"]
    assert len(word["paths"]) == DEFAULT_MAX_PATHS
    assert f"--max-paths {DEFAULT_MAX_PATHS} was reached" in default.stderr


@pytest.fixture(scope="module")
def cli():
    return make_cli()


def test_cli_bounds_on_small_boards(cli, tmp_path: Path) -> None:
    runner = CliRunner()
    full = runner.invoke(cli, ["boggle", "solve", "CAT/OAT", "--json"])
    assert full.exit_code == 0 and json.loads(full.stdout)["boggle"]["complete"] is True
    few = runner.invoke(cli, ["boggle", "solve", "CAT/OAT", "--max-words", "2"])
    assert few.exit_code == 1
    assert "2 words found so far" in few.stderr and "--max-words 2 was reached" in few.stderr
    assert few.stdout.count("\n") > 1  # the words found are still shown
    bad = runner.invoke(cli, ["boggle", "solve", "CAT/OAT", "--timeout", "-1"])
    assert bad.exit_code == 2 and "--timeout" in bad.stderr
    words = tmp_path / "a26.json"
    words.write_text(json.dumps(["A" * 26]), encoding="utf-8")
    stuck = runner.invoke(
        cli, ["boggle", "check", ALL_A_5x5, "A" * 26, "-d", str(words), "--timeout", "0.3"]
    )
    assert stuck.exit_code == 1
    assert "not decided" in stuck.stdout and "time-limit" in stuck.stderr
    capped = runner.invoke(
        cli, ["boggle", "check", "AA/AA", "AAA", "-d", str(words), "--max-paths", "2", "--json"]
    )
    data = json.loads(capped.stdout)
    assert len(data["paths"]) == 2 and data["stopped"] == "memory-limit"


# -- many boards: each board's limits ------------------------------------------------------

#: The batch engines (the compiled one when numba is installed, as it is for the tests).
BATCH_ENGINES = ["dfs", "numpy", "auto"] + (["numba"] if compiled_available() else [])
#: Every word of one to 36 A's: on an all-A 5x5 board every path is the start of a word,
#: and there are about 10**15 paths.
A_WORDS = ["A" * k for k in range(1, 37)]
#: A few ordinary boards, then the worst one, then one more.
BATCH = ["ABA/AAB/BAA", "AA/AA", ALL_A_5x5, "B/A"]


@pytest.mark.parametrize("engine", BATCH_ENGINES)
def test_solve_many_stops_each_board_at_its_limit(engine: str) -> None:
    """Issue 23: ``solve-many`` had no limit: the worst board ran past 60 s with every
    engine. Each board has the limits; the one that reaches them has what
    ``solve_board`` gives under them, the others their whole answer."""
    words = _dictionary(*A_WORDS, "AB", "BA", "ABA")
    limits = lacak.Limits(max_expanded=3000)
    records = solve_many(BATCH, words, min_length=1, engine=engine, limits=limits)
    for board, record in zip(BATCH, records, strict=True):
        alone = solve_board(board, words, min_length=1, limits=limits)
        assert record.ok, record.error
        got = record.unwrap()
        assert (got.word_list, got.stopped, got.stats.expanded) == (
            alone.word_list,
            alone.stopped,
            alone.stats.expanded,
        ), board
        assert got.complete == (board != ALL_A_5x5)
    scores = score_many(BATCH, words, min_length=1, engine=engine, limits=limits, words=True)
    assert set(scores.errors) == {2}
    assert isinstance(scores.errors[2], lacak.LimitReachedError)
    assert "board 2: the node limit was reached" in str(scores.errors[2])
    whole = [r.unwrap() for r in records]
    assert scores.count.tolist() == [whole[0].count, whole[1].count, -1, whole[3].count]
    assert scores.word_lists()[:2] == [whole[0].word_list, whole[1].word_list]


@pytest.mark.parametrize("engine", BATCH_ENGINES)
def test_solve_many_stops_each_board_at_its_time(engine: str) -> None:
    """The time limit by a clock that moves a second per look: the worst board stops at
    its deadline, after a bounded walk (the engines hand it to the Python walk after
    ``PROBE_NODES`` nodes, which looks at the clock every 256)."""
    words = _dictionary(*A_WORDS)
    compile_dictionary(words)  # (compiled before: the set-up looks at the clock too)
    ticking = _Looks(ticking=True)
    with lacak.limits.use_clock(ticking):
        records = solve_many([ALL_A_5x5, "AA/AA"], words, min_length=1, engine=engine,
                             limits=lacak.Limits(seconds=40))  # fmt: skip
    worst, small = (record.unwrap() for record in records)
    assert worst.stopped is lacak.StopReason.TIME and worst.count > 0
    assert worst.stats.expanded <= batch.plan.PROBE_NODES + 256 * 45
    assert small.complete and small.word_list == ["A", "AA", "AAA", "AAAA"]
    assert ticking.count < 200


def test_solve_many_s_set_up_is_bounded_by_the_time_too(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("LACAK_CACHE_DIR", str(tmp_path / "cache"))
    file = tmp_path / "many.json"
    file.write_text(json.dumps(_random_words(200_000, 8)), encoding="utf-8")
    for run_many in (solve_many, score_many):
        ticking = _Looks(ticking=True)
        with (
            lacak.limits.use_clock(ticking),
            pytest.raises(lacak.LimitReachedError, match="time limit"),
        ):
            run_many(["ABC/DEF"], file, limits=lacak.Limits(seconds=8))
        assert ticking.count <= 10


def test_solve_many_command_has_a_timeout(tmp_path: Path, env: dict[str, str]) -> None:
    """In a subprocess (a hang fails the test at 120 s): ``--timeout 1`` ends the worst
    board in about a second of CPU; the other boards are whole."""
    words = tmp_path / "a36.json"
    words.write_text(json.dumps([*A_WORDS, "AB", "BA"]), encoding="utf-8")
    boards = tmp_path / "boards.txt"
    boards.write_text("\n".join(BATCH) + "\n", encoding="utf-8")
    for engine, as_json in (("numpy", False), ("dfs", True)):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = _lacak("boggle", "solve-many", str(boards), "-d", str(words), "-m", "1",
                      "--engine", engine, "--timeout", "1", *(["--json"] if as_json else []),
                      env=env, timeout=120)  # fmt: skip
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        assert done.returncode == 1, done.stderr
        assert cpu < 1 + 8  # (it ran past 60 s)
        lines = done.stdout.splitlines()
        assert len(lines) == 4
        (note,) = done.stderr.splitlines()
        assert note == (
            "note: 1 of 4 boards stopped at --timeout 1 (line 3); their records say how far "
            "they got"
        )
        if as_json:
            worst = json.loads(lines[2])
            assert worst["stopped"] == "time-limit" and worst["boggle"]["complete"] is False
            assert json.loads(lines[0])["boggle"]["complete"] is True
        else:
            assert lines[2].startswith("stopped\tboard 2: the time limit was reached after ")
            assert lines[2].endswith(f"\t{ALL_A_5x5}")
            assert lines[0].split("\t")[2] == "ABA/AAB/BAA" and lines[0].split("\t")[0].isdigit()


def test_a_trace_file_is_written_a_node_a_line(tmp_path: Path, env: dict[str, str]) -> None:
    """Issue 23: ``--trace FILE`` under ``--timeout 2`` took 5 s: writing its 100,000
    nodes indented took longer than the search. A node a line, each by the C encoder."""
    words = tmp_path / "a36.json"
    words.write_text(json.dumps(A_WORDS), encoding="utf-8")
    file = tmp_path / "tree.json"
    done = _lacak("boggle", "solve", "AA/AA", "-d", str(words), "-m", "1", "--trace", str(file),
                  env=env)  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = file.read_text(encoding="utf-8").splitlines()
    data = json.loads("\n".join(lines))
    assert lines[0] == '{"truncated": false, "nodes": ['
    assert len(lines) == len(data["nodes"]) + 2 and lines[-1] == "]}"
    assert [json.loads(line.rstrip(","))["id"] for line in lines[1:-1]] == list(
        range(len(data["nodes"]))
    )
    trace = lacak.SearchTrace()
    root = trace.add(None, "a")
    trace.add(root, "b", "x", depth=1, g=1.0)
    trace.expand(root)
    assert json.loads(trace.to_json(lines=True)) == trace.to_dict()
    assert json.loads(lacak.SearchTrace().to_json(lines=True)) == {"truncated": False, "nodes": []}
