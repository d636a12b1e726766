"""The rules of Splastwo, pinned down by positions."""
import random

import pytest

import shibumi.games.splastwo  # noqa: F401  (registers the game)
from conformance import check_playouts, check_random_games
from shibumi import IllegalMoveError, NotationError, load
from shibumi.analysis import perft
from shibumi.games.splastwo import SplastwoState
from shibumi.position import BLACK, RED, WHITE

EMPTY = "..../..../..../....|.../.../...|../..|."


def match(text, players=2):
    game = load("splastwo", players=players)
    return game.new_match(state=game.parse_state(text))


def texts(m):
    return sorted(mv.text() for mv in m.legal_moves())


# -- the shape of a move ------------------------------------------------------------

def test_a_move_is_one_to_three_balls_in_a_row_or_column():
    m = load("splastwo").new_match()
    m.push("a1")
    assert texts(m) == ["Wa3", "Wc1", "pass"]      # orthogonal neighbours, or stop
    with pytest.raises(IllegalMoveError):
        m.push("c3")                               # diagonal neighbours do not touch
    with pytest.raises(IllegalMoveError):
        m.push("e1")                               # a gap
    m.push("c1")
    assert texts(m) == ["We1", "pass"]             # only straight on
    with pytest.raises(IllegalMoveError):
        m.push("c3")                               # a bent line
    m.push("e1")
    assert m.current_player == 1                   # three balls end the turn
    assert m.state.position.count(WHITE) == 3


def test_a_line_may_be_laid_from_the_middle_outwards():
    m = load("splastwo").new_match()
    m.push("c3")
    m.push("e3")
    assert texts(m) == ["Wa3", "Wg3", "pass"]      # either end
    m.push("a3")
    assert m.current_player == 1
    m.push("g7")
    m.push("pass")                                 # a single ball
    assert m.current_player == 0
    assert m.game.length(m.state) == 5


def test_a_pass_alone_is_not_a_move():
    m = load("splastwo").new_match()
    assert "pass" not in texts(m)


def test_the_turn_ends_by_itself_when_the_line_cannot_grow():
    # Board full but for c1: the ball there has no empty neighbour.
    m = match("WBWB/BWBW/WBWB/B.BW|.../.../...|../..|. 1 levels=---- ply=20")
    m.push("c1")
    assert m.current_player == 1 and m.state.placed == ()
    assert m.state.levels == (0, -1, -1, -1)       # White completed the board


def test_all_balls_of_a_move_stay_on_one_level():
    # Board full but for g1: b2, d2 and b4 are open on level 1, f2 is not.  After
    # b2 d2 the row could only go on to f2, which is not playable; g1 below it is
    # on another level.  So the turn ends there.
    m = match("WBWB/BWBW/WBWB/BWB.|.../.../...|../..|. 2 levels=---- ply=20")
    m.push("b2")
    assert texts(m) == ["Bb4", "Bd2", "pass"]
    m.push("d2")
    assert m.current_player == 0 and m.state.placed == ()
    assert "Wg1" in texts(m)


def test_first_turns_from_the_start():
    # 16 single balls, 24 pairs (12 in rows, 12 in columns), 16 triples (8 + 8).
    game = load("splastwo")
    seen = set()

    def walk(state):
        for mv in game.legal_moves(state):
            nxt = game.apply(state, mv)
            if nxt.to_move == 0:
                walk(nxt)
            else:
                seen.add(nxt.position)

    walk(game.initial_state())
    assert len(seen) == 56
    sizes = sorted(p.count() for p in seen)
    assert sizes.count(1) == 16 and sizes.count(2) == 24 and sizes.count(3) == 16


# -- the book's worked example ----------------------------------------------------------

# Board complete (Black completed it, 1 point); level 1 lacks its top row, level 2 its
# top row.  White has placed 11 balls, Black 13.  A set-up, not a reachable state:
# with one same-coloured pair only, White could not be the one to move here.  The
# chapter (book/games/splastwo.md) reaches the same points and counts by legal play.
EXAMPLE = "WBWB/BWBW/WBWB/BWBB|.../WBW/BWB|../WB|. 1 levels=B--- ply=40"


def _white_completes_level_one():
    m = match(EXAMPLE)
    assert m.game.stock(m.state.position, 0) == 4
    assert m.game.stock(m.state.position, 1) == 2
    assert texts(m) == ["Wb6", "Wd6", "Wf6"]
    for square in ("d6", "b6", "f6"):
        m.push(square)
    assert m.state.levels == (1, 0, -1, -1)
    assert m.game.scores(m.state.levels) == (1, 1)
    assert m.current_player == 1
    assert texts(m) == ["Bc5.2", "Be5.2"]
    return m


