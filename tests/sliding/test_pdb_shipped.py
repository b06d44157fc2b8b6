"""The pattern databases shipped with lacak (issue 25): the builder's bytes, checked, used.

A first 15-puzzle solve unpacks the 6-6-3 databases instead of building them;
these tests hold the shipped files to the builder, byte for byte, and show that a
damaged one is reported and built instead, never used.
"""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Iterator
from pathlib import Path

import lacak
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from lacak_sliding.pdb import build as pdb_build
from lacak_sliding.pdb import cache as pdb_cache
from lacak_sliding.pdb import shipped
from lacak_sliding.pdb.lookup import missing_groups
from lacak_sliding.pdb.partition import Partition
from lacak_sliding.pdb.placements import Placements

GOAL = (*range(1, 16), 0)
KORF = tuple(range(16))  # (Korf's goal, blank first: shipped too)
PARTITION = Partition.named("663", 4, 4, GOAL)
GROUPS = [
    (goal, tiles)
    for goal in (GOAL, KORF)
    for tiles in Partition.named("663", 4, 4, goal).groups
    if len(tiles) > 1
]


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("LACAK_CACHE_DIR", str(tmp_path / "cache"))
    shipped.forget()
    yield
    shipped.forget()


def _name(tiles: tuple[int, ...], goal: tuple[int, ...] = GOAL) -> str:
    return pdb_cache.database_name(4, 4, goal, tiles)


def test_the_default_15_puzzle_databases_are_all_shipped() -> None:
    default = Partition.default(4, 4, GOAL)
    assert default.groups == PARTITION.groups or default.label == PARTITION.label
    for tiles in PARTITION.groups:
        if len(tiles) > 1:
            assert pdb_cache.is_shipped(PARTITION, tiles), tiles
    assert missing_groups(PARTITION) == []  # (so a first solve announces no build)
    korf = Partition.named("663", 4, 4, KORF)
    assert missing_groups(korf) == []
    names = {shipped.file_name(_name(tiles, goal)) for goal, tiles in GROUPS}
    assert set(shipped.digests()) == names  # nothing shipped that nothing uses


@pytest.mark.parametrize(("goal", "tiles"), GROUPS, ids=str)
def test_each_shipped_database_is_the_builders(
    goal: tuple[int, ...], tiles: tuple[int, ...]
) -> None:
    built = pdb_build.build_database(4, 4, goal, tiles)
    unpacked = shipped.unpack(_name(tiles, goal), built.size)
    assert unpacked is not None
    assert np.array_equal(unpacked, built)
    digest = shipped.digests()[shipped.file_name(_name(tiles, goal))]
    assert hashlib.sha256(built.tobytes()).hexdigest() == digest


def test_a_first_use_unpacks_it_into_the_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    tiles = next(t for t in PARTITION.groups if len(t) == 6)

    def no_build(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("a shipped database was built")

    monkeypatch.setattr(pdb_build, "build_database", no_build)
    data = pdb_cache.load_or_build(4, 4, GOAL, tiles)
    assert data.size == 5_765_760
    note = pdb_cache.inspect_database(pdb_cache.database_path(4, 4, GOAL, tiles))
    assert note is not None and note["status"] == "ok" and note["source"] == "shipped"
    again = pdb_cache.load_or_build(4, 4, GOAL, tiles)  # (now from the cache)
    assert np.array_equal(again, data)


def test_a_damaged_shipped_file_is_reported_and_built_instead(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "shipped"
    shutil.copytree(shipped.FOLDER, folder)
    tiles = next(t for t in PARTITION.groups if len(t) == 3)  # (quick to build)
    path = folder / shipped.file_name(_name(tiles))
    packed = bytearray(path.read_bytes())
    packed[len(packed) // 2] ^= 0x10
    path.write_bytes(bytes(packed))
    monkeypatch.setattr(shipped, "FOLDER", folder)
    shipped.forget()
    with pytest.warns(lacak.CacheWarning, match="shipped with lacak.*building it instead"):
        data = pdb_cache.load_or_build(4, 4, GOAL, tiles)
    assert np.array_equal(data, pdb_build.build_database(4, 4, GOAL, tiles))
    note = pdb_cache.inspect_database(pdb_cache.database_path(4, 4, GOAL, tiles))
    assert note is not None and note["source"] == "built"


def test_force_builds_even_what_is_shipped(monkeypatch: pytest.MonkeyPatch) -> None:
    tiles = next(t for t in PARTITION.groups if len(t) == 3)
    monkeypatch.setattr(shipped, "unpack", lambda *_a: pytest.fail("unpacked under force"))
    data = pdb_cache.load_or_build(4, 4, GOAL, tiles, force=True)
    assert data.size == 3360


@given(n=st.integers(3, 9), data=st.data())
def test_sparse_of_ranks_is_sparse_indices(n: int, data: st.DataObject) -> None:
    k = data.draw(st.integers(2, min(n - 1, 5)))
    hasher = Placements(n, k)
    assert np.array_equal(hasher.sparse_of_ranks(), hasher.sparse_indices())
    compact = np.arange(hasher.size, dtype=np.int64) % 251
    indexes: dict[tuple[int, int], np.ndarray] = {}
    first = hasher.sparse_table(compact.astype(np.uint8), indexes)
    assert (n, k) in indexes  # kept for the next group of that size
    table = hasher.sparse_table(compact.astype(np.uint8), indexes)
    assert np.array_equal(first, table)
    assert np.array_equal(table[hasher.sparse_indices()], compact.astype(np.uint8))
