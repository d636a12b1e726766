"""Rule-book style SVG diagrams of a position (standard library only).

Two pictures:

* :func:`position_svg` -- the top view.  The board square with its 16 holes;
  every ball seen from above drawn at its projected centre on the 7x7 grid
  (files a-g, ranks 1-7), lower balls first so that higher balls overlap
  them, raised balls a little larger and casting a shadow.  Optional marks
  (``+``, ``-``, ``x``, ``•``), thick lines through ball centres, highlighted
  points, rings on empty playable points above the board and edge labels.
* :func:`levels_svg` -- the four levels side by side (4x4, 3x3, 2x2 and the
  apex), every ball shown, hidden ones with a dashed outline.

Both return the text of an ``<svg>`` element with no external resources
(no fonts, images, scripts or ``id`` references), so several diagrams can
share one HTML page.  The output depends only on the arguments.

Points may be given as numbers 0-29 or as names (``'d4.1'``, ``'b2'``).

>>> from shibumi.position import Position, WHITE
>>> svg = position_svg(Position.empty().place(0, WHITE))
>>> svg.startswith('<svg') and svg.count('class="ball ') == 1
True
"""

from __future__ import annotations

from ..geometry import LEVEL, NUM_POINTS, POINTS, PROJECTION, SIZES, point_at
from ..notation import as_point, point_name
from ..position import BLACK, EMPTY, RED, WHITE

__all__ = ["position_svg", "levels_svg", "MARK_SYMBOLS"]

#: The symbols a point may be marked with.
MARK_SYMBOLS = ("+", "-", "x", "•")

_SCALE = 10.0            # user units per projected grid step (a ball radius)
_FILES = "abcdefg"

# fill, outline
_BALL_PAINT = {
    WHITE: ("#f6f3ea", "#4a4a4a"),
    BLACK: ("#1f1f1f", "#000000"),
    RED: ("#c62a1f", "#4d0b06"),
}
# stroke used for marks drawn on a ball of that colour (or on an empty point)
_MARK_INK = {EMPTY: "#111111", WHITE: "#111111", BLACK: "#f6f3ea", RED: "#f6f3ea"}
_LINE_COLOURS = ("#1f6fd1", "#e08a00", "#2e9e44", "#8e44ad", "#d0306c")
_BOARD_FILL, _BOARD_EDGE, _HOLE_FILL = "#dcb67a", "#8a6434", "#6d4c25"
_HIGHLIGHT = "#f2c200"
_COLOUR_CLASS = ("", "white", "black", "red")
_PLAYABLE = "#2e7d32"


# -- small helpers -------------------------------------------------------------

def _num(value: float) -> str:
    """A short, stable number for an attribute (two decimals at most)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _esc(text: str) -> str:
    return (text.replace("&", "&amp;").replace("<", "&lt;")
            .replace(">", "&gt;").replace('"', "&quot;"))


def _attrs(**attrs) -> str:
    parts = []
    for key, value in attrs.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        if isinstance(value, float):
            value = _num(value)
        parts.append(f'{name}="{_esc(str(value))}"')
    return " ".join(parts)


def _tag(name: str, **attrs) -> str:
    return f"<{name} {_attrs(**attrs)}/>"


def _xy(p: int) -> tuple[float, float]:
    """SVG coordinates of a point's projected centre (rank 1 at the bottom)."""
    fx, fy = PROJECTION[p]
    return fx * _SCALE, (6 - fy) * _SCALE


def _ball_radius(level: int) -> float:
    # Board balls leave a hair of board between them; each level up is drawn a
    # little larger, as a ball nearer the eye looks when seen from above.
    return _SCALE * (0.93 + 0.045 * level)


def _svg_open(width: float, height: float, view: tuple[float, float, float, float],
              title: str) -> list[str]:
    vx, vy, vw, vh = view
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(width)}" '
            f'height="{_num(height)}" viewBox="{_num(vx)} {_num(vy)} {_num(vw)} {_num(vh)}" '
            f'font-family="Helvetica, Arial, sans-serif">')
    return [head, f"<title>{_esc(title)}</title>"]


