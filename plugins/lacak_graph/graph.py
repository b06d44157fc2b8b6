"""Route finding on a weighted graph: the ``graph`` kind.

A graph is read from JSON or CSV text, or is one the plugin ships (``romania``: AIMA's
road map of Romania). Reading never opens a file: the command line reads a file and
hands its text over, and the web API hands the text it was sent, so a request can name
only a shipped graph, never a path on the server.

JSON::

    {"name": "mine", "directed": false, "start": "A", "goal": "C",
     "edges": [["A", "B", 1], ["B", "C", 2.5]],
     "coordinates": {"A": [0, 0], "B": [1, 0], "C": [3, 0]},
     "straight_line": {"C": {"A": 3, "B": 2, "C": 0}}}

Only ``edges`` is required (``[from, to, cost]``; undirected unless ``"directed":
true``; of parallel edges the cheapest is kept). ``coordinates`` give the ``straight-line`` heuristic its Euclidean distances;
``straight_line`` gives it a table of distances to a goal instead (the textbook's
``h_SLD``, which the shipped Romania map uses so that results match the book).

CSV: one edge a line, ``from,to,cost`` (a first line ``from,to,cost`` is a header);
undirected.
"""

from __future__ import annotations

import csv
import functools
import importlib.resources
import io
import json
import math
from collections.abc import Iterator, Mapping
from typing import Any

import attrs
import lacak

__all__ = ["SHIPPED", "Graph", "Route", "parse", "read_graph", "straight_line"]

#: The graphs the plugin ships, by name: the package file holding each.
SHIPPED = {"romania": "romania.json"}

#: The most edges a graph may have.
MAX_EDGES = 1_000_000

#: A node's name: printable text, at most this long.
MAX_NAME = 200


@attrs.frozen(kw_only=True, eq=False)
class Graph:
    """A weighted graph: each node's ``(neighbour, cost)`` pairs, in the order read."""

    #: The graph's name (``"romania"``), or ``""``.
    name: str = ""
    #: ``node -> ((neighbour, cost), ...)``.
    edges: Mapping[str, tuple[tuple[str, float], ...]]
    #: ``node -> ((predecessor, cost), ...)``: the edges entering each node.
    entering: Mapping[str, tuple[tuple[str, float], ...]]
    #: Whether edges go one way.
    directed: bool = False
    #: ``node -> (x, y)``, for the straight-line heuristic and pictures.
    coordinates: Mapping[str, tuple[float, float]] = attrs.field(factory=dict)
    #: ``goal -> {node: distance}``: straight-line distances to a goal, as a table.
    straight_line: Mapping[str, Mapping[str, float]] = attrs.field(factory=dict)
    #: The start and goal the file names, if any.
    start: str | None = None
    goal: str | None = None
    #: One line about the graph.
    description: str = ""
    #: The text it was read from (what :func:`parse` reads back).
    text: str = attrs.field(default="", repr=False)

    @property
    def nodes(self) -> list[str]:
        """Every node, in the order first met."""
        return list(self.edges)

    @property
    def edge_count(self) -> int:
        count = sum(len(out) for out in self.edges.values())
        return count if self.directed else count // 2


