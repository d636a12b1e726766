"""Spree: each player picks the colour of the ball the other must place."""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..bits import nth_point, playable_cached, raised
from ..errors import NotationError, shown
from ..game import Game, GameInfo, Outcome, State
from ..geometry import ALL_MASK, LINE_MASKS, LINES_THROUGH, NUM_POINTS
from ..notation import CHOOSE, Move
from ..position import BLACK, COLOUR_LETTERS, COLOUR_NAMES, RED, WHITE, Position
from ..registry import register
from .placement import PLACE_MOVES, playable_points, sole_winner

CHOICES = {c: Move.choose(c) for c in (WHITE, BLACK, RED)}
#: The colours that may be handed, in ``legal_moves``' order, by the colour barred
#: (None at the start, when any may be handed).
_HANDABLE = {None: (WHITE, BLACK, RED), WHITE: (BLACK, RED), BLACK: (WHITE, RED),
             RED: (WHITE, BLACK)}


def winning_lines(position, lines=LINE_MASKS) -> int:
    """The union of `lines` full of white and red, or of black and red, with some
    non-red ball."""
    red, out = position.red, 0
    for colour in (position.white, position.black):
        allowed = colour | red
        for line in lines:
            if allowed & line == line and colour & line:
                out |= line
    return out


def winning_line(position, lines=LINE_MASKS) -> bool:
    """Is one of `lines` full of white and red, or of black and red, with some non-red ball?"""
    return bool(winning_lines(position, lines))


@dataclass(frozen=True)
class SpreeState(State):
    """``hand``: the colour handed over and still to be placed (None while a
    colour is being chosen); ``barred``: while a colour is being chosen, the
    colour placed last, which may not be handed (None at the start)."""
    hand: int | None = None
    barred: int | None = None


