"""The pages in a real headless Chromium (Debian's ``chromium``, driven by Playwright), served
by a real ``lacak serve`` with its worker processes.

Each test saves a screenshot under ``artifacts/web/`` (or ``$LACAK_TEST_ARTIFACTS``); no
page may fetch anything from anywhere but the server.
"""

from __future__ import annotations

import json
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


def test_the_course_notes_best_first_search_is_played_step_by_step(page: Any) -> None:
    """The notes' best-first example (H1 + H2, depth 2, no step straight back), played: the
    tree grows node by node beside antrian1 and antrian2, forward, back, and played."""
    ready(page, "#/sliding")
    page.select_option("select[name=strategy]", "best-first")
    page.select_option("select[name=heuristic]", "weighted")
    page.check("input[name=steps]")
    page.click("#solve")
    page.wait_for_selector("#step-player")
    player = page.locator("#step-player")
    sync_api.expect(page.locator("#step-position")).to_have_text("step 0 of 3")
    assert player.locator("svg.tree g.node").count() == 1  # the start alone
    assert "antrian1 (to examine): A" in page.inner_text("#open-list")
    page.click("#step-next")
    sync_api.expect(page.locator("#step-position")).to_have_text("step 1 of 3")
    assert player.locator("svg.tree g.node").count() == 4  # A and its children B, C, D
    assert page.inner_text("#open-list").startswith("antrian1 (to examine): B C D")
    assert page.inner_text("#closed-list") == "antrian2 (examined): A"
    assert "P = A 123450786 (g=0, h=4)" in page.inner_text("#step-node")
    page.click("#step-next")
    assert player.locator("svg.tree g.node").count() == 7
    assert page.inner_text("#open-list").startswith("antrian1 (to examine): E F G C D")
    assert page.get_attribute("svg.tree g.node.current", "data-id") is not None
    page.click("#step-back")
    sync_api.expect(page.locator("#step-position")).to_have_text("step 1 of 3")
    page.fill("input[name=speed]", "10")
    page.click("#step-play")
    sync_api.expect(page.locator("#step-position")).to_have_text("step 3 of 3", timeout=10_000)
    assert "= goal" in page.inner_text("#step-node")
    assert player.locator("svg.tree g.node.goal").count() == 1
    assert page.inner_text("#step-play") == "▶ play"


def test_the_generic_page_plays_any_search_step_by_step(page: Any) -> None:
    ready(page, "#/kind/jugs")
    page.check("input[name=steps]")
    page.click("#solve")
    page.wait_for_selector("#step-player")
    total = int(page.inner_text("#step-position").split()[-1])
    assert total >= 2
    page.click("#step-next")
    assert "open (queue, front first)" in page.inner_text("#open-list") or "antrian1" in (
        page.inner_text("#open-list")
    )
    page.click("#step-player button[title='the last step']")
    sync_api.expect(page.locator("#step-position")).to_have_text(f"step {total} of {total}")
    assert "= goal" in page.inner_text("#step-node")


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
    plain = lacak.generate("maze", "kruskal", (5, 7), seed=2)
    # as `lacak maze generate` writes them: the maze alone, then with --endpoints
    for maze, ends in ((plain, False), (plain.with_endpoints(solution=False), True)):
        if ends:
            page.check("input[name=ends]")
        for fmt in ("svg", "png", "json"):
            with page.expect_download() as got:
                page.click(f"#download-{fmt}")
            saved = tmp_path / f"maze.{fmt}"
            got.value.save_as(saved)
            expected = maze.to_json().encode() if fmt == "json" else maze.render(fmt)
            assert saved.read_bytes() == (
                expected if isinstance(expected, bytes) else expected.encode()
            ), (fmt, ends)


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


