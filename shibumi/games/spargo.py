"""Spargo: Go on the pyramid, where balls held down by an enemy survive capture.

A group (balls of one colour joined by contacts seen from above) lives while
one of its board balls has an empty hole beside it: a *freedom*.  After each
placement, groups left without one are taken off, except the balls that hold
up a ball staying on the pyramid; these stay as *zombies*.

>>> from shibumi import load
>>> match = load('spargo').new_match()
>>> for text in "a1 c1 g7 a3".split():
...     _ = match.push(text)
>>> match.state.position.text()            # Black's a3 took White's corner ball
'...W/..../B.../.B..|.../.../...|../..|.'

White may not go back into the empty corner: a ball there would have no freedom.

>>> match.push('a1')  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
shibumi.errors.IllegalMoveError: 'a1' is not a legal move here; legal: ...
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..bits import flood
from ..errors import IllegalMoveError, NotationError, UnknownGameError, shown
from ..game import Game, GameInfo, Outcome, State, replace
from ..geometry import (BOARD_MASK, CONTACTS, FLAT_NEIGHBOURS, NUM_POINTS, SUPPORT_MASK,
                        SUPPORTED_MASK, points_of)
from ..mechanics import KO, SUPERKO
from ..notation import Move, point_name, transform_move
from ..position import BLACK, COLOUR_NAMES, RED, WHITE, Position, hidden_mask
from ..registry import register
from .placement import PLACE_MOVES

#: The colour of each player, in turn order (the third only with ``players=3``).
PLAYER_COLOURS = (WHITE, BLACK, RED)
#: Balls of each colour in a Shibumi set.
SET_BALLS = 16
#: The most turns any game may last (the largest ``turn_limit``).
MOST_TURNS = 800
CYCLE_CHOICES = (SUPERKO, KO)
#: One character per point (point i is POINT_CHARS[i]), for the history in state text.
POINT_CHARS = "0123456789abcdefghijklmnopqrst"

# -- freedom and capture, on bare colour masks -------------------------------------

#: For each point, the neighbours its contact with can never be cut (a bit mask).
_PLAIN = [0] * NUM_POINTS
for _a, _b, _over in CONTACTS:
    if not _over:
        _PLAIN[_a] |= 1 << _b
        _PLAIN[_b] |= 1 << _a
_PLAIN = tuple(_PLAIN)
_LEFT_FILE, _RIGHT_FILE = 0x1111, 0x8888
#: For each hole, the holes beside it on the board.
_HOLE_NEIGHBOURS = tuple(sum(1 << q for q in FLAT_NEIGHBOURS[p]) for p in range(16))


def beside_empty_holes(occupied: int) -> int:
    """Board holes (occupied or not) with an empty hole beside them on the board.

    >>> point_name(beside_empty_holes(0xFFFF & ~1).bit_length() - 1)   # only a1 empty
    'a3'
    """
    empty = ~occupied & BOARD_MASK
    return ((empty << 1) & ~_LEFT_FILE | (empty >> 1) & ~_RIGHT_FILE
            | (empty << 4) | (empty >> 4)) & BOARD_MASK


#: The contacts that an overpass can cut: (a, b, overpass mask), 16 of them.
_CUTTABLE = tuple((a, b, over) for a, b, over in CONTACTS if over)
_LINKS: dict[int, tuple[int, tuple[int, ...], int]] = {}


def _links(occupied: int) -> tuple[int, tuple[int, ...], int]:
    """(hidden balls, each point's neighbours over contacts that are not cut,
    balls that something rests on).

    All three depend only on the balls above the board (the overpasses, the
    balls two levels up that hide, the balls resting on others), so they are
    memoised on those 14 bits: at most 16,384 entries, and few are stable."""
    key = occupied >> 16
    found = _LINKS.get(key)
    if found is None:
        near = list(_PLAIN)
        for a, b, over in _CUTTABLE:
            if occupied & over != over:
                near[a] |= 1 << b
                near[b] |= 1 << a
        carrying = 0
        for q in points_of(occupied & ~BOARD_MASK):
            carrying |= SUPPORT_MASK[q]
        found = _LINKS[key] = (hidden_mask(occupied), tuple(near), carrying)
    return found


def _crossings(x: int) -> tuple[tuple[int, int], ...]:
    """For a point of level 1: (neighbour bit, board contact) for each neighbour
    on level 1 whose contact with a ball at x would cut a board contact (the
    two board balls' bits)."""
    return tuple((over & ~(1 << x), 1 << a | 1 << b) for a, b, over in _CUTTABLE
                 if over >> x & 1)


#: _crossings of each point of level 1 (indexed by point; empty elsewhere).
_CROSSINGS = tuple(_crossings(x) if 16 <= x < 25 else () for x in range(NUM_POINTS))
def _contact_bit(pair: int) -> int:
    """A board contact as one bit: bit a for a and a+1 (a row), bit 16 + a for
    a and a+4 (a column), as :func:`_same_pairs` gives them."""
    a = (pair & -pair).bit_length() - 1
    return 1 << a if pair >> (a + 1) & 1 else 1 << (16 + a)


def _cuts_table(x: int) -> tuple[int, ...]:
    """For a point x of level 1, for each occupancy of level 1 (9 bits), the
    board contacts that a ball at x would cut (as :func:`_contact_bit`)."""
    table = []
    for above in range(1 << 9):
        table.append(sum(_contact_bit(pair) for neighbour, pair in _CROSSINGS[x]
                         if neighbour >> 16 & above))
    return tuple(table)


#: _cuts_table of each point of level 1 (indexed by point - 16).
_CUTS = tuple(_cuts_table(x) for x in range(16, 25))
#: The two balls of each board contact, by the index of its bit.
_PAIR = tuple((1 << i | 1 << (i + 1)) if i < 16 else (1 << (i - 16) | 1 << (i - 12))
              for i in range(32))


def _same_pairs(mine: int) -> int:
    """The board contacts between two balls of ``mine`` that an overpass could
    cut (as :func:`_contact_bit`)."""
    return mine & mine >> 1 & 0x0770 | (mine & mine >> 4 & 0x0666) << 16


#: The balls a ball at x on level 1 would touch: the four under it and its
#: neighbours on level 1 (nothing can cut or hide these while x is empty).
_TOUCHED = tuple(SUPPORT_MASK[x] | sum(1 << q for q in FLAT_NEIGHBOURS[x])
                 if 16 <= x < 25 else 0 for x in range(NUM_POINTS))


def _platform_table(width: int, first: int) -> tuple[int, ...]:
    """For each mask of full squares of a level (bit ``row * width + column`` of
    that level's grid, for the square whose lowest corner it is), the points
    of the next level up (first point ``first``) resting on them."""
    size = width - 1
    table = [0] * (1 << (width * size))
    for squares in range(len(table)):
        for y in range(size):
            for x in range(size):
                if squares >> (width * y + x) & 1:
                    table[squares] |= 1 << (first + size * y + x)
    return tuple(table)


_ON_BOARD_SQUARES = _platform_table(4, 16)
_ON_LEVEL1_SQUARES = _platform_table(3, 25)


def raised_playable(occupied: int) -> int:
    """The playable points above the board: empty points on four balls.

    >>> point_name(raised_playable(0x33).bit_length() - 1)
    'b2'
    """
    board = occupied & 0xFFFF
    found = _ON_BOARD_SQUARES[board & board >> 1 & board >> 4 & board >> 5 & 0x777]
    upper = occupied >> 16
    if upper:
        found |= _ON_LEVEL1_SQUARES[upper & upper >> 1 & upper >> 3 & upper >> 4 & 0x1B]
        if occupied >> 25 & 15 == 15:
            found |= 1 << 29
    return found & ~occupied


def beside(holes: int) -> int:
    """Board holes beside any of the board holes of a mask."""
    holes &= BOARD_MASK
    return ((holes << 1) & ~_LEFT_FILE | (holes >> 1) & ~_RIGHT_FILE
            | (holes << 4) | (holes >> 4)) & BOARD_MASK


def groups_of(mine: int, occupied: int) -> list[tuple[int, int]]:
    """The groups of the balls ``mine`` of one colour, as ``(balls, beside)``.

    ``beside`` is the board holes, empty or not, beside the group's board
    balls: the group's freedoms are ``beside & empty``. A hidden ball is in no
    group (it is a group of its own without freedom: a zombie)."""
    hidden, near, _ = _links(occupied)
    mine &= ~hidden
    found = []
    while mine:
        group = frontier = mine & -mine
        while frontier:
            low = frontier & -frontier
            frontier ^= low
            new = near[low.bit_length() - 1] & mine & ~group
            group |= new
            frontier |= new
        mine &= ~group
        found.append((group, beside(group)))
    return found


def with_freedom(mine: int, occupied: int) -> int:
    """The balls of ``mine`` whose group has a freedom.

    A group is the set of balls of one colour joined by visible contacts
    (a hidden ball is a group of its own, and overpasses cut underpasses); it
    has a freedom when one of its board balls has an empty hole beside it.
    """
    hidden, near, _ = _links(occupied)
    seen = mine & ~hidden
    return flood(seen & beside_empty_holes(occupied), seen, near)


def capture_round(masks: list[int], sides) -> int:
    """Take off the groups of the colours ``sides`` (indices into ``masks``) that
    have no freedom, except their balls that hold up a ball staying on the
    pyramid, directly or through other balls; returns the mask taken off.

    ``masks`` is [white, black, red] and is changed in place.
    """
    occupied = masks[0] | masks[1] | masks[2]
    doomed = 0
    for side in sides:
        mine = masks[side]
        if mine:
            doomed |= mine & ~with_freedom(mine, occupied)
    if not doomed:
        return 0
    staying = occupied & ~doomed
    for p in reversed(points_of(doomed)):          # from the top down
        if SUPPORTED_MASK[p] & staying:
            staying |= 1 << p
    gone = doomed & ~staying
    if gone:
        for side in sides:
            masks[side] &= ~gone
    return gone


def resolve(masks: list[int], mover: int, players: int) -> int:
    """Every capture after ``mover`` (a player index) has placed a ball.

    The opponents' freedomless groups go first, all at once; then the mover's
    own; then the opponents' again, and so on, freedom being worked out
    afresh each time, until a round of the mover's takes nothing. ``masks``
    is changed in place; returns everything taken off.
    """
    enemies = tuple(p for p in range(players) if p != mover)
    mine = (mover,)
    gone = 0
    while True:
        gone |= capture_round(masks, enemies)
        taken = capture_round(masks, mine)
        if not taken:
            return gone
        gone |= taken


_OUTCOMES: dict[tuple, tuple] = {}
_OUTCOMES_LIMIT = 50_000        # about 1 kB each


def placements(masks: tuple[int, int, int], mover: int, players: int) -> tuple:
    """Every placement the freedom rule allows, before the cycle rule and supply.

    Returns ``(point, masks after the captures)`` pairs: the placed ball must
    still be on the pyramid, with a freedom, once the captures are over.
    Memoised (a search meets the same positions again and again).
    """
    key = (masks, mover, players)
    found = _OUTCOMES.get(key)
    if found is None:
        if len(_OUTCOMES) > _OUTCOMES_LIMIT:
            _OUTCOMES.clear()
        found = _OUTCOMES[key] = tuple(fresh_placements(masks, mover, players))
    return found


def _plus(masks, mover: int, bit: int) -> tuple[int, int, int]:
    """The masks with the ball ``bit`` added to the mover's colour."""
    w, b, r = masks
    return ((w | bit, b, r) if mover == 0 else (w, b | bit, r) if mover == 1
            else (w, b, r | bit))


def _after(masks, mover: int, bit: int, gone: int) -> tuple[int, int, int]:
    """The masks with the ball ``bit`` added to the mover's colour and the
    balls ``gone`` taken off."""
    if not gone:
        return _plus(masks, mover, bit)
    w, b, r = masks
    keep = ~gone
    return _plus((w & keep, b & keep, r & keep), mover, bit)


def _played_out(masks, mover: int, players: int, bit: int):
    """The balls taken off by a placement at ``bit``, or None when the placed
    ball does not live (the full rules, for the rare cases)."""
    after = list(masks)
    after[mover] |= bit
    gone = resolve(after, mover, players)
    return gone if after[mover] & bit else None


def _splits(x: int, cuts: int, masks, groups, occupied: int, empty: int):
    """What a ball at ``x`` (on level 1) does to the enemy groups whose board
    contacts ``cuts`` it cuts (as :func:`_contact_bit`): ``(split, doomed)``,
    whether it splits one, and the parts left without freedom.

    A cut contact was visible before (its overpass needs x), so its two balls
    are in one group. (A cut between two balls of the mover's colour, or under
    a ball of their colour beside x, splits nothing, since that ball rests on
    both: ``cuts`` leaves those out.)"""
    near = _links(occupied | 1 << x)[1]
    split = False
    doomed = 0
    while cuts:
        low = cuts & -cuts
        cuts ^= low
        pair = _PAIR[low.bit_length() - 1]
        for c, mine in enumerate(masks):        # the colour of the pair, then its group
            if mine & pair == pair:
                break
        for group, _ in groups[c]:
            if group & pair:
                break
        if flood(pair & -pair, group, near) & pair == pair:
            continue
        split = True
        rest = group
        while rest:
            part = flood(rest & -rest, group, near)
            if not beside(part) & empty:
                doomed |= part
            rest &= ~part
    return split, doomed


#: The balls a ball on level 2 or 3 touches: the four under it and its
#: neighbours on its level (0 below level 2).
_TOUCHED_HIGH = tuple(SUPPORT_MASK[x] | sum(1 << q for q in FLAT_NEIGHBOURS[x])
                      if x >= 25 else 0 for x in range(NUM_POINTS))


def _hides(x: int, masks, mover: int, groups, occupied: int, empty: int):
    """For a ball at ``x`` on level 2 or 3: True when it lives and takes nothing
    off, False when it takes nothing off and does not live, None when some
    other group loses its last freedom (the full rules decide).

    It hides the ball two levels under it and cuts contacts between the balls
    under it, so only the groups of those balls change (with the groups it
    touches, which it joins): these are worked out again, with the new
    contacts. When they all keep a freedom (the new ball's group aside),
    nothing goes: the hidden ball, the zombies and the balls under the new
    one are all still held up."""
    bit = 1 << x
    hidden, near, _ = _links(occupied | bit)
    reach = _TOUCHED_HIGH[x] | hidden
    lives = False
    for c in range(len(groups)):
        region = bit if c == mover else 0
        for group, _ in groups[c]:
            if group & reach:
                region |= group
        region &= ~hidden
        while region:
            part = flood(region & -region, region, near)
            region &= ~part
            if beside(part) & empty:
                lives = lives or bool(part & bit)
            elif not part & bit:
                return None
    return lives


_UNDER: dict[int, int] = {}


def _under(balls: int) -> int:
    """The points that the balls of ``balls`` above the board rest on,
    memoised on those 14 bits (any set of balls, unlike :func:`_links`)."""
    key = balls >> 16
    found = _UNDER.get(key)
    if found is None:
        found = 0
        for q in points_of(balls & ~BOARD_MASK):
            found |= SUPPORT_MASK[q]
        _UNDER[key] = found
    return found


def _taken(doomed: int, occupied: int, carrying: int) -> int:
    """The balls of ``doomed`` taken off: all but those holding up, directly or
    through other balls, a ball that stays (``carrying``: the balls that
    something rests on)."""
    if not doomed & carrying:
        return doomed
    staying = occupied & ~doomed
    if not doomed & _under(staying):
        return doomed               # none of them holds up a ball that stays
    rest = doomed & carrying
    while rest:                                             # from the top down
        q = rest.bit_length() - 1
        rest ^= 1 << q
        if SUPPORTED_MASK[q] & staying:
            staying |= 1 << q
    return doomed & ~staying


def _loses(groups: list, hidden: int, occupied: int, free: int, gone: int) -> bool:
    """Whether the mover may lose balls once ``gone`` is taken off: an own
    group without freedom (beside no hole of ``free``), or an own hidden ball,
    would then hold up nothing that stays. The groups of ``groups`` (the
    mover's) are as before the placement, joined by nothing new."""
    doomed = hidden
    for group, near in groups:
        if not near & free:
            doomed |= group
    occupied &= ~gone
    return bool(doomed and _taken(doomed, occupied, _links(occupied)[2]))


def _level_one_capture(bit: int, doomed: int, own_zombies: int, occupied: int):
    """The balls a ball ``bit`` on level 1 takes off, when it cuts the enemy
    groups ``doomed`` (with the enemy zombies) from their last freedoms and
    has a freedom itself; None when an own zombie would no longer be held up
    (the full rules decide)."""
    occupied |= bit
    gone = _taken(doomed, occupied, _links(occupied)[2])
    if own_zombies and _taken(own_zombies, occupied & ~gone, _links(occupied & ~gone)[2]):
        return None
    return gone


#: The enemies of each player, by number of players.
_ENEMIES = {n: tuple(tuple(c for c in range(n) if c != mover) for mover in range(n))
            for n in (2, 3)}


def survey(masks, mover: int, players: int, groups) -> tuple[int, dict]:
    """The placements the freedom rule allows ``mover``, from the groups of
    every colour (``groups[c]`` is :func:`groups_of` of colour ``c``).

    Returns ``(legal, special)``: the mask of the allowed points, and for those
    whose placement does more than add the ball and join it to the own groups
    it touches (a capture, or a cut that splits an enemy group), the balls it
    takes off (a mask, maybe 0). Every other allowed placement just adds the
    ball (see :func:`joined`).

    The position is settled (every group without freedom is a zombie that
    stays, holding others up), so a placement that takes no group's last
    freedom and splits no group captures nothing. A ball put in a hole cuts
    and hides nothing and no zombie is beside it (a hole beside a group is
    its freedom): it takes that freedom from the groups beside it, so it
    captures only enemy groups whose last freedom it fills; those, with the
    enemy zombies, go but for the balls holding others up. It lives when a
    hole beside it is then empty or an own group beside it has another
    freedom, and then the mover loses nothing unless an own zombie is no
    longer held up. A ball on level 1 fills no hole and hides nothing; it
    captures nothing unless it cuts an enemy group into parts one of which has
    no freedom (:func:`_splits`), and lives when it touches an own group with
    a freedom. Other placements (other captures, balls on level 2 or 3, which
    hide) are played out in full.
    """
    occupied = masks[0] | masks[1] | masks[2]
    empty = ~occupied & BOARD_MASK
    enemy_zombies = 0
    last = {}               # the enemy groups (a mask) whose last freedom a hole is
    for c in _ENEMIES[players][mover]:
        for group, near in groups[c]:
            free = near & empty
            if not free & (free - 1):
                if free:
                    last[free] = last.get(free, 0) | group
                else:
                    enemy_zombies |= group
    beside_empty = ((empty << 1) & ~_LEFT_FILE | (empty >> 1) & ~_RIGHT_FILE
                    | (empty << 4) | (empty >> 4))
    special = {}
    rest = raised_playable(occupied)
    safe = alive = own_zombies = 0
    if last or rest or empty & ~beside_empty:
        # (otherwise every hole has an empty hole beside it and takes nothing)
        for group, near in groups[mover]:
            free = near & empty
            if free:
                alive |= group
                if free & (free - 1):
                    safe |= near
            else:
                own_zombies |= group
    legal = empty & (beside_empty | safe)
    if last or rest:
        hidden, _, carrying = _LINKS.get(occupied >> 16) or _links(occupied)
        if hidden:
            own_zombies |= hidden & masks[mover]
            enemy_zombies |= hidden & ~masks[mover]
    if last:
        for bit, doomed in last.items():
            legal &= ~bit
            p = bit.bit_length() - 1
            doomed |= enemy_zombies
            # _taken, with its quick answers inline: none of them holds up a ball
            gone = doomed if not doomed & carrying or not doomed & \
                (_UNDER.get((occupied & ~doomed) >> 16) or _under(occupied & ~doomed)) \
                else _taken(doomed, occupied, carrying)
            if _HOLE_NEIGHBOURS[p] & (empty | gone) or safe & bit:
                lives = True
            else:
                # Its group is the own groups beside it (and, when balls above
                # the board go, maybe others joined again): one has a freedom now?
                freed = (empty | gone) & ~bit
                lives = any(near & bit and near & freed for _, near in groups[mover]) \
                    or (None if gone & ~BOARD_MASK else False)
            if lives and own_zombies and _loses(groups[mover], hidden & masks[mover],
                                                occupied, empty | gone, gone):
                lives = None        # an own zombie is no longer held up
            if lives is None:
                gone = _played_out(masks, mover, players, bit)
                lives = gone is not None
            if lives:
                special[p] = gone
    if rest:
        mine = masks[mover]
        enemies = _ENEMIES[players][mover]
        while rest:
            bit = rest & -rest
            rest ^= bit
            p = bit.bit_length() - 1
            if p < 25:
                touched = _TOUCHED[p]
                if not touched & mine:
                    continue    # alone, with no board ball, it can never have freedom
                # For each enemy: the balls of level 1 not theirs (an overpass
                # with one of theirs does not split them: that ball joins both
                # balls under it), and their contacts that could be cut
                # (_same_pairs, inline).
                cuts = 0
                for c in enemies:
                    theirs = masks[c]
                    cuts |= _CUTS[p - 16][(occupied & ~theirs) >> 16 & 0x1FF] & (
                        theirs & theirs >> 1 & 0x0770 | (theirs & theirs >> 4 & 0x0666) << 16)
                if cuts:
                    split, doomed = _splits(p, cuts, masks, groups, occupied, empty)
                else:
                    split = doomed = 0
                if not doomed:
                    if touched & alive:
                        legal |= bit
                        if split:
                            special[p] = 0
                    continue
                gone = _level_one_capture(bit, doomed | enemy_zombies, own_zombies,
                                          occupied)
                if gone is not None and touched & alive:
                    special[p] = gone
                    continue
            else:
                lives = _hides(p, masks, mover, groups, occupied, empty)
                if lives is not None:
                    if lives:
                        special[p] = 0
                    continue
            gone = _played_out(masks, mover, players, bit)
            if gone is not None:
                special[p] = gone
    for p in special:
        legal |= 1 << p
    return legal, special


#: The balls a ball at a board hole or on level 1 touches over contacts that
#: nothing can cut or hide while the point is empty (0 above level 1).
_TOUCH = tuple(_HOLE_NEIGHBOURS[p] if p < 16 else _TOUCHED[p] for p in range(NUM_POINTS))


def joined(groups: list, bit: int) -> list:
    """``groups`` (one colour's) after a placement at ``bit`` that just adds the
    ball (no capture, no split): it joins the groups it touches."""
    p = bit.bit_length() - 1
    touch = _TOUCH[p]
    group, near = bit, _HOLE_NEIGHBOURS[p] if p < 16 else 0
    kept = []
    for g in groups:
        if g[0] & touch:
            group |= g[0]
            near |= g[1]
        else:
            kept.append(g)
    kept.append((group, near))
    return kept


def regrouped(groups: list, masks, mover: int, bit: int, gone: int) -> list:
    """The groups of every colour after a placement at ``bit`` (a hole) that
    took off ``gone`` (``masks`` are the masks after it).

    Taking off board balls changes no contact, and taking off balls of level 1
    only joins again the contacts they cut (with nothing on them, they hide
    nothing): so the groups taken off whole are dropped, the new ball joins
    the own groups it touches, and the groups on both sides of a contact
    that was cut join. What a group taken off in part leaves (zombies) falls
    into parts of its own. The mover's groups, when they lose balls, are
    worked out afresh, as is everything after any other placement (a ball
    above the board may split, hide or uncover)."""
    occupied = masks[0] | masks[1] | masks[2]
    if not bit & BOARD_MASK or gone >> 25:
        return [groups_of(masks[c], occupied) for c in range(len(groups))]
    fresh = []
    near = None
    for c, mine in enumerate(groups):
        kept = mine
        if gone:
            kept, left = [], 0
            for g in mine:
                if not g[0] & gone:
                    kept.append(g)
                elif c == mover:
                    kept = None
                    break
                else:
                    left |= g[0] & ~gone        # what a group taken off in part leaves
            if kept is None:
                fresh.append(groups_of(masks[c], occupied))
                continue
            if left:
                # What is left falls into parts, joined only by its own contacts
                # (those the balls taken off cut are joined again below).
                if near is None:
                    near = (_LINKS.get(occupied >> 16) or _links(occupied))[1]
                while left:
                    part = flood(left & -left, left, near)
                    left ^= part
                    kept.append((part, beside(part)))
        mine = kept
        if c == mover:
            mine = joined(mine, bit)
        above = gone >> 16
        while above:
            low = above & -above
            above ^= low
            for _, pair in _CROSSINGS[low.bit_length() + 15]:
                if masks[c] & pair == pair:
                    mine = _rejoined(mine, pair)
        fresh.append(mine)
    return fresh


def _rejoined(groups: list, pair: int) -> list:
    """``groups`` (one colour's) once the two balls ``pair`` touch again."""
    a = next(g for g in groups if g[0] & pair)
    if a[0] & pair == pair:
        return groups
    b = next(g for g in groups if g[0] & pair & ~a[0])
    return [g for g in groups if g is not a and g is not b] + [(a[0] | b[0], a[1] | b[1])]


def fresh_placements(masks: tuple[int, int, int], mover: int, players: int) -> list:
    """:func:`placements`, worked out (random games rarely meet a position twice)."""
    occupied = masks[0] | masks[1] | masks[2]
    groups = [groups_of(masks[c], occupied) for c in range(players)]
    legal, special = survey(masks, mover, players, groups)
    return [(p, _after(masks, mover, 1 << p, special.get(p, 0))) for p in points_of(legal)]


def _unrepeated(legal: int, special: dict, masks, mover: int, nxt: int, seen,
                shelves: dict) -> int:
    """``legal`` without the placements whose position, with ``nxt`` to move,
    is in ``seen`` (the cycle rule). ``shelves`` holds the occupancies of
    ``seen`` by number of balls and player (the key ``balls * 4 + player``),
    for a cheaper first test: a placement that takes nothing off adds a ball
    to the occupancy, so it can only repeat a position one ball fuller."""
    occupied = masks[0] | masks[1] | masks[2]
    for p, gone in special.items():
        bit = 1 << p
        filled = occupied & ~gone | bit
        if filled in shelves.get(filled.bit_count() * 4 + nxt, ()) \
                and (_after(masks, mover, bit, gone), nxt) in seen:
            legal &= ~bit
    for filled in shelves.get((occupied.bit_count() + 1) * 4 + nxt, ()):
        bit = filled & ~occupied
        if filled == occupied | bit and legal & bit and bit.bit_length() - 1 \
                not in special and (_plus(masks, mover, bit), nxt) in seen:
            legal &= ~bit
    return legal


def _masks(position: Position) -> tuple[int, int, int]:
    return (position.white, position.black, position.red)


_new_position = Position.__new__
_SET_SLOTS = (Position.white.__set__, Position.black.__set__, Position.red.__set__,
              Position.occupied.__set__)


def _position(masks) -> Position:
    """The position of three colour masks. They come from the rules, so they are
    valid: this skips the checks of ``Position.from_masks``, which cost a
    playout more than a tenth of its time when it builds the history."""
    w, b, r = masks
    position = _new_position(Position)
    set_white, set_black, set_red, set_occupied = _SET_SLOTS
    set_white(position, w)
    set_black(position, b)
    set_red(position, r)
    set_occupied(position, w | b | r)
    return position


@dataclass(frozen=True)
class Placement:
    """What one placement does: the position after it, and what it took off."""
    position: Position
    captured: int
    """Balls taken off (a mask)."""
    zombies: int
    """Balls left without freedom that stay, because they hold up other balls."""
    legal: bool
    """Whether the placed ball is still there, with a freedom (the freedom rule)."""


def place(position: Position, point: int, player: int, players: int = 2) -> Placement:
    """Put ``player``'s ball on ``point`` and make every capture it causes.

    Only the freedom rule is checked (``legal``), not the cycle rule or supply.
    """
    if not position.is_playable(point):
        raise IllegalMoveError(f"{point_name(point)} is not a playable point")
    masks = list(_masks(position))
    masks[player] |= 1 << point
    captured = resolve(masks, player, players)
    after = _position(masks)
    return Placement(after, captured, zombies(after, players),
                     bool(masks[player] >> point & 1))


def zombies(position: Position, players: int = 3) -> int:
    """Balls with no freedom that stay on the pyramid because they hold others up."""
    found = 0
    for colour in PLAYER_COLOURS[:players]:
        mine = position.mask(colour)
        found |= mine & ~with_freedom(mine, position.occupied)
    return found


def settled(position: Position, players: int) -> bool:
    """True when no group is waiting to be captured (as after every turn)."""
    masks = list(_masks(position))
    return not any(capture_round(masks, (p,)) for p in range(players))


# -- the game --------------------------------------------------------------------

@dataclass(frozen=True)
class SpargoState(State):
    """A Spargo state: the position, plus what the cycle rule and the turn limit need.

    ``turn`` counts the turns played; ``past`` holds the positions left after
    earlier turns, oldest first, the current position excepted: all of them
    under superko, the last ``players - 1`` under ko. The position that
    ``past[-k]`` shows had player ``(to_move - k) % players`` to move.
    """
    turn: int = 0
    past: tuple[Position, ...] = ()


@register
class Spargo(Game):
    info = GameInfo(
        name="Spargo", designer="Cameron Browne", year="2006-2011",
        family="Capture", source="Shibumi Rule Book (2012)",
        summary="Go on the pyramid: surround groups to take them off, but balls that "
                "hold up an enemy ball stay as zombies; most balls in play wins.",
        min_players=2, max_players=3, complexity=5, max_length=MOST_TURNS)
    parameters = {"players": 2, "cycle": SUPERKO, "supply": SET_BALLS,
                  "turn_limit": MOST_TURNS}

    rules = """\
Two players, White and Black, start with an empty pyramid; White moves
first. A turn is always one ball of your own colour put on a playable point
(an empty hole, or the hollow on top of four balls). Passing is not allowed.

**Groups and freedom.** Balls of one colour that touch, where the contact can
be seen from above, belong to one group: a hidden ball touches nothing, and
when two balls of a level touch right above the contact of two balls of the
level below, the upper contact cuts the lower one (overpasses cut
underpasses). A group has *freedom* when at least one of its balls on the
board has an empty hole next to it along a row or column.

**Captures.** Once the ball is placed, every opponent's group without
freedom is taken off the pyramid, except the balls that hold up a ball that
stays, directly or through other balls: those stay in play as *zombies*.
They belong to their owner as before, count for them, and can regain
freedom. After the opponents' groups, any group of your own left without
freedom is taken off in the same way; then the opponents' again, and so on
until nothing more goes.

**Your ball must live.** When the captures are over, the ball you placed
must still be there, with freedom. A placement that only gains freedom by
capturing is fine.

**No repeats.** Under the default rule, superko, your turn may not leave a
position that was already seen earlier in the game with the same player to
move. The rule book's simpler ko rule, `spargo(cycle="ko")`, only forbids
recreating the position you left at the end of your own previous turn.

**The end.** The game ends when the player to move has no legal placement
(each player owns the 16 balls of their colour in the set, so a player with
all 16 in play cannot place either). Whoever has more balls on the pyramid,
zombies and hidden balls included, wins; equal numbers are a draw. As a
safeguard the game also ends, scored the same way, after 800 turns
(`turn_limit`).

**Three players.** `spargo(players=3)` adds Red, moving after Black, with the
same rules: every colour but yours is an opponent. The most balls wins;
players tied for the most share the win, and a three-way tie is a draw.
"""
    notes = """\
Sources: the Shibumi Rule Book v1.1 (2012) and its French translation, and
the designer's later rules for Margo, the 6x6 game of which Spargo is the
4x4 form (Cameron Browne, *Margo Basics*).

* Freedom is read as in the designer's Margo rules: an empty hole next to a
  board ball of the group. The book's wording (a chain of touching friendly
  balls reaching an empty hole) says the same thing, since a raised ball
  never touches an empty hole: the four balls under it are present.
* Zombies. The book spares the balls that support enemy balls. The
  designer's later rules spare balls held down by enemy balls directly or
  indirectly (through other balls between them), and we also spare a ball
  that holds up any ball that stays, whatever its colour: a ball cannot be
  pulled out from under another one. The case arises with hidden balls,
  which form groups of their own with no freedom, yet always carry the
  balls above them. So once the groups to capture are found, their balls are
  taken off from the top down, and a ball stays when anything staying rests
  on it. Nothing ever drops.
* Order of captures (the book says only "after each move"). From the
  designer's later rules: opponents first, then the mover's own groups,
  alternating, with freedom worked out again each time, until nothing is
  left to take. An own group can be left without freedom when a capture
  removes the enemy ball that held it down as a zombie, or when the new ball
  cuts it off from above; and a capture of the mover's balls can release
  enemy zombies they held down, which then go in the next round. The
  designer notes such "revealed" captures never came up in play; in random
  play the mover loses balls about once in 40,000 two-player moves (once in
  4,000 with three players), and a revealed capture was not met once in
  360,000 moves, so the tests build an example of each kind.
  With three players both opponents' groups go in the same round (the book
  gives no order between them).
* The placed ball must have freedom once all captures are over, so it may
  live by capturing. A placement that costs its own player other balls is
  legal here (the designer's rules take them off); another implementation
  forbids such placements, which is stricter than anything in the sources.
* Cycles. The book's rule is simple ko: no turn may rebuild "the board
  position of the previous turn", which we read, as in Go, as the position
  the mover left at the end of their own previous turn (the position just
  before the move cannot come back at all, since a placed ball always
  stays). The designer later adopted superko for Margo: no position may
  repeat with the same player to move (situational superko, unlike the
  positional superko of some other games here). Superko is the default,
  because it is the designer's final word and because simple ko does not
  stop the game from cycling: the tests replay four turns, found in random
  play, that bring back the whole simple-ko state (position, player to move
  and the position ko looks at), so that game could go round for ever.
  Another program's AI is reported to have looped for ever until superko
  was added.
* A turn limit ends every game: 800 turns by default (it can be set lower, not
  higher), the game then being scored as at the normal end. It is not in the
  book; it makes sure a simple-ko game cannot go round for ever, and it makes
  the card's longest game (800 actions) a true bound. Random games under
  superko stay below it: the longest of 20,000 two-player games lasted 256
  turns, the longest of 52,000 three-player games 398; under simple ko none of
  20,000 random games came near it either (the loops need cooperation).
* Supply. The set has 16 balls of each colour and the book never says what
  happens when one runs out; physically a player with all 16 in play cannot
  place, so has no legal move and the game ends (a variant changes the number,
  or lifts the limit). It matters: one random two-player game in ten ends that
  way (three in a hundred with three players). Captured balls go back to their
  owner.
* Passing is not allowed (the book), so a player without a legal placement
  ends the game even when another player could still move.
* Scoring counts every ball of a colour on the pyramid, hidden balls and
  zombies included (the book: balls in play, zombies counted). Equal totals
  are a draw (the designer's Margo rules). With three players the players
  tied for the most share the win, as in the other three-player games here,
  and a three-way tie is a draw.
* The designer's optional swap rule and the beginners' "first capture wins"
  variant of Margo are not offered.
* Lost figures. Both examples of the book are rebuilt, in the tests and in
  the chapter, as concrete positions with exactly the properties the text
  gives. First, a White placement on the last freedom of a nine-ball black
  group takes seven of its balls; the two that stay are the ones holding up
  a white ball. Second, a position where Black cannot place on any hole
  (only on the platform d4), White cannot fill the last freedom of a
  seven-ball black group (two black balls would go, five would stay as
  zombies around the eye, and the white ball would have no freedom), and
  whoever moves next loses against best play, which the tests prove by
  searching every line to the end of the game, under superko and under ko.
  Both positions were found by computer search among positions meeting the
  text's conditions; the book's own pictures are lost.
* State text. Besides the position and player, it gives `turn=<turns
  played>` and `history=<hex>:<points>`: the oldest remembered position (its
  packed 60-bit number in hex) and the points placed since, one character
  each (the point's number in base 30, `0`-`9` then `a`-`t`), the last one
  giving the current position. Reading it replays the placements, so a
  history that breaks the rules is refused. Superko remembers the whole
  game, ko only the last turns it needs. A position typed in by hand may
  leave out the history (the earlier turns are then unknown to the rules).
"""

    def __init__(self, **params) -> None:
        super().__init__(**params)
        if self.params["cycle"] not in CYCLE_CHOICES:
            raise UnknownGameError(f"Spargo cycle rule is superko or ko, "
                                   f"not {shown(self.params['cycle'])}")
        if not 1 <= self.params["supply"] <= 30:
            raise UnknownGameError(f"Spargo supply is the balls of each colour, 1-30 "
                                   f"(30: no limit), not {self.params['supply']!r}")
        if not 1 <= self.params["turn_limit"] <= MOST_TURNS:
            raise UnknownGameError(f"Spargo turn_limit is 1-{MOST_TURNS}, "
                                   f"not {self.params['turn_limit']!r}")
        self.superko = self.params["cycle"] == SUPERKO
        self.supply = self.params["supply"]
        self.turn_limit = self.params["turn_limit"]

    def initial_state(self, rng: random.Random | None = None) -> SpargoState:
        return SpargoState()

    def length(self, state) -> int:
        return state.turn

    # -- moves -------------------------------------------------------------------
    def _banned(self, past: tuple, to_move: int) -> set:
        """Masks of the positions the cycle rule forbids the mover to leave.

        The positions that had the next player to move: ``past[-k]`` with k
        one less than a multiple of the number of players. Under ko, ``past``
        holds only the one with k = players - 1.
        """
        n = self.num_players
        start = len(past) - (n - 1)
        return {_masks(p) for p in past[start::-n]} if start >= 0 else set()

    def choices(self, state) -> list[tuple[int, tuple[int, int, int]]]:
        """The legal placements as ``(point, masks after the captures)``."""
        if state.position.mask(PLAYER_COLOURS[state.to_move]).bit_count() >= self.supply:
            return []
        found = placements(_masks(state.position), state.to_move, self.num_players)
        banned = self._banned(state.past, state.to_move)
        return [c for c in found if c[1] not in banned] if banned else list(found)

    def legal_moves(self, state, player: int | None = None) -> list[Move]:
        if state.result is not None:
            return []
        row = PLACE_MOVES[PLAYER_COLOURS[state.to_move]]
        return [row[p] for p, _ in self.choices(state)]

    def apply(self, state, move: Move) -> SpargoState:
        mover = state.to_move
        masks = list(_masks(state.position))
        masks[mover] |= 1 << move.point
        resolve(masks, mover, self.num_players)
        past = state.past + (state.position,)
        if not self.superko:
            past = past[-(self.num_players - 1):]
        after = SpargoState(_position(masks), (mover + 1) % self.num_players, None, move,
                            state.turn + 1, past)
        return self.settle(after)

    def settle(self, state) -> SpargoState:
        """The state, finished when the turn limit is reached or the mover is stuck."""
        if state.result is not None:
            return state
        if state.turn >= self.turn_limit:
            return replace(state, result=self.score(state.position,
                                                    f"{state.turn} turns were played"))
        if not self.choices(state):
            name = self.player_name(state.to_move)
            return replace(state, result=self.score(state.position,
                                                    f"{name} has no legal placement"))
        return state

    def score(self, position: Position, why: str) -> Outcome:
        """The outcome by balls in play (zombies and hidden balls count)."""
        n = self.num_players
        counts = [position.mask(PLAYER_COLOURS[p]).bit_count() for p in range(n)]
        best = max(counts)
        top = tuple(p for p in range(n) if counts[p] == best)
        winners = () if len(top) == n else top
        ranking = tuple(tuple(p for p in range(n) if counts[p] == level)
                        for level in sorted(set(counts), reverse=True))
        told = ", ".join(f"{self.player_name(p)} {counts[p]}" for p in range(n))
        if not winners:
            verdict = "a draw"
        elif len(winners) == 1:
            verdict = f"{self.player_name(winners[0])} wins"
        else:
            verdict = " and ".join(self.player_name(p) for p in winners) + " share the win"
        return Outcome(winners, f"{why}; balls in play: {told}; {verdict}",
                       tuple(float(c) for c in counts), ranking)

    def transform_state(self, state, perm: tuple[int, ...]) -> SpargoState:
        return replace(state, position=state.position.transform(perm),
                       last=transform_move(state.last, perm),
                       past=tuple(p.transform(perm) for p in state.past))

    # -- fast random games -----------------------------------------------------------
    def random_playout(self, state, rng: random.Random) -> SpargoState:
        """Uniformly random games on bare masks (the same rules as ``apply``).

        The groups of every colour are carried from turn to turn: a placement
        that just adds its ball joins the groups it touches (:func:`joined`),
        and only after the rare others are they worked out afresh."""
        if state.result is not None:
            return state
        rnd = rng.random
        n, supply, limit, superko = (self.num_players, self.supply, self.turn_limit,
                                     self.superko)
        masks, mover, turn = _masks(state.position), state.to_move, state.turn
        past = [_masks(p) for p in state.past]
        count = len(past)
        seen = {(m, (mover - (count - i)) % n) for i, m in enumerate(past)}
        shelves: dict[int, list[int]] = {}       # for _unrepeated
        for m, player in seen:
            filled = m[0] | m[1] | m[2]
            shelves.setdefault(filled.bit_count() * 4 + player, []).append(filled)
        occupied = masks[0] | masks[1] | masks[2]
        groups = [groups_of(masks[c], occupied) for c in range(n)]
        point = None
        following = tuple((p + 1) % n for p in range(n))
        while True:
            nxt = following[mover]
            if turn >= limit:
                why = f"{turn} turns were played"
                break
            shelf_key = occupied.bit_count() * 4        # (+ player: see _unrepeated)
            if masks[mover].bit_count() >= supply:
                legal = 0
            else:
                legal, special = survey(masks, mover, n, groups)
                if superko:
                    # a placement taking nothing off can only repeat a position
                    # one ball fuller: then only those that take balls off count
                    if shelf_key + 4 + nxt in shelves or any(special.values()):
                        legal = _unrepeated(legal, special, masks, mover, nxt, seen,
                                            shelves)
                elif len(past) >= n - 1:
                    ko = past[-(n - 1)]
                    filled = ko[0] | ko[1] | ko[2]
                    legal = _unrepeated(legal, special, masks, mover, 0, {(ko, 0)},
                                        {filled.bit_count() * 4: [filled]})
            if not legal:
                why = f"{self.player_name(mover)} has no legal placement"
                break
            for _ in range(int(rnd() * legal.bit_count())):
                legal &= legal - 1
            bit = legal & -legal
            point = bit.bit_length() - 1
            if superko:
                seen.add((masks, mover))
                shelf = shelves.get(shelf_key + mover)
                if shelf is None:
                    shelves[shelf_key + mover] = [occupied]
                else:
                    shelf.append(occupied)
            past.append(masks)
            if point in special:
                masks = _after(masks, mover, bit, special[point])
                occupied = masks[0] | masks[1] | masks[2]
                groups = regrouped(groups, masks, mover, bit, special[point])
            else:
                masks = _plus(masks, mover, bit)
                occupied |= bit
                groups[mover] = joined(groups[mover], bit)
            mover, turn = nxt, turn + 1
        # The positions the state came with are kept, not built again.
        kept = state.past + ((state.position,) if len(past) > count else ())
        if superko:
            history = kept + tuple(map(_position, past[len(kept):]))
        else:       # only the last n - 1 are kept: build no others
            history = (kept + tuple(map(_position, past[max(len(kept), len(past) - n + 1):]))
                       )[-(n - 1):]
        position = _position(masks)
        last = state.last if point is None else PLACE_MOVES[PLAYER_COLOURS[
            (mover - 1) % n]][point]
        return SpargoState(position, mover, self.score(position, why), last, turn, history)

    # -- text ----------------------------------------------------------------------
    def status_lines(self, state) -> list[str]:
        """Balls in play (the score), balls left, points barred by the cycle rule."""
        n, pos = self.num_players, state.position
        counts = [pos.mask(PLAYER_COLOURS[p]).bit_count() for p in range(n)]
        names = [self.player_name(p) for p in range(n)]
        lines = ["Balls in play: " + ", ".join(f"{names[p]} {counts[p]}" for p in range(n))
                 + " (zombies and hidden balls count)."]
        if self.supply < NUM_POINTS:
            lines.append("Balls left to place: " + ", ".join(
                f"{names[p]} {max(0, self.supply - counts[p])}" for p in range(n)) + ".")
        if state.result is None:
            banned = self._banned(state.past, state.to_move)
            if banned and counts[state.to_move] < self.supply:
                found = placements(_masks(pos), state.to_move, n)
                barred = [point_name(p) for p, after in found if after in banned]
                if barred:
                    lines.append(f"Barred as a repeat of an earlier position: "
                                 f"{', '.join(barred)}.")
            lines.append(f"Turn {state.turn + 1} of {self.turn_limit}.")
        return lines

    def extra_text(self, state) -> str:
        fields = []
        if state.turn:
            fields.append(f"turn={state.turn}")
        if state.past:
            chain = state.past + (state.position,)
            placed = "".join(POINT_CHARS[(b.occupied & ~a.occupied).bit_length() - 1]
                             for a, b in zip(chain, chain[1:]))
            fields.append(f"history={state.past[0].to_int():x}:{placed}")
        return " ".join(fields)

    def state_from(self, position, to_move, extras) -> SpargoState:
        name, n = self.info.name, self.num_players
        turn, history, given = 0, None, set()
        for token in extras.split():
            key, eq, value = token.partition("=")
            if key in given:
                raise NotationError(f"{name} state field {shown(key)} given twice")
            given.add(key)
            if key == "turn" and eq and value.isascii() and value.isdigit() \
                    and len(value) < 7:
                turn = int(value)
            elif key == "history" and eq:
                history = value
            else:
                raise NotationError(f"{name} state field {shown(token)} not understood; "
                                    "fields: turn=<turns played> history=<hex>:<points>")
        self._check_position(position, "position")
        if turn > self.turn_limit:
            raise NotationError(f"{name}: turn={turn} is past the turn limit "
                                f"{self.turn_limit}")
        past = self._read_history(history, position, to_move) if history else ()
        if len(past) > turn:
            raise NotationError(f"{name}: the history has {len(past)} turns but only "
                                f"turn={turn} were played")
        if not self.superko and len(past) > n - 1:
            raise NotationError(f"{name} under ko remembers only the last {n - 1} "
                                f"turn{'s' if n > 2 else ''}, not {len(past)}")
        return self.settle(SpargoState(position, to_move, None, None, turn, past))

    def _check_position(self, position: Position, what: str) -> None:
        name, n = self.info.name, self.num_players
        for colour in PLAYER_COLOURS[n:]:
            if position.mask(colour):
                raise NotationError(f"{name} with {n} players has no "
                                    f"{COLOUR_NAMES[colour]} balls ({what})")
        if not position.is_stable():
            raise NotationError(f"{name} {what}: a raised ball is not resting on four balls")
        for colour in PLAYER_COLOURS[:n]:
            if position.mask(colour).bit_count() > self.supply:
                raise NotationError(f"{name} {what}: more than {self.supply} "
                                    f"{COLOUR_NAMES[colour]} balls")
        if not settled(position, n):
            raise NotationError(f"{name} {what}: a group without freedom should have "
                                "been captured (only balls holding others up may stay)")

    def _read_history(self, text: str, position: Position, to_move: int) -> tuple:
        """Rebuild the remembered positions by replaying the placements."""
        name, n = self.info.name, self.num_players
        start, colon, placed = text.partition(":")
        try:
            if not colon or not placed or not 0 < len(start) <= 15 \
                    or start.strip("0123456789abcdef"):
                raise ValueError
            current = Position.from_int(int(start, 16))
            points = [POINT_CHARS.index(c) for c in placed]
        except (ValueError, NotationError):
            raise NotationError(f"{name} history {shown(text)}: expected <hex>:<points>, "
                                f"the hex of the oldest remembered position and one "
                                f"character 0-9 a-t per point placed since") from None
        self._check_position(current, "history")
        past, seen = [], set()
        for i, p in enumerate(points):
            mover = (to_move - len(points) + i) % n
            past.append(current)
            seen.add((_masks(current), mover))
            if not current.is_playable(p):
                raise NotationError(f"{name} history: {point_name(p)} is not playable "
                                    f"at turn {i + 1} of the history")
            if current.mask(PLAYER_COLOURS[mover]).bit_count() >= self.supply:
                raise NotationError(f"{name} history: {self.player_name(mover)} has no "
                                    f"ball left to place at turn {i + 1} of the history")
            done = place(current, p, mover, n)
            if not done.legal:
                raise NotationError(f"{name} history: {point_name(p)} breaks the freedom "
                                    f"rule at turn {i + 1} of the history")
            current = done.position
            # (under ko the history is too short to hold a position the rule forbids)
            if self.superko and (_masks(current), (mover + 1) % n) in seen:
                raise NotationError(f"{name} history: turn {i + 1} repeats a position")
        if current != position:
            raise NotationError(f"{name} history: replaying it gives "
                                f"{current.text()}, not the position given")
        return tuple(past)


__all__ = ["Placement", "Spargo", "SpargoState", "beside_empty_holes", "capture_round",
           "place", "placements", "resolve", "settled", "with_freedom", "zombies"]
