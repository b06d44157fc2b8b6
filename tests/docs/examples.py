"""Runs the examples of README.md and docs/ with sybil: every fenced block is run or checked.

Fenced blocks by language:

``python``
    run in one namespace per page, in order (a page's examples build on each
    other); a block that starts with ``>>>`` is a doctest, its output checked
    (``ELLIPSIS``, ``NORMALIZE_WHITESPACE``).
``console``
    ``$ COMMAND`` lines, each followed by the output it prints; the output is
    checked line by line (``...`` alone on a line stands for any lines, within
    a line for any text; times such as ``0.0002 s`` and ``"seconds": 0.0001``
    are normalised). The exit status must be 0, or 2 when the output shown is
    an ``Error:`` line, or what a ``# exit status N`` comment says.
``sh``, ``bash``
    every command is run and must exit with status 0 (or ``# exit status N``);
    the output is not checked.
``toml``, ``json``
    parsed (a JSON block may stand for a longer document with ``...``).
``text``
    not run: pictures, synopses, output shown after an ``sh`` block (checked by
    the page's own tests where it matters).

A block that cannot run here (it installs packages, serves, or needs a
plugin that is not installed) is preceded by ``<!-- skip: next "why" -->``.

``lacak`` commands run in this process through click's ``CliRunner`` (fast);
a pipeline of ``lacak`` and ``echo`` stages is fed stage to stage; anything
else (``$(...)``, ``head``, redirections) runs in ``bash`` with this
environment's ``bin`` folder first on ``PATH``.
"""

from __future__ import annotations

import doctest
import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from sybil import Document, Example, Region, Sybil
from sybil.parsers.markdown import CodeBlockParser, PythonCodeBlockParser, SkipParser
from sybil.parsers.markdown.lexers import FencedCodeBlockLexer

if sys.version_info >= (3, 11):
    import tomllib
else:  # (Python 3.10: the same parser, from PyPI)
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]

#: The languages a fenced block may have, and whether the runner runs it.
LANGUAGES = {
    "python": True,
    "console": True,
    "sh": True,
    "bash": True,
    "toml": True,
    "json": True,
    "text": False,
}


#: Pages whose examples are run: the README and every page under docs/.
def documents() -> list[Path]:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    return [p for p in pages if ".egg-info" not in str(p) and ".pytest_cache" not in str(p)]


TIMES = [
    (re.compile(r'"seconds": [0-9.e+-]+'), '"seconds": S'),
    (re.compile(r"\b\d+(?:\.\d+)?(?:e-?\d+)? ?(s|ms|µs)\b"), r"T \1"),
]


def normalise(text: str) -> str:
    """Times replaced by placeholders, trailing spaces and blank lines dropped."""
    for pattern, replacement in TIMES:
        text = pattern.sub(replacement, text)
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


def _line_matches(expected: str, actual: str) -> bool:
    if "..." not in expected:
        return expected == actual
    pattern = ".*".join(re.escape(part) for part in expected.split("..."))
    return re.fullmatch(pattern, actual) is not None


def output_matches(expected: str, actual: str) -> bool:
    """Whether ``actual`` is what ``expected`` shows (``...`` lines stand for any lines)."""
    want = normalise(expected).splitlines()
    got = normalise(actual).splitlines()

    def match(i: int, j: int) -> bool:
        if i == len(want):
            return j == len(got)
        if want[i].strip() == "...":
            return any(match(i + 1, k) for k in range(j, len(got) + 1))
        return j < len(got) and _line_matches(want[i], got[j]) and match(i + 1, j + 1)

    return match(0, 0)


# -- running commands ----------------------------------------------------------------------


def expected_status(command: str, output: str) -> int:
    """The exit status a command must end with: a ``# exit status N`` comment, else by its output."""
    said = re.search(r"#.*exit status (\d+)", command)
    if said:
        return int(said.group(1))
    if output.lstrip().startswith("Error:"):
        return 2
    return 0


def _stages(command: str) -> list[list[str]] | None:
    """The stages of a pipeline of ``lacak`` and ``echo`` commands, or None (run it in bash)."""
    if "$" in command or "`" in command:
        return None
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    try:
        words = list(lexer)
    except ValueError:
        return None
    stages: list[list[str]] = [[]]
    for word in words:
        if word == "|":
            stages.append([])
        elif word and set(word) <= set("();<>|&"):
            return None  # &&, ;, redirections, subshells: bash's
        else:
            stages[-1].append(word)
    if any(not s or s[0] not in ("lacak", "echo") for s in stages):
        return None
    return stages


def run(command: str, cwd: Path) -> tuple[int, str]:
    """Run one command line; its exit status and what it printed (stdout, then stderr)."""
    stages = _stages(command)
    if stages is None:
        return _run_in_bash(command, cwd)
    from click.testing import CliRunner
    from lacak.cli import make_cli

    text: str | None = None
    status, output = 0, ""
    for stage in stages:
        if stage[0] == "echo":
            text = " ".join(stage[1:]) + "\n"
            continue
        result = CliRunner().invoke(make_cli(), stage[1:], input=text, env={"COLUMNS": "80"})
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        status = result.exit_code
        text = result.stdout
        output = result.stdout + result.stderr
    return status, output


