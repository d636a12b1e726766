"""Spin: a solitaire of colour flips on the board alone, played from a graded hand.

Balls go only into the sixteen holes.  A ball placed beside a ball of
another colour turns, with that neighbour, into the third colour; the
puzzle is solved when the whole hand is down and the board shows one
colour.  The rule book's table of starting hands is lost, so the hands
here are our own, each proved solvable by the search in this module.

>>> from shibumi import load
>>> match = load('spin', level=1).new_match()         # two white, one black, one red
>>> match.push('Ba1'), match.push('Rc1')               # red beside black: both turn white
(Move('Ba1'), Move('Rc1'))
>>> match.state.position.text().split('|')[0]
'..../..../..../WW..'
>>> match.push('Wa3'), match.push('We1')
(Move('Wa3'), Move('We1'))
>>> match.outcome().reason
'solved: all 4 balls are white'
>>> analyse(HANDS[1])['fewest_flips'], targets(HANDS[4]), fewest_flips(HANDS[4])
(1, (2,), 15)
"""

from __future__ import annotations

import dataclasses
import random
import re
from dataclasses import dataclass

from ..errors import NotationError, UnknownGameError, shown
from ..game import Game, GameInfo, Outcome, State, read_fields, write_fields
from ..geometry import BOARD_MASK, FLAT_NEIGHBOURS, SYMMETRIES
from ..notation import point_name
from ..position import BLACK, COLOUR_NAMES, RED, WHITE, Position
from ..registry import register
from .placement import PLACE_MOVES

COLOURS = (WHITE, BLACK, RED)
HOLES = 16
#: Orthogonal neighbours of each hole: balls in these holes touch.
NEIGHBOURS = tuple(FLAT_NEIGHBOURS[p] for p in range(HOLES))

#: The graded starting hands (white, black, red), our own: the rule book's table is lost.
HANDS = {1: (2, 1, 1), 2: (3, 3, 0), 3: (5, 2, 0), 4: (15, 1, 0)}
LEVEL_NAMES = {1: "very easy", 2: "easy", 3: "medium", 4: "hard"}
#: Most balls a hand may hold: one for each hole, since nothing is ever removed.
MOST_BALLS = HOLES


def third(a: int, b: int) -> int:
    """The colour that is neither ``a`` nor ``b`` (two different colours)."""
    return 6 - a - b


def parse_hand(text: str) -> tuple[int, int, int]:
    """A hand from text such as ``'W6 B1'`` (white, black, red; missing colours are 0).

    >>> parse_hand('W6 B1'), parse_hand('r2w1b1')
    ((6, 1, 0), (1, 1, 2))
    """
    if not isinstance(text, str) or len(text) > 40:
        raise NotationError(f"a Spin hand is text like 'W6 B1', not {shown(text)}")
    tokens = re.findall(r"([WBRwbr])\s*(\d{1,2})", text)
    if not tokens or re.sub(r"[WBRwbr]\s*\d{1,2}|\s|,", "", text):
        raise NotationError(f"a Spin hand is written like 'W6 B1' or 'W2 B1 R1', "
                            f"not {shown(text)}")
    counts = [0, 0, 0]
    for letter, number in tokens:
        i = "WBR".index(letter.upper())
        if counts[i]:
            raise NotationError(f"Spin hand {shown(text)} names {letter.upper()} twice")
        counts[i] = int(number)
    hand = tuple(counts)
    if not 1 <= sum(hand) <= MOST_BALLS:
        raise NotationError(f"a Spin hand holds 1 to {MOST_BALLS} balls (one per hole), "
                            f"not {sum(hand)}")
    return hand


def hand_text(hand) -> str:
    """``(6, 1, 0)`` -> ``'W6 B1'`` (colours with no ball are left out)."""
    return " ".join(f"{letter}{n}" for letter, n in zip("WBR", hand) if n)


# -- what the counts alone decide -------------------------------------------------

