"""Pictures for the site, drawn by lacak itself while the site builds (never pasted).

Run by mkdocs-gen-files (``mkdocs.yml``). Writes ``pictures/*.svg`` and the page
``gallery.md``: every built-in maze generator side by side with the texture
measured on the maze shown and on a larger sample, a Boggle board with a word's
path, a search tree of sliding boards (:meth:`lacak.SearchTrace.to_svg`) and
solution pictures (the sliding kind's and the maze kind's ``render``).

The guides embed some of these files (``pictures/...``), so a picture is always
what the code draws today. ``python docs/gen/pictures.py OUT`` writes the same
files into the folder ``OUT`` (for a look without building the site).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import lacak

#: The maze generators' side-by-side pictures: size and seed of the maze drawn.
MAZE_SIZE = (12, 16)
MAZE_SEED = 7
#: Texture is measured on this many mazes of this size (seeds 0, 1, ...) as well.
SAMPLE_SIZE = (40, 40)
SAMPLE_COUNT = 4
#: The Boggle board shown and the word highlighted on it.
BOGGLE_BOARD = "AHORJ/QQUOI/SSCPD/MUPSM/AUULI"
BOGGLE_DICTIONARY = "ind"
#: The search tree: the course notes' breadth-first example.
TREE_BOARD, TREE_GOAL = "123450786", "103425786"
#: The solution picture: an 8-puzzle solved optimally.
SOLUTION_BOARD = "413726580"


def _texture(stats: dict[str, Any]) -> dict[str, float]:
    keys = ("dead_end_share", "straightness", "corridor_length", "junction_share", "solution_share")
    return {key: float(stats[key]) for key in keys if stats.get(key) is not None}


def maze_pictures() -> tuple[dict[str, str], list[dict[str, Any]]]:
    """``{file name: svg}`` of one maze per generator, and one row of measured texture each."""
    files: dict[str, str] = {}
    rows: list[dict[str, Any]] = []
    # the built-in generators only: a plugin installed where the site is built (the
    # tutorial's example, in CI) is not lacak's
    catalogue = lacak.generators("maze")
    for name in sorted(n for n in catalogue if catalogue.owner(n) == "mazes"):
        maze = lacak.generate("maze", name, MAZE_SIZE, seed=MAZE_SEED).with_endpoints()
        svg = maze.render("svg", cell_size=14, wall_width=2)
        files[f"maze-{name}.svg"] = svg if isinstance(svg, str) else svg.decode()
        shown = _texture(maze.stats())
        sample = [
            _texture(lacak.generate("maze", name, SAMPLE_SIZE, seed=seed).with_endpoints().stats())
            for seed in range(SAMPLE_COUNT)
        ]
        mean = {key: sum(s[key] for s in sample) / len(sample) for key in sample[0]}
        rows.append(
            {
                "name": name,
                "plugin": catalogue.owner(name),
                "texture": catalogue[name].metadata.get("texture", ""),
                "declared_dead_ends": catalogue[name].metadata.get("dead_ends"),
                "shown": shown,
                "sample": mean,
            }
        )
    return files, rows


#: The mazes of the "Grids" part of docs/mazes.md: (file, generator, size, options).
GRID_MAZES = (
    ("grid-hex.svg", "wilson", (10, 13), {"grid": "hex"}),
    ("grid-triangle.svg", "recursive-backtracker", (10, 24), {"grid": "triangle"}),
    ("grid-upsilon.svg", "kruskal", (12, 16), {"grid": "upsilon"}),
    ("grid-polar.svg", "wilson", (10, 10), {"grid": "polar"}),
    ("grid-torus.svg", "wilson", (12, 16), {"grid": "torus"}),
    ("grid-word.svg", "hunt-and-kill", None, {"mask": "WORD", "braid": 0.3}),
)


def grid_pictures() -> dict[str, str]:
    """``{file name: svg}`` of one maze on each grid, with its solution."""
    from lacak_mazes.grids.masks import mask_from_word

    files = {}
    for name, algorithm, size, options in GRID_MAZES:
        if options.get("mask") == "WORD":
            options = {**options, "mask": "/".join(mask_from_word("lacak", scale=2))}
        maze = lacak.generate("maze", algorithm, size, seed=MAZE_SEED, **options)
        files[name] = str(maze.with_endpoints().render("svg", cell_size=16, wall_width=2))
    return files


def boggle_picture() -> tuple[str, str, int]:
    """An SVG of the board with its best-scoring long word's path, the word, and its score."""
    from lacak_boggle import board_svg, solve_board

    result = solve_board(BOGGLE_BOARD, BOGGLE_DICTIONARY, min_length=3)
    best = max(result.words, key=lambda w: (w.score, w.word))
    caption = f"{best.word} ({best.score} points)"
    return board_svg(result.board, best.path, caption=caption), best.word, best.score


