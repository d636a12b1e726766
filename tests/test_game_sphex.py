"""Sphex pinned down: the turn (one, then two balls and a red), chains by every
contact, the removal phase onto the apex, and its draw by repetition."""
import random

import pytest

from shibumi.games.sphex import chains, unlift  # importing registers the game
from conformance import (check_playouts, check_random_games, check_symmetries,
                         random_walk)
from shibumi import IllegalMoveError, NotationError, load
from shibumi.analysis import perft
from shibumi.game import Game
from shibumi.geometry import APEX
from shibumi.notation import parse_point
from shibumi.position import BLACK, WHITE
from reference import ABOVE, cells_of, open_points, touch

GAME = load("sphex")
APEX_PT = (3, 0, 0)


def lay(match, *moves):
    for move in moves:
        match.push(move)
    return match


# -- the rules again, engine-free ----------------------------------------------------

def on_sides(pt):
    lv, x, y = pt
    return set() if lv else {s for s, on in (("l", x == 0), ("r", x == 3),
                                             ("b", y == 0), ("t", y == 3)) if on}


def ref_joined(board, colour) -> bool:
    mine = {p for p, c in board.items() if c == colour}
    seen = set()
    for start in mine:
        if start in seen:
            continue
        group, todo = {start}, [start]
        while todo:
            p = todo.pop()
            for q in mine:
                if q not in group and touch(p, q):
                    group.add(q)
                    todo.append(q)
        seen |= group
        sides = set().union(*(on_sides(p) for p in group))
        if {"l", "r"} <= sides or {"b", "t"} <= sides:
            return True
    return False


def ref_count(board, mover, own, red, first, depth):
    """Actions to a depth in the placement phase, from the rules alone."""
    if depth == 0:
        return 1
    quota = 1 if first else 2
    me = "WB"[mover]
    total = 0
    pts = open_points(board)
    options = ([(p, me) for p in pts] if own < quota else []) + \
        ([(p, "R") for p in pts] if not red else []) + ([None] if own == quota else [])
    for opt in options:
        if opt is None:
            total += ref_count(board, 1 - mover, 0, False, False, depth - 1) if len(board) < 30 else 1
            continue
        p, c = opt
        new = dict(board)
        new[p] = c
        n_own, n_red = own + (c == me), red or c == "R"
        if c == me and ref_joined(new, me):
            total += 1
        elif len(new) == 30 or (n_own == quota and n_red):
            total += ref_count(new, 1 - mover, 0, False, False, depth - 1)
        else:
            total += ref_count(new, mover, n_own, n_red, first, depth - 1)
    return total


def ref_lifts(board, colour):
    """Full pyramid: (source, board after) for each lift of a colour onto the apex."""
    out = []
    for p, c in board.items():
        if c != colour or p == APEX_PT or sum(q in board for q in ABOVE[p]) > 1:
            continue
        column = [p]
        while column[-1] != APEX_PT:
            column.append(next(q for q in ABOVE[column[-1]]))
        new = dict(board)
        for a, b in zip(column, column[1:]):
            new[a] = board[b]
        new[APEX_PT] = c
        if new != board:
            out.append((p, new))
    return out


# -- the turn -------------------------------------------------------------------------

def test_white_opens_with_one_ball_and_may_add_a_red():
    m = GAME.new_match()
    assert len(m.legal_moves()) == 32                   # 16 white, 16 red
    lay(m, "Wa1")
    assert {mv.kind for mv in m.legal_moves()} == {"place", "pass"}
    assert all(mv.colour != WHITE for mv in m.legal_moves() if mv.kind == "place")
    lay(m, "Rc1")
    assert m.current_player == 1


def test_a_turn_is_two_own_balls_and_at_most_one_red_in_any_order():
    m = lay(GAME.new_match(), "Wa1", "pass", "Bc3")
    with pytest.raises(IllegalMoveError):
        m.push("pass")                                  # a second own ball is due
    lay(m, "Rc1")
    with pytest.raises(IllegalMoveError):
        m.push("Re1")                                   # one red a turn
    lay(m, "Bg7")
    assert m.current_player == 0


def test_underground_connections_count():
    # White: a1 c1 e1 on the board, b2 and d2 over them; g1 joined through f2,
    # which rests on e1; the contacts under level 2 are hidden but count.
    text = "..../..../BB.B/WWW.|.../.../W..|../..|. 1 ply=7"
    m = GAME.new_match(state=GAME.parse_state(text))
    assert m.current_player == 0 and m.state.result is None


def test_hidden_contacts_join_and_wins_agree_with_the_reference():
    from shibumi.games.sphex import spans
    hidden_only = 0
    for seed in range(150):
        end = GAME.random_playout(GAME.initial_state(), random.Random(seed))
        if not end.result.winners:
            continue
        winner = end.result.winners[0]
        colour = (WHITE, BLACK)[winner]
        assert ref_joined(cells_of(end.position), "WB"[winner])
        if not any(spans(g) for g in end.position.groups(colour)):
            hidden_only += 1              # no visibly joined group: underground links won
    assert hidden_only


def test_either_pair_of_sides_wins_for_either_player():
    m = lay(GAME.new_match(), "Wa1", "pass", "Bc1", "Bc3", "pass", "Wg1", "Wg3", "pass",
            "Bc5", "Bc7")
    assert m.state.result.winners == (1,)               # Black joined bottom and top
    assert m.state.result.reason == "Black joined two opposite sides"


