"""What every picture of a maze shares, whatever its grid: the colours, the largest
picture, checked sizes, and the words a picture's title says (its generator, size, seed
and options).

It imports no other module of the plugin that draws, so that the rectangle's pictures
(:mod:`lacak_mazes.render`) and every other grid's (:mod:`lacak_mazes.gridrender`) share
it without importing each other.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import lacak

if TYPE_CHECKING:
    from ._shape import MazeLike

__all__ = [
    "COLORS",
    "MAX_PIXELS",
    "caption",
    "check_range",
    "colors_rgb",
    "hex_colour",
    "made_with",
    "parse_colors",
]

#: Most pixels a PNG may have (width x height): 100 million, about 300 MB of RGB.
MAX_PIXELS = 100_000_000

#: Default colours of the pictures.
COLORS = {
    "wall": "#1f2933",
    "background": "#ffffff",
    "solution": "#e4572e",
    "start": "#2e933c",
    "end": "#c0392b",
}


def check_range(what: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise lacak.InvalidOptionError(f"{what} must be a whole number {low}-{high}, got {value!r}")
    return value


def colors_rgb(options: dict[str, Any]) -> dict[str, tuple[int, int, int]]:
    from PIL import ImageColor  # (deferred: Pillow, for pictures only)

    colors = {}
    for name, default in COLORS.items():
        value = options.get(name) or default
        try:
            colors[name] = ImageColor.getrgb(value)[:3]
        except (ValueError, AttributeError):
            raise lacak.InvalidOptionError(
                f"{name} colour {value!r} is not a colour name or #rrggbb"
            ) from None
    return colors


def hex_colour(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def parse_colors(color: Any) -> dict[str, str]:
    """Colours given as ``NAME=COLOUR`` texts (what ``--color`` collects) or a mapping.

    >>> parse_colors(["wall=navy", " end = #ff0000 "])
    {'wall': 'navy', 'end': '#ff0000'}

    :raises InvalidOptionError: not ``NAME=COLOUR``, or a name not in :data:`COLORS`.
        (The colour itself is checked when it is drawn.)
    """
    if isinstance(color, Mapping):
        pairs = [f"{name}={value}" for name, value in color.items()]
    elif isinstance(color, str):
        pairs = [color]
    else:
        pairs = list(color)
    colors = {}
    for pair in pairs:
        name, sep, value = str(pair).partition("=")
        name = name.strip()
        if not sep or name not in COLORS:
            raise lacak.InvalidOptionError(
                f"--color takes NAME=COLOUR with NAME one of {', '.join(COLORS)}, got {pair!r}"
            )
        colors[name] = value.strip()
    return colors


def made_with(maze: MazeLike) -> str:
    """``hunt-and-kill 10x19, seed 7, hunt=columns``: what makes the maze again (its
    generator, size, seed and the options it was given besides the defaults)."""
    parts = [f"{maze.algorithm or 'maze'} {maze.height}x{maze.width}"]
    if maze.seed is not None:
        parts.append(f"seed {maze.seed}")
    options = getattr(maze, "options", None) or {}
    parts += [f"{key}={_option_text(key, value)}" for key, value in options.items()]
    return ", ".join(parts)


def _option_text(key: str, value: Any) -> str:
    """An option's value as ``-O KEY=VALUE`` takes it back (a mask: its size only)."""
    if key == "mask" and isinstance(value, str):
        rows = value.split("/")
        return f"{len(rows)}x{len(rows[0])}"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def caption(maze: MazeLike) -> str:
    """``hunt-and-kill 10x19, seed 7, hunt=columns, solution 63 steps``: what a picture
    shows, in words (:func:`made_with`, then the ends or the solution)."""
    parts = [made_with(maze)]
    if maze.solution is not None:
        parts.append(f"solution {lacak.output.plural(len(maze.solution) - 1, 'step')}")
    elif maze.start is not None and maze.end is not None:
        ids = maze.grid.ids if hasattr(maze, "grid") else None
        first, last = (maze.start, maze.end) if ids is None else (ids[maze.start], ids[maze.end])
        parts.append(f"start {list(first)}, end {list(last)}")
    return ", ".join(parts)
