"""Spindizzy: secret choices of a ball, the Master's colour orders the placers,
small pyramids score for their majority colour or their top ball."""

import random

import pytest
from hypothesis import given, settings, strategies as st

from conformance import (check_honest_ai, check_playouts,
                         check_random_games, check_symmetries)
from shibumi import SIMULTANEOUS, IllegalMoveError, Move, NotationError, load
from shibumi.analysis import perft
from shibumi.game import Game, random_choice
from shibumi.games.spindizzy import final_result, pyramid_winner
from shibumi.position import BLACK, RED, WHITE, Position
from reference import ALL, below, cells_of, open_points

GAME = load("spindizzy")
START = "..../..../..../....|.../.../...|../..|."


def play(text, state=None):
    """A match after turns like 'BRW:a1,c1,a3' (the three secret colours, White's
    first, then the points in the order the players place)."""
    match = GAME.new_match(state=state)
    for turn in text.split():
        colours, _, points = turn.partition(":")
        match.push_joint(["=" + c for c in colours])
        for point in points.split(","):
            match.push(point)
    return match


def random_state(seed, actions):
    rng = random.Random(seed)
    state = GAME.initial_state()
    for _ in range(actions):
        if GAME.is_terminal(state):
            break
        state = GAME.random_step(state, rng)
    return state


# -- conformance -------------------------------------------------------------------
def test_conformance():
    check_random_games("spindizzy", seeds=range(12))
    check_playouts("spindizzy", games=200)


def test_honest_ai():
    check_honest_ai(load("spindizzy"))


def test_declaration_matches_the_catalogue():
    info = GAME.info
    assert (info.name, info.designer, info.year, info.family) == \
        ("Spindizzy", "Dieter Stein", "2011", "Counting")
    assert info.min_players == info.max_players == 3 == GAME.num_players
    assert info.hidden_information and info.simultaneous and info.complexity == 4


@pytest.mark.parametrize("seed,actions", [(1, 5), (2, 13), (3, 22), (4, 31), (5, 38)])
def test_symmetries_on_random_states(seed, actions):
    state = random_state(seed, actions)
    check_symmetries(GAME, state)
    for image in check_symmetries(GAME, state):
        assert GAME.scores(image.position) == GAME.scores(state.position)
        if GAME.current_player(state) == SIMULTANEOUS:
            for p in range(3):
                assert GAME.legal_moves(image, p) == GAME.legal_moves(state, p)


# -- the start and the gift ----------------------------------------------------------
def test_the_start_stocks_follow_from_the_gift():
    # seat p keeps 5, gives 3 to the left (p + 1) and 2 to the right (p - 1)
    stocks = [[0, 0, 0] for _ in range(3)]
    for p in range(3):
        stocks[p][p] += 5
        stocks[(p + 1) % 3][p] += 3
        stocks[(p - 1) % 3][p] += 2
    state = GAME.initial_state()
    assert state.stocks == tuple(map(tuple, stocks)) == ((5, 2, 3), (3, 5, 2), (2, 3, 5))
    assert state.position.text() == START and state.to_move == 0     # White is Master
    assert GAME.current_player(state) == SIMULTANEOUS
    assert GAME.legal_moves(state) == []                 # nobody chooses alone
    for p in range(3):
        assert [m.text() for m in GAME.legal_moves(state, p)] == ["=W", "=B", "=R"]
    assert GAME.state_text(state) == f"{START} 1 stocks=W5B2R3/W3B5R2/W2B3R5"


# -- the order of placing -------------------------------------------------------------
@pytest.mark.parametrize("master_shows,first", [("W", 0), ("B", 1), ("R", 2)])
def test_the_masters_colour_names_the_first_placer_then_to_the_left(master_shows, first):
    match = GAME.new_match()
    match.push_joint(["=" + master_shows, "=R", "=W"])
    order = []
    for point in ("a1", "c1", "e1"):
        order.append(match.current_player)
        match.push(point)
    assert order == [first, (first + 1) % 3, (first + 2) % 3]
    # whoever placed last is the next Master
    assert match.current_player == SIMULTANEOUS
    assert match.state.to_move == order[-1]


