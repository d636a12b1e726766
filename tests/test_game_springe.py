"""Springe: each fist filled in secret, the opponent picks the one placed."""

import json
import random
import re

import pytest

from conformance import (check_honest_ai, check_random_games,
                         check_symmetries)
from shibumi import TERMINAL, IllegalMoveError, Move, NotationError, ShibumiError, load
from shibumi.analysis import perft
from shibumi.games.springe import (MAX_ACTIONS, UNSEEN, Springe, SpringeState,
                                   hidden_completions, visible_counts)
from shibumi.interaction import Table
from shibumi.notation import parse_point
from shibumi.players import MCTSPlayer, RandomPlayer
from shibumi.position import BLACK, EMPTY as NO_BALL, RED, WHITE, Position
from reference import ALL, cells_of as _cells, open_points as _open, top_balls as _top

EMPTY = "..../..../..../....|.../.../...|../..|."
START = f"{EMPTY} 1 reserves=W16R8/B16R8"


def game():
    return load("springe")


def state(text):
    return game().parse_state(text)


def match_at(text, seed=0):
    return game().new_match(seed=seed, state=state(text))


def texts(moves):
    return sorted(m.text() for m in moves)


def walk(seed, steps):
    """A state after up to ``steps`` random actions."""
    g, rng = game(), random.Random(seed)
    s = g.initial_state()
    for _ in range(steps):
        if g.is_terminal(s):
            break
        s = g.random_step(s, rng)
    return s


# -- conformance ---------------------------------------------------------------------

def test_conformance():
    check_random_games("springe", seeds=range(4))
    check_honest_ai(game(), seeds=range(2), steps=(0, 2, 30), iterations=12)


@pytest.mark.slow
def test_many_random_games_and_honest_choices():
    check_random_games("springe", seeds=range(200))
    check_honest_ai(game(), seeds=range(10), steps=tuple(range(0, 120, 7)), iterations=30)


def test_random_games_stay_within_the_bound_and_end_as_the_rules_say():
    g, rng = game(), random.Random(5)
    reasons = set()
    for _ in range(60):
        end = g.random_playout(g.initial_state(), rng)
        assert g.is_terminal(end) and g.length(end) <= MAX_ACTIONS == g.info.max_length == 198
        reason = end.result.reason
        reasons.add(reason.split(";")[0] if end.result.scores else reason.split(" ", 1)[1])
        if end.result.scores is None:                      # a win by a placement
            assert end.last.colour == (WHITE, BLACK)[end.result.winners[0]]
    assert {"completed a line", "has 9 visible balls", "both reserves are empty"} <= reasons


# -- the turn --------------------------------------------------------------------------

def test_the_start_sixteen_of_ones_colour_and_eight_red():
    g = game()
    s = g.initial_state()
    assert s.reserves == ((16, 8), (16, 8)) and s.position.occupied == 0
    assert g.state_text(s) == START
    assert texts(g.legal_moves(s)) == ["=R", "=W", "pass"]   # the left fist
    assert not g.info.chance and g.chance_outcomes(s) == []


def test_the_left_fist_then_the_right_one_of_them_at_least_with_a_ball():
    g = game()
    for left, rights in (("=W", ["=R", "=W", "pass"]), ("=R", ["=R", "=W", "pass"]),
                         ("pass", ["=R", "=W"])):           # two empty fists: not allowed
        m = g.new_match()
        m.push(left)
        assert m.current_player == 0 and texts(m.legal_moves()) == rights
        assert m.state.fists == ({"=W": WHITE, "=R": RED, "pass": NO_BALL}[left],)
    m = g.new_match()
    m.push("=W")
    m.push("=W")                                        # both fists white: allowed
    assert m.state.reserves == ((14, 8), (16, 8)) and m.state.fists == (WHITE, WHITE)
    assert m.current_player == 1 and texts(m.legal_moves()) == ["=1", "=2"]


