"""The best Boggle board: lacak's local search strategies over boards (``lacak boggle best``).

:func:`best_board` searches for the board of a size with the most points for a
dictionary. It does not climb by itself: it makes the boards a
:class:`~lacak_boggle.space.BoardSpace` (tile changes and swaps, symmetric
boards folded, scores from the compiled batch scorer) and runs a local search
strategy of the registry on them through :func:`lacak.solve` (``hill-climbing``
by default; ``simulated-annealing``, ``beam``, ``genetic`` or any other that
climbs a :class:`lacak.Objective`), once per *run*, each run from a new random
board with a seed of its own. What it reports: the best board met, its points
and words, and how many runs ended on it (AIMA's "inverse Boggle"; Vanderkam's
hill climbing found the best known 5x5 board in 9 runs of 50).

Bounds: ``seconds`` (wall-clock) and ``evaluations`` (boards scored, each
board once: what tests bound the work by, so that the same seed gives the same
board on every machine), whichever comes first; ``restarts`` bounds the runs;
with none of them, 10 seconds.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

import attrs
import lacak
from lacak.output import plural

from .board import Board
from .space import MAX_TILES, BoardSpace

__all__ = ["UNSCORED", "BestBoard", "BoardSearch", "best_board"]

#: The value of a board a search asks for once its budget is spent: it is not scored,
#: and is worse than any board (``lacak_boggle.best_board`` reports real scores only).
UNSCORED = -1

#: Boards of 16 tiles scored between two looks at the budget (the same for every engine,
#: so that a search bounded by boards scored stops at the same board with each).
_CHUNK = 256

#: Boards a second the compiled walk scores on good 4x4 boards (to guess whether
#: compiling it first pays, :func:`_engine`).
_RATE = 20_000


@attrs.frozen(eq=False)
class BoardSearch:
    """The search for a high-scoring board as a :class:`lacak.Puzzle` of kind ``boggle``:
    its states are boards (:class:`BoardSpace` states), its start a board, a step one
    tile change or swap, and no board a goal (the best score is not known). Local search
    strategies climb its :attr:`objective`; the ``boggle`` kind gives it to them
    (:func:`lacak.objective_of`)."""

    kind: ClassVar[str] = "boggle"

    #: The boards searched.
    space: BoardSpace
    #: The board the search starts at (a state of :attr:`space`).
    initial: bytes
    #: What the search climbs (:meth:`BoardSpace.objective`, or one made from it).
    objective: lacak.Objective = attrs.field(repr=False)

    def is_goal(self, state: bytes) -> bool:
        """No board is a goal: the best score is not known."""
        return False

    def successors(self, state: bytes) -> Iterator[tuple[bytes, bytes, float]]:
        """Each neighbour (:meth:`BoardSpace.neighbours`) as its own action, cost 1."""
        for near in self.space.neighbours(state):
            yield near, near, 1.0

    def format_state(self, state: bytes) -> str:
        """A state's board as text (what ``lacak boggle solve`` reads)."""
        return self.space.text(state)


@attrs.frozen(kw_only=True)
class BestBoard:
    """What :func:`best_board` found."""

    #: The best board met.
    board: Board
    #: Its points (as ``lacak boggle solve`` scores it).
    score: int
    #: Its words, alphabetical.
    words: tuple[str, ...] = attrs.field(repr=False)
    #: The dictionary's name.
    dictionary: str
    #: The shortest word that counted.
    min_length: int
    #: The strategy that searched, and the options it was given.
    strategy: str
    options: Mapping[str, Any] = attrs.field(factory=dict)
    #: The seed of the whole search.
    seed: int
    #: The best score of each run, in order (a run: one search from a random board).
    runs: tuple[int, ...]
    #: How many runs ended on the best board (or one of its mirror images).
    found: int
    #: Boards scored (each once), and scores looked up (remembered ones too).
    evaluations: int
    lookups: int
    #: Wall-clock seconds the search took (scoring the best board's words not counted).
    seconds: float
    #: The engine that scored boards.
    engine: str
    #: Why the search ended: ``"runs"`` (every run made), ``"time"`` or ``"evaluations"``.
    stopped: str

    def to_dict(self) -> dict[str, Any]:
        """JSON data (``lacak boggle best --json``; see docs/boggle.md)."""
        rows, cols = self.board.shape
        return {
            "board": self.board.to_text(),
            "score": self.score,
            "size": f"{rows}x{cols}",
            "rows": self.board.to_rows(),
            "dictionary": self.dictionary,
            "min_length": self.min_length,
            "strategy": self.strategy,
            "options": dict(self.options),
            "seed": self.seed,
            "runs": len(self.runs),
            "found": self.found,
            "run_scores": list(self.runs),
            "evaluations": self.evaluations,
            "lookups": self.lookups,
            "seconds": round(self.seconds, 4),
            "engine": self.engine,
            "stopped": self.stopped,
            "count": len(self.words),
            "words": list(self.words),
        }


