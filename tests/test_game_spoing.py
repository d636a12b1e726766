"""Spoing: jump over a ball of another colour, take the ball beyond, recolour the one crossed."""
import random

import pytest
from hypothesis import given, settings, strategies as st

from conformance import (check_playouts, check_random_games,
                         check_symmetries, random_walk)
from shibumi import IllegalMoveError, NotationError, load
from shibumi.analysis import perft
from shibumi.game import Game, State
from shibumi.games.spoing import JUMPS, START, jump_moves
from shibumi.geometry import SYMMETRIES
from shibumi.notation import parse_point
from shibumi.position import BLACK, RED, WHITE, Position
from reference import cells_of

GAME = load("spoing")
LETTER = {WHITE: "W", BLACK: "B", RED: "R"}


def board(rows, rest="|.../.../...|../..|."):
    """A position from the four board rows, rank 7 first (``'B.../..../..../W...'``)."""
    return Position(rows + rest)


def state(rows, to_move=1):
    return GAME.parse_state(f"{board(rows).text()} {to_move}")


def match_at(rows, to_move=1):
    return GAME.new_match(state=state(rows, to_move))


def texts(moves):
    return sorted(m.text() for m in moves)


def test_conformance():
    check_random_games("spoing", seeds=range(60))
    check_playouts("spoing", games=500)


def test_declaration():
    info = GAME.info
    assert (info.name, info.designer, info.year, info.family) == \
        ("Spoing", "Stephen Tavener", "2011", "Capture")
    assert (info.min_players, info.max_players, info.complexity) == (2, 2, 3)
    assert info.max_length == 12
    assert GAME.symmetries == (0, 4)


# -- the start -------------------------------------------------------------------

def test_the_start_fills_the_board_two_ranks_each_and_no_red():
    s = GAME.initial_state()
    assert s.position == START == board("BBBB/BBBB/WWWW/WWWW")
    assert s.position.count(WHITE) == s.position.count(BLACK) == 8
    assert s.position.count(RED) == 0 and s.to_move == 0
    assert GAME.length(s) == 0


def test_white_opens_with_four_straight_and_four_diagonal_jumps():
    moves = texts(GAME.legal_moves(GAME.initial_state()))
    assert moves == ["a3>a7", "a3>e7", "c3.0>c7", "c3.0>g7",
                     "e3.0>a7", "e3.0>e7", "g3>c7", "g3>g7"]


def test_the_book_example_white_takes_a_black_ball_and_the_crossed_one_turns_red():
    m = GAME.new_match()
    m.push("c3>c7")
    pos = m.state.position
    assert pos.colour_at(parse_point("c3.0")) == 0           # the jumper left
    assert pos.colour_at(parse_point("c5.0")) == RED         # crossed: black -> red
    assert pos.colour_at(parse_point("c7")) == WHITE         # landed on black c7
    assert (pos.count(WHITE), pos.count(BLACK), pos.count(RED)) == (8, 6, 1)
    assert m.current_player == 1


def test_black_may_jump_the_new_red_ball():
    m = GAME.new_match()
    m.push("c3>c7")
    assert "c5.0>g1" in texts(m.legal_moves())
    m.push("c5>g1")                          # red over white e3 onto white g1
    pos = m.state.position
    assert pos.colour_at(parse_point("e3.0")) == BLACK       # white -> black
    assert pos.colour_at(parse_point("g1")) == RED
    assert (pos.count(WHITE), pos.count(BLACK), pos.count(RED)) == (6, 7, 1)


# -- the jump ----------------------------------------------------------------------

@pytest.mark.parametrize("jumper, crossed, becomes", [
    ("W", "B", "R"), ("W", "R", "B"), ("B", "W", "R"),
    ("B", "R", "W"), ("R", "W", "B"), ("R", "B", "W")])
@pytest.mark.parametrize("landing", ["W", "B", "R"])
def test_the_crossed_ball_takes_the_third_colour_and_any_ball_may_be_landed_on(
        jumper, crossed, becomes, landing):
    # a1, c1, e1 in a row and a far red on g7: four balls, twelve jumps made,
    # White to move; a second far red on g5 and it is Black's turn.
    for filler, to_move, player in ((".", 1, 0), ("R", 2, 1)):
        if jumper not in (("W", "R"), ("B", "R"))[player]:
            continue
        m = match_at(f"...R/...{filler}/..../{jumper}{crossed}{landing}.", to_move)
        m.push("a1>e1")
        pos = m.state.position
        assert LETTER[pos.colour_at(parse_point("e1"))] == jumper
        assert LETTER[pos.colour_at(parse_point("c1"))] == becomes
        assert pos.colour_at(parse_point("a1")) == 0
        assert pos.count() == (3 if filler == "." else 4)


