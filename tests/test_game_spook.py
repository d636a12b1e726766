"""Spook: build the castle, crown it with the ghost, let the ghost take your balls."""
import random

import pytest

import shibumi.games.spook  # noqa: F401  (registers the game)
from conformance import (check_playouts, check_random_games, check_symmetries,
                         random_walk)
from shibumi import IllegalMoveError, NotationError, load
from shibumi.analysis import perft
from shibumi.games.spook import (FLAT_MASK, MAX_ACTIONS, captures, ghost_point,
                                 ghost_targets, is_isolated)
from shibumi.geometry import BOARD_MASK, SUPPORT_MASK, SUPPORTED_MASK, points_of
from shibumi.position import Position
from shibumi.notation import parse_point, point_name
from shibumi.position import BLACK, RED, WHITE
from reference import ABOVE as _ABOVE, ALL as _ALL, below as _below, cells_of as _cells

FULL = "RBRB/BRBR/RBRB/BRBR|RBR/BRB/RBR|BR/RB|W"


def state(text, to_move=2, extras="ply=60"):
    """A state from text; ``to_move`` as in state text: 1 Red, 2 Black."""
    return load("spook").parse_state(f"{text} {to_move} {extras}")


def match_at(text, to_move=2, extras="ply=60"):
    return load("spook").new_match(state=state(text, to_move, extras))


def legal(m):
    return sorted(mv.text() for mv in m.legal_moves())


def colour(m, name):
    return m.state.position.colour_at(parse_point(name))


def test_conformance():
    check_random_games("spook", seeds=range(15))


def test_the_fast_playout_plays_the_rules_games():
    check_playouts("spook", games=600)


def plain_captures(position, chain):
    """The capture rule written point by point."""
    g, occ = ghost_point(position), position.occupied
    free = [p for p in points_of(occ) if not SUPPORTED_MASK[p] & occ]
    beside = sum(1 << p for p in free if FLAT_MASK[g] >> p & 1
                 and (not chain or position.colour_at(p) == chain))
    if chain:
        return beside
    return beside | sum(1 << s for s in points_of(SUPPORT_MASK[g])
                        if SUPPORTED_MASK[s] & occ == 1 << g)


def plain_targets(position):
    g, occ = ghost_point(position), position.occupied
    holes = sum(1 << h for h in points_of(position.playable() & BOARD_MASK)
                if FLAT_MASK[h] & occ & ~(1 << g))
    return holes | position.playable() & ~BOARD_MASK


def test_the_mask_rules_match_the_plain_ones_on_any_position():
    rng = random.Random(3)
    for _ in range(3000):
        position = Position.empty()
        for _ in range(rng.randrange(1, 30)):    # any stable position, the ghost on top
            spots = list(points_of(position.playable()))
            position = position.place(rng.choice(spots), rng.choice((BLACK, RED)))
        g = rng.choice([p for p in points_of(position.occupied)
                        if not SUPPORTED_MASK[p] & position.occupied])
        position = Position.from_masks(1 << g, position.black & ~(1 << g),
                                       position.red & ~(1 << g))
        for chain in (0, RED, BLACK):
            assert captures(position, chain) == plain_captures(position, chain)
        occ = position.occupied
        assert is_isolated(position) == (not (FLAT_MASK[g] | SUPPORT_MASK[g]) & occ)
        if is_isolated(position):
            assert ghost_targets(position) == plain_targets(position)


def test_symmetries_keep_moves_and_results():
    game = load("spook")
    for seed in range(12):
        check_symmetries(game, random_walk(game, seed, 30 + 4 * seed), range(8))


# -- building the castle -------------------------------------------------------

def test_red_places_first_and_black_puts_the_ghost_on_the_apex():
    m = load("spook").new_match()
    assert m.current_player == 0 and m.game.player_name(0) == "Red"
    assert {mv.colour for mv in m.legal_moves()} == {RED} and len(m.legal_moves()) == 16
    rng = random.Random(3)
    while m.state.position.count() < 28:
        m.push(rng.choice(m.legal_moves()))
    # 28 balls: one point of level 2 is open, the apex is not; Red fills it.
    assert m.current_player == 0 and len(m.legal_moves()) == 1
    assert point_name(m.legal_moves()[0].point) in ("c3.2", "c5.2", "e3.2", "e5.2")
    m.push(m.legal_moves()[0])
    pos = m.state.position
    assert pos.count(RED) == 15 and pos.count(BLACK) == 14
    assert m.current_player == 1 and [mv.text() for mv in m.legal_moves()] == ["Wd4.3"]
    m.push("Wd4.3")
    assert ghost_point(m.state.position) == parse_point("d4.3") and m.state.ply == 30
    assert m.current_player == 0                       # Red opens the getaway
    assert all(mv.kind == "remove" for mv in m.legal_moves())