def targets(hand) -> tuple[int, ...]:
    """The colours a solved board can show: those whose two other colours have
    counts equal modulo 3.

    A flip takes one ball from each of two colours and adds two to the third,
    so it changes every difference of two colour counts by 0 or 3: the
    differences modulo 3 never change.  A board of one colour has the other
    two counts both 0, so they must agree modulo 3 from the start.

    >>> targets((2, 1, 1)), targets((2, 1, 0)), targets((3, 3, 3))
    ((1,), (), (1, 2, 3))
    """
    counts = (0,) + tuple(hand)
    return tuple(x for x in COLOURS
                 if (counts[_others(x)[0]] - counts[_others(x)[1]]) % 3 == 0)


def _others(x: int) -> tuple[int, int]:
    return tuple(c for c in COLOURS if c != x)


def flips_needed(hand, x: int) -> int | None:
    """The fewest flips that can turn the hand into balls of colour ``x`` only.

    With ``f[c]`` flips that make colour ``c``, colour ``c`` ends with
    ``n[c] + 3 f[c] - F`` balls (``F`` all flips). Ending with none of the two
    other colours ``y`` and ``z`` needs ``F = n[y] + 3 f[y] = n[z] + 3 f[z]``, so
    ``F >= max(n[y], n[z])``, and that value works (``f`` stays whole and
    non-negative). None if ``x`` is not a target.
    """
    if x not in targets(hand):
        return None
    y, z = _others(x)
    return max(hand[y - 1], hand[z - 1])


def fewest_flips(hand) -> int | None:
    """The fewest flips of any solution, from the counts alone (None: unsolvable).

    Each turn flips at most once and the first turn never does, so a hand
    needing more than ``sum(hand) - 1`` flips is unsolvable too.
    """
    found = [f for f in (flips_needed(hand, x) for x in targets(hand)) if f is not None]
    best = min(found, default=None)
    return best if best is not None and (best == 0 or best <= sum(hand) - 1) else None


# -- the exhaustive search ----------------------------------------------------------
#
# A board is an int with 2 bits per hole (0 empty, 1 white, 2 black, 3 red),
# a stock a (white, black, red) tuple.  The 8 symmetries of the square are
# applied through byte tables (4 holes per byte) to key the memo.

def _byte_tables():
    tables = []
    for perm in SYMMETRIES:
        per_byte = []
        for byte in range(4):
            row = []
            for v in range(256):
                out = 0
                for k in range(4):
                    colour = v >> (2 * k) & 3
                    if colour:
                        out |= colour << (2 * perm[4 * byte + k])
                row.append(out)
            per_byte.append(tuple(row))
        tables.append(tuple(per_byte))
    return tuple(tables)


_TABLES = _byte_tables()


def canonical(board: int) -> int:
    """The least image of a board under the 8 symmetries of the square."""
    b0, b1, b2, b3 = board & 255, board >> 8 & 255, board >> 16 & 255, board >> 24
    return min(t0[b0] | t1[b1] | t2[b2] | t3[b3] for t0, t1, t2, t3 in _TABLES)


def board_of(position: Position) -> int:
    """The 2-bit-per-hole board int of a board-only position."""
    return position.to_int() & (1 << 2 * HOLES) - 1


def position_of(board: int) -> Position:
    masks = [0, 0, 0, 0]
    for p in range(HOLES):
        masks[board >> 2 * p & 3] |= 1 << p
    return Position.from_masks(masks[WHITE], masks[BLACK], masks[RED])


def _spread(mask: int) -> int:
    """A mask of holes as a board with white (01) in each of them."""
    out = 0
    for p in range(HOLES):
        if mask >> p & 1:
            out |= 1 << 2 * p
    return out


#: _SPREAD[byte]: eight holes of a mask spread to two bits each (as white balls).
_SPREAD = tuple(_spread(m) for m in range(256))
#: _SPLIT[byte]: the (white, black, red) masks of the four holes a board byte holds.
_SPLIT = tuple(tuple(sum(1 << k for k in range(4) if v >> 2 * k & 3 == c) for c in COLOURS)
               for v in range(256))


def _board_of_masks(white: int, black: int, red: int) -> int:
    """:func:`board_of` from a board-only position's colour masks, by table."""
    w = _SPREAD[white & 255] | _SPREAD[white >> 8 & 255] << 16
    b = _SPREAD[black & 255] | _SPREAD[black >> 8 & 255] << 16
    r = _SPREAD[red & 255] | _SPREAD[red >> 8 & 255] << 16
    return w | b << 1 | r * 3


