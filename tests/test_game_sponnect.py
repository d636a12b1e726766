"""Sponnect: Span around a red core, with passing."""
import random

import pytest
from hypothesis import given, strategies as st

import shibumi.games.sponnect  # noqa: F401  (registers the game)
from conformance import check_playouts, check_symmetries, random_walk
from shibumi import IllegalMoveError, Move, NotationError, load
from shibumi.analysis import perft
from shibumi.game import TERMINAL
from shibumi.geometry import INTERIOR_MASK, points_of
from shibumi.position import BLACK, RED, WHITE, Position, group_of
from reference import below as _below, ALL as _ALL

START = "..../.RR./.RR./....|.../.R./...|../..|."


def state(text, to_move=1, extras="ply=0"):
    return load("sponnect").parse_state(f"{text} {to_move} {extras}")


def match_at(text, to_move=1, extras="ply=0"):
    game = load("sponnect")
    return game.new_match(state=state(text, to_move, extras))


def test_conformance():
    check_playouts("sponnect", games=600)
    assert load("spconnect").info.name == "Sponnect"     # the misspelt heading


def test_start_is_a_red_pyramid_on_the_interior_points():
    game = load("sponnect")
    start = game.initial_state()
    assert start.position == Position(START)
    assert start.position.red == INTERIOR_MASK
    assert start.position.playable() & INTERIOR_MASK == 0
    # twelve edge holes and a pass; nothing above the board yet
    assert len(game.legal_moves(start)) == 13


def test_pass_is_allowed_unless_the_opponent_just_passed():
    m = load("sponnect").new_match()
    m.push("pass")
    assert m.state.passed and m.current_player == 1
    assert Move("pass") not in m.legal_moves()
    with pytest.raises(IllegalMoveError):
        m.push("pass")
    m.push("a1")
    assert m.state.position.colour_at(0) == BLACK
    m.push("pass")                      # White may pass again: Black placed last
    assert m.state.ply == 3 and load("sponnect").length(m.state) == 3


def test_two_passes_in_a_row_never_happen():
    game = load("sponnect")
    rng = random.Random(3)
    for _ in range(300):
        s = game.initial_state()
        while not game.is_terminal(s):
            move = rng.choice(game.legal_moves(s))
            assert not (move.kind == "pass" and s.passed)
            s = game.apply(s, move)


def test_white_joins_left_and_right_on_the_board():
    m = match_at("..../.RR./.RR./WWW.|.../.R./...|../..|.")
    m.push("g1")
    assert m.outcome().winners == (0,)


def test_black_joins_bottom_and_top():
    m = match_at("..../BRR./BRR./B...|.../.R./...|../..|.", 2)
    assert m.outcome() is None
    m.push("a7")
    assert m.outcome().winners == (1,)


def test_a_winning_chain_may_climb_to_level_one():
    # White a3 - b2 - d2 - f2 - g3: the chain runs over level 1.
    m = match_at("..../.RR./WRRW/BBBB|.../.R./WW.|../..|.")
    assert m.outcome() is None
    m.push("f2")
    assert m.outcome().winners == (0,)


def test_red_balls_join_nobody():
    # White a3 and g3 touch the red centre balls, which link nothing.
    game = load("sponnect")
    pos = Position("..../.RR./WRRW/....|.../.R./...|../..|.")
    assert not game.connected(pos, 0)
    # White on b4 and f4 (level 1) touch the red d4 of level 1: still no chain.
    pos = Position("..../WRRW/WRRW/....|.../WRW/...|../..|.")
    assert pos.colour_at(20) == RED and not game.connected(pos, 0)


def test_a_ball_on_an_upper_level_is_on_no_side():
    # Black a7-a5-a3 and b2 on level 1: b2 sits over the bottom row but is
    # not on the bottom edge, so Black has not connected...
    game = load("sponnect")
    assert not game.connected(Position("B.../BRR./BRR./WW..|.../.R./B..|../..|."), 1)
    # ...until the chain reaches a bottom hole: b2 rests on c1.
    assert game.connected(Position("B.../BRR./BRR./WB..|.../.R./B..|../..|."), 1)


def test_illegal_moves_are_rejected():
    m = load("sponnect").new_match()
    for text in ("c3", "d4", "b2", "Ba1", "Ra1", "xa1", "a1>c1"):
        with pytest.raises((IllegalMoveError, NotationError)):
            m.push(text)
    assert m.history == []