def test_the_reserve_limits_what_goes_into_the_fists():
    m = match_at(f"{EMPTY} 1 reserves=W1R0/B3R1 bag=23+0/20+0 actions=40")
    assert texts(m.legal_moves()) == ["=W", "pass"]
    m.push("=W")
    assert texts(m.legal_moves()) == ["pass"]             # the last ball goes alone
    m = match_at(f"{EMPTY} 1 reserves=W1R0/B3R1 bag=23+0/20+0 actions=40")
    m.push("pass")
    assert texts(m.legal_moves()) == ["=W"]               # left empty, so the right holds it


def test_the_fist_picked_is_placed_by_the_hider_and_the_other_goes_to_the_bag():
    for pick, colour, reds in (("=1", WHITE, (0, 0)), ("=2", RED, (1, 0))):
        m = match_at(f"{EMPTY} 2 reserves=W15R7/B16R8 fists=WR actions=2")
        m.push(pick)
        assert m.current_player == 0 and m.state.shown == colour and m.state.reds == reds
        assert m.state.bag == ((0, 1), (0, 0))            # an unopened fist, maybe a ball
        assert len(m.legal_moves()) == 16 and {mv.colour for mv in m.legal_moves()} == {colour}
        m.push("c3")
        assert m.state.position.colour_at(parse_point("c3.0")) == colour
        assert m.current_player == 1 and m.state.fists == () and not m.state.shown
        assert m.state.reserves == ((15, 7), (16, 8))     # the other ball is gone


def test_an_empty_fist_picked_places_nothing_and_the_other_surely_held_a_ball():
    m = match_at(f"{EMPTY} 2 reserves=W15R8/B16R8 fists=.W actions=2")
    m.push("=1")
    assert m.current_player == 1 and m.state.position.occupied == 0
    assert m.state.bag == ((1, 0), (0, 0)) and m.state.reserves == ((15, 8), (16, 8))
    assert texts(m.legal_moves()) == ["=B", "=R", "pass"]


def test_two_fists_alike_are_still_picked():
    m = match_at(f"{EMPTY} 2 reserves=W14R8/B16R8 fists=WW actions=2")
    assert texts(m.legal_moves()) == ["=1", "=2"]
    m.push("=2")
    assert m.state.shown == WHITE and m.state.bag == ((0, 1), (0, 0))


def test_a_player_out_of_balls_passes_says_so_and_still_picks():
    g = game()
    text = "W.../..../..../....|.../.../...|../..|. 1 reserves=W0R0/B3R1 bag=23+0/20+0 " \
           "actions=40"
    m = match_at(text)
    assert texts(m.legal_moves()) == ["pass"]
    assert g.secret_move(m.state, Move("pass")) is None    # a public pass
    m.push("pass")
    assert m.current_player == 1 and m.state.out == (True, False)
    assert g.state_text(m.state).endswith("out=W actions=41")
    m.push("=B")
    m.push("pass")
    assert m.current_player == 0 and texts(m.legal_moves()) == ["=1", "=2"]


# -- the four ways to win, and the count ---------------------------------------------------

def _placing(position, colour="W", player=1):
    """A state where ``player`` places the ball ``colour`` picked; nothing in the
    bag, so the reserves are what the position leaves (reds taken from White's
    first)."""
    p = Position(position)
    used = [p.count(WHITE) + (colour == "W"), p.count(BLACK) + (colour == "B")]
    reds = p.count(RED) + (colour == "R")
    white_reds = min(8, reds)
    reserves = f"W{16 - used[0]}R{8 - white_reds}/B{16 - used[1]}R{8 - reds + white_reds}"
    return match_at(f"{position} {player} reserves={reserves} shown={colour} "
                    f"reds={white_reds}/{reds - white_reds} actions=60")


def test_a_line_across_the_board_wins():
    m = _placing("WWW./BB../B.../....|.../.../...|../..|.")
    m.push("g7")
    assert m.outcome().winners == (0,) and m.outcome().reason == "White completed a line"
    assert game().winning_points(m.state) == 0b1111 << 12


def test_a_line_of_three_on_level_one_wins():
    m = _placing("WRRW/BRRB/RWRW/BBBR|.W./BW./B..|../..|.")
    m.push("d2")                      # d2-d4-d6 on level 1
    assert m.outcome().winners == (0,) and m.outcome().reason == "White completed a line"
    assert visible_counts(m.state.position)[0] < 9


