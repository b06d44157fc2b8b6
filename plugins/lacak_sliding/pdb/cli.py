"""``lacak sliding pdb build|info|list``: build pattern databases ahead of time and see the cache.

JSON schemas are documented in ``docs/pattern-databases.md``.
"""

from __future__ import annotations

import math
import time
from typing import Any

import click
import lacak
from lacak.cli import echo_json

from ..puzzle import goal_tiles, parse_board_size, parse_tiles
from ..tiles.idastar.engines import warm_for_databases
from .cache import (
    cache_folder,
    cached_databases,
    database_path,
    inspect_database,
    load_or_build,
    other_files,
)
from .lookup import build_announcement, memory_note, missing_groups
from .partition import NAMED_PARTITIONS, Partition, reflection

__all__ = ["pdb_group"]


def _goal(text: str | None, shape: tuple[int, int]) -> tuple[int, ...]:
    rows, cols = shape
    if text is None or text == "" or text == "last":
        return goal_tiles(cols, rows)
    if text == "first":
        return tuple(range(rows * cols))
    tiles, _rows, _cols, _notation = parse_tiles(text, shape, what="goal")
    return tiles


def _partition(name: str, size: str | None, goal: str | None) -> Partition:
    """The partition named on the command line, for ``--size`` (or the name's own board)."""
    shape = parse_board_size(size) if size else None
    if shape is None:
        width, height = NAMED_PARTITIONS.get(name, (4, 4))
        shape = (height, width)
    rows, cols = shape
    return Partition.parse(name, cols, rows, _goal(goal, shape))


def _group_rows(part: Partition) -> list[dict[str, Any]]:
    """Each group's size and, when its file is in the cache, its note and state (verified)."""
    rows = []
    n = part.width * part.height
    for group in part.groups:
        path = database_path(part.width, part.height, part.goal, group)
        note = inspect_database(path) if path is not None and path.exists() else None
        status = "missing" if note is None else note["status"]
        if path is not None and path.exists() and note is None:
            status = "unreadable"
        row: dict[str, Any] = {
            "tiles": list(group),
            "entries": math.perm(n, len(group)),
            "cached": status == "ok",
            "status": status,
        }
        if note is not None and status == "ok":
            row.update(
                {
                    "max": note["max"],
                    "mean": note["mean"],
                    "build_seconds": note["seconds"],
                    "file": note["file"],
                }
            )
        rows.append(row)
    return rows


def _describe(part: Partition) -> dict[str, Any]:
    return {
        "partition": part.name,
        "label": part.label,
        "groups_text": part.text,
        "size": f"{part.height}x{part.width}",
        "width": part.width,
        "height": part.height,
        "goal": list(part.goal),
        "singletons": list(part.singletons),
        "reflectable": reflection(part.width, part.height, part.goal) is not None,
        "entries": part.entries(),
        "groups": _group_rows(part),
    }


def _print_table(info: dict[str, Any], title: str) -> None:
    # rich takes a while to import: only a table printed for a person needs it
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title, title_justify="left")
    for column in ("tiles", "entries", "cached", "max", "mean", "build s"):
        table.add_column(column, justify="left" if column == "tiles" else "right")
    for row in info["groups"]:
        cached = "yes" if row["cached"] else "no"
        if row["status"] not in ("ok", "missing"):
            cached = f"no: {row['status']}"
        table.add_row(
            ",".join(map(str, row["tiles"])),
            f"{row['entries']:,}",
            cached,
            str(row.get("max", "")),
            str(row.get("mean", "")),
            str(row.get("build_seconds", "")),
        )
    console = Console()
    console.print(table)
    if info["singletons"]:
        console.print(f"tiles counted by Manhattan distance: {info['singletons']}")
    console.print(f"cache: {cache_folder()}")


def _status(status: str) -> tuple[str, str]:
    """The status column's text and style: ``ok``, ``unchecked`` or ``DAMAGED``."""
    if status == "ok":
        return "ok", "green"
    if status == "not verified":
        return "unchecked", ""
    return "DAMAGED", "bold red"


def _goal_text(goal: list[int]) -> str:
    n = len(goal)
    if goal == list(range(n)):
        return "first"
    if goal == [*range(1, n), 0]:
        return "last"
    return " ".join(map(str, goal))


_size_option = click.option(
    "--size",
    default=None,
    help="Board size ROWSxCOLS (3x4: 3 rows of 4 tiles; default: the partition's board, "
    "else 4x4).",
)
_goal_option = click.option(
    "--goal",
    default=None,
    help="Goal board, or 'last' (blank last, the default) or 'first' (blank first, Korf's).",
)


@click.group("pdb")
def pdb_group() -> None:
    """Pattern databases: build them ahead of time, see what is cached.

    PARTITION is a name (555, 663 or 78 for 4x4, 44 for 3x3, 6666 for 5x5,
    default for the board's default) or groups of tiles such as
    1,2,3,4,5,6/7,8,9,10,11,12/13,14,15. Databases are keyed by board size,
    goal and group; 'lacak sliding solve --heuristic pdb-663' then loads them.
    """


