"""Which engine runs ``idastar-tiles``, and the compiled one.

Two engines give the same answers, paths and node counts (expanded and
generated) for an additive heuristic (pattern databases, with or without the
reflected lookup; tile tables such as ``manhattan``):

``python``
    the pure-Python engines of :mod:`lacak_sliding.tiles.idastar`, no
    start-up cost;
``numba``
    the same search as machine code (:mod:`lacak_sliding.tiles.idastar.compiled`,
    ``pip install 'lacak[fast]'``): 10-20 times as fast, but a process pays
    about 0.5 s to import numba and load the machine code, and the very first
    use on a machine compiles the part of it the search needs (about 2-3 s on a
    quiet machine, :func:`part_for`).

Every engine visits the same nodes in the same order, so a search can change
engines between two IDA* iterations, or in the middle of one. ``auto`` (the
default) starts in Python and moves to the compiled engine when the search
has run long enough to repay it (:func:`upgrade`): after :data:`LOAD_AFTER`
seconds when the machine code is ready on this machine (or already loaded in
the process: at once). When it is not, the first compile starts then in a
process of its own
(:meth:`lacak.store.compiled.CompiledEngine.compile_in_background`, announced,
once per machine) while the search goes on in Python on the other core, and
the compiled engine takes over from the node the Python search has reached
as soon as the machine code is there: a first 15-puzzle solve waits for no
compile (``bench/cold_start.py``). Where that cannot be done (no usable cache
folder), it is compiled in this process after :data:`COMPILE_AFTER` seconds,
not within :data:`COMPILE_ROOM` seconds of a time limit.

``LACAK_TILES_ENGINE`` (``auto``, ``python`` or ``numba``) overrides the
choice: ``python`` for comparisons, ``numba`` to use the compiled engine from
the first iteration (an error when it cannot run; when its first compile must
happen and a time limit is nearer than :data:`COMPILE_ROOM` seconds, the
search runs in Python instead, after one warning: a compile cannot be stopped
half-way, and would hold the answer past the limit). Other heuristics
(``linear-conflict``, non-integral weights, any heuristic without a table)
and traces always run in Python.
"""

from __future__ import annotations

import math
import time
from typing import Any

import lacak
import numpy as np
from lacak import StopReason

from .generated import Generated, between, move_tables
from .iteration import Search, Step, Tally
from .model import AdditiveModel, lowest

__all__ = [
    "COMPILE_AFTER",
    "COMPILE_ROOM",
    "ENGINE",
    "ENGINES",
    "ENGINE_VARIABLE",
    "LOAD_AFTER",
    "PART_SECONDS",
    "compile_ahead",
    "forced_engine",
    "part_for",
    "upgrade",
    "warm",
    "warm_for_databases",
]

#: The compiled engine (its loading and first compile). A search loads (or compiles) only
#: the part for its tables (:func:`part_for`): its first compile takes about 2-3 s on a
#: quiet machine instead of 4-5 s for both parts.
ENGINE = lacak.store.compiled.CompiledEngine(
    name="sliding-tiles",
    module="lacak_sliding.tiles.idastar.compiled",
    title="the sliding-tiles engine",
    seconds="about 5 s",
)
#: How long the first compile of one part of the engine takes, as announced (2-3 s on a
#: quiet 2-core machine, numba's import included: ``bench/cold_start.py``).
PART_SECONDS = "about 3 s"
#: What ``LACAK_TILES_ENGINE`` may say.
ENGINES = ("auto", "python", "numba")
#: The environment variable that chooses the engine.
ENGINE_VARIABLE = "LACAK_TILES_ENGINE"
#: Seconds of search after which ``auto`` loads compiled machine code that is ready.
LOAD_AFTER = 0.25
#: Seconds of search after which ``auto`` compiles the engine in this process (once per
#: machine) when it cannot be compiled in a process of its own (:class:`_Timer`): about
#: what the compile costs, so that a search never takes more than twice its time in
#: Python because of it.
COMPILE_AFTER = 2.0
#: ``auto`` does not start the first compile when a time limit is nearer than this.
COMPILE_ROOM = 60.0
#: Expanded nodes the kernel searches between two looks at the clock.
SLICE = 1 << 19
#: Levels the kernel's stack has at first (it doubles when full).
STACK = 256
#: ``auto`` does not load the machine code when a time limit is nearer than this.
LOAD_ROOM = 2.0


