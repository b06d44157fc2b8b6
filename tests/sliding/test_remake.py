"""Every scrambled board records what makes it again (issue 25, item 4): its generator,
size, seed, goal and options (a walk's moves), in its JSON, the line under it and batch
records; made again from its JSON (``lacak_sliding.remake.remake``, ``lacak sliding
scramble --from``), it is the same board, byte for byte."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import lacak
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak.cli import make_cli
from lacak.options import Number, Text
from lacak.output import dumps
from lacak.testing import one_line_error
from lacak.testing import strategies as lst
from lacak_sliding.generators import random_walk
from lacak_sliding.puzzle import SlidingPuzzle
from lacak_sliding.remake import made_with, remake

GENERATORS = lacak.default_registry().generators("sliding")
CLI = make_cli()


@st.composite
def goals(draw: st.DrawFn, rows: int, cols: int) -> str:
    """A goal board of ``rows`` x ``cols`` (the usual goal only now and then), written
    in a notation drawn too."""
    tiles = draw(st.permutations(range(rows * cols)), label="tiles")
    if rows * cols <= 10 and draw(st.booleans(), label="compact"):
        return "".join(map(str, tiles))
    return " / ".join(" ".join(map(str, tiles[r * cols : (r + 1) * cols])) for r in range(rows))


@st.composite
def generated(draw: st.DrawFn) -> tuple[str, tuple[int, int], int, dict[str, Any]]:
    """A sliding generator, a size, a seed and options drawn from what each accepts."""
    name = draw(st.sampled_from(sorted(GENERATORS)), label="generator")
    generator = GENERATORS[name]
    rows, cols = draw(st.tuples(st.integers(2, 4), st.integers(2, 4)), label="size")
    options: dict[str, Any] = {}
    for key, accepts in generator.accepts.items():
        if not draw(st.booleans(), label=f"give {key}"):
            continue
        if key == "goal" and isinstance(accepts, Text):
            options[key] = draw(goals(rows, cols), label=key)
        elif isinstance(accepts, Number):
            options[key] = draw(st.integers(int(accepts.minimum), min(int(accepts.maximum), 300)),
                                label=key)  # fmt: skip
    return name, (rows, cols), draw(lst.seeds(), label="seed"), options


@settings(max_examples=80, deadline=None)
@given(made=generated())
def test_a_board_made_again_from_its_json_is_the_same_bytes(
    made: tuple[str, tuple[int, int], int, dict[str, Any]],
) -> None:
    name, size, seed, options = made
    board = lacak.generate("sliding", name, size, seed=seed, **options)
    text = dumps(board.to_dict())
    saved = json.loads(text)
    defaults = GENERATORS[name].options
    taken = {key: options.get(key, default) for key, default in defaults.items() if key != "goal"}
    recorded = {**saved["options"]}
    if saved["moves"] is not None:
        recorded["moves"] = saved["moves"]
    assert (saved["generator"], saved["seed"], saved["size"]) == (name, seed, f"{size[0]}x{size[1]}")
    assert recorded == taken
    goal = lacak.parse("sliding", options.get("goal") or saved["goal"], size=size,
                       allow_unsolvable=True).initial  # fmt: skip
    assert board.goal == goal and saved["goal"] == board.format_state(goal)
    again = remake(lacak.parse("sliding", text))
    assert dumps(again.to_dict()) == text
    assert (again.initial, again.goal) == (board.initial, board.goal)
    line = made_with(board)
    assert line.startswith(f"{name} {size[0]}x{size[1]}, seed {seed}")
    for key, value in taken.items():
        assert f"{key}={value}" in line


def _scramble(*args: str, stdin: str | None = None) -> Any:
    return CliRunner().invoke(CLI, ["sliding", "scramble", *args], input=stdin)


@settings(max_examples=40, deadline=None)
@given(
    size=st.tuples(st.integers(2, 4), st.integers(2, 4)),
    seed=st.integers(0, 2**32),
    moves=st.none() | st.integers(0, 200),
    data=st.data(),
)
def test_the_command_makes_a_saved_scramble_again(
    size: tuple[int, int], seed: int, moves: int | None, data: st.DataObject
) -> None:
    args = ["--size", f"{size[0]}x{size[1]}", "--seed", str(seed)]
    if moves is not None:
        args += ["--moves", str(moves)]
    if data.draw(st.booleans(), label="give a goal"):
        args += ["--goal", data.draw(goals(*size), label="goal")]
    made = _scramble(*args, "--json")
    assert made.exit_code == 0, made.output
    again = _scramble("--from", "-", "--json", stdin=made.stdout)
    assert again.exit_code == 0, again.output
    assert again.stdout == made.stdout
    shown = _scramble(*args)
    assert _scramble("--from", "-", stdin=made.stdout).stdout == shown.stdout
    last = shown.stdout.splitlines()[-1]
    assert f"seed {seed}" in last and f"{size[0]}x{size[1]}" in last
    assert ("moves=" in last) == (moves is not None)


def test_the_line_under_a_scramble_repeats_it(tmp_path: Path) -> None:
    made = _scramble("--size", "3x4", "--moves", "30", "--seed", "5", "--goal",
                     "0 1 2 3 4 5 6 7 8 9 10 11")  # fmt: skip
    assert made.stdout.splitlines()[-1] == (
        "walk 3x4, seed 5, moves=30, goal=0 1 2 3 4 5 6 7 8 9 10 11 (repeat with --size 3x4 "
        "--moves 30 --seed 5 --goal '0 1 2 3 4 5 6 7 8 9 10 11')"
    )
    saved = tmp_path / "board.json"
    saved.write_text(_scramble("--size", "3x4", "--moves", "30", "--seed", "5", "--goal",
                               "0 1 2 3 4 5 6 7 8 9 10 11", "--json").stdout)  # fmt: skip
    assert _scramble("--from", str(saved)).stdout == made.stdout


def test_batch_records_make_their_boards_again() -> None:
    done = CliRunner().invoke(CLI, ["batch", "sliding", "-n", "3", "--seed", "4", "-w", "1",
                                    "--size", "2x4", "--moves", "9", "-O",
                                    "goal=0 1 2 3 4 5 6 7", "--no-solve"])  # fmt: skip
    assert done.exit_code == 0, done.output
    for line in done.stdout.splitlines():
        instance = json.loads(line)["instance"]
        assert (instance["generator"], instance["moves"], instance["size"]) == ("walk", 9, "2x4")
        assert instance["seed"] == json.loads(line)["seed"] and instance["goal"] == "01234567"
        again = _scramble("--from", "-", "--json", stdin=json.dumps(instance))
        assert json.loads(again.stdout) == instance


class DriftPlugin:
    """A third-party scrambler with an option of its own besides ``moves`` and ``goal``."""

    @staticmethod
    def drift(size: Any, seed: int | None = None, *, steps: int = 3, goal: str = "") -> Any:
        walked = random_walk(size, seed, moves=2 * steps + 1, goal=goal)
        return attrs.evolve(walked, generator="drift", options={"steps": steps})

    @lacak.hookimpl
    def register_generators(self, register: Any) -> None:
        register(lacak.Generator(kind="sliding", name="drift", make=self.drift,
                                 options={"steps": 3, "goal": ""}))  # fmt: skip


def test_a_third_party_scrambler_s_options_are_recorded_and_given_back() -> None:
    registry = lacak.Registry()
    registry.add_plugin(DriftPlugin(), "drift")
    board = lacak.generate("sliding", "drift", (3, 3), seed=2, steps=40, registry=registry)
    saved = board.to_dict()
    assert (saved["generator"], saved["moves"], saved["options"]) == ("drift", None, {"steps": 40})
    again = CliRunner().invoke(make_cli(registry), ["sliding", "scramble", "--from", "-",
                                                    "--json"], input=dumps(saved))  # fmt: skip
    assert again.exit_code == 0, again.output
    assert again.stdout == dumps(saved) + "\n"
    other = lacak.generate("sliding", "drift", (3, 3), seed=2, registry=registry)
    assert other.initial != board.initial  # (so the option is what made it again)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seed", "4"], "not with --seed"),
        (["--size", "3x3", "--moves", "5"], "not with --size, --moves"),
        (["--goal", "123456780"], "not with --goal"),
    ],
)
def test_from_gives_the_generator_size_seed_and_moves(
    tmp_path: Path, args: list[str], message: str
) -> None:
    saved = tmp_path / "board.json"
    saved.write_text(dumps(random_walk("3x3", seed=1).to_dict()))
    one_line_error(_scramble("--from", str(saved), *args), message)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"board": "123450786"}', "cannot be made again"),
        ('{"board": "123450786", "generator": "walk"}', "cannot be made again"),
        ('{"board": "123450786", "seed": 3}', "cannot be made again"),
        ('{"board": ', "not JSON"),
        ("123450786", "holds no JSON object"),
        ('{"board": "123450786", "generator": "walk", "seed": -1}', "'seed' must be a whole"),
        ('{"board": "123450786", "generator": "walk", "seed": true}', "'seed' must be a whole"),
        ('{"board": "123450786", "generator": "walk", "seed": 1, "moves": "5"}', "'moves'"),
        ('{"board": "123450786", "generator": 5, "seed": 1}', "'generator' must be text"),
        ('{"board": "123450786", "generator": "walk", "seed": 1, "options": [1]}', "'options'"),
        ('{"board": "123450786", "generator": "walk", "seed": 1, "options": {"a": [1]}}',
         "option 'a' must be a number"),
        ('{"board": "123450786", "generator": "wlak", "seed": 1}', "walk"),
        ('{"board": "123450786", "generator": "random", "seed": 1, "moves": 4}', "moves"),
    ],
)
def test_a_file_that_cannot_be_made_again_is_one_line(text: str, message: str) -> None:
    one_line_error(_scramble("--from", "-", stdin=text), message)


def test_a_board_that_records_no_generator_cannot_be_made_again() -> None:
    with pytest.raises(lacak.InvalidPuzzleError, match="cannot be made again"):
        remake(SlidingPuzzle.from_string("123450786"))


def test_another_goal_or_size_leaves_what_made_the_board_behind() -> None:
    text = dumps(random_walk("2x3", seed=1, moves=5).to_dict())
    assert lacak.parse("sliding", text).generator == "walk"
    moved = lacak.parse("sliding", text, goal="123450", allow_unsolvable=True)
    assert (moved.generator, moved.seed, moved.options) == ("", None, {})
