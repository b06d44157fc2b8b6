"""The README's quick start: exactly two commands, and CI runs the same ones."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def quick_start_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.*?)\n```", section, flags=re.S)


def test_quick_start_has_exactly_two_one_line_commands() -> None:
    commands = quick_start_commands()
    assert len(commands) == 2
    assert all("\n" not in command for command in commands)
    demo, tests = commands
    assert "pip install" in demo and "lacak " in demo.split("&&")[-1]
    assert "pip install" in tests and "pytest" in tests


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text()
    _demo, tests = quick_start_commands()
    install = re.search(r"pip install -q (.*?) &&", tests)
    assert install is not None
    assert f'pip" install -q {install.group(1)}' in ci
    pytest_args = tests.rsplit("pytest", 1)[1].strip()
    assert f'pytest" {pytest_args}' in ci
