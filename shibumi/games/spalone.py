"""Spalone: a solitaire of chance — draw balls from a bag and try to build the whole pyramid.

Ten balls of each colour go into a bag.  Each draw is a chance action of
the game (``=W`` draws a white ball), which a :class:`~shibumi.Match`
resolves from its seeded generator; the player then puts the ball in an
empty hole, or on a finished platform holding at least two balls of its
colour.  A ball that fits nowhere ends the game.

>>> from shibumi import load
>>> game = load('spalone')
>>> game.chance_outcomes(game.initial_state())
[(Move('=W'), 0.3333333333333333), (Move('=B'), 0.3333333333333333), (Move('=R'), 0.3333333333333333)]
>>> state = game.apply(game.initial_state(), Move('=B'))
>>> len(game.legal_moves(state)), game.state_text(state).split()[1:]
(16, ['1', 'drawn=B'])
>>> from shibumi.notation import point_name
>>> pos = Position('..../..../WW../WB..|.../.../...|../..|.')
>>> [point_name(p) for p in points_of(allowed(pos, WHITE) & ~BOARD_MASK)]
['b2']
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass

from ..errors import NotationError, shown
from ..game import CHANCE, TERMINAL, Game, GameInfo, Outcome, State
from ..geometry import ALL_MASK, BOARD_MASK, NUM_POINTS, SUPPORT_MASK, points_of
from ..notation import Move
from ..position import BLACK, COLOUR_LETTERS, COLOUR_NAMES, EMPTY, RED, WHITE, Position
from ..registry import register
from .placement import PLACE_MOVES, playable_bits

COLOURS = (WHITE, BLACK, RED)
#: Balls of each colour in the bag at the start.
PER_COLOUR = 10
#: The chance actions: drawing a ball of each colour.
DRAWS = {c: Move.choose(c) for c in COLOURS}


def allowed(position: Position, colour: int) -> int:
    """Mask of the points where a drawn ball of ``colour`` may go: every empty hole,
    and every playable point above the board with at least two balls of that
    colour among the four it rests on."""
    return allowed_in(position.white, position.black, position.red, colour)


def allowed_in(white: int, black: int, red: int, colour: int) -> int:
    """:func:`allowed` on colour masks."""
    playable = playable_bits(white | black | red)
    out = playable & BOARD_MASK
    upper = playable & ~BOARD_MASK
    mine = (0, white, black, red)[colour]
    while upper:
        low = upper & -upper
        if (mine & SUPPORT_MASK[low.bit_length() - 1]).bit_count() >= 2:
            out |= low
        upper ^= low
    return out


def bag_left(position: Position, drawn: int = EMPTY) -> tuple[int, int, int]:
    """Balls of each colour (white, black, red) still in the bag."""
    return tuple(PER_COLOUR - position.count(c) - (drawn == c) for c in COLOURS)


def well_stacked(position: Position) -> bool:
    """Every ball above the board rests on at least two balls of its own colour
    (true of every position the rules reach, since nothing is ever removed)."""
    masks = (0, position.white, position.black, position.red)
    return all((masks[position.colour_at(q)] & SUPPORT_MASK[q]).bit_count() >= 2
               for q in points_of(position.occupied & ~BOARD_MASK))


def best_chance(position: Position, drawn: int = EMPTY, limit: int = 2_000_000) -> float:
    """The chance that perfect play completes the pyramid from a position.

    Exact expectimax: at each draw, every colour left in the bag with its
    share of the balls left; the player then takes the placement with the best
    chance.  Memoised on the position (the bag follows from it); meant for
    positions late in a game, say from a full board on (about a thousand
    positions), since the count grows fast with the empty points.  With
    ``drawn``, the ball in hand is already known.

    >>> best_chance(Position('RRRR/RRRR/RRRR/RRRR|.../.../...|../..|.'))
    0.0
    """
    full = ALL_MASK
    memo: dict = {}

    def after_draw(w: int, b: int, r: int, colour: int) -> float:
        spots = allowed_in(w, b, r, colour)
        best = 0.0
        while spots and best < 1.0:
            low = spots & -spots
            spots ^= low
            chance = (at_draw(w | low, b, r) if colour == WHITE else
                      at_draw(w, b | low, r) if colour == BLACK else at_draw(w, b, r | low))
            if chance > best:
                best = chance
        return best

    def at_draw(w: int, b: int, r: int) -> float:
        if w | b | r == full:
            return 1.0
        key = (w, b, r)
        found = memo.get(key)
        if found is not None:
            return found
        if len(memo) >= limit:
            raise RuntimeError(f"best_chance passed {limit} positions: start later in the game")
        left = (PER_COLOUR - w.bit_count(), PER_COLOUR - b.bit_count(),
                PER_COLOUR - r.bit_count())
        total = left[0] + left[1] + left[2]
        found = sum(n / total * after_draw(w, b, r, c) for c, n in zip(COLOURS, left) if n)
        memo[key] = found
        return found

    w, b, r = position.white, position.black, position.red
    return after_draw(w, b, r, drawn) if drawn != EMPTY else at_draw(w, b, r)


@dataclass(frozen=True)
class SpaloneState(State):
    drawn: int = EMPTY
    """The colour of the ball in the player's hand (EMPTY when a draw is due)."""


