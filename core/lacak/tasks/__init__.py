"""Verified tasks with difficulty levels, for language models (docs/machine-learning.md).

A task is a kind's question with a proven answer: a scrambled board and its optimal
moves, a maze and its shortest path, a Boggle board and all its words. A kind declares
its tasks in :attr:`lacak.PuzzleType.tasks` as :class:`TaskKind` records (how to make
entry ``i`` at a level, how to score an answer); this module assembles them:

>>> import lacak.tasks
>>> data = lacak.tasks.create_dataset("sliding", size=2, seed=1, level=1)
>>> entry = data[0]
>>> sorted(entry)
['answer', 'metadata', 'question']
>>> lacak.tasks.score_answer(entry["answer"], entry)
1.0
>>> lacak.tasks.score_answer("not an answer", entry)
0.0

Entries are made one at a time from the dataset's seed and their index (entry ``i`` is
the same whatever the dataset's size, on every machine), in the shape reasoning-gym
uses (``question``, ``answer``, ``metadata``); when reasoning-gym is installed, each
task is one of its datasets, ``lacak_NAME``, as soon as it is imported (:func:`install`,
which ``import lacak`` calls; :func:`register_reasoning_gym` does it at once).
"""

from __future__ import annotations

import importlib.util
import math
import operator
import reprlib
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import attrs

from ..api import _registry
from ..errors import InvalidInputError, InvalidOptionError, LacakError, UnknownComponentError
from ._after import when_imported

__all__ = [
    "Curriculum",
    "TaskDataset",
    "TaskKind",
    "checked",
    "create_dataset",
    "entry_seed",
    "install",
    "make_entry",
    "register_reasoning_gym",
    "score_answer",
    "tasks",
]


def _as_tuple(items: Any) -> tuple[Any, ...]:
    return tuple(items)


@attrs.frozen(kw_only=True)
class TaskKind:
    """One task of a puzzle kind, declared in :attr:`lacak.PuzzleType.tasks`.

    ``make(seed, level, **options)`` makes one entry: a mapping with ``question`` (text
    a language model reads: the puzzle, the rules, the answer's format), ``answer`` (a
    proven-optimal reference) and ``metadata`` (JSON data: the instance, how it was
    made, its measured difficulty), and may add ``puzzle`` (the live puzzle, which the
    Gymnasium environments start from; it is not part of an entry). The same seed and
    level give the same entry on every machine. ``score(answer, entry)`` gives 1.0 for
    an optimal answer, less for a worse one, 0.0 for a wrong one; it may raise on an
    answer it cannot read (:func:`score_answer` turns that into 0.0).
    """

    #: The task's name (``"sliding"``, ``"boggle_best"``); unique among all kinds' tasks.
    name: str
    #: ``make(seed, level, **options) -> {"question", "answer", "metadata"[, "puzzle"]}``.
    make: Callable[..., Mapping[str, Any]] = attrs.field(repr=False)
    #: ``score(answer, entry) -> float`` in ``[0, 1]``.
    score: Callable[[Any, Mapping[str, Any]], float] = attrs.field(repr=False)
    #: What each level is, level 1 first (``"optimal length 1-5"``): the measured
    #: difficulty that defines it.
    levels: tuple[str, ...] = attrs.field(converter=_as_tuple)
    #: One line for listings.
    description: str = ""
    #: The keyword options ``make`` takes, with their defaults (``{"shape": "3x3"}``).
    options: Mapping[str, Any] = attrs.field(factory=dict)


def tasks(*, registry: Any = None) -> dict[str, tuple[str, TaskKind]]:
    """Every task the installed kinds declare: ``{name: (kind, task)}``, sorted by name.

    :raises PluginError: two kinds declare tasks of the same name.
    """
    found: dict[str, tuple[str, TaskKind]] = {}
    for kind, kind_type in _registry(registry).puzzle_types().items():
        for task in getattr(kind_type, "tasks", ()) or ():
            if not isinstance(task, TaskKind):
                continue
            if task.name in found:
                raise InvalidOptionError(
                    f"task {task.name!r} is declared by kinds {found[task.name][0]!r} and {kind!r}"
                )
            found[task.name] = (kind, task)
    return dict(sorted(found.items()))


def _task(name: Any, registry: Any = None) -> tuple[str, TaskKind]:
    if not isinstance(name, str):
        raise InvalidOptionError(f"a task is named by a string, got {reprlib.repr(name)}")
    known = tasks(registry=registry)
    if name not in known:
        raise UnknownComponentError("task", name, known)
    return known[name]


