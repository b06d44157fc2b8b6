"""The sliding kind's parts for machine learning: its task (a board and its optimal moves,
by level of optimal length) and its Gymnasium environment's observations
(docs/machine-learning.md). The core's :mod:`lacak.tasks` and :mod:`lacak.gym` assemble
them; the vectorised environment is :mod:`lacak_sliding.vector`.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any

import lacak
from lacak.gym import GymKind
from lacak.tasks import TaskKind

from .generators import random_board, random_walk
from .puzzle import SlidingPuzzle, parse_board_size

__all__ = ["GYM", "LEVELS", "TASKS", "make_task", "score_task"]

#: The levels: bands of proven optimal solution length (moves), level 1 first.
LEVELS: tuple[tuple[int, int], ...] = (
    (1, 5), (6, 10), (11, 15), (16, 20), (21, 25), (26, 31), (32, 40), (41, 50), (51, 80),
)  # fmt: skip

#: The longest optimal solution of each board size (rows, cols) where it is known.
LONGEST = {(2, 2): 6, (2, 3): 21, (3, 2): 21, (2, 4): 36, (4, 2): 36, (3, 3): 31,
           (3, 4): 53, (4, 3): 53, (4, 4): 80}  # fmt: skip

#: Tries at drawing a board of a level before giving up.
TRIES = 400

#: Boards past 16 tiles are labelled only at the levels up to this one (IDA* with linear
#: conflict proves them quickly; longer ones would take minutes each).
BIG_BOARD_LEVELS = 4

_RULES = (
    "A move slides a tile next to the blank (0) into it. Name each move by the direction "
    "the blank moves: U (up), D (down), L (left), R (right)."
)


def _rows(puzzle: SlidingPuzzle, tiles: Any) -> str:
    width = len(str(puzzle.width * puzzle.height - 1))
    cells = [str(t).rjust(width) for t in tiles]
    return "\n".join(
        " ".join(cells[r * puzzle.width : (r + 1) * puzzle.width]) for r in range(puzzle.height)
    )


def _solve(puzzle: SlidingPuzzle) -> tuple[Any, str, str]:
    """The proven-optimal solution: an optimal searcher with an admissible heuristic."""
    if len(puzzle.initial) > 16:
        result = lacak.solve(puzzle, "idastar-tiles", heuristic="linear-conflict")
        return result, "idastar-tiles", "linear-conflict"
    choice = lacak.choose(puzzle)
    heuristic = choice.heuristic
    if not choice.searcher.optimal or (heuristic is not None and not heuristic.admissible):
        raise lacak.PluginError("the sliding kind's default choice does not prove optimality")
    name = heuristic.name if heuristic is not None else None
    result = lacak.solve(puzzle, choice.searcher.name, heuristic=name)
    return result, choice.searcher.name, name or ""


def make_task(seed: int, level: int, *, shape: Any = "3x3") -> dict[str, Any]:
    """Entry of the ``sliding`` task: a board whose optimal solution length is in the
    level's band (:data:`LEVELS`) on a board of ``shape`` (``ROWSxCOLS``), drawn by random walks (and, for the long bands,
    uniformly random boards) until one is, and proven by IDA* with an admissible
    heuristic (pattern databases on the 15-puzzle).

    :raises InvalidOptionError: a level the size cannot reach (a 3x3 board needs at most
        31 moves), or past level :data:`BIG_BOARD_LEVELS` on boards past 16 tiles.
    """
    dims = parse_board_size(shape)
    if dims is None:
        raise lacak.InvalidOptionError("the sliding task needs a shape like 3x3")
    rows, cols = dims
    low, high = LEVELS[level - 1]
    longest = LONGEST.get((rows, cols))
    if longest is not None and low > longest:
        raise lacak.InvalidOptionError(
            f"a {rows}x{cols} board needs at most {longest} moves: no level {level} "
            f"({low}-{high} moves); use a bigger shape"
        )
    if rows * cols > 16 and level > BIG_BOARD_LEVELS:
        raise lacak.InvalidOptionError(
            f"boards past 16 tiles are labelled up to level {BIG_BOARD_LEVELS} "
            f"(proving longer ones takes minutes each), got level {level}"
        )
    # uniformly random boards only where they often land in the band (the long ones)
    uniform = longest is not None and high > 0.6 * longest
    rng = random.Random(seed)
    for attempt in range(TRIES):
        board_seed = rng.getrandbits(63)
        if uniform and attempt % 2:
            puzzle = random_board((rows, cols), board_seed)
        else:
            moves = low + rng.randrange(2 * high - low + 1)
            puzzle = random_walk((rows, cols), board_seed, moves=moves)
        if puzzle.initial == puzzle.goal:
            continue
        result, strategy, heuristic = _solve(puzzle)
        if result.found and low <= result.length <= high:
            break
    else:
        raise lacak.InvalidOptionError(
            f"no {rows}x{cols} board of level {level} ({low}-{high} moves) in {TRIES} tries"
        )
    answer = "".join(map(str, result.actions))
    question = (
        f"Solve this {rows}x{cols} sliding puzzle: reach the goal board in as few moves as "
        f"possible. {_RULES}\n\nBoard:\n{_rows(puzzle, puzzle.initial)}\n\nGoal:\n"
        f"{_rows(puzzle, puzzle.goal)}\n\nAnswer with the moves as one line of letters "
        f"(like RDLU), nothing else."
    )
    metadata = {
        "instance": puzzle.format_state(puzzle.initial),
        "goal": puzzle.format_state(puzzle.goal),
        "shape": f"{rows}x{cols}",
        "generator": puzzle.generator,
        "generator_options": dict(puzzle.options),
        "generator_seed": puzzle.seed,
        "optimal_length": result.length,
        "strategy": strategy,
        "heuristic": heuristic,
    }
    return {"question": question, "answer": answer, "metadata": metadata, "puzzle": puzzle}


#: The longest answer read (longer ones score 0.0 without being played).
MAX_ANSWER = 100_000


def score_task(answer: Any, entry: Mapping[str, Any]) -> float:
    """``optimal / length`` for moves (``"RDLU"``; case, spaces and commas ignored, or a
    list of moves) that take the board to its goal, so 1.0 for an optimal answer and
    less for a longer one; 0.0 for anything else (an illegal move, a board left short
    of the goal, text that is not moves)."""
    if isinstance(answer, (list, tuple)):
        answer = "".join(answer)
    if not isinstance(answer, str) or len(answer) > MAX_ANSWER:
        return 0.0
    moves = re.sub(r"[\s,]+", "", answer).upper()
    if not re.fullmatch(r"[UDLR]*", moves):
        return 0.0
    meta = entry["metadata"]
    puzzle = SlidingPuzzle.from_string(meta["instance"], goal=meta["goal"], size=meta["shape"])
    state = puzzle.initial
    for move in moves:
        following = {action: after for action, after, _ in puzzle.successors(state)}
        if move not in following:
            return 0.0
        state = following[move]
    if state != puzzle.goal:
        return 0.0
    optimal = int(meta["optimal_length"])
    return 1.0 if not moves else min(1.0, optimal / len(moves))


#: The ``sliding`` task (see :func:`make_task`, :func:`score_task`).
TASKS = (
    TaskKind(
        name="sliding",
        make=make_task,
        score=score_task,
        levels=tuple(f"optimal solution of {low}-{high} moves" for low, high in LEVELS),
        description="reach the goal board in the fewest moves (answer: the moves, RDLU...)",
        options={"shape": "3x3"},
    ),
)


def observe(puzzle: SlidingPuzzle, state: tuple[int, ...]) -> Any:
    """The board as a ``rows x cols`` array of tiles (0 the blank)."""
    import numpy as np  # (deferred: registering the kind stays light)

    return np.asarray(state, dtype=np.int64).reshape(puzzle.height, puzzle.width)


def bounds(puzzle: SlidingPuzzle) -> tuple[int, int]:
    """Tiles run from 0 (the blank) to ``rows * cols - 1``."""
    return 0, puzzle.width * puzzle.height - 1


def at(puzzle: SlidingPuzzle, state: tuple[int, ...]) -> SlidingPuzzle:
    """The puzzle from ``state`` (to draw it)."""
    return puzzle.with_initial(state)


#: The sliding env: actions U, D, L, R (the blank's move), the board as observation, and
#: the vectorised env of :mod:`lacak_sliding.vector`.
GYM = GymKind(
    actions=("U", "D", "L", "R"),
    observe=observe,
    bounds=bounds,
    at=at,
    vector_entry_point="lacak_sliding.vector:SlidingVectorEnv",
    max_episode_steps=200,
)
