"""Where lacak keeps user data (drop-in dictionaries) and caches (see :mod:`lacak.store.cache`),
and how it reads a user's files.

``LACAK_DATA_DIR`` and ``LACAK_CACHE_DIR`` override the platform folders
chosen by :mod:`platformdirs`.

Every file a user hands lacak (a dictionary, a puzzle or maze file, standard
input) is read by :func:`read_bounded`: it must be a regular file, and it is
read up to a bound, :data:`DICTIONARY_LIMIT_MB` for dictionaries and
:data:`INPUT_LIMIT_MB` for the rest (``LACAK_MAX_DICTIONARY_MB`` and
``LACAK_MAX_INPUT_MB`` change them). ``/dev/zero``, a FIFO, a folder or an
endless pipe is one clear error, never a read without end.
"""

from __future__ import annotations

import errno
import math
import os
import stat
from pathlib import Path
from typing import BinaryIO

from ..errors import CacheError, InvalidInputError, InvalidOptionError

__all__ = [
    "DICTIONARY_LIMIT_MB",
    "INPUT_LIMIT_MB",
    "cache_dir",
    "dictionary_limit",
    "file_kind",
    "input_limit",
    "open_regular",
    "read_bounded",
    "user_data_dir",
]


def user_data_dir() -> Path:
    """The folder for the user's own lacak data (not created)."""
    override = os.environ.get("LACAK_DATA_DIR")
    if override:
        return Path(override)
    import platformdirs  # (deferred: only without LACAK_CACHE_DIR)

    return Path(platformdirs.user_data_dir("lacak", appauthor=False))


def _cache_path(*parts: str) -> Path:
    """The cache folder's path (not created)."""
    override = os.environ.get("LACAK_CACHE_DIR")
    if override:
        base = Path(override)
    else:
        import platformdirs  # (deferred: only without LACAK_CACHE_DIR)

        base = Path(platformdirs.user_cache_dir("lacak", appauthor=False))
    return base.joinpath(*parts)


def cache_dir(*parts: str) -> Path:
    """A cache folder (``cache_dir("pdb")``), created if missing.

    Files in it are read and written through :mod:`lacak.store.cache`.

    :raises CacheError: the folder cannot be created (the message names it and
        says to set ``LACAK_CACHE_DIR`` to a writable folder).
    """
    path = _cache_path(*parts)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        problem, todo = os_failure("create the cache folder", path, error)
        raise CacheError(f"{problem}; {todo}") from None
    return path


# -- reading a user's file ------------------------------------------------------------------

#: Megabytes (10**6 bytes) of a dictionary file lacak reads at most, unless
#: ``LACAK_MAX_DICTIONARY_MB`` says otherwise: far above any real word list (the
#: packaged ones are under 2 MB), far below what would exhaust a machine's memory once
#: parsed (a word list costs about eight times its size in memory while it is read).
DICTIONARY_LIMIT_MB = 256
#: Megabytes of a puzzle file or of standard input lacak reads at most, unless
#: ``LACAK_MAX_INPUT_MB`` says otherwise: the text of the largest puzzle lacak takes
#: (a maze of 2**24 cells, about 40 MB as JSON) with room to spare.
INPUT_LIMIT_MB = 64

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def _limit(variable: str, default_mb: int) -> int:
    text = os.environ.get(variable, "").strip()
    if not text:
        return default_mb * 1_000_000
    try:
        megabytes = float(text)
    except ValueError:
        megabytes = math.nan
    if not megabytes > 0 or math.isinf(megabytes):
        raise InvalidOptionError(
            f"{variable}={text!r} is not a number of megabytes above 0 (default {default_mb})"
        )
    return max(1, int(megabytes * 1_000_000))


def dictionary_limit() -> int:
    """Bytes of a dictionary file lacak reads at most (:data:`DICTIONARY_LIMIT_MB`).

    :raises InvalidOptionError: ``LACAK_MAX_DICTIONARY_MB`` is not a number above 0.
    """
    return _limit("LACAK_MAX_DICTIONARY_MB", DICTIONARY_LIMIT_MB)


