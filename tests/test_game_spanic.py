"""Spanic: hidden hands dealt from a bag; the first to empty their hand wins."""

import itertools
import math
import random
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from conformance import (check_honest_ai, check_playouts,
                         check_symmetries)
from shibumi import CHANCE, TERMINAL, IllegalMoveError, Move, NotationError, load
from shibumi.analysis import perft
from shibumi.games.spanic import BAG, HAND_SIZE, SpanicState, room_for
from shibumi.geometry import SYMMETRIES
from shibumi.notation import parse_point
from shibumi.position import BLACK, RED, WHITE, Position
from reference import below as _below, cells_of as _cells, open_points as _open

EMPTY = "..../..../..../....|.../.../...|../..|."
#: A three-player deal (the one Match(seed=1) makes).
DEAL3 = f"{EMPTY} 1 hands=WWWWBBBRRR/WWWBBBRRRR/WWWBBBBRRR"
#: A four-player deal, spares on a1 (white) and g7 (red).
DEAL4 = "...R/..../..../W...|.../.../...|../..|. 1 hands=WBBBRRR/WBBBRRR/WWBBBRR/WWWWWBR"
#: The rule book's colour-management example, rebuilt (figure lost): the board is
#: full, and only the platforms b2 and f6 hold two white balls.
FULL_BOARD = "BRWW/RBBR/BRRB/WWBR|.../.../...|../..|."
ONLY_TWO_WHITE = f"{FULL_BOARD} 1 hands=WWWBR/WWWBR/BBRR actions=16"
#: Four hands dealt; the last two balls in the bag (a black and a red) are the spares.
BEFORE_SPARES = f"{EMPTY} 1 hands=WWWWWWW/BBBBBBB/RRRRRRR/WWWBBRR"
#: FULL_BOARD less the red ball on g1: fifteen balls, so hands of 5, 5 and 5 fit.
NO_G1 = "BRWW/RBBR/BRRB/WWB.|.../.../...|../..|."


def game(players=3):
    return load("spanic", players=players)


def state(text, players=3):
    return game(players).parse_state(text)


def match_at(text, players=3):
    return game(players).new_match(state=state(text, players))


def walk(g, seed, steps):
    """A state after the deal and up to `steps` random actions (chance by its odds)."""
    rng = random.Random(seed)
    s = g.initial_state()
    while g.current_player(s) == CHANCE:
        s = g.random_step(s, rng)
    for _ in range(steps):
        if g.is_terminal(s):
            break
        s = g.random_step(s, rng)
    return s


def moves_text(m):
    return sorted(mv.text() for mv in m.legal_moves())


# -- conformance ---------------------------------------------------------------

@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_conformance(players):
    check_playouts("spanic", games=300, players=players)
    check_honest_ai(game(players))


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_games_through_a_match(players):
    """Random games through a match; undoing everything keeps the deal."""
    g = game(players)
    bound = players * (31 - players)
    for seed in range(25):
        rng = random.Random(seed)
        m = g.new_match(seed=seed)
        assert m.current_player == 0 and len(m.history) == sum(BAG)
        assert all(mv.kind == "choose" for mv in m.moves())
        actions = 0
        while m.current_player != TERMINAL:
            assert m.current_player == actions % players       # every action moves on
            legal = m.legal_moves()
            assert legal and legal[-1] == Move("pass")
            move = rng.choice(legal)
            assert m.parse(m.move_text(move)) == move
            m.push(move)
            actions += 1
            assert actions <= bound <= g.info.max_length
            again = g.parse_state(g.state_text(m.state))
            assert g.state_key(again) == g.state_key(m.state)
            assert g.length(m.state) == actions
        outcome = m.outcome()
        assert outcome.winners and all(0 <= w < players for w in outcome.winners)
        assert m.legal_moves() == []
        m.pop()                                       # the last action only
        assert m.current_player >= 0 and len(m.history) == sum(BAG) + actions - 1
        while len(m.history) > sum(BAG):
            m.pop()
        assert m.state == g.new_match(seed=seed).state       # the deal stays
        with pytest.raises(IllegalMoveError):
            m.pop()


# -- the deal ------------------------------------------------------------------

