"""Library entry points fed arbitrary values: only a LacakError escapes.

The rule (docs/api.md, "Bad input"): a library call with an argument of the wrong
type or value, or an option the component does not take, raises a
:class:`lacak.LacakError` with one clear message, for every puzzle kind. The only
other error is Python's own :class:`TypeError` for a call that does not fit the
function's signature at all, which :func:`lacak.testing.only_lacak_errors` accepts
exactly when :meth:`inspect.Signature.bind` refuses the arguments as well.

The plugins' own constructors are fuzzed in ``tests/<plugin>/test_entry_points_fuzz.py``.
"""

from __future__ import annotations

from typing import Any

import lacak
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from lacak.batch import derive_seeds
from lacak.testing import only_lacak_errors
from lacak.testing import strategies as lst

from .plugin_helpers import make_registry

KINDS = ["maze", "sliding", "boggle"]
#: The profile decides how many examples (``--hypothesis-profile=thorough`` for many).
SETTINGS = settings(deadline=None)

#: Arbitrary values, with now and then one close to a valid one so that calls get past
#: the first check.
values = st.one_of(
    lst.anything(),
    st.sampled_from(["maze", "sliding", "boggle", "eng", "bfs", "astar", "manhattan", "4x4"]),
    st.tuples(st.integers(-3, 9), st.integers(-3, 9)),
)
kinds = st.sampled_from(KINDS) | lst.anything()
#: A function passed as a heuristic is called once on the start state, and what it
#: raises there is its own (docs/api.md): those are tested one by one below.
not_functions = values.filter(lambda value: not callable(value))
option_names = st.sampled_from(
    ["goal", "size", "moves", "dictionary", "min_length", "hand", "erase_loops", "policy"]
) | st.text(max_size=8)
options = st.dictionaries(option_names, values, max_size=2)


def _declared(accepted: Any) -> st.SearchStrategy[dict[str, Any]]:
    """Options a component declares, with arbitrary values."""
    names = sorted(accepted)
    if not names:
        return st.just({})
    return st.dictionaries(st.sampled_from(names), values, max_size=3)


def _algorithms(kind: Any) -> st.SearchStrategy[Any]:
    if isinstance(kind, str) and kind in KINDS:
        return st.sampled_from(sorted(lacak.generators(kind))) | values
    return values


@SETTINGS
@given(data=st.data())
def test_generate(data: st.DataObject) -> None:
    kind = data.draw(kinds, label="kind")
    algorithm = data.draw(_algorithms(kind), label="algorithm")
    size = data.draw(values | st.none(), label="size")
    seed = data.draw(values | st.none() | lst.seeds(), label="seed")
    extra = data.draw(options, label="options")
    only_lacak_errors(lacak.generate, kind, algorithm, size, **{**extra, "seed": seed})


