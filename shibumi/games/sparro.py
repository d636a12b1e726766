"""Sparro: three-in-a-row on the sides of a pyramid whose core is neutral red."""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..errors import NotationError, shown
from ..game import GameInfo, Outcome, State
from ..geometry import INTERIOR_MASK, NUM_POINTS, segments, sloped_runs
from ..notation import point_name
from ..position import BLACK, WHITE, Position
from ..registry import register
from .placement import PLACE_MOVES, PlacementGame, playable_points, sole_winner, uniform_index

#: The corner holes a1, g1, a7, g7.
CORNERS = (1 << 0) | (1 << 3) | (1 << 12) | (1 << 15)
START = Position.from_masks(red=INTERIOR_MASK)
BALLS_EACH = 12
START_BALLS = INTERIOR_MASK.bit_count()               # 5
FINAL_BALLS = START_BALLS + 2 * BALLS_EACH            # 29: all but the apex


def _mask(points) -> int:
    return sum(1 << p for p in points)


#: Every line of three: straight runs on one level (rows, columns, diagonals;
#: diagonal balls do not touch, and every flat diagonal crosses the red core)
#: and straight runs climbing a face or ridge of the pyramid.
LINES3: tuple[int, ...] = tuple(_mask(run) for run in segments(3) + sloped_runs(3))
LINES3_THROUGH: tuple[tuple[int, ...], ...] = tuple(
    tuple(m for m in LINES3 if m >> p & 1) for p in range(NUM_POINTS))


def held_lines(mine: int) -> int:
    """The union of the lines of three wholly inside a set of points."""
    out = 0
    for m in LINES3:
        if mine & m == m:
            out |= m
    return out


def count_lines(mine: int) -> int:
    """Lines of three wholly inside a set of points."""
    return sum(1 for m in LINES3 if mine & m == m)


@dataclass(frozen=True)
class SparroState(State):
    token: int = 1
    """The player holding the tie-break token: the last to make a line, Black at first."""


