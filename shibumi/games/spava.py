"""Spava: Spline with Yavalath's twist — a line one ball short loses."""

from __future__ import annotations

import random

from ..bits import playable_points_cached
from ..errors import NotationError
from ..game import Game, GameInfo, Outcome, State
from ..geometry import LEVEL, LINES_THROUGH, NUM_POINTS, POINTS, points_of, segments
from ..notation import Move
from ..position import BLACK, RED, WHITE, Position
from ..registry import register
from .placement import PLACE_MOVES, sole_winner, uniform_index
from .spline import sum_lines

COLOURS = (WHITE, BLACK)
#: Red balls in a set: red is offered only while fewer than this are in play.
RED_BALLS = 16


def _short_runs_through():
    """For each point, masks of the straight runs one ball shorter than its level's width.

    Board: runs of 3 (rows, columns and diagonals, the short diagonals
    included); level 1: runs of 2, diagonal neighbours included.  Level 2
    would need runs of 1, which do not count, and the apex has no lines.
    """
    table = [[] for _ in POINTS]
    for level, length in ((0, 3), (1, 2)):
        for run in segments(length):
            if LEVEL[run[0]] == level:
                mask = sum(1 << p for p in run)
                for p in run:
                    table[p].append(mask)
    return tuple(tuple(masks) for masks in table)


#: SHORT_RUNS_THROUGH[p]: losing-length runs through p.
SHORT_RUNS_THROUGH = _short_runs_through()

WIN, LOSS = "win", "loss"


def _full_line(mine: int, point: int) -> bool:
    return any(mine & line == line for line in LINES_THROUGH[point])


def _short_line(mine: int, point: int) -> bool:
    return any(mine & run == run for run in SHORT_RUNS_THROUGH[point])


def short_lines(mine: int) -> int:
    """The union of the losing-length runs held entirely in a mask."""
    out = 0
    for p in points_of(mine):
        for run in SHORT_RUNS_THROUGH[p]:
            if mine & run == run:
                out |= run
    return out


def _decision(mine: int, points: int) -> str | None:
    """WIN if a full line of `mine` passes through one of `points`, else LOSS if a
    line one short does, else None (a full line beats a short one anywhere)."""
    pts = points_of(points)
    if any(_full_line(mine, p) for p in pts):
        return WIN
    if any(_short_line(mine, p) for p in pts):
        return LOSS
    return None


def _loses(mine: int, point: int) -> bool:
    """Does `mine`, holding a ball just put at `point`, lose (a short line through
    it and no full one)?"""
    return not _full_line(mine, point) and _short_line(mine, point)


def own_points(points, mine: int, forbid_losing: bool, red_left: bool):
    """The points open to a ball of the mover's colour (whose balls are `mine`):
    all of `points`, or under `forbid_losing` those that do not lose, unless
    every one loses and no red ball is left (see the notes)."""
    if not forbid_losing:
        return points
    safe = [p for p in points if not _loses(mine | 1 << p, p)]
    return safe if safe or red_left else points


