"""Speq: place a ball of any colour; a raised ball must top a face of three colours.

A ball placed on a platform is the apex of a square pyramid of balls
beneath it, of height 1 (its four supports), 2 or 3 (down to the board).
Each such pyramid has four triangular faces: the new ball and two base
corners next to each other.  The ball may go there only if some face shows
one white, one black and one red ball.

>>> from shibumi import load
>>> from shibumi.notation import parse_point
>>> [point_name(p) for pair in FACES[parse_point('b2')] for p in points_of(pair)]
['a1', 'c1', 'a1', 'a3', 'c1', 'c3.0', 'a3', 'c3.0']
>>> match = load('speq').new_match()
>>> [match.push(m).text() for m in ('Wa1', 'Bc1', 'Ra3', 'Wc3')]
['Wa1', 'Bc1', 'Ra3', 'Wc3.0']
>>> sorted(match.move_text(m) for m in match.legal_moves() if m.point == parse_point('b2'))
['Bb2', 'Rb2']
"""

from __future__ import annotations

import dataclasses

from ..bits import nth_point
from ..errors import NotationError
from ..game import Game, GameInfo, Outcome, State
from ..geometry import (ALL_MASK, BOARD_MASK, COORDS, NUM_POINTS, SUPPORT_MASK, SUPPORTED,
                        point_at, points_of)
from ..notation import point_name
from ..position import BLACK, COLOUR_NAMES, RED, WHITE, Position
from ..registry import register
from .placement import PLACE_MOVES, PLAYER_COLOURS, playable_bits
from .spirit import SUPPLY

COLOURS = (WHITE, BLACK, RED)
#: WHITE + BLACK + RED: the colour completing a pair of two others is 6 minus both.
ALL_THREE = WHITE + BLACK + RED
#: Bit set of the three colours.
ANY_COLOUR = 1 << WHITE | 1 << BLACK | 1 << RED


def _faces(p: int) -> tuple[int, ...]:
    """The base-corner pairs of every face of every pyramid topped by p.

    For a point on level L at (x, y), the pyramid of height k has its base
    on level L - k, the square from (x, y) to (x + k, y + k); a face joins
    p to the two ends of one side of that square.
    """
    lv, x, y = COORDS[p]
    pairs = []
    for k in range(1, lv + 1):
        corners = [point_at(lv - k, x + dx, y + dy) for dx, dy in ((0, 0), (k, 0), (k, k), (0, k))]
        for i in range(4):
            pairs.append(1 << corners[i] | 1 << corners[(i + 1) % 4])
    return tuple(sorted(pairs))


#: FACES[p]: masks of the two base corners of each face under p (none on the board).
FACES: tuple[tuple[int, ...], ...] = tuple(_faces(p) for p in range(NUM_POINTS))


def _colour_of(position: Position, p: int) -> int:
    bit = 1 << p
    return WHITE if position.white & bit else BLACK if position.black & bit else \
        RED if position.red & bit else 0


def face_colours(white: int, black: int, red: int, p: int) -> int:
    """Bit set (1 << colour) of the colours a ball on p may have by the triangle
    rule, from the colour masks: every colour on the board; above it, the
    colour that a face's two differently coloured corners lack."""
    faces = FACES[p]
    if not faces:
        return ANY_COLOUR
    found = 0
    for pair in faces:
        if pair & white:
            if pair & black:
                found |= 1 << RED
            elif pair & red:
                found |= 1 << BLACK
        elif pair & black and pair & red:
            found |= 1 << WHITE
    return found


def allowed_colours(position: Position, p: int) -> int:
    """Bit set (1 << colour) of the colours a ball on p may have, by the triangle rule.

    Every colour on the board; above it, the colour that a face's two
    differently coloured corners lack.  Supply aside.
    """
    return face_colours(position.white, position.black, position.red, p)


