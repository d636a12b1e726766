"""Spargo: Go on the pyramid, with zombies, ko and superko, for two or three players."""
import random

import pytest
from hypothesis import given, settings, strategies as st

from conformance import (check_playouts, check_random_games,
                         check_symmetries, random_walk)
from reference import ABOVE, ALL, cells_of, centre, open_points, touch
from shibumi import IllegalMoveError, NotationError, UnknownGameError, load
from shibumi.analysis import perft
from shibumi.games.spargo import (MOST_TURNS, capture_round, fresh_placements, groups_of,
                                  place, placements, raised_playable, regrouped, resolve,
                                  settled, with_freedom, zombies)
from shibumi.geometry import COORDS, SUPPORTED_MASK, points_of
from shibumi.notation import parse_point, point_name
from shibumi.position import BLACK, WHITE, Position


def names(mask):
    return " ".join(point_name(p) for p in points_of(mask))


def mask(*texts):
    return sum(1 << parse_point(t) for t in texts)


def state(text, to_move=1, extras="", **params):
    return load("spargo", **params).parse_state(f"{text} {to_move} {extras}".strip())


def match_at(text, to_move=1, extras="", **params):
    return load("spargo", **params).new_match(state=state(text, to_move, extras, **params))


def moves_of(s, **params):
    return sorted(m.text() for m in load("spargo", **params).legal_moves(s))


def play(match, moves):
    for text in moves.split():
        match.push(text)
    return match


# -- conformance -------------------------------------------------------------------

def test_conformance():
    check_random_games("spargo", seeds=range(25))
    check_random_games("spargo", seeds=range(10), cycle="ko")
    check_random_games("spargo", seeds=range(8), players=3)
    check_playouts("spargo", games=200)
    check_playouts("spargo", games=60, players=3, cycle="ko")


@pytest.mark.parametrize("params", [{"cycle": "ko"}, {"players": 3},
                                    {"supply": 9, "turn_limit": 40},
                                    {"players": 3, "cycle": "ko", "supply": 30}])
def test_playouts_under_every_parameter(params):
    check_playouts("spargo", games=60, **params)


def test_declaration_and_parameters():
    game = load("spargo")
    info = game.info
    assert (info.family, info.designer, info.year) == ("Capture", "Cameron Browne", "2006-2011")
    assert (info.min_players, info.max_players, info.complexity) == (2, 3, 5)
    assert info.max_length == MOST_TURNS == 800
    assert game.params == {"players": 2, "cycle": "superko", "supply": 16, "turn_limit": 800}
    assert game.symmetries == tuple(range(8))
    assert load("spargo", players=3).num_players == 3
    for bad in ({"cycle": "none"}, {"cycle": "change"}, {"players": 4}, {"supply": 0},
                {"supply": 31}, {"turn_limit": 0}, {"turn_limit": 801}, {"cycle": 1}):
        with pytest.raises(UnknownGameError):
            load("spargo", **bad)


# -- freedom, groups and capture -----------------------------------------------------

def test_a_surrounded_ball_is_captured_and_suicide_is_illegal():
    m = play(load("spargo").new_match(), "a1 c1 g7 a3")
    assert m.state.position.text() == "...W/..../B.../.B..|.../.../...|../..|."
    assert m.state.position.count(WHITE) == 1            # a1 went
    with pytest.raises(IllegalMoveError):
        m.push("a1")                                     # no freedom, captures nothing
    before = m.state
    with pytest.raises(IllegalMoveError):
        m.push("Bc3")                                    # not Black's turn
    assert m.state is before
    assert "a1" not in moves_of(m.state)


def test_a_ball_may_live_by_capturing():
    # Black's a3 has no empty hole next to it, but it takes White's a1 and so
    # gains one.
    m = play(load("spargo").new_match(), "Wc3 Bc1 Wa5 Bg7 Wa1")
    pos = m.state.position
    a3 = parse_point("a3")
    assert not with_freedom(pos.black | 1 << a3, pos.occupied | 1 << a3) >> a3 & 1
    m.push("a3")
    assert m.state.position.colour_at(parse_point("a1")) == 0
    assert m.state.position.colour_at(a3) == BLACK


