"""Spight: knight moves and knight jumps; gather all your balls into one group."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..bits import (LINKS_MEMO, flood, lift_ball, links_and_pinned, neighbour_tables, nth_point,
                    playable_cached, points_in, position_of)
from ..errors import UnknownGameError
from ..game import Game, GameInfo, Outcome, State
from ..geometry import COORDS, LEVEL, POINTS, PROJECTION, SUPPORTED_MASK, TOUCHING_MASK, points_of
from ..notation import PASS_MOVE, Move
from ..position import BLACK, CHECKERBOARD, WHITE, Position
from ..registry import register
from ..game import read_fields, write_fields
from .placement import sole_winner

PLAYER_COLOURS = (WHITE, BLACK)


def _knight_steps() -> tuple[tuple[int, ...], ...]:
    """Same-level points a knight's move away (one step one way, two the other)."""
    table = []
    for p in POINTS:
        lv, x, y = COORDS[p]
        table.append(tuple(q for q in POINTS if LEVEL[q] == lv and sorted(
            (abs(COORDS[q][1] - x), abs(COORDS[q][2] - y))) == [1, 2]))
    return tuple(table)


def _knight_jumps() -> tuple[tuple[int, ...], ...]:
    """Points one level up that lie one and three grid units away in the top view.

    These are exactly the points of the level above that rest on a flat
    neighbour of p but not on p itself: the ball swings round that neighbour
    (or, equally, round the ball above p that the neighbour helps to hold) and
    lands on a platform the neighbour belongs to.
    """
    table = []
    for p in POINTS:
        fx, fy = PROJECTION[p]
        table.append(tuple(q for q in POINTS if LEVEL[q] == LEVEL[p] + 1 and sorted(
            (abs(PROJECTION[q][0] - fx), abs(PROJECTION[q][1] - fy))) == [1, 3]))
    return tuple(table)


KNIGHT_STEPS = _knight_steps()
KNIGHT_JUMPS = _knight_jumps()
_TARGETS = tuple(KNIGHT_STEPS[p] + KNIGHT_JUMPS[p] for p in POINTS)
#: The targets of each point as a mask (the tuples above are in point order).
_TARGET_MASK = tuple(sum(1 << q for q in _TARGETS[p]) for p in POINTS)
#: _MOVE[p][q]: the move p>q (None where q is no knight target of p).
_MOVE = tuple(tuple(Move.relocate(p, q) if q in _TARGETS[p] else None for q in POINTS)
              for p in POINTS)


#: The points touching a point of each 10-bit third of a mask (the first half of
#: bits.next_to's tables).
_NEAR_LOW, _NEAR_MID, _NEAR_HIGH = (tuple(once for once, _ in table)
                                    for table in neighbour_tables(TOUCHING_MASK))


def joined(mine: int, occ: int, visible: bool) -> bool:
    """Whether the balls of ``mine`` (within ``occ``) form one group:
    :func:`shibumi.bits.united`, on the links tabled per occupancy above the
    board (:func:`shibumi.bits.links_and_pinned`).  A ball touching no other of
    its colour, even by contacts an overpass cuts, settles it without a flood."""
    if not mine & (mine - 1):
        return bool(mine)
    if mine & ~(_NEAR_LOW[mine & 1023] | _NEAR_MID[mine >> 10 & 1023] | _NEAR_HIGH[mine >> 20]):
        return False
    links = LINKS_MEMO[visible].get(occ >> 16)
    if links is None:
        links = links_and_pinned(occ, visible)
    return flood(mine & -mine, mine, links[0]) == mine


_TABLES: dict[int, list] = {}
_TABLES_LIMIT = 50_000


