"""Special Cake: bake the pyramid together, then eat it: whoever takes the last piece loses.

A game after Piet Hein's TacTix, in three recipes (``variant``):

1. *Mint and liquorice* (the default): the players build the pyramid, one
   with white balls, the other with black; then they take turns removing a
   single ball or a line of balls holding at least two colours.  Taking the
   last ball loses.
2. *Sweets*: the pyramid is built of 30 balls drawn at random from the bag
   of 48 (chance actions ``=W``, ``=B``, ``=R``); lines may be of any colour.
3. *Poisoned cherry*: as 1, but a red ball crowns the apex, and whoever takes
   it loses.

A line is a run of touching balls in a straight line: along a row or column
of one level, or climbing one level at each step (a ridge or face of the
pyramid).  Its balls are taken one at a time, in any order, each free when
taken; a turn of several balls is several removals, ended by ``pass``.

>>> from shibumi import load
>>> game = load('special cake')
>>> state = game.parse_state('WBWB/BWBW/WBWB/BWBW|BWB/WBW/BWB|WB/BW|W 1 eating ply=30')
>>> len(game.legal_moves(state))     # corners of two levels, level 2, the apex
13
>>> state = game.apply(state, Move('xd4.3'))
>>> moves = [m.text() for m in game.legal_moves(state)]    # the apex's lines go on
>>> len(moves), moves[-1]
(13, 'pass')
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..bits import nth_point
from ..errors import NotationError, UnknownGameError, shown
from ..game import CHANCE, TERMINAL, Game, GameInfo, Outcome, State, read_fields, write_fields
from ..geometry import (APEX, FLAT_NEIGHBOURS, NUM_POINTS, SUPPORT_MASK, SUPPORTED_MASK,
                        points_of, segments, sloped_runs)
from ..notation import PASS_MOVE, Move, point_name, parse_point
from ..position import BLACK, RED, WHITE, Position, playable_mask
from ..registry import register
from .placement import PLACE_MOVES, REMOVE_MOVES, playable_points

FULL = (1 << NUM_POINTS) - 1
MINT, SWEETS, CHERRY = 1, 2, 3
RECIPES = {MINT: "mint and liquorice", SWEETS: "sweets", CHERRY: "poisoned cherry"}
PLAYER_COLOURS = (WHITE, BLACK)
#: The bag of the sweets recipe: 16 balls of each colour.
BAG = 16
DRAWS = {c: Move.choose(c) for c in (WHITE, BLACK, RED)}


def _line_masks() -> tuple[int, ...]:
    """Every run of 2 to 4 touching balls in a straight line, as masks."""
    runs = set()
    for length in (2, 3, 4):
        for run in segments(length):
            if all(b in FLAT_NEIGHBOURS[a] for a, b in zip(run, run[1:])):
                runs.add(sum(1 << p for p in run))
        for run in sloped_runs(length):
            runs.add(sum(1 << p for p in run))
    return tuple(sorted(runs))


#: The lines of the pyramid (150 of them): flat rows and columns, and sloped runs.
LINES = _line_masks()


def lines_in(position: Position, mixed: bool) -> tuple[int, ...]:
    """The lines a player may take from ``position`` (all balls present; with
    ``mixed``, holding at least two colours)."""
    occ = position.occupied
    found = []
    for line in LINES:
        if occ & line != line:
            continue
        if mixed and sum(bool(line & m) for m in (position.white, position.black,
                                                   position.red)) < 2:
            continue
        found.append(line)
    return tuple(found)


def replay(start: Position, taken: tuple[int, ...]):
    """Position after taking the balls first at ``taken`` (in order) from ``start``,
    and ``ids``: for each point, the point its ball stood on in ``start`` (-1: empty).

    Balls drop while a line is eaten, so a ball of the line may have moved.
    """
    ids = [p if start.occupied >> p & 1 else -1 for p in range(NUM_POINTS)]
    position = start
    for ball in taken:
        at = ids.index(ball)
        position, drops = position.remove(at)
        ids[at] = -1
        for src, gap in drops:
            ids[gap], ids[src] = ids[src], -1
    return position, ids


# -- the eating on masks: legal_moves, apply and the playout all use these --------------
#: For each point, (point above, its supports) of the points a ball there helps carry.
_RAISED = tuple(tuple((1 << q, SUPPORT_MASK[q]) for q in range(NUM_POINTS)
                      if SUPPORT_MASK[q] >> p & 1) for p in range(NUM_POINTS))
#: For each point, the lines through it.
LINES_AT = tuple(tuple(line for line in LINES if line >> p & 1) for p in range(NUM_POINTS))
_PINNED: dict[int, int] = {}
_IDENTITY = tuple(range(NUM_POINTS))       # ids at the start of a turn


def pinned(occupied: int) -> int:
    """Balls with two or more balls resting on them (memoised on the upper levels,
    the only ones that can rest on a ball)."""
    upper = occupied >> 16
    mask = _PINNED.get(upper)
    if mask is None:
        mask = 0
        for p in range(25):
            above = occupied & SUPPORTED_MASK[p]
            if above & (above - 1):
                mask |= 1 << p
        _PINNED[upper] = mask
    return mask


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


def take(p: int, occupied: int, ids: list[int]) -> tuple[int, list[int]]:
    """(occupied, ids) once the ball at p is taken and its column drops; ``ids``
    gives, for each point, where its ball stood at the start of the turn (-1:
    empty)."""
    chain = column(p, occupied)
    ids = list(ids)
    for gap, src in zip(chain, chain[1:]):
        ids[gap] = ids[src]
    ids[chain[-1]] = -1
    return occupied & ~(1 << chain[-1]), ids


def take_colours(p: int, masks: list[int], occupied: int) -> tuple[int, int]:
    """Take the ball at p on the colour masks (white, black, red), in place;
    returns its colour index and the point left empty (the top of its column)."""
    chain = column(p, occupied)
    colours = [0 if masks[0] >> q & 1 else 1 if masks[1] >> q & 1 else 2 for q in chain]
    for q, c in zip(chain, colours):
        masks[c] ^= 1 << q
    for q, c in zip(chain, colours[1:]):
        masks[c] |= 1 << q
    return colours[0], chain[-1]


def turn_lines(first: int, masks, mixed: bool) -> tuple[int, ...]:
    """The lines a take that began with the ball first at ``first`` may be: through
    it, whole at the start of the turn (``masks``: white, black, red), and with
    ``mixed`` of two colours or more. Every line the take can grow into holds
    its first ball, so these are all the lines that matter."""
    white, black, red = masks
    occupied = white | black | red
    found = []
    for line in LINES_AT[first]:
        if occupied & line != line:
            continue
        if mixed and (white & line == line or black & line == line or red & line == line):
            continue
        found.append(line)
    return tuple(found)


def _room(taken: int, lines: tuple[int, ...]) -> int:
    """The balls (by start point) that could join the take ``taken``: the others of
    the lines holding it."""
    room = 0
    for line in lines:
        if line & taken == taken:
            room |= line
    return room & ~taken


def extensions(occupied: int, ids: list[int], taken: int, lines: tuple[int, ...],
               first_only: bool = False) -> list[int]:
    """Points whose ball may be taken next in this turn: free, of a line the balls
    ``taken`` (by their start points) belong to, and leaving a take that is, or
    can still grow into, a whole line (only the first found with ``first_only``)."""
    room = _room(taken, lines)
    found = []
    if not room:
        return found
    free = occupied & ~pinned(occupied)
    while free:
        low = free & -free
        free ^= low
        p = low.bit_length() - 1
        ball = ids[p]
        if ball < 0 or not room >> ball & 1:
            continue
        grown = taken | 1 << ball
        if grown not in lines:
            after, moved = take(p, occupied, ids)
            if not extensions(after, moved, grown, lines, True):
                continue
        found.append(p)
        if first_only:
            break
    return found


# The playout follows the balls of a take by two lists instead of :func:`take`'s
# ids: ``ids[q]``, the start point of the ball now at q, and ``spot[b]``, where
# the ball first at b now stands.  Both start as the identity and are copied
# only when a column drops; entries of empty points and taken balls go stale
# and are never read (a point left empty stays empty for the rest of the turn).

def _drop(q: int, occupied: int, spot, ids):
    """(occupied, spot, ids) once the ball at q is taken and its column drops."""
    above = occupied & SUPPORTED_MASK[q]
    if not above:                                         # nothing drops
        return occupied & ~(1 << q), spot, ids
    spot, ids = list(spot), list(ids)
    gap = q
    while above:
        r = above.bit_length() - 1
        b = ids[r]
        ids[gap] = b
        spot[b] = gap
        gap = r
        above = occupied & SUPPORTED_MASK[r]
    return occupied & ~(1 << gap), spot, ids


def _grows(occupied: int, spot, ids, taken: int, lines: tuple[int, ...]) -> list:
    """:func:`extensions` for the playout, as (point, ball) pairs by point: only
    the room balls (of a line holding the take) are looked at, where ``spot``
    says they stand, rather than every free ball."""
    room = _room(taken, lines)
    found = []
    while room:
        low = room & -room
        room ^= low
        b = low.bit_length() - 1
        q = spot[b]
        above = occupied & SUPPORTED_MASK[q]
        if above & (above - 1):                           # pinned
            continue
        grown = taken | low
        if grown not in lines and not _can_grow(*_drop(q, occupied, spot, ids),
                                                grown, lines):
            continue
        found.append((q, b))
    found.sort()
    return found


def _can_grow(occupied: int, spot, ids, taken: int, lines: tuple[int, ...]) -> bool:
    """Whether :func:`_grows` finds anything: the take can still become a line
    (the first_only check of :func:`extensions`; any order will do)."""
    room = 0
    for line in lines:
        if line & taken == taken:
            room |= line
    room &= ~taken
    while room:
        low = room & -room
        room ^= low
        q = spot[low.bit_length() - 1]
        above = occupied & SUPPORTED_MASK[q]
        if above & (above - 1):
            continue
        grown = taken | low
        if grown in lines or _can_grow(*_drop(q, occupied, spot, ids), grown, lines):
            return True
    return False


@dataclass(frozen=True)
class CakeState(State):
    ply: int = 0
    """Actions the players have made (draws not counted)."""
    eating: bool = False
    """The cake is complete and the players are taking it apart."""
    start: Position | None = None
    """The position when the current turn began, while a line is being taken."""
    taken: tuple[int, ...] = ()
    """Balls taken this turn, named by where they stood at the start of the turn."""


@register
class SpecialCake(Game):
    info = GameInfo(
        name="Special Cake", designer="Giacomo Galimberti", year="2012",
        family="Elimination",
        source="Annexe 1 of the French edition of the Shibumi Rule Book",
        summary="Build the pyramid together, then take it apart a ball or a line at a "
                "time, as in TacTix: whoever takes the last ball loses.",
        aliases=("cake", "specialcake"), complexity=2, max_length=90)
    parameters = {"variant": MINT}

    rules = """\
