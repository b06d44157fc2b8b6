"""The compiled pattern-database builder gives the numpy builder's tables byte for byte."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from pathlib import Path

import lacak
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak.testing import strategies as lst
from lacak_sliding import pdb
from lacak_sliding.generators import random_board
from lacak_sliding.pdb import build as pdb_build
from lacak_sliding.pdb import cache as pdb_cache
from lacak_sliding.pdb import placements
from lacak_sliding.puzzle import goal_tiles

from .helpers import distances

pytest.importorskip("numba")

from lacak_sliding.pdb import compiled as pdb_compiled


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Databases built by these tests go to a temporary cache, never the user's."""
    monkeypatch.setenv("LACAK_CACHE_DIR", str(tmp_path / "lacak-cache"))
    monkeypatch.delenv(pdb_build.ENGINE_VARIABLE, raising=False)
    pdb.forget_memory()
    yield
    pdb.forget_memory()


#: Boards as (width, height) and the most tiles a group on them may have in these tests.
_BOARDS = {(3, 2): 5, (2, 3): 5, (3, 3): 5, (4, 2): 5, (2, 4): 5, (4, 3): 4, (3, 4): 4, (5, 2): 4}


@settings(max_examples=40, deadline=None)
@given(
    board=st.sampled_from(sorted(_BOARDS)),
    seed=lst.seeds(),
    data=st.data(),
    workers=st.sampled_from([1, 2]),
)
def test_compiled_tables_equal_numpy_tables(
    board: tuple[int, int], seed: int, data: st.DataObject, workers: int
) -> None:
    width, height = board
    n = width * height
    goal = random_board((height, width), seed).initial
    k = data.draw(st.integers(1, min(_BOARDS[board], n - 1)), label="k")
    tiles = tuple(data.draw(st.permutations(range(1, n)), label="tiles")[:k])
    want = pdb_build.build_numpy(width, height, goal, tiles)
    got = pdb_compiled.build_compiled(width, height, goal, tiles, workers=workers)
    assert got.dtype == np.uint8 and got.shape == (math.perm(n, k),)
    assert np.array_equal(got, want)


@pytest.mark.parametrize(
    ("width", "height", "tiles"),
    [
        (3, 3, (2, 4, 6, 8)),  # the four edge cells split the free ones five ways
        (4, 3, (1, 3, 4, 6, 9, 11)),  # up to six regions: two overflow bytes' worth
        (4, 4, (1, 2, 3, 4, 5)),  # the 15-puzzle's region tables, indexed by mask
        (5, 5, (1, 2, 3)),  # past 16 cells: tables indexed by the set's colex rank
        (5, 4, (1, 2, 3, 4)),
        (6, 2, (1, 3, 5, 7, 9)),
    ],
)
def test_overflow_regions_and_large_boards(width: int, height: int, tiles: tuple[int, ...]) -> None:
    goal = goal_tiles(width, height)
    want = pdb_build.build_numpy(width, height, goal, tiles)
    assert np.array_equal(pdb_compiled.build_compiled(width, height, goal, tiles), want)
    assert np.array_equal(pdb_compiled.build_compiled(width, height, goal, tiles, workers=3), want)


def test_the_overflow_table_is_used_where_the_free_cells_split_five_ways() -> None:
    n, k = 9, 4
    nbr = placements.neighbour_table(3, 3)
    keys = pdb_compiled._key_tables(n, k)
    count, slot_of, _regions = pdb_compiled._region_tables(n, k, nbr, keys, math.comb(n, k))
    edges = pdb_compiled._key(np.int64((1 << 1) | (1 << 3) | (1 << 5) | (1 << 7)), keys)
    assert int(count[edges]) == 5  # the corners and the centre, each alone
    assert [int(slot_of[edges, c]) for c in (0, 2, 4, 6, 8)] == [0, 1, 2, 3, 4]
    assert sorted(set(count.tolist())) == [1, 2, 3, 5]  # four regions never happen on 3x3


