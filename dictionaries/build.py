"""Rebuild the packaged word lists from their installed sources.

This is a maintainer's tool, not part of the library::

    python dictionaries/build.py              # rebuild every dictionary and NOTICE
    python dictionaries/build.py eng deu      # rebuild some (NOTICE is rewritten too)
    python dictionaries/build.py --list       # sources, packages, installed or not

Each source is a Debian package (``apt-get install scowl hunspell-id
hunspell-de-de wspanish witalian wswedish``) or a Python package (``pip
install Sastrawi``, for the KBBI root words); a missing one is named with the
command that installs it. Every list keeps only what Boggle's rules accept:
no abbreviations, proper nouns, contractions or hyphenated words. Words go
through :meth:`lacak.Dictionary.from_words` (the same normalisation as every
loaded file) after the source's filters; what is left out, and why, is
printed and written into the file's ``filters`` metadata (``lacak
dictionaries show NAME``) and into ``NOTICE``.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent

LATIN = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def read_wordlist(lines: Iterable[str]) -> Iterator[str]:
    """Words of a ``/usr/share/dict`` list: one per line, blank lines ignored."""
    for line in lines:
        word = line.strip()
        if word:
            yield word


def hunspell_flags(flags: str, flag_type: str) -> list[str]:
    """Split a hunspell flag string by the ``.aff`` file's ``FLAG`` type.

    >>> hunspell_flags("DkMk", "long")
    ['Dk', 'Mk']
    >>> hunspell_flags("12,345", "num")
    ['12', '345']
    >>> hunspell_flags("ozm", "")
    ['o', 'z', 'm']
    """
    if flag_type == "long":
        return [flags[i : i + 2] for i in range(0, len(flags), 2)]
    if flag_type == "num":
        return [flag for flag in flags.split(",") if flag]
    return list(flags)


def read_hunspell_stems(
    lines: Iterable[str], *, flag_type: str = "", drop_flags: Iterable[str] = ()
) -> Iterator[str]:
    """The stems of a hunspell ``.dic`` file.

    The first line (the entry count), comments and indented lines are
    skipped; each entry is ``stem/FLAGS`` followed by optional morphological
    fields. Entries carrying one of ``drop_flags`` (say ONLYINCOMPOUND or
    NEEDAFFIX: not words on their own) are dropped.

    >>> list(read_hunspell_stems(["3", "abad/i0", "abadi", "arbeiter/Fo", "# note"],
    ...                          drop_flags=["o"]))
    ['abad', 'abadi']
    """
    dropped = set(drop_flags)
    for number, line in enumerate(lines):
        if number == 0 and line.strip().isdigit():
            continue
        if not line.strip() or line.startswith(("#", "\t", " ")):
            continue
        entry = line.split()[0]
        stem, _, flags = entry.replace("\\/", "\0").partition("/")
        stem = stem.replace("\0", "/")
        if dropped and dropped.intersection(hunspell_flags(flags, flag_type)):
            continue
        yield stem


def aff_setting(aff: Path, key: str, default: str = "") -> str:
    """A one-word setting (``SET``, ``FLAG``) of a hunspell ``.aff`` file."""
    if not aff.exists():
        return default
    for line in aff.read_text(encoding="latin-1").splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0] == key:
            return parts[1]
    return default


def lowercase_only(word: str) -> str | None:
    """Filter for languages that write common words in lower case: drop capitalised ones."""
    return None if word == word.lower() else "capitalised (a proper noun or abbreviation)"


def one_capital_at_most(word: str) -> str | None:
    """Filter for German, whose nouns are capitalised: two capitals or more make an
    acronym or abbreviation (``AEG``, ``NSU``, ``EUR``, ``GmbH``)."""
    capitals = sum(1 for ch in word if ch.isupper())
    return "an acronym or abbreviation (two capitals or more)" if capitals > 1 else None


def not_a_single_letter(word: str) -> str | None:
    """Drop single letters: a letter's entry names the letter, it is not a word to find."""
    return "a single letter" if len(word.strip()) == 1 else None


def not_hyphenated(word: str) -> str | None:
    """Drop hyphenated entries (Boggle has no hyphen tiles)."""
    return "hyphenated" if "-" in word else None


_REDUPLICATED = re.compile(r"^(\w+)-\1$")


