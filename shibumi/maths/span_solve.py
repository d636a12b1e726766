"""Solving Span from the empty board: who wins, and how long the game lasts.

Span (:mod:`shibumi.games.span`) is a placement game of perfect information:
White joins the left and right sides, Black the bottom and top, each with a
group of their own balls linked by contacts seen from above ("overpasses cut
underpasses").  A full pyramid always holds exactly one winning chain (see
:func:`shibumi.maths.verify.verify_span`), so the game has a winner under
perfect play.  This module computes it, and the *length*: the number of balls
on the pyramid when the game ends if the winner wins as fast as possible and
the loser holds out as long as possible.

The answer
----------
**White wins, with the 13th ball**, and only by opening on one of the four
centre holes (c3.0, e3.0, c5.0, e5.0).  A first ball on a corner or on any
other edge hole loses: Black then wins with the 14th ball.
:func:`solve_span` finds all this in 583 266 nodes (177 384 stored
positions), about 4 seconds on one core of a small machine.

The method
----------
It follows the Spline solver (:mod:`shibumi.maths.solve`), with Span's rule
for the end of the game.

* **State.**  The mover's balls and the opponent's, as two 30-bit masks; the
  number of balls says whose turn it is.  Alongside, the search carries the
  *visible contacts* of the occupancy: for each point, the balls its ball
  touches in view (:func:`adjacency`, the engine's
  :func:`shibumi.position.linked` for all points at once).  They depend only
  on which points are occupied, and a placement changes them locally
  (:func:`place`): the new ball's contacts are added, the contacts it passes
  over are cut, and the ball two levels below it, if any, is hidden.
* **The win test** is the engine's rule: after a placement, the group of the
  new ball (over the visible contacts after it) touches both of the mover's
  sides.  For all playable points at once (:func:`winning_points`): the
  mover's balls connected to each side are found once; a board hole wins if it
  lies on or next to both sets (a board ball never cuts or hides anything, so
  one look-up table on the 16 holes does it), and an upper point touching both
  sets is checked exactly.
* **Scores.**  A win with the ``m``-th ball scores ``31 - m`` for the winner
  and ``-(31 - m)`` for the loser (0 would be a draw, which Span never has);
  negamax with alpha-beta (fail-soft) on these scores.
* **Threats.**  A win on the next ball ends the search.  If the opponent
  could win at some points, the only moves worth searching are those points
  and the raised points whose ball could spoil such a win (cut a contact
  between two of the opponent's balls, hide one of them): any other move
  leaves a winning point, the worst outcome possible.
* **Distance bounds.**  :func:`distance` is a lower bound on the balls a
  player still needs to join their sides (a shortest path where their visible
  balls cost nothing and empty points cost one ball); contacts are only ever
  cut, never made between balls already placed, so it is sound.  The mover
  cannot win before ball ``n + 2d - 1`` nor lose before ball ``n + 2d'``.
* **Iterative deepening on the length** (:meth:`SpanSolver.exact`).  For
  ``m = n + 1, n + 2, ...``, a null-window search asks whether the player
  placing the ``m``-th ball can win with it at the latest; the first yes gives
  the exact value.  With such narrow windows the distance bounds cut most of
  the tree: the whole solve (winner and length) takes 583 000 nodes, where
  proving only who wins with the window (0, 1) takes 7.5 million and full-window
  searches without the distance bounds about 10 million.
* **Transposition table** of lower and upper bounds and best moves, keyed by
  the smallest image of the position under the four symmetries that keep the
  goals (:data:`SPAN_SYMMETRIES`: identity, half turn, the two mirrors), with
  the colour of hidden balls forgotten (they never count again).
* **Move ordering**: the remembered best move, then the points from the centre
  of the top view outwards (:data:`STATIC_ORDER`).

Checks
------
``tests/test_maths_span_solve.py`` compares :func:`winning_points` and
:func:`adjacency` with the engine (``shibumi.load('span')``) on random games,
the solver with a plain minimax written with the engine's ``Game.apply`` and
``outcome`` on near-end positions (and with a faster plain minimax on
mid-game ones), checks that :func:`distance` never exceeds the balls a player
actually needed, and replays the principal variation with the engine.

>>> from shibumi.position import Position
>>> pos = Position('..../..../BBB./WWW.|.../.../...|../..|.')   # White to move
>>> move_values(pos)[3]                 # g1 joins a1 to g1 with the 7th ball
MoveValue(score=24, result='win', length=7)
>>> position_value(pos)
MoveValue(score=24, result='win', length=7)
"""

