"""Sparks: swap coals for sparks until one of your coals crowns the fire.

The board starts full of white and black balls (the coals) in a chessboard
pattern; fourteen red balls (the sparks) wait in a reserve. A turn is one
removal and one or two placements, each a separate action of the mover:

>>> from shibumi import load
>>> m = load("sparks").new_match()
>>> m.push("xa1"), m.push("b2")     # a free coal: a spark fills a1, the coal climbs
(Move('xa1'), Move('Wb2'))
>>> m.push("xc1")                   # c1 holds b2 up: the white coal drops into c1
Move('xc1')
>>> m.game.status_lines(m.state)[1]
'Black holds their coal and a spark: place both, in any order, on playable points.'
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass

from ..bits import carried, points_in, remove_ball
from ..errors import NotationError, UnknownGameError, shown
from ..game import Game, GameInfo, Outcome, State, read_fields, write_fields
from ..geometry import APEX, BOARD_MASK, SUPPORTED_MASK
from ..position import BLACK, RED, WHITE, Position
from ..registry import register
from .placement import PLACE_MOVES, REMOVE_MOVES, playable_points, sole_winner
from ..position import CHECKERBOARD as START

PLAYER_COLOURS = (WHITE, BLACK)
SPARKS = 14
"""Red balls in the reserve at the start (exactly what the pyramid can take)."""
COALS = 8
"""Balls of each player's colour."""
DESIGNER, FRENCH = "designer", "french"


def takeable_of(mine: int, occupied: int, single_drop: bool) -> int:
    """The coals of ``mine`` that may be taken: not pinned (at most one ball on
    them), and with ``single_drop`` (the French reading) not under a column of
    two or more balls, that is, the one ball resting on them carries nothing."""
    covered, pinned = carried(occupied)
    found = mine & occupied & ~pinned
    if single_drop:
        for p in points_in(found & covered):
            if SUPPORTED_MASK[p] & occupied & covered:
                found ^= 1 << p
    return found


@dataclass(frozen=True)
class SparksState(State):
    ply: int = 0
    """Actions played so far."""
    coal: bool = False
    """The mover holds their coal (taken this turn, still to place)."""
    spark: bool = False
    """The mover holds a spark (still to place)."""

    @property
    def reserve(self) -> int:
        """Sparks left in the reserve (the set's fourteen, less those out)."""
        return SPARKS - self.position.count(RED) - self.spark


