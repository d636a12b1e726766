"""Spruit: a filling solitaire of chance — push drawn balls into the pyramid and score its groups.

The board starts full (seven white, seven black, two red balls in opposite
corners) and a bag holds five balls of each colour.  Each draw is a chance
action (``=W``); the player then puts the ball in: freely on an edge point
of a level that is still empty (``Wb2``), otherwise pushed in from the side
so that it shoves one or two balls along (``Wb2+n``).  A white or black ball
that ends touching none of its colour loses the game; a complete pyramid is
scored on its visible groups.

>>> from shibumi import load
>>> game = load('spruit')
>>> state = game.apply(game.initial_state(), Move('=W'))
>>> [m.text() for m in game.legal_moves(state)]
['Wb2', 'Wd2', 'Wf2', 'Wb4', 'Wf4', 'Wb6', 'Wd6', 'Wf6']
>>> state = game.apply(game.apply(state, Move('Wb2')), Move('=B'))
>>> [m.text() for m in game.legal_moves(state)]
['Bb2+n', 'Bb2+e']
>>> score_parts(Position('WBWR/WBWB/WBWB/RBWB|WWW/BBB/RRR|WB/RB|R'))   # red, white, black
(0, 8, 6)
"""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass

from ..bits import flood, links_and_pinned
from ..errors import IllegalMoveError, NotationError, UnknownGameError, shown
from ..game import CHANCE, TERMINAL, Game, GameInfo, Outcome, State, read_fields, write_fields
from ..geometry import (ALL_MASK, BOARD_MASK, EXTERIOR_MASK, LEVEL, LEVEL_MASK, NUM_POINTS,
                        point_at, points_of)
from ..mechanics import STEP
from ..notation import Move, point_name
from ..position import (BLACK, COLOUR_LETTERS, COLOUR_NAMES, EMPTY, RED, WHITE, Position,
                        hidden_mask)
from ..registry import register
from .placement import PLACE_MOVES
from .splush import ENTRY_SIDES

COLOURS = (WHITE, BLACK, RED)
#: Balls of each colour in the bag at the start.
BAG = 5
#: Balls of each colour on the board at the start (white, black, red).
ON_BOARD = (7, 7, 2)
#: The default start (the rule book's figure is lost): stripes, the a and e files
#: white, the c and g files black, reds on a1 and g7; a half turn maps it onto
#: itself with white and black swapped, and it allows all three scored examples.
START = "WBWR/WBWB/WBWB/RBWB|.../.../...|../..|."
#: The two diagonals of board corners, as masks (a1 + g7, g1 + a7).
CORNER_PAIRS = (1 << point_at(0, 0, 0) | 1 << point_at(0, 3, 3),
                1 << point_at(0, 3, 0) | 1 << point_at(0, 0, 3))
#: Points of the red path worth this much.
RED_PATH = 7
#: Points of each level a ball may be put on freely while the level is empty.
EDGE_MASK = tuple(LEVEL_MASK[lv] & EXTERIOR_MASK for lv in range(4))
DRAWS = {c: Move.choose(c) for c in COLOURS}
#: Ways in from the side of levels 1 and 2: (point, direction of travel), by level.
SIDES = {lv: tuple((p, d) for p, d in ENTRY_SIDES if LEVEL[p] == lv) for lv in (1, 2)}
ENTER_MOVES = {c: {(p, d): Move.enter(p, d, c) for p in range(16, NUM_POINTS) for d in "nesw"}
               for c in COLOURS}


def check_start(position: Position) -> str | None:
    """Why a position cannot start Spruit, or None when it can: the board full with
    seven white, seven black and two red balls, the reds in opposite corners, and
    nothing above."""
    if position.occupied != BOARD_MASK:
        return "the board must be full and nothing above it"
    if tuple(position.count(c) for c in COLOURS) != ON_BOARD:
        return "the board holds 7 white, 7 black and 2 red balls"
    if position.red not in CORNER_PAIRS:
        return "the two reds stand in opposite corners"
    return None


def building(occupied: int) -> int:
    """The level being filled: the lowest one with an empty point (4 when complete)."""
    for level in (1, 2, 3):
        if LEVEL_MASK[level] & ~occupied:
            return level
    return 4


