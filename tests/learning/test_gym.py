"""lacak.gym: Gymnasium envs of every kind, the Boggle env and the vectorised sliding env
(issue 27, item 1)."""

from __future__ import annotations

import subprocess
import sys
import warnings
from typing import Any

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

gym = pytest.importorskip("gymnasium")

import lacak  # noqa: E402
import lacak.gym.env  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

ENVS = [
    ("lacak/Sliding-v0", {"size": "3x3"}),
    ("lacak/Sliding-v0", {"size": "4x4", "level": 2}),
    ("lacak/Sliding-v0", {"size": "2x3", "generator": "walk", "options": {"moves": 9}}),
    ("lacak/Maze-v0", {}),
    ("lacak/Maze-v0", {"level": 2, "size": "5x7"}),
    ("lacak/Boggle-v0", {}),
    ("lacak/Boggle-v0", {"level": 3}),
]


def test_import_lacak_imports_no_gymnasium_and_registers_once_it_is() -> None:
    code = (
        "import sys, lacak\n"
        "assert 'gymnasium' not in sys.modules and 'reasoning_gym' not in sys.modules\n"
        "import gymnasium\n"
        "assert 'lacak/Sliding-v0' in gymnasium.registry\n"
        "assert 'lacak/Maze-v0' in gymnasium.registry and 'lacak/Boggle-v0' in gymnasium.registry\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_gymnasium_first_then_lacak_and_the_module_form() -> None:
    code = (
        "import gymnasium\n"
        "env = gymnasium.make('lacak.gym:lacak/Sliding-v0', size='3x3')\n"
        "env.reset(seed=1)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_every_kind_has_an_env() -> None:
    ids = lacak.gym.register_envs()
    kinds = lacak.plugin.registry.default_registry().puzzle_types()
    assert len(ids) == len(kinds)
    assert {"lacak/Sliding-v0", "lacak/Maze-v0", "lacak/Boggle-v0"} <= set(ids)


@pytest.mark.parametrize(("ident", "kwargs"), ENVS, ids=lambda v: str(v))
def test_check_env_passes(ident: str, kwargs: dict) -> None:
    for mode in (None, "ansi", "rgb_array"):
        env = gym.make(ident, render_mode=mode, **kwargs)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # Gymnasium's checker warns on what it dislikes
            check_env(env.unwrapped, skip_render_check=mode is None)
        env.close()


def _episode(ident: str, kwargs: dict, seed: int, steps: int = 30) -> list:
    env = gym.make(ident, **kwargs)
    observation, info = env.reset(seed=seed)
    seen = [observation, info["action_mask"].tolist()]
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        legal = np.flatnonzero(info["action_mask"])
        assert len(legal), "some action is always legal"
        action = int(rng.choice(legal))
        observation, reward, terminated, truncated, info = env.step(action)
        seen.append((observation, reward, terminated, truncated))
        if terminated or truncated:
            observation, info = env.reset()
    return seen


def _same(one: object, two: object) -> bool:
    if isinstance(one, dict):
        return one.keys() == two.keys() and all(_same(one[k], two[k]) for k in one)  # type: ignore[union-attr]
    if isinstance(one, (list, tuple)):
        return len(one) == len(two) and all(map(_same, one, two))  # type: ignore[arg-type]
    return bool(np.array_equal(one, two))


@pytest.mark.parametrize(("ident", "kwargs"), ENVS[::2], ids=lambda v: str(v))
def test_seeded_episodes_repeat(ident: str, kwargs: dict) -> None:
    assert _same(_episode(ident, kwargs, 5), _episode(ident, kwargs, 5))
    firsts = [_episode(ident, kwargs, seed, 0) for seed in range(5, 10)]
    assert not all(_same(firsts[0], other) for other in firsts[1:])


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), actions=st.lists(st.integers(0, 3), max_size=40))
def test_action_masks_say_which_moves_change_the_board(seed: int, actions: list[int]) -> None:
    env = gym.make("lacak/Sliding-v0", size="3x3", generator="walk", options={"moves": 20})
    observation, info = env.reset(seed=seed)
    for action in actions:
        legal = bool(info["action_mask"][action])
        after, reward, terminated, _, info = env.step(action)
        assert (not np.array_equal(after, observation)) == legal
        assert reward == -1.0
        # a legal move is the blank's move by the kind's own successors
        observation = after
        if terminated:
            assert np.array_equal(observation.ravel(), [*range(1, 9), 0])
            break


