"""Sphered: free balls in the holes, platforms that call for a colour and its player."""
import random
from functools import lru_cache

import pytest

from conformance import (check_playouts, check_random_games, check_symmetries, moves_reached_by_clicks,
                        random_walk)
from reference import ALL, below, cells_of, open_points
from shibumi import IllegalMoveError, NotationError, load
from shibumi.analysis import perft
from shibumi.games.sphered import platform_colour
from shibumi.geometry import APEX, BOARD_MASK
from shibumi.interaction import Table
from shibumi.notation import parse_point
from shibumi.position import BLACK, RED, WHITE

GAME = load("sphered")
UP = "|.../.../...|../..|."


def match(text):
    return GAME.new_match(state=GAME.parse_state(text))


def colour(m, name):
    return m.state.position.colour_at(parse_point(name))


# -- conformance -----------------------------------------------------------------------

def test_declaration():
    assert GAME.info.max_length == 30 and GAME.player_names[:2] == ("White", "Black")


def test_random_games():
    check_random_games("sphered", seeds=range(30))


def test_symmetries():
    for seed in range(8):
        check_symmetries(GAME, random_walk(GAME, seed, 6 + 3 * seed))


# -- free balls ------------------------------------------------------------------------

def test_a_free_ball_is_the_movers_colour_or_red_in_an_empty_hole():
    m = GAME.new_match()
    assert {mv.text()[0] for mv in m.legal_moves()} == {"W", "R"} and len(m.legal_moves()) == 32
    assert all(BOARD_MASK >> mv.point & 1 for mv in m.legal_moves())
    with pytest.raises(IllegalMoveError):
        m.push("Ba1")
    m.push("Ra1")
    assert m.current_player == 1
    assert {mv.text()[0] for mv in m.legal_moves()} == {"B", "R"} and len(m.legal_moves()) == 30


# -- the colour of a platform ----------------------------------------------------------

@pytest.mark.parametrize("counts, expected", [
    ((4, 0, 0), WHITE), ((0, 4, 0), BLACK), ((0, 0, 4), RED),       # one colour
    ((3, 1, 0), WHITE), ((0, 1, 3), RED), ((1, 3, 0), BLACK),       # a majority
    ((2, 1, 1), WHITE), ((1, 2, 1), BLACK), ((1, 1, 2), RED),       # the most balls
    ((2, 2, 0), RED), ((2, 0, 2), BLACK), ((0, 2, 2), WHITE),       # two and two: missing
])
def test_majority_else_the_missing_colour(counts, expected):
    assert platform_colour(*counts) == expected


# -- who places it -----------------------------------------------------------------------

def test_own_colour_is_placed_at_once_by_the_mover():
    m = match("..../..../B.../WW.." + UP + " 1")
    m.push("Wc3.0")                          # W W B W: white
    assert m.current_player == 0 and [mv.text() for mv in m.legal_moves()] == ["Wb2"]
    m.push("b2")
    assert m.current_player == 1 and colour(m, "b2") == WHITE


def test_red_is_placed_at_once_by_the_mover_even_an_opponents_turn_later():
    m = match("..../..../W.../BW.." + UP + " 2")
    m.push("Bc3.0")                          # B W W B: two and two, red is missing
    assert m.current_player == 1 and [mv.text() for mv in m.legal_moves()] == ["Rb2"]
    m.push("b2")
    assert m.current_player == 0


def test_opponents_colour_waits_and_replaces_their_free_ball():
    m = match("..../..../W.../WR.." + UP + " 1")
    m.push("Rc3.0")                          # W R W R: two and two, black missing
    assert m.current_player == 1             # Black's platform: Black's turn now
    assert GAME.status_lines(m.state) == [
        "The platform at b2 calls for black: Black must place it."]
    assert [mv.text() for mv in m.legal_moves()] == ["Bb2"]     # no free ball
    with pytest.raises(IllegalMoveError):
        m.push("Bg7")
    m.push("b2")
    assert m.current_player == 0 and len(m.legal_moves()) == 2 * 12


