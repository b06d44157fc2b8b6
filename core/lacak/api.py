"""The public facade: solve, generate, and list what the plugins registered.

Every function takes an optional ``registry``; by default the process-wide
one, with the installed plugins loaded, is used.
"""

from __future__ import annotations

import functools
import inspect
import numbers
import reprlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

if TYPE_CHECKING:
    import concurrent.futures

from .drawing import Picture
from .errors import (
    InvalidOptionError,
    InvalidPuzzleError,
    LacakError,
    PluginError,
    UnknownComponentError,
)
from .interfaces import (
    DictionarySource,
    Generator,
    Heuristic,
    Objective,
    Puzzle,
    PuzzleType,
    Searcher,
    check_puzzle,
    describe_state,
)
from .limits import Limits
from .plugin.loader import PluginFailure, PluginInfo
from .plugin.registry import Catalogue, Registry, default_registry
from .results import SearchResult
from .trace import SearchTrace
from .words import Dictionary

__all__ = [
    "NO_HEURISTIC",
    "Choice",
    "choose",
    "dictionaries",
    "dictionary",
    "generate",
    "generators",
    "heuristics",
    "objective_of",
    "parse",
    "picture",
    "plugin_failures",
    "plugins",
    "puzzle_text",
    "resolve_heuristic",
    "result_json",
    "searchers",
    "solve",
]

HeuristicLike = str | Heuristic | Callable[[Any, Any], float] | None


def _registry(registry: Registry | None) -> Registry:
    if registry is None:
        return default_registry()
    if not isinstance(registry, Registry):
        raise InvalidOptionError(
            f"registry must be a lacak.Registry (or None), not {type(registry).__name__}"
        )
    return registry


#: What a plugin's code raises when input it should have refused reaches it: the
#: facade's last guard reports it as that plugin's bug (docs/api.md, "Bad input").
_PLUGIN_SLIPS = (TypeError, ValueError, AttributeError, LookupError, ArithmeticError)


class _PluginGuard:
    """Turn an error a plugin let slip into a :class:`PluginError` naming the plugin.

    A :class:`LacakError` passes through unchanged; anything in :data:`_PLUGIN_SLIPS`
    becomes a ``PluginError`` (caused by the original, so the traceback stays).
    A class, not a generator context manager: a batch enters it once a job.

    :param what: what was being done, for the message: a template of ``{name!r}``
        and ``{kind!r}``, filled in only when there is an error to report (as the
        plugin is looked up).
    :param catalogue: the catalogue the component came from, and ``name`` its name there.
    """

    __slots__ = ("catalogue", "kind", "name", "template")

    def __init__(self, what: str, catalogue: Catalogue[Any], name: str, kind: str = "") -> None:
        self.template = what
        self.catalogue = catalogue
        self.name = name
        self.kind = kind

    @property
    def what(self) -> str:
        return self.template.format(name=self.name, kind=self.kind)

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: Any, error: BaseException | None, trace: Any) -> None:
        if error is not None:
            self.check(error)

    def check(self, error: BaseException) -> None:
        """Raise the :class:`PluginError` ``error`` becomes, if it is a slip (else
        return, and the caller raises ``error`` as it is)."""
        if isinstance(error, _PLUGIN_SLIPS) and not isinstance(error, LacakError):
            plugin = self.catalogue.owner(self.name)
            raise PluginError(
                f"{self.what} failed with {type(error).__name__}: {error} (a bug in plugin "
                f"{plugin!r}: bad input should be refused with a lacak.InvalidOptionError "
                "or InvalidPuzzleError)"
            ) from error


