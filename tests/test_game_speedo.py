"""Speedo pinned down: the three-part turn, drops, visible scoring, the example, perft."""
import functools
import random

import pytest
from hypothesis import given, strategies as st

from conformance import (check_playouts, check_random_games,
                         check_symmetries, random_walk)
from shibumi import IllegalMoveError, NotationError, load
from shibumi.analysis import perft
from shibumi.game import Game
from shibumi.games.spao import product
from shibumi.games.speedo import ACTIONS, movable_bits, visible_sizes
from shibumi.geometry import ALL_MASK, APEX, INTERIOR_MASK, points_of
from shibumi.notation import parse_point, point_name
from shibumi.position import BLACK, RED, WHITE, Position
from reference import ABOVE, ALL, below, cells_of, open_points, touch

GAME = load("speedo")
CENTRE = 1 << parse_point("d4.1")

#: A position of our own for the rule book's example (figure lost): Red to
#: make the final move, everything filled but the apex. Counting the level-1
#: centre (black) as the text says it does not, the groups are exactly the
#: listed ones: White 2, 2, 6; Black 3, 5; Red 1, 1, 1, 2, 2.
EXAMPLE = "BWBW/BWWW/RRRR/WWRW|WRB/BBB/RWW|RB/WR|. 3"


def match_at(text):
    return GAME.new_match(state=GAME.parse_state(text))


def texts(moves):
    return sorted(m.text() for m in moves)


# -- conformance ---------------------------------------------------------------------

def test_conformance():
    check_random_games("speedo", seeds=range(25))
    check_playouts("speedo", games=400)


def test_movable_balls_are_those_under_at_most_one_ball():
    rng = random.Random(5)
    for _ in range(300):
        position = Position()
        for _ in range(rng.randrange(31)):
            position = position.place(rng.choice(points_of(position.playable())), WHITE)
        occupied = position.occupied
        plain = sum(1 << p for p in points_of(occupied)     # ALL lists the points in order
                    if sum(occupied >> ALL.index(q) & 1 for q in ABOVE[ALL[p]]) <= 1)
        assert movable_bits(occupied) == plain
    info = GAME.info
    assert (info.min_players, info.max_players, info.family) == (3, 3, "Counting")
    assert info.max_length == ACTIONS == 88


@given(st.integers(0, 2 ** 32), st.integers(0, 88))
def test_symmetries_keep_moves_and_results(seed, steps):
    s = random_walk(GAME, seed, steps)
    assert GAME.symmetries == tuple(range(8))
    for image in check_symmetries(GAME, s):
        again = GAME.parse_state(GAME.state_text(image))
        assert GAME.state_key(again) == GAME.state_key(image)


def test_the_fast_playout_plays_the_generic_games():
    for seed in range(15):
        fast = GAME.random_playout(GAME.initial_state(), random.Random(seed))
        slow = Game.random_playout(GAME, GAME.initial_state(), random.Random(seed))
        assert fast == slow


# -- length and turn order -------------------------------------------------------------

def test_every_game_lasts_exactly_thirty_moves_and_red_makes_the_last():
    rng = random.Random(4)
    for _ in range(25):
        s, actions, starts = GAME.initial_state(), 0, []
        while not GAME.is_terminal(s):
            if not s.pending:
                starts.append(s.to_move)               # a move (turn) begins
            s = GAME.apply(s, rng.choice(GAME.legal_moves(s)))
            actions += 1
            assert GAME.length(s) == actions
        assert len(starts) == 30 and GAME.moves_played(s) == 30
        assert starts == [0, 1, 2] * 10 and starts[-1] == 2
        assert actions == 88 == GAME.info.max_length
        assert s.position.occupied == ALL_MASK