def input_limit() -> int:
    """Bytes of a puzzle file or of standard input lacak reads at most (:data:`INPUT_LIMIT_MB`).

    :raises InvalidOptionError: ``LACAK_MAX_INPUT_MB`` is not a number above 0.
    """
    return _limit("LACAK_MAX_INPUT_MB", INPUT_LIMIT_MB)


def file_kind(mode: int) -> str:
    """What a file of ``mode`` (``st_mode``) is, in words ("a FIFO"), when not a regular file."""
    for test, kind in _KINDS:
        if test(mode):
            return kind
    return "not a regular file"


def open_regular(path: str | os.PathLike[str]) -> tuple[int, os.stat_result]:
    """Open ``path`` for reading without ever blocking, and say what it is.

    The file is opened with ``O_NONBLOCK``, so a FIFO no one writes to (which a plain
    ``open`` waits on for ever) or a device is open at once, and then checked with
    ``fstat`` on the open descriptor, so what is checked is what is read. A regular
    file reads the same with the flag as without it.

    :returns: the descriptor (the caller closes it) and its ``fstat``; the caller
        refuses what :func:`stat.S_ISREG` does not accept (:func:`file_kind` says what it is).
    :raises OSError: it cannot be opened (missing, no permission, a NUL in the name, ...).
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0))
    except ValueError:  # a NUL character in the name, which no file can have
        message = "no file has a NUL character in its name"
        raise FileNotFoundError(errno.ENOENT, message, os.fspath(path)) from None
    try:
        return fd, os.fstat(fd)
    except BaseException:  # pragma: no cover - fstat of an open descriptor hardly fails
        os.close(fd)
        raise


def read_bounded(source: str | os.PathLike[str] | BinaryIO, limit: int, *, what: str,
                 setting: str) -> bytes:  # fmt: skip
    """The bytes of a user's regular file, or of a stream such as standard input, refused
    past ``limit`` bytes.

    A path must name a regular file (:func:`open_regular`: a folder, a FIFO, a device
    or a socket is refused before anything is read), of at most ``limit`` bytes by its
    size; a stream is read until its end or ``limit + 1`` bytes, whichever comes first.
    Nothing more than ``limit + 1`` bytes is ever read or held.

    :param limit: most bytes (:func:`dictionary_limit`, :func:`input_limit`).
    :param what: what the source is, for the message ("dictionary files").
    :param setting: the variable that changes the limit, for the message.
    :raises InvalidInputError: ``<source> is not a regular file (a FIFO)``, or
        ``<source> is larger than N MB (the limit for <what>; <setting> ...)``.
    :raises OSError: the file cannot be opened or read.
    """
    megabytes = f"{limit / 1_000_000:g} MB"
    if isinstance(source, (str, os.PathLike)):
        name = os.fspath(source)
        fd, info = open_regular(source)
        try:
            if not stat.S_ISREG(info.st_mode):
                raise InvalidInputError(f"{name} is not a regular file ({file_kind(info.st_mode)})")
            data = b""
            if info.st_size <= limit:  # (a file may grow while it is read: limit + 1 at most)
                with open(fd, "rb", closefd=False) as handle:
                    data = handle.read(limit + 1)
        finally:
            os.close(fd)
        size = max(info.st_size, len(data))
    else:
        name = "standard input"
        data = source.read(limit + 1)
        size = len(data)
    if size > limit:
        raise InvalidInputError(
            f"{name} is larger than {megabytes} (the limit for {what}; "
            f"set {setting} to a larger number of megabytes to read it)"
        )
    return data


def os_failure(action: str, path: Path, error: OSError) -> tuple[str, str]:
    """``("cannot <action> <path> (<reason>)", what to do)`` for an :class:`OSError`."""
    reason = error.strerror or str(error)
    if isinstance(error, FileExistsError) or (action.startswith("create") and os.path.isfile(path)):
        reason = "a file is in its place"
    if error.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
        todo = "free some space, or set LACAK_CACHE_DIR to a folder on another disk"
    else:
        todo = "set LACAK_CACHE_DIR to a writable folder"
    return f"cannot {action} {path} ({reason})", todo
