"""The wheel carries every import package of the source tree.

setuptools installs only the packages ``pyproject.toml`` lists; an editable install
finds the rest anyway, so a sub-package left out of the list breaks only the wheel
(``.ci/run`` would find out late, in its second environment). This test finds out first.
"""

from __future__ import annotations

import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # (Python 3.10: the same parser, from PyPI)
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent


def _config() -> dict:
    with (ROOT / "pyproject.toml").open("rb") as file:
        return tomllib.load(file)["tool"]["setuptools"]


def _packages_on_disk() -> set[str]:
    found = set()
    for name, folder in _config()["package-dir"].items():
        top = ROOT / folder
        if not (top / "__init__.py").is_file():
            continue  # a data package (lacak_dictionaries.data)
        for init in top.rglob("__init__.py"):
            parts = init.parent.relative_to(top).parts
            if "__pycache__" in parts:
                continue
            found.add(".".join((name, *parts)))
    return found


def test_every_package_of_the_source_tree_is_in_the_wheel() -> None:
    listed = set(_config()["packages"])
    missing = sorted(_packages_on_disk() - listed)
    assert not missing, f"pyproject.toml [tool.setuptools] packages lacks {missing}"


def test_every_listed_package_exists() -> None:
    dirs = _config()["package-dir"]
    for package in _config()["packages"]:
        top = next(n for n in sorted(dirs, key=len, reverse=True)
                   if package == n or package.startswith(n + "."))
        folder = ROOT / dirs[top] / Path(*package[len(top) + 1:].split(".") if package != top else ())
        assert folder.is_dir(), f"{package} is listed but {folder} is no folder"


def test_every_python_the_classifiers_claim_is_tested_by_ci() -> None:
    """The classifiers list the versions ``.ci/run`` runs the suite on: 3.11 (its own
    environment) and the others of its loop; ``requires-python`` starts at the lowest."""
    import re

    with (ROOT / "pyproject.toml").open("rb") as file:
        project = tomllib.load(file)["project"]
    claimed = {c.rsplit(" :: ", 1)[1] for c in project["classifiers"]
               if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)}  # fmt: skip
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    loop = re.search(r"LACAK_OTHER_PYTHONS-([0-9. ]+)\}", ci)
    assert loop is not None
    assert claimed == {"3.11", *loop.group(1).split()}
    lowest = min(claimed, key=lambda v: tuple(map(int, v.split("."))))
    assert project["requires-python"] == f">={lowest}"