#: A third-party plugin with a bug in each of its components: a strategy for any kind, a
#: maze generator and a dictionary, each raising what no lacak code expects.
FAILING = '''
import lacak


class Bug(Exception):
    pass


def explode(*args, **kwargs):
    raise Bug("the plugin's own bug")


@lacak.hookimpl
def register_searchers(register):
    register(lacak.Searcher(name="explode", search=explode, description="a bug"))


@lacak.hookimpl
def register_generators(register):
    register(lacak.Generator(kind="maze", name="explode", make=explode, description="a bug"))


@lacak.hookimpl
def register_dictionaries(register):
    register(lacak.DictionarySource(name="explode", load=explode, language="en"))
'''


@pytest.fixture(scope="module")
def third_party_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``lacak serve`` with a third-party maze generator that reports no carving order, a
    third-party kind without a page, kinds whose pages are broken and a plugin whose
    components fail (modules and their entry points, on ``PYTHONPATH``)."""
    folder = tmp_path_factory.mktemp("plugin")
    (folder / "lacak_serpentine_test.py").write_text(SERPENTINE)
    (folder / "lacak_tally_test.py").write_text(TALLY)
    (folder / "lacak_failing_test.py").write_text(FAILING)
    (folder / "lacak_broken_test" / "page").mkdir(parents=True)
    (folder / "lacak_broken_test" / "__init__.py").write_text(BROKEN)
    (folder / "lacak_broken_test" / "page" / "nodefault.js").write_text("export const x = 1;\n")
    info = folder / "lacak_serpentine_test-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: lacak-serpentine-test\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[lacak]\nserpentine = lacak_serpentine_test\ntally = lacak_tally_test\n"
        "broken = lacak_broken_test\nfailing = lacak_failing_test\n"
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


# -- issue 25, item 3: an error shows where the eye is --------------------------------------

#: The height of the pages' window in these tests (the ``page`` fixture's viewport).
FOLD = 900


def error_by(tab: Any, control: str) -> str | None:
    """The error shown next to ``control`` (a selector): the message right after the
    control, its field or the row of fields it is in, tied to it by ``aria-describedby``.
    Its text, or None."""
    return tab.evaluate(  # type: ignore[no-any-return]
        """(selector) => {
            const control = document.querySelector(selector);
            const described = (control.getAttribute('aria-describedby') || '').split(' ');
            for (let at = control; at && (at === control || at.matches('.field, .check, .row'));
                 at = at.parentElement) {
                const next = at.nextElementSibling;
                if (next && next.matches('.error.field-error')) {
                    return described.includes(next.id) ? next.textContent : 'not tied to the control';
                }
            }
            return null;
        }""",
        control,
    )


def in_sight(tab: Any, locator: Any) -> bool:
    """Whether the element is inside the window as the page is scrolled."""
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= FOLD


def check_error_shown(tab: Any, control: str, message: str, *, previous: bool = True) -> None:
    """The error is by ``control`` and at the top of the result area, announced, both in
    sight; the result still shown (``previous``) is dimmed and labelled as the previous one."""
    sync_api.expect(tab.locator("section.view > .result-error")).to_have_count(1)
    top = tab.locator("section.view > :first-child")
    assert top.get_attribute("class") == "result-error"
    assert message in top.locator(".error[role=alert]").inner_text()
    by = error_by(tab, control)
    assert by is not None and message in by, by
    ids = (tab.get_attribute(control, "aria-describedby") or "").split()
    assert in_sight(tab, tab.locator(f"#{ids[-1]}"))
    assert in_sight(tab, top.locator("[role=alert]"))
    view = tab.locator("section.view")
    assert ("stale" in (view.get_attribute("class") or "").split()) == previous
    assert tab.locator(".previous-label").count() == (1 if previous else 0)
    if previous:
        assert "previous result" in tab.inner_text(".previous-label")
        dimmed = tab.eval_on_selector(
            "section.view > :not(.result-error)", "n => Number(getComputedStyle(n).opacity)"
        )
        assert dimmed < 1


def check_error_gone(tab: Any) -> None:
    assert tab.locator(".error").count() == 0
    assert tab.locator("[aria-invalid]").count() == 0
    assert "stale" not in (tab.get_attribute("section.view", "class") or "")


def test_a_bad_boggle_board_shows_by_the_board_and_over_the_old_words(page: Any) -> None:
    ready(page, "#/boggle")
    assert page.locator("#words tbody tr").count() > 100
    page.fill("textarea[name=board]", "AB/C")
    page.click("#solve")
    check_error_shown(page, "textarea[name=board]", "ragged board")
    assert page.get_attribute("textarea[name=board]", "aria-invalid") == "true"
    assert page.locator("#words tbody tr").count() > 100  # kept, dimmed, labelled
    page.fill("input[name=min_length]", "0")  # a field the server names: by its input
    page.fill("textarea[name=board]", "CAT/DOG/SUN")
    page.click("#solve")
    check_error_shown(page, "input[name=min_length]", "option 'min_length'")
    assert error_by(page, "textarea[name=board]") is None
    page.fill("input[name=min_length]", "3")
    page.click("#solve")
    sync_api.expect(page.locator("#words tbody tr[data-word=CAT]")).to_have_count(1)
    check_error_gone(page)


def test_a_bad_sliding_board_shows_by_the_board_and_the_old_solution_is_marked(page: Any) -> None:
    ready(page, "#/sliding")
    page.wait_for_selector("svg.tree")
    page.fill("textarea[name=board]", "12345")
    page.click("#solve")
    check_error_shown(page, "textarea[name=board]", "not a square board")
    assert page.locator("svg.tree").count() == 1  # the previous tree, dimmed
    # a goal that does not fit the board is the goal's error, by the goal
    page.fill("textarea[name=board]", "123450786")
    page.fill("input[name=goal]", "1234")
    page.click("#solve")
    check_error_shown(page, "input[name=goal]", "the goal '1234'")
    assert page.get_attribute("input[name=goal]", "aria-invalid") == "true"
    assert page.get_attribute("textarea[name=board]", "aria-invalid") is None
    page.fill("input[name=goal]", "103425786")
    page.click("#solve")
    sync_api.expect(page.locator("table.stats tbody tr")).to_have_count(1)
    check_error_gone(page)


def test_a_bad_maze_size_shows_by_the_size_and_the_old_maze_is_marked(page: Any) -> None:
    ready(page, "#/maze")
    page.fill("input[name=seed]", "3")
    page.click("#generate")
    page.wait_for_selector("#page[data-seed='3']")
    page.fill("input[name=rows]", "0")
    page.click("#generate")
    check_error_shown(page, "input[name=rows]", "size must be at least 1x1")
    for name in ("rows", "cols"):
        assert page.get_attribute(f"input[name={name}]", "aria-invalid") == "true"
    assert error_by(page, "input[name=cols]") == error_by(page, "input[name=rows]")
    page.fill("input[name=rows]", "6")
    page.click("#generate")
    sync_api.expect(page.locator("[data-stat=size]")).to_have_text("6 × 25")
    check_error_gone(page)


@pytest.mark.parametrize(
    ("hash_", "box"),
    [("#/kind/jugs", "textarea[name=puzzle]"), ("#/jugs", "input[name=puzzle]")],
    ids=["generic", "jugs"],
)
def test_a_bad_puzzle_on_the_generic_page_shows_by_its_box(page: Any, hash_: str, box: str) -> None:
    """The generic page, and the example plugin's page built on the same helpers."""
    ready(page, hash_)
    page.wait_for_selector("#page[data-solved=yes]")
    page.fill(box, "three and five")
    page.click("#solve")
    check_error_shown(page, box, "jugs")
    page.fill(box, "3,5:4")
    page.fill("input[name=max_depth]", "-1")  # a limit the server refuses: by the limit
    page.click("#solve")
    check_error_shown(page, "input[name=max_depth]", "max_depth")
    assert page.get_attribute(box, "aria-invalid") is None
    page.fill("input[name=max_depth]", "")
    page.click("#solve")
    sync_api.expect(page.locator(".error")).to_have_count(0)
    check_error_gone(page)


