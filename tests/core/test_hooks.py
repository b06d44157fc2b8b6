"""Every hook specification: exercised by a test here, and documented in docs/plugins/hooks.md."""

from __future__ import annotations

import inspect
import re
from pathlib import Path
from typing import Any

import click
import lacak
from click.testing import CliRunner
from lacak.cli import make_cli
from lacak.plugin import hookspecs

from .plugin_helpers import CorePlugin, make_registry

DOCS = Path(__file__).resolve().parents[2] / "docs" / "plugins" / "hooks.md"
SPECS = {
    name: fn for name, fn in inspect.getmembers(hookspecs, inspect.isfunction)
    if name.startswith("register_")
}


def test_every_hook_is_documented_with_its_signature() -> None:
    headings = set(
        re.findall(r"^## `(\w+)\((\w+): [^`]*\) -> None` \{ #\1 \}$", DOCS.read_text(), flags=re.M)
    )
    expected = {(name, next(iter(inspect.signature(fn).parameters))) for name, fn in SPECS.items()}
    assert headings == expected


def test_every_hook_has_a_test() -> None:
    tests = {name for name in globals() if name.startswith("test_hook_")}
    assert tests == {f"test_hook_{name}" for name in SPECS}


def test_hook_register_puzzles() -> None:
    registry = make_registry(CorePlugin())
    graph = registry.puzzle_types()["graph"]
    assert graph.name == "graph"
    puzzle = lacak.generate("graph", "random", 5, seed=1, registry=registry)
    assert graph.validate is not None
    graph.validate(puzzle)


def test_hook_register_searchers() -> None:
    registry = make_registry(CorePlugin())
    searcher = lacak.searchers(registry=registry)["test-dijkstra"]
    assert searcher.optimal and searcher.handles(object())


def test_hook_register_heuristics() -> None:
    registry = make_registry(CorePlugin())
    assert set(lacak.heuristics("graph", registry=registry)) == {"zero", "scaled"}


def test_hook_register_generators() -> None:
    registry = make_registry(CorePlugin())
    generator = lacak.generators("graph", registry=registry)["random"]
    assert generator.options == {"goals": 1}


def test_hook_register_dictionaries() -> None:
    registry = make_registry(CorePlugin())
    source = lacak.dictionaries(registry=registry)["tiny"]
    assert source.language == "en"
    assert lacak.dictionary("tiny", registry=registry).words == ("ACT", "CAT")


def test_hook_register_commands() -> None:
    class Hello:
        @lacak.hookimpl
        def register_commands(self, cli: click.Group) -> None:
            @cli.command()
            def hello() -> None:
                click.echo("hello")

    result = CliRunner().invoke(make_cli(make_registry(Hello())), ["hello"])
    assert result.output == "hello\n"


def test_implementations_may_take_fewer_arguments() -> None:
    calls: list[Any] = []

    class NoArgs:
        @lacak.hookimpl
        def register_searchers(self) -> None:
            calls.append("called")

    registry = make_registry(NoArgs())
    assert list(registry.searchers()) == [] and calls == ["called"]
