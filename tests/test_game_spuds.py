"""Spuds pinned down: two steps a turn, removals under a lone red ball, the barred point."""
import random

import pytest

import shibumi.games.spuds  # noqa: F401  (registers the game)
from conformance import (check_playouts, check_symmetries,
                         random_walk)
from shibumi import IllegalMoveError, NotationError, load
from shibumi.analysis import perft
from shibumi.games.spuds import removable, removable_of
from shibumi.geometry import SUPPORTED_MASK, points_of
from shibumi.geometry import SYMMETRIES
from shibumi.notation import parse_point
from shibumi.position import BLACK, RED, WHITE, Position
from reference import ABOVE, ALL, cells_of, open_points

GAME = load("spuds")
START = "BWBW/WBWB/BWBW/WBWB|.../.../...|../..|."
#: A random game Black wins, 3 balls to 2.
BLACK_WINS = "Rf4 xe3.0 Rd4.1 xc3.0 Rb4 xc5.0 Rd2 xe1 Rb2 xc1 Rd2"
#: A random game that ends at 2 balls each: White wins the tie.
TIE = "Rd6 xc5.0 Rd4.1 xe5.0 Rd2 xe3.0 Rb4 xc3.0 Rd4.1"
#: A random game of the longest length: all 16 balls removed, all 16 reds used.
LONGEST = ("Rd6 xe7 Rd2 xe1 Rd6 xc5.0 Rb2 xa1 Rd4.1 xe3.0 Rf4 xg3 Rb2 xa3 Rb4 xa5 Rf4 xg5 "
           "Rf6 xe5.0 Rd6 Rf2 xc7 Rf6 xg1 Rb2 xg7 Rb4 xc1 Rb6 xc3.0 xa7")


def state(text, to_move=1, extras=""):
    return GAME.parse_state(f"{text} {to_move} {extras}".strip())


def play(moves, start=None):
    match = GAME.new_match(state=start)
    for move in moves.split():
        match.push(move)
    return match


def names(moves):
    return sorted(m.text() for m in moves)


def test_conformance():
    for seed in range(8):
        check_symmetries(GAME, random_walk(GAME, seed, 3 + 3 * seed))


def test_the_fast_playout_plays_the_rules_games():
    check_playouts("spuds", games=400)


def plain_removable(position, colour):
    """The rule as written: exactly one ball rests on it, and that one is red."""
    out = 0
    for p in points_of(position.mask(colour)):
        above = SUPPORTED_MASK[p] & position.occupied
        if above.bit_count() == 1 and above & position.red:
            out |= 1 << p
    return out


def test_the_mask_removal_rule_matches_the_plain_one_on_any_position():
    rng = random.Random(5)
    for _ in range(3000):
        position = Position.empty()
        for _ in range(rng.randrange(31)):      # any stable position, any colours
            spots = list(points_of(position.playable()))
            position = position.place(rng.choice(spots), rng.choice((WHITE, BLACK, RED)))
        for colour in (WHITE, BLACK, RED):
            assert removable_of(position.mask(colour), position.occupied, position.red) \
                == plain_removable(position, colour), position.text()


def test_start_is_a_checkerboard_and_white_can_only_place_a_red_ball():
    start = GAME.initial_state()
    assert start.position == Position(START)
    assert start.position.colour_at(parse_point("a1")) == WHITE
    assert names(GAME.legal_moves(start)) == sorted(
        f"R{sq}" for sq in "b2 d2 f2 b4 d4.1 f4 b6 d6 f6".split())
    assert GAME.status_lines(start) == ["Balls removed: White 0, Black 0 (White wins a tie).",
                                        "Red balls left: 16."]


def test_only_four_turns_of_the_square_keep_the_rules():
    assert GAME.symmetries == (0, 2, 6, 7)
    start = Position(START)
    for index, perm in enumerate(SYMMETRIES):
        assert (start.transform(perm) == start) == (index in GAME.symmetries)


def test_a_removal_drops_the_red_ball_and_bars_its_point():
    match = play("d4.1")
    # d4 rests on c3 and e5 (white) and c5 and e3 (black): Black removes one.
    assert names(match.legal_moves()) == ["xc5.0", "xe3.0"]
    match.push("xe3.0")
    pos = match.state.position
    assert pos.colour_at(parse_point("e3.0")) == RED and pos.count(BLACK) == 7
    assert match.current_player == 1 and match.state.barred == parse_point("d4.1")
    legal = names(match.legal_moves())
    assert "Rd4.1" not in legal and len(legal) == 8
    assert GAME.status_lines(match.state)[-1] == \
        "Black now places a red ball, not on d4.1, where the red ball was."
    assert GAME.state_text(match.state).endswith(" 2 barred=d4.1")
    match.push("b2")
    assert match.current_player == 0 and match.state.barred is None


def test_the_removal_is_compulsory():
    match = play("d4.1")
    with pytest.raises(IllegalMoveError):
        match.push("b2")                       # Black must remove first


