"""``lacak dictionaries list|show|validate|export`` end to end."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import lacak
import pytest
from click.testing import CliRunner
from lacak.cli import make_cli
from lacak.testing import one_line_error

PACKAGED = ["deu", "eng", "ind", "ind-hunspell", "ita", "spa", "swe"]


def _error_column(text: str) -> int:
    """The column Python's JSON parser gives for ``text``'s error (the column lacak
    reports is the parser's: Python 3.13 puts a trailing comma's error on the comma, 3.12
    on the bracket after it)."""
    try:
        json.loads(text)
    except json.JSONDecodeError as error:
        return error.colno
    raise AssertionError(f"{text!r} is valid JSON")


#: Where ``{"words": ["a",]}``'s error is, on this Python.
TRAILING_COMMA = _error_column('{"words": ["a",]}')


def run(*args: str) -> Any:
    """Run the CLI with a fresh registry (so environment changes are seen)."""
    return CliRunner().invoke(make_cli(lacak.Registry()), ["dictionaries", *args])


def write(path: Path, body: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(body, ensure_ascii=False), "utf-8")
    return path


def test_list_json_packaged() -> None:
    result = run("list", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == {"dictionaries", "problems", "shadowed", "folders"}
    assert [row["name"] for row in data["dictionaries"]] == PACKAGED
    for row in data["dictionaries"]:
        assert set(row) == {
            "name",
            "language",
            "title",
            "words",
            "source",
            "license",
            "path",
            "origin",
        }
        assert row["origin"] == "packaged" and row["words"] > 20_000
        assert row["source"].startswith(("Debian package", "Python package")) and row["license"]
    assert data["problems"] == [] and data["shadowed"] == []
    assert [f["origin"] for f in data["folders"]] == ["user", "packaged"]


def test_list_reads_packaged_lists_from_their_metadata(monkeypatch) -> None:
    """Issue 13: listing needs names, languages and counts, which the packaged files'
    metadata hold: it loads none of them (it used to load every list)."""
    loaded: list[str] = []
    real = lacak.Dictionary.from_file

    def spy(path, name=None, **options):
        loaded.append(str(path))
        return real(path, name, **options)

    monkeypatch.setattr(lacak.Dictionary, "from_file", spy)
    data = json.loads(run("list", "--json").stdout)
    assert loaded == []
    registry = lacak.Registry()
    for row in data["dictionaries"]:
        dictionary = registry.dictionary(row["name"])
        assert row["words"] == len(dictionary)
        assert (row["language"], row["title"], row["source"], row["license"]) == (
            dictionary.language,
            dictionary.title,
            dictionary.source,
            dictionary.license,
        )


def test_list_loads_user_lists_to_count_them(isolated_folders: Path) -> None:
    """A user's file may say any count: it is loaded (through the cache) and counted."""
    folder = isolated_folders / "data" / "dictionaries"
    folder.mkdir(parents=True)
    (folder / "mine.json").write_text(
        json.dumps({"language": "id", "count": 99, "words": ["abad", "abadi"]})
    )
    rows = {r["name"]: r for r in json.loads(run("list", "--json").stdout)["dictionaries"]}
    assert rows["mine"]["words"] == 2 and rows["mine"]["origin"] == "user"
    show = json.loads(run("show", "mine", "--json").stdout)
    assert show["notes"] == ["the file says it holds 99 words; 2 were read"]


def test_list_table() -> None:
    result = run("list")
    assert result.exit_code == 0
    rows = {line.split()[0]: line for line in result.stdout.splitlines()[1:] if line.strip()}
    for name in PACKAGED:
        assert name in rows
    assert result.stdout.splitlines()[0].split() == ["name", "language", "words", "title", "path"]
    # which Indonesian list is which
    assert "KBBI" in rows["ind"] and "hunspell" in rows["ind-hunspell"]
    assert "folders searched:" in result.stdout


