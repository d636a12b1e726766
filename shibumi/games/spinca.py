"""Spinca: step any ball one point, then place yours; score the weakest group on each face.

A turn is an optional step (any unpinned ball to an empty neighbouring
point of its level, orthogonal or diagonal) and then a placement of the
mover's colour.  What a turn placed, moved or dropped is locked for the next
player's step.  The game ends when 29 balls stand (the apex stays empty);
each player then scores, on each of the pyramid's four faces, the size of
their smallest group there.

>>> from shibumi import load
>>> game = load('spinca')
>>> match = game.new_match()
>>> match.push('a1'), match.push('g7')
(Move('Wa1'), Move('Bg7'))
>>> sorted(m.text() for m in match.legal_moves() if m.kind == 'move')   # g7 is locked
['a1>a3', 'a1>c1', 'a1>c3.0']
>>> match.push('a1>c3'), match.push('e5')
(Move('a1>c3.0'), Move('We5.0'))
>>> game.status_lines(match.state)[1]
'Locked for Black: c3, e5.'
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass

from ..bits import flood, nth_point
from ..errors import NotationError, shown
from ..game import GameInfo, Outcome, State, write_fields
from ..geometry import (APEX, COORDS, DIAGONAL_NEIGHBOURS, FLAT_NEIGHBOURS, LEVEL_MASK,
                        NUM_POINTS, SIDES, SIZES, SUPPORT_MASK, SUPPORTED_MASK, TOUCHING_MASK,
                        points_of, transform_mask)
from ..notation import MOVE, Move, parse_point, point_name, square_of
from ..position import Position, playable_mask
from ..registry import register
from .placement import PLACE_MOVES, PlacementGame

#: Balls in the finished temple: every point but the apex.
TEMPLE = NUM_POINTS - 1
#: For each point, the points one step away on its level, orthogonally or diagonally.
STEPS = tuple(sum(1 << q for q in FLAT_NEIGHBOURS[p] + DIAGONAL_NEIGHBOURS[p])
              for p in range(NUM_POINTS))
#: STEP_MOVES[source][target], interned once (None where no step goes).
STEP_MOVES = tuple(tuple(Move.relocate(s, t) if STEPS[s] >> t & 1 else None
                         for t in range(NUM_POINTS)) for s in range(NUM_POINTS))
APEX_BIT = 1 << APEX
#: For each point, (point above, its supports) of the points a ball there helps carry.
_RAISED = tuple(tuple((1 << q, SUPPORT_MASK[q]) for q in range(NUM_POINTS)
                      if SUPPORT_MASK[q] >> p & 1) for p in range(NUM_POINTS))


# -- the rules on masks: legal_moves, apply and the playout all use these ----------------
# A step keeps to its level, and lifting a ball changes nothing on that level but
# the point it leaves (the balls above only drop into it), so the targets of a
# step are its level neighbours that are playable before the lift.

def column(p: int, occupied: int) -> list[int]:
    """The point p and the balls that drop when its ball is lifted, lowest first
    (each rests on the one before, as :meth:`Position.remove` drops them)."""
    chain = [p]
    above = occupied & SUPPORTED_MASK[p]
    while above:
        p = above.bit_length() - 1
        chain.append(p)
        above = occupied & SUPPORTED_MASK[p]
    return chain


def _near_tables():
    """For each byte of a mask (points 8j to 8j + 7), the union of their STEPS:
    the points one step from any of them, in four look-ups."""
    return tuple(tuple(sum_steps(byte << 8 * j) for byte in range(256)) for j in range(4))


def sum_steps(mask: int) -> int:
    """The points one step away from some point of ``mask``."""
    out = 0
    for p in points_of(mask & ((1 << NUM_POINTS) - 1)):
        out |= STEPS[p]
    return out


_NEAR = _near_tables()


def _cone(p: int) -> int:
    """Every point above p: those resting on it, those resting on them, and so on."""
    cone, frontier = 0, SUPPORTED_MASK[p]
    while frontier:
        cone |= frontier
        frontier = sum_supported(frontier) & ~cone
    return cone


def sum_supported(mask: int) -> int:
    """The points resting on some point of ``mask``."""
    out = 0
    for p in points_of(mask):
        out |= SUPPORTED_MASK[p]
    return out


#: CONE[p]: every point above p, which a lift of p could make drop.
CONE = tuple(_cone(p) for p in range(NUM_POINTS))


def step_sources(occupied: int, locked: int, playable: int) -> list[tuple[int, int]]:
    """(source, targets mask) of every ball that may step somewhere, in point order:
    not locked, not pinned, no locked ball resting on it (it would fall)."""
    n0, n1, n2, n3 = _NEAR
    near = n0[playable & 255] | n1[playable >> 8 & 255] | n2[playable >> 16 & 255] \
        | n3[playable >> 24]
    found = []
    free = occupied & ~locked & near               # only balls next to a playable point
    while free:
        low = free & -free
        free ^= low
        source = low.bit_length() - 1
        above = occupied & SUPPORTED_MASK[source]
        if above:
            if above & (above - 1):
                continue                                     # pinned
            if locked & CONE[source] and any(locked >> q & 1
                                             for q in column(source, occupied)[1:]):
                continue                                     # a locked ball would fall
        found.append((source, STEPS[source] & playable))
    return found


def after_step(masks: list[int], occupied: int, source: int, target: int):
    """Step the ball at source to target, in place on the colour masks
    (white, black, red); returns (occupied, fresh: the balls moved or dropped)."""
    chain = column(source, occupied)
    gap = chain[0]
    colour = _colour_index(masks, gap)
    masks[colour] ^= 1 << gap
    for q in chain[1:]:                                      # the column drops a level
        i = _colour_index(masks, q)
        masks[i] ^= 1 << q | 1 << gap
        gap = q
    masks[colour] |= 1 << target
    fresh = 1 << target
    for q in chain[:-1]:
        fresh |= 1 << q
    return occupied & ~(1 << chain[-1]) | 1 << target, fresh


def _colour_index(masks: list[int], p: int) -> int:
    """0, 1 or 2: which of the (white, black, red) masks holds the ball at p."""
    return 0 if masks[0] >> p & 1 else 1 if masks[1] >> p & 1 else 2


def lifted_playable(playable: int, top: int) -> int:
    """The playable mask once the ball at ``top`` (nothing on it) is taken away."""
    return (playable | 1 << top) & ~SUPPORTED_MASK[top]


def placed_playable(playable: int, occupied: int, p: int) -> int:
    """The playable mask once a ball is put at p (``occupied`` includes it)."""
    playable &= ~(1 << p)
    for above, support in _RAISED[p]:
        if occupied & support == support:
            playable |= above
    return playable


def _face(side: str) -> int:
    """The points of one face of the temple: the outer row of each level on that side."""
    mask = 0
    for p in range(APEX):
        lv, x, y = COORDS[p]
        edge = SIZES[lv] - 1
        if {"left": x == 0, "right": x == edge, "bottom": y == 0, "top": y == edge}[side]:
            mask |= 1 << p
    return mask


#: The four faces (left, right, bottom, top), nine points each; a ridge point is on two.
FACES: tuple[int, ...] = tuple(_face(side) for side in SIDES)
#: KEPT[k]: the levels counted after the top k levels of the temple are taken away.
KEPT = (LEVEL_MASK[0] | LEVEL_MASK[1] | LEVEL_MASK[2], LEVEL_MASK[0] | LEVEL_MASK[1],
        LEVEL_MASK[0])


def groups_in(mine: int) -> list[int]:
    """The groups of touching balls within a mask (balls on one face)."""
    found = []
    while mine:
        group = flood(mine & -mine, mine, TOUCHING_MASK)
        found.append(group)
        mine &= ~group
    return found


def smallest_group(mine: int) -> int:
    """The smallest group within a mask, as a mask (0 when the mask is empty;
    the lowest-numbered group among equals)."""
    best = 0
    for group in groups_in(mine):
        if not best or group.bit_count() < best.bit_count():
            best = group
    return best


def face_scores(colour_mask: int, kept: int = KEPT[0]) -> tuple[int, ...]:
    """A colour's score on each face: the size of its smallest group there (0 when
    it has no ball there), counting only the points of ``kept``.

    >>> pos = Position('BWWW/B..W/B..W/BWWW|.../.../...|../..|.')
    >>> face_scores(pos.white), face_scores(pos.black)
    ((0, 4, 3, 3), (4, 0, 1, 1))
    """
    size = _SMALLEST.get
    scores = []
    for face in FACES:
        mine = colour_mask & face & kept
        n = size(mine)
        if n is None:
            n = _SMALLEST[mine] = smallest_group(mine).bit_count()
        scores.append(n)
    return tuple(scores)


#: smallest_group(mask).bit_count() for the masks within one face met so far: a face
#: has nine points, so at most 4 x 512 entries, and every game ends with a count.
_SMALLEST: dict[int, int] = {}


@dataclass(frozen=True)
class SpincaState(State):
    """A Spinca state.

    ``locked``: balls placed, moved or dropped during the previous turn (they
    may not move this turn); ``fresh``: those of the turn in progress (after a
    step); ``stepped``: whether the mover has made this turn's step; ``ply``:
    actions played.
    """
    locked: int = 0
    fresh: int = 0
    stepped: bool = False
    ply: int = 0


@register
class Spinca(PlacementGame):
    info = GameInfo(
        name="Spinca", designer="Phil Leduc", year="2011",
        family="Counting", source="Annexe 1 of the French edition of the Shibumi Rule Book",
        summary="Step a ball, place one of yours, build an Inca temple of 29 balls: "
                "each face scores only your smallest group there.",
        min_players=2, max_players=3, complexity=2, max_length=2 * TEMPLE)
    parameters = {"players": 2}

    rules = """\
