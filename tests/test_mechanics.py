"""Relocations, slides, pushes, entries and cycle rules (shibumi.mechanics)."""

import pytest
from hypothesis import given, settings, strategies as st

from shibumi.errors import IllegalMoveError, UnknownGameError
from shibumi.geometry import NUM_POINTS, SUPPORTED_MASK, points_of
from shibumi.mechanics import (CHANGE, KO, NONE, SUPERKO, Displacement, enter,
                               entry_moves, relocate, relocations, repeats, slide,
                               slide_targets, slides)
from shibumi.notation import parse_point
from shibumi.position import BLACK, COLOURS, RED, WHITE, Position

FULL_BOARD = "WWWW/WWWW/WWWW/WWWW"


def pt(name):
    return parse_point(name)


def level1(rows, board=FULL_BOARD, level2="../..", apex="."):
    """A position from its level-1 rows (top rank first)."""
    return Position(f"{board}|{rows}|{level2}|{apex}")


# -- slides -------------------------------------------------------------------

def test_slide_one_step():
    pos = level1(".../.../B..")
    d = slide(pos, pt("b2"), pt("d2"))
    assert d == Displacement(level1(".../.../.B."), ((16, 17),), ())


def test_multi_step_slide_along_row_and_column():
    pos = level1(".../.../B..")
    assert slide(pos, pt("b2"), pt("f2")).position == level1(".../.../..B")
    assert slide(pos, pt("b2"), pt("b6")).position == level1("B../.../...")
    targets = [t for t, _ in slide_targets(pos, pt("b2"))]
    assert targets == [pt("b4"), pt("b6"), pt("d2"), pt("f2")]


def test_slide_stops_at_a_ball_it_cannot_jump():
    pos = level1(".../.../B.W")
    with pytest.raises(IllegalMoveError, match="legal slides from b2"):
        slide(pos, pt("b2"), pt("f2"))


def test_slide_carries_one_ball_which_drops_into_the_gap():
    # d2 holds up the red ball on c3.2 alone; sliding d2 east drops it into d2.
    pos = level1(".../WW./WB.", level2="../R.")
    d = slide(pos, pt("d2"), pt("f2"))
    assert d.position == level1(".../WW./WRB")
    assert d.drops == ((17, 18), (25, 17))


def test_pinned_ball_cannot_slide():
    # d4.1 holds up both balls of level 2's bottom row: it is pinned.
    pos = level1(".../WBW/WWW", level2="../RR")
    with pytest.raises(IllegalMoveError, match="pinned"):
        slide(pos, pt("d4.1"), pt("d6"))
    assert slide_targets(pos, pt("d4.1")) == []


def test_board_balls_and_empty_points_do_not_slide():
    pos = level1(".../.../B..")
    with pytest.raises(IllegalMoveError, match="on the board"):
        slide(pos, pt("a1"), pt("c1"))
    with pytest.raises(IllegalMoveError, match="no ball"):
        slide(pos, pt("d2"), pt("f2"))
    with pytest.raises(IllegalMoveError, match="not on a row or column"):
        slide(pos, pt("b2"), pt("d4.1"))


def test_push_moves_the_next_ball_one_step():
    pos = level1(".../.../BR.")
    d = slide(pos, pt("b2"), pt("d2"))
    assert d.position == level1(".../.../.BR")
    assert d.drops == ((17, 18), (16, 17))     # front ball first
    # A push is a single step: the pusher cannot go on to f2.
    with pytest.raises(IllegalMoveError):
        slide(pos, pt("b2"), pt("f2"))


def test_push_refused_when_the_pusher_carries_a_ball():
    pos = level1(".../WW./WB.", level2="../R.")
    with pytest.raises(IllegalMoveError, match="resting on it"):
        slide(pos, pt("b2"), pt("d2"))


