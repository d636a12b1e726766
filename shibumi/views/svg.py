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
from .marks import GEOMETRY, HALO_DARK, LEGEND, MARKS, PATH_COLOURS, SYMBOLS, halo_for

__all__ = ["position_svg", "grid_svg", "levels_svg", "legend_html", "mark_swatch_svg", "MARK_SYMBOLS"]

#: The symbols a point may be marked with (see :mod:`shibumi.views.marks`).
MARK_SYMBOLS = tuple(SYMBOLS)

_SCALE = 10.0            # user units per projected grid step (a ball radius)
_FILES = "abcdefg"

# fill, outline
_BALL_PAINT = {
    WHITE: ("#f6f3ea", "#4a4a4a"),
    BLACK: ("#1f1f1f", "#000000"),
    RED: ("#c62a1f", "#4d0b06"),
}
# outline of a hidden ball's dashed disc: dark on white, light on black and red
_MARK_INK = {EMPTY: "#111111", WHITE: "#111111", BLACK: "#f6f3ea", RED: "#f6f3ea"}
_LINE_COLOURS = PATH_COLOURS
_BOARD_FILL, _BOARD_EDGE, _HOLE_FILL = "#dcb67a", "#8a6434", "#6d4c25"
_HIGHLIGHT = MARKS["last"].colour
_COLOUR_CLASS = ("", "white", "black", "red")
_PLAYABLE = MARKS["playable"].colour


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


def _mark_shape(p, symbol: str, halo: str, x: float, y: float,
                scale: float = _SCALE) -> list[str]:
    """A ``+ - x •`` mark in its colour (:mod:`.marks`) over a halo of colour ``halo``.

    The group's ``stroke`` is the halo; the coloured strokes are drawn over it.
    """
    colour = MARKS[symbol].colour
    arm, core = GEOMETRY["arm"] * scale, GEOMETRY["stroke"] * scale
    outline = core + 2 * GEOMETRY["halo"] * scale
    name = "" if p is None else f' data-point="{point_name(p)}"'
    out = [f'<g class="mark"{name} data-symbol="{_esc(symbol)}" '
           f'stroke="{halo}" stroke-width="{_num(outline)}" stroke-linecap="round">']
    if symbol == "•":
        r = GEOMETRY["dot"] * scale
        out.append(_tag("circle", cx=x, cy=y, r=r, fill=colour,
                        stroke_width=GEOMETRY["halo"] * scale * 1.4))
        out.append("</g>")
        return out
    if symbol == "+":
        bars = [(x - arm, y, x + arm, y), (x, y - arm, x, y + arm)]
    elif symbol == "-":
        bars = [(x - arm, y, x + arm, y)]
    else:  # x
        d = arm * 0.8
        bars = [(x - d, y - d, x + d, y + d), (x - d, y + d, x + d, y - d)]
    for x1, y1, x2, y2 in bars:                      # the halo, then the colour
        out.append(_tag("line", x1=x1, y1=y1, x2=x2, y2=y2))
    out.append(f'<g stroke="{colour}" stroke-width="{_num(core)}">')
    for x1, y1, x2, y2 in bars:
        out.append(_tag("line", x1=x1, y1=y1, x2=x2, y2=y2))
    out.append("</g></g>")
    return out


def _ring_shape(kind: str, x: float, y: float, r: float, width: float,
                dashed: bool = False, **attrs) -> list[str]:
    """A ring of mark ``kind``'s colour (:mod:`.marks`) over a dark halo."""
    halo = width + 2 * GEOMETRY["halo"] * _SCALE * 0.8
    dash = f"{_num(r * 0.5)} {_num(r * 0.32)}" if dashed else None
    return [_tag("circle", cx=x, cy=y, r=r, fill="none", stroke=HALO_DARK,
                 stroke_opacity=0.55, stroke_width=halo, stroke_dasharray=dash),
            _tag("circle", **attrs, cx=x, cy=y, r=r, fill="none",
                 stroke=MARKS[kind].colour, stroke_width=width, stroke_dasharray=dash)]