Two players, White and Black, or three with Red, who plays third. The board
starts empty; each player uses the balls of their colour. Together the
players build an "Inca temple": the whole pyramid but its apex, 29 balls.
No ball ever goes on the apex.

**A turn** has two parts, in this order.

1. *A step (optional).* Pick up any ball, of any colour, that is not pinned
   (no two balls rest on it), and put it on an empty playable point next to
   it on the same level, one step along a row, a column or a diagonal. If a
   ball rested on it, that ball falls into the point it left (and a ball on
   that one follows). Write it `a1>c3`.
2. *A placement (compulsory).* Put a ball of your colour on any playable
   point but the apex. That ends your turn.

**Locks.** Every ball placed, moved or dropped during a turn is locked for
the next player's turn: that player may not step it, nor step a ball whose
departure would make it fall.

**End.** When 29 balls stand, each player looks at each of the four
triangular faces of the temple (the outer row of every level on one side,
nine points) and finds their smallest group of touching balls there; its
size is that face's score, 0 for a face without any of their balls. A ball
on a ridge belongs to both faces. The four face scores add up to the
player's total.

With two players the higher total wins. With three, the highest total
wins, but if two players tie for the highest, the third player wins. A
tie that remains (two players level, or all three) is settled by taking
the top level (level 2) away and counting again, then level 1; if the
players are still level on the board alone, the game is drawn.

