"""Span: the simplest Shibumi connection game."""

from __future__ import annotations

import random

from ..bits import flood, links_and_pinned, playable_points_cached
from ..game import GameInfo, Outcome, State
from ..geometry import NUM_POINTS, SIDE_MASK
from ..position import Position
from ..registry import register
from .placement import PLACE_MOVES, PLAYER_COLOURS, PlacementGame, sole_winner, uniform_index

#: The two sides each player must join: White left-right, Black bottom-top.
GOALS = ((SIDE_MASK["left"], SIDE_MASK["right"]),
         (SIDE_MASK["bottom"], SIDE_MASK["top"]))


def joins(group: int, player: int) -> bool:
    """Does a group touch both of the player's sides?"""
    first, second = GOALS[player]
    return bool(group & first and group & second)


def joined(p: int, mine: int, occupied: int, player: int) -> bool:
    """Does the visible group of the ball at `p` (within `mine`) join both of the
    player's sides?  The group is ``group_of(p, mine, occupied)``, flooded over the
    links tabled per occupancy (shibumi.bits); a group within `mine` can only join
    them if `mine` touches both, which saves most floods."""
    first, second = GOALS[player]
    if not (mine & first and mine & second):
        return False
    return joins(flood(1 << p, mine, links_and_pinned(occupied)[0]), player)


def joining_groups(position, colour: int, player: int) -> int:
    """The union of the player's groups (in `colour`) that join both their sides."""
    return sum(g for g in position.groups(colour) if joins(g, player))


@register
class Span(PlacementGame):
    info = GameInfo(
        name="Span", designer="Cameron Browne", year="2011",
        family="Connection", source="Shibumi Rule Book (2012)",
        summary="Join your two sides with a visibly connected group; someone always does.",
        complexity=1, max_length=30)
    symmetries = (0, 2, 4, 5)   # identity, half turn and the two mirrors keep the goals

    rules = """\
Two players, White then Black, start with an empty board and take turns
putting a ball of their own colour on any playable point.

White is trying to link the left edge of the board to the right edge, Black
the bottom edge to the top edge, each with a single group of their own
balls joined by contacts that can be seen from above. A contact counts only
if both balls are in view and no pair of touching balls on the level above
passes over it: overpasses cut underpasses. Whoever completes such a chain
wins at once. A full pyramid always holds exactly one winning chain, so the
game never ends drawn.
"""
    notes = """\
* A ball lies on a side when it sits in one of the board holes along that
  edge (a corner hole lies on two sides). Balls on the upper levels never
  touch a side: seen from above they are inside the board's outline, and the
  no-draw argument (a complete pyramid's visible contacts form a triangulated
  disc whose rim is the ring of twelve edge holes) needs exactly this reading.
* Only the mover is checked after a placement: a placement cannot join an
  opponent's chain, it can only bury balls or cut contacts beneath it.
"""

    def result_after(self, position, point, mover):
        if joined(point, position.mask(self.colour_of(mover)), position.occupied, mover):
            return Outcome((mover,), f"{self.player_name(mover)} joined both sides")
        return None

    def random_playout(self, state, rng: random.Random):
        """Same games as the generic loop (legal_moves' order, one draw a move, the
        same test `joined` as result_after), on raw bit masks."""
        if state.result is not None:
            return state
        pick = uniform_index(rng)
        position = state.position
        masks = [position.white, position.black]
        occ, mover = position.occupied, state.to_move
        full = (1 << NUM_POINTS) - 1
        while True:
            points = playable_points_cached(occ)
            p = points[pick(len(points))]
            mine = masks[mover] = masks[mover] | 1 << p
            occ |= 1 << p
            if joined(p, mine, occ, mover) or occ == full:
                break
            mover ^= 1
        # The last placement is made again by the rules, which word the outcome.
        keep = ~(1 << p)
        before = Position.from_masks(masks[0] & keep, masks[1] & keep)
        return self.apply(State(before, mover), PLACE_MOVES[PLAYER_COLOURS[mover]][p])

    def winning_points(self, state) -> int:
        """The winner's group that joins their two sides."""
        winner = sole_winner(state)
        return 0 if winner is None else joining_groups(state.position,
                                                       self.colour_of(winner), winner)
