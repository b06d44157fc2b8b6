"""What a dictionary file holds besides its words, and what loading it found:
the formats and metadata keys, :class:`SkippedWord` and :class:`LoadReport`.
"""

from __future__ import annotations

import attrs

from ..output import plural

__all__ = ["DICTIONARY_FORMATS", "METADATA_KEYS", "LoadReport", "SkippedWord"]


#: The shapes :func:`dump_dictionary` can write (and the loader reads).
DICTIONARY_FORMATS = ("object", "seed", "list")

#: Metadata keys of the ``object`` format (besides ``words``).
METADATA_KEYS = (
    "name",
    "title",
    "language",
    "count",
    "source",
    "license",
    "alphabet",
    "description",
    "filters",
)
#: The metadata keys whose values are not strings: ``count`` a whole number,
#: ``filters`` a list of strings.
_NOT_TEXT = ("count", "filters")


@attrs.frozen
class SkippedWord:
    """A word left out of a dictionary, and why."""

    #: The word as written in the file; a lone surrogate (``"\\ud800"`` in
    #: the JSON), which is not text and cannot be printed, is kept as its
    #: escape (``"\\ud800ok"``), so every skipped word can be written out.
    word: str
    #: Why it was left out (``"contains '-', which is not a letter"``, ...).
    reason: str


@attrs.frozen(kw_only=True)
class LoadReport:
    """What loading a dictionary file found besides the words."""

    #: The file read (or ``"<string>"``).
    origin: str = "<string>"
    #: ``"list"``, ``"seed"``, ``"object"`` (or ``"words"`` for a Python iterable).
    format: str = "list"
    #: Entries read, before normalisation.
    entries: int = 0
    #: Entries equal to an earlier entry once normalised.
    duplicates: int = 0
    #: Entries left out, with the reason.
    skipped: tuple[SkippedWord, ...] = ()
    #: Remarks: unknown metadata keys ignored, a name that differs from the file's stem, ...
    notes: tuple[str, ...] = ()
    #: Whether the words came from the compiled cache.
    cached: bool = attrs.field(default=False, eq=False)

    def reasons(self) -> dict[str, int]:
        """How many words were skipped for each kind of reason."""
        counts: dict[str, int] = {}
        for item in self.skipped:
            kind = _reason_kind(item.reason)
            counts[kind] = counts.get(kind, 0) + 1
        return counts

    def summary(self) -> str:
        """One line: entries, skipped by reason, duplicates."""
        parts = [plural(self.entries, "entry", "entries")]
        if self.skipped:
            reasons = ", ".join(f"{n} {kind}" for kind, n in sorted(self.reasons().items()))
            parts.append(f"{len(self.skipped)} skipped ({reasons})")
        if self.duplicates:
            parts.append(plural(self.duplicates, "duplicate"))
        return ", ".join(parts)


def _reason_kind(reason: str) -> str:
    if reason.startswith("contains"):
        return "not letters" if "not a letter" in reason else "outside the alphabet"
    return reason.split(":")[0]
