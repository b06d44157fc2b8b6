"""The changelog, copied into the site while it builds.

Run by mkdocs-gen-files. ``changelog.md`` is ``CHANGELOG.md`` with its links
into ``docs/`` made relative to the site.
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


if __name__ in {"__main__", "<run_path>"}:  # mkdocs-gen-files runs it with runpy
    main()
