"""The maze kind's parts for machine learning: its task (a rectangular maze and its
shortest path, by level of maze size and measured path length) and its Gymnasium
environment's observations (docs/machine-learning.md). The core's :mod:`lacak.tasks`
and :mod:`lacak.gym` assemble them.

Another grid is one more entry of :data:`LEVELS`' sizes and of :func:`_draw`; the
scoring reads any maze whose cells and passages the instance's JSON gives.
"""

from __future__ import annotations

import collections
import itertools
import json
import random
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import lacak
from lacak.gym import GymKind
from lacak.tasks import TaskKind

if TYPE_CHECKING:
    from .maze import Maze, MazePuzzle

__all__ = ["GENERATORS", "GYM", "LEVELS", "TASKS", "make_task", "score_task"]

#: The levels: the maze's size (rows, cols) and the band of the shortest path's length
#: (steps) between its start and end, level 1 first.
LEVELS: tuple[tuple[tuple[int, int], tuple[int, int]], ...] = (
    ((4, 4), (2, 6)),
    ((6, 6), (7, 14)),
    ((8, 8), (15, 28)),
    ((12, 12), (29, 56)),
    ((16, 16), (57, 112)),
    ((24, 24), (113, 224)),
)

#: The generators a level's mazes are drawn from (one picked by the seed), so the
#: tasks mix their textures (long corridors, many short dead ends, ...).
GENERATORS = ("recursive-backtracker", "wilson", "kruskal", "prim", "hunt-and-kill")

#: Tries at drawing a maze with a path in the level's band.
TRIES = 200


def _distances(maze: Maze, start: tuple[int, int]) -> dict[tuple[int, int], int]:
    """Steps from ``start`` to every cell (breadth first)."""
    seen = {start: 0}
    queue = collections.deque([start])
    while queue:
        cell = queue.popleft()
        for _, other in maze.neighbors(cell):
            if other not in seen:
                seen[other] = seen[cell] + 1
                queue.append(other)
    return seen


def make_task(
    seed: int,
    level: int,
    *,
    shape: Any = None,
    generator: str | None = None,
    braid: float = 0.0,
) -> dict[str, Any]:
    """Entry of the ``maze`` task: a perfect maze of the level's size (or ``shape``, ``ROWSxCOLS``) whose
    start and end are a shortest path of a length in the level's band apart; the
    answer is that path (unique in a perfect maze, and found again by ``tree-path``).
    With ``braid`` (0 to 1: the share of dead ends opened into loops) the maze has
    loops, and the answer is a shortest path found by breadth-first search (one of
    possibly several, each of which scores 1.0); the metadata counts the ``loops``.

    :raises InvalidOptionError: a size whose mazes cannot have such a path.
    """
    (rows, cols), (low, high) = LEVELS[level - 1]
    if shape is not None:
        rows, cols = _size(shape)
    if rows * cols - 1 < low:
        raise lacak.InvalidOptionError(
            f"a {rows}x{cols} maze has no path of {low} steps (level {level}): use a bigger shape"
        )
    if isinstance(braid, bool) or not isinstance(braid, (int, float)) or not 0 <= braid <= 1:
        raise lacak.InvalidOptionError(f"braid is a share from 0 to 1, got {braid!r}")
    options: dict[str, Any] = {"braid": float(braid)} if braid else {}
    rng = random.Random(seed)
    for _ in range(TRIES):
        name = generator or GENERATORS[rng.randrange(len(GENERATORS))]
        maze_seed = rng.getrandbits(63)
        maze: Maze = lacak.generate("maze", name, (rows, cols), seed=maze_seed, **options)
        start = (rng.randrange(rows), rng.randrange(cols))
        far = sorted(c for c, d in _distances(maze, start).items() if low <= d <= high)
        if far:
            end = far[rng.randrange(len(far))]
            break
    else:
        raise lacak.InvalidOptionError(
            f"no {rows}x{cols} maze with a path of {low}-{high} steps in {TRIES} tries"
        )
    maze = maze.with_endpoints(start, end, solution=False)
    puzzle = maze.puzzle()
    result = lacak.solve(puzzle, "bfs" if braid else "tree-path")
    path = [[int(r), int(c)] for r, c in result.states]
    drawing = str(maze.render("text", ascii=True))
    question = (
        f"Find the shortest path through this {rows}x{cols} maze from S to E. Walls are "
        "drawn with + - |; you may move up, down, left or right into a neighbouring cell "
        "when no wall is between them. Cells are [row, col], counted from 0 at the top "
        f"left; S is {list(start)} and E is {list(end)}.\n\n{drawing}\n\n"
        "Answer with the path as a JSON list of the cells from S to E, both included, "
        "like [[0, 0], [0, 1], [1, 1]], nothing else."
    )
    metadata = {
        "instance": maze.to_dict(),
        "shape": f"{rows}x{cols}",
        "generator": name,
        "generator_seed": maze_seed,
        "generator_options": options,
        "loops": maze.passages - (rows * cols - 1),
        "start": list(start),
        "end": list(end),
        "optimal_length": result.length,
    }
    return {"question": question, "answer": path, "metadata": metadata, "puzzle": puzzle}


