"""``lacak/Boggle-v0``: pick tiles to spell words (imports Gymnasium: the gym extra).

Declared by :data:`lacak_boggle.learning.GYM` and registered by :mod:`lacak.gym`. Each
episode is a board of the ``boggle`` task at a level (its words proven complete by the
solver). Action ``i < rows * cols`` adds tile ``i`` (row-major) to the path, when it is
next to the path's last tile and not on the path yet; the last action submits the word
the path spells: its points (3-4 letters 1, 5 letters 2, 6 letters 3, 7 letters 5, 8 or
more 11) when it is on the board and not found before, else nothing; the path starts
again either way. An illegal action changes nothing. The episode ends when every word
is found. See docs/machine-learning.md.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import lacak
import numpy as np
from gymnasium import spaces
from lacak.gym.env import png_array

from .learning import make_task

__all__ = ["BoggleEnv"]

#: Letters a tile holds at most in the observation (``QU`` has two).
TILE_LETTERS = 3


class BoggleEnv(gymnasium.Env[dict[str, np.ndarray], np.int64]):
    """Spell words on a Boggle board, one tile a step.

    :param level: the level of the ``boggle`` task (board size and word count).
    :param dictionary: the dictionary (default: the solver's).
    :param render_mode: ``"ansi"`` (the board, the path in brackets) or ``"rgb_array"``.

    Observation: ``{"board": rows x cols x 3 int32`` (each tile's letters as Unicode code
    points, 0 after its last), ``"path": rows x cols int16`` (0 off the path, else the
    tile's place on it, from 1)``}``; ``info["action_mask"]`` marks the legal actions,
    ``info["found"]`` counts the words found, ``info["words"]`` the board's words.
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}  # noqa: RUF012 (Gymnasium's)

    def __init__(
        self, kind: str = "boggle", *, level: int = 1, dictionary: str | None = None,
        render_mode: str | None = None, **ignored: Any,
    ) -> None:  # fmt: skip
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise lacak.InvalidOptionError(
                f"render_mode is one of ansi, rgb_array (or None), got {render_mode!r}"
            )
        if ignored:
            raise lacak.InvalidOptionError(
                f"lacak/Boggle-v0 takes no option {', '.join(map(repr, sorted(ignored)))} "
                "(its options: level, dictionary, render_mode)"
            )
        self.level, self.dictionary, self.render_mode = level, dictionary, render_mode
        self._draw(0)
        rows, cols = self.board.rows, self.board.cols
        self.action_space: spaces.Discrete = spaces.Discrete(rows * cols + 1)
        self.observation_space: Any = spaces.Dict(
            {
                "board": spaces.Box(0, 0x10FFFF, (rows, cols, TILE_LETTERS), np.int32),
                "path": spaces.Box(0, rows * cols, (rows, cols), np.int16),
            }
        )

    def _draw(self, seed: int) -> None:
        made = make_task(seed, self.level, dictionary=self.dictionary)
        self.board = made["puzzle"]
        self.words: dict[str, int] = dict(made["metadata"]["words"])
        self.found: set[str] = set()
        self.path: list[int] = []
        rows, cols = self.board.rows, self.board.cols
        self.tiles = self.board.flat
        self.near = [
            {r * cols + c for r, c in self.board.neighbours(divmod(i, cols))}
            for i in range(rows * cols)
        ]
        codes = np.zeros((rows, cols, TILE_LETTERS), np.int32)
        for i, tile in enumerate(self.tiles):
            letters = [ord(ch) for ch in tile.upper()[:TILE_LETTERS]]
            codes[i // cols, i % cols, : len(letters)] = letters
        self.codes = codes

    def _observe(self) -> dict[str, np.ndarray]:
        path = np.zeros(self.codes.shape[:2], np.int16)
        for place, i in enumerate(self.path, 1):
            path.flat[i] = place
        return {"board": self.codes.copy(), "path": path}

    def _mask(self) -> np.ndarray:
        mask = np.zeros(int(self.action_space.n), np.int8)
        if not self.path:
            mask[:-1] = 1
        else:
            for i in self.near[self.path[-1]] - set(self.path):
                mask[i] = 1
            mask[-1] = 1
        return mask

    def _info(self) -> dict[str, Any]:
        return {
            "action_mask": self._mask(),
            "found": len(self.found),
            "words": len(self.words),
            "word": "".join(self.tiles[i] for i in self.path).upper(),
        }

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """A new board of the level, drawn with the env's random generator."""
        super().reset(seed=seed)
        self._draw(int(self.np_random.integers(0, 2**63 - 1)))
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        """Add a tile to the path, or submit its word (the last action)."""
        index = int(action)
        reward = 0.0
        if index == len(self.tiles):
            word = "".join(self.tiles[i] for i in self.path).upper()
            if word in self.words and word not in self.found:
                self.found.add(word)
                reward = float(self.words[word])
            self.path = []
        elif 0 <= index < len(self.tiles) and self._mask()[index]:
            self.path.append(index)
        terminated = len(self.found) == len(self.words)
        return self._observe(), reward, terminated, False, self._info()

    def render(self) -> Any:
        """The board as text (the path's tiles in brackets) or as a picture."""
        if self.render_mode == "ansi":
            cols = self.board.cols
            cells = [f"[{t}]" if i in self.path else f" {t} " for i, t in enumerate(self.tiles)]
            rows = ["".join(cells[r * cols : (r + 1) * cols]) for r in range(self.board.rows)]
            return "\n".join(rows) + f"\nfound {len(self.found)} of {len(self.words)} words\n"
        if self.render_mode == "rgb_array":
            return png_array(lacak.picture(self.board).png())
        return None
