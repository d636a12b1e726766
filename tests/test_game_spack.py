"""Spack: hands of three colours, placement by colour, bounces and two takes; weakest colour wins."""
import random

import pytest

from conformance import (check_playouts, check_random_games, check_symmetries,
                         random_walk)
from shibumi import IllegalMoveError, NotationError, load
from shibumi.analysis import perft
from shibumi.games.spack import free_balls
from shibumi.geometry import COORDS, SYMMETRIES, transform_mask
from shibumi.notation import parse_point
from reference import ABOVE, ALL, below, cells_of, open_points

GAME = load("spack")


def texts(moves):
    return sorted(m.text() for m in moves)


def play(moves, start=None):
    m = GAME.new_match(state=start)
    for text in moves.split():
        m.push(text)
    return m


def test_conformance():
    check_random_games("spack", seeds=range(5))
    for seed in range(8):
        check_symmetries(GAME, random_walk(GAME, seed, 9 * seed + 2))



def test_fast_playouts_play_the_rules_games_with_a_turn_limit():
    """random_playout on masks ends exactly where legal_moves and apply end, the
    turn limit included (short limits end most games by it)."""
    check_playouts("spack", games=300)
    check_playouts("spack", games=150, turn_limit=40)
    check_playouts("spack", games=60, turn_limit=1)


def test_the_platforms_each_colour_may_take():
    """_under (a colour's balls under a raised point, kept by the playout ball by
    ball) gives placement_masks' platforms along random games."""
    from shibumi.bits import playable_of
    from shibumi.geometry import BOARD_MASK
    from shibumi.games.spack import _under, placement_masks
    for seed in range(30):
        s, rng = GAME.initial_state(), random.Random(seed)
        while not GAME.is_terminal(s):
            pos = s.position
            masks = (pos.white, pos.black, pos.red)
            platforms = playable_of(pos.occupied) & ~BOARD_MASK
            assert placement_masks(masks)[1] == tuple(platforms & _under(m) for m in masks)
            s = GAME.random_step(s, rng)


def test_free_balls_are_those_nothing_rests_on():
    """The bit-parallel free_balls agrees with its definition along random games."""
    from shibumi.geometry import SUPPORTED_MASK, points_of
    for seed in range(10):
        occupied = random_walk(GAME, seed, 12 * seed).position.occupied
        assert free_balls(occupied) == sum(1 << p for p in points_of(occupied)
                                           if not SUPPORTED_MASK[p] & occupied)


def test_declaration():
    info = GAME.info
    assert (info.name, info.designer, info.year) == ("Spack", "Markus Hagenauer", "2012")
    assert info.source == "Annexe 2 of the French edition of the Shibumi Rule Book"
    assert info.max_length == 900 and GAME.turn_limit == 300


def test_the_start_hands_of_eight_of_each_colour():
    s = GAME.initial_state()
    assert s.position.count() == 0 and s.hands == ((8, 8, 8), (8, 8, 8))
    assert len(GAME.legal_moves(s)) == 48                # 16 holes, 3 colours
    assert GAME.state_text(s).endswith("1 hand1=8,8,8 hand2=8,8,8 turn=0 ply=0")


# -- placement ----------------------------------------------------------------------------

def test_a_platform_takes_only_a_colour_it_holds():
    # The text's left figure: no red ball on a platform without red.
    m = play("Wa1 Wc1 Ba3 Bc3")
    b2 = parse_point("b2")
    assert texts(x for x in m.legal_moves() if x.point == b2) == ["Bb2", "Wb2"]
    with pytest.raises(IllegalMoveError):
        m.push("Rb2")
    m.push("Re1")
    assert "Rb2" not in texts(m.legal_moves())
    # Holes take any colour.
    assert {x.colour for x in m.legal_moves() if x.point == parse_point("g7")} == {1, 2, 3}


def test_a_colour_no_longer_in_hand_cannot_be_placed():
    s = GAME.parse_state("..../..../..../RRRR|.../.../...|../..|. 1 hand1=8,8,0 "
                         "hand2=8,8,12 turn=4 ply=4")
    assert not [m for m in GAME.legal_moves(s) if m.colour == 3]


# -- bounce and take ---------------------------------------------------------------------

RIGHT = "Wa1 Rc1 Ba3 Rc3"        # the text's right figure: a red on two reds


def test_a_ball_on_exactly_two_of_its_colour_bounces():
    m = play(RIGHT)
    m.push("Rb2")
    s = m.state
    assert s.position.text() == "..../..../BR../WR..|.../.../...|../..|."
    assert s.hands == ((7, 7, 7), (8, 8, 7))        # Black took the red back
    assert s.to_move == 0 and s.to_take == 2
    assert texts(GAME.legal_moves(s)) == ["xa1", "xa3", "xc1", "xc3.0"]
    m.push("xa3")
    assert m.current_player == 0
    m.push("xc1")
    s = m.state
    assert s.to_move == 1 and s.hands == ((7, 8, 8), (8, 8, 7)) and s.turn == 5
    assert s.position.text() == "..../..../.R../W...|.../.../...|../..|."


