"""Special Cake pinned down: three recipes, lines taken ball by ball, misère end."""
import random

import pytest

from conformance import check_playouts, check_random_games, check_symmetries
from reference import ABOVE, ALL as CELLS, cells_of, centre, open_points
from shibumi import IllegalMoveError, NotationError, UnknownGameError, load
from shibumi.analysis import perft
from shibumi.game import CHANCE
from shibumi.games.special_cake import LINES

GAME = load("special cake")
SWEETS = load("special cake", variant=2)
CHERRY = load("special cake", variant=3)
#: A complete mint-and-liquorice cake (15 white, 15 black).
CAKE = "WBWB/BWBW/WBWB/BWBW|BWB/WBW/BWB|WB/BW|W"


def eating(position, to_move=1, game=GAME, ply=30):
    return game.parse_state(f"{position} {to_move} eating ply={ply}")


def play(st, *moves, game=GAME):
    match = game.new_match(state=st)
    for move in moves:
        match.push(move)
    return match


def names(moves):
    return sorted(m.text() for m in moves)


def test_recipes_are_one_parameter():
    assert GAME.params["variant"] == 1 and repr(CHERRY) == "load('special cake', variant=3)"
    assert SWEETS.info.chance and load("cake").info is GAME.info
    with pytest.raises(UnknownGameError):
        load("special cake", variant=4)


def test_baking_alternates_own_colours_then_white_eats():
    match = GAME.new_match()
    assert names(match.legal_moves()) == sorted(f"W{sq}" for sq in (
        "a1 c1 e1 g1 a3 c3.0 e3.0 g3 a5 c5.0 e5.0 g5 a7 c7 e7 g7".split()))
    rng = random.Random(3)
    while not match.state.eating:
        match.push(rng.choice(match.legal_moves()))
    pos = match.state.position
    assert pos.count(1) == pos.count(2) == 15 and match.current_player == 0
    assert GAME.length(match.state) == 30


def test_cherry_crowns_the_cake_and_black_eats_first():
    match = CHERRY.new_match()
    rng = random.Random(4)
    for _ in range(29):
        match.push(rng.choice(match.legal_moves()))
    pos = match.state.position
    assert match.state.eating and pos.colour_at(29) == 3 and pos.count(3) == 1
    assert (pos.count(1), pos.count(2)) == (15, 14) and match.current_player == 1


def test_sweets_are_drawn_from_the_bag_and_stacked_in_order():
    state = SWEETS.initial_state()
    assert SWEETS.current_player(state) == CHANCE
    assert [(m.text(), p) for m, p in SWEETS.chance_outcomes(state)] == [
        ("=W", 1 / 3), ("=B", 1 / 3), ("=R", 1 / 3)]
    match = SWEETS.new_match(seed=5)
    assert match.state.eating and match.current_player == 0 and len(match.history) == 30
    # After 16 white balls the bag has no white left.
    full_white = SWEETS.parse_state("..../..../..../....|.../.../...|../..|. 1")
    for _ in range(16):
        full_white = SWEETS.apply(full_white, SWEETS.chance_outcomes(full_white)[0][0])
    assert [m.text() for m, _ in SWEETS.chance_outcomes(full_white)] == ["=B", "=R"]
    assert full_white.position.occupied == (1 << 16) - 1


def test_the_full_cake_has_thirteen_free_balls():
    st = eating(CAKE)
    assert names(GAME.legal_moves(st)) == sorted(
        "xa1 xg1 xa7 xg7 xb2 xf2 xb6 xf6 xc3.2 xe3.2 xc5.2 xe5.2 xd4.3".split())