def test_freedom_is_an_empty_hole_beside_a_board_ball_of_the_group():
    # White a1, c3 and b2 (resting on both) form one group. a1 has only black
    # neighbours, but c3 is next to the empty e3 and c5, so the whole group lives.
    pos = Position("..../..../BW../WB..|.../.../W..|../..|.")
    assert names(pos.group(parse_point("b2"))) == "a1 c3.0 b2"
    assert with_freedom(pos.white, pos.occupied) == pos.white
    # b2 on its own has no board ball, so no freedom: a raised ball never has an
    # empty hole beside it.
    assert with_freedom(mask("b2"), pos.occupied) == 0
    # Filling e3 and c5 takes the group's last freedoms.
    assert with_freedom(pos.white, pos.occupied | mask("e3.0")) == pos.white
    assert with_freedom(pos.white, pos.occupied | mask("e3.0", "c5.0")) == 0


def test_an_overpass_cuts_a_group_and_the_cut_off_part_is_captured():
    # White's row a3-g3 lives by g1 only. Black's d4 makes the pair d2-d4 pass
    # over the contact c3-e3: a3 and c3 are cut off. a3 goes; c3 holds up d2 and
    # d4 and stays.
    s = state("..../BBBB/WWWW/BBB.|.../.../.B.|../..|.", 2)
    assert len(s.position.groups(WHITE)) == 1
    done = place(s.position, parse_point("d4.1"), 1)
    assert done.legal and names(done.captured) == "a3"
    assert done.position.colour_at(parse_point("c3.0")) == WHITE
    m = load("spargo").new_match(state=s)
    m.push("d4")
    assert m.state.position == done.position
    assert len(m.state.position.groups(WHITE)) == 2      # c3 and e3-g3, still cut


def test_zombies_held_directly_or_through_other_balls_and_hidden_balls_stay():
    # Black a1, c1, a3 and b2 have no freedom. b2 holds up White's c3.2; c1 and a3
    # hold up White's d2 and b4; a1 holds up only b2, so it is held down through
    # another black ball. All stay. White's c3.0 is hidden (a group of its own,
    # without freedom) and holds up balls of its own colour: it stays too.
    text = "..../WWW./BWW./BBW.|.../WW./BW.|../W.|."
    pos = Position(text)
    assert settled(pos, 2)
    assert names(zombies(pos, 2)) == "a1 c1 a3 c3.0 b2"
    assert pos.colour_at(parse_point("c3.0")) == WHITE and pos.hidden() == mask("c3.0")
    for to_move in (1, 2):                                 # any move keeps them all
        s = state(text, to_move)
        for move in load("spargo").legal_moves(s):
            after = load("spargo").apply(s, move).position
            assert after.occupied & zombies(pos, 2) == zombies(pos, 2)


def test_capture_round_spares_exactly_the_balls_holding_up_staying_balls():
    pos = Position("..../WWW./BWW./BBW.|.../WW./BW.|../W.|.")
    masks = [pos.white, pos.black, 0]
    assert capture_round(masks, (0, 1)) == 0
    masks = [pos.white & ~mask("c3.2"), pos.black, 0]      # lift the white cap
    # b2, and a1 under it, are no longer held; c1 and a3 still hold up d2 and b4
    assert names(capture_round(masks, (1,))) == "a1 b2"


def test_own_groups_without_freedom_go_after_the_opponents():
    # White's c7 takes twelve black balls. White's d4.1 had no freedom and stayed
    # only because Black's e3.2 rested on it; with e3.2 gone it is taken in
    # White's own round.
    s = state("..BB/WBBB/WBBB/WBBB|.../.WB/BBB|../.B|.", 1)
    masks = [s.position.white | mask("c7"), s.position.black, 0]
    first = capture_round(masks, (1,))
    assert first.bit_count() == 12 and first & mask("e3.2")
    assert names(capture_round(masks, (0,))) == "d4.1"
    assert capture_round(masks, (1,)) == 0
    done = place(s.position, parse_point("c7"), 0)
    assert done.legal and done.captured == first | mask("d4.1")


