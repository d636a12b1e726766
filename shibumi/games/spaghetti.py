"""Spaghetti: each ball goes next to the last one; the longest unbranched strand wins."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..bits import (flood, hidden_of, links_and_pinned, nth_point, points_in,
                   position_of, raised)
from ..errors import NotationError
from ..game import Game, GameInfo, Outcome, State
from ..geometry import (APEX, BOARD_MASK, DIAGONAL_NEIGHBOURS, FLAT_NEIGHBOURS,
                        NUM_POINTS, SUPPORTED, SUPPORTS, points_of)
from ..notation import Move, point_name
from ..position import BLACK, RED, WHITE, Position
from ..registry import register
from ..game import read_fields, write_fields
from .placement import PLACE_MOVES, playable_bits, playable_points

PLAYER_COLOURS = (WHITE, RED)
#: Once 29 points are filled only the apex is left, and the game ends.
LAST_PLAYED = NUM_POINTS - 1


def _near(p: int) -> int:
    """Points counted as next to p: its same-level neighbours, orthogonal and
    diagonal, and the points above and below that rest on it or hold it up."""
    mask = 0
    for q in FLAT_NEIGHBOURS[p] + DIAGONAL_NEIGHBOURS[p] + SUPPORTED[p] + SUPPORTS[p]:
        mask |= 1 << q
    return mask


NEAR: tuple[int, ...] = tuple(_near(p) for p in range(NUM_POINTS))


def longest_strand(nodes: int, neighbours) -> int:
    """Balls in the longest simple path of a graph (no ball used twice).

    ``nodes`` is a mask of points, ``neighbours(p)`` a mask of the points
    joined to p; only joins inside ``nodes`` count.
    """
    return longest_path(nodes, {p: neighbours(p) & nodes for p in points_of(nodes)})


def longest_path(nodes: int, adj) -> int:
    """:func:`longest_strand` with the joins given as a table: ``adj[p]`` holds
    the points joined to p for every p of ``nodes`` (points outside ``nodes``
    are ignored), such as the links of :func:`shibumi.bits.links_and_pinned`.

    One connected part at a time; a part no larger than the best path found
    cannot hold a longer one, nor can the balls left once they are that few.
    """
    best = 0
    left = nodes
    while left.bit_count() > best:
        part = flood(left & -left, nodes, adj)
        left &= ~part
        size = part.bit_count()
        if size > best:
            best = _longest_in_part(part, adj, size, best)
    return best


def _longest_in_part(part: int, adj, size: int, best: int) -> int:
    """The longest path in a connected part larger than ``best``, or ``best`` if
    none is longer: a depth-first search over the paths from one ball after another.

    Three cuts keep it short. A ball with one neighbour can only end a path,
    so with more than two such balls the others are left out of every path:
    reaching that bound ends the search. A path that could not beat the best
    even with every ball still free goes no further. And a ball with at most
    one neighbour left can only end a path, so once the paths from it are
    searched every path through it has been: it drops out of the part, which
    may leave its neighbour with one (the next start is always the ball with
    the fewest neighbours still in).
    """
    if size <= 3:                  # a connected part this small is one strand
        return size
    leaves = forks = 0
    for p in points_in(part):
        degree = (adj[p] & part).bit_count()
        if degree == 1:
            leaves += 1
        elif degree > 2:
            forks += 1
    if not forks:                  # a chain or a ring: one strand through all
        return size
    bound = size - max(0, leaves - 2)
    stack = []
    alive = todo = part
    while todo and alive.bit_count() > best < bound:
        start, fewest = -1, NUM_POINTS
        for p in points_in(todo):
            degree = (adj[p] & alive).bit_count()
            if degree < fewest:
                start, fewest = p, degree
        todo &= ~(1 << start)
        stack.append((start, alive & ~(1 << start), 1))
        while stack:
            p, free, length = stack.pop()
            if length > best:
                best = length
                if best == bound:
                    return best
            if length + free.bit_count() <= best:
                continue               # even every ball left would not beat it
            nxt = adj[p] & free
            length += 1
            while nxt:
                low = nxt & -nxt
                nxt ^= low
                stack.append((low.bit_length() - 1, free ^ low, length))
        if fewest <= 1:
            alive &= ~(1 << start)
    return best


def strand_length(position: Position, colour: int) -> int:
    """The longest visibly connected, unbranched strand of a colour.

    Only balls seen from above take part, joined by contacts seen from
    above (overpasses cut underpasses); a strand never visits a ball twice,
    so a ball where the strand would have to branch adds nothing.  The
    contacts come from :func:`shibumi.bits.links_and_pinned` (``links[p] &
    occupied`` is ``linked(p, occupied)``), tabled once per occupancy above
    the board: every finished game has the same one.
    """
    occupied = position.occupied
    mine = position.mask(colour) & ~hidden_of(occupied)
    return longest_path(mine, links_and_pinned(occupied)[0])


@dataclass(frozen=True)
class SpaghettiState(State):
    """``anchor``: the point of the ball played last (-1 before the opening);
    ``black_by``: the player who last put down a black ball (-1: nobody)."""
    anchor: int = -1
    black_by: int = -1


@register
class Spaghetti(Game):
    info = GameInfo(
        name="Spaghetti", designer="Phil Leduc", year="2011",
        family="Connection", source="Shibumi Rule Book (2012)",
        summary="Each ball must touch or neighbour the one played just before; at the "
                "end the longer unbranched visible strand wins.",
        complexity=2, max_length=29)
    player_names = ("White", "Red")

    rules = """\
