"""Spandrel: three players; each turn places a white, a black and a red ball in a
touching chain; the largest visible group of your colour wins.

A turn is three actions by the same player, one ball each, in any order and
any colour order.  The three balls must end up as a chain: one of them
touches the other two.  A ball that would leave no way to finish the chain
is refused, so a turn never gets stuck halfway.

>>> from shibumi import load
>>> match = load('spandrel').new_match()
>>> match.push('Rc3'), match.push('Wa1'), match.push('Bc1')
(Move('Rc3.0'), Move('Wa1'), Move('Bc1'))
>>> match.current_player
1
>>> a1, c3 = parse_point('a1'), parse_point('c3.0')
>>> [point_name(p) for p in points_of(third_spots(1 << a1 | 1 << c3, a1, c3))]
['c1', 'a3']
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..bits import flood, nth_point
from ..errors import NotationError, UnknownGameError, shown
from ..game import Game, GameInfo, Outcome, State
from ..geometry import (ALL_MASK, CONTACTS, POINTS, SUPPORT_MASK, SUPPORTED, TOUCHING_MASK,
                        points_of)
from ..notation import parse_point, point_name
from ..position import BLACK, COLOUR_NAMES, EMPTY, RED, WHITE, Position, hidden_mask
from ..registry import register
from .placement import PLACE_MOVES, PLAYER_COLOURS, playable_bits

#: Balls in a turn: one of each colour.
CHAIN = 3

#: For each point, the points above it with their platforms: putting a ball on
#: the point may complete those platforms (the playable mask then grows).
_ABOVE = tuple(tuple((1 << q, SUPPORT_MASK[q]) for q in SUPPORTED[p]) for p in POINTS)
#: NEAR[a][b]: where a third ball may go once the first two are on a and b.
#: If a and b touch, the third ball touches either of them (a chain with a or b
#: in the middle); if not, it must touch both and be the middle.
NEAR = tuple(tuple(TOUCHING_MASK[a] | TOUCHING_MASK[b] if TOUCHING_MASK[a] >> b & 1
                   else TOUCHING_MASK[a] & TOUCHING_MASK[b] for b in POINTS)
             for a in POINTS)


def touches(a: int, b: int) -> bool:
    """Whether balls on points a and b are in contact."""
    return bool(TOUCHING_MASK[a] >> b & 1)


def after_ball(playable: int, occupied: int, p: int) -> int:
    """The playable mask once a ball is on p (``occupied`` already holds it):
    p is gone, and the platforms it completes open the points above."""
    playable &= ~(1 << p)
    for bit, platform in _ABOVE[p]:
        if occupied & platform == platform:
            playable |= bit
    return playable


def seconds_of(occupied: int, playable: int, a: int, first: bool = False) -> int:
    """Where the second ball may go with the first on a: playable points that
    leave a third point finishing the chain.  ``occupied`` and ``playable``
    include the ball on a.  With ``first`` only whether there is one matters:
    the lowest such point is returned."""
    found, near, left = 0, NEAR[a], playable
    while left:
        low = left & -left
        left ^= low
        b = low.bit_length() - 1
        # Most second balls leave a third point open without opening anything.
        if playable & ~low & near[b] or after_ball(playable, occupied | low, b) & near[b]:
            if first:
                return low
            found |= low
    return found


def firsts_of(occupied: int, playable: int) -> int:
    """Playable points where a first ball can still grow into a whole chain."""
    found, left = 0, playable
    while left:
        low = left & -left
        left ^= low
        a = low.bit_length() - 1
        near = playable & TOUCHING_MASK[a]
        if near & (near - 1):
            # Two open points beside a: a chain with a in the middle (placing
            # balls only ever opens points).
            found |= low
            continue
        occ = occupied | low
        if seconds_of(occ, after_ball(playable, occ, a), a, True):
            found |= low
    return found


def third_spots(occupied: int, a: int, b: int) -> int:
    """Where the third ball may go once the first two are on a and b (in ``occupied``)."""
    return playable_bits(occupied) & NEAR[a][b]


def second_spots(occupied: int, a: int) -> int:
    """Where the second ball may go with the first on a (in ``occupied``):
    playable points that leave a third point finishing the chain."""
    return seconds_of(occupied, playable_bits(occupied), a)


def first_spots(occupied: int) -> int:
    """Playable points where a first ball can still grow into a whole chain."""
    return firsts_of(occupied, playable_bits(occupied))


def spots(occupied: int, placed: tuple[int, ...]) -> int:
    """Where the next ball of a turn may go, ``placed`` holding this turn's balls."""
    if not placed:
        return first_spots(occupied)
    if len(placed) == 1:
        return second_spots(occupied, placed[0])
    return third_spots(occupied, placed[0], placed[1])