def _whole(value: Any, what: str, least: int = 0) -> int:
    if isinstance(value, bool):
        raise InvalidOptionError(f"{what} must be an integer >= {least}, got {value!r}")
    try:
        number = operator.index(value)
    except TypeError:
        raise InvalidOptionError(
            f"{what} must be an integer >= {least}, got {reprlib.repr(value)}"
        ) from None
    if number < least:
        raise InvalidOptionError(f"{what} must be an integer >= {least}, got {number}")
    return number


def entry_seed(seed: int, index: int) -> int:
    """The seed of entry ``index`` of a dataset seeded ``seed``: the first 63 bits of
    :class:`numpy.random.SeedSequence` ``(seed, spawn_key=(index,))`` (the scheme of
    ``lacak batch``), the same on every machine.

    >>> entry_seed(1, 0) == entry_seed(1, 0) != entry_seed(1, 1)
    True
    """
    import numpy as np  # (deferred: ``import lacak`` does not import numpy)

    state = np.random.SeedSequence(seed, spawn_key=(index,)).generate_state(2, np.uint32)
    return (int(state[0]) | int(state[1]) << 32) >> 1


class TaskDataset(Sequence[dict[str, Any]]):
    """``size`` entries of a task at one level, made on demand from the dataset's seed and
    their index: ``dataset[i]`` is the same whatever ``size`` (kept once indexed;
    iterating makes each entry anew and keeps none)."""

    def __init__(
        self, name: str, *, size: int, seed: int, level: int, registry: Any = None,
        **options: Any,
    ) -> None:  # fmt: skip
        self.kind, self.task, self.level, self.options = checked(
            name, level, options, registry=registry
        )
        self.name = name
        self.size = _whole(size, "size")
        self.seed = _whole(seed, "seed")
        self._entries: dict[int, dict[str, Any]] = {}

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.size))]
        index = operator.index(index)
        if index < 0:
            index += self.size
        if not 0 <= index < self.size:
            raise IndexError(f"entry {index} of a dataset of {self.size}")
        if index not in self._entries:
            self._entries[index] = self.make(index)
        return self._entries[index]

    def __iter__(self) -> Iterator[dict[str, Any]]:
        # (entries made while iterating are not kept: a long dataset streams in flat memory)
        return (self._entries.get(i) or self.make(i) for i in range(self.size))

    def make(self, index: int, *, puzzle: bool = False) -> dict[str, Any]:
        """Entry ``index`` (made anew; with ``puzzle=True`` also its live ``"puzzle"``)."""
        return make_entry(self.kind, self.task, index, entry_seed(self.seed, index),
                          dataset_seed=self.seed, level=self.level, options=self.options,
                          puzzle=puzzle)  # fmt: skip


def checked(
    name: Any, level: Any, options: Mapping[str, Any], *, registry: Any = None
) -> tuple[str, TaskKind, int, dict[str, Any]]:
    """Task ``name`` at ``level`` with ``options``, checked: ``(kind, task, level,
    options with the task's defaults)``.

    :raises UnknownComponentError: an unknown task.
    :raises InvalidOptionError: a bad level or an option the task does not take.
    """
    kind, task = _task(name, registry)
    levels = len(task.levels)
    number = _whole(level, "level", 1)
    if number > levels:
        raise InvalidOptionError(f"task {name!r} has levels 1 to {levels}, got {number}")
    unknown = sorted(set(options) - set(task.options))
    if unknown:
        raise InvalidOptionError(
            f"task {name!r} takes no option {', '.join(map(repr, unknown))} (its "
            f"options: {', '.join(sorted(task.options)) or 'none'})"
        )
    return kind, task, number, {**task.options, **options}


def make_entry(
    kind: str, task: TaskKind, index: int, seed: int, *, dataset_seed: int, level: int,
    options: Mapping[str, Any], puzzle: bool = False,
) -> dict[str, Any]:  # fmt: skip
    """Entry ``index`` of a dataset of ``task`` (of ``kind``) seeded ``dataset_seed``, from
    its own ``seed`` (:func:`entry_seed`): what :class:`TaskDataset` and ``lacak batch KIND
    --task`` both make (with ``puzzle=True`` also its live ``"puzzle"``)."""
    made = task.make(seed, level, **options)
    metadata = dict(made["metadata"])
    metadata.update(
        kind=kind, task=task.name, level=level, seed=seed,
        dataset_seed=dataset_seed, index=index, options=dict(options),
    )  # fmt: skip
    entry = {"question": made["question"], "answer": made["answer"], "metadata": metadata}
    if puzzle:
        entry["puzzle"] = made.get("puzzle")
    return entry


