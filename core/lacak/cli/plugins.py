"""``lacak plugins``: the installed plugins, what they registered, and those that failed."""

from __future__ import annotations

from collections.abc import Sequence

import click

from ..output import plural
from ..plugin.loader import PluginFailure, PluginInfo, PluginOverride
from .kit import echo_json, registry_of

__all__ = ["counted", "plugins_command"]


def counted(count: int, hook_noun: str) -> str:
    """``count`` components of a hook's noun (``"puzzles"``), which agrees with the count:
    ``counted(1, "dictionaries")`` is ``"1 dictionary"``."""
    if hook_noun.endswith("ies"):
        one = hook_noun[: -len("ies")] + "y"
    else:
        one = hook_noun.removesuffix("s")
    return plural(count, one, many=hook_noun)


def _print_plugins(
    infos: Sequence[PluginInfo],
    failures: Sequence[PluginFailure],
    overrides: Sequence[PluginOverride],
    unused: Sequence[str],
    show_all: bool,
) -> None:
    """The table of ``lacak plugins``, with its notes, failures and overrides."""
    # (deferred: rich takes ~25 ms to import, and most runs print no table)
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    # Names, versions and error messages come from plugins: plain Text, never markup.
    console = Console()
    table = Table(title="lacak plugins", title_justify="left")
    table.add_column("plugin", style="bold")
    table.add_column("version")
    table.add_column("module")
    table.add_column("registered")
    builtins = {info.name for info in infos if info.builtin}
    notes = []
    for info in infos:
        parts = []
        for hook, names in info.registered.items():
            label = hook.removeprefix("register_")
            parts.append(f"{label}: {', '.join(names)}" if show_all else counted(len(names), label))
        if "register_commands" in info.hooks:
            parts.append("commands")
        version = info.version or ""
        if info.builtin:
            version = f"built-in {version}".strip()
        elif info.distribution:
            version = f"{info.distribution} {version}".strip()
        table.add_row(
            Text(info.name),
            Text(version),
            Text(info.module),
            Text("\n".join(parts) if show_all else ", ".join(parts)),
        )
        if info.entry_point is not None and info.entry_point != info.name:
            why = (
                f"built-in plugin {info.entry_point!r} has that name"
                if info.entry_point in builtins
                else "several distributions use that name"
            )
            notes.append(
                f"{info.name}: loaded under this name, as its entry point "
                f"{info.entry_point!r} is taken ({why})"
            )
    console.print(table)
    for note in notes:
        console.print(Text(f"note: {note}", style="yellow"))
    if overrides:
        replaced = Table(
            title="built-in components replaced (LACAK_OVERRIDE)",
            title_justify="left",
            style="yellow",
        )
        replaced.add_column("component", style="bold")
        replaced.add_column("built-in plugin")
        replaced.add_column("replaced by")
        for override in overrides:
            replaced.add_row(
                Text(f"{override.hook.removeprefix('register_')}: {override.component}"),
                Text(override.builtin),
                Text(override.plugin),
            )
        console.print(replaced)
    if unused:
        console.print(
            Text(
                f"note: LACAK_OVERRIDE entries that replaced nothing: {', '.join(unused)}",
                style="yellow",
            )
        )
    if failures:
        failed = Table(title="failed plugins (skipped)", title_justify="left", style="red")
        failed.add_column("plugin", style="bold")
        failed.add_column("stage")
        failed.add_column("error", overflow="fold")
        for f in failures:
            culprit = f.plugin
            if (
                f.distribution
                and f.plugin not in builtins
                and not f.plugin.startswith(f"{f.distribution}:")
            ):
                culprit += f" ({f.distribution})"
            failed.add_row(Text(culprit), Text(f.stage), Text(f.error))
        console.print(failed)


def plugins_command() -> click.Command:
    """The ``lacak plugins`` command."""

    @click.command("plugins")
    @click.option("--json", "as_json", is_flag=True, help="Print JSON.")
    @click.option("--all", "show_all", is_flag=True, help="List every registered component.")
    @click.pass_context
    def plugins(ctx: click.Context, as_json: bool, show_all: bool) -> None:
        """List the installed plugins, what they registered, and those that failed."""
        registry = registry_of(ctx)
        infos = registry.plugins()
        failures = registry.failures
        overrides = registry.overrides
        unused = registry.unused_overrides()
        if as_json:
            echo_json(
                {
                    "plugins": [info.to_dict() for info in infos],
                    "failures": [
                        {
                            "plugin": f.plugin,
                            "stage": f.stage,
                            "error": f.error,
                            "distribution": f.distribution,
                        }
                        for f in failures
                    ],
                    "overrides": [override.to_dict() for override in overrides],
                    "unused_overrides": unused,
                }
            )
            return
        _print_plugins(infos, failures, overrides, unused, show_all)

    return plugins
