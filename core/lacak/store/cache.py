"""Verified cache files: one reader and one writer for every artefact lacak keeps on disk.

Compiled dictionaries, Boggle word graphs, pattern databases, the machine code
of compiled engines (:mod:`lacak.store.compiled`), and whatever a plugin caches next,
are each one file in a folder of
:func:`lacak.store.paths.cache_dir`: a header, then the payload. The header says
what the file is and who wrote it, and carries a checksum of everything after
the magic, so one flipped bit, a truncated write or a file of some other
program is noticed before anything in it is used::

    offset  bytes  field
    0       8      magic b"\\x89LACAK\\r\\n"
    8       4      header length H (little-endian), a multiple of 64: where the payload starts
    12      8      payload length P (little-endian)
    20      16     checksum: XXH3-128 of bytes 8-19 and 36 to the end (header fields and payload)
    36      H-36   info: a UTF-8 JSON object padded with spaces, {"tag": "lacak-boggle-dawg",
                   "format": 4, "lacak": "0.1.0", "key": "...", "meta": {...}}
    H       P      payload (64-byte aligned, so arrays in it can be memory-mapped)

:func:`load` checks, in this order, that the file is a regular file (it is
opened without waiting, so a FIFO or a device in its place is refused at once,
never read), the magic, the two lengths against the file's size, the
checksum, and the info: the artefact's tag (:attr:`CacheFormat.tag`), its format number
(:attr:`CacheFormat.version`) and the key the caller expects (the file's
name, usually a hash of what it was built from). Only then does the caller's
``decode`` see the payload, and anything ``decode`` raises (an inconsistent
``meta``, a payload of the wrong shape) also marks the file bad. A bad file
is never used: it is reported once per process as a :class:`CacheWarning`
(the command line shows ``warning: rebuilding <what> <file> (<why>)``), and
the caller rebuilds it and :func:`save` replaces it.

The lacak version that wrote a file is recorded (``lacak sliding pdb list``
shows it) but does not decide: the format number does. An upgrade that keeps
a format keeps its caches (a 7-8 pattern database costs 20 minutes to
build); a change of layout or content bumps the number, and the artefacts
of the old number are rebuilt once.

:func:`save` writes atomically: a temporary file named
``.lacak-tmp-<host>-<pid>-<random>`` in the same folder, flushed and
``fsync``-ed, renamed over the old file with :func:`os.replace`, and the
folder ``fsync``-ed where the system allows it. A reader sees the old file
or the new one, never half of one. Temporary files left by a killed writer
(its process is gone, or the file is more than :data:`STALE_SECONDS` old)
are removed the first time a process uses the folder (one directory scan).

A folder that cannot be created or written (read-only, full, not a folder)
is reported once as a :class:`CacheWarning` naming the folder and what to do,
and lacak carries on without caching; callers whose whole purpose is to
write the cache (``lacak sliding pdb build``) ask for ``required=True`` and
get a one-line :class:`~lacak.CacheError` instead. No bare :class:`OSError`
leaves this module.

The checksum is XXH3-128 (:pypi:`xxhash`): on this project's machine it
hashes the real payloads at about 60 GB/s (0.1 ms for the 6.7 MB English
word graph, 0.09 ms per 5.8 MB 6-tile database), where BLAKE2b takes 7 and
6 ms and SHA-256 3.6 and 3.2 ms; ``bench/caches.py`` measures the loads. It
detects damage, not tampering: it is not a signature.

.. rubric:: Examples

>>> import tempfile, pathlib
>>> folder = tempfile.TemporaryDirectory()
>>> fmt = CacheFormat(tag="lacak-example", version=1, what="the example table")
>>> path = pathlib.Path(folder.name) / "squares.bin"
>>> save(path, fmt, "squares", [bytes([0, 1, 4, 9])], meta={"count": 4})
True
>>> load(path, fmt, "squares", lambda a: (list(a.payload), a.meta))
([0, 1, 4, 9], {'count': 4})
>>> inspect(path, fmt).problem is None
True
>>> folder.cleanup()
"""

from __future__ import annotations

import contextlib
import fnmatch
import json
import mmap as _mmap
import os
import stat
import struct
import threading
import time
import warnings
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import attrs

