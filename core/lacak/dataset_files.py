"""The files of a batch (:mod:`lacak.dataset`): JSON Lines, gzipped JSON Lines and ``.npz``,
written as records come, read back to resume.

Every format is written so that the same records make the same bytes: a gzip
file has a fixed level, no name and no time in its header, and is written to a
temporary file beside its name and moved there when closed (with the records
of an earlier run copied in first), so it is always whole; a ``.npz`` file is
made from a JSON Lines journal (``FILE.npz.jsonl``) once the batch is complete,
in two passes over it, and its members carry a fixed date. Reading (to resume)
takes the whole lines of a file cut short by a crash, and checks that they are
the batch's own.
"""

from __future__ import annotations

import contextlib
import gzip
import itertools
import json
import math
import os
import shutil
import sys
import tempfile
import time
import zlib
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

import attrs

from .batch import job_seed
from .errors import InvalidOptionError

if TYPE_CHECKING:
    from .dataset import Spec, Summary

__all__ = ["GZIP_LEVEL", "open_output", "read_lines", "write_npz"]


#: A gzip file's compression level: fixed, so that the same records make the same bytes.
GZIP_LEVEL = 6


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
        if now - self.flushed > 0.5:
            self.file.flush()
            self.flushed = now

    def close(self, complete: bool) -> None:
        self.file.close()


class _Gzip(_Sink):
    """Gzipped JSON Lines: written to a temporary file beside the target and moved
    over it when closed (the records of an earlier run copied in first), so that the
    file is always whole, and the same records always make the same bytes."""

    def __init__(self, path: Path, earlier: Iterable[bytes]) -> None:
        self.name = str(path)
        self.path = path
        fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
        _readable(temporary)
        self.temporary = Path(temporary)
        self.raw = os.fdopen(fd, "wb")
        self.file = gzip.GzipFile(filename="", mode="wb", fileobj=self.raw,
                                  compresslevel=GZIP_LEVEL, mtime=0)  # fmt: skip
        try:
            for line in earlier:
                self.file.write(line)
        except BaseException:  # (Ctrl-C while copying: the file as it was stays)
            self.raw.close()
            self.temporary.unlink()
            raise

    def write(self, line: bytes) -> None:
        self.file.write(line)

    def close(self, complete: bool) -> None:
        self.file.close()
        self.raw.close()
        os.replace(self.temporary, self.path)


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


def _journal(path: Path) -> Path:
    return path.with_name(path.name + ".jsonl")


def _lines(path: Path) -> Iterator[bytes]:
    """The whole lines of a JSON Lines file, gzipped or not (a gzip file cut short by a
    crash gives what it holds; a last line without its newline is left out)."""
    if path.suffix == ".gz":
        chunks = _gunzip(path)
    else:
        chunks = _read(path)
    tail = b""
    for chunk in chunks:
        parts = (tail + chunk).split(b"\n")
        tail = parts.pop()
        for part in parts:
            yield part + b"\n"


def _read(path: Path) -> Iterator[bytes]:
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            yield chunk


def _gunzip(path: Path) -> Iterator[bytes]:
    inflate = zlib.decompressobj(wbits=31)
    with open(path, "rb") as f:
        while data := f.read(1 << 20):
            try:
                yield inflate.decompress(data)
            except zlib.error:
                return
            if inflate.eof:  # one member (lacak writes one); what follows is not ours
                return


@attrs.define
class _Resumed:
    records: int = 0
    next_index: int = 0
    seen: set[bytes] = attrs.field(factory=set)
    kept_bytes: int = 0


def _resume(path: Path, spec: Spec, seed: int, count: int, summary: Summary) -> _Resumed:
    """Read what an earlier run of the batch wrote to ``path``, checking that it is this
    batch's: its first record as this command makes it, every record's job seed."""
    from .dataset import _digest, _kind_of, _measures, _spec_measures
    from .registry import default_registry

    _kind_type, batch = _kind_of(default_registry(), spec.kind)
    paths = _spec_measures(spec, batch)
    state = _Resumed(next_index=0)
    last = -1
    for number, line in enumerate(_lines(path), 1):
        try:
            data = json.loads(line)
            index, job = data["index"], data["seed"]
        except (ValueError, KeyError, TypeError):
            raise InvalidOptionError(
                f"{path} line {number} is not a record of a lacak batch; cannot resume it"
            ) from None
        if not isinstance(index, int) or index <= last or job != job_seed(seed, index):
            raise InvalidOptionError(
                f"{path} line {number} is not a record of this batch (job {index!r} with seed "
                f"{job!r}); resume it with the --seed that made it, or write another file"
            )
        if number == 1:
            _same_batch(path, data, spec, seed)
        last = index
        state.records += 1
        state.kept_bytes += len(line)
        if spec.unique and "instance" in data:
            state.seen.add(_digest(data["instance"]))
        error = data.get("error")
        summary.note(bool(data.get("ok")), error.get("type") if isinstance(error, dict) else None,
                     _measures(data, paths), new=False)  # fmt: skip
    if state.records > count:
        raise InvalidOptionError(
            f"{path} holds {state.records:,} records, more than the {count:,} asked for"
        )
    state.next_index = last + 1
    return state


