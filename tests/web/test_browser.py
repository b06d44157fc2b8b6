"""The pages in a real headless Chromium (Debian's ``chromium``, driven by Playwright), served
by a real ``lacak serve`` with its worker processes.

Each test saves a screenshot under ``artifacts/web/`` (or ``$LACAK_TEST_ARTIFACTS``); no
page may fetch anything from anywhere but the server.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import lacak
import pytest

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("LACAK_TEST_ARTIFACTS", ROOT / "artifacts" / "web"))
CHROMIUM = os.environ.get("LACAK_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason=f"no chromium at {CHROMIUM} (.ci/run installs Debian's: apt-get install chromium)",
)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """``lacak serve --port 0``: its address, once it answers."""
    process = subprocess.Popen(
        [sys.executable, "-m", "lacak", "serve", "--port", "0", "--workers", "2"],
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "LACAK_PROGRESS": "0"},
    )
    try:
        assert process.stderr is not None
        line = process.stderr.readline()
        match = re.search(r"(http://\S+/) ", line)
        assert match, f"lacak serve said {line!r}"
        yield match.group(1)
    finally:
        process.terminate()
        process.wait(timeout=20)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any, server: str, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A page that may load only from the server; a screenshot of it is kept."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=server)
    tab = context.new_page()
    elsewhere: list[str] = []
    errors: list[str] = []

    def route(handle: Any) -> None:
        url = handle.request.url
        if url.startswith(server) or url.startswith(("data:", "blob:")):
            handle.continue_()
        else:
            elsewhere.append(url)
            handle.abort()

    tab.route("**/*", route)
    tab.on("pageerror", lambda error: errors.append(str(error)))
    yield tab
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
    context.close()
    assert not elsewhere, f"the page fetched from elsewhere: {elsewhere}"
    assert not errors, f"JavaScript errors: {errors}"


def ready(tab: Any, hash_: str) -> None:
    tab.goto("/" + hash_)
    tab.wait_for_selector("#page[data-ready=yes]", timeout=30_000)


def test_a_generated_maze_shows_its_solution(page: Any) -> None:
    ready(page, "#/maze")
    page.select_option("select[name=algorithm]", "recursive-backtracker")
    page.fill("input[name=rows]", "9")
    page.fill("input[name=cols]", "14")
    page.fill("input[name=seed]", "4")
    page.click("#generate")
    page.wait_for_selector("#page[data-seed='4']")
    page.check("input[name=solution]")
    page.wait_for_selector("#page[data-solved=yes]")
    ends = page.inner_text("[data-stat='start → end']")
    start, end = ([int(x) for x in re.findall(r"\d+", part)] for part in ends.split("→"))
    maze = lacak.generate("maze", "recursive-backtracker", (9, 14), seed=4)
    steps = len(maze.path(tuple(start), tuple(end))) - 1
    assert page.inner_text("[data-stat='solution length']") == f"{steps} steps"
    # the path is drawn: the canvas has pixels of the path's red
    red = page.evaluate("""() => {
        const c = document.querySelector('#maze-canvas');
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        for (let i = 0; i < d.length; i += 4) if (d[i] === 210 && d[i + 1] === 40 && d[i + 2] === 60) n++;
        return n; }""")
    assert red > 100
    page.click("#animate-solver")
    page.click("#play")  # pause, then step by hand
    before = page.inner_text("#frame")
    page.click("#step")
    assert page.inner_text("#frame") != before
    assert "expansion order" in page.inner_text("#animation-note")


def test_a_boggle_board_is_solved_and_a_word_clicked_shows_its_path(page: Any) -> None:
    ready(page, "#/boggle")
    assert page.locator("#words tbody tr").count() > 100  # the example board, dictionary ind
    board = "AHORJ/QQUOI/SSCPD/MUPSM/AUULI"
    puzzle = lacak.parse("boggle", board, dictionary="ind", min_length=2)
    words = {w["word"]: w["path"] for w in lacak.result_json(lacak.solve(puzzle), puzzle)["boggle"]["words"]}
    page.fill("input[name=filter]", "SIMPIR")
    page.click("#words tbody tr[data-word=SIMPIR]")
    on = page.eval_on_selector_all(
        ".tile.on", "nodes => nodes.map(n => [Number(n.dataset.r), Number(n.dataset.c), "
        "Number(n.dataset.step)])")
    assert sorted(on, key=lambda t: t[2]) == [[r, c, i + 1] for i, (r, c) in
                                               enumerate(words["SIMPIR"])]  # fmt: skip
    assert page.locator(".board-overlay polyline.word").count() == 1
    # drag across the tiles of a word, as in the real game
    path = words["SIMPIR"]
    centre = [page.locator(f".tile[data-r='{r}'][data-c='{c}']").bounding_box() for r, c in path]
    middle = [(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2) for box in centre]
    page.mouse.move(*middle[0])
    page.mouse.down()
    for x, y in middle[1:]:
        page.mouse.move(x, y, steps=6)
    page.mouse.up()
    assert page.inner_text("#verdict").startswith("✓ SIMPIR")


def test_a_sliding_solution_is_stepped_through(page: Any) -> None:
    ready(page, "#/sliding")
    page.fill("textarea[name=board]", "1 2 3 / 4 0 6 / 7 5 8")
    page.fill("input[name=goal]", "")
    page.fill("input[name=max_depth]", "")
    page.select_option("select[name=strategy]", "")
    puzzle = lacak.parse("sliding", "1 2 3 / 4 0 6 / 7 5 8")
    states = lacak.result_json(lacak.solve(puzzle), puzzle)["states"]
    page.click("#solve")
    page.wait_for_selector(f"#slide-board[data-state='{states[0]}']")
    sync_api.expect(page.locator("#step")).to_have_text("move 0 of 2")
    assert page.get_attribute("#slide-board", "data-state") == states[0]
    page.click("#next")
    assert page.get_attribute("#slide-board", "data-state") == states[1]
    page.click("#next")
    assert page.get_attribute("#slide-board", "data-state") == states[2]
    assert re.sub(r"\D", "", states[2]) == "123456780"
    assert page.inner_text("#step").startswith("move 2 of 2")
    page.click("#back")
    assert page.inner_text("#step").startswith("move 1 of 2")


def test_the_course_notes_search_tree_is_drawn(page: Any) -> None:
    ready(page, "#/sliding")  # the notes' example: 123450786 to 103425786, bfs, depth 2
    page.wait_for_selector("svg.tree")
    assert page.locator("svg.tree g.node").count() == 9
    assert page.locator("svg.tree g.node.expanded").count() == 8
    assert page.locator("svg.tree g.node.goal").count() == 1
    labels = page.eval_on_selector_all("svg.tree text.numbers", "ns => ns.map(n => n.textContent)")
    assert {f"#{i}" for i in range(1, 9)} <= {label.split()[0] for label in labels}
    # two strategies side by side
    page.check("input[name=compare]")
    page.select_option("select[name=strategy-b]", "dfs")
    page.click("#solve")
    sync_api.expect(page.locator("table.stats tbody tr")).to_have_count(2)
    rows = page.eval_on_selector_all("table.stats tbody tr td:first-child", "ns => ns.map(n => n.textContent)")
    assert rows == ["bfs", "dfs"]
    assert page.locator("svg.tree").count() == 2


def test_a_third_party_kind_has_a_page_of_its_own(page: Any) -> None:
    """The example plugin's jugs ship their page (lacak_jugs/page/, a lacak.Page): the
    jugs drawn as bars to scale, a solution stepped through, its stylesheet in force."""
    ready(page, "#/")
    link = page.locator("nav a[data-kind=jugs]")
    assert link.get_attribute("href") == "#/jugs" and link.inner_text() == "Jugs"
    link.click()
    page.wait_for_selector("#page[data-solved=yes]")
    assert page.get_attribute("#page", "class") == "page jugs"
    puzzle = lacak.parse("jugs", "3,5:4")
    states = lacak.result_json(lacak.solve(puzzle), puzzle)["states"]
    bars = "ns => ns.map(n => [n.dataset.jug, Number(n.dataset.amount), Number(n.dataset.capacity)])"
    heights = "ns => ns.map(n => n.clientHeight)"  # inside the walls
    assert page.get_attribute("#jugs", "data-state") == states[0]
    assert page.eval_on_selector_all("#jugs .jug", bars) == [["A", 0, 3], ["B", 0, 5]]
    small, large = page.eval_on_selector_all("#jugs .jug", heights)
    assert large / small == pytest.approx(5 / 3, rel=0.05)  # drawn to scale
    sync_api.expect(page.locator("#step")).to_have_text(f"move 0 of {len(states) - 1}")
    for k in range(1, len(states)):
        page.click("#next")
        assert page.get_attribute("#jugs", "data-state") == states[k]
        contents = [int(x) for x in states[k].split(",")]
        assert [b[1] for b in page.eval_on_selector_all("#jugs .jug", bars)] == contents
    assert page.inner_text("#step").endswith("the target is measured")
    # 4 litres in the jug of 5 (the height the water rises to, not where its rise is now)
    water = page.eval_on_selector_all("#jugs .water", "ns => ns.map(n => parseFloat(n.style.height))")
    assert water[1] == pytest.approx(large * 4 / 5, abs=1)
    page.click("#back")
    assert page.get_attribute("#jugs", "data-state") == states[-2]
    page.click("#moves li[data-step='1']")
    assert page.get_attribute("#jugs", "data-state") == states[1]
    # the page's own stylesheet is in force while it is shown, and only then
    colour = page.eval_on_selector("#jugs .water", "n => getComputedStyle(n).backgroundColor")
    assert colour == "rgb(61, 139, 212)"
    styles = "ns => ns.map(n => n.getAttribute('href'))"
    assert page.eval_on_selector_all("link[data-page-style]", styles) == ["/pages/jugs/jugs.css"]


def test_the_generic_page_of_any_kind_is_there_too(page: Any) -> None:
    ready(page, "#/jugs")
    styles = "ns => ns.map(n => n.getAttribute('href'))"
    assert page.eval_on_selector_all("link[data-page-style]", styles) == ["/pages/jugs/jugs.css"]
    page.click("nav a.brand")
    page.wait_for_selector("#page .home")
    page.click("a[href='#/kind/jugs']")
    page.wait_for_selector("#page[data-solved=yes]")
    assert page.eval_on_selector_all("link[data-page-style]", styles) == []  # left with its page
    assert page.get_attribute("#page", "class") == "page generic"
    assert "<- goal" in page.inner_text("#picture")
    assert page.locator("svg.tree g.node.goal").count() == 1


def test_the_api_docs_are_served_from_here(page: Any) -> None:
    page.goto("/api/docs")
    sync_api.expect(page.get_by_text("/api/kinds/{kind}/solve").first).to_be_visible(timeout=30_000)


#: The colour of the page's walls (#1d2733).
WALL = [29, 39, 51]


def wall_pixel(page: Any, height: int, width: int, step: list[Any]) -> list[int]:
    """The colour at the middle of the wall a carving step names, on the maze canvas."""
    cell = max(4, min(32, min(880 // width, 620 // height)))
    r, c, side = step
    if side in "NW":  # the same wall, seen from the neighbour
        r, c, side = (r - 1, c, "S") if side == "N" else (r, c - 1, "E")
    x, y = (6 + (c + 1) * cell, 6 + r * cell + cell // 2) if side == "E" else (
        6 + c * cell + cell // 2, 6 + (r + 1) * cell)
    return page.evaluate(  # type: ignore[no-any-return]
        f"() => Array.from(document.querySelector('#maze-canvas').getContext('2d')"
        f".getImageData({x}, {y}, 1, 1).data.slice(0, 3))"
    )


@pytest.mark.parametrize("algorithm", ["prim", "recursive-division"])
def test_the_carving_animation_is_the_generator_s_own_order(page: Any, algorithm: str) -> None:
    ready(page, "#/maze")
    page.select_option("select[name=algorithm]", algorithm)
    page.fill("input[name=rows]", "8")
    page.fill("input[name=cols]", "10")
    page.fill("input[name=seed]", "3")
    page.click("#generate")
    page.wait_for_selector("#page[data-seed='3']")
    steps = lacak.generate("maze", algorithm, (8, 10), seed=3, carving=True).carving.to_dict()[
        "steps"
    ]
    walls = algorithm == "recursive-division"
    page.click("#animate-carving")
    page.wait_for_selector("#maze-canvas[data-mode=carving]")
    page.click("#first")
    page.wait_for_selector("#maze-canvas[data-frame='0']")
    for k in range(6):
        # after k steps: the first k steps' walls are open (up, for division), the next ones not yet
        for j, step in enumerate(steps[: k + 3]):
            is_wall = wall_pixel(page, 8, 10, step) == WALL
            assert is_wall == (walls == (j < k)), (k, j, step)
        page.click("#step")
        page.wait_for_selector(f"#maze-canvas[data-frame='{k + 1}']")
    assert "own" in page.inner_text("#animation-note")
    assert "not the generator's own order" not in page.inner_text("#animation-note")


def test_downloads_are_lacak_s_own_files(page: Any, tmp_path: Path) -> None:
    ready(page, "#/maze")
    page.select_option("select[name=algorithm]", "kruskal")
    page.fill("input[name=rows]", "5")
    page.fill("input[name=cols]", "7")
    page.fill("input[name=seed]", "2")
    page.click("#generate")
    page.wait_for_selector("#page[data-seed='2']")
    maze = lacak.generate("maze", "kruskal", (5, 7), seed=2).with_endpoints(solution=False)
    for fmt in ("svg", "png", "json"):
        with page.expect_download() as got:
            page.click(f"#download-{fmt}")
        saved = tmp_path / f"maze.{fmt}"
        got.value.save_as(saved)
        expected = maze.to_json().encode() if fmt == "json" else maze.render(fmt)
        assert saved.read_bytes() == (expected if isinstance(expected, bytes) else expected.encode())


SERPENTINE = '''
import lacak
import numpy as np
from lacak_mazes import Maze


def serpentine(size, seed=None):
    rows, cols = size
    south = np.zeros((rows, cols), dtype=bool)
    for r in range(rows - 1):
        south[r, cols - 1 if r % 2 == 0 else 0] = True
    return Maze.from_edges(np.ones((rows, cols), dtype=bool), south, seed=seed)


@lacak.hookimpl
def register_generators(register):
    register(lacak.Generator(kind="maze", name="serpentine", make=serpentine))
'''

#: A third-party kind without a page of its own: counting up to N by ones and twos.
TALLY = '''
import attrs
import lacak


@attrs.frozen
class Tally:
    target: int
    kind = "tally"
    initial = 0

    def is_goal(self, state):
        return state == self.target

    def successors(self, state):
        for step in (1, 2):
            if state + step <= self.target:
                yield f"+{step}", state + step, 1.0


@lacak.hookimpl
def register_puzzles(register):
    register(lacak.PuzzleType(kind="tally", parse=lambda text: Tally(int(text)), example="5",
                              description="count up to N by ones and twos"))
'''


#: Third-party kinds whose pages are broken: a script without a default export, a
#: script that is not in the folder, a stylesheet that is not there.
BROKEN = '''
import attrs
import lacak


@attrs.frozen
class One:
    """One move from 0 to 1."""

    kind: str
    initial = 0

    def is_goal(self, state):
        return state == 1

    def successors(self, state):
        if state == 0:
            yield "+1", 1, 1.0


def _kind(kind, **page):
    return lacak.PuzzleType(kind=kind, parse=lambda text: One(kind), example="x",
                            page=lacak.Page(package="lacak_broken_test", **page))


@lacak.hookimpl
def register_puzzles(register):
    register(_kind("nodefault", script="nodefault.js"))
    register(_kind("noscript", script="missing.js"))
    register(_kind("nostyle", script="nodefault.js", styles=("missing.css",)))
'''


@pytest.fixture(scope="module")
def third_party_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``lacak serve`` with a third-party maze generator that reports no carving order, a
    third-party kind without a page and kinds whose pages are broken (modules and their
    entry points, on ``PYTHONPATH``)."""
    folder = tmp_path_factory.mktemp("plugin")
    (folder / "lacak_serpentine_test.py").write_text(SERPENTINE)
    (folder / "lacak_tally_test.py").write_text(TALLY)
    (folder / "lacak_broken_test" / "page").mkdir(parents=True)
    (folder / "lacak_broken_test" / "__init__.py").write_text(BROKEN)
    (folder / "lacak_broken_test" / "page" / "nodefault.js").write_text("export const x = 1;\n")
    info = folder / "lacak_serpentine_test-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: lacak-serpentine-test\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[lacak]\nserpentine = lacak_serpentine_test\ntally = lacak_tally_test\n"
        "broken = lacak_broken_test\n"
    )
    path = os.pathsep.join([str(folder), os.environ.get("PYTHONPATH", "")])
    process = subprocess.Popen(
        [sys.executable, "-m", "lacak", "serve", "--port", "0", "--workers", "1"],
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "LACAK_PROGRESS": "0", "PYTHONPATH": path},
    )
    try:
        assert process.stderr is not None
        line = process.stderr.readline()
        match = re.search(r"(http://\S+/) ", line)
        assert match, f"lacak serve said {line!r}"
        yield match.group(1)
    finally:
        process.terminate()
        process.wait(timeout=20)


