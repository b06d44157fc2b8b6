"""Drop-in folders, LACAK_DICTIONARY_PATH, shadowing, and isolation of bad files."""

from __future__ import annotations

import json
import os
from pathlib import Path

import lacak
import pytest
from lacak_dictionaries.folders import packaged_folder, peek_metadata, scan

PACKAGED = {"ind", "ind-hunspell", "eng", "deu", "spa", "ita", "swe"}


def write(path: Path, words: list[str], **metadata: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    body: object = {**metadata, "words": words} if metadata else words
    path.write_text(json.dumps(body, ensure_ascii=False), "utf-8")
    return path


def test_packaged_dictionaries_are_registered() -> None:
    catalogue = lacak.Registry().dictionaries()
    assert set(catalogue) == PACKAGED
    assert catalogue.owner("eng") == "dictionaries"
    assert catalogue["ind"].language == "id"
    assert catalogue["eng"].description.startswith("English")
    folder = packaged_folder()
    assert folder is not None and Path(catalogue["swe"].path or "").parent == folder


def test_user_folder(isolated_folders: Path) -> None:
    write(isolated_folders / "data" / "dictionaries" / "klingon.json", ["qapla"], language="tlh")
    registry = lacak.Registry()
    assert registry.dictionaries()["klingon"].language == "tlh"
    assert registry.dictionary("klingon").words == ("QAPLA",)
    assert set(registry.dictionaries()) == PACKAGED | {"klingon"}


def test_dictionary_path_folders_and_files(
    isolated_folders: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    one = write(isolated_folders / "one" / "tiny.json", ["a", "b"])
    single = write(isolated_folders / "two" / "solo.json", ["solo"])
    write(isolated_folders / "two" / "ignored.json", ["not listed"])
    (isolated_folders / "one" / "notes.txt").write_text("not a dictionary")
    (isolated_folders / "one" / ".hidden.json").write_text("[]")
    env = os.pathsep.join([str(one.parent), str(single), str(isolated_folders / "missing"), ""])
    monkeypatch.setenv("LACAK_DICTIONARY_PATH", env)
    names = set(lacak.Registry().dictionaries())
    assert names == PACKAGED | {"tiny", "solo"}
    assert lacak.dictionary("tiny", registry=lacak.Registry()).words == ("A", "B")


def test_first_folder_wins_and_the_rest_are_shadowed(
    isolated_folders: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = write(isolated_folders / "first" / "eng.json", ["first"], language="en")
    second = write(isolated_folders / "second" / "eng.json", ["second"])
    user = write(isolated_folders / "data" / "dictionaries" / "eng.json", ["user"])
    monkeypatch.setenv(
        "LACAK_DICTIONARY_PATH", os.pathsep.join([str(first.parent), str(second.parent)])
    )
    registry = lacak.Registry()
    assert registry.dictionary("eng").words == ("FIRST",)
    assert registry.failures == []
    found = scan()
    shadowed = {(entry.path, entry.origin, entry.shadowed_by) for entry in found.shadowed}
    packaged = packaged_folder()
    assert packaged is not None
    assert shadowed == {
        (second, "path", first),
        (user, "user", first),
        (packaged / "eng.json", "packaged", first),
    }
    assert [folder.origin for folder in found.folders] == ["path", "path", "user", "packaged"]


def test_user_folder_overrides_packaged(isolated_folders: Path) -> None:
    write(isolated_folders / "data" / "dictionaries" / "ind.json", ["kucing"])
    assert lacak.Registry().dictionary("ind").words == ("KUCING",)


def test_a_malformed_file_fails_only_when_used(isolated_folders: Path) -> None:
    bad = isolated_folders / "data" / "dictionaries" / "broken.json"
    bad.parent.mkdir(parents=True)
    bad.write_text('["abad",\n  oops]')
    registry = lacak.Registry()
    assert "broken" in registry.dictionaries()  # listed without reading it
    with pytest.raises(lacak.DictionaryError, match=r"broken\.json, line 2, column 3"):
        registry.dictionary("broken")
    assert registry.dictionary("eng").words[:1] == ("A",)  # the others keep working
    assert registry.failures == []


def test_the_same_folder_twice_is_not_a_shadow(
    isolated_folders: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = write(isolated_folders / "x" / "tiny.json", ["a"]).parent
    monkeypatch.setenv("LACAK_DICTIONARY_PATH", os.pathsep.join([str(folder), str(folder)]))
    assert [e.name for e in scan().shadowed] == []


def test_peek_metadata(isolated_folders: Path) -> None:
    path = write(isolated_folders / "m.json", ["x"], language="de", title='Deutsch "klein"')
    assert peek_metadata(path) == ("de", 'Deutsch "klein"')
    assert peek_metadata(write(isolated_folders / "l.json", ["x"])) == ("", "")
    assert peek_metadata(isolated_folders / "missing.json") == ("", "")
    late = isolated_folders / "late.json"
    late.write_text('{"words": ["language"], "language": "xx"}')
    assert peek_metadata(late) == ("", "")  # only metadata before the words counts