from __future__ import annotations

import time

from ..geometry import (CONTACTS, COVER, FLAT_NEIGHBOURS, LEVEL, NUM_POINTS, PROJECTION,
                        SIDE_MASK, SUPPORT_MASK, SYMMETRIES, TOUCHING_MASK, points_of)
from ..notation import point_name
from ..position import playable_mask
from .masks import symmetry_tables
from .solve import INFINITY, MoveValue, describe_score

__all__ = ["SpanSolver", "solve_span", "move_values", "position_value", "adjacency",
           "place", "group", "joined", "wins_at", "winning_points", "distance",
           "winner_of", "SPAN_SYMMETRIES", "STATIC_ORDER", "GOALS"]

_ALL_POINTS = (1 << NUM_POINTS) - 1
_BOARD = 0xFFFF

#: The symmetries of the square that keep each player's pair of sides
#: (indices into :data:`shibumi.geometry.SYMMETRIES`; see ``Span.symmetries``).
SPAN_SYMMETRIES = (0, 2, 4, 5)

#: GOALS[player] = (first side, second side): player 0 (White) joins left and
#: right, player 1 (Black) bottom and top.
GOALS = ((SIDE_MASK["left"], SIDE_MASK["right"]),
         (SIDE_MASK["bottom"], SIDE_MASK["top"]))


# ---------------------------------------------------------------------------
# Tables, built once at import (a fraction of a second).

def _cut_table() -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """CUTS[p]: (q, a, b): a ball put at p while q is occupied passes over the
    contact a-b (p and q are the overpass pair) and cuts it."""
    cuts: list[list[tuple[int, int, int]]] = [[] for _ in range(NUM_POINTS)]
    for a, b, over in CONTACTS:
        if over:
            c, d = points_of(over)
            cuts[c].append((d, a, b))
            cuts[d].append((c, a, b))
    return tuple(tuple(c) for c in cuts)


CUTS = _cut_table()
#: HIDES[p]: the point two levels below p, whose ball a ball at p hides, or -1.
HIDES = tuple(next((q for q in range(NUM_POINTS) if COVER[q] == p), -1)
              for p in range(NUM_POINTS))


def _dilation_table() -> list[int]:
    """table[x] = the board holes next to a hole of the 16-bit mask x."""
    single = [sum(1 << q for q in FLAT_NEIGHBOURS[p]) for p in range(16)]
    table = [0] * (1 << 16)
    for x in range(1, 1 << 16):
        low = x & -x
        table[x] = table[x ^ low] | single[low.bit_length() - 1]
    return table


_DILATE = _dilation_table()


def _touch_tables() -> tuple[list[int], list[int]]:
    """table[x] = the points touching a point of the 15-bit chunk x (low, high half)."""
    out = []
    for shift in (0, 15):
        table = [0] * 32768
        for x in range(1, 32768):
            low = x & -x
            table[x] = table[x ^ low] | TOUCHING_MASK[low.bit_length() - 1 + shift]
        out.append(table)
    return out[0], out[1]


_TOUCH_LO, _TOUCH_HI = _touch_tables()


def _covered_table() -> list[int]:
    """table[occupied >> 25] = the points hidden by the balls on points 25-29."""
    table = [0] * 32
    for x in range(32):
        for bit in range(5):
            if x >> bit & 1:
                table[x] |= 1 << HIDES[25 + bit]
    return table


_COVERED = _covered_table()


# ---------------------------------------------------------------------------
# Visible contacts and the win test.

def adjacency(occupied: int) -> tuple[int, ...]:
    """Visible contacts of an occupancy: for each point, the occupied points
    whose balls touch its ball in view (0 for empty or hidden points).  The
    engine's :func:`shibumi.position.linked` for every point at once.

    >>> adj = adjacency(0b11)                        # a1 and c1
    >>> adj[0] == 0b10 and adj[1] == 0b01 and not any(adj[2:])
    True
    """
    hidden = _COVERED[occupied >> 25] & occupied
    seen = occupied & ~hidden
    adj = [0] * NUM_POINTS
    for a, b, over in CONTACTS:
        if seen >> a & 1 and seen >> b & 1 and not (over and occupied & over == over):
            adj[a] |= 1 << b
            adj[b] |= 1 << a
    return tuple(adj)