def test_each_player_places_the_ball_they_showed():
    match = GAME.new_match()
    match.push_joint(["=R", "=W", "=B"])        # White (Master) shows red: Red first
    assert match.current_player == 2
    assert {m.colour for m in match.legal_moves()} == {BLACK}
    match.push("a1")
    assert match.current_player == 0 and {m.colour for m in match.legal_moves()} == {RED}
    match.push("c1")
    assert match.current_player == 1 and {m.colour for m in match.legal_moves()} == {WHITE}
    match.push("e1")
    assert match.state.position.text() == "..../..../..../BRW.|.../.../...|../..|."
    assert match.state.to_move == 1             # Black placed last: the next Master
    assert match.state.stocks == ((5, 2, 2), (2, 5, 2), (2, 2, 5))


def test_the_next_master_decides_the_next_order():
    match = play("RWB:a1,c1,e1")                # Black is Master now
    match.push_joint(["=W", "=W", "=B"])        # Black shows white: White first
    assert match.current_player == 0


def test_a_stock_runs_out_of_a_colour():
    match = play("BWW:a1,c1,e1 BWW:g1,a3,c3")   # White has shown both black balls
    assert [m.text() for m in GAME.legal_moves(match.state, 0)] == ["=W", "=R"]
    assert [m.text() for m in GAME.legal_moves(match.state, 2)] == ["=B", "=R"]
    with pytest.raises(IllegalMoveError):
        match.push_joint(["=B", "=W", "=R"])


# -- scoring --------------------------------------------------------------------------
def test_pyramid_winner_every_count_pattern():
    W, B, R = WHITE, BLACK, RED
    assert pyramid_winner((R, R, R, W, B)) == R          # 3-1-1: majority
    assert pyramid_winner((W, B, B, B, W)) == B          # 3-2 with the top outvoted
    assert pyramid_winner((W, R, R, B, B)) == W          # 2-2-1: the lone top decides
    assert pyramid_winner((R, R, W, W, B)) == R          # 2-2-1: top is one of the pairs
    assert pyramid_winner((B, B, B, B, B)) == B
    assert pyramid_winner((W, R, R, R, R)) == R          # 4-1


def _pyramid(top, supports):
    """a1 a3 c1 c3 as supports (in that order), the top on b2, the rest empty."""
    board = ["...."] * 4
    a1, c1, a3, c3 = supports
    board[3] = a1 + c1 + ".."
    board[2] = a3 + c3 + ".."
    return Position("/".join(board) + f"|.../.../{top}..|../..|.")


@pytest.mark.parametrize("top,supports,scores", [
    ("R", "RRWB", (0, 0, 1)),      # red for Red: three of five
    ("W", "BBBW", (0, 1, 0)),      # black for Black, though the top is white
    ("W", "RRBB", (1, 0, 0)),      # white for White: two pairs, the top decides
])
def test_the_three_book_cases_one_point_each(top, supports, scores):
    assert GAME.scores(_pyramid(top, supports)) == scores


def test_only_completed_pyramids_score():
    position = Position("..../..../..../RRRR|.../.../...|../..|.")
    assert GAME.scores(position) == (0, 0, 0)


def test_every_pyramid_scores_so_14_points_in_all():
    for seed in range(20):
        final = GAME.random_playout(GAME.initial_state(), random.Random(seed))
        assert sum(GAME.scores(final.position)) == 14
        assert GAME.outcome(final).scores == tuple(float(s) for s in
                                                   GAME.scores(final.position))


