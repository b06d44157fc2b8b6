"""What a puzzle, searcher, heuristic, generator and dictionary are.

A :class:`Puzzle` is any object with ``kind``, ``initial``, ``is_goal`` and
``successors``: the core never asks for a base class. The components that
plugins register are small frozen records (:class:`Searcher`,
:class:`Heuristic`, :class:`Generator`, :class:`PuzzleType`,
:class:`DictionarySource`) that point at plain functions.
:class:`~lacak.Dictionary` itself lives in :mod:`lacak.words`, next to the
file format it reads and writes (the kernel imports no folder of the package).
"""

from __future__ import annotations

import functools
import importlib
import operator
import reprlib
import warnings
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import attrs

from . import progress
from .errors import InvalidOptionError, InvalidPuzzleError, PluginError, memory_guard
from .limits import UNLIMITED, Limits
from .options import Accepts, accepts_validator, as_flag, parse_options
from .results import SearchResult, describe_state
from .streams import quiet
from .trace import SearchTrace

if TYPE_CHECKING:
    import concurrent.futures
    import random


__all__ = [
    "BatchKind",
    "DictionarySource",
    "Generator",
    "Heuristic",
    "Objective",
    "Page",
    "Puzzle",
    "PuzzleType",
    "ReversiblePuzzle",
    "Searcher",
    "as_flag",
    "check_puzzle",
    "describe_state",
    "parse_options",
]

State = Hashable
Action = Hashable


@runtime_checkable
class Puzzle(Protocol):
    """A search problem.

    ``successors(state)`` yields ``(action, next_state, step_cost)`` triples.
    States must be hashable. ``kind`` names the puzzle type (``"sliding"``,
    ``"maze"``, ...) so that heuristics registered for that kind apply.
    """

    # Read-only members, so frozen attrs classes and class-level ``kind = "..."``
    # satisfy the protocol; states are typed ``Any`` because each puzzle picks
    # its own (hashable) state type.
    @property
    def kind(self) -> str:
        """The puzzle kind (``"sliding"``, ``"maze"``, ...)."""
        ...

    @property
    def initial(self) -> Any:
        """The start state."""
        ...

    def is_goal(self, state: Any) -> bool:
        """Whether ``state`` is a goal."""
        ...

    def successors(self, state: Any) -> Iterable[tuple[Any, Any, float]]:
        """The ``(action, next_state, step_cost)`` triples leaving ``state``."""
        ...


@runtime_checkable
class ReversiblePuzzle(Puzzle, Protocol):
    """A puzzle with one explicit goal state and a way to search backwards.

    Bidirectional searches need it. ``predecessors(state)`` yields
    ``(action, previous_state, step_cost)`` where ``action`` leads from
    ``previous_state`` to ``state``.
    """

    @property
    def goal(self) -> Any:
        """The goal state."""
        ...

    def predecessors(self, state: Any) -> Iterable[tuple[Any, Any, float]]:
        """The ``(action, previous_state, step_cost)`` triples entering ``state``."""
        ...


#: What every puzzle has: (member, whether it is a method).
_PUZZLE_MEMBERS = (("kind", False), ("initial", False), ("is_goal", True), ("successors", True))


def check_puzzle(puzzle: Any, what: str = "a search") -> None:
    """Check once, before a search, that ``puzzle`` has the :class:`Puzzle` protocol.

    A string ``kind``, a hashable ``initial`` state and callable ``is_goal`` and
    ``successors``. Only the shape is checked, never what the methods return: a
    puzzle's methods are its author's code, and what they raise passes through.

    >>> check_puzzle(42)
    Traceback (most recent call last):
    ...
    lacak.errors.InvalidPuzzleError: a search needs a Puzzle (kind, initial, is_goal(state), \
successors(state)); 42 (int) lacks kind, initial, is_goal, successors

    :param what: what needs the puzzle, for the message.
    :raises InvalidPuzzleError: a member is missing or of the wrong type; the message
        names every missing one.
    """
    missing = [name for name, _method in _PUZZLE_MEMBERS if not hasattr(puzzle, name)]
    if missing:
        raise InvalidPuzzleError(
            f"{what} needs a Puzzle (kind, initial, is_goal(state), successors(state)); "
            f"{_shown(puzzle)} lacks {', '.join(missing)}"
        )
    for name, method in _PUZZLE_MEMBERS:
        if method and not callable(getattr(puzzle, name)):
            raise InvalidPuzzleError(
                f"{what}: the puzzle's {name} is not callable ({_shown(puzzle)})"
            )
    kind = puzzle.kind
    if not isinstance(kind, str):
        raise InvalidPuzzleError(
            f"{what}: a puzzle's kind is a string, got {reprlib.repr(kind)} ({_shown(puzzle)})"
        )
    try:
        hash(puzzle.initial)
    except TypeError:
        raise InvalidPuzzleError(
            f"{what}: puzzle states must be hashable, and the initial state "
            f"{reprlib.repr(puzzle.initial)} is not"
        ) from None


def _shown(value: Any) -> str:
    """``42 (int)``: a short repr and the type, for messages."""
    return f"{reprlib.repr(value)} ({type(value).__name__})"


