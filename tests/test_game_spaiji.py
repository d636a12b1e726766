"""Spaiji: a touching white-black pair each turn; the largest visible group wins."""
import random

import pytest
from hypothesis import given, strategies as st

import shibumi.games.spaiji  # noqa: F401  (registers the game)
from conformance import check_playouts, check_symmetries, random_walk
from shibumi import IllegalMoveError, load
from shibumi.analysis import perft
from shibumi.notation import parse_point
from shibumi.position import BLACK, WHITE, Position
from reference import touch as _touch, open_points as _open


def state(text, to_move=1, extras="", **params):
    return load("spaiji", **params).parse_state(f"{text} {to_move} {extras}".strip())


def match_at(text, to_move=1, extras="", **params):
    return load("spaiji", **params).new_match(state=state(text, to_move, extras, **params))


def test_conformance():
    check_playouts("spaiji", games=600)


def test_a_turn_is_a_white_and_a_black_ball_that_touch():
    m = load("spaiji").new_match()
    assert len(m.legal_moves()) == 32              # either colour on any hole
    m.push("Bc3")
    assert m.current_player == 0                   # still White's turn
    second = sorted(mv.text() for mv in m.legal_moves())
    assert second == ["Wa3", "Wc1", "Wc5.0", "We3.0"]   # white, touching c3
    for bad in ("Bc1", "Wg7", "Wa1"):              # same colour / not touching
        with pytest.raises(IllegalMoveError):
            m.push(bad)
    m.push("c1")                                   # the colour is implied
    assert m.state.position.colour_at(parse_point("c1")) == WHITE
    assert m.current_player == 1 and m.state.first is None


def test_the_second_ball_may_rest_on_the_platform_the_first_completes():
    m = match_at("..../..../WB../B...|.../.../...|../..|.", 2)
    m.push("Wc1")                                  # completes b2's platform
    assert "Bb2" in {mv.text() for mv in m.legal_moves()}
    m.push("b2")
    assert m.state.position.colour_at(parse_point("b2")) == BLACK


def test_a_first_ball_needs_room_for_its_partner():
    # The board is full; level 1 holds b4, d2 and f4. b2 and f2 are playable
    # but their neighbours are taken and they complete no platform, so a
    # first ball may not go there; around the empty d6 pairs still fit.
    s = state("WWBW/BWBW/WBBB/BWBW|.../B.W/.W.|../..|.", 1)
    game = load("spaiji")
    firsts = {mv.text()[1:] for mv in game.legal_moves(s)}
    assert s.position.is_playable(parse_point("b2"))
    assert firsts == {"b6", "d6", "f6", "d4.1"}
    with pytest.raises(IllegalMoveError):
        game.new_match(state=s).push("Wb2")


def test_a_game_lasts_fifteen_turns_and_white_takes_the_last():
    game = load("spaiji")
    rng = random.Random(1)
    for _ in range(50):
        s = game.initial_state()
        movers = []
        while not game.is_terminal(s):
            if s.first is None:
                movers.append(s.to_move)
            s = game.apply(s, rng.choice(game.legal_moves(s)))
        if s.position.count() == 30:
            assert len(movers) == 15 and movers[-1] == 0 and game.length(s) == 30


# -- scoring ----------------------------------------------------------------

def test_larger_visible_group_wins_and_ties_go_to_black():
    tie = state("BWBW/WBWB/BWBW/WBBW|WBB/BWW/WWB|WW/BB|B", 2).result
    assert tie.scores == (8.0, 8.0) and tie.winners == (1,)
    assert "tie" in tie.reason


def test_the_variant_counts_hidden_balls():
    text = "WBWW/BWBB/BWWW/WWBB|BWB/BWB/BBW|WB/BW|W"
    assert Position(text).hidden() != 0
    seen = state(text, 2).result
    assert seen.scores == (8.0, 10.0) and seen.winners == (1,)
    everything = state(text, 2, count_hidden=True).result
    assert everything.scores == (14.0, 10.0) and everything.winners == (0,)


# The book's example (figure lost): White's last turn, two ways to fill the
# last two points, one losing 7-13 and one winning 10-9. This position comes
# from random play and has exactly those two endings: c3 of level 2 and then
# the apex on top of it.
LAST_TURN = "BWWB/BWWB/WWBB/WBWW|BWW/BBB/WBB|WB/.W|."


