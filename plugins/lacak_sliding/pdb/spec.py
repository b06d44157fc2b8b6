"""The registered pattern-database heuristics: ``pdb``, ``pdb-555``, ``pdb-663``,
``pdb-78``, ``pdb-6666``, and the parsing of their options (``pdb:1,2,3/4,5,6;reflect``).

:func:`heuristics` is what the plugin registers; each heuristic's ``prepare``
reads the board of the puzzle, makes the partition
(:class:`~lacak_sliding.pdb.partition.Partition`) and returns the prepared
lookup (:func:`~lacak_sliding.pdb.lookup.pattern_heuristic`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import lacak
from lacak.options import OneOf

from .lookup import PatternHeuristic, pattern_heuristic
from .partition import NAMED_PARTITIONS, Partition, reflection

__all__ = ["estimate", "heuristics", "parse_spec", "prepare"]

_REFLECT = re.compile(r"^\s*(no-?)?reflect(?:\s*=\s*(\w+))?\s*$", re.IGNORECASE)
_REFLECT_VALUES = {
    "yes": "yes",
    "true": "yes",
    "on": "yes",
    "1": "yes",
    "no": "no",
    "false": "no",
    "off": "no",
    "0": "no",
    "auto": "auto",
}
_GROUPS = re.compile(r"^[\d\s,/]+$")
#: What ``reflect`` accepts from a request lacak does not trust (:func:`parse_spec`'s words).
_REFLECT_ACCEPTS = OneOf(*sorted(set(_REFLECT_VALUES.values())))


def parse_spec(text: str, *, partition: bool = True) -> dict[str, Any]:
    """Options of a pattern-database heuristic from the text after ``name:``.

    Parts are separated by ``;``: a partition (a name such as ``663`` or
    groups such as ``1,2,3/4,5,6``, optionally written ``partition=...``) and
    ``reflect``, ``noreflect`` or ``reflect=yes|no|auto``.

    >>> parse_spec("1,2,3/4,5,6;reflect")
    {'partition': '1,2,3/4,5,6', 'reflect': 'yes'}
    >>> parse_spec("reflect=no", partition=False)
    {'reflect': 'no'}

    :raises InvalidOptionError: a part that is neither.
    """
    out: dict[str, Any] = {}
    for part in (p.strip() for p in text.split(";")):
        if not part:
            continue
        match = _REFLECT.match(part)
        if match:
            negated, value = match.group(1), (match.group(2) or "yes").lower()
            if value not in _REFLECT_VALUES:
                raise lacak.InvalidOptionError(
                    f"reflect must be yes, no or auto, got {match.group(2)!r}"
                )
            value = _REFLECT_VALUES[value]
            if negated:
                if value == "auto":
                    raise lacak.InvalidOptionError("noreflect takes no value")
                value = "no" if value == "yes" else "yes"
            out["reflect"] = value
            continue
        if not partition:
            raise lacak.InvalidOptionError(
                f"this pattern database takes only reflect=yes|no|auto, got {part!r}"
            )
        key, sep, value = part.partition("=")
        if sep and key.strip() == "partition":
            part = value.strip()
        elif sep:
            raise lacak.InvalidOptionError(
                f"pattern database options are a partition and reflect, got {part!r}"
            )
        if part not in NAMED_PARTITIONS and part != "default" and not _GROUPS.match(part):
            raise lacak.InvalidOptionError(
                f"pattern database partition {part!r} must be a name ({', '.join(NAMED_PARTITIONS)}, "
                "default) or groups of tiles like 1,2,3/4,5,6"
            )
        out["partition"] = part
    return out


def _want_reflect(value: Any, width: int, height: int, goal: Sequence[int]) -> bool:
    if isinstance(value, bool):
        value = "yes" if value else "no"
    value = _REFLECT_VALUES.get(str(value).lower())
    if value is None:
        raise lacak.InvalidOptionError("reflect must be yes, no or auto")
    if value == "auto":
        return reflection(width, height, goal) is not None
    return value == "yes"


def _board(puzzle: Any) -> tuple[int, int, tuple[int, ...]]:
    try:
        return int(puzzle.width), int(puzzle.height), tuple(puzzle.goal)
    except AttributeError:
        raise lacak.InvalidPuzzleError(
            "pattern databases need a sliding puzzle (width, height, goal)"
        ) from None


def prepare(puzzle: Any, partition: str = "default", reflect: Any = "auto") -> PatternHeuristic:
    """The ``prepare`` of the ``pdb`` heuristics: load (or build) and return the lookup."""
    width, height, goal = _board(puzzle)
    part = Partition.parse(partition, width, height, goal)
    return pattern_heuristic(part, reflect=_want_reflect(reflect, width, height, goal))


def estimate(
    puzzle: Any, state: Sequence[int], partition: str = "default", reflect: Any = "auto"
) -> int:
    """The ``pdb`` estimate of ``state`` (the databases stay in memory after the first call)."""
    return prepare(puzzle, partition, reflect)(state)


def _named(name: str) -> tuple[Callable[..., PatternHeuristic], Callable[..., int]]:
    def prepare_named(puzzle: Any, reflect: Any = "auto") -> PatternHeuristic:
        width, height, goal = _board(puzzle)
        part = Partition.named(name, width, height, goal)
        return pattern_heuristic(part, reflect=_want_reflect(reflect, width, height, goal))

    def estimate_named(puzzle: Any, state: Sequence[int], reflect: Any = "auto") -> int:
        return prepare_named(puzzle, reflect)(state)

    prepare_named.__doc__ = f"Prepared ``pdb-{name}``."
    estimate_named.__doc__ = f"The ``pdb-{name}`` estimate."
    return prepare_named, estimate_named


def heuristics() -> list[lacak.Heuristic]:
    """The pattern-database heuristics the plugin registers for kind ``sliding``."""
    out = [
        lacak.Heuristic(
            name="pdb",
            kind="sliding",
            estimate=estimate,
            prepare=prepare,
            admissible=True,
            consistent=False,
            options={"partition": "default", "reflect": "auto"},
            # a request lacak does not trust (the web API's) names a partition: groups of
            # tiles would build databases of any size for it
            accepts={"partition": OneOf("default", *NAMED_PARTITIONS), "reflect": _REFLECT_ACCEPTS},
            parse=parse_spec,
            description=(
                "additive pattern databases, any partition (pdb:1,2,3/4,5,6;reflect); "
                "default 6-6-3 on 4x4, 4-4 on 3x3, 5-5-5-5-4 on 5x5; cached on disk"
            ),
        )
    ]
    for name, (w, h) in NAMED_PARTITIONS.items():
        if name == "44":
            continue
        prep, est = _named(name)
        label = "-".join(name)
        out.append(
            lacak.Heuristic(
                name=f"pdb-{name}",
                kind="sliding",
                estimate=est,
                prepare=prep,
                admissible=True,
                consistent=False,
                options={"reflect": "auto"},
                accepts={"reflect": _REFLECT_ACCEPTS},
                parse=lambda text: parse_spec(text, partition=False),
                description=(
                    f"additive pattern databases {label} for {w}x{h} boards "
                    "(Korf & Felner 2002), with the reflected lookup; cached on disk"
                ),
            )
        )
    return out