SearchFunction = Callable[..., "SearchResult"]


def _as_frozenset(items: Iterable[str]) -> frozenset[str]:
    return frozenset(items)


def _as_tuple(items: Iterable[Any]) -> tuple[Any, ...]:
    return tuple(items)


def _as_str_tuple(items: Iterable[str]) -> tuple[str, ...]:
    """A tuple of names (a typed ``converter=tuple``, so that type checkers see ``str``)."""
    return tuple(items)


@attrs.frozen(kw_only=True)
class Searcher:
    """A search strategy.

    ``search(puzzle, *, heuristic, limits, trace, **options)`` returns a
    :class:`~lacak.SearchResult`. ``heuristic`` is a :class:`Heuristic` or
    ``None``; ``trace`` a :class:`~lacak.SearchTrace` to record into, or ``None``.
    """

    #: Name used on the command line and in :func:`lacak.solve`.
    name: str
    #: The function that searches.
    search: SearchFunction = attrs.field(repr=False)
    #: One line for listings.
    description: str = ""
    #: Whether it returns least-cost paths (with an admissible heuristic, if it uses one).
    optimal: bool = False
    #: Whether it returns paths of the fewest actions (``bfs``): least cost too
    #: wherever every step costs the same (sliding puzzles, mazes).
    fewest_moves: bool = False
    #: ``"required"``, ``"optional"`` or ``"unused"``.
    heuristic: str = attrs.field(
        default="unused", validator=attrs.validators.in_(("required", "optional", "unused"))
    )
    #: Puzzle kinds it handles; empty means any :class:`Puzzle`.
    kinds: frozenset[str] = attrs.field(default=frozenset(), converter=_as_frozenset)
    #: Extra keyword options ``search`` accepts, with their defaults.
    options: Mapping[str, Any] = attrs.field(factory=dict)
    #: What each option accepts from a request lacak does not trust (the web API's):
    #: :class:`lacak.options.Accepts` by option name (see :func:`lacak.options.read_untrusted`).
    accepts: Mapping[str, Accepts] = attrs.field(
        factory=dict, validator=accepts_validator("options")
    )
    #: Whether it can split one search across the workers of an executor: ``search``
    #: then also takes ``executor`` (a :class:`concurrent.futures.Executor`) and
    #: ``workers`` (processes of lacak's own pool), as :func:`lacak.batch.iter_many`
    #: does. Only such searchers are given them (``lacak.solve(..., executor=...)``,
    #: ``lacak KIND solve --workers N | --scheduler ...``); the others refuse them.
    splits: bool = False
    #: Whether it climbs an :class:`Objective` (local search): ``search`` is then also
    #: given ``objective``, the puzzle's (:func:`lacak.choose` finds it).
    objective: bool = False

    def handles(self, puzzle: Any) -> bool:
        """Whether this searcher can search ``puzzle``."""
        return not self.kinds or getattr(puzzle, "kind", None) in self.kinds

    def __call__(
        self,
        puzzle: Puzzle,
        *,
        heuristic: Heuristic | None = None,
        limits: Limits | None = None,
        trace: SearchTrace | None = None,
        executor: concurrent.futures.Executor | None = None,
        workers: int | None = None,
        objective: Objective | None = None,
        **options: Any,
    ) -> SearchResult:
        """Search ``puzzle``, checking the arguments first and the result after.

        :param executor: split the search across this executor's workers (only for a
            searcher that :attr:`splits`).
        :param workers: split the search across this many processes of lacak's own pool
            (a worker that dies has its task run again), as :func:`lacak.batch.iter_many`.
        :param objective: for a local search (:attr:`objective`), the puzzle's
            :class:`Objective`; default: the puzzle's own ``objective`` attribute.
        :raises InvalidOptionError: an unknown option, a missing heuristic,
            ``heuristic``/``limits``/``trace`` of the wrong type, or an ``executor`` or
            ``workers`` for a searcher that does not split (or both at once).
        :raises InvalidPuzzleError: ``puzzle`` is not a :class:`Puzzle` (see
            :func:`check_puzzle`), the strategy does not handle its kind, or it needs an
            :class:`Objective` and has none.
        :raises OutOfMemoryError: the search ran out of memory (a ``MemoryError``
            inside it), saying which strategy and what to try.
        :raises PluginError: ``search`` returned something other than a
            :class:`~lacak.SearchResult`.
        """
        if limits is not None and not isinstance(limits, Limits):
            raise InvalidOptionError(
                f"limits must be a lacak.Limits (or None), not {type(limits).__name__}"
            )
        if heuristic is not None and not isinstance(heuristic, Heuristic):
            raise InvalidOptionError(
                f"heuristic must be a lacak.Heuristic (or None), not {type(heuristic).__name__} "
                "(lacak.solve also takes a name or a function)"
            )
        if trace is not None and not isinstance(trace, SearchTrace):
            raise InvalidOptionError(
                f"trace must be a lacak.SearchTrace (or None), not {type(trace).__name__}"
            )
        _check_options(options, self.options, f"strategy {self.name!r}")
        check_puzzle(puzzle, f"strategy {self.name!r}")
        if not self.handles(puzzle):
            raise InvalidPuzzleError(
                f"strategy {self.name!r} solves {', '.join(sorted(self.kinds))} puzzles, "
                f"not {getattr(puzzle, 'kind', type(puzzle).__name__)!r}"
            )
        if heuristic is None and self.heuristic == "required":
            raise InvalidOptionError(f"strategy {self.name!r} needs a heuristic")
        split = _split_args(self, executor, workers)
        if self.objective:
            split["objective"] = _objective_for(self, puzzle, objective)
        try:
            with quiet(), memory_guard(  # (no search writes lacak's output: lacak.streams)
                f"the search of strategy {self.name!r} (its open list, visited states or tables)",
                "set a node limit (--max-nodes), a smaller --max-depth, or use a strategy that "
                "keeps less (idastar keeps one path only)",
            ):
                result = self.search(
                    puzzle, heuristic=heuristic, limits=limits or UNLIMITED, trace=trace,
                    **split, **options,
                )
        finally:
            progress.search_done()
        if not isinstance(result, SearchResult):
            raise PluginError(
                f"strategy {self.name!r} returned {type(result).__name__}, not a SearchResult "
                "(a bug in the plugin that registered it)"
            )
        # Fill in what every result should say, so searchers need not repeat it.
        filled: dict[str, Any] = {}
        if not result.strategy:
            filled["strategy"] = self.name
        if not result.kind:
            filled["kind"] = puzzle.kind
        if result.heuristic is None and heuristic is not None:
            filled["heuristic"] = heuristic.spec
        if result.trace is None and trace is not None:
            filled["trace"] = trace
        return attrs.evolve(result, **filled) if filled else result


