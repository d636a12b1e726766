"""Spook: build a haunted castle, then feed all your balls to the ghost.

Red and Black fill the pyramid in turn (Red places 15 balls, Black 14) and
Black crowns it with the white ghost, Spooky. In the getaway the ghost
swallows the balls next to it; you win when it has taken every ball of yours.

>>> from shibumi import load
>>> game = load("spook")
>>> s = game.parse_state("RBRB/BRBR/RBRB/BRBR|RBR/BRB/RBR|BR/RB|W 1 ply=30")
>>> sorted(m.text() for m in game.legal_moves(s))   # the four balls under the ghost
['xc3.2', 'xc5.2', 'xe3.2', 'xe5.2']
>>> after = game.apply(s, game.legal_moves(s)[0])
>>> from shibumi.notation import point_name
>>> point_name(ghost_point(after.position)), game.player_name(after.to_move)
('c3.2', 'Black')
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import random

from ..bits import carried, playable_cached, points_in, remove_ball, unpinned
from ..errors import NotationError
from ..game import Game, GameInfo, Outcome, State, read_fields, write_fields
from ..geometry import (APEX, BOARD_MASK, FLAT_NEIGHBOURS, NUM_POINTS,
                        SUPPORT_MASK, SUPPORTED_MASK)
from ..notation import PASS_MOVE, Move, point_name
from ..position import BLACK, RED, WHITE, Position
from ..registry import register
from .placement import PLACE_MOVES, REMOVE_MOVES, sole_winner

PLAYER_COLOURS = (RED, BLACK)
"""Red moves first, Black second; the white ball is the ghost."""
BALLS = (15, 14)
"""Balls each player puts in: Red also places the 29th ball, the only point left."""
BUILT = sum(BALLS)                          # 29 balls before the ghost comes
GETAWAY_START = BUILT + 1                   # actions played when the getaway begins

#: Same-level orthogonal neighbours of each point, as masks.
FLAT_MASK: tuple[int, ...] = tuple(sum(1 << q for q in FLAT_NEIGHBOURS[p])
                                   for p in range(NUM_POINTS))
#: Points ``a`` -> ``b`` moves of the ghost, interned once.
GHOST_MOVES = tuple(tuple(Move.relocate(a, b) for b in range(NUM_POINTS))
                    for a in range(NUM_POINTS))
#: Actions a getaway can last: every removal can be preceded by a ghost move
#: and a pass, and followed by the pass that ends a chain (see the notes).
MAX_ACTIONS = GETAWAY_START + 4 * (BUILT - 1)


def ghost_point(position: Position) -> int | None:
    """Where the ghost is (None while the castle is being built)."""
    return position.white.bit_length() - 1 if position.white else None


def free_balls(occupied: int, mask: int) -> int:
    """The balls of ``mask`` with nothing resting on them."""
    return mask & occupied & ~carried(occupied)[0]


def chain_captures(g: int, occupied: int, balls: int) -> int:
    """Captures in a chain from a ghost at ``g``: free balls of ``balls`` beside it."""
    return free_balls(occupied, FLAT_MASK[g] & balls)


def ghost_captures(g: int, occupied: int) -> int:
    """Captures out of a chain from a ghost at ``g``: a ball under it that holds up
    exactly one ball (so the ghost alone), or a free ball beside it."""
    covered, pinned = carried(occupied)
    return (SUPPORT_MASK[g] & covered & ~pinned | FLAT_MASK[g] & ~covered) & occupied


def captures(position: Position, chain: int = 0) -> int:
    """The balls the ghost may take now, as a mask.

    Out of a chain: a ball under the ghost that holds nothing else (the ghost
    drops into its place) or a free ball beside it on its level (the ghost
    moves there). In a chain of ``chain``-coloured captures only free balls of
    that colour beside the ghost.
    """
    g = ghost_point(position)
    if chain:
        return chain_captures(g, position.occupied, position.mask(chain))
    return ghost_captures(g, position.occupied)


def isolated_at(g: int, occupied: int) -> bool:
    """:func:`is_isolated` on masks."""
    return not (FLAT_MASK[g] | SUPPORT_MASK[g]) & occupied


def is_isolated(position: Position) -> bool:
    """Nothing beside the ghost on its level and nothing under it (so it is on the board)."""
    return isolated_at(ghost_point(position), position.occupied)


def targets_of(g: int, occupied: int) -> int:
    """:func:`ghost_targets` on masks."""
    balls = occupied & ~(1 << g)
    open_ = playable_cached(occupied)
    holes = 0
    for h in points_in(open_ & BOARD_MASK):
        if FLAT_MASK[h] & balls:
            holes |= 1 << h
    return holes | open_ & ~BOARD_MASK


def ghost_targets(position: Position) -> int:
    """Where an isolated ghost may be put: a hole beside a ball, or any platform."""
    return targets_of(ghost_point(position), position.occupied)


@dataclass(frozen=True)
class SpookState(State):
    ply: int = 0
    """Actions played so far."""
    chain: int = 0
    """The colour the mover is capturing in a chain (0 when no chain is under way)."""


@register
class Spook(Game):
    info = GameInfo(
        name="Spook", designer="Dieter Stein", year="2011",
        family="Elimination", source="Annexe 1 of the French edition of the Shibumi Rule Book",
        summary="Fill the pyramid, crown it with a ghost, then steer the ghost so that it "
                "swallows all your balls before your opponent's.",
        complexity=2, max_length=MAX_ACTIONS)
    player_names = ("Red", "Black")

    rules = """\
