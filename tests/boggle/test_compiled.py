"""The compiled walk (numba) against the Python walk it reproduces, board for board."""

from __future__ import annotations

import doctest
import functools
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import lacak
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak.testing.strategies import CacheDamage
from lacak_boggle import Board, shake
from lacak_boggle.walk import tile_columns, walk_fast
from lacak_boggle.wordgraph import DIGRAPHS, WordGraph, compile_dictionary, compile_words

from .strategies import ALPHABETS, BIG_ALPHABETS, _walk

numba = pytest.importorskip("numba")
compiled = pytest.importorskip("lacak_boggle.compiled")

#: Tiles for boards read with English: letters about as often as on real dice,
#: every dice digraph, and blanks.
ENG_POOL = [*"AAAEEEEIIOOUSSTTRRNNLLDDHCMPGBYKFWVXJZQ", "QU", "TH", "IN", "ER", "HE", "AN", "#"]
#: Tiles for the small ``tiny`` dictionary of the conftest (whole A-Z alphabet).
TINY_POOL = [*"ACOTXHEIQ", "QU", "TH", "#"]
#: Shapes for the real dictionaries: 1x1 up to 6x6, and 8x8 (64 tiles: bit 63 in use).
SHAPES = st.tuples(st.integers(1, 6), st.integers(1, 6)) | st.just((8, 8))


@functools.lru_cache(maxsize=1)
def _eng() -> WordGraph:
    return compile_dictionary(lacak.dictionary("eng"))


def _columns(boards: list[Board], graph: WordGraph) -> np.ndarray:
    """Each board's tiles as graph columns (all tiles here take one column)."""
    rows = []
    for board in boards:
        steps = tile_columns(board, graph)
        assert all(s is None or len(s) == 1 for s in steps)
        rows.append([0 if s is None else s[0] for s in steps])
    return np.array(rows, dtype=np.int64).reshape(len(boards), boards[0].rows * boards[0].cols)


def _board(draw: st.DrawFn, pool: list[str], shape: tuple[int, int]) -> Board:
    rows, cols = shape
    flat = draw(st.lists(st.sampled_from(pool), min_size=rows * cols, max_size=rows * cols))
    return Board.from_rows([flat[r * cols : (r + 1) * cols] for r in range(rows)])


@st.composite
def cases(draw: st.DrawFn, tiny: lacak.Dictionary) -> tuple[WordGraph, list[Board]]:
    """A word graph and one to four boards of one shape for it: English, ``tiny``, or a
    random dictionary over a small alphabet with words read off the boards."""
    kind = draw(st.sampled_from(["eng", "tiny", "random"]))
    if kind != "random":
        pool = ENG_POOL if kind == "eng" else TINY_POOL
        shape = draw(SHAPES)
        boards = [_board(draw, pool, shape) for _ in range(draw(st.integers(1, 4)))]
        graph = _eng() if kind == "eng" else compile_dictionary(tiny)
        return graph, boards
    letters = draw(st.sampled_from(ALPHABETS))
    digraphs = [d for d in DIGRAPHS if set(d) <= set(letters)]  # one column each
    pool = [*letters, *digraphs, "#"]
    # small boards: a one-letter alphabet makes every path of every length a word prefix
    shape = draw(st.tuples(st.integers(1, 4), st.integers(1, 4)) | st.just((1, 9)))
    boards = [_board(draw, pool, shape) for _ in range(draw(st.integers(1, 4)))]
    words = set(draw(st.lists(st.text(alphabet=letters, min_size=1, max_size=5), max_size=25)))
    for board in boards:
        for _ in range(draw(st.integers(0, 6))):
            walked = _walk(draw, [list(row) for row in board.tiles])
            words.update({walked, walked[:-1]})
    words.discard("")
    return compile_words(sorted(words), letters), boards