def test_a_line_of_two_on_level_two_wins():
    m = _placing("RWWB/BWWR/RBWB/BRRR|RRW/WRB/RRW|B./W.|.")
    m.push("e3.2")                    # c3.2 and e3.2: the bottom row of level 2
    assert m.outcome().winners == (0,) and m.outcome().reason == "White completed a line"
    assert game().winning_points(m.state) == 1 << 25 | 1 << 26


def test_nine_visible_balls_win_exactly_at_the_ninth():
    pos = "BRBW/WRWW/BWWB/.BBB|BRW/RRR/..W|../..|."
    assert visible_counts(Position(pos))[0] == 8
    m = _placing(pos)
    m.push("d2")                      # a ninth white ball, on level 1, no line
    assert m.outcome().winners == (0,) and m.outcome().reason == "White has 9 visible balls"
    assert bin(game().winning_points(m.state)).count("1") == 9


def test_a_ball_that_covers_one_of_ones_own_leaves_the_count_unchanged():
    pos = "RWBB/RWBR/WRWR/WBRW|RBW/BBW/WRB|BR/..|."
    assert visible_counts(Position(pos))[0] == 8 and Position(pos).colour_at(
        parse_point("e3.0")) == WHITE
    m = _placing(pos)
    m.push("e3.2")                    # the ninth white ball hides the white e3.0
    assert m.state.position.count(WHITE) == 10
    assert visible_counts(m.state.position)[0] == 8 and m.outcome() is None


APEX_POS = "WBWR/RWBW/WBBW/WBBR|BBR/RBR/BRR|RW/RB|."


def test_the_apex_wins_for_its_colour_only():
    m = _placing(APEX_POS)
    m.push("d4")
    assert m.outcome().winners == (0,) and m.outcome().reason == "White placed the apex"
    assert game().winning_points(m.state) == 1 << 29
    m = _placing(APEX_POS, colour="R")
    m.push("d4")                      # red on top: the pyramid is full, count
    out = m.outcome()
    assert out.winners == () and out.reason.startswith("the pyramid is full")
    assert out.scores == (7.0, 7.0) and visible_counts(m.state.position)[2] == 11


def test_a_red_line_wins_for_nobody():
    m = _placing("RRR./BB../B.../W...|.../.../...|../..|.", colour="R")
    m.push("g7")
    assert m.outcome() is None and m.current_player == 1


@pytest.mark.parametrize("board,counts,winners", [
    ("WWBB/WWBB/RBBW/RWRW", (7, 6, 3), (0,)),
    ("BBWW/BBWW/RWWB/RBRB", (6, 7, 3), (1,)),
    ("WWBB/WWBB/RRBB/RRWW", (6, 6, 4), ()),           # a tie
    ("WWB./RR../R.../....", (2, 1, 3), ()),           # red ahead: nobody
])
def test_when_both_reserves_run_out_the_most_visible_wins(board, counts, winners):
    reds = board.count("R")
    s = state(f"{board}|.../.../...|../..|. 1 reserves=W0R0/B0R0 reds={reds}/0 "
              "bag=0+24/0+24 actions=60")
    assert visible_counts(s.position) == counts
    assert s.result.winners == winners and "both reserves are empty" in s.result.reason


def test_the_turn_that_empties_the_second_reserve_ends_the_game_and_opens_the_bags():
    g = game()
    m = match_at("WB../..../..../....|.../.../...|../..|. 2 reserves=W0R0/B1R0 "
                 "bag=23+0/22+0 out=W actions=60")
    m.push("pass")
    m.push("=B")
    m.push("=2")
    m.push("c1")
    out = m.outcome()
    assert out.winners == (1,) and "both reserves are empty" in out.reason
    assert out.scores == (1.0, 2.0)
    assert g.observe(m.state, 0) == m.state               # the end shows everything
    assert g.status_lines(m.state)[-2:] == ["White's bag: 15 white, 8 red",
                                            "Black's bag: 14 black, 8 red"]