def supplied(white: int, black: int, red: int) -> int:
    """Bit set of the colours that still have balls in the box."""
    return (white.bit_count() < SUPPLY) << WHITE | (black.bit_count() < SUPPLY) << BLACK \
        | (red.bit_count() < SUPPLY) << RED


#: For each point, the points above it with their platforms: a ball on the
#: point may complete those platforms.
_ABOVE = tuple(tuple((q, SUPPORT_MASK[q]) for q in SUPPORTED[p]) for p in range(NUM_POINTS))
#: For each bit set of colours, its colours in order (the order of the moves).
_COLOURS_IN = tuple(tuple(c for c in COLOURS if bits >> c & 1) for bits in range(16))


def tricolour_faces(position: Position, p: int) -> list[int]:
    """The faces under the ball on p showing three colours, as masks of their three points."""
    colour = _colour_of(position, p)
    return [pair | 1 << p for pair in FACES[p]
            if {colour, *(_colour_of(position, q) for q in points_of(pair))} == set(COLOURS)]


def most_wins(game: Game, counts, reason: str) -> Outcome:
    """The outcome of "most wins": tied leaders share, a tie of everyone is a draw."""
    n = len(counts)
    levels = sorted(set(counts), reverse=True)
    ranking = tuple(tuple(p for p in range(n) if counts[p] == c) for c in levels)
    leaders = ranking[0]
    told = "-".join(str(c) for c in counts)
    names = [game.player_name(p) for p in leaders]
    names = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
    if len(leaders) == n:
        how, winners = f"{names} tie on {counts[0]} ({told}): a draw", ()
    else:
        verb = "share the lead" if len(leaders) > 1 else "has the most"
        how, winners = f"{names} {verb} ({told})", leaders
    return Outcome(winners, f"{reason}; {how}", tuple(float(c) for c in counts), ranking)


