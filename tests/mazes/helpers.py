"""Slow, obviously correct references for the maze tests."""

from __future__ import annotations

import heapq
import itertools
from collections import deque
from collections.abc import Iterator

import numpy as np
from hypothesis import strategies as st
from lacak_mazes import Maze
from lacak_mazes._common import E, N, S, W


def grid_edges(height: int, width: int) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Every pair of neighbouring cells, east pairs first then south pairs."""
    edges = [((r, c), (r, c + 1)) for r in range(height) for c in range(width - 1)]
    edges += [((r, c), (r + 1, c)) for r in range(height - 1) for c in range(width)]
    return edges


def maze_from_pairs(height: int, width: int, pairs) -> Maze:  # type: ignore[no-untyped-def]
    """A maze with a passage between each pair of neighbouring cells given."""
    cells = np.zeros((height, width), dtype=np.uint8)
    for (r1, c1), (r2, c2) in pairs:
        if r1 == r2:
            cells[r1, min(c1, c2)] |= E
            cells[r1, max(c1, c2)] |= W
        else:
            cells[min(r1, r2), c1] |= S
            cells[max(r1, r2), c1] |= N
    return Maze(cells)


def is_tree(height: int, width: int, pairs) -> bool:  # type: ignore[no-untyped-def]
    """Union-find check: ``cells - 1`` pairs and no cycle."""
    parent = {(r, c): (r, c) for r in range(height) for c in range(width)}

    def find(x):  # type: ignore[no-untyped-def]
        while parent[x] != x:
            x = parent[x]
        return x

    if len(pairs) != height * width - 1:
        return False
    for a, b in pairs:
        ra, rb = find(a), find(b)
        if ra == rb:
            return False
        parent[ra] = rb
    return True


def spanning_trees(height: int, width: int) -> Iterator[Maze]:
    """Every perfect maze of the grid, by brute force over edge subsets."""
    edges = grid_edges(height, width)
    for subset in itertools.combinations(edges, height * width - 1):
        if is_tree(height, width, subset):
            yield maze_from_pairs(height, width, subset)


def distances(maze: Maze, source: tuple[int, int]) -> dict[tuple[int, int], int]:
    """Breadth-first distances from ``source`` using ``maze.neighbors``."""
    dist = {source: 0}
    queue = deque([source])
    while queue:
        cell = queue.popleft()
        for _d, other in maze.neighbors(cell):
            if other not in dist:
                dist[other] = dist[cell] + 1
                queue.append(other)
    return dist


def diameter(maze: Maze) -> int:
    """Longest shortest path between two cells, by all-pairs BFS."""
    best = 0
    for r in range(maze.height):
        for c in range(maze.width):
            best = max(best, max(distances(maze, (r, c)).values()))
    return best


def kruskal_reference(height: int, width: int, east_rank, south_rank):  # type: ignore[no-untyped-def]
    """The textbook loop: walls by rank, union-find."""
    walls = [(east_rank[r, c], (r, c), (r, c + 1)) for r in range(height) for c in range(width - 1)]
    walls += [
        (south_rank[r, c], (r, c), (r + 1, c)) for r in range(height - 1) for c in range(width)
    ]
    walls.sort()
    parent: dict = {}

    def find(x):  # type: ignore[no-untyped-def]
        parent.setdefault(x, x)
        while parent[x] != x:
            x = parent[x]
        return x

    kept = []
    for _rank, a, b in walls:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb
            kept.append((a, b))
    return maze_from_pairs(height, width, kept)


def prim_reference(height: int, width: int, east_rank, south_rank, start=(0, 0)):  # type: ignore[no-untyped-def]
    """The textbook loop: a heap of walls leaving the tree."""
    weight = {}
    for r in range(height):
        for c in range(width - 1):
            weight[((r, c), (r, c + 1))] = weight[((r, c + 1), (r, c))] = east_rank[r, c]
    for r in range(height - 1):
        for c in range(width):
            weight[((r, c), (r + 1, c))] = weight[((r + 1, c), (r, c))] = south_rank[r, c]
    inside = {start}
    heap = [(w, a, b) for (a, b), w in weight.items() if a == start]
    heapq.heapify(heap)
    kept = []
    while heap:
        _w, a, b = heapq.heappop(heap)
        if b in inside:
            continue
        inside.add(b)
        kept.append((a, b))
        for (x, y), w in weight.items():
            if x == b and y not in inside:
                heapq.heappush(heap, (w, x, y))
    return maze_from_pairs(height, width, kept)


@st.composite
def braid_mazes(draw, max_side: int = 7):  # type: ignore[no-untyped-def]
    """Valid mazes that need not be perfect: a random subset of passages."""
    height = draw(st.integers(1, max_side))
    width = draw(st.integers(1, max_side))
    edges = grid_edges(height, width)
    keep = draw(st.lists(st.booleans(), min_size=len(edges), max_size=len(edges)))
    return maze_from_pairs(height, width, [e for e, k in zip(edges, keep, strict=True) if k])


@st.composite
def perfect_mazes(draw, max_side: int = 9, algorithm: str | None = None):  # type: ignore[no-untyped-def]
    """Generated perfect mazes of random size, algorithm and seed."""
    import lacak

    names = sorted(lacak.generators("maze"))
    name = algorithm or draw(st.sampled_from(names))
    height = draw(st.integers(1, max_side))
    width = draw(st.integers(1, max_side))
    seed = draw(st.integers(0, 2**32))
    return lacak.generate("maze", name, (height, width), seed=seed)


@st.composite
def cells_of(draw, maze: Maze):  # type: ignore[no-untyped-def]
    """A cell of ``maze``."""
    return (draw(st.integers(0, maze.height - 1)), draw(st.integers(0, maze.width - 1)))


def hunt_and_kill_reference(height: int, width: int, seed: int, hunt_chance: float = 0.0) -> Maze:
    """Hunt-and-kill as the reference describes it: each hunt scans from the top row.

    It draws the same random numbers in the same order as the fast version
    (a neighbour order per cell, the start cell, then floats: one per walk for
    its length when ``0 < hunt_chance < 1``, and one to pick the visited
    neighbour a hunted cell joins), so the two must agree exactly.
    """
    import math

    from lacak_mazes.generators._common import Rng
    from lacak_mazes.generators._grid import Padded, maze_from_links, permutation_table

    rng = Rng(seed, salt=1)
    grid = Padded(height, width)
    orders = permutation_table(grid.steps)
    choice = rng.below(24, grid.size).tolist()
    rand = rng.float_stream()
    here = grid.random_cell(rng)
    grid.state[here] = 1
    opposite = {1: 4, 2: 8, 4: 1, 8: 2}
    cells = [grid.index(r, c) for r in range(height) for c in range(width)]
    while True:
        # the walk stops for a hunt after each step with probability hunt_chance:
        # after a geometric number of steps
        if hunt_chance == 0:
            most = math.inf
        elif hunt_chance == 1:
            most = 1
        else:
            ratio = math.log1p(-next(rand)) / math.log1p(-hunt_chance)
            most = 1 + math.floor(ratio) if math.isfinite(ratio) else math.inf
        walked = 0
        moved = True
        while moved and walked < most:
            moved = False
            for offset, back in orders[choice[here]]:
                if grid.state[here + offset] == 0:
                    here += offset
                    grid.state[here] = 1
                    grid.link[here] = back
                    moved = True
                    walked += 1
                    break
        target = None
        for cell in cells:  # the full scan, from the top every time
            if grid.state[cell] == 0 and any(grid.state[cell + o] == 1 for o, _b in grid.steps):
                target = cell
                break
        if target is None:
            break
        joins = [(o, b) for o, b in grid.steps if grid.state[target + o] == 1]
        _offset, back = joins[int(next(rand) * len(joins))]
        grid.link[target] = opposite[back]
        grid.state[target] = 1
        here = target
    return maze_from_links(grid.links())


def transpose(maze: Maze) -> Maze:
    """``maze`` mirrored in its main diagonal: cell (r, c) goes to (c, r), N <-> W, E <-> S."""
    image = {N: W, W: N, E: S, S: E}
    cells = np.zeros((maze.width, maze.height), dtype=np.uint8)
    for r in range(maze.height):
        for c in range(maze.width):
            cells[c, r] = sum(image[bit] for bit in (N, E, S, W) if maze.cells[r, c] & bit)
    return Maze(cells)


def corridor_stretches(maze: Maze) -> list[int]:
    """Lengths, in steps, of the stretches of passage between cells that do not have
    exactly two openings (a loop of two-opening cells is one stretch), by walking them."""
    degree = {
        (r, c): len(maze.neighbors((r, c))) for r in range(maze.height) for c in range(maze.width)
    }
    used: set[frozenset] = set()
    lengths = []
    for cell in degree:
        for _d, other in maze.neighbors(cell):
            if frozenset((cell, other)) in used:
                continue
            used.add(frozenset((cell, other)))
            length = 1
            for here, came in ((other, cell), (cell, other)):  # extend both ways
                while degree[here] == 2:
                    (step,) = [o for _d, o in maze.neighbors(here) if o != came]
                    if frozenset((here, step)) in used:
                        break  # round a loop
                    used.add(frozenset((here, step)))
                    length += 1
                    here, came = step, here
            lengths.append(length)
    return lengths


def wall_pieces(maze: Maze) -> dict[tuple[int, int], tuple[int, int]]:
    """The wall piece of each grid corner, by union-find over wall segments.

    Corners are ``(row, col)`` with ``0 <= row <= height`` and ``0 <= col <= width``; two
    corners are in one piece when walls join them. The outer wall joins every corner on
    the grid's border; a corner no wall touches is a piece of its own (a free post).
    """
    parent = {(r, c): (r, c) for r in range(maze.height + 1) for c in range(maze.width + 1)}

    def find(x: tuple[int, int]) -> tuple[int, int]:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def join(a: tuple[int, int], b: tuple[int, int]) -> None:
        parent[find(a)] = find(b)

    for r in range(maze.height):
        for c in range(maze.width):
            mask = int(maze.cells[r, c])
            if not mask & N:
                join((r, c), (r, c + 1))
            if not mask & W:
                join((r, c), (r + 1, c))
            if not mask & E:
                join((r, c + 1), (r + 1, c + 1))
            if not mask & S:
                join((r + 1, c), (r + 1, c + 1))
    return {corner: find(corner) for corner in parent}


def pieces_touching(maze: Maze, cell: tuple[int, int]) -> set[tuple[int, int]]:
    """The wall pieces (see :func:`wall_pieces`) through the four corners of ``cell``."""
    piece = wall_pieces(maze)
    r, c = cell
    return {piece[r + dr, c + dc] for dr in (0, 1) for dc in (0, 1)}


def on_outer_wall(maze: Maze, cell: tuple[int, int]) -> bool:
    """Whether ``cell`` is on the grid's border."""
    return cell[0] in (0, maze.height - 1) or cell[1] in (0, maze.width - 1)


