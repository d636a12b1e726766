"""Names of points, lines and moves, in the projected coordinates of the top view.

Looking down on the pyramid, every ball centre falls on a 7x7 grid: files
``a``-``g`` from left to right and ranks ``1``-``7`` from the first player's
side.  Board holes sit at odd files and ranks (a1, c1, ... g7), level 1 at
even ones (b2 ... f6), level 2 at c3, e3, c5, e5, and the apex at d4.

Only one point of a vertical column is playable at a time, so a square alone
names a move.  Five squares are shared by two levels (c3, c5, e3, e5: board
and level 2; d4: level 1 and apex); their long form adds the level after a
dot (``c3.0``, ``c3.2``, ``d4.1``, ``d4.3``) and is what context-free text uses.

>>> point_name(0), point_name(20), point_name(25), point_name(29)
('a1', 'd4.1', 'c3.2', 'd4.3')
>>> parse_line('b6-d4-f2') == (22, 20, 18)
True
>>> Move('Rd6'), Move('xb2'), Move('b2>d4.1'), Move('pass')
(Move('Rd6'), Move('xb2'), Move('b2>d4.1'), Move('pass'))
"""

from __future__ import annotations

import re

from .errors import NotationError, require_text, shown
from .geometry import COORDS, LEVEL, NUM_POINTS, POINTS, PROJECTION, transform_direction
from .position import COLOUR_LETTERS, EMPTY

FILES = "abcdefg"

SQUARE_POINTS: dict[str, tuple[int, ...]] = {}
for _p in POINTS:
    _fx, _fy = PROJECTION[_p]
    SQUARE_POINTS.setdefault(f"{FILES[_fx]}{_fy + 1}", ())
    SQUARE_POINTS[f"{FILES[_fx]}{_fy + 1}"] += (_p,)
SHARED_SQUARES = tuple(sq for sq, pts in SQUARE_POINTS.items() if len(pts) > 1)


def square_of(p: int) -> str:
    """The top-view square of a point, e.g. ``square_of(29) == 'd4'``."""
    fx, fy = PROJECTION[p]
    return f"{FILES[fx]}{fy + 1}"


def point_name(p: int) -> str:
    """Context-free name: the square, plus ``.level`` on shared squares."""
    sq = square_of(p)
    return f"{sq}.{LEVEL[p]}" if sq in SHARED_SQUARES else sq


POINT_NAMES = tuple(point_name(p) for p in POINTS)
_SQUARE_RE = re.compile(r"([a-g])([1-7])(?:\.([0-3]))?$")


def point_candidates(text: str) -> tuple[int, ...]:
    """The points a square or long name may mean (two for a bare shared square)."""
    require_text(text, "a point", "d6", 20)
    m = _SQUARE_RE.match(text.strip().lower())
    if not m:
        raise NotationError(f"bad point {shown(text)}: use a file a-g and a rank 1-7, "
                            "like d6, adding .level on shared squares (c3.2)")
    square, level = m.group(1) + m.group(2), m.group(3)
    pts = SQUARE_POINTS.get(square)
    if not pts:
        raise NotationError(f"no point at {square}: board holes are at odd files and "
                            "ranks (a1, c3), level 1 at even ones (b2, d4), level 2 "
                            "at c3 c5 e3 e5, the apex at d4")
    if level is not None:
        pts = tuple(p for p in pts if LEVEL[p] == int(level))
        if not pts:
            raise NotationError(f"square {square} has no point on level {level}")
    return pts


def parse_point(text: str) -> int:
    """A single point from context-free text (shared squares need their level)."""
    pts = point_candidates(text)
    if len(pts) > 1:
        raise NotationError(f"square {shown(text)} is shared by "
                            f"{' and '.join(point_name(p) for p in pts)}: "
                            "name the level")
    return pts[0]


