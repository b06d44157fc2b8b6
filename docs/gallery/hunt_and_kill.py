"""The hunt-and-kill texture table and pictures of docs/mazes.md ("Hunting more often").

    .venv/bin/python docs/gallery/hunt_and_kill.py

writes one small PNG per value of ``hunt_chance`` next to this file and
prints the Markdown table that docs/mazes.md shows; tests/mazes/test_docs.py
checks that the document holds this table and these pictures. Everything
comes from fixed seeds, so the output is the same on every run.
"""

from __future__ import annotations

import statistics
from pathlib import Path

import lacak

#: The values of hunt_chance shown.
VALUES = (0.0, 0.1, 0.3, 1.0)
#: Mazes measured per value and hunt: seeds 0 to SAMPLES - 1, SIDE x SIDE.
SAMPLES = 50
SIDE = 50
#: The pictures: one maze per value, same seed and size.
PICTURE_SIZE = (20, 32)
PICTURE_SEED = 17
PICTURE_OPTIONS = {"cell_size": 8, "wall_width": 2}

HERE = Path(__file__).resolve().parent


def picture_name(chance: float) -> str:
    """File name of the picture for ``chance`` (next to this script)."""
    return f"hunt-and-kill-{chance}.png"


def picture(chance: float) -> bytes:
    """The PNG of the pictured maze for ``chance``."""
    maze = lacak.generate(
        "maze", "hunt-and-kill", PICTURE_SIZE, seed=PICTURE_SEED, hunt_chance=chance
    )
    data = maze.render("png", **PICTURE_OPTIONS)
    assert isinstance(data, bytes)
    return data


def means(hunt: str, chance: float) -> dict[str, float]:
    """Mean statistics of SAMPLES mazes."""
    stats = [
        lacak.generate(
            "maze", "hunt-and-kill", (SIDE, SIDE), seed=seed, hunt=hunt, hunt_chance=chance
        ).stats()
        for seed in range(SAMPLES)
    ]
    keys = ("dead_end_share", "corridor_length", "horizontal_share")
    return {key: statistics.fmean(s[key] for s in stats) for key in keys}


def table() -> str:
    """The Markdown table of docs/mazes.md."""
    lines = [
        "| `hunt_chance` | dead ends | mean corridor length | east-west passages "
        "| dead ends, `hunt=random` | mean corridor length, `hunt=random` | `hunt=rows` |",
        "|---:|---:|---:|---:|---:|---:|---|",
    ]
    for chance in VALUES:
        rows, random = means("rows", chance), means("random", chance)
        lines.append(
            f"| {chance} | {rows['dead_end_share']:.1%} | {rows['corridor_length']:.2f} "
            f"| {rows['horizontal_share']:.1%} | {random['dead_end_share']:.1%} "
            f"| {random['corridor_length']:.2f} "
            f"| ![hunt_chance={chance}](gallery/{picture_name(chance)}) |"
        )
    return "\n".join(lines)


def main() -> None:
    for chance in VALUES:
        path = HERE / picture_name(chance)
        path.write_bytes(picture(chance))
        print(f"wrote {path} ({path.stat().st_size:,} bytes)")
    print()
    print(table())


if __name__ == "__main__":
    main()
