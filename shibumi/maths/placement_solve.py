"""Solving three more placement games from their start: Spodd, Sparro, Sponnect.

Like Spline and Span (:mod:`shibumi.maths.solve`, :mod:`shibumi.maths.span_solve`),
these games have perfect information, no chance and a bounded length, so each
has a value.  :func:`solve_spodd`, :func:`solve_sparro` and
:func:`solve_sponnect` (or :func:`solve`, by name) find who wins, the first
moves that win, the length of a perfectly played game and one such game.

The answers
-----------
* **Spodd**: White, the first player, wins.  The game always fills the
  pyramid, so it lasts 28 balls whatever is played.  Of the 80 first turns
  only ``Wc1 Bc3.0``, ``Wa3 Bc3.0``, ``Wg5 Be5.0``, ``We7 Be5.0`` and the same
  pairs in the other order win: White's ball on a short diagonal next to a
  red corner, the black ball on the centre hole beside it, where it will be
  buried.  968 162 nodes, a few seconds.
* **Sparro**: White wins with every one of the twelve first moves; the game
  always lasts 24 placements.  7.1 million nodes, about a minute.
* **Sponnect**: White wins, and only by opening on one of the eight edge
  holes that are not corners; a corner or a pass loses.  22.8 million nodes,
  about four minutes and 1.4 GB.  How long the game lasts is open: at least
  31 actions, passes included (:func:`sponnect_length_at_least`).

The figures are asserted by ``tests/test_maths_placement_solve.py`` (the
last two by slow tests).

The method
----------
Each solver is a negamax search on bit masks with a transposition table keyed
by the smallest image of the position under the symmetries the game declares
(``Game.symmetries``).  None of them carries its own copy of the rules:

* moves come from the games' own mask functions (Spodd's
  :func:`~shibumi.games.spodd.first_spots` and
  :func:`~shibumi.games.spodd.second_spots`, the playable points of
  :func:`~shibumi.games.placement.playable_points`), the first turns and the
  moves named in the answers from ``Game.legal_moves`` and ``Game.apply``;
* lines, diagonals and sides come from the game modules
  (:data:`~shibumi.games.sparro.LINES3_THROUGH`,
  :data:`~shibumi.games.spodd.DIAGONALS`, Span's
  :data:`~shibumi.maths.span_solve.GOALS`), and Sponnect's win test is Span's
  (:func:`~shibumi.maths.span_solve.winning_points`), with the red core among
  the occupied points and owned by nobody;
* the principal variation is replayed with the engine, and the length is the
  engine's ``Game.length`` of its final state.

What the solvers add are early endings derived from the rules, and they are
what the tests check against plain minimax searches over ``legal_moves``,
``apply`` and ``outcome`` of the registered games:

* *Spodd* is scored on a full pyramid, where exactly the five interior balls
  are hidden; so a ball on an interior point never counts, and a diagonal is
  taken as soon as one colour holds the majority of its outer points.  Three
  taken diagonals end the search.  The colour of interior balls is forgotten
  in the table key.
* *Sparro*: lines of three are never undone, so a player whose lines already
  outnumber every line the opponent could still complete has won.
* *Sponnect* follows the Span solver: a win on the next ball ends the search,
  an opponent's winning point must be taken or spoilt (passing then loses),
  and for the length the distance bounds and null windows of
  :class:`~shibumi.maths.span_solve.SpanSolver` are used with scores counted in
  actions from the node (passes count, as in ``Game.length``), so that a
  position reached after different numbers of passes shares its table entry.
  Black's positions are turned by a symmetry that swaps the two pairs of sides
  (a quarter turn or a diagonal mirror), so that the table always sees the
  player to move joining left and right.

>>> from shibumi import load
>>> game = load("spodd")
>>> late = game.new_match(record="Wc1 Bc3.0 We1 Bg1 Wa3 Bb2 We3.0 Bg3 Wg5 Be5.0 Wa5 Bc5.0 "
...                       "Wa7 Bc7 We7 Bd6 Wd2 Bf2 Wb4 Bd4.1 Wf4 Bf6 Wb6 Bc5.2").state
>>> SpoddSolver().state_wins(late)        # White to move, two turns left
True
"""

from __future__ import annotations

import time

from ..game import State
from ..games.placement import playable_points
from ..games.sparro import (BALLS_EACH, FINAL_BALLS, LINES3, LINES3_THROUGH, START_BALLS,
                            count_lines)
