"""Sphlying Marbles: three colours in a random full pyramid, each capturing the next.

The thirty balls, ten of each colour, are stacked into a full pyramid in a
random order.  White captures red, Red captures black and Black captures
white, always by *replacement*: a ball that is not pinned drops onto a ball
just under it that held it alone, or steps sideways onto a free ball beside
it on its level.  When nobody can capture any more, the most balls left wins.

The deal is a run of chance actions (``=W`` puts a white ball on the next
point, filled from the board up), which a :class:`~shibumi.Match` makes
with its seeded generator.  A capture is written as a ball move, ``d4.3>c3.2``.

>>> from shibumi import load
>>> game = load('sphlying marbles')
>>> start = game.parse_state('RRWR/BWRB/WRBW/BWRB|BWR/WRB/RBW|WR/BB|W 1')
>>> [m.text() for m in game.legal_moves(start)]     # White's apex drops onto a red ball
['d4.3>e5.2']
>>> after = game.apply(start, game.legal_moves(start)[0])
>>> after.position.text(), game.player_name(after.to_move)
('RRWR/BWRB/WRBW/BWRB|BWR/WRB/RBW|WW/BB|.', 'Red')
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass

from ..errors import NotationError
from ..game import CHANCE, TERMINAL, Game, GameInfo, Outcome, State, read_fields
from ..geometry import (ALL_MASK, APEX, FLAT_NEIGHBOURS, NUM_POINTS, SUPPORT_MASK, SUPPORTED,
                        SUPPORTED_MASK)
from ..notation import CHOOSE, PASS, PASS_MOVE, Move
from ..position import BLACK, COLOUR_NAMES, RED, WHITE, Position
from ..registry import register

#: The colour of each player, in turn order: White, then Red, then Black.
PLAYER_COLOURS = (WHITE, RED, BLACK)
#: Balls of each colour in the pyramid at the start.
PER_COLOUR = 10
#: The chance actions: the colour of the ball put on the next point of the deal.
DRAWS = {c: Move.choose(c) for c in (WHITE, BLACK, RED)}
#: Captures and passes a game can last: 29 captures at most (a capture needs a
#: ball of the capturer's colour, so at least one ball stays), and at most two
#: forced passes between two captures (a third would mean nobody can capture,
#: which ends the game at once).
MOST_CAPTURES = 3 * PER_COLOUR - 1
MAX_LENGTH = MOST_CAPTURES + 2 * (MOST_CAPTURES - 1)

#: The order of the chance outcomes of the deal.
_DEAL_ORDER = (WHITE, RED, BLACK)
#: For each point, its neighbours on its own level (balls that touch), as a mask.
_BESIDE = tuple(sum(1 << q for q in FLAT_NEIGHBOURS[p]) for p in range(NUM_POINTS))


#: The relocation move of every capture the geometry allows (a ball onto one
#: it rests on, or onto a neighbour on its level), interned once.
RELOCATIONS = {(p, q): Move.relocate(p, q) for q in range(NUM_POINTS)
               for p in SUPPORTED[q] + FLAT_NEIGHBOURS[q]}


def capture_pairs(masks, occupied: int, player: int) -> list[tuple[int, int]]:
    """Every capture open to ``player`` as (capturer, captured) points, in the
    order of :func:`captures`: by captured ball, then by capturer."""
    own = masks[PLAYER_COLOURS[player]]
    prey = masks[PLAYER_COLOURS[(player + 1) % 3]]
    found = []
    while prey:
        low = prey & -prey
        prey ^= low
        q = low.bit_length() - 1
        above = SUPPORTED_MASK[q] & occupied
        if above:
            if not above & (above - 1) and own & above:     # one ball on it: ours
                found.append((above.bit_length() - 1, q))
            continue
        beside = _BESIDE[q] & own
        while beside:
            bit = beside & -beside
            beside ^= bit
            p = bit.bit_length() - 1
            carried = SUPPORTED_MASK[p] & occupied
            if not carried & (carried - 1):                  # not pinned
                found.append((p, q))
    return found


def can_capture(masks, occupied: int, player: int) -> bool:
    """Whether ``player`` has a capture (:func:`capture_pairs`, stopping at the first)."""
    own = masks[PLAYER_COLOURS[player]]
    prey = masks[PLAYER_COLOURS[(player + 1) % 3]]
    while prey:
        low = prey & -prey
        prey ^= low
        q = low.bit_length() - 1
        above = SUPPORTED_MASK[q] & occupied
        if above:
            if not above & (above - 1) and own & above:
                return True
            continue
        beside = _BESIDE[q] & own
        while beside:
            bit = beside & -beside
            beside ^= bit
            carried = SUPPORTED_MASK[bit.bit_length() - 1] & occupied
            if not carried & (carried - 1):
                return True
    return False


def captures(masks, player: int) -> list[Move]:
    """Every capture open to ``player`` (0 White, 1 Red, 2 Black).

    ``masks`` is indexed by colour (``masks[WHITE]`` is the white mask).  A
    capture is a ``Move.relocate(capturer, captured)``:

    * *from above*: the captured ball carries exactly one ball, the
      capturer's (it is not pinned, so it can be taken out and the
      capturer falls into its place);
    * *beside*: the captured ball carries nothing and touches the capturer
      on its level, and the capturer is not pinned (so it can be lifted).

    >>> pos = Position('..../..../..../WR..|.../.../...|../..|.')
    >>> captures((0, pos.white, pos.black, pos.red), 0)
    [Move('a1>c1')]
    """
    occupied = masks[WHITE] | masks[BLACK] | masks[RED]
    return [RELOCATIONS[pair] for pair in capture_pairs(masks, occupied, player)]


def take(masks: list[int], occupied: int, p: int) -> int:
    """Take the ball at p out of ``masks`` (by colour, changed in place): the
    column resting on it drops a level, as ``Position.remove``.  Returns the
    occupied mask after."""
    gap = 1 << p
    colour = WHITE if masks[WHITE] & gap else BLACK if masks[BLACK] & gap else RED
    masks[colour] ^= gap
    above = SUPPORTED_MASK[p] & occupied
    while above:
        # A ball that is not pinned carries at most one ball, and so on up.
        q = above.bit_length() - 1
        bit = 1 << q
        colour = WHITE if masks[WHITE] & bit else BLACK if masks[BLACK] & bit else RED
        masks[colour] ^= bit | gap
        gap = bit
        above = SUPPORTED_MASK[q] & occupied
    return occupied ^ gap


def capture_masks(masks: list[int], occupied: int, source: int, target: int) -> int:
    """Play a capture on ``masks`` (changed in place), as :func:`capture`;
    returns the occupied mask after."""
    occupied = take(masks, occupied, target)
    if SUPPORT_MASK[source] >> target & 1:
        return occupied
    bit = 1 << source
    colour = WHITE if masks[WHITE] & bit else BLACK if masks[BLACK] & bit else RED
    occupied = take(masks, occupied, source)
    masks[colour] |= 1 << target
    return occupied | 1 << target


def capture(position: Position, move: Move) -> Position:
    """The position after a capture (not checked: see :func:`captures`).

    From above, taking the captured ball out lets the capturer and the
    column above it drop by one point; beside, the captured ball goes, then
    the capturer is lifted (whatever it carried drops) and put in its place.
    """
    masks = [0, position.white, position.black, position.red]
    capture_masks(masks, position.occupied, move.point, move.target)
    return Position.from_masks(masks[WHITE], masks[BLACK], masks[RED])


def next_deal_point(occupied: int) -> int:
    """Where the next ball of the deal goes: the lowest playable point (the
    lowest empty point resting on four balls)."""
    empty = ~occupied & ALL_MASK
    while empty:
        low = empty & -empty
        empty ^= low
        p = low.bit_length() - 1
        if occupied & SUPPORT_MASK[p] == SUPPORT_MASK[p]:
            return p
    return -1


@dataclass(frozen=True)
class SphlyingState(State):
    """A Sphlying Marbles state: the deal is over once ``playing`` is set.

    ``actions`` counts the players' captures and passes (the deal is not counted).
    """
    playing: bool = False
    actions: int = 0


@register
class SphlyingMarbles(Game):
    info = GameInfo(
        name="Sphlying Marbles", designer="Néstor Romeral Andrés", year="2016",
        family="Capture", source="Annexe 1 of the French edition of the Shibumi Rule Book",
        summary="Three players, a pyramid built at random: each captures the next "
                "player's balls by dropping or stepping onto them; most balls left wins.",
        min_players=3, max_players=3, complexity=2, chance=True,
        aliases=("sphlying marbles", "sphlying_marbles", "pyramid of the flying marbles"),
        max_length=MAX_LENGTH)
    player_names = ("White", "Red", "Black")

    rules = """\
