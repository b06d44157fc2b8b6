"""Built-ins keep their names; plugins cannot print into lacak's output or hang it.

Fresh registries with plugins added by hand (the built-in one marked
``builtin=True``); real installed plugins are in ``test_third_party_plugins.py``.
"""

from __future__ import annotations

import contextvars
import io
import json
import os
import pickle
import subprocess
import sys
import threading
import time
from typing import Any

import click
import lacak
import pytest
from click.testing import CliRunner
from hypothesis import example, given
from hypothesis import strategies as st
from lacak.cli import make_cli
from lacak.plugin.isolation import PluginTimeout, call_with_timeout, stdout_to_stderr
from lacak.plugin.loader import (
    DEFAULT_PLUGIN_TIMEOUT,
    OverrideRule,
    PluginLoader,
    get_plugin_manager,
)
from lacak.testing import GraphPuzzle

from .plugin_helpers import CorePlugin


def _never(puzzle: Any, **_: Any) -> lacak.SearchResult:
    return lacak.SearchResult.not_found(puzzle.initial, lacak.StopReason.EXHAUSTED)


class Clash:
    """A third-party plugin registering names the CorePlugin holds, and one of its own."""

    @lacak.hookimpl(tryfirst=True)
    def register_searchers(self, register: Any) -> None:
        register(lacak.Searcher(name="test-dijkstra", search=_never))
        register(lacak.Searcher(name="clash-own", search=_never))

    @lacak.hookimpl
    def register_heuristics(self, register: Any) -> None:
        register(lacak.Heuristic(name="zero", kind="graph", estimate=lambda p, s: 99))

    @lacak.hookimpl
    def register_dictionaries(self, register: Any) -> None:
        register(lacak.DictionarySource(name="tiny", load=lambda: None))


def registry_with(*plugins: tuple[str, object, bool], **environ: str) -> lacak.Registry:
    """A registry without entry points and with ``(name, plugin, builtin)`` added in order."""
    registry = lacak.Registry(entry_points=False, environ=environ)
    for name, plugin, builtin in plugins:
        registry.add_plugin(plugin, name, builtin=builtin)
    return registry


# -- built-ins first -------------------------------------------------------------


@given(third_party_first=st.booleans(), names=st.permutations(["aaa", "core", "zzz"]))
def test_a_builtin_keeps_its_names_whatever_the_order(
    third_party_first: bool, names: list[str]
) -> None:
    builtin_name, *others = names
    plugins = [(builtin_name, CorePlugin(), True)] + [(n, Clash(), False) for n in others]
    if third_party_first:
        plugins.reverse()
    with pytest.warns(lacak.PluginWarning):
        registry = registry_with(*plugins)
        assert registry.searchers().owner("test-dijkstra") == builtin_name
        assert registry.heuristics("graph").owner("zero") == builtin_name
        assert registry.dictionaries().owner("tiny") == builtin_name
        failures = registry.failures
    # every clash is reported against a third-party plugin, and names the built-in
    assert {f.plugin for f in failures} == set(others)
    builtin_clashes = [f for f in failures if f"built-in plugin {builtin_name!r}" in f.error]
    assert sorted(f.plugin for f in builtin_clashes) == sorted(others * 3)
    # between third-party plugins the first loaded keeps a name; the second is reported
    first, second = [name for name, _plugin, builtin in plugins if not builtin]
    assert registry.searchers().owner("clash-own") == first
    (clash,) = [f for f in failures if f not in builtin_clashes]
    assert clash.plugin == second and "'clash-own'" in clash.error
    infos = {info.name: info for info in registry.plugins()}
    assert infos[builtin_name].builtin and not any(infos[n].builtin for n in others)
    assert infos[builtin_name].registered["register_searchers"] == ("test-dijkstra",)


def test_a_refused_name_says_how_to_override_it() -> None:
    with pytest.warns(lacak.PluginWarning) as caught:
        registry = registry_with(("aaa", Clash(), False), ("core", CorePlugin(), True))
        assert len(registry.failures) == 3
    messages = [str(w.message) for w in caught]
    assert (
        "plugin 'aaa' failed in register_searchers: DuplicateComponentError: strategy "
        "'test-dijkstra' belongs to built-in plugin 'core'; plugin 'aaa' cannot replace it "
        "(unless LACAK_OVERRIDE=test-dijkstra=aaa is set); the built-in one is kept"
    ) in messages
    assert any("LACAK_OVERRIDE=graph/zero=aaa" in m for m in messages)


