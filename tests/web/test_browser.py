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
    words = {w["word"]: w["path"] for w in lacak.solve(puzzle).to_dict(puzzle)["boggle"]["words"]}
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
    states = lacak.solve(puzzle).to_dict(puzzle)["states"]
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


def test_a_third_party_kind_gets_the_generic_page(page: Any) -> None:
    ready(page, "#/")
    assert page.locator("nav a[data-kind=jugs]").count() == 1
    page.click("nav a[data-kind=jugs]")
    page.wait_for_selector("#page[data-solved=yes]")
    assert "<- goal" in page.inner_text("#picture")
    assert page.locator("svg.tree g.node.goal").count() == 1


def test_the_api_docs_are_served_from_here(page: Any) -> None:
    page.goto("/api/docs")
    sync_api.expect(page.get_by_text("/api/kinds/{kind}/solve").first).to_be_visible(timeout=30_000)
