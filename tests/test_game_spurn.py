"""Spurn pinned down: own colours, no group of four, forced eliminations, the last one in."""
import random

import pytest

import shibumi.games.spurn  # noqa: F401  (registers the game)
from conformance import (check_random_games, check_symmetries,
                         random_walk)
from shibumi import IllegalMoveError, NotationError, load
from shibumi.analysis import perft
from shibumi.games.spurn import (LIMIT, ball_counts, big_groups, group_with, is_safe,
                                 largest, out_mask, safe_points, unsafe_mask)
from shibumi.geometry import ALL_MASK, points_of
from shibumi.interaction import Table
from shibumi.notation import parse_point
from shibumi.position import WHITE
from reference import ALL, cells_of, open_points, touch

GAME = load("spurn")

#: The annex's example, rebuilt (its figure is lost): six balls each, White to
#: move, and every one of the seven playable points touches White's three
#: balls c3, e3 and c5 in the middle of the board.
EXAMPLE = "RBBR/RWBW/RWWB/WBRR|..W/B../...|../..|. 1"
#: From the example: White goes out on d6, then Black is cornered on b2 and Red wins.
TO_THE_END = "Wd6 Bd2 Rd4.1 Bb2"
#: A whole game in which nobody is ever cornered: the pyramid fills, a draw.
NOBODY_OUT = ("Wa5 Be1 Rc7 Wc3.0 Bc5.0 Re7 We3.0 Ba3 Rc1 Wg7 Bg5 Rg3 We5.0 Bg1 Ra1 Wa7 "
              "Bf6 Rf4 Wb6 Bd4.1 Rd6 We5.2 Bf2 Rd2 We3.2 Bb2 Rb4 Wc3.2 Bc5.2 Rd4.3")
#: A random game (seed 32) in which Black goes out and the pyramid fills with
#: White and Red still in.
TWO_LEFT = ("We1 Bg7 Ra3 Wg1 Bg3 Re3.0 Wa7 Ba1 Rc1 Wa5 Be5.0 Rf2 Wg5 Bc3.0 Rf4 Wb2 Be7 "
            "Rc5.0 Wf6 Bd2 Rc7 Wb6 Bb4 Rd6 Wd4.1 Be5.2 Rc3.2 We3.2 Bc5.2 Rd4.3")
#: White's c3 and e3 touch, but d2 and d4 above pass over the contact: it is
#: hidden, and it still counts. White's g3 then made a group of three.
HIDDEN = "Wc3 Bc1 Re1 We3 Bc5 Re5 Wa7 Bd2 Rd4 Wg3 Bg7 Ra1"


def names(moves):
    return sorted(m.text() for m in moves)


def play(moves, start=None):
    match = GAME.new_match(state=GAME.parse_state(start) if start else None)
    for move in moves.split():
        match.push(move)
    return match


# -- conformance --------------------------------------------------------------------

def test_conformance():
    check_random_games("spurn", seeds=range(12))
    assert GAME.num_players == 3 and GAME.info.max_length == 30
    assert [GAME.player_name(p) for p in range(3)] == ["White", "Black", "Red"]


def test_the_counted_unsafe_points_are_those_that_grow_a_group_to_four():
    """unsafe_mask (bit-sliced counts, the fast path's) agrees with the plain
    flood fill of group_with at every empty point, for each colour along random games."""
    for seed in range(40):
        rng = random.Random(seed)
        s = GAME.initial_state()
        while not GAME.is_terminal(s):
            for colour in range(1, 4):
                mine = s.position.mask(colour)
                expected = sum(1 << p for p in points_of(ALL_MASK & ~s.position.occupied)
                               if group_with(mine, p).bit_count() >= LIMIT)
                assert unsafe_mask(mine) & ~s.position.occupied == expected
            s = GAME.apply(s, rng.choice(GAME.legal_moves(s)))


