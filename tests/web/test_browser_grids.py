"""The maze page on every grid, in a real headless Chromium served by a real ``lacak serve``
(the fixtures of test_browser.py): hexagons and rings generated, solved and seen, their
carving and the solver animated, a mask uploaded (ASCII and PNG), braids."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import lacak
import pytest

from .test_browser import browser, page, ready, server, sync_api  # noqa: F401 (fixtures)

#: The path's red on the canvas (maze.js draws the solution in it).
RED = "[d[i], d[i + 1], d[i + 2]].join() === '210,40,60'"


def count_pixels(tab: Any, test: str) -> int:
    """How many pixels of the maze canvas pass ``test`` (JavaScript over ``d``, ``i``)."""
    return tab.evaluate(  # type: ignore[no-any-return]
        f"""() => {{
            const c = document.querySelector('#maze-canvas');
            const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            let n = 0;
            for (let i = 0; i < d.length; i += 4) if ({test}) n++;
            return n; }}"""
    )


def generate(tab: Any, grid: str, rows: int, cols: int, seed: int, algorithm: str) -> None:
    ready(tab, "#/maze")
    tab.select_option("select[name=algorithm]", algorithm)
    tab.select_option("select[name=grid]", grid)
    tab.fill("input[name=rows]", str(rows))
    if grid != "polar":
        tab.fill("input[name=cols]", str(cols))
    tab.fill("input[name=seed]", str(seed))
    tab.click("#generate")
    tab.wait_for_selector(f"#page[data-seed='{seed}']")
    tab.wait_for_selector(f"#maze-canvas[data-grid={grid}]")


@pytest.mark.parametrize(("grid", "size"), [("hex", (7, 9)), ("polar", (5, 5))])
def test_a_maze_on_a_grid_is_generated_solved_and_animated(
    page: Any,  # noqa: F811 (the fixture)
    grid: str,
    size: tuple[int, int],
) -> None:
    generate(page, grid, *size, seed=6, algorithm="wilson")
    maze = lacak.generate("maze", "wilson", size, seed=6, grid=grid)
    assert f"{maze.size} cells" in page.inner_text("[data-stat=size]")
    walls = count_pixels(page, "d[i] === 29 && d[i + 1] === 39 && d[i + 2] === 51")
    assert walls > 500  # the walls are drawn
    page.check("input[name=solution]")
    page.wait_for_selector("#page[data-solved=yes]")
    ends = page.inner_text("[data-stat='start → end']")
    start, end = ([int(x) for x in re.findall(r"\d+", part)] for part in ends.split("→"))
    ended = maze.with_endpoints()
    assert [start, end] == [list(maze.grid.ids[ended.start]), list(maze.grid.ids[ended.end])]
    steps = len(ended.solution) - 1
    assert page.inner_text("[data-stat='solution length']") == f"{steps} steps"
    assert count_pixels(page, RED) > 100  # the path is drawn
    # the carving: the maze's links in the order the generator made them, one a step
    page.click("#animate-carving")
    page.wait_for_selector("#maze-canvas[data-mode=carving]")
    page.click("#first")
    page.wait_for_selector("#maze-canvas[data-frame='0']")
    assert page.inner_text("#frame") == f"0 / {len(maze.links)}"
    dark = count_pixels(page, "d[i] === 59 && d[i + 1] === 63 && d[i + 2] === 70")
    assert dark > 1000  # nothing is carved yet: every cell dark
    for k in range(1, 4):
        page.click("#step")
        page.wait_for_selector(f"#maze-canvas[data-frame='{k}']")
    assert count_pixels(page, "d[i] === 59 && d[i + 1] === 63 && d[i + 2] === 70") < dark
    assert "own carving order" in page.inner_text("#animation-note")
    # the solver exploring, then the path
    page.click("#animate-solver")
    page.wait_for_selector("#maze-canvas[data-mode=solver]")
    page.click("#play")  # pause, then step by hand
    before = page.inner_text("#frame")
    page.click("#step")
    assert page.inner_text("#frame") != before
    assert "expansion order" in page.inner_text("#animation-note")


def test_a_click_on_a_hexagon_moves_the_start_there(page: Any) -> None:  # noqa: F811
    generate(page, "hex", 6, 8, seed=2, algorithm="recursive-backtracker")
    page.check("input[name=solution]")
    page.wait_for_selector("#page[data-solved=yes]")
    maze = lacak.generate("maze", "recursive-backtracker", (6, 8), seed=2, grid="hex")
    end = maze.with_endpoints().end
    target = next(c for c in range(maze.size) if c != end)
    x, y = maze.grid.centres[target]
    # the canvas: 6 pixels of margin, then cell units of the size maze.js chooses
    width, height = maze.grid.extent
    cell = max(4, min(32, int(min(880 / width, 620 / height))))
    page.locator("#maze-canvas").click(position={"x": 6 + x * cell, "y": 6 + y * cell})
    page.wait_for_selector("#page[data-solved=yes]")
    sync_api.expect(page.locator("[data-stat='start → end']")).to_contain_text("(chosen)")
    ends = page.inner_text("[data-stat='start → end']")
    start = [int(v) for v in re.findall(r"\d+", ends.split("→")[0])]
    assert start == list(maze.grid.ids[target])
    path = maze.path(target, end)
    assert page.inner_text("[data-stat='solution length']") == f"{len(path) - 1} steps"


def test_an_ascii_mask_shapes_the_maze_and_makes_it_again(
    page: Any,  # noqa: F811
    tmp_path: Path,
) -> None:
    mask = tmp_path / "mask.txt"
    mask.write_text("X.....X\n.......\n...X...\n.......\nX.....X\n", encoding="utf-8")
    ready(page, "#/maze")
    page.select_option("select[name=algorithm]", "kruskal")
    page.select_option("select[name=grid]", "triangle")
    page.set_input_files("#mask-file", str(mask))
    sync_api.expect(page.locator("#mask-note")).to_contain_text("5 × 7, 30 cells")
    page.fill("input[name=seed]", "3")
    page.click("#generate")
    page.wait_for_selector("#maze-canvas[data-grid=triangle]")
    maze = lacak.generate("maze", "kruskal", None, seed=3, grid="triangle",
                          mask="X.....X/......./...X.../......./X.....X")  # fmt: skip
    assert maze.size == 30
    sync_api.expect(page.locator("[data-stat=size]")).to_contain_text("(masked), 30 cells")
    with page.expect_download() as got:
        page.click("#download-json")
    saved = tmp_path / "maze.json"
    got.value.save_as(saved)
    assert saved.read_text() == maze.to_json()
    assert got.value.suggested_filename.startswith("maze-kruskal-5x7-3-grid=triangle")


def test_a_png_mask_is_read_in_the_page_as_the_command_line_reads_it(
    page: Any,  # noqa: F811
    tmp_path: Path,
) -> None:
    from lacak_mazes.grids.masks import mask_from_png
    from PIL import Image, ImageDraw

    image = Image.new("L", (12, 9), 255)
    ImageDraw.Draw(image).rectangle((4, 3, 7, 5), fill=0)  # a dark hole in the middle
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    path = tmp_path / "hole.png"
    path.write_bytes(buffer.getvalue())
    rows = mask_from_png(buffer.getvalue())
    ready(page, "#/maze")
    page.select_option("select[name=algorithm]", "wilson")
    page.select_option("select[name=grid]", "upsilon")
    page.set_input_files("#mask-file", str(path))
    on = sum(row.count(".") for row in rows)
    sync_api.expect(page.locator("#mask-note")).to_contain_text(f"9 × 12, {on} cells")
    page.fill("input[name=seed]", "1")
    page.click("#generate")
    page.wait_for_selector("#maze-canvas[data-grid=upsilon]")
    sync_api.expect(page.locator("[data-stat=size]")).to_contain_text(f"{on} cells")
    # a polar grid takes no mask: the page says it is not used
    page.select_option("select[name=grid]", "polar")
    sync_api.expect(page.locator("#mask-note")).to_contain_text("not used")


def test_a_bad_mask_is_refused_by_the_mask_input(
    page: Any,  # noqa: F811
    tmp_path: Path,
) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("..?..\n.....\n", encoding="utf-8")
    ready(page, "#/maze")
    page.set_input_files("#mask-file", str(bad))
    error = page.locator(".field-error")
    sync_api.expect(error).to_contain_text("line 1 of the mask has '?'")
    sync_api.expect(page.locator("#mask-note")).to_contain_text("no mask")


def test_braids_make_loops_on_a_torus(page: Any) -> None:  # noqa: F811
    ready(page, "#/maze")
    page.select_option("select[name=algorithm]", "recursive-backtracker")
    page.select_option("select[name=grid]", "torus")
    page.fill("input[name=rows]", "6")
    page.fill("input[name=cols]", "8")
    page.fill("input[name=seed]", "5")
    page.evaluate("""() => { const b = document.querySelector('#braid'); b.value = '1';
        b.dispatchEvent(new Event('input')); }""")
    assert page.inner_text("#braid-value") == "1"
    page.click("#generate")
    page.wait_for_selector("#maze-canvas[data-grid=torus]")
    maze = lacak.generate("maze", "recursive-backtracker", (6, 8), seed=5, grid="torus", braid=1.0)
    loops = maze.stats()["loops"]
    assert loops > 0
    sync_api.expect(page.locator("[data-stat=loops]")).to_have_text(str(loops))
    sync_api.expect(page.locator("[data-stat=generator]")).to_contain_text("braid=1")
    page.check("input[name=solution]")
    page.wait_for_selector("#page[data-solved=yes]")
    assert count_pixels(page, RED) > 50


def test_a_row_by_row_generator_says_in_one_line_it_needs_the_rectangle(
    page: Any,  # noqa: F811
) -> None:
    ready(page, "#/maze")
    page.select_option("select[name=algorithm]", "eller")
    page.select_option("select[name=grid]", "hex")
    page.click("#generate")
    sync_api.expect(page.locator(".result-error")).to_contain_text("eller works row by row")


def test_weights_shade_the_cells_and_the_cheapest_way_is_found(page: Any) -> None:  # noqa: F811
    ready(page, "#/maze")
    page.select_option("select[name=algorithm]", "wilson")
    page.select_option("select[name=grid]", "hex")
    page.fill("input[name=weights]", "1-9")
    page.fill("input[name=rows]", "6")
    page.fill("input[name=cols]", "8")
    page.fill("input[name=seed]", "7")
    page.click("#generate")
    page.wait_for_selector("#maze-canvas[data-grid=hex]")
    # cells shaded by their weight: greys lighter than the walls, bluish as lacak draws them
    shaded = count_pixels(page, "d[i] === d[i + 1] && d[i + 2] === Math.min(255, d[i] + 10) "
                                "&& d[i] >= 110 && d[i] <= 245")  # fmt: skip
    assert shaded > 2000
    page.check("input[name=solution]")
    page.wait_for_selector("#page[data-solved=yes]")
    assert "uniform-cost" in page.inner_text("[data-stat=solver]")


def test_a_woven_maze_is_drawn_with_its_bridges_and_solved(page: Any) -> None:  # noqa: F811
    ready(page, "#/maze")
    page.select_option("select[name=algorithm]", "kruskal")
    page.fill("input[name=weave]", "0.8")
    page.fill("input[name=rows]", "8")
    page.fill("input[name=cols]", "10")
    page.fill("input[name=seed]", "1")
    page.click("#generate")
    page.wait_for_selector("#maze-canvas[data-grid=rect]")
    maze = lacak.generate("maze", "kruskal", (8, 10), seed=1, weave=0.8).with_endpoints()
    assert len(maze.tunnels) > 0
    sync_api.expect(page.locator("[data-stat=crossings]")).to_have_text(str(len(maze.tunnels)))
    page.check("input[name=solution]")
    page.wait_for_selector("#page[data-solved=yes]")
    steps = len(maze.solution) - 1
    assert page.inner_text("[data-stat='solution length']") == f"{steps} steps"


#: The maze's own solvers and the generic searches the page animates on every grid.
SOLVERS = ["tree-path", "dead-end-fill", "cul-de-sac-fill", "wall-follower", "tremaux",
           "pledge", "random-mouse", "bfs", "astar", "uniform-cost"]  # fmt: skip


def test_every_solver_is_animated_on_triangles(page: Any) -> None:  # noqa: F811
    generate(page, "triangle", 5, 9, seed=8, algorithm="prim")
    maze = lacak.generate("maze", "prim", (5, 9), seed=8, grid="triangle").with_endpoints()
    offered = page.eval_on_selector_all("select[name=solver] option", "os => os.map(o => o.value)")
    shown = 0
    for name in SOLVERS:
        if name not in offered:
            continue
        page.select_option("select[name=solver]", name)
        page.click("#animate-solver")
        page.wait_for_selector("#maze-canvas[data-mode=solver]")
        page.click("#play")  # pause
        sync_api.expect(page.locator("#animation-note")).to_contain_text(name)
        frames = int(page.inner_text("#frame").split("/")[1])
        assert frames >= len(maze.solution), name  # the cells it went through, then the path
        assert page.inner_text("[data-stat='solution length']") == f"{len(maze.solution) - 1} steps"
        page.click("button[title='back to the maze']")
        shown += 1
    assert shown >= 7


def test_a_weighted_rectangle_is_shaded_too(page: Any) -> None:  # noqa: F811
    ready(page, "#/maze")
    page.select_option("select[name=algorithm]", "kruskal")
    page.fill("input[name=weights]", "1-9")
    page.fill("input[name=rows]", "6")
    page.fill("input[name=cols]", "8")
    page.fill("input[name=seed]", "2")
    page.click("#generate")
    page.wait_for_selector("#page[data-seed='2']")
    shaded = count_pixels(page, "d[i] === d[i + 1] && d[i + 2] === Math.min(255, d[i] + 10) "
                                "&& d[i] >= 110 && d[i] <= 245")  # fmt: skip
    assert shaded > 2000
