"""SP-Dansers: a touching white-black pair each turn; White links north-south, Black
west-east, each with visible balls of their own colour."""
import random

import pytest
from hypothesis import given, settings, strategies as st

import shibumi.games.sp_dansers  # noqa: F401  (registers the game)
from conformance import (check_playouts, check_random_games,
                         check_symmetries, random_walk)
from shibumi import IllegalMoveError, NotationError, load
from shibumi.analysis import perft
from shibumi.game import Game
from shibumi.games.sp_dansers import connection, is_linked, pair_starts, raised
from shibumi.games.spaiji import openings, partners
from shibumi.geometry import TOUCHING_MASK
from shibumi.notation import parse_point
from shibumi.position import Position, playable_mask
from reference import ALL as _ALL, below as _below, cells_of, open_points as _open, \
    touch as _touch

GAME = load("sp-dansers")


def state(text, to_move=1, extras=""):
    return GAME.parse_state(f"{text} {to_move} {extras}".strip())


def test_conformance():
    check_random_games("sp-dansers", seeds=range(30))
    check_playouts("sp-dansers", games=300)


def test_the_mask_helpers_agree_with_the_shared_turn_and_the_goal():
    """The fast path's openings, raised points and cheap link test give what
    Spaiji's turn and connection() give, at every state of random games."""
    for seed in range(40):
        rng = random.Random(seed)
        s = GAME.initial_state()
        while not GAME.is_terminal(s):
            occ = s.position.occupied
            play = playable_mask(occ)
            if s.first is None:
                assert pair_starts(occ, play) == openings(occ)
            for p in range(30):
                if play >> p & 1:
                    assert play & ~(1 << p) | raised(occ, p) == playable_mask(occ | 1 << p)
                    assert (play & ~(1 << p) | raised(occ, p)) & TOUCHING_MASK[p] \
                        == partners(occ, p)
            for player in (0, 1):
                assert is_linked(s.position, player) == bool(connection(s.position, player))
            s = GAME.apply(s, rng.choice(GAME.legal_moves(s)))
        for player in (0, 1):             # the end, where the links are
            assert is_linked(s.position, player) == bool(connection(s.position, player))


def test_the_link_on_masks_agrees_with_connection_on_crowded_boards():
    """Random stable positions, full and nearly full, where many chains touch both
    sides and overpasses cut many contacts."""
    rng = random.Random(7)
    for _ in range(400):
        white = black = occ = 0
        for _ in range(rng.randrange(16, 31)):
            spots = [p for p in range(30) if playable_mask(occ) >> p & 1]
            p = rng.choice(spots)
            occ |= 1 << p
            if rng.random() < 0.5:
                white |= 1 << p
            else:
                black |= 1 << p
        pos = Position.from_masks(white, black)
        for player in (0, 1):
            assert is_linked(pos, player) == bool(connection(pos, player))


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


def test_a_turn_is_a_white_and_a_black_ball_that_touch():
    m = GAME.new_match()
    assert len(m.legal_moves()) == 32
    m.push("Wc3")
    assert m.current_player == 0 and m.state.first == parse_point("c3.0")
    assert sorted(mv.text() for mv in m.legal_moves()) == ["Ba3", "Bc1", "Bc5.0", "Be3.0"]
    before = m.state
    for bad in ("Wc1", "Bg7", "Ba1", "Rc1"):      # same colour, not touching, red
        with pytest.raises((IllegalMoveError, NotationError)):
            m.push(bad)
        assert m.state == before
    m.push("c1")
    assert m.current_player == 1 and m.state.first is None


# -- the text's example: Black links west-east (and north-south too) and wins.
BLACK_CROSS = "Wg7 Bg5 Wg1 Be1 Bc7 Wa7 Bc5.0 Wc3.0 Be3.0 Wg3 Ba5 Wa3 We7 Be5.0"


