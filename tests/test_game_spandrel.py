"""Spandrel: a white, a black and a red ball in a touching chain each turn; the
largest visible group wins, ties to the later player in turn order."""
import random

import pytest
from hypothesis import given, settings, strategies as st

from conformance import (check_playouts, check_random_games,
                         check_symmetries, random_walk)
from shibumi import IllegalMoveError, NotationError, UnknownGameError, load
from shibumi.analysis import perft
from shibumi.geometry import ALL_MASK, points_of
from shibumi.games.spandrel import first_spots
from shibumi.notation import parse_point, point_name
from shibumi.position import BLACK, RED, WHITE, linked
from reference import cells_of, open_points, touch

GAME = load("spandrel")

#: From random play (seed 7): after seven turns the board is full and level 1
#: holds a plus sign (d2, b4, d4, f4, d6). Black is to move, and each
#: playable corner (b2, f2, b6, f6) touches only balls and completes nothing.
BLOCKED = "WBRW/RBBR/RRRB/BWBW|.R./WBW/.W.|../..|. 2"


def state(text):
    return GAME.parse_state(text)


def names(moves):
    return sorted({point_name(m.point) for m in moves})


# -- conformance -------------------------------------------------------------------

def test_conformance():
    check_random_games("spandrel", seeds=range(25))
    check_playouts("spandrel", games=200)
    info = GAME.info
    assert (info.min_players, info.max_players, info.max_length) == (3, 3, 30)
    assert GAME.symmetries == tuple(range(8))


def test_fast_playouts_play_the_rules_games_in_the_variant():
    check_playouts("spandrel", games=100, tiebreak="recent")


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2 ** 32), st.integers(0, 30))
def test_symmetries_keep_moves_and_results(seed, steps):
    s = random_walk(GAME, seed, steps)
    for image in check_symmetries(GAME, s):
        again = GAME.parse_state(GAME.state_text(image))     # the turn's balls turn too
        assert GAME.state_key(again) == GAME.state_key(image)


# -- a turn --------------------------------------------------------------------------

def test_a_turn_is_three_balls_one_of_each_colour():
    m = GAME.new_match()
    assert len(m.legal_moves()) == 16 * 3                      # any colour, any hole
    m.push("Rc3")
    assert m.current_player == 0                               # still White's turn
    assert {mv.colour for mv in m.legal_moves()} == {WHITE, BLACK}
    m.push("Wa1")                                              # not touching c3: fine
    assert names(m.legal_moves()) == ["a3", "c1"]              # the middle must touch both
    assert {mv.colour for mv in m.legal_moves()} == {BLACK}
    before = m.state
    for bad in ("Bg7", "Wc1", "Rc1", "Be3"):                   # far, or a colour already used
        with pytest.raises(IllegalMoveError):
            m.push(bad)
    assert m.state == before
    m.push("c1")                                               # the colour is implied
    assert m.state.position.colour_at(parse_point("c1")) == BLACK
    assert m.current_player == 1 and m.state.placed == ()


def test_any_ball_of_the_three_may_be_the_middle():
    m = GAME.new_match()
    m.push("Wa1")
    m.push("Ba3")                                              # touching: the third touches either
    assert names(m.legal_moves()) == ["a5", "c1", "c3.0"]
    m = GAME.new_match()
    m.push("Wa1")
    seconds = names(m.legal_moves())                           # within reach of a middle ball
    assert seconds == ["a3", "a5", "c1", "c3.0", "e1"]
    assert "a7" not in seconds and "e3.0" not in seconds


def test_a_ball_may_rest_on_a_platform_completed_this_turn():
    s = state("..../..../W.../BR..|.../.../...|../..|. 2")
    m = GAME.new_match(state=s)
    m.push("Rc3")                                              # completes a1 c1 a3 c3
    assert "b2" in names(m.legal_moves())
    m.push("Wb2")
    assert names(m.legal_moves()) == ["c5.0", "e3.0"]             # touching c3 or b2
    m.push("Bc5")
    assert m.state.position.colour_at(parse_point("b2")) == WHITE and m.current_player == 2


