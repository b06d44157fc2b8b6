"""Searches as Searchformer token sequences (Lehnert et al. 2024, arXiv 2402.14083):
:func:`tokens` writes a recorded search (a :class:`~lacak.SearchTrace`) as ``create`` and
``close`` events and its ``plan``; :func:`replay_tokens` checks that a token sequence is a
correct run of a named strategy on a puzzle (docs/search.md, "Search traces as tokens").

A trace is read through its attributes only (this folder sits beside the kernel's
:mod:`lacak.trace`, above it in the layers).
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable, Hashable
from typing import Any

import attrs

from ..errors import InvalidInputError, InvalidOptionError

__all__ = ["TOKEN_STRATEGIES", "TraceMismatchError", "replay_tokens", "state_tokens", "tokens"]


# -- Searchformer tokens ---------------------------------------------------------------

#: The strategies :func:`tokens` writes and :func:`replay_tokens` checks, with how each
#: takes its open list: ``(order, g weight, h weight)`` (:meth:`SearchTrace.begin_steps`).
TOKEN_STRATEGIES = {
    "astar": ("priority", 1.0, 1.0),
    "uniform-cost": ("priority", 1.0, 0.0),
    "best-first": ("priority", 0.0, 1.0),
    "bfs": ("fifo", 1.0, 0.0),
    "dfs": ("lifo", 1.0, 0.0),
}


def _number(value: float | None) -> str:
    """``c3`` for 3.0, ``c2.5`` for 2.5, ``c0`` for no value."""
    value = 0.0 if value is None else float(value)
    return f"c{int(value)}" if value.is_integer() else f"c{value!r}"


def state_tokens(text: Callable[[Hashable], str], state: Hashable) -> list[str]:
    """A state as tokens: a pair of integers as its two numbers (a maze cell: ``row col``,
    as Searchformer writes coordinates), anything else as one token, its text form
    (``text``: a sliding board's ``123450786``) with spaces taken out."""
    if (
        isinstance(state, tuple)
        and len(state) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in state)
    ):
        return [str(v) for v in state]
    return ["".join(text(state).split()) or "_"]


def _text_of(puzzle: Any) -> Callable[[Hashable], str]:
    """A state's text form as the puzzle writes it (``lacak.describe_state``'s rule)."""
    formatter = getattr(puzzle, "format_state", None)
    return formatter if callable(formatter) else str


def tokens(trace: Any, plan: Any = None, *, puzzle: Any = None) -> list[str]:
    """A recorded search as a Searchformer token sequence (Lehnert et al. 2024,
    arXiv 2402.14083): ``create S c<g> c<h>`` when a node joins the open list, ``close S
    c<g> c<h>`` when it is expanded, in the order the search did them, then ``plan S`` for
    each state of ``plan`` (the result's ``states``, start to goal). ``S`` is the state's
    tokens (:func:`state_tokens`, in the ``puzzle``'s text form when it is given, else
    through the trace's ``describe``: the same as :func:`replay_tokens` reads when the
    trace was made by ``lacak.solve(..., trace=True)`` or the command line); ``c<h>`` is
    ``c0`` for a search without a heuristic.

    The order is rebuilt from the tree: the root is created, and each node expanded is
    closed and then its children are created, in the order made. That is the order of
    every strategy that makes a node's children when it expands it (``astar``,
    ``best-first``, ``uniform-cost``, ``weighted-astar``, ``bfs``, ``dfs``); IDA* makes
    them one at a time and is refused.

    :raises InvalidOptionError: a trace cut short by ``max_nodes``, or one of IDA*.
    """
    if trace.truncated:
        raise InvalidOptionError(
            f"the trace was cut at {trace.max_nodes:,} nodes: tokens need the whole search"
        )
    if trace.order is not None and trace.order[0] == "path":
        raise InvalidOptionError("IDA* makes children one at a time: no token trace for it")
    by_parent = trace.children()
    text = _text_of(puzzle) if puzzle is not None else trace.describe
    out: list[str] = []

    def event(word: str, node: Any) -> None:
        out.extend([word, *state_tokens(text, node.state), _number(node.g), _number(node.h)])

    made: set[int] = set()
    for node in sorted((n for n in trace.nodes if n.order is not None), key=lambda n: n.order or 0):
        if node.id not in made:  # a root (each iteration's, iterative deepening)
            event("create", node)
            made.add(node.id)
        event("close", node)
        for child in by_parent.get(node.id, []):
            event("create", child)
            made.add(child.id)
    if trace.nodes and trace.nodes[0].order is None:  # (no node expanded: the root alone)
        event("create", trace.nodes[0])
    for state in plan or ():
        out.extend(["plan", *state_tokens(text, state)])
    return out