@register
class Speq(Game):
    info = GameInfo(
        name="Speq", designer="Cameron Browne", year="2012",
        family="Counting", source="Annexe 1 of the French edition of the Shibumi Rule Book",
        summary="Place a ball of any colour; a raised ball must top a face with one ball of "
                "each colour; when nobody can place, most balls of your colour wins.",
        min_players=2, max_players=3, complexity=1, max_length=30)
    parameters = {"players": 2, "visible": False}

    rules = """\
Each player is given a colour: White to the first player, Black to the
second, and Red to the third when three play. With two players the red
balls belong to nobody. The board starts empty and turns go round in
order.

On your turn place one ball of any colour you like (yours or not) on a
playable point: an empty hole, or the hollow on top of a complete 2x2
platform. Holes take any colour. A raised ball is the top of a small
pyramid of the balls under it, and of larger ones reaching further down:
a ball on level 2 tops a pyramid on level 1 and one on the board, the apex
tops three. Each of these pyramids has four triangular sides, made of the
new ball and the two corners at the ends of one side of its base. A raised
ball may be placed only if at least one of those triangles has a white, a
black and a red ball at its three corners. Balls hidden inside the pyramid
count as corners like any other. A set has 16 balls of each colour, so a
colour runs out after its sixteenth.

The game ends as soon as the player to move cannot place any ball: the
pyramid is complete, or no empty point takes any colour. The player with
the most balls of their colour in the pyramid wins. Players tied for the
most share the win; if everyone ties, the game is a draw.

Variant `speq(visible=True)`: only the balls seen from above are counted.
"""
    notes = """\
* Source: the French annex (Annexe 1), game by Cameron Browne (2012). Its
  figure is lost.
* Colours. The annex gives each player a "target colour" and lets the
  player to move choose a ball. We read this as any colour: with two
  players, placing only one's own colour would never bring red, and no ball
  could ever be raised. With two players the targets are white and black
  and red is neutral; with three, each colour has an owner. Targets are
  open, not secret (the text says they are assigned, not hidden).
* The triangle rule. The annex explains it as a side of "the pyramid thus
  created" with a white, a black and a red ball at its corners, and adds
  that it can be checked at every level, down to the board. Its example (a
  white ball on level 2 making one three-coloured triangle with level 1 and
  another with the board) shows that the larger pyramids count: a ball on
  level L tops pyramids of heights 1 to L, each with four faces, equilateral
  triangles of side 1, 2 or 3. These are exactly the equilateral triangles
  with the new ball on top and two balls of one lower level (the tests check
  this from the coordinates). Board holes take any colour.
* Hidden balls count as corners: the annex supposes the hidden ball of its
  example white, which is what let the level-1 balls around it be placed.
  A hidden ball can also be a corner of a larger pyramid (a ball on c3.2
  tops a height-2 pyramid whose base corners include e5 on the board).
* The end: "when nobody can play". Every player may place every colour, so
  the player to move is stuck exactly when everyone is: the pyramid is full,
  or the board is full and no playable raised point has a face whose two
  base corners differ in colour (the new ball can supply the third colour,
  but not the second). The tests show a board of sixteen white balls ending
  the game at once; about three random games in ten stop before the
  pyramid is full. There is no pass.
* Score. The annex counts the balls of one's colour that were placed (all
  of them, hidden or not); the translator's summary of the game counts the
  visible ones. The default follows the annex; `visible=True` counts only
  what is seen from above.
* Ties. The annex names no tie-break. Tied leaders share the win, and a
  tie of all players is a draw.
* Supply. A set holds 16 balls of each colour. The rule never needs more
  than 16 of one colour in practice, but a colour whose 16 balls are all
  in the pyramid cannot be chosen any more.
* The lost figure is rebuilt in the tests and the chapter with a position
  of our own: a white ball on level 2 making one three-coloured face with
  level 1 and another with the board, above a hidden white ball.
* The outcome's scores are each player's count.
"""

    # -- rules ---------------------------------------------------------------
    def initial_state(self, rng=None) -> State:
        return State()

    def supplied(self, position: Position) -> int:
        """Bit set of the colours that still have balls in the box."""
        return supplied(position.white, position.black, position.red)

    def placements(self, position: Position) -> list[tuple[int, int]]:
        """Every (point, colour) the rules allow."""
        w, b, r = position.white, position.black, position.red
        box = supplied(w, b, r)
        return [(p, c) for p in points_of(playable_bits(position.occupied))
                for c in _COLOURS_IN[face_colours(w, b, r, p) & box]]

    def legal_moves(self, state: State, player: int | None = None) -> list:
        if state.result is not None:
            return []
        return [PLACE_MOVES[c][p] for p, c in self.placements(state.position)]

    def apply(self, state: State, move) -> State:
        position = state.position.place(move.point, move.colour)
        return self.settle(State(position, (state.to_move + 1) % self.num_players, None, move))

    def random_playout(self, state: State, rng) -> State:
        """The generic loop's games on raw masks: the same placements in
        :meth:`placements`' order (points in order, colours white, black, red),
        one draw a ball.  A raised point's colours are fixed once it opens (the
        pile under it is complete), so they are worked out once."""
        if state.result is not None:
            return state
        rnd = rng.random
        pos = state.position
        masks = [0, pos.white, pos.black, pos.red]
        occupied = pos.occupied
        box = supplied(pos.white, pos.black, pos.red)
        playable = playable_bits(occupied)
        allowed = [0] * NUM_POINTS
        for p in points_of(playable & ~BOARD_MASK):
            allowed[p] = face_colours(masks[1], masks[2], masks[3], p)
        mover, last = state.to_move, state.last
        while occupied != ALL_MASK:
            holes = playable & BOARD_MASK
            colours = _COLOURS_IN[box]
            on_board = holes.bit_count() * len(colours)
            raised, total = [], on_board
            upper = playable & ~BOARD_MASK
            while upper:
                low = upper & -upper
                upper ^= low
                p = low.bit_length() - 1
                ok = _COLOURS_IN[allowed[p] & box]
                if ok:
                    raised.append((p, ok))
                    total += len(ok)
            if not total:
                return self._final(masks, mover, last, "no empty point takes any colour")
            i = int(rnd() * total)
            if i < on_board:
                p, c = nth_point(holes, i // len(colours)), colours[i % len(colours)]
            else:
                i -= on_board
                for p, ok in raised:
                    if i < len(ok):
                        c = ok[i]
                        break
                    i -= len(ok)
            bit = 1 << p
            occupied |= bit
            masks[c] |= bit
            if masks[c].bit_count() == SUPPLY:
                box &= ~(1 << c)
            playable &= ~bit
            for q, platform in _ABOVE[p]:
                if occupied & platform == platform:
                    playable |= 1 << q
                    allowed[q] = face_colours(masks[1], masks[2], masks[3], q)
            last = PLACE_MOVES[c][p]
            mover = (mover + 1) % self.num_players
        return self._final(masks, mover, last, "the pyramid is complete")

    def _final(self, masks, to_move: int, last, reason: str) -> State:
        """The state a playout ends in, scored."""
        position = Position.from_masks(masks[1], masks[2], masks[3])
        return State(position, to_move, most_wins(self, self.counts(position), reason), last)

    def settle(self, state: State) -> State:
        position = state.position
        if position.occupied == ALL_MASK:
            reason = "the pyramid is complete"
        elif position.occupied & BOARD_MASK != BOARD_MASK or self.placements(position):
            return state
        else:
            reason = "no empty point takes any colour"
        return dataclasses.replace(state, result=most_wins(self, self.counts(position), reason))

    def counts(self, position: Position) -> list[int]:
        """Each player's score: balls of their colour (only those in view, in the variant)."""
        seen = position.visible() if self.params["visible"] else ALL_MASK
        return [(position.mask(PLAYER_COLOURS[p]) & seen).bit_count()
                for p in range(self.num_players)]

    def winning_points(self, state: State) -> int:
        """The balls that scored for the winners."""
        if state.result is None or not state.result.winners:
            return 0
        seen = state.position.visible() if self.params["visible"] else ALL_MASK
        return sum(state.position.mask(PLAYER_COLOURS[p]) & seen for p in state.result.winners)

    # -- text ----------------------------------------------------------------
    def status_lines(self, state: State) -> list[str]:
        """Each player's colour and count, and the colours whose balls have run out."""
        counts = self.counts(state.position)
        lines = ["Balls of each player's colour: " + ", ".join(
            f"{self.player_name(p)} {counts[p]}" for p in range(self.num_players)) + "."]
        if self.num_players == 2:
            lines.append(f"Red balls are neutral ({state.position.count(RED)} placed).")
        out = [COLOUR_NAMES[c] for c in COLOURS if state.position.count(c) >= SUPPLY]
        if out:
            lines.append(f"No {' or '.join(out)} balls are left.")
        return lines

    def state_from(self, position, to_move, extras):
        if extras:
            raise NotationError(f"Speq states have no extra fields, got {extras!r}")
        balls = position.count()
        if to_move != balls % self.num_players:
            raise NotationError(f"Speq: after {balls} balls it is "
                                f"{self.player_name(balls % self.num_players)}'s turn")
        for c in COLOURS:
            if position.count(c) > SUPPLY:
                raise NotationError(f"Speq: a set has only {SUPPLY} {COLOUR_NAMES[c]} balls")
        for p in points_of(position.occupied & ~BOARD_MASK):
            if not tricolour_faces(position, p):
                raise NotationError(f"Speq position: the ball on {point_name(p)} tops no "
                                    "face of three colours, so it could not have been placed")
        return self.settle(State(position, to_move))


__all__ = ["FACES", "Speq", "allowed_colours", "most_wins", "tricolour_faces"]
