"""Spalone: draw from a bag of 10 + 10 + 10 and build the whole pyramid."""

import random
from math import comb

import pytest
from hypothesis import given, strategies as st

from conformance import check_playouts, check_symmetries
from reference import ALL as _ALL, below as _below, cells_of
from shibumi import CHANCE, TERMINAL, IllegalMoveError, NotationError, load
from shibumi.analysis import perft
from shibumi.games.spalone import (SpaloneOutcome, SpaloneState, allowed, bag_left,
                                   best_chance, well_stacked)
from shibumi.geometry import (ALL_MASK, BOARD_MASK, LEVEL, SUPPORT_MASK, SUPPORTED_MASK,
                              points_of)
from shibumi.notation import Move, parse_point
from shibumi.players import MCTSPlayer
from shibumi.position import BLACK, RED, WHITE, Position

GAME = load("spalone")


def state(text, extras=""):
    return GAME.parse_state(f"{text} 1 {extras}".strip())


def walk(seed, steps):
    """The state after up to ``steps`` placements of a random game (draws by the bag)."""
    rng = random.Random(seed)
    s = GAME.initial_state()
    placed = 0
    while not GAME.is_terminal(s) and placed < steps:
        if GAME.current_player(s) == CHANCE:
            s = GAME.apply(s, GAME.sample_chance(s, rng))
        else:
            s = GAME.apply(s, rng.choice(GAME.legal_moves(s)))
            placed += 1
    return s


# -- conformance --------------------------------------------------------------------

def test_conformance():
    check_playouts("spalone", games=400)
    assert GAME.info.chance and GAME.info.max_length == 30


def test_random_games_through_a_match():
    """Random games through a match; the opening draw survives undoing everything."""
    for seed in range(40):
        rng = random.Random(seed)
        m = GAME.new_match(seed=seed)
        assert len(m.history) == 1 and m.moves()[0].kind == "choose"
        actions = 0
        while m.current_player != TERMINAL:
            assert m.current_player == 0                 # the match makes the draws
            legal = m.legal_moves()
            assert legal
            move = rng.choice(legal)
            assert m.parse(m.move_text(move)) == move
            m.push(move)
            actions += 1
            assert actions <= GAME.info.max_length
            again = GAME.parse_state(GAME.state_text(m.state))
            assert GAME.state_key(again) == GAME.state_key(m.state)
            assert GAME.length(m.state) == actions
        outcome = m.outcome()
        assert outcome is not None and outcome.scores == (float(actions),)
        assert m.legal_moves() == []
        while len(m.history) > 1:
            m.pop()
        assert m.state == GAME.new_match(seed=seed).state
        with pytest.raises(IllegalMoveError):             # the opening draw stays
            m.pop()
        assert m.state == GAME.new_match(seed=seed).state


@given(st.integers(0, 2 ** 32), st.integers(0, 30))
def test_all_eight_symmetries_keep_moves_results_and_draws(seed, steps):
    assert GAME.symmetries == tuple(range(8))
    s = walk(seed, steps)
    for image in check_symmetries(GAME, s):
        assert GAME.chance_outcomes(image) == GAME.chance_outcomes(s)
        again = GAME.parse_state(GAME.state_text(image))
        assert GAME.state_key(again) == GAME.state_key(image)


# -- the start and the draws -----------------------------------------------------------

def test_the_start_is_an_empty_board_and_a_draw():
    s = GAME.initial_state()
    assert s.position.occupied == 0 and GAME.current_player(s) == CHANCE
    assert GAME.legal_moves(s) == []
    assert GAME.chance_outcomes(s) == [(Move("=W"), 1 / 3), (Move("=B"), 1 / 3),
                                       (Move("=R"), 1 / 3)]
    m = GAME.new_match(seed=4)
    assert m.current_player == 0 and m.state.drawn in (WHITE, BLACK, RED)
    assert len(m.legal_moves()) == 16                    # any hole takes any colour
    assert GAME.new_match(seed=4).state == m.state       # seeded


