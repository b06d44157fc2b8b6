"""Real third-party plugins, installed with pip, next to the built-ins.

Each plugin here is a real distribution: a wheel (built by :func:`build_wheel`,
since the test environment need not have the ``wheel`` package) installed by
``pip install --no-deps --no-index --target`` into a folder of its own, and
``lacak`` runs in a subprocess with that folder on ``PYTHONPATH``, so the
plugins are found through their entry points exactly as after ``pip install``
(and their distributions come first on ``sys.path``, before lacak's own).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
import zipfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

#: A plugin that registers names the built-ins hold: a strategy that never finds a
#: path, a one-word "eng" dictionary, a maze generator that makes nothing.
CLASHING = '''
import lacak

def _never(puzzle, *, heuristic, limits, trace):
    return lacak.SearchResult.not_found(puzzle.initial, lacak.StopReason.EXHAUSTED,
                                        strategy="bfs")

@lacak.hookimpl
def register_searchers(register):
    register(lacak.Searcher(name="bfs", search=_never, description="says there is no path"))
    register(lacak.Searcher(name="{own}", search=_never, description="a name of its own"))

@lacak.hookimpl
def register_dictionaries(register):
    register(lacak.DictionarySource(
        name="eng", language="en",
        load=lambda: lacak.Dictionary(name="eng", language="en", words=["QQQQ"])))

@lacak.hookimpl
def register_generators(register):
    register(lacak.Generator(kind="maze", name="wilson", make=lambda size, seed: None))
'''

#: A plugin with an entry point named like a built-in (``search``).
SHADOW = '''
import lacak
from lacak_search_shadow_helper import never

@lacak.hookimpl
def register_searchers(register):
    register(lacak.Searcher(name="shadow", search=never, description="from lacak-shadow"))
    register(lacak.Searcher(name="astar", search=never, description="not the real astar"))
'''

SHADOW_HELPER = '''
import lacak

def never(puzzle, *, heuristic, limits, trace):
    return lacak.SearchResult.not_found(puzzle.initial, lacak.StopReason.EXHAUSTED)
'''

#: Two distributions with the same entry-point name ``twin``.
TWIN = '''
import lacak

@lacak.hookimpl
def register_heuristics(register):
    register(lacak.Heuristic(name="{name}", kind="sliding", estimate=lambda p, s: 0,
                             admissible=True))
'''

#: A plugin that prints to stdout at import and in every hook it implements.
NOISY = '''
import sys
import click
import lacak

print("NOISE at import")

def _never(puzzle, *, heuristic, limits, trace):
    return lacak.SearchResult.not_found(puzzle.initial, lacak.StopReason.EXHAUSTED)

@lacak.hookimpl
def register_searchers(register):
    print("NOISE in register_searchers")
    sys.stdout.write("NOISE written to sys.stdout\\n")
    register(lacak.Searcher(name="noisy", search=_never))

@lacak.hookimpl
def register_dictionaries(register):
    click.echo("NOISE echoed by click")

@lacak.hookimpl
def register_commands(cli):
    print("NOISE in register_commands")
'''

#: A plugin whose hooks block for ever (one of them after registering something).
BLOCKING = '''
import threading
import lacak

def _never(puzzle, *, heuristic, limits, trace):
    return lacak.SearchResult.not_found(puzzle.initial, lacak.StopReason.EXHAUSTED)

@lacak.hookimpl
def register_searchers(register):
    register(lacak.Searcher(name="sleepy", search=_never))
    threading.Event().wait()

@lacak.hookimpl
def register_heuristics(register):
    threading.Event().wait()

@lacak.hookimpl
def register_commands(cli):
    threading.Event().wait()
'''

#: A plugin whose import blocks for ever.
STUCK = "import threading\nthreading.Event().wait()\n"

#: A well-behaved plugin installed next to the blocking ones.
POLITE = '''
import lacak

@lacak.hookimpl
def register_dictionaries(register):
    register(lacak.DictionarySource(
        name="polite", language="en",
        load=lambda: lacak.Dictionary(name="polite", language="en", words=["CAT"])))
'''


#: A plugin whose components misbehave while lacak works: they print (every way there
#: is: print, sys.stdout, click.echo, file descriptor 1 and C's stdio), return estimates
#: that are not numbers of moves, raise, or sleep.
HOSTILE = '''
import ctypes
import math
import os
import sys
import time

import click
import lacak


def noise(where):
    print(f"NOISE printed in {where}")
    sys.stdout.write(f"NOISE written to sys.stdout in {where}\\n")
    sys.stdout.buffer.write(f"NOISE written to sys.stdout.buffer in {where}\\n".encode())
    click.echo(f"NOISE echoed by click in {where}")
    os.write(1, f"NOISE written to fd 1 in {where}\\n".encode())
    if os.name == "posix":
        libc = ctypes.CDLL(None)
        libc.puts(f"NOISE put by C in {where}".encode())  # buffered by C's stdio


def loud(puzzle, state):
    noise("a heuristic")
    return 0


def shouty(puzzle, *, heuristic, limits, trace):
    noise("a searcher")
    return lacak.SearchResult.not_found(puzzle.initial, lacak.StopReason.EXHAUSTED)


def broken(puzzle, *, heuristic, limits, trace):
    raise ValueError("the searcher broke")


def estimate(value):
    return lambda puzzle, state: value


def boom(puzzle, state):
    raise ValueError("the heuristic broke")


def sleep(puzzle, state):
    time.sleep(3600)
    return 0


def make_loud(size, seed):
    noise("a generator")
    return lacak.generate("maze", "wilson", (2, 3), seed=seed)


def load_loud():
    noise("a dictionary")
    return lacak.Dictionary(name="loud", language="en", words=["CAT", "ACT"])


@lacak.hookimpl
def register_heuristics(register):
    register(lacak.Heuristic(name="loud", kind="sliding", estimate=loud, admissible=True))
    for name, value in [("nan", math.nan), ("inf", math.inf), ("minus", -1), ("text", "x"),
                        ("yes", True), ("nothing", None)]:
        register(lacak.Heuristic(name=name, kind="sliding", estimate=estimate(value),
                                 admissible=True))
    register(lacak.Heuristic(name="boom", kind="sliding", estimate=boom))
    register(lacak.Heuristic(name="sleep", kind="sliding", estimate=sleep, admissible=True))


@lacak.hookimpl
def register_searchers(register):
    register(lacak.Searcher(name="shouty", search=shouty))
    register(lacak.Searcher(name="broken", search=broken))
    if os.environ.get("HOSTILE_BFS"):  # (to replace the built-in one, with LACAK_OVERRIDE)
        register(lacak.Searcher(name="bfs", search=broken, description="a broken bfs"))


@lacak.hookimpl
def register_generators(register):
    register(lacak.Generator(kind="maze", name="loud", make=make_loud))


@lacak.hookimpl
def register_dictionaries(register):
    register(lacak.DictionarySource(name="loud", language="en", load=load_loud))
'''

#: A plugin whose hook holds the interpreter (a catastrophic regular expression: the GIL
#: is never released, so no Python thread can stop it).
GREEDY = '''
import re
import lacak


@lacak.hookimpl
def register_heuristics(register):
    re.match(r"(a+)+$", "a" * 40 + "b")
'''

#: Its heuristic holds the interpreter (on every call).
GREEDY_HEURISTIC = '''
import re
import lacak


def greedy(puzzle, state):
    re.match(r"(a+)+$", "a" * 40 + "b")
    return 0


@lacak.hookimpl
def register_heuristics(register):
    register(lacak.Heuristic(name="greedy", kind="sliding", estimate=greedy))
'''


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"sha256={digest}"


def build_wheel(folder: Path, dist: str, modules: Mapping[str, str],
                entry_points: Mapping[str, str], version: str = "1.0") -> Path:
    """Write a pure-Python wheel of ``modules`` with ``entry_points`` in the ``lacak`` group."""
    stem = dist.replace("-", "_")
    info = f"{stem}-{version}.dist-info"
    files = {f"{module}.py": textwrap.dedent(source) for module, source in modules.items()}
    files[f"{info}/METADATA"] = f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n"
    files[f"{info}/WHEEL"] = (
        "Wheel-Version: 1.0\nGenerator: lacak-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    files[f"{info}/entry_points.txt"] = "[lacak]\n" + "".join(
        f"{name} = {target}\n" for name, target in entry_points.items()
    )
    record = [f"{path},{_record_hash(text.encode())},{len(text.encode())}"
              for path, text in files.items()]
    files[f"{info}/RECORD"] = "\n".join([*record, f"{info}/RECORD,,"]) + "\n"
    wheel = folder / f"{stem}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for path, text in files.items():
            archive.writestr(path, text)
    return wheel


def pip_install(target: Path, wheels: list[Path]) -> subprocess.Popen[str]:
    """Start installing ``wheels`` for real, offline, into ``target``."""
    return subprocess.Popen(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
         "--disable-pip-version-check", "--target", str(target), *map(str, wheels)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )


#: site name -> the distributions installed there: (dist, modules, entry points)
SITES: dict[str, list[tuple[str, dict[str, str], dict[str, str]]]] = {
    # entry point "aaa" sorts before every built-in, "zzz" after every one
    "before": [("lacak-aaa", {"lacak_aaa_plugin": CLASHING.format(own="aaa-own")},
                {"aaa": "lacak_aaa_plugin"})],
    "after": [("lacak-zzz", {"lacak_zzz_plugin": CLASHING.format(own="zzz-own")},
               {"zzz": "lacak_zzz_plugin"})],
    "named": [
        ("lacak-shadow", {"lacak_search_shadow": SHADOW,
                          "lacak_search_shadow_helper": SHADOW_HELPER},
         {"search": "lacak_search_shadow"}),
        ("lacak-twin-one", {"lacak_twin_one": TWIN.format(name="twin-one")},
         {"twin": "lacak_twin_one"}),
        ("lacak-twin-two", {"lacak_twin_two": TWIN.format(name="twin-two")},
         {"twin": "lacak_twin_two"}),
    ],
    "noisy": [("lacak-noisy", {"lacak_noisy_plugin": NOISY}, {"noisy": "lacak_noisy_plugin"})],
    "blocking": [
        ("lacak-sleepy", {"lacak_sleepy_plugin": BLOCKING}, {"sleepy": "lacak_sleepy_plugin"}),
        ("lacak-stuck", {"lacak_stuck_plugin": STUCK}, {"stuck": "lacak_stuck_plugin"}),
        ("lacak-polite", {"lacak_polite_plugin": POLITE}, {"polite": "lacak_polite_plugin"}),
    ],
    "hostile": [
        ("lacak-hostile", {"lacak_hostile_plugin": HOSTILE}, {"hostile": "lacak_hostile_plugin"}),
        ("lacak-greedy-heuristic", {"lacak_greedy_heuristic": GREEDY_HEURISTIC},
         {"greedy-heuristic": "lacak_greedy_heuristic"}),
    ],
    "greedy": [
        ("lacak-greedy", {"lacak_greedy_plugin": GREEDY}, {"greedy": "lacak_greedy_plugin"}),
        ("lacak-polite", {"lacak_polite_plugin": POLITE}, {"polite": "lacak_polite_plugin"}),
    ],
}


@pytest.fixture(scope="session")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every site of :data:`SITES`, its plugins built and installed with pip (once)."""
    root = tmp_path_factory.mktemp("third-party")
    installs = {}
    for site, dists in SITES.items():
        wheels = root / f"{site}-wheels"
        wheels.mkdir()
        built = [build_wheel(wheels, dist, modules, eps) for dist, modules, eps in dists]
        installs[site] = pip_install(root / site, built)  # all at once: pip starts slowly
    for site, install in installs.items():
        output, _ = install.communicate(timeout=300)
        assert install.returncode == 0, f"pip failed for {site}: {output}"
    return {site: root / site for site in SITES}


