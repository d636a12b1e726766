"""Imbriqua: frame empty cells of an 8x8 grid between two of your pawns.

A companion game, not played on the pyramid: the board is
:func:`shibumi.grid.grid` (8x8).  After a short opening of placements, each
turn a player places a pawn, then applies the action card turned from a
deck of eleven; four piles (44 turns) later, the player framing more empty
cells wins.  The order of the first pile is dealt by chance at the start and
hidden from both players (``observe``/``determinise``); the other three piles
are that order reversed, forwards, reversed.

Cells are the grid's numbers (``a1`` = 0 ... ``h8`` = 63) and the rules work
on two masks, the mover's pawns and the opponent's.

>>> from shibumi import load
>>> game = load('imbriqua')
>>> match = game.new_match(seed=1)
>>> [CARDS[c].name for c in match.state.deck[:3]]     # the first three cards dealt
['diagonal step', 'double orthogonal jump', 'long diagonal jump']
>>> for move in ('d4', 'e5', 'c3', 'f6', 'd5'):        # the opening, then White's pawn
...     _ = match.push(move)
>>> match.state.card == 2, match.state.placed == game.board.parse_point('d5')
(True, True)
>>> match.push('d5-e4')                                # a diagonal step, the turn ends
Move('d5-e4')
>>> match.state.to_move, match.state.turn
(1, 1)
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from typing import NamedTuple

from ..errors import NotationError, UnknownGameError, shown
from ..game import CHANCE, TERMINAL, Game, GameInfo, Outcome, State, read_fields
from ..grid import DIAGONAL, ORTHOGONAL, GridPosition, grid
from ..notation import CHOOSE, MOVE, PASS, PLACE, REMOVE, Move
from ..registry import register

BOARD = grid(8)
N = 8
ALL = BOARD.all_mask
#: The 36 cells off the edge (files b-g, ranks 2-7): where a turn's pawn goes.
INNER = sum(1 << (r * N + f) for r in range(1, N - 1) for f in range(1, N - 1))
#: Turns in a game: four piles of eleven cards.
PILE = 11
PILES = 4
TURNS = PILE * PILES
#: The four alignments of the grid, one direction each (the other is its opposite).
AXES = ((1, 0), (0, 1), (1, 1), (1, -1))


class Card(NamedTuple):
    """One action card: its name, the steps it moves along, and what it does.

    ``kind``: 'step' (one cell), 'slide' (any distance through empty cells),
    'jump' (over one adjacent enemy pawn), 'long' (over one enemy pawn at any
    distance, landing anywhere beyond), 'double' (over two adjacent enemy
    pawns), 'place' (two more pawns).  ``new_only``: only the pawn placed
    this turn may do it (the cards the text prints on red).
    """
    letter: str
    name: str
    kind: str
    directions: tuple
    new_only: bool
    words: str


#: The eleven cards, numbered 1-11 as the text lists them; 11 is the two-pawn card.
CARDS = {
    1: Card("A", "orthogonal step", "step", ORTHOGONAL, False,
            "move a pawn one cell along a row or column"),
    2: Card("B", "diagonal step", "step", DIAGONAL, False,
            "move a pawn one cell diagonally"),
    3: Card("C", "orthogonal slide", "slide", ORTHOGONAL, False,
            "slide a pawn any distance along a row or column"),
    4: Card("D", "diagonal slide", "slide", DIAGONAL, False,
            "slide a pawn any distance diagonally"),
    5: Card("E", "orthogonal jump", "jump", ORTHOGONAL, False,
            "jump a pawn over an enemy pawn next to it along a row or column"),
    6: Card("F", "diagonal jump", "jump", DIAGONAL, False,
            "jump a pawn over an enemy pawn diagonally next to it"),
    7: Card("G", "long orthogonal jump", "long", ORTHOGONAL, True,
            "jump the new pawn over an enemy pawn at any distance along a row or column"),
    8: Card("H", "long diagonal jump", "long", DIAGONAL, True,
            "jump the new pawn over an enemy pawn at any distance diagonally"),
    9: Card("I", "double orthogonal jump", "double", ORTHOGONAL, True,
            "jump the new pawn over two enemy pawns in a row along a row or column"),
    10: Card("J", "double diagonal jump", "double", DIAGONAL, True,
             "jump the new pawn over two enemy pawns in a row diagonally"),
    11: Card("K", "two more pawns", "place", (), False,
             "place two more pawns, on any empty cells (the edge allowed)"),
}
LAST_CARD = 11
SHUFFLED = tuple(range(1, LAST_CARD))
_BY_LETTER = {card.letter: number for number, card in CARDS.items()}
#: Cards after which the jumping pawn may jump again (the chain is optional).
CHAINS = frozenset(c for c, card in CARDS.items() if card.kind in ("jump", "long"))

#: rays[p][d]: cells met from p along direction d, nearest first.
RAYS = tuple({d: BOARD.ray(p, d) for d in ORTHOGONAL + DIAGONAL} for p in range(N * N))
#: Cells strictly between two cells of one line (0 when not on one line).
BETWEEN = [[0] * (N * N) for _ in range(N * N)]
for _p in range(N * N):
    for _ray in RAYS[_p].values():
        _acc = 0
        for _q in _ray:
            BETWEEN[_p][_q] = _acc
            _acc |= 1 << _q


def card_at(deck: tuple, turn: int) -> int:
    """The card turned at a turn (0-43): the first pile is ``deck`` then card 11;
    each later pile is the discard pile turned over, so it runs in reverse."""
    pile, i = divmod(turn, PILE)
    pile_cards = tuple(deck) + (LAST_CARD,)
    return pile_cards[i] if pile % 2 == 0 else pile_cards[PILE - 1 - i]


def dealt(deck: tuple, rnd) -> tuple:
    """The first pile completed by chance draws as ``sample_chance`` makes them:
    one ``rnd()`` a card, over the cards left in order, each as likely."""
    deck = tuple(deck)
    while len(deck) < PILE - 1:
        left = [c for c in SHUFFLED if c not in deck]
        r, acc, prob = rnd(), 0.0, 1 / len(left)
        card = left[-1]
        for c in left:
            acc += prob
            if r < acc:
                card = c
                break
        deck += (card,)
    return deck


#: _OCTETS[i][b]: the cells of byte value b in the mask's i-th byte.
_OCTETS = tuple(tuple(tuple(8 * i + j for j in range(8) if b >> j & 1) for b in range(256))
                for i in range(N * N // 8))


def _bits(mask: int) -> tuple[int, ...]:
    """The cells of a mask, lowest first: a look-up per byte, not a step per cell
    (legal_moves lists up to 64 cells)."""
    t = _OCTETS
    return (t[0][mask & 255] + t[1][mask >> 8 & 255] + t[2][mask >> 16 & 255]
            + t[3][mask >> 24 & 255] + t[4][mask >> 32 & 255] + t[5][mask >> 40 & 255]
            + t[6][mask >> 48 & 255] + t[7][mask >> 56 & 255])


# Tables built once, so that a card's actions are look-ups on masks: for each card
# and cell, the rays along the card's directions (in the card's order).
def _along(p: int, directions, reach: int) -> tuple:
    """The rays from p along the directions that have at least ``reach`` cells."""
    return tuple(RAYS[p][d] for d in directions if len(RAYS[p][d]) >= reach)


def _over(p: int, card: Card) -> tuple:
    """(mask jumped, landing cell as a bit, the move (p, landing cell)) of each short
    (or double) jump from p, in order."""
    span = 2 if card.kind == "jump" else 3
    return tuple((sum(1 << q for q in ray[:span - 1]), 1 << ray[span - 1], (p, ray[span - 1]))
                 for ray in _along(p, card.directions, span))


#: RAY_LISTS[card][p]: the rays from p along the card's directions, nearest first.
RAY_LISTS = {c: tuple(_along(p, info.directions, 1) for p in range(N * N))
             for c, info in CARDS.items()}
#: STEPS[card][p]: (the cell one step from p, as a bit; the move) along each of the
#: card's directions.
STEPS = {c: tuple(tuple((1 << r[0], (p, r[0])) for r in rays)
                  for p, rays in enumerate(RAY_LISTS[c])) for c in CARDS}
#: OVER[card][p]: the short (jump) or double jumps from p, see :func:`_over`.
OVER = {c: tuple(_over(p, info) for p in range(N * N))
        for c, info in CARDS.items() if info.kind in ("jump", "double")}

#: STEP_CELLS[card][p]: the cells a pawn on p may step to.
STEP_CELLS = {c: tuple(sum(bit for bit, _ in row) for row in table)
              for c, table in STEPS.items()}

#: SLIDES[card][p] (slides and long jumps): per ray from p along the card's
#: directions, (its cells as a mask, whether it runs to higher cell numbers, its
#: moves (p, q) nearest first, {cell: its place on the ray}).
SLIDES = {c: tuple(tuple((sum(1 << q for q in ray), ray[0] > p, tuple((p, q) for q in ray),
                          {q: i for i, q in enumerate(ray)}) for ray in rays)
                   for p, rays in enumerate(RAY_LISTS[c]))
          for c, info in CARDS.items() if info.kind in ("slide", "long")}


def _shifter(d: tuple[int, int]) -> tuple[int, int, int]:
    """(cells kept, left shift, right shift) moving a mask one step along d: the
    cells that would wrap round the board are dropped first.  Bits moved past the
    board's top stay set: callers clear them by and-ing with a mask of cells."""
    dx, dy = d
    keep = ALL & ~(BOARD.file_masks[N - 1] if dx == 1 else
                   BOARD.file_masks[0] if dx == -1 else 0)
    step = dx + N * dy
    return keep, max(step, 0), max(-step, 0)