def test_revealed_capture_a_zombie_freed_by_the_movers_loss():
    # White's g7 takes Black's d2 and c3.2; White's b2 then has nothing holding it
    # and no freedom, so it goes; that frees Black's a1 and c1, which had stayed
    # under b2, and they go in the next round.
    s = state("WBB./WBWW/WBW./BBW.|BW./BB./WB.|W./B.|.", 1)
    masks = [s.position.white | mask("g7"), s.position.black, 0]
    assert names(capture_round(masks, (1,))) == "d2 c3.2"
    assert names(capture_round(masks, (0,))) == "b2"
    assert names(capture_round(masks, (1,))) == "a1 c1"
    assert capture_round(masks, (0,)) == 0
    m = load("spargo").new_match(state=s)
    m.push("g7")
    assert names(s.position.occupied & ~m.state.position.occupied) == "a1 c1 b2 d2 c3.2"


def test_captures_never_make_balls_drop():
    game = load("spargo", players=3)
    rng = random.Random(4)
    for _ in range(40):
        s = game.initial_state()
        while not game.is_terminal(s):
            s = game.apply(s, rng.choice(game.legal_moves(s)))
            assert s.position.is_stable() and settled(s.position, 3)


# -- the rule book's two examples (figures lost) ---------------------------------------

CAPTURE = "WBBB/WB.B/.WBB/.WBB|.../.../.W.|../..|."


def test_book_example_seven_of_nine_taken_two_zombies_stay():
    s = state(CAPTURE, 1)
    e5 = parse_point("e5.0")
    big = s.position.group(parse_point("e7"))
    assert big.bit_count() == 9 and big == s.position.black
    # the group's only freedom is e5
    assert with_freedom(big, s.position.occupied) == big
    assert not with_freedom(big, s.position.occupied | 1 << e5)
    done = place(s.position, e5, 0)
    assert done.legal and done.captured.bit_count() == 7 and not done.captured & s.position.white
    stay = big & done.position.black
    assert names(stay) == "e1 e3.0"
    d2 = parse_point("d2")
    assert done.position.colour_at(d2) == WHITE
    assert all(SUPPORTED_MASK[p] >> d2 & 1 for p in points_of(stay))   # both hold up d2
    m = load("spargo").new_match(state=s)
    m.push("e5")
    assert m.state.position == done.position


# Both players' only legal placement is on d4: a1 is Black's eye, g7 a hole
# where neither side's ball would have freedom.
ZUGZWANG = "BWW./WBWB/BBWW/.BBW|WB./W.W/.WB|../..|."


def forced_win(game, s, winner, depth):
    """Whether ``winner`` can force a win within ``depth`` turns (exact search)."""
    if s.result is not None:
        return s.result.winners == (winner,)
    if depth == 0:
        return False
    results = (forced_win(game, game.apply(s, m), winner, depth - 1)
               for m in game.legal_moves(s))
    return any(results) if s.to_move == winner else all(results)


def test_book_example_zombies_protect_the_eye():
    black_to_move, white_to_move = state(ZUGZWANG, 2), state(ZUGZWANG, 1)
    pos = black_to_move.position
    group = pos.group(parse_point("c1"))
    assert group.bit_count() == 7
    a1 = parse_point("a1")
    assert not with_freedom(group, pos.occupied | 1 << a1)      # a1 is its last freedom
    # Black cannot place on any hole: only d4, on level 1.
    assert moves_of(black_to_move) == ["Bd4.1"]
    assert all(not place(pos, p, 1).legal for p in points_of(~pos.occupied & 0xFFFF))
    # White would like to fill a1: it takes two black balls, five stay as zombies,
    # and the white ball is left without freedom; so it may not be played.
    masks = [pos.white | 1 << a1, pos.black, 0]
    taken = capture_round(masks, (1,))
    assert taken.bit_count() == 2 and taken & group == taken
    assert (group & masks[1]).bit_count() == 5
    assert not with_freedom(masks[0], masks[0] | masks[1]) >> a1 & 1
    assert not place(pos, a1, 0).legal
    assert moves_of(white_to_move) == ["Wd4.1"]


