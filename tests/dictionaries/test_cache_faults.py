"""Fault injection on the compiled dictionary cache: damage never changes a word or an answer."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import lacak
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, example, given, settings
from lacak.cli import make_cli
from lacak.store import cache
from lacak.testing.strategies import CacheDamage, cache_damage

WORDS = ["bmars", "mars", "bar", "bars", "arm", "arms", "ram", "rams", "xxx", "straße", "x-y"]
CHECKS = [
    ("BMAR/XXXS", "MARS"),
    ("BMAR/XXXS", "BMARS"),
    ("BMAR/XXXS", "ARMS"),
    ("BMAR/XXXS", "BMAR"),
]


def entry_of(folder: Path) -> Path:
    (entry,) = (folder / "cache" / "dictionaries").glob("*.marshal")
    return entry


def answers(path: Path) -> list[tuple[int, str]]:
    """``lacak boggle check`` of each case against the dictionary file (status, JSON)."""
    out = []
    for board, word in CHECKS:
        result = CliRunner().invoke(
            make_cli(lacak.Registry()), ["boggle", "check", board, word, "-d", str(path), "--json"]
        )
        out.append((result.exit_code, result.stdout))
    return out


@pytest.fixture
def source(isolated_folders: Path) -> Path:
    path = isolated_folders / "mini.json"
    path.write_text(json.dumps({"language": "en", "words": WORDS}, ensure_ascii=False), "utf-8")
    return path


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(damage=cache_damage())
@example(damage=CacheDamage("flip", (8 * 200,)))  # inside the marshalled words
@example(damage=CacheDamage("replace", data=b"[1,2]"))
def test_a_damaged_entry_gives_the_fresh_words_and_is_rebuilt(
    source: Path, isolated_folders: Path, damage: CacheDamage
) -> None:
    cache._forget_reports()
    fresh = lacak.Dictionary.from_file(source, cache=False)
    lacak.Dictionary.from_file(source)  # fills the cache
    entry = entry_of(isolated_folders)
    changed = damage.apply(entry)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        loaded = lacak.Dictionary.from_file(source)
    assert loaded == fresh and loaded.report == fresh.report  # words, skipped words, notes
    if changed:
        assert loaded.report is not None and not loaded.report.cached
        (warning,) = [w for w in record if issubclass(w.category, lacak.CacheWarning)]
        assert str(warning.message).startswith(f"rebuilding the compiled dictionary of {source}")
        assert cache.inspect(entry).problem is None  # rebuilt in place
    again = lacak.Dictionary.from_file(source)
    assert again == fresh and again.report is not None and again.report.cached


@settings(max_examples=12, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(damage=cache_damage())
@example(damage=CacheDamage("flip", (8 * 200,)))
def test_boggle_check_answers_do_not_change(
    source: Path, isolated_folders: Path, damage: CacheDamage
) -> None:
    cache._forget_reports()
    expected = answers(source)  # fresh: fills the cache
    assert [json.loads(out)["valid"] for _, out in expected] == [True, True, False, False]
    damage.apply(entry_of(isolated_folders))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", lacak.CacheWarning)
        assert answers(source) == expected


def test_a_flipped_bit_in_the_words_is_caught(source: Path, isolated_folders: Path) -> None:
    """The issue's case: one flipped bit made 'boggle check BMAR/XXXS BMARS' say valid."""
    fresh = lacak.Dictionary.from_file(source)
    entry = entry_of(isolated_folders)
    data = bytearray(entry.read_bytes())
    where = data.rindex(b"MARS")  # turn a stored MARS into another word
    data[where] ^= 0x0F
    entry.write_bytes(bytes(data))
    with pytest.warns(lacak.CacheWarning, match=r"\(checksum mismatch\)"):
        assert lacak.Dictionary.from_file(source).words == fresh.words


def test_the_cli_reports_a_rebuild_in_one_line(source: Path, isolated_folders: Path) -> None:
    env = {**os.environ, "LACAK_CACHE_DIR": str(isolated_folders / "cache")}
    command = [
        sys.executable,
        "-m",
        "lacak",
        "boggle",
        "check",
        "BMAR/XXXS",
        "BMARS",
        "-d",
        str(source),
    ]
    first = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    assert first.returncode == 0 and first.stderr == ""
    entry = entry_of(isolated_folders)
    data = bytearray(entry.read_bytes())
    data[-5] ^= 1
    entry.write_bytes(bytes(data))
    second = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    assert (second.returncode, second.stdout) == (first.returncode, first.stdout)
    assert second.stderr == (
        f"warning: rebuilding the compiled dictionary of {source} {entry} (checksum mismatch)\n"
    )
    third = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    assert third.stderr == "" and third.stdout == first.stdout


def test_a_full_cache_folder_only_costs_speed(
    source: Path, isolated_folders: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    def full(*_args: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    cache._forget_reports()
    monkeypatch.setattr(cache.os, "replace", full)
    with pytest.warns(lacak.CacheWarning, match=r"No space left on device.*free some space"):
        loaded = lacak.Dictionary.from_file(source)
    assert loaded == lacak.Dictionary.from_file(source, cache=False)
    folder = isolated_folders / "cache" / "dictionaries"
    assert [p.name for p in folder.iterdir()] == []  # no entry, no temporary file