def reduplication_base(word: str) -> str | None:
    """The base of a full reduplication (``abal-abal`` -> ``abal``), else ``None``.

    KBBI lists a reduplicated form under its root word, so the root is a word of
    the list even where the source kept only the reduplicated entry.

    >>> reduplication_base("abal-abal"), reduplication_base("alai-belai")
    ('abal', None)
    """
    found = _REDUPLICATED.match(word)
    return found.group(1) if found else None


def hunspell_capitalised_only(dic: Path) -> frozenset[str]:
    """The stems a hunspell ``.dic`` knows only with a capital (lower-cased): its proper
    nouns (``Senin``, ``Desember``, ``Muhammad``)."""
    aff = dic.with_suffix(".aff")
    encoding = aff_setting(aff, "SET", "UTF-8")
    with dic.open(encoding=encoding) as lines:
        stems = set(read_hunspell_stems(lines))
    lower = {stem for stem in stems if stem == stem.lower()}
    return frozenset(stem.lower() for stem in stems if stem != stem.lower()) - lower


Filter = Callable[[str], "str | None"]


def _python_file(spec: str) -> Path:
    """``python:PACKAGE/rel/path``: a file inside an installed Python package."""
    import importlib.util

    package, _, rest = spec.removeprefix("python:").partition("/")
    found = importlib.util.find_spec(package)
    if found is None or not found.submodule_search_locations:
        return Path(f"<{package} is not installed>") / rest
    return Path(next(iter(found.submodule_search_locations))) / rest


@dataclass(frozen=True)
class Source:
    """Where one packaged dictionary comes from and how it is filtered."""

    name: str
    title: str
    language: str
    package: str
    #: The file read (``python:PACKAGE/rel/path`` for a file of a Python package).
    path: str
    license: str
    upstream: str
    alphabet: str
    reader: str = "wordlist"  # or "hunspell"
    encoding: str = "utf-8"
    drop_flags: tuple[str, ...] = ()
    #: Filters applied in order, each returning why a raw entry is left out (or ``None``).
    filters: tuple[Filter, ...] = (lowercase_only,)
    #: Entries left out by name (lower case), with the reason: abbreviations and proper
    #: nouns the filters cannot tell from words.
    exclude: Mapping[str, str] = field(default_factory=dict)
    #: Further files read the same way as ``path``.
    extra: tuple[str, ...] = ()
    #: Add the base of each full reduplication (``abal-abal`` gives ``abal``).
    reduplication: bool = False
    #: A hunspell ``.dic`` whose stems known only with a capital are proper nouns to leave out.
    proper_nouns: str = ""
    #: What is read, in words (the first line of the ``filters`` metadata).
    read: str = ""
    notes: tuple[str, ...] = ()
    #: The command that installs ``package``.
    installer: str = "apt-get install"
    #: How the files read are named in the ``source`` metadata, when there are several.
    files_label: str = ""

    def files(self) -> list[Path]:
        """The files read, in order."""
        return [
            _python_file(spec) if spec.startswith("python:") else Path(spec)
            for spec in (self.path, *self.extra)
        ]

    def needed(self) -> list[Path]:
        """Every file the build reads (the sources and the proper-noun list)."""
        return self.files() + ([Path(self.proper_nouns)] if self.proper_nouns else [])

    def install_hint(self) -> str:
        """The command that installs what the build reads."""
        hint = f"{self.installer} {self.package}"
        if self.proper_nouns:
            hint += f"; apt-get install {PROPER_NOUN_PACKAGES.get(self.proper_nouns, '?')}"
        return hint

    def words(self) -> Iterator[str]:
        """The raw entries of the installed source, every file in turn."""
        for path in self.files():
            if self.reader == "hunspell":
                aff = path.with_suffix(".aff")
                encoding = aff_setting(aff, "SET", "UTF-8")
                flag_type = aff_setting(aff, "FLAG")
                with path.open(encoding=encoding, errors="strict") as lines:
                    yield from read_hunspell_stems(
                        lines, flag_type=flag_type, drop_flags=self.drop_flags
                    )
            else:
                with path.open(encoding=self.encoding) as lines:
                    yield from read_wordlist(lines)


#: The Debian package of each proper-noun list a source reads.
PROPER_NOUN_PACKAGES = {"/usr/share/hunspell/id_ID.dic": "hunspell-id"}

