"""The solvers of Spodd, Sparro and Sponnect (shibumi.maths.placement_solve),
checked against plain minimax searches written with the engine's own
``legal_moves``, ``apply`` and ``result`` on positions near the end of random
games, and the solutions from the start (the long ones are slow tests)."""
import random

import pytest

from shibumi import load
from shibumi.maths.placement_solve import (K, SOLVERS, SparroSolver, SpoddSolver,
                                           SponnectSolver, _to_parent, solve, solve_sparro,
                                           solve_spodd, solve_sponnect,
                                           sponnect_length_at_least)
from shibumi.maths.span_solve import adjacency, winning_points


def engine_wins(game, state, player, memo) -> bool:
    """Plain minimax over the engine: does `player` win from `state`?"""
    if state.result is not None:
        return state.result.winners == (player,)
    key = (game.state_key(state), player)
    if key not in memo:
        children = (engine_wins(game, game.apply(state, m), player, memo)
                    for m in game.legal_moves(state))
        memo[key] = any(children) if state.to_move == player else all(children)
    return memo[key]


def late_states(name, seed, games, empty):
    """States of random games of `name` with at most `empty` free points left
    (the apex counted), still in play, between turns."""
    game = load(name)
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        state = game.initial_state()
        picked = None
        while state.result is None:
            free = 30 - state.position.occupied.bit_count()
            if free <= empty and getattr(state, "first", None) is None and picked is None:
                picked = state
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        if picked is not None:
            out.append(picked)
    return game, out


# -- Spodd ----------------------------------------------------------------------

def test_spodd_solver_agrees_with_minimax_on_the_engine():
    solver = SpoddSolver()
    game, states = late_states("spodd", 1, 40, 10)
    states += late_states("spodd", 5, 10, 12)[1]
    assert len(states) == 50
    outcomes = set()
    for state in states:
        expected = engine_wins(game, state, state.to_move, {})
        assert solver.state_wins(state) == expected
        outcomes.add(expected)
        # mid-turn states too: after each first ball
        for m in game.legal_moves(state)[:6]:
            mid = game.apply(state, m)
            assert solver.state_wins(mid) == engine_wins(game, mid, mid.to_move, {})
    assert outcomes == {True, False}


def test_spodd_solution():
    r = solve_spodd()
    assert r["winner"] == 1 and r["length"] == 28
    assert sorted(r["winning_first_moves"]) == sorted(
        ["Wc1 Bc3.0", "Wa3 Bc3.0", "Wg5 Be5.0", "We7 Be5.0",
         "Bc3.0 Wc1", "Bc3.0 Wa3", "Be5.0 Wg5", "Be5.0 We7"])
    assert r["first_turns"] == 80
    game = load("spodd")
    match = game.new_match(record=" ".join(r["principal_variation"]))
    assert match.state.result.winners == (0,) and game.length(match.state) == 28
    assert 900_000 < r["nodes"] < 1_000_000


# -- Sparro ---------------------------------------------------------------------

def test_sparro_solver_agrees_with_minimax_on_the_engine():
    solver = SparroSolver()
    game, states = late_states("sparro", 2, 30, 10)
    assert len(states) == 30
    outcomes = set()
    for state in states:
        expected = engine_wins(game, state, state.to_move, {})
        assert solver.state_wins(state) == expected
        outcomes.add(expected)
    assert outcomes == {True, False}


def test_sparro_opening_goes_through_the_engine():
    """Until both first balls are in, the solver takes the moves from the engine
    (the opening rule on corners), and only then searches on masks."""
    game = load("sparro")
    s0 = game.initial_state()
    s1 = game.apply(s0, game.legal_moves(s0)[0])                 # White in a corner
    corners = {"Ba1", "Bg1", "Ba7", "Bg7"}
    assert not corners & {m.text() for m in game.legal_moves(s1)}
    calls = []

    class Spy(SparroSolver):
        def wins(self, *args):
            calls.append(args)
            return True                                          # every reply "wins"

    spy = Spy()
    assert spy.state_wins(s1) is False        # Black to move: every move lets White win
    assert len(calls) == len(game.legal_moves(s1))
    assert all(not (a[1] >> p & 1) for a in calls for p in (0, 3, 12, 15))


