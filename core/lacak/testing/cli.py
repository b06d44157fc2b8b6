"""Checking a plugin's commands the way lacak's own are checked."""

from __future__ import annotations

from typing import Any

__all__ = ["one_line_error"]


def one_line_error(result: Any, fragment: str | None = None) -> str:
    """Check that a command failed as lacak's CLI promises, and return the error line.

    Bad input to a ``lacak`` command raises a :class:`~lacak.LacakError`,
    which the root command prints as one line ``Error: ...`` on stderr, with
    nothing on stdout and exit status 2 (never a traceback).

    :param result: what :meth:`click.testing.CliRunner.invoke` returned for a
        command of :func:`lacak.cli.make_cli` (click 8.2 or later keeps stderr apart).
    :param fragment: text the error line must contain.
    :returns: the error line, without its newline.
    :raises AssertionError: any promise broken (the message says which).

    .. rubric:: Examples

    >>> from click.testing import CliRunner
    >>> from lacak.cli import make_cli
    >>> result = CliRunner().invoke(make_cli(), ["maze", "generate", "--size", "3by4"])
    >>> one_line_error(result, "3x4")
    "Error: maze size must look like 3x4, got '3by4'"
    """
    assert "Traceback" not in result.output, f"a traceback reached the user:\n{result.output}"
    assert result.exit_code == 2, f"exit status {result.exit_code}, not 2:\n{result.output}"
    stderr, stdout = result.stderr, result.stdout
    assert stderr.startswith("Error: ") and stderr.count("\n") == 1 and stderr.endswith("\n"), (
        f"stderr is not one line 'Error: ...':\n{stderr}"
    )
    assert not stdout.strip(), f"something went to stdout besides the error:\n{stdout}"
    line = stderr[:-1]
    if fragment is not None:
        assert fragment in line, f"{fragment!r} is not in the error line {line!r}"
    return line
