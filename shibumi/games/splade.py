"""Splade: three-player Spline where a two-coloured spanning line decides the game."""

from __future__ import annotations

import random

from ..bits import nth_point, playable_cached, raised
from ..game import GameInfo, Outcome, State
from ..geometry import ALL_MASK, LINE_MASKS, LINES_THROUGH, NUM_POINTS
from ..errors import UnknownGameError
from ..position import Position
from ..registry import register
from .placement import PLACE_MOVES, PLAYER_COLOURS, PlacementGame, sole_winner

#: The players after and before each player in turn order.
_NEXT, _PREV = (1, 2, 0), (2, 0, 1)


@register
class Splade(PlacementGame):
    info = GameInfo(
        name="Splade", designer="Néstor Romeral Andrés", year="2011",
        family="N-in-a-row", source="Shibumi Rule Book (2012)",
        summary="Three-player Spline: a full line of exactly two colours ends the game, "
                "and the colour that follows the other in turn order takes it.",
        min_players=3, max_players=3, complexity=3, max_length=30)
    parameters = {"winner": "after"}

    rules = """\
Three players, White, Black and Red, play in that order on an empty board.
On your turn put one ball of your own colour on any playable point: an empty
hole, or the hollow on top of a complete 2x2 platform.

Lines are those of Spline: a row, column or diagonal that crosses a level
from side to side or from corner to corner (4 balls on the board, 3 on
level 1, 2 on level 2). The game stops as soon as a placement fills such a
line with balls of exactly two colours. A full line of one colour, or of
all three, does nothing and play goes on.

The winner is decided by the two colours of that line, not by who played
the last ball. Of the two, the player who moves right after the other one in
the cycle White, Black, Red, White... wins: White+Black gives Black the game,
Black+Red gives it to Red, Red+White gives it to White. So finishing a line
with the player after you hands them the win, and finishing it with the
player before you wins it for yourself.

If all 30 balls go in without such a line, the game is drawn.

Variant `splade(winner="before")`: the colour that moves right before the
other wins instead (White+Black: White, Black+Red: Black, Red+White: Red).
"""
    notes = """\
* The book's worked example (its figure is lost) is given with coordinates in
  the Italian newsletter (seed 003): Red to move on a full board can play b4
  or f4 on level 1. b4 fills the column b6-b4-b2 with two white balls and one
  red, so White wins; f4 fills f6-f4-f2 with two red balls and one black, so
  Red wins. The tests rebuild that position (the rest of the board is our
  own filling, chosen so that no line is already decided).
* Lines are Spline's full-length lines. The apex alone is not a line. On
  level 2 a line has two balls, so "exactly two colours" there means two
  balls of different colours.
* Balls that have since been buried under level 2 still count in a line, as
  in Spline's default: they are still in the line, only out of sight.
* Only a line through the ball just played can be completed, and it holds
  the mover's colour, so its partner colour is either the next player's (the
  next player wins) or the previous player's (the mover wins). The book does
  not say what happens when one ball completes two lines that name different
  winners. We give the game to the mover, as the same designer's Splice in
  this book does when one move completes lines for both players.
* A complete pyramid with no two-coloured line is a draw. Unlike Spline this
  can happen: lines of one colour or of three colours settle nothing.
* The variant is the book's own: the colour immediately before the other wins.
"""

    def __init__(self, **params) -> None:
        super().__init__(**params)
        if self.params["winner"] not in ("after", "before"):
            raise UnknownGameError("splade parameter winner is 'after' or 'before', "
                                   f"not {self.params['winner']!r}")
        self._step = 1 if self.params["winner"] == "after" else -1

    def pair_winner(self, first: int, second: int) -> int:
        """The player who wins a line of two colours (given as player indices)."""
        return second if (first + self._step) % 3 == second else first

    def _decisive_lines(self, position, lines):
        """(line, the player it wins for) for each full line of exactly two colours."""
        occupied = position.occupied
        masks = (position.white, position.black, position.red)
        for line in lines:
            if occupied & line == line:
                present = [p for p in range(3) if masks[p] & line]
                if len(present) == 2:
                    yield line, self.pair_winner(*present)

    def _line_winners(self, position, lines) -> set[int]:
        return {winner for _, winner in self._decisive_lines(position, lines)}

    def winning_points(self, state: State) -> int:
        """The two-coloured lines that go to the winner."""
        winner, out = sole_winner(state), 0
        for line, owner in self._decisive_lines(state.position, LINE_MASKS):
            if owner == winner:
                out |= line
        return out

    def _decide(self, winners, mover) -> Outcome | None:
        if not winners:
            return None
        # The mover first (see the notes), then the players after the mover.
        winner = min(winners, key=lambda p: (p - mover) % 3)
        return Outcome((winner,), "a line of exactly two colours was completed; "
                                  f"it goes to {self.player_name(winner)}")

    def random_playout(self, state: State, rng: random.Random) -> State:
        """Same games as the generic loop (the playable points in order, one draw
        a move), on raw masks.  A full line through the ball just placed holds
        the mover's colour, so it has exactly two colours when exactly one of
        the other two players has a ball in it; the last placement is made
        again by ``apply``, which names the winner."""
        if state.result is not None:
            return state
        rnd, pos = rng.random, state.position
        masks = [pos.white, pos.black, pos.red]
        occ, mover = pos.occupied, state.to_move
        playable = playable_cached(occ)
        while True:
            p = nth_point(playable, int(rnd() * playable.bit_count()))
            bit = 1 << p
            playable ^= bit | raised(occ, p)
            occ |= bit
            masks[mover] |= bit
            if occ == ALL_MASK:
                break
            after, before = masks[_NEXT[mover]], masks[_PREV[mover]]
            for line in LINES_THROUGH[p]:
                if occ & line == line and (not after & line) != (not before & line):
                    break
            else:
                mover = _NEXT[mover]
                continue
            break
        masks[mover] ^= bit
        start = Position.__new__(Position)          # masks the rules made: no checks
        start._set(*masks)
        return self.apply(State(start, mover), PLACE_MOVES[PLAYER_COLOURS[mover]][p])

    def result_after(self, position, point, mover):
        return self._decide(self._line_winners(position, LINES_THROUGH[point]), mover)

    def settle(self, state):
        """A state from text: every full line counts, settled as if the last mover made it."""
        winners = self._line_winners(state.position, LINE_MASKS)
        result = self._decide(winners, (state.to_move - 1) % 3)
        if result is None and state.position.occupied.bit_count() == NUM_POINTS:
            result = Outcome((), "the pyramid is complete")
        return State(state.position, state.to_move, result) if result else state