@register
class Sparks(Game):
    info = GameInfo(
        name="Sparks", designer="Dieter Stein", year="2011",
        family="Completion", source="Annexe 1 of the French edition of the Shibumi Rule Book",
        summary="Lift one of your coals, feed a spark into the fire and put the coal "
                "back on top: the first coal of your colour on the apex wins.",
        complexity=2, max_length=84)
    parameters = {"pinning": DESIGNER}
    symmetries = (0, 2, 6, 7)   # the turns that keep the chessboard's colours

    rules = """\
The board (the fireplace) starts full: eight white and eight black balls, the
coals, alternating like a chessboard with a white ball on a1. The fourteen red
balls, the sparks, form a reserve shared by both players. White moves first.

A turn has two steps.

1. Take one of your coals off the pyramid. You may take a coal with nothing
   on it (a free coal) or with exactly one ball resting on it; a coal under
   two or more balls is pinned and stays. Taking it lets the column above it
   drop one level. You also take a spark from the reserve.
2. Put balls back, depending on what happened:
   * The coal was free: the spark goes into the place the coal left, and you
     put the coal on any playable point.
   * A spark dropped into the coal's place: the spark you took goes back to
     the reserve, and you put the coal on any playable point.
   * A coal (of either colour) dropped into the coal's place: you put both
     balls you hold, the spark and your coal, on playable points, in the
     order you like.

What dropped is the ball that was resting directly on the coal you took.

You win as soon as you put a coal of your own colour on the apex. A player
who has no coal they may take on their turn loses.

Variant `sparks(pinning="french")`: a coal may not be taken when two or more
balls would drop, even stacked in a single column.
"""
    notes = """\
* Start (figure lost): the board full of white and black in a chessboard
  pattern, the sparks in reserve (sure: the designer's own rules and another
  implementation agree). We put white on a1; the other chessboard is the same
  game seen in a mirror, so the choice changes nothing.
* Material: 8 white, 8 black and 14 red make exactly the 30 balls of a full
  pyramid, so the reserve is always what the pyramid still has room for. The
  board level never has a gap: a coal taken from it is replaced by the spark
  or by the ball that drops.
* Which coals may be taken. The French text allows a coal that is free or
  holds exactly one ball, and then forbids one that holds "several balls one
  above another". The designer's own rules say only that the coal must not be
  pinned, that is, hold at most one ball on the level above; a column of
  balls over that one then drops together, as everywhere in the system. We
  follow the designer. The stricter French reading, in which a coal may only
  drop a single ball, is the variant `pinning="french"`.
* What dropped: when a column falls, the ball directly on the coal decides
  (the designer's reading); balls further up only follow it.
* Order: the free-coal spark goes straight into the gap as part of taking the
  coal (written `xa1`; there is no choice to make). When both balls are held
  the player places them in any order, as the designer says; each placement
  is its own action, written `Rd6` for the spark and `Wd6` (or `Bd6`) for the
  coal.
* Running out: the reserve is empty only when the pyramid is full with a
  spark on the apex (a coal on the apex has already won). Then the mover
  takes a coal without a spark; the only gap left after the drop is the apex,
  so the mover puts the coal there and wins. A full pyramid therefore gives
  the game to the next player, if they have a coal they may take.
* Stuck: the text does not say what happens to a player with no coal they
  may take (every one pinned). We make that player lose, the rule the
  system's games usually apply. Random games show it is rare.
* The game always ends, with no repetition rule. A turn that drops a spark
  keeps the number of balls and lowers at least one spark by a level; every
  other turn adds a ball. Adding the spark that brings the count to n puts it
  at most on level 1 for n = 17..25, level 2 for 26..29 and level 3 for 30,
  so all sparks together can only climb 9 + 4x2 + 3 = 20 levels, and so fall
  at most 20 times. That gives at most 14 turns that add a ball (three
  actions each), 20 that drop a spark (two actions) and a last one
  that takes the full pyramid's apex (two actions): at most 84 actions.
* The designer's worked opening (White takes a coal and a spark, Black then
  takes the coal under White's re-placed coal and plays both balls) is
  rebuilt in the tests and the chapter.
"""

    def __init__(self, **params) -> None:
        super().__init__(**params)
        if self.params["pinning"] not in (DESIGNER, FRENCH):
            raise UnknownGameError(f"sparks parameter pinning is {DESIGNER!r} or {FRENCH!r}, "
                                   f"not {self.params['pinning']!r}")
        self.single_drop = self.params["pinning"] == FRENCH

    def initial_state(self, rng=None) -> SparksState:
        return SparksState(position=START)

    def length(self, state) -> int:
        return state.ply

    # -- rules ----------------------------------------------------------------
    def takeable(self, position: Position, player: int) -> int:
        """The player's coals they may take (a mask)."""
        return takeable_of(position.mask(PLAYER_COLOURS[player]), position.occupied,
                           self.single_drop)

    def legal_moves(self, state, player=None):
        if state.result is not None:
            return []
        if not (state.coal or state.spark):
            return [REMOVE_MOVES[p] for p in points_in(self.takeable(state.position,
                                                                       state.to_move))]
        spots = playable_points(state.position.occupied)
        moves = []
        if state.coal:
            row = PLACE_MOVES[PLAYER_COLOURS[state.to_move]]
            moves += [row[p] for p in spots]
        if state.spark:
            moves += [PLACE_MOVES[RED][p] for p in spots]
        return moves

    def apply(self, state, move):
        mover, ply = state.to_move, state.ply + 1
        if move.kind == "remove":
            position, drops = state.position.remove(move.point)
            spark = False
            if not drops:
                position = position.place(move.point, RED)   # the spark fills the gap
            elif position.colour_at(move.point) != RED:
                spark = state.reserve > 0                  # a coal dropped: keep the spark
            return SparksState(position, mover, None, move, ply, True, spark)
        position = state.position.place(move.point, move.colour)
        coal = state.coal and move.colour == RED
        spark = state.spark and move.colour != RED
        if move.colour != RED and move.point == APEX:
            return SparksState(position, mover, self._apex_win(mover), move, ply, False, spark)
        if coal or spark:
            return SparksState(position, mover, None, move, ply, coal, spark)
        return self.settle(SparksState(position, 1 - mover, None, move, ply))

    def _apex_win(self, winner: int) -> Outcome:
        return Outcome((winner,), f"{self.player_name(winner)} put a coal on the apex")

    def random_playout(self, state, rng: random.Random):
        """Same games as the generic loop (same moves in the same order, one
        draw per action), on raw masks with :func:`takeable_of`, the rules' core."""
        if state.result is not None:
            return state
        rnd, pos = rng.random, state.position
        masks = [pos.white, pos.black, pos.red]     # the players' coals, then the sparks
        occ, mover, ply, last = pos.occupied, state.to_move, state.ply, state.last
        coal, spark = state.coal, state.spark
        while True:
            ply += 1
            if not (coal or spark):             # take a coal (one is always takeable here)
                pts = points_in(takeable_of(masks[mover], occ, self.single_drop))
                q = pts[int(rnd() * len(pts))]
                occ, column = remove_ball(masks, occ, q)
                if not column:                  # a free coal: the spark fills the gap
                    masks[2] |= 1 << q
                    occ |= 1 << q
                else:                           # a dropped coal lets the mover keep a spark
                    spark = not masks[2] >> q & 1 and masks[2].bit_count() < SPARKS
                coal, last = True, REMOVE_MOVES[q]
                continue
            spots = playable_points(occ)
            n = len(spots)
            i = int(rnd() * (n * (coal + spark)))   # the coal's moves first, then the spark's
            if coal and i < n:
                p, colour, coal = spots[i], PLAYER_COLOURS[mover], False
                masks[mover] |= 1 << p
            else:
                p, colour, spark = spots[i - n * coal], RED, False
                masks[2] |= 1 << p
            occ |= 1 << p
            last = PLACE_MOVES[colour][p]
            if p == APEX and colour != RED:
                return SparksState(Position.from_masks(*masks), mover, self._apex_win(mover),
                                   last, ply, False, spark)
            if coal or spark:
                continue
            mover = 1 - mover
            if not takeable_of(masks[mover], occ, self.single_drop):   # the mover loses
                return self.settle(SparksState(Position.from_masks(*masks), mover, None,
                                               last, ply))

    def settle(self, state):
        """A coal on the apex has won; between turns, a mover with no coal to take loses."""
        top = state.position.colour_at(APEX)
        if top in PLAYER_COLOURS:
            return dataclasses.replace(state, result=self._apex_win(PLAYER_COLOURS.index(top)))
        if state.coal or state.spark:
            return state
        if not self.takeable(state.position, state.to_move):
            loser = state.to_move
            return dataclasses.replace(state, result=Outcome(
                (1 - loser,), f"{self.player_name(loser)} has no coal to take"))
        return state

    def winning_points(self, state) -> int:
        """The winning coal on the apex."""
        winner = sole_winner(state)
        if winner is None or state.position.colour_at(APEX) != PLAYER_COLOURS[winner]:
            return 0
        return 1 << APEX

    # -- text -----------------------------------------------------------------
    def status_lines(self, state) -> list[str]:
        """The reserve, and what the mover holds."""
        lines = [f"Sparks in the reserve: {state.reserve} of {SPARKS}."]
        if state.result is not None:
            return lines
        me = self.player_name(state.to_move)
        held = [w for w, h in (("their coal", state.coal), ("a spark", state.spark)) if h]
        if held:
            lines.append(f"{me} holds {' and '.join(held)}: place "
                         f"{'both, in any order,' if len(held) == 2 else 'it'} "
                         "on playable points.")
        else:
            lines.append(f"{me} takes a coal that is not pinned.")
        return lines

    def extra_text(self, state) -> str:
        return write_fields(ply=state.ply, coal=state.coal, spark=state.spark)

    def state_from(self, position, to_move, extras):
        fields = read_fields(self, extras, numbers=("ply",), flags=("coal", "spark"))
        state = SparksState(position, to_move, None, None, fields["ply"], fields["coal"],
                            fields["spark"])
        counts = [position.count(c) for c in PLAYER_COLOURS]
        expected = [COALS - (state.coal and p == to_move) for p in range(2)]
        if counts != expected or state.reserve < 0 or position.occupied & BOARD_MASK \
                != BOARD_MASK:
            raise NotationError(
                f"Sparks state {shown(extras)}: the board level is always full, each "
                f"player has {COALS} coals on the pyramid (one fewer for a mover holding "
                f"theirs) and at most {SPARKS} sparks are out; this position has "
                f"{counts[0]} white, {counts[1]} black and {position.count(RED)} red")
        return self.settle(state)