Three players, each with a colour; play goes White, Red, Black, White, ...
Each player hunts the next one: White captures red balls, Red captures
black balls and Black captures white balls.

**Start.** Mix ten white, ten red and ten black balls and build the full
pyramid with them in a random order. The player whose colour is on the apex
moves first. If that player has no capture, knock the pyramid down and
build a new one.

**A turn** is one capture, made by a ball of your colour that is not pinned
(a pinned ball is one that two or more balls rest on). There are two ways:

* *Downwards.* Your ball captures a ball of your prey's colour directly
  beneath it, provided your ball is the only one resting on it. Take the
  captured ball out: your ball falls into its place, and anything resting
  on your ball falls with it.
* *Sideways.* Your ball captures a ball of your prey's colour that touches
  it on the same level and has nothing resting on it. Take the captured
  ball out and put your ball in its place; whatever rested on your ball
  falls into the point it left.

Write a capture as your ball's point and the captured ball's point,
`d4.3>e5.2`. Captured balls leave the game.

If you have no capture, you pass, and you may capture again on a later
turn if one opens up.

**End.** When all three players pass one after another, that is, when
nobody has a capture left, the game is over: the player with the most balls
of their colour still in the pyramid wins. Players tied for the most share
the win.

In the engine the random building is a run of chance actions (`=W`, `=R`,
`=B`), one ball at a time from the board up, made by the match's random
generator; a forced pass is the only move offered, and the game ends as
soon as nobody can capture (the three passes would be forced).
"""
    notes = """\