from ..games.spodd import DIAGONALS, RED_CORNERS, first_spots, second_spots
from ..geometry import ALL_MASK, APEX, INTERIOR_MASK, NUM_POINTS, SYMMETRIES, points_of
from ..position import hidden_mask, playable_mask
from ..registry import load
from .masks import symmetry_tables
from .span_solve import (CUTS, FAR, HIDES, STATIC_ORDER, adjacency, distance, place,
                         winning_points)

__all__ = ["SpoddSolver", "SparroSolver", "SponnectSolver", "solve_spodd", "solve_sparro",
           "solve_sponnect", "sponnect_length_at_least", "solve", "SOLVERS"]

_TABLES = symmetry_tables()


def _canonical(a: int, b: int, syms) -> tuple[int, int]:
    """(key, symmetry): the smallest ``a' | b' << 30`` over the symmetries `syms`."""
    best, best_sym = None, 0
    for s in syms:
        lo, hi = _TABLES[s]
        k = lo[a & 32767] | hi[a >> 15] | (lo[b & 32767] | hi[b >> 15]) << 30
        if best is None or k < best:
            best, best_sym = k, s
    return best, best_sym


def _progress(items, progress):
    return progress(items) if progress is not None else items


def _mover_masks(state) -> tuple[int, int]:
    """(mover's balls, opponent's balls): player 1 owns white, player 2 black."""
    pos = state.position
    return (pos.white, pos.black) if state.to_move == 0 else (pos.black, pos.white)


def _winner_number(state) -> int:
    """1 or 2 for the sole winner of a finished state, 0 otherwise."""
    w = state.result.winners if state.result is not None else ()
    return w[0] + 1 if len(w) == 1 else 0


# ---------------------------------------------------------------------------
# Spodd.

