"""Sparro pinned down: red core, opening rule, lines of three, end and tie-breaks."""
import math
import random

import pytest
from hypothesis import given, strategies as st

import shibumi.games.sparro as sparro
from conformance import check_playouts
from shibumi import IllegalMoveError, NotationError, load
from shibumi.analysis import perft
from shibumi.geometry import INTERIOR_MASK
from shibumi.position import Position
from reference import ALL as CELLS, playable as _playable

GAME = load("sparro")
START = GAME.initial_state()

#: A finished game scoring 7 for White and 3 for Black, as the book's lost
#: figure did. White: g1-g3-g5-g7 (a column of four: two lines), f2-f4-f6, and
#: four lines climbing to level 2 (g1-f2-e3, g3-f4-e5, g5-f4-e3, g7-f6-e5).
#: Black: a1-c1-e1, a7-c7-e7, e7-d6-c5.
SEVEN_THREE = "BBBW/BRRW/WRRW/BBBW|WBW/BRW/BBW|BW/WW|. 1 token 2"


def play(text, *moves):
    match = GAME.new_match(state=GAME.parse_state(text))
    for move in moves:
        match.push(move)
    return match


def names(moves):
    return sorted(m.text() for m in moves)


def test_start_has_a_red_core_and_twelve_balls_each():
    pos = START.position
    assert pos.red == INTERIOR_MASK and pos.count() == 5
    assert GAME.state_text(START).endswith(" 1 token 2")     # Black holds the token
    assert names(GAME.legal_moves(START)) == [               # the 12 edge holes
        "Wa1", "Wa3", "Wa5", "Wa7", "Wc1", "Wc7", "We1", "We7", "Wg1", "Wg3", "Wg5", "Wg7"]


def test_opening_corner_then_non_corner():
    match = GAME.new_match()
    match.push("a1")
    replies = names(match.legal_moves())
    assert replies == ["Ba3", "Ba5", "Bc1", "Bc7", "Be1", "Be7", "Bg3", "Bg5"]
    with pytest.raises(IllegalMoveError):
        match.push("g7")


def test_opening_non_corner_then_corner():
    match = GAME.new_match()
    match.push("c1")
    assert names(match.legal_moves()) == ["Ba1", "Ba7", "Bg1", "Bg7"]
    with pytest.raises(IllegalMoveError):
        match.push("e1")
    match.push("g7")
    assert len(match.legal_moves()) == 10                    # the rule is over


def test_the_24_scoring_lines():
    assert len(sparro.SCORING_LINES) == 24
    assert {"a1-c1-e1", "b2-d2-f2", "a1-b2-c3.2"} <= set(sparro.SCORING_LINES)


def test_flat_diagonals_count_but_always_cross_the_red_core():
    from shibumi.geometry import COORDS, LEVEL
    flat_diagonals = [m for m in sparro.LINES3
                      if len({LEVEL[p] for p in range(30) if m >> p & 1}) == 1
                      and len({COORDS[p][1] for p in range(30) if m >> p & 1}) == 3
                      and len({COORDS[p][2] for p in range(30) if m >> p & 1}) == 3]
    assert len(flat_diagonals) == 10                   # 8 on the board, 2 on level 1
    assert all(m & INTERIOR_MASK for m in flat_diagonals)
    # Counted as lines (a1, c3 and e5 on the board), yet never one player's colour.
    assert sparro.count_lines(Position("..../..W./.W../W...|.../.../...|../..|.").white) == 1


def test_book_score_seven_to_three():
    state = GAME.parse_state(SEVEN_THREE)
    assert state.result.scores == (7.0, 3.0) and state.result.winners == (0,)


def _score(text):
    pos = Position(text)
    return sparro.count_lines(pos.white), sparro.count_lines(pos.black)


def test_what_counts_as_a_line():
    core = "|.../.R./...|../..|."
    # A row of four on the board is two lines of three.
    assert _score("..../.RR./.RR./WWWW" + core) == (2, 0)
    # Climbing a face: a1, b2 and c3 on level 2.
    assert _score("..../BRR./BRRB/WBW.|.../BR./WB.|../W.|.") == (1, 0)
    # A zigzag that only looks straight from above (c1 up to b2, down to a3)
    # is not a line.
    assert _score("..../.RR./WRRB/BWB.|.../.R./W..|../..|.") == (0, 0)


def test_game_ends_after_24_balls_with_29_in_play():
    rng = random.Random(3)
    match = GAME.new_match()
    for _ in range(24):
        assert not match.is_over()
        match.push(rng.choice(match.legal_moves()))
    assert match.is_over() and match.state.position.count() == 29
    assert not match.state.position.occupied >> 29 & 1      # the apex stays empty
    assert GAME.length(match.state) == 24


def test_tie_goes_to_the_last_player_to_make_a_line():
    # Black's last ball (c5.2) makes Black's third line: 3-3, and Black made
    # the last line, so Black wins; the token has moved to Black.
    before = "WBBB/BRRW/BRRW/WBBW|WBW/BRB/WBW|.W/WW|. 2 token 1"
    match = play(before, "c5")
    assert match.outcome().scores == (3.0, 3.0)
    assert match.outcome().winners == (1,) and match.state.token == 1


