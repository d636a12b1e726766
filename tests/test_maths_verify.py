"""Exhaustive Span check (numpy) and what hidden contacts would break."""
import random

import numpy as np
import pytest

from shibumi import load
from shibumi.geometry import ALL_MASK, INTERIOR, SIDE_MASK, points_of
from shibumi.maths import verify
from shibumi.maths.verify import (COLOURINGS, VISIBLE, hidden_contacts_counterexamples,
                                  hidden_contacts_example, interior_irrelevant,
                                  physical_both_counts, physical_winners, position_of,
                                  span_winners, verify_span)
from shibumi.position import WHITE, BLACK

SPAN = load("span")


def engine_winners(position):
    """Span's own win check: does some ball of the player on their first side win?"""
    out = []
    for player, (colour, first) in enumerate(((WHITE, "left"), (BLACK, "bottom"))):
        starts = position.mask(colour) & SIDE_MASK[first]
        out.append(any(SPAN.result_after(position, p, player) is not None
                       for p in points_of(starts)))
    return tuple(out)


def test_interior_balls_do_not_matter():
    assert interior_irrelevant()
    assert len(VISIBLE) == 25 and COLOURINGS == 2 ** 25
    rng = random.Random(5)
    for _ in range(50):
        c = rng.getrandbits(25)
        results = {engine_winners(position_of(c, i)) for i in (0, 31, rng.getrandbits(5))}
        assert len(results) == 1


def test_vectorised_connectivity_matches_span_result_after():
    rng = random.Random(2024)
    cols = [rng.getrandbits(25) for _ in range(3000)]
    white, black = span_winners(np.array(cols, dtype=np.uint32))
    for c, w, b in zip(cols, white, black):
        assert engine_winners(position_of(c, rng.getrandbits(5))) == (bool(w), bool(b))


def test_edge_colourings():
    white, black = span_winners(np.array([0, 2 ** 25 - 1], dtype=np.uint32))
    assert list(white) == [False, True] and list(black) == [True, False]


def test_verify_span_on_every_colouring():
    seen = []
    r = verify_span(progress=lambda it: (seen.append(b) or b for b in it))
    assert r == {"colourings": 2 ** 25, "white": 2 ** 24, "black": 2 ** 24,
                 "both": 0, "neither": 0}
    assert r["white"] + r["black"] == r["colourings"]
    assert seen == list(range(32))


def test_verify_span_on_some_blocks():
    r = verify_span(blocks=[3, 17])
    assert r["colourings"] == 2 * 2 ** 20
    assert r["white"] + r["black"] == r["colourings"] and r["both"] == r["neither"] == 0


def test_mirror_swaps_the_players():
    rng = random.Random(9)
    cols = [rng.getrandbits(25) for _ in range(500)]
    images = [verify.mirror_colouring(c) for c in cols]
    assert [verify.mirror_colouring(m) for m in images] == cols
    w, b = span_winners(np.array(cols, dtype=np.uint32))
    w2, b2 = span_winners(np.array(images, dtype=np.uint32))
    assert (w == b2).all() and (b == w2).all()


def test_hidden_contacts_example():
    pos = hidden_contacts_example()
    assert pos.occupied == ALL_MASK and pos.is_stable()
    assert physical_winners(pos) == (True, True)
    assert engine_winners(pos) == (True, False)      # visibly only White


def test_physical_counts_match_brute_force():
    rng = random.Random(77)
    cols = [rng.getrandbits(25) for _ in range(120)]
    fast = physical_both_counts(np.array(cols, dtype=np.uint32))
    for c, n in zip(cols, fast):
        brute = sum(all(physical_winners(position_of(c, i))) for i in range(2 ** len(INTERIOR)))
        assert n == brute


def test_hidden_contacts_on_some_blocks():
    r = hidden_contacts_counterexamples(blocks=[0, 31])
    assert r["colourings"] == 2 * 2 ** 20 * 32
    assert r["both"] == r["white_visible_black_physical"] + r["black_visible_white_physical"]
    assert r["both"] > 0
    # the two terms agree exactly over mirror-paired blocks only; check one colouring pair
    c = 12345
    m = verify.mirror_colouring(c)
    assert physical_both_counts(np.array([c], np.uint32))[0] == \
        physical_both_counts(np.array([m], np.uint32))[0]


@pytest.mark.slow
def test_hidden_contacts_full_count():
    r = hidden_contacts_counterexamples()
    assert r["colourings"] == 2 ** 30
    assert r["white_visible_black_physical"] == r["black_visible_white_physical"] == 193040942
    assert r["both"] == 386081884


def test_census_is_both_counts_in_one_pass():
    blocks = [0, 13, 31]
    r = verify.census(blocks=blocks)
    assert r["span"] == verify_span(blocks=blocks)
    h = hidden_contacts_counterexamples(blocks=blocks)
    for key in ("colourings", "exterior_colourings", "white_visible_black_physical",
                "black_visible_white_physical", "both"):
        assert r["hidden"][key] == h[key]
    assert r["hidden"]["both"] > 0 and r["span"]["both"] == r["span"]["neither"] == 0
    one = verify.census(blocks=blocks, players=(0,))
    assert one["span"] == r["span"] and one["hidden"]["both"] is None
    assert one["hidden"]["white_visible_black_physical"] == h["white_visible_black_physical"]
    assert one["hidden"]["black_visible_white_physical"] is None


@pytest.mark.slow
def test_census_full():
    r = verify.census()
    assert r["span"] == {"colourings": 2 ** 25, "white": 2 ** 24, "black": 2 ** 24,
                         "both": 0, "neither": 0}
    assert r["hidden"]["both"] == 386081884
    assert r["hidden"]["white_visible_black_physical"] == 193040942
