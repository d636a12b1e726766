"""Solving Spline from the empty board: who wins, and how long the game lasts.

Spline is a placement game of perfect information with at most 30 moves, so
it has a value under perfect play.  This module computes it exactly, not just
the winner but the *length*: the number of balls on the pyramid when the game
ends if the winner wins as fast as possible and the loser holds out as long as
possible (a distance-to-mate value).

The method
----------
* **State.**  A position is two 30-bit integers: the mover's balls and the
  opponent's.  Whose turn it is follows from the number of balls (White moves
  when it is even), so nothing else is needed.
* **Scores.**  A game that ends with the mover winning when the ``m``-th ball
  is placed scores ``31 - m`` for the mover, a loss scores ``-(31 - m)`` and a
  draw (a full pyramid without a line) ``0``.  Winning sooner and losing later
  are both better, and the score of a position does not depend on the path
  that reached it (``m`` counts balls, not moves searched).
* **Negamax with alpha-beta** (fail-soft) on these scores.  Searched from the
  root with the full window ``(-31, 31)`` it returns the exact minimax value,
  hence the exact length.
* **Threats.**  Lookup tables give, for any set of balls, the empty points that
  would complete a line (one table for the board, one for levels 1 and 2).
  If the mover can complete a line, the value is a win on the next ball.  If
  the opponent threatens two different playable points, the mover can block
  only one (a placement never makes a playable point unplayable), so the value
  is a loss on the ball after next.  If the opponent threatens exactly one, the
  block is the only move worth searching: every other move loses at once,
  which is the worst possible outcome here.
* **Bounds** ("mate-distance pruning"): without an immediate win, the best the
  mover can hope for is a win three balls later, and the worst is a loss two
  balls later; the window is clamped to that.
* **Transposition table** storing a lower and an upper bound and the best
  move of each position searched, so that positions reached in different
  orders are searched once.  Its key forgets what cannot matter:

  - *dead lines*: a line holding balls of both colours can never be
    completed, and a ball all of whose lines are dead (the apex has none)
    can never matter again, so its colour is dropped (it is written into both
    masks as a neutral ball; see :func:`position_key`).  Positions that differ
    only there have the same value.  This is what makes the solve fast: in
    the second half of the game most lines are dead, and it cuts the search
    about tenfold;
  - *symmetry*: the key is the smallest of the 8 images of the position under
    the symmetries of the square, found with per-15-bit lookup tables
    (:func:`canonical`).
* **Move ordering**: the best move remembered in the table first, then a fixed
  order of points (:data:`STATIC_ORDER`: board corners, board centre, the
  upper levels, board edges last), chosen by counting nodes on the full solve.
  (A history heuristic, killer moves and threat-first ordering were tried and
  did not pay; enhanced transposition cutoffs are available as an option.)

The answer
----------
**Black wins, and the game lasts 26 balls**: whichever first move White makes
(corner, edge or centre hole), Black can complete a line with the 26th ball,
and White can hold out that long.  Every game is over by the 28th ball (see
:func:`spline_game_lengths`), so Spline has no draws.  :func:`solve_spline`
takes 1.5-3 seconds (about 440 000 nodes, 100 000 stored positions) on one
core of a small machine.

Checks
------
``tests/test_maths_solve.py`` compares the solver with a plain minimax (no
pruning, no symmetry, no forgotten colours, written separately) on random
mid-game positions and on the principal variation, compares
:func:`move_values` with it too, and replays the principal variation with the
engine's own rules (``shibumi.load('spline')``).

>>> solver = SplineSolver()
>>> white = 0b1110                                # c1 e1 g1
>>> black = 1 << 4 | 1 << 5 | 1 << 10            # a3 c3 e5
>>> solver.value(white, black)                   # White to move completes a1-g1
24
>>> describe_score(24)                           # with the 7th ball
('win', 7)
"""

from __future__ import annotations