def _expected(graph: WordGraph, columns: np.ndarray, shape: tuple[int, int], min_length: int):
    """What ``walk_fast`` gives for one board: ``({rank: path}, expanded, generated, deepest)``."""
    lengths = graph.lengths()
    found, expanded, generated, deepest = walk_fast(graph, columns.tolist(), shape)
    words = {r: p for r, p in found.items() if lengths[r] >= min_length}
    return words, expanded, generated, deepest


def _per_board(out: tuple[np.ndarray, ...], boards: int):
    """The compiled walk's arrays as the same per-board form, checking their layout."""
    board, rank, paths, sizes, expanded, generated, deepest = out
    for array in out:
        assert array.dtype == np.int64
    assert board.shape == rank.shape == sizes.shape == (len(paths),)
    assert expanded.shape == generated.shape == deepest.shape == (boards,)
    assert paths.shape[1] == max([1, *sizes.tolist()])
    key = board * 2**32 + rank
    assert (np.diff(key) > 0).all()  # sorted by (board, rank), one entry each
    per = [{} for _ in range(boards)]
    for b, r, p, n in zip(
        board.tolist(), rank.tolist(), paths.tolist(), sizes.tolist(), strict=True
    ):
        assert n >= 1 and all(c >= 0 for c in p[:n]) and all(c == -1 for c in p[n:])
        per[b][r] = p[:n]
    return [(per[b], int(expanded[b]), int(generated[b]), int(deepest[b])) for b in range(boards)]


@settings(max_examples=120, deadline=None)
@given(data=st.data(), min_length=st.integers(1, 5))
def test_agrees_with_the_python_walk(tiny, data: st.DataObject, min_length: int) -> None:
    graph, boards = data.draw(cases(tiny))
    shape = boards[0].shape
    columns = _columns(boards, graph)
    together = _per_board(compiled.walk_boards(graph, columns, shape, min_length), len(boards))
    for i in range(len(boards)):
        expected = _expected(graph, columns[i], shape, min_length)
        assert together[i] == expected
        # one board per call gives the same as many in one call
        alone = compiled.walk_boards(graph, columns[i : i + 1], shape, min_length)
        assert _per_board(alone, 1) == [expected]


def test_real_dice_boards_with_english() -> None:
    graph = _eng()
    total = 0
    for dice, count in (("classic4", 200), ("big5", 20), ("superbig6", 10)):
        boards = [shake(dice, seed) for seed in range(count)]
        shape = boards[0].shape
        columns = _columns(boards, graph)
        for least in (3, 4):
            got = _per_board(compiled.walk_boards(graph, columns, shape, least), count)
            for i in range(count):
                assert got[i] == _expected(graph, columns[i], shape, least)
            total += sum(len(words) for words, *_ in got)
    assert total > 20_000  # they do find words


@pytest.mark.parametrize("size", sorted(BIG_ALPHABETS))
@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_large_alphabets_and_64_bit_tables(size: int, data: st.DataObject) -> None:
    letters = BIG_ALPHABETS[size]
    pool = letters[:3] + letters[-5:] + "#"  # the last columns matter most
    shape = data.draw(st.tuples(st.integers(1, 4), st.integers(1, 4)))
    boards = [_board(data.draw, list(pool), shape)]
    words = data.draw(
        st.lists(st.text(alphabet=pool[:-1], min_size=1, max_size=5), min_size=1, max_size=40)
    )
    words += ["".join(t for t in row if t != "#") for row in boards[0].tiles]
    graph = compile_words(sorted(set(words) - {""}), letters)
    table = graph.arrays()[0]
    if size > 62:  # letters past bit 62: no letter masks (all ones), nothing pruned
        assert max(graph.first_letters) == 1 << 63 and (table[:: graph.stride] == -1).all()
    if any(ch in word for word in words for ch in letters[30:62]):
        assert table.dtype == np.int64  # letter masks need the high bits
    columns = _columns(boards, graph)
    got = _per_board(compiled.walk_boards(graph, columns, shape, 1), 1)
    assert got == [_expected(graph, columns[0], shape, 1)]