def test_two_third_party_plugins_clash_first_loaded_wins() -> None:
    class Other:
        @lacak.hookimpl
        def register_searchers(self, register: Any) -> None:
            register(lacak.Searcher(name="clash-own", search=_never))

    with pytest.warns(lacak.PluginWarning, match="registered by both plugin 'aaa' and plugin 'bbb'"):
        registry = registry_with(("aaa", Clash(), False), ("bbb", Other(), False))
        assert registry.searchers().owner("clash-own") == "aaa"


def test_a_builtin_command_cannot_be_taken() -> None:
    def group(label: str) -> click.Group:
        @click.group("hello")
        def hello() -> None:
            """A group."""

        @hello.command(label)
        def sub() -> None:
            click.echo(label)

        return hello

    class Builtin:
        @lacak.hookimpl
        def register_commands(self, cli: click.Group) -> None:
            cli.add_command(group("builtin"))

    class Intruder:
        @lacak.hookimpl(tryfirst=True)
        def register_commands(self, cli: click.Group) -> None:
            cli.add_command(group("intruder"))

    with pytest.warns(lacak.PluginWarning, match="'hello' is registered by both plugin 'core'"):
        registry = registry_with(("aaa", Intruder(), False), ("core", Builtin(), True))
        cli = make_cli(registry)
    result = CliRunner().invoke(cli, ["hello", "builtin"])
    assert result.exit_code == 0 and result.stdout == "builtin\n"
    (failure,) = registry.failures
    assert failure.plugin == "aaa"


# -- LACAK_OVERRIDE --------------------------------------------------------------


def test_an_override_replaces_a_builtin_component() -> None:
    environ = {"LACAK_OVERRIDE": "test-dijkstra=aaa, graph/zero"}
    with pytest.warns(lacak.PluginWarning, match="dictionary 'tiny' belongs to built-in"):
        registry = registry_with(("core", CorePlugin(), True), ("aaa", Clash(), False), **environ)
        assert registry.searchers().owner("test-dijkstra") == "aaa"
        assert registry.heuristics("graph").owner("zero") == "aaa"
        assert registry.dictionaries().owner("tiny") == "core"  # not named: not replaced
        overrides = registry.overrides
    assert [(o.plugin, o.hook, o.component, o.builtin) for o in overrides] == [
        ("aaa", "register_searchers", "test-dijkstra", "core"),
        ("aaa", "register_heuristics", "graph/zero", "core"),
    ]
    infos = {info.name: info for info in registry.plugins()}
    assert "register_searchers" not in infos["core"].registered
    assert infos["core"].registered["register_heuristics"] == ("graph/scaled",)
    assert infos["aaa"].registered["register_searchers"] == ("test-dijkstra", "clash-own")
    assert registry.unused_overrides() == []


def test_an_override_for_another_plugin_replaces_nothing() -> None:
    environ = {"LACAK_OVERRIDE": "test-dijkstra=bbb,nosuch"}
    with pytest.warns(lacak.PluginWarning, match="belongs to built-in plugin 'core'"):
        registry = registry_with(("core", CorePlugin(), True), ("aaa", Clash(), False), **environ)
        assert registry.searchers().owner("test-dijkstra") == "core"
        assert registry.overrides == []
    assert registry.unused_overrides() == ["test-dijkstra=bbb", "nosuch"]


def test_override_rules() -> None:
    assert OverrideRule.parse_all("") == []
    assert OverrideRule.parse_all(" bfs , maze/wilson = dist:name ,") == [
        OverrideRule("bfs"), OverrideRule("maze/wilson", "dist:name")]
    rule, qualified = OverrideRule("wilson"), OverrideRule("maze/wilson", "p")
    assert rule.matches("maze/wilson", "anyone") and rule.matches("wilson", "anyone")
    assert qualified.matches("maze/wilson", "p") and not qualified.matches("maze/wilson", "q")
    assert not qualified.matches("other/wilson", "p")
    for bad in ("=p", "bfs=", " = "):
        with pytest.raises(lacak.InvalidOptionError, match="COMPONENT=PLUGIN"):
            OverrideRule.parse_all(bad)
    with pytest.raises(lacak.InvalidOptionError, match="LACAK_OVERRIDE"):
        lacak.Registry(entry_points=False, environ={"LACAK_OVERRIDE": "bfs="})