def _masks_of_board(board: int) -> tuple[int, int, int]:
    """The (white, black, red) masks of a board: :func:`position_of`'s, by table."""
    w0, b0, r0 = _SPLIT[board & 255]
    w1, b1, r1 = _SPLIT[board >> 8 & 255]
    w2, b2, r2 = _SPLIT[board >> 16 & 255]
    w3, b3, r3 = _SPLIT[board >> 24 & 255]
    return (w0 | w1 << 4 | w2 << 8 | w3 << 12, b0 | b1 << 4 | b2 << 8 | b3 << 12,
            r0 | r1 << 4 | r2 << 8 | r3 << 12)


def _final_outcome(masks) -> SpinOutcome:
    """What :meth:`Spin.settle` says of a board with the whole hand down."""
    counts = [(m.bit_count(), c) for m, c in zip(masks, COLOURS) if m]
    if len(counts) == 1:
        n, c = counts[0]
        return SpinOutcome((0,), f"solved: all {n} balls are {COLOUR_NAMES[c]}")
    left = ", ".join(f"{n} {COLOUR_NAMES[c]}" for n, c in counts)
    return SpinOutcome((), f"not solved: the board ends with {left}")


def _counts(board: int) -> list[int]:
    counts = [0, 0, 0, 0]
    while board:
        counts[board & 3] += 1
        board >>= 2
    return counts


def _one_colour(board: int) -> bool:
    seen = 0
    while board:
        seen |= 1 << (board & 3)
        board >>= 2
    seen &= ~1
    return seen & (seen - 1) == 0


def turns(board: int, stock: tuple[int, int, int]):
    """Every turn from a board and stock: (colour, hole, partner or -1, new board, new stock).

    A turn is a placement and, when the new ball touches balls of other
    colours, the flip with the partner chosen among them.
    """
    for i, n in enumerate(stock):
        if not n:
            continue
        c = i + 1
        rest = stock[:i] + (n - 1,) + stock[i + 1:]
        for p in range(HOLES):
            if board >> 2 * p & 3:
                continue
            placed = board | c << 2 * p
            flipped = False
            for q in NEIGHBOURS[p]:
                d = board >> 2 * q & 3
                if d and d != c:
                    t = third(c, d)
                    yield (c, p, q, placed & ~(3 << 2 * p | 3 << 2 * q)
                           | t << 2 * p | t << 2 * q, rest)
                    flipped = True
            if not flipped:
                yield c, p, -1, placed, rest


def _still_needed(board: int, stock, goals) -> int:
    """The fewest flips still needed to reach any target colour (a large number if
    none can be reached in the turns left)."""
    counts = _counts(board)
    totals = (0, counts[1] + stock[0], counts[2] + stock[1], counts[3] + stock[2])
    left = sum(stock)
    best = HOLES + 1
    for x in goals:
        y, z = _others(x)
        need = max(totals[y], totals[z])
        if need <= left and need < best:
            best = need
    return best


def _hopeless(board: int, stock, goals) -> bool:
    """No target colour is reachable: the flips it needs outnumber the turns left."""
    return _still_needed(board, stock, goals) > HOLES


def _off_target(board: int, x: int) -> int:
    n = 0
    while board:
        colour = board & 3
        n += colour != 0 and colour != x
        board >>= 2
    return n


