"""The generic players."""
from shibumi import Move, load
from shibumi.players import MCTSPlayer, RandomPlayer, make_player


def test_mcts_takes_an_immediate_win():
    game = load("spline")
    state = game.parse_state("B.../..../B.B./WWW.|.../.../...|../..|. 1")
    assert MCTSPlayer(iterations=300, seed=0).choose(game, state) == Move("Wg1")


def test_a_win_in_one_settles_the_search_before_any_playout():
    """Spline names its winning move (Game.winning_move), so the root is proven a
    win when it is made: the search stops with no iteration spent."""
    game = load("spline")
    state = game.parse_state("B.../..../B.B./WWW.|.../.../...|../..|. 1")
    player = MCTSPlayer(iterations=300, seed=0)
    assert player.choose(game, state) == Move("Wg1")
    assert player.root.proven == ((1.0, 0.0), 1) and player.root.visits == 0


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


# -- the MCTS solver, the kept tree, the perfect player ---------------------------

import random

import pytest

from shibumi.maths.perfect import is_solved, move_values
from shibumi.players import PerfectPlayer


def _near_end(game, seed, empty):
    """A Spline position from a random game with at most `empty` points still empty."""
    rng = random.Random(seed)
    while True:
        state = game.initial_state()
        while not game.is_terminal(state) and 30 - state.position.occupied.bit_count() > empty:
            state = game.random_step(state, rng)
        if not game.is_terminal(state) and len(game.legal_moves(state)) > 1:
            return state


@pytest.mark.parametrize("seed", range(6))
def test_mcts_proves_the_exact_value_near_the_end(seed):
    """Once the search has settled the root, its value is the solver's: the
    winner and the ball the game ends with (faster wins, slower losses)."""
    game = load("spline")
    state = _near_end(game, seed, 6)
    player = MCTSPlayer(iterations=20000, seed=seed)
    move = player.choose(game, state)
    root = player.root
    assert root.proven is not None
    values = move_values(game, state)
    best = max(v[0] for v in values.values())
    assert values[move][0] == best                       # a best move
    reward, length = root.proven
    mover = game.current_player(state)
    balls = state.position.occupied.bit_count()
    if best > 0:                                          # a win at ball 31 - best
        assert reward[mover] == 1.0 and balls + length == 31 - best
    elif best < 0:
        assert reward[mover] == 0.0 and balls + length == 31 + best
    else:
        assert reward == (0.5, 0.5)


def test_mcts_stops_searching_once_the_root_is_proven():
    game = load("spline")
    state = game.parse_state("B.../..../B.B./WWW.|.../.../...|../..|. 1")
    player = MCTSPlayer(iterations=5000, seed=0)
    assert player.choose(game, state) == Move("Wg1")
    assert player.root.proven[0] == (1.0, 0.0) and player.root.visits < 5000


def test_mcts_keeps_its_tree_between_moves():
    game = load("spline")
    player = MCTSPlayer(iterations=400, seed=3)
    state = game.initial_state()
    mine = player.choose(game, state)
    state = game.apply(state, mine)
    reply, kept = max(player.root.children[mine].children.items(), key=lambda mc: mc[1].visits)
    seen = kept.visits
    state = game.apply(state, reply)
    player.choose(game, state)
    assert player.root is kept and kept.visits == seen + 400        # the search went on
    # asked about a position the tree does not hold, it starts afresh
    player.choose(game, game.initial_state())
    assert player.root.visits == 400


def test_the_perfect_player():
    game = load("spline")
    state = game.parse_state("B.../..../B.B./WWW.|.../.../...|../..|. 1")
    assert PerfectPlayer(seed=0).choose(game, state) == Move("Wg1")
    lost = game.parse_state("W.../..../BBB./WW..|.../.../...|../..|. 1")
    assert PerfectPlayer(seed=0).choose(game, lost) == Move("Wg3")   # resists longest
    assert is_solved(load("splastwo(players=2)")) and not is_solved(load("splastwo(players=3)"))
    with pytest.raises(ValueError, match="only solved games.*not Spice"):
        PerfectPlayer().choose(load("spice"), load("spice").initial_state())
    assert isinstance(make_player("perfect"), PerfectPlayer)