def create_dataset(
    name: str, size: int = 10, seed: int = 0, level: int = 1, *, registry: Any = None,
    **options: Any,
) -> TaskDataset:  # fmt: skip
    """``size`` entries of the task ``name`` at ``level``, from ``seed``.

    :param name: a task (``"sliding"``, ``"maze"``, ``"boggle"``, ``"boggle_best"``; see
        :func:`tasks`).
    :param level: 1 (easiest) to the task's number of levels (``TaskKind.levels``).
    :param size: the number of entries.
    :param options: the task's options (a sliding board's or a maze's ``shape``,
        ``ROWSxCOLS``; a Boggle ``dictionary``).
    :raises UnknownComponentError: an unknown task.
    :raises InvalidOptionError: a bad size, seed, level or option.
    """
    return TaskDataset(name, size=size, seed=seed, level=level, registry=registry, **options)


def score_answer(answer: Any, entry: Mapping[str, Any], *, registry: Any = None) -> float:
    """How good ``answer`` is for ``entry``: 1.0 for an optimal answer, less for a valid
    but worse one (each task documents its partial credit), 0.0 for an invalid one or
    one that cannot be read. It never raises on any ``answer``.

    :raises InvalidInputError: ``entry`` is not an entry of a lacak task.
    :raises UnknownComponentError: its task is not installed.
    """
    metadata = entry.get("metadata") if isinstance(entry, Mapping) else None
    name = metadata.get("task") if isinstance(metadata, Mapping) else None
    if not isinstance(name, str):
        raise InvalidInputError("not an entry of a lacak task (no metadata.task)")
    task = _task(name, registry)[1]
    try:
        value = float(task.score(answer, entry))
    except Exception:  # (an answer it cannot read, whatever it is: never raise)
        return 0.0
    if not math.isfinite(value):
        return 0.0
    return min(1.0, max(0.0, value))


@attrs.define
class Curriculum:
    """Steps a task through its levels: up after ``window`` scores averaging at least
    ``up``, down after ``window`` averaging below ``down``.

    >>> course = Curriculum("maze", seed=3)
    >>> course.level
    1
    >>> for _ in range(course.window):
    ...     level = course.record(1.0)
    >>> course.level
    2
    >>> len(course.dataset(3))
    3
    """

    #: The task.
    name: str
    #: The seed of the datasets (each level's dataset is seeded ``seed + level``).
    seed: int = 0
    #: The current level.
    level: int = 1
    #: How many scores decide a step.
    window: int = 20
    #: The mean score that moves up a level, and the one under which it moves down.
    up: float = 0.9
    down: float = 0.3
    #: The task's options.
    options: dict[str, Any] = attrs.field(factory=dict)
    _scores: list[float] = attrs.field(factory=list, init=False)
    _levels: int = attrs.field(default=0, init=False)

    def __attrs_post_init__(self) -> None:
        self._levels = len(_task(self.name)[1].levels)
        self.level = _whole(self.level, "level", 1)
        if self.level > self._levels:
            raise InvalidOptionError(f"task {self.name!r} has levels 1 to {self._levels}")

    @property
    def levels(self) -> int:
        """The task's number of levels."""
        return self._levels

    def dataset(self, size: int = 10) -> TaskDataset:
        """A dataset of ``size`` entries at the current level."""
        return create_dataset(
            self.name, size=size, seed=self.seed + self.level, level=self.level, **self.options
        )

    def step(self, by: int = 1) -> int:
        """Move ``by`` levels (within the task's levels); the new level."""
        self.level = min(self._levels, max(1, self.level + by))
        self._scores.clear()
        return self.level

    def record(self, score: float) -> int:
        """Note one score (of an answer at the current level); the level after it."""
        self._scores.append(float(score))
        if len(self._scores) >= self.window:
            mean = sum(self._scores) / len(self._scores)
            if mean >= self.up:
                return self.step(1)
            if mean < self.down:
                return self.step(-1)
            self._scores.clear()
        return self.level


def _register_quietly() -> None:
    try:
        register_reasoning_gym()
    except (LacakError, ImportError, ValueError) as error:
        warnings.warn(
            f"lacak's tasks were not registered with reasoning-gym: {error}", stacklevel=2
        )


def install() -> None:
    """Register the tasks with reasoning-gym now if it is imported, else when it is
    (``import lacak`` never imports it)."""
    when_imported("reasoning_gym", _register_quietly)


def register_reasoning_gym(*, registry: Any = None) -> list[str]:
    """Register every task as a reasoning-gym dataset ``lacak_NAME`` (so that
    ``reasoning_gym.create_dataset("lacak_sliding", size=, seed=, level=)`` makes our
    entries and its ``score_answer`` calls ours); the names registered. Does nothing
    (and returns ``[]``) when reasoning-gym is not installed.
    """
    from ._reasoning_gym import register

    if importlib.util.find_spec("reasoning_gym") is None:
        return []
    return register(list(tasks(registry=registry)), create_dataset, score_answer)
