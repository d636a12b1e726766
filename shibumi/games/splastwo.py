"""Splastwo: lay lines of one to three balls; completing levels and the apex scores."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import NotationError, shown
from ..game import Game, GameInfo, Outcome, State
from ..geometry import (ALL_MASK, COORDS, FLAT_NEIGHBOURS, LEVEL, LEVEL_MASK,
                        point_at)
from ..notation import PASS, PASS_MOVE, Move, parse_point, point_name
from ..position import BLACK, COLOUR_LETTERS, RED, WHITE, Position
from ..registry import register
from ..bits import playable_cached, playable_points_cached
from .placement import PLACE_MOVES, playable_points

PLAYER_COLOURS = (WHITE, BLACK, RED)
STOCK = 15
#: Points for completing the board, level 1, level 2 and the apex.
LEVEL_POINTS = (1, 1, 1, 2)
MAX_LINE = 3


def line_ends(placed: tuple[int, ...]) -> list[int]:
    """Points that would extend the balls placed this turn into a longer straight line.

    One ball: its orthogonal neighbours on its level.  Two balls: the next point
    beyond each end along their row or column.
    """
    if len(placed) == 1:
        return list(FLAT_NEIGHBOURS[placed[0]])
    lv, ax, ay = COORDS[placed[0]]
    _, bx, by = COORDS[placed[1]]
    dx, dy = bx - ax, by - ay
    lo = min(placed, key=lambda p: COORDS[p][1] * dx + COORDS[p][2] * dy)
    hi = max(placed, key=lambda p: COORDS[p][1] * dx + COORDS[p][2] * dy)
    ends = [point_at(lv, COORDS[lo][1] - dx, COORDS[lo][2] - dy),
            point_at(lv, COORDS[hi][1] + dx, COORDS[hi][2] + dy)]
    return [p for p in ends if p is not None]


_LINE_ENDS: dict[tuple[int, ...], tuple[int, ...]] = {}


def line_ends_cached(placed: tuple[int, ...]) -> tuple[int, ...]:
    """:func:`line_ends` as a tuple, memoised (at most 30 single balls and the
    pairs they make)."""
    ends = _LINE_ENDS.get(placed)
    if ends is None:
        ends = _LINE_ENDS[placed] = tuple(line_ends(placed))
    return ends


def is_line(points) -> bool:
    """Whether the points form one contiguous straight row or column of one level."""
    points = sorted(points)
    if len({LEVEL[p] for p in points}) != 1:
        return False
    xs = {COORDS[p][1] for p in points}
    ys = {COORDS[p][2] for p in points}
    if len(xs) == 1:
        span = sorted(COORDS[p][2] for p in points)
    elif len(ys) == 1:
        span = sorted(COORDS[p][1] for p in points)
    else:
        return False
    return span == list(range(span[0], span[0] + len(span)))


@dataclass(frozen=True)
class SplastwoState(State):
    """A Splastwo state.

    ``placed``: the points the mover has filled so far this turn (the line
    being laid).  ``levels``: for the board, level 1, level 2 and the apex,
    the player who completed it, or -1.  ``ply``: actions played.
    """
    placed: tuple[int, ...] = ()
    levels: tuple[int, ...] = (-1, -1, -1, -1)
    ply: int = 0


@register
class Splastwo(Game):
    info = GameInfo(
        name="Splastwo", designer="Giacomo Galimberti", year="2012",
        family="Completion", source="Shibumi Rule Book (2012)",
        summary="Lay a straight line of one to three of your balls on one level each turn; "
                "completing a level scores 1, the apex 2.",
        aliases=("splasttwo",), min_players=2, max_players=3, complexity=2,
        max_length=56)
    parameters = {"players": 2}

    rules = """\
Two players, White and Black, each have 15 balls of their colour and start
from an empty board (three players: add Red with 15 balls; see below).

On your turn place one, two or three balls of your colour on playable points
of one level, forming a single unbroken straight row or column: two balls
side by side, or three in a row. Diagonal neighbours do not touch, so they
do not form a line. In this program a turn is played one ball at a time:
place the first ball, then either extend the line (up to three balls) or
play `pass` to stop. The turn ends by itself after the third ball, or when
the line cannot be extended.

Whoever fills the last empty point of a level completes it: 1 point for the
board, for level 1 and for level 2, and 2 points for the apex. The game ends
when the pyramid is complete, and the most points wins. If a player runs out
of balls, the opponent fills the rest of the pyramid with their own balls,
completing every level still open.