def _engine(engine: str, seconds: float | None, evaluations: int | None) -> str:
    """The batch engine that scores the boards: ``engine``, or for ``"auto"`` the one
    :func:`lacak_boggle.engines.engine_for_batch` picks for the boards the search will
    likely score (the compiled walk when it is ready here, or when the search is long
    enough to pay for compiling it first)."""
    from .engines import engine_for_batch

    if evaluations is not None:
        boards = evaluations
    elif seconds is not None:
        boards = int(seconds * _RATE)
    else:
        boards = 1
    deadline = None if seconds is None else lacak.limits.now() + seconds
    return engine_for_batch(engine, max(boards, 1), deadline=deadline)


def _check(value: Any, name: str, *, least: float = 0, whole: bool = True) -> Any:
    if value is None:
        return None
    kinds = (int,) if whole else (int, float)
    if isinstance(value, bool) or not isinstance(value, kinds) or value < least:
        raise lacak.InvalidOptionError(
            f"{name} must be {'a whole number' if whole else 'a number'} of at least "
            f"{least:g}, got {value!r}"
        )
    return value


def best_board(
    size: tuple[int, int] | int | str = (4, 4),
    dictionary: Any = None,
    *,
    strategy: str = "hill-climbing",
    seconds: float | None = None,
    evaluations: int | None = None,
    restarts: int | None = None,
    seed: int = 0,
    min_length: int | None = None,
    alphabet: Sequence[str] | None = None,
    engine: str = "auto",
    registry: lacak.Registry | None = None,
    **options: Any,
) -> BestBoard:
    """Search for the board of ``size`` with the most points for ``dictionary``, with a
    local search strategy of the registry (see the module documentation).

    :param size: ``(rows, cols)``, one number for a square, or ``"ROWSxCOLS"``; at most
        :data:`~lacak_boggle.space.MAX_TILES` tiles.
    :param dictionary: a :class:`lacak.Dictionary`, a registered name or a file
        (default ``eng``).
    :param strategy: a local search strategy's name (``hill-climbing``,
        ``simulated-annealing``, ``beam``, ``genetic``).
    :param seconds: stop after this many seconds (``None``: no time limit, but 10 s
        when neither ``evaluations`` nor ``restarts`` is given).
    :param evaluations: stop once this many boards were scored (each board once; a
        count, so the same seed gives the same board on every machine).
    :param restarts: runs after the first (``None``: runs until a bound is reached).
    :param seed: the seed of the whole search (each run's board and strategy seed are
        drawn from it).
    :param min_length: the shortest word that counts (default: the official rule).
    :param alphabet: the tiles boards are made of (default: the dictionary's letters,
        ``QU`` for ``Q``).
    :param engine: the batch engine that scores boards (``auto``, ``numba``, ``numpy``,
        ``dfs``; :mod:`lacak_boggle.engines`).
    :param options: the strategy's own options (``sideways=100``, ``beam_width=8``, ...).
    :returns: the best board met, its points and words, and how many runs found it.
    :raises InvalidOptionError: a bad size (more than 63 tiles), bound, option or engine.
    :raises UnknownComponentError: an unknown strategy or dictionary.

    .. rubric:: Examples

    >>> found = best_board((3, 3), "eng", evaluations=2_000, seed=1)
    >>> found.score == lacak.solve(found.board, dictionary="eng").score
    True
    """
    from lacak.options import read_size

    from .solver import resolve_dictionary, solve_board
    from .wordgraph import compile_dictionary

    rows, cols = read_size(size, what="board size", most=MAX_TILES, unit="tiles")
    seconds = _check(seconds, "seconds", whole=False)
    evaluations = _check(evaluations, "evaluations", least=1)
    restarts = _check(restarts, "restarts")
    seed = _check(seed, "seed")
    if restarts is None and seconds is None and evaluations is None:
        seconds = 10.0
    reg = registry if registry is not None else lacak.default_registry()
    searcher = reg.searchers()[strategy] if isinstance(strategy, str) else None
    if searcher is None or not getattr(searcher, "objective", False):
        raise lacak.InvalidOptionError(
            f"strategy {strategy!r} is no local search; choose one of "
            f"{', '.join(sorted(n for n, s in reg.searchers().items() if s.objective)) or 'none'}"
        )
    words = resolve_dictionary(dictionary, registry=registry)
    graph = compile_dictionary(words)
    chosen = _engine(engine, seconds, evaluations)
    space = BoardSpace.create((rows, cols), words, graph, min_length=min_length,
                              engine=chosen, alphabet=alphabet)  # fmt: skip
    started = time.perf_counter()

    def used() -> float:
        """The share of the budget used: time or evaluations, whichever is further."""
        share = 0.0
        if seconds is not None:
            share = (time.perf_counter() - started) / seconds if seconds > 0 else 1.0
        if evaluations is not None:
            share = max(share, space.evaluations / evaluations)
        return share

    best_state: bytes | None = None
    best_score = -1
    run_bests: list[tuple[bytes, int]] = []
    draw = random.Random(seed)
    stopped = "runs"
    title = f"searching for the best {rows}x{cols} board"
    with lacak.progress.task(title, total=100) as shown:
        last = [0.0]

        chunk = max(1, _CHUNK * 16 // space.cells)

        def values(states: Sequence[bytes]) -> list[int]:
            """The scores of ``states``, a chunk at a time while the budget lasts; the
            boards past it count as worthless (:data:`UNSCORED`), so that no step runs
            long past the time or the boards allowed."""
            scores: list[int] = []
            for k in range(0, len(states), chunk):
                if used() >= 1.0:
                    scores += [UNSCORED] * (len(states) - k)
                    break
                scores += space.values(states[k : k + chunk])
            at = time.perf_counter()
            if at - last[0] > 0.2:
                last[0] = at
                shown.update(
                    completed=min(used(), 1.0) * 100,
                    description=f"{title}: {plural(max([best_score, *scores]), 'point')}, "
                    f"run {len(run_bests) + 1}, {space.evaluations:,} boards scored",
                )
            return scores

        base = space.objective()
        objective = attrs.evolve(base, value=lambda s: values([s])[0], values=values)
        with lacak.limits.use_clock(used):
            while restarts is None or len(run_bests) <= restarts:
                if run_bests and used() >= 1.0:  # (the first run is always made)
                    stopped = "evaluations" if evaluations is not None and (
                        space.evaluations >= evaluations) else "time"  # fmt: skip
                    break
                run_seed = draw.getrandbits(32)
                start = space.random_state(random.Random(run_seed))
                # the run climbs from this board (the strategies start at Objective.start)
                climbed = attrs.evolve(objective, start=start)
                puzzle = BoardSearch(space, start, climbed)
                limits = lacak.Limits(seconds=max(1.0 - used(), 0.0))
                result = lacak.solve(puzzle, strategy, objective=climbed, limits=limits,
                                     registry=registry, seed=run_seed, **options)  # fmt: skip
                state = getattr(result, "best", None)
                if state is None:
                    break
                score = space.value(state)
                run_bests.append((state, score))
                if score > best_score:
                    best_state, best_score = state, score
    seconds_taken = time.perf_counter() - started
    if best_state is None:
        raise lacak.LimitReachedError("the search ended before it scored a board")
    board = space.board(best_state)
    solved = solve_board(board, words, min_length=space.min_length)
    return BestBoard(
        board=board, score=solved.score, words=tuple(solved.word_list), dictionary=words.name,
        min_length=space.min_length, strategy=strategy, options=options, seed=seed,
        runs=tuple(score for _, score in run_bests),
        found=sum(1 for state, _ in run_bests if state == best_state),
        evaluations=space.evaluations, lookups=space.lookups, seconds=seconds_taken,
        engine=chosen, stopped=stopped,
    )  # fmt: skip
