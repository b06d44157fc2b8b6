"""Finding dictionary files: the packaged ones, the user folder and ``LACAK_DICTIONARY_PATH``."""

from __future__ import annotations

import functools
import json
import os
import stat
from collections.abc import Mapping
from importlib.resources import files
from pathlib import Path
from typing import Any

import attrs
import lacak

__all__ = [
    "ENV_VAR",
    "Folder",
    "RejectedFile",
    "Scan",
    "WordListFile",
    "display",
    "name_problem",
    "packaged_folder",
    "peek_header",
    "peek_metadata",
    "scan",
]

#: Folders (or single files) searched before the user folder, ``os.pathsep``-separated.
ENV_VAR = "LACAK_DICTIONARY_PATH"

#: Where a file was found, in order of precedence, with a label for listings.
ORIGIN_LABELS = {"path": ENV_VAR, "user": "user folder", "packaged": "packaged"}


@attrs.frozen
class Folder:
    """A place searched for dictionary files."""

    #: The folder (or single file).
    path: Path
    #: ``"path"`` (from ``LACAK_DICTIONARY_PATH``), ``"user"`` or ``"packaged"``.
    origin: str

    @property
    def exists(self) -> bool:
        """Whether the folder (or file) is there."""
        return self.path.exists()


@attrs.frozen
class WordListFile:
    """A dictionary file found in one of the folders."""

    #: The dictionary's name: the file's stem.
    name: str
    #: The file.
    path: Path
    #: Where it was found (a key of :data:`ORIGIN_LABELS`).
    origin: str
    #: The file that wins over this one, when shadowed.
    shadowed_by: Path | None = None

    def source(self) -> lacak.DictionarySource:
        """The :class:`lacak.DictionarySource` that loads this file on demand.

        Its language, title and (for the packaged lists, which the tests hold to
        their word counts) its ``count`` come from the file's metadata, read from
        its head: listing never loads a packaged list.
        """
        header = peek_header(self.path)
        language, title = header.get("language"), header.get("title")
        description = (title if isinstance(title, str) else "") or (
            f"{ORIGIN_LABELS[self.origin]} word list {self.path.name}"
        )
        return lacak.DictionarySource(
            name=self.name,
            load=functools.partial(lacak.Dictionary.from_file, self.path, self.name),
            language=language if isinstance(language, str) else "",
            description=description,
            path=str(self.path),
            count=declared_count(header) if self.origin == "packaged" else None,
        )


@attrs.frozen
class RejectedFile:
    """A ``.json`` file that is not registered because its name cannot be a dictionary name."""

    #: The file's stem, printable (see :func:`display`).
    name: str
    #: The file.
    path: Path
    #: Where it was found (a key of :data:`ORIGIN_LABELS`).
    origin: str
    #: Why its name cannot be used.
    reason: str


@attrs.frozen
class Scan:
    """What the folders hold."""

    #: The folders searched, in order of precedence.
    folders: tuple[Folder, ...]
    #: The files that are registered (first one found for each name).
    active: tuple[WordListFile, ...]
    #: Files hidden by an earlier file of the same name.
    shadowed: tuple[WordListFile, ...]
    #: Files whose names cannot be dictionary names (not registered).
    rejected: tuple[RejectedFile, ...] = ()