def forced_engine() -> str | None:
    """The engine ``LACAK_TILES_ENGINE`` names, or ``None`` when it is unset or ``auto``.

    :raises InvalidOptionError: it names no engine.
    """
    return lacak.store.compiled.engine_named(ENGINE_VARIABLE, ENGINES, "sliding-tiles")


def warm() -> bool:
    """Compile the engine now (or load it), both parts, so that no search waits for it
    later (``lacak sliding pdb build`` does it too).

    :returns: whether the compiled engine can run here.
    """
    return ENGINE.load() is not None


def compile_ahead(puzzle: Any, heuristic: Any, deadline: float | None) -> None:
    """Start the first compile of the engine's part for pattern databases in a process
    of its own before a search of ``puzzle`` loads its tables, when that search will
    want it: a pattern-database heuristic (``pdb...``) on a board of 16 cells or more,
    in ``auto``, the machine code not ready here, and no time limit nearer than
    :data:`COMPILE_ROOM`. Loading the tables (about a second for 6-6-3) then overlaps
    the compile, and the compiled engine takes over sooner (:class:`_Timer`).

    :param deadline: the search's (a time of :func:`lacak.limits.now`), or ``None``.
    """
    if int(puzzle.width) * int(puzzle.height) < 16:
        return
    if not str(getattr(heuristic, "name", "")).startswith("pdb") or forced_engine() is not None:
        return
    if deadline is not None and deadline - lacak.limits.now() < COMPILE_ROOM:
        return
    part = _part("bytes")
    if part.available() and not part.loaded():
        part.compile_in_background()  # (nothing when its machine code is ready here)


def part_for(engine: Any) -> Any:
    """The part of :data:`ENGINE` that runs ``engine``'s search: the kernel for byte tables
    (pattern databases) or for 64-bit ones (tile tables), as :func:`_tables` lays them out."""
    wide = any(not _is_bytes(table) for table in engine.model.tables)
    return _part("wide" if wide else "bytes")


def warm_for_databases() -> bool:
    """Compile (or load) the part of the engine that searches with pattern databases
    (``lacak sliding pdb build`` does, so that no later solve waits for it).

    :returns: whether it can run here.
    """
    return _part("bytes").load() is not None


def _part(name: str) -> Any:
    """The engine's part ``name`` (a key of the kernel module's ``PARTS``)."""
    return ENGINE.part_of(name, seconds=PART_SECONDS)


def _is_bytes(table: Any) -> bool:
    if isinstance(table, (bytes, bytearray, memoryview)):
        return True
    return isinstance(table, np.ndarray) and table.dtype == np.uint8


def upgrade(engine: Any, tally: Tally, *, eager: bool = False) -> Any:
    """The engine for the next iteration: ``engine``, or the compiled engine taking over
    from it (see the module documentation). In ``auto``, gives the generated search a
    :class:`_Timer` that hands over to the compiled engine in the middle of an iteration;
    with ``eager``, loads the compiled engine now when its machine code is ready on this
    machine: a split search's task is one piece of a long search, however short it is
    itself (:func:`compile_for_split` makes it ready when the search proves long).

    :raises InvalidOptionError: ``LACAK_TILES_ENGINE`` names no engine, or asks for the
        compiled one where it cannot run.
    """
    forced = forced_engine()  # checked whatever the heuristic, so a typo never goes unseen
    if not _serves(engine):
        return engine
    if forced == "python":
        return engine
    compiled = part_for(engine)
    if forced == "numba":
        # a first compile the time limit cannot cover is not started: Python, told once
        kernel = compiled.require_by(
            engine.search.deadline, f"{ENGINE_VARIABLE}=numba", instead="the Python engine"
        )
        return engine if kernel is None else _Compiled(engine, kernel)
    if not compiled.available():
        return engine
    if compiled.loaded() or (eager and compiled.ready()):  # little or nothing left to pay
        kernel = compiled.load(compile=False)
        return engine if kernel is None else _Compiled(engine, kernel)
    if engine.search.handover is None:
        # (a split search's task compiles in its worker as before: the caller makes the
        # engine ready for them, compile_for_split, and a pool of workers each starting
        # a compile of its own would only crowd the cores)
        engine.search.handover = _Timer(engine.search, compiled, background=not eager)
    return engine


