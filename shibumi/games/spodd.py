"""Spodd: each turn adds a touching white-black pair; majorities on five diagonals decide.

The board starts with red balls in two opposite corners, a1 and g7.  Seen
from above, the squares of the pyramid run in diagonals across the line of
the two reds; the five middle ones are scored.

>>> from shibumi import load
>>> match = load('spodd').new_match()
>>> match.push('Wc3'), match.push('c1')
(Move('Wc3.0'), Move('Bc1'))
>>> [name for name, _ in DIAGONALS]
['a3-c1', 'a5-e1', 'a7-g1', 'c7-g3', 'e7-g5']
"""

from __future__ import annotations

import dataclasses

from ..bits import nth_point, points_in, raised
from ..errors import NotationError, shown
from ..game import GameInfo, Outcome, read_fields
from ..geometry import ALL_MASK, POINTS, PROJECTION, TOUCHING_MASK
from ..position import BLACK, WHITE, Position, hidden_mask
from ..registry import register
from .placement import PLACE_MOVES, playable_bits
from .spaiji import PairState, TouchingPairGame, completers, openings

#: The two red balls of the start, in opposite corner holes.
RED_CORNERS = (1 << 0) | (1 << 15)                     # a1 and g7
START = Position.from_masks(red=RED_CORNERS)
OTHER = {WHITE: BLACK, BLACK: WHITE}
WHITE_MOVES, BLACK_MOVES = PLACE_MOVES[WHITE], PLACE_MOVES[BLACK]


def _diagonals() -> tuple[tuple[str, int], ...]:
    """The five scored diagonals, as (name, mask of every point on it, any level).

    A diagonal is the set of squares with the same file + rank in the top view,
    so it runs across the line a1-g7.  The two corner squares (a1 and g7 alone)
    are not scored.
    """
    found = []
    for total in (2, 4, 6, 8, 10):
        pts = [p for p in POINTS if sum(PROJECTION[p]) == total]
        squares = sorted({PROJECTION[p] for p in pts})
        ends = (squares[0], squares[-1])
        name = "-".join("abcdefg"[f] + str(r + 1) for f, r in ends)
        found.append((name, sum(1 << p for p in pts)))
    return tuple(found)


DIAGONALS: tuple[tuple[str, int], ...] = _diagonals()
#: Points of the two variants: every diagonal 1, or 1-2-3-2-1 from a3-c1 to e7-g5.
WEIGHTS = {False: (1, 1, 1, 1, 1), True: (1, 2, 3, 2, 1)}


def tallies(position: Position) -> list[tuple[int, int]]:
    """(white, black) visible balls on each scored diagonal, from a3-c1 to e7-g5.

    >>> tallies(START)
    [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)]
    """
    seen = position.occupied & ~hidden_mask(position.occupied)
    return [((position.white & seen & m).bit_count(), (position.black & seen & m).bit_count())
            for _, m in DIAGONALS]


_FIRST_SPOTS: dict[int, int] = {}


def first_spots(occupied: int) -> int:
    """Where the first ball of a turn may go: a point with room for a touching
    partner, or, when there is none anywhere, any playable point.

    Memoised (cleared past 200,000 entries): the touching pairs leave few
    occupancies, and random games meet the same ones again and again.
    """
    spots = _FIRST_SPOTS.get(occupied)
    if spots is None:
        if len(_FIRST_SPOTS) > 200_000:
            _FIRST_SPOTS.clear()
        playable = playable_bits(occupied)
        spots = _FIRST_SPOTS[occupied] = openings(occupied) or playable
    return spots


def second_spots(occupied: int, first: int) -> int:
    """Where the second ball may go once the first is at ``first`` (already in
    ``occupied``): a playable point touching it, or any playable point when none does."""
    playable = playable_bits(occupied)
    return playable & TOUCHING_MASK[first] or playable


