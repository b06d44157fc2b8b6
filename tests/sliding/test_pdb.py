"""Pattern databases: the builder against a slow reference, admissibility against exact distances,
partitions, reflection, the disk cache and the registered heuristics."""

from __future__ import annotations

import itertools
import math
import random
from collections import deque
from collections.abc import Iterator
from pathlib import Path

import lacak
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak.testing import HeuristicContract
from lacak.testing import strategies as lst
from lacak_sliding import pdb
from lacak_sliding.generators import random_board
from lacak_sliding.pdb import build as pdb_build
from lacak_sliding.pdb import cache as pdb_cache
from lacak_sliding.pdb.placements import Placements
from lacak_sliding.puzzle import SlidingPuzzle, goal_tiles

from .helpers import distances


@pytest.fixture(scope="module", autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Databases built by these tests go to a temporary cache, never the user's."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("LACAK_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "lacak-cache"))
        yield


# -- a slow, obviously correct reference ----------------------------------------------


def reference_database(
    width: int, height: int, goal: tuple[int, ...], tiles: tuple[int, ...]
) -> dict[tuple[int, ...], int]:
    """Abstract distances by 0-1 breadth-first search over (placement, blank cell).

    Moving a group tile costs 1, moving the blank through a cell the group
    does not hold costs 0; the database keeps the least over blank cells.
    """
    n = width * height
    where = {t: c for c, t in enumerate(goal)}

    def neighbours(c: int) -> Iterator[int]:
        r, col = divmod(c, width)
        if r > 0:
            yield c - width
        if r < height - 1:
            yield c + width
        if col > 0:
            yield c - 1
        if col < width - 1:
            yield c + 1

    start = (tuple(where[t] for t in tiles), where[0])
    dist = {start: 0}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        placement, blank = state
        d = dist[state]
        for q in neighbours(blank):
            if q in placement:
                i = placement.index(q)
                nxt = ((*placement[:i], blank, *placement[i + 1 :]), q)
                cost = d + 1
                if cost < dist.get(nxt, math.inf):
                    dist[nxt] = cost
                    queue.append(nxt)
            else:
                nxt = (placement, q)
                if d < dist.get(nxt, math.inf):
                    dist[nxt] = d
                    queue.appendleft(nxt)
    best: dict[tuple[int, ...], int] = {}
    for (placement, _blank), d in dist.items():
        best[placement] = min(best.get(placement, d), d)
    assert len({c for p in best for c in p}) <= n
    return best


@st.composite
def groups_of(draw: st.DrawFn, n: int, max_group: int = 4) -> tuple[tuple[int, ...], ...]:
    """A random partition of some tiles of an ``n``-cell board into small groups."""
    tiles = draw(st.permutations(range(1, n)))
    count = draw(st.integers(1, len(tiles)))
    tiles = tiles[:count]
    groups = []
    while tiles:
        size = draw(st.integers(1, min(max_group, len(tiles))))
        groups.append(tuple(sorted(tiles[:size])))
        tiles = tiles[size:]
    return tuple(groups)


# -- hashing -----------------------------------------------------------------------


@pytest.mark.parametrize(("n", "k"), [(4, 1), (4, 3), (6, 2), (8, 3), (9, 4)])
def test_ranks_are_a_bijection_in_lexicographic_order(n: int, k: int) -> None:
    hasher = Placements(n, k)
    every = list(itertools.permutations(range(n), k))
    assert hasher.size == len(every)
    ranks = hasher.rank(np.array(every, dtype=np.uint8).T)
    assert ranks.tolist() == list(range(len(every)))
    assert hasher.placements().T.tolist() == [list(p) for p in every]
    sparse = hasher.sparse_indices()
    assert sparse.tolist() == [sum(c * n**i for i, c in enumerate(p)) for p in every]
    values = (np.arange(hasher.size) % 250 + 1).astype(np.uint8)
    table = hasher.sparse_table(values)
    assert table.size == n**k
    assert table[sparse].tolist() == values.tolist()
    assert int(np.count_nonzero(table)) == hasher.size


def test_region_tables_match_flood() -> None:
    region, lowest = pdb_build.region_tables(2, 3)
    n = 6
    for free in range(1 << n):
        for cell in range(n):
            # slow flood fill
            seen = set()
            if free >> cell & 1:
                stack = [cell]
                while stack:
                    c = stack.pop()
                    if c in seen:
                        continue
                    seen.add(c)
                    r, col = divmod(c, 2)
                    for rr, cc in ((r - 1, col), (r + 1, col), (r, col - 1), (r, col + 1)):
                        if 0 <= rr < 3 and 0 <= cc < 2 and free >> (rr * 2 + cc) & 1:
                            stack.append(rr * 2 + cc)
            mask = sum(1 << c for c in seen)
            assert int(region[free * n + cell]) == mask
            if seen:
                assert int(lowest[free * n + cell]) == min(seen)


# -- the builder against the reference ------------------------------------------------

#: The builders that can run here (numba only with ``lacak[fast]``).
_ENGINES = ("numpy", "numba") if pdb_build.compiled_available() else ("numpy",)



@settings(max_examples=25)
@given(
    size=st.sampled_from([(2, 3), (3, 2), (2, 4), (4, 2), (3, 3)]),
    seed=lst.seeds(),
    data=st.data(),
)
def test_builder_matches_slow_reference(
    size: tuple[int, int], seed: int, data: st.DataObject
) -> None:
    height, width = size  # (rows, cols)
    n = width * height
    goal = random_board(size, seed).initial
    k = data.draw(st.integers(1, min(4, n - 1)), label="k")
    tiles = tuple(data.draw(st.permutations(range(1, n)), label="tiles")[:k])
    engine = data.draw(st.sampled_from(_ENGINES), label="engine")
    built = pdb_build.build_database(width, height, goal, tiles, engine=engine)
    reference = reference_database(width, height, goal, tiles)
    placements = Placements(n, k).placements().T
    for rank, placement in enumerate(placements):
        # placements the reference never reaches (a group filling a small board) are marked
        assert built[rank] == reference.get(tuple(int(c) for c in placement), pdb.UNREACHED)


@pytest.mark.parametrize("way", ["combinations", "flood"])
def test_boards_past_16_cells_find_regions_the_same_way(
    way: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without the full region tables: tables of the masks that occur, or flood fill."""
    goal = goal_tiles(3, 3)
    expected = [pdb_build.build_numpy(3, 3, goal, tiles) for tiles in ((1, 2, 3), (2, 4, 6, 8))]
    monkeypatch.setattr(pdb_build, "region_tables", lambda _w, _h: None)
    if way == "flood":
        monkeypatch.setattr(pdb_build, "COMBINATION_TABLES", 0)
    for tiles, want in zip(((1, 2, 3), (2, 4, 6, 8)), expected, strict=True):
        assert np.array_equal(pdb_build.build_numpy(3, 3, goal, tiles), want)


@pytest.mark.parametrize("engine", ["numpy", "numba"])
def test_a_whole_board_group_marks_the_wrong_parity_unreached(engine: str) -> None:
    if engine not in _ENGINES:
        pytest.skip("numba is not installed")
    goal = goal_tiles(2, 2)
    built = pdb_build.build_database(2, 2, goal, (1, 2, 3), engine=engine)
    assert sorted(built.tolist()).count(pdb.UNREACHED) == 12
    assert max(v for v in built.tolist() if v != pdb.UNREACHED) == 6


def test_known_database_facts_on_4x4() -> None:
    # one tile alone: its Manhattan distance
    goal = tuple(range(16))
    built = pdb_build.build_database(4, 4, goal, (5,))
    assert built.tolist() == [abs(p // 4 - 1) + abs(p % 4 - 1) for p in range(16)]
    # the top row of three tiles (as in 6-6-3): 3,360 placements, goal 0, max 15 (2002 paper: small)
    row = pdb_build.build_database(4, 4, goal, (1, 2, 3))
    assert row.size == 3360
    assert row[Placements(16, 3).rank(np.array([[1], [2], [3]]))[0]] == 0
    assert int(row.min()) == 0 and 0 < int(row.max()) < 30


# -- admissibility and agreement with exact distances -------------------------------


@settings(max_examples=20)
@given(size=st.sampled_from([(2, 4), (4, 2), (3, 3)]), data=st.data(), reflect=st.booleans())
def test_sum_never_exceeds_true_distance(
    size: tuple[int, int], data: st.DataObject, reflect: bool
) -> None:
    width, height = size
    goal = goal_tiles(width, height)
    groups = data.draw(groups_of(width * height), label="groups")
    part = pdb.Partition(width=width, height=height, goal=goal, groups=groups)
    h = pdb.pattern_heuristic(part, reflect=reflect and width == height)
    exact = distances(width, height)
    rng = random.Random(data.draw(lst.seeds(), label="seed"))
    states = rng.sample(sorted(exact), 300)
    for state in [goal, *states]:
        value = h(state)
        assert 0 <= value <= exact[state]
        assert (value == 0) == (state == goal)


def test_every_8_puzzle_state_is_admissible_with_4_4_and_reflection() -> None:
    goal = goal_tiles(3, 3)
    plain = pdb.pattern_heuristic(pdb.Partition.named("44", 3, 3, goal))
    mirrored = pdb.pattern_heuristic(pdb.Partition.named("44", 3, 3, goal), reflect=True)
    exact = distances(3, 3)
    total_plain = total_mirrored = 0
    for state, d in exact.items():
        a, b = plain(state), mirrored(state)
        assert a <= b <= d
        total_plain += a
        total_mirrored += b
    manhattan = lacak.heuristics("sliding")["manhattan"]
    puzzle = SlidingPuzzle(width=3, height=3, initial=goal, goal=goal)
    total_manhattan = sum(manhattan(puzzle, s) for s in exact)
    # the databases are better informed than Manhattan, reflection better still
    assert total_manhattan < total_plain < total_mirrored


@settings(max_examples=40)
@given(seed=lst.seeds(), reflect=st.booleans())
def test_lookup_agrees_with_reference_on_random_states(seed: int, reflect: bool) -> None:
    """The additive sum equals the sum of the slow reference's abstract distances."""
    goal = goal_tiles(3, 3)
    groups = ((1, 2, 3), (4, 5, 6), (7, 8))
    part = pdb.Partition(width=3, height=3, goal=goal, groups=groups)
    refs = [reference_database(3, 3, goal, g) for g in groups]
    h = pdb.pattern_heuristic(part, reflect=reflect)
    state = random_board((3, 3), seed).initial
    cells, tiles = pdb.reflection(3, 3, goal)  # type: ignore[misc]

    def slow(s: tuple[int, ...]) -> int:
        where = {t: c for c, t in enumerate(s)}
        return sum(ref[tuple(where[t] for t in g)] for ref, g in zip(refs, groups, strict=True))

    expected = slow(state)
    if reflect:
        mirrored = [0] * 9
        for c, t in enumerate(state):
            mirrored[cells[c]] = tiles[t]
        expected = max(expected, slow(tuple(mirrored)))
    assert h(state) == expected


def test_heuristic_is_admissible_but_not_consistent() -> None:
    """Taking the least over the blank's regions loses consistency (documented)."""
    goal = goal_tiles(3, 3)
    h = pdb.pattern_heuristic(pdb.Partition.parse("1,2,3,4", 3, 3, goal))
    puzzle = SlidingPuzzle(width=3, height=3, initial=goal, goal=goal)
    drops = [
        (state, nxt)
        for state in sorted(distances(3, 3))[:20000]
        for _a, nxt, _c in puzzle.successors(state)
        if h(state) - h(nxt) > 1
    ]
    assert drops
    assert not lacak.heuristics("sliding")["pdb"].consistent


@settings(max_examples=25)
@given(seed=lst.seeds(), strategy=st.sampled_from(["astar", "astar-tiles", "idastar"]))
def test_searches_stay_optimal_with_the_inconsistent_heuristic(seed: int, strategy: str) -> None:
    """A* reopens states reached more cheaply, so admissibility is enough for every strategy."""
    puzzle = random_board((3, 3), seed)
    result = lacak.solve(puzzle, strategy, heuristic="pdb:1,2,3,4;noreflect")
    assert result.length == distances(3, 3)[puzzle.initial]


# -- partitions -----------------------------------------------------------------------


def test_named_partitions_cover_the_board_and_follow_the_blank() -> None:
    for name, (w, h) in pdb.NAMED_PARTITIONS.items():
        n = w * h
        for goal in (tuple(range(n)), goal_tiles(w, h)):
            part = pdb.Partition.named(name, w, h, goal)
            tiles = sorted(t for g in part.groups for t in g)
            assert tiles == list(range(1, n))
            assert sorted(part.label.split("-")) == sorted(str(len(g)) for g in part.groups)
            assert part.label == "-".join(name)
    first = pdb.Partition.named("663", 4, 4, tuple(range(16)))
    assert first.groups == ((1, 4, 5, 8, 9, 12), (2, 3, 6, 7, 10, 11), (13, 14, 15))
    last = pdb.Partition.named("663", 4, 4, goal_tiles(4, 4))
    # mirrored to the bottom-right corner: the three-tile group is the top row
    assert last.groups == ((4, 7, 8, 11, 12, 15), (5, 6, 9, 10, 13, 14), (1, 2, 3))


@pytest.mark.parametrize("size", [(2, 2), (2, 3), (3, 4), (4, 3), (4, 5), (5, 4), (3, 5)])
def test_default_partitions_of_other_sizes(size: tuple[int, int]) -> None:
    w, h = size
    part = pdb.Partition.default(w, h, goal_tiles(w, h))
    assert sorted(t for g in part.groups for t in g) == list(range(1, w * h))
    assert all(len(g) <= 6 for g in part.groups)
    assert not part.singletons


def test_a_goal_with_the_blank_inside_moves_the_corner_tile() -> None:
    goal = (1, 2, 3, 4, 5, 0, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
    part = pdb.Partition.named("663", 4, 4, goal)
    assert sorted(t for g in part.groups for t in g) == list(range(1, 16))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1,2,3/3,4", "two groups"),
        ("1,2,x", "groups of tile numbers"),
        ("1,2,16", "not on a 4x4 board"),
        ("1,2//3", "empty group"),
        ("0,1,2", "blank is never in a group"),
        ("1,2,3,4,5,6,7,8,9", "placements"),
        ("999", "not on a 4x4 board"),
    ],
)
def test_bad_partitions_are_explained(text: str, message: str) -> None:
    with pytest.raises(lacak.InvalidOptionError, match=message):
        pdb.Partition.parse(text, 4, 4, tuple(range(16)))


def test_boards_past_63_cells_are_refused() -> None:
    # the build keeps a board's free cells in one int64: 64 cells overflowed it
    with pytest.raises(lacak.InvalidOptionError, match="at most 63 cells"):
        pdb.Partition.parse("1,2", 8, 8, goal_tiles(8, 8))
    assert pdb.Partition.parse("1,2", 9, 7, goal_tiles(9, 7)).entries() == 63 * 62


def test_builds_needing_too_much_memory_are_refused() -> None:
    # 5 tiles on 9x7: 843 million placements, under MAX_ENTRIES but about 10 GiB to build
    assert math.perm(63, 5) <= pdb.MAX_ENTRIES
    assert pdb.build_bytes(63, math.perm(63, 5), tiles=5) > pdb.MAX_BUILD_BYTES
    with pytest.raises(lacak.InvalidOptionError, match="GiB of memory"):
        pdb.Partition.parse("1,2,3,4,5", 9, 7, goal_tiles(9, 7))
    # the 8-tile group of 7-8 stays allowed
    pdb.Partition.named("78", 4, 4, goal_tiles(4, 4))


def test_a_database_on_63_cells_is_built_and_admissible() -> None:
    puzzle = random_board((9, 7), 5)
    data = pdb.load_or_build(9, 7, puzzle.goal, (1,))
    assert data.shape == (63,) and int(data.max()) == 14
    heuristic = lacak.heuristics("sliding")["pdb"].configure(partition="1/2")
    assert heuristic.for_puzzle(puzzle)(puzzle.initial) <= lacak.heuristics("sliding")[
        "manhattan"
    ].for_puzzle(puzzle)(puzzle.initial)


@pytest.mark.parametrize("partition", [5, None, ("1", "2"), b"1,2"])
def test_a_partition_that_is_not_text(partition: object) -> None:
    heuristic = lacak.heuristics("sliding")["pdb"].configure(partition=partition)
    with pytest.raises(lacak.InvalidOptionError, match="partition is text"):
        heuristic.for_puzzle(random_board((3, 3), 1))


@pytest.mark.parametrize("strategy", ["idastar-tiles", "astar-tiles", "astar", "idastar"])
def test_the_time_limit_covers_building_the_databases(
    strategy: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LACAK_CACHE_DIR", str(tmp_path))
    pdb.forget_memory()
    puzzle = random_board((3, 3), 11)
    spec = "pdb:1,2,3,4/5,6,7,8"
    stopped = lacak.solve(puzzle, strategy, heuristic=spec, limits=lacak.Limits(seconds=0.0))
    assert not stopped.found and stopped.stopped is lacak.StopReason.TIME
    assert stopped.stats.expanded == 0
    assert pdb.cached_databases() == []  # the build stopped, and left nothing half-made
    solved = lacak.solve(puzzle, strategy, heuristic=spec, limits=lacak.Limits(seconds=600.0))
    assert solved.found and len(pdb.cached_databases()) == 2
    pdb.forget_memory()


def test_build_deadline_stops_a_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LACAK_CACHE_DIR", str(tmp_path))
    with pdb.build_deadline(0.0), pytest.raises(lacak.LimitReachedError, match="time limit"):
        pdb.load_or_build(3, 3, goal_tiles(3, 3), (1, 2, 3))
    assert pdb.load_or_build(3, 3, goal_tiles(3, 3), (1, 2, 3), build=False) is None
    assert pdb.load_or_build(3, 3, goal_tiles(3, 3), (1, 2, 3)).shape == (9 * 8 * 7,)


def test_named_partition_on_the_wrong_board() -> None:
    with pytest.raises(lacak.InvalidOptionError, match="for 4x4 boards"):
        pdb.Partition.named("663", 3, 3, goal_tiles(3, 3))
    with pytest.raises(lacak.InvalidOptionError, match="unknown pattern database partition"):
        pdb.Partition.named("777", 4, 4, goal_tiles(4, 4))


def test_singletons_count_manhattan() -> None:
    goal = goal_tiles(3, 3)
    part = pdb.Partition.parse("1,2", 3, 3, goal)
    assert part.singletons == (3, 4, 5, 6, 7, 8)
    h = pdb.pattern_heuristic(part)
    manhattan = lacak.heuristics("sliding")["manhattan"]
    puzzle = SlidingPuzzle(width=3, height=3, initial=goal, goal=goal)
    for state in random.Random(5).sample(sorted(distances(3, 3)), 200):
        assert h(state) >= manhattan(puzzle, state)
    none = pdb.pattern_heuristic(pdb.Partition(width=3, height=3, goal=goal, groups=()))
    for state in random.Random(6).sample(sorted(distances(3, 3)), 50):
        assert none(state) == manhattan(puzzle, state)


# -- reflection -------------------------------------------------------------------------


@pytest.mark.parametrize("side", [2, 3, 4, 5])
def test_reflection_maps_the_goal_to_itself(side: int) -> None:
    n = side * side
    for goal in (tuple(range(n)), goal_tiles(side, side)):
        cells, tiles = pdb.reflection(side, side, goal)  # type: ignore[misc]
        assert sorted(cells) == list(range(n)) and sorted(tiles) == list(range(n))
        assert tiles[0] == 0
        mirrored = [0] * n
        for c, t in enumerate(goal):
            mirrored[cells[c]] = tiles[t]
        assert tuple(mirrored) == goal


def test_reflection_needs_a_square_board_and_a_diagonal_blank() -> None:
    assert pdb.reflection(3, 4, goal_tiles(3, 4)) is None
    assert pdb.reflection(3, 3, (1, 0, 2, 3, 4, 5, 6, 7, 8)) is None
    # the anti-diagonal works for a blank in the top-right corner
    assert pdb.reflection(3, 3, (1, 2, 0, 3, 4, 5, 6, 7, 8)) is not None
    with pytest.raises(lacak.InvalidOptionError, match="diagonal"):
        pdb.pattern_heuristic(
            pdb.Partition.parse("1,2", 3, 3, (1, 0, 2, 3, 4, 5, 6, 7, 8)), reflect=True
        )


@settings(max_examples=30)
@given(seed=lst.seeds())
def test_mirrored_distances_are_equal(seed: int) -> None:
    """Mirroring keeps distances: the reflected lookup is admissible."""
    goal = goal_tiles(3, 3)
    cells, tiles = pdb.reflection(3, 3, goal)  # type: ignore[misc]
    exact = distances(3, 3)
    state = random_board((3, 3), seed).initial
    mirrored = [0] * 9
    for c, t in enumerate(state):
        mirrored[cells[c]] = tiles[t]
    assert exact[tuple(mirrored)] == exact[state]


# -- the cache --------------------------------------------------------------------------


def test_second_use_loads_from_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    goal = goal_tiles(2, 4)
    tiles = (1, 2, 5)
    first = pdb.load_or_build(2, 4, goal, tiles)
    data_path = pdb_cache.database_path(2, 4, goal, tiles)
    assert data_path is not None and data_path.exists()  # the note is in its header
    assert data_path.parent == pdb.cache_folder()

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("built again")

    monkeypatch.setattr(pdb_build, "build_database", refuse)
    again = pdb.load_or_build(2, 4, goal, tiles)
    assert np.array_equal(first, again)
    notes = [n for n in pdb.cached_databases() if n["tiles"] == list(tiles)]
    assert notes and notes[0]["entries"] == math.perm(8, 3) and notes[0]["goal"] == list(goal)


def test_cache_keys_differ_by_size_goal_and_tiles() -> None:
    goal = goal_tiles(3, 3)
    keys = {
        pdb_cache._key(3, 3, goal, (1, 2)),
        pdb_cache._key(3, 3, goal, (1, 3)),
        pdb_cache._key(3, 3, tuple(range(9)), (1, 2)),
        pdb_cache._key(9, 1, goal, (1, 2)),
    }
    assert len(keys) == 4


def test_a_damaged_file_is_rebuilt() -> None:
    goal = goal_tiles(2, 3)
    tiles = (1, 2)
    good = pdb.load_or_build(2, 3, goal, tiles).copy()
    data_path = pdb_cache.database_path(2, 3, goal, tiles)
    assert data_path is not None
    data_path.write_bytes(b"not a numpy file")
    assert np.array_equal(pdb.load_or_build(2, 3, goal, tiles), good)
    assert pdb.load_or_build(2, 3, goal, (1, 3), build=False) is None


# -- the registered heuristics --------------------------------------------------------------


def test_registered_names() -> None:
    names = set(lacak.heuristics("sliding"))
    assert {"pdb", "pdb-555", "pdb-663", "pdb-78", "pdb-6666"} <= names
    for name in ("pdb", "pdb-555", "pdb-663", "pdb-78", "pdb-6666"):
        assert lacak.heuristics("sliding")[name].admissible


@pytest.mark.parametrize(
    ("spec", "partition", "reflect"),
    [
        ("pdb", "default", "auto"),
        ("pdb:1,2,3/4,5,6", "1,2,3/4,5,6", "auto"),
        ("pdb:1,2,3/4,5,6;reflect", "1,2,3/4,5,6", "yes"),
        ("pdb:partition=44;noreflect", "44", "no"),
        ("pdb:reflect=auto", "default", "auto"),
    ],
)
def test_spec_parsing(spec: str, partition: str, reflect: str) -> None:
    heuristic = lacak.default_registry().heuristic("sliding", spec)
    assert heuristic.options == {"partition": partition, "reflect": reflect}


@pytest.mark.parametrize(
    "spec", ["pdb:reflect=maybe", "pdb:1,2;x=3", "pdb:abc", "pdb-663:1,2,3", "pdb:noreflect=auto"]
)
def test_bad_specs(spec: str) -> None:
    with pytest.raises(lacak.InvalidOptionError):
        lacak.default_registry().heuristic("sliding", spec)


def test_estimate_and_prepared_form_agree_through_the_registry() -> None:
    puzzle = lacak.parse("sliding", "867254301")
    heuristic = lacak.default_registry().heuristic("sliding", "pdb:1,2,3,4/5,6,7,8;reflect")
    fast = heuristic.for_puzzle(puzzle)
    assert fast(puzzle.initial) == heuristic(puzzle, puzzle.initial)
    assert 0 < fast(puzzle.initial) <= distances(3, 3)[puzzle.initial]


class TestPdbContract(HeuristicContract):
    """The lacak.testing admissibility suite, on 8-puzzles with custom partitions."""

    kind = "sliding"
    heuristic = "pdb:1,2,3/4,5,6,7;reflect=auto"

    def puzzles(self) -> st.SearchStrategy[SlidingPuzzle]:
        # boards near the goal, so the exact reference search stays small
        from lacak_sliding.generators import random_walk

        return st.tuples(lst.seeds(), st.integers(0, 12)).map(
            lambda a: random_walk((3, 3), a[0], moves=a[1])
        )


class TestNamedContract(HeuristicContract):
    kind = "sliding"
    heuristic = "pdb-555"

    def puzzles(self) -> st.SearchStrategy[SlidingPuzzle]:
        # boards near the goal, so the exact reference search stays small
        from lacak_sliding.generators import random_walk

        return st.tuples(lst.seeds(), st.integers(0, 10)).map(
            lambda a: random_walk((4, 4), a[0], moves=a[1])
        )


@pytest.mark.parametrize(
    "module",
    [
        "lacak_sliding.pdb",
        "lacak_sliding.pdb.partition",
        "lacak_sliding.pdb.placements",
        "lacak_sliding.pdb.engines",
        "lacak_sliding.tiles.idastar",
        "lacak_sliding.korf",
    ],
)
def test_docstring_examples(module: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0 and result.attempted > 0
