"""Spire: place your colour, or a red then your colour, never three of a colour in a pyramid."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..bits import nth_point, playable_cached
from ..errors import NotationError, UnknownGameError, shown
from ..game import Game, GameInfo, Outcome, State
from ..geometry import APEX, NUM_POINTS, SUPPORT_MASK
from ..notation import PASS, PASS_MOVE, PLACE, Move, point_name
from ..position import BLACK, COLOUR_NAMES, RED, WHITE, Position
from ..registry import register
from .placement import PLACE_MOVES, playable_points, sole_winner

#: The 14 small pyramids of five points: an upper point and the square it rests on.
#: Every 2x2 square of any level is the base of exactly one of them.
PYRAMIDS: tuple[int, ...] = tuple(SUPPORT_MASK[q] | 1 << q for q in range(16, NUM_POINTS))
OWN = (WHITE, BLACK)
VARIANTS = ("book", "update")
#: The small pyramids through each point.
PYRAMIDS_THROUGH: tuple[tuple[int, ...], ...] = tuple(
    tuple(pyr for pyr in PYRAMIDS if pyr >> p & 1) for p in range(NUM_POINTS))


def blocked(colour_mask: int) -> int:
    """Points where a ball of this colour may not go.

    A point is closed to a colour when a small pyramid through it (as one of
    the four base points or as the top) already holds two balls of that
    colour: a third would break the limit of two per square and two per
    platform-with-top.
    """
    out = 0
    for pyramid in PYRAMIDS:
        if (colour_mask & pyramid).bit_count() >= 2:
            out |= pyramid
    return out


def open_points(position, colour: int) -> list[int]:
    """Playable points where a ball of the colour is allowed."""
    closed = blocked(position.mask(colour))
    return [p for p in playable_points(position.occupied) if not closed >> p & 1]


def anything_placeable(position) -> bool:
    """Whether any ball at all (white, black or red) can still go somewhere."""
    free = 0
    for p in playable_points(position.occupied):
        free |= 1 << p
    if not free:
        return False
    return any(free & ~blocked(position.mask(c)) for c in (WHITE, BLACK, RED))


def violations(position) -> list[int]:
    """Upper points whose five-ball pyramid holds three or more balls of a colour."""
    bad = []
    for q, pyramid in zip(range(16, NUM_POINTS), PYRAMIDS):
        if any((position.mask(c) & pyramid).bit_count() > 2 for c in (WHITE, BLACK, RED)):
            bad.append(q)
    return bad


@dataclass(frozen=True)
class SpireState(State):
    """A Spire state: ``red_placed`` when the mover has put down a red ball this
    turn and owes a ball of their own colour; ``ply`` counts actions (passes too)."""
    red_placed: bool = False
    ply: int = 0


@register
class Spire(Game):
    info = GameInfo(
        name="Spire", designer="Dieter Stein", year="2011",
        family="Completion", source="Shibumi Rule Book (2012)",
        summary="Add your colour, or a red and then your colour, never letting a square "
                "or a platform with its top hold three of a colour; the last ball wins.",
        complexity=2, aliases=(), max_length=60)
    parameters = {"variant": "book"}

    rules = """\
Two players, White and Black, start from an empty board. Red balls are
neutral and either player may use them.

On your turn you either put one ball of your own colour on a playable point,
or you first put a red ball on a playable point and then one of your own
colour (two placements in the same turn).

Colour limit: a 2x2 square of points on any level (whether or not all four
are filled yet) may never hold more than two balls of one colour, and a ball
may not go on top of a platform that already has two balls of the ball's
colour. Put together: each small pyramid of five points (a square and the
point above it) holds at most two balls of any one colour. The limit applies
to red balls as well.

If you cannot place anything at the start of your turn, you pass; if you
placed a red and then have nowhere to put your own colour, your turn ends
there. The game ends when no ball of any colour can be placed anywhere (the
pyramid is full, or every open point is closed to every colour). Whoever
placed the last ball wins, whatever its colour and wherever it is.

Variant `spire(variant="update")`, the designer's later rules: there is no
passing. A player who has no legal placement when one is due (at the start of
the turn, or for the own-colour ball after a red) loses at once, and whoever
puts a ball of their own colour on the apex wins.
"""
    notes = """\
