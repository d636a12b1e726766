"""Exhaustive checks with numpy: Span on a complete pyramid never ends drawn.

Span's guarantee is that when the pyramid is full exactly one player has a
visibly connected chain between their sides (White left-right, Black
bottom-top).  :func:`verify_span` checks it over every colouring.

Why 2^25 colourings suffice.  A complete pyramid hides its five interior balls
(the four centre holes and the middle of level 1, each lying two levels directly
beneath another ball), and a hidden ball has no visible contact.  So no visible
contact of a full pyramid touches an interior ball; the colours of the interior
balls cannot change any visible group of the 25 exterior balls, and a hidden
ball's own group is itself alone, on no side.  :func:`interior_irrelevant` asserts
these facts from the engine's own rules (:func:`shibumi.position.hidden_mask`,
:func:`~shibumi.position.linked`).  Each of the 2^30 colourings of the full
pyramid therefore has the Span result of its 25 exterior balls.

How it runs.  The 25 visible balls are bits 0-24 of a uint32 (bit i is the ball
at :data:`VISIBLE` [i]; set = White).  Colourings are enumerated in blocks of
2^20 consecutive integers.  For one player, ``reach`` starts as the player's
balls on their first side and grows by ``reach |= neighbours(reach) & own``
until it reaches the second side or stops changing, for the whole block at once;
``neighbours`` of a mask is the union of the visible-neighbour masks of its
points, read from two lookup tables (bits 0-12 and 13-24).  Colourings that are
settled drop out of the working arrays after each step.

:func:`hidden_contacts_counterexamples` asks what would go wrong if every
physical contact counted (all 96, hidden balls and underpasses included): then
both players can connect at once.  It gives a concrete position and the exact
number of such colourings of all 30 balls.

numpy is imported here, never by the engine.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from ..notation import parse_point
from ..geometry import (ALL_MASK, CONTACTS, EXTERIOR_MASK, INTERIOR, INTERIOR_MASK,
                        SIDE_MASK, SYMMETRIES, TOUCHING_MASK, points_of)
from ..position import BLACK, WHITE, Position, group_of, hidden_mask, linked

__all__ = ["VISIBLE", "COLOURINGS", "interior_irrelevant", "verify_span",
           "span_winners", "position_of", "hidden_contacts_counterexamples",
           "hidden_contacts_example", "physical_winners", "physical_both_counts",
           "mirror_colouring", "census"]

#: The 25 points visible in a complete pyramid; bit i of a colouring is VISIBLE[i].
VISIBLE: tuple[int, ...] = tuple(points_of(EXTERIOR_MASK))
_INDEX = {p: i for i, p in enumerate(VISIBLE)}
NV = len(VISIBLE)
FULL = (1 << NV) - 1
#: Number of white/black colourings of the 25 visible balls.
COLOURINGS = 1 << NV
BLOCK_BITS = 20
_LO_BITS = 13
_LO_MASK = (1 << _LO_BITS) - 1


def compact(mask: int) -> int:
    """A point mask of exterior points as a 25-bit colouring mask."""
    if mask & INTERIOR_MASK:
        raise ValueError("interior points have no bit in a 25-bit colouring")
    return sum(1 << _INDEX[p] for p in points_of(mask))


def expand(bits: int) -> int:
    """A 25-bit colouring mask as a point mask."""
    return sum(1 << VISIBLE[i] for i in range(NV) if bits >> i & 1)


def interior_irrelevant() -> bool:
    """Assert (and return True) that the interior balls cannot matter to visible play
    on a full pyramid: exactly the five interior balls are hidden, they have no
    visible contact, no exterior ball has a visible contact with them, and none
    of them lies on a side of the board."""
    assert hidden_mask(ALL_MASK) == INTERIOR_MASK
    assert len(VISIBLE) == 25 and not EXTERIOR_MASK & INTERIOR_MASK
    for p in INTERIOR:
        assert linked(p, ALL_MASK) == 0
        assert not any(SIDE_MASK[s] >> p & 1 for s in SIDE_MASK)
    for p in VISIBLE:
        assert linked(p, ALL_MASK) & INTERIOR_MASK == 0
    return True


def _tables(neighbours):
    """Lookup tables: union of neighbour masks for the low 13 and the high 12 bits."""
    lo = np.zeros(1 << _LO_BITS, dtype=np.uint32)
    hi = np.zeros(1 << (NV - _LO_BITS), dtype=np.uint32)
    for table, offset in ((lo, 0), (hi, _LO_BITS)):
        index = np.arange(table.size, dtype=np.uint32)
        for i in range(int(table.size).bit_length() - 1):
            table |= np.where(index >> i & 1, np.uint32(neighbours[offset + i]),
                              np.uint32(0)).astype(np.uint32)
    return lo, hi


#: Visible-neighbour mask (25-bit) of each visible point of the full pyramid.
NEIGHBOURS: tuple[int, ...] = tuple(compact(linked(p, ALL_MASK)) for p in VISIBLE)
_LO, _HI = _tables(NEIGHBOURS)
SIDES25 = {side: compact(mask) for side, mask in SIDE_MASK.items()}
#: (first side, second side) of each player, as 25-bit masks (White, Black).
GOALS25 = ((SIDES25["left"], SIDES25["right"]), (SIDES25["bottom"], SIDES25["top"]))


def _grow(reach, own):
    return (reach | _LO[reach & _LO_MASK] | _HI[reach >> _LO_BITS]) & own


def _connects(own: np.ndarray, start: int, goal: int) -> np.ndarray:
    """For each colouring, does the closure of ``own & start`` within ``own`` meet ``goal``?"""
    out = np.zeros(own.size, dtype=bool)
    reach = own & np.uint32(start)
    idx = np.flatnonzero(reach)
    reach, own = reach[idx], own[idx]
    goal = np.uint32(goal)
    while idx.size:
        hit = (reach & goal) != 0
        out[idx[hit]] = True
        grown = _grow(reach, own)
        keep = (grown != reach) & ~hit
        idx, reach, own = idx[keep], grown[keep], own[keep]
    return out


def _closure(own: np.ndarray, start: np.ndarray | int) -> np.ndarray:
    """For each colouring, the closure of ``own & start`` within ``own`` (a mask)."""
    result = own & start
    idx = np.flatnonzero(result)
    reach, own = result[idx], own[idx]
    while idx.size:
        grown = _grow(reach, own)
        keep = grown != reach
        result[idx[keep]] = grown[keep]
        idx, reach, own = idx[keep], grown[keep], own[keep]
    return result


def _block(b: int, bits: int = BLOCK_BITS) -> np.ndarray:
    return np.arange(b << bits, (b + 1) << bits, dtype=np.uint32)


def span_winners(colourings: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(White joins left-right, Black joins bottom-top) for an array of 25-bit
    colourings (bit set = White) of a full pyramid, by visible contacts."""
    c = np.asarray(colourings, dtype=np.uint32)
    white = _connects(c, *GOALS25[0])
    black = _connects(~c & np.uint32(FULL), *GOALS25[1])
    return white, black


