"""The pyramid's tables against facts the rule book states or geometry implies."""
import math

from shibumi.geometry import (CENTRE, CONTACTS, COORDS, COVER, EXTERIOR_MASK,
                              INTERIOR_MASK, LEVEL, LINES, ON_SIDES, PLATFORMS,
                              POINTS, SUPPORTS, SYMMETRIES, TOUCHING, segments)
from shibumi.position import Position


def test_level_sizes_make_thirty_points():
    assert [sum(1 for p in POINTS if LEVEL[p] == lv) for lv in range(4)] == [16, 9, 4, 1]


def test_touching_balls_are_one_diameter_apart_and_others_further():
    for a in POINTS:
        for b in POINTS:
            if a != b:
                d = math.dist(CENTRE[a], CENTRE[b])
                assert (b in TOUCHING[a]) == math.isclose(d, 1.0), (a, b, d)
                assert d > 1 - 1e-9


def test_supports_are_the_four_touching_points_below():
    for p in POINTS:
        below = [q for q in TOUCHING[p] if LEVEL[q] == LEVEL[p] - 1]
        assert sorted(below) == sorted(SUPPORTS[p])
        assert len(SUPPORTS[p]) == (0 if LEVEL[p] == 0 else 4)


def test_cover_is_straight_above_two_levels_up():
    for p in POINTS:
        if COVER[p] is not None:
            (x0, y0, _), (x1, y1, _) = CENTRE[p], CENTRE[COVER[p]]
            assert (x0, y0) == (x1, y1) and LEVEL[COVER[p]] == LEVEL[p] + 2
    assert bin(INTERIOR_MASK).count("1") == 5 and bin(EXTERIOR_MASK).count("1") == 25


def test_complete_pyramid_has_96_contacts_of_which_60_visible():
    full = Position("WWWW/WWWW/WWWW/WWWW|WWW/WWW/WWW|WW/WW|W")
    assert len(CONTACTS) == 96
    visible = sum(bin(full.touching(p)).count("1") for p in POINTS) // 2
    assert visible == 60


def test_overpass_cuts_the_contact_beneath_it():
    # White b3? Board c3-e3 touch; two level-1 balls d2 and d4 pass over that contact.
    base = Position("..../..../WBWW/BBBB|.../.../...|../..|.")
    c3, e3 = 5, 6
    assert base.touching(c3) >> e3 & 1
    covered = Position("BBBB/BBBB/BWWB/BBBB|.../BB./.B.|../..|.")
    assert covered.colour_at(c3) == covered.colour_at(e3) == 1
    assert not covered.touching(c3) >> e3 & 1
    one_only = Position("BBBB/BBBB/BWWB/BBBB|.../.../.B.|../..|.")
    assert one_only.touching(c3) >> e3 & 1


def test_lines_and_platforms():
    assert [len(line) for line in LINES].count(4) == 10
    assert [len(line) for line in LINES].count(3) == 8
    assert [len(line) for line in LINES].count(2) == 6
    assert len(PLATFORMS) == 14
    assert len(segments(3)) == 2 * (2 * 4 + 2 * 2) + (2 * 3 + 2) * 1  # 24 + 8 = 32


def test_sides_only_on_the_board_edge():
    assert sum(1 for p in POINTS if ON_SIDES[p]) == 12
    assert ON_SIDES[0] == ("left", "bottom") and ON_SIDES[16] == ()


def test_symmetries_are_permutations_preserving_every_relation():
    assert len(set(SYMMETRIES)) == 8
    for perm in SYMMETRIES:
        assert sorted(perm) == list(POINTS)
        for p in POINTS:
            assert LEVEL[perm[p]] == LEVEL[p]
            assert sorted(perm[q] for q in TOUCHING[p]) == sorted(TOUCHING[perm[p]])
            assert sorted(perm[q] for q in SUPPORTS[p]) == sorted(SUPPORTS[perm[p]])
    for perm in SYMMETRIES:  # lines map to lines
        assert {frozenset(perm[p] for p in line) for line in LINES} == \
            {frozenset(line) for line in LINES}


def test_coords_and_points_agree():
    assert all(COORDS[p][0] == LEVEL[p] for p in POINTS)


def test_runs_seen_straight_from_above():
    from shibumi.geometry import sloped_runs, touching_runs
    assert len(touching_runs(2)) == len(CONTACTS) == 96     # every contact is a run of 2
    assert len(sloped_runs(4)) == 4                          # the four ridges to the apex
    assert all(run[-1] == 29 or run[0] == 29 for run in sloped_runs(4))
    for run in touching_runs(4):
        assert all(b in TOUCHING[a] for a, b in zip(run, run[1:]))
