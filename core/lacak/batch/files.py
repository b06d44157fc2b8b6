"""The files of a batch (:mod:`lacak.batch.dataset`): JSON Lines, gzipped JSON Lines and ``.npz``,
written as records come, read back and checked to resume.

Every format keeps what a run finished however the run ends (``SIGKILL`` at any
moment included: all but the records of the last half second, which a resume makes
again), and the same records make the same bytes:

- JSON Lines is appended to as records come, flushed every half second.
- Gzipped JSON Lines is a series of gzip members, each of :data:`MEMBER_BYTES` of
  records (the record that reaches that size ends it), written whole to the file once
  complete; the records of the member being made also go to the file's *tail*
  (``FILE.tail``, JSON Lines, flushed every half second, emptied each time a member
  is written, removed when the run ends, its last member written then). The members
  have a fixed level, and no name nor time in their headers; gzip, zcat, pandas and
  Python's :mod:`gzip` read them all as one stream.
- A ``.npz`` file is made from a JSON Lines journal (``FILE.npz.jsonl``) once the batch
  is complete, in two passes over it, in a scratch folder ``FILE.npz.part`` (removed
  after, and before, if a killed run left one), and moved into place; its members
  carry a fixed date.

Reading a file to resume it takes its whole records (a last line cut short by a
crash is left out, as is a gzip member cut short, whose records are in the tail) and
checks every one (:class:`_Checker`): indices in order (one after another when no draw
can be rejected), each record's seed its job's, and each record's digest that of its
bytes following the record before it (:func:`lacak.batch.dataset.record_digest`); its first
record is made again and compared. A file that does not pass is refused with one line
and left as it was.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import shutil
import stat
import struct
import sys
import time
import zlib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

import attrs

from ..errors import InvalidOptionError
from ..plugin.registry import default_registry
from ..store.paths import file_kind, input_limit, open_regular
from .pool import _apart
from .records import _DIGEST_TAIL, DIGEST_BYTES, _at, _digest, _measures, record_digest
from .seeds import job_seed
from .specs import _kind_of, _spec_measures

if TYPE_CHECKING:
    from .specs import Spec
    from .summary import Summary

__all__ = ["GZIP_LEVEL", "MEMBER_BYTES", "open_output", "read_lines", "write_npz"]


#: A gzip file's compression level: fixed, so that the same records make the same bytes.
GZIP_LEVEL = 6
#: The records' bytes (uncompressed) in a gzip member of a batch: a member ends with the
#: record that takes it to this size. (Each member starts its compression afresh; at a
#: mebibyte that costs under half a per cent of the file's size.)
MEMBER_BYTES = 1 << 20
#: The header of every gzip member lacak writes: deflate, no flags, no time, the
#: default level's extra flags (0) and an unknown system (255), as :mod:`gzip` writes
#: it with ``mtime=0`` and no name.
_GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
#: Seconds between two flushes of a file being written (what a SIGKILL may lose).
FLUSH_SECONDS = 0.5


class _Sink:
    """Where records go: ``write(line)``, then ``close(complete)``."""

    #: What to call the output in messages.
    name: str = "standard output"

    def write(self, line: bytes) -> None:
        raise NotImplementedError

    def close(self, complete: bool) -> None:
        raise NotImplementedError


class _Stream(_Sink):
    def __init__(self, stream: BinaryIO, name: str) -> None:
        self.stream = stream
        self.name = name

    def write(self, line: bytes) -> None:
        self.stream.write(line)

    def close(self, complete: bool) -> None:
        self.stream.flush()


class _Plain(_Sink):
    """JSON Lines, appended to the file as records come (flushed every half second)."""

    def __init__(self, path: Path, keep: int) -> None:
        self.name = str(path)
        self.file = open(path, "r+b" if keep or path.exists() else "wb")  # noqa: SIM115
        self.file.truncate(keep)
        self.file.seek(keep)
        self.flushed = time.monotonic()

    def write(self, line: bytes) -> None:
        self.file.write(line)
        now = time.monotonic()
        if now - self.flushed > FLUSH_SECONDS:
            self.file.flush()
            self.flushed = now

    def close(self, complete: bool) -> None:
        self.file.close()


class _Gzip(_Sink):
    """Gzipped JSON Lines, a member of :data:`MEMBER_BYTES` of records at a time (see
    the module's docstring): each member is made in memory and appended to the file
    whole, the records of the one being made kept in the tail meanwhile. ``carried``
    are the records a resume takes up again: those of the file's last member when it
    was short (an interrupted run closes its member early), of a member cut short,
    and of the tail; the file is cut after the members before them."""

    def __init__(self, path: Path, keep: int, carried: list[bytes]) -> None:
        self.name = str(path)
        self.tail_path = _tail(path)
        # the tail first holds every record carried, then the file loses those it had:
        # killed in between, a resume finds them all again
        self.tail = open(self.tail_path, "wb")  # noqa: SIM115
        try:
            self.tail.writelines(carried)
            self.tail.flush()
            self.file = open(path, "r+b" if path.exists() else "wb")  # noqa: SIM115
        except BaseException:
            self.tail.close()
            raise
        self.file.truncate(keep)
        self.file.seek(keep)
        self.written = keep  # bytes of whole members in the file
        self.broken = False  # a member failed to be written (a full disk): nothing more is
        self.flushed = time.monotonic()
        self._begin()
        in_tail = True  # (a member ended by a carried record empties the tail)
        for line in carried:
            if not in_tail:
                self.tail.write(line)
            if self._add(line):
                in_tail = False

    def _begin(self) -> None:
        self.deflate = zlib.compressobj(GZIP_LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS,
                                        zlib.DEF_MEM_LEVEL, 0)  # (as gzip.GzipFile's)
        self.parts = [_GZIP_HEADER]
        self.crc = 0
        self.size = 0

    def _add(self, line: bytes) -> bool:
        """Put ``line`` in the member being made; whether that ended the member."""
        self.crc = zlib.crc32(line, self.crc)
        self.size += len(line)
        out = self.deflate.compress(line)
        if out:
            self.parts.append(out)
        if self.size >= MEMBER_BYTES:
            self._end_member()
            return True
        return False

    def _end_member(self) -> None:
        """Append the member being made to the file, whole, then empty the tail."""
        self.parts.append(self.deflate.flush())
        self.parts.append(struct.pack("<II", self.crc, self.size & 0xFFFFFFFF))
        member = b"".join(self.parts)
        self.broken = True  # (until it is in the file: its records stay in the tail)
        self.file.write(member)
        self.file.flush()  # (in the file before its records leave the tail)
        self.broken = False
        self.written += len(member)
        self.tail.seek(0)
        self.tail.truncate()
        self._begin()

    def write(self, line: bytes) -> None:
        self.tail.write(line)
        self._add(line)
        now = time.monotonic()
        if now - self.flushed > FLUSH_SECONDS:
            self.tail.flush()
            self.flushed = now

    def close(self, complete: bool) -> None:
        """The member being made written (a short one, when the run was interrupted: a
        resume takes it up again), then the tail removed; if writing fails (a full
        disk), the tail stays for the resume."""
        try:
            self.tail.flush()
            if self.broken:  # (the error that broke it is on its way: the tail stays)
                self.file.close()
                self.tail.close()
                return
            if self.size or not self.written:  # (an empty batch is one empty member)
                self._end_member()
            self.file.close()
        except BaseException:
            with contextlib.suppress(OSError):
                self.file.close()
            with contextlib.suppress(OSError):
                self.tail.close()
            raise
        self.tail.close()
        self.tail_path.unlink(missing_ok=True)


class _Npz(_Sink):
    """Stacked arrays: the records go to a JSON Lines journal (``FILE.npz.jsonl``, which
    ``--resume`` continues), turned into ``FILE.npz`` once the batch is complete."""

    def __init__(self, path: Path, keep: int, arrays: Mapping[str, str]) -> None:
        self.name = str(path)
        self.path = path
        self.journal = _journal(path)
        self.arrays = arrays
        self.plain = _Plain(self.journal, keep)

    def write(self, line: bytes) -> None:
        self.plain.write(line)

    def close(self, complete: bool) -> None:
        self.plain.close(complete)
        if complete:
            write_npz(self.journal, self.path, self.arrays)
            self.journal.unlink()


class _Done(_Sink):
    """A file an earlier run finished (a ``.npz``, checked): nothing is written to it."""

    def __init__(self, name: str) -> None:
        self.name = name

    def write(self, line: bytes) -> None:
        raise AssertionError(f"{self.name} is complete: no record goes to it")

    def close(self, complete: bool) -> None:
        pass


def _check_complete_npz(path: Path, spec: Spec, seed: int, count: int,
                        summary: Summary) -> _Resumed:
    """What a finished ``.npz`` holds, checked against this batch (its journal is gone,
    so its records' bytes are too): ``count`` records, indices in order, each record's
    seed its job's. It is then left as it is, and the run has nothing to do.

    :raises InvalidOptionError: the file is not a finished ``.npz`` of this batch.
    """
    import zipfile  # (slow to import: only for .npz)

    import numpy as np  # (deferred: numpy is heavy, only for .npz)

    def refuse(why: str) -> InvalidOptionError:
        return InvalidOptionError(f"{path} {why}; cannot resume it")

    try:
        with np.load(path, allow_pickle=False) as archive:
            index, seeds, ok = (archive[name] for name in ("index", "seed", "ok"))
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        raise refuse("is not an .npz file of a lacak batch") from None
    if not (index.ndim == seeds.ndim == ok.ndim == 1 and len(index) == len(seeds) == len(ok)):
        raise refuse("is not an .npz file of a lacak batch")
    if len(index) != count:
        raise refuse(f"is complete with {len(index):,} records, not the {count:,} asked for")
    if len(index) and (np.any(index < 0) or np.any(np.diff(index) <= 0)):
        raise refuse("holds jobs out of order")
    for job, job_seed_found in zip(index.tolist(), seeds.tolist(), strict=True):
        if job_seed_found != job_seed(seed, job):
            raise refuse(f"holds job {job} with seed {job_seed_found}, which is not this "
                         "batch's: it was made with another --seed")
    for good in ok.tolist():
        summary.note(bool(good), None, (), new=False)
    last = int(index[-1]) if len(index) else -1
    return _Resumed(records=len(index), next_index=last + 1)


def _journal(path: Path) -> Path:
    return path.with_name(path.name + ".jsonl")


def _tail(path: Path) -> Path:
    return path.with_name(path.name + ".tail")


def _scratch(path: Path) -> Path:
    return path.with_name(path.name + ".part")


def _lines(path: Path) -> Iterator[bytes]:
    """The whole lines of a JSON Lines file, gzipped or not (a gzip file cut short by a
    crash gives what it holds; a last line without its newline is left out)."""
    if path.suffix == ".gz":
        for item in _gzip_lines(path):
            if isinstance(item, bytes):
                yield item
        return
    tail = b""
    longest = input_limit()
    for chunk in _read(path):
        parts = (tail + chunk).split(b"\n")
        tail = parts.pop()
        for part in parts:
            yield part + b"\n"
        _check_line(path, tail, longest)


#: Bytes read from a file, or inflated from a gzip member, at a time.
_CHUNK = 1 << 20


def _check_line(path: Path, line: bytes, longest: int) -> None:
    """Refuse a line longer than any record (:func:`lacak.store.paths.input_limit`, as
    for any puzzle text): what is read back stays bounded whatever the file holds."""
    if len(line) > longest:
        raise InvalidOptionError(
            f"{path} has a line of over {longest / 1_000_000:g} MB, longer than any record "
            "(LACAK_MAX_INPUT_MB sets the limit): it is not a file of a lacak batch; "
            "cannot resume it"
        )


def _open(path: Path) -> BinaryIO:
    """``path`` open for reading, refused unless it is a regular file (a FIFO, a device
    or a folder is refused at once, without blocking: :func:`open_regular`)."""
    fd, info = open_regular(path)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise InvalidOptionError(_not_regular(path, info.st_mode))
    os.set_blocking(fd, True)
    return open(fd, "rb")  # (the caller closes it)


def _not_regular(path: Path, mode: int) -> str:
    return (f"{path} is not a regular file ({file_kind(mode)}): a batch is written to a "
            "file, or to standard output with -o -")  # fmt: skip


def _read(path: Path) -> Iterator[bytes]:
    with _open(path) as f:
        while chunk := f.read(_CHUNK):
            yield chunk


@attrs.define
class _Member:
    """A member of a gzip file (:func:`_gzip_lines`)."""

    #: Its bytes, uncompressed.
    size: int = 0
    #: Where it ends in the file.
    end: int = 0
    #: Whether it is whole (its end and its checksum read), not cut short.
    whole: bool = False


def _gzip_lines(path: Path) -> Iterator[bytes | _Member]:
    """The whole lines of a gzip file, each member's followed by the member; the last
    may be cut short (a crash while it was written, or bytes that are not gzip) and
    gives the whole lines it holds. Memory stays flat: a mebibyte is inflated at a time
    (a line that runs on into the next member is that member's)."""
    inflate = zlib.decompressobj(wbits=31)
    member = _Member()
    offset = 0  # the bytes of the file read into members
    carry = b""  # the start of a line not ended yet
    longest = input_limit()
    with _open(path) as f:
        data = f.read(_CHUNK)
        while data:
            try:
                out = inflate.decompress(data, _CHUNK)
            except zlib.error:  # damaged, or not gzip: what follows is not read
                break
            member.size += len(out)
            if out:
                parts = (carry + out).split(b"\n")
                carry = parts.pop()
                for part in parts:
                    yield part + b"\n"
                _check_line(path, carry, longest)
            left = inflate.unused_data if inflate.eof else inflate.unconsumed_tail
            offset += len(data) - len(left)
            if inflate.eof:
                member.end, member.whole = offset, True
                yield member
                member = _Member()
                inflate = zlib.decompressobj(wbits=31)
            data = left or f.read(_CHUNK)
    if member.size or offset < path.stat().st_size:
        yield member  # cut short


# -- resuming -----------------------------------------------------------------------------


@attrs.define
class _Resumed:
    """What an earlier run left in the file, checked."""

    #: Its records.
    records: int = 0
    #: The job after its last record.
    next_index: int = 0
    #: The digests of its instances (a ``unique`` batch).
    seen: set[bytes] = attrs.field(factory=set)
    #: The bytes of its whole records (JSON Lines and journals: what is kept).
    kept_bytes: int = 0
    #: Its last record's digest, which the next record's follows.
    chain: int = 0
    #: (gzip) where the file is cut: after its last member kept whole.
    keep: int = 0
    #: (gzip) the records after that member, which the run takes up again.
    carried: list[bytes] = attrs.field(factory=list)


class _Checker:
    """Checks the records of a file to resume, one by one, in order (see the module's
    docstring), and counts them into ``state`` and ``summary``.

    :raises InvalidOptionError: for the first record that does not pass, naming its
        line and what is wrong (``... cannot resume it``).
    """

    def __init__(self, path: Path, spec: Spec, seed: int, summary: Summary) -> None:
        _kind_type, batch = _kind_of(default_registry(), spec.kind)
        self.path = path
        self.spec = spec
        self.seed = seed
        self.summary = summary
        self.paths = _spec_measures(spec, batch)
        # whether a job's draw can be rejected: else indices follow one another
        self.draws = spec.task is None and bool(spec.unique or spec.min_length is not None or (
            spec.max_length is not None or batch.prepare is not None))  # fmt: skip
        self.state = _Resumed()
        self.number = 0  # records checked
        self.last = -1
        self.source = path  # the file being read, and the line in it
        self.line = 0

    def read(self, source: Path, *, first: int = 1) -> None:
        """Go on with the records of ``source`` (the tail of a gzip file), from line
        ``first`` of it."""
        self.source, self.line = source, first - 1

    def __call__(self, line: bytes) -> None:
        self.number += 1
        self.line += 1
        where = f"{self.source} line {self.line}"
        try:
            data = json.loads(line)
            index, job = data["index"], data["seed"]
        except (ValueError, KeyError, TypeError):
            raise InvalidOptionError(
                f"{where} is not a record of a lacak batch; cannot resume it"
            ) from None
        if isinstance(index, bool) or not isinstance(index, int) or index <= self.last:
            raise InvalidOptionError(
                f"{where} is job {index!r}, after job {self.last}: the records are out of "
                "order; cannot resume it"
            )
        if job != job_seed(self.seed, index):
            raise InvalidOptionError(
                f"{where} is not a record of this batch (job {index} with seed {job!r}): it "
                "was made with another --seed, or changed; cannot resume it (give the "
                "--seed that made it, or write another file)"
            )
        if not self.draws and index != self.last + 1:
            raise InvalidOptionError(
                f"{where} is job {index}, but job {self.last + 1} comes first: a record is "
                "missing; cannot resume it"
            )
        if "digest" not in data:
            raise InvalidOptionError(
                f"{where} has no digest, so it cannot be checked (an older lacak wrote it, "
                f"or it was changed); cannot resume it: write {self.path} again with "
                "--overwrite"
            )
        state = self.state
        chain = record_digest(line[:-DIGEST_BYTES], state.chain)
        if line[-DIGEST_BYTES:] != _DIGEST_TAIL(chain):
            raise InvalidOptionError(
                f"{where} (job {index}) does not match its digest: it was changed, or a "
                "record before it was removed or added; cannot resume it"
            )
        if self.number == 1:
            _same_batch(self.path, data, self.spec, self.seed)
        self.last = state.next_index = index
        state.next_index += 1
        state.chain = chain
        state.records += 1
        state.kept_bytes += len(line)
        if self.spec.unique and "instance" in data:
            state.seen.add(_digest(data["instance"]))
        error = data.get("error")
        self.summary.note(bool(data.get("ok")),
                          error.get("type") if isinstance(error, dict) else None,
                          _measures(data, self.paths), new=False)  # fmt: skip


def _same_batch(path: Path, data: Mapping[str, Any], spec: Spec, seed: int) -> None:
    """Refuse to resume a file whose first record this batch would not make (that job
    made again, in a process of its own)."""
    index = data["index"]
    outcome = _apart(spec.run, index, (index, job_seed(seed, index)))
    if outcome.error is not None:
        return  # that job fails here: its record says so, and cannot be compared
    made: Any = outcome.value  # (a Made)
    if made.line is None:
        raise InvalidOptionError(
            f"{path} was not written by this command: its first record (job {index}) is one "
            "this batch would draw again; cannot resume it with other options than those "
            "that made it"
        )
    again = json.loads(made.line)
    for key in ("instance", "ok", "question", "answer", "metadata", "tokens"):
        if again.get(key) != data.get(key):
            raise InvalidOptionError(
                f"{path} was not written by this command: its first record (job {index}) "
                f"has another {key}; cannot resume it with other options than those that "
                "made it"
            )
    for key in ("strategy", "heuristic"):
        if _at(again, f"result.{key}") != _at(data, f"result.{key}"):
            raise InvalidOptionError(
                f"{path} was not written by this command: its first record was solved with "
                f"another {key}; cannot resume it with other options than those that made it"
            )


def _resume_gzip(path: Path, check: _Checker) -> tuple[int, list[bytes]]:
    """Check the records of a gzip file, then those of its tail that go on from them:
    where to cut the file (after its last member kept), and the records after that,
    which the run takes up again."""
    ends: list[int] = []  # where each whole member ends
    recent: list[tuple[_Member, list[bytes]]] = []  # the last two members, with their lines
    lines: list[bytes] = []
    if path.exists():
        for item in _gzip_lines(path):
            if isinstance(item, bytes):
                check(item)
                lines.append(item)
                continue
            recent = [*recent[-1:], (item, lines)]
            lines = []
            if item.whole:
                ends.append(item.end)
    cut = recent.pop()[1] if recent and not recent[-1][0].whole else []
    last_member, last = recent.pop() if recent else (None, [])
    # a short last member was closed early (an interrupted run, or the batch's end)
    reopened = last_member is not None and last_member.size < MEMBER_BYTES
    kept = len(ends) - reopened
    carried = (last if reopened else []) + cut
    # the tail starts where the member being made started: at the start of the last
    # whole member (killed before its records left the tail), or after it
    tail_path = _tail(path)
    tail = list(_lines(tail_path)) if tail_path.exists() else []
    window = last + cut
    extra = tail
    if tail and tail[0] in window:
        overlap = window[window.index(tail[0]) :]
        if tail[: len(overlap)] != overlap[: len(tail)]:
            raise InvalidOptionError(
                f"{tail_path} does not go on from {path} (its records are not those of the "
                "file's last gzip member); cannot resume it"
            )
        extra = tail[len(overlap) :]
    check.read(tail_path, first=len(tail) - len(extra) + 1)
    for line in extra:
        check(line)
    return (ends[kept - 1] if kept else 0), carried + extra


def open_output(
    out: str | os.PathLike[str] | None,
    spec: Spec,
    *,
    seed: int,
    count: int,
    resume: bool,
    overwrite: bool,
    summary: Summary,
) -> tuple[_Sink, _Resumed]:
    """The sink for ``out`` (``None`` or ``"-"``: standard output) and what an earlier
    run left in it, checked record by record.

    :raises InvalidOptionError: the output cannot be, or a file to resume does not
        pass the checks (see the module's docstring); the file is then left as it was.
    """
    if out is None or str(out) == "-":
        if resume:
            raise InvalidOptionError("--resume needs the file to finish (-o FILE)")
        return _Stream(sys.stdout.buffer, "standard output"), _Resumed()
    path = Path(out)
    if resume and overwrite:
        raise InvalidOptionError("--resume finishes a file and --overwrite replaces it: give one")
    suffix = path.suffix.lower()
    arrays: Mapping[str, str] = {}
    if suffix == ".npz":
        arrays = _kind_of(default_registry(), spec.kind)[1].arrays
        if spec.task is not None:
            raise InvalidOptionError(
                "a task batch's entries are text: write JSON Lines (.jsonl or .jsonl.gz)"
            )
        if not arrays:
            raise InvalidOptionError(
                f"{spec.kind} batches declare no arrays, so they cannot be written as .npz; "
                "write JSON Lines (.jsonl or .jsonl.gz)"
            )
    elif suffix == ".parquet":
        raise InvalidOptionError(
            "lacak writes JSON Lines (.jsonl, .jsonl.gz) and, for kinds with arrays, .npz; "
            "pandas and pyarrow read JSON Lines directly"
        )
    if not path.parent.is_dir():
        raise InvalidOptionError(f"cannot write {str(path)!r}: no folder {str(path.parent)!r}")
    where = _journal(path) if suffix == ".npz" else path
    side = [_tail(path)] if suffix == ".gz" else []  # what an interrupted run left beside it
    for existing in dict.fromkeys([path, where, *side]):
        try:
            mode = existing.stat().st_mode  # (a stat never blocks, whatever the file is)
        except OSError:
            continue  # missing (or unreadable: opening it says so)
        if not stat.S_ISREG(mode):
            raise InvalidOptionError(_not_regular(existing, mode))
    state = _Resumed()
    if resume:
        if suffix == ".npz" and not where.exists() and path.exists():
            # (made whole, its journal removed: a run killed then has nothing left to do)
            return _Done(str(path)), _check_complete_npz(path, spec, seed, count, summary)
        check = _Checker(where, spec, seed, summary)
        if suffix == ".gz":
            if where.exists() or side[0].exists():
                state.keep, state.carried = _resume_gzip(where, check)
        elif where.exists():
            for line in _lines(where):
                check(line)
        state = attrs.evolve(check.state, keep=state.keep, carried=state.carried)
        if state.records > count:
            raise InvalidOptionError(
                f"{where} holds {state.records:,} records, more than the {count:,} asked "
                "for; cannot resume it"
            )
    elif not overwrite:
        for existing in dict.fromkeys([path, where, *side]):
            if existing.exists() and (existing.stat().st_size or existing != path):
                raise InvalidOptionError(
                    f"{existing} exists: --resume finishes it, --overwrite replaces it"
                )
    if suffix == ".npz":
        return _Npz(path, state.kept_bytes, arrays), state
    if suffix == ".gz":
        return _Gzip(path, state.keep, state.carried), state
    return _Plain(path, state.kept_bytes), state


# -- .npz ---------------------------------------------------------------------------------


def _int_type(low: int, high: int) -> Any:
    """The smallest integer type holding ``low`` to ``high`` (unsigned when ``low >= 0``)."""
    import numpy as np  # (deferred: numpy is heavy, only for .npz)

    kinds = (np.uint8, np.uint16, np.uint32, np.uint64) if low >= 0 else (
        np.int8, np.int16, np.int32, np.int64)  # fmt: skip
    for kind in kinds:
        info = np.iinfo(kind)
        if info.min <= low and high <= info.max:
            return np.dtype(kind)
    return np.dtype(np.float64)


#: Bytes of JSON records up to which :func:`write_npz` keeps what its first pass read
#: for its second (above, the second pass reads the journal again: memory stays flat).
_KEEP_BYTES = 256 << 20


def _records_again(
    journal: Path, arrays: Mapping[str, str], kept: list[tuple[Any, ...]] | None
) -> Iterator[tuple[Any, ...]]:
    """:func:`write_npz`'s second pass: each record's ``(index, seed, ok, digest, arrays)``
    (the arrays by name, a record's missing ones left out), as the first pass ``kept``
    them, else read from the journal again."""
    if kept is not None:
        yield from kept
        return
    import numpy as np  # (deferred: numpy is heavy, only for .npz)

    for line in _lines(journal):
        data = json.loads(line)
        found = {}
        for name, path in arrays.items():
            value = _at(data, path)
            if value is not None:
                found[name] = np.asarray(value)
        yield data["index"], data["seed"], data.get("ok"), data["digest"], found


def write_npz(journal: Path, target: Path, arrays: Mapping[str, str]) -> None:
    """Stack the records of a JSON Lines ``journal`` into ``target`` (``.npz``): for
    each declared array the values at its path, padded to the largest shape (``-1``
    for integers, ``nan``, ``""``), with ``NAME_shape`` giving each record's own shape
    when they differ; and ``index``, ``seed``, ``ok`` and ``digest`` (each record's, as
    an unsigned integer). Two passes over the journal: memory stays flat however many
    records (a journal of up to 256 MB is read once, what the first pass read kept for
    the second). An array whose path ends with ``?`` is one only some batches have (a maze's
    ``links``, on a grid other than the rectangle): it is left out when no record holds
    it. The arrays are made in a scratch folder beside ``target``
    (``TARGET.part``: one a killed run left is removed first), and the archive is moved
    into place once whole; the folder is removed after, whatever happens.

    :raises InvalidOptionError: an array whose values do not stack (numbers in some
        records, text in others, or different numbers of dimensions).
    """
    import numpy as np  # (deferred: numpy is heavy, only for .npz)

    optional = {name for name, path in arrays.items() if path.endswith("?")}
    arrays = {name: path.removesuffix("?") for name, path in arrays.items()}
    held: set[str] = set()
    shapes: dict[str, list[int]] = {}
    kinds: dict[str, set[str]] = {name: set() for name in arrays}
    lows: dict[str, float] = {}
    highs: dict[str, float] = {}
    ragged: set[str] = set()
    first_shape: dict[str, tuple[int, ...]] = {}
    count = 0
    # what the first pass read, while it is small: the second pass then reads no JSON again
    kept_records: list[tuple[Any, ...]] | None = []
    kept_bytes = 0
    for line in _lines(journal):
        data = json.loads(line)
        count += 1
        found_arrays: dict[str, Any] = {}
        if kept_records is not None:
            kept_bytes += len(line)
            if kept_bytes > _KEEP_BYTES:
                kept_records = None
            else:
                kept_records.append((data["index"], data["seed"], data.get("ok"),
                                     data["digest"], found_arrays))  # fmt: skip
        for name, path in arrays.items():
            value = _at(data, path)
            if value is None:
                ragged.add(name)
                continue
            held.add(name)
            array = found_arrays[name] = np.asarray(value)
            kind = array.dtype.kind
            if array.size == 0 and kind == "f":
                kind = "i"  # an empty list: no numbers, fits any
            kinds[name].add(kind)
            found_shape = list(array.shape)
            seen = shapes.get(name)
            if seen is None:
                shapes[name] = found_shape
                first_shape[name] = tuple(found_shape)
            elif len(seen) != len(found_shape):
                raise InvalidOptionError(
                    f"array {name!r} ({path}) has {len(seen)} dimensions in one record and "
                    f"{len(found_shape)} in another: it cannot be stacked"
                )
            else:
                shapes[name] = [max(a, b) for a, b in zip(seen, found_shape, strict=True)]
            if tuple(found_shape) != first_shape[name]:
                ragged.add(name)
            if kind in "iub" and array.size:
                lows[name] = min(lows.get(name, math.inf), float(array.min()))
                highs[name] = max(highs.get(name, -math.inf), float(array.max()))
            if kind == "U":
                highs[name] = max(highs.get(name, 0), float(array.dtype.itemsize // 4))
    arrays = {name: path for name, path in arrays.items() if name in held or name not in optional}
    layout: dict[str, tuple[Any, Any, tuple[int, ...]]] = {}
    for name in arrays:
        dtype: Any
        pad: Any
        found = kinds[name] - {"b"} if kinds[name] - {"b"} else kinds[name]
        if not found:
            dtype, pad = np.dtype(np.int8), -1
        elif found <= {"i", "u"}:
            low = min(lows.get(name, 0), -1 if name in ragged else 0)
            dtype = _int_type(int(low), int(highs.get(name, 0)))
            pad = -1 if name in ragged else 0
        elif found <= {"i", "u", "f"}:
            dtype, pad = np.dtype(np.float64), math.nan
        elif found == {"U"}:
            dtype, pad = np.dtype(f"<U{max(1, int(highs.get(name, 1)))}"), ""
        else:
            raise InvalidOptionError(
                f"array {name!r} ({arrays[name]}) holds values of several types "
                f"({', '.join(sorted(found))}): it cannot be stacked"
            )
        if kinds[name] == {"b"}:
            dtype, pad = np.dtype(bool), False
        layout[name] = (dtype, pad, tuple(shapes.get(name, [])))
    fixed = {"index": np.dtype(np.int64), "seed": np.dtype(np.uint64), "ok": np.dtype(bool),
             "digest": np.dtype(np.uint64)}  # fmt: skip
    scratch = _scratch(target)
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir()
    try:
        folder = str(scratch)
        files: dict[str, BinaryIO] = {}
        order = [*fixed, *arrays, *(f"{name}_shape" for name in arrays if name in ragged)]
        with contextlib.ExitStack() as stack:
            for name in order:
                header: tuple[Any, tuple[int, ...]]
                if name in fixed:
                    header = (fixed[name], ())
                elif name in arrays:
                    header = (layout[name][0], layout[name][2])
                else:
                    header = (np.dtype(np.int32), (len(layout[name[:-6]][2]),))
                dtype, shape = header
                handle = stack.enter_context(open(os.path.join(folder, name + ".npy"), "wb"))
                np.lib.format.write_array_header_1_0(handle, {
                    "descr": np.lib.format.dtype_to_descr(dtype), "fortran_order": False,
                    "shape": (count, *shape),
                })  # fmt: skip
                files[name] = handle
            for index, seed, ok, digest, found_arrays in _records_again(
                journal, arrays, kept_records
            ):
                files["index"].write(np.int64(index).tobytes())
                files["seed"].write(np.uint64(seed).tobytes())
                files["ok"].write(np.bool_(bool(ok)).tobytes())
                files["digest"].write(np.uint64(int(digest, 16)).tobytes())
                for name in arrays:
                    kept, pad, size = layout[name]
                    row = np.full(size, pad, dtype=kept)
                    stacked = found_arrays.get(name)
                    own: tuple[int, ...] = tuple(0 for _ in size)
                    if stacked is not None:
                        if stacked.size:
                            row[tuple(slice(0, n) for n in stacked.shape)] = stacked
                        own = tuple(stacked.shape)
                    files[name].write(row.tobytes())
                    if name in ragged:
                        files[f"{name}_shape"].write(np.asarray(own, dtype=np.int32).tobytes())
        import zipfile  # (slow to import: only for .npz)

        archive_path = os.path.join(folder, "archive.npz")
        with zipfile.ZipFile(archive_path, "w", zipfile.ZIP_STORED, allowZip64=True) as archive:
            for name in order:
                info = zipfile.ZipInfo(name + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
                with open(os.path.join(folder, name + ".npy"), "rb") as source, \
                        archive.open(info, "w", force_zip64=True) as member:  # fmt: skip
                    shutil.copyfileobj(source, member, 1 << 20)
        os.replace(archive_path, target)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def read_lines(path: str | os.PathLike[str]) -> Iterator[dict[str, Any]]:
    """The records of a batch file (JSON Lines, gzipped or not), as JSON data."""
    for line in _lines(Path(path)):
        yield json.loads(line)
