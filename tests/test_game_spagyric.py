"""Spagyric: a secret duel for the colour each turn; a visible group of exactly four wins."""

import random
import re

import pytest
from hypothesis import given, settings, strategies as st

from conformance import (check_honest_ai, check_playouts,
                         check_random_games)
from shibumi import SIMULTANEOUS, IllegalMoveError, Move, NotationError, load
from shibumi.analysis import perft
from shibumi.game import Game
from shibumi.games.spagyric import (BEATS, DUELS, discard_pile, duel_winner, group_size,
                                    play_duels)
from shibumi.geometry import SYMMETRIES
from shibumi.notation import parse_point, point_name, transform_move
from shibumi.position import BLACK, RED, WHITE, Position
from reference import ALL, cells_of, centre, open_points, touch

GAME = load("spagyric")
LETTER = {WHITE: "W", BLACK: "B", RED: "R"}


def at(text, stocks, extras=""):
    """A state from a position and stocks like 'W8B8R8/W8B8R8'."""
    return GAME.parse_state(f"{text} 1 stocks={stocks} {extras}".strip())


def stocks_for(position):
    """Stocks that fit a position: Player 1 won every duel, Player 2 showed the
    colour each ball beat."""
    one, two = [8, 8, 8], [8, 8, 8]
    for colour in (WHITE, BLACK, RED):
        n = position.count(colour)
        one[colour - 1] -= n
        two[BEATS[colour] - 1] -= n
    return "/".join("W{}B{}R{}".format(*s) for s in (one, two))


def match_at(text, stocks=None):
    stocks = stocks or stocks_for(Position(text))
    return GAME.new_match(state=at(text, stocks))


def joint_walk(seed, duels):
    """A match after up to ``duels`` uniformly random joint choices."""
    rng = random.Random(seed)
    match = GAME.new_match()
    for _ in range(duels):
        if match.is_over():
            break
        match.push_joint([rng.choice(GAME.legal_moves(match.state, p)) for p in (0, 1)])
    return match


def live_walk(seed, duels):
    """A state after ``duels`` random duels that do not end the game (when possible)."""
    rng = random.Random(seed)
    s = GAME.initial_state()
    for _ in range(duels):
        for _ in range(100):
            after = GAME.apply_joint(s, tuple(rng.choice(GAME.legal_moves(s, p)) for p in (0, 1)))
            if not GAME.is_terminal(after):
                s = after
                break
    return s


# -- conformance ---------------------------------------------------------------------

def test_conformance():
    check_random_games("spagyric", seeds=range(60))
    check_playouts("spagyric", games=400)
    check_honest_ai(GAME)


def test_declaration_matches_the_catalogue():
    info = GAME.info
    assert (info.name, info.designer, info.year, info.family) == \
        ("Spagyric", "Nathan Morse", "2011", "Counting")
    assert info.simultaneous and not info.chance and info.complexity == 3
    assert (info.min_players, info.max_players) == (2, 2)
    assert info.max_length == DUELS + 1 == 25            # 24 duels and a tiebreaker


# -- the start and the duel ----------------------------------------------------------

def test_the_start_empty_board_eight_of_each_colour_both_choose():
    s = GAME.initial_state()
    assert s.position == Position.empty() and s.stocks == ((8, 8, 8), (8, 8, 8))
    assert GAME.current_player(s) == SIMULTANEOUS
    assert discard_pile(s.position, s.stocks) == (0, 0, 0)
    for p in (0, 1):
        moves = GAME.legal_moves(s, p)
        assert len(moves) == 48                            # 3 colours x 16 holes
        assert {m.colour for m in moves} == {WHITE, BLACK, RED}
    assert GAME.state_text(s) == "..../..../..../....|.../.../...|../..|. 1 stocks=W8B8R8/W8B8R8"