# States are whatever a puzzle says they are, so estimates take ``Any``.
Estimate = Callable[..., float]


def _kind_of(value: Any) -> str:
    """``a list``, ``None``: how a value of the wrong type is named in a message."""
    return "None" if value is None else f"{type(value).__name__} {reprlib.repr(value)}"


class BindableEstimate:
    """An ``estimate(puzzle, state, **options)`` that gives its own ``state -> estimate``
    for a puzzle (:meth:`bind`), as a third-party heuristic's checked estimate does
    (:class:`lacak.plugin.isolation.Estimate`): :meth:`Heuristic.for_puzzle` asks it."""

    __slots__ = ()

    def bind(self, puzzle: Any, options: Any) -> Callable[[Any], Any]:
        raise NotImplementedError


@attrs.frozen(kw_only=True)
class Heuristic:
    """An estimate of the remaining cost from a state to the goal.

    ``estimate(puzzle, state, **options)`` returns a number. A plugin that can
    do better than calling it per state gives ``prepare(puzzle, **options)``,
    which returns a one-argument function of the state (tables computed once
    per puzzle). ``options`` holds the parameters and their defaults; a
    configured copy comes from :meth:`configure`.

    Admissible heuristics never overestimate; consistent ones also satisfy
    ``h(s) <= cost(s, s') + h(s')`` for every step.
    """

    #: Name on the command line, unique within its ``kind``.
    name: str
    #: The puzzle kind it applies to (``"sliding"``, ``"maze"``, ...).
    kind: str
    #: ``estimate(puzzle, state, **options) -> number``.
    estimate: Estimate = attrs.field(repr=False)
    #: Never overestimates the true remaining cost.
    admissible: bool = False
    #: Never drops by more than the step cost along a step (implies admissible).
    consistent: bool = False
    #: One line for listings.
    description: str = ""
    #: ``prepare(puzzle, **options) -> (state -> number)``: the fast form.
    prepare: Callable[..., Callable[[Any], float]] | None = attrs.field(default=None, repr=False)
    #: Parameters with their defaults.
    options: Mapping[str, Any] = attrs.field(factory=dict)
    #: What each option accepts from a request lacak does not trust (the web API's):
    #: :class:`lacak.options.Accepts` by option name (see :func:`lacak.options.read_untrusted`).
    accepts: Mapping[str, Accepts] = attrs.field(
        factory=dict, validator=accepts_validator("options")
    )
    #: Custom parser for the text after ``name:``; default :func:`parse_options`.
    parse: Callable[[str], Mapping[str, Any]] | None = attrs.field(default=None, repr=False)
    #: Whether admissibility depends on the options (e.g. weights): ``options -> bool``,
    #: used by :meth:`configure` in place of ``admissible``.
    admissible_for: Callable[[Mapping[str, Any]], bool] | None = attrs.field(
        default=None, repr=False
    )
    #: The same for consistency (``options -> bool``, in place of ``consistent``);
    #: a configured heuristic is consistent only if it is also admissible.
    consistent_for: Callable[[Mapping[str, Any]], bool] | None = attrs.field(
        default=None, repr=False
    )

    @property
    def spec(self) -> str:
        """``name`` followed by the options that differ from nothing: a readable label."""
        if not self.options:
            return self.name
        return self.name + ":" + ",".join(f"{k}={v}" for k, v in self.options.items())

    def configure(self, text: str = "", **options: Any) -> Heuristic:
        """A copy with options set from ``"a=1,b=2"`` text and/or keywords.

        :raises InvalidOptionError: for an unknown option or a bad value.
        """
        values = dict(self.options)
        if text:
            values.update(
                self.parse(text)
                if self.parse
                else parse_options(text, self.options, what=f"heuristic {self.name!r}")
            )
        for key, value in options.items():
            if key not in self.options:
                raise InvalidOptionError(
                    f"heuristic {self.name!r} has no option {key!r} "
                    f"(options: {', '.join(self.options) or 'none'})"
                )
            values[key] = value
        admissible = self.admissible_for(values) if self.admissible_for else self.admissible
        consistent = self.consistent_for(values) if self.consistent_for else self.consistent
        return attrs.evolve(
            self,
            options=values,
            admissible=admissible,
            consistent=consistent and admissible,
        )

    def for_puzzle(self, puzzle: Any) -> Callable[[Any], float]:
        """A function ``state -> estimate`` for ``puzzle``.

        A third-party plugin's heuristic gives one that checks each estimate
        (:class:`lacak.plugin.isolation.Estimator`): a value that is not a finite number
        ``>= 0`` (``nan``, ``inf``, a negative number, a ``bool``, anything else)
        raises :class:`~lacak.PluginError` naming the plugin, which stops the search.
        """
        if self.prepare is not None:
            return self.prepare(puzzle, **self.options)
        if isinstance(self.estimate, BindableEstimate):  # one checked call per state
            return self.estimate.bind(puzzle, self.options)
        return functools.partial(self.estimate, puzzle, **self.options)

    def __call__(self, puzzle: Any, state: Hashable) -> float:
        return self.estimate(puzzle, state, **self.options)


