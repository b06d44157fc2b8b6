"""The dictionary file format: reading, normalising, caching and writing word lists.

A dictionary file is UTF-8 JSON in one of three shapes:

``list``
    a plain list of words: ``["abad", "abadi", ...]``;
``seed``
    an object of word lists keyed by first letter (the original format):
    ``{"A": ["ABAD", "ABADI"], "B": ["BABA"]}``;
``object``
    an object with metadata and ``words`` (a list, or a seed-style object)::

        {"name": "eng", "title": "English (SCOWL size 60)", "language": "en",
         "count": 96000, "source": "Debian package scowl ...", "license": "...",
         "alphabet": "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
         "filters": ["..."], "words": ["aback", ...]}

    Known metadata keys are ``name``, ``title``, ``language``, ``source``,
    ``license``, ``alphabet`` and ``description`` (strings), ``count`` (the
    number of words, a whole number: listings read it without loading the
    words, and a load that finds another number notes it) and ``filters`` (a
    list of strings: how the list was made from its source, what was left
    out and why); other keys are ignored with a note in the :class:`LoadReport`.

Every word is normalised by :func:`normalize_word`: Unicode NFC, then upper
case, with one exception: German ``ß`` becomes the capital sharp s ``ẞ``
(U+1E9E), *not* ``SS`` as :meth:`str.upper` would make it, so the letter is
kept and ``MASSE`` and ``MAẞE`` stay two words. A normalised word must be
made of letters (Unicode categories ``L*``, with combining marks ``M*``
allowed after a letter); when the file declares an ``alphabet`` every
letter must also be in it. Words that fail are skipped and reported, with
the reason, in :attr:`LoadReport.skipped`; duplicates after normalisation
are counted. A file that cannot be read, is not JSON, has values of the
wrong type or has no usable word raises :class:`~lacak.DictionaryError`
naming the file, the line and the column.

Loading a file keeps a compiled form (:mod:`marshal` of the normalised
words) in ``lacak.store.paths.cache_dir("dictionaries")``, keyed by a hash of the
file's bytes, so the next load of the same content skips JSON parsing and
normalisation. The entry is a verified cache file (:mod:`lacak.store.cache`): a
damaged, truncated or foreign entry is reported once ("rebuilding the
compiled dictionary of ...") and rewritten, never used.

>>> import lacak
>>> d = lacak.Dictionary.from_json('{"language": "de", "words": ["Straße", "maß", "ÄRGER", "x-y"]}',
...                                name="mini")
>>> d.words
('MAẞ', 'STRAẞE', 'ÄRGER')
>>> d.report.skipped
(SkippedWord(word='x-y', reason="contains '-', which is not a letter"),)
"""

from __future__ import annotations

import bisect
import functools
import itertools
import json
import marshal
import operator
import os
import re
import sys
import unicodedata
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, NamedTuple

import attrs

from .errors import DictionaryError, InvalidInputError
from .limits import check_deadline
from .store.paths import dictionary_limit, read_bounded

__all__ = [
    "DICTIONARY_FORMATS",
    "Dictionary",
    "LoadReport",
    "SkippedWord",
    "dump_dictionary",
    "load_dictionary",
    "normalize_word",
    "parse_dictionary",
    "word_problem",
    "words_dictionary",
]

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

#: Bumped whenever normalisation or the cached layout changes (the format number of
#: the ``lacak-dictionary`` cache files, see :mod:`lacak.store.cache`).
_CACHE_VERSION = 4
_CACHE_SALT = (
    f"lacak-dictionary/{_CACHE_VERSION}/unicode-{unicodedata.unidata_version}"
    f"/marshal-{marshal.version}/py{sys.version_info[0]}.{sys.version_info[1]}"
).encode()


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
        from .output import plural

        parts = [plural(self.entries, "entry", "entries")]
        if self.skipped:
            reasons = ", ".join(f"{n} {kind}" for kind, n in sorted(self.reasons().items()))
            parts.append(f"{len(self.skipped)} skipped ({reasons})")
        if self.duplicates:
            parts.append(plural(self.duplicates, "duplicate"))
        return ", ".join(parts)


# -- the Dictionary ----------------------------------------------------------------


class _Sorted(tuple[str, ...]):
    """Words known to be sorted and unique (normalised here, or read back from a
    verified cache entry written from such words): the constructor takes them as
    they are instead of checking every pair again."""

    __slots__ = ()


def _sorted_unique(words: Iterable[str]) -> tuple[str, ...]:
    if isinstance(words, _Sorted):
        return tuple(words)
    if isinstance(words, tuple) and all(a < b for a, b in itertools.pairwise(words)):
        return words  # already sorted and unique
    return tuple(sorted(set(words)))


