"""The best Boggle board: lacak's local search strategies over boards, per English list.

    /work/venv/bin/python bench/boggle_best.py [--evaluations 4x4=300000,5x5=100000]
        [--seconds T] [--seed 0] [--strategies hill-climbing,simulated-annealing,beam,genetic]
        [--dictionaries eng]

For each shipped English dictionary (the registered dictionaries of language
``en`` that ship in lacak's ``dictionaries/`` folder, unless ``--dictionaries``
names others), each size and each strategy, :func:`lacak_boggle.best_board`
searches until it has scored the boards ``--evaluations`` gives for the size
(a count: the same boards are found on every machine, however loaded; or for
``--seconds`` seconds instead), in runs from random boards, each with its own
seed drawn from ``--seed``, and the table gives:

- *best*: the best board's points (checked against ``lacak.solve``) and the
  board itself;
- *runs* and *found*: the runs made and how many ended on that board (or a
  mirror image of it);
- *boards*: boards scored (each once), and *boards/cpu s*: per second of this
  process's CPU time (the machine may be shared: its wall clock would measure
  the neighbours too);
- *random*: the mean points of 2,000 random boards, letters drawn by the
  dictionary's letter frequencies (what ``lacak boggle shake --dice random``
  makes), and *x random*: best over that mean;
- *cpu s* and *wall s*: the time taken.

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
from lacak_boggle.engines import compiled_available
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
    parser.add_argument("--evaluations", default="4x4=300000,5x5=100000",
                        help="boards to score per size, SIZE=N,...")  # fmt: skip
    parser.add_argument("--seconds", type=float, default=None,
                        help="search this long per row instead")  # fmt: skip
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--strategies", default="hill-climbing,simulated-annealing,beam,genetic")
    parser.add_argument("--dictionaries", default=None)
    args = parser.parse_args(argv)
    names = args.dictionaries.split(",") if args.dictionaries else shipped_english()
    budgets = {
        size: int(n) for size, _, n in (p.partition("=") for p in args.evaluations.split(","))
    }
    strategies = args.strategies.split(",")
    bound = f"{args.seconds:g} s a row" if args.seconds else "boards scored as given"
    print(f"lacak boggle best: {bound}, seed {args.seed}, dictionaries {', '.join(names)}, "
          f"engine {'numba' if compiled_available() else 'numpy'}")  # fmt: skip
    header = (f"{'dict':<6} {'size':<4} {'strategy':<20} {'best':>6} {'runs':>5} {'found':>5} "
              f"{'boards':>9} {'boards/cpu s':>12} {'random':>7} {'x random':>8} "
              f"{'cpu s':>6} {'wall s':>6}  board")  # fmt: skip
    print(header)
    print("-" * len(header))
    engine = "numba" if compiled_available() else "numpy"
    for name in names:
        words = resolve_dictionary(name)
        graph = compile_dictionary(words)
        for size, budget in budgets.items():
            rows, cols = (int(v) for v in size.split("x"))
            space = BoardSpace.create((rows, cols), words, graph, engine=engine)
            mean = random_mean(space)
            for strategy in strategies:
                wall, cpu = time.perf_counter(), time.process_time()
                found = best_board((rows, cols), words, strategy=strategy,
                                   seconds=args.seconds,
                                   evaluations=None if args.seconds else budget,
                                   seed=args.seed, engine=engine,
                                   **OPTIONS.get(strategy, {}))  # fmt: skip
                cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
                check = lacak.solve(found.board, dictionary=words).score
                assert check == found.score, (check, found.score)
                print(f"{name:<6} {size:<4} {strategy:<20} {found.score:>6} "
                      f"{len(found.runs):>5} {found.found:>5} {found.evaluations:>9,} "
                      f"{found.evaluations / cpu:>12,.0f} {mean:>7.1f} "
                      f"{found.score / mean:>8.1f} {cpu:>6.1f} {wall:>6.1f}  "
                      f"{found.board.to_text()}", flush=True)  # fmt: skip
            for text in KNOWN.get(size, []):
                score = space.value(space.state(text))
                print(f"{name:<6} {size:<4} {'(known board)':<20} {score:>6} {'':>5} {'':>5} "
                      f"{'':>9} {'':>12} {mean:>7.1f} {score / mean:>8.1f} {'':>6} {'':>6}  "
                      f"{text}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