@pytest.mark.parametrize("cycle", ["superko", "ko"])
def test_book_example_whoever_moves_next_loses(cycle):
    game = load("spargo", cycle=cycle)
    assert forced_win(game, state(ZUGZWANG, 1, cycle=cycle), 1, 6)    # White moves, Black wins
    assert forced_win(game, state(ZUGZWANG, 2, cycle=cycle), 0, 3)    # Black moves, White wins
    # Black's only line: d4, White e3.2, Black c5.2, and White is stuck but ahead.
    m = match_at(ZUGZWANG, 2, cycle=cycle)
    play(m, "d4 e3 c5")
    assert m.is_over() and m.outcome().winners == (0,)
    assert m.outcome().reason.startswith("White has no legal placement")


# -- ko, superko and the turn limit ----------------------------------------------------

KO_GAME = "Wc3 Bc1 Wa5 Bg7 Wa1 Ba3"


@pytest.mark.parametrize("cycle", ["superko", "ko"])
def test_ko_forbids_the_immediate_recapture(cycle):
    m = play(load("spargo", cycle=cycle).new_match(), KO_GAME)
    assert "Wa1" not in moves_of(m.state, cycle=cycle)            # would rebuild the old position
    assert place(m.state.position, parse_point("a1"), 0).legal    # the freedom rule allows it
    with pytest.raises(IllegalMoveError):
        m.push("a1")
    play(m, "e7 e1")                                             # an exchange elsewhere
    assert "Wa1" in moves_of(m.state, cycle=cycle)
    m.push("a1")
    assert m.state.position.colour_at(parse_point("a3")) == 0


# A simple-ko loop found in random play: four turns (two captures each side)
# bring back the position, the player to move and the ko position.
LOOP = ("..BB/BWBB/WWWB/.BWB|..B/BB./...|../..|.", 1, "turn=22 history=20280a0a69590:1")
LOOP_MOVES = "Wf4 Ba1 We1 Bc1"


def test_simple_ko_can_cycle_for_ever():
    game = load("spargo", cycle="ko")
    m = match_at(*LOOP, cycle="ko")
    start = m.state
    for lap in range(3):
        play(m, LOOP_MOVES)
        assert (m.state.position, m.state.to_move, m.state.past) == \
            (start.position, start.to_move, start.past)
        assert m.state.turn == 22 + 4 * (lap + 1)
    assert game.state_key(m.state) != game.state_key(start)       # only the turn count differs


def test_superko_breaks_that_cycle():
    # White's e1 would rebuild the position left before Black's c1, with Black to
    # move again: allowed by ko, barred by superko.
    m = match_at(*LOOP)
    play(m, "Wf4 Ba1")
    assert "We1" not in moves_of(m.state)
    assert "We1" in moves_of(play(match_at(*LOOP, cycle="ko"), "Wf4 Ba1").state, cycle="ko")
    assert place(m.state.position, parse_point("e1"), 0).position == m.state.past[0]


def test_the_turn_limit_ends_a_looping_game_and_is_scored_like_the_end():
    m = match_at(*LOOP, cycle="ko", turn_limit=30)
    for _ in range(2):
        play(m, LOOP_MOVES)
    assert m.is_over() and m.state.turn == 30
    outcome = m.outcome()
    assert outcome.reason.startswith("30 turns were played")
    counts = (m.state.position.count(WHITE), m.state.position.count(BLACK))
    assert outcome.scores == tuple(float(c) for c in counts)
    with pytest.raises(NotationError):
        state(LOOP[0], 1, "turn=31", turn_limit=30)
    last = state(LOOP[0], 1, "turn=799")
    assert not last.result
    assert load("spargo").apply(last, load("spargo").legal_moves(last)[0]).result


def test_random_games_stay_below_the_turn_limit():
    for params, longest in (({}, 150), ({"players": 3}, 400)):
        game = load("spargo", **params)
        rng = random.Random(1)
        lengths = [game.random_playout(game.initial_state(), rng).turn for _ in range(150)]
        assert max(lengths) < longest and min(lengths) >= 8


# -- the end -------------------------------------------------------------------------

