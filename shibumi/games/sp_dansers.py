"""SP-Dansers: each turn adds a touching white-black pair; White joins north and
south with white balls, Black east and west with black balls.

The turn is Spaiji's (:class:`~shibumi.games.spaiji.TouchingPairGame`): one
white and one black ball, in either order, that touch.  Only the goal differs:
a connection, checked when the pair is complete.

>>> from shibumi import load
>>> m = load('sp-dansers').new_match()
>>> m.push('Bc3'), m.push('c1')
(Move('Bc3.0'), Move('Wc1'))
>>> m.current_player                # the turn passes once both balls are down
1
"""

from __future__ import annotations

import dataclasses
import random

from ..bits import points_in, raised
from ..errors import NotationError, shown
from ..game import GameInfo, Outcome, read_fields
from ..geometry import CONTACTS, NUM_POINTS, SIDE_MASK, TOUCHING_MASK
from ..position import BLACK, WHITE, Position, hidden_mask, playable_mask
from ..registry import register
from .placement import PLACE_MOVES, sole_winner
from .spaiji import PairState, TouchingPairGame, partners

FULL = (1 << NUM_POINTS) - 1
#: Each player's colour and the two sides it must join: White the bottom
#: (south) and top (north) edges, Black the left (west) and right (east) ones.
GOALS = ((WHITE, SIDE_MASK["bottom"], SIDE_MASK["top"]),
         (BLACK, SIDE_MASK["left"], SIDE_MASK["right"]))


def connection(position: Position, player: int) -> int:
    """The union of the player's visible groups that join their two sides (0: none)."""
    colour, first, second = GOALS[player]
    return sum(g for g in position.groups(colour) if g & first and g & second)


def may_connect(mine: int, first: int, second: int) -> bool:
    """Whether balls of ``mine`` touching one another in any way (seen or not) join
    the sides ``first`` and ``second``: a cheap test that every connection passes,
    since a visible group is a set of balls joined by some of their contacts."""
    reached = frontier = mine & first
    if not frontier or not mine & second:
        return False
    while frontier:
        q = (frontier & -frontier).bit_length() - 1
        frontier &= frontier - 1
        new = TOUCHING_MASK[q] & mine & ~reached
        reached |= new
        frontier |= new
    return bool(reached & second)


def pair_starts(occupied: int, playable: int) -> int:
    """The playable points where a first ball leaves a touching playable point for
    the second (Spaiji's ``openings``), from the playable mask: once a ball is at
    ``p`` the playable points are the others and those it raises, and every point
    it raises rests on it, so touches it."""
    found = 0
    left = playable
    while left:
        bit = left & -left
        left ^= bit
        p = bit.bit_length() - 1
        if playable & TOUCHING_MASK[p] or raised(occupied, p):
            found |= bit
    return found


def _crossings():
    """For each point, its flat contacts that a pair above can cross: (bit of the
    other point, the overpass pair)."""
    table = [[] for _ in range(NUM_POINTS)]
    for a, b, over in CONTACTS:
        if over:
            table[a].append((1 << b, over))
            table[b].append((1 << a, over))
    return tuple(tuple(row) for row in table)


_CROSSINGS = _crossings()


def joins_sides(mine: int, occupied: int, first: int, second: int) -> bool:
    """Whether a visible group of ``mine`` touches both sides: :func:`connection`
    on masks. Hidden balls are left out, and a flat contact is cut when both balls
    of its overpass are there (the contacts of :func:`shibumi.position.linked`)."""
    mine &= ~hidden_mask(occupied)
    reached = frontier = mine & first
    if not frontier or not mine & second:
        return False
    while frontier:
        q = (frontier & -frontier).bit_length() - 1
        frontier &= frontier - 1
        near = TOUCHING_MASK[q] & mine & ~reached
        if near:
            for bit, over in _CROSSINGS[q]:
                if near & bit and occupied & over == over:
                    near ^= bit
            reached |= near
            frontier |= near
    return bool(reached & second)


def linked_on_masks(white: int, black: int, player: int) -> bool:
    """Whether the player has a connection, from the colour masks; the cheap
    test (:func:`may_connect`) rules most positions out first."""
    colour, first, second = GOALS[player]
    mine = white if colour == WHITE else black
    return may_connect(mine, first, second) and joins_sides(mine, white | black, first, second)


def is_linked(position: Position, player: int) -> bool:
    """Whether the player has a connection (a non-zero :func:`connection`)."""
    return linked_on_masks(position.white, position.black, player)