def test_one_three_or_four_of_its_colour_do_not_bounce():
    for start, ball in (("Wa1 Wc1 Wa3 Bc3", "Wb2"), ("Wa1 Wc1 Wa3 Wc3", "Wb2"),
                        ("Wa1 Bc1 Ba3 Rc3", "Wb2")):
        m = play(start)
        m.push(ball)
        assert m.state.position.colour_at(parse_point("b2")) == 1 and not m.state.to_take


def test_two_of_another_colour_do_not_bounce():
    m = play("Ba1 Bc1 Wa3 Rc3")
    m.push("Wb2")                        # two blacks, one white under it: it stays
    assert not m.state.to_take


def test_the_second_take_must_have_been_free_when_the_taking_began():
    # a1 c1 a3 c3 carry b2; c1 e1 c3 e3 (e1, e3 white) form d2, where Black puts a
    # white ball on exactly two whites. b2 is free; a1 is not (it carries b2).
    start = GAME.parse_state("..../..../WBW./WBW.|.../.../R..|../..|. 2 "
                             "hand1=4,8,7 hand2=8,6,8 turn=7 ply=7")
    m = play("Wd2", start=start)
    s = m.state
    assert s.to_take == 2 and s.takeable == free_balls(s.position.occupied)
    assert parse_point("a1") not in {x.point for x in m.legal_moves()}
    m.push("xb2")                        # a1 is free now, but was not at the start
    assert parse_point("a1") not in {x.point for x in m.legal_moves()}
    assert "xe1" in texts(m.legal_moves())


def test_after_a_bounce_at_least_two_balls_are_free():
    seen = 0
    for seed in range(40):
        rng = random.Random(seed)
        s = GAME.initial_state()
        while not GAME.is_terminal(s):
            s = GAME.apply(s, rng.choice(GAME.legal_moves(s)))
            if s.to_take == 2:
                assert s.takeable.bit_count() >= 2
                seen += 1
    assert seen > 100


# -- the end ------------------------------------------------------------------------------

def test_the_game_ends_when_the_mover_cannot_place():
    # Black holds only red balls and no hole is empty; no platform holds red.
    s = GAME.parse_state("WBWB/BWBW/WBWB/BWBW|.../.../...|../..|. 2 "
                         "hand1=8,8,8 hand2=0,0,8 turn=16 ply=16")
    assert GAME.legal_moves(s) == []
    out = GAME.outcome(s)
    assert "Black cannot place a ball" in out.reason
    assert out.winners == (0,) and out.scores == (8.0, 0.0)


def test_the_game_can_end_before_the_pyramid_is_complete():
    # Figures' source: the game may end with points still empty. Every platform here
    # is black-and-white, and White holds only red.
    s = GAME.parse_state("WBWB/BWBW/WBWB/BWBW|.../.../...|../..|. 1 "
                         "hand1=0,0,8 hand2=8,8,8 turn=16 ply=16")
    assert GAME.is_terminal(s) and s.position.count() == 16


def test_hands_are_compared_weakest_colour_first():
    c = GAME.compare
    assert c(((3, 9, 9), (4, 4, 4)), "x").winners == (1,)          # 3 against 4
    assert c(((4, 5, 9), (9, 4, 4)), "x").winners == (0,)          # 4 = 4, then 5 > 4
    assert c(((2, 5, 9), (8, 5, 2)), "x").winners == (0,)          # 2, 5 equal; 9 > 8
    out = c(((2, 5, 9), (9, 2, 5)), "x")
    assert out.is_draw and "a draw" in out.reason
    assert c(((3, 9, 9), (4, 4, 4)), "x").scores == (3.0, 4.0)


def test_the_turn_limit_ends_the_game_scored():
    game = load("spack", turn_limit=2)
    m = game.new_match()
    m.push("Wa1")
    m.push("Rc1")
    assert m.is_over() and "2 turns were played" in m.outcome().reason
    assert m.outcome().is_draw                     # 7, 8, 8 against 8, 8, 7
    with pytest.raises(Exception):
        load("spack", turn_limit=301)


# -- text, bad input, clicks --------------------------------------------------------------

def test_state_text_round_trips_mid_take():
    m = play(RIGHT + " Rb2 xa3")
    text = GAME.state_text(m.state)
    assert text.endswith("1 hand1=7,8,7 hand2=8,8,7 take=1 takeable=a1,c1,c3.0 turn=5 ply=6")
    assert GAME.state_key(GAME.parse_state(text)) == GAME.state_key(m.state)


