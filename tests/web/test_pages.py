"""Each kind's page lives with its plugin: declared in its ``PuzzleType`` as a
:class:`lacak.Page`, served under ``/pages/KIND/`` (a file of the declared folder and
nothing else), listed by ``GET /api/kinds``; the core's web files know no kind.
"""

from __future__ import annotations

import http.client
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import lacak
import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from lacak.web import pages
from lacak.web.pool import Pool

from .conftest import make_app

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "core" / "lacak" / "web"

#: The kinds the core must never name: the built-in plugins' and the example plugin's.
KINDS = ("maze", "boggle", "sliding", "jugs")

#: Each page of the built-in kinds and of the example plugin's kind, as declared.
DECLARED = {
    "maze": ("lacak_mazes", "Mazes", "maze.js", ["maze.css"]),
    "boggle": ("lacak_boggle", "Boggle", "boggle.js", ["boggle.css"]),
    "sliding": ("lacak_sliding", "Sliding", "sliding.js", ["sliding.css"]),
    "jugs": ("lacak_jugs", "Jugs", "jugs.js", ["jugs.css"]),
}


def test_the_core_s_web_files_name_no_puzzle_kind() -> None:
    # every file of core/lacak/web/ (Python, JavaScript, HTML, CSS), against the kinds the
    # plugins installed here register and the plugins that register them
    files = sorted(f for f in WEB.rglob("*") if f.suffix in {".py", ".js", ".html", ".css"})
    assert {"main.js", "app.py", "pages.py", "index.html", "app.css"} <= {f.name for f in files}
    types = lacak.default_registry().puzzle_types()
    assert set(KINDS) <= set(types)
    words = sorted({*KINDS, *types, *(types.owner(kind) for kind in types)})
    pattern = re.compile("|".join(map(re.escape, words)), re.IGNORECASE)
    named = [
        f"{f.relative_to(ROOT)}:{number}: {line.strip()}"
        for f in files
        for number, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert not named, "the core's web files name a puzzle kind:\n" + "\n".join(named)


def test_no_page_of_a_kind_is_left_in_the_core() -> None:
    shared = {"index.html", "main.js", "ui.js", "generic.js", "app.css"}
    assert {f.name for f in (WEB / "static").iterdir()} == shared


def test_the_kinds_say_where_their_pages_are(client: TestClient) -> None:
    kinds = {k["kind"]: k for k in client.get("/api/kinds").json()}
    for kind, (package, title, script, styles) in DECLARED.items():
        assert kinds[kind]["page"] == {
            "title": title,
            "script": f"/pages/{kind}/{script}",
            "styles": [f"/pages/{kind}/{s}" for s in styles],
        }
        assert client.get(f"/api/kinds/{kind}").json()["page"] == kinds[kind]["page"]
        page = lacak.default_registry().puzzle_types()[kind].page
        assert page is not None and page.package == package and page.folder == "page"


@pytest.mark.parametrize("kind", sorted(DECLARED))
def test_a_page_s_files_are_served_as_the_files_its_plugin_ships(
    client: TestClient, kind: str
) -> None:
    info = client.get("/api/kinds").json()
    page = next(k["page"] for k in info if k["kind"] == kind)
    package = DECLARED[kind][0]
    folder = Path(__import__(package).__file__).parent / "page"
    for address, media in [(page["script"], "text/javascript"),
                           *((s, "text/css") for s in page["styles"])]:  # fmt: skip
        response = client.get(address)
        assert response.status_code == 200, address
        assert response.headers["content-type"].split(";")[0] == media
        assert "script-src 'self'" in response.headers["content-security-policy"]
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.content == (folder / address.rsplit("/", 1)[1]).read_bytes()
    script = client.get(page["script"]).text
    # the page is an ES module with a default export, built on the shared page API
    assert re.search(r"^export default async function", script, re.MULTILINE)
    assert 'from "/static/ui.js"' in script


def test_a_page_s_files_are_cached_as_the_core_s_static_files(client: TestClient) -> None:
    for address in ("/pages/maze/maze.js", "/pages/jugs/jugs.css", "/static/main.js"):
        first = client.get(address)
        etag, modified = first.headers["etag"], first.headers["last-modified"]
        assert first.status_code == 200 and first.headers["accept-ranges"] == "bytes"
        for asked in ({"if-none-match": etag}, {"if-none-match": f'W/{etag}, "x"'},
                      {"if-modified-since": modified}):  # fmt: skip
            again = client.get(address, headers=asked)
            assert again.status_code == 304 and again.content == b"", (address, asked)
            assert again.headers["etag"] == etag
        assert client.get(address, headers={"if-none-match": '"other"'}).status_code == 200
        head = client.head(address)
        assert head.status_code == 200 and head.content == b""
        assert head.headers["content-length"] == str(len(first.content))
        assert client.post(address).status_code == 405


def test_a_missing_page_file_says_no_more_than_a_missing_static_file(
    client: TestClient,
) -> None:
    bare = client.get("/static/nothing.js")
    assert bare.status_code == 404
    for address in ("/pages/maze/nothing.js", "/pages/maze/%2e%2e/__init__.py",
                    "/pages/maze/..%2F__init__.py", "/pages/maze/page", "/pages/maze/",
                    "/pages/maze", "/pages/", "/pages/nokind/maze.js",
                    "/pages/maze/maze.js%00.py", "/pages/maze/%2Fetc%2Fpasswd"):  # fmt: skip
        answer = client.get(address)
        assert (answer.status_code, answer.json()) == (404, bare.json()), address


def test_the_shared_page_api_stays_in_the_core(client: TestClient) -> None:
    for name in ("ui.js", "generic.js", "app.css"):
        assert client.get(f"/static/{name}").status_code == 200
    assert "script-src 'self'" in client.get("/").headers["content-security-policy"]


class _Plain:
    """A third-party kind without a page."""

    @lacak.hookimpl
    def register_puzzles(self, register: Any) -> None:
        register(lacak.PuzzleType(kind="plain", parse=lambda text: text, example="x"))


def test_a_kind_without_a_page_is_listed_without_one() -> None:
    registry = lacak.Registry()
    registry.load_plugins()
    registry.add_plugin(_Plain(), "plain")
    app = make_app(pool=Pool(1, processes=False, registry=registry), registry=registry)
    with TestClient(app) as local:
        kinds = {k["kind"]: k for k in local.get("/api/kinds").json()}
        assert kinds["plain"]["page"] is None
        assert local.get("/api/kinds/plain").json()["page"] is None
        assert kinds["maze"]["page"]["script"] == "/pages/maze/maze.js"
        missing = local.get("/pages/plain/plain.js")
        assert missing.status_code == 404 and missing.json()["error"] == "HTTPError"
        assert local.get("/pages/nokind/maze.js").status_code == 404


@pytest.mark.parametrize(
    "script", ["../x.js", "/x.js", "a//x.js", ".x.js", "a/./x.js", "a\\x.js", "c:x.js", "", 3]
)
def test_a_page_declares_only_files_inside_its_folder(script: Any) -> None:
    with pytest.raises(lacak.PluginError, match="paths inside its folder"):
        lacak.Page(package="p", script=script)
    with pytest.raises(lacak.PluginError, match="paths inside its folder"):
        lacak.Page(package="p", script="p.js", styles=(script,))
    with pytest.raises(lacak.PluginError, match="paths inside its folder"):
        lacak.Page(package="p", script="p.js", folder=script)


def test_a_page_in_a_package_that_is_not_there_serves_nothing() -> None:
    assert pages.folder_of(lacak.Page(package="lacak_no_such_package_xyz", script="a.js")) is None
    assert pages.folder_of(lacak.Page(package="lacak_mazes", script="a.js", folder="nope")) is None
    assert pages.folder_of(lacak.Page(package="lacak_gaschnig", script="a.js")) is None  # a module


# -- a page's folder, and nothing outside it ------------------------------------------------

SECRET = "not-for-the-web-4f1d"

PROBE = '''
import lacak


@lacak.hookimpl
def register_puzzles(register):
    register(lacak.PuzzleType(kind="probe", parse=lambda text: text,
                              page=lacak.Page(package="lacak_probe_test", script="probe.js")))
'''


@pytest.fixture(scope="module")
def probe(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """``lacak serve`` with a third-party kind whose page folder holds files, a hidden
    file, a folder, links inside it and links out of it; next to the folder (in the
    package, and outside it) are files that must never be served. Its address, and the
    secret file's path."""
    base = tmp_path_factory.mktemp("probe")
    package = base / "lacak_probe_test"
    folder = package / "page"
    (folder / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text(PROBE)
    (package / "secret.txt").write_text(SECRET)
    (base / "secret.txt").write_text(SECRET)
    outside = base / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text(SECRET)
    (folder / "probe.js").write_text("export default async function (root) {}\n")
    (folder / "sub" / "inner.css").write_text("p { color: red; }\n")
    (folder / ".hidden.js").write_text(SECRET)
    (folder / "inside.js").symlink_to(folder / "probe.js")
    (folder / "out.js").symlink_to(package / "secret.txt")
    (folder / "out-dir").symlink_to(outside, target_is_directory=True)
    (folder / "up").symlink_to(package, target_is_directory=True)
    info = base / "lacak_probe_test-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: lacak-probe-test\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[lacak]\nprobe = lacak_probe_test\n")
    path = os.pathsep.join([str(base), os.environ.get("PYTHONPATH", "")])
    process = subprocess.Popen(
        [sys.executable, "-m", "lacak", "serve", "--port", "0", "--workers", "1"],
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "LACAK_PROGRESS": "0", "PYTHONPATH": path},
    )
    try:
        assert process.stderr is not None
        line = process.stderr.readline()
        match = re.search(r"http://([^/\s]+)/ ", line)
        assert match, f"lacak serve said {line!r}"
        yield match.group(1), package / "secret.txt"
    finally:
        process.terminate()
        process.wait(timeout=20)


def _get(address: str, target: str) -> tuple[int, bytes]:
    """GET ``target`` exactly as written (no client tidies its dots or its escapes)."""
    host, port = address.rsplit(":", 1)
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        connection.request("GET", target)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


@pytest.mark.parametrize(
    "target",
    [
        "/pages/probe/probe.js",
        "/pages/probe/sub/inner.css",
        "/pages/probe/sub%2Finner.css",  # an encoded slash inside the folder is still inside
        "/pages/probe/inside.js",  # a link to a file of the folder
    ],
)
def test_the_files_of_a_page_s_folder_are_served(probe: tuple[str, Path], target: str) -> None:
    status, body = _get(probe[0], target)
    assert status == 200 and SECRET.encode() not in body


@pytest.mark.parametrize(
    "target",
    [
        "/pages/probe/../secret.txt",
        "/pages/probe/../../secret.txt",
        "/pages/probe/sub/../../secret.txt",
        "/pages/probe/%2e%2e/secret.txt",
        "/pages/probe/%2E%2E/%2E%2E/secret.txt",
        "/pages/probe/..%2Fsecret.txt",
        "/pages/probe/..%2f..%2fsecret.txt",
        "/pages/probe/%2e%2e%2fsecret.txt",
        "/pages/probe/%252e%252e%252fsecret.txt",  # escaped twice: a name, not a way up
        "/pages/probe/..%5Csecret.txt",
        "/pages/probe/..\\secret.txt",
        "/pages/probe/%00/../secret.txt",
        "/pages/probe/./probe.js",
        "/pages/probe//etc/passwd",
        "/pages/probe/%2Fetc%2Fpasswd",
        "/pages/probe/%2F%2E%2E/secret.txt",
        "/pages/probe/{secret}",  # the secret's own absolute path
        "/pages/probe/%2F{secret_escaped}",
        "/pages/probe/out.js",  # a link out of the folder, to a file of the package
        "/pages/probe/out-dir/secret.txt",  # a link to a folder outside
        "/pages/probe/up/secret.txt",  # a link to the package, the folder's parent
        "/pages/probe/.hidden.js",
        "/pages/probe/sub",
        "/pages/probe/sub/",
        "/pages/probe/",
        "/pages/probe/nothing.js",
        "/pages/%2E%2E/probe/probe.js",
        "/pages/nokind/probe.js",
        "/pages/probe%2F..%2F../secret.txt",
        "/static/../pages/probe/../secret.txt",
    ],
)
def test_nothing_outside_a_page_s_folder_is_served(probe: tuple[str, Path], target: str) -> None:
    secret = probe[1]
    # {secret}: the secret's absolute path after the page's address (/pages/probe//tmp/...)
    target = target.format(secret=secret, secret_escaped=str(secret)[1:].replace("/", "%2F"))
    status, body = _get(probe[0], target)
    assert status in (400, 404), (target, status)
    assert SECRET.encode() not in body and b"root:" not in body
    # nor a hint of where the pages are: no folder's path, no Python error
    assert str(secret.parent.parent).encode() not in body and b"Error:" not in body


def test_find_keeps_to_the_folder(tmp_path: Path) -> None:
    folder = (tmp_path / "page").resolve()
    folder.mkdir()
    (folder / "a.js").write_text("a")
    (tmp_path / "b.js").write_text("b")
    (folder / "loop").symlink_to(folder / "loop")
    assert pages.find(folder, "a.js") == folder / "a.js"
    outside = str(tmp_path / "b.js")
    for path in ["../b.js", "/b.js", outside, "", "a.js/", "loop", "a.js\0", "x/../a.js"]:
        assert pages.find(folder, path) is None, path


def test_the_page_api_is_documented() -> None:
    text = (ROOT / "docs" / "web.md").read_text(encoding="utf-8")
    section = text[text.index("## A page of your own"):]
    for name in re.findall(r"export function (\w+)", (WEB / "static" / "ui.js").read_text()):
        assert f"`{name}" in section, f"docs/web.md does not describe ui.js's {name}"
    assert "genericPage" in section and "/static/app.css" in section
    hooks = (ROOT / "docs" / "plugins" / "hooks.md").read_text(encoding="utf-8")
    assert "lacak.Page(" in hooks
    tutorial = (ROOT / "docs" / "plugins" / "tutorial.md").read_text(encoding="utf-8")
    assert "lacak.Page(" in tutorial


def test_the_example_plugin_s_page_ships_with_it() -> None:
    text = (ROOT / "docs/plugins/lacak-gaschnig/pyproject.toml").read_text()
    assert 'lacak_jugs = ["page/*.js", "page/*.css"]' in text
    main = (ROOT / "pyproject.toml").read_text()
    for package in ("lacak_mazes", "lacak_boggle", "lacak_sliding"):
        assert f'"{package}" = ["page/*.js", "page/*.css"]' in main


@pytest.mark.parametrize(
    ("name", "media"),
    [("a.js", "text/javascript"), ("A.MJS", "text/javascript"), ("b.css", "text/css"),
     ("c.json", "application/json"), ("d.svg", "image/svg+xml"), ("e.png", "image/png"),
     ("g", "application/octet-stream"),
     ("h.unknown-kind-of-file", "application/octet-stream")],
)  # fmt: skip
def test_a_page_s_files_have_the_media_type_of_their_suffix(name: str, media: str) -> None:
    # a module script must be JavaScript whatever the system's tables say (nosniff)
    assert pages.media_type(Path("page") / name) == media


#: Parts a request's path may be made of: names in the folder, ways up and out, hidden
#: names, links inside and outside, separators and bytes a path must not hold.
PARTS = ["a.js", "sub", "b.css", "..", ".", "", ".hidden.js", "in.js", "out.js", "up",
         "loop", "sub\\..", "c:", "a.js\0", "%2e%2e", "\\", "secret.txt"]  # fmt: skip


@given(parts=st.lists(st.sampled_from(PARTS), min_size=1, max_size=5))
@settings(max_examples=300, deadline=None)
def test_find_gives_a_visible_regular_file_of_the_folder_or_nothing(
    pages_tree: tuple[Path, Path], parts: list[str]
) -> None:
    folder, secret = pages_tree
    found = pages.find(folder, "/".join(parts))
    if found is not None:
        assert found.is_file() and found.resolve() == found
        assert found.is_relative_to(folder) and found != secret.resolve()
        assert not any(part.startswith(".") for part in found.relative_to(folder).parts)
        assert all(part in PARTS and part not in ("..", ".", "") for part in parts)


@pytest.fixture(scope="module")
def pages_tree(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A page's folder with files, a sub-folder, a hidden file and links in, out and
    round; a secret beside it. The folder (resolved, as pages.folder_of gives it) and
    the secret."""
    base = tmp_path_factory.mktemp("tree").resolve()
    folder = base / "page"
    (folder / "sub").mkdir(parents=True)
    secret = base / "secret.txt"
    secret.write_text(SECRET)
    for name in ("a.js", "sub/b.css", "sub/a.js", ".hidden.js", "sub/.hidden.js"):
        (folder / name).write_text("x")
    (folder / "in.js").symlink_to(folder / "a.js")
    (folder / "out.js").symlink_to(secret)
    (folder / "up").symlink_to(base, target_is_directory=True)
    (folder / "sub" / "up").symlink_to(base, target_is_directory=True)
    (folder / "loop").symlink_to(folder / "loop")
    return folder, secret