# -- hidden information: what a seat sees ------------------------------------------------------

PICK = f"{EMPTY} 2 reserves=W15R7/B16R8 fists=WR actions=2"
#: The same public facts, other fists: White hid one ball or two, on either side.
SAME_FOR_BLACK = [PICK, f"{EMPTY} 2 reserves=W15R8/B16R8 fists=.W actions=2",
                  f"{EMPTY} 2 reserves=W16R7/B16R8 fists=R. actions=2",
                  f"{EMPTY} 2 reserves=W14R8/B16R8 fists=WW actions=2"]


def test_the_picker_sees_neither_fist_nor_the_hiders_reserve():
    g = game()
    seen = {g.observe(state(t), 1) for t in SAME_FOR_BLACK}
    assert len(seen) == 1
    view = seen.pop()
    assert view.fists == (UNSEEN, UNSEEN) and view.reserves == (None, (16, 8))
    assert g.state_text(view) == f"{EMPTY} 2 reserves=W?/B16R8 fists=?? actions=2"
    assert g.parse_state(g.state_text(view)) == view
    assert g.observe(state(PICK), 0).fists == (WHITE, RED)   # the hider sees their fists
    assert g.observe(state(PICK), 0).reserves == ((15, 7), None)
    assert g.status_lines(view)[:2] == ["White's reserve: hidden (22 to 23 balls)",
                                        "Black's reserve: 16 black, 8 red"]
    assert "closed both fists" in g.status_lines(view)[-1]


def test_the_bag_keeps_its_secret_and_the_public_range_follows_from_the_picks():
    g = game()
    m = match_at(PICK)
    m.push("=1")                           # the white ball; the red fist goes unopened
    m.push("a1")
    view = g.observe(m.state, 1)
    assert view.bag == ((0, 1), (0, 0)) and view.reserves[0] is None
    assert g.status_lines(view)[0] == "White's reserve: hidden (22 to 23 balls)"
    assert m.state.reserves[0] == (15, 7)
    one = match_at(f"{EMPTY} 2 reserves=W15R8/B16R8 fists=.W actions=2")
    one.push("=1")                         # an empty fist: the other surely held a ball
    assert g.status_lines(g.observe(one.state, 1))[0] == "White's reserve: hidden (23 balls)"


def test_a_pass_shows_the_reserve_is_empty_and_an_empty_reserve_shows_the_other_is_not():
    g = game()
    out = state("W.../..../..../....|.../.../...|../..|. 2 reserves=W0R0/B3R1 bag=23+0/20+4 "
                "out=W actions=41")
    assert g.observe(out, 1) == out                        # nothing hidden from Black
    seen = g.observe(out, 0)
    assert seen.reserves == ((0, 0), None)
    # White, out of balls, knows the game goes on: Black has at least one ball left.
    outcomes, _ = hidden_completions(*g.unshown(seen, 1), *seen.bag[1], 0, True)
    assert outcomes and all(sum(r) >= 1 for r, _ in outcomes)
    assert {sum(r) for r, _ in outcomes} == {1, 2, 3, 4}
    rng = random.Random(1)
    assert all(sum(g.determinise(seen, 0, rng).reserves[1]) for _ in range(200))


def test_determinise_draws_every_filling_that_fits_and_looks_the_same():
    g = game()
    view = g.observe(state(PICK), 1)
    rng = random.Random(3)
    draws = [g.determinise(view, 1, rng) for _ in range(3000)]
    assert all(g.observe(d, 1) == view for d in draws)
    fillings = {d.fists for d in draws}
    assert len(fillings) == 8 and (NO_BALL, NO_BALL) not in fillings
    for d in draws[:50]:                   # a full state the rules accept
        assert d.last is None and g.parse_state(g.state_text(d)) == d
    # By the weights: an empty fist 3, white 2, red 1, in each hand independently,
    # two empty fists excepted: the left is empty 9 times in 27, white 12, red 6.
    lefts = [d.fists[0] for d in draws]
    for colour, share in ((NO_BALL, 9), (WHITE, 12), (RED, 6)):
        assert abs(lefts.count(colour) / len(draws) - share / 27) < 0.03
    full = state(PICK)
    assert g.determinise(g.observe(full, 0), 0, rng).fists == (WHITE, RED)


