"""Spline's search hooks: the MCTS playout and the RAVE keys (``amaf_moves``)."""
import random

import pytest

from shibumi import Move, load
from shibumi.games.spline import Spline, sum_lines
from shibumi.geometry import NUM_POINTS

GAME = load("spline")


def _random_state(seed, balls):
    rng = random.Random(seed)
    while True:
        state = GAME.initial_state()
        while not GAME.is_terminal(state) and state.position.occupied.bit_count() < balls:
            state = GAME.random_step(state, rng)
        if not GAME.is_terminal(state):
            return state


@pytest.mark.parametrize("seed", range(40))
def test_the_playout_ends_a_game_the_rules_allow(seed):
    """The playout keeps every ball it was given, adds balls of each colour in
    turn, and ends as the rules do: a line for the last mover, or a full pyramid."""
    state = _random_state(seed, seed % 20)
    final = GAME.playout(state, random.Random(seed))
    before, after = state.position, final.position
    assert after.white & before.white == before.white
    assert after.black & before.black == before.black
    GAME.check_turn_counts(after, final.to_move)
    winners = final.result.winners
    if winners:
        colour = GAME.colour_of(winners[0])
        assert sum_lines(after.mask(colour)) and winners == (final.to_move ^ 1,)
        assert not sum_lines(after.mask(GAME.colour_of(winners[0] ^ 1)))
    else:
        assert after.occupied.bit_count() == NUM_POINTS
    # the same state through the rules: the result is the one the playout names
    assert GAME.result_after(after, final.last.point, final.to_move ^ 1) == final.result \
        or not winners


def test_the_playout_takes_a_win_and_blocks_a_line():
    win = GAME.parse_state("B.../..../B.B./WWW.|.../.../...|../..|. 1")
    for seed in range(10):
        assert GAME.playout(win, random.Random(seed)).last == Move("Wg1")
    block = GAME.parse_state("W.../..../BBB./WW..|.../.../...|../..|. 1")
    for seed in range(10):
        final = GAME.playout(block, random.Random(seed))
        assert final.position.white >> Move("Wg3").point & 1


def _share(game, state, points, playouts=600):
    """How often the mover to play owns one of ``points`` at the end of a playout."""
    colour = game.colour_of(state.to_move)
    mask = sum(1 << Move(p).point for p in points)
    return sum(bool(game.playout(state, random.Random(seed)).position.mask(colour) & mask)
               for seed in range(playouts)) / playouts


def test_the_playout_favours_a_move_that_leaves_a_line_a_ball_short():
    """White holds a1 and c1: e1 or g1 leaves the row a ball short, and the
    playout draws them more often than a uniform draw does (THREAT_WEIGHT and
    OPEN_THREAT_WEIGHT set to 0)."""
    state = GAME.parse_state("B.../..B./..../WW..|.../.../...|../..|. 1")
    weighted = _share(GAME, state, ("We1", "Wg1"))
    plain = Spline()
    plain.THREAT_WEIGHT = plain.OPEN_THREAT_WEIGHT = 0.0
    uniform = _share(plain, state, ("We1", "Wg1"))
    assert weighted > uniform + 0.05


def test_amaf_moves_are_the_movers_balls_placed_since():
    state = _random_state(3, 6)
    final = GAME.playout(state, random.Random(3))
    for s in (state, GAME.apply(state, GAME.legal_moves(state)[0])):
        colour = GAME.colour_of(s.to_move)
        new = final.position.mask(colour) & ~s.position.occupied
        moves = GAME.amaf_moves(s, final)
        assert sorted(m.point for m in moves) == [p for p in range(NUM_POINTS) if new >> p & 1]
        assert all(m.colour == colour and m.kind == "place" for m in moves)
    assert GAME.amaf_moves(final, final) == []


def test_spline_opts_in_to_rave():
    assert GAME.search_features["rave"] > 0 and hasattr(GAME, "amaf_moves")


def _own_latent_threat(seed):
    """A random position where the mover's line lacks one ball, at a point one
    support short of playable, and nothing is open to win or to block."""
    from shibumi.geometry import LINE_MASKS, SUPPORT_MASK
    from shibumi.position import playable_mask
    rng = random.Random(seed)
    while True:
        state = _random_state(rng.randrange(10 ** 6), rng.randrange(10, 20))
        me = state.position.mask(GAME.colour_of(state.to_move))
        opp = state.position.mask(GAME.colour_of(state.to_move ^ 1))
        occ, pm = state.position.occupied, playable_mask(state.position.occupied)
        gaps = [line & ~me for line in LINE_MASKS if not line & opp]
        gaps += [line & ~opp for line in LINE_MASKS if not line & me]
        if any(g and g & (g - 1) == 0 and g & pm for g in gaps):
            continue
        for line in LINE_MASKS:
            gap = line & ~me
            if line & opp or not gap or gap & (gap - 1) or gap & pm:
                continue
            point = gap.bit_length() - 1
            missing = SUPPORT_MASK[point] & ~occ
            if missing and missing & (missing - 1) == 0 and pm & ~missing:
                return state, point, missing.bit_length() - 1


def test_the_playout_keeps_its_own_threats_closed():
    """With KEEP_OWN_THREATS the mover does not fill the last support under its
    own line's missing ball (the opponent would block it), so the opponent ends
    up on that point less often than when the rule is off."""
    loose = Spline()
    loose.KEEP_OWN_THREATS = False
    kept = lost = 0
    for seed in range(6):
        state, point, _ = _own_latent_threat(seed)
        colour = GAME.colour_of(state.to_move ^ 1)
        for s in range(100):
            kept += GAME.playout(state, random.Random(s)).position.mask(colour) >> point & 1
            lost += loose.playout(state, random.Random(s)).position.mask(colour) >> point & 1
    assert kept < lost
