"""The notebooks of ``docs/notebooks/`` run, and show pictures (issue 25, item 6).

Each notebook runs top to bottom in a fresh kernel, with the code that builds its page
on the site (``docs/gen/notebooks.py``): every code cell runs without an error, every
cell tagged ``picture`` shows a well-formed SVG or PNG, every cell tagged ``table``
shows HTML, and the page made from it shows each picture from a file it writes. The
notebooks are kept without outputs: the site and this test make them.
"""

from __future__ import annotations

import base64
import io
import json
import re
import runpy
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from . import examples

pytest.importorskip("nbclient", reason="the [test] extra runs the notebooks (nbclient)")
pytest.importorskip("ipykernel", reason="the [test] extra runs the notebooks (ipykernel)")

NOTEBOOKS = sorted((examples.ROOT / "docs" / "notebooks").glob("*.ipynb"))
GENERATOR = examples.ROOT / "docs" / "gen" / "notebooks.py"
#: What an SVG draws with.
SHAPES = {"rect", "path", "polyline", "line", "circle", "polygon", "text"}


def _name(path: Path) -> str:
    return path.name


@pytest.fixture(scope="module")
def generator() -> dict[str, Any]:
    return runpy.run_path(str(GENERATOR), run_name="test")


def test_the_worked_examples_are_a_notebook() -> None:
    assert [p.name for p in NOTEBOOKS] == ["machine-learning.ipynb", "worked-examples.ipynb"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_name)
def test_a_notebook_is_kept_without_outputs(path: Path) -> None:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    code = [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]
    assert code, f"{path.name} has no code"
    kept = [i for i, cell in enumerate(code) if cell["outputs"] or cell["execution_count"]]
    assert not kept, f"{path.name}: code cells {kept} keep outputs (clear them before committing)"


def _pictures(output: Any) -> list[tuple[str, Any]]:
    data = output.get("data", {})
    return [(mime, data[mime]) for mime in ("image/svg+xml", "image/png") if mime in data]


def _check_picture(mime: str, data: Any, where: str) -> None:
    if mime == "image/svg+xml":
        root = ET.fromstring(data)
        assert root.tag == "{http://www.w3.org/2000/svg}svg", where
        assert float(root.get("width", 0)) >= 50 and float(root.get("height", 0)) >= 50, where
        drawn = [e for e in root.iter() if e.tag.rpartition("}")[2] in SHAPES]
        assert len(drawn) >= 2, f"{where}: an SVG with no more than a background"
    else:
        from PIL import Image

        with Image.open(io.BytesIO(base64.b64decode(data))) as image:
            assert image.format == "PNG" and min(image.size) >= 50, where
            darkest, lightest = image.convert("L").getextrema()
            assert lightest - darkest > 100, f"{where}: a blank PNG"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_name)
def test_a_notebook_runs_and_shows_its_pictures(path: Path, generator: dict[str, Any]) -> None:
    notebook = generator["execute"](path)
    tagged = {"picture": 0, "table": 0}
    for number, cell in enumerate(notebook.cells, 1):
        if cell.cell_type != "code":
            continue
        where = f"{path.name}, cell {number}"
        assert cell.execution_count is not None, f"{where} did not run"
        errors = [o for o in cell.outputs if o.output_type == "error"]
        assert not errors, f"{where}: {errors[0].ename}: {errors[0].evalue}"
        assert not any(o.get("name") == "stderr" for o in cell.outputs), f"{where} warned"
        tags = cell.metadata.get("tags", [])
        pictures = [picture for output in cell.outputs for picture in _pictures(output)]
        if "picture" in tags:
            tagged["picture"] += 1
            assert pictures, f"{where} shows no picture: {[o.output_type for o in cell.outputs]}"
            for mime, data in pictures:
                _check_picture(mime, data, where)
        if "table" in tags:
            tagged["table"] += 1
            html = [o.data["text/html"] for o in cell.outputs if "text/html" in o.get("data", {})]
            assert html and "<table>" in html[0], f"{where} shows no table"
    assert tagged["picture"] >= 3 and tagged["table"] >= 1, tagged

    text, files = generator["page"](path.stem, notebook)
    shown = re.findall(rf"\]\({re.escape(path.stem)}/([\w.-]+)\)", text)
    assert shown and sorted(shown) == sorted(files), (shown, sorted(files))
    assert any(name.endswith(".png") for name in files) and any(
        name.endswith(".svg") for name in files
    )
    assert f"]({path.stem}.ipynb)" in text  # the page links to its notebook
