"""Datasets: many generated instances, solved or not, streamed as records (``lacak batch``).

A batch is ``count`` jobs; job ``i`` generates an instance of a puzzle kind
with the job's seed (:func:`lacak.batch.job_seed`), prepares it as the kind
declares (:class:`~lacak.BatchKind`), optionally solves it with the strategy
:func:`lacak.choose` picks, and gives one *record*, a line of JSON::

    {"index": 0, "seed": 5281..., "ok": true, "instance": {...}, "result": {...},
     "digest": "9f0c..."}

``instance`` is the kind's form of the instance (``Maze.to_dict()`` for a
maze), ``result`` the documented result shape (:meth:`SearchResult.to_dict
<lacak.SearchResult.to_dict>`; its ``stats.seconds`` is ``null`` unless
timings are asked for, so that a batch is the same file every time), and a
job that raised or whose search a limit stopped has ``"ok": false`` and
``"error": {"type", "message"}``. Every record ends with its ``digest``: the XXH3-64
hash (16 hex digits) of the line's bytes before ``,"digest":``, seeded with the digest
of the record before it (0 for the first), so that a file can be checked record by
record with nothing but itself: a record changed, removed, added or moved breaks the
chain where it is (:func:`record_digest`). docs/batch.md describes it all.

Records come in job order whatever runs the jobs (:func:`records`), so a
batch written by one process, a pool of any size or a Dask cluster is the
same file, byte for byte; :func:`write` streams them to JSON Lines (gzip for
``.gz``) or ``.npz`` and resumes an interrupted file, which it checks first. No job
runs in the process that writes the file: a job that kills its process is one failed
record, never the batch.

>>> import lacak
>>> spec = lacak.dataset.spec("maze", generator="kruskal", size=(3, 4))
>>> [record.index for record in lacak.dataset.records(spec, count=3, seed=1, workers=1)]
[0, 1, 2]
"""

from __future__ import annotations

import binascii
import contextlib
import hashlib
import itertools
import json
import json.encoder
import math
import os
import time
from collections import Counter
from collections.abc import Generator, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

import attrs
import xxhash

from . import progress
from .api import _BoundGenerator, _registry, choose
from .batch import Outcome, _apart, _iter_many, _mixer, _Run, job_seed
from .errors import (
    InvalidOptionError,
    LacakError,
    LimitReachedError,
    PluginError,
    UnknownComponentError,
)
from .interfaces import BatchKind, describe_state
from .limits import Limits
from .plugin.registry import default_registry

if TYPE_CHECKING:
    import concurrent.futures

    from .plugin.registry import Registry
    from .results import SearchResult

__all__ = [
    "DIGEST_BYTES",
    "MAX_REJECTED",
    "Record",
    "Spec",
    "Summary",
    "dask_executor",
    "record_digest",
    "records",
    "spec",
    "write",
]

#: Draws in a row that may be rejected (too short, too long, a duplicate) before a
#: batch gives up: the generator cannot make what was asked for.
MAX_REJECTED = 10_000

#: The seconds a chunk of jobs should take (chunks grow to it as jobs are timed).
CHUNK_SECONDS = 0.25
#: The same for a Dask cluster, where sending a task costs more.
DASK_CHUNK_SECONDS = 1.0
#: The most jobs a chunk holds.
MAX_CHUNK = 4096

#: Errors of the whole batch rather than of one job: the first job raising one stops
#: the batch (it is bad input, and every job would say the same).
_SETUP_ERRORS = (UnknownComponentError, InvalidOptionError)


# -- the job ---------------------------------------------------------------------------


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


def _spec_measures(spec: Spec, batch: BatchKind) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The summary's numbers of ``spec``'s records (its kind declares ``batch``)."""
    return _measure_paths({**(_SOLVED_MEASURES if spec.solve else {}), **batch.measures})


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


#: What a kind that declares nothing gets.
_GENERIC = BatchKind()


def _kind_of(registry: Registry, kind: str) -> tuple[Any, BatchKind]:
    """The kind's :class:`~lacak.PuzzleType` (or ``None``) and its batch declaration."""
    kind_type = registry.puzzle_types().get(kind)
    batch = kind_type.batch if kind_type is not None else None
    return kind_type, batch or _GENERIC


def _default_instance(instance: Any) -> Any:
    to_dict = getattr(instance, "to_dict", None)
    if callable(to_dict):
        return to_dict()
    if hasattr(instance, "initial"):
        return describe_state(instance, instance.initial)
    return str(instance)


class _LookedUp:
    """What every job of a :class:`Spec` finds in the registry, found once in a process
    (and again when the registry changes): the kind's declarations, the generator with
    its options, and the paths of the summary's numbers."""

    __slots__ = ("batch", "generate", "generation", "kind_type", "measures", "registry",
                 "shown", "spec")  # fmt: skip

    def __init__(self, spec: Spec, registry: Registry) -> None:
        self.spec = spec
        self.registry = registry
        self.generation = registry.generation
        self.kind_type, self.batch = _kind_of(registry, spec.kind)
        self.generate = _BoundGenerator(spec.kind, spec.generator, spec.options,
                                        registry=registry)  # fmt: skip
        self.shown = self.batch.instance or _default_instance
        self.measures = _spec_measures(spec, self.batch)