@pytest.mark.slow
def test_sparro_solution():
    r = solve_sparro()
    assert r["winner"] == 1 and r["length"] == 24
    assert r["winning_first_moves"] == ["a1", "c1", "e1", "g1", "a3", "g3", "a5", "g5",
                                        "a7", "c7", "e7", "g7"]
    match = load("sparro").new_match(record=" ".join(r["principal_variation"]))
    assert match.state.result.winners == (0,)
    assert 7_000_000 < r["nodes"] < 7_200_000          # the figure of notebooks/solving.md


# -- Sponnect -------------------------------------------------------------------

def engine_score(game, state, memo) -> int:
    """Plain minimax over the engine with the solver's relative scores: K - k
    for a win with the k-th action from here, -(K - k) for a loss."""
    if state.result is not None:
        return -K                               # the previous action won
    key = game.state_key(state)
    if key not in memo:
        memo[key] = max(_to_parent(engine_score(game, game.apply(state, m), memo))
                        for m in game.legal_moves(state))
    return memo[key]


def test_sponnect_win_test_matches_the_engine():
    game = load("sponnect")
    rng = random.Random(3)
    checked = 0
    for _ in range(60):
        state = game.initial_state()
        while state.result is None:
            me, opp, adj, mover, passed = SponnectSolver.node(state)
            occ = state.position.occupied
            assert adj == adjacency(occ)
            engine = 0
            for m in game.legal_moves(state):
                if m.kind != "pass" and game.apply(state, m).result is not None:
                    engine |= 1 << m.point
            assert winning_points(adj, occ, me, mover) == engine
            checked += 1
            state = game.apply(state, rng.choice(game.legal_moves(state)))
    assert checked > 1000


def test_sponnect_solver_agrees_with_minimax_on_the_engine():
    solver = SponnectSolver()
    game, states = late_states("sponnect", 4, 60, 8)
    states = [s for s in states if 30 - s.position.occupied.bit_count() >= 4][:25]
    assert len(states) >= 15
    results = set()
    for state in states:
        memo = {}
        expected = engine_score(game, state, memo)
        assert solver.state_value(state) == expected
        assert solver.state_wins(state) == (expected > 0)
        results.add(expected > 0)
        for m in game.legal_moves(state):      # the moves of a principal variation
            best = _to_parent(engine_score(game, game.apply(state, m), memo)) == expected
            assert solver.keeps_value(state, m) == best
    assert results == {True, False}


def test_solve_by_name():
    assert set(SOLVERS) == {"spodd", "sparro", "sponnect"}
    with pytest.raises(ValueError, match="no exact solver"):
        solve("spline")


@pytest.mark.slow
def test_sponnect_solution():
    r = solve_sponnect()
    assert r["winner"] == 1
    assert sorted(r["winning_first_moves"]) == ["a3", "a5", "c1", "c7", "e1", "e7", "g3", "g5"]
    assert {k for k, v in r["first_moves"].items() if v["result"] == "loss"} == \
        {"a1", "g1", "a7", "g7", "pass"}
    match = load("sponnect").new_match(record=" ".join(r["principal_variation"]))
    assert match.state.result.winners == (0,)
    assert 22_700_000 < r["nodes"] < 22_900_000        # the figure of notebooks/solving.md


def test_sponnect_length_search_on_short_games():
    """The length search from the start, cut short: nobody can win within 12 actions."""
    r = sponnect_length_at_least(12)
    assert r["length"] is None and r["at_least"] == 13


@pytest.mark.slow
def test_sponnect_lasts_at_least_31_actions():
    """White cannot win by the 29th action, and White moves on the odd ones."""
    r = sponnect_length_at_least(29)
    assert r["length"] is None and r["at_least"] == 30
    assert 23_200_000 < r["nodes"] < 23_400_000         # the figure of notebooks/solving.md