* What a "platform" is here. The limit is checked on every 2x2 square of
  points of a level, the fourteen squares that can carry a ball above them,
  filled or not: the book's example closes board holes because the squares
  around them already hold two white balls while still being incomplete.
  The stacking limit looks at the four supports of the point being filled.
  Both limits together say: no small five-point pyramid (square plus top)
  may hold three balls of one colour. A placement is legal exactly when
  every such pyramid through the point holds at most one ball of the
  placed colour already.
* Red obeys the same limit; it is a colour like the others.
* Passing. A player with no legal placement at the start of a turn plays
  `pass`; a player who placed a red ball and cannot follow it with their own
  colour also plays `pass`, which ends the turn. A red ball may be placed
  even when no own-colour ball can follow it.
* The end. "The last ball" is read as: the game stops as soon as no ball of
  any colour can be placed, and the player who placed the most recent ball
  wins. If any colour can still go somewhere, someone will be able to place
  it (red by whoever moves next, a player's colour by that player), so the
  game never stalls with both players passing forever.
* Supply. A set has 16 balls of each colour; the colour limit allows at most
  13 balls of one colour in a pyramid (checked by exhaustive search), so the
  supply never runs short and is not tracked.
* Length. A game places at most 30 balls. Each pass can be paired with a
  different ball: a pass after a red with that red, a pass at the start of a
  turn with the own-colour ball the opponent must then place (red is closed
  everywhere, or the passer would have placed it). Hence at most 60 actions.
  A complete pyramid obeying the limit exists, so 30 balls can be reached.
* The lost figure (the two points open to White) is rebuilt in the tests as
  a position in which exactly two placements remain for a white ball: one on
  an empty hole and one on a platform, with every other hole closed by two
  white balls in a square around it and the other platform closed by its two
  white supports.
* Designer's update (a variant, not the default): taken from the designer's
  later statement of the rules. A player who has no legal action when one is
  due loses; this includes the player who puts a red ball on the apex (no own
  ball can follow). Passing does not exist, so the game lasts at most 30
  actions. The book's rules are the default.
"""

    def __init__(self, **params) -> None:
        super().__init__(**params)
        if self.params["variant"] not in VARIANTS:
            raise UnknownGameError(f"Spire variant must be one of {', '.join(VARIANTS)}, "
                                   f"not {self.params['variant']!r}")
        self.update = self.params["variant"] == "update"

    # -- rules -------------------------------------------------------------
    def initial_state(self, rng=None) -> SpireState:
        return SpireState()

    def _actions(self, position, player: int, red_placed: bool) -> list[Move]:
        own = OWN[player]
        moves = [PLACE_MOVES[own][p] for p in open_points(position, own)]
        if not red_placed:
            moves += [PLACE_MOVES[RED][p] for p in open_points(position, RED)]
        return moves

    def legal_moves(self, state: SpireState, player: int | None = None) -> list[Move]:
        if state.result is not None:
            return []
        moves = self._actions(state.position, state.to_move, state.red_placed)
        return moves or [PASS_MOVE]

    def apply(self, state: SpireState, move: Move) -> SpireState:
        mover, ply = state.to_move, state.ply + 1
        if move.kind == PASS:
            return SpireState(state.position, 1 - mover, None, move, False, ply)
        position = state.position.place(move.point, move.colour)
        red_placed = move.colour == RED
        to_move = mover if red_placed else 1 - mover
        result = None
        if self.update:
            if move.colour == OWN[mover] and move.point == APEX:
                result = Outcome((mover,), f"{self.player_name(mover)} put their "
                                 "colour on the apex")
            elif not self._actions(position, to_move, red_placed):
                result = self._stuck(to_move)
        elif not anything_placeable(position):
            result = Outcome((mover,), f"{self.player_name(mover)} placed the last ball")
            to_move, red_placed = 1 - mover, False
        return SpireState(position, to_move, result, move, red_placed, ply)

    def random_playout(self, state: SpireState, rng) -> SpireState:
        """The generic loop's games on raw masks: the same moves in the same order
        (own colour, then red, by point; a pass when none) and the same draws.
        Each colour's closed points only grow, so they are kept up to date by
        looking at the pyramids through each new ball."""
        if state.result is not None:
            return state
        rnd, update = rng.random, self.update
        pos = state.position
        masks = [0, pos.white, pos.black, pos.red]
        closed = [0] + [blocked(m) for m in masks[1:]]
        mover, red_placed, ply, move = state.to_move, state.red_placed, state.ply, state.last
        while True:
            occ = masks[1] | masks[2] | masks[3]
            playable = playable_cached(occ)
            own = OWN[mover]
            mine = playable & ~closed[own]
            reds = 0 if red_placed else playable & ~closed[RED]
            n_mine = mine.bit_count()
            n = n_mine + reds.bit_count()
            ply += 1
            if not n:
                int(rnd())                    # the pass is drawn like any choice
                move, mover, red_placed = PASS_MOVE, 1 - mover, False
                continue
            k = int(rnd() * n)
            colour, p = (own, nth_point(mine, k)) if k < n_mine \
                else (RED, nth_point(reds, k - n_mine))
            mask = masks[colour] = masks[colour] | 1 << p
            for pyramid in PYRAMIDS_THROUGH[p]:
                if (mask & pyramid).bit_count() >= 2:
                    closed[colour] |= pyramid
            move = PLACE_MOVES[colour][p]
            red_placed = colour == RED
            to_move = mover if red_placed else 1 - mover
            playable = playable_cached(occ | 1 << p)
            if update:
                if colour == own and p == APEX:
                    result = Outcome((mover,), f"{self.player_name(mover)} put their "
                                     "colour on the apex")
                    break
                if not playable & ~closed[OWN[to_move]] \
                        and (red_placed or not playable & ~closed[RED]):
                    result = self._stuck(to_move)
                    break
            elif not (playable & ~closed[WHITE] or playable & ~closed[BLACK]
                      or playable & ~closed[RED]):
                result = Outcome((mover,), f"{self.player_name(mover)} placed the last ball")
                to_move, red_placed = 1 - mover, False
                break
            mover = to_move
        position = Position.from_masks(masks[1], masks[2], masks[3])
        return SpireState(position, to_move, result, move, red_placed, ply)

    def _stuck(self, player: int) -> Outcome:
        return Outcome((1 - player,), f"{self.player_name(player)} has no legal "
                       "placement and loses")

    def length(self, state: SpireState) -> int:
        return state.ply

    def winning_points(self, state) -> int:
        """The winning ball: the apex in the update variant, else the last ball placed
        (0 when the loser was stuck, or the last ball is unknown)."""
        winner, last = sole_winner(state), state.last
        if winner is None:
            return 0
        if self.update:
            return 1 << APEX if state.position.colour_at(APEX) == OWN[winner] else 0
        return 1 << last.point if last is not None and last.kind == PLACE else 0

    # -- text ----------------------------------------------------------------
    def status_lines(self, state) -> list[str]:
        """After a red ball, the mover still owes a ball of their colour."""
        if state.result is None and state.red_placed:
            return [f"{self.player_name(state.to_move)} placed a red ball and now places "
                    f"a {COLOUR_NAMES[OWN[state.to_move]]} ball."]
        return []

    def extra_text(self, state: SpireState) -> str:
        return ("red-placed " if state.red_placed else "") + f"ply={state.ply}"

    def state_from(self, position, to_move, extras):
        tokens = extras.split()
        red_placed = "red-placed" in tokens
        rest = [t for t in tokens if t != "red-placed"]
        if len(rest) != 1 or not re.fullmatch(r"ply=[0-9]{1,3}", rest[0]):
            raise NotationError(f"Spire state extras {shown(extras)}: expected an optional "
                                "'red-placed' and 'ply=N' (actions played)")
        ply = int(rest[0][4:])
        if ply < position.count():
            raise NotationError(f"Spire state: {position.count()} balls cannot be "
                                f"placed in {ply} actions")
        if red_placed and not position.red:
            raise NotationError("Spire state: 'red-placed' but there is no red ball")
        bad = violations(position)
        if bad:
            raise NotationError("Spire state: a square with the point above it holds "
                                "three balls of one colour under "
                                + " ".join(point_name(q) for q in bad))
        return self.settle(SpireState(position, to_move, None, None, red_placed, ply))

    def settle(self, state: SpireState) -> SpireState:
        position, player = state.position, state.to_move
        result = None
        if self.update:
            apex = position.colour_at(APEX)
            if apex in OWN:
                owner = OWN.index(apex)
                result = Outcome((owner,), f"{self.player_name(owner)} put their "
                                 "colour on the apex")
            elif not self._actions(position, player, state.red_placed):
                result = self._stuck(player)
        elif position.occupied and not anything_placeable(position):
            last = player if state.red_placed else 1 - player
            result = Outcome((last,), f"{self.player_name(last)} placed the last ball")
        if result is None:
            return state
        return SpireState(position, player, result, state.last, state.red_placed, state.ply)