def _name(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_NAME:
        raise lacak.InvalidPuzzleError(
            f"{what}: a node is named by text of 1 to {MAX_NAME} characters, got {value!r}"
        )
    return value.strip()


def _cost(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        try:
            value = float(value)
        except (TypeError, ValueError):
            raise lacak.InvalidPuzzleError(f"{what}: a cost is a number, got {value!r}") from None
    if not math.isfinite(value) or value < 0:
        raise lacak.InvalidPuzzleError(f"{what}: a cost is a finite number >= 0, got {value!r}")
    return float(value)


def _build(edges: list[tuple[str, str, float]], directed: bool, **fields: Any) -> Graph:
    if not edges:
        raise lacak.InvalidPuzzleError("a graph needs at least one edge")
    if len(edges) > MAX_EDGES:
        raise lacak.InvalidPuzzleError(f"a graph has at most {MAX_EDGES:,} edges")
    # node -> {neighbour: cost}: of parallel edges, the cheapest (an action names the
    # node moved to, so one edge a pair)
    out: dict[str, dict[str, float]] = {}
    into: dict[str, dict[str, float]] = {}

    def add(a: str, b: str, cost: float) -> None:
        out.setdefault(a, {})
        out.setdefault(b, {})
        into.setdefault(a, {})
        into.setdefault(b, {})
        if cost < out[a].get(b, math.inf):
            out[a][b] = into[b][a] = cost

    for a, b, cost in edges:
        add(a, b, cost)
        if not directed:
            add(b, a, cost)
    return Graph(
        edges={node: tuple(pairs.items()) for node, pairs in out.items()},
        entering={node: tuple(pairs.items()) for node, pairs in into.items()},
        directed=directed,
        **fields,
    )


def _from_json(text: str) -> Graph:
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as error:
        raise lacak.InvalidPuzzleError(f"a graph's JSON does not read: {error}") from None
    if not isinstance(data, dict) or not isinstance(data.get("edges"), list):
        raise lacak.InvalidPuzzleError(
            'a graph\'s JSON is an object with "edges": [[from, to, cost], ...]'
        )
    edges = []
    for index, edge in enumerate(data["edges"]):
        what = f"edge {index + 1}"
        if not isinstance(edge, list) or len(edge) != 3:
            raise lacak.InvalidPuzzleError(f"{what}: an edge is [from, to, cost], got {edge!r:.60}")
        edges.append((_name(edge[0], what), _name(edge[1], what), _cost(edge[2], what)))
    directed = data.get("directed", False)
    if not isinstance(directed, bool):
        raise lacak.InvalidPuzzleError(f'"directed" is true or false, got {directed!r:.40}')
    coordinates = _coordinates(data.get("coordinates", {}))
    table = _table(data.get("straight_line", {}))
    ends = {key: _name(data[key], key) if data.get(key) is not None else None
            for key in ("start", "goal")}  # fmt: skip
    name = data.get("name", "")
    description = data.get("description", "")
    return _build(
        edges, directed, coordinates=coordinates, straight_line=table,
        name=name if isinstance(name, str) else "",
        description=description if isinstance(description, str) else "",
        text=text, **ends,
    )  # fmt: skip


def _coordinates(value: Any) -> dict[str, tuple[float, float]]:
    if not isinstance(value, dict):
        raise lacak.InvalidPuzzleError('"coordinates" is an object: {"A": [x, y], ...}')
    found = {}
    for node, point in value.items():
        good = (isinstance(point, list) and len(point) == 2
                and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                        and math.isfinite(v) for v in point))  # fmt: skip
        if not good:
            raise lacak.InvalidPuzzleError(
                f"coordinates of {node!r:.40}: [x, y], got {point!r:.40}"
            )
        found[_name(node, "coordinates")] = (float(point[0]), float(point[1]))
    return found


def _table(value: Any) -> dict[str, dict[str, float]]:
    if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
        raise lacak.InvalidPuzzleError('"straight_line" is {"GOAL": {"NODE": distance, ...}}')
    return {
        _name(goal, "straight_line"): {
            _name(node, "straight_line"): _cost(d, f"straight_line to {goal!r:.40}")
            for node, d in row.items()
        }
        for goal, row in value.items()
    }


def _from_csv(text: str) -> Graph:
    edges = []
    for number, row in enumerate(csv.reader(io.StringIO(text)), start=1):
        if not row or all(not cell.strip() for cell in row):
            continue
        if number == 1 and [c.strip().lower() for c in row] == ["from", "to", "cost"]:
            continue
        what = f"line {number}"
        if len(row) != 3:
            raise lacak.InvalidPuzzleError(
                f"{what}: an edge is from,to,cost, got {','.join(row)[:60]!r}"
            )
        edges.append((_name(row[0], what), _name(row[1], what), _cost(row[2].strip(), what)))
    return _build(edges, False, text=text)


@functools.lru_cache(maxsize=len(SHIPPED))
def _shipped(name: str) -> Graph:
    text = importlib.resources.files(__package__).joinpath(SHIPPED[name]).read_text("utf-8")
    return _from_json(text)


def read_graph(text: str) -> Graph:
    """A graph from its text: a shipped graph's name (``romania``), JSON or CSV.

    >>> read_graph("romania").edge_count
    23

    :raises lacak.InvalidPuzzleError: none of those (a file path too: files are read by
        the command line, never here).
    """
    if not isinstance(text, str):
        raise lacak.InvalidPuzzleError(f"a graph is read from text, not {type(text).__name__}")
    body = text.strip()
    if body in SHIPPED:
        return _shipped(body)
    if body.startswith("{"):
        return _from_json(body)
    if ("," in body and "\n" in body) or body.count(",") == 2:
        return _from_csv(body)
    raise lacak.InvalidPuzzleError(
        f'a graph is a shipped one ({", ".join(SHIPPED)}), JSON ({{"edges": [[from, to, '
        f"cost], ...]}}) or CSV (from,to,cost lines); got {body[:40]!r}"
    )


@attrs.frozen(kw_only=True, eq=False)
class Route:
    """Find a route from ``start`` to ``goal`` on ``graph``: states are node names, an
    action is the node moved to, a step costs its edge's cost."""

    graph: Graph
    start: str
    goal: str

    kind = "graph"

    @property
    def initial(self) -> str:
        return self.start

    def is_goal(self, state: str) -> bool:
        return state == self.goal

    def successors(self, state: str) -> Iterator[tuple[str, str, float]]:
        """The neighbours of ``state``, in the order the graph lists them."""
        for node, cost in self.graph.edges.get(state, ()):
            yield node, node, cost

    def predecessors(self, state: str) -> Iterator[tuple[str, str, float]]:
        """The nodes with an edge into ``state`` (for ``bidirectional-bfs``)."""
        for node, cost in self.graph.entering.get(state, ()):
            yield state, node, cost

    def format_state(self, state: str) -> str:
        return state

    def to_text(self) -> str:
        return self.graph.name if self.graph.name in SHIPPED else self.graph.text


def parse(text: str, start: str | None = None, goal: str | None = None) -> Route:
    """A route-finding puzzle: a graph (:func:`read_graph`) and its two ends.

    >>> route = parse("romania", start="Arad", goal="Bucharest")
    >>> [node for node, _action, _cost in route.successors("Arad")]
    ['Zerind', 'Sibiu', 'Timisoara']

    :param start: the node to start from (default: the graph's ``start``).
    :param goal: the node to reach (default: the graph's ``goal``).
    :raises lacak.InvalidPuzzleError: a graph that does not read.
    :raises lacak.InvalidOptionError: no start or goal, or one that is not a node.
    """
    graph = read_graph(text)
    ends = {}
    for key, given in (("start", start), ("goal", goal)):
        node = given if given is not None else getattr(graph, key)
        flag = "--from" if key == "start" else "--to"
        if node is None:
            raise lacak.InvalidOptionError(f"a route needs its {key} ({key}=..., {flag} NODE)")
        if not isinstance(node, str) or node not in graph.edges:
            close = sorted(graph.edges)[:12]
            raise lacak.InvalidOptionError(
                f"{key} {node!r:.60} is not a node of the graph (nodes: {', '.join(close)}"
                f"{', ...' if len(graph.edges) > 12 else ''})"
            )
        ends[key] = node
    return Route(graph=graph, **ends)


def straight_line(route: Route, state: str) -> float:
    """The straight-line distance from ``state`` to the goal: the graph's table of
    distances to the goal when it has one (the textbook's ``h_SLD`` for Romania), else
    the Euclidean distance between their coordinates; 0 for a node without either.
    Admissible and consistent when no edge is shorter than the straight line between its
    ends (true of roads).

    >>> straight_line(parse("romania"), "Arad")
    366.0
    """
    table = route.graph.straight_line.get(route.goal)
    if table is not None:
        return table.get(state, 0.0)
    points = route.graph.coordinates
    here, there = points.get(state), points.get(route.goal)
    if here is None or there is None:
        return 0.0
    return math.dist(here, there)
