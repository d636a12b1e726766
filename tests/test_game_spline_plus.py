"""Spline+: placements and moves with drops, the longest-line rule, cycles."""
import functools
import itertools
import math
import random

import pytest
from hypothesis import given, strategies as st

import shibumi.games.spline_plus  # noqa: F401  (registers the game)
from conformance import check_playouts
from conftest import random_position
from shibumi import IllegalMoveError, Move, NotationError, load, parse_point
from shibumi.analysis import perft
from shibumi.game import Game
from shibumi.games.spline_plus import SUPERKO_BOUND, SplinePlusState
from shibumi.geometry import (LEVEL_MASK, LINE_MASKS, LINES, SUPPORT_MASK, SUPPORTS, SYMMETRIES,
                              points_of)
from shibumi.notation import transform_move
from shibumi.position import BLACK, WHITE, Position

# The book's lost figure, rebuilt.  Black's c1 carries only d2 (b2 is empty);
# d2 (white) carries e3.2 (black).  Lifting c1 drops d2 into c1, completing
# White's board row a1-g1, and e3.2 into d2, completing Black's level-1 file
# d2-d4-d6.
BOOK = ".BW./.WBW/.BWB/WBWW|.B./.BW/.WB|../.B|."
# White lifts c1: d2 (white) drops into c1 and e3.2 (black) into d2, completing
# Black's level-1 file d2-d4-d6; White puts the lifted ball on g7 and completes
# its own board row a7-g7, which is longer.
LONGER = "WWW./.BWB/.WBW/.WBB|.B./.BW/.WW|../.B|."
# White lifts c1: d2 (black) drops into c1 and completes Black's row a1-g1;
# White can put the lifted ball on g7 to complete its own row a7-g7.
TIE = "WWW./..../.WB./BWBB|.../.../.B.|../..|."
# A pin (c3 carries four balls), columns two and three balls high, lines in
# reach for both: lifting d4 drops c3.2 into it and completes Black's b4-d4-f4.
MIXED = "WB.B/BWWB/BWBW/WBBW|W../BWB/WB.|../B.|."


def game(**params):
    return load("spline+", **params)


def start(text, to_move, **params):
    return game(**params).new_match(state=game(**params).parse_state(f"{text} {to_move}"))


def test_names():
    assert load("spline plus").info is load("Spline+").info is load("splineplus").info


def test_book_example_black_loses_to_the_longer_white_line():
    m = start(BOOK, 2)
    moves = [mv for mv in m.legal_moves() if mv.kind == "move" and mv.point == parse_point("c1")]
    assert moves, "c1 is movable: it carries one ball only"
    for move in moves:
        after = game().apply(m.state, move)
        board, level1, level2, _ = after.position.text().split("|")
        assert board.endswith("/WWWW") and level1 == ".B./.BW/.BB" and level2 == "../.."
        assert after.result.winners == (0,)          # White: 4 on the board beats 3
    # Every place left for the lifted ball is an empty board hole: the one
    # raised point it could reach, e3.2, rests on d2, which fell during the
    # move.  Black puts it on a3.
    assert {mv.target for mv in moves} == {parse_point(p) for p in ("a3", "a5", "a7", "g7")}
    m.push("c1>a3")
    assert m.outcome().winners == (0,) and "line of 4 beats" in m.outcome().reason


def test_longer_line_of_the_mover_wins():
    m = start(LONGER, 1)
    m.push("c1>g7")
    assert m.outcome().winners == (0,)               # 4 for White against 3 for Black
    m = start(LONGER, 1)
    m.push("c1>a1")
    assert m.outcome().winners == (1,)               # Black's line alone


def test_equal_lines_go_to_the_mover_and_an_enemy_line_alone_to_the_enemy():
    m = start(TIE, 1)
    m.push("c1>g7")                                   # both rows of 4 appear
    assert m.outcome().winners == (0,)
    m = start(TIE, 1)
    m.push("c1>a5")                                   # only Black's row appears
    assert m.outcome().winners == (1,)