def test_most_points_wins_and_a_two_way_tie_goes_to_the_third():
    names = GAME.player_names
    assert final_result((6, 4, 4), names).winners == (0,)
    assert final_result((3, 6, 5), names).winners == (1,)
    tie = final_result((5, 5, 4), names)
    assert tie.winners == (2,) and "third" in tie.reason
    assert final_result((2, 6, 6), names).winners == (0,)
    assert final_result((6, 2, 6), names).winners == (1,)


def test_a_real_tie_game_is_won_by_the_third_player():
    seen = 0
    for seed in range(200):
        final = GAME.random_playout(GAME.initial_state(), random.Random(seed))
        s = GAME.scores(final.position)
        if sorted(s)[1] == sorted(s)[2]:
            low = s.index(min(s))
            assert GAME.outcome(final).winners == (low,)
            seen += 1
    assert seen


# -- length, record, text ---------------------------------------------------------------
def test_every_game_is_exactly_40_actions():
    for seed in range(10):
        match = GAME.new_match()
        rng = random.Random(seed)
        actions = 0
        while not match.is_over():
            if match.current_player == SIMULTANEOUS:
                match.push_joint(rng.choice(GAME.legal_moves(match.state, p))
                                 for p in range(3))
            else:
                match.push(random_choice(rng, match.legal_moves()))
            actions += 1
        assert actions == GAME.info.max_length == 40 == GAME.length(match.state)
        assert match.state.stocks == ((0, 0, 0),) * 3
        again = GAME.new_match(record=match.record())
        assert again.state == match.state


def test_state_text_round_trips_mid_turn():
    match = play("RWB:a1,c1")
    text = GAME.state_text(match.state)
    # Red placed black on a1, White red on c1: Black still holds white
    assert text == "..../..../..../BR..|.../.../...|../..|. 2 " \
        "stocks=W5B2R2/W2B5R2/W2B2R5 held=.W."
    assert GAME.parse_state(text) == GAME.parse_state(text)
    assert GAME.state_key(GAME.parse_state(text)) == GAME.state_key(match.state)


@pytest.mark.parametrize("bad", [
    f"{START} 1",                                              # no stocks
    f"{START} 1 stocks=W5B2R3/W3B5R2",                         # two stocks
    f"{START} 1 stocks=W5B2R3/W3B5R2/W2B3R5 colour=W",         # unknown field
    f"{START} 1 stocks=W5B2R2/W3B5R2/W2B3R5",                  # uneven stocks
    f"{START} 1 stocks=W5B2R3/W3B5R2/W2B3R5 held=WWW",         # balls out of nowhere
    f"{START} 1 stocks=W4B2R3/W2B5R2/W2B3R4 held=WXR",         # bad letter
    f"{START} 1 stocks=W2B5R2/W5B2R2/W2B2R5",                  # a turn but no balls
    "RRR./..../..../....|.../.../...|../..|. 1 stocks=W4B2R3/W3B4R2/W2B3R3",  # R had 5
    "W.../..../..../....|.../.../...|../..|. 1 stocks=W5B2R3/W3B5R2/W2B3R5",
    "..../..../..../....|.W./.../...|../..|. 1 stocks=W5B2R2/W3B5R2/W2B3R5",
    "..../..../..../BRW.|.../.../...|../..|. 2 stocks=W5B2R2/W2B5R2/W2B2R5 held=B..",
    f"{START} 4 stocks=W5B2R3/W3B5R2/W2B3R5",
])
def test_malformed_or_impossible_states_are_refused(bad):
    with pytest.raises(NotationError):
        GAME.parse_state(bad)


def test_a_state_held_by_seats_after_the_placer_is_accepted():
    # Black (Master) showed black and placed it on g1; Red, then White, still hold
    text = "..../..../..../BRWB|.../.../...|../..|. 3 stocks=W5B2R1/W2B4R2/W2B2R4 " \
           "held=R.R"
    state = GAME.parse_state(text)
    assert GAME.state_key(state) == GAME.state_key(play("RWB:a1,c1,e1 RBR:g1").state)
    assert GAME.current_player(state) == 2
    assert GAME.state_text(state) == text


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10 ** 6), st.integers(0, 40))
def test_random_states_round_trip_through_text(seed, actions):
    state = random_state(seed, actions)
    again = GAME.parse_state(GAME.state_text(state))
    assert GAME.state_key(again) == GAME.state_key(state)
    assert GAME.current_player(again) == GAME.current_player(state)
    assert GAME.length(state) == actions