def solve(hand, flips: int | None = None,
          limit: int = 2_000_000) -> list[tuple[int, int, int]] | None:
    """A solution as turns ``(colour, hole, partner or -1)``, or None if there is none.

    With ``flips``, only solutions with at most that many flips count (give
    ``fewest_flips(hand)`` for a most economical one).  Depth-first, trying
    first the turns that leave fewest balls off the nearest target colour;
    positions found lost are remembered up to the symmetries of the square,
    and positions whose needed flips outnumber the turns left (or the flips
    left) are cut. Raises RuntimeError past ``limit`` positions.

    >>> solution_moves((2, 1, 1), solve((2, 1, 1), flips=1))
    ['Wa1', 'Wc1', 'Bg1', 'Re1', 'Wg1']
    """
    hand = tuple(hand)
    goals = targets(hand)
    budget = 2 * HOLES if flips is None else flips
    if not goals:
        return None
    lost: set = set()
    path: list = []
    visited = 0

    def nearest(board, stock):
        counts = _counts(board)
        totals = (0, counts[1] + stock[0], counts[2] + stock[1], counts[3] + stock[2])
        return min(goals, key=lambda x: max(totals[c] for c in _others(x)))

    def search(board, stock, spare) -> bool:
        nonlocal visited
        visited += 1
        if visited > limit:
            raise RuntimeError(f"Spin search for {hand_text(hand)} passed {limit} positions")
        if not any(stock):
            return _one_colour(board)
        if _still_needed(board, stock, goals) > spare:
            return False
        key = (canonical(board), stock, spare)
        if key in lost:
            return False
        x = nearest(board, stock)
        options = sorted(turns(board, stock), key=lambda t: _off_target(t[3], x))
        for c, p, q, after, rest in options:
            path.append((c, p, q))
            if search(after, rest, spare - (q >= 0)):
                return True
            path.pop()
        lost.add(key)
        return False

    return list(path) if search(0, hand, min(budget, HOLES)) else None


def solution_moves(hand, solution) -> list[str]:
    """The move texts of a solution: each placement, then its partner where the
    new ball touched two or more balls of other colours (a choice to make)."""
    board, out = 0, []
    for c, p, q in solution:
        out.append(PLACE_MOVES[c][p].text())
        mismatched = [r for r in NEIGHBOURS[p] if board >> 2 * r & 3 not in (0, c)]
        board |= c << 2 * p
        if q >= 0:
            t = third(c, board >> 2 * q & 3)
            if len(mismatched) > 1:
                out.append(PLACE_MOVES[t][q].text())
            board = board & ~(3 << 2 * p | 3 << 2 * q) | t << 2 * p | t << 2 * q
    return out


def analyse(hand, limit: int = 5_000_000) -> dict:
    """Exhaustive search of a hand: every game it allows, up to symmetry.

    Returns ``states`` (positions with balls still to place, up to symmetry,
    past the cut of hopeless ones), ``solvable``, ``fewest_flips`` (over all
    solutions, None if none) and ``random_win`` (the exact chance that a
    player choosing uniformly among the legal actions solves it, as the
    engine's random player does).

    >>> r = analyse((1, 1, 1))
    >>> r['solvable'], r['fewest_flips'], round(r['random_win'], 4), r['states']
    (True, 1, 0.5071, 103)
    """
    hand = tuple(hand)
    goals = targets(hand)
    memo: dict = {}

    def value(board, stock):
        """(chance of solving with uniform actions, fewest flips or None)."""
        if not any(stock):
            return (1.0, 0) if _one_colour(board) else (0.0, None)
        if _hopeless(board, stock, goals):
            return 0.0, None
        key = (canonical(board), stock)
        found = memo.get(key)
        if found is not None:
            return found
        if len(memo) >= limit:
            raise RuntimeError(f"Spin analysis of {hand_text(hand)} passed {limit} positions")
        total, actions, best = 0.0, 0, None
        for i, n in enumerate(stock):
            if not n:
                continue
            c = i + 1
            rest = stock[:i] + (n - 1,) + stock[i + 1:]
            for p in range(HOLES):
                if board >> 2 * p & 3:
                    continue
                actions += 1
                placed = board | c << 2 * p
                partners = [q for q in NEIGHBOURS[p] if board >> 2 * q & 3 not in (0, c)]
                if not partners:
                    chance, flips = value(placed, rest)
                    total += chance
                    if flips is not None and (best is None or flips < best):
                        best = flips
                    continue
                share = 0.0
                for q in partners:
                    t = third(c, board >> 2 * q & 3)
                    chance, flips = value(placed & ~(3 << 2 * p | 3 << 2 * q)
                                          | t << 2 * p | t << 2 * q, rest)
                    share += chance
                    if flips is not None and (best is None or flips + 1 < best):
                        best = flips + 1
                total += share / len(partners)
        memo[key] = found = (total / actions, best)
        return found

    chance, flips = value(0, hand)
    return {"hand": hand, "states": len(memo), "solvable": flips is not None,
            "fewest_flips": flips, "random_win": chance}


