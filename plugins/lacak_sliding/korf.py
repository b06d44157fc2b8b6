"""Korf's benchmark instances, shipped with the plugin.

``korf100.tsv``: the 100 random 15-puzzles of Korf (1985), the classic
benchmark of optimal search (mean optimal length 53.05). ``korf24_50.tsv``:
the 50 random 24-puzzles of Korf and Felner (2002) (mean 100.78). Both
files cite their sources in their header; tiles are row by row with 0 for
the blank and the goal is ``0 1 2 ... n-1`` (blank top-left), which
:class:`~lacak_sliding.puzzle.SlidingPuzzle` takes as it is.

>>> first = instances()[0]
>>> first.id, first.length, first.tiles[:4]
(1, 57, (14, 13, 15, 7))
>>> puzzle(first).goal[:4]
(0, 1, 2, 3)
"""

from __future__ import annotations

from importlib import resources

import attrs
import lacak

from .puzzle import SlidingPuzzle

__all__ = ["SETS", "KorfInstance", "instances", "parse_ids", "puzzle"]

#: Instance sets: name -> (file, board side).
SETS = {"korf100": ("korf100.tsv", 4), "korf24": ("korf24_50.tsv", 5)}


@attrs.frozen(kw_only=True)
class KorfInstance:
    """One benchmark instance."""

    #: Its number in the published table (from 1).
    id: int
    #: Tiles row by row, 0 = blank.
    tiles: tuple[int, ...]
    #: The published optimal solution length.
    length: int
    #: Board side (4 or 5).
    side: int
    #: Where the transcription comes from.
    source: str = ""


def instances(name: str = "korf100") -> list[KorfInstance]:
    """The instances of a set (``"korf100"`` or ``"korf24"``), in published order.

    :raises InvalidOptionError: an unknown set.
    """
    if name not in SETS:
        raise lacak.InvalidOptionError(f"unknown instance set {name!r} (sets: {', '.join(SETS)})")
    filename, side = SETS[name]
    text = resources.files(__package__).joinpath(filename).read_text(encoding="utf-8")
    out = []
    for line in text.splitlines():
        if not line.strip() or line.startswith("#") or line.startswith("id\t"):
            continue
        ident, tiles, length, *source = line.split("\t")
        out.append(
            KorfInstance(
                id=int(ident),
                tiles=tuple(int(t) for t in tiles.split()),
                length=int(length),
                side=side,
                source=source[0] if source else "",
            )
        )
    return out


def puzzle(instance: KorfInstance) -> lacak.Puzzle:
    """The instance as a sliding puzzle with Korf's goal ``0 1 ... n-1``."""
    n = instance.side * instance.side
    return SlidingPuzzle(
        width=instance.side,
        height=instance.side,
        initial=instance.tiles,
        goal=tuple(range(n)),
    )


def parse_ids(text: str, count: int) -> list[int]:
    """Instance numbers from ``"1-10"``, ``"3,7,9-12"`` or ``"all"``, each within ``1..count``.

    >>> parse_ids("1-3,7", 100)
    [1, 2, 3, 7]

    :raises InvalidOptionError: malformed text or a number out of range.
    """
    if text.strip().lower() == "all":
        return list(range(1, count + 1))
    out: list[int] = []
    for part in text.split(","):
        part = part.strip()
        try:
            if "-" in part:
                lo, hi = (int(v) for v in part.split("-", 1))
            else:
                lo = hi = int(part)
        except ValueError:
            raise lacak.InvalidOptionError(
                f"instance numbers look like 1-10 or 3,7,9-12, got {text!r}"
            ) from None
        if not 1 <= lo <= hi <= count:  # checked before a range is built
            raise lacak.InvalidOptionError(f"instance numbers run from 1 to {count}, got {text!r}")
        out.extend(range(lo, hi + 1))
    bad = [i for i in out if not 1 <= i <= count]
    if bad or not out:
        raise lacak.InvalidOptionError(f"instance numbers run from 1 to {count}, got {text!r}")
    return out
