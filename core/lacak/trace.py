"""Recording a search tree, and showing it as JSON, Graphviz DOT, a terminal tree or a
picture (SVG or PNG, one drawing on a :class:`~lacak.drawing.Canvas`).

A searcher given a :class:`SearchTrace` calls :meth:`SearchTrace.add` for every
node it generates and :meth:`SearchTrace.expand` when it expands one; the trace
numbers nodes in generation order and remembers the order of expansion, which is
what a textbook search-tree drawing shows.

With ``steps=True`` the trace also keeps the search *step by step* (:class:`TraceStep`):
for each expansion the node taken, its children (made, or pruned and why), the open
list in the order it will be taken and the closed list, as the course notes draw the
queues (``antrian1`` and ``antrian2``). A strategy that records steps says how its open
list is ordered once (:meth:`SearchTrace.begin_steps`); the trace keeps the lists
itself from the nodes added, expanded and pruned. :mod:`lacak.tokens` writes a search
as a Searchformer token sequence, and checks one.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Hashable
from typing import Any

import attrs

from .drawing import Canvas

__all__ = ["PRUNED", "SearchTrace", "StepChild", "TraceNode", "TraceStep", "letters"]


def _dot_string(text: str) -> str:
    r"""``text`` as a quoted Graphviz string whose label shows exactly ``text``.

    Backslashes are doubled (Graphviz reads ``\\`` in a label as one
    backslash), quotes escaped, and line breaks become ``\n``.

    >>> print(_dot_string('go\\ "left"\nnow'))
    "go\\ \"left\"\nnow"
    """
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    escaped = escaped.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\\n")
    return f'"{escaped}"'


@attrs.define
class TraceNode:
    """One node of a recorded search tree."""

    #: Generation number, 0 for the root.
    id: int
    #: ``id`` of the parent, ``None`` for the root.
    parent: int | None
    #: The state at this node.
    state: Hashable
    #: The action that led here from the parent.
    action: Hashable | None
    #: Number of actions from the root.
    depth: int
    #: Path cost from the root.
    g: float
    #: Heuristic estimate, if the search used one.
    h: float | None = None
    #: Position in the expansion order (1 = first expanded), ``None`` if never expanded.
    order: int | None = None
    #: Whether this node is the goal the search returned.
    goal: bool = False


#: A string as JSON text (the C encoder :func:`json.dumps` uses, ASCII only).
_json_text = json.encoder.encode_basestring_ascii


def _json_float(value: float) -> str:
    """A number as :func:`json.dumps` writes it (``Infinity`` and ``NaN`` included)."""
    if isinstance(value, float) and math.isfinite(value):
        return float.__repr__(value)
    return json.dumps(value)


#: Why a child did not join the open list (:attr:`StepChild.pruned`).
PRUNED = {
    "closed": "its state was expanded already (on the closed list)",
    "open": "its state waits on the open list already, reached as cheaply or more",
    "parent": "it is the parent's parent (the notes' rule: no step straight back)",
    "path": "its state is on the path from the root already",
    "depth": "it lies beyond the depth limit",
    "bound": "its f = g + h exceeds this iteration's bound (IDA*)",
}


@attrs.define
class StepChild:
    """A child looked at in one step: made (``id`` >= 0, it joined the open list) or
    ``pruned`` (one of :data:`PRUNED`'s reasons)."""

    #: Trace id of the node made, ``-1`` for a child never made.
    id: int
    #: Its state.
    state: Hashable
    #: Path cost from the root.
    g: float
    #: Heuristic estimate, if the search used one.
    h: float | None = None
    #: ``None`` for a child made, else why it was not (a key of :data:`PRUNED`).
    pruned: str | None = None


@attrs.define
class TraceStep:
    """One expansion of a search, as the course notes draw it."""

    #: Trace id of the node taken from the open list (and checked for the goal).
    node: int
    #: The children made and those pruned, in the order the search looked at them.
    children: list[StepChild] = attrs.field(factory=list)
    #: Trace ids of the nodes waiting after this step, in the order they will be taken.
    open: list[int] = attrs.field(factory=list)
    #: Trace ids of the nodes expanded so far, this one included, in that order.
    closed: list[int] = attrs.field(factory=list)


def letters(number: int) -> str:
    """The letter name of node ``number`` (0: ``A``, 25: ``Z``, 26: ``AA``), as the
    course notes letter a tree's nodes.

    >>> [letters(n) for n in (0, 1, 25, 26, 27, 701, 702)]
    ['A', 'B', 'Z', 'AA', 'AB', 'ZZ', 'AAA']
    """
    name = ""
    number += 1
    while number:
        number, rest = divmod(number - 1, 26)
        name = chr(ord("A") + rest) + name
    return name


@attrs.define
class SearchTrace:
    """A recorded search tree.

    :param max_nodes: stop recording after this many nodes (the search goes on);
        ``truncated`` tells whether that happened.
    :param describe: turns a state into text for exports (default ``str``).
    :param steps: also record the search step by step (:attr:`steps`), when the
        strategy can (:meth:`begin_steps`; the generic ones do).
    :param max_steps: stop recording steps after this many (``steps_truncated`` says so);
        each step keeps both lists, so a step trace is for small searches.
    """

    max_nodes: int = 100_000
    describe: Callable[[Hashable], str] = str
    steps: bool = False
    max_steps: int = 1_000
    nodes: list[TraceNode] = attrs.field(factory=list, init=False)
    truncated: bool = attrs.field(default=False, init=False)
    #: The steps recorded (when ``steps`` was asked for and the strategy records them).
    recorded: list[TraceStep] = attrs.field(factory=list, init=False)
    #: Whether steps were left out (``max_steps``, or ``max_nodes`` was reached).
    steps_truncated: bool = attrs.field(default=False, init=False)
    #: How the strategy takes its open list (:meth:`begin_steps`), ``None`` before.
    order: tuple[str, float, float] | None = attrs.field(default=None, init=False)
    #: Among open nodes of equal value, 1: the first made goes first; -1: the last made.
    _tie: int = attrs.field(default=1, init=False, repr=False)
    _expansions: int = attrs.field(default=0, init=False)
    _open: dict[int, tuple[float, ...]] = attrs.field(factory=dict, init=False, repr=False)
    _closed: list[int] = attrs.field(factory=list, init=False, repr=False)
    _step_of: dict[int, int] = attrs.field(factory=dict, init=False, repr=False)
    _stepping: bool = attrs.field(default=False, init=False, repr=False)

    # -- steps -------------------------------------------------------------------

    @property
    def stepping(self) -> bool:
        """Whether steps are being recorded now (asked for, begun, not cut short)."""
        return self._stepping

    def begin_steps(self, order: str, g_weight: float = 1.0, h_weight: float = 0.0, *,
                    ties: str = "first") -> None:  # fmt: skip
        """Called by a strategy that can record steps, before its first node: how it
        takes its open list. ``"fifo"`` (breadth-first: first made, first taken),
        ``"lifo"`` (depth-first: the last expansion's children first, each expansion's
        in the order made), ``"path"`` (IDA*: as ``"lifo"``, children made one at a time) or ``"priority"`` (smallest ``g_weight*g + h_weight*h``, then
        smaller ``h``, then first made, or last made with ``ties="last"``). Steps are recorded
        only if asked for."""
        if order not in ("fifo", "lifo", "path", "priority"):
            raise ValueError(f"unknown open-list order {order!r}")
        self.order = (order, float(g_weight), float(h_weight))
        self._tie = -1 if ties == "last" else 1
        self._stepping = self.steps and not self.steps_truncated

    def restart(self) -> None:
        """A new iteration (iterative deepening, IDA*): the lists start empty again."""
        if self._stepping:
            self._settle()
            self._open.clear()
            self._closed = []

    def _key(self, node: TraceNode) -> tuple[float, ...]:
        assert self.order is not None
        how, a, b = self.order
        if how == "fifo":
            return (node.id,)
        if how in ("lifo", "path"):
            return (-len(self.recorded), node.id)
        h = node.h if node.h is not None else 0.0
        return (a * node.g + b * h, h, self._tie * node.id)

    def _settle(self) -> None:
        """Write the lists after the last step into it."""
        if self.recorded and not self.recorded[-1].closed:
            last = self.recorded[-1]
            last.open = sorted(self._open, key=self._open.__getitem__)
            last.closed = list(self._closed)

    def _stop_steps(self) -> None:
        self._settle()
        self._stepping = False
        self.steps_truncated = True

    def _child(self, parent: int | None, child: StepChild) -> None:
        index = self._step_of.get(parent) if parent is not None else None
        if index is not None:
            self.recorded[index].children.append(child)

    def prune(
        self,
        parent: int,
        state: Hashable,
        reason: str,
        *,
        g: float = 0.0,
        h: float | None = None,
    ) -> None:
        """Record a child of node ``parent`` that was not made, and why: a key of
        :data:`PRUNED`, or ``"seen"`` (a duplicate rule's: the trace tells ``"open"``
        from ``"closed"`` by where the state is)."""
        if not self._stepping:
            return
        if reason == "seen":
            waiting = any(self.nodes[i].state == state for i in self._open)
            reason = "open" if waiting else "closed"
        self._child(parent, StepChild(-1, state, g, h, reason))

    def reject(self, node_id: int, reason: str) -> None:
        """A node made but not put on the open list (IDA*'s children over the bound)."""
        if not self._stepping or not 0 <= node_id < len(self.nodes):
            return
        self._open.pop(node_id, None)
        node = self.nodes[node_id]
        index = self._step_of.get(node.parent) if node.parent is not None else None
        if index is not None:
            for child in self.recorded[index].children:
                if child.id == node_id:
                    child.pruned = reason

    def discard(self, node_id: int) -> None:
        """A node leaves the open list unexpanded (a cheaper copy of its state replaced it)."""
        if self._stepping:
            self._open.pop(node_id, None)

    def __repr__(self) -> str:
        """Short: a trace holds up to 100,000 nodes (``nodes`` lists them)."""
        noun = "node" if len(self.nodes) == 1 else "nodes"
        cut = ", truncated" if self.truncated else ""
        return f"<SearchTrace of {len(self.nodes)} {noun}{cut}>"

    def add(
        self,
        parent: int | None,
        state: Hashable,
        action: Hashable | None = None,
        *,
        depth: int = 0,
        g: float = 0.0,
        h: float | None = None,
        supersede: bool = False,
        kept: list[tuple[float, int]] | None = None,
    ) -> int:
        """Record a generated node and return its id (``-1`` once truncated).

        :param supersede: (steps) the node replaces any node of the same state waiting
            on the open list (a graph search found a cheaper path to it).
        :param kept: (steps) the ``(g, depth)`` of the copies of this state still kept
            (a search under a depth limit): waiting copies not among them leave the list.
        """
        if len(self.nodes) >= self.max_nodes or (parent is not None and parent < 0):
            self.truncated = True
            if self._stepping:
                self._stop_steps()
            return -1
        node_id = len(self.nodes)
        node = TraceNode(node_id, parent, state, action, depth, g, h)
        self.nodes.append(node)
        if self._stepping:
            if supersede or kept is not None:  # (a better copy of a state replaces it)
                for other in [i for i in self._open if self.nodes[i].state == state]:
                    old = self.nodes[other]
                    if kept is None or (old.g, old.depth) not in kept:
                        del self._open[other]
            self._open[node_id] = self._key(node)
            self._child(parent, StepChild(node_id, state, g, h))
        return node_id

    def expand(self, node_id: int) -> None:
        """Mark a node as expanded (the next in expansion order)."""
        self._expansions += 1
        if 0 <= node_id < len(self.nodes) and self.nodes[node_id].order is None:
            self.nodes[node_id].order = self._expansions
        if self._stepping:
            if len(self.recorded) >= self.max_steps or not 0 <= node_id < len(self.nodes):
                self._stop_steps()
                return
            self._settle()
            self._open.pop(node_id, None)
            self._closed.append(node_id)
            self._step_of[node_id] = len(self.recorded)
            self.recorded.append(TraceStep(node_id))

    def mark_goal(self, node_id: int) -> None:
        """Mark the node the search returned as its goal."""
        if 0 <= node_id < len(self.nodes):
            self.nodes[node_id].goal = True

    def children(self) -> dict[int | None, list[TraceNode]]:
        """Nodes grouped by parent id."""
        out: dict[int | None, list[TraceNode]] = {}
        for node in self.nodes:
            out.setdefault(node.parent, []).append(node)
        return out

    def step_list(self) -> list[TraceStep]:
        """The steps recorded, the last one's lists filled in."""
        self._settle()
        return self.recorded

    def labels(self) -> dict[int, str]:
        """The letter of each node met in the steps (:func:`letters`), as the course
        notes letter a tree: the root ``A``, then each expansion's children in the order
        the search will take them (for depth- and breadth-first, the order they were
        made; for best-first, by the heuristic)."""
        names: dict[int, str] = {}
        for step in self.step_list():
            if step.node not in names:
                names[step.node] = letters(len(names))
            made = [c.id for c in step.children if c.pruned is None and c.id >= 0]
            made.sort(key=lambda i: self._key(self.nodes[i]) if self.order else (i,))
            for i in made:
                if i not in names:
                    names[i] = letters(len(names))
        return names

    def list_names(self) -> tuple[str, str]:
        """What :meth:`steps_text` calls the open and closed lists: for the best-first
        family the notes' ``antrian1 (to examine)`` and ``antrian2 (examined)``."""
        how = self.order[0] if self.order is not None else "fifo"
        return {
            "priority": ("antrian1 (to examine)", "antrian2 (examined)"),
            "lifo": ("open (stack, top first)", "closed (examined)"),
            "path": ("open (stack, top first)", "closed (examined, this iteration)"),
            "fifo": ("open (queue, front first)", "closed (examined)"),
        }[how]

    def steps_to_list(self, max_list: int | None = None) -> list[dict[str, Any]]:
        """The steps as JSON-ready dicts: ``step`` (from 1), ``id``, ``label`` (the node's
        letter), ``node`` (its state as text), ``g``, ``h``, ``depth``, ``goal``,
        ``children`` (each ``id`` (``null`` if pruned), ``label``, ``state``, ``g``, ``h``
        and ``pruned``: ``null`` or why), ``open`` and ``closed`` (states as text, the
        open list in the order it will be taken, the closed list in the order expanded)
        and ``open_ids``/``closed_ids`` (the same as trace ids).

        :param max_list: keep only the first this many of each list (a page's answer
            stays small); each step then also has ``open_size`` and ``closed_size``.
        """
        names = self.labels()
        text = self.describe
        out = []
        for number, step in enumerate(self.step_list(), 1):
            node = self.nodes[step.node]
            children = [
                {"id": c.id if c.id >= 0 else None, "label": names.get(c.id),
                 "state": text(c.state), "g": c.g, "h": c.h, "pruned": c.pruned}
                for c in step.children
            ]  # fmt: skip
            waiting, done = step.open[:max_list], step.closed[:max_list]
            out.append({
                "step": number, "id": node.id, "label": names.get(node.id),
                "node": text(node.state), "g": node.g, "h": node.h, "depth": node.depth,
                "goal": node.goal, "children": children,
                "open": [text(self.nodes[i].state) for i in waiting],
                "closed": [text(self.nodes[i].state) for i in done],
                "open_ids": list(waiting), "closed_ids": list(done),
            })  # fmt: skip
            if max_list is not None:
                out[-1].update(open_size=len(step.open), closed_size=len(step.closed))
        return out

    def steps_text(self, max_list: int = 60) -> str:
        """The steps as the course notes lay them out, one block a step: the node taken
        (``P``), its children, and both lists by letter. A best-first family search
        (``order`` ``"priority"``) names the lists as the notes do: ``antrian1`` (the
        nodes to examine, best first) and ``antrian2`` (the nodes examined). Each list
        shows its first ``max_list`` nodes and how many more there are."""
        names = self.labels()
        waiting, done = self.list_names()

        def numbers(g: float, h: float | None) -> str:
            return f"g={g:g}" + ("" if h is None else f", h={h:g}")

        def name(i: int) -> str:
            return names.get(i, f"#{i}")

        lines = []
        for number, step in enumerate(self.step_list(), 1):
            node = self.nodes[step.node]
            goal = " = goal" if node.goal else ""
            lines.append(f"step {number}: P = {name(node.id)} {self.describe(node.state)} "
                         f"({numbers(node.g, node.h)}){goal}")  # fmt: skip
            made = [c for c in step.children if c.pruned is None]
            if self.order is not None:  # (in their letters' order: the order to be taken)
                made.sort(key=lambda c: self._key(self.nodes[c.id]) if c.id >= 0 else ())
            pruned = [c for c in step.children if c.pruned is not None]
            if made or pruned:
                parts = ", ".join(f"{name(c.id)} {self.describe(c.state)} ({numbers(c.g, c.h)})"
                                  for c in made) or "none"  # fmt: skip
                if pruned:
                    parts += "; pruned: " + ", ".join(
                        f"{self.describe(c.state)} ({c.pruned})" for c in pruned
                    )
                lines.append(f"  children: {parts}")
            for title, ids in ((waiting, step.open), (done, step.closed)):
                shown = " ".join(map(name, ids[:max_list])) or "(empty)"
                more = f" … {len(ids) - max_list:,} more" if len(ids) > max_list else ""
                lines.append(f"  {title}: {shown}{more}")
        if self.steps_truncated:
            lines.append(f"... (steps after the first {len(self.recorded):,} not recorded)")
        return "\n".join(lines) + "\n"

    # -- exports ---------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: ``{"nodes": [...], "truncated": bool}``."""
        return {
            "truncated": self.truncated,
            "nodes": [
                {
                    "id": n.id,
                    "parent": n.parent,
                    "state": self.describe(n.state),
                    "action": None if n.action is None else str(n.action),
                    "depth": n.depth,
                    "g": n.g,
                    "h": n.h,
                    "order": n.order,
                    "goal": n.goal,
                }
                for n in self.nodes
            ],
        }

    def to_json(self, *, lines: bool = False, **dumps: Any) -> str:
        """The trace as JSON text.

        :param lines: one node a line (what ``--trace FILE.json`` writes): each node
            by the C encoder, several times as fast as ``indent=`` for the 100,000
            nodes a trace keeps at most.
        :param dumps: options for :func:`json.dumps` (without ``lines``).
        """
        if not lines:
            return json.dumps(self.to_dict(), **dumps)
        if dumps:
            encode = json.JSONEncoder(**dumps).encode
            nodes = ",\n".join(map(encode, self.to_dict()["nodes"]))
            return f'{{"truncated": {encode(self.truncated)}, "nodes": [\n{nodes}\n]}}'
        nodes = ",\n".join(map(self._node_line, self.nodes))
        truncated = "true" if self.truncated else "false"
        return f'{{"truncated": {truncated}, "nodes": [\n{nodes}\n]}}'

    def _node_line(self, n: TraceNode) -> str:
        """A node as :func:`json.dumps` writes its :meth:`to_dict` entry, byte for byte,
        without making the dict (a trace of 100,000 nodes is written after the search's
        time limit: this keeps that short)."""
        text = _json_text
        action = "null" if n.action is None else text(str(n.action))
        parent = "null" if n.parent is None else int(n.parent)
        h = "null" if n.h is None else _json_float(n.h)
        order = "null" if n.order is None else int(n.order)
        goal = "true" if n.goal else "false"
        return (f'{{"id": {int(n.id)}, "parent": {parent}, "state": {text(self.describe(n.state))}, '
                f'"action": {action}, "depth": {int(n.depth)}, "g": {_json_float(n.g)}, '
                f'"h": {h}, "order": {order}, "goal": {goal}}}')  # fmt: skip

    def _label(self, node: TraceNode) -> str:
        parts = [self.describe(node.state)]
        if node.action is not None:
            parts.insert(0, str(node.action))
        numbers = f"d={node.depth}"
        if node.h is not None:
            numbers += f" g={node.g:g} h={node.h:g}"
        if node.order is not None:
            numbers = f"#{node.order} " + numbers
        parts.append(numbers)
        return " ".join(parts)

    def to_dot(self) -> str:
        """The tree in Graphviz DOT; expanded nodes are numbered, the goal is doubled."""
        lines = [
            "digraph search {",
            '  node [shape=box, fontname="monospace"];',
        ]
        for n in self.nodes:
            label = _dot_string(self._label(n))
            style = []
            if n.goal:
                style.append("peripheries=2")
            if n.order is None:
                style.append("style=dashed")
            extra = (", " + ", ".join(style)) if style else ""
            lines.append(f"  n{n.id} [label={label}{extra}];")
        for n in self.nodes:
            if n.parent is not None:
                action = _dot_string("" if n.action is None else str(n.action))
                lines.append(f"  n{n.parent} -> n{n.id} [label={action}];")
        lines.append("}")
        return "\n".join(lines) + "\n"

    def to_rich(self, max_nodes: int = 200, max_depth: int | None = None) -> Any:
        """A :class:`rich.tree.Tree` of the first ``max_nodes`` nodes, in depth-first order.

        Nodes deeper than ``max_depth`` are folded into one line saying how many
        there are, so a deep search stays readable in a narrow terminal; a last
        line says how many nodes were left out, if any. Labels are plain text:
        brackets in states or actions are shown as they are, never read as
        rich markup.
        """
        from rich.text import Text  # (deferred: rich, only when a tree is drawn)
        from rich.tree import Tree

        by_parent = self.children()
        roots = by_parent.get(None, [])
        sizes = self._subtree_sizes(by_parent)
        shown = 0

        def label(node: TraceNode) -> Text:
            text = self._label(node)
            if node.goal:
                return Text(f"{text} ← goal", style="bold green")
            if node.order is None:
                return Text(text, style="dim")
            return Text(text)

        tree = Tree("search tree", guide_style="dim")
        stack: list[tuple[Any, TraceNode]] = [(tree, r) for r in reversed(roots)]
        while stack:
            branch, node = stack.pop()
            if shown >= max_nodes:
                break
            shown += 1
            child_branch = branch.add(label(node))
            children = by_parent.get(node.id, [])
            if children and max_depth is not None and node.depth >= max_depth:
                hidden = sizes[node.id] - 1
                shown += hidden
                noun = "node" if hidden == 1 else "nodes"
                child_branch.add(Text(f"… {hidden} {noun} deeper", style="dim"))
                continue
            for child in reversed(children):
                stack.append((child_branch, child))
        if shown < len(self.nodes):
            left = len(self.nodes) - shown
            tree.add(Text(f"… {left} more {'node' if left == 1 else 'nodes'}", style="dim"))
        return tree

    def _subtree_sizes(self, by_parent: dict[int | None, list[TraceNode]]) -> dict[int, int]:
        """Nodes in each node's subtree, itself included."""
        sizes: dict[int, int] = {}
        for node in reversed(self.nodes):  # children are recorded after their parents
            sizes[node.id] = 1 + sum(sizes[c.id] for c in by_parent.get(node.id, []))
        return sizes

    def _repr_svg_(self) -> str:
        """The tree as a picture in Jupyter (:meth:`to_svg`)."""
        return self.to_svg()

    def to_svg(self, max_nodes: int = 400) -> str:
        """The tree as an SVG picture (:meth:`to_canvas`): what ``--trace FILE.svg`` writes."""
        return self.to_canvas(max_nodes).svg()

    def to_png(self, max_nodes: int = 400) -> bytes:
        """The same picture as :meth:`to_svg`, as PNG bytes: what ``--trace FILE.png`` writes."""
        return self.to_canvas(max_nodes).png()

    def to_canvas(self, max_nodes: int = 400) -> Canvas:
        """The tree drawn on a :class:`~lacak.drawing.Canvas`: boxes by depth, children
        under their parent, leaves left to right in generation order.

        Each box shows the action, the state (its ``describe`` text) and the
        numbers (expansion order, depth, g and h); expanded nodes are solid, the
        others dashed, and the path to the goal is drawn thick. Only the first
        ``max_nodes`` nodes (in generation order) are drawn; a last line says how
        many were left out.
        """
        nodes = self.nodes[:max_nodes]
        kept = {n.id for n in nodes}
        by_parent: dict[int | None, list[TraceNode]] = {}
        for n in nodes:
            by_parent.setdefault(n.parent if n.parent in kept else None, []).append(n)
        on_path: set[int] = set()
        for n in nodes:
            if n.goal:
                at: int | None = n.id
                while at is not None and at in kept:
                    on_path.add(at)
                    at = self.nodes[at].parent
        labels = {n.id: self._svg_lines(n) for n in nodes}
        char, line_height, pad = 7.2, 14, 6
        box_width = max((max(map(len, lines)) for lines in labels.values()), default=8)
        width_px = box_width * char + 2 * pad
        height_px = 3 * line_height + 2 * pad
        gap_x, gap_y = 12, 36
        x: dict[int, float] = {}
        next_leaf = 0.0

        def place(node: TraceNode) -> None:  # iterative post-order: leaves left to right
            nonlocal next_leaf
            stack: list[tuple[TraceNode, bool]] = [(node, False)]
            while stack:
                item, done = stack.pop()
                children = by_parent.get(item.id, [])
                if done or not children:
                    if children:
                        x[item.id] = (x[children[0].id] + x[children[-1].id]) / 2
                    else:
                        x[item.id] = next_leaf
                        next_leaf += 1
                    continue
                stack.append((item, True))
                stack.extend((c, False) for c in reversed(children))

        for root in by_parent.get(None, []):
            place(root)
        depth_of = {n.id: n.depth for n in nodes}
        top = min(depth_of.values(), default=0)
        columns = max(next_leaf, 1)
        levels = max((d - top for d in depth_of.values()), default=0) + 1
        total_w = round(columns * (width_px + gap_x) + gap_x)
        total_h = round(levels * (height_px + gap_y) + gap_y)

        def corner(node_id: int) -> tuple[float, float]:
            return (
                round(gap_x + x[node_id] * (width_px + gap_x), 1),
                round(gap_y / 2 + (depth_of[node_id] - top) * (height_px + gap_y), 1),
            )

        noun = "node" if len(self.nodes) == 1 else "nodes"
        canvas = Canvas(total_w, total_h, background="#ffffff",
                        title=f"search tree: {len(self.nodes)} {noun}",
                        font="monospace")  # fmt: skip
        for n in nodes:
            if n.parent in kept:
                px, py = corner(n.parent)
                cx, cy = corner(n.id)
                thick = n.id in on_path
                canvas.line([(px + width_px / 2, py + height_px), (cx + width_px / 2, cy)],
                            stroke="#22aa77" if thick else "#999999",
                            width=3 if thick else 1)  # fmt: skip
        for n in nodes:
            cx, cy = corner(n.id)
            canvas.rect(cx, cy, round(width_px, 1), round(height_px, 1),
                        fill="#eafaf0" if n.goal else "#ffffff",
                        stroke="#22aa77" if n.id in on_path else "#333333", radius=4,
                        dash=None if n.order is not None else (4, 3))  # fmt: skip
            for row, text in enumerate(labels[n.id]):
                canvas.text(cx + pad, cy + pad + (row + 0.5) * line_height, text, size=12,
                            fill="#000000", anchor="start")  # fmt: skip
        if len(self.nodes) > len(nodes):
            canvas.text(gap_x, total_h - 10, f"… {len(self.nodes) - len(nodes)} more nodes "
                        "not drawn", size=12, fill="#666666", anchor="start")  # fmt: skip
        return canvas

    def _svg_lines(self, node: TraceNode) -> list[str]:
        numbers = f"d={node.depth}"
        if node.h is not None:
            numbers += f" g={node.g:g} h={node.h:g}"
        if node.order is not None:
            numbers = f"#{node.order} " + numbers
        action = "start" if node.action is None else str(node.action)
        return [action, self.describe(node.state), numbers]
