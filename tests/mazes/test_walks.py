"""The random-walk generators in numpy blocks (issue 14) give the plain loops' mazes.

Wilson and Aldous-Broder run their walks in numpy blocks
(:mod:`lacak_mazes.generators._walk`); the mazes must be the ones the plain
one-move-at-a-time loops make from the same random moves (``helpers``), on
every size, seed and block setting, so the uniformity tests of the plain
loops (``test_statistics``) hold for them too. The block settings are made
small here, so that tiny grids go through every path of the block code
(numpy walks, chunk chaining, walls, block ends).

``data/generator_digests.json`` holds digests of every generator's mazes
recorded before the change (the commit is in the file): the mazes a seed
gives did not change.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from pathlib import Path
from typing import Any
from unittest import mock

import lacak
import lacak_mazes.generators._walk as walk
import lacak_mazes.generators.aldous_broder as aldous_broder_module
import lacak_mazes.generators.wilson as wilson_module
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from lacak.testing import strategies as lst
from lacak_mazes import Maze
from lacak_mazes.generators._common import Rng
from lacak_mazes.generators._grid import corridor

from .helpers import aldous_broder_reference, reference_moves, wilson_reference


@pytest.fixture(autouse=True)
def _python_engine(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests look inside the Python walks (their numpy blocks): the Python engine
    makes their mazes (the compiled one gives the same: tests/mazes/test_compiled_engine.py),
    except where a test compares the stored digests, which hold for both."""
    if "digests" not in request.node.name and "gives_the_mazes" not in request.node.name:
        monkeypatch.setenv("LACAK_MAZE_ENGINE", "python")


DIGESTS = json.loads((Path(__file__).parent / "data" / "generator_digests.json").read_text())


def digest(maze: Maze) -> str:
    """A short fingerprint of the shape and the cells of ``maze``."""
    data = f"{maze.height}x{maze.width}:".encode() + maze.cells.tobytes()
    return hashlib.sha256(data).hexdigest()[:16]


@pytest.mark.parametrize("name", sorted({key.split()[0] for key in DIGESTS["digests"]}))
def test_every_generator_gives_the_mazes_it_gave(name: str) -> None:
    for key, expected in DIGESTS["digests"].items():
        algorithm, size, seed = key.split()
        if algorithm == name:
            assert digest(lacak.generate("maze", name, size, seed=int(seed))) == expected, key


# -- the pieces ---------------------------------------------------------------------


@given(seed=lst.seeds(), raw=st.integers(1, 40))
def test_moves_are_two_bits_of_each_raw_number_low_bits_first(seed: int, raw: int) -> None:
    expected = list(itertools.islice(reference_moves(Rng(seed, salt=3)), 32 * raw))
    assert walk.moves(Rng(seed, salt=3), raw).tolist() == expected


def test_row_and_column_steps_of_each_move() -> None:
    moves = np.array([0, 1, 2, 3], dtype=np.int8)
    assert walk.row_steps(moves).tolist() == [-1, 0, 1, 0]
    assert walk.col_steps(moves).tolist() == [0, 1, 0, -1]


def stay_put(start: int, steps: list[int], side: int) -> list[int]:
    out, x = [], start
    for d in steps:
        x = min(max(x + d, 0), side - 1)
        out.append(x)
    return out