def tree_picture() -> tuple[str, Any]:
    """The search tree of a breadth-first search to depth 2, as boards (``SearchTrace.to_svg``)."""
    puzzle = lacak.parse("sliding", TREE_BOARD, goal=TREE_GOAL)
    result = lacak.solve(puzzle, "bfs", limits=lacak.Limits(max_depth=2), trace=True)
    assert result.trace is not None
    return result.trace.to_svg(), result


def solution_pictures() -> dict[str, str]:
    """The sliding kind's and the maze kind's pictures of a solution."""
    registry = lacak.default_registry()
    kinds = registry.puzzle_types()
    files: dict[str, str] = {}
    puzzle = lacak.parse("sliding", SOLUTION_BOARD)
    result = lacak.solve(puzzle)
    render = kinds["sliding"].render
    assert render is not None
    svg = render(puzzle, result, "svg", full=True)
    files["sliding-solution.svg"] = svg if isinstance(svg, str) else svg.decode()
    maze = lacak.generate("maze", "wilson", (10, 19), seed=7)
    maze_puzzle = lacak.parse("maze", lacak.puzzle_text(maze))
    maze_result = lacak.solve(maze_puzzle)
    render = kinds["maze"].render
    assert render is not None
    svg = render(maze_puzzle, maze_result, "svg", full=True)
    files["maze-solution.svg"] = svg if isinstance(svg, str) else svg.decode()
    return files


def _number(value: float | None) -> str:
    return "" if value is None else f"{value:.2f}"