def test_a_first_ball_needs_room_for_the_whole_chain():
    # From random play, Red to move: a1 is playable and would open b2 above it,
    # but nothing is left for a third ball touching a1 or b2.
    s = state(".B../.RW./BW../.R..|.../.../...|../..|. 3")
    assert s.position.is_playable(parse_point("a1"))
    assert "a1" not in names(GAME.legal_moves(s)) and len(names(GAME.legal_moves(s))) == 9
    with pytest.raises(IllegalMoveError):
        GAME.new_match(state=s).push("Wa1")


def test_fresh_chains_are_always_visibly_connected():
    rng = random.Random(3)
    for _ in range(60):
        s = GAME.initial_state()
        while not GAME.is_terminal(s):
            move = rng.choice(GAME.legal_moves(s))
            turn = s.placed + (move.point,)
            s = GAME.apply(s, move)
            if len(turn) == 3:
                occ = s.position.occupied
                assert not s.position.hidden() & sum(1 << p for p in turn)
                links = [sum(1 for q in turn if linked(p, occ) >> q & 1) for p in turn]
                assert max(links) == 2                        # one touches both, visibly


def test_a_full_game_is_ten_turns_each_colour_ten_balls():
    rng = random.Random(5)
    for _ in range(30):
        s, movers = GAME.initial_state(), []
        while not GAME.is_terminal(s):
            if not s.placed:
                movers.append(s.to_move)
            s = GAME.apply(s, rng.choice(GAME.legal_moves(s)))
        if s.position.occupied == ALL_MASK:
            assert movers == [0, 1, 2] * 3 + [0]
            assert [s.position.count(c) for c in (WHITE, BLACK, RED)] == [10, 10, 10]


def test_the_last_turn_always_fits():
    rng = random.Random(4)
    seen = 0
    while seen < 30:
        s = GAME.initial_state()
        while not GAME.is_terminal(s) and s.position.count() < 27:
            s = GAME.apply(s, rng.choice(GAME.legal_moves(s)))
        if s.position.count() == 27:
            seen += 1
            assert s.result is None and first_spots(s.position.occupied)


# -- the end ----------------------------------------------------------------------

def test_a_blocked_mover_ends_the_game():
    s = state(BLOCKED)
    assert s.result is not None
    assert "Black cannot place a chain of three" in s.result.reason
    spots = sorted(point_name(p) for p in points_of(s.position.playable()))
    assert spots == ["b2", "b6", "f2", "f6"]
    assert s.result.scores == (2.0, 4.0, 3.0) and s.result.winners == (1,)
    assert GAME.legal_moves(s) == []


def test_random_games_are_rarely_blocked():
    rng = random.Random(0)
    lengths = [GAME.length(GAME.random_playout(GAME.initial_state(), rng))
               for _ in range(500)]
    assert all(n % 3 == 0 for n in lengths)
    assert lengths.count(30) >= 490


def test_largest_visible_group_wins():
    final = GAME.random_playout(GAME.initial_state(), random.Random(11))
    sizes = [final.position.largest_groups(c)[0] for c in (WHITE, BLACK, RED)]
    assert final.result.scores == tuple(float(n) for n in sizes)
    best = max(sizes)
    tied = [p for p in range(3) if sizes[p] == best]
    assert final.result.winners == (max(tied),)
    assert GAME.winning_points(final) == \
        final.position.largest_groups((WHITE, BLACK, RED)[max(tied)])[1]


def _tied_games(tiebreak, count):
    game = load("spandrel", tiebreak=tiebreak)
    rng = random.Random(2)
    found = []
    while len(found) < count:
        final = game.random_playout(game.initial_state(), rng)
        sizes = final.result.scores
        tied = [p for p in range(3) if sizes[p] == max(sizes)]
        if len(tied) > 1 and final.position.occupied == ALL_MASK:
            found.append((tied, final.result))
    return found


def test_ties_go_to_the_later_player_in_turn_order():
    for tied, result in _tied_games("order", 30):
        assert result.winners == (max(tied),) and "tie on" in result.reason
        assert result.ranking[0] == result.winners and len(result.ranking) == 3