@pdb_group.command("build")
@click.argument("partition")
@_size_option
@_goal_option
@click.option("--force", is_flag=True, help="Rebuild databases that are already cached.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (see docs/pattern-databases.md).")
def build_command(
    partition: str, size: str | None, goal: str | None, force: bool, as_json: bool
) -> None:
    """Build (or load) the databases of PARTITION and save them in the cache.

    The 6-6-3 databases for the usual goal ship with lacak: they are unpacked
    (under a second; --force builds them). With lacak[fast], the compiled
    search engine that reads databases is made ready too (compiled once per
    machine, 2-3 s), so that no later solve waits for either.

    A database already in the cache is verified first (a damaged one is
    rebuilt); a cache folder that cannot be written is an error, since
    nothing would be kept (set LACAK_CACHE_DIR to a writable folder).

    \b
    Examples:
      lacak sliding pdb build 663
      lacak sliding pdb build 663 --goal first
      lacak sliding pdb build 1,2,3,4/5,6,7,8 --size 3x3
      lacak sliding pdb build default --size 3x4
    """
    part = _partition(partition, size, goal)
    cache_folder(writable=True)  # a folder that cannot keep them is an error, before building
    started = time.perf_counter()
    # each build shows its progress through lacak.progress (a bar, only on a terminal)
    missing = [g for g in part.groups if len(g) > 1] if force else missing_groups(part)
    if missing and lacak.progress.active():
        lacak.progress.announce(build_announcement(part, missing))
    with lacak.memory_guard(*memory_note(part)):
        for group in part.groups:
            if len(group) > 1:
                load_or_build(
                    part.width, part.height, part.goal, group, force=force, must_cache=True
                )
    # the search engine that reads them, compiled now too (lacak[fast]; once per machine)
    warm_for_databases()
    info = _describe(part)
    info["seconds"] = round(time.perf_counter() - started, 3)
    if as_json:
        echo_json(info)
    else:
        _print_table(info, f"pattern databases {part.label} ({part.name}) — {info['seconds']} s")


@pdb_group.command("info")
@click.argument("partition")
@_size_option
@_goal_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON (see docs/pattern-databases.md).")
def info_command(partition: str, size: str | None, goal: str | None, as_json: bool) -> None:
    """Show the groups of PARTITION and whether their databases are cached (builds nothing)."""
    part = _partition(partition, size, goal)
    info = _describe(part)
    if as_json:
        echo_json(info)
    else:
        _print_table(info, f"pattern databases {part.label} ({part.name})")


@pdb_group.command("list")
@click.option(
    "--no-verify",
    "quick",
    is_flag=True,
    help="Read only the files' headers (fast; status 'not verified') instead of checking "
    "every byte against its checksum.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON (see docs/pattern-databases.md).")
def list_command(quick: bool, as_json: bool) -> None:
    """List the databases in the cache folder and check them.

    Each file is read whole and checked against the checksum in its header
    (a fraction of a second per GB once the file is in memory); the status
    column says 'ok', or what is wrong ('checksum mismatch', ...): a damaged
    database is never used, and the next search or 'pdb build' rebuilds it.
    """
    notes = cached_databases(verify=not quick)
    others, other_bytes = other_files()
    if as_json:
        echo_json(
            {
                "folder": str(cache_folder()),
                "databases": notes,
                "other_files": {"count": others, "bytes": other_bytes},
            }
        )
        return
    # rich takes a while to import: only a table printed for a person needs it
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    table = Table(title=f"cached pattern databases in {cache_folder()}", title_justify="left")
    columns = ("board", "goal (blank)", "tiles", "entries", "max", "mean", "build s", "MB",
               "status")  # fmt: skip
    for column in columns:
        table.add_column(
            column,
            justify="left" if column in ("board", "goal (blank)", "tiles", "status") else "right",
        )
    for note in notes:
        table.add_row(
            f"{note['height']}x{note['width']}",
            _goal_text(note["goal"]),
            ",".join(map(str, note["tiles"])),
            f"{note['entries']:,}",
            str(note["max"]),
            str(note["mean"]),
            str(note["seconds"]),
            f"{note['bytes_on_disk'] / 1e6:.1f}",
            Text(*_status(note["status"])),
        )
    console = Console()
    console.print(table)
    if not notes:
        console.print("none yet: 'lacak sliding pdb build 663' builds the 15-puzzle's")
    for note in notes:
        if note["status"] not in ("ok", "not verified"):
            click.echo(
                f"damaged: {note['file']} ({note['status']}): never used; the next search "
                "or 'lacak sliding pdb build' with its partition rebuilds it"
            )
    if others:
        files, they = ("1 other file", "it") if others == 1 else (f"{others} other files", "they")
        console.print(
            f"{files} ({other_bytes / 1e6:.1f} MB) in the folder: not databases this lacak "
            f"reads (older formats, damaged headers); {they} can be deleted"
        )