@pytest.fixture
def third_party_page(
    browser: Any, third_party_server: str, request: pytest.FixtureRequest
) -> Iterator[Any]:
    """A page of the server with third-party plugins; no JavaScript error is thrown."""
    context = browser.new_context(viewport={"width": 1280, "height": FOLD},
                                  base_url=third_party_server)  # fmt: skip
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    yield tab
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


@pytest.mark.parametrize(
    ("hash_", "steps", "path", "body"),
    [
        ("#/boggle", [("select_option", "select[name=dictionary]", "explode"), ("click", "#solve")],
         "boggle/solve", {"puzzle": "CAT/DOG/SUN", "options": {"dictionary": "explode"}}),
        ("#/sliding", [("select_option", "select[name=strategy]", "explode"), ("click", "#solve")],
         "sliding/solve", {"puzzle": "123450786", "strategy": "explode"}),
        ("#/maze", [("select_option", "select[name=algorithm]", "explode"),
                    ("click", "#generate")],
         "maze/generate", {"algorithm": "explode", "size": "3x3"}),
        ("#/kind/tally", [("select_option", "select[name=strategy]", "explode"),
                          ("click", "#solve")],
         "tally/solve", {"puzzle": "5", "strategy": "explode"}),
    ],
    ids=["boggle", "sliding", "maze", "generic"],
)  # fmt: skip
def test_a_failing_plugin_shows_at_the_top_of_every_page(
    third_party_page: Any,
    third_party_server: str,
    hash_: str,
    steps: list[tuple[str, str, str]],
    path: str,
    body: dict[str, Any],
) -> None:
    """A plugin's bug is the server's clean answer (500, one line naming it, no field),
    shown by the button that sent the request (the answer names no input) and at the top
    of the result area."""
    import httpx

    answer = httpx.post(f"{third_party_server}api/kinds/{path}", json=body, timeout=60)
    assert answer.status_code == 500, answer.text
    data = answer.json()
    assert data["error"] == "PluginError" and "the plugin's own bug" in data["detail"]
    assert "\n" not in data["detail"] and "field" not in data
    tab = third_party_page
    ready(tab, hash_)
    for action, *args in steps:
        getattr(tab, action)(*args)
    check_error_shown(tab, steps[-1][1], "the plugin's own bug")


