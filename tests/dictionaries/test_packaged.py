"""The word lists that ship with lacak, and their NOTICE."""

from __future__ import annotations

from pathlib import Path

import lacak
import pytest
from lacak.dictionary_files import normalize_word, word_problem
from lacak_dictionaries.folders import packaged_folder

LANGUAGES = {"ind": "id", "eng": "en", "deu": "de", "spa": "es", "ita": "it", "swe": "sv"}


@pytest.fixture(scope="module")
def registry() -> lacak.Registry:
    return lacak.Registry()


@pytest.mark.parametrize("name", sorted(LANGUAGES))
def test_packaged_file_is_clean(registry: lacak.Registry, name: str) -> None:
    dictionary = registry.dictionary(name)
    assert dictionary.name == name and dictionary.language == LANGUAGES[name]
    assert dictionary.title and dictionary.alphabet and dictionary.license
    assert dictionary.source.startswith("Debian package ")
    report = dictionary.report
    assert report is not None and report.format == "object"
    # written by build.py through the same normalisation: nothing to skip or merge
    assert report.skipped == () and report.duplicates == 0 and report.notes == ()
    assert len(dictionary) == report.entries > 20_000
    alphabet = frozenset(dictionary.alphabet)
    assert all(word_problem(word, alphabet) is None for word in dictionary.words)
    assert all(normalize_word(word) == word for word in dictionary.words[::97])
    assert set(dictionary.letters) == set(dictionary.alphabet)


def test_expected_words(registry: lacak.Registry) -> None:
    ind, eng, deu = (registry.dictionary(n) for n in ("ind", "eng", "deu"))
    assert {"ABAD", "ABADI", "KATA", "RUMAH", "CARI"} <= set(ind.words)
    assert "ABA-ABA" not in ind and "ALLAHUMA" not in ind  # no hyphens, no proper nouns
    assert {"CAT", "QUEEN", "ZEBRA"} <= set(eng.words)
    assert "PARIS" not in eng and "CAFÉ" not in eng  # proper nouns, letters outside A-Z
    assert all(word.isascii() for word in eng.words)
    assert {"STRAẞE", "ÄRGER", "GROẞ", "MAẞ", "MASSE"} <= set(deu.words)
    assert "STRASSE" not in deu and "GROSS" not in deu  # ß is kept, not turned into SS
    assert {"AÑO", "ÑANDÚ"} <= set(registry.dictionary("spa").words)
    assert "SMÖRGÅS" in registry.dictionary("swe")


def test_reference_example_words_in_indonesian(registry: lacak.Registry) -> None:
    """The tutorial's board lists AH and AHO among its results (Indonesian, min length 2)."""
    ind = registry.dictionary("ind")
    assert "AH" in ind and "AHO" in ind


def test_notice_names_every_file_source_and_licence(registry: lacak.Registry) -> None:
    folder = packaged_folder()
    assert folder is not None
    notice = (Path(__file__).resolve().parents[2] / "dictionaries" / "NOTICE").read_text()
    for name in LANGUAGES:
        dictionary = registry.dictionary(name)
        assert f"{name}.json - {dictionary.title}" in notice
        assert dictionary.license in notice
        package = dictionary.source.split()[2]
        assert f"Debian package {package} " in notice
        assert f"words:     {len(dictionary)} " in notice
    assert "Kevin Atkinson" in notice  # the SCOWL notice travels with eng.json
    assert sorted(p.stem for p in folder.glob("*.json")) == sorted(LANGUAGES)


def test_total_size_is_reasonable() -> None:
    folder = packaged_folder()
    assert folder is not None
    total = sum(path.stat().st_size for path in folder.glob("*.json"))
    assert total < 8_000_000
