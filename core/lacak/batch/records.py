"""A dataset's records and their digests (:mod:`lacak.batch.dataset`).

A job's :class:`Made` instance becomes a line of JSON, encoded the same way by every
process (the C encoder when there is one), that ends with its ``digest``: the XXH3-64
hash of the line's bytes before ``,\"digest\":``, seeded with the digest of the record
before it (:func:`record_digest`); the measures of a record (``length``, ``expanded``,
the kind's own) are read from it by path.
"""

from __future__ import annotations

import hashlib
import json
import json.encoder
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

import xxhash

if TYPE_CHECKING:

    pass



class Made(NamedTuple):
    """What a job gives back: its record's line, or why its draw was rejected (a tuple:
    cheap to send back from a worker)."""

    #: The record: one line of JSON (with its newline), or ``None`` for a rejected draw.
    line: bytes | None
    #: The job's seed.
    seed: int
    #: Whether the record is a success.
    ok: bool = True
    #: Why the draw was rejected (``"length"``, ``"kind"``), when it was.
    rejected: str | None = None
    #: A digest of the record's ``instance`` (for ``unique``), or ``None``.
    digest: bytes | None = None
    #: The summary's numbers, as ``(label, value)`` pairs.
    measures: tuple[tuple[str, float], ...] = ()
    #: Seconds the job took (not part of the record unless timings were asked for).
    seconds: float = 0.0
    #: The type of the record's error (``"LimitReachedError"``), when it has one.
    error: str | None = None


#: The one encoding of every record, here and in workers: compact JSON, UTF-8.
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)

def _c_encoder() -> Any:
    """The encoding of :data:`_ENCODER` by the C encoder, made once (``JSONEncoder.encode``
    makes one per call, half the cost of a small record); without the circular-reference
    check, which a record built fresh by each job does not need (a cycle is then a
    RecursionError, and the job's error). ``None`` where the json module has no C
    accelerator, or one whose interface or output differs from what is checked here (it
    is private to the module)."""
    make = getattr(json.encoder, "c_make_encoder", None)  # (not in typeshed)
    if make is None:
        return None
    try:
        encoder = make(
            None,  # markers: no circular-reference check
            _ENCODER.default,
            json.encoder.encode_basestring,  # ensure_ascii=False
            None,  # indent
            ":",
            ",",
            False,  # sort_keys
            False,  # skipkeys
            False,  # allow_nan
        )
        probe = {"a": [1, 2.5, None, True, "é\n"], "b": {"c": -3}}
        if "".join(encoder(probe, 0)) != _ENCODER.encode(probe):
            return None
    except Exception:  # another Python's private interface: the plain encoder serves
        return None
    return encoder


#: :func:`_c_encoder`'s encoder, or ``None``.
_C_ENCODER = _c_encoder()


def _dumps(data: Any) -> bytes:
    if _C_ENCODER is not None:
        return "".join(_C_ENCODER(data, 0)).encode()
    return _ENCODER.encode(data).encode()


def _digest(instance: Any) -> bytes:
    """What ``unique`` compares of a record's ``instance``: what the instance is, not how
    it was made, so the ``seed`` of an instance that records it (each job's own) is left
    out."""
    if isinstance(instance, dict) and "seed" in instance:
        instance = {key: value for key, value in instance.items() if key != "seed"}
    return hashlib.blake2b(_dumps(instance), digest_size=16).digest()


#: The record digest's hash: XXH3-64 of bytes, seeded with an integer; and the same as
#: its 8 bytes, big-endian (what a batch hexlifies into a record).
_XXH3 = xxhash.xxh3_64_intdigest
_XXH3_BYTES = xxhash.xxh3_64_digest
#: What follows a record's bytes: its digest, the closing brace, the newline.
_DIGEST_TAIL = b',"digest":"%016x"}\n'.__mod__
#: The bytes of a line from ``,"digest":"`` to its end.
DIGEST_BYTES = len(_DIGEST_TAIL(0))
_DIGEST_KEY, _DIGEST_END = b',"digest":"', b'"}\n'


def record_digest(head: bytes, previous: int = 0) -> int:
    """The digest of a record whose line's bytes before ``,"digest":`` are ``head``,
    following a record whose digest is ``previous`` (0 for a batch's first record): a
    line ends with ``,"digest":"%016x"}`` of it, then its newline.

    >>> line = b'{"index":0,"seed":1,"ok":true,"digest":"148c2a7044293947"}\\n'
    >>> f"{record_digest(line[:-DIGEST_BYTES]):016x}"
    '148c2a7044293947'
    """
    return _XXH3(head, previous)


def _at(data: Any, path: str) -> Any:
    """The value at a dotted ``path`` of JSON data (``None`` when absent)."""
    return _at_keys(data, path.split("."))


def _at_keys(data: Any, keys: Iterable[str]) -> Any:
    """The value at ``keys`` (outermost first) of JSON data (``None`` when absent)."""
    for key in keys:
        if not isinstance(data, Mapping) or key not in data:
            return None
        data = data[key]
    return data


#: What the summary reports of every solved instance.
_SOLVED_MEASURES = {"length": "result.length", "expanded": "result.stats.expanded"}


def _measure_paths(paths: Mapping[str, str]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The summary's numbers (``label: "dotted.path"``) as :func:`_measures` takes them."""
    return tuple((label, tuple(path.split("."))) for label, path in paths.items())


def _measures(
    data: Mapping[str, Any], paths: tuple[tuple[str, tuple[str, ...]], ...]
) -> tuple[tuple[str, float], ...]:
    """The summary's numbers of a record (at ``(label, keys)`` paths): a number as it is,
    a list by its length."""
    found = []
    for label, path in paths:
        value = _at_keys(data, path)
        if isinstance(value, list):
            value = len(value)
        if isinstance(value, bool):
            value = int(value)
        if isinstance(value, (int, float)):
            found.append((label, float(value)))
    return tuple(found)


def _error_data(error: BaseException) -> dict[str, str]:
    try:
        message = " ".join(str(error).split())
    except Exception:  # a broken __str__
        message = "<the message cannot be shown>"
    return {"type": type(error).__name__, "message": message}