def _size(size: Any) -> tuple[int, int]:
    text = str(size).lower().replace("×", "x")
    match = re.fullmatch(r"\s*(\d+)\s*x\s*(\d+)\s*", text)
    if isinstance(size, (tuple, list)) and len(size) == 2:
        rows, cols = (int(v) for v in size)
    elif match:
        rows, cols = int(match[1]), int(match[2])
    else:
        raise lacak.InvalidOptionError(f"a maze size looks like 8x12, got {size!r}")
    if not (2 <= rows <= 200 and 2 <= cols <= 200):
        raise lacak.InvalidOptionError(f"a task's maze is 2x2 to 200x200, got {rows}x{cols}")
    return rows, cols


#: Longest answer read (longer ones score 0.0).
MAX_ANSWER = 1_000_000

_STEP = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}


def _cells(answer: Any, start: tuple[int, int]) -> list[tuple[int, int]]:
    """The cells an answer names: pairs (a list, or the numbers of a text read in twos),
    or compass moves from the start (``"E E S"``)."""
    if isinstance(answer, str):
        if len(answer) > MAX_ANSWER:
            raise ValueError("too long")
        numbers = re.findall(r"-?\d+", answer)
        if not numbers:
            moves = re.sub(r"[\s,]+", "", answer).upper()
            if not moves or not re.fullmatch(r"[NESW]+", moves):
                raise ValueError("no cells")
            cells = [start]
            for move in moves:
                dr, dc = _STEP[move]
                cells.append((cells[-1][0] + dr, cells[-1][1] + dc))
            return cells
        if len(numbers) % 2:
            raise ValueError("odd count")
        values = [int(n) for n in numbers]
        return list(zip(values[::2], values[1::2], strict=True))
    if isinstance(answer, (list, tuple)) and len(answer) <= MAX_ANSWER:
        cells = []
        for cell in answer:
            if not isinstance(cell, (list, tuple)) or len(cell) != 2:
                raise ValueError("not a cell")
            row, col = cell
            if not all(isinstance(v, int) and not isinstance(v, bool) for v in (row, col)):
                raise ValueError("not a cell")
            cells.append((row, col))
        return cells
    raise ValueError("not an answer")


def score_task(answer: Any, entry: Mapping[str, Any]) -> float:
    """``optimal / steps`` for a walk from the start to the end through open passages
    (a list of ``[row, col]`` cells, the same as text, or compass moves ``"E E S"``): 1.0
    for the shortest path, less for a walk that wanders; 0.0 for anything else."""
    from .maze import Maze  # (deferred: registering the kind stays light)

    meta = entry["metadata"]
    instance = meta["instance"]
    maze = Maze.from_dict(json.loads(instance) if isinstance(instance, str) else instance)
    start, end = tuple(meta["start"]), tuple(meta["end"])
    cells = _cells(answer, (int(start[0]), int(start[1])))
    if not cells or cells[0] != start or cells[-1] != end:
        return 0.0
    for here, there in itertools.pairwise(cells):
        if there not in {other for _, other in maze.neighbors(here)}:
            return 0.0
    steps = len(cells) - 1
    optimal = int(meta["optimal_length"])
    return 1.0 if steps == 0 else min(1.0, optimal / steps)


#: The ``maze`` task (see :func:`make_task`, :func:`score_task`).
TASKS = (
    TaskKind(
        name="maze",
        make=make_task,
        score=score_task,
        levels=tuple(
            f"{r}x{c} maze, shortest path of {low}-{high} steps" for (r, c), (low, high) in LEVELS
        ),
        description="the shortest path from S to E (answer: the cells, [[row, col], ...])",
        options={"shape": None, "generator": None, "braid": 0.0},
    ),
)


def observe(puzzle: MazePuzzle, state: tuple[int, int]) -> Any:
    """Three ``rows x cols`` planes: the cells' open sides (N=1 E=2 S=4 W=8), the
    walker's cell (1) and the end (1)."""
    import numpy as np  # (deferred: registering the kind stays light)

    maze = puzzle.maze
    planes = np.zeros((3, maze.height, maze.width), np.uint8)
    planes[0] = maze.cells
    planes[1][state] = 1
    planes[2][puzzle.goal] = 1
    return planes


def at(puzzle: MazePuzzle, state: tuple[int, int]) -> MazePuzzle:
    """The maze from ``state`` to the same end (to draw it)."""
    return puzzle.maze.puzzle(start=state, end=puzzle.goal)


#: The maze env: actions N, E, S, W, the maze's planes as observation.
GYM = GymKind(
    actions=("N", "E", "S", "W"),
    observe=observe,
    bounds=lambda puzzle: (0, 15),
    at=at,
    max_episode_steps=500,
)