Two players, Red and Black, and an empty board. The white ball is the ghost,
Spooky. The aim is to be the first to get every ball of your colour out of
the pyramid, taken by the ghost.

Building the castle. Red starts; players take turns putting a ball of their
own colour on any playable point (an empty hole or a complete 2x2 platform).
After 28 balls a single point of level 2 is still open, and Red fills it:
Red has 15 balls in the pyramid, Black 14. Black then puts the ghost on the
apex.

The getaway. Red moves first. On your turn do one of these:

* Drop the ghost: take away a ball of either colour that the ghost rests on
  and that holds up nothing but the ghost. The ghost falls into its place.
* Move the ghost: take away a free ball (nothing rests on it) of either
  colour that sits beside the ghost on the ghost's level, in a row or column
  (not diagonally), and move the ghost into its place. Then, if you like, do
  it again from the ghost's new place, and again, as long as each ball you
  take has the colour of the first one. Stop whenever you want (`pass`). A
  turn never mixes moving and dropping.

Only when neither is possible:

* If the ghost is isolated (no ball beside it on its level and none under
  it, which can only happen on the board), put it on an empty hole beside
  some ball of the board level, or on any complete platform (written as a
  move of the ghost, like `a1>d2`).
* Otherwise take away any ball of your opponent's that is not pinned (a
  pinned ball holds up two or more balls). If one ball rests on it, that ball
  drops into its place, and any ball on that one follows.
* If your opponent has no such ball either, you pass.

The game ends as soon as one colour has no ball left in the pyramid: that
player wins, whoever made the last removal.
"""
    notes = """\
* Who starts, and the 29th ball (the designer's own English rules and
  another implementation, donkirkby/shibumi-games, agree): Red places
  first and the players alternate. After 28 free placements the only open
  point is the last one of level 2, so the 29th ball, Red's, is forced; Red
  ends with 15 balls and Black with 14. The French text says only that a
  white ball is put on the apex; the designer has Black put it there, as the
  last action of the building phase, and Red opens the getaway (the French
  text says so too). Every ball is a real action here, so the 29th ball and
  the ghost appear in game records.
* The aim, which the French text words as having all one's balls gone, is to
  have one's own balls taken: the designer's objective reads "get all of your
  balls caught by Spooky". Removing your opponent's last ball therefore makes
  your opponent win, and the game stops at once, even in the middle of a
  chain.
