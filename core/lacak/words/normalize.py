"""Normalising words: :func:`normalize_word` (NFC, upper case, ``ß`` → ``ẞ``), which
words are letters (:func:`word_problem`), and normalising a whole list fast.
"""

from __future__ import annotations

import bisect
import itertools
import operator
import re
import unicodedata
from collections.abc import Iterable

from ..limits import check_deadline
from .report import SkippedWord

__all__ = ["normalize_word", "word_problem"]


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
