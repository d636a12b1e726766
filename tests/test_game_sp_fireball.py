"""SP-Fireball pinned down: two touching balls a turn, one touching an own ball,
the burning red, the end when no turn is left, and the count from the apex down."""
import random

import pytest

from shibumi.games.sp_fireball import START, pairs  # importing registers the game
from conformance import (check_random_games, check_symmetries,
                         random_walk)
from shibumi import IllegalMoveError, NotationError, load
from shibumi.analysis import perft
from shibumi.game import Game
from shibumi.notation import parse_point
from shibumi.position import BLACK, WHITE, Position
from reference import cells_of, open_points, touch

GAME = load("sp-fireball")


def play(state, *texts):
    for text in texts:
        state = GAME.apply(state, next(m for m in GAME.legal_moves(state)
                                       if m.text() == text or m.text().split(".")[0] == text))
    return state


# -- the rules again, engine-free ----------------------------------------------------

def ref_turns(board, me, hot):
    """Every legal (first point, first colour, second point) of a turn."""
    out = []
    for p in open_points(board):
        if hot and touch(p, hot):
            continue
        for colour in (me, "R"):
            after = dict(board)
            after[p] = colour
            for q in open_points(after):
                if not touch(p, q) or (hot and touch(q, hot)):
                    continue
                if any(c == me and (touch(p, r) or touch(q, r)) for r, c in board.items()):
                    out.append((p, colour, q))
    return out


def ref_perft(board, mover, hot, first, depth):
    """Actions to a depth: ``first`` is the turn's first ball, if placed."""
    if depth == 0:
        return 1
    me = "WB"[mover]
    total = 0
    if first is None:
        starts = {(p, c) for p, c, _ in ref_turns(board, me, hot)}
        for p, c in starts:
            new = dict(board)
            new[p] = c
            total += ref_perft(new, mover, hot, p, depth - 1)
        return total
    before = {pt: c for pt, c in board.items() if pt != first}
    colour = board[first]
    seconds = {q for p, c, q in ref_turns(before, me, hot) if p == first and c == colour}
    for q in seconds:
        new = dict(board)
        new[q] = me if colour == "R" else "R"
        red = q if colour != "R" else first
        if depth > 1 and not ref_turns(new, "WB"[1 - mover], red):
            continue                                    # the game ends: no children
        total += ref_perft(new, 1 - mover, red, None, depth - 1)
    return total


# -- declaration, start, conformance ------------------------------------------------------

def test_declaration_and_random_games():
    assert load("fireball").info is GAME.info
    check_random_games("sp-fireball", seeds=range(15))


def test_the_fast_playout_agrees_from_the_middle_of_a_turn():
    """check_playouts starts between turns (after an even number of actions); a
    playout may also start with the first ball of a turn down."""
    for seed in range(150):
        start = GAME.initial_state()
        walk = random.Random(-seed)
        for _ in range(seed % 9 * 2 + 1):
            if GAME.is_terminal(start):
                break
            start = GAME.random_step(start, walk)
        fast = GAME.random_playout(start, random.Random(seed))
        slow = Game.random_playout(GAME, start, random.Random(seed))
        assert fast == slow, seed


def test_start_one_white_one_black_in_opposite_corners():
    s = GAME.initial_state()
    assert s.position == Position("...B/..../..../W...|.../.../...|../..|.")
    assert s.to_move == 0 and s.hot == 0
    assert sorted(m.text() for m in GAME.legal_moves(s)) == sorted(
        f"{c}{p}" for c in "WR" for p in ("a3", "a5", "c1", "c3.0", "e1"))


def test_symmetries():
    for seed in range(5):
        for steps in (3, 8):
            check_symmetries(GAME, random_walk(GAME, seed, steps))


# -- the turn ------------------------------------------------------------------------

def test_the_two_balls_must_touch():
    s = play(GAME.initial_state(), "Wa3")
    assert {m.text() for m in GAME.legal_moves(s)} == {"Rc3.0", "Ra5"}
    with pytest.raises(IllegalMoveError):
        GAME.new_match(state=s).push("Rc1")             # c1 does not touch a3


def test_one_of_them_must_touch_an_own_ball_already_there():
    s = play(GAME.initial_state(), "We1")             # e1 touches nothing white
    # the red must then touch both e1 and a white ball: only c1 does
    assert [m.text() for m in GAME.legal_moves(s)] == ["Rc1"]
    # the new white ball does not make the red's contact count
    s2 = play(GAME.initial_state(), "Rc1")
    assert "We1" in {m.text() for m in GAME.legal_moves(s2)}


def test_a_first_ball_needs_a_second():
    s = GAME.initial_state()
    firsts = {m.point for m in GAME.legal_moves(s)}
    assert parse_point("g1") not in firsts and parse_point("a7") not in firsts