class _Drawn:
    """A job :meth:`Spec.start` began: its instance, generated, prepared and solved."""

    __slots__ = ("error", "found", "index", "instance", "puzzle", "result", "seconds", "seed")

    def __init__(self, found: _LookedUp, index: int, seed: int, instance: Any) -> None:
        self.found = found
        self.index = index
        self.seed = seed
        self.instance = instance
        self.puzzle: Any = None
        self.result: SearchResult | None = None
        #: the record's ``error`` (a search stopped by a limit), or ``None``
        self.error: dict[str, str] | None = None
        self.seconds = 0.0


#: The last :class:`_LookedUp` made (one spec runs at a time in a worker: a chunk's jobs).
_looked_up: _LookedUp | None = None


def _look_up(spec: Spec, registry: Registry) -> _LookedUp:
    """What ``spec``'s jobs find in ``registry``: the last one found, while it serves."""
    global _looked_up
    found = _looked_up
    if found is None or found.spec is not spec or found.registry is not registry or (
        found.generation != registry.generation
    ):
        found = _looked_up = _LookedUp(spec, registry)
    return found


@attrs.frozen(kw_only=True)
class Spec:
    """What every job of a batch does (made by :func:`spec`, which checks it): picklable,
    and called in the workers as ``spec((index, seed)) -> Made``."""

    #: The puzzle kind.
    kind: str
    #: The generator's name.
    generator: str
    #: The generator's size argument (``(rows, cols)``), or ``None`` for its default.
    size: Any = None
    #: The generator's options.
    options: Mapping[str, Any] = attrs.field(factory=dict)
    #: The kind's own batch options (:attr:`BatchKind.options <lacak.BatchKind.options>`).
    kind_options: Mapping[str, Any] = attrs.field(factory=dict)
    #: Whether each instance is solved.
    solve: bool = False
    #: The strategy, or ``None`` for :func:`lacak.choose`'s choice.
    strategy: str | None = None
    #: The heuristic, or ``None`` for the choice.
    heuristic: str | None = None
    #: Limits of each job (``seconds`` covers generating and preparing too).
    limits: Limits | None = None
    #: Keep only instances whose solution is at least this long (others are drawn again).
    min_length: int | None = None
    #: Keep only instances whose solution is at most this long.
    max_length: int | None = None
    #: Drop an instance equal to one before it (and draw again).
    unique: bool = False
    #: Put wall-clock times in the records (``stats.seconds``, ``seconds``); the file is
    #: then no longer the same from run to run.
    timings: bool = False

    def __call__(self, job: tuple[int, int]) -> Made:
        """Run job ``(index, seed)`` quietly (a worker shows no progress of its own)."""
        return self.finish(self.start(job))

    def run(self, job: tuple[int, int]) -> Made:
        """Run job ``(index, seed)``, its progress shown: its record, or why its draw
        was rejected.

        :raises LacakError: what generating or solving raised (a batch makes it the
            job's error record).
        """
        return self.finish(self._start(job))

    def start(self, job: tuple[int, int]) -> Made | _Drawn:
        """The first half of job ``(index, seed)``, quietly: the instance generated,
        prepared and solved (:meth:`finish` makes its record), or why its draw was
        rejected. A worker runs the first half of every job of a chunk, then the
        second half of each (:meth:`lacak.batch.iter_many`'s ``finish``).

        :raises LacakError: what generating or solving raised (a batch makes it the
            job's error record).
        """
        if not progress.active():
            return self._start(job)
        with progress.reporting(None):
            return self._start(job)

    def _start(self, job: tuple[int, int]) -> Made | _Drawn:
        began = time.perf_counter()
        if self.limits is None:
            drawn = self._draw(*job)
        else:
            with self.limits.start():  # one deadline for generating, preparing and solving
                drawn = self._draw(*job)
        seconds = time.perf_counter() - began
        if isinstance(drawn, str):
            return Made(None, job[1], rejected=drawn, seconds=seconds)
        drawn.seconds = seconds
        return drawn

    def _draw(self, index: int, seed: int) -> _Drawn | str:
        registry = default_registry()
        found = _looked_up
        if found is None or found.spec is not self or found.registry is not registry or (
            found.generation != registry.generation
        ):
            found = _look_up(self, registry)
        batch = found.batch
        instance = found.generate(self.size, seed)
        if batch.prepare is not None:
            instance = batch.prepare(instance, solve=self.solve, **self.kind_options)
            if instance is None:
                return "kind"
        drawn = _Drawn(found, index, seed, instance)
        if self.solve:
            puzzle = batch.puzzle(instance) if batch.puzzle is not None else instance
            choice = choose(puzzle, self.strategy, self.heuristic, registry=registry)
            result = choice.searcher(puzzle, heuristic=choice.heuristic, limits=self.limits)
            if not result.stopped.is_limit and not self._wanted(result.length, result.found):
                return "length"
            drawn.puzzle, drawn.result = puzzle, result
            if result.stopped.is_limit:
                advice = None
                kind_type = found.kind_type
                if kind_type is not None and kind_type.advice is not None:
                    advice = kind_type.advice(puzzle, result)
                message = f"the search was stopped by a limit ({result.stopped})"
                drawn.error = {"type": LimitReachedError.__name__,
                               "message": message + (f"; {advice}" if advice else "")}  # fmt: skip
        return drawn

    def finish(self, drawn: Made | _Drawn) -> Made:
        """The second half of a job :meth:`start` began: its record (a rejected draw as
        it is)."""
        if isinstance(drawn, Made):
            return drawn
        return Made._make(self._row(drawn))

    def _row(self, drawn: _Drawn) -> tuple[Any, ...]:
        """:meth:`finish`'s :class:`Made`, as a plain tuple."""
        began = time.perf_counter()
        found = drawn.found
        error = drawn.error
        data: dict[str, Any] = {"index": drawn.index, "seed": drawn.seed, "ok": error is None,
                                "instance": found.shown(drawn.instance)}  # fmt: skip
        if drawn.result is not None:
            data["result"] = drawn.result.to_dict(drawn.puzzle, registry=found.registry)
            if not self.timings:
                data["result"]["stats"]["seconds"] = None
        if error is not None:
            data["error"] = error
        batch = found.batch
        if batch.record is not None:
            data = dict(batch.record(data, **self.kind_options))
            if "digest" in data:
                raise PluginError(
                    f"the {self.kind} kind's batch record() gave a record with a 'digest': "
                    "lacak adds it (the record's check), a kind cannot"
                )
        seconds = drawn.seconds + time.perf_counter() - began
        if self.timings:
            data["seconds"] = round(seconds, 6)
        return (
            _dumps(data) + b"\n",
            drawn.seed,
            bool(data.get("ok")),
            None,
            _digest(data.get("instance")) if self.unique else None,
            _measures(data, found.measures),
            seconds,
            None if error is None else error["type"],
        )

    def _wanted(self, length: int, found: bool) -> bool:
        if self.min_length is None and self.max_length is None:
            return True
        if not found:
            return False
        return (self.min_length is None or length >= self.min_length) and (
            self.max_length is None or length <= self.max_length
        )

    def error_line(self, index: int, seed: int, error: BaseException) -> bytes:
        """The record of a job that raised ``error``."""
        data = {"index": index, "seed": seed, "ok": False, "error": _error_data(error)}
        return _dumps(data) + b"\n"