def knight_table(occ: int, balls: int) -> list:
    """``[targets, counts, done, playable]`` of an occupancy, memoised (random
    games meet the same occupancies again and again, whatever the colours), with
    the balls ``balls`` at least worked out: ``targets[p]`` is where the ball at
    ``p`` may go, as a mask, and ``counts[p]`` how many targets that is (0 for a
    pinned ball); ``done`` marks the points worked out so far.  A playout only
    asks for the mover's balls, so the other colour waits for its turn.

    A pinned ball stays; the rest leave their column's top point empty, and a
    target must be playable then.  A free ball changes no platform a knight
    target rests on (targets never rest on their source), so the position's
    playable points serve for it.
    """
    table = _TABLES.get(occ)
    if table is None:
        if len(_TABLES) > _TABLES_LIMIT:
            _TABLES.clear()
        table = _TABLES[occ] = [[0] * len(POINTS), [0] * len(POINTS), 0, playable_cached(occ)]
    todo = balls & ~table[2]
    if todo:
        targets, counts, _, playable = table
        table[2] |= todo
        for p in points_in(todo):
            above = occ & SUPPORTED_MASK[p]
            if not above:
                to = playable & _TARGET_MASK[p]
            elif above & (above - 1):
                continue                     # pinned: two or more balls rest on it
            else:
                top = above.bit_length() - 1
                above = occ & SUPPORTED_MASK[top]
                while above:                 # the column's top is left empty
                    top = above.bit_length() - 1
                    above = occ & SUPPORTED_MASK[top]
                # Emptying the top (nothing rests on it) takes away the points
                # resting on it and makes it playable: playable_of(occ & ~top).
                to = (playable & ~SUPPORTED_MASK[top] | 1 << top) & _TARGET_MASK[p]
            targets[p], counts[p] = to, to.bit_count()
    return table


def knight_options(mine: int, theirs: int) -> tuple[list[tuple[int, int]], int]:
    """``(options, count)``: ``(source, targets)`` for each ball of ``mine`` with a
    move, sources in point order, targets as a mask (``legal_moves`` lists them in
    that order), and the number of moves (see :func:`knight_table`)."""
    targets, counts, _, _ = knight_table(mine | theirs, mine)
    found = []
    count = 0
    for p in points_in(mine):
        if counts[p]:
            found.append((p, targets[p]))
            count += counts[p]
    return found, count


#: The board full in a checkerboard, white on a1, nothing above.
START = CHECKERBOARD


@dataclass(frozen=True)
class SpightState(State):
    ply: int = 0
    """Actions played so far (the move limit counts them)."""


