"""The maze kind's parts for machine learning: its task (a rectangular maze and its
shortest path, by level of maze size and measured path length) and its Gymnasium
environment's observations (docs/machine-learning.md). The core's :mod:`lacak.tasks`
and :mod:`lacak.gym` assemble them.

The task runs on every grid (``grid``: ``rect``, the default, or any name of
:mod:`lacak_mazes.grids`, third-party ones included): a rectangle is drawn in
text, another grid is given as its cells and open passages, which any grid has.
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
    from .maze import MazePuzzle

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


def _distances(maze: Any, start: Any) -> dict[Any, int]:
    """Steps from ``start`` to every cell (breadth first): cells ``(row, col)`` of a
    rectangle, indices of another grid's maze."""
    around = _around(maze)
    seen = {start: 0}
    queue = collections.deque([start])
    while queue:
        cell = queue.popleft()
        for other in around(cell):
            if other not in seen:
                seen[other] = seen[cell] + 1
                queue.append(other)
    return seen


def _around(maze: Any) -> Any:
    """The cells one passage from a cell, as a function."""
    if hasattr(maze, "grid"):  # another grid's maze: indices
        adjacency = maze.adjacency()
        return adjacency.__getitem__
    return lambda cell: [other for _, other in maze.neighbors(cell)]


def _shape_of(grid: str, rows: int, cols: int) -> Any:
    """The size a generator takes on ``grid``: a polar grid's rings are the rows."""
    return rows if grid == "polar" else (rows, cols)


def _question(maze: Any, grid: str, rows: int, cols: int, start: Any, end: Any) -> str:
    """What a model reads: a rectangle drawn, another grid's cells and passages listed."""
    answer = (
        "Answer with the path as a JSON list of the cells from S to E, both included, "
        "like [[0, 0], [0, 1], [1, 1]], nothing else."
    )
    if grid == "rect":
        drawing = str(maze.render("text", ascii=True))
        return (
            f"Find the shortest path through this {rows}x{cols} maze from S to E. Walls are "
            "drawn with + - |; you may move up, down, left or right into a neighbouring cell "
            "when no wall is between them. Cells are [row, col], counted from 0 at the top "
            f"left; S is {list(start)} and E is {list(end)}.\n\n{drawing}\n\n{answer}"
        )
    ids = maze.grid.ids
    # sorted, so their order tells nothing of how the maze was carved
    pairs = sorted(sorted((list(ids[a]), list(ids[b]))) for a, b in maze.links.tolist())
    passages = json.dumps(pairs, separators=(",", ":"))
    return (
        f"Find the shortest path through this maze from S to E. Its grid is {grid}: "
        f"{maze.grid.description}, {maze.size} cells, each named by the pair the list of "
        "passages uses. You may move between two cells only through an open passage; "
        f"these are all of them, each a pair of cells:\n\n{passages}\n\n"
        f"S is {list(start)} and E is {list(end)}. {answer}"
    )


def make_task(
    seed: int,
    level: int,
    *,
    shape: Any = None,
    generator: str | None = None,
    braid: float = 0.0,
    grid: str = "rect",
) -> dict[str, Any]:
    """Entry of the ``maze`` task: a perfect maze of the level's size (or ``shape``, ``ROWSxCOLS``) whose
    start and end are a shortest path of a length in the level's band apart; the
    answer is that path (unique in a perfect maze, and found again by ``tree-path``).
    With ``braid`` (0 to 1: the share of dead ends opened into loops) the maze has
    loops, and the answer is a shortest path found by breadth-first search (one of
    possibly several, each of which scores 1.0); the metadata counts the ``loops``.
    With ``grid`` another grid's maze (a polar grid has the level's rows as rings): the
    question lists its cells' open passages, and cells are the grid's ids.

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
    if not isinstance(grid, str):
        raise lacak.InvalidOptionError(f"a maze task's grid is a name like 'hex', got {grid!r}")
    options: dict[str, Any] = {"braid": float(braid)} if braid else {}
    if grid not in ("rect", "rectangle"):
        options["grid"] = grid
    rng = random.Random(seed)
    for _ in range(TRIES):
        name = generator or GENERATORS[rng.randrange(len(GENERATORS))]
        maze_seed = rng.getrandbits(63)
        maze: Any = lacak.generate("maze", name, _shape_of(grid, rows, cols), seed=maze_seed,
                                   **options)  # fmt: skip
        on_grid = hasattr(maze, "grid")  # another grid's maze: cells are indices
        start: Any = (
            rng.randrange(maze.size) if on_grid else (rng.randrange(rows), rng.randrange(cols))
        )
        far = sorted(c for c, d in _distances(maze, start).items() if low <= d <= high)
        if far:
            end = far[rng.randrange(len(far))]
            break
    else:
        raise lacak.InvalidOptionError(
            f"no {rows}x{cols} maze with a path of {low}-{high} steps in {TRIES} tries"
        )
    grid = maze.grid.type if on_grid else "rect"
    maze = maze.with_endpoints(start, end, solution=False)
    puzzle = maze.puzzle()
    result = lacak.solve(puzzle, "bfs" if braid else "tree-path")
    # cells as the answer names them: (row, col), or another grid's ids
    name_of: Any = maze.grid.ids.__getitem__ if on_grid else tuple
    named_start, named_end = name_of(start), name_of(end)
    path = [[int(v) for v in name_of(cell)] for cell in result.states]
    metadata = {
        "instance": maze.to_dict(),
        "shape": f"{rows}x{cols}",
        **({} if grid == "rect" else {"grid": grid}),
        "generator": name,
        "generator_seed": maze_seed,
        "generator_options": options,
        "loops": maze.passages - (maze.size - 1),
        "start": list(named_start),
        "end": list(named_end),
        "optimal_length": result.length,
    }
    question = _question(maze, grid, rows, cols, named_start, named_end)
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
    (a list of ``[row, col]`` cells, the same as text, or, on a rectangle, compass moves
    ``"E E S"``; another grid's cells are its ids, pairs too): 1.0 for the shortest
    path, less for a walk that wanders; 0.0 for anything else."""
    # (deferred: registering the kind stays light)
    from .gridmaze import GridMaze
    from .maze import Maze

    meta = entry["metadata"]
    instance = meta["instance"]
    data = json.loads(instance) if isinstance(instance, str) else instance
    start, end = tuple(meta["start"]), tuple(meta["end"])
    if "grid" in data:  # another grid: its passages between the ids it names
        if isinstance(answer, str) and not re.search(r"\d", answer):
            return 0.0  # compass moves name no cells on this grid
        graph = GridMaze.from_dict(data)
        ids = graph.grid.ids
        opened = {(ids[a], ids[b]) for a, b in graph.links.tolist()}
        opened |= {(b, a) for a, b in opened}

        def joined(step: tuple[Any, Any]) -> bool:
            return step in opened
    else:
        maze = Maze.from_dict(data)

        def joined(step: tuple[Any, Any]) -> bool:
            # (a walk's cells: each one after the start was a neighbour of the one before)
            here, there = step
            return there in {other for _, other in maze.neighbors(here)}

    cells = _cells(answer, (int(start[0]), int(start[1])))
    if not cells or cells[0] != start or cells[-1] != end:
        return 0.0
    if not all(map(joined, itertools.pairwise(cells))):
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
        options={"shape": None, "generator": None, "braid": 0.0, "grid": "rect"},
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
