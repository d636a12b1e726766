"""Board types: what the game model, the front ends and the views ask of a board.

A game names its board type in ``Game.board``: :data:`PYRAMID` (the Shibumi
pyramid of 30 points, the default) or a square grid from
:func:`shibumi.grid.grid`.  A board type answers, with no knowledge of any
game:

* ``kind`` (``'pyramid'``, ``'grid'``), ``num_points``, ``symmetries`` (the
  8 symmetries of the square as point permutations, in the order of
  ``geometry.SYMMETRY_NAMES``);
* ``point_name(p)``, ``parse_point(text)``, ``point_candidates(text)``,
  ``as_point(p)``, ``click_name(p, position)`` (a point's name as a player
  reads it in that position);
* ``parse_move(text)``, ``moves_matching(text, legal)``, ``short_text(move,
  legal)``: the notation of moves;
* ``parse_position(text)``, ``empty_position()``, ``empty_text()`` (an empty
  state's text, for error messages);
* ``pieces(position)`` (what a front end draws: one dict a piece) and
  ``geometry()`` (where the in-page board draws each point), ``help()`` (the
  terminal's description of the board).

Positions of every board type answer ``text()``, ``diagram()``,
``transform(perm)``, ``occupied``, ``playable()``, ``is_playable(p)`` and
``colour_at(p)``.

>>> PYRAMID.point_name(29), PYRAMID.parse_move('b2>d4.1').text()
('d4.3', 'b2>d4.1')
"""

from __future__ import annotations

from .geometry import NUM_POINTS, SYMMETRIES
from .notation import (SHARED_SQUARES, as_point, moves_matching, parse_move, parse_point,
                       point_candidates, point_name, short_text, square_of)
from .position import BLACK, RED, WHITE, Position

__all__ = ["Pyramid", "PYRAMID"]

_LETTERS = {WHITE: "W", BLACK: "B", RED: "R"}


class Pyramid:
    """The Shibumi pyramid as a board type (the functions of :mod:`shibumi.notation`)."""

    kind = "pyramid"
    piece_word = "ball"
    num_points = NUM_POINTS
    symmetries = SYMMETRIES

    def __repr__(self) -> str:
        return "PYRAMID"

    def __reduce__(self):
        return "PYRAMID"

    point_name = staticmethod(point_name)
    parse_point = staticmethod(parse_point)
    point_candidates = staticmethod(point_candidates)
    as_point = staticmethod(as_point)
    parse_move = staticmethod(parse_move)
    moves_matching = staticmethod(moves_matching)
    short_text = staticmethod(short_text)

    @staticmethod
    def click_name(p: int, position) -> str:
        """A point's square (``e5``), with its level only when the square is ambiguous now."""
        square = square_of(p)
        if square in SHARED_SQUARES:
            live = position.occupied | position.playable()
            if any(q != p and live >> q & 1 for q in point_candidates(square)):
                return point_name(p)
        return square

    @staticmethod
    def parse_position(text: str) -> Position:
        return Position(text)

    @staticmethod
    def empty_position() -> Position:
        return Position.empty()

    @staticmethod
    def empty_text() -> str:
        return Position.empty().text() + " 1"

    @staticmethod
    def pieces(position) -> list[dict]:
        """The balls of a position for a front end: point number and colour letter."""
        return [{"point": p, "colour": _LETTERS[position.colour_at(p)]}
                for p in range(NUM_POINTS) if position.colour_at(p) in _LETTERS]

    @staticmethod
    def geometry() -> dict:
        from .webboard import pyramid_geometry
        return pyramid_geometry()

    @staticmethod
    def help() -> str:
        from .play import PYRAMID_HELP
        return PYRAMID_HELP


PYRAMID = Pyramid()
