"""Spyramid: add or move balls; five corners of a pyramid win."""
import itertools
import math
import random

import pytest
from hypothesis import given, strategies as st

import shibumi.games.spyramid  # noqa: F401  (registers the game)
from conformance import check_playouts, check_random_games
from conftest import random_position
from shibumi import IllegalMoveError, Move, UnknownGameError, load
from shibumi.analysis import perft
from shibumi.games.spyramid import (BOOK_UPRIGHT, INVERTED, PYRAMID_SETS, ROTATED,
                                    UPRIGHT, board_table, count_moves, loaded_targets,
                                    nth_relocation, occupancy_info, upper_record)
from shibumi.geometry import LEVEL, SUPPORTED, point_at, points_of
from shibumi.mechanics import relocations
from shibumi.notation import point_name
from shibumi.position import BLACK, WHITE, Position

GAME = load("spyramid")


def state(text, to_move=1, ply=30, game=GAME):
    return game.parse_state(f"{text} {to_move} ply={ply}")


def names(mask):
    return sorted(point_name(p) for p in points_of(mask))


@pytest.mark.parametrize("params", [{"rotated": True}, {"pyramids": "designer"},
                                    {"pyramids": "book"},
                                    {"pyramids": "book", "rotated": True, "move_limit": 40}])
def test_variants_play_to_the_end(params):
    check_random_games("spyramid", seeds=range(8), **params)
    check_playouts("spyramid", games=120, **params)


def test_fast_playouts_play_the_rules_games():
    check_playouts("spyramid", games=400)


def test_fast_playouts_pass_like_the_rules():
    # A player with no move passes (a rare case in random games: this one is
    # replayed through its pass from a few actions before it, with the same draws).
    game = load("spyramid", pyramids="book")
    s, rng = game.initial_state(), random.Random(227)
    states = [(s, rng.getstate())]
    while not game.is_terminal(s):
        s = game.random_step(s, rng)
        states.append((s, rng.getstate()))
    at = next(i for i, (t, _) in enumerate(states) if t.last and t.last.kind == "pass")
    for start, drawn in states[at - 4:at]:
        fast_rng = random.Random()
        fast_rng.setstate(drawn)
        assert game.random_playout(start, fast_rng) == s
        assert fast_rng.getstate() == rng.getstate()


def test_declaration_and_parameters():
    assert load("spynamid").info is GAME.info       # the book's misspelt heading
    assert GAME.info.max_length == 200
    for bad in ({"pyramids": "some"}, {"move_limit": 201}, {"rotated": 1}):
        with pytest.raises(UnknownGameError):
            load("spyramid", **bad)


# -- the pyramids in the lattice --------------------------------------------------------
#
# Counted independently: every set of four points of one level whose six
# distances are four equal sides and two equal diagonals (a square), and
# every fifth point at the side's distance from all four corners (a regular
# pyramid), using the ball centres in space.

def _centre(p):
    lv = LEVEL[p]
    level_points = [q for q in range(30) if LEVEL[q] == lv]
    index = level_points.index(p)
    n = 4 - lv
    x, y = index % n, index // n
    return (x + lv / 2, y + lv / 2, lv / math.sqrt(2))


def _regular_pyramids():
    found = []
    for lv in range(4):
        pts = [p for p in range(30) if LEVEL[p] == lv]
        for quad in itertools.combinations(pts, 4):
            d = sorted(math.dist(_centre(a), _centre(b))
                       for a, b in itertools.combinations(quad, 2))
            if not (math.isclose(d[0], d[3]) and math.isclose(d[4], d[5])
                    and math.isclose(d[4], d[0] * math.sqrt(2))):
                continue
            for top in range(30):
                if top not in quad and all(math.isclose(math.dist(_centre(top), _centre(q)),
                                                        d[0]) for q in quad):
                    found.append((sum(1 << q for q in quad) | 1 << top, LEVEL[top] > lv))
    return found


def test_the_lattice_holds_25_regular_pyramids_not_14():
    found = _regular_pyramids()
    assert len(found) == 25
    assert sorted(m for m, up in found if up) == sorted(UPRIGHT)
    assert sorted(m for m, up in found if not up) == sorted(INVERTED)
    assert (len(UPRIGHT), len(INVERTED)) == (20, 5)
    sizes = sorted(max(LEVEL[p] for p in points_of(m)) - min(LEVEL[p] for p in points_of(m))
                   for m in UPRIGHT)
    assert sizes == [1] * 14 + [2] * 5 + [3]          # 2x2, 3x3 and 4x4 bases
    # The book's 14 are the upright ones standing on the board: 9 + 4 + 1.
    assert len(BOOK_UPRIGHT) == 14
    assert all(min(LEVEL[p] for p in points_of(m)) == 0 for m in BOOK_UPRIGHT)
    assert len(PYRAMID_SETS["all"]) == 25
    # The designer's listing: those 14 and the 5 upside-down ones.
    assert sorted(PYRAMID_SETS["designer"]) == sorted(BOOK_UPRIGHT + INVERTED)
    assert len(PYRAMID_SETS["designer"]) == 19
    # The book's number taken literally: the 14 alone, all pointing up.
    assert sorted(PYRAMID_SETS["book"]) == sorted(BOOK_UPRIGHT)
    assert not set(PYRAMID_SETS["book"]) & set(INVERTED)


