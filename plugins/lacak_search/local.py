"""Local search: hill climbing (steepest ascent and first choice, with sideways moves and
random restarts), simulated annealing, local beam search and a genetic algorithm.

They climb a kind's :class:`lacak.Objective` (a state's value, higher is better, and its
neighbours) instead of following paths from the puzzle's start: AIMA (Russell and
Norvig, 3rd ed.), section 4.1. Each is seeded (``seed``, default 0: the same seed gives
the same search everywhere), honours :class:`lacak.Limits` (``max_expanded`` counts the
states whose neighbours were looked at, ``seconds`` the clock, ``max_depth`` the moves of
one climb) and returns a :class:`lacak.LocalSearchResult`: ``found`` when a state of the
objective's :attr:`~lacak.Objective.best` value was reached, and always the best state
met and its value.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable
from typing import Any

import lacak
from lacak import LocalSearchResult, Objective, StopReason

from ._common import check_flag, check_number

__all__ = [
    "MAX_STATES",
    "MAX_TRIES",
    "SCHEDULES",
    "beam",
    "first_choice",
    "genetic",
    "hill_climbing",
    "simulated_annealing",
]

#: The cooling schedules of :func:`simulated_annealing`: the temperature at step ``t``,
#: from the starting ``temperature``, the exponential ``cooling`` rate and the schedule's
#: length ``steps`` (the temperature is 0 from then on, and the search ends).
SCHEDULES: dict[str, Callable[[int, float, float, int], float]] = {
    # AIMA's exp_schedule: k * exp(-lam * t) until the limit
    "exponential": lambda t, t0, rate, steps: t0 * math.exp(-rate * t) if t < steps else 0.0,
    "linear": lambda t, t0, rate, steps: t0 * (1.0 - t / steps) if t < steps else 0.0,
    # Geman and Geman's slow schedule: T0 / ln(t + e)
    "logarithmic": lambda t, t0, rate, steps: t0 / math.log(t + math.e) if t < steps else 0.0,
}


#: The most states a beam or a population may hold (each is made at the start).
MAX_STATES = 100_000

#: The most neighbours first-choice hill climbing draws at one state.
MAX_TRIES = 10_000_000


def _count(
    value: Any, name: str, strategy: str, *, minimum: int = 0, maximum: int | None = None
) -> int:
    """A whole-number option from ``minimum`` to ``maximum`` (not a bool).

    :raises InvalidOptionError: anything else.
    """
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or value < minimum
        or (maximum is not None and value > maximum)
    ):
        upto = f" and <= {maximum:,}" if maximum is not None else ""
        raise lacak.InvalidOptionError(
            f"strategy {strategy!r}: {name} must be a whole number >= {minimum}{upto}, "
            f"got {value!r}"
        )
    return value


def _action(objective: Objective, state: Any, neighbour: Any) -> Any:
    """The action from ``state`` to ``neighbour``: the objective's ``move``, else the
    neighbour itself."""
    return neighbour if objective.move is None else objective.move(state, neighbour)


def _mutated(objective: Objective, state: Any, rng: random.Random) -> Any:
    """``state`` mutated: the objective's ``mutate``, else a random neighbour (``state``
    itself when it has none)."""
    if objective.mutate is not None:
        return objective.mutate(state, rng)
    near = objective.neighbour(state, rng)
    return state if near is None else near


class _Run:
    """One local search's rng, budget, counters and best state, and its result."""

    def __init__(
        self, strategy: str, puzzle: Any, objective: Objective, limits: lacak.Limits, seed: Any
    ) -> None:
        self.strategy = strategy
        self.puzzle = puzzle
        self.objective = objective
        self.rng = random.Random(_count(seed, "seed", strategy))
        self.limits = limits
        self.budget = limits.start()
        self.expanded = self.generated = self.moves = self.restarts = self.depth = 0
        self.iterations = 1
        self.frontier = 1
        self.best: Any = None
        self.value: float | None = None
        self.stopped: StopReason | None = None
        self.cut = False

    def spent(self) -> bool:
        """Whether a limit stops the search now (and which: :attr:`stopped`)."""
        reason = self.budget.exceeded(self.expanded)
        if reason is not None:
            self.stopped = reason
            return True
        return False

    def note(self, state: Any, value: float) -> None:
        """Keep ``state`` if it is the best met so far."""
        if self.value is None or value > self.value:
            self.best, self.value = state, value

    def first(self) -> Any:
        """The state the search starts from: the objective's ``start``, else a random one."""
        start = self.objective.start
        return self.objective.random_state(self.rng) if start is None else start

    def finish(
        self, states: list[Hashable] | None = None, actions: list[Any] | None = None
    ) -> LocalSearchResult:
        """The result: found when ``states`` (the climb to a goal) is given."""
        stopped = self.stopped or (
            StopReason.GOAL if states is not None
            else StopReason.DEPTH if self.cut else StopReason.EXHAUSTED)  # fmt: skip
        return LocalSearchResult.finished(
            self.puzzle.initial,
            stopped,
            states=states,
            actions=actions or (),
            expanded=self.expanded,
            generated=self.generated,
            max_frontier=self.frontier,
            depth=self.depth,
            iterations=self.iterations,
            budget=self.budget,
            strategy=self.strategy,
            best=self.best,
            value=self.value,
            restarts=self.restarts,
            steps=self.moves,
        )


