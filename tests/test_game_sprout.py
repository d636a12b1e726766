"""Sprout: a cooperative pyramid grown from drawn balls, two patterns forbidden, a few trades."""

import itertools
import random

import pytest
from hypothesis import given, settings, strategies as st

from conformance import (check_playouts, check_random_games,
                         check_symmetries)
from reference import ALL as _ALL, below as _below, cells_of
from shibumi import CHANCE, TERMINAL, IllegalMoveError, NotationError, load
from shibumi.analysis import perft
from shibumi.errors import UnknownGameError
from shibumi.game import Outcome
from shibumi.games.sprout import LEVELS, SproutOutcome, allowed, broken_rule
from shibumi.geometry import ALL_MASK, SUPPORT_MASK, points_of
from shibumi.interaction import Table
from shibumi.notation import Move, parse_point
from shibumi.players import MCTSPlayer
from shibumi.position import BLACK, RED, WHITE, Position

GAME = load("sprout")
EMPTY = "..../..../..../....|.../.../...|../..|."


def game(players=1, level="medium"):
    return load("sprout", players=players, level=level)


def state(text, players=1, level="medium"):
    return game(players, level).parse_state(text)


def walk(g, seed, steps):
    """The state after up to ``steps`` random player actions (draws by the bag)."""
    rng = random.Random(seed)
    s = g.initial_state()
    acted = 0
    while not g.is_terminal(s) and acted < steps:
        if g.current_player(s) == CHANCE:
            s = g.apply(s, g.sample_chance(s, rng))
        else:
            s = g.apply(s, rng.choice(g.legal_moves(s)))
            acted += 1
    while g.current_player(s) == CHANCE:
        s = g.apply(s, g.sample_chance(s, rng))
    return s


def texts(moves):
    return [m.text() for m in moves]


# -- conformance --------------------------------------------------------------------

def test_conformance():
    check_playouts("sprout", games=200)
    check_playouts("sprout", games=100, players=3, level="easy")
    assert GAME.info.chance and not GAME.info.hidden_information
    assert GAME.info.max_length == 33 == 30 + max(LEVELS.values())
    assert (GAME.info.min_players, GAME.info.max_players) == (1, 5)


def test_random_games_through_a_match():
    check_random_games("sprout", seeds=range(12))
    check_random_games("sprout", seeds=range(6), players=3, level="easy")
    check_random_games("sprout", seeds=range(4), players=5, level="hard")


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2 ** 32), st.integers(0, 32), st.sampled_from([1, 2, 4]))
def test_all_eight_symmetries_keep_moves_results_and_draws(seed, steps, players):
    g = game(players)
    assert g.symmetries == tuple(range(8))
    s = walk(g, seed, steps)
    for image in check_symmetries(g, s):
        assert g.chance_outcomes(image) == g.chance_outcomes(s)
        assert g.state_key(g.parse_state(g.state_text(image))) == g.state_key(image)


def test_parameters_are_checked():
    assert [game(level=lv).trades for lv in ("easy", "medium", "hard")] == [3, 2, 1]
    assert GAME.params == {"players": 1, "level": "medium"}
    for bad in ({"players": 6}, {"players": 0}, {"level": "expert"}, {"level": 2}):
        with pytest.raises(UnknownGameError):
            load("sprout", **bad)
    assert game(1).player_name(0) == "Player"
    assert [game(3).player_name(p) for p in range(3)] == ["Player 1", "Player 2", "Player 3"]


# -- the start, the draws, the turns --------------------------------------------------

