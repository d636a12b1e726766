"""The Spline solver (shibumi.maths.solve), checked against a plain minimax and
against the engine's own rules."""
import random

import pytest

from shibumi import load
from shibumi.geometry import LINES_THROUGH, NUM_POINTS, SYMMETRIES, points_of, transform_mask
from shibumi.maths.solve import (SplineSolver, canonical, describe_score, move_values,
                                 position_key, position_value, solve_spline,
                                 spline_game_lengths)
from shibumi.notation import point_name
from shibumi.position import Position, playable_mask

#: One principal variation found by solve_spline (any line of perfect play
#: would do; this one is used to reach positions that are quick to solve).
KNOWN_PV = ["a1", "g1", "g7", "a7", "c3.0", "e5.0", "e3.0", "c1", "e1", "d2", "c7",
            "a3", "b2", "g3", "f2", "g5", "f4", "c5.0", "a5", "d4.1", "e3.2", "b6",
            "b4", "c3.2", "e7", "d6"]


# -- an independent reference: plain minimax, no pruning, no symmetry ------

def _completes(own: int, p: int) -> bool:
    own |= 1 << p
    return any(own & line == line for line in LINES_THROUGH[p])


def brute_value(me: int, opp: int, memo: dict) -> int:
    """Exact score for the player to move (31 - m for a win with the m-th
    ball, -(31 - m) for a loss, 0 for a draw), by trying every move.  The memo
    only remembers finished answers (no bounds, no symmetry)."""
    key = (me, opp)
    if key in memo:
        return memo[key]
    occ = me | opp
    n = occ.bit_count()
    best = None
    for p in points_of(playable_mask(occ)):
        if _completes(me, p):
            v = 31 - (n + 1)
        else:
            v = -brute_value(opp, me | 1 << p, memo)
        best = v if best is None else max(best, v)
    memo[key] = best = 0 if best is None else best
    return best


def brute_by_engine(state, game) -> int:
    """The same value computed with the engine's Game.apply (slow: tiny positions)."""
    n = state.position.occupied.bit_count()
    if state.result is not None:
        if state.result.is_draw:
            return 0
        # the player who just moved won; score it for the player to move
        return -(31 - n)
    return max(-brute_by_engine(game.apply(state, m), game) for m in game.legal_moves(state))


def random_position(rng: random.Random, empty: int, quiet: bool = False) -> tuple[int, int]:
    """(mover, opponent) masks after 30 - `empty` random balls with no line yet;
    `quiet` ones also have no line that either player could complete at once."""
    while True:
        me = opp = 0
        for _ in range(NUM_POINTS - empty):
            safe = [p for p in points_of(playable_mask(me | opp)) if not _completes(me, p)]
            if not safe:
                break
            p = rng.choice(safe)
            me, opp = opp, me | 1 << p
        else:
            if quiet and any(_completes(me, p) or _completes(opp, p)
                             for p in points_of(playable_mask(me | opp))):
                continue
            return me, opp


def as_white_black(me: int, opp: int) -> tuple[int, int]:
    return (me, opp) if (me | opp).bit_count() % 2 == 0 else (opp, me)


def mover_first(pos: Position) -> tuple[int, int]:
    """(mover, opponent) masks of a position: White moves after an even count."""
    return as_white_black(pos.white, pos.black)      # the same swap, both ways


# -- the reference itself follows the engine ---------------------------------

@pytest.mark.parametrize("seed", range(6))
def test_reference_minimax_agrees_with_the_engine(seed):
    game = load("spline")
    me, opp = random_position(random.Random(seed), 5)
    white, black = as_white_black(me, opp)
    state = game.parse_state(f"{Position.from_masks(white, black).text()} "
                             f"{1 if me == white else 2}")
    assert brute_by_engine(state, game) == brute_value(me, opp, {})


# -- the solver against the reference ------------------------------------------

def _check_against_minimax(seed: int, empty: int, count: int) -> None:
    rng = random.Random(seed)
    solver = SplineSolver()         # shared: stored bounds must stay sound
    memo: dict = {}
    for i in range(count):
        me, opp = random_position(rng, empty, quiet=i % 4 != 0)
        assert solver.value(me, opp) == brute_value(me, opp, memo), \
            Position.from_masks(*as_white_black(me, opp)).text()


@pytest.mark.parametrize("empty, count", [(8, 30), (9, 30), (10, 30), (11, 25), (12, 25),
                                          (13, 15), (14, 10), (16, 4)])
