"""Immutable results of a search."""

from __future__ import annotations

import enum
import warnings
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import attrs

from .errors import LimitReachedError, PluginError, UnsolvableError
from .limits import StopReason
from .output import SHOWN_AT_ENDS, cut_middle, plural

if TYPE_CHECKING:
    from .trace import SearchTrace

__all__ = ["Extras", "LocalSearchResult", "SearchResult", "SearchStats", "describe_state"]

_Result = TypeVar("_Result", bound="SearchResult")

#: A kind's own keys of a result's JSON, as :meth:`SearchResult.to_dict` takes them: the
#: kind's :attr:`PuzzleType.extras <lacak.PuzzleType.extras>` function (called as
#: ``extras(puzzle, result)``) or the mapping it gave.
Extras = Callable[[Any, Any], Mapping[str, Any]] | Mapping[str, Any]

#: Deprecated (for ``to_dict(puzzle)`` without ``extras=``): how a kind's extras are
#: found when the caller hands none, ``find(kind, registry) -> extras function or None``.
#: The plugin host (:mod:`lacak.plugin.registry`) sets it when it is imported: results
#: never import the plugin host.
_find_extras: Callable[[str, Any], Any] | None = None


class _Unset(enum.Enum):
    """``extras`` not given to :meth:`SearchResult.to_dict` (``None`` is "none")."""

    UNSET = "unset"


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