def verify_span(progress=None, blocks=None) -> dict:
    """Count Span results over every white/black colouring of the 25 visible balls.

    Returns ``{"colourings": 33554432, "white": ..., "black": ..., "both": ...,
    "neither": ...}`` where ``white`` counts colourings in which White joins
    left and right, ``black`` those in which Black joins bottom and top.  The
    guarantee holds when ``both == neither == 0``.  (By the diagonal mirror with
    the colours swapped, ``white == black``, so each is 2^24.)

    ``progress``, if given, wraps the iterator over the 32 blocks of 2^20
    colourings (pass ``tqdm.tqdm``); ``blocks`` restricts the count to some
    blocks (then ``colourings`` is the number counted).
    """
    interior_irrelevant()
    todo = range(COLOURINGS >> BLOCK_BITS) if blocks is None else list(blocks)
    counts = dict.fromkeys(("colourings", "white", "black", "both", "neither"), 0)
    for b in (progress(todo) if progress else todo):
        w, k = span_winners(_block(b))
        counts["colourings"] += w.size
        counts["white"] += int(w.sum())
        counts["black"] += int(k.sum())
        counts["both"] += int((w & k).sum())
        counts["neither"] += int((~w & ~k).sum())
    return counts


def position_of(colouring: int, interior: int = 0) -> Position:
    """The full pyramid with a 25-bit colouring of its visible balls (set = White) and
    a 5-bit colouring of the interior balls (bit j set = INTERIOR[j] White)."""
    white = expand(colouring & FULL)
    white |= sum(1 << p for j, p in enumerate(INTERIOR) if interior >> j & 1)
    return Position.from_masks(white=white, black=ALL_MASK & ~white)


# ---------------------------------------------------------------------------
# What if hidden contacts counted?
# ---------------------------------------------------------------------------

def physical_winners(position: Position) -> tuple[bool, bool]:
    """(White joins left-right, Black joins bottom-top) counting every physical contact
    (``visible_only=False``: hidden balls and cut underpasses included)."""
    out = []
    for colour, (first, second) in ((WHITE, ("left", "right")), (BLACK, ("bottom", "top"))):
        own = position.mask(colour)
        starts = own & SIDE_MASK[first]
        found = False
        while starts and not found:
            p = (starts & -starts).bit_length() - 1
            g = group_of(p, own, position.occupied, visible_only=False)
            found = bool(g & SIDE_MASK[second])
            starts &= ~g
        out.append(found)
    return out[0], out[1]