# -- bad input never changes the state -----------------------------------------------------
def test_illegal_actions_are_refused_and_change_nothing():
    match = GAME.new_match()
    before = match.state
    with pytest.raises(IllegalMoveError):
        GAME.apply(before, Move.place(0, WHITE))            # choices come first, together
    with pytest.raises(IllegalMoveError):
        GAME.apply_joint(before, (Move.choose(WHITE),) * 2)
    match.push_joint(["=B", "=R", "=W"])
    placing = match.state
    with pytest.raises(IllegalMoveError):
        GAME.apply(placing, Move.place(0, WHITE))           # Black holds black
    with pytest.raises(IllegalMoveError):
        GAME.apply(placing, Move.place(16, BLACK))          # b2 is not playable
    with pytest.raises(IllegalMoveError):
        GAME.apply_joint(placing, (Move.choose(WHITE),) * 3)
    with pytest.raises((IllegalMoveError, NotationError)):
        match.push("b2")
    assert match.state is placing and before == GAME.initial_state()


# -- what each seat sees --------------------------------------------------------------------
@pytest.mark.parametrize("seed,actions", [(0, 0), (1, 1), (2, 7), (3, 20), (4, 39)])
def test_observation_is_everything_a_seat_with_memory_knows(seed, actions):
    state = random_state(seed, actions)
    for seat in range(3):
        seen = GAME.observe(state, seat)
        assert seen == state
        drawn = GAME.determinise(seen, seat, random.Random(seed))
        assert GAME.observe(drawn, seat) == seen


def test_the_stocks_follow_from_what_was_shown():
    # every seat can work out every stock: the gift is fixed and every ball is shown
    state = random_state(9, 22)
    shown = [[0, 0, 0] for _ in range(3)]
    match = GAME.new_match()
    rng = random.Random(9)
    for _ in range(22):
        if match.current_player == SIMULTANEOUS:
            moves = [random_choice(rng, GAME.legal_moves(match.state, p)) for p in range(3)]
            for p, m in enumerate(moves):
                shown[p][m.colour - 1] += 1
            match.push_joint(moves)
        else:
            match.push(random_choice(rng, match.legal_moves()))
    start = GAME.initial_state().stocks
    assert match.state.stocks == tuple(tuple(start[p][i] - shown[p][i] for i in range(3))
                                       for p in range(3))
    assert state.stocks == match.state.stocks


def test_states_that_differ_give_different_observations():
    # nothing is hidden from a seat: a different stock is a different observation
    a = GAME.parse_state(f"{START} 1 stocks=W5B2R3/W3B5R2/W2B3R5")
    b = play("WWW:a1,c1,e1").state
    c = play("BWW:a1,c1,e1").state
    for seat in range(3):
        assert GAME.observe(b, seat) != GAME.observe(c, seat) != GAME.observe(a, seat)


# -- an engine-free model: scoring, and perft ------------------------------------------------
START_BF = {"W": {"W": 5, "B": 2, "R": 3}, "B": {"W": 3, "B": 5, "R": 2},
            "R": {"W": 2, "B": 3, "R": 5}}
SEATS = "WBR"


def bf_points(board):
    points = {s: 0 for s in SEATS}
    for pt in ALL:
        if pt[0] and pt in board:
            five = [board[pt]] + [board[q] for q in below(pt)]
            counts = {c: five.count(c) for c in SEATS}
            best = max(counts.values())
            leaders = [c for c in SEATS if counts[c] == best]
            points[leaders[0] if len(leaders) == 1 else board[pt]] += 1
    return points


