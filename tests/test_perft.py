"""Golden perft counts.

The counts were cross-checked against an independent implementation written
from the rules alone (different code, different representation), and depths
5 and 7 by hand: 16*15*14*13*12 placement orders on the board plus
9 platforms * 4! orders that fill a platform and play on it gives 524376;
winning lines first appear at depth 7.
"""
import pytest

from shibumi import load
from shibumi.analysis import perft

SHARED = [16, 240, 3360, 43680, 524376, 5781312, 58256352]
GOLDEN = {
    "spline": SHARED + [531986400, 4428228288],
    "span": SHARED + [533738592, 4457370336],
}


@pytest.mark.parametrize("game", sorted(GOLDEN))
@pytest.mark.parametrize("depth", range(1, 8))
def test_perft(game, depth):
    assert perft(load(game), depth) == GOLDEN[game][depth - 1]


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(GOLDEN))
@pytest.mark.parametrize("depth", [8, 9])
def test_perft_deep(game, depth):
    assert perft(load(game), depth) == GOLDEN[game][depth - 1]


def test_perft_depth_zero_and_finished_games():
    game = load("spline")
    assert perft(game, 0) == 1
    won = game.parse_state("..../..../BBB./WWWW|.../.../...|../..|. 2")
    assert won.result is not None and perft(game, 3, won) == 0
