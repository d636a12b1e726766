"""Spice: one or two balls a turn, removals after a new record, largest group wins."""
import random

import pytest
from hypothesis import given, strategies as st

import shibumi.games.spice  # noqa: F401  (registers the game)
from conformance import check_playouts, check_symmetries, random_walk
from shibumi import IllegalMoveError, Move, UnknownGameError, load
from shibumi.analysis import perft
from shibumi.games.spice import group_sizes, largest_group
from shibumi.geometry import INTERIOR_MASK
from shibumi.notation import parse_point
from shibumi.position import BLACK, EMPTY, RED, WHITE, Position
from reference import below as _below, ALL as _ALL, ABOVE as _ABOVE

START = "..../.RR./.RR./....|.../.R./...|../..|."


def state(text, to_move=1, extras="ply=9", **params):
    return load("spice", **params).parse_state(f"{text} {to_move} {extras}")


def match_at(text, to_move=1, extras="ply=9", **params):
    return load("spice", **params).new_match(state=state(text, to_move, extras, **params))


def test_conformance():
    check_playouts("spice", games=600)


def test_start_has_five_red_balls_on_the_interior_points():
    s = load("spice").initial_state()
    assert s.position == Position(START) and s.position.red == INTERIOR_MASK


def test_the_first_turn_places_one_ball_then_black_may_remove():
    m = load("spice").new_match()
    assert all(mv.kind == "place" for mv in m.legal_moves())    # no pass, no removal
    m.push("a1")
    assert m.current_player == 1                                # one ball only
    # White's lone ball is a group of 1 where there was none: a new record.
    removals = sorted(mv.text() for mv in m.legal_moves() if mv.kind == "remove")
    assert removals == ["xa1", "xc3.0", "xc5.0", "xd4.1", "xe3.0", "xe5.0"]
    assert Move("pass") not in m.legal_moves()


def test_a_removal_drops_the_ball_above_and_the_mover_must_then_place():
    m = load("spice").new_match()
    m.push("a1")
    m.push("xc3.0")
    pos = m.state.position
    assert pos.colour_at(parse_point("c3.0")) == RED            # d4 fell into c3
    assert pos.colour_at(parse_point("d4.1")) == EMPTY
    assert pos.is_playable(parse_point("d4.1"))
    legal = m.legal_moves()
    assert legal and all(mv.kind == "place" and mv.colour == BLACK for mv in legal)
    m.push("d4.1")
    assert Move("pass") in m.legal_moves()                      # one ball is enough
    m.push("c1")                                                # or a second
    assert m.current_player == 0


def test_a_turn_places_one_or_two_balls_and_removal_only_opens_it():
    m = match_at(START, 2, "ply=1 record=1 remove")
    m.push("g7")
    assert not any(mv.kind == "remove" for mv in m.legal_moves())
    with pytest.raises(IllegalMoveError):
        m.push("xa1")
    m.push("pass")
    assert m.current_player == 0
    with pytest.raises(IllegalMoveError):
        m.push("pass")                                          # place first


# White a1 c1 (a group of 2), Black a7 c7 (2); the record is 2.
TWO_TWO = "BB../.RR./.RR./WW..|.../.R./...|../..|."


def test_beating_the_record_gives_the_opponent_a_removal():
    m = match_at(TWO_TWO, 1, "ply=8 record=2")
    m.push("e1")                                                # a1-c1-e1: 3 > 2
    m.push("pass")
    assert m.state.may_remove and m.state.record == 3
    assert any(mv.kind == "remove" for mv in m.legal_moves())


def test_no_new_record_no_removal():
    m = match_at(TWO_TWO, 1, "ply=8 record=2")
    m.push("g7")
    m.push("g1")                                                # still 2 at most
    assert not m.state.may_remove
    assert not any(mv.kind == "remove" for mv in m.legal_moves())