def test_a_generator_without_a_carving_order_is_revealed_and_says_so(
    browser: Any, third_party_server: str
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900},
                                  base_url=third_party_server)  # fmt: skip
    tab = context.new_page()
    try:
        ready(tab, "#/maze")
        tab.select_option("select[name=algorithm]", "serpentine")
        tab.fill("input[name=seed]", "1")
        tab.click("#generate")
        tab.wait_for_selector("#page[data-seed='1']")
        tab.click("#animate-carving")
        tab.wait_for_selector("#maze-canvas[data-mode=reveal]")
        note = tab.inner_text("#animation-note")
        assert note.startswith("serpentine does not report the order it carves in")
        assert "not the generator's own order" in note
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        tab.screenshot(path=str(ARTIFACTS / "test_carving_reveal_third_party.png"), full_page=True)
    finally:
        context.close()


def test_a_kind_without_a_page_keeps_the_generic_page(browser: Any, third_party_server: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900},
                                  base_url=third_party_server)  # fmt: skip
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    try:
        ready(tab, "#/")
        link = tab.locator("nav a[data-kind=tally]")
        assert link.get_attribute("href") == "#/kind/tally" and link.inner_text() == "tally"
        link.click()
        tab.wait_for_selector("#page[data-solved=yes]")
        assert tab.get_attribute("#page", "class") == "page generic"
        assert tab.locator("ol.path li").count() == 4  # three moves: 0, 1 or 2, 3 or 4, 5
        other = context.new_page()
        other.on("pageerror", lambda error: errors.append(str(error)))
        ready(other, "#/tally")  # its own address shows the generic page too
        other.wait_for_selector("#page[data-solved=yes]")
        assert other.get_attribute("#page", "class") == "page generic"
        assert not errors, errors
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        tab.screenshot(path=str(ARTIFACTS / "test_generic_page_third_party.png"), full_page=True)
    finally:
        context.close()