# -- the removal phase -----------------------------------------------------------------------

FULL_NO_CHAIN = None


def full_without_chain(seed):
    game = GAME
    rng = random.Random(seed)
    state = game.initial_state()
    while state.result is None and state.position.occupied != (1 << 30) - 1:
        state = game.apply(state, rng.choice(game.legal_moves(state)))
    return state if state.result is None else None


def removal_states(n=12):
    out = []
    for seed in range(200):
        s = full_without_chain(seed)
        if s is not None:
            out.append(s)
        if len(out) == n:
            return out
    return out


def test_thirteen_balls_are_not_pinned_in_a_full_pyramid():
    s = removal_states(1)[0]
    movable = [p for p in range(30) if not s.position.is_pinned(p)]
    names = sorted(parse_point(n) for n in ("a1", "g1", "a7", "g7", "b2", "f2", "b6", "f6",
                                             "c3.2", "e3.2", "c5.2", "e5.2", "d4.3"))
    assert movable == names


def test_lifts_match_the_reference():
    for s in removal_states():
        colour = "WB"[s.to_move]
        board = cells_of(s.position)
        engine = {}
        for mv in GAME.legal_moves(s):
            if mv.kind == "pass":
                continue
            assert mv.target == APEX
            engine[mv.point] = cells_of(GAME.apply(s, mv).position)
        ref = ref_lifts(board, colour)
        assert len(engine) == len(ref)
        assert {frozenset(b.items()) for b in engine.values()} == {frozenset(b.items()) for _, b in ref}
        for mv in GAME.legal_moves(s):
            after = GAME.apply(s, mv)
            new = cells_of(after.position)
            me, you = "WB"[s.to_move], "WB"[1 - s.to_move]
            if ref_joined(new, me):
                assert after.result.winners == (s.to_move,)
            elif ref_joined(new, you):
                assert after.result.winners == (1 - s.to_move,)
            if mv.kind != "pass":
                assert unlift(after.position, mv.point) == s.position


def test_a_repeated_full_pyramid_is_a_draw():
    for s in removal_states(40):
        if GAME.legal_moves(s) == [GAME.legal_moves(s)[0]] and GAME.legal_moves(s)[0].kind == "pass":
            continue
        state, history = s, []
        rng = random.Random(1)
        while state.result is None:
            history.append((state.position, state.to_move))
            state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
        if state.result.is_draw:
            assert (state.position, state.to_move) in history
            text = GAME.state_text(state)
            assert "lifts=" in text and GAME.parse_state(text).result == state.result
            return
    pytest.fail("no draw found")


def test_no_lift_means_a_pass_and_two_passes_draw():
    # Full pyramid whose twelve liftable balls are all red: both players pass.
    text = "RWRR/RRRR/BRRW/RRRR|RWR/BRB/RWR|RR/RR|R 1"
    state = GAME.parse_state(text)
    assert state.result is None and GAME.legal_moves(state)[0].kind == "pass"
    state = GAME.apply(GAME.apply(state, GAME.legal_moves(state)[0]), GAME.legal_moves(state)[0])
    assert state.result.is_draw


@pytest.mark.parametrize("text", [
    ". 1", "..../..../..../W...|.../.../...|../..|. 1 own=3",
    "..../..../..../W...|.../.../...|../..|. 1 lifts=a1",
    "..../..../..../....|.../.../W..|../..|. 1", "..../..../..../....|.../.../...|../..|. 1 zz",
])
def test_bad_states_are_refused(text):
    with pytest.raises(NotationError):
        GAME.parse_state(text)


def test_bad_moves_are_refused_without_changing_the_state():
    m = lay(GAME.new_match(), "Wa1")
    before = m.state
    for bad in ("Wc1", "b2", "xa1", "a1>d4.3", "zz"):
        with pytest.raises((IllegalMoveError, NotationError)):
            m.push(bad)
    assert m.state == before


# -- perft ------------------------------------------------------------------------------

def test_perft_from_the_start_matches_the_reference():
    counts = [perft(GAME, d) for d in (1, 2, 3)]
    assert counts == [ref_count({}, 0, 0, False, True, d) for d in (1, 2, 3)]
    assert counts == [32, 496, 13920]


@pytest.mark.parametrize("seed,steps", [(1, 10), (2, 20), (3, 28), (4, 33)])
def test_perft_from_random_positions_matches_the_reference(seed, steps):
    s = random_walk(GAME, seed, steps)
    if s.result is not None or s.position.occupied == (1 << 30) - 1:
        pytest.skip("finished")
    board = cells_of(s.position)
    first = s.to_move == 0 and not s.position.black
    assert perft(GAME, 3, s) == ref_count(board, s.to_move, s.own, s.red, first, 3)


def test_conformance():
    check_random_games("sphex", seeds=range(30))


def test_fast_playouts_play_the_rules_games():
    check_playouts("sphex", games=200)
    # From inside the removal phase too, some lifts already played.
    for s in removal_states(4):
        for seed in range(12):
            start, walk = s, random.Random(-seed)
            for _ in range(seed % 4):
                if not GAME.is_terminal(start):
                    start = GAME.random_step(start, walk)
            fast = GAME.random_playout(start, random.Random(seed))
            assert fast == Game.random_playout(GAME, start, random.Random(seed))


def test_symmetries():
    for seed in range(6):
        check_symmetries(GAME, random_walk(GAME, seed, 4 + 7 * seed))
    for s in removal_states(3):
        check_symmetries(GAME, s)


