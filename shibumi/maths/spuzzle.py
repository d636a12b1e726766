"""Spuzzle solved: the highest possible score is 27.

Spuzzle (see ``shibumi.games.spuzzle``) asks for as many balls as possible on
the pyramid with no group of three balls of one colour, every contact
counting.  This module answers the rule book's question exactly.

From games to colourings
------------------------
The score of a finished puzzle is the number of balls on the pyramid, and
the question is only about the final position, not the order of play:

* a final position is *stable* (every ball above the board rests on a full
  platform), so the set of empty points is closed upwards: a *gap set*;
* conversely, every stable arrangement of balls with no group of three can
  be reached: place its balls level by level.  Each intermediate position
  has no group of three either, because removing balls can only split
  groups, never enlarge them;
* a largest such arrangement is a finished game, since one more ball would
  make a larger one.

So the highest score is ``30 - k`` for the smallest ``k`` such that the
points outside some gap set of size ``k`` can be coloured with three
colours, every ball touching at most one ball of its colour and that ball no
other.  (Groups of at most two are exactly that: a group of three or more
contains a chain of three, whose middle ball touches two of its colour.)

The search
----------
* **Gap sets by size**, from 0 upwards, each built from those one smaller by
  adding a point all of whose points above are already gaps; the 8
  symmetries of the square reduce them to one representative each
  (memoised per size).
* **Colouring by depth-first search**, highest level first: the apex and
  level 2 touch the most balls, so conflicts show up early (taking the board
  first is about a thousand times slower).  Colours are interchangeable, so
  the search gives a new colour only if all earlier ones are in use (each
  colouring is met once up to renaming the colours; when counting, each is
  then multiplied by its number of renamings, so counts are of labelled
  colourings).
* The first size with a colourable gap set gives the answer; every smaller
  size has been refuted for every gap set.

The answer: no colouring exists for the full pyramid, nor with the apex
left empty, nor with the apex and one point of level 2; with the apex and
two diagonally opposite points of level 2 left empty there are 96
colourings for each of the two such pairs, counting white, black and red as
different (16 up to renaming the colours, each in 6 ways): 192 labelled
final positions in all (:func:`count_optimal`).  **The highest score is 27**, and
the whole proof takes well under a second (:func:`solve_spuzzle` reports
the nodes and time).

The module works for any square pyramid (``Pyramid(n)``, base n x n), so the
tests can compare it with a plain search of the game tree on the small
pyramids of bases 2 and 3, where that is feasible.

>>> result = solve_spuzzle()
>>> result["score"], result["gaps"]
(27, ['e3.2', 'c5.2', 'd4.3'])
>>> result["refuted"]
{30: 1, 29: 1, 28: 1}
"""

from __future__ import annotations

import time

COLOURS = 3


class Pyramid:
    """A square pyramid of balls with base ``n`` x ``n``, numbered like the engine.

    Points go level by level from the base up, row by row within a level:
    for ``n = 4`` the numbering, supports and contacts are those of
    ``shibumi.geometry``.

    >>> pyr = Pyramid(4)
    >>> pyr.size, len(pyr.symmetries), bin(pyr.touching[29]).count("1")
    (30, 8, 4)
    """

    def __init__(self, n: int) -> None:
        self.n = n
        self.coords = [(lv, x, y) for lv in range(n) for y in range(n - lv)
                       for x in range(n - lv)]
        self.size = len(self.coords)
        index = {c: i for i, c in enumerate(self.coords)}
        self.level = [c[0] for c in self.coords]
        below = []
        for lv, x, y in self.coords:
            below.append([index[(lv - 1, x + dx, y + dy)] for dy in (0, 1) for dx in (0, 1)]
                         if lv else [])
        self.supports = [_mask(b) for b in below]
        self.above = [_mask(q for q in range(self.size) if p in below[q])
                      for p in range(self.size)]
        flat = []
        for lv, x, y in self.coords:
            near = ((lv, x + 1, y), (lv, x - 1, y), (lv, x, y + 1), (lv, x, y - 1))
            flat.append(_mask(index[c] for c in near if c in index))
        self.touching = [flat[p] | self.supports[p] | self.above[p] for p in range(self.size)]
        self.symmetries = []
        for f in (lambda x, y, m: (x, y), lambda x, y, m: (m - y, x),
                  lambda x, y, m: (m - x, m - y), lambda x, y, m: (y, m - x),
                  lambda x, y, m: (m - x, y), lambda x, y, m: (x, m - y),
                  lambda x, y, m: (y, x), lambda x, y, m: (m - y, m - x)):
            self.symmetries.append(tuple(index[(lv, *f(x, y, n - 1 - lv))]
                                         for lv, x, y in self.coords))
        self.full = (1 << self.size) - 1
        #: Search order of the colouring: highest level first.
        self.order = sorted(range(self.size), key=lambda p: (-self.level[p], p))

    def transform(self, mask: int, perm) -> int:
        out = 0
        for p in range(self.size):
            if mask >> p & 1:
                out |= 1 << perm[p]
        return out

    def canonical(self, mask: int) -> int:
        return min(self.transform(mask, perm) for perm in self.symmetries)

    def growable(self, gaps: int) -> list[int]:
        """Points that may join a gap set: not in it, every point above already in it."""
        return [p for p in range(self.size)
                if not gaps >> p & 1 and self.above[p] & gaps == self.above[p]]


