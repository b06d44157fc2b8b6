"""The documentation site's sources: links stay in the repository, pages are generated, not pasted.

``mkdocs build --strict`` (run by ``.ci/run``) checks the links between the
site's pages; these tests check what it cannot: README.md and the Markdown
pages as read on GitHub (no link or path leads outside the repository), the
navigation (every page it names exists or is generated), and the performance
page's generator on a recorded run.
"""

from __future__ import annotations

import json
import re
import runpy
import sys
from pathlib import Path

import pytest

from . import examples

ROOT = examples.ROOT
PAGES = examples.documents()
LINK = re.compile(r"\]\(([^)\s]+)\)")
#: A path written as code that climbs out of the folder (``../shared/...``).
CLIMB = re.compile(r"`((?:\.\./)+[^`\s]*)`")


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("path", PAGES, ids=_name)
def test_links_and_paths_stay_in_the_repository(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    problems = []
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue  # a web address, or an anchor on the same page
        file = target.split("#", 1)[0]
        resolved = (path.parent / file).resolve()
        if not resolved.is_relative_to(ROOT):
            problems.append(f"{target}: outside the repository")
        elif not resolved.exists() and not _generated(resolved):
            problems.append(f"{target}: no such file")
    for written in CLIMB.findall(text):
        base = (path.parent / written.split("*", 1)[0]).resolve()
        found = list(base.parent.glob(base.name + "*")) if "*" in written else [base]
        if not base.is_relative_to(ROOT) or not any(p.exists() for p in found):
            problems.append(f"`{written}`: not a path in the repository")
    assert not problems, f"{_name(path)}:\n" + "\n".join(problems)


def _generated(path: Path) -> bool:
    """Whether ``path`` is a page or picture the site's scripts write while it builds."""
    generated = {"cli.md", "performance.md", "changelog.md", "gallery.md"}
    relative = path.relative_to(ROOT / "docs") if path.is_relative_to(ROOT / "docs") else None
    if relative is None:
        return False
    if relative.parts[0] == "notebooks" and relative.suffix == ".md":  # docs/gen/notebooks.py
        return path.with_suffix(".ipynb").is_file()
    return str(relative) in generated or relative.parts[0] in {"reference", "pictures"}


def test_every_page_in_the_navigation_exists_or_is_generated() -> None:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav = config.split("\nnav:\n", 1)[1]
    pages = re.findall(r":\s*([\w./-]+\.md)\s*$", nav, re.M)
    assert "getting-started.md" in pages and "plugins/publishing.md" in pages
    missing = [
        p for p in pages if not (ROOT / "docs" / p).exists() and not _generated(ROOT / "docs" / p)
    ]
    assert not missing, missing
    for page in ("getting-started.md", "plugins/publishing.md", "plugins/hooks.md"):
        assert len((ROOT / "docs" / page).read_text(encoding="utf-8").splitlines()) > 40, page


def test_no_placeholder_is_left_in_the_generators() -> None:
    for script in (ROOT / "docs" / "gen").glob("*"):
        assert len(script.read_text(encoding="utf-8").splitlines()) > 10, script


def test_the_performance_page_shows_each_recorded_run_with_its_date_and_machine(
    tmp_path: Path,
) -> None:
    performance = runpy.run_path(str(ROOT / "docs" / "gen" / "performance.py"), run_name="test")
    record = {
        "benchmark": "mazes",
        "script": "bench/mazes.py",
        "command": "python bench/mazes.py --scaling",
        "date": "2026-12-01 00:48 UTC",
        "machine": {
            "processor": "Some CPU",
            "cores": 2,
            "memory_gb": 7.8,
            "os": "Linux 6.1",
            "python": "3.11.9",
            "lacak": "0.1.0",
            "revision": "abc1234",
            "peers": {"mazelib": "0.9.16"},
            "load_before": [3.5, 2, 1],
            "load_after": [4.25, 3, 2],
        },
        "output": "generator | 250^2\nwilson    | 0.033\n",
    }
    (tmp_path / "mazes.json").write_text(json.dumps(record))
    page = performance["page"](performance["load_results"](tmp_path))
    assert "### 2026-12-01 00:48 UTC: `python bench/mazes.py --scaling`" in page
    assert "Some CPU, 2 cores; 7.8 GB; Linux 6.1; Python 3.11.9; lacak 0.1.0 (abc1234)" in page
    assert "load average 3.50 before, 4.25 after; peers: mazelib 0.9.16" in page
    assert "wilson    | 0.033" in page
    assert "- Boggle against bogglesolver" in page.split("## Not recorded yet", 1)[1]


def test_the_recorded_results_are_well_formed() -> None:
    results = sorted((ROOT / "bench" / "results").glob("*.json"))
    assert results, "no benchmark run recorded in bench/results/"
    for path in results:
        record = json.loads(path.read_text(encoding="utf-8"))
        assert {"script", "command", "date", "machine", "output"} <= set(record), path
        assert record["output"].strip() and record["machine"].get("cores"), path


def test_ci_builds_the_site_strictly_with_the_docs_extra_the_readme_installs() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert re.search(r'mkdocs" build --strict', ci)
    # --quiet hides the warnings --strict counts: a broken anchor then passed CI
    assert not re.search(r'mkdocs" build [^\n]*--quiet', ci)
    assert "pip install -q -e '.[test,docs]'" in readme.split("## Quick start", 1)[1]
    assert "pip install -e '.[docs]' && mkdocs serve" in readme
    assert "docs" in _extras()


def _extras() -> set[str]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # (Python 3.10: the same parser, from PyPI)
        import tomli as tomllib

    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return set(data["project"]["optional-dependencies"])