def describe_state(puzzle: Any, state: Hashable) -> str:
    """A short text for ``state``: the puzzle's ``format_state`` if it has one.

    >>> describe_state(object(), (1, 2))
    '(1, 2)'
    """
    formatter = getattr(puzzle, "format_state", None)
    return formatter(state) if callable(formatter) else str(state)


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

    def to_dict(
        self,
        puzzle: Any = None,
        *,
        extras: Extras | _Unset | None = _Unset.UNSET,
        registry: Any = None,
    ) -> dict[str, Any]:
        """The documented JSON form of a result: one shape for every kind of puzzle.

        ``kind``, ``strategy``, ``heuristic``, ``found``, ``stopped``, ``length``
        and ``cost`` (``null`` when nothing was found), ``actions`` (a list),
        ``states`` (in the kind's own notation when ``puzzle`` is given, see
        :func:`~lacak.describe_state`), and ``stats`` (``expanded``,
        ``generated``, ``max_frontier``, ``depth``, ``seconds``,
        ``iterations``). The kind adds its own keys under one named key (a maze's
        cell path under ``"maze"``) through ``extras``, which the caller hands in:
        the kind's :attr:`PuzzleType.extras <lacak.PuzzleType.extras>`;
        :func:`lacak.result_json` does it for you. The common keys never change.
        The schema is ``docs/result.schema.json``.

        :param puzzle: the puzzle that was searched (for its notation and extras).
        :param extras: the kind's own keys: its ``extras(puzzle, result)`` function, or
            the mapping that gave (``None``: none). Not giving it with a ``puzzle`` is
            deprecated: the kind's extras are then looked up in the registry, with a
            :class:`DeprecationWarning` when it has some.
        :param registry: deprecated: where that look-up goes (default: the process-wide
            registry); pass ``extras=`` instead.
        :raises PluginError: the extras use a common key.

        >>> result = SearchResult.from_states(["a", "b"], ["R"], strategy="bfs", kind="demo")
        >>> data = result.to_dict()
        >>> data["kind"], data["actions"], data["states"], data["length"], data["stopped"]
        ('demo', ['R'], ['a', 'b'], 1, 'goal')
        >>> result.to_dict(extras={"demo": {"moves": 1}})["demo"]
        {'moves': 1}
        """
        if puzzle is not None:
            states = [describe_state(puzzle, state) for state in self.states]
        else:
            states = [plain(state) for state in self.states]
        kind = self.kind or getattr(puzzle, "kind", "") or ""
        data: dict[str, Any] = {
            "kind": kind,
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
        if extras is _Unset.UNSET:
            extras = None if puzzle is None else _looked_up(getattr(puzzle, "kind", None), registry)
        if extras is not None:
            data.update(self._extras(puzzle, extras, kind))
        return data

    def _extras(self, puzzle: Any, extras: Extras, kind: str) -> dict[str, Any]:
        """The kind's own keys, checked against the common ones."""
        own = dict(extras if isinstance(extras, Mapping) else extras(puzzle, self))
        clash = sorted(set(own) & set(COMMON_KEYS))
        if clash:
            raise PluginError(
                f"puzzle kind {kind!r} puts {', '.join(map(repr, clash))} in a result's JSON, "
                "which are common keys; a kind adds its own under a key of its own"
            )
        return own

    def _repr_html_(self) -> str:
        """The result as a table in a notebook (as pandas shows a frame): what was found
        by which strategy, the moves, and the counts. Its picture on the puzzle is
        ``lacak.picture(puzzle, result)``."""
        from html import escape  # (only in a notebook: html.entities is large)

        label = self.strategy or "search"
        if self.heuristic:
            label += f" ({self.heuristic})"
        if self.found:
            head = f"found: {plural(self.length, 'move')} with {label}"
            if self.cost != self.length:
                head += f", cost {self.cost:g}"
        else:
            head = f"not found with {label}: stopped at the {self.stopped}"
        rows = [("stopped", str(self.stopped))]
        if self.found:
            moves = [str(plain(a)) for a in self.actions]
            gap = f"… ({plural(len(moves) - 2 * SHOWN_AT_ENDS, 'move')} more) …"
            rows.append(("moves", " ".join(cut_middle(moves, full=False, noun="move", gap=gap))
                         or "none: the start is the goal"))  # fmt: skip
        stats = self.stats
        rows += [
            ("expanded", f"{stats.expanded:,}"),
            ("generated", f"{stats.generated:,}"),
            ("max frontier", f"{stats.max_frontier:,}"),
            ("depth", str(stats.depth)),
            ("seconds", f"{stats.seconds:.4f}"),
        ]
        if stats.iterations > 1:
            rows.append(("iterations", f"{stats.iterations:,}"))
        cells = "".join(f"<tr><th>{escape(key)}</th><td>{escape(value)}</td></tr>"
                        for key, value in rows)  # fmt: skip
        kind = f"{escape(self.kind)}: " if self.kind else ""
        return f"<table><caption>{kind}{escape(head)}</caption>{cells}</table>"

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


@attrs.frozen(kw_only=True)
class LocalSearchResult(SearchResult):
    """The outcome of a local search (hill climbing, simulated annealing, local beam
    search, the genetic algorithm), which climbs an :class:`~lacak.Objective` rather than
    following a path from the puzzle's start.

    ``found`` says whether a goal's value (:attr:`Objective.best <lacak.Objective.best>`)
    was reached; ``states`` is then the climb that reached it, from the state that climb
    started at (a random restart's, not always the puzzle's start) to the goal, and
    ``actions`` the moves between them (a beam's or a population's goal has no climb:
    its ``states`` is the goal alone). Whether found or not, :attr:`best` is the best
    state met and :attr:`value` its value. In the counts, ``expanded`` is the states
    whose neighbours were looked at, ``generated`` the states valued and ``iterations``
    the climbs (restarts + 1) or generations. The JSON form adds them under ``"local"``:
    ``{"value", "best", "restarts", "steps"}``.
    """

    #: The best state met (the goal, when one was found); ``None`` before any.
    best: Any = None
    #: Its value (``None`` before any state was valued).
    value: float | None = None
    #: Random restarts made (climbs after the first).
    restarts: int = 0
    #: Moves made: the steps of every climb, or the generations of a population.
    steps: int = 0

    def to_dict(
        self,
        puzzle: Any = None,
        *,
        extras: Extras | _Unset | None = _Unset.UNSET,
        registry: Any = None,
    ) -> dict[str, Any]:
        """:meth:`SearchResult.to_dict`, with ``"local"``: the best value and state (in the
        kind's notation when ``puzzle`` is given), the restarts and the steps."""
        data = super().to_dict(puzzle, extras=extras, registry=registry)
        best = self.best
        shown = None if best is None else (
            describe_state(puzzle, best) if puzzle is not None else plain(best))  # fmt: skip
        data["local"] = {
            "value": plain(self.value),
            "best": shown,
            "restarts": self.restarts,
            "steps": self.steps,
        }
        return data


def _looked_up(kind: Any, registry: Any) -> Any:
    """Deprecated: the extras function of ``kind`` found through the plugin host, with a
    warning when there is one (``to_dict(puzzle)`` gives the same JSON then as before)."""
    if _find_extras is None or not isinstance(kind, str):
        return None
    found = _find_extras(kind, registry)
    if found is not None:
        warnings.warn(
            "SearchResult.to_dict(puzzle) without extras= is deprecated: it looks the "
            f"kind's extras up in the registry; pass extras= (the {kind!r} kind's "
            "PuzzleType.extras) or use lacak.result_json(result, puzzle)",
            DeprecationWarning,
            stacklevel=3,
        )
    return found
