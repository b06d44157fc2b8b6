"""Small plugins the core tests register by hand."""

from __future__ import annotations

import heapq
import itertools
import time
from typing import Any

import attrs
import lacak


def dijkstra(puzzle: Any, *, heuristic: Any, limits: lacak.Limits, trace: Any) -> lacak.SearchResult:
    """A plain uniform-cost search, to run the searcher contract against."""
    budget = limits.start()
    counter = itertools.count()
    root = trace.add(None, puzzle.initial) if trace is not None else -1
    frontier: list[Any] = [(0.0, next(counter), puzzle.initial, None, root, 0)]
    parents: dict[Any, Any] = {puzzle.initial: None}
    best = {puzzle.initial: 0.0}
    expanded = generated = max_frontier = depth_reached = 0
    stopped = lacak.StopReason.EXHAUSTED
    while frontier:
        cost, _, state, _, node, depth = heapq.heappop(frontier)
        if cost > best[state]:
            continue
        reason = budget.exceeded(expanded, len(frontier))
        if reason is not None:
            stopped = reason
            break
        expanded += 1
        depth_reached = max(depth_reached, depth)
        if trace is not None:
            trace.expand(node)
        if puzzle.is_goal(state):
            path = []
            while parents[state] is not None:
                previous, action, step = parents[state]
                path.append((action, state, step))
                state = previous
            path.reverse()
            if trace is not None:
                trace.mark_goal(node)
            return lacak.SearchResult.from_path(
                path, puzzle.initial, strategy="test-dijkstra",
                stats=lacak.SearchStats(expanded=expanded, generated=generated,
                                        max_frontier=max_frontier, depth=depth_reached,
                                        seconds=budget.elapsed()),
            )
        for action, nxt, step in puzzle.successors(state):
            new = cost + step
            if new < best.get(nxt, float("inf")):
                best[nxt] = new
                parents[nxt] = (state, action, step)
                generated += 1
                child = trace.add(node, nxt, action, depth=depth + 1, g=new) if trace else -1
                heapq.heappush(frontier, (new, next(counter), nxt, action, child, depth + 1))
        max_frontier = max(max_frontier, len(frontier))
    return lacak.SearchResult(
        found=False, states=(puzzle.initial,), stopped=stopped, strategy="test-dijkstra",
        stats=lacak.SearchStats(expanded=expanded, generated=generated, max_frontier=max_frontier,
                                depth=depth_reached, seconds=budget.elapsed()),
    )


class CorePlugin:
    """Registers one component through each collection hook."""

    @lacak.hookimpl
    def register_searchers(self, register: Any) -> None:
        register(lacak.Searcher(name="test-dijkstra", search=dijkstra, optimal=True,
                                description="uniform-cost search for the core tests"))

    @lacak.hookimpl
    def register_heuristics(self, register: Any) -> None:
        register(lacak.Heuristic(name="zero", kind="graph", estimate=lambda p, s: 0,
                                 admissible=True, consistent=True))
        register(lacak.Heuristic(
            name="scaled", kind="graph", estimate=lambda p, s, factor=1.0: factor * 0,
            options={"factor": 1.0},
        ))

    @lacak.hookimpl
    def register_generators(self, register: Any) -> None:
        def make(size: Any, seed: Any, *, goals: int = 1) -> Any:
            import random

            rng = random.Random(seed)
            count = int(size)
            edges = {i: tuple((f"{i}>{j}", j, 1.0) for j in range(count) if rng.random() < 0.3)
                     for i in range(count)}
            return lacak.testing.GraphPuzzle(edges=edges, initial=0,
                                             goals=frozenset(range(count - goals, count)))

        register(lacak.Generator(kind="graph", name="random", make=make, options={"goals": 1}))

    @lacak.hookimpl
    def register_puzzles(self, register: Any) -> None:
        def validate(instance: Any) -> None:
            if instance.initial not in instance.edges:
                raise lacak.InvalidPuzzleError("the initial state has no entry")

        register(lacak.PuzzleType(kind="graph", parse=lambda text: None, validate=validate))

    @lacak.hookimpl
    def register_dictionaries(self, register: Any) -> None:
        register(lacak.DictionarySource(
            name="tiny", language="en",
            load=lambda: lacak.Dictionary(name="tiny", language="en", words=["CAT", "ACT", "CAT"]),
        ))


def make_registry(*plugins: object) -> lacak.Registry:
    """An empty registry (no entry points) with ``plugins`` added."""
    import lacak.testing

    registry = lacak.Registry(entry_points=False)
    for index, plugin in enumerate(plugins):
        registry.add_plugin(plugin, name=f"plugin{index}")
    return registry


@attrs.frozen
class Tick:
    """Count from 0 to ``target`` by ``+1`` and ``+2``: a kind whose batches the core
    tests run (its generator can fail, or take its time, on purpose)."""

    target: int
    kind = "tick"
    initial = 0

    def is_goal(self, state: int) -> bool:
        return state == self.target

    def successors(self, state: int) -> Any:
        if state < self.target:
            yield "+1", state + 1, 1.0
            yield "+2", state + 2, 1.0

    def to_dict(self) -> dict[str, int]:
        return {"target": self.target}


def make_tick(size: Any, seed: int, *, fail_every: int = 0, kinds: int = 40,
              pause: float = 0.0) -> Tick:  # fmt: skip
    """A tick puzzle from the seed; every ``fail_every``-th seed raises (a bug in the
    generator), and each takes ``pause`` seconds."""
    if pause:
        time.sleep(pause)
    if fail_every and seed % fail_every == 0:
        raise ArithmeticError(f"no tick for seed {seed}")
    return Tick(seed % kinds)


class TickPlugin:
    """The ``tick`` generator (no puzzle kind: batches of it are the generic ones)."""

    @lacak.hookimpl
    def register_generators(self, register: Any) -> None:
        register(lacak.Generator(kind="tick", name="count", make=make_tick,
                                 options={"fail_every": 0, "kinds": 40, "pause": 0.0}))  # fmt: skip


def tick_registry() -> lacak.Registry:
    """A registry with the ``tick`` generator and the generic strategies."""
    import lacak_search

    return make_registry(TickPlugin(), lacak_search)