#: BACKS[card]: shifters one step against each of the card's directions.
BACKS = {c: tuple(_shifter((-dx, -dy)) for dx, dy in info.directions)
         for c, info in CARDS.items()}


def _able(card: int, own: int, opp: int, empty: int) -> int:
    """The pawns of ``own`` that have a step or slide (a neighbour along a card's
    direction is empty) or a short jump (an enemy pawn next, an empty cell
    beyond): a bit-parallel test over all pawns at once."""
    found = 0
    if _KIND[card] == "jump":
        for keep, left, right in BACKS[card]:
            over = opp & (((empty & keep) << left) >> right)
            found |= ((over & keep) << left) >> right
    else:
        for keep, left, right in BACKS[card]:
            found |= ((empty & keep) << left) >> right
    return own & found


def _steps(card, own, opp, sources):
    """One cell along a direction, onto an empty cell."""
    empty = ALL & ~(own | opp)
    table = STEPS[card]
    return [move for p in _bits(sources) for bit, move in table[p] if empty & bit]


def _slides(card, own, opp, sources):
    """Any distance along a ray, up to the first pawn in the way (the run of each
    ray is cut at that pawn, found as the ray's lowest or highest occupied bit)."""
    occupied = own | opp
    out = []
    while sources:
        low = sources & -sources
        sources ^= low
        for mask, rising, moves, index in SLIDES[card][low.bit_length() - 1]:
            block = occupied & mask
            if not block:
                out += moves
            elif rising:
                out += moves[:index[(block & -block).bit_length() - 1]]
            else:
                out += moves[:index[block.bit_length() - 1]]
    return out


#: AHEADS[card]: shifters one step along each of the card's directions.
AHEADS = {c: tuple(_shifter(d) for d in info.directions) for c, info in CARDS.items()}


def step_count(card: int, own: int, empty: int) -> int:
    """How many steps the pawns ``own`` have (``len(_steps(...))``): per
    direction, the empty cells one step ahead of a pawn, all at once."""
    n = 0
    for keep, left, right in AHEADS[card]:
        n += (empty & ((own & keep) << left) >> right).bit_count()
    return n


def nth_step(card: int, sources: int, empty: int, k: int) -> tuple[int, int]:
    """``_steps(...)[k]`` without listing the steps before it: pawn by pawn, the
    pawn's steps counted on the cells next to it."""
    near = STEP_CELLS[card]
    while True:
        low = sources & -sources
        sources ^= low
        p = low.bit_length() - 1
        n = (empty & near[p]).bit_count()
        if k < n:
            return [move for bit, move in STEPS[card][p] if empty & bit][k]
        k -= n


