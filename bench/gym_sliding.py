"""Steps per second of the vectorised sliding env against Gymnasium's SyncVectorEnv (issue 27).

Both play the same thing: N sliding puzzles of SIZE, each scrambled by a random walk of
MOVES blank moves, stepped with random legal actions (from ``info["action_mask"]``),
finished ones reset on the next step. ``SyncVectorEnv`` steps N copies of the generic
single env, ``gymnasium.make("lacak/Sliding-v0", generator="walk")``, one after the
other in Python; ``lacak_sliding.vector.SlidingVectorEnv`` (``gymnasium.make_vec(...,
vectorization_mode="vector_entry_point")``) steps them all at once in numpy. Prints a
table: steps per second (environment steps, N per vector step) and the ratio.

    /work/venv/bin/python bench/gym_sliding.py [--size 4x4] [--moves 50] [--seconds 3] [--quick]
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import lacak  # noqa: F401  (registers lacak/Sliding-v0)
import numpy as np


def rate(env: gym.vector.VectorEnv, seconds: float, seed: int = 0) -> float:
    """Environment steps per second over about ``seconds`` (after one warm-up step)."""
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    _, _, _, _, info = env.step(np.zeros(env.num_envs, np.int64))
    steps = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        for _ in range(20):
            mask = info["action_mask"]
            actions = np.argmax(mask * rng.random(mask.shape), axis=1)
            _, _, _, _, info = env.step(actions)
            steps += env.num_envs
    return steps / (time.perf_counter() - began)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="4x4")
    parser.add_argument("--moves", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--envs", default="1,16,256,1024")
    parser.add_argument("--quick", action="store_true", help="0.5 s a cell, 1 and 64 envs")
    args = parser.parse_args()
    seconds = 0.5 if args.quick else args.seconds
    counts = [1, 64] if args.quick else [int(n) for n in args.envs.split(",")]
    kwargs = {"size": args.size, "generator": "walk", "options": {"moves": args.moves}}
    print(f"sliding {args.size}, walks of {args.moves} moves, random legal actions")
    print("| envs | SyncVectorEnv (steps/s) | SlidingVectorEnv (steps/s) | ratio |")
    print("|---:|---:|---:|---:|")
    for n in counts:
        sync = gym.make_vec("lacak/Sliding-v0", num_envs=n, vectorization_mode="sync", **kwargs)
        vector = gym.make_vec(
            "lacak/Sliding-v0", num_envs=n, vectorization_mode="vector_entry_point", **kwargs
        )
        slow = rate(sync, seconds)
        fast = rate(vector, seconds)
        print(f"| {n:,} | {slow:,.0f} | {fast:,.0f} | {fast / slow:,.1f}x |")
        sync.close()
        vector.close()


if __name__ == "__main__":
    main()
