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
import math
from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape

import attrs

__all__ = ["Canvas"]

#: How much larger a PNG is drawn before it is scaled down to its size (smooth edges).
_SUPERSAMPLE = 2


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
             stroke: str | None = None, stroke_width: float = 1, radius: float = 0) -> None:  # fmt: skip
        """A rectangle from ``(x, y)``, its corners rounded by ``radius``."""
        self.shapes.append(_Rect(x, y, width, height, fill, stroke, stroke_width, radius))

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
            out.append(f'<rect width="{self.width}" height="{self.height}" fill="{self.background}"/>')
        for index, shape in enumerate(self.shapes):
            out.append(_svg_shape(index, shape))
        out.append("</svg>")
        return "\n".join(out) + "\n"

    # -- PNG ------------------------------------------------------------------------------

    def png(self) -> bytes:
        """The picture as PNG bytes (RGB, drawn with Pillow)."""
        from PIL import Image, ImageDraw, PngImagePlugin  # (deferred: Pillow, for PNG only)

        k = _SUPERSAMPLE
        image = Image.new("RGBA", (self.width * k, self.height * k), self.background or "#ffffff")
        for shape in self.shapes:
            opacity = getattr(shape, "opacity", 1.0)
            layer = image if opacity >= 1 else Image.new("RGBA", image.size, (0, 0, 0, 0))
            _png_shape(ImageDraw.Draw(layer), shape, k)
            if layer is not image:
                alpha = layer.getchannel("A").point(lambda a, o=opacity: round(a * o))
                layer.putalpha(alpha)
                image.alpha_composite(layer)
        small = image.resize((self.width, self.height), Image.Resampling.LANCZOS).convert("RGB")
        info = PngImagePlugin.PngInfo()
        if self.title:
            info.add_text("Title", self.title)
        buffer = io.BytesIO()
        small.save(buffer, "PNG", pnginfo=info, optimize=False)
        return buffer.getvalue()


def _marker(index: int, line: _Line) -> str:
    return (f'<marker id="arrow{index}" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="4" '
            f'markerHeight="4" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" '
            f'fill="{line.stroke}"/></marker>')  # fmt: skip


def _svg_shape(index: int, shape: Any) -> str:
    if isinstance(shape, _Rect):
        stroke = (f' stroke="{shape.stroke}" stroke-width="{shape.stroke_width:g}"'
                  if shape.stroke else "")  # fmt: skip
        radius = f' rx="{shape.radius:g}"' if shape.radius else ""
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
    return (f'<circle cx="{shape.x:g}" cy="{shape.y:g}" r="{shape.radius:g}" '
            f'fill="{shape.fill}"{opacity}/>')  # fmt: skip


def _png_shape(draw: Any, shape: Any, k: int) -> None:
    if isinstance(shape, _Rect):
        box = (shape.x * k, shape.y * k, (shape.x + shape.width) * k, (shape.y + shape.height) * k)
        width = round(shape.stroke_width * k) if shape.stroke else 0
        draw.rounded_rectangle(box, radius=shape.radius * k, fill=shape.fill,
                               outline=shape.stroke, width=width)  # fmt: skip
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
    else:
        r = shape.radius * k
        draw.ellipse((shape.x * k - r, shape.y * k - r, shape.x * k + r, shape.y * k + r),
                     fill=shape.fill)  # fmt: skip


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