from ..errors import CacheError
from ..version import __version__
from .paths import _cache_path, file_kind, open_regular
from .paths import os_failure as _failure

__all__ = [
    "MAGIC",
    "STALE_SECONDS",
    "TEMP_PREFIX",
    "Artefact",
    "CacheFormat",
    "CacheWarning",
    "Inspection",
    "folder",
    "inspect",
    "load",
    "save",
    "trim",
]

#: The first eight bytes of every cache file (a non-ASCII byte first, as in PNG,
#: so a text file never looks like one; ``\r\n`` catches newline conversion).
MAGIC = b"\x89LACAK\r\n"
#: Start of the name of every temporary file :func:`save` writes.
TEMP_PREFIX = ".lacak-tmp-"
#: Age (seconds) after which any temporary file in a cache folder counts as abandoned.
STALE_SECONDS = 6 * 3600

_FIXED = struct.Struct("<8sIQ16s")  # magic, header length, payload length, checksum
_ALIGN = 64
_MAX_HEADER = 1 << 20
_REPORT_LIMIT = 200  # characters of a foreign value shown in a message

T = TypeVar("T")


class CacheWarning(UserWarning):
    """A cache file that was not used, or a cache folder lacak could not use.

    The message is one line: ``rebuilding <what> <file> (<why>)``, or which
    folder could not be used and what to do about it. Each is given once per
    process.
    """


@attrs.frozen
class CacheFormat:
    """One kind of cached artefact.

    :param tag: what the file is, written in its header (``"lacak-boggle-dawg"``);
        a file with another tag is foreign and not used.
    :param version: the format number; bump it whenever the layout or the
        content changes, and files of other numbers are rebuilt.
    :param what: the artefact in messages (``"the Boggle word graph"``).
    """

    tag: str
    version: int
    what: str


@attrs.frozen(kw_only=True)
class Artefact:
    """A verified cache file, handed to a ``decode`` function by :func:`load`."""

    #: The file.
    path: Path
    #: Its format number (that of the :class:`CacheFormat` it was loaded with).
    version: int
    #: The version of lacak that wrote it.
    lacak_version: str
    #: The key it was written under.
    key: str
    #: The JSON object given to :func:`save` as ``meta``.
    meta: dict[str, Any]
    #: The payload, read-only (backed by a memory map when loaded with ``mmap=True``).
    payload: memoryview = attrs.field(repr=False)


@attrs.frozen(kw_only=True)
class Inspection:
    """What :func:`inspect` found in a file: its header, and whether it is usable."""

    #: The file.
    path: Path
    #: Its size in bytes (0 when it cannot be read).
    size: int
    #: ``None`` when the file is usable; else why not (``"checksum mismatch"``, ...).
    problem: str | None
    #: Whether the checksum was computed (``verify=True``) rather than only the header read.
    verified: bool
    #: Header fields, when the header could be read: the tag, format number,
    #: lacak version, key and meta (else ``None``).
    tag: str | None = None
    version: int | None = None
    lacak_version: str | None = None
    key: str | None = None
    meta: dict[str, Any] | None = None
    #: Bytes of payload the header announces (0 when the header could not be read).
    payload_size: int = 0


class _Bad(Exception):
    """A cache file that must not be used, and why."""


_lock = threading.Lock()
_reported: set[tuple[Any, ...]] = set()
_cleaned: set[str] = set()


# -- folders -------------------------------------------------------------------------


def folder(*parts: str, required: bool = False, stale: Sequence[str] = ()) -> Path | None:
    """The cache folder ``cache_dir(*parts)``, created if missing, or ``None`` when unusable.

    The first call for a folder in a process removes temporary files that
    killed writers left there (see the module documentation), and files
    matching the glob patterns ``stale`` (temporary names of older lacak
    versions) once they are :data:`STALE_SECONDS` old.

    :param required: raise instead of warning when the folder cannot be
        created or written to.
    :returns: the folder, or ``None`` (after a one-line :class:`CacheWarning`)
        when it cannot be created.
    :raises CacheError: ``required`` and the folder cannot be created or written.
    """
    path = _cache_path(*parts)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        where, cause = path, error
        base = _cache_path()
        try:  # when the cache folder itself is the problem, say so (once for all its parts)
            base.mkdir(parents=True, exist_ok=True)
        except OSError as base_error:
            where, cause = base, base_error
        problem, todo = _failure("create the cache folder", where, cause)
        if required:
            raise CacheError(f"{problem}; {todo}") from None
        _warn_once(("folder", str(where)), f"{problem}, carrying on without caching; {todo}")
        return None
    _clean_once(path, stale)
    if required:
        _probe(path)
    return path


