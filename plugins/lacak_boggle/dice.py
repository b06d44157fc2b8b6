"""Real Boggle dice, shaking them, and boards of random letters.

Shaking follows the game: the dice are shuffled into the tray (Fisher-Yates)
and each shows a random face. Randomness comes only from
``random.Random(seed).getrandbits``, whose output for a given seed is the same
on every platform and Python version, so the same seed shakes the same board
everywhere. A blank face is ``#``.

Sources of the dice sets (each die lists its six faces):

- ``classic4-1976`` — the original 4x4 Boggle, sold about 1976-1986, and
  ``classic4`` — the redesigned 4x4 "New Boggle" set sold from 1987: the
  side-by-side table in "The Boggle cube redesign and its effect on the
  difficulty of Boggle", bananagrammer.com, October 2013
  (https://www.bananagrammer.com/2013/10/); the same two sets appear on
  had2know.org's Boggle page.
- ``big5`` — the 25 dice of the original Big Boggle (5x5, rules copyright
  1979/1983): Eugene McDonnell, "Remarks on the Game of Boggle", OEIS
  A063000 (http://oeis.org/A063000/a063000.txt), read column by column.
- ``superbig6`` — the 36 dice of Super Big Boggle (6x6, 2011), with the
  ``An Er He In Qu Th`` die and the die with three blank faces: the
  ``'6'`` set of the pf-boggle package by pillowfication
  (``src/diceSets.js``, https://github.com/pillowfication/pf-boggle).

On every die the ``Q`` face reads ``Qu`` (one tile, two letters).
"""

from __future__ import annotations

import bisect
import contextlib
import os
import random
import secrets
import weakref
from collections import Counter
from collections.abc import Sequence
from typing import Any

import attrs
import lacak
from lacak.options import read_size

from .board import BLANK, Board, normalise_tile
from .solver import default_dictionary_name, resolve_dictionary

__all__ = ["DICE_SETS", "DiceSet", "random_board", "shake"]


def _die(faces: str) -> tuple[str, ...]:
    """``"HIMNUQu"`` -> ``("H", "I", "M", "N", "U", "QU")``: a capital starts a face."""
    out: list[str] = []
    for ch in faces:
        if ch.islower() and out:
            out[-1] += ch
        else:
            out.append(ch)
    if len(out) != 6:
        raise ValueError(f"a die has six faces, not {out!r}")
    return tuple(normalise_tile(face) for face in out)


@attrs.frozen(kw_only=True)
class DiceSet:
    """A set of Boggle dice and the tray they fill."""

    #: Name used by ``--dice`` and as the generator name.
    name: str
    #: Tray rows.
    rows: int
    #: Tray columns.
    cols: int
    #: Each die's six faces (``"QU"`` is one face, ``"#"`` a blank).
    dice: tuple[tuple[str, ...], ...] = attrs.field(converter=lambda ds: tuple(map(_die, ds)))
    #: One line for listings.
    description: str = ""

    def __attrs_post_init__(self) -> None:
        if len(self.dice) != self.rows * self.cols:
            raise ValueError(
                f"{self.name}: {len(self.dice)} dice for a {self.rows}x{self.cols} tray"
            )


