"""The disk cache of pattern databases: one verified file per group, built when missing.

Databases are cached in ``lacak.store.paths.cache_dir("pdb")`` (``$LACAK_CACHE_DIR/pdb``
or the platform's cache folder): one ``.pdb`` file per group, a verified
:mod:`lacak.store.cache` file whose header holds the build note and whose payload is
one byte per placement (memory-mapped when loaded), keyed by board size, goal
and group. A build (:mod:`lacak_sliding.pdb.build`) reports its progress
through :mod:`lacak.progress` (a bar on a terminal), stops at the deadline of
the work running now (:func:`lacak.check_deadline`, ``--timeout``) and is saved
atomically; a damaged file is reported once and rebuilt, never used.

:mod:`lacak_sliding.pdb` (partitions, lookups, the registered heuristics)
re-exports what is public here.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import lacak

from . import shipped

__all__ = [
    "FORMAT",
    "UNREACHED",
    "BuildProgress",
    "BuildStopped",
    "build_deadline",
    "cache_folder",
    "cached_databases",
    "database_name",
    "database_path",
    "inspect_database",
    "is_cached",
    "is_shipped",
    "load_or_build",
    "other_files",
    "usable_folder",
    "write_shipped",
]

#: Database value of a placement no solvable board has. That happens only when
#: a group fills (almost) the whole board: with every tile in the group, half
#: the placements have the wrong parity; narrow boards lose some more.
UNREACHED = 255

#: Version of the on-disk format (part of every cache key, and the format number of the
#: cache files, see :mod:`lacak.store.cache`).
FORMAT = 2

_FORMAT = lacak.store.cache.CacheFormat(tag="lacak-pattern-database", version=FORMAT,
                                  what="the pattern database")  # fmt: skip


def cache_folder(*, writable: bool = False) -> Path:
    """Where pattern databases are cached (``$LACAK_CACHE_DIR/pdb`` or the platform's).

    :param writable: also check that a file can be created there.
    :raises CacheError: the folder cannot be created (or written, with ``writable``).
    """
    if writable:
        folder = lacak.store.cache.folder("pdb", required=True, stale=_STALE)
        assert folder is not None
        return folder
    return lacak.store.paths.cache_dir("pdb")


def usable_folder() -> Path | None:
    """The cache folder, or ``None`` when it cannot be used (warned once, as for a build)."""
    return lacak.store.cache.folder("pdb", required=False, stale=_STALE)


#: Temporary files of lacak versions before the verified caches (removed when stale).
_STALE = ("tmp*.npy.part",)


def _key(width: int, height: int, goal: Sequence[int], tiles: Sequence[int]) -> str:
    text = f"v{FORMAT}|{width}x{height}|{' '.join(map(str, goal))}|{' '.join(map(str, tiles))}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def database_name(width: int, height: int, goal: Sequence[int], tiles: Sequence[int]) -> str:
    """The file name of a group's database in the cache folder (and, ``.xz`` for ``.pdb``,
    of its copy shipped with lacak, :mod:`lacak_sliding.pdb.shipped`)."""
    return f"{width}x{height}-{len(tiles)}tiles-{_key(width, height, goal, tiles)}.pdb"



def database_path(
    width: int, height: int, goal: Sequence[int], tiles: Sequence[int], *, required: bool = False
) -> Path | None:
    """The database's file, or ``None`` when the cache folder cannot be used (warned once).

    The file name and key hold the board as ``WIDTHxHEIGHT`` (the cache's own
    naming, unchanged since format 2; what lacak shows is ``ROWSxCOLS``).

    :raises CacheError: ``required`` and the folder cannot be created or written.
    """
    folder = lacak.store.cache.folder("pdb", required=required, stale=_STALE)
    return folder / database_name(width, height, goal, tiles) if folder is not None else None


_path = database_path


def is_cached(partition: Any, tiles: Sequence[int]) -> bool:
    """Whether the database of group ``tiles`` of ``partition`` is in memory or in the cache
    folder (present, not verified: a damaged file is found when loaded)."""
    key = ("group", partition.width, partition.height, tuple(partition.goal), tuple(tiles))
    if key in memory:
        return True
    path = database_path(partition.width, partition.height, partition.goal, tiles)
    return path is not None and path.exists()


def is_shipped(partition: Any, tiles: Sequence[int]) -> bool:
    """Whether lacak ships the database of group ``tiles`` of ``partition`` (a first use
    unpacks it in about 0.1 s instead of building it, :mod:`lacak_sliding.pdb.shipped`)."""
    return shipped.has(database_name(partition.width, partition.height, partition.goal, tiles))


#: Guards :data:`memory` and the cache files of this process.
lock = threading.RLock()
#: The databases and prepared heuristics held in memory by this process, by key.
memory: dict[tuple[Any, ...], Any] = {}

#: ``progress(tiles, level, reached, total)``: what a build reports.
BuildProgress = Callable[[tuple[int, ...], int, int, int], None]


class BuildStopped(lacak.LimitReachedError):
    """A database build passed the deadline set by :func:`build_deadline` (nothing is cached)."""


def build_deadline(deadline: float | None) -> contextlib.AbstractContextManager[None]:
    """Within the block, database builds stop with :class:`BuildStopped` at ``deadline``.

    The same as :func:`lacak.deadline`: a build stops at the deadline of the work
    running now, which every searcher sets from ``Limits.seconds`` before
    preparing its heuristic, so that ``--timeout`` also bounds a build; the
    check comes between batches of the build (a fraction of a second apart).

    :param deadline: a :func:`time.perf_counter` time (``None``: no deadline).
    """
    return lacak.deadline(deadline)


def load_or_build(
    width: int,
    height: int,
    goal: Sequence[int],
    tiles: Sequence[int],
    *,
    build: bool = True,
    force: bool = False,
    progress: BuildProgress | None = None,
    must_cache: bool = False,
) -> Any:
    """The database of one group (a uint8 numpy array by placement rank), from disk or built.

    The file is verified on every load (:mod:`lacak.store.cache`: header, format
    number, key and checksum, then the note's board, goal, tiles and size); a
    bad file is reported once and rebuilt, never used. When the cache folder
    cannot be written, the database is built and used all the same, with a
    one-line warning.

    :param build: build it when it is not cached (else return ``None``).
    :param force: build even when cached, replacing the file.
    :param progress: called during a build with ``(tiles, level, reached, total)``.
    :param must_cache: raise :class:`~lacak.CacheError` when the database
        cannot be saved (``lacak sliding pdb build``), checked before building.
    :returns: the array (read-only, memory-mapped when loaded), or ``None`` when
        it is not cached (or its file is damaged) and ``build`` is false.
    :raises CacheError: ``must_cache`` and the cache folder cannot be written.
    """
    # numpy, and the builders, only when a database is loaded or built (the registered
    # heuristics import this module)
    import numpy as np

    from .build import build_database

    goal = tuple(goal)
    tiles = tuple(tiles)
    n = width * height
    size = math.perm(n, len(tiles))
    what = f"the pattern database of tiles {','.join(map(str, tiles))} on {height}x{width}"
    with lock:
        path = database_path(width, height, goal, tiles)
        if not force:
            expected = {"width": width, "height": height, "goal": list(goal),
                        "tiles": list(tiles), "entries": size}  # fmt: skip

            def decode(artefact: lacak.store.cache.Artefact) -> Any:
                for field, value in expected.items():
                    if artefact.meta.get(field) != value:
                        raise ValueError(f"its note has another {field}")
                if len(artefact.payload) != size:
                    raise ValueError(f"{len(artefact.payload):,} entries, not {size:,}")
                return np.frombuffer(artefact.payload, dtype=np.uint8)

            data = lacak.store.cache.load(path, _FORMAT, path.stem if path else None, decode,
                                    mmap=True, rebuild=build, what=what)  # fmt: skip
            if data is not None:
                return data
        if not build:
            return None
        if must_cache:  # before a build that may take minutes, not after it
            path = database_path(width, height, goal, tiles, required=True)
        started = time.perf_counter()
        data = None if force else shipped.unpack(database_name(width, height, goal, tiles), size)
        if data is not None:  # (checked against its digest: the builder's bytes)
            return _save(path, data, width, height, goal, tiles, started, must_cache, what,
                         "shipped")  # fmt: skip
        deadline = lacak.current_deadline()  # (a time of lacak.limits.now())
        label = ",".join(map(str, tiles))
        shown = f"pattern database of tiles {label} ({height}x{width})"

        with lacak.progress.task(shown, total=size) as task:

            def report(level: int, reached: int, total: int) -> None:
                if deadline is not None and lacak.limits.now() >= deadline:
                    raise BuildStopped(
                        f"the time limit was reached while building the pattern database of "
                        f"tiles {label} on {height}x{width} (level {level}, {reached:,} of "
                        f"{total:,} placements); build it ahead with 'lacak sliding pdb build'"
                    )
                task.update(completed=reached, description=f"{shown}, level {level}")
                if progress:
                    progress(tiles, level, reached, total)

            data = build_database(width, height, goal, tiles, progress=report)
        return _save(path, data, width, height, goal, tiles, started, must_cache, what, "built")


def _save(
    path: Path | None,
    data: Any,
    width: int,
    height: int,
    goal: tuple[int, ...],
    tiles: tuple[int, ...],
    started: float,
    must_cache: bool,
    what: str,
    source: str,
) -> Any:
    """Keep the database ``data`` (built or unpacked since ``started``) in the cache, with
    its note; returns it as a contiguous uint8 array."""
    import numpy as np  # (deferred: with the databases)

    seconds = time.perf_counter() - started
    size = int(data.size)
    # a group filling (almost) the whole board has placements never reached; counted
    # a slice at a time, so that no copy of a database of half a gigabyte is made
    counts = np.zeros(256, dtype=np.int64)
    for begin in range(0, size, 1 << 24):
        counts += np.bincount(data[begin : begin + (1 << 24)], minlength=256)
    counts[UNREACHED] = 0
    values = np.flatnonzero(counts)
    reached_count = int(counts.sum())
    note = {
        "format": FORMAT,
        "width": width,
        "height": height,
        "goal": list(goal),
        "tiles": list(tiles),
        "entries": size,
        "bytes": int(data.nbytes),
        "max": int(values.max()),
        "mean": round(float((counts * np.arange(256)).sum() / reached_count), 4),
        "unreachable": int(size - reached_count),
        "seconds": round(seconds, 3),
        "source": source,
        "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    data = np.ascontiguousarray(data, dtype=np.uint8)
    lacak.store.cache.save(path, _FORMAT, path.stem if path else "", [data], meta=note,
                           required=must_cache, what=what)  # fmt: skip
    return data


#: The keys of a database's note and the types their values must have.
_NOTE_TYPES: dict[str, tuple[type, ...]] = {
    "width": (int,),
    "height": (int,),
    "goal": (list,),
    "tiles": (list,),
    "entries": (int,),
    "max": (int,),
    "mean": (int, float),
    "seconds": (int, float),
}


def _is_note(note: Any) -> bool:
    """Whether ``note`` (read from JSON) looks like a note :func:`load_or_build` wrote."""
    if not isinstance(note, dict):
        return False
    for key, types in _NOTE_TYPES.items():
        value = note.get(key)
        if isinstance(value, bool) or not isinstance(value, types):
            return False
    return all(
        isinstance(t, int) and not isinstance(t, bool) for t in [*note["goal"], *note["tiles"]]
    )


def inspect_database(path: Path, *, verify: bool = True) -> dict[str, Any] | None:
    """The note of the database file ``path`` with its state, or ``None`` if it has no note.

    Besides the note written at build time, the dict has ``file``,
    ``bytes_on_disk``, ``lacak_version`` (of the lacak that wrote it) and
    ``status``: ``"ok"`` (verified: header, checksum, and a note that
    matches the file's name and size), ``"not verified"`` (``verify=False``
    and the header is sound), or what is wrong (``"checksum mismatch"``, ...).
    """
    found = lacak.store.cache.inspect(path, _FORMAT, verify=verify)
    note = found.meta
    if note is None or not _is_note(note):
        return None
    note = dict(note)
    problem = found.problem
    width, height, goal, tiles = note["width"], note["height"], note["goal"], note["tiles"]
    if problem is None and (
        path.name != database_name(width, height, goal, tiles) or found.key != path.stem
    ):
        problem = "its name does not match its note"
    if problem is None and found.payload_size != note["entries"]:
        problem = f"{found.payload_size:,} entries, the note says {note['entries']:,}"
    note["file"] = str(path)
    note["bytes_on_disk"] = found.size
    note["lacak_version"] = found.lacak_version
    note["status"] = problem or ("ok" if found.verified else "not verified")
    return note


def cached_databases(*, verify: bool = True) -> list[dict[str, Any]]:
    """The databases in the cache folder (see :func:`inspect_database`), damaged ones included.

    Only ``status == "ok"`` ones are used; files without a readable note
    (another format, not a database) are left out (see :func:`other_files`).

    :param verify: read each file whole to check its checksum (else only headers).
    """
    out = []
    for path in sorted(cache_folder().glob("*.pdb")):
        note = inspect_database(path, verify=verify)
        if note is not None:
            out.append(note)
    return out


def other_files() -> tuple[int, int]:
    """``(count, bytes)`` of the files in the cache folder that are no readable database.

    Databases of older formats (``.npy`` and ``.json`` files), damaged
    headers, anything else; lacak never reads them, and they may be deleted.

    :raises CacheError: the folder cannot be created or read.
    """
    count = size = 0
    folder = cache_folder()
    try:
        paths = list(folder.iterdir())
    except OSError as error:
        raise lacak.CacheError(
            f"cannot read the cache folder {folder} ({error.strerror or error}); "
            "set LACAK_CACHE_DIR to a folder lacak can read"
        ) from None
    for path in paths:
        if path.name.startswith(lacak.store.cache.TEMP_PREFIX) or not path.is_file():
            continue
        if path.suffix == ".pdb" and inspect_database(path, verify=False) is not None:
            continue
        try:
            size += path.stat().st_size
        except OSError:  # removed meanwhile
            continue
        count += 1
    return count, size


def write_shipped(
    partitions: Sequence[tuple[str, int, int, str]] = shipped.SHIPPED, folder: Path | None = None
) -> None:
    """Build the databases of ``partitions`` (see :data:`lacak_sliding.pdb.shipped.SHIPPED`)
    with the builder, not the cache, and write them compressed, with ``SHA256SUMS``, to
    ``folder`` (default: the package's, :mod:`lacak_sliding.pdb.shipped`): a developer's
    tool, after a change of the format or the builder."""
    import lzma  # (deferred: a developer's tool)
    import sys

    from ..puzzle import goal_tiles
    from .build import build_database
    from .partition import Partition

    folder = shipped.FOLDER if folder is None else folder
    folder.mkdir(parents=True, exist_ok=True)
    sums = []
    for label, rows, cols, blank in partitions:
        goal = goal_tiles(cols, rows) if blank == "last" else tuple(range(rows * cols))
        partition = Partition.named(label, cols, rows, goal)
        for tiles in partition.groups:
            if len(tiles) < 2:
                continue
            data = build_database(cols, rows, goal, tiles).tobytes()
            name = shipped.file_name(database_name(cols, rows, goal, tiles))
            packed = lzma.compress(data, format=lzma.FORMAT_XZ, preset=9 | lzma.PRESET_EXTREME)
            (folder / name).write_bytes(packed)
            sums.append(f"{hashlib.sha256(data).hexdigest()}  {name}\n")
            print(f"{name}: {len(data):,} entries, {len(packed):,} bytes", file=sys.stderr)
    (folder / "SHA256SUMS").write_text("".join(sorted(sums, key=lambda s: s[66:])), "ascii")
    shipped.forget()
