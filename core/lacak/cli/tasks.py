"""``lacak tasks``: verified tasks with difficulty levels, for language models
(:mod:`lacak.tasks`, docs/machine-learning.md)::

    lacak tasks list [--json]
    lacak tasks make TASK [-n N] [--seed S] [--level L] [--size ROWSxCOLS] [-O KEY=VALUE]
                     [--json] [-o FILE]
    lacak tasks score TASK ENTRIES [--json]

``make`` writes the entries as JSON Lines (one ``{"question", "answer", "metadata"}`` a
line; ``--json``: one document); ``score`` reads JSON Lines of entries that carry a
model's answer under ``"response"`` and prints each score and their mean.
"""

from __future__ import annotations

import json
from typing import Any

import click

from .. import tasks as tasking
from ..errors import InvalidInputError, InvalidOptionError
from ..output import dumps
from .kit import Size, echo_json, read_input, registry_of, write_output

__all__ = ["tasks_command"]


def _options(given: tuple[str, ...]) -> dict[str, str]:
    options = {}
    for item in given:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise InvalidOptionError(f"-O takes KEY=VALUE, got {item!r}")
        options[key.strip()] = value
    return options


def tasks_command() -> click.Group:
    """The ``lacak tasks`` group."""

    @click.group("tasks", short_help="Verified tasks with difficulty levels, for language models.")
    def group() -> None:
        """Verified tasks with difficulty levels: questions a language model reads, answers
        proven optimal, and a scorer (docs/machine-learning.md)."""

    @group.command("list")
    @click.option("--json", "as_json", is_flag=True, help="Print the tasks as JSON.")
    @click.pass_context
    def list_command(ctx: click.Context, as_json: bool) -> None:
        """The tasks the installed kinds declare, with their levels."""
        known = tasking.tasks(registry=registry_of(ctx))
        rows = [
            {"task": name, "kind": kind, "description": task.description,
             "levels": list(task.levels), "options": dict(task.options)}
            for name, (kind, task) in known.items()
        ]  # fmt: skip
        if as_json:
            echo_json({"tasks": rows})
            return
        for row in rows:
            click.echo(f"{row['task']} ({row['kind']}): {row['description']}")
            for level, text in enumerate(row["levels"], 1):
                click.echo(f"  level {level}: {text}")

    @group.command("make")
    @click.argument("task")
    @click.option(
        "-n",
        "--count",
        type=click.IntRange(min=0, max=1_000_000),
        default=10,
        show_default=True,
        help="How many entries.",
    )
    @click.option(
        "--seed",
        type=click.IntRange(min=0),
        default=0,
        show_default=True,
        help="The dataset's seed (entry i is the same whatever -n).",
    )
    @click.option(
        "--level",
        type=click.IntRange(min=1),
        default=1,
        show_default=True,
        help="The level (see 'lacak tasks list').",
    )
    @click.option(
        "--size",
        type=Size(),
        default=None,
        metavar="ROWSxCOLS",
        help="The boards' or mazes' size (the task's option 'shape').",
    )
    @click.option(
        "-O",
        "--option",
        "options",
        multiple=True,
        metavar="KEY=VALUE",
        help="A task option (repeat -O for more).",
    )
    @click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
    @click.option(
        "-o", "--output", default=None, metavar="FILE", help="Write the entries into FILE instead."
    )
    @click.pass_context
    def make_command(ctx: click.Context, task: str, count: int, seed: int, level: int,
                     size: Any, options: tuple[str, ...], as_json: bool,
                     output: str | None) -> None:  # fmt: skip
        """Make COUNT entries of TASK at a level, as JSON Lines."""
        given = _options(options)
        if size is not None:
            given["shape"] = f"{size[0]}x{size[1]}"
        data = tasking.create_dataset(
            task, size=count, seed=seed, level=level, registry=registry_of(ctx), **given
        )
        lines = (json.dumps(entry, ensure_ascii=False) + "\n" for entry in data)
        if as_json:
            text = dumps({"task": task, "seed": seed, "level": level, "entries": list(data)})
        elif output is None:  # (each entry as soon as it is made)
            for line in lines:
                click.echo(line, nl=False)
            return
        else:
            text = "".join(lines)
        if output is None:
            click.echo(text)
        else:
            write_output(text, output, what="entries")

    @group.command("score")
    @click.argument("file")
    @click.option("--json", "as_json", is_flag=True, help="Print the scores as JSON.")
    @click.pass_context
    def score_command(ctx: click.Context, file: str, as_json: bool) -> None:
        """Score the answers in FILE ('-': standard input): JSON Lines of entries, each
        with a model's answer under "response"."""
        registry = registry_of(ctx)
        scores = []
        for number, line in enumerate(read_input(file).splitlines(), 1):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
            except ValueError:
                raise InvalidInputError(f"line {number} is not JSON") from None
            if not isinstance(entry, dict):
                raise InvalidInputError(f"line {number} is not an entry")
            scores.append(tasking.score_answer(entry.get("response"), entry, registry=registry))
        mean = sum(scores) / len(scores) if scores else 0.0
        if as_json:
            echo_json({"scores": scores, "mean": mean, "count": len(scores)})
        else:
            for value in scores:
                click.echo(f"{value:.4f}")
            click.echo(f"mean {mean:.4f} over {len(scores)}")

    return group
