"""Strategies side by side on the same instances: AIMA's ``compare_searchers``.

:func:`compare` runs every strategy on every instance (one :func:`lacak.run.solve_run`
each, the command line's solve) and gives a :class:`Row` per pair: found, expanded,
generated, max frontier, length, cost, seconds. :func:`table` writes them as text,
:func:`chart` draws the nodes expanded per instance and strategy on a
:class:`~lacak.drawing.Canvas` (a log scale: breadth-first and A* differ by orders of
magnitude), what ``lacak compare`` shows.

>>> rows = compare("sliding", ["123405786", "120453786"], ["bfs", "astar+manhattan"])
>>> [(r.strategy, r.instance, r.length) for r in rows]  # doctest: +NORMALIZE_WHITESPACE
[('bfs', '123405786', 2), ('bfs', '120453786', 2),
 ('astar + manhattan', '123405786', 2), ('astar + manhattan', '120453786', 2)]
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from ..drawing import Canvas
from ..errors import InvalidOptionError
from ..interfaces import describe_state
from ..limits import Limits
from ..plugin.registry import Registry
from ..run import solve_run

__all__ = ["Row", "chart", "compare", "generated", "split_strategy", "table"]

#: The columns of :func:`table` and of each row's :meth:`Row.to_dict`.
COLUMNS = ("strategy", "instance", "found", "stopped", "expanded", "generated",
           "max_frontier", "length", "cost", "seconds")  # fmt: skip

#: The bars' colours, one a strategy (then again).
COLOURS = ("#1f6feb", "#d2283c", "#1e8449", "#b7791f", "#6f42c1", "#0f7b8a", "#5b6875")


@attrs.frozen
class Row:
    """One strategy on one instance."""

    #: The strategy (with its heuristic: ``astar + manhattan``), as the choice labels it.
    strategy: str
    #: The instance, in the kind's notation (its start state's text).
    instance: str
    found: bool
    #: Why the search stopped (``goal``, ``exhausted``, a limit).
    stopped: str
    expanded: int
    generated: int
    max_frontier: int
    #: Moves on the path found, ``None`` if none.
    length: int | None
    cost: float | None
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        """The row as JSON data, keys in :data:`COLUMNS` order."""
        return {name: getattr(self, name) for name in COLUMNS}


def split_strategy(spec: str) -> tuple[str, str | None]:
    """``"astar+manhattan"`` -> ``("astar", "manhattan")``; ``"bfs"`` -> ``("bfs", None)``."""
    name, plus, heuristic = spec.partition("+")
    if not name.strip() or (plus and not heuristic.strip()):
        raise InvalidOptionError(f"a strategy is NAME or NAME+HEURISTIC, not {spec!r}")
    return name.strip(), heuristic.strip() if plus else None


def compare(
    kind: str,
    instances: Iterable[Any],
    strategies: Sequence[str],
    *,
    heuristic: str | None = None,
    limits: Limits | None = None,
    options: dict[str, Any] | None = None,
    names: Sequence[str] | None = None,
    registry: Registry | None = None,
) -> list[Row]:
    """Run each strategy on each instance of ``kind``: a :class:`Row` for each, strategy
    by strategy, instances in the order given.

    :param instances: puzzles' texts (parsed with ``options``, the kind's parse options)
        or puzzles.
    :param strategies: names, or ``NAME+HEURISTIC`` (``astar+manhattan``) for a
        heuristic of its own; ``heuristic`` is the others' (``None``: the kind's choice).
    :param limits: each search's bounds (a search a limit stops is a row that found
        nothing, its ``stopped`` the limit).
    :param names: what the rows call the instances (default: the start state's text).
    :raises LacakError: an unknown kind, strategy or heuristic, or a bad instance.
    """
    if not strategies:
        raise InvalidOptionError("name at least one strategy to compare")
    given = list(instances)
    if not given:
        raise InvalidOptionError("give at least one instance to compare on")
    if names is not None and len(names) != len(given):
        raise InvalidOptionError(f"{len(names)} names for {len(given)} instances")
    rows = []
    for spec in strategies:
        name, own = split_strategy(spec)
        for number, instance in enumerate(given):
            source = instance if isinstance(instance, str) else (lambda p=instance: p)
            ran = solve_run(kind, source, parse_options=options, strategy=name,
                            heuristic=own or heuristic, limits=limits or Limits(),
                            catch_early_stop=True, registry=registry)  # fmt: skip
            result = ran.result
            puzzle = ran.instance
            if names is not None:
                text = names[number]
            elif puzzle is not None:
                text = describe_state(puzzle, puzzle.initial)
            else:
                text = str(instance)
            rows.append(Row(
                strategy=ran.label or name, instance=text, found=result.found,
                stopped=str(result.stopped), expanded=result.stats.expanded,
                generated=result.stats.generated, max_frontier=result.stats.max_frontier,
                length=result.length if result.found else None,
                cost=result.cost if result.found else None, seconds=result.stats.seconds,
            ))  # fmt: skip
    return rows


def generated(
    kind: str,
    count: int,
    *,
    seed: int = 0,
    generator: str | None = None,
    size: Any = None,
    registry: Registry | None = None,
) -> list[tuple[str, Any]]:
    """``count`` puzzles of ``kind`` made as ``lacak batch KIND -n COUNT --seed SEED``
    makes its instances (job ``i``'s seed :func:`~lacak.batch.job_seed`), each with a
    name, ``seed N``.

    :raises LacakError: an unknown kind or generator, a bad size.
    """
    from ..api import _registry
    from .seeds import job_seed
    from .specs import _look_up, spec

    reg = _registry(registry)
    plan = spec(kind, generator=generator, size=size, solve=False, registry=reg)
    found = _look_up(plan, reg)
    batch = found.batch
    out = []
    for index in range(count):
        job = job_seed(seed, index)
        instance = found.generate(plan.size, job)
        if batch.prepare is not None:  # (a maze's ends, as a batch that solves gives them)
            instance = batch.prepare(instance, solve=True, **plan.kind_options)
            if instance is None:  # (a draw the kind rejected)
                continue
        puzzle = batch.puzzle(instance) if batch.puzzle is not None else instance
        out.append((f"seed {job}", puzzle))
    return out


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.4f}" if not value.is_integer() else f"{value:g}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def table(rows: Sequence[Row]) -> str:
    """The rows as an aligned text table (numbers on the right), one line each."""
    heads = ["strategy", "instance", "found", "expanded", "generated", "max frontier",
             "length", "cost", "seconds"]  # fmt: skip
    cells = [[r.strategy, r.instance, _cell(r.found) if r.found else f"no ({r.stopped})",
              _cell(r.expanded), _cell(r.generated), _cell(r.max_frontier), _cell(r.length),
              _cell(r.cost), f"{r.seconds:.4f}"] for r in rows]  # fmt: skip
    widths = [max(len(h), *(len(c[i]) for c in cells)) for i, h in enumerate(heads)]

    def line(values: Sequence[str]) -> str:
        return "  ".join(v.ljust(w) if i < 3 else v.rjust(w)
                         for i, (v, w) in enumerate(zip(values, widths, strict=True))).rstrip()  # fmt: skip

    return "\n".join([line(heads), *map(line, cells)]) + "\n"


def chart(rows: Sequence[Row], *, measure: str = "expanded", title: str = "") -> Canvas:
    """The rows as a grouped bar chart: a group for each instance, a bar for each
    strategy, its height ``measure`` (``expanded``, ``generated``, ``max_frontier``) on a
    log scale; a search that found nothing is drawn hollow. Write it with ``.svg()`` or
    ``.png()``.

    :raises InvalidOptionError: an unknown ``measure``.
    """
    if measure not in ("expanded", "generated", "max_frontier"):
        raise InvalidOptionError(
            f"a chart shows expanded, generated or max_frontier, not {measure!r}"
        )
    strategies = list(dict.fromkeys(r.strategy for r in rows))
    instances = list(dict.fromkeys(r.instance for r in rows))
    value = {(r.strategy, r.instance): r for r in rows}
    top = max((getattr(r, measure) for r in rows), default=1)
    decades = max(1, math.ceil(math.log10(max(top, 1))))
    bar, gap, left, right, head = 18, 22, 84, 20, 56
    plot_h = 260
    group_w = max(bar * len(strategies), 100)  # (room for the instance's name)
    inset = (group_w - bar * len(strategies)) / 2
    width = left + right + max(1, len(instances)) * (group_w + gap) + gap
    legend_h = 18 * len(strategies) + 10
    height = head + plot_h + 70 + legend_h
    canvas = Canvas(round(max(width, 360)), round(height), background="#ffffff",
                    title=title or f"{measure.replace('_', ' ')} per instance and strategy",
                    font="sans-serif")  # fmt: skip
    canvas.text(left, 22, title or f"nodes {measure.replace('_', ' ')} (log scale)", size=15,
                bold=True, anchor="start")  # fmt: skip
    base = head + plot_h

    def y_of(count: float) -> float:  # (0 and 1 both at the base line)
        return base - plot_h * math.log10(max(count, 1)) / decades

    for decade in range(decades + 1):
        y = y_of(10**decade)
        canvas.line([(left, y), (width - right, y)], stroke="#e1e6eb", width=1)
        canvas.text(6, y, f"{10**decade:,}", size=11, fill="#5b6875", anchor="start")
    for column, instance in enumerate(instances):
        x0 = left + gap + column * (group_w + gap)
        for index, strategy in enumerate(strategies):
            row = value.get((strategy, instance))
            if row is None:
                continue
            count = getattr(row, measure)
            y = y_of(count)
            colour = COLOURS[index % len(COLOURS)]
            canvas.rect(x0 + inset + index * bar, y, bar - 3, max(base - y, 1),
                        fill=colour if row.found else "#ffffff", stroke=colour)  # fmt: skip
        shown = instance if len(instance) <= 14 else instance[:13] + "…"
        canvas.text(x0 + group_w / 2, base + 16, shown, size=11, fill="#1d2733")
    canvas.line([(left, base), (width - right, base)], stroke="#5b6875", width=1)
    for index, strategy in enumerate(strategies):
        y = base + 44 + 18 * index
        colour = COLOURS[index % len(COLOURS)]
        canvas.rect(left, y - 6, 12, 12, fill=colour)
        canvas.text(left + 18, y, strategy, size=12, anchor="start")
    return canvas