# -- issue 25, item 8: less noise ------------------------------------------------------------

#: Colours of the maze page's canvas (maze.js).
WHITE, WALK_ORANGE, HUNT_PURPLE = [255, 255, 255], [245, 176, 65], [142, 68, 173]


def cell_pixels(tab: Any, height: int, width: int) -> list[list[int]]:
    """The colour of each cell of the maze canvas near its top-left corner: inside the cell,
    clear of its walls, of the path through its middle and of the start and end marks."""
    return tab.evaluate(  # type: ignore[no-any-return]
        f"""() => {{
            const cell = Math.max(4, Math.min(32, Math.floor(Math.min(880 / {width}, 620 / {height}))));
            const data = document.querySelector('#maze-canvas').getContext('2d')
                .getImageData(0, 0, 6 + {width} * cell, 6 + {height} * cell);
            const out = [];
            for (let r = 0; r < {height}; r++) for (let c = 0; c < {width}; c++) {{
                const x = 6 + c * cell + Math.floor(cell / 6), y = 6 + r * cell + Math.floor(cell / 6);
                const i = 4 * (y * data.width + x);
                out.push([data.data[i], data.data[i + 1], data.data[i + 2]]);
            }}
            return out;
        }}"""
    )


def pixels_of(tab: Any, rgb: list[int]) -> int:
    """How many pixels of the maze canvas are of this colour."""
    return tab.evaluate(  # type: ignore[no-any-return]
        """([r, g, b]) => {
        const c = document.querySelector('#maze-canvas');
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        for (let i = 0; i < d.length; i += 4) if (d[i] === r && d[i + 1] === g && d[i + 2] === b) n++;
        return n; }""",
        rgb,
    )


