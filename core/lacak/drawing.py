"""Pictures drawn once, written as SVG or PNG: a small canvas of rectangles, text, lines and
circles that every kind's pictures are made of.

A picture is drawn on a :class:`Canvas` in pixels, in the order its shapes stack (what is
drawn last is on top), and written with :meth:`Canvas.svg` (text, scalable) or
:meth:`Canvas.png` (bytes, with Pillow: drawn at twice the size and scaled down, so that
edges and letters are smooth). The same drawing gives both, so a kind's SVG and PNG never
differ in what they show; the same drawing gives the same bytes on every machine with the
same Pillow (PNG) or on every machine (SVG).

>>> canvas = Canvas(40, 20, background="#ffffff", title="a tile")
>>> canvas.rect(2, 2, 16, 16, fill="#fdf3d7", stroke="#555555", radius=2)
>>> canvas.text(10, 10, "7", size=10)
>>> canvas.svg().splitlines()[1]
'<title>a tile</title>'
>>> canvas.png()[:8]
b'\\x89PNG\\r\\n\\x1a\\n'
"""

from __future__ import annotations

import io
import itertools
import math
import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

import attrs

from .errors import InvalidOptionError, PluginError

__all__ = ["Canvas", "Picture"]

#: How much larger a PNG is drawn before it is scaled down to its size (smooth edges).
_SUPERSAMPLE = 2
#: Pictures of more pixels than this are drawn at their size (a wide search tree): drawing
#: them larger would take four times the memory and time for edges no one zooms in on.
_SUPERSAMPLE_PIXELS = 8_000_000


@attrs.define
class _Rect:
    x: float
    y: float
    width: float
    height: float
    fill: str
    stroke: str | None
    stroke_width: float
    radius: float
    dash: tuple[float, float] | None = None


@attrs.define
class _Text:
    x: float
    y: float
    text: str
    size: float
    fill: str
    bold: bool
    anchor: str


@attrs.define
class _Line:
    points: list[tuple[float, float]]
    stroke: str
    width: float
    opacity: float
    arrow: bool


@attrs.define
class _Circle:
    x: float
    y: float
    radius: float
    fill: str
    opacity: float


@attrs.define
class _Polygon:
    points: list[tuple[float, float]]
    fill: str
    opacity: float


