"""``lacak sliding pdb build|info|list`` and solving with pattern databases from the command line."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from lacak.cli import make_cli


@pytest.fixture
def cache(tmp_path: Path) -> Iterator[Path]:
    """A fresh, empty cache folder for each test."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("LACAK_CACHE_DIR", str(tmp_path))
        yield tmp_path / "pdb"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(make_cli(), list(args))
    return result.exit_code, result.stdout, result.stderr


def test_build_then_info_then_list(cache: Path) -> None:
    code, out, _err = run("sliding", "pdb", "info", "44", "--json")
    assert code == 0
    info = json.loads(out)
    assert info["label"] == "4-4" and info["width"] == 3 and info["height"] == 3
    assert not any(g["cached"] for g in info["groups"])

    code, out, _err = run("sliding", "pdb", "build", "44", "--json")
    assert code == 0, _err
    built = json.loads(out)
    assert built["goal"] == [1, 2, 3, 4, 5, 6, 7, 8, 0]
    assert all(g["cached"] for g in built["groups"])
    assert sorted(t for g in built["groups"] for t in g["tiles"]) == list(range(1, 9))
    assert [len(g["tiles"]) for g in built["groups"]] == [4, 4]
    for group in built["groups"]:
        assert group["entries"] == 3024
        assert Path(group["file"]).parent == cache
        assert 0 < group["max"] <= 31
    assert built["seconds"] >= 0 and built["reflectable"] is True

    code, out, _err = run("sliding", "pdb", "list", "--json")
    assert code == 0
    listing = json.loads(out)
    assert Path(listing["folder"]) == cache
    assert len(listing["databases"]) == 2
    for note in listing["databases"]:
        assert {
            "width",
            "height",
            "goal",
            "tiles",
            "entries",
            "max",
            "mean",
            "seconds",
            "file",
        } <= set(note)

    code, out, _err = run("sliding", "pdb", "list")
    assert code == 0 and "3x3" in out


@pytest.mark.parametrize(
    "stray",
    [
        "[1, 2]",
        '"text"',
        "{}",
        '{"width": 3}',
        '{"width": 3, "height": 3, "goal": [1], "tiles": "12", "entries": 9, "max": 1, '
        '"mean": 1, "seconds": 0}',
        "not json",
    ],
)
def test_list_skips_files_that_are_not_notes(cache: Path, stray: str) -> None:
    assert run("sliding", "pdb", "build", "1,2", "--size", "3x3")[0] == 0
    (cache / "foo.json").write_text(stray)
    (cache / "foo.npy").write_bytes(b"")
    for args in (["--json"], []):
        code, out, err = run("sliding", "pdb", "list", *args)
        assert code == 0, err
        assert "foo" not in out
    listing = json.loads(run("sliding", "pdb", "list", "--json")[1])
    assert [note["tiles"] for note in listing["databases"]] == [[1, 2]]


def test_build_custom_partition_with_goal_first(cache: Path) -> None:
    code, out, err = run(
        "sliding", "pdb", "build", "1,2,3/4,5", "--size", "3x3", "--goal", "first", "--json"
    )
    assert code == 0, err
    info = json.loads(out)
    assert info["goal"] == list(range(9))
    assert info["singletons"] == [6, 7, 8]
    assert [g["tiles"] for g in info["groups"]] == [[1, 2, 3], [4, 5]]


def test_table_output(cache: Path) -> None:
    code, out, _err = run("sliding", "pdb", "build", "1,2/3,4", "--size", "2x3")
    assert code == 0
    assert "1,2" in out and "yes" in out
    code, out, _err = run("sliding", "pdb", "info", "1,2/3", "--size", "2x3")
    assert code == 0 and "no" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["build", "663", "--size", "3x3"], "for 4x4 boards"),
        (["build", "1,2/2,3", "--size", "3x3"], "two groups"),
        (["build", "1,2,x", "--size", "3x3"], "groups of tile numbers"),
        (["build", "1,2", "--size", "3x"], "size"),
        (["build", "1,2", "--size", "3x3", "--goal", "1234"], "goal"),
        (["info", "777"], "not on a 4x4 board"),
        (["build", "1,2", "--size", "8x8"], "at most 63 cells"),
        (["build", "1,2,3,4,5", "--size", "9x7"], "GiB of memory"),
    ],
)
def test_bad_input_is_one_line_with_status_2(cache: Path, args: list[str], message: str) -> None:
    code, out, err = run("sliding", "pdb", *args)
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("Error:")
    assert message in err
    assert "Traceback" not in err + out


def test_solve_with_a_database_from_the_command_line(cache: Path) -> None:
    code, out, err = run(
        "sliding",
        "solve",
        "8 6 7 / 2 5 4 / 3 0 1",
        "--strategy",
        "idastar-tiles",
        "--heuristic",
        "pdb:1,2,3,4/5,6,7,8;reflect",
        "--json",
    )
    assert code == 0, err
    result = json.loads(out)
    assert result["found"] and result["length"] == 31
    assert result["strategy"] == "idastar-tiles"
    assert result["heuristic"].startswith("pdb:")


def test_solve_with_a_bad_heuristic_spec(cache: Path) -> None:
    code, _out, err = run("sliding", "solve", "123450786", "--heuristic", "pdb:reflect=maybe")
    assert code == 2 and "reflect" in err and err.count("\n") == 1