@dataclass(frozen=True)
class SpaloneOutcome(Outcome):
    """A finished game: ``scores[0]`` balls placed; a win (``winners == (0,)``) only
    with all thirty.

    ``returns`` is the share of the pyramid built (1 for a win), so that a
    search player prefers longer games when it cannot see a win.
    """

    def returns(self, num_players: int) -> tuple[float, ...]:
        return (self.scores[0] / NUM_POINTS,)


def _outcome(placed: int, drawn: int = EMPTY) -> SpaloneOutcome:
    if placed == NUM_POINTS:
        return SpaloneOutcome((0,), "the pyramid is complete", (float(placed),))
    return SpaloneOutcome((), f"lost with {placed} balls placed: the {COLOUR_NAMES[drawn]} "
                              "ball drawn fits no empty hole and no platform with two "
                              f"{COLOUR_NAMES[drawn]} balls", (float(placed),))


@register
class Spalone(Game):
    info = GameInfo(
        name="Spalone", designer="Cameron Browne", year="2012",
        family="Puzzle", source="Shibumi Rule Book (2012)",
        summary="A solitaire of chance: draw the balls from a bag one by one and place "
                "each in a hole or on a platform with two balls of its colour; build "
                "the whole pyramid to win.",
        min_players=1, max_players=1, complexity=2, chance=True, max_length=NUM_POINTS)
    player_names = ("Player",)

    rules = """\
A game of patience for one person. Put the thirty balls of the set, ten
white, ten black and ten red, into a bag; the board starts empty.

Draw one ball from the bag without looking, and place it:

1. in any empty hole of the board, whatever its colour, or
2. on a finished platform (four balls in a square, with the point above
   them empty) when at least two of those four balls have the colour of the
   ball in your hand.

Then draw the next ball, and so on. You win when the pyramid is complete,
with all thirty balls in place. You lose as soon as you draw a ball that
fits nowhere: no hole is empty, and no open platform holds two balls of
its colour. Your score is the number of balls you placed.

In the engine each draw is a chance action (`=W`, `=B`, `=R`), made for
you by the match's random generator; your move names the point (`c3`).
"""
    notes = """\
* Source: the Shibumi Rule Book v1.1 (2012); designer Cameron Browne, 2012.
  The text calls it the solitaire form of Spanic, and its placement rule is
  Spanic's: an empty hole, or a platform holding at least two balls of the
  colour placed.
* The platform rule is read as: the point must be playable (its four
  supports are in place and it is empty), and two or more of those four
  supports share the drawn ball's colour. Whether they can be seen from
  above does not matter: the four supports are right under the point.
* Draws come from a real bag: each ball left in it is equally likely, so a
  colour's chance is its share of the balls left (after nine whites and one
  black are out, a white comes next with chance 1 in 20). Ludii's version
  of the game (`Spalone.lud`) agrees on where balls may go and that the game
  is lost when the ball in hand fits nowhere, but it draws each colour
  still available with equal chance, whatever the number of balls left of
  it. We follow the text's bag; the difference shows most near the end of a
  game, where it matters.
* The drawn ball must be placed if it can: the text offers no way to put it
  back or set it aside. So the game is lost exactly when the ball drawn has
  no legal point.
* Score: like Spuzzle, the number of balls placed; only thirty is a win.
  Any ball fits an empty hole, so a game never ends before the sixteenth
  ball: the lowest possible score is 16.
* The lost figure (a game lost to a white ball with no hole free and no
  platform holding two whites) is rebuilt in the tests with a position of
  our own.
* The text warns that some draws cannot be completed whatever one does; the
  chapter measures how often random and search players complete the
  pyramid.
* The sole player is named Player. A lost game ends without a winner (the
  engine then speaks of a draw); for search players its value is the share
  of the pyramid built, a win being worth 1.
"""

    # -- rules ---------------------------------------------------------------------
    def initial_state(self, rng=None) -> SpaloneState:
        return SpaloneState()

    def current_player(self, state) -> int:
        if state.result is not None:
            return TERMINAL
        return CHANCE if state.drawn == EMPTY else 0

    def chance_outcomes(self, state):
        if state.result is not None or state.drawn != EMPTY:
            return []
        left = bag_left(state.position)
        total = sum(left)
        return [(DRAWS[c], n / total) for c, n in zip(COLOURS, left) if n]

    def legal_moves(self, state, player=None):
        if state.result is not None or state.drawn == EMPTY:
            return []
        row = PLACE_MOVES[state.drawn]
        return [row[p] for p in points_of(allowed(state.position, state.drawn))]

    def apply(self, state, move):
        if move.kind == "choose":
            return self.settle(SpaloneState(state.position, 0, None, move, move.colour))
        position = state.position.place(move.point, move.colour)
        return self.settle(SpaloneState(position, 0, None, move, EMPTY))

    def settle(self, state):
        if state.result is not None:
            return state
        placed = state.position.occupied.bit_count()
        if state.drawn == EMPTY and placed == NUM_POINTS:
            return dataclasses.replace(state, result=_outcome(placed))
        if state.drawn != EMPTY and not allowed(state.position, state.drawn):
            return dataclasses.replace(state, result=_outcome(placed, state.drawn))
        return state

    def random_playout(self, state, rng: random.Random):
        """The generic loop's games (draws by the bag, uniform placements), on masks."""
        if state.result is not None:
            return state
        masks = [0, state.position.white, state.position.black, state.position.red]
        drawn, last, rnd = state.drawn, state.last, rng.random
        left = [PER_COLOUR - m.bit_count() for m in masks[1:]]
        if drawn != EMPTY:
            left[drawn - 1] -= 1
        while True:
            if drawn == EMPTY:
                total = left[0] + left[1] + left[2]
                if not total:
                    break
                r = rnd() * total
                drawn = WHITE if r < left[0] else BLACK if r < left[0] + left[1] else RED
                left[drawn - 1] -= 1
                last = DRAWS[drawn]
            spots = allowed_in(masks[1], masks[2], masks[3], drawn)
            if not spots:
                break
            options = points_of(spots)
            p = options[int(rnd() * len(options))]
            masks[drawn] |= 1 << p
            last = PLACE_MOVES[drawn][p]
            drawn = EMPTY
        position = Position.from_masks(masks[1], masks[2], masks[3])
        return self.settle(SpaloneState(position, 0, None, last, drawn))

    # -- text ------------------------------------------------------------------------
    def status_lines(self, state) -> list[str]:
        """The ball drawn and what is left in the bag."""
        lines = []
        if state.result is None and state.drawn != EMPTY:
            lines.append(f"Ball drawn: {COLOUR_NAMES[state.drawn]}.")
        white, black, red = (max(0, n) for n in bag_left(state.position, state.drawn))
        lines.append(f"In the bag: {white} white, {black} black and {red} red balls.")
        return lines

    def extra_text(self, state) -> str:
        return f"drawn={COLOUR_LETTERS[state.drawn]}" if state.drawn != EMPTY else ""

    def state_from(self, position, to_move, extras):
        drawn = EMPTY
        if extras:
            if extras not in ("drawn=W", "drawn=B", "drawn=R"):
                raise NotationError(f"Spalone state field {shown(extras)} not understood; "
                                    "the only field is drawn=W, drawn=B or drawn=R")
            drawn = COLOUR_LETTERS.index(extras[-1])
        if not position.is_stable():
            raise NotationError("Spalone position: a ball is not resting on a full platform")
        if not well_stacked(position):
            raise NotationError("Spalone position: a ball above the board rests on fewer "
                                "than two balls of its colour")
        if min(bag_left(position, drawn)) < 0:
            raise NotationError(f"Spalone uses {PER_COLOUR} balls of each colour: this "
                                "state has more of one colour")
        if drawn != EMPTY and position.occupied.bit_count() == NUM_POINTS:
            raise NotationError("Spalone state: the pyramid is complete, no ball can be "
                                "in hand")
        return self.settle(SpaloneState(position, to_move, None, None, drawn))

    def describe(self, state) -> str:
        text = super().describe(state)
        outcome = state.result
        if outcome is not None and not outcome.winners:
            text = text.replace("Game over: not solved.", "Game over: lost.")
        elif outcome is not None:
            text = text.replace("Game over: Player won.", "Game over: won.")
        elif state.drawn != EMPTY:
            text += f" Ball in hand: {COLOUR_NAMES[state.drawn]}."
        return text


__all__ = ["DRAWS", "PER_COLOUR", "Spalone", "SpaloneOutcome", "SpaloneState", "allowed",
           "allowed_in", "bag_left", "best_chance", "well_stacked"]
