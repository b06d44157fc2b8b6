"""Boards as the states of a local search: their neighbourhood, symmetries and scores.

:class:`BoardSpace` is what ``lacak boggle best`` climbs on (see
:mod:`lacak_boggle.best`): every board of one size over an alphabet of tiles
(a dictionary's letters, with ``QU`` for ``Q`` as on the dice), its
:meth:`~BoardSpace.objective` the :class:`lacak.Objective` that lacak's local
search strategies (``hill-climbing``, ``simulated-annealing``, ``beam``,
``genetic``) take.

A state is a board in its *canonical* form, as ``bytes``: one byte a tile
(its index in :attr:`BoardSpace.alphabet`), row by row, the smallest of the
board's images under the symmetries of its rectangle (eight for a square
board: four rotations, each mirrored; four for another: the identity, both
flips and the half turn). A board and its mirror image have the same words,
so folding them makes one state of the eight and scores it once.

Neighbours of a board (:meth:`BoardSpace.neighbours`): every board one tile
change away (a tile becomes another letter of the alphabet) and every board
one swap of two different tiles away, folded and without repeats; 520 boards
on a 4x4 board over 26 letters, about 920 on a 5x5.

Scores (:meth:`BoardSpace.values`) are the official points of every word on a
board, as ``lacak boggle solve`` counts them, computed many boards at a time
by the batch engines (:func:`lacak_boggle.batch.walk_arrays`: the compiled
walk of ``lacak[fast]`` when numba is there, else the numpy one) and
remembered, so a board met again is not scored again.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import random
from collections.abc import Iterable, Sequence
from typing import Any

import attrs
import lacak

from .board import BLANK, Board, official_min_length
from .dice import letter_weights
from .wordgraph import WordGraph

__all__ = ["MAX_TILES", "BoardSpace", "symmetries"]

#: Most tiles a board of a search may have (the array engines' visited set is one
#: 64-bit word, bit 63 kept for the edge).
MAX_TILES = 63
#: Most boards remembered with their scores; past it the memory starts again.
CACHE_SIZE = 2_000_000


@functools.lru_cache(maxsize=32)
def symmetries(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """The symmetries of a ``rows`` x ``cols`` board as permutations of its cells: for
    each, ``image[i] = board[p[i]]`` (row-major cells). Eight for a square board (of
    more than one tile), four for another; the identity first, no repeats.

    >>> len(symmetries(4, 4)), len(symmetries(4, 5)), symmetries(1, 2)
    (8, 4, ((0, 1), (1, 0)))
    """
    import numpy as np  # (deferred: the plugin starts without numpy)

    grid = np.arange(rows * cols).reshape(rows, cols)
    images = [grid, grid[::-1], grid[:, ::-1], grid[::-1, ::-1]]
    if rows == cols:
        t = grid.T
        images += [t, t[::-1], t[:, ::-1], t[::-1, ::-1]]
    out: list[tuple[int, ...]] = []
    for image in images:
        perm = tuple(int(v) for v in image.ravel())
        if perm not in out:
            out.append(perm)
    return tuple(out)


def _alphabet(dictionary: lacak.Dictionary, graph: WordGraph) -> tuple[str, ...]:
    """The tiles a searched board is made of: the letters the dictionary's words use
    (its alphabet, else the letters of its words), ``QU`` in place of ``Q`` when the
    word graph has the dice's ``QU`` tile."""
    letters = sorted(set(dictionary.alphabet or "") | set(graph.single_columns) - {"", BLANK})
    tiles = [t for t in letters if len(t) == 1 and t.isalpha() and graph.column(t)]
    if "Q" in tiles and graph.column("QU"):
        tiles[tiles.index("Q")] = "QU"
    return tuple(tiles)