def test_solver_matches_plain_minimax_on_random_positions(empty, count):
    _check_against_minimax(1000 + empty, empty, count)


@pytest.mark.slow
@pytest.mark.parametrize("empty", range(8, 20))
def test_solver_matches_plain_minimax_on_many_random_positions(empty):
    _check_against_minimax(2000 + empty, empty, 100 if empty < 17 else 25)


@pytest.mark.parametrize("seed", range(4))
def test_windowed_searches_give_sound_bounds(seed):
    rng = random.Random(seed)
    solver = SplineSolver()
    memo: dict = {}
    for _ in range(25):
        me, opp = random_position(rng, rng.randint(8, 11))
        exact = brute_value(me, opp, memo)
        alpha = rng.randint(-31, 30)
        beta = rng.randint(alpha + 1, 31)
        v = solver.value(me, opp, alpha, beta)
        if v <= alpha:
            assert exact <= v
        elif v >= beta:
            assert exact >= v
        else:
            assert exact == v


def test_canonical_key_is_the_same_for_all_images():
    rng = random.Random(7)
    for _ in range(50):
        me, opp = random_position(rng, rng.randint(5, 25))
        key, sym = canonical(me, opp)
        images = [canonical(transform_mask(me, s), transform_mask(opp, s))[0] for s in SYMMETRIES]
        assert images == [key] * 8
        perm = SYMMETRIES[sym]
        assert key == transform_mask(me, perm) | transform_mask(opp, perm) << 30


def test_position_key_forgets_only_colours_that_cannot_matter():
    rng = random.Random(11)
    memo: dict = {}
    merged = 0
    for _ in range(60):
        me, opp = random_position(rng, rng.randint(9, 11))
        key = position_key(me, opp)[0]
        for p in points_of(me | opp):
            bit = 1 << p                         # recolour the ball at p
            me2, opp2 = (me ^ bit, opp | bit) if me & bit else (me | bit, opp ^ bit)
            dead = all(line & me and line & opp and line & me2 and line & opp2
                       for line in LINES_THROUGH[p])
            same = position_key(me2, opp2)[0] == key
            if dead:
                assert same
                merged += 1
            if same:
                assert brute_value(me2, opp2, memo) == brute_value(me, opp, memo)
    assert merged > 50


# -- move values -------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(8))
def test_move_values_match_plain_minimax(seed):
    rng = random.Random(50 + seed)
    me, opp = random_position(rng, rng.randint(7, 10))
    white, black = as_white_black(me, opp)
    values = move_values((white, black))
    n = (me | opp).bit_count()
    assert set(values) == set(points_of(playable_mask(me | opp)))
    memo: dict = {}
    for p, mv in values.items():
        expected = 30 - n if _completes(me, p) else -brute_value(opp, me | 1 << p, memo)
        assert mv.score == expected
        assert (mv.result, mv.length) == describe_score(expected)
    best = max(mv.score for mv in values.values())
    assert position_value((white, black)).score == best == brute_value(me, opp, memo)


def test_move_values_on_a_small_position():
    # White c1 e1 g1, Black a3 c3 e5, White to move: a1 wins at once with the
    # 7th ball; anything else lets Black block.
    pos = Position("..../..B./BB../.WWW|.../.../...|../..|.")
    values = move_values(pos)
    assert values[0] == (24, "win", 7)
    assert all(mv.score < 24 for p, mv in values.items() if p != 0)
    assert position_value(pos) == (24, "win", 7)
    # Black to move must block at a1 (the only move that does not lose at once)
    pos = Position("..../..B./B.../.WWW|.../.../...|../..|.")
    values = move_values(pos)
    assert {p for p, mv in values.items() if mv.result == "loss" and mv.length == 7} \
        == set(values) - {0}
    assert values[0].score > -24
    assert move_values(Position("B.../B.../B.../WWWW|.../.../...|../..|.")) == {}


def test_move_values_accept_positions_states_and_masks():
    me, opp = random_position(random.Random(3), 10)
    pos = Position.from_masks(*as_white_black(me, opp))
    state = load("spline").parse_state(f"{pos.text()} {1 if me == pos.white else 2}")
    assert move_values(pos) == move_values(state) == move_values((pos.white, pos.black))
    with pytest.raises(ValueError):
        move_values((1, 2 | 4))                  # two black balls, one white
    with pytest.raises(ValueError):
        move_values((1 << 16, 0))                # a level-1 ball in the air


# -- principal variations, replayed with the engine -----------------------------

