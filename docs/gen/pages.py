"""Pages copied into the site while it builds: the changelog, and the batch guide until it lands.

Run by mkdocs-gen-files. ``changelog.md`` is ``CHANGELOG.md`` with its links
into ``docs/`` made relative to the site. ``batch.md`` is written by hand in
``docs/batch.md``; while that file does not exist, the site shows
``docs/gen/batch-interim.md`` under the same name, a page that says what exists
today, so the navigation and the links to ``batch.md`` hold either way.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def changelog() -> str:
    """``CHANGELOG.md`` with ``docs/`` links relative to the site's root."""
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    return re.sub(r"\]\(docs/", "](", text)


def main() -> None:
    import mkdocs_gen_files

    with mkdocs_gen_files.open("changelog.md", "w") as out:
        out.write(changelog())
    mkdocs_gen_files.set_edit_path("changelog.md", "../CHANGELOG.md")
    if not (ROOT / "docs" / "batch.md").exists():
        with mkdocs_gen_files.open("batch.md", "w") as out:
            out.write((ROOT / "docs" / "gen" / "batch-interim.md").read_text(encoding="utf-8"))


if __name__ in {"__main__", "<run_path>"}:  # mkdocs-gen-files runs it with runpy
    main()
