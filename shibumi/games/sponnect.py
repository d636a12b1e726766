"""Sponnect: Span played around a small red pyramid, with passing."""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass

from ..bits import flood, links_and_pinned, playable_points_cached
from ..game import Game, GameInfo, Outcome, State, read_fields, write_fields
from ..geometry import NUM_POINTS, points_of
from ..notation import PASS_MOVE, Move
from ..position import INTERIOR_REDS, Position
from ..registry import register
from .placement import PLACE_MOVES, PLAYER_COLOURS, sole_winner, uniform_index
from .span import GOALS, joined, joining_groups, joins


def group_at(p: int, mine: int, occupied: int) -> int:
    """The visible group of the ball at `p` within `mine`: ``group_of(p, mine,
    occupied)``, flooded over the links tabled per occupancy (shibumi.bits)."""
    return flood(1 << p, mine, links_and_pinned(occupied)[0])


@dataclass(frozen=True)
class SponnectState(State):
    ply: int = 0
    """Actions played so far (placements and passes)."""
    passed: bool = False
    """The previous action was a pass (so this player may not pass)."""


@register
class Sponnect(Game):
    info = GameInfo(
        name="Sponnect", designer="Martin Windischer", year="2011",
        family="Connection", source="Shibumi Rule Book (2012)",
        summary="Span around a red core: every ball is seen, passing is allowed, "
                "and someone always connects.",
        aliases=("spconnect",), complexity=1, max_length=50)
    symmetries = (0, 2, 4, 5)   # the goals survive a half turn and the two mirrors

    rules = """\
The game starts with five neutral red balls forming a small pyramid in the
middle: the four centre holes hold red balls and a fifth red ball sits on
them, on level 1. White moves first.

On your turn either put a ball of your own colour on any playable point,
or pass. You may not pass straight after your opponent has passed, so the
two of you can never both pass in a row.

White wants to join the left edge of the board to the right edge, Black the
bottom edge to the top edge, each with one group of their own balls linked
by contacts seen from above (as in Span, a contact crossed by two touching
balls on the level above is cut). Red balls belong to nobody and link
nothing. The first player to make such a group wins at once. Because the
red core fills the only points that can ever be covered, every ball you play
stays in view, and a completed pyramid always holds exactly one winning
group, so the game cannot end without a winner.
"""
    notes = """\
* Start (the figure is lost; the words "interior points" and the catalogue of
  figures agree): red balls on c3, e3, c5, e5 of the board and on d4 of
  level 1.
* Sides are the board holes along each edge, exactly as in Span (a corner
  hole lies on two sides; upper balls lie on no side). Groups use visible
  contacts only; red balls never join a group.
* Passing: allowed unless the previous action was a pass. Two passes in a
  row therefore cannot happen, and the game cannot stall: after a pass the
  next player must place, and there is always a playable point until the
  pyramid is complete, when someone has already won.
* Only the mover can complete a connection: a placement adds one ball of the
  mover's colour and can only bury or cut balls beneath it.
* Length: at most 25 placements and at most one pass before each of them, so
  at most 50 actions. The state counts actions, not balls, because passes add
  no ball.
"""

    def initial_state(self, rng=None) -> SponnectState:
        return SponnectState(position=INTERIOR_REDS)

    def length(self, state) -> int:
        return state.ply

    def connected(self, position: Position, player: int, point: int | None = None) -> bool:
        """True when one of the player's groups joins both of their sides.

        With ``point``, only the group through that point is looked at.
        """
        mine = position.mask(PLAYER_COLOURS[player])
        if point is not None:
            return joined(point, mine, position.occupied, player)
        seen = 0
        for p in points_of(mine & GOALS[player][0]):
            if seen >> p & 1:
                continue
            group = group_at(p, mine, position.occupied)
            if joins(group, player):
                return True
            seen |= group
        return False

    def winning_points(self, state) -> int:
        """The winner's group that joins their two sides."""
        winner = sole_winner(state)
        return 0 if winner is None else joining_groups(state.position,
                                                       PLAYER_COLOURS[winner], winner)

    def _win(self, player: int) -> Outcome:
        return Outcome((player,), f"{self.player_name(player)} joined both sides")

    def legal_moves(self, state, player=None):
        if state.result is not None:
            return []
        row = PLACE_MOVES[PLAYER_COLOURS[state.to_move]]
        moves = [row[p] for p in playable_points_cached(state.position.occupied)]
        if not state.passed:
            moves.append(PASS_MOVE)
        return moves

    def apply(self, state, move: Move):
        mover, ply = state.to_move, state.ply + 1
        if move.kind == "pass":
            return SponnectState(state.position, 1 - mover, None, move, ply, True)
        position = state.position.place(move.point, move.colour)
        result = None
        if self.connected(position, mover, move.point):
            result = self._win(mover)
        elif position.occupied.bit_count() == NUM_POINTS:   # never happens (see notes)
            result = Outcome((), "the pyramid is complete")
        return SponnectState(position, 1 - mover, result, move, ply, False)

    def random_playout(self, state, rng: random.Random):
        """Same games as the generic loop (the placements of legal_moves in its
        order, then the pass, one draw each; the same connection test), on raw
        bit masks."""
        if state.result is not None:
            return state
        pick = uniform_index(rng)
        position = state.position
        masks = [position.white, position.black]
        red, occ, mover = position.red, position.occupied, state.to_move
        ply, passed = state.ply, state.passed
        full = (1 << NUM_POINTS) - 1
        while True:
            points = playable_points_cached(occ)
            k = pick(len(points) if passed else len(points) + 1)
            ply += 1
            passed = k == len(points)
            if not passed:
                p = points[k]
                mine = masks[mover] = masks[mover] | 1 << p
                occ |= 1 << p
                if joined(p, mine, occ, mover) or occ == full:
                    break
            mover ^= 1
        # The last placement is made again by the rules, which word the outcome.
        keep = ~(1 << p)
        before = Position.from_masks(masks[0] & keep, masks[1] & keep, red)
        return self.apply(SponnectState(before, mover, None, None, ply - 1, False),
                          PLACE_MOVES[PLAYER_COLOURS[mover]][p])

    # -- text ----------------------------------------------------------------
    def status_lines(self, state) -> list[str]:
        """After a pass, the next player may not pass."""
        if state.result is None and state.passed:
            return [f"{self.player_name(1 - state.to_move)} passed, so "
                    f"{self.player_name(state.to_move)} may not pass."]
        return []

    def extra_text(self, state) -> str:
        return write_fields(ply=state.ply, passed=state.passed)

    def state_from(self, position, to_move, extras):
        fields = read_fields(self, extras, numbers=("ply",), flags=("passed",))
        return self.settle(SponnectState(position, to_move, None, None,
                                         fields["ply"], fields["passed"]))

    def settle(self, state):
        for player in (1 - state.to_move, state.to_move):   # the last mover first
            if self.connected(state.position, player):
                return dataclasses.replace(state, result=self._win(player))
        if state.position.occupied.bit_count() == NUM_POINTS:
            return dataclasses.replace(state, result=Outcome((), "the pyramid is complete"))
        return state
