"""The geometry of the Shibumi pyramid, computed once at import.

Points are numbered 0-29, level by level from the board up, and row by row
within a level (row 0 is the rank nearest the first player, column 0 is the
left-hand file)::

    level 0 (board) 4x4: points  0-15   point = 4*y + x
    level 1          3x3: points 16-24  point = 16 + 3*y + x
    level 2          2x2: points 25-28  point = 25 + 2*y + x
    level 3 (apex)   1x1: point  29

Sets of points are plain ``int`` bit masks (bit ``p`` set for point ``p``),
so that set operations are single integer operations.  Every table below is
indexed by point and built by a small private builder; nothing here is
recomputed during play.

>>> LEVEL[29], COORDS[16], SUPPORTS[29]
(3, (1, 0, 0), (25, 26, 27, 28))
>>> len(POINTS), bin(INTERIOR_MASK).count('1'), bin(EXTERIOR_MASK).count('1')
(30, 5, 25)
"""

from __future__ import annotations

import math

LEVELS = 4
SIZES = (4, 3, 2, 1)                      # width of each level
LEVEL_START = (0, 16, 25, 29)             # first point of each level
NUM_POINTS = 30
POINTS = range(NUM_POINTS)
ALL_MASK = (1 << NUM_POINTS) - 1

#: Sides of the board, named by compass direction in the top view.
SIDES = ("left", "right", "bottom", "top")
#: Directions of travel along a level (for slides and entries): (dx, dy).
DIRECTIONS = {"n": (0, 1), "e": (1, 0), "s": (0, -1), "w": (-1, 0)}


def point_at(level: int, x: int, y: int) -> int | None:
    """The point at grid coordinates (x, y) of a level, or None off the level."""
    n = SIZES[level] if 0 <= level < LEVELS else 0
    if 0 <= x < n and 0 <= y < n:
        return LEVEL_START[level] + n * y + x
    return None


def _bits(points) -> int:
    mask = 0
    for p in points:
        mask |= 1 << p
    return mask


def _build_coords():
    return tuple((lv, x, y) for lv in range(LEVELS)
                 for y in range(SIZES[lv]) for x in range(SIZES[lv]))


COORDS: tuple[tuple[int, int, int], ...] = _build_coords()
"""(level, x, y) of each point."""
LEVEL: tuple[int, ...] = tuple(c[0] for c in COORDS)
LEVEL_MASK: tuple[int, ...] = tuple(
    _bits(p for p in POINTS if LEVEL[p] == lv) for lv in range(LEVELS))
BOARD_MASK = LEVEL_MASK[0]
APEX = 29

#: Projected (top-view) coordinates: file 0-6 (a-g) and rank 0-6 (1-7).
PROJECTION: tuple[tuple[int, int], ...] = tuple(
    (2 * x + lv, 2 * y + lv) for lv, x, y in COORDS)

#: Centre of each ball in 3D, for balls of diameter 1 on holes 1 apart.
#: A ball resting on a square of four sits 1/sqrt(2) higher.
CENTRE: tuple[tuple[float, float, float], ...] = tuple(
    (x + lv / 2, y + lv / 2, lv / math.sqrt(2)) for lv, x, y in COORDS)


def _build_supports():
    table = []
    for lv, x, y in COORDS:
        if lv == 0:
            table.append(())
        else:
            table.append(tuple(point_at(lv - 1, x + dx, y + dy)
                               for dy in (0, 1) for dx in (0, 1)))
    return tuple(table)


SUPPORTS: tuple[tuple[int, ...], ...] = _build_supports()
"""The 4 points a point rests on (empty for board holes)."""
SUPPORT_MASK: tuple[int, ...] = tuple(_bits(s) for s in SUPPORTS)
SUPPORTED: tuple[tuple[int, ...], ...] = tuple(
    tuple(q for q in POINTS if p in SUPPORTS[q]) for p in POINTS)
"""The points that rest on a point (1 to 4 points on the level above)."""
SUPPORTED_MASK: tuple[int, ...] = tuple(_bits(s) for s in SUPPORTED)


def _build_flat_neighbours(steps):
    table = []
    for lv, x, y in COORDS:
        near = (point_at(lv, x + dx, y + dy) for dx, dy in steps)
        table.append(tuple(q for q in near if q is not None))
    return tuple(table)


FLAT_NEIGHBOURS: tuple[tuple[int, ...], ...] = _build_flat_neighbours(
    ((1, 0), (-1, 0), (0, 1), (0, -1)))