def test_push_refused_when_a_ball_rests_on_the_run():
    # The red ball on e3.2 rests on d2 and f2, which b2 would push.
    pos = level1(".../.WW/BWW", level2="../.R")
    with pytest.raises(IllegalMoveError, match="resting on it"):
        slide(pos, pt("b2"), pt("d2"), allow_off=True)
    # Without it the same push is legal (it sends f2 off the board).
    bare = level1(".../.WW/BWW")
    assert slide(bare, pt("b2"), pt("d2"), allow_off=True).off == (WHITE,)


def test_slide_drop_into_the_one_empty_hole():
    pos = level1(".../.../.B.", board="WWWW/WWWW/WWWW/WWW.")
    assert [t for t, _ in slide_targets(pos, pt("d2"))] == [
        pt("d4.1"), pt("d6"), pt("g1"), pt("b2")]
    d = slide(pos, pt("d2"), pt("g1"))
    assert d.position == level1(".../.../...", board="WWWW/WWWW/WWWW/WWWB")
    assert d.drops == ((17, 3),)


def test_push_ends_in_a_slide_drop():
    pos = level1(".../.../BR.", board="WWWW/WWWW/WWWW/WWW.")
    d = slide(pos, pt("b2"), pt("d2"))
    assert d.position == level1(".../.../.B.", board="WWWW/WWWW/WWWW/WWWR")
    assert d.drops == ((17, 3), (16, 17))


def test_multi_step_slide_ending_in_a_drop():
    pos = level1(".../.../B..", board="WWWW/WWWW/WWWW/WWW.")
    assert [t for t, _ in slide_targets(pos, pt("b2"))][-2:] == [pt("d2"), pt("g1")]
    assert slide(pos, pt("b2"), pt("g1")).drops == ((16, 3),)


def test_ambiguous_slide_drop_refused():
    # f2 lacks two supports (g1 and g3): the ball could fall into either.
    pos = level1(".../.../.B.", board="WWWW/WWWW/WWW./WWW.")
    for hole in ("g1", "g3"):
        with pytest.raises(IllegalMoveError, match="exactly one empty point"):
            slide(pos, pt("d2"), pt(hole))
    assert pt("g1") not in [t for t, _ in slide_targets(pos, pt("d2"))]


def test_slide_drop_of_two_levels_refused():
    # e3.2 lacks only f4, but f4 itself lacks g5: the ball would fall two levels.
    pos = level1(".../WW./WWW", board="WWWW/WWW./WWWW/WWWW", level2="../B.")
    with pytest.raises(IllegalMoveError, match="one level only"):
        slide(pos, pt("c3.2"), pt("f4"))
    assert slide_targets(pos, pt("c3.2")) == []


def test_push_off_the_board_only_when_allowed():
    pos = level1(".../.../BWR")
    with pytest.raises(IllegalMoveError, match="off the board"):
        slide(pos, pt("b2"), pt("d2"))
    assert pt("d2") not in [t for t, _ in slide_targets(pos, pt("b2"))]
    assert pt("d2") in [t for t, _ in slide_targets(pos, pt("b2"), allow_off=True)]
    d = slide(pos, pt("b2"), pt("d2"), allow_off=True)
    assert d.position == level1(".../.../.BW")
    assert d.off == (RED,)
    assert d.drops == ((18, None), (17, 18), (16, 17))


def test_level2_slides_and_apex_does_not_slide():
    full1 = "WWW/WWW/WWW"
    pos = level1(full1, level2="../B.")
    assert slide(pos, pt("c3.2"), pt("e3.2")).position == level1(full1, level2="../.B")
    apex = Position(f"{FULL_BOARD}|{full1}|WW/WW|B")
    assert slide_targets(apex, pt("d4.3")) == []


# -- entries ------------------------------------------------------------------

def test_entry_onto_an_empty_edge_point():
    pos = level1(".../.../...")
    d = enter(pos, pt("b2"), "e", BLACK)
    assert d == Displacement(level1(".../.../B.."), ((None, 16),), ())
    assert enter(pos, pt("f2"), "w", RED).position == level1(".../.../..R")


