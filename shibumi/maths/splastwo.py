"""Splastwo solved: perfect play for two players, exhaustively.

Splastwo (``shibumi/games/splastwo.py``) is a take-away game turned upside
down: instead of removing one to three counters from heaps, the players lay
one to three balls in a straight row on one level, and instead of "whoever
takes the last counter wins" the scores come from *finishing* things: 1
point for filling the last hole of the board, of level 1 and of level 2, and
2 points for the apex.  With 5 points in all there are no ties.

What the game reduces to
------------------------
Colours play no part in what can be played next: a position is the set of
filled points, plus how many balls each player still holds.  The points
scored so far only add up, so the best play from a position depends on:

* ``occ``, the filled points (a set closed downwards: a ball above the board
  rests on four balls).  There are only 141,120 such sets;
* the mover's stock and the opponent's stock (they add up to the empty
  points, so one number is enough).

The *value* of a position is the margin the mover can force from there on:
their future points minus the opponent's future points, with perfect play
on both sides (a number from -5 to 5, never 0 at the start).  A move is a
row of one, two or three playable points of one level (orthogonal and
contiguous), no longer than the mover's stock; it scores the level it
completes, if any; if it spends the mover's last ball, the opponent fills
the rest and scores every level still open (the apex included).

:class:`SplastwoSolver` computes values by plain minimax (negamax) over all
moves, remembering every position it has valued, keyed by the smallest image
of the filled points under the 8 symmetries of the square.  The whole game
from the empty board takes a few seconds in pure Python (:func:`solve`);
positions later in the game take milliseconds.

The checks in ``tests/test_maths_splastwo.py`` compare the move generator with
the engine's ball-by-ball turns, and the values with a plain minimax run
on the engine itself (``shibumi.load('splastwo')``) from late positions.
"""

from __future__ import annotations

import time

from ..geometry import (ALL_MASK, APEX, COORDS, LEVEL, LEVEL_MASK, NUM_POINTS, SIZES,
                        point_at, points_of)
from ..notation import point_name
from ..position import playable_mask
from .masks import symmetry_tables

STOCK = 15
LEVEL_POINTS = (1, 1, 1, 2)
#: Highest |value|: all five points.
TOTAL_POINTS = sum(LEVEL_POINTS)


def _runs() -> tuple[tuple[int, int], ...]:
    """Every straight orthogonal run of 1-3 points on one level, as (mask, length)."""
    out = set()
    for lv in range(4):
        n = SIZES[lv]
        for y in range(n):
            for x in range(n):
                for dx, dy in ((1, 0), (0, 1)):
                    pts = []
                    for k in range(3):
                        p = point_at(lv, x + k * dx, y + k * dy)
                        if p is None:
                            break
                        pts.append(p)
                        out.add((sum(1 << q for q in pts), len(pts)))
    return tuple(sorted(out, key=lambda r: (r[1], r[0])))


#: The 92 rows a move may fill: 56 on the board, 27 on level 1, 8 on level 2, the apex.
RUNS = _runs()
_LEVEL_OF_RUN = tuple(LEVEL[(m & -m).bit_length() - 1] for m, _ in RUNS)


def moves(occ: int, stock: int) -> list[int]:
    """The masks of the rows the mover may fill (at most `stock` balls)."""
    pm = playable_mask(occ)
    return [m for m, n in RUNS if n <= stock and m & pm == m]


def score_of_move(occ: int, row: int) -> int:
    """Points for filling `row` in a position `occ` (the level it completes, if any)."""
    lv = LEVEL[(row & -row).bit_length() - 1]
    after = occ | row
    return LEVEL_POINTS[lv] if after & LEVEL_MASK[lv] == LEVEL_MASK[lv] else 0


def open_points(occ: int) -> int:
    """Points of the levels not yet complete: what a player filling the rest scores."""
    return sum(pts for pts, mask in zip(LEVEL_POINTS, LEVEL_MASK) if occ & mask != mask)


_PERM = symmetry_tables()


def canonical(occ: int) -> int:
    """The smallest image of a set of points under the 8 symmetries of the square."""
    lo, hi = occ & 32767, occ >> 15
    return min(a[lo] | b[hi] for a, b in _PERM)


