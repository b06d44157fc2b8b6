"""An obviously correct Boggle solver to test the real one against.

For every dictionary word, try every way of spelling it: start on any tile
whose letters begin the word, step to any adjacent unused tile whose letters
continue it, until the word is used up. Tiles are compared as strings, so a
``QU`` tile spells two letters and a ``#`` never matches. Nothing here is
shared with the plugin (not even the neighbour lists).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

Tiles = Sequence[Sequence[str]]


def adjacent(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """King moves: one step in any of the eight directions."""
    return a != b and abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1


def spellings(tiles: Tiles, word: str) -> list[tuple[tuple[int, int], ...]]:
    """Every path of cells whose tiles spell exactly ``word``, sorted by row-major cell index."""
    cells = [(r, c) for r in range(len(tiles)) for c in range(len(tiles[0]))]
    found: list[tuple[tuple[int, int], ...]] = []

    def extend(path: list[tuple[int, int]], position: int) -> None:
        if position == len(word):
            found.append(tuple(path))
            return
        for cell in cells:
            if cell in path or (path and not adjacent(path[-1], cell)):
                continue
            tile = tiles[cell[0]][cell[1]]
            if tile != "#" and word.startswith(tile, position):
                path.append(cell)
                extend(path, position + len(tile))
                path.pop()

    if word:
        extend([], 0)
    width = len(tiles[0])
    return sorted(found, key=lambda p: [r * width + c for r, c in p])


def solve(
    tiles: Tiles, words: Iterable[str], min_length: int
) -> dict[str, list[tuple[tuple[int, int], ...]]]:
    """``{word: all its paths, smallest first}`` for every word on the board."""
    out = {}
    for word in words:
        if len(word) >= min_length:
            paths = spellings(tiles, word)
            if paths:
                out[word] = paths
    return out


POINTS = {3: 1, 4: 1, 5: 2, 6: 3, 7: 5}


def points(word: str) -> int:
    """The official table, written out again."""
    return 11 if len(word) >= 8 else POINTS.get(len(word), 0)