import time
from typing import NamedTuple

from ..geometry import (APEX, LEVEL, LINE_MASKS, LINES_THROUGH, NUM_POINTS, PROJECTION,
                        SUPPORT_MASK, SYMMETRIES, points_of)
from ..notation import point_name
from ..position import playable_mask
from .masks import symmetry_tables

#: Scores lie in [-(31 - m), 31 - m]; no real score reaches these.
INFINITY = 31
_BOARD_BITS = 0xFFFF
_ALL_POINTS = (1 << NUM_POINTS) - 1


# ---------------------------------------------------------------------------
# Tables, built once at import (a fraction of a second).

def _completion_table(first: int, width: int) -> list[int]:
    """table[x] = points that complete a line for a player owning x (bits
    ``first`` .. ``first + width - 1``), for the lines lying in those bits."""
    span = ((1 << width) - 1) << first
    lines = [m for m in LINE_MASKS if m & span == m]
    table = [0] * (1 << width)
    for x in range(1 << width):
        own = x << first
        found = 0
        for line in lines:
            missing = line & ~own
            if missing and not missing & (missing - 1):
                found |= missing
        table[x] = found
    return table


#: Points completing a board line (level 0) / a level 1 or level 2 line.
_WIN_BOARD = _completion_table(0, 16)
_WIN_UPPER = _completion_table(16, 13)       # levels 1 and 2 (bits 16-28)


def _threats(own: int, playable: int) -> int:
    """Playable points where a player owning `own` would complete a line."""
    return (_WIN_BOARD[own & _BOARD_BITS] | _WIN_UPPER[own >> 16 & 0x1FFF]) & playable


_SYM_TABLES = symmetry_tables()
_INVERSE = tuple(tuple(perm.index(q) for q in range(NUM_POINTS)) for perm in SYMMETRIES)
assert SYMMETRIES[0] == tuple(range(NUM_POINTS))      # the identity comes first
(_, _), (_L1, _H1), (_L2, _H2), (_L3, _H3), (_L4, _H4), (_L5, _H5), (_L6, _H6), (_L7, _H7) = \
    _SYM_TABLES


def canonical(me: int, opp: int) -> tuple[int, int]:
    """(key, symmetry index): the smallest image ``me' | opp' << 30`` of a position
    under the 8 symmetries, and the first symmetry that produces it.

    Written out in full: this is the hottest function of the solver.
    """
    a, b, c, d = me & 32767, me >> 15, opp & 32767, opp >> 15
    keys = (me | opp << 30,
            _L1[a] | _H1[b] | (_L1[c] | _H1[d]) << 30,
            _L2[a] | _H2[b] | (_L2[c] | _H2[d]) << 30,
            _L3[a] | _H3[b] | (_L3[c] | _H3[d]) << 30,
            _L4[a] | _H4[b] | (_L4[c] | _H4[d]) << 30,
            _L5[a] | _H5[b] | (_L5[c] | _H5[d]) << 30,
            _L6[a] | _H6[b] | (_L6[c] | _H6[d]) << 30,
            _L7[a] | _H7[b] | (_L7[c] | _H7[d]) << 30)
    key = min(keys)
    return key, keys.index(key)


def _line_sets(shift: int) -> list[int]:
    """table[x] = the lines (as bits over LINE_MASKS) through any point of the
    15-bit chunk x of a mask (bits ``shift`` .. ``shift + 14``)."""
    table = [0] * 32768
    for i, line in enumerate(LINE_MASKS):
        chunk = line >> shift & 32767
        for x in range(32768):
            if x & chunk:
                table[x] |= 1 << i
    return table


def _line_unions(first: int) -> list[int]:
    """table[x] = the union of the point masks of lines first .. first + 7
    selected by the bits of x."""
    table = [0] * 256
    for x in range(256):
        for i in range(8):
            if x >> i & 1 and first + i < len(LINE_MASKS):
                table[x] |= LINE_MASKS[first + i]
    return table


