"""Spline: the first Shibumi game — a flat line across any level wins."""

from __future__ import annotations

import random

from ..game import GameInfo, Outcome, State
from ..geometry import LINE_MASKS, LINES_THROUGH, NUM_POINTS
from ..position import Position, hidden_mask, playable_mask
from ..registry import register
from .placement import (PLACE_MOVES, PlacementGame, playable_bits, playable_points,
                        uniform_index)


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

    #: The playout's weights (see :meth:`playout`): a move that leaves one of
    #: the mover's lines one ball short where the missing point cannot be played
    #: yet (a threat the opponent cannot block) counts THREAT_WEIGHT extra,
    #: where it can be played (the opponent must block at once) OPEN_THREAT_WEIGHT
    #: extra, against 1 for any other move.  Chosen on benchmarks/accuracy.py
    #: (1,000 iterations, seeds 1-4, RAVE k 300, exploration 0.7, without
    #: KEEP_OWN_THREATS): 4 and 1 kept the value in 1,581 of 1,600 positions,
    #: 8 and 1 in 1,579, 4 and 2 in 1,579 (the old playout 1,572).
    THREAT_WEIGHT = 4.0
    OPEN_THREAT_WEIGHT = 1.0
    #: Whether the playout also keeps the mover's own unplayable threats closed
    #: (does not fill the last support below one, which would let the opponent
    #: block it) while it has other moves: 1,583 of the 1,600 with it (as above).
    KEEP_OWN_THREATS = True

    def playout(self, state: State, rng: random.Random) -> State:
        """The search's playout: a player completes a line when one is open to
        them, else blocks the opponent's open line, and never opens a point
        above on which the opponent would complete a line (unless every move
        does), nor one below its own line's missing ball (``KEEP_OWN_THREATS``,
        unless every remaining move does); among the other moves it draws at
        random, favouring a move that leaves one of its lines a ball short
        (``THREAT_WEIGHT``, ``OPEN_THREAT_WEIGHT``).  ``random_playout`` stays
        uniform."""
        if state.result is not None or not self.params["count_hidden"]:
            return super().playout(state, rng)
        rnd = rng.random
        masks = [state.position.white, state.position.black]
        occ, mover = state.position.occupied, state.to_move
        full = (1 << NUM_POINTS) - 1
        latent_w, open_w = self.THREAT_WEIGHT, self.OPEN_THREAT_WEIGHT
        keep_own = self.KEEP_OWN_THREATS
        live = LINE_MASKS                                 # lines not yet held by both
        while True:
            pm = playable_bits(occ)
            me, opp = masks[mover], masks[mover ^ 1]
            block = danger = own = 0
            bonus = None
            still = []
            for line in live:
                if line & opp:
                    if line & me:
                        continue
                    still.append(line)
                    gap = line & ~opp
                    if gap & (gap - 1) == 0:              # the opponent's line, a ball short
                        if gap & pm:
                            block |= gap
                        else:
                            danger |= gap
                    continue
                still.append(line)
                gap = line & ~me
                low = gap & -gap
                rest = gap ^ low
                if not rest:                              # the mover's line, a ball short
                    if gap & pm:
                        masks[mover] = me | gap
                        return self._final(masks, mover, gap.bit_length() - 1, Outcome(
                            (mover,), f"{self.player_name(mover)} completed a line"))
                    own |= gap
                elif rest & (rest - 1) == 0 and (low | rest) & pm:   # two short: a threat
                    if bonus is None:
                        bonus = [0.0] * NUM_POINTS
                    bonus[low.bit_length() - 1] += open_w if rest & pm else latent_w
                    bonus[rest.bit_length() - 1] += open_w if low & pm else latent_w
            live = still
            if block:
                p = (block & -block).bit_length() - 1
            else:
                pts = playable_points(occ)
                if danger:
                    safe = [q for q in pts if not playable_bits(occ | 1 << q) & ~pm & danger]
                    pts = safe or pts
                if keep_own and own:
                    keep = [q for q in pts if not playable_bits(occ | 1 << q) & ~pm & own]
                    pts = keep or pts
                if bonus is not None:
                    weights = [1.0 + bonus[q] for q in pts]
                    x = rnd() * sum(weights)
                    p = pts[-1]
                    for q, w in zip(pts, weights):
                        x -= w
                        if x < 0.0:
                            p = q
                            break
                else:
                    p = pts[int(rnd() * len(pts))]
            bit = 1 << p
            occ |= bit
            masks[mover] |= bit
            if occ == full:
                return self._final(masks, mover, p, Outcome((), "the pyramid is complete"))
            mover ^= 1

    #: Search features the MCTS player turns on here (see MCTSPlayer): RAVE with
    #: this equivalence parameter k, keyed by :meth:`amaf_moves`, and UCT's
    #: exploration constant with it.  On benchmarks/accuracy.py (1,000
    #: iterations, this playout, seeds 1-4 and 90 games): k 300 and 0.5 kept
    #: the value in 1,588 of 1,600 positions and won 90 of 90 games; k 300 and
    #: 0.7 (the plain default) 1,583 and 89; k 300 and 1.0 1,579; k 300 and 0.4
    #: 1,588; k 1,000 and 0.7 1,585.
    search_features = {"rave": 300.0, "exploration": 0.5}

    def amaf_moves(self, state: State, final: State):
        """The moves the player to move in ``state`` made on the way to
        ``final`` (a later state of the same game): their balls placed since,
        as placements (the keys of RAVE's all-moves-as-first statistics)."""
        colour = self.colour_of(state.to_move)
        new = final.position.mask(colour) & ~state.position.occupied
        row = PLACE_MOVES[colour]
        out = []
        while new:
            low = new & -new
            out.append(row[low.bit_length() - 1])
            new ^= low
        return out

    def _final(self, masks, mover, point, result):
        return State(Position.from_masks(masks[0], masks[1]), mover ^ 1, result,
                     PLACE_MOVES[self.colour_of(mover)][point])
