"""Splice: mixed lines of a player's colour and red, red-only stacking for players."""
import random
from functools import lru_cache

import pytest

import shibumi.games.splice  # noqa: F401  (registers the game)
from conformance import check_playouts
from shibumi import IllegalMoveError, Move, NotationError, load
from shibumi.analysis import perft
from shibumi.geometry import LEVEL, LINES, SUPPORTS
from shibumi.position import BLACK, RED, WHITE, Position

EMPTY_UP = "|.../.../...|../..|."
MIXED_BOARD = "BBWW/WWBB/BBWW/WRBB"     # every board line holds white and black


def match(text, to_move):
    g = load("splice")
    return g.new_match(state=g.parse_state(f"{text} {to_move}"))


def outcome_after(text, to_move, move):
    m = match(text, to_move)
    m.push(move)
    return m.outcome()


def test_white_and_red_line_wins():
    # The book's lost figure: a spanning line of white and red balls.
    row = "..../..../..../WRW." + EMPTY_UP
    assert outcome_after(row, 1, "Wg1").winners == (0,)
    assert outcome_after(row, 1, "Rg1").winners == (0,)


def test_a_line_needs_both_a_friendly_and_a_red_ball():
    assert outcome_after("..../..../..../WWW." + EMPTY_UP, 1, "Wg1") is None
    assert outcome_after("..../..../..../RRR." + EMPTY_UP, 1, "Rg1") is None
    assert outcome_after("..../..../..../RRR." + EMPTY_UP, 2, "Rg1") is None
    assert outcome_after("..../..../..../WRB." + EMPTY_UP, 1, "Rg1") is None


def test_lines_on_upper_levels():
    # Every board line holds white and black; c1 is red.  Level 1: the
    # diagonal b2-d4-f6 of white and red; level 2: the row c3.2-e3.2 on an
    # all-red level 1.
    assert outcome_after(MIXED_BOARD + "|..R/.W./...|../..|.", 1, "Wb2").winners == (0,)
    assert outcome_after(MIXED_BOARD + "|RRR/RRR/RRR|../R.|.", 2, "Be3").winners == (1,)


def test_own_colour_only_on_holes_or_platforms_with_red():
    # b2 rests on a1 c1 a3 c3: no red there, so only red may go on b2.
    m = match("..../..../WB../BW.." + EMPTY_UP, 1)
    assert Move("Rb2") in m.legal_moves() and Move("Wb2") not in m.legal_moves()
    with pytest.raises(IllegalMoveError):
        m.push("Wb2")
    m.push("Rb2")
    # With one red in the platform, both players may use it.
    m = match("..../..../WB../RW.." + EMPTY_UP, 1)
    assert Move("Wb2") in m.legal_moves()
    m = match("..../..../WB../RW.." + EMPTY_UP, 2)
    assert Move("Bb2") in m.legal_moves() and Move("Wb2") not in m.legal_moves()
    # Holes take any colour of the mover's, never the opponent's.
    assert Move("Bg7") in m.legal_moves() and Move("Wg7") not in m.legal_moves()


# a1 W, c1 R, e1 W: g1 completes White's row; g3 B, g5 R, g7 B: g1 completes
# Black's file.  A red ball on g1 completes both.
BOTH = "...B/...R/...B/WRW." + EMPTY_UP


@pytest.mark.parametrize("to_move", [1, 2])
def test_red_completing_lines_for_both_wins_for_the_mover(to_move):
    out = outcome_after(BOTH, to_move, "Rg1")
    assert out.winners == (to_move - 1,)


def test_red_completing_the_opponents_line_only_gives_them_the_win():
    out = outcome_after("..../..../..../WRW." + EMPTY_UP, 2, "Rg1")
    assert out.winners == (0,)


def test_full_pyramid_without_a_line_is_a_draw():
    # Board lines all mixed, level 1 all red (no friendly ball), level 2 two white
    # and two black (no red): nobody has a line; the apex takes red only.
    text = MIXED_BOARD + "|RRR/RRR/RRR|WB/BW|."
    m = match(text, 2)
    assert [mv.text() for mv in m.legal_moves()] == ["Rd4.3"]
    m.push("Rd4.3")
    assert m.outcome().is_draw


# -- the supply of red balls and the blocked pyramid -------------------------------

RED_BOARD = "RRRR/RRRR/RRRR/RRRR"      # all 16 red balls of the set


def test_red_is_offered_only_while_the_set_has_one_left():
    m = match("RRRR/RRRR/RRRR/RRR." + EMPTY_UP, 2)
    assert Move("Rg1") in m.legal_moves()
    m.push("Rg1")                                    # the 16th red ball
    assert [mv.colour for mv in m.legal_moves()] == [WHITE] * 9
    with pytest.raises(IllegalMoveError):
        m.push("Rb2")