def resolve_heuristic(
    puzzle: Any, heuristic: HeuristicLike, *, registry: Registry | None = None
) -> Heuristic | None:
    """Turn a name spec (``"weighted:w1=1,w2=2"``), a function or a Heuristic into a Heuristic.

    A plain function ``f(puzzle, state) -> number`` is wrapped as a
    non-admissible heuristic named after the function. It is checked once: it
    must take two arguments and return a real number for the puzzle's initial
    state (one call); what it raises is its own and passes through.

    :raises InvalidOptionError: not a name, a Heuristic or a function; a function
        that does not take ``(puzzle, state)`` or does not return a number.
    :raises InvalidPuzzleError: a name, but the puzzle has no ``kind``.
    :raises UnknownComponentError: no heuristic of that name for the puzzle's kind.
    """
    if heuristic is None or isinstance(heuristic, Heuristic):
        return heuristic
    if isinstance(heuristic, str):
        kind = getattr(puzzle, "kind", None)
        if not kind:
            raise InvalidPuzzleError("the puzzle has no 'kind', so no named heuristic applies")
        return _registry(registry).heuristic(kind, heuristic)
    if callable(heuristic):
        _check_function(heuristic, puzzle)
        return Heuristic(
            name=getattr(heuristic, "__name__", "custom"),
            kind=getattr(puzzle, "kind", ""),
            estimate=heuristic,
        )
    raise InvalidOptionError(
        f"a heuristic must be a name, a Heuristic or a function, not {heuristic!r}"
    )


def _check_function(function: Callable[..., Any], puzzle: Any) -> None:
    """Check once that a heuristic function is ``f(puzzle, state) -> number``.

    Its signature must take two arguments, and on the puzzle's initial state (when
    it has one) it must return a real number: the one call made here. What it
    raises is its author's and passes through.
    """
    name = getattr(function, "__name__", type(function).__name__)
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):  # no signature to read (some builtins)
        pass
    else:
        try:
            signature.bind(None, None)
        except TypeError:
            raise InvalidOptionError(
                f"a heuristic function is called f(puzzle, state); {name}{signature} cannot be"
            ) from None
    if not hasattr(puzzle, "initial"):
        return
    value = function(puzzle, puzzle.initial)
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or value != value:
        raise InvalidOptionError(
            f"a heuristic function returns a number; {name} returned {value!r} "
            "for the initial state"
        )


@attrs.frozen(kw_only=True)
class Choice:
    """What :func:`choose` decided: the searcher, the heuristic, and who decided."""

    #: The strategy that will search.
    searcher: Searcher
    #: The heuristic it will use, or ``None``.
    heuristic: Heuristic | None
    #: Who picked the strategy: ``"caller"``, ``"kind"`` (the puzzle kind's
    #: ``choose``), ``"puzzle"`` (its ``default_strategy``) or ``"default"``.
    strategy_from: str
    #: Who picked the heuristic: ``"caller"``, ``"kind"``, ``"puzzle"`` or ``"none"``.
    heuristic_from: str
    #: What people should know about the choice (a heuristic the strategy ignores).
    notes: tuple[str, ...] = ()
    #: The :class:`~lacak.Objective` a local search climbs (``None`` for a strategy that
    #: uses none): the caller's, or the puzzle's (:func:`objective_of`).
    objective: Objective | None = None

    @property
    def label(self) -> str:
        """``idastar-tiles + pdb-663``: the strategy and heuristic, as shown to people."""
        return self.searcher.name + (f" + {self.heuristic.spec}" if self.heuristic else "")


#: The heuristic spec that asks for no heuristic at all (``--heuristic none``).
NO_HEURISTIC = "none"


def _puzzle_type(reg: Registry, kind: str) -> PuzzleType | None:
    return reg.puzzle_types().get(kind)


def _searcher_for(reg: Registry, puzzle: Any, strategy: str | Searcher) -> Searcher:
    """The searcher named ``strategy``; an unknown name lists only those for this kind."""
    if isinstance(strategy, Searcher):
        return strategy
    catalogue = reg.searchers()
    if strategy not in catalogue:
        applicable = [name for name, s in catalogue.items() if s.handles(puzzle)]
        raise UnknownComponentError(
            "strategy", strategy, applicable, where=f"for {puzzle.kind} puzzles"
        )
    return catalogue[strategy]