class SplastwoSolver:
    """Exact margins of two-player Splastwo positions (memoised negamax).

    A position is ``(occ, mine, theirs)``: the filled points and the balls the
    mover and the opponent still hold.  Values are the mover's future points
    minus the opponent's.
    """

    def __init__(self) -> None:
        self.table: dict[tuple[int, int], int] = {}
        self._moves: dict[int, tuple[int, ...]] = {}
        self._keys: dict[int, int] = {}
        self.nodes = 0

    def _rows(self, occ: int) -> tuple[int, ...]:
        rows = self._moves.get(occ)
        if rows is None:
            pm = playable_mask(occ)
            rows = self._moves[occ] = tuple(m for m, _ in RUNS if m & pm == m)
        return rows

    def value(self, occ: int, mine: int, theirs: int) -> int:
        """The margin the mover can force (see the module's docstring)."""
        if occ == ALL_MASK:
            return 0
        if mine == 0:                       # cannot happen in play: the fill came first
            return -open_points(occ)
        canon = self._keys.get(occ)
        if canon is None:
            canon = self._keys[occ] = canonical(occ)
        key = (canon, mine)
        got = self.table.get(key)
        if got is not None:
            return got
        self.nodes += 1
        best = -TOTAL_POINTS - 1
        ceiling = open_points(occ)                   # the mover cannot do better than all
        for row in self._rows(occ):
            if row.bit_count() > mine:
                continue
            v = self.move_value(occ, mine, theirs, row)
            if v > best:
                best = v
                if best == ceiling:
                    break
        self.table[key] = best
        return best

    def move_value(self, occ: int, mine: int, theirs: int, row: int) -> int:
        """The margin the mover forces by filling `row` now, then playing perfectly."""
        gain = score_of_move(occ, row)
        after = occ | row
        left = mine - row.bit_count()
        if after == ALL_MASK:
            return gain
        if left == 0:                       # out of balls: the opponent fills the rest
            return gain - open_points(after)
        return gain - self.value(after, theirs, left)

    def move_values(self, occ: int, mine: int, theirs: int) -> dict[int, int]:
        """{row mask: margin} for every legal move."""
        return {row: self.move_value(occ, mine, theirs, row)
                for row in moves(occ, mine)}

    def principal_variation(self, occ: int = 0, mine: int = STOCK,
                            theirs: int = STOCK) -> list[tuple[int, int]]:
        """One line of perfect play: (row mask, points it scores) per move, to the end."""
        line = []
        while occ != ALL_MASK and mine:
            target = self.value(occ, mine, theirs)
            for row in moves(occ, mine):
                if self.move_value(occ, mine, theirs, row) == target:
                    break
            line.append((row, score_of_move(occ, row)))
            occ, mine, theirs = occ | row, theirs, mine - row.bit_count()
        return line


def row_text(row: int) -> str:
    """A row of points as text, e.g. ``'a1-c1-e1'``."""
    return "-".join(point_name(p) for p in points_of(row))


def state_of(state) -> tuple[int, int, int]:
    """(occ, mover's stock, opponent's stock) of an engine state between turns."""
    if state.placed:
        raise ValueError("the mover is in the middle of a row; finish the turn first")
    pos = state.position
    counts = (pos.white.bit_count(), pos.black.bit_count())
    me = state.to_move
    return pos.occupied, STOCK - counts[me], STOCK - counts[1 - me]


def solve(progress=None) -> dict:
    """Solve two-player Splastwo from the empty board.

    Returns ``value`` (White's forced margin: 5 points split, so White's final
    score is ``(5 + value) / 2``), ``winner``, ``first_moves`` (the value of
    one first move per class of symmetric rows), a ``principal_variation``,
    ``positions`` (table entries) and ``seconds``.  `progress` wraps the
    iteration over the first moves (``tqdm.tqdm`` works).
    """
    start = time.perf_counter()
    solver = SplastwoSolver()
    classes = {}
    for row in moves(0, STOCK):
        classes.setdefault(canonical(row), row)
    reps = sorted(classes.values(), key=lambda r: (r.bit_count(), r))
    first = {}
    for row in (progress(reps) if progress is not None else reps):
        first[row_text(row)] = solver.move_value(0, STOCK, STOCK, row)
    value = solver.value(0, STOCK, STOCK)
    assert value == max(first.values())
    pv = solver.principal_variation()
    return {
        "value": value,
        "winner": "White" if value > 0 else "Black",
        "white_points": (TOTAL_POINTS + value) // 2,
        "first_moves": first,
        "principal_variation": [(row_text(r), s) for r, s in pv],
        "positions": len(solver.table),
        "nodes": solver.nodes,
        "seconds": round(time.perf_counter() - start, 2),
        "solver": solver,
    }