def hidden_contacts_example() -> Position:
    """A full pyramid in which both players would connect if hidden contacts counted.

    Every ball is White except the five of the chain c1, d2, d4.1, d6, c7, which
    are Black.  White joins left and right visibly (a3-b2-c3.2-e3.2-f2-g3, over
    Black's chain).  Black's chain runs from the bottom edge (c1) to the
    top edge (c7) by physical contacts, but d4.1 is hidden under the apex (and
    the contacts d2-d4.1 and d4.1-d6 pass under the overpasses c3.2-e3.2 and
    c5.2-e5.2), so visibly Black has nothing.
    """
    black = 0
    for name in ("c1", "d2", "d4.1", "d6", "c7"):
        black |= 1 << parse_point(name)
    return Position.from_masks(white=ALL_MASK & ~black, black=black)


_K = len(INTERIOR)
_PAIRS = tuple(combinations(range(_K), 2))


def _physical_tables():
    """Exterior and interior neighbour masks of each interior ball, all contacts."""
    ext = tuple(compact(TOUCHING_MASK[p] & EXTERIOR_MASK) for p in INTERIOR)
    direct = [[bool(TOUCHING_MASK[a] >> b & 1) for b in INTERIOR] for a in INTERIOR]
    return ext, direct


def _check_exterior_contacts():
    """All physical contacts between two exterior balls are visible ones (asserted),
    so the only extra paths when hidden contacts count go through interior balls."""
    for a, b, _ in CONTACTS:
        if not (INTERIOR_MASK >> a & 1 or INTERIOR_MASK >> b & 1):
            assert linked(a, ALL_MASK) >> b & 1, (a, b)


def _subsets_connecting(key: int) -> int:
    """How many subsets I of the interior balls, coloured the opponent's colour,
    join the opponent's sides, given the key's bridges (see :func:`_loser_keys`)."""
    start = key & 31
    end = key >> 5 & 31
    adj = [0] * _K
    for n, (i, j) in enumerate(_PAIRS):
        if key >> (10 + n) & 1:
            adj[i] |= 1 << j
            adj[j] |= 1 << i
    count = 0
    for subset in range(1 << _K):
        reached = start & subset
        while True:
            more = reached
            for i in range(_K):
                if reached >> i & 1:
                    more |= adj[i] & subset
            if more == reached:
                break
            reached = more
        count += bool(reached & end)
    return count


_EXT, _DIRECT = _physical_tables()
_KEY_COUNTS: dict[int, int] = {}


def _loser_keys(colourings: np.ndarray, winner: int) -> np.ndarray:
    """The 20-bit key of each colouring (won visibly by ``winner``) for the loser.

    Bits 0-4: interior ball k reaches the loser's first side through the
    loser's exterior balls (R_k meets it); bits 5-9: the second side; bits
    10-19: interior balls i < j touch directly or R_i meets a neighbour of j.
    """
    own = ((~colourings if winner == 0 else colourings) & np.uint32(FULL)).astype(np.uint32)
    first, second = GOALS25[1 - winner]
    key = np.zeros(own.size, dtype=np.uint32)
    reach = [_closure(own, own & np.uint32(_EXT[k])) for k in range(_K)]
    for k in range(_K):
        key |= ((reach[k] & np.uint32(first)) != 0).astype(np.uint32) << np.uint32(k)
        key |= ((reach[k] & np.uint32(second)) != 0).astype(np.uint32) << np.uint32(5 + k)
    for n, (i, j) in enumerate(_PAIRS):
        bridged = (reach[i] & np.uint32(_EXT[j])) != 0
        if _DIRECT[i][j]:
            bridged[:] = True
        key |= bridged.astype(np.uint32) << np.uint32(10 + n)
    return key


def _key_count(key: int) -> int:
    if key not in _KEY_COUNTS:
        _KEY_COUNTS[key] = _subsets_connecting(key)
    return _KEY_COUNTS[key]


def physical_both_counts(colourings) -> np.ndarray:
    """For each 25-bit colouring of the visible balls, in how many of the 32
    colourings of the interior balls both players connect physically."""
    c = np.asarray(colourings, dtype=np.uint32)
    out = np.zeros(c.size, dtype=np.int64)
    for pl, won in enumerate(span_winners(c)):
        keys = _loser_keys(c[won], pl)
        out[won] = [_key_count(int(k)) for k in keys]
    return out


