"""Spao pinned down: turns, the product of group sizes, the rebuilt example, perft."""
import functools
import itertools
import random

import pytest
from hypothesis import given, strategies as st

from conformance import check_playouts, check_symmetries, random_walk
from shibumi import IllegalMoveError, NotationError, load
from shibumi.analysis import perft
from shibumi.game import Game
from shibumi.games.spao import formula, group_sizes, product
from shibumi.geometry import ALL_MASK
from shibumi.notation import parse_point, point_name
from shibumi.position import BLACK, RED, WHITE, Position
from reference import ALL, below, cells_of, open_points, touch

GAME = load("spao")

#: The rule book's example, rebuilt (figure lost): White to place its ninth
#: ball. Board full, level 1 full but for d6, nothing higher. White's groups:
#: a1-c1-c3-d4 (four balls, joined under the crossing pair b2-d2, so they look
#: like two pairs from above), a7-b6 and e7-f6.
EXAMPLE = "WRWR/BBBB/BWRR/WWBB|W.W/RWR/RRB|../..|. 1"


def state(text):
    return GAME.parse_state(text)


# -- conformance ---------------------------------------------------------------------

def test_conformance():
    check_playouts("spao", games=300)
    info = GAME.info
    assert (info.min_players, info.max_players, info.family) == (3, 3, "Counting")
    assert info.max_length == 30


@given(st.integers(0, 2 ** 32), st.integers(0, 30))
def test_symmetries_keep_moves_and_results(seed, steps):
    s = random_walk(GAME, seed, steps)
    assert GAME.symmetries == tuple(range(8))
    for image in check_symmetries(GAME, s):
        again = GAME.parse_state(GAME.state_text(image))
        assert GAME.state_key(again) == GAME.state_key(image)


def test_the_fast_playout_plays_the_generic_games():
    for seed in range(40):
        fast = GAME.random_playout(GAME.initial_state(), random.Random(seed))
        slow = Game.random_playout(GAME, GAME.initial_state(), random.Random(seed))
        assert fast == slow


# -- turns ------------------------------------------------------------------------------

def test_every_game_lasts_exactly_thirty_moves_ten_balls_each():
    rng = random.Random(5)
    for _ in range(30):
        s, movers = GAME.initial_state(), []
        while not GAME.is_terminal(s):
            movers.append(s.to_move)
            s = GAME.apply(s, rng.choice(GAME.legal_moves(s)))
        assert movers == [0, 1, 2] * 10
        assert s.position.occupied == ALL_MASK and GAME.length(s) == 30
        assert [s.position.count(c) for c in (WHITE, BLACK, RED)] == [10, 10, 10]


def test_each_player_places_their_own_colour_on_a_playable_point():
    m = GAME.new_match()
    for player, colour in enumerate("WBR"):
        assert m.current_player == player
        legal = m.legal_moves()
        assert {mv.text()[0] for mv in legal} == {colour}
        assert len(legal) == 16 - player
        m.push(legal[0])
    before = m.state
    for bad in ("Bc3", "a1", "b2", "d4.3"):            # wrong colour, taken, not playable
        with pytest.raises(IllegalMoveError):
            m.push(bad)
    assert m.state == before


def test_balls_climb_on_completed_platforms():
    m = GAME.new_match()
    for move in ("a1", "c1", "a3", "c3"):
        m.push(move)
    assert "Bb2" in {mv.text() for mv in m.legal_moves()}
    m.push("b2")
    assert m.state.position.colour_at(parse_point("b2")) == BLACK


# -- scoring ------------------------------------------------------------------------------

def test_the_score_is_the_product_of_the_group_sizes():
    assert product([2, 2, 5]) == 20 and product([9]) == 9 and product([1, 1, 1]) == 1
    assert product([]) == 0
    assert formula([5, 2, 2]) == "2 x 2 x 5 = 20" and formula([9]) == "9"
    # Omega's lesson: of all splits of ten balls, groups of three (and a four,
    # or two twos) score best, and one big group scores least but for ones.
    splits = {}

    def parts(n, largest):
        if n == 0:
            yield []
        for k in range(min(n, largest), 0, -1):
            for rest in parts(n - k, k):
                yield [k] + rest
    for split in parts(10, 10):
        splits[tuple(split)] = product(split)
    best = max(splits.values())
    assert best == 36
    assert {s for s, v in splits.items() if v == best} == {(4, 3, 3), (3, 3, 2, 2)}