def _as_filters(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(items)


@attrs.frozen(kw_only=True)
class Dictionary:
    """A named, normalised word list.

    The constructor takes words as they are (it only sorts them and drops
    repeats); :meth:`from_file`, :meth:`from_json` and :meth:`from_words`
    normalise them (see :func:`lacak.normalize_word`) and report what they skip.
    """

    #: Name used to look it up (a file's stem for drop-in files).
    name: str
    #: BCP 47 language tag (``"id"``, ``"en"``), or ``""`` if unknown.
    language: str
    #: The words, normalised (NFC, upper case), sorted and unique.
    words: tuple[str, ...] = attrs.field(converter=_sorted_unique, repr=False)
    #: Where the words come from (and their licence).
    source: str = ""
    #: The letters words may use, or ``""`` when not declared.
    alphabet: str = ""
    #: A human-readable title (``"English (SCOWL size 50)"``), or ``""``.
    title: str = ""
    #: The licence of the word list, or ``""``.
    license: str = ""
    #: How the list was made from its source: what was read, what was left out and
    #: why, with counts (the packaged lists say it; ``()`` when not said).
    filters: tuple[str, ...] = attrs.field(default=(), converter=_as_filters)
    #: What loading found (words skipped and why, duplicates, notes); ``None``
    #: for a dictionary built directly. Not part of equality.
    report: LoadReport | None = attrs.field(default=None, eq=False, repr=False)

    def __len__(self) -> int:
        return len(self.words)

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and word in self._set

    @functools.cached_property
    def _set(self) -> frozenset[str]:
        return frozenset(self.words)

    @classmethod
    def from_file(
        cls, path: str | os.PathLike[str], name: str | None = None, *, cache: bool = True
    ) -> Dictionary:
        """Read a dictionary file (list, seed or object format), normalised.

        A compiled form is cached by content hash, so reading the same file
        again is fast. See :func:`load_dictionary`.

        :param path: the JSON file.
        :param name: the dictionary's name; default the file's stem.
        :param cache: use the compiled cache.
        :raises DictionaryError: unreadable or malformed (names file, line, column).
        """
        return load_dictionary(path, name, cache=cache)

    @classmethod
    def from_json(
        cls, text: str | bytes, *, name: str | None = None, origin: str = "<string>"
    ) -> Dictionary:
        """Read a dictionary from JSON text (list, seed or object format), normalised.

        >>> Dictionary.from_json('["abad", "Abadi", "abad"]', name="mini").words
        ('ABAD', 'ABADI')

        :param name: default the text's ``name`` metadata, else the stem of ``origin``.
        :param origin: where the text comes from, for error messages.
        :raises DictionaryError: malformed text (names origin, line, column).
        """
        return parse_dictionary(text, name=name, origin=origin)

    @classmethod
    def from_words(
        cls,
        words: Iterable[str],
        *,
        name: str,
        language: str = "",
        alphabet: str = "",
        source: str = "",
        title: str = "",
        license: str = "",
        filters: Iterable[str] = (),
    ) -> Dictionary:
        """Normalise Python strings into a dictionary; unusable words go to ``report.skipped``.

        >>> Dictionary.from_words(["straße", "x1"], name="mini").words
        ('STRAẞE',)
        """
        return words_dictionary(
            words,
            name=name,
            language=language,
            alphabet=alphabet,
            source=source,
            title=title,
            license=license,
            filters=filters,
        )

    def to_json(self, format: str = "object") -> str:
        """The dictionary as JSON text: ``"object"`` (with metadata), ``"seed"`` or ``"list"``."""
        return dump_dictionary(self, format)

    @functools.cached_property
    def letters(self) -> str:
        """The declared alphabet, or else the letters the words use, sorted."""
        return self.alphabet or "".join(sorted(set("".join(self.words))))



def _reason_kind(reason: str) -> str:
    if reason.startswith("contains"):
        return "not letters" if "not a letter" in reason else "outside the alphabet"
    return reason.split(":")[0]


# -- normalisation ---------------------------------------------------------------


def normalize_word(word: str) -> str:
    """The canonical form of ``word``: NFC, upper case, ``ß`` → ``ẞ``.

    Surrounding white space is removed. Other plugins (a Boggle board, a
    word to check) use it so their letters compare equal to dictionary words.

    >>> normalize_word("straße")
    'STRAẞE'
    >>> normalize_word("cafe\\u0301")  # e + combining acute -> É
    'CAFÉ'
    """
    word = word.strip()
    if word.isascii():
        return word.upper()
    word = unicodedata.normalize("NFC", word).replace("ß", "ẞ").upper()
    return unicodedata.normalize("NFC", word)


def word_problem(word: str, alphabet: frozenset[str] | None = None) -> str | None:
    """Why the normalised ``word`` cannot be a dictionary word, or ``None`` if it can.

    >>> word_problem("ABAD") is None
    True
    >>> word_problem("ABA-ABA")
    "contains '-', which is not a letter"
    >>> word_problem("CAFÉ", frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
    "contains 'É', which is outside the alphabet"
    """
    if not word:
        return "empty"
    if not word.isalpha():
        for position, char in enumerate(word):
            if char.isalpha():
                continue
            if position and unicodedata.category(char).startswith("M"):
                continue
            return f"contains {_show(char)}, which is not a letter"
    if alphabet is not None:
        for char in word:
            if char not in alphabet:
                return f"contains {_show(char)}, which is outside the alphabet"
    return None


def _show(char: str) -> str:
    if char.isprintable() and not char.isspace() and not unicodedata.category(char).startswith("M"):
        return repr(char)
    return f"U+{ord(char):04X}"


def _printable(text: str) -> str:
    """``text`` with lone surrogates written as escapes (``\\ud800``), so it encodes as UTF-8."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def _text_problem(value: str) -> str | None:
    """Why ``value`` is not text (a lone surrogate, which cannot be encoded), or ``None``."""
    for char in value:
        if 0xD800 <= ord(char) <= 0xDFFF:
            return f"contains the lone surrogate U+{ord(char):04X}, which is not text"
    return None


def _alphabet_problem(alphabet: str) -> str | None:
    """Why a declared alphabet cannot be used, or ``None``.

    The alphabet is read like words: normalised, split at spaces and commas,
    and each piece must be letters, a combining mark (``M*``) being allowed
    after a letter (``"ǰ"`` is ``J`` + U+030C, Hindi ``"कि"`` is ``क`` + U+093F).
    """
    bad: dict[str, None] = {}
    marks = False
    for piece in re.split(r"[\s,]+", normalize_word(alphabet)):
        for position, char in enumerate(piece):
            if char.isalpha() or (position and unicodedata.category(char).startswith("M")):
                continue
            bad.setdefault(char, None)
            marks = marks or unicodedata.category(char).startswith("M")
    if not bad:
        return None
    hint = " (a combining mark must follow a letter)" if marks else ""
    what = "which is not a letter" if len(bad) == 1 else "which are not letters"
    return f"the alphabet contains {', '.join(map(_show, bad))}, {what}{hint}"


def _normalize_alphabet(alphabet: str) -> str:
    seen: dict[str, None] = {}
    for char in normalize_word(alphabet):
        if not char.isspace() and char != ",":
            seen.setdefault(char, None)
    return "".join(seen)


#: Words normalised, sorted or compared between two looks at the deadline: reading a
#: list of millions of words for the first time counts against a search's time limit,
#: and stops within a fraction of a second of it.
_CHUNK = 1 << 16


def _normalize_words(
    raw: Iterable[str], alphabet: str
) -> tuple[list[str], int, int, list[SkippedWord]]:
    """Normalise, check and deduplicate; returns ``(words, entries, duplicates, skipped)``.

    The same as :func:`normalize_word` then :func:`word_problem` on each entry,
    with the common case (a word of letters, inside the alphabet) decided by
    string methods that run in C. The deadline of the work running now
    (:func:`lacak.deadline`) is looked at every few thousand words, in every
    step (normalising, sorting, dropping repeats).
    """
    letters = frozenset(alphabet) if alphabet else None
    if isinstance(raw, list):
        fast = _normalize_all_at_once(raw, letters)
        if fast is not None:
            return fast
    kept: dict[str, None] = {}  # in the file's order, which sorts fast when it is sorted
    skipped: list[SkippedWord] = []
    entries = duplicates = 0
    for entry in raw:
        if not entries & 4095:  # a search's time limit covers reading its dictionary
            check_deadline("reading the words of a dictionary")
        entries += 1
        word = entry.strip().upper() if entry.isascii() else normalize_word(entry)
        if word in kept:
            duplicates += 1
            continue
        if word.isalpha() and (letters is None or letters.issuperset(word)):
            kept[word] = None
            continue
        problem = word_problem(word, letters)
        if problem is not None:
            skipped.append(SkippedWord(_printable(entry), problem))
            continue
        kept[word] = None
    return _sort_unique(list(kept)), entries, duplicates, skipped


def _normalize_all_at_once(
    raw: list[str], letters: frozenset[str] | None
) -> tuple[list[str], int, int, list[SkippedWord]] | None:
    """:func:`_normalize_words` for the usual list, whose every entry is a word of
    letters inside the alphabet, done on :data:`_CHUNK` words at a time joined by line
    breaks (string methods in C); ``None`` when some entry is not such a word (the
    word-by-word loop then finds and reports it).

    Normalising the joined text is normalising each word: NFC, upper case and the
    ``ß`` rule act within a word, and a line break, which no word contains (checked),
    composes with nothing. Words already in their normal form are kept as they are
    (no second copy of a list written in capitals).
    """
    words: list[str] = []
    for start in range(0, len(raw), _CHUNK):
        check_deadline("reading the words of a dictionary")
        chunk = raw[start : start + _CHUNK]
        text = "\n".join(chunk)
        if text.count("\n") != len(chunk) - 1:
            return None  # an entry holds a line break itself
        if text.isascii():
            upper = text.upper()
        else:
            upper = unicodedata.normalize(
                "NFC", unicodedata.normalize("NFC", text).replace("ß", "ẞ").upper()
            )
        body = upper.replace("\n", "")
        if not body.isalpha() or (letters is not None and not letters.issuperset(set(body))):
            return None  # white space, a mark, a non-letter, a letter outside the alphabet
        part = chunk if upper == text else upper.split("\n")
        if len(part) != len(chunk) or "" in part:
            return None
        words += part
    unique = _sort_unique(words)  # (only checked for a file that is sorted already)
    return unique, len(words), len(words) - len(unique), []


#: Words sorted in one call (a run) before the runs are merged: each sort is a step that
#: cannot stop, a few tenths of a second at most.
_RUN = 1 << 18


def _sort_unique(words: list[str]) -> list[str]:
    """``sorted(set(words))``, made in steps that each look at the deadline first: a
    list sorted already is checked :data:`_CHUNK` words at a time and kept; another is
    sorted in runs of :data:`_RUN` words, which are then merged a few thousand words at
    a time (every run's words up to a pivot, sorted together: Timsort merges runs in
    linear time), repeats dropped on the way. One :func:`sorted` call of millions of
    words takes seconds and cannot stop."""
    if _sorted_and_unique(words):
        return words
    runs = []
    for start in range(0, len(words), _RUN):
        check_deadline("sorting the words of a dictionary")
        runs.append(sorted(words[start : start + _RUN]))
    out: list[str] = []
    share = max(1, _CHUNK // len(runs))  # (a step takes at most this many words of a run)
    at = [0] * len(runs)
    live = [r for r, run in enumerate(runs) if run]
    while live:
        check_deadline("sorting the words of a dictionary")
        pivot = min(runs[r][min(at[r] + share, len(runs[r])) - 1] for r in live)
        piece: list[str] = []
        for r in live:  # every word up to the pivot: the next words of the whole order
            end = bisect.bisect_right(runs[r], pivot, at[r])
            piece += runs[r][at[r] : end]
            at[r] = end
        live = [r for r in live if at[r] < len(runs[r])]
        piece.sort()
        before = itertools.chain(out[-1:] or (None,), piece)  # (each word's neighbour)
        out += itertools.compress(piece, map(operator.ne, piece, before))
    return out


def _sorted_and_unique(words: list[str]) -> bool:
    """Whether every word is less than the next, :data:`_CHUNK` words between looks at
    the deadline."""
    for start in range(0, len(words) - 1, _CHUNK):
        check_deadline("reading the words of a dictionary")
        piece = words[start : start + _CHUNK + 1]
        if not all(map(operator.lt, piece, itertools.islice(piece, 1, None))):
            return False
    return True


# -- JSON reading with positions ---------------------------------------------------

_PathStep = int | tuple[str, int]


def _json_type(value: Any) -> str:
    if isinstance(value, _Pairs):
        return "an object"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "an object"


def _skip(text: str, pos: int) -> int:
    """The first offset at or after ``pos`` that is not JSON white space."""
    while pos < len(text) and text[pos] in " \t\n\r":
        pos += 1
    return pos


def _locate(text: str, path: list[_PathStep]) -> int | None:
    """Offset of the value at ``path`` (list indexes, ``(key, nth occurrence)``), if found.

    Only called to describe an error, so it re-scans the text rather than
    slowing down the normal parse.
    """
    decoder = json.JSONDecoder()
    scanstring = json.decoder.scanstring  # type: ignore[attr-defined]
    try:
        pos = _skip(text, 0)
        for step in path:
            pos = _skip(text, pos + 1)  # after [ or {
            if isinstance(step, int):
                for _ in range(step):
                    _, pos = decoder.raw_decode(text, pos)
                    pos = _skip(text, _skip(text, pos) + 1)  # after ,
                continue
            key, nth = step
            seen = 0
            while True:
                name, pos = scanstring(text, pos + 1)
                pos = _skip(text, _skip(text, pos) + 1)  # after :
                if name == key:
                    seen += 1
                    if seen == nth:
                        break
                _, pos = decoder.raw_decode(text, pos)
                pos = _skip(text, _skip(text, pos) + 1)  # after ,
        return pos
    except (ValueError, IndexError):  # pragma: no cover - best effort
        return None


def _line_column(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _where(origin: str, line: int | None = None, column: int | None = None) -> str:
    if line is None:
        return origin
    return f"{origin}, line {line}, column {column}"


def _error(
    origin: str, message: str, text: str | None = None, path: list[_PathStep] | None = None
) -> DictionaryError:
    line = column = None
    if text is not None and path is not None:
        offset = _locate(text, path)
        if offset is not None:
            line, column = _line_column(text, offset)
    error = DictionaryError(f"{_where(origin, line, column)}: {message}")
    error.path, error.line, error.column = origin, line, column
    return error


class _Pairs(list[tuple[str, Any]]):
    """An object's key/value pairs in file order (duplicate keys kept)."""


#: A key written without quotes, as JavaScript allows (the reference tutorial prints
#: its dictionary as ``{A: ["ABAD", ...]}``): named in the error's hint.
_BARE_KEY = re.compile(r"([^\W\d]\w{0,40})\s*:")


#: Characters of a large plain word list parsed between two looks at the deadline.
_PIECE = 1 << 20


def _list_in_pieces(text: str) -> list[str] | None:
    """The words of a large plain JSON list of strings, parsed :data:`_PIECE` characters
    at a time with a look at the deadline before each piece; ``None`` for any other text
    (:func:`json.loads` then reads it whole, and says what is wrong with it).

    Only a text without a backslash is split: every ``"`` then opens or closes a
    string, so a quote is known to open one by the number of quotes before it, and
    the comma before it is outside every string. A piece that is not a list of
    strings (an object, a nested list, a cut that was not between two strings)
    fails to parse, and so gives ``None``: what is returned is what
    :func:`json.loads` would return.
    """
    body = text.strip()
    if len(body) <= _PIECE or body[:1] != "[" or body[-1:] != "]" or "\\" in body:
        return None
    words: list[str] = []
    pos, end = 1, len(body) - 1
    while pos < end:
        check_deadline("reading the words of a dictionary")
        cut = end
        quote = body.find('"', min(pos + _PIECE, end), end)
        if quote > 0 and body.count('"', pos, quote) % 2:  # it closes a string: the next opens
            quote = body.find('"', quote + 1, end)
        if quote > 0:
            cut = body.rfind(",", pos, quote)
            if cut < pos:
                return None
        try:
            piece = json.loads(f"[{body[pos:cut]}]")
        except ValueError:
            return None
        if set(map(type, piece)) - {str}:
            return None
        words += piece
        pos = cut + 1
    return words


def _decode(text: str, origin: str) -> Any:
    if not text.strip():
        raise _error(origin, "the file is empty (expected a JSON list of words or an object)")
    try:
        pieces = _list_in_pieces(text)
        if pieces is not None:
            return pieces
        return json.loads(text, object_pairs_hook=_Pairs)
    except json.JSONDecodeError as error:
        hint = ""
        bare = _BARE_KEY.match(text, error.pos)
        if error.msg.startswith("Expecting property name") and bare:
            key = bare.group(1)
            hint = f' (a key needs double quotes: "{key}": ..., not {key}: ...)'
        exc = DictionaryError(
            f"{_where(origin, error.lineno, error.colno)}: not valid JSON: {error.msg}{hint}"
        )
        exc.path, exc.line, exc.column = origin, error.lineno, error.colno
        raise exc from None
    except RecursionError:
        offset, depth = _deepest(text)
        line, column = _line_column(text, offset)
        exc = DictionaryError(
            f"{_where(origin, line, column)}: not valid JSON: nested too deeply "
            f"({depth} levels of lists and objects)"
        )
        exc.path, exc.line, exc.column = origin, line, column
        raise exc from None
    except ValueError as error:  # a number past Python's int digit limit (4,300 by default)
        limit = getattr(sys, "get_int_max_str_digits", lambda: 4300)() or 4300
        long_number = re.search(f"[0-9]{{{limit + 1},}}", text)
        if long_number is None:  # pragma: no cover - no other ValueError is known
            raise _error(origin, f"not valid JSON: {' '.join(str(error).split())}") from None
        line, column = _line_column(text, long_number.start())
        exc = DictionaryError(
            f"{_where(origin, line, column)}: not valid JSON: a number of "
            f"{len(long_number.group())} digits (at most {limit} can be read)"
        )
        exc.path, exc.line, exc.column = origin, line, column
        raise exc from None


_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]')


