"""Spodd: a touching white-black pair each turn; majorities on five diagonals decide."""
import itertools
import random

import pytest
from hypothesis import given, strategies as st

from conformance import (check_playouts, check_random_games,
                         check_symmetries, random_walk)
from shibumi import IllegalMoveError, NotationError, load
from shibumi.analysis import perft
from shibumi.bits import raised
from shibumi.games.spaiji import openings
from shibumi.games.spodd import DIAGONALS, START, completers, first_spots, tallies
from shibumi.geometry import ALL_MASK, COORDS, INTERIOR_MASK, PROJECTION, TOUCHING_MASK, points_of
from shibumi.notation import parse_point
from shibumi.position import BLACK, RED, WHITE, Position, hidden_mask, playable_mask
from reference import touch as _touch, open_points as _open

FULL = ALL_MASK


def state(text, to_move=1, extras="", **params):
    return load("spodd", **params).parse_state(f"{text} {to_move} {extras}".strip())


def match_at(text, to_move=1, extras="", **params):
    return load("spodd", **params).new_match(state=state(text, to_move, extras, **params))


def test_conformance():
    check_random_games("spodd", seeds=range(10), weighted=True)
    check_playouts("spodd", games=400)
    check_playouts("spodd", games=200, weighted=True)


def _random_occupancies(count, seed=0):
    """Stable occupancies of every size: balls dropped on random playable points."""
    rng = random.Random(seed)
    for _ in range(count):
        occupied = 0
        for _ in range(rng.randrange(31)):
            spots = points_of(playable_mask(occupied))
            if not spots:
                break
            occupied |= 1 << rng.choice(spots)
        yield occupied


def _openings_by_point(occupied):
    """Spaiji's openings point by point: a playable point touching another
    playable point, or completing a platform."""
    playable = playable_mask(occupied)
    return sum(1 << p for p in points_of(playable)
               if playable & TOUCHING_MASK[p] or raised(occupied, p))


def test_the_mask_rules_match_the_point_by_point_ones():
    # completers and openings on masks (the playout's and legal_moves' first
    # spots) against raised and the openings, point by point.
    for occupied in _random_occupancies(3000):
        playable = playable_mask(occupied)
        by_point = sum(1 << p for p in points_of(playable) if raised(occupied, p))
        assert completers(occupied) & playable == by_point
        assert openings(occupied) == _openings_by_point(occupied)
        assert first_spots(occupied) == (openings(occupied) or playable)


# -- start and turns -----------------------------------------------------------

def test_the_start_has_reds_in_two_opposite_corners_and_white_moves():
    s = load("spodd").initial_state()
    assert s.position == START
    assert points_of(s.position.red) == [parse_point("a1"), parse_point("g7")]
    assert s.position.white == s.position.black == 0 and s.to_move == 0
    moves = load("spodd").legal_moves(s)
    assert len(moves) == 28                         # 14 empty holes x 2 colours
    assert {m.colour for m in moves} == {WHITE, BLACK}


def test_a_turn_is_a_white_and_a_black_ball_that_touch():
    m = load("spodd").new_match()
    m.push("Bc3")
    assert m.current_player == 0                   # still White's turn
    assert sorted(mv.text() for mv in m.legal_moves()) == ["Wa3", "Wc1", "Wc5.0", "We3.0"]
    for bad in ("Bc1", "Wg7", "We1"):              # same colour / occupied / not touching
        with pytest.raises(IllegalMoveError):
            m.push(bad)
    m.push("c1")                                   # the colour is implied
    assert m.state.position.colour_at(parse_point("c1")) == WHITE
    assert m.current_player == 1 and m.state.first is None


def test_a_red_corner_is_no_partner():
    m = load("spodd").new_match()
    m.push("Wc1")                                  # beside the red a1
    assert sorted(mv.text() for mv in m.legal_moves()) == ["Bc3.0", "Be1"]


def test_one_ball_may_support_the_other():
    # a1 (red), c1, a3 are in: c3 completes b2's platform, and b2 rests on it.
    m = match_at("...R/..../W.../RB..|.../.../...|../..|.", 2)
    m.push("Wc3")
    assert "Bb2" in {mv.text() for mv in m.legal_moves()}
    m.push("b2")
    assert m.state.position.colour_at(parse_point("b2")) == BLACK


