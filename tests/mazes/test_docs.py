"""The maze plugin's docstring examples run, and docs/mazes.md matches the code."""

from __future__ import annotations

import doctest
import importlib
import json
import re
from pathlib import Path
from typing import Any

import lacak
import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs" / "mazes.md"

MODULES = [
    "lacak_mazes",
    "lacak_mazes._common",
    "lacak_mazes.generators._common",
    "lacak_mazes.maze",
    "lacak_mazes.puzzle",
    "lacak_mazes.heuristics",
    "lacak_mazes.solvers",
    "lacak_mazes.render",
    "lacak_mazes.stats",
    "lacak_mazes.generators.huntkill",
    "lacak_mazes.generators.backtracker",
    "lacak_mazes.generators.kruskal",
    "lacak_mazes.generators.eller",
    "lacak_mazes.generators.prim",
    "lacak_mazes.generators.wilson",
    "lacak_mazes.generators.aldous_broder",
    "lacak_mazes.generators._walk",
    "lacak_mazes.generators.simple",
    "lacak_mazes.generators.growing_tree",
    "lacak_mazes.generators.division",
    "lacak_mazes.carving",
    "lacak_mazes.interop",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    failures, _tried = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert failures == 0


def test_every_generator_and_strategy_is_documented() -> None:
    text = DOCS.read_text()
    for name in lacak.generators("maze"):
        if lacak.generators("maze").owner(name) == "mazes":
            assert f"| `{name}` |" in text, name
    for name in ("tree-path", "dead-end-fill", "wall-follower"):
        assert f"| `{name}` |" in text, name


def test_documented_json_example_is_what_the_code_writes() -> None:
    text = DOCS.read_text()
    example = re.search(r"### JSON\n\n```json\n(.*?)\n```", text, re.S)
    assert example is not None
    maze = lacak.generate("maze", "wilson", (2, 3), seed=5).with_endpoints()
    assert example.group(1) == maze.to_json()


def test_documented_stats_keys() -> None:
    text = DOCS.read_text()
    section = text.split("## Statistics", 1)[1].split("\n## ", 1)[0]
    documented = set(re.findall(r"`([a-z_]+)`", section)) - {"maze", "stats", "null"}
    keys = set(lacak.generate("maze", "kruskal", (3, 3), seed=1).stats())
    assert keys <= documented, keys - documented


def _cli_output(*args: str, input: str | None = None) -> str:
    from click.testing import CliRunner
    from lacak.cli import make_cli

    result = CliRunner().invoke(make_cli(), list(args), input=input, env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    return result.stdout


def test_documented_demo_is_what_the_command_prints() -> None:
    """The picture and caption at the top (0.1.0's page said 61 steps; the maze has 63)."""
    text = DOCS.read_text()
    block = text.split("lacak maze generate --size 10x19 --seed 7 --solution\n```\n\n```text\n", 1)[1]
    shown = block.split("```", 1)[0]
    assert shown == _cli_output("maze", "generate", "--size", "10x19", "--seed", "7", "--solution")
    assert "(`hunt-and-kill 10x19, seed 7, solution 63 steps`)" in text


def test_documented_solve_report_is_what_the_command_prints() -> None:
    text = DOCS.read_text()
    block = (
        text.split("`lacak maze solve FILE --json` prints", 1)[1]
        .split("```json\n", 1)[1]
        .split("```", 1)[0]
    )
    maze = _cli_output("maze", "generate", "-a", "kruskal", "--size", "3x4", "--seed", "1", "--json")
    shown = _cli_output("maze", "solve", "-", "--json", input=maze)
    seconds = re.compile(r'"seconds": [0-9.e-]+')
    assert seconds.sub('"seconds": S', block) == seconds.sub('"seconds": S', shown)
    assert set(json.loads(shown)) == {*lacak.results.COMMON_KEYS, "maze"}


def _gallery() -> Any:
    """docs/gallery/hunt_and_kill.py, loaded as a module."""
    import importlib.util

    path = DOCS.parent / "gallery" / "hunt_and_kill.py"
    spec = importlib.util.spec_from_file_location("hunt_and_kill_gallery", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_hunt_chance_table_is_what_the_gallery_script_measures() -> None:
    gallery = _gallery()
    text = DOCS.read_text()
    assert gallery.table() in text
    for chance in gallery.VALUES:
        assert f"](gallery/{gallery.picture_name(chance)})" in text


def test_hunt_chance_pictures_are_the_mazes_they_show() -> None:
    """Each committed picture is small and has the pixels of the maze rendered now."""
    import io

    import numpy as np
    from PIL import Image

    gallery = _gallery()
    for chance in gallery.VALUES:
        path = DOCS.parent / "gallery" / gallery.picture_name(chance)
        assert path.stat().st_size < 8_000, path
        committed = np.asarray(Image.open(path).convert("RGB"))
        fresh = np.asarray(Image.open(io.BytesIO(gallery.picture(chance))).convert("RGB"))
        assert np.array_equal(committed, fresh), path