Special Cake is played in two phases, baking and eating, in one of three
recipes (variant 1, 2 or 3). White plays first.

**Baking.** The board starts empty.
* Recipe 1, *mint and liquorice*: the players take turns placing a ball of
  their own colour (White white, Black black) on any playable point until the
  pyramid is complete.
* Recipe 2, *sweets*: the thirty balls are drawn at random from a bag of 48
  (16 of each colour) and stacked up; colours make no difference in this
  recipe, so nobody has a choice to make.
* Recipe 3, *poisoned cherry*: as recipe 1, but when the 29 white and black
  balls are in place a red ball, the cherry, is put on the apex.

**Eating.** Turns keep alternating (White begins after recipes 1 and 2,
Black after recipe 3). On your turn take either one ball or one whole line
of balls. A line is two to four touching balls in a straight line: along a
row or column of one level, or climbing one level at each ball up a ridge
or face of the pyramid. In recipes 1 and 3 a line must hold at least two
colours; in recipe 2 any line will do.

You take the balls one at a time, in the order you like, and each must be
free when you take it (not pinned: no more than one ball resting on it).
When a ball goes, the ball resting on it drops into its place, and so on
up the column; a dropped ball does not join the line, and taking balls
can free others of the line. After each ball you may stop (`pass`) as long
as what you took is a single ball or a whole line; the turn also ends by
itself when nothing more can be taken.

