"""docs/boggle.md says what the code does: the JSON keys, and every option of every command."""

from __future__ import annotations

import json
import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from lacak.cli import make_cli

DOCS = Path(__file__).resolve().parents[2] / "docs" / "boggle.md"


def _section(title: str) -> str:
    return DOCS.read_text(encoding="utf-8").split(title, 1)[1].split("\n## ", 1)[0]


def test_the_documented_solve_json_has_every_key_the_command_writes() -> None:
    example = re.search(r"```json\n(\{\n  \"kind\".*?)\n```", _section("### JSON"), re.S)
    assert example is not None
    documented = set(re.findall(r'"([a-z_]+)":', example.group(1)))
    result = CliRunner().invoke(
        make_cli(),
        ["boggle", "solve", "AHORJ/QQUOI/SSCPD/MUPSM/AUULI", "-d", "ind", "-m", "2", "--json"],
    )
    data = json.loads(result.stdout)
    written = {*data, *data["stats"], *data["boggle"], *data["boggle"]["words"][0]}
    assert written == documented
    for line in example.group(1).splitlines()[:10]:  # the values shown are real ones
        key, _, value = line.strip().rstrip(",").partition(": ")
        if key.strip('"') in ("kind", "strategy", "found", "stopped", "length", "actions"):
            assert json.loads(value) == data[key.strip('"')]


@pytest.mark.parametrize("command", ["solve", "check", "shake", "dice", "solve-many", "best"])
def test_the_synopsis_names_every_option(command: str) -> None:
    synopsis = _section("## Command line").split("```", 2)[1]
    lines = [line for line in synopsis.splitlines() if line.strip()]
    start = next(i for i, line in enumerate(lines) if line.startswith(f"lacak boggle {command} "))
    block = [lines[start]]
    for line in lines[start + 1 :]:
        if line.startswith("lacak "):
            break
        block.append(line)
    text = " ".join(block)
    group = make_cli().commands["boggle"]
    assert isinstance(group, click.Group)
    kit = {"--heuristic", "--full", "--help"}  # the kit's own, documented in api.md
    for param in group.commands[command].params:
        if isinstance(param, click.Option) and not set(param.opts) & kit:
            assert any(name in text for name in param.opts), (command, param.opts)