# -- the game ------------------------------------------------------------------------

@dataclass(frozen=True)
class SpinState(State):
    stock: tuple[int, int, int] = (0, 0, 0)
    """Balls still to place: white, black, red."""
    pending: int = -1
    """The hole of the ball just placed, when the player must choose its partner."""


@dataclass(frozen=True)
class SpinOutcome(Outcome):
    """A finished puzzle: ``winners == (0,)`` if solved; a failure has no winner.

    ``returns`` is 1 for a solved puzzle and 0 otherwise (the base class would
    count a game without winners as a draw worth 1 to the lone player).
    """

    def returns(self, num_players: int) -> tuple[float, ...]:
        return (1.0 if self.winners else 0.0,)


@register
class Spin(Game):
    info = GameInfo(
        name="Spin", designer="Enrique Blasco Arnandis", year="2011",
        family="Puzzle", source="Shibumi Rule Book (2012)",
        summary="A solitaire on the board alone: a ball put next to a ball of another "
                "colour turns, with it, into the third colour; place your whole hand "
                "and finish with one colour.",
        min_players=1, max_players=1, complexity=2, max_length=2 * MOST_BALLS - 1)
    parameters = {"level": 2, "hand": ""}
    player_names = ("Player",)

    rules = """\
A puzzle for one person that uses only the sixteen holes of the board:
nothing is ever stacked. You start with a hand of balls (the level decides
how many of each colour) and an empty board; the rest of the set waits
aside as a reserve.

On each turn put one ball of your hand, of whichever colour you like, into
an empty hole. Balls in holes side by side (not diagonally) touch. If the
new ball touches a ball of another colour, the two of them change: both
are taken away and replaced, from the reserve, by balls of the third
colour (a white and a black become two reds, and so on). When the new ball
touches balls of other colours on several sides, you pick which one
changes with it, and only that pair changes; the turn ends there, even if
the new balls now touch other colours.

You solve the puzzle if, once the last ball of your hand is down, every
ball on the board has the same colour.

Levels (`spin(level=1)` to `spin(level=4)`), white-black-red:
1 very easy W2 B1 R1, 2 easy W3 B3 (the default), 3 medium W5 B2,
4 hard W15 B1. Any other hand of up to sixteen balls can be set with
`spin(hand="W4 B4 R1")`.

Moves: a placement names its colour and hole (`Bc1`); when there is a
partner to choose, the second action names the partner's hole, with the
colour it turns into (`Rc3`, or just `c3`).
"""
    notes = """\
* Source: the Shibumi Rule Book v1.1 (2012); designer Enrique Blasco
  Arnandis, 2011 (the English heading spells the name Armandis).
* The table of starting hands is lost (the text keeps only its four grades:
  very easy, easy, medium, hard), and no other description of the game was
  found. The four hands here are our own, graded by how likely a player
  choosing at random is to solve them, worked out exactly by exhaustive
  search: W2 B1 R1 about 15%, W3 B3 about 4%, W5 B2 about 1 in 700, W15 B1
  about 1 in 800,000. Each is proved solvable by a solution found by search
  and replayed through the rules in the tests.
* Which hands can be solved at all: a flip changes every difference between
  two colour counts by 0 or 3, so the differences modulo 3 never change.
  One colour on the board means the two others both count 0, so a hand can
  only end in a colour whose two other counts agree modulo 3 (W2 B1 R1 can
  only end white). The search shows this test is also enough: every hand of
  1 to 16 balls that passes it can be solved, and with the fewest flips its
  counts allow (the tests check all 203 hands up to renaming the colours,
  and a slow test all 968 as they stand).
* "Shortest solution": every solution of a hand takes exactly one turn per
  ball, so solutions differ only in how many turns flip. The fewest flips
  follow from the counts (ending in colour x needs at least as many flips as
  the larger of the two other counts), and exhaustive search confirms the
  bound is met: 1, 3, 5 and 15 flips for the four levels. In the hard level
  every turn after the first must flip.
* Touching: balls in orthogonally adjacent holes touch; diagonal
  neighbours are too far apart.
* A flip is compulsory: the new ball always changes with one mismatched
  neighbour when it has one. Only the new ball and one neighbour change; the
  replacement balls do not set off further flips ("this completes the
  turn").
* The reserve: a set holds 16 balls of each colour and a hand at most 16,
  so when a flip needs two balls of the third colour, at most 14 of that
  colour are in the hand or on the board, and the reserve always has two.
* Any ball of the hand may be played on any turn, in any order.
* A turn is one action, or two when the player must choose the partner. The
  sole player is named Player; a solved puzzle is a win for Player, a
  failed one ends without a winner (the engine then speaks of a draw) and is
  worth 0 to a search player.
"""

    def __init__(self, **params) -> None:
        super().__init__(**params)
        level, text = self.params["level"], self.params["hand"]
        if text:
            try:
                self.hand = parse_hand(text)
            except NotationError as exc:
                raise UnknownGameError(str(exc)) from None
        elif level in HANDS:
            self.hand = HANDS[level]
        else:
            raise UnknownGameError(f"Spin levels are 1-4 (very easy to hard), not {level!r}")

    # -- rules ---------------------------------------------------------------
    def initial_state(self, rng=None) -> SpinState:
        return SpinState(stock=self.hand)

    def legal_moves(self, state, player=None):
        if state.result is not None:
            return []
        pos = state.position
        if state.pending >= 0:
            c = pos.colour_at(state.pending)
            return [PLACE_MOVES[third(c, d)][q] for q in NEIGHBOURS[state.pending]
                    for d in (pos.colour_at(q),) if d and d != c]
        empty = [p for p in range(HOLES) if not pos.occupied >> p & 1]
        return [PLACE_MOVES[c][p] for c in COLOURS if state.stock[c - 1] for p in empty]

    def apply(self, state, move):
        pos = state.position
        if state.pending >= 0:
            p, q = state.pending, move.point
            t = third(pos.colour_at(p), pos.colour_at(q))
            return self.settle(SpinState(_recolour(pos, (p, q), t), 0, None, move,
                                         state.stock, -1))
        c, p = move.colour, move.point
        stock = tuple(n - (i == c - 1) for i, n in enumerate(state.stock))
        partners = [q for q in NEIGHBOURS[p] if pos.colour_at(q) not in (0, c)]
        pos = pos.place(p, c)
        pending = -1
        if len(partners) == 1:
            q = partners[0]
            pos = _recolour(pos, (p, q), third(c, pos.colour_at(q)))
        elif partners:
            pending = p
        return self.settle(SpinState(pos, 0, None, move, stock, pending))

    def settle(self, state):
        if state.result is not None or state.pending >= 0 or any(state.stock):
            return state
        pos = state.position
        outcome = _final_outcome((pos.white, pos.black, pos.red))
        return dataclasses.replace(state, result=outcome)

    def random_playout(self, state, rng: random.Random):
        """The generic loop's games (uniform actions), on plain ints; the empty
        holes and the colours in hand are kept as lists, and the final state is
        built at once (what :meth:`settle` would make of it)."""
        if state.result is not None:
            return state
        pos = state.position
        board, stock = _board_of_masks(pos.white, pos.black, pos.red), list(state.stock)
        last, rnd = state.last, rng.random
        if state.pending >= 0:
            p = state.pending
            c = board >> 2 * p & 3
            partners = [q for q in NEIGHBOURS[p] if board >> 2 * q & 3 not in (0, c)]
            q = partners[int(rnd() * len(partners))]
            t = third(c, board >> 2 * q & 3)
            board = board & ~(3 << 2 * p | 3 << 2 * q) | t << 2 * p | t << 2 * q
            last = PLACE_MOVES[t][q]
        empty = [p for p in range(HOLES) if not board >> 2 * p & 3]
        colours = [c for c in COLOURS if stock[c - 1]]
        while colours:
            n = len(empty)
            k = int(rnd() * len(colours) * n)
            c = colours[k // n]
            p = empty.pop(k % n)
            stock[c - 1] -= 1
            if not stock[c - 1]:
                colours.remove(c)
            partners = [q for q in NEIGHBOURS[p] if board >> 2 * q & 3 not in (0, c)]
            board |= c << 2 * p
            last = PLACE_MOVES[c][p]
            if partners:
                q = partners[int(rnd() * len(partners))] if len(partners) > 1 else partners[0]
                t = third(c, board >> 2 * q & 3)
                board = board & ~(3 << 2 * p | 3 << 2 * q) | t << 2 * p | t << 2 * q
                if len(partners) > 1:
                    last = PLACE_MOVES[t][q]
        masks = _masks_of_board(board)
        position = Position.__new__(Position)
        position._set(*masks)
        return SpinState(position, 0, _final_outcome(masks), last, (0, 0, 0), -1)

    # -- symmetry and text ---------------------------------------------------------
    def transform_state(self, state, perm):
        state = super().transform_state(state, perm)
        if state.pending >= 0:
            state = dataclasses.replace(state, pending=perm[state.pending])
        return state

    def status_lines(self, state) -> list[str]:
        """The balls still in hand."""
        if state.result is not None:
            return []
        held = [f"{n} {COLOUR_NAMES[c]} ball{'s' * (n != 1)}"
                for c, n in zip(COLOURS, state.stock) if n]
        return [f"Your hand: {', '.join(held)}." if held else "Your hand is empty."]

    def extra_text(self, state) -> str:
        white, black, red = state.stock
        return write_fields(white=white, black=black, red=red,
                            choose=("point", state.pending) if state.pending >= 0 else None)

    def state_from(self, position, to_move, extras):
        fields = read_fields(self, extras, numbers=("white", "black", "red"),
                             points=("choose",))
        stock = (fields["white"], fields["black"], fields["red"])
        pending = -1 if fields["choose"] is None else fields["choose"]
        if position.occupied & ~BOARD_MASK:
            raise NotationError("Spin is played in the board holes only: this position has "
                                "balls above the board")
        placed = position.count()
        if placed + sum(stock) != sum(self.hand) or any(
                n > h for n, h in zip(stock, self.hand)):
            raise NotationError(
                f"Spin state: {placed} balls on the board and a stock of "
                f"{hand_text(stock) or 'nothing'} do not make the hand {hand_text(self.hand)} "
                f"(give the stock as white=N black=N red=N)")
        totals = [position.count(c) + stock[c - 1] for c in COLOURS]
        if any((totals[i] - totals[j] - self.hand[i] + self.hand[j]) % 3
               for i in range(3) for j in range(3)):
            raise NotationError(
                f"Spin state: flips keep the colour counts' differences modulo 3, so the "
                f"hand {hand_text(self.hand)} can never give this board and stock")
        if pending >= 0:
            c = position.colour_at(pending)
            mismatched = [q for q in NEIGHBOURS[pending]
                          if position.colour_at(q) not in (0, c)] if pending < HOLES else []
            if c == 0 or len(mismatched) < 2:
                raise NotationError(
                    f"Spin state: choose={point_name(pending)} must name a ball that "
                    "touches balls of other colours on two or more sides")
        return self.settle(SpinState(position, to_move, None, None, stock, pending))

    def describe(self, state) -> str:
        text = super().describe(state)
        outcome = state.result
        if outcome is not None and outcome.winners:
            text = text.replace("Game over: Player won.", "Game over: solved.")
        elif state.pending >= 0:
            partners = ", ".join(m.text() for m in self.legal_moves(state))
            text += (f" Choose the ball that changes with {point_name(state.pending)} "
                     f"({partners}).")
        return text


def _recolour(position: Position, points, colour: int) -> Position:
    masks = [0, position.white, position.black, position.red]
    for p in points:
        bit = 1 << p
        masks[1] &= ~bit
        masks[2] &= ~bit
        masks[3] &= ~bit
        masks[colour] |= bit
    return Position.from_masks(masks[1], masks[2], masks[3])


__all__ = ["HANDS", "LEVEL_NAMES", "Spin", "SpinOutcome", "SpinState", "analyse",
           "canonical", "fewest_flips", "flips_needed", "hand_text", "parse_hand", "solve",
           "solution_moves", "targets", "third", "turns"]