@attrs.frozen(kw_only=True)
class Objective:
    """What local search needs of a kind: a value to climb (higher is better) and the
    states next to each state, declared in :attr:`PuzzleType.objective` and handed by
    :func:`lacak.choose` to a strategy that :attr:`~Searcher.objective` needs one (hill
    climbing, simulated annealing, local beam search, the genetic algorithm). States are
    *complete* states (every queen on the board), which need not be the puzzle's
    ``successors``' states. Only :attr:`value`, :attr:`neighbours` and
    :attr:`random_state` are required.

    >>> line = Objective(value=lambda x: -abs(x - 3), neighbours=lambda x: (x - 1, x + 1),
    ...                  random_state=lambda rng: rng.randrange(10), best=0)
    >>> line.score([5, 3]), line.reached(line.value(3))
    ([-2, 0], True)
    """

    #: ``value(state) -> float``: how good a state is; higher is better.
    value: Callable[[Any], float] = attrs.field(repr=False)
    #: ``neighbours(state) -> iterable of states``: every state one change away.
    neighbours: Callable[[Any], Iterable[Any]] = attrs.field(repr=False)
    #: ``random_state(rng) -> state``: a state drawn with ``rng`` (a :class:`random.Random`),
    #: for restarts and the first states of a beam or a population.
    random_state: Callable[[random.Random], Any] = attrs.field(repr=False)
    #: ``random_neighbour(state, rng) -> state``: one neighbour drawn without making them
    #: all (first-choice climbing, annealing); ``None``: one of :attr:`neighbours`.
    random_neighbour: Callable[[Any, random.Random], Any] | None = attrs.field(
        default=None, repr=False
    )
    #: ``values(states) -> sequence of floats``: many states valued at once, in order
    #: (compiled code scoring a batch); ``None``: :attr:`value` on each.
    values: Callable[[Sequence[Any]], Sequence[float]] | None = attrs.field(
        default=None, repr=False
    )
    #: The value of a goal (no attacking queens: 0): a search that reaches it stops, and
    #: its result is ``found``. ``None``: no known best; the search runs to its limits.
    best: float | None = None
    #: ``crossover(a, b, rng) -> state``: a child of two states (the genetic algorithm).
    crossover: Callable[[Any, Any, random.Random], Any] | None = attrs.field(
        default=None, repr=False
    )
    #: ``mutate(state, rng) -> state``: a random change (the genetic algorithm's
    #: mutation); ``None``: a random neighbour.
    mutate: Callable[[Any, random.Random], Any] | None = attrs.field(default=None, repr=False)
    #: The state the first climb (beam, population) starts from; ``None``: a random one.
    start: Any = None
    #: ``move(state, neighbour) -> action``: the action between them, for a result's
    #: ``actions``; ``None``: the neighbour itself.
    move: Callable[[Any, Any], Any] | None = attrs.field(default=None, repr=False)

    def score(self, states: Sequence[Any]) -> list[float]:
        """The values of ``states``, in order (:attr:`values`, else :attr:`value` on each).

        :raises PluginError: :attr:`values` gave a different number of values.
        """
        if self.values is None:
            return [self.value(state) for state in states]
        scores = list(self.values(states))
        if len(scores) != len(states):
            raise PluginError(
                f"an Objective's values() gave {len(scores)} values for {len(states)} states "
                "(a bug in the plugin that declared it)"
            )
        return scores

    def neighbour(self, state: Any, rng: random.Random) -> Any:
        """One neighbour of ``state`` drawn with ``rng`` (``None`` when it has none)."""
        if self.random_neighbour is not None:
            return self.random_neighbour(state, rng)
        near = list(self.neighbours(state))
        return rng.choice(near) if near else None

    def reached(self, value: float) -> bool:
        """Whether ``value`` is a goal's: at least :attr:`best` (never, when it is ``None``)."""
        return self.best is not None and value >= self.best