@pytest.mark.parametrize("first", [WHITE, BLACK, RED])
@pytest.mark.parametrize("second", [WHITE, BLACK, RED])
def test_white_beats_black_beats_red_beats_white(first, second):
    m = GAME.new_match()
    m.push_joint([Move.place(parse_point("a1"), first), Move.place(parse_point("g7"), second)])
    s = m.state
    assert s.stocks == tuple(tuple(8 - (c == k) for c in (WHITE, BLACK, RED))
                             for k in (first, second))
    winner = duel_winner(first, second)
    if first == second:
        assert winner is None and s.position.count() == 0
        assert discard_pile(s.position, s.stocks)[first - 1] == 2
        return
    strong = first if winner == 0 else second
    weak = second if winner == 0 else first
    assert BEATS[strong] == weak
    assert {(strong, weak)} <= {(WHITE, BLACK), (BLACK, RED), (RED, WHITE)}
    # the winner's ball is placed where the winner said; the loser's is discarded
    where = "a1" if winner == 0 else "g7"
    assert s.position.colour_at(parse_point(where)) == strong and s.position.count() == 1
    assert discard_pile(s.position, s.stocks)[weak - 1] == 1
    assert s.last == Move.place(parse_point(where), strong)


def test_the_point_named_with_a_losing_ball_is_never_used_nor_recorded():
    s = GAME.initial_state()
    states = {GAME.apply_joint(s, (Move("Wc3.0"), Move.place(parse_point(q), BLACK)))
              for q in ("a1", "c1", "g7", "c3.0")}
    assert len(states) == 1                                # same state, 'last' included
    tie = {GAME.apply_joint(s, (Move.place(parse_point(p), RED), Move.place(parse_point(q), RED)))
           for p in ("a1", "e5.0") for q in ("g1", "c3.0")}
    assert len(tie) == 1 and tie.pop().position.count() == 0


def test_only_colours_left_in_the_stock_may_be_shown():
    m = match_at("..../..../..../W.B.|.../.../...|../..|.", "W0B3R0/W1B1R1")
    assert {mv.colour for mv in m.legal_moves(0)} == {BLACK}
    assert {mv.colour for mv in m.legal_moves(1)} == {WHITE, BLACK, RED}
    before = m.state
    with pytest.raises(IllegalMoveError):
        m.push_joint(["Wc1", "Bc1"])                       # Player 1 has no white left
    with pytest.raises(IllegalMoveError):
        m.push_joint(["Bb2", "Bc1"])                       # b2 is not playable
    with pytest.raises(IllegalMoveError):
        m.push_joint(["Bc1"])                              # one choice per player
    assert m.state is before


def test_nobody_moves_alone():
    m = GAME.new_match()
    assert GAME.legal_moves(m.state) == [] == m.legal_moves()
    with pytest.raises(IllegalMoveError):
        m.push("Wa1")
    with pytest.raises(IllegalMoveError, match="at once"):
        GAME.apply(m.state, Move("Wa1"))
    with pytest.raises(IllegalMoveError):
        m.push_joint(["Wa1", "=R"])                         # no colour choice in a duel
    assert m.state == GAME.initial_state() and not m.history


# -- groups: exactly four wins, three or five or more loses ---------------------------

def test_a_group_of_exactly_four_wins_for_the_placer():
    m = match_at("..../..../..../WW.W|.../.../...|../..|.")    # a1 c1 pair, g1 alone
    m.push_joint(["We1", "Ba3"])
    assert m.is_over() and m.outcome().winners == (0,)
    assert m.outcome().reason == "Player 1 made a white group of 4"
    # the same ball placed by Player 2 wins for Player 2
    m = match_at("..../..../..../WW.W|.../.../...|../..|.")
    m.push_joint(["Ba3", "We1"])
    assert m.outcome().winners == (1,)


def test_a_group_of_three_loses_for_the_placer():
    m = match_at("..../..../..../WW..|.../.../...|../..|.")
    m.push_joint(["We1", "Ba3"])
    assert m.outcome().winners == (1,)
    assert m.outcome().reason == "Player 1 made a white group of 3 and loses"


