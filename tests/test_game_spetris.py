"""Spetris pinned down: the shapes, laying them ball by ball, the bar, passes, the end."""
import random
from itertools import combinations

import pytest

from shibumi.games.spetris import (KINDS, LINE2, LINE3, PLACEMENTS, RIGHT, START_HAND,
                                   TRIANGLE, WIDE)  # importing registers the game
from conformance import (check_playouts, check_random_games, check_symmetries,
                         random_walk)
from shibumi import IllegalMoveError, NotationError, load
from shibumi.analysis import perft
from shibumi.geometry import SYMMETRIES
from reference import ALL as CELLS, below, cells_of, centre, touch

GAME = load("spetris")
GAME3 = load("spetris", players=3)


def match_at(text, game=GAME):
    return game.new_match(state=game.parse_state(text))


def lay(match, *moves):
    for move in moves:
        match.push(move)
    return match


# -- an engine-free statement of the rules, on reference.py's points --------------

def _spread(a, c):
    return round(sum((u - v) ** 2 for u, v in zip(centre(a), centre(c))))


def reference_shapes():
    """Every placement of each shape, from the balls' centres alone."""
    kind_of = {1: TRIANGLE, 2: RIGHT, 3: WIDE, 4: LINE3}
    shapes = {k: set() for k in KINDS}
    for a, b in combinations(CELLS, 2):
        if touch(a, b):
            shapes[LINE2].add(frozenset((a, b)))
    for b in CELLS:
        near = [a for a in CELLS if touch(a, b)]
        for a, c in combinations(near, 2):
            shapes[kind_of[_spread(a, c)]].add(frozenset((a, b, c)))
    return shapes


SHAPES = reference_shapes()


def fits_in(board, shape) -> bool:
    return all(p not in board and all(q in board or q in shape for q in below(p))
               for p in shape)


def ref_turns(board, hands, bar, placer, mover, players):
    """The whole-shape placements open to the mover: (points, kind) pairs."""
    if players == 3 and all(h == START_HAND for h in hands):
        kinds = [LINE2]
    else:
        kinds = [k for k in KINDS if hands[mover][k] and not (k == bar and placer != mover)]
    return [(s, k) for k in kinds for s in SHAPES[k] if fits_in(board, s)]


def ref_over(board, hands) -> bool:
    return len(board) == 30 or not any(
        hands[p][k] and any(fits_in(board, s) for s in SHAPES[k])
        for p in range(len(hands)) for k in KINDS)


def ref_perft(board, hands, bar, placer, mover, players, depth):
    """Turns (a shape or a forced pass) counted to a depth, as the rules say."""
    if depth == 0:
        return 1
    options = ref_turns(board, hands, bar, placer, mover, players)
    nxt = (mover + 1) % players
    total = 0
    for shape, kind in options or [(frozenset(), None)]:
        new_board, new_hands, new_bar, new_placer = dict(board), list(hands), bar, placer
        if kind is not None:
            for p in shape:
                new_board[p] = "WBR"[mover]
            hand = list(hands[mover])
            hand[kind] -= 1
            new_hands[mover] = tuple(hand)
            new_bar, new_placer = kind, mover
        if nxt == new_placer:
            new_bar, new_placer = -1, -1
        if ref_over(new_board, new_hands):
            total += 1
        else:
            total += ref_perft(new_board, new_hands, new_bar, new_placer, nxt, players,
                               depth - 1)
    return total


# -- the engine, turn by turn -------------------------------------------------------

def engine_turns(game, state):
    """Every state that ends the mover's turn, with the shape it laid (or None)."""
    mover, out, stack = state.to_move, [], [state]
    while stack:
        node = stack.pop()
        for move in game.legal_moves(node):
            child = game.apply(node, move)
            if child.to_move != mover or child.result is not None:
                out.append(child)
            else:
                stack.append(child)
    return out


def turn_perft(game, state, depth):
    if depth == 0 or state.result is not None:
        return 1
    distinct = {game.state_key(c): c for c in engine_turns(game, state)}   # orders of balls
    return sum(turn_perft(game, child, depth - 1) for child in distinct.values())


