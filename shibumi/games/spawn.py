"""Spawn: three colours in, one ball out, and never three of a colour in contact.

Both players share every ball. A turn places one ball of each colour (each
placement its own action), the three close together, then takes one ball
away. No ball may ever touch two balls of its own colour. Whoever completes
the pyramid wins; whoever cannot play a whole turn loses.

>>> from shibumi import load
>>> m = load("spawn").new_match()
>>> m.push("Wc3"), m.push("Bc1"), m.push("Re3")   # the opening turn: no removal
(Move('Wc3.0'), Move('Bc1'), Move('Re3.0'))
>>> m.game.status_lines(m.state)[-1]
'Player 2 places a white, a black and a red ball.'
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..bits import (links_and_pinned, neighbour_tables, next_to, nth_point, points_in,
                    remove_ball)
from ..errors import NotationError, shown
from ..game import Game, GameInfo, Outcome, State, read_fields, write_fields
from ..geometry import (ALL_MASK, CONTACTS, COVER, INTERIOR, LEVEL_MASK, NUM_POINTS, POINTS,
                        SUPPORT_MASK, SUPPORTED_MASK, TOUCHING_MASK, points_of)
from ..position import COLOUR_NAMES, COLOURS, Position, hidden_mask
from ..registry import register
from .placement import PLACE_MOVES, REMOVE_MOVES, playable_bits, sole_winner
from .spaghetti import NEAR

PER_COLOUR = 16
"""Balls of each colour in the set (all of them shared by both players)."""
SLOTS = ("ball1", "ball2", "ball3")
_CACHE_LIMIT = 200_000

_PAIRS: dict[tuple[int, bool], tuple[int, ...]] = {}
_FINISH: dict[bool, dict] = {}
_OPTIONS: dict[bool, dict] = {}
#: _COVERED_BY[occupied >> 25]: the interior points under the occupied points of
#: levels 2 and 3 (a ball there is hidden).
_COVERED_BY = tuple(sum(1 << p for p in INTERIOR if bits >> (COVER[p] - 25) & 1)
                    for bits in range(32))
def _uncovered(p: int) -> int:
    """What taking the ball at p (nothing on it) can bring into view: the ball it
    hid, and the balls of the contacts it helped cut."""
    mask = sum(1 << q for q in INTERIOR if COVER[q] == p)
    for a, b, over in CONTACTS:
        if over >> p & 1:
            mask |= 1 << a | 1 << b
    return mask


_UNCOVERED = tuple(_uncovered(p) for p in POINTS)
LEVEL0 = LEVEL_MASK[0]
#: For each point, (point above, its supports) of the points a ball there helps carry.
_RAISED = tuple(tuple((1 << q, SUPPORT_MASK[q]) for q in POINTS if SUPPORT_MASK[q] >> p & 1)
                for p in POINTS)
_UNDER: dict[int, tuple[int, int]] = {}


def sum_near(mask: int) -> int:
    """The points next to some point of a mask."""
    out = 0
    for p in points_of(mask):
        out |= NEAR[p]
    return out


def sum_supports(mask: int) -> int:
    """The points that hold up some point of a mask."""
    out = 0
    for p in points_of(mask):
        out |= SUPPORT_MASK[p]
    return out


#: For each point, the points next to it or to a point next to it: a cluster of
#: three with a ball at p lies within them.
_NEAR2 = tuple(NEAR[p] | sum_near(NEAR[p]) for p in POINTS)
#: For each point, the points that hold it or a point next to it up.
_SUPPORTS_NEAR = tuple(SUPPORT_MASK[p] | sum_supports(NEAR[p]) for p in POINTS)


def under(occupied: int) -> tuple[int, int]:
    """(balls with a ball on them, balls with two or more: pinned), memoised on the
    upper levels (the only balls that rest on others)."""
    upper = occupied >> 16
    found = _UNDER.get(upper)
    if found is None:
        covered = pinned = 0
        for p in range(25):
            above = occupied & SUPPORTED_MASK[p]
            if above:
                covered |= 1 << p
                if above & (above - 1):
                    pinned |= 1 << p
        found = _UNDER[upper] = (covered, pinned)
    return found


def fits(p: int, mine: int, occupied: int, visible: bool = True) -> bool:
    """Whether a ball just placed at p (in ``mine``, its colour's mask) keeps the
    triplet rule. Only its own contacts can break it: a new ball covers balls
    and cuts contacts, so it never links two other balls."""
    links = links_and_pinned(occupied, visible)[0]
    near = links[p] & mine
    if not near:
        return True
    if near & (near - 1):
        return False
    second = links[near.bit_length() - 1] & mine
    return not second & (second - 1)


def column(p: int, occupied: int) -> list[int]:
    """The point p and the balls that drop when its ball is taken, lowest first
    (each rests on the one before, as :meth:`Position.remove` drops them)."""
    chain = [p]
    above = occupied & SUPPORTED_MASK[p]
    while above:
        p = above.bit_length() - 1
        chain.append(p)
        above = occupied & SUPPORTED_MASK[p]
    return chain


def lift(masks, p: int, occupied: int):
    """(masks, occupied, chain) once the ball at p is taken and its column drops."""
    chain = column(p, occupied)
    masks = list(masks)
    colours = [0 if masks[0] >> q & 1 else 1 if masks[1] >> q & 1 else 2 for q in chain]
    for q, c in zip(chain, colours):
        masks[c] ^= 1 << q
    for q, c in zip(chain, colours[1:]):
        masks[c] |= 1 << q
    return masks, occupied & ~(1 << chain[-1]), chain


def lift_fits(masks, p: int, occupied: int, visible: bool = True) -> bool:
    """Whether taking the (unpinned) ball at p keeps the triplet rule, given that
    the position keeps it now. Only balls that gain a contact can break it: the
    balls that dropped, and (seen from above) the ball the top of the column
    hid and the balls of the contacts it cut; :func:`fits` checks each."""
    after = list(masks)
    occupied, column = remove_ball(after, occupied, p)
    top = column.bit_length() - 1 if column else p     # the point left empty
    check = (1 << p | column) & ~(1 << top)             # where dropped balls now are
    if visible:
        check |= _UNCOVERED[top] & occupied
    links = links_and_pinned(occupied, visible)[0]
    while check:
        low = check & -check
        check ^= low
        mine = after[0] if after[0] & low else after[1] if after[1] & low else after[2]
        near = links[low.bit_length() - 1] & mine
        if near & (near - 1):
            return False
        if near:                                # the one ball it touches: one more?
            second = links[near.bit_length() - 1] & mine
            if second & (second - 1):
                return False
    return True


def placeable(mine: int, occupied: int, spots: int, visible: bool = True) -> int:
    """The points of ``spots`` (playable) where a ball of the colour ``mine`` keeps
    the triplet rule: :func:`fits` for each. A ball on a playable point is seen
    from above and nothing passes over its contacts, so its own contacts are the
    visible balls it touches: none fits, two or more never, one (q) fits
    unless q already touches a ball of its colour that the new ball does not
    cut away from it (a ball on the board cuts and hides nothing, and more
    balls only cut and hide more).

    Point by point for a few spots, else on whole masks (:func:`_placeable_on`).
    """
    seen = mine & ~(_COVERED_BY[occupied >> 25] & occupied) if visible else mine
    if spots.bit_count() > 5:
        return _placeable_on(mine, occupied, spots, visible, seen)
    out = 0
    links = None
    while spots:
        low = spots & -spots
        spots ^= low
        near = TOUCHING_MASK[low.bit_length() - 1] & seen
        if near:
            if near & (near - 1):
                continue
            q = near.bit_length() - 1
            if links is None:
                links = links_and_pinned(occupied, visible)[0]
            if links[q] & mine:                 # q has its pair
                if not visible or low & LEVEL0:
                    continue
                second = links_and_pinned(occupied | low, visible)[0][q] & (mine | low)
                if second & (second - 1):       # (unless the ball cuts it off)
                    continue
        out |= low
    return out


#: For (once, twice) of the points touching some / two points of a mask.
_TOUCH = neighbour_tables(TOUCHING_MASK)


def _placeable_on(mine: int, occupied: int, spots: int, visible: bool, seen: int) -> int:
    """:func:`placeable` on whole masks (``seen``: the balls of ``mine`` not hidden),
    point by point only for the spots next to a pair of the colour."""
    once, twice = next_to(seen, _TOUCH)
    out = spots & ~once
    one = spots & once & ~twice
    if not one:
        return out
    links = links_and_pinned(occupied, visible)[0]
    paired = 0                                  # seen balls touching one of their colour
    touching = seen & once
    while touching:
        low = touching & -touching
        touching ^= low
        if links[low.bit_length() - 1] & mine:
            paired |= low
    if not paired:
        return out | one
    risky = one & next_to(paired, _TOUCH)[0]
    out |= one & ~risky
    if not visible:
        return out
    risky &= ~LEVEL0
    while risky:                                # it may cut the pair's contact
        low = risky & -risky
        risky ^= low
        p = low.bit_length() - 1
        q = (TOUCHING_MASK[p] & seen).bit_length() - 1
        second = links_and_pinned(occupied | low, visible)[0][q] & (mine | low)
        if not second & (second - 1):
            out |= low
    return out


def _cluster_around(p: int, others: list[int]) -> int:
    """Points for the other balls of a turn (``others``: where each colour may go)
    that make a cluster with a first ball at p, as a mask with p; 0 if none is
    found. The first ball or one next to it is next to all the others."""
    first = 1 << p
    if len(others) < 2:
        if not others:
            return first
        spots = others[0] & NEAR[p]
        return first | spots & -spots if spots else 0
    a, b = others
    for near, far in ((a, b), (b, a)):
        spots = near & NEAR[p]
        while spots:
            low = spots & -spots
            spots ^= low
            rest = far & (NEAR[p] | NEAR[low.bit_length() - 1]) & ~low & ~first
            if rest:
                return first | low | rest & -rest
    return 0


def raised(playable: int, occupied: int, p: int) -> int:
    """The playable points once a ball is put at p (``occupied`` includes it)."""
    playable &= ~(1 << p)
    for above, support in _RAISED[p]:
        if occupied & support == support:
            playable |= above
    return playable


#: _HIDES[x]: the point whose ball a ball at x hides (two levels down), or 0.
_HIDES = tuple(sum(1 << q for q in INTERIOR if COVER[q] == x) for x in POINTS)
#: _CUTS[x]: the contacts a ball at x helps cut, as (the two balls' mask, the
#: other point passing over them).
_CUTS = tuple(tuple((1 << a | 1 << b, over & ~(1 << x)) for a, b, over in CONTACTS
                    if over >> x & 1) for x in POINTS)


def sum_touching(mask: int) -> int:
    """The points touching some point of a mask."""
    out = 0
    for p in points_of(mask):
        out |= TOUCHING_MASK[p]
    return out


def _freed_reach(x: int) -> int:
    """Every point :func:`freed` may name for x, whatever the balls: next to the
    ball x may hide, to a ball touching it, or to a ball of a contact x cuts."""
    changed = 0
    for q in POINTS:
        if _HIDES[x] >> q & 1:
            changed |= 1 << q | TOUCHING_MASK[q]
    for pair, _ in _CUTS[x]:
        changed |= pair
    return sum_touching(changed)


def freed(x: int, occupied: int, mine: int) -> int:
    """The points where a ball of a colour (its balls: ``mine``) may come to fit,
    seen from above, once a ball of another colour is put at x (``occupied``:
    the balls before it): next to a ball of the colour that x hides, or that
    loses a contact with its colour (x hides its partner, or cuts their
    contact with the ball already over it). A fit elsewhere does not change:
    an empty point's own contacts cannot be cut, and only links between
    balls of the colour count."""
    changed = 0
    hidden = _HIDES[x] & mine
    if hidden:
        changed = hidden | TOUCHING_MASK[hidden.bit_length() - 1] & mine
    for pair, other in _CUTS[x]:
        if mine & pair == pair and occupied & other:
            changed |= pair
    return next_to(changed, _TOUCH)[0] if changed else 0


def contact_pairs(occupied: int, visible: bool = True) -> tuple[int, ...]:
    """The contacts between balls of an occupancy, each as a two-point mask.

    With ``visible`` only the contacts seen from above count: none with a
    hidden ball, none cut by an overpass (the book's usual connection).
    Memoised: few occupancies are stable.
    """
    key = (occupied, visible)
    pairs = _PAIRS.get(key)
    if pairs is None:
        hidden = hidden_mask(occupied) if visible else 0
        found = []
        for a, b, over in CONTACTS:
            pair = 1 << a | 1 << b
            if occupied & pair != pair or hidden & pair:
                continue
            if visible and over and occupied & over == over:
                continue
            found.append(pair)
        if len(_PAIRS) > _CACHE_LIMIT:
            _PAIRS.clear()
        pairs = _PAIRS[key] = tuple(found)
    return pairs


def no_triplets(position: Position, visible: bool = True) -> bool:
    """True when no ball is in contact with two or more balls of its colour.

    Equivalently, every connected group of one colour has at most two balls.
    """
    return masks_fit((position.white, position.black, position.red), visible)


def masks_fit(masks: tuple[int, int, int], visible: bool = True) -> bool:
    """:func:`no_triplets` on (white, black, red) masks."""
    pairs = contact_pairs(masks[0] | masks[1] | masks[2], visible)
    for mask in masks:
        seen = 0
        for pair in pairs:
            if mask & pair == pair:
                if seen & pair:        # a ball already linked to its colour once
                    return False
                seen |= pair
    return True


def clustered(points: tuple[int, ...]) -> bool:
    """One of the balls is next to all the others (touching or diagonal on its level)."""
    if len(points) < 2:
        return True
    return any(all(NEAR[p] >> q & 1 for q in points if q != p) for p in points)


def third_spots(a: int, b: int) -> int:
    """Points where a third ball makes a cluster with balls at a and b: next to
    either when a and b are neighbours, else next to both."""
    return NEAR[a] | NEAR[b] if NEAR[a] >> b & 1 else NEAR[a] & NEAR[b]


#: _FREED_REACH[x]: a bound on :func:`freed` for x (a filter before calling it).
_FREED_REACH = tuple(_freed_reach(x) for x in POINTS)
#: _THIRD[a][b]: :func:`third_spots` of a and b.
_THIRD = tuple(tuple(third_spots(a, b) for b in POINTS) for a in POINTS)
#: The two other colour indices of each colour index.
_OTHERS = ((1, 2), (0, 2), (0, 1))
#: next_to tables for "next to" (touching or diagonal on a level).
_NEARBY = neighbour_tables(NEAR)
#: _NEEDS[q]: the points p whose quick proof cannot take the board ball q away
#: (q holds up p or a point next to p).
_NEEDS = tuple(sum(1 << p for p in POINTS if _SUPPORTS_NEAR[p] >> q & 1) for q in POINTS)


def _first_proved(fitting: list[int], bare: int, near=None) -> list[int]:
    """For a turn's first ball with three colours due (and room for them), the
    points of each colour proved at once, on whole masks: the two other
    colours fit at two different points next to it, and a bare board ball
    (``bare``, -1 on the opening turn) holds up neither it nor a point next to
    it, so it can be taken away afterwards (see :meth:`Spawn._surely_finishes`).
    ``fitting``: where each colour fits now; ``near``: :func:`next_to` of each
    (on :data:`_NEARBY`), if known."""
    stuck = 0 if bare == -1 else ALL_MASK       # where no bare ball is spared
    if bare != -1:
        while bare and stuck:
            low = bare & -bare
            bare ^= low
            stuck &= _NEEDS[low.bit_length() - 1]
    a, b, c = fitting
    if near is None:
        near = [next_to(f, _NEARBY) for f in fitting]
    near_a, near_b, near_c = near[0][0], near[1][0], near[2][0]
    two_ab, two_ac, two_bc = (next_to(f, _NEARBY)[1] for f in (a | b, a | c, b | c))
    return [a & near_b & near_c & two_bc & ~stuck, b & near_a & near_c & two_ac & ~stuck,
            c & near_a & near_b & two_ab & ~stuck]


def _spread_rows(bits: int, width: int, size: int) -> int:
    """The points of a level (``bits`` in its own row-major order, rows of
    ``size``) laid out in rows of ``width`` (the level below's order)."""
    out = 0
    for row in range(size):
        out |= (bits >> row * size & (1 << size) - 1) << row * width
    return out


#: Per level under a platform: (its first point, its width, the level above's
#: balls by its mask laid out in this level's rows, the positions where a
#: point above has all four supports, a point's four supports at position 0).
_PLATFORMS = tuple(
    (start, width, tuple(_spread_rows(m, width, width - 1) for m in range(1 << (width - 1) ** 2)),
     _spread_rows((1 << (width - 1) ** 2) - 1, width, width - 1), 3 | 3 << width)
    for start, width in ((0, 4), (16, 3), (25, 2)))


def _raisers(occ: int) -> tuple[int, tuple[int, ...]]:
    """``(one, pairs)``: the points whose ball alone completes a platform for an
    empty point (``one``: the platform lacks only that support), and the pairs
    of points (two-point masks) whose two balls complete one. Counted on
    shifted level masks (each point sees its four supports at once); only the
    few platforms found are visited."""
    one, pairs = 0, []
    for start, width, above, valid, square in _PLATFORMS:
        low = occ >> start & (1 << width * width) - 1
        s1, s2, s3 = low >> 1, low >> width, low >> width + 1
        three = low & s1 & (s2 | s3) | s2 & s3 & (low | s1)
        two = low & (s1 | s2 | s3) | s1 & (s2 | s3) | s2 & s3
        empty = valid & ~above[occ >> start + width * width & (1 << (width - 1) ** 2) - 1]
        lacks_one = three & ~(low & s1 & s2 & s3) & empty
        lacks_two = two & ~three & empty
        while lacks_one:
            pos = lacks_one & -lacks_one
            lacks_one ^= pos
            one |= (square * pos & ~low) << start
        while lacks_two:
            pos = lacks_two & -lacks_two
            lacks_two ^= pos
            pairs.append((square * pos & ~low) << start)
    return one, tuple(pairs)


def _clusters(p: int, a: int, b: int) -> bool:
    """Whether two balls of different colours, at points of ``a`` and of ``b``
    (p in neither), make a cluster with a ball at p: both next to p (at two
    points), or one next to p and to the other."""
    a_near, b_near = a & NEAR[p], b & NEAR[p]
    either = a_near | b_near
    return bool(a_near and b_near and either & (either - 1)
                or a_near & next_to(b, _NEARBY)[0] or b_near & next_to(a, _NEARBY)[0])


def _static_witness(p: int, a: int, b: int, free: int) -> bool:
    """Whether balls of two colours at points of ``a`` and ``b`` (where they fit
    now: they still will) make a cluster with a ball at p, leaving one of the
    bare board balls ``free`` uncovered (to be taken away)."""
    spots_of = _THIRD[p]
    for xs, ys in ((a, b), (b, a)):
        while xs:
            x_low = xs & -xs
            xs ^= x_low
            x = x_low.bit_length() - 1
            if _spares_one(free & ~SUPPORT_MASK[x], ys & spots_of[x] & ~x_low):
                return True
    return False


def _spares_one(kept: int, thirds: int) -> bool:
    """Whether a third ball on some point of ``thirds`` leaves one of the bare
    board balls ``kept`` uncovered (to be taken away)."""
    while kept and thirds:
        low = thirds & -thirds
        thirds ^= low
        if kept & ~SUPPORT_MASK[low.bit_length() - 1]:
            return True
    return False


@dataclass(frozen=True)
class SpawnState(State):
    ply: int = 0
    """Actions played so far."""
    placed: tuple[int, ...] = ()
    """Points of the balls placed in the turn under way, in order."""


@register
class Spawn(Game):
    info = GameInfo(
        name="Spawn", designer="Lloyd Krassner", year="2012",
        family="Completion", source="Annexe 1 of the French edition of the Shibumi Rule Book",
        summary="Each turn place a white, a black and a red ball close together and "
                "take one ball away, never letting three of a colour touch; complete "
                "the pyramid or leave your opponent stuck.",
        complexity=3, max_length=84)
    parameters = {"visible": True}
    player_names = ("Player 1", "Player 2")
    reference_draws = False      # counting a turn's first balls exactly is dear

    rules = """\
The board starts empty and every ball of the set (sixteen of each colour) is
shared by both players. Player 1 moves first.

The triplet rule: no ball may ever touch two or more balls of its own colour.
So two balls of a colour may touch, but never three in a chain. Touching
means a contact seen from above: a hidden ball touches nothing, and two
touching balls on the level above cut the contact they pass over. Balls that
are diagonal neighbours on one level do not touch.

A turn has two steps.

1. Place three balls, one white, one black and one red, in any order, on
   playable points (a ball may rest on a platform completed by a ball of the
   same turn). One of the three must be next to the other two: touching it,
   or its diagonal neighbour on the same level. If all sixteen balls of a
   colour are on the pyramid, you place only the other two colours (and one
   of those two must be next to the other).
2. Take away one ball that is not pinned (a ball under two or more balls is
   pinned), any colour, but not one you have just placed. A ball resting on
   it drops into its place, with any ball above. The position after the drop
   must still obey the triplet rule. Player 1 skips this step on the very
   first turn of the game.

Every ball must obey the triplet rule as it is placed. A ball may only be
placed if the turn can still be finished.

You win by completing the pyramid: when the thirtieth ball goes in, the game
ends at once (even in the middle of a turn). If you cannot play a whole turn
when it is your turn, you lose.

Variant `spawn(visible=False)`: every physical contact counts for the triplet
rule, hidden or cut ones too.
"""
    notes = """\
* Goal (the text's end is terse): completing the pyramid wins, and a player
  who cannot place their balls loses. The translator's summary of the game
  says the same: place the last ball, or leave the opponent without a move.
  The pyramid is complete the moment the thirtieth ball is in, so the last
  turn may place fewer than three balls; the balls placed must still be
  next to one another (one next to all the others).
* Breaking the triplet rule loses, says the text. We simply never offer such
  a placement or removal, which comes to the same thing: a player whose
  every option breaks the rule cannot play a turn and loses.
* "Connected" is the book's word for the visible contact (hidden balls and
  contacts under an overpass do not count), and the text itself suggests it:
  it warns that the removal, not only the drop, could break the rule, which
  can happen only if uncovering a ball or a contact counts. A variant counts
  every physical contact.
* The triplet rule holds for every ball at all times ("a ball, once placed"):
  a new ball may touch one ball of its colour only if that ball touches no
  other of its colour. In other words, no group of one colour ever has three
  balls. This is also what the name says.
* "Next to" for the three balls: the text says touching or diagonal on the
  same level. Touching here is the physical contact of balls being placed
  together, before anything covers them.
* Removal: the text says a *free* ball and then that the removal may cause a
  drop, which a free ball (one with nothing on it) never does. We read it as
  a movable ball (not pinned), as the English original of another annex game,
  Spoff, does for the same French word.
* A whole turn or nothing: each ball is one action, and an action is offered
  only if the rest of the turn (the other balls and, except on the first turn,
  a removal) can still follow, so a turn never gets stuck half way. A player
  with no whole turn loses at once.
* Material: the set's sixteen balls of each colour; a removed ball goes back
  to the pile. Running out of a colour is possible in principle (a full
  pyramid can hold sixteen balls of one colour with no triplet, most of them
  hidden or cut off) but is very rare; the text's rule for it is followed.
* Length: every turn after the first adds at least one ball (two of three
  colours can never be exhausted at once: that would take 32 balls), and the
  game stops at 30, so it always ends: at most 3 + 3 x 27 = 84 actions.
"""

    def __init__(self, **params) -> None:
        super().__init__(**params)
        self.visible = self.params["visible"]
        # Shared by every game with the same reading of "touching".
        self._finish = _FINISH.setdefault(self.visible, {})
        self._options = _OPTIONS.setdefault(self.visible, {})

    def initial_state(self, rng=None) -> SpawnState:
        return self.settle(SpawnState())

    def length(self, state) -> int:
        return state.ply

    # -- the turn ---------------------------------------------------------------
    # The search works on (white, black, red) masks: it visits many positions.
    @staticmethod
    def due(masks: tuple[int, int, int], placed: tuple[int, ...]) -> list[int]:
        """Colours still to place this turn (one of each colour left in the pile)."""
        done = 0
        for p in placed:
            done |= 1 << p
        return [c for c, mask in zip(COLOURS, masks)
                if not mask & done and mask.bit_count() < PER_COLOUR]

    @staticmethod
    def opening(masks: tuple[int, int, int], placed: tuple[int, ...]) -> bool:
        """The very first turn of the game (no removal): the board was empty."""
        return (masks[0] | masks[1] | masks[2]).bit_count() == len(placed)

    def removals(self, masks: tuple[int, int, int], placed: tuple[int, ...]) -> list[int]:
        """Balls that may be taken away: movable, not placed this turn, no triplet
        after the drop (:meth:`removal_mask`, lowest point first)."""
        return list(points_in(self.removal_mask(masks, placed)))

    def removal_mask(self, masks: tuple[int, int, int], placed: tuple[int, ...]) -> int:
        """The mask of :meth:`removals`. A board ball with nothing on it always may
        go (taking it uncovers nothing and cuts no contact open); the others
        are checked one by one (:func:`lift_fits`)."""
        occ = masks[0] | masks[1] | masks[2]
        done = 0
        for p in placed:
            done |= 1 << p
        covered, pinned = under(occ)
        bare = occ & LEVEL0 & ~covered
        found = occ & ~done & bare
        others = occ & ~pinned & ~done & ~bare          # not pinned, not just placed
        while others:
            low = others & -others
            others ^= low
            if lift_fits(masks, low.bit_length() - 1, occ, self.visible):
                found |= low
        return found

    def can_remove(self, masks, occ: int, done: int) -> bool:
        """Whether some ball may be taken away (``done``: the balls of this turn).
        A board ball with nothing on it always may: taking it uncovers nothing
        and cuts no contact open."""
        covered, pinned = under(occ)
        if occ & LEVEL0 & ~covered & ~done:
            return True
        candidates = occ & ~pinned & ~done
        while candidates:
            low = candidates & -candidates
            candidates ^= low
            if lift_fits(masks, low.bit_length() - 1, occ, self.visible):
                return True
        return False

    def _placements(self, masks: tuple[int, int, int], placed: tuple[int, ...]):
        """Each (colour, point, masks after) that obeys the rules for this ball."""
        occ = masks[0] | masks[1] | masks[2]
        spots = playable_bits(occ)
        if len(placed) == 2:       # the third ball completes the cluster of three
            spots &= third_spots(*placed)
        visible = self.visible
        for colour in self.due(masks, placed):
            i = colour - 1
            free = spots
            while free:
                low = free & -free
                free ^= low
                p = low.bit_length() - 1
                mine = masks[i] | low
                if fits(p, mine, occ | low, visible):
                    yield colour, p, masks[:i] + (mine,) + masks[i + 1:]

    def can_finish(self, masks: tuple[int, int, int], placed: tuple[int, ...]) -> bool:
        """Whether the turn under way (balls ``placed`` already in) can be completed."""
        key = masks + placed
        known = self._finish.get(key)
        if known is None:
            known = self._finishes(masks, placed)
            if len(self._finish) > _CACHE_LIMIT:
                self._finish.clear()
            self._finish[key] = known
        return known

    def _finishes(self, masks: tuple[int, int, int], placed: tuple[int, ...]) -> bool:
        """:meth:`can_finish`, searched: the next ball anywhere it obeys the rules."""
        done = 0
        for p in placed:
            done |= 1 << p
        return self._search(masks, masks[0] | masks[1] | masks[2], placed, done,
                            self.due(masks, placed))

    def _search(self, masks, occ, placed, done, due) -> bool:
        """The search of :meth:`_finishes` (``done``: the mask of ``placed``; ``due``:
        the colours still to place)."""
        if occ == ALL_MASK:
            return clustered(placed)
        if not due:
            return clustered(placed) and (occ.bit_count() == len(placed)
                                          or self.can_remove(masks, occ, done))
        playable = playable_bits(occ)
        spots = playable
        if len(placed) == 2:       # the third ball completes the cluster of three
            spots &= third_spots(*placed)
        elif len(placed) == 1:             # the cluster lies within two steps of a ball
            spots &= NEAR[placed[0]] if len(due) == 1 else _NEAR2[placed[0]]
        last = len(due) == 1                   # this ball ends the turn (clustered by spots)
        second = len(placed) == 1 and not last
        fitting = [placeable(masks[c - 1], occ, spots, self.visible) for c in due]
        if second and len(due) == 2:
            return self._pair_after(masks, occ, placed[0], done, due, fitting, playable)
        for colour, points in zip(due, fitting):
            i = colour - 1
            rest = [c for c in due if c != colour]
            while points:
                low = points & -points
                points ^= low
                p = low.bit_length() - 1
                after = occ | low
                if second and not raised(playable, after, p) & third_spots(placed[0], p):
                    continue                   # nowhere for the third ball
                if last:
                    if after == ALL_MASK or after.bit_count() == len(placed) + 1 \
                            or after & LEVEL0 & ~under(after)[0] & ~done & ~low:
                        return True            # complete, the opening, or a bare board ball
                    if self.can_remove(masks[:i] + (masks[i] | low,) + masks[i + 1:],
                                       after, done | low):
                        return True
                elif self._search(masks[:i] + (masks[i] | low,) + masks[i + 1:], after,
                                  placed + (p,), done | low, rest):
                    return True
        return False

    def _pair_after(self, masks, occ, first, done, due, fitting, playable) -> bool:
        """:meth:`_search` once the first ball is in and two colours are due: is
        there a second ball and a third next to the cluster? A point where the
        third colour fits now still fits after the second ball (another colour
        only hides balls and cuts contacts); beyond those, only the platforms the
        second ball completes and the points it may free (:func:`freed`)
        need a look."""
        for k in (0, 1):
            i, j = due[k] - 1, due[1 - k] - 1
            thirds = fitting[1 - k]
            points = fitting[k]
            while points:
                low = points & -points
                points ^= low
                x = low.bit_length() - 1
                after = occ | low
                if after == ALL_MASK:              # complete: two balls side by side
                    if NEAR[first] >> x & 1:
                        return True
                    continue
                spread = third_spots(first, x) & ~low
                lifted = raised(playable, after, x)
                maybe = spread & lifted & ~playable
                if self.visible and low & ~LEVEL0:
                    maybe |= spread & playable & freed(x, occ, masks[j]) & ~thirds
                sure = thirds & spread
                if maybe:
                    sure |= placeable(masks[j], after, maybe, self.visible)
                if not sure:
                    continue
                if after.bit_count() + 1 == NUM_POINTS or after.bit_count() == 2:
                    return True                    # complete, or the opening turn
                bare = after & LEVEL0 & ~under(after)[0] & ~done & ~low
                if bare & ~SUPPORT_MASK[(sure & -sure).bit_length() - 1]:
                    return True                    # a bare board ball to take away
                second = masks[:i] + (masks[i] | low,) + masks[i + 1:]
                while sure:
                    top = sure & -sure
                    sure ^= top
                    end = after | top
                    if end & LEVEL0 & ~under(end)[0] & ~done & ~low & ~top or self.can_remove(
                            second[:j] + (second[j] | top,) + second[j + 1:], end,
                            done | low | top):
                        return True
        return False

    @staticmethod
    def masks(state) -> tuple[int, int, int]:
        pos = state.position
        return pos.white, pos.black, pos.red

    def removing(self, state) -> bool:
        """The turn's balls are all in and a ball must now be taken away."""
        return bool(state.placed) and not self.due(self.masks(state), state.placed)

    def options(self, masks: tuple[int, int, int], placed: tuple[int, ...]):
        """The placements offered in a turn under way, as (colour, point) in the
        order of ``legal_moves``: each obeys the rules and leaves a turn that can
        be finished. Memoised (the search asks for the same states again)."""
        key = masks + placed
        found = self._options.get(key)
        if found is None:
            found = self._find_options(masks, placed)
            if len(self._options) > _CACHE_LIMIT:
                self._options.clear()
            self._options[key] = found
        return found

    def _find_options(self, masks, placed):
        """:meth:`options`, worked out (:meth:`option_masks` as a list)."""
        due, offered = self.option_masks(masks, placed)
        return tuple((c, p) for c, points in zip(due, offered) for p in points_in(points))

    def option_masks(self, masks, placed):
        """``(due, offered)``: the colours still due and, for each, the mask of the
        points where it is offered (:meth:`options` is them colour by colour,
        each mask lowest point first). Each placement that obeys the rules is
        kept if a quick proof or else the search finds the rest of the turn.

        The common case (every colour still in the pile, room for the turn, a
        ball on the board to take away at its end) goes to one decider per
        ball of the turn: :meth:`_first_options`, :meth:`_second_options`,
        :meth:`_third_options`; the rest (the opening turn, a colour run out,
        the last points) to the general loop below."""
        occ = masks[0] | masks[1] | masks[2]
        playable = playable_bits(occ)
        due = self.due(masks, placed)
        balls = occ.bit_count()
        if len(due) + len(placed) == 3 and balls > len(placed) \
                and NUM_POINTS - balls > len(due):
            if not placed:
                return due, self._first_options(masks, occ, playable)
            if len(placed) == 1:
                return due, self._second_options(masks, occ, playable, placed[0], due)
            return due, [self._third_options(masks, occ, playable, placed, due[0] - 1)]
        spots = playable
        if len(placed) == 2:       # the third ball completes the cluster of three
            spots &= third_spots(*placed)
        elif len(placed) == 1:     # the cluster lies within two steps of a ball
            spots &= _NEAR2[placed[0]]
        fitting = [placeable(masks[c - 1], occ, spots, self.visible) for c in due]
        done = 0
        for q in placed:
            done |= 1 << q
        # Board balls with nothing on them, not of this turn: taking one away is
        # always allowed.
        bare = occ & LEVEL0 & ~under(occ)[0] & ~done
        if not occ & ~done:
            bare = -1                          # the opening turn: nothing to take
        roomy = ALL_MASK.bit_count() - occ.bit_count() > len(due)   # no filling up
        proved = [0] * len(due)
        if roomy and not placed and len(due) == 3:
            proved = _first_proved(fitting, bare)
        first = placed[0] if placed else -1
        offered = []
        for i, colour in enumerate(due):
            others = fitting[:i] + fitting[i + 1:]
            legal = proved[i]
            points = fitting[i] & ~legal
            while points:
                low = points & -points
                points ^= low
                p = low.bit_length() - 1
                # The common cases, proved at once (else the general proof, then
                # the search): the others next to this ball and a bare board ball
                # under none of them.
                if roomy:
                    if len(placed) == 1:
                        spread = third_spots(first, p)
                        if others:
                            if not raised(playable, occ | low, p) & spread:
                                continue       # nowhere for the third ball
                            b = others[0] & spread & ~low
                            if b and bare & ~SUPPORT_MASK[p] & ~SUPPORT_MASK[
                                    (b & -b).bit_length() - 1]:
                                legal |= low
                                continue
                    elif placed and bare & ~SUPPORT_MASK[p]:
                        legal |= low
                        continue
                if self._surely_finishes(masks, occ, placed, p, others,
                                         due[:i] + due[i + 1:]):
                    legal |= low
                    continue
                j = colour - 1
                if self._search(masks[:j] + (masks[j] | low,) + masks[j + 1:], occ | low,
                                placed + (p,), done | low, due[:i] + due[i + 1:]):
                    legal |= low
            offered.append(legal)
        return due, offered

    def _first_options(self, masks, occ, playable) -> list[int]:
        """:meth:`option_masks` for a turn's first ball, three colours due, room
        for them and balls on the board (one to take away at the end): where
        each colour fits, proved at once on whole masks (:func:`_first_proved`)
        or one by one (:meth:`_first_ball`, the search when undecided)."""
        visible = self.visible
        fitting = [placeable(mask, occ, playable, visible) for mask in masks]
        bare = occ & LEVEL0 & ~under(occ)[0]
        near = [next_to(f, _NEARBY) for f in fitting]
        offered = _first_proved(fitting, bare, near)
        turn = None
        for i in (0, 1, 2):
            points = fitting[i] & ~offered[i]
            while points:
                low = points & -points
                points ^= low
                p = low.bit_length() - 1
                if turn is None:
                    turn = (bare,) + _raisers(occ)
                verdict = self._first_ball(masks, occ, playable, fitting, i, p, turn,
                                           near)
                if verdict is None:
                    verdict = self._search(masks[:i] + (masks[i] | low,) + masks[i + 1:],
                                           occ | low, (p,), low,
                                           [c for c in COLOURS if c != i + 1])
                if verdict:
                    offered[i] |= low
        return offered

    def _second_options(self, masks, occ, playable, first, due) -> list[int]:
        """:meth:`option_masks` for a turn's second ball (the first at ``first``),
        the other two colours (``due``) still due, room for them and a ball to
        take away at the end: where each fits next to the first, kept when the
        third colour fits next to both and a bare board ball lies under
        neither, else decided by :meth:`_second_ball` (or the search)."""
        spots = playable & _NEAR2[first]        # the cluster reaches no further
        fitting = [placeable(masks[c - 1], occ, spots, self.visible) for c in due]
        done = 1 << first
        bare = occ & LEVEL0 & ~under(occ)[0] & ~done
        spots_of = _THIRD[first]
        offered = []
        for i in (0, 1):
            points, thirds, o = fitting[i], fitting[1 - i], due[1 - i] - 1
            legal = 0
            while points:
                low = points & -points
                points ^= low
                x = low.bit_length() - 1
                spread = spots_of[x]
                y = thirds & spread & ~low
                if y and bare & ~SUPPORT_MASK[x] & ~SUPPORT_MASK[(y & -y).bit_length() - 1]:
                    legal |= low
                    continue
                after = playable & ~low
                occ2 = occ | low
                for above, support in _RAISED[x]:
                    if occ2 & support == support:
                        after |= above
                if not after & spread:
                    continue                    # nowhere for the third ball
                verdict = self._second_ball(masks, occ, playable, after, x, spread,
                                            thirds, o, bare)
                if verdict is None:
                    c = due[i] - 1
                    verdict = self._search(masks[:c] + (masks[c] | low,) + masks[c + 1:],
                                           occ | low, (first, x), done | low, [o + 1])
                if verdict:
                    legal |= low
            offered.append(legal)
        return offered

    def _third_options(self, masks, occ, playable, placed, o) -> int:
        """:meth:`option_masks` for a turn's third ball (colour ``o``, an index of
        ``masks``), with room for it and a ball to take away after: where it
        fits next to the first two, if a bare board ball is left uncovered (it
        may always go), else if some ball may be taken away."""
        first, second = placed
        fit = placeable(masks[o], occ, playable & _THIRD[first][second], self.visible)
        done = 1 << first | 1 << second
        bare = occ & LEVEL0 & ~under(occ)[0] & ~done
        legal = 0
        while fit:
            low = fit & -fit
            fit ^= low
            if bare & ~SUPPORT_MASK[low.bit_length() - 1] or self.can_remove(
                    masks[:o] + (masks[o] | low,) + masks[o + 1:], occ | low, done | low):
                legal |= low
        return legal

    def _second_ball(self, masks, occ, playable, after, x, spread, fit, o,
                     bare) -> bool | None:
        """Whether a turn's second ball at x (it fits; room for the third) leaves
        a whole turn: True with a witness (a third ball and a bare board ball
        to take away), False when no third ball can follow it, None when
        undecided (the search decides). ``spread``: where the third ball makes
        a cluster; ``fit``: where its colour (``o``, an index of ``masks``) fits
        now, around the first ball; ``bare``: the bare board balls not of this
        turn; ``after``: the playable points once x is in. After x the third
        colour fits where it fits now, or on a point x raises or frees (see
        :meth:`_first_ball`)."""
        x_low = 1 << x
        occ2 = occ | x_low
        new = after & ~playable
        if self.visible and x_low & ~LEVEL0:
            new |= freed(x, occ, masks[o]) & after & ~fit
        thirds = fit & spread & ~x_low
        new &= spread & ~thirds
        if new:
            thirds |= placeable(masks[o], occ2, new, self.visible)
        if not thirds:
            return False
        return True if _spares_one(bare & ~SUPPORT_MASK[x], thirds) else None

    def _first_ball(self, masks, occ, playable, fitting, i, p, turn,
                    near=None) -> bool | None:
        """Whether a turn's first ball of colour ``i + 1`` at p (it fits) leaves a
        whole turn: True with a witness (two more balls and a bare board ball to
        take away), False when no second and third ball can follow it, None when
        undecided (some cluster follows, but no bare board ball is left to take:
        the search decides). Three colours due, room for them, not the opening.

        ``fitting``: where each colour fits now; ``turn``: ``(bare, one,
        pairs)``, the bare board balls and :func:`_raisers`. A ball of another
        colour never undoes a fit (it only hides balls and cuts contacts), and
        changes fits only where :func:`freed` says; so where a colour fits
        after the first ball is where it fits now, less p, plus the points p
        raises or frees. The same holds after the second ball x: the third
        goes where it fits after p, or on a point x raises (x completes a
        platform, alone or with p: ``one``, ``pairs``) or frees. Every cluster
        is tried, so False is exact; True needs a bare board ball that none
        of the three balls rests on (taking it away is always allowed).
        """
        bare, one, pairs = turn
        visible = self.visible
        low = 1 << p
        reach = _NEAR2[p] & ~low
        j, k = _OTHERS[i]
        fj, fk = fitting[j], fitting[k]
        a, b = fj & reach, fk & reach
        free = bare & ~SUPPORT_MASK[p]          # bare board balls p does not cover
        # Where the others fit now, they still will: a cluster of those first.
        if near is None:
            clustered = _clusters(p, a, b)
        else:                                   # _clusters on the turn's next_to
            a_near, b_near = fj & NEAR[p], fk & NEAR[p]
            either = a_near | b_near
            # (next to a ball of a colour other than at p: twice if p has one)
            clustered = bool(a_near and b_near and either & (either - 1)
                             or a_near & near[k][fk >> p & 1]
                             or b_near & near[j][fj >> p & 1])
        if clustered and free and _static_witness(p, a, b, free):
            return True
        occ1 = occ | low
        after = playable & ~low
        a_new = b_new = 0
        if low & one:                                      # the platform p completes
            for above, support in _RAISED[p]:
                if occ1 & support == support:
                    after |= above
            a_new = b_new = after & ~playable & reach
        if visible and low & ~LEVEL0:                      # and the points it may let fit
            spare = after & reach & _FREED_REACH[p]
            if spare & ~a:
                a_new |= freed(p, occ, masks[j]) & spare & ~a
            if spare & ~b:
                b_new |= freed(p, occ, masks[k]) & spare & ~b
        if a_new:
            a_new = placeable(masks[j], occ1, a_new, visible)
        if b_new:
            b_new = placeable(masks[k], occ1, b_new, visible)
        if a_new or b_new:
            a |= a_new
            b |= b_new
            if not clustered and _clusters(p, a, b):
                clustered = True
                if free and _static_witness(p, a, b, free):
                    return True
        # The third ball on a point the second raises or lets fit.
        raisers = one
        for pair in pairs:
            if pair & low:
                raisers |= pair ^ low
        movers = raisers | ~LEVEL0 if visible else raisers
        thirds_of = _THIRD[p]
        for xs, ys, o in ((a & movers, b, k), (b & movers, a, j)):
            while xs:
                x_low = xs & -xs
                xs ^= x_low
                x = x_low.bit_length() - 1
                spread = thirds_of[x] & ~x_low
                new = 0
                if x_low & raisers:
                    occ2 = occ1 | x_low
                    for above, support in _RAISED[x]:
                        if occ2 & support == support:
                            new |= above
                    new &= ~after & spread
                if visible and x_low & ~LEVEL0:
                    spare = spread & after & ~ys & _FREED_REACH[x]
                    if spare:
                        new |= freed(x, occ1, masks[o]) & spare
                if new:
                    thirds = placeable(masks[o], occ1 | x_low, new, visible)
                    if thirds:
                        clustered = True
                        if _spares_one(free & ~SUPPORT_MASK[x], thirds):
                            return True
        return None if clustered else False

    def _surely_finishes(self, masks, occ, placed, p, others, colours) -> bool:
        """A quick proof that the turn can be finished once a ball goes to p, or
        False (then the full search decides). ``others``: where each colour still
        due after this one (``colours``) fits now (:func:`placeable`), to which
        the platforms this ball completes are added; a later ball of another
        colour only hides balls and cuts contacts, so those points still fit.
        The proof puts them next to the turn's balls, and takes away a board
        ball with nothing on it (which bares no ball and no contact)."""
        if ALL_MASK.bit_count() - occ.bit_count() <= len(others) + 1:
            return False                        # the pyramid may fill during the turn
        used = 1 << p
        opened = raised(playable_bits(occ), occ | used, p) & ~playable_bits(occ)
        if opened:                              # the platforms the ball completes
            others = [spots | placeable(masks[c - 1], occ | used, opened, self.visible)
                      for c, spots in zip(colours, others)]
        if not placed:                          # the first ball: a cluster around it
            used = _cluster_around(p, others)
            if not used:
                return False
        elif len(placed) == 1:
            if others:                          # the third ball next to the first two
                spots = others[0] & third_spots(placed[0], p) & ~used
                if not spots:
                    return False
                used |= spots & -spots
            elif not NEAR[p] >> placed[0] & 1:
                return False
        if occ.bit_count() == len(placed):      # the opening turn: nothing to take
            return True
        for q in placed:
            used |= 1 << q
        bare = occ & LEVEL0 & ~under(occ)[0] & ~used
        while used and bare:
            low = used & -used
            used ^= low
            bare &= ~SUPPORT_MASK[low.bit_length() - 1]
        return bool(bare)

    def legal_moves(self, state, player=None):
        if state.result is not None:
            return []
        masks = self.masks(state)
        if self.removing(state):
            return [REMOVE_MOVES[p] for p in self.removals(masks, state.placed)]
        return [PLACE_MOVES[c][p] for c, p in self.options(masks, state.placed)]

    def apply(self, state, move):
        mover, ply = state.to_move, state.ply + 1
        if move.kind == "remove":
            masks, _, _ = lift(self.masks(state), move.point, state.position.occupied)
            return self.settle(SpawnState(Position.from_masks(*masks), 1 - mover, None,
                                          move, ply))
        position = state.position.place(move.point, move.colour)
        placed = state.placed + (move.point,)
        if position.occupied == ALL_MASK:
            return SpawnState(position, mover, self._completed(mover), move, ply, placed)
        masks = position.white, position.black, position.red
        if not self.due(masks, placed) and self.opening(masks, placed):
            return self.settle(SpawnState(position, 1 - mover, None, move, ply))
        return SpawnState(position, mover, None, move, ply, placed)

    def random_playout(self, state, rng, moves: list | None = None):
        """Uniformly random legal actions to the end, on raw masks, each drawn by
        rejection (:meth:`draw`): a random candidate is checked alone, instead
        of settling every placement of the turn to count them (the reference
        draw needs the count). Each legal action is as likely as by
        ``random_step``, but the generator is used differently, so the games
        differ from the base loop's (``reference_draws`` is False). ``moves``:
        a list to which each action played is appended (the tests replay them
        through the rules). The search's playouts are these too."""
        if state.result is not None:
            return state
        rnd = rng.random
        masks, placed = self.masks(state), state.placed
        mover, ply, last = state.to_move, state.ply, state.last
        occ = masks[0] | masks[1] | masks[2]
        playable = playable_bits(occ)
        due = self.due(masks, placed)                           # kept as the turn goes
        while True:
            drawn = self.draw(masks, occ, placed, playable, rnd, due)
            if drawn is None:                                   # no whole turn: a loss
                return SpawnState(Position.from_masks(*masks), mover, Outcome(
                    (1 - mover,), f"{self.player_name(mover)} cannot play a whole turn"),
                    last, ply)
            c, p = drawn
            ply += 1
            if not c:                                           # take a ball away
                masks = list(masks)
                occ, column = remove_ball(masks, occ, p)
                masks, top = tuple(masks), column.bit_length() - 1 if column else p
                playable = (playable | 1 << top) & ~SUPPORTED_MASK[top]
                last, placed, mover = REMOVE_MOVES[p], (), 1 - mover
                due = self.due(masks, ())
                if moves is not None:
                    moves.append(last)
                continue
            masks = masks[:c - 1] + (masks[c - 1] | 1 << p,) + masks[c:]
            placed, occ = placed + (p,), occ | 1 << p
            playable = raised(playable, occ, p)
            last = PLACE_MOVES[c][p]
            if moves is not None:
                moves.append(last)
            if occ == ALL_MASK:
                return SpawnState(Position.from_masks(*masks), mover, self._completed(mover),
                                  last, ply, placed)
            due = [d for d in due if d != c]
            if occ.bit_count() == len(placed) and not due:
                placed, mover = (), 1 - mover                   # the opening turn ends
                due = self.due(masks, ())

    def draw(self, masks, occ, placed, playable, rnd, due=None):
        """One legal action drawn uniformly at random, as (colour, point), colour 0
        for a removal; None when a turn cannot be played. A random candidate
        (a ball of a colour due on a playable point, or a ball that is neither
        pinned nor just placed) is checked alone, and drawn again among the
        rest if it is not legal. ``due``: the colours still due, if known."""
        done = 0
        for q in placed:
            done |= 1 << q
        if due is None:
            due = self.due(masks, placed)
        if placed and not due:                                  # take a ball away
            covered, pinned = under(occ)
            pool, bare = occ & ~pinned & ~done, occ & LEVEL0 & ~covered
            while pool:
                low = 1 << nth_point(pool, int(rnd() * pool.bit_count()))
                p = low.bit_length() - 1
                if low & bare or lift_fits(masks, p, occ, self.visible):
                    return 0, p
                pool ^= low
            return None
        spots = playable
        if len(placed) == 2:
            spots &= third_spots(*placed)
        elif len(placed) == 1:
            spots &= _NEAR2[placed[0]]         # the cluster reaches no further
        pools = [spots] * len(due)
        counts = [spots.bit_count()] * len(due)
        total = sum(counts)
        hidden = _COVERED_BY[occ >> 25] & occ if self.visible else 0
        # The second ball of a turn with a third due, room for it and a ball
        # to take away after: decided as in option_masks.
        second = len(placed) == 1 and len(due) == 2 and 1 < occ.bit_count() < NUM_POINTS - 2
        while total:
            i = int(rnd() * total)
            k = 0
            while i >= counts[k]:
                i -= counts[k]
                k += 1
            p = nth_point(pools[k], i)
            low, c = 1 << p, due[k]
            rest = due[:k] + due[k + 1:]
            near = TOUCHING_MASK[p] & masks[c - 1] & ~hidden     # as in placeable()
            if (not near or not near & (near - 1) and placeable(
                    masks[c - 1], occ, low, self.visible)) and (
                    self._drawn_second(masks, occ, placed, done, c, rest[0], p, playable)
                    if second else
                    self._quick_proof(masks, occ, placed, done, rest, p, playable)
                    or self._search(masks[:c - 1] + (masks[c - 1] | low,) + masks[c:],
                                    occ | low, placed + (p,), done | low, rest)):
                return c, p
            pools[k] ^= low
            counts[k] -= 1
            total -= 1
        return None

    def _drawn_second(self, masks, occ, placed, done, c, third, p, playable) -> bool:
        """For :meth:`draw`: whether a turn's second ball, of colour ``c`` at p (it
        fits), leaves a whole turn with the ``third`` colour to come: a third
        ball next to both and a bare board ball under neither (as
        :meth:`_quick_proof`), else :meth:`_second_ball`, else the search."""
        low = 1 << p
        spread = third_spots(placed[0], p)
        o = third - 1
        fit = placeable(masks[o], occ, spread & playable & ~low, self.visible)
        bare = occ & LEVEL0 & ~under(occ)[0] & ~done
        if fit and bare & ~SUPPORT_MASK[p] & ~SUPPORT_MASK[(fit & -fit).bit_length() - 1]:
            return True
        after = raised(playable, occ | low, p)
        if not after & spread:
            return False                        # nowhere for the third ball
        verdict = self._second_ball(masks, occ, playable, after, p, spread, fit, o, bare)
        if verdict is None:
            verdict = self._search(masks[:c - 1] + (masks[c - 1] | low,) + masks[c:],
                                   occ | low, placed + (p,), done | low, [third])
        return verdict

    def _quick_proof(self, masks, occ, placed, done, rest, p, playable) -> bool:
        """A quick proof that a ball at p (it fits) leaves a whole turn, or False:
        the balls still due (colours ``rest``) fit next to the turn's balls now
        (so they will), and a bare board ball under none of them is left to take
        away (see :meth:`_surely_finishes`)."""
        balls = occ.bit_count()
        if NUM_POINTS - balls <= len(rest) + 1:
            return False                        # the pyramid may fill during the turn
        if not placed and len(rest) == 2:       # the first ball: both others next to it
            around = NEAR[p] & playable
            a = placeable(masks[rest[0] - 1], occ, around, self.visible)
            if not a:
                return False
            b = placeable(masks[rest[1] - 1], occ, around, self.visible)
            if not b or not (a | b) & ((a | b) - 1):
                return False
            return not balls or bool(occ & LEVEL0 & ~under(occ)[0] & ~_SUPPORTS_NEAR[p])
        used = done | 1 << p
        if len(placed) == 1 and len(rest) == 1:
            spots = third_spots(placed[0], p) & playable & ~used
            z = placeable(masks[rest[0] - 1], occ, spots, self.visible)
            if not z:
                return False
            used |= z & -z
        elif rest or len(placed) == 1 and not NEAR[p] >> placed[0] & 1:
            return False                        # (two balls must be side by side)
        if balls == len(placed):                # the opening turn: nothing to take
            return True
        bare = occ & LEVEL0 & ~under(occ)[0] & ~done
        while used and bare:
            top = used & -used
            used ^= top
            bare &= ~SUPPORT_MASK[top.bit_length() - 1]
        return bool(bare)

    def _completed(self, player: int) -> Outcome:
        return Outcome((player,), f"{self.player_name(player)} completed the pyramid")

    def settle(self, state):
        """A complete pyramid has been won; a mover with no whole turn loses."""
        if state.position.occupied == ALL_MASK:
            return dataclasses.replace(state, result=self._completed(state.to_move))
        if not state.placed and not self.can_finish(self.masks(state), ()):
            loser = state.to_move
            return dataclasses.replace(state, result=Outcome(
                (1 - loser,), f"{self.player_name(loser)} cannot play a whole turn"))
        return state

    def winning_points(self, state) -> int:
        """The balls of the turn that completed the pyramid."""
        if sole_winner(state) is None or state.position.occupied != ALL_MASK:
            return 0
        return sum(1 << p for p in state.placed)

    # -- text -------------------------------------------------------------------
    def status_lines(self, state) -> list[str]:
        """The pile of each colour and what the mover still has to do."""
        pile = [f"{PER_COLOUR - state.position.count(c)} {COLOUR_NAMES[c]}" for c in COLOURS]
        lines = [f"Balls not on the pyramid: {', '.join(pile)}."]
        if state.result is not None:
            return lines
        me = self.player_name(state.to_move)
        if self.removing(state):
            lines.append(f"{me} takes away a ball that is not pinned and was not "
                         "placed this turn.")
        else:
            due = [f"a {COLOUR_NAMES[c]}" for c in self.due(self.masks(state), state.placed)]
            balls = " and ".join([", ".join(due[:-1]), due[-1]] if len(due) > 1 else due)
            lines.append(f"{me} places {balls} ball.")
        return lines

    def transform_state(self, state, perm):
        image = super().transform_state(state, perm)
        return dataclasses.replace(image, placed=tuple(perm[p] for p in state.placed))

    def extra_text(self, state) -> str:
        balls = {slot: ("point", p) for slot, p in zip(SLOTS, state.placed)}
        return write_fields(ply=state.ply, **balls)

    def state_from(self, position, to_move, extras):
        fields = read_fields(self, extras, numbers=("ply",), points=SLOTS)
        slots = [fields[s] for s in SLOTS]
        placed = tuple(p for p in slots if p is not None)
        if slots[:len(placed)] != list(placed) or len(set(placed)) != len(placed) \
                or len({position.colour_at(p) for p in placed}) != len(placed) \
                or any(not position.occupied >> p & 1 for p in placed):
            raise NotationError(f"Spawn state {shown(extras)}: ball1, ball2, ball3 name the "
                                "balls placed this turn, in order, of different colours")
        if any(position.count(c) > PER_COLOUR for c in COLOURS) \
                or not no_triplets(position, self.visible):
            raise NotationError(f"Spawn state {shown(position.text())}: at most "
                                f"{PER_COLOUR} balls of a colour, and no ball touching two "
                                "of its own colour")
        state = SpawnState(position, to_move, None, None, fields["ply"], placed)
        if placed and position.occupied != ALL_MASK \
                and not self.can_finish(self.masks(state), placed):
            raise NotationError(f"Spawn state {shown(extras)}: this turn cannot be finished")
        return self.settle(state)