def place(adj, occupied: int, p: int) -> list[int]:
    """The visible contacts after a ball is put at p (`occupied` before it):
    the contacts it passes over are cut, the ball two levels below it is
    hidden, and it touches every ball around it (none of them can be hidden or
    cut off from it yet)."""
    a = list(adj)
    for q, x, y in CUTS[p]:
        if occupied >> q & 1:
            a[x] &= ~(1 << y)
            a[y] &= ~(1 << x)
    h = HIDES[p]
    if h >= 0:
        nb = a[h]
        while nb:
            low = nb & -nb
            nb ^= low
            a[low.bit_length() - 1] &= ~(1 << h)
        a[h] = 0
    nb = TOUCHING_MASK[p] & occupied
    a[p] = nb
    bit = 1 << p
    while nb:
        low = nb & -nb
        nb ^= low
        a[low.bit_length() - 1] |= bit
    return a


def _reach(adj, g: int, own: int) -> int:
    """The balls of `own` connected to the balls `g` (a subset of own) over `adj`."""
    frontier = g
    while frontier:
        low = frontier & -frontier
        frontier ^= low
        new = adj[low.bit_length() - 1] & own & ~g
        g |= new
        frontier |= new
    return g


def group(adj, p: int, own: int) -> int:
    """The group of the ball at p among the balls `own`, over the contacts `adj`."""
    return _reach(adj, 1 << p, own)


def joined(adj, own: int, player: int) -> bool:
    """Does some group of `own` join the player's two sides?"""
    first, second = GOALS[player]
    return bool(_reach(adj, own & first, own) & second)


def wins_at(adj, occupied: int, own: int, p: int, player: int) -> bool:
    """Does `player` (owning `own`) win by putting a ball at p?  The engine's
    rule: the new ball's group, over the visible contacts after it, touches both
    of the player's sides."""
    first, second = GOALS[player]
    g = group(place(adj, occupied, p), p, own | 1 << p)
    return bool(g & first and g & second)


def winning_points(adj, occupied: int, own: int, player: int, playable: int | None = None,
                   raised=None) -> int:
    """The playable points where `player` (owning `own`) would win at once.

    The player's balls connected to each side are found once.  A board hole's
    ball touches only its neighbours on the board and cuts or hides nothing, so
    it wins when it lies on or next to both sets (a table look-up for all holes
    at once).  A raised point can only win if it touches both sets; those few
    are checked exactly (:func:`wins_at`).  `playable` and `raised` (the
    playable points above the board) can be passed when known.
    """
    first, second = GOALS[player]
    if playable is None:
        playable = playable_mask(occupied)
    if raised is None:
        raised = points_of(playable & ~_BOARD)
    a = _reach(adj, own & first, own)
    found = (first | _DILATE[a & _BOARD]) & playable & _BOARD
    if a:
        raised = [p for p in raised if TOUCHING_MASK[p] & a]
    elif raised:
        raised = ()
    if not (found or raised):
        return 0
    b = _reach(adj, own & second, own)
    found &= second | _DILATE[b & _BOARD]
    for p in raised:
        if TOUCHING_MASK[p] & b:
            g = _reach(place(adj, occupied, p), 1 << p, own | 1 << p)
            if g & first and g & second:
                found |= 1 << p
    return found


#: A distance meaning "can never join the sides".
FAR = 99


def distance(adj, own: int, occupied: int, player: int) -> int:
    """A lower bound on the balls `player` (owning `own`) must still place to
    join their sides, or FAR if they never can.

    A shortest path from one side to the other where the player's visible balls
    cost nothing and follow the contacts seen now, and empty points cost one
    ball and touch whatever their balls would touch.  Sound because two balls
    already placed never gain a contact later (contacts are only cut), hidden
    balls stay hidden, and balls never leave.
    """
    first, second = GOALS[player]
    vis = own & ~_COVERED[occupied >> 25]
    empty = _ALL_POINTS & ~occupied
    tlo, thi = _TOUCH_LO, _TOUCH_HI
    s = _reach(adj, vis & first, vis)
    if s & second:
        return 0
    k = 0
    while True:
        k += 1
        new = (tlo[s & 32767] | thi[s >> 15] | first) & empty & ~s
        if not new:
            return FAR
        if new & second:
            return k
        s |= new
        more = (tlo[new & 32767] | thi[new >> 15]) & vis & ~s
        if more:
            s = _reach(adj, more, vis) | s
            if s & second:
                return k


