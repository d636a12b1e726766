"""Bit-mask primitives shared by the games' fast rules.

The games' playouts and move generators work on raw 30-bit masks (bit ``p``
for point ``p``, see :mod:`shibumi.geometry`) rather than on
:class:`~shibumi.position.Position` objects.  The small steps they share live
here, once: each computes exactly what the plain definition through
``Position`` (or :mod:`shibumi.position`'s functions) computes, only faster.

>>> from shibumi.position import Position
>>> pos = Position('WB../..../..../....|.../.../...|../..|.')
>>> points_in(pos.occupied), nth_point(pos.occupied, 1)
((12, 13), 13)
>>> playable_of(pos.occupied) == pos.playable()
True
>>> three = Position('..../..../BW../.B..|.../.../...|../..|.')
>>> raised(three.occupied, 0) == three.activated_by(0) == 1 << 16
True
"""

from __future__ import annotations

from .geometry import (CONTACTS, COVER, INTERIOR, NUM_POINTS, SUPPORT_MASK, SUPPORTED,
                       SUPPORTED_MASK, TOUCHING_MASK)
from .position import Position

# -- listing the points of a mask ----------------------------------------------------


def _thirds() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """The points of every 10-bit mask, shifted to each third of the 30 points."""
    tables = []
    for shift in (0, 10, 20):
        table = [()] * 1024
        for m in range(1, 1024):
            low = m & -m
            table[m] = (shift + low.bit_length() - 1,) + table[m ^ low]
        tables.append(tuple(table))
    return tuple(tables)


_LOW, _MID, _HIGH = _thirds()


def points_in(mask: int) -> tuple[int, ...]:
    """The points of a 30-bit mask in increasing order, as a tuple: ``tuple(points_of(mask))``
    (three table look-ups, one per 10-bit third).

    >>> points_in(0b1010), points_in(1 << 29 | 1)
    ((1, 3), (0, 29))
    """
    return _LOW[mask & 1023] + _MID[mask >> 10 & 1023] + _HIGH[mask >> 20]


#: _SELECT[b][k]: the place of the k-th set bit (from 0, lowest first) of a byte.
_SELECT = tuple(tuple(i for i in range(8) if b >> i & 1) for b in range(256))
_COUNT = tuple(len(s) for s in _SELECT)


def nth_point(mask: int, k: int) -> int:
    """The k-th point (from 0, lowest first) of a mask: ``points_of(mask)[k]`` for
    ``0 <= k < mask.bit_count()``, and -1 for a larger k.  The first two by
    clearing low bits, the others a byte at a time.

    >>> nth_point(0b10110, 0), nth_point(0b10110, 2), nth_point(1 << 29 | 1, 1)
    (1, 4, 29)
    """
    if k < 2:
        if k:
            mask &= mask - 1
        return (mask & -mask).bit_length() - 1
    shift = 0
    while mask:
        low = mask & 0xFF
        c = _COUNT[low]
        if k < c:
            return shift + _SELECT[low][k]
        k -= c
        mask >>= 8
        shift += 8
    return -1


# -- playable points ---------------------------------------------------------------


def playable_of(occupied: int) -> int:
    """The playable points of an occupancy: :func:`shibumi.position.playable_mask`
    (empty board holes, and empty points whose four supports are all occupied),
    computed by shifts of the level masks, with no loop over the points.

    Board point (x, y) is bit x + 4y, level-1 point (x, y) bit 16 + x + 3y,
    level 2 bit 25 + x + 2y, the apex bit 29: a raised point is supported
    when the four points under it, one step apart in x and in y, are full.

    >>> playable_of(0xFFFF) == 0x1FF << 16
    True
    """
    b = occupied & 0xFFFF
    q = b & b >> 1 & b >> 4 & b >> 5
    up = (q & 7 | (q >> 1) & 0x38 | (q >> 2) & 0x1C0) << 16
    m = occupied >> 16 & 0x1FF
    q = m & m >> 1 & m >> 3 & m >> 4
    up |= (q & 3 | (q >> 1) & 0xC) << 25
    if occupied >> 25 & 0xF == 0xF:
        up |= 1 << 29
    return (~occupied & 0xFFFF) | up & ~occupied