@pytest.mark.parametrize("players,size,spares", [(3, 10, 0), (4, 7, 2), (5, 6, 0), (6, 5, 0)])
def test_the_deal_sizes_and_the_four_player_spares(players, size, spares):
    g = game(players)
    assert HAND_SIZE[players] == size and g.hand_size == size
    start = g.initial_state()
    assert g.current_player(start) == CHANCE and start.position.occupied == 0
    assert g.legal_moves(start) == []
    for seed in range(20):
        s = g.new_match(seed=seed).state
        assert [sum(h) for h in s.hands] == [size] * players
        assert s.position.count() == spares == 30 - size * players
        if spares:
            assert s.position.occupied == 1 << parse_point("a1") | 1 << parse_point("g7")
        for c in (WHITE, BLACK, RED):                  # the whole bag is out
            assert s.position.count(c) + sum(h[c - 1] for h in s.hands) == 10
        assert g.bag(s) == (0, 0, 0) and s.to_move == 0 and s.actions == 0


def test_the_deal_goes_round_the_table_and_draws_by_the_bag():
    g = game(3)
    s = g.initial_state()
    assert g.chance_outcomes(s) == [(Move("=W"), 1 / 3), (Move("=B"), 1 / 3),
                                    (Move("=R"), 1 / 3)]
    for colour, who in zip("WWBR", (0, 1, 2, 0)):
        s = g.apply(s, Move("=" + colour))
        assert sum(s.hands[who]) == (2 if who == 0 and colour == "R" else 1)
    assert s.hands == ((1, 0, 1, 0), (1, 0, 0, 0), (0, 1, 0, 0))
    odds = dict((m.text(), p) for m, p in g.chance_outcomes(s))
    assert odds == {"=W": 8 / 26, "=B": 9 / 26, "=R": 9 / 26}
    for _ in range(8):                                  # every white drawn
        s = g.apply(s, Move("=W"))
    assert [m.text() for m, _ in g.chance_outcomes(s)] == ["=B", "=R"]


def test_four_players_the_spares_are_the_last_two_balls_on_a1_then_g7():
    g = game(4)
    s = g.parse_state(BEFORE_SPARES)
    assert g.current_player(s) == CHANCE
    assert [(m.text(), p) for m, p in g.chance_outcomes(s)] == [("=B", 0.5), ("=R", 0.5)]
    s = g.apply(s, Move("=R"))
    assert s.position.colour_at(parse_point("a1")) == RED
    assert s.hands == state(BEFORE_SPARES, 4).hands
    assert g.chance_outcomes(s) == [(Move("=B"), 1.0)]
    s = g.apply(s, Move("=B"))
    assert s.position.colour_at(parse_point("g7")) == BLACK
    assert g.current_player(s) == 0


def test_a_match_deals_with_its_seeded_generator():
    g = game(3)
    deals = {tuple(g.new_match(seed=seed).moves()) for seed in range(30)}
    assert len(deals) == 30                              # different seeds, different draws
    assert g.new_match(seed=7).state == g.new_match(seed=7).state


def test_dealt_hands_follow_the_bag_statistically():
    # Player 1's whites over many deals: hypergeometric, mean 10 * 10/30.
    g = game(3)
    rng = random.Random(5)
    whites = []
    for _ in range(800):
        s = g.initial_state()
        while g.current_player(s) == CHANCE:
            s = g.random_step(s, rng)
        whites.append(s.hands[0][0])
    mean = sum(whites) / len(whites)
    assert abs(mean - 10 / 3) < 0.15
    assert min(whites) <= 1 and max(whites) >= 6


# -- placing and passing ---------------------------------------------------------

def test_the_first_turn_any_colour_in_hand_in_any_hole_or_pass():
    m = match_at(DEAL3)
    assert len(m.legal_moves()) == 3 * 16 + 1
    assert m.legal_moves()[-1].text() == "pass"
    m2 = match_at(f"{EMPTY} 1 hands=WWWWWWWWWW/BBBBBBBBBB/RRRRRRRRRR")
    assert {mv.colour for mv in m2.legal_moves() if mv.kind == "place"} == {WHITE}
    with pytest.raises(IllegalMoveError):
        m2.push("Ba1")                                   # no black ball in hand
    assert m2.state.position.occupied == 0


