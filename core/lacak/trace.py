"""Recording a search tree, and showing it as JSON, Graphviz DOT, a terminal tree or a
picture (SVG or PNG, one drawing on a :class:`~lacak.drawing.Canvas`).

A searcher given a :class:`SearchTrace` calls :meth:`SearchTrace.add` for every
node it generates and :meth:`SearchTrace.expand` when it expands one; the trace
numbers nodes in generation order and remembers the order of expansion, which is
what a textbook search-tree drawing shows.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Hashable
from typing import Any

import attrs

from .drawing import Canvas

__all__ = ["SearchTrace", "TraceNode"]


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


@attrs.define
class SearchTrace:
    """A recorded search tree.

    :param max_nodes: stop recording after this many nodes (the search goes on);
        ``truncated`` tells whether that happened.
    :param describe: turns a state into text for exports (default ``str``).
    """

    max_nodes: int = 100_000
    describe: Callable[[Hashable], str] = str
    nodes: list[TraceNode] = attrs.field(factory=list, init=False)
    truncated: bool = attrs.field(default=False, init=False)
    _expansions: int = attrs.field(default=0, init=False)

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
    ) -> int:
        """Record a generated node and return its id (``-1`` once truncated)."""
        if len(self.nodes) >= self.max_nodes or (parent is not None and parent < 0):
            self.truncated = True
            return -1
        node_id = len(self.nodes)
        self.nodes.append(TraceNode(node_id, parent, state, action, depth, g, h))
        return node_id

    def expand(self, node_id: int) -> None:
        """Mark a node as expanded (the next in expansion order)."""
        self._expansions += 1
        if 0 <= node_id < len(self.nodes) and self.nodes[node_id].order is None:
            self.nodes[node_id].order = self._expansions

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
