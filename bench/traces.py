"""Issues 27 and 28: what recording a search costs, and how fast token traces replay.

For generic strategies on seeded 8-puzzle boards, the time of a search with no trace,
with a tree trace (``SearchTrace()``), with steps (``SearchTrace(steps=True)``: both lists
kept at each expansion, the first 1,000 expansions as ``--steps`` keeps) and as
Searchformer tokens (the tree trace, then :func:`~lacak.tokens.tokens`), the ratios to the plain search, and
:func:`lacak.tokens.replay_tokens`'s time to check each token trace. Best of ``--repeat``
runs, interleaved (the machine may be shared). Run: ``.venv/bin/python bench/traces.py``.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import lacak
from lacak.tokens import replay_tokens, tokens


def _best(work: Callable[[], Any], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        began = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - began)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--boards", type=int, default=20, help="seeded 8-puzzle boards")
    parser.add_argument("--moves", type=int, default=16, help="the walks' length")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    puzzles = [lacak.generate("sliding", "walk", "3x3", moves=args.moves, seed=s)
               for s in range(args.boards)]  # fmt: skip
    manhattan = lacak.resolve_heuristic(puzzles[0], "manhattan")
    print(f"{args.boards} boards (walks of {args.moves} moves), best of {args.repeat}")
    print(f"{'strategy':12} {'expanded':>9} {'plain s':>8} {'tree':>6} {'steps':>6} "
          f"{'tokens':>7} {'replay s':>9}")  # fmt: skip
    for name, h in (("astar", "manhattan"), ("best-first", "manhattan"), ("bfs", None)):
        print(_row(puzzles, name, manhattan if h else None, args.repeat))


def _row(puzzles: list[Any], name: str, heuristic: Any, repeat: int) -> str:
    def solve(trace: Any = None) -> list[Any]:
        out = []
        for p in puzzles:
            recorder = trace() if trace is not None else None
            result = lacak.solve(p, name, heuristic=heuristic, trace=recorder or False,
                                 limits=lacak.Limits(max_expanded=200_000))  # fmt: skip
            out.append((p, result, recorder))
        return out

    plain = _best(solve, repeat)
    tree = _best(lambda: solve(lacak.SearchTrace), repeat)
    steps = _best(lambda: solve(lambda: lacak.SearchTrace(steps=True)), repeat)
    runs = solve(lacak.SearchTrace)
    words = _best(lambda: [tokens(t, r.states, puzzle=p) for p, r, t in runs], repeat)
    traces = [(p, tokens(t, r.states, puzzle=p)) for p, r, t in runs]
    replay = _best(lambda: [replay_tokens(p, w, name, heuristic=heuristic) for p, w in traces],
                   repeat)  # fmt: skip
    expanded = sum(r.stats.expanded for _p, r, _t in runs)
    return (f"{name:12} {expanded:9,} {plain:8.3f} {tree / plain:5.1f}x {steps / plain:5.1f}x "
            f"{(tree + words) / plain:6.1f}x {replay:9.3f}")  # fmt: skip

if __name__ == "__main__":
    main()
