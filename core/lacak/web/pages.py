"""The kinds' own pages: where a :class:`~lacak.Page` keeps its files, and which of them
a request may have.

A plugin ships its kind's page as a folder of static files in its own package
(:attr:`PuzzleType.page <lacak.PuzzleType.page>`). ``lacak serve`` serves that
folder under ``/pages/KIND/``, as datasette serves its plugins' static files under
``/-/static-plugins/PLUGIN/``: a file of the folder and nothing else (:func:`find`
refuses a ``..``, hidden or empty part, an absolute path, and a symbolic link that
leads out of the folder). :func:`describe` is what ``GET /api/kinds`` says of a
kind's page, so that the pages' frame (``static/main.js``) loads it from there.

This module knows no kind and no web framework: every page comes from a plugin,
and the application (:mod:`lacak.web.app`) answers the requests.
"""

from __future__ import annotations

import mimetypes
from importlib import resources
from pathlib import Path, PurePath
from typing import Any
from urllib.parse import quote

from ..interfaces import Page, PuzzleType

__all__ = ["PREFIX", "describe", "find", "folder_of", "media_type", "url"]

#: Where the pages' files are served: ``/pages/KIND/FILE``.
PREFIX = "/pages"

#: Media types of the files a page is made of, whatever the system's tables say
#: (a module script must be served as JavaScript).
_TYPES = {".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css",
          ".json": "application/json", ".svg": "image/svg+xml"}  # fmt: skip


def url(kind: str, file: str) -> str:
    """The address of a file of ``kind``'s page (``/pages/KIND/FILE``, quoted)."""
    return f"{PREFIX}/{quote(kind, safe='')}/{quote(file)}"


def describe(kind_type: PuzzleType) -> dict[str, Any] | None:
    """What the catalogue says of a kind's page: its ``title`` in the menu, and the
    addresses of its ``script`` and ``styles``; ``None`` for a kind without a page
    (the generic page shows it)."""
    page = kind_type.page
    if page is None:
        return None
    kind = kind_type.kind
    return {
        "title": page.title or kind,
        "script": url(kind, page.script),
        "styles": [url(kind, style) for style in page.styles],
    }


def folder_of(page: Page) -> Path | None:
    """The page's folder on disk, its symbolic links resolved; ``None`` when its package
    cannot be imported, is not a package, or has no such folder on disk."""
    try:
        base = resources.files(page.package)
    except (ImportError, TypeError, ValueError):
        return None
    folder = base.joinpath(*page.folder.split("/"))
    if not isinstance(folder, Path):  # a package inside a zip file: nothing to serve from
        return None
    try:
        folder = folder.resolve(strict=True)
    except (OSError, RuntimeError):
        return None
    return folder if folder.is_dir() else None


def find(folder: Path, path: str) -> Path | None:
    """The file that ``path`` (a request's, already percent-decoded: ``a%2Fb`` is
    ``a/b``) names inside ``folder``, or ``None``: when a part of it is empty (an
    absolute path, ``a//b``), hidden (``.``, ``..``, ``.git``) or holds a backslash or
    a NUL; when it is no regular file; when its real path, symbolic links followed,
    is outside ``folder`` (which :func:`folder_of` gives resolved)."""
    parts = path.split("/")
    if not all(part and part[0] != "." and "\\" not in part and "\0" not in part for part in parts):
        return None
    try:
        real = folder.joinpath(*parts).resolve(strict=True)
    except (OSError, RuntimeError):  # missing, a loop of links, a name too long
        return None
    if not real.is_relative_to(folder) or not real.is_file():
        return None
    return real


def media_type(path: PurePath) -> str:
    """The ``Content-Type`` a file of a page is served with."""
    suffix = path.suffix.lower()
    return _TYPES.get(suffix) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"
