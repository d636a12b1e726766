"""Spillway: a connection game in a full pyramid whose diagonals flow outwards.

Each turn takes a white ball out of one of the two long diagonals; the balls
above it spill one step down towards the corner and the mover's ball fills
the emptied apex.  A chain of one's own balls between two opposite bases
scores, and one's diagonal balls turn white again.

>>> from shibumi import load
>>> match = load("spillway").new_match()
>>> match.push("xa1")                 # a1 goes; b2, c3 and the apex drop; Red tops up
Move('xa1')
>>> match.state.position.colour_at(29) == RED, match.current_player
(True, 1)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..errors import NotationError, shown
from ..game import Game, GameInfo, Outcome, State, read_fields, write_fields
from ..geometry import ALL_MASK, APEX, COORDS, INTERIOR_MASK, SIZES, SUPPORTED_MASK, points_of
from ..notation import PASS_MOVE, parse_point
from ..position import BLACK, RED, WHITE, Position, group_of
from ..registry import register
from .placement import REMOVE_MOVES

PLAYER_COLOURS = (RED, BLACK)
TARGET = 3
"""Connections that win."""
SET_BALLS = 16
"""Balls of each colour in a set: what is not in the pyramid is in the player's hand."""


def _mask(names: str) -> int:
    return sum(1 << parse_point(name) for name in names.split())


#: The 13 balls of the two long diagonals (seen from above): the only balls of a
#: full pyramid that are not pinned, so the only ones a removal can take.
CASCADE = _mask("a1 g1 a7 g7 b2 f2 b6 f6 c3.2 e3.2 c5.2 e5.2 d4.3")
#: The 12 removable cascade balls: every one but the apex, whose removal would
#: spill nothing.
SPILLABLE = CASCADE & ~(1 << APEX)
#: The 12 pinned balls around the rim, three a side: two edge holes of the
#: board and the middle ball of that edge on level 1.
BASES = ALL_MASK & ~CASCADE & ~INTERIOR_MASK
#: Our choice of the red bases (the book's figure is lost): a pinwheel that a
#: quarter turn maps onto the black bases.
RED_BASES = _mask("c7 d6 e1 d2 g3 a5")
BLACK_BASES = BASES & ~RED_BASES
#: The five hidden balls: three white, one red, one black (never seen, never moved).
HIDDEN_RED, HIDDEN_BLACK = _mask("c3.0"), _mask("e5.0")
START = Position.from_masks(white=CASCADE | (INTERIOR_MASK & ~HIDDEN_RED & ~HIDDEN_BLACK),
                            black=BLACK_BASES | HIDDEN_BLACK, red=RED_BASES | HIDDEN_RED)
FIXED = ALL_MASK & ~CASCADE
"""The balls that never move: the bases and the hidden core."""


def _side_masks() -> tuple[tuple[int, int], ...]:
    """The bases of each side, as the two opposite pairs (south, north), (west, east)."""
    sides = {"s": 0, "n": 0, "w": 0, "e": 0}
    for p in points_of(BASES):
        lv, x, y = COORDS[p]
        edge = SIZES[lv] - 1
        for side, on_it in (("s", y == 0), ("n", y == edge), ("w", x == 0), ("e", x == edge)):
            if on_it:
                sides[side] |= 1 << p
    return (sides["s"], sides["n"]), (sides["w"], sides["e"])


SIDE_PAIRS = _side_masks()
PAIR_NAMES = ("North-South", "East-West")


# -- the rules' core on raw masks ----------------------------------------------------
#
# The pyramid is always full and only the thirteen cascade balls change, so a
# colour's connections depend only on which cascade balls it holds: they are
# tabled on that (at most 2^13 entries a colour), and a turn is a few mask
# operations on the cascade balls of each player (the others are white).