@SETTINGS
@given(data=st.data())
def test_generate_with_declared_options(data: st.DataObject) -> None:
    kind = data.draw(st.sampled_from(KINDS), label="kind")
    generator = data.draw(st.sampled_from(sorted(lacak.generators(kind).values(), key=str)))
    size = data.draw(st.none() | st.integers(1, 6) | values, label="size")
    extra = data.draw(_declared(generator.options), label="options")
    only_lacak_errors(lacak.generate, kind, generator.name, size, seed=1, **extra)


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "message"),
    [
        (("boggle", "random", 1.5), {}, lacak.InvalidOptionError, "size"),  # reported
        (("boggle", "random", (4, 4)), {"seed": 1.5}, lacak.InvalidOptionError, "seed"),
        (("boggle", "classic4", None), {"seed": True}, lacak.InvalidOptionError, "seed"),
        (("sliding", "walk", (3, 3)), {"seed": -1}, lacak.InvalidOptionError, "seed"),
        (("maze", "kruskal", (3, 3)), {"seed": "7"}, lacak.InvalidOptionError, "seed"),
        (("maze", "kruskal", [[3], 3]), {}, lacak.InvalidOptionError, "size"),
        (("sliding", "random", (2.5, 3)), {}, lacak.InvalidOptionError, "size"),
        (("sliding", "random", "3x3"), {"goal": 12}, lacak.InvalidPuzzleError, "goal"),
        (("sliding", "walk", 3), {"steps": 3}, lacak.InvalidOptionError, "moves"),
    ],
)
def test_generate_pinned(
    args: tuple[Any, ...], kwargs: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        lacak.generate(*args, **kwargs)


@SETTINGS
@given(kind=kinds, text=values, extra=options)
def test_parse(kind: Any, text: Any, extra: dict[str, Any]) -> None:
    only_lacak_errors(lacak.parse, kind, text, **extra)


TEXTS = {"maze": '{"cells": [[2, 8]]}', "sliding": "123450786", "boggle": "AB/CD"}


@SETTINGS
@given(data=st.data())
def test_parse_with_declared_options(data: st.DataObject) -> None:
    kind = data.draw(st.sampled_from(KINDS), label="kind")
    extra = data.draw(_declared(lacak.default_registry().puzzle_types()[kind].options))
    only_lacak_errors(lacak.parse, kind, TEXTS[kind], **extra)


@pytest.mark.parametrize(
    ("kind", "text", "kwargs", "error", "message"),
    [
        # reported: unexpected keyword TypeError for sliding, silently ignored for mazes
        ("sliding", "123450786", {"moves": 3}, lacak.InvalidOptionError, "goal"),
        ("maze", '{"cells": [[0]]}', {"moves": 3}, lacak.InvalidOptionError, "no option"),
        ("boggle", "AB/CD", {"moves": 3}, lacak.InvalidOptionError, "dictionary"),
        ("sliding", 123450786, {}, lacak.InvalidPuzzleError, "int"),
        ("boggle", b"AB/CD", {}, lacak.InvalidPuzzleError, "bytes"),
        ("maze", None, {}, lacak.InvalidPuzzleError, "not None"),
    ],
)
def test_parse_pinned(
    kind: str, text: Any, kwargs: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        lacak.parse(kind, text, **kwargs)


@st.composite
def puzzles(draw: st.DrawFn) -> Any:
    """Anything, or now and then a real puzzle."""
    real = st.sampled_from(
        [
            lambda: lacak.parse("sliding", "123450786"),
            lambda: lacak.parse("maze", '{"cells": [[2, 8]]}', start="0,0", end="0,1"),
            lambda: lacak.parse("boggle", "AB/CD"),
        ]
    )
    return draw(values | real.map(lambda make: make()))


@SETTINGS
@given(
    puzzle=puzzles(),
    strategy=st.sampled_from(["bfs", "astar", "tree-path", "boggle"]) | st.none() | values,
    heuristic=st.none() | not_functions,
    limits=st.none() | lst.limits(allow_none=False) | values,
    trace=st.booleans() | values,
    extra=options,
)
def test_solve(
    puzzle: Any, strategy: Any, heuristic: Any, limits: Any, trace: Any, extra: dict[str, Any]
) -> None:
    if isinstance(limits, lacak.Limits):  # keep the real searches small
        limits = lacak.Limits(max_expanded=min(limits.max_expanded or 0, 2000), seconds=2.0)
    kwargs = {**extra, "heuristic": heuristic, "limits": limits, "trace": trace}
    only_lacak_errors(lacak.solve, puzzle, strategy, **kwargs)


@SETTINGS
@given(data=st.data())
def test_solve_with_declared_options(data: st.DataObject) -> None:
    puzzle = data.draw(puzzles().filter(lambda p: hasattr(p, "successors")), label="puzzle")
    fitting = sorted(name for name, s in lacak.searchers().items() if s.handles(puzzle))
    searcher = lacak.searchers()[data.draw(st.sampled_from(fitting), label="strategy")]
    extra = data.draw(_declared(searcher.options), label="options")
    named = sorted(lacak.heuristics(puzzle.kind)) if puzzle.kind != "boggle" else []
    heuristic = data.draw(st.none() | st.sampled_from([None, *named]), label="heuristic")
    limits = lacak.Limits(max_expanded=2000, seconds=2.0)
    only_lacak_errors(
        lacak.solve, puzzle, searcher.name, heuristic=heuristic, limits=limits, **extra
    )


class NoSuccessors:
    kind = "sliding"
    initial = 0

    def is_goal(self, state: Any) -> bool:
        return False


@pytest.mark.parametrize(
    ("puzzle", "missing"),
    [
        (42, "kind, initial, is_goal, successors"),  # reported: an AttributeError
        (None, "kind, initial, is_goal, successors"),
        (NoSuccessors(), "successors"),
    ],
)
def test_solve_says_what_a_puzzle_lacks(puzzle: Any, missing: str) -> None:
    with pytest.raises(lacak.InvalidPuzzleError, match=f"lacks {missing}"):
        lacak.solve(puzzle)


@SETTINGS
@given(puzzle=puzzles(), heuristic=not_functions)
def test_resolve_heuristic(puzzle: Any, heuristic: Any) -> None:
    only_lacak_errors(lacak.resolve_heuristic, puzzle, heuristic)


@SETTINGS
@given(argument=kinds, registry=st.just(None) | values)
def test_catalogues(argument: Any, registry: Any) -> None:
    only_lacak_errors(lacak.heuristics, argument, registry=registry)
    only_lacak_errors(lacak.generators, argument, registry=registry)
    only_lacak_errors(lacak.searchers, registry=registry)
    only_lacak_errors(lacak.dictionaries, registry=registry)
    only_lacak_errors(lacak.plugins, registry=registry)
    only_lacak_errors(lacak.plugin_failures, registry=registry)


@SETTINGS
@given(name=st.sampled_from(["eng", "ind"]) | values)
def test_dictionary(name: Any) -> None:
    only_lacak_errors(lacak.dictionary, name)


@SETTINGS
@given(
    text=st.text(max_size=20) | values,
    defaults=st.dictionaries(st.text(max_size=4), values, max_size=3) | values,
    what=values,
)
@example(text=None, defaults={"w1": 1.0}, what="weighted")  # reported: an AttributeError
def test_parse_options(text: Any, defaults: Any, what: Any) -> None:
    only_lacak_errors(lacak.parse_options, text, defaults, what=what)


@SETTINGS
@given(value=values, what=values)
def test_as_flag(value: Any, what: Any) -> None:
    only_lacak_errors(lacak.as_flag, value, what)


@SETTINGS
@given(
    st.dictionaries(
        st.sampled_from(["max_depth", "max_expanded", "seconds", "max_frontier", "max_closed"]),
        values,
    )
)
def test_limits(fields: dict[str, Any]) -> None:
    only_lacak_errors(lacak.Limits, **fields)


@SETTINGS
@given(seed=values | lst.seeds(), count=values | st.integers(0, 50))
def test_derive_seeds(seed: Any, count: Any) -> None:
    if isinstance(count, int) and count > 10_000:
        return  # a valid request for many seeds: work, not an error
    only_lacak_errors(derive_seeds, seed, count)


def _returns_nothing(puzzle: Any, state: Any) -> None:
    return None


def _one_argument(state: Any) -> float:
    return 0.0


@pytest.mark.parametrize(
    ("function", "message"),
    [
        (_returns_nothing, "returned None"),
        (print, "returned None"),
        (_one_argument, "f\\(puzzle, state\\)"),
        (len, "f\\(puzzle, state\\)"),
        (lambda puzzle, state: float("nan"), "returned nan"),
        (lambda puzzle, state: "3", "returned '3'"),
    ],
)
def test_a_heuristic_function_is_checked_once(function: Any, message: str) -> None:
    # print returned None deep in the search: a TypeError from the strategy
    puzzle = lacak.parse("sliding", "123450786")
    with pytest.raises(lacak.InvalidOptionError, match=message):
        lacak.solve(puzzle, "astar", heuristic=function)


class SloppyPlugin:
    """A third-party plugin that declares nothing and checks nothing."""

    @lacak.hookimpl
    def register_puzzles(self, register: Any) -> None:
        register(lacak.PuzzleType(kind="sloppy", parse=lambda text: int(text)))

    @lacak.hookimpl
    def register_generators(self, register: Any) -> None:
        register(lacak.Generator(kind="sloppy", name="count", make=lambda size, seed: [0] * size))


SLOPPY = make_registry(SloppyPlugin())


def test_a_third_party_kind_gets_the_same_checks() -> None:
    # no options declared: none accepted, and the message says so
    with pytest.raises(
        lacak.InvalidOptionError, match=r"takes no option 'level' \(its options: none\)"
    ):
        lacak.parse("sloppy", "12", level=3, registry=SLOPPY)
    with pytest.raises(lacak.InvalidPuzzleError, match="read from str, not bytes"):
        lacak.parse("sloppy", b"12", registry=SLOPPY)
    with pytest.raises(lacak.InvalidOptionError, match="seed is a non-negative integer"):
        lacak.generate("sloppy", "count", 3, seed=-2, registry=SLOPPY)
    assert lacak.generate("sloppy", "count", 3, seed=np.int64(5), registry=SLOPPY) == [0, 0, 0]


def test_the_last_guard_names_the_plugin_and_fails_only_lacak_errors() -> None:
    # the plugin's own int() raising ValueError: a PluginError naming the plugin ...
    with pytest.raises(lacak.PluginError, match="plugin 'plugin0' failed in puzzle kind") as caught:
        lacak.parse("sloppy", "twelve", registry=SLOPPY)
    assert isinstance(caught.value.__cause__, ValueError)
    with pytest.raises(
        lacak.PluginError, match="failed in generator 'sloppy/count': TypeError"
    ):
        lacak.generate("sloppy", "count", "3", registry=SLOPPY)
    # ... which the plugin's own tests catch as a bug
    with pytest.raises(AssertionError, match="raised ValueError in a plugin"):
        only_lacak_errors(lacak.parse, "sloppy", "twelve", registry=SLOPPY)


def test_only_lacak_errors_accepts_python_call_checks_only() -> None:
    only_lacak_errors(lacak.parse, "sliding")  # missing text: Python's TypeError
    only_lacak_errors(lacak.as_flag, "yes", "x", "extra")
    with pytest.raises(AssertionError, match="raised TypeError, not a LacakError"):
        only_lacak_errors(lambda value: value + 1, "one")


def test_registry_must_be_a_registry() -> None:
    with pytest.raises(lacak.InvalidOptionError, match=r"registry must be a lacak\.Registry"):
        lacak.searchers(registry="default")  # type: ignore[arg-type]
