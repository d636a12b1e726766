"""Sprite: two balls a turn, your colour or red; each ball scores its red/own contacts."""
import random

import pytest
from hypothesis import given, strategies as st

from conformance import (check_playouts, check_random_games,
                         check_symmetries, random_walk)
from reference import cells_of, open_points as _open, touch as _touch
from shibumi import IllegalMoveError, NotationError, load
from shibumi.analysis import perft
from shibumi.games.sprite import MOVER, RED_BALLS, SpriteState, mover_at
from shibumi.geometry import ALL_MASK, COORDS, TOUCHING_MASK
from shibumi.notation import parse_point
from shibumi.position import BLACK, RED, WHITE, Position

EMPTY = "..../..../..../....|.../.../...|../..|."


def state(text, to_move, extras=""):
    return load("sprite").parse_state(f"{text} {to_move} {extras}".strip())


def played(moves, start=None):
    m = load("sprite").new_match(state=start)
    for text in moves.split():
        m.push(text)
    return m


def texts(m):
    return sorted(mv.text() for mv in m.legal_moves())


def test_conformance():
    check_random_games("sprite", seeds=range(30))
    check_playouts("sprite", games=300)


# -- turns ----------------------------------------------------------------------

def test_white_opens_with_two_ordinary_balls_and_then_a_compulsory_red():
    m = load("sprite").new_match()
    assert len(m.legal_moves()) == 16 * 2                   # any hole, white or red
    assert {mv.colour for mv in m.legal_moves()} == {WHITE, RED}
    m.push("Ra1")                                           # a red as an ordinary ball
    m.push("Wg7")
    assert m.current_player == 0
    assert {mv.colour for mv in m.legal_moves()} == {RED}   # the third ball is red
    with pytest.raises(IllegalMoveError):
        m.push("Wc3")
    m.push("c3")                                            # the colour is implied
    assert m.state.position.colour_at(parse_point("c3.0")) == RED
    assert m.current_player == 1
    assert {mv.colour for mv in m.legal_moves()} == {BLACK, RED}
    with pytest.raises(IllegalMoveError):
        m.push("We1")                                       # never the opponent's colour


def test_turns_go_three_then_two_by_two_and_white_places_the_last_ball_alone():
    assert [mover_at(n) for n in range(12)] == [0, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1]
    game = load("sprite")
    rng = random.Random(4)
    for _ in range(30):
        s, movers = game.initial_state(), []
        while not game.is_terminal(s):
            movers.append(s.to_move)
            s = game.apply(s, rng.choice(game.legal_moves(s)))
        turns = []
        for who in movers:
            if turns and turns[-1][0] == who:
                turns[-1][1] += 1
            else:
                turns.append([who, 1])
        assert turns == [[0, 3]] + [[1, 2], [0, 2]] * 6 + [[1, 2], [0, 1]]
        assert movers.count(0) == 16 and movers.count(1) == 14
        assert s.position.occupied == ALL_MASK and game.length(s) == 30


def test_the_second_ball_may_rest_on_a_platform_the_first_completed():
    # Black to move (7 balls); a1, c1, a3 are in, so a ball on c3 opens b2.
    m = played("Wa1 Wc1 Ra3 Bg7 Bg5 We7 We5")
    assert m.current_player == 1
    assert "Bb2" not in texts(m)
    m.push("Bc3")
    assert "Bb2" in texts(m) and "Rb2" in texts(m)
    m.push("Bb2")
    assert m.current_player == 0


# -- scoring ----------------------------------------------------------------------

def test_own_balls_score_the_reds_they_touch_and_reds_the_own_balls():
    m = played("Ra3 Wg7 Rc1")                               # the reds touch no white
    assert m.state.lead == 0
    m.push("Ba1")                                           # touches the reds a3 and c1
    assert m.state.lead == -2
    m.push("Rc3")                                           # touches no black ball
    assert m.state.lead == -2
    m.push("We3")                                           # touches the red c3
    assert m.state.lead == -1
    m.push("Rg5")                                           # touches the white g7 only
    assert m.state.lead == 0


def test_touching_counts_the_balls_underneath_but_not_diagonal_neighbours():
    # a1 and c1 red, a3 and c3 white: a white ball on b2 rests on two reds.
    m = played("Wa3 Wc3 Ra1 Rc1 Bg7")                       # White's red a1 touched a3
    assert m.current_player == 0 and m.state.lead == 1
    m.push("Wb2")
    assert m.state.lead == 3
    m.push("We3")                                           # c1 is only diagonal to e3
    assert m.state.lead == 3
    other = played("Wa3 Wc3 Ra1 Rc1 Bg7 Wb2")
    other.push("We1")                                       # beside the red c1
    assert other.state.lead == 4