def test_only_your_own_colour_or_red_jumps():
    # Black to move: only White could jump here (a1 over c1 onto e1).
    m = match_at("...R/...R/..../WBB.", 2)
    assert m.legal_moves() == [] and m.is_over()
    assert texts(GAME.legal_moves(state("...R/..../..../WBB.", 1))) == ["a1>e1"]
    m = match_at("...R/...R/..../BWW.", 2)
    assert texts(m.legal_moves()) == ["a1>e1"]


def test_no_jump_over_the_same_colour_or_an_empty_hole_or_into_an_empty_hole():
    for rows in ("...R/..../..../WW.B",        # same colour crossed
                 "...R/..../..../W.BB",        # a gap: nothing to cross
                 "...R/...R/..../WB..",        # nothing to land on
                 "...R/..../..../RR.B"):       # red cannot cross red
        s = state(rows, 1)
        assert not [m for m in GAME.legal_moves(s) if m.point == parse_point("a1")], rows


def test_red_balls_move_for_either_player():
    rows = "...B/..../..../RWB."            # a1 red, c1 white, e1 black, g7 black
    white = GAME.legal_moves(state(rows, 1))
    assert texts(white) == ["a1>e1"]
    # Black may move the same red ball, or its own e1 over c1 onto the red
    three = "...R/...R/..../RWB."
    assert texts(GAME.legal_moves(state(three, 2))) == ["a1>e1", "e1>a1"]


def test_diagonal_jumps():
    m = match_at("...B/..R./.W../W...", 1)  # a1 W, c3 W, e5 R, g7 B
    assert "a1>e5.0" not in texts(m.legal_moves())          # white over white
    m = match_at("...B/..B./.R../W...", 1)  # a1 W, c3 R, e5 B, g7 B
    assert "a1>e5.0" in texts(m.legal_moves())
    m.push("a1>e5")
    pos = m.state.position
    assert pos.colour_at(parse_point("c3.0")) == BLACK       # red crossed by white
    assert pos.colour_at(parse_point("e5.0")) == WHITE


def test_jump_tables_cover_eight_directions_on_the_board_only():
    assert sum(len(j) for j in JUMPS) == 2 * (2 * 4 * 2 + 2 * 2 * 2)   # 48 jumps
    for p, jumps in enumerate(JUMPS):
        for over, land, move in jumps:
            assert max(p, over, land) < 16 and over * 2 == p + land
            assert move.point == p and move.target == land


# -- the end -----------------------------------------------------------------------

def test_the_game_ends_when_the_player_to_move_cannot_jump_though_the_other_could():
    # White: c1 (between two black balls) and g7. Black could jump a1 over c1.
    s = state("...W/..../..../BWB.", 1)
    assert jump_moves(s.position.white, s.position.black, s.position.red, 1)
    assert GAME.is_terminal(s) and GAME.legal_moves(s) == []
    outcome = GAME.outcome(s)
    assert outcome.is_draw and outcome.scores == (2.0, 2.0)
    assert outcome.reason == "White cannot jump; white 2, black 2"


def test_most_balls_of_your_colour_wins_and_red_counts_for_nobody():
    # Black to move, no jump anywhere (no three balls in a row).
    s = state("R..R/..../W..W/..B.", 2)      # 2 reds, 2 white, 1 black
    assert GAME.is_terminal(s)
    outcome = GAME.outcome(s)
    assert outcome.winners == (0,) and outcome.scores == (2.0, 1.0)
    assert outcome.reason == "Black cannot jump; white 2, black 1"
    s = state("RRRR/..../..../B.W.", 1)      # four reds in a row cannot jump each other
    assert GAME.is_terminal(s) and GAME.outcome(s).is_draw


SHORTEST = "a3>a7 g5>g1 a5>e5 c7>g3"
LONGEST = "a3>a7 c5>c1 a1>e1 g5>g1 a7>e7 g1>c1 e7>e3 g7>c3 a5>e1 c7>g3 e1>e5 g3>c3"


def test_a_four_move_game_white_stranded_but_ahead():
    m = GAME.new_match()
    for text in SHORTEST.split():
        m.push(text)
    assert m.is_over() and GAME.length(m.state) == 4
    assert m.outcome().winners == (0,) and m.outcome().scores == (8.0, 4.0)
    assert m.outcome().reason.startswith("White cannot jump")