* "Isolated" (the French text: only holes or edges around it). We follow the
  designer's program: the ghost is isolated when no ball sits beside it on
  its level (rows and columns) and none under it. A ghost on a platform
  always rests on four balls, so only a ghost on the board can be isolated.
* Where an isolated ghost goes. The French text: beside any ball on the
  board, or on a platform. We read it, with the designer's program, as an
  empty hole next to a ball of the board level (in a row or column), or any
  complete platform at all.
* "Free" ball (*bille libre*): a ball with nothing resting on it, the system's
  usual meaning and the designer's program. So a sideways capture never drops
  anything, and nothing ever rests on the ghost.
* Chains: after each sideways capture the mover may go on only while a free
  ball of the first ball's colour sits beside the ghost's new place; the turn
  ends by itself when there is none, else the mover says `pass`. Balls under
  the ghost cannot be taken in a chain (the text: the two options do not mix).
* A ball under the ghost may be taken, whatever its colour, only if the ghost
  is the one ball it holds up ("supporting only Spooky"); otherwise it is
  pinned anyway.
* The forced removal may take any unpinned ball of the opponent's, anywhere,
  and the column above it drops as usual. It never moves the ghost: a ball
  under the ghost that could move would have been a capture.
* Neither capture nor removal: the French text does not cover a ghost that
  is not isolated while every ball of the opponent's is pinned (the
  designer's program leaves the player without a move). We let the player
  pass. It never happens twice running: the highest ball other than the
  ghost is never pinned, and if it is not the opponent's it is the
  passer's, which the opponent then removes.
* Length: a removal takes one ball away for good, and the game is over once
  one colour is gone, so there are at most 28 removals. Before a removal
  there can be at most one ghost move (after it the ghost is not isolated)
  and one pass (after a pass the other player always has a removal), and
  after it at most the pass that ends a chain. With the 30 building actions
  that bounds a game by 30 + 4 x 28 = 142 actions.
* The worked example of the French text (its figures are lost) is rebuilt in
  the tests and the chapter on a position of our own with the same story:
  Black to move wins by dropping the ghost and loses by moving it sideways.