def objective_of(puzzle: Any, *, registry: Registry | None = None) -> Objective:
    """The :class:`~lacak.Objective` local search climbs on ``puzzle``: its kind's
    (:attr:`PuzzleType.objective <lacak.PuzzleType.objective>`), or, for a puzzle of no
    registered kind, its own ``objective`` attribute.

    >>> import lacak
    >>> lacak.objective_of(lacak.parse("sliding", "123405786"))
    Traceback (most recent call last):
    ...
    lacak.errors.InvalidPuzzleError: puzzle kind 'sliding' declares no objective (a state's \
value and neighbours: PuzzleType.objective), which local search needs

    :raises InvalidPuzzleError: neither the kind nor the puzzle declares one (the message
        names the kind).
    :raises PluginError: the kind's ``objective`` gave something other than an Objective.
    """
    check_puzzle(puzzle, "an objective")
    catalogue = _registry(registry).puzzle_types()
    kind_type = catalogue.get(puzzle.kind)
    if kind_type is not None and kind_type.objective is not None:
        with _PluginGuard("the objective of a {name!r} puzzle", catalogue, puzzle.kind):
            found = kind_type.objective(puzzle)
        if not isinstance(found, Objective):
            raise PluginError(
                f"puzzle kind {puzzle.kind!r} gave {type(found).__name__} as its objective, "
                f"not a lacak.Objective (a bug in plugin {catalogue.owner(puzzle.kind)!r})"
            )
        return found
    own = getattr(puzzle, "objective", None)
    if isinstance(own, Objective):
        return own
    raise InvalidPuzzleError(
        f"puzzle kind {puzzle.kind!r} declares no objective (a state's value and "
        "neighbours: PuzzleType.objective), which local search needs"
    )


def choose(
    puzzle: Puzzle,
    strategy: str | Searcher | None = None,
    heuristic: HeuristicLike = None,
    *,
    registry: Registry | None = None,
    objective: Objective | None = None,
) -> Choice:
    """Decide which strategy and heuristic solve ``puzzle``: the one place defaults live.

    :func:`solve` and every ``lacak KIND solve`` command call it, so the
    library and the command line always choose the same.

    1. A ``strategy`` given is used. Otherwise the puzzle kind's
       :attr:`PuzzleType.choose <lacak.PuzzleType.choose>` picks the best one for
       this instance (for sliding boards, the tiles searchers); a puzzle without a
       registered kind may name one in a ``default_strategy`` attribute; else
       ``astar`` when a heuristic is given, ``bfs`` when not.
    2. A ``heuristic`` given is used (``"none"`` for none). Otherwise a strategy
       that uses one gets the kind's choice (the strongest affordable one), else
       the puzzle's ``default_heuristic`` attribute.
    3. A local search strategy (one whose :attr:`~lacak.Searcher.objective` is set) gets
       the ``objective`` given, else the puzzle's (:func:`objective_of`).

    :param heuristic: a name with options, a :class:`~lacak.Heuristic`, a function
        ``(puzzle, state) -> number``, ``"none"``, or ``None`` to let the kind choose.
    :param objective: the :class:`~lacak.Objective` a local search climbs (``None``: the
        puzzle's); ignored by a strategy that uses none.
    :raises UnknownComponentError: an unknown strategy (the message lists those
        that solve this kind of puzzle) or heuristic.
    :raises InvalidOptionError: ``"none"`` for a strategy that needs a heuristic. (A
        heuristic given to a strategy that uses none is dropped, with a note in
        :attr:`Choice.notes`.)
    :raises InvalidPuzzleError: ``puzzle`` is not a Puzzle, the strategy does
        not solve its kind, or it is a local search and the puzzle has no objective.

    >>> import lacak
    >>> choice = lacak.choose(lacak.parse("sliding", "123405786"))
    >>> choice.label, choice.strategy_from
    ('idastar-tiles + manhattan', 'kind')
    """
    check_puzzle(puzzle, "lacak.choose")
    if strategy is not None and not isinstance(strategy, (str, Searcher)):
        raise InvalidOptionError(
            f"strategy must be a name or a lacak.Searcher, not {type(strategy).__name__}"
        )
    reg = _registry(registry)
    kind_type = _puzzle_type(reg, puzzle.kind)
    asked = heuristic.spec if isinstance(heuristic, Heuristic) else heuristic
    asked_name = asked if isinstance(asked, str) and asked != NO_HEURISTIC else None
    kind_pick: tuple[str, str | None] | None = None
    if kind_type is not None and kind_type.choose is not None:
        kind_pick = kind_type.choose(puzzle, asked_name, reg)
    if strategy is not None:
        strategy_from = "caller"
    elif kind_pick is not None:
        strategy, strategy_from = kind_pick[0], "kind"
    elif getattr(puzzle, "default_strategy", None):
        strategy, strategy_from = puzzle.default_strategy, "puzzle"  # type: ignore[attr-defined]
    else:
        strategy = "astar" if heuristic is not None and asked != NO_HEURISTIC else "bfs"
        strategy_from = "default"
    searcher = _searcher_for(reg, puzzle, strategy)
    if not searcher.handles(puzzle):
        applicable = sorted(name for name, s in reg.searchers().items() if s.handles(puzzle))
        raise InvalidPuzzleError(
            f"strategy {searcher.name!r} solves {', '.join(sorted(searcher.kinds))} puzzles, "
            f"not {puzzle.kind!r}; for {puzzle.kind!r}: {', '.join(applicable) or 'none'}"
        )
    chosen: Heuristic | None = None
    heuristic_from = "none"
    notes: list[str] = []
    if asked == NO_HEURISTIC:
        if searcher.heuristic == "required":
            raise InvalidOptionError(f"strategy {searcher.name!r} needs a heuristic")
    elif heuristic is not None:
        chosen, heuristic_from = resolve_heuristic(puzzle, heuristic, registry=reg), "caller"
        if searcher.heuristic == "unused" and chosen is not None:
            notes.append(
                f"strategy {searcher.name!r} does not use a heuristic; {chosen.spec!r} is ignored"
            )
            chosen, heuristic_from = None, "none"
    elif searcher.heuristic != "unused":
        if kind_pick is not None and kind_pick[1]:
            chosen = resolve_heuristic(puzzle, kind_pick[1], registry=reg)
            heuristic_from = "kind"
        elif getattr(puzzle, "default_heuristic", None):
            default = puzzle.default_heuristic  # type: ignore[attr-defined]
            chosen, heuristic_from = resolve_heuristic(puzzle, default, registry=reg), "puzzle"
    if not searcher.objective:
        objective = None
    elif objective is None:
        objective = objective_of(puzzle, registry=reg)
    elif not isinstance(objective, Objective):
        raise InvalidOptionError(
            f"objective must be a lacak.Objective (or None), not {type(objective).__name__}"
        )
    return Choice(
        searcher=searcher,
        heuristic=chosen,
        strategy_from=strategy_from,
        heuristic_from=heuristic_from,
        notes=tuple(notes),
        objective=objective,
    )