# -- stdout ------------------------------------------------------------------------


class Noisy:
    @lacak.hookimpl
    def register_searchers(self, register: Any) -> None:
        print("noise from register_searchers")
        click.echo("noise from click")
        register(lacak.Searcher(name="noisy", search=_never))

    @lacak.hookimpl
    def register_commands(self, cli: click.Group) -> None:
        print("noise from register_commands")


def test_plugin_output_goes_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    before = sys.stdout
    registry = registry_with(("noisy", Noisy(), False))
    assert list(registry.searchers()) == ["noisy"]
    make_cli(registry)
    out, err = capsys.readouterr()
    assert out == ""
    assert "noise from register_searchers" in err and "noise from click" in err
    assert "noise from register_commands" in err
    assert sys.stdout is before


def test_plugins_json_in_cli_runner_stays_json() -> None:
    registry = registry_with(("noisy", Noisy(), False), ("core", CorePlugin(), True))
    result = CliRunner().invoke(make_cli(registry), ["plugins", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert {p["name"]: p["builtin"] for p in data["plugins"]} == {"noisy": False, "core": True}
    assert "noise from register_searchers" in result.stderr


def test_stdout_redirection_is_shared_and_restored() -> None:
    original = sys.stdout
    entered, release = threading.Barrier(5), threading.Event()

    def worker() -> None:
        with stdout_to_stderr():
            entered.wait()
            release.wait()

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    entered.wait()
    assert sys.stdout is sys.stderr
    with stdout_to_stderr():  # nested, in this thread
        assert sys.stdout is sys.stderr
    assert sys.stdout is sys.stderr  # the others are still inside
    release.set()
    for thread in threads:
        thread.join()
    assert sys.stdout is original


def test_stdout_replaced_inside_the_block_is_left_alone() -> None:
    original, replacement = sys.stdout, io.StringIO()
    try:
        with stdout_to_stderr():
            sys.stdout = replacement
        assert sys.stdout is replacement
    finally:
        sys.stdout = original


# -- time limits -------------------------------------------------------------------


def test_call_with_timeout_returns_raises_and_keeps_context() -> None:
    var: contextvars.ContextVar[str] = contextvars.ContextVar("var")
    var.set("caller's")
    assert call_with_timeout(lambda: var.get(), 5, "get") == "caller's"
    assert call_with_timeout(lambda: 42, None, "answer") == 42
    with pytest.raises(SystemExit, match="3"):
        call_with_timeout(lambda: sys.exit(3), 5, "exit")
    with pytest.raises(ZeroDivisionError):
        call_with_timeout(lambda: 1 / 0, 5, "divide")
    release = threading.Event()
    try:
        with pytest.raises(PluginTimeout, match=r"^sleep did not return within 0\.05 s$"):
            call_with_timeout(release.wait, 0.05, "sleep")
    finally:
        release.set()


def test_timeout_setting() -> None:
    def timeout(value: str | None) -> float | None:
        environ = {} if value is None else {"LACAK_PLUGIN_TIMEOUT": value}
        return PluginLoader(get_plugin_manager(), environ).timeout

    assert timeout(None) == timeout("") == DEFAULT_PLUGIN_TIMEOUT
    assert timeout("0.25") == 0.25
    assert timeout("0") is None
    for bad in ("soon", "-1", "nan", "inf"):
        with pytest.raises(lacak.InvalidOptionError, match="LACAK_PLUGIN_TIMEOUT"):
            timeout(bad)


def test_cli_reports_a_bad_setting_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LACAK_PLUGIN_TIMEOUT", "soon")
    lacak.reset_default_registry()
    try:
        with pytest.raises(SystemExit) as exit_info:
            lacak.cli.main(["--version"])
    finally:
        lacak.reset_default_registry()
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("Error: LACAK_PLUGIN_TIMEOUT must be a number of seconds")
    assert err.count("\n") == 1


class Blocking:
    """Blocks in register_searchers until released, after registering something."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.calls: list[str] = []

    @lacak.hookimpl
    def register_searchers(self, register: Any) -> None:
        self.calls.append("register_searchers")
        register(lacak.Searcher(name="early", search=_never))
        self.release.wait()
        register(lacak.Searcher(name="late", search=_never))

    @lacak.hookimpl
    def register_dictionaries(self, register: Any) -> None:
        self.calls.append("register_dictionaries")


def test_a_blocking_hook_is_skipped_with_the_rest_of_its_plugin() -> None:
    blocking = Blocking()
    try:
        with pytest.warns(lacak.PluginWarning, match=r"did not return within 0\.2 s"):
            registry = registry_with(
                ("core", CorePlugin(), True), ("slow", blocking, False),
                LACAK_PLUGIN_TIMEOUT="0.2",
            )
            start = time.monotonic()
            assert list(registry.searchers()) == ["test-dijkstra"]
            assert time.monotonic() - start < 30  # it waited 0.2 s, not for ever
        assert list(registry.dictionaries()) == ["tiny"]
        assert blocking.calls == ["register_searchers"]  # its other hooks are not called
        (failure,) = registry.failures
        assert (failure.plugin, failure.stage) == ("slow", "register_searchers")
        assert failure.error == "PluginTimeout: register_searchers did not return within 0.2 s"
    finally:
        blocking.release.set()
    time.sleep(0.05)
    assert list(registry.searchers()) == ["test-dijkstra"]  # what it did late is ignored
    (info,) = [i for i in registry.plugins() if i.name == "slow"]
    assert info.registered == {}


def test_a_builtin_is_not_timed() -> None:
    class SlowBuiltin:
        @lacak.hookimpl
        def register_searchers(self, register: Any) -> None:
            time.sleep(0.3)
            register(lacak.Searcher(name="slow-but-sure", search=_never))

    registry = registry_with(("core", SlowBuiltin(), True), LACAK_PLUGIN_TIMEOUT="0.05")
    assert list(registry.searchers()) == ["slow-but-sure"]
    assert registry.failures == []


# -- a third-party plugin's components: called isolated ---------------------------------

#: A small graph: 0 -> 1 -> 2 -> 3 (the goal), and a detour 0 -> 4 -> 3.
GRAPH = GraphPuzzle(
    edges={0: (("a", 1, 1.0), ("d", 4, 1.0)), 1: (("b", 2, 1.0),), 2: (("c", 3, 1.0),),
           4: (("e", 3, 5.0),)},
    initial=0, goals={3},
)  # fmt: skip


class Components:
    """A third-party plugin's heuristic (its value settable), strategies and generator."""

    value: Any = 0

    @lacak.hookimpl
    def register_heuristics(self, register: Any) -> None:
        register(lacak.Heuristic(name="given", kind="graph", admissible=True,
                                 estimate=lambda puzzle, state: Components.value))
        register(lacak.Heuristic(name="prepared", kind="graph", admissible=True,
                                 estimate=lambda puzzle, state: 0,
                                 prepare=lambda puzzle: _Table()))  # fmt: skip

    @lacak.hookimpl
    def register_searchers(self, register: Any) -> None:
        def broken(puzzle: Any, **_: Any) -> Any:
            raise KeyError("the open list")

        def refusing(puzzle: Any, **_: Any) -> Any:
            raise lacak.InvalidOptionError("no such thing")

        def greedy(puzzle: Any, **_: Any) -> Any:
            raise MemoryError

        register(lacak.Searcher(name="broken", search=broken))
        register(lacak.Searcher(name="refusing", search=refusing))
        register(lacak.Searcher(name="greedy", search=greedy))

    @lacak.hookimpl
    def register_generators(self, register: Any) -> None:
        def make(size: Any, seed: Any) -> Any:
            sys.exit(3)

        register(lacak.Generator(kind="graph", name="exits", make=make))


def _estimate(puzzle: Any, state: Any) -> int:
    return 0


class _Table:
    """A prepared form with a table a specialised searcher may read."""

    table = ((0, 1), (1, 0))

    def __call__(self, state: Any) -> int:
        return 0


def _components() -> lacak.Registry:
    import lacak_search

    return registry_with(("search", lacak_search, True), ("core", CorePlugin(), True),
                         ("third", Components(), False))  # fmt: skip


def test_a_third_party_component_is_called_isolated_a_builtin_as_it_is() -> None:
    from lacak.plugin.isolation import Estimate, PluginCall, Prepare

    registry = _components()
    given = registry.heuristics("graph")["given"]
    assert isinstance(given.estimate, Estimate) and given.estimate.plugin == "third"
    assert given.estimate.what == "heuristic 'graph/given'"
    assert isinstance(registry.heuristics("graph")["prepared"].prepare, Prepare)
    assert isinstance(registry.searchers()["broken"].search, PluginCall)
    assert registry.searchers()["broken"].search.__name__ == "broken"
    builtin = registry.heuristics("graph")["zero"]
    assert not isinstance(builtin.estimate, PluginCall)  # its hot path is untouched
    assert not isinstance(registry.searchers()["astar"].search, PluginCall)
    # what a batch sends to its workers pickles (when the function does)
    copy = pickle.loads(pickle.dumps(Estimate(_estimate, "third", "heuristic 'graph/x'")))
    assert isinstance(copy, Estimate) and copy.label == "heuristic 'graph/x' of plugin 'third'"
    assert copy(GRAPH, 0) == 0 and copy.__wrapped__ is _estimate


def test_a_prepared_form_keeps_its_own_attributes() -> None:
    prepared = _components().heuristics("graph")["prepared"].for_puzzle(GRAPH)
    assert prepared(0) == 0 and prepared.table == ((0, 1), (1, 0))


@pytest.mark.parametrize("strategy", ["astar", "idastar", "best-first", "weighted-astar"])
@given(value=st.one_of(st.floats(), st.integers(-5, 10**30), st.booleans(), st.none(),
                       st.text(max_size=2), st.fractions()))  # fmt: skip
@example(value=float("nan"))
@example(value=float("inf"))
@example(value=-1)
@example(value=True)
def test_an_estimate_is_a_finite_number_of_at_least_zero(strategy: str, value: Any) -> None:
    import fractions
    import math

    registry = _components()
    good = (not isinstance(value, bool) and isinstance(value, (int, float, fractions.Fraction))
            and math.isfinite(value) and value >= 0)  # fmt: skip
    Components.value = value
    try:
        if good:
            result = lacak.solve(GRAPH, strategy, heuristic="given", registry=registry)
            assert result.found
        else:
            with pytest.raises(lacak.PluginError) as refused:
                lacak.solve(GRAPH, strategy, heuristic="given", registry=registry)
            message = str(refused.value)
            assert message.startswith("heuristic 'graph/given' of plugin 'third' returned ")
            assert "for the state 0: an estimate is a finite number >= 0" in message
            with pytest.raises(lacak.PluginError):  # called one state at a time, too
                registry.heuristics("graph")["given"](GRAPH, 0)
    finally:
        Components.value = 0


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda r: lacak.solve(GRAPH, "broken", registry=r),
         "plugin 'third' failed in strategy 'broken': KeyError: 'the open list'"),
        (lambda r: lacak.generate("graph", "exits", 3, registry=r),
         "plugin 'third' failed in generator 'graph/exits': SystemExit: 3"),
    ],
)
def test_an_error_in_a_component_names_its_plugin_and_the_component(
    call: Any, message: str
) -> None:
    with pytest.raises(lacak.PluginError) as failed:
        call(_components())
    assert str(failed.value) == message
    assert isinstance(failed.value.__cause__, (KeyError, SystemExit))  # the traceback stays