# ---------------------------------------------------------------------------
# Symmetry and the table key.

_SYM_TABLES = symmetry_tables()
_L2, _H2 = _SYM_TABLES[2]
_L4, _H4 = _SYM_TABLES[4]
_L5, _H5 = _SYM_TABLES[5]
_INVERSE = tuple(tuple(perm.index(q) for q in range(NUM_POINTS)) for perm in SYMMETRIES)
assert SYMMETRIES[0] == tuple(range(NUM_POINTS))


def canonical(me: int, opp: int) -> tuple[int, int]:
    """(key, symmetry index): the smallest image ``me' | opp' << 30`` of a
    position under the four symmetries that keep the goals, and the symmetry
    (an index into SYMMETRIES) that produces it."""
    a, b, c, d = me & 32767, me >> 15, opp & 32767, opp >> 15
    key, sym = me | opp << 30, 0
    k = _L2[a] | _H2[b] | (_L2[c] | _H2[d]) << 30
    if k < key:
        key, sym = k, 2
    k = _L4[a] | _H4[b] | (_L4[c] | _H4[d]) << 30
    if k < key:
        key, sym = k, 4
    k = _L5[a] | _H5[b] | (_L5[c] | _H5[d]) << 30
    if k < key:
        key, sym = k, 5
    return key, sym


def position_key(me: int, opp: int) -> tuple[int, int]:
    """(key, symmetry index) of a position in the transposition table: hidden
    balls never count again (no contact, no side), so their colour is forgotten
    (written into both masks), then :func:`canonical`."""
    hidden = _COVERED[(me | opp) >> 25]
    return canonical(me | hidden, opp | hidden)


def _static_rank(p: int) -> tuple:
    """From the centre of the top view outwards, higher balls first."""
    fx, fy = PROJECTION[p]
    return (abs(fx - 3) + abs(fy - 3), -LEVEL[p], p)


#: Points from the most to the least promising, before any search.
STATIC_ORDER = tuple(sorted(range(NUM_POINTS), key=_static_rank))


# ---------------------------------------------------------------------------
# The solver.