def test_drop_in_folder_and_env_path_end_to_end(
    isolated_folders: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(
        isolated_folders / "data" / "dictionaries" / "mine.json",
        {"language": "en", "title": "Mine", "words": ["zebra", "Yak"]},
    )
    env_dir = isolated_folders / "extra"
    write(env_dir / "eng.json", ["cat"])
    bad = env_dir / "broken.json"
    bad.write_text('{"words": ["a",]}')
    monkeypatch.setenv("LACAK_DICTIONARY_PATH", str(env_dir) + os.pathsep)
    data = json.loads(run("list", "--json").stdout)
    rows = {row["name"]: row for row in data["dictionaries"]}
    assert rows["mine"]["origin"] == "user" and rows["mine"]["words"] == 2
    assert rows["mine"]["title"] == "Mine"
    assert rows["eng"]["origin"] == "path" and rows["eng"]["words"] == 1
    assert rows["ind"]["origin"] == "packaged"
    (problem,) = data["problems"]
    assert problem["name"] == "broken" and problem["origin"] == "path"
    assert f"{bad}, line 1, column {TRAILING_COMMA}" in problem["error"]
    (shadow,) = data["shadowed"]
    assert shadow["name"] == "eng" and shadow["origin"] == "packaged"
    assert shadow["shadowed_by"] == str(env_dir / "eng.json")
    table = run("list")
    assert table.exit_code == 0
    assert "broken" in table.stdout and "not usable" in table.stdout
    assert "is shadowed by" in table.stdout
    shown = json.loads(run("show", "mine", "--json").stdout)
    assert shown["words"] == ["YAK", "ZEBRA"]
    one_line_error(run("show", "broken"), f"line 1, column {TRAILING_COMMA}")


def test_show_json_schema_and_limit() -> None:
    result = run("show", "ind", "--json", "--limit", "3")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert set(data) == {
        "name",
        "title",
        "language",
        "source",
        "license",
        "alphabet",
        "letters",
        "path",
        "count",
        "filters",
        "format",
        "entries",
        "duplicates",
        "skipped_count",
        "skipped",
        "notes",
        "words",
    }
    assert data["name"] == "ind" and data["language"] == "id"
    assert data["words"] == ["AB", "ABA", "ABAD"]  # single letters are letters' names
    assert data["count"] == len(lacak.Registry().dictionary("ind"))
    assert data["filters"][0].startswith("read ") and "left out 534: hyphenated" in data["filters"]
    assert "CC-BY-NC-SA-3.0" in data["license"] and "Kateglo" in data["source"]
    everything = json.loads(run("show", "ind", "--json", "--limit", "0").stdout)
    assert len(everything["words"]) == data["count"]


def test_show_text_and_a_file_path(isolated_folders: Path) -> None:
    path = write(isolated_folders / "loose.json", ["kata", "kata-kata", "Kata"])
    result = run("show", str(path))
    assert result.exit_code == 0
    assert "words:     1" in result.stdout
    assert "skipped:   'kata-kata': contains '-', which is not a letter" in result.stdout
    assert "1 duplicate (list format)" in result.stdout


def test_show_unknown_name_suggests() -> None:
    one_line_error(run("show", "engl"), "did you mean 'eng'")


def test_validate_ok_and_json(isolated_folders: Path) -> None:
    path = write(isolated_folders / "ok.json", {"alphabet": "abc", "words": ["ab", "abd", "cab"]})
    result = run("validate", str(path))
    assert result.exit_code == 0
    assert result.stdout.startswith(f"{path}: valid, 2 words\n")
    assert "'abd': contains 'D', which is outside the alphabet" in result.stdout
    data = json.loads(run("validate", str(path), "--json").stdout)
    assert data["valid"] is True and data["count"] == 2 and data["skipped_count"] == 1
    assert data["skipped"] == [
        {"word": "abd", "reason": "contains 'D', which is outside the alphabet"}
    ]
    assert data["alphabet"] == "ABC" and data["format"] == "object"


def test_validate_strict(isolated_folders: Path) -> None:
    path = write(isolated_folders / "ok.json", ["ab", "a b"])
    one_line_error(run("validate", str(path), "--strict"), "1 word would be skipped")
    clean = write(isolated_folders / "clean.json", ["ab"])
    assert run("validate", str(clean), "--strict").exit_code == 0


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ('[\n"a",\n"b"', "line 3, column 4: not valid JSON"),
        ('{"A": [1]}', "line 1, column 8: word 0 of the list under 'A' must be a string"),
        ("", "the file is empty"),
        ("[]", "the file contains no words"),
    ],
)
def test_validate_malformed_is_one_line_exit_2(
    isolated_folders: Path, text: str, fragment: str
) -> None:
    path = isolated_folders / "bad.json"
    path.write_text(text)
    result = run("validate", str(path))
    one_line_error(result, fragment)
    assert str(path) in result.stderr


