"""Pictures of a route: the path as text, and the graph with the path (SVG, PNG)."""

from __future__ import annotations

from typing import Any

import lacak
from lacak.drawing import Canvas

from .graph import Route

__all__ = ["render"]


def _route_text(puzzle: Route, result: Any) -> str:
    if result is None or not result.found:
        return f"{puzzle.graph.name or 'graph'}: {puzzle.start} to {puzzle.goal}"
    parts = [str(result.states[0])]
    costs = dict(puzzle.graph.edges)
    for a, b in zip(result.states, result.states[1:], strict=False):
        step = min(cost for node, cost in costs[a] if node == b)
        parts.append(f"-{step:g}-> {b}")
    return f"route: {' '.join(parts)}\ncost: {result.cost:g}"


def render(
    puzzle: Route, result: Any = None, format: str = "text", *, full: bool = False
) -> str | bytes:
    """The route as text, or the graph drawn at its coordinates with the route in red.

    :raises lacak.InvalidOptionError: an unknown format, or a picture of a graph without
        coordinates.
    """
    if format == "text":
        return _route_text(puzzle, result)
    if format not in ("svg", "png"):
        raise lacak.InvalidOptionError(f"routes are drawn as text, svg or png, not {format}")
    points = puzzle.graph.coordinates
    if not points or any(node not in points for node in puzzle.graph.edges):
        raise lacak.InvalidOptionError("a graph is drawn only when every node has coordinates")
    xs = [x for x, _ in points.values()]
    ys = [y for _, y in points.values()]
    span = max(max(xs) - min(xs), max(ys) - min(ys), 1.0)
    scale = 560 / span
    margin = 40

    def at(node: str) -> tuple[float, float]:
        x, y = points[node]
        return margin + (x - min(xs)) * scale, margin + (max(ys) - y) * scale  # north up

    width = int(2 * margin + (max(xs) - min(xs)) * scale)
    height = int(2 * margin + (max(ys) - min(ys)) * scale)
    canvas = Canvas(width, height, background="#ffffff", title=_route_text(puzzle, result))
    for a, pairs in puzzle.graph.edges.items():
        for b, cost in pairs:
            if puzzle.graph.directed or a < b:
                canvas.line([at(a), at(b)], stroke="#9aa5b1", width=2, arrow=puzzle.graph.directed)
                (x1, y1), (x2, y2) = at(a), at(b)
                canvas.text((x1 + x2) / 2, (y1 + y2) / 2, f"{cost:g}", size=10, fill="#52606d")
    if result is not None and result.found:
        canvas.line([at(node) for node in result.states], stroke="#c0392b", width=4)
    for node in puzzle.graph.edges:
        x, y = at(node)
        end = node in (puzzle.start, puzzle.goal)
        canvas.circle(x, y, 6 if end else 4, fill="#c0392b" if end else "#1d3557")
        canvas.text(x, y - 12, node, size=12, bold=end)
    return canvas.svg() if format == "svg" else canvas.png()