def touches_own(position: Position, p: int) -> bool:
    """Whether the ball at p is in visible contact with a ball of its colour."""
    mine = next((m for m in (position.white, position.black, position.red) if m >> p & 1), 0)
    return bool(links_and_pinned(position.occupied)[0][p] & mine)


def visible_groups(mine: int, occupied: int) -> list[int]:
    """The visible groups of the balls ``mine`` (hidden balls join none), lowest first."""
    links = links_and_pinned(occupied)[0]
    left, found = mine & ~hidden_mask(occupied), []
    while left:
        group = flood(left & -left, mine, links)
        found.append(group)
        left &= ~group
    return found


def colour_score(position: Position, colour: int) -> tuple[int, list[int]]:
    """A colour's score and its visible group sizes, largest first: the product of
    the sizes when there are several groups, minus the size of a lone group."""
    sizes = sorted((g.bit_count() for g in visible_groups(position.mask(colour),
                                                           position.occupied)), reverse=True)
    if len(sizes) == 1:
        return -sizes[0], sizes
    product = 1
    for n in sizes:
        product *= n
    return (product if sizes else 0), sizes


def red_path(position: Position) -> int:
    """The visible red group joining two opposite board corners, or 0."""
    for group in visible_groups(position.red, position.occupied):
        if any(group & pair == pair for pair in CORNER_PAIRS):
            return group
    return 0


def score_parts(position: Position) -> tuple[int, int, int]:
    """(red, white, black) points of a complete pyramid."""
    return ((RED_PATH if red_path(position) else 0), colour_score(position, WHITE)[0],
            colour_score(position, BLACK)[0])


def score_text(position: Position) -> str:
    """The score worked out in words, e.g. 'red 0, black 2×8 = 16, white 1×1×7 = 7'."""
    parts = [f"red path {RED_PATH if red_path(position) else 0}"]
    for colour in (BLACK, WHITE):
        value, sizes = colour_score(position, colour)
        shown_sizes = "×".join(str(n) for n in sorted(sizes))
        parts.append(f"{COLOUR_NAMES[colour]} {shown_sizes} = {value}" if len(sizes) > 1
                     else f"{COLOUR_NAMES[colour]} one group of {sizes[0] if sizes else 0} "
                          f"= {value}")
    return ", ".join(parts)


# -- the rules' core on raw masks ----------------------------------------------------
#
# Where a ball can go in depends only on which points are taken (levels fill
# in order, the level below the one being filled is full, and nothing rests on
# a pushed ball), so the ways in are tabled once per occupancy: a few hundred.

def ways_in(occupied: int, must_push: bool) -> tuple:
    """Every way to put a ball in, in the order of ``legal_moves``: on an edge
    point of an empty level, else pushed in from a side.  Each is a tuple
    ``(point, moves by colour index, pushes, filled bit, touching)``: ``pushes``
    are the (from, to) steps of the pushed balls, the front ball first;
    ``filled`` the point that was empty (the entry point, or where the front
    ball stops); ``touching`` the points the new ball then touches visibly."""
    key = (occupied, must_push)
    found = _WAYS.get(key)
    if found is None:
        found = _WAYS[key] = _ways_in(occupied, must_push)
    return found


_WAYS: dict[tuple[int, bool], tuple] = {}


def _ways_in(occupied: int, must_push: bool) -> tuple:
    level = building(occupied)
    if not occupied & LEVEL_MASK[level]:
        return tuple(_way(occupied, p, tuple(PLACE_MOVES[c][p] for c in COLOURS), (), p)
                     for p in points_of(EDGE_MASK[level]))
    found = []
    for point, d in SIDES[level]:
        moves = tuple(ENTER_MOVES[c][point, d] for c in COLOURS)
        if not occupied >> point & 1:
            if not must_push:
                found.append(_way(occupied, point, moves, (), point))
            continue                     # it would come in without pushing
        run, q = [], point
        while q is not None and occupied >> q & 1:
            run.append(q)
            q = STEP[d][q]
        if q is None:                    # a ball would be pushed off
            continue
        # The level below is full, so the front ball stops on the next point.
        pushes = tuple(zip(reversed(run), reversed(run[1:] + [q])))
        found.append(_way(occupied, point, moves, pushes, q))
    return tuple(found)