@pytest.mark.parametrize("command", ["show", "validate"])
def test_a_lone_surrogate_word_is_reported_in_json(isolated_folders: Path, command: str) -> None:
    path = isolated_folders / "sur.json"
    path.write_text('["\\ud800ok", "fine"]', encoding="utf-8")
    result = run(command, str(path), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["skipped"] == [
        {"word": "\\ud800ok", "reason": "contains U+D800, which is not a letter"}
    ]
    assert data["count"] == 1


def test_validate_missing_file(isolated_folders: Path) -> None:
    one_line_error(run("validate", str(isolated_folders / "nope.json")), "cannot be read")


@pytest.mark.parametrize("fmt", ["json", "seed", "list"])
def test_export_round_trips(isolated_folders: Path, fmt: str) -> None:
    target = isolated_folders / f"out-{fmt}.json"
    result = run("export", "ind", "--format", fmt, "-o", str(target))
    assert result.exit_code == 0, result.output
    original = lacak.Registry().dictionary("ind")
    again = lacak.Dictionary.from_file(target, "ind")
    assert again.words == original.words
    if fmt == "json":
        assert again == original and again.license == original.license


def test_export_txt_to_stdout() -> None:
    result = run("export", "eng", "--format", "txt")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines == list(lacak.Registry().dictionary("eng").words)


def test_export_bad_format_is_a_usage_error() -> None:
    result = run("export", "eng", "--format", "yaml")
    assert result.exit_code == 2 and result.stderr.count("\n") == 1


def test_help_lists_the_commands() -> None:
    result = run("--help")
    for command in ("list", "show", "validate", "export"):
        assert command in result.stdout


@pytest.mark.parametrize("stem", ["  ", " eng", "eng ", "\t"])
def test_a_file_name_with_surrounding_space_is_a_problem_not_a_plugin_failure(
    isolated_folders: Path, monkeypatch: pytest.MonkeyPatch, stem: str
) -> None:
    folder = isolated_folders / "words"
    write(folder / f"{stem}.json", ["cat"])
    write(folder / "zoo.json", ["yak"])
    monkeypatch.setenv("LACAK_DICTIONARY_PATH", str(folder))
    result = run("list", "--json")
    assert result.exit_code == 0, result.output
    assert "warning" not in result.stderr
    data = json.loads(result.stdout)
    names = [row["name"] for row in data["dictionaries"]]
    assert names == sorted([*PACKAGED, "zoo"])
    (problem,) = data["problems"]
    assert problem["name"] == stem and problem["path"] == str(folder / f"{stem}.json")
    assert "cannot name a dictionary" in problem["error"]
    text = run("list")
    assert text.exit_code == 0 and "warning" not in text.stderr
    assert f"{stem!r}: " in text.stdout
    assert "cannot name a dictionary" in " ".join(text.stdout.split())
    assert run("show", "zoo").exit_code == 0


@pytest.mark.skipif(os.name != "posix", reason="file names are bytes on POSIX only")
def test_a_file_name_that_is_not_utf8_is_a_problem_and_json_stays_utf8(
    isolated_folders: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = isolated_folders / "words"
    folder.mkdir()
    raw = os.path.join(os.fsencode(folder), b"caf\xe9.json")
    try:
        with open(raw, "wb") as handle:
            handle.write(b'["cat"]')
    except OSError:  # pragma: no cover - a file system that insists on UTF-8
        pytest.skip("the file system refuses non-UTF-8 names")
    write(folder / "ok.json", ["cat"])
    monkeypatch.setenv("LACAK_DICTIONARY_PATH", str(folder))
    result = run("list", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout_bytes.decode("utf-8"))
    assert "ok" in [row["name"] for row in data["dictionaries"]]
    (problem,) = data["problems"]
    assert problem["name"] == "caf\\xe9"
    assert problem["path"] == f"{folder}/caf\\xe9.json"
    assert "not UTF-8 text" in problem["error"]
    assert "caf\\xe9" in run("list").stdout


@pytest.mark.parametrize("command", ["show", "export"])
@pytest.mark.parametrize("argument", ["nope/words.json", "words.json", "nope/words"])
def test_a_missing_file_says_it_cannot_be_read(
    isolated_folders: Path, command: str, argument: str
) -> None:
    path = isolated_folders / argument
    result = run(command, str(path))
    one_line_error(result, f"{path}: cannot be read: No such file or directory")
    assert "unknown dictionary" not in result.stderr


def stdin(*args: str, input: str) -> Any:
    return CliRunner().invoke(make_cli(lacak.Registry()), ["dictionaries", *args], input=input)


def test_every_command_reads_standard_input_for_dash() -> None:
    words = json.dumps({"name": "mini", "language": "id", "words": ["kata", "Kata", "a-b"]})
    valid = stdin("validate", "-", input=words)
    assert valid.exit_code == 0, valid.output
    assert valid.stdout.startswith("<stdin>: valid, 1 word\n")
    assert "1 duplicate" in valid.stdout and "'a-b'" in valid.stdout
    data = json.loads(stdin("validate", "-", "--json", input=words).stdout)
    assert data["file"] == "<stdin>" and data["name"] == "mini" and data["count"] == 1
    shown = json.loads(stdin("show", "-", "--json", input=words).stdout)
    assert shown["name"] == "mini" and shown["words"] == ["KATA"] and shown["path"] is None
    exported = stdin("export", "-", "-f", "txt", input=words)
    assert exported.exit_code == 0 and exported.stdout == "KATA\n"
    plain = json.loads(stdin("show", "-", "--json", input='["zebra"]').stdout)
    assert plain["name"] == "dictionary" and plain["words"] == ["ZEBRA"]
    bad = stdin("validate", "-", input='{"words": ["a",]}')
    one_line_error(bad, f"<stdin>, line 1, column {TRAILING_COMMA}")


def test_export_has_json_and_follows_the_output_suffix(isolated_folders: Path) -> None:
    as_json = run("export", "ind", "--json")
    assert as_json.exit_code == 0
    assert json.loads(as_json.stdout) == json.loads(run("export", "ind", "-f", "json").stdout)
    assert (
        lacak.Dictionary.from_json(as_json.stdout).words == lacak.Registry().dictionary("ind").words
    )
    text = isolated_folders / "words.txt"
    wrote = run("export", "ind", "-o", str(text))
    assert wrote.exit_code == 0
    count = len(lacak.Registry().dictionary("ind"))
    assert wrote.stderr == f"wrote {count:,} words to {text}\n"
    assert text.read_text().splitlines() == list(lacak.Registry().dictionary("ind").words)
    seed = isolated_folders / "seed.json"
    assert run("export", "ind", "-f", "seed", "-o", str(seed)).exit_code == 0
    assert set(json.loads(seed.read_text())) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    for args, fragment in [
        (["-f", "txt", "-o", str(isolated_folders / "x.json")], "-f txt contradicts -o"),
        (["-f", "seed", "-o", str(text)], "-f seed contradicts -o"),
        (["--json", "-f", "txt"], "--json prints JSON; it cannot go with -f txt"),
    ]:
        one_line_error(run("export", "ind", *args), fragment)
    assert not (isolated_folders / "x.json").exists()


def test_list_counts_no_list_too_large_to_read_quickly(isolated_folders: Path, monkeypatch) -> None:
    """Issue 23: ``list`` with a 100 MB drop-in list took 20.8 s and 2.3 GB, loading it to
    count it. A file over ``COUNT_UP_TO`` bytes is listed from its head, uncounted."""
    from lacak_dictionaries import cli as dictionaries_cli

    folder = isolated_folders / "data" / "dictionaries"
    write(folder / "small.json", ["abad", "abadi"])
    big = write(folder / "big.json", {"language": "id", "title": "Big", "words": ["kata"] * 400})
    monkeypatch.setattr(dictionaries_cli, "COUNT_UP_TO", big.stat().st_size - 1)
    loaded: list[str] = []
    real = lacak.Dictionary.from_file

    def spy(path, name=None, **options):
        loaded.append(Path(path).name)
        return real(path, name, **options)

    monkeypatch.setattr(lacak.Dictionary, "from_file", spy)
    rows = {r["name"]: r for r in json.loads(run("list", "--json").stdout)["dictionaries"]}
    assert loaded == ["small.json"]
    assert rows["small"]["words"] == 2
    assert rows["big"]["words"] is None and rows["big"]["title"] == "Big"
    assert rows["big"]["language"] == "id" and rows["big"]["origin"] == "user"
    table = run("list")
    assert table.exit_code == 0
    (line,) = [line for line in table.stdout.splitlines() if line.startswith("big ")]
    assert " ? " in line
    assert "big: not counted (0 MB); 'lacak dictionaries show big' reads and counts it" in (
        table.stdout
    )
