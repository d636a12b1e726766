"""Spoff: a random pyramid cleared two unconnected balls of one colour at a time."""
import random

import pytest
from hypothesis import given, settings, strategies as st

from conformance import (check_playouts, check_random_games,
                         check_symmetries)
from reference import ABOVE, ALL, cells_of, touch, visible_group
from shibumi import CHANCE, TERMINAL, IllegalMoveError, NotationError, load
from shibumi.analysis import perft
from shibumi.games.spoff import (SpoffOutcome, clearable, clearance, first_removals, movable_mask,
                                 partners, remove_pair, turns)
from shibumi.geometry import ALL_MASK, points_of
from shibumi.interaction import Table
from shibumi.notation import Move, parse_point
from shibumi.position import BLACK, RED, WHITE, Position

GAME = load("spoff")
PHYSICAL = load("spoff", visible=False)


def state(text, extras="", game=GAME):
    return game.parse_state(f"{text} 1 {extras}".strip())


def dealt(seed, game=GAME):
    """The pyramid a match with this seed deals."""
    return game.new_match(seed=seed).state


def deal(colours):
    """The state after dealing these colours (30 letters, board first)."""
    s = GAME.initial_state()
    for c in colours:
        s = GAME.apply(s, Move("=" + c))
    return s


def pt(name):
    return parse_point(name)


def texts(moves):
    return [m.text() for m in moves]


# -- conformance --------------------------------------------------------------------

def test_conformance():
    check_random_games("spoff", seeds=range(4))
    check_playouts("spoff", games=40)
    assert GAME.info.chance and GAME.info.max_length == 30 and GAME.num_players == 1


def test_the_variant_plays_to_the_end():
    check_random_games("spoff", seeds=range(3), visible=False)


def test_the_fast_playout_plays_the_rules_games_in_the_variant_too():
    check_playouts("spoff", games=100, visible=False)


@given(st.integers(0, 2 ** 32), st.integers(0, 29))
@settings(max_examples=10, deadline=None)
def test_all_eight_symmetries_keep_moves_and_results(seed, steps):
    rng = random.Random(seed)
    s = dealt(seed % 1000)
    for _ in range(steps):
        if GAME.is_terminal(s):
            break
        s = GAME.apply(s, rng.choice(GAME.legal_moves(s)))
    for image in check_symmetries(GAME, s):
        again = GAME.parse_state(GAME.state_text(image))
        assert GAME.state_key(again) == GAME.state_key(image)


def test_every_legal_move_is_reachable_by_clicks():
    t = Table("spoff", seats="human", seed=3)
    for step in range(6):
        legal = t.match.legal_moves()
        reached = set()
        for point in sorted({m.point for m in legal}):
            played = t.click(point)
            if played is not None:
                reached.add(played)
                t.undo()
        assert reached == set(legal)
        t.choose(legal[(5 * step) % len(legal)])


# -- the deal ---------------------------------------------------------------------

def test_the_deal_fills_the_points_in_order_with_bag_odds():
    s = GAME.initial_state()
    assert GAME.current_player(s) == CHANCE and GAME.legal_moves(s) == []
    assert GAME.chance_outcomes(s) == [(Move("=W"), 1 / 3), (Move("=B"), 1 / 3),
                                       (Move("=R"), 1 / 3)]
    s = deal("WWWWWWWWWB")
    assert s.position.occupied == (1 << 10) - 1 and s.dealing
    assert GAME.chance_outcomes(s) == [(Move("=W"), 1 / 20), (Move("=B"), 9 / 20),
                                       (Move("=R"), 10 / 20)]
    assert GAME.state_text(s).endswith(" 1 dealing")
    m = GAME.new_match(seed=7)
    assert len(m.history) == 30 and m.current_player == 0      # the match deals
    assert [m.state.position.count(c) for c in (WHITE, BLACK, RED)] == [10, 10, 10]
    assert GAME.length(m.state) == 0


# A full pyramid with no pair to take, found by random deals: each colour's
# movable balls all lie in one group.
NO_PAIR = "BWRB/WWRW/RRWB/WBBR|BBB/BRB/WWR|WR/WR|R"


def test_a_deal_without_a_pair_is_dealt_again():
    pos = Position(NO_PAIR)
    assert pos.occupied == ALL_MASK and first_removals(pos) == 0
    colours = "".join(".WBR"[pos.colour_at(p)] for p in range(30))
    before = deal(colours[:29])
    after = GAME.apply(before, Move("=" + colours[29]))
    assert after.dealing and after.position.occupied == 0 and after.result is None
    assert GAME.chance_outcomes(after) == GAME.chance_outcomes(GAME.initial_state())