**End.** In recipes 1 and 2, whoever takes the last ball loses. In recipe
3, whoever takes the cherry loses.
"""
    notes = """\
* The three recipes are one game with a parameter: `special cake` (recipe
  1, the basic one), `special cake(variant=2)`, `special cake(variant=3)`.
* "A line of balls flat or one above the other": read as TacTix's rule, a
  run of neighbouring balls (two to four) in a straight line. Flat lines
  follow a row or column of a level (balls diagonal on a level do not touch
  and make no line); lines "one above the other" climb a level at each
  ball, each resting on the one before, along a ridge (a1, b2, c3.2, d4.3)
  or a face (e1, d2, c3.2). Balls stacked straight up (c3.0 under c3.2) do
  not touch and make no line. The line must be whole when the turn starts.
* "Taken in the order of their choice, which can make balls drop and free
  balls of the line": the balls go one by one, each one free (not pinned)
  when it goes; a ball dropping into a gap of the line is a different ball
  and does not belong to it. A part of a line is itself a line if it is a
  run of two or more with the colours required, so a player may stop after
  any ball once what they took is one ball or a whole line (`pass`); when
  nothing may be added the turn ends by itself. A removal that could not be
  completed into a single ball or a line is not offered.
* "At least two colours": counted on the balls of the line. In recipe 3 the
  red cherry counts as a colour.
