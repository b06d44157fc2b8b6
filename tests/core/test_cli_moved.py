"""The command line's old module paths (``lacak.commands``, ``lacak.batch_command``) still
work for one release, with a warning naming the new one in :mod:`lacak.cli`."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest


@pytest.fixture(autouse=True)
def _forget_the_old_paths() -> Any:
    """Each test imports the old paths afresh (the warning is given on the first import),
    and leaves them unimported for tests/core/test_moved.py."""
    for old in ("lacak.commands", "lacak.batch_command"):
        sys.modules.pop(old, None)
    yield
    for old in ("lacak.commands", "lacak.batch_command"):
        sys.modules.pop(old, None)


def test_the_command_kit_keeps_its_old_path() -> None:
    import lacak.cli.kit
    import lacak.cli.solve

    with pytest.warns(DeprecationWarning, match=r"^lacak\.commands is deprecated: it moved "
                      r"to lacak\.cli\.solve "):  # fmt: skip
        from lacak.commands import output_format, solve_command, write_output
    assert solve_command is lacak.cli.solve.solve_command
    assert output_format is lacak.cli.kit.output_format is lacak.cli.output_format
    assert write_output is lacak.cli.kit.write_output


def test_the_batch_command_keeps_its_old_path() -> None:
    import lacak.cli.batch

    with pytest.warns(DeprecationWarning, match=r"^lacak\.batch_command is deprecated: it "
                      r"moved to lacak\.cli\.batch "):  # fmt: skip
        from lacak.batch_command import add_batch_commands, batch_command
    assert add_batch_commands is lacak.cli.batch.add_batch_commands is lacak.cli.add_batch_commands
    assert batch_command is lacak.cli.batch.batch_command


def test_the_entry_point_and_the_old_names_of_lacak_cli_still_work() -> None:
    """``lacak.cli:main`` (the script pyproject names) and every name plugins import."""
    code = (
        "import warnings; warnings.simplefilter('error')\n"
        "from lacak.cli import (main, make_cli, LacakGroup, echo_json, output_format, parse_size,\n"
        "    print_catalogue, read_input, registry_of, building_registry, solve_command,\n"
        "    write_output, add_kind_commands)\n"
        "import sys; sys.argv = ['lacak', '--version']; main()\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("lacak, version ")


def test_batch_output_is_minus_o_or_output_and_the_old_out_still_works(tmp_path: Any) -> None:
    from click.testing import CliRunner
    from lacak.cli import make_cli

    cli = make_cli()
    made = []
    for flag in ("-o", "--output", "--out"):
        out = tmp_path / f"{flag.strip('-')}.jsonl"
        done = CliRunner().invoke(cli, ["batch", "maze", "-n", "2", "--size", "3x4", "-w", "1",
                                        flag, str(out), "--json"])  # fmt: skip
        assert done.exit_code == 0, done.output
        made.append(out.read_bytes())
    assert made[0] == made[1] == made[2]


@pytest.mark.parametrize(
    "args", [["maze", "generate"], ["maze", "stats"], ["sliding", "scramble"],
             ["sliding", "estimate", "123405786"], ["sliding", "pdb", "info", "4,5"]],
)  # fmt: skip
def test_minus_s_is_no_longer_a_size(args: list[str]) -> None:
    """``-s`` is ``--strategy`` (every solve, every batch): the size is ``--size``."""
    from click.testing import CliRunner
    from lacak.cli import make_cli

    done = CliRunner().invoke(make_cli(), [*args, "-s", "3x3"])
    assert done.exit_code == 2
    assert "No such option '-s'. (-s is --strategy now, in every command: give --size)" in (
        done.output
    )


@pytest.mark.parametrize(
    ("name", "home"),
    [("InvalidInputError", "lacak.errors"), ("PluginInfo", "lacak.plugin.loader"),
     ("read_bounded", "lacak.store.paths")],
)  # fmt: skip
def test_names_lacak_cli_only_imported_still_work_with_a_warning(name: str, home: str) -> None:
    import importlib

    import lacak.cli

    with pytest.warns(DeprecationWarning, match=rf"^lacak\.cli\.{name} is deprecated: import it "
                      rf"from {home} "):  # fmt: skip
        value = getattr(lacak.cli, name)
    assert value is getattr(importlib.import_module(home), name)
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        lacak.cli.nothing_here  # noqa: B018