class TraceMismatchError(InvalidInputError):
    """A token trace that is not a correct execution of the strategy named
    (:func:`replay_tokens`): the message says which token and why."""


@attrs.define
class _Entry:
    """A node on the open list while a token trace is replayed."""

    key: tuple[str, ...]
    state: Hashable
    g: float
    h: float
    depth: int
    seq: int
    #: Whether it left the open list (taken, or replaced by a cheaper copy).
    gone: bool = False


class _Open:
    """The open list of a replayed search: entries by state key, and the order the
    strategy takes them in (a queue, a stack, or a heap by priority), left lazily."""

    def __init__(self, order: str, a: float, b: float) -> None:
        self.order, self.a, self.b = order, a, b
        self.by_key: dict[tuple[str, ...], list[_Entry]] = {}
        self.queue: deque[_Entry] = deque()
        self.stack: list[_Entry] = []
        self.heap: list[tuple[float, int, _Entry]] = []
        self.size = 0

    def priority(self, entry: _Entry) -> float:
        return self.a * entry.g + self.b * entry.h

    def push(self, entry: _Entry, *, stacked: bool = True) -> None:
        self.by_key.setdefault(entry.key, []).append(entry)
        self.size += 1
        if self.order == "fifo":
            self.queue.append(entry)
        elif self.order == "priority":
            heapq.heappush(self.heap, (self.priority(entry), entry.seq, entry))
        elif stacked:
            self.stack.append(entry)

    def remove(self, entry: _Entry) -> None:
        entry.gone = True
        self.by_key[entry.key].remove(entry)
        self.size -= 1

    def head(self) -> _Entry:
        """The entry the strategy takes next (for the best-first family: one of the least
        priority)."""
        if self.order == "fifo":
            while self.queue[0].gone:
                self.queue.popleft()
            return self.queue[0]
        if self.order == "priority":
            while self.heap[0][2].gone:
                heapq.heappop(self.heap)
            return self.heap[0][2]
        while self.stack[-1].gone:
            self.stack.pop()
        return self.stack[-1]


def _read_events(
    words: list[str], width: int
) -> tuple[list[tuple[int, str, tuple[str, ...], float, float]], list[tuple[str, ...]]]:
    """``(events, plan)``: each event ``(position, word, state key, g, h)``."""
    events: list[tuple[int, str, tuple[str, ...], float, float]] = []
    plan: list[tuple[str, ...]] = []
    at = 0

    def cost(position: int) -> float:
        word = words[position] if position < len(words) else ""
        try:
            if not word.startswith("c"):
                raise ValueError
            return float(word[1:])
        except ValueError:
            raise TraceMismatchError(
                f"token {position}: expected a cost like c3, got {word!r}"
            ) from None

    while at < len(words):
        word = words[at]
        if word in ("create", "close"):
            if plan:
                raise TraceMismatchError(f"token {at}: {word!r} after the plan began")
            key = tuple(words[at + 1 : at + 1 + width])
            if len(key) < width:
                raise TraceMismatchError(f"token {at}: the trace ends inside an event")
            events.append((at, word, key, cost(at + 1 + width), cost(at + 2 + width)))
            at += 3 + width
        elif word == "plan":
            key = tuple(words[at + 1 : at + 1 + width])
            if len(key) < width:
                raise TraceMismatchError(f"token {at}: the trace ends inside a plan state")
            plan.append(key)
            at += 1 + width
        else:
            raise TraceMismatchError(f"token {at}: expected create, close or plan, got {word!r}")
    return events, plan