# -- the getaway: dropping and moving the ghost ----------------------------------

def test_the_ghost_drops_into_the_place_of_a_ball_that_holds_only_it():
    m = match_at(FULL, 1, "ply=30")                 # Red opens the getaway
    assert legal(m) == ["xc3.2", "xc5.2", "xe3.2", "xe5.2"]    # either colour
    m.push("xe5.2")                                   # a red ball of level 2
    assert colour(m, "e5.2") == WHITE and colour(m, "d4.3") == 0
    assert m.state.position.count(RED) == 14 and m.current_player == 1   # Black next


def test_a_ball_under_the_ghost_that_holds_another_ball_cannot_go():
    # The ghost on b2 of level 1; a1 and a3 hold only the ghost, c1 and c3
    # also hold d2; d2 is covered by e3.2, so it is not free either.
    text = "..../.RBR/BRBR/RBRB|.../.BR/WBB|../.R|."
    m = match_at(text)
    assert legal(m) == ["xa1", "xa3"]
    m.push("xa3")
    assert ghost_point(m.state.position) == parse_point("a3")


def test_sideways_captures_take_a_free_ball_and_chain_in_one_colour():
    # Ghost a1; c1 and e1 black in a row, g1 red.
    m = match_at("..../..../..../WBBR|.../.../...|../..|.")
    assert legal(m) == ["xc1"]
    m.push("xc1")
    assert colour(m, "c1") == WHITE and colour(m, "a1") == 0
    assert m.current_player == 1 and m.state.chain == BLACK   # e1 is black and free
    assert legal(m) == ["pass", "xe1"]                          # g1 is red: not offered
    m.push("pass")
    assert m.current_player == 0 and m.state.chain == 0


def test_a_chain_stops_by_itself_when_no_ball_of_its_colour_is_beside_the_ghost():
    m = match_at("..../..../B.../WRBR|.../.../...|../..|.", 1)
    assert legal(m) == ["xa3", "xc1"]                 # a black and a red neighbour
    m.push("xc1")                                     # e1 beside c1 is black: no chain
    assert m.current_player == 1 and m.state.chain == 0


def test_a_chain_never_drops_the_ghost():
    # The ghost on d2 of level 1, free black balls on f2 and f4 beside it.
    text = "..../..BB/BBBB/RBBB|.../..B/.WB|../..|."
    m = match_at(text, 1)
    assert legal(m) == ["xc1", "xc3.0", "xf2"]       # e1 and e3 also hold f2
    m.push("xf2")
    assert ghost_point(m.state.position) == parse_point("f2") and m.state.chain == BLACK
    # e1 now holds only the ghost: out of a chain it could be taken, not now.
    assert captures(m.state.position) >> parse_point("e1") & 1
    assert legal(m) == ["pass", "xf4"]


def test_an_isolated_ghost_goes_beside_a_ball_of_the_board_or_on_a_platform():
    text = "..R./..../..BR/W.RB|.../.../...|../..|."
    m = match_at(text)
    assert is_isolated(m.state.position) and not captures(m.state.position)
    assert legal(m) == ["a1>c1", "a1>c3.0", "a1>c7", "a1>e5.0", "a1>f2", "a1>g5", "a1>g7"]
    m.push("a1>f2")
    pos = m.state.position
    assert ghost_point(pos) == parse_point("f2") and not is_isolated(pos)
    assert sorted(point_name(p) for p in range(30) if captures(pos) >> p & 1) == \
        ["e1", "e3.0", "g1", "g3"]


def test_a_ghost_on_a_platform_is_never_isolated():
    # Nothing beside the ghost on level 1, but it rests on four balls.
    s = state("..../..../RB../BR..|.../.../W..|../..|.")
    assert not is_isolated(s.position)
    assert [mv.text() for mv in load("spook").legal_moves(s)] == ["xa1", "xc1", "xa3", "xc3.0"]


def test_without_a_capture_the_mover_removes_an_opponents_unpinned_ball():
    # Ghost a1: c1 is covered by d2, a3 by b4, so nothing can be captured, and
    # the ghost is not isolated. c3 holds d2 and b4: pinned.
    text = "..../RB../BRR./WRB.|.../R../.B.|../..|."
    m = match_at(text)
    assert not captures(m.state.position) and not is_isolated(m.state.position)
    assert legal(m) == ["xa5", "xb4", "xc1", "xe3.0"]
    m.push("xc1")                                     # d2 drops into c1
    assert colour(m, "c1") == BLACK and colour(m, "d2") == 0
    assert ghost_point(m.state.position) == parse_point("a1")
    assert legal(m) == ["xc1"]                        # now Red can capture c1