def test_draws_follow_the_balls_left_in_the_bag():
    # Nine whites and one black are out: 1 white, 9 blacks and 10 reds are left.
    # (Ludii's version would draw each colour still available with chance 1/3.)
    s = state("WWWW/WWWW/W..B/....|.../.../...|../..|.")
    assert bag_left(s.position) == (1, 9, 10)
    assert GAME.chance_outcomes(s) == [(Move("=W"), 1 / 20), (Move("=B"), 9 / 20),
                                       (Move("=R"), 10 / 20)]
    s = state("WWWW/WWWW/WW.B/....|.../.../...|../..|.")     # all ten whites are out
    assert [m.text() for m, _ in GAME.chance_outcomes(s)] == ["=B", "=R"]
    rng = random.Random(0)
    draws = [GAME.sample_chance(s, rng).text() for _ in range(4000)]
    assert abs(draws.count("=B") / 4000 - 9 / 19) < 0.03


def test_the_player_cannot_make_the_draw():
    m = GAME.new_match(seed=1)
    for bad in ("=W", "=B", "=R"):
        with pytest.raises(IllegalMoveError):
            m.push(bad)


# -- where a ball may go ----------------------------------------------------------------

# Six board balls: a1 c1 e1 = W W B and a3 c3 e3 = W B R, so b2 rests on
# W W W B and d2 on W B B R.
SMALL = "..../..../WBR./WWB.|.../.../...|../..|."


def test_a_ball_goes_in_a_hole_or_on_a_platform_with_two_of_its_colour():
    s = state(SMALL, "drawn=W")
    pos = s.position
    b2, d2 = parse_point("b2"), parse_point("d2")
    assert pos.is_playable(b2) and pos.is_playable(d2)
    # b2 rests on a1 c1 a3 c3 = W W W B; d2 on c1 e1 c3 e3 = W B B R
    assert [m.text() for m in GAME.legal_moves(s) if m.point >= 16] == ["Wb2"]
    assert len([m for m in GAME.legal_moves(s) if m.point < 16]) == 10
    black = state(SMALL, "drawn=B")
    assert [m.text() for m in GAME.legal_moves(black) if m.point >= 16] == ["Bd2"]
    red = state(SMALL, "drawn=R")
    assert [m.text() for m in GAME.legal_moves(red) if m.point >= 16] == []
    assert allowed(pos, RED) == BOARD_MASK & ~pos.occupied


def test_exactly_two_of_the_colour_are_enough_one_is_not():
    # d2 rests on c1 e1 c3 e3 = W B B R: two blacks, one white, one red.
    s = state(SMALL)
    d2 = parse_point("d2")
    colours = [s.position.colour_at(q) for q in points_of(SUPPORT_MASK[d2])]
    assert sorted(colours) == [WHITE, BLACK, BLACK, RED]
    assert allowed(s.position, BLACK) >> d2 & 1
    assert not allowed(s.position, WHITE) >> d2 & 1 and not allowed(s.position, RED) >> d2 & 1


def test_illegal_placements_are_refused_and_change_nothing():
    m = GAME.new_match(state=state(SMALL, "drawn=R"))
    before = m.state
    for bad, error in (("Ra1", IllegalMoveError), ("Rb2", IllegalMoveError),
                       ("Wg1", IllegalMoveError), ("Rd4", IllegalMoveError),
                       ("pass", IllegalMoveError), ("q9", NotationError)):
        with pytest.raises(error):
            m.push(bad)
        assert m.state == before
    m.push("g7")                                           # the colour is the drawn one
    assert m.state.position.colour_at(parse_point("g7")) == RED


@given(st.integers(0, 2 ** 32))
def test_every_raised_ball_rests_on_two_of_its_colour(seed):
    final = GAME.random_playout(GAME.initial_state(), random.Random(seed))
    assert well_stacked(final.position) and final.position.is_stable()
    assert all(n >= 0 for n in bag_left(final.position, final.drawn))