def laid(state, child):
    """The points and kind a turn laid, read from the hands."""
    before, after = cells_of(state.position), cells_of(child.position)
    kind = next((k for k in KINDS if child.hands[state.to_move][k]
                 != state.hands[state.to_move][k]), None)
    return frozenset(set(after) - set(before)), kind


def ref_state(game, state):
    return (cells_of(state.position), list(state.hands), state.barred, state.placer,
            state.to_move, game.num_players)


# -- the shapes ------------------------------------------------------------------------

def test_shape_counts_match_an_engine_free_enumeration():
    counts = [len(PLACEMENTS[k]) for k in KINDS]
    assert counts == [len(SHAPES[k]) for k in KINDS] == [42, 96, 114, 168, 88]
    assert sum(START_HAND) == 6 and sum(n * (2 if k == LINE2 else 3)
                                        for k, n in enumerate(START_HAND)) == 16


def test_sixty_and_120_degree_shapes_need_two_levels():
    levels = {k: {len({p[0] for p in s}) for s in SHAPES[k]} for k in KINDS}
    assert levels[TRIANGLE] == {2} and levels[WIDE] == {2, 3}
    flat = {k: sum(len({p[0] for p in s}) == 1 for s in SHAPES[k]) for k in KINDS}
    assert flat[LINE3] == 22 and flat[RIGHT] == 56 and flat[LINE2] == 40


def test_placements_are_closed_under_the_symmetries():
    for kind in KINDS:
        masks = {m for m, _ in PLACEMENTS[kind]}
        for perm in SYMMETRIES:
            assert {sum(1 << perm[p] for p in range(30) if m >> p & 1) for m in masks} == masks


# -- laying a shape ---------------------------------------------------------------------

def test_a_line_of_three_laid_ball_by_ball():
    m = lay(GAME.new_match(), "a1", "c1")
    assert m.current_player == 0 and m.state.placed
    lay(m, "e1")
    assert m.current_player == 1 and m.state.hands[0] == (0, 2, 1, 1, 1)
    assert m.state.barred == LINE3


def test_two_touching_balls_may_stop_as_a_line_of_two():
    m = lay(GAME.new_match(), "a1", "c1")
    assert "pass" in [mv.text() for mv in m.legal_moves()]
    lay(m, "pass")
    assert m.state.hands[0] == (1, 1, 1, 1, 1) and m.state.barred == LINE2


def test_a_ball_must_belong_to_a_shape_that_fits():
    m = lay(GAME.new_match(), "a1")
    legal = {mv.text() for mv in m.legal_moves()}
    # With one ball on a1 only shapes through a1 remain: its neighbours a3 and c1 and
    # the ends of lines, right angles and the like (c3 via a right angle a3-a1-c1).
    assert legal == {"Wa3", "Wc1", "Wa5", "We1", "Wc3.0"}
    with pytest.raises(IllegalMoveError):
        m.push("g7")
    assert m.state.placed == 1


def test_a_shape_may_rest_on_its_own_balls():
    # White's line of two a3-c3, Black's line of three; then White's triangle
    # a1, c1 and b2: b2 rests on a1 and c1 of its own shape and on a3 and c3.
    m = lay(GAME.new_match(), "a3", "c3", "pass", "g3", "g5", "g7")
    lay(m, "a1", "c1", "b2")
    assert m.state.hands[0] == (1, 1, 1, 1, 0) and m.state.barred == TRIANGLE


def test_the_last_shape_laid_is_barred_for_the_others():
    m = lay(GAME.new_match(), "a1", "c1", "pass")
    after = {mv.text() for mv in m.legal_moves()}
    lay(m, "a5")
    # Black may not stop at a line of two: it is barred.
    assert all(mv.text() != "pass" for mv in lay(m, "a7").legal_moves())


def transitions(game, games=120):
    """(state, move, next state) along random games."""
    for seed in range(games):
        rng, state = random.Random(seed), game.initial_state()
        while state.result is None:
            move = rng.choice(game.legal_moves(state))
            after = game.apply(state, move)
            yield state, move, after
            state = after