def solve(
    puzzle: Puzzle,
    strategy: str | Searcher | None = None,
    *,
    heuristic: HeuristicLike = None,
    limits: Limits | None = None,
    trace: bool | SearchTrace = False,
    registry: Registry | None = None,
    executor: concurrent.futures.Executor | None = None,
    workers: int | None = None,
    objective: Objective | None = None,
    **options: Any,
) -> SearchResult:
    """Search ``puzzle``, with the strategy and heuristic :func:`choose` decides.

    :param puzzle: any :class:`~lacak.Puzzle`.
    :param strategy: a strategy name (see :func:`searchers`) or a
        :class:`~lacak.Searcher`; default: the best one for this puzzle, as
        :func:`choose` decides (``lacak KIND solve`` decides the same).
    :param heuristic: a name with options (``"manhattan"``, ``"weighted:1,2"``),
        a :class:`~lacak.Heuristic`, a function ``(puzzle, state) -> number``, or
        ``"none"``; default: the kind's choice, for a strategy that uses one.
    :param limits: bounds on the search.
    :param trace: ``True`` (or a :class:`~lacak.SearchTrace`) records the search tree
        into ``result.trace``.
    :param executor: split the search across the workers of this
        :class:`concurrent.futures.Executor` (a process pool, a thread pool, a Dask
        client's ``get_executor()``, :func:`lacak.batch.dataset.dask_executor`'s): only
        strategies that :attr:`~lacak.Searcher.splits` take one (``idastar-tiles``);
        the result is the one-process search's, counts included (docs/split.md).
    :param workers: split the search across this many processes of lacak's own pool
        (a worker that dies has its tasks run again); not with ``executor``.
    :param objective: for a local search (``hill-climbing``, ...), the
        :class:`~lacak.Objective` to climb; default: the puzzle's (:func:`objective_of`).
    :param options: strategy options (see ``Searcher.options``).
    :returns: the :class:`~lacak.SearchResult`; check ``result.found``.
    :raises UnknownComponentError: unknown strategy or heuristic name.
    :raises InvalidPuzzleError: ``puzzle`` is not a :class:`~lacak.Puzzle`: the
        message names what it lacks (see :func:`~lacak.check_puzzle`).
    :raises InvalidOptionError: a bad option, or an argument of the wrong type
        (a ``strategy`` that is not a name or a Searcher, ``limits`` that are
        not a :class:`~lacak.Limits`, ...); an ``executor`` or ``workers`` for a
        strategy that does not split (the message names those that do).

    The puzzle is checked once, before the search; what its own methods (or a
    heuristic function you pass) raise during the search passes through unchanged.

    .. rubric:: Examples

    >>> import lacak
    >>> puzzle = lacak.parse("sliding", "123405786")
    >>> lacak.solve(puzzle, "astar", heuristic="manhattan").actions
    ('R', 'D')
    """
    if limits is not None and not isinstance(limits, Limits):
        raise InvalidOptionError(
            f"limits must be a lacak.Limits (or None), not {type(limits).__name__}"
        )
    if not isinstance(trace, (bool, SearchTrace)):
        raise InvalidOptionError(
            f"trace must be True, False or a lacak.SearchTrace, not {type(trace).__name__}"
        )
    check_puzzle(puzzle, "lacak.solve")
    choice = choose(puzzle, strategy, heuristic, registry=registry, objective=objective)
    if choice.objective is not None:
        options = {**options, "objective": choice.objective}
    if executor is not None or workers is not None:
        check_splits(choice.searcher, puzzle, registry=registry)
        options = {**options, "executor": executor, "workers": workers}
    recorder: SearchTrace | None
    if trace is True:
        recorder = SearchTrace(describe=functools.partial(describe_state, puzzle))
    else:
        recorder = trace or None
    return choice.searcher(
        puzzle, heuristic=choice.heuristic, limits=limits, trace=recorder, **options
    )