def _fill_spec(d: tuple[int, int]) -> tuple[int, int, int]:
    """(cells a slide along d may pass, left shift, right shift) for the occluded
    fill of :func:`slide_count`: cells that a step along d would reach by
    wrapping round the board are left out of the empty cells it may pass."""
    dx, dy = d
    keep = ALL & ~(BOARD.file_masks[0] if dx == 1 else
                   BOARD.file_masks[N - 1] if dx == -1 else 0)
    step = dx + N * dy
    return keep, max(step, 0), max(-step, 0)


#: FILLS[card]: the fill specs of a slide card's directions.
FILLS = {c: tuple(_fill_spec(d) for d in info.directions)
         for c, info in CARDS.items() if info.kind == "slide"}


def slide_count(card: int, sources: int, empty: int) -> int:
    """How many slides the pawns ``sources`` have (``len(_slides(...))``): per
    direction, the empty cells the pawns sweep, found all at once by doubling
    steps (the runs of two pawns along one direction never overlap)."""
    n = 0
    for keep, left, right in FILLS[card]:
        gen, pro = sources, empty & keep
        gen |= pro & ((gen << left) >> right)
        pro &= (pro << left) >> right
        gen |= pro & ((gen << 2 * left) >> 2 * right)
        pro &= (pro << 2 * left) >> 2 * right
        gen |= pro & ((gen << 4 * left) >> 4 * right)
        n += (gen ^ sources).bit_count()
    return n


def nth_slide(card: int, occupied: int, sources: int, k: int) -> tuple[int, int]:
    """``_slides(...)[k]`` without listing the slides before it: pawn by pawn and
    ray by ray, each run cut at its first pawn as in :func:`_slides`."""
    table = SLIDES[card]
    while True:
        low = sources & -sources
        sources ^= low
        for mask, rising, moves, index in table[low.bit_length() - 1]:
            block = occupied & mask
            if not block:
                run = len(moves)
            elif rising:
                run = index[(block & -block).bit_length() - 1]
            else:
                run = index[block.bit_length() - 1]
            if k < run:
                return moves[k]
            k -= run


def _jumps(card, own, opp, sources):
    """Short and double jumps: over the enemy pawns next in line, onto an empty cell."""
    empty = ALL & ~(own | opp)
    table = OVER[card]
    out = []
    while sources:                     # a loop, not _bits(): few pawns, in playouts
        low = sources & -sources
        sources ^= low
        for over, bit, move in table[low.bit_length() - 1]:
            if opp & over == over and empty & bit:
                out.append(move)
    return out


def _first(block: int, rising: bool) -> int:
    """The cell of ``block`` met first along a ray (rising: to higher numbers)."""
    return (block & -block).bit_length() - 1 if rising else block.bit_length() - 1


def _long_landing(card: int, p: int, occupied: int, opp: int) -> list:
    """Per ray of a long jump from p: (the ray's moves, first landing, end) when the
    first pawn met is an enemy's (landings are ``moves[first:end]``, maybe none)."""
    found = []
    for mask, rising, moves, index in SLIDES[card][p]:
        block = occupied & mask
        if block:
            hit = (block & -block).bit_length() - 1 if rising else block.bit_length() - 1
            if opp >> hit & 1:
                rest = block ^ (1 << hit)
                found.append((moves, index[hit] + 1,
                              index[_first(rest, rising)] if rest else len(moves)))
    return found


def _long_jumps(card, own, opp, sources):
    """Over the first pawn met, if it is an enemy's, onto any empty cell beyond."""
    occupied = own | opp
    out = []
    while sources:                     # one pawn, in play: the new one or the jumper
        low = sources & -sources
        sources ^= low
        for moves, start, end in _long_landing(card, low.bit_length() - 1, occupied, opp):
            out += moves[start:end]
    return out


def _can_jump(card: int, p: int, own: int, opp: int) -> bool:
    """Whether the pawn on p has a jump of the card (the test of a chain going on, or
    of a red card for the pawn just placed), without listing the jumps."""
    if _KIND[card] == "long":
        return any(start < end for _, start, end in _long_landing(card, p, own | opp, opp))
    empty = ALL & ~(own | opp)
    return any(opp & over == over and empty & bit for over, bit, _ in OVER[card][p])


_KIND = {c: info.kind for c, info in CARDS.items()}
#: Kinds whose moves a playout counts and draws from without listing them.
_COUNTED = frozenset(("slide", "step"))
_GENERATE = {"step": _steps, "slide": _slides, "jump": _jumps, "double": _jumps,
             "long": _long_jumps}
#: Per card: (its move generator, None for card 11; a red card, moving the new pawn).
_PLAN = {c: (_GENERATE.get(info.kind), info.new_only) for c, info in CARDS.items()}


def card_actions(card: int, own: int, opp: int, placed: int | None,
                 jumper: int | None = None) -> list[tuple[int, int]]:
    """The (from, to) moves a card allows, for the player owning ``own``.

    ``placed`` is the pawn put down this turn (the only one the red cards move);
    ``jumper`` the pawn in the middle of a chain of jumps (only it may jump on).
    Card 11 (placements) is not a move: it gives none here.  The moves come by
    source cell, then direction in the card's order, then distance.
    """
    generate, new_only = _PLAN[card]
    if generate is None:
        return []
    if jumper is not None:
        sources = 1 << jumper
    elif new_only:
        sources = 1 << placed if placed is not None and own >> placed & 1 else 0
    else:
        sources = _able(card, own, opp, ALL & ~(own | opp))
    return generate(card, own, opp, sources) if sources else []


def can_act(card: int, own: int, opp: int, placed: int | None,
            jumper: int | None = None) -> bool:
    """Whether :func:`card_actions` gives any move (for a green card, moving any
    pawn, the bit-parallel test alone)."""
    generate, new_only = _PLAN[card]
    if generate is None:
        return False
    if jumper is not None:                 # in play, only the jumps chain
        if _KIND[card] in ("step", "slide"):
            return bool(generate(card, own, opp, 1 << jumper))
        return _can_jump(card, jumper, own, opp)
    if new_only:
        return placed is not None and bool(own >> placed & 1) \
            and _can_jump(card, placed, own, opp)
    empty = ALL & ~(own | opp)             # as _able, but stops at the first hit
    if _KIND[card] == "jump":
        for keep, left, right in BACKS[card]:
            if own & (((opp & (((empty & keep) << left) >> right) & keep) << left) >> right):
                return True
        return False
    for keep, left, right in BACKS[card]:
        if own & (((empty & keep) << left) >> right):
            return True
    return False