def test_the_text_example_black_wins_west_east_though_also_linked_north_south():
    m = GAME.new_match(record=BLACK_CROSS)
    result = m.outcome()
    assert result.winners == (1,) and "west and east" in result.reason
    chain = connection(m.state.position, 1)
    names = {p for p in ("a5", "c5.0", "e5.0", "g5", "c7", "e3.0", "e1")}
    assert chain == sum(1 << parse_point(p) for p in names)
    # the same black group also joins north (c7) and south (e1): no win for Black
    assert chain >> parse_point("c7") & 1 and chain >> parse_point("e1") & 1
    assert connection(m.state.position, 0) == 0
    assert GAME.winning_points(m.state) == chain


def test_each_player_needs_their_own_colour_and_their_own_edges():
    # Black's e-column runs north-south and White's fifth rank west-east:
    # neither is a goal, so nobody has won.
    for text in ("W.B./..B./W.B./W.BW|.../.../...|../..|.",
                 "..../WWWW/BB../BB..|.../.../...|../..|."):
        s = state(text, 1)
        assert s.result is None and not connection(s.position, 0) \
            and not connection(s.position, 1)
    assert state("..../BBBB/WW../WW..|.../.../...|../..|.", 1).result.winners == (1,)
    assert state("W.B./W.B./W.B./W.B.|.../.../...|../..|.", 1).result.winners == (0,)


def test_the_goal_is_checked_when_the_pair_is_complete():
    # From random play: Black's first ball f6 links west and east, but the only
    # white partner, d6, passes over c5-c7 with b6 and cuts the chain.
    m = GAME.new_match(record="Wg7 Bg5 Wa7 Bc7 Ba5 Wa3 Be7 We5.0 Bc5.0 Wb6 Bf6")
    assert connection(m.state.position, 1) and m.outcome() is None
    assert [mv.text() for mv in m.legal_moves()] == ["Wd6"]
    m.push("d6")
    assert connection(m.state.position, 1) == 0 and m.outcome() is None


def test_a_mover_without_a_pair_ends_the_game_drawn():
    record = ("Ba7 Wa5 Wc1 Bc3.0 Be1 Wg1 Ba1 Wa3 We7 Be5.0 Wg7 Bg5 We3.0 Bd2 Wg3 Bf4 "
              "Wc5.0 Bb4 Wc7 Bd6")
    m = GAME.new_match(record=record)
    assert m.is_over() and m.outcome().is_draw
    assert "cannot place two touching balls" in m.outcome().reason
    assert m.state.position.count() == 20 and m.legal_moves() == []


def test_both_players_are_never_linked_and_full_pyramids_are_won():
    rng = random.Random(5)
    for _ in range(300):
        s = GAME.initial_state()
        while not GAME.is_terminal(s):
            s = GAME.apply(s, rng.choice(GAME.legal_moves(s)))
            assert not (connection(s.position, 0) and connection(s.position, 1))
        if s.position.count() == 30:
            assert s.result.winners


def test_bad_state_text_is_refused():
    for extras in ("first=g7", "first=zz", "x=1", "first=a1 first=a1"):
        with pytest.raises(NotationError):
            state("..../..../..../WB..|.../.../...|../..|.", 1, extras)
    for text, extras in (("..../..../..../R...|.../.../...|../..|.", ""),   # red
                         ("..../..../..../W...|.../.../...|../..|.", ""),   # half a pair
                         ("..../..../..../WB..|.../.../...|../..|.", "first=a1")):
        with pytest.raises(NotationError):
            state(text, 1, extras)
    assert state("..../..../..../W...|.../.../...|../..|.", 1, "first=a1").first == 0


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2 ** 32), st.integers(0, 29))
def test_the_goal_keeping_symmetries_keep_moves_and_results(seed, steps):
    s = random_walk(GAME, seed, steps)
    for image in check_symmetries(GAME, s):
        again = GAME.parse_state(GAME.state_text(image))
        assert GAME.state_key(again) == GAME.state_key(image)


# -- perft, cross-checked by an independent brute force ---------------------
#
# The brute force writes the rules again on reference.py's dict of points:
# a pair of touching balls of the two colours, a first ball only where a
# partner can follow, and after each pair the visible links of each colour
# (hidden balls left out, contacts under a pair of the level above cut).

def _hidden(board, pt):
    lv, x, y = pt
    return (lv + 2, x - 1, y - 1) in board