def check_splits(searcher: Searcher, puzzle: Any, *, registry: Registry | None = None) -> None:
    """Refuse to split a search across workers with a searcher that cannot, naming those
    that can for this puzzle (what ``lacak.solve(executor=...)`` and ``--workers`` /
    ``--scheduler`` check first).

    :raises InvalidOptionError: ``searcher`` does not :attr:`~lacak.Searcher.splits`.
    """
    if searcher.splits:
        return
    able = sorted(n for n, s in _registry(registry).searchers().items()
                  if s.splits and s.handles(puzzle))  # fmt: skip
    raise InvalidOptionError(
        f"strategy {searcher.name!r} runs in one process: it cannot split a search across "
        f"workers; for {getattr(puzzle, 'kind', 'this')!r} puzzles, "
        + (f"strategies that can: {', '.join(able)}" if able else "no strategy can")
    )


def generate(
    kind: str,
    algorithm: str,
    size: Any = None,
    *,
    seed: int | None = None,
    registry: Registry | None = None,
    **options: Any,
) -> Any:
    """Make an instance with a registered generator.

    :param kind: ``"maze"``, ``"sliding"``, ``"boggle"``, ... (see :func:`generators`).
    :param algorithm: the generator's name within ``kind``.
    :param size: the generator's size argument (e.g. ``(rows, cols)``).
    :param seed: the same seed gives the same instance everywhere: ``None`` (one is
        picked) or a non-negative integer.
    :param options: the generator's options (see ``Generator.options``).
    :raises UnknownComponentError: unknown kind or algorithm.
    :raises InvalidOptionError: a size the generator cannot make, a seed that is not
        ``None`` or a non-negative integer, an option it does not take or a bad value.
    :raises PluginError: the generator failed in a way it should not (a bug in its
        plugin; the message names the plugin).
    """
    return _BoundGenerator(kind, algorithm, options, registry=registry)(size, seed)


class _BoundGenerator:
    """A registered generator with its options: ``bound(size, seed)`` is
    ``generate(kind, algorithm, size, seed=seed, **options)``, looked up once (what a
    batch calls once a job; :func:`generate` makes one for each call).

    :raises UnknownComponentError: unknown kind or algorithm.
    """

    __slots__ = ("generator", "guard", "options")

    def __init__(
        self, kind: str, algorithm: str, options: Mapping[str, Any], *,
        registry: Registry | None = None,
    ) -> None:  # fmt: skip
        catalogue = _registry(registry).generators(kind)
        self.generator = catalogue[algorithm]
        self.guard = _PluginGuard("generator {name!r} for {kind!r}", catalogue, algorithm, kind)
        self.options = options

    def __call__(self, size: Any, seed: int | None) -> Any:
        """The instance (raises as :func:`generate`)."""
        try:
            return self.generator(size, seed, **self.options)
        except Exception as error:  # (the guard's work, without entering it every call)
            self.guard.check(error)
            raise


