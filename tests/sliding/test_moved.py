"""The plugin's old module paths (``lacak_sliding.tiles_idastar``, ``lacak_sliding.pdb_build``,
...): they import the module of the new path, with a DeprecationWarning (lacak_sliding._moved)."""

from __future__ import annotations

import importlib
import importlib.util
import subprocess
import sys

import pytest
from lacak_sliding import _moved

#: The old paths of modules that import numba: only where the compiled engines can run.
_NUMBA = {"lacak_sliding.tiles_compiled", "lacak_sliding.pdb_compiled"}


def _params() -> list[object]:
    marks = pytest.mark.skipif(
        importlib.util.find_spec("numba") is None, reason="numba is not installed"
    )
    return [
        pytest.param(old, marks=marks) if old in _NUMBA else old for old in sorted(_moved.MOVED)
    ]


@pytest.mark.parametrize("old", _params())
def test_an_old_path_imports_the_new_module_with_a_warning(old: str) -> None:
    new = importlib.import_module(_moved.MOVED[old])
    sys.modules.pop(old, None)
    with pytest.warns(
        DeprecationWarning, match=rf"^{old} is deprecated: it moved to {_moved.MOVED[old]} "
    ):
        module = importlib.import_module(old)
    assert module is new
    assert sys.modules[old] is new  # one module object per file
    assert new.__spec__.name == new.__name__ == _moved.MOVED[old]


def test_the_documented_names_of_the_old_paths_import_in_a_fresh_interpreter() -> None:
    code = (
        "import warnings; warnings.simplefilter('error')\n"
        "try:\n    from lacak_sliding.tiles_idastar import idastar_tiles\n"
        "except DeprecationWarning as w:\n    print('warned:', w)\n"
        "warnings.simplefilter('ignore')\n"
        "from lacak_sliding.tiles_idastar import AdditiveModel, additive_model, idastar_tiles\n"
        "from lacak_sliding.tiles_engines import ENGINE_VARIABLE, warm\n"
        "from lacak_sliding.tiles_split import frontier, split_search\n"
        "from lacak_sliding.pdb_build import Placements, build_database\n"
        "from lacak_sliding.pdb_cache import load_or_build\n"
        "from lacak_sliding.pdb_cli import pdb_group\n"
        "from lacak_sliding import tiles_astar, tiles_bfs, tiles_encoding, pdb_engines\n"
        "print(idastar_tiles.__module__, build_database.__module__, tiles_astar.__name__)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == [
        "warned: lacak_sliding.tiles_idastar is deprecated: it moved to "
        "lacak_sliding.tiles.idastar (the old path goes in the next release)",
        "lacak_sliding.tiles.idastar lacak_sliding.pdb.build lacak_sliding.tiles.astar",
    ]


def test_a_path_that_never_was_is_still_not_found() -> None:
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("lacak_sliding.tiles_nothing")