def test_the_record_counts_groups_of_either_colour():
    # Black already has a row of 4: White's new group of 3 beats its own best
    # but not the board's, so Black gets no removal.
    m = match_at("BBBB/.RR./.RR./WW..|.../.R./...|../..|.", 1, "ply=8 record=4")
    m.push("e1")
    m.push("pass")
    assert largest_group(m.state.position) == 4
    assert not m.state.may_remove


def test_the_record_is_the_one_at_the_start_of_the_turn_before_the_removal():
    # White may remove. Taking c7 breaks Black's 4 into 1 + 2; White then
    # makes a 4 of its own. That equals the 4 on the board when the turn
    # began, so it is no new record, although it beats what was left after
    # the removal.
    m = match_at("BBBB/.RR./.RR./WWW.|.../.R./...|../..|.", 1, "ply=8 record=4 remove")
    m.push("xc7")
    assert largest_group(m.state.position) == 3
    m.push("g1")
    m.push("pass")
    assert largest_group(m.state.position) == 4 and not m.state.may_remove


def test_pinned_balls_cannot_be_removed():
    # b4 and f4 on level 1 with the red d4: every red centre hole holds two balls.
    s = state("WBWB/BRRW/WRRB/BWBW|.../WRB/...|../..|.", 1, "ply=20 record=3 remove")
    game = load("spice")
    removable = {mv.point for mv in game.legal_moves(s) if mv.kind == "remove"}
    for name in ("c3.0", "c5.0", "e3.0", "e5.0"):               # each holds two balls
        assert parse_point(name) not in removable
    assert parse_point("d4.1") in removable and parse_point("a3") in removable
    with pytest.raises(IllegalMoveError):
        game.new_match(state=s).push("xc3.0")


# -- the end -----------------------------------------------------------------

def test_the_book_example_white_8_black_6():
    # A finished game from random play with the book's scores (figure lost).
    s = state("BWWB/WRRB/WRRB/BWWW|BWW/BRB/WWB|WB/BW|W", 2, "ply=44")
    assert s.result.winners == (0,) and s.result.scores == (8.0, 6.0)


def test_the_apex_is_taken_off_before_counting():
    text = "WBBB/BRRW/BRRW/BWWB|BWB/WWB/BWW|BW/WW|B"
    pos = Position(text)
    # With the black apex, Black's group is the largest (12 against 11)...
    assert largest_group(pos) == 12 and pos.colour_at(29) == BLACK
    # ...but off it comes, uncovering the white d4 of level 1: White 12, Black 11.
    result = state(text, 1, "ply=40").result
    assert result.winners == (0,) and result.scores == (12.0, 11.0)


def test_ties_go_to_the_next_largest_groups_or_draw_in_the_variant():
    text = "BBWB/WRRB/BRRW/WBWB|BBW/WRW/WBB|WB/BW|W"
    result = state(text, 2, "ply=35").result
    assert result.scores == (5.0, 5.0) and result.winners == (1,)
    assert state(text, 2, "ply=35", tiebreak="draw").result.is_draw
    with pytest.raises(UnknownGameError):
        load("spice", tiebreak="coin")


def test_a_placement_that_completes_the_pyramid_ends_the_game_at_once():
    m = match_at("WBBB/BRRW/BRRW/BWWB|BWB/WWB/BWW|BW/WW|.", 2, "ply=39 record=12")
    m.push("d4.3")
    assert m.is_over() and m.legal_moves() == []


@given(st.integers(0, 2 ** 32))
def test_no_turn_lowers_the_ball_count_and_games_end_within_the_bound(seed):
    game = load("spice")
    rng = random.Random(seed)
    s = game.initial_state()
    balls = s.position.count()
    while not game.is_terminal(s):
        mover, removed = s.to_move, False
        while s.to_move == mover and not game.is_terminal(s):    # one whole turn
            s = game.apply(s, rng.choice(game.legal_moves(s)))
            removed |= s.last.kind == "remove"
        assert s.position.count() >= balls + (0 if removed else 1)
        balls = s.position.count()
    assert s.position.count() == 30 and game.length(s) <= game.info.max_length


