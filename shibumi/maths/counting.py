"""Counting positions: stable fillings of the pyramid, coloured positions, symmetry classes.

A *filling* is a set of occupied points that can stand on its own: every ball
above the board rests on the four balls beneath it, so the set is closed under
"needs its supporters".  A *position* is a filling with a colour on each ball.
This module counts them exactly, for the Shibumi pyramid (base 4, 30 points)
and, for checking, for square pyramids of any small base.

The counts are packed into generating functions.  The *filling polynomial*
``F(x) = sum over fillings S of x^|S|`` has as coefficient of ``x^k`` the number
of fillings with ``k`` balls; ``F(1)`` counts fillings, and because each ball
of a filling can take any of ``c`` colours, ``F(c)`` counts positions with
``c`` colours.  For a symmetry ``g`` of the square, the *fixed polynomial*
``F_g(y) = sum over fillings S with g(S) = S of y^(cycles of g inside S)``
counts the positions that ``g`` leaves unchanged: a coloured filling is fixed
by ``g`` exactly when its occupied set is, and the colour is constant along
each cycle of ``g``.  Burnside's lemma then gives the number of classes under
the eight symmetries as ``(1/8) sum_g F_g(c)`` (:func:`burnside_classes`).

Every count is computed by two or more independent routes:

* :func:`stable_sets` lists the fillings (level by level, each level choosing
  among the points its lower levels support) and
  :func:`polynomial_from_sets` reads ``F`` off the list;
* :func:`filling_polynomial` counts without listing, bottom-up: a dynamic
  programme over levels whose state is the set of points the level below
  makes available (only 2^9 distinct states on level 1);
* :func:`filling_polynomial_topdown` counts top-down: list the stable sets of
  the upper three levels (they need at most their own supporters), and fill
  the board with any superset of the holes they stand on (binomial
  coefficients);
* :func:`filling_polynomial_bruteforce` tests every subset of the points
  (2^30 for the Shibumi pyramid, numpy, a minute or more: a slow test);
* :func:`fixed_polynomial` (from the list) against
  :func:`fixed_polynomial_by_cycles` (building only the invariant fillings,
  level by level out of whole cycles of ``g``);
* :func:`burnside_classes` against :func:`orbits_direct` (one canonical form per
  orbit, on the list of fillings) and, for small pyramids, against
  :func:`coloured_orbits_direct` (every coloured position listed);
  :func:`classes_by_orbits` sums the colour classes orbit by orbit through
  the stabilisers, a second route to the coloured counts of the full pyramid.

numpy is imported here, sympy only inside the functions that return sympy
objects; the engine imports neither.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np

from .. import geometry

__all__ = [
    "Pyramid", "SHIBUMI", "pyramid", "square_pyramidal", "centred_square",
    "stable_sets", "is_stable_mask", "polynomial_from_sets", "filling_polynomial",
    "filling_polynomial_topdown", "filling_polynomial_bruteforce", "evaluate",
    "cycles", "fixed_polynomial", "fixed_polynomial_by_cycles", "fixed_polynomials",
    "burnside_classes", "orbits_direct", "coloured_positions", "coloured_orbits_direct", "classes_by_orbits",
    "filling_series", "summary",
]

#: Names of the eight symmetries, in the order of :data:`shibumi.geometry.SYMMETRIES`.
SYMMETRY_NAMES = geometry.SYMMETRY_NAMES


# ---------------------------------------------------------------------------
# Pyramids
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Pyramid:
    """A complete square pyramid: its points, what each rests on, its symmetries.

    ``coords[p]`` is ``(level, x, y)``; ``supports[p]`` the bit mask of the
    points ``p`` rests on (0 on the board); ``symmetries[i][p]`` the image of
    ``p`` under the i-th symmetry of the square (same order as
    :data:`shibumi.geometry.SYMMETRIES`: identity, three rotations, four mirrors).
    """

    base: int
    coords: tuple[tuple[int, int, int], ...]
    supports: tuple[int, ...]
    symmetries: tuple[tuple[int, ...], ...]

    @property
    def size(self) -> int:
        return len(self.coords)

    @property
    def levels(self) -> tuple[tuple[int, ...], ...]:
        """The points of each level, board first."""
        return tuple(tuple(p for p, c in enumerate(self.coords) if c[0] == lv)
                     for lv in range(self.base))


def _square_maps():
    return (lambda x, y, m: (x, y), lambda x, y, m: (m - y, x),
            lambda x, y, m: (m - x, m - y), lambda x, y, m: (y, m - x),
            lambda x, y, m: (m - x, y), lambda x, y, m: (x, m - y),
            lambda x, y, m: (y, x), lambda x, y, m: (m - y, m - x))


@lru_cache(maxsize=None)
def pyramid(base: int) -> Pyramid:
    """The square pyramid on a ``base`` x ``base`` board, built from first principles.

    Points are numbered as in :mod:`shibumi.geometry` (level by level, row by
    row), so ``pyramid(4)`` has the engine's numbering; the tests check that its
    supports and symmetries are the engine's.
    """
    if not 1 <= base <= 5:
        raise ValueError("base must be 1 to 5 (a filling is kept in a 64-bit integer)")
    coords = tuple((lv, x, y) for lv in range(base)
                   for y in range(base - lv) for x in range(base - lv))
    index = {c: p for p, c in enumerate(coords)}
    supports = tuple(0 if lv == 0 else
                     sum(1 << index[(lv - 1, x + dx, y + dy)] for dx in (0, 1) for dy in (0, 1))
                     for lv, x, y in coords)
    symmetries = tuple(tuple(index[(lv, *f(x, y, base - lv - 1))] for lv, x, y in coords)
                       for f in _square_maps())
    return Pyramid(base, coords, supports, symmetries)


#: The Shibumi pyramid, read from the engine's own tables.
SHIBUMI = Pyramid(4, geometry.COORDS, geometry.SUPPORT_MASK, geometry.SYMMETRIES)


def square_pyramidal(n):
    """The n-th square pyramidal number 1 + 4 + ... + n^2 = n(n+1)(2n+1)/6.

    With an int, an int; with a sympy symbol, the sympy expression."""
    if isinstance(n, int):
        return n * (n + 1) * (2 * n + 1) // 6
    return n * (n + 1) * (2 * n + 1) / 6


def centred_square(n):
    """Balls seen from above on a complete pyramid of base n: n^2 + (n-1)^2.

    (Each ball two levels under another is hidden; what shows is the top level
    of each column of the 7x7 top-view grid: 16 + 9 for n = 4, 25 + 16 for n = 5.)"""
    return n ** 2 + (n - 1) ** 2


# ---------------------------------------------------------------------------
# Fillings
# ---------------------------------------------------------------------------

def is_stable_mask(pyr: Pyramid, mask: int) -> bool:
    """Does every ball of ``mask`` above the board rest on its four supporters?"""
    return all(mask & s == s for p, s in enumerate(pyr.supports) if mask >> p & 1)


def _available(pyr: Pyramid, below: int, level_points) -> list[int]:
    return [p for p in level_points if below & pyr.supports[p] == pyr.supports[p]]


def _subset_masks(points) -> list[int]:
    """All 2^k masks made of the given points (in binary-counting order)."""
    out = [0]
    for p in points:
        bit = 1 << p
        out += [m | bit for m in out]
    return out


def stable_sets(pyr: Pyramid = SHIBUMI) -> np.ndarray:
    """Every filling of the pyramid, as a sorted uint64 array of point masks.

    Level by level: a filling's balls on the levels up to L form a filling of
    those levels, and a point of level L+1 may be added exactly when its four
    supporters are there.  (141,120 fillings for the Shibumi pyramid.)
    """
    sets = [0]
    for level_points in pyr.levels:
        nxt = []
        for s in sets:
            nxt.extend(s | m for m in _subset_masks(_available(pyr, s, level_points)))
        sets = nxt
    return np.sort(np.array(sets, dtype=np.uint64))


def _popcount(a: np.ndarray) -> np.ndarray:
    return np.bitwise_count(a).astype(np.int64)


def polynomial_from_sets(sets: np.ndarray, size: int) -> tuple[int, ...]:
    """Coefficients of F (constant term first) read off a list of fillings."""
    return tuple(int(c) for c in np.bincount(_popcount(sets), minlength=size + 1))


def _add_shifted(acc: list[int], poly, shift: int, times: int = 1):
    for k, c in enumerate(poly):
        acc[k + shift] += times * c


def filling_polynomial(pyr: Pyramid = SHIBUMI) -> tuple[int, ...]:
    """Coefficients of F(x), the filling polynomial, by a dynamic programme over levels.

    ``count(L, A)`` is the polynomial of the fillings of levels L and up when
    the points ``A`` of level L are supported from below: a sum over the
    subsets T of A of ``x^|T|`` times ``count(L+1, points supported by T)``.
    Subsets with the same size and the same supported set are grouped, so the
    2^16 boards of the Shibumi pyramid fall into a few hundred classes.
    """
    levels = pyr.levels
    top = len(levels)

    @lru_cache(maxsize=None)
    def count(level: int, avail: int) -> tuple[int, ...]:
        if level == top:
            return (1,)
        pts = [p for p in levels[level] if avail >> p & 1]
        groups = Counter()
        for t in _subset_masks(pts):
            up = 0
            if level + 1 < top:
                up = sum(1 << q for q in _available(pyr, t, levels[level + 1]))
            groups[(t.bit_count(), up)] += 1
        acc = [0] * (pyr.size + 1)
        for (k, up), times in groups.items():
            _add_shifted(acc, count(level + 1, up), k, times)
        while len(acc) > 1 and acc[-1] == 0:
            acc.pop()
        return tuple(acc)

    poly = list(count(0, sum(1 << p for p in levels[0])))
    return tuple(poly + [0] * (pyr.size + 1 - len(poly)))


def filling_polynomial_topdown(pyr: Pyramid = SHIBUMI) -> tuple[int, ...]:
    """Coefficients of F(x), counted from the top down.

    List the stable sets U of the levels above the board (the board's part
    aside, they only need their own supporters); U stands on the set R of
    board holes under its level-1 balls, and any board B containing R
    completes it.  With h holes and |R| = r, boards of size b are C(h-r, b-r).
    """
    board = pyr.levels[0]
    h = len(board)
    board_mask = sum(1 << p for p in board)
    uppers = [0]
    for level_points in pyr.levels[1:]:
        nxt = []
        for s in uppers:
            # board supporters are taken as present here; they are counted below
            below = s | board_mask
            nxt.extend(s | m for m in _subset_masks(_available(pyr, below, level_points)))
        uppers = nxt
    acc = [0] * (pyr.size + 1)
    for u in uppers:
        needed = 0
        for p in pyr.levels[1] if len(pyr.levels) > 1 else ():
            if u >> p & 1:
                needed |= pyr.supports[p]
        r, k = needed.bit_count(), u.bit_count()
        for b in range(r, h + 1):
            acc[k + b] += math.comb(h - r, b - r)
    return tuple(acc)


def filling_polynomial_bruteforce(pyr: Pyramid = SHIBUMI, chunk_bits: int = 24,
                                  progress=None) -> tuple[int, ...]:
    """Coefficients of F(x) by testing every one of the 2^n subsets of the points (numpy).

    For the Shibumi pyramid that is 2^30 subsets in 64 chunks of 2^24, a
    minute or more (five on a busy machine): the slow test runs it.
    """
    n = pyr.size
    chunk_bits = min(chunk_bits, n)
    raised = [(p, s) for p, s in enumerate(pyr.supports) if s]
    hist = np.zeros(n + 1, dtype=np.int64)
    chunks = range(1 << (n - chunk_bits))
    for c in (progress(chunks) if progress else chunks):
        masks = np.arange(c << chunk_bits, (c + 1) << chunk_bits, dtype=np.uint64)
        ok = np.ones(masks.size, dtype=bool)
        for p, s in raised:
            s64 = np.uint64(s)
            absent = ((masks >> np.uint64(p)) & np.uint64(1)) == 0
            ok &= absent | ((masks & s64) == s64)
        hist += np.bincount(_popcount(masks[ok]), minlength=n + 1)
    return tuple(int(v) for v in hist)


def evaluate(poly, x):
    """The polynomial with these coefficients (constant first) at x (exact ints/Fractions)."""
    return sum(c * x ** k for k, c in enumerate(poly))


def filling_series(pyr: Pyramid = SHIBUMI):
    """F(x) as a sympy polynomial in x (imports sympy)."""
    import sympy
    x = sympy.Symbol("x")
    return sympy.Poly(list(reversed(filling_polynomial(pyr))), x)


# ---------------------------------------------------------------------------
# Symmetries: fixed fillings, Burnside, orbits
# ---------------------------------------------------------------------------

def cycles(perm) -> list[tuple[int, ...]]:
    """The cycles of a permutation of 0..n-1 (fixed points are cycles of length 1)."""
    seen, out = set(), []
    for p in range(len(perm)):
        if p in seen:
            continue
        cyc = [p]
        seen.add(p)
        q = perm[p]
        while q != p:
            cyc.append(q)
            seen.add(q)
            q = perm[q]
        out.append(tuple(cyc))
    return out


def _image(sets: np.ndarray, perm) -> np.ndarray:
    out = np.zeros_like(sets)
    one = np.uint64(1)
    for p, q in enumerate(perm):
        out |= ((sets >> np.uint64(p)) & one) << np.uint64(q)
    return out


def fixed_polynomial(pyr: Pyramid, g: int, sets: np.ndarray | None = None) -> tuple[int, ...]:
    """Coefficients of F_g(y): fillings S with g(S) = S, by the number of g-cycles in S.

    Read from the list of all fillings: keep those equal to their image, and
    count the cycles each contains (one representative point per cycle).
    """
    sets = stable_sets(pyr) if sets is None else sets
    perm = pyr.symmetries[g]
    fixed = sets[_image(sets, perm) == sets]
    reps = np.uint64(sum(1 << c[0] for c in cycles(perm)))
    return polynomial_from_sets(fixed & reps, pyr.size)


def fixed_polynomial_by_cycles(pyr: Pyramid, g: int) -> tuple[int, ...]:
    """F_g(y) again, building only the invariant fillings.

    If S is invariant, so is the set of points it supports on the next level
    (g maps supporters to supporters), hence a union of whole cycles of g; an
    invariant filling chooses, level by level, a set of those cycles.
    """
    perm = pyr.symmetries[g]
    cyc = cycles(perm)
    by_level = [[sum(1 << p for p in c) for c in cyc if pyr.coords[c[0]][0] == lv]
                for lv in range(pyr.base)]
    # state: (this level's balls, cycles used so far) -> number of ways; only the
    # level just filled matters for what the next level may hold
    states = Counter({(-1, 0): 1})
    for cycle_masks in by_level:
        nxt = Counter()
        for (s, k), times in states.items():
            usable = [m for m in cycle_masks
                      if s == -1 or all(s & pyr.supports[p] == pyr.supports[p]
                                         for p in range(pyr.size) if m >> p & 1)]
            subsets = [(0, 0)]
            for m in usable:
                subsets += [(u | m, j + 1) for u, j in subsets]
            for u, j in subsets:
                nxt[(u, k + j)] += times
        states = nxt
    acc = [0] * (pyr.size + 1)
    for (_, k), times in states.items():
        acc[k] += times
    return tuple(acc)


def fixed_polynomials(pyr: Pyramid = SHIBUMI) -> list[tuple[int, ...]]:
    """F_g for each of the eight symmetries (from the list of fillings)."""
    sets = stable_sets(pyr)
    return [fixed_polynomial(pyr, g, sets) for g in range(len(pyr.symmetries))]


def burnside_classes(pyr: Pyramid = SHIBUMI, colours: int = 1, polys=None) -> int:
    """Classes of positions with ``colours`` colours under the 8 symmetries (Burnside).

    ``colours=1`` counts classes of fillings (occupied sets).  The average
    number of fixed positions, ``(1/8) sum_g F_g(colours)``, must be a whole
    number (asserted).
    """
    polys = fixed_polynomials(pyr) if polys is None else polys
    total = Fraction(sum(evaluate(p, colours) for p in polys), len(polys))
    if total.denominator != 1:
        raise AssertionError(f"Burnside average {total} is not a whole number")
    return int(total)


def _canonical(sets: np.ndarray, perms) -> np.ndarray:
    best = sets.copy()
    for perm in perms:
        np.minimum(best, _image(sets, perm), out=best)
    return best


def orbits_direct(pyr: Pyramid = SHIBUMI, sets: np.ndarray | None = None) -> int:
    """Classes of fillings counted directly: the number of distinct canonical forms
    (the least of a filling's eight images)."""
    sets = stable_sets(pyr) if sets is None else sets
    return int(np.unique(_canonical(sets, pyr.symmetries)).size)


def coloured_positions(pyr: Pyramid, colours: int) -> np.ndarray:
    """Every position with ``colours`` colours (1-3) of a small pyramid, 2 bits a point
    (``0`` empty, ``1..colours`` a colour, as in :meth:`Position.to_int`).

    Only for pyramids whose F(colours) is small (base 3 and below)."""
    if not 1 <= colours <= 3 or pyr.size > 16:
        raise ValueError("only 1-3 colours on pyramids of at most 16 points")
    out = []
    for s in stable_sets(pyr).tolist():
        pts = [p for p in range(pyr.size) if s >> p & 1]
        index = np.arange(colours ** len(pts), dtype=np.uint64)
        codes = np.zeros(index.size, dtype=np.uint64)
        for i, p in enumerate(pts):
            digit = index // np.uint64(colours ** i) % np.uint64(colours) + np.uint64(1)
            codes |= digit << np.uint64(2 * p)
        out.append(codes)
    return np.concatenate(out)


def coloured_orbits_direct(pyr: Pyramid, colours: int) -> int:
    """Classes of coloured positions of a small pyramid counted directly (canonical forms)."""
    pos = coloured_positions(pyr, colours)
    two = np.uint64(3)
    best = pos.copy()
    for perm in pyr.symmetries:
        img = np.zeros_like(pos)
        for p, q in enumerate(perm):
            img |= ((pos >> np.uint64(2 * p)) & two) << np.uint64(2 * q)
        np.minimum(best, img, out=best)
    return int(np.unique(best).size)


def classes_by_orbits(pyr: Pyramid = SHIBUMI, colours: int = 2) -> int:
    """Classes of coloured positions, orbit of fillings by orbit.

    For each class of fillings take one filling S and its stabiliser H (the
    symmetries with h(S) = S).  Positions on the fillings of the class fall
    into ``(1/|H|) sum_{h in H} colours^(cycles of h in S)`` classes (Burnside
    for H acting on the colourings of S); the total over the classes of fillings
    is the number of classes of positions.  This regroups the same sum as
    :func:`burnside_classes` by orbit instead of by symmetry, so it checks the
    bookkeeping of both.
    """
    sets = stable_sets(pyr)
    canon = _canonical(sets, pyr.symmetries)
    reps = sets[canon == sets]            # the least filling of each orbit
    stab = np.zeros(reps.size, dtype=np.int64)
    fixed_sums = np.zeros(reps.size, dtype=np.int64)   # sum over H of colours^cycles
    for perm in pyr.symmetries:
        fixed = _image(reps, perm) == reps
        k = _popcount(reps & np.uint64(sum(1 << c[0] for c in cycles(perm))))
        stab += fixed
        fixed_sums += np.where(fixed, colours ** k, 0)
    total = sum(Fraction(int(f), int(h)) for f, h in zip(fixed_sums, stab))
    if total.denominator != 1:
        raise AssertionError(f"orbit sum {total} is not a whole number")
    return int(total)


# ---------------------------------------------------------------------------
# Everything in one table
# ---------------------------------------------------------------------------

def summary(pyr: Pyramid = SHIBUMI) -> dict:
    """The counts of the counting notebook: fillings and 2- and 3-colour positions,
    all of them and up to symmetry, with log2 of each."""
    poly = filling_polynomial(pyr)
    polys = fixed_polynomials(pyr)
    out = {}
    for colours, what in ((1, "fillings"), (2, "two colours"), (3, "three colours")):
        n = evaluate(poly, colours)
        k = burnside_classes(pyr, colours, polys)
        out[what] = {"all": n, "classes": k,
                     "bits": math.log2(n), "class_bits": math.log2(k)}
    return out