Run = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def run(sites: dict[str, Path]) -> Run:
    """Run ``python -m lacak ARGS`` with one site's plugins installed."""

    def run(site: str, *args: str, env: Mapping[str, str] | None = None,
            timeout: float = 120) -> subprocess.CompletedProcess[str]:
        environ = {k: v for k, v in os.environ.items() if not k.startswith("LACAK_")
                   or k == "LACAK_CACHE_DIR"}
        environ["PYTHONPATH"] = os.pathsep.join(  # the plugins' distributions first
            [str(sites[site]), *filter(None, [os.environ.get("PYTHONPATH")])]
        )
        environ.update(env or {})
        return subprocess.run([sys.executable, "-m", "lacak", *args], env=environ,
                              capture_output=True, text=True, timeout=timeout)

    return run


def plugins_json(run: Run, site: str, **env: str) -> dict[str, Any]:
    result = run(site, "plugins", "--json", env=env)
    assert result.returncode == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


SLIDING_BFS = ("sliding", "solve", "123450786", "--goal", "103425786", "--strategy", "bfs",
               "--json")


def assert_builtins_work(run: Run, site: str) -> str:
    """bfs, the eng dictionary and the wilson maze generator are the built-in ones.

    :returns: what solving with bfs wrote to stderr.
    """
    solved = run(site, *SLIDING_BFS)
    assert solved.returncode == 0, solved.stderr
    result = json.loads(solved.stdout)
    assert result["found"] is True and result["actions"] == ["L", "U"]
    word = run(site, "boggle", "check", "CATS/XXXX/XXXX/XXXX", "CATS", "--json")
    assert word.returncode == 0, word.stdout + word.stderr
    assert json.loads(word.stdout)["in_dictionary"] is True
    maze = run(site, "maze", "generate", "-a", "wilson", "--size", "3x4", "--seed", "1", "--json")
    assert maze.returncode == 0, maze.stderr
    assert len(json.loads(maze.stdout)["cells"]) == 3
    return solved.stderr