_PLAYABLE: dict[int, int] = {}


def playable_cached(occupied: int) -> int:
    """:func:`playable_of` (that is ``playable_mask(occupied)``), memoised: playouts
    meet the same occupancies again and again.  The memo is cleared past 200,000
    entries (bounded memory)."""
    mask = _PLAYABLE.get(occupied)
    if mask is None:
        if len(_PLAYABLE) > 200_000:
            _PLAYABLE.clear()
        mask = _PLAYABLE[occupied] = playable_of(occupied)
    return mask


_PLAYABLE_POINTS: dict[int, tuple[int, ...]] = {}


def playable_points_cached(occupied: int) -> tuple[int, ...]:
    """The playable points of an occupancy in increasing order, as a tuple:
    ``points_in(playable_of(occupied))``, memoised and bounded as
    :func:`playable_cached`.  Placement playouts list them at every step, and a
    miss costs a third of building them through ``playable_mask``.

    >>> playable_points_cached(0xFFFF) == tuple(range(16, 25))
    True
    """
    pts = _PLAYABLE_POINTS.get(occupied)
    if pts is None:
        if len(_PLAYABLE_POINTS) > 200_000:
            _PLAYABLE_POINTS.clear()
        pts = _PLAYABLE_POINTS[occupied] = points_in(playable_of(occupied))
    return pts


#: For each point, (bit, platform) of each point resting on it: its bit and its four supports.
_ABOVE = tuple(tuple((1 << q, SUPPORT_MASK[q]) for q in SUPPORTED[p]) for p in range(NUM_POINTS))


def raised(occupied: int, p: int) -> int:
    """The points above ``p`` whose platform (four supports) is full once a ball is
    put at ``p``: those a ball at ``p`` makes playable.  For a stable ``occupied``
    with ``p`` playable this is ``Position.activated_by(p)``, so
    ``playable & ~(1 << p) | raised(occupied, p)`` is the playable mask after it.

    >>> raised(0b110011, 0) == 1 << 16, raised(0, 0)
    (True, 0)
    """
    occupied |= 1 << p
    out = 0
    for bit, platform in _ABOVE[p]:
        if occupied & platform == platform:
            out |= bit
    return out


# -- hidden, pinned and carrying balls ----------------------------------------------

_COVERS = tuple((p, COVER[p]) for p in INTERIOR)


def hidden_of(occupied: int) -> int:
    """The occupied points buried under a ball two levels directly above them:
    the same as :func:`shibumi.position.hidden_mask`.

    >>> hidden_of(0x1FFFFFFF | 1 << 29) == (1 << 5 | 1 << 6 | 1 << 9 | 1 << 10 | 1 << 20)
    True
    """
    hidden = 0
    for p, cover in _COVERS:
        if occupied >> cover & 1 and occupied >> p & 1:
            hidden |= 1 << p
    return hidden


def unpinned(mask: int, occupied: int) -> int:
    """The points of ``mask`` with at most one ball of ``occupied`` resting on them:
    for balls (``mask`` within ``occupied``) those :meth:`Position.remove` may take,
    ``mask & Position.movable()``.  Note the order: the mask to filter comes first.

    >>> unpinned(0b110011, 0b110011 | 1 << 16)
    51
    """
    out = m = mask
    while m:
        low = m & -m
        m ^= low
        above = SUPPORTED_MASK[low.bit_length() - 1] & occupied
        if above & (above - 1):
            out ^= low
    return out


_LEVEL2 = 0xF << 25


def _two_or_more(a: int, b: int, c: int, d: int) -> int:
    """The bits set in at least two of the four masks."""
    return a & (b | c | d) | b & (c | d) | c & d


