"""Recording a search tree, and showing it as JSON, Graphviz DOT or a terminal tree.

A searcher given a :class:`SearchTrace` calls :meth:`SearchTrace.add` for every
node it generates and :meth:`SearchTrace.expand` when it expands one; the trace
numbers nodes in generation order and remembers the order of expansion, which is
what a textbook search-tree drawing shows.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable
from typing import Any

import attrs

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

    def to_json(self, **dumps: Any) -> str:
        """The trace as JSON text."""
        return json.dumps(self.to_dict(), **dumps)

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

    def to_rich(self, max_nodes: int = 200) -> Any:
        """A :class:`rich.tree.Tree` of the first ``max_nodes`` nodes.

        Labels are plain text: brackets in states or actions are shown as they
        are, never read as rich markup.
        """
        from rich.text import Text
        from rich.tree import Tree

        by_parent = self.children()
        roots = by_parent.get(None, [])
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
                tree.add(Text(f"… {len(self.nodes) - shown} more nodes", style="dim"))
                break
            shown += 1
            child_branch = branch.add(label(node))
            for child in reversed(by_parent.get(node.id, [])):
                stack.append((child_branch, child))
        return tree