@pytest.mark.parametrize(("site", "culprit"), [("before", "aaa"), ("after", "zzz")])
def test_a_plugin_cannot_take_names_of_the_builtins(run: Run, site: str, culprit: str) -> None:
    warnings = assert_builtins_work(run, site)
    data = plugins_json(run, site)
    plugins = {p["name"]: p for p in data["plugins"]}
    assert "bfs" in plugins["search"]["registered"]["register_searchers"]
    assert "eng" in plugins["dictionaries"]["registered"]["register_dictionaries"]
    assert "maze/wilson" in plugins["mazes"]["registered"]["register_generators"]
    # the plugin keeps its own name, and only that
    assert plugins[culprit]["registered"] == {"register_searchers": [f"{culprit}-own"]}
    assert plugins[culprit]["builtin"] is False and plugins["search"]["builtin"] is True
    # every clash is reported against the plugin that caused it, never a built-in
    failures = data["failures"]
    assert {f["plugin"] for f in failures} == {culprit}
    assert {f["distribution"] for f in failures} == {f"lacak-{culprit}"}
    assert sorted(f["stage"] for f in failures) == [
        "register_dictionaries", "register_generators", "register_searchers"]
    by_stage = {f["stage"]: f["error"] for f in failures}
    assert "'bfs'" in by_stage["register_searchers"]
    assert "built-in plugin 'search'" in by_stage["register_searchers"]
    assert "'eng'" in by_stage["register_dictionaries"]
    # a command warns naming the culprit, on stderr
    assert f"warning: plugin '{culprit}' failed in register_searchers" in warnings
    assert "plugin 'search' failed" not in warnings
    # the table shows the culprit and its distribution
    table = run(site, "plugins")
    assert table.returncode == 0, table.stderr
    assert f"lacak-{culprit}" in table.stdout and "bfs" in table.stdout