# -- the end -------------------------------------------------------------------------

# From a random game: no hole is free and none of the four open platforms (three
# on level 1, one on level 2) holds two whites, so the white ball drawn cannot be placed (the rule book's lost
# figure, rebuilt).
LOST = "BRBB/RRWW/RBBR/WWRR|..B/RBW/WB.|../..|."


def test_the_rule_book_example_a_white_ball_with_nowhere_to_go():
    s = state(LOST, "drawn=W")
    pos = s.position
    assert pos.occupied & BOARD_MASK == BOARD_MASK
    platforms = points_of(pos.playable())
    assert sorted(LEVEL[q] for q in platforms) == [1, 1, 1, 2]
    assert all((pos.white & SUPPORT_MASK[q]).bit_count() < 2 for q in platforms)
    outcome = s.result
    assert isinstance(outcome, SpaloneOutcome) and outcome.winners == ()
    assert outcome.scores == (22.0,) and outcome.returns(1) == (22 / 30,)
    assert outcome.reason.startswith("lost with 22 balls placed: the white ball drawn")
    assert GAME.legal_moves(s) == [] and GAME.current_player(s) == TERMINAL
    assert "Game over: lost." in GAME.describe(s)
    with pytest.raises(IllegalMoveError):
        MCTSPlayer(10).choose(GAME, s)
    # a black or a red ball would have fitted somewhere
    assert state(LOST, "drawn=B").result is None and state(LOST, "drawn=R").result is None


# A complete game (from random play that stacks whenever it can): draws and
# placements alternate, the red drawn last goes on the apex.
WIN = ("=W Wa3 =B Bc7 =B Ba5 =R Re5.0 =R Rc3.0 =R Re1 =B Bg1 =W Wc5.0 =R Re3.0 =B Bg7 "
       "=B Ba1 =W Wb4 =W Wa7 =R Rd4.1 =W Wb6 =W Wg5 =B Be7 =B Bd6 =B Bf6 =B Bg3 "
       "=W Wc5.2 =W Wc1 =B Bf2 =R Rf4 =R Rd2 =R Re5.2 =R Re3.2 =W Wb2 =W Wc3.2 =R Rd4.3")


def test_a_complete_pyramid_wins():
    s = GAME.initial_state()
    for text in WIN.split():
        move = Move(text)
        if text.startswith("="):
            assert move in dict(GAME.chance_outcomes(s))
        else:
            assert move in GAME.legal_moves(s)
        s = GAME.apply(s, move)
    assert s.position.occupied == ALL_MASK
    assert [s.position.count(c) for c in (WHITE, BLACK, RED)] == [10, 10, 10]
    outcome = s.result
    assert outcome.winners == (0,) and outcome.scores == (30.0,)
    assert outcome.returns(1) == (1.0,) and outcome.reason == "the pyramid is complete"
    assert "Game over: won." in GAME.describe(s)


def test_the_apex_is_always_last_and_the_29th_ball_goes_on_level_2():
    # A point can only be filled last if nothing rests on it: the apex alone.
    assert [p for p in range(30) if not SUPPORTED_MASK[p]] == [29]
    # and a level-2 ball needs its 9 board balls and 4 level-1 balls placed first
    for q in (25, 26, 27, 28):
        under = SUPPORT_MASK[q]
        for p in points_of(SUPPORT_MASK[q]):
            under |= SUPPORT_MASK[p]
        assert under.bit_count() == 13


