"""The :class:`~lacak.Dictionary`: building it from a file, JSON text or Python
words, the compiled cache of its words, and writing it back (the format:
:mod:`lacak.words`).
"""

from __future__ import annotations

import functools
import itertools
import json
import marshal
import os
import sys
import unicodedata
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import attrs

from ..errors import DictionaryError, InvalidInputError, InvalidOptionError
from ..limits import check_deadline
from ..store import cache
from ..store.cache import CacheFormat
from ..store.paths import dictionary_limit, read_bounded
from .normalize import (
    _alphabet_problem,
    _normalize_alphabet,
    _normalize_words,
    _printable,
    _text_problem,
)
from .reading import _error, _parse, _Parsed, _where
from .report import _NOT_TEXT, DICTIONARY_FORMATS, METADATA_KEYS, LoadReport, SkippedWord

__all__ = ["Dictionary", "dump_dictionary", "load_dictionary", "parse_dictionary", "words_dictionary"]


#: Bumped whenever normalisation or the cached layout changes (the format number of
#: the ``lacak-dictionary`` cache files, see :mod:`lacak.store.cache`).
_CACHE_VERSION = 4
_CACHE_SALT = (
    f"lacak-dictionary/{_CACHE_VERSION}/unicode-{unicodedata.unidata_version}"
    f"/marshal-{marshal.version}/py{sys.version_info[0]}.{sys.version_info[1]}"
).encode()


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
    return CacheFormat(
        tag="lacak-dictionary", version=_CACHE_VERSION, what="the compiled dictionary"
    )


def _cache_file(digest: str) -> Path | None:
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