def _as_seed(seed: Any, what: str) -> int | None:
    """``None``, or the seed as an ``int`` (numpy integers too, not bools); refuse the rest."""
    if seed is None:
        return None
    try:
        if isinstance(seed, bool):
            raise TypeError
        value = operator.index(seed)
    except TypeError:
        value = -1
    if value < 0:
        raise InvalidOptionError(
            f"{what}: a seed is a non-negative integer (or None), got {_kind_of(seed)}"
        )
    return value


@attrs.frozen(kw_only=True)
class Generator:
    """Makes puzzle instances from a size and a seed.

    ``make(size, seed, **options)``: the same size, seed and options give the
    same instance on every machine.
    """

    #: The kind of instance it makes (``"maze"``, ``"sliding"``, ``"boggle"``).
    kind: str
    #: Algorithm name, unique within ``kind``.
    name: str
    #: ``make(size, seed, **options) -> instance``.
    make: Callable[..., Any] = attrs.field(repr=False)
    #: One line for listings.
    description: str = ""
    #: Extra keyword options ``make`` accepts, with their defaults.
    options: Mapping[str, Any] = attrs.field(factory=dict)
    #: What each option accepts from a request lacak does not trust (the web API's):
    #: :class:`lacak.options.Accepts` by option name (see :func:`lacak.options.read_untrusted`).
    accepts: Mapping[str, Accepts] = attrs.field(
        factory=dict, validator=accepts_validator("options")
    )
    #: Facts for listings and tests (``perfect``, ``uniform``, ``dead_ends``, ...).
    metadata: Mapping[str, Any] = attrs.field(factory=dict)

    def __call__(self, size: Any, seed: int | None = None, **options: Any) -> Any:
        """``make(size, seed, **options)``, with the seed and the options checked.

        The seed is checked here for every generator: ``None`` (``make`` picks one)
        or a non-negative integer. The size is each generator's own: ``make``
        refuses one it cannot use with an :class:`~lacak.InvalidOptionError`.

        :raises InvalidOptionError: a seed that is not ``None`` or a non-negative
            integer (a numpy integer is taken as an ``int``), or an option ``make`` does
            not take.
        :raises PluginError: ``make`` returned ``None``.
        """
        if seed is not None and (type(seed) is not int or seed < 0):  # (else: as it is)
            seed = _as_seed(seed, f"generator {self.name!r}")
        if options and not options.keys() <= self.options.keys():
            _check_options(options, self.options, f"generator {self.name!r}")
        instance = self.make(size, seed, **options)
        if instance is None:
            raise PluginError(
                f"generator {self.name!r} for {self.kind!r} made nothing (its make() "
                "returned None: a bug in the plugin that registered it)"
            )
        return instance


def _as_types(value: Any) -> tuple[type, ...]:
    types = (value,) if isinstance(value, type) else tuple(value)
    if not types or not all(isinstance(t, type) for t in types):
        raise PluginError(f"a PuzzleType's text_types must be types, got {reprlib.repr(value)}")
    return types


def _check_options(options: Mapping[str, Any], accepted: Mapping[str, Any], what: str) -> None:
    """Refuse keyword options that are not among ``accepted`` (listing those that are)."""
    if options.keys() <= accepted.keys():
        return
    unknown = sorted(set(options) - set(accepted))
    if unknown:
        raise InvalidOptionError(
            f"{what} takes no option {', '.join(map(repr, unknown))} "
            f"(its options: {', '.join(sorted(accepted)) or 'none'})"
        )


def _objective_for(searcher: Searcher, puzzle: Any, objective: Any) -> Objective:
    """The :class:`Objective` a local search climbs: the one given, else the puzzle's own."""
    objective = getattr(puzzle, "objective", None) if objective is None else objective
    if objective is None:
        raise InvalidPuzzleError(
            f"strategy {searcher.name!r} is a local search: it needs an objective (a state's "
            f"value and neighbours), and puzzle kind {puzzle.kind!r} declares none "
            "(PuzzleType.objective)"
        )
    if not isinstance(objective, Objective):
        raise InvalidOptionError(f"objective must be a lacak.Objective, not {_kind_of(objective)}")
    return objective


def _split_args(searcher: Searcher, executor: Any, workers: Any) -> dict[str, Any]:
    """The ``executor``/``workers`` keywords to give ``searcher.search``: none when neither
    is given (a searcher that does not split never sees them), else the one given,
    checked. This is the one place that decides who may split a search."""
    if executor is None and workers is None:
        return {}
    if executor is not None and workers is not None:
        raise InvalidOptionError("give workers or an executor, not both")
    if not searcher.splits:
        raise InvalidOptionError(
            f"strategy {searcher.name!r} runs in one process: it cannot split a search across "
            "workers (an executor, --workers or --scheduler)"
        )
    if workers is not None:
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise InvalidOptionError(
                f"workers must be a positive integer, got {reprlib.repr(workers)}"
            )
        return {"workers": workers}
    import concurrent.futures  # (slow to import: only when an executor is given)

    if not isinstance(executor, concurrent.futures.Executor):
        raise InvalidOptionError(
            "executor must be a concurrent.futures.Executor (a process or thread pool, "
            f"or a Dask client's get_executor()), not {type(executor).__name__}"
        )
    return {"executor": executor}


