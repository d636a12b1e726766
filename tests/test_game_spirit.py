"""Spirit (of Shibumi): no two free balls of a colour in a row or column of a level."""
import random

import pytest
from hypothesis import given, strategies as st

from conformance import (check_playouts, check_random_games,
                         check_symmetries, random_walk)
from reference import ABOVE, cells_of, open_points as _open
from shibumi import IllegalMoveError, NotationError, load
from shibumi.errors import UnknownGameError
from shibumi.analysis import perft
from shibumi.games.spirit import ROW_AND_COLUMN, SUPPLY, clashes, covered, open_points
from shibumi.geometry import ALL_MASK, COORDS, LEVEL, points_of
from shibumi.notation import parse_point, point_name
from shibumi.position import BLACK, RED, WHITE, Position

EMPTY = "..../..../..../....|.../.../...|../..|."


def game(players=2):
    return load("spirit", players=players)


def played(moves, players=2, start=None):
    m = game(players).new_match(state=start)
    for text in moves.split():
        m.push(text)
    return m


def at(text, to_move=1, extras="", players=2):
    g = game(players)
    return g.new_match(state=g.parse_state(f"{text} {to_move} {extras}".strip()))


def squares(m):
    return sorted(m.move_text(mv) for mv in m.legal_moves())


def names(mask):
    return sorted(point_name(p) for p in points_of(mask))


def test_conformance():
    assert load("spirit of shibumi").info is load("spirit").info
    check_random_games("spirit", seeds=range(40), players=3)
    check_playouts("spirit", games=300)
    check_playouts("spirit", games=300, players=3)


def test_players_parameter():
    assert game().num_players == 2 and game(3).num_players == 3
    assert load("spirit(players=3)").num_players == 3
    with pytest.raises(UnknownGameError):
        load("spirit", players=4)


# -- the placement rule ---------------------------------------------------------------

def test_a_free_ball_closes_its_whole_row_and_column_on_its_level():
    m = played("Wa1 Bc1")
    # a1's row (c1 e1 g1) and column (a3 a5 a7) are closed to White, however
    # far, and a black ball between (c1) changes nothing.
    assert squares(m) == ["c3", "c5", "c7", "e3", "e5", "e7", "g3", "g5", "g7", "pass"]
    with pytest.raises(IllegalMoveError):
        m.push("g1")
    with pytest.raises(IllegalMoveError):
        m.push("a7")


def test_diagonals_and_other_colours_do_not_block():
    m = played("Wc3")
    assert "Bc5.0" in {mv.text() for mv in m.legal_moves()}  # White's lines do not bind Black
    m.push("g1")
    legal = {mv.text() for mv in m.legal_moves()}
    assert "We5.0" in legal and "Wa1" in legal         # diagonal to c3: open
    assert "Wc5.0" not in legal and "We3.0" not in legal


def test_a_ball_with_a_ball_on_it_no_longer_blocks():
    # a1 W, c1 B, a3 B, c3 W: b2 rests on all four. Before b2, White is shut
    # out of the rows and columns of a1 and c3; afterwards both are covered.
    m = played("Wa1 Bc1 Wc3 Ba3")
    assert squares(m) == ["b2", "e5", "e7", "g5", "g7", "pass"]
    m.push("b2")                                       # White stacks on the platform
    assert covered(m.state.position.occupied) == sum(
        1 << parse_point(p) for p in ("a1", "c1", "a3", "c3.0"))
    m.push("pass")
    # b2 (level 1) now blocks level 1's row and column through b2; on the
    # board nothing free of White's is left, so every empty hole is open.
    assert squares(m) == ["a5", "a7", "c5", "c7", "e1", "e3", "e5", "e7",
                          "g1", "g3", "g5", "g7", "pass"]


def test_levels_are_separate():
    # A free level-1 ball does not close board holes under its row or column...
    m = played("Wa1 Bc1 Wc3 Ba3 Wb2 pass")
    assert {"a5", "a7", "e1", "g1"} <= set(squares(m))
    # ...and free board balls do not close level-1 points: in the second
    # example below, White's free c5 and e3 leave d4 of level 1 open.
    m3 = played(STACK, players=3)
    pos = m3.state.position
    assert {"c5.0", "e3.0"} <= set(names(pos.white & ~covered(pos.occupied)))
    assert names(open_points(pos, WHITE)) == ["d4.1"]


