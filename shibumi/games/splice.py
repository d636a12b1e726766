"""Splice: Spline with neutral red balls that every line must mix in."""

from __future__ import annotations

import random

from ..bits import playable_points_cached
from ..errors import NotationError
from ..game import Game, GameInfo, Outcome, State
from ..geometry import BOARD_MASK, LINE_MASKS, LINES_THROUGH, NUM_POINTS, SUPPORT_MASK
from ..notation import Move
from ..position import BLACK, RED, WHITE, Position
from ..registry import register
from .placement import PLACE_MOVES, sole_winner, uniform_index

COLOURS = (WHITE, BLACK)
#: Red balls in a set: red is offered only while fewer than this are in play.
RED_BALLS = 16


def blocked(position) -> bool:
    """No ball can be added: every red ball is in play, the board is full and
    no open platform holds a red ball (the same for both players)."""
    return _blocked(position.occupied, position.red)


def _blocked(occupied: int, red: int) -> bool:
    """:func:`blocked` on masks (the playout's form)."""
    if red.bit_count() < RED_BALLS or occupied & BOARD_MASK != BOARD_MASK:
        return False
    return not any(SUPPORT_MASK[p] & red for p in playable_points_cached(occupied))


def own_points(points, red: int):
    """The points of `points` open to a ball of the mover's colour: board holes,
    and platforms holding at least one red ball (`points` in increasing order)."""
    if not points or BOARD_MASK >> points[-1] & 1:   # board holes only (most of a game)
        return points
    return [p for p in points if BOARD_MASK >> p & 1 or SUPPORT_MASK[p] & red]


def _has_mixed(own: int, red: int, lines) -> bool:
    """Is one of `lines` full of `own` and `red` balls, with at least one of each?"""
    allowed = own | red
    for line in lines:
        if allowed & line == line and own & line and red & line:
            return True
    return False


#: What ends the game after a placement (see verdict), in the order the rules check.
MOVER_LINE, OTHER_LINE, FULL, BLOCKED = 1, 2, 3, 4
ALL_POINTS = (1 << NUM_POINTS) - 1


def verdict(mine: int, theirs: int, red: int, occupied: int, lines=LINE_MASKS) -> int:
    """The rules' ending after a placement, on masks: MOVER_LINE, OTHER_LINE,
    FULL, BLOCKED or 0 (play on), with `mine` the mover's balls and `theirs`
    the opponent's (looking at `lines` only)."""
    if _has_mixed(mine, red, lines):
        return MOVER_LINE
    if _has_mixed(theirs, red, lines):
        return OTHER_LINE
    if occupied == ALL_POINTS:
        return FULL
    if _blocked(occupied, red):
        return BLOCKED
    return 0


def mixed_lines(position, colour: int, lines=LINE_MASKS) -> int:
    """The union of `lines` full of `colour` and red balls, with at least one of each."""
    own, red, out = position.mask(colour), position.red, 0
    for line in lines:
        if _has_mixed(own, red, (line,)):
            out |= line
    return out


def mixed_line(position, colour: int, lines=LINE_MASKS) -> bool:
    """Is one of `lines` full of `colour` and red balls, with at least one of each?"""
    return _has_mixed(position.mask(colour), position.red, lines)