def test_no_pass_a_stuck_player_ends_the_game_though_the_other_could_move():
    stuck = state(".BW./WWBW/BBBW/.BBW|.W./WBW/.WW|../.B|.", 2)
    assert stuck.result is not None and moves_of(state(stuck.position.text(), 1))
    assert stuck.result.reason == ("Black has no legal placement; balls in play: "
                                   "White 11, Black 9; White wins")


def test_equal_counts_are_a_draw():
    m = play(load("spargo").new_match(),
             "We1 Bc7 We5.0 Bc3.0 Wg5 Be7 Wg1 Bc1 Wg3 Ba5 Wg7 Bc5.0 Wa3 Bd6 Wf6 Bb4")
    assert m.is_over()
    outcome = m.outcome()
    assert outcome.is_draw and outcome.scores == (8.0, 8.0)
    assert outcome.reason == ("White has no legal placement; balls in play: "
                              "White 8, Black 8; a draw")


def test_supply_a_player_with_all_sixteen_balls_in_play_cannot_place():
    fifteen = state("WWWW/WWWW/WWWW/.WWW|.../.../...|../..|.", 1)
    assert fifteen.position.count(WHITE) == 15 and fifteen.result is None
    sixteen = state("WWWW/WWWW/WWWW/.WWW|.../.W./...|../..|.", 1)
    assert sixteen.position.count(WHITE) == 16 and sixteen.result is not None
    assert sixteen.result.reason.startswith("White has no legal placement")
    assert sixteen.result.winners == (0,)
    assert state(sixteen.position.text(), 1, supply=30).result is None
    assert moves_of(state(sixteen.position.text(), 1, supply=30), supply=30)
    with pytest.raises(NotationError):
        state(sixteen.position.text(), 1, supply=15)             # more balls than allowed


def test_three_players_take_both_opponents_at_once_and_share_ties():
    game = load("spargo", players=3)
    m = play(game.new_match(), "Wc5.0 Ba3 Rg7 We7 Ba1 Re1 Wc1 Ba7 Rg5 We3.0 Bc7 Re5.0 Wa5 Bg3")
    before = m.state.position
    m.push("c3")
    taken = before.occupied & ~m.state.position.occupied
    assert names(taken & before.white) == "c1 e3.0 a5 c5.0"
    assert names(taken & before.black) == "a1 a3"
    pos = Position("RRRR/BBBB/WWWW/....|.../.../...|../..|.")
    assert game.score(pos, "x").is_draw                          # 4-4-4
    pos = Position("RRRR/BBBB/WWW./....|.../.../...|../..|.")
    outcome = game.score(pos, "x")
    assert outcome.winners == (1, 2) and outcome.ranking == ((1, 2), (0,))
    assert outcome.reason.endswith("Black and Red share the win")
    assert load("spargo").score(Position("..../BBBB/WWW./....|.../.../...|../..|."),
                                "x").winners == (1,)


def test_three_player_ko_looks_three_turns_back():
    # With three players, ko bars leaving the position the mover left at the end
    # of their own previous turn, three turns back; nothing else.
    game = load("spargo", players=3, cycle="ko")
    rng = random.Random(2)
    barred = 0
    for _ in range(40):
        s = game.initial_state()
        while not game.is_terminal(s):
            assert len(s.past) == min(s.turn, 2)
            masks = (s.position.white, s.position.black, s.position.red)
            allowed = {after for _, after in placements(masks, s.to_move, 3)}
            legal = {(r.position.white, r.position.black, r.position.red)
                     for r in (game.apply(s, m) for m in game.legal_moves(s))}
            old = s.past[0] if len(s.past) == 2 else None
            old = old and (old.white, old.black, old.red)
            assert allowed - legal <= {old}
            barred += bool(allowed - legal)
            s = game.apply(s, rng.choice(game.legal_moves(s)))
    assert barred


# -- state text ------------------------------------------------------------------------