def test_no_landing_on_a_ball_that_dropped():
    m = start(BOOK, 2)
    # Lifting c1 empties e3.2, whose platform is whole again, but its ball d2
    # fell during the move: putting the ball there would rebuild the column.
    legal = {mv.text() for mv in m.legal_moves()}
    assert "c1>e3.2" not in legal
    with pytest.raises(IllegalMoveError):
        m.push("c1>e3.2")
    lifted, drops = m.state.position.remove(parse_point("c1"))
    assert lifted.is_playable(parse_point("e3.2"))    # playable, but forbidden
    m = start(TIE, 1)
    assert "c1>d2" not in {mv.text() for mv in m.legal_moves()}   # d2 rests on c1


def test_pinned_and_enemy_balls_do_not_move():
    # c1 (white) carries b2 and d2: pinned.  a1 is black: not White's to move.
    m = start("..../..../WWW./BWW.|.../.../WW.|../..|.", 1)
    sources = {mv.point for mv in m.legal_moves() if mv.kind == "move"}
    assert parse_point("c1") not in sources and parse_point("a1") not in sources
    assert parse_point("e1") in sources
    with pytest.raises(IllegalMoveError):
        m.push("c1>g7")
    with pytest.raises(IllegalMoveError):
        m.push("a1>g7")


def _shuffle(**params):
    m = game(**params).new_match()
    for move in ("a1", "g7", "a1>c1", "g7>e7", "c1>a1"):
        m.push(move)
    return m


def test_superko_forbids_going_round_in_a_circle():
    m = _shuffle()
    # e7>g7 would bring back the position left by Black's placement on g7.
    assert Move("e7>g7") not in m.legal_moves()
    assert Move("e7>c7") in m.legal_moves()
    for rule in ("none", "ko"):
        assert Move("e7>g7") in _shuffle(cycle=rule).legal_moves()


def test_a_placement_clears_the_history():
    m = _shuffle()
    assert len(m.state.seen) == 3        # left by g7, a1>c1 and g7>e7
    m.push("c3")
    assert m.state.seen == () and m.state.ply == 6


@pytest.mark.parametrize("index", range(8))
def test_symmetries_turn_the_history_too(index):
    g, m = game(), _shuffle()
    perm = SYMMETRIES[index]
    image = g.transform_state(m.state, perm)
    assert image.seen == tuple(p.transform(perm) for p in m.state.seen)
    assert set(g.legal_moves(image)) == {transform_move(mv, perm) for mv in m.legal_moves()}


def test_state_text_round_trips_with_history():
    g = game()
    m = _shuffle()
    text = g.state_text(m.state)
    assert text.endswith(" 2 ply=5 seen=" + ",".join(f"{p.to_int():x}" for p in m.state.seen))
    assert g.parse_state(text) == SplinePlusState(m.state.position, 1, None, None, 5,
                                                  m.state.seen)
    with pytest.raises(Exception):
        g.parse_state("..../..../..../....|.../.../...|../..|. 1 ply=x")


def test_unknown_cycle_rule_is_refused():
    with pytest.raises(Exception, match="cycle"):
        game(cycle="sometimes")


# -- an independent brute force -------------------------------------------------

def _longest(pos, colour):
    return max((len(line) for line in LINES
                if all(pos.colour_at(p) == colour for p in line)), default=0)


def _brute_children(pos, mover, seen):
    """(new position, was a placement) for every legal action, from the rules text."""
    colour = (WHITE, BLACK)[mover]
    found = [(pos.place(p, colour), True) for p in range(30)
             if pos.is_playable(p) and pos.count(colour) < 16]
    for s in range(30):
        if pos.colour_at(s) != colour or pos.is_pinned(s):
            continue
        lifted, drops = pos.remove(s)
        fell = {to for _, to in drops}
        for t in range(30):
            if lifted.is_playable(t) and not fell & set(SUPPORTS[t]):
                new = lifted.place(t, colour)
                if new != pos and new not in seen:
                    found.append((new, False))
    return found