@register
class Spree(Game):
    info = GameInfo(
        name="Spree", designer="Avri Klemer", year="2011",
        family="N-in-a-row", source="Shibumi Rule Book (2012)",
        summary="Hand your opponent the colour they must place; any white-and-red "
                "or black-and-red full line wins for whoever places its last ball.",
        complexity=2, max_length=60)
    player_names = ("Player 1", "Player 2")

    rules = """\
Two players share all three colours; no colour belongs to anyone. The
board starts empty.

A turn has two steps. First the player hands the opponent a ball, choosing
its colour (written `=W`, `=B` or `=R`); it may not be the colour of the
ball placed just before (any colour may be handed at the very start). Then
the opponent must put that ball on any playable point (an empty hole, or
the hollow on top of four touching balls), and in turn hands a ball back.
Player 1 hands the first ball, so Player 2 places first.

Whoever places a ball that completes a full-length line on any level (4 on
the board, 3 on level 1, 2 on level 2; rows, columns and diagonals) wins,
provided the line holds only white and red balls, or only black and red
balls, with at least one ball that is not red. A full pyramid without
such a line is a draw.
"""
    notes = """\
* Turn order. The book has players hand a ball to the opponent, who places
  it; the Italian newsletter (seed 003) says the first player begins by
  handing. So Player 1 chooses, Player 2 places and chooses, Player 1
  places and chooses, and so on: after the opening, a turn is a placement
  followed by a choice (two actions by the same player).
* The colour barred from being handed is the colour of the ball placed
  last, whoever handed it.
* Red is optional in a line, but the line needs at least one white or one
  black ball: an all-red line wins for nobody (the newsletter asks for at
  least one ball of the player's own colour, and the book's wording,
  red being optional, treats red as the add-on). A line mixing white and
  black never counts.
* The winner is the player who places the completing ball. The book is
  explicit that the colours belong to no one; the newsletter words the goal
  as "your own colour and red" (White with white lines), which the book
  rules out, so the book is followed. The newsletter's example (threats at
  d6 and f2) works either way and is rebuilt in the tests.
* A full pyramid without a winning line is a draw: an all-red level 2, for
  instance, can leave the game undecided.
* The set holds 16 balls of each colour; the rules never limit the
  supply, and neither does the engine.
* Players are named Player 1 and Player 2, since neither owns a colour.
"""

    def initial_state(self, rng=None) -> State:
        return SpreeState()

    def length(self, state: State) -> int:
        return 2 * state.position.occupied.bit_count() + (state.hand is not None)

    def legal_moves(self, state: State, player: int | None = None) -> list[Move]:
        if state.result is not None:
            return []
        if state.hand is None:
            return [move for c, move in CHOICES.items() if c != state.barred]
        row = PLACE_MOVES[state.hand]
        return [row[p] for p in playable_points(state.position.occupied)]

    def apply(self, state: State, move: Move) -> State:
        if move.kind == CHOOSE:
            return SpreeState(state.position, 1 - state.to_move, None, move, move.colour)
        position = state.position.place(move.point, move.colour)
        result = self._result(position, state.to_move, LINES_THROUGH[move.point])
        return SpreeState(position, state.to_move, result, move, None, move.colour)

    def random_playout(self, state: State, rng: random.Random) -> State:
        """Same games as the generic loop (the colours and the playable points in
        ``legal_moves``' order, one draw per action), on raw masks, the playable
        points kept up to date with ``raised``.  The last placement is made
        again by ``apply``, which words the outcome."""
        if state.result is not None:
            return state
        rnd, pos = rng.random, state.position
        masks = [0, pos.white, pos.black, pos.red]        # indexed by colour
        occ, mover, hand, barred = pos.occupied, state.to_move, state.hand, state.barred
        playable = playable_cached(occ)
        while True:
            if hand is None:                              # hand the opponent a colour
                colours = _HANDABLE[barred]
                hand = colours[int(rnd() * len(colours))]
                mover = 1 - mover
            p = nth_point(playable, int(rnd() * playable.bit_count()))
            bit = 1 << p
            playable ^= bit | raised(occ, p)
            occ |= bit
            masks[hand] |= bit
            if occ == ALL_MASK:
                break
            white, black, red = masks[WHITE], masks[BLACK], masks[RED]
            # A full line wins unless it mixes white and black or is all red.
            for line in LINES_THROUGH[p]:
                if occ & line == line and not (white & line and black & line) \
                        and red & line != line:
                    break
            else:
                barred, hand = hand, None
                continue
            break
        masks[hand] ^= bit
        start = Position.__new__(Position)           # masks the rules made: no checks
        start._set(masks[WHITE], masks[BLACK], masks[RED])
        return self.apply(SpreeState(start, mover, None, None, hand, None),
                          PLACE_MOVES[hand][p])

    def _result(self, position, placer: int, lines=LINE_MASKS) -> Outcome | None:
        if winning_line(position, lines):
            return Outcome((placer,), f"{self.player_name(placer)} completed a line")
        if position.occupied.bit_count() == NUM_POINTS:
            return Outcome((), "the pyramid is complete")
        return None

    def winning_points(self, state: State) -> int:
        """The completed line (white and red, or black and red)."""
        return 0 if sole_winner(state) is None else winning_lines(state.position)

    # -- text --------------------------------------------------------------
    def status_lines(self, state) -> list[str]:
        """The ball handed over, or the colour that may not be handed."""
        if state.result is not None:
            return []
        if state.hand is not None:
            return [f"{self.player_name(state.to_move)} must place the "
                    f"{COLOUR_NAMES[state.hand]} ball {self.player_name(1 - state.to_move)} "
                    "handed over."]
        if state.barred:
            colour = COLOUR_NAMES[state.barred]
            return [f"{colour.capitalize()} may not be handed this turn "
                    f"(a {colour} ball was placed last)."]
        return []

    def extra_text(self, state: State) -> str:
        if state.hand is not None:
            return f"hand={COLOUR_LETTERS[state.hand]}"
        return f"barred={COLOUR_LETTERS[state.barred] if state.barred else '-'}"

    def state_from(self, position, to_move, extras):
        key, _, value = extras.partition("=")
        colour = COLOUR_LETTERS.find(value) if len(value) == 1 else -1
        if key == "hand" and colour > 0:
            state = SpreeState(position, to_move, None, None, colour, None)
        elif key == "barred" and (colour > 0 or value == "-"):
            state = SpreeState(position, to_move, None, None, None, colour if colour > 0 else None)
        else:
            raise NotationError(f"Spree state extras are hand=W|B|R (a ball to place) or "
                                f"barred=W|B|R|- (a colour to choose); got {shown(extras)}")
        return self.settle(state)

    def settle(self, state: State) -> State:
        # The last ball was placed by the player now choosing, or, while a ball
        # waits to be placed, by the player who handed it.
        placer = state.to_move if state.hand is None else 1 - state.to_move
        result = self._result(state.position, placer)
        if result is None:
            return state
        return SpreeState(state.position, state.to_move, result, state.last,
                          state.hand, state.barred)