class SpanSolver:
    """Negamax alpha-beta on distance scores for Span, with a transposition
    table shared by every question asked of it (see the module docstring).

    `use_distance` and `filter_threats` switch off two of the prunings (for
    checks and measurements); `order` is the static move order.
    """

    def __init__(self, order=STATIC_ORDER, use_distance: bool = True,
                 filter_threats: bool = True) -> None:
        self.table: dict[int, int] = {}
        self.counts = [0] * 9
        self.order = tuple(order)
        self.use_distance = use_distance
        self.filter_threats = filter_threats
        self._occ: dict[int, tuple] = {}
        self.search = self._make_search()

    def _occ_info(self, occ: int):
        """(playable mask, playable points in order, raised playable points)."""
        pm = playable_mask(occ)
        pts = tuple(p for p in self.order if pm >> p & 1)
        info = self._occ[occ] = (pm, pts, tuple(p for p in pts if p >= 16))
        return info

    def _make_search(self):
        table, counts = self.table, self.counts
        occ_cache, occ_info = self._occ, self._occ_info
        key_of, inverse, perms = position_key, _INVERSE, SYMMETRIES
        cuts, hides, goals = CUTS, HIDES, GOALS
        wins, dist, child_adj = winning_points, distance, place
        use_distance, filter_threats = self.use_distance, self.filter_threats

        def spoils(adj, occ, opp, p, threats):
            """Can a ball at p cut a contact between two of opp's balls (now, or
            when opp plays on a threat point next to it) or hide one of them?"""
            for q, x, y in cuts[p]:
                if (occ | threats) >> q & 1 and adj[x] >> y & 1 and opp >> x & 1 \
                        and opp >> y & 1:
                    return True
            h = hides[p]
            return h >= 0 and opp >> h & 1 and adj[h] != 0

        def search(me, opp, adj, n, alpha, beta):
            counts[0] += 1
            occ = me | opp
            info = occ_cache.get(occ)
            if info is None:
                info = occ_info(occ)
            pm, pts, ups = info
            if not pts:
                return 0                                    # a full pyramid: a draw
            mover = n & 1
            if wins(adj, occ, me, mover, pm, ups):
                counts[1] += 1
                return 30 - n                               # win with ball n + 1
            threats = wins(adj, occ, opp, 1 - mover, pm, ups)
            if threats:
                if filter_threats:
                    pts = tuple(p for p in pts if threats >> p & 1
                                or p >= 16 and spoils(adj, occ, opp, p, threats))
                else:
                    pts = tuple(p for p in pts if threats >> p & 1 or p >= 16)
                if not pts:
                    counts[2] += 1
                    return n - 29                           # lost with ball n + 2
                counts[3] += 1
            if beta > 28 - n:                               # best case: win at n + 3
                beta = 28 - n
                if alpha >= beta:
                    return beta
            if alpha < n - 29:                              # worst case: loss at n + 2
                alpha = n - 29
                if alpha >= beta:
                    return alpha
            if use_distance:
                if alpha >= 26 - n or alpha >= 0:           # could the mover be too slow?
                    d = dist(adj, me, occ, mover)
                    ub = 0 if n + 2 * d > 31 else 32 - n - 2 * d
                    if ub <= alpha:
                        counts[7] += 1
                        return ub
                    if ub < beta:
                        beta = ub
                if not threats and (beta <= n - 25 or beta <= 0):   # or the opponent?
                    d = dist(adj, opp, occ, 1 - mover)
                    lb = 0 if n + 2 * d > 30 else n + 2 * d - 31
                    if lb >= beta:
                        counts[8] += 1
                        return lb
                    if lb > alpha:
                        alpha = lb
            key, sym = key_of(me, opp)
            entry = table.get(key)
            lo, hi = n - 29, 28 - n
            if entry is not None:                           # packed: lo, hi, best move
                lo, hi, first = (entry >> 11) - 32, (entry >> 5 & 63) - 32, entry & 31
                if lo >= beta or hi <= alpha:
                    counts[4] += 1
                    return lo if lo >= beta else hi
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
                first = inverse[sym][first]
                if first in pts:
                    pts = (first,) + tuple(p for p in pts if p != first)
            counts[6] += 1
            best, best_move, a = -INFINITY, -1, alpha
            for p in pts:
                v = -search(opp, me | 1 << p, child_adj(adj, occ, p), n + 1, -beta, -a)
                if v > best:
                    best, best_move = v, p
                    if v > a:
                        a = v
                        if a >= beta:
                            break
            if best <= alpha:
                if best < hi:
                    hi = best
            elif best >= beta:
                if best > lo:
                    lo = best
            else:
                lo = hi = best
            table[key] = (lo + 32) << 11 | (hi + 32) << 5 | perms[sym][best_move]
            return best

        return search

    # -- statistics -----------------------------------------------------
    @property
    def nodes(self) -> int:
        """Positions visited so far (each call of the search counts one)."""
        return self.counts[0]

    def statistics(self) -> dict:
        """What the search has done so far, by kind of node."""
        c = self.counts
        return {"nodes": c[0], "immediate_wins": c[1], "double_threats": c[2],
                "forced_blocks": c[3], "table_cutoffs": c[4], "expanded": c[6],
                "distance_cutoffs_mover": c[7], "distance_cutoffs_opponent": c[8],
                "table_entries": len(self.table)}

    # -- questions ------------------------------------------------------
    def value(self, me: int, opp: int, alpha: int = -INFINITY, beta: int = INFINITY) -> int:
        """Score of a position for the player to move (`me` holds that player's
        balls) by one search with the window (alpha, beta): exact inside it,
        a bound outside (fail-soft).  Exact with the default window."""
        occ = me | opp
        return self.search(me, opp, adjacency(occ), occ.bit_count(), alpha, beta)

    def exact(self, me: int, opp: int, adj=None) -> int:
        """Exact score by iterative deepening on the length: for m = n+1, n+2,
        ..., a null-window search asks whether the player placing the m-th ball
        wins with it at the latest; the first yes gives the value."""
        occ = me | opp
        n = occ.bit_count()
        if adj is None:
            adj = adjacency(occ)
        for m in range(n + 1, NUM_POINTS + 1):
            s = 31 - m
            if (m - n) % 2:                          # the mover places ball m
                if self.search(me, opp, adj, n, s - 1, s) >= s:
                    return s
            elif self.search(me, opp, adj, n, -s, 1 - s) <= -s:
                return -s
        return 0                                     # pragma: no cover - Span has no draws

    def child_value(self, me: int, opp: int, p: int, adj=None) -> int:
        """Exact score, for the mover, of playing at p."""
        occ = me | opp
        n = occ.bit_count()
        if adj is None:
            adj = adjacency(occ)
        if wins_at(adj, occ, me, p, n & 1):
            return 30 - n
        if n + 1 == NUM_POINTS:
            return 0
        return -self.exact(opp, me | 1 << p, place(adj, occ, p))

    def move_values(self, me: int, opp: int) -> dict[int, int]:
        """{point: exact score for the mover} for every playable point."""
        occ = me | opp
        adj = adjacency(occ)
        return {p: self.child_value(me, opp, p, adj) for p in points_of(playable_mask(occ))}

    def principal_variation(self, me: int, opp: int) -> list[int]:
        """One line of perfect play to the end of the game (points in order):
        the winner wins as fast as possible, the loser holds out longest."""
        line = []
        while True:
            occ = me | opp
            n = occ.bit_count()
            adj = adjacency(occ)
            if joined(adj, opp, (n + 1) & 1) or n == NUM_POINTS:
                return line
            target = self.exact(me, opp, adj)
            pm = playable_mask(occ)
            for p in (p for p in self.order if pm >> p & 1):
                if wins_at(adj, occ, me, p, n & 1):
                    v = 30 - n
                elif n + 1 == NUM_POINTS:
                    v = 0
                else:
                    v = -self.search(opp, me | 1 << p, place(adj, occ, p), n + 1,
                                     -target - 1, -target + 1)
                if v == target:
                    break
            else:  # pragma: no cover - would mean an inconsistent table
                raise AssertionError("no move reaches the position's value")
            line.append(p)
            me, opp = opp, me | 1 << p


