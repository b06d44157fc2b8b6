"""The work behind ``lacak serve``: catalogues, generations and searches as JSON data.

Plain library code, with no web framework in it: each function takes JSON-like
requests (what the API's request bodies hold) and gives JSON data back, or
raises a :class:`~lacak.LacakError` with one clear message. The web
application (:mod:`lacak.web.app`) runs :func:`generate` and :func:`solve` in
a pool of worker processes; the catalogue functions are cheap and run where
they are called.

Everything goes through lacak's public pipeline, for any registered kind:
:func:`lacak.parse`, :func:`lacak.choose`, the chosen
:class:`~lacak.Searcher`, :meth:`SearchResult.to_dict
<lacak.SearchResult.to_dict>`, :attr:`PuzzleType.render
<lacak.PuzzleType.render>`, :func:`lacak.generate` and :func:`lacak.puzzle_text`.
Option values arrive as text and are read by
:func:`lacak.options.read_untrusted`, as the option's component declares it
(its ``accepts``): only a registered name reaches an option that names a file
or a component (a dictionary), a number is bounded, a word one of
fixed ones; an option its component declares nothing for takes a yes/no word
or a number typed by its default, never text. A heuristic's options, read by
the heuristic's own parser (``pdb:663``), are held to the same declarations.
Every search runs under :class:`~lacak.Limits` bounded by the server's
:class:`Caps`, and its set-up (reading the puzzle, building a table) under the
same deadline.

An error about one part of a request carries that part's name, a field of the
request (``"puzzle"``, ``"size"``, ``"options.goal"``, ``"limits.max_depth"``):
:func:`field_of` gives it, and the API's answer names it, so that a page can
show the message by the input it is about.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import math
import secrets
import time
from collections.abc import Callable, Collection, Iterator, Mapping
from typing import Any

import attrs

from .. import api, run
from ..errors import (
    InvalidInputError,
    InvalidOptionError,
    InvalidPuzzleError,
    LacakError,
    UnknownComponentError,
)
from ..interfaces import Heuristic, PuzzleType, describe_state
from ..limits import Limits, check_deadline, deadline
from ..options import (
    Accepts,
    NameLookup,
    check_untrusted,
    describe_accepts,
    parse_size,
    read_untrusted,
)
from ..plugin.registry import Registry, default_registry
from ..results import SearchResult, plain
from ..trace import SearchTrace
from . import pages

__all__ = [
    "Caps",
    "catalogue",
    "dictionaries",
    "field_of",
    "generate",
    "jsonable",
    "kinds",
    "solve",
]

#: The ``strategy`` of a result when the time ran out before a strategy was chosen.
NOT_CHOSEN = run.NOT_CHOSEN


@attrs.frozen(kw_only=True)
class Caps:
    """What one request may ask of the server at most.

    Every search and generation is bounded by these, whatever the request says;
    a request asking for more is refused with a clear message (a limit above
    the cap) rather than silently cut.
    """

    #: Characters of a puzzle's text.
    max_text: int = 1_000_000
    #: Cells (rows x columns) of a generated instance.
    max_cells: int = 40_000
    #: Seconds one search may run (its set-up included).
    max_seconds: float = 20.0
    #: Seconds a search runs when the request gives no time limit.
    default_seconds: float = 5.0
    #: Nodes one search may expand.
    max_nodes: int = 5_000_000
    #: States a search may hold in its frontier, and in its closed set.
    max_frontier: int = 2_000_000
    #: Nodes of the search tree a request may have recorded and sent back.
    max_trace: int = 20_000
    #: Steps of a search a request may have recorded and sent back (``steps``).
    max_steps: int = 500
    #: Entries of each step's open and closed lists sent back (the first ones).
    max_step_list: int = 200
    #: Bytes of cache files (pattern databases for a new goal, compiled word lists) that the
    #: server's requests may leave in lacak's cache folder, all together: past it the
    #: largest of them are removed (:func:`lacak.store.cache.trim`); what was there when the
    #: server started is never removed. The 15-puzzle's usual databases take 12 MB.
    max_cache_bytes: int = 256 * 2**20

    def to_dict(self) -> dict[str, Any]:
        """The caps as JSON data."""
        return attrs.asdict(self)


#: The attribute of an error that names the part of the request it is about.
_FIELD = "lacak_request_field"


def field_of(error: BaseException) -> str | None:
    """The part of a request an error raised here is about (a field of the request,
    dotted: ``"options.goal"``), or ``None`` when it is not about one part.

    >>> try:
    ...     with _about("size"):
    ...         raise InvalidOptionError("size must look like 3x4, got 'big'")
    ... except InvalidOptionError as error:
    ...     print(field_of(error))
    size
    """
    field = getattr(error, _FIELD, None)
    return field if isinstance(field, str) else None


@contextlib.contextmanager
def _about(field: str) -> Iterator[None]:
    """Name ``field`` as what a :class:`~lacak.LacakError` raised inside is about, unless
    it names a part already (an inner, closer one). The name is an attribute of the
    error, so it crosses back from a worker process with it."""
    try:
        yield
    except LacakError as error:
        if field_of(error) is None:
            setattr(error, _FIELD, field)
        raise


def jsonable(value: Any) -> Any:
    """``value`` as JSON data: mappings with string keys, lists, scalars (see
    :func:`lacak.results.plain`, which this extends to mappings and sets)."""
    if isinstance(value, Mapping):
        return {str(key): jsonable(item) for key, item in value.items()}
    if isinstance(value, (set, frozenset)):
        return sorted((jsonable(item) for item in value), key=str)
    if isinstance(value, (tuple, list)):
        return [jsonable(item) for item in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return plain(value)


def _registry(registry: Registry | None) -> Registry:
    return registry if registry is not None else default_registry()


def _names(reg: Registry) -> NameLookup:
    """The names registered in a catalogue of ``reg`` (what a ``Named`` option accepts)."""

    def names(catalogue: str) -> Collection[str]:
        if catalogue == "dictionaries":
            return reg.dictionaries().keys()
        return ()

    return names


def _options(options: Mapping[str, Any], accepts: Mapping[str, Accepts]) -> list[dict[str, Any]]:
    return [
        {
            "name": name,
            "default": jsonable(default),
            "accepts": describe_accepts(default, accepts.get(name)),
        }
        for name, default in options.items()
    ]


def _kind_summary(kind_type: PuzzleType, owner: str) -> dict[str, Any]:
    return {
        "kind": kind_type.kind,
        "description": kind_type.description,
        "plugin": owner,
        "example": kind_type.example,
        "page": pages.describe(kind_type),
    }


def kinds(*, registry: Registry | None = None) -> list[dict[str, Any]]:
    """Every registered puzzle kind: name, description, plugin, example and its own page
    (``None``: the generic page; :func:`lacak.web.pages.describe`)."""
    types = _registry(registry).puzzle_types()
    return [_kind_summary(types[kind], types.owner(kind)) for kind in sorted(types)]


def _of_kind(reg: Registry, hook: str, kind: str) -> list[tuple[str, Any]]:
    """The components a hook registered for ``kind``, by name (none: an empty list)."""
    if kind not in reg.kinds(hook):
        return []
    catalogue = reg.heuristics(kind) if hook == "register_heuristics" else reg.generators(kind)
    return sorted(catalogue.items())


def catalogue(kind: str, *, registry: Registry | None = None) -> dict[str, Any]:
    """Everything a page needs to offer for ``kind``: its options and pictures, the
    strategies, heuristics and generators registered for it, and its options for a made
    instance (``prepare``, with the defaults its plugin declares).

    :raises UnknownComponentError: no such kind.
    """
    reg = _registry(registry)
    types = reg.puzzle_types()
    kind_type = types[kind]
    help_texts = dict(kind_type.help)
    strategies = [
        {
            "name": name,
            "description": searcher.description,
            "optimal": searcher.optimal,
            "fewest_moves": searcher.fewest_moves,
            "heuristic": searcher.heuristic,
            "specialised": bool(searcher.kinds),
            "options": _options(searcher.options, searcher.accepts),
        }
        for name, searcher in sorted(reg.searchers().items())
        if (not searcher.kinds or kind in searcher.kinds)
        # local search only for a kind that declares an objective
        and (not searcher.objective or kind_type.objective is not None)
    ]
    heuristics = [
        {
            "name": name,
            "description": heuristic.description,
            "admissible": heuristic.admissible,
            "consistent": heuristic.consistent,
            "options": _options(heuristic.options, heuristic.accepts),
        }
        for name, heuristic in _of_kind(reg, "register_heuristics", kind)
    ]
    generators = [
        {
            "name": name,
            "description": generator.description,
            "options": _options(generator.options, generator.accepts),
            "metadata": jsonable(generator.metadata),
        }
        for name, generator in _of_kind(reg, "register_generators", kind)
    ]
    return {
        **_kind_summary(kind_type, types.owner(kind)),
        "options": [
            {**option, "help": help_texts.get(option["name"], "")}
            for option in _options(kind_type.options, kind_type.accepts)
        ],
        "formats": list(kind_type.formats) if kind_type.render is not None else [],
        "text_report": kind_type.text_report,
        "solve_options": [
            {**option, "help": help_texts.get(option["name"], "")}
            for option in _options(kind_type.solve_options, kind_type.accepts)
        ],
        "prepare": _prepare_options(kind_type),
        "strategies": strategies,
        "heuristics": heuristics,
        "generators": generators,
    }


def _prepare_options(kind_type: PuzzleType) -> list[dict[str, Any]]:
    """The kind's options for a made instance (its :attr:`BatchKind.options
    <lacak.BatchKind.options>`, what ``generate`` takes as ``prepare``), with their
    defaults, which are those of ``lacak batch KIND`` too; none when it has none."""
    batch = kind_type.batch
    if batch is None or batch.prepare is None:
        return []
    return [
        {**option, "help": batch.help.get(option["name"], "")}
        for option in _options(batch.options, batch.accepts)
    ]


def dictionaries(*, registry: Registry | None = None) -> list[dict[str, Any]]:
    """The registered dictionaries (drop-in files included), not loaded: name, language,
    description."""
    return [
        {
            "name": name,
            "language": getattr(source, "language", "") or "",
            "description": getattr(source, "description", "") or "",
        }
        for name, source in sorted(_registry(registry).dictionaries().items())
    ]


def _typed(
    values: Mapping[str, Any] | None,
    defaults: Mapping[str, Any],
    accepts: Mapping[str, Accepts],
    *,
    what: str,
    reg: Registry,
    field: str = "options",
) -> dict[str, Any]:
    """Option values given as text, read as their component declares them
    (:func:`lacak.options.read_untrusted`); an error is about ``field.KEY``.

    :raises InvalidOptionError: an option ``what`` does not take (the message lists
        those it does), or a value that is not text or that the option does not accept.
    """
    typed: dict[str, Any] = {}
    names = _names(reg)
    for key, value in (values or {}).items():
        with _about(f"{field}.{key}"):
            if key not in defaults:
                listed = ", ".join(defaults) or "none"
                raise InvalidOptionError(f"{what} has no option {key!r} (options: {listed})")
            typed[key] = read_untrusted(
                value, defaults[key], accepts.get(key), what=what, key=key, names=names
            )
    return typed


def _heuristic(reg: Registry, kind: str, spec: str) -> Heuristic:
    """The heuristic ``spec`` names (``"pdb:663"``), configured, with every option it sets
    held to what the heuristic declares it accepts (its own parser read them).

    A heuristic with a parser of its own (``Heuristic.parse``, plugin code) is given
    option text only when its plugin declares what every option accepts: plugin
    code never sees text from a request that its plugin has not thought about.

    :raises UnknownComponentError: no such heuristic for ``kind``.
    :raises InvalidOptionError: an option value the heuristic does not accept here.
    """
    name, _, text = spec.partition(":")
    registered = reg.heuristics(kind)[name.strip()]
    declared = registered.options.keys() <= registered.accepts.keys()
    if text.strip() and registered.parse is not None and not declared:
        raise InvalidOptionError(
            f"heuristic {registered.name!r} reads its options with a parser of its own, and "
            "its plugin declares nothing about them, so none are accepted here (a plugin "
            "declares what an option accepts: docs/plugins)"
        )
    configured = reg.heuristic(kind, spec)
    names = _names(reg)
    for key, value in configured.options.items():
        default = registered.options.get(key)
        if type(value) is not type(default) or value != default:
            check_untrusted(
                value,
                default,
                configured.accepts.get(key),
                what=f"heuristic {configured.name!r}",
                key=key,
                names=names,
            )
    return configured


def _seconds(asked: float | None, caps: Caps) -> float:
    if asked is None:
        return min(caps.default_seconds, caps.max_seconds)
    if not (
        isinstance(asked, (int, float))
        and not isinstance(asked, bool)
        and 0 <= asked <= caps.max_seconds
    ):
        raise InvalidOptionError(
            f"the time limit is at most {caps.max_seconds:g} seconds here, got {asked!r}"
        )
    return float(asked)


#: The deepest depth limit a request may ask for (the request models' bound too).
MAX_DEPTH = 1_000_000


def _depth(asked: int | None) -> int | None:
    if asked is None:
        return None
    if isinstance(asked, bool) or not isinstance(asked, int) or not 0 <= asked <= MAX_DEPTH:
        raise InvalidOptionError(
            f"the depth limit is a whole number from 0 to {MAX_DEPTH:,}, got {asked!r}"
        )
    return asked


def _count(asked: int | None, cap: int, what: str) -> int:
    if asked is None:
        return cap
    if isinstance(asked, bool) or not isinstance(asked, int) or not 0 <= asked <= cap:
        raise InvalidOptionError(f"{what} is at most {cap:,} here, got {asked!r}")
    return asked


def _method(instance: Any, name: str) -> Any:
    """``instance.name()`` as JSON data when the instance has such a method, else ``None``."""
    method = getattr(instance, name, None)
    return jsonable(method()) if callable(method) else None


def generate(
    kind: str,
    request: Mapping[str, Any],
    caps: Caps = Caps(),
    *,
    registry: Registry | None = None,
) -> dict[str, Any]:
    """Make an instance with a registered generator, and describe it as JSON data.

    ``request``: ``algorithm`` (the generator's name), ``size`` (``"ROWSxCOLS"``
    text, or ``None`` for the generator's own), ``seed`` (``None``: one is drawn
    here, and given back, so the instance can be made again), ``options``
    (the generator's options, as text), ``prepare`` (the kind's own options for
    a made instance, as text: those of ``lacak batch KIND``, applied by the
    kind's :attr:`BatchKind.prepare <lacak.BatchKind.prepare>`, as ``lacak
    batch KIND`` applies them) and ``picture`` (a format the kind draws, or
    ``None``).
    All of it runs under the :attr:`Caps.max_seconds` deadline.

    :returns: ``kind``, ``algorithm``, ``size``, ``seed``, ``options``; ``text``,
        the instance's text form (:func:`lacak.puzzle_text`, ``None`` when it has
        none); ``state``, its initial state in the kind's notation when it is a
        puzzle; ``instance``, its own JSON (``to_dict()``), ``stats``
        (``stats()``) and ``geometry`` (``geometry()``: the shapes a page draws it
        with, as its cells' outlines), each ``None`` when the instance has no such
        method; ``picture``, the instance drawn by its own ``render(format)``, or ``None``.
    :raises UnknownComponentError: no such kind or generator.
    :raises InvalidOptionError: a bad size (or one past :attr:`Caps.max_cells`), seed,
        option, preparation or picture format.
    :raises LimitReachedError: the work ran past :attr:`Caps.max_seconds`.
    """
    reg = _registry(registry)
    algorithm = request.get("algorithm")
    catalogue = reg.generators(kind)
    with _about("algorithm"):
        generator = catalogue[algorithm]  # type: ignore[index]
    size_text = request.get("size")
    size: tuple[int, int] | None = None
    if size_text is not None:
        with _about("size"):
            size = parse_size(size_text)
            if size[0] * size[1] > caps.max_cells:
                raise InvalidOptionError(
                    f"size {size[0]}x{size[1]} has {size[0] * size[1]:,} cells; "
                    f"at most {caps.max_cells:,} here"
                )
    seed = request.get("seed")
    if seed is None:
        seed = secrets.randbelow(2**31)
    options = _typed(
        request.get("options"),
        generator.options,
        generator.accepts,
        what=f"generator {algorithm!r}",
        reg=reg,
    )
    kind_type = reg.puzzle_types()[kind]
    batch = kind_type.batch
    preparing = batch is not None and batch.prepare is not None
    prepare = _typed(
        request.get("prepare"),
        batch.options if batch is not None and preparing else {},
        batch.accepts if batch is not None and preparing else {},
        what=f"preparing a {kind!r} instance",
        reg=reg,
        field="prepare",
    )
    fmt = request.get("picture")
    if fmt is not None and fmt not in kind_type.formats:
        with _about("picture"):
            raise InvalidOptionError(
                f"puzzle kind {kind!r} draws {', '.join(kind_type.formats)}, not {fmt!r}"
            )
    with deadline(time.perf_counter() + caps.max_seconds):
        instance = api.generate(kind, str(algorithm), size, seed=seed, registry=reg, **options)
        if prepare and batch is not None and batch.prepare is not None:
            check_deadline(f"making a {kind!r} instance")
            with _about("prepare"):
                instance = batch.prepare(instance, solve=False, **prepare)
                if instance is None:  # the kind draws again in a batch; here, the caller does
                    raise InvalidOptionError(
                        f"seed {seed} makes no {kind!r} instance with these preparations; "
                        "try another seed"
                    )
        check_deadline(f"making a {kind!r} instance")
        with _about("picture"):
            picture = _instance_picture(instance, kind_type, fmt, reg) if fmt is not None else None
    try:
        text: str | None = api.puzzle_text(instance, kind=kind, registry=reg)
    except InvalidPuzzleError:  # a kind with no text form of its instances
        text = None
    state = None
    if hasattr(instance, "initial"):
        state = describe_state(instance, instance.initial)
    return {
        "kind": kind,
        "algorithm": algorithm,
        "size": list(size) if size is not None else None,
        "seed": seed,
        "options": jsonable(options),
        "text": text,
        "state": state,
        "instance": _method(instance, "to_dict"),
        "stats": _method(instance, "stats"),
        "geometry": _method(instance, "geometry"),
        "picture": picture,
    }


def _drawn(picture: Any, fmt: str) -> dict[str, Any]:
    """A picture as JSON data: ``text`` or ``svg`` as text, ``png`` (bytes) in base64."""
    if isinstance(picture, bytes):
        return {"format": fmt, "data": base64.b64encode(picture).decode("ascii"), "base64": True}
    if not isinstance(picture, str):  # a rich renderable: its plain text
        picture = getattr(picture, "plain", None) or str(picture)
    return {"format": fmt, "data": picture, "base64": False}


def _instance_picture(
    instance: Any, kind_type: PuzzleType, fmt: str, reg: Registry
) -> dict[str, Any]:
    """A generated instance drawn, as JSON data: by its own ``render(format)`` method
    (the picture its generating command writes), else by the kind's
    :attr:`~lacak.PuzzleType.render` of the instance when it is a puzzle, or of the
    puzzle its text reads as.

    :raises InvalidOptionError: neither can draw it.
    """
    render = getattr(instance, "render", None)
    if callable(render):
        return _drawn(render(fmt), fmt)
    if kind_type.render is None:
        raise InvalidOptionError(f"the instances of puzzle kind {kind_type.kind!r} are not drawn")
    if hasattr(instance, "initial"):  # a puzzle already (a scrambled board)
        puzzle = instance
    else:
        try:
            text = api.puzzle_text(instance, kind=kind_type.kind, registry=reg)
        except InvalidPuzzleError:
            raise InvalidOptionError(
                f"the instances of puzzle kind {kind_type.kind!r} are not drawn"
            ) from None
        puzzle = api.parse(kind_type.kind, text, registry=reg)
    return _drawn(kind_type.render(puzzle, None, fmt), fmt)


def _picture(kind_type: PuzzleType, puzzle: Any, result: SearchResult, fmt: str) -> dict[str, Any]:
    """The kind's picture of a result, as JSON data (``text``, ``svg``, or base64 ``png``)."""
    if kind_type.render is None or fmt not in kind_type.formats:
        drawn = ", ".join(kind_type.formats) if kind_type.render is not None else "none"
        raise InvalidOptionError(
            f"puzzle kind {kind_type.kind!r} draws {drawn}, not {fmt!r}"
        )
    shown = result if (result.found or kind_type.text_report) else None
    return _drawn(kind_type.render(puzzle, shown, fmt, full=True), fmt)


def solve(
    kind: str,
    request: Mapping[str, Any],
    caps: Caps = Caps(),
    *,
    registry: Registry | None = None,
) -> dict[str, Any]:
    """Parse a puzzle of ``kind``, choose, search under limits, and give the result as JSON.

    ``request``: ``puzzle`` (the text), ``options`` (the kind's parse options, as
    text), ``strategy`` and ``heuristic`` (``None``: the best for the instance,
    as :func:`lacak.choose` decides), ``strategy_options`` (as text),
    ``limits`` (``max_depth``, ``max_nodes``, ``seconds``), ``trace`` (how many
    nodes of the search tree to record and send back; 0 for none) and
    ``picture`` (a format the kind draws, or ``None``).

    :returns: ``result`` (:meth:`SearchResult.to_dict <lacak.SearchResult.to_dict>`
        with the puzzle: the documented shape, docs/results.md), ``choice`` (the
        strategy and heuristic, who chose them, notes), ``advice`` (what would help
        when a limit stopped the search), ``trace`` (:meth:`SearchTrace.to_dict
        <lacak.SearchTrace.to_dict>` or ``None``), ``picture`` and ``limits`` (the
        limits the search ran under). A time limit reached before the search
        began (while reading the puzzle or building a table) gives a result that
        found nothing, stopped by ``time-limit``, with the reason in ``advice``.
    :raises UnknownComponentError: no such kind, strategy or heuristic.
    :raises InvalidPuzzleError: text that is not a puzzle of ``kind``.
    :raises InvalidOptionError: a bad option, or a limit past the :class:`Caps`.
    """
    reg = _registry(registry)
    kind_type = reg.puzzle_types()[kind]
    text = request.get("puzzle")
    with _about("puzzle"):
        if not isinstance(text, str):
            raise InvalidOptionError(f"the puzzle is given as text, not {type(text).__name__}")
        if len(text) > caps.max_text:
            raise InvalidOptionError(
                f"the puzzle's text has {len(text):,} characters; at most {caps.max_text:,} here"
            )
    parse_options = _typed(
        request.get("options"),
        kind_type.options,
        kind_type.accepts,
        what=f"puzzle kind {kind!r}",
        reg=reg,
    )
    asked = request.get("limits") or {}
    with _about("limits.seconds"):
        seconds = _seconds(asked.get("seconds"), caps)
    with _about("limits.max_depth"):
        max_depth = _depth(asked.get("max_depth"))
    with _about("limits.max_nodes"):
        max_nodes = _count(asked.get("max_nodes"), caps.max_nodes, "the node limit")
    limits = Limits(
        max_depth=max_depth,
        max_expanded=max_nodes,
        max_frontier=caps.max_frontier,
        max_closed=caps.max_frontier,
    )
    with _about("trace"):
        trace_nodes = _count(
            request.get("trace") or 0, caps.max_trace, "the number of traced nodes"
        )
    with _about("steps"):
        steps = _count(request.get("steps") or 0, caps.max_steps, "the number of steps")
    fmt = request.get("picture")
    strategy = request.get("strategy") or None
    heuristic = request.get("heuristic") or None
    recorder_asked: int | SearchTrace | None = trace_nodes or None
    if steps:  # (the tree too: a page grows it step by step)
        recorder_asked = SearchTrace(max_nodes=trace_nodes or caps.max_trace, steps=True,
                                     max_steps=steps)  # fmt: skip
        if strategy is None:  # a kind's own engine records no steps; the generic ones do
            strategy = "bfs" if heuristic == api.NO_HEURISTIC else "astar"
    asked_heuristic: str | Heuristic | None = heuristic
    if isinstance(heuristic, str) and heuristic != api.NO_HEURISTIC:
        with _about("heuristic"):
            asked_heuristic = _heuristic(reg, kind, heuristic)

    def typed(searcher: Any) -> dict[str, Any]:
        return _typed(request.get("strategy_options"), searcher.options, searcher.accepts,
                      what=f"strategy {searcher.name!r}", reg=reg,
                      field="strategy_options")  # fmt: skip

    try:
        ran = run.solve_run(
            kind,
            _reader(kind, text, parse_options, reg),
            strategy=strategy,
            heuristic=asked_heuristic,
            options=typed,
            limits=attrs.evolve(limits, seconds=seconds),
            trace=recorder_asked,
            registry=reg,
        )
    except UnknownComponentError as error:  # a name that does not apply to the puzzle
        if field_of(error) is None and error.what.startswith(("strategy", "heuristic")):
            setattr(error, _FIELD, error.what.split()[0])
        raise
    if ran.stopped_before is not None:
        return _stopped_before_search(ran, limits, seconds)
    choice, puzzle, result, recorder = ran.choice, ran.instance, ran.result, ran.trace
    assert choice is not None
    stepped = None
    if steps and recorder is not None:
        if recorder.order is None:
            with _about("strategy"):
                raise InvalidOptionError(
                    f"strategy {choice.searcher.name!r} records no steps: choose a generic one "
                    "(dfs, bfs, best-first, astar, uniform-cost, weighted-astar, idastar)"
                )
        recorder.describe = functools.partial(describe_state, puzzle)
        stepped = {
            "list": recorder.steps_to_list(max_list=caps.max_step_list),
            "open": recorder.list_names()[0],
            "closed": recorder.list_names()[1],
            "truncated": recorder.steps_truncated,
        }
    data = ran.to_dict()
    advice = ran.advice
    with _about("picture"):
        picture = _picture(kind_type, puzzle, result, fmt) if fmt else None
    return {
        "result": data,
        "choice": {
            "label": choice.label,
            "strategy": choice.searcher.name,
            "heuristic": choice.heuristic.spec if choice.heuristic is not None else None,
            "strategy_from": choice.strategy_from,
            "heuristic_from": choice.heuristic_from,
            "notes": list(choice.notes),
        },
        "advice": advice,
        "trace": recorder.to_dict() if recorder is not None else None,
        "steps": stepped,
        "picture": picture,
        "limits": {
            "max_depth": limits.max_depth,
            "max_nodes": limits.max_expanded,
            "seconds": seconds,
        },
    }


def _reader(kind: str, text: str, options: Mapping[str, Any], reg: Registry) -> Callable[[], Any]:
    """What reads the puzzle for :func:`lacak.run.solve_run`: :func:`lacak.parse`, its
    bad input named as about ``puzzle``, or about the options when the text alone reads
    (a goal that does not fit the board): ``options.KEY`` for one option, else ``options``."""

    def read() -> Any:
        try:
            return api.parse(kind, text, registry=reg, **options)
        except InvalidInputError as error:
            if field_of(error) is None:
                setattr(error, _FIELD, _blamed(kind, text, options, reg))
            raise

    return read


def _blamed(kind: str, text: str, options: Mapping[str, Any], reg: Registry) -> str:
    """What a puzzle that does not read with ``options`` is wrong in: ``puzzle`` when the
    text does not read alone either (or there are no options to blame)."""
    if not options:
        return "puzzle"
    try:
        api.parse(kind, text, registry=reg)
    except Exception:  # (whatever it is, the text alone does not read)
        return "puzzle"
    return f"options.{next(iter(options))}" if len(options) == 1 else "options"


def _stopped_before_search(ran: run.Run, limits: Limits, seconds: float) -> dict[str, Any]:
    """The answer when the time ran out before the search began: a result that found
    nothing, stopped by the time limit, and the reason as ``advice``."""
    return {
        "result": ran.to_dict(),
        "choice": None,
        "advice": ran.advice,
        "trace": None,
        "steps": None,
        "picture": None,
        "limits": {
            "max_depth": limits.max_depth,
            "max_nodes": limits.max_expanded,
            "seconds": seconds,
        },
    }
