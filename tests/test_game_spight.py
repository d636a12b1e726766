"""Spight: knight moves, knight jumps and one group to win."""
import random

import pytest
from hypothesis import given, strategies as st

import shibumi.games.spight  # noqa: F401  (registers the game)
from conformance import check_playouts, check_symmetries
from shibumi import IllegalMoveError, Move, UnknownGameError, load
from shibumi.analysis import perft
from conftest import random_position
from shibumi.bits import playable_of, united
from shibumi.games.spight import KNIGHT_JUMPS, KNIGHT_STEPS, START, joined, knight_table
from shibumi.geometry import FLAT_NEIGHBOURS, LEVEL, SUPPORTS, SYMMETRIES
from shibumi.mechanics import relocate
from shibumi.notation import parse_point, point_name
from shibumi.position import BLACK, EMPTY, WHITE, Position
from reference import below as _below, ALL as _ALL, ABOVE as _ABOVE


def names(points):
    return sorted(point_name(p) for p in points)


def state(text, to_move=1, ply=0, **params):
    return load("spight", **params).parse_state(f"{text} {to_move} ply={ply}")


def match_at(text, to_move=1, ply=0, **params):
    return load("spight", **params).new_match(state=state(text, to_move, ply, **params))


def random_states(seed, count):
    game = load("spight")
    rng = random.Random(seed)
    s = game.initial_state()
    found = []
    while len(found) < count:
        if game.is_terminal(s):
            s = game.initial_state()
        found.append(s)
        s = game.apply(s, rng.choice(game.legal_moves(s)))
    return found


def test_conformance():
    check_playouts("spight", games=1000)


def test_start_is_a_full_chessboard_with_white_on_a1():
    s = load("spight").initial_state()
    assert s.position == START == Position("BWBW/WBWB/BWBW/WBWB|.../.../...|../..|.")
    assert s.position.colour_at(parse_point("a1")) == WHITE
    assert s.position.count(WHITE) == s.position.count(BLACK) == 8


def test_knight_steps_and_jumps_by_point():
    a1, b2 = parse_point("a1"), parse_point("b2")
    assert names(KNIGHT_STEPS[a1]) == ["c5.0", "e3.0"]
    assert names(KNIGHT_JUMPS[a1]) == ["b4", "d2"]     # round b2, onto a3's or c1's platform
    assert names(KNIGHT_JUMPS[parse_point("c3.0")]) == ["b6", "d6", "f2", "f4"]
    assert names(KNIGHT_STEPS[b2]) == ["d6", "f4"]
    assert names(KNIGHT_JUMPS[b2]) == ["c5.2", "e3.2"]
    centre = parse_point("d4.1")
    assert KNIGHT_STEPS[centre] == KNIGHT_JUMPS[centre] == ()
    for p in range(25, 30):                            # level 2 and the apex
        assert KNIGHT_STEPS[p] == KNIGHT_JUMPS[p] == ()
    assert not any(29 in targets for targets in KNIGHT_JUMPS)   # no jump to the apex


def test_jump_targets_rest_on_a_flat_neighbour_but_not_on_the_ball():
    # The rules' wording ("round a touching neighbour onto its platform"),
    # checked against the top-view (1, 3) offsets the module uses.
    for p in range(30):
        expected = {r for r in range(30) if LEVEL[r] == LEVEL[p] + 1
                    and p not in SUPPORTS[r]
                    and any(q in SUPPORTS[r] for q in FLAT_NEIGHBOURS[p])}
        assert set(KNIGHT_JUMPS[p]) == expected, point_name(p)


def test_the_rules_text_example_of_a_jump():
    # The rules: a1 touches c1 and a3, may jump to d2 (on c1) or b4 (on a3),
    # not to b2 (which rests on a1 itself).
    game = load("spight")
    for name in ("d2", "b4", "b2", "c1", "a3"):
        assert name in game.rules
    a1 = parse_point("a1")
    assert names(FLAT_NEIGHBOURS[a1]) == ["a3", "c1"]
    assert names(KNIGHT_JUMPS[a1]) == ["b4", "d2"]
    assert parse_point("c1") in SUPPORTS[parse_point("d2")]
    assert parse_point("a3") in SUPPORTS[parse_point("b4")]
    assert a1 in SUPPORTS[parse_point("b2")]