def test_state_text_carries_the_turn_and_the_history():
    game = load("spargo")
    m = play(game.new_match(), KO_GAME)
    text = game.state_text(m.state)
    # c3.0 is point 5, c1 1, a5 8, g7 15 (f), a1 0, a3 4
    assert text.endswith(" 1 turn=6 history=0:518f04")
    again = game.parse_state(text)
    assert game.state_key(again) == game.state_key(m.state)
    assert again.past == m.state.past and len(again.past) == 6
    assert "Wa1" not in moves_of(again)
    ko = load("spargo", cycle="ko")
    km = play(ko.new_match(), KO_GAME)
    assert ko.state_text(km.state).endswith(" turn=6 history=" +
                                            f"{km.state.past[0].to_int():x}:4")
    assert "Wa1" not in moves_of(ko.parse_state(ko.state_text(km.state)), cycle="ko")


@pytest.mark.parametrize("extras, why", [
    ("turn=4 history=0:518", "replaying"),          # three placements from Black: wrong
    ("turn=3 history=0:518f", "only turn=3"),       # more history than turns
    ("turn=x", "not understood"),
    ("turn=4 turn=4", "twice"),
    ("turn=4 history=0:518z", "expected"),
    ("turn=4 history=0x1:518f", "expected"),
    ("turn=4 history=:518f", "expected"),
    ("turn=4 history=0:", "expected"),
    ("turn=4 history=0:5518", "not playable"),
    ("turn=4 history=0:158f", "replaying"),
    ("turn=801", "turn limit"),
    ("ko=3", "not understood"),
])
def test_bad_state_text_is_refused(extras, why):
    game = load("spargo")
    good = play(game.new_match(), "c3 c1 a5 g7").state
    assert game.state_text(good).endswith(" 1 turn=4 history=0:518f")
    assert game.state_key(game.parse_state(game.state_text(good))) == game.state_key(good)
    with pytest.raises(NotationError) as err:
        game.parse_state(f"{good.position.text()} 1 {extras}")
    assert why in str(err.value)


def test_impossible_positions_are_refused():
    for bad in ("R.../..../..../...W|.../.../...|../..|. 1",         # red with two players
                "..../..../W.../BW..|.../.../...|../..|. 1",         # a1 should have gone
                "..../..../..../....|W../.../...|../..|. 1",         # a floating ball
                "WWWW/WWWW/WWWW/.WWW|.../WW./...|../..|. 1"):        # 17 white balls
        with pytest.raises(NotationError):
            load("spargo").parse_state(bad)
    assert state("R.../..../..../...W|.../.../...|../..|.", 3, players=3).to_move == 2
    # under ko, the text remembers only the last turn (two players)
    ko = load("spargo", cycle="ko")
    long = load("spargo").state_text(play(load("spargo").new_match(), "c3 c1 g1").state)
    with pytest.raises(NotationError) as err:
        ko.parse_state(long)
    assert "only the last 1 turn" in str(err.value)
    short = ko.state_text(play(ko.new_match(), "c3 c1 g1").state)
    before = Position("..../..../.W../.B..|.../.../...|../..|.")     # after c3 and c1
    assert short.endswith(f" 2 turn=3 history={before.to_int():x}:3")   # then g1 (3)
    assert ko.parse_state(short).past == (before,)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2 ** 32), st.integers(0, 60), st.sampled_from([
    {}, {"cycle": "ko"}, {"players": 3}]))
def test_symmetries_and_text_on_random_states(seed, steps, params):
    game = load("spargo", **params)
    s = random_walk(game, seed, steps)
    for image in check_symmetries(game, s):
        again = game.parse_state(game.state_text(image))
        assert game.state_key(again) == game.state_key(image)


# -- perft, cross-checked by an independent brute force ----------------------------------
#
# The brute force shares no code with the engine: a dict from (level, x, y) to
# a colour letter. Contacts come from tests/reference.py; a ball is hidden when a
# ball sits two levels straight above it; a flat contact is cut when two balls of
# the level above touch at the very spot above it (found from the balls' centres).

def _hidden(board, pt):
    lv, x, y = pt
    return (lv + 2, x - 1, y - 1) in board


def _spot(a, b):
    (ax, ay, _), (bx, by, _) = centre(a), centre(b)
    return (ax + bx) / 2, (ay + by) / 2


def _visible_contact(board, a, b):
    if _hidden(board, a) or _hidden(board, b):
        return False
    if a[0] != b[0]:
        return True
    up = [q for q in board if q[0] == a[0] + 1]
    return not any(touch(p, q) and _spot(p, q) == _spot(a, b)
                   for i, p in enumerate(up) for q in up[i + 1:])