def test_a_ridge_is_taken_in_any_order_with_drops():
    # a1 b2 c3.2 d4.3 is a ridge line: B B W W. Taking a1 first drops the whole
    # column (b2 into a1, c3.2 into b2, the apex into c3.2); the dropped balls
    # still belong to the line and may follow, wherever they now are: here the
    # four balls of the ridge all leave through the hole a1.
    st = eating("WBWB/BWBW/WBWB/BWBB|BWB/WBW/BWB|WB/WW|W")
    match = play(st, "xa1")
    assert match.current_player == 0 and match.state.taken == (0,)
    assert match.state.position.colour_at(0) == 2          # b2's ball dropped into a1
    match.push("xa1")                                      # that is b2's ball
    # a1 and b2 are both black: not a line yet, so no stopping here.
    assert names(match.legal_moves()) == ["xa1", "xb2"]
    match.push("xa1")                                      # c3.2's ball, dropped twice
    assert "pass" in names(match.legal_moves())            # B B W: a line
    match.push("xa1")                                      # the apex ball, now in a1
    assert match.current_player == 1 and match.state.position.count() == 26


def test_a_one_colour_line_is_refused_in_mint_but_allowed_in_sweets():
    # The bottom row a1 c1 e1 g1 is W W B B.
    mint = eating("WBWB/WBWB/BWBW/WWBB|.../.../...|../..|.")
    match = play(mint, "xa1", "xc1")
    # a1-c1 alone is one colour: the row must go on to e1 (or to g1 past it).
    assert names(match.legal_moves()) == ["xe1", "xg1"]
    sweets = eating("BBBB/BBBB/BBBB/WWBB|.../.../...|../..|.", game=SWEETS, ply=0)
    match = play(sweets, "xa1", "xc1", game=SWEETS)
    assert "pass" in names(match.legal_moves())


def test_a_dropped_ball_does_not_join_the_line():
    # White a1 holds up the white b2; taking a1 drops b2 into it. The row a1 c1
    # (W B) may still be taken, but the dropped ball is not part of it: a1-b2
    # was a white pair, no line.
    st = eating("BBBB/BBBB/WWWW/WBWB|W../.../W..|../..|.")
    match = play(st, "xa1")
    assert match.state.position.colour_at(0) == 1
    legal = names(match.legal_moves())
    assert "xc1" in legal and "xa1" not in legal


def test_last_ball_loses_and_cherry_loses():
    st = eating("..../..../..../W...|.../.../...|../..|.")
    end = play(st, "xa1").state
    assert end.result.winners == (1,) and "last ball" in end.result.reason
    cherry = CHERRY.parse_state("..../..../..../BR..|.../.../...|../..|. 1 eating ply=40")
    end = play(cherry, "xc1", game=CHERRY).state
    assert end.result.winners == (1,) and "cherry" in end.result.reason
    # Taking the cherry inside a line loses at once too.
    end = play(cherry, "xa1", "xc1", game=CHERRY).state
    assert end.result.winners == (1,)


def test_a_line_can_empty_the_board():
    st = eating("..../..../..../WB..|.../.../...|../..|.")
    match = play(st, "xa1")
    assert names(match.legal_moves()) == ["pass", "xc1"]
    match.push("xc1")
    assert match.outcome().winners == (1,)


def test_bad_input_is_refused_without_change():
    st = eating(CAKE)
    match = GAME.new_match(state=st)
    for bad in ("xc3.0", "d4", "pass", "xb4"):
        with pytest.raises((IllegalMoveError, NotationError)):
            match.push(bad)
    assert match.state == st
    for text in (f"{CAKE} 1", CAKE.replace("W", "R", 1) + " 1 eating",
                 "WWWW/..../..../....|.../.../...|../..|. 1",
                 f"{CAKE} 1 eating taken=a1",
                 "WBWB/BWBW/WBWB/BWBW|BWB/WBW/BWB|WB/BW|. 1 eating from=" + CAKE
                 + " taken=a1"):
        with pytest.raises(NotationError):
            GAME.parse_state(text)


def test_mid_turn_state_round_trips():
    match = play(eating(CAKE), "xd4.3")
    text = GAME.state_text(match.state)
    assert text.endswith("from=" + CAKE + " taken=d4.3")
    assert GAME.state_key(GAME.parse_state(text)) == GAME.state_key(match.state)


