"""What a batch did (:class:`Summary`) and one record of it (:class:`Record`).

Both are plain data that :mod:`lacak.batch.dataset` fills in as it writes a batch and
:mod:`lacak.batch.files` reads back when one is resumed; they import neither.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Iterable
from typing import Any

import attrs

__all__ = ["Record", "Summary"]


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