def test_each_player_draws_a_ball_player_1_first_then_player_1_plays():
    g = game(3)
    s = g.initial_state()
    assert s.hands == (0, 0, 0) and s.swaps == 2 and s.position.occupied == 0
    assert g.current_player(s) == CHANCE and g.legal_moves(s) == []
    assert g.chance_outcomes(s) == [(Move("=W"), 1 / 3), (Move("=B"), 1 / 3),
                                    (Move("=R"), 1 / 3)]
    for colour in "WWB":
        s = g.apply(s, Move("=" + colour))
    assert s.hands == (WHITE, WHITE, BLACK) and g.current_player(s) == 0
    # a1 and Player 2's ball are white: 14 of the 45 balls left are white
    assert g.chance_outcomes(g.apply(g.apply(s, Move("Wa1")), Move("=R"))) == []
    after = g.apply(s, Move("Wa1"))
    assert after.hands == (0, WHITE, BLACK) and after.to_move == 1
    assert g.current_player(after) == CHANCE                # Player 1 draws at once
    assert g.chance_outcomes(after) == [(Move("=W"), 14 / 45), (Move("=B"), 15 / 45),
                                        (Move("=R"), 16 / 45)]
    drawn = g.apply(after, Move("=R"))
    assert drawn.hands == (RED, WHITE, BLACK) and g.current_player(drawn) == 1
    m = g.new_match(seed=5)
    assert len(m.history) == 3 and all(mv.kind == "choose" for mv in m.moves())
    assert m.current_player == 0 and g.new_match(seed=5).state == m.state


def test_hands_are_open_and_said_in_words():
    g = game(2)
    s = g.parse_state("..../..../..../...W|.../.../...|../..|. 2 hands=RB swaps=1")
    assert g.observe(s, 0) == s                         # nothing hidden
    assert g.status_lines(s) == ["Balls in hand: Player 1 red, Player 2 black.",
                                 "Trades left: 1 of 2 (medium level).",
                                 "In the bag: 15 white, 15 black and 15 red balls."]
    assert GAME.status_lines(GAME.parse_state(f"{EMPTY} 1 hands=W swaps=0"))[0] == \
        "Ball in hand: white."


def test_a_placement_passes_the_turn_a_trade_does_not():
    g = game(2)
    s = g.parse_state(f"{EMPTY} 1 hands=WB swaps=2")
    traded = g.apply(s, Move("=R"))
    assert traded.to_move == 0 and traded.hands == (RED, BLACK) and traded.swaps == 1
    assert g.current_player(traded) == 0 and g.length(traded) == 1
    placed = g.apply(traded, Move("Ra1"))
    assert placed.to_move == 1 and g.current_player(placed) == CHANCE
    assert g.length(placed) == 2


# -- the two forbidden patterns ---------------------------------------------------------

def test_no_two_balls_of_a_colour_diagonally_next_to_each_other():
    s = GAME.parse_state("..../..../..../W...|.../.../...|../..|. 1 hands=W swaps=2")
    legal = {m.point for m in GAME.legal_moves(s) if m.kind == "place"}
    c3, c1, a3 = parse_point("c3.0"), parse_point("c1"), parse_point("a3")
    assert c3 not in legal                              # diagonal neighbour of a1
    assert {c1, a3} <= legal                            # orthogonal neighbours may match
    assert len(legal) == 14
    for colour in (BLACK, RED):
        assert allowed(s.position, colour) >> c3 & 1
    # on level 1 too: b2 white forbids d4.1 (and f2 is no neighbour of it)
    board = "WBWB/RRRR/BWBW/RRRR"
    pos = Position(f"{board}|.../.../W..|../..|.")
    assert broken_rule(pos) is None
    assert not allowed(pos, WHITE) >> parse_point("d4.1") & 1
    assert broken_rule(Position(f"{board}|.../.W./W..|../..|.")) == \
        "the white balls at b2 and d4.1 are diagonal neighbours on one level"