# -- an independent model ---------------------------------------------------------
# Cells (level, x, y) map to (colour, identity); identities are where a ball stood
# when the turn began. Lines are found from 3D centres: runs of touching balls
# whose centres are equally spaced on a straight line.


def line_sets():
    found = set()
    for a in CELLS:
        for b in CELLS:
            ca, cb = centre(a), centre(b)
            d = tuple(y - x for x, y in zip(ca, cb))
            if abs(sum(v * v for v in d) - 1) > 1e-9 or cb[2] < ca[2] - 1e-9:
                continue
            if cb[2] == ca[2] and (abs(d[0]) + abs(d[1]) != 1):
                continue
            run = [a, b]
            while len(run) < 4:
                nxt = tuple(v + w for v, w in zip(centre(run[-1]), d))
                cell = next((c for c in CELLS
                             if all(abs(u - v) < 1e-9 for u, v in zip(centre(c), nxt))), None)
                if cell is None:
                    break
                run.append(cell)
            for k in range(2, len(run) + 1):
                found.add(frozenset(run[:k]))
    return found


REF_LINES = line_sets()


def test_line_count_agrees_with_the_model():
    assert len(REF_LINES) == len(LINES) == 150


def ref_remove(board, cell):
    board = dict(board)
    del board[cell]
    gap = cell
    while True:
        up = [q for q in ABOVE[gap] if q in board]
        if not up:
            return board
        board[gap] = board.pop(up[0])
        gap = up[0]


def free(board, cell):
    return sum(q in board for q in ABOVE[cell]) <= 1


def good_lines(start, mixed):
    return [ln for ln in REF_LINES if all(c in start for c in ln)
            and (not mixed or len({start[c][0] for c in ln}) > 1)]


def whole(taken, lines):
    return len(taken) == 1 or frozenset(taken) in lines


def grow(board, taken, lines):
    """Cells whose ball may be taken next (the turn can still end well)."""
    out = []
    for cell in board:
        ident = board[cell][1]
        if not free(board, cell) or not any(taken <= ln and ident in ln for ln in lines):
            continue
        b, t = ref_remove(board, cell), taken | {ident}
        if whole(t, lines) or grow(b, t, lines):
            out.append(cell)
    return out


def ref_perft(board, to_move, taken, lines, depth, mixed):
    """board: cell -> (colour, identity); taken None at a turn's start."""
    if depth == 0:
        return 1
    if taken is None:
        board = {c: (v[0], c) for c, v in board.items()}
        lines = good_lines(board, mixed)
        options = [c for c in board if free(board, c)]
        taken = frozenset()
        can_stop = False
    else:
        options = grow(board, taken, lines)
        can_stop = whole(taken, lines)
    total = ref_perft(board, 1 - to_move, None, None, depth - 1, mixed) if can_stop else 0
    for cell in options:
        colour = board[cell][0]
        after, t = ref_remove(board, cell), taken | {board[cell][1]}
        if not after or (colour == "R" and mixed == "cherry"):
            total += 1 if depth == 1 else 0
            continue
        if grow(after, t, lines):
            total += ref_perft(after, to_move, t, lines, depth - 1, mixed)
        else:
            total += ref_perft(after, 1 - to_move, None, None, depth - 1, mixed)
    return total


def ref_bake_perft(board, to_move, depth):
    if depth == 0:
        return 1
    colour = "WB"[to_move]
    return sum(ref_bake_perft({**board, c: colour}, 1 - to_move, depth - 1)
               for c in open_points(board))


def test_perft_from_the_start():
    counts = [perft(GAME, d) for d in range(1, 4)]
    assert counts == [16, 240, 3360]
    assert [ref_bake_perft({}, 0, d) for d in range(1, 4)] == counts