"""Orthogonal neighbours on the same level (these balls touch)."""
DIAGONAL_NEIGHBOURS: tuple[tuple[int, ...], ...] = _build_flat_neighbours(
    ((1, 1), (-1, 1), (1, -1), (-1, -1)))
"""Diagonal neighbours on the same level (these balls do not touch)."""
TOUCHING: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(FLAT_NEIGHBOURS[p] + SUPPORTS[p] + SUPPORTED[p])) for p in POINTS)
"""Every point whose ball touches a ball at this point."""
TOUCHING_MASK: tuple[int, ...] = tuple(_bits(t) for t in TOUCHING)

#: The point two levels directly above (whose ball hides this one), or None.
COVER: tuple[int | None, ...] = tuple(
    point_at(lv + 2, x - 1, y - 1) for lv, x, y in COORDS)
INTERIOR: tuple[int, ...] = tuple(p for p in POINTS if COVER[p] is not None)
"""The 5 points whose balls can be hidden."""
INTERIOR_MASK = _bits(INTERIOR)
EXTERIOR_MASK = ALL_MASK & ~INTERIOR_MASK


def _build_side_masks():
    masks = {side: 0 for side in SIDES}
    for p in POINTS:
        lv, x, y = COORDS[p]
        if lv:
            continue
        for side, on_it in (("left", x == 0), ("right", x == 3),
                            ("bottom", y == 0), ("top", y == 3)):
            if on_it:
                masks[side] |= 1 << p
    return masks


SIDE_MASK: dict[str, int] = _build_side_masks()
"""Board holes along each side of the board."""
ON_SIDES: tuple[tuple[str, ...], ...] = tuple(
    tuple(s for s in SIDES if SIDE_MASK[s] >> p & 1) for p in POINTS)
"""Which board sides each point lies on (upper-level points lie on none)."""


def _contact_list():
    """Every pair of touching points, each once, with its overpass mask.

    A flat contact between two balls on one level is *crossed* by the contact
    of the two balls on the level above that pass over it (overpasses cut
    underpasses); the overpass mask holds those two points, or 0 where the
    contact lies on the edge of its level and nothing can pass over it.
    """
    contacts = []
    for a in POINTS:
        lv, x, y = COORDS[a]
        for b in TOUCHING[a]:
            if b <= a:
                continue
            over = 0
            bl, bx, by = COORDS[b]
            if bl == lv:  # flat contact: find the crossing pair above
                if by == y:   # horizontal contact (a left of b)
                    pair = (point_at(lv + 1, x, y - 1), point_at(lv + 1, x, y))
                else:         # vertical contact (a below b)
                    pair = (point_at(lv + 1, x - 1, y), point_at(lv + 1, x, y))
                if None not in pair:
                    over = _bits(pair)
            contacts.append((a, b, over))
    return tuple(contacts)


CONTACTS: tuple[tuple[int, int, int], ...] = _contact_list()
"""(a, b, overpass mask) for the 96 contacts of a complete pyramid."""


def _lines(level: int):
    n = SIZES[level]
    if n < 2:
        return []
    rows = [[point_at(level, x, y) for x in range(n)] for y in range(n)]
    cols = [[point_at(level, x, y) for y in range(n)] for x in range(n)]
    diags = [[point_at(level, i, i) for i in range(n)],
             [point_at(level, i, n - 1 - i) for i in range(n)]]
    return [tuple(line) for line in rows + cols + diags]


LINES: tuple[tuple[int, ...], ...] = tuple(
    line for lv in range(LEVELS) for line in _lines(lv))
"""Full-length rows, columns and diagonals of every level (4+4+2, 3+3+2, 2+2+2)."""
LINE_MASKS: tuple[int, ...] = tuple(_bits(line) for line in LINES)
LINES_THROUGH: tuple[tuple[int, ...], ...] = tuple(
    tuple(m for m in LINE_MASKS if m >> p & 1) for p in POINTS)
"""Masks of the full-length lines through each point."""


def _segments(length: int):
    """Every straight run of `length` points on one level (orthogonal or diagonal)."""
    runs = []
    for lv in range(LEVELS):
        n = SIZES[lv]
        for y in range(n):
            for x in range(n):
                for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    pts = [point_at(lv, x + i * dx, y + i * dy) for i in range(length)]
                    if None not in pts:
                        runs.append(tuple(pts))
    return tuple(runs)