Source: Annexe 1 of the French edition of the Shibumi Rule Book; game by
Néstor Romeral Andrés (2016), derived from his House of the Flying Blades
(2014). The translator renamed *The pyramid of the flying marbles* to
Sphlying Marbles, to start with "Sp" like the other games of the system.

* Passing. The overview says players capture "or pass", while the rule
  itself only makes a player who cannot capture pass. We read passing as
  forced: a player with a capture must make one (any one), and a player
  without one passes. Three passes in a row then mean that nobody can
  capture in the position, so the engine ends the game at that moment
  rather than asking for the three forced passes.
* Pinned and free. "Non clouée" is the system's word for a ball that does
  not carry two or more balls (it may carry one); "libre" for a ball with
  nothing on it. The capturer must be not pinned; a ball captured sideways
  must be free.
* Downward capture. The captured ball must be taken out for the capturer to
  fall into its place, so it may carry only the capturer: a ball under two
  or more balls cannot be captured from above. (The capturer is then never
  pinned: the geometry lets at most one ball rest on it.)
* "Connectée". A sideways capture takes a ball touching the capturer on the
  same level: one step along a row or a column of that level. Diagonal
  neighbours on a level do not touch. Whether the contact is seen from above
  does not matter here: a free ball and an unpinned ball are never hidden,
  and no pair of balls can pass over a contact with a free ball.
* Falls. Only the column above the capturer falls (downward: the capturer
  and what it carries drop one point; sideways: what the capturer carried
  drops into the point it left). Nothing else moves.
* The start. "Build a pyramid at random" is read as: every arrangement of
  the ten balls of each colour equally likely. The engine deals the balls
  one by one from a bag onto the lowest empty point (the board first, then
  upwards), so the whole deal is a run of chance actions. The first player
  is the apex colour, as the text says; turns then go on in the order White,
  Red, Black.
* Rebuilding. "If no first capture is possible, build a new pyramid" is read
  as: if the player on the apex has no capture, the pyramid is rebuilt (even
  if another player has one). The engine then deals again from an empty
  board. This is rare: the apex ball captures any ball of its prey's colour
  on level 2, and each level-2 ball any prey under it at the corner of
  level 1.
* Ties. The text names no tie for the game itself; the tournament rule
  (play a new game after a tie) suggests a tie is no outright win. Here
  players tied for the most balls share the win; the others lose.
* Tournament scoring (the winner adds their balls left to a running score
  until someone reaches an agreed total) is a series of games, outside the
  engine; each game's outcome gives the balls left as scores.
* The two lost figures (White dropping onto a red ball below it, then Red
  stepping sideways onto a free black ball) are rebuilt in the tests and in
  the chapter with positions of our own.