def _way(occupied: int, point: int, moves, pushes, filled: int) -> tuple:
    after = occupied | 1 << filled
    return point, moves, pushes, 1 << filled, links_and_pinned(after)[0][point] & after


def push_in(masks: list[int], entry, colour: int) -> None:
    """Put a ball of colour index ``colour`` in by ``entry`` (masks changed in place)."""
    for source, target in entry[2]:
        bit = 1 << source
        masks[0 if masks[0] & bit else 1 if masks[1] & bit else 2] ^= bit | 1 << target
    masks[colour] |= 1 << entry[0]


def _bag_odds() -> tuple:
    """For each count of balls left in the bag (index ``36 * white + 6 * black +
    red``), the draw's running totals and colour indices, summed exactly as
    ``Game.sample_chance`` sums ``chance_outcomes``."""
    table = []
    for left in itertools.product(range(BAG + 1), repeat=3):
        total, acc, row = sum(left), 0.0, []
        for c, n in enumerate(left):
            if n:
                acc += n / total
                row.append((acc, c))
        table.append(tuple(row))
    return tuple(table)


_ODDS = _bag_odds()
#: How the index of ``_ODDS`` moves when a ball of each colour is drawn.
_INDEX_STEP = (36, 6, 1)
_DRAW_BY_INDEX = tuple(DRAWS[c] for c in COLOURS)


def bag_left(position: Position, drawn: int = EMPTY) -> tuple[int, int, int]:
    """Balls of each colour (white, black, red) still in the bag."""
    return tuple(start + BAG - position.count(c) - (drawn == c)
                 for c, start in zip(COLOURS, ON_BOARD))


@dataclass(frozen=True)
class SpruitState(State):
    drawn: int = EMPTY
    """The colour of the ball in hand (EMPTY when a draw is due)."""
    lost: int = -1
    """The point of a white or black ball that came in touching none of its colour."""


@dataclass(frozen=True)
class SpruitOutcome(Outcome):
    """A finished game: a complete pyramid wins with ``scores[0]``; a lost game has
    no score.  ``returns`` ranks every complete pyramid above every loss and the
    higher scores above the lower (scores run from -20 to 79)."""

    def returns(self, num_players: int) -> tuple[float, ...]:
        return ((self.scores[0] + 40) / 120,) if self.winners else (0.0,)


