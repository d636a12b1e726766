"""Positions: which colour of ball, if any, sits at each of the 30 points.

A :class:`Position` is an immutable value built from three 30-bit masks (one
per colour).  It is hashable, so it serves as a dictionary key and a graph
node, and packs into the rule book's 60-bit integer (2 bits a point).

>>> pos = Position.empty().place(5, WHITE).place(0, BLACK)
>>> pos
Position('..../..../.W../B...|.../.../...|../..|.')
>>> pos.colour_at(5), pos.is_playable(16)
(1, False)
>>> Position(pos.text()) == pos == Position.from_int(pos.to_int())
True
"""

from __future__ import annotations

from .errors import IllegalMoveError, NotationError, require_text, shown
from .geometry import (ALL_MASK, CONTACTS, COORDS, COVER, INTERIOR, INTERIOR_MASK, LEVEL_START,
                       NUM_POINTS, POINTS, SIZES, SUPPORT_MASK, SUPPORTED_MASK, SYMMETRIES,
                       point_at, points_of, transform_mask)

EMPTY, WHITE, BLACK, RED = 0, 1, 2, 3
COLOURS = (WHITE, BLACK, RED)
COLOUR_LETTERS = ".WBR"
COLOUR_NAMES = ("empty", "white", "black", "red")

_UPPER = tuple(p for p in POINTS if SUPPORT_MASK[p])
_COVERS = tuple((p, COVER[p]) for p in INTERIOR)
#: For each point, its contacts as (neighbour, overpass mask) pairs.
_LINKS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((b if a == p else a, over) for a, b, over in CONTACTS if p in (a, b))
    for p in POINTS)


def playable_mask(occupied: int) -> int:
    """Points where a ball would rest stably: empty holes and full platforms."""
    mask = ~occupied & 0xFFFF
    for p in _UPPER:
        sup = SUPPORT_MASK[p]
        if occupied & sup == sup and not occupied >> p & 1:
            mask |= 1 << p
    return mask


def hidden_mask(occupied: int) -> int:
    """Occupied points buried by a ball two levels directly above them."""
    mask = 0
    for p, cover in _COVERS:
        if occupied >> cover & 1 and occupied >> p & 1:
            mask |= 1 << p
    return mask


def column_above(p: int, occupied: int) -> int:
    """The balls resting on the ball at ``p``, on that ball, and so on (a mask).

    Lifting a ball that is not pinned (at most one ball rests on it) drops
    exactly this column by one level.
    """
    column = 0
    above = occupied & SUPPORTED_MASK[p]
    while above:
        column |= above
        # Below a ball that is not pinned at most one ball rests on each gap.
        above = occupied & SUPPORTED_MASK[above.bit_length() - 1]
    return column


def top_of_column(p: int, occupied: int) -> int:
    """The point left empty when the ball at ``p`` (not pinned) is lifted.

    The ball resting on ``p`` drops into ``p``, the one on it after it, and so
    on: the top of that column is the point that ends up empty.

    >>> from shibumi.notation import parse_point, point_name
    >>> full_square = sum(1 << parse_point(q) for q in ("a1", "c1", "a3", "c3.0", "b2"))
    >>> point_name(top_of_column(parse_point("a1"), full_square))
    'b2'
    """
    column = column_above(p, occupied)
    return column.bit_length() - 1 if column else p


def linked(p: int, occupied: int, visible_only: bool = True) -> int:
    """Occupied points whose balls touch the ball at p (visibly, by default).

    A contact is invisible when either ball is hidden, or when the two balls
    on the level above that pass over it are both present ("overpasses cut
    underpasses").
    """
    hidden = hidden_mask(occupied) if visible_only else 0
    if hidden >> p & 1:
        return 0
    mask = 0
    for q, over in _LINKS[p]:
        if occupied >> q & 1 and not hidden >> q & 1:
            if not visible_only or not over or occupied & over != over:
                mask |= 1 << q
    return mask


def group_of(p: int, colour_mask: int, occupied: int, visible_only: bool = True) -> int:
    """The group containing p: balls of the same mask linked to it by contacts."""
    group, frontier = 1 << p, 1 << p
    while frontier:
        low = frontier & -frontier
        frontier ^= low
        q = low.bit_length() - 1
        new = linked(q, occupied, visible_only) & colour_mask & ~group
        group |= new
        frontier |= new
    return group