def test_a_player_who_can_do_nothing_passes_and_the_other_then_removes():
    text = "..../BB../BRB./WBB.|.../B../.B.|../..|."   # Red's c3 holds d2 and b4
    m = match_at(text, 2, "ply=80")
    assert legal(m) == ["pass"]
    m.push("pass")
    assert m.current_player == 0 and m.legal_moves() and "pass" not in legal(m)


# -- the end -------------------------------------------------------------------

def test_taking_your_own_last_ball_wins():
    m = match_at("..../..../..../WBR.|.../.../...|../..|.", 2, "ply=80")
    m.push("xc1")
    assert m.is_over() and m.outcome().winners == (1,)
    assert m.outcome().scores == (1.0, 0.0)
    assert m.game.winning_points(m.state) == 1 << parse_point("c1")


def test_removing_the_opponents_last_ball_makes_the_opponent_win():
    text = "..../BB.R/BBB./WBB.|.../B../.B.|../..|."
    m = match_at(text, 2, "ply=80")
    assert legal(m) == ["xg5"]
    m.push("xg5")
    assert m.is_over() and m.outcome().winners == (0,)


def test_the_game_stops_in_the_middle_of_a_chain():
    m = match_at("...B/..../..../WRRR|.../.../...|../..|.", 2, "ply=80")
    m.push("xc1")
    assert m.state.chain == RED and not m.is_over()
    m.push("xe1")
    m.push("xg1")
    assert m.is_over() and m.outcome().winners == (0,)


# -- bad input ---------------------------------------------------------------------

def test_illegal_moves_are_refused_and_change_nothing():
    m = match_at(FULL, 1, "ply=30")
    before = m.state
    for bad in ("xa1", "a1>b2", "pass", "Rd4", "xd4.3", "xb2"):
        with pytest.raises((IllegalMoveError, NotationError)):
            m.push(bad)
        assert m.state == before


@pytest.mark.parametrize("text", [
    "..../..../..../RR..|.../.../...|../..|. 1 ply=2",      # two red, none black
    "..../..../..../R...|.../.../...|../..|. 1 ply=1",      # Black's turn, not Red's
    "..../..../..../R...|.../.../...|../..|. 2 ply=5",      # ply is the ball count
    "..../..../..../WW..|.../.../...|../..|. 1 ply=60",     # two ghosts
    "..../..../RBRB/WBRB|.../W../...|../..|. 1 ply=60",     # two ghosts again
    "..../..../RBRB/WBRB|.../.../R..|../..|. 1 ply=60",     # a ball resting on the ghost
    FULL + " 1 ply=10",                                     # too few actions
    FULL + " 1 ply=30 chain_red chain_black",
    FULL + " 1 ply=30 chain_red",                           # no free red ball beside it
    FULL + f" 1 ply={MAX_ACTIONS + 1}",
])
def test_bad_states_are_refused(text):
    with pytest.raises(NotationError):
        load("spook").parse_state(text)


def test_state_text_round_trips_with_a_chain():
    m = match_at("..../..../..../WBBR|.../.../...|../..|.")
    m.push("xc1")
    text = m.game.state_text(m.state)
    assert text.endswith("chain_black")
    assert m.game.state_key(m.game.parse_state(text)) == m.game.state_key(m.state)


def test_status_lines_say_what_to_do():
    game = load("spook")
    lines = game.status_lines(game.initial_state())
    assert lines[0] == "In the pyramid: Red 0 balls, Black 0 balls."
    s = state("..R./..../..BR/W.RB|.../.../...|../..|.")
    assert "isolated" in game.status_lines(s)[1]


# -- perft, cross-checked by an independent brute force ----------------------------
#
# The rules written again on reference.py's dict of points, sharing no code
# with the engine: the ghost is the 'W' ball.


def _flat(a):
    lv, x, y = a
    return [q for q in ((lv, x + 1, y), (lv, x - 1, y), (lv, x, y + 1), (lv, x, y - 1))
            if q in _ABOVE]


def _on(board, p):
    return [q for q in _ABOVE[p] if q in board]


def _take(board, p):
    new = dict(board)
    del new[p]
    gap = p
    while _on(new, gap):
        up = _on(new, gap)[0]
        new[gap] = new.pop(up)
        gap = up
    return new