def test_a_platform_takes_a_colour_only_with_two_of_it_underneath():
    # The b2 platform holds white a1, a3, c3 and black c1: white may go on it,
    # black and red may not; d2's platform is not finished.
    text = ("..../..../WW../WB..|.../.../...|../..|. 1 "
            "hands=WBRRRRRR/WWBBBBBBB/WWWWBRRRR actions=6")
    m = match_at(text)
    b2 = parse_point("b2")
    assert [mv.text() for mv in m.legal_moves() if mv.point == b2] == ["Wb2"]
    for bad in ("Bb2", "Rb2", "Wd2"):
        with pytest.raises(IllegalMoveError):
            m.push(bad)
    assert m.state == state(text)                         # nothing changed
    m.push("Wb2")
    assert m.state.position.colour_at(b2) == WHITE and m.state.hands[0] == (0, 1, 6, 0)


def test_two_of_a_colour_is_enough_and_the_other_two_can_be_anything():
    # Platform b2: two red, one white, one black -> red only.
    m = match_at("..../..../RW../RB..|.../.../...|../..|. 1 "
                 "hands=WWWBBBRRR/WWWBBBRRR/WWWBBBRR actions=6")
    assert [mv.text() for mv in m.legal_moves() if mv.point == parse_point("b2")] == ["Rb2"]


def test_a_player_whose_colours_fit_nowhere_must_pass():
    # Full board with a single white ball; level 1 open.  Player 1 holds only
    # white: the only white-friendly platform needs two whites, so none fits.
    text = "BBBB/RRRR/BBRR/WBRR|.../.../...|../..|. 1 hands=WW/WWWWBBB/WWWRR actions=16"
    m = match_at(text)
    assert moves_text(m) == ["pass"]
    m.push("pass")
    assert m.current_player == 1


def test_passing_is_allowed_even_when_a_ball_fits():
    m = match_at(DEAL3)
    m.push("pass")
    assert m.state.passes == 1 and m.current_player == 1


# -- the end ---------------------------------------------------------------------

def test_placing_the_last_ball_wins_at_once():
    text = f"{FULL_BOARD} 2 hands=WWWBR/W/WWBBBRRR actions=17"
    m = match_at(text)
    m.push("Wb2")                                        # a white platform: the last ball
    assert m.is_over() and m.legal_moves() == []
    out = m.outcome()
    assert out.winners == (1,) and out.reason == "Player 2 placed their last ball"
    assert out.ranking == ((1,), (0, 2))


def test_the_last_ball_may_go_in_a_hole_after_passes():
    m = match_at(f"{NO_G1} 3 hands=WWWBBRR/WWWBBRR/R passes=1 actions=20")
    m.push("Rg1")
    assert m.outcome().winners == (2,) and m.state.passes == 0


def test_a_full_round_of_passes_ends_the_game_and_fewest_balls_win():
    m = match_at(f"{FULL_BOARD} 1 hands=WWWBR/WWBR/WBBRR actions=16")
    m.push("pass")
    m.push("pass")
    assert not m.is_over() and m.state.passes == 2
    m.push("pass")
    out = m.outcome()
    assert out.winners == (1,)
    assert out.reason == "everyone passed in turn; balls left: Player 1 5, Player 2 4, Player 3 5"
    assert out.ranking == ((1,), (0, 2))


def test_a_placement_starts_the_count_of_passes_again():
    m = match_at(f"{FULL_BOARD} 1 hands=WWWBR/WWBR/WBBRR actions=16")
    m.push("pass")
    m.push("pass")
    m.push("Rd2")                                        # Player 3 on the red platform d2
    assert m.state.passes == 0
    for _ in range(2):
        m.push("pass")
    assert not m.is_over()
    m.push("pass")
    assert m.is_over()


def test_players_tied_on_the_fewest_share_the_win():
    m = match_at(f"{FULL_BOARD} 2 hands=WWWBR/WWBRR/WBBR passes=2 actions=18")
    m.push("pass")                                        # the third pass in a row
    assert m.outcome().winners == (2,)
    m = match_at(f"{FULL_BOARD} 2 hands=WWWB/WWBR/WBBRRR passes=2 actions=18")
    m.push("pass")
    out = m.outcome()
    assert out.winners == (0, 1) and out.ranking == ((0, 1), (2,))
    assert out.returns(3) == (0.5, 0.5, 0.0)
    m = match_at(f"{NO_G1} 2 hands=WWBBR/WWBRR/WWBRR passes=2 actions=18")
    m.push("pass")
    assert m.outcome().winners == (0, 1, 2) and m.outcome().ranking == ((0, 1, 2),)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_n_minus_one_passes_do_not_end_the_game(players):
    m = game(players).new_match(seed=3)
    for _ in range(players - 1):
        m.push("pass")
    assert not m.is_over() and m.state.passes == players - 1
    m.push("pass")
    out = m.outcome()
    assert out.winners == tuple(range(players))           # nobody placed: all tied


