"""The Span solver (shibumi.maths.span_solve), checked against the engine's own
rules (``shibumi.load('span')``) and against plain minimax searches."""
import random

import pytest

from shibumi import load
from shibumi.game import State
from shibumi.geometry import NUM_POINTS, SYMMETRIES, points_of, transform_mask
from shibumi.maths.span_solve import (FAR, SPAN_SYMMETRIES, SpanSolver, adjacency, distance,
                                      move_values, place, position_key, position_value,
                                      solve_span, winner_of, winning_points, wins_at)
from shibumi.notation import point_name
from shibumi.position import Position, linked, playable_mask

GAME = load("span")
CENTRE = ["c3.0", "e3.0", "c5.0", "e5.0"]


def mover_masks(state) -> tuple[int, int]:
    pos = state.position
    return (pos.white, pos.black) if state.to_move == 0 else (pos.black, pos.white)


def random_games(seed: int, count: int):
    """Random Span games, as the list of states from the start to the end."""
    rng = random.Random(seed)
    for _ in range(count):
        state, states = GAME.initial_state(), []
        while state.result is None:
            states.append(state)
            state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
        states.append(state)
        yield states


# -- the fast primitives are the engine's rules --------------------------------

def test_contacts_and_win_test_match_the_engine():
    checked = 0
    for states in random_games(1, 150):
        for state in states[:-1]:
            occ = state.position.occupied
            adj = adjacency(occ)
            assert all(adj[q] == (linked(q, occ) if occ >> q & 1 else 0)
                       for q in range(NUM_POINTS))
            me, _ = mover_masks(state)
            engine = 0
            for move in GAME.legal_moves(state):
                after = GAME.apply(state, move)
                if after.result is not None and after.result.winners == (state.to_move,):
                    engine |= 1 << move.point
                assert wins_at(adj, occ, me, move.point, state.to_move) \
                    == bool(engine >> move.point & 1)
                assert tuple(place(adj, occ, move.point)) == adjacency(occ | 1 << move.point)
                checked += 1
            assert winning_points(adj, occ, me, state.to_move) == engine
        end = states[-1]
        assert winner_of(end.position) == end.result.winners[0] + 1
    assert checked > 1000


def test_distance_never_exceeds_the_balls_actually_needed():
    for states in random_games(2, 150):
        end = states[-1]
        winner = end.result.winners[0]
        colour_mask = end.position.white if winner == 0 else end.position.black
        for state in states[:-1]:
            pos = state.position
            own = pos.white if winner == 0 else pos.black
            needed = (colour_mask & ~own).bit_count()
            d = distance(adjacency(pos.occupied), own, pos.occupied, winner)
            assert d <= needed
            loser_own = pos.black if winner == 0 else pos.white
            assert distance(adjacency(pos.occupied), loser_own, pos.occupied,
                            1 - winner) <= NUM_POINTS


def test_distance_examples():
    # White a1 c1 e1: one more ball (g1) joins left and right
    assert distance(adjacency(0b111), 0b111, 0b111, 0) == 1
    # the empty board: four board holes in a row, or a raised chain
    assert distance(adjacency(0), 0, 0, 0) == 4
    # a full pyramid: nothing left to place
    full = (1 << NUM_POINTS) - 1
    assert distance(adjacency(full), 0, full, 0) == FAR


# -- references: plain minimax with the engine, and a faster plain one ----------

def engine_value(state, memo: dict) -> int:
    """Exact score for the player to move (31 - m for a win with ball m, the
    opposite for a loss, 0 for a draw), trying every move with Game.apply."""
    key = (state.position, state.to_move)
    if key not in memo:
        n = state.position.occupied.bit_count()
        if state.result is not None:
            memo[key] = 0 if state.result.is_draw else -(31 - n)
        else:
            memo[key] = max(-engine_value(GAME.apply(state, m), memo)
                            for m in GAME.legal_moves(state))
    return memo[key]


def engine_move_values(state, memo: dict) -> dict[int, int]:
    return {m.point: -engine_value(GAME.apply(state, m), memo)
            for m in GAME.legal_moves(state)}


def plain_value(me: int, opp: int, memo: dict) -> int:
    """The same minimax with the fast win test (checked above): no pruning, no
    symmetry, no bounds, every move tried."""
    key = (me, opp)
    if key not in memo:
        occ = me | opp
        n = occ.bit_count()
        adj = adjacency(occ)
        best = None
        for p in points_of(playable_mask(occ)):
            if wins_at(adj, occ, me, p, n & 1):
                v = 30 - n
            elif n + 1 == NUM_POINTS:
                v = 0
            else:
                v = -plain_value(opp, me | 1 << p, memo)
            best = v if best is None else max(best, v)
        memo[key] = 0 if best is None else best
    return memo[key]