def _cut(board, a, b):
    """A flat contact a-b with both balls of the level above it present."""
    if a[0] != b[0]:
        return False
    (lv, x, y), (_, x2, y2) = sorted([a, b])
    if y == y2:          # east-west contact: the pair above straddles it north-south
        over = [(lv + 1, x, y - 1), (lv + 1, x, y)]
    else:                # north-south contact
        over = [(lv + 1, x - 1, y), (lv + 1, x, y)]
    return all(o in board for o in over)


def _linked(board, colour, starts, ends):
    seen = [p for p in board if board[p] == colour and p[0] == 0 and starts(p)
            and not _hidden(board, p)]
    todo = list(seen)
    while todo:
        p = todo.pop()
        if p[0] == 0 and ends(p):
            return True
        for q in board:
            if (board[q] == colour and q not in seen and _touch(p, q)
                    and not _hidden(board, q) and not _cut(board, p, q)):
                seen.append(q)
                todo.append(q)
    return False


def _over(board):
    white = _linked(board, "W", lambda p: p[2] == 0, lambda p: p[2] == 3)
    black = _linked(board, "B", lambda p: p[1] == 0, lambda p: p[1] == 3)
    return white or black


def _firsts(board):
    return [(p, c) for p in _open(board) for c in "WB"
            if any(_touch(p, q) for q in _open({**board, p: c}))]


def _brute(board, depth, first=None):
    if depth == 0:
        return 1
    if first is not None:
        colour = "B" if board[first] == "W" else "W"
        return sum(_brute({**board, q: colour}, depth - 1)
                   for q in _open(board) if _touch(first, q))
    if _over(board):
        return 0
    return sum(_brute({**board, p: c}, depth - 1, p) for p, c in _firsts(board))


PERFT = [32, 96, 2688, 7168]
# From the positions of a few random games after 16 to 22 actions: perft to
# depth 3 (a whole pair, its ending, and the next first ball).
MIDGAME = {(3, 16): [8, 16, 96], (8, 18): [2, 8, 36], (11, 20): [8, 12, 16],
           (1, 16): [10, 18, 96], (5, 22): [6, 8, 12]}


def test_perft_matches_a_hand_count_and_an_independent_brute_force():
    assert [perft(GAME, d) for d in range(1, 5)] == PERFT
    assert PERFT[:3] == [16 * 2, (4 * 2 + 8 * 3 + 4 * 4) * 2, 96 * 28]
    assert [_brute({}, d) for d in range(1, 4)] == PERFT[:3]


def test_perft_from_midgame_positions_against_the_brute_force():
    for (seed, steps), golden in MIDGAME.items():
        s = random_walk(GAME, seed, steps)
        assert s.first is None and not GAME.is_terminal(s)
        assert [perft(GAME, d, s) for d in range(1, 4)] == golden
        board = cells_of(s.position)
        assert [_brute(board, d) for d in range(1, 4)] == golden


@pytest.mark.slow
def test_perft_depth_4_against_the_brute_force():
    assert _brute({}, 4) == PERFT[3]


def test_the_brute_force_sees_the_same_ends_as_the_engine():
    rng = random.Random(9)
    for _ in range(25):
        s = GAME.initial_state()
        while True:
            if s.first is None:
                board = cells_of(s.position)
                assert _over(board) == bool(s.result and s.result.winners)
                assert (not _firsts(board)) == GAME.is_terminal(s) or _over(board)
            if GAME.is_terminal(s):
                break
            s = GAME.apply(s, rng.choice(GAME.legal_moves(s)))
    assert len(_ALL) == 30 and _below((1, 0, 0)) == [(0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 1, 1)]


def test_every_legal_move_is_played_by_clicks():
    from shibumi.interaction import Table
    t = Table(GAME, seats="human")
    rng = random.Random(2)
    for _ in range(16):
        if t.match.is_over():
            break
        legal = t.match.legal_moves()
        for move in legal:
            played = t.click(move.point)
            if played is None:                   # the first ball: white or black here
                options = t.options()
                assert move in options, (move, t.message)
                played = t.choose(options.index(move))
            assert played == move, (move, t.message)
            t.undo()
        t.choose(rng.choice(legal))