def segments(length: int) -> tuple[tuple[int, ...], ...]:
    """Straight runs of a given length on any level, e.g. ``segments(3)``."""
    return _SEGMENTS.setdefault(length, _segments(length))


_SEGMENTS: dict[int, tuple[tuple[int, ...], ...]] = {}

def _diagonal_chains(length: int, sloped_only: bool):
    """Runs of touching balls whose top-view centres step diagonally.

    Each step joins a ball and one it rests on (or that rests on it), moving
    one grid unit diagonally in the top view.  With ``sloped_only`` the run
    climbs steadily (a straight line in space, along a face or ridge of the
    pyramid); otherwise it may zigzag up and down, which is still straight
    when seen from above.
    """
    by_square = {}
    for p in POINTS:
        by_square.setdefault(PROJECTION[p], []).append(p)
    runs = set()
    for start in POINTS:
        for dx, dy in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
            chains = [(start,)]
            for _ in range(length - 1):
                chains = [c + (q,) for c in chains
                          for q in by_square.get((PROJECTION[c[-1]][0] + dx,
                                                  PROJECTION[c[-1]][1] + dy), ())
                          if q in TOUCHING[c[-1]]]
            for c in chains:
                climbs = {LEVEL[b] - LEVEL[a] for a, b in zip(c, c[1:])}
                if not sloped_only or len(climbs) == 1:
                    runs.add(min(c, c[::-1]))
    return tuple(sorted(runs))


def touching_runs(length: int) -> tuple[tuple[int, ...], ...]:
    """Runs of `length` touching balls that look straight from above.

    Flat runs along a row or column of one level, and diagonal chains of
    balls resting on one another (which may zigzag between two levels).
    Each run is listed once.
    """
    flat = tuple(run for run in segments(length)
                 if all(b in FLAT_NEIGHBOURS[a] for a, b in zip(run, run[1:])))
    return flat + _diagonal_chains(length, sloped_only=False)


def sloped_runs(length: int) -> tuple[tuple[int, ...], ...]:
    """Runs of `length` touching balls on a straight line in space that climbs a level
    at each step (up a face or a ridge of the pyramid)."""
    return _diagonal_chains(length, sloped_only=True)


#: Platforms: every point above the board stands for the 2x2 platform below it.
PLATFORMS: tuple[int, ...] = tuple(SUPPORT_MASK[p] for p in range(16, NUM_POINTS))


def _symmetries():
    """The 8 symmetries of the square as permutations of the 30 points."""
    maps = [lambda x, y, m: (x, y), lambda x, y, m: (m - y, x),
            lambda x, y, m: (m - x, m - y), lambda x, y, m: (y, m - x),
            lambda x, y, m: (m - x, y), lambda x, y, m: (x, m - y),
            lambda x, y, m: (y, x), lambda x, y, m: (m - y, m - x)]
    perms = []
    for f in maps:
        perm = []
        for lv, x, y in COORDS:
            nx, ny = f(x, y, SIZES[lv] - 1)
            perm.append(point_at(lv, nx, ny))
        perms.append(tuple(perm))
    return tuple(perms)


SYMMETRIES: tuple[tuple[int, ...], ...] = _symmetries()
"""Identity, three rotations and four reflections; ``SYMMETRIES[i][p]`` is p's image."""
SYMMETRY_NAMES = ("identity", "rotate 90", "rotate 180", "rotate 270",
                  "mirror left-right", "mirror top-bottom", "main diagonal",
                  "anti-diagonal")


def transform_direction(direction: str, perm: tuple[int, ...]) -> str:
    """Image of a direction of travel (n, e, s, w) under a point permutation."""
    dx, dy = DIRECTIONS[direction]
    a, b = point_at(0, 1, 1), point_at(0, 1 + dx, 1 + dy)
    (_, ax, ay), (_, bx, by) = COORDS[perm[a]], COORDS[perm[b]]
    return next(d for d, v in DIRECTIONS.items() if v == (bx - ax, by - ay))


def transform_mask(mask: int, perm: tuple[int, ...]) -> int:
    """Image of a point mask under a permutation of the points."""
    out = 0
    while mask:
        low = mask & -mask
        out |= 1 << perm[low.bit_length() - 1]
        mask ^= low
    return out


def points_of(mask: int) -> list[int]:
    """The points of a mask, in increasing order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