Each turn adds one ball, so the game lasts 29 turns: with two players
White places 15 balls and Black 14; with three, 10, 10 and 9.
"""
    notes = """\
Source: Annexe 1 of the French edition of the Shibumi Rule Book; game by
Phil Leduc (2011). The figures (a turn of White's and a finished temple with
its four faces scored) are lost.

* The step. "Any free ball (not pinned)" is read with the system's meaning
  of pinned: a ball with two or more balls resting on it. A ball carrying one
  ball may step, and that ball falls into the point it left; the text speaks
  of falls caused by a step, which needs this. Any colour may step.
* "A free neighbouring place, orthogonal or diagonal" is read as an empty,
  playable point one step away on the ball's own level, along a row, a column
  or a diagonal (the eight directions of a king in chess). Steps between
  levels are not allowed: "orthogonal or diagonal" describes a grid, and a
  level is one. The point left behind may not be the target (it is not a
  neighbour), so a step always changes the position.
* Locks. What the previous player placed, stepped, or made fall is locked
  for one turn: the current player may not step such a ball, nor step a ball
  it rests on (that would make it fall). Locks come only from the turn just
  before; with three players, what the player before last did is free again.
  Locks never stop a placement.
* The apex is never used: no placement goes there, and no step can reach it.
  Every turn adds exactly one ball, so the game ends after 29 turns, and
  there is always a playable point below the apex until then.
* Faces. A face is the outer row of each level on one side of the pyramid:
  4 + 3 + 2 points, nine in all (the apex is unused). The text's example
  confirms it: on its faces the two players' figures could only come from
  nine balls (4 and 1 on one face, 6 and 1 on another). Groups on a face are
  balls of one colour touching one another within the face: neighbours along
  a level's edge, and a ball with the two balls of the face it rests on. All
  face balls are on the outside, so every such contact is visible.
* A face without any ball of a player scores 0 for that player: the smallest
  of no groups is read as nothing. (The alternative, ignoring the face,
  would reward staying away from it, against the game's idea of caring for
  one's weakest part.)
* Three players. "If two players are equal, the third wins" is read as a tie
  for the highest total; a tie for second place changes nothing.
* Tie-break. "Remove the last level and count again" is read as: take away
  the top level of the temple (level 2) and score the faces again with the
  balls that remain on them (seven points a face), applying the same rules;
  if still tied, take level 1 away too and count the board's edges alone;
  still tied there, the game is a draw. In three-player games the recount
  applies the two-way tie rule again.
* The outcome's scores are the totals of the full temple; the reason says
  when a recount decided.
* The text's worked figure is lost. The chapter rebuilds a finished temple
  whose faces score as the text's example (4-1, 1-6, 1-1, 6-1: White 12,
  Black 9).
