"""Sphlag: a race to the enemy flag, placing in your base or moving a ball up to four steps.

Four fixed red balls stand on the board: the flags in two opposite corners
(White's on a1, Black's on g7) and a border on the two centre holes of the
other diagonal (c5, e3).  A turn places a ball in one's base (the five
holes of one's half) or moves one of one's balls at most four steps, a
step being half the distance between two holes; a turn may not rebuild the
position its mover left last time (ko).  Two of your balls touching the
enemy flag win at once.

>>> from shibumi import load
>>> match = load('sphlag').new_match()
>>> match.push('c3'), match.push('e5')
(Move('Wc3.0'), Move('Be5.0'))
>>> sorted(m.text() for m in match.legal_moves() if m.kind == 'move')   # up to 4 steps
['c3.0>a3', 'c3.0>a5', 'c3.0>c1', 'c3.0>c7', 'c3.0>e1', 'c3.0>g3']
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass

from ..bits import nth_point
from ..errors import NotationError, UnknownGameError, shown
from ..game import Game, GameInfo, Outcome, State, read_fields, write_fields
from ..geometry import PROJECTION, SUPPORTED_MASK, TOUCHING_MASK, points_of
from ..notation import MOVE, PASS, PASS_MOVE, Move, parse_point, transform_move
from ..position import BLACK, COLOUR_NAMES, WHITE, Position
from ..registry import register
from .placement import PLACE_MOVES, playable_bits, sole_winner

PLAYER_COLOURS = (WHITE, BLACK)
#: Balls of each colour in a set: a player with all of them in play can only move.
SET_BALLS = 16
#: Most steps a moved ball may travel (a step is half the distance between two holes).
MOST_STEPS = 4
#: The longest game the ``turn_limit`` may allow.
MOST_TURNS = 200

A1, C1, E1, A3, C3, E3, A5, C5, E5, G3, G5, C7, E7, G7 = (
    parse_point(name) for name in
    ("a1", "c1", "e1", "a3", "c3.0", "e3.0", "a5", "c5.0", "e5.0", "g3", "g5", "c7", "e7",
     "g7"))
#: Each player's flag: White's in the corner on White's left, Black's opposite.
FLAGS = (A1, G7)
#: The red border across the other diagonal (a7-g1), on its two centre holes.
BORDER = (1 << C5) | (1 << E3)
REDS = BORDER | (1 << A1) | (1 << G7)
#: Each player's base: the five holes of their half of the board, flag excepted.
BASES = ((1 << C1) | (1 << E1) | (1 << A3) | (1 << C3) | (1 << A5),
         (1 << G3) | (1 << E5) | (1 << G5) | (1 << C7) | (1 << E7))
#: The points whose balls touch each player's flag (two holes and the ball above).
FLAG_CONTACTS = tuple(TOUCHING_MASK[flag] for flag in FLAGS)
#: Where the translator's balanced opening lets White put the first ball: touching its flag.
OPENING = BASES[0] & FLAG_CONTACTS[0]

START = Position.from_masks(red=REDS)


def steps_between(p: int, q: int) -> int:
    """Steps from p to q: half-hole units along the files plus along the ranks of the
    top view (levels do not count), so a1-c1 is 2, a1-b2 is 2 and a1-d2 is 4."""
    (px, py), (qx, qy) = PROJECTION[p], PROJECTION[q]
    return abs(px - qx) + abs(py - qy)


#: REACH[p]: the points 1 to 4 steps from p, on any level.
REACH = tuple(sum(1 << q for q in range(30) if 0 < steps_between(p, q) <= MOST_STEPS)
              for p in range(30))
_MOVES = tuple(tuple(Move.relocate(p, q) for q in range(30)) for p in range(30))


def _masks(position: Position) -> tuple[int, int, int]:
    return (position.white, position.black, position.red)


def lifted(masks: tuple[int, int, int], source: int) -> tuple[int, int, int]:
    """The colour masks once the (unpinned) ball at ``source`` is lifted: the column
    resting on it drops one point, each ball into the gap below it."""
    white, black, red = masks
    occupied = white | black | red
    gap = 1 << source
    white &= ~gap
    black &= ~gap
    red &= ~gap
    above = occupied & SUPPORTED_MASK[source]
    while above:
        top = above.bit_length() - 1
        high = 1 << top
        if white & high:
            white ^= high | gap
        elif black & high:
            black ^= high | gap
        else:
            red ^= high | gap
        gap = high
        above = occupied & SUPPORTED_MASK[top]
    return white, black, red


def _unchanged(after: tuple, target: tuple | None, player: int) -> int:
    """The one point (as a bit, else 0) where ``player``'s lifted ball would land
    to leave the masks ``after`` equal to ``target``: a move barred because it
    changes nothing (target: the masks before) or rebuilds the ko position."""
    if target is None or after[1 - player] != target[1 - player] or after[2] != target[2]:
        return 0
    mine, goal = after[player], target[player]
    extra = goal & ~mine
    if extra & (extra - 1) or mine | extra != goal:
        return 0
    return extra


def move_rooms(masks: tuple[int, int, int], player: int,
               barred: tuple | None = None) -> list[tuple[int, int, tuple]]:
    """Every ball of ``player`` that may move, as ``(source, targets, masks once
    lifted)``: unpinned balls, targets 1-4 steps away and playable once the ball
    is lifted, minus a target that changes nothing and (ko) one that rebuilds the
    masks ``barred``.  Sources ascending; the moves are the targets ascending."""
    return [(source, room, _lift_free(masks, player, source) if after is None else after)
            for source, room, after in _rooms(masks, player, barred)[0]]


def _lift_free(masks: tuple[int, int, int], player: int, source: int) -> tuple[int, int, int]:
    """The masks once ``player``'s ball at ``source``, with nothing on it, is lifted."""
    low = 1 << source
    return (masks[0] ^ low, masks[1], masks[2]) if player == 0 \
        else (masks[0], masks[1] ^ low, masks[2])


