"""``lacak boggle ...`` end to end with click's CliRunner."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from typing import Any

import click
import lacak
import lacak_boggle
import pytest
from click.testing import CliRunner
from lacak.cli import make_cli
from lacak.results import COMMON_KEYS
from lacak.testing import one_line_error
from lacak_boggle import Board, check, shake, solve_board
from lacak_boggle.engines import compiled_available

from .conftest import TINY_WORDS, timeless

REFERENCE = "AHORJ/QQUOI/SSCPD/MUPSM/AUULI"


class _TinyDictionaryPlugin:
    @lacak.hookimpl
    def register_dictionaries(self, register):
        register(
            lacak.DictionarySource(
                name="tiny",
                language="en",
                load=lambda: lacak.Dictionary(
                    name="tiny",
                    language="en",
                    words=TINY_WORDS,
                    alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                ),
            )
        )


@pytest.fixture(scope="module")
def cli():
    return make_cli()


@pytest.fixture(scope="module")
def tiny_cli():
    registry = lacak.Registry(entry_points=False)
    registry.add_plugin(lacak_boggle, "boggle")
    registry.add_plugin(_TinyDictionaryPlugin(), "tiny")
    return make_cli(registry)


def run(cli, *args: str, input: str | None = None):
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


def test_solve_json_schema(cli) -> None:
    result = run(
        cli, "boggle", "solve", REFERENCE, "--dictionary", "ind", "--min-length", "2", "--json"
    )
    assert result.exit_code == 0, result.output
    whole = json.loads(result.output)
    # the common shape of every kind's result, and the Boggle answer under "boggle"
    assert list(whole) == [*COMMON_KEYS, "boggle"]
    assert (whole["kind"], whole["strategy"], whole["heuristic"]) == ("boggle", "boggle", None)
    assert whole["found"] is True and whole["stopped"] == "goal"
    data = whole["boggle"]
    assert set(data) == {
        "board", "dictionary", "min_length", "complete", "count", "score", "best", "words",
    }  # fmt: skip
    assert data["board"][1] == ["Q", "Q", "U", "O", "I"]
    assert data["dictionary"] == "ind" and data["min_length"] == 2 and data["complete"] is True
    assert data["count"] == len(data["words"]) and data["score"] == sum(
        w["score"] for w in data["words"]
    )
    words = {w["word"]: w for w in data["words"]}
    assert {"AH", "AHO", "HUS"} <= set(words)
    assert words["AHO"] == {"word": "AHO", "path": [[0, 0], [0, 1], [0, 2]], "score": 1}
    expected = solve_board(REFERENCE, "ind", min_length=2)
    assert [w["word"] for w in data["words"]] == expected.word_list
    # the common keys describe the best word: its cells, and the letters of each step
    best = expected.best()
    assert best is not None and data["best"] == best.word
    assert whole["actions"] == [list(cell) for cell in best.path]
    assert whole["length"] == len(best.path) and whole["states"][-1] == best.word
    assert whole["states"][0] == "·"
    assert '"path": [[0, 0], [0, 1], [0, 2]]' in result.output  # short arrays on one line


def test_solve_text_and_svg(cli, tmp_path) -> None:
    svg = tmp_path / "board.svg"
    result = run(cli, "boggle", "solve", "CAT/OAT", "-o", str(svg))
    assert result.exit_code == 0, result.output
    root = ET.fromstring(svg.read_text())
    assert root.tag.endswith("svg")
    assert svg.read_text().count("<polyline") == 1 and "COAT (1 point)" in svg.read_text()
    assert result.stdout == "" and result.stderr == f"wrote {svg} (boggle svg)\n"
    text = run(cli, "boggle", "solve", "CAT/OAT")
    assert text.exit_code == 0
    assert "5 words, 5 points" in text.output and "COAT" in text.output
    assert "best: COAT (1)" in text.output
    same = run(cli, "boggle", "solve", "CAT/OAT", "-f", "svg")
    assert same.stdout.strip() == svg.read_text().strip()
    plain = tmp_path / "board.txt"
    assert run(cli, "boggle", "solve", "CAT/OAT", "-o", str(plain)).exit_code == 0
    assert "5 words, 5 points" in plain.read_text() and "COAT" in plain.read_text()
    one = run(cli, "boggle", "solve", "CAT", "-d", "eng")
    assert "1 word, 1 point (dictionary eng, at least 3 letters)" in one.output


def test_solve_all_paths(cli) -> None:
    data = json.loads(
        run(cli, "boggle", "solve", "AA/AT", "-d", "eng", "-m", "2", "--all-paths", "--json").output
    )["boggle"]
    at = next(w for w in data["words"] if w["word"] == "AT")
    assert len(at["paths"]) == 3 and at["path"] == at["paths"][0]
    text = run(cli, "boggle", "solve", "AA/AT", "-m", "2", "--all-paths").output
    assert "[[0, 0], [1, 1]]" in text


def test_solve_reads_stdin(cli) -> None:
    result = run(cli, "boggle", "solve", "-", "--json", input="CAT\nOAT\n")
    assert json.loads(result.output)["boggle"]["board"] == [["C", "A", "T"], ["O", "A", "T"]]


def test_solve_with_a_registry_dictionary_and_a_file(tiny_cli, tmp_path) -> None:
    data = json.loads(run(tiny_cli, "boggle", "solve", "CAT/OAT", "-d", "tiny", "--json").output)
    data = data["boggle"]
    assert [w["word"] for w in data["words"]] == ["CAT", "COAT", "TACO"]
    path = tmp_path / "animals.json"
    path.write_text(
        json.dumps({"alphabet": "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "words": ["cat", "coat"]})
    )
    data = json.loads(run(tiny_cli, "boggle", "solve", "CAT/OAT", "-d", str(path), "--json").output)
    assert data["boggle"]["dictionary"] == "animals" and data["boggle"]["count"] == 2


#: Twelve KBBI root words in the reference tutorial's format (lists keyed by first
#: letter): its sample entries, and the words its RESULT shows for its board.
KBBI_SEED = {
    "A": ["ABAD", "ABADI", "ABAH", "ABAI", "ABAL", "AH", "AHO"],
    "B": ["BABA", "BABAD", "BABAH", "BABAK"],
    "H": ["HUS"],
}


def test_a_twelve_word_list_solves_any_board(cli, tmp_path) -> None:
    """Issue 13: a small user list in the reference's format used to refuse most boards
    ("tile 'R' ... outside the alphabet"); a tile no word uses now starts no word."""
    from . import reference

    path = tmp_path / "ind_seed.json"
    path.write_text(json.dumps(KBBI_SEED), encoding="utf-8")
    words = sorted(w for group in KBBI_SEED.values() for w in group)
    assert len(words) == 12
    boards = [REFERENCE, "CAÑ/XYZ", *(shake("big5", seed=s).to_text() for s in range(4)),
              *(shake("classic4", seed=s).to_text() for s in range(4))]  # fmt: skip
    for text in boards:
        result = run(cli, "boggle", "solve", text, "-d", str(path), "-m", "2", "--json")
        tiles = Board.from_string(text).to_rows()
        expected = reference.solve(tiles, words, 2)
        assert result.exit_code == (0 if expected else 1), result.output  # 1: no word found
        data = json.loads(result.output)["boggle"]
        assert [w["word"] for w in data["words"]] == sorted(expected)
        assert [[tuple(c) for c in w["path"]] for w in data["words"]] == [
            list(expected[w][0]) for w in sorted(expected)
        ]
    first = json.loads(run(cli, "boggle", "solve", REFERENCE, "-d", str(path), "-m", "2",
                           "--json").output)["boggle"]  # fmt: skip
    assert [w["word"] for w in first["words"]] == ["AH", "AHO", "HUS"]
    # a packaged list takes a board with letters outside its alphabet too
    eng = json.loads(run(cli, "boggle", "solve", "CAÑ/TAT", "--json").output)["boggle"]
    expected = reference.solve([["C", "A", "Ñ"], ["T", "A", "T"]], lacak.dictionary("eng").words, 3)
    assert [w["word"] for w in eng["words"]] == sorted(expected) and "CAT" in expected


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["boggle", "solve", "AB/C"], "ragged board"),
        (["boggle", "solve", "A1"], "not made of letters"),
        (["boggle", "solve", ""], "empty"),
        (["boggle", "solve", "CAT", "-d", "klingon"], "unknown dictionary 'klingon'"),
        (["boggle", "solve", "CAT", "-d", "/no/such.json"], "does not exist"),
        (["boggle", "solve", "CAT", "--min-length", "0"], "min_length must be a positive"),
        (["boggle", "solve", "CAT", "--min-length", "x"], "min_length must be a whole number"),
        (["boggle", "solve", "CAT", "-s", "nosuch"], "unknown strategy 'nosuch' for boggle"),
        (["boggle", "solve", "CAT", "-s", "bfs", "--all-paths"], "takes no option --all-paths"),
        (["boggle", "solve", "CAT", "-f", "gif"], "'gif' is not one of"),
        (["boggle", "solve", "CAT", "-f", "json", "-o", "x.svg"], "-f json contradicts -o x.svg"),
        (["boggle", "check", "CAT", "CAT", "-f", "text", "-o", "x.svg"], "contradicts"),
        (["boggle", "shake", "--dice", "big5", "--size", "4x4"], "fill a 5x5 tray, not --size"),
        (["boggle", "check", "CAT", "C4T"], "must be letters"),
        (["boggle", "shake", "--seed", "-3"], "--seed"),
        (["boggle", "shake", "--dice", "random", "--size", "0x3"], "--size"),
        (["boggle", "solve-many", "/no/such/file"], "cannot read"),
        (["boggle", "solve-many", "-", "--workers", "-1"], "--workers"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(cli, args: list[str], fragment: str) -> None:
    one_line_error(CliRunner().invoke(cli, args), fragment)


def test_shake_is_reproducible(cli) -> None:
    first = run(cli, "boggle", "shake", "--seed", "42", "--json")
    again = run(cli, "boggle", "shake", "--seed", "42", "--json")
    assert first.exit_code == 0 and first.output == again.output
    data = json.loads(first.output)
    assert data == {
        "dice": "classic4",
        "size": "4x4",
        "seed": 42,
        "options": {},
        "board": shake("classic4", 42).to_rows(),
        "text": shake("classic4", 42).to_text(),
    }
    assert list(data) == ["dice", "size", "seed", "options", "board", "text"]
    big = json.loads(run(cli, "boggle", "shake", "--dice", "big5", "--seed", "1", "--json").output)
    assert len(big["board"]) == 5
    text = run(cli, "boggle", "shake", "--dice", "superbig6", "--seed", "11").output
    assert "seed 11" in text and shake("superbig6", 11).to_text() in text


def test_shake_without_seed_reports_it(cli) -> None:
    data = json.loads(run(cli, "boggle", "shake", "--json").output)
    assert Board.from_rows(data["board"]) == shake("classic4", data["seed"])


def test_shake_random_letters(cli) -> None:
    data = json.loads(
        run(
            cli, "boggle", "shake", "--dice", "random", "--size", "3x5", "--seed", "8", "--json"
        ).output
    )
    assert len(data["board"]) == 3 and len(data["board"][0]) == 5
    assert data == json.loads(
        run(
            cli, "boggle", "shake", "--dice", "random", "--size", "3x5", "--seed", "8", "--json"
        ).output
    )


def test_check(cli, tmp_path) -> None:
    valid = run(cli, "boggle", "check", "CAT/OAT", "coat", "--json")
    assert valid.exit_code == 0
    data = json.loads(valid.output)
    assert data == check("CAT/OAT", "COAT", "eng").to_dict()
    # C O A T: of the two A tiles next to O, the first in row-major order
    assert data["valid"] and data["path"] == [[0, 0], [1, 0], [0, 1], [0, 2]]
    missing = run(cli, "boggle", "check", "CAT/OAT", "dog")
    assert missing.exit_code == 1
    assert "not on the board" in missing.output and "does not count" in missing.output
    short = run(cli, "boggle", "check", "CAT/OAT", "at")
    assert short.exit_code == 1 and "shorter than 3 letters" in short.output
    svg = tmp_path / "check.svg"
    assert run(cli, "boggle", "check", "CAT/OAT", "taco", "-o", str(svg)).exit_code == 0
    assert ET.fromstring(svg.read_text()) is not None and "TACO: valid" in svg.read_text()
    drawn = run(cli, "boggle", "check", "CAT/OAT", "taco", "-f", "svg")
    assert drawn.stdout.strip() == svg.read_text().strip()
    assert "valid, 1 point" in run(cli, "boggle", "check", "CAT/OAT", "taco").output
    piped = run(cli, "boggle", "check", "-", "coat", "--json", input="CAT/OAT\n")
    assert json.loads(piped.output) == data


def test_dice_listing(cli) -> None:
    data = json.loads(run(cli, "boggle", "dice", "--json").output)["dice_sets"]
    assert [d["name"] for d in data] == ["classic4", "classic4-1976", "big5", "superbig6"]
    assert ["H", "I", "M", "N", "U", "QU"] in data[0]["dice"]
    text = run(cli, "boggle", "dice").output
    assert "HIMNUQu" in text and "AnErHeInQuTh" in text


def test_solve_many(cli, tmp_path) -> None:
    boards = [shake("classic4", s).to_text() for s in range(6)]
    source = tmp_path / "boards.txt"
    source.write_text("\n".join(boards) + "\n\n")
    result = run(cli, "boggle", "solve-many", str(source), "--json")
    lines = result.output.strip().splitlines()
    assert len(lines) == 6
    for text, line in zip(boards, lines, strict=True):
        record = json.loads(line)
        assert list(record) == [*COMMON_KEYS, "boggle"]  # the shape of solve --json
        expected = solve_board(text, "eng").to_dict()
        assert timeless(record, engine=True) == timeless(expected, engine=True)
    first = solve_board(boards[0], "eng")
    for engine in ["dfs", "numpy"] + (["numba"] if compiled_available() else []):
        plain = run(cli, "boggle", "solve-many", "--engine", engine, input="\n".join(boards))
        assert plain.output.splitlines()[0] == f"{first.count}\t{first.score}\t{boards[0]}"
    windows = tmp_path / "crlf.txt"
    windows.write_bytes(("\r\n".join(boards) + "\r\n").encode())
    same = run(cli, "boggle", "solve-many", str(windows), "--json")
    assert [timeless(json.loads(line)) for line in same.output.strip().splitlines()] == [
        timeless(json.loads(line)) for line in lines
    ]


def test_solve_many_prints_each_board_in_its_canonical_text(cli) -> None:
    lines = ["cat/dog", "C A T / D O Qu", "CAT/DOG", "AQuE/TH#", "C,A,T/D,O,G"]
    for engine in ["dfs", "numpy"] + (["numba"] if compiled_available() else []):
        out = run(cli, "boggle", "solve-many", "--engine", engine, input="\n".join(lines))
        expected = []
        for line in lines:
            result = solve_board(line, "eng")
            expected.append(f"{result.count}\t{result.score}\t{result.board.to_text()}")
        assert out.output.splitlines() == expected
        assert out.output.splitlines()[1].endswith("\tC A T / D O Qu")


def test_solve_many_reports_a_bad_board_and_goes_on(cli) -> None:
    good = [shake("classic4", s).to_text() for s in range(3)]
    lines = [good[0], "CA/T", "", good[1], "C1T", good[2]]
    runner = CliRunner()
    plain = runner.invoke(cli, ["boggle", "solve-many", "-"], input="\n".join(lines))
    assert plain.exit_code == 2
    out = plain.stdout.splitlines()
    assert len(out) == 5  # one record per board, the blank line skipped
    for k, text in ((0, good[0]), (2, good[1]), (4, good[2])):
        result = solve_board(text, "eng")
        assert out[k] == f"{result.count}\t{result.score}\t{text}"
    assert out[1].startswith("error\tboard 1: ragged") and out[1].endswith("\tCA/T")
    assert out[3].startswith("error\tboard 3: ") and out[3].endswith("\tC1T")
    assert plain.stderr == (
        "Error: 2 of 5 boards could not be solved (line 2, 5); their records say why\n"
    )
    as_json = runner.invoke(cli, ["boggle", "solve-many", "-", "--json"], input="\n".join(lines))
    assert as_json.exit_code == 2
    records = [json.loads(line) for line in as_json.stdout.splitlines()]
    expected = solve_board(good[0], "eng").to_dict()
    assert timeless(records[0], engine=True) == timeless(expected, engine=True)
    assert records[1]["board"] == "CA/T" and records[1]["error"]["type"] == "InvalidPuzzleError"
    assert records[1]["error"]["message"].startswith("board 1: ragged")
    assert set(records[3]) == {"board", "error"} and records[4]["boggle"]["count"] > 0
    fine = runner.invoke(cli, ["boggle", "solve-many", "-"], input="\n".join(good))
    assert fine.exit_code == 0 and fine.stderr == ""


def test_input_that_is_not_utf8_is_one_line(cli, tmp_path) -> None:
    binary = tmp_path / "boards.txt"
    binary.write_bytes(b"CAT/DOG\n\xff\xfe\n")
    line = one_line_error(CliRunner().invoke(cli, ["boggle", "solve-many", str(binary)]))
    assert line == f"Error: {binary} is not a UTF-8 text file"
    piped = CliRunner().invoke(cli, ["boggle", "solve", "-"], input=b"CA\xff")
    assert one_line_error(piped) == "Error: standard input is not a UTF-8 text file"


def test_plugins_lists_boggle(cli) -> None:
    data = json.loads(run(cli, "plugins", "--json").output)
    boggle = next(p for p in data["plugins"] if p["name"] == "boggle")
    assert "register_commands" in boggle["hooks"]
    assert "boggle" in boggle["registered"]["register_searchers"]


# -- the one grammar ------------------------------------------------------------------------


def test_the_library_and_the_command_choose_and_solve_the_same(cli) -> None:
    for args, options in [
        ([], {}),
        (["--dictionary", "ind", "--min-length", "2"], {"dictionary": "ind", "min_length": 2}),
    ]:
        board = lacak.parse("boggle", REFERENCE, **options)
        choice = lacak.choose(board)
        assert (choice.searcher.name, choice.heuristic, choice.strategy_from) == (
            "boggle",
            None,
            "kind",
        )
        library = lacak.solve(board)
        result = run(cli, "boggle", "solve", REFERENCE, *args, "--json")
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        assert (data["strategy"], data["heuristic"]) == (library.strategy, None)
        assert timeless(data) == timeless(json.loads(json.dumps(library.to_dict(board))))
        assert data["boggle"]["words"] == library.to_dict()["boggle"]["words"]


def test_exit_statuses(cli, tmp_path) -> None:
    assert run(cli, "boggle", "solve", "CAT/OAT").exit_code == 0
    nothing = run(cli, "boggle", "solve", "XQ/QX", "--json")  # a board with no word
    assert nothing.exit_code == 1
    data = json.loads(nothing.stdout)
    assert data["found"] is False and data["stopped"] == "exhausted"
    assert data["boggle"]["count"] == 0 and data["boggle"]["complete"] is True
    assert nothing.stderr == ""
    text = run(cli, "boggle", "solve", "XQ/QX")
    assert text.exit_code == 1 and "0 words, 0 points" in text.stdout and "no word" in text.stdout
    cut = run(cli, "boggle", "solve", "CAT/OAT", "--max-words", "1", "--json")
    assert cut.exit_code == 1 and json.loads(cut.stdout)["stopped"] == "memory-limit"
    assert cut.stderr == (
        "note: stopped early (memory-limit: a memory limit was reached); --max-words 1 was "
        "reached; showing the 1 word found so far, the board may have more\n"
    )
    timed = run(cli, "boggle", "solve", "CAT/OAT", "--timeout", "0", "--json")
    assert timed.exit_code == 1 and json.loads(timed.stdout)["stopped"] == "time-limit"
    assert timed.stderr.startswith("note: stopped early (time-limit: --timeout 0 was reached)")
    assert "no word found so far" in timed.stderr
    assert run(cli, "boggle", "solve", "CAT/", "--json").exit_code == 2


def test_options_of_the_strategy_and_the_kind(cli, tmp_path) -> None:
    two = json.loads(run(cli, "boggle", "solve", "CAT/OAT", "-O", "max_words=2", "--json").stdout)
    assert two["boggle"]["count"] == 2 and two["stopped"] == "memory-limit"
    words = tmp_path / "a6.json"
    words.write_text(json.dumps(["A" * 6]), encoding="utf-8")
    board = ["boggle", "solve", "AAA/AAA", "-d", str(words), "--all-paths", "--json"]
    capped = run(cli, *board, "--max-paths", "5")
    assert capped.exit_code == 1
    assert len(json.loads(capped.stdout)["boggle"]["words"][0]["paths"]) == 5
    every = run(cli, *board, "--max-paths", "0")  # 0: no limit
    assert every.exit_code == 0
    paths = json.loads(every.stdout)["boggle"]["words"][0]["paths"]
    assert len(paths) == sum(len(w.paths) for w in solve_board("AAA/AAA", str(words),
                             all_paths=True, max_paths=None).words)  # fmt: skip
    # a generic strategy searches the board as a Puzzle: the word of fewest tiles
    bfs = run(cli, "boggle", "solve", "CAT/OAT", "-s", "bfs", "-d", "eng", "--json")
    assert bfs.exit_code == 0, bfs.output
    data = json.loads(bfs.stdout)
    assert data["strategy"] == "bfs" and data["length"] == 3
    assert data["boggle"]["word"] == data["states"][-1] and len(data["boggle"]["word"]) == 3
    trace = tmp_path / "tree.json"
    traced = run(cli, "boggle", "solve", "CAT/OAT", "--trace", str(trace), "-o",
                 str(tmp_path / "out.json"))  # fmt: skip
    assert traced.exit_code == 0, traced.output
    assert json.loads(trace.read_text())["nodes"][0]["state"] == "·"


def test_shake_draws_and_sizes_are_rows_by_columns(cli, tmp_path) -> None:
    svg = tmp_path / "board.svg"
    drawn = run(cli, "boggle", "shake", "--seed", "3", "-o", str(svg))
    assert drawn.exit_code == 0 and ET.fromstring(svg.read_text()) is not None
    assert "classic4 4x4, seed 3" in svg.read_text()
    wide = json.loads(
        run(cli, "boggle", "shake", "--dice", "random", "--size", "2x7", "--seed", "1",
            "--json").stdout
    )  # fmt: skip
    assert (len(wide["board"]), len(wide["board"][0])) == (2, 7)
    same = run(cli, "boggle", "shake", "--dice", "big5", "--size", "5x5", "--seed", "1", "--json")
    assert json.loads(same.stdout)["board"] == shake("big5", 1).to_rows()
    for command in ("shake", "solve"):
        assert "ROWSxCOLS" in run(cli, "boggle", command, "--help").stdout or command == "solve"
    assert "ROWSxCOLS" in run(cli, "boggle", "--help").stdout


def _commands(group: Any) -> list[tuple[str, Any]]:
    return sorted(group.commands.items())


@pytest.mark.parametrize("group", ["boggle", "dictionaries"])
def test_every_command_prints_json_and_reads_dash(cli, group: str) -> None:
    """--json on every command that prints results; '-' for every board or file argument."""
    for name, command in _commands(cli.commands[group]):
        options = {opt for param in command.params for opt in getattr(param, "opts", ())}
        assert "--json" in options, f"lacak {group} {name} has no --json"
        arguments = [p for p in command.params if isinstance(p, click.Argument)]
        for argument in arguments:
            metavar = argument.make_metavar(click.Context(command))
            if argument.name not in ("word",):
                assert "-" in (command.help or "") + metavar, (group, name, argument.name)
    board = "CAT/OAT\n"
    for args in (["solve", "-"], ["check", "-", "cat"], ["solve-many", "-"], ["solve-many"]):
        result = run(cli, "boggle", *args, "--json", input=board)
        assert result.exit_code == 0, (args, result.output)
        assert "CAT" in result.stdout
    for args in (["shake", "--seed", "1"], ["dice"]):
        assert json.loads(run(cli, "boggle", *args, "--json").stdout)


@pytest.mark.parametrize("dice", ["classic4", "big5", "superbig6"])
@pytest.mark.parametrize("seed", [0, 7])
def test_a_shaken_board_s_json_pipes_into_solve(cli, dice: str, seed: int) -> None:
    """``lacak boggle shake --json | lacak boggle solve -`` (no jq), multi-letter and
    blank tiles included: the same words as the board's text."""
    shaken = run(cli, "boggle", "shake", "--dice", dice, "--seed", str(seed), "--json")
    text = json.loads(shaken.stdout)["text"]
    piped = run(cli, "boggle", "solve", "-", "--json", input=shaken.stdout)
    direct = run(cli, "boggle", "solve", text, "--json")
    assert piped.exit_code == direct.exit_code == 0, piped.output
    assert json.loads(piped.stdout)["boggle"]["words"] == json.loads(direct.stdout)["boggle"]["words"]


@pytest.mark.parametrize(
    "text", ['{"board": ', '{"text": "CAT/DOG"}', '{"board": "CAT/DOG"}', '{"board": [[1]]}']
)
def test_json_that_is_not_a_shaken_board_is_one_clear_line(cli, text: str) -> None:
    result = CliRunner().invoke(cli, ["boggle", "solve", "-"], input=text)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1
    assert "JSON" in result.stderr