def test_lacak_errors_and_memory_errors_pass_a_component_as_they_are() -> None:
    registry = _components()
    with pytest.raises(lacak.InvalidOptionError, match=r"^no such thing$"):
        lacak.solve(GRAPH, "refusing", registry=registry)
    with pytest.raises(lacak.OutOfMemoryError, match="strategy 'greedy'"):
        lacak.solve(GRAPH, "greedy", registry=registry)


def test_the_culprit_is_the_innermost_plugin_code() -> None:
    from lacak.plugin.isolation import PluginCall, culprit, note_plugin_module

    seen: list[str | None] = []
    outer = PluginCall(lambda: inner(), "outer-plugin", "strategy 'outer'")
    inner = PluginCall(lambda: seen.append(culprit(sys._getframe())), "inner-plugin",
                       "heuristic 'graph/inner'")  # fmt: skip
    outer()
    assert seen == ["heuristic 'graph/inner' of plugin 'inner-plugin'"]
    assert culprit(sys._getframe()) is None  # lacak's (here, the test's) own code
    note_plugin_module(__name__, "tests-as-a-plugin")
    try:
        assert culprit(sys._getframe()) == (
            f"plugin 'tests-as-a-plugin' ({__name__}.test_the_culprit_is_the_innermost_plugin_code)"
        )
    finally:
        from lacak.plugin import isolation

        isolation.calls._MODULES.pop(__name__)


