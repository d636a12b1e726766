"""Spectacular Tumble pinned down: the designed start, removals that keep the board
full, one or two balls a turn, scoring next to the black balls."""
import random

import pytest

from conformance import (check_playouts, check_random_games, check_symmetries,
                         random_walk)
from reference import ABOVE, cells_of
from shibumi import IllegalMoveError, NotationError, load
from shibumi.analysis import perft
from shibumi.game import Game
from shibumi.games.spectacular_tumble import START
from shibumi.geometry import SYMMETRIES
from shibumi.players import MCTSPlayer
from shibumi.position import Position

GAME = load("spectacular tumble")
BEGIN = GAME.initial_state()


def names(moves):
    return sorted(m.text() for m in moves)


def play(st, *moves):
    match = GAME.new_match(state=st)
    for move in moves:
        match.push(move)
    return match


def test_the_designed_start():
    pos = BEGIN.position
    assert (pos.count(1), pos.count(2), pos.count(3)) == (14, 2, 14)
    assert pos.colour_at(29) == pos.colour_at(20) == 2        # apex and d4.1 are black
    turned = pos.transform(SYMMETRIES[2])                       # a half turn swaps colours
    assert turned.white == pos.red and turned.red == pos.white
    assert GAME.current_player(BEGIN) == 0 and GAME.player_name(0) == "Red"


def test_red_opens_with_a_red_ball_or_a_white_one_followed_by_red():
    legal = GAME.legal_moves(BEGIN)
    assert len(legal) == 12
    reds = {m.text() for m in legal if BEGIN.position.colour_at(m.point) == 3}
    assert reds == {"xa1", "xg1", "xb2", "xb6", "xc5.2", "xe5.2"}
    # Taking the red c5.2 lets the black apex tumble into its place.
    after = play(BEGIN, "xc5.2").state
    assert after.position.colour_at(27) == 2 and not after.position.occupied >> 29 & 1
    assert "pass" in names(GAME.legal_moves(after))


BOARD = "RWRW/WRWR/RWBR/WRWB|R../.../W..|../..|."


def test_a_board_ball_goes_only_when_a_ball_drops_into_its_hole():
    st = GAME.parse_state(f"{BOARD} 1")
    legal = names(GAME.legal_moves(st))
    # a7 (red) holds up b6 alone: it may go, b6 drops into a7.
    assert "xa7" in legal and "xb6" in legal
    assert "xg1" not in legal                          # black: never taken
    assert "xg3" not in legal and "xe7" not in legal   # nothing would fill the hole
    after = play(st, "xa7").state
    assert after.position.colour_at(12) == 3 and after.position.count() == 17


def test_two_balls_at_least_one_own():
    st = GAME.parse_state(f"{BOARD} 1")
    match = play(st, "xb6")                     # own colour first: may stop or go on
    assert "pass" in names(match.legal_moves())
    match = play(st, "xb2")                     # White first: the second must be red
    assert names(match.legal_moves()) == ["xa7", "xb6", "xc5.0"]
    match.push("xb6")                           # 16 balls left: the game is over
    assert match.outcome() is not None


def test_the_end_and_the_score():
    st = GAME.parse_state("RWRW/WRWR/RWBR/WRWB|.../.../W..|../..|. 2")
    end = play(st, "xb2").state
    assert end.position.count() == 16
    # Black at e3 and g1: red c1 g3 c5 g5 and white e1 c3 e5 are next to one.
    assert GAME.scores(end.position) == (4, 3) and end.result.winners == (0,)
    assert GAME.winning_points(end) == sum(1 << p for p in (1, 7, 9, 11))


def test_an_example_final_score_white_3_red_6():
    # The text's lost figure scored White 3, Red 6; a board of ours with that score.
    pos = Position("WWWR/RWWW/RRBR/BRRR|.../.../...|../..|.")
    assert GAME.scores(pos) == (6, 3)


STUCK = "RRRR/RRRR/WWRR/WWBB|.../.../W..|../..|."


def test_a_player_who_cannot_move_passes():
    # Only white balls may go, and none lets a red ball follow: Red passes.
    st = GAME.parse_state(f"{STUCK} 1")
    assert names(GAME.legal_moves(st)) == ["pass"]
    after = play(st, "pass").state
    assert after.stuck and after.result is None and after.to_move == 1
    assert play(after, "xb2").state.result.is_draw         # 2-2: c1 c3 e3 g3


def test_two_passes_in_turn_end_the_game():
    st = GAME.parse_state(f"{STUCK} 1 stuck")
    end = play(st, "pass").state
    assert end.result is not None and "neither" in end.result.reason


def test_bad_input_is_refused_without_change():
    match = GAME.new_match()
    for bad in ("xd4.3", "xc3.0", "pass", "Rd4", "xe1"):
        with pytest.raises((IllegalMoveError, NotationError)):
            match.push(bad)
    assert match.state == BEGIN
    for text in ("RRRR/RRRR/RRRR/RRRR|.../.../...|../..|. 1",
                 "RRRR/RRRR/RRRR/RRR.|.../.../...|../..|. 1",
                 START.text() + " 1 first=B"):
        with pytest.raises(NotationError):
            GAME.parse_state(text)