def test_the_opening_has_24_jumps_and_no_step():
    game = load("spight")
    moves = game.legal_moves(game.initial_state())
    # a1 2, e1 3, c3 4, g3 3, a5 3, e5 4, c7 3, g7 2 (the board is full: no step)
    assert len(moves) == 24 and all(LEVEL[m.target] == 1 for m in moves)
    assert sum(m.point == parse_point("c3.0") for m in moves) == 4


# The book's example (figure lost), rebuilt from a random game: White's a5 has
# one knight move (to the empty hole c1) and one knight jump (to d4 of level
# 1, round the black ball on b4 that rests on a5). Both win for White, and
# the jump makes the black ball drop from b4 into a5, as the French text says.
EXAMPLE = "B.BW/WBWB/BWWW/..WB|..W/B../..B|../..|."


def test_the_book_example_two_moves_both_win_and_the_jump_drops_a_ball():
    m = match_at(EXAMPLE, 1, 4)
    a5 = parse_point("a5")
    mine = sorted(mv.text() for mv in m.legal_moves() if mv.point == a5)
    assert mine == ["a5>c1", "a5>d4.1"]
    for text in mine:
        m.push(text)
        assert m.outcome().winners == (0,)
        m.pop()
    m.push("a5>d4.1")
    pos = m.state.position
    assert pos.colour_at(a5) == BLACK                  # b4 dropped into a5
    assert pos.colour_at(parse_point("b4")) == EMPTY
    assert pos.colour_at(parse_point("d4.1")) == WHITE


# a7 and c7 went up to b2 (black) and d2 (white): c1 and c3 now hold two
# balls each and are pinned; a1 holds b2 alone.
PINNED = "..BW/WBWB/BWBW/WBWB|.../.../BW.|../..|."


def test_a_pinned_ball_cannot_move():
    m = match_at(PINNED, 1)
    sources = {mv.point for mv in m.legal_moves()}
    assert parse_point("c3.0") not in sources
    with pytest.raises(IllegalMoveError):
        m.push("c3.0>a7")                     # a knight move, but c3 is pinned
    m.push("e5.0>a7")                         # the same hole from a free ball


def test_lifting_a_ball_drops_the_ball_it_holds():
    m = match_at(PINNED, 1)
    m.push("a1>b4")                           # jump round b2 onto a3's platform
    pos = m.state.position
    assert pos.colour_at(parse_point("a1")) == BLACK      # b2 fell into a1
    assert pos.colour_at(parse_point("b2")) == EMPTY
    assert pos.colour_at(parse_point("b4")) == WHITE


def test_the_jump_target_must_be_playable():
    # With c5 empty, b4's platform is broken: a1 cannot jump there.
    m = match_at("BWBW/W.WB/BWBW/WBWB|.../.../...|../..|.", 1)
    with pytest.raises(IllegalMoveError):
        m.push("a1>b4")
    m.push("a1>d2")
    # ...and a knight move needs an empty target: e3 is taken.
    m = match_at("BWBW/W.WB/BWBW/WBWB|.../.../...|../..|.", 1)
    with pytest.raises(IllegalMoveError):
        m.push("a1>e3.0")


def test_moves_are_knight_shaped_only():
    # c5 is empty. Knight moves reach it from a1, e1, g3 and g7, all white
    # (a knight's move changes the colour of the chessboard square), so no
    # black ball can go there, not even its neighbours a5, c3 or c7.
    text = "BWBW/W.WB/BWBW/WBWB|.../.../...|../..|."
    m = match_at(text, 1)
    assert {mv.text() for mv in m.legal_moves() if mv.target == parse_point("c5.0")} \
        == {"a1>c5.0", "e1>c5.0", "g3>c5.0", "g7>c5.0"}
    m = match_at(text, 2)
    assert not [mv for mv in m.legal_moves() if mv.target == parse_point("c5.0")]
    with pytest.raises(IllegalMoveError):
        m.push("c7>c5.0")


def test_you_pass_only_without_a_legal_move():
    # Found in random play: White has no move, Black has.
    m = match_at("BWBW/WB.B/BWB./WWW.|.../W../BB.|../..|.", 1, 10)
    assert m.legal_moves() == [Move("pass")]
    m.push("pass")
    assert m.outcome() is None and Move("pass") not in m.legal_moves()
    m = load("spight").new_match()
    with pytest.raises(IllegalMoveError):
        m.push("pass")