@register
class Spight(Game):
    info = GameInfo(
        name="Spight", designer="Cameron Browne and Néstor Romeral Andrés", year="2011",
        family="Connection", source="Shibumi Rule Book (2012)",
        summary="Move your balls like knights, on a level or jumping up one; "
                "gather all of them into one group.",
        complexity=3, max_length=200)
    parameters = {"visible": True, "move_limit": 200}
    symmetries = (0, 2, 6, 7)   # the turns that keep the checkerboard's colours

    rules = """\
The sixteen holes of the board start full, white and black alternating like a
chessboard (a white ball on a1), with nothing above. White moves first. Each
player owns eight balls for the whole game: nothing is added or taken away.

On your turn move one of your balls that is not pinned (a ball with two or
more balls resting on it cannot move):

* Knight move: to an empty playable point on the same level, one step along a
  row or column and two along the other, as a chess knight moves. On the
  board the target is an empty hole; on level 1 it is an empty point whose
  platform is complete.
* Knight jump: up one level, swinging round a ball it touches on its own
  level onto a platform that ball is part of. The target is a point of the
  level above that rests on one of those touching neighbours but not on the
  moving ball itself, and it must be empty and playable once the ball has
  left. For example, the ball on a1 touches c1 and a3: it can jump to d2
  (resting on c1, e1, c3 and e3) or to b4 (resting on a3, c3, a5 and c5),
  but not to b2, which rests on a1.

When the moving ball had a ball resting on it, that ball drops into the gap
(with anything resting on it in turn). You pass only when you have no move.

You win when all eight of your balls form a single group, joined by contacts
seen from above. If a move joins both players at once, the mover wins. If
neither player can move, or after 200 actions without a winner, the game is
a draw.
"""
    notes = """\
* Start (figure lost): the board full in a chessboard pattern, nothing above;
  the catalogue of figures is sure of this. We put white on a1 (the corner
  on White's left); the other choice is the same game mirrored.
* Knight jump: the text says the ball goes "around a touching neighbour onto
  its platform". We read it as the closest three-dimensional knight: the
  ball goes up one level to a point resting on one of its flat neighbours
  but not on the ball itself. Seen from above, that target is one and a
  half ball widths away one way and half a width the other; as one letter
  or number of the notation is half a ball width, that is three steps and
  one step (a1 to d2 or b4), which is why the rules text describes the
  target by what it rests on rather than by a distance. Going round the neighbour on the
  same level or round the ball above (which such a target always touches)
  gives the same set of targets, so no extra ball is required. Jumps reach
  levels 1 and 2; the apex has no such point, so nobody jumps to it. The
  book's example (a white ball with one knight move and one jump, both
  winning, the jump making a ball drop) is rebuilt in the tests.
* Drops: lifting a ball lets the ball resting on it (if any) fall into its
  place; the target must be playable after the lift. A knight's target never
  rests on the dropping ball (the book remarks this for jumps, and for moves
  on one level it holds too), so the rebuild-the-column cycle cannot happen
  and no ko rule is needed for it.
* Pinned balls (two or more balls resting on them) cannot move, as in every
  game where balls are lifted.
* Groups use visible contacts, the book's usual meaning: a hidden ball, or a
  contact cut by an overpass, joins nothing, so a player with a buried ball
  cannot win until it is uncovered. A variant counts every physical contact
  instead.
* A move may unite the opponent as well (a drop or a departure can reveal a
  contact). We give the game to the mover, as the move completed their group.
* Passing only when there is no legal move; if the next player cannot move
  either, nothing can ever change and the game is drawn. When a move leaves
  neither player a move, the game is drawn at once (no pass first), so a game
  in play and the same position read from text end alike.
* Cycles: knight moves can go back and forth for ever, and nothing in the book
  stops it. We add a move limit: after 200 actions (passes included) without a
  winner the game is drawn. Random play rarely gets there (see the tests): in
  5000 random games the longest took 161 actions. The limit can be set lower
  but not higher: 200 is the declared longest game.
"""

    def __init__(self, **params) -> None:
        super().__init__(**params)
        limit = self.params["move_limit"]
        if not 1 <= limit <= self.info.max_length:
            raise UnknownGameError(f"spight move_limit is 1-{self.info.max_length} "
                                   f"(the declared longest game), not {limit!r}")

    def initial_state(self, rng=None) -> SpightState:
        return SpightState(position=START)

    def length(self, state) -> int:
        return state.ply

    # -- moves ---------------------------------------------------------------
    def _moves(self, position: Position, player: int) -> list[Move]:
        mine, theirs = (position.white, position.black) if player == 0 \
            else (position.black, position.white)
        found = []
        for p, targets in knight_options(mine, theirs)[0]:
            row = _MOVE[p]
            found += [row[q] for q in points_of(targets)]
        return found

    def legal_moves(self, state, player=None):
        if state.result is not None:
            return []
        return self._moves(state.position, state.to_move) or [PASS_MOVE]

    def gathered(self, position: Position, player: int) -> int:
        """All the player's balls when they form one group, else 0."""
        mine = position.mask(PLAYER_COLOURS[player])
        return mine if joined(mine, position.occupied, self.params["visible"]) else 0

    def united(self, position: Position, player: int) -> bool:
        """True when all the player's balls form one group."""
        return bool(self.gathered(position, player))

    def winning_points(self, state) -> int:
        """The winner's gathered group (all their balls)."""
        winner = sole_winner(state)
        return 0 if winner is None else self.gathered(state.position, winner)

    def apply(self, state, move: Move):
        mover, ply = state.to_move, state.ply + 1
        position = state.position
        if move.kind == "pass":
            result = None
            if not self._moves(position, 1 - mover):
                result = Outcome((), "neither player can move")
        else:
            mine, theirs = (position.white, position.black) if mover == 0 \
                else (position.black, position.white)
            own, other, _ = lift_ball(move.point, mine, theirs, position.occupied)
            own |= 1 << move.target
            position = position_of(own, other) if mover == 0 else position_of(other, own)
            result = self._judge(position, mover)
            # Nobody can move: drawn at once, as the same position read from text is
            # (no pass first: a pass could change nothing).
            if result is None and not self._moves(position, 1 - mover) \
                    and not self._moves(position, mover):
                result = Outcome((), "neither player can move")
        if result is None and ply >= self.params["move_limit"]:
            result = Outcome((), f"{ply} actions without a winner")
        return SpightState(position, 1 - mover, result, move, ply)

    def _judge(self, position: Position, mover: int) -> Outcome | None:
        visible = self.params["visible"]
        for player in (mover, 1 - mover):
            mine = position.white if player == 0 else position.black
            if joined(mine, position.occupied, visible):
                return self._gathered(player)
        return None

    def _gathered(self, player: int) -> Outcome:
        return Outcome((player,), f"{self.player_name(player)} gathered all "
                                  "their balls into one group")

    def random_playout(self, state, rng):
        """The generic loop's games on raw masks: the same moves in the same
        order (by source, then target), the same draws (a pass takes one too)."""
        if state.result is not None:
            return state
        rnd, visible = rng.random, self.params["visible"]
        limit = self.params["move_limit"]
        tables = _TABLES
        mover, ply = state.to_move, state.ply
        mine, theirs = (state.position.white, state.position.black) if mover == 0 \
            else (state.position.black, state.position.white)
        occ = mine | theirs
        table = knight_table(occ, mine)
        targets, counts = table[0], table[1]
        total = 0
        for p in points_in(mine):
            total += counts[p]
        while True:                       # mine: the mover's balls
            k = int(rnd() * (total or 1))
            ply += 1
            result = None
            if not total:
                p = -1                                  # a pass
                if theirs & ~table[2]:
                    knight_table(occ, theirs)
                for q in points_in(theirs):
                    total += counts[q]
                if not total:
                    result = Outcome((), "neither player can move")
            else:
                for p in points_in(mine):               # the k-th move, by source
                    n = counts[p]
                    if k < n:
                        break
                    k -= n
                q = nth_point(targets[p], k)
                if occ & SUPPORTED_MASK[p]:
                    mine, theirs, _ = lift_ball(p, mine, theirs, occ)
                    mine |= 1 << q
                else:                                   # only the ball moves
                    mine ^= 1 << p | 1 << q
                occ = mine | theirs
                if joined(mine, occ, visible):
                    result = self._gathered(mover)
                elif joined(theirs, occ, visible):
                    result = self._gathered(1 - mover)
                table = tables.get(occ)
                if table is None or theirs & ~table[2]:
                    table = knight_table(occ, theirs)
                targets, counts = table[0], table[1]
                total = 0
                for r in points_in(theirs):
                    total += counts[r]
                if result is None and not total:
                    knight_table(occ, mine)             # the mover's balls too
                    if not any(counts[r] for r in points_in(mine)):
                        result = Outcome((), "neither player can move")
            if result is None and ply >= limit:
                result = Outcome((), f"{ply} actions without a winner")
            if result is not None:
                break
            mover = 1 - mover
            mine, theirs = theirs, mine
        white, black = (mine, theirs) if mover == 0 else (theirs, mine)
        return SpightState(position_of(white, black), 1 - mover, result,
                           PASS_MOVE if p < 0 else _MOVE[p][q], ply)

    # -- text ----------------------------------------------------------------
    def status_lines(self, state) -> list[str]:
        """The turn count against the move limit (a draw when it runs out)."""
        if state.result is not None:
            return []
        limit = self.params["move_limit"]
        return [f"Turn {state.ply + 1} of {limit} (a draw after {limit} without a winner)."]

    def extra_text(self, state) -> str:
        return write_fields(ply=state.ply)

    def state_from(self, position, to_move, extras):
        fields = read_fields(self, extras, numbers=("ply",))
        return self.settle(SpightState(position, to_move, None, None, fields["ply"]))

    def settle(self, state):
        """A state read from text: a group already gathered (the last mover's
        first), no move for anyone, or the move limit reached ends the game."""
        result = self._judge(state.position, 1 - state.to_move)
        if result is None and not self._moves(state.position, state.to_move) \
                and not self._moves(state.position, 1 - state.to_move):
            result = Outcome((), "neither player can move")
        if result is None and state.ply >= self.params["move_limit"]:
            result = Outcome((), f"{state.ply} actions without a winner")
        return dataclasses.replace(state, result=result) if result else state