def test_a_finished_state_read_from_text_is_finished():
    g = game(3)
    s = g.parse_state(f"{FULL_BOARD} 3 hands=WWWBRR/-/WWWBBBRR actions=20")
    assert g.is_terminal(s) and s.result.winners == (1,)
    s = g.parse_state(f"{FULL_BOARD} 1 hands=WWWBR/WWWB/BBRRR passes=3 actions=20")
    assert g.is_terminal(s) and s.result.winners == (1,)
    assert perft(g, 2, s) == 0


def test_the_longest_game_bound():
    # n (31 - n) actions at most: largest for six players.
    assert [n * (31 - n) for n in (3, 4, 5, 6)] == [84, 108, 130, 150]
    assert game().info.max_length == 150
    for players in (3, 6):
        g = game(players)
        rng = random.Random(players)
        longest = max(g.length(g.random_playout(g.initial_state(), rng)) for _ in range(300))
        assert longest <= players * (31 - players)


# -- the rule book's example ---------------------------------------------------------

def test_the_book_example_only_two_more_white_balls_can_be_played():
    m = match_at(ONLY_TWO_WHITE)
    pos = m.state.position
    assert pos.playable() >> 16 == 0b111111111            # the board is full
    white_spots = sorted(mv.text() for mv in m.legal_moves() if mv.colour == WHITE)
    assert white_spots == ["Wb2", "Wf6"]
    assert room_for(pos, WHITE) == 2 == _room(_cells(pos), "W", {"W": 6, "B": 4, "R": 4})
    # so Player 1 and Player 2, holding three white balls each, cannot finish,
    # while every black and red ball still in hand (four of each) can be placed
    assert room_for(pos, BLACK) == 4 == room_for(pos, RED)


def placed(g, seed, balls):
    """A state after the deal and `balls` random placements (no passes), or earlier
    if the game ends or nothing fits."""
    rng = random.Random(seed)
    s = walk(g, seed, 0)
    while s.position.count() < balls and not g.is_terminal(s):
        places = [m for m in g.legal_moves(s) if m.kind == "place"]
        s = g.apply(s, rng.choice(places) if places else Move("pass"))
    return s


def test_room_for_agrees_with_an_independent_search():
    g = game(3)
    for seed in range(4):
        pos = placed(g, seed, 21).position
        supply = {c: 10 - pos.count(i) for c, i in zip("WBR", (WHITE, BLACK, RED))}
        for colour, letter in ((WHITE, "W"), (RED, "R")):
            assert room_for(pos, colour) == _room(_cells(pos), letter, supply)


def _room(board, colour, supply, memo=None):
    """Engine-free: the most balls of `colour` that can still be placed."""
    memo = {} if memo is None else memo
    key = (frozenset(board.items()), tuple(sorted(supply.items())))
    if key in memo:
        return memo[key]
    best = 0
    for c in "WBR":
        if not supply[c]:
            continue
        for pt in _open(board):
            if pt[0] == 0 or sum(board[q] == c for q in _below(pt)) >= 2:
                after = _room({**board, pt: c}, colour, {**supply, c: supply[c] - 1}, memo)
                best = max(best, after + (c == colour))
    memo[key] = best
    return best


# -- hidden information ----------------------------------------------------------------

def test_a_seat_sees_its_own_hand_the_board_and_the_counts_only():
    g = game(3)
    s = state(DEAL3)
    seen = g.observe(s, 1)
    assert seen.hands == ((0, 0, 0, 10), (3, 3, 4, 0), (0, 0, 0, 10))
    assert seen.position == s.position and seen.to_move == s.to_move
    assert g.extra_text(seen) == "hands=??????????/WWWBBBRRRR/??????????"
    assert g.observe(seen, 1) == seen                       # nothing more to hide