def test_joining_two_pairs_makes_five_and_loses():
    m = match_at("..../..../...W/WW.W|.../.../...|../..|.")    # a1-c1 and g1-g3
    m.push_joint(["Be7", "We1"])
    assert m.outcome().winners == (0,)
    assert m.outcome().reason == "Player 2 made a white group of 5 and loses"


def test_a_pair_or_a_single_plays_on():
    m = match_at("..../..../..../W...|.../.../...|../..|.")
    m.push_joint(["Wc1", "Bg7"])
    assert not m.is_over() and group_size(m.state.position, parse_point("c1")) == 2
    m.push_joint(["Rg7", "We7"])                              # red beats white: g7 red, alone
    assert not m.is_over()


def test_a_ball_of_another_colour_between_does_not_link():
    # white pair a1-c1, black e1: a white ball on g1 touches only the black one
    m = match_at("..../..../..../WWB.|.../.../...|../..|.")
    m.push_joint(["Wg1", "Bg7"])
    assert not m.is_over() and group_size(m.state.position, parse_point("g1")) == 1
    # e3 touches g1 only diagonally: no contact either
    m.push_joint(["We3", "Bg7"])
    assert not m.is_over() and group_size(m.state.position, parse_point("e3.0")) == 1


# A hidden ball does not count. c3 (white) carries b2 (white): a pair. A white
# ball on c3.2 touches b2 and buries c3: the group is c3.2 and b2, two balls.
BURY = "RBWB/BRWB/BWRW/RBWR|.../RB./WR.|../..|."


def test_a_ball_hidden_by_the_placement_does_not_count():
    m = match_at(BURY)
    pos = m.state.position
    assert pos.colour_at(parse_point("c3.0")) == WHITE == pos.colour_at(parse_point("b2"))
    assert group_size(pos, parse_point("b2")) == 2 and pos.is_playable(parse_point("c3.2"))
    m.push_joint(["Wc3", "Bf2"])
    after = m.state.position
    assert after.hidden() >> parse_point("c3.0") & 1
    assert group_size(after, parse_point("c3.2")) == 2 and not m.is_over()
    # counted with the buried ball it would be three
    assert after.group(parse_point("c3.2"), visible_only=False).bit_count() == 3


# A cut contact does not count: white c3 and e3 touch, until d2 and d4 (level 1)
# are both in, and their contact passes over c3-e3.


def test_a_contact_cut_by_an_overpass_does_not_join():
    pos = Position("..../.RB./.WW./.BR.|.../.../.R.|../..|.")
    m = match_at(pos.text())
    assert group_size(pos, parse_point("c3.0")) == 2
    m.push_joint(["Bd4", "Ra1"])                             # black on d4 (over c3-e3)
    after = m.state.position
    assert group_size(after, parse_point("c3.0")) == 1       # c3-e3 is cut now
    m.push_joint(["Wa3", "Ba1"])                             # beside c3: a pair, not three
    assert not m.is_over() and group_size(m.state.position, parse_point("a3")) == 2
    # without the cut the same ball makes three and loses
    m = match_at(pos.text())
    m.push_joint(["Wa3", "Ba1"])
    assert m.outcome().winners == (1,)


# The book's example, rebuilt (its figure is lost): three playable points on one
# line of the top view (b6, d4 and f2), every one of them losing for black (and
# for white); red would make exactly four on the middle one. Player 1 (the
# book's X) has a white and a black ball left, Player 2 (Y) a white and a red.
BOOK = "WWBR/BRWB/WWRR/RBWW|.BR/B.B/RB.|../..|."
BOOK_STOCKS = "W1B1R0/W1B0R1"
BOOK_POINTS = ("b6", "d4.1", "f2")
BOOK_CENTRE = "d4.1"