def test_a_raised_ball_may_rest_on_one_ball_of_its_colour_not_two():
    # b2 rests on a1 c1 a3 c3 = W W R B (a1, c3 and c1, a3 unlike: rule 1 holds)
    pos = Position("..../..../RB../WW..|.../.../...|../..|.")
    b2 = parse_point("b2")
    assert [pos.colour_at(q) for q in points_of(SUPPORT_MASK[b2])] == [WHITE, WHITE, RED, BLACK]
    assert not allowed(pos, WHITE) >> b2 & 1            # two whites under it
    assert allowed(pos, BLACK) >> b2 & 1 and allowed(pos, RED) >> b2 & 1   # one each
    assert broken_rule(Position("..../..../RB../WW..|.../.../W..|../..|.")) == \
        "the white ball at b2 rests on two white balls"


def test_the_other_reading_of_the_second_rule_would_forbid_every_stacking():
    # "two balls of one colour, any colour, under it": four balls, three colours.
    assert all(len(set(c)) < 4 for c in itertools.product("WBR", repeat=4))
    # whereas ours lets random games stack: most finished games have raised balls
    rng = random.Random(2)
    raised = [GAME.random_playout(GAME.initial_state(), rng).position.occupied >> 16
              for _ in range(50)]
    assert sum(r != 0 for r in raised) > 25


def test_some_colour_always_fits_a_platform_and_the_apex_never_blocks_all():
    # With rule 1 each diagonal pair of a platform is unlike, so no colour is there
    # more than twice and one colour at most once: rule 2 leaves it free.
    for a, b, c, d in itertools.product("WBR", repeat=4):   # a-d and b-c diagonal
        if a != d and b != c:
            counts = [(a, b, c, d).count(x) for x in "WBR"]
            assert max(counts) <= 2 and min(counts) <= 1


# -- trades ------------------------------------------------------------------------------

def test_a_trade_takes_another_colour_from_the_bag_and_uses_one_of_the_levels_trades():
    for level, trades in LEVELS.items():
        g = game(1, level)
        s = g.parse_state(f"{EMPTY} 1 hands=W swaps={trades}")
        assert texts(g.legal_moves(s))[-2:] == ["=B", "=R"]      # never the held colour
        for _ in range(trades):
            s = g.apply(s, Move("=B" if s.hands[0] != BLACK else "=R"))
        assert s.swaps == 0 and g.length(s) == trades
        assert not [m for m in g.legal_moves(s) if m.kind == "choose"]
    m = GAME.new_match(state=GAME.parse_state(f"{EMPTY} 1 hands=W swaps=2"))
    m.push("=R")
    assert m.state.hands == (RED,) and GAME.bag_left(m.state) == (16, 16, 15)


def test_a_ball_that_fits_nowhere_must_be_traded_while_trades_are_left():
    # every hole is full and every platform rests on a row of four reds
    text = "WBWB/RRRR/BWBW/RRRR|.../.../...|../..|."
    s = GAME.parse_state(f"{text} 1 hands=R swaps=1")
    assert allowed(s.position, RED) == 0
    assert s.result is None and texts(GAME.legal_moves(s)) == ["=W", "=B"]
    lost = GAME.parse_state(f"{text} 1 hands=R swaps=0")
    assert lost.result is not None and GAME.current_player(lost) == TERMINAL


# -- the end ------------------------------------------------------------------------------

#: From a search player's game: the last ball, white, crowns a level 2 of one white.
WIN = ("=R Ra7 =R Ra1 =W Wg5 =W Wc7 =R Re3.0 =R Re7 =B Be1 =W Wg7 =B Bc5.0 =B Be5.0 "
       "=B Bf6 =W Wg1 =B Bc1 =B Ba5 =R Rg3 =R Ra3 =R Rd6 =B Bf2 =B Bf4 =W Wc3.0 =W Wd4.1 "
       "=W Wb4 =B Bb2 =W We5.2 =B =R Rb6 =R Rd2 =B Bc5.2 =B Bc3.2 =W =R Re3.2 =W Wd4.3")