def _probe(path: Path) -> None:
    """Raise :class:`CacheError` unless a file can be created in ``path``."""
    tmp = path / _temp_name()
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    except OSError as error:
        problem, todo = _failure("write to the cache folder", path, error)
        raise CacheError(f"{problem}; {todo}") from None
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(tmp)


def _temp_name() -> str:
    return f"{TEMP_PREFIX}{_host()}-{os.getpid()}-{os.urandom(4).hex()}"


def _host() -> str:
    """This machine's name, as it appears in temporary file names (no ``-`` or separators)."""
    uname = getattr(os, "uname", None)
    if uname is not None:
        name = str(uname().nodename)
    else:  # pragma: no cover - Windows
        import platform  # (Windows only)

        name = platform.node()
    return "".join(ch if ch.isalnum() or ch in "._" else "_" for ch in name) or "host"


def _clean_once(path: Path, stale: Sequence[str]) -> None:
    key = str(path)
    with _lock:
        if key in _cleaned:
            return
        _cleaned.add(key)
    with contextlib.suppress(OSError):
        _clean(path, stale)


def _clean(path: Path, stale: Sequence[str]) -> None:
    """Remove abandoned temporary files from ``path`` (one scan of the folder)."""
    now = time.time()
    host = _host()
    with os.scandir(path) as entries:
        for entry in entries:
            name = entry.name
            ours = name.startswith(TEMP_PREFIX)
            if not ours and not any(fnmatch.fnmatchcase(name, p) for p in stale):
                continue
            try:
                info = entry.stat(follow_symlinks=False)
                if not stat.S_ISREG(info.st_mode):
                    continue
                abandoned = now - info.st_mtime > STALE_SECONDS
                if ours and not abandoned:
                    parts = name[len(TEMP_PREFIX) :].rsplit("-", 2)  # host, pid, random
                    if len(parts) == 3 and parts[0] == host and parts[1].isdigit():
                        abandoned = not _alive(int(parts[1]))
                if abandoned:
                    os.unlink(entry.path)
            except OSError:
                continue


def _alive(pid: int) -> bool:
    """Whether process ``pid`` exists on this machine (``True`` when it cannot be told)."""
    if os.name == "nt":  # pragma: no cover - os.kill(pid, 0) would end the process there
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: it exists, under another user
        return True
    return True


# -- reporting ------------------------------------------------------------------------


def _warn_once(key: tuple[Any, ...], message: str) -> None:
    with _lock:
        if key in _reported:
            return
        _reported.add(key)
    warnings.warn(" ".join(message.split()), CacheWarning, stacklevel=4)


def _report(path: Path, what: str, why: str, rebuild: bool) -> None:
    try:
        info = os.stat(path)
        identity: tuple[Any, ...] = (info.st_ino, info.st_size, info.st_mtime_ns)
    except OSError:
        identity = ()
    doing = "rebuilding" if rebuild else "not using"
    _warn_once(("file", str(path), why, *identity), f"{doing} {what} {path} ({why})")


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= _REPORT_LIMIT else text[:_REPORT_LIMIT] + "..."


# -- reading --------------------------------------------------------------------------


def _checksum(view: memoryview) -> bytes:
    import xxhash  # (deferred: a compiled extension, loaded when a file is checked)

    hasher = xxhash.xxh3_128(view[8:20])
    hasher.update(view[_FIXED.size :])
    return hasher.digest()