def test_rotated_pyramids():
    assert len(ROTATED) == 5
    assert names(ROTATED[0]) == ["a3", "c1", "c3.2", "c5.0", "e3.0"]
    assert all(m not in UPRIGHT + INVERTED for m in ROTATED)
    # None is regular: no fifth point is equally far from a rotated square's corners.
    assert not set(ROTATED) & {m for m, _ in _regular_pyramids()}


# -- winning -------------------------------------------------------------------------------

# The book's example (figure lost), rebuilt: Black owns a1, e1, a5 and e5, the
# corners of a 3x3 square on the board, and level 1 holds b2, d2, b4, d4 under
# c3.2. No pyramid is finished for either player.
BOOK = "WWBW/BWBW/WWBB/BWBW|.../WB./BW.|../..|."


def test_book_example_black_tops_a_three_by_three_pyramid():
    s = state(BOOK, to_move=2, ply=21)
    assert s.result is None
    m = GAME.new_match(state=s)
    assert m.push("c3") == Move("Bc3.2")
    assert m.outcome().winners == (1,)
    m.pop()
    m.push("f2")                                   # anything else: no pyramid
    assert m.outcome() is None


def test_an_upside_down_pyramid_wins_except_in_the_book_variant():
    # White's c3 carries b2, d2 and b4; d4 completes the upside-down pyramid.
    text = "BWBW/WBWB/BWWW/WBWB|.../W../WW.|../..|."
    for kind, winners in (("all", (0,)), ("designer", (0,)), ("book", None)):
        game = load("spyramid", pyramids=kind)
        m = game.new_match(state=state(text, game=game))
        m.push("d4")
        assert (m.outcome() and m.outcome().winners) == winners, kind


def test_level_one_bases_count_only_by_default():
    # White's b2 d2 b4 d4 are the base of a 2x2 pyramid on level 1.
    text = "BWBW/BBWB/BBBW/WBWB|.../WW./WW.|../..|."
    m = GAME.new_match(state=state(text))
    m.push("c3")
    assert m.outcome().winners == (0,)
    for kind in ("designer", "book"):
        game = load("spyramid", pyramids=kind)
        m = game.new_match(state=state(text, game=game))
        m.push("c3")
        assert m.outcome() is None, kind


def test_the_book_example_wins_in_every_variant():
    # A 3x3 base on the board is one of the book's 14.
    for kind in ("all", "designer", "book"):
        game = load("spyramid", pyramids=kind)
        m = game.new_match(state=state(BOOK, to_move=2, ply=21, game=game))
        m.push("c3")
        assert m.outcome().winners == (1,), kind


def test_rotated_variant():
    # White holds c1, a3, e3 and c5 around the black c3; c3.2 above it.
    text = "BWBW/BWBW/WBWB/BWBW|.../BW./BB.|../..|."
    plain = GAME.new_match(state=state(text))
    plain.push("c3")
    assert plain.outcome() is None
    rotated = load("spyramid", rotated=True)
    m = rotated.new_match(state=state(text, game=rotated))
    m.push("c3")
    assert m.outcome().winners == (0,)


# White to move. Lifting White's d2 drops Black's c3.2 into d2, which tops
# Black's c1 e1 c3 e3 square; putting the lifted ball on f6 tops White's
# e5 g5 e7 g7 square at the same moment.
BOTH = "BBWW/BWWW/WBBB/WBBW|.../WW./WW.|../B.|."


def test_when_both_colours_form_a_pyramid_the_mover_wins():
    m = GAME.new_match(state=state(BOTH))
    m.push("d2>f6")
    assert m.outcome().winners == (0,)
    assert GAME.has_pyramid(m.state.position, BLACK)
    m.pop()
    m.push("d2>b6")                               # only Black's pyramid forms
    assert m.outcome().winners == (1,)


def test_a_moved_ball_may_not_land_on_a_ball_that_dropped():
    m = GAME.new_match(state=state(BOTH))
    assert Move("d2>c3.2") not in m.legal_moves()
    with pytest.raises(IllegalMoveError):
        m.push("d2>c3.2")
    # c3.2 is where the black ball came from; d2 now holds it.
    targets = sorted(point_name(mv.target) for mv in m.legal_moves()
                     if mv.kind == "move" and mv.point == point_at(1, 1, 0))
    assert targets == ["b6", "d6", "f2", "f4", "f6"]


