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
        environ["PYTHONPATH"] = str(sites[site])
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
    maze = run(site, "maze", "generate", "-a", "wilson", "-s", "3x4", "--seed", "1", "--json")
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