def _brute_perft(pos, mover, seen, depth):
    if depth == 0:
        return 1
    total = 0
    for new, placed in _brute_children(pos, mover, seen):
        mine, theirs = _longest(new, (WHITE, BLACK)[mover]), _longest(new, (BLACK, WHITE)[mover])
        if mine or theirs:
            total += depth == 1          # a finished game is a leaf only at the last level
            continue
        total += _brute_perft(new, 1 - mover, () if placed else seen + (pos,), depth - 1)
    return total


def test_perft_from_the_start():
    # Hand count: 16 holes; 15; then White places on 14 holes or moves its ball to
    # one of the 14 (28); then Black has 13+13 after a white placement (3360 lines)
    # or 14+14 after a move (3360 lines): 3360*26 + 3360*28 = 181440.
    assert [perft(game(), d) for d in range(1, 5)] == [16, 240, 6720, 181440]
    assert _brute_perft(Position.empty(), 0, (), 3) == 6720


MIDGAME = [(BOOK, 2), (TIE, 1), (LONGER, 1), (MIXED, 1), (MIXED, 2)]


@pytest.mark.parametrize("text, to_move", MIDGAME)
def test_perft_midgame_against_brute_force(text, to_move):
    """Drops, landing on fallen balls, pins, both colours' lines and superko."""
    g = game()
    state = g.parse_state(f"{text} {to_move}")
    brute = _brute_perft(state.position, to_move - 1, (), 2)
    assert perft(g, 2, state) == brute


def test_perft_midgame_with_history_against_brute_force():
    g = game()
    state = g.parse_state(MIXED + " 1")
    # Pretend the result of one of White's moves had already been seen: superko
    # now forbids that move.
    move = next(mv for mv in g.legal_moves(state)
                if mv.kind == "move" and g.apply(state, mv).result is None)
    seen = (g.apply(state, move).position,)
    state = SplinePlusState(state.position, 0, None, None, 20, seen)
    assert move not in g.legal_moves(state)
    assert perft(g, 3, state) == _brute_perft(state.position, 0, seen, 3)


# -- properties -------------------------------------------------------------------

@given(st.integers(0, 2**32), st.integers(4, 24))
def test_moves_match_the_rules_on_random_positions(seed, balls):
    pos = random_position(seed, balls, colours=(WHITE, BLACK))
    g = game()
    for mover in (0, 1):
        state = g.settle(SplinePlusState(pos, mover))
        if state.result is not None:
            continue
        ours = sorted(g.apply(state, mv).position.to_int() for mv in g.legal_moves(state))
        brute = sorted(new.to_int() for new, _ in _brute_children(pos, mover, (pos,)))
        assert ours == brute


def test_superko_bound_is_the_count_of_line_free_candidates():
    """max_length: stable two-colour positions with at most one ball of each colour
    on level 2 (any two level-2 balls of one colour form a line) and at most 16
    balls of each colour."""
    @functools.lru_cache(maxsize=None)
    def colourings(balls, white_up, black_up):
        """Colourings of `balls` board and level-1 balls within the supply, given
        the white and black balls on level 2."""
        return sum(math.comb(balls, w) for w in range(balls + 1)
                   if w + white_up <= 16 and balls - w + black_up <= 16)

    total = 0
    level1, level2 = points_of(LEVEL_MASK[1]), points_of(LEVEL_MASK[2])
    for board in range(1 << 16):
        open1 = [p for p in level1 if board & SUPPORT_MASK[p] == SUPPORT_MASK[p]]
        for r1 in range(len(open1) + 1):
            for chosen in itertools.combinations(open1, r1):
                occ = board | sum(1 << p for p in chosen)
                open2 = sum(occ & SUPPORT_MASK[p] == SUPPORT_MASK[p] for p in level2)
                balls = board.bit_count() + r1
                # level 2: empty, one ball (either colour) or two of different colours
                total += (colourings(balls, 0, 0)
                          + open2 * (colourings(balls, 1, 0) + colourings(balls, 0, 1))
                          + 2 * math.comb(open2, 2) * colourings(balls, 1, 1))
    assert total == SUPERKO_BOUND == game().info.max_length