# -- an independent model ---------------------------------------------------------
# Cells (level, x, y) -> 'W', 'B', 'R'; a ball may go when it is not black, has at
# most one ball on it, and, on the board, exactly one.


def takeable(board):
    out = []
    for cell, colour in board.items():
        on = sum(q in board for q in ABOVE[cell])
        if colour != "B" and on <= 1 and (on == 1 or cell[0] > 0):
            out.append(cell)
    return out


def take(board, cell):
    board = dict(board)
    del board[cell]
    gap = cell
    while True:
        up = [q for q in ABOVE[gap] if q in board]
        if not up:
            return board
        board[gap] = board.pop(up[0])
        gap = up[0]


def ref_perft(board, mover, first, stuck, depth):
    """Leaves of the action tree; first: colour taken first this turn, or None."""
    if depth == 0:
        return 1
    own = "RW"[mover]
    if first is None:
        opts = [c for c in takeable(board) if board[c] == own
                or any(take(board, c)[d] == own for d in takeable(take(board, c)))]
        if not opts:
            return 0 if stuck else ref_perft(board, 1 - mover, None, True, depth - 1)
    elif first == own:
        opts = takeable(board)
    else:
        opts = [c for c in takeable(board) if board[c] == own]
    total = ref_perft(board, 1 - mover, None, False, depth - 1) if first == own else 0
    for c in opts:
        after = take(board, c)
        if len(after) == 16:
            total += depth == 1
        elif first is None:
            total += ref_perft(after, mover, board[c], False, depth - 1)
        else:
            total += ref_perft(after, 1 - mover, None, False, depth - 1)
    return total


def test_perft_from_the_start():
    counts = [perft(GAME, d) for d in range(1, 5)]
    assert counts == GOLDEN
    board = cells_of(START)
    assert [ref_perft(board, 0, None, False, d) for d in range(1, 5)] == counts


GOLDEN = [12, 108, 1290, 13030]


@pytest.mark.parametrize("seed,steps", [(1, 5), (2, 9), (3, 14), (4, 20)])
def test_perft_agrees_with_the_model_along_random_games(seed, steps):
    st = random_walk(GAME, seed, steps)
    if st.result is not None or st.first:
        st = random_walk(GAME, seed, steps - 1)
    if st.result is not None or st.first:
        return
    assert [perft(GAME, d, st) for d in range(1, 4)] == \
        [ref_perft(cells_of(st.position), st.to_move, None, st.stuck, d) for d in range(1, 4)]


def shares(results):
    return [results.count(w) / len(results) for w in ((0,), (1,), ())]


def test_the_start_is_fair_under_random_play():
    rng = random.Random(7)
    results = [GAME.random_playout(BEGIN, rng).result.winners for _ in range(600)]
    red, white, draw = shares(results)
    assert 0.3 < red < 0.55 and 0.3 < white < 0.55 and draw < 0.25


@pytest.mark.slow
def test_the_start_is_fair_under_search():
    results = []
    for i in range(30):
        st = BEGIN
        players = [MCTSPlayer(iterations=100, seed=i), MCTSPlayer(iterations=100, seed=i + 100)]
        while not GAME.is_terminal(st):
            st = GAME.apply(st, players[st.to_move].choose(GAME, st, st.to_move))
        results.append(st.result.winners)
    red, white, draw = shares(results)
    assert red > 0.25 and white > 0.25


def test_conformance():
    check_random_games("spectacular tumble", seeds=range(15))
    for seed in range(4):
        check_symmetries(GAME, random_walk(GAME, seed, 6), indices=[0, 2])


def test_the_memos_agree_with_working_it_out():
    # openings and _held_up remember their answers; each must equal a fresh count
    # on the positions of random games (the memo is filled on the first ask).
    from shibumi.games import spectacular_tumble as tumble
    from shibumi.position import RED, WHITE
    for seed in range(40):
        st = random_walk(GAME, seed, seed % 14 + 1)
        pos = st.position
        masks = [0, pos.white, pos.black, pos.red]
        for colour in (RED, WHITE):
            assert tumble.openings(masks, colour) == tumble._openings(masks, colour)
            assert tumble.openings(masks, colour) == tumble._openings(masks, colour)
        upper = pos.occupied & tumble._UPPER_MASK
        assert tumble._held_up(pos.occupied) == tumble._count_held(upper)


def test_fast_playouts_play_the_rules_games():
    check_playouts("spectacular tumble", games=300)
    # The rare forced passes: from a stuck Red, with and without a pass before.
    for text in (f"{STUCK} 1", f"{STUCK} 1 stuck", f"{BOARD} 1", f"{BOARD} 2 first=W"):
        st = GAME.parse_state(text)
        for seed in range(20):
            fast = GAME.random_playout(st, random.Random(seed))
            assert fast == Game.random_playout(GAME, st, random.Random(seed))