def test_an_override_replaces_a_builtin_only_when_the_user_says_so(run: Run) -> None:
    env = {"LACAK_OVERRIDE": "bfs=aaa,maze/wilson"}
    solved = run("before", *SLIDING_BFS, env=env)
    assert json.loads(solved.stdout)["found"] is False  # aaa's bfs, as asked
    data = plugins_json(run, "before", **env)
    overrides = sorted((o["component"], o["plugin"], o["builtin"]) for o in data["overrides"])
    assert overrides == [("bfs", "aaa", "search"), ("maze/wilson", "aaa", "mazes")]
    plugins = {p["name"]: p for p in data["plugins"]}
    assert "bfs" not in plugins["search"]["registered"]["register_searchers"]
    assert "bfs" in plugins["aaa"]["registered"]["register_searchers"]
    # eng was not named: the built-in keeps it, and the clash is still reported
    assert [f["stage"] for f in data["failures"]] == ["register_dictionaries"]
    table = run("before", "plugins", env=env).stdout
    assert "LACAK_OVERRIDE" in table and "wilson" in table
    # an override for a plugin that does not register the name changes nothing
    other = run("before", *SLIDING_BFS, env={"LACAK_OVERRIDE": "bfs=nosuch"})
    assert json.loads(other.stdout)["found"] is True


