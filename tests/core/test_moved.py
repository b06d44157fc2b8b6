"""The old import paths of the modules that moved into the core's folders (lacak._moved)."""

from __future__ import annotations

import importlib
import subprocess
import sys

import lacak
import pytest
from lacak import _moved


@pytest.mark.parametrize("old", sorted(_moved.MOVED))
def test_an_old_path_imports_the_new_module_with_a_warning(old: str) -> None:
    new = importlib.import_module(_moved.MOVED[old])
    # as the first import of the old path (an earlier test, or a doctest, may have made
    # one), and leaving none behind (the module docstring's example is a first import too)
    sys.modules.pop(old, None)
    try:
        with pytest.warns(
            DeprecationWarning, match=rf"^{old} is deprecated: it moved to {_moved.MOVED[old]}"
        ):
            module = importlib.import_module(old)
        assert module is new
        assert sys.modules[old] is new  # one module object per file
        assert new.__spec__.name == new.__name__ == _moved.MOVED[old]
    finally:
        sys.modules.pop(old, None)


@pytest.mark.parametrize("old", sorted(_moved.MOVED))
def test_an_old_attribute_of_the_package_warns(old: str) -> None:
    name = old.removeprefix("lacak.")
    if name in vars(lacak):  # lacak.plugins is the function, as it always was
        assert callable(getattr(lacak, name))
        return
    with pytest.warns(DeprecationWarning, match=rf"^{old} is deprecated"):
        module = getattr(lacak, name)
    assert module is importlib.import_module(_moved.MOVED[old])


def test_from_an_old_path_import_a_name_in_a_fresh_interpreter() -> None:
    code = (
        "import warnings; warnings.simplefilter('error')\n"
        "try:\n    from lacak.cache import CacheFormat\nexcept DeprecationWarning as w:\n"
        "    print('warned:', w)\n"
        "warnings.simplefilter('ignore')\n"
        "from lacak.cache import CacheFormat; import lacak.cache, lacak.plugins, lacak\n"
        "print(CacheFormat.__module__, callable(lacak.plugins), 'cache' in vars(lacak))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == [
        "warned: lacak.cache is deprecated: it moved to lacak.store.cache "
        "(the old path goes in the next release)",
        "lacak.store.cache True False",
    ]


def test_an_unknown_attribute_is_still_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        lacak.nothing_here  # noqa: B018