def _climbs(
    run: _Run,
    restarts: int,
    climb: Callable[[Any, float], tuple[list[Any], list[Any], float] | None],
) -> LocalSearchResult:
    """Climb from the first state, then from random states up to ``restarts`` more times,
    until a climb reaches a goal or a limit stops the search."""
    objective = run.objective
    state = run.first()
    for attempt in range(restarts + 1):
        if attempt:
            if run.spent():
                break
            run.restarts += 1
            run.iterations += 1
            state = objective.random_state(run.rng)
        value = objective.value(state)
        run.generated += 1
        run.note(state, value)
        path = climb(state, value)
        if path is not None:
            states, actions, _ = path
            return run.finish(states, actions)
        if run.stopped is not None:
            break
    return run.finish()


def _climb_loop(
    run: _Run,
    sideways: int,
    step: Callable[[Any, float, bool], tuple[Any, float] | None],
) -> Callable[[Any, float], tuple[list[Any], list[Any], float] | None]:
    """A climb from a state: ``step(state, value, flat_allowed)`` gives the next state and
    its value (``None``: stuck), until a goal (the path), a limit or a stuck state (``None``)."""
    objective = run.objective
    depth_allowed = run.budget.depth_allowed

    def climb(state: Any, value: float) -> tuple[list[Any], list[Any], float] | None:
        states, actions = [state], list[Any]()
        flat = 0
        while True:
            if objective.reached(value):
                return states, actions, value
            if run.spent():
                return None
            if not depth_allowed(len(actions) + 1):
                run.cut = True
                return None
            run.expanded += 1
            nxt = step(state, value, flat < sideways)
            if nxt is None:
                return None
            state, new = nxt
            flat = flat + 1 if new == value else 0
            actions.append(_action(objective, states[-1], state))
            states.append(state)
            value = new
            run.moves += 1
            run.depth = max(run.depth, len(actions))
            run.note(state, value)

    return climb


def hill_climbing(
    puzzle: Any,
    *,
    heuristic: lacak.Heuristic | None = None,
    limits: lacak.Limits,
    trace: lacak.SearchTrace | None = None,
    objective: Objective,
    sideways: int = 0,
    restarts: int = 0,
    seed: int = 0,
) -> LocalSearchResult:
    """Steepest-ascent hill climbing (AIMA figure 4.2), with sideways moves and random
    restarts.

    Each step values every neighbour of the current state and moves to the best one,
    a tie broken at random; the climb ends at a goal or when no neighbour is better (a
    local maximum, or a plateau when sideways moves are used up). Then it restarts from
    a random state, up to ``restarts`` times.

    :param sideways: how many moves in a row may go to a neighbour of the same value (a
        plateau or a shoulder); an uphill move starts the count again. AIMA allows 100.
    :param restarts: climbs from random states after the first, while no goal is reached
        (without a known goal value, every one is made and the best state kept).
    :param seed: the seed of the random choices (ties, restarts).

    .. rubric:: Examples

    >>> import lacak
    >>> board = lacak.generate("queens", "random", 8, seed=3)
    >>> result = lacak.solve(board, "hill-climbing", sideways=100, restarts=10)
    >>> result.found, result.value
    (True, 0)
    """
    sideways = _count(sideways, "sideways", "hill-climbing")
    restarts = _count(restarts, "restarts", "hill-climbing")
    run = _Run("hill-climbing", puzzle, objective, limits, seed)
    rng = run.rng

    def step(state: Any, value: float, flat_ok: bool) -> tuple[Any, float] | None:
        near = list(objective.neighbours(state))
        if not near:
            return None
        scores = objective.score(near)
        run.generated += len(near)
        top = max(scores)
        if top < value or (top == value and not flat_ok):
            return None
        ties = [i for i, score in enumerate(scores) if score == top]
        pick = ties[0] if len(ties) == 1 else rng.choice(ties)
        return near[pick], top

    return _climbs(run, restarts, _climb_loop(run, sideways, step))