def carried(occupied: int) -> tuple[int, int]:
    """``(covered, pinned)``: the balls of ``occupied`` with at least one ball resting
    on them, and those with two or more (pinned: ``Position.is_pinned``), by shifts
    (each ball above the board rests on the 2x2 square below it).

    >>> carried(0b110011 | 1 << 16)
    (51, 0)
    """
    l1 = occupied >> 16 & 0x1FF
    u = l1 & 0x7 | (l1 & 0x38) << 1 | (l1 & 0x1C0) << 2     # level 1 on the board's grid
    a, b, c, d = u, u << 1, u << 4, u << 5
    covered, pinned = a | b | c | d, _two_or_more(a, b, c, d)
    v = occupied >> 25 & 0xF
    v = v & 0x3 | (v & 0xC) << 1                            # level 2 on level 1's grid
    a, b, c, d = v, v << 1, v << 3, v << 4
    covered |= (a | b | c | d) << 16
    pinned |= _two_or_more(a, b, c, d) << 16
    if occupied >> 29 & 1:
        covered |= _LEVEL2
    return covered & occupied, pinned & occupied


def pairs_under(mine: int) -> int:
    """The points above the board with at least two balls of ``mine`` among the
    four they rest on (playable or not): the platforms that games stacking on
    two balls of one's colour (Spangle, Spanic) give that colour.

    >>> pairs_under(0b11) == 1 << 16
    True
    """
    found = 0
    for q in range(16, NUM_POINTS):
        if (mine & SUPPORT_MASK[q]).bit_count() >= 2:
            found |= 1 << q
    return found


# -- removing a ball ----------------------------------------------------------------


def remove_ball(masks: list[int], occupied: int, p: int) -> tuple[int, int]:
    """:meth:`Position.remove` on a list of three disjoint colour masks, changed in
    place: the ball at ``p`` (not pinned) goes and the column resting on it drops
    one place, each ball into the point below it.

    ``occupied`` is the union of the masks.  Returns ``(occupied after, column)``:
    ``column`` is the points whose balls dropped (``p`` not included); see
    :func:`follow_column` to trace other balls through the drop.

    >>> masks = [0b110011, 0, 1 << 16]
    >>> remove_ball(masks, 0b110011 | 1 << 16, 0), masks
    ((51, 65536), [50, 0, 1])
    """
    bit = 1 << p
    masks[0 if masks[0] & bit else 1 if masks[1] & bit else 2] ^= bit
    gap, column = p, 0
    above = SUPPORTED_MASK[p] & occupied
    while above:
        # A ball that is not pinned holds up at most one ball, and so does each
        # ball of its column: the drops form a single column.
        q = above.bit_length() - 1
        high = 1 << q
        masks[0 if masks[0] & high else 1 if masks[1] & high else 2] ^= high | 1 << gap
        column |= high
        gap = q
        above = SUPPORTED_MASK[q] & occupied
    return occupied & ~(1 << gap), column


def follow_column(mask: int, p: int, column: int) -> int:
    """Where the balls of ``mask`` stand once lifting ``p`` dropped ``column`` (as
    :func:`remove_ball` returns it): each ball of the column moves to the point
    below it, the lowest into ``p``; the others stay (``p`` itself included:
    clear it first to drop the lifted ball).

    >>> follow_column(1 << 16 | 1 << 3, 0, 1 << 16) == 1 | 1 << 3
    True
    """
    gap, moved = p, mask & ~column
    for q in points_in(column):
        if mask >> q & 1:
            moved |= 1 << gap
        gap = q
    return moved


def lift_ball(source: int, mine: int, theirs: int, occupied: int) -> tuple[int, int, int]:
    """:meth:`Position.remove` on two colour masks: lift the ball of ``mine`` at
    ``source`` (not pinned); the column resting on it drops one place.

    Returns ``(mine, theirs, fell)``: both masks after, and ``fell``, the points
    resting on a point whose ball dropped into it (the supported masks of each
    gap filled).

    >>> lift_ball(0, 0b110011, 1 << 16, 0b110011 | 1 << 16) == (0b110010, 1, 1 << 16)
    True
    """
    own, other, gap, fell = mine & ~(1 << source), theirs, source, 0
    above = SUPPORTED_MASK[source] & occupied
    while above:
        q = above.bit_length() - 1
        if own >> q & 1:
            own = own & ~(1 << q) | 1 << gap
        else:
            other = other & ~(1 << q) | 1 << gap
        fell |= SUPPORTED_MASK[gap]
        gap = q
        above = SUPPORTED_MASK[gap] & (own | other)
    return own, other, fell