def bf_state(state):
    """The brute force's own view of a state, from the state's text only."""
    words = GAME.state_text(state).split()
    board = cells_of(Position(words[0]))
    fields = dict(w.split("=") for w in words[2:])
    stocks = []
    for part in fields["stocks"].split("/"):
        stocks.append({"W": int(part[1:part.index("B")]),
                       "B": int(part[part.index("B") + 1:part.index("R")]),
                       "R": int(part[part.index("R") + 1:])})
    held = list(fields.get("held", "..."))
    return board, stocks, held, int(words[1]) - 1


def bf_perft(board, stocks, held, mover, depth):
    if depth == 0:
        return 1
    if len(board) == 30:
        return 0
    if held[mover] == ".":                       # all three choose
        total = 0
        options = [[c for c in SEATS if stocks[p][c]] for p in range(3)]
        for a in options[0]:
            for b in options[1]:
                for c in options[2]:
                    picks = [a, b, c]
                    left = [dict(s) for s in stocks]
                    for p in range(3):
                        left[p][picks[p]] -= 1
                    first = SEATS.index(picks[mover])
                    total += bf_perft(board, left, picks, first, depth - 1)
        return total
    total = 0
    for pt in open_points(board):
        rest = list(held)
        rest[mover] = "."
        nxt = (mover + 1) % 3
        total += bf_perft({**board, pt: held[mover]}, stocks, rest,
                          nxt if rest[nxt] != "." else mover, depth - 1)
    return total


PERFT = [27, 432, 6480, 90720, 2449440]


def test_perft_golden_numbers_and_a_hand_count():
    assert PERFT[:2] == [27, 27 * 16]
    assert PERFT[2:4] == [27 * 16 * 15, 27 * 16 * 15 * 14]
    assert [perft(GAME, d) for d in (1, 2, 3, 4)] == PERFT[:4]


def test_perft_from_the_start_matches_the_brute_force():
    start = bf_state(GAME.initial_state())
    assert [bf_perft(*start, d) for d in (1, 2, 3, 4)] == PERFT[:4]


@pytest.mark.parametrize("seed,actions", [(11, 3), (12, 4), (13, 17), (14, 26), (15, 36)])
def test_perft_from_random_positions_matches_the_brute_force(seed, actions):
    state = random_state(seed, actions)
    counts = [perft(GAME, d, state) for d in (1, 2, 3)]
    assert counts == [bf_perft(*bf_state(state), d) for d in (1, 2, 3)]


@pytest.mark.slow
def test_perft_depth_5_matches_the_brute_force():
    assert perft(GAME, 5) == PERFT[4] == bf_perft(*bf_state(GAME.initial_state()), 5)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10 ** 6))
def test_scores_and_winner_match_the_brute_force(seed):
    final = GAME.random_playout(GAME.initial_state(), random.Random(seed))
    board, *_ = bf_state(final)
    points = bf_points(board)
    assert GAME.scores(final.position) == tuple(points[s] for s in SEATS)
    ranked = sorted(SEATS, key=lambda s: -points[s])
    if points[ranked[0]] == points[ranked[1]]:
        expected = ranked[2]
    else:
        expected = ranked[0]
    assert GAME.outcome(final).winners == (SEATS.index(expected),)


def test_fast_playouts_match_the_generic_loop_in_distribution():
    games = 300
    fast = [GAME.random_playout(GAME.initial_state(), random.Random(s)) for s in range(games)]
    slow = [Game.random_playout(GAME, GAME.initial_state(), random.Random(s))
            for s in range(games)]
    for finals in (fast, slow):
        assert all(GAME.length(f) == 40 for f in finals)
    mean = lambda xs: sum(GAME.scores(f.position)[0] for f in xs) / games  # noqa: E731
    assert abs(mean(fast) - mean(slow)) < 0.6