# -- RAVE, the search feature Spline opts in to ------------------------------------

from shibumi.games.spline import Spline
from shibumi.players import EXPLORATION


def _nodes(root):
    stack, seen = [root], []
    while stack:
        node = stack.pop()
        seen.append(node)
        stack.extend(node.children.values())
    return seen


def test_spline_turns_rave_on_and_other_games_do_not():
    spline, span = load("spline"), load("span")
    player = MCTSPlayer(iterations=100, seed=0)
    player.choose(spline, spline.initial_state())
    assert player.rave == Spline.search_features["rave"] > 0
    assert player.exploration == Spline.search_features["exploration"]
    assert player.root.amaf
    # the constructor's choices win over the game's
    chosen = MCTSPlayer(iterations=50, seed=0, rave=1000, exploration=0.9)
    chosen.choose(spline, spline.initial_state())
    assert (chosen.rave, chosen.exploration) == (1000, 0.9)
    player.choose(span, span.initial_state())
    assert player.rave == 0.0 and player.exploration == EXPLORATION
    assert all(node.amaf is None for node in _nodes(player.root))
    # asked for, RAVE stays off in a game without AMAF keys (game.amaf_moves)
    player = MCTSPlayer(iterations=100, seed=0, rave=300)
    player.choose(span, span.initial_state())
    assert player.rave == 0.0 and all(node.amaf is None for node in _nodes(player.root))


def test_rave_off_is_the_plain_search():
    """MCTSPlayer(rave=0) on Spline plays as on a Spline that declares no search
    features: the plain UCT of every other game, move for move."""
    game = load("spline")
    plain = Spline()
    plain.search_features = {}
    a, b = MCTSPlayer(iterations=300, seed=4, rave=0), MCTSPlayer(iterations=300, seed=4)
    state = game.initial_state()
    for _ in range(6):
        move = a.choose(game, state)
        assert b.choose(plain, state) == move
        assert a.root.visits == b.root.visits and a.root.amaf is None is b.root.amaf
        state = game.apply(state, move)


def test_one_rave_iteration_credits_each_movers_later_moves():
    """After one iteration every node on the path holds, for each ball its mover
    placed later (in the tree or the playout), one visit with the mover's reward."""
    game = load("spline")
    finals = []

    class Recorded(Spline):
        def playout(self, state, rng):
            final = super().playout(state, rng)
            finals.append(final)
            return final

    recorded = Recorded()
    player = MCTSPlayer(iterations=1, seed=2)
    player.choose(recorded, recorded.initial_state())
    root = player.root
    (move, child), = root.children.items()
    final, = finals
    rewards = recorded.outcome(final).returns(2)
    for node, mover in ((root, 0), (child, 1)):
        colour = recorded.colour_of(mover)
        later = final.position.mask(colour) & ~node.state.position.occupied
        assert sorted(m.point for m in node.amaf) == [p for p in range(30) if later >> p & 1]
        assert all(stat == [1, rewards[mover]] for stat in node.amaf.values())
    assert move in root.amaf                      # the tree's own move counts


def test_rave_statistics_stay_consistent():
    """Each AMAF count is at most the node's visits and at least the visits of
    the child its move leads to; each total lies between 0 and its count."""
    game = load("spline")
    player = MCTSPlayer(iterations=600, seed=5)
    player.choose(game, _near_end(game, 1, 18))
    for node in _nodes(player.root):
        if node.mover < 0 or not node.visits or node.amaf is None:
            continue
        colour = game.colour_of(node.mover)
        for move, (count, total) in node.amaf.items():
            assert move.colour == colour and count <= node.visits and 0 <= total <= count
            if move in node.children:
                assert count >= node.children[move].visits