Two players, White and Red. Black balls are neutral.

Opening: White starts by putting a black ball in any hole of the empty
board. That is White's first turn; Red moves next.

Each turn after that, put a ball of your own colour on a playable point next
to the ball played just before it (whoever played it, whatever its colour).
Next to means: beside it on the same level along a row or column, diagonally
beside it on the same level, or on top of it. When no playable point is next
to the last ball, you must instead put a black ball on any playable point,
and the next player then plays next to that black ball.

End: when every point but the apex is filled, a black ball is put on the
apex (by nobody in particular) and the game is scored. Each player's score is
the number of balls in their longest strand: a chain of their own balls, each
visibly touching the next (both seen from above, the contact not cut by an
overpass), that never visits a ball twice and never forks. The longer strand
wins. If the strands are equally long, the player who last put down a black
ball during play loses.
"""
    notes = """\
* The opening black ball is White's first turn, so Red places first among
  the coloured balls, and it counts as the last ball played: Red must play
  next to it.
* "Adjacent" follows the book's list: orthogonal or diagonal neighbours on
  the same level (diagonal ones do not touch, but the text names them), and
  balls resting on the last one. A ball placed later can never lie under an
  earlier one, so "under" never arises. Points on other levels that are
  merely near in the top view do not count.
* "If this is not possible" is read as: no playable point is next to the
  last ball. It is never about running out of balls: White and Red each place
  at most 14 balls of their colour in the 29 turns. A black ball may only be
  placed when forced, and a forced black may go on any playable point, near
  or far; it then becomes the ball the next player must play next to.
* The apex black. The apex only becomes playable when the other 29 points
  are full, so no player ever plays there: the game ends at that moment and
  the black ball is put on top as part of the scoring. It is not anybody's
  black ball for the tie-break (the book's reminder token marks the player
  who placed the last black ball, which would be pointless if the apex
  counted). White's opening black counts, so the tie-break always has an
  answer: with no forced black in the game, White loses ties.
* Strand length counts balls. With the apex filled, the five interior balls
  are hidden and every flat contact under an overpass is cut, so the final
  contact graph is always the same 25 visible points and 60 contacts; a
  strand is a simple path in it restricted to one colour. A ball where the
  path would fork is left out, which is the book's point about Red's ball
  that cannot be counted.
* Black supply. The set has 16 black balls: one for the opening and one for
  the apex leave 14 for forced placements. We do not count them: 10,000
  random games never needed more than 8 forced ones, and a game that ran out
  could use any spare ball as a neutral one.
* Lost figure: the book's final position (White 9 against Red 8, with one
  red ball left out of Red's strand) is not recoverable; the tests build a
  final position with the same numbers and the same uncounted red ball.
