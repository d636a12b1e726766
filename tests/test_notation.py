"""Point names in the projected coordinates, lines and move text."""
import pytest

from shibumi import Move, NotationError, load, parse_line, parse_point, point_name
from shibumi.geometry import COORDS, POINTS, point_at
from shibumi.notation import SHARED_SQUARES


def test_every_point_has_a_name_that_parses_back():
    for p in POINTS:
        assert parse_point(point_name(p)) == p


def test_shared_squares():
    assert sorted(SHARED_SQUARES) == ["c3", "c5", "d4", "e3", "e5"]
    with pytest.raises(NotationError, match="shared"):
        parse_point("c3")
    assert parse_point("c3.0") == point_at(0, 1, 1)
    assert parse_point("c3.2") == point_at(2, 0, 0)
    assert parse_point("d4.3") == 29


def test_italian_seed_points():
    # Spree: d6 and f2 are level-1 points (the middle of the top row, right of the bottom row).
    assert COORDS[parse_point("d6")] == (1, 1, 2)
    assert COORDS[parse_point("f2")] == (1, 2, 0)
    assert parse_line("b6-d4-f2") == (point_at(1, 0, 2), point_at(1, 1, 1), point_at(1, 2, 0))
    assert parse_line("d6-f6") == (point_at(1, 1, 2), point_at(1, 2, 2))
    assert parse_line("b4-d6") == (point_at(1, 0, 1), point_at(1, 1, 2))
    assert parse_line("b6-b4-b2") == tuple(point_at(1, 0, y) for y in (2, 1, 0))
    assert parse_line("f6-f4-f2") == tuple(point_at(1, 2, y) for y in (2, 1, 0))


@pytest.mark.parametrize("text", ["z9", "a2", "h1", "d4.0", "c3.1", "b2-c3.0"])
def test_bad_points_and_lines(text):
    with pytest.raises(NotationError):
        parse_line(text) if "-" in text else parse_point(text)


@pytest.mark.parametrize("text", ["d6", "Rd6", "Wa1", "xb2", "b2>d4.1", "b4~d4.1",
                                  "Wb4+e", "pass", "=R", "=12", "c3.2"])
def test_move_text_round_trips_and_repr_pastes_back(text):
    move = Move(text)
    assert move.text() == text
    assert eval(repr(move)) is move


@pytest.mark.parametrize("text", ["", "d", "Qd6", "d6>", "xx", "=Q", "Wb4+q", "c3"])
def test_malformed_moves_say_what_is_allowed(text):
    with pytest.raises(NotationError) as info:
        Move(text)
    assert "move" in str(info.value) or "shared" in str(info.value) or \
        "point" in str(info.value) or "square" in str(info.value)


def test_short_forms_resolve_against_the_position():
    match = load("spline").new_match()
    assert match.parse("c3") == Move("Wc3.0")
    for sq in ["a1", "e1", "a3", "c1", "e3.0"]:
        match.push(sq)                      # White and Black fill round c3
    match.push("c3")
    for sq in ["c5", "e5", "a5"]:
        match.push(sq)
    # Now the board holes under b2, b4, d2, d4 are full: d4 names level 1.
    assert match.parse("d4") == Move.place(point_at(1, 1, 1), match.game.colour_of(
        match.current_player))
    assert match.move_text(match.parse("d4")) == "d4"


def test_state_text_round_trips():
    game = load("span")
    match = game.new_match()
    for sq in ["a1", "c1", "a3", "c3"]:
        match.push(sq)
    text = game.state_text(match.state)
    assert game.parse_state(text) == match.state.__class__(
        match.state.position, match.state.to_move, None, None)
    with pytest.raises(NotationError, match="player to move"):
        game.parse_state(text.split()[0] + " 9")