def _halo(colour: int) -> str:
    """The halo of a mark drawn over a ball of this colour (or EMPTY)."""
    return halo_for(_COLOUR_CLASS[colour] or None)


def _playable_ring(x: float, y: float, name: str | None = None) -> str:
    """The small ring on an empty playable point (the colour of the + mark)."""
    return _tag("circle", class_="playable", data_point=name, cx=x, cy=y,
                r=GEOMETRY["small_ring"] * _SCALE, fill="#ffffff", fill_opacity=0.55,
                stroke=_PLAYABLE, stroke_width=GEOMETRY["small_ring_stroke"] * _SCALE)


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
    width in pixels (the picture is square).  A position of another board type
    (a grid) is drawn by that board's picture, :func:`grid_svg`.
    """
    if getattr(position, "grid", None) is not None:
        return grid_svg(position, marks=marks, lines=lines, highlight=highlight,
                        labels=labels, size=size)
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
                out.extend(_ring_shape("last", x, y, r + _SCALE * 0.06,
                                       GEOMETRY["ring_stroke"] * _SCALE,
                                       class_="highlight", data_point=point_name(p)))
            if level and playable >> p & 1:
                x, y = _xy(p)
                out.append(_playable_ring(x, y, point_name(p)))

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
        out.extend(_mark_shape(p, symbol, _halo(_colour_seen(position, p)), x, y))

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
                    out.append(_playable_ring(cx, cy, point_name(p)))
                else:
                    out.append(_tag("circle", class_="hole", cx=cx, cy=cy,
                                    r=_SCALE * 0.18, fill=_HOLE_FILL))
                if p in highlight:
                    out.append(_tag("rect", class_="highlight", data_point=point_name(p),
                                    x=cx0 + _SCALE * 0.12, y=cy0 + _SCALE * 0.12,
                                    width=cell - _SCALE * 0.24, height=cell - _SCALE * 0.24,
                                    fill="none", stroke=_HIGHLIGHT, stroke_width=_SCALE * 0.22))
                if p in marks:
                    out.extend(_mark_shape(p, marks[p], _halo(colour), cx, cy))
        out.append("</g>")
        left += n * cell + gap
    out.append("</svg>")
    return "\n".join(out)


# -- the legend of the marks ---------------------------------------------------------

def mark_swatch_svg(key: str, size: int = 64) -> str:
    """A small picture of one mark of :data:`shibumi.views.marks.MARKS`, for a legend.

    The symbols are shown on a white and on a black ball (their halo changes
    with the ground), the rings around balls, the playable ring on the wood.

    >>> mark_swatch_svg('+').count('class="mark"')
    2
    """
    mark = MARKS[key]
    r = _ball_radius(0)
    step = 2.3 * _SCALE
    xs = (0.0, step)
    width = step + 2 * 1.45 * _SCALE
    height = 2 * 1.45 * _SCALE
    lo = -1.45 * _SCALE
    out = _svg_open(size * width / height, size, (lo, lo, width, height),
                    f"{key}: {mark.meaning}")
    out[0] = out[0].replace("<svg ", f'<svg class="mark-swatch" data-mark="{_esc(key)}" ', 1)
    out.append(_tag("rect", x=lo, y=lo, width=width, height=height, rx=_SCALE * 0.4,
                    fill=_BOARD_FILL))

    def ball(x, colour):
        fill, stroke = _BALL_PAINT[colour]
        out.append(_tag("circle", class_=f"ball {_COLOUR_CLASS[colour]}", cx=x, cy=0, r=r,
                        fill=fill, stroke=stroke, stroke_width=_SCALE * 0.09))

    ring_r, ring_w = r + _SCALE * 0.06, GEOMETRY["ring_stroke"] * _SCALE
    if key in SYMBOLS:
        for x, colour in zip(xs, (WHITE, BLACK)):
            ball(x, colour)
            out.extend(_mark_shape(None, key, _halo(colour), x, 0))
    elif key == "playable":
        for x in xs:
            out.append(_tag("circle", class_="hole", cx=x, cy=0, r=_SCALE * 0.55,
                            fill=_HOLE_FILL))
        out.append(_playable_ring(xs[1], 0))
    elif key == "target":
        ball(xs[0], WHITE)
        out.extend(_ring_shape(key, xs[0], 0, ring_r, ring_w * 0.8, dashed=True))
        out.extend(_ring_shape(key, xs[1], 0, _SCALE * 0.55, ring_w * 0.8, dashed=True))
        out.append(_tag("circle", cx=xs[1], cy=0, r=_SCALE * 0.18, fill=mark.colour,
                        stroke="#ffffff", stroke_width=_SCALE * 0.06))
    else:   # rings around a white and a black ball
        for x, colour in zip(xs, (WHITE, BLACK)):
            if key == "winning":
                out.append(_tag("circle", cx=x, cy=0, r=r * 1.38, fill=mark.colour,
                                fill_opacity=0.35))
            ball(x, colour)
            width = ring_w * (1.6 if key == "selected" else 1.0)
            out.extend(_ring_shape(key, x, 0, ring_r + (width - ring_w) / 2, width))
    out.append("</svg>")
    return "\n".join(out)


def legend_html(keys=LEGEND, size: int = 40) -> str:
    """The legend of the marks as an HTML table: a swatch, the mark's name, its meaning.

    Made from :mod:`shibumi.views.marks`, so it cannot drift from the pictures.
    """
    names = {"last": "ring", "+": "+", "-": "−", "x": "×", "•": "•",
             "playable": "small ring", "selected": "thick ring", "target": "dashed ring",
             "winning": "gold ring"}
    rows = []
    for key in keys:
        mark = MARKS[key]
        rows.append(f'<tr data-mark="{_esc(key)}"><td>{mark_swatch_svg(key, size)}</td>'
                    f'<td><strong>{_esc(names.get(key, key))}</strong></td>'
                    f'<td>{_esc(mark.meaning)}</td></tr>')
    return ('<table class="shibumi-legend"><thead><tr><th>mark</th><th></th>'
            '<th>what it shows</th></tr></thead><tbody>' + "".join(rows)
            + "</tbody></table>")


# -- a square grid (games of another board type) ---------------------------------------

_CELL = 2 * _SCALE
_CELL_LIGHT, _CELL_DARK, _CHASM_FILL = "#e8cc98", "#d6b47a", "#2a1d10"


def grid_svg(position, marks=None, lines=(), highlight=(), labels=False, size=320,
             **_ignored) -> str:
    """The view from above of a position on a square grid (:mod:`shibumi.grid`).

    Cells in two wood tones, chasms dark; stones are wide discs, pawns smaller
    discs with a ring, a character a red ball standing on its stone (a smaller
    disc with a shadow and a rim that stands out from the stone).  ``marks``, ``lines``, ``highlight``,
    ``labels`` and ``size`` as in :func:`position_svg` (cells by number or name).

    >>> from shibumi.grid import GridPosition, grid
    >>> svg = grid_svg(GridPosition.parse(grid(7), 'BBBB*BBB/7/7/7/7/7/WWWW*WWW'))
    >>> svg.count('class="stone '), svg.count('class="character ')
    (14, 2)
    """
    g = position.grid
    n = g.size
    marks = [] if not marks else sorted((g.as_point(p), s) for p, s in dict(marks).items())
    for _, symbol in marks:
        if symbol not in MARK_SYMBOLS:
            raise ValueError(f"a mark is one of {' '.join(MARK_SYMBOLS)}, not {symbol!r}")
    lines = [tuple(g.as_point(p) for p in line) for line in lines]
    highlight = sorted({g.as_point(p) for p in highlight})

    def xy(p):
        f, r = g.coords(p)
        return (f + 0.5) * _CELL, (n - 1 - r + 0.5) * _CELL

    pad = _CELL * (0.9 if labels else 0.3)
    out = _svg_open(size, size, (-pad, -pad, n * _CELL + 2 * pad, n * _CELL + 2 * pad),
                    f"Grid position {position.text()}")
    out.append(_tag("rect", class_="board", x=-_CELL * 0.15, y=-_CELL * 0.15,
                    width=n * _CELL + _CELL * 0.3, height=n * _CELL + _CELL * 0.3,
                    rx=_CELL * 0.15, fill=_BOARD_FILL, stroke=_BOARD_EDGE,
                    stroke_width=_SCALE * 0.12))
    for p in range(g.num_points):
        f, r = g.coords(p)
        x, y = xy(p)
        chasm = position.chasms >> p & 1
        fill = _CHASM_FILL if chasm else (_CELL_DARK if (f + r) % 2 == 0 else _CELL_LIGHT)
        out.append(_tag("rect", class_="chasm" if chasm else "cell", data_point=g.name(p),
                        x=x - _CELL / 2, y=y - _CELL / 2, width=_CELL, height=_CELL,
                        fill=fill, stroke=_BOARD_EDGE, stroke_width=_SCALE * 0.04))
    for piece in g.pieces(position):
        if piece["kind"] not in ("stone", "pawn"):
            continue
        p, colour = piece["point"], (WHITE if piece["colour"] == "W" else BLACK)
        fill, stroke = _BALL_PAINT[colour]
        x, y = xy(p)
        if piece["kind"] == "stone":
            out.append(_tag("circle", class_="shadow", cx=x + _SCALE * 0.1, cy=y + _SCALE * 0.1,
                            r=_CELL * 0.42, fill="#000000", fill_opacity=0.25))
            out.append(_tag("circle", class_=f"stone {_COLOUR_CLASS[colour]}",
                            data_point=g.name(p), cx=x, cy=y, r=_CELL * 0.42, fill=fill,
                            stroke=stroke, stroke_width=_SCALE * 0.12))
        else:
            out.append(_tag("circle", class_=f"pawn {_COLOUR_CLASS[colour]}",
                            data_point=g.name(p), cx=x, cy=y, r=_CELL * 0.3, fill=fill,
                            stroke=stroke, stroke_width=_SCALE * 0.3))
        if piece.get("character"):
            r = _CELL * 0.24
            out.append(_tag("circle", class_="shadow", cx=x + _SCALE * 0.2, cy=y + _SCALE * 0.2,
                            r=r, fill="#000000", fill_opacity=0.35))
            out.append(_tag("circle", class_=f"character {_COLOUR_CLASS[colour]}",
                            data_point=g.name(p), cx=x, cy=y, r=r, fill=_BALL_PAINT[RED][0],
                            stroke=_MARK_INK[colour], stroke_width=_SCALE * 0.16))
    for p in highlight:
        x, y = xy(p)
        out.extend(_ring_shape("last", x, y, _CELL * 0.47, GEOMETRY["ring_stroke"] * _SCALE,
                               class_="highlight", data_point=g.name(p)))
    for i, line in enumerate(lines):
        if not line:
            continue
        colour = _LINE_COLOURS[i % len(_LINE_COLOURS)]
        coords = " ".join(f"{_num(x)},{_num(y)}" for x, y in map(xy, line))
        out.append(_tag("polyline", class_="line",
                        data_points=" ".join(g.name(p) for p in line), points=coords,
                        fill="none", stroke=colour, stroke_opacity=0.8,
                        stroke_width=_SCALE * 0.34, stroke_linecap="round",
                        stroke_linejoin="round"))
    for p, symbol in marks:
        x, y = xy(p)
        out.extend(_mark_shape(None, symbol, _halo(position.colour_at(p)), x, y))
    if labels:
        font = _SCALE * 0.8
        for f in range(n):
            x = (f + 0.5) * _CELL
            out.append(f'<text class="label file" x="{_num(x)}" '
                       f'y="{_num(n * _CELL + pad * 0.75)}" font-size="{_num(font)}" '
                       f'text-anchor="middle" fill="#333333">{g.files[f]}</text>')
        for r in range(n):
            y = (n - 1 - r + 0.5) * _CELL + font * 0.35
            out.append(f'<text class="label rank" x="{_num(-pad * 0.55)}" y="{_num(y)}" '
                       f'font-size="{_num(font)}" text-anchor="middle" '
                       f'fill="#333333">{r + 1}</text>')
    out.append("</svg>")
    return "\n".join(out)
