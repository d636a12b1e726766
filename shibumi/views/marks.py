"""The marks drawn on positions: one palette and one shape each, for every view.

Standard library only (no drawing code): the flat diagrams
(:mod:`shibumi.views.svg`), the book's 3D views (:mod:`shibumi.views.three`)
and the board that plays in the page (``book/_extra/board/board.js``, whose
``MARK_COLOURS`` object is a copy of :data:`MARK_COLOURS`, checked by
``tests/test_marks.py``) all take their colours and shapes from here, so a
mark looks the same wherever a reader meets it.

The marks, with the meaning the book gives them:

``last`` -- the last move, or the ball the text is about: a cyan ring around
    the ball (around the spot, if it is empty).
``+`` (``plus``) -- a green plus: a point where something can or does go (a
    point a move opens, a ball's supports, where a ball can roll to).
``-`` (``minus``) -- a violet bar: a ball that moves or has moved (it drops,
    slides or is pushed).
``x`` (``cross``) -- an orange cross: a ball taken away, or a point that is
    ruled out.
``•`` (``dot``) -- a magenta dot: the point the text names ("White is about
    to play here").
``selected`` -- the ball picked up to move on the playing board: a thick
    magenta ring, the colour of the dot.
``target`` -- where the selected ball can go: a green dashed ring, the
    colour of the plus, with a green dot when the spot is empty.
``playable`` -- an empty point where a ball may be placed: a small green ring
    (a green disc in the 3D views), the colour of the plus.
``winning`` -- the balls of a winning line or group: a gold ring and glow.

Every mark is drawn in its colour over a *halo*, a thin outline that
contrasts with what lies under it: :data:`HALO_DARK` on light ground (a white
ball, the wooden board, an empty point), :data:`HALO_LIGHT` on a black or red
ball (:func:`halo_for`).  In 3D the marks are flat pictures that always face
the camera, drawn over the balls, so a ``+`` never turns into an ``x`` and a
mark is never hidden behind a ball.

Lines through ball centres (a line, a group, a path) take their colours from
:data:`PATH_COLOURS` in order, first line first; arrows for the last move
are the ``last`` colour, arrows for moves on offer the ``target`` colour.

Sizes (:data:`GEOMETRY`) are in ball radii, so the flat and 3D views
agree on proportions too.

>>> MARKS['+'].colour == MARK_COLOURS['plus']
True
>>> halo_for('black') == HALO_LIGHT and halo_for(None) == HALO_DARK
True
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["Mark", "MARKS", "SYMBOLS", "MARK_COLOURS", "PATH_COLOURS", "HALO_DARK",
           "HALO_LIGHT", "GEOMETRY", "LEGEND", "halo_for"]


class Mark(NamedTuple):
    """One mark: its key, its name in ``board.js``, its colour, shape and meaning."""

    key: str          # '+', '-', 'x', '•' for the symbols; a word for the others
    name: str         # its key in MARK_COLOURS (and board.js)
    colour: str       # '#rrggbb'
    shape: str        # 'plus', 'bar', 'cross', 'dot', 'ring', 'thick ring', 'dashed ring',
    #                   'small ring', 'glow ring'
    meaning: str      # one line for the legend


HALO_DARK = "#1a1a1a"     # outline of a mark on light ground
HALO_LIGHT = "#ffffff"    # outline of a mark on a black or red ball

_LAST = "#00b3e6"         # cyan
_PLUS = "#17a845"         # green
_MINUS = "#8a4fe0"        # violet
_CROSS = "#ff7f0e"        # orange
_DOT = "#e0339b"          # magenta
_WIN = "#ffc400"          # gold

MARKS: dict[str, Mark] = {m.key: m for m in (
    Mark("last", "last", _LAST, "ring",
         "the last move, or the ball the text is about"),
    Mark("+", "plus", _PLUS, "plus",
         "a point where something can or does go: opened, supporting, reachable"),
    Mark("-", "minus", _MINUS, "bar",
         "a ball that moves or has moved: it drops, slides or is pushed"),
    Mark("x", "cross", _CROSS, "cross",
         "a ball taken away, or a point that is ruled out"),
    Mark("•", "dot", _DOT, "dot",
         "the point the text names"),
    Mark("playable", "playable", _PLUS, "small ring",
         "an empty point where a ball may be placed"),
    Mark("selected", "selected", _DOT, "thick ring",
         "on the board you play on: the ball you picked up"),
    Mark("target", "target", _PLUS, "dashed ring",
         "on the board you play on: where the picked-up ball can go"),
    Mark("winning", "winning", _WIN, "glow ring",
         "the balls that won the game"),
)}

#: The four symbols a point may be marked with, and their names.
SYMBOLS = {"+": "plus", "-": "minus", "x": "cross", "•": "dot"}

#: Every mark colour by name, with the halos and the pointer's hover ring:
#: ``board.js`` holds a copy of this (its ``MARK_COLOURS`` object).
MARK_COLOURS: dict[str, str] = {
    **{m.name: m.colour for m in MARKS.values()},
    "hover": "#ffe14d",
    "haloDark": HALO_DARK,
    "haloLight": HALO_LIGHT,
}

#: Colours of lines through ball centres, in the order they are drawn.
PATH_COLOURS = ("#1f5fd1", "#0b8a7a", "#a0522d", "#d0306c", "#555555")

#: Sizes in ball radii: the arms of + and x (from the centre), stroke widths,
#: the halo added on each side of a stroke, the dot, and the rings.
GEOMETRY = {
    "arm": 0.55,          # half the length of a bar of + and -; x uses arm * 0.8 per axis
    "stroke": 0.2,        # width of a bar
    "halo": 0.07,         # outline width on each side
    "dot": 0.3,           # radius of the dot
    "ring": 1.08,         # radius of a ring around a ball (to the middle of its stroke)
    "ring_stroke": 0.2,
    "small_ring": 0.3,    # radius of the playable ring on an empty point
    "small_ring_stroke": 0.1,
}

#: The marks of the legend, in its order.
LEGEND = ("last", "+", "-", "x", "•", "playable", "selected", "target", "winning")


def halo_for(ball: str | None) -> str:
    """The halo of a mark drawn on a ball of this colour name (None: no ball)."""
    return HALO_LIGHT if ball in ("black", "red") else HALO_DARK