def test_the_book_example_one_way_loses_7_13_the_other_wins_10_9():
    game = load("spaiji")
    m = match_at(LAST_TURN, 1)
    assert sorted(mv.text() for mv in m.legal_moves()) == ["Bc3.2", "Wc3.2"]
    endings = {}
    for first in ("Wc3.2", "Bc3.2"):
        m.push(first)
        (second,) = m.legal_moves()
        assert second.point == 29
        m.push(second)
        endings[first] = (m.outcome().scores, m.outcome().winners)
        m.pop()
        m.pop()
    assert endings == {"Bc3.2": ((7.0, 13.0), (1,)), "Wc3.2": ((10.0, 9.0), (0,))}
    assert game.length(m.state) == 28


def test_the_game_ends_at_once_when_no_touching_pair_fits():
    # From random play: level 1 holds b4, d2, d6 and f4, so every playable
    # point (b2, f2, b6, f6, d4) has all its neighbours filled and completes
    # no platform. The game stops at 20 balls, scored as usual.
    s = state("WWBW/BWBW/WBBB/BWBW|.B./B.W/.W.|../..|.", 1)
    assert s.result is not None and "cannot place two touching balls" in s.result.reason
    assert s.result.scores == (3.0, 9.0) and s.result.winners == (1,)
    assert load("spaiji").legal_moves(s) == []


def test_the_last_turn_always_fits():
    # With 28 balls the apex is empty and so is exactly one point of level 2
    # (any lower gap would empty the points above it too): that point is
    # playable and, once filled, the apex rests on it and touches it.
    game = load("spaiji")
    rng = random.Random(4)
    seen = 0
    while seen < 40:
        s = game.initial_state()
        while not game.is_terminal(s) and s.position.count() < 28:
            s = game.apply(s, rng.choice(game.legal_moves(s)))
        if s.position.count() == 28:
            seen += 1
            assert s.result is None and s.position.playable() >> 29 & 1 == 0
            assert all(mv.point in range(25, 29) for mv in game.legal_moves(s))


def test_random_games_sometimes_end_blocked():
    game = load("spaiji")
    rng = random.Random(0)
    lengths = [game.length(game.random_playout(game.initial_state(), rng))
               for _ in range(1500)]
    assert all(n % 2 == 0 for n in lengths)
    assert lengths.count(30) > 1400 and any(n < 30 for n in lengths)


@given(st.integers(0, 2 ** 32), st.integers(0, 29))
def test_all_eight_symmetries_keep_moves_and_results(seed, steps):
    game = load("spaiji")
    s = random_walk(game, seed, steps)
    for image in check_symmetries(game, s, range(8)):
        # the same image read back from text (the turn's first ball moved too)
        again = game.parse_state(game.state_text(image))
        assert game.state_key(again) == game.state_key(image)


# -- perft, cross-checked by an independent brute force ---------------------
#
# By hand: depth 1 = 16 holes x 2 colours = 32. Depth 2: the partner goes on a
# flat neighbour (corner 2, edge 3, centre 4: 4*2 + 8*3 + 4*4 = 48) in the
# other colour: 96. Depth 3: 14 holes x 2 colours, all with an empty
# neighbour: 96 * 28 = 2688. The brute force shares no code with the engine:
# a dict from (level, x, y) to colour, contact = same level and one step
# apart, or one resting on the other.


def _brute(board, depth, first=None):
    if depth == 0:
        return 1
    if first is not None:
        colour = "B" if board[first] == "W" else "W"
        return sum(_brute({**board, q: colour}, depth - 1)
                   for q in _open(board) if _touch(first, q))
    total = 0
    for p in _open(board):
        for colour in "WB":
            after = {**board, p: colour}
            if any(_touch(p, q) for q in _open(after)):
                total += _brute(after, depth - 1, p)
    return total


PERFT = [32, 96, 2688, 7168, 171776]


def test_perft_matches_a_hand_count_and_an_independent_brute_force():
    game = load("spaiji")
    assert [perft(game, d) for d in range(1, 6)] == PERFT
    assert PERFT[:3] == [16 * 2, 48 * 2, 96 * 28]
    assert [_brute({}, d) for d in range(1, 5)] == PERFT[:4]


def test_fast_playouts_agree_when_hidden_balls_count():
    check_playouts("spaiji", games=100, count_hidden=True)
