"""Search-trace exports: DOT that Graphviz reads back exactly, rich trees of plain text."""

from __future__ import annotations

import re

import lacak
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

_TOKEN = re.compile(r'\s+|->|[{}\[\];,=]|[A-Za-z0-9_.]+|"')


def _dot_tokens(text: str) -> list[tuple[str, str]]:
    """``(kind, value)`` tokens of DOT text, quoted strings read as Graphviz's scanner does.

    In a quoted string ``\\"`` is a quote, ``\\\\`` stays two backslashes (the
    label's own escape), a backslash before a newline joins lines, and a bare
    quote ends the string.
    """
    tokens, pos = [], 0
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        assert match is not None, f"unexpected character at {text[pos:pos + 20]!r}"
        pos = match.end()
        if match.group().isspace():
            continue
        if match.group() != '"':
            tokens.append(("id", match.group()))
            continue
        value = []
        while True:
            assert pos < len(text), "a quoted string is never closed"
            char = text[pos]
            if char == '"':
                pos += 1
                break
            if char == "\\" and text[pos + 1: pos + 2] in ('"', "\\", "\n"):
                pair = text[pos + 1]
                value.append({'"': '"', "\\": "\\\\", "\n": ""}[pair])
                pos += 2
                continue
            value.append(char)
            pos += 1
        tokens.append(("string", "".join(value)))
    return tokens


def _label_text(escaped: str) -> str:
    """What Graphviz shows for a label string: ``\\\\`` is a backslash, ``\\n`` a line break."""
    out, pos = [], 0
    while pos < len(escaped):
        if escaped[pos] == "\\":
            pair = escaped[pos + 1: pos + 2]
            assert pair in ("\\", "n"), f"the label has the escape \\{pair} ({escaped!r})"
            out.append("\\" if pair == "\\" else "\n")
            pos += 2
        else:
            out.append(escaped[pos])
            pos += 1
    return "".join(out)


def read_dot(text: str) -> tuple[dict[str, str], dict[tuple[str, str], str]]:
    """Node and edge labels of the DOT ``SearchTrace.to_dot`` writes (asserting its grammar)."""
    tokens = _dot_tokens(text)
    assert tokens[:3] == [("id", "digraph"), ("id", "search"), ("id", "{")]
    assert tokens[-1] == ("id", "}")
    nodes: dict[str, str] = {}
    edges: dict[tuple[str, str], str] = {}
    statements: list[list[tuple[str, str]]] = [[]]
    for token in tokens[3:-1]:
        if token == ("id", ";"):
            statements.append([])
        else:
            statements[-1].append(token)
    assert statements.pop() == []
    for statement in statements:
        head = statement[: statement.index(("id", "["))]
        attrs = statement[len(head) + 1:]
        assert attrs[-1] == ("id", "]"), statement
        pairs: dict[str, str] = {}
        position = 0
        while position < len(attrs) - 1:
            (key_kind, key), equals, (_, value) = attrs[position: position + 3]
            assert key_kind == "id" and equals == ("id", "="), statement
            pairs[key] = value
            position += 3
            if attrs[position] == ("id", ","):
                position += 1
        if len(head) == 1:
            if head[0][1] != "node":
                nodes[head[0][1]] = _label_text(pairs["label"])
        else:
            assert [kind for kind, _ in head] == ["id", "id", "id"] and head[1][1] == "->"
            edges[head[0][1], head[2][1]] = _label_text(pairs["label"])
    return nodes, edges


def test_read_dot_catches_a_broken_string() -> None:
    with pytest.raises(AssertionError, match="never closed"):
        read_dot('digraph search {\n  n0 [label="go\\"];\n}\n')
    with pytest.raises(AssertionError, match="escape"):
        read_dot('digraph search {\n  n0 [label="\\N"];\n}\n')


texts = st.text(st.characters(exclude_categories=("Cs",)), max_size=12)


@given(steps=st.lists(st.tuples(texts, texts), min_size=1, max_size=6), root=texts)
@example(steps=[("go\\", "x")], root="s")
@example(steps=[('say "hi"', "two\nlines\r\n")], root="\\N\\G")
def test_dot_labels_read_back_exactly(steps: list[tuple[str, str]], root: str) -> None:
    trace = lacak.SearchTrace()
    parent = trace.add(None, root)
    trace.expand(parent)
    for depth, (action, state) in enumerate(steps, 1):
        parent = trace.add(parent, state, action, depth=depth, g=depth, h=0.5)
    trace.mark_goal(parent)
    nodes, edges = read_dot(trace.to_dot())
    lines = lambda s: s.replace("\r\n", "\n").replace("\r", "\n")  # noqa: E731
    assert nodes == {f"n{n.id}": lines(trace._label(n)) for n in trace.nodes}
    assert edges == {
        (f"n{n.parent}", f"n{n.id}"): lines(str(n.action)) for n in trace.nodes[1:]
    }


def test_rich_tree_shows_states_as_they_are() -> None:
    from rich.console import Console

    trace = lacak.SearchTrace()
    root = trace.add(None, "[bold]start[/bold] \\[/i]")
    trace.expand(root)
    dim = trace.add(root, "a\\", "[/]", depth=1)
    goal = trace.add(root, "[red]end\\", "go\\", depth=1)
    trace.expand(goal)
    trace.mark_goal(goal)
    console = Console(width=200, record=True)
    console.print(trace.to_rich())
    shown = console.export_text()
    for node in (trace.nodes[root], trace.nodes[dim], trace.nodes[goal]):
        assert trace._label(node) in shown
    assert trace._label(trace.nodes[goal]) + " ← goal" in shown


_STATES = st.one_of(st.text(), st.tuples(st.integers(), st.integers()), st.integers())
_NUMBERS = st.one_of(st.integers(-10**6, 10**6), st.floats(allow_nan=True, allow_infinity=True))


@given(
    steps=st.lists(st.tuples(_STATES, st.one_of(st.none(), _STATES), _NUMBERS,
                             st.one_of(st.none(), _NUMBERS)), max_size=30),
    truncate=st.booleans(),
    expanded=st.sets(st.integers(0, 29)),
    goal=st.integers(0, 29),
)
def test_a_trace_file_s_lines_are_json_dumps_of_each_node_byte_for_byte(
    steps: list[tuple[object, object, float, float | None]],
    truncate: bool,
    expanded: set[int],
    goal: int,
) -> None:
    """``to_json(lines=True)`` (``--trace FILE.json``) writes each node without making its
    dict, and gives exactly what :func:`json.dumps` gives for it, strange text and
    numbers included."""
    import json

    trace = lacak.SearchTrace(max_nodes=len(steps) if truncate else 100)
    parent = None
    for depth, (state, action, g, h) in enumerate(steps):
        parent = trace.add(parent, state, action, depth=depth, g=g, h=h)  # type: ignore[arg-type]
    if truncate:
        trace.add(parent, "one too many")
    for node in sorted(expanded):
        trace.expand(node)
    trace.mark_goal(goal)
    data = trace.to_dict()
    encode = json.JSONEncoder().encode
    nodes = ",\n".join(map(encode, data["nodes"]))
    expected = f'{{"truncated": {encode(data["truncated"])}, "nodes": [\n{nodes}\n]}}'
    assert trace.to_json(lines=True) == expected