def test_redeals_are_rare():
    rng = random.Random(11)
    bag = list("WBR" * 10)
    stuck = 0
    for _ in range(1000):
        rng.shuffle(bag)
        pos = Position.from_masks(*(sum(1 << p for p in range(30) if bag[p] == c)
                                    for c in "WBR"))
        stuck += not first_removals(pos)
    assert stuck / 1000 < 0.01


# -- what may be taken ---------------------------------------------------------------

def test_two_balls_of_one_colour_from_two_groups_both_movable():
    s = state("BWBB/RBRW/RRWB/BRRR|RWB/RBW/WWW|RB/WW|B")
    pos = s.position
    # Only the 13 balls of a full pyramid that carry at most one ball can go.
    assert movable_mask(pos.occupied).bit_count() == 13
    assert texts(GAME.legal_moves(s)) == ["xa1", "xg1", "xa7", "xg7", "xb6", "xf6",
                                         "xc5.2", "xe5.2", "xd4.3"]
    # e1 is black but pinned; b2 and f2 are movable but have no partner
    assert not GAME.legal_moves(s)[0] == Move("xe1")
    for name in ("b2", "f2"):
        colour = pos.colour_at(pt(name))
        assert not partners(pos, pt(name)) and colour in (WHITE, RED)
    # a partner is never in the first ball's group, and has its colour
    for first in points_of(first_removals(pos)):
        group = pos.group(first)
        for second in points_of(partners(pos, first)):
            assert not group >> second & 1
            assert pos.colour_at(second) == pos.colour_at(first)


def test_the_second_ball_is_named_where_it_stands_after_the_drops():
    s = state("BWBB/RBRW/RRWB/BRRR|RWB/RBW/WWW|RB/WW|B")
    after = GAME.apply(s, Move("xa1"))
    # b2 fell into a1, c3.2 into b2 and the black apex into c3.2
    assert after.position.text() == "BWBB/RBRW/RRWB/WRRR|RWB/RBW/WWW|RB/BW|."
    assert texts(GAME.legal_moves(after)) == ["xa7", "xg7", "xf6", "xc3.2", "xe5.2"]
    assert GAME.status_lines(after)[-1] == ("Now take a second black ball, one not "
                                            "connected to the ball taken from a1.")
    end = GAME.apply(after, Move("xc3.2"))
    assert end.position == remove_pair(s.position, pt("a1"), pt("d4.3"))
    assert end.removed == -1 and GAME.length(end) == 2


@given(st.integers(0, 10 ** 6))
@settings(max_examples=12, deadline=None)
def test_pairs_are_symmetric_and_the_second_ball_stays_movable(seed):
    pos = dealt(seed % 500).position
    rng = random.Random(seed)
    for _ in range(rng.randrange(6)):                     # a few turns in
        nexts = sorted(turns(pos), key=Position.text)
        if not nexts:
            return
        pos = rng.choice(nexts)
    for a in points_of(first_removals(pos)):
        for b in points_of(partners(pos, a)):
            assert partners(pos, b) >> a & 1               # either may go first
            remove_pair(pos, a, b)                         # never pinned on the way


# g1 (red) carries f2 and d2 (red) carries e3.2; e3.2 also rests on f2. Whichever
# red goes first, its column drops, and e3.2 falls down that column.
ORDER = "RRBB/BBRB/BBRW/RRBR|B../RWB/RRW|../.W|."


def test_the_order_of_the_two_removals_can_matter():
    pos = Position(ORDER)
    g1, d2 = pt("g1"), pt("d2")
    assert partners(pos, g1) >> d2 & 1 and partners(pos, d2) >> g1 & 1
    g1_first, d2_first = remove_pair(pos, g1, d2), remove_pair(pos, d2, g1)
    assert g1_first.text() == "RRBB/BBRB/BBRW/RRBW|B../RWB/R.W|../..|."
    assert d2_first.text() == "RRBB/BBRB/BBRW/RRBW|B../RWB/RW.|../..|."
    s = state(ORDER)
    assert GAME.apply(GAME.apply(s, Move("xg1")), Move("xd2")).position == g1_first
    after = GAME.apply(s, Move("xd2"))                     # e3.2 dropped into d2
    assert Move("xg1") in GAME.legal_moves(after)
    assert GAME.apply(after, Move("xg1")).position == d2_first


