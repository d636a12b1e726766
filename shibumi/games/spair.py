"""Spair: two pyramids built side by side, a ball on each per turn; a line on set B
wins for the first player, a line on set A for the second.

The state holds both sets, ``boards = (A, B)``; ``position`` is the set the
next ball goes on (set A, then set B, every turn), so a front end that draws
``state.position`` (or ``board_of``) always shows the set being played on.
A turn is two placements by the same player, each an ordinary move (``Wa1``,
then ``Rc1``): the step says which set it goes to.

>>> from shibumi import load
>>> match = load('spair').new_match()
>>> match.push('Wa1'), match.push('Bg7')          # Player 1: white on A, black on B
(Move('Wa1'), Move('Bg7'))
>>> sorted({m.colour for m in match.legal_moves()})   # not white on A again
[2, 3]
>>> match.push('Bc1'); [m.text() for m in match.legal_moves()][:2]   # red is owed on B
Move('Bc1')
['Ra1', 'Rc1']
>>> match.state.boards[0].text()
'..../..../..../WB..|.../.../...|../..|.'
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from functools import cache

from ..bits import playable_points_cached
from ..errors import NotationError, shown
from ..game import Game, GameInfo, Outcome, State
from ..geometry import LINE_MASKS, LINES_THROUGH, points_of
from ..notation import Move, point_name
from ..position import BLACK, COLOUR_LETTERS, COLOUR_NAMES, RED, WHITE, Position
from ..registry import register
from .placement import PLACE_MOVES, playable_points, sole_winner, uniform_index

COLOURS = (WHITE, BLACK, RED)
#: The set names, A first: Player 2 wins with a line on A, Player 1 on B.
SET_NAMES = ("A", "B")
#: The player a line on each set wins for.
OWNER = (1, 0)
_FIELDS = "B=<position> last=<A colour><B colour> owe=<colour> (colours W B R or -)"


def third(a: int, b: int) -> int:
    """The colour that is neither ``a`` nor ``b`` (two different colours).

    >>> COLOUR_NAMES[third(WHITE, RED)]
    'black'
    """
    return WHITE + BLACK + RED - a - b


def _names(mask: int) -> str:
    return " ".join(point_name(p) for p in points_of(mask))


def lines_of_one_colour(position: Position, lines=LINE_MASKS) -> int:
    """The union of those ``lines`` filled with balls of a single colour (any colour)."""
    out = 0
    for colour in (position.white, position.black, position.red):
        for line in lines:
            if colour & line == line:
                out |= line
    return out


def makes_line(mine: int, p: int) -> bool:
    """Does the ball just put at `p` complete a line of its colour?  ``mine`` is
    that colour's balls on the set: a new line of one colour passes through `p`,
    so it can only be of p's colour."""
    for line in LINES_THROUGH[p]:
        if mine & line == line:
            return True
    return False


@cache
def allowed_colours(on: int, last_a: int | None, last_b: int | None,
                    owe: int | None) -> tuple[int, ...]:
    """The colours the player to move may place on set `on` (0 for A), in the
    order of the moves: the two numbered rules, memoised (a few dozen cases)."""
    if on == 0:
        return tuple(c for c in COLOURS if c != last_a)
    # The ball on set A this turn is last_a; the opponent's on set B is last_b.
    if owe is not None:
        return (owe,)
    return tuple(c for c in COLOURS if c not in (last_a, last_b))


@dataclass(frozen=True)
class SpairState(State):
    """``boards``: set A and set B.  ``position``: the set the next ball goes on
    (at the end, the set where the line was made).  ``last_a`` and ``last_b``:
    the colours of the latest ball on each set (None while a set is empty).
    ``owe``: the colour the player to move must still use this turn, the one
    the opponent left out of their turn (None on the first turn, or once used).
    """
    boards: tuple[Position, Position] = (Position.empty(), Position.empty())
    last_a: int | None = None
    last_b: int | None = None
    owe: int | None = None

    @property
    def on(self) -> int:
        """The set in play: 0 for A, 1 for B."""
        return 0 if self.position is self.boards[0] else 1