@pytest.mark.parametrize(
    ("kind", "message"),
    [
        ("nodefault", "the page's script /pages/nodefault/nodefault.js has no default export"),
        ("noscript", "the page's script /pages/noscript/missing.js did not load"),
        ("nostyle", "the page's stylesheet /pages/nostyle/missing.css did not load"),
    ],
)
def test_a_broken_page_is_one_error_and_the_generic_page_is_still_there(
    browser: Any, third_party_server: str, kind: str, message: str
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900},
                                  base_url=third_party_server)  # fmt: skip
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    try:
        ready(tab, f"#/{kind}")
        alert = tab.locator("#page .error[role=alert]")
        assert alert.count() == 1 and alert.inner_text().startswith(message)
        generic = context.new_page()
        generic.on("pageerror", lambda error: errors.append(str(error)))
        ready(generic, f"#/kind/{kind}")
        generic.wait_for_selector("#page[data-solved=yes]")
        assert generic.get_attribute("#page", "class") == "page generic"
        assert generic.locator("#page .error").count() == 0
        assert generic.locator("ol.path li").count() == 2
        assert not errors, errors  # shown on the page, not thrown
    finally:
        context.close()


def test_a_maze_s_options_are_in_its_stats_and_its_download_names(page: Any, tmp_path: Path) -> None:
    """Issue 25, item 4: the options a maze was made with are shown with its seed and
    named in the files it is saved as, and the saved JSON makes it again."""
    ready(page, "#/maze")
    page.select_option("select[name=algorithm]", "hunt-and-kill")
    page.select_option("select[name=hunt]", "columns")
    page.fill("input[name=rows]", "5")
    page.fill("input[name=cols]", "7")
    page.fill("input[name=seed]", "4")
    page.click("#generate")
    page.wait_for_selector("#page[data-seed='4']")
    sync_api.expect(page.locator("#maze-stats")).to_contain_text("(seed 4, hunt=columns)")
    with page.expect_download() as got:
        page.click("#download-json")
    assert got.value.suggested_filename == "maze-hunt-and-kill-5x7-4-hunt=columns.json"
    saved = tmp_path / "maze.json"
    got.value.save_as(saved)
    from lacak_mazes.maze import Maze
    from lacak_mazes.remake import remake

    maze = Maze.from_json(saved.read_text())
    assert dict(maze.options) == {"hunt": "columns"}
    assert remake(maze).to_json() == saved.read_text()
