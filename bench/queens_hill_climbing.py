"""8-queens hill climbing against the textbook (issue 28): AIMA 3rd ed., section 4.1.1.

Russell and Norvig report, for steepest-ascent hill climbing on 8-queens from random
boards (one queen a column at a random row): 14% of the starts solved, in 4 steps on
average when it succeeds and 3 when it gets stuck; allowing up to 100 sideways moves in
a row, 94% solved, 21 steps on average when it succeeds and 64 when it fails. This
script climbs from ``--starts`` seeded boards (``lacak.generate("queens", "random", 8,
seed=s)`` for s = 0, 1, ...; the climb's own ties are drawn with the same seed) and
prints our figures beside the book's, and the other local search strategies' success
rates on the first ``--others`` of the same boards for comparison (no textbook figure).
Counted, not timed, except the seconds column (this machine, one process).

    .venv/bin/python bench/queens_hill_climbing.py [--starts 5000] [--others 500] [--size 8] [--quick]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Mapping
from typing import Any

import lacak

#: AIMA 3rd ed., 4.1.1: solved fraction, mean steps when solved, when stuck (or failed).
TEXTBOOK = {
    "steepest ascent": (0.14, 4, 3),
    "steepest ascent, 100 sideways": (0.94, 21, 64),
}

#: The rows: a label, a strategy and its options.
RUNS: list[tuple[str, str, Mapping[str, Any]]] = [
    ("steepest ascent", "hill-climbing", {}),
    ("steepest ascent, 100 sideways", "hill-climbing", {"sideways": 100}),
    ("first choice", "first-choice", {}),
    ("first choice, 100 sideways", "first-choice", {"sideways": 100}),
    ("simulated annealing (exp, 10,000 steps)", "simulated-annealing", {}),
    ("local beam, k=10", "beam", {"k": 10}),
    ("genetic, 50 x 1,000 generations", "genetic", {}),
]


def measure(strategy: str, options: Mapping[str, Any], starts: int, size: int) -> dict[str, Any]:
    """Climb from ``starts`` seeded boards; the counts of solved and the mean steps."""
    solved = solved_steps = stuck_steps = 0
    began = time.perf_counter()
    for seed in range(starts):
        board = lacak.generate("queens", "random", size, seed=seed)
        result = lacak.solve(board, strategy, seed=seed, **options)
        assert isinstance(result, lacak.LocalSearchResult)
        if result.found:
            assert lacak.objective_of(board).value(result.goal) == 0
            solved += 1
            solved_steps += result.steps
        else:
            stuck_steps += result.steps
    return {
        "solved": solved / starts,
        "steps_solved": solved_steps / solved if solved else float("nan"),
        "steps_stuck": stuck_steps / (starts - solved) if starts > solved else float("nan"),
        "seconds": time.perf_counter() - began,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=5000, help="seeded random boards")
    parser.add_argument(
        "--others",
        type=int,
        default=500,
        help="seeded boards for the other strategies (the genetic one is slow)",
    )
    parser.add_argument("--size", type=int, default=8, help="N queens (the book: 8)")
    parser.add_argument("--quick", action="store_true", help="500 starts, the textbook rows")
    args = parser.parse_args()
    starts = 500 if args.quick else args.starts
    runs = RUNS[:2] if args.quick else RUNS
    print(f"{args.size}-queens from seeded random boards (AIMA 3rd ed. 4.1.1)\n")
    print(
        "| strategy | starts | solved | book | steps solved | book | steps stuck | book | seconds |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for label, strategy, options in runs:
        count = starts if label in TEXTBOOK else min(starts, args.others)
        got = measure(strategy, options, count, args.size)
        book = TEXTBOOK.get(label) if args.size == 8 else None
        rate, win, lose = (f"{book[0]:.0%}", str(book[1]), str(book[2])) if book else ("", "", "")
        print(
            f"| {label} | {count:,} | {got['solved']:.1%} | {rate} | {got['steps_solved']:.1f} | {win} "
            f"| {got['steps_stuck']:.1f} | {lose} | {got['seconds']:.1f} |"
        )


if __name__ == "__main__":
    main()