def point_in(text: str, occupied: int) -> int:
    """The point a name means in a position: a bare shared square names its top ball.

    ``occupied`` is the position's occupied mask.  On a shared square with no
    ball the lower point is meant (the one that can be played first).

    >>> point_name(point_in('c3', 0))
    'c3.0'
    >>> point_name(point_in('c3', 1 << parse_point('c3.0') | 1 << parse_point('c3.2')))
    'c3.2'
    """
    candidates = point_candidates(text)
    balls = [p for p in candidates if occupied >> p & 1]
    return max(balls, key=LEVEL.__getitem__) if balls else min(candidates, key=LEVEL.__getitem__)


def as_point(p) -> int:
    """A point from its number (0-29) or its context-free name (``'d4.1'``).

    >>> as_point('d4.3'), as_point(7)
    (29, 7)
    """
    if isinstance(p, str):
        return parse_point(p)
    if type(p) is not int or not 0 <= p < NUM_POINTS:
        raise NotationError(f"a point is a number 0-{NUM_POINTS - 1} or a name like "
                            f"'d4.1', not {p!r}")
    return p


def parse_line(text: str) -> tuple[int, ...]:
    """Points of a line written square-square-..., all on one level.

    Shared squares are resolved by the level the other squares agree on.
    The squares must follow each other along a row, column or diagonal.
    """
    require_text(text, "a line", "b6-d4-f2", 60)
    options = [point_candidates(part) for part in text.split("-")]
    if len(options) < 2:
        raise NotationError(f"line {shown(text)}: a line joins two or more squares, "
                            "like b6-d4-f2")
    levels = set.intersection(*({LEVEL[p] for p in opts} for opts in options))
    if len(levels) != 1:
        raise NotationError(f"line {shown(text)}: its squares must name points of one level")
    level = levels.pop()
    points = tuple(next(p for p in opts if LEVEL[p] == level) for opts in options)
    steps = {(COORDS[b][1] - COORDS[a][1], COORDS[b][2] - COORDS[a][2])
             for a, b in zip(points, points[1:])}
    if len(steps) > 1 or any(max(abs(dx), abs(dy)) != 1 for dx, dy in steps):
        raise NotationError(f"line {shown(text)}: its squares must be neighbours along one "
                            "row, column or diagonal of a level")
    return points


# -- moves ---------------------------------------------------------------

PLACE, REMOVE, MOVE, SLIDE, ENTER, PASS, CHOOSE = (
    "place", "remove", "move", "slide", "enter", "pass", "choose")
KINDS = (PLACE, REMOVE, MOVE, SLIDE, ENTER, PASS, CHOOSE)


class Move:
    """One action: a placement, removal, relocation, slide, entry, pass or choice.

    Moves are immutable and interned.  ``Move(text)`` parses context-free text;
    in a game, :meth:`shibumi.Match.parse` also accepts the short forms that
    only the position can resolve (``d6`` for a white ball on d6).

    ====================  ==========================================
    ``d6`` / ``Rd6``      place a ball (of the named colour) on d6
    ``xb2``               remove the ball at b2 (balls above drop)
    ``b2>d4.1``           lift the ball at b2 and put it on d4
    ``b4~d4``             slide the ball on b4 along its line to d4
    ``Wb4+e``             enter a white ball at b4, travelling east
    ``pass``              pass
    ``=R`` / ``=3``       choose a colour or a number
    ====================  ==========================================
    """

    __slots__ = ("kind", "point", "colour", "target", "direction", "value", "board", "_text")
    _interned: dict = {}

    def __new__(cls, text: str) -> "Move":
        return parse_move(text)

    @classmethod
    def make(cls, kind: str, point: int | None = None, colour: int | None = None,
             target: int | None = None, direction: str | None = None,
             value: int | None = None, board=None) -> "Move":
        """The move with these fields (interned: equal moves are the same object).

        ``board`` is the board type the points belong to: None for the pyramid,
        else a board such as :func:`shibumi.grid.grid`, which names and writes
        the move's points.
        """
        key = (kind, point, colour, target, direction, value, board)
        move = cls._interned.get(key)
        if move is None:
            _check_fields(*key)
            move = object.__new__(cls)
            for name, val in zip(cls.__slots__, key):
                object.__setattr__(move, name, val)
            object.__setattr__(move, "_text", _format(*key[:6]) if board is None
                               else board.move_text(move))
            cls._interned[key] = move
        return move

    @classmethod
    def place(cls, point: int, colour: int | None = None) -> "Move":
        return cls.make(PLACE, point, colour)

    @classmethod
    def remove(cls, point: int) -> "Move":
        return cls.make(REMOVE, point)

    @classmethod
    def relocate(cls, point: int, target: int) -> "Move":
        return cls.make(MOVE, point, None, target)

    @classmethod
    def slide(cls, point: int, target: int) -> "Move":
        return cls.make(SLIDE, point, None, target)

    @classmethod
    def enter(cls, point: int, direction: str, colour: int | None = None) -> "Move":
        return cls.make(ENTER, point, colour, None, direction)

    @classmethod
    def choose(cls, colour: int | None = None, value: int | None = None) -> "Move":
        return cls.make(CHOOSE, None, colour, None, None, value)

    def __setattr__(self, name, value):
        raise AttributeError("Move is immutable")

    def __reduce__(self):
        if self.board is not None:
            return (self.board.parse_move, (self._text,))
        return (parse_move, (self._text,))

    def text(self) -> str:
        return self._text

    __str__ = text

    def __repr__(self) -> str:
        return f"Move({self._text!r})"

    def __lt__(self, other: "Move") -> bool:
        return self._text < other._text


