"""The Boggle walks in Python: every word on a board, and every path of one word.

The walk starts at every tile and moves to free neighbours (a bitmask holds the
tiles in use, neighbour lists are precomputed per board shape), following the
word graph's edge for the tile's letters at each step; a path no word starts
with is dropped at once. Every tile with one column in the graph (a letter,
or a dice digraph such as ``QU``) takes one table lookup; other multi-letter
tiles are walked letter by letter. Words are recognised by the rank summed
along the path (their index in the dictionary), so no string is built until
the result is assembled.

Neighbours are tried in row-major order and starting tiles too, so the first
path found for a word is its lexicographically smallest sequence of cell
indices: the path :func:`~lacak_boggle.solve_board`, :func:`~lacak_boggle.check`
and every engine report.

Two walks: :func:`walk_fast` (boards whose tiles are all one graph column, no
limits: the ``dfs`` engine, and the model the compiled walk of
:mod:`lacak_boggle.compiled` reproduces) and :func:`walk_general` (any tiles,
every path, limits and tracing). :func:`word_paths` finds the paths of one
word. All three keep their own stack: no board or word is too deep for them.
"""

from __future__ import annotations

import functools
from typing import Any

import attrs
import lacak

from .board import BLANK, Board, neighbours
from .results import cells_of
from .wordgraph import WordGraph, follow

__all__ = ["Walked", "tile_columns", "walk_fast", "walk_general", "word_paths"]

# -- preparing a board for a graph ---------------------------------------------------


def tile_columns(board: Board, graph: WordGraph) -> list[tuple[int, ...] | None]:
    """Per cell: the graph columns its tile walks (one for letters and digraphs), or
    ``None`` for a tile no word can use.

    ``None`` is a blank, and also a tile with a letter the dictionary's words never
    use (``R`` on a board solved with a list of a dozen words): no word starts on it
    or passes through it, so every walk treats it as a blank. Every engine maps
    tiles through this function (or, for boards whose tiles are all one column,
    :attr:`WordGraph.single_columns <lacak_boggle.wordgraph.WordGraph.single_columns>`,
    which agrees with it), so they all give the same words.
    """
    flat = board.flat
    single = graph.single_columns
    fast = [single.get(tile) for tile in flat]
    if None not in fast:  # every tile a letter, a compiled digraph or a blank
        return [(col,) if col else None for col in fast]
    out: list[tuple[int, ...] | None] = []
    for tile in flat:
        if tile == BLANK:
            out.append(None)
            continue
        whole = graph.column(tile)
        if whole:
            out.append((whole,))
            continue
        steps = tuple(graph.column(ch) for ch in tile)
        # a letter without a column: no word spells this tile
        out.append(steps if all(steps) else None)
    return out


# -- the fast walk -----------------------------------------------------------------------


