"""The house's rules, read from the code (docs/architecture.md).

No import circle in the core or in a plugin, counting imports inside functions and
under ``TYPE_CHECKING``; a small kernel at the root of ``core/lacak/``; no module over
900 lines; no module of the core importing the package ``lacak`` itself; the core's web
files naming no built-in puzzle kind; and the layer contracts of ``pyproject.toml``
(import-linter) kept.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "core" / "lacak"

#: The import packages of the core, the built-in plugins and the example plugin's kind.
PACKAGES = [
    "lacak",
    "lacak_search",
    "lacak_sliding",
    "lacak_mazes",
    "lacak_boggle",
    "lacak_dictionaries",
    "lacak_jugs",
]
#: The built-in kinds, which the core's web files must not know.
BUILT_IN_KINDS = ("maze", "mazes", "boggle", "sliding")
MAX_LINES = 900
MAX_ROOT_MODULES = 16


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph(*PACKAGES, include_external_packages=False, cache_dir=None)


def _circles(graph: grimp.ImportGraph, package: str) -> list[list[str]]:
    """The strongly connected groups (more than one module) of ``package``'s imports."""
    modules = {m for m in graph.modules if m == package or m.startswith(package + ".")}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    groups: list[list[str]] = []
    counter = 0

    def visit(start: str) -> None:  # Tarjan's algorithm, without recursion
        nonlocal counter
        work = [(start, iter(sorted(graph.find_modules_directly_imported_by(start) & modules)))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on.add(child)
                    imported = graph.find_modules_directly_imported_by(child) & modules
                    work.append((child, iter(sorted(imported))))
                elif child in on:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(sorted(group))

    for module in sorted(modules):
        if module not in index:
            visit(module)
    return groups


def _described(graph: grimp.ImportGraph, group: list[str]) -> str:
    lines = []
    for importer in group:
        for imported in group:
            if importer != imported and graph.direct_import_exists(
                importer=importer, imported=imported
            ):
                details = graph.get_import_details(importer=importer, imported=imported)
                at = ", ".join(str(d["line_number"]) for d in details)
                lines.append(f"  {importer} -> {imported} (line {at})")
    return "\n".join(lines)


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_circle(graph: grimp.ImportGraph, package: str) -> None:
    """Counting imports inside functions: a circle hidden in a function is still one."""
    circles = _circles(graph, package)
    assert not circles, f"{len(circles)} import circle(s) in {package}:\n" + "\n".join(
        _described(graph, group) for group in circles
    )


def test_the_circle_finder_finds_a_circle() -> None:
    """The test above can fail: a made-up graph with a circle hidden in a function."""
    made = grimp.ImportGraph()
    for name in ("p", "p.a", "p.b", "p.c"):
        made.add_module(name)
    made.add_import(importer="p.a", imported="p.b", line_number=1, line_contents="import p.b")
    made.add_import(importer="p.b", imported="p.a", line_number=9, line_contents="import p.a")
    made.add_import(importer="p.c", imported="p.a", line_number=1, line_contents="import p.a")
    assert _circles(made, "p") == [["p.a", "p.b"]]


def test_the_root_of_the_core_holds_the_kernel_only() -> None:
    modules = sorted(path.name for path in CORE.glob("*.py"))
    assert len(modules) <= MAX_ROOT_MODULES, (
        f"{len(modules)} modules in core/lacak/ (at most {MAX_ROOT_MODULES}): {modules}; "
        "a concern of its own gets a folder (docs/architecture.md)"
    )


def _python_files() -> list[Path]:
    files = []
    for top in ("core", "plugins", "docs/plugins"):
        files += [
            path
            for path in (ROOT / top).rglob("*.py")
            if not {"build", ".venv", "__pycache__"} & set(path.relative_to(ROOT).parts)
        ]
    return sorted(files)


def test_no_module_is_over_900_lines() -> None:
    long = {}
    for path in _python_files():
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_LINES:
            long[str(path.relative_to(ROOT))] = lines
    assert not long, f"modules over {MAX_LINES} lines: {long}"


def test_no_module_of_the_core_imports_the_package_itself(graph: grimp.ImportGraph) -> None:
    """``import lacak`` (or ``from lacak import x``, ``from . import x`` for a name that is
    not a module) runs the package's ``__init__``, which imports everything: a module of
    the core imports the module it needs (``lacak.version`` for ``__version__``)."""
    importers = sorted(
        module for module in graph.find_modules_that_directly_import("lacak")
        if module.startswith("lacak.")
    )  # fmt: skip
    offenders = {
        module: [d["line_number"] for d in graph.get_import_details(importer=module, imported="lacak")]
        for module in importers
    }
    assert not offenders, f"modules of the core that import the package lacak: {offenders}"


def test_the_package_check_sees_an_import_of_the_package(tmp_path: Path) -> None:
    """The check above reads ``from . import name`` as the package when ``name`` is no
    module, and as the module when it is one."""
    package = tmp_path / "pkg_layers_probe"
    package.mkdir()
    (package / "__init__.py").write_text("VALUE = 1\n")
    (package / "leaf.py").write_text("")
    (package / "uses_leaf.py").write_text("from . import leaf\n")
    (package / "uses_package.py").write_text("from . import VALUE\n")
    sys.path.insert(0, str(tmp_path))
    try:
        made = grimp.build_graph("pkg_layers_probe", cache_dir=None)
    finally:
        sys.path.remove(str(tmp_path))
    assert made.find_modules_that_directly_import("pkg_layers_probe") == {
        "pkg_layers_probe.uses_package"
    }


def _kind_names(text: str) -> list[str]:
    return re.findall(rf"\b({'|'.join(BUILT_IN_KINDS)})\b", text, flags=re.IGNORECASE)


def test_the_core_s_web_files_name_no_built_in_kind() -> None:
    """A kind's page lives with its plugin: the core's pages, styles and API code know no
    kind (each offender listed with its line)."""
    offenders = []
    for path in sorted((CORE / "web").rglob("*")):
        if not path.is_file() or path.suffix not in {".py", ".js", ".html", ".css", ".json"}:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if _kind_names(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:80]}")
    assert not offenders, "the core's web files name a built-in kind:\n" + "\n".join(offenders)


