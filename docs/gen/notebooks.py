"""The notebooks of ``docs/notebooks/``, run while the site builds and written as pages.

Run by mkdocs-gen-files (``mkdocs.yml``). Each ``docs/notebooks/NAME.ipynb`` is kept
without outputs; this script runs it in a fresh kernel (nbclient, ipykernel), so a
notebook that fails fails the build, and writes ``notebooks/NAME.md``: its Markdown
cells as they are, its code cells as Python blocks, and after each cell what it showed.
A picture (``image/svg+xml``, ``image/png``) becomes a file ``notebooks/NAME/cell-N.svg``
shown by the page; a notebook's HTML (a search result's table, a Boggle result) is put
in the page as it is; printed text is a text block. The page links to the notebook.

``python docs/gen/notebooks.py OUT`` writes the same files into the folder ``OUT``.
"""

from __future__ import annotations

import base64
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "docs" / "notebooks"
#: Seconds a cell may run before the build fails (the notebooks take a few seconds in all).
CELL_TIMEOUT = 120


def execute(path: Path) -> Any:
    """The notebook at ``path``, run top to bottom in a fresh kernel of this Python (its
    ipykernel), in an empty temporary folder (what it saves goes nowhere), over local
    sockets (IPC, no TCP port).

    :raises nbclient.exceptions.CellExecutionError: a cell failed.
    """
    import nbformat
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    # no kernel folder is searched: the kernel is ipykernel on this Python (where lacak
    # is installed), whatever kernels the user's Jupyter knows
    this_python = KernelSpecManager(kernel_dirs=[])
    with tempfile.TemporaryDirectory() as folder:
        kernel = KernelManager(kernel_name="python3", kernel_spec_manager=this_python,
                               transport="ipc", ip=os.path.join(folder, "kernel"))  # fmt: skip
        NotebookClient(notebook, km=kernel, timeout=CELL_TIMEOUT,
                       resources={"metadata": {"path": folder}}).execute()  # fmt: skip
    return notebook


def _html(text: str) -> str:
    """HTML for a Markdown page: no blank line inside (one raw HTML block)."""
    return "\n".join(line for line in text.splitlines() if line.strip())


def _text_block(text: str) -> list[str]:
    return ["```text", text.rstrip("\n"), "```", ""]


def page(name: str, notebook: Any) -> tuple[str, dict[str, str | bytes]]:
    """The Markdown page of an executed ``notebook`` and its pictures (``{file name:
    contents}``, in the folder ``name/`` beside the page)."""
    out: list[str] = []
    files: dict[str, str | bytes] = {}
    link = (f"*This page is the notebook [`{name}.ipynb`]({name}.ipynb), run while the site "
            "was built: every picture is what lacak draws today.*")  # fmt: skip
    for number, cell in enumerate(notebook.cells, 1):
        if cell.cell_type == "markdown":
            out += [cell.source, ""]
            if number == 1:
                out += [link, ""]
            continue
        if cell.cell_type != "code" or not cell.source.strip():
            continue
        out += ["```python", cell.source.rstrip("\n"), "```", ""]
        printed = ""  # (a kernel sends printed text in pieces: one block for a run of them)
        for output in cell.outputs:
            if output.output_type == "stream":
                printed += output.text
                continue
            if printed:
                out += _text_block(printed)
                printed = ""
            data = output.get("data", {})
            if "text/html" in data:
                out += [_html(data["text/html"]), ""]
            elif "image/svg+xml" in data:
                files[f"cell-{number}.svg"] = data["image/svg+xml"]
                out += [f"![what cell {number} shows]({name}/cell-{number}.svg)", ""]
            elif "image/png" in data:
                files[f"cell-{number}.png"] = base64.b64decode(data["image/png"])
                out += [f"![what cell {number} shows]({name}/cell-{number}.png)", ""]
            elif "text/plain" in data:
                out += _text_block(data["text/plain"])
        if printed:
            out += _text_block(printed)
    return "\n".join(out), files


def build() -> dict[str, str | bytes]:
    """Every file this script writes, by path in the site: ``notebooks/NAME.md`` and its
    pictures, for each notebook."""
    written: dict[str, str | bytes] = {}
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        text, files = page(path.stem, execute(path))
        written[f"notebooks/{path.stem}.md"] = text
        written.update({f"notebooks/{path.stem}/{n}": data for n, data in files.items()})
    return written


def main() -> None:
    if __name__ == "__main__":  # python docs/gen/notebooks.py OUT
        folder = Path(sys.argv[1])
        for name, data in build().items():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            if isinstance(data, bytes):
                (folder / name).write_bytes(data)
            else:
                (folder / name).write_text(data, encoding="utf-8")
        return
    import mkdocs_gen_files

    for name, data in build().items():
        if isinstance(data, bytes):
            with mkdocs_gen_files.open(name, "wb") as binary:
                binary.write(data)
        else:
            with mkdocs_gen_files.open(name, "w") as out:
                out.write(data)
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        mkdocs_gen_files.set_edit_path(f"notebooks/{path.stem}.md", f"notebooks/{path.name}")


if __name__ in {"__main__", "<run_path>"}:  # mkdocs-gen-files runs it with runpy
    main()
