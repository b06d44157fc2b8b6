"""The word lists that ship with lacak, and their NOTICE."""

from __future__ import annotations

from pathlib import Path

import lacak
import pytest
from lacak.words import normalize_word, word_problem
from lacak_dictionaries.folders import packaged_folder

LANGUAGES = {
    "ind": "id",
    "ind-hunspell": "id",
    "eng": "en",
    "deu": "de",
    "spa": "es",
    "ita": "it",
    "swe": "sv",
}

#: Per packaged list: entries Boggle's rules leave out (abbreviations, proper nouns,
#: contractions, hyphenated words, letters' names) and words that must stay in.
OUT_AND_IN = {
    "eng": (
        "XXX BLDG HRS HGT TBS ADV ETC PARIS NASA DON'T O'CLOCK CAT'S CAFÉ",
        "CAT QUEEN ZEBRA DOG QUIZ QUICKLY JUMPED BOXES",
    ),
    "deu": ("NSU EUR AEG GMBH ABC CDU ARD", "HAUS STRAẞE ÄRGER GROẞ MAẞ MASSE MILCH"),
    "ind": (
        "SENIN DESEMBER JANUARI MUHAMMAD INDONESIA ALLAH ISLAM HUT ABA-ABA ABAL-ABAL B C",
        "ABAD ABADI ABAH ABAI ABAL BABA BABAD BABAH BABAK AH AHO HUS KATA RUMAH CARI",
    ),
    "ind-hunspell": ("SENIN DESEMBER INDONESIA ALLAH ALLAHUMA ABA-ABA B", "ABAD ABADI AH AHO KATA"),
    "spa": ("CÍA AB AD ET UT", "AÑO ÑANDÚ CASA PERRO EL DE"),
    "ita": ("KG CD PC HTML GPL", "CASA CANE GATTO"),
    "swe": ("PC", "SMÖRGÅS HUS BIL KATT"),
}


@pytest.fixture(scope="module")
def registry() -> lacak.Registry:
    return lacak.Registry()


@pytest.mark.parametrize("name", sorted(LANGUAGES))
def test_packaged_file_is_clean(registry: lacak.Registry, name: str) -> None:
    dictionary = registry.dictionary(name)
    assert dictionary.name == name and dictionary.language == LANGUAGES[name]
    assert dictionary.title and dictionary.alphabet and dictionary.license
    assert dictionary.source.startswith(("Debian package ", "Python package "))
    # how it was made: what was read, then what was left out and why, with counts
    assert dictionary.filters and dictionary.filters[0].startswith("read ")
    report = dictionary.report
    assert report is not None and report.format == "object"
    # written by build.py through the same normalisation: nothing to skip or merge
    assert report.skipped == () and report.duplicates == 0 and report.notes == ()
    assert len(dictionary) == report.entries > 20_000
    alphabet = frozenset(dictionary.alphabet)
    assert all(word_problem(word, alphabet) is None for word in dictionary.words)
    assert all(normalize_word(word) == word for word in dictionary.words[::97])
    assert set(dictionary.letters) == set(dictionary.alphabet)


@pytest.mark.parametrize("name", sorted(OUT_AND_IN))
def test_boggle_rules_hold_known_abbreviations_out_and_words_in(
    registry: lacak.Registry, name: str
) -> None:
    """Issue 13: every packaged list follows Boggle's rules."""
    dictionary = registry.dictionary(name)
    out, keep = (text.split() for text in OUT_AND_IN[name])
    assert [word for word in out if word in dictionary] == []
    assert [word for word in keep if word not in dictionary] == []
    # no word of any list is hyphenated or has an apostrophe (they are not letters)
    assert all(word.isalpha() for word in dictionary.words[::7])


def test_expected_words(registry: lacak.Registry) -> None:
    ind, eng, deu = (registry.dictionary(n) for n in ("ind", "eng", "deu"))
    assert {"ABAD", "ABADI", "KATA", "RUMAH", "CARI"} <= set(ind.words)
    assert "ABA-ABA" not in ind and "ALLAHUMA" not in ind  # no hyphens, no proper nouns
    assert "ABAL" in ind and "BABAH" in ind  # KBBI roots the hunspell list lacks
    assert {"CAT", "QUEEN", "ZEBRA"} <= set(eng.words)
    assert "PARIS" not in eng and "CAFÉ" not in eng  # proper nouns, letters outside A-Z
    assert all(word.isascii() for word in eng.words)
    assert {"STRAẞE", "ÄRGER", "GROẞ", "MAẞ", "MASSE"} <= set(deu.words)
    assert "STRASSE" not in deu and "GROSS" not in deu  # ß is kept, not turned into SS
    assert {"AÑO", "ÑANDÚ"} <= set(registry.dictionary("spa").words)
    assert "SMÖRGÅS" in registry.dictionary("swe")


def test_reference_example_words_in_indonesian(registry: lacak.Registry) -> None:
    """The tutorial's board lists AH and AHO among its results (Indonesian, min length 2),
    and its sample of the KBBI list (``{A: ["ABAD", ...], B: ["BABA", ...]}``) is in
    ``ind``, the KBBI list, entry for entry."""
    ind = registry.dictionary("ind")
    assert "AH" in ind and "AHO" in ind
    sample = {"A": ["ABAD", "ABADI", "ABAH", "ABAI", "ABAL"], "B": ["BABA", "BABAD", "BABAH", "BABAK"]}
    assert [w for words in sample.values() for w in words if w not in ind] == []
    assert "KBBI" in ind.title and ind.language == "id"
    hunspell = registry.dictionary("ind-hunspell")
    assert "hunspell" in hunspell.title and "KBBI" not in hunspell.title  # which is which


def test_notice_names_every_file_source_and_licence(registry: lacak.Registry) -> None:
    folder = packaged_folder()
    assert folder is not None
    notice = (Path(__file__).resolve().parents[2] / "dictionaries" / "NOTICE").read_text()
    for name in LANGUAGES:
        dictionary = registry.dictionary(name)
        assert f"{name}.json - {dictionary.title}" in notice
        assert dictionary.license in notice
        origin = dictionary.source.split("; upstream")[0]
        assert f"source:    {origin}" in notice
        assert f"words:     {len(dictionary)} " in notice
        for line in dictionary.filters:
            assert f"filter:    {line}" in notice
    assert "Kevin Atkinson" in notice  # the SCOWL notice travels with eng.json
    # the KBBI list's licence and attribution travel with ind.json
    assert "CC BY-NC-SA 3.0" in notice and "Kateglo" in notice and "Andy Librian" in notice
    assert sorted(p.stem for p in folder.glob("*.json")) == sorted(LANGUAGES)


def test_total_size_is_reasonable() -> None:
    folder = packaged_folder()
    assert folder is not None
    total = sum(path.stat().st_size for path in folder.glob("*.json"))
    assert total < 8_000_000
