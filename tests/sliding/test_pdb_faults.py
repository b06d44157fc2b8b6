"""Fault injection on cached pattern databases: damage never changes an estimate or a solution;
``pdb build``, ``info`` and ``list`` never call a damaged database cached."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import lacak
import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, example, given, settings
from lacak.cli import make_cli
from lacak.store import cache
from lacak.testing import one_line_error
from lacak.testing.strategies import CacheDamage, cache_damage
from lacak_sliding import pdb
from lacak_sliding.generators import random_board
from lacak_sliding.pdb import build as pdb_build
from lacak_sliding.pdb import cache as pdb_cache
from lacak_sliding.puzzle import goal_tiles

from .helpers import distances

GOAL = goal_tiles(3, 3)
GROUPS = ((1, 2, 3, 4), (5, 6, 7, 8))
SPEC = "pdb:1,2,3,4/5,6,7,8;noreflect"
PUZZLES = [random_board((3, 3), seed) for seed in range(6)]


@pytest.fixture(autouse=True)
def _own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("LACAK_CACHE_DIR", str(tmp_path / "cache"))
    cache._forget_reports()
    pdb.forget_memory()
    yield tmp_path / "cache" / "pdb"
    pdb.forget_memory()


@pytest.fixture(scope="module")
def fresh() -> dict[tuple[int, ...], np.ndarray]:
    return {g: pdb_build.build_database(3, 3, GOAL, g) for g in GROUPS}


def file_of(tiles: tuple[int, ...]) -> Path:
    path = pdb_cache.database_path(3, 3, GOAL, tiles)
    assert path is not None
    return path


def estimates_and_lengths() -> tuple[list[float], list[int]]:
    heuristic = lacak.default_registry().heuristic("sliding", SPEC)
    estimates = [heuristic.for_puzzle(p)(p.initial) for p in PUZZLES]
    lengths = [lacak.solve(p, "idastar-tiles", heuristic=SPEC).length for p in PUZZLES]
    return estimates, lengths


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(damage=cache_damage())
@example(damage=CacheDamage("flip", (8 * 1000,)))  # a distance in the table
@example(damage=CacheDamage("replace", data=b"\x93NUMPY\x01\x00v\x00{}"))
@example(damage=CacheDamage("folder"))
def test_a_damaged_database_is_rebuilt_and_equals_a_fresh_one(
    fresh: dict[tuple[int, ...], np.ndarray], _own_cache: Path, damage: CacheDamage
) -> None:
    cache._forget_reports()
    pdb.forget_memory()
    for tiles in GROUPS:
        pdb.load_or_build(3, 3, GOAL, tiles)  # built once per test, then loaded
    damaged = file_of(GROUPS[0])
    changed = damage.apply(damaged)
    pdb.forget_memory()
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        for tiles in GROUPS:
            assert np.array_equal(pdb.load_or_build(3, 3, GOAL, tiles), fresh[tiles])
    said = [str(w.message) for w in record if issubclass(w.category, lacak.CacheWarning)]
    if changed:
        assert len(said) == 1 and said[0].startswith(
            f"rebuilding the pattern database of tiles 1,2,3,4 on 3x3 {damaged} ("
        )
        assert pdb.inspect_database(damaged)["status"] == "ok"  # type: ignore[index]
    else:
        assert said == []


@settings(max_examples=15, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(damage=cache_damage())
@example(damage=CacheDamage("flip", (8 * 2000 + 3,)))
def test_estimates_and_solution_lengths_do_not_change(
    fresh: dict[tuple[int, ...], np.ndarray], damage: CacheDamage
) -> None:
    cache._forget_reports()
    pdb.forget_memory()
    expected = estimates_and_lengths()
    assert expected[1] == [distances(3, 3)[p.initial] for p in PUZZLES]
    damage.apply(file_of(GROUPS[1]))
    pdb.forget_memory()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", lacak.CacheWarning)
        assert estimates_and_lengths() == expected


def test_load_without_building_does_not_use_a_damaged_file(_own_cache: Path) -> None:
    pdb.load_or_build(3, 3, GOAL, GROUPS[0])
    path = file_of(GROUPS[0])
    data = bytearray(path.read_bytes())
    data[-1] ^= 0x40
    path.write_bytes(bytes(data))
    pdb.forget_memory()
    with pytest.warns(lacak.CacheWarning, match=r"^not using .*\(checksum mismatch\)"):
        assert pdb.load_or_build(3, 3, GOAL, GROUPS[0], build=False) is None
    assert path.read_bytes() == bytes(data)  # left for a build to replace


def test_a_sound_file_of_another_group_is_not_used(_own_cache: Path) -> None:
    """A database copied under another group's name fails its key (the name)."""
    pdb.load_or_build(3, 3, GOAL, (1, 2, 3))
    pdb.load_or_build(3, 3, GOAL, (4, 5, 6))
    file_of((4, 5, 6)).write_bytes(file_of((1, 2, 3)).read_bytes())
    pdb.forget_memory()
    with pytest.warns(lacak.CacheWarning, match="written for key"):
        again = pdb.load_or_build(3, 3, GOAL, (4, 5, 6))
    assert np.array_equal(again, pdb_build.build_database(3, 3, GOAL, (4, 5, 6)))