def test_a_twelve_move_game_reaches_the_declared_longest():
    m = GAME.new_match()
    for text in LONGEST.split():
        assert not m.is_over()
        m.push(text)
    assert m.is_over() and GAME.length(m.state) == 12 == GAME.info.max_length
    assert m.state.position.count() == 4
    assert m.outcome().is_draw and m.outcome().scores == (1.0, 1.0)


# -- invariants ----------------------------------------------------------------------

def _three_in_a_row(cells):
    for (lv, x, y) in cells:
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            if (0, x + dx, y + dy) in cells and (0, x + 2 * dx, y + 2 * dy) in cells:
                return True
    return False


board_masks = st.lists(st.sampled_from([0, WHITE, BLACK, RED]), min_size=16, max_size=16)


def _position(colours):
    masks = {WHITE: 0, BLACK: 0, RED: 0}
    for p, c in enumerate(colours):
        if c:
            masks[c] |= 1 << p
    return Position.from_masks(masks[WHITE], masks[BLACK], masks[RED])


@given(board_masks, st.integers(0, 1))
def test_jumps_on_any_board_match_the_brute_force(colours, player):
    pos = _position(colours)
    engine = GAME.legal_moves(State(pos, player))
    found = sorted((a, c) for a, _, c in _ref_jumps(cells_of(pos), player))
    assert sorted(((m.point % 4, m.point // 4), (m.target % 4, m.target // 4))
                  for m in engine) == [((a[1], a[2]), (c[1], c[2])) for a, c in found]
    if not _three_in_a_row(cells_of(pos)):
        assert engine == [] and jump_moves(pos.white, pos.black, pos.red, 1 - player) == []


@given(st.integers(0, 2 ** 32), st.integers(0, 12))
def test_every_jump_takes_exactly_one_ball_and_recolours_one(seed, steps):
    s = random_walk(GAME, seed, steps)
    if GAME.is_terminal(s):
        return
    rng = random.Random(seed)
    move = rng.choice(GAME.legal_moves(s))
    after = GAME.apply(s, move)
    assert after.position.count() == s.position.count() - 1
    assert GAME.length(after) == GAME.length(s) + 1
    over = (move.point + move.target) // 2
    before_over = s.position.colour_at(over)
    jumper = s.position.colour_at(move.point)
    assert after.position.colour_at(over) not in (0, before_over, jumper)
    changed = [p for p in range(16) if after.position.colour_at(p) != s.position.colour_at(p)]
    assert {move.point, over} <= set(changed) <= {move.point, over, move.target}
    assert (move.target in changed) == (s.position.colour_at(move.target) != jumper)
    assert after.to_move == 1 - s.to_move


def test_random_games_stay_on_the_board_and_end_with_no_jump_for_the_mover():
    rng = random.Random(5)
    lengths = set()
    for _ in range(500):
        final = GAME.random_playout(GAME.initial_state(), rng)
        pos = final.position
        assert pos.occupied < 1 << 16
        assert jump_moves(pos.white, pos.black, pos.red, final.to_move) == []
        assert GAME.length(final) == 16 - pos.count() <= 12
        lengths.add(GAME.length(final))
    assert min(lengths) >= 4 and max(lengths) >= 10


def test_the_fast_playout_plays_the_same_games_as_the_generic_loop():
    for seed in range(200):
        fast = GAME.random_playout(GAME.initial_state(), random.Random(seed))
        slow = Game.random_playout(GAME, GAME.initial_state(), random.Random(seed))
        assert GAME.state_key(fast) == GAME.state_key(slow)
        assert fast.last == slow.last


# -- bad input and text ---------------------------------------------------------------

def test_illegal_moves_raise_and_leave_the_state_alone():
    m = GAME.new_match()
    before = m.state
    for bad in ("a1>a5", "c3>c5", "c7>c3", "a3>a5", "a3>c7", "xa1", "d4", "pass", "c1"):
        with pytest.raises(IllegalMoveError):
            m.push(bad)
        assert m.state is before
    with pytest.raises(NotationError):
        m.push("zz9")
    assert m.state is before


def test_state_text_round_trips_and_bad_states_are_refused():
    m = GAME.new_match()
    m.push("c3>c7")
    text = GAME.state_text(m.state)
    assert text == "BWBB/BRBB/W.WW/WWWW|.../.../...|../..|. 2"
    assert GAME.state_key(GAME.parse_state(text)) == GAME.state_key(m.state)
    for bad in ("BBBB/BBBB/WWWW/WWWW|.../.../...|../..|. 2",   # White moves first
                "BBBB/BBBB/WWWW/WWWW|.../.../W..|../..|. 1",   # a stacked ball
                "BBBB/BBBB/WWWW/WWWW|.../.../...|../..|. 1 ply=3",  # no extra fields
                "BRBB/BRBB/W.WW/WWWW|.../.../...|../..|. 2",   # 2 reds after one jump
                "BBBB/BBBB/WWWW/WWWW|.../.../...|../..|. 3",   # no third player
                "..../..../..../RWB.|.../.../...|../..|. 2",   # 13 jumps: too many
                "BBBB/BBBB/WWWW/WWWW 1"):                      # not a position
        with pytest.raises(NotationError):
            GAME.parse_state(bad)


@given(st.integers(0, 2 ** 32), st.integers(0, 12))
@settings(max_examples=60)
def test_symmetries_keep_moves_and_results(seed, steps):
    s = random_walk(GAME, seed, steps)
    for image in check_symmetries(GAME, s):
        again = GAME.parse_state(GAME.state_text(image))
        assert GAME.state_key(again) == GAME.state_key(image)
    # the jump rules themselves treat all eight turns alike; only the start breaks them
    check_symmetries(GAME, s, indices=range(8))


def test_only_the_left_right_mirror_keeps_the_start():
    for i, perm in enumerate(SYMMETRIES):
        assert (START.transform(perm) == START) == (i in GAME.symmetries)


# -- perft, cross-checked by an independent brute force ---------------------------------
#
# By hand: depth 1 = 8 (each white ball of rank 3 jumps straight ahead or
# diagonally over a black ball of rank 5 onto rank 7; the rank-1 balls face
# their own colour). The brute force below shares no code with the engine: a
# dict from (level, x, y) to 'W', 'B' or 'R', read from the position's text.

_DIRS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]


def _ref_jumps(cells, player):
    own = "WB"[player]
    found = []
    for (lv, x, y), colour in sorted(cells.items()):
        if colour not in (own, "R"):
            continue
        for dx, dy in _DIRS:
            mid, far = (0, x + dx, y + dy), (0, x + 2 * dx, y + 2 * dy)
            if mid in cells and far in cells and cells[mid] != colour:
                found.append(((0, x, y), mid, far))
    return found


def _ref_after(cells, jump):
    src, mid, far = jump
    new = dict(cells)
    colour = new.pop(src)
    new[far] = colour
    new[mid] = ({"W", "B", "R"} - {colour, cells[mid]}).pop()
    return new


def _brute(cells, player, depth):
    if depth == 0:
        return 1
    return sum(_brute(_ref_after(cells, j), 1 - player, depth - 1)
               for j in _ref_jumps(cells, player))


PERFT = [8, 88, 732, 5182, 32188, 157304, 634346]


def test_perft_matches_a_hand_count_and_an_independent_brute_force():
    assert [perft(GAME, d) for d in range(1, 6)] == PERFT[:5]
    assert PERFT[0] == 4 + 4
    start = cells_of(GAME.initial_state().position)
    assert [_brute(start, 0, d) for d in range(1, 6)] == PERFT[:5]
    for seed, steps in ((1, 2), (2, 4), (3, 6), (4, 3)):
        s = random_walk(GAME, seed, steps)
        cells = cells_of(s.position)
        assert [perft(GAME, d, s) for d in (1, 2, 3, 4)] == \
            [_brute(cells, s.to_move, d) for d in (1, 2, 3, 4)]


@pytest.mark.slow
def test_deep_perft():
    assert [perft(GAME, d) for d in (6, 7)] == PERFT[5:]
    assert _brute(cells_of(START), 0, 6) == PERFT[5]


@pytest.mark.slow
def test_every_game_lasts_four_to_twelve_moves_and_best_play_draws():
    # Exhaustive: every position reachable from the start, solved.
    memo = {}

    def solve(s):
        key = (s.position.white, s.position.black, s.position.red, s.to_move)
        found = memo.get(key)
        if found is None:
            if s.result is not None:
                value = 0 if s.result.is_draw else (1 if s.result.winners == (0,) else -1)
                found = (value, 0, 0)
            else:
                kids = [solve(GAME.apply(s, m)) for m in GAME.legal_moves(s)]
                pick = max if s.to_move == 0 else min
                found = (pick(k[0] for k in kids), 1 + max(k[1] for k in kids),
                         1 + min(k[2] for k in kids))
            memo[key] = found
        return found

    start = GAME.initial_state()
    assert solve(start) == (0, 12, 4)
    assert len(memo) == 2566179
    firsts = {m.text(): solve(GAME.apply(start, m))[0] for m in GAME.legal_moves(start)}
    assert sorted(t for t, v in firsts.items() if v < 0) == ["a3>e7", "g3>c7"]
    assert sum(v == 0 for v in firsts.values()) == 6