def test_hidden_balls_and_cut_contacts_join_groups():
    pos = Position(EXAMPLE.split()[0])
    white = [g.bit_count() for g in pos.groups(WHITE, visible_only=False)]
    seen = [g.bit_count() for g in pos.groups(WHITE, visible_only=True)]
    assert sorted(white) == [2, 2, 4] and sorted(seen) == [2, 2, 2, 2]
    assert group_sizes(pos, WHITE) == [4, 2, 2]
    # A buried ball: white c3.0 lies under c3.2 and still links a3 and e3.
    buried = Position("..../RBRB/WWWR/RBRR|.../BR./BR.|../R.|.")
    assert buried.hidden() == 1 << parse_point("c3.0")
    assert group_sizes(buried, WHITE) == [3]
    assert group_sizes(buried, WHITE, visible_only=True) == [1, 1]


def test_a_full_pyramid_is_scored_and_the_highest_product_wins():
    final = GAME.random_playout(GAME.initial_state(), random.Random(11))
    outcome = GAME.outcome(final)
    scores = [product(group_sizes(final.position, c)) for c in (WHITE, BLACK, RED)]
    assert outcome.scores == tuple(float(s) for s in scores)
    assert outcome.winners == tuple(p for p in range(3) if scores[p] == max(scores))
    assert outcome.ranking[0] == outcome.winners


def test_ties_for_the_top_are_shared():
    rng = random.Random(1)
    shared = 0
    for _ in range(400):
        final = GAME.random_playout(GAME.initial_state(), rng)
        outcome = GAME.outcome(final)
        top = max(outcome.scores)
        assert outcome.winners == tuple(p for p in range(3) if outcome.scores[p] == top)
        if len(outcome.winners) > 1:
            shared += 1
            assert "share the win" in outcome.reason
    assert 20 <= shared <= 60                 # about one game in ten


def test_a_finished_pyramid_read_from_text_is_scored():
    final = GAME.random_playout(GAME.initial_state(), random.Random(3))
    again = GAME.parse_state(GAME.state_text(final))
    assert again.result == final.result and GAME.legal_moves(again) == []


# -- the rule book's example --------------------------------------------------------------

def test_the_example_white_to_play_its_ninth_ball():
    s = state(EXAMPLE)
    pos = s.position
    assert s.to_move == 0 and pos.count() == 24
    assert [pos.count(c) for c in (WHITE, BLACK, RED)] == [8, 8, 8]
    assert group_sizes(pos, WHITE) == [4, 2, 2]
    after = {point_name(mv.point): product(group_sizes(pos.place(mv.point, WHITE), WHITE))
             for mv in GAME.legal_moves(s)}
    assert after == {"d6": 9, "c3.2": 20, "e3.2": 20}       # (-) and the two (+)
    assert group_sizes(pos.place(parse_point("d6"), WHITE), WHITE) == [9]
    assert group_sizes(pos.place(parse_point("c3.2"), WHITE), WHITE) == [5, 2, 2]


# -- state text -------------------------------------------------------------------------------

def test_state_text_checks_the_turn_order():
    for bad in ("..../..../..../B...|.../.../...|../..|. 2",     # Black first
                "..../..../..../W...|.../.../...|../..|. 1",     # Black's turn
                "..../..../..../WB..|.../.../...|../..|. 1",     # Red's turn
                "..../..../..../WR..|.../.../...|../..|. 3"):    # red before black
        with pytest.raises(NotationError, match="cannot be reached"):
            state(bad)
    with pytest.raises(NotationError):
        state("..../..../..../....|.../.../...|../..|. 1 ply=3")
    s = state("..../..../..../WBR.|.../.../...|../..|. 1")
    assert GAME.state_text(s) == "..../..../..../WBR.|.../.../...|../..|. 1"


# -- perft, against an engine-free brute force ---------------------------------------------
#
# By hand: 16 holes, then 15, 14, 13: 16 * 15 * 14 * 13 = 43680 at depth 4; the
# fifth ball may also go on b2-like points (nine platforms can be complete).

PERFT = [16, 240, 3360, 43680, 524376]


@functools.lru_cache(maxsize=None)
def _brute(cells, turn, depth):
    board = dict(cells)
    if depth == 0:
        return 1
    spots = open_points(board)
    colour = "WBR"[turn % 3]
    return sum(_brute(tuple(sorted({**board, p: colour}.items())), turn + 1, depth - 1)
               for p in spots)


def _from_engine(s):
    board = cells_of(s.position)
    return tuple(sorted(board.items())), len(board)