def test_example_completing_level_two_hands_white_the_apex():
    m = _white_completes_level_one()
    m.push("c5")
    m.push("e5")                                  # a line of two completes level 2
    # That was Black's fifteenth ball: White, the only player with a ball left,
    # fills the apex (the same as White playing it).
    out = m.outcome()
    assert m.state.levels == (1, 0, 1, 0)
    assert out.winners == (0,) and out.scores == (3.0, 2.0)


def test_example_single_ball_lets_black_take_the_apex_and_win_three_two():
    m = _white_completes_level_one()
    m.push("c5")
    m.push("pass")                                # Black stops after one ball
    assert texts(m) == ["We5.2"]                  # White's only move completes level 2
    m.push("e5")
    # White has now used all 15 balls; Black's last ball goes on the apex.
    assert m.state.levels == (1, 0, 0, 1)
    out = m.outcome()
    assert out.winners == (1,) and out.scores == (2.0, 3.0)
    assert m.game.stock(m.state.position, 1) == 0
    assert m.game.stock(m.state.position, 0) == 0
    assert m.state.position.colour_at(29) == BLACK


# -- running out -----------------------------------------------------------------------

def test_when_a_player_runs_out_the_opponent_completes_the_pyramid():
    # White has one ball left, Black five, and six points are empty.
    m = match("WWWW/WBWB/BWBW/WWWB|.../WBW/BWB|../BB|. 1 levels=W--- ply=30")
    assert m.game.stock(m.state.position, 0) == 1
    m.push("b6")                                   # d6 is open, but White is out
    out = m.outcome()
    assert out is not None
    pos = m.state.position
    assert pos.count() == 30 and pos.count(BLACK) == 15 and pos.count(WHITE) == 15
    assert m.state.levels == (0, 1, 1, 1)
    assert out.winners == (1,) and out.scores == (1.0, 4.0)
    assert m.game.length(m.state) == 31            # the filling is not a move


# -- three players ------------------------------------------------------------------------

THREE_NEAR_END = "WBRW/BRWB/RWBR/WBRW|BRW/RWB/WBR|BR/RB|. {mover} levels=RRB- ply=50"


def test_three_players_a_tie_goes_to_the_apex_player():
    m = match(THREE_NEAR_END.format(mover=1), players=3)
    m.push("d4")
    out = m.outcome()
    assert out.scores == (2.0, 1.0, 2.0)           # White has only the apex, Red two levels
    assert out.winners == (0,)
    assert out.ranking == ((0,), (2,), (1,))
    assert "apex" in out.reason


def test_three_players_apex_and_levels_add_up():
    m = match(THREE_NEAR_END.format(mover=3), players=3)
    assert texts(m) == ["Rd4.3"]
    m.push("d4")
    assert m.outcome().scores == (0.0, 1.0, 4.0) and m.outcome().winners == (2,)


def test_three_players_turn_order_skips_a_player_with_no_balls():
    m = match("BBBB/BBBB/BBBB/BBBW|.../.../...|../..|. 1 levels=B--- ply=20", players=3)
    assert m.game.stock(m.state.position, 1) == 0
    m.push("b2")
    m.push("pass")
    assert m.current_player == 2                   # Black is out and skipped
    m.push("d2")
    m.push("pass")
    assert m.current_player == 0


def test_three_players_use_red_and_two_players_do_not():
    three = load("splastwo", players=3).new_match()
    three.push("a1")
    three.push("pass")
    three.push("c1")
    three.push("pass")
    assert all(t[0] == "R" for t in texts(three))
    with pytest.raises(NotationError):
        load("splastwo").parse_state("R.../..../..../....|.../.../...|../..|. 1 "
                                     "levels=---- ply=1")


# -- state text ----------------------------------------------------------------------------

def test_state_text_round_trips_mid_turn():
    m = load("splastwo").new_match()
    m.push("c3")
    m.push("c5")
    text = m.game.state_text(m.state)
    assert text.endswith("1 levels=---- turn=c3.0,c5.0 ply=2")
    again = m.game.parse_state(text)
    assert again == SplastwoState(m.state.position, 0, None, None, (5, 9), (-1,) * 4, 2)
    assert sorted(mv.text() for mv in m.game.legal_moves(again)) == ["Wc1", "Wc7", "pass"]


@pytest.mark.parametrize("extras", [
    "", "ply=3", "levels=---- ply=x", "levels=B--- ply=3",        # board not full
    "levels=---- turn=a1,e1 ply=3", "levels=---- turn=g7 ply=3",   # not a line / not White's
    "levels=---- ply=3 colour=W",
])
def test_bad_state_text_is_rejected(extras):
    with pytest.raises(NotationError):
        load("splastwo").parse_state(f"..../..../..../W.W.|.../.../...|../..|. 1 {extras}")


