"""What a dataset's jobs make: a :class:`Spec` (a kind, a generator and its options, a
size, what to solve with and the limits) and how one job draws its instance from it
(:mod:`lacak.batch.dataset`); :func:`spec` checks the options and looks the components up.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from .. import progress
from ..api import _BoundGenerator, _registry
from ..errors import (
    InvalidOptionError,
    LimitReachedError,
    PluginError,
    UnknownComponentError,
)
from ..interfaces import BatchKind, describe_state
from ..limits import Limits
from ..plugin.registry import default_registry
from ..run import Run, solve_run
from ..tasks import checked as _checked_task
from ..tasks import make_entry
from ..tokens import tokens

if TYPE_CHECKING:

    from ..plugin.registry import Registry

from .records import _SOLVED_MEASURES, Made, _digest, _dumps, _error_data, _measure_paths, _measures

#: What a kind that declares nothing gets.
_GENERIC = BatchKind()


def _kind_of(registry: Registry, kind: str) -> tuple[Any, BatchKind]:
    """The kind's :class:`~lacak.PuzzleType` (or ``None``) and its batch declaration."""
    kind_type = registry.puzzle_types().get(kind)
    batch = kind_type.batch if kind_type is not None else None
    return kind_type, batch or _GENERIC


def _default_instance(instance: Any) -> Any:
    to_dict = getattr(instance, "to_dict", None)
    if callable(to_dict):
        return to_dict()
    if hasattr(instance, "initial"):
        return describe_state(instance, instance.initial)
    return str(instance)


class _LookedUp:
    """What every job of a :class:`Spec` finds in the registry, found once in a process
    (and again when the registry changes): the kind's declarations, the generator with
    its options, and the paths of the summary's numbers."""

    __slots__ = ("batch", "generate", "generation", "kind_type", "measures", "registry",
                 "shown", "spec", "task")  # fmt: skip

    def __init__(self, spec: Spec, registry: Registry) -> None:
        self.spec = spec
        self.registry = registry
        self.generation = registry.generation
        self.kind_type, self.batch = _kind_of(registry, spec.kind)
        #: the task's declaration (a batch of task entries), or ``None``
        self.task = None
        self.generate: Callable[[Any, int], Any]
        if spec.task is not None:
            self.task = _checked_task(spec.task, spec.level, spec.task_options,
                                      registry=registry)[1]  # fmt: skip
            self.generate = _no_generator
        else:
            self.generate = _BoundGenerator(spec.kind, spec.generator, spec.options,
                                            registry=registry)  # fmt: skip
        self.shown = self.batch.instance or _default_instance
        self.measures = _spec_measures(spec, self.batch)


def _no_generator(size: Any, seed: int) -> Any:
    raise InvalidOptionError("a task batch's entries are made by the task, not a generator")


class _Drawn:
    """A job :meth:`Spec.start` began: its instance, generated, prepared and solved."""

    __slots__ = ("error", "found", "index", "instance", "ran", "seconds", "seed", "tokens")

    def __init__(self, found: _LookedUp, index: int, seed: int, instance: Any) -> None:
        self.found = found
        self.index = index
        self.seed = seed
        self.instance = instance
        #: the solve run of the job (a batch that solves), whose JSON its record holds
        self.ran: Run | None = None
        #: the record's ``error`` (a search stopped by a limit), or ``None``
        self.error: dict[str, str] | None = None
        self.seconds = 0.0
        #: the search as Searchformer tokens (``trace="tokens"``), or ``None``
        self.tokens: str | None = None


#: The last :class:`_LookedUp` made (one spec runs at a time in a worker: a chunk's jobs).
_looked_up: _LookedUp | None = None


def _look_up(spec: Spec, registry: Registry) -> _LookedUp:
    """What ``spec``'s jobs find in ``registry``: the last one found, while it serves."""
    global _looked_up
    found = _looked_up
    if found is None or found.spec is not spec or found.registry is not registry or (
        found.generation != registry.generation
    ):
        found = _looked_up = _LookedUp(spec, registry)
    return found