def test_hidden_completions_respects_the_counts():
    # 2 white and 1 red unshown, one sure fist and one maybe fist in the bag.
    outcomes, cum = hidden_completions(2, 1, 1, 1, 0, False)
    reserves = {r for r, _ in outcomes}
    assert reserves == {(1, 1), (2, 0), (0, 1), (1, 0)}
    assert cum[-1] == 6 + 3 + 4 + 4                       # the weights of the four
    assert hidden_completions(0, 0, 0, 0, 2, False) == ((), ())  # nothing to hide: none fit


class PeekingSpringe(Springe):
    """Springe as an AI that peeked would play it: it sees the whole state."""

    def observe(self, state, player):
        return state

    def determinise(self, observation, player, rng):
        return observation


#: White has a7-e7-... three on the top row: a white ball in a fist wins if picked.
THREAT = "WWW./BB../B.../....|.../.../...|../..|. 2 reserves=W{}/B13R8 fists={} bag=18+0/0+0 " \
         "actions=20"


def test_the_ai_picks_without_looking_and_a_peeking_ai_would_not():
    honest, peeker = game(), PeekingSpringe()
    left = THREAT.format("2R0", "W.")
    right = THREAT.format("2R0", ".W")
    for seed in range(2):
        picks = {MCTSPlayer(iterations=40, seed=seed).choose(honest, state(t), 1)
                 for t in (left, right)}
        assert len(picks) == 1
    # Peeking, Black always opens the empty fist, and so picks differently.
    peeks = [MCTSPlayer(iterations=40, seed=0).choose(peeker, state(t), 1)
             for t in (left, right)]
    assert [m.text() for m in peeks] == ["=2", "=1"]


def test_the_ai_fills_its_fists_without_knowing_the_other_reserve():
    g = game()
    # Black's reserve: 4 black balls in one state, none (all bagged) in the other;
    # the same public facts.  White's choice of fists must not depend on it.
    base = "WWW./BB../B.../....|.../.../...|../..|. 1 reserves=W2R0/B{} bag=19+0/0+{} " \
           "actions=20"
    one, other = state(base.format("4R0", 21)), state(base.format("0R0", 21))
    assert g.observe(one, 0) == g.observe(other, 0)
    for seed in range(2):
        assert len({MCTSPlayer(iterations=30, seed=seed).choose(g, s, 0)
                    for s in (one, other)}) == 1


# -- the table: two humans at one device ---------------------------------------------------

def _two_humans(seed=3):
    table = Table("springe", seats=["human", "human"], seed=seed)
    table.reveal()
    return table


def _hide(table, left, right):
    table.choose(left)
    table.choose(right)
    assert table.covered                  # the device goes to the picker
    covered = table.view()
    assert covered["balls"] == [] and covered["status"] == [] and covered["history"] == []
    table.reveal()
    return table.view()


def _public(view):
    return json.dumps({k: v for k, v in view.items() if k not in ("record", "version")},
                      sort_keys=True)


def test_a_table_of_two_humans_shows_the_picker_only_closed_fists():
    views = []
    for left, right in (("=W", "pass"), ("pass", "=W"), ("=R", "=W"), ("=W", "=W")):
        view = _hide(_two_humans(), left, right)
        assert [o["label"] for o in view["options"]] == ["=1", "=2"]
        assert [h["text"] for h in view["history"]] == ["White closed their left fist",
                                                        "White closed their right fist"]
        assert view["last"] == [] and view["record_secret"]
        views.append(_public(view))
    assert len(set(views)) == 1                       # every filling looks the same