def _mask(points) -> int:
    out = 0
    for p in points:
        out |= 1 << p
    return out


def gap_sets(pyr: Pyramid, k: int, canonical: bool = True, _memo: dict = {}) -> list[int]:
    """Every gap set (upward-closed set of empty points) of size k, as masks.

    With ``canonical`` one per class under the 8 symmetries (memoised).

    >>> [len(gap_sets(Pyramid(4), k)) for k in range(5)]
    [1, 1, 1, 3, 5]
    >>> [len(gap_sets(Pyramid(4), k, canonical=False)) for k in range(4)]
    [1, 1, 4, 10]
    """
    key = (pyr.n, k, canonical)
    if key not in _memo:
        if k == 0:
            found = {0}
        else:
            found = set()
            for gaps in gap_sets(pyr, k - 1, canonical):
                for p in pyr.growable(gaps):
                    more = gaps | 1 << p
                    found.add(pyr.canonical(more) if canonical else more)
        _memo[key] = sorted(found)
    return _memo[key]


class _Search:
    """Depth-first colouring of the points of a mask; counts its nodes."""

    def __init__(self, pyr: Pyramid, colours: int = COLOURS) -> None:
        self.pyr = pyr
        self.colours = colours
        self.nodes = 0

    def run(self, filled: int, count: bool = False):
        """The first colouring found (a list, 0 for empty) or None; with ``count``,
        the number of colourings, every renaming of the colours counted."""
        pyr = self.pyr
        touching = pyr.touching
        points = [p for p in pyr.order if filled >> p & 1]
        colour = [0] * pyr.size
        masks = [0] * (self.colours + 1)
        colours = self.colours
        total = 0

        def fits(p: int, c: int) -> bool:
            same = touching[p] & masks[c]
            if not same:
                return True
            if same & (same - 1):
                return False
            return not touching[same.bit_length() - 1] & masks[c]

        def dfs(i: int, used: int):
            nonlocal total
            self.nodes += 1
            if i == len(points):
                if count:
                    total += _renamings(used, colours)
                    return False
                return True
            p = points[i]
            for c in range(1, min(colours, used + 1) + 1):
                if fits(p, c):
                    colour[p] = c
                    masks[c] |= 1 << p
                    if dfs(i + 1, max(used, c)):
                        return True
                    masks[c] &= ~(1 << p)
                    colour[p] = 0
            return False

        found = dfs(0, 0)
        if count:
            return total
        return colour if found else None


def _renamings(used: int, colours: int) -> int:
    """Colourings with the same pattern as one using ``used`` of the colours."""
    out = 1
    for i in range(used):
        out *= colours - i
    return out