# -- conformance and counts --------------------------------------------------------------------

def test_conformance():
    assert load("splasttwo").info.name == "Splastwo"
    check_random_games("splastwo", players=3)
    check_playouts("splastwo", players=3)
    check_playouts("splastwo", games=500)


def test_random_games_score_five_points_and_never_tie_with_two():
    for players in (2, 3):
        game = load("splastwo", players=players)
        for seed in range(200):
            final = game.random_playout(game.initial_state(), random.Random(seed))
            out = final.result
            assert sum(out.scores) == 5
            assert len(out.winners) == 1
            assert final.position.count() == 30
            for p in range(players):
                assert final.position.count((WHITE, BLACK, RED)[p]) <= 15
            if players == 2:
                assert out.scores[0] != out.scores[1]


def _brute_force(depth):
    """Independent count of action sequences from the start (two players).

    Cells are (level, x, y); playable means empty with four filled cells under it;
    the current line is a list of cells and may grow at either end along its axis.
    """
    sizes = (4, 3, 2, 1)
    cells = [(lv, x, y) for lv in range(4) for y in range(sizes[lv]) for x in range(sizes[lv])]

    def playable(filled, c):
        lv, x, y = c
        return c not in filled and (lv == 0 or all(
            (lv - 1, x + dx, y + dy) in filled for dx in (0, 1) for dy in (0, 1)))

    def growths(filled, line):
        lv = line[0][0]
        if len(line) == 1:
            x, y = line[0][1:]
            cand = [(lv, x + 1, y), (lv, x - 1, y), (lv, x, y + 1), (lv, x, y - 1)]
        else:
            (_, x0, y0), (_, x1, y1) = sorted(line)[0], sorted(line)[-1]
            dx, dy = (x1 - x0) // max(1, len(line) - 1), (y1 - y0) // max(1, len(line) - 1)
            cand = [(lv, x0 - dx, y0 - dy), (lv, x1 + dx, y1 + dy)]
        return [c for c in cand if c in cells and playable(filled, c)]

    def count(filled, line, left):
        if left == 0:
            return 1
        if not line:
            total = 0
            for c in (c for c in cells if playable(filled, c)):
                grows = growths(filled | {c}, [c])
                total += count(filled | {c}, [c] if grows else [], left - 1)
            return total
        total = count(filled, [], left - 1)        # pass: the next player starts a line
        for c in growths(filled, line):
            new_line = line + [c]
            if len(new_line) == 3 or not growths(filled | {c}, new_line):
                total += count(filled | {c}, [], left - 1)
            else:
                total += count(filled | {c}, new_line, left - 1)
        return total

    return count(frozenset(), [], depth)


def test_perft_from_the_start():
    # Depth 2 by hand: after a first ball, its orthogonal neighbours or a pass:
    # 4 corners x 3 + 8 edges x 4 + 4 centres x 5 = 64.  Depth 3 by hand: a corner
    # gives 15 (pass, then any hole) + 2 + 2 = 19, an edge 15 + 2 + 3 + 2 = 22, a centre
    # 15 + 2 + 3 + 2 + 3 = 25: 76 + 176 + 100 = 352.  _brute_force agrees to depth 4.
    game = load("splastwo")
    counts = [perft(game, d) for d in range(1, 6)]
    assert counts == [16, 64, 352, 2416, 10656]
    assert [_brute_force(d) for d in range(1, 5)] == counts[:4]
    assert [perft(load("splastwo", players=3), d) for d in range(1, 6)] == counts


def test_symmetries_keep_the_legal_moves():
    # The line being laid turns with the board (Splastwo.transform_state).
    from shibumi.geometry import SYMMETRIES
    from shibumi.notation import PASS, Move
    for players in (2, 3):
        game = load("splastwo", players=players)
        for seed in range(60):
            rng = random.Random(seed)
            s = game.initial_state()
            for _ in range(rng.randrange(50)):
                if s.result is not None:
                    break
                s = game.apply(s, rng.choice(game.legal_moves(s)))
            moves = game.legal_moves(s)
            for index in game.symmetries:
                perm = SYMMETRIES[index]
                image = game.transform_state(s, perm)
                mapped = {mv if mv.kind == PASS else Move.place(perm[mv.point], mv.colour)
                          for mv in moves}
                assert set(game.legal_moves(image)) == mapped
                assert game.outcome(image) == game.outcome(s)
