"""Immutable results of a search."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import attrs

from .errors import LimitReachedError, UnsolvableError
from .limits import StopReason
from .output import plural

if TYPE_CHECKING:
    from .trace import SearchTrace

__all__ = ["SearchResult", "SearchStats"]

_Result = TypeVar("_Result", bound="SearchResult")

#: The keys every result's JSON has, in order (see :meth:`SearchResult.to_dict`).
COMMON_KEYS = (
    "kind",
    "strategy",
    "heuristic",
    "found",
    "stopped",
    "length",
    "cost",
    "actions",
    "states",
    "stats",
)


def _as_tuple(items: Iterable[Any]) -> tuple[Any, ...]:
    return tuple(items)


@attrs.frozen(kw_only=True)
class SearchStats:
    """What a search did, counted honestly."""

    #: Nodes expanded: tested for the goal and, unless one, given children.
    expanded: int = 0
    #: Nodes generated: children created (pruned duplicates not included).
    generated: int = 0
    #: Largest size the frontier (open list, or recursion stack) reached.
    max_frontier: int = 0
    #: Deepest level of the search tree that was reached.
    depth: int = 0
    #: Wall-clock seconds the search took.
    seconds: float = 0.0
    #: Iterations of an iterative-deepening search (1 for others).
    iterations: int = 1

    def to_dict(self) -> dict[str, Any]:
        """The stats as a plain ``dict`` (``seconds`` rounded to the microsecond)."""
        data = attrs.asdict(self)
        data["seconds"] = round(self.seconds, 6)
        return data


def plain(value: Any) -> Any:
    """``value`` as JSON data: scalars as they are, tuples and lists as lists (nested),
    numpy scalars as Python numbers, anything else as its ``str``.

    >>> plain((("R", 1), 2.5, None))
    [['R', 1], 2.5, None]
    """
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (tuple, list)):
        return [plain(item) for item in value]
    item = getattr(value, "item", None)
    if callable(item) and type(value).__module__ == "numpy":
        return item()
    return str(value)


@attrs.frozen(kw_only=True)
class SearchResult:
    """The outcome of one search.

    ``states`` holds every state along the path, starting with the initial
    state, so ``len(states) == len(actions) + 1`` when a goal was found. When
    no goal was found, ``actions`` and ``states`` are empty except for the
    initial state, and ``stopped`` says why.
    """

    #: Whether a goal state was reached.
    found: bool
    #: The actions from the initial state to the goal.
    actions: tuple[Any, ...] = attrs.field(default=(), converter=_as_tuple)
    #: The states along the path, initial state first.
    states: tuple[Any, ...] = attrs.field(default=(), converter=_as_tuple)
    #: The sum of the step costs along the path.
    cost: float = 0.0
    #: Why the search stopped.
    stopped: StopReason = StopReason.EXHAUSTED
    #: Counters and timing.
    stats: SearchStats = attrs.field(factory=SearchStats)
    #: The name of the strategy that searched.
    strategy: str = ""
    #: The kind of puzzle searched (``"sliding"``, ``"maze"``, ...); filled in from the
    #: puzzle when a :class:`~lacak.Searcher` is called.
    kind: str = ""
    #: The name of the heuristic used, or ``None``.
    heuristic: str | None = None
    #: The recorded search tree, when tracing was asked for.
    trace: SearchTrace | None = attrs.field(default=None, eq=False, repr=False)

    @property
    def length(self) -> int:
        """Number of actions on the path."""
        return len(self.actions)

    @property
    def goal(self) -> Hashable | None:
        """The goal state reached, or ``None``."""
        return self.states[-1] if self.found and self.states else None

    def to_dict(self, puzzle: Any = None, *, registry: Any = None) -> dict[str, Any]:
        """The documented JSON form of a result: one shape for every kind of puzzle.

        ``kind``, ``strategy``, ``heuristic``, ``found``, ``stopped``, ``length``
        and ``cost`` (``null`` when nothing was found), ``actions`` (a list),
        ``states`` (in the kind's own notation when ``puzzle`` is given, see
        :func:`~lacak.describe_state`), and ``stats`` (``expanded``,
        ``generated``, ``max_frontier``, ``depth``, ``seconds``,
        ``iterations``). With ``puzzle``, the kind adds its own keys under one
        named key (a maze's cell path under ``"maze"``) through its
        :attr:`PuzzleType.extras <lacak.PuzzleType.extras>`; the common keys
        never change. The schema is ``docs/result.schema.json``.

        :param puzzle: the puzzle that was searched (for its notation and extras).
        :param registry: where the kind's :class:`~lacak.PuzzleType` is looked up
            (default: the process-wide registry).

        >>> result = SearchResult.from_states(["a", "b"], ["R"], strategy="bfs", kind="demo")
        >>> data = result.to_dict()
        >>> data["kind"], data["actions"], data["states"], data["length"], data["stopped"]
        ('demo', ['R'], ['a', 'b'], 1, 'goal')
        """
        from .interfaces import describe_state

        if puzzle is not None:
            states = [describe_state(puzzle, state) for state in self.states]
        else:
            states = [plain(state) for state in self.states]
        data: dict[str, Any] = {
            "kind": self.kind or getattr(puzzle, "kind", "") or "",
            "strategy": self.strategy,
            "heuristic": self.heuristic,
            "found": self.found,
            "stopped": str(self.stopped),
            "length": self.length if self.found else None,
            "cost": self.cost if self.found else None,
            "actions": plain(self.actions),
            "states": states,
            "stats": self.stats.to_dict(),
        }
        if puzzle is not None:
            data.update(self._extras(puzzle, registry))
        return data

    def _extras(self, puzzle: Any, registry: Any) -> dict[str, Any]:
        """The kind's own keys (its :attr:`~lacak.PuzzleType.extras`), checked."""
        from .errors import PluginError
        from .plugin.registry import default_registry

        kind = getattr(puzzle, "kind", None)
        types = (registry if registry is not None else default_registry()).puzzle_types()
        kind_type = types.get(kind) if isinstance(kind, str) else None
        if kind_type is None or kind_type.extras is None:
            return {}
        extras = dict(kind_type.extras(puzzle, self))
        clash = sorted(set(extras) & set(COMMON_KEYS))
        if clash:
            raise PluginError(
                f"puzzle kind {kind!r} puts {', '.join(map(repr, clash))} in a result's JSON, "
                "which are common keys; a kind adds its own under a key of its own"
            )
        return extras

    def check(self) -> SearchResult:
        """Return ``self`` when a goal was found, else raise.

        :raises LimitReachedError: a limit stopped the search.
        :raises UnsolvableError: the search space holds no goal.
        """
        if self.found:
            return self
        if self.stopped.is_limit:
            raise LimitReachedError(
                f"{self.strategy or 'search'} stopped at the {self.stopped} after "
                f"{self.stats.expanded} expanded nodes without reaching the goal"
            )
        raise UnsolvableError(f"{self.strategy or 'search'} found no path to the goal")

    @classmethod
    def finished(
        cls: type[_Result],
        initial: Hashable,
        stopped: StopReason,
        *,
        states: Iterable[Hashable] | None = None,
        actions: Iterable[Hashable] = (),
        cost: float | None = None,
        expanded: int = 0,
        generated: int = 0,
        max_frontier: int = 0,
        depth: int = 0,
        iterations: int = 1,
        seconds: float | None = None,
        budget: Any = None,
        heuristic: Any = None,
        **fields: Any,
    ) -> _Result:
        """The result of a search that ended, from what a searcher has at hand.

        The one result builder every searcher uses: found when ``states`` (the
        path, initial state first) is given, else stopped for ``stopped``;
        the counters become :class:`SearchStats`, the time is ``seconds`` or
        the ``budget``'s elapsed time, and a :class:`~lacak.Heuristic` is
        recorded by its ``spec``.

        :param stopped: why the search ended (``GOAL`` when ``states`` is given).
        :param fields: the other fields (``strategy``, ``trace``; a subclass's own).

        >>> result = SearchResult.finished("a", StopReason.GOAL, states="abc", actions="RD",
        ...                                expanded=3, strategy="mine")
        >>> result.found, result.length, result.stats.expanded
        (True, 2, 3)
        """
        if seconds is None:
            seconds = budget.elapsed() if budget is not None else 0.0
        stats = SearchStats(
            expanded=expanded,
            generated=generated,
            max_frontier=max_frontier,
            depth=depth,
            seconds=seconds,
            iterations=iterations,
        )
        label = getattr(heuristic, "spec", heuristic)
        if states is not None:
            return cls.from_states(
                states, actions, cost=cost, stats=stats, heuristic=label, **fields
            )
        return cls.not_found(initial, stopped, stats=stats, heuristic=label, **fields)

    @classmethod
    def from_path(
        cls: type[_Result],
        path: Sequence[tuple[Hashable, Hashable, float]],
        initial: Hashable,
        **fields: Any,
    ) -> _Result:
        """Build a found result from ``(action, state, step_cost)`` triples.

        >>> SearchResult.from_path([("R", "b", 2.0), ("D", "c", 1.0)], "a").cost
        3.0
        """
        return cls(
            found=True,
            actions=tuple(a for a, _, _ in path),
            states=(initial, *(s for _, s, _ in path)),
            cost=float(sum(c for _, _, c in path)),
            stopped=StopReason.GOAL,
            **fields,
        )

    @classmethod
    def from_states(
        cls: type[_Result],
        states: Iterable[Hashable],
        actions: Iterable[Hashable],
        *,
        cost: float | None = None,
        **fields: Any,
    ) -> _Result:
        """Build a found result from the states along the path and the actions between them.

        :param states: every state on the path, the initial state first and
            the goal last.
        :param actions: the actions from each state to the next, one fewer
            than the states.
        :param cost: the cost of the path; by default one per action (the
            unit step costs of sliding puzzles and mazes).
        :param fields: the other fields (``stats``, ``strategy``,
            ``heuristic``, ``trace``; a subclass's own fields too).
        :returns: a result with ``found=True`` and ``stopped=StopReason.GOAL``.
        :raises ValueError: the number of states is not the number of actions plus one.

        >>> result = SearchResult.from_states(["a", "b", "c"], ["R", "D"], strategy="mine")
        >>> result.found, result.goal, result.cost, str(result.stopped)
        (True, 'c', 2.0, 'goal')
        """
        states = tuple(states)
        actions = tuple(actions)
        if len(states) != len(actions) + 1:
            raise ValueError(
                f"a path of {plural(len(actions), 'action')} has "
                f"{plural(len(actions) + 1, 'state')}, not {len(states)}"
            )
        return cls(
            found=True,
            actions=actions,
            states=states,
            cost=float(len(actions) if cost is None else cost),
            stopped=StopReason.GOAL,
            **fields,
        )

    @classmethod
    def not_found(
        cls: type[_Result], initial: Hashable, stopped: StopReason, **fields: Any
    ) -> _Result:
        """Build the result of a search that stopped without reaching a goal.

        :param initial: the puzzle's initial state, the only entry of ``states``.
        :param stopped: why the search stopped: ``StopReason.EXHAUSTED`` or a limit.
        :param fields: the other fields (``stats``, ``strategy``,
            ``heuristic``, ``trace``; a subclass's own fields too).
        :returns: a result with ``found=False``, no actions and zero cost.
        :raises ValueError: ``stopped`` is ``StopReason.GOAL``.

        >>> result = SearchResult.not_found("a", StopReason.NODES, strategy="mine")
        >>> result.found, result.states, str(result.stopped)
        (False, ('a',), 'node-limit')
        """
        if stopped is StopReason.GOAL:
            raise ValueError("not_found() is for searches that stopped without a goal")
        return cls(found=False, states=(initial,), stopped=stopped, **fields)
