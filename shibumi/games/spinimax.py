"""Spinimax: three players fill the board; every finished platform is topped automatically."""

from __future__ import annotations

import random

from ..bits import nth_point, points_in
from ..errors import NotationError
from ..game import Game, GameInfo, Outcome, State
from ..geometry import APEX, BOARD_MASK, NUM_POINTS, SUPPORT_MASK, SUPPORTED
from ..notation import Move, point_name
from ..position import BLACK, COLOUR_NAMES, RED, WHITE, Position
from ..registry import register
from .placement import PLACE_MOVES, sole_winner

PLAYER_COLOURS = (WHITE, BLACK, RED)
_UPPER = range(16, NUM_POINTS)


def stacked_colour(white: int, black: int, red: int) -> int:
    """The colour put on a finished platform holding these numbers of balls.

    The counts cover all three colours, a colour missing from the platform
    counting as zero.  The minority colour is the one with strictly the fewest
    balls; when two colours share the fewest, the majority colour (strictly the
    most balls) is used instead.  Four balls split 4-0-0, 3-1-0, 2-2-0 or
    2-1-1, so exactly one of the two always exists:

    >>> [COLOUR_NAMES[stacked_colour(*c)] for c in ((2, 2, 0), (3, 1, 0), (2, 1, 1), (4, 0, 0))]
    ['red', 'red', 'white', 'white']
    """
    counts = ((white, WHITE), (black, BLACK), (red, RED))
    low = min(white, black, red)
    fewest = [c for n, c in counts if n == low]
    if len(fewest) == 1:
        return fewest[0]
    high = max(white, black, red)
    most = [c for n, c in counts if n == high]
    assert len(most) == 1, "four balls always give a minority or a majority"
    return most[0]


def _build_table() -> dict[tuple[int, int, int], int]:
    table = {}
    for w in range(5):
        for b in range(5 - w):
            table[(w, b, 4 - w - b)] = stacked_colour(w, b, 4 - w - b)
    return table


STACK_COLOUR = _build_table()


def colour_for(masks: list[int], q: int) -> int:
    """The colour the rule puts on upper point q, from the balls under it."""
    sup = SUPPORT_MASK[q]
    return STACK_COLOUR[((masks[WHITE] & sup).bit_count(), (masks[BLACK] & sup).bit_count(),
                         (masks[RED] & sup).bit_count())]


def settle_stacks(masks: list[int], point: int) -> list[tuple[int, int]]:
    """Top every platform completed by a ball at `point`, and so on upwards.

    ``masks`` is ``[0, white, black, red]`` and is updated in place; returns
    the automatic placements as (point, colour), lowest level first.
    """
    added = []
    frontier = [point]
    while frontier:
        nxt = []
        occupied = masks[WHITE] | masks[BLACK] | masks[RED]
        for p in frontier:
            for q in SUPPORTED[p]:
                sup = SUPPORT_MASK[q]
                if occupied & sup == sup and not occupied >> q & 1:
                    colour = colour_for(masks, q)
                    masks[colour] |= 1 << q
                    occupied |= 1 << q
                    added.append((q, colour))
                    nxt.append(q)
        frontier = nxt
    return added


#: The colour stacked on a finished platform, by its white and black balls as
#: ``5 * white + black`` (the rest are red): :data:`STACK_COLOUR` as a flat table.
_STACKED = tuple(STACK_COLOUR.get((w, b, 4 - w - b), 0) for w in range(5) for b in range(5))
#: Each upper point with its platform, lowest level first (a platform's points
#: come before the point on it).
_PLATFORMS = tuple((q, SUPPORT_MASK[q]) for q in _UPPER)