# ---------------------------------------------------------------------------
# Why Black wins: the apex goes to whoever spends their last ball second.

def singles_keep_apex() -> bool:
    """Whether Black, by playing one ball every turn, always makes White the
    first to run out of balls, whatever rows White plays (and so, by the
    argument below, always takes the apex).

    The apex goes to the player who is *not* the first to spend all 15
    balls: the apex is the 30th ball (it rests on all the others), the two
    stocks together are exactly 30 balls, and the game ends either with the
    pyramid full or when one player runs out, in which case the other fills
    the rest, the apex included.  (``tests/test_maths_splastwo.py`` also
    checks this on engine games.)  Here every way White can split 15 balls
    into rows of 1-3 is replayed against Black's single balls, White moving
    first.
    """
    from functools import lru_cache

    @lru_cache(None)
    def white_out_first(w: int, b: int) -> bool:
        """White to move with w balls, Black holding b."""
        for n in range(1, min(3, w) + 1):
            if w - n == 0:
                continue                      # White has just run out first
            if b - 1 == 0:
                return False                  # Black ran out first
            if not white_out_first(w - n, b - 1):
                return False
        return True

    return white_out_first(STOCK, STOCK)


def second_player_singles(level: int | None = None) -> bool:
    """Whether Black, playing one ball every turn, can force completing
    `level` (0 board, 1, 2) or, with ``None``, at least one of the three
    lower levels, whatever White does.  (Exhaustive, memoised.)"""
    from functools import lru_cache
    targets = [LEVEL_MASK[level]] if level is not None else list(LEVEL_MASK[:3])

    def open_targets(occ):
        return [m for m in targets if occ & m != m]

    @lru_cache(None)
    def black_gets(occ: int, w: int, b: int, white_to_move: bool) -> bool:
        # Invariant: Black has completed none of the targets yet; those already
        # full were completed by White.
        stock = w if white_to_move else b
        for row in moves(occ, stock):
            if not white_to_move and row.bit_count() > 1:
                continue
            after = occ | row
            w2, b2 = (w - row.bit_count(), b) if white_to_move else (w, b - row.bit_count())
            newly = any(after & m == m and occ & m != m for m in targets)
            if newly and not white_to_move:
                r = True
            elif not open_targets(after):
                r = False
            elif (w2 if white_to_move else b2) == 0:
                r = white_to_move        # the other player fills every open level
            else:
                r = black_gets(after, w2, b2, not white_to_move)
            if white_to_move and not r:
                return False
            if not white_to_move and r:
                return True
        return white_to_move

    return black_gets(0, STOCK, STOCK, True)


def level_race(level: int) -> bool:
    """Whether Black, with any rows, can force completing this one lower level
    (ignoring the others and the apex).  Slow for the board (~25 s)."""
    from functools import lru_cache
    target = LEVEL_MASK[level]

    @lru_cache(None)
    def black_gets(occ: int, w: int, b: int, white_to_move: bool) -> bool:
        stock = w if white_to_move else b
        for row in moves(occ, stock):
            after = occ | row
            if after & target == target:
                r = not white_to_move
            else:
                w2, b2 = (w - row.bit_count(), b) if white_to_move else (w, b - row.bit_count())
                if (w2 if white_to_move else b2) == 0:
                    r = white_to_move
                else:
                    r = black_gets(after, w2, b2, not white_to_move)
            if white_to_move and not r:
                return False
            if not white_to_move and r:
                return True
        return white_to_move

    return black_gets(0, STOCK, STOCK, True)