#: _SELECT[b][k]: the place of the k-th set bit of a byte.
_SELECT = tuple(tuple(i for i in range(8) if b >> i & 1) for b in range(256))


def nth_cell(mask: int, k: int) -> int:
    """The k-th cell (from 0, lowest first) of a mask, as ``list(_bits(mask))[k]``,
    by halving the mask down to a byte."""
    shift = 0
    low = mask & 0xFFFFFFFF
    c = low.bit_count()
    if k >= c:
        k -= c
        mask >>= 32
        shift = 32
    else:
        mask = low
    low = mask & 0xFFFF
    c = low.bit_count()
    if k >= c:
        k -= c
        mask >>= 16
        shift += 16
    else:
        mask = low
    low = mask & 0xFF
    c = low.bit_count()
    if k >= c:
        return shift + 8 + _SELECT[(mask >> 8) & 0xFF][k - c]
    return shift + _SELECT[low][k]


def _shift(mask: int, d: tuple[int, int]) -> int:
    """Each cell of a mask moved one step along d (cells leaving the board dropped)."""
    dx, dy = d
    if dx == 1:
        mask &= ~BOARD.file_masks[N - 1]
    elif dx == -1:
        mask &= ~BOARD.file_masks[0]
    step = dx + N * dy
    return (mask << step if step > 0 else mask >> -step) & ALL


#: Per alignment, the shifters one step along it and back (see :func:`_shifter`).
_FRAMES = tuple((_shifter(d), _shifter((-d[0], -d[1]))) for d in AXES)


def framed(own: int, empty: int) -> list[int]:
    """For each alignment (row, column, two diagonals), the empty cells with a
    pawn of ``own`` on both sides: a cell counts once in each alignment.  (The
    shifters leave bits past the board's top, which ``empty`` clears.)"""
    return [empty & ((own & k1) << l1) >> r1 & ((own & k2) << l2) >> r2
            for (k1, l1, r1), (k2, l2, r2) in _FRAMES]


def frame_count(own: int, empty: int) -> int:
    return sum(m.bit_count() for m in framed(own, empty))


def framers(own: int, empty: int) -> int:
    """The pawns of ``own`` that frame some empty cell."""
    out = 0
    for d, cells in zip(AXES, framed(own, empty)):
        out |= _shift(cells, d) | _shift(cells, (-d[0], -d[1]))
    return out & own


#: Steps of a turn, beyond the placement that opens it.
PLACING, ACTING, MORE, OWED = "place", "act", "more", "owed"


@dataclass(frozen=True)
class ImbriquaState(State):
    """``deck``: the first pile's ten shuffled cards in order (0 for a card the
    observer has not seen); ``opened``: opening pawns placed; ``turn``: the turn
    under way (0-43; 44 once over); ``step``: place (the turn's pawn), act (the
    card's action), more (an optional further jump, or card 11's second pawn),
    owed (the card could not be applied: the opponent removes a pawn);
    ``placed``: the pawn placed this turn; ``jumper``: the pawn jumping on;
    ``ply``: actions by players so far."""
    deck: tuple = ()
    opened: int = 0
    turn: int = 0
    step: str = PLACING
    placed: int | None = None
    jumper: int | None = None
    ply: int = 0

    @property
    def card(self) -> int | None:
        """The card turned this turn (None before it is turned or when unseen)."""
        if self.step == PLACING or self.turn >= TURNS or len(self.deck) < PILE - 1:
            return None
        return card_at(self.deck, self.turn) or None


_PLACE = {c: tuple(Move.make(PLACE, p, c, board=BOARD) for p in range(N * N)) for c in (1, 2)}
_REMOVE = tuple(Move.make(REMOVE, p, board=BOARD) for p in range(N * N))
_PASS = Move.make(PASS, board=BOARD)
_DRAW = {c: Move.make(CHOOSE, value=c, board=BOARD) for c in SHUFFLED}
_MOVES: dict = {}


def _move(p: int, q: int) -> Move:
    move = _MOVES.get((p, q))
    if move is None:
        move = _MOVES[p, q] = Move.make(MOVE, p, None, q, board=BOARD)
    return move


def revealed(state: ImbriquaState) -> int:
    """How many cards of the first pile have been turned face up so far."""
    if len(state.deck) < PILE - 1:
        return 0
    seen = state.turn + (state.step != PLACING)
    return min(seen, PILE - 1)