def test_the_book_example_three_playable_points_all_losing_for_black():
    m = match_at(BOOK, BOOK_STOCKS)
    pos = m.state.position
    assert sorted(point_name(p) for p in range(30) if pos.is_playable(p)) == sorted(BOOK_POINTS)
    for name in BOOK_POINTS:
        p = parse_point(name)
        for colour in (WHITE, BLACK):
            size = group_size(pos.place(p, colour), p)
            assert size == 3 or size >= 5
        assert (group_size(pos.place(p, RED), p) == 4) == (name == BOOK_CENTRE)
    # X shows black, Y red: black beats red, and X must place it, on any point: X loses
    for name in BOOK_POINTS:
        again = match_at(BOOK, BOOK_STOCKS)
        again.push_joint([f"B{name}", f"R{BOOK_CENTRE}"])
        assert again.outcome().winners == (1,)
        assert again.outcome().reason.startswith("Player 1 made a black group of")


def test_in_the_book_example_red_was_the_obvious_choice():
    """Every pair of choices played out: X's black was X's only chance, and Y's
    red wins whatever X shows."""
    def final(x, y):
        m = match_at(BOOK, BOOK_STOCKS)
        m.push_joint([x, y])
        if not m.is_over():                                 # a tie: the last duel is forced
            m.push_joint([GAME.legal_moves(m.state, 0)[0], GAME.legal_moves(m.state, 1)[0]])
        return m.outcome().winners
    assert final("Wd4", "Wd4") == (1,)          # tie, then black must be placed: X loses
    assert final("Wd4", "Rd4") == (1,)          # red beats white, Y places it on d4: four
    assert final("Bd4", "Wd4") == (0,)          # white beats black, Y must place white: three
    assert final("Bd4", "Rd4") == (1,)          # the book's case


# -- the end of the stocks and the tiebreaker --------------------------------------

def test_24_tied_duels_then_a_tiebreaker_make_25_actions():
    duels = " ".join(f"{c}a1/{c}a1" for c in "WBR" for _ in range(8))
    m = play_duels(GAME, duels)
    s = m.state
    assert s.stocks == ((0, 0, 0), (0, 0, 0)) and s.position.count() == 0
    assert discard_pile(s.position, s.stocks) == (16, 16, 16)
    assert GAME.current_player(s) == SIMULTANEOUS and GAME.length(s) == 24
    assert GAME.legal_moves(s, 0) == GAME.legal_moves(s, 1) == [Move("=W"), Move("=B"), Move("=R")]
    m.push_joint(["=R", "=W"])
    assert m.is_over() and GAME.length(m.state) == 25 == GAME.info.max_length
    assert m.outcome().winners == (0,)
    assert m.outcome().reason == "tiebreaker: Player 1's red beats white"
    assert GAME.state_text(m.state).endswith("stocks=W0B0R0/W0B0R0 tiebreak=RW")


def test_a_tied_tiebreaker_is_a_draw():
    m = play_duels(GAME, " ".join(f"{c}a1/{c}a1" for c in "WBR" for _ in range(8)))
    m.push_joint(["=B", "=B"])
    assert m.is_over() and m.outcome().is_draw
    assert m.outcome().returns(2) == (0.5, 0.5)


def full_placement_duels():
    """24 duels that each place a ball and never make a group of three (found by a
    search): 8 balls of each colour, each player winning half of each colour."""
    balls = ("Re7 Bg5 Bg3 We1 Rc7 Rc3.0 Rg1 Wa1 Wg7 Ba7 Bc5.0 Re3.0 Wf2 Ra5 Wb6 Ba3 "
             "We5.0 Wd4.1 Bd6 Bc1 Wb2 Bd2 Rf4 Re3.2").split()
    seen = {c: 0 for c in "WBR"}
    duels = []
    for ball in balls:
        colour, point = ball[0], ball[1:]
        weak = LETTER[BEATS["_WBR".index(colour)]]
        pair = (ball, weak + point) if seen[colour] % 2 == 0 else (weak + point, ball)
        seen[colour] += 1
        duels.append("/".join(pair))
    return " ".join(duels)