@given(st.integers(0, 2 ** 32), st.integers(0, 40))
def test_all_eight_symmetries_keep_moves_and_results(seed, steps):
    game = load("spice")
    check_symmetries(game, random_walk(game, seed, steps), range(8))


# -- perft, cross-checked by an independent brute force ---------------------
#
# By hand: depth 1 is the 12 edge holes. At depth 2 White's single ball is a
# record (1 > 0), so Black has 11 placements and 6 removals (the white ball,
# the four red centre holes, each holding only d4, and d4 itself): 12 * 17 =
# 204. The brute force below shares no code with the engine: a dict from
# (level, x, y) to colour, its own drops, its own visible groups.


def _flat(a, b):
    return a[0] == b[0] and abs(a[1] - b[1]) + abs(a[2] - b[2]) == 1


def _sees(board, a, b):
    if not (_flat(a, b) or a in _below(b) or b in _below(a)):
        return False
    if any((lv + 2, x - 1, y - 1) in board for lv, x, y in (a, b)):
        return False
    over = [q for q in _ABOVE[a] if q in _ABOVE[b]] if _flat(a, b) else []
    return not (len(over) == 2 and all(q in board for q in over))


def _largest(board):
    best = 0
    for colour in "WB":
        left = {pt for pt, c in board.items() if c == colour
                and (pt[0] + 2, pt[1] - 1, pt[2] - 1) not in board}
        while left:
            todo = [left.pop()]
            size = 1
            while todo:
                a = todo.pop()
                for b in [b for b in left if _sees(board, a, b)]:
                    left.discard(b)
                    todo.append(b)
                    size += 1
            best = max(best, size)
    return best


def _brute(board, mover, record, placed, may_remove, opening, depth):
    if depth == 0:
        return 1
    colour, other = ("W", "B") if mover == 0 else ("B", "W")
    total = 0

    def end_turn(new):
        big = _largest(new)
        return _brute(new, 1 - mover, big, 0, big > record, False, depth - 1)

    if placed:
        total += end_turn(board)                                 # pass
    if may_remove and not placed:
        for pt in list(board):
            if sum(q in board for q in _ABOVE[pt]) > 1:
                continue
            new = dict(board)
            del new[pt]
            gap = pt
            while [q for q in _ABOVE[gap] if q in new]:
                up = [q for q in _ABOVE[gap] if q in new][0]
                new[gap] = new.pop(up)
                gap = up
            total += _brute(new, mover, record, 0, False, False, depth - 1)
    for pt in _ALL:
        if pt in board or not all(b in board for b in _below(pt)):
            continue
        new = dict(board)
        new[pt] = colour
        if len(new) == 30:
            total += depth == 1
        elif placed or opening:
            total += end_turn(new)
        else:
            total += _brute(new, mover, record, 1, False, False, depth - 1)
    return total


PERFT = [12, 204, 2324, 25928, 266696]


def test_perft_matches_a_hand_count_and_an_independent_brute_force():
    game = load("spice")
    assert [perft(game, d) for d in range(1, 6)] == PERFT
    assert PERFT[:2] == [12, 12 * (11 + 6)]
    reds = {(0, 1, 1): "R", (0, 2, 1): "R", (0, 1, 2): "R", (0, 2, 2): "R", (1, 1, 1): "R"}
    assert [_brute(reds, 0, 0, 0, False, True, d) for d in range(1, 5)] == PERFT[:4]


def test_balls_hidden_under_level_two_are_left_out_of_the_tie_break():
    """The position an independent check found: a buried ball is in no group."""
    position = Position("WBBW/BBWW/BRBW/BWWW|BBB/WBB/BWW|BW/WW|W")
    hidden = position.hidden()
    for colour in (WHITE, BLACK):
        mine = position.mask(colour)
        assert sum(group_sizes(position, colour)) == (mine & ~hidden).bit_count()
    buried = (position.white | position.black) & hidden
    assert buried                                  # so some balls count for nobody


def test_fast_playouts_agree_when_ties_are_draws():
    check_playouts("spice", games=100, tiebreak="draw")
