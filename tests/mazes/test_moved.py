"""The generators' old module paths (``lacak_mazes.wilson``, ...) are deprecated aliases of
their modules in :mod:`lacak_mazes.generators`, for one release."""

from __future__ import annotations

import importlib
import pickle
import subprocess
import sys

import lacak
import pytest
from lacak_mazes._moved import MOVED


@pytest.mark.parametrize(("old", "new"), sorted(MOVED.items()))
def test_an_old_path_warns_and_is_the_new_module(old: str, new: str) -> None:
    module = importlib.import_module(new)
    sys.modules.pop(old, None)  # (an earlier test may have imported it)
    with pytest.warns(DeprecationWarning, match=rf"^{old} is deprecated: it moved to {new} "):
        alias = importlib.import_module(old)
    assert alias is module
    assert module.__name__ == new and module.__spec__.name == new


def test_from_an_old_path_imports_the_same_objects() -> None:
    sys.modules.pop("lacak_mazes.huntkill", None)
    with pytest.warns(DeprecationWarning, match="lacak_mazes.huntkill is deprecated"):
        from lacak_mazes.huntkill import HUNTS, hunt_and_kill
    from lacak_mazes.generators import huntkill

    assert hunt_and_kill is huntkill.hunt_and_kill and HUNTS is huntkill.HUNTS


def test_the_warning_names_the_importing_line() -> None:
    code = "import warnings; warnings.simplefilter('default'); import lacak_mazes.wilson"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stderr.startswith("<string>:1: DeprecationWarning: lacak_mazes.wilson is deprecated")


def test_mazes_pickle_by_the_new_paths() -> None:
    maze = lacak.generate("maze", "wilson", (4, 5), seed=3, carving=True).with_endpoints()
    data = pickle.dumps((maze, maze.puzzle()))
    assert b"lacak_mazes.generators" not in data and b"lacak_mazes.puzzle" not in data
    assert pickle.loads(data) == (maze, maze.puzzle())


def test_a_generator_names_its_new_module() -> None:
    generator = lacak.generators("maze")["wilson"]
    assert generator.metadata["module"] == "lacak_mazes.generators.wilson"
    assert generator.make.__doc__ == (
        "Make a maze with :func:`lacak_mazes.generators.wilson.wilson`."
    )
