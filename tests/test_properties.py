"""Properties every game must keep, tested on random reachable states."""
import random

import pytest
from hypothesis import given, strategies as st

from shibumi import IllegalMoveError, Move, NotationError, all_games, load
from shibumi.geometry import SYMMETRIES, transform_mask
from shibumi.notation import transform_move


def random_state(game, seed, steps):
    rng = random.Random(seed)
    state = game.initial_state(rng)
    for _ in range(steps):
        if game.is_terminal(state):
            break
        state = game.random_step(state, rng)
    return state


GAMES = [cls.info.name.lower() for cls in all_games()]


@pytest.mark.parametrize("name", GAMES)
@given(seed=st.integers(0, 2 ** 32), steps=st.integers(0, 30))
def test_symmetries_commute_with_move_generation(name, seed, steps):
    """Turning the board and then generating moves = generating and then turning.

    All 8 symmetries commute with playable points; the symmetries a game
    declares (Span's goals fix left-right and top-bottom) also keep its
    legal moves and outcome.
    """
    game = load(name)
    state = random_state(game, seed, steps)
    moves = set(game.legal_moves(state)) if not game.is_terminal(state) else set()
    for index, perm in enumerate(game.board.symmetries):     # the pyramid's or a grid's
        image_pos = state.position.transform(perm)
        assert image_pos.playable() == transform_mask(state.position.playable(), perm)
        if index not in game.symmetries:
            continue
        image = game.transform_state(state, perm)
        image_moves = set(game.legal_moves(image)) if not game.is_terminal(image) else set()
        assert {transform_move(m, perm) for m in moves} == image_moves
        assert game.outcome(image) == game.outcome(state)


@pytest.mark.parametrize("name", GAMES)
@given(seed=st.integers(0, 2 ** 32), steps=st.integers(0, 30),
       text=st.sampled_from(["a1", "d4", "c3.2", "d4.3", "xa1", "pass", "Rb2", "=R"]))
def test_illegal_moves_raise_and_leave_the_match_unchanged(name, seed, steps, text):
    game = load(name)
    match = game.new_match(state=random_state(game, seed, steps))
    before = (match.state, len(match.history), game.state_text(match.state))
    legal = {m.text() for m in match.legal_moves()}
    try:
        move = match.parse(text)
    except (IllegalMoveError, NotationError):
        assert (match.state, len(match.history), game.state_text(match.state)) == before
        return
    assert move.text() in legal
    match.push(move)
    match.pop()
    assert (match.state, len(match.history)) == before[:2]


@pytest.mark.parametrize("name", GAMES)
@given(seed=st.integers(0, 2 ** 32), steps=st.integers(0, 30))
def test_state_text_round_trips(name, seed, steps):
    game = load(name)
    state = random_state(game, seed, steps)
    again = game.parse_state(game.state_text(state))
    assert game.state_key(again) == game.state_key(state)


def test_pushing_an_illegal_move_object_raises():
    match = load("spline").new_match()
    with pytest.raises(IllegalMoveError):
        match.push(Move("Wb2"))
    with pytest.raises(IllegalMoveError):
        match.push(Move("Ba1"))      # wrong colour for White
    assert match.history == []
    with pytest.raises(IllegalMoveError, match="undo"):
        match.pop()
