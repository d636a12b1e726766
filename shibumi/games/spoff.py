"""Spoff: a clearing solitaire — take a random pyramid apart two unconnected balls at a time.

The thirty balls (ten of each colour) are dealt at random into a full
pyramid: each ball of the deal is a chance action (``=W`` puts a white ball
on the next point, board first), which a :class:`~shibumi.Match` resolves
from its seeded generator.  Then each turn removes two balls of one colour,
both movable and not in the same visible group, one action each (``xa1``
then ``xg7``); balls above a removed ball drop.  Clear the pyramid to win.

>>> from shibumi import load
>>> game = load('spoff')
>>> start = game.parse_state('BWBB/RBRW/RRWB/BRRR|RWB/RBW/WWW|RB/WW|B 1')
>>> [m.text() for m in game.legal_moves(start)]
['xa1', 'xg1', 'xa7', 'xg7', 'xb6', 'xf6', 'xc5.2', 'xe5.2', 'xd4.3']
>>> after = game.apply(start, Move('xa1'))     # b2, c3.2 and the apex drop one place
>>> from shibumi.notation import parse_point
>>> after.position.colour_at(parse_point('c3.2')) == BLACK      # the apex ball
True
>>> [m.text() for m in game.legal_moves(after)]   # a1's ball was black
['xa7', 'xg7', 'xf6', 'xc3.2', 'xe5.2']
"""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass

from ..errors import NotationError, shown
from ..game import CHANCE, TERMINAL, Game, GameInfo, Outcome, State, read_fields, write_fields
from ..bits import (LINKS_MEMO, flood, follow_column, links_and_pinned, points_in,
                    remove_ball)
from ..geometry import ALL_MASK, NUM_POINTS, points_of
from ..notation import Move, point_name
from ..position import BLACK, COLOUR_NAMES, RED, WHITE, Position
from ..registry import register
from .placement import REMOVE_MOVES

COLOURS = (WHITE, BLACK, RED)
#: Balls of each colour in the deal.
PER_COLOUR = 10
#: The chance actions of the deal: the next ball's colour.
DEALS = {c: Move.choose(c) for c in COLOURS}


# -- the rules' core on raw masks ----------------------------------------------------
#
# Which contacts join balls, and which balls are pinned, come from
# :func:`shibumi.bits.links_and_pinned` (tabled once per occupancy of levels 1
# to 3), and a group is a flood fill over the table's neighbour masks.

def turn_options(colours, occupied: int, links, pinned: int) -> tuple[int, list[int]]:
    """The balls that can start a turn, from colour masks: movable, and with a
    movable ball of their colour in another group.  Also, per colour, one group
    holding some of its movable balls (0 where the colour offers no pair), so
    that a ball's partners are often found without a second flood.

    The movable balls of a colour either all lie in one group (none has a
    partner) or in two or more (each has one), so one flood per colour decides.
    """
    movable = occupied & ~pinned
    out, groups = 0, [0, 0, 0]
    for c in range(3):
        mine = colours[c]
        free = movable & mine
        if free & (free - 1):
            group = flood(free & -free, mine, links)
            if free & ~group:
                out |= free
                groups[c] = group
    return out, groups


def starts(colours, occupied: int, links, pinned: int) -> int:
    """The balls that can start a turn (see :func:`turn_options`)."""
    return turn_options(colours, occupied, links, pinned)[0]


def movable_mask(occupied: int) -> int:
    """Balls that can be lifted out: those with at most one ball resting on them.

    (A ball under two or more is pinned.  A hidden ball is always pinned, as the
    ball two levels above it stands on four balls that all rest on it.)
    """
    return occupied & ~links_and_pinned(occupied)[1]


def _colours(position: Position) -> tuple[int, int, int]:
    return position.white, position.black, position.red


def partners(position: Position, p: int, visible: bool = True) -> int:
    """Movable balls that may be removed together with the ball at ``p``:
    the same colour, and outside the group of ``p`` (visible contacts only,
    unless ``visible`` is False)."""
    occupied = position.occupied
    links, pinned = links_and_pinned(occupied, visible)
    mine = next((m for m in _colours(position) if m >> p & 1), 0)
    return occupied & ~pinned & mine & ~flood(1 << p, mine, links)


def first_removals(position: Position, visible: bool = True) -> int:
    """Mask of the balls that can start a turn: movable and with a partner."""
    occupied = position.occupied
    links, pinned = links_and_pinned(occupied, visible)
    return starts(_colours(position), occupied, links, pinned)


