"""Spuzzle: a solitaire, as many balls as possible without a group of three."""
import random

import pytest
from hypothesis import given, strategies as st

from conformance import check_playouts, check_symmetries, random_walk
from shibumi import IllegalMoveError, NotationError, load
from shibumi.analysis import perft
from shibumi.games.spuzzle import BEST_SCORE, SpuzzleOutcome, fits, largest_group
from shibumi.geometry import COORDS, points_of
from shibumi.notation import parse_point
from shibumi.position import BLACK, RED, WHITE, Position
from reference import below as _below, ALL as _ALL, touch as _touch

COLOURS = (WHITE, BLACK, RED)


def state(text):
    return load("spuzzle").parse_state(f"{text} 1")


def test_conformance():
    check_playouts("spuzzle", games=400)
    game = load("spuzzle")
    assert game.num_players == 1 and game.info.max_length == BEST_SCORE == 27


def test_the_start_is_empty_and_any_colour_goes_on_any_hole():
    game = load("spuzzle")
    s = game.initial_state()
    assert s.position.occupied == 0 and s.to_move == 0
    moves = game.legal_moves(s)
    assert len(moves) == 48                                # 16 holes x 3 colours
    assert {m.colour for m in moves} == {WHITE, BLACK, RED}


def test_two_touching_balls_of_a_colour_are_allowed_a_third_is_not():
    m = load("spuzzle").new_match()
    m.push("Wa1")
    m.push("Wc1")                                          # a pair
    for bad in ("We1", "Wa3", "Wc3"):                      # each would touch the pair
        with pytest.raises(IllegalMoveError):
            m.push(bad)
    m.push("Ba3")
    m.push("Rc3")


def test_a_ball_may_not_join_two_single_balls_into_a_group_of_three():
    m = load("spuzzle").new_match()
    m.push("Wa1")
    m.push("We1")                                          # two lone whites
    assert "Wc1" not in {mv.text() for mv in m.legal_moves()}
    assert {"Bc1", "Rc1"} <= {mv.text() for mv in m.legal_moves()}


def test_hidden_connections_count():
    # White c3 and e3 touch, but the contact is crossed by d2 and d4 on level
    # 1, so it cannot be seen from above. It still counts: White may not add
    # g3, although the visible group of g3 would hold only two balls.
    s = state("..../.RB./.WW./.BR.|.../.B./.R.|../..|.")
    game = load("spuzzle")
    assert s.result is None
    pos = s.position
    c3, e3 = parse_point("c3.0"), parse_point("e3.0")
    assert pos.group(c3, visible_only=True) == 1 << c3      # the contact is hidden
    assert pos.group(c3, visible_only=False) == 1 << c3 | 1 << e3
    assert "Wg3" not in {mv.text() for mv in game.legal_moves(s)}
    after = pos.place(parse_point("g3"), WHITE)
    assert after.group(e3, visible_only=True).bit_count() == 2
    assert largest_group(after) == 3


def test_a_buried_ball_still_connects():
    # White c3 of the board is buried under c3 of level 2 (red), and White d4
    # of level 1 rests on it: a pair. A white ball on e5 of level 2 would touch
    # d4 and make a group of three, though from above it would look like two.
    s = state("RBWR/WRBW/BWRB/WBWR|WRB/BWR/RBW|../R.|.")
    pos, c3, d4, e5 = s.position, parse_point("c3.0"), parse_point("d4.1"), parse_point("e5.2")
    assert pos.hidden() == 1 << c3 and pos.colour_at(c3) == pos.colour_at(d4) == WHITE
    assert pos.group(d4, visible_only=False) == 1 << c3 | 1 << d4
    assert pos.is_playable(e5) and not fits(pos, e5, WHITE)
    assert "We5.2" not in {mv.text() for mv in load("spuzzle").legal_moves(s)}
    after = pos.place(e5, WHITE)
    assert after.group(e5, visible_only=True).bit_count() == 2
    assert after.group(e5, visible_only=False).bit_count() == 3


@given(st.integers(0, 2 ** 32), st.integers(0, 27))
def test_fits_is_the_group_rule(seed, steps):
    # The fast test (a ball touches at most one ball of its colour, which
    # touches no other) against group sizes computed from scratch.
    game = load("spuzzle")
    s = random_walk(game, seed, steps)
    pos = s.position
    assert largest_group(pos) <= 2
    for p in points_of(pos.playable()):
        for c in COLOURS:
            assert fits(pos, p, c) == (largest_group(pos.place(p, c)) <= 2)