def _spec_measures(spec: Spec, batch: BatchKind) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The summary's numbers of ``spec``'s records (its kind declares ``batch``)."""
    if spec.task is not None:
        return ()  # (a task's entries: what each task measures is its own)
    return _measure_paths({**(_SOLVED_MEASURES if spec.solve else {}), **batch.measures})


@attrs.frozen(kw_only=True)
class Spec:
    """What every job of a batch does (made by :func:`spec`, which checks it): picklable,
    and called in the workers as ``spec((index, seed)) -> Made``."""

    #: The puzzle kind.
    kind: str
    #: The generator's name.
    generator: str
    #: The generator's size argument (``(rows, cols)``), or ``None`` for its default.
    size: Any = None
    #: The generator's options.
    options: Mapping[str, Any] = attrs.field(factory=dict)
    #: The kind's own batch options (:attr:`BatchKind.options <lacak.BatchKind.options>`).
    kind_options: Mapping[str, Any] = attrs.field(factory=dict)
    #: Whether each instance is solved.
    solve: bool = False
    #: The strategy, or ``None`` for :func:`lacak.choose`'s choice.
    strategy: str | None = None
    #: The heuristic, or ``None`` for the choice.
    heuristic: str | None = None
    #: Limits of each job (``seconds`` covers generating and preparing too).
    limits: Limits | None = None
    #: Keep only instances whose solution is at least this long (others are drawn again).
    min_length: int | None = None
    #: Keep only instances whose solution is at most this long.
    max_length: int | None = None
    #: Drop an instance equal to one before it (and draw again).
    unique: bool = False
    #: Put wall-clock times in the records (``stats.seconds``, ``seconds``); the file is
    #: then no longer the same from run to run.
    timings: bool = False
    #: ``"tokens"``: each record holds its search as Searchformer tokens (``tokens``).
    trace: str | None = None
    #: A task of the kind (:mod:`lacak.tasks`): each record is its entry ``index`` (its
    #: ``question``, ``answer`` and ``metadata``) instead of a generated instance.
    task: str | None = None
    #: The task's level.
    level: int = 1
    #: The task's options, its defaults included.
    task_options: Mapping[str, Any] = attrs.field(factory=dict)
    #: The batch's seed, which a task entry's metadata records (``dataset_seed``): set
    #: by :func:`lacak.batch.dataset.records` and ``write`` (:meth:`seeded`).
    dataset_seed: int | None = None

    def seeded(self, seed: int) -> Spec:
        """This spec for a batch seeded ``seed`` (a task batch's entries record it)."""
        if self.task is None or self.dataset_seed == seed:
            return self
        return attrs.evolve(self, dataset_seed=seed)

    def __call__(self, job: tuple[int, int]) -> Made:
        """Run job ``(index, seed)`` quietly (a worker shows no progress of its own)."""
        return self.finish(self.start(job))

    def run(self, job: tuple[int, int]) -> Made:
        """Run job ``(index, seed)``, its progress shown: its record, or why its draw
        was rejected.

        :raises LacakError: what generating or solving raised (a batch makes it the
            job's error record).
        """
        return self.finish(self._start(job))

    def start(self, job: tuple[int, int]) -> Made | _Drawn:
        """The first half of job ``(index, seed)``, quietly: the instance generated,
        prepared and solved (:meth:`finish` makes its record), or why its draw was
        rejected. A worker runs the first half of every job of a chunk, then the
        second half of each (:meth:`lacak.batch.iter_many`'s ``finish``).

        :raises LacakError: what generating or solving raised (a batch makes it the
            job's error record).
        """
        if not progress.active():
            return self._start(job)
        with progress.reporting(None):
            return self._start(job)

    def _start(self, job: tuple[int, int]) -> Made | _Drawn:
        began = time.perf_counter()
        if self.limits is None:
            drawn = self._draw(*job)
        else:
            with self.limits.start():  # one deadline for generating, preparing and solving
                drawn = self._draw(*job)
        seconds = time.perf_counter() - began
        if isinstance(drawn, str):
            return Made(None, job[1], rejected=drawn, seconds=seconds)
        drawn.seconds = seconds
        return drawn

    def _draw(self, index: int, seed: int) -> _Drawn | str:
        registry = default_registry()
        found = _looked_up
        if found is None or found.spec is not self or found.registry is not registry or (
            found.generation != registry.generation
        ):
            found = _look_up(self, registry)
        if found.task is not None:
            return self._draw_task(found, index, seed)
        batch = found.batch
        instance = found.generate(self.size, seed)
        if batch.prepare is not None:
            instance = batch.prepare(instance, solve=self.solve, **self.kind_options)
            if instance is None:
                return "kind"
        drawn = _Drawn(found, index, seed, instance)
        if self.solve:
            puzzle = batch.puzzle(instance) if batch.puzzle is not None else instance
            # (a time limit reached before the search is this job's error, as it was)
            ran = solve_run(self.kind, lambda: puzzle, strategy=self.strategy,
                            heuristic=self.heuristic, limits=self.limits,
                            catch_early_stop=False, registry=registry,
                            trace=self.trace is not None)  # fmt: skip
            result = ran.result
            if not result.stopped.is_limit and not self._wanted(result.length, result.found):
                return "length"
            drawn.ran = ran
            if self.trace is not None:
                drawn.tokens = _tokens(ran)
            if result.stopped.is_limit:
                advice = ran.advice
                message = f"the search was stopped by a limit ({result.stopped})"
                drawn.error = {"type": LimitReachedError.__name__,
                               "message": message + (f"; {advice}" if advice else "")}  # fmt: skip
        return drawn

    def _draw_task(self, found: _LookedUp, index: int, seed: int) -> _Drawn:
        """Entry ``index`` of the task (its search traced, with ``trace``)."""
        assert found.task is not None and self.dataset_seed is not None
        entry = make_entry(self.kind, found.task, index, seed, dataset_seed=self.dataset_seed,
                           level=self.level, options=self.task_options,
                           puzzle=self.trace is not None)  # fmt: skip
        puzzle = entry.pop("puzzle", None)
        drawn = _Drawn(found, index, seed, entry)
        if self.trace is not None:
            if puzzle is None:
                raise InvalidOptionError(
                    f"task {self.task!r} gives no puzzle to search, so it has no trace"
                )
            try:
                ran = solve_run(self.kind, lambda: puzzle, strategy=self.strategy,
                                heuristic=self.heuristic, limits=self.limits,
                                catch_early_stop=False, registry=found.registry,
                                trace=True)  # fmt: skip
            except (InvalidOptionError, UnknownComponentError) as error:
                raise InvalidOptionError(
                    f"task {self.task!r} has no search trace with strategy "
                    f"{self.strategy!r}: {error}"
                ) from None
            drawn.tokens = _tokens(ran)
            if ran.result.stopped.is_limit:
                drawn.error = {"type": LimitReachedError.__name__,
                               "message": f"the search was stopped by a limit "
                               f"({ran.result.stopped})"}  # fmt: skip
        return drawn

    def finish(self, drawn: Made | _Drawn) -> Made:
        """The second half of a job :meth:`start` began: its record (a rejected draw as
        it is)."""
        if isinstance(drawn, Made):
            return drawn
        return Made._make(self._row(drawn))

    def _row(self, drawn: _Drawn) -> tuple[Any, ...]:
        """:meth:`finish`'s :class:`Made`, as a plain tuple."""
        began = time.perf_counter()
        found = drawn.found
        error = drawn.error
        data: dict[str, Any] = {"index": drawn.index, "seed": drawn.seed, "ok": error is None}
        if found.task is not None:  # a task's entry: its question, answer and metadata
            data.update(drawn.instance)
        else:
            data["instance"] = found.shown(drawn.instance)
        if drawn.ran is not None:
            data["result"] = drawn.ran.to_dict()
            if not self.timings:
                data["result"]["stats"]["seconds"] = None
        if drawn.tokens is not None:
            data["tokens"] = drawn.tokens
        if error is not None:
            data["error"] = error
        batch = found.batch
        if batch.record is not None and found.task is None:
            data = dict(batch.record(data, **self.kind_options))
            if "digest" in data:
                raise PluginError(
                    f"the {self.kind} kind's batch record() gave a record with a 'digest': "
                    "lacak adds it (the record's check), a kind cannot"
                )
        seconds = drawn.seconds + time.perf_counter() - began
        if self.timings:
            data["seconds"] = round(seconds, 6)
        return (
            _dumps(data) + b"\n",
            drawn.seed,
            bool(data.get("ok")),
            None,
            _digest(data.get("instance")) if self.unique else None,
            _measures(data, found.measures),
            seconds,
            None if error is None else error["type"],
        )

    def _wanted(self, length: int, found: bool) -> bool:
        if self.min_length is None and self.max_length is None:
            return True
        if not found:
            return False
        return (self.min_length is None or length >= self.min_length) and (
            self.max_length is None or length <= self.max_length
        )

    def error_line(self, index: int, seed: int, error: BaseException) -> bytes:
        """The record of a job that raised ``error``."""
        data = {"index": index, "seed": seed, "ok": False, "error": _error_data(error)}
        return _dumps(data) + b"\n"


def _tokens(ran: Run) -> str:
    """A solve run's search as Searchformer tokens, one string (:func:`lacak.tokens.tokens`).

    :raises InvalidOptionError: the strategy records no token trace (a kind's own
        engine), or the trace was cut short.
    """
    recorder = ran.trace
    if recorder is None or recorder.order is None:
        name = ran.choice.searcher.name if ran.choice is not None else "?"
        raise InvalidOptionError(
            f"strategy {name!r} records no token trace: name a generic one with -s "
            "(astar, bfs, dfs, best-first, uniform-cost, weighted-astar)"
        )
    result = ran.result
    return " ".join(tokens(recorder, result.states if result.found else None))


def _whole(value: Any, what: str, *, least: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        kind = "positive" if least == 1 else "non-negative"
        raise InvalidOptionError(f"{what} must be a {kind} integer, got {value!r}")
    return value


def spec(
    kind: str,
    *,
    generator: str | None = None,
    size: Any = None,
    options: Mapping[str, Any] | None = None,
    kind_options: Mapping[str, Any] | None = None,
    solve: bool | None = None,
    strategy: str | None = None,
    heuristic: str | None = None,
    limits: Limits | None = None,
    min_length: int | None = None,
    max_length: int | None = None,
    unique: bool = False,
    timings: bool = False,
    trace: str | None = None,
    task: str | None = None,
    level: int | None = None,
    task_options: Mapping[str, Any] | None = None,
    registry: Registry | None = None,
) -> Spec:
    """The jobs of a batch of ``kind`` instances, checked before any runs.

    The kind's :class:`~lacak.BatchKind` gives the defaults: its generator, whether
    instances are solved, and what its own options (``kind_options``) mean.

    :param generator: the generator's name (default: the kind's).
    :param size: the generator's size, ``(rows, cols)`` (default: the generator's own).
    :param options: the generator's options.
    :param solve: solve each instance (default: as the kind declares); a strategy, a
        heuristic or a length bound implies it.
    :param limits: bounds of each job; a job that reaches one is a failed record.
    :param min_length: keep only instances whose solution has at least this many
        moves (the others are drawn again, with the next jobs' seeds).
    :param unique: keep only instances unlike every one before them.
    :param timings: put wall-clock times in the records (they then differ from run to run).
    :param trace: ``"tokens"``: each record holds its search as a Searchformer token
        sequence, ``tokens`` (:func:`lacak.tokens.tokens`); it implies solving, with
        ``astar`` unless a strategy is named (a kind's own engine records none).
    :param task: one of the kind's tasks (:func:`lacak.tasks.tasks`): each record is
        the task's entry ``index`` at ``level`` (with ``task_options``), the same
        ``question``, ``answer`` and ``metadata`` as
        :func:`lacak.tasks.create_dataset` gives; a ``trace`` is of a search of its puzzle.
        It takes no generator, size (give the task's ``shape`` option), kind option,
        solving or length bound.
    :raises UnknownComponentError: no such kind, generator or task.
    :raises InvalidOptionError: an option the generator or the kind does not take, a
        bad size or bound, or options that contradict each other.
    """
    reg = _registry(registry)
    _kind_type, batch = _kind_of(reg, kind)
    if task is not None:
        return _task_spec(reg, kind, task, level, task_options,
                          given={"generator": generator, "size": size, "options": options,
                                 "kind_options": kind_options, "heuristic": heuristic,
                                 "min_length": min_length, "max_length": max_length,
                                 "unique": unique or None, "solve": solve or None},
                          strategy=strategy, limits=limits, timings=timings,
                          trace=trace)  # fmt: skip
    if level is not None or task_options:
        raise InvalidOptionError("a level and task options are for a task's batch (--task)")
    catalogue = reg.generators(kind)  # raises for a kind with no generator, listing those
    given = dict(kind_options or {})
    unknown = sorted(set(given) - set(batch.options))
    if unknown:
        raise InvalidOptionError(
            f"batches of {kind} take no option {', '.join(map(repr, unknown))} "
            f"(their options: {', '.join(sorted(batch.options)) or 'none'})"
        )
    settings = {**batch.options, **given}
    planned: Mapping[str, Any] = batch.plan(**given) if batch.plan is not None else {}
    planned_generator = planned.get("generator")
    if generator is not None and planned_generator not in (None, generator):
        raise InvalidOptionError(
            f"-a {generator} contradicts the {kind} options given, which mean the "
            f"{planned_generator!r} generator"
        )
    name = generator or planned_generator or batch.generator
    if name is None:
        if len(catalogue) != 1:
            raise InvalidOptionError(
                f"name a {kind} generator (-a): {', '.join(sorted(catalogue))}"
            )
        (name,) = list(catalogue)
    chosen = catalogue[name]  # raises UnknownComponentError, with close matches
    generator_options = {**planned.get("options", {}), **(options or {})}
    bad = sorted(set(generator_options) - set(chosen.options))
    if bad:
        raise InvalidOptionError(
            f"generator {name!r} takes no option {', '.join(map(repr, bad))} "
            f"(its options: {', '.join(sorted(chosen.options)) or 'none'})"
        )
    for bound, what in ((min_length, "the least solution length"),
                        (max_length, "the greatest solution length")):  # fmt: skip
        if bound is not None:
            _whole(bound, what)
    if min_length is not None and max_length is not None and min_length > max_length:
        raise InvalidOptionError(
            f"no solution is at least {min_length} and at most {max_length} moves long"
        )
    if trace not in (None, "tokens"):
        raise InvalidOptionError(f"a batch's trace is 'tokens' (or none), not {trace!r}")
    if trace is not None and strategy is None:
        strategy = "astar"
    wanted = strategy is not None or heuristic is not None or (
        min_length is not None or max_length is not None
    )
    if solve is None:
        solve = bool(planned.get("solve", batch.solve)) or wanted
    elif not solve and wanted:
        raise InvalidOptionError(
            "a strategy, a heuristic or a solution length needs the instances solved "
            "(drop --no-solve)"
        )
    if strategy is not None and strategy not in reg.searchers():
        reg.searchers()[strategy]  # raises, with close matches
    if limits is not None and not isinstance(limits, Limits):
        raise InvalidOptionError(
            f"limits must be a lacak.Limits (or None), not {type(limits).__name__}"
        )
    return Spec(
        kind=kind,
        generator=name,
        size=size,
        options=generator_options,
        kind_options=settings,
        solve=solve,
        strategy=strategy,
        heuristic=heuristic,
        limits=limits,
        min_length=min_length,
        max_length=max_length,
        unique=bool(unique),
        timings=bool(timings),
        trace=trace,
    )


#: How the options a task batch takes no part of are spelled on the command line.
_NOT_FOR_TASKS = {
    "generator": "-a", "size": "--size", "options": "-O", "kind_options": "the kind's options",
    "heuristic": "-H", "min_length": "--min-solution-length",
    "max_length": "--max-solution-length", "unique": "--unique", "solve": "--solve",
}  # fmt: skip


def _task_spec(
    reg: Registry, kind: str, task: str, level: int | None,
    task_options: Mapping[str, Any] | None, *, given: Mapping[str, Any],
    strategy: str | None, limits: Limits | None, timings: bool, trace: str | None,
) -> Spec:  # fmt: skip
    """:func:`spec` for a batch of ``kind``'s ``task`` entries."""
    from ..tasks import tasks as all_tasks  # (the kind's tasks, for the message)

    known = all_tasks(registry=reg)
    if task not in known or known[task][0] != kind:
        own = sorted(name for name, (owner, _) in known.items() if owner == kind)
        raise InvalidOptionError(
            f"the {kind} kind has no task {task!r} (its tasks: {', '.join(own) or 'none'})"
        )
    for key, value in given.items():
        if value:
            raise InvalidOptionError(
                f"a task batch (--task) takes no {_NOT_FOR_TASKS[key]}: the task makes its "
                "own instances"
            )
    _kind, _declared, number, options = _checked_task(task, 1 if level is None else level,
                                                     dict(task_options or {}),
                                                     registry=reg)  # fmt: skip
    if trace not in (None, "tokens"):
        raise InvalidOptionError(f"a batch's trace is 'tokens' (or none), not {trace!r}")
    if strategy is not None and trace is None:
        raise InvalidOptionError(
            "a task batch searches only for its trace: a strategy needs --trace tokens"
        )
    if trace is not None and strategy is None:
        strategy = "astar"
    if strategy is not None and strategy not in reg.searchers():
        reg.searchers()[strategy]  # raises, with close matches
    if limits is not None and not isinstance(limits, Limits):
        raise InvalidOptionError(
            f"limits must be a lacak.Limits (or None), not {type(limits).__name__}"
        )
    return Spec(kind=kind, generator="", options={}, kind_options={}, strategy=strategy,
                limits=limits, timings=bool(timings), trace=trace, task=task, level=number,
                task_options=options)  # fmt: skip