Three players: the same rules, taking turns White, Black, Red, with 15 balls
each. A player who has no balls left is skipped. A tie for the most points
goes to the player who placed the apex.
"""
    notes = """\
* Lines are orthogonal only. The rule asks for adjacent balls forming one
  contiguous line, and the book defines adjacent as touching; balls
  diagonal to each other on a level do not touch.
* All the balls of a move lie on one level, so none of them can make another
  one playable (a ball only ever opens points on the level above it). The
  question whether a ball may rest on a platform finished earlier in the
  same move therefore never arises: every ball of a move must be on a point
  that was playable before the move, and every such point stays playable.
* A move is entered ball by ball, in any order along the line (the middle
  ball may come first). Stopping early is `pass`, offered only while the
  line can still grow; a lone pass is never a move. The turn also ends when
  the mover has no balls left.
* Running out. With 15 balls each, the two players' balls exactly fill the
  30 points, so when one player runs out the other has just enough for the
  rest. Where they go cannot change the score (that player completes every
  level still open and the apex), so the program fills them at once rather
  than asking for the moves. In the book's example this is what happens at
  the end: White's ball on level 2 is White's fifteenth, and Black's last
  ball goes on the apex by itself. With three players (45 balls for 30
  points) a player with no balls is skipped; two players can only both be
  out once all 30 points are filled, so nobody ever fills alone.
* Ties. With two players the 5 points cannot split evenly. With three, the
  apex player (2 points at least) is always among the tied leaders, and the
  book gives them the win; two non-apex players cannot both reach 2 and tie
  above the apex player.
* Three players keep 15 balls each, as the book says the rules stay the same.
* The worked example of the book (White completes level 1 with a row of
  three; Black declines to complete level 2 with a row of two, plays one
  ball, White must complete level 2, Black takes the apex with the last of
  their 15 balls and wins 3-2) is rebuilt in the tests as a position with
  the board, two rows of level 1 and one row of level 2 filled, White
  having placed 11 balls and Black 13 (so that Black's apex ball is the
  fifteenth, as the French text says).
* Length: at most 30 placements plus one pass after every ball that does not
  complete its level (a level-completing ball leaves nothing to extend to),
  so at most 30 + 26 = 56 actions.
