"""Spava: full lines win, lines one short lose, red balls are safe."""
import random
from functools import lru_cache

import pytest

import shibumi.games.spava  # noqa: F401  (registers the game)
from conformance import check_declaration, check_playouts, check_random_games
from shibumi import IllegalMoveError, Move, load
from shibumi.analysis import perft
from shibumi.geometry import COORDS, LEVEL, LINES, SIZES, point_at
from shibumi.position import BLACK, RED, WHITE, Position

EMPTY_UP = "|.../.../...|../..|."
RED_BOARD = "RRRR/RRRR/RRRR/RRRR"
# The Italian newsletter's examples on level 1, over an all-red board:
# White holds b6 and f2 (and b2, off the line); d4 completes b6-d4-f2.
# Black holds f6: d6 makes the pair d6-f6.
LEVEL1 = RED_BOARD + "|W.B/.../W.W|../..|."
# Black holds b4: d6 makes the diagonal pair b4-d6.
DIAGONAL = RED_BOARD + "|W../B../W.W|../..|."


def match(text, to_move, **params):
    g = load("spava", **params)
    return g.new_match(state=g.parse_state(f"{text} {to_move}"))


def outcome_after(text, to_move, move, **params):
    m = match(text, to_move, **params)
    m.push(move)
    return m.outcome()


def test_conformance():
    check_declaration("spava")
    check_random_games("spava")
    check_playouts("spava")
    check_random_games("spava", forbid_losing=True)
    check_playouts("spava", games=100, forbid_losing=True)


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
    base = RED_BOARD + "|RRR/RRR/RRR|"
    assert outcome_after(base + "../..|.", 1, "Wc3") is None      # c3.2 alone
    assert outcome_after(base + "../W.|.", 1, "We5").winners == (0,)   # diagonal pair
    assert outcome_after(base + "../W.|.", 1, "Re5") is None


def test_full_pyramid_is_a_draw():
    m = match(RED_BOARD + "|RRR/RRR/RRR|WB/RR|.", 1)
    m.push("Wd4")                                   # the apex is no line
    assert m.outcome().is_draw


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
    total = 0
    for p in range(30):
        if not pos.is_playable(p):
            continue
        for colour in (own, RED):
            new = pos.place(p, colour)
            decided = _brute_decision(new, own) if colour == own else None
            if forbid and decided == "loss":
                continue
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
