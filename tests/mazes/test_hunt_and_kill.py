"""Hunt-and-kill's options: how to hunt (rows, columns, random) and how often.

The default settings must keep giving the mazes lacak gave before the options
existed: ``data/hunt_and_kill_digests.json`` holds digests of mazes made by
the unmodified generator (the commit it was recorded at is in the file).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import lacak
import pytest
from lacak_mazes import Maze

DIGESTS = json.loads((Path(__file__).parent / "data" / "hunt_and_kill_digests.json").read_text())


def digest(maze: Maze) -> str:
    """A short fingerprint of the shape and the cells of ``maze``."""
    data = f"{maze.height}x{maze.width}:".encode() + maze.cells.tobytes()
    return hashlib.sha256(data).hexdigest()[:16]


@pytest.mark.parametrize("key", sorted(DIGESTS["digests"]))
def test_default_mazes_are_byte_for_byte_what_they_were(key: str) -> None:
    hunt, size, seed = key.split()
    maze = lacak.generate("maze", "hunt-and-kill", size, seed=int(seed), hunt=hunt)
    assert digest(maze) == DIGESTS["digests"][key]