def _rooms(masks: tuple[int, int, int], player: int,
           barred: tuple | None) -> tuple[list[tuple[int, int, tuple]], int]:
    """:func:`move_rooms` and the number of moves they hold, with None for the
    masks after lifting a ball that has nothing on it (see :func:`_lift_free`):
    most balls are such, and the playout needs the masks of one move only."""
    own = masks[player]
    occupied = masks[0] | masks[1] | masks[2]
    # With nothing resting on the ball, only its own point changes when it is lifted
    # (and it is no target): ko can bar a target only if the rest is as in ``barred``.
    ko = barred is not None and barred[1 - player] == masks[1 - player] \
        and barred[2] == masks[2]
    goal = barred[player] if ko else 0
    # Lifting a ball with nothing on it frees its point (no target: REACH leaves it
    # out) and unsupports the points above it; the rest stays playable or not.
    playable = playable_bits(occupied)
    out, total = [], 0
    while own:
        low = own & -own
        own ^= low
        source = low.bit_length() - 1
        sup = SUPPORTED_MASK[source]
        above = occupied & sup
        if not above:
            room = playable & ~sup & REACH[source]
            if ko:                          # _unchanged(after, barred, player)
                mine = masks[player] ^ low
                extra = goal & ~mine
                if not extra & (extra - 1) and mine | extra == goal:
                    room &= ~extra
            after = None
        elif above & (above - 1):
            continue                                        # pinned
        else:                                               # the column on it drops
            after = lifted(masks, source)
            # Only the top of the column is left empty, and the points on it unsupported.
            top = occupied & ~(after[0] | after[1] | after[2])
            room = (playable | top) & ~SUPPORTED_MASK[top.bit_length() - 1] & REACH[source]
            room &= ~(_unchanged(after, masks, player) | _unchanged(after, barred, player))
        if room:
            out.append((source, room, after))
            total += room.bit_count()
    return out, total