@attrs.define
class Canvas:
    """A picture of ``width`` x ``height`` pixels, drawn shape by shape (later on top).

    :param background: a colour filling the whole picture first (``#rrggbb``), or none.
    :param title: the picture's title (SVG ``<title>``, PNG ``Title`` text).
    :param font: the SVG font family (the PNG's letters are Pillow's own font).
    """

    width: int
    height: int
    background: str | None = None
    title: str = ""
    font: str = "Helvetica, Arial, sans-serif"
    shapes: list[Any] = attrs.field(factory=list, init=False)

    def rect(self, x: float, y: float, width: float, height: float, *, fill: str,
             stroke: str | None = None, stroke_width: float = 1, radius: float = 0,
             dash: tuple[float, float] | None = None) -> None:  # fmt: skip
        """A rectangle from ``(x, y)``, its corners rounded by ``radius``; ``dash``: its
        outline dashed, ``(drawn, gap)`` in pixels."""
        if dash is not None and (len(dash) != 2 or min(dash) <= 0):
            raise ValueError(f"dash is (drawn, gap), two lengths above 0, not {dash!r}")
        self.shapes.append(_Rect(x, y, width, height, fill, stroke, stroke_width, radius,
                                 None if dash is None else (float(dash[0]), float(dash[1]))))  # fmt: skip

    def text(self, x: float, y: float, text: str, *, size: float, fill: str = "#000000",
             bold: bool = False, anchor: str = "middle") -> None:  # fmt: skip
        """``text`` with its middle line at ``y``, centred on ``x`` (``anchor="middle"``)
        or starting there (``"start"``)."""
        if anchor not in ("middle", "start"):
            raise ValueError(f"anchor is 'middle' or 'start', not {anchor!r}")
        self.shapes.append(_Text(x, y, text, size, fill, bold, anchor))

    def line(self, points: Sequence[tuple[float, float]], *, stroke: str, width: float,
             opacity: float = 1.0, arrow: bool = False) -> None:  # fmt: skip
        """A line through ``points``, round at its ends and joints; ``arrow``: a head at
        its last point."""
        self.shapes.append(_Line([(float(x), float(y)) for x, y in points], stroke, width,
                                 opacity, arrow))  # fmt: skip

    def circle(self, x: float, y: float, radius: float, *, fill: str, opacity: float = 1.0) -> None:
        """A filled circle."""
        self.shapes.append(_Circle(x, y, radius, fill, opacity))

    def polygon(self, points: Sequence[tuple[float, float]], *, fill: str,
                opacity: float = 1.0) -> None:  # fmt: skip
        """A filled polygon through ``points`` (a cell of a hexagonal maze, say)."""
        self.shapes.append(_Polygon([(float(x), float(y)) for x, y in points], fill, opacity))

    # -- SVG ------------------------------------------------------------------------------

    def svg(self) -> str:
        """The picture as a standalone SVG document."""
        out = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{self.height}" '
            f'viewBox="0 0 {self.width} {self.height}" font-family="{escape(self.font)}">',
        ]
        out.append(f"<title>{escape(self.title)}</title>" if self.title else "<title/>")
        if any(isinstance(shape, _Line) and shape.arrow for shape in self.shapes):
            out += ["<defs>", *(_marker(i, s) for i, s in enumerate(self.shapes)
                                if isinstance(s, _Line) and s.arrow), "</defs>"]  # fmt: skip
        if self.background:
            out.append(
                f'<rect width="{self.width}" height="{self.height}" fill="{self.background}"/>'
            )
        for index, shape in enumerate(self.shapes):
            out.append(_svg_shape(index, shape))
        out.append("</svg>")
        return "\n".join(out) + "\n"

    # -- PNG ------------------------------------------------------------------------------

    def png(self) -> bytes:
        """The picture as PNG bytes (RGB, drawn with Pillow): drawn at twice its size and
        scaled down, unless it is large (more than 8 million pixels), when it is drawn at
        its size."""
        from PIL import Image, ImageDraw, PngImagePlugin  # (deferred: Pillow, for PNG only)

        k = _SUPERSAMPLE if self.width * self.height <= _SUPERSAMPLE_PIXELS else 1
        image = Image.new("RGBA", (self.width * k, self.height * k), self.background or "#ffffff")
        for shape in self.shapes:
            opacity = getattr(shape, "opacity", 1.0)
            layer = image if opacity >= 1 else Image.new("RGBA", image.size, (0, 0, 0, 0))
            _png_shape(ImageDraw.Draw(layer), shape, k)
            if layer is not image:
                alpha = layer.getchannel("A").point(lambda a, o=opacity: round(a * o))
                layer.putalpha(alpha)
                image.alpha_composite(layer)
        if k == 1:
            small = image.convert("RGB")
        else:
            small = image.resize((self.width, self.height), Image.Resampling.LANCZOS)
            small = small.convert("RGB")
        info = PngImagePlugin.PngInfo()
        if self.title:
            info.add_text("Title", self.title)
        buffer = io.BytesIO()
        small.save(buffer, "PNG", pnginfo=info, optimize=False)
        return buffer.getvalue()


