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
        keep=None,
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