def _whole(value: Any, what: str, *, least: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        kind = "positive" if least == 1 else "non-negative"
        raise InvalidOptionError(f"{what} must be a {kind} integer, got {value!r}")
    return value


def spec(
    kind: str,
    *,
    generator: str | None = None,
    size: Any = None,
    options: Mapping[str, Any] | None = None,
    kind_options: Mapping[str, Any] | None = None,
    solve: bool | None = None,
    strategy: str | None = None,
    heuristic: str | None = None,
    limits: Limits | None = None,
    min_length: int | None = None,
    max_length: int | None = None,
    unique: bool = False,
    timings: bool = False,
    registry: Registry | None = None,
) -> Spec:
    """The jobs of a batch of ``kind`` instances, checked before any runs.

    The kind's :class:`~lacak.BatchKind` gives the defaults: its generator, whether
    instances are solved, and what its own options (``kind_options``) mean.

    :param generator: the generator's name (default: the kind's).
    :param size: the generator's size, ``(rows, cols)`` (default: the generator's own).
    :param options: the generator's options.
    :param solve: solve each instance (default: as the kind declares); a strategy, a
        heuristic or a length bound implies it.
    :param limits: bounds of each job; a job that reaches one is a failed record.
    :param min_length: keep only instances whose solution has at least this many
        moves (the others are drawn again, with the next jobs' seeds).
    :param unique: keep only instances unlike every one before them.
    :param timings: put wall-clock times in the records (they then differ from run to run).
    :raises UnknownComponentError: no such kind or generator.
    :raises InvalidOptionError: an option the generator or the kind does not take, a
        bad size or bound, or options that contradict each other.
    """
    reg = _registry(registry)
    _kind_type, batch = _kind_of(reg, kind)
    catalogue = reg.generators(kind)  # raises for a kind with no generator, listing those
    given = dict(kind_options or {})
    unknown = sorted(set(given) - set(batch.options))
    if unknown:
        raise InvalidOptionError(
            f"batches of {kind} take no option {', '.join(map(repr, unknown))} "
            f"(their options: {', '.join(sorted(batch.options)) or 'none'})"
        )
    settings = {**batch.options, **given}
    planned: Mapping[str, Any] = batch.plan(**given) if batch.plan is not None else {}
    planned_generator = planned.get("generator")
    if generator is not None and planned_generator not in (None, generator):
        raise InvalidOptionError(
            f"-a {generator} contradicts the {kind} options given, which mean the "
            f"{planned_generator!r} generator"
        )
    name = generator or planned_generator or batch.generator
    if name is None:
        if len(catalogue) != 1:
            raise InvalidOptionError(
                f"name a {kind} generator (-a): {', '.join(sorted(catalogue))}"
            )
        (name,) = list(catalogue)
    chosen = catalogue[name]  # raises UnknownComponentError, with close matches
    generator_options = {**planned.get("options", {}), **(options or {})}
    bad = sorted(set(generator_options) - set(chosen.options))
    if bad:
        raise InvalidOptionError(
            f"generator {name!r} takes no option {', '.join(map(repr, bad))} "
            f"(its options: {', '.join(sorted(chosen.options)) or 'none'})"
        )
    for bound, what in ((min_length, "the least solution length"),
                        (max_length, "the greatest solution length")):  # fmt: skip
        if bound is not None:
            _whole(bound, what)
    if min_length is not None and max_length is not None and min_length > max_length:
        raise InvalidOptionError(
            f"no solution is at least {min_length} and at most {max_length} moves long"
        )
    wanted = strategy is not None or heuristic is not None or (
        min_length is not None or max_length is not None
    )
    if solve is None:
        solve = bool(planned.get("solve", batch.solve)) or wanted
    elif not solve and wanted:
        raise InvalidOptionError(
            "a strategy, a heuristic or a solution length needs the instances solved "
            "(drop --no-solve)"
        )
    if strategy is not None and strategy not in reg.searchers():
        reg.searchers()[strategy]  # raises, with close matches
    if limits is not None and not isinstance(limits, Limits):
        raise InvalidOptionError(
            f"limits must be a lacak.Limits (or None), not {type(limits).__name__}"
        )
    return Spec(
        kind=kind,
        generator=name,
        size=size,
        options=generator_options,
        kind_options=settings,
        solve=solve,
        strategy=strategy,
        heuristic=heuristic,
        limits=limits,
        min_length=min_length,
        max_length=max_length,
        unique=bool(unique),
        timings=bool(timings),
    )


# -- the summary -----------------------------------------------------------------------


@attrs.define
class Summary:
    """What a batch did: counts, failures, numbers and time (``lacak batch`` prints it)."""

    #: The puzzle kind.
    kind: str
    #: The records asked for.
    count: int
    #: Where the records went (``None``: standard output or nowhere).
    out: str | None = None
    #: Workers that ran the jobs.
    workers: int = 1
    #: Records in the output (those of an earlier run included, when resumed).
    records: int = 0
    #: Records written by this run.
    written: int = 0
    #: Records that succeeded.
    ok: int = 0
    #: Failed records by error type (``LimitReachedError``, ``ValueError``...).
    errors: Counter[str] = attrs.field(factory=Counter)
    #: Draws rejected and drawn again, by reason (``length``, ``duplicate``, ``kind``).
    rejected: Counter[str] = attrs.field(factory=Counter)
    #: Per measure: ``[count, sum, least, most]``.
    measures: dict[str, list[float]] = attrs.field(factory=dict)
    #: Seconds the jobs of this run took, together (in their workers).
    job_seconds: float = 0.0
    #: When this run began (``time.perf_counter``).
    began: float = attrs.field(factory=time.perf_counter)
    #: Seconds this run took (set when it ends).
    seconds: float = 0.0
    #: Whether the run was interrupted (Ctrl-C).
    interrupted: bool = False
    #: Why the batch gave up before ``count`` records, if it did.
    gave_up: str | None = None

    @property
    def failed(self) -> int:
        """Records that failed."""
        return sum(self.errors.values())

    @property
    def complete(self) -> bool:
        """Whether every record asked for is in the output."""
        return self.records >= self.count

    @property
    def succeeded(self) -> bool:
        """Whether the output is complete and every record in it succeeded."""
        return self.complete and not self.failed

    def add(self, record: Record) -> None:
        """Count one record written by this run."""
        self.note(record.ok, record.error, record.measures, seconds=record.seconds)

    def note(self, ok: bool, error: str | None, measures: Iterable[tuple[str, float]],
             *, seconds: float = 0.0, new: bool = True) -> None:  # fmt: skip
        """Count one record (``new``: written by this run, not found by a resume)."""
        self.records += 1
        self.written += new
        self.job_seconds += seconds
        if ok:
            self.ok += 1
        else:
            self.errors[error or "error"] += 1
        for label, value in measures:
            entry = self.measures.get(label)
            if entry is None:
                self.measures[label] = [1, value, value, value]
            else:
                entry[0] += 1
                entry[1] += value
                entry[2] = min(entry[2], value)
                entry[3] = max(entry[3], value)

    def stop(self) -> None:
        """Note the time this run took."""
        self.seconds = time.perf_counter() - self.began

    def to_dict(self) -> dict[str, Any]:
        """The summary as JSON data (``lacak batch --json``)."""
        return {
            "kind": self.kind,
            "out": self.out,
            "count": self.count,
            "records": self.records,
            "written": self.written,
            "ok": self.ok,
            "failed": self.failed,
            "errors": dict(sorted(self.errors.items())),
            "rejected": dict(sorted(self.rejected.items())),
            "complete": self.complete,
            "succeeded": self.succeeded,
            "interrupted": self.interrupted,
            "gave_up": self.gave_up,
            "workers": self.workers,
            "seconds": round(self.seconds, 3),
            "records_per_second": round(self.written / self.seconds, 3) if self.seconds else None,
            "measures": {
                label: {"count": int(n), "mean": total / n, "min": low, "max": high}
                for label, (n, total, low, high) in self.measures.items()
            },
        }


# -- streaming the records --------------------------------------------------------------


@attrs.frozen
class Record:
    """One record of a batch, in job order (:func:`records`)."""

    #: The job's index (its draw: indices skip rejected draws).
    index: int
    #: The job's seed (``lacak.generate(kind, generator, size, seed=seed)`` makes it again).
    seed: int
    #: The record: one line of JSON, with its newline.
    line: bytes
    #: Whether it succeeded.
    ok: bool
    #: The type of its error (``"LimitReachedError"``), when it failed.
    error: str | None = None
    #: The summary's numbers of it, as ``(label, value)`` pairs.
    measures: tuple[tuple[str, float], ...] = ()
    #: Seconds its job took (in its worker).
    seconds: float = 0.0

    def data(self) -> dict[str, Any]:
        """The record as JSON data."""
        data: dict[str, Any] = json.loads(self.line)
        return data


class _Sizes:
    """Chunk sizes that grow to :data:`CHUNK_SECONDS` of work as jobs are timed, and
    shrink at the end of a round so that every worker has some of the last jobs, but
    not below a tenth of that work (a chunk of a few short jobs costs more to send
    and collect than it balances: each of the last chunks of a thousand 1 ms jobs
    cost 0.1-0.2 ms, and there were dozens)."""

    def __init__(self, workers: int, target: float, fixed: int | None) -> None:
        self.workers = max(1, workers)
        self.target = target
        self.fixed = fixed
        self.mean: float | None = None
        self.left = 0

    def observe(self, seconds: float) -> None:
        self.mean = seconds if self.mean is None else 0.9 * self.mean + 0.1 * seconds

    def __call__(self) -> int:
        if self.fixed is not None:
            return self.fixed
        if self.mean is None:
            return 1
        per_job = max(self.mean, 1e-6)
        least = int(self.target / 10 / per_job)
        size = min(int(self.target / per_job), MAX_CHUNK, max(least, self.left // (4 * self.workers)))
        return max(1, size)


class _Job:
    """What a worker runs: job ``(index, seed)`` of a batch, in two halves (see
    :func:`lacak.batch.iter_many`). The seeds are derived in the parent, a block at a
    time as its jobs are taken (:func:`_jobs`): in a warm loop, not cold in the worker
    after each job's own work.

    Its values are :class:`Made` as plain tuples (which pickle 5x faster than the
    named ones: no ``__reduce_ex__``): built-in data, so a chunk whose jobs all
    succeed comes back as one list (``plain_values``)."""

    __slots__ = ("spec",)

    plain_values = True

    def __init__(self, spec: Spec) -> None:
        self.spec = spec

    def __reduce__(self) -> tuple[type[_Job], tuple[Spec]]:
        return (_Job, (self.spec,))

    def __call__(self, job: tuple[int, int]) -> Made | _Drawn:
        if progress.active():
            return self.spec.start(job)
        return self.spec._start(job)

    def finish(self, drawn: Made | _Drawn) -> tuple[Any, ...]:
        if isinstance(drawn, Made):
            return tuple(drawn)
        return self.spec._row(drawn)


def _jobs(first: int, count: int, seed: int, sizes: _Sizes) -> Iterator[tuple[int, int]]:
    """Jobs ``(index, seed)`` of a batch seeded ``seed``, from ``first``."""
    mixer = _mixer(_whole(seed, "the batch seed"))
    sizes.left = count
    for block in range(first, first + count, _SEED_BLOCK):
        size = min(_SEED_BLOCK, first + count - block)
        for index, job in zip(range(block, block + size), mixer.children(block, size),
                              strict=True):
            sizes.left -= 1
            yield index, job


#: Job seeds made at a time (with numpy) as the jobs are read.
_SEED_BLOCK = 256


def records(
    spec: Spec,
    *,
    count: int,
    seed: int,
    start: int = 0,
    written: int = 0,
    seen: Iterable[bytes] = (),
    executor: concurrent.futures.Executor | None = None,
    workers: int | None = None,
    chunksize: int | None = None,
    summary: Summary | None = None,
    chain: int = 0,
) -> Iterator[Record]:
    """The records of a batch, in job order, made as they are read.

    Job ``i`` uses seed :func:`job_seed(seed, i) <lacak.batch.job_seed>`, so a
    record does not depend on what runs the jobs or on how they are chunked.
    Draws that ``spec`` rejects (a solution too short or too long, an instance
    seen before) are drawn again with the next jobs, so record indices may skip.
    Each record ends with its digest, chained to the one before it (see
    :func:`record_digest`). No job runs in this process: the first runs alone in a
    process of its own, with its progress shown here, so that what it builds (a
    pattern database, a compiled dictionary) is on disk before the workers start;
    the others run in lacak's pool (of one process for one worker) or ``executor``.

    :param count: the records the whole batch has.
    :param seed: the batch's seed.
    :param start: the first job to run (a resumed batch: one past its last record).
    :param written: records already written (a resumed batch).
    :param seen: digests of the instances already written (a resumed ``unique`` batch).
    :param executor: as for :func:`lacak.batch.iter_many` (a Dask client's executor).
    :param workers: processes of lacak's own pool (default: one per core); with an
        ``executor``, how many jobs it runs at once (chunks are sized by it).
    :param chunksize: jobs per chunk (default: chunks that grow to about
        :data:`CHUNK_SECONDS` of work).
    :param summary: where the draws rejected are counted (count the records with
        :meth:`Summary.add`, as :func:`write` does once it has written each).
    :param chain: the digest of the record before ``start`` (a resumed batch: its last
        record's, as an integer), which the first record's digest follows.
    :raises LimitReachedError: :data:`MAX_REJECTED` draws in a row were rejected
        (after the records made so far).
    :raises UnknownComponentError: the first job found an unknown strategy or
        heuristic (the same for every job).
    :raises InvalidOptionError: bad counts, or a bad option the first job found.
    """
    rows = _rows(spec, count=count, seed=seed, start=start, written=written, seen=seen,
                 executor=executor, workers=workers, chunksize=chunksize,
                 summary=summary, chain=chain)  # fmt: skip
    try:
        for row in rows:
            yield Record(*row)
    finally:
        rows.close()  # (now, not when it is collected: its pool is shut down)


#: A record as :func:`_rows` gives it: the fields of :class:`Record`, in its order.
_Row = tuple[int, int, bytes, bool, "str | None", tuple[tuple[str, float], ...], float]


def _rows(
    spec: Spec,
    *,
    count: int,
    seed: int,
    start: int = 0,
    written: int = 0,
    seen: Iterable[bytes] = (),
    executor: concurrent.futures.Executor | None = None,
    workers: int | None = None,
    chunksize: int | None = None,
    summary: Summary | None = None,
    chain: int = 0,
) -> Generator[_Row, None, None]:
    """:func:`records`, each as a plain tuple (what :func:`write` reads: no object a
    record but the tuple)."""
    count = _whole(count, "the number of records")
    start = _whole(start, "the first job")
    written = _whole(written, "the records written")
    if chunksize is not None:
        chunksize = _whole(chunksize, "the chunk size", least=1)
    dask = executor is not None and not _is_local(executor)
    if executor is not None:
        pool_size = workers or getattr(executor, "_max_workers", 0) or 0
        workers = None
    else:
        pool_size = workers if workers is not None else os.cpu_count() or 1
    sizes = _Sizes(pool_size, DASK_CHUNK_SECONDS if dask else CHUNK_SECONDS, chunksize)
    known = set(seen) if spec.unique else set()
    needed = count - written
    index = start
    in_a_row = 0
    drawn = kept = 0
    first = True
    while needed > 0:
        if drawn:
            rate = max(kept / drawn, 1 / MAX_REJECTED)
            size = min(math.ceil(needed / rate * 1.1) + 1, MAX_REJECTED)
        else:
            size = needed
        here: list[Outcome[Any]] = []
        if first:
            # the first job here: it loads what the others need, and bad input shows now
            first = False
            here.append(_first(spec, index, seed))
        pool = _iter_many(_Job(spec), _jobs(index + len(here), size - len(here), seed, sizes),
                          executor=executor, workers=workers, chunksize=sizes, ordered=True,
                          start=index + len(here), apart=True)  # fmt: skip
        try:
            for job, made in _made(itertools.chain(here, pool)):
                index = job + 1
                drawn += 1
                if isinstance(made, BaseException):
                    made_seed = job_seed(seed, job)
                    line, ok = spec.error_line(job, made_seed, made), False
                    error, measures, seconds = type(made).__name__, (), 0.0
                else:
                    # (a Made, as a plain tuple from a worker)
                    line, made_seed, ok, reason, digest, measures, seconds, error = made
                    sizes.observe(seconds)
                    if reason is None and digest is not None:
                        if digest in known:
                            reason = "duplicate"
                        else:
                            known.add(digest)
                    if reason is not None:
                        in_a_row += 1
                        if summary is not None:
                            summary.rejected[reason] += 1
                            summary.job_seconds += seconds
                        if in_a_row >= MAX_REJECTED:
                            raise LimitReachedError(
                                f"gave up: {MAX_REJECTED:,} draws in a row were rejected "
                                f"({_reasons(summary)}); the generator cannot make "
                                f"{count:,} such instances"
                            )
                        continue
                in_a_row = 0
                kept += 1
                needed -= 1
                # the record, its digest after the bytes made without it (its "}\n" cut):
                # _DIGEST_TAIL(record_digest(head, chain)), made the quicker way
                head = line[:-2]
                digest = _XXH3_BYTES(head, chain)
                chain = int.from_bytes(digest, "big")
                line = b"".join((head, _DIGEST_KEY, binascii.hexlify(digest), _DIGEST_END))
                yield (job, made_seed, line, ok, error, measures, seconds)
                if needed == 0:
                    break
        finally:
            pool.close()  # the jobs not needed any more are cancelled, the pool shut down


def _made(given: Iterable[Outcome[Any] | _Run]) -> Iterator[tuple[int, Any]]:
    """``(index, Made or the job's error)`` of each job, from outcomes and runs."""
    for each in given:
        if isinstance(each, _Run):
            yield from zip(itertools.count(each.first), each.values)
        elif each.error is None:
            yield each.index, each.value
        else:
            yield each.index, each.error


def _reasons(summary: Summary | None) -> str:
    if summary is None or not summary.rejected:
        return "rejected"
    names = {"length": "solution length out of range", "duplicate": "duplicates",
             "kind": "refused by the kind"}  # fmt: skip
    return ", ".join(f"{names.get(k, k)}: {n:,}" for k, n in sorted(summary.rejected.items()))


def _first(spec: Spec, index: int, seed: int) -> Outcome[Made]:
    """The first job, run alone before the others start, in a process of its own (as
    every job: one that kills its process costs only its record), with its progress
    shown here (a one-time build is announced): what it builds is on disk before the
    workers start. An error of the whole batch (bad input) is raised, not recorded."""
    outcome = _apart(spec.run, index, (index, job_seed(seed, index)))
    if isinstance(outcome.error, _SETUP_ERRORS):
        raise outcome.error
    return outcome


def _is_local(executor: Any) -> bool:
    import concurrent.futures as cf

    return isinstance(executor, (cf.ProcessPoolExecutor, cf.ThreadPoolExecutor))


# -- Dask --------------------------------------------------------------------------------


@contextlib.contextmanager
def dask_executor(scheduler: str) -> Iterator[tuple[concurrent.futures.Executor, int]]:
    """A Dask cluster's executor and its number of worker threads, for the block.

    :param scheduler: ``tcp://HOST:PORT`` (or another Dask address) of a running
        scheduler, or ``local:N`` to start a ``LocalCluster`` of ``N`` worker
        processes on 127.0.0.1 (closed after the block).
    :raises InvalidOptionError: Dask is not installed (the message says what to
        install), the address is malformed, or the scheduler cannot be reached.
    :raises LimitReachedError: the running deadline (a command's ``--timeout``) passed
        before a ``local:N`` cluster was up.
    """
    try:
        import distributed
    except ImportError:
        raise InvalidOptionError(
            "--scheduler needs Dask, which is not installed: pip install 'lacak[dask]'"
        ) from None
    import logging

    with contextlib.ExitStack() as stack:
        if scheduler.startswith("local:"):
            text = scheduler.removeprefix("local:")
            if not text.isdigit() or int(text) < 1:
                raise InvalidOptionError(
                    f"--scheduler local:N starts N worker processes; N must be a positive "
                    f"integer, not {text!r}"
                )
            # its workers' own logs (a heartbeat that misses the scheduler as the cluster
            # closes, a worker killed) would put tracebacks on the terminal: what matters
            # comes back as the tasks' results or errors
            from .cluster import local_cluster  # (started within the running deadline)

            cluster = stack.enter_context(local_cluster(
                int(text), threads_per_worker=1, processes=True, host="127.0.0.1",
                dashboard_address=None, silence_logs=logging.CRITICAL,
            ))  # fmt: skip
            client = stack.enter_context(distributed.Client(cluster))
        elif "://" in scheduler:
            try:
                client = stack.enter_context(distributed.Client(scheduler, timeout="10s"))
            except (OSError, TimeoutError) as error:
                raise InvalidOptionError(
                    f"cannot reach the Dask scheduler at {scheduler}: {error}"
                ) from None
        else:
            raise InvalidOptionError(
                f"--scheduler is tcp://HOST:PORT (a Dask scheduler) or local:N, not {scheduler!r}"
            )
        threads = sum(client.nthreads().values()) or 1
        quiet = _CancelledCascade()
        logger = logging.getLogger("tornado.application")
        logger.addFilter(quiet)
        stack.callback(logger.removeFilter, quiet)
        from .cluster import DaskExecutor

        yield DaskExecutor(client), threads


class _CancelledCascade:
    """Drops the tracebacks Dask's executor logs about futures lacak cancelled (a batch or
    a split search that needs no more): Dask sets the result of a cancelled
    :class:`concurrent.futures.Future` anyway and logs the ``InvalidStateError`` it gets,
    or logs the ``FutureCancelledError`` of its own future. Nothing is wrong; the results
    are simply not wanted."""

    def filter(self, record: Any) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if error is None:
            return True
        name = type(error).__name__
        return not (name in _CANCELLED and "cancel" in str(error).lower())


#: What Dask logs about a future cancelled on its way (its own, or the executor's).
_CANCELLED = frozenset({"InvalidStateError", "FutureCancelledError", "CancelledError"})


def write(
    spec: Spec,
    out: str | os.PathLike[str] | None,
    *,
    count: int,
    seed: int,
    resume: bool = False,
    overwrite: bool = False,
    executor: concurrent.futures.Executor | None = None,
    workers: int | None = None,
    chunksize: int | None = None,
    summary: Summary | None = None,
) -> Summary:
    """Write a batch's records to ``out``, in job order, as they come.

    ``out`` ending in ``.jsonl`` (or anything else) is JSON Lines, ``.gz`` gzipped
    JSON Lines, ``.npz`` stacked arrays (for kinds that declare them); ``None`` or
    ``"-"`` is standard output. An interruption (``KeyboardInterrupt``) leaves a
    whole file of the records finished so far, and ``resume=True`` finishes it: the
    file is then the same, byte for byte, as one written without a break.

    :param resume: finish the file an interrupted run left (it is checked to be
        this batch's).
    :param overwrite: replace an existing file (otherwise it is refused).
    :param summary: the summary to count into (kept by the caller, it tells what was
        done even when this raises).
    :returns: the summary.
    :raises InvalidOptionError: bad options, an existing file, or a file to resume
        that is not this batch's.
    :raises LimitReachedError: the batch gave up (see :func:`records`); the file
        holds the records made so far.
    """
    summary = summary if summary is not None else Summary(spec.kind, count)
    summary.out = None if out is None or str(out) == "-" else str(out)
    from .dataset_files import open_output

    sink, state = open_output(out, spec, seed=seed, count=count, resume=resume,
                              overwrite=overwrite, summary=summary)  # fmt: skip
    complete = False
    guard = _Deferred()
    try:
        with guard, progress.task(f"{spec.kind} batch", total=count) as shown:
            shown.update(completed=state.records)
            last = time.monotonic()
            done = state.records
            note = summary.note
            rows = _rows(spec, count=count, seed=seed, start=state.next_index,
                         written=state.records, seen=state.seen, executor=executor,
                         workers=workers, chunksize=chunksize, summary=summary,
                         chain=state.chain)  # fmt: skip
            with contextlib.closing(rows):  # (its pool shut down here, even on an error)
                for _index, _seed, line, ok, error, measures, seconds in rows:
                    guard.busy = True  # (guard.holding(), spelled out: it runs for every record)
                    sink.write(line)
                    note(ok, error, measures, seconds=seconds)
                    guard.busy = False
                    if guard.pending:
                        guard.raise_pending()
                    done += 1
                    now = time.monotonic()
                    if now - last > 0.2:
                        last = now
                        elapsed = time.perf_counter() - summary.began
                        rate = summary.written / elapsed if elapsed > 0 else 0.0
                        shown.update(completed=done, description=f"{spec.kind} batch: "
                                     f"{rate:,.0f} records/s")  # fmt: skip
            shown.update(completed=done)
        complete = summary.records >= count
    except KeyboardInterrupt:
        summary.interrupted = True
        raise
    except LacakError as error:
        if isinstance(error, LimitReachedError):
            summary.gave_up = str(error)
        raise
    finally:
        summary.stop()
        with guard.holding(again=False):
            sink.close(complete)
    return summary


class _Deferred:
    """Ctrl-C while a record is being written waits until it is written (a gzip stream
    cut in the middle of a write has a wrong checksum); at any other time, such as
    while waiting for the workers, it interrupts at once. Only in the main thread,
    and only when Ctrl-C raises ``KeyboardInterrupt`` (Python's own handler)."""

    def __init__(self) -> None:
        self.busy = False
        self.pending = False
        self.previous: Any = None

    def __enter__(self) -> _Deferred:
        import signal
        import threading

        if threading.current_thread() is threading.main_thread() and (
            signal.getsignal(signal.SIGINT) is signal.default_int_handler
        ):
            self.previous = signal.signal(signal.SIGINT, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        import signal

        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)
            self.previous = None

    def _handle(self, signum: int, frame: Any) -> None:
        if self.busy:
            self.pending = True
            return
        raise KeyboardInterrupt

    @contextlib.contextmanager
    def holding(self, *, again: bool = True) -> Iterator[None]:
        """Run the block whole; a Ctrl-C during it is raised after it (if ``again``)."""
        self.busy = True
        try:
            yield
        finally:
            self.busy = False
        if self.pending and again:
            self.raise_pending()

    def raise_pending(self) -> None:
        """Raise the Ctrl-C that came while busy."""
        self.pending = False
        raise KeyboardInterrupt