@st.composite
def opened_mazes(draw, max_side: int = 8):  # type: ignore[no-untyped-def]
    """Perfect mazes with some extra walls knocked out: mazes with loops and islands."""
    maze = draw(perfect_mazes(max_side=max_side))
    pairs = {
        (a, b)
        for a in ((r, c) for r in range(maze.height) for c in range(maze.width))
        for _direction, b in maze.neighbors(a)
        if a < b
    }
    walls = [pair for pair in grid_edges(maze.height, maze.width) if pair not in pairs]
    knocked = draw(st.lists(st.sampled_from(walls), unique=True) if walls else st.just([]))
    return maze_from_pairs(maze.height, maze.width, sorted(pairs | set(knocked)))


def reference_moves(rng) -> Iterator[int]:  # type: ignore[no-untyped-def]
    """The random walks' moves, one at a time: two bits of each raw number, low bits first."""
    while True:
        for raw in rng.raw(64).tolist():
            for shift in range(0, 64, 2):
                yield (raw >> shift) & 3


def wilson_reference(height: int, width: int, seed: int) -> Maze:
    """Wilson's algorithm as a plain loop, one move at a time (lacak's before issue 14).

    The root is the centre cell; walks start from the cells row by row; a move
    off the grid is a step spent in place; each cell keeps the direction it was
    last left by, and the path from the walk's start along those is added.
    """
    from lacak_mazes.generators._common import Rng

    rng = Rng(seed, salt=8)
    step = {0: (-1, 0), 1: (0, 1), 2: (1, 0), 3: (0, -1)}
    side = {0: N, 1: E, 2: S, 3: W}
    moves = reference_moves(rng)
    in_tree = {(height // 2, width // 2)}
    cells = np.zeros((height, width), dtype=np.uint8)
    for r0 in range(height):
        for c0 in range(width):
            if (r0, c0) in in_tree:
                continue
            exits = {}
            here = (r0, c0)
            while here not in in_tree:
                move = next(moves)
                there = (here[0] + step[move][0], here[1] + step[move][1])
                if 0 <= there[0] < height and 0 <= there[1] < width:
                    exits[here] = move
                    here = there
            here = (r0, c0)
            while here not in in_tree:
                in_tree.add(here)
                move = exits[here]
                there = (here[0] + step[move][0], here[1] + step[move][1])
                cells[here] |= side[move]
                cells[there] |= side[(move + 2) % 4]
                here = there
    return Maze(cells)


def aldous_broder_reference(height: int, width: int, seed: int) -> Maze:
    """Aldous-Broder as a plain loop, one move at a time, on the folded walk.

    A free walk on the integers, one move at a time, seen through the fold
    ``f(x) = x mod 2w`` (``2w - 1 - f`` past ``w``): a walk on the grid that
    stays put at the edges. Each cell entered for the first time opens the
    side it was entered by.
    """
    from lacak_mazes.generators._common import Rng

    def fold(x: int, size: int) -> int:
        f = x % (2 * size)
        return 2 * size - 1 - f if f >= size else f

    rng = Rng(seed, salt=9)
    step = {0: (-1, 0), 1: (0, 1), 2: (1, 0), 3: (0, -1)}
    cells = np.zeros((height, width), dtype=np.uint8)
    y, x = divmod(int(rng.below(height * width, 1)[0]), width)
    here = (y, x)
    entered = {here}
    moves = reference_moves(rng)
    while len(entered) < height * width:
        move = next(moves)
        y, x = y + step[move][0], x + step[move][1]
        there = (fold(y, height), fold(x, width))
        if there not in entered:
            entered.add(there)
            dy, dx = there[0] - here[0], there[1] - here[1]
            bit = {(1, 0): N, (-1, 0): S, (0, 1): W, (0, -1): E}[(dy, dx)]
            cells[there] |= bit
            cells[here] |= {N: S, S: N, E: W, W: E}[bit]
        here = there
    return Maze(cells)