def test_an_entry_point_named_like_a_builtin_keeps_its_own_identity(run: Run) -> None:
    data = plugins_json(run, "named")
    plugins = {p["name"]: p for p in data["plugins"]}
    builtin = plugins["search"]
    assert (builtin["module"], builtin["distribution"], builtin["builtin"]) == (
        "lacak_search", "lacak", True)
    assert "bfs" in builtin["registered"]["register_searchers"]
    assert "astar" in builtin["registered"]["register_searchers"]
    shadow = plugins["lacak-shadow:search"]
    assert (shadow["module"], shadow["entry_point"], shadow["builtin"]) == (
        "lacak_search_shadow", "search", False)
    assert shadow["registered"] == {"register_searchers": ["shadow"]}
    # two third-party entry points named "twin": both loaded, each under its own name
    assert plugins["lacak-twin-one:twin"]["registered"] == {
        "register_heuristics": ["sliding/twin-one"]}
    assert plugins["lacak-twin-two:twin"]["registered"] == {
        "register_heuristics": ["sliding/twin-two"]}
    (failure,) = data["failures"]
    assert failure["plugin"] == "lacak-shadow:search" and "'astar'" in failure["error"]
    assert_builtins_work(run, "named")
    table = run("named", "plugins").stdout
    assert "lacak-shadow:search" in table and "entry point 'search'" in table
    # the names shown are the names to disable
    alone = plugins_json(run, "named", LACAK_DISABLE_PLUGINS="lacak-shadow:search")
    names = {p["name"] for p in alone["plugins"]}
    assert "search" in names and "lacak-shadow:search" not in names
    assert alone["failures"] == []


def test_a_plugin_that_prints_never_reaches_stdout(run: Run) -> None:
    listed = run("noisy", "plugins", "--json")
    assert listed.returncode == 0, listed.stderr
    data = json.loads(listed.stdout)
    assert "noisy" in {p["name"] for p in data["plugins"]}
    for line in ("NOISE at import", "NOISE in register_searchers", "NOISE written to sys.stdout",
                 "NOISE echoed by click", "NOISE in register_commands"):
        assert line in listed.stderr
    solved = run("noisy", *SLIDING_BFS)
    assert json.loads(solved.stdout)["found"] is True
    assert "NOISE at import" in solved.stderr
    version = run("noisy", "--version")
    assert version.stdout.startswith("lacak, version") and "NOISE" not in version.stdout