"""

    # -- helpers -----------------------------------------------------------
    def stock(self, position: Position, player: int) -> int:
        return STOCK - position.count(PLAYER_COLOURS[player])

    def _extensions(self, state: SplastwoState) -> list[int]:
        if not state.placed or len(state.placed) >= MAX_LINE \
                or self.stock(state.position, state.to_move) == 0:
            return []
        occupied = state.position.occupied
        free = set(playable_points(occupied))
        return [p for p in line_ends(state.placed) if p in free]

    def scores(self, levels: tuple[int, ...]) -> tuple[int, ...]:
        totals = [0] * self.num_players
        for points, who in zip(LEVEL_POINTS, levels):
            if who >= 0:
                totals[who] += points
        return tuple(totals)

    def _final(self, levels: tuple[int, ...]) -> Outcome:
        scores = self.scores(levels)
        apex = levels[3]
        key = lambda p: (scores[p], p == apex)  # noqa: E731
        best = max(range(self.num_players), key=key)
        order = sorted(range(self.num_players), key=key, reverse=True)
        ranking, group = [], [order[0]]
        for p in order[1:]:
            if key(p) == key(group[0]):
                group.append(p)
            else:
                ranking.append(tuple(group))
                group = [p]
        ranking.append(tuple(group))
        text = "-".join(str(s) for s in scores)
        tie = [p for p in range(self.num_players) if scores[p] == scores[best]]
        why = f"{self.player_name(best)} scored most ({text})"
        if len(tie) > 1:
            why = f"tie on {scores[best]} points ({text}) goes to the apex, {self.player_name(best)}"
        return Outcome((best,), why, tuple(float(s) for s in scores), tuple(ranking))

    # -- rules -------------------------------------------------------------
    def initial_state(self, rng=None) -> SplastwoState:
        return SplastwoState()

    def legal_moves(self, state: SplastwoState, player: int | None = None) -> list[Move]:
        if state.result is not None:
            return []
        row = PLACE_MOVES[PLAYER_COLOURS[state.to_move]]
        if not state.placed:
            return [row[p] for p in playable_points(state.position.occupied)]
        return [row[p] for p in self._extensions(state)] + [PASS_MOVE]

    def apply(self, state: SplastwoState, move: Move) -> SplastwoState:
        mover, ply = state.to_move, state.ply + 1
        if move.kind == PASS:
            return self._end_turn(state.position, mover, state.levels, move, ply)
        position = state.position.place(move.point, move.colour)
        levels = state.levels
        lv = LEVEL[move.point]
        if position.occupied & LEVEL_MASK[lv] == LEVEL_MASK[lv]:
            levels = levels[:lv] + (mover,) + levels[lv + 1:]
        if position.occupied == ALL_MASK:
            return SplastwoState(position, (mover + 1) % self.num_players,
                                 self._final(levels), move, (), levels, ply)
        going_on = SplastwoState(position, mover, None, move, state.placed + (move.point,),
                                 levels, ply)
        if self._extensions(going_on):
            return going_on
        return self._end_turn(position, mover, levels, move, ply)

    def _end_turn(self, position, mover, levels, move, ply) -> SplastwoState:
        holders = [p for p in range(self.num_players) if self.stock(position, p) > 0]
        if len(holders) == 1:
            position, levels = self._fill(position, holders[0], levels)
            return SplastwoState(position, (mover + 1) % self.num_players,
                                 self._final(levels), move, (), levels, ply)
        nxt = (mover + 1) % self.num_players
        while self.stock(position, nxt) == 0:
            nxt = (nxt + 1) % self.num_players
        return SplastwoState(position, nxt, None, move, (), levels, ply)

    def _fill(self, position: Position, player: int, levels):
        """The last player holding balls fills every empty point."""
        masks = [0, position.white, position.black, position.red]
        colour = PLAYER_COLOURS[player]
        masks[colour] |= ALL_MASK & ~position.occupied
        levels = tuple(player if who < 0 else who for who in levels)
        return Position.from_masks(masks[WHITE], masks[BLACK], masks[RED]), levels

    def random_playout(self, state: SplastwoState, rng) -> SplastwoState:
        """Same games as the generic loop (the same draws over the same moves as
        ``legal_moves``, and the same turn ends as ``apply``), on raw masks: no
        state is built until the end."""
        if state.result is not None:
            return state
        rnd, n = rng.random, self.num_players
        pos = state.position
        masks = [pos.white, pos.black, pos.red]            # by player
        left = [STOCK - m.bit_count() for m in masks]
        occ, mover, placed, ply = pos.occupied, state.to_move, state.placed, state.ply
        levels, move = list(state.levels), state.last
        rows = [PLACE_MOVES[c] for c in PLAYER_COLOURS]
        while True:
            if placed:                       # extend the line, or pass (the last option)
                playable = playable_cached(occ)
                ends = [p for p in line_ends_cached(placed) if playable >> p & 1] \
                    if len(placed) < MAX_LINE and left[mover] else []
                i = int(rnd() * (len(ends) + 1))
                if i == len(ends):
                    p, move = -1, PASS_MOVE
                else:
                    p = ends[i]
            else:
                pts = playable_points_cached(occ)
                p = pts[int(rnd() * len(pts))]
            ply += 1
            if p >= 0:
                move, bit = rows[mover][p], 1 << p
                masks[mover] |= bit
                occ |= bit
                left[mover] -= 1
                lv = LEVEL[p]
                if occ & LEVEL_MASK[lv] == LEVEL_MASK[lv]:
                    levels[lv] = mover
                if occ == ALL_MASK:
                    return self._ended(masks, (mover + 1) % n, levels, move, ply)
                placed += (p,)
                if len(placed) < MAX_LINE and left[mover]:
                    playable = playable_cached(occ)
                    if any(playable >> q & 1 for q in line_ends_cached(placed)):
                        continue             # the line can still grow: same turn
            placed = ()                      # the turn ends (as _end_turn)
            holders = [q for q in range(n) if left[q] > 0]
            if len(holders) == 1:
                masks[holders[0]] |= ALL_MASK & ~occ
                levels = [holders[0] if who < 0 else who for who in levels]
                return self._ended(masks, (mover + 1) % n, levels, move, ply)
            mover = (mover + 1) % n
            while not left[mover]:
                mover = (mover + 1) % n

    def _ended(self, masks, to_move, levels, move, ply) -> SplastwoState:
        """The final state of a playout, as ``apply`` builds it."""
        levels = tuple(levels)
        return SplastwoState(Position.from_masks(*masks), to_move, self._final(levels),
                             move, (), levels, ply)

    def length(self, state: SplastwoState) -> int:
        return state.ply

    def transform_state(self, state: SplastwoState, perm: tuple[int, ...]) -> SplastwoState:
        """The image of a state under a point permutation (one of ``SYMMETRIES``).

        The line being laid is made of points, so it turns with the board.
        """
        return SplastwoState(state.position.transform(perm), state.to_move, state.result,
                             None, tuple(perm[p] for p in state.placed), state.levels,
                             state.ply)

    # -- text ----------------------------------------------------------------
    def status_lines(self, state) -> list[str]:
        """Balls left, points from completed levels, the line being laid."""
        n = self.num_players
        names = [self.player_name(p) for p in range(n)]
        scores = self.scores(state.levels)
        lines = ["Balls left: " + ", ".join(
            f"{names[p]} {max(0, self.stock(state.position, p))}" for p in range(n)) + ".",
            "Points: " + ", ".join(f"{names[p]} {scores[p]}" for p in range(n)) + "."]
        done = [f"{what} by {names[who]}" for what, who in
                zip(("the board", "level 1", "level 2", "the apex"), state.levels)
                if 0 <= who < n]
        if done:
            lines.append("Completed: " + ", ".join(done) + ".")
        if state.result is None and state.placed:
            lines.append("Line this turn: " + ", ".join(point_name(p) for p in state.placed)
                         + "; extend it or pass.")
        return lines

    def extra_text(self, state: SplastwoState) -> str:
        levels = "".join("-" if who < 0 else COLOUR_LETTERS[PLAYER_COLOURS[who]]
                         for who in state.levels)
        parts = [f"levels={levels}"]
        if state.placed:
            parts.append("turn=" + ",".join(point_name(p) for p in state.placed))
        parts.append(f"ply={state.ply}")
        return " ".join(parts)

    def state_from(self, position, to_move, extras):
        fields = dict(t.split("=", 1) for t in extras.split() if "=" in t)
        if len(fields) != len(extras.split()) or set(fields) - {"levels", "turn", "ply"} \
                or "levels" not in fields or "ply" not in fields:
            raise NotationError(f"Splastwo state extras {shown(extras)}: expected "
                                "'levels=XXXX [turn=p,q] ply=N', e.g. 'levels=B--- ply=40'")
        colours = [COLOUR_LETTERS[c] for c in PLAYER_COLOURS[:self.num_players]]
        if not re.fullmatch(f"[-{''.join(colours)}]{{4}}", fields["levels"]):
            raise NotationError(f"Splastwo levels {fields['levels']!r}: four characters "
                                f"(board, level 1, level 2, apex), each - or one of "
                                f"{' '.join(colours)}")
        levels = tuple(-1 if ch == "-" else colours.index(ch) for ch in fields["levels"])
        for lv, who in enumerate(levels):
            full = position.occupied & LEVEL_MASK[lv] == LEVEL_MASK[lv]
            if full != (who >= 0):
                done = "nobody" if who < 0 else self.player_name(who)
                raise NotationError(f"Splastwo state: level {lv} is "
                                    f"{'full' if full else 'not full'} but levels says "
                                    f"{done} completed it")
        for c in (WHITE, BLACK, RED)[self.num_players:]:
            if position.mask(c):
                raise NotationError(f"{self.num_players}-player Splastwo has no "
                                    f"{COLOUR_LETTERS[c]} balls")
        for p in range(self.num_players):
            if self.stock(position, p) < 0:
                raise NotationError(f"Splastwo state: more than {STOCK} balls of "
                                    f"{self.player_name(p)}")
        if not re.fullmatch("[0-9]{1,3}", fields["ply"]):
            raise NotationError(f"Splastwo ply {fields['ply']!r}: the number of actions played")
        placed = ()
        if "turn" in fields:
            try:
                placed = tuple(parse_point(t) for t in fields["turn"].split(","))
            except NotationError as err:
                raise NotationError(f"Splastwo turn {fields['turn']!r}: {err}") from None
            own = position.mask(PLAYER_COLOURS[to_move])
            if not 1 <= len(placed) < MAX_LINE or len(set(placed)) != len(placed) \
                    or any(not own >> p & 1 for p in placed) or not is_line(placed):
                raise NotationError(f"Splastwo turn {fields['turn']!r}: one or two "
                                    "points in a row or column holding the mover's balls")
        state = SplastwoState(position, to_move, None, None, placed, levels,
                              int(fields["ply"]))
        return self.settle(state)

    def settle(self, state: SplastwoState) -> SplastwoState:
        if state.position.occupied != ALL_MASK:
            return state
        return SplastwoState(state.position, state.to_move, self._final(state.levels),
                             state.last, (), state.levels, state.ply)