def _read(path: Path, use_mmap: bool) -> tuple[memoryview, int]:
    """The file's bytes (``FileNotFoundError`` when there is none; :class:`_Bad` otherwise)."""
    try:
        fd, info = open_regular(path)  # never waits: a FIFO in its place is refused at once
    except FileNotFoundError:
        raise
    except IsADirectoryError:
        raise _Bad("a folder is in its place") from None
    except OSError as error:
        raise _Bad(f"cannot be read: {error.strerror or error}") from None
    try:
        if stat.S_ISDIR(info.st_mode):
            raise _Bad("a folder is in its place")
        if not stat.S_ISREG(info.st_mode):
            raise _Bad(f"{file_kind(info.st_mode)} is in its place")
        size = info.st_size
        if size == 0:
            raise _Bad("empty file")
        try:
            if use_mmap:
                data: Any = _mmap.mmap(fd, 0, access=_mmap.ACCESS_READ)
            else:
                with open(fd, "rb", closefd=False) as handle:
                    data = handle.read()
        except OSError as error:
            raise _Bad(f"cannot be read: {error.strerror or error}") from None
        return memoryview(data), len(data)
    finally:
        os.close(fd)


def _header(view: memoryview, size: int, verify: bool) -> dict[str, Any]:
    """Check the fixed fields (and the checksum when ``verify``); return the info object."""
    if bytes(view[: len(MAGIC)]) != MAGIC[:size]:
        raise _Bad("not a lacak cache file")
    if size < _FIXED.size:
        raise _Bad(f"truncated: {size} bytes")
    _magic, header, payload, checksum = _FIXED.unpack_from(view)
    if header < _FIXED.size or header % _ALIGN or header > _MAX_HEADER:
        raise _Bad("damaged header")
    if header + payload != size:
        raise _Bad(f"{size:,} bytes where the header announces {header + payload:,}")
    if verify and _checksum(view) != checksum:
        raise _Bad("checksum mismatch")
    try:
        info = json.loads(bytes(view[_FIXED.size : header]).decode("utf-8"))
    except (ValueError, RecursionError):
        raise _Bad("damaged header") from None
    if not isinstance(info, dict):
        raise _Bad("damaged header")
    for name, kind in (("tag", str), ("lacak", str), ("key", str), ("meta", dict)):
        if not isinstance(info.get(name), kind):
            raise _Bad(f"damaged header ({name!r} is {_short(info.get(name))})")
    version = info.get("format")
    if not isinstance(version, int) or isinstance(version, bool):
        raise _Bad(f"damaged header ('format' is {_short(version)})")
    return info


def _check(info: dict[str, Any], fmt: CacheFormat, key: str | None) -> None:
    if info["tag"] != fmt.tag:
        raise _Bad(f"a {_short(info['tag'])} file, not {fmt.tag!r}")
    if info["format"] != fmt.version:
        raise _Bad(
            f"format {info['format']} written by lacak {_short(info['lacak'])}; "
            f"this lacak reads format {fmt.version}"
        )
    if key is not None and info["key"] != key:
        raise _Bad(f"written for key {_short(info['key'])}, not {key!r}")


def load(
    path: Path | None,
    fmt: CacheFormat,
    key: str | None,
    decode: Callable[[Artefact], T],
    *,
    mmap: bool = False,
    rebuild: bool = True,
    what: str | None = None,
    discard: bool = False,
) -> T | None:
    """Read and verify a cache file, then ``decode`` it.

    :param path: the file (``None``, as :func:`folder` gives for an unusable
        folder, is a miss).
    :param fmt: what the file must be.
    :param key: the key it must have been written under (``None``: any).
    :param decode: turns the :class:`Artefact` into the cached value; any
        exception it raises (but :class:`MemoryError`) marks the file bad.
    :param mmap: map the file into memory instead of reading it (for large
        arrays; the payload stays backed by the file).
    :param rebuild: whether the caller rebuilds a bad file (only changes the
        warning's wording: "rebuilding" or "not using").
    :param what: the artefact in the warning, when more precise than
        ``fmt.what`` ("the compiled dictionary of eng.json").
    :param discard: remove a bad file once it is reported (a regular file only),
        for a caller that may not rebuild it at once: the next reader then finds
        no file rather than the same damage.
    :returns: what ``decode`` returned, or ``None`` when there is no file or
        it is bad (after a one-line :class:`CacheWarning`, once per process).
    """
    if path is None:
        return None
    try:
        view, size = _read(path, mmap)
        info = _header(view, size, verify=True)
        _check(info, fmt, key)
    except FileNotFoundError:
        return None
    except _Bad as bad:
        _report(path, what or fmt.what, str(bad), rebuild)
        if discard:
            _discard(path)
        return None
    start = _FIXED.unpack_from(view)[1]
    artefact = Artefact(
        path=path,
        version=info["format"],
        lacak_version=info["lacak"],
        key=info["key"],
        meta=info["meta"],
        payload=view[start:].toreadonly(),
    )
    try:
        return decode(artefact)
    except MemoryError:
        raise
    except Exception as error:
        message = " ".join(str(error).split()) or type(error).__name__
        _report(path, what or fmt.what, f"unusable content: {message[:_REPORT_LIMIT]}", rebuild)
        if discard:
            _discard(path)
        return None