class Position:
    """An arrangement of balls on the pyramid (immutable, hashable).

    Build one from its text (see :meth:`text`) or with :meth:`empty` and
    :meth:`place`.  Masks are available as ``white``, ``black``, ``red`` and
    ``occupied``.
    """

    __slots__ = ("white", "black", "red", "occupied")

    def __init__(self, text: str | None = None) -> None:
        if hasattr(self, "white"):
            raise AttributeError("Position is immutable")
        w = b = r = 0
        if text is not None:
            w, b, r = _parse_position(text)
        self._set(w, b, r)

    def _set(self, white: int, black: int, red: int) -> None:
        object.__setattr__(self, "white", white)
        object.__setattr__(self, "black", black)
        object.__setattr__(self, "red", red)
        object.__setattr__(self, "occupied", white | black | red)

    def __setattr__(self, name, value):
        raise AttributeError("Position is immutable")

    def __reduce__(self):  # copy and pickle through the masks
        return (Position.from_masks, (self.white, self.black, self.red))

    @classmethod
    def from_masks(cls, white: int = 0, black: int = 0, red: int = 0) -> "Position":
        """A position from colour masks (no stability check; see :meth:`is_stable`)."""
        if not all(type(m) is int and m >= 0 for m in (white, black, red)) \
                or (white & black) | (white & red) | (black & red) \
                or (white | black | red) & ~ALL_MASK:
            raise NotationError("colour masks must be disjoint 30-bit masks")
        pos = cls.__new__(cls)
        pos._set(white, black, red)
        return pos

    @classmethod
    def empty(cls) -> "Position":
        return cls.from_masks()

    # -- packing -------------------------------------------------------
    def to_int(self) -> int:
        """The 60-bit integer: 2 bits a point, 00 empty, 01 white, 10 black, 11 red."""
        value = 0
        for p in points_of(self.occupied):
            value |= self.colour_at(p) << (2 * p)
        return value

    @classmethod
    def from_int(cls, value: int) -> "Position":
        if type(value) is not int or not 0 <= value < 1 << (2 * NUM_POINTS):
            raise NotationError("a packed position is an integer from 0 to 2**60 - 1")
        masks = [0, 0, 0, 0]
        for p in POINTS:
            masks[value >> (2 * p) & 3] |= 1 << p
        pos = cls.from_masks(masks[WHITE], masks[BLACK], masks[RED])
        if not pos.is_stable():
            raise NotationError(f"packed position {value}: a raised ball lacks support")
        return pos

    # -- reading -------------------------------------------------------
    def colour_at(self, p: int) -> int:
        """EMPTY, WHITE, BLACK or RED."""
        _check_point(p)
        bit = 1 << p
        if self.white & bit:
            return WHITE
        if self.black & bit:
            return BLACK
        if self.red & bit:
            return RED
        return EMPTY

    def mask(self, colour: int) -> int:
        """Points holding a colour (EMPTY gives the empty points)."""
        if colour not in (EMPTY, WHITE, BLACK, RED):
            raise IllegalMoveError(f"colour must be EMPTY, WHITE, BLACK or RED, not {colour!r}")
        return (~self.occupied & ALL_MASK, self.white, self.black, self.red)[colour]

    def count(self, colour: int | None = None) -> int:
        """Number of balls (of one colour, or all)."""
        return (self.occupied if colour is None else self.mask(colour)).bit_count()

    def playable(self) -> int:
        """Mask of playable points."""
        return playable_mask(self.occupied)

    def is_playable(self, p: int) -> bool:
        return bool(playable_mask(self.occupied) >> p & 1)

    def activated_by(self, p: int) -> int:
        """Points that a ball placed at p would make playable (platforms it completes)."""
        occupied = self.occupied | 1 << p
        return playable_mask(occupied) & ~playable_mask(self.occupied) & ~(1 << p)

    def hidden(self) -> int:
        """Mask of balls hidden from above."""
        return hidden_mask(self.occupied)

    def visible(self) -> int:
        """Mask of balls that can be seen from directly above."""
        return self.occupied & ~hidden_mask(self.occupied)

    def supported_balls(self, p: int) -> int:
        """Mask of balls resting directly on the ball at p."""
        _check_point(p)
        return SUPPORTED_MASK[p] & self.occupied

    def is_pinned(self, p: int) -> bool:
        """A ball resting under more than one ball cannot be removed."""
        return self.supported_balls(p).bit_count() > 1

    def is_free(self, p: int) -> bool:
        """A ball with nothing resting on it."""
        return bool(self.occupied >> p & 1) and not self.supported_balls(p)

    def movable(self) -> int:
        """Mask of balls that may be removed (those not pinned)."""
        return sum(1 << p for p in points_of(self.occupied) if not self.is_pinned(p))

    def is_stable(self) -> bool:
        """True when every raised ball rests on its 4 supports."""
        occ = self.occupied
        return all(occ & SUPPORT_MASK[p] == SUPPORT_MASK[p] for p in points_of(occ))

    def touching(self, p: int, visible_only: bool = True) -> int:
        """Mask of balls touching the ball at p (visibly, by default)."""
        return linked(p, self.occupied, visible_only)

    def group(self, p: int, visible_only: bool = True) -> int:
        """Mask of the group of same-coloured connected balls containing p."""
        colour = self.colour_at(p)
        if colour == EMPTY:
            return 0
        return group_of(p, self.mask(colour), self.occupied, visible_only)

    def largest_groups(self, colour: int, visible_only: bool = True) -> tuple[int, int]:
        """(size, union) of the colour's largest groups: every group of the largest
        size, as one mask ((0, 0) with no ball to count).

        >>> Position('WW.B/..../..../....|.../.../...|../..|.').largest_groups(WHITE)
        (2, 12288)
        """
        groups = self.groups(colour, visible_only)
        best = max([0] + [g.bit_count() for g in groups])
        return best, sum(g for g in groups if g.bit_count() == best) if best else 0

    def groups(self, colour: int, visible_only: bool = True) -> list[int]:
        """All groups of a colour, as masks (hidden balls form no visible group)."""
        left = self.mask(colour)
        if visible_only:
            left &= ~hidden_mask(self.occupied)
        found = []
        while left:
            p = (left & -left).bit_length() - 1
            g = group_of(p, self.mask(colour), self.occupied, visible_only)
            found.append(g)
            left &= ~g
        return found

    # -- changing (each returns a new position) ------------------------
    def place(self, p: int, colour: int) -> "Position":
        """Put a ball of a colour on a playable point."""
        if colour not in COLOURS:
            raise IllegalMoveError(f"colour must be WHITE, BLACK or RED, not {colour!r}")
        _check_point(p)
        if not playable_mask(self.occupied) >> p & 1:
            raise IllegalMoveError(f"point {_name(p)} is not playable; playable: "
                                   f"{_names(playable_mask(self.occupied))}")
        masks = [0, self.white, self.black, self.red]
        masks[colour] |= 1 << p
        return Position.from_masks(masks[1], masks[2], masks[3])

    def remove(self, p: int) -> tuple["Position", tuple[tuple[int, int], ...]]:
        """Take away the ball at p; the ball resting on it, if one, drops into the gap.

        Returns the new position and the drops as (from, to) pairs, lowest
        first.  A dropping ball leaves a gap for the ball resting on it in
        turn, so a removal can drop a whole column.  Pinned balls (resting
        under two or more balls) cannot be removed.
        """
        _check_point(p)
        occ = self.occupied
        if not occ >> p & 1:
            raise IllegalMoveError(f"there is no ball at {_name(p)} to remove")
        if self.is_pinned(p):
            raise IllegalMoveError(f"the ball at {_name(p)} is pinned: it supports "
                                   "more than one ball")
        masks = [0, self.white, self.black, self.red]
        drops = []
        gap = p
        above = SUPPORTED_MASK[gap] & occ
        masks[self.colour_at(gap)] &= ~(1 << gap)
        while above:
            # Only one ball can rest on a gap left by a movable ball (the
            # geometry guarantees it), so the chain of drops is a single column.
            q = above.bit_length() - 1
            colour = self.colour_at(q)
            masks[colour] = masks[colour] & ~(1 << q) | (1 << gap)
            drops.append((q, gap))
            gap = q
            above = SUPPORTED_MASK[gap] & occ
        return Position.from_masks(masks[1], masks[2], masks[3]), tuple(drops)

    def transform(self, perm: tuple[int, ...]) -> "Position":
        """Image under a point permutation, e.g. one of ``SYMMETRIES``."""
        return Position.from_masks(transform_mask(self.white, perm),
                                   transform_mask(self.black, perm),
                                   transform_mask(self.red, perm))

    def symmetries(self) -> list["Position"]:
        """The 8 images of this position under the symmetries of the square."""
        return [self.transform(perm) for perm in SYMMETRIES]

    # -- text ----------------------------------------------------------
    def text(self) -> str:
        """Top view, level by level from the board up, rows from the top rank.

        Rows are separated by ``/``, levels by ``|``; ``.`` is empty and
        ``W``, ``B``, ``R`` are the colours.
        """
        levels = []
        for lv in range(4):
            n = SIZES[lv]
            rows = ("".join(COLOUR_LETTERS[self.colour_at(point_at(lv, x, y))]
                            for x in range(n)) for y in reversed(range(n)))
            levels.append("/".join(rows))
        return "|".join(levels)

    __str__ = text

    def __repr__(self) -> str:
        return f"Position({self.text()!r})"

    def __eq__(self, other) -> bool:
        return (isinstance(other, Position) and self.white == other.white
                and self.black == other.black and self.red == other.red)

    def __hash__(self) -> int:
        return hash((self.white, self.black, self.red))

    def diagram(self) -> str:
        """A readable top view in the 7x7 projected grid, with file and rank labels."""
        from .notation import render_grid
        return render_grid(self)

    def _repr_svg_(self) -> str:
        from .views.svg import position_svg
        return position_svg(self)