def test_edges_of_the_board_and_of_the_input() -> None:
    # the last three cells of an 8x8 board: the deepest path ends on cell 63 (bit 63)
    graph = compile_words(["ACT", "AT", "CAT", "TA"], "ACT")
    cat = [graph.column(t) for t in "CAT"]
    columns = np.zeros((1, 64), dtype=np.int64)
    columns[0, 61:] = cat
    out = compiled.walk_boards(graph, columns, (8, 8), 2)
    ((found, *counts),) = _per_board(out, 1)
    assert {graph.words[r]: p for r, p in found.items()} == {
        "AT": [62, 63],
        "CAT": [61, 62, 63],
        "TA": [63, 62],
    }
    assert (found, *counts) == _expected(graph, columns[0], (8, 8), 2)
    assert counts == [6, 8, 3]
    # no boards, and a board of blanks: nothing found, only the root expanded
    none = compiled.walk_boards(graph, np.zeros((0, 4), dtype=np.int64), (2, 2), 1)
    assert [a.shape for a in none] == [(0,), (0,), (0, 1), (0,), (0,), (0,), (0,)]
    blank = compiled.walk_boards(graph, np.zeros((1, 4), dtype=np.int64), (2, 2), 1)
    assert [a.tolist() for a in blank[4:]] == [[1], [0], [0]]
    # other integer types and layouts are converted
    wide = np.array([[*cat, 0], [0, *cat]], dtype=np.int32).T.copy().T
    assert not wide.flags.c_contiguous
    a = compiled.walk_boards(graph, wide, (2, 2), 2)
    b = compiled.walk_boards(graph, np.ascontiguousarray(wide, dtype=np.int64), (2, 2), 2)
    assert all((x == y).all() for x, y in zip(a, b, strict=True))


def test_bad_input_is_a_value_error(tiny: lacak.Dictionary) -> None:
    graph = compile_dictionary(tiny)
    with pytest.raises(ValueError, match="at most 64 tiles"):
        compiled.walk_boards(graph, np.zeros((1, 65), dtype=np.int64), (5, 13), 3)
    with pytest.raises(ValueError, match="shape"):
        compiled.walk_boards(graph, np.zeros((1, 5), dtype=np.int64), (2, 2), 3)
    with pytest.raises(ValueError, match="shape"):
        compiled.walk_boards(graph, np.zeros(4, dtype=np.int64), (2, 2), 3)
    for bad in (-1, graph.stride):
        with pytest.raises(ValueError, match="column"):
            compiled.walk_boards(graph, np.array([[1, 2, bad, 3]]), (2, 2), 3)


def test_warm_and_the_docstring_examples() -> None:
    compiled.warm()
    result = doctest.testmod(compiled)
    assert result.failed == 0 and result.attempted > 0


def _summary(graph: WordGraph, columns: np.ndarray, shape: tuple[int, int], min_length: int):
    """What the Python walk says of one board: its words' count and points, its node
    counts, and the best word (the first of the longest) with its first path."""
    from lacak_boggle.results import score

    words, expanded, generated, deepest = _expected(graph, columns, shape, min_length)
    spelled = {graph.words[r]: p for r, p in words.items()}
    best = min(spelled, key=lambda w: (-len(w), w), default=None)
    points = sum(score(len(w)) for w in spelled)
    return (len(words), points, expanded, generated, deepest), sorted(words), (
        spelled[best] if best is not None else []
    )