def _colour_seen(position, p: int) -> int:
    """The colour seen from above on p's square (its highest ball), or EMPTY."""
    square = PROJECTION[p]
    seen = [q for q in POINTS if PROJECTION[q] == square and position.occupied >> q & 1]
    return position.colour_at(max(seen)) if seen else EMPTY


def _mark_shape(p: int, symbol: str, ink: str, x: float, y: float) -> list[str]:
    arm = _SCALE * 0.42
    width = _SCALE * 0.16
    out = [f'<g class="mark" data-point="{point_name(p)}" data-symbol="{_esc(symbol)}" '
           f'stroke="{ink}" stroke-width="{_num(width)}" stroke-linecap="round">']
    if symbol == "+":
        out.append(_tag("line", x1=x - arm, y1=y, x2=x + arm, y2=y))
        out.append(_tag("line", x1=x, y1=y - arm, x2=x, y2=y + arm))
    elif symbol == "-":
        out.append(_tag("line", x1=x - arm, y1=y, x2=x + arm, y2=y))
    elif symbol == "x":
        d = arm * 0.78
        out.append(_tag("line", x1=x - d, y1=y - d, x2=x + d, y2=y + d))
        out.append(_tag("line", x1=x - d, y1=y + d, x2=x + d, y2=y - d))
    else:  # the dot
        out.append(_tag("circle", cx=x, cy=y, r=_SCALE * 0.2, fill=ink, stroke="none"))
    out.append("</g>")
    return out


def _check_marks(marks) -> list[tuple[int, str]]:
    if not marks:
        return []
    items = []
    for p, symbol in dict(marks).items():
        if symbol not in MARK_SYMBOLS:
            raise ValueError(f"a mark is one of {' '.join(MARK_SYMBOLS)}, not {symbol!r}")
        items.append((as_point(p), symbol))
    return sorted(items)


# -- the top view ----------------------------------------------------------------