def test_24_duels_can_each_place_a_ball_and_the_game_goes_to_the_tiebreaker():
    m = play_duels(GAME, full_placement_duels())
    s = m.state
    assert s.position.count() == 24 and not m.is_over()
    assert [s.position.count(c) for c in (WHITE, BLACK, RED)] == [8, 8, 8]
    assert max(g.bit_count() for c in (WHITE, BLACK, RED) for g in s.position.groups(c)) == 2
    assert s.stocks == ((0, 0, 0), (0, 0, 0)) and GAME.length(s) == DUELS == 24
    assert discard_pile(s.position, s.stocks) == (8, 8, 8)     # the 24 losing balls
    m.push_joint(["=W", "=R"])
    assert m.outcome().winners == (1,) and GAME.length(m.state) == 25


def test_no_game_has_more_than_24_duels():
    rng = random.Random(5)
    for _ in range(300):
        s = GAME.initial_state()
        duels = 0
        while not GAME.is_terminal(s):
            before = s.stocks
            s = GAME.random_step(s, rng)
            duels += s.stocks != before
        assert duels <= 24 and GAME.length(s) <= 25
        assert (s.tiebreak is not None) == (GAME.length(s) == 25)


# -- hidden information: nothing but the pending choice --------------------------------

def test_observation_is_the_state_and_determinise_gives_it_back():
    rng = random.Random(1)
    for seed in range(20):
        s = joint_walk(seed, seed % 12).state
        for p in (0, 1):
            seen = GAME.observe(s, p)
            assert seen == s
            assert GAME.determinise(seen, p, rng) == s
            assert GAME.observe(GAME.determinise(seen, p, rng), p) == seen


def test_both_stocks_follow_from_what_was_shown():
    # every ball that left a stock was shown: the stocks are a function of the
    # duels played, whoever won them
    m = play_duels(GAME, "Wa1/Ba3 Rc1/Rc1 Ba5/Wg7")
    assert m.state.stocks == ((7, 7, 7), (7, 7, 7))
    assert discard_pile(m.state.position, m.state.stocks) == (0, 2, 2)


# -- state text ------------------------------------------------------------------------

def test_state_text_round_trips_and_finished_games_name_who_decided():
    m = match_at("..../..../..../WW..|.../.../...|../..|.")
    m.push_joint(["Ba3", "We1"])                               # Player 2 makes three
    text = GAME.state_text(m.state)
    assert text.endswith(" by=2")
    again = GAME.parse_state(text)
    assert GAME.state_key(again) == GAME.state_key(m.state)
    assert again.result.winners == (0,)
    for seed in range(30):
        s = joint_walk(seed, 30).state
        again = GAME.parse_state(GAME.state_text(s))
        assert GAME.state_key(again) == GAME.state_key(s)


