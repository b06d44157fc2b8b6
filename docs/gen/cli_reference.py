"""The command-line reference (``cli.md``), generated from the click commands while the site builds.

Run by mkdocs-gen-files. It builds the ``lacak`` command the way ``lacak`` does
(:func:`lacak.cli.make_cli`), over a registry that holds only the built-in
plugins, so the page does not depend on what else is installed, and writes one
section per command: its usage line, its help text and its options, exactly as
``lacak COMMAND --help`` has them. ``python docs/gen/cli_reference.py`` prints
the page.
"""

from __future__ import annotations

import importlib
import inspect
import sys

import click
import lacak
from lacak.cli import make_cli

#: The built-in plugins (the ``lacak`` distribution's entry points), by entry-point name.
BUILTINS = {
    "search": "lacak_search",
    "sliding": "lacak_sliding",
    "mazes": "lacak_mazes",
    "boggle": "lacak_boggle",
    "dictionaries": "lacak_dictionaries",
}


def builtin_registry() -> lacak.Registry:
    """A registry of the built-in plugins only."""
    registry = lacak.Registry(entry_points=False)
    for name, module in BUILTINS.items():
        registry.add_plugin(importlib.import_module(module), name, builtin=True)
    return registry


def _commands(
    command: click.Command, path: list[str], parent: click.Context | None
) -> list[tuple[list[str], click.Command, click.Context]]:
    ctx = click.Context(command, info_name=path[-1], parent=parent, terminal_width=100)
    found = [(path, command, ctx)]
    if isinstance(command, click.Group):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                found += _commands(sub, [*path, name], ctx)
    return found


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def page() -> str:
    """The Markdown of the command-line reference."""
    cli = make_cli(builtin_registry())
    out = [
        "# Command line reference",
        "",
        "Generated from the click commands while the site builds",
        "(`docs/gen/cli_reference.py`), with lacak's built-in plugins: this is what",
        "`lacak COMMAND --help` says. A plugin's commands, and `lacak KIND solve` for a",
        "plugin's puzzle kind, appear in `lacak --help` once it is installed.",
        "",
        "The grammar every command shares: sizes are `ROWSxCOLS`; a board or a file",
        "argument takes `-` for standard input; `-f/--format` and `-o FILE` choose a",
        "picture's format (the format follows the file's suffix when `-f` is absent);",
        "every command that prints results takes `--json`; bad input is one line on",
        "standard error and exit status 2 ([results.md](results.md#exit-status-of-lacak-kind-solve)).",
        "",
    ]
    for path, command, ctx in _commands(cli, ["lacak"], None):
        name = " ".join(path)
        level = "#" * min(2 + len(path) - 1, 4)
        out += [f"{level} `{name}`", ""]
        usage = command.collect_usage_pieces(ctx)
        out += ["```text", f"{name} {' '.join(usage)}".rstrip(), "```", ""]
        help_text = (command.help or "").strip()
        if help_text:
            text = inspect.cleandoc(help_text)
            out += ["\n".join(line for line in text.splitlines() if line != "\b"), ""]
        rows = []
        for param in command.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None:
                continue
            flags, text = record
            if isinstance(param, click.Argument) and not text:
                continue
            rows.append(f"| `{_cell(flags)}` | {_cell(text)} |")
        if rows:
            out += ["| option | meaning |", "|---|---|", *rows, ""]
        if isinstance(command, click.Group):
            subs = [
                f"- [`{name} {sub}`](#{'-'.join([*path, sub]).lower()}): "
                f"{_cell(command.get_command(ctx, sub).get_short_help_str(80))}"  # type: ignore[union-attr]
                for sub in command.list_commands(ctx)
                if not command.get_command(ctx, sub).hidden  # type: ignore[union-attr]
            ]
            out += ["Commands:", "", *subs, ""]
    return "\n".join(out)


def main() -> None:
    text = page()
    if __name__ == "__main__":
        sys.stdout.write(text)
        return
    import mkdocs_gen_files

    with mkdocs_gen_files.open("cli.md", "w") as out:
        out.write(text)


if __name__ in {"__main__", "<run_path>"}:  # mkdocs-gen-files runs it with runpy
    main()