def _same_batch(path: Path, data: Mapping[str, Any], spec: Spec, seed: int) -> None:
    """Refuse to resume a file whose first record this batch would not make."""
    from .dataset import _at

    index = data["index"]
    try:
        made = spec((index, job_seed(seed, index)))
    except Exception:
        return  # that job fails here: its record says so, and cannot be compared
    if made.line is None:
        raise InvalidOptionError(
            f"{path} was not written by this command: its first record (job {index}) is one "
            "this batch would draw again; resume it with the options that made it"
        )
    again = json.loads(made.line)
    for key in ("instance", "ok"):
        if again.get(key) != data.get(key):
            raise InvalidOptionError(
                f"{path} was not written by this command: its first record (job {index}) "
                f"has another {key}; resume it with the options that made it"
            )
    for key in ("strategy", "heuristic"):
        if _at(again, f"result.{key}") != _at(data, f"result.{key}"):
            raise InvalidOptionError(
                f"{path} was not written by this command: its first record was solved with "
                f"another {key}; resume it with the options that made it"
            )


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
    run left in it."""
    if out is None or str(out) == "-":
        if resume:
            raise InvalidOptionError("--resume needs the file to finish (--out FILE)")
        return _Stream(sys.stdout.buffer, "standard output"), _Resumed()
    path = Path(out)
    if resume and overwrite:
        raise InvalidOptionError("--resume finishes a file and --overwrite replaces it: give one")
    suffix = path.suffix.lower()
    arrays: Mapping[str, str] = {}
    if suffix == ".npz":
        from .dataset import _kind_of
        from .registry import default_registry

        arrays = _kind_of(default_registry(), spec.kind)[1].arrays
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
    state = _Resumed()
    if resume:
        if suffix == ".npz" and not where.exists() and path.exists():
            raise InvalidOptionError(f"{path} is complete: there is nothing to resume")
        if where.exists():
            state = _resume(where, spec, seed, count, summary)
    elif not overwrite:
        for existing in {path, where}:
            if existing.exists() and (existing.stat().st_size or existing != path):
                raise InvalidOptionError(
                    f"{existing} exists: --resume finishes it, --overwrite replaces it"
                )
    if suffix == ".npz":
        return _Npz(path, state.kept_bytes, arrays), state
    if suffix == ".gz":
        earlier = _lines(where) if state.records else iter(())
        limited = itertools.islice(earlier, state.records)
        return _Gzip(path, limited), state
    return _Plain(path, state.kept_bytes), state


# -- .npz ---------------------------------------------------------------------------------


def _int_type(low: int, high: int) -> Any:
    """The smallest integer type holding ``low`` to ``high`` (unsigned when ``low >= 0``)."""
    import numpy as np

    kinds = (np.uint8, np.uint16, np.uint32, np.uint64) if low >= 0 else (
        np.int8, np.int16, np.int32, np.int64)  # fmt: skip
    for kind in kinds:
        info = np.iinfo(kind)
        if info.min <= low and high <= info.max:
            return np.dtype(kind)
    return np.dtype(np.float64)


def _readable(path: str) -> None:
    """Give a file made by :func:`tempfile.mkstemp` (mode 0600) the mode a new file gets."""
    mask = os.umask(0)
    os.umask(mask)
    os.chmod(path, 0o666 & ~mask)


def write_npz(journal: Path, target: Path, arrays: Mapping[str, str]) -> None:
    """Stack the records of a JSON Lines ``journal`` into ``target`` (``.npz``): for
    each declared array the values at its path, padded to the largest shape (``-1``
    for integers, ``nan``, ``""``), with ``NAME_shape`` giving each record's own shape
    when they differ; and ``index``, ``seed``, ``ok``. Two passes over the journal:
    memory stays flat however many records.

    :raises InvalidOptionError: an array whose values do not stack (numbers in some
        records, text in others, or different numbers of dimensions).
    """
    import numpy as np

    from .dataset import _at

    shapes: dict[str, list[int]] = {}
    kinds: dict[str, set[str]] = {name: set() for name in arrays}
    lows: dict[str, float] = {}
    highs: dict[str, float] = {}
    ragged: set[str] = set()
    first_shape: dict[str, tuple[int, ...]] = {}
    count = 0
    for line in _lines(journal):
        data = json.loads(line)
        count += 1
        for name, path in arrays.items():
            value = _at(data, path)
            if value is None:
                ragged.add(name)
                continue
            array = np.asarray(value)
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
    fixed = {"index": np.dtype(np.int64), "seed": np.dtype(np.uint64), "ok": np.dtype(bool)}
    with tempfile.TemporaryDirectory(prefix="lacak-npz-", dir=target.parent) as folder:
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
            for line in _lines(journal):
                data = json.loads(line)
                files["index"].write(np.int64(data["index"]).tobytes())
                files["seed"].write(np.uint64(data["seed"]).tobytes())
                files["ok"].write(np.bool_(bool(data.get("ok"))).tobytes())
                for name, path in arrays.items():
                    kept, pad, size = layout[name]
                    row = np.full(size, pad, dtype=kept)
                    value = _at(data, path)
                    own: tuple[int, ...] = tuple(0 for _ in shape)
                    if value is not None:
                        array = np.asarray(value)
                        if array.size:
                            row[tuple(slice(0, n) for n in array.shape)] = array
                        own = tuple(array.shape)
                    files[name].write(row.tobytes())
                    if name in ragged:
                        files[f"{name}_shape"].write(np.asarray(own, dtype=np.int32).tobytes())
        fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part",
                                         dir=target.parent)  # fmt: skip
        os.close(fd)
        _readable(temporary)
        import zipfile

        with zipfile.ZipFile(temporary, "w", zipfile.ZIP_STORED, allowZip64=True) as archive:
            for name in order:
                info = zipfile.ZipInfo(name + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
                with open(os.path.join(folder, name + ".npy"), "rb") as source, \
                        archive.open(info, "w", force_zip64=True) as member:  # fmt: skip
                    shutil.copyfileobj(source, member, 1 << 20)
        os.replace(temporary, target)


def read_lines(path: str | os.PathLike[str]) -> Iterator[dict[str, Any]]:
    """The records of a batch file (JSON Lines, gzipped or not), as JSON data."""
    for line in _lines(Path(path)):
        yield json.loads(line)