# ---------------------------------------------------------------------------
# Positions given by the user.

def _split(position) -> tuple[int, int]:
    """(white, black) masks of a Position, a State, or a (white, black) pair."""
    position = getattr(position, "position", position)
    if hasattr(position, "white"):
        if getattr(position, "red", 0):
            raise ValueError("Span has no red balls")
        return position.white, position.black
    white, black = position
    return int(white), int(black)


def _mover_masks(white: int, black: int) -> tuple[int, int, int]:
    """(mover, opponent, balls) after checking the masks make a Span position."""
    if white < 0 or black < 0 or white & black:
        raise ValueError("a point cannot hold a white and a black ball")
    occ = white | black
    if occ >> NUM_POINTS:
        raise ValueError("masks have bits beyond the 30 points")
    for p in points_of(occ):
        if occ & SUPPORT_MASK[p] != SUPPORT_MASK[p]:
            raise ValueError(f"the ball at {point_name(p)} does not rest on four balls")
    nw, nb = white.bit_count(), black.bit_count()
    if nw - nb not in (0, 1):
        raise ValueError(f"{nw} white and {nb} black balls cannot arise in Span "
                         "(White moves first, then turns alternate)")
    return (white, black, nw + nb) if nw == nb else (black, white, nw + nb)


def winner_of(position) -> int:
    """1 if White has joined left and right, 2 if Black has joined bottom and
    top, 0 if neither (3 if both, which no game reaches)."""
    white, black = _split(position)
    adj = adjacency(white | black)
    return joined(adj, white, 0) + 2 * joined(adj, black, 1)


def move_values(position, solver: SpanSolver | None = None) -> dict[int, MoveValue]:
    """The exact value of every legal move in a Span position.

    `position` is a :class:`~shibumi.position.Position`, a game state or a
    ``(white, black)`` pair of point masks; the player to move follows from
    the number of balls.  Returns ``{point: MoveValue(score, result, length)}``
    from the point of view of the player making the move: ``result`` is
    ``'win'`` or ``'loss'`` and ``length`` the number of balls on the pyramid
    when the game ends under perfect play.  Finished positions have no moves.
    """
    white, black = _split(position)
    me, opp, n = _mover_masks(white, black)
    if winner_of((white, black)):
        return {}
    solver = solver if solver is not None else SpanSolver()
    return {p: MoveValue(score, *describe_score(score))
            for p, score in solver.move_values(me, opp).items()}