def test_states_differing_only_in_another_hand_look_the_same():
    g = game(3)
    a = state(ONLY_TWO_WHITE)
    b = state(f"{FULL_BOARD} 1 hands=WWWBR/WWBBR/WBRR actions=16")
    c = state(f"{FULL_BOARD} 1 hands=WWBBR/WWWWR/BBRR actions=16")
    assert g.observe(a, 0) == g.observe(b, 0)                # P2 and P3 swapped a ball
    assert g.observe(a, 1) != g.observe(b, 1)
    assert g.observe(a, 2) != g.observe(b, 2)
    assert g.observe(a, 2) == g.observe(c, 2)
    assert g.observe(a, 0) != g.observe(c, 0)


def test_the_deal_is_secret_from_the_others_and_so_is_the_last_draw():
    g = game(3)
    m = g.new_match(seed=4)
    assert m.state.last.kind == "choose"                     # the deal's last ball
    for seat in range(3):
        seen = g.observe(m.state, seat)
        assert seen.last is None
        assert [sum(h) for h in seen.hands] == [10, 10, 10]
        assert seen.hands[seat] == m.state.hands[seat]
    # mid-deal too
    s = g.initial_state()
    for colour in "WBRW":
        s = g.apply(s, Move("=" + colour))
    assert g.observe(s, 0).hands == ((2, 0, 0, 0), (0, 0, 0, 1), (0, 0, 0, 1))
    m.push("pass")
    assert g.observe(m.state, 2).last == Move("pass")        # play is public


def test_determinise_gives_states_that_look_the_same():
    for players in (3, 4, 5, 6):
        g = game(players)
        rng = random.Random(players)
        for seed in range(15):
            s = walk(g, seed, seed * 2)
            for seat in range(players):
                seen = g.observe(s, seat)
                sample = g.determinise(seen, seat, rng)
                assert g.observe(sample, seat) == seen
                assert all(h[3] == 0 for h in sample.hands)
                assert g.bag(sample) == (0, 0, 0)
                assert g.state_key(g.parse_state(g.state_text(sample))) == g.state_key(sample)


def test_determinise_draws_every_consistent_hand_in_its_true_proportion():
    # Player 1 holds WWBR; the ten unseen balls (W4 B3 R3) are split 5 and 5.
    g = game(3)
    s = state(f"{FULL_BOARD} 1 hands=WWBR/WWBBR/WWBRR actions=16")
    seen = g.observe(s, 0)
    pool = {WHITE: 4, BLACK: 3, RED: 3}
    exact = {}
    for w, b in itertools.product(range(5), range(4)):
        r = 5 - w - b
        if 0 <= r <= 3:
            exact[(w, b, r)] = (math.comb(4, w) * math.comb(3, b) * math.comb(3, r)
                                / math.comb(10, 5))
    assert abs(sum(exact.values()) - 1) < 1e-12 and len(exact) == 14
    rng = random.Random(11)
    draws = 6000
    counts = Counter()
    for _ in range(draws):
        sample = g.determinise(seen, 0, rng)
        second, third = sample.hands[1], sample.hands[2]
        assert sample.hands[0] == s.hands[0]
        assert all(second[i] + third[i] == pool[c] for i, c in enumerate((WHITE, BLACK, RED)))
        counts[second[:3]] += 1
    assert set(counts) == set(exact)                          # every split appears
    for split, p in exact.items():
        assert abs(counts[split] / draws - p) < 4 * math.sqrt(p * (1 - p) / draws) + 0.002


def test_determinise_mid_deal_leaves_the_rest_in_the_bag():
    g = game(4)
    s = g.initial_state()
    for colour in "WBRRW":
        s = g.apply(s, Move("=" + colour))
    seen = g.observe(s, 0)
    sample = g.determinise(seen, 0, random.Random(1))
    assert g.observe(sample, 0) == seen
    assert sum(g.bag(sample)) == 25 and g.current_player(sample) == CHANCE


def test_a_full_state_determinises_to_itself():
    g = game(3)
    s = state(DEAL3)
    seen = g.observe(s, 0)
    full = type(seen)(seen.position, seen.to_move, seen.result, seen.last,
                      s.hands, seen.passes, seen.actions)
    assert g.determinise(full, 0, random.Random(0)) == full