def test_one_ball_can_finish_four_platforms_and_the_mover_picks_the_order():
    # White's c3 finishes four platforms: b2 (W W B W) and d2 (W R W W) call for
    # white, b4 (B R R W) for red, d4.1 (W W R R) for black.
    m = match("..../RRR./B.W./WWR." + UP + " 1")
    m.push("Wc3.0")
    assert sorted(mv.text() for mv in m.legal_moves()) == ["Rb4", "Wb2", "Wd2"]
    ends = set()
    for order in (("b2", "d2", "b4"), ("b4", "d2", "b2"), ("d2", "b4", "b2")):
        m2 = GAME.new_match(state=m.state)
        for name in order:
            assert m2.current_player == 0
            m2.push(name)
        ends.add(m2.state.position)
    assert len(ends) == 1
    m.push("b2"), m.push("d2"), m.push("b4")
    # Black's turn is d4.1, and it finishes c3.2 (W W R B: white), which waits for White.
    assert m.current_player == 1 and [mv.text() for mv in m.legal_moves()] == ["Bd4.1"]
    m.push("d4")
    assert m.current_player == 0 and [mv.text() for mv in m.legal_moves()] == ["Wc3.2"]


def test_a_chain_runs_while_it_calls_for_the_movers_colour():
    # Black's a1 finishes b2 (B B B W: black); that ball finishes c3.2 over
    # b2 d2 b4 d4 (all black) at once: one turn, three balls.
    m = match("..../BBB./BWB./.BB.|.../BB./.B.|../..|. 2")
    m.push("Ba1")
    assert [mv.text() for mv in m.legal_moves()] == ["Bb2"]
    m.push("b2")
    assert [mv.text() for mv in m.legal_moves()] == ["Bc3.2"]
    m.push("c3.2")
    assert m.current_player == 0 and len(m.legal_moves()) == 2 * 7


# -- the end -------------------------------------------------------------------------------

def _settled(holes: str) -> str:
    """The position text of a full board (rows from rank 7 down) with every platform
    filled by the rule, computed on the reference model."""
    board = {}
    for i, row in enumerate(holes.split("/")):
        for x, ch in enumerate(row):
            board[(0, x, 3 - i)] = ch
    for pt in ALL:
        if pt[0]:
            board[pt] = _called(board, pt)
    return _text(board)


def _text(board) -> str:
    return "|".join("/".join("".join(board.get((lv, x, y), ".") for x in range(4 - lv))
                             for y in reversed(range(4 - lv))) for lv in range(4))


# Full boards whose pyramids call for a white, a black and a red apex.
APEX_BOARDS = {"W": "WWWW/WWWW/BBRR/BRBR", "B": "BBBB/BBBB/WWRR/WRWR",
               "R": "RRRR/RRRR/WWBB/WBWB"}


@pytest.mark.parametrize("apex, placer, winner", [
    ("W", 1, 0),                # a white apex: White places it and wins
    ("B", 2, 1),
    ("R", 1, 1),                # a red apex: its placer loses
    ("R", 2, 0),
])
def test_the_apex_decides(apex, placer, winner):
    full = _settled(APEX_BOARDS[apex])
    assert full.endswith(apex)
    m = match(f"{full[:-1]}. {placer}")
    assert [mv.text() for mv in m.legal_moves()] == [f"{apex}d4.3"]
    m.push("d4")
    assert m.outcome().winners == (winner,)
    assert GAME.winning_points(m.state) == 1 << APEX
    assert GAME.parse_state(GAME.state_text(m.state)).result == m.outcome()


def test_a_white_apex_cannot_wait_for_black():
    with pytest.raises(NotationError):
        GAME.parse_state(_settled(APEX_BOARDS["W"])[:-1] + ". 2")


def test_games_always_end_at_the_apex_and_nobody_is_stuck():
    for seed in range(300):
        final = GAME.random_playout(GAME.initial_state(), random.Random(seed))
        assert final.position.count() == 30 and final.result.winners


def test_seventeen_balls_of_a_colour_are_common():
    over = sum(max(final.position.count(c) for c in (WHITE, BLACK, RED)) > 16
               for final in (GAME.random_playout(GAME.initial_state(), random.Random(s))
                             for s in range(300)))
    assert 0.3 < over / 300 < 0.65


# -- text and bad input ----------------------------------------------------------------------

def test_positions_must_follow_the_platform_rule():
    with pytest.raises(NotationError):       # a1 c1 a3 c3 = W W B W calls for white
        GAME.parse_state("..../..../BW../WW..|.../.../B..|../..|. 1")
    assert GAME.parse_state("..../..../BW../WW..|.../.../W..|../..|. 2").result is None