def test_a_pinned_ball_and_a_ball_holding_up_nothing_stay():
    # Reds on b4 and d4 both rest on c3 (white) and c5 (black): those two are
    # pinned. The board balls with nothing on them cannot go either.
    st = state("BWBW/WBWB/BWBW/WBWB|.../RR./...|../..|.", 2)
    assert removable(st.position, WHITE) == (1 << parse_point("a5")) | (1 << parse_point("e5.0"))
    assert removable(st.position, BLACK) == (1 << parse_point("a3")) | (1 << parse_point("e3.0"))
    assert names(GAME.legal_moves(st)) == ["xa3", "xe3.0"]


def test_a_removal_can_drop_a_whole_column():
    # c3.2 rests on b2 d2 b4 d4; b2 rests on a1, which holds up b2 alone.
    text = "BWBW/WBWB/BWBW/WBWB|.../RR./RR.|../R.|."
    st = state(text, 1)
    assert "xa1" in names(GAME.legal_moves(st))
    match = play("xa1", st)
    pos = match.state.position
    assert pos.colour_at(parse_point("a1")) == RED and pos.colour_at(parse_point("b2")) == RED
    assert pos.colour_at(parse_point("c3.2")) == 0
    assert match.state.barred == parse_point("c3.2")
    assert "Rc3.2" not in names(match.legal_moves())


def test_black_can_win_and_a_tie_goes_to_white():
    match = play(BLACK_WINS)
    assert match.outcome().winners == (1,) and match.outcome().scores == (2.0, 3.0)
    assert match.outcome().reason == "Black removed 3 balls to 2"
    tie = play(TIE)
    assert tie.outcome().winners == (0,) and tie.outcome().scores == (2.0, 2.0)
    assert tie.outcome().reason == "White wins the tie at 2 balls each"


def test_the_game_ends_when_neither_player_can_remove():
    match = play(BLACK_WINS)
    pos = match.state.position
    assert not removable(pos, WHITE) and not removable(pos, BLACK)
    assert GAME.legal_moves(match.state) == []
    # One move earlier Black could still remove (and did): not over then.
    before = play(" ".join(BLACK_WINS.split()[:-2]))
    assert before.outcome() is None and removable(before.state.position, BLACK)


def test_a_player_who_cannot_remove_places_while_the_other_still_could():
    # White has no ball under a lone red ball, Black has: White just places.
    st = state("BWBW/WBWB/BWBR/WBRB|.../.../..R|../..|.", 1)
    assert not removable(st.position, WHITE) and removable(st.position, BLACK)
    assert st.result is None
    assert all(m.kind == "place" for m in GAME.legal_moves(st))


def test_a_turn_with_nothing_to_do_is_skipped():
    # Black places the 16th red ball. White has no ball under a lone red ball
    # and no red ball to place, so Black, who can still remove, plays again.
    match = play("Rb2 xc1 Rf2 xg3 Rb4 xc5.0 Rf4 xe5.0 Rb2 xa3 Rd6 xc7 Rf4 xg5 Rd4.1 xc3.0 "
                 "Rb2 Rb6 xa5 Rb4 Rf4 xa1 Rd6 xe3.0 Rb6 Rd2 xa7")
    assert match.current_player == 1 and match.state.barred is not None
    match.push("f2")
    pos = match.state.position
    assert pos.count(RED) == 16 and not removable(pos, WHITE) and removable(pos, BLACK)
    assert match.current_player == 1 and match.outcome() is None
    assert all(m.kind == "remove" for m in match.legal_moves())
    with pytest.raises(NotationError):       # White to move here is not a state of the game
        GAME.parse_state(GAME.state_text(match.state)[:-1] + "1")


def test_without_red_balls_turns_are_removals_only():
    match = GAME.new_match(record=LONGEST)
    reds = 0
    for move, before in match.history:
        reds = before.position.count(RED)
        if reds == 16:
            assert move.kind == "remove"
    assert match.state.position.count(RED) == 16


def test_the_longest_game_lasts_thirty_two_actions():
    match = GAME.new_match(record=LONGEST)
    assert match.is_over() and GAME.length(match.state) == 32 == GAME.info.max_length
    assert match.outcome().scores == (8.0, 8.0) and match.outcome().winners == (0,)
    assert match.state.position == Position("RRRR/RRRR/RRRR/RRRR|.../.../...|../..|.")


def test_bad_input_is_refused_and_changes_nothing():
    match = play("d4.1")
    before = match.state
    for text in ("xc3.0", "xd4.1", "Wb2", "b2", "pass", "b2>d4", "qq"):
        with pytest.raises((IllegalMoveError, NotationError)):
            match.push(text)
        assert match.state == before
    with pytest.raises(NotationError):           # the board is never short of a ball
        GAME.parse_state("BWBW/WBWB/BWBW/WBW.|.../.../...|../..|. 1")
    with pytest.raises(NotationError):           # white above the board
        GAME.parse_state("BWBW/WBWB/BWBW/WBWB|.../.W./...|../..|. 1")
    with pytest.raises(NotationError):           # a barred point that is taken
        GAME.parse_state("BWBW/WBWB/BWBW/WBWB|.../.R./...|../..|. 2 barred=d4.1")
    with pytest.raises(NotationError):
        GAME.parse_state(f"{START} 1 barred=zz")