@register
class Spodd(TouchingPairGame):
    info = GameInfo(
        name="Spodd", designer="Giacomo Galimberti", year="2012",
        family="Counting", source="Shibumi Rule Book (2012)",
        summary="Every turn adds a white and a black ball that touch; on a full pyramid "
                "the colour with more balls seen on each of five diagonals takes it, "
                "and most diagonals wins.",
        complexity=2, max_length=28)
    parameters = {"weighted": False}
    symmetries = (0, 2, 6, 7)          # the turns that keep the two red corners

    rules = """\
Red balls sit in two opposite corner holes, a1 and g7; everything else is
empty. White owns the white balls and Black the black ones, but on every
turn the player to move, White first, places one white ball and one black
ball, in either order, on playable points, and the two balls must touch.
The second ball may rest on a platform that the first one has just
completed. Only when no two touching playable points are left may the two
balls go on any two playable points, so the pyramid always fills up.

The game lasts until the pyramid is complete, after fourteen turns (Black
takes the last). Look at it from above: the squares line up in diagonals
running across the line joining the two red corners. Apart from the two
corners themselves there are five of them, holding 3, 5, 7, 5 and 3 visible
balls. On each of these diagonals, whoever has more visible balls of their
colour takes it, and whoever takes more diagonals wins. Every diagonal
holds an odd number of balls and there is an odd number of diagonals, so
there is always a winner.

Variant `spodd(weighted=True)`: the diagonals are worth 1, 2, 3, 2 and 1
points from one corner to the other, and the higher total wins.
"""
    notes = """\
* Start (figure lost): red balls in two opposite corner holes, taken as a1
  and g7, as other descriptions of the game have it. Then the top-view
  diagonals across the line a1-g7 hold 1, 3, 5, 7, 5, 3 and 1 squares; the
  two single corners are red and cannot count for anyone, which leaves the
  five diagonals of 3, 5, 7, 5 and 3 squares the rule book talks about.
* What is counted: the balls seen from above on a complete pyramid. The five
  hidden balls (c3, c5, e3, e5 on the board and d4 of level 1) lie under
  squares of the diagonals a5-e1, a7-g1 and c7-g3, and do not count.
* Why there is never a tie. At the end the pyramid is full, so each scored
  diagonal shows exactly 3, 5 or 7 balls, all white or black (the only reds
  are the two unscored corners, and they are never covered). An odd number of
  balls in two colours cannot split evenly, so each diagonal has a majority;
  five diagonals cannot split evenly between two players either. In the
  weighted variant the points add up to 9, again odd. The tests check each
  diagonal over every colouring of its squares and play thousands of random
  games.
* The argument needs the pyramid to be full, so the game must never stop
  early. It could: as in Spaiji, a player can find no pair of touching
  playable points (for example with the board full and level 1 holding only
  b4, d2, f4 and d6, whose five playable points each complete no platform
  and touch no empty point). The rule book says the game ends when the
  pyramid is full, so we keep playing: a player who cannot place two touching
  balls places the white and the black ball on any two playable points. When
  a touching pair exists, it is compulsory, and a first ball that would leave
  no touching point for the second is not allowed. Random games need this
  escape in well under 2% of games (the tests check this bound); it never
  changes the turn order or the number of turns.
* A turn is two actions by the same player: the first names its colour
  (`Wd6` or `Bd6`), the second takes the other colour (`c1` is enough).
* Touching is physical contact: on the same level side by side, or one ball
  resting on the other.
* The rule book's example final score (White takes 3 diagonals to 2, the
  diagonals going 2-1 for White, 4-1 for Black, 4-3 for White, 3-2 for Black
  and 2-1 for White; figure lost) is rebuilt in the tests as a full game with
  exactly those counts.
* Only 2 + 14 + 14 balls are used: two reds, fourteen white, fourteen black,
  within a set's sixteen of each colour.
* The outcome's scores are the diagonals (or, weighted, the points) won by
  White and by Black.
"""

    def start_position(self) -> Position:
        return START

    def first_spots(self, occupied: int) -> int:
        return first_spots(occupied)

    def second_spots(self, occupied: int, first: int) -> int:
        return second_spots(occupied, first)

    def legal_moves(self, state, player=None):
        """:meth:`TouchingPairGame.legal_moves` (white first balls, then black ones;
        a second ball in the other colour), listed from tables."""
        if state.result is not None:
            return []
        occupied = state.position.occupied
        if state.first is None:
            spots = points_in(first_spots(occupied))
            return [WHITE_MOVES[p] for p in spots] + [BLACK_MOVES[p] for p in spots]
        row = BLACK_MOVES if state.position.white >> state.first & 1 else WHITE_MOVES
        return [row[q] for q in points_in(second_spots(occupied, state.first))]

    def random_playout(self, state, rng):
        """The generic loop's games on raw masks: a first ball among the white then
        the black first spots (one draw), its partner among the second spots (one
        draw), until the pyramid is full; :meth:`settle` scores the end."""
        if state.result is not None:
            return state
        rnd = rng.random
        position, mover, first = state.position, state.to_move, state.first
        white, black, occupied = position.white, position.black, position.occupied
        playable = playable_bits(occupied)
        while True:
            if first is None:
                spots = first_spots(occupied)
                n = spots.bit_count()
                i = int(rnd() * 2 * n)
                if i < n:
                    first = nth_point(spots, i)
                    white |= 1 << first
                else:
                    first = nth_point(spots, i - n)
                    black |= 1 << first
                playable = playable & ~(1 << first) | raised(occupied, first)
                occupied |= 1 << first
            seconds = playable & TOUCHING_MASK[first] or playable
            second = nth_point(seconds, int(rnd() * seconds.bit_count()))
            bit = 1 << second
            if white >> first & 1:
                black |= bit
                last = BLACK_MOVES[second]
            else:
                white |= bit
                last = WHITE_MOVES[second]
            playable = playable & ~bit | raised(occupied, second)
            occupied |= bit
            first, mover = None, 1 - mover
            if occupied == ALL_MASK:
                break
        final = Position.from_masks(white, black, position.red)
        return self.settle(PairState(final, mover, None, last, None))

    def score(self, position: Position) -> Outcome:
        """Who takes each diagonal of a full pyramid, and who wins."""
        weights = WEIGHTS[self.params["weighted"]]
        points = [0, 0]
        for (white, black), weight in zip(tallies(position), weights):
            points[0 if white > black else 1] += weight
        winner = 0 if points[0] > points[1] else 1
        unit = "points" if self.params["weighted"] else "diagonals"
        why = (f"{self.player_name(winner)} takes {points[winner]} {unit} "
               f"to {points[1 - winner]}")
        return Outcome((winner,), why, (float(points[0]), float(points[1])),
                       ((winner,), (1 - winner,)))

    def settle(self, state):
        if state.first is None and state.position.occupied == ALL_MASK:
            return dataclasses.replace(state, result=self.score(state.position))
        return state

    def length(self, state) -> int:
        """Balls placed (the two starting reds are not counted)."""
        return state.position.occupied.bit_count() - 2

    # -- text ----------------------------------------------------------------
    def state_from(self, position, to_move, extras):
        first = read_fields(self, extras, points=("first",))["first"]
        if position.red != RED_CORNERS:
            raise NotationError("Spodd positions have red balls on a1 and g7 and nowhere else")
        if not position.is_stable():
            raise NotationError("Spodd position: a ball is not resting on a full platform")
        white, black = position.white.bit_count(), position.black.bit_count()
        if first is None:
            if white != black:
                raise NotationError("Spodd position between turns: as many white balls "
                                    "as black ones")
        else:
            colour = position.colour_at(first)
            extra = white - black if colour == WHITE else black - white
            if colour not in (WHITE, BLACK) or extra != 1 or position.supported_balls(first):
                raise NotationError(f"Spodd state: {shown(extras)} must name the white or black "
                                    "ball just placed, with one ball more of its colour")
        turns = (white + black) // 2
        if to_move != turns % 2:
            raise NotationError(f"Spodd: after {turns} full turns it is "
                                f"{self.player_name(turns % 2)}'s turn")
        return self.settle(PairState(position, to_move, None, None, first))


__all__ = ["DIAGONALS", "Spodd", "completers", "first_spots", "second_spots",
           "tallies"]