def test_when_neither_player_can_move_the_game_is_drawn():
    s = state(".WBW/WBWB/B.BW/WBW.|.BW/..B/...|../..|.", 2, 5)
    assert s.result is not None and s.result.is_draw
    assert "neither" in s.result.reason


def test_a_move_that_unites_both_players_wins_for_the_mover():
    game = load("spight")
    m = match_at(".BB./BBWB/BWBW/.WWW|.../WB./..W|../..|.", 1, 24)
    m.push("e5.0>d2")
    assert game.united(m.state.position, 0) and game.united(m.state.position, 1)
    assert m.outcome().winners == (0,)


# White: a1 c1 b2 d2 b4 d4 (level 1), c3 of level 2 and c3 of the board,
# which c3.2 hides. Every white ball touches another, but the hidden one
# only through contacts nobody can see.
HIDDEN = "...B/BBB./BWB./WWBB|.../WW./WW.|../W.|."


def test_a_hidden_ball_keeps_its_owner_from_winning_unless_contacts_are_physical():
    pos = Position(HIDDEN)
    assert pos.hidden() == 1 << parse_point("c3.0")
    assert pos.colour_at(parse_point("c3.0")) == WHITE
    assert not load("spight").united(pos, 0)
    assert load("spight", visible=False).united(pos, 0)
    assert state(HIDDEN, 2, 9, visible=False).result.winners == (0,)
    assert state(HIDDEN, 2, 9).result is None


def test_the_move_limit_draws_the_game():
    m = match_at(START.text(), 1, 199)
    m.push(m.legal_moves()[0])
    assert m.outcome().is_draw and "200 actions" in m.outcome().reason
    short = load("spight", move_limit=3)
    s = short.initial_state()
    for _ in range(3):
        s = short.apply(s, short.legal_moves(s)[0])
    assert s.result is not None
    with pytest.raises(UnknownGameError):
        load("spight", move_limit=0)
    with pytest.raises(UnknownGameError):
        load("spight", move_limit=201)


def test_random_games_rarely_reach_the_move_limit():
    game = load("spight")
    rng = random.Random(5)
    finals = [game.random_playout(game.initial_state(), rng) for _ in range(400)]
    at_limit = sum(f.ply >= 200 for f in finals)
    won = sum(bool(f.result.winners) for f in finals)
    assert at_limit <= 4 and won >= 380


@given(st.integers(0, 2 ** 32))
def test_no_spight_move_puts_a_ball_on_one_that_just_dropped(seed):
    # The book: a knight jump cannot be caught by the ko safeguard, because
    # the dropping ball never holds the moving one. The engine's relocation
    # with that safeguard on accepts every Spight move, with the same result.
    game = load("spight")
    for s in random_states(seed, 6):
        for move in game.legal_moves(s):
            if move.kind == "move":
                new, _ = relocate(s.position, move.point, move.target,
                                  forbid_on_dropped=True)
                assert new == game.apply(s, move).position


@given(st.integers(0, 2 ** 32), st.integers(1, 30))
def test_declared_symmetries_keep_moves_and_results(seed, count):
    game = load("spight")
    check_symmetries(game, random_states(seed, count)[-1])
    # the quarter turn swaps the colours of the start: not a symmetry
    assert START.transform(SYMMETRIES[1]) != START


# -- perft, cross-checked by an independent brute force ---------------------
#
# Depth 1 by hand: the board is full, so only jumps: a1 2, e1 3, c3 4, g3 3,
# a5 3, e5 4, c7 3, g7 2 = 24. The brute force below shares no code with the
# engine: a dict from (level, x, y) to colour, jumps found as "points one
# level up resting on a flat neighbour but not on the ball", drops done by
# walking up the column, and its own visible-contact test for the win.


def _flat(a, b):
    return a[0] == b[0] and abs(a[1] - b[1]) + abs(a[2] - b[2]) == 1


def _sees(board, a, b):
    """Balls a and b touch and the contact can be seen from above."""
    if not (_flat(a, b) or a in _below(b) or b in _below(a)):
        return False
    for lv, x, y in (a, b):
        if (lv + 2, x - 1, y - 1) in board:            # hidden
            return False
    over = [q for q in _ABOVE[a] if q in _ABOVE[b]] if _flat(a, b) else []
    return not (len(over) == 2 and all(q in board for q in over))