def position_svg(position, marks=None, lines=(), highlight=(), show_playable=True,
                 labels=False, size=320, show_hidden=False) -> str:
    """The top view of a position as SVG text, like a figure of the rule book.

    ``marks`` maps points to ``'+'``, ``'-'``, ``'x'`` or ``'•'``; ``lines`` is
    a sequence of point sequences, each drawn as a thick polyline through the
    ball centres (a line, a group or a path); ``highlight`` rings points;
    ``show_playable`` draws small rings on empty playable points above the
    board; ``labels`` writes files a-g and ranks 1-7 around the edge;
    ``show_hidden`` draws hidden balls as dashed discs.  ``size`` is the
    width in pixels (the picture is square).
    """
    marks = _check_marks(marks)
    lines = [tuple(as_point(p) for p in line) for line in lines]
    highlight = sorted({as_point(p) for p in highlight})
    hidden = position.hidden()
    visible = position.visible()
    playable = position.playable() if show_playable else 0

    pad = _SCALE * (2.4 if labels else 1.6)
    lo, hi = -pad, 6 * _SCALE + pad
    out = _svg_open(size, size, (lo, lo, hi - lo, hi - lo),
                    f"Shibumi position {position.text()}")

    # the board and its holes
    edge = _SCALE * 1.35
    out.append(_tag("rect", class_="board", x=-edge, y=-edge, width=6 * _SCALE + 2 * edge,
                    height=6 * _SCALE + 2 * edge, rx=_SCALE * 0.5, fill=_BOARD_FILL,
                    stroke=_BOARD_EDGE, stroke_width=_SCALE * 0.12))
    for p in POINTS:
        if LEVEL[p] == 0:
            x, y = _xy(p)
            out.append(_tag("circle", class_="hole", cx=x, cy=y, r=_SCALE * 0.55,
                            fill=_HOLE_FILL))

    # level by level: shadows, balls, highlights, playable rings
    for level in range(4):
        pts = [p for p in POINTS if LEVEL[p] == level]
        r = _ball_radius(level)
        if level:
            for p in pts:
                if visible >> p & 1:
                    x, y = _xy(p)
                    off = _SCALE * 0.16
                    out.append(_tag("circle", class_="shadow", cx=x + off, cy=y + off,
                                    r=r, fill="#000000", fill_opacity=0.28))
        for p in pts:
            if not visible >> p & 1:
                continue
            colour = position.colour_at(p)
            fill, stroke = _BALL_PAINT[colour]
            x, y = _xy(p)
            out.append(_tag("circle", class_=f"ball {_COLOUR_CLASS[colour]}",
                            data_point=point_name(p), data_level=level, cx=x, cy=y, r=r,
                            fill=fill, stroke=stroke, stroke_width=_SCALE * 0.09))
        for p in pts:
            if p in highlight:
                x, y = _xy(p)
                out.append(_tag("circle", class_="highlight", data_point=point_name(p), cx=x,
                                cy=y, r=r + _SCALE * 0.05, fill="none", stroke=_HIGHLIGHT,
                                stroke_width=_SCALE * 0.22))
            if level and playable >> p & 1:
                x, y = _xy(p)
                out.append(_tag("circle", class_="playable", data_point=point_name(p), cx=x,
                                cy=y, r=_SCALE * 0.3, fill="#ffffff", fill_opacity=0.55,
                                stroke=_PLAYABLE, stroke_width=_SCALE * 0.1))

    if show_hidden:
        for p in POINTS:
            if hidden >> p & 1:
                colour = position.colour_at(p)
                fill, _ = _BALL_PAINT[colour]
                ink = _MARK_INK[colour]
                x, y = _xy(p)
                out.append(_tag("circle", class_=f"hidden-ball {_COLOUR_CLASS[colour]}",
                                data_point=point_name(p), cx=x, cy=y, r=_SCALE * 0.55,
                                fill=fill, fill_opacity=0.8, stroke=ink,
                                stroke_width=_SCALE * 0.08, stroke_dasharray="2 1.5"))

    for i, line in enumerate(lines):
        if not line:
            continue
        colour = _LINE_COLOURS[i % len(_LINE_COLOURS)]
        coords = " ".join(f"{_num(x)},{_num(y)}" for x, y in map(_xy, line))
        out.append(_tag("polyline", class_="line",
                        data_points=" ".join(point_name(p) for p in line), points=coords,
                        fill="none", stroke=colour, stroke_opacity=0.8,
                        stroke_width=_SCALE * 0.34, stroke_linecap="round",
                        stroke_linejoin="round"))
        if len(line) == 1:  # a one-point "line" still shows as a dot
            x, y = _xy(line[0])
            out.append(_tag("circle", class_="line-dot", cx=x, cy=y, r=_SCALE * 0.2,
                            fill=colour))

    for p, symbol in marks:
        x, y = _xy(p)
        out.extend(_mark_shape(p, symbol, _MARK_INK[_colour_seen(position, p)], x, y))

    if labels:
        font = _SCALE * 0.7
        for f in range(7):
            x = f * _SCALE
            for y in (6 * _SCALE + edge + font * 1.05, -edge - font * 0.35):
                out.append(f'<text class="label file" x="{_num(x)}" y="{_num(y)}" '
                           f'font-size="{_num(font)}" text-anchor="middle" '
                           f'fill="#333333">{_FILES[f]}</text>')
        for rank in range(7):
            y = (6 - rank) * _SCALE + font * 0.35
            for x in (-edge - font * 0.6, 6 * _SCALE + edge + font * 0.6):
                out.append(f'<text class="label rank" x="{_num(x)}" y="{_num(y)}" '
                           f'font-size="{_num(font)}" text-anchor="middle" '
                           f'fill="#333333">{rank + 1}</text>')
    out.append("</svg>")
    return "\n".join(out)