#: Three players at the hard level (one trade), won together.
WIN3 = ("=W =R =R Wa7 =W Re1 =B Rg5 =B Wa3 =B Bg1 =R Bc3.0 =W Bg7 =W Ra1 =R Wa5 =B We5.0 "
        "=R Rc5.0 =W Bg3 =B Rc1 =R Wb2 =W Bc7 =R Rb6 =R We3.0 =W Rf4 =W Rb4 =B Wf2 =R Wd2 "
        "=B Be7 =W Rf6 =B Bd4.1 =W Wd6 =W Bc3.2 =B We5.2 =B Wc5.2 =W =R Re3.2 =W Bd4.3")


def test_a_complete_pyramid_is_a_win_for_everyone():
    for g, record in ((GAME, WIN), (game(3, "hard"), WIN3)):
        m = g.new_match(record=record)
        s = m.state
        assert s.position.occupied == ALL_MASK and broken_rule(s.position) is None
        outcome = s.result
        assert isinstance(outcome, SproutOutcome)
        assert outcome.winners == tuple(range(g.num_players))
        assert outcome.returns(g.num_players) == (1.0,) * g.num_players
        assert outcome.scores == (30.0,) * g.num_players and s.swaps == 0
        assert m.legal_moves() == [] and g.current_player(s) == TERMINAL
    assert "Game over: won. the pyramid is complete" in GAME.describe(
        GAME.new_match(record=WIN).state)
    assert "Game over: won together." in game(3, "hard").describe(
        game(3, "hard").new_match(record=WIN3).state)


#: Two players: the board is full; Player 2 holds a red ball, which fits none of the
#: nine platforms (each rests on a red row), and no trade is left.
STUCK = "WBWB/RRRR/BWBW/RRRR|.../.../...|../..|."


def test_a_stuck_ball_with_no_trade_left_loses_for_everyone():
    g = game(2)
    assert g.parse_state(f"{STUCK} 1 hands=RB swaps=0").result is not None
    s = g.parse_state(f"{STUCK} 1 hands=BR swaps=0")   # only the active ball counts:
    assert s.result is None and len(g.legal_moves(s)) > 0   # Player 2's red must wait
    after = g.apply(g.apply(s, g.legal_moves(s)[0]), Move("=W"))
    outcome = after.result
    assert outcome is not None and outcome.winners == () and outcome.is_draw
    assert outcome.scores == (17.0, 17.0)
    assert outcome.reason == ("lost with 17 balls placed: Player 2's red ball fits nowhere "
                              "and no trade is left")
    assert "Game over: lost together." in g.describe(after)
    assert g.legal_moves(after) == [] and g.current_player(after) == TERMINAL


def test_a_loss_is_worth_the_same_to_everyone_and_less_than_half_a_win():
    loss = SproutOutcome((), "lost", (17.0,) * 3)
    assert loss.returns(3) == (17 / 60,) * 3
    assert SproutOutcome((), "lost", (29.0,)).returns(1)[0] < 0.5
    assert SproutOutcome((0, 1, 2), "won", (30.0,) * 3).returns(3) == (1.0,) * 3
    # the default outcome would make a shared win and a loss look alike to the AI
    assert Outcome((0, 1, 2)).returns(3) == Outcome(()).returns(3)


def test_the_lowest_scores_come_before_the_board_is_full():
    rng = random.Random(3)
    scores = [GAME.random_playout(GAME.initial_state(), rng).result.scores[0]
              for _ in range(300)]
    assert min(scores) < 16 and 16 < sum(scores) / len(scores) < 18


def test_search_succeeds_far_more_often_than_random_play():
    rng = random.Random(9)
    search, chance = [], []
    for seed in range(4):
        m = GAME.new_match(seed=seed)
        player = MCTSPlayer(iterations=40, seed=seed)
        while not m.is_over():
            m.push(player.choose(GAME, m.state))
        search.append(m.outcome().scores[0])
        m = GAME.new_match(seed=seed)
        while not m.is_over():
            m.push(rng.choice(m.legal_moves()))
        chance.append(m.outcome().scores[0])
    assert sum(search) > sum(chance) + 12