def test_the_bar_is_lifted_when_the_turn_comes_back():
    found = 0
    for state, move, after in transitions(GAME):
        if move.kind == "pass" and not state.placed:
            # a forced pass: nothing the mover may lay fits
            assert not any(GAME._options(state)[0])
            if state.placer == 1 - state.to_move:
                assert after.barred == -1 and after.placer == -1     # back to the placer
                found += 1
    assert found


def test_three_player_bar_survives_a_pass():
    found = 0
    for state, move, after in transitions(GAME3):
        if move.kind == "pass" and not state.placed and state.placer not in (-1, state.to_move) \
                and after.to_move != state.placer and after.result is None:
            assert after.barred == state.barred and after.barred not in GAME3.allowed_kinds(after)
            found += 1
    assert found


def test_state_text_round_trips_mid_shape():
    m = lay(GAME.new_match(), "a1", "c1")
    text = GAME.state_text(m.state)
    assert "placed=a1,c1" in text
    assert GAME.state_key(GAME.parse_state(text)) == GAME.state_key(m.state)


@pytest.mark.parametrize("text", [
    ". 1", "..../..../..../W...|.../.../...|../..|. 1 hand1=IDDLVT",
    "..../..../..../....|.../.../...|../..|. 1 hand1=IIDLVT",
    "..../..../..../....|.../.../...|../..|. 1 hand1=XX",
    "..../..../..../....|.../.../...|../..|. 1 bar=Q1",
    "..../..../..../....|.../.../...|../..|. 1 bar=D5",
    "..../..../..../....|.../.../...|../..|. 1 hand9=D",
    "..../..../..../R...|.../.../...|../..|. 1",
])
def test_bad_states_are_refused(text):
    with pytest.raises(NotationError):
        GAME.parse_state(text)


def test_bad_moves_are_refused_without_changing_the_state():
    m = lay(GAME.new_match(), "a1")
    before = m.state
    for bad in ("b2", "xa1", "Bc1", "pass", "zz", "a1>c1"):
        with pytest.raises((IllegalMoveError, NotationError)):
            m.push(bad)
    assert m.state == before


# -- three players ------------------------------------------------------------------

def test_three_players_open_with_a_line_of_two():
    m = GAME3.new_match()
    lay(m, "a1")
    assert {mv.text() for mv in m.legal_moves()} == {"Wa3", "Wc1"}
    lay(m, "c1")
    assert m.current_player == 1 and m.state.hands[0] == (1, 1, 1, 1, 1)
    # Black, barred from lines of two, must start a shape of three.
    assert m.state.barred == LINE2 and m.state.placer == 0


# -- the end ----------------------------------------------------------------------------

def test_fewest_shapes_then_fewest_balls_wins():
    rng = random.Random(5)
    seen = set()
    for seed in range(300):
        end = GAME.random_playout(GAME.initial_state(), random.Random(seed))
        keys = [(sum(h), sum(n * (2 if k == LINE2 else 3) for k, n in enumerate(h)))
                for h in end.hands]
        best = min(keys)
        winners = tuple(p for p in range(2) if keys[p] == best)
        assert end.result.winners == (winners if len(winners) == 1 else ())
        seen.add(len(end.result.winners))
        if keys[0][0] == keys[1][0] and keys[0][1] != keys[1][1]:
            seen.add("balls")
    assert seen == {0, 1, "balls"}


def test_the_game_ends_when_nobody_can_lay_anything():
    for seed in range(100):
        end = GAME.random_playout(GAME.initial_state(), random.Random(seed))
        board = cells_of(end.position)
        assert ref_over(board, end.hands)


# -- perft against the engine-free rules -------------------------------------------------

def test_first_turn_placements_match_the_reference():
    state = GAME.initial_state()
    engine = {laid(state, c) for c in engine_turns(GAME, state)}
    ref = set(ref_turns(*ref_state(GAME, state)[:6]))
    assert engine == ref and len(ref) == 76