def test_a_ball_may_hold_up_its_partner_through_a_column():
    # a1 (white) carries b2 (red), which carries c3.2 (white), under a white apex:
    # a1 and c3.2 are in different white groups, so they are a pair. Taking a1
    # drops the whole column: b2 into a1, c3.2 into b2, the apex into c3.2.
    s = state("WWBB/RWRB/WRWR/WBWB|BRR/BBB/RRR|BR/WW|W")
    pos = s.position
    a1, b2, c3 = pt("a1"), pt("b2"), pt("c3.2")
    assert pos.colour_at(a1) == pos.colour_at(c3) == WHITE and pos.colour_at(b2) == RED
    assert partners(pos, a1) >> c3 & 1
    after = GAME.apply(s, Move("xa1"))
    assert after.position.colour_at(a1) == RED                 # b2 dropped
    assert texts(GAME.legal_moves(after)) == ["xa7", "xb2", "xc3.2", "xe3.2"]
    final = GAME.apply(after, Move("xb2"))                     # c3.2's ball, now on b2
    assert final.position == remove_pair(pos, c3, a1) == remove_pair(pos, a1, c3)
    assert final.position.colour_at(b2) == WHITE               # the apex ball, twice dropped


def test_visible_and_physical_connection_differ():
    # Black b2 and d6 are joined only through d2 and d4.1, and white c3.2 and red
    # e3.2 pass over the d2-d4.1 contact: seen from above the blacks are apart.
    text = "WWWR/BRRW/RRWB/RBBR|WBW/WBW/BBR|R./WR|."
    pos = Position(text)
    b2, d6 = pt("b2"), pt("d6")
    assert not pos.group(b2) >> d6 & 1 and pos.group(b2, visible_only=False) >> d6 & 1
    assert partners(pos, b2) == 1 << d6 and partners(pos, b2, visible=False) == 0
    vis = texts(GAME.legal_moves(state(text)))
    phys = texts(PHYSICAL.legal_moves(state(text, game=PHYSICAL)))
    assert sorted(set(vis) - set(phys)) == ["xb2", "xd6"] and set(phys) < set(vis)


def test_illegal_removals_are_refused_and_change_nothing():
    m = GAME.new_match(state=state("BWBB/RBRW/RRWB/BRRR|RWB/RBW/WWW|RB/WW|B"))
    before = m.state
    for bad, error in (("xe1", IllegalMoveError),      # pinned
                       ("xb2", IllegalMoveError),      # no partner
                       ("a1", IllegalMoveError), ("=W", IllegalMoveError),
                       ("pass", IllegalMoveError), ("xz9", NotationError)):
        with pytest.raises(error):
            m.push(bad)
        assert m.state == before
    m.push("xa1")
    with pytest.raises(IllegalMoveError):
        m.push("xb6")                                      # red, not black
    with pytest.raises(IllegalMoveError):
        m.push("xa1")                                      # the dropped white ball


# -- the end ----------------------------------------------------------------------

def test_at_most_fifteen_turns_and_a_clearance_takes_exactly_fifteen():
    rng = random.Random(5)
    cleared = 0
    for seed in range(50):
        final = GAME.random_playout(GAME.initial_state(), rng)
        removed = final.result.scores[0]
        assert removed % 2 == 0 and removed / 2 <= 15
        assert GAME.length(final) == removed
        if final.result.winners:
            cleared += 1
            assert removed == 30 and final.position.occupied == 0
    assert cleared


def test_a_cleared_pyramid_wins_and_a_stuck_one_loses():
    won = state("..../..../..../....|.../.../...|../..|.")
    assert won.result.winners == (0,) and won.result.scores == (30.0,)
    assert isinstance(won.result, SpoffOutcome) and won.result.returns(1) == (1.0,)
    assert "Game over: won." in GAME.describe(won)
    # Two whites that touch: no pair, lost with 28 removed.
    stuck = state("WW../..../..../....|.../.../...|../..|.")
    assert stuck.result.winners == () and stuck.result.scores == (28.0,)
    assert stuck.result.returns(1) == (28 / 30,)
    assert GAME.current_player(stuck) == TERMINAL and GAME.legal_moves(stuck) == []
    assert "Game over: lost." in GAME.describe(stuck)
    apart = state("W.W./..../..../....|.../.../...|../..|.")
    assert texts(GAME.legal_moves(apart)) == ["xa7", "xe7"]


@pytest.mark.slow
def test_most_deals_can_be_cleared_with_careful_play():
    solvable = sum(clearable(dealt(seed).position) for seed in range(30))
    assert solvable == 29


def test_a_found_clearance_is_fifteen_legal_turns():
    for seed in (0, 4, 8):
        pos = dealt(seed).position
        path = clearance(pos)
        assert len(path) == 15 and path[-1].occupied == 0
        for after in path:
            assert after in turns(pos)
            pos = after
    stuck = Position("WW../..../..../....|.../.../...|../..|.")
    assert clearance(stuck) is None and not clearable(stuck)


# -- state text -------------------------------------------------------------------

