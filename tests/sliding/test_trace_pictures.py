"""The search tree as a picture from the command line (issue 25, item 5): ``--trace
FILE.svg`` and ``--trace FILE.png`` are one drawing, a bad suffix is one line and exit
status 2, and ``--tree -o FILE.svg`` (the result's picture) points at ``--trace``."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import lacak
from click.testing import CliRunner
from lacak.cli import make_cli
from PIL import Image

#: The course notes' example: two moves, breadth-first, 15 nodes in the tree.
SOLVE = ["sliding", "solve", "123450786", "--goal", "103425786", "-s", "bfs"]


def _lacak(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The installed command, in its own process."""
    return subprocess.run([sys.executable, "-m", "lacak", *args], cwd=cwd, capture_output=True,
                          text=True, check=False)  # fmt: skip


def test_trace_png_and_svg_from_the_command_line(tmp_path: Path) -> None:
    png = _lacak(*SOLVE, "--trace", "tree.png", cwd=tmp_path)
    svg = _lacak(*SOLVE, "--trace", "tree.svg", cwd=tmp_path)
    assert png.returncode == svg.returncode == 0, png.stderr + svg.stderr
    assert "found: 2 moves with bfs" in png.stdout and png.stderr == ""
    root = ET.fromstring((tmp_path / "tree.svg").read_text(encoding="utf-8"))
    size = (int(root.get("width", 0)), int(root.get("height", 0)))
    with Image.open(tmp_path / "tree.png") as image:
        image.load()
        assert image.format == "PNG" and image.size == size  # one drawing, two formats
        assert 300 <= image.size[0] <= 2000 and 150 <= image.size[1] <= 1000, image.size
        darkest, lightest = image.convert("L").getextrema()
        assert lightest > 240 and darkest < 80  # black text on white, not a blank picture
    puzzle = lacak.parse("sliding", "123450786", goal="103425786")
    trace = lacak.solve(puzzle, "bfs", trace=True).trace
    assert trace is not None
    assert (tmp_path / "tree.svg").read_text(encoding="utf-8") == trace.to_svg()
    labels = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "103425786" in labels and len(trace.nodes) == 15


def test_a_trace_suffix_it_cannot_write_is_one_line_and_status_2(tmp_path: Path) -> None:
    bad = _lacak(*SOLVE, "--trace", "tree.gif", cwd=tmp_path)
    assert bad.returncode == 2
    assert bad.stderr == (
        "Error: --trace writes .json, .dot, .svg or .png files, not 'tree.gif' "
        "(--trace-format tokens writes any)\n"
    )
    assert not (tmp_path / "tree.gif").exists()


def test_tree_with_a_picture_output_points_at_trace(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "tree.svg"
    result = runner.invoke(make_cli(), [*SOLVE, "--tree", "-o", str(out)])
    assert result.exit_code == 0, result.output
    notes = [line for line in result.stderr.splitlines() if line.startswith("note:")]
    assert notes == [
        f"note: -o {out} holds the result's picture; --trace FILE.svg (or .png, .json, .dot) "
        "writes the search tree to a file"
    ]
    assert "search tree" in result.stderr  # --tree still draws it, on stderr
    labels = [t.text for t in ET.parse(out).iter("{http://www.w3.org/2000/svg}text")]
    assert "start" in labels and "goal" not in labels  # the solution's boards, not the tree
    with_trace = runner.invoke(
        make_cli(), [*SOLVE, "--tree", "-o", str(out), "--trace", str(tmp_path / "t.png")]
    )
    assert with_trace.exit_code == 0 and "note:" not in with_trace.stderr


def test_tree_with_a_picture_on_stdout_keeps_the_picture_whole() -> None:
    result = CliRunner().invoke(make_cli(), [*SOLVE, "--tree", "-f", "svg"])
    assert result.exit_code == 0, result.output
    ET.fromstring(result.stdout)  # the SVG alone: the tree went to stderr
    assert "search tree" in result.stderr