def test_white_opens_with_one_white_ball_in_a_hole():
    m = GAME.new_match()
    assert texts(m.legal_moves()) == sorted("W" + point_name(p) for p in range(16))
    m.push("c3")
    assert m.current_player == 1 and GAME.moves_played(m.state) == 1
    assert texts(m.legal_moves()) == ["xc3.0"]           # Black must take it away
    m.push("xc3")
    assert m.state.position.count() == 0 and m.current_player == 1
    assert {mv.text()[0] for mv in m.legal_moves()} == {"B", "R"}
    m.push("Ra1")
    assert texts(m.legal_moves()) == sorted("B" + point_name(p) for p in range(1, 16))
    m.push("c1")
    assert m.current_player == 2 and m.state.position.text().endswith("RB..|.../.../...|../..|.")


def test_a_turn_removes_one_colour_and_places_the_other_two():
    m = GAME.new_match()
    for move in ("a1", "xa1", "Bc1", "Re1", "xe1"):      # Red takes its own ball
        m.push(move)
    assert m.current_player == 2 and m.state.pending == (WHITE, BLACK)
    assert {mv.text()[0] for mv in m.legal_moves()} == {"W", "B"}
    before = m.state
    for bad in ("Rg1", "Bc1", "xa3", "b2"):               # removed colour, taken, ...
        with pytest.raises((IllegalMoveError, NotationError)):
            m.push(bad)
    assert m.state == before
    m.push("Bg1")
    assert {mv.text()[0] for mv in m.legal_moves()} == {"W"} and m.current_player == 2
    m.push("g7")
    assert m.current_player == 0 and m.state.pending == ()
    assert [m.state.position.count(c) for c in (WHITE, BLACK, RED)] == [1, 2, 0]


def test_the_second_ball_may_rest_on_a_platform_the_first_completes():
    m = match_at("..../..../B.../WR..|.../.../...|../..|. 2 place=BR")
    assert "Bb2" not in texts(m.legal_moves())
    m.push("Bc3")
    assert texts(m.legal_moves()) == sorted("R" + n for n in (
        "b2", "e1", "g1", "e3.0", "g3", "a5", "c5.0", "e5.0", "g5", "a7", "c7", "e7", "g7"))
    m.push("Rb2")
    assert m.state.position.colour_at(parse_point("b2")) == RED


# -- removal ---------------------------------------------------------------------------

def test_only_balls_under_at_most_one_ball_can_be_taken_away():
    m = match_at(EXAMPLE)
    movable = texts(m.legal_moves())
    # 29 balls: the board corners, the level-1 corners and level 2 (the 4 corner columns)
    assert movable == sorted("x" + n for n in (
        "a1", "g1", "a7", "g7", "b2", "f2", "b6", "f6", "c3.2", "e3.2", "c5.2", "e5.2"))
    for pinned in ("xc1", "xd4.1", "xc3.0", "xb4"):
        with pytest.raises(IllegalMoveError):
            m.push(pinned)
    assert movable_bits(ALL_MASK & ~(1 << APEX)) == sum(
        1 << parse_point(t[1:]) for t in movable)


def test_taking_a_corner_ball_drops_its_column_and_the_gap_fills_from_the_top():
    m = match_at(EXAMPLE)
    pos = m.state.position
    column = [pos.colour_at(parse_point(n)) for n in ("g1", "f2", "e3.2")]
    m.push("xg1")
    after = m.state.position
    assert [after.colour_at(parse_point(n)) for n in ("g1", "f2")] == column[1:]
    assert after.colour_at(parse_point("e3.2")) == 0
    assert points_of(after.playable()) == [parse_point("e3.2")]
    assert m.state.pending == (BLACK, RED)            # a white ball went
    m.push("Re3.2")
    assert texts(m.legal_moves()) == ["Bd4.3"]        # then the apex, on top of it
    m.push("d4")
    assert m.is_over()


def test_a_new_ball_may_go_on_a_dropped_ball():
    m = match_at("..../..../BW../RW..|.../.../B..|../..|. 3")
    m.push("xa1")                                      # b2 (black) drops into a1
    pos = m.state.position
    assert pos.colour_at(parse_point("a1")) == BLACK and pos.count() == 4
    assert "Wb2" in texts(m.legal_moves())
    m.push("Wb2")
    assert m.state.position.colour_at(parse_point("b2")) == WHITE