DICE_SETS: dict[str, DiceSet] = {
    d.name: d
    for d in (
        DiceSet(
            name="classic4",
            rows=4,
            cols=4,
            description="4x4 Boggle, the 1987 'New Boggle' dice",
            dice=[
                "AAEEGN",
                "ABBJOO",
                "ACHOPS",
                "AFFKPS",
                "AOOTTW",
                "CIMOTU",
                "DEILRX",
                "DELRVY",
                "DISTTY",
                "EEGHNW",
                "EEINSU",
                "EHRTVW",
                "EIOSST",
                "ELRTTY",
                "HIMNUQu",
                "HLNNRZ",
            ],
        ),
        DiceSet(
            name="classic4-1976",
            rows=4,
            cols=4,
            description="4x4 Boggle, the original dice (about 1976-1986)",
            dice=[
                "AACIOT",
                "ABILTY",
                "ABJMOQu",
                "ACDEMP",
                "ACELRS",
                "ADENVZ",
                "AHMORS",
                "BFIORX",
                "DENOSW",
                "DKNOTU",
                "EEFHIY",
                "EGINTV",
                "EGKLUY",
                "EHINPS",
                "ELPSTU",
                "GILRUW",
            ],
        ),
        DiceSet(
            name="big5",
            rows=5,
            cols=5,
            description="5x5 Big Boggle, the original dice",
            dice=[
                "AAAFRS",
                "AAEEEE",
                "AAFIRS",
                "ADENNN",
                "AEEEEM",
                "AEEGMU",
                "AEGMNN",
                "AFIRSY",
                "BJKQuXZ",
                "CCENST",
                "CEIILT",
                "CEILPT",
                "CEIPST",
                "DDHNOT",
                "DHHLOR",
                "DHLNOR",
                "DHLNOR",
                "EIIITT",
                "EMOTTT",
                "ENSSSU",
                "FIPRSY",
                "GORRVW",
                "IPRRRY",
                "NOOTUW",
                "OOOTTU",
            ],
        ),
        DiceSet(
            name="superbig6",
            rows=6,
            cols=6,
            description="6x6 Super Big Boggle (2011), with digraph and blank faces",
            dice=[
                "AAAFRS",
                "AAEEEE",
                "AAEEOO",
                "AAFIRS",
                "ABDEIO",
                "ADENNN",
                "AEEEEM",
                "AEEGMU",
                "AEGMNN",
                "AEILMN",
                "AEINOU",
                "AFIRSY",
                "AnErHeInQuTh",
                "BBJKXZ",
                "CCENST",
                "CDDLNN",
                "CEIITT",
                "CEIPST",
                "CFGNUY",
                "DDHNOT",
                "DHHLOR",
                "DHHNOW",
                "DHLNOR",
                "EHILRS",
                "EIILST",
                "EILPST",
                "EIO###",
                "EMTTTO",
                "ENSSSU",
                "GORRVW",
                "HIRSTV",
                "HOPRST",
                "IPRSYY",
                "JKQuWXZ",
                "NOOTUW",
                "OOOTTU",
            ],
        ),
    )
}


# -- seeded randomness, stable across Python versions -----------------------------------


def _seed(seed: int | None) -> int:
    if seed is None:
        return secrets.randbits(63)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise lacak.InvalidOptionError(f"a seed must be a non-negative integer, got {seed!r}")
    return seed


def _below(rng: Any, n: int) -> int:
    """A uniform integer in ``[0, n)`` from ``getrandbits`` alone (rejection sampling)."""
    k = n.bit_length()
    while True:
        r = rng.getrandbits(k)
        if r < n:
            return r


def _uniform(rng: Any) -> float:
    """A float in ``[0, 1)`` with 53 random bits, from ``getrandbits``."""
    return rng.getrandbits(53) / 9007199254740992.0


def _check_size(size: Any, dice: DiceSet) -> None:
    if size is None:
        return
    try:
        shape = tuple(size) if not isinstance(size, int) else (size, size)
    except TypeError:
        shape = ()
    if shape != (dice.rows, dice.cols):
        raise lacak.InvalidOptionError(
            f"the {dice.name} dice fill a {dice.rows}x{dice.cols} tray, not {size!r}"
        )


def shake(dice: str | DiceSet = "classic4", seed: int | None = None) -> Board:
    """Shake a set of dice into its tray.

    :param dice: a name in :data:`DICE_SETS` or a :class:`DiceSet`.
    :param seed: the same seed gives the same board everywhere; ``None``
        picks one, kept in ``board.seed``.
    :raises UnknownComponentError: no dice set has that name.

    >>> shake("classic4", seed=7) == shake("classic4", seed=7)
    True
    >>> shake("big5", seed=1).shape
    (5, 5)
    """
    if isinstance(dice, str):
        if dice not in DICE_SETS:
            raise lacak.UnknownComponentError("dice set", dice, DICE_SETS)
        dice = DICE_SETS[dice]
    seed = _seed(seed)
    rng = _rng(seed)
    order = list(range(len(dice.dice)))
    for i in range(len(order) - 1, 0, -1):
        j = _below(rng, i + 1)
        order[i], order[j] = order[j], order[i]
    faces = [dice.dice[k][_below(rng, 6)] for k in order]
    rows = [faces[r * dice.cols : (r + 1) * dice.cols] for r in range(dice.rows)]
    return Board(tiles=rows, seed=seed, dice=dice.name)


