"""A result's JSON gets the kind's extras from its caller, never from the registry."""

from __future__ import annotations

import json
import warnings

import attrs
import lacak
import pytest
from hypothesis import given
from hypothesis import strategies as st
from lacak.results import COMMON_KEYS
from lacak.testing import strategies as lst

#: Keys a kind may add: never a common one.
own_keys = st.text("abcdefghij_", min_size=1, max_size=6).filter(lambda k: k not in COMMON_KEYS)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=6,
)


def _maze() -> lacak.Puzzle:
    maze = lacak.generate("maze", "kruskal", (4, 5), seed=2)
    return lacak.parse("maze", lacak.puzzle_text(maze))


@given(lst.graph_puzzles(), st.dictionaries(own_keys, json_values, max_size=3))
def test_the_extras_handed_in_are_added_beside_the_common_keys(puzzle, extras) -> None:
    result = lacak.solve(puzzle, "bfs")
    plain = result.to_dict(puzzle, extras=None)
    assert list(plain) == list(COMMON_KEYS)
    calls = []

    def kind_extras(got_puzzle, got_result):
        calls.append((got_puzzle, got_result))
        return extras

    assert result.to_dict(puzzle, extras=extras) == {**plain, **extras}
    assert result.to_dict(puzzle, extras=kind_extras) == {**plain, **extras}
    assert calls == [(puzzle, result)]


@pytest.mark.parametrize("key", COMMON_KEYS)
def test_extras_may_not_change_a_common_key(key: str) -> None:
    result = lacak.SearchResult.from_states(["a", "b"], ["R"], kind="demo")
    with pytest.raises(lacak.PluginError, match=f"'{key}'.*common keys"):
        result.to_dict(extras={key: 1})


def test_result_json_hands_the_kinds_extras_to_the_result() -> None:
    puzzle = _maze()
    result = lacak.solve(puzzle)
    kind_type = lacak.default_registry().puzzle_types()["maze"]
    data = lacak.result_json(result, puzzle)
    assert data == result.to_dict(puzzle, extras=kind_type.extras)
    assert set(data) == {*COMMON_KEYS, "maze"}
    assert lacak.result_json(result) == result.to_dict()


def test_the_old_call_still_gives_the_extras_with_a_warning() -> None:
    """``to_dict(puzzle)`` without ``extras=`` (and its ``registry=``) is deprecated: the same
    JSON as before, looked up in the registry, with a warning naming the replacement."""
    puzzle = _maze()
    result = lacak.solve(puzzle)
    with pytest.warns(DeprecationWarning, match=r"without extras=.*lacak\.result_json"):
        old = result.to_dict(puzzle)
    with pytest.warns(DeprecationWarning, match="without extras="):
        old_with_registry = result.to_dict(puzzle, registry=lacak.default_registry())
    assert old == old_with_registry == lacak.result_json(result, puzzle)
    json.dumps(old)


@given(lst.graph_puzzles())
def test_a_kind_without_extras_gives_no_warning(puzzle) -> None:
    # ("graph" is a registered kind with extras now, lacak_graph's: a kind of no plugin)
    puzzle = attrs.evolve(puzzle, kind="no-such-kind")
    result = lacak.solve(puzzle, "bfs")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert result.to_dict(puzzle) == result.to_dict(puzzle, extras=None)
        assert result.to_dict(puzzle) == lacak.result_json(result, puzzle)