def test_some_draws_cannot_be_completed():
    # Nine whites first and the tenth last: the level-2 balls come from draws 14
    # to 29 (each needs 13 balls under it, and the apex comes last), none of them
    # white, so the apex cannot take the last white ball. This happens to about
    # 1 deal in 470 (the last colour at most once among draws 14-29), so the
    # text's warning is right; random and search players find far more losses.
    deal = "W" * 9 + "BR" * 10 + "W"
    assert len(deal) == 30 and deal.count("W") == 10
    assert deal[13:29].count("W") < 2
    share = (comb(20, 16) + 9 * comb(20, 15)) / comb(29, 16)
    assert round(1 / share) == 470
    # Random play on this deal never finishes, as the argument says.
    for seed in range(200):
        rng = random.Random(seed)
        s = GAME.initial_state()
        for colour in deal:
            s = GAME.apply(s, Move("=" + colour))
            if s.result is not None:
                break
            s = GAME.apply(s, rng.choice(GAME.legal_moves(s)))
        assert s.result is not None and s.result.winners == ()


def test_a_game_never_ends_before_the_board_is_full():
    rng = random.Random(3)
    scores = []
    for _ in range(2000):
        final = GAME.random_playout(GAME.initial_state(), rng)
        if not final.result.winners:
            assert final.position.occupied & BOARD_MASK == BOARD_MASK
        scores.append(final.result.scores[0])
    assert min(scores) >= 16
    assert 21 < sum(scores) / len(scores) < 24


def test_the_lowest_score_is_16():
    s = state("BBRR/BBRR/RRBB/RRBB|.../.../...|../..|.", "drawn=W")
    assert s.result.scores == (16.0,)
    assert all((s.position.white & SUPPORT_MASK[q]).bit_count() == 0
               for q in points_of(s.position.playable()))


def test_search_scores_higher_than_random_play():
    rng = random.Random(9)
    search, chance = [], []
    for seed in range(6):
        m = GAME.new_match(seed=seed)
        player = MCTSPlayer(iterations=40, seed=seed)
        while not m.is_over():
            m.push(player.choose(GAME, m.state))
        search.append(m.outcome().scores[0])
        m = GAME.new_match(seed=seed)
        while not m.is_over():
            m.push(rng.choice(m.legal_moves()))
        chance.append(m.outcome().scores[0])
    assert sum(search) > sum(chance)


# -- state text ------------------------------------------------------------------------

def test_state_text_round_trips_and_bad_states_are_refused():
    s = state(SMALL, "drawn=R")
    assert GAME.state_text(s) == f"{SMALL} 1 drawn=R"
    assert GAME.parse_state(GAME.state_text(s)) == s
    for bad in (f"{SMALL} 1 drawn=X", f"{SMALL} 1 drawn=W drawn=B", f"{SMALL} 1 w=1",
                "..../..../..../....|W../.../...|../..|. 1",          # floating
                "..../..../WB../BB..|.../.../W..|../..|. 1",          # one white under
                "WWWW/WWWW/WWW./....|.../.../...|../..|. 1",          # eleven whites
                "WWWW/WWWW/WW../....|.../.../...|../..|. 1 drawn=W"):  # an eleventh in hand
        with pytest.raises(NotationError):
            GAME.parse_state(bad)


# -- perft, cross-checked by an independent brute force ------------------------------------
#
# By hand: depth 1 = the three colours of the first draw; depth 2 = 3 x 16 holes;
# depth 3 = 48 x 3 draws; depth 4 = 144 x 15 holes (two balls never make a
# platform); depth 5 = 2160 x 3. Draws count as actions, as perft counts chance.
# The brute force shares no code with the engine: a dict from (level, x, y) to a
# letter, supports from tests/reference.py, the rules written again from the text.

def _options(board, drawn):
    if drawn is None:
        if len(board) == 30:
            return []
        return [(board, c) for c in "WBR" if list(board.values()).count(c) < 10]
    spots = []
    for pt in _ALL:
        if pt in board or not all(b in board for b in _below(pt)):
            continue
        if pt[0] == 0 or sum(board[b] == drawn for b in _below(pt)) >= 2:
            spots.append(({**board, pt: drawn}, None))
    return spots


def _brute(board, drawn, depth):
    options = _options(board, drawn)
    if depth == 1:
        return len(options)
    return sum(_brute(b, d, depth - 1) for b, d in options)


