"""Counting fillings, positions and symmetry classes, each count by two routes."""
import math
import random

import numpy as np
import pytest

from shibumi import geometry
from shibumi.maths import counting
from shibumi.maths.counting import (SHIBUMI, burnside_classes, centred_square,
                                    classes_by_orbits, coloured_orbits_direct,
                                    coloured_positions, cycles, evaluate, filling_polynomial,
                                    filling_polynomial_bruteforce, filling_polynomial_topdown,
                                    filling_series, fixed_polynomial_by_cycles,
                                    fixed_polynomials, is_stable_mask, orbits_direct,
                                    polynomial_from_sets, pyramid, square_pyramidal,
                                    stable_sets, summary)
from shibumi.position import Position

#: F(x) of the Shibumi pyramid, constant term first (fillings by number of balls).
SHIBUMI_F = (1, 16, 120, 560, 1820, 4377, 8116, 12034, 14862, 16023, 15764, 14562, 12780,
             10709, 8588, 6592, 4846, 3412, 2302, 1490, 924, 552, 316, 174, 93, 47, 24, 10,
             4, 1, 1)
#: Fillings fixed by each symmetry, in the order of geometry.SYMMETRIES.
FIXED = (141120, 34, 496, 34, 826, 826, 2164, 2164)


def test_pyramidal_and_visible_numbers():
    assert [square_pyramidal(n) for n in range(1, 6)] == [1, 5, 14, 30, 55]
    assert square_pyramidal(4) == sum(geometry.SIZES[lv] ** 2 for lv in range(4)) == 30
    assert centred_square(4) == 25 == bin(geometry.EXTERIOR_MASK).count("1")
    assert centred_square(5) == 41
    import sympy
    n = sympy.Symbol("n")
    assert square_pyramidal(n).subs(n, 4) == 30
    assert sympy.factor(square_pyramidal(n) - centred_square(n)) == \
        sympy.factor((n - 2) * (n - 1) * (2 * n - 3) / 6)
    assert sympy.summation(sympy.Symbol("k") ** 2, (sympy.Symbol("k"), 1, n)).equals(
        square_pyramidal(n))


def test_generic_pyramid_is_the_engine_geometry():
    P = pyramid(4)
    assert P.coords == geometry.COORDS
    assert P.supports == geometry.SUPPORT_MASK
    assert P.symmetries == geometry.SYMMETRIES
    assert P == SHIBUMI and SHIBUMI.size == 30
    assert [len(lv) for lv in SHIBUMI.levels] == [16, 9, 4, 1]


def test_stable_sets_are_the_engines_stable_positions():
    sets = stable_sets()
    assert sets.size == 141120 == len(set(sets.tolist()))
    rng = random.Random(3)
    for s in rng.sample(sets.tolist(), 3000):
        assert Position.from_masks(white=int(s)).is_stable()
        assert is_stable_mask(SHIBUMI, int(s))
    # and unstable sets are missing: random subsets, judged by the engine
    members = set(sets.tolist())
    for _ in range(3000):
        s = rng.getrandbits(30) & rng.getrandbits(30) | rng.getrandbits(16)
        assert (s in members) == Position.from_masks(white=s).is_stable()


def test_random_game_positions_are_counted():
    from conftest import random_position
    members = set(stable_sets().tolist())
    for seed in range(200):
        pos = random_position(seed, seed % 31)
        assert pos.occupied in members


def test_filling_polynomial_three_ways():
    dp = filling_polynomial()
    assert dp == SHIBUMI_F
    assert filling_polynomial_topdown() == dp
    assert polynomial_from_sets(stable_sets(), 30) == dp
    assert evaluate(dp, 1) == 141120
    assert dp[30] == dp[29] == 1 and dp[28] == 4   # full; without the apex; one of level 2


@pytest.mark.parametrize("base", [1, 2, 3])
def test_filling_polynomial_bruteforce_small(base):
    P = pyramid(base)
    brute = filling_polynomial_bruteforce(P, chunk_bits=8)
    assert brute == filling_polynomial(P) == filling_polynomial_topdown(P)
    assert polynomial_from_sets(stable_sets(P), P.size) == brute
    assert evaluate(brute, 1) == {1: 2, 2: 17, 3: 690}[base]


def test_bruteforce_on_two_chunks_of_the_pyramid():
    # the first two chunks of 2^22 subsets are those below 2^23: a partial sum,
    # compared with the fillings of the list that are below 2^23
    part = filling_polynomial_bruteforce(SHIBUMI, chunk_bits=22,
                                         progress=lambda it: list(it)[:2])
    low = stable_sets()
    assert part == polynomial_from_sets(low[low < (1 << 23)], 30)
    assert sum(part) == int((low < (1 << 23)).sum()) > 0