def test_bad_input_is_refused_and_changes_nothing():
    m = play(RIGHT)
    before = m.state
    for bad in ("Rd2", "xa1", "b2>d4", "pass", "Wa1", "Rd4.3"):
        with pytest.raises((IllegalMoveError, NotationError)):
            m.push(bad)
        assert m.state is before
    m.push("Rb2")
    for bad in ("Wc5.0", "xb2", "pass", "xe5.0"):
        with pytest.raises((IllegalMoveError, NotationError)):
            m.push(bad)
    empty = "..../..../..../....|.../.../...|../..|."
    for bad in (f"{empty} 1 hand1=8,8,8 hand2=8,8,7",              # a ball missing
                f"{empty} 1 hand1=8,8 hand2=8,8,8",
                f"{empty} 1 hand1=8,8,8 hand2=8,8,8 take=1",        # nothing takeable
                f"{empty} 1 hand1=8,8,8 hand2=8,8,8 turn=3",
                f"{empty} 1 hand1=8,8,8 hand2=8,8,8 colour=W",
                "..../..../..../W...|.../.../...|../..|. 2 hand1=7,8,8 hand2=8,8,8 take=2 "
                "takeable=c1 turn=1 ply=1"):
        with pytest.raises(NotationError):
            GAME.parse_state(bad)


def test_status_lines():
    m = play(RIGHT + " Rb2")
    lines = GAME.status_lines(m.state)
    assert lines[0] == "White's hand: 7 white, 7 black, 7 red (fewest: 7)."
    assert lines[1] == "Black's hand: 8 white, 8 black, 7 red (fewest: 7)."
    assert lines[2] == "White takes 2 more free balls: a1, c1, a3, c3.0."
    assert lines[3] == "Turn 5 of 300."


def test_every_legal_move_is_played_by_clicks():
    from shibumi.interaction import Table
    t = Table(GAME, seats="human", record=RIGHT)
    rng = random.Random(3)
    for _ in range(12):
        legal = t.match.legal_moves()
        for move in legal:
            played = t.click(move.point)
            if played is None:
                options = t.options()
                assert move in options, (move, t.message)
                played = t.choose(options.index(move))
            assert played == move, (move, t.message)
            t.undo()
        t.choose(rng.choice(legal))


# -- perft, cross-checked by an independent brute force ------------------------------------
#
# The rules again on the dict-of-points model: a ball of a colour in hand on an open
# hole, or on an open upper point one of whose four supports has its colour; on
# exactly two of its colour it goes to the opponent's hand and the mover takes two
# balls among those free at that moment, one action each. The game ends when the
# player to move (outside a taking) has no placement.

_C = "WBR"


def _free(board):
    return [p for p in board if not any(q in board for q in ABOVE[p])]


def _ref_moves(board, hands, mover, take, takeable):
    """Children as (board, hands, mover, take, takeable)."""
    out = []
    if take:
        for p in sorted(takeable):
            after = dict(board)
            colour = after.pop(p)
            h = [list(x) for x in hands]
            h[mover][_C.index(colour)] += 1
            if take == 1:
                out.append((after, h, 1 - mover, 0, frozenset()))
            else:
                out.append((after, h, mover, take - 1, takeable - {p}))
        return out
    for ci, colour in enumerate(_C):
        if not hands[mover][ci]:
            continue
        for t in open_points(board):
            under = [board[b] for b in below(t)]
            if t[0] and colour not in under:
                continue
            h = [list(x) for x in hands]
            h[mover][ci] -= 1
            after = dict(board)
            if t[0] and under.count(colour) == 2:
                h[1 - mover][ci] += 1
                free = frozenset(_free(after))
                out.append((after, h, mover, 2, free))
            else:
                after[t] = colour
                out.append((after, h, 1 - mover, 0, frozenset()))
    return out


def _ref_perft(board, hands, mover, take, takeable, depth):
    if depth == 0:
        return 1
    moves = _ref_moves(board, hands, mover, take, takeable)
    return sum(_ref_perft(*child, depth - 1) for child in moves)


def _ref_state(s):
    pts = frozenset(COORDS[p] for p in range(30) if s.takeable >> p & 1)
    return cells_of(s.position), [list(h) for h in s.hands], s.to_move, s.to_take, pts


PERFT = [48, 2160, 90720]


def test_perft_matches_an_independent_brute_force():
    assert [perft(GAME, d) for d in (1, 2, 3)] == PERFT
    assert [_ref_perft(*_ref_state(GAME.initial_state()), d) for d in (1, 2)] == PERFT[:2]
    for seed, steps in ((1, 14), (2, 30), (3, 45), (4, 22), (5, 60), (6, 38)):
        s = random_walk(GAME, seed, steps)
        if GAME.is_terminal(s):
            continue
        assert [perft(GAME, d, s) for d in (1, 2, 3)] == \
            [_ref_perft(*_ref_state(s), d) for d in (1, 2, 3)], seed
    # A position in the middle of a taking.
    s = play(RIGHT + " Rb2").state
    assert [perft(GAME, d, s) for d in (1, 2, 3)] == \
        [_ref_perft(*_ref_state(s), d) for d in (1, 2, 3)]
    assert len(ALL) == 30


def test_symmetries_carry_the_takeable_balls():
    s = play(RIGHT + " Rb2").state
    for perm in SYMMETRIES:
        assert GAME.transform_state(s, perm).takeable == transform_mask(s.takeable, perm)
    check_symmetries(GAME, s)
