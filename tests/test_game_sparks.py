"""Sparks: take a coal, feed a spark, and crown the fire with your own colour."""
import random

import pytest

import shibumi.games.sparks  # noqa: F401  (registers the game)
from conformance import (check_playouts, check_random_games,
                         check_symmetries, random_walk)
from shibumi import IllegalMoveError, NotationError, load
from shibumi.analysis import perft
from shibumi.games.sparks import takeable_of
from shibumi.geometry import LEVEL, points_of
from shibumi.notation import parse_point
from shibumi.position import BLACK, RED, WHITE, Position, column_above
from reference import ABOVE as _ABOVE, cells_of as _cells, open_points as _open

APEX = (3, 0, 0)
# Full pyramids: a checkerboard board level, everything above red.
FULL_RED = "BWBW/WBWB/BWBW/WBWB|RRR/RRR/RRR|RR/RR|R"
# Black on the four corners: every white coal holds up two or more balls.
WHITE_PINNED = "BWWB/WBWB/BWBW/BWWB|RRR/RRR/RRR|RR/RR|R"


def state(text, to_move=1, extras="", **params):
    return load("sparks", **params).parse_state(f"{text} {to_move} {extras}".strip())


def match_at(text, to_move=1, extras="", **params):
    return load("sparks", **params).new_match(state=state(text, to_move, extras, **params))


def colour(m, name):
    return m.state.position.colour_at(parse_point(name))


def test_conformance():
    check_random_games("sparks", seeds=range(30))
    check_random_games("sparks", seeds=range(5), pinning="french")
    check_playouts("sparks", games=300)
    check_playouts("sparks", games=150, pinning="french")


def plain_takeable(position, mine, single_drop):
    """The rule as written: not pinned, and (French) at most one ball would drop."""
    return sum(1 << p for p in points_of(mine)
               if not position.is_pinned(p)
               and not (single_drop and column_above(p, position.occupied).bit_count() > 1))


def test_the_mask_rule_for_coals_matches_the_plain_one_on_any_position():
    rng = random.Random(7)
    for _ in range(3000):
        position = Position.empty()
        for _ in range(rng.randrange(31)):      # any stable position, any colours
            spots = list(points_of(position.playable()))
            position = position.place(rng.choice(spots), rng.choice((WHITE, BLACK, RED)))
        for colour in (WHITE, BLACK):
            mine = position.mask(colour)
            for single_drop in (False, True):
                assert takeable_of(mine, position.occupied, single_drop) \
                    == plain_takeable(position, mine, single_drop), position.text()


def test_start_is_a_full_checkerboard_and_a_reserve_of_fourteen():
    s = load("sparks").initial_state()
    assert s.position.text() == "BWBW/WBWB/BWBW/WBWB|.../.../...|../..|."
    assert s.reserve == 14 and s.position.count(WHITE) == s.position.count(BLACK) == 8
    # White may take any of its coals: nothing rests on them yet.
    assert len(load("sparks").legal_moves(s)) == 8


def test_the_designers_opening():
    """White takes coal a and spark x, puts x in a's place and a on a playable
    point; Black takes coal b, which drops a, and places b and y."""
    m = load("sparks").new_match()
    m.push("xa1")
    assert colour(m, "a1") == RED and m.state.coal and not m.state.spark
    assert m.current_player == 0 and m.state.reserve == 13
    m.push("b2")                                      # a (white) on b2
    assert colour(m, "b2") == WHITE and m.current_player == 1
    m.push("xc1")                                     # b supports a alone
    assert colour(m, "c1") == WHITE and colour(m, "b2") == 0   # a dropped
    assert m.state.coal and m.state.spark and m.state.reserve == 12
    kinds = {mv.colour for mv in m.legal_moves()}
    assert kinds == {BLACK, RED}
    m.push("Rb2")                                     # y, then b, in any order
    assert m.current_player == 1 and not m.state.spark
    m.push("Bd2")
    assert m.current_player == 0 and m.state.position.count(RED) == 2