def test_the_apex_has_no_line():
    assert ROW_AND_COLUMN[29] == 0
    assert all(ROW_AND_COLUMN[p].bit_count() == 2 * (3 - LEVEL[p]) for p in range(30))


def test_passing_is_always_allowed():
    m = game().new_match()
    assert m.legal_moves()[-1].text() == "pass" and len(m.legal_moves()) == 17
    m.push("pass")
    m.push("a1")
    m.push("pass")
    assert not m.is_over()                             # a placement in between
    m.push("pass")
    assert m.is_over()
    assert m.outcome().winners == (1,)


def test_three_players_need_three_passes_in_a_row():
    m = played("pass a1 c3 pass", players=3)
    assert not m.is_over() and m.state.passes == 1 and m.current_player == 1
    m.push("pass")
    assert not m.is_over()
    m.push("pass")
    assert m.is_over()
    out = m.outcome()
    assert out.winners == (1, 2) and out.scores == (0.0, 1.0, 1.0)
    assert "share" in out.reason


# A full pyramid reached by play (found by a seeded random search): White and
# Black alternate 30 placements, nobody passes, so they tie 15-15.
FULL_GAME = ("We1 Bg1 Wa7 Be3.0 Wc5.0 Ba5 Wg3 Bc7 Wf2 Bb6 We7 Bc1 Wg5 Be5.0 Wa1 Bf4 "
             "Wc3.0 Bd2 Wd4.1 Be3.2 Wd6 Ba3 Wb4 Bc5.2 Wb2 Bg7 Wc3.2 Bf6 We5.2 Bd4.3")


def test_the_game_stops_when_the_pyramid_is_complete():
    moves = FULL_GAME.split()
    m = played(" ".join(moves[:-1]))
    assert not m.is_over()
    m.push(moves[-1])
    assert m.is_over() and m.state.position.occupied == ALL_MASK
    out = m.outcome()
    assert out.reason.startswith("the pyramid is complete")
    assert game().length(m.state) == 30
    # hidden balls count: 25 balls are in view, all 30 are in play
    pos = m.state.position
    assert pos.hidden().bit_count() == 5 and sum(out.scores) == 30
    assert out.is_draw and out.scores == (15.0, 15.0)


# -- the end and the winner -------------------------------------------------------------

def test_most_balls_in_play_wins():
    m = at("..../..../.W../WB..|.../.../...|../..|.", 1, "passes=2 ply=5")
    assert m.is_over()
    out = m.outcome()
    assert out.winners == (0,) and out.scores == (2.0, 1.0)
    assert out.ranking == ((0,), (1,))
    assert out.reason == "all players passed in succession; White has the most balls in play, 2-1"


def test_ties():
    two = at("..../..../..../WB..|.../.../...|../..|.", 1, "passes=2 ply=4")
    assert two.outcome().is_draw and "tie" in two.outcome().reason
    three = at("..../..../..../WBR.|.../.../...|../..|.", 1, "passes=3 ply=6", players=3)
    assert three.outcome().is_draw and three.outcome().ranking == ((0, 1, 2),)
    shared = at("..../..../B..W/WBR.|.../.../...|../..|.", 1, "passes=3 ply=8", players=3)
    out = shared.outcome()
    assert out.winners == (0, 1) and out.ranking == ((0, 1), (2,))
    assert out.returns(3) == (0.5, 0.5, 0.0)


# -- supply ------------------------------------------------------------------------------

def with_passes(placements, players=2):
    """Moves for a list of placements, each player passing until their colour is due."""
    moves, mover = [], 0
    for text in placements.split():
        while "WBR"[mover] != text[0]:
            moves.append("pass")
            mover = (mover + 1) % players
        moves.append(text)
        mover = (mover + 1) % players
    return " ".join(moves)


# White puts a 16th ball in play while Black passes now and then (placements
# found by a seeded search); the line rule alone would allow a 17th.
SIXTEEN = ("Wa1 Wg3 Wc5.0 We7 Bc7 Be5.0 Wd6 Be3.0 Bg5 Wf4 Wg7 Wc3.0 Bc1 Bd4.1 Ba3 Wb2 "
           "Wa5 We1 Bf6 We5.2 Bd2 Wg1 Bb4 Wc3.2 Wf2 Wa7")