def _deepest(text: str) -> tuple[int, int]:
    """``(offset, depth)`` of the first bracket opening the deepest level (strings skipped)."""
    depth = deepest = offset = 0
    for token in _TOKEN.finditer(text):
        char = token.group()[0]
        if char in "[{":
            depth += 1
            if depth > deepest:
                deepest, offset = depth, token.start()
        elif char in "]}":
            depth -= 1
    return offset, deepest


def _check_unique_keys(
    pairs: _Pairs, text: str, origin: str, prefix: list[_PathStep]
) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            nth = sum(1 for k, _ in pairs if k == key)
            raise _error(
                origin, f"the key {key!r} appears more than once", text, [*prefix, (key, nth)]
            )
        result[key] = value
    return result


def _word_list(value: Any, text: str, origin: str, path: list[_PathStep], what: str) -> list[str]:
    if not isinstance(value, list) or isinstance(value, _Pairs):
        raise _error(origin, f"{what} must be a list of words, not {_json_type(value)}", text, path)
    if set(map(type, value)) <= {str}:
        return value
    for index, item in enumerate(value):
        if not isinstance(item, str):
            raise _error(
                origin,
                f"word {index} of {what} must be a string, not {_json_type(item)}",
                text,
                [*path, index],
            )
    return value


def _seed_words(pairs: _Pairs, text: str, origin: str, path: list[_PathStep]) -> list[str]:
    groups = _check_unique_keys(pairs, text, origin, path)
    words: list[str] = []
    for key, value in groups.items():
        nth = 1
        words.extend(
            _word_list(value, text, origin, [*path, (key, nth)], f"the list under {key!r}")
        )
    return words