def position_value(position, solver: SpanSolver | None = None) -> MoveValue:
    """The exact value of a Span position for the player to move (a finished
    game is a loss for them, with the balls already on the pyramid)."""
    white, black = _split(position)
    me, opp, n = _mover_masks(white, black)
    adj = adjacency(me | opp)
    if joined(adj, opp, (n + 1) & 1):
        return MoveValue(-(INFINITY - n), "loss", n)
    if joined(adj, me, n & 1):
        raise ValueError("the player to move has already joined their sides: "
                         "the game ended earlier")
    if n == NUM_POINTS:  # pragma: no cover - a full pyramid always has a winner
        return MoveValue(0, "draw", n)
    solver = solver if solver is not None else SpanSolver()
    score = solver.exact(me, opp, adj)
    return MoveValue(score, *describe_score(score))


# ---------------------------------------------------------------------------
# The solve.

def _first_move_classes() -> list[int]:
    """One representative of each class of first moves under SPAN_SYMMETRIES."""
    reps, seen = [], set()
    for p in STATIC_ORDER:
        if p >= 16 or p in seen:
            continue
        seen |= {SYMMETRIES[s][p] for s in SPAN_SYMMETRIES}
        reps.append(p)
    return reps


def solve_span(progress=None) -> dict:
    """Solve Span from the empty board.

    Returns a dict with

    * ``winner`` (1 for White, 2 for Black) and ``winner_name``;
    * ``length``: balls on the pyramid when the game ends under perfect play
      (the winner wins as fast as possible, the loser holds out as long as
      possible);
    * ``score``: the negamax score of the empty board for White (``31 - length``
      for a White win, ``-(31 - length)`` for a Black one);
    * ``winning_first_moves``: White's first moves that win (point names), all
      of them, sorted; empty if Black wins;
    * ``first_moves``: the exact value of each first move for White, one per
      class of holes equivalent under the symmetries that keep the goals
      (``same_as`` lists the class), with ``score``, ``result``, ``length``;
    * ``principal_variation``: one line of perfect play, as point names;
    * ``nodes``, ``positions`` (table entries), ``seconds`` (all of it),
      ``search_seconds`` (the first moves only), ``statistics`` (nodes by kind,
      see :meth:`SpanSolver.statistics`) and ``method``.

    `progress`, if given, wraps the iteration over the classes of first moves
    (``tqdm.tqdm`` works).
    """
    start = time.perf_counter()
    solver = SpanSolver()
    reps = _first_move_classes()
    first_moves, winning = {}, []
    for p in (progress(reps) if progress is not None else reps):
        score = solver.child_value(0, 0, p)
        result, length = describe_score(score)
        same = sorted({SYMMETRIES[s][p] for s in SPAN_SYMMETRIES})
        first_moves[point_name(p)] = {"score": score, "result": result, "length": length,
                                      "same_as": [point_name(q) for q in same]}
        if score > 0:
            winning += same
    score = max(v["score"] for v in first_moves.values())
    search_seconds = time.perf_counter() - start
    pv = solver.principal_variation(0, 0)
    result, length = describe_score(score)
    winner = {"win": 1, "loss": 2}[result]
    seconds = time.perf_counter() - start
    return {
        "winner": winner,
        "winner_name": ("nobody", "White", "Black")[winner],
        "length": length,
        "score": score,
        "winning_first_moves": [point_name(p) for p in sorted(winning)],
        "first_moves": first_moves,
        "principal_variation": [point_name(p) for p in pv],
        "nodes": solver.nodes,
        "positions": len(solver.table),
        "seconds": round(seconds, 3),
        "search_seconds": round(search_seconds, 3),
        "statistics": solver.statistics(),
        "method": "negamax alpha-beta on distance scores (31 - balls at the end), "
                  "iterative deepening on the length with null windows (can the "
                  "player placing ball m win by then?), lower bounds on the balls "
                  "each player still needs, threat pruning, a transposition table "
                  "keyed by the canonical form under the 4 symmetries that keep the "
                  "goals; the win test is the engine's rule on visible contacts",
    }