@functools.lru_cache(maxsize=64)
def _around_bits(rows: int, cols: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    return tuple(tuple((m, 1 << m) for m in cell) for cell in neighbours(rows, cols))


def walk_fast(
    graph: WordGraph,
    columns: list[int],
    shape: tuple[int, int],
    min_length: int = 1,
    max_expanded: int = 0,
) -> tuple[dict[int, list[int]], int, int, int]:
    """Every word, first path each, on a board whose tiles are all one column.

    The walk keeps its own stack (each level's neighbours still to try and
    its graph state) instead of recursing, so a board of any size with words
    of any length walks in constant Python stack; it measured as fast as the
    recursive walk it replaced (within 1% on the benchmark's boards).

    :param columns: each cell's graph column (0 for a blank).
    :param min_length: words shorter than this (in letters) are not collected
        (they are walked through all the same: the node counts do not change).
    :param max_expanded: stop once this many nodes (the root not counted) were
        expanded, as the compiled walk's ``max_expanded`` does (0: no limit); the
        walk then returns ``expanded`` of ``max_expanded + 1`` and part of the words.
    :returns: ``(found, expanded, generated, deepest)`` where ``found`` maps a
        word's rank to its first path (cell indices).
    """
    cap = max_expanded if max_expanded > 0 else -1
    table = graph.transitions
    ranks = graph.ranks
    lengths = graph.word_lengths
    rows, width = shape
    cells = rows * width
    around = _around_bits(rows, width)
    if 0 in columns:
        nbrs = [tuple([(m, b, columns[m]) for m, b in cell if columns[m]]) for cell in around]
    else:
        nbrs = [tuple([(m, b, columns[m]) for m, b in cell]) for cell in around]
    # the letters around each tile (a digraph tile by its first letter), to skip
    # states no neighbour can continue
    first = graph.first_letters
    letters_near = [0] * cells
    for i, cell in enumerate(nbrs):
        mask = 0
        for _m, _b, col in cell:
            mask |= first[col]
        letters_near[i] = mask
    found: dict[int, list[int]] = {}
    path = [-1] * (cells + 1)
    expanded = 0
    leaves = 0
    # one entry per level above the current one: (its neighbours still to try,
    # graph offset, rank so far, tiles in use, path length after its next tile)
    stack: list[tuple[Any, int, int, int, int]] = []
    push, pop = stack.append, stack.pop
    for start in range(cells):
        col = columns[start]
        if not col:
            continue
        child = table[col]
        if not child:
            continue
        r = ranks[col]
        path[0] = start
        if child < 0:
            if r not in found and (min_length <= 1 or lengths[r] >= min_length):
                found[r] = [start]
            if child == -1:
                leaves += 1
                continue
            child = -2 - child
        expanded += 1
        if expanded == cap:
            break
        todo = iter(nbrs[start])
        offset, rank, visited, after = child, r, 1 << start, 2
        while True:
            for m, bit, col in todo:
                if visited & bit:
                    continue
                child = table[offset + col]
                if not child:
                    continue
                r = rank + ranks[offset + col]
                path[after - 1] = m
                if child < 0:  # the path spells a word
                    # (a tile is at least one letter: only short paths need a length check)
                    if r not in found and (after >= min_length or lengths[r] >= min_length):
                        found[r] = path[:after]
                    if child == -1:  # and no word goes on
                        leaves += 1
                        continue
                    child = -2 - child
                expanded += 1  # (with no children when no neighbour's letter continues it)
                if expanded == cap:  # (a board too long to walk here: no more of it)
                    stack.clear()
                    todo = iter(())
                    break
                if table[child] & letters_near[m]:
                    push((todo, offset, rank, visited, after))
                    todo = iter(nbrs[m])
                    offset, rank, visited, after = child, r, visited | bit, after + 1
                    break
            else:  # this level is done: back to the one above
                if not stack:
                    break
                todo, offset, rank, visited, after = pop()
        if expanded == cap:
            break
    # The deepest level reached is the last slot of ``path`` ever written.
    deepest = cells + 1
    while deepest and path[deepest - 1] < 0:
        deepest -= 1
    # the root is expanded too; generated = every prefix path created
    return found, expanded + 1, expanded + leaves, deepest


# -- the general walk ----------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class Walked:
    """What :func:`walk_general` found and why it stopped."""

    #: rank -> the word's paths (cell indices): all of them, or the first
    found: dict[int, list[list[int]]]
    stats: lacak.SearchStats
    #: the limit that stopped the walk, or ``None``
    stopped: lacak.StopReason | None
    #: whether ``max_depth`` cut some path short
    cut: bool
    #: which count stopped the walk (``"max_words"``, ``"max_paths"``), or ``None``
    bound: str | None = None


def walk_general(
    graph: WordGraph,
    board: Board,
    steps: list[tuple[int, ...] | None],
    *,
    min_length: int,
    all_paths: bool,
    budget: lacak.Budget,
    max_words: int | None = None,
    max_paths: int | None = None,
    trace: lacak.SearchTrace | None = None,
) -> Walked:
    """The same walk for any tiles, with all paths, limits and tracing.

    Like :func:`walk_fast` it keeps its own stack, so no board or word is
    too deep for it. Before a node is expanded the budget is asked (expanded
    nodes, the path's length as the frontier, the clock every few hundred
    nodes); ``max_depth`` stops paths at that many tiles.

    :param min_length: words shorter than this are walked through but not kept.
    :param max_words: stop (``memory-limit``) rather than keep one word more.
    :param max_paths: with ``all_paths``, stop (``memory-limit``) rather than
        keep one path more, all words together.
    :returns: the words found so far, with their paths, and why the walk stopped.
    """
    table, ranks = graph.transitions, graph.ranks
    lengths = graph.word_lengths
    rows, width = board.shape
    cells = rows * width
    around = neighbours(rows, width)
    nbrs = [tuple(m for m in around[i] if steps[m] is not None) for i in range(cells)]
    starts = tuple(m for m in range(cells) if steps[m] is not None)
    exceeded = budget.exceeded
    max_depth = budget.limits.max_depth
    found: dict[int, list[list[int]]] = {}
    kept = 0  # paths kept, all words together
    path: list[int] = []
    expanded = generated = deepest = 0
    stopped: lacak.StopReason | None = None
    bound: str | None = None
    cut = False
    memory = lacak.StopReason.MEMORY

    node = trace.add(None, (), None, depth=0, g=0.0) if trace is not None else -1
    stopped = exceeded(0, 0)
    if stopped is None and max_depth is not None and max_depth <= 0:
        cut = True
    elif stopped is None:
        expanded = 1
        if trace is not None:
            trace.expand(node)
        # one entry per level above the current one: (its tiles still to try,
        # graph offset, rank so far, tiles in use, its trace node)
        stack: list[tuple[Any, int, int, int, int]] = []
        todo: Any = iter(starts)
        offset = rank = visited = 0
        while True:
            for m in todo:
                if visited >> m & 1:
                    continue
                moved = follow(table, ranks, offset, rank, steps[m])
                if moved is None:
                    continue
                child, r, final = moved
                generated += 1
                path.append(m)
                depth = len(path)
                if depth > deepest:
                    deepest = depth
                child_node = -1
                if trace is not None:
                    child_node = trace.add(
                        node,
                        tuple([divmod(i, width) for i in path]),
                        divmod(m, width),
                        depth=depth,
                        g=float(depth),
                    )
                if final and lengths[r] >= min_length:
                    paths = found.get(r)
                    if paths is None:
                        if max_words is not None and len(found) >= max_words:
                            stopped, bound = memory, "max_words"
                            break
                        if all_paths and max_paths is not None and kept >= max_paths:
                            stopped, bound = memory, "max_paths"
                            break
                        found[r] = [path[:]]
                        kept += 1
                    elif all_paths:
                        if max_paths is not None and kept >= max_paths:
                            stopped, bound = memory, "max_paths"
                            break
                        paths.append(path[:])
                        kept += 1
                if child >= 0:  # some word goes on: expand the path
                    stopped = exceeded(expanded, depth)
                    if stopped is not None:
                        break
                    if max_depth is not None and depth >= max_depth:
                        cut = True
                    else:
                        expanded += 1
                        if trace is not None:
                            trace.expand(child_node)
                        stack.append((todo, offset, rank, visited, node))
                        todo = iter(nbrs[m])
                        offset, rank, visited, node = child, r, visited | 1 << m, child_node
                        break
                path.pop()
            else:  # this level is done: back to the one above
                if not stack:
                    break
                todo, offset, rank, visited, node = stack.pop()
                path.pop()
                continue
            if stopped is not None:
                break
    stats = lacak.SearchStats(
        expanded=expanded,
        generated=generated,
        max_frontier=deepest,
        depth=deepest,
        seconds=budget.elapsed(),
    )
    return Walked(found=found, stats=stats, stopped=stopped, cut=cut, bound=bound)


# -- the paths of one word ------------------------------------------------------------------


def word_paths(
    board: Board, word: str, budget: lacak.Budget, max_paths: int | None
) -> tuple[list[tuple[tuple[int, int], ...]], lacak.StopReason | None]:
    """The paths whose tiles spell exactly ``word``, in row-major depth-first order.

    A walk with its own stack (no recursion: a board or a word of any size).
    The budget is asked before each path is extended.

    :returns: ``(paths, stopped)``: every path (or those found when a limit
        stopped the walk) and the limit's reason, or ``None``.
    """
    rows, width = board.shape
    flat = board.flat
    around = neighbours(rows, width)
    at = cells_of(rows, width)
    size = len(word)
    out: list[tuple[tuple[int, int], ...]] = []
    path: list[int] = []
    stopped: lacak.StopReason | None = None
    expanded = 0
    # one entry per level above the current one: (its tiles still to try,
    # letters spelled so far, tiles in use)
    stack: list[tuple[Any, int, int]] = []
    todo: Any = iter(range(rows * width) if word else ())
    done = visited = 0
    while True:
        for m in todo:
            tile = flat[m]
            if visited >> m & 1 or tile == BLANK or not word.startswith(tile, done):
                continue
            path.append(m)
            reached = done + len(tile)
            if reached == size:
                if max_paths is not None and len(out) >= max_paths:
                    stopped = lacak.StopReason.MEMORY
                    break
                out.append(tuple([at[i] for i in path]))
            else:
                stopped = budget.exceeded(expanded, len(path))
                if stopped is not None:
                    break
                expanded += 1
                stack.append((todo, done, visited))
                todo, done, visited = iter(around[m]), reached, visited | 1 << m
                break
            path.pop()
        else:  # this level is done: back to the one above
            if not stack:
                break
            todo, done, visited = stack.pop()
            path.pop()
            continue
        if stopped is not None:
            break
    return out, stopped
