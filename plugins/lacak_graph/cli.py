"""``lacak graph solve``: the command kit's solve command, taking a file too.

The kit's command (:func:`lacak.cli.solve_command`) reads its PUZZLE argument as the
graph's text; here a path to a file is read first (the library and the web API never
open one), and the options ``start`` and ``goal`` are also given as ``--from`` and ``--to``.
"""

from __future__ import annotations

import functools
import os
from typing import Any

import click
from lacak.cli import read_input, solve_command

from .graph import SHIPPED

#: The flags ``--from`` and ``--to`` add to the kit's ``--start`` and ``--goal``.
ALIASES = {"start": "--from", "goal": "--to"}


def _graph_text(argument: str) -> str:
    """A shipped graph's name or a graph's text as it is; a file's contents (``-``: standard
    input's)."""
    if argument == "-":
        return read_input(argument)
    if argument.strip() in SHIPPED or argument.lstrip().startswith("{") or "\n" in argument:
        return argument
    if os.path.exists(argument):
        return read_input(argument)
    return argument


def graph_group() -> click.Group:
    """``lacak graph``, holding ``solve``."""

    @click.group("graph")
    def group() -> None:
        """Route finding on a weighted graph: a shipped map (romania), or JSON or CSV of
        edges in a file."""

    command = solve_command("graph")
    for param in command.params:
        if param.name in ALIASES and isinstance(param, click.Option):
            param.opts.append(ALIASES[param.name])
        if param.name == "puzzle":
            param.metavar = "GRAPH"
    original = command.callback
    assert original is not None

    @functools.wraps(original)
    def callback(*args: Any, **values: Any) -> Any:
        values["puzzle"] = _graph_text(values["puzzle"])
        return original(*args, **values)

    command.callback = callback
    command.help = (
        "Find a route on GRAPH: a shipped map's name (romania), a JSON or CSV file of edges, "
        "or - for standard input.\n\n" + (command.help or "").split("\n\n", 1)[-1]
    )
    group.add_command(command)
    return group
