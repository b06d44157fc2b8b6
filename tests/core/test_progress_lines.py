"""One-time work is said in one line when standard error is no terminal (issue 25).

A first pattern-database build or engine compile used to be silent in a log or a
pipe; the command line now installs :class:`lacak.progress.LineReporter` there:
each announcement is one ``lacak:`` line on standard error, standard output keeps
only the answer, and ``LACAK_PROGRESS=0`` silences it.
"""

from __future__ import annotations

import json
from pathlib import Path

import lacak
import pytest
from click.testing import CliRunner
from lacak.cli import make_cli


def _run(args: list[str], monkeypatch: pytest.MonkeyPatch, cache: Path, progress: str | None):
    monkeypatch.setenv("LACAK_CACHE_DIR", str(cache))
    monkeypatch.setenv("LACAK_TILES_ENGINE", "python")  # (no compile: the build is said)
    monkeypatch.setenv("LACAK_PDB_ENGINE", "numpy")
    if progress is None:
        monkeypatch.delenv("LACAK_PROGRESS", raising=False)
    else:
        monkeypatch.setenv("LACAK_PROGRESS", progress)
    from lacak_sliding.pdb import cache as pdb_cache

    monkeypatch.setattr(pdb_cache, "memory", {})  # (nothing this process built before)
    monkeypatch.setattr("lacak_sliding.pdb.lookup.memory", pdb_cache.memory)
    return CliRunner().invoke(make_cli(), args)


ARGS = ["sliding", "solve", "8 6 7 / 2 5 4 / 3 0 1", "-H", "pdb:44", "--json"]


def test_a_first_build_is_one_line_on_stderr(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    result = _run(ARGS, monkeypatch, tmp_path / "cache", None)
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("lacak: building the ")
    assert "once (" in lines[0] and str(tmp_path / "cache") in lines[0]
    assert json.loads(result.stdout)["length"] == 31  # the answer alone on stdout
    again = _run(ARGS, monkeypatch, tmp_path / "cache", None)
    assert again.exit_code == 0 and again.stderr == ""  # kept: nothing more to say


def test_lacak_progress_0_silences_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    result = _run(ARGS, monkeypatch, tmp_path / "cache", "0")
    assert result.exit_code == 0 and result.stderr == ""


def test_the_line_reporter_shows_no_tasks(capsys: pytest.CaptureFixture[str]) -> None:
    with lacak.progress.reporting(lacak.progress.LineReporter()):
        with lacak.progress.task("a bar nobody should see", total=3) as task:
            task.advance()
        lacak.progress.announce("compiling something once")
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == "lacak: compiling something once\n"
