"""``gymnasium.make_vec("lacak/Sliding-v0", num_envs=N)``: N sliding puzzles stepped at
once in numpy (imports Gymnasium: the gym extra).

Declared by :data:`lacak_sliding.learning.GYM` as the kind's vector entry point and
registered by :mod:`lacak.gym`. It plays what the single env plays with
``generator="walk"``: boards a random walk of ``moves`` blank moves from the goal (never
undoing the last), with the same observations, actions and rewards (docs/machine-learning.md),
and resets each finished puzzle on the next step (Gymnasium's ``NEXT_STEP`` autoreset).
``bench/gym_sliding.py`` measures it against ``SyncVectorEnv`` over the single env.
"""

from __future__ import annotations

from typing import Any

import lacak
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .puzzle import parse_board_size

__all__ = ["SlidingVectorEnv"]

#: The actions, as in the single env: the blank moves up, down, left, right.
ACTIONS = ("U", "D", "L", "R")
#: Each action's opposite (its index).
REVERSE = np.array([1, 0, 3, 2])


class SlidingVectorEnv(VectorEnv):
    """``num_envs`` boards of ``size``, each scrambled by ``moves`` random blank moves.

    :param num_envs: how many puzzles.
    :param size: the boards' size, ``ROWSxCOLS``.
    :param moves: the random walk's length (or ``options={"moves": ...}``, as for the
        single env's ``walk`` generator).
    :param max_episode_steps: steps before a puzzle's episode is truncated.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}  # noqa: RUF012

    def __init__(
        self, num_envs: int = 1, *, size: Any = "3x3", moves: int | None = None,
        generator: str = "walk", options: dict[str, Any] | None = None,
        max_episode_steps: int | None = 200, kind: str = "sliding",
        render_mode: str | None = None,
    ) -> None:  # fmt: skip
        if generator != "walk":
            raise lacak.InvalidOptionError(
                "the vectorised sliding env scrambles by random walks only (generator='walk')"
            )
        if render_mode is not None:
            raise lacak.InvalidOptionError("the vectorised sliding env draws no pictures")
        dims = parse_board_size(size)
        if dims is None:
            raise lacak.InvalidOptionError("the vectorised sliding env needs a size like 3x3")
        moves = (options or {}).get("moves", 50) if moves is None else moves
        if isinstance(moves, bool) or not isinstance(moves, int) or moves < 0:
            raise lacak.InvalidOptionError(f"moves must be an integer >= 0, got {moves!r}")
        self.num_envs = int(num_envs)
        self.rows, self.cols = dims
        self.moves = moves
        self.max_steps = max_episode_steps
        n = self.rows * self.cols
        self.goal = np.array([*range(1, n), 0], np.int64)
        # target[p, a]: where the blank at p goes by action a (-1: off the board)
        self.target = np.full((n, 4), -1, np.int64)
        for p in range(n):
            r, c = divmod(p, self.cols)
            for a, (dr, dc) in enumerate(((-1, 0), (1, 0), (0, -1), (0, 1))):
                if 0 <= r + dr < self.rows and 0 <= c + dc < self.cols:
                    self.target[p, a] = (r + dr) * self.cols + c + dc
        self.single_observation_space = spaces.Box(0, n - 1, (self.rows, self.cols), np.int64)
        self.single_action_space = spaces.Discrete(4)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.boards = np.tile(self.goal, (self.num_envs, 1))
        self.blank = np.full(self.num_envs, n - 1, np.int64)
        self.steps = np.zeros(self.num_envs, np.int64)
        self.pending = np.zeros(self.num_envs, bool)
        self.rng = np.random.default_rng()

    def _scramble(self, which: np.ndarray) -> None:
        """Random walks of :attr:`moves` from the goal for the puzzles ``which``."""
        count = len(which)
        boards = np.tile(self.goal, (count, 1))
        blank = np.full(count, len(self.goal) - 1, np.int64)
        last = np.full(count, -1, np.int64)
        rows = np.arange(count)
        for _ in range(self.moves):
            targets = self.target[blank]
            legal = targets >= 0
            legal[rows[last >= 0], REVERSE[last[last >= 0]]] = False
            action = np.argmax(legal * self.rng.random((count, 4)), axis=1)
            goes = targets[rows, action]
            boards[rows, blank] = boards[rows, goes]
            boards[rows, goes] = 0
            blank, last = goes, action
        self.boards[which] = boards
        self.blank[which] = blank
        self.steps[which] = 0

    def _observe(self) -> np.ndarray:
        return self.boards.reshape(self.num_envs, self.rows, self.cols).copy()

    def _info(self) -> dict[str, Any]:
        return {"action_mask": (self.target[self.blank] >= 0).astype(np.int8)}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Scramble every puzzle (``seed`` seeds the scrambles)."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        self._scramble(np.arange(self.num_envs))
        self.pending[:] = False
        return self._observe(), self._info()

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Move each puzzle's blank (a finished puzzle is scrambled again instead)."""
        actions = np.asarray(actions, np.int64).reshape(self.num_envs)
        rewards = np.full(self.num_envs, -1.0)
        if self.pending.any():
            self._scramble(np.flatnonzero(self.pending))
            rewards[self.pending] = 0.0
        moving = ~self.pending
        rows = np.flatnonzero(moving)
        targets = self.target[self.blank[rows], np.clip(actions[rows], 0, 3)]
        legal = (targets >= 0) & (actions[rows] >= 0) & (actions[rows] < 4)
        rows, targets = rows[legal], targets[legal]
        self.boards[rows, self.blank[rows]] = self.boards[rows, targets]
        self.boards[rows, targets] = 0
        self.blank[rows] = targets
        self.steps[moving] += 1
        terminated = moving & (self.boards == self.goal).all(axis=1)
        truncated = (
            moving & ~terminated & (self.steps >= self.max_steps)
            if self.max_steps is not None
            else np.zeros(self.num_envs, bool)
        )
        self.pending = terminated | truncated
        return self._observe(), rewards, terminated, truncated, self._info()
