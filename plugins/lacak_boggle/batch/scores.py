"""Scoring many boards at once: :func:`score_many`, numpy arrays for statistics."""

from __future__ import annotations

import concurrent.futures
import itertools
from collections.abc import Iterable, Sequence
from typing import Any

import attrs
import lacak
import lacak.batch
from lacak.batch import Outcome
from lacak.output import plural

from .._gc import quiet_gc
from ..board import Board
from ..results import BoggleResult
from ..solver import DictionaryLike
from .arrays import SCORES, WORDS
from .plan import (
    _cap,
    _check_limits,
    _check_options,
    _plain_groups,
    _prepare,
    _solve_here,
    _walk_plan,
)

__all__ = ["BoggleScores", "score_many"]


def _stopped(index: int, result: BoggleResult) -> lacak.LimitReachedError:
    """The error of a board of :func:`score_many` that a limit stopped: it has no scores."""
    why = {
        lacak.StopReason.TIME: "the time limit",
        lacak.StopReason.NODES: "the node limit",
        lacak.StopReason.DEPTH: "the depth limit",
    }.get(result.stopped, "a limit")
    return lacak.LimitReachedError(
        f"board {index}: {why} was reached after {plural(result.count, 'word')} found "
        f"({plural(result.score, 'point')})"
    )


@attrs.frozen(eq=False)
class BoggleScores:
    """What :func:`score_many` found: per board of the batch, in order, numpy arrays
    (and, when asked for, the words: :meth:`words`, :meth:`word_lists`).

    A board that has no scores (it does not parse, its job failed, its worker
    died) holds ``-1`` in every array, and :attr:`errors` says why; check
    :attr:`ok` (or call :meth:`unwrap`) before averaging.
    """

    #: The dictionary's name.
    dictionary: str
    #: Words found on each board (``int64``).
    count: Any
    #: Their official points together (``int64``).
    score: Any
    #: The shortest word length that counted on each board (``int64``).
    min_length: Any
    #: Nodes the walk expanded, generated, and the longest path it made (``int64``),
    #: as :attr:`lacak.SearchStats.expanded`, ``generated`` and ``depth`` count them.
    expanded: Any
    generated: Any
    depth: Any
    #: Board index -> why that board has no scores (as :attr:`lacak.batch.Outcome.error`).
    errors: dict[int, BaseException] = attrs.field(factory=dict, repr=False)
    #: The engine that walked the boards (the array engines; the Python walk for
    #: boards they cannot take).
    engine: str = ""
    #: With ``words=True``: every board's words by rank (index in the dictionary's
    #: word list), board after board, and where each board's start (``len + 1``).
    ranks: Any = attrs.field(default=None, repr=False)
    offsets: Any = attrs.field(default=None, repr=False)
    #: The dictionary's words (rank -> word) as a numpy object array.
    vocabulary: Any = attrs.field(default=None, repr=False)

    def __len__(self) -> int:
        return len(self.count)

    def words(self, board: int) -> tuple[str, ...]:
        """The words found on board ``board`` (its index in the batch), alphabetical.

        :raises InvalidOptionError: the words were not asked for (``words=True``).
        :raises BaseException: that board's error, when it has no words.
        """
        self._check_words()
        if board in self.errors:
            raise self.errors[board]
        lo, hi = self.offsets[board], self.offsets[board + 1]
        return tuple(self.vocabulary[self.ranks[lo:hi]].tolist())

    def word_lists(self) -> list[list[str] | None]:
        """Every board's words, alphabetical (``None`` for a board in :attr:`errors`).

        :raises InvalidOptionError: the words were not asked for (``words=True``).
        """
        self._check_words()
        # one object array of every word found, then a list per board: faster than one
        # long list cut in slices (each word's reference is copied once, not twice)
        spelled = self.vocabulary.take(self.ranks)
        bounds = self.offsets.tolist()
        with quiet_gc():  # a list a board: collections would rescan every live container
            out: list[list[str] | None] = [
                spelled[a:b].tolist() for a, b in itertools.pairwise(bounds)
            ]
        for board in self.errors:
            out[board] = None
        return out

    def _check_words(self) -> None:
        if self.ranks is None:
            raise lacak.InvalidOptionError(
                "score_many kept no words; ask for them with score_many(..., words=True)"
            )

    @property
    def ok(self) -> Any:
        """Per board, whether it has scores (a boolean array)."""
        return self.count >= 0

    def unwrap(self) -> BoggleScores:
        """``self`` when every board has scores.

        :raises BaseException: the first failed board's error.
        """
        if self.errors:
            raise self.errors[min(self.errors)]
        return self


