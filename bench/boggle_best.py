"""The best Boggle board: lacak's local search strategies over boards, per English list.

    /work/venv/bin/python bench/boggle_best.py [--seconds 30] [--sizes 4x4,5x5] [--seed 0]
        [--strategies hill-climbing,simulated-annealing,beam,genetic] [--dictionaries eng]

For each shipped English dictionary (the registered dictionaries of language
``en`` that ship in lacak's ``dictionaries/`` folder, unless ``--dictionaries``
names others), each size and each strategy, :func:`lacak_boggle.best_board`
searches for ``--seconds`` seconds (runs from random boards, each with its own
seed drawn from ``--seed``) and the table gives:

- *best*: the best board's points (checked against ``lacak.solve``) and the
  board itself;
- *runs* and *found*: the runs made and how many ended on that board (or a
  mirror image of it);
- *boards*: boards scored (each once), and *boards/s*;
- *random*: the mean points of 2,000 random boards, letters drawn by the
  dictionary's letter frequencies (what ``lacak boggle shake --dice random``
  makes), and *x random*: best over that mean;
- *s*: seconds taken (wall clock; the machine may be shared).

The strategies' options are those in :data:`OPTIONS` (hill climbing with up to
100 sideways moves, as AIMA allows; annealing tuned to Boggle's points). Then
known boards are scored for reference (Vanderkam's best 4x4 board for
ENABLE2K, ``perslatgsineters``: 3,625 points with that list, which lacak does
not ship).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import lacak
from lacak_boggle import best_board
from lacak_boggle.solver import resolve_dictionary
from lacak_boggle.space import BoardSpace
from lacak_boggle.wordgraph import compile_dictionary

#: Each strategy's options for boards.
OPTIONS = {
    "hill-climbing": {"sideways": 100},
    "first-choice": {"sideways": 100, "tries": 500},
    "simulated-annealing": {"schedule": "linear", "temperature": 60.0, "steps": 30_000},
    "beam": {"k": 8},
    "genetic": {"population": 40, "mutation": 0.3, "generations": 300},
}

#: Boards known to score well, for reference.
KNOWN = {"4x4": ["PERS/LATG/SINE/TERS"]}


def shipped_english() -> list[str]:
    """The registered English dictionaries that ship in lacak's dictionaries/ folder."""
    folder = Path(__file__).resolve().parents[1] / "dictionaries"
    out = []
    for name, source in lacak.default_registry().dictionaries().items():
        path = getattr(source, "path", None)
        language = getattr(source, "language", "")
        if path is not None and Path(path).parent == folder and language.startswith("en"):
            out.append(name)
    return sorted(out)


def random_mean(space: BoardSpace, boards: int = 2_000) -> float:
    rng = random.Random(12345)
    return sum(space.values([space.random_state(rng) for _ in range(boards)])) / boards


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--sizes", default="4x4,5x5")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--strategies", default="hill-climbing,simulated-annealing,beam,genetic")
    parser.add_argument("--dictionaries", default=None)
    args = parser.parse_args(argv)
    names = args.dictionaries.split(",") if args.dictionaries else shipped_english()
    sizes = args.sizes.split(",")
    strategies = args.strategies.split(",")
    print(f"lacak boggle best: {args.seconds:g} s per row, seed {args.seed}, "
          f"dictionaries {', '.join(names)}")  # fmt: skip
    header = (f"{'dict':<6} {'size':<4} {'strategy':<20} {'best':>6} {'runs':>5} {'found':>5} "
              f"{'boards':>9} {'boards/s':>9} {'random':>7} {'x random':>8} {'s':>6}  board")  # fmt: skip
    print(header)
    print("-" * len(header))
    for name in names:
        words = resolve_dictionary(name)
        graph = compile_dictionary(words)
        for size in sizes:
            rows, cols = (int(v) for v in size.split("x"))
            space = BoardSpace.create((rows, cols), words, graph, engine="numba")
            mean = random_mean(space)
            for strategy in strategies:
                started = time.perf_counter()
                found = best_board((rows, cols), words, strategy=strategy,
                                   seconds=args.seconds, seed=args.seed,
                                   **OPTIONS.get(strategy, {}))  # fmt: skip
                took = time.perf_counter() - started
                check = lacak.solve(found.board, dictionary=words).score
                assert check == found.score, (check, found.score)
                print(f"{name:<6} {size:<4} {strategy:<20} {found.score:>6} "
                      f"{len(found.runs):>5} {found.found:>5} {found.evaluations:>9,} "
                      f"{found.evaluations / found.seconds:>9,.0f} {mean:>7.1f} "
                      f"{found.score / mean:>8.1f} {took:>6.1f}  "
                      f"{found.board.to_text()}", flush=True)  # fmt: skip
            for text in KNOWN.get(size, []):
                score = space.value(space.state(text))
                print(f"{name:<6} {size:<4} {'(known board)':<20} {score:>6} {'':>5} {'':>5} "
                      f"{'':>9} {'':>9} {mean:>7.1f} {score / mean:>8.1f} {'':>6}  {text}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
