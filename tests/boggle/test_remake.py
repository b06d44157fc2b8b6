"""Every shaken board records what makes it again (issue 25, item 4): its dice (the
generator), size, seed and options (the dictionary of random letters), in its JSON, its
caption and batch records; shaken again from its JSON (``lacak_boggle.remake.remake``,
``lacak boggle shake --from``), it is the same board, byte for byte."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import lacak
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak.cli import make_cli
from lacak.options import Named
from lacak.output import dumps
from lacak.testing import one_line_error
from lacak.testing import strategies as lst
from lacak_boggle import Board, shake
from lacak_boggle.remake import made_with, remake

REGISTRY = lacak.default_registry()
GENERATORS = REGISTRY.generators("boggle")
DICTIONARIES = sorted(REGISTRY.dictionaries())
CLI = make_cli()


@st.composite
def generated(draw: st.DrawFn) -> tuple[str, tuple[int, int] | None, int, dict[str, Any]]:
    """A Boggle generator (every dice set and random letters), a size (a dice set's
    tray, given or not; any for random letters), a seed and options drawn from what
    each accepts."""
    name = draw(st.sampled_from(sorted(GENERATORS)), label="generator")
    generator = GENERATORS[name]
    tray = generator.metadata.get("rows"), generator.metadata.get("cols")
    if None not in tray:
        size = draw(st.sampled_from([None, tray]), label="size")
    else:
        size = draw(st.tuples(st.integers(1, 7), st.integers(1, 7)), label="size")
    options: dict[str, Any] = {}
    for key, accepts in generator.accepts.items():
        named = isinstance(accepts, Named) and accepts.catalogue == "dictionaries"
        if named and draw(st.booleans(), label=f"give {key}"):
            options[key] = draw(st.sampled_from(DICTIONARIES), label=key)
    return name, size, draw(lst.seeds(), label="seed"), options


@settings(max_examples=80, deadline=None)
@given(made=generated())
def test_a_board_shaken_again_from_its_json_is_the_same_bytes(
    made: tuple[str, tuple[int, int] | None, int, dict[str, Any]],
) -> None:
    name, size, seed, options = made
    board = lacak.generate("boggle", name, size, seed=seed, **options)
    text = dumps(board.to_dict())
    saved = json.loads(text)
    defaults = GENERATORS[name].options
    taken = {key: options.get(key, default) for key, default in defaults.items()}
    if "dictionary" in taken and taken["dictionary"] is None:  # the default, by its name
        taken["dictionary"] = "eng"
    assert (saved["dice"], saved["seed"], saved["options"]) == (name, seed, taken)
    assert saved["size"] == f"{board.rows}x{board.cols}" and Board.from_rows(saved["board"]) == board
    again = remake(lacak.parse("boggle", text))
    assert dumps(again.to_dict()) == text
    caption = made_with(board)
    assert caption.startswith(f"{name} {saved['size']}, seed {seed}")
    for key, value in taken.items():
        assert f"{key}={value}" in caption


def _shake(*args: str, stdin: str | None = None, cli: Any = CLI) -> Any:
    return CliRunner().invoke(cli, ["boggle", "shake", *args], input=stdin)


@settings(max_examples=40, deadline=None)
@given(
    dice=st.sampled_from(sorted(GENERATORS)),
    seed=st.integers(0, 2**40),
    shape=st.tuples(st.integers(1, 6), st.integers(1, 6)),
    dictionary=st.none() | st.sampled_from(DICTIONARIES),
)
def test_the_command_shakes_a_saved_board_again(
    dice: str, seed: int, shape: tuple[int, int], dictionary: str | None
) -> None:
    args = ["--dice", dice, "--seed", str(seed)]
    if dice == "random":
        args += ["--size", f"{shape[0]}x{shape[1]}"]
        args += ["-d", dictionary] if dictionary is not None else []
    made = _shake(*args, "--json")
    assert made.exit_code == 0, made.output
    again = _shake("--from", "-", "--json", stdin=made.stdout)
    assert again.exit_code == 0, again.output
    assert again.stdout == made.stdout
    for shown in (["-f", "text"], ["-f", "svg"]):
        assert _shake("--from", "-", *shown, stdin=made.stdout).stdout == _shake(*args, *shown).stdout
    caption = made_with(Board.from_string(made.stdout))
    assert caption in _shake(*args).stdout and caption in _shake(*args, "-f", "svg").stdout
    assert (f"dictionary={dictionary or 'eng'}" in caption) == (dice == "random")


def test_a_dictionary_file_is_recorded_by_its_path(tmp_path: Path) -> None:
    words = tmp_path / "tiny.json"
    words.write_text(json.dumps(["QUIZ", "JAZZ", "ZOO", "ZOOM"]))
    made = _shake("--dice", "random", "--size", "3x3", "-d", str(words), "--seed", "9", "--json")
    assert made.exit_code == 0, made.output
    assert json.loads(made.stdout)["options"] == {"dictionary": str(words)}
    assert set("".join(json.loads(made.stdout)["board"][0])) <= set("QUIZJAZOM")
    saved = tmp_path / "board.json"
    saved.write_text(made.stdout)
    assert _shake("--from", str(saved), "--json").stdout == made.stdout


def test_the_default_dictionary_is_recorded_by_its_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LACAK_BOGGLE_DICTIONARY", "ind")
    made = _shake("--dice", "random", "--seed", "4", "--json")
    assert json.loads(made.stdout)["options"] == {"dictionary": "ind"}
    monkeypatch.delenv("LACAK_BOGGLE_DICTIONARY")
    assert _shake("--from", "-", "--json", stdin=made.stdout).stdout == made.stdout


def test_batch_records_shake_their_boards_again() -> None:
    done = CliRunner().invoke(CLI, ["batch", "boggle", "-n", "3", "--seed", "4", "-w", "1",
                                    "--dice", "random", "--size", "2x3", "-O",
                                    "dictionary=ind", "--no-solve"])  # fmt: skip
    assert done.exit_code == 0, done.output
    for line in done.stdout.splitlines():
        record = json.loads(line)
        instance = record["instance"]
        assert (instance["dice"], instance["size"], instance["seed"], instance["options"]) == (
            "random", "2x3", record["seed"], {"dictionary": "ind"})  # fmt: skip
        again = _shake("--from", "-", "--json", stdin=json.dumps(instance))
        assert json.loads(again.stdout) == instance


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seed", "4"], "not with --seed"),
        (["--dice", "big5", "--size", "5x5"], "not with --dice, --size"),
        (["-d", "eng"], "not with -d"),
    ],
)
def test_from_gives_the_dice_size_seed_and_dictionary(
    tmp_path: Path, args: list[str], message: str
) -> None:
    saved = tmp_path / "board.json"
    saved.write_text(dumps(shake("classic4", seed=1).to_dict()))
    one_line_error(_shake("--from", str(saved), *args), message)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"board": [["A"]]}', "cannot be shaken again"),
        ('{"board": [["A"]], "dice": "classic4"}', "cannot be shaken again"),
        ('{"board": [["A"]], "seed": 2}', "cannot be shaken again"),
        ('{"board": ', "not JSON"),
        ("CAT/DOG", "holds no JSON object"),
        ('{"board": [["A"]], "dice": "classic4", "seed": -2}', "'seed' must be a whole"),
        ('{"board": [["A"]], "dice": "classic4", "seed": 1.5}', "'seed' must be a whole"),
        ('{"board": [["A"]], "dice": ["classic4"], "seed": 1}', "'dice' must be text"),
        ('{"board": [["A"]], "dice": "random", "seed": 1, "options": "eng"}', "'options'"),
        ('{"board": [["A"]], "dice": "random", "seed": 1, "options": {"dictionary": null}}',
         "option 'dictionary' must be"),
        ('{"board": [["A"]], "dice": "classic5", "seed": 1}', "classic4"),
        ('{"board": [["A"]], "dice": "random", "seed": 1, "options": {"dictionary": "engg"}}',
         "eng"),
        ('{"board": [["A"]], "dice": "classic4", "seed": 1, "options": {"dictionary": "eng"}}',
         "dictionary"),
        ('{"board": [["A"]], "dice": "big5", "seed": 1}', "fill a 5x5 tray"),
    ],
)
def test_a_file_that_cannot_be_shaken_again_is_one_line(text: str, message: str) -> None:
    one_line_error(_shake("--from", "-", stdin=text), message)


def test_a_board_that_records_no_dice_cannot_be_shaken_again() -> None:
    with pytest.raises(lacak.InvalidPuzzleError, match="cannot be shaken again"):
        remake(Board.from_string("CAT/DOG"))
