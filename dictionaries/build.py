"""Rebuild the packaged word lists from their installed Debian sources.

This is a maintainer's tool, not part of the library::

    python dictionaries/build.py              # rebuild every dictionary and NOTICE
    python dictionaries/build.py eng deu      # rebuild some (NOTICE is rewritten too)
    python dictionaries/build.py --list       # sources, Debian packages, installed or not

Each source is a Debian package (``apt-get install hunspell-id wamerican
hunspell-de-de wspanish witalian wswedish``); a missing one is named with the
command that installs it. Words go through :meth:`lacak.Dictionary.from_words`
(the same normalisation as every loaded file) after a per-source filter:
proper nouns (capitalised words) are dropped from the lists whose language
writes common words in lower case, and hunspell stems keep only entries that
are words on their own. What is dropped, and why, is printed.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
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


@dataclass(frozen=True)
class Source:
    """Where one packaged dictionary comes from and how it is filtered."""

    name: str
    title: str
    language: str
    package: str
    path: str
    license: str
    upstream: str
    alphabet: str
    reader: str = "wordlist"  # or "hunspell"
    encoding: str = "utf-8"
    drop_flags: tuple[str, ...] = ()
    keep: Callable[[str], str | None] | None = lowercase_only
    notes: tuple[str, ...] = field(default=())

    def words(self) -> Iterator[str]:
        """The raw entries of the installed source."""
        path = Path(self.path)
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


SOURCES = (
    Source(
        name="ind",
        title="Indonesian root words (hunspell-id stems)",
        language="id",
        package="hunspell-id",
        path="/usr/share/hunspell/id_ID.dic",
        reader="hunspell",
        license="LGPL-3.0 (Debian's copyright file for the LibreOffice id_ID dictionary; "
        "its .aff header says GPL)",
        upstream="Indonesian dictionary for hunspell by Benitius Brevoort and Ali Ahmadi, "
        "shipped with LibreOffice",
        alphabet=LATIN,
        notes=("reduplicated words written with a hyphen (aba-aba) are left out",),
    ),
    Source(
        name="eng",
        title="English (SCOWL size 50, American spelling)",
        language="en",
        package="wamerican",
        path="/usr/share/dict/american-english",
        license="SCOWL licence: permission to use, copy, modify, distribute and sell, "
        "with the copyright notice kept (see NOTICE)",
        upstream="SCOWL (Spell Checker Oriented Word Lists) by Kevin Atkinson",
        alphabet=LATIN,
        notes=(
            "only lower-case words of the letters A-Z: no proper nouns, "
            "possessives or accented loanwords",
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
        keep=None,  # German nouns are capitalised: case says nothing about proper nouns
        license="GPL-2.0-or-later",
        upstream="igerman98 by Björn Jacke",
        alphabet=LATIN + "ÄÖÜẞ",
        notes=("dictionary forms (stems) only, like the Indonesian list; ß is kept as ẞ",),
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
    ),
)


def package_version(package: str) -> str:
    """The installed version of a Debian package, or ``""``."""
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


@dataclass
class Built:
    """One rebuilt dictionary and the counts of what was left out."""

    source: Source
    version: str
    entries: int
    words: int
    dropped: Counter[str]
    size: int


def build(source: Source, out_dir: Path = HERE) -> Built:
    """Rebuild ``<name>.json`` from the installed source.

    :raises FileNotFoundError: the Debian package is not installed.
    """
    import lacak

    if not Path(source.path).exists():
        raise FileNotFoundError(
            f"{source.path} is missing: install it with 'apt-get install {source.package}'"
        )
    version = package_version(source.package) or "unknown version"
    dropped: Counter[str] = Counter()
    kept: list[str] = []
    entries = 0
    for word in source.words():
        entries += 1
        reason = source.keep(word) if source.keep else None
        if reason:
            dropped[reason] += 1
        else:
            kept.append(word)
    dictionary = lacak.Dictionary.from_words(
        kept,
        name=source.name,
        language=source.language,
        alphabet=source.alphabet,
        title=source.title,
        source=f"Debian package {source.package} {version} ({source.path}); "
        f"upstream: {source.upstream}",
        license=source.license,
    )
    report = dictionary.report
    assert report is not None
    for reason, count in report.reasons().items():
        dropped[reason] += count
    if report.duplicates:
        dropped["duplicate once upper-cased"] += report.duplicates
    text = dictionary.to_json("object")
    target = out_dir / f"{source.name}.json"
    target.write_text(text, encoding="utf-8")
    return Built(source, version, entries, len(dictionary), dropped, len(text.encode()))


NOTICE_HEAD = """\
Word lists shipped with lacak (the dictionaries/ folder)
=========================================================

