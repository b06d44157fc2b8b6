"""Entry-point discovery, proven with real distributions written to disk."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import lacak
import pytest
from click.testing import CliRunner
from lacak.cli import make_cli

PLUGIN_SOURCE = '''
import lacak

def _search(puzzle, *, heuristic, limits, trace):
    return lacak.SearchResult(found=puzzle.is_goal(puzzle.initial), states=(puzzle.initial,))

@lacak.hookimpl
def register_searchers(register):
    register(lacak.Searcher(name="disk-strategy", search=_search, description="from disk"))

@lacak.hookimpl
def register_heuristics(register):
    register(lacak.Heuristic(name="disk-zero", kind="disk", estimate=lambda p, s: 0,
                             admissible=True))
'''


def write_distribution(root: Path, dist: str, entry_points: dict[str, str],
                       modules: dict[str, str]) -> None:
    """Write an installed-looking distribution (module files + ``*.dist-info``) under ``root``."""
    for module, source in modules.items():
        (root / f"{module}.py").write_text(textwrap.dedent(source))
    info = root / f"{dist.replace('-', '_')}-1.2.3.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.2.3\n")
    lines = ["[lacak]", *(f"{name} = {target}" for name, target in entry_points.items())]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n")


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_a_distribution_on_disk_is_discovered(site: Path) -> None:
    write_distribution(site, "lacak-disk", {"disk": "lacak_disk_plugin"},
                       {"lacak_disk_plugin": PLUGIN_SOURCE})
    registry = lacak.Registry(environ={"LACAK_LOAD_PLUGINS": "disk"})
    assert list(registry.searchers()) == ["disk-strategy"]
    assert list(registry.heuristics("disk")) == ["disk-zero"]
    (info,) = registry.plugins()
    assert (info.name, info.distribution, info.version) == ("disk", "lacak-disk", "1.2.3")

    result = CliRunner().invoke(make_cli(registry), ["plugins", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    (plugin,) = data["plugins"]
    assert plugin["registered"]["register_searchers"] == ["disk-strategy"]
    assert data["failures"] == []

    table = CliRunner().invoke(make_cli(registry), ["plugins", "--all"])
    assert "disk-strategy" in table.output and "lacak-disk 1.2.3" in table.output


def test_a_plugin_that_fails_to_import_is_reported_and_skipped(site: Path) -> None:
    write_distribution(
        site, "lacak-broken", {"broken": "lacak_broken_plugin", "disk": "lacak_disk_plugin"},
        {"lacak_broken_plugin": "raise ImportError('needs a missing library')",
         "lacak_disk_plugin": PLUGIN_SOURCE},
    )
    with pytest.warns(lacak.PluginWarning, match="needs a missing library"):
        registry = lacak.Registry(environ={"LACAK_LOAD_PLUGINS": "broken,disk"})
        registry.load_plugins()
    assert list(registry.searchers()) == ["disk-strategy"]
    (failure,) = registry.failures
    assert (failure.plugin, failure.stage) == ("broken", "import")
    assert failure.distribution == "lacak-broken"

    result = CliRunner().invoke(make_cli(registry), ["plugins", "--json"])
    data = json.loads(result.output)
    assert [f["plugin"] for f in data["failures"]] == ["broken"]
    table = CliRunner().invoke(make_cli(registry), ["plugins"])
    assert "failed plugins" in table.output and "broken" in table.output


def test_a_plugin_with_a_misspelled_hook_is_reported(site: Path) -> None:
    source = "import lacak\n@lacak.hookimpl\ndef register_searcher(register):\n    pass\n"
    write_distribution(site, "lacak-typo", {"typo": "lacak_typo_plugin"},
                       {"lacak_typo_plugin": source})
    with pytest.warns(lacak.PluginWarning, match="register_searcher"):
        registry = lacak.Registry(environ={"LACAK_LOAD_PLUGINS": "typo"})
        registry.load_plugins()
    assert [f.stage for f in registry.failures] == ["validate"]
    assert registry.plugins() == []


def test_disabled_plugins_are_not_loaded(site: Path) -> None:
    write_distribution(site, "lacak-disk", {"disk": "lacak_disk_plugin"},
                       {"lacak_disk_plugin": PLUGIN_SOURCE})
    registry = lacak.Registry(
        environ={"LACAK_LOAD_PLUGINS": "disk", "LACAK_DISABLE_PLUGINS": "disk"}
    )
    assert list(registry.searchers()) == []
    assert registry.failures == []


def test_builtin_plugins_are_entry_points() -> None:
    """The built-in plugins are found exactly like third-party ones."""
    names = {info.name: info for info in lacak.Registry().plugins()}
    for builtin in ("search", "sliding", "mazes", "boggle", "dictionaries"):
        assert names[builtin].distribution == "lacak"
        assert names[builtin].module == f"lacak_{builtin}"


def test_a_plugin_that_exits_at_import_is_reported_and_skipped(site: Path) -> None:
    """``sys.exit()`` in a plugin's module ends neither lacak nor the other plugins."""
    write_distribution(
        site, "lacak-quitter", {"quitter": "lacak_quitter_plugin", "disk": "lacak_disk_plugin"},
        {"lacak_quitter_plugin": "import sys\nsys.exit('no thanks')\n",
         "lacak_disk_plugin": PLUGIN_SOURCE},
    )
    with pytest.warns(lacak.PluginWarning, match="SystemExit: no thanks"):
        registry = lacak.Registry(environ={"LACAK_LOAD_PLUGINS": "quitter,disk"})
        assert list(registry.searchers()) == ["disk-strategy"]
    (failure,) = registry.failures
    assert (failure.plugin, failure.stage) == ("quitter", "import")
    result = CliRunner().invoke(make_cli(registry), ["plugins", "--json"])
    assert result.exit_code == 0, result.output
    assert [f["plugin"] for f in json.loads(result.stdout)["failures"]] == ["quitter"]