def hidden_contacts_counterexamples(progress=None, blocks=None, player: int | None = None) -> dict:
    """Count the colourings of all 30 balls in which *both* players would connect
    if every physical contact counted (all 96; no hiding, no overpass cuts).

    Method (exact, over all 2^30 colourings).  Physical contacts include the
    visible ones, so in every colouring at least the visible winner connects
    physically, and "both" means: the visible winner, plus the other player
    through physical contacts.  Every physical contact between two exterior
    balls is visible (asserted), so the loser's extra paths must pass through
    interior balls of the loser's colour.  For each exterior colouring won
    visibly by White, Black's exterior balls are fixed; for each interior ball k
    the closure R_k of Black's exterior neighbours of k is computed (vectorised
    as in :func:`verify_span`), giving whether k reaches the bottom, the top, and
    which interior balls it reaches (directly or through Black's exterior balls).
    Those 20 bits decide, for each of the 32 colourings of the interior, whether
    Black joins bottom and top physically; that count per key is computed once
    per key seen.  The same is done with the roles swapped (exterior colourings
    won by Black, White through the interior).  ``player`` (0 White, 1 Black)
    restricts to one of the two terms; by the diagonal mirror with colours
    swapped the two terms are equal.

    Returns ``{"colourings": 2**30, "both": n, "white_visible_black_physical": a,
    "black_visible_white_physical": b, "exterior_colourings": 2**25 (counted),
    "example": Position}``; ``both == a + b`` (when both terms are counted).
    No colouring has neither player connected physically, since the visible
    winner always is.
    """
    interior_irrelevant()
    _check_exterior_contacts()
    todo = range(COLOURINGS >> BLOCK_BITS) if blocks is None else list(blocks)
    players = (0, 1) if player is None else (player,)
    hist = {pl: np.zeros(1 << 20, dtype=np.int64) for pl in players}
    counted = 0
    for b in (progress(todo) if progress else todo):
        c = _block(b)
        counted += c.size
        winners = span_winners(c)
        for pl in players:
            hist[pl] += np.bincount(_loser_keys(c[winners[pl]], pl), minlength=1 << 20)
    terms = {}
    for pl in players:
        seen = np.flatnonzero(hist[pl])
        terms[pl] = int(sum(int(hist[pl][k]) * _key_count(int(k)) for k in seen))
    result = {"colourings": counted << _K, "exterior_colourings": counted,
              "white_visible_black_physical": terms.get(0),
              "black_visible_white_physical": terms.get(1),
              "both": sum(terms.values()) if player is None else None,
              "example": hidden_contacts_example()}
    return result


def mirror_colouring(colouring: int) -> int:
    """The colouring's image under the main-diagonal mirror with colours swapped
    (White's left-right task becomes Black's bottom-top task)."""
    perm = SYMMETRIES[6]
    white = expand(colouring & FULL)
    image = 0
    for p in points_of(white):
        image |= 1 << perm[p]
    return FULL & ~compact(image)


def census(progress=None, blocks=None, players=(0, 1)) -> dict:
    """:func:`verify_span` and :func:`hidden_contacts_counterexamples` in one pass.

    Both walk the same 2^25 exterior colourings and both need the visible
    winners of each, so doing them together saves the second computation of
    the winners.  Returns ``{"span": <verify_span's dict>, "hidden":
    <hidden_contacts_counterexamples' dict>}``.  ``players`` chooses the terms
    of the hidden count, as ``player`` does there: ``(0,)`` counts only the
    colourings won visibly by White in which Black connects physically (its
    mirror term is equal, by :func:`mirror_colouring`), about half the work of
    the hidden count; ``both`` is then None.
    """
    interior_irrelevant()
    _check_exterior_contacts()
    todo = range(COLOURINGS >> BLOCK_BITS) if blocks is None else list(blocks)
    span = dict.fromkeys(("colourings", "white", "black", "both", "neither"), 0)
    hist = {pl: np.zeros(1 << 20, dtype=np.int64) for pl in players}
    for b in (progress(todo) if progress else todo):
        c = _block(b)
        w, k = span_winners(c)
        span["colourings"] += c.size
        span["white"] += int(w.sum())
        span["black"] += int(k.sum())
        span["both"] += int((w & k).sum())
        span["neither"] += int((~w & ~k).sum())
        for pl, won in enumerate((w, k)):
            if pl in hist:
                hist[pl] += np.bincount(_loser_keys(c[won], pl), minlength=1 << 20)
    terms = {pl: int(sum(int(h[key]) * _key_count(int(key)) for key in np.flatnonzero(h)))
             for pl, h in hist.items()}
    hidden = {"colourings": span["colourings"] << _K, "exterior_colourings": span["colourings"],
              "white_visible_black_physical": terms.get(0),
              "black_visible_white_physical": terms.get(1),
              "both": sum(terms.values()) if len(terms) == 2 else None,
              "example": hidden_contacts_example()}
    return {"span": span, "hidden": hidden}