@register
class Spruit(Game):
    info = GameInfo(
        name="Spruit", designer="Nathan Morse", year="2012",
        family="Puzzle", source="Annexe 1 of the French edition of the Shibumi Rule Book",
        summary="A solitaire of chance: push balls drawn from a bag into the pyramid, each "
                "white or black one touching its colour, and score the complete pyramid "
                "on a red path and on split-up white and black groups.",
        min_players=1, max_players=1, complexity=3, chance=True, max_length=14)
    parameters = {"start": START, "must_push": True}
    player_names = ("Player",)

    rules = """\
A puzzle for one person. The sixteen holes of the board start full: seven
white, seven black and two red balls, the reds in two opposite corners
(by default in stripes: the a and e files white, the c and g files black,
reds on a1 and g7; any layout with those numbers and the reds in opposite
corners will do). These balls never move. Five white,
five black and five red balls go into a bag.

Draw a ball and add it to the pyramid, then draw the next, until the
pyramid is complete (fourteen balls; one stays in the bag). Levels fill one
after the other, and a ball goes onto the level being filled:

1. If that level is still empty (as level 1 is at the start), put the ball
   on any point of its edge: the eight outer points of level 1, any of the
   four of level 2, the apex.
2. Otherwise push it in from a side of the level, along a row or column:
   it enters at an edge point that already holds a ball, and shoves that
   ball, and the one behind it if there is one, one step along. No ball
   may leave the pyramid, so a full row cannot be pushed.

A white or black ball must end its move in visible contact with at least
one ball of its colour (red balls need not). If it touches none, the game
is lost at once. Only the ball just brought in is checked, not the balls it
pushed, and not later. A ball that cannot be put in at all (every push
would send a ball off) loses too.

When the pyramid is complete, score it:

* 7 points if a chain of visibly touching red balls joins the two red
  corners, else 0;
* for white and for black: if the colour's visible balls form several
  groups, the product of the groups' sizes (groups of 1, 1 and 7 give 7);
  if they form a single group, minus its size.

Aim for the highest score.
"""
    notes = """\
* Source: Annexe 1 of the French edition (Nathan Morse, 2012). No English
  original was found.
* The start layout (figure lost): we only know that 7 white, 7 black and 2
  red balls fill the board with the reds in opposite corners, and the text
  allows any balanced layout of that kind. The text's 28-point example rules
  many layouts out: with every red on a path from corner to corner, it needs
  black groups of 2 and 6 and white groups of 1 and 9 seen from above, which
  no colouring of the upper levels gives for most layouts (a computer check:
  none of the 40 layouts symmetric about the reds' diagonal, a near
  chessboard among them, and 48 of the 128 that a half turn maps onto
  themselves with white and black swapped). The default is one of those 48,
  in stripes: the a and e files white, the c and g files black, reds on a1
  and g7 (top rank a7-g7: W B W R, then W B W B twice, and R B W B on rank
  1). The half turn keeps it fair between the colours, and all three scored
  examples are reached in real games from it (tests and chapter). The
  `start` option takes any other layout that follows the text's two
  conditions.
* "When a level has no free point left, you may put the ball on any point of
  the edge of the new level; otherwise you must bring it in from a side by
  pushing one or two balls": read as a rule for the first ball of each level
  (levels fill in order, since a ball on level 2 needs a full platform and
  the text has no placement other than these two). Every later ball of the
  level is pushed in. The edge of level 1 is its eight outer points (not the
  centre, d4); every point of level 2 is on its edge, and the apex is the
  whole of level 3.
* "Pushing one or two balls": every entry after the first ball of a level
  must shove at least one ball (otherwise the first rule would say nothing
  the second does not). Rows hold three balls on level 1 and two on level 2,
  so "one or two" is all a push can move without pushing one off, which the
  text forbids. The option `must_push=False` also lets a ball come in onto an
  empty edge point.
* The contact test is on the ball brought in, where it ends, as seen from
  above (the system's visible contact); the text says it need not hold
  later, so pushes and covering balls may break it afterwards. A ball that
  fails it is still played: the game is then lost (the text says so rather
  than forbidding the move).
* Jams: the text does not say what happens when the drawn ball cannot go
  in at all. With the push rule this happens: a first ball on a middle edge
  point of level 1 (d2, b4, f4 or d6) can only be pushed along its line, the
  line is full after the third ball, and the fourth has no entry that does
  not push a ball off. We count a ball that cannot be put in as a loss, like
  an isolated one: the puzzle is to avoid losing before the end.
* The red path joins "one corner to the other": the two red corners, read
  as two opposite board corners joined by one visible red group. Those
  corners touch only their two board neighbours (white or black in any
  layout) and one level-1 ball, so a path needs at least five reds above the
  board: all five of the bag.
* Scoring counts visible balls and visible groups only, as the text says. A
  colour with no visible ball scores 0 (it cannot happen: ten of the twelve
  board edge balls, always visible, are white or black).
* The text's three scored examples (23, 28 and 2 points) are checked in the
  tests and the chapter: in each, the visible balls add up to 25 (the whole
  pyramid seen from above), so each is a complete pyramid, 14 of the 15 bag
  balls placed. Positions with exactly those group sizes are rebuilt there.
* The sole player is named Player. A complete pyramid is a "win" with its
  score; a loss has no score. For search players every complete pyramid is
  worth more than any loss, and a higher score more than a lower one.
"""

    def __init__(self, **params) -> None:
        super().__init__(**params)
        try:
            start = Position(self.params["start"])
        except NotationError as err:
            raise UnknownGameError(f"Spruit start: {err}") from None
        why = check_start(start)
        if why:
            raise UnknownGameError(f"Spruit start {shown(self.params['start'])}: {why}")
        self.start = start
        self.must_push = self.params["must_push"]

    # -- rules ---------------------------------------------------------------------
    def initial_state(self, rng=None) -> SpruitState:
        return SpruitState(position=self.start)

    def current_player(self, state) -> int:
        if state.result is not None:
            return TERMINAL
        return CHANCE if state.drawn == EMPTY else 0

    def length(self, state) -> int:
        """Balls added to the pyramid."""
        return state.position.occupied.bit_count() - 16

    def chance_outcomes(self, state):
        if state.result is not None or state.drawn != EMPTY:
            return []
        left = bag_left(state.position)
        total = sum(left)
        return [(DRAWS[c], n / total) for c, n in zip(COLOURS, left) if n]

    def legal_moves(self, state, player=None):
        if state.result is not None or state.drawn == EMPTY:
            return []
        return self.placements(state.position, state.drawn)

    def placements(self, position: Position, colour: int) -> list[Move]:
        """Every way to put a ball of ``colour`` in: on an edge point of an empty
        level, else pushed in from a side."""
        index = COLOURS.index(colour)
        return [way[1][index] for way in ways_in(position.occupied, self.must_push)]

    def apply(self, state, move):
        if move.kind == "choose":
            return self.settle(SpruitState(state.position, 0, None, move, move.colour))
        pos = state.position
        index = COLOURS.index(move.colour)
        way = next((w for w in ways_in(pos.occupied, self.must_push) if w[1][index] == move),
                   None)
        if way is None:
            raise IllegalMoveError(f"{move.text()} cannot be played here")
        masks = [pos.white, pos.black, pos.red]
        push_in(masks, way, index)
        lost = move.point if move.colour != RED and not way[4] & masks[index] else -1
        return self.settle(SpruitState(Position.from_masks(*masks), 0, None, move, EMPTY, lost))

    def settle(self, state):
        if state.result is not None:
            return state
        result = self._result(state.position, state.drawn, state.lost)
        return state if result is None else dataclasses.replace(state, result=result)

    def _result(self, pos: Position, drawn: int, lost: int) -> SpruitOutcome | None:
        """The outcome of a state with these fields, or None while the game goes on."""
        if lost >= 0:
            colour = COLOUR_NAMES[pos.colour_at(lost)]
            return SpruitOutcome((), f"lost: the {colour} ball brought in touches no "
                                     f"{colour} ball")
        if pos.occupied == ALL_MASK:
            score = sum(score_parts(pos))
            return SpruitOutcome((0,), f"score {score}: {score_text(pos)}", (float(score),))
        if drawn != EMPTY and not ways_in(pos.occupied, self.must_push):
            return SpruitOutcome((), f"lost: the {COLOUR_NAMES[drawn]} ball drawn cannot be "
                                     "put in")
        return None

    def random_playout(self, state, rng):
        """Same games as the generic loop (the same draws over the same moves), on
        colour masks and the tabled ways in; the state is built at the end."""
        if state.result is not None:
            return state
        rnd, must_push, ways_of = rng.random, self.must_push, _WAYS
        pos = state.position
        masks = [pos.white, pos.black, pos.red]
        occupied, last, drawn, lost = pos.occupied, state.last, state.drawn, -1
        added = [m.bit_count() - n for m, n in zip(masks, ON_BOARD)]
        index = 36 * (BAG - added[0]) + 6 * (BAG - added[1]) + BAG - added[2]
        if drawn != EMPTY:
            index -= _INDEX_STEP[COLOURS.index(drawn)]
        while True:
            if drawn == EMPTY:
                r = rnd()
                for acc, c in _ODDS[index]:
                    if r < acc:
                        break
                index -= _INDEX_STEP[c]
                last, drawn = _DRAW_BY_INDEX[c], COLOURS[c]
            else:
                c = COLOURS.index(drawn)
            ways = ways_of.get((occupied, must_push)) or ways_in(occupied, must_push)
            if not ways:
                break
            way = ways[int(rnd() * len(ways))]
            push_in(masks, way, c)
            occupied |= way[3]
            last, drawn = way[1][c], EMPTY
            if c != 2 and not way[4] & masks[c]:
                lost = way[0]
                break
            if occupied == ALL_MASK:
                break
        position = Position.from_masks(*masks)
        return SpruitState(position, 0, self._result(position, drawn, lost), last, drawn, lost)

    def winning_points(self, state) -> int:
        """The red path of a complete pyramid, when it has one."""
        if state.result is None or not state.result.winners:
            return 0
        return red_path(state.position)

    def transform_state(self, state, perm):
        state = super().transform_state(state, perm)
        return dataclasses.replace(state, lost=perm[state.lost] if state.lost >= 0 else -1)

    # -- text ------------------------------------------------------------------------
    def status_lines(self, state) -> list[str]:
        """The ball in hand, how it goes in, the bag, and the score at the end."""
        pos = state.position
        lines = []
        if state.lost >= 0:
            colour = COLOUR_NAMES[pos.colour_at(state.lost)]
            lines.append(f"Lost: the {colour} ball brought in at {point_name(state.lost)} "
                         f"touches no {colour} ball.")
        if state.result is None and state.drawn != EMPTY:
            level = building(pos.occupied)
            how = ("put it on any edge point of the empty level" if not
                   pos.occupied & LEVEL_MASK[level] else "push it in from a side")
            lines.append(f"Ball drawn: {COLOUR_NAMES[state.drawn]}; level {level}: {how}.")
        white, black, red = bag_left(pos, state.drawn)
        lines.append(f"In the bag: {white} white, {black} black and {red} red balls.")
        if state.result is not None and state.result.winners:
            lines.append(f"Score {int(state.result.scores[0])}: {score_text(pos)}.")
        return lines

    def extra_text(self, state) -> str:
        return write_fields(drawn=None if state.drawn == EMPTY else COLOUR_LETTERS[state.drawn],
                            lost=("point", state.lost) if state.lost >= 0 else None)

    def state_from(self, position, to_move, extras):
        drawn, rest = EMPTY, []
        for token in extras.split():
            key, eq, value = token.partition("=")
            if key == "drawn" and eq and value in ("W", "B", "R") and drawn == EMPTY:
                drawn = COLOUR_LETTERS.index(value)
            else:
                rest.append(token)
        fields = read_fields(self, " ".join(rest), points=("lost",))
        lost = -1 if fields["lost"] is None else fields["lost"]
        self._check(position, drawn, lost)
        return self.settle(SpruitState(position, to_move, None, None, drawn, lost))

    def _check(self, position, drawn, lost) -> None:
        def bad(why):
            raise NotationError(f"Spruit state: {why}")
        why = check_start(Position.from_masks(position.white & BOARD_MASK,
                                              position.black & BOARD_MASK,
                                              position.red & BOARD_MASK))
        if why:
            bad(f"the board must be a start layout ({why})")
        level = building(position.occupied)
        above = position.occupied & ~BOARD_MASK
        if any(above & LEVEL_MASK[lv] for lv in range(level + 1, 4)):
            bad("levels fill one after the other: a ball is above an unfinished level")
        if min(bag_left(position, drawn)) < 0:
            bad(f"the bag holds {BAG} balls of each colour: too many of one colour")
        if drawn != EMPTY and position.occupied == ALL_MASK:
            bad("the pyramid is complete: no ball can be in hand")
        if lost >= 0:
            if drawn != EMPTY:
                bad("a lost game has no ball in hand")
            if LEVEL[lost] == 0 or position.colour_at(lost) in (EMPTY, RED) \
                    or touches_own(position, lost):
                bad(f"lost={point_name(lost)} must be a white or black ball above the "
                    "board touching none of its colour")

    def describe(self, state) -> str:
        text = super().describe(state)
        outcome = state.result
        if outcome is not None:
            verdict = "complete" if outcome.winners else "lost"
            text = text.replace("Game over: not solved.", f"Game over: {verdict}.") \
                       .replace("Game over: Player won.", f"Game over: {verdict}.")
        elif state.drawn != EMPTY:
            text += f" Ball in hand: {COLOUR_NAMES[state.drawn]}."
        return text


__all__ = ["BAG", "CORNER_PAIRS", "DRAWS", "ON_BOARD", "RED_PATH", "START", "Spruit",
           "SpruitOutcome", "SpruitState", "bag_left", "building", "check_start",
           "colour_score", "red_path", "score_parts", "score_text", "touches_own"]
