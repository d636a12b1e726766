"""The rules of Spline and Span, pinned down by positions."""
import random

import pytest
from hypothesis import given, strategies as st

from shibumi import load
from shibumi.geometry import POINTS
from shibumi.position import BLACK, WHITE, Position

FULL_BOARD = "WBWB/WBWB/BWBW/BWBW"   # no line on the board


def state(game, text, to_move):
    return load(game).parse_state(f"{text} {to_move}")


def play(game, state_, move):
    g = load(game)
    m = g.new_match(state=state_)
    m.push(move)
    return m


def test_spline_wins_on_each_level():
    m = play("spline", state("spline", "B.B./..../B.../WWW.|.../.../...|../..|.", 1), "g1")
    assert m.outcome().winners == (0,)
    m = play("spline", state("spline", FULL_BOARD + "|W../.W./BB.|../..|.", 1), "f2")
    assert m.outcome().winners == (0,)     # diagonal b6-d4-f2 of level 1
    m = play("spline", state("spline", FULL_BOARD + "|WWB/BBW/WBW|W./B.|.", 2), "e3")
    assert m.outcome().winners == (1,)     # row c3-e3 of level 2


def test_spline_almost_lines_do_not_win():
    m = play("spline", state("spline", "B.B./..../..../WW.W|.../.../...|../..|.", 2), "e1")
    assert m.outcome() is None


def test_spline_hidden_balls_count_by_default():
    # Board row 3 (a3 c3 e3 g3): c3 is buried under c3.2, g3 is still open.
    text = "W.W./BWB./WWW./BBW.|.../BB./WB.|../B.|. 1"
    assert Position(text.split()[0]).hidden() == 1 << 5
    m = play("spline", load("spline").parse_state(text), "g3")
    assert m.outcome().winners == (0,)
    visible_only = load("spline", count_hidden=False)
    m = visible_only.new_match(state=visible_only.parse_state(text))
    m.push("g3")
    assert m.outcome() is None


def test_span_white_joins_left_and_right():
    m = play("span", state("span", "B.B./..../B.../WWW.|.../.../...|../..|.", 1), "g1")
    assert m.outcome().winners == (0,)
    m = play("span", state("span", "B.W./B..W/B.../..WW|.../.../...|../..|.", 2), "a1")
    assert m.outcome().winners == (1,)


@pytest.mark.parametrize("level1, rank5, black_wins", [("W..", "WBW.", True),
                                                      ("WW.", "WBWB", False)])
def test_span_overpass_cuts_the_chain_beneath(level1, rank5, black_wins):
    # Black's file c1-c3-c5 waits for c7.  White balls on b4 and d4 touch each
    # other right above the c3-c5 contact, cutting it; b4 alone does not.
    # Black's balls on the g file (g7, g1, and g5 to even the count) join nothing.
    text = f"W..B/{rank5}/WBW./.B.B|.../{level1}/...|../..|."
    m = play("span", state("span", text, 2), "c7")
    assert (m.outcome() is not None) == black_wins


def _exactly_one_connects(pos):
    game = load("span")
    results = []
    for player, colour in enumerate((WHITE, BLACK)):
        connected = any(
            game.result_after(pos, p, player) is not None
            for p in POINTS if pos.colour_at(p) == colour)
        results.append(connected)
    return results


@given(st.integers(0, 2 ** 32))
def test_span_full_pyramid_has_exactly_one_winner(seed):
    rng = random.Random(seed)
    cells = "".join(rng.choice("WB") for _ in range(30))
    text = "/".join(cells[i:i + 4] for i in range(0, 16, 4)) + "|" + \
        "/".join(cells[16 + i:19 + i] for i in range(0, 9, 3)) + "|" + \
        cells[25:27] + "/" + cells[27:29] + "|" + cells[29]
    assert sorted(_exactly_one_connects(Position(text))) == [False, True]


@pytest.mark.parametrize("name", ["spline", "span"])
def test_random_games_always_have_a_winner(name):
    game = load(name)
    rng = random.Random(7)
    for _ in range(2000):
        final = game.random_playout(game.initial_state(), rng)
        assert len(game.outcome(final).winners) == 1


@given(st.integers(0, 10_000), st.integers(0, 29), st.booleans())
def test_spline_winning_move_is_exactly_a_legal_move_that_wins(seed, balls, hidden):
    """winning_move names a move that wins at once whenever one exists, and
    None otherwise (None always when hidden balls do not count: not searched)."""
    game = load("spline", count_hidden=hidden)
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(balls):
        if game.is_terminal(state):
            break
        state = game.random_step(state, rng)
    mover = game.current_player(state)
    winners = [m for m in game.legal_moves(state)
               if game.outcome(game.apply(state, m)) is not None
               and game.outcome(game.apply(state, m)).winners == (mover,)]
    found = game.winning_move(state)
    if not hidden:
        assert found is None
    elif winners:
        assert found in winners
    else:
        assert found is None


def test_span_joined_is_the_group_of_the_ball_joining_both_sides():
    """The mask test of result_after and the fast playout, `joined`, agrees with
    the plain rule (group_of, then joins) on many random stable positions."""
    from conformance import check_playouts
    from shibumi.games.span import joined, joins
    from shibumi.position import group_of
    game, rng = load("span"), random.Random(3)
    for _ in range(300):
        state = game.initial_state()
        for _ in range(rng.randrange(30)):
            if game.is_terminal(state):
                break
            state = game.random_step(state, rng)
        pos = state.position
        for player, colour in enumerate((WHITE, BLACK)):
            mine = pos.mask(colour)
            for p in POINTS:
                if mine >> p & 1:
                    plain = joins(group_of(p, mine, pos.occupied), player)
                    assert joined(p, mine, pos.occupied, player) == plain
    check_playouts("span")
