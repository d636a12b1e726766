"""shibumi.bits: each mask primitive against its plain definition through Position."""
import random

import pytest

from shibumi.bits import (carried, flood, follow_column, group_mask, hidden_of, lift_ball, links_and_pinned,
                          neighbour_tables, next_to, nth_point, playable_cached, playable_of,
                          playable_points_cached, points_in, position_of,
                          raised, remove_ball, united, unpinned)
from shibumi.geometry import ALL_MASK, SUPPORTED_MASK, TOUCHING_MASK, points_of
from shibumi.position import (BLACK, COLOURS, RED, WHITE, Position, group_of, hidden_mask,
                              linked, playable_mask)


def _random_positions(n, seed, colours=COLOURS):
    """Stable positions of every size: random balls put on random playable points."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        pos = Position.empty()
        for _ in range(rng.randint(0, 30)):
            pos = pos.place(rng.choice(points_of(pos.playable())), rng.choice(colours))
        out.append(pos)
    return out


POSITIONS = _random_positions(600, 1)
TWO_COLOURS = _random_positions(400, 2, (WHITE, BLACK))
_RNG = random.Random(3)
#: Random 30-bit masks, dense and sparse (not positions: most are not stable).
MASKS = [_RNG.getrandbits(30) for _ in range(1000)] + \
    [_RNG.getrandbits(30) & _RNG.getrandbits(30) & _RNG.getrandbits(30) for _ in range(1000)] + \
    [0, ALL_MASK] + [1 << p for p in range(30)]


def test_points_in_lists_the_points_in_order():
    for m in MASKS + [p.occupied for p in POSITIONS]:
        assert points_in(m) == tuple(points_of(m))


def test_next_to_counts_the_neighbours_in_a_mask():
    tables = neighbour_tables(TOUCHING_MASK)
    for mask in MASKS[:300] + [0, ALL_MASK]:
        counts = [sum(1 for q in points_of(mask) if TOUCHING_MASK[q] >> p & 1)
                  for p in range(30)]
        once = sum(1 << p for p, n in enumerate(counts) if n >= 1)
        twice = sum(1 << p for p, n in enumerate(counts) if n >= 2)
        assert next_to(mask, tables) == (once, twice)


def test_nth_point_is_the_kth_of_points_of():
    for m in MASKS:
        pts = points_of(m)
        assert [nth_point(m, k) for k in range(len(pts))] == pts
        assert nth_point(m, len(pts)) == -1          # as the loop it replaces


def test_playable_of_and_its_memo_are_playable_mask():
    for m in MASKS + [p.occupied for p in POSITIONS]:
        assert playable_of(m) == playable_mask(m)
        assert playable_cached(m) == playable_mask(m)
        assert playable_cached(m) == playable_mask(m)   # from the memo
        for _ in range(2):                              # computed, then from the memo
            assert playable_points_cached(m) == tuple(points_of(playable_mask(m)))


def test_raised_is_what_a_ball_activates():
    for pos in POSITIONS:
        occ = pos.occupied
        for p in points_of(pos.playable()):
            assert raised(occ, p) == pos.activated_by(p)
            assert pos.playable() & ~(1 << p) | raised(occ, p) == playable_mask(occ | 1 << p)


def test_hidden_of_is_hidden_mask():
    for m in MASKS + [p.occupied for p in POSITIONS]:
        assert hidden_of(m) == hidden_mask(m)


def test_unpinned_keeps_the_movable_balls():
    rng = random.Random(5)
    for pos in POSITIONS:
        occ = pos.occupied
        for mask in (occ, pos.white, pos.red, occ & rng.getrandbits(30)):
            assert unpinned(mask, occ) == mask & pos.movable()


def test_carried_gives_covered_and_pinned_balls():
    for pos in POSITIONS:
        occ = pos.occupied
        covered = sum(1 << p for p in points_of(occ) if pos.supported_balls(p))
        pinned = sum(1 << p for p in points_of(occ) if pos.is_pinned(p))
        assert carried(occ) == (covered, pinned)


def test_remove_ball_and_follow_column_are_position_remove():
    rng = random.Random(6)
    for pos in POSITIONS:
        for p in points_of(pos.movable()):
            after, drops = pos.remove(p)
            followed = rng.getrandbits(30) & pos.occupied
            masks = [pos.white, pos.black, pos.red]
            occ, column = remove_ball(masks, pos.occupied, p)
            traced = follow_column(followed & ~(1 << p), p, column)
            assert masks == [after.white, after.black, after.red]
            assert occ == after.occupied
            assert column == sum(1 << q for q, _ in drops)
            moved = followed & ~(1 << p)
            for q, gap in drops:                    # lowest first: each frees q for the next
                if moved >> q & 1:
                    moved ^= 1 << q | 1 << gap
            assert traced == moved


def test_lift_ball_is_position_remove_on_two_colours():
    for pos in TWO_COLOURS:
        for source in points_of(pos.movable()):
            after, drops = pos.remove(source)
            mine, theirs = (pos.white, pos.black) if pos.white >> source & 1 \
                else (pos.black, pos.white)
            own, other, fell = lift_ball(source, mine, theirs, pos.occupied)
            expected = (after.white, after.black) if mine == pos.white \
                else (after.black, after.white)
            assert (own, other) == expected
            assert fell == sum(SUPPORTED_MASK[gap] for _, gap in drops)


def test_position_of_is_from_masks():
    for pos in TWO_COLOURS:
        made = position_of(pos.white, pos.black)
        assert made == Position.from_masks(pos.white, pos.black) == pos
        assert made.occupied == pos.occupied and made.red == 0


@pytest.mark.parametrize("visible", [True, False])
def test_group_mask_and_united_are_group_of(visible):
    for pos in POSITIONS:
        occ = pos.occupied
        for colour in COLOURS:
            mine = pos.mask(colour)
            for p in points_of(mine):
                expected = group_of(p, mine, occ, visible)
                assert group_mask(p, mine, occ, visible) == expected
                assert group_mask(p, mine, occ, visible, hidden_mask(occ)) == expected
            whole = bool(mine) and group_of((mine & -mine).bit_length() - 1, mine, occ,
                                            visible) == mine
            assert united(mine, occ, visible) == whole


@pytest.mark.parametrize("visible", [True, False])
def test_links_and_pinned_and_flood_are_linked_and_group_of(visible):
    for pos in POSITIONS:
        occ = pos.occupied
        links, pinned = links_and_pinned(occ, visible)
        assert pinned & occ == sum(1 << p for p in points_of(occ) if pos.is_pinned(p))
        for p in points_of(occ):
            assert links[p] & occ == linked(p, occ, visible)
            mine = pos.mask(pos.colour_at(p))
            assert flood(1 << p, mine, links) == group_of(p, mine, occ, visible)


def test_red_is_just_another_mask():
    pos = Position.from_masks(red=0b110011).place(16, RED)
    masks = [pos.white, pos.black, pos.red]
    assert remove_ball(masks, pos.occupied, 0) == (0b110011, 1 << 16)
    assert masks == [0, 0, 0b110011]
