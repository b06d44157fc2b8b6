"""The compiled ``idastar-tiles`` engine: one IDA* iteration as machine code, with numba.

This is the search of :class:`lacak_sliding.tiles.idastar.stack.Stack` with an
additive heuristic (:class:`~lacak_sliding.tiles.idastar.model.AdditiveModel`:
pattern databases looked up by sparse index or by rank, with or without the
reflected lookup, and tile tables such as Manhattan distance), written once
more as a numba kernel. It keeps that search's order exactly (children in the
order D, R, L, U of the blank, the inverse of the last move skipped) and
counts the same way (``expanded``: nodes tested for the goal and given
children, the root included; ``generated``: children whose estimate was
computed), so answers, paths and node counts are those of the pure-Python
engines.

Per node, nothing is allocated: the board, each table's index (and the
mirrored board's), the estimate and an explicit stack of the path live in
arrays. A move slides one tile, so one table index changes, by a
precomputed step (plus, for rank-indexed tables and a move between rows, one
term for each tile of the group the moving tile passes), and the estimate
changes by two table lookups (four with the reflected lookup).

The kernel runs an iteration in slices: it returns every ``pause_at``
expanded nodes at a point where the search can go on, so that the caller can
look at the clock, show progress and see Ctrl-C, and stops exactly at
``max_expanded`` the way the Python engines do. The caller can also start it
in the middle of an iteration, from a stack it filled in (the hand-over from
the Python engine, :mod:`lacak_sliding.tiles.idastar.engines`).

Requires the optional extra ``lacak[fast]`` (numba). Nothing imports this
module until the compiled engine is used, through
``lacak_sliding.tiles.idastar.engines.ENGINE`` (a :class:`lacak.store.compiled.CompiledEngine`),
which announces the first compile on a machine and remembers it. Machine
code is kept in lacak's cache folder, checked before numba loads it
(:func:`lacak.store.compiled.cache_kernels`, called at the end of this module).
"""

from __future__ import annotations

from typing import Any

import lacak
import numba
import numpy as np

__all__ = ["DONE", "FOUND", "FULL", "NODES", "PAUSED", "iterate", "warm"]

#: Kernel results: the iteration ended without the goal; the goal was found (the path
#: is the stack); ``pause_at`` was reached (call again to go on); ``max_expanded`` was
#: reached before the next expansion; the stack arrays are full (grow them, call again).
DONE, FOUND, PAUSED, NODES, FULL = 0, 1, 2, 3, 4

#: ``counts`` slots: expanded, generated, the stack's top level (-1: a new iteration).
EXPANDED, GENERATED, TOP = 0, 1, 2


@numba.njit(nogil=True, inline="always")
def _at_goal(board, goal):  # pragma: no cover - compiled
    """Whether ``board`` is ``goal`` (tested only where the estimate is 0)."""
    for p in range(board.shape[0]):  # noqa: SIM110 - numba compiles a loop, not all(...)
        if board[p] != goal[p]:
            return False
    return True