def test_a_solved_maze_shows_its_path_and_the_search_order_only_when_asked(page: Any) -> None:
    ready(page, "#/maze")
    page.fill("input[name=rows]", "9")
    page.fill("input[name=cols]", "14")
    page.fill("input[name=seed]", "4")
    page.click("#generate")
    page.wait_for_selector("#page[data-seed='4']")
    page.check("input[name=solution]")
    page.wait_for_selector("#page[data-solved=yes]")
    assert all(pixel == WHITE for pixel in cell_pixels(page, 9, 14))  # no tint
    assert pixels_of(page, [210, 40, 60]) > 100  # the path's red
    assert not page.is_checked("input[name=search-order]")
    page.check("input[name=search-order]")
    expanded = int(re.sub(r"\D", "", page.inner_text("[data-stat=expanded]").split(" cells")[0]))
    tinted = [pixel for pixel in cell_pixels(page, 9, 14) if pixel != WHITE]
    assert len(tinted) == expanded > 0
    assert pixels_of(page, [210, 40, 60]) > 100  # the path over the tint
    page.uncheck("input[name=search-order]")
    assert all(pixel == WHITE for pixel in cell_pixels(page, 9, 14))


def test_a_new_maze_has_no_start_and_end_until_asked_as_on_the_command_line(page: Any) -> None:
    """The page's default is the maze kind's declared one for a made maze (its options
    for `prepare`, in the catalogue), which `lacak maze generate` takes as its own."""
    from click.testing import CliRunner
    from lacak.cli import make_cli

    ready(page, "#/maze")
    page.fill("input[name=rows]", "9")
    page.fill("input[name=cols]", "14")
    page.fill("input[name=seed]", "4")
    page.click("#generate")
    page.wait_for_selector("#page[data-seed='4']")
    assert not page.is_checked("input[name=ends]") and not page.is_checked("input[name=solution]")
    assert page.locator("[data-stat='start → end']").count() == 0
    assert pixels_of(page, [30, 132, 73]) == 0  # no start drawn (#1e8449)
    page.check("input[name=solution]")  # the solution implies the ends, as --solution does
    page.wait_for_selector("#page[data-solved=yes]")
    assert page.is_checked("input[name=ends]")
    assert page.locator("[data-stat='start → end']").count() == 1
    assert pixels_of(page, [30, 132, 73]) > 0
    # the same defaults as the command line's, from the one place the maze kind declares them
    declared = lacak.default_registry().puzzle_types()["maze"].batch.options  # type: ignore[union-attr]
    command = make_cli().commands["maze"].commands["generate"]  # type: ignore[attr-defined]
    flags = {p.name: p.default for p in command.params}
    assert flags["endpoints"] == declared["endpoints"] is False
    assert flags["solution"] == declared["solution"] is False
    made = CliRunner().invoke(make_cli(), ["maze", "generate", "--size", "9x14", "--seed", "4",
                                          "--json"])  # fmt: skip
    assert made.exit_code == 0 and json.loads(made.output)["start"] is None


def test_a_wide_search_tree_opens_on_its_root(page: Any) -> None:
    from lacak.web import work

    ready(page, "#/sliding")
    page.fill("textarea[name=board]", "4 1 3 / 0 2 5 / 7 8 6")
    page.fill("input[name=goal]", "")
    page.fill("input[name=max_depth]", "")
    nodes = len(work.solve("sliding", {"puzzle": "4 1 3 / 0 2 5 / 7 8 6", "strategy": "bfs",
                                       "trace": 500})["trace"]["nodes"])  # fmt: skip
    page.click("#solve")
    sync_api.expect(page.locator("svg.tree g.node")).to_have_count(nodes)
    width = page.eval_on_selector("svg.tree", "n => n.getBoundingClientRect().width")
    box = page.locator(".tree-scroll").bounding_box()
    assert width > 2 * box["width"]  # wide: its root is far from its left edge
    root = page.locator("svg.tree g.node", has=page.locator("text.numbers", has_text="#1 g=0"))
    assert root.count() == 1  # expanded first, at depth 0: the root
    sync_api.expect(root).to_be_in_viewport()
    where = root.bounding_box()
    assert box["x"] <= where["x"] and where["x"] + where["width"] <= box["x"] + box["width"]