Each file is rebuilt from a Debian package by dictionaries/build.py: the words
are normalised (Unicode NFC, upper case, German ß kept as ẞ) and filtered as
described below. The lists keep the licences of their sources, which are
independent of lacak's own MIT licence; they are distributed alongside lacak
as separate data files (mere aggregation). The full licence texts are in
/usr/share/common-licenses/ on Debian systems and at https://spdx.org/licenses/.
"""


def notice(built: Iterable[Built]) -> str:
    """The text of ``NOTICE`` for these dictionaries."""
    parts = [NOTICE_HEAD]
    for item in sorted(built, key=lambda b: b.source.name):
        source = item.source
        lines = [
            f"{source.name}.json - {source.title}",
            f"  language:  {source.language}",
            f"  source:    Debian package {source.package} {item.version}, {source.path}",
            f"  upstream:  {source.upstream}",
            f"  licence:   {source.license}",
            f"  words:     {item.words} (of {item.entries} entries)",
        ]
        lines += [f"  note:      {note}" for note in source.notes]
        if source.name == "eng":
            lines += ["", *(("  " + line).rstrip() for line in SCOWL_NOTICE.splitlines())]
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
others); see /usr/share/doc/wamerican/copyright."""


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
            state = package_version(source.package) or "not installed"
            print(f"{source.name:4} {source.package:15} {state:22} {source.path}")
        return 0
    unknown = [name for name in args.names if name not in by_name]
    if unknown:
        parser.error(f"unknown dictionary {', '.join(unknown)} (known: {', '.join(by_name)})")
    chosen = [by_name[name] for name in args.names] or list(SOURCES)
    missing = [s for s in chosen if not Path(s.path).exists()]
    if missing:
        packages = " ".join(sorted({s.package for s in missing}))
        print(
            f"missing sources: {', '.join(s.path for s in missing)}\n"
            f"install them with: apt-get install {packages}",
            file=sys.stderr,
        )
        return 1
    results = []
    for source in chosen:
        item = build(source, args.out)
        results.append(item)
        left_out = ", ".join(f"{n} {why}" for why, n in item.dropped.most_common()) or "none"
        print(
            f"{source.name}: {item.words} words from {item.entries} entries "
            f"({item.size / 1e6:.2f} MB); left out: {left_out}"
        )
    # NOTICE always describes every packaged dictionary: rebuild the others' entries
    # from their current files so a partial rebuild keeps the whole notice.
    done = {item.source.name for item in results}
    for source in SOURCES:
        if source.name not in done:
            results.append(_describe_existing(source, args.out))
    (args.out / "NOTICE").write_text(notice(results), encoding="utf-8")
    return 0


def _describe_existing(source: Source, out_dir: Path) -> Built:
    import lacak

    path = out_dir / f"{source.name}.json"
    dictionary = lacak.Dictionary.from_file(path, cache=False)
    report = dictionary.report
    version = dictionary.source.removeprefix(f"Debian package {source.package} ").split(" (")[0]
    return Built(
        source,
        version,
        report.entries if report else len(dictionary),
        len(dictionary),
        Counter(),
        path.stat().st_size,
    )


if __name__ == "__main__":
    sys.exit(main())