def test_an_impossible_observation_is_refused():
    g = game(3)
    seen = SpanicState(Position.empty(), 0, None, None,
                       ((10, 0, 0, 0), (0, 0, 0, 10), (0, 0, 0, 11)), 0, 0)
    with pytest.raises(NotationError):
        g.determinise(seen, 0, random.Random(0))


# -- text, bad input, symmetry --------------------------------------------------------------

def test_state_text_round_trips_with_hidden_hands_and_observations():
    g = game(4)
    s = g.parse_state(DEAL4)
    assert g.state_text(s) == DEAL4
    seen = g.observe(s, 3)
    text = g.state_text(seen)
    assert text.endswith("hands=???????/???????/???????/WWWWWBR")
    assert g.parse_state(text) == seen
    assert g.state_text(g.initial_state()) == f"{EMPTY} 1 hands=-/-/-/-"


@pytest.mark.parametrize("bad", [
    f"{EMPTY} 1",                                                     # no hands
    f"{EMPTY} 1 hands=WWWWBBBRRR/WWWBBBRRRR",                          # two hands of three
    f"{EMPTY} 1 hands=WWWWBBBRRX/WWWBBBRRRR/WWWBBBBRRR",               # a bad letter
    f"{EMPTY} 1 hands=WWWWWWWWWW/WWWBBBRRRR/WBBBBBBRRR",               # 13 white balls
    f"{EMPTY} 1 hands=WWWWBBBRRR/WWWBBBRRRR/WWWBBBBRRR hands=-/-/-",   # two hands fields
    f"{EMPTY} 1 hands=WWWWBBBRRR/WWWBBBRRRR/WWWBBBBRRR colour=W",      # unknown field
    f"{EMPTY} 2 hands=WWWWBBBRR/WWWBBBRRR/WWWBBBBRR",                  # wrong seat in the deal
    f"{EMPTY} 1 hands=WWWWBBBRR/WWWBBBRRR/WWWBBBBRRR",                 # not dealt in turn
    f"{EMPTY} 1 hands=WWWWBBBRRR/WWWBBBRRRR/WWWBBBBRRR passes=4",      # too many passes
    f"{EMPTY} 1 hands=WWWWBBBRRR/WWWBBBRRRR/WWWBBBBRRR passes=2",      # passes without actions
    "W.../..../..../....|.../.../...|../..|. 1 hands=WWWBBBRRRR/WWWBBBRRRR/WWWBBBBRRR",
    "WWW./WWW./WWW./B...|.../.../...|../..|. 1 hands=-/BBBBBBBRRR/BBRRRRRRRW actions=10",
    f"{FULL_BOARD.replace('|.../.../...|', '|.../.../.B.|')} 1 hands=WWWBR/WWWB/BRRR "
    "actions=17",                                      # black on d2 over a single black
    f"{FULL_BOARD} 3 hands=WWW/-/WWWBBBBRRRR actions=16",              # 11 balls in a hand
    f"{FULL_BOARD} 1 hands=WWWBR/WWWBR/BBRR actions=3",                # fewer actions than balls
    f"{FULL_BOARD} 1 hands=-/WWWWWWBB/BBRRRR actions=16",   # the empty hand did not just play
])
def test_bad_states_are_refused(bad):
    with pytest.raises(NotationError):
        game(3).parse_state(bad)


def test_bad_four_player_states_are_refused():
    g = game(4)
    for bad in (DEAL4.replace("...R/", "..../") + " actions=1",         # moved before g7
                DEAL4.replace("...R/", "..R./"),                        # a spare off g7
                f"{FULL_BOARD} 2 hands=WWWWWWB/-/-/BBBRRRR actions=16",  # two empty hands
                f"{EMPTY} 1 hands=WWWWWWW/BBBBBBB/RRRRRRR/WWWBBBR/-"):  # five hands
        with pytest.raises(NotationError):
            g.parse_state(bad)
    mid = g.parse_state("...R/..../..../....|.../.../...|../..|. 1 hands=WWWWWWW/BBBBBBB/"
                        "RRRRRRR/WWWBBBR")             # g7 filled first: a1 comes next
    assert g.chance_outcomes(mid) == [(Move("=R"), 1.0)]
    assert g.apply(mid, Move("=R")).position.colour_at(0) == RED