def compile_for_split(engine: Any) -> None:
    """Load (compiling it once for this machine if need be) the compiled engine for a
    split search that has run :data:`COMPILE_AFTER` seconds: its tasks then load it
    (:func:`upgrade` with ``eager``), however short each is. Nothing when the engine
    would not serve ``engine`` or ``LACAK_TILES_ENGINE`` says ``python``; a time limit
    nearer than :data:`COMPILE_ROOM` seconds keeps a compile from starting."""
    if forced_engine() == "python" or not _serves(engine):
        return
    compiled = part_for(engine)
    if compiled.loaded() or not compiled.available():
        return
    ready = compiled.ready()
    if _room(engine.search, ready, engine.search.clock()):
        compiled.load(compile=not ready)  # (ready: loads only, so a room to load is enough)


def _serves(engine: Any) -> bool:
    """Whether the compiled kernel can run ``engine``'s search: a generated engine whose
    heuristic is admissible (see "What is weak" in the docs) and whose tables it reads."""
    return (
        isinstance(engine, Generated)
        and engine.search.heuristic.admissible
        and _compilable(engine.model)
    )


def _room(search: Search, ready: bool, now: float) -> bool:
    """Whether ``search``'s time limit leaves room at ``now`` to load the compiled engine
    (``ready``: its machine code is on this machine) or else to compile it."""
    room = LOAD_ROOM if ready else COMPILE_ROOM
    return search.deadline is None or search.deadline - now >= room


def take_over(engine: Any, bound: float, tally: Tally, cells: list[int]) -> tuple[Any, Step]:
    """The compiled engine, going on with the iteration of ``bound`` from the node the
    generated search stopped at (``cells``: the blank's cells from the root), and how
    that iteration ended."""
    compiled = _Compiled(engine, part_for(engine).require())
    return compiled, compiled.iterate(bound, tally, resume=cells)


class _Timer:
    """Whether the compiled engine takes over now: after :data:`LOAD_AFTER` seconds of
    search when its machine code is ready on this machine. When it is not, its first
    compile starts then in a process of its own while this search goes on in Python,
    and the compiled engine takes over once the machine code is there (a search that
    ends first never waits for it); when that cannot be (no usable cache folder, the
    process failed), it is compiled here after :data:`COMPILE_AFTER` seconds (and no
    time limit is near). Loads (or compiles) it before saying yes."""

    def __init__(self, search: Search, engine: Any, *, background: bool = True) -> None:
        self.search = search
        self.engine = engine
        self.ready: bool | None = None
        self.background = background
        self.failed = False

    def __call__(self) -> bool:
        now = time.perf_counter()
        elapsed = now - self.search.started
        if elapsed < LOAD_AFTER or self.failed:
            return False
        engine = self.engine
        if self.ready is None:
            self.ready = engine.ready()
        if not self.ready and self.background:
            state = engine.compile_in_background()
            if state == "running":
                return False
            self.ready = state == "ready"
            self.background = self.ready  # (failed: compiled here, by the rule below)
        if not _room(self.search, self.ready, self.search.clock()):
            return False
        if not self.ready and elapsed < COMPILE_AFTER:
            return False
        if engine.load(compile=not self.ready) is None:  # ready: a load only, never a compile
            if self.ready and engine.available():  # its machine code was damaged or gone
                self.ready = self.background = False  # (then compiled here, in time)
            else:
                self.failed = True
            return False
        return True


def _compilable(model: AdditiveModel) -> bool:
    """Whether the kernel reads these tables: integral values in ``bytes`` (pattern
    databases), integer numpy arrays or lists of ``int`` that fit in 62 bits (tile
    tables). Decided once per model."""
    known = getattr(model, "_compilable", None)
    if known is None:
        known = model.integral and all(map(_readable, model.tables))
        setattr(model, "_compilable", known)  # noqa: B010 - a note kept on the model
    return bool(known)


def _readable(table: Any) -> bool:
    if isinstance(table, (bytes, bytearray, memoryview)):
        return True
    if isinstance(table, np.ndarray):
        return table.ndim == 1 and (
            table.dtype.kind == "i" or (table.dtype.kind == "u" and table.dtype.itemsize < 8)
        )
    limit = 1 << 62
    return isinstance(table, list) and all(type(v) is int and -limit < v < limit for v in table)


#: The last tables put together, and the result (a search after another with the same
#: pattern databases, as in a batch, reuses it).
_last: list[tuple[list[Any], Any, Any]] = []


