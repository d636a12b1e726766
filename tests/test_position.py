"""Positions: text and packing, placement, removal with drops, visibility."""
import pytest
from hypothesis import given, strategies as st

from shibumi import IllegalMoveError, NotationError, Position
from shibumi.geometry import COVER, NUM_POINTS, POINTS, SUPPORTED, SUPPORTS
from shibumi.position import BLACK, EMPTY, RED, WHITE

from conftest import positions


@given(positions)
def test_text_and_packing_round_trip(pos):
    assert Position(pos.text()) == pos
    assert Position.from_int(pos.to_int()) == pos
    assert pos.to_int() < 2 ** 60
    assert eval(repr(pos)) == pos and hash(eval(repr(pos))) == hash(pos)


@given(positions)
def test_reachable_positions_are_stable(pos):
    assert pos.is_stable()
    for p in POINTS:
        if pos.occupied >> p & 1:
            assert all(pos.occupied >> s & 1 for s in SUPPORTS[p])


@given(positions)
def test_playable_points_are_exactly_the_stable_empty_ones(pos):
    for p in POINTS:
        stable = all(pos.occupied >> s & 1 for s in SUPPORTS[p])
        assert pos.is_playable(p) == (not pos.occupied >> p & 1 and stable)
    assert pos.playable().bit_count() <= 16


@given(positions, st.integers(0, 29))
def test_removal_conserves_balls_and_drops_down_one_column(pos, p):
    if not pos.occupied >> p & 1:
        with pytest.raises(IllegalMoveError):
            pos.remove(p)
        return
    if pos.is_pinned(p):
        with pytest.raises(IllegalMoveError, match="pinned"):
            pos.remove(p)
        return
    after, drops = pos.remove(p)
    assert after.is_stable()
    assert after.count() == pos.count() - 1
    removed = pos.colour_at(p)
    for colour in (WHITE, BLACK, RED):
        assert after.count(colour) == pos.count(colour) - (colour == removed)
    # Each drop moves the one ball resting on the gap into the gap.
    gap = p
    for source, target in drops:
        assert target == gap and source in SUPPORTED[gap]
        assert pos.supported_balls(gap) == 1 << source
        assert after.colour_at(target) == pos.colour_at(source)
        gap = source
    assert pos.supported_balls(gap) == 0
    assert after.colour_at(gap) == EMPTY
    # Everything off the drop column is untouched.
    column = {p} | {s for s, _ in drops}
    for q in POINTS:
        if q not in column:
            assert after.colour_at(q) == pos.colour_at(q)


def test_a_two_ball_drop():
    # White a1 carries a black ball on b2 which carries a red ball on c3 (level 2).
    pos = Position("WWWW/WWWW/WWWW/WWWW|.../WW./BW.|../R.|.")
    after, drops = pos.remove(0)
    assert drops == ((16, 0), (25, 16))
    assert after.colour_at(0) == BLACK and after.colour_at(16) == RED
    assert after.colour_at(25) == EMPTY


def test_pinned_and_free():
    pos = Position("WWWW/WWWW/WWWW/WWWW|.../BB./BB.|../..|.")
    assert pos.is_pinned(4) and pos.is_pinned(5)   # a3 and c3 carry two balls
    assert not pos.is_pinned(0) and not pos.is_free(0)
    assert pos.is_free(3) and pos.is_free(16)


def test_hidden_balls():
    pos = Position("WWWW/WWWW/WWWW/WWWW|.../WW./WW.|../B.|.")
    assert pos.hidden() == 1 << 5          # c3 on the board, under c3.2
    assert pos.visible() == pos.occupied & ~(1 << 5)
    assert COVER[5] == 25


def test_illegal_placements_raise_and_change_nothing():
    pos = Position.empty()
    text = pos.text()
    with pytest.raises(IllegalMoveError, match="not playable"):
        pos.place(16, WHITE)
    with pytest.raises(IllegalMoveError, match="colour"):
        pos.place(0, 7)
    assert pos.text() == text


@pytest.mark.parametrize("text, fragment", [
    ("", "4 levels"),
    ("..../..../..../....|.../.../...|../..", "4 levels"),
    ("..../..../..../...|.../.../...|../..|.", "4 rows of 4"),
    ("..../..../..../...X|.../.../...|../..|.", "bad cell"),
    ("..../..../..../....|W../.../...|../..|.", "not resting"),
])
def test_malformed_position_text(text, fragment):
    with pytest.raises(NotationError, match=fragment):
        Position(text)


def test_positions_are_immutable():
    pos = Position.empty()
    with pytest.raises(AttributeError):
        pos.white = 1
    assert NUM_POINTS == 30


def test_activation_a_move_can_open_four_platforms():
    # Eight empty holes, no full platform: 8 playable points.  Filling c3
    # completes the four platforms round it: 7 holes + 4 platforms = 11.
    pos = Position("..../WWW./W.W./WWW.|.../.../...|../..|.")
    assert pos.playable().bit_count() == 8
    c3 = 5
    assert pos.activated_by(c3).bit_count() == 4
    assert pos.place(c3, WHITE).playable().bit_count() == 11


def _stable_sets_by_levels():
    """Stable sets of points counted level by level on the engine-free model: a
    set of balls on each level, each resting on four balls of the level below."""
    from itertools import combinations
    from reference import ALL, below

    def count(level, filled):
        if level == 4:
            return 1
        resting = [pt for pt in ALL if pt[0] == level and all(b in filled for b in below(pt))]
        return sum(count(level + 1, filled | set(chosen))
                   for k in range(len(resting) + 1) for chosen in combinations(resting, k))
    return count(0, set())


def test_a_pyramid_has_141120_stable_occupancies():
    """Every occupancy reachable by placements, counted through the engine's
    playable_mask, and again on the engine-free model: the bound the playable
    memos (shibumi.bits, also cleared past 200,000 entries) rely on."""
    from shibumi.position import playable_mask
    seen, frontier = {0}, [0]
    while frontier:
        grown = []
        for occupied in frontier:
            free = playable_mask(occupied)
            while free:
                bit = free & -free
                free ^= bit
                if occupied | bit not in seen:
                    seen.add(occupied | bit)
                    grown.append(occupied | bit)
        frontier = grown
    assert len(seen) == 141120 == _stable_sets_by_levels()