def test_illegal_moves_never_change_the_state():
    m = match_at(DEAL3)
    before = m.state
    for bad in ("b2", "=W", "xa1", "Wa1>c1", "Wd4.3"):
        with pytest.raises((IllegalMoveError, NotationError)):
            m.push(bad)
    with pytest.raises(NotationError):
        m.push("zz9")
    assert m.state is before and m.history == []


def test_four_players_keep_only_the_turns_that_fix_a1_and_g7():
    assert game(4).symmetries == (0, 2, 6, 7)
    for players in (3, 5, 6):
        assert game(players).symmetries == tuple(range(8))
    corners = {parse_point("a1"), parse_point("g7")}
    for i, perm in enumerate(SYMMETRIES):
        assert ({perm[p] for p in corners} == corners) == (i in game(4).symmetries)


def dealing(g, seed, draws):
    """A state part-way through the deal."""
    rng = random.Random(seed)
    s = g.initial_state()
    for _ in range(draws):
        s = g.random_step(s, rng)
    return s


@settings(max_examples=40)
@given(st.sampled_from([3, 4, 5, 6]), st.integers(0, 2 ** 32), st.integers(-30, 40))
def test_symmetries_observations_and_text_on_random_states(players, seed, steps):
    """Negative steps stop in the deal: 30 + steps balls drawn."""
    g = game(players)
    s = walk(g, seed, steps) if steps >= 0 else dealing(g, seed, 30 + steps)
    for image in check_symmetries(g, s):
        assert g.state_key(g.parse_state(g.state_text(image))) == g.state_key(image)
    assert g.state_key(g.parse_state(g.state_text(s))) == g.state_key(s)
    rng = random.Random(seed)
    for seat in range(players):
        seen = g.observe(s, seat)
        assert g.parse_state(g.state_text(seen)) == dataclass_without_last(seen)
        assert g.observe(g.determinise(seen, seat, rng), seat) == seen
        assert [sum(h) for h in seen.hands] == [sum(h) for h in s.hands]


def dataclass_without_last(s):
    return type(s)(s.position, s.to_move, s.result, None, s.hands, s.passes, s.actions)


# -- perft, cross-checked by an independent brute force ---------------------------------
#
# By hand, from the three-player deal DEAL3 (every hand holds all three colours):
# depth 1 = 3 colours x 16 holes + pass = 49; depth 2 = 48 placements, each
# followed by 3 x 15 + 1 = 46 moves, plus the pass followed by 49: 2257.

def _hands_of(text):
    """Hands from a state's text: [{'W': n, 'B': n, 'R': n}, ...] (parsed here)."""
    field = next(t for t in text.split() if t.startswith("hands="))[6:]
    return [{c: ("" if h == "-" else h).count(c) for c in "WBR"} for h in field.split("/")]


def _field(text, key):
    found = [t for t in text.split() if t.startswith(key + "=")]
    return int(found[0].split("=")[1]) if found else 0


SPARES = [(0, 0, 0), (0, 3, 3)]                 # a1, g7 in (level, x, y)


def _brute(board, hands, mover, passes, depth, players):
    """Leaves of the action tree, with the deal as chance actions (engine-free)."""
    if depth == 0:
        return 1
    size = 30 // players if players != 4 else 7
    in_hands = sum(sum(h.values()) for h in hands)
    drawn = in_hands + len(board)
    if drawn < 30:                              # dealing: one branch per colour in the bag
        bag = {c: 10 - sum(v == c for v in board.values()) - sum(h[c] for h in hands)
               for c in "WBR"}
        total = 0
        for c in "WBR":
            if not bag[c]:
                continue
            if drawn < size * players:
                new = [dict(h) for h in hands]
                new[drawn % players][c] += 1
                total += _brute(board, new, 0, 0, depth - 1, players)
            else:
                hole = next(p for p in SPARES if p not in board)
                total += _brute({**board, hole: c}, hands, 0, 0, depth - 1, players)
        return total
    if any(not sum(h.values()) for h in hands) or passes == players:
        return 0
    following = (mover + 1) % players
    total = _brute(board, hands, following, passes + 1, depth - 1, players)
    for c in "WBR":
        if not hands[mover][c]:
            continue
        for pt in _open(board):
            if pt[0] and sum(board[q] == c for q in _below(pt)) < 2:
                continue
            new = [dict(h) for h in hands]
            new[mover][c] -= 1
            total += _brute({**board, pt: c}, new, following, 0, depth - 1, players)
    return total