"""

    # -- rules -------------------------------------------------------------
    def initial_state(self, rng=None) -> SpaghettiState:
        return SpaghettiState()

    def length(self, state) -> int:
        # The apex black is part of the scoring, not an action.
        return min(state.position.occupied.bit_count(), LAST_PLAYED)

    def legal_moves(self, state, player=None) -> list[Move]:
        if state.result is not None:
            return []
        occupied = state.position.occupied
        playable = playable_points(occupied)
        if state.anchor < 0:
            return [PLACE_MOVES[BLACK][p] for p in playable if BOARD_MASK >> p & 1]
        near = NEAR[state.anchor]
        row = PLACE_MOVES[PLAYER_COLOURS[state.to_move]]
        moves = [row[p] for p in playable if near >> p & 1]
        if moves:
            return moves
        return [PLACE_MOVES[BLACK][p] for p in playable]

    def apply(self, state, move: Move) -> SpaghettiState:
        mover, point = state.to_move, move.point
        position = state.position
        # A legal move (Match checks): placed on the masks, without Position.place's checks.
        masks = [0, position.white, position.black, position.red]
        masks[move.colour] |= 1 << point
        black_by = mover if move.colour == BLACK else state.black_by
        done = position.occupied.bit_count() + 1 == LAST_PLAYED
        if done:                                # the apex black, for the scoring
            masks[BLACK] |= 1 << APEX
        after = position_of(masks[1], masks[2], masks[3])
        result = self.score(after, black_by) if done else None
        return SpaghettiState(after, 1 - mover, result, move, point, black_by)

    def random_playout(self, state, rng):
        """The generic loop's games on raw masks, one draw a ball over
        ``legal_moves``' order: black on the board holes to open, else the
        mover's colour next to the last ball, else black anywhere playable. The
        29th ball is placed again by :meth:`apply`, which adds the apex and scores."""
        if state.result is not None:
            return state
        rnd = rng.random
        position, mover = state.position, state.to_move
        anchor, black_by = state.anchor, state.black_by
        masks = [0, position.white, position.black, position.red]
        occupied = position.occupied
        playable = playable_bits(occupied)
        left = LAST_PLAYED - occupied.bit_count()       # balls still to place
        while True:
            if anchor < 0:
                spots, colour = playable & BOARD_MASK, BLACK
            else:
                spots = playable & NEAR[anchor]
                if spots:
                    colour = PLAYER_COLOURS[mover]
                else:
                    spots, colour = playable, BLACK
            anchor = nth_point(spots, int(rnd() * spots.bit_count()))
            if left == 1:
                break
            left -= 1
            bit = 1 << anchor
            masks[colour] |= bit
            playable = playable & ~bit | raised(occupied, anchor)
            occupied |= bit
            if colour == BLACK:
                black_by = mover
            mover = 1 - mover
        # apply reads only the position, the mover and black_by of the state before.
        before = SpaghettiState(position_of(masks[1], masks[2], masks[3]), mover, None,
                                None, -1, black_by)
        return self.apply(before, PLACE_MOVES[colour][anchor])

    def score(self, position: Position, black_by: int) -> Outcome:
        """The result of a finished game: strand lengths, then the black-ball tie-break."""
        white, red = (strand_length(position, c) for c in PLAYER_COLOURS)
        scores = (float(white), float(red))
        if white != red:
            winner = 0 if white > red else 1
            return Outcome((winner,), f"{self.player_name(winner)}'s strand is longer "
                           f"({white} to {red})", scores)
        winner = 1 - black_by
        return Outcome((winner,), f"strands tied at {white}; "
                       f"{self.player_name(black_by)} placed the last black ball", scores)

    def transform_state(self, state, perm):
        state = super().transform_state(state, perm)
        if state.anchor >= 0:
            state = dataclasses.replace(state, anchor=perm[state.anchor])
        return state

    # -- text ----------------------------------------------------------------
    def status_lines(self, state) -> list[str]:
        """Where the next ball must go, and who loses a tie."""
        lines = []
        if state.result is None and state.anchor >= 0:
            where = point_name(state.anchor)
            near = NEAR[state.anchor]
            if any(near >> p & 1 for p in playable_points(state.position.occupied)):
                lines.append(f"The next ball goes next to {where}, the last ball played.")
            else:
                lines.append(f"Nothing is free next to {where}: "
                             f"{self.player_name(state.to_move)} must put a black ball "
                             "on any playable point.")
        if state.black_by >= 0:
            lines.append(f"{self.player_name(state.black_by)} placed the last black ball "
                         "and loses if the strands tie.")
        return lines

    def extra_text(self, state) -> str:
        return write_fields(last=None if state.anchor < 0 else ("point", state.anchor),
                            black=state.black_by + 1 if state.black_by >= 0 else None)

    def state_from(self, position, to_move, extras):
        fields = read_fields(self, extras, numbers=("black",), points=("last",))
        anchor = -1 if fields["last"] is None else fields["last"]
        black_by = fields["black"] - 1
        occupied = position.occupied
        if not -1 <= black_by <= 1:
            raise NotationError("Spaghetti state: black=1 (White) or black=2 (Red) "
                                "names who last placed a black ball")
        if anchor < 0:
            if occupied or black_by >= 0 or to_move != 0:
                raise NotationError("Spaghetti state: only the empty start, with White "
                                    "to move, has no last=<point>")
        else:
            if not occupied >> anchor & 1:
                raise NotationError("Spaghetti state: last=<point> must name the point "
                                    "of a ball on the board")
            if black_by < 0 or not position.black:
                raise NotationError("Spaghetti state: once the opening black ball is "
                                    "down, black=1 or black=2 is needed")
        if occupied >> APEX & 1 and position.colour_at(APEX) != BLACK:
            raise NotationError("Spaghetti state: only the black scoring ball goes on "
                                "the apex")
        if occupied.bit_count() == LAST_PLAYED:
            raise NotationError("Spaghetti state: with 29 balls down the apex black "
                                "must be in place")
        return self.settle(SpaghettiState(position, to_move, None, None, anchor, black_by))

    def settle(self, state):
        if state.position.occupied >> APEX & 1:
            return dataclasses.replace(state, result=self.score(state.position,
                                                                 state.black_by))
        return state