@pytest.mark.slow
def test_filling_polynomial_bruteforce_all_two_to_the_thirty():
    assert filling_polynomial_bruteforce(SHIBUMI) == SHIBUMI_F


def test_positions_with_colours():
    assert evaluate(SHIBUMI_F, 2) == 16392458849
    assert evaluate(SHIBUMI_F, 3) == 608107505819494
    # F(c) by a sum over the list, independently of the polynomial
    k = np.bitwise_count(stable_sets()).astype(object)
    assert sum(2 ** int(j) for j in k) == 16392458849
    assert sum(3 ** int(j) for j in k) == 608107505819494
    poly = filling_series()
    assert poly.degree() == 30 and poly.eval(3) == 608107505819494


def test_cycles():
    assert cycles((1, 2, 0, 3)) == [(0, 1, 2), (3,)]
    rot = SHIBUMI.symmetries[1]
    assert sorted(len(c) for c in cycles(rot)) == [1, 1] + [4] * 7
    assert sum(len(c) for c in cycles(geometry.SYMMETRIES[6])) == 30


def test_fixed_fillings_two_ways():
    polys = fixed_polynomials()
    assert tuple(evaluate(p, 1) for p in polys) == FIXED
    assert polys[0] == SHIBUMI_F       # the identity fixes everything, cycles are points
    for g in range(8):
        assert fixed_polynomial_by_cycles(SHIBUMI, g) == polys[g]


def test_burnside_against_direct_orbits():
    assert burnside_classes(SHIBUMI, 1) == orbits_direct() == 18458
    assert sum(FIXED) == 8 * 18458


@pytest.mark.parametrize("base", [1, 2, 3])
def test_burnside_on_small_pyramids(base):
    P = pyramid(base)
    assert burnside_classes(P, 1) == orbits_direct(P)
    for colours in (1, 2, 3) if base < 3 else (1, 2):
        assert burnside_classes(P, colours) == coloured_orbits_direct(P, colours) \
            == classes_by_orbits(P, colours)
        assert coloured_positions(P, colours).size == evaluate(filling_polynomial(P), colours)


@pytest.mark.slow
def test_burnside_three_colours_base_three_directly():
    P = pyramid(3)
    assert burnside_classes(P, 3) == coloured_orbits_direct(P, 3) == 1639246


def test_coloured_codes_use_the_engines_packing():
    # 2 bits a point, 0 empty and the engine's colour numbers, as in Position.to_int
    from shibumi.position import BLACK, RED, WHITE
    assert (WHITE, BLACK, RED) == (1, 2, 3)
    P = pyramid(2)
    codes = coloured_positions(P, 3)
    assert len(set(codes.tolist())) == codes.size == 499
    sets = set(stable_sets(P).tolist())
    for c in codes.tolist():
        occupied = sum(1 << p for p in range(P.size) if c >> (2 * p) & 3)
        assert occupied in sets
    pos = Position.from_masks(white=1, black=2, red=4)
    assert pos.to_int() == 1 | 2 << 2 | 3 << 4


def test_coloured_classes_two_ways():
    assert burnside_classes(SHIBUMI, 2) == classes_by_orbits(SHIBUMI, 2) == 2050907521
    assert burnside_classes(SHIBUMI, 3) == classes_by_orbits(SHIBUMI, 3) == 76015440347953
    assert classes_by_orbits(SHIBUMI, 1) == 18458


def test_summary_and_bits():
    s = summary()
    assert s["fillings"] == {"all": 141120, "classes": 18458, "bits": math.log2(141120),
                             "class_bits": math.log2(18458)}
    assert s["two colours"]["all"] == 16392458849
    assert s["three colours"]["classes"] == 76015440347953
    assert 49 < s["three colours"]["bits"] < 50 < 60
    assert math.ceil(s["three colours"]["bits"]) == 50
    # the engine's packing fits every position in 60 bits, and round-trips
    pos = Position.from_masks(white=int(stable_sets()[-1]))
    assert pos.to_int() < 2 ** 60 and Position.from_int(pos.to_int()) == pos


def test_burnside_rejects_a_non_group():
    with pytest.raises(AssertionError):
        burnside_classes(SHIBUMI, 1, polys=[SHIBUMI_F, (0, 1)])