def test_the_last_turn_always_fills_a_level_two_point_then_the_apex():
    for seed in range(10):
        s = random_walk(GAME, seed, 85)                # Red's last turn is about to begin
        assert s.position.count() == 29 and s.to_move == 2 and not s.pending
        for removal in GAME.legal_moves(s):
            after = GAME.apply(s, removal)
            spots = points_of(after.position.playable())
            assert len(spots) == 1 and 25 <= spots[0] <= 28


# -- scoring -----------------------------------------------------------------------------

def test_only_visible_balls_and_contacts_count():
    # A full pyramid: white everywhere on the board and level 2, black on level 1
    # and the apex. White's 12 visible board balls make a ring (the centres are
    # hidden), its level-2 balls a square of four that the black apex does not cut.
    text = "WWWW/WWWW/WWWW/WWWW|BBB/BBB/BBB|WW/WW|B"
    s = GAME.parse_state(text + " 1")
    assert visible_sizes(s.position, WHITE) == [12, 4]
    assert GAME.outcome(s).scores == (48.0, 8.0, 0.0)        # black: 8 edges of level 1
    assert GAME.outcome(s).winners == (0,)
    # Counting everything, as Spao does, the hidden centres would join the ring.
    assert [g.bit_count() for g in s.position.groups(WHITE, visible_only=False)] == [16, 4]
    assert visible_sizes(s.position, BLACK) == [8, 1]   # the apex touches only white


def test_a_player_without_a_visible_ball_scores_nothing():
    white = ALL_MASK & ~INTERIOR_MASK & ~(1 << APEX)
    s = GAME.parse_state(Position.from_masks(white, 1 << APEX, INTERIOR_MASK).text() + " 1")
    outcome = GAME.outcome(s)
    assert s.position.count(RED) == 5 and outcome.scores[2] == 0.0
    assert outcome.scores[1] == 1.0 and outcome.winners == (0,)
    assert outcome.ranking == ((0,), (1,), (2,))


def test_ties_for_the_top_are_shared():
    rng = random.Random(8)
    shared = 0
    for _ in range(300):
        final = GAME.random_playout(GAME.initial_state(), rng)
        outcome = GAME.outcome(final)
        top = max(outcome.scores)
        assert outcome.winners == tuple(p for p in range(3) if outcome.scores[p] == top)
        expected = [product(visible_sizes(final.position, c)) for c in (WHITE, BLACK, RED)]
        assert outcome.scores == tuple(float(x) for x in expected)
        shared += len(outcome.winners) > 1
    assert 5 <= shared <= 40                           # about one game in sixteen


def test_the_supply_of_sixteen_balls_a_colour_is_rarely_exceeded():
    rng = random.Random(2)
    over = sum(max(f.position.count(c) for c in (WHITE, BLACK, RED)) > 16
               for f in (GAME.random_playout(GAME.initial_state(), rng) for _ in range(1000)))
    assert 1 <= over <= 30                             # about one game in a hundred


# -- the rule book's example ----------------------------------------------------------

def test_the_example_lists_more_balls_than_can_be_counted():
    listed = {"White": [2, 2, 6], "Black": [3, 5], "Red": [1, 1, 1, 2, 2]}
    assert sum(map(sum, listed.values())) == 25
    assert product(listed["White"]) == 24 != 16          # the text prints 16
    assert product(listed["Black"]) == 15 and product(listed["Red"]) == 4
    # Before the last move every point but the apex is filled; without the
    # level-1 centre, which the apex will bury, 24 balls can be counted.
    before_last = ALL_MASK & ~(1 << APEX)
    countable = Position.from_masks(before_last).visible() & ~CENTRE
    assert countable.bit_count() == 24
    # Red's list agrees with its final 2 x 3 x 3: seven reds, plus the one placed.
    assert sum(listed["Red"]) + 1 == 2 + 3 + 3