@attrs.frozen(kw_only=True)
class BatchKind:
    """How ``lacak batch KIND`` (and :mod:`lacak.batch.dataset`) make a kind's instances:
    what a puzzle kind declares in :attr:`PuzzleType.batch`. Every field is optional:
    a kind that declares nothing still gets batches of its generators' instances,
    recorded with their ``to_dict()`` (or their initial state's text) and solved
    with :func:`lacak.choose`'s choice when asked.

    A job of a batch makes one instance: the generator with the job's seed, then
    :attr:`prepare`, then (when solving) :attr:`puzzle` searched with the
    strategy :func:`lacak.choose` picks; its record is the JSON
    ``{"index", "seed", "ok", "instance", "result", "error"}`` (docs/batch.md),
    to which :attr:`record` has the last word. The functions run in the worker
    processes: they must be importable there (module-level functions of the
    plugin), and they should load what is heavy (a dictionary) through caches,
    so that each worker loads it once. A worker runs a chunk of jobs in two
    passes: generating, :attr:`prepare` and the search for each job first, then
    :attr:`instance` and :attr:`record` for each (so they see the instance
    after its search, which must leave it as it was).
    """

    #: The generator used unless ``-a`` (or :attr:`plan`) names another; ``None``:
    #: the kind's only generator, else ``-a`` is required.
    generator: str | None = None
    #: Whether jobs solve their instance unless told otherwise (``--solve/--no-solve``).
    solve: bool = False
    #: The kind's own options of ``lacak batch KIND``, with their defaults (``--NAME``,
    #: typed by the default as in ``lacak KIND solve``); given to every function below.
    options: Mapping[str, Any] = attrs.field(factory=dict)
    #: What each option accepts from a request lacak does not trust (the web API's):
    #: :class:`lacak.options.Accepts` by option name (see :func:`lacak.options.read_untrusted`).
    accepts: Mapping[str, Accepts] = attrs.field(
        factory=dict, validator=accepts_validator("options")
    )
    #: Help texts of :attr:`options`.
    help: Mapping[str, str] = attrs.field(factory=dict)
    #: Short flags of :attr:`options` (``{"dictionary": "-d"}``).
    flags: Mapping[str, str] = attrs.field(factory=dict)
    #: ``plan(**given) -> {"generator": name, "options": {...}, "solve": bool}`` (any of
    #: the keys): what the options given (not their defaults) say about the generator,
    #: its options and solving (``--uniform`` is the ``random`` generator). Runs once,
    #: before the jobs.
    plan: Callable[..., Mapping[str, Any]] | None = attrs.field(default=None, repr=False)
    #: ``prepare(instance, *, solve, **options) -> instance``: a generated instance made
    #: ready (a maze given its endpoints, a board its dictionary), or ``None`` to draw
    #: again with the next job's seed.
    prepare: Callable[..., Any] | None = attrs.field(default=None, repr=False)
    #: ``puzzle(instance) -> Puzzle``: what to search (default: the instance itself).
    puzzle: Callable[[Any], Any] | None = attrs.field(default=None, repr=False)
    #: ``instance(instance) -> JSON data``: the record's ``"instance"`` (default: the
    #: instance's ``to_dict()``, else its initial state's text, else ``str``).
    instance: Callable[[Any], Any] | None = attrs.field(default=None, repr=False)
    #: ``record(data, **options) -> data``: the kind's last word on a record's JSON
    #: (Boggle's ``--scores-only`` keeps only the counts).
    record: Callable[..., Mapping[str, Any]] | None = attrs.field(default=None, repr=False)
    #: Numbers the summary of a batch reports (mean, least, most): a label and the
    #: dotted path of the value in a record (``{"words": "result.boggle.count"}``); a
    #: list counts its items. ``length`` and ``expanded`` of solved instances are
    #: always reported.
    measures: Mapping[str, str] = attrs.field(factory=dict)
    #: The arrays of a ``.npz`` file of the batch: a name and the dotted path of the
    #: value in a record (``{"cells": "instance.cells"}``); values of different shapes
    #: are padded. A path ending with ``?`` is an array only some batches have (a maze's
    #: ``"instance.links?"``, on grids other than the rectangle): it is left out when no
    #: record holds it. A kind that declares none cannot be written as ``.npz``.
    arrays: Mapping[str, str] = attrs.field(factory=dict)


def _page_file(value: Any) -> str:
    """A file of a page, as a path relative to its folder (``"maze.js"``, ``"img/a.svg"``):
    parts joined by ``/``, none of them empty, hidden (``.``, ``..``, ``.x``) or holding
    a backslash, a colon or a NUL."""
    parts = value.split("/") if isinstance(value, str) else [""]
    if not all(part and part[0] != "." and not set(part) & set("\\:\0") for part in parts):
        raise PluginError(
            f"a Page's files are paths inside its folder like 'maze.js', got {reprlib.repr(value)}"
        )
    return str(value)