def _rng(seed: int) -> Any:
    return random.Random(seed)


_weights: dict[int, tuple[Any, list[tuple[str, int]]]] = {}


def letter_weights(dictionary: lacak.Dictionary) -> list[tuple[str, int]]:
    """How often each letter occurs in the dictionary's words, most frequent first
    (remembered per dictionary object)."""
    hit = _weights.get(id(dictionary))
    if hit is not None and hit[0]() is dictionary:
        return hit[1]
    counts = Counter("".join(dictionary.words))
    weights = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    with contextlib.suppress(TypeError):  # not weak-referenceable: just not remembered
        _weights[id(dictionary)] = (weakref.ref(dictionary), weights)
    return weights


#: Most tiles a random board has (1024x1024).
MAX_TILES = 1 << 20


def _board_size(size: Any) -> tuple[int, int]:
    """``(rows, cols)`` from a pair of whole numbers, one number for a square, or
    ``"ROWSxCOLS"`` (:func:`lacak.options.read_size`).

    :raises InvalidOptionError: anything else, less than 1x1, or more than
        :data:`MAX_TILES` tiles.
    """
    return read_size(size, what="board size", most=MAX_TILES, unit="tiles")


def random_board(
    size: tuple[int, int] | int = (4, 4),
    seed: int | None = None,
    *,
    dictionary: lacak.Dictionary | str | None = None,
    weights: Sequence[tuple[str, float]] | None = None,
    registry: lacak.Registry | None = None,
) -> Board:
    """A board of letters drawn independently, weighted by the dictionary's letter frequencies.

    :param size: ``(rows, cols)`` or one number for a square, at most :data:`MAX_TILES` tiles.
    :param dictionary: a Dictionary or a registered name (default ``eng``);
        ignored when ``weights`` are given.
    :param weights: ``(tile, weight)`` pairs to draw from instead.
    :raises InvalidOptionError: a bad size or weights.

    The board records what makes it again (:attr:`Board.dice <lacak_boggle.board.Board.dice>`
    ``"random"``, its seed, and its ``dictionary`` option: the name or the file given, the
    default one's name when none was), unless ``weights`` were given: the ``random``
    generator takes none.
    """
    rows, cols = _board_size(size)
    made: dict[str, Any] = {}
    if weights is None:
        words = resolve_dictionary(dictionary, registry=registry)
        weights = letter_weights(words)
        made = {"dice": "random", "options": {"dictionary": _dictionary_name(dictionary, words)}}
    tiles = [normalise_tile(t) for t, _ in weights]
    values = [float(w) for _, w in weights]
    if not tiles or any(w < 0 for w in values) or sum(values) <= 0:
        raise lacak.InvalidOptionError("letter weights must be non-negative and not all zero")
    if any(t != BLANK and not t.isalpha() for t in tiles):
        raise lacak.InvalidOptionError("weighted tiles must be letters or #")
    cumulative = []
    total = 0.0
    for w in values:
        total += w
        cumulative.append(total)
    seed = _seed(seed)
    rng = _rng(seed)
    flat = [
        tiles[min(bisect.bisect_right(cumulative, _uniform(rng) * total), len(tiles) - 1)]
        for _ in range(rows * cols)
    ]
    return Board(tiles=[flat[r * cols : (r + 1) * cols] for r in range(rows)], seed=seed,
                 **made)  # fmt: skip


def _dictionary_name(given: Any, dictionary: lacak.Dictionary) -> str:
    """How a board records the dictionary it was drawn with: the name or the file
    ``given``, the default's name when none was (whatever $LACAK_BOGGLE_DICTIONARY says
    later), a Dictionary's name."""
    if given is None:
        return default_dictionary_name()
    if isinstance(given, lacak.Dictionary):
        return dictionary.name
    return os.fspath(given)