@st.composite
def clamped_walks(draw: st.DrawFn) -> tuple[int, list[int], int, int]:
    side = draw(st.integers(2, 40))
    chunk = draw(st.integers(1, side // 2))
    chunks = draw(st.integers(1, 12))
    steps = draw(
        st.lists(st.sampled_from([-1, 0, 1]), min_size=chunk * chunks, max_size=chunk * chunks)
    )
    return draw(st.integers(0, side - 1)), steps, side, chunk


@given(clamped_walks())
@example((0, [-1, -1, 1, 1], 2, 1))
@example((3, [1, 1, 1, 1, -1, -1, -1, -1], 4, 2))  # the upper wall, then the lower
def test_clamped_walk_stays_put_at_the_ends(case: tuple[int, list[int], int, int]) -> None:
    start, steps, side, chunk = case
    got = walk.clamped(start, np.array(steps, dtype=np.int8), side, chunk)
    assert got.tolist() == stay_put(start, steps, side)


@given(
    start=st.integers(-1000, 1000),
    steps=st.lists(st.sampled_from([-1, 0, 1]), min_size=1, max_size=300),
    side=st.integers(1, 30),
)
def test_folded_walk_is_the_fold_of_the_free_walk(start: int, steps: list[int], side: int) -> None:
    def fold(x: int) -> int:
        f = x % (2 * side)
        return 2 * side - 1 - f if f >= side else f

    positions, end = walk.folded(start, np.array(steps, dtype=np.int8), side)
    free = np.cumsum(steps) + start
    assert positions.tolist() == [fold(int(x)) for x in free]
    assert 0 <= end < 2 * side and (end - int(free[-1])) % (2 * side) == 0


def test_corridor_is_the_one_perfect_maze_of_a_thin_grid() -> None:
    for height, width in [(1, 1), (1, 7), (7, 1)]:
        maze = corridor(height, width)
        maze.validate_perfect()
        assert maze.shape == (height, width)
    with pytest.raises(ValueError, match="not a corridor"):
        corridor(2, 3)


# -- Wilson -------------------------------------------------------------------------

#: Block settings that send tiny grids through the numpy blocks: (REFILL,
#: FIRST_BLOCK, MAX_BLOCK, MAX_CHUNK, MIN_SIDE); the first is lacak's own.
WILSON_SETTINGS = [
    (wilson_module.REFILL, wilson_module.FIRST_BLOCK, wilson_module.MAX_BLOCK,
     wilson_module.MAX_CHUNK, wilson_module.MIN_SIDE),
    (1, 32, 64, 1, 2),
    (1, 32, 32, 4, 2),
    (1, 64, 256, 16, 8),
    (2, 128, 1024, 32, 4),
]  # fmt: skip


def wilson_with(setting: tuple[int, ...], height: int, width: int, seed: int) -> Maze:
    names = ("REFILL", "FIRST_BLOCK", "MAX_BLOCK", "MAX_CHUNK", "MIN_SIDE")
    with mock.patch.multiple(wilson_module, **dict(zip(names, setting, strict=True))):
        return wilson_module.wilson(height, width, seed)


@settings(max_examples=60, deadline=None)
@given(
    size=lst.grid_sizes(min_side=1, max_side=30),
    seed=lst.seeds(),
    setting=st.sampled_from(WILSON_SETTINGS),
)
@example(size=(40, 40), seed=0, setting=WILSON_SETTINGS[1])
@example(size=(2, 60), seed=3, setting=WILSON_SETTINGS[1])
@example(size=(1, 20), seed=1, setting=WILSON_SETTINGS[0])
def test_wilson_is_the_plain_loop(
    size: tuple[int, int], seed: int, setting: tuple[int, ...]
) -> None:
    assert wilson_with(setting, *size, seed) == wilson_reference(*size, seed)


def test_wilson_blocks_are_used_and_agree() -> None:
    """The example above does go through the numpy blocks, walls and all."""
    calls: dict[str, int] = {"walks": 0, "walled": 0}
    walk_in_blocks, chain = wilson_module._Blocks.walk, walk._chain

    def counting_walk(self: Any, here: int, moves: Any) -> None:
        calls["walks"] += 1
        walk_in_blocks(self, here, moves)

    def counting_chain(*args: Any) -> Any:
        starts, touched = chain(*args)
        calls["walled"] += len(touched)
        return starts, touched

    with (
        mock.patch.object(wilson_module._Blocks, "walk", counting_walk),
        mock.patch.object(walk, "_chain", counting_chain),
    ):
        maze = wilson_with(WILSON_SETTINGS[3], 40, 40, 0)
    assert calls["walks"] >= 5 and calls["walled"] >= 20, calls
    assert maze == wilson_reference(40, 40, 0)


def test_wilson_in_blocks_at_its_own_settings() -> None:
    """A grid big enough for lacak's own settings to walk in numpy blocks."""
    assert wilson_module.wilson(70, 90, 5) == wilson_reference(70, 90, 5)


# -- Aldous-Broder ------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(
    size=lst.grid_sizes(min_side=1, max_side=14),
    seed=lst.seeds(),
    block=st.sampled_from([1, 8, aldous_broder_module.BLOCK]),
)
@example(size=(2, 2), seed=0, block=1)
@example(size=(1, 30), seed=2, block=1)
def test_aldous_broder_is_the_plain_walk(size: tuple[int, int], seed: int, block: int) -> None:
    with mock.patch.object(aldous_broder_module, "BLOCK", block):
        maze = aldous_broder_module.aldous_broder(*size, seed)
    assert maze == aldous_broder_reference(*size, seed)
