"""Spava: full lines win, lines one short lose, red balls are safe."""
import random
from functools import lru_cache

import pytest

import shibumi.games.spava  # noqa: F401  (registers the game)
from conformance import check_playouts, check_random_games
from shibumi import IllegalMoveError, Move, NotationError, load
from shibumi.analysis import perft
from shibumi.geometry import COORDS, LEVEL, LINES, SIZES, point_at
from shibumi.position import BLACK, RED, WHITE, Position

EMPTY_UP = "|.../.../...|../..|."
RED_BOARD = "RRRR/RRRR/RRRR/RRRR"      # all 16 red balls of the set
# A full board with 11 red balls and no run of three of one colour.
BOARD = "RBRR/RRRR/RRRR/WBWB"
# The Italian newsletter's examples on level 1, over that board:
# White holds b6 and f2 (and b2, off the line); d4 completes b6-d4-f2.
# Black holds f6: d6 makes the pair d6-f6.
LEVEL1 = BOARD + "|W.B/.../W.W|../..|."
# Black holds b4: d6 makes the diagonal pair b4-d6.
DIAGONAL = BOARD + "|W../B../W.W|../..|."
# Board and level 1 full, 14 red balls, no decision for either colour:
# the whites on level 1 hold the corners, the blacks d2 and d6.
UP_TO_LEVEL1 = BOARD + "|WBW/RRR/WBW|"


def match(text, to_move, **params):
    g = load("spava", **params)
    return g.new_match(state=g.parse_state(f"{text} {to_move}"))


def outcome_after(text, to_move, move, **params):
    m = match(text, to_move, **params)
    m.push(move)
    return m.outcome()


def test_conformance():
    check_random_games("spava", forbid_losing=True)
    check_playouts("spava", games=100, forbid_losing=True)
    check_playouts("spava", games=500)


def test_newsletter_level1_line_of_three_wins():
    out = outcome_after(LEVEL1, 1, "Wd4")
    # d4 also makes the pair b2-d4, one short: the full line takes precedence.
    assert out.winners == (0,)


def test_newsletter_level1_pair_loses():
    out = outcome_after(LEVEL1, 2, "Bd6")
    assert out.winners == (0,) and "short" in out.reason


def test_newsletter_diagonal_pair_loses_or_is_forbidden():
    assert outcome_after(DIAGONAL, 2, "Bd6").winners == (0,)     # the book: Black loses
    m = match(DIAGONAL, 2, forbid_losing=True)                   # the newsletter's wording
    assert Move("Bd6") not in m.legal_moves() and Move("Rd6") in m.legal_moves()
    with pytest.raises(IllegalMoveError):
        m.push("Bd6")


@pytest.mark.parametrize("board, move, result", [
    ("..../..../..../WW..", "We1", "loss"),          # three in a row
    ("..../..../..../WW.W", "We1", "win"),           # four
    ("..../..../..../W.WW", "Wc1", "win"),
    ("..../.W../W.../....", "We7", "loss"),          # short diagonal a3-c5-e7
    ("..../..W./..W./WW.W", "We1", "win"),           # row of four and file of three
    ("..../..../..../WW..", "Re1", None),            # red is never a line
    ("..../..../..../W.W.", "Wg1", None),            # not adjacent
])
def test_board_lines(board, move, result):
    out = outcome_after(board + EMPTY_UP, 1, move)
    expected = {"win": (0,), "loss": (1,), None: None}[result]
    assert (out.winners if out else None) == expected


def test_single_balls_on_level_two_do_not_count():
    base = UP_TO_LEVEL1
    assert outcome_after(base + "../..|.", 1, "Wc3") is None      # c3.2 alone
    assert outcome_after(base + "../W.|.", 1, "We5").winners == (0,)   # diagonal pair
    assert outcome_after(base + "../W.|.", 1, "Re5") is None


def test_full_pyramid_is_a_draw():
    m = match(UP_TO_LEVEL1 + "WB/RR|.", 1)        # the 16th red is in: no red left
    assert [mv.text() for mv in m.legal_moves()] == ["Wd4.3"]
    m.push("Wd4")                                   # the apex is no line
    assert m.outcome().is_draw


# -- the supply of red balls ----------------------------------------------------

def test_red_is_offered_only_while_the_set_has_one_left():
    fifteen = match(RED_BOARD.replace("R", "W", 1) + EMPTY_UP, 1)
    assert any(mv.colour == RED for mv in fifteen.legal_moves())
    fifteen.push("Rb2")                              # the 16th red ball
    assert fifteen.state.position.count(RED) == 16
    assert all(mv.colour == BLACK for mv in fifteen.legal_moves())
    with pytest.raises(IllegalMoveError):
        fifteen.push("Rd2")
    full = match(RED_BOARD + EMPTY_UP, 1, forbid_losing=True)
    assert len(full.legal_moves()) == 9 and all(mv.colour == WHITE for mv in full.legal_moves())


def test_position_text_with_too_many_reds_is_refused():
    with pytest.raises(NotationError, match="16 red"):
        load("spava").parse_state(RED_BOARD + "|R../.../...|../..|. 2")


def test_random_games_never_use_a_seventeenth_red():
    for params in ({}, {"forbid_losing": True}):
        g = load("spava", **params)
        for seed in range(150):
            final = g.random_playout(g.initial_state(), random.Random(seed))
            assert final.position.count(RED) <= 16
            assert final.position.count(WHITE) <= 15 and final.position.count(BLACK) <= 15