#: Each player's balls that never move (bases and hidden ball), by player index.
_FIXED_OF = tuple(START.mask(c) & FIXED for c in PLAYER_COLOURS)
#: Balls of each player's colour in a full set beyond its fixed balls: the hand
#: is this minus the player's cascade balls.
_HAND_OF = tuple(SET_BALLS - m.bit_count() for m in _FIXED_OF)


def _spills() -> tuple[tuple[int, dict[int, int]], ...]:
    """Per point: (its column mask, the column's balls after the point is taken).

    Taking a cascade ball drops the column above it one step towards the
    corner (:meth:`Position.remove`) and leaves the apex empty; the table maps
    a mask's part on the column to where those balls go.
    """
    table = []
    for p in range(APEX + 1):
        if not SPILLABLE >> p & 1:
            table.append((0, {}))
            continue
        column = [p]
        while column[-1] != APEX:
            column.append((SUPPORTED_MASK[column[-1]] & ALL_MASK).bit_length() - 1)
        mask = sum(1 << q for q in column)
        moved = {}
        for sub in range(1 << len(column)):
            before = sum(1 << q for i, q in enumerate(column) if sub >> i & 1)
            moved[before] = sum(1 << column[i - 1] for i in range(1, len(column))
                                if sub >> i & 1)
        table.append((mask, moved))
    return tuple(table)


_SPILLS = _spills()


def spill(cascade: int, p: int) -> int:
    """A player's cascade balls after the ball at ``p`` is taken (the apex left empty)."""
    column, moved = _SPILLS[p]
    return cascade & ~column | moved[cascade & column]


_JOINED: tuple[dict[int, int], dict[int, int]] = ({}, {})


def joined(player: int, cascade: int) -> int:
    """Which pairs of opposite sides a player's chains join (bit i: SIDE_PAIRS[i])
    when they hold these cascade balls; memoised."""
    code = _JOINED[player].get(cascade)
    if code is None:
        mine = _FIXED_OF[player] | cascade
        found = _chains(mine)
        code = _JOINED[player][cascade] = (found[0] != 0) | (found[1] != 0) << 1
    return code


def _chains(mine: int, occupied: int = ALL_MASK) -> list[int]:
    """For each pair of opposite sides, the chains of ``mine`` joining them."""
    found = [0, 0]
    left = mine & BASES
    while left:
        p = (left & -left).bit_length() - 1
        group = group_of(p, mine, occupied)
        for i, (a, b) in enumerate(SIDE_PAIRS):
            if group & a and group & b:
                found[i] |= group
        left &= ~group
    return found


def connections(position: Position, colour: int) -> list[int]:
    """For each pair of opposite sides, the colour's chains joining a base on
    one to a base on the other (0 when none does); contacts as seen from above.

    >>> [bool(c) for c in connections(START, RED)]
    [False, False]
    """
    return _chains(position.mask(colour), position.occupied)


def whiten(position: Position, colour: int) -> Position:
    """The position with a colour's cascade balls replaced by white ones."""
    gone = position.mask(colour) & CASCADE
    masks = [0, position.white | gone, position.black, position.red]
    masks[colour] &= ~gone
    return Position.from_masks(masks[1], masks[2], masks[3])


def _scored(scores: tuple[int, int], player: int, code: int) -> tuple[int, int]:
    """The scores once ``player`` has joined the pairs of sides in ``code``."""
    gained = 1 + (code == 3)
    return tuple(s + gained * (p == player) for p, s in enumerate(scores))


def _made(code: int) -> str:
    """The connections of ``code`` in words, e.g. 'a connection (North-South)'."""
    joined_names = [PAIR_NAMES[i] for i in (0, 1) if code >> i & 1]
    return ("two connections" if code == 3 else "a connection") \
        + f" ({' and '.join(joined_names)})"


def _position(cascade) -> Position:
    """The full pyramid with each player's cascade balls (the rest of it white)."""
    red, black = cascade
    return Position.from_masks(ALL_MASK & ~(_FIXED_OF[0] | _FIXED_OF[1] | red | black),
                               _FIXED_OF[1] | black, _FIXED_OF[0] | red)