def test_random_games_are_short_in_practice():
    g = game()
    rng = random.Random(3)
    lengths = [g.length(g.random_playout(g.initial_state(), rng)) for _ in range(200)]
    assert max(lengths) < 400


# -- the supply: 16 balls of each colour ------------------------------------------

def _line_free_at_16(seed):
    """A line-free stable position with 16 white balls, built by random placements
    that never complete a line (None if it gets stuck)."""
    def no_line(mask):
        return not any(mask & m == m for m in LINE_MASKS)

    rng = random.Random(seed)
    pos = Position.empty()
    while pos.count(WHITE) < 16:
        options = [(p, c) for p in range(30) if pos.is_playable(p)
                   for c in (WHITE, WHITE, BLACK) if no_line(pos.place(p, c).mask(c))]
        if not options:
            return None
        pos = pos.place(*rng.choice(options))
    return pos


def test_a_player_with_16_balls_in_play_can_only_move_a_ball():
    g = game()
    pos = next(p for p in map(_line_free_at_16, itertools.count()) if p)
    white = g.parse_state(f"{pos.text()} 1")
    assert white.result is None and white.position.count(WHITE) == 16
    assert g.legal_moves(white) and all(mv.kind == "move" for mv in g.legal_moves(white))
    m = g.new_match(state=white)
    with pytest.raises(IllegalMoveError):
        m.push(Move.place(next(p for p in range(30) if pos.is_playable(p)), WHITE))
    black = g.parse_state(f"{pos.text()} 2")
    assert any(mv.kind == "place" for mv in g.legal_moves(black))


def test_position_text_with_more_than_16_of_a_colour_is_refused():
    with pytest.raises(NotationError, match="16"):
        game().parse_state("WBWW/WWBW/WBWW/BWWW|WW./WB./W.W|../..|. 2")   # 17 white


def test_without_history_a_player_at_16_always_has_a_move():
    """The notes' case argument, checked on random line-free positions."""
    g = game()
    positions = [p for p in map(_line_free_at_16, range(300)) if p]
    assert len(positions) > 60
    for pos in positions:
        assert g.legal_moves(SplinePlusState(pos, 0)), pos.text()
    assert all(_brute_children(pos, 0, ()) for pos in positions[:10])


# White has all 16 balls in play and Black has just placed a ball.  Black then
# only moves balls, and after 16 actions each of White's possible moves (all
# into the hole c1) would bring back a position seen since that placement.
STUCK_START = "WWWB/WBWW/WWBW/BWWW|BWB/W.B/WBW|../..|."
STUCK_GAME = ["b4>d4.1", "b6>b4", "f2>b6", "d2>c5.2", "a7>f2", "b6>e5.2", "g1>b6", "b4>d2",
              "b2>b4", "f4>c5.2", "d4.1>f2", "d2>e5.2", "g1>c5.2", "g7>d2", "c1>f2", "c1>e5.2"]


def test_superko_can_leave_a_player_at_16_without_a_move_and_they_lose():
    g = game()
    m = start(STUCK_START, 1)
    for move in STUCK_GAME:
        assert m.outcome() is None
        m.push(move)
    out = m.outcome()
    assert out.winners == (1,) and "no legal move" in out.reason
    pos, seen = m.state.position, m.state.seen
    assert pos.count(WHITE) == 16 and len(seen) == 16
    assert _longest(pos, WHITE) == _longest(pos, BLACK) == 0          # no line decided it
    assert not _brute_children(pos, 0, seen)                         # every move repeats
    assert _brute_children(pos, 0, ())                               # only history blocks
    assert g.legal_moves(m.state) == []
    # The text keeps the history, so reading it back finds the same end.
    assert g.parse_state(g.state_text(m.state)).result == out
    # Without the cycle rule the same game leaves White a move.
    free = start(STUCK_START, 1, cycle="none")
    for move in STUCK_GAME:
        free.push(move)
    assert free.outcome() is None and free.legal_moves()