def parse(kind: str, text: str, *, registry: Registry | None = None, **options: Any) -> Any:
    """Read a puzzle of ``kind`` from its text form (``parse("sliding", "123450786")``).

    :param text: the puzzle's text (a ``str``, or what the kind's ``text_types`` allow).
    :param options: the kind's options (see ``PuzzleType.options``).
    :raises UnknownComponentError: unknown kind.
    :raises InvalidPuzzleError: ``text`` of the wrong type, or text that is not a
        puzzle of ``kind``.
    :raises InvalidOptionError: an option the kind does not take (the message lists
        those it does) or a bad value.
    :raises PluginError: the kind's parser failed in a way it should not (a bug in
        its plugin; the message names the plugin).
    """
    catalogue = _registry(registry).puzzle_types()
    puzzle_type = catalogue[kind]
    with _PluginGuard("parsing a {name!r} puzzle", catalogue, kind):
        return puzzle_type(text, **options)


def picture(
    puzzle: Any, result: SearchResult | None = None, *, registry: Registry | None = None,
    **options: Any,
) -> Picture:  # fmt: skip
    """A picture of ``puzzle``, or of ``result``'s path on it, drawn by the puzzle's kind
    (its :attr:`PuzzleType.render <lacak.PuzzleType.render>`, as ``lacak KIND solve -o
    FILE.svg`` draws it): in a notebook it shows as SVG; ``.svg()``, ``.png()`` and
    ``.save(path)`` give it as a file's contents.

    >>> import lacak
    >>> puzzle = lacak.parse("sliding", "123405786")
    >>> solved = lacak.picture(puzzle, lacak.solve(puzzle, "bfs"))
    >>> solved.svg().startswith("<svg"), solved.png()[:4]
    (True, b'\\x89PNG')

    :param result: the result of solving ``puzzle`` (``None``: the puzzle alone).
    :param options: the kind's picture options (``PuzzleType.render_options``: a maze's
        ``cell_size``, ...).
    :raises InvalidPuzzleError: ``puzzle`` has no ``kind``.
    :raises UnknownComponentError: an unknown kind.
    :raises InvalidOptionError: the kind draws no picture, or an option it does not take.
    :raises PluginError: the kind's renderer failed in a way it should not (a bug in its
        plugin), when the picture is drawn.
    """
    kind = getattr(puzzle, "kind", None)
    if not isinstance(kind, str) or not kind:
        raise InvalidPuzzleError(
            f"a picture needs the puzzle's kind; {reprlib.repr(puzzle)} has none"
        )
    catalogue = _registry(registry).puzzle_types()
    kind_type = catalogue[kind]
    render = kind_type.render
    formats = tuple(f for f in kind_type.formats if f in ("svg", "png", "text"))
    if render is None or not {"svg", "png"} & set(formats):
        raise InvalidOptionError(f"puzzle kind {kind!r} draws no pictures")
    unknown = sorted(set(options) - set(kind_type.render_options))
    if unknown:
        raise InvalidOptionError(
            f"{kind} pictures take no option {', '.join(map(repr, unknown))} (their "
            f"options: {', '.join(sorted(kind_type.render_options)) or 'none'})"
        )

    def draw(format: str) -> Any:
        with _PluginGuard("drawing a {name!r} puzzle", catalogue, kind):
            return render(puzzle, result, format, full=True, **options)

    shown = "solution" if result is not None and result.found else "puzzle"
    return Picture(draw, formats, f"{kind} {shown}")