#: Proper nouns that both Indonesian sources write in lower case (their derived
#: forms, such as keindonesiaan, are common words): peoples, countries, religions.
INDONESIAN_PROPER_NOUNS = dict.fromkeys(
    [
        "allah",
        "arab",
        "belanda",
        "cina",
        "hindu",
        "indonesia",
        "inggris",
        "islam",
        "katolik",
        "kristen",
        "nusantara",
        "protestan",
        "yahudi",
    ],
    "a proper noun the source writes in lower case (a people, country, religion or God)",
)

SCOWL = "/usr/share/dict/scowl"
#: SCOWL sizes up to the one the English list is built from (see the eng source).
SCOWL_SIZES = (10, 20, 35, 40, 50, 55, 60)
_SCOWL_FILES = tuple(
    f"{SCOWL}/{spelling}-words.{size}"
    for size in SCOWL_SIZES
    for spelling in ("english", "american")
)

SOURCES = (
    Source(
        name="ind",
        title="Indonesian root words (KBBI, via Sastrawi)",
        language="id",
        package="Sastrawi",
        installer="pip install",
        path="python:Sastrawi/Stemmer/data/kata-dasar.txt",
        extra=("python:Sastrawi/Stemmer/data/kata-dasar.original.txt",),
        files_label="Sastrawi/Stemmer/data/kata-dasar.txt and kata-dasar.original.txt",
        license="CC-BY-NC-SA-3.0 (the KBBI root-word list of Kateglo; "
        "Sastrawi's code is MIT): not for commercial use, see NOTICE",
        upstream="the root words (kata dasar) of KBBI as collected by Kateglo "
        "(kateglo.com, Ivan Lanin and others), shipped in Sastrawi (Andy Librian) "
        "and its Python port (Hanif Amal Robbani)",
        alphabet=LATIN,
        filters=(not_a_single_letter, not_hyphenated),
        reduplication=True,
        proper_nouns="/usr/share/hunspell/id_ID.dic",
        exclude=INDONESIAN_PROPER_NOUNS,
        read="both root-word lists of the Python package Sastrawi: kata-dasar.txt, and "
        "kata-dasar.original.txt, the Kateglo list it was trimmed from for stemming, "
        "which keeps interjections such as AH",
        notes=(
            "the reference Boggle tutorial's KBBI words ABAD, ABADI, ABAH, ABAI, ABAL, "
            "BABA, BABAD, BABAH, BABAK, AH, AHO and HUS are all in it",
            "proper nouns are the words hunspell-id knows only with a capital "
            "(Senin, Desember, Muhammad), and a short list written in lower case",
        ),
    ),
    Source(
        name="ind-hunspell",
        title="Indonesian root words (hunspell-id stems; LGPL, free for any use)",
        language="id",
        package="hunspell-id",
        path="/usr/share/hunspell/id_ID.dic",
        reader="hunspell",
        license="LGPL-3.0 (Debian's copyright file for the LibreOffice id_ID dictionary; "
        "its .aff header says GPL)",
        upstream="Indonesian dictionary for hunspell by Benitius Brevoort and Ali Ahmadi, "
        "shipped with LibreOffice",
        alphabet=LATIN,
        filters=(lowercase_only, not_a_single_letter, not_hyphenated),
        exclude=INDONESIAN_PROPER_NOUNS,
        read="the stems of the hunspell dictionary id_ID.dic",
        notes=(
            "the Indonesian list for uses that the KBBI list's non-commercial licence "
            "excludes; it lacks some KBBI roots (ABAL, BABAH)",
        ),
    ),
    Source(
        name="eng",
        title="English (SCOWL size 60, American spelling)",
        language="en",
        package="scowl",
        path=_SCOWL_FILES[0],
        extra=_SCOWL_FILES[1:],
        files_label=f"{SCOWL}/english-words.N and american-words.N, N = 10 to 60",
        license="SCOWL licence: permission to use, copy, modify, distribute and sell, "
        "with the copyright notice kept (see NOTICE)",
        upstream="SCOWL (Spell Checker Oriented Word Lists) by Kevin Atkinson",
        alphabet=LATIN,
        read="SCOWL's english and american 'words' lists of sizes 10 to 60; its "
        "abbreviations, contractions, proper-names and upper lists and its roman "
        "numerals are other files, not read",
        notes=(
            "size 60 is the largest SCOWL size its author vouches for as free of "
            "misspellings and invalid words; 70 adds words 'with a few errors' and 80 "
            "the obscure words of Scrabble lists, which players would challenge",
        ),
    ),
    Source(
        name="deu",
        title="German stems (igerman98 via hunspell-de-de)",
        language="de",
        package="hunspell-de-de",
        path="/usr/share/hunspell/de_DE.dic",
        reader="hunspell",
        # ONLYINCOMPOUND (o), NEEDAFFIX (h) and FORBIDDENWORD (d) entries are not words alone
        drop_flags=("o", "h", "d"),
        filters=(one_capital_at_most,),  # nouns are capitalised: one capital says nothing
        license="GPL-2.0-or-later",
        upstream="igerman98 by Björn Jacke",
        alphabet=LATIN + "ÄÖÜẞ",
        read="the stems of the hunspell dictionary de_DE.dic that are words on their own "
        "(entries flagged ONLYINCOMPOUND, NEEDAFFIX or FORBIDDENWORD are not read)",
        notes=(
            "dictionary forms (stems) only, like the Indonesian list; ß is kept as ẞ",
            "German nouns are capitalised, so case cannot tell them from names: "
            "some proper nouns (AACHEN) remain",
        ),
    ),
    Source(
        name="spa",
        title="Spanish (wspanish)",
        language="es",
        package="wspanish",
        path="/usr/share/dict/spanish",
        license="public domain (the word list); Debian packaging GPL-2.0-or-later",
        upstream="Spanish word list maintained in Debian by Agustín Martín Domingo",
        alphabet=LATIN + "ÁÉÍÑÓÚÜ",
        exclude={
            "cía": "an abbreviation (compañía)",
            **dict.fromkeys(("ab", "ad", "et", "ut"), "a Latin word of a set phrase (ad hoc)"),
        },
        read="the word list /usr/share/dict/spanish",
    ),
    Source(
        name="ita",
        title="Italian (witalian)",
        language="it",
        package="witalian",
        path="/usr/share/dict/italian",
        license="GPL-3.0-or-later",
        upstream="WItalian by Davide G. M. Salvetti",
        alphabet=LATIN + "ÀÈÉÌÒÙ",
        exclude={"kg": "a unit symbol (kilogrammo)"},
        read="the word list /usr/share/dict/italian",
    ),
    Source(
        name="swe",
        title="Swedish (wswedish)",
        language="sv",
        package="wswedish",
        path="/usr/share/dict/swedish",
        encoding="latin-1",
        license="GPL-2.0-or-later",
        upstream="Swedish word list by the Skåne/Sjælland Linux User Group",
        alphabet=LATIN + "ÅÄÖÉ",
        exclude={"pc": "an abbreviation (persondator)"},
        read="the word list /usr/share/dict/swedish",
    ),
)