def test_a_whole_game_between_two_humans_hides_the_fists_until_the_end():
    rng = random.Random(4)
    table = _two_humans(seed=4)
    g, filled = table.game, []            # (player, move) of every fist filled
    while not table.match.is_over():
        if table.covered:
            table.reveal()
        state, mover = table.match.state, table.match.current_player
        view = table.view()
        text = _public(view)
        # the opponent's fists: never named in the view, only "closed"
        for h in view["history"]:
            name = h["text"].split()[0]
            if name != g.player_name(mover):
                assert not re.search(r"(=W|=B|=R)$", h["text"]), h
        if len(state.fists) == 2:         # the picker looks at closed fists
            assert "holds" not in text and "fists: left" not in text
            assert view["status"][1 - mover].startswith(
                f"{g.player_name(1 - mover)}'s reserve: hidden")
        move = rng.choice(table.options())
        if g.secret_move(state, move) is not None:
            filled.append((g.player_name(mover), move.text()))
        table.choose(move.text())
    end = table.view()                    # everything shown at the end
    fists = [h["text"] for h in end["history"] if "closed" in h["text"]]
    assert fists == [] and filled
    said = [tuple(h["text"].split()[:2]) for h in end["history"]]
    for who, move in filled:
        assert (who, move) in said
    assert any(line.endswith("red") and "bag" in line for line in end["status"])
    assert not end["record_secret"]


def test_after_the_pick_the_hider_places_with_the_cover_between_them():
    table = _two_humans()
    _hide(table, "=W", "pass")
    table.choose("=1")
    assert table.covered                   # back to White, who places
    table.reveal()
    assert len(table.view()["playable"]) == 16
    assert table.click("a1") == Move("Wa1")


# -- symmetries, text, bad input -----------------------------------------------------------------

@pytest.mark.parametrize("seed,steps", [(1, 6), (2, 17), (3, 30), (4, 45), (5, 70)])
def test_symmetries_and_text_on_random_states(seed, steps):
    g = game()
    s = walk(seed, steps)
    check_symmetries(g, s)
    assert g.state_key(g.parse_state(g.state_text(s))) == g.state_key(s)
    for p in (0, 1):
        seen = g.observe(s, p)
        assert g.state_key(g.parse_state(g.state_text(seen))) == g.state_key(seen)
        if g.current_player(s) == p:      # the mover's own options are in sight
            assert g.legal_moves(seen) == g.legal_moves(s)
            assert RandomPlayer(seed=1).choose(g, s, p) in g.legal_moves(s)


@pytest.mark.parametrize("bad", [
    EMPTY + " 1",                                               # no reserves
    EMPTY + " 1 reserves=W17R8/B16R8",
    EMPTY + " 1 reserves=W16R9/B16R8",
    EMPTY + " 1 reserves=B16R8/W16R8",
    EMPTY + " 3 reserves=W16R8/B16R8",
    EMPTY + " 1 reserves=W?/B?",                                # one hidden reserve at most
    "W.../..../..../....|.../.../...|../..|. 1 reserves=W16R8/B16R8",   # a ball from nowhere
    "R.../..../..../....|.../.../...|../..|. 1 reserves=W16R8/B16R8 reds=1/0",
    "R.../..../..../....|.../.../...|../..|. 2 reserves=W16R7/B16R8",   # reds= missing
    EMPTY + " 1 reserves=W15R8/B16R8",                          # a ball lost, no bag
    EMPTY + " 1 reserves=W14R8/B16R8 bag=1+0/0+0",              # two balls for one fist
    EMPTY + " 1 reserves=W15R8/B16R8 fists=B",                  # White hides no black
    EMPTY + " 2 reserves=W16R8/B16R8 fists=..",                 # two empty fists
    EMPTY + " 2 reserves=W15R8/B16R8 fists=W?",
    EMPTY + " 2 reserves=W15R8/B16R8 fists=??",                 # unseen, yet the reserve known
    EMPTY + " 1 reserves=W15R8/B16R8 fists=W shown=W",
    EMPTY + " 1 reserves=W15R8/B16R8 shown=X",
    EMPTY + " 1 reserves=W16R8/B16R8 out=W",                    # out, with balls
    EMPTY + " 1 reserves=W16R8/B16R8 colour=W",
    EMPTY + " 1 reserves=W16R8/B16R8 reserves=W16R8/B16R8",
    "WWWW/..../..../BBBB|.../.../...|../..|. 1 reserves=W12R8/B12R8 actions=20",  # two lines
    "WWWW/..../..../BBB.|.../.../...|../..|. 1 reserves=W12R8/B13R8 actions=20",  # W to move
    "WWW./..../..../BBB.|.../.../...|../..|. 1 reserves=W13R8/B13R8",   # actions too few
])
def test_bad_states_are_refused(bad):
    with pytest.raises(NotationError):
        state(bad)


