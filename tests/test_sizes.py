"""One size reader for every kind: :func:`lacak.options.read_size` (library code) and
:class:`lacak.cli.Size` (commands) read ``ROWSxCOLS``, a pair or one number, and refuse
a bad size in one shape of message, whichever plugin asks."""

from __future__ import annotations

import re
from typing import Any

import click
import lacak
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from lacak.cli import LacakGroup, Size, make_cli
from lacak.options import read_size

SIDES = st.integers(1, 10**6)


@given(SIDES, SIDES, st.sampled_from(["{}x{}", "{} x {}", "{}X{}", "{},{}", " {}, {} "]))
def test_text_and_pairs_round_trip(rows: int, cols: int, form: str) -> None:
    assert read_size(form.format(rows, cols)) == (rows, cols) == read_size((rows, cols))
    assert read_size([rows, cols]) == read_size(f"{rows}x{cols}")
    assert read_size(rows) == read_size(str(rows)) == (rows, rows)


@given(SIDES, SIDES)
def test_numpy_integers_are_whole_numbers(rows: int, cols: int) -> None:
    np = pytest.importorskip("numpy")
    assert read_size((np.int64(rows), np.int32(cols))) == (rows, cols)


ANYTHING = st.one_of(
    st.text(max_size=12),
    st.from_regex(r"\A\s*-?[0-9]{0,11}\s*[x×X,;*]?\s*-?[0-9]{0,11}\s*\Z"),
    st.integers(-5, 10**7),
    st.floats(allow_nan=True),
    st.booleans(),
    st.none(),
    st.tuples(st.integers(-3, 3000), st.integers(-3, 3000)),
    st.lists(st.one_of(st.integers(-2, 9), st.floats(0, 9), st.text(max_size=2)), max_size=3),
    st.dictionaries(st.text(max_size=1), st.integers(), max_size=2),
)


@given(ANYTHING, st.integers(0, 3), st.one_of(st.none(), st.integers(1, 10**6)))
def test_bad_input_is_one_lacak_error_naming_the_size(size: Any, minimum: int,
                                                       most: int | None) -> None:  # fmt: skip
    try:
        rows, cols = read_size(size, what="the widget size", minimum=minimum, most=most)
    except lacak.InvalidOptionError as error:
        assert str(error).startswith("the widget size ")
        assert "\n" not in str(error)
        return
    assert rows >= minimum and cols >= minimum
    assert most is None or rows * cols <= most


#: Each kind's reader, through the library's generators: (kind, generator, what, minimum).
KINDS = [
    ("maze", "kruskal", "maze size", 1),
    ("sliding", "random", "sliding puzzle size", 2),
    ("boggle", "random", "board size", 1),
]


@pytest.mark.parametrize(("kind", "generator", "what", "minimum"), KINDS)
@pytest.mark.parametrize(
    ("size", "shape"),
    [
        ("axb", r"must look like 3x4, got 'axb'$"),
        ((2.5, 3), r"must look like 3x4 or \(rows, cols\) of whole numbers, got tuple \(2.5, 3\)$"),
        ((1, 2, 3), r"must look like 3x4 or \(rows, cols\) of whole numbers, got tuple"),
        (True, r"must look like 3x4 or \(rows, cols\) of whole numbers, got bool True$"),
        ("0x3", r"must be at least {m}x{m}, got 0x3$"),
        ((1, 0), r"must be at least {m}x{m}, got 1x0$"),
        ((10**5, 10**5), r"must be at most [0-9,]+ (cells|tiles) \(\d+x\d+\), got 10{{5}}x10{{5}} = 10,000,000,000$"),
    ],
)  # fmt: skip
def test_every_kind_refuses_a_bad_size_in_one_shape(
    kind: str, generator: str, what: str, minimum: int, size: Any, shape: str
) -> None:
    pattern = "^" + re.escape(what) + " " + shape.format(m=minimum).replace("10{5}", "100000")
    with pytest.raises(lacak.InvalidOptionError, match=pattern):
        lacak.generate(kind, generator, size, seed=1)


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["maze", "generate", "--size", "3by3"], "Error: maze size must look like 3x4, got '3by3'"),
        (["maze", "stats", "--size", "0x2"], "Error: maze size must be at least 1x1, got 0x2"),
        (["boggle", "shake", "--dice", "random", "--size", "x"],
         "Error: --size must look like 3x4, got 'x'"),
        (["batch", "maze", "-n", "1", "--size", "3x"], "Error: --size must look like 3x4, got '3x'"),
        (["sliding", "scramble", "--size", "1x9"],
         "Error: sliding puzzle size must be at least 2x2, got 1x9"),
    ],
)  # fmt: skip
def test_commands_refuse_a_bad_size_in_one_line(args: list[str], line: str) -> None:
    done = CliRunner().invoke(make_cli(), args)
    assert done.exit_code == 2
    assert done.output.splitlines() == [line]


@given(SIDES, SIDES)
def test_the_option_type_gives_the_pair(rows: int, cols: int) -> None:
    @click.group(cls=LacakGroup)
    def root() -> None:
        pass

    @root.command()
    @click.option("--size", type=Size(), default="2x3")
    def show(size: tuple[int, int]) -> None:
        click.echo(repr(size))

    assert CliRunner().invoke(root, ["show", "--size", f"{rows}x{cols}"]).output == (
        f"{(rows, cols)!r}\n"
    )
    assert CliRunner().invoke(root, ["show"]).output == "(2, 3)\n"
    assert "--size ROWSxCOLS" in CliRunner().invoke(root, ["show", "--help"]).output
