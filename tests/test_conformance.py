"""Every registered game plays to the end, within its declared maximum length."""
import pytest

from conformance import (check_declaration, check_playouts, check_random_games,
                         check_terminal_play)
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


@pytest.mark.parametrize("name", GAMES)
def test_plays_to_the_end_against_the_ai_in_the_terminal(name):
    check_terminal_play(name)