def test_a_first_ball_needs_room_for_its_partner():
    # Full board, level 1 holds b6, b4, d2 and f4: b2 and f2 are playable, but
    # all their neighbours are taken and they complete no platform.
    s = state("BWBR/BWBB/WWWW/RBBB|W../W.W/.B.|../..|.", 2)
    firsts = {mv.text()[1:] for mv in load("spodd").legal_moves(s)}
    assert s.position.is_playable(parse_point("b2"))
    assert firsts == {"d6", "f6", "d4.1"}
    with pytest.raises(IllegalMoveError):
        load("spodd").new_match(state=s).push("Wb2")


# From random play: level 1 holds b4, d2, d6 and f4, so each playable point
# (b2, f2, b6, f6, d4) touches no empty point and completes no platform.
BLOCKED = "BWBR/BWBB/WWWW/RBBB|.W./B.W/.W.|../..|."


def test_a_player_without_a_touching_pair_places_the_two_balls_anywhere():
    m = match_at(BLOCKED, 2)
    assert not openings(m.state.position.occupied)
    assert m.state.result is None
    spots = {"b2", "f2", "b6", "f6", "d4.1"}
    assert {mv.text()[1:] for mv in m.legal_moves()} == spots
    m.push("Bb2")
    assert {mv.text() for mv in m.legal_moves()} == {"W" + s for s in spots - {"b2"}}
    m.push("Wf6")                                  # far from b2: allowed here only
    assert m.current_player == 0 and m.state.result is None
    while not m.is_over():
        m.push(m.legal_moves()[0])
    assert m.state.position.occupied == FULL


def test_a_game_lasts_fourteen_turns_and_black_takes_the_last():
    game = load("spodd")
    rng = random.Random(1)
    for _ in range(60):
        s = game.initial_state()
        movers = []
        while not game.is_terminal(s):
            if s.first is None:
                movers.append(s.to_move)
            s = game.apply(s, rng.choice(game.legal_moves(s)))
        assert len(movers) == 14 and movers[-1] == 1
        assert movers == [0, 1] * 7
        assert s.position.occupied == FULL and game.length(s) == 28
        assert s.position.count(WHITE) == s.position.count(BLACK) == 14


def test_random_games_need_the_escape_rarely():
    game = load("spodd")
    rng = random.Random(7)
    blocked_games = 0
    for _ in range(1500):
        s, blocked = game.initial_state(), False
        while not game.is_terminal(s):
            if s.first is None and not openings(s.position.occupied):
                blocked = True
            s = game.apply(s, rng.choice(game.legal_moves(s)))
        blocked_games += blocked
    assert 0 < blocked_games < 30                  # under 2% of games


# -- the diagonals and the no-tie guarantee ------------------------------------

def test_five_scored_diagonals_of_3_5_7_5_3_visible_squares_across_the_reds():
    squares = [{PROJECTION[p] for p in points_of(m)} for _, m in DIAGONALS]
    assert [len(s) for s in squares] == [3, 5, 7, 5, 3]
    visible = FULL & ~hidden_mask(FULL)
    assert [(m & visible).bit_count() for _, m in DIAGONALS] == [3, 5, 7, 5, 3]
    for _, m in DIAGONALS:                         # each runs across the line a1-g7
        assert len({f + r for f, r in (PROJECTION[p] for p in points_of(m))}) == 1
    scored = 0
    for _, m in DIAGONALS:
        scored |= m
    assert not scored & START.red                  # the red corners are not scored
    assert (scored | START.red) == FULL            # every other point lies on one
    assert [name for name, _ in DIAGONALS] == ["a3-c1", "a5-e1", "a7-g1", "c7-g3", "e7-g5"]
    # the hidden balls sit under squares of the three middle diagonals
    assert [(m & INTERIOR_MASK).bit_count() for _, m in DIAGONALS] == [0, 1, 3, 1, 0]


