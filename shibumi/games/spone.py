"""Spone: fill the pyramid around a red core, placing balls or pushing them in from the side;
the parity of the largest group decides.

Four red balls fill the centre of the board. Each turn adds one ball of the
mover's colour, either on a playable point or pushed in from the edge of a raised
level, shoving the line in front of it along. When the pyramid is full, the
largest one-colour group is counted: even, White wins; odd, Black wins.

>>> from shibumi import load
>>> m = load("spone").new_match()
>>> len(m.legal_moves())                 # 12 empty holes and d4 on the red core
13
>>> m.push("d4"), m.push("a1")
(Move('Wd4.1'), Move('Ba1'))
>>> m.game.status_lines(m.state)[0]
'Largest group now: 1 ball (white and black), odd (a count for Black).'
"""

from __future__ import annotations

import random

from ..bits import points_in, raised
from ..errors import NotationError, UnknownGameError
from ..game import Game, GameInfo, Outcome, State
from ..geometry import ALL_MASK, LEVEL, NUM_POINTS, SUPPORT_MASK
from ..mechanics import STEP, enter
from ..notation import ENTER, Move
from ..position import BLACK, WHITE, Position, hidden_mask, linked, playable_mask
from ..registry import register
from .placement import (PLACE_MOVES, PlacementGame, playable_bits, playable_points,
                        sole_winner)
from .splush import ENTRY_SIDES

PLAYER_COLOURS = (WHITE, BLACK)

#: The start: four red balls in the 2x2 centre of the board (c3, e3, c5, e5).
START = Position("..../.RR./.RR./....|.../.../...|../..|.")
START_BALLS = START.occupied.bit_count()
MOVES = NUM_POINTS - START_BALLS
"""Every turn adds one ball, so a game lasts exactly this many turns."""

#: Entry sides on the raised levels that have rows: levels 1 and 2. (The apex is
#: left out: with a ball on it an entry would push that ball off the pyramid.)
SIDES: tuple[tuple[int, str], ...] = tuple((p, d) for p, d in ENTRY_SIDES if LEVEL[p] <= 2)
ENTER_MOVES = {c: {(p, d): Move.enter(p, d, c) for p, d in SIDES} for c in PLAYER_COLOURS}
CONTACT_CHOICES = ("visible", "all")

_ENTRIES: dict[int, tuple[tuple[tuple[int, str], tuple[int, ...]], ...]] = {}
_CACHE_LIMIT = 100_000


def entries(occupied: int) -> tuple[tuple[tuple[int, str], tuple[int, ...]], ...]:
    """The entry sides where a ball can come in pushing, each with what it moves:
    ``((point, direction), toggles)``, in the order of :data:`SIDES`.

    Only the taken edge points count: entering onto an empty point is a plain
    placement there. Whether a push is allowed, and which points its balls
    leave and reach, depends on where the balls are, not on their colours, so
    the answer is memoised on the occupancy. Each toggle is the mask of one
    pushed ball's from and to points, front ball first (see :func:`entered`).
    """
    found = _ENTRIES.get(occupied)
    if found is None:
        if len(_ENTRIES) >= _CACHE_LIMIT:
            _ENTRIES.clear()
        found = _ENTRIES[occupied] = _find_entries(occupied)
    return found


def _lane(p: int, d: str) -> tuple[int, ...]:
    """The points from ``p`` to the edge of its level, travelling ``d``."""
    lane = [p]
    while STEP[d][lane[-1]] is not None:
        lane.append(STEP[d][lane[-1]])
    return tuple(lane)


def _side_table(p: int, d: str):
    """What an entry at ``(p, d)`` needs: the side, its lane, the mask of the run of
    each length k (its first k points), and for each k the toggles of every pushed
    ball but the front one, front first."""
    lane = _lane(p, d)
    runs = tuple(sum(1 << q for q in lane[:k]) for k in range(len(lane) + 1))
    rear = tuple(tuple(1 << lane[i] | 1 << lane[i + 1] for i in reversed(range(k - 1)))
                 for k in range(len(lane) + 1))
    return (p, d), lane, runs, rear


#: The entry sides grouped by their point (SIDES lists them point by point).
_SIDES_AT = {p: tuple(_side_table(q, d) for q, d in SIDES if q == p) for p, _ in SIDES}
_ENTRY_MASK = sum(1 << p for p in _SIDES_AT)
#: Balls that can rest on a ball of levels 1 and 2 (the lanes' levels).
_HIGH_MASK = sum(1 << p for p in range(NUM_POINTS) if LEVEL[p] >= 2)