def test_position_text_with_too_many_reds_is_refused():
    with pytest.raises(NotationError, match="16 red"):
        load("splice").parse_state(RED_BOARD + "|R../.../...|../..|. 2")


def test_no_ball_can_be_placed_is_a_draw():
    # An all-red board under a level 1 of white and black only: no line anywhere.
    # White's f2 fills level 1; the level-2 platforms then hold no red, and no
    # red ball is left, so neither player can place anything.
    m = match(RED_BOARD + "|WBW/BWB/WB.|../..|.", 2)
    assert Move("Bf2") in m.legal_moves() and Move("Rf2") not in m.legal_moves()
    m = match(RED_BOARD + "|WBW/BWB/WB.|../..|.", 1)
    m.push("Wf2")
    assert m.outcome().is_draw and "no ball can be placed" in m.outcome().reason
    assert m.legal_moves() == []
    for to_move in (1, 2):                           # from text, whoever is to move
        state = load("splice").parse_state(RED_BOARD + f"|WBW/BWB/WBW|../..|. {to_move}")
        assert state.result.is_draw


def test_random_games_never_use_a_seventeenth_red():
    g = load("splice")
    for seed in range(200):
        final = g.random_playout(g.initial_state(), random.Random(seed))
        assert final.position.count(RED) <= 16


def test_finished_positions_from_text():
    g = load("splice")
    assert g.parse_state("..../..../..../WRWR" + EMPTY_UP + " 2").result.winners == (0,)
    both = BOTH.replace("WRW.", "WRWR")
    assert g.parse_state(both + " 1").result.winners == (1,)      # Black moved last


# -- perft and an independent brute force -------------------------------------

def _brute_children(pos, mover):
    own = (WHITE, BLACK)[mover]
    for p in range(30):
        if pos.is_playable(p):
            if pos.count(RED) < 16:
                yield pos.place(p, RED)
            if LEVEL[p] == 0 or RED in (pos.colour_at(q) for q in SUPPORTS[p]):
                yield pos.place(p, own)


def _has_line(pos, colour):
    for line in LINES:
        colours = {pos.colour_at(p) for p in line}
        if colours == {colour, RED}:
            return True
    return False


def _finished(pos, mover):
    return (_has_line(pos, (WHITE, BLACK)[mover]) or _has_line(pos, (BLACK, WHITE)[mover])
            or pos.count() == 30 or not any(_brute_children(pos, 1 - mover)))


@lru_cache(maxsize=None)
def _brute_perft(pos, mover, depth):
    if depth == 0:
        return 1
    return sum(1 if depth == 1 else
               0 if _finished(new, mover) else _brute_perft(new, 1 - mover, depth - 1)
               for new in _brute_children(pos, mover))


def test_perft_from_the_start():
    # Hand count.  Depths 1-4 use board holes only (no platform is complete
    # before four balls): 16*2, then 15*2, 14*2, 13*2.  Depth 5: 698880 - 1440
    # live positions (1440 = 10 lines * 4! orders * 6 colourings where a red
    # ball by the opponent completes a line) with 12 holes * 2 colours each, plus
    # the 9 * 4! * 2^4 = 3456 orders that fill a 2x2 square, whose top takes
    # red in all of them and White in the 9 * 4! * 15 = 3240 holding a red.
    assert [perft(load("splice"), d) for d in range(1, 6)] == \
        [32, 960, 26880, 698880, 697440 * 24 + 3456 + 3240]
    assert _brute_perft(Position.empty(), 0, 3) == 26880


@pytest.mark.parametrize("seed", range(6))
def test_perft_midgame_against_brute_force(seed):
    g = load("splice")
    rng = random.Random(seed)
    state = g.initial_state()
    for _ in range(12 + 2 * seed):
        nxt = g.random_step(state, rng)
        if nxt.result is not None:
            break
        state = nxt
    assert perft(g, 3, state) == _brute_perft(state.position, state.to_move, 3)


@pytest.mark.parametrize("to_move", [1, 2])
def test_perft_on_the_platforms_against_brute_force(to_move):
    # A full board with one red: nine platforms, only four of them open to the
    # players' own colours at first.
    state = load("splice").parse_state(f"{MIXED_BOARD}{EMPTY_UP} {to_move}")
    assert perft(load("splice"), 3, state) == _brute_perft(state.position, to_move - 1, 3)


@pytest.mark.parametrize("to_move", [1, 2])
def test_perft_into_a_blocked_pyramid_against_brute_force(to_move):
    # Three level-1 points left open over an all-red board: once they are
    # filled the pyramid is blocked (no red left, no red platform above).
    state = load("splice").parse_state(RED_BOARD + f"|WBW/BW./B..|../..|. {to_move}")
    assert state.result is None
    assert perft(load("splice"), 4, state) == _brute_perft(state.position, to_move - 1, 4)


def test_fast_playouts_play_the_rules_games():
    # More seeds than the shared conformance test: red runs out only in long games.
    check_playouts("splice", games=1000)
