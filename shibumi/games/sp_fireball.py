"""SP-Fireball: two balls a turn, your own and a burning red, spreading from a
corner; the red last played scorches the points around it for the opponent.

>>> from shibumi import load
>>> match = load("sp-fireball").new_match()
>>> _ = match.push("Wa3"), match.push("Rc3")      # White: own ball and the red, touching
>>> match.game.status_lines(match.state)[1]
'The red at c3.0 burns: nothing may touch it.'
>>> " ".join(m.text() for m in match.legal_moves())   # Black starts near g7
'Bg3 Rg3 Be5.0 Re5.0 Bg5 Rg5 Bc7 Rc7 Be7 Re7'
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass

from ..bits import points_in, raised
from ..errors import NotationError
from ..game import Game, GameInfo, Outcome, State, read_fields, write_fields
from ..geometry import LEVEL_MASK, TOUCHING_MASK, points_of, transform_mask
from ..notation import parse_point, point_name, transform_move
from ..position import BLACK, RED, WHITE, Position
from ..registry import register
from .placement import PLACE_MOVES, sole_winner

PLAYER_COLOURS = (WHITE, BLACK)
START = Position.from_masks(white=1 << parse_point("a1"), black=1 << parse_point("g7"))


def _touching(mask: int) -> int:
    """Every point in contact with a ball of the mask."""
    out = 0
    while mask:
        low = mask & -mask
        out |= TOUCHING_MASK[low.bit_length() - 1]
        mask ^= low
    return out


def second_spots(playable: int, first: int, friends: int, barred: int) -> int:
    """Where the second ball of a turn may go, the first being at ``first``: a
    playable point (``playable`` is the mask once the first ball is down) touching
    it, not ``barred`` (touching the burning ball), and touching one of the
    mover's balls from before the turn (``friends``) unless the first ball does."""
    spots = playable & TOUCHING_MASK[first] & ~barred
    return spots if friends >> first & 1 else spots & friends


def first_spots(occupied: int, playable: int, friends: int, barred: int) -> int:
    """Where the first ball of a turn may go (of either colour): the points that
    leave a place for the second (see :func:`second_spots`)."""
    found = 0
    left = playable & ~barred
    while left:
        bit = left & -left
        left ^= bit
        p = bit.bit_length() - 1
        # second_spots(playable & ~bit | raised(occupied, p), p, friends, barred),
        # spelt out so that the platforms are only looked at when needed.
        near = TOUCHING_MASK[p] & ~barred
        if not friends & bit:
            near &= friends
        if near and (playable & near or raised(occupied, p) & near):
            found |= bit
    return found


def pairs(position: Position, own: int, hot: int):
    """Every legal turn as (own point, red point, position after), first ball first.

    A turn puts one ball of colour ``own`` and one red ball in contact with
    each other, neither touching the burning ball ``hot`` (a mask), and at
    least one of them touching a ball of colour ``own`` already there.
    """
    barred = _touching(hot)
    friends = _touching(position.mask(own))
    occupied, playable = position.occupied, position.playable()
    found = []
    for first in points_of(playable & ~barred):
        after = playable & ~(1 << first) | raised(occupied, first)
        for second in points_of(second_spots(after, first, friends, barred)):
            found.append((first, second))
    return found


@dataclass(frozen=True)
class FireballState(State):
    hot: int = 0
    """The red ball the opponent placed in their last turn (a one-point mask)."""
    first: int = -1
    """The point of the first ball of the turn being played, else -1."""