_LINES_LO, _LINES_HI = _line_sets(0), _line_sets(15)
_UNION0, _UNION1, _UNION2 = _line_unions(0), _line_unions(8), _line_unions(16)
_ALL_LINES = (1 << len(LINE_MASKS)) - 1
assert len(LINE_MASKS) <= 24


def position_key(me: int, opp: int) -> tuple[int, int]:
    """(key, symmetry index) of a position in the transposition table.

    A line holding balls of both colours is *dead*: it can never be completed.
    A ball whose lines are all dead (the apex has none) can never matter
    again, so its colour is forgotten: it is written into both masks, as a
    neutral ball.  Positions that differ only in such colours have the same
    value (the same balls are playable, the same lines can be completed) and
    share one entry.  The result is then reduced by the 8 symmetries
    (:func:`canonical`).
    """
    dead = ((_LINES_LO[me & 32767] | _LINES_HI[me >> 15])
            & (_LINES_LO[opp & 32767] | _LINES_HI[opp >> 15]))
    if dead:
        alive = _ALL_LINES & ~dead
        live = _UNION0[alive & 255] | _UNION1[alive >> 8 & 255] | _UNION2[alive >> 16]
        return canonical(me | opp & ~live, opp | me & ~live)
    return canonical(me | opp & 1 << APEX, opp | me & 1 << APEX)


def _static_rank(p: int) -> int:
    """Kinds of points, best first: board corners, the board centre, the apex,
    level 2, the centre of level 1, its corners, its edges, and the board edges
    last.  (Chosen by counting nodes on the full solve: putting the board edges
    first, or the centre before the corners, costs up to twice as many.)"""
    fx, fy = PROJECTION[p]
    far = abs(fx - 3) + abs(fy - 3)              # 0 at the centre of the top view
    if LEVEL[p] == 0:
        return {6: 0, 2: 1}.get(far, 7)          # corner, centre, edge
    if LEVEL[p] == 1:
        return {0: 4, 4: 5}.get(far, 6)          # centre, corner, edge
    return 2 if LEVEL[p] == 3 else 3


#: Points from the most to the least promising, before any search.
STATIC_ORDER = tuple(sorted(range(NUM_POINTS), key=lambda p: (_static_rank(p), p)))


# ---------------------------------------------------------------------------
# Scores.

class MoveValue(NamedTuple):
    """The value of a move for the player making it."""
    score: int
    """Negamax score: ``31 - m`` for a win at ball ``m``, ``-(31 - m)`` for a loss, 0 draw."""
    result: str
    """``'win'``, ``'loss'`` or ``'draw'`` for the player making the move."""
    length: int
    """Balls on the pyramid when the game ends under perfect play."""


def describe_score(score: int) -> tuple[str, int]:
    """(result for the player the score belongs to, balls on the pyramid when
    the game ends).  Scores do not depend on the node: a draw fills the pyramid."""
    if score > 0:
        return "win", INFINITY - score
    if score < 0:
        return "loss", INFINITY + score
    return "draw", NUM_POINTS


def _split(position) -> tuple[int, int]:
    """(white, black) masks of a Position, a State, or a (white, black) pair."""
    position = getattr(position, "position", position)
    if hasattr(position, "white"):
        if getattr(position, "red", 0):
            raise ValueError("Spline has no red balls")
        return position.white, position.black
    white, black = position
    return int(white), int(black)


def _mover_masks(white: int, black: int) -> tuple[int, int, int]:
    """(mover, opponent, balls) after checking the masks make a Spline position."""
    if white & black:
        raise ValueError("a point cannot hold a white and a black ball")
    occ = white | black
    if occ >> NUM_POINTS:
        raise ValueError("masks have bits beyond the 30 points")
    for p in points_of(occ):
        if occ & SUPPORT_MASK[p] != SUPPORT_MASK[p]:
            raise ValueError(f"the ball at {point_name(p)} does not rest on four balls")
    nw, nb = white.bit_count(), black.bit_count()
    if nw - nb not in (0, 1):
        raise ValueError(f"{nw} white and {nb} black balls cannot arise in Spline "
                         "(White moves first, then turns alternate)")
    return (white, black, nw + nb) if nw == nb else (black, white, nw + nb)