def _other_metadata(key: str, value: Any, text: str, origin: str) -> Any:
    """The value of ``count`` (a whole number) or ``filters`` (a list of strings)."""
    if key == "count":
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise _error(
                origin,
                f"'count' must be a whole number of words, not {_json_type(value)}",
                text,
                [(key, 1)],
            )
        return value
    if not isinstance(value, list) or isinstance(value, _Pairs):
        raise _error(
            origin, f"'filters' must be a list of strings, not {_json_type(value)}", text, [(key, 1)]
        )
    for index, item in enumerate(value):
        problem = _text_problem(item) if isinstance(item, str) else None
        if not isinstance(item, str) or problem is not None:
            what = problem or f"must be a string, not {_json_type(item)}"
            raise _error(origin, f"item {index} of 'filters' {what}", text, [(key, 1), index])
    return tuple(value)


class _Parsed(NamedTuple):
    format: str
    words: list[str]
    metadata: dict[str, Any]
    notes: list[str]


def _parse(text: str, origin: str) -> _Parsed:
    data = _decode(text, origin)
    if isinstance(data, _Pairs):
        top = _check_unique_keys(data, text, origin, [])
        if "words" not in top:
            found = [key for key in METADATA_KEYS if key in top]
            if found:
                raise _error(
                    origin,
                    f"the object has metadata ({', '.join(found)}) but no 'words' key",
                    text,
                    [],
                )
            return _Parsed("seed", _seed_words(data, text, origin, []), {}, [])
        metadata: dict[str, Any] = {}
        notes: list[str] = []
        for key, value in top.items():
            if key == "words":
                continue
            if key not in METADATA_KEYS:
                notes.append(f"unknown key {key!r} ignored")
                continue
            if key in _NOT_TEXT:
                metadata[key] = _other_metadata(key, value, text, origin)
                continue
            if not isinstance(value, str):
                raise _error(
                    origin, f"{key!r} must be a string, not {_json_type(value)}", text, [(key, 1)]
                )
            problem = _text_problem(value)
            if problem is not None:
                raise _error(origin, f"{key!r} {problem}", text, [(key, 1)])
            metadata[key] = value
            if key == "alphabet":
                problem = _alphabet_problem(value)
                if problem is not None:
                    raise _error(origin, problem, text, [(key, 1)])
        raw = top["words"]
        if isinstance(raw, _Pairs):
            words = _seed_words(raw, text, origin, [("words", 1)])
        else:
            words = _word_list(raw, text, origin, [("words", 1)], "'words'")
        return _Parsed("object", words, metadata, notes)
    if isinstance(data, list):
        return _Parsed("list", _word_list(data, text, origin, [], "the file"), {}, [])
    raise _error(
        origin,
        f"expected a JSON list of words or an object, not {_json_type(data)}",
        text,
        [],
    )