def position_of(white: int, black: int, red: int = 0) -> Position:
    """``Position.from_masks(white, black, red)`` without its checks (for masks the
    rules produced, known to be disjoint and stable)."""
    pos = Position.__new__(Position)
    pos._set(white, black, red)
    return pos


# -- groups ---------------------------------------------------------------------------

#: For each point, the mask of its contacts without an overpass, and the
#: (neighbour, overpass) pairs of the others; and all its contacts as a mask.
_PLAIN = tuple(sum(1 << (b if a == p else a) for a, b, over in CONTACTS
                   if p in (a, b) and not over) for p in range(NUM_POINTS))
_OVERS = tuple(tuple((b if a == p else a, over) for a, b, over in CONTACTS
                     if p in (a, b) and over) for p in range(NUM_POINTS))
_CONTACT_MASK = tuple(sum(1 << (b if a == p else a) for a, b, _ in CONTACTS if p in (a, b))
                      for p in range(NUM_POINTS))


def group_mask(p: int, colour: int, occupied: int, visible: bool = True,
               hidden: int | None = None) -> int:
    """The group of the ball at ``p`` within the mask ``colour`` (which holds ``p``):
    :func:`shibumi.position.group_of` ``(p, colour, occupied, visible)``, on
    precomputed contact masks.

    Seen from above (``visible``) a hidden ball joins nothing and a contact
    under two touching balls of the level above is cut.  ``hidden`` may pass
    ``hidden_of(occupied)`` in when the caller has it.

    >>> group_mask(0, 0b11, 0b11), group_mask(0, 0b101, 0b111)
    (3, 1)
    """
    if not visible:
        hidden = 0
    elif hidden is None:
        hidden = hidden_of(occupied)
    group = frontier = 1 << p
    if hidden & group:
        return group
    while frontier:
        low = frontier & -frontier
        frontier ^= low
        q = low.bit_length() - 1
        if visible:
            near = _PLAIN[q]
            for r, over in _OVERS[q]:
                if occupied & over != over:
                    near |= 1 << r
            near &= ~hidden
        else:
            near = _CONTACT_MASK[q]
        new = near & colour & ~group
        group |= new
        frontier |= new
    return group


def united(mine: int, occupied: int, visible: bool) -> bool:
    """Whether the balls of ``mine`` (at least one) form a single group: the group
    (:func:`group_mask`) of its lowest ball is all of ``mine``.

    >>> united(0b11, 0b11, True), united(0b101, 0b101, True), united(0, 0, True)
    (True, False, False)
    """
    return bool(mine) and group_mask((mine & -mine).bit_length() - 1, mine, occupied,
                                     visible) == mine


# Which contacts join balls, and which balls are pinned, depend only on the
# balls above the board (hidden balls lie under level 2 or the apex; the
# overpasses that cut contacts lie on levels 1 and 2; a pinned ball holds up
# two balls of the level above).  So both are tabled once per occupancy of
# levels 1 to 3 (``occupied >> 16``), and a group is a flood fill over the
# table's neighbour masks.

_UPPER = 16                      # the first point above the board
#: The contacts that two balls passing over them can cut: (a, b, overpass mask).
_CUTTABLE = tuple((a, b, over) for a, b, over in CONTACTS if over)