@register
class Splice(Game):
    info = GameInfo(
        name="Splice", designer="Néstor Romeral Andrés", year="2011",
        family="N-in-a-row", source="Shibumi Rule Book (2012)",
        summary="Spline with shared red balls: a winning line mixes your colour "
                "and red, and your own balls climb only onto red.",
        complexity=2, max_length=30)

    rules = """\
Two players, White then Black, start with an empty board. On your turn put
one ball on a playable point, either

* a red ball, anywhere playable (an empty hole or the hollow on top of four
  touching balls), or
* a ball of your own colour, in an empty hole, or on top of four balls of
  which at least one is red.

You win by completing a full-length line on any level (4 on the board, 3
on level 1, 2 on level 2; rows, columns and diagonals) made of your balls
and red balls only, with at least one of each. A line of your colour alone
does not count, and neither does an all-red line.

A red ball can complete lines for both players at once; the player who put
it there wins. If it completes a line for your opponent only, your opponent
wins. The set has 16 red balls: once they are all in play, only balls of
your own colour can be placed. The game is a draw if nobody has such a
line when the pyramid is full, or when no ball can be placed any more.
"""
    notes = """\
* The platform rule is read on the four balls a new ball rests on: your
  own colour may go above the board only where one of those four is red.
  Red may go on any playable point.
* Lines may hold any mix of your colour and red, as long as both appear:
  a pure line of your own colour is not a winning line (the book insists on
  at least one friendly and one neutral ball).
* A red ball completing a line for the opponent only is taken to give the
  opponent the win: the book names the mover as winner only when both
  players gain a line, which implies that each line wins for its owner.
  (The French translation says that the mover wins whenever several lines
  appear at once; with one line for each player the two texts agree.)
* A ball of your own colour can only complete lines for you.
* A full pyramid with no winning line is a draw. This can happen (unlike
  in Spline): level 2 may hold two white and two black balls, say.
* The lost figure (a white-and-red winning line) is rebuilt in the tests as
  a board row of white and red balls.
* Hidden balls count in lines, as in Spline.
* Supply. A set has 16 balls of each colour. Red is offered only while
  fewer than 16 red balls are in play (position text with more is
  refused). White and Black never run short: the pyramid has 30 points
  and the players alternate, so each places at most 15 balls.
* Blocked pyramid. Once the 16 red balls are in play, a player may have
  nothing to place: every hole is filled and every open platform lacks a
  red ball. This is reachable, e.g. an all-red board under a level 1 of
  white and black balls only. Whether a ball can go anywhere does not
  depend on whose turn it is, so both players are blocked at once and
  passing would change nothing; the game ends there as a draw, like a
  full pyramid without a line. Random play almost never gets near it (in 20,000 random games
  the 16th red ball went in once, and no game was blocked), but
  deliberate play can.
"""

    def legal_moves(self, state: State, player: int | None = None) -> list[Move]:
        if state.result is not None:
            return []
        position = state.position
        points = playable_points_cached(position.occupied)
        own = PLACE_MOVES[COLOURS[state.to_move]]
        red = position.red
        moves = [own[p] for p in own_points(points, red)]
        if red.bit_count() < RED_BALLS:
            moves.extend(PLACE_MOVES[RED][p] for p in points)
        return moves

    def apply(self, state: State, move: Move) -> State:
        position = state.position.place(move.point, move.colour)
        result = self.result_after(position, state.to_move, LINES_THROUGH[move.point])
        return State(position, 1 - state.to_move, result, move)

    def result_after(self, position, mover: int, lines=LINE_MASKS) -> Outcome | None:
        """The outcome once `mover` has played (looking at `lines` only)."""
        return self._outcome(verdict(position.mask(COLOURS[mover]),
                                     position.mask(COLOURS[1 - mover]),
                                     position.red, position.occupied, lines), mover)

    def _outcome(self, ending: int, mover: int) -> Outcome | None:
        """The Outcome a :func:`verdict` stands for."""
        if not ending:
            return None
        name = self.player_name(mover)
        if ending == MOVER_LINE:
            return Outcome((mover,), f"{name} completed a line of their colour and red")
        if ending == OTHER_LINE:
            other = self.player_name(1 - mover)
            return Outcome((1 - mover,), f"{name}'s red ball completed a line for {other}")
        if ending == FULL:
            return Outcome((), "the pyramid is complete")
        return Outcome((), "all 16 red balls are in play and no ball can be placed")

    def random_playout(self, state: State, rng: random.Random) -> State:
        """Same games as the generic loop (the moves of legal_moves in its order,
        one draw each, the same verdict), on raw bit masks."""
        if state.result is not None:
            return state
        pick = uniform_index(rng)
        position = state.position
        masks = [position.white, position.black]
        red, occ, mover = position.red, position.occupied, state.to_move
        while True:
            points = playable_points_cached(occ)
            own = own_points(points, red)
            k = pick(len(own) + len(points) if red.bit_count() < RED_BALLS else len(own))
            if k < len(own):
                p = own[k]
                masks[mover] |= 1 << p
            else:
                p = points[k - len(own)]
                red |= 1 << p
            occ |= 1 << p
            ending = verdict(masks[mover], masks[1 - mover], red, occ, LINES_THROUGH[p])
            if ending:
                break
            mover ^= 1
        colour = COLOURS[mover] if k < len(own) else RED
        final = Position.from_masks(masks[0], masks[1], red)
        return State(final, 1 - mover, self._outcome(ending, mover), PLACE_MOVES[colour][p])

    def winning_points(self, state: State) -> int:
        """The winner's lines of their colour and red."""
        winner = sole_winner(state)
        return 0 if winner is None else mixed_lines(state.position, COLOURS[winner])

    def state_from(self, position, to_move, extras):
        if position.red.bit_count() > RED_BALLS:
            raise NotationError(f"Splice: the set has {RED_BALLS} red balls; this position "
                                f"has {position.red.bit_count()}")
        return super().state_from(position, to_move, extras)

    def settle(self, state: State) -> State:
        result = self.result_after(state.position, 1 - state.to_move)
        if result is None:
            return state
        return State(state.position, state.to_move, result)