def has_line(own: int) -> bool:
    """Whether a set of balls contains a full-length line of one level."""
    return any(own & line == line for line in LINE_MASKS)


# ---------------------------------------------------------------------------
# The solver.

class SplineSolver:
    """Exact values of Spline positions; the transposition table persists
    between calls, so later questions about the same game are cheap."""

    def __init__(self, etc_balls: int = 0) -> None:
        """`etc_balls`: below this many balls, look every child up in the table
        before searching any (enhanced transposition cutoffs).  It saves
        nodes (a quarter at 20) but costs more time than it saves here, so it
        is off by default."""
        self.etc_balls = etc_balls
        #: canonical key -> (lower bound + 32) << 11 | (upper bound + 32) << 5 | best move
        self.table: dict[int, int] = {}
        #: Counters: nodes, immediate wins, double threats, forced blocks,
        #: table cutoffs, enhanced transposition cutoffs, nodes searched in full.
        self.counts = [0] * 7
        self._moves: dict[int, tuple[int, tuple[int, ...]]] = {}
        self.search = self._make_search()

    def _make_search(self):
        table, moves_cache = self.table, self._moves
        key_of, inverse, counts = position_key, _INVERSE, self.counts
        order, etc_balls = STATIC_ORDER, self.etc_balls
        perms = SYMMETRIES
        win_board, win_upper = _WIN_BOARD, _WIN_UPPER

        def moves_of(occ):
            entry = moves_cache.get(occ)
            if entry is None:
                pm = playable_mask(occ)
                entry = moves_cache[occ] = (pm, tuple(p for p in order if pm >> p & 1))
            return entry

        def search(me, opp, n, alpha, beta):
            """Fail-soft negamax value of (me to move, opp) with n balls placed."""
            counts[0] += 1
            occ = me | opp
            pm, pts = moves_of(occ)
            if not pm:
                return 0                                   # full pyramid, no line
            if (win_board[me & 0xFFFF] | win_upper[me >> 16 & 0x1FFF]) & pm:
                counts[1] += 1
                return 30 - n                              # win with ball n + 1
            block = (win_board[opp & 0xFFFF] | win_upper[opp >> 16 & 0x1FFF]) & pm
            if block:
                if block & (block - 1):
                    counts[2] += 1
                    return n - 29                          # two threats: lost at n + 2
                counts[3] += 1
                return -search(opp, me | block, n + 1, -beta, -alpha)
            if beta > 28 - n:                              # best case: win at n + 3
                beta = 28 - n
                if alpha >= beta:
                    return beta
            if alpha < n - 29:                             # worst case: loss at n + 2
                alpha = n - 29
                if alpha >= beta:
                    return alpha
            key, sym = key_of(me, opp)
            entry = table.get(key)
            lo, hi, first = n - 29, 28 - n, -1
            if entry is not None:                          # packed: lo, hi, best move
                lo, hi, first = (entry >> 11) - 32, (entry >> 5 & 63) - 32, entry & 31
                if lo >= beta or hi <= alpha:
                    counts[4] += 1
                    return lo if lo >= beta else hi
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
                first = inverse[sym][first]
            if first >= 0:
                pts = (first,) + tuple(p for p in pts if p != first)
            if n < etc_balls:                              # enhanced transposition cutoff
                for p in pts:
                    child = table.get(key_of(opp, me | 1 << p)[0])
                    if child is not None and 32 - (child >> 5 & 63) >= beta:
                        counts[5] += 1
                        return 32 - (child >> 5 & 63)      # minus the child's upper bound
            counts[6] += 1
            best, best_move, a = -INFINITY, -1, alpha
            for p in pts:
                v = -search(opp, me | 1 << p, n + 1, -beta, -a)
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

    @property
    def nodes(self) -> int:
        """Positions visited so far (each call of the search counts one)."""
        return self.counts[0]

    def statistics(self) -> dict:
        """What the search has done so far, by kind of node."""
        c = self.counts
        return {"nodes": c[0], "immediate_wins": c[1], "double_threats": c[2],
                "forced_blocks": c[3], "table_cutoffs": c[4], "enhanced_cutoffs": c[5],
                "expanded": c[6], "table_entries": len(self.table)}

    # -- questions ------------------------------------------------------
    def value(self, me: int, opp: int, alpha: int = -INFINITY, beta: int = INFINITY) -> int:
        """Score of a position for the player to move (`me` holds that
        player's balls).  Exact with the default window."""
        return self.search(me, opp, (me | opp).bit_count(), alpha, beta)

    def child_value(self, me: int, opp: int, p: int) -> int:
        """Exact score, for the mover, of playing at p."""
        n = (me | opp).bit_count()
        mine = me | 1 << p
        if any(mine & line == line for line in LINES_THROUGH[p]):
            return 30 - n
        if n + 1 == NUM_POINTS:
            return 0
        return -self.value(opp, mine)

    def move_values(self, me: int, opp: int) -> dict[int, int]:
        """{point: exact score for the mover} for every playable point."""
        occ = me | opp
        return {p: self.child_value(me, opp, p) for p in points_of(playable_mask(occ))}

    def principal_variation(self, me: int, opp: int) -> list[int]:
        """One line of perfect play to the end of the game (points in order)."""
        line = []
        while True:
            occ = me | opp
            if has_line(opp) or occ == (1 << NUM_POINTS) - 1:
                return line
            target = self.value(me, opp)
            pm = playable_mask(occ)
            n = occ.bit_count()
            for p in (p for p in STATIC_ORDER if pm >> p & 1):
                mine = me | 1 << p
                if any(mine & l == l for l in LINES_THROUGH[p]):
                    v = 30 - n
                elif n + 1 == NUM_POINTS:
                    v = 0
                else:
                    v = -self.value(opp, mine, -target - 1, -target + 1)
                if v == target:
                    break
            else:  # pragma: no cover - would mean an inconsistent table
                raise AssertionError("no move reaches the position's value")
            line.append(p)
            me, opp = opp, mine