"""

    # -- rules -------------------------------------------------------------------------
    def initial_state(self, rng: random.Random | None = None) -> SpincaState:
        return SpincaState()

    def length(self, state) -> int:
        return state.ply

    def legal_moves(self, state, player=None) -> list[Move]:
        if state.result is not None:
            return []
        playable = playable_mask(state.position.occupied)
        row = PLACE_MOVES[self.colour_of(state.to_move)]
        moves = [row[p] for p in points_of(playable & ~APEX_BIT)]
        if not state.stepped:
            moves = self._step_moves(state.position.occupied, state.locked, playable) + moves
        return moves

    @staticmethod
    def steps(position: Position, locked: int) -> list[Move]:
        """Every step allowed with these locked balls."""
        return Spinca._step_moves(position.occupied, locked, playable_mask(position.occupied))

    @staticmethod
    def _step_moves(occupied: int, locked: int, playable: int) -> list[Move]:
        found = []
        for source, targets in step_sources(occupied, locked, playable):
            row = STEP_MOVES[source]
            found.extend(row[t] for t in points_of(targets))
        return found

    def apply(self, state, move: Move) -> SpincaState:
        pos = state.position
        if move.kind == MOVE:
            masks = [pos.white, pos.black, pos.red]
            _, fresh = after_step(masks, pos.occupied, move.point, move.target)
            return SpincaState(Position.from_masks(*masks), state.to_move, None, move,
                               state.locked, fresh, True, state.ply + 1)
        position = pos.place(move.point, move.colour)
        after = SpincaState(position, (state.to_move + 1) % self.num_players, None, move,
                            state.fresh | 1 << move.point, 0, False, state.ply + 1)
        return self.settle(after)

    def random_playout(self, state, rng) -> SpincaState:
        """Same games as the generic loop, on raw masks: the same step and
        placement lists as ``legal_moves`` (counted, not built), no state built
        until the end."""
        if state.result is not None:
            return state
        rnd = rng.random
        n = self.num_players
        pos = state.position
        masks = [pos.white, pos.black, pos.red]
        occupied, mover, ply, last = pos.occupied, state.to_move, state.ply, state.last
        locked, fresh, stepped = state.locked, state.fresh, state.stepped
        playable = playable_mask(occupied)
        while True:
            places = playable & ~APEX_BIT
            count = places.bit_count()
            if stepped:
                i = int(rnd() * count)
            else:
                sources = step_sources(occupied, locked, playable)
                steps = 0
                for _, targets in sources:
                    steps += targets.bit_count()
                i = int(rnd() * (steps + count)) - steps
                if i < 0:                                   # a step
                    i += steps
                    for source, targets in sources:
                        k = targets.bit_count()
                        if i < k:
                            break
                        i -= k
                    target = nth_point(targets, i)
                    top = column(source, occupied)[-1]
                    playable = lifted_playable(playable, top)
                    occupied, fresh = after_step(masks, occupied, source, target)
                    playable = placed_playable(playable, occupied, target)
                    last, stepped, ply = STEP_MOVES[source][target], True, ply + 1
                    continue
            p = nth_point(places, i)
            colour = self.colour_of(mover)
            masks[colour - 1] |= 1 << p
            occupied |= 1 << p
            playable = placed_playable(playable, occupied, p)
            last, ply = PLACE_MOVES[colour][p], ply + 1
            locked, fresh, stepped = fresh | 1 << p, 0, False
            mover = (mover + 1) % n
            if occupied.bit_count() == TEMPLE:
                break
        position = Position.from_masks(*masks)
        return SpincaState(position, mover, self.final(position), last, locked, 0, False, ply)

    def settle(self, state) -> SpincaState:
        if state.result is None and state.position.occupied.bit_count() == TEMPLE:
            return dataclasses.replace(state, result=self.final(state.position))
        return state

    # -- the end -----------------------------------------------------------------------
    def totals(self, position: Position, kept: int = KEPT[0]) -> tuple[int, ...]:
        """Each player's total: their face scores added up."""
        return tuple(sum(face_scores(position.mask(self.colour_of(p)), kept))
                     for p in range(self.num_players))

    def final(self, position: Position) -> Outcome:
        """The winner of a finished temple, with the recounts of a tie."""
        n = self.num_players
        first = self.totals(position)
        shown_totals = ", ".join(f"{self.player_name(p)} {t}" for p, t in enumerate(first))
        for removed, kept in enumerate(KEPT):
            totals = self.totals(position, kept)
            best = max(totals)
            top = tuple(p for p in range(n) if totals[p] == best)
            recount = "" if not removed else \
                f" (decided with the top {removed} level{'s' * (removed > 1)} taken away)"
            if len(top) == 1:
                winner = top[0]
                return Outcome((winner,), f"totals {shown_totals}; {self.player_name(winner)} "
                               f"has the most{recount}", tuple(map(float, first)))
            if n == 3 and len(top) == 2:
                (third,) = set(range(3)) - set(top)
                return Outcome((third,), f"totals {shown_totals}; "
                               f"{self.player_name(top[0])} and {self.player_name(top[1])} "
                               f"tie for the most, so {self.player_name(third)} "
                               f"wins{recount}", tuple(map(float, first)))
        return Outcome((), f"totals {shown_totals}; still level with the board alone",
                       tuple(map(float, first)))

    def winning_points(self, state) -> int:
        """The winner's smallest group on each face (what scored)."""
        if state.result is None or len(state.result.winners) != 1:
            return 0
        mine = state.position.mask(self.colour_of(state.result.winners[0]))
        mask = 0
        for face in FACES:
            mask |= smallest_group(mine & face)
        return mask

    # -- symmetry and text -------------------------------------------------------------
    def transform_state(self, state, perm):
        turned = super().transform_state(state, perm)
        return dataclasses.replace(turned, locked=transform_mask(state.locked, perm),
                                   fresh=transform_mask(state.fresh, perm))

    def status_lines(self, state) -> list[str]:
        """Whose step or placement it is, the locked balls, the face totals so far."""
        pos, mover = state.position, self.player_name(state.to_move)
        lines = []
        if state.result is None:
            lines.append(f"{mover} must place a ball." if state.stepped else
                         f"{mover} may first step a ball, then must place one.")
            locked = state.locked & pos.occupied
            if locked:
                lines.append(f"Locked for {mover}: "
                             + ", ".join(square_of(p) for p in points_of(locked)) + ".")
        totals = self.totals(pos)
        lines.append(("Totals: " if state.result else "Face totals so far: ")
                     + ", ".join(f"{self.player_name(p)} {t}" for p, t in enumerate(totals))
                     + f" ({pos.count()} of {TEMPLE} balls).")
        return lines

    def extra_text(self, state) -> str:
        def names(mask):
            return ",".join(point_name(p) for p in points_of(mask)) or None
        return write_fields(locked=names(state.locked), fresh=names(state.fresh),
                            stepped=state.stepped,
                            ply=state.ply if state.ply != state.position.count() else None)

    def state_from(self, position, to_move, extras) -> SpincaState:
        fields = {"locked": 0, "fresh": 0, "stepped": False, "ply": None}
        for token in extras.split():
            key, eq, value = token.partition("=")
            try:
                if key in ("locked", "fresh") and eq and value:
                    fields[key] = sum(1 << parse_point(v) for v in value.split(","))
                elif key == "ply" and eq and value.isdigit() and len(value) < 4:
                    fields[key] = int(value)
                elif key == "stepped" and not eq:
                    fields[key] = True
                else:
                    raise NotationError(token)
            except NotationError:
                raise NotationError(f"Spinca state field {shown(token)} not understood; "
                                    "fields: locked=<points> fresh=<points> stepped "
                                    "ply=<number>") from None
        name = "Spinca state"
        if position.occupied >> APEX & 1:
            raise NotationError(f"{name}: the apex is never used")
        self.check_turn_counts(position, to_move)
        if (fields["locked"] | fields["fresh"]) & ~position.occupied:
            raise NotationError(f"{name}: locked and fresh balls must be on the pyramid")
        if fields["fresh"] and not fields["stepped"]:
            raise NotationError(f"{name}: fresh balls come only from a step (stepped)")
        if fields["stepped"] and not fields["fresh"]:
            raise NotationError(f"{name}: a step leaves the stepped ball fresh")
        balls = position.count()
        ply = balls + fields["stepped"] if fields["ply"] is None else fields["ply"]
        if not balls + fields["stepped"] <= ply <= 2 * balls + fields["stepped"]:
            raise NotationError(f"{name}: ply={ply} does not fit {balls} balls placed "
                                "(one placement a turn, at most one step before it)")
        return self.settle(SpincaState(position, to_move, None, None, fields["locked"],
                                       fields["fresh"], fields["stepped"], ply))


__all__ = ["FACES", "KEPT", "STEPS", "Spinca", "SpincaState", "TEMPLE", "face_scores",
           "groups_in", "smallest_group"]