def solve_spuzzle(base: int = 4, progress=None, colours: int = COLOURS) -> dict:
    """The highest score of Spuzzle on a pyramid of the given base, with a witness.

    ``colours`` (default 3) allows other numbers of colours, for cross-checks.

    Returns a dict: ``score``; ``gaps`` (the empty points of an optimal
    final position); ``colours`` (one letter per point, ``.`` for empty);
    ``line`` (moves placing it level by level, valid engine moves when
    ``base`` is 4); ``position`` (its text, base 4 only); ``refuted`` (for
    each higher score, the gap sets, up to symmetry, shown to admit no
    colouring); ``nodes`` and ``seconds``.  ``progress`` may wrap the
    iteration over gap sets of one size (``tqdm``).
    """
    pyr = Pyramid(base)
    search = _Search(pyr, colours)
    start = time.perf_counter()
    refuted = {}
    for k in range(pyr.size + 1):
        sets = gap_sets(pyr, k)
        items = progress(sets) if progress is not None else sets
        witness = None
        for gaps in items:
            colour = search.run(pyr.full & ~gaps)
            if colour is not None:
                witness = (gaps, colour)
                break
        if witness is None:
            refuted[pyr.size - k] = len(sets)
            continue
        gaps, colour = witness
        letters = "".join(".WBR"[c] for c in colour)
        result = {"score": pyr.size - k, "colours": letters, "refuted": refuted,
                  "nodes": search.nodes, "seconds": round(time.perf_counter() - start, 3)}
        order = sorted((p for p in range(pyr.size) if colour[p]),
                       key=lambda p: (pyr.level[p], p))
        if base == 4:
            from ..notation import point_name
            from ..position import Position
            masks = [sum(1 << p for p in range(30) if colour[p] == c) for c in (1, 2, 3)]
            result["position"] = Position.from_masks(*masks).text()
            result["gaps"] = [point_name(p) for p in range(30) if gaps >> p & 1]
            result["line"] = [".WBR"[colour[p]] + point_name(p) for p in order]
        else:
            result["gaps"] = [pyr.coords[p] for p in range(pyr.size) if gaps >> p & 1]
            result["line"] = [(".WBR"[colour[p]], pyr.coords[p]) for p in order]
        return result
    raise AssertionError("the empty pyramid is always a final position")  # pragma: no cover


def count_optimal(base: int = 4, score: int | None = None, colours: int = COLOURS) -> dict:
    """How many final positions reach ``score`` (default: the highest score).

    Counts every gap set of that size (not up to symmetry) and every
    colouring of the rest; ``used`` lists the gap sets (as point numbers)
    that admit at least one colouring.

    >>> count_optimal()["positions"]
    192
    """
    pyr = Pyramid(base)
    if score is None:
        score = solve_spuzzle(base, colours=colours)["score"]
    search = _Search(pyr, colours)
    per_gap_set = {}
    for gaps in gap_sets(pyr, pyr.size - score, canonical=False):
        per_gap_set[gaps] = search.run(pyr.full & ~gaps, count=True)
    used = [gaps for gaps, n in per_gap_set.items() if n]
    return {"score": score, "positions": sum(per_gap_set.values()),
            "gap_sets": len(per_gap_set), "gap_sets_used": len(used),
            "used": [[p for p in range(pyr.size) if gaps >> p & 1] for gaps in used],
            "nodes": search.nodes}


def largest_colour_class(base: int = 4) -> int:
    """The most balls of one colour a legal Spuzzle position can hold.

    A set of balls of one colour with no group of three, on any stable
    position; the full pyramid's contacts are the most restrictive only for
    balls present, so it is enough to search subsets of the whole pyramid
    (highest level first, with a simple bound).

    >>> largest_colour_class()
    12
    """
    pyr = Pyramid(base)
    order, touching = pyr.order, pyr.touching
    best = 0

    def fits(p: int, chosen: int) -> bool:
        same = touching[p] & chosen
        if not same:
            return True
        if same & (same - 1):
            return False
        return not touching[same.bit_length() - 1] & chosen

    def dfs(i: int, chosen: int, size: int) -> None:
        nonlocal best
        if size + len(order) - i <= best:
            return
        if i == len(order):
            best = size
            return
        p = order[i]
        if fits(p, chosen):
            dfs(i + 1, chosen | 1 << p, size + 1)
        dfs(i + 1, chosen, size)

    dfs(0, 0, 0)
    return best


__all__ = ["Pyramid", "count_optimal", "gap_sets", "largest_colour_class", "solve_spuzzle"]