def test_a_red_placed_by_black_beside_white_balls_scores_nothing():
    m = played("Wa3 Wc1 Rg7")                               # White's red: no whites near
    assert m.state.lead == 0
    m.push("Ra1")                                           # touches white a3 and c1
    assert m.state.lead == 0
    m.push("Bc3")                                           # touches no red
    assert m.state.lead == 0
    m.push("Wa5")                                           # white, touching no red
    m.push("Rb2")                                           # White's red: a3, c1 white
    assert m.state.lead == 2


# The rule book's example (figure lost): Black to move plays a red ball for 2
# and a black ball for 3, in either order. Our position: a1 and c1 black, a3
# and c3 white, e1 and e3 red. Red on b2 (over a1 c1 a3 c3) touches 2 blacks;
# black on d2 (over c1 e1 c3 e3) touches the reds e1, e3 and, beside it, b2.
BOOK_START = "Wa3 Wc3 Re1 Ba1 Bc1 Re3 Wg7"


def test_the_book_example_five_points_in_either_order():
    base = played(BOOK_START)
    assert base.current_player == 1 and base.state.lead == 0   # 1 for each side so far
    for first, second, gains in (("Rb2", "Bd2", (2, 3)), ("Bd2", "Rb2", (2, 3))):
        m = played(BOOK_START)
        m.push(first)
        assert m.state.lead == -gains[0]
        m.push(second)
        assert m.state.lead == -5 and m.current_player == 0
    one = played(BOOK_START + " Rb2 Bd2").state
    two = played(BOOK_START + " Bd2 Rb2").state
    assert one.position == two.position and one.lead == two.lead == -5


def test_the_french_example_of_relative_scoring():
    # The first player scores 2 (2-0); the other then scores 3 (0-1).
    game = load("sprite")
    m = played("Wa3 Ra1 Rc3")
    assert m.state.lead == 2
    assert game.state_text(m.state).endswith(" 2 white=2")
    m.push("Bc1")                                           # a1 and c3: 2
    m.push("Be3")                                           # c3: 1
    assert m.state.lead == -1
    assert game.state_text(m.state).endswith(" 1 black=1")


def test_the_end_winner_loser_and_draw():
    game = load("sprite")
    full = "WWWW/BBBB/RRRR/WBRW|WBR/BRW/RWB/|WB/RW|R".replace("/|", "|")
    pos = Position(full)
    for extras, winners, scores in (("white=4", (0,), (4.0, 0.0)),
                                    ("black=7", (1,), (0.0, 7.0)),
                                    ("", (), (0.0, 0.0))):
        s = game.parse_state(f"{full} 1 {extras}".strip())
        out = game.outcome(s)
        assert s.position == pos and out is not None
        assert out.winners == winners and out.scores == scores
        assert game.legal_moves(s) == []
    assert game.outcome(game.parse_state(f"{full} 1")).is_draw


def test_a_draw_happens_in_real_games():
    game = load("sprite")
    rng = random.Random(9)
    results = [game.outcome(game.random_playout(game.initial_state(), rng))
               for _ in range(400)]
    assert any(r.is_draw for r in results)
    assert {0, 1} <= {w for r in results for w in r.winners}


# -- supply -------------------------------------------------------------------------

def test_red_stops_at_sixteen_and_own_colour_never_runs_out():
    # 16 reds in play, White to move (25 balls: the start of a White turn).
    text = "RRRR/RRRR/RRRR/RRRR|WWB/BBW/WWB|../..|."
    s = state(text, 1)
    assert s.position.red.bit_count() == RED_BALLS
    assert {mv.colour for mv in load("sprite").legal_moves(s)} == {WHITE}
    with pytest.raises(NotationError):
        state("RRRR/RRRR/RRRR/RRRR|RWB/BBW/WWB|../..|.", 1)   # 17 reds
    game = load("sprite")
    rng = random.Random(2)
    for _ in range(300):
        final = game.random_playout(game.initial_state(), rng)
        assert final.position.red.bit_count() <= RED_BALLS
        assert final.position.white.bit_count() <= 15
        assert final.position.black.bit_count() <= 14


# -- text, errors, symmetry -------------------------------------------------------

def test_state_text_round_trips_and_bad_text_is_refused():
    game = load("sprite")
    m = played(BOOK_START + " Rb2")
    text = game.state_text(m.state)
    assert text.endswith(" 2 black=2")
    again = game.parse_state(text)
    assert again.lead == -2 and again.position == m.state.position
    for bad in (f"{EMPTY} 2",                                 # White opens
                f"{EMPTY} 1 white=1 black=2",                 # one lead only
                f"{EMPTY} 1 lead=3",                          # unknown field
                f"{EMPTY} 1 white=-3",
                "..../..../..../BBB.|.../.../...|../..|. 2",  # Black cannot have opened
                "..../..../..../WWW.|.../.../...|../..|. 2",  # no compulsory red
                "..../..../..../WWRB|.../.../...|../..|. 1",  # Black's turn
                "..../..../..../WWRB|.../.../...|../..|. 3"):
        with pytest.raises(NotationError):
            game.parse_state(bad)


