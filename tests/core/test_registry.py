"""The registry: catalogues, lookups, duplicates, failing plugins, environment switches."""

from __future__ import annotations

from typing import Any

import attrs
import lacak
import pytest
from hypothesis import given
from hypothesis import strategies as st
from lacak.testing import strategies as lst

from .plugin_helpers import CorePlugin, make_registry


def test_components_from_every_hook_are_catalogued() -> None:
    registry = make_registry(CorePlugin())
    assert list(registry.searchers()) == ["test-dijkstra"]
    assert sorted(registry.heuristics("graph")) == ["scaled", "zero"]
    assert list(registry.generators("graph")) == ["random"]
    assert list(registry.puzzle_types()) == ["graph"]
    assert list(registry.dictionaries()) == ["tiny"]
    assert registry.searchers().owner("test-dijkstra") == "plugin0"


def test_plugins_lists_what_each_plugin_registered() -> None:
    registry = make_registry(CorePlugin())
    (info,) = registry.plugins()
    assert info.name == "plugin0"
    assert info.registered["register_searchers"] == ("test-dijkstra",)
    assert info.registered["register_heuristics"] == ("graph/zero", "graph/scaled")
    assert "register_generators" in info.hooks


@given(names=st.lists(lst.names(), min_size=1, max_size=8, unique=True))
def test_register_then_lookup_round_trips(names: list[str]) -> None:
    searchers = [lacak.Searcher(name=n, search=lambda p, **k: None) for n in names]

    class Plugin:
        @lacak.hookimpl
        def register_searchers(self, register: Any) -> None:
            for searcher in searchers:
                register(searcher)

    registry = make_registry(Plugin())
    catalogue = registry.searchers()
    assert sorted(catalogue) == sorted(names)
    for searcher in searchers:  # (an equal copy: a third-party plugin's functions are isolated)
        assert catalogue[searcher.name] == searcher


@given(
    names=st.lists(lst.names(min_size=4), min_size=1, max_size=6, unique=True),
    data=st.data(),
)
def test_unknown_name_suggests_close_matches(names: list[str], data: st.DataObject) -> None:
    target = data.draw(st.sampled_from(names))
    typo = target[:-1] + ("x" if target[-1] != "x" else "y")

    class Plugin:
        @lacak.hookimpl
        def register_searchers(self, register: Any) -> None:
            for name in names:
                register(lacak.Searcher(name=name, search=lambda p, **k: None))

    registry = make_registry(Plugin())
    if typo in names:
        return
    with pytest.raises(lacak.UnknownComponentError) as info:
        registry.searchers()[typo]
    error = info.value
    assert isinstance(error, KeyError)
    assert target in error.suggestions
    assert repr(target) in str(error)
    assert error.available == sorted(names)


def test_unknown_name_with_nothing_registered() -> None:
    registry = make_registry()
    with pytest.raises(KeyError, match="No strategy is registered"):
        registry.searchers()["astar"]


def test_unknown_kind_lists_known_kinds() -> None:
    registry = make_registry(CorePlugin())
    with pytest.raises(lacak.UnknownComponentError, match="'graph'"):
        registry.generators("graf")


def test_duplicate_names_are_reported_naming_both_plugins() -> None:
    class Twin:
        @lacak.hookimpl
        def register_searchers(self, register: Any) -> None:
            register(lacak.Searcher(name="test-dijkstra", search=lambda p, **k: None))

        @lacak.hookimpl
        def register_generators(self, register: Any) -> None:
            register(lacak.Generator(kind="other", name="fine", make=lambda size, seed: size))

    with pytest.warns(lacak.PluginWarning, match="registered by both"):
        registry = make_registry(CorePlugin(), Twin())
        searchers = registry.searchers()
    # the first registration stays, the duplicate is skipped, the rest keeps working
    assert searchers.owner("test-dijkstra") == "plugin0"
    assert list(registry.generators("other")) == ["fine"]
    (failure,) = registry.failures
    assert failure.plugin == "plugin1"
    assert failure.stage == "register_searchers"
    assert "'plugin0'" in failure.error and "'plugin1'" in failure.error


