"""Spuds: take out your balls from under red ones; whoever removes more wins.

Each turn has two steps, each one action: remove one of your balls that
holds up exactly one red ball (which drops into its place), then put a new
red ball on a platform.  A step that cannot be taken is skipped.

>>> from shibumi import load
>>> match = load("spuds").new_match()
>>> match.push("d4.1")                   # White cannot remove yet: a red ball only
Move('Rd4.1')
>>> sorted(m.text() for m in match.legal_moves())   # Black's balls under d4
['xc5.0', 'xe3.0']
>>> match.push("xe3.0")                  # the red ball drops into e3 ...
Move('xe3.0')
>>> "Rd4.1" in [m.text() for m in match.legal_moves()]   # ... and may not go back
False
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass

from ..bits import carried, playable_cached, points_in, remove_ball
from ..errors import NotationError
from ..game import Game, GameInfo, Outcome, State, read_fields, write_fields
from ..geometry import BOARD_MASK, SUPPORTED_MASK
from ..notation import REMOVE, Move, point_name
from ..position import BLACK, RED, WHITE, Position
from ..registry import register
from .placement import PLACE_MOVES, REMOVE_MOVES
from ..position import CHECKERBOARD as START

PLAYER_COLOURS = (WHITE, BLACK)
#: Each player's balls at the start, and the red balls of a set.
OWN_BALLS, RED_BALLS = 8, 16
PLATFORMS = ~BOARD_MASK


def removable(position: Position, colour: int) -> int:
    """Balls of a colour that hold up exactly one ball, and that one red.

    A ball holding up two or more is pinned; a ball holding up nothing does
    not qualify either.
    """
    return removable_of(position.mask(colour), position.occupied, position.red)


def removable_of(mine: int, occupied: int, red: int) -> int:
    """:func:`removable` on raw masks (the rules and the playout share it)."""
    covered, pinned = carried(occupied)
    out = candidates = mine & covered & ~pinned       # exactly one ball on each
    for p in points_in(candidates):
        if not SUPPORTED_MASK[p] & red:
            out ^= 1 << p
    return out


def open_platforms(occupied: int, red: int, barred: int | None) -> int:
    """Where the red step may put a ball: a playable platform, not the barred
    point, while the supply lasts (0 when the step is skipped)."""
    if red.bit_count() >= RED_BALLS:
        return 0
    points = playable_cached(occupied) & PLATFORMS
    return points if barred is None else points & ~(1 << barred)


def top_left_empty(drops) -> int:
    """The point a removal leaves empty: the top of the column that dropped."""
    return drops[-1][0]


@dataclass(frozen=True)
class SpudsState(State):
    barred: int | None = None
    """Set between the two steps of a turn that removed a ball: the point the
    red ball dropped from, where this turn's red ball may not go."""