def move_options(masks: tuple[int, int, int], player: int) -> list[tuple[int, int, tuple]]:
    """Every move of one of ``player``'s balls as ``(source, target, masks after)``,
    before the ko rule: unpinned balls, 1-4 steps, onto a point playable once the
    ball is lifted, changing the position."""
    found = []
    for source, room, after in move_rooms(masks, player):
        for target in points_of(room):
            new = list(after)
            new[player] |= 1 << target
            found.append((source, target, (new[0], new[1], new[2])))
    return found


def landed(after: tuple, player: int, target: int) -> tuple[int, int, int]:
    """The masks once ``player``'s lifted ball (masks ``after``) lands on ``target``."""
    bit = 1 << target
    return (after[0] | bit, after[1], after[2]) if player == 0 \
        else (after[0], after[1] | bit, after[2])



def touching_flag(masks: tuple[int, int, int], player: int) -> int:
    """``player``'s balls touching the opponent's flag (a mask)."""
    return masks[PLAYER_COLOURS[player] - 1] & FLAG_CONTACTS[1 - player]


def _winning_move(masks: tuple[int, int, int], rooms: list, player: int, rnd):
    """A move putting a second ball of ``player`` against the enemy flag, drawn
    uniformly (one ``rnd()``) among all such in move order, as (masks after,
    move); None when there is none (no draw is made then).  ``rooms`` as
    :func:`_rooms` gives them, from ``masks``."""
    contacts = FLAG_CONTACTS[1 - player]
    wins = []
    for source, room, after in rooms:
        if after is None:
            after = _lift_free(masks, player, source)
        near = (after[player] & contacts).bit_count()
        hits = room if near >= 2 else room & contacts if near == 1 else 0
        if hits:
            wins.append((source, hits, after))
    if not wins:
        return None
    k = int(rnd() * sum(hits.bit_count() for _, hits, _ in wins))
    for source, hits, after in wins:
        c = hits.bit_count()
        if k < c:
            target = nth_point(hits, k)
            return landed(after, player, target), _MOVES[source][target]
        k -= c


@dataclass(frozen=True)
class SphlagState(State):
    """A Sphlag state.

    ``ply``: turns played (passes included); ``passes``: passes in a row just
    before (two end the game); ``previous``: the position before the last
    turn, which the ko rule forbids the mover to rebuild (None at the start).
    """
    ply: int = 0
    passes: int = 0
    previous: Position | None = None