def test_duplicate_within_one_plugin_is_reported() -> None:
    class Twice:
        @lacak.hookimpl
        def register_heuristics(self, register: Any) -> None:
            for _ in range(2):
                register(lacak.Heuristic(name="h", kind="k", estimate=lambda p, s: 0))

    with pytest.warns(lacak.PluginWarning, match="registered by both"):
        registry = make_registry(Twice())
        assert list(registry.heuristics("k")) == ["h"]
    (failure,) = registry.failures
    assert "'plugin0' and plugin 'plugin0'" in failure.error


def test_a_duplicate_skips_only_the_clashing_component() -> None:
    class Other:
        @lacak.hookimpl
        def register_dictionaries(self, register: Any) -> None:
            for name in ("tiny", "other"):
                register(lacak.DictionarySource(name=name, load=lambda: None))

    with pytest.warns(lacak.PluginWarning, match="dictionary 'tiny' is registered by both"):
        registry = make_registry(CorePlugin(), Other())
        assert sorted(registry.dictionaries()) == ["other", "tiny"]
    assert registry.dictionaries().owner("tiny") == "plugin0"


def test_a_plugin_that_raises_while_registering_is_skipped() -> None:
    class Broken:
        @lacak.hookimpl
        def register_searchers(self, register: Any) -> None:
            register(lacak.Searcher(name="half", search=lambda p, **k: None))
            raise RuntimeError("boom")

    with pytest.warns(lacak.PluginWarning, match="boom"):
        registry = make_registry(Broken(), CorePlugin())
        names = list(registry.searchers())
    assert names == ["test-dijkstra"]  # nothing of the broken plugin's half-registration
    assert [f.plugin for f in registry.failures] == ["plugin0"]


def test_registering_the_wrong_type_is_a_failure() -> None:
    class Wrong:
        @lacak.hookimpl
        def register_searchers(self, register: Any) -> None:
            register("bfs")

    with pytest.warns(lacak.PluginWarning, match="expects Searcher"):
        registry = make_registry(Wrong())
        assert list(registry.searchers()) == []


def test_misspelled_hook_is_rejected() -> None:
    class Misspelled:
        @lacak.hookimpl
        def register_searcher(self, register: Any) -> None:  # missing "s"
            pass

    registry = make_registry()
    with pytest.raises(lacak.PluginError, match="register_searcher"):
        registry.add_plugin(Misspelled(), "typo")
    assert registry.pm.get_plugin("typo") is None


def test_hook_with_wrong_argument_is_rejected() -> None:
    class WrongArgs:
        @lacak.hookimpl
        def register_searchers(self, registrar: Any) -> None:
            pass

    registry = make_registry()
    with pytest.raises(lacak.PluginError, match="registrar"):
        registry.add_plugin(WrongArgs(), "args")


def test_remove_plugin_forgets_its_components() -> None:
    registry = make_registry(CorePlugin())
    assert "test-dijkstra" in registry.searchers()
    registry.remove_plugin("plugin0")
    assert "test-dijkstra" not in registry.searchers()


def test_dictionary_is_loaded_once_and_normalised() -> None:
    registry = make_registry(CorePlugin())
    tiny = registry.dictionary("tiny")
    assert tiny is registry.dictionary("tiny")
    assert tiny.words == ("ACT", "CAT")
    assert "CAT" in tiny and "DOG" not in tiny and len(tiny) == 2


def test_heuristic_spec_configures_options() -> None:
    registry = make_registry(CorePlugin())
    scaled = registry.heuristic("graph", "scaled:factor=2.5")
    assert scaled.options == {"factor": 2.5}
    assert registry.heuristic("graph", "scaled:3").options == {"factor": 3.0}
    with pytest.raises(lacak.InvalidOptionError, match="no option 'bogus'"):
        registry.heuristic("graph", "scaled:bogus=1")
    with pytest.raises(lacak.InvalidOptionError, match="must be a float"):
        registry.heuristic("graph", "scaled:factor=big")