@register
class Spava(Game):
    info = GameInfo(
        name="Spava", designer="Cameron Browne", year="2012",
        family="N-in-a-row", source="Shibumi Rule Book (2012)",
        summary="Spline where a line one ball short of full length loses; "
                "neutral red balls block without risk.",
        complexity=2, max_length=30)
    parameters = {"forbid_losing": False}

    rules = """\
Two players, White then Black, start with an empty board. On your turn put
one ball, of your own colour or a neutral red one, on any playable point
(an empty hole, or the hollow on top of four touching balls). There are 16
red balls; once they are all in play, only your own colour is left.

You win by completing a full-length line of your own colour on any level:
4 in a row on the board, 3 on level 1, 2 on level 2, along a row, a column
or a diagonal.

You lose by making a line of your own colour that is one ball short of
full length: 3 in a row on the board (short diagonals of three included),
or 2 side by side or diagonally adjacent on level 1. A single ball on
level 2 is not a line. A move that completes a full-length line wins even
if it also makes a short one. Red balls never count in anyone's line.
A full pyramid with neither is a draw.
"""
    notes = """\
* A losing move is legal and loses at once (the book says the player loses).
  The Italian newsletter puts it as "Black cannot play d6"; a variant plays
  that reading, where a move that would lose may not be made, as long as the
  player has another move (see the supply note for when they have none).
* Winning beats losing within one move: completing a full line wins even
  if the same ball also makes a line one short elsewhere. This follows
  Yavalath, where the rule comes from (four wins even when three appears
  too).
* Short lines are straight runs of adjacent points on one level, in any of
  the four directions. On the board that includes the four diagonals of
  three points (a3-c5-e7 and the like), which are one short of the
  board's width even though they can never grow to four. A run of three
  inside a completed row of four is part of a win, not a loss.
* Only the mover's colour is checked: a red ball cannot make a line, and
  no placement changes the other player's lines.
* Hidden balls count, as in Spline.
* The examples of the Italian newsletter (seed 003) are rebuilt in the
  tests: a white level-1 line b6-d4-f2 wins, a black pair d6-f6 loses, and
  Black playing d6 next to b4 makes the losing diagonal pair b4-d6.
* A full pyramid without a decision is a draw; it can happen (level 2 may
  hold one white, one black and two red balls).
* Supply. A set has 16 balls of each colour, and the engine keeps to it: a red
  ball is offered only while fewer than 16 red balls are in play (without the
  limit, about 7% of random games would need a 17th red, and nearly half of
  them in the variant that forbids losing moves). White and Black never run
  short: the pyramid has 30 points and the players alternate, so each puts at
  most 15 balls of their own colour in play. Position text with more than 16
  red balls is refused.
* Once the 16 red balls are in play, the variant that forbids losing moves can
  leave a player whose every placement of their own colour would make a short
  line, and nothing else to play. Such a player is not stuck: when every
  placement loses, the losing placements are legal again, and the player must
  make one and lose (the book's reading, where a losing move is allowed and
  loses); this ends about one random game in seven under that variant. Without
  it a player always has every playable point for their own colour, so nobody
  is ever without a move.
"""

    def legal_moves(self, state: State, player: int | None = None) -> list[Move]:
        if state.result is not None:
            return []
        position = state.position
        points = playable_points_cached(position.occupied)
        colour = COLOURS[state.to_move]
        own = PLACE_MOVES[colour]
        red_left = position.red.bit_count() < RED_BALLS
        moves = [own[p] for p in own_points(points, position.mask(colour),
                                            self.params["forbid_losing"], red_left)]
        if red_left:
            moves.extend(PLACE_MOVES[RED][p] for p in points)
        return moves

    def apply(self, state: State, move: Move) -> State:
        position = state.position.place(move.point, move.colour)
        mover = state.to_move
        result = None
        if move.colour != RED:
            result = self._outcome(position, mover, 1 << move.point)
        if result is None and position.occupied.bit_count() == NUM_POINTS:
            result = Outcome((), "the pyramid is complete")
        return State(position, 1 - mover, result, move)

    def _outcome(self, position, mover: int, points: int) -> Outcome | None:
        """The outcome of `mover`'s lines through `points`: a win, a loss or nothing."""
        decision = _decision(position.mask(COLOURS[mover]), points)
        name = self.player_name(mover)
        if decision == WIN:
            return Outcome((mover,), f"{name} completed a line")
        if decision == LOSS:
            return Outcome((1 - mover,), f"{name} made a line one ball short, and loses")
        return None

    def random_playout(self, state: State, rng: random.Random) -> State:
        """Same games as the generic loop (the moves of legal_moves in its order,
        one draw each, the same decision), on raw bit masks."""
        if state.result is not None:
            return state
        pick = uniform_index(rng)
        forbid = self.params["forbid_losing"]
        position = state.position
        masks = [position.white, position.black]
        red, occ, mover = position.red, position.occupied, state.to_move
        full = (1 << NUM_POINTS) - 1
        while True:
            points = playable_points_cached(occ)
            red_left = red.bit_count() < RED_BALLS
            own = own_points(points, masks[mover], forbid, red_left)
            k = pick(len(own) + len(points) if red_left else len(own))
            if k < len(own):
                p = own[k]
                mine = masks[mover] = masks[mover] | 1 << p
                occ |= 1 << p
                # Only the placed ball can decide (the rules' _decision on one point).
                if _full_line(mine, p) or _short_line(mine, p) or occ == full:
                    break
            else:
                p = points[k - len(own)]
                red |= 1 << p
                occ |= 1 << p
                if occ == full:
                    break
            mover ^= 1
        # The last placement is made again by the rules, which word the outcome.
        move = PLACE_MOVES[COLOURS[mover] if k < len(own) else RED][p]
        keep = ~(1 << p)
        before = Position.from_masks(masks[0] & keep, masks[1] & keep, red & keep)
        return self.apply(State(before, mover), move)

    def winning_points(self, state: State) -> int:
        """The winner's full lines; for a loss, the loser's line one ball short."""
        winner = sole_winner(state)
        if winner is None:
            return 0
        full = sum_lines(state.position.mask(COLOURS[winner]))
        return full or short_lines(state.position.mask(COLOURS[1 - winner]))

    def state_from(self, position, to_move, extras):
        if position.red.bit_count() > RED_BALLS:
            raise NotationError(f"Spava: the set has {RED_BALLS} red balls; this position "
                                f"has {position.red.bit_count()}")
        return super().state_from(position, to_move, extras)

    def settle(self, state: State) -> State:
        """A position from text: the last mover's lines decide, else the other's."""
        for mover in (1 - state.to_move, state.to_move):
            mine = state.position.mask(COLOURS[mover])
            result = self._outcome(state.position, mover, mine)
            if result is not None:
                return State(state.position, state.to_move, result)
        if state.position.occupied.bit_count() == NUM_POINTS:
            return State(state.position, state.to_move, Outcome((), "the pyramid is complete"))
        return state
