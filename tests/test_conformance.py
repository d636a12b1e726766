"""Every registered game plays to the end, within its declared maximum length."""
import pytest

from conformance import check_declaration, check_playouts, check_random_games
from shibumi import all_games

GAMES = [cls.info.name.lower() for cls in all_games()]


@pytest.mark.parametrize("name", GAMES)
def test_declaration(name):
    check_declaration(name)


@pytest.mark.parametrize("name", GAMES)
def test_random_games_finish_within_their_length(name):
    check_random_games(name)


@pytest.mark.parametrize("name", GAMES)
def test_fast_playouts_agree_with_the_generic_loop(name):
    check_playouts(name)