def score_many(
    boards: Iterable[Board | str | Sequence[Sequence[str]]],
    dictionary: DictionaryLike = None,
    *,
    min_length: int | None = None,
    engine: str = "auto",
    workers: int | None = 1,
    executor: concurrent.futures.Executor | None = None,
    registry: lacak.Registry | None = None,
    words: bool = False,
    limits: lacak.Limits | None = None,
) -> BoggleScores:
    """The number of words and the points of many boards, for statistics: what
    :func:`solve_many` finds, in arrays, without a result object per board (and
    without the words themselves unless ``words=True``).

    Boards given as text in the plainest form (capital letters ``A``-``Z`` or
    ``#``, one a tile, rows split by ``/``: ``"CATS/DOGE/..."``) are read
    straight into the engines, without :class:`Board` objects; other boards
    and forms are parsed as :func:`solve_many` parses them. Options as for
    :func:`solve_many`; a board that reaches one of its ``limits`` has no scores
    (they would be a part of its words'), and its error is a
    :class:`~lacak.LimitReachedError` that says how far it got.

    :param words: also keep each board's words (:meth:`BoggleScores.words`,
        :meth:`BoggleScores.word_lists`); their paths are never made (solve a
        board with :func:`~lacak_boggle.solve_board` for those).
    :returns: per board, in order: words, points, the minimum length that
        counted and the node counts (the same as :func:`solve_many`'s
        results have); boards with none are in :attr:`BoggleScores.errors`.
    :raises InvalidOptionError: an unknown engine, ``"numba"`` where the
        compiled walk cannot run, or a bad number of workers.

    >>> import lacak
    >>> tiny = lacak.Dictionary(name="tiny", language="en", words=["CAT", "ACT", "TAX"], alphabet="ACQTXY")
    >>> scores = score_many(["CAT/XQY", "ACT/QXY", "CA/T"], tiny)
    >>> scores.count.tolist(), scores.score.tolist(), scores.ok.tolist()
    ([2, 1, -1], [2, 1, -1], [True, True, False])
    >>> scores.errors[2]
    InvalidPuzzleError('board 2: ragged board: row 1 has 1 tile but row 0 has 2')
    >>> score_many(["CAT/XQY", "ACT/QXY"], tiny, words=True).word_lists()
    [['CAT', 'TAX'], ['ACT']]
    """
    import numpy as np  # (deferred: the package is imported by the plugin's commands without numpy)

    _check_options(workers, min_length, engine)
    limits = _check_limits(limits)
    items = list(boards)
    dictionary_, plan = _prepare(dictionary, registry, limits)
    cap = _cap(limits)
    texts = [(i, b) for i, b in enumerate(items) if type(b) is str and cap >= 0]
    rest = set() if not texts else {i for i, _ in _plain_groups(plan, texts, min_length)}
    parsed: dict[int, Board] = {}
    for i, item in enumerate(items):
        if type(item) is str and i not in rest:
            continue
        if isinstance(item, Board):  # (as Board.parse gives it, without the call)
            parsed[i] = item
            continue
        try:
            board = Board.parse(item)
        except lacak.InvalidPuzzleError as error:
            plan.failed[i] = lacak.InvalidPuzzleError(f"board {i}: {error}")
            continue
        parsed[i] = board
    plan.add(parsed.items(), min_length, cap < 0)
    total = len(items)
    out = {name: np.full(total, -1, dtype=np.int64)
           for name in ("count", "score", "least", "expanded", "generated", "depth")}  # fmt: skip
    errors: dict[int, BaseException] = dict(plan.failed)
    found: list[tuple[Any, Any, Any]] = []  # (boards, their word counts, their ranks)

    def alone(i: int) -> None:
        """Board ``i`` by the Python walk here, under the limits, into the arrays."""
        board = parsed[i] if i in parsed else Board.parse(items[i])
        record = _solve_here(i, board, dictionary_, min_length, False, limits)
        result = record.value
        if result is not None and result.stopped.is_limit:
            record = Outcome(i, error=_stopped(i, result))
        if record.error is not None:
            errors[i] = record.error
            return
        result = record.unwrap()
        if words:
            ranked = [plan.graph.rank(word) for word in result.word_list]
            found.append(([i], [len(ranked)], np.array(ranked, dtype=np.int64)))
        for name, value in (("count", result.count), ("score", result.score),
                            ("least", result.min_length), ("expanded", result.stats.expanded),
                            ("generated", result.stats.generated),
                            ("depth", result.stats.depth)):  # fmt: skip
            out[name][i] = value

    for i in plan.alone:
        alone(i)
    engines = set()
    mode = WORDS if words else SCORES
    for done in _walk_plan(plan, engine, workers, executor, mode, max(cap, 0), limits.seconds):
        if done.error is not None:
            for i in done.members:
                errors[i] = done.error.error  # type: ignore[assignment]
            continue
        assert done.found is not None
        at = 0
        for pack in done.found:
            chunk = np.array(done.members[at : at + pack.boards], dtype=np.int64)
            out["count"][chunk] = pack.count
            out["score"][chunk] = pack.score
            out["least"][chunk] = done.least
            out["expanded"][chunk] = pack.expanded
            out["generated"][chunk] = pack.generated
            out["depth"][chunk] = pack.deepest
            over = pack.over
            if words and over is not None and over.any():  # their words are found again
                others = ~over[pack.board]
                found.append((chunk, np.where(over, 0, pack.count), pack.rank[others]))
            elif words:
                found.append((chunk, pack.count, pack.rank))
            if over is not None:
                for i in chunk[over].tolist():
                    for values in out.values():
                        values[i] = -1
                    alone(i)
            engines.add(pack.engine)
            at += pack.boards
    kept: dict[str, Any] = {}
    if words:
        sizes = np.zeros(total, dtype=np.int64)
        for boards_, counts, _ in found:
            sizes[boards_] = counts
        offsets = np.zeros(total + 1, dtype=np.int64)
        np.cumsum(sizes, out=offsets[1:])
        ranks = np.empty(int(offsets[-1]), dtype=np.int64)
        if (
            len(found) == 1
            and len(found[0][2]) == len(ranks)
            and bool(np.all(np.diff(np.asarray(found[0][0])) > 0))
        ):  # one group, its boards in order: its ranks as they are (a copy: the engine's
            # buffer may be larger)
            ranks = np.array(found[0][2], dtype=np.int64)
            found = []
        for boards_, listed, got in found:
            counts = np.asarray(listed, dtype=np.int64)
            starts = np.repeat(offsets[np.asarray(boards_)] - (np.cumsum(counts) - counts), counts)
            ranks[starts + np.arange(len(got))] = got
        kept = {"ranks": ranks, "offsets": offsets, "vocabulary": plan.graph.word_array()}
    return BoggleScores(
        dictionary=dictionary_.name, count=out["count"], score=out["score"],
        min_length=out["least"], expanded=out["expanded"], generated=out["generated"],
        depth=out["depth"], errors=dict(sorted(errors.items())),
        engine="+".join(sorted(engines)) or "dfs", **kept,
    )  # fmt: skip