def test_pinned_balls_do_not_move_and_moves_must_go_elsewhere():
    m = GAME.new_match(state=state(BOTH))
    sources = {point_name(mv.point) for mv in m.legal_moves() if mv.kind == "move"}
    assert "c5.0" not in sources                   # holds up b4 and d4
    assert "g7" in sources                         # a free corner ball
    assert Move("g7>g7") not in m.legal_moves()


def test_sixteen_balls_each():
    # All 16 white balls are on the pyramid (no pyramid yet): White may only
    # move balls; Black, with 5 on it, may still add.
    text = "BWWW/WWBW/WWWW/WBWW|.B./BWW/.WB|../..|."
    s = state(text)
    assert s.result is None and s.position.count(WHITE) == 16
    assert {mv.kind for mv in GAME.legal_moves(s)} == {"move"}
    assert "place" in {mv.kind for mv in GAME.legal_moves(state(text, to_move=2))}


def test_a_full_pyramid_without_a_pyramid_is_a_draw():
    # A complete pyramid of 16 white and 14 black holding no single-coloured
    # pyramid (found by search): no ball can move, so nobody can ever win.
    black = [10, 15, 16, 17, 18, 19, 21, 22, 23, 24, 25, 26, 27, 28]
    pos = Position.from_masks(white=(1 << 30) - 1 - sum(1 << p for p in black),
                              black=sum(1 << p for p in black))
    assert (pos.count(WHITE), pos.count(BLACK)) == (16, 14)
    assert not GAME.has_pyramid(pos, WHITE) and not GAME.has_pyramid(pos, BLACK)
    s = state(pos.text())
    assert s.result.is_draw and s.result.reason == "neither player can move"


def test_move_limit():
    short = load("spyramid", move_limit=4)
    m = short.new_match()
    for move in ("a1", "g7", "a1>c1", "g7>e7"):
        m.push(move)
    assert m.outcome().is_draw and "4 actions" in m.outcome().reason


def test_state_text():
    s = state(BOTH)
    assert GAME.state_text(s) == f"{BOTH} 1 ply=30"
    for bad in (f"{BOTH} 1 ply=3", f"{BOTH} 1", f"{BOTH.replace('W', 'R', 1)} 1 ply=30"):
        with pytest.raises(ValueError):
            GAME.parse_state(bad)


# -- the fast generator agrees with the engine's relocations ------------------------------

@given(st.integers(0, 2 ** 32), st.integers(0, 30))
def test_relocations_match_the_mechanics(seed, balls):
    pos = random_position(seed, balls, colours=(WHITE, BLACK))
    if pos.count(WHITE) > 16 or pos.count(BLACK) > 16:
        return
    s = GAME.settle(type(GAME.initial_state())(pos, 0, None, None, 30))
    ours = {(m.point, m.target) for m in GAME._moves(pos, 0) if m.kind == "move"}
    theirs = {(src, tgt) for src, tgt, _, _ in relocations(pos, pos.white)}
    assert ours == theirs
    for m in GAME._moves(pos, 0)[:5]:
        GAME.apply(s, m)


@given(st.integers(0, 2 ** 32), st.integers(0, 30))
def test_move_counts_and_indexing_match_the_move_list(seed, balls):
    # The playout counts the moves of an occupancy without listing them and
    # finds the k-th relocation directly: both agree with the legal moves.
    pos = random_position(seed, balls, colours=(WHITE, BLACK))
    info = occupancy_info(pos.occupied)
    for player, mine in enumerate((pos.white, pos.black)):
        moves = GAME._moves(pos, player)
        relocations = [(m.point, m.target) for m in moves if m.kind == "move"]
        places = len(moves) - len(relocations)
        assert count_moves(mine, info) == (places, len(relocations))
        assert [nth_relocation(k, mine, info) for k in range(len(relocations))] == relocations


@given(st.integers(0, 2 ** 32), st.integers(0, 30))
def test_occupancy_info_from_its_memoised_parts_matches_the_position(seed, balls):
    # The balls carried are tabled by the balls above the board, and the counts
    # of playable points over each ball by the playable points above the board.
    pos = random_position(seed, balls, colours=(WHITE, BLACK))
    occ = pos.occupied
    playable, free, unders, loaded, _, partial, places, _, points = occupancy_info(occ)
    assert points == tuple(points_of(playable))
    assert playable == pos.playable() and places == playable.bit_count()
    resting = [sum(1 for q in SUPPORTED[p] if occ >> q & 1) for p in range(30)]
    assert free == sum(1 << p for p in range(30) if occ >> p & 1 and resting[p] == 0)
    assert loaded == sum(1 << p for p in range(30) if occ >> p & 1 and resting[p] == 1)
    for p in range(30):
        over = sum(1 for q in SUPPORTED[p] if playable >> q & 1)
        assert sum(1 for under in unders if under >> p & 1) == over
    assert partial == sum(1 << p for p in range(30) if free >> p & 1 and resting[p] == 0
                          and any(playable >> q & 1 for q in SUPPORTED[p]))


