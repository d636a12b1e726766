"""Every registered game plays to the end, within its declared maximum length."""
import pytest

from conformance import (check_declaration, check_honest_ai, check_playouts,
                         check_random_games, check_terminal_play)
from shibumi import all_games, load

GAMES = [cls.info.name.lower() for cls in all_games()]
#: Games where a seat does not see everything when it chooses.
UNSEEN = [cls.info.name.lower() for cls in all_games()
          if cls.info.hidden_information or cls.info.simultaneous]


@pytest.mark.parametrize("name", GAMES)
def test_declaration(name):
    check_declaration(name)


@pytest.mark.parametrize("name", GAMES)
def test_random_games_finish_within_their_length(name):
    check_random_games(name)


@pytest.mark.parametrize("name", GAMES)
def test_fast_playouts_agree_with_the_generic_loop(name):
    check_playouts(name)


@pytest.mark.parametrize("name", GAMES)
def test_plays_to_the_end_against_the_ai_in_the_terminal(name):
    check_terminal_play(name)


@pytest.mark.parametrize("name", UNSEEN)
def test_the_ai_decides_from_its_own_observation(name):
    check_honest_ai(load(name))


@pytest.mark.parametrize("name", GAMES)
def test_a_game_that_hides_nothing_is_its_own_observation(name):
    """Perfect-information games: observe is the identity, so the AI sees all there is."""
    game = load(name)
    if name in UNSEEN:
        pytest.skip("hides information or has secret choices: see the test above")
    match = game.new_match(seed=1)
    for seat in range(game.num_players):
        assert game.observe(match.state, seat) == match.state