@attrs.define(eq=False)
class BoardSpace:
    """Every board of one size over :attr:`alphabet`, scored with one dictionary.

    Make one with :meth:`create`. Its states are canonical boards as ``bytes``
    (see the module documentation); :meth:`board` turns one into a :class:`Board`.
    """

    #: ``(rows, cols)``.
    shape: tuple[int, int]
    #: The dictionary that scores the boards.
    dictionary: lacak.Dictionary = attrs.field(repr=False)
    #: Its compiled word graph.
    graph: WordGraph = attrs.field(repr=False)
    #: The tiles a board is made of (a state's bytes index it).
    alphabet: tuple[str, ...]
    #: The shortest word that counts.
    min_length: int
    #: The batch engine that scores boards (``numba``, ``numpy`` or ``dfs``).
    engine: str = "numpy"
    #: How many boards were scored (each board once: a board met again is remembered).
    evaluations: int = attrs.field(default=0, init=False)
    #: How many scores were asked for, remembered ones included.
    lookups: int = attrs.field(default=0, init=False)
    _cache: dict[bytes, int] = attrs.field(factory=dict, init=False, repr=False)
    _arrays: Any = attrs.field(default=None, init=False, repr=False)

    @classmethod
    def create(
        cls,
        shape: tuple[int, int],
        dictionary: lacak.Dictionary,
        graph: WordGraph,
        *,
        min_length: int | None = None,
        engine: str = "numpy",
        alphabet: Iterable[str] | None = None,
    ) -> BoardSpace:
        """The boards of ``shape`` scored with ``dictionary`` (compiled to ``graph``).

        :param alphabet: the tiles boards are made of (default: the dictionary's
            letters, ``QU`` for ``Q``); each must be a letter or a dice digraph the
            graph knows.
        :param engine: the batch engine that scores boards: ``numba`` (the compiled walk;
            the numpy one where numba cannot load), ``numpy`` or ``dfs``.
        :raises InvalidOptionError: an unknown engine, a board of more than
            :data:`MAX_TILES` tiles, a bad ``min_length``, or an alphabet of fewer than 2 or more than 255 usable tiles.
        """
        rows, cols = shape
        if engine not in ("numba", "numpy", "dfs"):
            raise lacak.InvalidOptionError(
                f"unknown engine {engine!r} for scoring boards; choose numba, numpy or dfs"
            )
        if rows * cols > MAX_TILES:
            raise lacak.InvalidOptionError(
                f"a searched board has at most {MAX_TILES} tiles, not {rows}x{cols}"
            )
        if min_length is None:
            min_length = official_min_length(rows, cols)
        if isinstance(min_length, bool) or not isinstance(min_length, int) or min_length < 1:
            raise lacak.InvalidOptionError(f"min_length must be at least 1, got {min_length!r}")
        if alphabet is None:
            tiles = _alphabet(dictionary, graph)
        else:
            tiles = tuple(dict.fromkeys(str(t).strip().upper() for t in alphabet))
            bad = [t for t in tiles if not t or t == BLANK or not graph.column(t)]
            if bad:
                raise lacak.InvalidOptionError(
                    f"tile {bad[0]!r} is no letter or dice tile of dictionary {dictionary.name!r}"
                )
        if not 2 <= len(tiles) <= 255:
            raise lacak.InvalidOptionError(
                f"a board search needs 2 to 255 tiles to choose from, not {len(tiles)}"
            )
        return cls((rows, cols), dictionary, graph, tiles, min_length, engine)

    # -- arrays made once ----------------------------------------------------------------

    def _made(self) -> tuple[Any, Any, Any, Any]:
        """``(columns, perms, weights, pairs)``: each tile's graph column, the symmetries
        as an index array, the tiles' cumulative weights, the cell pairs (i < j)."""
        if self._arrays is None:
            import numpy as np  # (deferred: the plugin starts without numpy)

            columns = np.array([self.graph.column(t) for t in self.alphabet], dtype=np.int64)
            perms = np.array(symmetries(*self.shape), dtype=np.intp)
            counts = dict(letter_weights(self.dictionary))
            # a tile by its first letter (QU by Q), every tile at least a little
            weights = [counts.get(t[0], 0) + 1.0 for t in self.alphabet]
            cumulative = list(itertools.accumulate(weights))
            cells = self.shape[0] * self.shape[1]
            pairs = np.array(list(itertools.combinations(range(cells), 2)), dtype=np.intp)
            self._arrays = (columns, perms, cumulative, pairs.reshape(-1, 2))
        return self._arrays

    @property
    def cells(self) -> int:
        """Tiles on a board."""
        return self.shape[0] * self.shape[1]

    # -- states ----------------------------------------------------------------------------

    def canonical(self, boards: Any) -> Any:
        """The canonical form of each board of ``boards`` (a ``(n, cells)`` array of tile
        indices): the smallest of its images under :func:`symmetries`, row by row.

        >>> import numpy as np
        >>> space = BoardSpace.example((2, 2))
        >>> space.canonical(np.array([[3, 2, 1, 0], [0, 1, 2, 3]], dtype=np.uint8)).tolist()
        [[0, 1, 2, 3], [0, 1, 2, 3]]
        """
        import numpy as np  # (deferred: the plugin starts without numpy)

        _, perms, _, _ = self._made()
        boards = np.asarray(boards, dtype=np.uint8).reshape(-1, self.cells)
        images = boards[:, perms]  # (n, symmetries, cells)
        best = images[:, 0].copy()
        rows = np.arange(len(boards))
        for k in range(1, len(perms)):
            image = images[:, k]
            differ = image != best
            first = differ.argmax(axis=1)
            smaller = differ.any(axis=1) & (image[rows, first] < best[rows, first])
            best[smaller] = image[smaller]
        return best

    def fold(self, board: Sequence[int]) -> bytes:
        """The canonical form of one board (its tile indices, row by row) as a state:
        :meth:`canonical` for one board, without numpy (a tenth of the time).

        >>> BoardSpace.example((2, 2)).fold([3, 2, 1, 0])
        b'\\x00\\x01\\x02\\x03'
        """
        raw = bytes(board)
        return min([bytes(map(raw.__getitem__, perm)) for perm in symmetries(*self.shape)])

    def state(self, board: Board | str) -> bytes:
        """The state of ``board`` (a :class:`Board` or its text): its canonical bytes.

        :raises InvalidPuzzleError: not a board of this size.
        :raises InvalidOptionError: a tile not in :attr:`alphabet` (a lone ``Q`` is read
            as ``QU`` when the alphabet has ``QU`` and no ``Q``).
        """
        board = Board.parse(board)
        if board.shape != self.shape:
            rows, cols = self.shape
            raise lacak.InvalidPuzzleError(
                f"the board is {board.rows}x{board.cols}, not {rows}x{cols}"
            )
        index = {t: i for i, t in enumerate(self.alphabet)}
        if "QU" in index and "Q" not in index:
            index["Q"] = index["QU"]
        found = []
        for tile in board.flat:
            if tile not in index:
                raise lacak.InvalidOptionError(
                    f"tile {tile!r} is not one of the tiles searched ({' '.join(self.alphabet)})"
                )
            found.append(index[tile])
        return self.fold(found)

    def board(self, state: bytes) -> Board:
        """The :class:`Board` of a state."""
        rows, cols = self.shape
        tiles = [self.alphabet[b] for b in state]
        return Board.from_rows([tiles[r * cols : (r + 1) * cols] for r in range(rows)])

    def text(self, state: bytes) -> str:
        """The text of a state's board (what ``lacak boggle solve`` reads)."""
        return self.board(state).to_text()

    def random_state(self, rng: random.Random) -> bytes:
        """A board of tiles drawn with ``rng``, weighted by how often the dictionary's
        words use their letters (every tile at least a little), folded."""
        _, _, cumulative, _ = self._made()
        total = cumulative[-1]
        last = len(cumulative) - 1
        drawn = [
            min(bisect.bisect_right(cumulative, rng.random() * total), last)
            for _ in range(self.cells)
        ]
        return self.fold(drawn)

    def neighbours(self, state: bytes) -> list[bytes]:
        """Every board one change away from ``state``'s: one tile made another tile of
        the alphabet, or two different tiles swapped; folded (:meth:`canonical`), without
        repeats and without ``state`` itself, in byte order."""
        import numpy as np  # (deferred: the plugin starts without numpy)

        _, _, _, pairs = self._made()
        board = np.frombuffer(state, dtype=np.uint8)
        cells, size = self.cells, len(self.alphabet)
        # tile changes: cell c becomes tile t, for every t but its own
        cell = np.repeat(np.arange(cells), size)
        tile = np.tile(np.arange(size, dtype=np.uint8), cells)
        keep = tile != board[cell]
        cell, tile = cell[keep], tile[keep]
        changed = np.repeat(board[None, :], len(cell), axis=0)
        changed[np.arange(len(cell)), cell] = tile
        # swaps of two different tiles
        differ = board[pairs[:, 0]] != board[pairs[:, 1]]
        i, j = pairs[differ, 0], pairs[differ, 1]
        swapped = np.repeat(board[None, :], len(i), axis=0)
        at = np.arange(len(i))
        swapped[at, i] = board[j]
        swapped[at, j] = board[i]
        every = self.canonical(np.concatenate([changed, swapped]))
        every = np.unique(every, axis=0)
        raw = every.tobytes()
        out = [raw[k : k + cells] for k in range(0, len(raw), cells)]
        return [near for near in out if near != state]

    def random_neighbour(self, state: bytes, rng: random.Random) -> bytes:
        """One neighbour of ``state`` drawn with ``rng`` without making them all: a swap of
        two different tiles half the time (when it gives another board), else a tile
        change; folded."""
        board = list(state)
        cells, size = self.cells, len(self.alphabet)
        if len(set(board)) > 1 and rng.random() < 0.5:
            while True:
                i, j = rng.randrange(cells), rng.randrange(cells)
                if board[i] != board[j]:
                    break
            board[i], board[j] = board[j], board[i]
            swapped = self.fold(board)
            if swapped != state:  # (a swap that mirrors the board makes the same one)
                return swapped
            board = list(state)
        # a tile change: it changes the tiles there are, so never gives the same board
        c = rng.randrange(cells)
        t = rng.randrange(size - 1)
        board[c] = t if t < board[c] else t + 1
        return self.fold(board)

    def crossover(self, first: bytes, second: bytes, rng: random.Random) -> bytes:
        """A child of two boards: the rows above a random cut from one, the rest from the
        other (or the columns left of a cut, half the time), folded."""
        rows, cols = self.shape
        a, b = list(first), list(second)
        if rng.random() < 0.5 and rows > 1:
            cut = rng.randrange(1, rows) * cols
            child = a[:cut] + b[cut:]
        elif cols > 1:
            cut = rng.randrange(1, cols)
            child = [a[k] if k % cols < cut else b[k] for k in range(rows * cols)]
        else:
            child = [a[k] if rng.random() < 0.5 else b[k] for k in range(rows * cols)]
        return self.fold(child)

    # -- scores -----------------------------------------------------------------------------

    def value(self, state: bytes) -> int:
        """The official points of ``state``'s board."""
        return self.values([state])[0]

    def values(self, states: Sequence[bytes]) -> list[int]:
        """The points of many boards, in order: remembered ones looked up, the others
        scored together by :attr:`engine` (and remembered)."""
        cache = self._cache
        self.lookups += len(states)
        missing = list(dict.fromkeys(s for s in states if s not in cache))
        if missing:
            scores = self._score(missing)
            if len(cache) + len(missing) > CACHE_SIZE:
                cache.clear()
            cache.update(zip(missing, scores, strict=True))
            self.evaluations += len(missing)
            return [cache[s] if s in cache else scores[missing.index(s)] for s in states]
        return [cache[s] for s in states]

    def _score(self, states: list[bytes]) -> list[int]:
        import numpy as np  # (deferred: the plugin starts without numpy)

        from .batch.arrays import SCORES, solve_columns
        from .engines import load_compiled

        columns, _, _, _ = self._made()
        tiles = np.frombuffer(b"".join(states), dtype=np.uint8).reshape(len(states), self.cells)
        if self.engine == "numba":  # the compiled walk straight (a call costs less)
            compiled = load_compiled()
            if compiled is not None:
                table = columns[tiles]
                return [
                    score
                    for k in range(0, len(table), 2048)
                    for score in compiled.walk(self.graph, table[k : k + 2048], self.shape,
                                               self.min_length, compiled.SCORES).score.tolist()
                ]  # fmt: skip
        found = solve_columns(
            self.graph, columns[tiles], self.shape, self.min_length, self.engine, SCORES
        )
        return [int(v) for part in found for v in part.score.tolist()]

    def objective(self) -> lacak.Objective:
        """This space as a :class:`lacak.Objective` for lacak's local search strategies."""
        return lacak.Objective(
            value=self.value,
            neighbours=self.neighbours,
            random_state=self.random_state,
            random_neighbour=self.random_neighbour,
            values=self.values,
            crossover=self.crossover,
            mutate=self.random_neighbour,
        )

    @classmethod
    def example(cls, shape: tuple[int, int] = (2, 2)) -> BoardSpace:
        """A small space over a dozen words (examples and tests)."""
        from .wordgraph import compile_dictionary

        words = lacak.Dictionary(
            name="tiny", language="en", words=["CAT", "ACT", "TAX", "AT", "TA"], alphabet="ACTX"
        )
        return cls.create(shape, words, compile_dictionary(words), min_length=2)