def test_a_finished_state_read_from_text_is_finished():
    s = state("WWWW/..../..../BBB.|.../.../...|../..|. 2 reserves=W12R8/B13R8 actions=20")
    assert s.result.winners == (0,) and game().legal_moves(s) == []
    assert perft(game(), 2, s) == 0


def test_illegal_moves_never_change_the_state():
    g = game()
    m = g.new_match(seed=0)
    for bad in ("=B", "a1", "=1", "xa1", "Wa1", "=9", "", "e4"):
        before = m.state
        with pytest.raises((IllegalMoveError, NotationError)):
            m.push(bad)
        assert m.state is before
    m.push("pass")
    before = m.state
    for bad in ("pass", "=B", "a1", "=1"):                # the right fist must hold a ball
        with pytest.raises((IllegalMoveError, NotationError)):
            m.push(bad)
        assert m.state is before
    m.push("=W")
    before = m.state
    for bad in ("=W", "a1", "pass", "=3"):
        with pytest.raises((IllegalMoveError, NotationError)):
            m.push(bad)
        assert m.state is before
    with pytest.raises(IllegalMoveError):
        g.apply(state("WWWW/..../..../BBB.|.../.../...|../..|. 2 reserves=W12R8/B13R8 "
                      "actions=20"), Move("=B"))
    with pytest.raises(ShibumiError):                      # an observation nothing fits
        g.determinise(SpringeState(reserves=(None, (16, 8)), bag=((0, 0), (0, 0)),
                                   reds=(8, 0), to_move=1, fists=(UNSEEN,) * 2,
                                   position=Position("WWWW/WWWW/WWWW/WWWW|.../.../...|"
                                                     "../..|.")), 1, random.Random(0))


# -- perft, cross-checked by an engine-free brute force ------------------------------------------
#
# By hand from the start: the left fist 3 ways (white, red, empty); the right 3
# ways after a ball, 2 after an empty left: 8 fillings; Black picks one of two
# fists: 16; of these 12 open a ball (16 holes each) and 4 an empty fist, after
# which Black fills a left fist (3 ways): 12 x 16 + 4 x 3 = 204.

OWNS = ("W", "B")
LINES = []
for _lv in range(3):
    _n = 4 - _lv
    LINES += [[(_lv, x, y) for x in range(_n)] for y in range(_n)]
    LINES += [[(_lv, x, y) for y in range(_n)] for x in range(_n)]
    LINES += [[(_lv, i, i) for i in range(_n)], [(_lv, i, _n - 1 - i) for i in range(_n)]]


def _wins(board, pt, colour):
    """Does a ball of the hider's colour just placed at pt win (engine-free)?"""
    if any(pt in line and all(board.get(q) == colour for q in line) for line in LINES):
        return True
    seen = sum(1 for q in _top(board).values() if board[q] == colour)
    return seen >= 9 or pt == (3, 0, 0)


def _after_turn(board, reserves, hider, depth):
    if depth == 0:
        return 1
    if len(board) == len(ALL) or not any(sum(r) for r in reserves):
        return 0
    return _brute(board, reserves, 1 - hider, [], None, depth)


