"""Every command and code example in README.md and docs/ runs, and prints what it shows.

One test per page: a page's examples share one namespace and run in order
(a page builds on its earlier examples), in a temporary folder that has the
repository's ``docs/`` linked in. See ``examples.py`` for what each kind of
block must do, and the choice of sybil.
"""

from __future__ import annotations

import os
import re
import sys
import unittest
from pathlib import Path

import pytest

from . import examples

PAGES = examples.documents()


def _cache_path() -> Path:
    from lacak.store.paths import _cache_path as cache

    return cache()


def _name(path: Path) -> str:
    return str(path.relative_to(examples.ROOT))


@pytest.mark.parametrize("path", PAGES, ids=_name)
def test_examples_run(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "docs").symlink_to(examples.ROOT / "docs")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "80")
    # a page's Python may run the installed `lacak` (subprocess.run(["lacak", ...]))
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    # an example that writes into the user's folders (~, the user data folder) writes into
    # this test's folder; the cache stays where it is, so pattern databases are built once
    monkeypatch.setenv("LACAK_CACHE_DIR", str(_cache_path()))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("LACAK_DATA_DIR", str(tmp_path / "home" / "lacak"))
    document = examples.parse(path)
    document.namespace["__cwd__"] = str(tmp_path)
    failures = []
    for example in document.examples():
        try:
            example.evaluate()
        except unittest.SkipTest:
            continue
        except Exception as error:  # every failing example of the page, not only the first
            failures.append(f"{_name(path)}, line {example.line}: {type(error).__name__}: {error}")
    assert not failures, "\n\n".join(failures)


@pytest.mark.parametrize("path", PAGES, ids=_name)
def test_every_block_is_run_or_skipped_with_a_reason(path: Path) -> None:
    document = examples.parse(path)
    starts = sorted(start for start, _region in document.regions)
    problems = []
    for block in examples.fenced_blocks(document):
        language = block.lexemes["language"]
        line = document.text.count("\n", 0, block.start) + 1
        if language not in examples.LANGUAGES:
            problems.append(
                f"line {line}: a block of language {language!r} (tag it: "
                f"{', '.join(examples.LANGUAGES)})"
            )
        elif examples.LANGUAGES[language] and not any(
            block.start <= start < block.end for start in starts
        ):
            problems.append(f"line {line}: a {language} block that is not run")
    for match in re.finditer(r"<!--\s*skip:\s*next\s*-->", document.text):
        line = document.text.count("\n", 0, match.start()) + 1
        problems.append(f'line {line}: a skip without a reason (<!-- skip: next "why" -->)')
    assert not problems, f"{_name(path)}:\n" + "\n".join(problems)