def _find_entries(occupied: int):
    """:func:`entries` worked out: the shared push rule (:func:`shibumi.mechanics.enter`)
    on the occupancy alone. The run from the entry point is pushed one step; it may
    not carry a ball, nor leave the level, and its front ball lands on the point
    ahead if that point rests on a full platform, else drops into its one gap if
    that gap is playable (two gaps, or a deeper fall, forbid the entry)."""
    taken = occupied & _ENTRY_MASK
    if not taken:
        return ()
    carrying, high = 0, occupied & _HIGH_MASK
    while high:
        low = high & -high
        high ^= low
        carrying |= SUPPORT_MASK[low.bit_length() - 1]
    found = []
    while taken:
        low = taken & -taken
        taken ^= low
        for side, lane, runs, rear in _SIDES_AT[low.bit_length() - 1]:
            k = 1
            while k < len(lane) and occupied >> lane[k] & 1:
                k += 1
            if k == len(lane) or runs[k] & carrying:
                continue                  # off the level, or a pushed ball carries one
            ahead = lane[k]
            landing, missing = ahead, SUPPORT_MASK[ahead] & ~occupied
            if missing:
                if missing & (missing - 1) or not playable_bits(occupied) & missing:
                    continue
                landing = missing.bit_length() - 1
            found.append((side, (1 << lane[k - 1] | 1 << landing,) + rear[k]))
    return tuple(found)


def pushes(occupied: int) -> tuple[tuple[int, str], ...]:
    """The entry sides (point, direction) where a ball can come in pushing."""
    return tuple(side for side, _ in entries(occupied))


def entered(masks: list, toggles: tuple[int, ...], point: int, colour: int) -> None:
    """Play an entry on colour masks (``masks[colour]``, index 0 unused), in place:
    each pushed ball moves one step along, front first, then the new ball of
    ``colour`` takes ``point``."""
    for toggle in toggles:
        for c in (1, 2, 3):
            if masks[c] & toggle:         # the ball is on its from point, the to point free
                masks[c] ^= toggle
                break
    masks[colour] |= 1 << point


def largest_groups(position: Position, visible_only: bool = True) -> tuple[int, int]:
    """(size of the largest one-colour group of white or black balls, mask of every
    group of that size). Red balls form no scoring group.

    >>> largest_groups(START.place(0, WHITE).place(1, WHITE).place(3, BLACK))
    (2, 3)
    """
    best, mask = 0, 0
    for colour in PLAYER_COLOURS:
        for group in position.groups(colour, visible_only):
            size = group.bit_count()
            if size > best:
                best, mask = size, group
            elif size == best:
                mask |= group
    return best, mask


#: The contacts of a complete pyramid as neighbour masks, seen from above (True:
#: hidden balls have none, crossed contacts are cut) or all of them (False).
_FULL_LINKS = {visible: tuple(linked(p, ALL_MASK, visible) for p in range(NUM_POINTS))
               for visible in (True, False)}
_FULL_HIDDEN = hidden_mask(ALL_MASK)


def largest_when_full(white: int, black: int, visible_only: bool = True) -> int:
    """The size of the largest one-colour group of a complete pyramid (what
    :func:`largest_groups` counts, with the contacts of a full pyramid fixed)."""
    links = _FULL_LINKS[visible_only]
    hidden = _FULL_HIDDEN if visible_only else 0
    best = 0
    for mine in (white, black):
        left = mine & ~hidden
        while left:
            group = frontier = left & -left
            while frontier:
                q = (frontier & -frontier).bit_length() - 1
                frontier &= frontier - 1
                new = links[q] & mine & ~group
                group |= new
                frontier |= new
            left &= ~group
            best = max(best, group.bit_count())
    return best


def parity_winner(count: int) -> int:
    """The player an even (White, 0) or odd (Black, 1) count favours."""
    return count % 2