def unfinished_states(seed: int, balls: int, count: int, quiet: bool = True):
    """Random unfinished states with `balls` balls, reached by random moves that
    do not win at once; the player to move cannot win on the next ball either,
    and in `quiet` ones neither can the opponent."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = GAME.initial_state()
        while state.position.occupied.bit_count() < balls:
            occ = state.position.occupied
            me, _ = mover_masks(state)
            wins = winning_points(adjacency(occ), occ, me, state.to_move)
            moves = [m for m in GAME.legal_moves(state) if not wins >> m.point & 1]
            if not moves:
                break
            state = GAME.apply(state, rng.choice(moves))
        else:
            occ = state.position.occupied
            adj = adjacency(occ)
            me, opp = mover_masks(state)
            if not winning_points(adj, occ, me, state.to_move) and not (
                    quiet and winning_points(adj, occ, opp, 1 - state.to_move)):
                found.append(state)
    return found


def test_plain_reference_agrees_with_the_engine():
    memo: dict = {}
    plain: dict = {}
    for state in unfinished_states(3, 22, 6, quiet=False):
        assert plain_value(*mover_masks(state), plain) == engine_value(state, memo)


@pytest.mark.parametrize("balls, count", [(26, 8), (24, 10), (22, 8), (20, 8), (18, 6), (16, 4)])
def test_move_values_match_engine_minimax_near_the_end(balls, count):
    memo: dict = {}
    solver = SpanSolver()               # shared: stored bounds must stay sound
    for state in unfinished_states(10 + balls, balls, count, quiet=False):
        expected = engine_move_values(state, memo)
        got = move_values(state, solver)
        assert {p: v.score for p, v in got.items()} == expected
        for p, v in got.items():
            assert v.result == ("win" if v.score > 0 else "loss")
            assert v.length == 31 - abs(v.score)
        assert position_value(state, solver).score == max(expected.values())


@pytest.mark.parametrize("balls, count", [(18, 12), (16, 6), (15, 4)])
def test_solver_matches_plain_minimax_mid_game(balls, count):
    plain: dict = {}
    solver = SpanSolver()
    full_window = SpanSolver(use_distance=False, filter_threats=False)
    rng = random.Random(balls)
    for state in unfinished_states(20 + balls, balls, count, quiet=True):
        me, opp = mover_masks(state)
        exact = plain_value(me, opp, plain)
        assert solver.exact(me, opp) == exact
        assert full_window.value(me, opp) == exact
        alpha = rng.randint(-31, 30)
        beta = rng.randint(alpha + 1, 31)
        v = solver.value(me, opp, alpha, beta)
        assert (exact <= v) if v <= alpha else (exact >= v) if v >= beta else exact == v


def test_values_do_not_depend_on_the_symmetries_that_keep_the_goals():
    solver = SpanSolver()
    for state in unfinished_states(5, 14, 4):
        me, opp = mover_masks(state)
        value = solver.exact(me, opp)
        for s in SPAN_SYMMETRIES:
            perm = SYMMETRIES[s]
            image = transform_mask(me, perm), transform_mask(opp, perm)
            assert position_key(*image)[0] == position_key(me, opp)[0]
            assert SpanSolver().exact(*image) == value


def test_principal_variation_is_a_legal_game_the_engine_scores():
    solver = SpanSolver()
    state = unfinished_states(7, 14, 1)[0]
    me, opp = mover_masks(state)
    value = solver.exact(me, opp)
    line = solver.principal_variation(me, opp)
    n = state.position.occupied.bit_count()
    assert n + len(line) == 31 - abs(value)
    for p in line:
        assert state.result is None
        state = GAME.apply(state, next(m for m in GAME.legal_moves(state) if m.point == p))
    mover_wins = value > 0
    assert state.result is not None
    assert state.result.winners == (((n + (0 if mover_wins else 1)) % 2),)


def test_finished_and_bad_positions():
    finished = Position("..../..../BBB./WWWW|.../.../...|../..|.")
    assert winner_of(finished) == 1
    assert move_values(finished) == {}
    assert position_value(finished) == (-24, "loss", 7)
    with pytest.raises(ValueError):
        position_value(Position("..../..../..../RW..|.../.../...|../..|."))
    with pytest.raises(ValueError):
        position_value((0b11, 0))                     # two white balls, no black
    with pytest.raises(ValueError):
        position_value((1 << 16, 0))                   # a raised ball on nothing


def test_move_values_of_an_opening_position():
    # after the four centre holes, the moves are valued fast
    state = State(Position("..../.WB./.BW./....|.../.../...|../..|."), 0)
    values = move_values(state)
    assert set(values) == {p for p in range(NUM_POINTS)
                           if playable_mask(state.position.occupied) >> p & 1}
    assert all(v.result in ("win", "loss") and 7 <= v.length <= NUM_POINTS
               for v in values.values())


# -- the full solve -------------------------------------------------------------

@pytest.mark.slow
def test_solve_span():
    result = solve_span()
    assert result["winner"] == 1 and result["winner_name"] == "White"
    assert result["length"] == 13 and result["score"] == 18
    assert result["winning_first_moves"] == CENTRE
    assert {k: (v["result"], v["length"]) for k, v in result["first_moves"].items()} == {
        "c3.0": ("win", 13), "a1": ("loss", 14), "c1": ("loss", 14), "a3": ("loss", 14)}
    assert sorted(q for v in result["first_moves"].values() for q in v["same_as"]) \
        == sorted(point_name(p) for p in range(16))
    # the principal variation is a game the engine ends with White's win at ball 13
    state = GAME.initial_state()
    for text in result["principal_variation"]:
        assert state.result is None
        state = GAME.apply(state, next(m for m in GAME.legal_moves(state)
                                       if point_name(m.point) == text))
    assert state.result is not None and state.result.winners == (0,)
    assert len(result["principal_variation"]) == 13


@pytest.fixture(scope="module")
def plain_solver():
    return SpanSolver(use_distance=False, filter_threats=False)


@pytest.mark.slow
@pytest.mark.parametrize("first, value", [(5, 18), (0, -17), (1, -17), (4, -17)])
def test_first_moves_without_distance_bounds(plain_solver, first, value):
    """Full-window searches with no distance bounds and no threat filter (about
    10 million nodes for the four, shared table) agree with solve_span."""
    assert -plain_solver.value(0, 1 << first) == value


@pytest.mark.slow
@pytest.mark.parametrize("balls", [12, 13, 14])
def test_solver_matches_plain_minimax_on_more_positions(balls):
    plain: dict = {}
    solver = SpanSolver()
    for state in unfinished_states(40 + balls, balls, 4, quiet=True):
        me, opp = mover_masks(state)
        assert solver.exact(me, opp) == plain_value(me, opp, plain)