@register
class SPDansers(TouchingPairGame):
    info = GameInfo(
        name="SP-Dansers", designer="Emil Danielsen", year="2020",
        family="Connection", source="Annexe 2 of the French edition of the Shibumi Rule Book",
        summary="Every turn adds one white and one black ball that touch; White joins "
                "north to south, Black west to east.",
        complexity=1, aliases=("dansers", "sp_dansers"), max_length=30)
    symmetries = (0, 2, 4, 5)   # identity, half turn and the two mirrors keep the goals

    rules = """\
The board starts empty. One player is White, the other Black; White begins.
On every turn the player to move places two balls on playable points, one
white and one black, in the order they like, and the two must touch each
other. The second ball may rest on a platform the first one has just
completed.

White wins by linking the north edge of the board to the south edge (the top
and bottom rows of holes) with one group of white balls; Black wins by
linking the west edge to the east edge (left and right columns of holes)
with one group of black balls. Groups are joined by contacts seen from
above: hidden balls do not count, and a contact is cut when two touching
balls on the level above pass over it. Black balls linking north and south
win nothing for Black, nor white balls linking west and east for White.

The goals are checked when the turn's second ball is down: whoever is
linked then wins. If the player to move cannot place two touching balls,
the game ends in a draw.
"""
    notes = """\
* The French text asks White for a chain of "visible connected balls"
  without naming a colour, and Black for a chain of black balls. We read
  White's chain as white balls: the text's example (figure lost) has Black
  linking north to south as well as east to west and winning, which a chain
  of balls of any colour would have turned into a win for White too.
* Who starts is not said; White begins, as in Spaiji, whose turn this is.
* "Connected to each other at the end of the move" is read as touching: a
  pair just placed always sees its own contact (nothing rests on either
  ball yet, and no pair above can pass over it), so touching and visible
  connection are the same thing here.
* A turn is two actions by the same player (as in Spaiji): the first names
  its colour, the second is the other colour on a point touching the first.
  A first ball that would leave no touching point for the second is not
  allowed, so a turn never stops half way.
* The goals are checked once the pair is complete, not after the first ball:
  the second ball may cut a contact or bury a ball of the first one's chain.
  Both players can never be linked at once (a north-south chain of visible
  contacts and a west-east one must share a ball, seen from above, because
  overpasses cut underpasses); the tests check it on random games. Should it
  ever happen, the mover would win.
* An edge is the row or column of board holes along it (a corner hole lies
  on two edges); balls above the board touch no edge, as in Span.
* The text does not say what happens when no touching pair fits (it is rare:
  the pyramid has room for fifteen pairs, but a full board with four
  separate balls on the middle of level 1's edges leaves none). Nobody is
  linked then, and no rule can still link anyone, so the game ends drawn.
* A complete pyramid always holds a winner's chain (the Span argument, with
  the colours' goals turned a quarter), so a game that fills the pyramid
  has been won on the way.
"""

    def winners(self, position: Position, mover: int) -> tuple[int, ...]:
        linked = [p for p in (0, 1) if is_linked(position, p)]
        return (mover,) if len(linked) == 2 else tuple(linked)

    def random_playout(self, state, rng: random.Random):
        """Same games as the generic loop, on raw masks (the benchmark path): the first
        ball among the openings (white ones, then black), the second among its
        partners, one draw each; the playable mask is kept up to date ball by ball,
        and :meth:`settle` words the end once it is reached."""
        if state.result is not None:
            return state
        rnd = rng.random
        position, mover, first, last = state.position, state.to_move, state.first, state.last
        masks = [0, position.white, position.black]
        occ = position.occupied
        playable = playable_mask(occ)
        spots = pair_starts(occ, playable) if first is None else 0
        while True:
            if first is None:
                pts = points_in(spots)
                n = len(pts)
                i = int(rnd() * 2 * n)
                colour, first = (WHITE, pts[i]) if i < n else (BLACK, pts[i - n])
                masks[colour] |= 1 << first
                playable = playable & ~(1 << first) | raised(occ, first)
                occ |= 1 << first
            colour = BLACK if masks[WHITE] >> first & 1 else WHITE
            seconds = points_in(playable & TOUCHING_MASK[first])
            second = seconds[int(rnd() * len(seconds))]
            masks[colour] |= 1 << second
            playable = playable & ~(1 << second) | raised(occ, second)
            occ |= 1 << second
            last, first, mover = PLACE_MOVES[colour][second], None, 1 - mover
            if linked_on_masks(masks[WHITE], masks[BLACK], 0) \
                    or linked_on_masks(masks[WHITE], masks[BLACK], 1):
                break
            spots = pair_starts(occ, playable)
            if not spots:
                break
        final = PairState(Position.from_masks(masks[WHITE], masks[BLACK]), mover, None, last)
        return self.settle(final)

    def winning_points(self, state) -> int:
        """The winner's chain from edge to edge."""
        winner = sole_winner(state)
        return 0 if winner is None else connection(state.position, winner)

    def status_lines(self, state) -> list[str]:
        if state.result is not None:
            return []
        if state.first is None:
            return [f"{self.player_name(state.to_move)} places a white and a black ball "
                    "that touch."]
        colour = "black" if state.position.colour_at(state.first) == WHITE else "white"
        return [f"Now the {colour} ball, touching the one just placed."]

    # -- text ----------------------------------------------------------------
    def state_from(self, position, to_move, extras):
        if position.red:
            raise NotationError("SP-Dansers uses only white and black balls")
        first = read_fields(self, extras, points=("first",))["first"]
        if first is not None and (position.colour_at(first) not in (WHITE, BLACK)
                                  or not partners(position.occupied, first)):
            raise NotationError(f"SP-Dansers state: {shown(extras)} must name the white or "
                                "black ball just placed, with a touching playable point left")
        extra = position.count(WHITE) - position.count(BLACK)
        if extra != (0 if first is None else (1 if position.colour_at(first) == WHITE else -1)):
            raise NotationError(f"SP-Dansers state: {position.count(WHITE)} white and "
                                f"{position.count(BLACK)} black balls cannot be reached"
                                + ("" if first is None else f" with {shown(extras)} just placed")
                                + "; every turn places one ball of each colour")
        return self.settle(PairState(position, to_move, None, None, first))

    def settle(self, state):
        """Between turns: a linked player wins; a mover with no pair ends it drawn."""
        if state.first is not None:
            return state
        won = self.winners(state.position, 1 - state.to_move)
        if won:
            (winner,) = won
            edges = "north and south" if winner == 0 else "west and east"
            return dataclasses.replace(state, result=Outcome(
                won, f"{self.player_name(winner)} linked {edges}"))
        occ = state.position.occupied
        if not pair_starts(occ, playable_mask(occ)):
            return dataclasses.replace(state, result=Outcome(
                (), f"{self.player_name(state.to_move)} cannot place two touching balls "
                    "and nobody is linked"))
        return state