def gallery_page(rows: list[dict[str, Any]], word: str, score: int, tree_result: Any) -> str:
    """The Markdown of ``gallery.md``."""
    rows_, cols = MAZE_SIZE
    out = [
        "# Gallery",
        "",
        "Every picture on this page, and every picture under `pictures/` that the",
        "guides show, is drawn by lacak while the site builds (`docs/gen/pictures.py`),",
        "so it is what the code draws today.",
        "",
        "## Every maze generator, side by side",
        "",
        f"Each registered generator at {rows_}x{cols} (rows x columns), seed {MAZE_SEED},",
        "with the suggested start and end (the two ends of its longest path) and the",
        "solution. Under each, and in the table, its texture as `Maze.stats()` measures",
        f"it: the mean over {SAMPLE_COUNT} mazes of {SAMPLE_SIZE[0]}x{SAMPLE_SIZE[1]} (seeds 0 to",
        f"{SAMPLE_COUNT - 1}) of the share of cells that are dead ends, straightness,",
        "the mean corridor length, the",
        "share of junctions, and the share of cells on the solution. The generator's",
        "own `dead_ends` metadata (what `lacak maze algorithms` shows) is its claim;",
        "the measured column is the check ([mazes.md](mazes.md#statistics)).",
        "",
        "| | | |",
        "|:---:|:---:|:---:|",
    ]
    cells = [
        f"![{row['name']}](pictures/maze-{row['name']}.svg){{ width=\"240\" }}<br>`{row['name']}`<br>"
        f"dead ends {_number(row['sample'].get('dead_end_share'))}, "
        f"corridors {_number(row['sample'].get('corridor_length'))}"
        for row in rows
    ]
    cells += [""] * (-len(cells) % 3)
    for i in range(0, len(cells), 3):
        out.append("| " + " | ".join(cells[i : i + 3]) + " |")
    out += [
        "",
        "| generator | dead ends (claimed) | dead ends | straightness | corridor length | junctions | on the solution |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        sample = row["sample"]
        out.append(
            f"| `{row['name']}` | {_number(row['declared_dead_ends'])} "
            f"| {_number(sample.get('dead_end_share'))} | {_number(sample.get('straightness'))} "
            f"| {_number(sample.get('corridor_length'))} | {_number(sample.get('junction_share'))} "
            f"| {_number(sample.get('solution_share'))} |"
        )
    out += [
        "",
        f"(means over {SAMPLE_COUNT} mazes of {SAMPLE_SIZE[0]}x{SAMPLE_SIZE[1]}; the same",
        "seeds give the same numbers on every machine.)",
        "",
        "## A Boggle board with a word's path",
        "",
        f"`{BOGGLE_BOARD}` with the dictionary `{BOGGLE_DICTIONARY}`: the best-scoring",
        f"word, **{word}** ({score} points), with its path (`lacak_boggle.board_svg`;",
        "`lacak boggle solve BOARD -o board.svg` draws the same).",
        "",
        "![a Boggle board with a word's path](pictures/boggle-board.svg)",
        "",
        "## A search tree of boards",
        "",
        f"Breadth-first search from `{TREE_BOARD}` to `{TREE_GOAL}` with depth limit 2",
        "(the course notes' example): `SearchTrace.to_svg()` draws every generated",
        "node as a box with its board, numbered in the order the nodes were expanded,",
        "with g and h; the path is thick, nodes never expanded are dashed",
        f"({tree_result.stats.expanded} expanded, {tree_result.stats.generated} generated).",
        "`lacak sliding solve BOARD --trace tree.svg` (or `tree.png`) writes the same picture.",
        "",
        "![a search tree of boards](pictures/search-tree.svg)",
        "",
        "## Solutions",
        "",
        f"`lacak sliding solve {SOLUTION_BOARD} -o solution.svg`: the boards along the",
        "solution the default choice finds, each headed by the blank's move.",
        "",
        "![the boards along a sliding-puzzle solution](pictures/sliding-solution.svg)",
        "",
        "The same solution played, as the web page's player steps through it",
        "(`lacak serve`, [web.md](web.md)): every tile slides along the path lacak found.",
        "",
        "![the solution, animated](pictures/sliding-animation.svg)",
        "",
        "A maze (`wilson`, 10x19, seed 7) solved with the maze kind's default choice,",
        "as `lacak maze solve FILE -o solved.svg` draws it.",
        "",
        "![a solved maze](pictures/maze-solution.svg)",
        "",
    ]
    return "\n".join(out)


def solution_animation(board: str = SOLUTION_BOARD, cell: int = 48, step: float = 0.6) -> str:
    """An animated SVG of a sliding-puzzle solution: each tile slides along the path lacak
    finds, as the web page's player shows it (SVG ``<animate>``, no script)."""
    from xml.sax.saxutils import escape

    puzzle = lacak.parse("sliding", board)
    result = lacak.solve(puzzle)
    states = [tuple(state) for state in result.states]
    width, height = puzzle.width, puzzle.height
    frames = len(states) + 2  # hold the last board for two steps before starting again
    duration = frames * step
    times = ";".join(f"{min(i, len(states) - 1) / (frames - 1):.4f}" for i in range(frames))
    shapes = []
    for tile in sorted(set(states[0]) - {0}):
        where = [state.index(tile) for state in states] + [states[-1].index(tile)] * 2
        xs = ";".join(str(position % width * cell) for position in where)
        ys = ";".join(str(position // width * cell) for position in where)
        shapes.append(
            f'<g><rect width="{cell - 4}" height="{cell - 4}" x="2" y="2" rx="6" '
            f'fill="#e8eef5" stroke="#37474f" stroke-width="2"/>'
            f'<text x="{cell / 2}" y="{cell / 2 + 7}" font-size="20" text-anchor="middle" '
            f'font-family="sans-serif" fill="#263238">{escape(str(tile))}</text>'
            f'<animateTransform attributeName="transform" type="translate" '
            f'values="{";".join(f"{x} {y}" for x, y in zip(xs.split(";"), ys.split(";"), strict=True))}" '
            f'keyTimes="{times}" calcMode="linear" dur="{duration:.1f}s" '
            f'repeatCount="indefinite"/></g>'
        )
    size = f'width="{width * cell}" height="{height * cell + 24}"'
    caption = f"{board}: {result.length} moves"
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" {size} '
        f'viewBox="0 0 {width * cell} {height * cell + 24}">'
        f'<rect width="{width * cell}" height="{height * cell}" fill="#b0bec5"/>'
        + "".join(shapes)
        + f'<text x="4" y="{height * cell + 17}" font-size="12" font-family="sans-serif">'
        f"{escape(caption)}</text></svg>"
    )


def build() -> dict[str, str]:
    """Every file this script writes, by path in the site: ``gallery.md`` and ``pictures/*.svg``."""
    files, rows = maze_pictures()
    board, word, score = boggle_picture()
    files["boggle-board.svg"] = board
    tree, tree_result = tree_picture()
    files["search-tree.svg"] = tree
    files.update(solution_pictures())
    files.update(grid_pictures())
    files["sliding-animation.svg"] = solution_animation()
    out = {f"pictures/{name}": text for name, text in files.items()}
    out["gallery.md"] = gallery_page(rows, word, score, tree_result)
    return out


def main() -> None:
    if __name__ == "__main__":  # python docs/gen/pictures.py OUT
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
