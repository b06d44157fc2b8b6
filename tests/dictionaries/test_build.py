"""dictionaries/build.py on small synthetic sources (no Debian package needed)."""

from __future__ import annotations

from pathlib import Path

import lacak
import pytest
from hypothesis import given
from hypothesis import strategies as st
from lacak_dictionaries.data import build


def test_hunspell_stems_and_flags() -> None:
    lines = [
        "5",
        "abad/i0",
        "aba-aba",
        "arbeiter/Fo",
        "# comment",
        "\tindented",
        "",
        "lari/Dk po:verb",
    ]
    assert list(build.read_hunspell_stems(lines, drop_flags=["o"])) == ["abad", "aba-aba", "lari"]
    long_flags = ["2", "abah/DkMk", "ab/oz"]
    assert list(build.read_hunspell_stems(long_flags, flag_type="long", drop_flags=["oz"])) == [
        "abah"
    ]
    assert list(build.read_hunspell_stems(["1", "a\\/b/x"])) == ["a/b"]


@given(st.lists(st.text("abcdefgh", min_size=1, max_size=6), max_size=10))
def test_flags_split_back_into_the_string(flags: list[str]) -> None:
    text = "".join(flags)
    assert "".join(build.hunspell_flags(text, "")) == text
    assert "".join(build.hunspell_flags(text, "long")) == text
    assert build.hunspell_flags(",".join(["12", "7"]), "num") == ["12", "7"]


def test_lowercase_only() -> None:
    assert build.lowercase_only("abad") is None
    assert build.lowercase_only("Paris") is not None
    assert build.lowercase_only("NASA") is not None


def test_aff_settings(tmp_path: Path) -> None:
    aff = tmp_path / "x.aff"
    aff.write_text("# c\nSET ISO8859-1\nFLAG long\n", encoding="latin-1")
    assert build.aff_setting(aff, "SET") == "ISO8859-1"
    assert build.aff_setting(aff, "FLAG") == "long"
    assert build.aff_setting(aff, "KEY", "d") == "d"
    assert build.aff_setting(tmp_path / "missing.aff", "SET", "UTF-8") == "UTF-8"


def synthetic_sources(tmp_path: Path) -> tuple[build.Source, build.Source]:
    words = tmp_path / "words"
    words.write_text("cat\nCat\nParis\ndon't\ncafé\ndog\n\n", encoding="latin-1")
    dic = tmp_path / "xx_XX.dic"
    dic.write_text("4\nstraße/A\nMaß\nteil/o\nx-y\n", encoding="utf-8")
    (tmp_path / "xx_XX.aff").write_text("SET UTF-8\n")
    plain = build.Source(
        name="tst",
        title="Test",
        language="en",
        package="wtest",
        path=str(words),
        license="CC0-1.0",
        upstream="tests",
        alphabet=build.LATIN,
        encoding="latin-1",
    )
    stems = build.Source(
        name="stm",
        title="Stems",
        language="de",
        package="hunspell-xx",
        path=str(dic),
        reader="hunspell",
        license="CC0-1.0",
        upstream="tests",
        alphabet=build.LATIN + "ẞ",
        drop_flags=("o",),
        filters=(),
    )
    return plain, stems


def test_build_writes_a_clean_loadable_file(tmp_path: Path) -> None:
    plain, stems = synthetic_sources(tmp_path)
    built = build.build(plain, tmp_path)
    assert built.entries == 6 and built.words == 2
    assert built.dropped == {
        "capitalised (a proper noun or abbreviation)": 2,
        "not letters": 1,
        "outside the alphabet": 1,
    }
    loaded = lacak.Dictionary.from_file(tmp_path / "tst.json", cache=False)
    assert loaded.words == ("CAT", "DOG") and loaded.license == "CC0-1.0"
    assert loaded.source.startswith("Debian package wtest ")
    assert loaded.report is not None and loaded.report.skipped == ()
    german = build.build(stems, tmp_path)
    assert lacak.Dictionary.from_file(tmp_path / "stm.json").words == ("MAẞ", "STRAẞE")
    assert german.dropped == {"not letters": 1}
    notice = build.notice([built, german])
    assert "stm.json - Stems" in notice and "tst.json - Test" in notice
    assert notice.index("stm.json") < notice.index("tst.json")


def test_main_names_the_package_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    plain, _stems = synthetic_sources(tmp_path)
    missing = build.Source(**{**plain.__dict__, "path": str(tmp_path / "absent")})
    monkeypatch.setattr(build, "SOURCES", (missing,))
    assert build.main(["--out", str(tmp_path)]) == 1
    assert "apt-get install wtest" in capsys.readouterr().err
    assert not (tmp_path / "tst.json").exists()