def _as_tuple(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(items)


@attrs.frozen
class Picture:
    """A picture drawn when asked for, in any of the formats its maker draws: what
    :func:`lacak.picture` gives for a puzzle or a solution (the kind's renderer).

    In Jupyter it shows as SVG (as PNG for a maker that draws no SVG), as pandas
    tables and matplotlib figures do; :meth:`save` writes it to a file, in the format
    its suffix names.

    >>> def draw(format):
    ...     canvas = Canvas(20, 10, title="a box")
    ...     canvas.rect(1, 1, 18, 8, fill="#ffffff", stroke="#000000")
    ...     return canvas.svg() if format == "svg" else canvas.png()
    >>> box = Picture(draw, ("svg", "png"), "a box")
    >>> box._repr_svg_().splitlines()[1], box._repr_png_() is None
    ('<title>a box</title>', True)
    """

    #: ``draw(format) -> str | bytes``: the picture in one of :attr:`formats`.
    draw: Callable[[str], Any] = attrs.field(repr=False)
    #: The formats :attr:`draw` knows (``"svg"``, ``"png"``, ``"text"``, ...).
    formats: tuple[str, ...] = attrs.field(converter=_as_tuple)
    #: What the picture shows, for its ``repr``.
    title: str = ""

    def __repr__(self) -> str:
        return f"<Picture {self.title or 'of a puzzle'} ({', '.join(self.formats)})>"

    def _in(self, format: str) -> Any:
        if format not in self.formats:
            raise InvalidOptionError(
                f"{self.title or 'this picture'} is drawn as {', '.join(self.formats)}, "
                f"not {format}"
            )
        return self.draw(format)

    def svg(self) -> str:
        """The picture as an SVG document.

        :raises InvalidOptionError: its maker draws no SVG.
        """
        data = self._in("svg")
        return data.decode("utf-8") if isinstance(data, bytes) else str(data)

    def png(self) -> bytes:
        """The picture as PNG bytes.

        :raises InvalidOptionError: its maker draws no PNG.
        :raises PluginError: its maker gave text for a PNG (a bug in it).
        """
        data = self._in("png")
        if not isinstance(data, bytes):
            raise PluginError(f"{self.title or 'this picture'}'s PNG came as text, not bytes")
        return data

    def text(self) -> str:
        """The picture as plain text (a terminal's picture without its colours).

        :raises InvalidOptionError: its maker draws no text.
        """
        data = self._in("text")
        return str(getattr(data, "plain", data))

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the picture to ``path`` in the format its suffix names (``.svg``, ``.png``,
        ``.txt`` for text), and return the path.

        :raises InvalidOptionError: a suffix of a format its maker does not draw.
        """
        path = Path(path)
        format = {".txt": "text"}.get(path.suffix.lower(), path.suffix.lower().lstrip("."))
        if format == "png":
            path.write_bytes(self.png())
        elif format == "svg":
            path.write_text(self.svg(), encoding="utf-8")
        elif format == "text":
            path.write_text(self.text(), encoding="utf-8")
        else:
            raise InvalidOptionError(
                f"a picture is saved as {', '.join(f for f in self.formats)} "
                f"(.svg, .png, .txt), not {path.name!r}"
            )
        return path

    def _repr_svg_(self) -> str | None:
        """The picture in Jupyter, when its maker draws SVG."""
        return self.svg() if "svg" in self.formats else None

    def _repr_png_(self) -> bytes | None:
        """The picture in Jupyter, when its maker draws PNG and no SVG."""
        return self.png() if "png" in self.formats and "svg" not in self.formats else None


def _marker(index: int, line: _Line) -> str:
    return (f'<marker id="arrow{index}" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="4" '
            f'markerHeight="4" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" '
            f'fill="{line.stroke}"/></marker>')  # fmt: skip


def _svg_shape(index: int, shape: Any) -> str:
    if isinstance(shape, _Rect):
        stroke = (f' stroke="{shape.stroke}" stroke-width="{shape.stroke_width:g}"'
                  if shape.stroke else "")  # fmt: skip
        radius = f' rx="{shape.radius:g}"' if shape.radius else ""
        if shape.stroke and shape.dash:
            stroke += f' stroke-dasharray="{shape.dash[0]:g} {shape.dash[1]:g}"'
        return (f'<rect x="{shape.x:g}" y="{shape.y:g}" width="{shape.width:g}" '
                f'height="{shape.height:g}"{radius} fill="{shape.fill}"{stroke}/>')  # fmt: skip
    if isinstance(shape, _Text):
        weight = ' font-weight="bold"' if shape.bold else ""
        return (f'<text x="{shape.x:g}" y="{shape.y:g}" font-size="{shape.size:g}"{weight} '
                f'text-anchor="{shape.anchor}" dominant-baseline="central" '
                f'fill="{shape.fill}">{escape(shape.text)}</text>')  # fmt: skip
    if isinstance(shape, _Line):
        points = " ".join(f"{x:g},{y:g}" for x, y in shape.points)
        opacity = f' stroke-opacity="{shape.opacity:g}"' if shape.opacity < 1 else ""
        arrow = f' marker-end="url(#arrow{index})"' if shape.arrow else ""
        return (f'<polyline points="{points}" fill="none" stroke="{shape.stroke}" '
                f'stroke-width="{shape.width:g}" stroke-linecap="round" '
                f'stroke-linejoin="round"{opacity}{arrow}/>')  # fmt: skip
    opacity = f' fill-opacity="{shape.opacity:g}"' if shape.opacity < 1 else ""
    if isinstance(shape, _Polygon):
        points = " ".join(f"{x:g},{y:g}" for x, y in shape.points)
        return f'<polygon points="{points}" fill="{shape.fill}"{opacity}/>'
    return (f'<circle cx="{shape.x:g}" cy="{shape.y:g}" r="{shape.radius:g}" '
            f'fill="{shape.fill}"{opacity}/>')  # fmt: skip


def _png_shape(draw: Any, shape: Any, k: int) -> None:
    if isinstance(shape, _Rect):
        box = (shape.x * k, shape.y * k, (shape.x + shape.width) * k, (shape.y + shape.height) * k)
        width = round(shape.stroke_width * k) if shape.stroke else 0
        solid = shape.stroke if shape.dash is None else None
        draw.rounded_rectangle(box, radius=shape.radius * k, fill=shape.fill,
                               outline=solid, width=width if solid else 0)  # fmt: skip
        if shape.stroke and shape.dash is not None:
            outline = _rounded_outline(box, shape.radius * k)
            for piece in _dashes(outline, shape.dash[0] * k, shape.dash[1] * k):
                draw.line(piece, fill=shape.stroke, width=max(1, width))
    elif isinstance(shape, _Text):
        font = _font(shape.size * k)
        anchor = "mm" if shape.anchor == "middle" else "lm"
        draw.text((shape.x * k, shape.y * k), shape.text, fill=shape.fill, font=font,
                  anchor=anchor, stroke_width=max(1, k // 2) if shape.bold else 0,
                  stroke_fill=shape.fill)  # fmt: skip
    elif isinstance(shape, _Line):
        points = [(x * k, y * k) for x, y in shape.points]
        width = max(1, round(shape.width * k))
        if len(points) > 1:
            draw.line(points, fill=shape.stroke, width=width, joint="curve")
        for x, y in (points[0], points[-1]):  # round ends
            draw.ellipse((x - width / 2, y - width / 2, x + width / 2, y + width / 2),
                         fill=shape.stroke)  # fmt: skip
        if shape.arrow and len(points) > 1:
            _arrow_head(draw, points[-2], points[-1], width * 2, shape.stroke)
    elif isinstance(shape, _Polygon):
        draw.polygon([(x * k, y * k) for x, y in shape.points], fill=shape.fill)
    else:
        r = shape.radius * k
        draw.ellipse((shape.x * k - r, shape.y * k - r, shape.x * k + r, shape.y * k + r),
                     fill=shape.fill)  # fmt: skip


def _rounded_outline(box: tuple[float, float, float, float], radius: float
                     ) -> list[tuple[float, float]]:  # fmt: skip
    """The outline of a rectangle with rounded corners as a closed line of points
    (each corner a quarter circle of a few points), clockwise from the top left."""
    x0, y0, x1, y1 = box
    r = max(0.0, min(radius, (x1 - x0) / 2, (y1 - y0) / 2))
    corners = ((x1 - r, y0 + r, -90), (x1 - r, y1 - r, 0), (x0 + r, y1 - r, 90),
               (x0 + r, y0 + r, 180))  # fmt: skip
    points: list[tuple[float, float]] = []
    steps = 6 if r else 0
    for cx, cy, start in corners:
        for step in range(steps + 1):
            angle = math.radians(start + 90 * step / max(steps, 1))
            points.append((cx + r * math.cos(angle), cy + r * math.sin(angle)))
    points.append(points[0])
    return points


def _dashes(points: Sequence[tuple[float, float]], drawn: float, gap: float
            ) -> list[list[tuple[float, float]]]:  # fmt: skip
    """The pieces of the line through ``points`` that a dash pattern of ``drawn`` on and
    ``gap`` off draws, starting with a dash (as SVG's ``stroke-dasharray`` does).

    >>> _dashes([(0, 0), (10, 0)], 3, 2)
    [[(0.0, 0.0), (3.0, 0.0)], [(5.0, 0.0), (8.0, 0.0)]]
    >>> _dashes([(0, 0), (4, 0), (4, 4)], 5, 1)  # a dash goes round a corner
    [[(0.0, 0.0), (4.0, 0.0), (4.0, 1.0)], [(4.0, 2.0), (4.0, 4.0)]]
    """
    pieces: list[list[tuple[float, float]]] = []
    on, left = True, drawn  # in a dash or a gap, and how much of it is left
    current: list[tuple[float, float]] = [(float(points[0][0]), float(points[0][1]))]
    for (ax, ay), (bx, by) in itertools.pairwise(points):
        length = math.hypot(bx - ax, by - ay)
        done = 0.0
        while length - done > left:
            done += left
            at = (ax + (bx - ax) * done / length, ay + (by - ay) * done / length)
            if on:
                current.append(at)
                pieces.append(current)
            else:
                current = [at]
            on, left = not on, drawn if not on else gap
        left -= length - done
        if on:
            current.append((float(bx), float(by)))
    if on and len(current) > 1:
        pieces.append(current)
    return pieces


def _arrow_head(draw: Any, start: tuple[float, float], end: tuple[float, float], size: float,
                fill: str) -> None:  # fmt: skip
    """A triangle at ``end`` pointing along ``start`` -> ``end``."""
    angle = math.atan2(end[1] - start[1], end[0] - start[0])
    tip = (end[0] + math.cos(angle) * size, end[1] + math.sin(angle) * size)
    left = (end[0] + math.cos(angle + 2.3) * size, end[1] + math.sin(angle + 2.3) * size)
    right = (end[0] + math.cos(angle - 2.3) * size, end[1] + math.sin(angle - 2.3) * size)
    draw.polygon([tip, left, right], fill=fill)


def _font(size: float) -> Any:
    """Pillow's own scalable font at ``size`` pixels (the same on every machine)."""
    from PIL import ImageFont  # (deferred: Pillow, for PNG only)

    return ImageFont.load_default(size=max(1.0, size))
