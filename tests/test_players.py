"""The generic players."""
from shibumi import Move, load
from shibumi.players import MCTSPlayer, RandomPlayer, make_player


def test_mcts_takes_an_immediate_win():
    game = load("spline")
    state = game.parse_state("B.../..../B.B./WWW.|.../.../...|../..|. 1")
    assert MCTSPlayer(iterations=300, seed=0).choose(game, state) == Move("Wg1")


def test_mcts_blocks_an_immediate_loss():
    game = load("spline")
    state = game.parse_state("W.../..../BBB./WW..|.../.../...|../..|. 1")
    assert MCTSPlayer(iterations=2000, seed=0).choose(game, state) == Move("Wg3")


def test_mcts_beats_random_at_span():
    game = load("span")
    wins = 0
    for seed in range(10):
        seats = [MCTSPlayer(iterations=200, seed=seed), RandomPlayer(seed)]
        if seed % 2:
            seats.reverse()
        match = game.new_match()
        while not match.is_over():
            match.push(seats[match.current_player].choose(game, match.state))
        wins += match.outcome().winners == (seed % 2,)
    assert wins >= 8


def test_make_player():
    assert isinstance(make_player("random"), RandomPlayer)
    assert make_player("mcts:50").iterations == 50
