"""The water-jug kind's page in ``lacak serve``, tested the way a plugin author would:
its files are in the package (so the wheel carries them, as package data), and the
server lists and serves them. The page in a browser: lacak's ``tests/web/test_browser.py``."""

from __future__ import annotations

import re
from pathlib import Path

import lacak
import lacak_jugs
import pytest

FOLDER = Path(lacak_jugs.__file__).parent / "page"


def test_the_kind_declares_a_page_whose_files_are_in_its_package() -> None:
    page = lacak.default_registry().puzzle_types()["jugs"].page
    assert page == lacak.Page(
        package="lacak_jugs", script="jugs.js", styles=("jugs.css",), title="Jugs"
    )
    assert sorted(p.name for p in FOLDER.iterdir()) == ["jugs.css", "jugs.js"]
    script = (FOLDER / page.script).read_text(encoding="utf-8")
    # an ES module whose default export draws the page, built on lacak serve's page API
    assert re.search(r"^export default async function \w*\(root, catalogue\)", script, re.M)
    assert re.search(r'^import \{[^}]*\} from "/static/ui\.js";$', script, re.M)


def test_lacak_serve_lists_and_serves_the_page() -> None:
    # lacak serve is the optional extra lacak[web]: without it there is nothing to serve
    testclient = pytest.importorskip("fastapi.testclient")
    from lacak.web.app import create_app  # (lacak[web] only, as above)
    from lacak.web.pool import Pool

    app = create_app(pool=Pool(1, processes=False))
    with testclient.TestClient(app) as client:
        page = client.get("/api/kinds/jugs").json()["page"]
        assert page == {"title": "Jugs", "script": "/pages/jugs/jugs.js",
                        "styles": ["/pages/jugs/jugs.css"]}  # fmt: skip
        for address, media in [(page["script"], "text/javascript"),
                               (page["styles"][0], "text/css")]:  # fmt: skip
            served = client.get(address)
            assert served.status_code == 200
            assert served.headers["content-type"].startswith(media)
            assert served.content == (FOLDER / address.rsplit("/", 1)[1]).read_bytes()
        assert client.get("/pages/jugs/__init__.py").status_code == 404
        assert client.get("/pages/jugs/../__init__.py").status_code == 404