def _group(board, pt):
    found, todo = {pt}, [pt]
    while todo:
        p = todo.pop()
        for q in board:
            if q not in found and board[q] == board[pt] and touch(p, q) \
                    and _visible_contact(board, p, q):
                found.add(q)
                todo.append(q)
    return found


def _free(board, group):
    return any((0, x + dx, y + dy) in ALL and (0, x + dx, y + dy) not in board
               for lv, x, y in group if lv == 0
               for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))


def _capture(board, colours):
    doomed = set()
    for pt in board:
        if board[pt] in colours and pt not in doomed:
            group = _group(board, pt)
            if not _free(board, group):
                doomed |= group
    keep, grew = set(), True
    while grew:
        grew = False
        for pt in doomed - keep:
            if any(q in board and (q not in doomed or q in keep) for q in ABOVE[pt]):
                keep.add(pt)
                grew = True
    gone = doomed - keep
    return {p: c for p, c in board.items() if p not in gone}, bool(gone)


def _after(board, pt, colour, colours):
    new = {**board, pt: colour}
    while True:
        new, _ = _capture(new, [c for c in colours if c != colour])
        new, took = _capture(new, [colour])
        if not took:
            return new if new.get(pt) == colour else None


def _brute(board, depth, turn, colours, history, superko=True):
    """history: (frozen board, colour to move) of earlier positions, oldest first."""
    if depth == 0:
        return 1
    n = len(colours)
    colour, nxt = colours[turn % n], colours[(turn + 1) % n]
    if superko:
        banned = {b for b, c in history if c == nxt}
    else:
        banned = {history[-(n - 1)][0]} if len(history) >= n - 1 else set()
    if sum(c == colour for c in board.values()) >= 16:
        return 0
    total = 0
    for pt in open_points(board):
        new = _after(board, pt, colour, colours)
        if new is None or frozenset(new.items()) in banned:
            continue
        total += _brute(new, depth - 1, turn + 1, colours,
                        history + [(frozenset(board.items()), colour)], superko)
    return total


PERFT = [16, 240, 3360, 43576, 521984]
PERFT_3 = [16, 240, 3352, 43480]


def test_perft_golden_numbers_and_a_hand_count():
    assert [perft(load("spargo"), d) for d in range(1, 6)] == PERFT
    assert [perft(load("spargo", cycle="ko"), d) for d in range(1, 5)] == PERFT[:4]
    assert [perft(load("spargo", players=3), d) for d in range(1, 5)] == PERFT_3
    # No capture is possible in three turns, and the only illegal placements are
    # corners with an enemy on both sides (each corner, White then Black around it
    # or the other way: 8 with three players); two players first meet one at depth 4.
    assert PERFT[:3] == [16, 16 * 15, 16 * 15 * 14]
    assert PERFT_3[2] == 16 * 15 * 14 - 4 * 2


def test_perft_matches_the_brute_force_from_the_start():
    assert [_brute({}, d, 0, "WB", []) for d in range(1, 5)] == PERFT[:4]
    assert [_brute({}, d, 0, "WBR", []) for d in range(1, 4)] == PERFT_3[:3]


@pytest.mark.parametrize("params, colours", [({}, "WB"), ({"cycle": "ko"}, "WB"),
                                             ({"players": 3}, "WBR")])
def test_perft_matches_the_brute_force_in_the_middle_game(params, colours):
    game = load("spargo", **params)
    n = len(colours)
    rng = random.Random(5)
    checked = zombie_positions = 0
    while checked < 4:
        s = game.initial_state()
        for _ in range(rng.randrange(10, 40)):
            if game.is_terminal(s):
                break
            s = game.apply(s, rng.choice(game.legal_moves(s)))
        if game.is_terminal(s):
            continue
        history = [(frozenset(cells_of(p).items()), colours[(s.to_move - len(s.past) + i) % n])
                   for i, p in enumerate(s.past)]
        board = cells_of(s.position)
        assert [perft(game, d, s) for d in (1, 2, 3)] == \
            [_brute(board, d, s.to_move, colours, history, "cycle" not in params)
             for d in (1, 2, 3)]
        checked += 1
        zombie_positions += bool(zombies(s.position))
    for text, to_move in ((ZUGZWANG, 1), (CAPTURE, 1), (LOOP[0], 1)):
        if n == 2:
            s = state(text, to_move, **params)
            assert [perft(game, d, s) for d in (1, 2)] == \
                [_brute(cells_of(s.position), d, to_move - 1, colours, []) for d in (1, 2)]