def test_colex_keys_number_the_sets_in_order() -> None:
    for n, k in ((9, 4), (16, 3), (20, 5)):
        keys = pdb_compiled._key_tables(n, k)
        masks = pdb_compiled._colex_masks(n, k, pdb_compiled._binomials(n),
                                          np.arange(math.comb(n, k), dtype=np.int64))  # fmt: skip
        assert sorted(masks.tolist()) == masks.tolist()  # colex order is numeric order
        assert all(bin(m).count("1") == k for m in masks.tolist())
        assert [int(pdb_compiled._key(np.int64(m), keys)) for m in masks.tolist()] == list(
            range(math.comb(n, k))
        )


def test_a_database_with_the_blank_in_an_overflow_region_at_the_goal() -> None:
    """The goal itself may put the blank in its fifth region."""
    goal = (1, 2, 3, 4, 5, 6, 7, 8, 0)  # blank bottom right: with 2, 4, 6, 8 on the edges
    for tiles in ((2, 4, 6, 8), (1, 3, 7, 5)):
        want = pdb_build.build_numpy(3, 3, goal, tiles)
        assert np.array_equal(pdb_compiled.build_compiled(3, 3, goal, tiles), want)


@settings(max_examples=15, deadline=None)
@given(size=st.sampled_from([(2, 4), (4, 2), (3, 3)]), data=st.data(), reflect=st.booleans())
def test_compiled_databases_stay_admissible_and_additive(
    size: tuple[int, int], data: st.DataObject, reflect: bool
) -> None:
    """Disjoint groups built by the compiled builder: the sum never exceeds the distance."""
    width, height = size
    n = width * height
    goal = goal_tiles(width, height)
    order = data.draw(st.permutations(range(1, n)), label="tiles")
    cut = data.draw(st.integers(1, min(5, n - 2)), label="cut")
    groups = (tuple(sorted(order[:cut])), tuple(sorted(order[cut:])))
    assume_small = all(math.perm(n, len(g)) <= 2_000_000 for g in groups)
    if not assume_small:
        return
    part = pdb.Partition(width=width, height=height, goal=goal, groups=groups)
    h = pdb.pattern_heuristic(part, reflect=reflect and width == height)
    exact = distances(width, height)
    rng = random.Random(data.draw(lst.seeds(), label="seed"))
    for state in [goal, *rng.sample(sorted(exact), 200)]:
        assert 0 <= h(state) <= exact[state]
        assert (h(state) == 0) == (state == goal)


def test_auto_uses_the_compiled_builder_and_the_variable_forces_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert pdb_build.choose_engine(4, 4, 8) == "numba"
    monkeypatch.setenv(pdb_build.ENGINE_VARIABLE, "numpy")
    assert pdb_build.choose_engine(4, 4, 8) == "numpy"
    assert pdb_build.choose_engine(4, 4, 8, "numba") == "numba"
    monkeypatch.setenv(pdb_build.ENGINE_VARIABLE, "fortran")
    with pytest.raises(lacak.InvalidOptionError, match="fortran"):
        pdb_build.choose_engine(4, 4, 8)
    with pytest.raises(lacak.InvalidOptionError, match="builder"):
        pdb_build.build_database(2, 3, goal_tiles(2, 3), (1, 2))


def test_boards_the_compiled_builder_does_not_take_fall_back_to_numpy() -> None:
    assert not pdb_compiled.supported(9, 7, 3)  # 63 cells: one bit too many
    assert pdb_build.choose_engine(9, 7, 3) == "numpy"
    with pytest.raises(lacak.InvalidOptionError, match="cannot run"):
        pdb_build.choose_engine(9, 7, 3, "numba")


def test_a_build_stops_between_levels_when_progress_raises() -> None:
    levels: list[int] = []

    def progress(level: int, reached: int, total: int) -> None:
        levels.append(level)
        assert 0 <= reached <= total
        if level == 3:
            raise pdb.BuildStopped("stop here")

    with pytest.raises(pdb.BuildStopped):
        pdb_compiled.build_compiled(3, 3, goal_tiles(3, 3), (1, 2, 3, 4), progress=progress)
    assert max(levels) == 3