def follow(mask: int, drops) -> int:
    """Where the balls of ``mask`` are after the drops ``(from, to)`` of a removal."""
    for source, target in drops:
        if mask >> source & 1:
            mask = mask & ~(1 << source) | 1 << target
    return mask


def remove_pair(position: Position, first: int, second: int) -> Position:
    """The position after a whole turn: the ball at ``first`` and then the ball that
    was at ``second`` (found again after the first removal's drops)."""
    lifted, drops = position.remove(first)
    where = follow(1 << second, drops).bit_length() - 1
    return lifted.remove(where)[0]


def turns(position: Position, visible: bool = True) -> set[Position]:
    """Every position one whole turn can lead to (each pair taken in both orders)."""
    return {remove_pair(position, first, second)
            for first in points_of(first_removals(position, visible))
            for second in points_of(partners(position, first, visible))}


def joined_balls(position: Position, visible: bool = True) -> int:
    """How many balls share a group with another ball of their colour."""
    count = 0
    for colour in COLOURS:
        for group in position.groups(colour, visible):
            if group & (group - 1):
                count += group.bit_count()
    return count


def clearance(position: Position, visible: bool = True,
              limit: int = 2_000_000) -> list[Position] | None:
    """A way to clear the pyramid, as the positions after each turn
    (empty list: already clear), or None when no sequence of turns clears it.

    An exact search, depth first over whole turns, remembering the positions
    already shown to be dead ends; ``limit`` caps the positions remembered.
    Turns that leave fewer balls joined to their colour are tried first (the
    text's advice: break up the groups), which finds most clearances at once.

    >>> clearance(Position('WW../..../..../....|.../.../...|../..|.')) is None
    True
    >>> clearance(Position('W.W./..../..../....|.../.../...|../..|.'))
    [Position('..../..../..../....|.../.../...|../..|.')]
    """
    dead: set[Position] = set()

    def search(pos: Position) -> list[Position] | None:
        if not pos.occupied:
            return []
        if pos in dead:
            return None
        if len(dead) >= limit:
            raise RuntimeError(f"clearance passed {limit} positions")
        for after in sorted(turns(pos, visible),
                            key=lambda p: (joined_balls(p, visible), p.text())):
            rest = search(after)
            if rest is not None:
                return [after] + rest
        dead.add(pos)
        return None

    return search(position)


def clearable(position: Position, visible: bool = True, limit: int = 2_000_000) -> bool:
    """Whether some sequence of turns clears the pyramid (see :func:`clearance`)."""
    return clearance(position, visible, limit) is not None


def _deal_odds() -> tuple[tuple[tuple[float, int], ...], ...]:
    """For each count of balls left per colour (index ``121 * white + 11 * black +
    red``), the chance draw's running totals and colour indices, summed exactly
    as ``Game.sample_chance`` sums ``chance_outcomes``."""
    table = []
    for left in itertools.product(range(PER_COLOUR + 1), repeat=3):
        total, acc, row = sum(left), 0.0, []
        for c, n in enumerate(left):
            if n:
                acc += n / total
                row.append((acc, c))
        table.append(tuple(row))
    return tuple(table)


_DEAL_ODDS = _deal_odds()
#: How the index of ``_DEAL_ODDS`` moves when a ball of each colour is dealt.
_INDEX_STEP = (121, 11, 1)


def _deal(masks: list[int], occupied: int, rnd, visible: bool) -> tuple[int, Move]:
    """Finish a deal on colour masks (changed in place) with the chance draws of
    the rules, dealing again while the pyramid offers no pair.  Returns the
    occupancy and the last deal action."""
    odds, step = _DEAL_ODDS, _INDEX_STEP
    while True:
        left = [PER_COLOUR - m.bit_count() for m in masks]
        index = 121 * left[0] + 11 * left[1] + left[2]
        for n in range(occupied.bit_count(), NUM_POINTS):
            r = rnd()
            for acc, c in odds[index]:
                if r < acc:
                    break          # else the last colour, as sample_chance falls back
            masks[c] |= 1 << n
            index -= step[c]
        if starts(masks, ALL_MASK, *links_and_pinned(ALL_MASK, visible)):
            return ALL_MASK, DEALS[COLOURS[c]]
        masks[:] = [0, 0, 0]
        occupied = 0