# The rule book's example: a game of 22 balls that can go no further (figure
# lost). This one comes from random play.
STUCK_AT_22 = "WRWR/RBRW/WBRW/RRWB|W.B/RW./W.B|../..|."


def test_the_book_example_22_balls_and_nothing_more_fits():
    s = state(STUCK_AT_22)
    assert s.position.count() == 22
    outcome = s.result
    assert isinstance(outcome, SpuzzleOutcome)
    assert outcome.scores == (22.0,) and outcome.winners == (0,)
    assert "score 22" in outcome.reason
    playable = points_of(s.position.playable())
    assert [p for p in playable] and all(not fits(s.position, p, c)
                                         for p in playable for c in COLOURS)
    assert load("spuzzle").legal_moves(s) == []


def test_the_score_is_the_number_of_balls_and_the_reward_grows_with_it():
    game = load("spuzzle")
    rng = random.Random(2)
    for _ in range(50):
        final = game.random_playout(game.initial_state(), rng)
        outcome = game.outcome(final)
        assert outcome.scores[0] == final.position.count() == game.length(final)
        assert outcome.returns(1) == (outcome.scores[0] / 27,)


def test_the_best_score_is_marked():
    from shibumi.maths.spuzzle import solve_spuzzle
    final = state(solve_spuzzle()["position"])
    assert final.result.scores == (27.0,) and "best possible" in final.result.reason


def test_random_play_stays_below_the_best_and_the_supply_never_runs_out():
    game = load("spuzzle")
    rng = random.Random(0)
    scores = []
    for _ in range(2000):
        final = game.random_playout(game.initial_state(), rng)
        scores.append(game.length(final))
        assert max(final.position.count(c) for c in COLOURS) <= 12 < 16
    assert max(scores) < BEST_SCORE
    assert 0.35 < sum(s >= 22 for s in scores) / len(scores) < 0.55
    assert min(scores) >= 10


def test_state_text_rejects_a_group_of_three_or_a_floating_ball():
    game = load("spuzzle")
    for bad in ("..../..../..../WWW.|.../.../...|../..|. 1",
                "..../..../..../....|W../.../...|../..|. 1",
                "..../..../..../W...|.../.../...|../..|. 1 first=a1"):
        with pytest.raises(NotationError):
            game.parse_state(bad)


@given(st.integers(0, 2 ** 32), st.integers(0, 27))
def test_all_eight_symmetries_keep_moves_and_results(seed, steps):
    game = load("spuzzle")
    assert game.symmetries == tuple(range(8))
    check_symmetries(game, random_walk(game, seed, steps))


# -- perft, cross-checked by an independent brute force -------------------------
#
# By hand: depth 1 = 16 holes x 3 colours = 48. Depth 2 = 15 holes x 3
# colours for every first ball (two balls never make a group of three):
# 48 x 45 = 2160. The brute force shares no code with the engine: a dict from
# (level, x, y) to colour, groups by flood fill over physical contacts.


def _group(board, start):
    seen, todo = {start}, [start]
    while todo:
        a = todo.pop()
        for b, colour in board.items():
            if b not in seen and colour == board[start] and _touch(a, b):
                seen.add(b)
                todo.append(b)
    return seen


def _moves(board):
    out = []
    for pt in _ALL:
        if pt in board or not all(b in board for b in _below(pt)):
            continue
        for colour in "WBR":
            after = {**board, pt: colour}
            if len(_group(after, pt)) <= 2:
                out.append(after)
    return out


def _brute(board, depth):
    if depth == 0:
        return 1
    return sum(_brute(after, depth - 1) for after in _moves(board))


PERFT = [48, 2160, 89784, 3403224]


def test_perft_matches_a_hand_count_and_an_independent_brute_force():
    game = load("spuzzle")
    assert [perft(game, d) for d in range(1, 4)] == PERFT[:3]
    assert PERFT[:2] == [16 * 3, 48 * 45]
    assert [_brute({}, d) for d in range(1, 4)] == PERFT[:3]
    # and from the 22-ball example, where the brute force must find nothing
    pos = Position(STUCK_AT_22)
    board = {COORDS[p]: ".WBR"[pos.colour_at(p)] for p in points_of(pos.occupied)}
    assert _moves(board) == []


@pytest.mark.slow
def test_perft_depth_4():
    assert perft(load("spuzzle"), 4) == PERFT[3]