def _point_texts(points) -> list[str]:
    return [point_name(p) for p in points]


def _first_move_classes() -> list[int]:
    """One representative of each class of first moves under the symmetries."""
    reps, seen = [], set()
    for p in STATIC_ORDER:
        if p >= 16 or p in seen:
            continue
        orbit = {perm[p] for perm in SYMMETRIES}
        seen |= orbit
        reps.append(p)
    return reps


def solve_spline(progress=None) -> dict:
    """Solve Spline from the empty board.

    Returns a dict with ``winner`` (1 for White, 2 for Black, 0 for a draw)
    and ``length`` (balls on the pyramid when the game ends under perfect
    play: the winner wins as fast as possible, the loser resists as long as
    possible), and extras:

    * ``score``: the negamax score of the empty board for White;
    * ``first_moves``: the exact value of each first move, one per class of
      symmetric board holes (``same_as`` lists the class), for White;
    * ``principal_variation``: one line of perfect play, as point names;
    * ``statistics``: nodes visited, by kind (see :meth:`SplineSolver.statistics`),
      and ``table_by_balls``, the stored positions by number of balls;
    * ``nodes``, ``positions`` (table entries), ``seconds`` (all of it) and
      ``search_seconds`` (the first moves only), ``nodes_per_second``.

    `progress`, if given, wraps the iteration over the classes of first
    moves (``tqdm.tqdm`` works), like :func:`shibumi.analysis.perft_divide`.
    """
    start = time.perf_counter()
    solver = SplineSolver()
    reps = _first_move_classes()
    first_moves = {}
    for p in (progress(reps) if progress is not None else reps):
        score = solver.child_value(0, 0, p)
        result, length = describe_score(score)
        first_moves[point_name(p)] = {
            "score": score, "result": result, "length": length,
            "same_as": _point_texts(sorted({perm[p] for perm in SYMMETRIES}))}
    score = max(v["score"] for v in first_moves.values())
    search_seconds = time.perf_counter() - start
    pv = solver.principal_variation(0, 0)
    result, length = describe_score(score)
    winner = {"win": 1, "loss": 2, "draw": 0}[result]
    stats = solver.statistics()
    by_balls = [0] * (NUM_POINTS + 1)
    for key in solver.table:
        by_balls[((key | key >> 30) & _ALL_POINTS).bit_count()] += 1
    stats["table_by_balls"] = {n: c for n, c in enumerate(by_balls) if c}
    seconds = time.perf_counter() - start
    return {
        "winner": winner,
        "winner_name": ("nobody", "White", "Black")[winner],
        "length": length,
        "score": score,
        "first_moves": first_moves,
        "principal_variation": _point_texts(pv),
        "nodes": solver.nodes,
        "positions": len(solver.table),
        "seconds": round(seconds, 3),
        "search_seconds": round(search_seconds, 3),
        "nodes_per_second": round(solver.nodes / max(seconds, 1e-9)),
        "statistics": stats,
        "method": "negamax alpha-beta on distance scores (31 - balls at the end) with "
                  "the full window, threat pruning, a transposition table keyed by the "
                  "canonical form under the 8 symmetries, enhanced transposition cutoffs",
    }


