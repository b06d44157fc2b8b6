"""Pattern databases shipped inside the package, so that a first 15-puzzle solve builds nothing.

The default 4x4 heuristic, ``pdb-663``, needs two six-tile databases of 5.8
million entries for each goal. Building
them takes 6-7 s with the compiled builder (after its own first compile) and
half a minute with numpy: the wait that made a newcomer's first ``lacak
sliding solve`` of a 15-puzzle take 25-45 s. lacak ships them instead for the
two goals of the documentation's 15-puzzles (blank last, lacak's default, and
blank first, Korf's), LZMA compressed (about 1.8 MB a goal), in the ``shipped/`` folder next to this
module, with their SHA-256 digests in ``shipped/SHA256SUMS`` (the format of
``sha256sum``). A first use unpacks one in about 0.1 s, checks its digest and
size, and keeps it in the cache folder like a database built here
(:func:`lacak_sliding.pdb.cache.load_or_build`); a shipped file that does not
match its digest is reported once as a :class:`~lacak.CacheWarning` and the
database is built instead, never used damaged.

The files are named like the cache's (:func:`lacak_sliding.pdb.cache.database_path`,
``.xz`` for ``.pdb``), so that a change of the cache key or format leaves them
unused rather than wrong; a test checks that every shipped file is the
database the builder makes, byte for byte, and that the default partition's
groups are all shipped. To write them again (after a format change)::

    python -c "from lacak_sliding.pdb import cache; cache.write_shipped()"
"""

from __future__ import annotations

import hashlib
import lzma
import warnings
from pathlib import Path
from typing import Any

import lacak

__all__ = ["FOLDER", "SHIPPED", "digests", "file_name", "forget", "has", "unpack"]

#: Where the compressed databases and their digests are.
FOLDER = Path(__file__).parent / "shipped"
#: The partitions shipped: ``(name, rows, cols, blank)``, ``blank`` ``"last"`` (lacak's
#: default goal: tiles in order, blank last) or ``"first"`` (Korf's: blank first).
SHIPPED = (("663", 4, 4, "last"), ("663", 4, 4, "first"))
#: Largest compressed file read (the six-tile tables are about 0.9 MB each).
_MOST_BYTES = 16 << 20

_digests: dict[str, str] = {}
_warned: set[str] = set()


def digests() -> dict[str, str]:
    """``{file name: SHA-256 of the unpacked table}`` from ``SHA256SUMS`` (empty without it)."""
    if not _digests:
        try:
            text = (FOLDER / "SHA256SUMS").read_text(encoding="ascii")
        except (OSError, UnicodeDecodeError):
            return {}
        for line in text.splitlines():
            digest, _, name = line.partition("  ")
            if len(digest) == 64 and name:
                _digests[name] = digest
    return _digests


def file_name(database_name: str) -> str:
    """The shipped file of the database of that cache file name."""
    return database_name.removesuffix(".pdb") + ".xz"


def has(database_name: str) -> bool:
    """Whether the database of that cache file name (``4x4-6tiles-<key>.pdb``) is shipped."""
    return file_name(database_name) in digests()


def unpack(database_name: str, entries: int) -> Any:
    """The shipped database of that cache file name as a uint8 numpy array, or ``None``
    when it is not shipped or its file does not match its digest and size (reported
    once as a :class:`~lacak.CacheWarning`: the caller builds it instead)."""
    name = file_name(database_name)
    digest = digests().get(name)
    if digest is None:
        return None
    path = FOLDER / name
    try:
        with path.open("rb") as file:
            packed = file.read(_MOST_BYTES + 1)
        if len(packed) > _MOST_BYTES:
            raise ValueError("larger than any shipped database")
        data = lzma.LZMADecompressor(format=lzma.FORMAT_XZ).decompress(packed, entries + 1)
        if len(data) != entries:
            raise ValueError(f"{len(data):,} entries, not {entries:,}")
        if hashlib.sha256(data).hexdigest() != digest:
            raise ValueError("its SHA-256 does not match SHA256SUMS")
    except (OSError, ValueError, EOFError, lzma.LZMAError) as error:
        if name not in _warned:
            _warned.add(name)
            warnings.warn(
                f"the pattern database shipped with lacak, {path}, cannot be used ({error}); "
                "building it instead (reinstalling lacak restores the file)",
                lacak.CacheWarning,
                stacklevel=2,
            )
        return None
    import numpy as np  # (deferred: only when a database is unpacked)

    return np.frombuffer(data, dtype=np.uint8)


def forget() -> None:
    """Read ``SHA256SUMS`` again on next use (after the files were written again)."""
    _digests.clear()
    _warned.clear()