@register
class Spuds(Game):
    info = GameInfo(
        name="Spuds", designer="Micah Fuller", year="2011",
        family="Counting", source="Annexe 1 of the French edition of the Shibumi Rule Book",
        summary="Pull your own balls out from under red ones, adding a red ball each "
                "turn; whoever removes more balls wins.",
        complexity=1, max_length=32)
    symmetries = (0, 2, 6, 7)   # the turns that keep the checkerboard's colours

    rules = """\
Two players, White and Black. The sixteen holes of the board start full,
white and black alternating like a chessboard (a white ball on a1), with
nothing above. The 16 red balls are a shared supply. White moves first.

Your turn has two steps, in this order:

1. Remove one of your own balls, if you can. A ball may be removed when
   exactly one ball rests on it and that ball is red (a ball holding up two
   or more is pinned). The red ball drops into the hole, and any ball
   resting on it drops one step too.
2. Place a red ball from the supply on a playable point above the board
   (the top of four touching balls), but not on a point that held a red
   ball when your turn began: the point a red ball has just dropped from
   is barred.

You must take each step you can; a step you cannot take is skipped.

The game ends when no white or black ball on the board can be removed by
either player (this does not count at the start, when no red ball is in
play yet). The player who removed more balls wins; if both removed the
same number, White wins.
"""
    notes = """\
* Start (figure lost): the board full in a white and black checkerboard, a
  white ball on a1, as in Spight; the other checkerboard is its mirror image,
  so the choice does not matter. Only four turns of the square keep the
  colours: identity, half turn and the two diagonal reflections.
* "Support exactly one red ball" together with "not pinned": exactly one
  ball rests on the ball, and it is red. Only red balls are ever above the
  board (removed balls leave the game, and a removal always drops a red ball
  into the hole), so the board stays full and the red step always uses a
  platform.
* The removal comes first and is compulsory when possible, as the text
  orders. The red ball is then compulsory too: the turn has two actions
  when both can be made. The barred point is the one the removal emptied
  (the top of the column that dropped); no other empty point held a red
  ball at the start of the turn.
* Skipped steps: the red step is skipped when the supply is empty, as the
  text says, and also when no allowed platform is left (the text does not
  foresee it; nothing else can be done). A whole turn with nothing to do
  is skipped too.
* End: "when no ball can be removed from the board any more". We read it
  for both players together: the text lets a player skip a removal they
  cannot make while the game goes on, so one player being unable is not
  the end. The test is made at the start of each turn, the very first
  excepted (the text's "except on the first turn, of course"); a red ball
  placed could make a removal possible again, but the game is already over.
* The set has 16 red balls; once all are in play, turns are removals only.
* Length: at most 16 removals (there are 16 white and black balls) and 16
  red balls, so a game lasts at most 32 actions.
"""

    def initial_state(self, rng=None) -> SpudsState:
        return SpudsState(position=START)

    def transform_state(self, state, perm):
        turned = super().transform_state(state, perm)
        if state.barred is None:
            return turned
        return dataclasses.replace(turned, barred=perm[state.barred])

    def length(self, state) -> int:
        position = state.position
        return 2 * OWN_BALLS - (position.white | position.black).bit_count() \
            + position.red.bit_count()

    def removed(self, position: Position, player: int) -> int:
        """Balls a player has taken out so far."""
        return OWN_BALLS - position.count(PLAYER_COLOURS[player])

    # -- moves ---------------------------------------------------------------------
    def _placements(self, position: Position, barred: int | None) -> list[Move]:
        points = open_platforms(position.occupied, position.red, barred)
        return [PLACE_MOVES[RED][p] for p in points_in(points)]

    def _turn_moves(self, position: Position, player: int) -> list[Move]:
        """The actions open at the start of a turn: removals if any, else red balls."""
        mine = removable(position, PLAYER_COLOURS[player])
        if mine:
            return [REMOVE_MOVES[p] for p in points_in(mine)]
        return self._placements(position, None)

    def legal_moves(self, state, player=None):
        if state.result is not None:
            return []
        if state.barred is not None:
            return self._placements(state.position, state.barred)
        return self._turn_moves(state.position, state.to_move)

    def apply(self, state, move: Move):
        mover = state.to_move
        if move.kind == REMOVE:
            position, drops = state.position.remove(move.point)
            barred = top_left_empty(drops)
            after = SpudsState(position, mover, None, move, barred)
            if self._placements(position, barred):
                return after        # the red step of the same turn
            return self._next_turn(after)
        position = state.position.place(move.point, move.colour)
        return self._next_turn(SpudsState(position, mover, None, move))

    def _next_turn(self, state):
        """Hand the turn over: end the game, skip an empty turn, or let the next player act."""
        position = state.position
        if not removable(position, WHITE) and not removable(position, BLACK):
            return SpudsState(position, state.to_move, self.score(position), state.last)
        following = 1 - state.to_move
        if not self._turn_moves(position, following):
            # Nothing to remove or place: the other player, who can remove, goes on.
            following = state.to_move
        return SpudsState(position, following, None, state.last)

    def random_playout(self, state, rng: random.Random):
        """Same games as the generic loop (same moves in the same order, one
        draw per action), on raw masks with :func:`removable_of` and
        :func:`open_platforms`, the rules' own cores."""
        if state.result is not None:
            return state
        rnd, pos = rng.random, state.position
        masks = [pos.white, pos.black, pos.red]     # colours of players 0 and 1, then red
        occ, mover, barred, last = pos.occupied, state.to_move, state.barred, state.last
        while True:
            place = True
            if barred is None:
                mine = removable_of(masks[mover], occ, masks[2])
                if mine:
                    pts = points_in(mine)
                    p = pts[int(rnd() * len(pts))]
                    occ, column = remove_ball(masks, occ, p)
                    barred, last = column.bit_length() - 1, REMOVE_MOVES[p]
                    if open_platforms(occ, masks[2], barred):
                        continue                # the red step of the same turn
                    place = False
            if place:
                pts = points_in(open_platforms(occ, masks[2], barred))
                p = pts[int(rnd() * len(pts))]
                occ |= 1 << p
                masks[2] |= 1 << p
                last = PLACE_MOVES[RED][p]
            barred = None
            # Hand the turn over, as _next_turn does.
            if not removable_of(masks[0], occ, masks[2]) and \
                    not removable_of(masks[1], occ, masks[2]):
                position = Position.from_masks(*masks)
                return SpudsState(position, mover, self.score(position), last)
            other = 1 - mover
            if removable_of(masks[other], occ, masks[2]) or open_platforms(occ, masks[2], None):
                mover = other

    def score(self, position: Position) -> Outcome:
        white, black = (self.removed(position, p) for p in (0, 1))
        winner = 0 if white >= black else 1
        how = (f"removed {max(white, black)} balls to {min(white, black)}" if white != black
               else f"wins the tie at {white} balls each")
        return Outcome((winner,), f"{self.player_name(winner)} {how}",
                       (float(white), float(black)), ((winner,), (1 - winner,)))

    # -- text ------------------------------------------------------------------------
    def status_lines(self, state) -> list[str]:
        """Balls removed, red balls left, and the barred point between two steps."""
        position = state.position
        white, black = (self.removed(position, p) for p in (0, 1))
        reds = RED_BALLS - position.red.bit_count()
        lines = [f"Balls removed: White {white}, Black {black} (White wins a tie).",
                 f"Red balls left: {reds}."]
        if state.result is None and state.barred is not None:
            lines.append(f"{self.player_name(state.to_move)} now places a red ball, "
                         f"not on {point_name(state.barred)}, where the red ball was.")
        return lines

    def extra_text(self, state) -> str:
        barred = None if state.barred is None else ("point", state.barred)
        return write_fields(barred=barred)

    def state_from(self, position, to_move, extras):
        fields = read_fields(self, extras, points=("barred",))
        if position.occupied & BOARD_MASK != BOARD_MASK or \
                (position.white | position.black) & PLATFORMS:
            raise NotationError("Spuds: the board level is always full, and only red "
                                "balls stand above it")
        if position.red.bit_count() > RED_BALLS or \
                max(position.count(WHITE), position.count(BLACK)) > OWN_BALLS:
            raise NotationError(f"Spuds: {OWN_BALLS} white and {OWN_BALLS} black balls "
                                f"start, and the set has {RED_BALLS} red ones")
        barred = fields["barred"]
        if barred is not None and (position.occupied >> barred & 1
                                   or not self._placements(position, barred)):
            raise NotationError("Spuds: a barred point is the empty point a red ball "
                                "has just dropped from, with a red ball still to place")
        state = self.settle(SpudsState(position, to_move, None, None, barred))
        if state.result is None and not self.legal_moves(state):
            raise NotationError(f"Spuds: {self.player_name(to_move)} has nothing to do "
                                "here, so the turn passes to the other player")
        return state

    def settle(self, state):
        if state.barred is not None or state.position == START:
            return state
        position = state.position
        if not removable(position, WHITE) and not removable(position, BLACK):
            return SpudsState(position, state.to_move, self.score(position))
        return state