#: Contacts of each point as (neighbour bit, overpass mask); with no overpass
#: the contact is always seen.
_CONTACTS = tuple(tuple((1 << (b if a == p else a), over) for a, b, over in CONTACTS
                        if p in (a, b)) for p in POINTS)


def visible_links(occupied: int) -> tuple[int, tuple[int, ...]]:
    """The balls seen from above, and for each point the balls it visibly
    touches (as ``shibumi.position.linked``): a hidden ball touches nothing,
    and a contact under a crossing pair of balls is cut."""
    seen = occupied & ~hidden_mask(occupied)
    links = []
    for p in POINTS:
        mask = 0
        if seen >> p & 1:
            for bit, over in _CONTACTS[p]:
                if seen & bit and (not over or occupied & over != over):
                    mask |= bit
        links.append(mask)
    return seen, tuple(links)


#: The balls seen and the links of the complete pyramid, where almost every
#: game ends.
_FULL_LINKS = visible_links(ALL_MASK)


def largest_groups(position: Position) -> list[tuple[int, int]]:
    """(size, union) of each player's largest visible groups."""
    occ = position.occupied
    seen, links = _FULL_LINKS if occ == ALL_MASK else visible_links(occ)
    return [largest_group(position.mask(c) & seen, links) for c in PLAYER_COLOURS]


def largest_group(mine: int, links: tuple[int, ...]) -> tuple[int, int]:
    """(size, union) of the largest groups of the balls ``mine`` (seen ones
    only, see :func:`visible_links`), as ``Position.largest_groups``."""
    best = union = 0
    left = mine
    while left:
        group = flood(left & -left, mine, links)
        left &= ~group
        size = group.bit_count()
        if size > best:
            best, union = size, group
        elif size == best:
            union |= group
    return best, union


@dataclass(frozen=True)
class ChainState(State):
    placed: tuple[int, ...] = ()
    """Points of the balls placed so far in the turn in progress, in order."""