def test_spark_drop_keeps_the_count():
    # White's coal a1 holds only the spark on b2: it drops, the spark in hand goes
    # back, and White places only the coal.
    m = match_at("BWBW/WBWB/BWBW/WBWB|.../.../R..|../..|.", 1)
    before = m.state.reserve
    m.push("xa1")
    assert colour(m, "a1") == RED and colour(m, "b2") == 0
    assert m.state.coal and not m.state.spark and m.state.reserve == before
    assert {mv.colour for mv in m.legal_moves()} == {WHITE}
    m.push("b2")
    assert m.state.position.count() == 17 and m.current_player == 1


def test_pinned_coals_stay_and_the_french_variant_forbids_columns():
    # f6 rests on g7 (white) alone and holds up e5.2: lifting g7 drops a column
    # of two. e5.0 holds d4, f4, d6 and f6: pinned.
    text = "BWBW/WBWB/BWBW/WBWB|.RR/.RR/...|.R/..|."
    game = load("sparks")
    s = state(text, 1)
    took = {mv.text() for mv in game.legal_moves(s)}
    assert "xg7" in took and "xe5.0" not in took
    french = load("sparks", pinning="french")
    assert "xg7" not in {mv.text() for mv in french.legal_moves(state(text, 1, pinning="french"))}
    m = game.new_match(state=s)
    m.push("xg7")
    # The whole column dropped: f6's spark into g7, e5.2's spark into f6.
    assert colour(m, "g7") == RED and colour(m, "f6") == RED and colour(m, "e5.2") == 0
    assert not m.state.spark                    # the ball directly above was a spark


def test_a_coal_on_the_apex_wins_and_a_spark_there_hands_the_game_over():
    # White took a coal and holds it with the last spark; e3.2 and then the apex
    # are left.
    text = "BWBW/WBWB/BWBW/RBWB|RRR/RRR/RRR|RR/R.|."
    m = match_at(text, 1, "coal spark")
    assert m.state.reserve == 0
    m.push("Re3.2")
    assert [mv.text() for mv in m.legal_moves()] == ["Wd4.3"]
    m.push("Wd4.3")
    assert m.outcome().winners == (0,) and "apex" in m.outcome().reason
    assert m.game.winning_points(m.state) == 1 << 29
    m.pop(), m.pop()
    m.push("We3.2")
    m.push("Rd4.3")                       # the spark crowns the pyramid instead
    assert m.current_player == 1 and not m.is_over()
    assert sorted(mv.text() for mv in m.legal_moves()) == ["xa7", "xg1"]
    m.push("xa7")                          # b6, c5.2 and the apex (sparks) drop
    m.push("d4.3")
    assert m.outcome().winners == (1,)


def test_full_pyramid_gives_the_next_player_the_apex():
    m = match_at(FULL_RED, 1)
    assert m.state.reserve == 0
    assert sorted(mv.text() for mv in m.legal_moves()) == ["xa1", "xg7"]
    m.push("xa1")                          # b2, c3.2 and the apex drop
    assert colour(m, "a1") == RED and colour(m, "d4.3") == 0
    assert m.state.coal and not m.state.spark
    assert [mv.text() for mv in m.legal_moves()] == ["Wd4.3"]
    m.push("d4.3")
    assert m.outcome().winners == (0,)


def test_a_player_with_every_coal_pinned_loses():
    s = state(WHITE_PINNED, 1)
    assert s.result is not None and s.result.winners == (1,)
    assert "no coal" in s.result.reason and load("sparks").legal_moves(s) == []


def test_bad_input_is_refused_and_changes_nothing():
    m = load("sparks").new_match()
    before = m.state
    for bad in ("xc1", "Ra1", "Wb2", "xb2", "pass", "zz", "x"):
        with pytest.raises((IllegalMoveError, NotationError)):
            m.push(bad)
        assert m.state == before
    m.push("xa1")
    with pytest.raises(IllegalMoveError):
        m.push("Ra3")                      # no spark in hand after a free coal
    with pytest.raises(IllegalMoveError):
        m.push("xc3")                      # the coal is already taken
    for text in ("BWBW/WBWB/BWBW/WBWB|.../.../...|../..|. 1 spark ply=x",
                 "BWBW/WBWB/BWBW/WBW.|.../.../...|../..|. 1",
                 "BWBW/WBWB/BWBW/WBWB|.../.../...|../..|. 1 coal",
                 "BWBW/WBWB/BWBW/WBWW|.../.../...|../..|. 1"):
        with pytest.raises(NotationError):
            load("sparks").parse_state(text)
    with pytest.raises(Exception):
        load("sparks", pinning="loose")