def _run_in_bash(command: str, cwd: Path) -> tuple[int, str]:
    env = {**os.environ, "COLUMNS": "80"}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    done = subprocess.run(
        ["bash", "-c", "set -o pipefail; " + command],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return done.returncode, done.stdout + done.stderr


def _commands(source: str, prompt: str | None) -> Iterator[tuple[str, str]]:
    """``(command, output shown)`` pairs: ``$ `` lines with what follows them, or plain lines."""
    lines = source.splitlines()
    if prompt is None:
        pending = ""
        for line in source.replace("\\\n", " ").splitlines():
            pending = f"{pending}\n{line}" if pending else line
            if _open_quote(pending):
                continue  # a quoted argument that spans lines
            if pending.strip() and not pending.lstrip().startswith("#"):
                yield pending.strip(), ""
            pending = ""
        if pending.strip():
            yield pending.strip(), ""
        return
    i = 0
    while i < len(lines):
        if not lines[i].startswith(prompt):
            raise ValueError(f"expected a line starting with {prompt!r}: {lines[i]!r}")
        command = lines[i][len(prompt) :]
        i += 1
        while i < len(lines) and not lines[i].startswith(prompt):
            if command.endswith("\\"):
                command = command[:-1] + " " + lines[i].strip()
            elif _open_quote(command):
                command += "\n" + lines[i]  # a quoted argument that spans lines
            else:
                break
            i += 1
        output = []
        while i < len(lines) and not lines[i].startswith(prompt):
            output.append(lines[i])
            i += 1
        yield command, "\n".join(output)


def _open_quote(command: str) -> bool:
    """Whether ``command`` ends inside a quoted argument (its next line goes on with it)."""
    try:
        shlex.split(command, comments=True)
    except ValueError:
        return True
    return False


def _evaluate_commands(example: Example, prompt: str | None, check_output: bool) -> str | None:
    cwd = Path(example.namespace["__cwd__"])
    failures = []
    for command, shown in _commands(str(example.parsed), prompt):
        status, output = run(command, cwd)
        want = expected_status(command, shown)
        if status != want:
            failures.append(f"$ {command}\nexit status {status}, not {want}:\n{output}")
        elif check_output and shown.strip() and not output_matches(shown, output):
            failures.append(f"$ {command}\nshown:\n{shown}\nprinted:\n{output}")
    return "\n\n".join(failures) or None


def evaluate_console(example: Example) -> str | None:
    return _evaluate_commands(example, "$ ", check_output=True)


def evaluate_shell(example: Example) -> str | None:
    return _evaluate_commands(example, None, check_output=False)


def evaluate_toml(example: Example) -> str | None:
    tomllib.loads(str(example.parsed))
    return None


def elided_json(text: str) -> str:
    """``text`` with each ``...`` that stands for left-out values or members made JSON.

    Outside strings, ``...`` in an array or after a key's colon becomes the string
    ``"..."``, and ``...`` among an object's members the member ``"...": 0``; a ``...``
    inside a string stays as it is.

    >>> elided_json('{"a": [1, ...], "b": ..., ...}')
    '{"a": [1, "..."], "b": "...", "...": 0}'
    >>> elided_json('{"s": "a (...) \\\\" b", "t": ...}')
    '{"s": "a (...) \\\\" b", "t": "..."}'
    """
    out: list[str] = []
    stack: list[str] = []
    in_string = escaped = False
    i = 0
    while i < len(text):
        char = text[i]
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            stack.append(char)
        elif char in "]}" and stack:
            stack.pop()
        elif text.startswith("...", i):
            previous = "".join(out).rstrip()[-1:]
            member = stack[-1:] == ["{"] and previous != ":"
            out.append('"...": 0' if member else '"..."')
            i += 3
            continue
        out.append(char)
        i += 1
    return "".join(out)


def evaluate_json(example: Example) -> str | None:
    text = str(example.parsed)
    if "..." in text:  # a shortened document: its complete parts must still be JSON values
        text = elided_json(text)
    try:
        json.loads(text)
    except json.JSONDecodeError as error:
        lines = [line for line in text.splitlines() if line.strip()]
        if error.msg != "Extra data" or not all(line.startswith("{") for line in lines):
            raise
        for line in lines:  # JSON Lines: one document a line
            json.loads(line)
    return None


def parsers() -> list[object]:
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    return [
        SkipParser(),
        PythonCodeBlockParser(doctest_optionflags=flags),
        CodeBlockParser(language="console", evaluator=evaluate_console),
        CodeBlockParser(language="sh", evaluator=evaluate_shell),
        CodeBlockParser(language="bash", evaluator=evaluate_shell),
        CodeBlockParser(language="toml", evaluator=evaluate_toml),
        CodeBlockParser(language="json", evaluator=evaluate_json),
    ]


SYBIL = Sybil(parsers=parsers(), patterns=["*.md"])  # type: ignore[arg-type]


def parse(path: Path) -> Document:
    """The page with its examples, in order."""
    return SYBIL.parse(path)


FENCE = FencedCodeBlockLexer(language=r".*")


def fenced_blocks(document: Document) -> Iterable[Region]:
    """Every fenced block of the page, whatever its language."""
    return FENCE(document)