# -- building Dictionary objects -----------------------------------------------------


def _make(
    *,
    name: str,
    words: list[str] | tuple[str, ...],
    metadata: Mapping[str, Any],
    alphabet: str,
    report: LoadReport,
) -> Dictionary:
    """A Dictionary of ``words``, which are normalised, sorted and unique."""
    return Dictionary(
        name=name,
        language=metadata.get("language", ""),
        words=_Sorted(words),
        source=metadata.get("source", ""),
        alphabet=alphabet,
        title=metadata.get("title", ""),
        license=metadata.get("license", ""),
        filters=metadata.get("filters", ()),
        report=report,
    )


def _count_note(metadata: Mapping[str, Any], words: int) -> list[str]:
    """A note when the file's declared ``count`` is not the number of words read."""
    declared = metadata.get("count")
    if declared is None or declared == words:
        return []
    return [f"the file says it holds {declared:,} words; {words:,} were read"]


def _compile(parsed: _Parsed, *, name: str, origin: str, allow_empty: bool = False) -> Dictionary:
    problem = _alphabet_problem(parsed.metadata.get("alphabet", ""))
    if problem is not None:  # files are checked by _parse, with the position
        raise _error(origin, problem)
    alphabet = _normalize_alphabet(parsed.metadata.get("alphabet", ""))
    words, entries, duplicates, skipped = _normalize_words(parsed.words, alphabet)
    if not words and not allow_empty:
        if not entries:
            raise _error(origin, "the file contains no words")
        reasons = LoadReport(skipped=tuple(skipped), entries=entries).summary()
        raise _error(origin, f"none of the words in the file is usable ({reasons})")
    notes = list(parsed.notes) + _count_note(parsed.metadata, len(words))
    file_name = parsed.metadata.get("name")
    if file_name and file_name != name:
        notes.append(f"the file calls itself {file_name!r}; it is loaded as {name!r}")
    report = LoadReport(
        origin=origin,
        format=parsed.format,
        entries=entries,
        duplicates=duplicates,
        skipped=tuple(skipped),
        notes=tuple(notes),
    )
    return _make(name=name, words=words, metadata=parsed.metadata, alphabet=alphabet, report=report)