@register
class Spandrel(Game):
    info = GameInfo(
        name="Spandrel", designer="Nathan Morse", year="2012",
        family="Connection", source="Annexe 1 of the French edition of the Shibumi Rule Book",
        summary="Three players; every turn lays one white, one black and one red ball in "
                "a touching chain, and the largest visible group of your colour wins.",
        min_players=3, max_players=3, complexity=1, max_length=30)
    parameters = {"tiebreak": "order"}

    rules = """\
Three players own a colour each: White, Black and Red, playing in that
order on an empty board.

On your turn you place three balls, one of each colour (not only your own),
on playable points: empty holes, or the hollow on top of a complete 2x2
platform. Place them one at a time, in any order. The three must form a
chain: one of them touches both of the others. A ball may rest on a
platform that another ball of the same turn has just completed. A ball that
would leave no way to finish the chain cannot be played.

Thirty points take ten turns, so White plays four turns and Black and Red
three each; the game ends when the pyramid is complete. Each player then
counts the largest group of their colour, seen from above: balls of one
colour joined by contacts that can be seen (hidden balls do not count, and
a contact is cut where two touching balls of the level above pass over it).
The largest group wins. If the best groups tie, the tied player who comes
later in the turn order wins: Red beats Black, and both beat White.

Should the player to move find no place for a chain of three, the game
stops there and is scored the same way.

Variant `spandrel(tiebreak="recent")`: a tie goes instead to the tied
player who took a turn most recently (after a full game: White, then Red,
then Black).
"""
    notes = """\
* Source: the French annex (Annexe 1), game by Nathan Morse (2012), derived
  from Spaiji. The English description of the game in the public game
  databases (BoardGameGeek's, copied elsewhere) says the same in other
  words, and settles the tie rule the French leaves open (below).
* The chain. "One ball touches the other two" is all the text asks: the
  middle ball can be any of the three, of any colour, placed first, second
  or last, and three balls touching each other all round qualify too.
  Touching is physical contact as placed, and within a turn it is always
  a contact seen from above: a fresh ball cannot be hidden in its own turn
  (the ball that would hide it rests on four balls that all rest on it),
  and no two fresh balls can have their contact crossed by a pair above.
* One ball at a time. Each ball is one action, like the pairs of Spaiji. A
  ball is refused if no way remains to complete the chain, so a turn never
  stops halfway; the second ball need not touch the first (the third then
  goes between them).
* Tie. The French says the tied player "who played last" wins; the
  English description says the last in turn order, Red beating Black
  beating White. Taken literally, the French would favour White after a
  full game (White always plays the tenth turn, Red the ninth, Black the
  eighth). We follow the English description by default, and offer the literal reading
  as `tiebreak="recent"`.
* Groups are counted visibly ("connectées visiblement"), as in Spaiji: from
  above, hidden balls and contacts under a crossing pair do not count.
* A blocked turn. The text ends the game with the pyramid complete and says
  nothing of a player who cannot place a chain. It happens (in about one
  random game in 700): with the board full and level 1 holding b4, d2,
  d4, f4 and d6 (a plus sign), each of the four playable corners b2, f2,
  b6 and f6 is surrounded and completes nothing.
  We follow the ruling Spaiji's designer gave for that game: the game stops
  and is scored as it stands. The last turn always fits: with 27 balls in,
  the three empty points are the apex and two points under it.
* The opening position the annex shows ("a start of a game") is lost; the
  chapter shows an opening of our own.
* Each turn places one ball of each colour, so each colour has ten balls at
  the end, within a set's sixteen.
* The outcome's scores are the three largest group sizes (White, Black,
  Red).
"""

    def __init__(self, **params) -> None:
        super().__init__(**params)
        if self.params["tiebreak"] not in ("order", "recent"):
            raise UnknownGameError("spandrel parameter tiebreak is 'order' or 'recent', "
                                   f"not {self.params['tiebreak']!r}")

    # -- rules -----------------------------------------------------------------
    def initial_state(self, rng=None) -> ChainState:
        return ChainState()

    def colours_left(self, state: ChainState) -> list[int]:
        """Colours still to place this turn."""
        used = {state.position.colour_at(p) for p in state.placed}
        return [c for c in (WHITE, BLACK, RED) if c not in used]

    def legal_moves(self, state: ChainState, player: int | None = None) -> list:
        if state.result is not None:
            return []
        where = points_of(spots(state.position.occupied, state.placed))
        return [PLACE_MOVES[c][p] for c in self.colours_left(state) for p in where]

    def apply(self, state: ChainState, move) -> ChainState:
        position = state.position.place(move.point, move.colour)
        placed = state.placed + (move.point,)
        if len(placed) < CHAIN:
            return ChainState(position, state.to_move, None, move, placed)
        return self.settle(ChainState(position, (state.to_move + 1) % 3, None, move, ()))

    def random_playout(self, state: ChainState, rng) -> ChainState:
        """The generic loop's games on raw masks: the same spots and colour order as
        :meth:`legal_moves` (colour by colour, points in order), one draw a ball."""
        if state.result is not None:
            return state
        rnd = rng.random
        pos = state.position
        masks = [0, pos.white, pos.black, pos.red]
        occ = pos.occupied
        playable = playable_bits(occ)
        placed = list(state.placed)
        left = self.colours_left(state)
        mover, last = state.to_move, state.last
        while True:
            if not placed:
                where = firsts_of(occ, playable)
                if not where:
                    break
            elif len(placed) == 1:
                where = seconds_of(occ, playable, placed[0])
            else:
                where = playable & NEAR[placed[0]][placed[1]]
            k = where.bit_count()
            i = int(rnd() * (len(left) * k))
            colour = left.pop(i // k)
            p = nth_point(where, i % k)
            bit = 1 << p
            occ |= bit
            masks[colour] |= bit
            playable = after_ball(playable, occ, p)
            last = PLACE_MOVES[colour][p]
            placed.append(p)
            if len(placed) == CHAIN:
                placed, left, mover = [], [WHITE, BLACK, RED], (mover + 1) % 3
                if occ == ALL_MASK:
                    break
        position = Position.from_masks(masks[1], masks[2], masks[3])
        return self.settle(ChainState(position, mover, None, last, tuple(placed)))

    def settle(self, state: ChainState) -> ChainState:
        """Between turns, a full pyramid or a mover with no chain ends the game."""
        if state.placed:
            return state
        occ = state.position.occupied
        if occ == ALL_MASK:
            reason = "the pyramid is complete"
        elif not first_spots(occ):
            reason = f"{self.player_name(state.to_move)} cannot place a chain of three"
        else:
            return state
        return dataclasses.replace(state, result=self.score(state.position, reason,
                                                            (state.to_move - 1) % 3))

    # -- scoring -----------------------------------------------------------------
    def tie_rank(self, player: int, last_mover: int) -> int:
        """Higher wins a tie: later in turn order, or (variant) more recently played."""
        if self.params["tiebreak"] == "order":
            return player
        return -((last_mover - player) % 3)

    def score(self, position: Position, reason: str, last_mover: int) -> Outcome:
        sizes = [size for size, _ in largest_groups(position)]
        key = lambda p: (sizes[p], self.tie_rank(p, last_mover))  # noqa: E731
        order = sorted(range(3), key=key, reverse=True)
        winner = order[0]
        told = ", ".join(f"{self.player_name(p)} {sizes[p]}" for p in range(3))
        tied = [p for p in order if sizes[p] == sizes[winner]]
        if len(tied) > 1:
            names = [self.player_name(p) for p in tied]
            names = ", ".join(names[:-1]) + " and " + names[-1]
            how = f"{names} tie on {sizes[winner]}, which goes to {self.player_name(winner)}"
        else:
            how = f"{self.player_name(winner)} has the largest group"
        return Outcome((winner,), f"{reason}; largest groups {told}: {how}",
                       tuple(float(s) for s in sizes), tuple((p,) for p in order))

    def winning_points(self, state) -> int:
        """The winner's largest visible group (or groups, when it has two of that size)."""
        if state.result is None or not state.result.winners:
            return 0
        winner = state.result.winners[0]
        return largest_groups(state.position)[winner][1]

    # -- text and symmetry -------------------------------------------------------
    def transform_state(self, state, perm):
        image = super().transform_state(state, perm)
        return dataclasses.replace(image, placed=tuple(perm[p] for p in state.placed))

    def status_lines(self, state) -> list[str]:
        """The largest visible groups, and what the turn in progress still needs."""
        sizes = largest_groups(state.position)
        lines = ["Largest groups: " + ", ".join(
            f"{self.player_name(p)} {sizes[p][0]}" for p in range(3)) + "."]
        if state.result is None:
            left = " and ".join(COLOUR_NAMES[c] for c in self.colours_left(state))
            if state.placed:
                done = ", ".join(f"{COLOUR_NAMES[state.position.colour_at(p)]} on "
                                 f"{point_name(p)}" for p in state.placed)
                lines.append(f"{self.player_name(state.to_move)}'s chain so far: {done}; "
                             f"still to place: {left}.")
            else:
                lines.append(f"{self.player_name(state.to_move)} places a {left} ball "
                             "in a touching chain.")
        return lines

    def extra_text(self, state: ChainState) -> str:
        return "turn=" + ",".join(point_name(p) for p in state.placed) if state.placed else ""

    def state_from(self, position, to_move, extras):
        placed: tuple[int, ...] = ()
        if extras:
            key, eq, value = extras.partition("=")
            if key != "turn" or not eq or " " in value:
                raise NotationError(f"Spandrel state field {shown(extras)} not understood; "
                                    "fields: turn=<point>[,<point>] (this turn's balls)")
            placed = tuple(parse_point(t) for t in value.split(","))
        counts = [position.count(c) for c in (WHITE, BLACK, RED)]
        colours = [position.colour_at(p) for p in placed]
        extra = [colours.count(c) for c in (WHITE, BLACK, RED)]
        base = [n - e for n, e in zip(counts, extra)]
        if len(placed) >= CHAIN or len(set(placed)) != len(placed) or EMPTY in colours \
                or max(extra, default=0) > 1 or len(set(base)) != 1:
            raise NotationError("Spandrel state: every turn places one ball of each colour; "
                                "turn= names the one or two balls of the turn in progress, "
                                "each of a different colour")
        if to_move != base[0] % 3:
            raise NotationError(f"Spandrel: after {base[0]} turns it is "
                                f"{self.player_name(base[0] % 3)}'s turn")
        if placed:
            rest = position.occupied & ~sum(1 << p for p in placed)
            first = placed[0]
            if not first_spots(rest) >> first & 1 or (
                    len(placed) == 2
                    and not second_spots(rest | 1 << first, first) >> placed[1] & 1):
                raise NotationError(f"Spandrel state: the balls {shown(extras)} cannot "
                                    "grow into a chain of three")
        return self.settle(ChainState(position, to_move, None, None, placed))


__all__ = ["ChainState", "Spandrel", "first_spots", "second_spots",
           "spots", "third_spots"]