@pytest.mark.parametrize("bad", [
    "..../..../..../....|.../.../...|../..|. 1",                          # no stocks
    "..../..../..../....|.../.../...|../..|. 2 stocks=W8B8R8/W8B8R8",     # player 2
    "..../..../..../....|.../.../...|../..|. 1 stocks=W9B8R8/W8B8R8",     # 9 white
    "..../..../..../....|.../.../...|../..|. 1 stocks=W8B8R8/W8B8R7",     # unequal
    "..../..../..../....|.../.../...|../..|. 1 stocks=W8B8R8",            # one stock
    "..../..../..../....|.../.../...|../..|. 1 stocks=W8B8R8/W8B8R8 x=1",  # unknown
    "..../..../..../W...|.../.../...|../..|. 1 stocks=W8B8R8/W8B8R8",     # ball, no duel
    "..../..../..../W...|.../.../...|../..|. 1 stocks=W7B8R8/W7B8R8",     # white by a tie?
    "..../..../..../....|W../.../...|../..|. 1 stocks=W7B8R8/W8B7R8",     # floating ball
    "..../..../..../WWW.|.../.../...|../..|. 1 stocks=W5B8R8/W8B5R8",     # over, no by=
    "..../..../..../WW..|.../.../...|../..|. 1 stocks=W6B8R8/W8B6R8 by=1",  # not over
    "..../..../..../WWW.|.../.../...|../..|. 1 stocks=W5B8R8/W8B5R8 by=3",
    "..../WWW./..../WWW.|.../.../...|../..|. 1 stocks=W2B8R8/W8B2R8 by=1",  # two groups
    "..../..../..../....|.../.../...|../..|. 1 stocks=W8B8R8/W8B8R8 tiebreak=WB",
    "..../..../..../....|.../.../...|../..|. 1 stocks=W0B0R0/W0B0R0 tiebreak=WX",
    "..../..../..../....|.../.../...|../..|. 1 stocks=W8B8R8/W8B8R8 stocks=W8B8R8/W8B8R8",
])
def test_malformed_or_impossible_states_are_refused(bad):
    with pytest.raises(NotationError):
        GAME.parse_state(bad)


def test_the_duels_must_be_able_to_explain_the_board():
    # two white balls need two duels that white won over black
    assert at("..../..../..../W.W.|.../.../...|../..|.", "W6B8R8/W8B6R8").position.count(WHITE) == 2
    assert at("..../..../..../W.W.|.../.../...|../..|.", "W7B7R8/W7B7R8")   # one win each
    with pytest.raises(NotationError, match="sequence of duels"):
        at("..../..../..../W.W.|.../.../...|../..|.", "W6B8R8/W6B8R8")     # no black used
    with pytest.raises(NotationError, match="sequence of duels"):
        at("..../..../..../R...|.../.../...|../..|.", "W8B8R7/W8B7R8")     # red beat black?


# -- symmetry ----------------------------------------------------------------------

@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2 ** 32), st.integers(0, 24))
def test_symmetries_map_choices_outcomes_and_duels(seed, duels):
    s = joint_walk(seed, duels).state
    rng = random.Random(seed)
    assert GAME.symmetries == tuple(range(8))
    for index in GAME.symmetries:
        perm = SYMMETRIES[index]
        image = GAME.transform_state(s, perm)
        assert GAME.outcome(image) == GAME.outcome(s)
        again = GAME.parse_state(GAME.state_text(image))
        assert GAME.state_key(again) == GAME.state_key(image)
        if GAME.is_terminal(s):
            continue
        for p in (0, 1):
            assert set(GAME.legal_moves(image, p)) == \
                {transform_move(m, perm) for m in GAME.legal_moves(s, p)}
        joint = tuple(rng.choice(GAME.legal_moves(s, p)) for p in (0, 1))
        after = GAME.apply_joint(s, joint)
        mapped = GAME.apply_joint(image, tuple(transform_move(m, perm) for m in joint))
        assert GAME.state_key(mapped) == GAME.state_key(GAME.transform_state(after, perm))


# -- an engine-free model: groups, the end, perft ------------------------------------
#
# Points are (level, x, y); a board maps points to 'W', 'B', 'R'. Written from
# the rules: a ball is hidden when a ball sits two levels straight above it; two
# touching balls are linked unless one is hidden, or they lie side by side on a
# level and the two balls touching each other one level up right over the middle
# of their contact are both there.

WINS_OVER = {"W": "B", "B": "R", "R": "W"}


def _flat_mid(a, b):
    (ax, ay, _), (bx, by, _) = centre(a), centre(b)
    return ((ax + bx) / 2, (ay + by) / 2)


_OVER = {}
for _a in ALL:
    for _b in ALL:
        if _a < _b and _a[0] == _b[0] and touch(_a, _b):
            _OVER[(_a, _b)] = [
                (c, d) for c in ALL for d in ALL
                if c < d and c[0] == d[0] == _a[0] + 1 and touch(c, d)
                and _flat_mid(c, d) == _flat_mid(_a, _b)]