def _colour_prefix(colour):
    return "" if colour is None else COLOUR_LETTERS[colour]


def _format(kind, point, colour, target, direction, value) -> str:
    if kind == PLACE:
        return _colour_prefix(colour) + point_name(point)
    if kind == REMOVE:
        return "x" + point_name(point)
    if kind == MOVE:
        return f"{point_name(point)}>{point_name(target)}"
    if kind == SLIDE:
        return f"{point_name(point)}~{point_name(target)}"
    if kind == ENTER:
        return f"{_colour_prefix(colour)}{point_name(point)}+{direction}"
    if kind == PASS:
        return "pass"
    if kind == CHOOSE:
        return "=" + (_colour_prefix(colour) if colour is not None else str(value))
    raise NotationError(f"unknown move kind {kind!r}; kinds: {', '.join(KINDS)}")


_SQ = r"([a-g][1-7](?:\.[0-3])?)"
_PATTERNS = (
    (PLACE, re.compile(rf"([WBR])?{_SQ}$")),
    (REMOVE, re.compile(rf"x{_SQ}$")),
    (MOVE, re.compile(rf"{_SQ}>{_SQ}$")),
    (SLIDE, re.compile(rf"{_SQ}~{_SQ}$")),
    (ENTER, re.compile(rf"([WBR])?{_SQ}\+([nesw])$")),
    (PASS, re.compile(r"pass$")),
    (CHOOSE, re.compile(r"=([WBR]|[0-9]{1,6})$")),
)
def transform_move(move: Move | None, perm: tuple[int, ...]) -> Move | None:
    """Image of a move under a point permutation (one of ``geometry.SYMMETRIES``)."""
    if move is None:
        return None
    return Move.make(move.kind,
                     None if move.point is None else perm[move.point], move.colour,
                     None if move.target is None else perm[move.target],
                     None if move.direction is None else transform_direction(move.direction, perm),
                     move.value, move.board)


def _check_fields(kind, point, colour, target, direction, value, board=None) -> None:
    """Reject field values that could not be written as move text."""
    most = NUM_POINTS if board is None else board.num_points
    for p in (point, target):
        if p is not None and (type(p) is not int or not 0 <= p < most):
            raise NotationError(f"a move's points are numbers 0-{most - 1}, not {p!r}")
    if colour is not None and colour not in (1, 2, 3):
        raise NotationError(f"a move's colour is WHITE, BLACK or RED, not {colour!r}")
    if value is not None and (type(value) is not int or not 0 <= value < 10 ** 6):
        raise NotationError(f"a chosen number is 0-999999, not {value!r}")
    if direction is not None and direction not in DIRECTION_LETTERS:
        raise NotationError(f"a direction is one of n e s w, not {direction!r}")


DIRECTION_LETTERS = "nesw"
PASS_MOVE = Move.make(PASS)
MOVE_SYNTAX = ("d6, Rd6 (place), xb2 (remove), b2>d4 (move a ball), b4~d4 (slide), "
               "Wb4+e (enter, travelling n/e/s/w), pass, =R or =3 (choose)")