"""

    def initial_state(self, rng=None) -> SpookState:
        return SpookState()

    def length(self, state) -> int:
        return state.ply

    # -- rules ------------------------------------------------------------------
    def legal_moves(self, state, player=None):
        if state.result is not None:
            return []
        position = state.position
        g = ghost_point(position)
        if g is None:
            if position.occupied.bit_count() == BUILT:
                return [PLACE_MOVES[WHITE][APEX]]
            row = PLACE_MOVES[PLAYER_COLOURS[state.to_move]]
            return [row[p] for p in points_in(playable_cached(position.occupied))]
        taken = captures(position, state.chain)
        if state.chain:
            return [REMOVE_MOVES[p] for p in points_in(taken)] + [PASS_MOVE]
        if taken:
            return [REMOVE_MOVES[p] for p in points_in(taken)]
        if is_isolated(position):
            return [GHOST_MOVES[g][t] for t in points_in(ghost_targets(position))]
        theirs = unpinned(position.mask(PLAYER_COLOURS[1 - state.to_move]), position.occupied)
        return [REMOVE_MOVES[p] for p in points_in(theirs)] or [PASS_MOVE]

    def apply(self, state, move: Move):
        position, mover, ply = state.position, state.to_move, state.ply + 1
        if move.kind == "place":
            return SpookState(position.place(move.point, move.colour), 1 - mover, None,
                              move, ply)
        if move.kind == "pass":
            return SpookState(position, 1 - mover, None, move, ply)
        g = ghost_point(position)
        if move.kind == "move":                  # an isolated ghost is put back in play
            white = position.white ^ (1 << g) ^ (1 << move.target)
            return SpookState(Position.from_masks(white, position.black, position.red),
                              1 - mover, None, move, ply)
        q = move.point
        colour = position.colour_at(q)
        chain = 0
        if captures(position, state.chain) >> q & 1:
            if SUPPORT_MASK[g] >> q & 1:
                position, _ = position.remove(q)      # the ghost drops into q
            else:
                masks = [0, position.white, position.black, position.red]
                masks[colour] &= ~(1 << q)
                masks[WHITE] = 1 << q
                position = Position.from_masks(*masks[1:])
                if captures(position, colour):
                    chain = colour
        else:
            position, _ = position.remove(q)          # the forced removal
        after = SpookState(position, mover if chain else 1 - mover, None, move, ply, chain)
        return self.settle(after)

    def random_playout(self, state, rng: random.Random):
        """Same games as the generic loop (same moves in the same order, one
        draw per action), on raw masks with the rules' own mask cores."""
        if state.result is not None:
            return state
        rnd, pos = rng.random, state.position
        masks = [pos.white, pos.black, pos.red]
        occ, mover, ply, last = pos.occupied, state.to_move, state.ply, state.last
        while not masks[0]:                     # building the castle
            ply += 1
            if occ.bit_count() == BUILT:        # one move only, but still a draw
                rnd()
                masks[0] = 1 << APEX
                occ |= 1 << APEX
                last, mover = PLACE_MOVES[WHITE][APEX], 1 - mover
                break
            pts = points_in(playable_cached(occ))
            p = pts[int(rnd() * len(pts))]
            colour = PLAYER_COLOURS[mover]
            masks[colour - 1] |= 1 << p
            occ |= 1 << p
            last, mover = PLACE_MOVES[colour][p], 1 - mover
        return self._getaway(masks, occ, mover, ply, last, state.chain, rnd)

    def _getaway(self, masks, occ, mover, ply, last, chain, rnd):
        """The getaway part of :meth:`random_playout`; ``masks`` white, black, red."""
        while True:
            g = masks[0].bit_length() - 1
            ply += 1
            if chain:
                pts = points_in(chain_captures(g, occ, masks[chain - 1]))
                i = int(rnd() * (len(pts) + 1))
                q = pts[i] if i < len(pts) else -1      # the last move is the pass
            else:
                taken = ghost_captures(g, occ)
                if taken:
                    pts = points_in(taken)
                    q = pts[int(rnd() * len(pts))]
                elif isolated_at(g, occ):
                    pts = points_in(targets_of(g, occ))
                    t = pts[int(rnd() * len(pts))]
                    masks[0] = 1 << t
                    occ ^= 1 << g | 1 << t
                    last, mover = GHOST_MOVES[g][t], 1 - mover
                    continue
                else:
                    theirs = unpinned(masks[PLAYER_COLOURS[1 - mover] - 1], occ)
                    pts = points_in(theirs) or (-1,)          # else the pass, still a draw
                    q = pts[int(rnd() * len(pts))]
                    if q >= 0:
                        occ, _ = remove_ball(masks, occ, q)     # the forced removal
            if q < 0:
                last, mover, chain = PASS_MOVE, 1 - mover, 0
                continue
            last = REMOVE_MOVES[q]
            if chain or taken:                  # a capture: the ghost takes q's place
                colour = BLACK if masks[1] >> q & 1 else RED
                masks[colour - 1] ^= 1 << q
                masks[0] = 1 << q
                occ ^= 1 << g
                sideways = not SUPPORT_MASK[g] >> q & 1
                chain = colour if sideways and chain_captures(q, occ, masks[colour - 1]) else 0
            if not chain:
                mover = 1 - mover
            if not masks[1] or not masks[2]:
                position = Position.from_masks(*masks)
                return self.settle(SpookState(position, mover, None, last, ply, chain))

    def settle(self, state):
        """A colour with no ball left once the ghost is out: its player has won."""
        if ghost_point(state.position) is None:
            return state
        for player, colour in enumerate(PLAYER_COLOURS):
            if not state.position.mask(colour):
                result = Outcome((player,), f"every {self.player_name(player)} ball has "
                                            "been taken by the ghost",
                                 self._balls(state.position), ((player,), (1 - player,)))
                return dataclasses.replace(state, result=result)
        return state

    @staticmethod
    def _balls(position) -> tuple[float, float]:
        return tuple(float(position.count(c)) for c in PLAYER_COLOURS)

    # -- text -------------------------------------------------------------------
    def status_lines(self, state) -> list[str]:
        """Balls left in the pyramid, and what the mover must do now."""
        position = state.position
        red, black = (position.count(c) for c in PLAYER_COLOURS)
        lines = [f"In the pyramid: Red {red} ball{'s' * (red != 1)}, "
                 f"Black {black} ball{'s' * (black != 1)}."]
        if state.result is not None:
            return lines
        me, you = self.player_name(state.to_move), self.player_name(1 - state.to_move)
        g = ghost_point(position)
        if g is None:
            if position.occupied.bit_count() == BUILT:
                lines.append(f"{me} puts the ghost on the apex; then Red starts the getaway.")
            else:
                lines.append("Building the castle: place a ball of your colour.")
        elif state.chain:
            colour = "red" if state.chain == RED else "black"
            lines.append(f"{me} may go on taking free {colour} balls beside the ghost, "
                         "or pass.")
        elif captures(position):
            lines.append(f"{me}: take a ball under the ghost (it drops) or a free ball "
                         "beside it (it moves there).")
        elif is_isolated(position):
            lines.append(f"The ghost is isolated: {me} puts it beside a ball of the board "
                         "or on a platform.")
        elif self.legal_moves(state) == [PASS_MOVE]:
            lines.append(f"{me} can neither capture nor remove a ball of {you}'s: pass.")
        else:
            lines.append(f"The ghost can take nothing: {me} removes a ball of {you}'s "
                         "that is not pinned.")
        return lines

    def winning_points(self, state) -> int:
        """The ghost, which took the winner's last ball (0 while playing)."""
        return state.position.white if sole_winner(state) is not None else 0

    def extra_text(self, state) -> str:
        return write_fields(ply=state.ply, chain_red=state.chain == RED,
                            chain_black=state.chain == BLACK)

    def state_from(self, position, to_move, extras):
        fields = read_fields(self, extras, numbers=("ply",), flags=("chain_red", "chain_black"))
        red, black, white = (position.count(c) for c in (RED, BLACK, WHITE))
        ply = fields["ply"]
        if fields["chain_red"] and fields["chain_black"]:
            raise NotationError("Spook state: a chain has one colour, not both")
        chain = RED if fields["chain_red"] else BLACK if fields["chain_black"] else 0
        if white == 0:
            built = red + black
            if red != (built + 1) // 2 or black != built // 2 or to_move != built % 2 \
                    or ply != built or chain:
                raise NotationError(
                    f"Spook state: while the castle is built Red and Black place in turn, "
                    f"Red first, and ply counts the balls; got {red} red, {black} black, "
                    f"ply={ply}, {self.player_name(to_move)} to move")
        else:
            g = ghost_point(position)
            if white > 1 or SUPPORTED_MASK[g] & position.occupied:
                raise NotationError("Spook state: there is one ghost (white ball), and "
                                    "nothing ever rests on it")
            if red > BALLS[0] or black > BALLS[1] or red + black == 0 \
                    or not GETAWAY_START <= ply <= MAX_ACTIONS \
                    or ply - GETAWAY_START < BUILT - red - black:
                raise NotationError(
                    f"Spook state: after the castle is built Red has at most {BALLS[0]} "
                    f"balls and Black {BALLS[1]}, and ply counts the {GETAWAY_START} building "
                    f"actions and at least one per ball taken; got {red} red, {black} "
                    f"black, ply={ply}")
            if chain and not captures(position, chain):
                raise NotationError(f"Spook state: no free ball of the chain's colour "
                                    f"beside the ghost on {point_name(g)}: the chain "
                                    "would be over")
        state = SpookState(position, to_move, None, None, ply, chain)
        return self.settle(state)