def _tables(model: AdditiveModel) -> tuple[Any, Any]:
    """All tables in one array (bytes when every table is, else 64-bit integers), and
    each table's offset in it."""
    if (
        _last
        and len(_last[0][0]) == len(model.tables)
        and all(a is b for a, b in zip(_last[0][0], model.tables, strict=True))
    ):
        return _last[0][1], _last[0][2]
    arrays = []
    for table in model.tables:
        if isinstance(table, (bytes, bytearray, memoryview)):
            arrays.append(np.frombuffer(table, dtype=np.uint8))
        else:
            arrays.append(np.asarray(table))
    dtype = np.uint8 if all(a.dtype == np.uint8 for a in arrays) else np.int64
    sizes = [a.size for a in arrays]
    off = np.zeros(len(arrays), dtype=np.int64)
    off[1:] = np.cumsum(sizes[:-1])
    with lacak.memory_guard(
        f"the lookup tables of idastar-tiles's compiled engine ({sum(sizes):,} entries)",
        "use a partition of smaller groups, or LACAK_TILES_ENGINE=python",
    ):
        tab = np.concatenate([a.astype(dtype, copy=False) for a in arrays])
    _last[:] = [(list(model.tables), tab, off)]
    return tab, off


class _Compiled:
    """IDA* iterations run by the compiled kernel, on the model of a :class:`Generated`
    engine (its starting indexes and estimates too)."""

    def __init__(self, generated: Generated, kernel: Any) -> None:
        self.search: Search = generated.search
        self.kernel = kernel
        self.generated = generated
        model = generated.model
        search = self.search
        width, n = search.width, search.width * search.height
        self.reflect = model.mirror is not None
        i8 = np.int64
        nbr = np.full((n, 4), -1, dtype=i8)
        mdir = np.zeros((n, 4), dtype=i8)
        spread = max(1, width - 1)
        nb = np.zeros((n, 4), dtype=i8)
        btw = np.zeros((n, 4, spread), dtype=i8)
        nrb = np.zeros((n, 4), dtype=i8)
        rbtw = np.zeros((n, 4, spread), dtype=i8)
        direction = {width: 0, -width: 1, 1: 2, -1: 3}  # the tile's move: S, N, E, W
        mirror = model.mirror[0] if model.mirror is not None else ()
        for z, options in enumerate(search.nbrs):
            for i, (_action, nz) in enumerate(options):
                nbr[z, i] = nz
                mdir[z, i] = direction[z - nz]
                if model.ranked:
                    cells = between(nz, z, width)
                    nb[z, i] = len(cells)
                    btw[z, i, : len(cells)] = cells
                    if self.reflect:
                        rcells = [mirror[c] for c in between(mirror[nz], mirror[z], width)]
                        nrb[z, i] = len(rcells)
                        rbtw[z, i, : len(rcells)] = rcells
        grp = np.zeros(n, dtype=i8)
        rgrp = np.zeros(n, dtype=i8)
        dlt = np.zeros((4, n), dtype=i8)
        rdlt = np.zeros((4, n), dtype=i8)
        # crossing terms only for rank-indexed tables (a 32x32 board would need 64 MB)
        tiles = n if model.ranked else 1
        cross = np.zeros((4, n, tiles), dtype=i8)
        rcross = np.zeros((4, n, tiles), dtype=i8)
        moves = move_tables(model, width)
        for d, name in enumerate(("IS", "IN", "IE", "IW")):
            vertical = d < 2
            for t, row in enumerate(moves[name]):
                grp[t], dlt[d, t] = row[0], row[2]
                rest = 3
                if model.ranked and vertical:
                    cross[d, t] = row[3]
                    rest = 4
                if self.reflect:
                    rgrp[t], rdlt[d, t] = row[rest], row[rest + 2]
                    if len(row) > rest + 3:
                        rcross[d, t] = row[rest + 3]
        self.tab, self.off = _tables(model)
        self.geometry = (nbr, mdir, nb, btw, nrb, rbtw, grp, dlt, cross, rgrp, rdlt, rcross)
        self.floor = math.floor(lowest(model))

    def first_bound(self) -> float:
        return self.generated.first_bound()

    def fits(self, bound: float) -> bool:
        return True

    def fallback(self) -> _Compiled:
        return self

    def iterate(self, bound: float, tally: Tally, resume: list[int] | None = None) -> Step:
        """Search one iteration of ``bound``; with ``resume``, go on from the node at the
        end of that path of blank cells (generated, counted, not yet expanded)."""
        search, kernel, generated = self.search, self.kernel, self.generated
        i8 = np.int64
        # the path is at most bound - floor moves long, but a bound in heuristic units
        # can be huge (weights of a million): start small, grow when the kernel says so
        size = min(int(bound) - self.floor + 2, STACK) + len(resume or ())
        stack = [np.zeros(size, dtype=i8) for _ in range(7)]
        sz, _si, sh, sk = stack[:4]
        sz[0] = search.start.index(0)
        sh[0] = generated.h0
        sk[0] = generated.k0
        board = np.array(search.start, dtype=i8)
        goal = np.array(search.goal, dtype=i8)
        gi = np.array(generated.gi0 or [0], dtype=i8)
        ri = np.array(generated.ri0 or [0], dtype=i8)
        counts = np.array([tally.expanded, tally.generated, -1], dtype=i8)
        never = 1 << 62
        max_expanded = never if search.max_expanded is None else search.max_expanded
        if resume is not None and len(resume) > 1:
            top = self._replay(resume, board, gi, ri, stack)
            # the node the generated search stopped at is expanded here
            if tally.expanded >= max_expanded:
                return Step(stopped=StopReason.NODES, depth=int(bound))
            tally.expanded += 1
            counts[0] = tally.expanded
            if sh[top] == 0 and board.tolist() == search.goal:
                return Step(found=list(resume[1:]))
            counts[2] = top
        deadline, watch, clock = search.deadline, search.watch, search.clock
        try:
            while True:
                # slices even when nothing is timed: Ctrl-C is seen between two
                pause_at = counts[0] + SLICE
                status = kernel.iterate(
                    *self.geometry, self.tab, self.off, board, goal, gi, ri, *stack, counts,
                    int(bound), self.reflect, max_expanded, pause_at, search.prev,
                )  # fmt: skip
                if status == kernel.FULL:
                    stack = [np.concatenate([a, np.zeros_like(a)]) for a in stack]
                    sz = stack[0]
                    continue
                if status != kernel.PAUSED:
                    break
                if deadline is not None and clock() >= deadline:
                    return Step(stopped=StopReason.TIME, depth=int(bound))
                if watch.on:
                    watch(int(counts[0]))
        finally:
            tally.expanded, tally.generated = int(counts[0]), int(counts[1])
        if status == kernel.FOUND:
            return Step(found=sz[1 : int(counts[2]) + 1].tolist())
        if status == kernel.NODES:
            return Step(stopped=StopReason.NODES, depth=int(bound))
        return Step(next_bound=bound + 2)

    def _replay(self, cells: list[int], board: Any, gi: Any, ri: Any, stack: list[Any]) -> int:
        """Put the kernel's stack in the state of the path ``cells`` (blank cells from the
        root), each level's next child the one after the path's; returns the top level."""
        sz, si, sh, sk, smv, so, sro = stack
        nbr, mdir, nb, btw, nrb, rbtw, grp, dlt, cross, rgrp, rdlt, rcross = self.geometry
        tab, off = self.tab, self.off
        for level in range(1, len(cells)):
            z, nz = cells[level - 1], cells[level]
            i = nbr[z].tolist().index(nz)
            si[level - 1] = i + 1
            t, d = int(board[nz]), int(mdir[z, i])
            g = int(grp[t])
            o = int(gi[g])
            w = o + int(dlt[d, t]) + sum(int(cross[d, t, board[c]]) for c in btw[z, i, : nb[z, i]])
            sh[level] = sh[level - 1] - int(tab[off[g] + o]) + int(tab[off[g] + w])
            so[level] = o
            gi[g] = w
            if self.reflect:
                rg = int(rgrp[t])
                ro = int(ri[rg])
                rw = ro + int(rdlt[d, t])
                rw += sum(int(rcross[d, t, board[c]]) for c in rbtw[z, i, : nrb[z, i]])
                sk[level] = sk[level - 1] - int(tab[off[rg] + ro]) + int(tab[off[rg] + rw])
                sro[level] = ro
                ri[rg] = rw
            board[z], board[nz] = t, 0
            sz[level], si[level], smv[level] = nz, 0, t
        return len(cells) - 1