PERFT = [3, 48, 144, 2160, 6480]


def test_perft_matches_a_hand_count_and_an_independent_brute_force():
    assert [perft(GAME, d) for d in range(1, 6)] == PERFT
    assert PERFT == [3, 3 * 16, 48 * 3, 144 * 15, 2160 * 3]
    assert [_brute({}, None, d) for d in range(1, 5)] == PERFT[:4]


@pytest.mark.parametrize("seed,steps", [(1, 14), (2, 18), (3, 21), (4, 24), (5, 26), (6, 9)])
def test_perft_from_random_positions_matches_the_brute_force(seed, steps):
    s = walk(seed, steps)
    if seed % 2 and GAME.current_player(s) == CHANCE:
        s = GAME.apply(s, GAME.sample_chance(s, random.Random(seed)))
    drawn = None if s.drawn == 0 else ".WBR"[s.drawn]
    board = cells_of(s.position)
    depths = (1, 2, 3, 4) if steps > 20 else (1, 2, 3)
    assert [perft(GAME, d, s) for d in depths] == [_brute(board, drawn, d) for d in depths]


def test_perft_of_the_lost_position_is_zero_and_of_a_draw_three():
    assert perft(GAME, 1, state(LOST, "drawn=W")) == 0 == _brute(cells_of(Position(LOST)),
                                                                 "W", 1)
    at_draw = state(LOST)
    assert GAME.current_player(at_draw) == CHANCE
    assert perft(GAME, 1, at_draw) == 3
    assert perft(GAME, 2, at_draw) == _brute(cells_of(Position(LOST)), None, 2)
    assert isinstance(at_draw, SpaloneState) and at_draw.drawn == 0


# -- perfect play late in a game: exact expectimax --------------------------------------

def _replay(actions):
    s = GAME.initial_state()
    for text in actions:
        s = GAME.apply(s, Move(text))
    return s


def _brute_best(board, drawn=None):
    """Perfect play's chance to finish, from the rules written again (dict board)."""
    if drawn is None:
        if len(board) == 30:
            return 1.0
        left = {c: 10 - list(board.values()).count(c) for c in "WBR"}
        total = sum(left.values())
        return sum(n / total * _brute_best(board, c) for c, n in left.items() if n)
    return max((_brute_best(b) for b, _ in _options(board, drawn)), default=0.0)


def test_perfect_play_late_in_a_game_matches_a_brute_force():
    actions = WIN.split()
    one_left = _replay(actions[:-2])                     # everything but the apex
    assert best_chance(one_left.position) == 1.0         # the last ball is red: 2 reds below
    for placed in (23, 24, 25):
        s = _replay(actions[:2 * placed])
        exact = best_chance(s.position)
        assert abs(exact - _brute_best(cells_of(s.position))) < 1e-12
        for colour in "WBR":
            if bag_left(s.position)["WBR".index(colour)]:
                known = best_chance(s.position, " WBR".index(colour))
                assert abs(known - _brute_best(cells_of(s.position), colour)) < 1e-12
    assert 0 < best_chance(_replay(actions[:2 * 23]).position) < 1


def test_the_board_decides_perfect_play_from_a_full_board():
    good = Position("WBWW/WBBB/WRRR/BWBB|.../.../...|../..|.")
    assert round(best_chance(good), 4) == 0.4753
    assert best_chance(Position("BBRR/BBRR/RRBB/RRBB|.../.../...|../..|.")) == 0.0
    rng = random.Random(0)
    hopeless = 0
    for _ in range(40):
        bag = [WHITE] * 10 + [BLACK] * 10 + [RED] * 10
        rng.shuffle(bag)
        masks = [sum(1 << p for p in range(16) if bag[p] == c) for c in (WHITE, BLACK, RED)]
        hopeless += best_chance(Position.from_masks(*masks)) == 0
    assert hopeless >= 30