def package_version(package: str, installer: str = "apt-get install") -> str:
    """The installed version of a Debian package (or, for ``pip install``, of a Python
    distribution), or ``""``."""
    if installer.startswith("pip"):
        from importlib import metadata

        try:
            return metadata.version(package)
        except metadata.PackageNotFoundError:
            return ""
    try:
        done = subprocess.run(
            ["dpkg-query", "-W", "-f=${Version}", package],
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError:
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def origin(source: Source, version: str) -> str:
    """``Debian package scowl 2020.12.07-2 (english-words.10, ...)``: where the words came from."""
    kind = "Python package" if source.installer.startswith("pip") else "Debian package"
    files = source.files_label or ", ".join(str(path) for path in source.files())
    return f"{kind} {source.package} {version} ({files})"


@dataclass
class Built:
    """One rebuilt dictionary and the counts of what was left out."""

    source: Source
    version: str
    entries: int
    words: int
    dropped: Counter[str]
    size: int
    added: int = 0
    filters: tuple[str, ...] = ()


#: How the normaliser's reasons read in a list's ``filters``.
_NORMALISER_REASONS = {
    "not letters": "a character that is not a letter "
    "(an apostrophe: don't, cat's; a hyphen; a digit)",
    "outside the alphabet": "a letter outside the alphabet",
    "duplicate once upper-cased": "the same word as another entry once upper-cased",
}


def describe(source: Source, entries: int, dropped: Counter[str], added: int) -> tuple[str, ...]:
    """The ``filters`` metadata: what was read, what was added, what was left out and why."""
    lines = [f"read {entries:,} entries: {source.read or source.path}"]
    if added:
        lines.append(f"added {added:,} roots of full reduplications (abal-abal gives ABAL)")
    for reason, count in dropped.most_common():
        shown = _NORMALISER_REASONS.get(reason, reason)
        if reason == "outside the alphabet":
            shown += f" ({source.alphabet})"
        lines.append(f"left out {count:,}: {shown}")
    return tuple(lines)


def _reason(source: Source, word: str, proper: frozenset[str]) -> str | None:
    for keep in source.filters:
        reason = keep(word)
        if reason:
            return reason
    lower = word.lower()
    if lower in source.exclude:
        return source.exclude[lower]
    if lower in proper:
        return "a proper noun (hunspell-id knows it only with a capital)"
    return None


def build(source: Source, out_dir: Path = HERE) -> Built:
    """Rebuild ``<name>.json`` from the installed source.

    :raises FileNotFoundError: the source (or its proper-noun list) is not installed.
    """
    import attrs
    import lacak

    for path in source.needed():
        if not path.exists():
            raise FileNotFoundError(f"{path} is missing: install it with '{source.install_hint()}'")
    version = package_version(source.package, source.installer) or "unknown version"
    proper = (
        hunspell_capitalised_only(Path(source.proper_nouns)) if source.proper_nouns else frozenset()
    )
    dropped: Counter[str] = Counter()
    kept: list[str] = []
    bases: list[str] = []
    seen: set[str] = set()
    for word in source.words():
        if word in seen:  # the same entry in two files of the source
            continue
        seen.add(word)
        base = reduplication_base(word) if source.reduplication else None
        if base is not None and _reason(source, base, proper) is None:
            bases.append(base)
        reason = _reason(source, word, proper)
        if reason:
            dropped[reason] += 1
        else:
            kept.append(word)
    added = sorted(set(bases) - seen)
    dictionary = lacak.Dictionary.from_words(
        kept + added,
        name=source.name,
        language=source.language,
        alphabet=source.alphabet,
        title=source.title,
        source=f"{origin(source, version)}; upstream: {source.upstream}",
        license=source.license,
    )
    report = dictionary.report
    assert report is not None
    for reason, count in report.reasons().items():
        dropped[reason] += count
    if report.duplicates:
        dropped["duplicate once upper-cased"] += report.duplicates
    filters = describe(source, len(seen), dropped, len(added))
    dictionary = attrs.evolve(dictionary, filters=filters)
    text = dictionary.to_json("object")
    target = out_dir / f"{source.name}.json"
    target.write_text(text, encoding="utf-8")
    return Built(source, version, len(seen), len(dictionary), dropped, len(text.encode()),
                 len(added), filters)  # fmt: skip


NOTICE_HEAD = """\
Word lists shipped with lacak (the dictionaries/ folder)
=========================================================

Each file is rebuilt by dictionaries/build.py from a Debian package or a
Python package: the words are normalised (Unicode NFC, upper case, German ß
kept as ẞ) and filtered to what Boggle's rules accept (no abbreviations,
proper nouns, contractions or hyphenated words), as described below and in
each file's "filters" (lacak dictionaries show NAME). The lists keep the
licences of their sources, which are independent of lacak's own MIT
licence; they are distributed alongside lacak as separate data files (mere
aggregation). The full licence texts are in /usr/share/common-licenses/ on
Debian systems and at https://spdx.org/licenses/.

Mind the licence of ind.json: the KBBI root words come from Kateglo under
CC BY-NC-SA 3.0, which does not allow commercial use; ind-hunspell.json
(LGPL) is the Indonesian list for such uses.
"""


def notice(built: Iterable[Built]) -> str:
    """The text of ``NOTICE`` for these dictionaries."""
    parts = [NOTICE_HEAD]
    for item in sorted(built, key=lambda b: b.source.name):
        source = item.source
        lines = [
            f"{source.name}.json - {source.title}",
            f"  language:  {source.language}",
            f"  source:    {origin(source, item.version)}",
            f"  upstream:  {source.upstream}",
            f"  licence:   {source.license}",
            f"  words:     {item.words} (of {item.entries} entries)",
        ]
        lines += [f"  note:      {note}" for note in source.notes]
        lines += [f"  filter:    {line}" for line in item.filters]
        licence = LICENCE_NOTICES.get(source.name)
        if licence:
            lines += ["", *(("  " + line).rstrip() for line in licence.splitlines())]
        parts.append("\n".join(lines) + "\n")
    return "\n".join(parts)


SCOWL_NOTICE = """\
Copyright 2000-2011 by Kevin Atkinson

Permission to use, copy, modify, distribute and sell these word
lists, the associated scripts, the output created from the scripts,
and its documentation for any purpose is hereby granted without fee,
provided that the above copyright notice appears in all copies and
that both that copyright notice and this permission notice appear in
supporting documentation. Kevin Atkinson makes no representations
about the suitability of this array for any purpose. It is provided
"as is" without express or implied warranty.

SCOWL also includes material from other word lists under their own
permissive notices (Alan Beale, the Ispell and Moby projects, and
others); see /usr/share/doc/scowl/copyright."""

SASTRAWI_NOTICE = """\
The root words (kata dasar) come from Kateglo (https://github.com/ivanlanin/kateglo),
whose content is licensed under the Creative Commons Attribution-NonCommercial-
ShareAlike 3.0 licence (CC BY-NC-SA 3.0,
https://creativecommons.org/licenses/by-nc-sa/3.0/), as Sastrawi and its Python
port state. ind.json, filtered from that list as described above, is shared
under the same licence: attribute Kateglo, do not use it commercially, and share
changed versions alike.

The list is read from the Python package Sastrawi (PyPI), whose code is:

The MIT License (MIT)
Copyright (c) 2014 Andy Librian (Sastrawi)
Copyright (c) 2016 Hanif Amal Robbani (Sastrawi Python)

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE."""

#: Licence texts that travel with a list in NOTICE, by dictionary name.
LICENCE_NOTICES = {"eng": SCOWL_NOTICE, "ind": SASTRAWI_NOTICE}


def main(argv: list[str] | None = None) -> int:
    """Command line of the build script."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="dictionaries to rebuild (default: all)")
    parser.add_argument("--list", action="store_true", help="show the sources and stop")
    parser.add_argument("--out", type=Path, default=HERE, help="output folder")
    args = parser.parse_args(argv)
    by_name = {source.name: source for source in SOURCES}
    if args.list:
        for source in SOURCES:
            state = package_version(source.package, source.installer) or "not installed"
            print(f"{source.name:12} {source.package:15} {state:22} {source.files()[0]}")
        return 0
    unknown = [name for name in args.names if name not in by_name]
    if unknown:
        parser.error(f"unknown dictionary {', '.join(unknown)} (known: {', '.join(by_name)})")
    chosen = [by_name[name] for name in args.names] or list(SOURCES)
    missing = [(s, path) for s in chosen for path in s.needed() if not path.exists()]
    if missing:
        hints = sorted({s.install_hint() for s, _path in missing})
        print(
            f"missing sources: {', '.join(str(path) for _s, path in missing)}\n"
            f"install them with: {'; '.join(hints)}",
            file=sys.stderr,
        )
        return 1
    results = []
    for source in chosen:
        item = build(source, args.out)
        results.append(item)
        left_out = ", ".join(f"{n} {why}" for why, n in item.dropped.most_common()) or "none"
        added = f"; added {item.added} reduplication roots" if item.added else ""
        print(
            f"{source.name}: {item.words} words from {item.entries} entries "
            f"({item.size / 1e6:.2f} MB); left out: {left_out}{added}"
        )
    # NOTICE always describes every packaged dictionary: rebuild the others' entries
    # from their current files so a partial rebuild keeps the whole notice.
    done = {item.source.name for item in results}
    for source in SOURCES:
        if source.name not in done:
            results.append(_describe_existing(source, args.out))
    (args.out / "NOTICE").write_text(notice(results), encoding="utf-8")
    return 0


_VERSION = re.compile(r"^(?:Debian|Python) package \S+ (\S+) \(")
_ENTRIES = re.compile(r"^read ([0-9,]+) entries")


def _describe_existing(source: Source, out_dir: Path) -> Built:
    import lacak

    path = out_dir / f"{source.name}.json"
    dictionary = lacak.Dictionary.from_file(path, cache=False)
    version = _VERSION.match(dictionary.source)
    read = _ENTRIES.match(dictionary.filters[0]) if dictionary.filters else None
    return Built(
        source,
        version.group(1) if version else "unknown version",
        int(read.group(1).replace(",", "")) if read else len(dictionary),
        len(dictionary),
        Counter(),
        path.stat().st_size,
        filters=dictionary.filters,
    )


if __name__ == "__main__":
    sys.exit(main())