@numba.njit(nogil=True)
def iterate(  # pragma: no cover - compiled
    nbr,
    mdir,
    nb,
    btw,
    nrb,
    rbtw,
    grp,
    dlt,
    cross,
    rgrp,
    rdlt,
    rcross,
    tab,
    off,
    board,
    goal,
    gi,
    ri,
    sz,
    si,
    sh,
    sk,
    smv,
    so,
    sro,
    counts,
    bound,
    reflect,
    max_expanded,
    pause_at,
    root_prev,
):
    """Run (or go on with) one IDA* iteration of ``bound``; see the module docstring.

    Geometry, per blank cell ``z`` and neighbour slot ``i`` (``-1`` past the
    cell's neighbours; packed into one word per slot on entry): ``nbr[z, i]`` the neighbour, ``mdir[z, i]`` the
    direction the tile moves (its index into ``dlt``), ``btw[z, i, :nb[z, i]]``
    the cells the tile passes for rank-indexed tables, ``rbtw``/``nrb`` the
    same for the mirrored board. Tiles: ``grp[t]`` the table of tile ``t``,
    ``dlt[d, t]`` its index step, ``cross[d, t, u]`` the step's term for tile
    ``u`` passed (``rgrp``, ``rdlt``, ``rcross`` for the mirrored tile).
    Tables: ``tab[off[g] + index]``. State: ``board``, ``gi`` and ``ri`` (the
    tables' indexes, for the real and mirrored boards), the stack (per level:
    blank cell ``sz``, next slot ``si``, estimates ``sh`` and ``sk``, the tile
    moved to get there ``smv`` and the indexes it replaced ``so``, ``sro``) and
    ``counts`` (expanded, generated, top level; -1 to start the iteration; the
    caller sets ``sh[0]``, ``sk[0]`` and ``sz[0]``). ``root_prev`` is the blank's
    cell before the root (the root's move back, never made: a split search's task
    starts below the real root), or -1.

    :returns: :data:`DONE`, :data:`FOUND` (the path's blank cells are
        ``sz[1 : top + 1]``), :data:`PAUSED`, :data:`NODES` or :data:`FULL`.
    """
    n = board.shape[0]
    mv = np.full(n * 4, -1, dtype=np.int64)
    for z in range(n):
        for i in range(4):
            if nbr[z, i] >= 0:
                # the neighbour (32 bits), direction (2), crossings (14 and 14)
                mv[z * 4 + i] = (
                    nbr[z, i] | (mdir[z, i] << 32) | (nb[z, i] << 34) | (nrb[z, i] << 48)
                )
    expanded = counts[0]
    generated = counts[1]
    top = counts[2]
    if top < 0:  # the root
        if expanded >= max_expanded:
            return NODES
        expanded += 1
        top = 0
        si[0] = 0
        if sh[0] == 0 and _at_goal(board, goal):
            counts[0] = expanded
            counts[1] = generated
            counts[2] = top
            return FOUND
    status = DONE
    room = sz.shape[0]
    while True:
        if expanded >= pause_at:
            status = PAUSED
            break
        if top + 2 >= room:
            status = FULL
            break
        # the node on top of the stack: try its children from the next slot on, and
        # descend into the first one within the bound (or back out when none is)
        z = sz[top]
        prev = sz[top - 1] if top > 0 else root_prev
        h = sh[top]
        k = sk[top]
        c = bound - (top + 1)  # a child is searched when its estimate is at most c
        i = si[top]
        child = -1
        slot = z * 4
        while i < 4:
            move = mv[slot + i]
            if move < 0:
                break
            i += 1
            nz = move & 0xFFFFFFFF
            if nz == prev:
                continue
            t = board[nz]
            d = (move >> 32) & 3
            dt = d * n + t
            g = grp[t]
            o = gi[g]
            w = o + dlt.flat[dt]
            for j in range((move >> 34) & 0x3FFF):
                w += cross[d, t, board[btw[z, i - 1, j]]]
            base = off[g]
            h1 = h - np.int64(tab[base + o]) + np.int64(tab[base + w])
            generated += 1
            if h1 > c:
                continue
            if reflect:
                rg = rgrp[t]
                ro = ri[rg]
                rw = ro + rdlt.flat[dt]
                for j in range(move >> 48):
                    rw += rcross[d, t, board[rbtw[z, i - 1, j]]]
                rbase = off[rg]
                k1 = k - np.int64(tab[rbase + ro]) + np.int64(tab[rbase + rw])
                if k1 > c:
                    continue
                sro[top + 1] = ro
                sk[top + 1] = k1
                ri[rg] = rw
            child = nz
            break
        si[top] = i
        if child < 0:  # every child tried: back to the parent
            if top == 0:
                status = DONE
                break
            t = smv[top]
            board[z] = t
            board[sz[top - 1]] = 0
            gi[grp[t]] = so[top]
            if reflect:
                ri[rgrp[t]] = sro[top]
            top -= 1
            continue
        if expanded >= max_expanded:
            status = NODES
            break
        expanded += 1
        board[z] = t
        board[child] = 0
        gi[g] = w
        top += 1
        sz[top] = child
        si[top] = 0
        sh[top] = h1
        smv[top] = t
        so[top] = o
        if h1 == 0 and _at_goal(board, goal):
            status = FOUND
            break
    counts[0] = expanded
    counts[1] = generated
    counts[2] = top
    return status


#: The kernel's parts (:meth:`lacak.store.compiled.CompiledEngine.part_of`), by the tables
#: it reads: bytes (pattern databases) or 64-bit integers (tile tables such as Manhattan's).
PARTS = {"bytes": np.uint8, "wide": np.int64}


def warm(part: str | None = None) -> None:
    """Compile (or load from lacak's cache) the kernel on a 2x2 board, for one kind of
    table (``part``, a key of :data:`PARTS`) or both."""
    i8 = np.int64
    nbr = np.array([[2, 1, -1, -1], [3, -1, 0, -1], [-1, 3, -1, 0], [-1, -1, 2, 1]], dtype=i8)
    mdir = np.zeros((4, 4), dtype=i8)
    nb = np.zeros((4, 4), dtype=i8)
    btw = np.zeros((4, 4, 1), dtype=i8)
    grp = np.zeros(4, dtype=i8)
    dlt = np.zeros((4, 4), dtype=i8)
    cross = np.zeros((4, 4, 4), dtype=i8)
    off = np.zeros(1, dtype=i8)
    kernel: Any = iterate  # a numba dispatcher, called with arrays
    for dtype in PARTS.values() if part is None else (PARTS[part],):
        tab = np.zeros(1, dtype=dtype)
        board = np.array([0, 1, 2, 3], dtype=i8)
        stack = [np.zeros(4, dtype=i8) for _ in range(7)]
        counts = np.array([0, 0, -1], dtype=i8)
        kernel(nbr, mdir, nb, btw, nb, btw, grp, dlt, cross, grp, dlt, cross, tab, off,
                board, board.copy(), np.zeros(1, dtype=i8), np.zeros(1, dtype=i8),
                *stack, counts, 0, False, 1, 1, -1)  # fmt: skip


lacak.store.compiled.cache_kernels(globals())  # machine code in lacak's checked cache
