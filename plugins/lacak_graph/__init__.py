"""lacak_graph: route finding on a weighted graph, with AIMA's Romania map shipped.

Registers the kind ``graph`` (``lacak graph solve romania --from Arad --to Bucharest``,
batches and the generic page come from its :class:`lacak.PuzzleType`) and the heuristic
``straight-line``. A graph is a shipped one's name, JSON or CSV text; the command line
also takes a file. See ``docs/classic.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import lacak
from lacak.options import Text

#: What the options accept from a request lacak does not trust (the web API's): a node's
#: name (graph.MAX_NAME, repeated so that registering imports nothing more).
_NODE = Text(max_length=200, pattern=r"[^\x00-\x1f]*", like="Arad")


def _parse(text: str, start: str | None = None, goal: str | None = None) -> Any:
    from . import graph

    return graph.parse(text, start=start, goal=goal)


def _route(puzzle: Any) -> bool:
    """Whether ``puzzle`` is a route of this kind. Other puzzles say their kind is
    ``"graph"`` too (:class:`lacak.testing.GraphPuzzle`): this kind leaves them alone."""
    from .graph import Route

    return isinstance(puzzle, Route)


def _choose(puzzle: Any, heuristic: str | None, registry: Any) -> tuple[str, str | None] | None:
    """A*: with the straight-line heuristic when the graph gives one, else uniform cost
    (``None`` for a puzzle that is not a route: lacak's defaults decide)."""
    if not _route(puzzle):
        return None
    informed = heuristic or (
        "straight-line"
        if puzzle.graph.coordinates or puzzle.goal in puzzle.graph.straight_line
        else None
    )
    return ("astar" if informed else "uniform-cost"), informed


def _render(puzzle: Any, result: Any, format: str = "text", **options: Any) -> str | bytes:
    from . import render

    if not _route(puzzle):
        raise lacak.InvalidOptionError("only a route of the graph kind is drawn")
    return render.render(puzzle, result, format, **options)


def _extras(puzzle: Any, result: Any) -> dict[str, Any]:
    if not _route(puzzle):
        return {}
    graph = puzzle.graph
    return {
        "graph": {
            "name": graph.name,
            "from": puzzle.start,
            "to": puzzle.goal,
            "nodes": len(graph.edges),
            "edges": graph.edge_count,
            "directed": graph.directed,
        }
    }


def _to_text(puzzle: Any) -> str:
    return str(puzzle.to_text())


@lacak.hookimpl
def register_puzzles(register: Callable[[lacak.PuzzleType], None]) -> None:
    register(
        lacak.PuzzleType(
            kind="graph",
            parse=_parse,
            description="route finding on a weighted graph: a shipped map (romania), JSON or "
            "CSV of edges",
            options={"start": None, "goal": None},
            accepts={"start": _NODE, "goal": _NODE},
            help={
                "start": "The node to start from (--from; default: the graph's start).",
                "goal": "The node to reach (--to; default: the graph's goal).",
            },
            example="romania",
            choose=_choose,  # type: ignore[arg-type]  # (None: the defaults decide)
            render=_render,
            formats=("text", "svg", "png"),
            extras=_extras,
            to_text=_to_text,
        )
    )


def _straight_line(puzzle: Any, state: Any) -> float:
    from .graph import straight_line

    return straight_line(puzzle, state) if _route(puzzle) else 0.0


@lacak.hookimpl
def register_heuristics(register: Callable[[lacak.Heuristic], None]) -> None:
    register(
        lacak.Heuristic(
            name="straight-line",
            kind="graph",
            estimate=_straight_line,
            admissible=True,
            consistent=True,
            description="straight-line distance to the goal (the graph's table, else its "
            "coordinates); admissible when no edge is shorter than the straight line",
        )
    )


@lacak.hookimpl
def register_commands(cli: Any) -> None:
    from .cli import graph_group  # (click and lacak.cli: only when the command line is built)

    cli.add_command(graph_group())