def first_choice(
    puzzle: Any,
    *,
    heuristic: lacak.Heuristic | None = None,
    limits: lacak.Limits,
    trace: lacak.SearchTrace | None = None,
    objective: Objective,
    sideways: int = 0,
    restarts: int = 0,
    tries: int = 100,
    seed: int = 0,
) -> LocalSearchResult:
    """First-choice hill climbing (AIMA 4.1.1): draw random neighbours until one is better
    than the current state, and move there; after ``tries`` draws without one the state
    counts as a local maximum. Good when a state has very many neighbours, and the kind
    can draw one without making them all (:attr:`lacak.Objective.random_neighbour`).

    :param sideways: moves in a row that may go to a neighbour of the same value, taken
        when ``tries`` draws found none better but one as good.
    :param restarts: climbs from random states after the first, while no goal is reached.
    :param tries: random neighbours drawn at a state before giving up on it.
    :param seed: the seed of the draws.
    """
    sideways = _count(sideways, "sideways", "first-choice")
    restarts = _count(restarts, "restarts", "first-choice")
    tries = _count(tries, "tries", "first-choice", minimum=1, maximum=MAX_TRIES)
    run = _Run("first-choice", puzzle, objective, limits, seed)
    rng = run.rng

    def step(state: Any, value: float, flat_ok: bool) -> tuple[Any, float] | None:
        level = None
        for draw in range(tries):
            if draw and not draw % 1024 and run.spent():  # (a long wait at a local maximum)
                return None
            near = objective.neighbour(state, rng)
            if near is None:
                return None
            score = objective.value(near)
            run.generated += 1
            if score > value:
                return near, score
            if score == value and flat_ok and level is None:
                level = (near, score)
        return level

    return _climbs(run, restarts, _climb_loop(run, sideways, step))


def simulated_annealing(
    puzzle: Any,
    *,
    heuristic: lacak.Heuristic | None = None,
    limits: lacak.Limits,
    trace: lacak.SearchTrace | None = None,
    objective: Objective,
    schedule: str = "exponential",
    temperature: float = 20.0,
    cooling: float = 0.005,
    steps: int = 10_000,
    seed: int = 0,
) -> LocalSearchResult:
    """Simulated annealing (AIMA figure 4.5): at step ``t`` draw a random neighbour; move
    there if it is better, else with probability ``exp(delta / T)``, where ``delta`` is how
    much worse it is and ``T`` the temperature the schedule gives for ``t``. The search
    ends at a goal, or when the temperature reaches 0 (after ``steps`` steps), and
    reports the best state it met.

    Schedules (:data:`SCHEDULES`), with ``T0 = temperature``:

    - ``exponential`` (AIMA's ``exp_schedule``): ``T0 * exp(-cooling * t)``;
    - ``linear``: ``T0 * (1 - t / steps)``;
    - ``logarithmic``: ``T0 / ln(t + e)``, which cools slowly;

    each 0 from step ``steps`` on.

    :param schedule: ``exponential``, ``linear`` or ``logarithmic``.
    :param temperature: the temperature at step 0 (in the objective's units of value).
    :param cooling: the exponential schedule's rate (unused by the others).
    :param steps: the schedule's length.
    :param seed: the seed of the draws.
    """
    name = "simulated-annealing"
    if schedule not in SCHEDULES:
        raise lacak.InvalidOptionError(
            f"strategy {name!r}: schedule must be one of {', '.join(SCHEDULES)}, got {schedule!r}"
        )
    cool = SCHEDULES[schedule]
    t0 = check_number(temperature, "temperature", name, minimum=0)
    rate = check_number(cooling, "cooling", name, minimum=0)
    length = _count(steps, "steps", name)
    run = _Run(name, puzzle, objective, limits, seed)
    rng = run.rng
    state = run.first()
    value = objective.value(state)
    run.generated += 1
    run.note(state, value)
    states, actions = [state], list[Any]()
    for t in range(length):
        if objective.reached(value):
            break
        if run.spent():
            break
        if not run.budget.depth_allowed(len(actions) + 1):
            run.cut = True
            break
        heat = cool(t, t0, rate, length)
        if heat <= 0:
            break
        run.expanded += 1
        near = objective.neighbour(state, rng)
        if near is None:
            break
        score = objective.value(near)
        run.generated += 1
        delta = score - value
        if delta > 0 or rng.random() < math.exp(delta / heat):
            actions.append(_action(objective, state, near))
            states.append(near)
            state, value = near, score
            run.moves += 1
            run.depth = len(actions)
            run.note(state, value)
    if objective.reached(value):
        return run.finish(states, actions)
    return run.finish()