def _replay(moves, start=None):
    match = load("spline").new_match(state=start)
    for text in moves:
        assert not match.is_over()
        match.push(text)
    return match


@pytest.mark.parametrize("played", [12, pytest.param(8, marks=pytest.mark.slow),
                                    pytest.param(6, marks=pytest.mark.slow)])
def test_plain_minimax_confirms_the_known_line(played):
    # Independent of the solver: from the position after `played` balls of the
    # known line, plain minimax also finds that Black wins with the 26th ball.
    me, opp = mover_first(_replay(KNOWN_PV[:played]).state.position)
    value = brute_value(me, opp, {})
    assert describe_score(value) == (("win" if played % 2 else "loss"), 26)


@pytest.mark.parametrize("played", [13, 16, 19])
def test_principal_variation_replays_from_the_middle_of_the_known_line(played):
    match = _replay(KNOWN_PV[:played])
    me, opp = mover_first(match.state.position)
    solver = SplineSolver()
    value = solver.value(me, opp)
    assert describe_score(value) == (("win" if played % 2 else "loss"), 26)
    line = solver.principal_variation(me, opp)
    match = _replay([point_name(p) for p in line], match.state)
    assert match.is_over() and match.outcome().winners == (1,)
    assert match.state.position.occupied.bit_count() == 26


def test_solve_spline_from_the_empty_board():     # a few seconds
    steps = []
    result = solve_spline(progress=lambda items: steps.append(len(items)) or items)
    assert steps == [3]                          # corner, edge and centre first moves
    assert (result["winner"], result["length"]) == (2, 26)
    assert {v["length"] for v in result["first_moves"].values()} == {26}
    assert {v["result"] for v in result["first_moves"].values()} == {"loss"}
    pv = result["principal_variation"]
    assert len(pv) == 26
    assert pv[:6] == KNOWN_PV[:6]              # the position the solving page annotates
    match = _replay(pv)
    assert match.is_over() and match.outcome().winners == (1,)   # player 2: Black
    assert len(match.history) == result["length"]


@pytest.mark.slow
def test_full_minimax_from_the_empty_board():
    """Every reachable position valued by plain minimax: no pruning, no threat
    shortcuts; only the table key (symmetry, forgotten colours) is shared with
    the solver, and it is checked above.  About 6 million positions, a few
    minutes and under 1 GB."""
    memo: dict = {}

    def value(me, opp):
        key = position_key(me, opp)[0]
        found = memo.get(key)
        if found is not None:
            return found
        n = (me | opp).bit_count()
        best = None
        for p in points_of(playable_mask(me | opp)):
            v = 30 - n if _completes(me, p) else -value(opp, me | 1 << p)
            best = v if best is None else max(best, v)
        memo[key] = best = 0 if best is None else best
        return best

    assert describe_score(value(0, 0)) == ("loss", 26)          # for White
    assert len(memo) > 5_000_000


# -- the move values quoted on the solving page -----------------------------------

def test_after_six_balls_of_the_principal_line_only_c5_and_e3_hold_out():
    pos = _replay(KNOWN_PV[:6]).state.position
    values = move_values(pos, SplineSolver())
    assert len(values) == 10 and {v.result for v in values.values()} == {"loss"}
    by_length = {}
    for p, v in values.items():
        by_length.setdefault(v.length, []).append(point_name(p))
    assert sorted(by_length[26]) == ["c5.0", "e3.0"]
    assert len(by_length[24]) == 8 and set(by_length) == {24, 26}


def test_after_a1_g7_ten_moves_lose_at_26_and_four_at_24():
    from collections import Counter
    from shibumi.maths.claims import spline_move_labels
    pos = _replay(["a1", "g7"]).state.position
    labels = spline_move_labels(pos, SplineSolver())
    assert len(labels) == 14 and Counter(labels.values()) == {"L26": 10, "L24": 4}


# -- shortest and longest games ---------------------------------------------------

def test_spline_game_lengths():
    lengths = spline_game_lengths()
    assert (lengths["shortest"], lengths["longest"]) == (7, 28)
    assert lengths["line_free_capacity"] == {0: 16, 1: 9, 2: 2, 3: 0}
    assert lengths["draw_possible"] is False
    for key in ("shortest_game", "longest_game"):
        moves = lengths[key]
        match = _replay(moves[:-1])
        assert match.outcome() is None           # no line before the last ball
        match.push(moves[-1])
        assert match.is_over() and not match.outcome().is_draw
        assert len(match.history) == lengths[key.split("_")[0]]