def test_a_player_with_sixteen_balls_in_play_can_only_pass():
    m = played(with_passes(SIXTEEN) + " pass")
    pos = m.state.position
    assert m.current_player == 0 and pos.count(WHITE) == SUPPLY == 16
    assert open_points(pos, WHITE)                     # the line rule would allow more
    assert [mv.text() for mv in m.legal_moves()] == ["pass"]
    g = game()
    seventeen = pos.place(points_of(open_points(pos, WHITE))[0], WHITE)
    assert clashes(seventeen) == []
    with pytest.raises(NotationError, match="16 white"):
        g.parse_state(f"{seventeen.text()} 2 ply={m.state.ply + 1}")


# -- the book's two examples (figures lost) --------------------------------------------

# White to move, two players: each playable point shares a row or column of its
# level with a free white ball. e7 shares a row with g7, allowed because d6 rests on e7.
NO_MOVE = "Wc5 Be5 We7 Bc7 Wd6 Be1 Wa1 Bc3 We3 Bg5 Wg7 Ba7"


def test_first_example_white_can_only_pass():
    m = played(NO_MOVE)
    pos = m.state.position
    assert m.current_player == 0
    assert names(pos.playable()) == ["a3", "a5", "c1", "d4.1", "f6", "g1", "g3"]
    assert [mv.text() for mv in m.legal_moves()] == ["pass"]
    free_white = pos.white & ~covered(pos.occupied)
    assert names(free_white) == ["a1", "d6", "e3.0", "g7"]
    for p in points_of(pos.playable()):                 # each shares a line with one
        assert ROW_AND_COLUMN[p] & free_white
    # d6 rests on e7 and c5, which no longer block anything
    assert names(pos.white & covered(pos.occupied)) == ["c5.0", "e7"]
    # Black could still play on level 1
    assert names(open_points(pos, BLACK)) == ["d4.1", "f6"]


# Three players, White to move: c3 (black), e3 (white), c5 (white) and e5 (red)
# make a platform. White's only placement is d4 on top of it; that covers the
# two white balls and opens eight holes to White that Black and Red cannot use.
STACK = "Wc5 Ba7 Rg7 We3 Bg1 Ra1 pass Bc3 Re5"


def test_second_example_stacking_on_two_white_balls_opens_eight_points():
    m = played(STACK, players=3)
    assert m.current_player == 0
    assert squares(m) == ["d4", "pass"]
    m.push("d4")
    pos = m.state.position
    opened = open_points(pos, WHITE)
    assert names(opened) == ["a3", "a5", "c1", "c7", "e1", "e7", "g3", "g5"]
    assert not open_points(pos, BLACK) & opened and not open_points(pos, RED) & opened
    assert names(covered(pos.occupied) & pos.white) == ["c5.0", "e3.0"]


# -- text, errors, symmetry ---------------------------------------------------------------

def test_state_text_round_trips_and_bad_text_is_refused():
    g = game()
    m = played("Wa1 Bc3 pass")
    text = g.state_text(m.state)
    assert text == "..../..../.B../W...|.../.../...|../..|. 2 passes=1 ply=3"
    assert g.state_key(g.parse_state(text)) == g.state_key(m.state)
    finished = played("a1 pass pass")
    again = g.parse_state(g.state_text(finished.state))
    assert again.result == finished.state.result and again.result is not None
    for bad in (f"{EMPTY} 1 passes=3 ply=3",               # the game ends after 2
                f"{EMPTY} 1 ply=x",
                f"{EMPTY} 1 turn=3",
                "..../..../..../W...|.../.../...|../..|. 2 ply=0",   # 1 ball, 0 actions
                "..../..../..../R...|.../.../...|../..|. 2 ply=1",   # no red with two
                "..../..../..../W.W.|.../.../...|../..|. 1 ply=3",   # two free in a row
                f"{EMPTY} 3 ply=0"):
        with pytest.raises(NotationError):
            g.parse_state(bad)
    with pytest.raises(NotationError):
        game(3).parse_state("..../..../W.../W...|.../.../...|../..|. 1 ply=5")
    # covered balls may share a line
    ok = "..../WB../WB../....|.../W../...|../..|. 2 ply=5"
    assert clashes(Position(ok.split()[0])) == [] and g.parse_state(ok).result is None


def test_a_bad_move_changes_nothing():
    m = played("Wa1 Bc3")
    before = m.state
    for bad in ("c1", "a7", "Bc5", "Rc5", "c3", "b2", "xa1", "Wz9", "a1>c5"):
        with pytest.raises((IllegalMoveError, NotationError)):
            m.push(bad)
        assert m.state is before


