"""The generic Gymnasium environment over any puzzle kind (imports Gymnasium).

:class:`PuzzleEnv` plays one instance per episode: ``reset(seed=...)`` draws it (from
the kind's task at a level, or from one of its generators), each step takes one
successor, and the episode ends at a goal. See docs/machine-learning.md for the
observations, actions and rewards.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..api import _registry, generate
from ..errors import InvalidOptionError, UnknownComponentError
from ..interfaces import describe_state
from ..tasks import TaskKind, tasks
from . import GymKind

__all__ = ["PuzzleEnv", "kind_parts"]


def kind_parts(kind: str, registry: Any = None) -> tuple[Any, GymKind]:
    """The kind's :class:`~lacak.PuzzleType` and its :class:`GymKind` (a blank one when
    it declares none)."""
    kind_type = _registry(registry).puzzle_types()[kind]
    gym = getattr(kind_type, "gym", None)
    return kind_type, gym if isinstance(gym, GymKind) else GymKind()


class Instances:
    """Where an env's instances come from: ``draw(seed) -> (puzzle, facts)``, from the
    kind's task at ``level`` (``facts``: the entry's metadata, with the optimal length),
    or from ``generator`` with ``options`` and ``size`` (then ``facts`` is empty), or,
    for a kind with neither, its :attr:`~lacak.PuzzleType.example` every time."""

    def __init__(
        self, kind: str, kind_type: Any, *, level: int | None, generator: str | None,
        size: Any, options: Mapping[str, Any] | None, task: str | None, registry: Any,
    ) -> None:  # fmt: skip
        self.kind, self.kind_type, self.registry = kind, kind_type, registry
        self.options = dict(options or {})
        self.size = size
        self.generator = generator
        self.example = ""
        self.task: TaskKind | None = None
        self.level = 1 if level is None else int(level)
        declared = [t for t in kind_type.tasks if isinstance(t, TaskKind)]
        if generator is None and (task is not None or declared):
            self.task = tasks(registry=registry)[task][1] if task is not None else declared[0]
            if not 1 <= self.level <= len(self.task.levels):
                raise InvalidOptionError(
                    f"task {self.task.name!r} has levels 1 to {len(self.task.levels)}, "
                    f"got {level!r}"
                )
            if size is not None:  # (a task's board or maze size is its option "shape")
                if "shape" not in self.task.options:
                    raise InvalidOptionError(f"task {self.task.name!r} takes no size")
                self.options["shape"] = size
            unknown = sorted(set(self.options) - set(self.task.options))
            if unknown:
                raise InvalidOptionError(
                    f"task {self.task.name!r} takes no option {', '.join(map(repr, unknown))}"
                )
        elif generator is None:
            batch = kind_type.batch
            generator = batch.generator if batch is not None and batch.generator else None
            if generator is None:
                try:
                    names = list(_registry(registry).generators(kind))
                except UnknownComponentError:  # (a kind without generators)
                    names = []
                if not names and kind_type.example:
                    self.example = kind_type.example  # (every episode plays the example)
                elif len(names) != 1:
                    raise InvalidOptionError(
                        f"kind {kind!r} has no task: name one of its generators "
                        f"({', '.join(names) or 'none'}) with generator="
                    )
                else:
                    generator = names[0]
            self.generator = generator

    def draw(self, seed: int) -> tuple[Any, dict[str, Any]]:
        if self.task is not None:
            made = self.task.make(seed, self.level, **self.options)
            facts = dict(made["metadata"])
            puzzle = made.get("puzzle")
            if puzzle is None:
                raise InvalidOptionError(f"task {self.task.name!r} gives no puzzle to play")
            return puzzle, facts
        if self.generator is None:
            return self.kind_type(self.example), {}
        instance = generate(
            self.kind, self.generator, self.size, seed=seed, registry=self.registry,
            **self.options,
        )  # fmt: skip
        batch = self.kind_type.batch
        if batch is not None and batch.prepare is not None:
            instance = batch.prepare(instance, solve=True, **batch.options)
        if batch is not None and batch.puzzle is not None:
            instance = batch.puzzle(instance)
        return instance, {}


class PuzzleEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One puzzle an episode, a move a step.

    :param kind: the puzzle kind (``gymnasium.make`` gives it from the env's id).
    :param level: the level of the kind's task the instances come from (default 1).
    :param size: the instances' size (a task option, or the generator's size).
    :param generator: draw instances from this generator instead (with ``options``).
    :param options: the task's or the generator's options.
    :param task: the task whose levels make the instances (default: the kind's first).
    :param branching: the number of actions of a kind without fixed ones.
    :param text_length: the observation's length for a kind without arrays.
    :param render_mode: ``"ansi"`` (the kind's text) or ``"rgb_array"`` (its picture).

    Observation: the kind's array (:attr:`GymKind.observe`), else the state's text as
    UTF-8 bytes padded with zeros to ``text_length``. Action: ``i`` takes the successor
    by the kind's ``i``-th action (else the ``i``-th successor); ``info["action_mask"]``
    marks the legal ones. Reward: minus the move's cost; an illegal action leaves the
    state as it is and costs 1. The episode terminates at a goal.
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}  # noqa: RUF012 (Gymnasium's)

    def __init__(
        self, kind: str, *, level: int | None = None, size: Any = None,
        generator: str | None = None, options: Mapping[str, Any] | None = None,
        task: str | None = None, branching: int = 8, text_length: int = 256,
        render_mode: str | None = None, registry: Any = None,
    ) -> None:  # fmt: skip
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InvalidOptionError(
                f"render_mode is one of ansi, rgb_array (or None), got {render_mode!r}"
            )
        self.kind = kind
        self.render_mode = render_mode
        self.kind_type, self.parts = kind_parts(kind, registry)
        self.instances = Instances(
            kind, self.kind_type, level=level, generator=generator, size=size,
            options=options, task=task, registry=registry,
        )  # fmt: skip
        self.text_length = int(text_length)
        actions = self.parts.actions
        self.action_space: spaces.Discrete = spaces.Discrete(
            len(actions) if actions else int(branching)
        )
        self.puzzle, self.facts = self.instances.draw(0)
        self.state = self.puzzle.initial
        self.observation_space = self._space(self.puzzle)
        self.steps = 0

    # -- spaces and observations --------------------------------------------------------

    def _space(self, puzzle: Any) -> spaces.Box:
        if self.parts.observe is None:
            return spaces.Box(0, 255, (self.text_length,), np.uint8)
        sample = np.asarray(self.parts.observe(puzzle, puzzle.initial))
        if self.parts.bounds is not None:
            low, high = self.parts.bounds(puzzle)
        elif np.issubdtype(sample.dtype, np.integer):
            low, high = np.iinfo(sample.dtype).min, np.iinfo(sample.dtype).max
        else:
            low, high = -np.inf, np.inf
        return spaces.Box(
            np.broadcast_to(np.asarray(low, sample.dtype), sample.shape),
            np.broadcast_to(np.asarray(high, sample.dtype), sample.shape),
            sample.shape,
            sample.dtype,
        )

    def _observe(self) -> np.ndarray:
        if self.parts.observe is not None:
            observation = np.asarray(self.parts.observe(self.puzzle, self.state))
            return observation.astype(self.observation_space.dtype, copy=False)
        text = describe_state(self.puzzle, self.state).encode()[: self.text_length]
        observation = np.zeros(self.text_length, np.uint8)
        observation[: len(text)] = np.frombuffer(text, np.uint8)
        return observation

    def _moves(self) -> list[tuple[Any, Any, float] | None]:
        """The successor each action takes (``None``: illegal here)."""
        successors = list(self.puzzle.successors(self.state))
        size = int(self.action_space.n)
        if self.parts.actions:
            by_action = {action: (action, after, cost) for action, after, cost in successors}
            return [by_action.get(action) for action in self.parts.actions]
        moves: list[tuple[Any, Any, float] | None] = [tuple(s) for s in successors[:size]]
        return moves + [None] * (size - len(moves))

    def _info(self, moves: list[Any]) -> dict[str, Any]:
        info: dict[str, Any] = {
            "action_mask": np.array([m is not None for m in moves], np.int8),
            "steps": self.steps,
        }
        if "optimal_length" in self.facts:
            info["optimal_length"] = self.facts["optimal_length"]
        return info

    # -- the Gymnasium API ----------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new instance, drawn with the env's random generator (``seed`` reseeds it)."""
        super().reset(seed=seed)
        instance_seed = int(self.np_random.integers(0, 2**63 - 1))
        self.puzzle, self.facts = self.instances.draw(instance_seed)
        self.state = self.puzzle.initial
        self.steps = 0
        observation = self._observe()
        if not self.observation_space.contains(observation):
            raise InvalidOptionError(
                f"a {self.kind} instance of another shape than the env's first: keep its "
                "size fixed (size=...)"
            )
        return observation, self._info(self._moves())

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Take the action's move (an illegal one leaves the state and costs 1)."""
        moves = self._moves()
        index = int(action)
        move = moves[index] if 0 <= index < len(moves) else None
        if move is None:
            reward = -1.0
        else:
            self.state, reward = move[1], -float(move[2])
        self.steps += 1
        terminated = bool(self.puzzle.is_goal(self.state))
        return self._observe(), reward, terminated, False, self._info(self._moves())

    def render(self) -> Any:
        """The ``ansi`` text or the ``rgb_array`` picture of the current state."""
        if self.render_mode is None:
            return None
        shown = self.parts.at(self.puzzle, self.state) if self.parts.at else None
        render = self.kind_type.render
        if self.render_mode == "ansi":
            if shown is not None and render is not None:
                return str(render(shown, None, "text"))
            return describe_state(self.puzzle, self.state) + "\n"
        if shown is not None and render is not None and "png" in self.kind_type.formats:
            return png_array(render(shown, None, "png"))
        return text_array(describe_state(self.puzzle, self.state))


def png_array(png: bytes) -> np.ndarray:
    """A PNG's pixels as a ``height x width x 3`` ``uint8`` array."""
    from PIL import Image

    with Image.open(io.BytesIO(png)) as image:
        return np.asarray(image.convert("RGB"), dtype=np.uint8)


def text_array(text: str) -> np.ndarray:
    """Text drawn black on white, as a ``height x width x 3`` ``uint8`` array."""
    from PIL import Image, ImageDraw

    lines = text.splitlines() or [""]
    image = Image.new("RGB", (8 + 7 * max(map(len, lines)), 8 + 14 * len(lines)), "white")
    ImageDraw.Draw(image).multiline_text((4, 4), "\n".join(lines), fill="black")
    return np.asarray(image, dtype=np.uint8)