@given(st.integers(0, 2 ** 32), st.integers(0, 30))
def test_playout_records_match_the_occupancy_info(seed, balls):
    # The playout reads the playable points from a record of the board level and
    # one of the balls above it, and the targets of loaded balls from the latter.
    pos = random_position(seed, balls, colours=(WHITE, BLACK))
    occ = pos.occupied
    info = occupancy_info(occ)
    covered, loaded, keeps, up = upper_record(occ >> 16)
    playable = (board_table()[occ & 0xFFFF] | up) & ~occ
    assert playable == info[0] == pos.playable()
    assert occ & ~covered == info[1] and loaded == info[3]
    assert sorted(keeps) == [1 << p for p in points_of(loaded)]
    for low, keep in keeps.items():
        assert playable & keep == loaded_targets(low.bit_length() - 1, info)


# -- perft -----------------------------------------------------------------------------------
#
# An independent count on coordinates: balls in a dict {(level, x, y): colour};
# a lift drops the column above one ball at a time; the ball may go to any
# playable point except where it was and except on top of a ball that
# dropped; pyramids are the regular ones found above from distances.

def _pt(p):
    lv = LEVEL[p]
    cx, cy, _ = _centre(p)
    return (lv, int(cx - lv / 2), int(cy - lv / 2))


PYRAMIDS = [frozenset(_pt(p) for p in points_of(m)) for m, _ in _regular_pyramids()]
POINTS = [(lv, x, y) for lv in range(4) for y in range(4 - lv) for x in range(4 - lv)]


def _below(lv, x, y):
    return [(lv - 1, x + dx, y + dy) for dx in (0, 1) for dy in (0, 1)]


def _above(lv, x, y):
    return [(lv + 1, x - dx, y - dy) for dx in (0, 1) for dy in (0, 1)
            if 0 <= x - dx < 3 - lv and 0 <= y - dy < 3 - lv]


def _playable(balls, pt):
    return pt not in balls and (pt[0] == 0 or all(b in balls for b in _below(*pt)))


def _children(balls, colour):
    out = []
    if sum(1 for c in balls.values() if c == colour) < 16:
        out += [{**balls, pt: colour} for pt in POINTS if _playable(balls, pt)]
    for src, c in balls.items():
        if c != colour or sum(1 for a in _above(*src) if a in balls) > 1:
            continue
        lifted, gap, dropped = dict(balls), src, []
        del lifted[src]
        while True:
            on = [a for a in _above(*gap) if a in lifted]
            if not on:
                break
            lifted[gap] = lifted.pop(on[0])
            dropped.append(gap)
            gap = on[0]
        for pt in POINTS:
            if pt == src and not dropped:
                continue
            if _playable(lifted, pt) and not any(pt in _above(*d) for d in dropped):
                out.append({**lifted, pt: colour})
    return out


def _won(balls):
    return any(len({balls.get(q) for q in pyr}) == 1 and None not in {balls.get(q) for q in pyr}
               for pyr in PYRAMIDS)


def _brute_count(balls, player, depth):
    if depth == 0:
        return 1
    if _won(balls):
        return 0
    return sum(_brute_count(child, 1 - player, depth - 1)
               for child in _children(balls, "WB"[player]))


def _dict(position):
    return {pt: ".WB"[position.colour_at(point_at(*pt))] for pt in POINTS
            if position.occupied >> point_at(*pt) & 1}


def test_perft_from_the_start():
    counts = [perft(GAME, d) for d in range(1, 5)]
    # By hand: 16 holes; 15 for Black; White then places one of 14 or moves
    # its ball to one of 14 (28); Black has 13 + 13 after a White placement
    # and 14 + 14 after a White move: 3360 * 26 + 3360 * 28 = 181440.
    assert counts == [16, 240, 6720, 181440]
    assert counts[:3] == [_brute_count({}, 0, d) for d in range(1, 4)]


@pytest.mark.parametrize("text, to_move, expected", [(BOTH, 1, [46, 769]),
                                                    (BOOK, 2, [39, 1294])])
def test_perft_where_drops_and_pyramids_matter(text, to_move, expected):
    s = state(text, to_move)
    counts = [perft(GAME, d, s) for d in range(1, 3)]
    assert counts == expected
    assert counts == [_brute_count(_dict(s.position), to_move - 1, d) for d in range(1, 3)]