def test_a_waiting_platform_fixes_whose_turn_it_is():
    # b2 calls for white: with only White's platform waiting it is White's turn.
    GAME.parse_state("..../..../BR../BR..|.../.../...|../..|. 1")
    with pytest.raises(NotationError):
        GAME.parse_state("..../..../BR../BR..|.../.../...|../..|. 2")


def test_illegal_moves_leave_the_state_unchanged():
    m = match("..../..../B.../WW.." + UP + " 1")
    m.push("Wc3.0")
    before = m.state
    for bad in ("Wa5", "Rb2", "Bb2", "xb2", "pass", "zz"):
        with pytest.raises((IllegalMoveError, NotationError)):
            m.push(bad)
    assert m.state is before


def test_every_legal_move_is_reachable_by_clicks():
    for record in ("", "Wa1 Bc1 Wa3 Bg7"):
        t = Table("sphered", seats="human", record=record or None)
        legal = t.match.legal_moves()
        assert moves_reached_by_clicks(t) == set(legal)


# -- perft against an engine-free brute force -------------------------------------------------

OWN = ("W", "B")


def _called(board, pt):
    counts = {c: sum(board[s] == c for s in below(pt)) for c in "WBR"}
    high = max(counts.values())
    top = [c for c in "WBR" if counts[c] == high]
    return top[0] if len(top) == 1 else next(c for c in "WBR" if counts[c] == 0)


def _due(board, player):
    return [(pt, _called(board, pt)) for pt in open_points(board)
            if pt[0] > 0 and _called(board, pt) in (OWN[player], "R")]


def _moves(board, player):
    due = _due(board, player)
    if due:
        return due
    return [(pt, c) for c in (OWN[player], "R") for pt in ALL
            if pt[0] == 0 and pt not in board]


@lru_cache(maxsize=None)
def _brute(items, player, depth):
    if depth == 0:
        return 1
    board = dict(items)
    moves = _moves(board, player)
    if depth == 1:
        return len(moves)
    total = 0
    for pt, c in moves:
        new = dict(board)
        new[pt] = c
        if pt[0] == 3:
            continue                           # the apex ends the game
        nxt = player if _due(new, player) else 1 - player
        total += _brute(tuple(sorted(new.items())), nxt, depth - 1)
    return total


def _brute_from(state, depth):
    return _brute(tuple(sorted(cells_of(state.position).items())), state.to_move, depth)


GOLDEN_START = {1: 32, 2: 960, 3: 26880, 4: 698880}


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_perft_from_the_start(depth):
    assert perft(GAME, depth) == GOLDEN_START[depth]
    assert _brute_from(GAME.initial_state(), depth) == GOLDEN_START[depth]


#: (seed, random actions from the start): perft to depths 3 and 4.  Forced balls
#: make the later trees narrow.
GOLDEN_RANDOM = {(1, 8): (224, 2252), (2, 13): (58, 91), (3, 19): (7, 8), (5, 24): (4, 6)}


@pytest.mark.parametrize("seed, steps", sorted(GOLDEN_RANDOM))
def test_perft_from_random_positions(seed, steps):
    s = random_walk(GAME, seed, steps)
    assert s.result is None
    three, four = GOLDEN_RANDOM[(seed, steps)]
    assert perft(GAME, 3, s) == _brute_from(s, 3) == three
    assert perft(GAME, 4, s) == _brute_from(s, 4) == four


def test_the_fast_playout_plays_the_rules_games():
    check_playouts("sphered", games=400)


def test_due_platforms_on_masks_match_the_rule_as_written():
    """due_of (legal_moves and the playout) lists, in point order, each empty
    upper point on four balls whose platform_colour is the player's or red."""
    from shibumi.games.sphered import PLAYER_COLOURS, due_of
    from shibumi.geometry import SUPPORT_MASK
    rng = random.Random(9)
    for _ in range(300):
        state = GAME.initial_state()
        for _ in range(rng.randrange(30)):
            if GAME.is_terminal(state):
                break
            state = GAME.random_step(state, rng)
        pos = state.position
        for player in (0, 1):
            plain = []
            for q in range(16, 30):
                sup = SUPPORT_MASK[q]
                if pos.occupied >> q & 1 or pos.occupied & sup != sup:
                    continue
                counts = [sum(pos.colour_at(p) == c for p in range(30) if sup >> p & 1)
                          for c in (WHITE, BLACK, RED)]
                colour = platform_colour(*counts)
                if colour in (PLAYER_COLOURS[player], RED):
                    plain.append((q, colour))
            assert due_of(pos.white, pos.black, pos.red, player) == plain