def test_a_plugin_that_exits_while_registering_is_skipped() -> None:
    class Quitter:
        @lacak.hookimpl
        def register_searchers(self, register: Any) -> None:
            register(lacak.Searcher(name="half", search=lambda p, **k: None))
            raise SystemExit(3)

        @lacak.hookimpl
        def register_dictionaries(self, register: Any) -> None:
            def load() -> lacak.Dictionary:
                raise SystemExit("bye")

            register(lacak.DictionarySource(name="gone", load=load))

    with pytest.warns(lacak.PluginWarning, match="SystemExit: 3"):
        registry = make_registry(Quitter(), CorePlugin())
        assert list(registry.searchers()) == ["test-dijkstra"]
    assert [(f.plugin, f.stage) for f in registry.failures] == [("plugin0", "register_searchers")]
    with pytest.raises(lacak.PluginError, match="dictionary 'gone': SystemExit: bye"):
        registry.dictionary("gone")


def test_keyboard_interrupt_is_not_swallowed() -> None:
    class Interrupted:
        @lacak.hookimpl
        def register_searchers(self, register: Any) -> None:
            raise KeyboardInterrupt

    registry = make_registry(Interrupted())
    with pytest.raises(KeyboardInterrupt):
        registry.searchers()


bad_names = st.one_of(
    st.integers(), st.none(), st.just(""), st.just(" padded "), st.text(" \t", max_size=2),
    st.tuples(st.integers()), st.floats(allow_nan=False), st.binary(max_size=3),
)


@given(bad=bad_names, field=st.sampled_from(["name", "kind"]))
def test_components_with_a_bad_name_or_kind_are_skipped(bad: object, field: str) -> None:
    good = lacak.Generator(kind="maze", name="fine", make=lambda size, seed: size)
    broken = attrs.evolve(good, **{field: bad})
    heuristic = lacak.Heuristic(name="h", kind="maze", estimate=lambda p, s: 0)

    class Sloppy:
        @lacak.hookimpl
        def register_generators(self, register: Any) -> None:
            register(broken)
            register(good)

        @lacak.hookimpl
        def register_heuristics(self, register: Any) -> None:
            register(attrs.evolve(heuristic, **{field: bad}))
            register(heuristic)

        @lacak.hookimpl
        def register_searchers(self, register: Any) -> None:
            register(lacak.Searcher(name=bad, search=lambda p, **k: None))  # type: ignore[arg-type]

    with pytest.warns(lacak.PluginWarning, match="must be a non-empty string"):
        registry = make_registry(Sloppy())
        assert registry.kinds("register_generators") == ["maze"]
        assert list(registry.generators("maze")) == ["fine"]
        assert list(registry.heuristics("maze")) == ["h"]
        assert list(registry.searchers()) == []
        (info,) = registry.plugins()
    assert info.registered["register_generators"] == ("maze/fine",)
    stages = sorted(f.stage for f in registry.failures)
    assert stages == ["register_generators", "register_heuristics", "register_searchers"]


def test_components_whose_function_is_not_callable_are_skipped() -> None:
    class NotCallable:
        @lacak.hookimpl
        def register_puzzles(self, register: Any) -> None:
            register(lacak.PuzzleType(kind="odd", parse="not a function"))  # type: ignore[arg-type]

        @lacak.hookimpl
        def register_dictionaries(self, register: Any) -> None:
            register(lacak.DictionarySource(name="words", load=None))  # type: ignore[arg-type]

    with pytest.warns(lacak.PluginWarning, match="is not callable"):
        registry = make_registry(NotCallable())
        assert list(registry.puzzle_types()) == list(registry.dictionaries()) == []
    assert sorted(f.error for f in registry.failures) == [
        "PluginError: dictionary 'words': its load is not callable",
        "PluginError: puzzle kind 'odd': its parse is not callable",
    ]


def test_a_searcher_that_returns_no_search_result_is_a_plugin_error() -> None:
    class Careless:
        @lacak.hookimpl
        def register_searchers(self, register: Any) -> None:
            register(lacak.Searcher(name="careless", search=lambda p, **k: ["R", "D"]))

        @lacak.hookimpl
        def register_generators(self, register: Any) -> None:
            register(lacak.Generator(kind="graph", name="nothing", make=lambda size, seed: None))

    registry = make_registry(CorePlugin(), Careless())
    puzzle = lacak.generate("graph", "random", 4, seed=1, registry=registry)
    with pytest.raises(lacak.PluginError, match="strategy 'careless' returned list"):
        lacak.solve(puzzle, "careless", registry=registry)
    with pytest.raises(lacak.PluginError, match="generator 'nothing' for 'graph' made nothing"):
        lacak.generate("graph", "nothing", 4, seed=1, registry=registry)