@register
class Sphlag(Game):
    info = GameInfo(
        name="Sphlag", designer="Lars Rose", year="2011", family="Race",
        source="Annexe 2 of the French edition of the Shibumi Rule Book",
        summary="Capture the flag: bring two balls against the enemy's red flag, placing "
                "in your base or moving a ball up to four half-steps.",
        complexity=2, max_length=MOST_TURNS)
    parameters = {"balanced": False, "turn_limit": 150}
    symmetries = (0, 6)          # the mirror in the a1-g7 diagonal keeps both camps

    rules = """\
Two players, White and Black. Four red balls stand on the board from the
start and never move: White's flag on a1, Black's flag on g7 (the corners on
one diagonal), and a border of two reds on c5 and e3, the middle of the
other diagonal. That diagonal (a7, c5, e3, g1) splits the board into two
halves. White's base is the five holes of White's half besides the flag (c1,
e1, a3, c3, a5); Black's is the five of Black's half (g3, e5, g5, c7, e7).
The corners a7 and g1 belong to nobody. White moves first. Each player has
the 16 balls of their colour.

**A turn** is one of:

* *Place* a new ball of your colour on an empty hole of your base.
* *Move* one of your balls that is not pinned (a ball with two or more
  balls resting on it is pinned) at most four steps. A step is half the
  distance between two holes, counted along the files and the ranks as
  seen from above; climbing or going down a level costs nothing more. So a
  ball goes to a neighbouring hole in 2 steps, or onto a platform it is part
  of in 2, once the ball resting on it has dropped into its place; it reaches
  a neighbouring platform in 4 (one step sideways and three ahead), or a hole
  two holes away. The target must be a playable point once the ball is
  lifted (an empty hole, or an empty point on four balls). A ball resting on
  the moved one drops into the gap, and anything on it follows.
* *Pass.*

**Ko.** A move may not rebuild the position its mover left at the end of
their previous turn (the position before the opponent's last turn).

**Winning.** As soon as two of your balls touch the enemy flag, you win. The
balls touching a corner flag stand on the two holes beside it and on the
level-1 point above it. (If a move brings two balls of each player against
the enemy flags at once, the mover wins; if it does so only for the
opponent, through a ball that dropped, the opponent wins.)

**The end otherwise.** When both players pass one after the other, the game
is over: whoever has more balls touching the enemy flag wins; if that is
equal, whoever has fewer balls in play; if that is equal too, the game is
drawn. The same count decides a game that reaches 150 turns (a safeguard
that is not in the book).

**Balanced opening** (a variant, `sphlag(balanced=True)`): White's first
ball must go on a base hole touching White's own flag (c1 or a3); Black's
first ball may go on any of its five base holes.
"""
    notes = """\
Source: Annexe 2 of the French edition of the Shibumi Rule Book, game by Lars
Rose (2011). Its figures (the start, and two movement examples) are lost.

* The start (figure lost). The text says the four reds are flags in the
  corners and a diagonal border in the centre, and the bases are marked by
  small balls. We put the flags on two opposite corners (a1 and g7) and the
  border on the centre holes of the other diagonal (c5 and e3). That
  diagonal cuts the board into two triangles of six holes each with one
  flag; the five other holes of a triangle are exactly the "five points of
  one's camp" the translator's note speaks of, so each base is those five
  holes, and the two corners of the border diagonal (a7, g1) belong to
  nobody. This is inferred (the project's notes on lost figures hold it as
  fairly sure), not read from a figure.
* Whose flag. Each player's flag is the one in their own half; the goal is
  the other one. The translator's proposal (White's first ball touching
  White's own flag) only makes sense that way round.
* Steps. "A step is half the distance between two holes", and the text's
  examples fix the count: a neighbouring hole is 2 steps, a platform the
  ball belongs to is 2, a neighbouring platform is 4, reached by "one step
  to the left and three up". So steps are counted along files and ranks of
  the top view (the half-hole grid of the notation: a1 to b2 is 2, a1 to d2
  is 4), and the change of level costs nothing. A ball goes straight to its
  target: nothing in the text blocks its way.
* Onto its own platform. The text allows a ball to go up onto a platform it
  is part of, "after dealing with the drop": the ball resting on it drops
  into its hole, which completes the platform again, and the moved ball
  takes the place above. The rule some other games have against landing on
  a ball that just dropped is therefore not applied. A move must change the
  position (lifting a ball and putting it back, or swapping two balls of one
  colour, is no move).
* Which balls move. A player moves only their own balls; the reds never
  move ("they can never be moved"); a pinned ball cannot be lifted, as in
  every game of the system where balls are lifted.
* Placing. A new ball goes on an empty hole of one's base, never on a
  platform (the base is five holes). A player with all 16 balls in play
  cannot place.
* Ko. "It is forbidden to reproduce the last position" is read as the ko of
  Go: a turn may not leave the position its mover left at the end of their
  previous turn, which is the position just before the opponent's last
  turn. (Reproducing the position just before one's own turn is impossible
  anyway: every move changes it.) Passes count as turns, and a pass is
  always allowed.
* Winning. "Players win at once by moving at least two of their balls in
  contact with the opponent's flag." Contact is physical: the two holes
  beside the corner flag and the level-1 ball resting on it. A placement
  cannot touch the enemy flag (it goes in one's own base), but a move can
  also drop an opponent's ball against the mover's flag. We check the mover
  first, then the opponent: a player with two balls against the enemy flag
  after any turn wins.
* The end by passes. "Both players pass in succession" ends the game. The
  count is the text's: more balls touching the enemy flag, then fewer balls
  in play, else a draw (the text's last sentence is garbled; this is the
  only reading that uses both counts it names). Ending by mutual agreement
  is left to the players (it is not a move).
* Turn limit. Moves can go back and forth for ever, and ko only stops the
  shortest loop; the book has no limit. We end the game after 150 turns
  (passes included), scored as after two passes. The limit can be set lower
  (`turn_limit`), not above 200.
* The translator's proposal to soften White's advantage is offered as the
  variant `balanced=True`: White's first ball must touch White's own flag
  (c1 or a3); Black's first is free, among its five base holes.
* The two movement examples (lost figures) are rebuilt in the tests and the
  chapter: a black ball with the points it can reach marked, and a white
  ball that goes four steps left along the board, or one step left and
  three up onto a platform.
"""

    def __init__(self, **params) -> None:
        super().__init__(**params)
        limit = self.params["turn_limit"]
        if not 1 <= limit <= MOST_TURNS:
            raise UnknownGameError(f"Sphlag turn_limit is 1-{MOST_TURNS}, not {limit!r}")
        self.turn_limit = limit

    def initial_state(self, rng: random.Random | None = None) -> SphlagState:
        return SphlagState(position=START)

    def length(self, state) -> int:
        return state.ply

    # -- moves -----------------------------------------------------------------------
    def placements(self, state) -> list[Move]:
        """The placements open to the mover: empty holes of their base."""
        player = state.to_move
        colour = PLAYER_COLOURS[player]
        position = state.position
        if position.count(colour) >= SET_BALLS:
            return []
        room = BASES[player] & ~position.occupied
        if self.params["balanced"] and state.ply == 0:
            room &= OPENING
        return [PLACE_MOVES[colour][p] for p in points_of(room)]

    def moves(self, state) -> list[tuple[int, int, tuple]]:
        """The moves of a ball open to the mover, ko applied: (source, target, masks)."""
        barred = None if state.previous is None else _masks(state.previous)
        player = state.to_move
        return [(source, target, landed(after, player, target))
                for source, room, after in move_rooms(_masks(state.position), player, barred)
                for target in points_of(room)]

    def legal_moves(self, state, player: int | None = None) -> list[Move]:
        if state.result is not None:
            return []
        barred = None if state.previous is None else _masks(state.previous)
        moves = [_MOVES[source][target]
                 for source, room, _ in _rooms(_masks(state.position), state.to_move,
                                               barred)[0]
                 for target in points_of(room)]
        return self.placements(state) + moves + [PASS_MOVE]

    def apply(self, state, move: Move) -> SphlagState:
        mover, position = state.to_move, state.position
        passes = 0
        if move.kind == PASS:
            passes = state.passes + 1
        elif move.kind == MOVE:
            after = lifted(_masks(position), move.point)
            position = Position.from_masks(*landed(after, mover, move.target))
        else:
            position = position.place(move.point, move.colour)
        after = SphlagState(position, 1 - mover, None, move, state.ply + 1, passes,
                            state.position)
        return self.settle(after)

    def settle(self, state) -> SphlagState:
        """The state, finished by two balls at a flag, two passes or the turn limit."""
        if state.result is not None:
            return state
        result = self.flag_taken(state.position, 1 - state.to_move)
        if result is None and state.passes >= 2:
            result = self.count(state.position, "both players passed")
        if result is None and state.ply >= self.turn_limit:
            result = self.count(state.position, f"{state.ply} turns were played")
        return dataclasses.replace(state, result=result) if result else state

    # -- the end -----------------------------------------------------------------------
    def flag_taken(self, position: Position, mover: int) -> Outcome | None:
        """A win by two balls against the enemy flag: the mover's first."""
        masks = _masks(position)
        for player in (mover, 1 - mover):
            if touching_flag(masks, player).bit_count() >= 2:
                return Outcome((player,), f"{self.player_name(player)} has two balls "
                                          "touching the enemy flag",
                               self._scores(position))
        return None

    def _scores(self, position: Position) -> tuple[float, float]:
        masks = _masks(position)
        return tuple(float(touching_flag(masks, p).bit_count()) for p in (0, 1))

    def count(self, position: Position, why: str) -> Outcome:
        """The outcome of a game ended without a flag taken: more balls touching the
        enemy flag, then fewer balls in play, else a draw."""
        masks = _masks(position)
        touching = [touching_flag(masks, p).bit_count() for p in (0, 1)]
        balls = [masks[c - 1].bit_count() for c in PLAYER_COLOURS]
        told = (f"touching the enemy flag: White {touching[0]}, Black {touching[1]}; "
                f"balls in play: White {balls[0]}, Black {balls[1]}")
        if touching[0] != touching[1]:
            winner = 0 if touching[0] > touching[1] else 1
            verdict = f"{self.player_name(winner)} has more balls at the enemy flag"
        elif balls[0] != balls[1]:
            winner = 0 if balls[0] < balls[1] else 1
            verdict = f"{self.player_name(winner)} has fewer balls in play"
        else:
            return Outcome((), f"{why}; {told}; a draw", self._scores(position))
        return Outcome((winner,), f"{why}; {told}; {verdict}", self._scores(position))

    def winning_points(self, state) -> int:
        """The winner's balls touching the enemy flag, with the flag (0 if none touch)."""
        winner = sole_winner(state)
        if winner is None:
            return 0
        touching = touching_flag(_masks(state.position), winner)
        return touching | (1 << FLAGS[1 - winner]) if touching else 0

    # -- faster random games -------------------------------------------------------------
    def random_playout(self, state, rng: random.Random) -> SphlagState:
        """Uniformly random turns to the end on bare masks: the choices of
        ``legal_moves`` in its order, one ``rng.random()`` each, so the very games
        of the generic loop."""
        return self._play(state, rng, False)

    def playout(self, state, rng: random.Random) -> SphlagState:
        """The MCTS playout: random legal turns, but a turn that takes the enemy flag
        is taken at once (the rules are those of ``apply``)."""
        return self._play(state, rng, True)

    def _play(self, state, rng: random.Random, greedy: bool) -> SphlagState:
        """Turns drawn as ``random_step`` draws them (``greedy``: a move that puts a
        second ball against the enemy flag, if any, drawn among those first)."""
        if state.result is not None:
            return state
        rnd = rng.random
        masks, mover, ply, passes = _masks(state.position), state.to_move, state.ply, \
            state.passes
        previous = None if state.previous is None else _masks(state.previous)
        opening = OPENING if self.params["balanced"] else -1
        while True:
            rooms, moving = _rooms(masks, mover, previous)
            before = masks
            if greedy:
                move = _winning_move(masks, rooms, mover, rnd)
                if move is not None:
                    masks, last, passes = move[0], move[1], 0
                    ply += 1
                    break
            own = masks[mover]
            places = 0 if own.bit_count() >= SET_BALLS else \
                BASES[mover] & ~(masks[0] | masks[1] | masks[2])
            if ply == 0:
                places &= opening
            placing = places.bit_count()
            n = placing + moving + 1
            k = int(rnd() * n)
            if k < placing:
                p = nth_point(places, k)
                masks = landed(masks, mover, p)
                last, passes = PLACE_MOVES[PLAYER_COLOURS[mover]][p], 0
            elif k == n - 1:
                last, passes = PASS_MOVE, passes + 1
            else:
                k -= placing
                for source, room, after in rooms:
                    c = room.bit_count()
                    if k < c:
                        target = nth_point(room, k)
                        break
                    k -= c
                if after is None:
                    after = _lift_free(masks, mover, source)
                masks = landed(after, mover, target)
                last, passes = _MOVES[source][target], 0
            ply += 1
            if passes >= 2 or ply >= self.turn_limit \
                    or (masks[mover] & FLAG_CONTACTS[1 - mover]).bit_count() >= 2 \
                    or (masks[1 - mover] & FLAG_CONTACTS[mover]).bit_count() >= 2:
                break
            previous, mover = before, 1 - mover
        return self.settle(SphlagState(Position.from_masks(*masks), 1 - mover, None, last,
                                       ply, passes, Position.from_masks(*before)))

    # -- symmetry and text -------------------------------------------------------------
    def transform_state(self, state, perm: tuple[int, ...]) -> SphlagState:
        previous = None if state.previous is None else state.previous.transform(perm)
        return dataclasses.replace(state, position=state.position.transform(perm),
                                   last=transform_move(state.last, perm), previous=previous)

    def status_lines(self, state) -> list[str]:
        """Balls at the enemy flags, balls in play and in hand, a pending pass, the turn."""
        masks = _masks(state.position)
        names = [self.player_name(p) for p in (0, 1)]
        touching = [touching_flag(masks, p).bit_count() for p in (0, 1)]
        balls = [masks[c - 1].bit_count() for c in PLAYER_COLOURS]
        lines = ["Balls touching the enemy flag (two win): "
                 + ", ".join(f"{names[p]} {touching[p]}" for p in (0, 1)) + ".",
                 "Balls in play: " + ", ".join(f"{names[p]} {balls[p]}" for p in (0, 1))
                 + f" (fewer wins a tie; {SET_BALLS} each in the set)."]
        if state.result is None:
            if state.passes:
                lines.append(f"{names[1 - state.to_move]} passed: a pass now ends the game.")
            if self.params["balanced"] and state.ply == 0:
                lines.append("Balanced opening: White's first ball goes on c1 or a3.")
            lines.append(f"Turn {state.ply + 1} of {self.turn_limit}.")
        return lines

    def extra_text(self, state) -> str:
        previous = None if state.previous is None else f"{state.previous.to_int():x}"
        return " ".join(filter(None, (write_fields(ply=state.ply or None,
                                                   passes=state.passes or None),
                                      previous and f"previous={previous}")))

    def state_from(self, position, to_move, extras) -> SphlagState:
        name = self.info.name
        kept, previous = [], None
        for token in extras.split():
            key, eq, value = token.partition("=")
            if key != "previous":
                kept.append(token)
                continue
            try:
                if previous is not None or not eq or not 0 < len(value) <= 15 \
                        or value.strip("0123456789abcdef"):
                    raise ValueError
                previous = Position.from_int(int(value, 16))
            except (ValueError, NotationError):
                raise NotationError(f"{name} state field {shown(token)} not understood; "
                                    "previous=<hex> is the packed position before the "
                                    "last turn") from None
        fields = read_fields(self, " ".join(kept), numbers=("ply", "passes"))
        self._check_position(position, "position")
        if previous is not None:
            self._check_position(previous, "previous position")
        ply, passes = fields["ply"], fields["passes"]
        balls = position.count() - 4
        if not 0 <= passes <= min(2, ply) or ply < balls or ply > self.turn_limit:
            raise NotationError(f"{name}: ply={ply} passes={passes} do not fit {balls} "
                                f"balls placed (turns play at most one ball each, at most "
                                f"{self.turn_limit} turns, passes 0-2)")
        if passes and previous is not None and previous != position:
            raise NotationError(f"{name}: after a pass the previous position is the "
                                "current one")
        return self.settle(SphlagState(position, to_move, None, None, ply, passes, previous))

    def _check_position(self, position: Position, what: str) -> None:
        name = self.info.name
        if position.red != REDS:
            raise NotationError(f"{name} {what}: the four red balls stand on a1, g7, c5 "
                                "and e3, and nowhere else")
        for colour in PLAYER_COLOURS:
            if position.count(colour) > SET_BALLS:
                raise NotationError(f"{name} {what}: more than {SET_BALLS} "
                                    f"{COLOUR_NAMES[colour]} balls")


__all__ = ["BASES", "BORDER", "FLAGS", "FLAG_CONTACTS", "REACH", "Sphlag", "SphlagState",
           "lifted", "move_options", "steps_between", "touching_flag"]