def move_values(position_masks, solver: SplineSolver | None = None) -> dict[int, MoveValue]:
    """The exact value of every legal move in a Spline position.

    `position_masks` is a ``(white, black)`` pair of point masks (a
    :class:`~shibumi.position.Position` or a game state also works); the
    player to move follows from the number of balls.  Returns ``{point:
    MoveValue(score, result, length)}`` from the point of view of the player
    making the move; ``length`` counts the balls when the game ends.
    Finished positions have no moves.
    """
    white, black = _split(position_masks)
    me, opp, n = _mover_masks(white, black)
    if has_line(white) or has_line(black):
        return {}
    solver = solver if solver is not None else SplineSolver()
    out = {}
    for p, score in solver.move_values(me, opp).items():
        result, length = describe_score(score)
        out[p] = MoveValue(score, result, length)
    return out


def position_value(position_masks, solver: SplineSolver | None = None) -> MoveValue:
    """The exact value of a Spline position for the player to move."""
    white, black = _split(position_masks)
    me, opp, n = _mover_masks(white, black)
    if has_line(opp):
        return MoveValue(-(INFINITY - n), "loss", n)
    if has_line(me):
        raise ValueError("the player to move already has a line: the game ended earlier")
    if n == NUM_POINTS:
        return MoveValue(0, "draw", n)
    solver = solver if solver is not None else SplineSolver()
    score = solver.value(me, opp)
    return MoveValue(score, *describe_score(score))


# ---------------------------------------------------------------------------
# The shortest and the longest games.

def _wins_at(own: int, p: int) -> bool:
    own |= 1 << p
    return any(own & line == line for line in LINES_THROUGH[p])


def _line_free_capacity() -> dict[int, int]:
    """Most balls each level can hold with no line of either colour, when it is
    not just the whole level: found by trying every colouring of level 2
    (3**4 of them); the apex needs a full level 2 below it."""
    from itertools import product
    level2 = [p for p in range(NUM_POINTS) if LEVEL[p] == 2]
    best = 0
    for colours in product((0, 1, 2), repeat=len(level2)):
        own = [0, 0, 0]
        for p, c in zip(level2, colours):
            own[c] |= 1 << p
        if not has_line(own[1]) and not has_line(own[2]):
            best = max(best, (own[1] | own[2]).bit_count())
    return {0: 16, 1: 9, 2: best, 3: 1 if best == 4 else 0}