def test_symmetries():
    for seed in range(3):
        for steps in (0, 9, 17, 23, 27):
            check_symmetries(GAME, random_walk(GAME, seed, steps))
    check_symmetries(GAME, GAME.parse_state(EXAMPLE))


def test_every_legal_move_is_one_click():
    for seed in range(3):
        match = GAME.new_match()
        rng = random.Random(seed)
        while not match.is_over():
            for move in match.legal_moves():
                table = Table(GAME, seats="human", record=match.record())
                table.click(move.point)
                assert table.match.history[-1][0] == move
            match.push(rng.choice(match.legal_moves()))


# -- the rules ----------------------------------------------------------------------

def test_the_start_and_the_turn_order():
    match = GAME.new_match()
    assert match.state.position.count() == 0 and match.current_player == 0
    assert len(match.legal_moves()) == 16
    seen = [(match.current_player, match.push(m).colour) for m in ("a1", "c1", "e1", "g1")]
    assert seen == [(0, 1), (1, 2), (2, 3), (0, 1)]


def test_three_touching_balls_are_allowed_a_fourth_is_not():
    match = play("a1 g7 a7 c1 g5 c7 e1 e7 a5")          # White: a1 c1 e1, a chain of three
    assert largest(match.state.position, 0) == 3
    assert names(match.legal_moves()) == ["Wc5.0", "We5.0", "Wg3"]
    for bad in ("g1", "a3", "c3", "e3"):                  # each would touch the chain
        with pytest.raises(IllegalMoveError):
            match.push(bad)
    assert match.state.position.count() == 18 - 9       # nothing was played


def test_a_ball_may_not_join_two_groups_into_four():
    # White has the pair a1-c1 and a lone a5: a3 between them would join them into four.
    match = play("a1 g7 g1 c1 g5 e1 a5 e7 e5")
    position = match.state.position
    a3 = parse_point("a3")
    assert group_with(position.mask(WHITE), a3).bit_count() == 4
    assert not is_safe(position.mask(WHITE), a3)
    assert "Wa3" not in names(match.legal_moves())


def test_hidden_connections_count():
    match = play(HIDDEN)
    position = match.state.position
    c3, e3, g3 = (parse_point(s) for s in ("c3.0", "e3.0", "g3"))
    assert position.group(c3) == 1 << c3                  # the c3-e3 contact is hidden
    assert position.group(c3, visible_only=False) == 1 << c3 | 1 << e3 | 1 << g3
    # Seen from above g3's group is e3-g3 only, so g5 would look like three.
    # It makes four: White may not play it while a safe point remains.
    g5 = parse_point("g5")
    assert position.place(g5, WHITE).group(g5).bit_count() == 3
    assert not is_safe(position.mask(WHITE), g5)
    assert "Wg5" not in names(match.legal_moves()) and match.legal_moves()


def test_the_annex_example_white_is_out_whatever_he_plays():
    state = GAME.parse_state(EXAMPLE)
    position = state.position
    assert [position.count(c) for c in (1, 2, 3)] == [6, 6, 6] and state.to_move == 0
    assert state.result is None and state.out == 0
    assert safe_points(position, 0) == []
    # With no safe point every playable point is legal, and each puts White out.
    assert {m.point for m in GAME.legal_moves(state)} == set(points_of(position.playable()))
    assert len(GAME.legal_moves(state)) == 7
    for move in GAME.legal_moves(state):
        after = GAME.apply(state, move)
        assert after.out == 0b001 and after.result is None and after.to_move == 1
        assert largest(after.position, 0) >= LIMIT
    assert "White has no safe point" in " ".join(GAME.status_lines(state))