def _hidden(board, pt):
    lv, x, y = pt
    return (lv + 2, x - 1, y - 1) in board


def _linked(board, a, b):
    if not touch(a, b) or _hidden(board, a) or _hidden(board, b):
        return False
    key = (min(a, b), max(a, b))
    return not any(c in board and d in board for c, d in _OVER.get(key, []))


def _group_sizes(board):
    seen, sizes = set(), []
    for start in board:
        if start in seen or _hidden(board, start):
            continue
        seen.add(start)
        stack, size = [start], 0
        while stack:
            a = stack.pop()
            size += 1
            for b in board:
                if b not in seen and board[b] == board[a] and _linked(board, a, b):
                    seen.add(b)
                    stack.append(b)
        sizes.append(size)
    return sizes


def _read(state):
    """The model's own reading of a state's text: board, stocks, tiebreak played."""
    text = GAME.state_text(state)
    found = re.search(r"stocks=W(\d)B(\d)R(\d)/W(\d)B(\d)R(\d)", text)
    digits = [int(g) for g in found.groups()]
    stocks = (tuple(digits[:3]), tuple(digits[3:]))
    return cells_of(state.position), stocks, "tiebreak=" in text


def _pile(board, stocks):
    return {c: 16 - sum(1 for v in board.values() if v == c) - stocks[0][i] - stocks[1][i]
            for i, c in enumerate("WBR")}


def _bf_over(board):
    """Whether a group of three or more is on the board (the game has ended)."""
    return max(_group_sizes(board), default=0) >= 3


def _bf_judge(board, placer):
    """The winner once ``placer``'s ball made the board: any group of exactly four
    wins for the placer, any other group of three or more loses."""
    big = [s for s in _group_sizes(board) if s >= 3]
    if not big:
        return None
    return placer if big == [4] else 1 - placer


_MEMO = {}


def _bf_perft(board, stocks, depth, tiebroken=False):
    if depth == 0:
        return 1
    if tiebroken or _bf_over(board):
        return 0
    key = (frozenset(board.items()), stocks, depth)
    if key in _MEMO:
        return _MEMO[key]
    if not any(stocks[0]):                                 # the tiebreaker
        k = sum(1 for n in _pile(board, stocks).values() if n)
        total = k * k if depth == 1 else 0
    else:
        spots = open_points(board)
        n = len(spots)
        total = 0
        for i, c0 in enumerate("WBR"):
            for j, c1 in enumerate("WBR"):
                if not stocks[0][i] or not stocks[1][j]:
                    continue
                left = (tuple(k - (x == i) for x, k in enumerate(stocks[0])),
                        tuple(k - (x == j) for x, k in enumerate(stocks[1])))
                if c0 == c1:                               # any two points, nothing placed
                    total += n * n * _bf_perft(board, left, depth - 1)
                    continue
                strong = c0 if WINS_OVER[c0] == c1 else c1
                for spot in spots:                         # the loser's point: any of n
                    total += n * _bf_perft({**board, spot: strong}, left, depth - 1)
    _MEMO[key] = total
    return total


PERFT = [2304, 4879872, 9505092096]


def test_perft_golden_numbers_and_a_hand_count():
    assert [perft(GAME, d) for d in (1, 2)] == PERFT[:2]
    # depth 1: 48 x 48 choices. depth 2: after a tie (3 colours x 16 x 16 joint
    # choices) 48 x 48 again; after a placement (6 colour pairs x 16 x 16) one
    # hole is gone and each player has 3 colours x 15 points.
    assert PERFT[0] == 48 * 48
    assert PERFT[1] == 3 * 16 * 16 * 48 * 48 + 6 * 16 * 16 * 45 * 45