def replay_tokens(
    puzzle: Any,
    words: str | list[str],
    strategy: str = "astar",
    *,
    heuristic: Any = None,
    describe: Callable[[Hashable], str] | None = None,
    max_depth: int | None = None,
) -> int:
    """Replay a Searchformer token trace (:func:`tokens`) against ``puzzle`` and check
    that it is a correct execution of ``strategy`` (a key of :data:`TOKEN_STRATEGIES`,
    with its default duplicate rule, ``closed``) ending in the plan it reports.

    Checked, event by event: the trace starts by creating the start (``c0``, its ``h``);
    each ``close`` takes a node waiting on the open list (same state, ``g`` and ``h``) that
    the strategy may take next: for the best-first family one whose priority (``g + h``
    for ``astar``, ``g`` for ``uniform-cost``, ``h`` for ``best-first``) is the least
    waiting (ties in any order, as any correct implementation may break them); for
    ``bfs`` the first created still waiting; for ``dfs`` the top of the stack. After a
    close, the creates that follow are exactly the node's successors the duplicate rule
    keeps (a state never created, or for ``astar`` and ``uniform-cost`` one reached more
    cheaply than before), in any order, each with ``g`` = the parent's plus the step's
    cost and ``h`` = the heuristic's estimate; a node at ``max_depth`` has none. The goal
    is the last node closed and no node closed before it is a goal; the plan goes from
    the start to it by successor moves, its cost the goal's ``g``. A trace with no plan
    must be an exhausted search (nothing left waiting).

    :param heuristic: a :class:`~lacak.Heuristic` (``lacak.resolve_heuristic(puzzle,
        "manhattan")``) or a function ``state -> number``; ``None`` for ``h = 0``.
    :param describe: a state's text form (default: the puzzle's, as traces write it).
    :returns: the number of nodes closed.
    :raises TraceMismatchError: the first event that does not fit, and why.
    :raises InvalidOptionError: an unknown strategy.
    """
    if strategy not in TOKEN_STRATEGIES:
        raise InvalidOptionError(
            f"replay_tokens checks {', '.join(TOKEN_STRATEGIES)}, not {strategy!r}"
        )
    order, a, b = TOKEN_STRATEGIES[strategy]
    reopen = strategy in ("astar", "uniform-cost")
    if isinstance(words, str):
        words = words.split()
    text = describe if describe is not None else _text_of(puzzle)
    if heuristic is None:
        h_of: Callable[[Hashable], float] = lambda _s: 0.0  # noqa: E731
    elif hasattr(heuristic, "for_puzzle"):
        h_of = heuristic.for_puzzle(puzzle)
    else:
        h_of = heuristic

    def key_of(state: Hashable) -> tuple[str, ...]:
        return tuple(state_tokens(text, state))

    start = puzzle.initial
    events, plan = _read_events(list(words), len(key_of(start)))

    def fail(position: int, why: str) -> TraceMismatchError:
        return TraceMismatchError(f"token {position}: {why}")

    def same(x: float, y: float) -> bool:
        return abs(x - y) <= 1e-9 * max(1.0, abs(x), abs(y))

    if not events:
        raise TraceMismatchError("the trace has no events")
    position, word, key, g, h = events[0]
    h0 = float(h_of(start))
    if word != "create" or key != key_of(start) or not same(g, 0) or not same(h, h0):
        raise fail(position, f"a trace starts with create {' '.join(key_of(start))} c0 "
                             f"{_number(h0)}")  # fmt: skip
    live = _Open(order, a, b)
    live.push(_Entry(key, start, 0.0, h0, 0, 0))
    best: dict[Hashable, float] = {start: 0.0}
    seen_depth: dict[Hashable, int] = {start: 0}
    pending: list[tuple[tuple[str, ...], Hashable, float, float, int]] = []
    batch: list[_Entry] = []
    goal: _Entry | None = None
    closes = 0
    seq = 1

    def take_next(position: int, entry_key: tuple[str, ...], g: float, h: float) -> _Entry:
        candidates = [e for e in live.by_key.get(entry_key, ())
                      if same(e.g, g) and same(e.h, h)]  # fmt: skip
        if not candidates:
            raise fail(position, f"close {' '.join(entry_key)} {_number(g)} {_number(h)}: no "
                                 "such node waits on the open list")  # fmt: skip
        nxt = live.head()
        if order == "priority":
            least = live.priority(nxt)
            chosen = [e for e in candidates if same(live.priority(e), least)]
            if not chosen:
                raise fail(position, f"{strategy} takes a node of the least priority "
                                     f"({least:g}) first")  # fmt: skip
            return chosen[0]
        if nxt not in candidates:
            which = "the first created still waiting" if order == "fifo" else "the top of the stack"
            raise fail(position, f"{strategy} takes {which} next: {' '.join(nxt.key)}")
        return nxt

    for position, word, key, g, h in events[1:]:
        if goal is not None:
            raise fail(position, "the search goes on after closing the goal")
        if word == "create":
            match = next((p for p in pending if p[0] == key and same(p[2], g) and same(p[3], h)),
                         None)  # fmt: skip
            if match is None:
                raise fail(position, f"create {' '.join(key)} {_number(g)} {_number(h)} is "
                                     "not a child the last node closed makes")  # fmt: skip
            pending.remove(match)
            entry = _Entry(key, match[1], g, h, match[4], seq)
            seq += 1
            if order == "priority":  # a cheaper copy replaces a waiting one
                for old in [e for e in live.by_key.get(key, ()) if e.state == entry.state]:
                    live.remove(old)
            live.push(entry, stacked=False)
            if order == "lifo":
                batch.append(entry)
            continue
        if pending:
            left = pending[0]
            raise fail(position, f"close before the last node's child {' '.join(left[0])} "
                                 f"{_number(left[2])} {_number(left[3])} was created")  # fmt: skip
        if order == "lifo":
            live.stack.extend(reversed(batch))
            batch = []
        entry = take_next(position, key, g, h)
        live.remove(entry)
        closes += 1
        if puzzle.is_goal(entry.state):
            goal = entry
            continue
        depth = entry.depth + 1
        if max_depth is not None and depth > max_depth:
            continue
        for _action, child, step in puzzle.successors(entry.state):
            g2 = entry.g + step
            if order == "priority":
                previous = best.get(child)
                if previous is not None and (not reopen or g2 >= previous):
                    continue
                best[child] = g2
            elif order == "fifo":
                if child in seen_depth:
                    continue
                seen_depth[child] = depth
            else:
                before = seen_depth.get(child)
                if before is not None and (max_depth is None or before <= depth):
                    continue
                seen_depth[child] = depth
            pending.append((key_of(child), child, g2, float(h_of(child)), depth))
    end = events[-1][0] if events else 0
    if pending:
        left = pending[0]
        raise fail(end, f"the trace ends before the child {' '.join(left[0])} was created")
    if goal is None:
        if plan:
            raise fail(end, "a plan, but the trace never closes a goal")
        if live.size:
            raise fail(end, f"the trace ends with {live.size} node(s) still waiting and no goal")
        return closes
    if not plan:
        raise fail(end, "the trace closes a goal but gives no plan")
    if plan[0] != key_of(start) or plan[-1] != goal.key:
        raise fail(end, "the plan must go from the start to the goal closed")
    state, cost = start, 0.0
    for number, step_key in enumerate(plan[1:], 1):
        moves = [(c, s) for _a, s, c in puzzle.successors(state) if key_of(s) == step_key]
        if not moves:
            raise fail(
                end, f"plan state {number} ({' '.join(step_key)}) is no move from the one before"
            )
        step_cost, state = min(moves, key=lambda m: m[0])
        cost += step_cost
    if not same(cost, goal.g):
        raise fail(end, f"the plan costs {cost:g}, the goal was closed with g = {goal.g:g}")
    return closes
