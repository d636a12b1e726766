"""Splastwo solved (shibumi.maths.splastwo), checked against the engine's own rules."""

import random

import pytest

from shibumi import load
from shibumi.geometry import ALL_MASK, APEX
from shibumi.maths.splastwo import (RUNS, SplastwoSolver, level_race, moves, open_points,
                                    score_of_move, second_player_singles, singles_keep_apex,
                                    solve, state_of)

GAME = load("splastwo")


def turn_results(state):
    """Every state reached at the end of the mover's turn, ball by ball with the engine."""
    out, stack = [], [state]
    while stack:
        s = stack.pop()
        for move in GAME.legal_moves(s):
            t = GAME.apply(s, move)
            if t.result is not None or t.to_move != s.to_move:
                out.append(t)
            else:
                stack.append(t)
    return out


def random_states(seed, count, min_balls=0):
    """States between turns met in random engine games."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = GAME.initial_state()
        while state.result is None:
            if not state.placed and state.position.occupied.bit_count() >= min_balls:
                found.append(state)
            state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
    return found[:count]


def test_rows():
    assert len(RUNS) == 92
    assert sum(1 for _, n in RUNS if n == 1) == 30


def test_moves_match_the_engine_turns():
    for state in random_states(1, 80):
        occ, mine, _ = state_of(state)
        colour = (state.position.white, state.position.black)[state.to_move]
        mover_after = [(t.position.white, t.position.black)[state.to_move]
                       for t in turn_results(state)]
        engine_rows = {after & ~colour for after in mover_after}
        assert engine_rows == set(moves(occ, mine))


def engine_margin(state, memo):
    """Plain minimax over the engine: the mover's future points minus the opponent's."""
    key = GAME.state_text(state)
    if key in memo:
        return memo[key]
    me = state.to_move
    before = GAME.scores(state.levels)
    best = None
    for t in turn_results(state):
        after = GAME.scores(t.levels)
        gain = (after[me] - before[me]) - (after[1 - me] - before[1 - me])
        v = gain if t.result is not None else gain - engine_margin(t, memo)
        best = v if best is None else max(best, v)
    memo[key] = best
    return best


def test_values_match_a_plain_minimax_on_the_engine():
    solver = SplastwoSolver()
    states = random_states(5, 12, min_balls=21)
    assert len(states) == 12
    for state in states:
        memo = {}
        assert solver.value(*state_of(state)) == engine_margin(state, memo)


def test_move_scores():
    # the last hole of the board scores 1, the apex 2, the rest open counts 5
    assert open_points(0) == 5
    board_but_one = (1 << 16) - 1 - 1
    assert score_of_move(board_but_one, 1) == 1
    assert score_of_move(ALL_MASK & ~(1 << APEX), 1 << APEX) == 2
    assert open_points(ALL_MASK & ~(1 << APEX)) == 2


def test_black_keeps_the_apex_with_single_balls():
    assert singles_keep_apex()


def test_apex_goes_to_the_player_who_runs_out_second():
    rng = random.Random(3)
    for _ in range(200):
        state = GAME.initial_state()
        first_out = None
        while state.result is None:
            mover = state.to_move
            state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
            out = [p for p in (0, 1) if GAME.stock(state.position, p) == 0]
            if first_out is None and out:
                # both at once: the mover spent their last ball, the other filled
                first_out = mover if len(out) == 2 else out[0]
        assert state.levels[3] == 1 - first_out


def test_black_singles_win_but_cannot_choose_the_level():
    assert second_player_singles()                 # at least one lower level, + the apex
    assert not any(second_player_singles(lv) for lv in (0, 1, 2))


def test_black_can_force_level_2_alone():
    assert level_race(2)


@pytest.mark.slow
def test_black_can_force_each_lower_level_alone():
    assert level_race(1) and level_race(0)


def test_solve_black_wins_3_to_2():          # the whole game: about 3-4 s
    result = solve()
    assert result["value"] == -1 and result["winner"] == "Black"
    assert result["white_points"] == 2
    singles = {k: v for k, v in result["first_moves"].items() if "-" not in k}
    rows = {k: v for k, v in result["first_moves"].items() if "-" in k}
    assert set(singles.values()) == {-1} and set(rows.values()) == {-3}
    assert len(result["first_moves"]) == 9
    pv = result["principal_variation"]
    assert sum(len(r.split("-")) for r, _ in pv) == 30
    black = sum(s for i, (_, s) in enumerate(pv) if i % 2)
    assert black == 3
    # the line quoted on the solving page: single balls; scores at balls 16, 25, 29, 30
    assert all("-" not in r for r, _ in pv) and len(pv) == 30
    assert [(i + 1, s) for i, (_, s) in enumerate(pv) if s] == [(16, 1), (25, 1), (29, 1), (30, 2)]
    assert result["positions"] == 101895


def test_late_position_values_by_hand():
    from shibumi.notation import parse_point
    solver = SplastwoSolver()
    # only the apex empty: the mover lays it and scores 2
    assert solver.value(ALL_MASK & ~(1 << APEX), 1, 0) == 2
    # one point of level 2 and the apex empty, one ball each: the mover must lay the
    # level-2 ball (1 point; no row crosses levels), then the opponent lays the apex
    # (2 points): margin -1
    gap = 1 << parse_point("e5.2") | 1 << APEX
    assert solver.value(ALL_MASK & ~gap, 1, 1) == -1
    assert solver.move_values(ALL_MASK & ~gap, 1, 1) == {1 << parse_point("e5.2"): -1}