def test_perft_depth_3_matches_the_brute_force():
    board, stocks, _ = _read(GAME.initial_state())
    assert [_bf_perft(board, stocks, d) for d in (1, 2, 3)] == PERFT
    assert perft(GAME, 3) == PERFT[2]


def test_perft_from_random_positions_matches_the_brute_force():
    for seed, duels, depth in ((1, 6, 2), (2, 10, 2), (3, 16, 2), (4, 21, 3)):
        s = live_walk(seed, duels)
        assert GAME.length(s) == duels and not GAME.is_terminal(s)
        board, stocks, tb = _read(s)
        counts = [perft(GAME, d, s) for d in range(1, depth + 1)]
        assert counts == [_bf_perft(board, stocks, d, tb) for d in range(1, depth + 1)]
        if seed == 2:
            assert GAME.state_text(s) == \
                ".R.R/B..R/.W../...R|.../.../...|../..|. 1 stocks=W4B7R3/W5B5R4"
            assert counts == [900, 663660]


def test_perft_through_the_tiebreaker_matches_the_brute_force():
    # two duels left, then the tiebreaker
    m = play_duels(GAME, full_placement_duels().rsplit(" ", 2)[0])
    s = m.state
    assert sum(s.stocks[0]) == 2 and not m.is_over()
    board, stocks, tb = _read(s)
    counts = [perft(GAME, d, s) for d in (1, 2, 3, 4)]
    assert counts == [_bf_perft(board, stocks, d, tb) for d in (1, 2, 3, 4)]
    assert counts == [36, 216, 1620, 0]                      # over after the tiebreaker


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2 ** 32))
def test_random_games_end_as_the_brute_force_judges_every_group(seed):
    rng = random.Random(seed)
    m = GAME.new_match()
    while not m.is_over():
        before = m.state
        joint = [rng.choice(GAME.legal_moves(before, p)) for p in (0, 1)]
        m.push_joint(joint)
        s = m.state
        if before.stocks == ((0, 0, 0), (0, 0, 0)):             # the tiebreaker
            break
        board = cells_of(s.position)
        winner = duel_winner(joint[0].colour, joint[1].colour)
        assert (s.position == before.position) == (winner is None)
        if winner is None:
            assert not m.is_over()
            continue
        judged = _bf_judge(board, winner)
        if judged is None:
            assert not m.is_over()
        else:
            assert m.outcome().winners == (judged,)
        # only the group of the ball just placed can be three or more
        sizes = _group_sizes(board)
        assert sum(1 for x in sizes if x >= 3) <= 1
        assert max(sizes) == group_size(s.position, s.last.point) or max(sizes) <= 2


# -- playouts --------------------------------------------------------------------------

def test_fast_playouts_match_the_generic_loop_in_distribution():
    n = 3000
    fast, slow = [], []
    for seed in range(n):
        fast.append(GAME.random_playout(GAME.initial_state(), random.Random(seed)))
        slow.append(Game.random_playout(GAME, GAME.initial_state(), random.Random(seed + n)))
    for finals in (fast, slow):
        for f in finals:
            assert GAME.is_terminal(f)
            again = GAME.parse_state(GAME.state_text(f))
            assert GAME.state_key(again) == GAME.state_key(f)

    def share(finals, test):
        return sum(1 for f in finals if test(f)) / len(finals)

    for test in (lambda f: f.tiebreak is not None,
                 lambda f: f.result.winners == (0,),
                 lambda f: "of 4" in f.result.reason,
                 lambda f: GAME.length(f) <= 12):
        assert abs(share(fast, test) - share(slow, test)) < 0.04


@pytest.mark.slow
def test_deeper_perft_from_random_positions_matches_the_brute_force():
    for seed, duels in ((11, 4), (12, 9), (13, 13), (14, 17), (15, 20)):
        s = live_walk(seed, duels)
        assert GAME.length(s) == duels and not GAME.is_terminal(s)
        board, stocks, tb = _read(s)
        assert perft(GAME, 3, s) == _bf_perft(board, stocks, 3, tb)
