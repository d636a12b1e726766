"""Every registered game plays to the end, within its declared maximum length."""
import random

import pytest

from shibumi import TERMINAL, all_games, load
from shibumi.game import CHANCE, SIMULTANEOUS, Game

GAMES = [cls.info.name.lower() for cls in all_games()]


@pytest.mark.parametrize("name", GAMES)
def test_random_games_finish_within_their_length(name):
    game = load(name)
    info = game.info
    assert info.name and info.designer and info.year and info.family and info.source
    assert 1 <= info.min_players <= info.max_players <= 10
    assert game.rules.strip() and game.notes.strip()
    for seed in range(40):
        rng = random.Random(seed)
        match = game.new_match(seed=seed)
        actions = 0
        while match.current_player != TERMINAL:
            player = match.current_player
            assert player not in (CHANCE,)          # the match resolves chance itself
            if player == SIMULTANEOUS:
                match.push_joint(rng.choice(game.legal_moves(match.state, p))
                                 for p in range(game.num_players))
            else:
                legal = match.legal_moves()
                assert legal, f"{name}: a player to move has no legal move"
                match.push(rng.choice(legal))
            actions += 1
            assert actions <= info.max_length
        outcome = match.outcome()
        assert outcome is not None
        assert all(0 <= w < game.num_players for w in outcome.winners)
        assert match.legal_moves() == []
        # Undo all the way back gives the start again.
        while match.history:
            match.pop()
        assert match.state == game.new_match(seed=seed).state


@pytest.mark.parametrize("name", GAMES)
def test_fast_playouts_agree_with_the_generic_loop(name):
    """A game's own playout loop must give the same kind of games as the base loop."""
    game = load(name)
    fast = [game.random_playout(game.initial_state(), random.Random(s)) for s in range(300)]
    slow = [Game.random_playout(game, game.initial_state(), random.Random(s))
            for s in range(300)]
    for final in fast + slow:
        assert game.is_terminal(final)
        assert game.outcome(final) == game.settle(
            type(final)(final.position, final.to_move)).result
    mean = lambda xs: sum(game.length(s) for s in xs) / len(xs)  # noqa: E731
    assert abs(mean(fast) - mean(slow)) < 1.5