def test_a_hook_that_blocks_is_skipped_after_the_timeout(run: Run) -> None:
    env = {"LACAK_PLUGIN_TIMEOUT": "1"}
    start = time.monotonic()
    data = plugins_json(run, "blocking", **env)
    elapsed = time.monotonic() - start
    # one wait for the import, one for the first hook of sleepy; its other hooks are not waited
    # for; generous slack for a loaded machine
    assert elapsed < 30
    failures = {(f["plugin"], f["stage"]): f["error"] for f in data["failures"]}
    assert "did not return within 1 s" in failures["stuck", "import"]
    # sleepy is reported once, for the first hook that hung; the others are not called
    (sleepy,) = [error for (plugin, _stage), error in failures.items() if plugin == "sleepy"]
    assert "did not return within 1 s" in sleepy
    plugins = {p["name"]: p for p in data["plugins"]}
    assert "stuck" not in plugins
    assert plugins["sleepy"]["registered"] == {}  # nothing of a hook that did not return
    assert plugins["polite"]["registered"] == {"register_dictionaries": ["polite"]}
    solved = run("blocking", *SLIDING_BFS, env=env)
    assert json.loads(solved.stdout)["found"] is True
    assert "did not return within 1 s" in solved.stderr


# -- plugin code running inside lacak's work -----------------------------------------

#: The 8-puzzle's hardest board (31 moves).
HARDEST = "867254301"


def _noise_on_stderr(err: str, where: str) -> None:
    """What the component printed was shown on stderr, every way it was written."""
    for way in ("printed", "written to sys.stdout", "written to sys.stdout.buffer",
                "echoed by click", "written to fd 1"):
        assert f"NOISE {way} in {where}" in err, (way, err)
    if os.name == "posix":
        assert f"NOISE put by C in {where}" in err, err


@pytest.mark.parametrize(
    ("where", "args", "jsonl"),
    [
        ("a heuristic", ("sliding", "solve", "123450786", "-s", "astar", "-H", "loud", "--json"),
         False),
        ("a heuristic", ("sliding", "solve", "123450786", "-s", "idastar-tiles", "-H", "loud",
                         "-f", "json", "-o", "-"), False),
        ("a searcher", ("sliding", "solve", "123450786", "-s", "shouty", "--json"), False),
        ("a generator", ("maze", "generate", "-a", "loud", "--seed", "3", "--json"), False),
        ("a generator", ("batch", "maze", "-a", "loud", "-n", "3", "--seed", "1", "-w", "1"),
         True),
        ("a dictionary", ("boggle", "solve", "CATS/XXXX/XXXX/XXXX", "-d", "loud", "--json"),
         False),
        ("a dictionary", ("dictionaries", "export", "loud", "-f", "list"), False),
    ],
)
def test_what_a_component_prints_never_reaches_machine_output(
    run: Run, where: str, args: tuple[str, ...], jsonl: bool
) -> None:
    result = run("hostile", *args)
    assert result.returncode in (0, 1), result.stderr
    assert "NOISE" not in result.stdout
    if jsonl:
        records = [json.loads(line) for line in result.stdout.splitlines()]
        assert len(records) == 3 and all(record["ok"] for record in records), records
    else:
        json.loads(result.stdout)  # the answer, and nothing else
    _noise_on_stderr(result.stderr, where)


def test_what_a_dictionary_prints_never_reaches_solve_many_records(
    run: Run, tmp_path: Path
) -> None:
    boards = tmp_path / "boards.txt"
    boards.write_text("CATS/XXXX/XXXX/XXXX\nACTS/XXXX/XXXX/XXXX\n")
    result = run("hostile", "boggle", "solve-many", str(boards), "-d", "loud", "--json")
    assert result.returncode == 0, result.stderr
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [record["kind"] for record in records] == ["boggle", "boggle"], records
    _noise_on_stderr(result.stderr, "a dictionary")


def test_a_component_that_prints_leaves_text_output_alone(run: Run) -> None:
    result = run("hostile", "sliding", "solve", "123450786", "-s", "astar", "-H", "loud")
    assert result.returncode == 0, result.stderr
    assert "NOISE" not in result.stdout and result.stdout.startswith("found: 1 move")
    _noise_on_stderr(result.stderr, "a heuristic")