# White to move, 16 reds in play, and d4.1 is the only playable point: White
# on d4 makes the pair b2-d4 (b2-d4-f6 is not full: f6 is black).
FORCED = "WBRR/RRRR/RRRR/WBWB|RRB/R.R/WRR|../..|."


def test_forced_losing_placement_when_nothing_else_is_left():
    m = match(FORCED, 1, forbid_losing=True)
    assert m.state.position.count(RED) == 16
    assert [mv.text() for mv in m.legal_moves()] == ["Wd4.1"]
    m.push("Wd4")
    assert m.outcome().winners == (1,) and "short" in m.outcome().reason
    # Without forbid_losing the move is legal anyway, with the same result.
    assert outcome_after(FORCED, 1, "Wd4").winners == (1,)


def test_a_red_left_keeps_the_losing_placement_forbidden():
    # As FORCED, but g5 is black instead of red: a red ball is left to play.
    m = match(FORCED.replace("/RRRR/WBWB", "/RRRB/WBWB"), 1, forbid_losing=True)
    assert m.state.position.count(RED) == 15
    assert [mv.text() for mv in m.legal_moves()] == ["Rd4.1"]
    assert Move("Wd4.1") in load("spava").legal_moves(m.state)


def test_finished_positions_from_text():
    g = load("spava")
    assert g.parse_state("..../..../..../WWW." + EMPTY_UP + " 2").result.winners == (1,)
    assert g.parse_state("..../..../..../WWWW" + EMPTY_UP + " 2").result.winners == (0,)
    assert g.parse_state(LEVEL1 + " 1").result is None


# -- perft and an independent brute force ------------------------------------

def _runs(length):
    """Straight runs of `length` points on levels of width length + 1, from coordinates."""
    runs = []
    for p, (lv, x, y) in enumerate(COORDS):
        if SIZES[lv] != length + 1:
            continue
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            pts = [point_at(lv, x + i * dx, y + i * dy) for i in range(length)]
            if None not in pts:
                runs.append(pts)
    return runs


SHORT = _runs(3) + _runs(2)      # board runs of 3, level-1 runs of 2


def _brute_decision(pos, colour):
    if any(all(pos.colour_at(p) == colour for p in line) for line in LINES):
        return "win"
    if any(all(pos.colour_at(p) == colour for p in run) for run in SHORT):
        return "loss"
    return None


@lru_cache(maxsize=None)
def _brute_perft(pos, mover, depth, forbid):
    if depth == 0:
        return 1
    own = (WHITE, BLACK)[mover]
    colours = (own, RED) if pos.count(RED) < 16 else (own,)
    children = []
    for p in range(30):
        if pos.is_playable(p):
            for colour in colours:
                new = pos.place(p, colour)
                children.append((new, _brute_decision(new, own) if colour == own else None))
    if forbid and any(decided != "loss" for _, decided in children):
        children = [(new, decided) for new, decided in children if decided != "loss"]
    total = 0
    for new, decided in children:
        if depth == 1:
            total += 1
        elif decided is None and new.count() < 30:
            total += _brute_perft(new, 1 - mover, depth - 1, forbid)
    return total


def test_short_runs_counted_independently():
    assert len(_runs(3)) == 24 and len(_runs(2)) == 20
    assert all(LEVEL[run[0]] in (0, 1) for run in SHORT)


def test_perft_from_the_start():
    # Hand count.  Depths 1-4: board holes only, two colours each: 32, 960,
    # 26880, 698880; no decision is possible with two balls of a colour.  Depth 5:
    # 24 moves (12 holes, 2 colours) after each of the 698880 sequences, plus the
    # top of a completed 2x2 square in 9 squares * 4! orders * 2^4 colourings,
    # in 2 colours: 698880 * 24 + 3456 * 2.
    assert [perft(load("spava"), d) for d in range(1, 6)] == \
        [32, 960, 26880, 698880, 698880 * 24 + 3456 * 2]
    assert _brute_perft(Position.empty(), 0, 3, False) == 26880


@pytest.mark.slow
def test_perft_deep():
    # Depth 6 is the first where a losing line ends games (White's third ball
    # can make three in a row).  With forbid_losing, depth 5 loses the
    # 24 runs * 3 gaps * 2 orders of White's two balls * 13 * 12 places for
    # Black's two * 4 colourings of Black's = 89856 losing white placements.
    assert perft(load("spava"), 6) == 368020992
    assert perft(load("spava", forbid_losing=True), 5) == 16780032 - 89856


@pytest.mark.parametrize("forbid", [False, True])
@pytest.mark.parametrize("seed", range(4))
def test_perft_midgame_against_brute_force(seed, forbid):
    g = load("spava", forbid_losing=forbid)
    rng = random.Random(seed)
    state = g.initial_state()
    for _ in range(10 + 3 * seed):
        nxt = g.random_step(state, rng)
        if nxt.result is not None:
            break
        state = nxt
    assert perft(g, 3, state) == _brute_perft(state.position, state.to_move, 3, forbid)


@pytest.mark.parametrize("text, to_move", [(LEVEL1, 1), (LEVEL1, 2), (DIAGONAL, 2)])
def test_perft_in_the_examples(text, to_move):
    g = load("spava")
    state = g.parse_state(f"{text} {to_move}")
    assert perft(g, 3, state) == _brute_perft(state.position, to_move - 1, 3, False)