def test_the_search_playouts_keep_trades_for_balls_that_fit_nowhere():
    s = GAME.parse_state(f"{EMPTY} 1 hands=W swaps=2")
    rng = random.Random(1)
    kept = [GAME.playout(s, rng) for _ in range(200)]
    spent = [GAME.random_playout(s, rng) for _ in range(200)]
    assert all(f.result is not None and f.swaps == 0 for f in kept if not f.result.winners)
    mean = lambda xs: sum(f.result.scores[0] for f in xs) / len(xs)  # noqa: E731
    assert mean(kept) > mean(spent) + 2


# -- state text and bad input ---------------------------------------------------------------

def test_state_text_round_trips_and_bad_states_are_refused():
    g = game(2)
    s = g.parse_state(f"{STUCK} 1 hands=B. swaps=1")
    assert g.state_text(s) == f"{STUCK} 1 hands=B. swaps=1"
    assert g.current_player(s) == CHANCE
    assert g.parse_state(g.state_text(s)) == s
    assert GAME.state_text(GAME.initial_state()) == f"{EMPTY} 1 hands=. swaps=2"
    bad = [f"{EMPTY} 1 hands=W", f"{EMPTY} 1 hands=WBR swaps=1", f"{EMPTY} 1 hands=WX",
           f"{EMPTY} 1 hands=WB swaps=3", f"{EMPTY} 1 hands=WB swaps=-1",
           f"{EMPTY} 1 hands=WB swaps=1 swaps=1", f"{EMPTY} 1 hands=WB drawn=W",
           f"{EMPTY} 1 hands=.W swaps=2",                        # Player 2 drew first
           f"{EMPTY} 1 hands=W. swaps=1",                        # a trade during the deal
           f"{EMPTY} 2 hands=WB swaps=2",                        # Player 2 cannot start
           "..../..../..../...W|.../.../...|../..|. 2 hands=.. swaps=2",
           "..../..../..../...W|.../.../...|../..|. 2 hands=B. swaps=2",
           "..../..../..../....|W../.../...|../..|. 1 hands=WB swaps=2",  # floating
           "..../..../W.../.W..|.../.../...|../..|. 1 hands=WB swaps=2",  # diagonal pair
           "..../..../RB../WW..|.../.../W..|../..|. 2 hands=WB swaps=2"]  # on two whites
    for text in bad:
        with pytest.raises(NotationError):
            g.parse_state(text)


def test_illegal_moves_are_refused_and_change_nothing():
    text = "..../..../RB../WW..|.../.../...|../..|. 1 hands=W swaps=1"
    m = GAME.new_match(state=GAME.parse_state(text))
    before = m.state
    for bad, error in (("Wb2", IllegalMoveError),      # on two whites
                       ("Wc3", IllegalMoveError),      # taken
                       ("Wd2", IllegalMoveError),      # not playable
                       ("Ba5", IllegalMoveError),      # not the ball in hand
                       ("=W", IllegalMoveError),       # a trade for the same colour
                       ("pass", IllegalMoveError), ("xa1", IllegalMoveError),
                       ("q9", NotationError), ("", NotationError)):
        with pytest.raises(error):
            m.push(bad)
        assert m.state == before
    m.push("=B")
    with pytest.raises(IllegalMoveError):
        m.push("=R")                                   # no trade left
    with pytest.raises(IllegalMoveError):
        m.push("Ba5")                                  # a5 is diagonal to the black c3
    assert m.state.hands == (BLACK,) and m.state.swaps == 0
    m.push("Bb2")                                      # one black under it: allowed
    assert m.state.position.colour_at(parse_point("b2")) == BLACK


def test_every_move_is_reachable_by_clicks_or_the_option_list():
    g = game(2)
    s = g.parse_state("..../..../RB../WW..|.../.../...|../..|. 1 hands=BR swaps=2")
    reached = set()
    for move in g.legal_moves(s):
        t = Table(g, seats="human")
        t.match = g.new_match(state=s)
        if move.point is not None:
            played = t.click(move.point)
        else:
            labels = [o["label"] for o in t.view()["options"]]
            played = t.choose(labels.index(move.text()))
        reached.add(played)
    assert reached == set(g.legal_moves(s)) and len(reached) == 12


