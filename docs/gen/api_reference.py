"""The API reference pages (``reference/*.md``), written while the site builds.

Run by mkdocs-gen-files. Each page holds mkdocstrings directives (``::: module``)
that render the modules' docstrings (reST fields: ``:param:``, ``:returns:``,
``:raises:``); the list below is the public API a user or a plugin author
imports. ``mkdocs build --strict`` fails when a directive names something that
does not exist. ``docs/api.md`` is the hand-written tour of the same API.
"""

from __future__ import annotations

#: (file, title, introduction, modules): one page each, in the order of the navigation.
PAGES: list[tuple[str, str, str, list[str]]] = [
    (
        "lacak.md",
        "lacak",
        "The facade every user and plugin imports: `import lacak`. "
        "[api.md](../api.md) is the tour; this page is every public name's docstring.",
        ["lacak"],
    ),
    (
        "hooks.md",
        "Hook specifications",
        "What a plugin implements, with `@lacak.hookimpl` "
        "([plugins/hooks.md](../plugins/hooks.md) has one section per hook with an example).",
        ["lacak.plugin.hookspecs"],
    ),
    (
        "cli.md",
        "lacak.cli and the command kit",
        "The root command, the helpers plugin commands use, and the kit that builds "
        "`lacak KIND solve` from a puzzle kind ([../cli.md](../cli.md) is the generated "
        "command reference).",
        ["lacak.cli", "lacak.cli.kit", "lacak.cli.solve", "lacak.cli.batch"],
    ),
    (
        "testing.md",
        "lacak.testing",
        "Strategies, reference searches and contract suites for plugin authors "
        "([plugins/testing.md](../plugins/testing.md)).",
        ["lacak.testing", "lacak.testing.strategies"],
    ),
    (
        "core-modules.md",
        "Core modules",
        "Modules of the core that `lacak` re-exports as a whole.",
        [
            "lacak.options",
            "lacak.output",
            "lacak.progress",
            "lacak.batch",
            "lacak.batch.cluster",
            "lacak.store.cache",
            "lacak.words",
            "lacak.store.paths",
            "lacak.results",
            "lacak.run",
        ],
    ),
    (
        "mazes.md",
        "lacak_mazes",
        "The maze plugin's public API: a maze generator from another plugin builds a "
        "`Maze` (usually with `Maze.from_edges`) and returns it "
        "([plugins/tutorial.md](../plugins/tutorial.md#a-maze-generator)).",
        ["lacak_mazes.maze", "lacak_mazes.puzzle", "lacak_mazes.render"],
    ),
    (
        "sliding.md",
        "lacak_sliding",
        "The sliding-puzzle plugin's public API.",
        ["lacak_sliding.puzzle", "lacak_sliding.heuristics", "lacak_sliding.pictures"],
    ),
    (
        "boggle.md",
        "lacak_boggle",
        "The Boggle plugin's public API (`from lacak_boggle import Board, solve_board, ...`).",
        [
            "lacak_boggle.board",
            "lacak_boggle.solver",
            "lacak_boggle.results",
            "lacak_boggle.dice",
            "lacak_boggle.batch",
            "lacak_boggle.render",
        ],
    ),
]


def page(title: str, intro: str, modules: list[str]) -> str:
    """The Markdown of one reference page."""
    out = [f"# {title}", "", intro, ""]
    for module in modules:
        out += [f"::: {module}", ""]
    return "\n".join(out)


def main() -> None:
    import mkdocs_gen_files

    for name, title, intro, modules in PAGES:
        with mkdocs_gen_files.open(f"reference/{name}", "w") as out:
            out.write(page(title, intro, modules))


if __name__ in {"__main__", "<run_path>"}:  # mkdocs-gen-files runs it with runpy
    main()