def test_a_build_with_a_deadline_leaves_nothing_in_the_cache() -> None:
    goal = goal_tiles(3, 3)
    with pdb.build_deadline(0.0), pytest.raises(lacak.LimitReachedError, match="time limit"):
        pdb.load_or_build(3, 3, goal, (1, 2, 3, 4))
    assert pdb.load_or_build(3, 3, goal, (1, 2, 3, 4), build=False) is None


@settings(max_examples=10, deadline=None)
@given(position=st.integers(0, 10**9), bit=st.integers(0, 7))
def test_a_flipped_bit_in_a_cached_database_rebuilds_it(position: int, bit: int) -> None:
    goal = goal_tiles(3, 3)
    tiles = (1, 2, 3)
    pdb.forget_memory()
    good = np.array(pdb.load_or_build(3, 3, goal, tiles))
    path = pdb_cache.database_path(3, 3, goal, tiles)
    assert path is not None and path.exists()
    raw = bytearray(path.read_bytes())
    at = position % len(raw)
    raw[at] ^= 1 << bit
    path.write_bytes(bytes(raw))
    damaged = pdb.inspect_database(path)
    assert damaged is None or damaged["status"] != "ok"
    with pytest.warns(Warning, match="rebuilding the pattern database"):
        rebuilt = np.array(pdb.load_or_build(3, 3, goal, tiles))
    assert np.array_equal(rebuilt, good)
    repaired = pdb.inspect_database(path)
    assert repaired is not None and repaired["status"] == "ok"  # the damaged file was replaced


def test_the_compiled_builder_needs_two_bytes_a_placement() -> None:
    assert pdb.build_bytes(16, 518_918_400, compiled=True) < 1.1 * 2**30
    assert pdb.build_bytes(16, 518_918_400, compiled=False) > 3 * 2**30


def test_a_first_compile_the_time_limit_cannot_cover_is_not_started(tmp_path: Path) -> None:
    """Issue 23, item 13: with no compiled builder on the machine, ``-H pdb --timeout 1``
    compiled it first (5.3 s). No compile starts now (no machine code is written: counted
    by the files, not timed): the numpy builder makes the database, after one warning."""
    import json
    import os
    import subprocess
    import sys

    env = {**os.environ, "LACAK_CACHE_DIR": str(tmp_path / "cache"),
           "NUMBA_CACHE_DIR": str(tmp_path / "numba"), "LACAK_PROGRESS": "0"}  # fmt: skip
    env.pop(pdb_build.ENGINE_VARIABLE, None)
    command = [sys.executable, "-m", "lacak", "sliding", "solve", "867254301", "--strategy",
               "astar", "--heuristic", "pdb", "--timeout", "30", "--json"]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300,
                          check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["length"] == 31
    assert done.stderr.count("warning:") == 1, done.stderr
    assert done.stderr.startswith("warning: the compiled pattern-database builder is not "
                                  "compiled on this machine yet")  # fmt: skip
    assert "this run uses the numpy builder" in done.stderr
    compiled = [p for p in tmp_path.rglob("*") if p.is_file() and (
        p.suffix in (".nbi", ".nbc") or "lacak_sliding.pdb.compiled" in str(p))]  # fmt: skip
    assert compiled == []
    assert list((tmp_path / "cache" / "pdb").glob("*.pdb"))  # the numpy builder's tables


def test_the_builder_compiles_once_where_no_time_limit_is_near() -> None:
    """Without a deadline the compiled builder is loaded (compiled the first time) and
    builds the table the numpy builder makes."""
    goal = (1, 2, 3, 4, 5, 0)
    got = pdb_build.build_database(3, 2, goal, (1, 2, 3), engine="auto")
    assert pdb_build.BUILDER.loaded()
    assert np.array_equal(got, pdb_build.build_numpy(3, 2, goal, (1, 2, 3)))