def puzzle_text(instance: Any, *, kind: str | None = None, registry: Registry | None = None) -> str:
    """The text form of a puzzle instance, which ``lacak.parse(kind, text)`` reads back.

    For an instance a generator made (a maze, a shaken Boggle board) this is
    what a page or a script shows, stores and sends back to be solved. The
    kind's :attr:`PuzzleType.to_text <lacak.PuzzleType.to_text>` decides when it
    declares one; otherwise the instance's own ``to_text()`` (a Boggle board's
    rows) or ``to_json()`` (a maze's JSON) method.

    >>> import lacak
    >>> board = lacak.generate("boggle", "classic4", seed=1)
    >>> lacak.parse("boggle", lacak.puzzle_text(board)) == board
    True

    :param kind: the instance's kind (default: its ``kind`` attribute).
    :raises InvalidPuzzleError: no kind, or neither the kind nor the instance gives a
        text form (for a puzzle whose text is its initial state, use
        :func:`~lacak.describe_state`).
    :raises UnknownComponentError: an unknown kind.
    :raises PluginError: the kind's ``to_text`` (or the instance's method) failed or
        gave something other than a string (a bug in the plugin).
    """
    kind = kind if kind is not None else getattr(instance, "kind", None)
    if not isinstance(kind, str) or not kind:
        raise InvalidPuzzleError(
            f"puzzle_text needs the instance's kind; {reprlib.repr(instance)} has none"
        )
    catalogue = _registry(registry).puzzle_types()
    kind_type = catalogue[kind]
    writer: Callable[[], Any] | None = None
    if kind_type.to_text is not None:
        writer = functools.partial(kind_type.to_text, instance)
    else:
        for method in ("to_text", "to_json"):
            if callable(getattr(instance, method, None)):
                writer = getattr(instance, method)
                break
    if writer is None:
        raise InvalidPuzzleError(
            f"puzzle kind {kind!r} gives no text form of {type(instance).__name__} instances "
            "(PuzzleType.to_text, or a to_text() or to_json() method)"
        )
    with _PluginGuard("writing a {name!r} puzzle as text", catalogue, kind):
        text = writer()
    if not isinstance(text, str):
        raise PluginError(
            f"the text form of a {kind!r} puzzle is a str, got {type(text).__name__} "
            f"(a bug in plugin {catalogue.owner(kind)!r})"
        )
    return text


def result_json(
    result: SearchResult, puzzle: Any = None, *, registry: Registry | None = None
) -> dict[str, Any]:
    """The documented JSON form of ``result`` (:meth:`SearchResult.to_dict
    <lacak.SearchResult.to_dict>`), with the kind's own keys: the extras of ``puzzle``'s
    kind, handed to the result from the registry (a maze's cell path under ``"maze"``).

    :param puzzle: the puzzle that was searched; without it, the common keys alone.
    :raises PluginError: the kind's extras use a common key.

    >>> import lacak
    >>> puzzle = lacak.parse("sliding", "123405786")
    >>> lacak.result_json(lacak.solve(puzzle, "bfs"), puzzle)["actions"]
    ['R', 'D']
    """
    if puzzle is None:
        return result.to_dict()
    kind = getattr(puzzle, "kind", None)
    kind_type = _puzzle_type(_registry(registry), kind) if isinstance(kind, str) else None
    return result.to_dict(puzzle, extras=kind_type.extras if kind_type is not None else None)


def searchers(*, registry: Registry | None = None) -> Catalogue[Searcher]:
    """Registered search strategies, by name."""
    return _registry(registry).searchers()


def heuristics(kind: str, *, registry: Registry | None = None) -> Catalogue[Heuristic]:
    """Registered heuristics for ``kind``, by name."""
    return _registry(registry).heuristics(kind)


def generators(kind: str, *, registry: Registry | None = None) -> Catalogue[Generator]:
    """Registered generators for ``kind``, by name."""
    return _registry(registry).generators(kind)


def dictionaries(*, registry: Registry | None = None) -> Catalogue[DictionarySource]:
    """Registered dictionaries (not yet loaded), by name."""
    return _registry(registry).dictionaries()


def dictionary(name: str, *, registry: Registry | None = None) -> Dictionary:
    """The loaded dictionary called ``name``."""
    return _registry(registry).dictionary(name)  # type: ignore[no-any-return,unused-ignore]


def plugins(*, registry: Registry | None = None) -> list[PluginInfo]:
    """Loaded plugins with what each registered."""
    return _registry(registry).plugins()


def plugin_failures(*, registry: Registry | None = None) -> list[PluginFailure]:
    """Plugins, or plugin hooks, that failed and were skipped."""
    return _registry(registry).failures