def test_a_bad_move_changes_nothing():
    m = played("Wa3 Ra1")
    before = m.state
    for bad in ("Ra3", "Bc1", "Wc1", "b2", "xa1", "pass"):
        with pytest.raises((IllegalMoveError, NotationError)):
            m.push(bad)
        assert m.state is before
    with pytest.raises(NotationError):
        m.push("Rz9")
    with pytest.raises(NotationError):
        played("Wa3 Wc3 Rg1").push("e1")          # Black or red: name the colour
    assert m.state is before


@given(st.integers(0, 2 ** 32), st.integers(0, 30))
def test_symmetries_keep_moves_results_and_text(seed, steps):
    game = load("sprite")
    assert game.symmetries == tuple(range(8))
    s = random_walk(game, seed, steps)
    for image in check_symmetries(game, s):
        again = game.parse_state(game.state_text(image))
        assert game.state_key(again) == game.state_key(image)
        assert image.lead == s.lead


# -- an independent scorer and perft -----------------------------------------------
#
# The brute force below knows the rules only from the rule book: points are
# (level, x, y), balls touch when side by side or one resting on the other,
# White places three balls (the third red), then two at a time; reds stop at 16.

def _who(n):
    return 0 if n < 3 else ((n - 3) // 2 + 1) % 2


def _choices(board):
    n = len(board)
    own = "WB"[_who(n)]
    reds = sum(1 for c in board.values() if c == "R")
    colours = "R" if n == 2 else own + ("R" if reds < 16 else "")
    return [(pt, c) for pt in _open(board) for c in colours]


def _points(board, pt, colour, own):
    wanted = own if colour == "R" else "R"
    return sum(1 for q, c in board.items() if c == wanted and _touch(pt, q))


def _brute(board, depth):
    if depth == 0 or len(board) == 30:
        return 1 if depth == 0 else 0
    if depth == 1:
        return len(_choices(board))
    return sum(_brute({**board, pt: c}, depth - 1) for pt, c in _choices(board))


def _replay_lead(moves):
    """White's points minus Black's, recomputed from a list of (point, colour)."""
    board, lead = {}, 0
    for pt, colour in moves:
        who = _who(len(board))
        gained = _points(board, pt, colour, "WB"[who])
        lead += gained if who == 0 else -gained
        board[pt] = colour
    return lead


PERFT = [32, 960, 13440, 349440, 8390016]


def test_perft_matches_an_independent_brute_force():
    game = load("sprite")
    assert [perft(game, d) for d in range(1, 6)] == PERFT
    # by hand: 16 holes x 2 colours, 15 x 2, then 14 reds, then 13 x 2
    assert PERFT[:4] == [32, 32 * 30, 32 * 30 * 14, 32 * 30 * 14 * 26]
    assert [_brute({}, d) for d in range(1, 5)] == PERFT[:4]
    for seed, steps in ((1, 7), (2, 16), (3, 25), (4, 27)):
        s = random_walk(game, seed, steps)
        board = cells_of(s.position)
        assert [perft(game, d, s) for d in (1, 2, 3)] == [_brute(board, d) for d in (1, 2, 3)]


def test_the_lead_agrees_with_an_independent_scorer():
    game = load("sprite")
    rng = random.Random(12)
    for _ in range(150):
        s, moves = game.initial_state(), []
        while not game.is_terminal(s):
            mv = rng.choice(game.legal_moves(s))
            moves.append((COORDS[mv.point], "WBR"[mv.colour - 1]))
            s = game.apply(s, mv)
            assert s.lead == _replay_lead(moves)
        assert game.outcome(s).winners == ((0,) if s.lead > 0 else (1,) if s.lead < 0 else ())


@given(st.integers(0, 2 ** 32), st.integers(3, 27))
def test_a_turns_score_does_not_depend_on_the_order_of_its_balls(seed, steps):
    game = load("sprite")
    s = random_walk(game, seed, steps)
    if game.is_terminal(s) or (s.position.occupied.bit_count() - 3) % 2:
        return                                        # only at the start of a turn
    rng = random.Random(seed)
    a = rng.choice(game.legal_moves(s))
    after_a = game.apply(s, a)
    if game.is_terminal(after_a):
        return
    follow = game.legal_moves(after_a)
    touching = [m for m in follow if TOUCHING_MASK[a.point] >> m.point & 1]
    b = rng.choice(touching or follow)                # a contact between the two, if any
    if b not in game.legal_moves(s) or a not in game.legal_moves(game.apply(s, b)):
        return                                        # the other order is not legal
    one = game.apply(after_a, b)
    two = game.apply(game.apply(s, b), a)
    assert one.position == two.position and one.lead == two.lead


def test_mover_table_and_state_type():
    assert MOVER[0] == 0 and MOVER[3] == 1 and MOVER[29] == 0
    assert isinstance(load("sprite").initial_state(), SpriteState)