#: Points seen on a full pyramid (the engine's hidden_mask of a full pyramid
#: removed): the only points whose ball is ever counted.
SPODD_COUNTED = ALL_MASK & ~hidden_mask(ALL_MASK)
#: (counted points of a diagonal, balls of one colour that take it).
SPODD_DIAGONALS = tuple((m & SPODD_COUNTED, (m & SPODD_COUNTED).bit_count() // 2 + 1)
                        for _, m in DIAGONALS)
_SPODD_HIDDEN = ALL_MASK & ~SPODD_COUNTED
_DIAGONAL_MASKS = tuple(m for m, _ in SPODD_DIAGONALS)
_DIAGONAL_NEEDS = tuple(n for _, n in SPODD_DIAGONALS)
#: The scored diagonal of each point's counted ball (an index), or -1.
_DIAGONAL_OF = tuple(next((d for d, (m, _) in enumerate(SPODD_DIAGONALS) if m >> p & 1), -1)
                     for p in range(NUM_POINTS))


class SpoddSolver:
    """Win or loss of Spodd positions between turns (see the module docstring).

    A position is ``(me, opp)``: the balls of the colour of the player to move,
    and the other colour's; the reds are fixed and every turn adds one of each.
    """

    game_name = "spodd"

    def __init__(self) -> None:
        self.game = load("spodd")
        self.table: dict[int, bool] = {}
        self.nodes = 0
        self.syms = tuple(self.game.symmetries)
        assert self.syms[0] == 0
        self.sym_tables = tuple(_TABLES[i] for i in self.syms[1:])

    def children(self, me: int, opp: int) -> list[tuple[int, int]]:
        """The distinct positions after one turn of the mover, as ``(me, opp)``
        (the mover's colour first), most promising first: diagonals taken, then
        the lead in counted balls on the others."""
        counts = [((me & m).bit_count(), (opp & m).bit_count()) for m in _DIAGONAL_MASKS]
        # rank of a diagonal for the mover, lower is better: taken, open (by lead), lost
        base = [-100 if a >= n else 100 if b >= n else b - a
                for (a, b), n in zip(counts, _DIAGONAL_NEEDS)]
        occ = me | opp | RED_CORNERS
        seen, out = set(), []
        for f in points_of(first_spots(occ)):
            for s in points_of(second_spots(occ | 1 << f, f)):
                for x, y in ((f, s), (s, f)):         # my colour at x, theirs at y
                    child = (me | 1 << x, opp | 1 << y)
                    if child in seen:
                        continue
                    seen.add(child)
                    key = 0
                    dx, dy = _DIAGONAL_OF[x], _DIAGONAL_OF[y]
                    if dx >= 0:
                        a, b = counts[dx]
                        a += 1
                        b += dx == dy
                        n = _DIAGONAL_NEEDS[dx]
                        key = (-100 if a >= n else 100 if b >= n else b - a) - base[dx]
                    if dy >= 0 and dy != dx:
                        a, b = counts[dy]
                        b += 1
                        n = _DIAGONAL_NEEDS[dy]
                        key += (-100 if a >= n else 100 if b >= n else b - a) - base[dy]
                    out.append((key, child))
        out.sort(key=_first)
        return [c for _, c in out]

    def wins(self, me: int, opp: int) -> bool:
        """Does the player to move (owning the colour `me`) win?"""
        self.nodes += 1
        cm = co = 0
        for m, need in SPODD_DIAGONALS:
            if (me & m).bit_count() >= need:
                cm += 1
            elif (opp & m).bit_count() >= need:
                co += 1
        if cm >= 3:
            return True
        if co >= 3:
            return False
        h = (me | opp) & _SPODD_HIDDEN                  # forget the colour of balls
        a = (me & ~_SPODD_HIDDEN) | h                     # that will never count
        b = (opp & ~_SPODD_HIDDEN) | h
        key = a | b << 30
        for lo, hi in self.sym_tables:
            k = lo[a & 32767] | hi[a >> 15] | (lo[b & 32767] | hi[b >> 15]) << 30
            if k < key:
                key = k
        v = self.table.get(key)
        if v is not None:
            return v
        v = False
        for cme, copp in self.children(me, opp):
            if not self.wins(copp, cme):
                v = True
                break
        self.table[key] = v
        return v

    def state_wins(self, state: State) -> bool:
        """Does the player to move in an engine state win?  (A finished state:
        did they win it?)"""
        if state.result is not None:
            return _winner_number(state) == state.to_move + 1
        if state.first is not None:                     # mid-turn: try the second balls
            return any(self._after_turn(self.game.apply(state, m), state.to_move)
                       for m in self.game.legal_moves(state))
        return self.wins(*_mover_masks(state))

    def _after_turn(self, state, player: int) -> bool:
        """Does `player`, who has just completed a turn, win from `state`?"""
        if state.result is not None:
            return _winner_number(state) == player + 1
        return not self.wins(*_mover_masks(state))


def _first(item):
    return item[0]


def _turns(game, state):
    """Every turn (two actions) from a state between turns: (actions, state after)."""
    for m1 in game.legal_moves(state):
        s1 = game.apply(state, m1)
        for m2 in game.legal_moves(s1):
            yield (m1, m2), game.apply(s1, m2)


def solve_spodd(progress=None) -> dict:
    """Solve Spodd from the start.

    Returns ``winner`` (1 White, 2 Black), ``winner_name``, ``length`` (balls
    placed when the game ends, the reds not counted), ``winning_first_moves``
    (White's first turns that win, as two actions in record notation such as
    ``'Wc1 Bc3.0'``), ``first_turns`` (how many there are), ``principal_variation``
    (action texts, replayed with the engine), ``nodes``, ``positions`` and
    ``seconds``.  `progress` wraps the iteration over the first turns.
    """
    start = time.perf_counter()
    solver = SpoddSolver()
    game = solver.game
    s0 = game.initial_state()
    turns = list(_turns(game, s0))
    winning = []
    for (m1, m2), after in _progress(turns, progress):
        if solver._after_turn(after, 0):
            winning.append(f"{m1.text()} {m2.text()}")
    winner = 1 if winning else 2
    pv, state = [], s0
    while state.result is None:
        player = state.to_move
        options = list(_turns(game, state))
        pick = next(((mv, st) for mv, st in options if solver._after_turn(st, player)),
                    options[0])
        pv += [m.text() for m in pick[0]]
        state = pick[1]
    if _winner_number(state) != winner:  # pragma: no cover - an inconsistent search
        raise AssertionError("the principal variation does not end as solved")
    seconds = time.perf_counter() - start
    return {
        "game": "spodd",
        "winner": winner,
        "winner_name": ("nobody", "White", "Black")[winner],
        "length": game.length(state),
        "winning_first_moves": winning,
        "first_turns": len(turns),
        "principal_variation": pv,
        "outcome": state.result.reason,
        "nodes": solver.nodes,
        "positions": len(solver.table),
        "seconds": round(seconds, 3),
        "method": "negamax on win/loss over whole turns (the game's own first_spots and "
                  "second_spots), a diagonal taken once a colour holds most of its "
                  "counted points, transposition table under the game's 4 symmetries "
                  "with the colour of balls hidden at the end forgotten",
    }


# ---------------------------------------------------------------------------
# Sparro.

#: The points the players fill: everything but the red core and the apex
#: (the game ends with the 29th ball, and the apex needs all 29 below it).
SPARRO_FILLED = ALL_MASK & ~INTERIOR_MASK & ~(1 << APEX)
assert SPARRO_FILLED.bit_count() == 2 * BALLS_EACH == FINAL_BALLS - START_BALLS
#: The lines of three that can still be completed: inside the filled points.
SPARRO_LIVE = tuple(m for m in LINES3 if not m & ~SPARRO_FILLED)


class SparroSolver:
    """Win or loss of Sparro positions after the opening (both first balls in).

    A node is ``(me, opp, my lines, their lines, token)``: the mover's and
    the opponent's balls, their lines of three so far, and whether the mover
    holds the tie-break token.
    """

    game_name = "sparro"

    def __init__(self) -> None:
        self.game = load("sparro")
        self.table: dict[int, bool] = {}
        self.nodes = 0
        self.syms = tuple(self.game.symmetries)

    def wins(self, me: int, opp: int, lm: int, lo: int, token: bool) -> bool:
        """Does the player to move win?"""
        self.nodes += 1
        occ = me | opp | INTERIOR_MASK
        if occ.bit_count() == FINAL_BALLS:
            return lm > lo or (lm == lo and token)
        if lm > sum(1 for m in SPARRO_LIVE if not m & me):     # opp can never catch up
            return True
        if lo > sum(1 for m in SPARRO_LIVE if not m & opp):
            return False
        key = _canonical(me, opp, self.syms)[0] << 1 | token
        v = self.table.get(key)
        if v is not None:
            return v
        moves = []
        for p in playable_points(occ):
            mine = me | 1 << p
            made = sum(1 for m in LINES3_THROUGH[p] if mine & m == m)
            moves.append((-made, p, made))
        moves.sort()
        v = False
        for _, p, made in moves:
            # a line takes the token; otherwise the opponent holds it iff the mover does not
            if not self.wins(opp, me | 1 << p, lo, lm + made, not made and not token):
                v = True
                break
        self.table[key] = v
        return v

    def state_wins(self, state: State) -> bool:
        """Does the player to move in an engine state win?"""
        if state.result is not None:
            return _winner_number(state) == state.to_move + 1
        if state.position.occupied.bit_count() < START_BALLS + 2:   # the opening rule
            return any(not self.state_wins(self.game.apply(state, m))
                       for m in self.game.legal_moves(state))
        me, opp = _mover_masks(state)
        return self.wins(me, opp, count_lines(me), count_lines(opp),
                         state.token == state.to_move)


def _single_action_solve(solver, progress) -> tuple[list, list, object]:
    """Winning first moves (short texts) and a principal variation in which the
    winner plays the first winning move found and the loser its first legal
    move, replayed with the engine: (winning, pv texts, final state)."""
    game = solver.game
    match = game.new_match()
    s0 = match.state
    winning = []
    for m in _progress(list(game.legal_moves(s0)), progress):
        if not solver.state_wins(game.apply(s0, m)):
            winning.append(match.move_text(m))
    pv = []
    while match.state.result is None:
        state = match.state
        moves = game.legal_moves(state)
        m = next((m for m in moves if not solver.state_wins(game.apply(state, m))), moves[0])
        pv.append(match.move_text(m))
        match.push(m)
    return winning, pv, match.state


def solve_sparro(progress=None) -> dict:
    """Solve Sparro from the start (the same keys as :func:`solve_spodd`;
    ``length`` counts the balls placed, the red core not included)."""
    start = time.perf_counter()
    solver = SparroSolver()
    winning, pv, end = _single_action_solve(solver, progress)
    winner = 1 if winning else 2
    if _winner_number(end) != winner:  # pragma: no cover - an inconsistent search
        raise AssertionError("the principal variation does not end as solved")
    return {
        "game": "sparro",
        "winner": winner,
        "winner_name": ("nobody", "White", "Black")[winner],
        "length": solver.game.length(end),
        "winning_first_moves": winning,
        "principal_variation": pv,
        "outcome": end.result.reason,
        "nodes": solver.nodes,
        "positions": len(solver.table),
        "seconds": round(time.perf_counter() - start, 3),
        "method": "negamax on win/loss after the engine's opening moves, lines of three "
                  "from the game's LINES3_THROUGH, a player whose lines outnumber all "
                  "the opponent could still make has won, transposition table under the "
                  "8 symmetries with the tie-break token",
    }


# ---------------------------------------------------------------------------
# Sponnect.

_RED = INTERIOR_MASK
#: Symmetries that keep the goals (White's turn) and that swap them (Black's
#: turn: the image is a position with the player to move joining left-right).
_SPONNECT_SYMS = ((0, 2, 4, 5), (1, 3, 6, 7))
_INVERSE = tuple(tuple(perm.index(q) for q in range(NUM_POINTS)) for perm in SYMMETRIES)
#: Relative scores: a win with the k-th action from the node scores K - k,
#: a loss -(K - k); a game has at most 50 actions.
K = 64
PASS = 30
_NO_MOVE = 63


def _to_parent(c: int) -> int:
    """The mover's score of an action whose resulting node scores c for the other player."""
    return -c - 1 if c < 0 else (-c + 1 if c > 0 else 0)


def _to_child(v: int) -> int:
    """The inverse of :func:`_to_parent`, for windows."""
    return -v - 1 if v > 0 else -v + 1


class SponnectSolver:
    """Negamax on Sponnect with relative scores (see the module docstring).

    A node is ``(me, opp, adj, mover, passed)``: the mover's and the
    opponent's balls, the visible contacts of the occupancy (red core
    included), the mover (0 White, 1 Black) and whether the previous action
    was a pass.  :meth:`wins` answers who wins only; :meth:`exact` gives the
    exact relative score.
    """

    game_name = "sponnect"

    def __init__(self, use_distance: bool = True) -> None:
        self.game = load("sponnect")
        self.table: dict[int, int] = {}
        self.wl_table: dict[int, bool] = {}
        self.counts = [0] * 9
        self.use_distance = use_distance
        self._occ: dict[int, tuple] = {}
        self.search = self._make_search()

    @property
    def nodes(self) -> int:
        return self.counts[0]

    def _info(self, occ: int):
        info = self._occ.get(occ)
        if info is None:
            pm = playable_mask(occ)
            pts = tuple(p for p in STATIC_ORDER if pm >> p & 1)
            info = self._occ[occ] = (pm, pts, tuple(p for p in pts if p >= 16))
        return info

    @staticmethod
    def _spoils(adj, occ, opp, p, threats) -> bool:
        """Can a ball at p cut a contact between two of opp's balls (now, or
        when opp plays on a threat point next to it)?  (Nothing of a player can
        be hidden: the interior points hold the red core.)"""
        for q, x, y in CUTS[p]:
            if (occ | threats) >> q & 1 and adj[x] >> y & 1 and opp >> x & 1 \
                    and opp >> y & 1:
                return True
        h = HIDES[p]
        return h >= 0 and opp >> h & 1 and adj[h] != 0

    def _moves(self, me, opp, adj, mover, passed):
        """(result, points, may pass): result is 1 for a win on the next ball, -1
        for a loss on the opponent's next ball, else 0 with the moves worth trying."""
        occ = me | opp | _RED
        pm, pts, ups = self._info(occ)
        if winning_points(adj, occ, me, mover, pm, ups):
            return 1, (), False
        threats = winning_points(adj, occ, opp, 1 - mover, pm, ups)
        if threats:
            pts = tuple(p for p in pts if threats >> p & 1
                        or p >= 16 and self._spoils(adj, occ, opp, p, threats))
            return (0 if pts else -1), pts, False
        return 0, pts, not passed

    def wins(self, me: int, opp: int, adj, mover: int, passed: bool) -> bool:
        """Does the player to move win (who wins only, no length)?"""
        self.counts[0] += 1
        result, pts, can_pass = self._moves(me, opp, adj, mover, passed)
        if result:
            return result > 0
        key = _canonical(me, opp, _SPONNECT_SYMS[mover])[0] << 1 | passed
        v = self.wl_table.get(key)
        if v is not None:
            return v
        occ = me | opp | _RED
        v = any(not self.wins(opp, me | 1 << p, place(adj, occ, p), 1 - mover, False)
                for p in pts) or (can_pass and not self.wins(opp, me, adj, 1 - mover, True))
        self.wl_table[key] = v
        return v

    def _make_search(self):
        table, counts, moves = self.table, self.counts, self._moves
        syms, inverse, perms = _SPONNECT_SYMS, _INVERSE, SYMMETRIES
        use_distance, to_parent, to_child = self.use_distance, _to_parent, _to_child

        def search(me, opp, adj, mover, passed, alpha, beta):
            counts[0] += 1
            result, pts, can_pass = moves(me, opp, adj, mover, passed)
            if result:
                counts[1 if result > 0 else 2] += 1
                return K - 1 if result > 0 else 2 - K
            if beta > K - 3:                                # best case: win at action 3
                beta = K - 3
                if alpha >= beta:
                    return beta
            if alpha < 2 - K:                               # worst case: loss at action 2
                alpha = 2 - K
                if alpha >= beta:
                    return alpha
            occ = me | opp | _RED
            if use_distance:
                if alpha >= 0:                              # could the mover be too slow?
                    d = distance(adj, me, occ, mover)
                    ub = 0 if d >= FAR else K + 1 - 2 * d
                    if ub <= alpha:
                        counts[7] += 1
                        return ub
                    if ub < beta:
                        beta = ub
                if beta <= 0:                               # or the opponent?
                    d = distance(adj, opp, occ, 1 - mover)
                    lb = 0 if d >= FAR else 2 * d - K
                    if lb >= beta:
                        counts[8] += 1
                        return lb
                    if lb > alpha:
                        alpha = lb
            key, sym = _canonical(me, opp, syms[mover])
            key = key << 1 | passed
            entry = table.get(key)
            lo, hi = 2 - K, K - 3
            order = list(pts)
            if can_pass:
                order.append(PASS)
            if entry is not None:                           # packed: lo, hi, best move
                lo, hi, first = (entry >> 13) - K, (entry >> 6 & 127) - K, entry & 63
                if lo >= beta or hi <= alpha:
                    counts[4] += 1
                    return lo if lo >= beta else hi
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
                if first < PASS:
                    first = inverse[sym][first]
                if first in order:
                    order.remove(first)
                    order.insert(0, first)
            counts[6] += 1
            best, best_move, a = -K, _NO_MOVE, alpha
            for p in order:
                if p == PASS:
                    c = search(opp, me, adj, 1 - mover, True, to_child(beta), to_child(a))
                else:
                    c = search(opp, me | 1 << p, place(adj, occ, p), 1 - mover, False,
                               to_child(beta), to_child(a))
                v = to_parent(c)
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
            stored = best_move if best_move >= PASS else perms[sym][best_move]
            table[key] = (lo + K) << 13 | (hi + K) << 6 | stored
            return best

        return search

    def exact(self, me: int, opp: int, adj, mover: int, passed: bool,
              limit: int = 2 * NUM_POINTS) -> int | None:
        """Exact relative score by iterative deepening on the length: for k =
        1, 2, ..., does the player making the k-th action from here win by then?
        None if the game lasts more than `limit` actions from here."""
        for k in range(1, limit + 1):
            s = K - k
            if k % 2:
                if self.search(me, opp, adj, mover, passed, s - 1, s) >= s:
                    return s
            elif self.search(me, opp, adj, mover, passed, -s, 1 - s) <= -s:
                return -s
        return None

    # -- engine states ----------------------------------------------------
    @staticmethod
    def node(state) -> tuple:
        """The search node of an engine state."""
        me, opp = _mover_masks(state)
        return me, opp, adjacency(state.position.occupied), state.to_move, state.passed

    def state_wins(self, state: State) -> bool:
        """Does the player to move in an engine state win?"""
        if state.result is not None:
            return _winner_number(state) == state.to_move + 1
        return self.wins(*self.node(state))

    def keeps_value(self, state: State, move) -> bool:
        """Does `move` keep the exact value of `state` for the player to move?
        (A null-window search of the position after it.)"""
        target = self.state_value(state)
        after = self.game.apply(state, move)
        if after.result is not None:
            return target == K - 1
        c = self.search(*self.node(after), _to_child(target + 1), _to_child(target - 1))
        return _to_parent(c) == target

    def state_value(self, state: State) -> int:
        """Exact relative score of an engine state for the player to move."""
        if state.result is not None:
            return K if _winner_number(state) == state.to_move + 1 else -K
        return self.exact(*self.node(state))


def solve_sponnect(progress=None, length: bool = False) -> dict:
    """Solve Sponnect from the start (the keys of :func:`solve_spodd`).

    By default only who wins and with which first moves (about four minutes of
    one core and 1.4 GB); ``length`` then is None and the principal variation
    is a won game, not necessarily the shortest.  With ``length=True``
    :meth:`SponnectSolver.exact` also gives the length in actions (passes
    included, as ``Game.length`` counts them; ``balls`` has the placements),
    the winner fast and the loser slow, and the principal variation keeps
    that value.  That search is much longer: from the start, it takes 23
    million nodes (about eight minutes of one core) to prove that White
    cannot win by the 29th action, and the iterations after that grow further.
    """
    start = time.perf_counter()
    solver = SponnectSolver()
    game = solver.game
    match = game.new_match()
    s0 = match.state
    winning, first_moves = [], {}
    for m in _progress(list(game.legal_moves(s0)), progress):
        text = match.move_text(m)
        won = not solver.state_wins(game.apply(s0, m))
        first_moves[text] = {"result": "win" if won else "loss"}
        if won:
            winning.append(text)
    winner = 1 if winning else 2
    score = solver.state_value(s0) if length else None
    pv = []
    while match.state.result is None:
        state = match.state
        moves = game.legal_moves(state)
        if length:
            m = next(m for m in moves if solver.keeps_value(state, m))
        else:
            m = next((m for m in moves if not solver.state_wins(game.apply(state, m))),
                     moves[0])
        pv.append(match.move_text(m))
        match.push(m)
    end = match.state
    if _winner_number(end) != winner or length and game.length(end) != K - abs(score):
        raise AssertionError("the principal variation does not end as solved")  # pragma: no cover
    return {
        "game": "sponnect",
        "winner": winner,
        "winner_name": ("nobody", "White", "Black")[winner],
        "length": K - abs(score) if length else None,
        "balls": game.length(end) - pv.count("pass") if length else None,
        "winning_first_moves": winning,
        "first_moves": first_moves,
        "principal_variation": pv,
        "outcome": end.result.reason,
        "nodes": solver.nodes,
        "positions": len(solver.table) + len(solver.wl_table),
        "seconds": round(time.perf_counter() - start, 3),
        "method": "negamax on bit masks with Span's win test and threat pruning, the "
                  "red core occupied and owned by nobody, passes as actions; a "
                  "transposition table keyed under the symmetries that keep the goals "
                  "(Black's positions turned so that the mover joins left and right)"
                  + ("; scores in actions from the node, null windows on the length "
                     "and Span's distance bounds" if length else ""),
    }


def sponnect_length_at_least(limit: int = 29) -> dict:
    """How long perfectly played Sponnect lasts, if at most `limit` actions:
    ``length`` is then the exact number of actions, else None and
    ``at_least`` is ``limit + 1``.

    With the default the answer is None: in 23.3 million nodes the search
    proves that White cannot win with the 29th action or earlier.  As White
    wins and moves on the odd actions, a perfect game lasts at least 31.
    """
    start = time.perf_counter()
    solver = SponnectSolver()
    score = solver.exact(*solver.node(solver.game.initial_state()), limit=limit)
    return {"length": None if score is None else K - abs(score),
            "at_least": limit + 1 if score is None else K - abs(score),
            "nodes": solver.nodes, "positions": len(solver.table),
            "seconds": round(time.perf_counter() - start, 3)}


#: The solvers by game name, for the command line.
SOLVERS = {"spodd": solve_spodd, "sparro": solve_sparro, "sponnect": solve_sponnect}


def solve(name: str, progress=None, **options) -> dict:
    """Solve one of the games of this module by its registered name."""
    try:
        fn = SOLVERS[name]
    except KeyError:
        raise ValueError(f"no exact solver for {name!r}; these are solved here: "
                         + ", ".join(SOLVERS)) from None
    return fn(progress=progress, **options)