_POINTS: dict[int, tuple[int, ...]] = {}


def _points(mask: int) -> tuple[int, ...]:
    """The points of a mask of white spillable balls, memoised (4,096 at most)."""
    found = _POINTS[mask] = tuple(points_of(mask))
    return found


@dataclass(frozen=True)
class SpillwayState(State):
    scores: tuple[int, int] = (0, 0)
    """Connections made by Red and by Black."""
    ply: int = 0
    note: str = ""
    """What the last action led to (a connection, a turn played again), for the players."""


@register
class Spillway(Game):
    info = GameInfo(
        name="Spillway", designer="Erik Dresner", year="2012", family="Connection",
        source="Annexe 2 of the French edition of the Shibumi Rule Book",
        summary="Spill a diagonal of the full pyramid and top up the apex with your colour; "
                "join opposite bases three times.",
        complexity=2, max_length=131)
    player_names = ("Red", "Black")

    rules = """\
Two players, Red and Black. The game is played in a full pyramid that never
empties.

The start: the thirteen balls on the two long diagonals, as seen from above
(the four board corners, the four corners of level 1, the four balls of
level 2 and the apex), are white: these are the cascade balls. The twelve
balls around the rim, three on each side (the two middle holes of that edge
of the board and the middle ball of that edge of level 1), are the bases,
six red and six black: the red bases are c7 and d6 on the north side, e1 and
d2 on the south, g3 on the east and a5 on the west; the others are black.
The five hidden balls inside are three white, one red and one black. Red
plays first.

A turn: take a white cascade ball other than the apex out of the pyramid.
The balls resting on it spill down the diagonal one step each towards the
corner and the apex empties; put a ball of your colour from your hand on
the apex. A player with no ball left in hand passes.

Connections: a connection is a chain of your balls, linked by contacts seen
from above, from one of your bases to one of your bases on the opposite
side (north to south, or east to west). Connections are looked for only in
your own turn: at its start (the opponent's spill may have made one for
you) and after your move. Each pair of sides you join scores one
connection (both at once score two); then all your cascade balls are
replaced by white ones. A connection found after your move gives you
another turn.

The first player to reach three connections wins.
"""
    notes = """\
* Lost figure, base colours: the start figure of the book is lost and which
  bases are red is not known. We chose six and six (each player has seven
  balls in the pyramid, one of them hidden, and nine in hand) with two red
  bases on the north and south sides and two black ones on the east and
  west, arranged as a pinwheel: a quarter turn of the board maps the red
  bases onto the black ones, so neither colour is favoured by the layout.
  Every player has a base on every side, so both can join both pairs. We
  checked the choice by computation: in each of the 2^13 ways of colouring
  the cascade red and black, exactly one player has a connection (the
  tests verify it). So the game can never stall with no white ball left,
  and one move never gives connections to both players. Random and MCTS
  self-play (in the tests) split wins between the colours.
* "Red and white" bases: the text calls the pinned balls red and white,
  but white balls are the cascade; we read red and black.
* The hidden balls: which of the five hidden points hold the red and the
  black does not matter (they are never seen and never move); we put the
  red at c3.0 and the black at e5.0.
* The apex ball: it is a cascade ball, but taking it would spill nothing,
  and the text says the removal makes the cascade fall; only the twelve
  white cascade balls below the apex can be taken. A removal and the ball
  put on the apex make one action (`xa1`): the apex is then the only empty
  point, so the placement has no choice in it.
* Counting: each pair of opposite sides joined scores once per check, however
  many chains join it; "both connections in the same turn" score two.
* Cascade balls "of your colour" are replaced by white: only cascade balls;
  bases never change colour.
* A player with no white cascade ball to take cannot play. This never
  happens with our bases (see above); for other positions given as text,
  the game then ends, the player with more connections wins, equal counts
  draw.
* Supply, not in the text: the ball put on the apex comes from the mover's
  hand of nine, and it returns to the hand when a connection turns it
  white. A tenth ball without a connection in between needs ten of the
  thirteen cascade balls in one colour with no connection; it is rare
  (about one random game in 1,500 comes to it) but it happens. We let a
  player with an empty hand pass; the opponent's moves go on emptying the
  cascade until someone connects.
* Length: every removal turns one white cascade ball into a coloured one,
  and once the thirteen are coloured one player has a connection, found
  before the next move; so a connection is scored at least every 13
  removals. At most five scoring checks reach three connections for
  someone (two each, then the winning one): 65 removals. Both hands cannot
  be empty at once (that would need 18 cascade balls), so a pass is always
  followed by a removal: at most 66 passes, 131 actions in all.
"""

    def initial_state(self, rng=None) -> SpillwayState:
        return SpillwayState(START)

    def length(self, state) -> int:
        return state.ply

    def legal_moves(self, state, player=None):
        if state.result is not None:
            return []
        if not self.hand(state.position, state.to_move):
            return [PASS_MOVE]
        return [REMOVE_MOVES[p] for p in points_of(state.position.white & SPILLABLE)]

    @staticmethod
    def hand(position: Position, player: int) -> int:
        """Balls of their colour a player still holds."""
        return SET_BALLS - position.count(PLAYER_COLOURS[player])

    def apply(self, state, move):
        mover, pos = state.to_move, state.position
        cascade = [pos.red & CASCADE, pos.black & CASCADE]
        if move.kind == "pass":
            return self._start_turn(cascade, 1 - mover, state.scores, state.ply + 1, move)
        cascade = [spill(cascade[0], move.point), spill(cascade[1], move.point)]
        cascade[mover] |= 1 << APEX
        code = joined(mover, cascade[mover])
        if not code:
            return self._start_turn(cascade, 1 - mover, state.scores, state.ply + 1, move)
        scores = _scored(state.scores, mover, code)
        name, made = self.player_name(mover), _made(code)
        won = self._winner(scores, mover, None)
        if won:
            return SpillwayState(_position(cascade), mover, won, move, scores, state.ply + 1,
                                 f"{name} made {made}")
        cascade[mover] = 0                    # its cascade balls turn white
        return SpillwayState(_position(cascade), mover, None, move, scores, state.ply + 1,
                             f"{name} made {made} and plays again")

    def _winner(self, scores, player, position) -> Outcome | None:
        if scores[player] >= TARGET:
            return Outcome((player,), f"{self.player_name(player)} made "
                           f"{scores[player]} connections", scores=tuple(map(float, scores)))
        return None

    def _start_turn(self, cascade, player, scores, ply, move):
        """The state once ``player`` begins a turn: their connections, made by the
        opponent's spill, are found first (cascade: each player's cascade balls)."""
        code, note, result = joined(player, cascade[player]), "", None
        if code:
            scores = _scored(scores, player, code)
            name, made = self.player_name(player), _made(code)
            result = self._winner(scores, player, None)
            if result:
                note = f"{name} found {made}"
            else:
                cascade[player] = 0
                note = f"{name} found {made} at the start of the turn"
        if result is None and not SPILLABLE & ~(cascade[0] | cascade[1]):
            result = self._stalled(scores)
        return SpillwayState(_position(cascade), player, result, move, scores, ply, note)

    def random_playout(self, state, rng):
        """Same games as the generic loop (the same draws over the same moves), on
        each player's cascade balls."""
        if state.result is not None:
            return state
        rnd, pos = rng.random, state.position
        cascade = [pos.red & CASCADE, pos.black & CASCADE]
        mover, scores, ply = state.to_move, list(state.scores), state.ply
        known = _JOINED
        while True:
            before = (cascade[:], mover, tuple(scores), ply)
            ply += 1
            if _HAND_OF[mover] == cascade[mover].bit_count():
                rnd()                                   # the draw over the one pass
                move = PASS_MOVE
            else:
                whites = SPILLABLE & ~(cascade[0] | cascade[1])
                choice = _POINTS.get(whites) or _points(whites)
                p = choice[int(rnd() * len(choice))]
                move = REMOVE_MOVES[p]
                column, moved = _SPILLS[p]
                cascade[0] = cascade[0] & ~column | moved[cascade[0] & column]
                cascade[1] = cascade[1] & ~column | moved[cascade[1] & column]
                mine = cascade[mover] = cascade[mover] | 1 << APEX
                code = known[mover].get(mine)
                if code is None:
                    code = joined(mover, mine)
                if code:                                # scored: the mover plays again
                    scores[mover] += 1 + (code == 3)
                    if scores[mover] >= TARGET:
                        break
                    cascade[mover] = 0
                    continue
            mover ^= 1                                  # the opponent's turn starts
            code = known[mover].get(cascade[mover])
            if code is None:
                code = joined(mover, cascade[mover])
            if code:
                scores[mover] += 1 + (code == 3)
                if scores[mover] >= TARGET:
                    break
                cascade[mover] = 0
            if not SPILLABLE & ~(cascade[0] | cascade[1]):
                break
        # The game ended in the last action: apply plays it again, and writes the
        # outcome and the note as the rules do.
        cascade, mover, scores, ply = before
        return self.apply(SpillwayState(_position(cascade), mover, None, None, scores, ply),
                          move)

    def _stalled(self, scores) -> Outcome:
        why = "no white cascade ball is left to take"
        if scores[0] == scores[1]:
            return Outcome((), f"{why}; equal connections", scores=tuple(map(float, scores)))
        best = 0 if scores[0] > scores[1] else 1
        return Outcome((best,), f"{why}; {self.player_name(best)} has more connections",
                       scores=tuple(map(float, scores)))

    def winning_points(self, state) -> int:
        """The chains of the connections that won."""
        result = state.result
        if result is None or len(result.winners) != 1 or max(state.scores) < TARGET:
            return 0
        found = connections(state.position, PLAYER_COLOURS[result.winners[0]])
        return found[0] | found[1]

    # -- text ------------------------------------------------------------------
    def status_lines(self, state) -> list[str]:
        lines = [f"Connections: Red {state.scores[0]}, Black {state.scores[1]} "
                 f"(three win)."]
        if state.note:
            lines.append(state.note + ".")
        if state.result is None:
            lines.append(f"{self.player_name(state.to_move)} takes a white ball off a "
                         "diagonal; a ball of their colour goes on the apex.")
        return lines

    def state_key(self, state) -> tuple:
        return (state.position, state.to_move, state.result, state.scores, state.ply)

    def extra_text(self, state) -> str:
        return write_fields(red=state.scores[0] or None, black=state.scores[1] or None,
                            ply=state.ply or None)

    def state_from(self, position, to_move, extras):
        fields = read_fields(self, extras, numbers=("red", "black", "ply"))
        if position.occupied != ALL_MASK:
            raise NotationError("Spillway is played in a full pyramid")
        fixed = [START.mask(c) & FIXED for c in (WHITE, BLACK, RED)]
        if [position.mask(c) & FIXED for c in (WHITE, BLACK, RED)] != fixed:
            raise NotationError(f"Spillway: the bases and the hidden balls never change; "
                                f"they are those of {shown(START.text())}")
        scores = (fields["red"], fields["black"])
        if max(scores) > TARGET + 1 or sum(s >= TARGET for s in scores) > 1:
            raise NotationError(f"Spillway: scores {scores} cannot be reached")
        state = SpillwayState(position, to_move, None, None, scores, fields["ply"])
        return self.settle(state)

    def settle(self, state):
        for player in (0, 1):
            won = self._winner(state.scores, player, state.position)
            if won:
                return dataclasses.replace(state, result=won)
        if max(state.scores) < TARGET and not state.position.white & SPILLABLE:
            return dataclasses.replace(state, result=self._stalled(state.scores))
        return state