def test_our_example_position_red_has_one_winning_result():
    s = GAME.parse_state(EXAMPLE)
    pos = s.position
    assert s.to_move == 2 and pos.count() == 29
    with_centre = [visible_sizes(pos, c) for c in (WHITE, BLACK, RED)]
    assert with_centre == [[6, 2, 2], [5, 3], [2, 2, 1, 1, 1]]
    assert pos.colour_at(parse_point("d4.1")) == BLACK
    by_the_rule = [visible_sizes(pos, c, ignore=CENTRE) for c in (WHITE, BLACK, RED)]
    assert by_the_rule == [[6, 2, 2], [4, 3], [2, 2, 1, 1, 1]]
    finals = {}
    for a in GAME.legal_moves(s):
        s1 = GAME.apply(s, a)
        for b in GAME.legal_moves(s1):
            s2 = GAME.apply(s1, b)
            for c in GAME.legal_moves(s2):
                s3 = GAME.apply(s2, c)
                finals[(a.text(), b.text(), c.text())] = s3
    assert len(finals) == 24                           # 12 removals, 2 colour orders
    wins = {k: f for k, f in finals.items() if GAME.outcome(f).winners == (2,)}
    assert set(wins) == {("xg1", "Be3.2", "Rd4.3"), ("xf2", "Be3.2", "Rd4.3")}
    assert len({f.position for f in wins.values()}) == 1
    final = next(iter(wins.values()))
    assert pos.colour_at(parse_point("g1")) == pos.colour_at(parse_point("f2")) == WHITE
    assert visible_sizes(final.position, RED) == [3, 3, 2]
    assert GAME.outcome(final).scores == (16.0, 15.0, 18.0)


# -- state text -----------------------------------------------------------------------

def test_state_text_round_trips_mid_turn():
    m = GAME.new_match()
    for move in ("a1", "xa1", "Bc1"):
        m.push(move)
    text = GAME.state_text(m.state)
    assert text == "..../..../..../.B..|.../.../...|../..|. 2 place=R"
    assert GAME.parse_state(text) == m.state.__class__(m.state.position, 1, None, None, (RED,))
    assert GAME.parse_state("..../..../..../....|.../.../...|../..|. 2 place=RB").pending \
        == (BLACK, RED)


@pytest.mark.parametrize("bad", [
    "..../..../..../W...|.../.../...|../..|. 1",                 # Black's turn now
    "..../..../..../B...|.../.../...|../..|. 2",                 # the opening is white
    "..../..../..../....|.../.../...|../..|. 2 place=WB",        # Black took the white
    "..../..../..../W...|.../.../...|../..|. 2 place=R",
    "..../..../..../RB..|.../.../...|../..|. 3 place=WW",
    "..../..../..../RB..|.../.../...|../..|. 3 place=WBR",
    "..../..../..../RB..|.../.../...|../..|. 3 place=X",
    "..../..../..../RB..|.../.../...|../..|. 3 place=",
    "..../..../..../RB..|.../.../...|../..|. 3 put=WB",
    "..../..../..../RB..|.../.../...|../..|. 3 place=W B",
    EXAMPLE + " place=WB",                                       # no room for two
])
def test_bad_state_text_is_refused(bad):
    with pytest.raises(NotationError):
        GAME.parse_state(bad)


# -- perft, against an engine-free brute force -----------------------------------------
#
# By hand: 16 openings; Black must take the white ball away (16); then black
# and red on the empty board, 2 x 16 then 15 (7680); Red may take either ball
# (15360); then 2 x 15 and 14 holes (6451200); White may take any of 3 balls.

PERFT = [16, 16, 512, 7680, 15360, 460800, 6451200, 19353600, 541900800, 7044710400]
OTHERS = {"W": "BR", "B": "WR", "R": "WB"}
HOLES = [pt for pt in ALL if pt[0] == 0]