def display(text: str) -> str:
    """``text`` (a path or a name from the file system) as printable UTF-8 text.

    A file name that is not UTF-8 reaches Python with its bytes as lone
    surrogates (``caf\\udce9``); they are shown as ``\\xe9`` escapes, the
    way such names are usually written, so output stays valid UTF-8.
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        try:
            return os.fsencode(text).decode("utf-8", "backslashreplace")
        except UnicodeError:
            return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def name_problem(name: str) -> str | None:
    """Why the file stem ``name`` cannot name a dictionary, or ``None``."""
    if display(name) != name:
        return "the file name is not UTF-8 text, so it cannot name a dictionary; rename the file"
    if not name.strip():
        return "the file name is blank before .json, so it cannot name a dictionary"
    if name != name.strip():
        return (
            f"the file name {name!r} starts or ends with white space, "
            "so it cannot name a dictionary; rename the file"
        )
    return None


def packaged_folder() -> Path | None:
    """The folder of the packaged word lists, or ``None`` when not on a file system."""
    try:
        folder = files("lacak_dictionaries.data")
    except ModuleNotFoundError:  # pragma: no cover - broken installation
        return None
    return folder if isinstance(folder, Path) else None


def folders(environ: Mapping[str, str] | None = None) -> list[Folder]:
    """The places searched, first match wins."""
    env = os.environ if environ is None else environ
    found = [
        Folder(Path(part).expanduser(), "path")
        for part in env.get(ENV_VAR, "").split(os.pathsep)
        if part.strip()
    ]
    found.append(Folder(lacak.store.paths.user_data_dir() / "dictionaries", "user"))
    packaged = packaged_folder()
    if packaged is not None:
        found.append(Folder(packaged, "packaged"))
    return found


def _files(folder: Folder) -> list[Path]:
    path = folder.path
    try:
        if path.is_file():
            return [path] if path.suffix.lower() == ".json" else []
        if not path.is_dir():
            return []
        return sorted(
            child
            for child in path.iterdir()
            if child.suffix.lower() == ".json"
            and not child.name.startswith(".")
            and child.is_file()
        )
    except OSError:  # an unreadable folder hides nothing else
        return []


def scan(environ: Mapping[str, str] | None = None) -> Scan:
    """Find every dictionary file; later files with a taken name are shadowed.

    A file whose stem cannot be a dictionary name (blank, surrounded by white
    space, or not UTF-8) is rejected on its own: the other files still register.
    """
    places = folders(environ)
    active: dict[str, WordListFile] = {}
    shadowed: list[WordListFile] = []
    rejected: list[RejectedFile] = []
    for folder in places:
        for path in _files(folder):
            name = path.stem
            problem = name_problem(name)
            if problem is not None:
                rejected.append(RejectedFile(display(name), path, folder.origin, problem))
                continue
            if name in active:
                if active[name].path.resolve() != path.resolve():
                    shadowed.append(
                        WordListFile(name, path, folder.origin, shadowed_by=active[name].path)
                    )
                continue
            active[name] = WordListFile(name, path, folder.origin)
    return Scan(tuple(places), tuple(active.values()), tuple(shadowed), tuple(rejected))


def peek_header(path: Path, size: int = 65536) -> dict[str, Any]:
    """The metadata of an object-format file (the keys before ``words``), without
    reading the words, or ``{}``.

    Files written by lacak (``build.py``, ``lacak dictionaries export``) put the
    metadata before the words, so the file's head holds them; a file whose head
    is not such an object (a list, the seed format, metadata after the words, a
    head that does not parse) gives ``{}``.
    """
    try:
        fd, info = lacak.store.paths.open_regular(path)  # a FIFO in its place is not waited on
        try:
            if not stat.S_ISREG(info.st_mode):
                return {}
            with open(fd, "rb", closefd=False) as handle:
                head = handle.read(size).decode("utf-8-sig", errors="ignore")
        finally:
            os.close(fd)
    except OSError:
        return {}
    words_at = head.find('"words"')
    if not head.lstrip().startswith("{") or words_at < 0:
        return {}
    text = head[:words_at].rstrip().removesuffix(",") + "}"
    try:
        found = json.loads(text)
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


def peek_metadata(path: Path, size: int = 65536) -> tuple[str, str]:
    """``(language, title)`` from the head of an object-format file, without loading it
    (see :func:`peek_header`); ``("", "")`` when the head does not say."""
    header = peek_header(path, size)
    language, title = header.get("language"), header.get("title")
    return (
        language if isinstance(language, str) else "",
        title if isinstance(title, str) else "",
    )


def declared_count(header: dict[str, Any]) -> int | None:
    """The ``count`` a header declares, when it is a whole number."""
    count = header.get("count")
    return count if type(count) is int and count >= 0 else None