def test_the_burning_red_bars_both_balls_of_the_next_turn():
    s = play(GAME.initial_state(), "Wa3", "Rc3")
    assert s.hot == 1 << parse_point("c3.0") and s.to_move == 1
    for m in GAME.legal_moves(s):
        assert not (1 << m.point) & (1 << parse_point("c3.0") | 1 << parse_point("c5.0")
                                      | 1 << parse_point("e3.0"))
    s = play(s, "Be7", "Rc7")
    # White: c3.0's red is cold now; c7 burns, so a7 and c5 are barred
    firsts = {m.point for m in GAME.legal_moves(s)}
    assert parse_point("c5.0") not in firsts and parse_point("a7") not in firsts
    assert firsts == {parse_point("c1"), parse_point("e1")}


def test_the_second_ball_may_rest_on_the_first():
    s = GAME.parse_state("...B/..../W.../WW..|.../.../...|../..|. 1")
    s = play(s, "Rc3")
    assert "Wb2" in {m.text() for m in GAME.legal_moves(s)}      # on a1 c1 a3 and the red
    s = play(s, "Wb2")
    assert s.to_move == 1 and s.hot == 1 << parse_point("c3.0")


# -- the end and the count ---------------------------------------------------------------

def test_end_when_the_mover_has_no_turn_and_the_apex_decides():
    # a finished game: Black cannot place two balls; White alone is on top
    done = GAME.parse_state("BBBB/RWRB/WRWR/WWRB|WRB/RWR/WRW|WW/RW|W 2")
    assert done.result is not None and done.result.winners == (0,)
    assert "apex" in done.result.reason
    assert GAME.winning_points(done) == 1 << 29


def test_ties_go_down_a_level_and_can_draw():
    out = GAME.judge(Position("W.../..../..../B...|.../.../...|../..|."), 0)
    assert out.is_draw
    out = GAME.judge(Position("WW../..../..../B...|.../.../...|../..|."), 1)
    assert out.winners == (0,) and "board" in out.reason
    out = GAME.judge(Position("WBBB/WWWW/RRRR/WWWW|W../.../BW.|../..|."), 1)
    assert out.winners == (0,) and "level 1" in out.reason


def test_random_games_end_with_a_stuck_mover():
    for seed in range(30):
        s = random_walk(GAME, seed, 40)
        assert s.result is not None
        assert not pairs(s.position, (WHITE, BLACK)[s.to_move], s.hot)


# -- bad input and text --------------------------------------------------------------------

def test_bad_input_refused_without_change():
    m = GAME.new_match()
    before = m.state
    for text in ("Wg7", "Bc1", "Wb2", "Rz9", "pass", "xa1"):
        with pytest.raises((IllegalMoveError, NotationError)):
            m.push(text)
    assert m.state == before


def test_bad_states_refused():
    for text in ("...B/..../..../....|.../.../...|../..|. 1",        # a corner ball gone
                 "...B/..../..../W...|.../.../...|../..|. 1 hot=g7",  # hot not red
                 "...B/..../..../W...|.../.../...|../..|. 1 fire=a1",
                 "...B/..../..../W...|.../.../...|B../..|. 1"):
        with pytest.raises(NotationError):
            GAME.parse_state(text)


def test_state_text_round_trip_mid_turn():
    s = play(GAME.initial_state(), "Wa3", "Rc3", "Be7")
    text = GAME.state_text(s)
    assert "hot=c3.0" in text and "first=e7" in text
    assert GAME.state_key(GAME.parse_state(text)) == GAME.state_key(s)


# -- perft, cross-checked ------------------------------------------------------------------

GOLDEN = {1: 10, 2: 16, 3: 160, 4: 256}
#: perft 3 after some random actions: (seed, actions): count, cross-checked by ref_perft.
GOLDEN_WALKS = {(1, 10): 20, (3, 10): 48, (5, 10): 52, (0, 17): 4, (1, 17): 6, (7, 17): 12}


def test_perft_golden_and_reference():
    board = cells_of(START)
    for depth in (1, 2, 3, 4):
        assert perft(GAME, depth) == GOLDEN[depth] == ref_perft(board, 0, 0, None, depth)


@pytest.mark.slow
def test_perft_depth_six_reference():
    assert perft(GAME, 6) == ref_perft(cells_of(START), 0, 0, None, 6)


def _cell(p):
    """The engine-free name of an engine point (through a position's text only)."""
    return next(iter(cells_of(Position.from_masks(red=1 << p))))


@pytest.mark.parametrize("seed,steps", sorted(GOLDEN_WALKS))
def test_perft_from_random_positions(seed, steps):
    state = random_walk(GAME, seed, steps)
    hot = _cell(state.hot.bit_length() - 1) if state.hot else None
    first = _cell(state.first) if state.first >= 0 else None
    assert perft(GAME, 3, state) == GOLDEN_WALKS[seed, steps] == \
        ref_perft(cells_of(state.position), state.to_move, hot, first, 3)