def test_the_hunt_and_kill_animation_tells_hunts_from_the_walk(page: Any) -> None:
    ready(page, "#/maze")
    page.select_option("select[name=algorithm]", "hunt-and-kill")
    page.fill("input[name=rows]", "8")
    page.fill("input[name=cols]", "10")
    page.fill("input[name=seed]", "3")
    page.click("#generate")
    page.wait_for_selector("#page[data-seed='3']")
    carving = lacak.generate("maze", "hunt-and-kill", (8, 10), seed=3, carving=True).carving
    assert carving is not None
    steps = carving.to_dict()["steps"]
    hunts = carving.marks["hunt"]
    assert hunts and hunts[0] > 1
    page.click("#animate-carving")
    page.wait_for_selector("#maze-canvas[data-mode=carving]")
    page.click("#play")  # pause, then step by hand
    legend = page.locator("#legend")
    sync_api.expect(legend).to_be_visible()
    assert "hunt step" in legend.inner_text() and "walk step" in legend.inner_text()
    cell = max(4, min(32, min(880 // 10, 620 // 8)))

    def head(k: int) -> list[int]:
        """The colour of the cell of step k (1-based) when it is the step just taken."""
        page.evaluate("() => document.querySelector('#first').click()")
        page.wait_for_selector("#maze-canvas[data-frame='0']")
        for _ in range(k):
            page.click("#step")
        page.wait_for_selector(f"#maze-canvas[data-frame='{k}']")
        r, c, _side = steps[k - 1]
        x, y = 6 + c * cell + cell // 4, 6 + r * cell + cell // 4
        return page.evaluate(  # type: ignore[no-any-return]
            f"() => Array.from(document.querySelector('#maze-canvas').getContext('2d')"
            f".getImageData({x}, {y}, 1, 1).data.slice(0, 3))"
        )

    first_hunt = hunts[0] + 1  # frames count steps from 1
    assert head(first_hunt) == HUNT_PURPLE
    assert head(first_hunt - 1) == WALK_ORANGE
    if first_hunt not in hunts:  # the walk goes on from the cell the hunt joined: orange
        assert head(first_hunt + 1) == WALK_ORANGE


@pytest.mark.parametrize(
    ("hash_", "button", "command", "caption"),
    [
        ("#/sliding", "#scramble", ["sliding", "scramble"], r"(random|walk) 3x3, seed 7\b"),
        ("#/boggle", "#shake", ["boggle", "shake"], r"classic4 4x4, seed 7\b"),
    ],
)
def test_a_made_board_says_what_makes_it_again(
    page: Any, tmp_path: Path, hash_: str, button: str, command: list[str], caption: str
) -> None:
    """Issue 25, item 4: the page says the generator, size, seed and options of a board
    it made, and saves its JSON, which ``--from`` makes again: the same board."""
    from click.testing import CliRunner
    from lacak.cli import make_cli

    ready(page, hash_)
    if hash_ == "#/sliding":
        page.click("summary:has-text('Scramble a board')")
    page.fill("input[name=seed]", "7")
    page.click(button)
    page.wait_for_selector("#made[data-made]")
    made = page.get_attribute("#made", "data-made")
    assert re.match(caption, made), made
    with page.expect_download() as got:
        page.click("#made-save")
    name = "-".join(made.replace(",", "").replace(" seed ", " seed").split())
    assert got.value.suggested_filename == f"{name}.json"
    saved = tmp_path / "made.json"
    got.value.save_as(saved)
    again = CliRunner().invoke(make_cli(), [*command, "--from", str(saved), "--json"])
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout) == json.loads(saved.read_text())