def test_state_text_round_trips_between_the_two_steps():
    match = play("d4.1 xe3.0")
    text = GAME.state_text(match.state)
    again = GAME.parse_state(text)
    assert GAME.state_key(again) == GAME.state_key(match.state)


# -- an independent model ------------------------------------------------------
# Written from the rules alone on the dict-of-cells pyramid: cells (level, x,
# y), removals walk the column up from the hole, a turn is (step, barred).

REDS = 16


def resting(board, cell):
    return [c for c in ABOVE[cell] if c in board]


def can_remove(board, colour):
    return [c for c in ALL if board.get(c) == colour and len(resting(board, c)) == 1
            and board[resting(board, c)[0]] == "R"]


def red_spots(board, barred):
    if sum(v == "R" for v in board.values()) >= REDS:
        return []
    return [c for c in open_points(board) if c[0] >= 1 and c != barred]


def turn_options(board, player):
    mine = can_remove(board, "WB"[player])
    return [("x", c) for c in mine] if mine else [("R", c) for c in red_spots(board, None)]


def ref_next(board, player):
    """(board, to_move, barred, over) at the start of the next turn."""
    if not can_remove(board, "W") and not can_remove(board, "B"):
        return board, player, None, True
    following = 1 - player
    if not turn_options(board, following):
        following = player
    return board, following, None, False


def ref_moves(board, player, barred):
    if barred is not None:
        return [("R", c) for c in red_spots(board, barred)]
    return turn_options(board, player)


def ref_apply(board, player, move):
    board = dict(board)
    kind, cell = move
    if kind == "R":
        board[cell] = "R"
        return ref_next(board, player)
    del board[cell]
    gap = cell
    while resting(board, gap):
        top = resting(board, gap)[0]
        board[gap] = board.pop(top)
        gap = top
    if red_spots(board, gap):
        return board, player, gap, False
    return ref_next(board, player)


def ref_perft(board, player, barred, depth):
    if depth == 0:
        return 1
    moves = ref_moves(board, player, barred)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board2, player2, barred2, over = ref_apply(board, player, move)
        if not over:
            total += ref_perft(board2, player2, barred2, depth - 1)
    return total


def _cell(point):
    """The model's cell for an engine point (read through the position text)."""
    return next(iter(cells_of(Position.from_masks(red=1 << point))))


def _model(st):
    barred = None if st.barred is None else _cell(st.barred)
    return cells_of(st.position), st.to_move, barred


#: perft from the start, depths 1-6 (two actions a turn once removals begin).
PERFT_START = [9, 18, 144, 288, 2304, 3872]
#: perft to depth 5 from states along random games (seed, steps); three of
#: them lie between the two steps of a turn.
PERFT_MIDDLE = {
    (1, 3): [2, 16, 30, 240, 397],
    (2, 6): [8, 14, 112, 150, 1200],
    (3, 9): [1, 8, 13, 104, 306],
    (4, 12): [8, 17, 87, 299, 1058],
    (5, 15): [1, 8, 22, 72, 293],
    (6, 11): [2, 16, 42, 210, 583],
    (7, 14): [8, 7, 56, 124, 438],
    (9, 20): [2, 14, 17, 79, 160],
}


def test_perft_from_the_start_matches_the_model():
    assert [perft(GAME, d) for d in range(1, 7)] == PERFT_START
    board = cells_of(Position(START))
    assert [ref_perft(board, 0, None, d) for d in range(1, 7)] == PERFT_START


@pytest.mark.parametrize("seed,steps", sorted(PERFT_MIDDLE))
def test_perft_in_mid_game_matches_the_model(seed, steps):
    st = random_walk(GAME, seed, steps)
    expected = PERFT_MIDDLE[seed, steps]
    assert [perft(GAME, d, st) for d in (1, 2, 3, 4, 5)] == expected
    assert [ref_perft(*_model(st), d) for d in (1, 2, 3, 4, 5)] == expected


def test_random_games_follow_the_model():
    for seed in range(60):
        rng = random.Random(seed)
        st = GAME.initial_state()
        board, player, barred = _model(st)
        while not GAME.is_terminal(st):
            legal = GAME.legal_moves(st)
            assert len(legal) == len(ref_moves(board, player, barred))
            move = rng.choice(legal)
            st = GAME.apply(st, move)
            kind = "R" if move.kind == "place" else "x"
            board, player, barred, over = ref_apply(board, player, (kind, _cell(move.point)))
            assert (board, player, barred) == _model(st)
            assert over == GAME.is_terminal(st)
