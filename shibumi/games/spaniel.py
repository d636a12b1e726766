"""Spaniel: three players share all three colours, two balls a turn, three in a row."""

from __future__ import annotations

import random

from ..errors import NotationError, shown
from ..game import Game, GameInfo, Outcome, State
from ..geometry import NUM_POINTS
from ..position import BLACK, COLOUR_NAMES, RED, WHITE, Position
from ..registry import register
from .placement import PLACE_MOVES, playable_points, sole_winner, uniform_index
from .sploof import VisibleRuns

#: The colours each player places, in order (the figure, as later recovered).
TURN_COLOURS = ((BLACK, WHITE), (RED, BLACK), (WHITE, RED))
#: Colour of the n-th ball of the game (0-based): the turns chain into B W R B W R ...
BALL_COLOUR = tuple(TURN_COLOURS[(n // 2) % 3][n % 2] for n in range(NUM_POINTS))
RUNS3 = VisibleRuns(3)


def turn_of(balls: int) -> int:
    """The player who places ball number `balls` (0-based)."""
    return (balls // 2) % 3


@register
class Spaniel(Game):
    info = GameInfo(
        name="Spaniel", designer="Joseph Symons-Smyth", year="2012",
        family="N-in-a-row", source="Shibumi Rule Book (2012)",
        summary="Three players each place two balls a turn in fixed colours; whoever "
                "completes a visible line of three touching balls of one colour wins.",
        min_players=3, max_players=3, complexity=2, max_length=30)
    player_names = ("Player 1", "Player 2", "Player 3")
    parameters = {"overpass_cuts": True}

    rules = """\
Three players, who own no colour, start with an empty board. A turn is two
placements on playable points, in colours fixed for each player:

* Player 1: a black ball, then a white ball.
* Player 2: a red ball, then a black ball.
* Player 3: a white ball, then a red ball.

The second ball may go on a platform that the first ball has just completed.
Passing is not allowed.

As soon as a ball completes a line of three touching balls of one colour
that can be seen from above, the player who placed it wins, whatever the
colour; the turn ends there. A line runs along a row or column of one level,
or diagonally from ball to ball up and down the levels (it may zigzag between
two levels). All three balls must be in view, and so must the places where
they touch: two touching balls on the level above that pass over a contact
cut the line.

If the pyramid is completed without such a line the game is drawn. That
takes 15 turns, five each.
"""
    notes = """\
* Colour order (figure lost): from the later description of the figures,
  player 1 places black then white, player 2 red then black, player 3 white
  then red. Chained together the balls come in the repeating order black,
  white, red, so every colour is played ten times in a full game.
* A line is a run of three balls that touch and look straight from above.
  "Visible" is read as in the book's definitions: no ball of the line may be
  hidden, and overpasses cut underpasses, so a contact crossed by two touching
  balls on the level above breaks the line. A variant only asks for the three
  balls to be seen.
* The game ends on the ball that completes a line, even the first ball of a
  turn. The book's example says so: the last ball was red, so the winner was
  player 2 (red first) or player 3 (red second). The French translation adds
  that 24 balls were in, which makes it player 3. The tests rebuild such an
  ending with a position of our own (the figure is lost): player 3's red
  24th ball closes two red lines of three at once.
* The two balls of a turn are placed one after the other, so the second may
  use a point the first made playable.
* A placement can bury a ball or cut a contact but never uncovers anything,
  so only the ball just placed can complete a line, always in its own
  colour, and always for the player who placed it.
* Everything about the turn follows from the number of balls on the board:
  ball n (from 0) is placed by player (n div 2) mod 3. The state text is just
  the position and the player to move.
"""

    def __init__(self, **params) -> None:
        super().__init__(**params)
        self.cuts = self.params["overpass_cuts"]

    def initial_state(self, rng=None) -> State:
        return State()

    def legal_moves(self, state, player=None):
        if state.result is not None:
            return []
        occupied = state.position.occupied
        row = PLACE_MOVES[BALL_COLOUR[occupied.bit_count()]]
        return [row[p] for p in playable_points(occupied)]

    def _result(self, position, point, colour, mover):
        if RUNS3.seen_through(point, position.mask(colour), position.occupied, self.cuts):
            return Outcome((mover,), f"{self.player_name(mover)} completed a line of "
                                     f"three {COLOUR_NAMES[colour]} balls")
        if position.occupied.bit_count() == NUM_POINTS:
            return Outcome((), "the pyramid is complete")
        return None

    def apply(self, state, move):
        mover = state.to_move
        position = state.position.place(move.point, move.colour)
        balls = position.occupied.bit_count()
        return State(position, turn_of(balls),
                     self._result(position, move.point, move.colour, mover), move)

    def winning_points(self, state) -> int:
        """The line of three the winner completed (in whatever colour it is)."""
        if sole_winner(state) is None:
            return 0
        position, out = state.position, 0
        for colour in (WHITE, BLACK, RED):
            out |= RUNS3.shown(position.mask(colour), position.occupied, self.cuts)
        return out

    def state_from(self, position, to_move, extras):
        if extras:
            raise NotationError(f"Spaniel states have no extra fields, got {shown(extras)}")
        balls = position.occupied.bit_count()
        for colour in (WHITE, BLACK, RED):
            due = sum(1 for n in range(balls) if BALL_COLOUR[n] == colour)
            if position.count(colour) != due:
                raise NotationError(
                    f"Spaniel: after {balls} balls there are {due} "
                    f"{COLOUR_NAMES[colour]} ones, not {position.count(colour)}")
        if to_move != turn_of(balls):
            raise NotationError(f"Spaniel: after {balls} balls player {turn_of(balls) + 1} "
                                f"is to move, not player {to_move + 1}")
        return self.settle(State(position, to_move))

    def settle(self, state):
        """A finished game from text: the last ball's placer made any line shown."""
        position = state.position
        balls = position.occupied.bit_count()
        if balls == 0:
            return state
        mover = turn_of(balls - 1)
        for colour in (WHITE, BLACK, RED):
            if RUNS3.seen(position.mask(colour), position.occupied, self.cuts):
                return State(position, state.to_move, Outcome(
                    (mover,), f"{self.player_name(mover)} completed a line of three "
                              f"{COLOUR_NAMES[colour]} balls"))
        if balls == NUM_POINTS:
            return State(position, state.to_move, Outcome((), "the pyramid is complete"))
        return state

    def random_playout(self, state, rng: random.Random):
        """Same games as the generic loop, on bit masks."""
        if state.result is not None:
            return state
        pick = uniform_index(rng)
        masks = [0, state.position.white, state.position.black, state.position.red]
        occ = state.position.occupied
        seen_through, cuts = RUNS3.seen_through, self.cuts
        while True:
            balls = occ.bit_count()
            colour = BALL_COLOUR[balls]
            pts = playable_points(occ)
            p = pts[pick(len(pts))]
            occ |= 1 << p
            masks[colour] |= 1 << p
            if seen_through(p, masks[colour], occ, cuts) or balls + 1 == NUM_POINTS:
                position = Position.from_masks(masks[1], masks[2], masks[3])
                mover = turn_of(balls)
                return State(position, turn_of(balls + 1),
                             self._result(position, p, colour, mover),
                             PLACE_MOVES[colour][p])