def _links(upper: int, visible: bool) -> tuple[int, ...]:
    """Per point, the points its ball is joined to when those points hold balls.

    ``upper`` is the occupancy above the board (``occupied >> 16``).  Seen from
    above, a hidden ball joins nothing, and a contact crossed by two balls
    passing over it joins nothing; physically every contact joins.
    """
    if not visible:
        return TOUCHING_MASK
    occupied = upper << _UPPER
    links = list(TOUCHING_MASK)
    for a, b, over in _CUTTABLE:
        if occupied & over == over:
            links[a] &= ~(1 << b)
            links[b] &= ~(1 << a)
    hidden = 0
    for p in INTERIOR:
        if occupied >> COVER[p] & 1:
            hidden |= 1 << p
            links[p] = 0
    if hidden:
        links = [m & ~hidden for m in links]
    return tuple(links)


def _pinned(upper: int) -> int:
    """The points whose ball, if any, holds up two or more balls of ``upper``."""
    occupied = upper << _UPPER
    mask = 0
    for p in range(NUM_POINTS):
        above = occupied & SUPPORTED_MASK[p]
        if above & (above - 1):
            mask |= 1 << p
    return mask


#: Per ``visible`` flag: (links per point, pinned mask) by occupancy above the board
#: (``occupied >> 16``), the memo of :func:`links_and_pinned` (hot loops may read it).
LINKS_MEMO: dict[bool, dict[int, tuple[tuple[int, ...], int]]] = {True: {}, False: {}}


def links_and_pinned(occupied: int, visible: bool = True) -> tuple[tuple[int, ...], int]:
    """``(links, pinned)`` for an occupancy, memoised on the balls above the board
    (a few thousand occupancies at most).

    ``links[p]`` is the points a ball at ``p`` touches (visibly, with
    ``visible``: none for a hidden ball, no hidden ball, no contact cut by an
    overpass), so that ``links[p] & occupied == linked(p, occupied, visible)``
    for an occupied ``p``; ``pinned`` is the points (occupied or not) with two
    or more balls of ``occupied`` resting on them.
    """
    upper = occupied >> _UPPER
    found = LINKS_MEMO[visible].get(upper)
    if found is None:
        found = LINKS_MEMO[visible][upper] = (_links(upper, visible), _pinned(upper))
    return found


def flood(seed: int, mine: int, links: tuple[int, ...]) -> int:
    """The group of the balls ``seed`` within ``mine``: ``seed`` and every ball of
    ``mine`` reached from it by steps from ``p`` to ``links[p]`` (with the links of
    :func:`links_and_pinned`, ``group_of`` of a ball).

    >>> flood(1, 0b10011, links_and_pinned(0b10011)[0]), flood(1, 0b1001, TOUCHING_MASK)
    (19, 1)
    """
    group = todo = seed
    while todo:
        low = todo & -todo
        todo ^= low
        new = links[low.bit_length() - 1] & mine & ~group
        group |= new
        todo |= new
    return group


# -- points next to a mask, counted ----------------------------------------------------


def neighbour_tables(near: tuple[int, ...]) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Tables for :func:`next_to`: for each 10-bit third of a mask, ``(once, twice)``
    for every value of that third, the points next to at least one and to at least
    two of its points (``near[p]``: the points next to ``p``, a symmetric relation)."""
    tables = []
    for shift in (0, 10, 20):
        table = [(0, 0)] * 1024
        for m in range(1, 1024):
            low = m & -m
            once, twice = table[m ^ low]
            spread = near[shift + low.bit_length() - 1]
            table[m] = (once | spread, twice | once & spread)
        tables.append(tuple(table))
    return tuple(tables)


def next_to(mask: int, tables) -> tuple[int, int]:
    """``(once, twice)``: the points next to at least one point of ``mask``, and next
    to at least two, with ``tables = neighbour_tables(near)`` (three look-ups, no
    loop over the points).

    >>> once, twice = next_to(0b11, neighbour_tables(TOUCHING_MASK))
    >>> once == TOUCHING_MASK[0] | TOUCHING_MASK[1], twice == TOUCHING_MASK[0] & TOUCHING_MASK[1]
    (True, True)
    """
    o0, w0 = tables[0][mask & 1023]
    o1, w1 = tables[1][mask >> 10 & 1023]
    o2, w2 = tables[2][mask >> 20]
    return o0 | o1 | o2, w0 | w1 | w2 | o0 & o1 | (o0 | o1) & o2
