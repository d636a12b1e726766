"""The rule book's guarantees (shibumi.maths.claims)."""

import pytest

from shibumi.geometry import ALL_MASK, POINTS
from shibumi.geometry import TOUCHING_MASK, points_of
from shibumi.maths.claims import (annotated_top_view, apex_is_last, ball_30_table,
                                  pair_turns, placer_of_ball, pyramids_in_lattice,
                                  reachable_pair_sets, sparro_end, spaiji_block_chance,
                                  spaiji_engine_agrees, spaiji_random_games, spaiji_turns,
                                  spinimax_lengths, spline_guarantee, spline_move_labels,
                                  spodd_no_ties)
from shibumi.position import playable_mask
from shibumi.position import Position


def test_spline_winner_before_the_last_ball():
    r = spline_guarantee()
    assert (r["shortest"], r["longest"]) == (7, 28)
    assert r["holds"] and r["line_free_capacity"] == {0: 16, 1: 9, 2: 2, 3: 0}
    assert len(r["longest_game"]) == 28


def test_who_places_ball_k():
    assert ball_30_table() == {2: 2, 3: 3, 4: 2, 5: 5, 6: 6}
    assert [placer_of_ball(k, 3) for k in range(1, 8)] == [1, 2, 3, 1, 2, 3, 1]
    assert apex_is_last()
    with pytest.raises(ValueError):
        placer_of_ball(0, 2)


def test_spinimax_exactly_16_moves():
    r = spinimax_lengths()
    assert r["holds"] and r["apex_before_16"] == 0 and r["full_at_16"]
    assert r["moves_by_player"] == {1: 6, 2: 5, 3: 5} and r["last_mover"] == 1


@pytest.mark.slow
def test_spinimax_engine_stacking_is_the_closure():
    r = spinimax_lengths(engine=True)
    assert r["engine_moves_checked"] == 16 * 2 ** 15 and r["engine_mismatches"] == 0


def test_spaiji_not_always_15_turns():
    r = spaiji_turns()
    assert r["full_reached"] and r["white_takes_turn_15"]
    assert r["blocked"] == {20: 1} and r["turn_counts"] == [10, 15]
    assert not r["always_15"]
    assert r["reachable"] == 28249
    assert sorted(r["example_blocked"][16:]) == ["b4", "d2", "d6", "f4"]


def test_the_stuck_position_has_no_legal_turn_in_the_engine():
    from shibumi import load
    from shibumi.notation import parse_point
    game = load("spaiji")
    names = spaiji_turns()["example_blocked"]
    occ = sum(1 << parse_point(n) for n in names)
    assert len(names) == 20 and occ in reachable_pair_sets(0)
    # the five playable points, and none of them touches an empty playable point
    assert sorted(points_of(playable_mask(occ))) == sorted(
        parse_point(n) for n in ("b2", "f2", "b6", "f6", "d4.1"))
    assert pair_turns(occ) == []
    white = sum(1 << p for i, p in enumerate(points_of(occ)) if i % 2)
    state = game.parse_state(f"{Position.from_masks(white, occ & ~white).text()} 1")
    assert game.legal_moves(state) == [] and state.result is not None


def test_pair_rule_matches_the_spaiji_engine_on_every_reachable_set():
    assert spaiji_engine_agrees() == {"compared": 28249, "differences": 0}
    assert pair_turns(ALL_MASK) == []


def test_the_comparison_with_the_engine_can_fail():
    def no_fresh_platforms(occ):
        """A wrong rule: the second ball may not use a platform the first completed."""
        return sorted({occ | 1 << p | 1 << q for p in points_of(playable_mask(occ))
                       for q in points_of(playable_mask(occ) & TOUCHING_MASK[p])})
    r = spaiji_engine_agrees(no_fresh_platforms)
    assert r["compared"] == 28249 and r["differences"] > 1000


def test_about_one_random_spaiji_game_in_a_thousand_gets_stuck():
    chance = spaiji_block_chance()
    assert 0.00100 < chance < 0.00108 and round(1 / chance) == 960
    sample = spaiji_random_games(5000, seed=1)         # the engine's own random games
    assert sample == {"games": 5000, "stopped_early": 5, "balls_when_stopped": {20: 5}}


def test_sparro_ends_with_29_balls():
    # the proof is apex_is_last and the interior being prefilled; the games only illustrate
    r = sparro_end(games=100)
    assert r["apex_is_last"] and r["interior_prefilled"] == 5
    assert r["holds"] and r["finals"] == {(24, True): 100}


def test_pyramids_in_the_lattice():
    from shibumi.games.spyramid import BOOK_UPRIGHT, INVERTED, ROTATED, UPRIGHT
    r = pyramids_in_lattice()
    assert (r["up"], r["down"], r["sideways"], r["total"]) == (20, 5, 20, 45)
    assert r["upright_by_size"] == {2: 14, 3: 5, 4: 1}
    assert r["upright_on_board"] == 14
    by_way = {w: sorted(f["mask"] for f in r["pyramids"] if f["way"] == w)
              for w in ("up", "down")}
    assert by_way["up"] == sorted(UPRIGHT) and by_way["down"] == sorted(INVERTED)
    assert sorted(f["mask"] for f in r["pyramids"]
                  if f["way"] == "up" and f["base_level"] == 0) == sorted(BOOK_UPRIGHT)
    assert r["rotated"] == 5 and r["rotated_regular"] == 0
    assert sorted(r["rotated_masks"]) == sorted(ROTATED)
    assert all(f["size"] == 2 for f in r["pyramids"] if f["way"] == "sideways")


def test_spodd_no_ties():
    r = spodd_no_ties(random_games=200)
    assert r["diagonal_squares"] == [1, 3, 5, 7, 5, 3, 1]
    assert r["scored_counts"] == [3, 5, 7, 5, 3] and r["all_odd"]
    assert r["red_diagonals"] == [0, 6] and r["weights_total"] == 9
    assert r["pair_blocks"] == {20: 1}                 # a stuck position is reachable
    assert r["blocked_counts"] == [2, 5, 4, 5, 2]      # there, ties would be possible
    assert r["engine"]["full"] == 200 and r["engine"]["tied_diagonals"] == 0
    assert r["holds"]


def test_move_labels_and_top_view():
    pos = Position("..../..../..../W...|.../.../...|../..|.")     # White on a1
    labels = spline_move_labels(pos)
    assert len(labels) == 15 and set(labels.values()) <= {f"W{n}" for n in range(2, 31)} | \
        {f"L{n}" for n in range(2, 31)}
    assert labels[1] == "W26"            # Black replying c1: Black wins with ball 26
    svg = annotated_top_view(pos, labels)
    assert svg.count('class="annotation"') == 15 and svg.endswith("</svg>")
    assert all(p in POINTS for p in labels)