def _full(colour_of):
    """A full Spodd pyramid, reds in the corners, other points coloured by a function."""
    white = black = 0
    for p in range(30):
        if START.red >> p & 1:
            continue
        if colour_of(p) == WHITE:
            white |= 1 << p
        else:
            black |= 1 << p
    return Position.from_masks(white, black, START.red)


def test_every_colouring_of_every_diagonal_has_a_strict_majority():
    # Exhaustive, diagonal by diagonal: the other balls are fixed (all black),
    # the diagonal's visible balls take every white/black pattern.
    visible = FULL & ~hidden_mask(FULL)
    for i, (_, mask) in enumerate(DIAGONALS):
        pts = points_of(mask & visible)
        for bits in range(2 ** len(pts)):
            whites = {p for k, p in enumerate(pts) if bits >> k & 1}
            pos = _full(lambda p: WHITE if p in whites else BLACK)
            w, b = tallies(pos)[i]
            assert w + b == len(pts) and w != b
            assert w == len(whites)


@pytest.mark.parametrize("weighted", [False, True])
def test_every_split_of_the_diagonals_has_a_winner(weighted):
    # The result depends only on who takes each diagonal: try all 32 splits.
    game = load("spodd", weighted=weighted)
    weights = (1, 2, 3, 2, 1) if weighted else (1,) * 5
    for split in itertools.product((WHITE, BLACK), repeat=5):
        colour = {}
        for (_, mask), c in zip(DIAGONALS, split):
            for p in points_of(mask):
                colour[p] = c
        pos = _full(lambda p: colour[p])
        outcome = game.score(pos)
        white = sum(w for w, c in zip(weights, split) if c == WHITE)
        assert outcome.scores == (white, sum(weights) - white)
        assert outcome.winners == ((0,) if 2 * white > sum(weights) else (1,))
        assert not outcome.is_draw
    assert sum(weights) % 2 == 1


def test_thousands_of_random_games_never_tie():
    game = load("spodd")
    rng = random.Random(3)
    seen = set()
    for _ in range(3000):
        final = game.random_playout(game.initial_state(), rng)
        outcome = game.outcome(final)
        assert final.position.occupied == FULL
        assert len(outcome.winners) == 1 and sum(outcome.scores) == 5
        assert all((w + b) % 2 == 1 for w, b in tallies(final.position))
        seen.add(outcome.scores)
    assert {(3.0, 2.0), (2.0, 3.0), (4.0, 1.0), (1.0, 4.0)} <= seen


def test_the_weighted_variant_scores_1_2_3_2_1():
    # Black takes only the long middle diagonal: 3 points to White's 6.
    colour = {}
    for i, (_, mask) in enumerate(DIAGONALS):
        for p in points_of(mask):
            colour[p] = BLACK if i == 2 else WHITE
    pos = _full(lambda p: colour[p])
    assert load("spodd").score(pos).scores == (4.0, 1.0)
    weighted = load("spodd", weighted=True).score(pos)
    assert weighted.scores == (6.0, 3.0) and weighted.winners == (0,)
    assert "points" in weighted.reason


# The rule book's example result (figure lost): White takes 3 diagonals to 2,
# going 2-1 White, 4-1 Black, 4-3 White, 3-2 Black, 2-1 White. A random game
# with exactly those counts:
BOOK_GAME = ("Wc5.0 Bc3.0 We7 Be5.0 Wc1 Be1 Bg3 We3.0 Wc7 Ba7 Bd6 Wd4.1 Ba5 Wb6 Wg5 Bf6 "
             "Wg1 Bf2 Bf4 We5.2 Bd2 We3.2 Wa3 Bb4 Bb2 Wc3.2 Wc5.2 Bd4.3")


def test_the_book_example_white_takes_three_diagonals_to_two():
    m = load("spodd").new_match()
    for text in BOOK_GAME.split():
        m.push(text)
    assert m.is_over()
    assert tallies(m.state.position) == [(2, 1), (1, 4), (4, 3), (2, 3), (2, 1)]
    outcome = m.outcome()
    assert outcome.winners == (0,) and outcome.scores == (3.0, 2.0)
    assert outcome.reason == "White takes 3 diagonals to 2"