@register
class SPFireball(Game):
    info = GameInfo(
        name="SP-Fireball", designer="Emil Danielsen", year="2020", family="Counting",
        source="Annexe 2 of the French edition of the Shibumi Rule Book",
        summary="Place your ball and a burning red together, away from the opponent's "
                "last red; the last able to play with the highest balls wins.",
        complexity=2, aliases=("Fireball",), max_length=28)

    rules = """\
Two players, White and Black. The board starts empty but for a white ball
in corner hole a1 and a black ball in the opposite corner g7. White plays
first.

A turn is two balls, in either order: one of your own colour and one red.
The two must touch each other, and at least one of them must touch a ball
of your colour that was already in the pyramid. A ball touches the balls
next to it on its level, the balls it rests on and the balls resting on it.

The red ball just played is burning: in the next turn the opponent may
place neither of their two balls in contact with it. (Only the red of the
turn just played burns; older reds are cold.)

The game ends when the player to move cannot place two balls this way.
Then compare the balls of each colour on the apex; if equal, on level 2;
then level 1; then the board. The player with more balls on the first
level that differs wins; if all four are equal, the game is drawn.
"""
    notes = """\
* First player: the text does not say; White plays first, as in the other
  games of the set.
* Corners: "two opposite corners" of the board; we put White in a1 and
  Black in g7.
* "Another ball of the same player": the text asks that at least one of the
  two new balls touch another ball of the player; since the two new balls
  must touch each other anyway, this must mean a ball of the player's
  colour already in the pyramid before the turn (the new red touching the
  new own ball is not enough).
* Contact is physical: balls side by side on a level, and a ball with the
  four it rests on, seen or hidden (the turn is about where balls are, not
  what is seen).
* The order: either ball may go first, and the second may rest on the
  first. In this program the two balls are two actions; a first ball is
  allowed only if a legal second ball exists.
* The burning ball: only the red placed in the turn just before; it bars
  every point touching it, so also the points resting on it.
* Counting: "the most balls on the highest level" counts the balls of each
  colour on a level, hidden ones included (a ball is owned whether seen or
  not; only the board and the middle of level 1 can hide balls, and they
  are compared last). The sister game SP-Kapow's example counts visible
  balls on the board; here it could decide a game only when the three
  upper levels tie.
* Supply: at most 14 turns fit in the 28 free points, so 14 reds and 15
  balls of a colour: a set's 16 of each never run short.
"""

    def initial_state(self, rng=None) -> FireballState:
        return FireballState(START)

    def length(self, state) -> int:
        return state.position.occupied.bit_count() - 2

    def legal_moves(self, state, player=None):
        if state.result is not None:
            return []
        own = PLAYER_COLOURS[state.to_move]
        position = state.position
        mine = position.mask(own)
        if state.first >= 0:
            mine &= ~(1 << state.first)   # the balls from before the turn
        friends = _touching(mine)
        if state.first < 0:
            spots = first_spots(position.occupied, position.playable(), friends,
                                _touching(state.hot))
            return [PLACE_MOVES[c][p] for p in points_of(spots) for c in (own, RED)]
        need = RED if position.colour_at(state.first) == own else own
        spots = second_spots(position.playable(), state.first, friends, _touching(state.hot))
        return [PLACE_MOVES[need][p] for p in points_of(spots)]

    def apply(self, state, move):
        position = state.position.place(move.point, move.colour)
        if state.first < 0:
            return FireballState(position, state.to_move, None, move, state.hot, move.point)
        red = move.point if move.colour == RED else state.first
        mover = 1 - state.to_move
        stuck = not first_spots(position.occupied, position.playable(),
                                _touching(position.mask(PLAYER_COLOURS[mover])),
                                TOUCHING_MASK[red])
        return FireballState(position, mover, self.judge(position, mover) if stuck else None,
                             move, 1 << red, -1)

    def random_playout(self, state, rng: random.Random):
        """Same games as the generic loop, on raw masks (the benchmark path): the first
        ball (point by point, own colour then red), then the second, one draw each;
        the playable mask and each player's ``friends`` are kept up to date."""
        if state.result is not None:
            return state
        rnd = rng.random
        position, mover, first, last = state.position, state.to_move, state.first, state.last
        masks = [0, position.white, position.black, position.red]
        occ, playable = position.occupied, position.playable()
        barred = _touching(state.hot)
        turn = 1 << first if first >= 0 else 0      # a ball of the turn is no friend yet
        friends = [_touching(masks[c] & ~turn) for c in PLAYER_COLOURS]
        spots = first_spots(occ, playable, friends[mover], barred) if first < 0 else 0
        while True:
            own = PLAYER_COLOURS[mover]
            if first < 0:
                pts = points_in(spots)
                i = int(rnd() * 2 * len(pts))
                first, colour = pts[i >> 1], (RED if i & 1 else own)
                masks[colour] |= 1 << first
                playable = playable & ~(1 << first) | raised(occ, first)
                occ |= 1 << first
            else:
                colour = RED if masks[RED] >> first & 1 else own
            need = own if colour == RED else RED
            seconds = points_in(second_spots(playable, first, friends[mover], barred))
            second = seconds[int(rnd() * len(seconds))]
            masks[need] |= 1 << second
            playable = playable & ~(1 << second) | raised(occ, second)
            occ |= 1 << second
            red, mine = (second, first) if need == RED else (first, second)
            friends[mover] |= TOUCHING_MASK[mine]
            last, first, mover = PLACE_MOVES[need][second], -1, 1 - mover
            barred = TOUCHING_MASK[red]
            spots = first_spots(occ, playable, friends[mover], barred)
            if not spots:
                break
        position = Position.from_masks(masks[1], masks[2], masks[3])
        return FireballState(position, mover, self.judge(position, mover), last, 1 << red, -1)

    def judge(self, position: Position, stuck: int) -> Outcome:
        """The count, level by level from the apex, once ``stuck`` cannot play."""
        why = f"{self.player_name(stuck)} cannot place two balls"
        for level in (3, 2, 1, 0):
            counts = [(position.mask(c) & LEVEL_MASK[level]).bit_count()
                      for c in PLAYER_COLOURS]
            if counts[0] != counts[1]:
                best = 0 if counts[0] > counts[1] else 1
                name = "the apex" if level == 3 else ("the board" if level == 0
                                                      else f"level {level}")
                return Outcome((best,), f"{why}; {self.player_name(best)} has more balls "
                               f"on {name} ({max(counts)} to {min(counts)})")
        return Outcome((), f"{why}; every level is tied")

    def winning_points(self, state) -> int:
        """The winner's balls on the level that decided."""
        winner = sole_winner(state)
        if winner is None:
            return 0
        for level in (3, 2, 1, 0):
            masks = [state.position.mask(c) & LEVEL_MASK[level] for c in PLAYER_COLOURS]
            if masks[0].bit_count() != masks[1].bit_count():
                return masks[winner]
        return 0

    # -- text ------------------------------------------------------------------
    def status_lines(self, state) -> list[str]:
        if state.result is not None:
            return []
        me = self.player_name(state.to_move)
        lines = []
        if state.first < 0:
            lines.append(f"{me} places a {me.lower()} ball and a red ball, touching.")
        else:
            need = "red" if state.position.colour_at(state.first) != RED else me.lower()
            lines.append(f"{me} places the {need} ball, touching the one just placed.")
        if state.hot:
            lines.append(f"The red at {point_name(points_of(state.hot)[0])} burns: nothing may touch it.")
        return lines

    def transform_state(self, state, perm):
        return dataclasses.replace(
            state, position=state.position.transform(perm), last=transform_move(state.last, perm),
            hot=transform_mask(state.hot, perm), first=perm[state.first] if state.first >= 0 else -1)

    def extra_text(self, state) -> str:
        hot = ("point", points_of(state.hot)[0]) if state.hot else None
        first = ("point", state.first) if state.first >= 0 else None
        return write_fields(hot=hot, first=first)

    def state_from(self, position, to_move, extras):
        fields = read_fields(self, extras, points=("hot", "first"))
        hot, first = fields["hot"], fields["first"]
        if not position.is_stable():
            raise NotationError("SP-Fireball: every ball must be carried")
        if hot is not None and position.colour_at(hot) != RED:
            raise NotationError("SP-Fireball: the burning ball must be a red ball")
        if first is not None and position.colour_at(first) not in (RED, PLAYER_COLOURS[to_move]):
            raise NotationError("SP-Fireball: the turn's first ball must be the mover's "
                                "colour or red")
        if START.occupied & ~position.occupied:
            raise NotationError("SP-Fireball: the two starting corner balls never leave")
        state = FireballState(position, to_move, None, None,
                              0 if hot is None else 1 << hot, -1 if first is None else first)
        return self.settle(state)

    def settle(self, state):
        if state.first < 0 and not pairs(state.position, PLAYER_COLOURS[state.to_move],
                                         state.hot):
            return dataclasses.replace(state, result=self.judge(state.position, state.to_move))
        return state