def test_after_one_is_out_the_other_two_alternate_until_a_second_goes():
    match = play(TO_THE_END, EXAMPLE)
    movers = [before.to_move for _, before in match.history]
    assert movers == [0, 1, 2, 1]                          # White never comes back
    cornered = match.history[3][1]                         # Black, before b2
    assert safe_points(cornered.position, 1) == [] and len(GAME.legal_moves(cornered)) == 4
    outcome = match.outcome()
    assert outcome.winners == (2,) and match.is_over()
    assert outcome.reason == ("White and Black made groups of four; "
                              "Red is the last player left")
    assert GAME.winning_points(match.state) == sum(big_groups(match.state.position, p)
                                                   for p in (0, 1))
    assert match.legal_moves() == []
    with pytest.raises(IllegalMoveError):
        match.push("f2")


def test_the_ball_that_puts_a_player_out_stays():
    match = play("Wd6", EXAMPLE)
    d6 = parse_point("d6")
    assert match.state.position.colour_at(d6) == WHITE
    assert out_mask(match.state.position) == 0b001
    assert "Out: White." in GAME.status_lines(match.state)


def test_a_full_pyramid_with_nobody_out_is_a_draw():
    match = play(NOBODY_OUT)
    assert match.state.position.count() == 30 and match.state.out == 0
    assert match.outcome().is_draw and match.outcome().reason == \
        "the pyramid is complete and nobody is out"
    assert all(largest(match.state.position, p) == 3 for p in range(3))
    assert GAME.winning_points(match.state) == 0


def test_a_full_pyramid_with_two_in_is_their_shared_win():
    match = play(TWO_LEFT)
    assert match.state.out == 0b010
    assert match.outcome().winners == (0, 2)
    assert match.outcome().returns(3) == (0.5, 0.0, 0.5)
    assert GAME.winning_points(match.state) == 0


def test_no_one_needs_more_than_thirteen_balls():
    # Every history the turn order allows, with either order of eliminations:
    # a set's sixteen balls of a colour are always enough.
    most = 0
    for first in range(3):
        for second in [None] + [p for p in range(3) if p != first]:
            order = (first,) if second is None else (first, second)
            for a in range(LIMIT, 16):
                for b in ([None] if second is None else range(LIMIT, 16)):
                    lasts = (a,) if b is None else (a, b)
                    for counts, _ in ball_counts(order, lasts):
                        most = max(most, *counts)
    assert most == 13
    assert max(max(counts) for counts, _ in ball_counts((), ())) == 10


# -- state text ---------------------------------------------------------------------

def test_state_text_round_trips_and_out_players_are_read_from_the_position():
    match = play("Wd6 Bd2", EXAMPLE)
    text = GAME.state_text(match.state)
    assert text == "RBBR/RWBW/RWWB/WBRR|.WW/B../.B.|../..|. 3"
    again = GAME.parse_state(text)
    assert again.out == 0b001 and GAME.state_key(again) == GAME.state_key(match.state)
    final = GAME.parse_state(GAME.state_text(play(TO_THE_END, EXAMPLE).state))
    assert final.result.winners == (2,)


@pytest.mark.parametrize("text, words", [
    ("W.../..../..../.... 1", "4 levels"),
    (EXAMPLE.replace(" 1", " 2"), "cannot be reached"),
    ("WW../..../..../....|.../.../...|../..|. 2", "cannot be reached"),
    (EXAMPLE + " out=1", "no extra fields"),
    # Two white groups of four: the first one would have ended White's game.
    ("WWWW/BRBR/..../WWWW|.../.../...|../..|. 2", "two groups"),
    ("WWWW/BBBB/RRRR/....|.../.../...|../..|. 1", "all three"),
    # White out with four balls, then Black and Red alternate: not with
    # Black holding five and Red three.
    ("WWWW/BBBB/RRR./B...|.../.../...|../..|. 2", "cannot be reached"),
])
def test_bad_state_text_is_refused(text, words):
    with pytest.raises(NotationError, match=words):
        GAME.parse_state(text)


def test_reachable_eliminations_are_accepted():
    # White out with his fourth ball (the tenth ball), Black and Red alternate.
    state = GAME.parse_state("WWWW/BBB./RRR./....|.../.../...|../..|. 2")
    assert state.out == 0b001 and state.result is None
    state = GAME.parse_state("WWWW/BBBB/RRR./....|.../.../...|../..|. 3")
    assert state.to_move == 2


