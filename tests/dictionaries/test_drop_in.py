"""Drop-in word lists in every format, in the user folder and LACAK_DICTIONARY_PATH, used
by the Boggle solver; an edited file is read again (issue 13, part 5)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import lacak
import pytest
from click.testing import CliRunner
from lacak.cli import make_cli

#: The reference tutorial's board: with KBBI words and -m 2 it shows AH, AHO, HUS.
BOARD = "AHORJ/QQUOI/SSCPD/MUPSM/AUULI"


def seed(words: list[str]) -> dict[str, list[str]]:
    """The reference's format: lists keyed by first letter."""
    out: dict[str, list[str]] = {}
    for word in words:
        out.setdefault(word[0], []).append(word)
    return out


FORMATS: dict[str, Callable[[list[str]], Any]] = {
    "list": lambda words: words,
    "seed": seed,
    "object": lambda words: {"language": "id", "title": "KBBI sample", "words": words},
}


def place(isolated: Path, where: str, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The file ``kbbi.json`` in the user folder, or in a folder of LACAK_DICTIONARY_PATH."""
    if where == "user":
        folder = isolated / "data" / "dictionaries"
    else:
        folder = isolated / "extra"
        monkeypatch.setenv("LACAK_DICTIONARY_PATH", os.pathsep.join([str(folder), "/nowhere"]))
    folder.mkdir(parents=True, exist_ok=True)
    return folder / "kbbi.json"


def solve(cli: Any) -> list[str]:
    result = CliRunner().invoke(cli, ["boggle", "solve", BOARD, "-d", "kbbi", "-m", "2", "--json"])
    assert result.exit_code == 0, result.output
    return [w["word"] for w in json.loads(result.stdout)["boggle"]["words"]]


@pytest.mark.parametrize("where", ["user", "path"])
@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_an_edited_drop_in_file_is_read_again(
    isolated_folders: Path, monkeypatch: pytest.MonkeyPatch, fmt: str, where: str
) -> None:
    path = place(isolated_folders, where, monkeypatch)
    path.write_text(json.dumps(FORMATS[fmt](["AH", "ABAD", "HUS"])), encoding="utf-8")
    registry = lacak.Registry()
    cli = make_cli(registry)
    assert solve(cli) == ["AH", "HUS"]
    # edit the file: one word more; the same process (and registry) sees it
    path.write_text(json.dumps(FORMATS[fmt](["AH", "ABAD", "AHO", "HUS"])), encoding="utf-8")
    assert solve(cli) == ["AH", "AHO", "HUS"]
    # an edit that keeps the size: the modification time tells
    path.write_text(json.dumps(FORMATS[fmt](["AH", "ABAD", "AHO", "HUX"])), encoding="utf-8")
    later = path.stat().st_mtime + 2
    os.utime(path, (later, later))
    assert solve(cli) == ["AH", "AHO"]
    # a new process reads the compiled cache of the new content, never the old one
    fresh = lacak.Registry().dictionary("kbbi")
    assert fresh.report is not None and fresh.report.cached
    assert fresh.words == ("ABAD", "AH", "AHO", "HUX")
    assert solve(make_cli(lacak.Registry())) == ["AH", "AHO"]


def test_an_unchanged_file_is_not_read_again(isolated_folders: Path) -> None:
    path = isolated_folders / "data" / "dictionaries" / "kbbi.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(["ah", "aho"]), encoding="utf-8")
    registry = lacak.Registry()
    assert registry.dictionary("kbbi") is registry.dictionary("kbbi")