@given(st.integers(0, 2 ** 32), st.integers(0, 60), st.sampled_from([2, 3]))
def test_symmetries_keep_moves_results_and_text(seed, steps, players):
    g = game(players)
    assert g.symmetries == tuple(range(8))
    s = random_walk(g, seed, steps)
    for image in check_symmetries(g, s):
        again = g.parse_state(g.state_text(image))
        assert g.state_key(again) == g.state_key(image)


@given(st.integers(0, 2 ** 32), st.integers(0, 90), st.sampled_from([2, 3]))
def test_no_two_free_balls_of_a_colour_ever_share_a_line(seed, steps, players):
    g = game(players)
    s = random_walk(g, seed, steps)
    assert clashes(s.position) == []
    assert g.length(s) <= g.info.max_length


def test_random_games_stay_within_the_bound():
    for players in (2, 3):
        g = game(players)
        rng = random.Random(players)
        for _ in range(500):
            final = g.random_playout(g.initial_state(), rng)
            assert g.length(final) <= 30 * players
            for colour in (WHITE, BLACK, RED)[:players]:
                assert final.position.count(colour) <= SUPPLY


# -- perft, cross-checked by an engine-free brute force ------------------------------
#
# By hand (two players): 16 holes + pass = 17. After a white ball Black has 15
# holes + pass, after a pass 16 + pass: 16*16 + 17 = 273. Depth 3: after two
# balls White may use the 9 holes off the first ball's lines, less Black's if it
# is one of them: 16 * (9*9 + 6*10) + 16*10 + 16*16 = 2672.

def _free(board, pt):
    return not any(q in board for q in ABOVE[pt])


def _places(board, colour):
    if sum(1 for c in board.values() if c == colour) >= 16:
        return []
    return [pt for pt in _open(board)
            if not any(c == colour and q[0] == pt[0] and (q[1] == pt[1] or q[2] == pt[2])
                       and _free(board, q) for q, c in board.items())]


def _brute(board, mover, passes, n, depth):
    if depth == 0:
        return 1
    if passes >= n or len(board) == 30:
        return 0
    colour = "WBR"[mover]
    places = _places(board, colour)
    nxt = (mover + 1) % n
    if depth == 1:
        return len(places) + 1
    total = _brute(board, nxt, passes + 1, n, depth - 1)
    for pt in places:
        total += _brute({**board, pt: colour}, nxt, 0, n, depth - 1)
    return total


PERFT = {2: [17, 273, 2672, 24688, 131064], 3: [17, 273, 4129, 38352, 338120]}


def busy_walk(g, seed, steps):
    """Random placements, passing only when there is nothing to place (deeper positions
    than uniform play, which passes often)."""
    rng = random.Random(seed)
    s = g.initial_state()
    for _ in range(steps):
        if g.is_terminal(s):
            break
        moves = g.legal_moves(s)
        s = g.apply(s, rng.choice(moves[:-1] or moves))
    return s


@pytest.mark.parametrize("players", [2, 3])
def test_perft_matches_an_independent_brute_force(players):
    g = game(players)
    assert [perft(g, d) for d in range(1, 6)] == PERFT[players]
    assert PERFT[2][:3] == [17, 16 * 16 + 17, 16 * (9 * 9 + 6 * 10) + 16 * 10 + 16 * 16]
    assert [_brute({}, 0, 0, players, d) for d in range(1, 5)] == PERFT[players][:4]
    walks = (busy_walk(g, seed, steps) for seed in range(100) for steps in (12, 18, 24))
    deep = [s for s in walks if not g.is_terminal(s) and s.position.occupied >> 16][:4]
    assert len(deep) == 4                              # stacked positions, still in play
    for s in deep:
        board = cells_of(s.position)
        assert [perft(g, d, s) for d in (1, 2, 3)] == \
            [_brute(board, s.to_move, s.passes, players, d) for d in (1, 2, 3)]


def test_brute_force_sees_the_book_positions_the_same_way():
    m = played(NO_MOVE)
    assert _places(cells_of(m.state.position), "W") == []
    m3 = played(STACK + " d4", players=3)
    board = cells_of(m3.state.position)
    opened = {COORDS[p] for p in points_of(open_points(m3.state.position, WHITE))}
    assert set(_places(board, "W")) == opened and len(opened) == 8
    assert _places(board, "B") == [] and _places(board, "R") == []


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3])
def test_perft_depth_five_by_brute_force(players):
    assert _brute({}, 0, 0, players, 5) == PERFT[players][4]