def _discard(path: Path) -> None:
    """Remove the bad file ``path`` if it is a regular file (a folder, a FIFO, a link are
    left where they are; a file another process just wrote in its place may go too,
    which costs that process's work only)."""
    with contextlib.suppress(OSError):
        if stat.S_ISREG(os.lstat(path).st_mode):
            os.unlink(path)


def inspect(path: Path, fmt: CacheFormat | None = None, *, verify: bool = True) -> Inspection:
    """Look at a cache file without using it (for listings such as ``lacak sliding pdb list``).

    :param fmt: when given, a file of another tag or format number is a problem.
    :param verify: compute the checksum (reads the whole file); else only the header is read.
    :returns: the :class:`Inspection`; never raises for a bad or missing file.
    """
    try:
        view, size = _read(path, use_mmap=True)
    except FileNotFoundError:
        return Inspection(path=path, size=0, problem="missing", verified=False)
    except _Bad as bad:
        return Inspection(path=path, size=0, problem=str(bad), verified=False)
    try:
        info = _header(view, size, verify=False)
    except _Bad as bad:
        return Inspection(path=path, size=size, problem=str(bad), verified=False)
    problem = None
    try:
        if fmt is not None:
            _check(info, fmt, None)
        if verify:
            _header(view, size, verify=True)
    except _Bad as bad:
        problem = str(bad)
    return Inspection(
        path=path,
        size=size,
        problem=problem,
        verified=verify,
        tag=info["tag"],
        version=info["format"],
        lacak_version=info["lacak"],
        key=info["key"],
        meta=info["meta"],
        payload_size=size - _FIXED.unpack_from(view)[1],
    )


# -- writing --------------------------------------------------------------------------


def _bytes_of(chunk: Any) -> memoryview:
    view = memoryview(chunk)
    if not view.c_contiguous:
        raise ValueError("a cache payload chunk must be contiguous")
    return view.cast("B") if view.format != "B" or view.ndim != 1 else view