def test_main_rebuilds_and_writes_notice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    plain, stems = synthetic_sources(tmp_path)
    monkeypatch.setattr(build, "SOURCES", (plain, stems))
    out = tmp_path / "out"
    out.mkdir()
    assert build.main(["--out", str(out)]) == 0
    assert "tst: 2 words from 6 entries" in capsys.readouterr().out
    assert build.main(["tst", "--out", str(out)]) == 0  # partial rebuild keeps NOTICE whole
    notice = (out / "NOTICE").read_text()
    assert "tst.json" in notice and "stm.json" in notice
    with pytest.raises(SystemExit):
        build.main(["nope", "--out", str(out)])


def test_boggle_rule_filters() -> None:
    assert build.one_capital_at_most("Haus") is None and build.one_capital_at_most("haus") is None
    for acronym in ("AEG", "NSU", "EUR", "GmbH"):
        assert build.one_capital_at_most(acronym) is not None
    assert build.not_a_single_letter("b") and build.not_a_single_letter("ab") is None
    assert build.not_hyphenated("aba-aba") and build.not_hyphenated("abad") is None
    assert build.reduplication_base("abal-abal") == "abal"
    assert build.reduplication_base("alai-belai") is None
    assert build.reduplication_base("abal") is None


def test_proper_nouns_are_the_stems_hunspell_knows_only_capitalised(tmp_path: Path) -> None:
    dic = tmp_path / "id_XX.dic"
    dic.write_text("5\nSenin\nIndonesia/K\nindonesia/Dk\nabad\nAllah\n", encoding="utf-8")
    (tmp_path / "id_XX.aff").write_text("SET UTF-8\n")
    assert build.hunspell_capitalised_only(dic) == frozenset({"senin", "allah"})


def test_a_kbbi_style_source_with_roots_exclusions_and_proper_nouns(tmp_path: Path) -> None:
    """The ind recipe on a small list: reduplications give their roots, single letters,
    hyphenated entries and proper nouns (by the hunspell list or by name) are left out,
    and the file says so in its filters."""
    words = tmp_path / "kata.txt"
    words.write_text("abad\nabal-abal\nbabah\nb\nsenin\nindonesia\naba-aba\naba\nalai-belai\n")
    extra = tmp_path / "more.txt"
    extra.write_text("ah\nabad\n")
    dic = tmp_path / "id_XX.dic"
    dic.write_text("2\nSenin\nabad\n", encoding="utf-8")
    source = build.Source(
        name="kbbi",
        title="KBBI test",
        language="id",
        package="kata",
        installer="pip install",
        path=str(words),
        extra=(str(extra),),
        license="CC0-1.0",
        upstream="tests",
        alphabet=build.LATIN,
        filters=(build.not_a_single_letter, build.not_hyphenated),
        reduplication=True,
        proper_nouns=str(dic),
        exclude={"indonesia": "a proper noun in lower case"},
        read="two lists",
    )
    built = build.build(source, tmp_path)
    loaded = lacak.Dictionary.from_file(tmp_path / "kbbi.json", cache=False)
    assert loaded.words == ("ABA", "ABAD", "ABAL", "AH", "BABAH")
    assert built.entries == 10 and built.added == 1  # abad is read once; ABAL is added
    assert built.dropped == {
        "hyphenated": 3,
        "a single letter": 1,
        "a proper noun (hunspell-id knows it only with a capital)": 1,
        "a proper noun in lower case": 1,
    }
    assert loaded.filters[0] == "read 10 entries: two lists"
    assert "added 1 roots of full reduplications (abal-abal gives ABAL)" in loaded.filters
    assert "left out 3: hyphenated" in loaded.filters
    assert loaded.source.startswith("Python package kata unknown version (")
    text = (tmp_path / "kbbi.json").read_text()
    assert text.index('"count": 5') < text.index('"words"')  # metadata first, for listings


def test_python_package_files_and_install_hints(tmp_path: Path) -> None:
    missing = build.Source(
        name="x", title="x", language="id", package="NoSuchPackage13", installer="pip install",
        path="python:NoSuchPackage13/data/words.txt", license="", upstream="", alphabet="",
        proper_nouns=str(tmp_path / "none.dic"),
    )  # fmt: skip
    assert not missing.files()[0].exists()
    assert missing.install_hint().startswith("pip install NoSuchPackage13")
    with pytest.raises(FileNotFoundError, match="pip install NoSuchPackage13"):
        build.build(missing, tmp_path)
    found = build._python_file("python:lacak/py.typed")
    assert found.is_file() and found.name == "py.typed"