def test_tie_when_the_last_ball_makes_no_line_goes_to_the_token_holder():
    before = "BWBW/WRRW/WRRB/WBBW|BWB/BRB/BWW|BW/W.|. 2 token 1"
    match = play(before, "e3")
    assert match.outcome().scores == (2.0, 2.0)
    assert match.outcome().winners == (0,)                   # White made the last line


def test_no_lines_at_all_black_wins():
    before = "WBWB/BRRW/WRRB/WBBW|WWB/WRW/BWB|.W/BB|. 2 token 2"
    match = play(before, "c5")
    assert match.outcome().scores == (0.0, 0.0) and match.outcome().winners == (1,)


def test_token_follows_the_last_line_maker():
    rng = random.Random(5)
    for _ in range(30):
        match, last_maker = GAME.new_match(), 1
        while not match.is_over():
            mover = match.current_player
            before = sparro.count_lines(match.state.position.mask(mover + 1))
            match.push(rng.choice(match.legal_moves()))
            if sparro.count_lines(match.state.position.mask(mover + 1)) > before:
                last_maker = mover
            assert match.state.token == last_maker


def test_bad_state_text_is_refused():
    with pytest.raises(NotationError):
        GAME.parse_state("..../.RR./.RR./....|.../.R./...|../..|. 1")      # no token
    with pytest.raises(NotationError):
        GAME.parse_state("..../..../..../....|.../.../...|../..|. 1 token 2")  # no core
    with pytest.raises(NotationError):
        GAME.parse_state("..../.RR./.RR./W...|.../.R./...|../..|. 1 token 2")  # turn


# -- an independent count of lines, from 3D ball centres ------------------------

H = 1 / math.sqrt(2)


def _centre(p):
    from shibumi.geometry import COORDS
    lv, x, y = COORDS[p]
    return (x + lv / 2, y + lv / 2, lv * H)


def _independent_lines():
    """Triples of points equally spaced on a straight line, one ball-width
    apart (touching) or one flat diagonal apart (sqrt 2)."""
    centres = {p: _centre(p) for p in range(30)}
    where = {tuple(round(c, 6) for c in v): p for p, v in centres.items()}
    lines = set()
    for a in range(30):
        for c in range(30):
            if a < c:
                mid = tuple(round((u + v) / 2, 6) for u, v in zip(centres[a], centres[c]))
                b = where.get(mid)
                if b is not None and round(math.dist(centres[a], centres[b]) ** 2, 6) in (1, 2):
                    lines.add((1 << a) | (1 << b) | (1 << c))
    return lines


def test_independent_line_set_agrees():
    assert _independent_lines() == set(sparro.LINES3)


@given(st.integers(0, 2 ** 32))
def test_final_scores_agree_with_an_independent_count(seed):
    rng = random.Random(seed)
    state = START
    while state.result is None:
        state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
    lines = _independent_lines()
    pos = state.position
    expect = tuple(float(sum(1 for m in lines if mine & m == m)) for mine in (pos.white, pos.black))
    assert state.result.scores == expect


# -- perft ------------------------------------------------------------------------
# Hand counts: 12 edge holes; 4 corners x 8 non-corner replies + 8 x 4 = 64;
# 64 x 10 = 640 (no platform can fill with two balls under the opening rule);
# 640 x 9 + 80 = 5840, the 80 being the orders that fill a platform with the
# third ball: 4 edge-middle points of level 1 (d2 needs c1 and e1) x 16
# orders, and 4 corner points (b2 needs a1, c1, a3) x 4 orders.
# brute_perft below is written separately from the rules (cells as
# (level, x, y) in a dict, no memo).

CORNER_CELLS = {(0, 0, 0), (0, 3, 0), (0, 0, 3), (0, 3, 3)}


def _start_board():
    core = {(0, 1, 1), (0, 2, 1), (0, 1, 2), (0, 2, 2), (1, 1, 1)}
    return {c: "R" for c in core}


def brute_perft(board, depth, first=None):
    if depth == 0:
        return 1
    placed = len(board) - 5
    total = 0
    for cell in CELLS:
        if not _playable(board, cell):
            continue
        if placed == 1 and (cell in CORNER_CELLS) == (first in CORNER_CELLS):
            continue
        board[cell] = "WB"[placed % 2]
        total += brute_perft(board, depth - 1, cell if placed == 0 else first)
        del board[cell]
    return total


def test_perft_from_the_start():
    counts = [perft(GAME, d) for d in range(1, 6)]
    assert counts == [12, 64, 640, 5840, 48816]
    assert [brute_perft(_start_board(), d) for d in range(1, 5)] == counts[:4]


def test_perft_to_the_end():
    # Three balls before the end: every leaf is a finished game.
    rng = random.Random(8)
    state = START
    while GAME.length(state) < 21:
        state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
    assert perft(GAME, 3, state) > 0 and perft(GAME, 4, state) == 0


def test_conformance():
    check_playouts("sparro", games=600)