def test_only_the_mover_can_win_and_games_have_one_winner():
    game = load("sponnect")
    rng = random.Random(11)
    for _ in range(500):
        s = game.initial_state()
        while not game.is_terminal(s):
            mover = s.to_move
            s = game.apply(s, rng.choice(game.legal_moves(s)))
            if s.result is None:
                assert not game.connected(s.position, 0) and not game.connected(s.position, 1)
            else:
                assert s.result.winners == (mover,)


def _full_pyramid(seed):
    rng = random.Random(seed)
    white = black = 0
    for p in points_of(~INTERIOR_MASK & ((1 << 30) - 1)):
        if rng.random() < 0.5:
            white |= 1 << p
        else:
            black |= 1 << p
    return Position.from_masks(white, black, INTERIOR_MASK)


@given(st.integers(0, 2 ** 32))
def test_a_full_pyramid_has_exactly_one_connected_player(seed):
    pos = _full_pyramid(seed)
    game = load("sponnect")
    assert [game.connected(pos, 0), game.connected(pos, 1)].count(True) == 1


@given(st.integers(0, 2 ** 32))
def test_with_the_red_core_every_contact_is_visible(seed):
    # Every point that can be hidden, and every contact an overpass can cut,
    # involves an interior point, which is red: so visible and physical groups
    # of white and black are the same.
    pos = _full_pyramid(seed)
    for colour in (WHITE, BLACK):
        mask = pos.mask(colour)
        for p in points_of(mask):
            assert group_of(p, mask, pos.occupied, True) == \
                group_of(p, mask, pos.occupied, False)


@given(st.integers(0, 2 ** 32))
def test_every_finished_game_has_exactly_one_winner(seed):
    game = load("sponnect")
    final = game.random_playout(game.initial_state(), random.Random(seed))
    assert game.current_player(final) == TERMINAL
    assert len(game.outcome(final).winners) == 1
    assert game.length(final) <= game.info.max_length


@given(st.integers(0, 2 ** 32), st.integers(0, 40))
def test_declared_symmetries_keep_moves_and_results(seed, steps):
    game = load("sponnect")
    check_symmetries(game, random_walk(game, seed, steps))


# -- perft, cross-checked by an independent brute force ---------------------
#
# The brute force below knows nothing of the engine: points are (level, x, y)
# triples in a dict, playability is "empty and the four points below are
# filled", and the pass rule is tracked by a flag. Depth 1 is also a hand
# count: 12 edge holes + pass = 13. Depth 2: after a placement, 11 holes +
# pass (no platform can be complete yet) = 12, times 12; after the pass,
# 12 placements: 144 + 12 = 156. No one can connect before depth 7 (White
# needs four balls), so the brute force needs no win test.


def _brute(filled, passed, depth):
    if depth == 0:
        return 1
    spots = [pt for pt in _ALL if pt not in filled and all(b in filled for b in _below(pt))]
    total = 0 if passed else _brute(filled, True, depth - 1)
    for pt in spots:
        total += _brute(filled | {pt}, False, depth - 1)
    return total


CENTRE = frozenset({(0, 1, 1), (0, 2, 1), (0, 1, 2), (0, 2, 2), (1, 1, 1)})
PERFT = [13, 156, 1736, 17932, 172540]


def test_perft_matches_a_hand_count_and_an_independent_brute_force():
    game = load("sponnect")
    counts = [perft(game, d) for d in range(1, 6)]
    assert counts == PERFT
    assert counts[:2] == [12 + 1, 12 * 12 + 12]
    assert [_brute(CENTRE, False, d) for d in range(1, 6)] == PERFT


def test_group_at_is_group_of_along_random_games():
    # The playout and apply test connections on tabled links (shibumi.bits.flood);
    # the plain definition walks contacts through Position.
    from shibumi.games.sponnect import group_at
    game, rng = load("sponnect"), random.Random(7)
    for _ in range(60):
        s = game.initial_state()
        while not game.is_terminal(s):
            pos = s.position
            for mine in (pos.white, pos.black):
                for p in points_of(mine):
                    assert group_at(p, mine, pos.occupied) == group_of(p, mine, pos.occupied)
            s = game.random_step(s, rng)