def test_a_failing_hook_skips_what_it_registers_in_plain_english() -> None:
    class Failing:
        @lacak.hookimpl
        def register_searchers(self, register: Any) -> None:
            raise RuntimeError("no")

        @lacak.hookimpl
        def register_dictionaries(self, register: Any) -> None:
            raise RuntimeError("no")

    registry = registry_with(("failing", Failing(), False))
    with pytest.warns(lacak.PluginWarning, match="its strategies are skipped"):
        registry.searchers()
    with pytest.warns(lacak.PluginWarning, match="its dictionaries are skipped"):
        registry.dictionaries()


# -- only lacak's output on stdout ----------------------------------------------------------


def test_plugin_code_writes_to_stderr_under_stdout_for_lacak(
    capfd: pytest.CaptureFixture[str],
) -> None:
    from lacak.plugin.isolation import quiet, stdout_for_lacak

    original = sys.stdout
    with stdout_for_lacak():
        print("lacak's answer")
        sys.stdout.buffer.write(b"lacak's bytes\n")
        with quiet():
            print("a plugin's print")
            sys.stdout.write("a plugin's write\n")
            sys.stdout.buffer.write(b"a plugin's bytes\n")
            click.echo("a plugin's echo")
        os.write(1, b"C code's write to descriptor 1\n")  # whoever writes there
        print("lacak's last word")
    assert sys.stdout is original
    print("after")
    out, err = capfd.readouterr()
    assert out == "lacak's answer\nlacak's bytes\nlacak's last word\nafter\n"
    for line in ("a plugin's print", "a plugin's write", "a plugin's bytes", "a plugin's echo",
                 "C code's write to descriptor 1"):  # fmt: skip
        assert line in err