def test_perft_matches_a_brute_force():
    assert [perft(GAME, d) for d in range(1, 6)] == PERFT
    assert PERFT[3] == 16 * 15 * 14 * 13
    assert [_brute((), 0, d) for d in range(1, 5)] == PERFT[:4]
    for seed, steps, depth in ((1, 12, 3), (2, 21, 3), (3, 26, 4), (4, 27, 3)):
        s = random_walk(GAME, seed, steps)
        cells, turn = _from_engine(s)
        assert turn == steps
        assert perft(GAME, depth, s) == _brute(cells, turn, depth)


@pytest.mark.slow
def test_perft_depth_six():
    assert perft(GAME, 6) == _brute((), 0, 6)


# -- scores, against a brute force of their own -------------------------------------------

def _brute_groups(board, colour):
    """Group sizes by plain contact (every ball, every contact), no engine code."""
    left = {p for p, c in board.items() if c == colour}
    sizes = []
    while left:
        todo, size = [left.pop()], 1
        while todo:
            a = todo.pop()
            for b in [b for b in left if touch(a, b)]:
                left.remove(b)
                todo.append(b)
                size += 1
        sizes.append(size)
    return sorted(sizes, reverse=True)


@given(st.integers(0, 2 ** 32), st.integers(0, 30))
def test_group_sizes_match_a_brute_force(seed, balls):
    s = random_walk(GAME, seed, balls)
    board = cells_of(s.position)
    for colour, letter in ((WHITE, "W"), (BLACK, "B"), (RED, "R")):
        assert group_sizes(s.position, colour) == _brute_groups(board, letter)


def test_reference_model_sizes():
    assert len(ALL) == 30 and below((3, 0, 0)) == [(2, 0, 0), (2, 0, 1), (2, 1, 0), (2, 1, 1)]
    assert sum(1 for a, b in itertools.combinations(ALL, 2) if touch(a, b)) == 96


def _shapes_with_a_hidden_point(balls):
    """Every stable occupancy of `balls` balls with a level-2 ball and 3+ playable points."""
    from shibumi.geometry import SUPPORT_MASK
    from shibumi.position import playable_mask
    found = []
    for k2 in range(1, 5):
        for upper in itertools.combinations(range(25, 29), k2):
            need1 = functools.reduce(lambda m, p: m | SUPPORT_MASK[p], upper, 0)
            for k1 in range(10):
                for middle in itertools.combinations(range(16, 25), k1):
                    mid = sum(1 << p for p in middle)
                    if need1 & ~mid:
                        continue
                    need0 = functools.reduce(lambda m, p: m | SUPPORT_MASK[p], middle, 0)
                    extra = balls - k1 - k2 - need0.bit_count()
                    rest = [p for p in range(16) if not need0 >> p & 1]
                    if not 0 <= extra <= len(rest):
                        continue
                    for holes in itertools.combinations(rest, extra):
                        occ = need0 | sum(1 << p for p in holes) | mid \
                            | sum(1 << p for p in upper)
                        if playable_mask(occ).bit_count() >= 3:
                            found.append(occ)
    return found


def test_the_buried_group_cannot_hold_a_hidden_ball():
    from shibumi.geometry import TOUCHING_MASK as TOUCH, points_of
    from shibumi.position import hidden_mask, playable_mask

    def near(mask):
        return functools.reduce(lambda m, p: m | TOUCH[p], points_of(mask), 0)

    shapes = _shapes_with_a_hidden_point(24)
    assert len(shapes) == 44
    best_plus = 0
    for occ in shapes:
        hidden, spots = hidden_mask(occ), points_of(playable_mask(occ))
        fours, todo = set(), [1 << p for p in points_of(hidden)]
        while todo:                                   # connected sets of 4 with a hidden ball
            group = todo.pop()
            if group.bit_count() == 4:
                fours.add(group)
                continue
            todo += [group | 1 << q for q in points_of(near(group) & occ & ~group)]
        pairs = [1 << a | 1 << b for a in points_of(occ)
                 for b in points_of(TOUCH[a] & occ) if a < b]
        for four in fours:
            free = [e for e in pairs if not e & (four | near(four))]
            for one, two in itertools.combinations(free, 2):
                if one & (two | near(two)):
                    continue
                joins_all = [x for x in spots if TOUCH[x] & four and TOUCH[x] & one
                             and TOUCH[x] & two]
                extends = [x for x in spots if TOUCH[x] & four and not TOUCH[x] & (one | two)]
                if joins_all:
                    best_plus = max(best_plus, len(extends))
    assert best_plus == 1                              # the book needs two (+) points
