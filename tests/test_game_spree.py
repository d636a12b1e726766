"""Spree: the hand-over turn, the barred colour, white+red and black+red lines."""
import random
from functools import lru_cache

import pytest

import shibumi.games.spree  # noqa: F401  (registers the game)
from conformance import check_playouts
from shibumi import IllegalMoveError, load
from shibumi.analysis import perft
from shibumi.games.spree import SpreeState
from shibumi.geometry import LINES
from shibumi.position import BLACK, RED, WHITE, Position

EMPTY_UP = "|.../.../...|../..|."
# Every board line holds both white and black, so none can win.
MIXED_BOARD = "BBWW/WWBB/BBWW/WWBB"
# The Italian newsletter's example, rebuilt: level 1 holds b6 white, f6 red and
# f4 white, so a white or red ball on d6 (row b6-d6-f6) or on f2 (file
# f2-f4-f6) wins.  Player 1 has just handed Player 2 a black ball.
THREATS = MIXED_BOARD + "|W.R/..W/...|../..|."


def game():
    return load("spree")


def match(text, to_move, extras):
    return game().new_match(state=game().parse_state(f"{text} {to_move} {extras}"))


def test_player_one_hands_first_and_the_other_places():
    m = game().new_match()
    assert m.current_player == 0
    assert [mv.text() for mv in m.legal_moves()] == ["=W", "=B", "=R"]
    m.push("=R")
    assert m.current_player == 1
    assert {mv.colour for mv in m.legal_moves()} == {RED} and len(m.legal_moves()) == 16
    m.push("a1")                                    # Player 2 places the red ball...
    assert m.current_player == 1                    # ...and now hands one back
    assert [mv.text() for mv in m.legal_moves()] == ["=W", "=B"]
    with pytest.raises(IllegalMoveError):
        m.push("=R")                                # red was just placed
    m.push("=B")
    assert m.current_player == 0 and m.legal_moves()[0].colour == BLACK
    with pytest.raises(IllegalMoveError):
        m.push("Wc1")                               # only the handed colour
    m.push("c1")
    assert game().state_text(m.state).endswith(" 1 barred=B")
    assert game().length(m.state) == 4


def test_state_text():
    g = game()
    assert g.state_text(g.initial_state()).endswith(" 1 barred=-")
    s = g.parse_state(f"{THREATS} 2 hand=B")
    assert s == SpreeState(Position(THREATS), 1, None, None, BLACK, None)
    for bad in ("", "hand=-", "barred=X", "hand=W barred=B"):
        with pytest.raises(Exception):
            g.parse_state(f"{THREATS} 2 {bad}")


def test_newsletter_example_two_threats_cannot_both_be_stopped():
    m = match(THREATS, 2, "hand=B")
    m.push("f2")                                     # Player 2 blocks the file
    assert [mv.text() for mv in m.legal_moves()] == ["=W", "=R"]   # black is barred
    for colour in ("=W", "=R"):
        m.push(colour)
        m.push("d6")                                 # the row b6-d6-f6 is complete
        assert m.outcome().winners == (0,)
        m.pop()
        m.pop()


def test_every_black_placement_loses_in_the_example():
    g = game()
    state = g.parse_state(f"{THREATS} 2 hand=B")
    for place in g.legal_moves(state):
        after = g.apply(state, place)
        assert after.result is None
        for hand in g.legal_moves(after):
            handed = g.apply(after, hand)
            assert any(g.apply(handed, mv).result.winners == (0,)
                       for mv in g.legal_moves(handed) if g.apply(handed, mv).result)


@pytest.mark.parametrize("row, hand, wins", [
    ("WWW.", "W", True),    # red is optional
    ("WRW.", "R", True),
    ("BRR.", "B", True),
    ("RRR.", "B", True),
    ("RRR.", "R", False),   # an all-red line counts for nobody
    ("WBW.", "W", False),   # white and black never mix
    ("WRB.", "R", False),
])
def test_lines_of_one_colour_and_red(row, hand, wins):
    for placer in (1, 2):                            # colours belong to nobody
        m = match("..../..../..../" + row + EMPTY_UP, placer, f"hand={hand}")
        m.push("g1")
        assert (m.outcome().winners if m.outcome() else None) == \
            ((placer - 1,) if wins else None)


def test_full_pyramid_without_a_line_is_a_draw():
    # All-red level 1 and level 2 make no line; the apex completes the pyramid.
    m = match(MIXED_BOARD + "|RRR/RRR/RRR|RR/RR|.", 1, "hand=W")
    m.push("d4")
    assert m.outcome().is_draw


def test_finished_position_from_text():
    s = game().parse_state("..../..../..../WRWR" + EMPTY_UP + " 2 barred=R")
    assert s.result.winners == (1,)                  # Player 2 placed last


# -- perft --------------------------------------------------------------------

def _brute_children(pos, to_move, hand, barred):
    if hand is None:
        for colour in (WHITE, BLACK, RED):
            if colour != barred:
                yield pos, 1 - to_move, colour, None, False
        return
    for p in range(30):
        if pos.is_playable(p):
            yield pos.place(p, hand), to_move, None, hand, True


def _won(pos):
    for line in LINES:
        colours = {pos.colour_at(p) for p in line}
        if colours <= {WHITE, RED} and WHITE in colours or \
                colours <= {BLACK, RED} and BLACK in colours:
            return True
    return False


@lru_cache(maxsize=None)
def _brute_perft(pos, to_move, hand, barred, depth):
    if depth == 0:
        return 1
    total = 0
    for new, player, new_hand, new_barred, placed in _brute_children(pos, to_move, hand, barred):
        if depth > 1 and placed and (_won(new) or new.count() == 30):
            continue
        total += _brute_perft(new, player, new_hand, new_barred, depth - 1)
    return total


def test_perft_from_the_start():
    # Hand count: 3 colours to hand; 16 holes; 2 colours (the one just placed is
    # barred); 15 holes; and so on: 3, 48, 96, 1440, 2880, 40320, 80640,
    # 80640*13.  At depth 8 four balls fill a board line in 10 * 4! * 4 = 960
    # ways that win (colours alternate, so W R W R, R W R W, B R B R, R B R B),
    # and those games end: depth 9 is 2 * (1048320 - 960).
    expected = [3, 48, 96, 1440, 2880, 40320, 80640, 1048320, 2 * (1048320 - 960)]
    assert [perft(game(), d) for d in range(1, 10)] == expected
    assert _brute_perft(Position.empty(), 0, None, None, 5) == 2880


@pytest.mark.parametrize("seed", range(5))
def test_perft_midgame_against_brute_force(seed):
    g = game()
    rng = random.Random(seed)
    state = g.initial_state()
    for _ in range(20 + 4 * seed):
        nxt = g.random_step(state, rng)
        if nxt.result is not None:
            break
        state = nxt
    assert perft(g, 6, state) == _brute_perft(state.position, state.to_move, state.hand,
                                              state.barred, 6)


def test_perft_in_the_example():
    state = game().parse_state(f"{THREATS} 2 hand=B")
    assert perft(game(), 6, state) == _brute_perft(state.position, 1, BLACK, None, 6)


def test_the_fast_playout_plays_the_rules_games():
    check_playouts("spree", games=1000)