def _brute(board, reserves, hider, fists, shown, depth):
    """Sequences of ``depth`` actions: fill left, fill right, pick, place."""
    if depth == 0:
        return 1
    own = OWNS[hider]
    if shown:
        total = 0
        for pt in _open(board):
            new = {**board, pt: shown}
            if shown == own and _wins(new, pt, own):
                total += 1 if depth == 1 else 0
            else:
                total += _after_turn(new, reserves, hider, depth - 1)
        return total
    if len(fists) == 2:                         # the picker opens one fist
        return sum(_brute(board, reserves, hider, [], f, depth - 1) if f
                   else _after_turn(board, reserves, hider, depth - 1) for f in fists)
    mine = reserves[hider]
    if not fists and not sum(mine):             # out of balls: pass
        return _after_turn(board, reserves, hider, depth - 1)
    total = 0
    for i, colour in enumerate((own, "R")):
        if mine[i]:
            left = [list(r) for r in reserves]
            left[hider][i] -= 1
            total += _brute(board, left, hider, fists + [colour], None, depth - 1)
    if not fists or fists[0]:                   # an empty fist, beside a ball
        total += _brute(board, reserves, hider, fists + [None], None, depth - 1)
    return total


class _Text:
    def __init__(self, text):
        self._text = text

    def text(self):
        return self._text


def _brute_from(text, depth):
    """The brute force on a state given as text (read here, not by the engine)."""
    words = text.split()
    board = _cells(_Text(words[0]))
    mover = int(words[1]) - 1
    fields = dict(w.split("=") for w in words[2:] if "=" in w)
    reserves = [[int(n) for n in re.findall(r"\d+", r)] for r in fields["reserves"].split("/")]
    fists = [None if c == "." else c for c in fields.get("fists", "")]
    hider = 1 - mover if len(fists) == 2 else mover
    return _brute(board, reserves, hider, fists, fields.get("shown"), depth)


PERFT_START = [3, 8, 16, 204, 608, 1600]


def test_perft_from_the_start_matches_a_hand_count_and_a_brute_force():
    g = game()
    assert [perft(g, d) for d in range(1, 7)] == PERFT_START
    assert PERFT_START[:4] == [3, 3 + 3 + 2, 8 * 2, 12 * 16 + 4 * 3]
    assert [_brute_from(START, d) for d in range(1, 7)] == PERFT_START


def test_perft_from_random_positions_matches_the_brute_force():
    g = game()
    for seed, steps, depth in ((1, 9, 5), (2, 22, 5), (3, 40, 4), (6, 70, 4), (8, 90, 4)):
        s = walk(seed, steps)
        assert not g.is_terminal(s), (seed, steps)
        text = g.state_text(s)
        assert [perft(g, d, s) for d in range(1, depth + 1)] == \
            [_brute_from(text, d) for d in range(1, depth + 1)], text


NEAR_THE_END = {
    # White's last ball, and Black's last (red) one; White threatens a7-g7
    "WWW./BB../B.../....|.../.../...|../..|. 1 reserves=W1R0/B0R1 bag=20+0/20+0 actions=40":
        [2, 2, 4, 26, 44],
    # the apex is the last point: a white ball there wins, a red one fills the pyramid
    f"{APEX_POS} 1 reserves=W2R0/B1R0 reds=8/2 bag=6+0/10+0 actions=70": [2, 3, 6, 8, 4],
    "RWBB/RWBR/WRWR/WBRW|RBW/BBW/WRB|BR/..|. 1 reserves=W2R0/B7R1 reds=8/1 bag=5+0/6+0 "
    "actions=70": [2, 3, 6, 14, 26],
    # Black's last two balls; White, out of balls, passes.
    "WW../BB../..../....|.../.../...|../..|. 2 reserves=W0R0/B1R1 bag=22+0/20+0 out=W "
    "actions=40": [3, 6, 12, 108, 60],
}


@pytest.mark.parametrize("text", list(NEAR_THE_END))
def test_perft_near_the_end_where_wins_and_exhausted_reserves_cut_the_tree(text):
    g = game()
    s = state(text)
    assert [perft(g, d, s) for d in range(1, 6)] == NEAR_THE_END[text]
    assert [_brute_from(text, d) for d in range(1, 6)] == NEAR_THE_END[text]


def test_the_state_dataclass_defaults_are_the_start():
    assert SpringeState() == game().initial_state()
    assert game().current_player(SpringeState()) == 0
    assert game().current_player(state(f"{EMPTY} 2 reserves=W0R0/B0R0 bag=24+0/24+0")) \
        == TERMINAL