def test_the_variant_gives_ties_to_the_most_recent_mover():
    # After a full game the turns ended White (10th), Red (9th), Black (8th).
    for tied, result in _tied_games("recent", 30):
        assert result.winners == (min(tied, key=lambda p: (0 - p) % 3),)
    rank = [load("spandrel", tiebreak="recent").tie_rank(p, 0) for p in range(3)]
    assert rank[0] > rank[2] > rank[1]


def test_ties_between_white_and_red_differ_between_readings():
    text = "RBWR/RWRW/BBBB/WRWB|WBW/RRW/BWR|BR/RB|W 2"          # random play, seed 9
    order, recent = (load("spandrel", tiebreak=t).parse_state(text).result
                     for t in ("order", "recent"))
    assert order.scores == recent.scores
    assert order.scores[0] == order.scores[2] > order.scores[1]
    assert order.winners == (2,) and recent.winners == (0,)


def test_bad_parameters_and_state_text_are_refused():
    with pytest.raises(UnknownGameError):
        load("spandrel", tiebreak="first")
    for bad in ("..../..../..../W...|.../.../...|../..|. 1",          # one ball, no turn=
                "..../..../..../WBR.|.../.../...|../..|. 1",          # White's turn is over
                "..../..../..../WW..|.../.../...|../..|. 1 turn=a1,c1",
                "..../..../..../W...|.../.../...|../..|. 1 turn=c1",  # empty point
                "..../..../..../W...|.../.../...|../..|. 1 ply=3",
                "..../..../..../W..B|.../.../...|../..|. 1 turn=a1,g1"):  # no middle left
        with pytest.raises(NotationError):
            state(bad)
    s = state("..../..../..../W...|.../.../...|../..|. 1 turn=a1")
    assert GAME.state_text(s).endswith(" 1 turn=a1")


def test_status_lines_say_the_groups_and_the_turn():
    m = GAME.new_match()
    m.push("Rc3")
    lines = GAME.status_lines(m.state)
    assert lines[0] == "Largest groups: White 0, Black 0, Red 1."
    assert lines[1] == "White's chain so far: red on c3.0; still to place: white and black."


# -- perft, against an engine-free brute force -------------------------------------
#
# Full turns are enumerated in the dict-of-points model: three balls of the
# three colours on points open in turn, one of which touches the other two.
# A prefix of a turn is legal when it grows into such a turn.

def _turns(board):
    """Every full turn from a board: ((point, colour), (point, colour), (point, colour))."""
    out = []
    for a in open_points(board):
        b1 = {**board, a: "?"}
        for b in open_points(b1):
            b2 = {**b1, b: "?"}
            for c in open_points(b2):
                trio = (a, b, c)
                if any(all(touch(m, o) for o in trio if o != m) for m in trio):
                    for colours in ("WBR", "WRB", "BWR", "BRW", "RWB", "RBW"):
                        out.append(tuple(zip(trio, colours)))
    return out


def _brute(board, depth):
    if depth == 0:
        return 1
    if len(board) == 30:
        return 0
    turns = _turns(board)
    if depth < 3:
        return len({t[:depth] for t in turns})
    return sum(_brute({**board, **dict(t)}, depth - 3) for t in turns)


PERFT = [48, 696, 1872, 72576]


def test_perft_matches_a_brute_force():
    assert [perft(GAME, d) for d in range(1, 5)] == PERFT
    assert [_brute({}, d) for d in range(1, 4)] == PERFT[:3]
    for seed, steps, depth in ((1, 9, 3), (2, 15, 3), (3, 21, 3), (4, 24, 3), (6, 27, 3)):
        s = random_walk(GAME, seed, steps)
        assert s.placed == () and s.result is None
        assert perft(GAME, depth, s) == _brute(cells_of(s.position), depth)


@pytest.mark.slow
def test_perft_depth_four_against_the_brute_force():
    assert _brute({}, 4) == PERFT[3]
