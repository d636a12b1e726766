"""Spice: grow the biggest group; a new record lets your opponent take a ball away."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..bits import group_mask, hidden_of, nth_point, playable_cached, remove_ball, unpinned
from ..errors import NotationError, UnknownGameError
from ..game import Game, GameInfo, Outcome, State
from ..geometry import APEX, NUM_POINTS, points_of
from ..notation import PASS_MOVE, Move
from ..position import BLACK, WHITE, Position
from ..registry import register
from ..game import read_fields, write_fields
from ..position import INTERIOR_REDS
from .placement import PLACE_MOVES, REMOVE_MOVES, playable_points, sole_winner

PLAYER_COLOURS = (WHITE, BLACK)
FULL = (1 << NUM_POINTS) - 1


def group_sizes(position: Position, colour: int) -> list[int]:
    """Sizes of the visible groups of a colour, largest first."""
    occupied, mine = position.occupied, position.mask(colour)
    hidden = hidden_of(occupied)
    left, sizes = mine & ~hidden, []
    while left:
        group = group_mask((left & -left).bit_length() - 1, mine, occupied, True, hidden)
        sizes.append(group.bit_count())
        left &= ~group
    return sorted(sizes, reverse=True)


def apex_off(position: Position) -> Position:
    """The position as scored: the apex ball lifted off."""
    if position.occupied >> APEX & 1:
        position, _ = position.remove(APEX)
    return position


def largest_group(position: Position) -> int:
    """The largest white or black group (red balls are neutral and never count)."""
    return largest_of(position.white, position.black, position.occupied)


def largest_of(white: int, black: int, occupied: int) -> int:
    """:func:`largest_group` on masks: the largest visible white or black group."""
    hidden = hidden_of(occupied)
    best = 0
    for colour in (white, black):
        left = colour & ~hidden
        while left.bit_count() > best:
            group = group_mask((left & -left).bit_length() - 1, colour, occupied, True, hidden)
            best = max(best, group.bit_count())
            left &= ~group
    return best


@dataclass(frozen=True)
class SpiceState(State):
    ply: int = 0
    """Actions played so far (removals, placements and passes)."""
    record: int = 0
    """Largest white or black group when the current turn began."""
    placed: int = 0
    """Balls the mover has placed this turn (0 or 1)."""
    may_remove: bool = False
    """The mover may still take away a ball (the opponent set a new record)."""


@register
class Spice(Game):
    info = GameInfo(
        name="Spice", designer="Martin Grider", year="2011",
        family="Connection", source="Shibumi Rule Book (2012)",
        summary="Place one or two balls a turn to build the largest group; whoever "
                "beats the board's record lets the opponent remove a ball.",
        complexity=2, max_length=1335)
    parameters = {"tiebreak": "next"}

    rules = """\
The game starts with five neutral red balls forming a small pyramid in the
middle (the four centre holes and the point above them on level 1). White
moves first.

