"""Hostile input gets the library's narrow errors, never a crash or a changed state."""
import copy
import pickle

import pytest

from shibumi import (IllegalMoveError, Move, NotationError, Position, ShibumiError, load,
                     parse_line, parse_point)
from shibumi.analysis import perft
from shibumi.players import MCTSPlayer


@pytest.mark.parametrize("call", [
    lambda: parse_point(None), lambda: parse_line(5), lambda: parse_line("a1-g7"),
    lambda: parse_line("a1-a1-a1"), lambda: load(5), lambda: load("spline(**{'a': 1})"),
    lambda: load("spline(count_hidden=" + "-" * 3000 + "1)"),
    lambda: load("spline(count_hidden='no')"),
    lambda: load("spline").parse_state("..../..../..../....|.../.../...|../..|. ²"),
    lambda: Move("=" + "9" * 5000), lambda: Move.place(99), lambda: Move.choose(0),
    lambda: Move.choose(value=-1), lambda: Position.empty().colour_at(-1),
    lambda: Position.empty().is_pinned(30), lambda: Position.empty().place(1.5, 1),
    lambda: Position.empty().place("a1", 1), lambda: Position.from_int("1"),
    lambda: Position.from_masks("a"), lambda: Position.from_int(1 << 58),
    lambda: Position.empty().mask(-1),
    lambda: load("spline").new_match().push(None), lambda: load("spline").new_match().push(5),
    lambda: load("spline").new_match().parse(None),
    lambda: load("spline").parse_state("RRRR/..../..../....|.../.../...|../..|. 1"),
])
def test_narrow_errors(call):
    with pytest.raises(ShibumiError):
        call()


def test_positions_copy_pickle_and_stay_immutable():
    pos = Position("..../..../..../W...|.../.../...|../..|.")
    assert copy.deepcopy(pos) == pos and pickle.loads(pickle.dumps(pos)) == pos
    with pytest.raises(AttributeError):
        pos.__init__("..../..../..../.B..|.../.../...|../..|.")
    assert pos.colour_at(0) == 1


def test_a_finished_position_from_text_is_finished():
    game = load("spline")
    state = game.parse_state("..../..../BBB./WWWW|.../.../...|../..|. 2")
    assert state.result is not None and state.result.winners == (0,)
    assert perft(game, 2, state) == 0


@pytest.mark.parametrize("name, text", [
    ("spline", "..../..../BBB./WWWW|.../.../...|../..|. 1"),     # Black's turn, not White's
    ("spline", "..../..../..../BBB.|.../.../...|../..|. 1"),     # more black than white
    ("span", "..../..../..../WW..|.../.../...|../..|. 2"),       # two ahead
    ("splade", "..../..../..../WR..|.../.../...|../..|. 2"),     # Red placed before Black
])
def test_ball_counts_that_turns_in_order_cannot_reach_are_refused(name, text):
    with pytest.raises(NotationError, match="cannot be reached"):
        load(name).parse_state(text)


def test_mcts_on_a_finished_game_or_with_no_time():
    game = load("spline")
    done = game.parse_state("..../..../BBB./WWWW|.../.../...|../..|. 2")
    with pytest.raises(IllegalMoveError):
        MCTSPlayer(10).choose(game, done)
    assert MCTSPlayer(10, seconds=0).choose(game, game.initial_state()).kind == "place"