def _page_files(values: Iterable[str]) -> tuple[str, ...]:
    if isinstance(values, str):
        values = (values,)
    return tuple(_page_file(v) for v in values)


@attrs.frozen(kw_only=True)
class Page:
    """A kind's own page in ``lacak serve``: a folder of static files in an import package
    (the plugin's), declared in :attr:`PuzzleType.page`. A kind without one gets the
    generic page, made from its :class:`PuzzleType` alone.

    The web surface serves every file of the folder under ``/pages/KIND/`` (nothing
    outside it) and says in ``GET /api/kinds`` where the page's script and styles
    are; the pages' frame loads :attr:`script` as an ES module and calls its default
    export, ``async function (root, catalogue)``, with the element to fill and the
    kind's catalogue (``GET /api/kinds/KIND``). The script builds its page with the
    pages' shared helpers, ``/static/ui.js`` (the API, DOM helpers, option forms,
    search trees) and ``/static/generic.js`` (the generic page), and the shared
    stylesheet ``/static/app.css`` (docs/web.md, "A page of your own"). Ship the
    folder as package data, so that a wheel carries it.
    """

    #: The import package the folder is in (``"lacak_mazes"``).
    package: str
    #: The page's ES module, inside the folder (``"maze.js"``).
    script: str = attrs.field(converter=_page_file)
    #: The folder inside the package that holds the page's files (``"page"``).
    folder: str = attrs.field(default="page", converter=_page_file)
    #: Stylesheets inside the folder, loaded before the script runs and only while
    #: the page is shown (``("maze.css",)``).
    styles: tuple[str, ...] = attrs.field(default=(), converter=_page_files)
    #: The page's name in the pages' menu (``"Mazes"``; default the kind's name).
    title: str = ""


