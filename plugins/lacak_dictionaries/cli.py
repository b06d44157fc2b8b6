"""``lacak dictionaries list|show|validate|export``.

Every command prints JSON with ``--json`` (documented in ``docs/dictionaries.md``),
and every command that reads a file reads standard input for ``-``. Imported
on every ``lacak`` start (to add the group), so the folder scanning loads when
``list`` runs.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
import lacak
from lacak.cli import echo_json, read_input, registry_of
from lacak.output import plural

if TYPE_CHECKING:
    from .folders import Scan

__all__ = ["dictionaries_group"]

EXPORT_FORMATS = ("json", "seed", "list", "txt")
#: What a file name's suffix says about ``export``'s format (``-o words.txt``).
EXPORT_SUFFIXES = {".json": ("json", "seed", "list"), ".txt": ("txt",)}
#: Where standard input comes from, in messages and as a dictionary's origin.
STDIN = "<stdin>"
#: Bytes of a dictionary file ``list`` reads to count its words: a larger file (reading
#: 100 MB takes seconds, and gigabytes of memory) is listed from its file's head, its
#: words not counted (``null``). The packaged lists are under 2 MB.
COUNT_UP_TO = 8_000_000


@click.group("dictionaries")
def dictionaries_group() -> None:
    """Word lists: list, show, validate and export them.

    Drop a JSON word list into the user folder or a folder named in
    LACAK_DICTIONARY_PATH and it is available by its file name (without
    .json) everywhere a dictionary is asked for.
    """


def _origin_of(registry: lacak.Registry, found: Scan, name: str, path: str | None) -> str:
    for entry in found.active:
        if entry.name == name and path is not None and str(entry.path) == path:
            return entry.origin
    try:
        return f"plugin {registry.dictionaries().owner(name)}"
    except KeyError:  # pragma: no cover - listed names are registered
        return ""


def _shown(path: str | Path | None) -> str | None:
    """A path as printable UTF-8 text (a non-UTF-8 byte is shown as ``\\xe9``)."""
    from .folders import display  # (deferred: the commands are built on every start)

    return None if path is None else display(str(path))


def _record(dictionary: lacak.Dictionary, path: str | None, origin: str) -> dict[str, Any]:
    return {
        "name": dictionary.name,
        "language": dictionary.language,
        "title": dictionary.title,
        "words": len(dictionary),
        "source": dictionary.source,
        "license": dictionary.license,
        "path": _shown(path),
        "origin": origin,
    }


def _described(source: lacak.DictionarySource, origin: str) -> dict[str, Any]:
    """A listing row from what a source says without loading (its file's metadata)."""
    from .folders import peek_header  # (deferred: the commands are built on every start)

    header = peek_header(Path(source.path)) if source.path else {}

    def text(key: str, default: str = "") -> str:
        value = header.get(key, default)
        return value if isinstance(value, str) else default

    return {
        "name": source.name,
        "language": source.language,
        "title": text("title", source.description),
        "words": source.count,
        "source": text("source"),
        "license": text("license"),
        "path": _shown(source.path),
        "origin": origin,
    }


@dictionaries_group.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (docs/dictionaries.md).")
@click.pass_context
def list_command(ctx: click.Context, as_json: bool) -> None:
    """List every dictionary: name, language, words, title or source, and file.

    The packaged lists are described from their metadata, without loading
    them; other lists of up to 8 MB are loaded (from the compiled cache when
    possible) to count their words, larger ones are listed uncounted. A
    malformed file is listed as a problem and the others still work.
    """
    # (deferred: the commands are built on every start)
    from .folders import ORIGIN_LABELS, display, scan

    registry = registry_of(ctx)
    found = scan()
    rows: list[dict[str, Any]] = []
    problems: list[dict[str, Any]] = []
    uncounted: dict[str, int] = {}  # name -> bytes of a file too large to count here
    catalogue = registry.dictionaries()
    for name in sorted(catalogue):
        source = catalogue[name]
        origin = _origin_of(registry, found, name, source.path)
        if source.count is not None:
            rows.append(_described(source, origin))
            continue
        size = _size(source.path)
        if size is not None and size > COUNT_UP_TO:  # (reading it may take seconds and GBs)
            rows.append(_described(source, origin))
            uncounted[name] = size
            continue
        try:
            dictionary = registry.dictionary(name)
        except lacak.LacakError as error:
            problems.append(
                {
                    "name": name,
                    "path": _shown(source.path),
                    "origin": origin,
                    "error": display(str(error)),
                }
            )
            continue
        rows.append(_record(dictionary, source.path, origin))
    problems.extend(
        {
            "name": entry.name,
            "path": _shown(entry.path),
            "origin": entry.origin,
            "error": f"{_shown(entry.path)}: {entry.reason}",
        }
        for entry in found.rejected
    )
    shadowed = [
        {
            "name": entry.name,
            "path": _shown(entry.path),
            "origin": entry.origin,
            "shadowed_by": _shown(entry.shadowed_by),
        }
        for entry in found.shadowed
    ]
    folders = [
        {"path": _shown(folder.path), "origin": folder.origin, "exists": folder.exists}
        for folder in found.folders
    ]
    if as_json:
        echo_json(
            {"dictionaries": rows, "problems": problems, "shadowed": shadowed, "folders": folders}
        )
        return
    # a plain table (rich's costs a tenth of the command's time to import)
    header = ("name", "language", "words", "title", "path")
    cells = [
        (
            row["name"],
            row["language"],
            "?" if row["words"] is None else f"{row['words']:,}",
            row["title"] or row["source"] or "",
            _short_path(row["path"]),
        )
        for row in rows
    ]
    widths = [max(len(line[i]) for line in [header, *cells]) for i in range(len(header) - 1)]
    for line in [header, *cells]:
        parts = [
            line[i].rjust(widths[i]) if i == 2 else line[i].ljust(widths[i])
            for i in range(len(widths))
        ]
        click.echo("  ".join([*parts, line[-1]]).rstrip())
    if problems:
        click.secho("not usable (skipped):", fg="red")
        for problem in problems:
            label = problem["name"]
            label = label if label and label == label.strip() else repr(label)
            click.echo(f"  {label}: {problem['error']}")
    for name, size in uncounted.items():
        click.echo(f"{name}: not counted ({size / 1e6:,.0f} MB); "
                   f"'lacak dictionaries show {name}' reads and counts it")  # fmt: skip
    for item in shadowed:
        click.echo(f"{item['name']}: {item['path']} is shadowed by {item['shadowed_by']}")
    searched = ", ".join(
        f"{_shown(folder.path)} ({ORIGIN_LABELS[folder.origin]}{'' if folder.exists else ', missing'})"
        for folder in found.folders
        if folder.origin != "packaged"
    )
    click.echo(f"folders searched: {searched}")


def _size(path: str | None) -> int | None:
    """The size of a dictionary's file in bytes, or ``None`` (no file, or none to see)."""
    if path is None:
        return None
    try:
        return Path(path).stat().st_size
    except OSError:
        return None


def _short_path(path: str | None) -> str:
    if path is None:
        return ""
    try:
        return "~/" + str(Path(path).relative_to(Path.home()))
    except ValueError:
        return path


def _load(ctx: click.Context, name: str) -> tuple[lacak.Dictionary, str | None]:
    """A registered dictionary by name, a file by path, or standard input for ``-``.

    An argument that is not a registered name and looks like a path (it ends
    in ``.json`` or contains a path separator) is read as a file, so a missing
    file says it cannot be read rather than being an unknown name.
    """
    if name == "-":
        return _from_stdin(), None
    registry = registry_of(ctx)
    catalogue = registry.dictionaries()
    path = Path(name)
    separators = {"/", os.sep, os.altsep or "/"}
    if name not in catalogue and (
        path.suffix.lower() == ".json" or any(sep in name for sep in separators)
    ):
        return lacak.Dictionary.from_file(path), str(path)
    # an unknown name raises UnknownComponentError with close matches
    return registry.dictionary(name), catalogue[name].path


def _from_stdin() -> lacak.Dictionary:
    """A dictionary read from standard input (named by its ``name`` metadata, else
    ``dictionary``)."""
    return lacak.Dictionary.from_json(read_input("-", dictionary=True), origin=STDIN)


def _report_record(dictionary: lacak.Dictionary, limit: int | None) -> dict[str, Any]:
    report = dictionary.report or lacak.LoadReport(entries=len(dictionary), format="words")
    skipped = report.skipped if limit is None else report.skipped[:limit]
    return {
        "format": report.format,
        "entries": report.entries,
        "duplicates": report.duplicates,
        "skipped_count": len(report.skipped),
        "skipped": [{"word": item.word, "reason": item.reason} for item in skipped],
        "notes": list(report.notes),
    }


def _echo_report(dictionary: lacak.Dictionary, limit: int | None) -> None:
    report = dictionary.report
    if report is None:
        return
    click.echo(f"read:      {report.summary()} ({report.format} format)")
    for note in report.notes:
        click.echo(f"note:      {note}")
    shown = report.skipped if limit is None else report.skipped[:limit]
    for item in shown:
        click.echo(f"skipped:   {item.word!r}: {item.reason}")
    if len(shown) < len(report.skipped):
        click.echo(f"           ... and {len(report.skipped) - len(shown)} more skipped")


def _limit(value: int) -> int | None:
    return None if value == 0 else value


@dictionaries_group.command("show")
@click.argument("name", metavar="NAME|FILE|-")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (docs/dictionaries.md).")
@click.option(
    "--limit",
    type=click.IntRange(min=0),
    default=20,
    show_default=True,
    help="Words (and skipped words) to show; 0 for all.",
)
@click.pass_context
def show_command(ctx: click.Context, name: str, as_json: bool, limit: int) -> None:
    """Show a dictionary (by name, a .json file, or '-' for standard input): its source,
    licence and filters (how it was made: what was left out and why), counts, and its
    first words."""
    dictionary, path = _load(ctx, name)
    most = _limit(limit)
    words = dictionary.words if most is None else dictionary.words[:most]
    if as_json:
        echo_json(
            {
                "name": dictionary.name,
                "title": dictionary.title,
                "language": dictionary.language,
                "source": dictionary.source,
                "license": dictionary.license,
                "alphabet": dictionary.alphabet,
                "letters": dictionary.letters,
                "path": _shown(path),
                "count": len(dictionary),
                "filters": list(dictionary.filters),
                **_report_record(dictionary, most),
                "words": list(words),
            }
        )
        return
    click.echo(f"name:      {dictionary.name}")
    for label, value in (
        ("title", dictionary.title),
        ("language", dictionary.language),
        ("source", dictionary.source),
        ("license", dictionary.license),
        ("alphabet", dictionary.alphabet),
        ("path", _shown(path)),
    ):
        if value:
            click.echo(f"{label + ':':10} {value}")
    click.echo(f"words:     {len(dictionary)}")
    for line in dictionary.filters:
        click.echo(f"filter:    {line}")
    _echo_report(dictionary, most)
    if words:
        more = f" ... (+{len(dictionary) - len(words)})" if len(words) < len(dictionary) else ""
        click.echo("first:     " + " ".join(words) + more)


@dictionaries_group.command("validate")
@click.argument("file", metavar="FILE|-")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (docs/dictionaries.md).")
@click.option("--strict", is_flag=True, help="Fail when any word is skipped.")
@click.option(
    "--limit",
    type=click.IntRange(min=0),
    default=20,
    show_default=True,
    help="Skipped words to show; 0 for all.",
)
def validate_command(file: str, as_json: bool, strict: bool, limit: int) -> None:
    """Check a dictionary file ('-': standard input): is it well formed, and which words
    would be skipped?

    Exit status 0 when it can be used, 2 (with the file, line and column)
    when it cannot; with --strict, skipped words also make it fail.
    """
    from .folders import display  # (deferred: the commands are built on every start)

    shown = STDIN if file == "-" else display(file)
    if file == "-":
        dictionary = _from_stdin()
    else:
        dictionary = lacak.Dictionary.from_file(Path(file), cache=False)
    report = dictionary.report
    assert report is not None
    if strict and report.skipped:
        first = report.skipped[0]
        raise lacak.DictionaryError(
            f"{shown}: {plural(len(report.skipped), 'word')} would be skipped, "
            f"the first {first.word!r}: {first.reason}"
        )
    most = _limit(limit)
    if as_json:
        echo_json(
            {
                "file": shown,
                "valid": True,
                "name": dictionary.name,
                "language": dictionary.language,
                "alphabet": dictionary.alphabet,
                "count": len(dictionary),
                **_report_record(dictionary, most),
            }
        )
        return
    click.echo(f"{shown}: valid, {plural(len(dictionary), 'word')}")
    _echo_report(dictionary, most)


def _export_format(fmt: str | None, output: Path | None, as_json: bool) -> str:
    """``-f``, else ``--json``, else ``-o``'s suffix (``.txt``: txt), else ``json``.

    :raises InvalidOptionError: ``-f`` contradicts ``--json`` or ``-o``'s suffix.
    """
    if as_json:
        if fmt not in (None, "json"):
            raise lacak.InvalidOptionError(f"--json prints JSON; it cannot go with -f {fmt}")
        fmt = "json"
    suffix = output.suffix.lower() if output is not None and str(output) != "-" else ""
    allowed = EXPORT_SUFFIXES.get(suffix)
    if fmt is not None and allowed is not None and fmt not in allowed:
        raise lacak.InvalidOptionError(
            f"-f {fmt} contradicts -o {output} (a {suffix} file takes {', '.join(allowed)})"
        )
    return fmt or (allowed[0] if allowed else "json")


@dictionaries_group.command("export")
@click.argument("name", metavar="NAME|FILE|-")
@click.option(
    "-f",
    "--format",
    "fmt",
    type=click.Choice(EXPORT_FORMATS),
    default=None,
    help="json: object with metadata; seed: lists by first letter; list: JSON list; "
    "txt: one word per line. Default: from -o's suffix (.txt: txt), else json.",
)
@click.option("--json", "as_json", is_flag=True, help="The same as -f json.")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write to this file instead of standard output.",
)
@click.pass_context
def export_command(
    ctx: click.Context, name: str, fmt: str | None, as_json: bool, output: Path | None
) -> None:
    """Write a dictionary's normalised words (by name, a .json file, or '-' for standard
    input)."""
    fmt = _export_format(fmt, output, as_json)
    dictionary, _path = _load(ctx, name)
    if fmt == "txt":
        text = "".join(word + "\n" for word in dictionary.words)
    else:
        text = dictionary.to_json("object" if fmt == "json" else fmt)
    if output is None or str(output) == "-":
        click.echo(text, nl=False)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as error:
        raise lacak.InvalidOptionError(
            f"cannot write {str(output)!r}: {error.strerror or error}"
        ) from None
    click.echo(f"wrote {plural(len(dictionary), 'word')} to {output}", err=True)