@pytest.mark.parametrize(
    "meta",
    [{}, {"columns": 5}, {"width": "3"}, {"width": 3, "height": 3, "goal": [1, 2], "tiles": []}],
)
def test_a_sound_file_with_a_foreign_note_is_rebuilt(
    fresh: dict[tuple[int, ...], np.ndarray], meta: dict[str, object]
) -> None:
    path = file_of(GROUPS[0])
    entries = len(fresh[GROUPS[0]])
    assert cache.save(path, pdb_cache._FORMAT, path.stem, [b"\0" * entries], meta=meta)
    with pytest.warns(lacak.CacheWarning, match=r"\(unusable content: its note has another"):
        assert np.array_equal(pdb.load_or_build(3, 3, GOAL, GROUPS[0]), fresh[GROUPS[0]])
    assert pdb.inspect_database(path)["status"] == "ok"  # type: ignore[index]


def test_an_unwritable_cache_still_solves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("LACAK_CACHE_DIR", str(blocker))
    with pytest.warns(lacak.CacheWarning, match="cannot create the cache folder .*carrying on"):
        result = lacak.solve(PUZZLES[0], "idastar-tiles", heuristic=SPEC)
    assert result.length == distances(3, 3)[PUZZLES[0].initial]


def test_a_full_disk_still_solves(_own_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def full(*_args: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(cache.os, "replace", full)
    with pytest.warns(lacak.CacheWarning, match=r"No space left on device.*free some space"):
        result = lacak.solve(PUZZLES[1], "idastar-tiles", heuristic=SPEC)
    assert result.length == distances(3, 3)[PUZZLES[1].initial]
    assert [p.name for p in _own_cache.iterdir()] == []


# -- the commands ---------------------------------------------------------------------------


def run(*args: str) -> tuple[int, str, str]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", lacak.CacheWarning)
        result = CliRunner().invoke(make_cli(), ["sliding", "pdb", *args])
    return result.exit_code, result.stdout, result.stderr


def damage_first(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) - 100] ^= 1
    path.write_bytes(bytes(data))


def test_info_list_and_build_tell_a_damaged_database(_own_cache: Path) -> None:
    assert run("build", "44")[0] == 0
    part = pdb.Partition.named("44", 3, 3, GOAL)
    path = file_of(part.groups[0])
    damage_first(path)
    info = json.loads(run("info", "44", "--json")[1])
    assert [(g["cached"], g["status"]) for g in info["groups"]] == [
        (False, "checksum mismatch"),
        (True, "ok"),
    ]
    code, out, _ = run("info", "44")
    assert code == 0 and "no: checksum mismatch" in out
    listing = json.loads(run("list", "--json")[1])
    statuses = {note["file"]: note["status"] for note in listing["databases"]}
    assert statuses[str(path)] == "checksum mismatch" and len(statuses) == 2
    quick = json.loads(run("list", "--json", "--no-verify")[1])
    assert {note["status"] for note in quick["databases"]} == {"not verified"}
    code, out, _ = run("list")
    assert code == 0 and "checksum mismatch" in out
    built = json.loads(run("build", "44", "--json")[1])  # rebuilds the damaged one
    assert [(g["cached"], g["status"]) for g in built["groups"]] == [(True, "ok"), (True, "ok")]
    assert pdb.inspect_database(path)["status"] == "ok"  # type: ignore[index]


def test_build_reports_the_rebuild(_own_cache: Path) -> None:
    assert run("build", "1,2,3", "--size", "3x3")[0] == 0
    damage_first(file_of((1, 2, 3)))
    pdb.forget_memory()
    with pytest.warns(lacak.CacheWarning, match=r"rebuilding the pattern database of tiles 1,2,3"):
        result = CliRunner().invoke(
            make_cli(), ["sliding", "pdb", "build", "1,2,3", "--size", "3x3"]
        )
    assert result.exit_code == 0


def test_list_counts_files_it_does_not_read(_own_cache: Path) -> None:
    assert run("build", "1,2", "--size", "3x3")[0] == 0
    (_own_cache / "3x3-2tiles-0123456789abcdef.npy").write_bytes(b"\x93NUMPY" + b"\0" * 100)
    (_own_cache / "3x3-2tiles-0123456789abcdef.json").write_text("{}")
    (_own_cache / "junk.pdb").write_bytes(b"[1,2]")
    listing = json.loads(run("list", "--json")[1])
    assert [n["tiles"] for n in listing["databases"]] == [[1, 2]]
    assert listing["other_files"]["count"] == 3
    code, out, _ = run("list")
    assert code == 0 and "3 other files" in out and "they can be deleted" in out


def test_build_into_a_folder_that_cannot_be_made_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("LACAK_CACHE_DIR", str(blocker))
    result = CliRunner().invoke(make_cli(), ["sliding", "pdb", "build", "1,2", "--size", "3x3"])
    one_line_error(result, "set LACAK_CACHE_DIR to a writable folder")
    assert f"cannot create the cache folder {blocker} (a file is in its place)" in result.stderr


def test_build_onto_a_full_disk_is_one_line(
    _own_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(*_args: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(cache.os, "replace", full)
    result = CliRunner().invoke(make_cli(), ["sliding", "pdb", "build", "1,2", "--size", "3x3"])
    one_line_error(result, "free some space")
    assert (
        f"cannot write to the cache folder {_own_cache} (No space left on device)" in result.stderr
    )
    assert list(_own_cache.iterdir()) == []


def test_build_into_a_read_only_folder_fails_before_building(
    _own_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = os.open

    def read_only(path: str, flags: int, *args: int) -> int:
        if flags & os.O_CREAT:
            raise OSError(errno.EROFS, os.strerror(errno.EROFS))
        return real(path, flags, *args)

    def never(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("built although nothing could be kept")

    monkeypatch.setattr(cache.os, "open", read_only)
    monkeypatch.setattr(pdb_build, "build_database", never)
    result = CliRunner().invoke(make_cli(), ["sliding", "pdb", "build", "1,2", "--size", "3x3"])
    one_line_error(result, "Read-only file system")


def test_the_cli_shows_the_rebuild_in_one_line(tmp_path: Path) -> None:
    env = {**os.environ, "LACAK_CACHE_DIR": str(tmp_path / "cache")}
    board = " ".join(map(str, PUZZLES[2].initial))
    command = [sys.executable, "-m", "lacak", "sliding", "solve", board, "--heuristic", SPEC,
               "--strategy", "idastar-tiles", "--json"]  # fmt: skip
    first = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    assert first.returncode == 0 and first.stderr == ""
    path = file_of(GROUPS[0])  # this test's cache folder is the one given to the command
    assert path.is_file()
    damage_first(path)
    second = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    assert json.loads(second.stdout)["length"] == json.loads(first.stdout)["length"]
    assert second.stderr == (
        f"warning: rebuilding the pattern database of tiles 1,2,3,4 on 3x3 {path} "
        "(checksum mismatch)\n"
    )


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_in_place_of_a_database_hangs_nothing(tmp_path: Path) -> None:
    """Issue 23, item 9: opening a FIFO no one writes to waits for ever; ``solve
    --timeout 3`` and ``pdb list`` used to hang on one. Each now ends (each stopped
    after 120 s at worst) with the answer, the FIFO reported, and the database rebuilt.
    (The numpy builder: these tiny tables need no compile.)"""
    env = {**os.environ, "LACAK_CACHE_DIR": str(tmp_path / "cache"), "LACAK_PDB_ENGINE": "numpy"}
    lacak_ = [sys.executable, "-m", "lacak", "sliding"]
    board = " ".join(map(str, PUZZLES[2].initial))
    solve = [*lacak_, "solve", board, "--heuristic", SPEC, "--strategy", "idastar-tiles",
             "--json", "--timeout", "30"]  # fmt: skip

    def run_(command: list[str]) -> subprocess.CompletedProcess[str]:
        return subprocess.run(command, capture_output=True, text=True, env=env, timeout=120,
                              check=False)  # fmt: skip

    first = run_(solve)
    assert first.returncode == 0 and first.stderr == ""
    path = file_of(GROUPS[0])
    path.unlink()
    os.mkfifo(path)
    listing = run_([*lacak_, "pdb", "list", "--json"])
    assert listing.returncode == 0, listing.stderr
    statuses = {n["file"]: n["status"] for n in json.loads(listing.stdout)["databases"]}
    assert statuses.get(str(path), "a FIFO is in its place") == "a FIFO is in its place"
    second = run_(solve)
    assert second.returncode == 0, second.stderr
    assert json.loads(second.stdout)["length"] == json.loads(first.stdout)["length"]
    assert second.stderr == (
        f"warning: rebuilding the pattern database of tiles 1,2,3,4 on 3x3 {path} "
        "(a FIFO is in its place)\n"
    )
    assert path.is_file()  # rebuilt in its place
