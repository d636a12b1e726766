"""Spline: the first Shibumi game — a flat line across any level wins."""

from __future__ import annotations

import random

from ..game import GameInfo, Outcome, State
from ..geometry import LINE_MASKS, LINES_THROUGH, NUM_POINTS
from ..position import Position, hidden_mask, playable_mask
from ..registry import register
from .placement import PLACE_MOVES, PlacementGame, playable_points, uniform_index


def _completions(mine: int, playable: int) -> int:
    """Playable points that would complete a line of ``mine``."""
    out = 0
    for line in LINE_MASKS:
        gap = line & ~mine
        if gap & playable and gap & (gap - 1) == 0:
            out |= gap
    return out


def sum_lines(mine: int) -> int:
    """The union of the full-length lines held entirely in a mask."""
    out = 0
    for line in LINE_MASKS:
        if mine & line == line:
            out |= line
    return out


@register
class Spline(PlacementGame):
    info = GameInfo(
        name="Spline", designer="Néstor Romeral Andrés", year="2011",
        family="N-in-a-row", source="Shibumi Rule Book (2012)",
        summary="Place balls of your colour; the first full-length line on any level wins.",
        complexity=1, max_length=30)
    parameters = {"count_hidden": True}

    rules = """\
Two players, White then Black, share an empty board. On your turn put one
ball of your own colour on any playable point: an empty hole, or a hollow
on top of four touching balls (a complete platform).

You win the moment you own a complete straight line on one level that runs
all the way across it: 4 balls on the board, 3 on level 1 or 2 on level 2,
along a row, a column or either diagonal. The game cannot reach the apex
without a winner (see the rules notes).
"""
    notes = """\
* Hidden balls count. A board row can be finished after two of its middle
  balls have been buried under level 2; the balls are still there, so the line
  wins. A variant counts only the balls seen from above.
* The apex alone is not a line: lines need at least two balls.
* Only the mover can complete a line (a placement adds one ball of the
  mover's colour and moves nothing), so only the mover is checked.
* A full pyramid with no line would be a draw; the rule book says this cannot
  happen, and the tests and the mathematics notebook check it.
"""

    def result_after(self, position, point, mover):
        mine = position.mask(self.colour_of(mover))
        if not self.params["count_hidden"]:
            mine &= ~hidden_mask(position.occupied)
            return self._any_line(mine, mover)
        for line in LINES_THROUGH[point]:
            if mine & line == line:
                return Outcome((mover,), f"{self.player_name(mover)} completed a line")
        return None

    def winning_points(self, state: State) -> int:
        """The complete lines of the winner's colour."""
        if state.result is None or len(state.result.winners) != 1:
            return 0
        mine = state.position.mask(self.colour_of(state.result.winners[0]))
        if not self.params["count_hidden"]:
            mine &= ~hidden_mask(state.position.occupied)
        return sum_lines(mine)

    def _any_line(self, mine, mover):
        # With hidden balls excluded, burying a ball can never make a line, but
        # the newly placed ball may complete one anywhere its level allows.
        for lines in LINES_THROUGH:
            for line in lines:
                if mine & line == line:
                    return Outcome((mover,), f"{self.player_name(mover)} completed a line")
        return None

    def random_playout(self, state: State, rng: random.Random) -> State:
        """Same games as the generic loop, on raw bit masks (the benchmark path)."""
        if state.result is not None or not self.params["count_hidden"]:
            return super().random_playout(state, rng)
        pick = uniform_index(rng)
        masks = [state.position.white, state.position.black]
        occ, mover = state.position.occupied, state.to_move
        lines_through = LINES_THROUGH
        while True:
            pts = playable_points(occ)
            p = pts[pick(len(pts))]
            bit = 1 << p
            occ |= bit
            mine = masks[mover] | bit
            masks[mover] = mine
            for line in lines_through[p]:
                if mine & line == line:
                    return self._final(masks, mover, p, Outcome(
                        (mover,), f"{self.player_name(mover)} completed a line"))
            if occ == (1 << NUM_POINTS) - 1:
                return self._final(masks, mover, p, Outcome((), "the pyramid is complete"))
            mover ^= 1

    def winning_move(self, state: State):
        """A placement that completes a line for the mover, if one is open."""
        if state.result is not None or not self.params["count_hidden"]:
            return None
        position = state.position
        mine = (position.white, position.black)[state.to_move]
        win = _completions(mine, playable_mask(position.occupied))
        if not win:
            return None
        return PLACE_MOVES[self.colour_of(state.to_move)][(win & -win).bit_length() - 1]

    def playout(self, state: State, rng: random.Random) -> State:
        """The search's playout: random moves, except that a player completes a
        line when one is open to them, else blocks the opponent's open line, and
        never opens a point above on which the opponent would complete a line
        (unless every move does)."""
        if state.result is not None or not self.params["count_hidden"]:
            return super().playout(state, rng)
        pick = uniform_index(rng)
        masks = [state.position.white, state.position.black]
        occ, mover = state.position.occupied, state.to_move
        full = (1 << NUM_POINTS) - 1
        while True:
            pm = playable_mask(occ)
            win = _completions(masks[mover], pm)
            if win:
                p = (win & -win).bit_length() - 1
                masks[mover] |= 1 << p
                return self._final(masks, mover, p, Outcome(
                    (mover,), f"{self.player_name(mover)} completed a line"))
            block = _completions(masks[mover ^ 1], pm)
            if block:
                p = (block & -block).bit_length() - 1
            else:
                danger = _completions(masks[mover ^ 1], full & ~occ)
                pts = playable_points(occ)
                if danger:
                    safe = [q for q in pts if not playable_mask(occ | 1 << q) & ~pm & danger]
                    pts = safe or pts
                p = pts[pick(len(pts))]
            bit = 1 << p
            occ |= bit
            masks[mover] |= bit
            if occ == full:
                return self._final(masks, mover, p, Outcome((), "the pyramid is complete"))
            mover ^= 1

    def _final(self, masks, mover, point, result):
        return State(Position.from_masks(masks[0], masks[1]), mover ^ 1, result,
                     PLACE_MOVES[self.colour_of(mover)][point])