@register
class Spair(Game):
    info = GameInfo(
        name="Spair", designer="Giacomo Galimberti", year="2012",
        family="N-in-a-row", source="Annexe 1 of the French edition of the Shibumi Rule Book",
        summary="Two sets, a ball on each per turn, colours passed on by a strict rule: "
                "a one-colour line on set B wins for Player 1, on set A for Player 2.",
        complexity=2, boards=2, max_length=57)
    player_names = ("Player 1", "Player 2")

    rules = """\
Spair needs two Shibumi sets side by side, called set A and set B, both
empty at the start. No colour belongs to anyone: both players use white,
black and red balls.

A turn is two placements. First put a ball on set A, then a ball of a
different colour on set B, each on a playable point of its set (an empty
hole, or the hollow on top of four touching balls). The colours must obey
two rules:

1. A ball may not have the colour of the ball your opponent has just put
   on the same set.
2. One of your two balls must have the colour your opponent left out of
   their turn (the one of the three colours they placed on neither set).

On the very first turn only the rule "two different colours" applies.

Set B belongs to Player 1, set A to Player 2. As soon as a set shows a full
line of a single colour, whatever the colour, the game ends and that set's
owner wins: it does not matter who placed the last ball. A line runs right
across one level along a row, a column or a diagonal: 4 balls on the board,
3 on level 1, 2 on level 2. Balls hidden under level 2 still count.

Moves: `Wa1` puts a white ball on a1 of the set in play (set A for the
first ball of a turn, set B for the second).
"""
    notes = """\
Source: Annexe 1 of the French edition of the Shibumi Rule Book, game by
Giacomo Galimberti, 2012. The figure of the example (a red diagonal on set
A, won by the second player) is lost; the chapter and the tests rebuild one.

* Which set belongs to whom. The text gives set B's lines to the first
  player and set A's to the second: each player places the first ball of
  a turn on the opponent's set.
* Colours. "A ball of one colour on set A, then a ball of another colour on
  set B": the two balls of a turn always differ. With the two numbered
  rules this leaves exactly two colour choices for set A after the first
  turn, and then set B's colour is forced. Put differently, (colour on A,
  colour on B, colour left out) moves one step round a cycle each turn,
  one way or the other: it can never just swap two colours, and it can
  never repeat. The tests check this against the rules as written.
* Rule 2 is read as "one of your two balls", on either set: the text does
  not say which set the left-out colour must go to.
* The first turn has no previous turn, so both numbered rules are empty
  then; only the two colours must differ (6 colour pairs).
* When the game ends. Each ball is checked as it is placed: a line on set A
  ends the game before the ball on set B is placed. A ball can only make a
  line on its own set, so two sets never win at once.
* A line is a full row, column or diagonal of one level, as in Spline, of
  any one colour ("a line of a single colour"); balls hidden under level 2
  count, since they are on the set.
* No draw. Level 2 holds four balls in three colours, so two share a
  colour, and any two points of level 2 form a line (a row, a column or a
  diagonal). A set with a full level 2 therefore always shows a line, and
  a game ends at the latest with the 29th ball on set A: 57 actions.
* Supply. A set holds 16 balls of each colour; consecutive balls on one set
  always differ, so a set never uses more than 15 of a colour.
* Players are named Player 1 and Player 2, since neither owns a colour.
"""

    # -- the rules ---------------------------------------------------------
    def initial_state(self, rng=None) -> SpairState:
        empty = Position.empty()
        return SpairState(empty, 0, None, None, (empty, empty))

    def length(self, state: SpairState) -> int:
        return state.boards[0].count() + state.boards[1].count()

    def colours(self, state: SpairState) -> tuple[int, ...]:
        """The colours the player to move may place now, on the set in play."""
        return allowed_colours(state.on, state.last_a, state.last_b, state.owe)

    def legal_moves(self, state: SpairState, player: int | None = None) -> list[Move]:
        if state.result is not None:
            return []
        points = playable_points(state.position.occupied)
        return [PLACE_MOVES[c][p] for c in self.colours(state) for p in points]

    def apply(self, state: SpairState, move: Move) -> SpairState:
        board = state.position.place(move.point, move.colour)
        won = self._win(state.on) if makes_line(board.mask(move.colour), move.point) else None
        if state.on == 0:
            owe = None if move.colour == state.owe else state.owe
            boards = (board, state.boards[1])
            nxt, to_move, last_a, last_b = boards[1], state.to_move, move.colour, state.last_b
        else:
            boards = (state.boards[0], board)
            owe = third(state.last_a, move.colour)
            nxt, to_move, last_a, last_b = boards[0], 1 - state.to_move, state.last_a, move.colour
        if won is not None:
            nxt = board          # the end shows the set with the line
        return SpairState(nxt, to_move, won, move, boards, last_a, last_b, owe)

    def _line(self, board: Position, on: int, lines=LINE_MASKS) -> Outcome | None:
        if not lines_of_one_colour(board, lines):
            return None
        return self._win(on)

    def _win(self, on: int) -> Outcome:
        owner = OWNER[on]
        return Outcome((owner,), f"a line of one colour on set {SET_NAMES[on]} wins for "
                                 f"{self.player_name(owner)}")

    def random_playout(self, state: SpairState, rng: random.Random) -> SpairState:
        """Same games as the generic loop (legal_moves' order: colour, then point;
        one draw a ball; the same colour rules and line test), on raw bit masks."""
        if state.result is not None:
            return state
        pick = uniform_index(rng)
        # masks[set][colour] (index 0 unused) and occupied[set].
        masks = [[0, b.white, b.black, b.red] for b in state.boards]
        occupied = [b.occupied for b in state.boards]
        on, to_move = state.on, state.to_move
        last_a, last_b, owe = state.last_a, state.last_b, state.owe
        while True:
            colours = allowed_colours(on, last_a, last_b, owe)
            points = playable_points_cached(occupied[on])
            n = len(points)
            k = pick(len(colours) * n)
            c, p = colours[k // n], points[k % n]
            masks[on][c] |= 1 << p
            occupied[on] |= 1 << p
            if makes_line(masks[on][c], p):
                break
            if on == 0:     # as apply: the owed colour is paid, or still owed on B
                owe = None if c == owe else owe
                last_a, on = c, 1
            else:
                owe, last_b, on, to_move = third(last_a, c), c, 0, 1 - to_move
        # The winning ball is placed again by the rules, which word the outcome.
        masks[on][c] &= ~(1 << p)
        boards = tuple(Position.from_masks(*m[1:]) for m in masks)
        before = SpairState(boards[on], to_move, None, None, boards, last_a, last_b, owe)
        return self.apply(before, PLACE_MOVES[c][p])

    def winning_points(self, state: SpairState) -> int:
        """The one-colour lines of the set that decided the game (the set shown at the end)."""
        return 0 if sole_winner(state) is None else lines_of_one_colour(state.position)

    def transform_state(self, state: SpairState, perm) -> SpairState:
        boards = tuple(b.transform(perm) for b in state.boards)
        moved = dataclasses.replace(super().transform_state(state, perm), boards=boards)
        return dataclasses.replace(moved, position=boards[state.on])

    # -- what players read -------------------------------------------------------
    def status_lines(self, state: SpairState) -> list[str]:
        """The set in play, the colours allowed and why, and the other set's balls."""
        lines = []
        if state.result is None:
            on = state.on
            who = self.player_name(state.to_move)
            allowed = " or ".join(COLOUR_NAMES[c] for c in self.colours(state))
            why = ""
            if on == 0 and state.owe is not None:
                why = (f" (not {COLOUR_NAMES[state.last_a]}, just placed there; one ball "
                       f"this turn must be {COLOUR_NAMES[state.owe]})")
            elif on == 1 and state.owe is not None:
                why = f" ({COLOUR_NAMES[state.owe]} is owed this turn)"
            lines.append(f"{who} places on set {SET_NAMES[on]}: {allowed}{why}.")
        for on in (0, 1):
            owner = self.player_name(OWNER[on])
            board = state.boards[on]
            balls = "; ".join(f"{COLOUR_NAMES[c]} {_names(board.mask(c))}"
                              for c in COLOURS if board.mask(c)) or "empty"
            shown_ = " (in play)" if state.result is None and on == state.on else ""
            lines.append(f"Set {SET_NAMES[on]}{shown_}, a line here wins for {owner}: {balls}.")
        return lines

    def other_boards(self, state: SpairState, player: int | None) -> list:
        """The set not in play (at the end: the set without the winning line)."""
        other = 1 - state.on
        return [(f"Set {SET_NAMES[other]}: a line here wins for "
                 f"{self.player_name(OWNER[other])}", state.boards[other])]

    def describe(self, state: SpairState) -> str:
        lines = []
        for on in (0, 1):
            mark = ", where the next ball goes" if state.result is None and on == state.on else ""
            lines += [f"Set {SET_NAMES[on]}{mark} (a line here wins for "
                      f"{self.player_name(OWNER[on])}):", state.boards[on].diagram()]
        if state.last is not None:
            lines.append(f"Last move: {state.last.text()}")
        outcome = self.outcome(state)
        if outcome is not None:
            lines.append(f"Game over: {self.player_name(outcome.winners[0])} won. "
                         f"{outcome.reason}")
        else:
            lines.append(f"{self.player_name(state.to_move)} to move, on set "
                         f"{SET_NAMES[state.on]}.")
        return "\n".join(lines)

    # -- text ------------------------------------------------------------------------
    def state_text(self, state: SpairState) -> str:
        """Set A, the player to move, then set B and the colours: the first field is
        always set A, whichever set is in play."""
        def letter(c):
            return "-" if c is None else COLOUR_LETTERS[c]
        return (f"{state.boards[0].text()} {state.to_move + 1} B={state.boards[1].text()} "
                f"last={letter(state.last_a)}{letter(state.last_b)} owe={letter(state.owe)}")

    def state_from(self, position: Position, to_move: int, extras: str) -> SpairState:
        name = self.info.name
        fields = {}
        for token in extras.split():
            key, eq, value = token.partition("=")
            if not eq or key not in ("B", "last", "owe") or key in fields:
                raise NotationError(f"{name} state field {shown(token)} not understood "
                                    f"(or given twice); fields: {_FIELDS}")
            fields[key] = value
        if set(fields) != {"B", "last", "owe"}:
            raise NotationError(f"{name} state needs the fields {_FIELDS}")
        a, b = position, Position(fields["B"])
        letters = fields["last"] + fields["owe"]
        if len(fields["last"]) != 2 or len(fields["owe"]) != 1 or \
                any(ch not in "WBR-" for ch in letters):
            raise NotationError(f"{name}: last= gives two colours (set A's, set B's) and owe= "
                                f"one, each W, B, R or -; got {shown(extras)}")
        last_a, last_b, owe = (None if ch == "-" else COLOUR_LETTERS.index(ch)
                               for ch in letters)
        on = self._check(a, b, last_a, last_b, owe)
        state = SpairState((a, b)[on], to_move, None, None, (a, b), last_a, last_b, owe)
        return self.settle(state)

    def _check(self, a: Position, b: Position, last_a, last_b, owe) -> int:
        """The set in play, after checking the fields could come from a game."""
        name = self.info.name
        na, nb = a.count(), b.count()
        if not a.is_stable() or not b.is_stable():
            raise NotationError(f"{name}: a set has a ball on an unfinished platform")
        if na not in (nb, nb + 1):
            raise NotationError(f"{name}: set A holds as many balls as set B, or one more "
                                f"(its ball of the turn); got {na} and {nb}")
        for board, last, label in ((a, last_a, "A"), (b, last_b, "B")):
            if (last is None) != (board.count() == 0) or (last and not board.mask(last)):
                raise NotationError(f"{name}: last= names a colour of a ball on set {label} "
                                    f"exactly when the set holds balls")
        if max(bd.count(c) for bd in (a, b) for c in COLOURS) > 15:
            raise NotationError(f"{name}: consecutive balls on a set differ, so a set "
                                "holds at most 15 of a colour")
        on = 0 if na == nb else 1
        if on == 0:
            expected = None if na == 0 else third(last_a, last_b) if last_a != last_b else 0
            if expected == 0 or owe != expected:
                raise NotationError(f"{name}: at the start of a turn owe= is the colour "
                                    "missing from last= (two different colours), or - on "
                                    "the first turn")
        elif nb == 0:
            if owe is not None:
                raise NotationError(f"{name}: nothing is owed on the first turn")
        elif (owe is None) == (last_a == last_b) or owe in (last_a, last_b):
            raise NotationError(f"{name}: on set B, owe= is - once the owed colour went on "
                                "set A, else a colour used on neither set so far this turn")
        return on

    def settle(self, state: SpairState) -> SpairState:
        """A set given as text may already show a line: the last ball decided it."""
        a, b = state.boards
        last_on = 0 if a.count() > b.count() else 1
        if a.count() == 0:
            return state
        if lines_of_one_colour(state.boards[1 - last_on]):
            raise NotationError(f"{self.info.name}: set {SET_NAMES[1 - last_on]} shows a "
                                "line that should have ended the game earlier")
        won = self._line(state.boards[last_on], last_on)
        if won is None:
            return state
        return dataclasses.replace(state, position=state.boards[last_on], result=won)