class _Text:
    """A position's text, in the shape reference.cells_of reads."""
    def __init__(self, text):
        self._text = text

    def text(self):
        return self._text


def _brute_from(text, depth, players=3):
    """The brute force on a state given as text (read here, not by the engine)."""
    board, mover = text.split()[:2]
    return _brute(_cells(_Text(board)), _hands_of(text), int(mover) - 1,
                  _field(text, "passes"), depth, players)


PERFT_DEAL3 = [49, 2257, 97345, 3914064]
PERFT_DEAL4 = [43, 1723, 64009]
PERFT_START = [3, 9, 27, 81, 243]


def test_perft_from_a_deal_matches_a_hand_count_and_a_brute_force():
    g = game(3)
    s = state(DEAL3)
    assert [perft(g, d, s) for d in range(1, 5)] == PERFT_DEAL3
    assert PERFT_DEAL3[:2] == [3 * 16 + 1, 48 * (3 * 15 + 1) + 49]
    assert [_brute_from(DEAL3, d) for d in (1, 2, 3)] == PERFT_DEAL3[:3]
    g4 = game(4)
    assert [perft(g4, d, state(DEAL4, 4)) for d in (1, 2, 3)] == PERFT_DEAL4
    # a1 and g7 hold the spares: 14 holes; Player 2 also holds all three colours
    assert PERFT_DEAL4[:2] == [3 * 14 + 1, 42 * (3 * 13 + 1) + 43]
    assert [_brute_from(DEAL4, d, 4) for d in (1, 2)] == PERFT_DEAL4[:2]


def test_perft_from_random_positions_matches_the_brute_force():
    cases = ((3, 1, 12, 3), (3, 2, 25, 5), (5, 3, 18, 4), (6, 4, 22, 4), (4, 5, 10, 3),
             (4, 7, 16, 4))
    for players, seed, steps, depth in cases:
        g = game(players)
        s = walk(g, seed, steps)
        assert not g.is_terminal(s) and s.position.count() > 5
        text = g.state_text(s)
        assert [perft(g, d, s) for d in range(1, depth + 1)] == \
            [_brute_from(text, d, players) for d in range(1, depth + 1)], text


def test_perft_through_the_deal_counts_the_colour_sequences():
    g = game(3)
    assert [perft(g, d) for d in range(1, 6)] == PERFT_START
    assert [_brute_from(g.state_text(g.initial_state()), d) for d in range(1, 6)] == PERFT_START
    # eleven draws: every sequence but the three of one colour only
    assert perft(g, 11) == 3 ** 11 - 3
    # the four-player deal ends with the two spares: from the state before them
    g4 = game(4)
    before = state(BEFORE_SPARES, 4)
    assert perft(g4, 2, before) == 2 == _brute_from(BEFORE_SPARES, 2, 4)
    assert perft(g4, 3, before) == _brute_from(BEFORE_SPARES, 3, 4)


@pytest.mark.slow
def test_perft_of_the_whole_deal_is_the_number_of_colour_orders():
    # the ways to order ten balls of each of three colours (about 19 s)
    assert perft(game(3), 30) == math.factorial(30) // math.factorial(10) ** 3 \
        == 5550996791340


@pytest.mark.parametrize("players", [3, 6])
def test_the_playout_pairs_mask_gives_the_allowed_points(players):
    """The playout's kept mask of platforms on two balls of a colour (bits.pairs_under)
    gives allowed_points with the holes, along random games."""
    from shibumi.bits import playable_of
    from shibumi.geometry import BOARD_MASK
    from shibumi.bits import pairs_under
    from shibumi.games.spanic import COLOURS, allowed_points
    g = game(players)
    for seed in range(40):
        s, rng = g.initial_state(random.Random(seed)), random.Random(seed)
        while not g.is_terminal(s):
            pos = s.position
            masks = (0, pos.white, pos.black, pos.red)
            playable = playable_of(pos.occupied)
            for c in COLOURS:
                kept = playable & BOARD_MASK | playable & ~BOARD_MASK & pairs_under(masks[c])
                assert kept == allowed_points(masks, c, playable)
            s = g.random_step(s, rng)