def top_platforms(white: int, black: int, red: int) -> tuple[int, int, int]:
    """The colour masks once every finished platform is topped, level by level.

    The colour of an upper ball depends only on the four balls under it, which
    never change (nothing is ever removed), so topping the platforms from the
    bottom up gives what :func:`settle_stacks` gives ball by ball, in any order.
    """
    occupied = white | black | red
    for q, platform in _PLATFORMS:
        if occupied & platform == platform and not occupied >> q & 1:
            colour = _STACKED[(white & platform).bit_count() * 5
                              + (black & platform).bit_count()]
            bit = 1 << q
            occupied |= bit
            if colour == WHITE:
                white |= bit
            elif colour == BLACK:
                black |= bit
            else:
                red |= bit
    return white, black, red


@register
class Spinimax(Game):
    info = GameInfo(
        name="Spinimax", designer="Cameron Browne", year="2011",
        family="Completion", source="Shibumi Rule Book (2012)",
        summary="Three players fill the board hole by hole; each finished platform is "
                "topped by its minority (or majority) colour, and the apex's owner wins.",
        min_players=3, max_players=3, complexity=2, max_length=16)

    rules = """\
Three players, White, Black and Red, take turns in that order, starting from
an empty board. On your turn put a ball of your colour into any empty board
hole; nobody ever places a ball above the board by hand.

Whenever four balls form a finished platform, at any level, a ball is put on
it at once. Count the balls of each of the three colours in the platform,
a missing colour counting zero. If one colour has fewer balls than both
others, that minority colour is stacked. Otherwise (two colours tie for the
fewest) the colour with the most balls is stacked. So a platform of two and
two gets the third colour, three and one gets the missing colour, two, one
and one gets the colour with two, and four of a kind gets that colour again.

A stacked ball can finish another platform, which is topped in turn, and so
on up the pyramid. The apex is filled when the last board hole is, at the
sixteenth move. The player whose colour sits on the apex wins.
"""
    notes = """\
* Minority and majority are counted over all three colours, a colour absent
  from the platform counting zero. Counting only the colours present, a
  platform of two balls of one colour and two of another would have neither
  a single minority nor a single majority. With the absent colour counted,
  every platform of four has either one colour with strictly the fewest
  balls or, when two tie for the fewest (2-1-1, 4-0-0), one with strictly
  the most. A mixed reading also gives every platform a colour: the minority
  among the colours present, and the missing colour only for a 2-2 platform.
  The two readings differ on one kind of platform only, three of one colour
  and one of another: ours tops it with the missing colour, the mixed reading
  with the single ball's colour. We keep ours because it follows one rule
  everywhere and matches the designer's figure (below) on every 2-2 and
  2-1-1 platform; the mixed reading changes how often White wins.
* The chapter's four example figures (two minority, two majority stackings)
  are lost. The tests rebuild one platform of each kind the reading allows:
  2-2 and 3-1 (minority: the missing colour), 2-1-1 and 4 of a kind
  (majority). A copy of another Spinimax figure by the book's author (a last
  move and the chain of stackings it sets off, kept as
  `extra_images/fig-3-spinimax-1.eps` in the public repository
  donkirkby/shibumi-games) was checked against this reading: every visible
  2-2 platform in it is topped by the missing colour, and every 2-1-1
  platform by its doubled colour, as here. One ball disagrees: a level-2
  platform of three red and one black is shown topped red, where the text
  (a single minority exists, so it wins) gives white under this reading and
  black under the colours-present reading; no reading of the text gives red,
  so it is taken as a slip in the drawing. The tests replay that move.
* The turn order is fixed (White, Black, Red) and a player always places
  their own colour; stacked balls belong to whoever owns their colour, which
  matters only at the apex.
* Exactly 16 moves: a move fills one board hole and nothing else is ever
  placed by hand. An upper point is filled exactly when the four points
  under it are (a finished platform is topped at once), so the apex is
  filled exactly when all 30 points are, which happens at the move that
  fills the sixteenth hole, never before. White makes six moves, Black and
  Red five each.
* Length counts moves, not balls: it is the number of filled board holes.
* A position given as text must be settled: every finished platform carries
  the ball the rule gives it.
* Ball supply: a set holds 16 balls of each colour, but the stacking rule
  alone decides the colour of every upper ball, so a chain of stackings can
  call for a seventeenth ball (or more) of one colour. The rule wins: the
  engine never checks the supply, and players at a table fill in with any
  stand-in ball (one from another set, a marked ball) for the extra ones.
  It is rare: in 100,000 games of uniformly random moves, 79 (about 0.08%)
  ended with more than 16 balls of one colour, at worst 20. The tests replay
  one such last move: White's ball on c1 sets off five stackings, all
  white, which takes White from 14 balls on the pyramid to 20.
"""

    def initial_state(self, rng=None) -> State:
        return State()

    def legal_moves(self, state: State, player: int | None = None) -> list[Move]:
        if state.result is not None:
            return []
        row = PLACE_MOVES[PLAYER_COLOURS[state.to_move]]
        return [row[p] for p in points_in(~state.position.occupied & BOARD_MASK)]

    def apply(self, state: State, move: Move) -> State:
        pos = state.position
        masks = [0, pos.white, pos.black, pos.red]
        masks[move.colour] |= 1 << move.point
        settle_stacks(masks, move.point)
        position = Position.__new__(Position)       # masks the rules made: no checks
        position._set(masks[WHITE], masks[BLACK], masks[RED])
        return State(position, (state.to_move + 1) % 3, self._result(position), move)

    def random_playout(self, state: State, rng: random.Random) -> State:
        """Same games as the generic loop (the empty holes in ``legal_moves``'
        order, one draw a move) on raw masks.  The holes are filled first and the
        platforms topped once at the end (:func:`top_platforms`), which gives
        the same pyramid as topping them move by move."""
        if state.result is not None:
            return state
        rnd, pos = rng.random, state.position
        masks = [0, pos.white, pos.black, pos.red]
        empty, mover = ~pos.occupied & BOARD_MASK, state.to_move
        while True:                 # a game goes on until the last hole is filled
            p = nth_point(empty, int(rnd() * empty.bit_count()))
            empty ^= 1 << p
            colour = PLAYER_COLOURS[mover]
            masks[colour] |= 1 << p
            mover = (mover + 1) % 3
            if not empty:
                break
        position = Position.__new__(Position)       # masks the rules made: no checks
        position._set(*top_platforms(masks[WHITE], masks[BLACK], masks[RED]))
        return State(position, mover, self._result(position), PLACE_MOVES[colour][p])

    def _result(self, position: Position) -> Outcome | None:
        apex = position.colour_at(APEX)
        if not apex:
            return None
        owner = PLAYER_COLOURS.index(apex)
        return Outcome((owner,), f"{self.player_name(owner)} owns the apex")

    def winning_points(self, state: State) -> int:
        """The apex, whose colour won."""
        return 0 if sole_winner(state) is None else 1 << APEX

    def stacks_after(self, position: Position, point: int, colour: int) -> list[tuple[int, int]]:
        """The automatic placements a ball of `colour` on hole `point` would set off."""
        masks = [0, position.white, position.black, position.red]
        masks[colour] |= 1 << point
        return settle_stacks(masks, point)

    def length(self, state: State) -> int:
        return (state.position.occupied & BOARD_MASK).bit_count()

    def state_from(self, position, to_move, extras):
        masks = [0, position.white, position.black, position.red]
        for q in _UPPER:
            sup = SUPPORT_MASK[q]
            if position.occupied & sup != sup:
                continue
            want = colour_for(masks, q)
            if position.colour_at(q) != want:
                raise NotationError(
                    f"Spinimax position: the finished platform under {point_name(q)} "
                    f"must carry a {COLOUR_NAMES[want]} ball")
        return super().state_from(position, to_move, extras)

    def settle(self, state: State) -> State:
        result = self._result(state.position)
        if result is None:
            return state
        return State(state.position, state.to_move, result, state.last)