def random_cake(game, seed, removals):
    match = game.new_match(seed=seed)
    rng = random.Random(seed)
    while not match.state.eating:
        match.push(rng.choice(match.legal_moves()))
    for _ in range(removals):
        if match.is_over():
            break
        match.push(rng.choice(match.legal_moves()))
    return match.state


@pytest.mark.parametrize("game,mixed", [(GAME, True), (SWEETS, False), (CHERRY, "cherry")])
@pytest.mark.parametrize("seed,removals", [(1, 0), (2, 6), (3, 14)])
def test_perft_agrees_with_the_model(game, mixed, seed, removals):
    st = random_cake(game, seed, removals)
    while st.taken:               # start the count at the start of a turn
        st = game.apply(st, next(m for m in game.legal_moves(st)))
    if st.result is not None:
        return
    board = {c: (v, c) for c, v in cells_of(st.position).items()}
    engine = [perft(game, d, st) for d in range(1, 4)]
    assert engine == [ref_perft(board, st.to_move, None, None, d, mixed)
                      for d in range(1, 4)]


def test_golden_perft_from_the_checkered_cake():
    st = eating(CAKE, to_move=1)
    assert [perft(GAME, d, st) for d in range(1, 4)] == GOLDEN
    board = {c: (v, c) for c, v in cells_of(st.position).items()}
    assert [ref_perft(board, 0, None, None, d, True) for d in range(1, 4)] == GOLDEN


GOLDEN = [13, 77, 376]


def test_fast_playouts_agree_with_the_rules_in_recipe_one():
    check_playouts("special cake", games=150)


def test_conformance():
    check_random_games("special cake", seeds=range(6))
    check_random_games("special cake", seeds=range(6), variant=2)
    check_random_games("special cake", seeds=range(6), variant=3)
    for game in (GAME, SWEETS, CHERRY):
        for seed in range(3):
            check_symmetries(game, random_cake(game, seed, 3))


@pytest.mark.parametrize("variant", [2, 3])
def test_fast_playouts_agree_with_the_rules_in_every_recipe(variant):
    # The conformance suite checks recipe 1 only.
    check_playouts("special cake", games=100, variant=variant)


@pytest.mark.parametrize("game", [GAME, SWEETS, CHERRY])
def test_the_playouts_take_rule_agrees_with_extensions(game):
    # The playout grows a take with _grows (balls followed by where they stand);
    # legal_moves with extensions (free balls scanned, ids by point). Compare
    # them at every point of random turns, and the (point, ball) pairs with ids.
    from shibumi.games.special_cake import _grows, extensions
    compared = 0
    for seed in range(30):
        match = game.new_match(seed=seed)
        walk = random.Random(seed)
        while not match.is_over():
            st = match.state
            if st.eating and st.taken:
                occupied, ids, taken, lines = game._turn(st)
                spot = list(range(30))
                for q, ball in enumerate(ids):
                    if ball >= 0:
                        spot[ball] = q
                found = _grows(occupied, spot, ids, taken, lines)
                assert [q for q, _ in found] == extensions(occupied, ids, taken, lines)
                assert all(ids[q] == ball for q, ball in found)
                compared += 1
            match.push(walk.choice(match.legal_moves()))
    assert compared > 50


@pytest.mark.parametrize("game", [GAME, SWEETS, CHERRY])
def test_fast_playouts_agree_with_the_rules_while_eating(game):
    # check_playouts starts in the baking; here the playout starts at every
    # point of the eating, takes under way included.
    from shibumi.game import Game
    mid_turn = 0
    for seed in range(12):
        match = game.new_match(seed=seed)
        walk = random.Random(seed)
        while not match.is_over():
            st = match.state
            if st.eating:
                mid_turn += bool(st.taken)
                fast = game.random_playout(st, random.Random(seed))
                assert fast == Game.random_playout(game, st, random.Random(seed))
            match.push(walk.choice(match.legal_moves()))
    assert mid_turn > 10
