"""The Boggle kind's parts for machine learning: its tasks (find all the words of a
board; find its best word), by level of measured word count, and its Gymnasium env
(:mod:`lacak_boggle.env`: pick tiles to spell words). See docs/machine-learning.md.
The core's :mod:`lacak.tasks` and :mod:`lacak.gym` assemble them.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any

import lacak
from lacak.gym import GymKind
from lacak.tasks import TaskKind

__all__ = ["GYM", "LEVELS", "TASKS", "make_task", "score_all", "score_best"]

#: The levels: the generator and board size, and the band of the board's word count
#: (every word of the dictionary on it, proven complete by the solver), level 1 first.
LEVELS: tuple[tuple[str, tuple[int, int], tuple[int, int]], ...] = (
    ("random", (3, 3), (1, 8)),
    ("random", (3, 3), (9, 25)),
    ("classic4", (4, 4), (10, 40)),
    ("classic4", (4, 4), (41, 80)),
    ("classic4", (4, 4), (81, 200)),
    ("big5", (5, 5), (100, 250)),
)

#: Boards tried at a level before giving up.
TRIES = 300

_RULES = (
    "A word is spelled by a path of tiles, each next to the one before (across, up, down "
    "or diagonally), using no tile twice; words have at least {min_length} letters and "
    "must be in the {dictionary} dictionary. Points by length: 3-4 letters 1, 5 letters "
    "2, 6 letters 3, 7 letters 5, 8 or more 11."
)


def make_task(
    seed: int, level: int, *, dictionary: str | None = None, best: bool = False
) -> dict[str, Any]:
    """Entry of the ``boggle`` task (``best=False``: every word) or of ``boggle_best``:
    a board whose word count is in the level's band; the answer is the sorted list of
    all its words (the solver's complete list), or a best-scoring word."""
    from .board import Board  # (deferred: registering the kind stays light)

    generator, size, (low, high) = LEVELS[level - 1]
    options: dict[str, Any] = (
        {"dictionary": dictionary} if generator == "random" and dictionary else {}
    )
    rng = random.Random(seed)
    for _ in range(TRIES):
        board_seed = rng.getrandbits(63)
        board: Board = lacak.generate("boggle", generator, size, seed=board_seed, **options)
        result: Any = lacak.solve(board, "boggle", dictionary=dictionary)
        if result.complete and low <= result.count <= high:
            break
    else:
        raise lacak.InvalidOptionError(
            f"no board with {low}-{high} words (level {level}) in {TRIES} tries"
        )
    words = {found.word: found.score for found in sorted(result.words, key=lambda f: f.word)}
    best_score = max(words.values())
    shown = "\n".join(" ".join(tile for tile in row) for row in board.tiles)
    rules = _RULES.format(min_length=result.min_length, dictionary=result.dictionary)
    if best:
        question = (
            f"Find the highest-scoring word on this Boggle board.\n\n{shown}\n\n{rules}\n\n"
            "Answer with one word, nothing else."
        )
        answer: Any = min(w for w, s in words.items() if s == best_score)
    else:
        question = (
            f"Find every word on this Boggle board.\n\n{shown}\n\n{rules}\n\n"
            "Answer with the words separated by spaces, nothing else."
        )
        answer = sorted(words)
    metadata = {
        "instance": board.to_text(),
        "shape": f"{board.rows}x{board.cols}",
        "generator": generator,
        "generator_seed": board_seed,
        "generator_options": options,
        "dictionary": result.dictionary,
        "min_length": result.min_length,
        "word_count": len(words),
        "total_score": sum(words.values()),
        "best_score": best_score,
        "words": words,
    }
    return {"question": question, "answer": answer, "metadata": metadata, "puzzle": board}


def make_best(seed: int, level: int, *, dictionary: str | None = None) -> dict[str, Any]:
    """Entry of the ``boggle_best`` task (see :func:`make_task`)."""
    return make_task(seed, level, dictionary=dictionary, best=True)


#: Longest answer read (longer ones score 0.0).
MAX_ANSWER = 1_000_000


def _words(answer: Any) -> list[str]:
    if isinstance(answer, str):
        if len(answer) > MAX_ANSWER:
            raise ValueError("too long")
        return [w.upper() for w in re.findall(r"[^\W\d_]+", answer)]
    if isinstance(answer, (list, tuple, set, frozenset)) and len(answer) <= MAX_ANSWER:
        if not all(isinstance(w, str) for w in answer):
            raise ValueError("not words")
        return [w.strip().upper() for w in answer]
    raise ValueError("not an answer")


def score_all(answer: Any, entry: Mapping[str, Any]) -> float:
    """``recall * precision`` of the distinct words given (a list, or text split at
    anything but letters, any case): 1.0 for exactly every word of the board, less for
    some of them or for words mixed with wrong ones, 0.0 with no right word."""
    given = set(_words(answer))
    reference = set(entry["metadata"]["words"])
    right = len(given & reference)
    if not right:
        return 0.0
    return (right / len(reference)) * (right / len(given))


def score_best(answer: Any, entry: Mapping[str, Any]) -> float:
    """``points / best points`` of the one word given when it is on the board (1.0 for a
    best word, ties included), 0.0 for a word not on it or for several words."""
    given = _words(answer)
    if len(given) != 1:
        return 0.0
    meta = entry["metadata"]
    points = meta["words"].get(given[0], 0)
    return points / meta["best_score"] if meta["best_score"] else 0.0


#: The ``boggle`` and ``boggle_best`` tasks.
TASKS = (
    TaskKind(
        name="boggle",
        make=make_task,
        score=score_all,
        levels=tuple(f"{r}x{c} {g} board with {lo}-{hi} words" for g, (r, c), (lo, hi) in LEVELS),
        description="every word on a board (answer: the words)",
        options={"dictionary": None},
    ),
    TaskKind(
        name="boggle_best",
        make=make_best,
        score=score_best,
        levels=tuple(f"{r}x{c} {g} board with {lo}-{hi} words" for g, (r, c), (lo, hi) in LEVELS),
        description="the best-scoring word on a board (answer: one word)",
        options={"dictionary": None},
    ),
)

#: The Boggle env is its own: pick tiles, submit the word (:mod:`lacak_boggle.env`).
GYM = GymKind(entry_point="lacak_boggle.env:BoggleEnv", max_episode_steps=500)