def test_a_noisy_heuristic_in_cli_runner_leaves_the_json_alone() -> None:
    import lacak_search
    import lacak_sliding

    class Noisy:
        @lacak.hookimpl
        def register_heuristics(self, register: Any) -> None:
            def noisy(puzzle: Any, state: Any) -> int:
                print("noise from a heuristic")
                click.echo("noise from click")
                return 0

            register(lacak.Heuristic(name="noisy", kind="sliding", estimate=noisy))

    registry = registry_with(("search", lacak_search, True), ("sliding", lacak_sliding, True),
                             ("noisy", Noisy(), False))  # fmt: skip
    result = CliRunner().invoke(
        make_cli(registry), ["sliding", "solve", "123450786", "-s", "astar", "-H", "noisy",
                             "--json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["actions"] == ["D"]
    assert "noise from a heuristic" in result.stderr and "noise from click" in result.stderr


# -- the watchdog ---------------------------------------------------------------------------

WATCHED = """
import sys, time
import lacak
from lacak.plugin import isolation

def sleepy():
    time.sleep(3600)

with isolation.watchdog():
    with lacak.deadline(time.perf_counter() + {seconds}):
        {body}
print("done")
"""


def _watched(body: str, seconds: float = 0.5) -> subprocess.CompletedProcess[str]:
    code = WATCHED.format(seconds=seconds, body=body)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)  # fmt: skip


def test_the_watchdog_stops_plugin_code_that_overruns_a_deadline() -> None:
    start = time.monotonic()
    result = _watched("isolation.PluginCall(sleepy, 'sleeper', \"heuristic 'x/y'\")()")
    assert time.monotonic() - start < 60
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr == (
        "Error: stopped: heuristic 'x/y' of plugin 'sleeper' did not return within the time "
        "limit (it ran 1 s past it)\n"
    )


def test_the_watchdog_leaves_lacak_s_own_work_alone() -> None:
    # lacak's own code keeps its deadlines itself: running past one is not the watchdog's
    result = _watched("time.sleep(2.5)", seconds=0.2)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "done\n" and result.stderr == ""


def test_no_watchdog_outside_the_lacak_script() -> None:
    # a library is never ended by lacak: the same overrun just takes its time
    code = ("import time, lacak\nfrom lacak import isolation\n"
            "with lacak.deadline(time.perf_counter() + 0.1):\n"
            "    isolation.PluginCall(lambda: time.sleep(1.5), 'p', 'strategy s')()\n"
            "print('done')\n")  # fmt: skip
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120)  # fmt: skip
    assert result.returncode == 0 and result.stdout == "done\n", result.stderr
