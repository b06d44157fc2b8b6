"""A Griffe extension: lacak's reST docstrings read as Markdown in the API reference.

lacak's docstrings are reST with field lists (``:param x:``, ``:returns:``,
``:raises E:``), which mkdocstrings' ``sphinx`` docstring style parses. Their
prose is rendered as Markdown, where three reST habits would come out wrong;
before parsing, this extension rewrites each docstring:

- a doctest block (``>>>`` lines and their output) becomes a fenced ``pycon`` block;
- a literal block after ``::`` (an indented block) becomes a fenced block;
- a ``.. rubric:: Examples`` line (a heading inside a docstring) becomes bold text;
- a role (``:class:`lacak.Maze```, ``:func:`x```, ``:data:`y```) and a
  ``double-backquoted`` literal become a code span;
- in an attrs class, whose ``__init__`` attrs writes and Griffe cannot see,
  ``:param name:`` fields document the attributes: they become ``:ivar name:``.

Loaded from ``mkdocs.yml`` (``extensions: [docs/gen/griffe_rest.py]``); the
docstrings themselves stay reST, as ``help()`` and the doctest runner read them.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:class|func|meth|data|attr|mod|exc|obj|const|term):`~?([^`]+)`")
LITERAL = re.compile(r"``([^`]+)``")
RUBRIC = re.compile(r"^(\s*)\.\. rubric:: (.+)$")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _fence(lines: list[str], language: str) -> list[str]:
    return [f"```{language}", *lines, "```"]


def rest_to_markdown(text: str) -> str:
    """``text`` (a docstring) with doctest and literal blocks fenced and roles as code spans."""
    lines = text.splitlines()
    out: list[str] = []
    i = 0
    in_fence = False
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if stripped.startswith("```"):
            in_fence = not in_fence
            out.append(line)
            i += 1
            continue
        if in_fence:
            out.append(line)
            i += 1
            continue
        rubric = RUBRIC.match(line)
        if rubric:
            out.append(f"{rubric.group(1)}**{rubric.group(2).strip()}**")
            i += 1
            continue
        if stripped.startswith(">>>"):
            margin = _indent(line)
            block = []
            while i < len(lines) and lines[i].strip():
                block.append(lines[i][margin:] if _indent(lines[i]) >= margin else lines[i].strip())
                i += 1
            out += _fence(block, "pycon")
            continue
        if stripped.endswith("::") and not stripped.startswith(":"):
            # "Example::" -> "Example:"; a lone "::" disappears; then the indented block
            head = line.rstrip()[:-1] if stripped != "::" else ""
            margin = _indent(line)
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            if j < len(lines) and _indent(lines[j]) > margin:
                inner = _indent(lines[j])
                block: list[str] = []
                k = j
                while k < len(lines) and (not lines[k].strip() or _indent(lines[k]) >= inner):
                    block.append(lines[k][inner:])
                    k += 1
                while block and not block[-1].strip():
                    block.pop()
                if head.strip():
                    out += [_inline(head), ""]
                language = "python" if any(
                    b.lstrip().startswith(("import ", "from ", "@", "def ", "class ")) for b in block
                ) else "text"
                out += [" " * margin + f for f in _fence(block, language)]
                out.append("")
                i = k
                continue
        out.append(_inline(line))
        i += 1
    return "\n".join(out)


def _inline(line: str) -> str:
    line = ROLE.sub(lambda m: f"`{m.group(1)}`", line)
    return LITERAL.sub(lambda m: f"`{m.group(1)}`", line)


class RestToMarkdown(griffe.Extension):
    """Rewrite every docstring once the object tree is built (see the module's docstring)."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is None:
            return
        text = rest_to_markdown(obj.docstring.value)
        if isinstance(obj, griffe.Class) and _is_attrs(obj):
            text = re.sub(r"^(\s*):param ", r"\1:ivar ", text, flags=re.M)
        obj.docstring.value = text


def _is_attrs(cls: griffe.Class) -> bool:
    return any(
        str(decorator.value).split("(")[0].startswith(("attrs.", "attr.", "define", "frozen"))
        for decorator in cls.decorators
    )
