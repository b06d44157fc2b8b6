"""The picture of the core's layers, drawn from the code while the site builds.

Run by mkdocs-gen-files (``mkdocs.yml``). Reads the layers of the ``layers`` contract
in ``pyproject.toml`` (``[tool.importlinter]``, which ``lint-imports`` checks), builds
the import graph of the package ``lacak`` with grimp (imports inside functions
counted), and draws ``pictures/layers.svg``: one row per layer, top to bottom, a box
per folder or kernel module with its number of modules, and an arrow for every pair of
boxes where one imports the other (a red arrow would be an import against the layers).
Nothing is fetched: the graph is read from the source tree.

``python docs/gen/architecture.py OUT`` writes the same file into the folder ``OUT``.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path
from xml.sax.saxutils import escape

import grimp

ROOT = Path(__file__).resolve().parents[2]
PICTURE = "pictures/layers.svg"

#: What each layer is, for the picture's left margin.
NAMES = ["surface: commands", "surface: web", "batch, testing, gym", "tasks", "the solve run",
         "the facade", "plugin host, words", "store", "kernel"]  # fmt: skip
#: The box of the kernel's modules (the last layer), drawn as one.
KERNEL = "kernel"

BOX_H, ROW_GAP, CHAR_W, PAD, BOX_GAP, LEFT = 34, 46, 7.4, 14, 16, 150


def layers() -> list[list[str]]:
    """The layers of the contract, top first: each a list of names under ``lacak``
    (an optional layer, in parentheses, is shown when its module exists)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - the site is built on 3.11 or later
        import tomli as tomllib
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contract = next(
        c for c in config["tool"]["importlinter"]["contracts"] if c["id"] == "layers"
    )
    rows = []
    for layer in contract["layers"]:
        names = [name.strip().strip("()") for name in re.split(r"[|:]", layer)]
        rows.append(names)
    return rows


def _group(module: str, kernel: set[str]) -> str | None:
    """The box a module of ``lacak`` belongs to: its folder, the kernel's box, or its own
    name (``None``: the package itself)."""
    parts = module.split(".")
    if len(parts) == 1:
        return None
    return KERNEL if parts[1] in kernel else parts[1]


def dependencies(kernel: set[str]) -> tuple[Counter[tuple[str, str]], Counter[str]]:
    """Imports between boxes (``(importer, imported) -> count``) and modules per box."""
    graph = grimp.build_graph("lacak", include_external_packages=False, cache_dir=None)
    edges: Counter[tuple[str, str]] = Counter()
    sizes: Counter[str] = Counter()
    for module in graph.modules:
        here = _group(module, kernel)
        if here is None:
            continue
        sizes[here] += 1
        for imported in graph.find_modules_directly_imported_by(module):
            there = _group(imported, kernel)
            if there is not None and there != here:
                edges[(here, there)] += 1
    return edges, sizes


def svg() -> str:
    """The picture, as SVG text."""
    rows = layers()
    kernel = rows[-1]
    edges, sizes = dependencies(set(kernel))
    rows[-1] = [KERNEL]
    kept = [([n for n in row if sizes[n]], label) for row, label in zip(rows, NAMES, strict=True)]
    rows = [row for row, _ in kept if row]
    names = [label for row, label in kept if row]
    folders = {p.name for p in (ROOT / "core" / "lacak").iterdir() if p.is_dir()}
    labels = {
        name: f"{name}/ ({sizes[name]} modules)" if name in folders else f"{name}.py"
        for row in rows
        for name in row
    }
    labels[KERNEL] = "kernel: " + ", ".join(f"{name}.py" for name in kernel if name)
    widths = {name: len(label) * CHAR_W + 2 * PAD for name, label in labels.items()}
    span = max(sum(widths[n] for n in row) + BOX_GAP * (len(row) - 1) for row in rows)
    width = LEFT + span + 10
    boxes: dict[str, tuple[float, float, float, int]] = {}  # name -> x, y, width, row
    for number, row in enumerate(rows):
        used = sum(widths[n] for n in row) + BOX_GAP * (len(row) - 1)
        x = LEFT + (span - used) / 2
        y = 10 + number * (BOX_H + ROW_GAP)
        for name in row:
            boxes[name] = (x, y, widths[name], number)
            x += widths[name] + BOX_GAP
    height = 20 + len(rows) * (BOX_H + ROW_GAP) - ROW_GAP
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" '
        f'width="{width:.0f}" height="{height:.0f}" font-family="sans-serif" font-size="12">',
        "<title>The layers of lacak's core, drawn from its imports</title>",
        '<defs><marker id="head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" '
        'markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
        'fill="#7a8a99"/></marker><marker id="bad" viewBox="0 0 10 10" refX="9" refY="5" '
        'markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path '
        'd="M0,0 L10,5 L0,10 z" fill="#c0392b"/></marker></defs>',
    ]
    for (importer, imported), count in sorted(edges.items()):
        if importer not in boxes or imported not in boxes:
            continue
        x1, y1, w1, r1 = boxes[importer]
        x2, y2, w2, r2 = boxes[imported]
        if r1 == r2:
            continue  # siblings of one layer (the kernel's modules import each other)
        upward = r1 > r2
        start = (x1 + w1 / 2, y1 if upward else y1 + BOX_H)
        end = (x2 + w2 / 2, y2 + BOX_H if upward else y2)
        colour, marker = ("#c0392b", "bad") if upward else ("#7a8a99", "head")
        out.append(
            f'<line x1="{start[0]:.1f}" y1="{start[1]:.1f}" x2="{end[0]:.1f}" '
            f'y2="{end[1]:.1f}" stroke="{colour}" stroke-opacity="0.55" '
            f'stroke-width="{1 + min(count, 12) / 6:.2f}" marker-end="url(#{marker})">'
            f"<title>{escape(importer)} imports {escape(imported)} ({count})</title></line>"
        )
    for number in range(len(rows)):
        y = 10 + number * (BOX_H + ROW_GAP)
        out.append(
            f'<text x="8" y="{y + BOX_H / 2 + 4:.1f}" fill="#445">{escape(names[number])}</text>'
        )
    for name, (x, y, w, _) in boxes.items():
        label = labels[name]
        fill = "#e8eef5" if name in folders else "#fdf6e3"
        out.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{BOX_H}" rx="5" '
            f'fill="{fill}" stroke="#5b6b7b"/>'
            f'<text x="{x + w / 2:.1f}" y="{y + BOX_H / 2 + 4:.1f}" text-anchor="middle" '
            f'fill="#223">{escape(label)}</text>'
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def build() -> dict[str, str]:
    return {PICTURE: svg()}


def main() -> None:
    if __name__ == "__main__":  # python docs/gen/architecture.py OUT
        folder = Path(sys.argv[1])
        for name, text in build().items():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_text(text, encoding="utf-8")
        return
    import mkdocs_gen_files

    for name, text in build().items():
        with mkdocs_gen_files.open(name, "w") as out:
            out.write(text)


if __name__ in {"__main__", "<run_path>"}:  # mkdocs-gen-files runs it with runpy
    main()
