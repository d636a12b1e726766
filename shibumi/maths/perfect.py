"""Exact move values for the solved games, and what plays them perfectly.

One place answers "is this game solved here, and what is each move worth?"
for the board's move values (:class:`shibumi.interaction.Table`), the
perfect player (:class:`shibumi.players.PerfectPlayer`) and the arena.

A value is a ``(score, words)`` pair for the player making the move: the
score is higher the better the move (a win beats a draw beats a loss; among
wins, the faster; among losses, the slower), the words say it for people.

>>> from shibumi import load
>>> game = load('spline')
>>> state = game.parse_state('..../..../BBB./WWW.|.../.../...|../..|. 1')
>>> values = move_values(game, state)
>>> sorted((v, m.text()) for m, v in values.items())[-1]      # White completes a1-g1
((24, 'wins (ball 7)'), 'Wg1')
>>> is_solved(load('spline')), is_solved(load('spice'))
(True, False)
"""

from __future__ import annotations

from ..game import Game

__all__ = ["is_solved", "move_values", "SOLVED_GAMES", "SOLVED_NAMES"]

#: One solver of each kind per process: their tables persist between questions.
_SOLVERS: dict = {}


def _spline(game: Game, state, moves) -> dict:
    """Spline's exact values (the solver of :mod:`shibumi.maths.solve`)."""
    from .solve import SplineSolver, move_values as values_of

    solver = _SOLVERS.setdefault("spline", SplineSolver())
    values = values_of(state.position, solver)
    words = {"win": "wins", "loss": "loses", "draw": "draws"}
    return {m: (v.score, f"{words[v.result]} (ball {v.length})") for m in moves
            if (v := values.get(m.point)) is not None}


def _span(game: Game, state, moves) -> dict:
    """Span's exact values (the solver of :mod:`shibumi.maths.span_solve`)."""
    from .span_solve import SpanSolver, move_values as values_of

    solver = _SOLVERS.setdefault("span", SpanSolver())
    values = values_of(state.position, solver)
    words = {"win": "wins", "loss": "loses", "draw": "draws"}
    return {m: (v.score, f"{words[v.result]} (ball {v.length})") for m in moves
            if (v := values.get(m.point)) is not None}


def _splastwo(game: Game, state, moves) -> dict:
    """Splastwo's exact final margins (the solver of :mod:`shibumi.maths.splastwo`).

    A turn lays a line ball by ball: a ball's value is the best line through
    the balls laid so far and it; a pass ends the line as it is."""
    from ..geometry import LEVEL_MASK
    from .splastwo import LEVEL_POINTS, STOCK, SplastwoSolver, moves as rows

    solver = _SOLVERS.setdefault("splastwo", SplastwoSolver())
    me, pos = state.to_move, state.position
    placed = sum(1 << q for q in state.placed)
    occ = pos.occupied & ~placed
    counts = (pos.white.bit_count(), pos.black.bit_count())
    mine = STOCK - counts[me] + len(state.placed)
    theirs = STOCK - counts[1 - me]
    lead = sum((LEVEL_POINTS[lv] if owner == me else -LEVEL_POINTS[lv])
               for lv, owner in enumerate(state.levels)
               if owner >= 0 and occ & LEVEL_MASK[lv] == LEVEL_MASK[lv])
    margins = {row: lead + solver.move_value(occ, mine, theirs, row)
               for row in rows(occ, mine) if row & placed == placed}
    out = {}
    for m in moves:
        wanted = [v for row, v in margins.items()
                  if (row == placed if m.point is None else row >> m.point & 1)]
        if wanted:
            best = max(wanted)
            out[m] = (best, f"wins by {best}" if best > 0 else f"loses by {-best}")
    return out


#: Solved games: (is it this game?, its move values).  Spline counts hidden
#: balls in its lines by default (the solver's rule); Splastwo is solved for two;
#: Span has no options.
SOLVED_GAMES = (
    (lambda g: type(g).__name__ == "Spline" and g.params.get("count_hidden", True), _spline),
    (lambda g: type(g).__name__ == "Splastwo" and g.params.get("players") == 2, _splastwo),
    (lambda g: type(g).__name__ == "Span", _span),
)


#: The solved games' names, for messages.
SOLVED_NAMES = "Spline, Span, two-player Splastwo"


def _finder(game: Game):
    return next((find for applies, find in SOLVED_GAMES if applies(game)), None)


def is_solved(game: Game) -> bool:
    """Can exact move values be given in this game (with these parameters)?"""
    return _finder(game) is not None


def move_values(game: Game, state, moves=None) -> dict:
    """``{move: (score, words)}`` for the legal moves of ``state`` (or those given).

    Raises :class:`~shibumi.errors.ShibumiError` if the game is not solved here.
    """
    from ..errors import ShibumiError

    find = _finder(game)
    if find is None:
        raise ShibumiError(f"{game.info.name} is not solved here: no exact move values")
    if game.is_terminal(state):
        return {}
    return find(game, state, game.legal_moves(state) if moves is None else list(moves))