def parse_dictionary(
    text: str | bytes, *, name: str | None = None, origin: str = "<string>"
) -> Dictionary:
    """Read a dictionary from JSON text (see the module documentation for the formats).

    :param text: the JSON document (bytes are decoded as UTF-8, a BOM is allowed).
    :param name: the dictionary's name; default the file's ``name`` metadata,
        else the stem of ``origin``.
    :param origin: where the text comes from, for messages.
    :returns: the normalised :class:`~lacak.Dictionary`, with its
        :class:`LoadReport` as ``report``.
    :raises DictionaryError: malformed JSON, values of the wrong type, or no usable word.
    """
    if isinstance(text, bytes):
        text = _decode_bytes(text, origin)
    elif text.startswith("\ufeff"):
        text = text[1:]
    parsed = _parse(text, origin)
    if name is None:
        name = parsed.metadata.get("name") or _stem(origin)
    return _compile(parsed, name=name, origin=origin)


def _stem(origin: str) -> str:
    stem = Path(origin).stem if origin and not origin.startswith("<") else ""
    return stem or "dictionary"


def _decode_bytes(data: bytes, origin: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        start = error.start
        line = data.count(b"\n", 0, start) + 1
        column = start - (data.rfind(b"\n", 0, start) + 1) + 1
        exc = DictionaryError(
            f"{_where(origin, line, column)}: not UTF-8 text (byte 0x{data[start]:02X})"
        )
        exc.path, exc.line, exc.column = origin, line, column
        raise exc from None


def words_dictionary(
    words: Iterable[str],
    *,
    name: str,
    language: str = "",
    alphabet: str = "",
    source: str = "",
    title: str = "",
    license: str = "",
    filters: Iterable[str] = (),
) -> Dictionary:
    """Normalise a Python iterable of words into a :class:`~lacak.Dictionary`.

    Words that are not letters (or outside ``alphabet``) are skipped and
    reported in ``report``; an empty result is allowed.
    """
    metadata: dict[str, Any] = {
        "language": language,
        "source": source,
        "title": title,
        "alphabet": alphabet,
        "license": license,
    }
    filters = tuple(filters)
    for key, value in [("name", name), *metadata.items(), *(("filters", f) for f in filters)]:
        problem = _text_problem(value)
        if problem is not None:
            raise DictionaryError(f"<words>: {key!r} {problem}")
    metadata["filters"] = filters
    parsed = _Parsed("words", list(words), metadata, [])
    return _compile(parsed, name=name, origin="<words>", allow_empty=True)


# -- the compiled cache ----------------------------------------------------------------


def _cache_format() -> Any:
    from .store.cache import CacheFormat

    return CacheFormat(
        tag="lacak-dictionary", version=_CACHE_VERSION, what="the compiled dictionary"
    )


def _cache_file(digest: str) -> Path | None:
    from .store import cache

    folder = cache.folder("dictionaries", stale=(".tmp-*",))
    return folder / f"{digest}.marshal" if folder is not None else None


def _decode_cache(payload: memoryview, name: str, origin: str) -> Dictionary:
    """The dictionary in a verified cache entry (raises on any inconsistency).

    The entry was written by :func:`_write_cache` from normalised, sorted, unique
    words and its checksum was verified, so the words are split from one string
    and taken as they are: the second load of a list costs little more than
    reading it.
    """
    fmt, metadata, alphabet, text, count, entries, duplicates, skipped, notes = marshal.loads(
        payload
    )
    if not (isinstance(text, str) and isinstance(metadata, dict) and isinstance(alphabet, str)):
        raise ValueError("the words or the metadata are of the wrong types")
    if not isinstance(fmt, str) or type(count) is not int:
        raise ValueError("the format or the count is of the wrong type")
    words = text.split("\n") if text else []
    if len(words) != count:
        raise ValueError(f"{len(words)} words where the entry says {count}")
    for key, value in metadata.items():
        if key not in METADATA_KEYS:
            raise ValueError(f"unknown metadata key {key!r}")
        if key == "count" and type(value) is not int:
            raise ValueError("the declared count is not a number")
        if key == "filters" and not (
            isinstance(value, tuple) and all(type(item) is str for item in value)
        ):
            raise ValueError("the filters are not strings")
        if key not in _NOT_TEXT and type(value) is not str:
            raise ValueError(f"the metadata {key!r} is not a string")
    notes_list = [str(note) for note in notes]
    file_name = metadata.get("name")
    if file_name and file_name != name:
        notes_list.append(f"the file calls itself {file_name!r}; it is loaded as {name!r}")
    report = LoadReport(
        origin=origin,
        format=fmt,
        entries=int(entries),
        duplicates=int(duplicates),
        skipped=tuple(SkippedWord(_printable(str(w)), str(r)) for w, r in skipped),
        notes=tuple(notes_list),
        cached=True,
    )
    return _make(name=name, words=words, metadata=metadata, alphabet=alphabet, report=report)


def _read_cache(path: Path | None, digest: str, name: str, origin: str) -> Dictionary | None:
    from .store import cache

    return cache.load(
        path,
        _cache_format(),
        digest,
        lambda artefact: _decode_cache(artefact.payload, name, origin),
        what=f"the compiled dictionary of {origin}",
    )


def _write_cache(
    path: Path | None, digest: str, dictionary: Dictionary, metadata: Mapping[str, Any]
) -> None:
    from .store import cache

    report = dictionary.report
    assert report is not None
    payload = (
        report.format,
        dict(metadata),
        dictionary.alphabet,
        "\n".join(dictionary.words),  # (a word is letters: never a line break)
        len(dictionary.words),
        report.entries,
        report.duplicates,
        tuple((item.word, item.reason) for item in report.skipped),
        tuple(note for note in report.notes if not note.startswith("the file calls itself")),
    )
    # a read-only or full cache only costs speed (lacak.store.cache warns once)
    cache.save(
        path,
        _cache_format(),
        digest,
        [marshal.dumps(payload)],
        what=f"the compiled dictionary of {report.origin}",
    )


def load_dictionary(
    path: str | os.PathLike[str], name: str | None = None, *, cache: bool = True
) -> Dictionary:
    """Read a dictionary file, using the compiled cache when its content was seen before.

    :param path: the JSON file.
    :param name: the dictionary's name; default the file's stem.
    :param cache: read and write the compiled form in
        ``lacak.store.paths.cache_dir("dictionaries")``.
    :returns: the normalised :class:`~lacak.Dictionary`; ``report.cached`` says
        whether it came from the cache.
    :raises DictionaryError: the file cannot be read, is not a regular file, is
        larger than :func:`lacak.store.paths.dictionary_limit` (256 MB unless
        ``LACAK_MAX_DICTIONARY_MB`` says otherwise) or is malformed (the message
        names the file, line and column).
    :raises InvalidOptionError: ``LACAK_MAX_DICTIONARY_MB`` is not a number above 0.
    """
    file = Path(path)
    origin = str(file)
    name = name if name is not None else (file.stem or "dictionary")
    check_deadline(f"reading dictionary file {origin!r}")
    limit = dictionary_limit()
    try:
        data = read_bounded(file, limit, what="dictionary files", setting="LACAK_MAX_DICTIONARY_MB")
    except OSError as error:
        raise _error(origin, f"cannot be read: {error.strerror or error}") from None
    except InvalidInputError as error:  # not a regular file, or larger than the limit
        exc = DictionaryError(str(error))
        exc.path = origin
        raise exc from None
    entry: Path | None = None
    digest = ""
    if cache:
        from hashlib import blake2b  # imported here: hashlib costs milliseconds at start-up

        hasher = blake2b(_CACHE_SALT, digest_size=20)
        hasher.update(data)
        digest = hasher.hexdigest()
        entry = _cache_file(digest)
        cached = _read_cache(entry, digest, name, origin)
        if cached is not None:
            return cached
    text = _decode_bytes(data, origin)
    check_deadline(f"reading dictionary file {origin!r}")
    parsed = _parse(text, origin)
    dictionary = _compile(parsed, name=name, origin=origin)
    if entry is not None:
        _write_cache(entry, digest, dictionary, parsed.metadata)
    return dictionary


# -- writing ------------------------------------------------------------------------------


def dump_dictionary(dictionary: Dictionary, format: str = "object") -> str:
    """The JSON text of ``dictionary``, one word per line.

    :param format: ``"object"`` (metadata and a word list), ``"seed"`` (lists
        keyed by first letter, no metadata) or ``"list"`` (a plain list).
    :raises InvalidOptionError: an unknown format.
    """
    from .errors import InvalidOptionError

    if format not in DICTIONARY_FORMATS:
        raise InvalidOptionError(
            f"unknown dictionary format {format!r} (formats: {', '.join(DICTIONARY_FORMATS)})"
        )

    def word_lines(words: Iterable[str], indent: str) -> str:
        return ",\n".join(indent + json.dumps(word, ensure_ascii=False) for word in words)

    if format == "list":
        return "[\n" + word_lines(dictionary.words, "") + "\n]\n"
    if format == "seed":
        groups: dict[str, list[str]] = {}
        for word in dictionary.words:
            groups.setdefault(word[0], []).append(word)
        body = ",\n".join(
            f"{json.dumps(letter, ensure_ascii=False)}: [\n{word_lines(words, '')}\n]"
            for letter, words in groups.items()
        )
        return "{\n" + body + "\n}\n"
    metadata: dict[str, Any] = {
        "name": dictionary.name,
        "title": dictionary.title,
        "language": dictionary.language,
        "count": len(dictionary.words),
        "source": dictionary.source,
        "license": dictionary.license,
        "alphabet": dictionary.alphabet,
        "filters": list(dictionary.filters),
    }
    # the metadata come before the words, so a listing reads them from the file's head
    head = "".join(
        f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)},\n"
        for key, value in metadata.items()
        if value or key == "count"
    )
    return "{\n" + head + '  "words": [\n' + word_lines(dictionary.words, "") + "\n]}\n"