def test_perft_into_the_stuck_position_against_brute_force():
    g = game()
    m = start(STUCK_START, 1)
    for move in STUCK_GAME[:13]:
        m.push(move)
    state = m.state                                   # Black to move, 13 positions seen
    assert perft(g, 3, state) == _brute_perft(state.position, 1, state.seen, 3)


def test_fast_playouts_handle_the_cap_like_the_generic_loop():
    g = game()
    m = start(STUCK_START, 1)
    for move in STUCK_GAME[:-1]:
        m.push(move)
    stuck = g.apply(m.state, Move("c1>e5.2"))
    fast = [g.random_playout(m.state, random.Random(s)) for s in range(300)]
    slow = [Game.random_playout(g, m.state, random.Random(s)) for s in range(300)]
    for runs in (fast, slow):
        ends = [s for s in runs if "no legal move" in s.result.reason]
        assert all(g.state_key(s) == g.state_key(stuck) for s in ends)
        assert 5 <= len(ends) <= 45                   # Black finds c1>e5.2 one time in 14
        assert all(max(s.position.count(WHITE), s.position.count(BLACK)) <= 16 for s in runs)
    assert abs(sum(s.ply for s in fast) - sum(s.ply for s in slow)) / 300 < 2


@pytest.mark.parametrize("rule", ["superko", "ko", "none"])
def test_fast_playouts_play_the_rules_games_under_every_cycle_rule(rule):
    check_playouts("spline+", games=150, cycle=rule)


def test_the_playouts_playable_points_agree_with_recounting_them():
    # The playout follows the playable points: a lift leaves only the top of the
    # column empty (and the points resting on it unsupported), and _put fills a
    # point and opens the points whose platform it completes. Compare both with
    # playable_mask on the positions of random games.
    from shibumi.games.spline_plus import _put
    from shibumi.geometry import SUPPORTED_MASK
    from shibumi.position import playable_mask
    g = game(cycle="none")
    checked = 0
    for seed in range(30):
        rng = random.Random(seed)
        state = g.initial_state()
        while state.result is None:
            pos = state.position
            playable = playable_mask(pos.occupied)
            for p in range(30):
                if playable >> p & 1:
                    assert _put(playable, pos.occupied | 1 << p, p) == \
                        playable_mask(pos.occupied | 1 << p)
                elif pos.occupied >> p & 1 and not pos.is_pinned(p):
                    after, _ = pos.remove(p)
                    top = pos.occupied ^ after.occupied
                    assert (playable | top) & ~SUPPORTED_MASK[top.bit_length() - 1] == \
                        playable_mask(after.occupied)
                    checked += 1
            state = g.apply(state, rng.choice(g.legal_moves(state)))
    assert checked > 1000


@pytest.mark.parametrize("rule", ["superko", "ko"])
def test_fast_playouts_count_barred_moves_like_the_rules(rule):
    # The playout counts the moves in bulk and strikes the barred repeats from
    # the free balls' targets by mask; start it from every state of random games
    # that has a history, where the cycle rule bars moves, against the generic loop.
    g = game(cycle=rule)
    compared = 0
    for seed in range(25):
        rng = random.Random(seed)
        state = g.initial_state()
        while state.result is None:
            if state.seen:
                fast = g.random_playout(state, random.Random(seed))
                assert fast == Game.random_playout(g, state, random.Random(seed))
                compared += 1
            state = g.apply(state, rng.choice(g.legal_moves(state)))
    assert compared > 300