def test_symmetries_and_state_text():
    game = load("sparks")
    for seed in range(25):
        s = random_walk(game, seed, seed * 3 % 50)
        for image in check_symmetries(game, s):
            again = game.parse_state(game.state_text(image))
            assert game.state_key(again) == game.state_key(image)


def _spark_height(position):
    return sum(LEVEL[p] for p in range(30) if position.red >> p & 1)


def test_every_turn_adds_a_ball_or_lowers_a_spark():
    """The argument behind max_length: at most 14 adding turns, 20 spark drops."""
    game = load("sparks")
    rng = random.Random(3)
    longest = 0
    for _ in range(300):
        s = game.initial_state()
        start = (s.position.count(), _spark_height(s.position))
        while not game.is_terminal(s):
            mover = s.to_move
            s = game.apply(s, rng.choice(game.legal_moves(s)))
            if s.to_move != mover and s.result is None:
                now = (s.position.count(), _spark_height(s.position))
                assert now[0] == start[0] + 1 or (now[0] == start[0] and now[1] < start[1])
                start = now
        longest = max(longest, game.length(s))
    assert longest <= game.info.max_length


# -- perft, cross-checked by an engine-free brute force ----------------------
#
# The rules again on a dict {(level, x, y): 'W' | 'B' | 'R'}: a coal may be
# taken when at most one ball rests on it; the column above drops; the ball
# that was directly on it decides what happens to the spark.

def _lift(board, p):
    board = dict(board)
    del board[p]
    gap, first = p, None
    while True:
        above = [q for q in _ABOVE[gap] if q in board]
        if not above:
            return board, first
        (q,) = above
        first = first or board[q]
        board[gap] = board.pop(q)
        gap = q


def _children(node):
    board, mover, coal, spark = node
    me = "WB"[mover]
    if not coal and not spark:
        out = []
        for p, c in board.items():
            if c == me and len([q for q in _ABOVE[p] if q in board]) <= 1:
                after, dropped = _lift(board, p)
                if dropped is None:
                    after[p] = "R"
                    out.append((after, mover, True, False))
                else:
                    reserve = 14 - list(after.values()).count("R")
                    out.append((after, mover, True, dropped != "R" and reserve > 0))
        return out
    out = []
    for p in _open(board):
        for ball, held in ((me, coal), ("R", spark)):
            if held:
                after = {**board, p: ball}
                c2, s2 = coal and ball == "R", spark and ball != "R"
                out.append((after, mover if (c2 or s2) else 1 - mover, c2, s2))
    return out


def _over(node):
    board, mover, coal, spark = node
    if board.get(APEX) in ("W", "B"):
        return True
    if coal or spark:
        return False
    me = "WB"[mover]
    return not any(c == me and len([q for q in _ABOVE[p] if q in board]) <= 1
                   for p, c in board.items())


def _brute(node, depth):
    if depth == 0:
        return 1
    if _over(node):
        return 0
    return sum(_brute(child, depth - 1) for child in _children(node))


# By hand: White takes one of 8 free coals and puts it on one of the 9 points
# of level 1 (8, 72). Black may take any of 8 coals (576). Six are free (the
# coal goes on one of the 8 level-1 points left); the two under White's coal
# drop it, so Black holds coal and spark for 9 points each: 72 x (6 x 8 + 2 x 18).
PERFT = [8, 72, 576, 6048]


def test_perft_from_the_start_matches_a_brute_force():
    game = load("sparks")
    assert [perft(game, d) for d in range(1, 5)] == PERFT
    assert PERFT[1:] == [8 * 9, 72 * 8, 72 * (6 * 8 + 2 * 18)]
    start = (_cells(game.initial_state().position), 0, False, False)
    assert [_brute(start, d) for d in range(1, 5)] == PERFT


def test_perft_from_random_positions_matches_a_brute_force():
    game = load("sparks")
    checked = 0
    for seed in range(30):
        s = random_walk(game, seed, 12 + seed)
        if game.is_terminal(s):
            continue
        node = (_cells(s.position), s.to_move, s.coal, s.spark)
        assert [perft(game, d, s) for d in (1, 2, 3)] == [_brute(node, d) for d in (1, 2, 3)]
        checked += 1
        if checked == 5:
            break
    assert checked == 5
