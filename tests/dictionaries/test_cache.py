"""The compiled cache: same result as a fresh parse, keyed by content, robust to damage."""

from __future__ import annotations

import json
import marshal
from pathlib import Path

import lacak
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .strategies import any_words


def cache_entries(root: Path) -> list[Path]:
    folder = root / "cache" / "dictionaries"
    return sorted(folder.glob("*.marshal")) if folder.exists() else []


def write(path: Path, words: list[str], **metadata: str) -> Path:
    path.write_text(json.dumps({**metadata, "words": words}, ensure_ascii=False), "utf-8")
    return path


def test_second_load_comes_from_the_cache_and_is_equal(isolated_folders: Path) -> None:
    path = write(isolated_folders / "mine.json", ["abad", "Abad", "x-y", "Straße"], language="id")
    first = lacak.Dictionary.from_file(path)
    assert first.report is not None and not first.report.cached
    assert len(cache_entries(isolated_folders)) == 1
    second = lacak.Dictionary.from_file(path)
    assert second.report is not None and second.report.cached
    assert second == first
    assert second.report == first.report  # skipped words, duplicates, notes all kept
    assert second.language == "id" and second.words == ("ABAD", "STRAẞE")


@settings(max_examples=25)
@given(st.lists(any_words(), min_size=1, max_size=20), st.sampled_from(["x", "y"]))
def test_cached_load_equals_uncached_load(words: list[str], name: str) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = write(Path(folder) / "w.json", words, title="T")
        try:
            fresh = lacak.Dictionary.from_file(path, name, cache=False)
        except lacak.DictionaryError:
            with pytest.raises(lacak.DictionaryError):
                lacak.Dictionary.from_file(path, name)
            return
        lacak.Dictionary.from_file(path, name)  # fills the cache
        cached = lacak.Dictionary.from_file(path, name)
    assert cached.report is not None and cached.report.cached
    assert cached == fresh and cached.report == fresh.report


def test_cache_is_keyed_by_content_not_by_path(isolated_folders: Path) -> None:
    a = write(isolated_folders / "a.json", ["cat"])
    b = write(isolated_folders / "b.json", ["cat"])
    lacak.Dictionary.from_file(a)
    from_b = lacak.Dictionary.from_file(b)
    assert from_b.report is not None and from_b.report.cached
    assert from_b.name == "b" and from_b.report.origin == str(b)
    write(a, ["dog"])  # new content: new entry, new words
    changed = lacak.Dictionary.from_file(a)
    assert changed.words == ("DOG",) and not changed.report.cached  # type: ignore[union-attr]
    assert len(cache_entries(isolated_folders)) == 2


def test_the_name_comes_from_the_caller_not_the_cache(isolated_folders: Path) -> None:
    path = write(isolated_folders / "w.json", ["cat"], name="words")
    lacak.Dictionary.from_file(path, "first")
    again = lacak.Dictionary.from_file(path, "second")
    assert again.name == "second"
    assert again.report is not None
    assert again.report.notes == ("the file calls itself 'words'; it is loaded as 'second'",)


@pytest.mark.parametrize(
    "damage",
    [
        b"",
        b"garbage that is not marshal",
        marshal.dumps(("not", "the", "layout")),
        marshal.dumps((2, "list", {}, "", ("A", 2), 1, 0, (), ())),
        marshal.dumps((99, "list", {}, "", ("ZZZ",), 1, 0, (), ())),
        marshal.dumps([1, 2, 3]),
    ],
    ids=["empty", "garbage", "wrong-shape", "wrong-types", "old-version", "a-list"],
)
def test_damaged_cache_entry_is_ignored_and_rebuilt(isolated_folders: Path, damage: bytes) -> None:
    path = write(isolated_folders / "w.json", ["cat", "dog"])
    good = lacak.Dictionary.from_file(path)
    (entry,) = cache_entries(isolated_folders)
    entry.write_bytes(damage)
    reloaded = lacak.Dictionary.from_file(path)
    assert reloaded == good and reloaded.report is not None and not reloaded.report.cached
    assert entry.read_bytes() != damage  # rewritten
    assert lacak.Dictionary.from_file(path).report.cached  # type: ignore[union-attr]


def test_truncated_cache_entry_is_ignored(isolated_folders: Path) -> None:
    path = write(isolated_folders / "w.json", [f"w{'a' * n}" for n in range(50)])
    good = lacak.Dictionary.from_file(path)
    (entry,) = cache_entries(isolated_folders)
    entry.write_bytes(entry.read_bytes()[:-7])
    assert lacak.Dictionary.from_file(path) == good


def test_unwritable_cache_only_costs_speed(
    isolated_folders: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = isolated_folders / "not-a-folder"
    blocker.write_text("a file where the cache folder should be")
    monkeypatch.setenv("LACAK_CACHE_DIR", str(blocker))
    path = write(isolated_folders / "w.json", ["cat"])
    assert lacak.Dictionary.from_file(path).words == ("CAT",)
    assert lacak.Dictionary.from_file(path).report.cached is False  # type: ignore[union-attr]


def test_malformed_files_are_not_cached(isolated_folders: Path) -> None:
    path = isolated_folders / "bad.json"
    path.write_text("[1, 2")
    for _ in range(2):
        with pytest.raises(lacak.DictionaryError, match="line 1, column 6"):
            lacak.Dictionary.from_file(path)
    assert cache_entries(isolated_folders) == []


def test_packaged_english_is_cached_after_the_first_load() -> None:
    registry = lacak.Registry()
    path = registry.dictionaries()["eng"].path
    assert path is not None
    first = lacak.Dictionary.from_file(path)
    second = lacak.Dictionary.from_file(path)
    assert second.report is not None and second.report.cached
    assert second == first and len(second) > 50_000