@pytest.mark.parametrize("seed,steps", [(1, 9), (2, 14), (3, 20), (4, 25)])
def test_turns_match_the_reference_on_random_positions(seed, steps):
    for game in (GAME, GAME3):
        state = random_walk(game, seed, steps)
        while state.placed and state.result is None:     # finish the shape in hand
            state = game.apply(state, game.legal_moves(state)[0])
        if state.result is not None:
            continue
        engine = {laid(state, c) for c in engine_turns(game, state)}
        ref = set(ref_turns(*ref_state(game, state)[:6])) or {(frozenset(), None)}
        assert engine == ref


def test_turn_perft_from_the_start():
    state = GAME.initial_state()
    assert turn_perft(GAME, state, 1) == 76
    assert turn_perft(GAME3, GAME3.initial_state(), 2) == ref_perft(
        *ref_state(GAME3, GAME3.initial_state()), 2) == 876


@pytest.mark.parametrize("seed,steps,depth", [(7, 16, 3), (8, 22, 3), (9, 12, 2)])
def test_turn_perft_from_random_positions(seed, steps, depth):
    state = random_walk(GAME, seed, steps)
    while state.placed and state.result is None:
        state = GAME.apply(state, GAME.legal_moves(state)[0])
    assert turn_perft(GAME, state, depth) == ref_perft(*ref_state(GAME, state), depth)


def test_action_perft_golden():
    # Ball by ball: 16 first balls, 116 two-ball starts, 360 three actions.
    assert [perft(GAME, d) for d in (1, 2, 3)] == [16, 116, 360]


# -- conformance ----------------------------------------------------------------------------

def test_conformance():
    check_random_games("spetris", seeds=range(25))
    check_random_games("spetris", seeds=range(15), players=3)


def test_symmetries():
    for seed in range(4):
        for game in (GAME, GAME3):
            check_symmetries(game, random_walk(game, seed, 5 + 3 * seed))


def test_fast_playouts_agree_with_the_rules_for_three_players():
    # The conformance suite checks the default (two players) only.
    check_playouts("spetris", games=300, players=3)


def test_fast_playouts_agree_with_the_rules_for_two_players():
    check_playouts("spetris", games=300, players=2)


@pytest.mark.parametrize("players", [2, 3])
def test_the_playout_grows_a_shape_from_the_turns_placement_set(players):
    """The playout's shortcuts along random games, in the middle of turns: the
    placements holding the balls laid this turn are those open at the turn's start
    that hold them all (a placement never rests on its own points), and the points
    they reach are all near every ball laid (_NEAR)."""
    from shibumi.bits import playable_of
    from shibumi.geometry import points_of
    from shibumi.games.spetris import (ALL_OPEN, CONTAINS, FULL, _NEAR, open_placements,
                                       shapes_reach)
    game = load("spetris", players=players)
    middles = 0
    for seed in range(60):
        s, rng = game.initial_state(random.Random(seed)), random.Random(seed)
        while not game.is_terminal(s):
            occupied, placed = s.position.occupied, s.placed
            grown, zone = ALL_OPEN, FULL
            for p in points_of(placed):
                grown &= CONTAINS[p]
                zone &= _NEAR[p]
            fitting = open_placements(occupied, placed)
            assert fitting == open_placements(occupied ^ placed) & grown
            free = playable_of(occupied) & ~placed
            assert shapes_reach(fitting, free) == shapes_reach(fitting, free & zone)
            middles += bool(placed)
            s = game.random_step(s, rng)
    assert middles > 500


def test_placement_sets_agree_with_a_scan_of_the_placements():
    # The table-driven fits() against the plain scan of every placement.
    from shibumi.games.spetris import fits
    for seed in range(30):
        state = random_walk(GAME, seed, seed)
        occupied, placed = state.position.occupied, state.placed
        for kind in KINDS:
            scan = [m for m, carry in PLACEMENTS[kind]
                    if m & placed == placed and not m & ~placed & occupied
                    and not carry & ~occupied]
            assert fits(kind, occupied, placed) == scan