def beam(
    puzzle: Any,
    *,
    heuristic: lacak.Heuristic | None = None,
    limits: lacak.Limits,
    trace: lacak.SearchTrace | None = None,
    objective: Objective,
    k: int = 10,
    seed: int = 0,
) -> LocalSearchResult:
    """Local beam search (AIMA 4.1.3): keep ``k`` states (the first and ``k - 1`` random
    ones); at each step value every neighbour of every one of them (many at once, with
    the kind's :attr:`~lacak.Objective.values`), stop at a goal, and keep the ``k`` best,
    ties broken at random. The search ends when a step finds nothing better than the
    best state so far. A goal's ``states`` is the goal alone (a beam has no one climb).

    :param k: how many states the beam keeps.
    :param seed: the seed of the random states and of the ties.
    """
    k = _count(k, "k", "beam", minimum=1, maximum=MAX_STATES)
    run = _Run("beam", puzzle, objective, limits, seed)
    rng = run.rng
    states = [run.first(), *(objective.random_state(rng) for _ in range(k - 1))]
    scores = objective.score(states)
    run.generated += len(states)
    run.frontier = len(states)
    for state, score in zip(states, scores, strict=True):
        run.note(state, score)
    while not objective.reached(run.value):  # type: ignore[arg-type]
        if run.spent():
            return run.finish()
        if not run.budget.depth_allowed(run.moves + 1):
            run.cut = True
            return run.finish()
        pool: dict[Any, None] = {}
        for state in states:
            run.expanded += 1
            pool.update(dict.fromkeys(objective.neighbours(state)))
        if not pool:
            return run.finish()
        near = list(pool)
        rng.shuffle(near)  # (ties at random)
        values = objective.score(near)
        run.generated += len(near)
        run.frontier = max(run.frontier, len(near))
        order = sorted(range(len(near)), key=values.__getitem__, reverse=True)[:k]
        before = run.value
        states = [near[i] for i in order]
        run.note(states[0], values[order[0]])
        run.moves += 1
        run.depth = run.moves
        if run.value == before:  # nothing better than the best so far: the beam is stuck
            return run.finish()
    return run.finish([run.best], [])


def genetic(
    puzzle: Any,
    *,
    heuristic: lacak.Heuristic | None = None,
    limits: lacak.Limits,
    trace: lacak.SearchTrace | None = None,
    objective: Objective,
    population: int = 50,
    mutation: float = 0.1,
    generations: int = 1000,
    elitism: bool = True,
    seed: int = 0,
) -> LocalSearchResult:
    """A genetic algorithm (AIMA figure 4.8): a population of states (the first and random
    ones) breeds a new one each generation. Two parents are drawn with weights by value
    (a state's value less the generation's least, plus 1), crossed with the kind's
    :attr:`~lacak.Objective.crossover`, and the child mutated (the kind's
    :attr:`~lacak.Objective.mutate`, else a random neighbour) with probability
    ``mutation``. It ends at a goal or after ``generations``; a goal's ``states`` is the
    goal alone. Only for kinds that declare how to cross two states.

    :param population: states in each generation.
    :param mutation: the probability that a child is mutated.
    :param generations: how many generations to breed.
    :param elitism: carry the best state of each generation into the next.
    :param seed: the seed of the draws.
    :raises InvalidPuzzleError: the kind declares no crossover.
    """
    name = "genetic"
    if objective.crossover is None:
        raise lacak.InvalidPuzzleError(
            f"strategy {name!r} needs to cross two states, and puzzle kind "
            f"{getattr(puzzle, 'kind', '?')!r} declares no crossover (Objective.crossover)"
        )
    crossover = objective.crossover
    size = _count(population, "population", name, minimum=2, maximum=MAX_STATES)
    rate = check_number(mutation, "mutation", name, minimum=0)
    if rate > 1:
        raise lacak.InvalidOptionError(
            f"strategy {name!r}: mutation is a probability from 0 to 1, got {mutation!r}"
        )
    count = _count(generations, "generations", name)
    keep = check_flag(elitism, "elitism", name)
    run = _Run(name, puzzle, objective, limits, seed)
    rng = run.rng
    run.iterations = 0
    run.frontier = size
    people = [run.first(), *(objective.random_state(rng) for _ in range(size - 1))]
    while True:
        scores = objective.score(people)
        run.generated += len(people)
        top = max(range(size), key=scores.__getitem__)
        run.note(people[top], scores[top])
        if objective.reached(scores[top]):
            return run.finish([people[top]], [])
        if run.iterations >= count or run.spent():
            return run.finish()
        if not run.budget.depth_allowed(run.moves + 1):
            run.cut = True
            return run.finish()
        least = min(scores)
        weights = [score - least + 1.0 for score in scores]
        children = [people[top]] if keep else []
        while len(children) < size:
            mother, father = rng.choices(people, weights, k=2)
            child = crossover(mother, father, rng)
            if rng.random() < rate:
                child = _mutated(objective, child, rng)
            children.append(child)
            run.expanded += 1
        people = children
        run.iterations += 1
        run.moves += 1
        run.depth = run.moves