def test_entry_pushes_a_run():
    pos = level1(".../.../BW.")
    d = enter(pos, pt("b2"), "e", RED)
    assert d.position == level1(".../.../RBW")
    assert d.drops == ((17, 18), (16, 17), (None, 16))


def test_entry_pushing_off_only_when_allowed():
    pos = level1(".../.../BWR")
    with pytest.raises(IllegalMoveError, match="off the board"):
        enter(pos, pt("b2"), "e", WHITE)
    d = enter(pos, pt("b2"), "e", WHITE, allow_off=True)
    assert d.position == level1(".../.../WBW") and d.off == (RED,)


def test_entry_refused_away_from_its_edge():
    pos = level1(".../.../...")
    for name, direction in (("d4.1", "n"), ("d4.1", "e"), ("f2", "e"), ("d2", "w")):
        with pytest.raises(IllegalMoveError, match="edge"):
            enter(pos, pt(name), direction, WHITE)


def test_entry_refused_off_a_platform_or_onto_a_carrying_run():
    with pytest.raises(IllegalMoveError, match="platform"):
        enter(Position.empty(), pt("b2"), "e", WHITE)
    pos = level1(".../WW./WW.", level2="../R.")
    with pytest.raises(IllegalMoveError, match="resting on it"):
        enter(pos, pt("b2"), "e", BLACK)


def test_entry_moves_lists_edges_only():
    pos = level1(".../.../...")
    found = {(p, d) for p, d, _ in entry_moves(pos, WHITE)}
    assert len(found) == 12 and (pt("d4.1"), "n") not in found
    assert (pt("b2"), "n") in found and (pt("b2"), "e") in found


# -- relocations ---------------------------------------------------------------

def test_relocation_not_onto_a_ball_that_just_dropped():
    pos = Position("..../..../WW../WWW.|.../.../B..|../..|.")
    with pytest.raises(IllegalMoveError, match="dropped"):
        relocate(pos, pt("a1"), pt("b2"))
    targets = {t for s, t, _, _ in relocations(pos, 1 << pt("a1"))}
    assert pt("b2") not in targets and pt("g1") in targets
    new, drops = relocate(pos, pt("a1"), pt("b2"), forbid_on_dropped=False)
    assert drops == ((16, 0),)
    assert new == Position("..../..../WW../BWW.|.../.../W..|../..|.")


def test_relocation_must_change_the_position():
    pos = Position("..../..../..../WB..|.../.../...|../..|.")
    with pytest.raises(IllegalMoveError, match="unchanged"):
        relocate(pos, 0, 0)
    assert relocate(pos, 0, 0, must_change=False)[0] == pos
    assert all(s != t for s, t, _, _ in relocations(pos))


def test_relocation_of_pinned_or_missing_ball_refused():
    pos = level1(".../.../WW.")
    # Board point c3.0 holds up both b2 and d2: pinned.
    with pytest.raises(IllegalMoveError, match="pinned"):
        relocate(pos, pt("c3.0"), pt("f4"))
    with pytest.raises(IllegalMoveError, match="no ball"):
        relocate(Position.empty(), 0, 1)


# -- cycle rules -----------------------------------------------------------------

def test_cycle_rules():
    a = Position.empty()
    b = a.place(0, WHITE)
    c = b.place(1, BLACK)
    assert repeats(CHANGE, a, a) and not repeats(CHANGE, b, a)
    assert not repeats(NONE, a, a)
    # Two players; turns so far left b, then c.  Now the first player moves
    # from c: rebuilding b (their own last result) breaks ko.
    assert repeats(KO, b, c, [b, c])
    assert not repeats(KO, a, c, [b, c])
    assert not repeats(KO, b, c, [b, c], players=3)
    assert not repeats(KO, b, a, [])
    # Superko: any earlier position, including the one before this turn.
    assert repeats(SUPERKO, b, c, [b, c]) and repeats(SUPERKO, c, c, [b, c])
    assert not repeats(SUPERKO, a.place(5, RED), c, [b, c])
    with pytest.raises(UnknownGameError, match="superko"):
        repeats("sometimes", a, a)