@pytest.mark.parametrize("name", ["nan", "inf", "minus", "text", "yes", "nothing"])
@pytest.mark.parametrize("strategy", ["astar", "idastar", "weighted-astar", "astar-tiles",
                                      "idastar-tiles"])
def test_an_estimate_that_is_not_a_finite_number_stops_the_search(
    run: Run, name: str, strategy: str
) -> None:
    result = run("hostile", "sliding", "solve", HARDEST, "-s", strategy, "-H", name, "--json")
    assert result.returncode == 2, (result.stdout[:300], result.stderr)
    assert result.stdout == ""
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"Error: heuristic 'sliding/{name}' of plugin 'hostile' returned ")
    assert "an estimate is a finite number >= 0" in line


@pytest.mark.parametrize(
    ("args", "env", "component"),
    [
        (("-s", "astar", "-H", "boom"), {}, "heuristic 'sliding/boom'"),
        (("-s", "broken"), {}, "strategy 'broken'"),
        (("-s", "bfs"), {"LACAK_OVERRIDE": "bfs=hostile", "HOSTILE_BFS": "1"}, "strategy 'bfs'"),
    ],
)
def test_an_error_in_a_component_names_the_plugin_and_the_component(
    run: Run, args: tuple[str, ...], env: dict[str, str], component: str
) -> None:
    result = run("hostile", "sliding", "solve", "123450786", *args, "--json", env=env)
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"Error: plugin 'hostile' failed in {component}: ValueError: the ")
    assert "internal error" not in line and "--debug" in line


def test_a_heuristic_that_sleeps_is_stopped_at_the_time_limit(run: Run) -> None:
    start = time.monotonic()
    result = run("hostile", "sliding", "solve", HARDEST, "-s", "astar", "-H", "sleep",
                 "--timeout", "2", "--json", timeout=60)
    assert time.monotonic() - start < 2 + 20  # about 2 s and a second's grace, if not loaded
    assert result.returncode == 1, result.stderr
    assert result.stdout == ""
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("Error: stopped: heuristic 'sliding/sleep' of plugin 'hostile' did "
                           "not return within the time limit")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the sentinel is a forked process")
def test_a_heuristic_that_holds_the_interpreter_is_stopped_after_the_time_limit(
    run: Run,
) -> None:
    start = time.monotonic()
    result = run("hostile", "sliding", "solve", HARDEST, "-s", "astar", "-H", "greedy",
                 "--timeout", "2", "--json", timeout=90)
    assert time.monotonic() - start < 2 + 30
    # no thread of it can run: the sentinel it forked said so and killed it
    assert result.returncode == -signal.SIGKILL, result.stderr
    assert result.stdout == ""
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("Error: stopped: plugin code (heuristic 'sliding/greedy' of plugin "
                           "'greedy-heuristic', or code it called) did not return within the "
                           "time limit and holds the interpreter")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the sentinel is a forked process")
def test_a_hook_that_holds_the_interpreter_is_stopped_after_the_plugin_limit(run: Run) -> None:
    start = time.monotonic()
    result = run("greedy", "plugins", "--json", env={"LACAK_PLUGIN_TIMEOUT": "1"}, timeout=90)
    assert time.monotonic() - start < 1 + 30
    assert result.returncode == -signal.SIGKILL, result.stderr
    assert result.stdout == ""
    (line,) = result.stderr.strip().splitlines()
    assert line == ("Error: stopped: register_heuristics of plugin 'greedy' did not return "
                    "within 1 s and holds the interpreter (LACAK_DISABLE_PLUGINS=greedy skips "
                    "the plugin)")
    listed = run("greedy", "plugins", "--json", env={"LACAK_DISABLE_PLUGINS": "greedy"})
    assert json.loads(listed.stdout)["failures"] == []