* Baking in recipes 1 and 3 is part of the game: players place their own
  colour alternately on any playable point (the usual placement rule). In
  recipe 1 each places 15 balls; in recipe 3 White places 15 and Black 14,
  and the cherry goes on the apex by itself (the apex is only playable once
  the other 29 points are full). Turns simply keep alternating into the
  eating phase, so Black eats first in recipe 3.
* Recipe 2 is a game of chance only in its colours, and colours play no
  part in it (any line may be taken, the last ball loses). The text does
  not say who places the drawn balls; any choice would be empty, so the
  engine stacks each drawn ball on the first playable point (board rows
  first, from a1) and the eating starts with White. The draws follow the
  bag: each colour's chance is its share of the balls left.
* Recipe 3 ends as soon as the cherry is taken, whoever holds the rest. A
  player is never forced to take it while another ball remains (the highest
  white or black ball is always free), so the cherry goes last unless
  someone takes it by mistake or with a line.
* Length: 30 placements at most, then at most 30 removals and one `pass`
  per turn: at most 90 actions.
"""

    def __init__(self, **params) -> None:
        super().__init__(**params)
        self.variant = self.params["variant"]
        if self.variant not in RECIPES:
            raise UnknownGameError("special cake parameter variant is 1 (mint and "
                                   "liquorice), 2 (sweets) or 3 (poisoned cherry), "
                                   f"not {self.variant!r}")
        self.mixed = self.variant != SWEETS
        if self.variant == SWEETS:           # only this recipe draws balls
            self.info = dataclasses.replace(self.info, chance=True)

    def initial_state(self, rng=None) -> CakeState:
        return CakeState()

    def length(self, state) -> int:
        return state.ply

    def current_player(self, state) -> int:
        if state.result is not None:
            return TERMINAL
        if self.variant == SWEETS and not state.eating:
            return CHANCE
        return state.to_move

    # -- baking -----------------------------------------------------------------
    def chance_outcomes(self, state):
        if self.current_player(state) != CHANCE:
            return []
        left = [BAG - state.position.count(c) for c in (WHITE, BLACK, RED)]
        total = sum(left)
        return [(DRAWS[c], n / total) for c, n in zip((WHITE, BLACK, RED), left) if n]

    def _bake(self, state, position, move, ply, to_move) -> CakeState:
        if self.variant == CHERRY and position.occupied == FULL & ~(1 << APEX):
            position = position.place(APEX, RED)
        return CakeState(position, to_move, None, move, ply, position.occupied == FULL)

    # -- eating -----------------------------------------------------------------
    def _turn(self, state):
        """(occupied, ids, taken mask, lines) of a turn under way (see :func:`take`)."""
        start = state.start
        occupied, ids = start.occupied, [p if start.occupied >> p & 1 else -1
                                         for p in range(NUM_POINTS)]
        taken = 0
        for ball in state.taken:
            occupied, ids = take(ids.index(ball), occupied, ids)
            taken |= 1 << ball
        lines = turn_lines(state.taken[0], (start.white, start.black, start.red), self.mixed)
        return occupied, ids, taken, lines

    def legal_moves(self, state, player=None):
        if state.result is not None or self.current_player(state) == CHANCE:
            return []
        position = state.position
        if not state.eating:
            row = PLACE_MOVES[PLAYER_COLOURS[state.to_move]]
            return [row[p] for p in playable_points(position.occupied)]
        if not state.taken:
            occupied = position.occupied
            return [REMOVE_MOVES[p] for p in points_of(occupied & ~pinned(occupied))]
        occupied, ids, taken, lines = self._turn(state)
        moves = [REMOVE_MOVES[p] for p in extensions(occupied, ids, taken, lines)]
        if taken.bit_count() == 1 or taken in lines:        # one ball or a whole line
            moves.append(PASS_MOVE)
        return moves

    def apply(self, state, move: Move):
        ply, mover = state.ply + 1, state.to_move
        if move.kind == "choose":
            point = playable_points(state.position.occupied)[0]
            return self._bake(state, state.position.place(point, move.colour), move,
                              state.ply, 0)
        if move.kind == "place":
            return self._bake(state, state.position.place(move.point, move.colour), move,
                              ply, 1 - mover)
        if move.kind == "pass":
            return CakeState(state.position, 1 - mover, None, move, ply, True)
        pos = state.position
        if state.taken:
            occupied, ids, taken, lines = self._turn(state)
            start = state.start
        else:
            occupied, ids, taken, start = pos.occupied, list(range(NUM_POINTS)), 0, pos
            lines = turn_lines(move.point, (pos.white, pos.black, pos.red), self.mixed)
        ball = ids[move.point]
        masks = [pos.white, pos.black, pos.red]
        colour = (WHITE, BLACK, RED)[take_colours(move.point, masks, occupied)[0]]
        occupied, ids = take(move.point, occupied, ids)
        position = Position.from_masks(*masks)
        if (self.variant == CHERRY and colour == RED) or not occupied:
            return CakeState(position, 1 - mover, self._loss(mover, colour), move, ply, True)
        if extensions(occupied, ids, taken | 1 << ball, lines, True):
            return CakeState(position, mover, None, move, ply, True, start,
                             state.taken + (ball,))
        return CakeState(position, 1 - mover, None, move, ply, True)

    def random_playout(self, state, rng):
        """Same games as the generic loop, on raw masks: the same draws, placements
        and takes as ``legal_moves`` and ``apply`` (through :func:`extensions` and
        :func:`take`), no state built until the end."""
        if state.result is not None:
            return state
        rnd = rng.random
        mixed, cherry = self.mixed, self.variant == CHERRY
        if not state.eating:
            masks, mover, ply = self._bake_out(state, rng)[:3]
            occupied = FULL
        else:
            pos = state.position
            masks = [pos.white, pos.black, pos.red]
            occupied, mover, ply = pos.occupied, state.to_move, state.ply
        if state.taken:                                   # a take under way
            occupied, ids, taken, lines = self._turn(state)
            spot = list(_IDENTITY)                        # ids turned round
            for q, ball in enumerate(ids):
                if ball >= 0:
                    spot[ball] = q
            moves = _grows(occupied, spot, ids, taken, lines)
        else:
            taken = 0
        while True:
            if not taken:                                 # a turn begins: any free ball
                free = occupied & ~pinned(occupied)
                p = ball = nth_point(free, int(rnd() * free.bit_count()))
                spot = ids = _IDENTITY
                lines = turn_lines(p, masks, mixed)
            else:
                count = len(moves)
                stop = taken.bit_count() == 1 or taken in lines
                i = int(rnd() * (count + 1 if stop else count))
                if i == count:                            # pass: the take is whole
                    taken, mover, ply = 0, 1 - mover, ply + 1
                    continue
                p, ball = moves[i]
            ply += 1
            # Take the ball at p, as take_colours and _drop do, in one pass up its column.
            bit = 1 << p
            colour = 0 if masks[0] & bit else 1 if masks[1] & bit else 2
            masks[colour] ^= bit
            above = occupied & SUPPORTED_MASK[p]
            if above and lines:
                spot, ids = list(spot), list(ids)
            gap = p
            while above:
                r = above.bit_length() - 1
                high = 1 << r
                masks[0 if masks[0] & high else 1 if masks[1] & high else 2] ^= high | 1 << gap
                if lines:
                    b = ids[r]
                    ids[gap] = b
                    spot[b] = gap
                gap = r
                above = occupied & SUPPORTED_MASK[r]
            occupied &= ~(1 << gap)
            if (cherry and colour == 2) or not occupied:
                break
            if not lines:                                 # a single ball: the turn ends
                mover = 1 - mover
                continue
            taken |= 1 << ball
            moves = _grows(occupied, spot, ids, taken, lines)
            if not moves:                                 # nothing more: the turn ends
                taken, mover = 0, 1 - mover
        colour = (WHITE, BLACK, RED)[colour]
        return CakeState(Position.from_masks(*masks), 1 - mover, self._loss(mover, colour),
                         REMOVE_MOVES[p], ply, True)

    def _bake_out(self, state, rng):
        """The rest of the baking, by the reference draws: the complete cake, as
        (colour masks, player to move, ply, last action)."""
        rnd = rng.random
        pos = state.position
        masks = [pos.white, pos.black, pos.red]
        occupied, mover, ply, last = pos.occupied, state.to_move, state.ply, state.last
        playable = playable_mask(occupied)
        sweets = self.variant == SWEETS
        crown = FULL & ~(1 << APEX) if self.variant == CHERRY else -1
        p = -1
        while occupied != FULL:
            if sweets:                                    # a draw, stacked on the first point
                c = self._draw(masks, rnd())
                low = playable & -playable
                p = low.bit_length() - 1
                last, mover = DRAWS[(WHITE, BLACK, RED)[c]], 0
            else:
                p = nth_point(playable, int(rnd() * playable.bit_count()))
                low = 1 << p
                c, mover, ply = mover, 1 - mover, ply + 1
            masks[c] |= low
            occupied |= low
            playable ^= low
            for above, support in _RAISED[p]:
                if occupied & support == support:         # a platform completed
                    playable |= above
            if occupied == crown:                         # the cherry goes on the apex
                masks[2] |= 1 << APEX
                occupied = FULL
        if not sweets and p >= 0:                         # the last placement
            last = PLACE_MOVES[PLAYER_COLOURS[1 - mover]][p]
        return masks, mover, ply, last

    @staticmethod
    def _draw(masks, r: float) -> int:
        """The colour index :meth:`Game.sample_chance` draws from the bag with ``r``
        (the same sums in the same order as ``chance_outcomes``)."""
        left = [BAG - m.bit_count() for m in masks]
        total = sum(left)
        acc, drawn = 0.0, -1
        for c, n in enumerate(left):
            if n:
                acc += n / total
                drawn = c
                if r < acc:
                    return c
        return drawn

    def _loss(self, mover: int, colour: int) -> Outcome:
        other = 1 - mover
        what = "the poisoned cherry" if self.variant == CHERRY else "the last ball"
        return Outcome((other,), f"{self.player_name(mover)} took {what}",
                       None, ((other,), (mover,)))

    def transform_state(self, state, perm):
        state = super().transform_state(state, perm)
        if state.start is None:
            return state
        return dataclasses.replace(state, start=state.start.transform(perm),
                                   taken=tuple(perm[b] for b in state.taken))

    # -- text -------------------------------------------------------------------
    def status_lines(self, state) -> list[str]:
        """The recipe, the phase, the balls left and a line being taken."""
        lines = [f"Recipe: {RECIPES[self.variant]}."]
        if not state.eating:
            if self.variant == SWEETS:
                left = [BAG - state.position.count(c) for c in (WHITE, BLACK, RED)]
                lines.append("Baking: balls drawn from the bag; left in it: "
                             "{} white, {} black and {} red.".format(*left))
            else:
                lines.append(f"Baking: {30 - state.position.count()} points to fill.")
            return lines
        lines.append(f"Eating: {state.position.count()} balls left.")
        if state.result is None and state.taken:
            names = ", ".join(point_name(b) for b in state.taken)
            lines.append(f"{self.player_name(state.to_move)} has taken {names} (where "
                         "they stood at the start of the turn): take the next ball of "
                         "the line, or stop (pass) once it is one ball or a whole line.")
        return lines

    def extra_text(self, state) -> str:
        text = write_fields(eating=state.eating, ply=state.ply)
        if state.taken:
            text += f" from={state.start.text()} taken=" + ",".join(
                point_name(b) for b in state.taken)
        return text

    def state_from(self, position, to_move, extras):
        tokens, start, taken = [], None, ()
        for token in extras.split():
            if token.startswith("from="):
                start = Position(token[5:])
            elif token.startswith("taken="):
                try:
                    taken = tuple(parse_point(t) for t in token[6:].split(","))
                except NotationError:
                    raise NotationError(f"Special Cake state field {shown(token)}: "
                                        "taken=<point>,<point>,... with long point "
                                        "names") from None
            else:
                tokens.append(token)
        fields = read_fields(self, " ".join(tokens), numbers=("ply",), flags=("eating",))
        eating = fields["eating"]
        self._check_counts(position, to_move, eating)
        if (start is None) != (not taken) or (taken and not eating):
            raise NotationError("Special Cake state: from= and taken= go together, "
                                "while eating, in the middle of a turn")
        state = CakeState(position, to_move, None, None, fields["ply"], eating, start, taken)
        if taken:
            self._check_turn(state)
        return self.settle(state)

    def _check_counts(self, position, to_move, eating) -> None:
        counts = [position.count(c) for c in (WHITE, BLACK, RED)]
        name = self.info.name
        if eating and self.variant != SWEETS and (counts[0] > 15 or counts[1] > 15):
            raise NotationError(f"{name}: at most 15 white and 15 black balls")
        if self.variant == MINT and counts[2]:
            raise NotationError(f"{name} recipe 1 has no red ball")
        if self.variant == CHERRY and counts[2] > 1:
            raise NotationError(f"{name} recipe 3 has one red ball, the cherry")
        if self.variant == SWEETS and max(counts) > BAG:
            raise NotationError(f"{name} recipe 2 draws from 16 balls of each colour")
        if eating:
            return
        if position.occupied == FULL:
            raise NotationError(f"{name}: a complete pyramid is eaten (add 'eating')")
        if self.variant == SWEETS:
            filled = position.occupied      # the balls go on the points in order
            if filled & (filled + 1) or to_move != 0:
                raise NotationError(f"{name} recipe 2 stacks its balls from a1 onwards, "
                                    "White to eat first")
            return
        n = counts[0] + counts[1]
        if counts[2] or (counts[0], counts[1]) != ((n + 1) // 2, n // 2) or n % 2 != to_move:
            raise NotationError(f"{name}: while baking White and Black place in turn, "
                                "White first")

    def _check_turn(self, state) -> None:
        start, taken = state.start, state.taken
        try:
            if len(set(taken)) != len(taken) or any(not start.occupied >> b & 1
                                                    for b in taken):
                raise NotationError("taken balls must be distinct balls of from=")
            position, ids = replay(start, taken)
        except Exception as err:
            raise NotationError(f"Special Cake state: the balls taken this turn cannot "
                                f"be taken from the start of the turn ({err})") from None
        lines = turn_lines(taken[0], (start.white, start.black, start.red), self.mixed)
        mask = sum(1 << b for b in taken)
        if position != state.position or not extensions(position.occupied, ids, mask, lines):
            raise NotationError("Special Cake state: from= and taken= do not lead to "
                                "this position with the turn still under way")

    def settle(self, state):
        if state.eating and not state.position.occupied:
            return dataclasses.replace(state, result=self._loss(1 - state.to_move, WHITE))
        if state.eating and self.variant == CHERRY and not state.position.red:
            return dataclasses.replace(state, result=self._loss(1 - state.to_move, RED))
        return state


__all__ = ["CHERRY", "CakeState", "LINES", "MINT", "SWEETS", "SpecialCake", "lines_in",
           "replay"]