def test_bad_moves_change_nothing():
    match = GAME.new_match()
    for bad in ("Ba1", "d4", "xa1", "pass", "a9"):
        with pytest.raises((IllegalMoveError, NotationError)):
            match.push(bad)
    assert match.state == GAME.initial_state() and not match.history


# -- perft, against a brute force written from the rules alone ------------------------
# Cells (level, x, y) in a dict; groups found by flood fill over `touch`;
# who is out worked out from the cells (a colour with four or more touching).

def _group(board, start, colour):
    seen, todo = {start}, [start]
    while todo:
        a = todo.pop()
        for b in ALL:
            if b not in seen and board.get(b) == colour and touch(a, b):
                seen.add(b)
                todo.append(b)
    return seen


def _out(board):
    return {i for i, c in enumerate("WBR")
            if any(len(_group(board, pt, c)) >= 4 for pt in board if board[pt] == c)}


def brute_perft(board, out, mover, depth):
    if depth == 0:
        return 1
    colour = "WBR"[mover]
    spots = open_points(board)
    sizes = {}
    for pt in spots:
        board[pt] = colour
        sizes[pt] = len(_group(board, pt, colour))
        del board[pt]
    safe = [pt for pt in spots if sizes[pt] < 4]
    total = 0
    for pt in safe or spots:
        gone = out | ({mover} if sizes[pt] >= 4 else set())
        left = [p for p in range(3) if p not in gone]
        board[pt] = colour
        if len(left) == 1 or len(board) == 30:
            total += depth == 1
        else:
            nxt = next(p for p in ((mover + k) % 3 for k in (1, 2, 3)) if p in left)
            total += brute_perft(board, gone, nxt, depth - 1)
        del board[pt]
    return total


def _brute_from(state, depth):
    board = cells_of(state.position)
    return brute_perft(board, _out(board), state.to_move, depth)


#: (seed, steps of a random walk, perft to depth 1-4), checked against brute_perft.
GOLDEN = [
    (1, 8, [8, 58, 388, 2368]),
    (5, 12, [9, 73, 532, 2920]),
    (4, 14, [8, 51, 261, 1160]),
    (18, 16, [3, 13, 79, 180]),
    (28, 18, [3, 10, 20, 40]),          # White is out
    (171, 18, [4, 11, 30, 55]),         # Black is out
    (239, 18, [6, 21, 65, 110]),        # Red is out
]


def test_perft_from_the_start():
    # No one holds four balls before the tenth ball, so the first five plies are
    # plain placement: 16, 16*15, 16*15*14, 16*15*14*13, then 524160 + the 216
    # ways to fill a platform with the first four balls and climb on it.
    assert [perft(GAME, d) for d in range(1, 5)] == [16, 240, 3360, 43680]
    assert [brute_perft({}, set(), 0, d) for d in range(1, 4)] == [16, 240, 3360]


@pytest.mark.slow
def test_perft_depth_five_from_the_start():
    assert perft(GAME, 5) == 524376
    assert brute_perft({}, set(), 0, 4) == 43680


@pytest.mark.parametrize("seed, steps, counts", GOLDEN)
def test_perft_from_random_positions(seed, steps, counts):
    state = random_walk(GAME, seed, steps)
    assert [perft(GAME, d, state) for d in range(1, 5)] == counts
    assert [_brute_from(state, d) for d in range(1, 5)] == counts


def test_perft_through_eliminations():
    # From the example: White goes out at once, then Black and Red play on,
    # and some lines end with Black or Red cornered too.
    state = GAME.parse_state(EXAMPLE)
    counts = [perft(GAME, d, state) for d in range(1, 6)]
    assert counts == [7, 18, 65, 165, 62]
    assert [_brute_from(state, d) for d in range(1, 6)] == counts