def _shortest_game() -> list[int]:
    """Breadth first over distinct positions (up to symmetry): the first layer in
    which the player to move can complete a line; returns one such game."""
    layer = {canonical(0, 0)[0]: (0, 0, ())}       # key -> (mover, other, points so far)
    while layer:
        for me, opp, moves in layer.values():
            wins = _threats(me, playable_mask(me | opp))
            if wins:
                return list(moves) + [(wins & -wins).bit_length() - 1]
        following = {}
        for me, opp, moves in layer.values():
            for p in points_of(playable_mask(me | opp)):
                child = (opp, me | 1 << p)
                following.setdefault(canonical(*child)[0], child + (moves + (p,),))
        layer = following
    return []


def _longest_game(target: int) -> list[int] | None:
    """Depth-first search for a game whose first `target` balls make no line;
    positions found to lead nowhere are remembered up to symmetry."""
    dead: set[int] = set()
    path: list[int] = []

    def extend(me: int, opp: int) -> bool:
        n = len(path)
        if n == target:
            return True
        key = canonical(me, opp)[0]
        if key in dead:
            return False
        for p in points_of(playable_mask(me | opp)):
            if _wins_at(me, p):
                continue
            path.append(p)
            if extend(opp, me | 1 << p):
                return True
            path.pop()
        dead.add(key)
        return False

    if not extend(0, 0):
        return None
    me, opp = (0, 0)
    for p in path:
        me, opp = opp, me | 1 << p
    pm = playable_mask(me | opp)
    return path + [(pm & -pm).bit_length() - 1] if pm else path


def spline_game_lengths() -> dict:
    """The shortest and the longest possible Spline games, in balls placed.

    * **Shortest**: a breadth-first search over all positions (up to symmetry)
      finds the first number of balls at which the player to move can
      complete a line.  A line needs 4 balls of one colour on the board (a
      ball on level 1 already needs 4 board balls under it), so White cannot
      win before the 7th ball; the search confirms 7.
    * **Longest**: a line-free position holds at most one white and one black
      ball on level 2 (every pair of level-2 points is a line, checked here by
      trying all colourings), so the apex can never be reached and a line-free
      position has at most 16 + 9 + 2 = 27 balls: every game is over by the
      28th ball, and in particular no game fills the pyramid, so Spline has no
      draws.  A depth-first search then finds a game whose first 27 balls
      make no line, so 28 is attained: whoever places the 28th ball must put it
      on level 2 next to their own ball there, and wins.

    Returns ``shortest``, ``longest`` (numbers of balls), an example game of
    each (move texts), ``line_free_capacity`` (balls per level), ``draw_possible``
    and ``seconds``.
    """
    start = time.perf_counter()
    capacity = _line_free_capacity()
    shortest = _shortest_game()
    bound = sum(capacity.values())                   # most balls without a line
    longest = _longest_game(bound)
    if longest is None:  # pragma: no cover - the bound is attained
        raise AssertionError("no game reaches the line-free bound; search lower")
    return {
        "shortest": len(shortest),
        "shortest_game": _point_texts(shortest),
        "longest": len(longest),
        "longest_game": _point_texts(longest),
        "line_free_capacity": capacity,
        "draw_possible": bound == NUM_POINTS,
        "seconds": round(time.perf_counter() - start, 3),
        "method": "shortest: breadth-first search up to symmetry; longest: at most one "
                  "ball of each colour fits on level 2 without a line, so a line-free "
                  "position has at most 27 balls, and a depth-first search finds a game "
                  "whose first 27 balls make no line",
    }