* Length. A capture removes one ball and needs a ball of the capturer's
  colour, so a game has at most 29 captures, and at most two passes come
  between two captures: at most 85 actions.
"""

    # -- the deal ------------------------------------------------------------------
    def initial_state(self, rng: random.Random | None = None) -> SphlyingState:
        """The empty board: the pyramid is built by chance actions."""
        return SphlyingState()

    def current_player(self, state) -> int:
        if state.result is not None:
            return TERMINAL
        return state.to_move if state.playing else CHANCE

    def chance_outcomes(self, state) -> list[tuple[Move, float]]:
        """The colour of the next ball of the deal, by its share of the balls left."""
        if state.playing or state.result is not None:
            return []
        left = [PER_COLOUR - state.position.count(c) for c in (WHITE, RED, BLACK)]
        total = sum(left)
        return [(DRAWS[c], n / total) for c, n in zip((WHITE, RED, BLACK), left) if n]

    def _dealt(self, position: Position) -> SphlyingState:
        """The state once the last ball of a deal is in: play, or deal again."""
        first = PLAYER_COLOURS.index(position.colour_at(APEX))
        if not self.captures(position, first):
            return SphlyingState()                 # no first capture: build a new pyramid
        return SphlyingState(position, first, None, None, True, 0)

    # -- play ----------------------------------------------------------------------
    @staticmethod
    def captures(position: Position, player: int) -> list[Move]:
        return captures((0, position.white, position.black, position.red), player)

    def legal_moves(self, state, player=None) -> list[Move]:
        if state.result is not None or not state.playing:
            return []
        return self.captures(state.position, state.to_move) or [PASS_MOVE]

    def apply(self, state, move: Move):
        if move.kind == CHOOSE:
            position = state.position.place(next_deal_point(state.position.occupied),
                                            move.colour)
            if position.occupied.bit_count() == NUM_POINTS:
                return dataclasses.replace(self._dealt(position), last=move)
            return SphlyingState(position, 0, None, move, False, 0)
        position = state.position if move.kind == PASS else capture(state.position, move)
        after = SphlyingState(position, (state.to_move + 1) % 3, None, move, True,
                              state.actions + 1)
        return self.settle(after)

    def settle(self, state):
        """Finish a game in which nobody can capture."""
        if state.result is not None or not state.playing:
            return state
        pos = state.position
        masks = (0, pos.white, pos.black, pos.red)
        if any(can_capture(masks, pos.occupied, p) for p in range(3)):
            return state
        return dataclasses.replace(state, result=self._final(state.position))

    def random_playout(self, state, rng):
        """The generic loop's games on raw masks: the deal drawn as
        ``sample_chance`` draws it, then the captures in :func:`captures`' order
        (a forced pass drawn too), one draw an action."""
        if state.result is not None:
            return state
        rnd = rng.random
        pos = state.position
        masks = [0, pos.white, pos.black, pos.red]
        mover, actions, last = state.to_move, state.actions, state.last
        occupied = pos.occupied
        if not state.playing:
            mover, last = self._deal(masks, rnd)
            occupied = ALL_MASK
        options = capture_pairs(masks, occupied, mover)
        while True:
            i = int(rnd() * (len(options) or 1))
            actions += 1
            if options:
                p, q = options[i]
                occupied = capture_masks(masks, occupied, p, q)
                last = RELOCATIONS[p, q]
            else:
                last = PASS_MOVE
            mover = (mover + 1) % 3
            options = capture_pairs(masks, occupied, mover)
            if not options and not can_capture(masks, occupied, (mover + 1) % 3) \
                    and not can_capture(masks, occupied, (mover + 2) % 3):
                break
        position = Position.from_masks(masks[WHITE], masks[BLACK], masks[RED])
        return SphlyingState(position, mover, self._final(position), last, True, actions)

    def _deal(self, masks: list[int], rnd) -> tuple[int, Move]:
        """Finish the deal on ``masks`` (changed in place), dealing again while
        the apex colour has no capture, as :meth:`chance_outcomes` and
        ``sample_chance`` draw it.  Returns the first player and the last draw."""
        while True:
            occupied = masks[WHITE] | masks[BLACK] | masks[RED]
            left = [PER_COLOUR - masks[c].bit_count() for c in _DEAL_ORDER]
            while occupied != ALL_MASK:
                total = left[0] + left[1] + left[2]
                r, acc = rnd(), 0.0
                for k in range(3):
                    if left[k]:
                        acc += left[k] / total
                        pick = k
                        if r < acc:
                            break
                colour = _DEAL_ORDER[pick]
                left[pick] -= 1
                bit = 1 << next_deal_point(occupied)
                masks[colour] |= bit
                occupied |= bit
            first = PLAYER_COLOURS.index(colour)         # the last ball is the apex
            if can_capture(masks, ALL_MASK, first):
                return first, DRAWS[colour]
            masks[WHITE] = masks[BLACK] = masks[RED] = 0  # build a new pyramid

    def _final(self, position: Position) -> Outcome:
        counts = [position.count(c) for c in PLAYER_COLOURS]
        most = max(counts)
        winners = tuple(p for p in range(3) if counts[p] == most)
        ranking = tuple(tuple(p for p in range(3) if counts[p] == k)
                        for k in sorted(set(counts), reverse=True))
        left = ", ".join(f"{self.player_name(p)} {k}" for p, k in enumerate(counts))
        return Outcome(winners, f"nobody can capture; balls left: {left}",
                       tuple(float(k) for k in counts), ranking)

    def winning_points(self, state) -> int:
        """The balls of the winner's colour (of every winner, after a tie)."""
        if state.result is None:
            return 0
        mask = 0
        for p in state.result.winners:
            mask |= state.position.mask(PLAYER_COLOURS[p])
        return mask

    def length(self, state) -> int:
        return state.actions

    def state_key(self, state) -> tuple:
        """Everything but the last move and the action count (history only)."""
        return (state.position, state.to_move, state.result, state.playing)

    # -- text ----------------------------------------------------------------------
    def status_lines(self, state) -> list[str]:
        """Balls left per player and who hunts whom; the deal's progress."""
        if not state.playing:
            return [f"Building the pyramid: {state.position.count()} of {NUM_POINTS} "
                    "balls in place."]
        counts = ", ".join(f"{self.player_name(p)} {state.position.count(c)}"
                           for p, c in enumerate(PLAYER_COLOURS))
        lines = [f"Balls left: {counts}.",
                 "White captures red, Red captures black, Black captures white."]
        if state.result is None and self.legal_moves(state) == [PASS_MOVE]:
            lines.append(f"{self.player_name(state.to_move)} has no capture and must pass.")
        return lines

    def extra_text(self, state) -> str:
        if not state.playing:
            return "deal"
        return f"actions={state.actions}" if state.actions else ""

    def state_from(self, position, to_move, extras) -> SphlyingState:
        fields = read_fields(self, extras, numbers=("actions",), flags=("deal",))
        name = "Sphlying Marbles state"
        if not position.is_stable():
            raise NotationError(f"{name}: a raised ball is not resting on four balls")
        for c in PLAYER_COLOURS:
            if position.count(c) > PER_COLOUR:
                raise NotationError(f"{name}: more than {PER_COLOUR} "
                                    f"{COLOUR_NAMES[c]} balls")
        if fields["deal"]:
            if fields["actions"] or to_move or position.occupied.bit_count() == NUM_POINTS:
                raise NotationError(f"{name}: during the deal nobody has moved (player 1, "
                                    "no actions) and the pyramid is not yet complete")
            return SphlyingState(position, 0, None, None, False, 0)
        captured = NUM_POINTS - position.occupied.bit_count()
        if fields["actions"] < captured:
            raise NotationError(f"{name}: {captured} balls were captured, so actions= "
                                f"must be at least {captured}")
        if captured == 0 and (position.colour_at(APEX) != PLAYER_COLOURS[to_move]
                              or fields["actions"]):
            raise NotationError(f"{name}: in the full pyramid the player whose colour "
                                "is on the apex moves first")
        state = SphlyingState(position, to_move, None, None, True, fields["actions"])
        return self.settle(state)

    def describe(self, state) -> str:
        text = super().describe(state)
        if not state.playing and state.result is None:
            text += f"\nBuilding the pyramid: {state.position.count()} of {NUM_POINTS} balls."
        return text


__all__ = ["DRAWS", "MAX_LENGTH", "PER_COLOUR", "PLAYER_COLOURS", "SphlyingMarbles",
           "SphlyingState", "capture", "captures", "next_deal_point"]
