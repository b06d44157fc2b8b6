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

from .dictionary import (
    Dictionary,
    dump_dictionary,
    load_dictionary,
    parse_dictionary,
    words_dictionary,
)
from .normalize import normalize_word, word_problem
from .report import DICTIONARY_FORMATS, METADATA_KEYS, LoadReport, SkippedWord

__all__ = [
    "DICTIONARY_FORMATS",
    "METADATA_KEYS",
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