@register
class Imbriqua(Game):
    info = GameInfo(
        name="Imbriqua", designer="unknown (published by Quoludis)", year="unknown",
        family="Companion", source="Imbriqua (companion game, seed 002)",
        summary="Frame empty cells between your pawns on an 8x8 grid; a deck of eleven "
                "action cards moves and captures.",
        complexity=3, aliases=("imbriqua",), chance=True, hidden_information=True,
        hidden_from_all=True,
        # a true bound: 8 opening pawns, 44 turn pawns, 8 more from card 11, one first
        # action on each of the other 40 turns, at most 60 further jumps (each takes
        # one of the 60 pawns ever placed) and 40 passes ending chains
        max_length=200)
    parameters = {"opening": 4}
    board = BOARD
    player_names = ("Light", "Dark")
    rules = """\
Imbriqua is played on an 8x8 grid (files a-h, ranks 1-8) by Light, who starts, and
Dark, each with as many pawns as needed. There are eleven action cards. Card 11,
"two more pawns", is set aside; the other ten are shuffled face down into a pile,
and card 11 goes underneath it. Nobody knows the order of the pile.

Opening: the players place four pawns in all, one at a time in turn (Light, Dark,
Light, Dark), on any empty cells.

Then the players take turns, Light first. A turn is:
1. Place one of your pawns on an empty cell that is not on the edge of the board
   (an edge cell only when every inner cell is full).
2. Turn over the top card of the pile.
3. Do what it says. The action is compulsory: if you cannot do it, your opponent
   removes one of your pawns (any one) from the board instead.
4. Put the card face down on a discard pile. When the pile runs out, the discard
   pile becomes the new pile, so each pile comes in the reverse order of the one
   before: the last card of one pile is the first of the next.
The game ends when the fourth pile runs out: 44 turns, 22 each. Card 11 comes up
at turns 11, 12, 33 and 34, and every card is applied exactly twice by each player.

The cards (steps and slides move onto empty cells; a jump lands on an empty cell
on the same line and removes the enemy pawns jumped over):
- Orthogonal step / Diagonal step: move one of your pawns one cell along a row or
  column / diagonally.
- Orthogonal slide / Diagonal slide: move one of your pawns any number of cells in
  one straight line along a row or column / a diagonal, through empty cells.
- Orthogonal jump / Diagonal jump: one of your pawns jumps an enemy pawn next to it
  (along a row or column / diagonally) to the empty cell just beyond it.
- Long orthogonal jump / Long diagonal jump: the pawn you placed this turn jumps
  along a row or column / a diagonal over one enemy pawn at any distance: the cells
  before it must be empty, and it lands on any empty cell beyond it, all the cells
  between also empty.
- Double orthogonal jump / Double diagonal jump: the pawn you placed this turn
  jumps two enemy pawns standing in a row next to it, landing just beyond them.
- Two more pawns: place two more pawns, on any empty cells (the edge allowed).
After an orthogonal, diagonal or long jump, the same pawn may go on jumping, as
many times as you like and the card allows (stop whenever you want, "pass"). A
double jump is never repeated. The steps, slides and short jumps may move any of
your pawns (the new one too); the long and double jumps only the new one.

Score: an empty cell is framed by you along a row, a column or a diagonal when your
pawns stand on the two cells next to it on that line. A cell counts once for each
line along which you frame it (up to four). The player framing more wins; if both
frame as many, the player with more pawns on the board wins; otherwise it is a draw.

Variant (the opening parameter): four opening pawns each instead of four in all.

Notation: Light's pawns are written W and Dark's B (Wd4 places a light pawn on d4);
c3-e5 moves or jumps the pawn on c3 to e5; xd4 removes the pawn on d4; pass stops a
chain of jumps."""
    notes = """\
- The source is the designer's web page (quoludis.fr), with a sheet of tiles to cut out;
  do not confuse it with the designer's sister game Imbriquation (nine tiles, five
  rounds, territory). The two lost figures are an illustration of framing and a scoring
  example (light 3, dark 4); our worked examples rebuild both kinds of position.
- "The two players begin by placing 4 pawns ... alternately, one by one": four in all
  (two each) or four each? We read four in all: the sentence counts the pawns the two
  players place together ("these pawns", one by one in turn), and the sister game by the
  same designer opens each round with "the first 4 pawns" placed the same way, clearly a
  total. Four each is the option opening=8. The opening pawns may go on edge cells (the
  text says "cells of their choice"; the edge ban is stated only for the turn's pawn).
- The edge ban: the turn's pawn may not go on one of the 28 edge cells unless no inner
  cell is empty. Moves and jumps may end on the edge, and card 11's pawns may go there
  (the text says so).
- Who starts: the players agree; we call the first player Light. After the opening
  (an even number of pawns) Light takes the first turn.
- The deck: ten cards shuffled, card 11 at the bottom; the discard pile, turned over,
  runs in the reverse order, so the four piles are the order, its reverse, the order,
  its reverse, each followed or led by card 11. Derived (and tested): card 11 comes at
  turns 11, 12, 33 and 34, to Light, Dark, Light, Dark, and each card comes twice to
  each player. The text lays the discarded cards face down; but each was turned in full
  view, so the order of piles 2-4 is known to a player with a good memory. We tell both
  players (the board shows the next card once it is known) and hide only what no one
  has seen: the order of the first pile's cards still face down. The engine deals that
  order at the start as ten chance draws, hidden from both players until the game ends;
  the computer player never looks at it (it searches orders drawn from the cards not yet
  seen).
- Card colours: the text prints the long and double jumps on red (only the pawn placed
  this turn may do them) and the others on green (any of the player's pawns, the new one
  included). The texts of the four red cards indeed say "the last pawn placed".
- Compulsory action: if no legal way to apply the card exists, the opponent removes one
  of the player's pawns, any one they choose (the new pawn included). Card 11 can always
  be applied: at most 4 + 44 + 8 = 56 pawns are ever placed on 64 cells.
- Steps and slides go onto empty cells only (a move never captures; only jumps do). A
  slide moves at least one cell and stops anywhere before the first pawn in its way.
- Chained jumps: "one or more new jumps (not compulsory) may be made from the landing
  cell if the conditions still hold": the same pawn, with the same card's jump (an
  orthogonal jump chains orthogonal jumps, and so on), in any direction the card allows;
  each jump is one action and "pass" stops the chain; it stops by itself when no jump is
  left. Jumped pawns leave at once, so a later jump may cross their cells.
- The long jump: "at least one enemy pawn" with all crossed cells empty but the jumped
  one: exactly one enemy pawn is jumped in one jump (a second pawn on the line would be a
  crossed cell that is not empty); "at least one" is the chain. The landing cell is any
  empty cell beyond, before the next pawn.
- The double jump: two enemy pawns side by side, the first next to the jumping pawn, the
  landing cell just beyond the second.
- Framing: "a pawn on each side of the cell in the same line": the two cells next to it,
  so a framed cell has two pawns of the player as its neighbours along a row, a column or
  a diagonal. Edge cells can be framed along the edge. A cell framed along two lines
  counts twice (the text), and a cell may be framed by both players along different
  lines (it counts for both).
- Ties: the text breaks an equal count with the number of pawns on the board; if that is
  equal too the text says nothing: a draw.
- The tile edition (the page's "VERSION TUILES"): the cards are tiles laid in a row and
  turned from left to right, each row played in reverse order of the one before, four
  rows in all. It is the same game, with the same order of actions; only the material
  differs.
- Name and designer: the seed names the publisher's site only (Quoludis); no designer
  name or year was found."""

    def __init__(self, **params) -> None:
        super().__init__(**params)
        opening = self.params["opening"]
        if opening not in (4, 8):
            raise UnknownGameError(f"Imbriqua opening is 4 (pawns in all) or 8 (four each), "
                                   f"not {opening!r}")
        self.opening = opening

    # -- the start and chance -------------------------------------------------
    def initial_state(self, rng: random.Random | None = None) -> ImbriquaState:
        return ImbriquaState(position=BOARD.empty_position())

    def current_player(self, state) -> int:
        if state.result is not None:
            return TERMINAL
        if len(state.deck) < PILE - 1:
            return CHANCE
        return state.to_move

    def chance_outcomes(self, state) -> list[tuple[Move, float]]:
        """The next card of the shuffled pile: any card not yet dealt, alike."""
        left = [c for c in SHUFFLED if c not in state.deck]
        return [(_DRAW[c], 1 / len(left)) for c in left]

    def length(self, state) -> int:
        return state.ply

    # -- moves -----------------------------------------------------------------
    def legal_moves(self, state, player: int | None = None) -> list[Move]:
        if state.result is not None or len(state.deck) < PILE - 1:
            return []
        pos, me = state.position, state.to_move
        empty = ALL & ~pos.occupied
        if state.step == OWED:                    # remove a pawn of the player who failed
            return [_REMOVE[p] for p in _bits(pos.stones[2 - me])]
        if state.step == PLACING:
            if state.opened < self.opening:
                cells = empty
            else:
                cells = empty & INNER or empty
            return [_PLACE[me + 1][p] for p in _bits(cells)]
        card = card_at(state.deck, state.turn)
        if card == LAST_CARD:
            return [_PLACE[me + 1][p] for p in _bits(empty)]
        own, opp = pos.stones[me + 1], pos.stones[2 - me]
        moves = [_move(p, q) for p, q in card_actions(card, own, opp, state.placed,
                                                      state.jumper)]
        if state.step == MORE:
            moves.append(_PASS)
        return moves

    def apply(self, state, move: Move) -> ImbriquaState:
        if move.kind == CHOOSE:
            return dataclasses.replace(state, deck=state.deck + (move.value,), last=move)
        pos, me = state.position, state.to_move
        stones = list(pos.stones[1:])
        ply = state.ply + 1
        if move.kind == PASS:
            return self._end_turn(state, pos, ply, move)
        if move.kind == REMOVE:
            stones[1 - me] &= ~(1 << move.point)
            return self._end_turn(state, pos.replace(stones=stones), ply, move)
        if move.kind == PLACE:
            stones[me] |= 1 << move.point
            pos = pos.replace(stones=stones)
            if state.opened < self.opening:
                opened = state.opened + 1
                return dataclasses.replace(state, position=pos, opened=opened,
                                           to_move=opened % 2, ply=ply, last=move)
            if state.step == PLACING:
                return self._turn_card(state, pos, move.point, ply, move)
            if state.step == ACTING:               # card 11: the first of two pawns
                return dataclasses.replace(state, position=pos, step=MORE, ply=ply,
                                           last=move)
            return self._end_turn(state, pos, ply, move)
        # a move or a jump: the pawns jumped over are the enemy pawns it crosses
        p, q = move.point, move.target
        stones[me] ^= (1 << p) | (1 << q)
        stones[1 - me] &= ~BETWEEN[p][q]
        pos = pos.replace(stones=stones)
        card = card_at(state.deck, state.turn)
        placed = q if state.placed == p else state.placed
        if card in CHAINS and can_act(card, stones[me], stones[1 - me], placed, q):
            return dataclasses.replace(state, position=pos, step=MORE, placed=placed,
                                       jumper=q, ply=ply, last=move)
        return self._end_turn(state, pos, ply, move)

    def _turn_card(self, state, pos: GridPosition, placed: int, ply: int,
                   move: Move) -> ImbriquaState:
        """The turn's pawn is down: the card is turned; if it cannot be applied,
        the opponent is to remove a pawn."""
        me = state.to_move
        card = card_at(state.deck, state.turn)
        state = dataclasses.replace(state, position=pos, step=ACTING, placed=placed,
                                    ply=ply, last=move)
        if card != LAST_CARD and not can_act(card, pos.stones[me + 1], pos.stones[2 - me],
                                             placed):
            state = dataclasses.replace(state, step=OWED, to_move=1 - me)
        return state

    def _end_turn(self, state, pos: GridPosition, ply: int, move: Move) -> ImbriquaState:
        turn = state.turn + 1
        state = dataclasses.replace(state, position=pos, turn=turn, to_move=turn % 2,
                                    step=PLACING, placed=None, jumper=None, ply=ply,
                                    last=move)
        if turn == TURNS:
            state = dataclasses.replace(state, result=self.judge(pos))
        return state

    # -- fast random games ----------------------------------------------------------
    def random_playout(self, state, rng: random.Random) -> ImbriquaState:
        """Uniformly random actions to the end, on bare masks: the same choices, in
        the same order and with the same draws, as ``chance_outcomes``,
        ``legal_moves`` and ``random_step``, so the very games of the generic loop
        (the AI's search runs this).  One pass of the loop is one turn."""
        if state.result is not None:
            return state
        rnd = rng.random
        deck = dealt(state.deck, rnd)
        if len(deck) > len(state.deck):
            last = _DRAW[deck[-1]]
        else:
            last = state.last
        stones = list(state.position.stones[1:])
        opened, turn, step, ply = state.opened, state.turn, state.step, state.ply
        placed, jumper, moves = state.placed, state.jumper, None
        while opened < self.opening:                   # the opening: any empty cell
            me = opened % 2
            empty = ALL & ~(stones[0] | stones[1])
            p = nth_cell(empty, int(rnd() * empty.bit_count()))
            stones[me] |= 1 << p
            opened, ply, last = opened + 1, ply + 1, _PLACE[me + 1][p]
        pile = deck + (LAST_CARD,)                     # card_at for every turn
        cards = (pile + pile[::-1]) * (PILES // 2)
        kinds = [_KIND[c] for c in cards]
        while turn < TURNS:
            me, card = turn % 2, cards[turn]
            own, opp = stones[me], stones[1 - me]
            if step == PLACING:                        # the turn's pawn, off the edge
                empty = ALL & ~(own | opp)
                cells = empty & INNER or empty
                placed = nth_cell(cells, int(rnd() * cells.bit_count()))
                own |= 1 << placed
                ply += 1
                # the card turned: _turn_card's step, can_act being "the card
                # has moves" (listed once here for _act; steps and slides are
                # counted below instead, so only tested here)
                if card == LAST_CARD:
                    step = ACTING
                elif kinds[turn] in _COUNTED:
                    step = ACTING if can_act(card, own, opp, placed) else OWED
                else:
                    moves = card_actions(card, own, opp, placed)
                    step = ACTING if moves else OWED
            if step == OWED:                           # the opponent removes a pawn
                p = nth_cell(own, int(rnd() * own.bit_count()))
                own &= ~(1 << p)
                ply, last = ply + 1, _REMOVE[p]
            elif card == LAST_CARD:                    # two more pawns, anywhere
                for _ in range(1 + (step == ACTING)):
                    empty = ALL & ~(own | opp)
                    p = nth_cell(empty, int(rnd() * empty.bit_count()))
                    own |= 1 << p
                    ply, last = ply + 1, _PLACE[me + 1][p]
            elif kinds[turn] in _COUNTED:              # counted, not listed (no chain)
                empty = ALL & ~(own | opp)
                sources = _able(card, own, opp, empty)
                if kinds[turn] == "slide":
                    k = int(rnd() * slide_count(card, sources, empty))
                    p, q = nth_slide(card, own | opp, sources, k)
                else:
                    p, q = nth_step(card, sources, empty,
                                    int(rnd() * step_count(card, own, empty)))
                own ^= 1 << p | 1 << q
                ply, last = ply + 1, (p, q)
            else:
                own, opp, ply, last = self._act(card, own, opp, placed, jumper, step,
                                                ply, rnd, moves)
            stones[me], stones[1 - me] = own, opp
            turn, step, placed, jumper, moves = turn + 1, PLACING, None, None, None
        if type(last) is tuple:
            last = _move(*last)
        pos = GridPosition(BOARD, stones)
        return ImbriquaState(pos, turn % 2, self.judge(pos), last, deck, opened, turn,
                             PLACING, None, None, ply)

    @staticmethod
    def _act(card, own, opp, placed, jumper, step, ply, rnd, moves=None):
        """A jump card's action (short, long or double), and the jumps chained after
        it, drawn as ``random_step`` draws: (own, opp, ply, last move) at the end of
        the turn, the last move a pass or (from, to) (made a Move only if it ends
        the game).  ``moves``: the card's moves when already listed."""
        if moves is None:
            moves = card_actions(card, own, opp, placed, jumper)
        while True:
            n = len(moves)
            k = int(rnd() * (n + (step == MORE)))
            ply += 1
            if k == n:                                 # pass: the chain stops
                return own, opp, ply, _PASS
            p, q = moves[k]
            own ^= 1 << p | 1 << q
            opp &= ~BETWEEN[p][q]
            if placed == p:
                placed = q
            if card not in CHAINS:
                return own, opp, ply, (p, q)
            # the chain goes on while the jumper has a jump (can_act's test)
            moves = card_actions(card, own, opp, placed, q)
            if not moves:
                return own, opp, ply, (p, q)
            step = MORE

    # -- the end -----------------------------------------------------------------
    def scores(self, pos: GridPosition) -> tuple[int, int]:
        """Cells framed by Light and by Dark (a cell once per alignment)."""
        empty = ALL & ~pos.occupied
        return frame_count(pos.stones[1], empty), frame_count(pos.stones[2], empty)

    def judge(self, pos: GridPosition) -> Outcome:
        light, dark = self.scores(pos)
        pawns = (pos.stones[1].bit_count(), pos.stones[2].bit_count())
        if light != dark:
            winner = 0 if light > dark else 1
            return Outcome((winner,), f"framed cells {light} to {dark}", (light, dark))
        if pawns[0] != pawns[1]:
            winner = 0 if pawns[0] > pawns[1] else 1
            return Outcome((winner,), f"framed cells {light} each; pawns {pawns[0]} to "
                                      f"{pawns[1]}", (light, dark))
        return Outcome((), f"framed cells {light} each and pawns {pawns[0]} each",
                       (light, dark))

    def winning_points(self, state) -> int:
        """The winner's pawns that frame a cell."""
        result = state.result
        if result is None or not result.winners:
            return 0
        pos = state.position
        return framers(pos.stones[result.winners[0] + 1], ALL & ~pos.occupied)

    # -- hidden information: the order of the cards still face down ------------
    def observe(self, state, player: int) -> ImbriquaState:
        """Both players see the same: every card turned so far, and the set (not
        the order) of the first pile's cards still face down."""
        if state.result is not None:
            return state
        seen = revealed(state)
        deck = state.deck[:seen] + (0,) * (len(state.deck) - seen)
        last = None if state.last is not None and state.last.kind == CHOOSE else state.last
        return dataclasses.replace(state, deck=deck, last=last)

    def determinise(self, observation, player: int, rng: random.Random) -> ImbriquaState:
        """A full state: the unseen cards of the first pile in a random order."""
        deck = list(observation.deck)
        unseen = [c for c in SHUFFLED if c not in deck]
        rng.shuffle(unseen)
        for i, c in enumerate(deck):
            if c == 0:
                deck[i] = unseen.pop()
        return dataclasses.replace(observation, deck=tuple(deck))

    # -- symmetry ----------------------------------------------------------------
    def transform_state(self, state, perm: tuple[int, ...]) -> ImbriquaState:
        moved = super().transform_state(state, perm)
        return dataclasses.replace(
            moved, placed=None if state.placed is None else perm[state.placed],
            jumper=None if state.jumper is None else perm[state.jumper])

    # -- words -------------------------------------------------------------------
    def status_lines(self, state) -> list[str]:
        pos = state.position
        light, dark = self.scores(pos)
        pawns = (pos.stones[1].bit_count(), pos.stones[2].bit_count())
        lines = [f"Framed cells: Light {light}, Dark {dark}; pawns on the board: "
                 f"Light {pawns[0]}, Dark {pawns[1]}."]
        if state.result is not None:
            return lines
        if len(state.deck) < PILE - 1:
            return ["The ten cards are being shuffled."] + lines
        if state.opened < self.opening:
            return [f"Opening: pawn {state.opened + 1} of {self.opening}, on any empty "
                    "cell."] + lines
        turn = state.turn
        head = f"Turn {turn + 1} of {TURNS} (pile {turn // PILE + 1} of {PILES})."
        card = state.card
        mover = self.player_name(turn % 2)
        if state.step == PLACING:
            lines.insert(0, f"{head} {mover} places a pawn off the edge (on the edge only "
                            "when the inner cells are full), then turns a card.")
        elif card is not None:
            info = CARDS[card]
            doing = {ACTING: f"{mover} must {info.words}.",
                     MORE: ("place the second pawn." if card == LAST_CARD
                            else f"{mover} may jump again with the same pawn, or pass."),
                     OWED: f"{mover} cannot; {self.player_name(1 - turn % 2)} removes one "
                           f"of {mover}'s pawns."}[state.step]
            if state.step == MORE and card == LAST_CARD:
                doing = f"{mover} places the second pawn."
            lines.insert(0, f"{head} Card: {info.name}. {doing}")
        lines.append(self._coming(state))
        return lines

    def _coming(self, state) -> str:
        """What players know of the cards to come."""
        seen = revealed(state)
        nxt = state.turn + (state.step != PLACING)
        if nxt >= TURNS:
            return "This is the last card."
        if nxt < PILE - 1:
            hidden = sorted(c for c in SHUFFLED if c not in state.deck[:seen])
            return (f"Still face down in the first pile, in an order no one knows: "
                    f"{', '.join(CARDS[c].name for c in hidden)}; then two more pawns.")
        return f"Next card: {CARDS[card_at(state.deck, nxt)].name}."

    def describe(self, state) -> str:
        """The board, the last move and the result or the player to move (the
        front ends add :meth:`status_lines`; the state's fields stay out, since
        they would name the hidden cards)."""
        lines = [state.position.diagram()]
        if state.last is not None and state.last.kind != CHOOSE:
            lines.append(f"Last move: {state.last.text()}")
        outcome = self.outcome(state)
        if outcome is not None:
            names = " and ".join(self.player_name(p) for p in outcome.winners)
            lines.append(f"Game over: {names + ' won' if names else 'draw'}. {outcome.reason}")
        elif self.current_player(state) >= 0:
            lines.append(f"{self.player_name(self.current_player(state))} to move.")
        return "\n".join(lines)

    # -- state text ----------------------------------------------------------------
    def extra_text(self, state) -> str:
        deck = "".join(CARDS[c].letter if c else "?" for c in state.deck)
        fields = [f"deck={deck}" if deck else "", f"opened={state.opened}",
                  f"turn={state.turn}" if state.turn else "",
                  "" if state.step == PLACING else state.step,
                  f"placed={BOARD.name(state.placed)}" if state.placed is not None else "",
                  f"jumper={BOARD.name(state.jumper)}" if state.jumper is not None else "",
                  f"ply={state.ply}" if state.ply else ""]
        return " ".join(f for f in fields if f)

    def state_from(self, position, to_move, extras) -> ImbriquaState:
        name = self.info.name
        rest, deck = [], ()
        cells = {"placed": None, "jumper": None}
        for token in extras.split():
            key, eq, value = token.partition("=")
            if key == "deck" and eq:
                if deck or len(value) > PILE - 1 or len(set(value)) != len(value) \
                        or any(ch not in _BY_LETTER or _BY_LETTER[ch] == LAST_CARD
                               for ch in value):
                    raise NotationError(f"{name} state field {shown(token)}: the first pile "
                                        "is up to ten different letters A-J")
                deck = tuple(_BY_LETTER[ch] for ch in value)
            elif key in cells and eq and cells[key] is None:
                cells[key] = BOARD.parse_point(value)     # grid cells, read here
            else:
                rest.append(token)
        fields = read_fields(self, " ".join(rest), numbers=("opened", "turn", "ply"),
                             flags=(ACTING, MORE, OWED))
        steps = [s for s in (ACTING, MORE, OWED) if fields[s]]
        if len(steps) > 1:
            raise NotationError(f"{name} state: at most one of act, more, owed")
        step = steps[0] if steps else PLACING
        opened, turn, ply = fields["opened"], fields["turn"], fields["ply"]
        problem = self._inconsistent(position, to_move, deck, opened, turn, step, ply,
                                     cells["placed"], cells["jumper"])
        if problem:
            raise NotationError(f"{name} state {shown(extras)}: {problem}")
        state = ImbriquaState(position, to_move, None, None, deck, opened, turn, step,
                              cells["placed"], cells["jumper"], ply)
        if turn == TURNS:
            state = dataclasses.replace(state, result=self.judge(position))
        return state

    def _inconsistent(self, pos, to_move, deck, opened, turn, step, ply, placed,
                      jumper) -> str:
        """What is wrong with a state's fields, or '' when they fit together."""
        if not isinstance(pos, GridPosition) or pos.grid is not BOARD or pos.chasms \
                or pos.characters or any(pos.pawns):
            return "the position is stones on the 8x8 grid"
        if len(deck) < PILE - 1 and (opened or turn or ply or step != PLACING):
            return "play starts once the ten cards are dealt"
        if not 0 <= opened <= self.opening or (opened < self.opening and
                                               (turn or step != PLACING)):
            return f"opened is 0-{self.opening}, and turns start after the opening"
        if not 0 <= turn <= TURNS or (turn == TURNS and step != PLACING):
            return f"turn is 0-{TURNS}"
        mover = (opened % 2) if opened < self.opening else turn % 2
        if to_move != (1 - mover if step == OWED else mover):
            return "that player is not the one to move"
        card = card_at(deck, turn) if len(deck) == PILE - 1 and turn < TURNS else None
        if (step == PLACING) != (placed is None) or step == PLACING and jumper is not None:
            return "placed= is the turn's pawn, given once it is down"
        if placed is not None and not pos.stones[mover + 1] >> placed & 1 \
                and not (step == OWED):
            return "the turn's pawn is not on its cell"
        if (jumper is not None) != (step == MORE and card != LAST_CARD):
            return "jumper= is given during a chain of jumps, and only then"
        if step == MORE and card not in CHAINS and card != LAST_CARD:
            return "a further action only follows a jump that chains or card 11"
        if step in (ACTING, MORE) and card != LAST_CARD and not card_actions(
                card, pos.stones[mover + 1], pos.stones[2 - mover], placed, jumper):
            return "the card cannot be applied here (the state is owed, or the chain over)"
        if not 0 <= ply <= self.info.max_length:
            return f"ply is 0-{self.info.max_length}"
        return ""


__all__ = ["Imbriqua", "ImbriquaState", "BOARD", "CARDS", "INNER", "TURNS", "BETWEEN",
           "card_at", "card_actions", "framed", "frame_count", "framers", "revealed"]
