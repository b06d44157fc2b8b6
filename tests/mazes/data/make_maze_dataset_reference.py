"""Record what maze-dataset's own code makes of some lacak mazes:
``maze_dataset_reference.npz``, which tests/mazes/test_interop.py checks lacak's
conversion and pixels against where maze-dataset is not installed (it is not a test
dependency: it brings Jupyter and matplotlib).

Run with a Python that has lacak and maze-dataset (``pip install 'lacak[maze-dataset]'``)::

    python tests/mazes/data/make_maze_dataset_reference.py

Each maze ``i`` has ``i_cells`` (lacak's bitmasks) and ``i_solution`` (its path, from
lacak), then maze-dataset's: ``i_connections`` (the ``SolvedMaze``'s connection list),
``i_as_pixels`` (``as_pixels()``), ``i_rasterized`` (``RasterizedMazeDataset``'s pair,
``process_maze_rasterized_input_target``), ``i_tokens`` (``as_tokens`` with the default
``MazeTokenizerModular``, mazes of two cells or more) and ``i_back`` (the connection
list of the maze its tokens read back into).
"""

from __future__ import annotations

import warnings
from pathlib import Path

import lacak
import numpy as np

#: (generator, rows, cols, seed, generator options): odd shapes, loops, a single cell.
MAZES = [
    ("wilson", 1, 1, 0, {}),
    ("wilson", 1, 5, 1, {}),
    ("kruskal", 4, 1, 2, {}),
    ("recursive-backtracker", 3, 3, 3, {}),
    ("prim", 5, 7, 4, {}),
    ("hunt-and-kill", 8, 8, 5, {}),
    ("eller", 6, 9, 6, {}),
    ("recursive-backtracker", 7, 5, 7, {"braid": 1.0}),
    ("sidewinder", 10, 4, 8, {}),
    ("binary-tree", 9, 9, 9, {}),
]


def main() -> None:
    warnings.simplefilter("ignore")  # maze-dataset's own warnings (rust_fst, ...)
    from maze_dataset import SolvedMaze
    from maze_dataset.dataset.rasterized import process_maze_rasterized_input_target
    from maze_dataset.tokenization import MazeTokenizerModular

    tokenizer = MazeTokenizerModular()
    arrays: dict[str, np.ndarray] = {}
    for i, (name, rows, cols, seed, options) in enumerate(MAZES):
        maze = lacak.generate("maze", name, (rows, cols), seed=seed, **options).with_endpoints()
        solved = SolvedMaze(
            connection_list=np.stack([(maze.cells & 4) != 0, (maze.cells & 2) != 0]),
            solution=np.array(maze.solution),
        )
        assert solved.is_valid_path(solved.solution)
        arrays[f"{i}_cells"] = maze.cells
        arrays[f"{i}_solution"] = np.array(maze.solution, dtype=np.int64)
        arrays[f"{i}_connections"] = solved.connection_list
        arrays[f"{i}_as_pixels"] = solved.as_pixels()
        arrays[f"{i}_rasterized"] = process_maze_rasterized_input_target(solved)
        if rows * cols > 1:  # (maze-dataset's tokenizer fails on a maze with no passage)
            tokens = solved.as_tokens(tokenizer)
            arrays[f"{i}_tokens"] = np.array(tokens)
            back = SolvedMaze.from_tokens(tokens, tokenizer)
            arrays[f"{i}_back"] = back.connection_list
    target = Path(__file__).with_name("maze_dataset_reference.npz")
    np.savez_compressed(target, **arrays)
    print(f"{target}: {len(MAZES)} mazes")


if __name__ == "__main__":
    main()