def move_candidates(text: str) -> list[Move]:
    """Every move the text may mean (short shared squares and omitted colours open).

    Omitted colours are left as ``None``: the caller matches them against the
    legal moves, which is how a game resolves ``d6`` to ``Wd6``.
    """
    require_text(text, "a move", "d6", 40)
    raw = text.strip()
    norm = raw[:1].upper() + raw[1:].lower() if raw[:1].lower() in "wbr" and len(raw) > 1 \
        and raw[1:2].isalpha() else raw.lower()
    if norm.startswith("=") and len(norm) == 2:
        norm = norm.upper()
    for kind, pattern in _PATTERNS:
        m = pattern.match(norm)
        if not m:
            continue
        g = m.groups()
        if kind == PLACE:
            colour = COLOUR_LETTERS.index(g[0]) if g[0] else None
            return [Move.place(p, colour) for p in point_candidates(g[1])]
        if kind == REMOVE:
            return [Move.remove(p) for p in point_candidates(g[0])]
        if kind in (MOVE, SLIDE):
            return [Move.make(kind, a, None, b) for a in point_candidates(g[0])
                    for b in point_candidates(g[1])]
        if kind == ENTER:
            colour = COLOUR_LETTERS.index(g[0]) if g[0] else None
            return [Move.enter(p, g[2], colour) for p in point_candidates(g[1])]
        if kind == PASS:
            return [PASS_MOVE]
        if g[0].isdigit():
            return [Move.choose(value=int(g[0]))]
        return [Move.choose(COLOUR_LETTERS.index(g[0]))]
    raise NotationError(f"bad move {shown(text)}: moves are written {MOVE_SYNTAX}")


def parse_move(text: str) -> Move:
    """A move from context-free text; a bare shared square is an error here."""
    if not isinstance(text, str):
        raise NotationError(f"a move is given as text, not {type(text).__name__}")
    found = move_candidates(text)
    if len(found) > 1:
        raise NotationError(f"move {shown(text)} names a shared square; add its level "
                            f"({' or '.join(m.text() for m in found)})")
    return found[0]


def moves_matching(text: str, legal) -> list[Move]:
    """The legal moves the text may mean: omitted colours match any colour."""
    found = []
    for cand in move_candidates(text):
        for move in legal:
            if (move.kind == cand.kind and move.point == cand.point
                    and move.target == cand.target and move.direction == cand.direction
                    and move.value == cand.value
                    and (cand.colour is None or cand.colour == move.colour)):
                found.append(move)
    return found


def short_text(move: Move, legal) -> str:
    """The shortest text that names this move among the legal ones."""
    full = move.text()
    bare = full[1:] if move.colour is not None and move.kind in (PLACE, ENTER) else full
    variants = [re.sub(r"\.[0-3]", "", bare), bare, re.sub(r"\.[0-3]", "", full), full]
    for shape in variants:
        try:
            if moves_matching(shape, legal) == [move]:
                return shape
        except NotationError:
            continue
    return move.text()


# -- a readable board ------------------------------------------------------

def render_grid(position) -> str:
    """The top view on the 7x7 grid: each square shows its highest ball.

    Lower-case letters mark balls on levels 1 and 3 (the odd levels), so a
    glance tells the levels apart; ``.`` is an empty hole and ``+`` an empty
    playable point above the board.
    """
    cells = [[" "] * 7 for _ in range(7)]
    playable = position.playable()
    for p in POINTS:
        fx, fy = PROJECTION[p]
        colour = position.colour_at(p)
        if colour != EMPTY:
            ch = COLOUR_LETTERS[colour]
            cells[fy][fx] = ch.lower() if LEVEL[p] % 2 else ch
        elif playable >> p & 1:
            cells[fy][fx] = "." if LEVEL[p] == 0 else "+"
    lines = [f"{r + 1} " + " ".join(cells[r]) for r in reversed(range(7))]
    lines.append("  " + " ".join(FILES))
    return "\n".join(lines)