@attrs.frozen(kw_only=True)
class PuzzleType:
    """A kind of puzzle, and everything the core needs to take one from text to picture.

    The core owns the pipeline *parse → choose → solve → result → render*; a
    kind only declares its part of it, and :func:`lacak.parse`,
    :func:`lacak.choose`, :func:`lacak.solve`, :meth:`SearchResult.to_dict
    <lacak.SearchResult.to_dict>` and the ``lacak KIND solve`` command (built
    by :func:`lacak.cli.solve_command`, for a third-party kind too) follow it.
    Only ``kind`` and ``parse`` are required.

    ``parse(text, **options)`` builds a puzzle from its text form; calling the
    PuzzleType (as :func:`lacak.parse` does) checks the text's type and the
    options first. ``validate(instance)`` raises
    :class:`~lacak.InvalidPuzzleError` when an instance (say, a generated maze)
    breaks the kind's invariants; the generic generator contract tests call it
    on every generated instance.
    """

    #: The kind name (``"sliding"``, ``"maze"``, ``"boggle"``).
    kind: str
    #: ``parse(text, **options) -> puzzle``.
    parse: Callable[..., Any] = attrs.field(repr=False)
    #: One line for listings.
    description: str = ""
    #: ``validate(instance) -> None``, raising on a broken instance.
    validate: Callable[[Any], None] | None = attrs.field(default=None, repr=False)
    #: The keyword options ``parse`` accepts, with their defaults (none by default);
    #: ``lacak KIND solve`` offers each as ``--NAME`` (underscores become dashes).
    options: Mapping[str, Any] = attrs.field(factory=dict)
    #: What each option accepts from a request lacak does not trust (the web API's):
    #: :class:`lacak.options.Accepts` by option name (see :func:`lacak.options.read_untrusted`).
    accepts: Mapping[str, Accepts] = attrs.field(
        factory=dict, validator=accepts_validator("options", "solve_options", "render_options")
    )
    #: The types ``parse`` takes as text (``str``; a kind may add ``bytes``).
    text_types: tuple[type, ...] = attrs.field(default=(str,), converter=_as_types)
    #: What the command line's PUZZLE argument is: ``"text"`` (the puzzle itself,
    #: ``-`` for standard input) or ``"file"`` (a file holding it, ``-`` for standard input).
    reads: str = attrs.field(default="text", validator=attrs.validators.in_(("text", "file")))
    #: ``choose(puzzle, heuristic, registry) -> (strategy, heuristic)``: the names of the
    #: best strategy for this instance and the heuristic it should use (``None`` for
    #: none); ``heuristic`` is the one the user asked for, or ``None``. See
    #: :func:`lacak.choose`, the one place defaults are decided.
    choose: Callable[[Any, str | None, Any], tuple[str, str | None]] | None = attrs.field(
        default=None, repr=False
    )
    #: ``render(puzzle, result, format, **render_options) -> str | bytes``: a picture
    #: of the puzzle (``result`` ``None``) or of its solution, in one of :attr:`formats`.
    render: Callable[..., str | bytes] | None = attrs.field(default=None, repr=False)
    #: Whether :attr:`render`'s ``"text"`` picture of a result is the whole report of a
    #: solve, found or not (a Boggle board with its words): ``lacak KIND solve`` then
    #: prints it in place of its own "found: N moves" lines, adding only the hint and
    #: the node counts.
    text_report: bool = False
    #: The formats :attr:`render` draws, ``"text"`` first (``"svg"``, ``"png"``, ...).
    formats: tuple[str, ...] = attrs.field(default=("text",), converter=_as_str_tuple)
    #: Options of :attr:`render` with their defaults (``lacak KIND solve --NAME``).
    render_options: Mapping[str, Any] = attrs.field(factory=dict)
    #: Searcher options the command line offers as their own flags (``--NAME``),
    #: with their defaults: ``{"all_paths": False}``. Every other searcher option
    #: is given with ``-O KEY=VALUE``.
    solve_options: Mapping[str, Any] = attrs.field(factory=dict)
    #: ``extras(puzzle, result) -> dict``: the kind's own keys of a result's JSON,
    #: under one named key (``{"maze": {...}}``); never one of the common keys.
    extras: Callable[[Any, Any], Mapping[str, Any]] | None = attrs.field(default=None, repr=False)
    #: ``advice(puzzle, result) -> str | None``: what would help when a limit stopped
    #: a search ("use a pattern-database heuristic: -H pdb-663").
    advice: Callable[[Any, Any], str | None] | None = attrs.field(default=None, repr=False)
    #: Help texts of :attr:`options`, :attr:`solve_options` and :attr:`render_options`.
    help: Mapping[str, str] = attrs.field(factory=dict)
    #: Short flags of declared options on the command line: ``{"dictionary": "-d"}``
    #: makes ``-d`` mean ``--dictionary`` (never one of the flags every solve command has).
    flags: Mapping[str, str] = attrs.field(factory=dict)
    #: An example puzzle in text form (help texts, pages, tests).
    example: str = ""
    #: ``to_text(instance) -> str``: the text form of an instance (one a generator
    #: made), which ``parse`` reads back; see :func:`lacak.puzzle_text`.
    to_text: Callable[[Any], str] | None = attrs.field(default=None, repr=False)
    #: How ``lacak batch KIND`` makes and records the kind's instances (``None``: the
    #: generic way, see :class:`BatchKind`).
    batch: BatchKind | None = None
    #: The kind's verified tasks with difficulty levels (:class:`lacak.tasks.TaskKind`
    #: records), which :func:`lacak.tasks.create_dataset` assembles.
    tasks: tuple[Any, ...] = attrs.field(default=(), converter=_as_tuple)
    #: Its Gymnasium environment's parts (a :class:`lacak.gym.GymKind`; ``None``: the
    #: generic env over its successors), which :mod:`lacak.gym` assembles.
    gym: Any = None
    #: The kind's own page in ``lacak serve`` (``None``: the generic page), see :class:`Page`.
    page: Page | None = None
    #: ``objective(puzzle) -> Objective``: what local search climbs on an instance;
    #: ``None``: none, and local search refuses the kind (:func:`lacak.objective_of`).
    objective: Callable[[Any], Objective] | None = attrs.field(default=None, repr=False)

    @property
    def name(self) -> str:
        """Puzzle types are catalogued by kind."""
        return self.kind

    def __call__(self, text: Any, **options: Any) -> Any:
        """``parse(text, **options)``, with the type of ``text`` and the options checked.

        :raises InvalidPuzzleError: ``text`` is not one of :attr:`text_types`.
        :raises InvalidOptionError: an option ``parse`` does not take (the message
            lists those it does).
        """
        if not isinstance(text, self.text_types):
            expected = " or ".join(t.__name__ for t in self.text_types)
            raise InvalidPuzzleError(
                f"a {self.kind} puzzle is read from {expected}, not {_kind_of(text)}"
            )
        _check_options(options, self.options, f"puzzle kind {self.kind!r}")
        return self.parse(text, **options)


@attrs.frozen(kw_only=True)
class DictionarySource:
    """A dictionary that can be loaded on demand.

    Listing dictionaries reads only these records; ``load()`` reads the words.
    """

    #: Name used to look it up.
    name: str
    #: ``load() -> Dictionary``.
    load: Callable[[], Any] = attrs.field(repr=False)
    #: BCP 47 language tag, if known without loading.
    language: str = ""
    #: One line for listings (source, word count, ...).
    description: str = ""
    #: The file it is read from, if any.
    path: str | None = None
    #: How many words it holds, when known without loading it (``None``: unknown);
    #: ``lacak dictionaries list`` loads only the dictionaries that do not say.
    count: int | None = None


def __getattr__(name: str) -> Any:
    """``lacak.interfaces.Dictionary``, the old re-export (deprecated: it is
    :class:`lacak.Dictionary`, defined in :mod:`lacak.words`)."""
    if name != "Dictionary":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warnings.warn(
        "lacak.interfaces.Dictionary is deprecated: it is lacak.Dictionary, defined in "
        "lacak.words (the old name goes in the next release)",
        DeprecationWarning,
        stacklevel=2,
    )
    # imported by name, not by an import statement: the kernel imports no folder of lacak
    return importlib.import_module("lacak.words").Dictionary