def _modes(graph: WordGraph, boards: list[Board], min_length: int) -> None:
    """SCORES and WORDS give what the Python walk gives, and WORDS the words PATHS gives."""
    shape = boards[0].shape
    columns = _columns(boards, graph)
    scores = compiled.walk(graph, columns, shape, min_length, compiled.SCORES)
    words = compiled.walk(graph, columns, shape, min_length, compiled.WORDS)
    paths = compiled.walk(graph, columns, shape, min_length, compiled.PATHS)
    assert scores.board.size == scores.rank.size == scores.best_paths.size == 0
    assert (words.board == paths.board).all() and (words.rank == paths.rank).all()
    assert words.paths.shape == (0, 1) and not words.sizes.any()
    for b in range(len(boards)):
        counts, ranks, best_path = _summary(graph, columns[b], shape, min_length)
        for walked in (scores, words, paths):
            got = [walked.found, walked.score, walked.expanded, walked.generated, walked.deepest]
            assert [int(a[b]) for a in got] == list(counts)
        assert words.rank[words.board == b].tolist() == ranks
        for walked in (words, paths):
            size = int(walked.best_sizes[b])
            assert walked.best_paths[b, :size].tolist() == best_path
            assert (walked.best_paths[b, size:] == -1).all()
            best = int(walked.best[b])
            assert best == (-1 if not ranks else [graph.words[r] for r in ranks].index(
                min((graph.words[r] for r in ranks), key=lambda w: (-len(w), w))
            ))  # fmt: skip


@settings(max_examples=80, deadline=None)
@given(data=st.data(), min_length=st.integers(1, 5))
def test_scores_and_words_modes_agree_with_the_python_walk(
    tiny, data: st.DataObject, min_length: int
) -> None:
    graph, boards = data.draw(cases(tiny))
    _modes(graph, boards, min_length)


@settings(max_examples=15, deadline=None)
@given(data=st.data(), min_length=st.integers(1, 4))
def test_the_dense_layout_gives_what_the_packed_one_gives(
    tiny, data: st.DataObject, min_length: int
) -> None:
    """Graphs of more than 62 columns keep dense rows; any graph walks the same in them."""
    graph, boards = data.draw(cases(tiny))
    columns = _columns(boards, graph)
    shape = boards[0].shape
    packed = compiled.pack_graph(graph)
    monkeypatch = pytest.MonkeyPatch()
    with monkeypatch.context() as patch:
        patch.setattr(compiled, "PACKED_COLUMNS", 0)
        patch.setattr(compiled, "_packed", {})
        dense = compiled.pack_graph(graph)
        assert packed.compact and not dense.compact
        # dense rows: a two-word header (the letter mask), then every column but the blank
        rows = len(graph.transitions) // graph.stride
        assert len(dense.links) == rows * (graph.stride + 1) >= len(packed.links)
        for mode in (compiled.SCORES, compiled.WORDS, compiled.PATHS):
            one = compiled.walk(graph, columns, shape, min_length, mode)
            with monkeypatch.context() as back:
                back.setattr(compiled, "_packed", {id(graph): (lambda: graph, packed)})
                other = compiled.walk(graph, columns, shape, min_length, mode)
            assert all((a == b).all() for a, b in zip(one, other, strict=True))


@pytest.mark.parametrize("size", [45, 70])
def test_large_alphabets_in_every_mode(size: int) -> None:
    letters = BIG_ALPHABETS[size]
    rows = [letters[:3], letters[-3:], letters[30:33]]
    words = sorted({a + b + c for a in rows[0] for b in rows[1] for c in rows[2]}
                   | {"".join(r) for r in rows} | {letters[-1] * 2})  # fmt: skip
    graph = compile_words(words, letters)
    # more columns than a 64-bit mask has bits: dense rows
    assert compiled.pack_graph(graph).compact == (graph.stride <= 63) == (size < 63)
    boards = [Board.from_rows([list(r) for r in rows]),
              Board.from_rows([list(r)[::-1] for r in rows[::-1]])]  # fmt: skip
    for least in (1, 3):
        _modes(graph, boards, least)