@register
class Sparro(PlacementGame):
    info = GameInfo(
        name="Sparro", designer="Phil Leduc", year="2011",
        family="N-in-a-row", source="Shibumi Rule Book (2012)",
        summary="Around a red core, place your 12 balls to make as many lines of three "
                "as you can, flat or climbing the pyramid.",
        complexity=2, max_length=24)

    rules = """\
Two players, White then Black. Five neutral red balls start in the middle:
the four centre holes and the level-1 point d4 resting on them. Each player
has 12 balls of their colour. Take turns placing one of your balls on any
playable point; every ball played stays in view on the outside of the pile.

Opening: if White's first ball goes in a corner hole, Black's first ball
must not; if White's first ball is not in a corner, Black's first ball must
be in a corner.

The game ends when all 24 balls are in (29 balls in all, everything but
the apex). Each player scores one point for every line of three balls of
their colour, counting overlapping lines separately: a straight row of four
is two lines of three. A line is three of your balls on three consecutive
points of one straight line, in one of three ways:

* along a row or column of one level, where the three balls touch;
* along a diagonal of one level (a1, c3 and e5 on the board, say), where
  the balls sit one diagonal step apart and do not touch;
* climbing straight up a face or ridge of the pyramid, each ball resting
  on the one before (for example a1, b2 and c3 on level 2).

Runs that look straight only from above but bend between levels do not
count. Red balls belong to nobody.

Most points wins. On equal points the last player who made a line wins, and
if nobody made any line Black wins. A spare ball as a token keeps track:
Black holds it at the start and whoever completes a line takes it; on a tie
its holder wins.
"""
    notes = """\
* Start (figure lost): the five red balls fill the five interior points, the
  only points that can ever be hidden, so every ball played stays visible.
  The later description of the figures confirms this.
* Which lines count. The text says lines "need not be flat", so it counts more
  than Spline's flat lines, and the game asks for lines of three, so Spline's
  diagonals on a level are lines too. We count every straight line of three
  points in space: rows, columns and diagonals of three on one level, and
  lines climbing a level at each step along a face or ridge. We do not count
  runs that only look straight from above and zigzag between two levels: the
  book introduces that looser notion later as Sploof's innovation.
* Flat diagonals are counted by the code, but none can ever score: each of
  the ten diagonal runs of three on one level (eight on the board, two on
  level 1) passes through a point of the red core. The same holds for every
  other line through the centre, and lines through the apex never fill, so
  24 lines can score: the 8 runs of three along the board's edges, the 4
  edges of level 1, and 12 lines climbing from an edge hole through level 1
  to level 2.
* A line of four scores two; a ball can be in several lines.
* The opening rule constrains only Black's first ball. At that moment only
  holes are playable, so "non-corner" means one of the eight edge holes that
  are not corners.
* Tie-break: the book's rule (last to make a line, else Black) and its
  suggested token (Black starts with it, each completed line passes it to
  the player who made it) always agree, because only the mover can complete
  a line. The state text records the token holder (`token 2` is Black).
* The game always ends after exactly 24 placements: nothing is removed, and
  the apex can only become playable once the 29th ball is in.
"""

    def initial_state(self, rng=None) -> SparroState:
        return SparroState(position=START)

    def length(self, state) -> int:
        return state.position.occupied.bit_count() - START_BALLS

    def legal_moves(self, state, player=None):
        if state.result is not None:
            return []
        row = PLACE_MOVES[self.colour_of(state.to_move)]
        points = playable_points(state.position.occupied)
        position = state.position
        if position.occupied.bit_count() == START_BALLS + 1:
            # Black's first ball: corner if White avoided the corners, else not.
            white_in_corner = bool(position.white & CORNERS)
            points = [p for p in points if bool(CORNERS >> p & 1) != white_in_corner]
        return [row[p] for p in points]

    def apply(self, state, move):
        mover = state.to_move
        position = state.position.place(move.point, move.colour)
        mine = position.mask(move.colour)
        token = state.token
        if any(mine & m == m for m in LINES3_THROUGH[move.point]):
            token = mover
        result = None
        if position.occupied.bit_count() == FINAL_BALLS:
            result = self.final_result(position, token)
        return SparroState(position, 1 - mover, result, move, token)

    def final_result(self, position, token) -> Outcome:
        scores = (count_lines(position.white), count_lines(position.black))
        if scores[0] != scores[1]:
            winner = 0 if scores[0] > scores[1] else 1
            reason = f"{self.player_name(winner)} has more lines of three"
        else:
            winner = token
            reason = (f"equal lines; {self.player_name(winner)} made the last line"
                      if any(scores) else "no lines at all; Black wins the tie")
        return Outcome((winner,), f"{reason} ({scores[0]}-{scores[1]})",
                       scores=tuple(float(s) for s in scores),
                       ranking=((winner,), (1 - winner,)))

    def winning_points(self, state) -> int:
        """The winner's lines of three, the lines counted for them (0 if none)."""
        winner = sole_winner(state)
        return 0 if winner is None else held_lines(state.position.mask(self.colour_of(winner)))

    # -- text ---------------------------------------------------------------
    def status_lines(self, state) -> list[str]:
        """Lines of three so far (the score) and who holds the tie-break token."""
        pos = state.position
        scores = (count_lines(pos.white), count_lines(pos.black))
        holder = self.player_name(state.token)
        why = "made the last line" if any(scores) else "nobody has made a line yet"
        return [f"Lines of three: {self.player_name(0)} {scores[0]}, "
                f"{self.player_name(1)} {scores[1]}.",
                f"{holder} holds the tie-break token ({why})."]

    def extra_text(self, state) -> str:
        return f"token {state.token + 1}"

    def state_from(self, position, to_move, extras):
        parts = extras.split()
        if len(parts) != 2 or parts[0] != "token" or parts[1] not in ("1", "2"):
            raise NotationError(f"Sparro state extras are 'token 1' or 'token 2' "
                                f"(who holds the tie-break token), not {shown(extras)}")
        if position.red != INTERIOR_MASK:
            raise NotationError("Sparro keeps its five red balls on the interior points "
                                "(c3.0 e3.0 c5.0 e5.0 d4.1) and places no other red")
        white, black = position.count(WHITE), position.count(BLACK)
        if not (white - black == to_move and white <= BALLS_EACH and black <= BALLS_EACH):
            raise NotationError(f"Sparro: {white} white and {black} black balls cannot "
                                f"have player {to_move + 1} to move")
        token = int(parts[1]) - 1
        return self.settle(SparroState(position, to_move, None, None, token))

    def settle(self, state):
        if state.position.occupied.bit_count() == FINAL_BALLS:
            return SparroState(state.position, state.to_move,
                               self.final_result(state.position, state.token),
                               None, state.token)
        return state

    # -- fast playouts --------------------------------------------------------
    def random_playout(self, state, rng: random.Random):
        """Same games as the generic loop, on bit masks."""
        if state.result is not None:
            return state
        pick = uniform_index(rng)
        masks = [state.position.white, state.position.black]
        occ, mover, token, last = state.position.occupied, state.to_move, state.token, None
        through = LINES3_THROUGH
        while occ.bit_count() < FINAL_BALLS:
            if occ.bit_count() == START_BALLS + 1:
                corner = bool(masks[0] & CORNERS)
                pts = [p for p in playable_points(occ) if bool(CORNERS >> p & 1) != corner]
            else:
                pts = playable_points(occ)
            p = pts[pick(len(pts))]
            bit = 1 << p
            occ |= bit
            mine = masks[mover] | bit
            masks[mover] = mine
            for m in through[p]:
                if mine & m == m:
                    token = mover
                    break
            last = PLACE_MOVES[WHITE if mover == 0 else BLACK][p]
            mover ^= 1
        position = Position.from_masks(masks[0], masks[1], INTERIOR_MASK)
        return SparroState(position, mover, self.final_result(position, token), last, token)


#: Point names of the lines that can score once the red core is in place.
SCORING_LINES = tuple(
    "-".join(point_name(p) for p in range(NUM_POINTS) if m >> p & 1)
    for m in LINES3 if not m & (INTERIOR_MASK | 1 << 29))