def test_kind_names_are_found_as_words() -> None:
    assert _kind_names('PAGES = {maze: "maze.js", Boggle: 1}') == ["maze", "maze", "Boggle"]
    assert _kind_names("amazement, slidingly") == []


def _kernel_modules() -> list[str]:
    """The bottom layer of the ``layers`` contract in pyproject.toml."""
    tomllib = pytest.importorskip("tomllib" if sys.version_info >= (3, 11) else "tomli")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    layers = next(c for c in contracts if c["id"] == "layers")["layers"]
    return [f"lacak.{name.strip()}" for name in re.split(r"[:|]", layers[-1])]


def test_a_kernel_module_imports_no_folder(graph: grimp.ImportGraph) -> None:
    """What the layers contract says of the kernel, with its imports named."""
    offenders = []
    for module in _kernel_modules():
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            parts = imported.split(".")
            if parts[0] == "lacak" and len(parts) > 1 and (CORE / parts[1]).is_dir():
                offenders.append(f"{module} -> {imported}")
    assert not offenders, "kernel modules that import a folder of the core:\n" + "\n".join(
        offenders
    )


def test_the_layer_contracts_are_kept() -> None:
    """``lint-imports`` (import-linter) keeps every contract of pyproject.toml, as .ci/run
    checks."""
    lint = Path(sys.executable).with_name("lint-imports")
    if not lint.exists():
        pytest.skip("import-linter is not installed (pip install -e '.[test]')")
    run = subprocess.run(
        [str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert "0 broken" in run.stdout


def test_lint_imports_fails_when_a_layer_is_broken(tmp_path: Path) -> None:
    """The CI step can fail: a made-up package whose lower layer imports an upper one, in a
    function (as the old circles hid theirs)."""
    lint = Path(sys.executable).with_name("lint-imports")
    if not lint.exists():
        pytest.skip("import-linter is not installed (pip install -e '.[test]')")
    package = tmp_path / "pkg_layers_broken"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "high.py").write_text("from . import low\n")
    (package / "low.py").write_text("def f():\n    from . import high\n    return high\n")
    (tmp_path / ".importlinter").write_text(
        "[importlinter]\nroot_package = pkg_layers_broken\n\n"
        "[importlinter:contract:layers]\nname = layers\ntype = layers\n"
        "layers =\n    pkg_layers_broken.high\n    pkg_layers_broken.low\n"
    )
    run = subprocess.run(
        [str(lint), "--no-cache"], cwd=tmp_path, capture_output=True, text=True, check=False,
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    assert run.returncode != 0, run.stdout
    assert "BROKEN" in run.stdout and "pkg_layers_broken.low -> pkg_layers_broken.high" in run.stdout