@register
class Spone(PlacementGame):
    info = GameInfo(
        name="Spone", designer="Giacomo Galimberti", year="2012",
        family="Counting", source="Annexe 1 of the French edition of the Shibumi Rule Book",
        summary="Place a ball or push one in from the side of a raised level until the "
                "pyramid is full; the largest group decides: even, White wins, odd, Black.",
        complexity=2, max_length=MOVES)
    parameters = {"contacts": "visible"}

    rules = """\
Two players, White and Black; White moves first. The pyramid starts with
four red balls filling the 2x2 centre of the board (c3, e3, c5 and e5);
everything else is empty. The reds never move.

On your turn add one ball of your colour, in one of two ways:

1. Placement: put it on any playable point (an empty hole of the board, or
   an empty point resting on a complete platform of four balls).
2. Entry: push it in from the side onto a raised level (level 1 or 2). It
   comes in along a row or column of that level and stops at the edge point
   where it enters, which must already hold a ball: that ball, and the
   balls in an unbroken line behind it, are each pushed one step on. The
   last ball of the line may drop one level, when exactly one ball is
   missing under the point it is pushed to and that gap is itself a
   playable point. An entry is not allowed if it would push a ball off the
   far side of the level, if any pushed ball (the one at the entry point
   included) has a ball resting on it, or if the last ball would have two
   or more gaps under it or fall more than one level.

An entry is written with the point where the new ball stops and the
direction it travels: Wb2+e enters a white ball at b2 going east. A corner
point of a level can be entered from two sides.

Every turn adds one ball and there is always a playable point, so the
pyramid is complete after exactly 26 turns, 13 for each player. Then find
the largest group: balls of one colour, white or black, joined by contacts
seen from above (overpasses cut underpasses, hidden balls do not count).
Count its balls. If the count is even, White wins; if odd, Black wins.
There are no draws.
"""
    notes = """\
* Source: Annexe 1 of the French edition of the Shibumi Rule Book; game by
  Giacomo Galimberti (2012). The text is short; every reading below is
  ours.
* Start: "four red balls in a 2x2 at the centre" is read as the four centre
  holes of the board (c3, e3, c5, e5). No figure is needed and none was
  found. With them in place, d4 of level 1 is playable from the first move.
* Who starts: the text does not say. White moves first, as in the other
  games of the book; with 26 turns each player places 13 balls.
* Largest group "(white or black or both)". Read literally as "a group of
  white and black balls together", the game would be decided before it
  starts: the reds sit under level 2 and are hidden in the full pyramid, so
  all 25 visible balls, white and black, form one group (odd: Black would
  always win), and with every contact counted all 26 white and black balls
  form one (even: White always wins). The tests check both. So we read a
  group as one colour, as everywhere else in the book, and "white or black
  or both" as: the largest group is counted whichever colour it is, and
  when a white group and a black group tie for largest, their common size
  counts.
* Connection: contacts count as the book's definitions say, seen from above:
  hidden balls (the four reds and the ball on d4 of level 1, under the apex)
  belong to no group, and a contact crossed by a pair of balls on the level
  above is cut. A variant `spone(contacts="all")` counts every contact and
  every ball, hidden or not.
* Entries only onto raised levels, as the text says, and only along the
  rows and columns of level 1 and level 2. The apex has no row to travel
  along, and with a ball on it an entry would push that ball off the
  pyramid, which the text forbids; an empty apex is simply placed on.
* An entry pushes: the text describes it as "pushing other balls". An entry
  onto an empty edge point would give exactly the position of a placement
  there, so it is written and counted once, as the placement. Entries are
  only offered where the entry point holds a ball.
* "May cause a drop": the last pushed ball comes down one level when it
  arrives over a single gap that is itself playable, as in the engine's
  shared push rule (Part I, moving balls). With two gaps under it, or a gap
  that is not playable, where it would end is not clear, and the entry is
  not allowed. Nothing may be pushed off the pyramid: the text forbids it.
* Pushed balls carrying a ball: the text does not mention them. A ball with
  a ball resting on it cannot be pushed without tearing the upper ball off
  its platform, so such an entry is not allowed (the engine's shared rule).
* Colours: a turn always adds a ball of the mover's colour, placed or
  entered, so the final pyramid has 13 white, 13 black and the 4 reds, and
  a set's 16 balls of each colour are always enough. A state read from text
  must have the four reds where they started and these counts.
"""

    def __init__(self, **params) -> None:
        super().__init__(**params)
        if self.params["contacts"] not in CONTACT_CHOICES:
            raise UnknownGameError(f"Spone contacts is one of {', '.join(CONTACT_CHOICES)}, "
                                   f"not {self.params['contacts']!r}")
        self.visible_only = self.params["contacts"] == "visible"

    def initial_state(self, rng=None) -> State:
        return State(position=START)

    def length(self, state) -> int:
        return state.position.occupied.bit_count() - START_BALLS

    def legal_moves(self, state, player=None) -> list[Move]:
        if state.result is not None:
            return []
        colour = PLAYER_COLOURS[state.to_move]
        occupied = state.position.occupied
        row, sides = PLACE_MOVES[colour], ENTER_MOVES[colour]
        return [row[p] for p in playable_points(occupied)] + \
            [sides[side] for side, _ in entries(occupied)]

    def apply(self, state, move: Move) -> State:
        position = state.position
        masks = [0, position.white, position.black, position.red]
        if move.kind == ENTER:
            toggles = next((t for side, t in entries(position.occupied)
                            if side == (move.point, move.direction)), None)
            if toggles is None:           # not a legal push: the shared rule says why
                return State(enter(position, move.point, move.direction, move.colour).position,
                             1 - state.to_move, None, move)
            entered(masks, toggles, move.point, move.colour)
        else:
            masks[move.colour] |= 1 << move.point
        position = Position.from_masks(masks[1], masks[2], masks[3])
        return State(position, 1 - state.to_move, self.result_after(position, move.point,
                                                                     state.to_move), move)

    def random_playout(self, state, rng: random.Random) -> State:
        """Same games as the generic loop, on raw masks (the benchmark path): the
        placements, then the entries, one draw each."""
        if state.result is not None:
            return state
        rnd = rng.random
        position, mover, last = state.position, state.to_move, state.last
        masks = [0, position.white, position.black, position.red]
        occ = position.occupied
        playable = playable_mask(occ)
        while occ != ALL_MASK:
            colour = PLAYER_COLOURS[mover]
            pts, sides = points_in(playable), entries(occ)
            i = int(rnd() * (len(pts) + len(sides)))
            if i < len(pts):
                point = pts[i]
                masks[colour] |= 1 << point
                last = PLACE_MOVES[colour][point]
            else:
                side, toggles = sides[i - len(pts)]
                entered(masks, toggles, side[0], colour)
                last = ENTER_MOVES[colour][side]
            # Either way one point more is taken: the placement's, or the push's landing.
            added = (masks[1] | masks[2] | masks[3]) & ~occ
            playable = playable & ~added | raised(occ, added.bit_length() - 1)
            occ |= added
            mover = 1 - mover
        position = Position.from_masks(masks[1], masks[2], masks[3])
        return State(position, mover, self.result_after(position, last.point, 1 - mover), last)

    def result_after(self, position, point, mover) -> Outcome | None:
        if position.occupied != ALL_MASK:
            return None
        count = largest_when_full(position.white, position.black, self.visible_only)
        winner = parity_winner(count)
        return Outcome((winner,), f"the largest group has {count} balls, "
                       f"{'even' if winner == 0 else 'odd'}")

    def settle(self, state: State) -> State:
        result = self.result_after(state.position, None, 1 - state.to_move)
        return State(state.position, state.to_move, result, state.last) if result else state

    def state_from(self, position, to_move, extras):
        if position.red != START.red:
            raise NotationError("Spone: the four red balls stay where they start, on c3, e3, "
                                "c5 and e5 of the board, and there are no others")
        self.check_turn_counts(position, to_move)
        # PlacementGame's own check would refuse the reds: go straight to the base.
        return Game.state_from(self, position, to_move, extras)

    # -- what players read -------------------------------------------------------
    def winning_points(self, state) -> int:
        """The largest group (every group of that size when a white and a black tie)."""
        if sole_winner(state) is None:
            return 0
        return largest_groups(state.position, self.visible_only)[1]

    def status_lines(self, state) -> list[str]:
        """The largest group so far and the parity it favours, and what is left to fill."""
        position = state.position
        count, mask = largest_groups(position, self.visible_only)
        if not count:
            return ["No white or black ball yet. At the end an even largest group wins "
                    "for White, an odd one for Black.",
                    f"{MOVES} balls to go."]
        colours = [name for colour, name in ((WHITE, "white"), (BLACK, "black"))
                   if mask & position.mask(colour)]
        balls = f"{count} ball{'s' if count > 1 else ''} ({' and '.join(colours)})"
        left = NUM_POINTS - position.occupied.bit_count()
        if not left:
            return [f"Largest group: {balls}, {'even' if count % 2 == 0 else 'odd'}: "
                    f"{self.player_name(parity_winner(count))} wins."]
        parity = "even (a count for White)" if count % 2 == 0 else "odd (a count for Black)"
        return [f"Largest group now: {balls}, {parity}.",
                f"{left} ball{'s' if left > 1 else ''} to go before the count."]


__all__ = ["Spone", "START", "SIDES", "entered", "entries", "largest_groups", "parity_winner",
           "pushes"]
