"""Every hook and every public name of lacak has a docstring, in one style (reST fields).

lacak's docstrings use reST field lists (``:param x:``, ``:returns:``,
``:raises E:``) and ``.. rubric:: Examples`` before doctests; a numpydoc or
Google section (``Parameters`` over a line of dashes, ``Args:``) mixed into
them is refused here, since the API reference parses one style only. A
constant documents itself with a ``#:`` comment on the line above it.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import lacak
import lacak.cli
import lacak.plugin.hookspecs
import lacak.testing
import pytest

ROOT = Path(__file__).resolve().parents[2]

#: A numpydoc section (a title over dashes) or a Google one (``Args:`` alone on a line).
OTHER_STYLES = re.compile(
    r"^\s*(Parameters|Returns|Raises|Yields|Examples?|Notes|See Also)\s*\n\s*-{3,}\s*$"
    r"|^\s*(Args|Arguments|Returns|Raises|Yields|Examples?):\s*$",
    re.M,
)

HOOKS = sorted(
    name
    for name, function in vars(lacak.plugin.hookspecs).items()
    if callable(function) and hasattr(function, "lacak_spec")
)


def _own_doc(obj: Any) -> str:
    """The object's own docstring (not one inherited from a base class)."""
    doc = obj.__doc__ if isinstance(obj.__doc__, str) else ""
    return inspect.cleandoc(doc) if doc else ""


def _public_objects() -> Iterator[tuple[str, Any]]:
    """Every public function and class of lacak, lacak.cli and lacak.testing, with their
    public methods and properties."""
    for module in (lacak, lacak.cli, lacak.testing):
        for name in module.__all__:
            obj = getattr(module, name)
            if isinstance(obj, ModuleType) or not (inspect.isclass(obj) or inspect.isroutine(obj)):
                continue
            qualified = f"{module.__name__}.{name}"
            yield qualified, obj
            if inspect.isclass(obj):
                for member, value in vars(obj).items():
                    if member.startswith("_"):
                        continue
                    function = value.fget if isinstance(value, property) else value
                    function = getattr(function, "__func__", function)
                    if inspect.isroutine(function):
                        yield f"{qualified}.{member}", function


PUBLIC = list(_public_objects())


def test_the_hooks_are_all_found() -> None:
    assert HOOKS == [
        "register_commands",
        "register_dictionaries",
        "register_generators",
        "register_heuristics",
        "register_puzzles",
        "register_searchers",
    ]


@pytest.mark.parametrize("name", HOOKS)
def test_every_hook_is_documented_with_fields_an_example_and_a_version(name: str) -> None:
    doc = _own_doc(getattr(lacak.plugin.hookspecs, name))
    assert doc.splitlines()[0].endswith("."), f"{name}: a one-line summary first"
    assert ":param " in doc and "Example::" in doc and ".. versionadded::" in doc, name
    assert not OTHER_STYLES.search(doc), f"{name}: a section in another docstring style"


@pytest.mark.parametrize("name", HOOKS)
def test_every_hook_has_a_section_headed_by_its_exact_signature(name: str) -> None:
    signature = str(inspect.signature(getattr(lacak.plugin.hookspecs, name))).replace("'", "")
    page = (ROOT / "docs" / "plugins" / "hooks.md").read_text(encoding="utf-8")
    heading = f"## `{name}{signature}` {{ #{name} }}"
    assert heading in page, f"hooks.md has no section {heading!r}"
    section = page.split(heading, 1)[1].split("\n## ", 1)[0]
    assert "@lacak.hookimpl" in section and f"def {name}(" in section, (
        f"{name}: the section has no complete example"
    )


@pytest.mark.parametrize(("name", "obj"), PUBLIC, ids=[name for name, _obj in PUBLIC])
def test_every_public_name_has_a_docstring_in_the_one_style(name: str, obj: Any) -> None:
    doc = _own_doc(obj)
    assert doc, f"{name} has no docstring"
    assert not OTHER_STYLES.search(doc), f"{name}: a section in another docstring style"


def test_every_public_constant_has_a_comment() -> None:
    """Constants cannot carry a docstring: a ``#:`` comment above them documents them."""
    sources = "\n".join(
        p.read_text(encoding="utf-8") for p in (ROOT / "core" / "lacak").rglob("*.py")
    )
    missing = []
    for name in lacak.__all__:
        obj = getattr(lacak, name)
        if inspect.isclass(obj) or inspect.isroutine(obj) or isinstance(obj, ModuleType):
            continue
        if name == "__version__":
            continue  # the installed distribution's version, documented in docs/api.md
        if not re.search(rf"^#:.*\n{re.escape(name)}\b", sources, re.M):
            missing.append(name)
    assert not missing, f"no '#:' comment above {missing}"


def test_no_docstring_in_lacak_mixes_in_another_style() -> None:
    """The core and the built-in plugins, every module: reST only (the review found a
    numpydoc ``Examples`` section under reST fields)."""
    found = []
    for path in sorted([*(ROOT / "core").rglob("*.py"), *(ROOT / "plugins").rglob("*.py")]):
        text = path.read_text(encoding="utf-8")
        for match in OTHER_STYLES.finditer(text):
            title = text.count("\n", 0, match.end())  # the line of the section's title
            if text.splitlines()[title - 1].strip().endswith("\\b"):
                continue  # a click command's help text: \b keeps its example lines as they are
            line = text.count("\n", 0, match.start()) + 1
            found.append(f"{path.relative_to(ROOT)}:{line}: {match.group(0).strip()!r}")
    assert not found, "\n".join(found)