def _kids(board, mover, chain):
    """(board, next mover, chain) after each legal action, or None when over."""
    mine, theirs = ("R", "B") if mover == 0 else ("B", "R")
    ghost = [p for p, c in board.items() if c == "W"]
    if not ghost:
        if len(board) == 29:
            return [({**board, (3, 0, 0): "W"}, 1 - mover, None)]
        return [({**board, p: mine}, 1 - mover, None) for p in _ALL
                if p not in board and all(b in board for b in _below(p))]
    g = ghost[0]
    out = []
    side = [q for q in _flat(g) if q in board and not _on(board, q)
            and (chain is None or board[q] == chain)]
    for q in side:
        new = dict(board)
        c = new.pop(q)
        del new[g]
        new[q] = "W"
        again = any(r in new and new[r] == c and not _on(new, r) for r in _flat(q))
        out.append((new, mover if again else 1 - mover, c if again else None))
    if chain is not None:
        return out + [(board, 1 - mover, None)]
    for s in _below(g):
        if _on(board, s) == [g]:
            out.append((_take(board, s), 1 - mover, None))
    if out:
        return out
    if not any(q in board for q in _flat(g) + _below(g)):
        for t in _ALL:
            if t in board or not all(b in board for b in _below(t)):
                continue
            if t[0] == 0 and not any(q in board and q != g for q in _flat(t)):
                continue
            new = dict(board)
            del new[g]
            new[t] = "W"
            out.append((new, 1 - mover, None))
        return out
    for p, c in board.items():
        if c == theirs and len(_on(board, p)) <= 1:
            out.append((_take(board, p), 1 - mover, None))
    return out or [(board, 1 - mover, None)]


def _over(board):
    return "W" in board.values() and not ({"R", "B"} <= set(board.values()))


def _brute(board, mover, chain, depth):
    if depth == 0:
        return 1
    if _over(board):
        return 0
    return sum(_brute(b, m, c, depth - 1) for b, m, c in _kids(board, mover, chain))


PERFT_START = [16, 240, 3360]


def _positions():
    """A few getaway positions from random games (state, its brute-force form)."""
    game = load("spook")
    out = []
    for seed, steps in ((1, 31), (2, 40), (5, 48), (8, 55), (13, 45), (21, 36)):
        s = random_walk(game, seed, steps)
        chain = {RED: "R", BLACK: "B", 0: None}[s.chain]
        out.append((s, (_cells(s.position), s.to_move, chain)))
    return out


PERFT_GETAWAY = [[3, 5, 17, 68, 384], [7, 35, 194, 914, 4640], [2, 3, 7, 20, 62],
                 [2, 7, 18, 30, 42], [7, 20, 77, 192, 444], [1, 1, 1, 5, 30]]


def test_perft_from_the_start_matches_a_hand_count_and_the_brute_force():
    game = load("spook")
    assert [perft(game, d) for d in (1, 2, 3)] == PERFT_START
    assert PERFT_START == [16, 16 * 15, 16 * 15 * 14]
    assert [_brute({}, 0, None, d) for d in (1, 2, 3)] == PERFT_START


def test_perft_in_the_getaway_matches_the_brute_force():
    game = load("spook")
    for (s, (board, mover, chain)), golden in zip(_positions(), PERFT_GETAWAY):
        counts = [perft(game, d, s) for d in range(1, 6)]
        assert counts == [_brute(board, mover, chain, d) for d in range(1, 6)]
        assert counts == golden


# -- the worked example (figures lost; a position of our own with its story) -----

EXAMPLE = "BBRB/RBRB/...B/....|WB./.../...|../..|."


def _mover_wins(game, s, memo):
    """Whether the player to move wins with best play (a plain memoised search)."""
    if s.result is not None:
        return s.result.winners == (s.to_move,)
    key = game.state_key(s)
    if key not in memo:
        memo[key] = False
        for mv in game.legal_moves(s):
            after = game.apply(s, mv)
            won = _mover_wins(game, after, memo)
            if won == (after.to_move == s.to_move):
                memo[key] = True
                break
    return memo[key]


def test_the_example_dropping_the_ghost_wins_and_moving_it_loses():
    game = load("spook")
    s = state(EXAMPLE, 2, "ply=51")
    assert sorted(mv.text() for mv in game.legal_moves(s)) == ["xa5", "xa7", "xd6"]
    memo = {}
    results = {}
    for mv in game.legal_moves(s):
        after = game.apply(s, mv)
        results[mv.text()] = not _mover_wins(game, after, memo)   # Red to move next
    # Taking the black ball at the top left drops the ghost and wins; taking the
    # black ball beside it on level 1 (or the red one under it) loses.
    assert results == {"xa7": True, "xa5": False, "xd6": False}
    m = game.new_match(state=s)
    m.push("xa7")
    assert legal(m) == ["xa5"]                        # a forced move for Red
    m.push("xa5")
    # Nothing to capture, the ghost not isolated: Black removes a red ball, and
    # only one of the two keeps the win.
    assert not captures(m.state.position) and not is_isolated(m.state.position)
    winning = [mv.text() for mv in m.legal_moves()
               if not _mover_wins(game, game.apply(m.state, mv), memo)]
    assert legal(m) == ["xe5.0", "xe7"] and winning == ["xe7"]