@dataclass(frozen=True)
class SpoffState(State):
    """A Spoff state.

    ``dealing`` is True while the pyramid is being dealt (the next ball goes
    on the lowest empty point).  During a turn, ``removed`` is the point the
    first ball was taken from and ``start`` the position before it.
    """
    dealing: bool = True
    removed: int = -1
    start: Position | None = None


@dataclass(frozen=True)
class SpoffOutcome(Outcome):
    """A finished puzzle: ``scores[0]`` balls removed; a win only with all thirty.

    ``returns`` is the share of the pyramid cleared, so that a search player
    prefers clearing more when it cannot see a full clearance.
    """

    def returns(self, num_players: int) -> tuple[float, ...]:
        return (self.scores[0] / NUM_POINTS,)


def _outcome(position: Position) -> SpoffOutcome:
    cleared = NUM_POINTS - position.occupied.bit_count()
    if cleared == NUM_POINTS:
        return SpoffOutcome((0,), "the pyramid is cleared", (float(cleared),))
    return SpoffOutcome((), f"stuck with {NUM_POINTS - cleared} balls left: no two movable "
                            "balls of one colour lie in different groups", (float(cleared),))


@register
class Spoff(Game):
    info = GameInfo(
        name="Spoff", designer="Cameron Browne", year="2011",
        family="Puzzle", source="Annexe 1 of the French edition of the Shibumi Rule Book",
        summary="A clearing solitaire: a random pyramid of thirty balls is taken apart two "
                "balls of one colour at a time, never two of the same group; clear it all "
                "to win.",
        min_players=1, max_players=1, complexity=2, chance=True, max_length=NUM_POINTS)
    parameters = {"visible": True}
    player_names = ("Player",)

    rules = """\
A puzzle for one person. Shake the thirty balls of the set (ten white, ten
black, ten red) in a bag and build the whole pyramid with them in the order
they come out, so that the colours fall at random.

Each turn, take two balls of the same colour off the pyramid. Each of them
must be movable: at most one ball rests on it (a ball holding up two or more
is pinned). And the two must not be connected: they may not touch, nor be
joined by a chain of touching balls of their colour, contacts being judged
as seen from above (hidden balls and contacts covered by two balls passing
over them do not join). Both balls are chosen in the pyramid as it stands at
the start of the turn. A ball resting on a removed ball drops into its
place, and the one on that ball drops in turn; one ball of the pair may even
hold up the other through such a column.

You win when every ball is gone, which takes exactly fifteen turns. You
lose when the pyramid still has balls but no pair can be taken. Your score
is the number of balls removed.

If the dealt pyramid offers no pair at all, it is dealt again.

In the engine the deal is made by chance actions (`=W`: a white ball goes on
the next point, the board first); a turn is two actions, `xa1` then `xg7`,
the second naming the ball where it stands after the first removal.
"""
    notes = """\
* Source: Annexe 1 of the French edition (2011), and the designer's own
  English page (Cameron Browne, dated 2013 there; the pair-removal idea comes
  from Steven Meyers' Box Off). The English text says outright that removals
  may cause drops, so the French word for the balls one may take (*libres*)
  means movable (not pinned), not "with nothing on top": a ball carrying one
  other ball may be taken and that ball drops.
* "Not visibly connected": the French text explains it as not touching and
  not joined by a chain of balls of the colour; the English adds "not in the
  same group of physically touching balls". We follow the word *visibly*, the
  system's visible connection (contacts seen from above; hidden balls and
  contacts under an overpass join nothing). Balls that can be taken are never
  hidden (a hidden ball is always pinned), so the difference only concerns
  the chains in between. The variant `visible=False` counts every physical
  contact instead.
* The pair is judged on the pyramid before the turn: both balls movable
  there and in different groups there. Removing one never pins the other (a
  drop only lowers a column, so no ball gains a second ball on top), so the
  second removal is always possible. The order can matter, though: when a
  ball rests on both of the pair's columns, it drops down the column emptied
  first (the chapter shows a case). The text does not say, so either order
  is allowed: the player takes the two balls in the order of their choice.
  "One ball may indirectly support the other" is allowed as it stands: a
  board ball may be taken with the ball two levels up its column, and the
  ball between them drops.
* In the engine a turn is two actions: the first names any movable ball that
  has a partner; the second names a partner where it stands once the first
  removal's balls have dropped. So a ball that dropped is clicked where it
  now is.
* "Games will take at most 15 moves": a turn removes two balls, so a game
  has at most fifteen turns, and a cleared pyramid exactly fifteen (thirty
  actions); the tests check both.
* The deal: the text has the balls come out of a bag at random and stack as
  they come. The engine deals the next ball onto the lowest empty point,
  board first, each colour with the share of its balls left in the bag;
  every colouring of the pyramid is equally likely, as with a shaken bag.
* "If the random start allows no move, reshuffle a few balls and try again":
  we deal the whole pyramid again (a fresh shuffle rather than a partial one,
  which the text leaves open). It is rare: about one deal in 700 (the
  chapter measures it).
* "Not every game can be solved, but most can with careful play": true. An
  exhaustive search in the tests finds a clearance for 29 of 30 random
  deals; the chapter measures how often random and search players clear
  the pyramid.
* Lost figures: the random pyramid of the text and its solution, in which
  every ball is apart from its colour after the ninth turn. The chapter
  shows a dealt pyramid of its own whose clearance, found by search,
  reaches that point after nine turns too.
* The sole player is named Player. A game that sticks ends without a winner
  (the engine speaks of "not solved"); its score is the balls removed, and
  for search players its value is the share of the pyramid cleared.
"""

    def __init__(self, **params) -> None:
        super().__init__(**params)
        self.visible = self.params["visible"]

    # -- the deal ------------------------------------------------------------------
    def initial_state(self, rng=None) -> SpoffState:
        """The empty board: the pyramid is dealt by chance actions."""
        return SpoffState()

    def current_player(self, state) -> int:
        if state.result is not None:
            return TERMINAL
        return CHANCE if state.dealing else 0

    def chance_outcomes(self, state):
        if state.result is not None or not state.dealing:
            return []
        left = [PER_COLOUR - state.position.count(c) for c in COLOURS]
        total = sum(left)
        return [(DEALS[c], n / total) for c, n in zip(COLOURS, left) if n]

    def length(self, state) -> int:
        """Balls removed (the deal is not counted)."""
        return 0 if state.dealing else NUM_POINTS - state.position.occupied.bit_count()

    # -- the turns -----------------------------------------------------------------
    def legal_moves(self, state, player=None):
        if state.result is not None or state.dealing:
            return []
        if state.removed < 0:
            mask = first_removals(state.position, self.visible)
        else:
            mask = self.second_removals(state)
        return [REMOVE_MOVES[p] for p in points_in(mask)]

    def second_removals(self, state) -> int:
        """Where the partners of the first ball of the turn now stand."""
        start, p = state.start, state.removed
        masks = list(_colours(start))
        column = remove_ball(masks, start.occupied, p)[1]
        return follow_column(partners(start, p, self.visible), p, column)

    def apply(self, state, move):
        if move.kind == "choose":
            position = state.position.place(state.position.occupied.bit_count(), move.colour)
            if position.occupied != ALL_MASK:
                return SpoffState(position, 0, None, move)
            if not first_removals(position, self.visible):
                return SpoffState(Position.empty(), 0, None, move)     # deal again
            return SpoffState(position, 0, None, move, False)
        masks = list(_colours(state.position))
        remove_ball(masks, state.position.occupied, move.point)
        lifted = Position.from_masks(*masks)
        if state.removed < 0:
            return SpoffState(lifted, 0, None, move, False, move.point, state.position)
        return self.settle(SpoffState(lifted, 0, None, move, False))

    def settle(self, state):
        """End the game between turns when the pyramid is empty or no pair is left."""
        if state.result is None and not state.dealing and state.removed < 0 \
                and not first_removals(state.position, self.visible):
            return dataclasses.replace(state, result=_outcome(state.position))
        return state

    # -- the playout on raw masks ------------------------------------------------------
    def random_playout(self, state, rng):
        """Same games as the generic loop (the same draws over the same moves), on
        colour masks: the deal, the rest of a turn in progress, then whole turns."""
        if state.result is not None:
            return state
        rnd, visible = rng.random, self.visible
        masks = list(_colours(state.position))
        occupied, last = state.position.occupied, state.last
        if state.dealing:
            occupied, last = _deal(masks, occupied, rnd, visible)
        elif state.removed >= 0:
            second = points_in(self.second_removals(state))
            q = second[int(rnd() * len(second))]
            occupied = remove_ball(masks, occupied, q)[0]
            last = REMOVE_MOVES[q]
        known = LINKS_MEMO[visible]
        while True:
            upper = occupied >> 16                  # the balls above the board
            links, pinned = known.get(upper) or links_and_pinned(occupied, visible)
            first, groups = turn_options(masks, occupied, links, pinned)
            if not first:
                position = Position.from_masks(*masks)
                return SpoffState(position, 0, _outcome(position), last, False)
            choice = points_in(first)
            p = choice[int(rnd() * len(choice))]
            bit = 1 << p
            c = 0 if masks[0] & bit else 1 if masks[1] & bit else 2
            group = groups[c] if groups[c] & bit else flood(bit, masks[c], links)
            partner = occupied & ~pinned & masks[c] & ~group
            occupied, column = remove_ball(masks, occupied, p)
            if column:
                partner = follow_column(partner, p, column)
            choice = points_in(partner)
            q = choice[int(rnd() * len(choice))]
            occupied = remove_ball(masks, occupied, q)[0]
            last = REMOVE_MOVES[q]

    def transform_state(self, state, perm):
        state = super().transform_state(state, perm)
        return dataclasses.replace(
            state, removed=perm[state.removed] if state.removed >= 0 else -1,
            start=None if state.start is None else state.start.transform(perm))

    # -- text ------------------------------------------------------------------------
    def status_lines(self, state) -> list[str]:
        """The deal's progress, the balls left, and what the second ball must be."""
        pos = state.position
        if state.dealing:
            return [f"Dealing the pyramid: {pos.occupied.bit_count()} of {NUM_POINTS} "
                    "balls in place."]
        white, black, red = (pos.count(c) for c in COLOURS)
        lines = [f"Balls left: {white} white, {black} black and {red} red "
                 f"({NUM_POINTS - pos.occupied.bit_count()} removed)."]
        if state.result is None and state.removed >= 0:
            colour = COLOUR_NAMES[state.start.colour_at(state.removed)]
            lines.append(f"Now take a second {colour} ball, one not connected to the ball "
                         f"taken from {point_name(state.removed)}.")
        return lines

    def extra_text(self, state) -> str:
        text = write_fields(dealing=state.dealing,
                            removed=("point", state.removed) if state.removed >= 0 else None)
        if state.start is not None:
            text += f" start={state.start.text()}"
        return text

    def state_from(self, position, to_move, extras):
        start, rest = None, []
        for token in extras.split():
            key, eq, value = token.partition("=")
            if key == "start" and eq and start is None:
                start = Position(value)
            else:
                rest.append(token)
        fields = read_fields(self, " ".join(rest), points=("removed",), flags=("dealing",))
        removed = -1 if fields["removed"] is None else fields["removed"]
        self._check(position, fields["dealing"], removed, start)
        return self.settle(SpoffState(position, to_move, None, None, fields["dealing"],
                                      removed, start))

    def _check(self, position, dealing, removed, start) -> None:
        def bad(why):
            raise NotationError(f"Spoff state: {why}")
        for pos in (position, start):
            if pos is not None and any(pos.count(c) > PER_COLOUR for c in COLOURS):
                bad(f"a colour has more than its {PER_COLOUR} balls")
        n = position.occupied.bit_count()
        if dealing:
            if removed >= 0 or start is not None:
                bad("no ball is removed during the deal")
            if position.occupied != (1 << n) - 1 or n == NUM_POINTS:
                bad("the deal fills the points in order, board first, and ends with "
                    "the thirtieth ball")
            return
        if not position.is_stable():
            bad("a ball is not resting on a full platform")
        if (removed >= 0) != (start is not None):
            bad("a turn in progress needs both removed=<point> and start=<position>")
        if start is None:
            if any(position.count(c) % 2 for c in COLOURS):
                bad("balls go in pairs of one colour, so between turns every count is even")
            return
        if not start.is_stable() or any(start.count(c) % 2 for c in COLOURS):
            bad(f"start={shown(start.text())} is not a position between turns")
        if not first_removals(start, self.visible) >> removed & 1:
            bad(f"the ball at {point_name(removed)} could not start a turn in start=")
        if start.remove(removed)[0] != position:
            bad("the position is not start= with the removed ball taken away")

    def describe(self, state) -> str:
        text = super().describe(state)
        outcome = state.result
        if outcome is not None:
            verdict = "won" if outcome.winners else "lost"
            text = text.replace("Game over: not solved.", f"Game over: {verdict}.") \
                       .replace("Game over: Player won.", f"Game over: {verdict}.")
        return text


__all__ = ["DEALS", "PER_COLOUR", "Spoff", "SpoffOutcome", "SpoffState", "clearable",
           "clearance", "first_removals", "follow", "joined_balls", "movable_mask", "partners",
           "remove_pair", "turns"]