def _children(board, pending, opening):
    if opening:
        return [({pt: "W"}, "", False) for pt in HOLES]
    if pending:
        return [({**board, pt: c}, pending.replace(c, ""), False)
                for c in pending for pt in open_points(board)]
    if len(board) == 30:
        return []
    out = []
    for pt in board:
        if sum(q in board for q in ABOVE[pt]) > 1:
            continue                                   # pinned
        new, gap = dict(board), pt
        colour = new.pop(pt)
        while True:                                    # the ball above falls in
            up = [q for q in ABOVE[gap] if q in new]
            assert len(up) <= 1
            if not up:
                break
            new[gap] = new.pop(up[0])
            gap = up[0]
        out.append((new, OTHERS[colour], False))
    return out


@functools.lru_cache(maxsize=None)
def _brute(cells, pending, opening, depth):
    if depth == 0:
        return 1
    return sum(_brute(tuple(sorted(b.items())), p, o, depth - 1)
               for b, p, o in _children(dict(cells), pending, opening))


def _from_engine(s):
    """The brute force's view of a state, read from its text only."""
    text = GAME.state_text(s).split()
    pending = text[2].partition("=")[2] if len(text) > 2 else ""
    board = cells_of(s.position)
    return tuple(sorted(board.items())), pending, not board and not pending


def test_perft_matches_a_brute_force():
    assert [perft(GAME, d) for d in range(1, 11)] == PERFT
    assert PERFT[:7] == [16, 16, 16 * 32, 16 * 32 * 15, 16 * 32 * 15 * 2,
                         16 * 32 * 15 * 2 * 30, 16 * 32 * 15 * 2 * 30 * 14]
    start = _from_engine(GAME.initial_state())
    assert start == ((), "", True)
    assert [_brute(*start, d) for d in range(1, 11)] == PERFT
    for seed, steps, depth in ((1, 20, 4), (2, 45, 3), (3, 61, 4), (4, 79, 4), (5, 84, 4),
                               (6, 86, 2)):
        s = random_walk(GAME, seed, steps)
        assert GAME.length(s) == steps
        assert perft(GAME, depth, s) == _brute(*_from_engine(s), depth)


@pytest.mark.slow
def test_perft_depths_eleven_to_thirteen():
    start = _from_engine(GAME.initial_state())
    counts = [perft(GAME, d) for d in (11, 12, 13)]
    assert counts[:2] == [28178841600, 732649881600]
    assert counts == [_brute(*start, d) for d in (11, 12, 13)]


# -- visible groups, against a brute force of their own ---------------------------------

def _hidden(board, pt):
    lv, x, y = pt
    return (lv + 2, x - 1, y - 1) in board


def _cut(board, a, b):
    """A flat contact is cut when two balls on the level above both rest on a and b."""
    if a[0] != b[0]:
        return False
    over = [q for q in ALL if q[0] == a[0] + 1 and a in below(q) and b in below(q)]
    return len(over) == 2 and all(q in board for q in over)


def _brute_visible_groups(board, colour):
    left = {p for p, c in board.items() if c == colour and not _hidden(board, p)}
    sizes = []
    while left:
        todo, size = [left.pop()], 1
        while todo:
            a = todo.pop()
            for b in [b for b in left if touch(a, b) and not _cut(board, a, b)]:
                left.remove(b)
                todo.append(b)
                size += 1
        sizes.append(size)
    return sorted(sizes, reverse=True)


@given(st.integers(0, 2 ** 32), st.integers(0, 88))
def test_visible_groups_match_a_brute_force(seed, steps):
    s = random_walk(GAME, seed, steps)
    board = cells_of(s.position)
    for colour, letter in ((WHITE, "W"), (BLACK, "B"), (RED, "R")):
        assert visible_sizes(s.position, colour) == _brute_visible_groups(board, letter)


@given(st.integers(0, 2 ** 32), st.integers(1, 87))
def test_a_removal_takes_one_ball_and_leaves_a_stable_pyramid(seed, steps):
    s = random_walk(GAME, seed, steps)
    if s.pending or not s.position.count():
        return
    for move in GAME.legal_moves(s):
        after = GAME.apply(s, move)
        assert after.position.count() == s.position.count() - 1
        assert after.position.is_stable() and after.to_move == s.to_move
        removed = s.position.colour_at(move.point)
        assert removed not in after.pending and len(after.pending) == 2