# -- properties ----------------------------------------------------------------

@st.composite
def stable_positions(draw):
    """Random placements of random colours, played from the empty board."""
    # Draw the ball count first: plain lists stay short, and slides need
    # balls on the raised levels.
    size = draw(st.integers(0, NUM_POINTS))
    picks = draw(st.lists(st.tuples(st.integers(0, 29), st.sampled_from(COLOURS)),
                          min_size=size, max_size=size))
    pos = Position.empty()
    for index, colour in picks:
        playable = points_of(pos.playable())
        if not playable:
            break
        pos = pos.place(playable[index % len(playable)], colour)
    return pos


def replay(pos, drops, colour=None):
    """Apply (from, to) steps one by one, checking that no two balls collide."""
    board = {p: pos.colour_at(p) for p in points_of(pos.occupied)}
    for a, b in drops:
        ball = colour if a is None else board.pop(a)
        if b is not None:
            assert b not in board
            board[b] = ball
    white, black, red = (sum(1 << p for p, c in board.items() if c == k)
                         for k in (WHITE, BLACK, RED))
    return Position.from_masks(white, black, red)


FAST = settings(max_examples=150, deadline=None)


@FAST
@given(stable_positions(), st.booleans())
def test_listed_slides_are_legal_stable_and_conserve_balls(pos, allow_off):
    text = pos.text()
    listed = {(s, t): d for s, t, d in slides(pos, allow_off=allow_off)}
    for (s, t), d in listed.items():
        assert d.position.is_stable()
        assert d.position.count() == pos.count() - len(d.off)
        assert d.position != pos
        assert slide(pos, s, t, allow_off) == d
        assert replay(pos, d.drops) == d.position
    for s in points_of(pos.occupied):
        for t in range(NUM_POINTS):
            if (s, t) not in listed:
                with pytest.raises(IllegalMoveError):
                    slide(pos, s, t, allow_off)
    assert pos.text() == text


@FAST
@given(stable_positions(), st.sampled_from(COLOURS), st.booleans())
def test_listed_entries_are_legal_stable_and_add_one_ball(pos, colour, allow_off):
    text = pos.text()
    listed = {(p, d): disp for p, d, disp in
              entry_moves(pos, colour, allow_off, levels=(1, 2, 3))}
    for (p, d), disp in listed.items():
        assert disp.position.is_stable()
        assert disp.position.count() == pos.count() + 1 - len(disp.off)
        assert disp.position.colour_at(p) == colour
        assert enter(pos, p, d, colour, allow_off) == disp
        assert replay(pos, disp.drops, colour) == disp.position
    for p in range(NUM_POINTS):
        for d in "nesw":
            if (p, d) not in listed:
                with pytest.raises(IllegalMoveError):
                    enter(pos, p, d, colour, allow_off)
    assert pos.text() == text


@FAST
@given(stable_positions(), st.booleans())
def test_listed_relocations_are_legal_and_stable(pos, forbid):
    text = pos.text()
    listed = {(s, t): (new, drops) for s, t, new, drops in
              relocations(pos, forbid_on_dropped=forbid)}
    for (s, t), (new, drops) in listed.items():
        assert new.is_stable() and new.count() == pos.count() and new != pos
        assert new.colour_at(t) == pos.colour_at(s)
        assert relocate(pos, s, t, forbid_on_dropped=forbid) == (new, drops)
        if forbid:
            assert not any(SUPPORTED_MASK[to] >> t & 1 for _, to in drops)
    for s in range(NUM_POINTS):
        for t in range(NUM_POINTS):
            if (s, t) not in listed:
                with pytest.raises(IllegalMoveError):
                    relocate(pos, s, t, forbid_on_dropped=forbid)
    assert pos.text() == text
