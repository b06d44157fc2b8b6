"""The growing tree: one algorithm, many textures, by how it picks the next cell.

Steps:

1. put a random cell in the *active* list;
2. pick an active cell by the *policy*; if it has unvisited neighbours, carve
   to a random one and add that to the list; otherwise remove the picked cell;
3. stop when the list is empty.

Policies: ``newest`` (the last added: the recursive backtracker), ``oldest``
(the first added: long straight corridors fanning out from the start),
``random`` (a random active cell: short branches, many dead ends, like
``prim-frontier``) and ``mix`` (newest with probability ``newest``, else
random; the classic 50/50 mix looks between the two).

>>> from lacak_mazes.generators.growing_tree import growing_tree
>>> growing_tree(4, 7, 5, policy="mix").is_perfect()
True
"""

from __future__ import annotations

import lacak

from ..maze import Maze
from ._common import Rng, check_probability
from ._grid import (
    Padded,
    carve_depth_first,
    compiled_orders,
    maze_from_links,
    permutation_table,
    visit_carving,
)
from .engine import kernels, timed

__all__ = ["POLICIES", "growing_tree"]

#: Selection policies.
POLICIES = ("newest", "oldest", "random", "mix")


def growing_tree(
    height: int,
    width: int,
    seed: int,
    policy: str = "newest",
    newest: float = 0.5,
    carving: bool = False,
) -> Maze:
    """A perfect maze by the growing-tree algorithm.

    :param policy: ``"newest"``, ``"oldest"``, ``"random"`` or ``"mix"``.
    :param newest: for ``"mix"``, the probability of taking the newest cell.
    :param carving: give the maze its carving (each cell as it joins the tree).
    :raises lacak.InvalidOptionError: an unknown policy, or a probability that is not a
        number in [0, 1].
    """
    if policy not in POLICIES:
        raise lacak.InvalidOptionError(
            f"growing-tree option 'policy' is one of {', '.join(POLICIES)}, got {policy!r}"
        )
    newest = check_probability(newest, "newest", "growing-tree")
    rng = Rng(seed, salt=10)
    grid = Padded(height, width)
    compiled = None if carving else kernels(height * width)
    if compiled is not None:
        words = rng.words()
        choice, start = compiled.choices(words, grid.size, height, width)
        state, link = grid.arrays()
        state[start] = 1
        orders = compiled_orders(grid)
        if policy == "newest":
            compiled.depth_first(state, link, *orders, choice, start)
        else:
            compiled.growing_tree(state, link, *orders, choice, start, _POLICY_CODES[policy],
                                  newest, words)  # fmt: skip
        return Maze(compiled.cells_from_links(link, height, width))
    with timed():
        return _python(grid, rng, policy, newest, carving)


#: The policies' numbers in the compiled kernel (``newest`` is its depth-first kernel).
_POLICY_CODES = {"oldest": 0, "random": 1, "mix": 2}


def _python(grid: Padded, rng: Rng, policy: str, newest: float, carving: bool) -> Maze:
    """:func:`growing_tree` in Python (the reference of the compiled kernels)."""
    if carving:
        grid.record()
    state, link = grid.state, grid.link
    orders = permutation_table(grid.steps)
    choice = rng.below(24, grid.size).tolist()
    rand = rng.float_stream().__next__
    start = grid.random_cell(rng)
    state[start] = 1
    active = [start]
    add = active.append

    def carve(here: int) -> int:
        """Carve from ``here`` to a random unvisited neighbour; -1 when there is none."""
        for offset, back in orders[choice[here]]:
            there = here + offset
            if not state[there]:
                state[there] = 1
                link[there] = back
                return there
        return -1

    if policy == "oldest":
        head = 0
        while head < len(active):
            there = carve(active[head])
            if there < 0:
                head += 1
            else:
                add(there)
    elif policy == "random":
        while active:
            pick = int(rand() * len(active))
            there = carve(active[pick])
            if there < 0:
                active[pick] = active[-1]
                active.pop()
            else:
                add(there)
    elif policy == "newest":
        # the depth-first special case: the recursive backtracker's walk
        carve_depth_first(grid, orders, choice, start)
    else:
        # mix: removal marks cells dead (kept in place so that "newest" stays
        # the end of the list); dead cells are skipped, and swept out when
        # they are half of the list.
        dead = bytearray(grid.size)
        alive = 1
        p_newest = float(newest)
        while alive:
            if rand() < p_newest:
                while dead[active[-1]]:
                    active.pop()
                pick = len(active) - 1
            else:
                pick = int(rand() * len(active))
                while dead[active[pick]]:
                    pick = int(rand() * len(active))
            here = active[pick]
            there = carve(here)
            if there < 0:
                dead[here] = 1
                alive -= 1
                if alive and 2 * alive < len(active):
                    active = [cell for cell in active if not dead[cell]]
                    add = active.append
            else:
                add(there)
                alive += 1
    links = grid.links()
    return maze_from_links(links, carving=visit_carving(grid, links) if carving else None)