def test_a_bad_mode_is_a_value_error(tiny: lacak.Dictionary) -> None:
    graph = compile_dictionary(tiny)
    with pytest.raises(ValueError, match="mode"):
        compiled.walk(graph, np.zeros((1, 4), dtype=np.int64), (2, 2), 3, 3)
    columns = np.array([[graph.column(t) for t in "CATX"]])
    read_only = columns.copy()
    read_only.setflags(write=False)
    one, other = (compiled.walk(graph, c, (2, 2), 2) for c in (columns, read_only))
    assert one.found.tolist() == other.found.tolist() == [5]
    assert all((a == b).all() for a, b in zip(one, other, strict=True))


@pytest.mark.slow
def test_damaged_machine_code_is_never_run(tmp_path: Path) -> None:
    """Issue 23, item 7: one flipped bit in the cached machine code of the compiled walk
    could crash the interpreter. Bits flipped in each of its files (seeded: one in the
    first 64 bytes, one anywhere) never reach numba: the same words, exit 0, one warning
    line, and the walk is compiled again. It lives in lacak's cache folder, whatever
    ``NUMBA_CACHE_DIR`` says."""
    words = tmp_path / "words.json"
    words.write_text(json.dumps(["ACT", "AT", "CAT", "COAT", "TA", "TACO", "OAT", "TOAST"]))
    env = {**os.environ, "LACAK_CACHE_DIR": str(tmp_path / "cache"),
           "NUMBA_CACHE_DIR": str(tmp_path / "numba"), "LACAK_BOGGLE_ENGINE": "numba"}
    command = [sys.executable, "-m", "lacak", "boggle", "solve", "CATS/OATX/TOAS/XXXX", "-d",
               str(words), "--min-length", "2", "--json"]  # fmt: skip

    def run() -> tuple[int, object, str]:
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600,
                              check=False)  # fmt: skip
        answer = json.loads(done.stdout)["boggle"] if done.returncode == 0 else None
        return done.returncode, answer, done.stderr

    code, want, stderr = run()
    assert code == 0 and stderr == "", stderr
    files = sorted(
        path
        for path in [*tmp_path.rglob("*.nb[ic]"), *tmp_path.rglob("engines/lacak_*/*")]
        if path.is_file()
    )
    assert files
    good = {path: path.read_bytes() for path in files}
    rng = random.Random(7)
    warned = []
    for path in files:
        for position in (rng.randrange(64 * 8), rng.randrange(8 * len(good[path]))):
            for other, data in good.items():
                other.write_bytes(data)
            CacheDamage("flip", (position,)).apply(path)
            code, got, stderr = run()
            assert (code, got) == (0, want), (path.name, position, code, stderr)
            # a callee's own file (_widen's) is not read when its caller's is whole
            if stderr:
                assert stderr.startswith("warning: ") and stderr.count("\n") == 1, stderr
                warned.append(path.name)
    assert any("_kernel" in name for name in warned), warned
    assert all((tmp_path / "cache" / "engines") in path.parents for path in files)


def test_an_engine_asked_for_under_a_time_limit_starts_no_compile(tmp_path: Path) -> None:
    """``solve-many --engine numba --timeout 2`` on a machine without the compiled walk
    compiled it first (13 s or more), holding every board's answer. No compile starts
    when the time limit cannot cover it (counted by the machine code written, not
    timed): the boards are walked by the numpy engine, after one warning."""
    boards = tmp_path / "boards.txt"
    boards.write_text("CAT/ODG\nSEA/TEN\n", encoding="utf-8")
    env = {**os.environ, "LACAK_CACHE_DIR": str(tmp_path / "cache")}
    command = [sys.executable, "-m", "lacak", "boggle", "solve-many", str(boards), "-d", "eng",
               "--engine", "numba", "--timeout", "2", "--json"]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300,
                          check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert [json.loads(line)["boggle"]["count"] > 0 for line in done.stdout.splitlines()] == [
        True, True
    ]
    assert done.stderr.count("warning:") == 1 and "this run uses the numpy engine" in done.stderr
    assert not list((tmp_path / "cache").glob("engines/**/*.bin"))