On your turn place one or two balls of your own colour on playable points.
The very first turn of the game (White's) places only one ball. After your
first ball you may place a second one or end your turn (written `pass`).

Record: if, when your turn ends, some white or black group is larger than
every white or black group that was on the board when your turn began, your
opponent may start their next turn by taking away any ball that is not
pinned (any colour, red included); balls resting on it drop into the gap.
Then they place their one or two balls as usual. Groups are joined by
contacts seen from above; red balls belong to nobody.

Play stops once all 30 points are filled. Lift the apex ball off, then
compare groups: the player owning the largest one wins. If the largest groups are the
same size, the second largest decide, then the third, and so on; if every
size matches the game is drawn.
"""
    notes = """\
* Start (figure lost): red balls on the five interior points (c3, e3, c5, e5
  of the board, d4 of level 1), as in Sponnect; the catalogue of figures
  gives this, less surely than for Sponnect, and the text's "as shown" after
  the same words as in Sponnect supports it.
* "Larger group than existed before the move": we compare the largest white
  or black group at the end of the turn with the largest white or black
  group at its start (before any removal), following the French text ("the
  largest group that existed before playing") and Ketchup, the game Spice
  adapts, where making a group bigger than any other of either colour gives
  the opponent the bonus. The very first ball of the game makes a group of
  one where there was none, so Black may remove on the first reply.
* The removal is optional and comes first in the turn (the French text: the
  opponent removes before playing). Any movable ball may go: own, enemy or
  red. It is gone for good; the pyramid still needs 30 balls to be complete.
* One or two balls: after the first placement the mover chooses between a
  second placement and ending the turn, written `pass`. A placement that
  completes the pyramid ends the game at once.
* Scoring: the apex ball is removed before counting (the text says so); only
  white and black groups count, by visible contacts (the book's usual
  meaning). Ties are not settled in the text: we compare the second largest
  groups and so on, as Ketchup does, and call a complete match a draw. A
  variant makes any tie in the largest group a draw. A ball hidden under level
  2 belongs to no group at all, not even a group of one: it is out of the
  count and out of the tie-break (it can decide a tie, rarely, when the groups
  otherwise match).
* The set holds 16 balls of each colour; the rule book does not mention
  running out, and we do not limit the supply.
* Length: the game always ends. A turn never lowers the number of balls, a
  turn without a removal raises it, and a removal is only possible after a
  turn that beat the record; a run of turns that keep the count unchanged
  must beat the record every time, so at a count of b balls such a run is at
  most b turns long. That bounds a game by 25 + (6 + 7 + ... + 29) = 445
  turns of at most 3 actions: 1335 actions, far above real games.
"""

    def __init__(self, **params) -> None:
        super().__init__(**params)
        if self.params["tiebreak"] not in ("next", "draw"):
            raise UnknownGameError("spice parameter tiebreak is 'next' or 'draw', "
                                   f"not {self.params['tiebreak']!r}")

    def initial_state(self, rng=None) -> SpiceState:
        return SpiceState(position=INTERIOR_REDS)

    def length(self, state) -> int:
        return state.ply

    def legal_moves(self, state, player=None):
        if state.result is not None:
            return []
        position = state.position
        row = PLACE_MOVES[PLAYER_COLOURS[state.to_move]]
        moves = [row[p] for p in playable_points(position.occupied)]
        if state.placed:
            moves.append(PASS_MOVE)
        elif state.may_remove:
            occupied = position.occupied
            moves.extend(REMOVE_MOVES[p] for p in points_of(unpinned(occupied, occupied)))
        return moves

    def apply(self, state, move: Move):
        ply, mover = state.ply + 1, state.to_move
        if move.kind == "remove":
            position, _ = state.position.remove(move.point)
            return dataclasses.replace(state, position=position, last=move, ply=ply,
                                       may_remove=False)
        if move.kind == "pass":
            return self._end_turn(state, state.position, move, ply)
        position = state.position.place(move.point, move.colour)
        if position.occupied == FULL:
            return SpiceState(position, 1 - mover, self.score(position), move, ply,
                              state.record, 0, False)
        if state.placed or state.ply == 0:      # the second ball, or the opening ball
            return self._end_turn(state, position, move, ply)
        return dataclasses.replace(state, position=position, last=move, ply=ply,
                                   placed=1, may_remove=False)

    def _end_turn(self, state, position, move, ply):
        largest = largest_group(position)
        return SpiceState(position, 1 - state.to_move, None, move, ply,
                          largest, 0, largest > state.record)

    def random_playout(self, state, rng):
        """The generic loop's games on raw masks: the same moves in the same order
        (placements by point, then the pass or the removals) and the same draws."""
        if state.result is not None:
            return state
        rnd = rng.random
        pos = state.position
        masks = [pos.white, pos.black, pos.red]
        mover, ply, record = state.to_move, state.ply, state.record
        placed, may_remove, move = state.placed, state.may_remove, state.last
        while True:
            occ = masks[0] | masks[1] | masks[2]
            places = playable_cached(occ)
            n = places.bit_count()
            if placed:
                extra = 1
            elif may_remove:
                movable = unpinned(occ, occ)
                extra = movable.bit_count()
            else:
                extra = 0
            k = int(rnd() * (n + extra))
            ply += 1
            if k < n:
                p = nth_point(places, k)
                masks[mover] |= 1 << p
                move = PLACE_MOVES[PLAYER_COLOURS[mover]][p]
                if occ | 1 << p == FULL:
                    position = Position.from_masks(*masks)
                    return SpiceState(position, 1 - mover, self.score(position), move, ply,
                                      record, 0, False)
                if not placed and ply != 1:
                    placed, may_remove = 1, False
                    continue
            elif placed:
                move = PASS_MOVE
            else:
                p = nth_point(movable, k - n)
                remove_ball(masks, occ, p)
                move = REMOVE_MOVES[p]
                may_remove = False
                continue
            largest = largest_of(masks[0], masks[1], masks[0] | masks[1] | masks[2])
            mover, placed, may_remove, record = 1 - mover, 0, largest > record, largest

    def score(self, position: Position) -> Outcome:
        """The outcome of a complete pyramid: apex off, then compare groups."""
        position = apex_off(position)
        sizes = [group_sizes(position, c) for c in PLAYER_COLOURS]
        scores = (float(sizes[0][0] if sizes[0] else 0), float(sizes[1][0] if sizes[1] else 0))
        if self.params["tiebreak"] == "draw":
            sizes = [s[:1] for s in sizes]
        white, black = sizes
        if white == black:
            return Outcome((), "the groups match in size", scores, ((0, 1),))
        winner = 0 if white > black else 1
        how = "largest group" if scores[0] != scores[1] else "tie broken by the next groups"
        return Outcome((winner,), f"{self.player_name(winner)} has the {how} "
                                  f"({int(scores[0])}-{int(scores[1])})",
                       scores, ((winner,), (1 - winner,)))

    def winning_points(self, state) -> int:
        """The winner's largest group, when the largest groups decided (apex off)."""
        winner = sole_winner(state)
        if winner is None:
            return 0
        position = apex_off(state.position)
        (mine, groups), (theirs, _) = (position.largest_groups(PLAYER_COLOURS[p])
                                       for p in (winner, 1 - winner))
        return groups if mine > theirs else 0

    # -- text ----------------------------------------------------------------
    def status_lines(self, state) -> list[str]:
        """The record to beat, a removal owed, a second ball to place."""
        if state.result is not None:
            return []
        me, you = self.player_name(state.to_move), self.player_name(1 - state.to_move)
        lines = []
        if state.may_remove:
            lines.append(f"{you} set a new record: {me} may first take away a ball "
                         "that is not pinned.")
        if state.placed:
            lines.append(f"{me} may place a second ball or end the turn (pass).")
        if state.ply:
            lines.append(f"Largest group at the start of this turn: {state.record} "
                         f"ball{'s' * (state.record != 1)}; a larger one lets {you} "
                         "take a ball away.")
        return lines

    def extra_text(self, state) -> str:
        return write_fields(ply=state.ply, record=state.record, placed=state.placed,
                            remove=state.may_remove)

    def state_from(self, position, to_move, extras):
        fields = read_fields(self, extras, numbers=("ply", "record", "placed"),
                             flags=("remove",))
        if fields["placed"] > 1 or (fields["placed"] and fields["remove"]):
            raise NotationError("Spice state: placed is 0 or 1, and a removal can "
                                "only open a turn (remove with placed=1 is impossible)")
        state = SpiceState(position, to_move, None, None, fields["ply"], fields["record"],
                           fields["placed"], fields["remove"])
        return self.settle(state)

    def settle(self, state):
        if state.position.occupied == FULL:
            return dataclasses.replace(state, result=self.score(state.position))
        return state
