"""``lacak.puzzle_text``: the text form of an instance, which ``lacak.parse`` reads back."""

from __future__ import annotations

from typing import Any

import attrs
import lacak
import pytest

from .plugin_helpers import make_registry


@pytest.mark.parametrize("kind", ["maze", "boggle"])
def test_every_generator_s_instances_read_back_from_their_text(kind: str) -> None:
    for name in lacak.generators(kind):
        size = (5, 6) if kind == "maze" or name == "random" else None
        made = lacak.generate(kind, name, size, seed=7)
        text = lacak.puzzle_text(made)
        again = lacak.parse(kind, text)
        if kind == "boggle":
            assert again == made
        else:  # a maze's text is its JSON: the same cells, whatever parse makes of them
            assert getattr(again, "maze", again).to_dict()["cells"] == made.to_dict()["cells"]


def test_an_instance_with_no_text_form_is_one_clear_error() -> None:
    board = lacak.generate("sliding", "random", (3, 3), seed=1)
    with pytest.raises(lacak.InvalidPuzzleError, match="gives no text form of SlidingPuzzle"):
        lacak.puzzle_text(board)
    with pytest.raises(lacak.InvalidPuzzleError, match="needs the instance's kind"):
        lacak.puzzle_text(42)
    with pytest.raises(lacak.UnknownComponentError):
        lacak.puzzle_text(board, kind="nope")


@attrs.frozen
class Tally:
    count: int
    kind = "tally"


class TallyPlugin:
    def __init__(self, to_text: Any) -> None:
        self.to_text = to_text

    @lacak.hookimpl
    def register_puzzles(self, register: Any) -> None:
        register(lacak.PuzzleType(kind="tally", parse=lambda text: Tally(len(text)),
                                  to_text=self.to_text))  # fmt: skip


def test_a_kind_s_declared_to_text_decides() -> None:
    registry = make_registry(TallyPlugin(lambda tally: "|" * tally.count))
    assert lacak.puzzle_text(Tally(3), registry=registry) == "|||"
    assert lacak.parse("tally", "|||", registry=registry) == Tally(3)


@pytest.mark.parametrize(
    ("to_text", "message"),
    [(lambda tally: tally.count, "is a str, got int"), (lambda tally: 1 / 0, "ZeroDivisionError")],
)
def test_a_broken_to_text_is_the_plugin_s_bug(to_text: Any, message: str) -> None:
    registry = make_registry(TallyPlugin(to_text))
    with pytest.raises(lacak.PluginError, match=message):
        lacak.puzzle_text(Tally(3), registry=registry)