def test_state_text_round_trips_and_bad_states_are_refused():
    s = GAME.apply(state("BWBB/RBRW/RRWB/BRRR|RWB/RBW/WWW|RB/WW|B"), Move("xa1"))
    text = GAME.state_text(s)
    assert text.endswith("removed=a1 start=BWBB/RBRW/RRWB/BRRR|RWB/RBW/WWW|RB/WW|B")
    assert GAME.state_key(GAME.parse_state(text)) == GAME.state_key(s)
    full = "BWBB/RBRW/RRWB/BRRR|RWB/RBW/WWW|RB/WW|B"
    for bad in (f"{full} 1 dealing",                                   # not in deal order
                "W.../..../..../....|.../.../...|../..|. 1",           # an odd count
                "WWWW/WWWW/WWWW/....|.../.../...|../..|. 1",           # twelve whites
                "..../..../..../....|W../.../...|../..|. 1",           # floating
                f"{full} 1 removed=a1",                                # no start
                f"{full} 1 removed=e1 start={full}",                   # pinned ball
                f"{full} 1 dealing=3", f"{full} 1 colour=W"):
        with pytest.raises(NotationError):
            GAME.parse_state(bad)


# -- perft, cross-checked by an engine-free brute force ---------------------------------
#
# The rules written again on tests/reference.py's dict model: points (level, x, y),
# a ball is pinned under two or more balls, a removal drops the column above,
# contacts are seen from above (a ball two levels straight above hides one; two
# touching balls passing over a contact cut it), groups grow over visible contacts
# (reference.visible_group).

def _free(board, p):
    return sum(q in board for q in ABOVE[p]) <= 1


def _lift(board, p):
    """The board without the ball at p, the column above dropping; and where each
    ball went (old point -> new point)."""
    board, moved, gap = dict(board), {}, p
    del board[p]
    while True:
        up = [q for q in ABOVE[gap] if q in board]
        if not up:
            return board, moved
        q = up[0]
        board[gap] = board.pop(q)
        moved[q] = gap
        gap = q


def _partners(board, p):
    group = visible_group(board, p)
    return [q for q in board if board[q] == board[p] and q not in group and _free(board, q)]


def _actions(node):
    board, pending = node
    if pending is None:
        return [(_lift(board, p)[0], frozenset(_lift(board, p)[1].get(q, q)
                                               for q in _partners(board, p)))
                for p in board if _free(board, p) and _partners(board, p)]
    return [(_lift(board, q)[0], None) for q in pending]


def _brute(node, depth):
    nexts = _actions(node)
    if depth == 1:
        return len(nexts)
    return sum(_brute(n, depth - 1) for n in nexts)


PERFT = {3: [13, 30, 384, 962], 9: [13, 32, 410, 1094], 21: [9, 20, 141, 256]}


def test_perft_from_dealt_pyramids_matches_an_independent_brute_force():
    for seed, golden in PERFT.items():
        s = dealt(seed)
        assert [perft(GAME, d, s) for d in (1, 2, 3, 4)] == golden
        board = cells_of(s.position)
        depths = (1, 2, 3) if seed == 21 else (1, 2)
        assert [_brute((board, None), d) for d in depths] == golden[:len(depths)]


@pytest.mark.slow
def test_perft_depth_four_and_mid_game_positions_match_the_brute_force():
    for seed, golden in PERFT.items():
        assert [_brute((cells_of(dealt(seed).position), None), d) for d in (3, 4)] == \
            golden[2:]
    for seed in range(6):
        rng = random.Random(seed)
        s = dealt(100 + seed)
        for _ in range(2 * rng.randrange(1, 6)):
            if GAME.is_terminal(s):
                break
            s = GAME.apply(s, rng.choice(GAME.legal_moves(s)))
        board = cells_of(s.position)
        assert [perft(GAME, d, s) for d in (1, 2, 3)] == \
            [_brute((board, None), d) for d in (1, 2, 3)]


@pytest.mark.parametrize("seed,steps", [(31, 6), (33, 15)])
def test_perft_mid_game_matches_the_brute_force(seed, steps):
    rng = random.Random(seed)
    s = dealt(seed)
    for _ in range(steps):
        if GAME.is_terminal(s):
            break
        s = GAME.apply(s, rng.choice(GAME.legal_moves(s)))
    if s.removed >= 0:                              # finish the turn: the brute force
        s = GAME.apply(s, GAME.legal_moves(s)[0])  # starts between turns
    board = cells_of(s.position)
    assert [perft(GAME, d, s) for d in (1, 2, 3)] == [_brute((board, None), d)
                                                      for d in (1, 2, 3)]


def test_the_brute_force_can_fail():
    board = cells_of(dealt(3).position)
    assert _brute((board, None), 2) != PERFT[9][1]