# -- perft, cross-checked by an independent brute force ------------------------------------
#
# The brute force shares no code with the engine: a dict from (level, x, y) to a
# letter, supports from tests/reference.py, the rules written again from the text.
# A node is (board, hands, trades left, seat to move); a hand is a letter or None.

def _diagonal(pt):
    lv, x, y = pt
    return [(lv, x + dx, y + dy) for dx in (-1, 1) for dy in (-1, 1)]


def _fits(board, pt, colour):
    if pt in board or not all(b in board for b in _below(pt)):
        return False
    if any(board.get(q) == colour for q in _diagonal(pt)):
        return False
    return sum(board[b] == colour for b in _below(pt)) < 2


def _children(node):
    board, hands, trades, turn = node
    if len(board) == 30:
        return []
    bag = {c: 16 - list(board.values()).count(c) - hands.count(c) for c in "WBR"}
    if None in hands:
        i = hands.index(None)
        return [(board, hands[:i] + (c,) + hands[i + 1:], trades, turn)
                for c in "WBR" if bag[c]]
    held = hands[turn]
    rest = hands[:turn] + (None,) + hands[turn + 1:]
    kids = [({**board, pt: held}, rest, trades, (turn + 1) % len(hands))
            for pt in _ALL if _fits(board, pt, held)]
    if trades:
        kids += [(board, hands[:turn] + (c,) + hands[turn + 1:], trades - 1, turn)
                 for c in "WBR" if c != held and bag[c]]
    return kids


def _brute(node, depth):
    kids = _children(node)
    if depth == 1:
        return len(kids)
    return sum(_brute(k, depth - 1) for k in kids)


def _node(g, s):
    hands = tuple(None if c == 0 else ".WBR"[c] for c in s.hands)
    return (cells_of(s.position), hands, s.swaps, s.to_move)


PERFT_SOLO = [3, 54, 252, 2820, 16092]
PERFT_DUO_HARD = [3, 9, 162, 720, 7884]


def test_perft_from_the_start_matches_a_hand_count_and_the_brute_force():
    assert [perft(GAME, d) for d in range(1, 6)] == PERFT_SOLO
    # a draw, then 16 holes and 2 trades, then a draw after a hole (3) or, after a
    # trade, 16 holes and one more trade
    assert PERFT_SOLO[:3] == [3, 3 * 18, 3 * (16 * 3 + 2 * 18)]
    assert [_brute(({}, (None,), 2, 0), d) for d in range(1, 5)] == PERFT_SOLO[:4]
    duo = game(2, "hard")
    assert [perft(duo, d) for d in range(1, 6)] == PERFT_DUO_HARD
    assert [_brute(({}, (None, None), 1, 0), d) for d in range(1, 5)] == PERFT_DUO_HARD[:4]


@pytest.mark.parametrize("players,level,seed,steps", [
    (1, "medium", 1, 12), (1, "easy", 2, 17), (1, "medium", 3, 21), (1, "hard", 4, 24),
    (2, "medium", 5, 15), (3, "easy", 6, 19), (5, "hard", 7, 22)])
def test_perft_from_random_positions_matches_the_brute_force(players, level, seed, steps):
    g = game(players, level)
    s = walk(g, seed, steps)
    depths = (1, 2, 3) if steps < 20 else (1, 2, 3, 4)
    assert [perft(g, d, s) for d in depths] == [_brute(_node(g, s), d) for d in depths]


def test_perft_of_a_lost_position_is_zero():
    s = game(2).parse_state(f"{STUCK} 1 hands=RB swaps=0")
    assert s.result is not None and perft(game(2), 1, s) == 0 == _brute(_node(game(2), s), 1)