#: Five neutral red balls on the five interior points: the four centre holes
#: and the middle of level 1 (a little pyramid). Every later ball is visible.
INTERIOR_REDS = Position.from_masks(red=INTERIOR_MASK)

#: The board level full in a white and black checkerboard, white on a1, nothing
#: above: the start of Spight, Splush, Sparks and Spuds.
CHECKERBOARD = Position.from_masks(
    white=sum(1 << p for p in range(16) if (COORDS[p][1] + COORDS[p][2]) % 2 == 0),
    black=sum(1 << p for p in range(16) if (COORDS[p][1] + COORDS[p][2]) % 2 == 1))


def _check_point(p) -> None:
    if type(p) is not int or not 0 <= p < NUM_POINTS:
        raise IllegalMoveError(f"a point is a number 0-{NUM_POINTS - 1} "
                               f"(see shibumi.parse_point), not {p!r}")


def _name(p) -> str:
    from .notation import point_name
    return point_name(p) if isinstance(p, int) and 0 <= p < NUM_POINTS else repr(p)


def _names(mask: int) -> str:
    return " ".join(_name(p) for p in points_of(mask)) or "none"


def _parse_position(text: str) -> tuple[int, int, int]:
    require_text(text, "a position", "'..../..../..../....|.../.../...|../..|.'", 100)
    levels = text.strip().split("|")
    if len(levels) != 4:
        raise NotationError(f"position {shown(text)}: expected 4 levels separated by '|' "
                            f"(board|level 1|level 2|apex), got {len(levels)}")
    masks = [0, 0, 0, 0]
    for lv, level_text in enumerate(levels):
        n = SIZES[lv]
        rows = level_text.split("/")
        if len(rows) != n or any(len(r) != n for r in rows):
            raise NotationError(f"position {shown(text)}: level {lv} needs {n} rows of {n} "
                                f"cells separated by '/', got {shown(level_text)}")
        for i, row in enumerate(rows):
            for x, ch in enumerate(row):
                code = COLOUR_LETTERS.find(ch.upper())
                if code < 0:
                    raise NotationError(f"position {shown(text)}: bad cell {ch!r}; "
                                        "use . W B R")
                masks[code] |= 1 << (LEVEL_START[lv] + n * (n - 1 - i) + x)
    pos = (masks[WHITE], masks[BLACK], masks[RED])
    occ = pos[0] | pos[1] | pos[2]
    for p in points_of(occ):
        if occ & SUPPORT_MASK[p] != SUPPORT_MASK[p]:
            raise NotationError(f"position {shown(text)}: the ball at {_name(p)} is not "
                                "resting on four balls")
    return pos