def test_perft_around_the_ko_loop_matches_the_brute_force():
    for cycle, superko in (("ko", False), ("superko", True)):
        game = load("spargo", cycle=cycle)
        s = state(*LOOP, cycle=cycle)
        history = [(frozenset(cells_of(p).items()), "WB"[(s.to_move - len(s.past) + i) % 2])
                   for i, p in enumerate(s.past)]
        assert [perft(game, d, s) for d in (1, 2, 3)] == \
            [_brute(cells_of(s.position), d, 0, "WB", history, superko) for d in (1, 2, 3)]


POINT_OF = {pt: p for p, pt in enumerate(COORDS)}


def test_placements_agree_with_the_brute_force_on_random_positions():
    rng = random.Random(9)
    game = load("spargo", players=3)
    for _ in range(30):
        s = random_walk(game, rng.randrange(10 ** 6), rng.randrange(5, 50))
        if game.is_terminal(s):
            continue
        masks = (s.position.white, s.position.black, s.position.red)
        board = cells_of(s.position)
        colour = "WBR"[s.to_move]
        found = dict(placements(masks, s.to_move, 3))
        for pt in open_points(board):
            brute = _after(board, pt, colour, "WBR")
            after = found.get(POINT_OF[pt])
            assert (brute is None) == (after is None)
            if brute is not None:
                assert cells_of(Position.from_masks(*after)) == brute


@pytest.mark.parametrize("players", [2, 3])
def test_the_fast_survey_agrees_with_playing_every_placement_out(players):
    # fresh_placements decides most placements from the groups alone (the
    # random playout carries those groups from turn to turn, checked by the
    # conformance tests); playing each placement out with the full capture code
    # must give the same placements and positions, for every player to move.
    game = load("spargo", players=players)
    rng = random.Random(14)
    checked = 0
    for _ in range(60):
        s = game.initial_state()
        while not game.is_terminal(s):
            masks = (s.position.white, s.position.black, s.position.red)
            occupied = s.position.occupied
            for mover in range(players):
                expected = []
                for p in points_of(s.position.playable()):
                    after = list(masks)
                    after[mover] |= 1 << p
                    resolve(after, mover, players)
                    if after[mover] >> p & 1:
                        expected.append((p, tuple(after)))
                assert fresh_placements(masks, mover, players) == expected
                checked += 1
            assert raised_playable(occupied) == s.position.playable() & ~0xFFFF
            s = game.apply(s, rng.choice(game.legal_moves(s)))
    assert checked > 2000


@pytest.mark.parametrize("players", [2, 3])
def test_groups_carried_through_every_placement_match_the_groups_worked_out(players):
    # The playout carries the groups from turn to turn (regrouped after a
    # placement that takes balls off or does more than add its ball): along
    # random games, for every allowed placement of the player to move, they
    # equal the groups worked out afresh on the position after it.
    game = load("spargo", players=players)
    rng = random.Random(23)
    checked = 0
    for _ in range(40):
        s = game.initial_state()
        while not game.is_terminal(s):
            masks = (s.position.white, s.position.black, s.position.red)
            occupied = s.position.occupied
            groups = [groups_of(masks[c], occupied) for c in range(players)]
            for p, after in placements(masks, s.to_move, players):
                gone = occupied & ~(after[0] | after[1] | after[2])
                carried = regrouped([list(g) for g in groups], after, s.to_move, 1 << p, gone)
                fresh_occupied = after[0] | after[1] | after[2]
                for c in range(players):
                    assert sorted(carried[c]) == sorted(groups_of(after[c], fresh_occupied))
                checked += 1
            s = game.apply(s, rng.choice(game.legal_moves(s)))
    assert checked > 5000