def test_maze_env_walks_the_optimal_path_to_the_end() -> None:
    env = gym.make("lacak/Maze-v0", level=2)
    observation, info = env.reset(seed=4)
    puzzle = env.unwrapped.puzzle
    path = lacak.solve(puzzle).actions
    assert len(path) == info["optimal_length"]
    total = 0.0
    for move in path:
        observation, reward, terminated, _, info = env.step("NESW".index(move))
        total += reward
    assert terminated and total == -len(path)
    assert observation[1][puzzle.goal] == 1 and observation[2][puzzle.goal] == 1


def test_boggle_env_rewards_each_word_once() -> None:
    env = gym.make("lacak/Boggle-v0", level=3)
    _, info = env.reset(seed=2)
    board = env.unwrapped.board
    found = lacak.solve(board).words
    submit = board.rows * board.cols
    total = 0.0
    for word in found:
        for r, c in word.path:
            _, _, _, _, info = env.step(r * board.cols + c)
        assert info["word"] == word.word
        _, reward, terminated, _, info = env.step(submit)
        assert reward == word.score
        total += reward
    assert terminated and info["found"] == len(found)
    first = found[0]
    for r, c in first.path:
        env.step(r * board.cols + c)
    assert env.step(submit)[1] == 0.0  # a word once
    # an illegal pick (a tile not next to the last one) changes nothing
    _, info = env.reset(seed=3)
    env.step(0)
    far = board.rows * board.cols - 1
    before = env.unwrapped.path[:]
    _, reward, _, _, info = env.step(far)
    assert env.unwrapped.path == before and reward == 0.0 and info["action_mask"][far] == 0


def test_vector_env_matches_the_rules_and_repeats() -> None:
    def run(seed: int) -> list:
        env = gym.make_vec(
            "lacak/Sliding-v0", num_envs=8, vectorization_mode="vector_entry_point",
            size="3x3", options={"moves": 4}, max_episode_steps=10,
        )  # fmt: skip
        observation, info = env.reset(seed=seed)
        rng = np.random.default_rng(0)
        seen = [observation]
        for _ in range(40):
            mask = info["action_mask"]
            before = observation
            actions = rng.integers(0, 4, 8)
            observation, reward, terminated, _, info = env.step(actions)
            seen.append(observation)
            for i in range(8):
                if reward[i] == 0.0:  # reset on this step (NEXT_STEP autoreset)
                    continue
                moved = not np.array_equal(before[i], observation[i])
                assert moved == bool(mask[i][actions[i]])
                if terminated[i]:
                    assert np.array_equal(observation[i].ravel(), [*range(1, 9), 0])
        return seen

    assert _same(run(1), run(1))
    assert not _same(run(1), run(2))


def test_bad_options_are_lacak_errors() -> None:
    with pytest.raises(lacak.InvalidOptionError):
        gym.make("lacak/Maze-v0", level=99)
    with pytest.raises(lacak.InvalidOptionError):
        gym.make("lacak/Boggle-v0", colour="red")
    with pytest.raises(lacak.InvalidOptionError):
        lacak.gym.env.PuzzleEnv("sliding", render_mode="video")


@attrs.frozen
class Tick:
    """Count from 0 to ``target`` by +1 and +2."""

    target: int
    kind = "tick"
    initial = 0

    def is_goal(self, state: int) -> bool:
        return state == self.target

    def successors(self, state: int) -> Any:
        if state < self.target:
            yield "+1", state + 1, 1.0
            yield "+2", state + 2, 1.0


class TickKind:
    """A third-party kind with a generator, no GymKind and no task."""

    @lacak.hookimpl
    def register_puzzles(self, register: Any) -> None:
        register(lacak.PuzzleType(kind="tick", parse=lambda text: Tick(int(text))))

    @lacak.hookimpl
    def register_generators(self, register: Any) -> None:
        def make(size: Any, seed: int) -> Tick:
            return Tick(seed % 40)

        register(lacak.Generator(kind="tick", name="count", make=make))


def test_a_kind_that_declares_nothing_gets_the_generic_env() -> None:
    registry = lacak.Registry(entry_points=False)
    registry.add_plugin(TickKind(), name="tick")
    env = lacak.gym.env.PuzzleEnv("tick", registry=registry, render_mode="ansi")
    check_env(env, skip_render_check=False)
    observation, info = env.reset(seed=3)
    target = env.puzzle.target
    assert bytes(observation[observation > 0]).decode() == "0"
    assert info["action_mask"].tolist() == [1, 1, 0, 0, 0, 0, 0, 0] or target == 0
    steps = 0
    terminated = target == 0
    while not terminated:
        _, reward, terminated, _, info = env.step(0)  # the first successor: +1
        steps += 1
        assert reward == -1.0
    assert steps == target
    assert env.render() == f"{target}\n"
    if "jugs" in lacak.plugin.registry.default_registry().puzzle_types():
        check_env(gym.make("lacak/Jugs-v0").unwrapped)  # the example plugin: its example