def save(
    path: Path | None,
    fmt: CacheFormat,
    key: str,
    payload: Iterable[Any],
    *,
    meta: dict[str, Any] | None = None,
    required: bool = False,
    what: str | None = None,
) -> bool:
    """Write a cache file atomically (see the module documentation).

    :param path: the file (``None``: nothing is written).
    :param fmt: the artefact's format.
    :param key: the key :func:`load` will expect (usually the file's name).
    :param payload: the payload, as buffers written one after the other
        (``bytes``, ``array.array``, contiguous numpy arrays, ...).
    :param meta: a JSON object kept in the header (small: sizes, columns, notes).
    :param required: raise instead of warning when the file cannot be written.
    :param what: the artefact in messages, when more precise than ``fmt.what``.
    :returns: whether the file was written; when not, a one-line
        :class:`CacheWarning` (once per folder and reason) says why and what to do.
    :raises CacheError: ``required`` and the file cannot be written.
    """
    if path is None:
        return False
    chunks = [_bytes_of(chunk) for chunk in payload]
    size = sum(chunk.nbytes for chunk in chunks)
    info = {"tag": fmt.tag, "format": fmt.version, "lacak": __version__, "key": key,
            "meta": meta or {}}  # fmt: skip
    text = json.dumps(info, ensure_ascii=True, separators=(",", ":")).encode("ascii")
    header = -(-(_FIXED.size + len(text)) // _ALIGN) * _ALIGN
    text = text.ljust(header - _FIXED.size, b" ")
    import xxhash  # (deferred: a compiled extension, loaded when a file is checked)

    hasher = xxhash.xxh3_128(struct.pack("<IQ", header, size))
    hasher.update(text)
    for chunk in chunks:
        hasher.update(chunk)
    head = _FIXED.pack(MAGIC, header, size, hasher.digest()) + text
    where = path.parent
    tmp = where / _temp_name()
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
        try:
            with open(fd, "wb") as out:
                out.write(head)
                for chunk in chunks:
                    out.write(chunk)
                out.flush()
                os.fsync(out.fileno())
            if os.path.isdir(path) and not os.path.islink(path):
                os.rmdir(path)  # an empty folder in its place; a full one makes replace fail
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    except OSError as error:
        problem, todo = _failure("write to the cache folder", where, error)
        if os.path.isdir(path):
            problem = f"cannot write {what or fmt.what} {path} (a folder is in its place)"
            todo = "remove that folder, or set LACAK_CACHE_DIR to another folder"
        if required:
            raise CacheError(f"{problem}; {todo}") from None
        _warn_once(
            ("write", str(where), error.errno), f"{problem}, carrying on without caching; {todo}"
        )
        return False
    _sync_folder(where)
    return True


def _sync_folder(path: Path) -> None:
    """``fsync`` the folder so that the rename is on disk (where folders can be opened)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:  # pragma: no cover - Windows cannot open folders
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - some file systems refuse
        pass
    finally:
        os.close(fd)


def _forget_reports() -> None:
    """Forget which warnings were given and which folders were cleaned (for tests)."""
    with _lock:
        _reported.clear()
        _cleaned.clear()


# -- a cap on what a long-running process leaves in the cache ---------------------------------


def _cache_file(path: str, since: float) -> tuple[float, int] | None:
    """``(modified, size)`` of a lacak cache file written at or after ``since``, or ``None``
    for anything else: a temporary file, a link, a FIFO or other non-regular file (never
    opened, so never waited for), an older file, another program's file."""
    if os.path.basename(path).startswith(TEMP_PREFIX):
        return None
    try:
        info = os.lstat(path)
        if not stat.S_ISREG(info.st_mode) or info.st_mtime < since:
            return None
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0))
        try:
            head = os.read(fd, len(MAGIC))
        finally:
            os.close(fd)
    except OSError:
        return None
    return (info.st_mtime, info.st_size) if head == MAGIC else None


def trim(root: Path, max_bytes: int, *, since: float = 0.0) -> list[Path]:
    """Remove lacak's cache files under ``root`` written at or after ``since`` (a
    :func:`time.time`), the largest first (the oldest first among files of one size),
    until those left of them take at most ``max_bytes``: a cap on what a long-running
    process (``lacak serve``) leaves. The largest go first because the files that grow
    with what is asked (a pattern database for each new goal) are the large ones,
    while the small ones (compiled machine code, markers) are few and used often.

    Only regular files that begin with :data:`MAGIC` count; files older than
    ``since``, temporary files of writers, links and other programs' files are never
    removed, and nothing is opened that could make this wait (a FIFO). A file in use
    elsewhere stays readable where it is open (it is unlinked, not overwritten); a
    later load rebuilds it. No error leaves this function: what cannot be listed or
    removed is left as it is.

    :returns: the files removed, in that order.
    """
    found: list[tuple[float, Path, int]] = []
    for folder, _subfolders, names in os.walk(root):
        for name in names:
            where = os.path.join(folder, name)
            seen = _cache_file(where, since)
            if seen is not None:
                found.append((seen[0], Path(where), seen[1]))
    found.sort(key=lambda item: (-item[2], item[0], str(item[1])))
    total = sum(size for _modified, _path, size in found)
    removed: list[Path] = []
    for _modified, path, size in found:  # (largest first)
        if total <= max_bytes:
            break
        try:
            path.unlink()
        except FileNotFoundError:  # removed meanwhile (another worker's trim)
            pass
        except OSError:  # (in use on Windows, a read-only folder): it stays, and counts
            continue
        else:
            removed.append(path)
        total -= size
    return removed
