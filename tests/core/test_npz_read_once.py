"""``.npz`` files read their journal once when it is small, and the same bytes come out
as when it is read twice (a journal too big to keep)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from lacak.batch import files
from lacak.cli import make_cli

ARRAYS = {"cells": "instance.cells", "start": "instance.start", "end": "instance.end",
          "solution": "instance.solution", "links": "instance.links?"}  # fmt: skip


@pytest.mark.parametrize("grid", ["rect", "hex"])
def test_one_read_and_two_give_the_same_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, grid: str
) -> None:
    journal = tmp_path / "mazes.jsonl"
    args = ["batch", "maze", "-a", "wilson", "--size", "4x6", "-n", "25", "--solution",
            "--grid", grid, "-w", "1", "-o", str(journal)]  # fmt: skip
    result = CliRunner().invoke(make_cli(), args)
    assert result.exit_code == 0, result.output
    read: list[int] = []
    lines = files._lines
    monkeypatch.setattr(files, "_lines", lambda path: (read.append(1), lines(path))[1])
    files.write_npz(journal, tmp_path / "once.npz", ARRAYS)
    assert len(read) == 1
    monkeypatch.setattr(files, "_KEEP_BYTES", 0)
    files.write_npz(journal, tmp_path / "twice.npz", ARRAYS)
    assert len(read) == 3
    assert (tmp_path / "once.npz").read_bytes() == (tmp_path / "twice.npz").read_bytes()