# -- text and symmetry -----------------------------------------------------------

def test_state_text_round_trips_mid_turn_and_rejects_bad_states():
    game = load("spodd")
    m = game.new_match()
    m.push("Wc3")
    text = game.state_text(m.state)
    assert text.endswith(" 1 first=c3.0")
    assert game.parse_state(text).first == parse_point("c3.0")
    for bad in ("..../..../..../....|.../.../...|../..|. 1",          # no reds
                "R.../..../..../...R|.../.../...|../..|. 1",          # wrong corners
                "...R/..../..../W...|.../.../...|../..|. 1",          # white without black
                "...R/..../..../RW..|.../.../...|../..|. 1 first=a1",  # first is red
                "...R/..../..../RWB.|.../.../...|../..|. 1"):          # Black's turn
        with pytest.raises(NotationError):
            game.parse_state(bad)


def test_only_the_turns_that_keep_the_red_corners_are_symmetries():
    game = load("spodd")
    assert game.symmetries == (0, 2, 6, 7)
    from shibumi.geometry import SYMMETRIES
    corners = {parse_point("a1"), parse_point("g7")}
    for i, perm in enumerate(SYMMETRIES):
        assert ({perm[p] for p in corners} == corners) == (i in game.symmetries)


@given(st.integers(0, 2 ** 32), st.integers(0, 28))
def test_symmetries_keep_moves_and_results(seed, steps):
    game = load("spodd")
    s = random_walk(game, seed, steps)
    for image in check_symmetries(game, s):
        again = game.parse_state(game.state_text(image))
        assert game.state_key(again) == game.state_key(image)


# -- perft, cross-checked by an independent brute force -------------------------
#
# By hand: depth 1 = 14 empty holes x 2 colours = 28. Depth 2: the partner goes
# on an empty flat neighbour of the first ball. The 4x4 grid has 24 flat
# contacts, 4 of them with a red corner; the other 20 join two empty holes,
# each in either order and either colouring: 80. The brute force shares no code with the engine: a dict
# from (level, x, y) to colour, contact = same level one step apart, or one
# resting on the other; when no touching pair fits, any two playable points.


_START = {(0, 0, 0): "R", (0, 3, 3): "R"}


def _pair_fits(board):
    return any(_touch(p, q) for p in _open(board) for q in _open({**board, p: "W"}))


def _brute(board, depth, first=None, free=False):
    if depth == 0:
        return 1
    if first is not None:
        colour = "B" if board[first] == "W" else "W"
        spots = [q for q in _open(board) if free or _touch(first, q)]
        return sum(_brute({**board, q: colour}, depth - 1) for q in spots)
    free = not _pair_fits(board)
    total = 0
    for p in _open(board):
        for colour in "WB":
            after = {**board, p: colour}
            if free or any(_touch(p, q) for q in _open(after)):
                total += _brute(after, depth - 1, p, free)
    return total


PERFT = [28, 80, 1920, 4768, 95040]


def test_perft_matches_a_hand_count_and_an_independent_brute_force():
    game = load("spodd")
    assert [perft(game, d) for d in range(1, 6)] == PERFT
    # flat contacts between the 14 empty holes: 24 of a 4x4 grid, less the
    # 4 that touch a red corner; each is a pair in two orders, two colourings
    assert PERFT[:2] == [14 * 2, (24 - 4) * 2 * 2]
    assert [_brute(dict(_START), d) for d in range(1, 5)] == PERFT[:4]
    # the blocked position above, read into the brute force's own form
    pos = Position(BLOCKED)
    blocked = {COORDS[p]: "WBR"[pos.colour_at(p) - 1] for p in points_of(pos.occupied)}
    assert not _pair_fits(blocked)
    s = state(BLOCKED, 2)
    assert [perft(game, d, s) for d in (1, 2, 3)] == [_brute(blocked, d) for d in (1, 2, 3)]


def test_the_starting_reds_are_never_covered():
    # The reds stay visible (exterior corners), so they never change a count.
    assert not START.red & INTERIOR_MASK
    assert START.colour_at(parse_point("a1")) == RED