# -- the level-by-level view ---------------------------------------------------------

_LEVEL_TITLES = ("board", "level 1", "level 2", "apex")


def levels_svg(position, marks=None, highlight=(), size=480) -> str:
    """The four levels side by side: board 4x4, level 1 3x3, level 2 2x2, apex.

    Each of the 30 points is a cell (``class="cell"``); every ball is drawn,
    hidden ones with a dashed outline; empty playable cells show a small
    ring.  ``marks`` and ``highlight`` work as in :func:`position_svg`.
    ``size`` is the width in pixels.
    """
    marks = dict(_check_marks(marks))
    highlight = {as_point(p) for p in highlight}
    hidden = position.hidden()
    playable = position.playable()
    cell = 2 * _SCALE
    gap = cell * 0.8
    top = _SCALE * 2.2                 # room for the captions
    height = top + SIZES[0] * cell + _SCALE * 0.6
    width = sum(SIZES) * cell + 3 * gap + _SCALE * 1.2
    out = _svg_open(size, size * height / width, (0, 0, width, height),
                    f"Shibumi position {position.text()}, level by level")
    left = _SCALE * 0.6
    bottom = top + SIZES[0] * cell
    for level in range(4):
        n = SIZES[level]
        ox, oy = left, bottom - n * cell
        out.append(f'<g class="level" data-level="{level}">')
        out.append(f'<text class="caption" x="{_num(ox + n * cell / 2)}" '
                   f'y="{_num(oy - _SCALE * 0.7)}" font-size="{_num(_SCALE * 0.95)}" '
                   f'text-anchor="middle" fill="#333333">{_LEVEL_TITLES[level]}</text>')
        for y in reversed(range(n)):
            for x in range(n):
                p = point_at(level, x, y)
                cx0, cy0 = ox + x * cell, oy + (n - 1 - y) * cell
                cx, cy = cx0 + cell / 2, cy0 + cell / 2
                out.append(_tag("rect", class_="cell", data_point=point_name(p), x=cx0, y=cy0,
                                width=cell, height=cell, fill=_BOARD_FILL,
                                stroke=_BOARD_EDGE, stroke_width=_SCALE * 0.08))
                colour = position.colour_at(p)
                if colour != EMPTY:
                    fill, stroke = _BALL_PAINT[colour]
                    dash = "2 1.5" if hidden >> p & 1 else None
                    name = _COLOUR_CLASS[colour]
                    out.append(_tag("circle",
                                    class_=("hidden-ball " if dash else "ball ") + name,
                                    data_point=point_name(p), cx=cx, cy=cy, r=_SCALE * 0.82,
                                    fill=fill, stroke=stroke if not dash else _MARK_INK[colour],
                                    stroke_width=_SCALE * 0.1, stroke_dasharray=dash))
                elif playable >> p & 1:
                    out.append(_tag("circle", class_="playable", data_point=point_name(p), cx=cx,
                                    cy=cy, r=_SCALE * 0.3, fill="none", stroke=_PLAYABLE,
                                    stroke_width=_SCALE * 0.1))
                else:
                    out.append(_tag("circle", class_="hole", cx=cx, cy=cy,
                                    r=_SCALE * 0.18, fill=_HOLE_FILL))
                if p in highlight:
                    out.append(_tag("rect", class_="highlight", data_point=point_name(p),
                                    x=cx0 + _SCALE * 0.12, y=cy0 + _SCALE * 0.12,
                                    width=cell - _SCALE * 0.24, height=cell - _SCALE * 0.24,
                                    fill="none", stroke=_HIGHLIGHT, stroke_width=_SCALE * 0.22))
                if p in marks:
                    out.extend(_mark_shape(p, marks[p], _MARK_INK[colour], cx, cy))
        out.append("</g>")
        left += n * cell + gap
    out.append("</svg>")
    return "\n".join(out)