def _united(board, colour):
    mine = [pt for pt, c in board.items() if c == colour]
    seen, todo = {mine[0]}, [mine[0]]
    while todo:
        a = todo.pop()
        for b in mine:
            if b not in seen and _sees(board, a, b):
                seen.add(b)
                todo.append(b)
    return len(seen) == len(mine)


def _targets(pt):
    lv, x, y = pt
    steps = [q for q in _ALL if q[0] == lv and {abs(q[1] - x), abs(q[2] - y)} == {1, 2}]
    nbrs = [q for q in _ALL if _flat(pt, q)]
    jumps = [q for q in _ALL if q[0] == lv + 1 and pt not in _below(q)
             and any(n in _below(q) for n in nbrs)]
    return steps + jumps


_TARGETS = {pt: _targets(pt) for pt in _ALL}


def _moves(board, colour):
    found = []
    for pt, c in board.items():
        if c != colour or sum(q in board for q in _ABOVE[pt]) > 1:
            continue
        lifted = dict(board)
        del lifted[pt]
        gap = pt
        while True:
            up = [q for q in _ABOVE[gap] if q in lifted]
            if not up:
                break
            lifted[gap] = lifted.pop(up[0])
            gap = up[0]
        for q in _TARGETS[pt]:
            if q not in lifted and all(b in lifted for b in _below(q)):
                new = dict(lifted)
                new[q] = colour
                found.append(new)
    return found


def _brute(board, colour, depth):
    if depth == 0:
        return 1
    other = "B" if colour == "W" else "W"
    children = _moves(board, colour)
    if not children:
        return _brute(board, other, depth - 1) if _moves(board, other) else 0
    total = 0
    for new in children:
        if _united(new, colour) or _united(new, other):
            total += depth == 1
        else:
            total += _brute(new, other, depth - 1)
    return total


PERFT = [24, 420, 5324, 68124]


def test_perft_matches_a_hand_count_and_an_independent_brute_force():
    game = load("spight")
    assert [perft(game, d) for d in range(1, 5)] == PERFT
    board = {(0, x, y): "W" if (x + y) % 2 == 0 else "B" for x in range(4) for y in range(4)}
    assert [_brute(board, "W", d) for d in range(1, 5)] == PERFT


def test_a_move_that_leaves_nobody_a_move_draws_at_once_as_text_does():
    """In play and from text the stuck position ends alike: drawn, with no pass first."""
    game = load("spight")
    rng = random.Random(116)                      # a random game that ends stuck
    state = game.initial_state()
    while not game.is_terminal(state):
        state = game.apply(state, rng.choice(game.legal_moves(state)))
    assert state.result.reason == "neither player can move" and state.last.kind != "pass"
    again = game.parse_state(game.state_text(state))
    assert again.result == state.result and perft(game, 1, again) == 0


@pytest.mark.parametrize("params", [{"visible": False}, {"move_limit": 30}])
def test_fast_playouts_agree_with_the_rules_for_every_option(params):
    check_playouts("spight", games=300, **params)


@given(st.integers(0, 2 ** 32), st.integers(0, 30))
def test_the_knight_table_lifts_each_ball_as_the_rules_say(seed, balls):
    # Per point: the knight targets playable once the ball is lifted (the top
    # of its column left empty), worked out here with playable_of on the
    # occupancy after the lift; nothing for a pinned ball or an empty point.
    pos = random_position(seed, balls, colours=(WHITE, BLACK))
    occ = pos.occupied
    targets, counts, done, _ = knight_table(occ, pos.white)
    assert done & pos.white == pos.white
    knight_table(occ, occ)
    for p in range(30):
        expected = 0
        if occ >> p & 1 and not pos.is_pinned(p):
            after, _ = pos.remove(p)
            reach = sum(1 << q for q in KNIGHT_STEPS[p] + KNIGHT_JUMPS[p])
            expected = playable_of(after.occupied) & reach
        assert targets[p] == expected and counts[p] == expected.bit_count()


@given(st.integers(0, 2 ** 32), st.integers(0, 30), st.booleans())
def test_joined_is_the_group_test_of_bits(seed, balls, visible):
    # The tabled links and the shortcut for a ball touching none of its colour
    # against bits.united (a flood over the contacts point by point).
    pos = random_position(seed, balls, colours=(WHITE, BLACK))
    for mine in (pos.white, pos.black, pos.occupied):
        assert joined(mine, pos.occupied, visible) == united(mine, pos.occupied, visible)
