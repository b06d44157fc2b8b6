"""Immutable results of a search."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from .errors import LimitReachedError, UnsolvableError
from .limits import StopReason

if TYPE_CHECKING:
    from .trace import SearchTrace

__all__ = ["SearchResult", "SearchStats"]


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
        """The stats as a plain ``dict``."""
        return attrs.asdict(self)


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
    def from_path(
        cls,
        path: Sequence[tuple[Hashable, Hashable, float]],
        initial: Hashable,
        **fields: Any,
    ) -> SearchResult:
        """Build a found result from ``(action, state, step_cost)`` triples."""
        return cls(
            found=True,
            actions=tuple(a for a, _, _ in path),
            states=(initial, *(s for _, s, _ in path)),
            cost=float(sum(c for _, _, c in path)),
            stopped=StopReason.GOAL,
            **fields,
        )
