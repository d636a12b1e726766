"""The facts that the pages of book/system/ state, checked on the same positions.

Each example position of Part I ("The system") is repeated here; the first test
checks that every one still appears in its page, so a page and its test cannot
drift apart silently.
"""
import math
import pathlib
import random

import pytest

import shibumi
from shibumi.errors import IllegalMoveError
from shibumi.geometry import (CENTRE, CONTACTS, COORDS, COVER, INTERIOR, INTERIOR_MASK,
                              LEVEL, NUM_POINTS, SUPPORTS, points_of)
from shibumi.mechanics import (CHANGE, KO, SUPERKO, enter, entry_moves, relocate,
                               relocations, repeats, slide, slide_targets, slides)
from shibumi.notation import Move, parse_line, parse_point, point_candidates, point_name
from shibumi.position import BLACK, INTERIOR_REDS, RED, WHITE, Position

BOOK = pathlib.Path(__file__).resolve().parent.parent / "book" / "system"
P = parse_point

DROP = "RBR./WRW./RWB./RRB.|BB./WW./RB.|B./B.|."
CUT = "..../.BB./.RR./.BB.|.../.W./.W.|../..|."
LOOP = "..../..../WW../WWW.|.../.../B..|../..|."
SLIDES = "BWBW/WBWB/BWBW/WBWB|RR./WW./WB.|../B.|."
DROPS = "BWBW/WBW./BWB./W.WB|.../.B./...|../..|."
STEEP = "BWBW/WBWB/BWBW/WBW.|.../WBW/BW.|../R.|."
ENTRY = "BWBW/WBWB/BWBW/WBWB|.W./.R./...|../..|."
ACTIVATION = "c3 e7 c7 a7 e3 a3 a5 e5"
KO_GAME = "Wf6+w xc5.0 Bf6+w xc5.0"
SUPERKO_GAME = "We7 Bg1 Wa3 Bg5 a3>c5.0 g1>c1 c5.0>e1 c1>g1"
NOTATION_GAME = "c3 c5 e3 e5 d4 a1 c1 a3 b2 e1 d2 a5 b4"

PAGES = ["index", "the_set", "placement", "removal_and_drops", "visibility",
         "connectivity", "cycles", "moving_balls", "notation"]


def names(mask_or_points):
    pts = points_of(mask_or_points) if isinstance(mask_or_points, int) else mask_or_points
    return sorted(point_name(p) for p in pts)


def mask(*texts):
    return sum(1 << P(t) for t in texts)


def play(game, moves):
    match = shibumi.load(game).new_match()
    for text in moves.split():
        match.push(text)
    return match


# -- the pages -----------------------------------------------------------------------

@pytest.mark.parametrize("page, text", [
    ("removal_and_drops", DROP), ("connectivity", CUT), ("cycles", LOOP),
    ("moving_balls", SLIDES), ("moving_balls", DROPS), ("moving_balls", STEEP),
    ("moving_balls", ENTRY), ("placement", ACTIVATION), ("cycles", KO_GAME),
    ("cycles", SUPERKO_GAME), ("notation", NOTATION_GAME)])
def test_examples_appear_in_their_pages(page, text):
    assert text in (BOOK / f"{page}.md").read_text()


def test_pages_are_myst_notebooks_linking_only_to_registered_games():
    from shibumi.games import CATALOGUE
    import re
    for page in PAGES:
        source = (BOOK / f"{page}.md").read_text()
        assert source.startswith("---\njupytext:") and "format_name: myst" in source
        for module in re.findall(r"\.\./games/([a-z_]+)\.md", source):
            assert module in CATALOGUE, (page, module)


# -- the set ---------------------------------------------------------------------------

def test_levels_points_and_heights():
    assert [sum(1 for p in range(NUM_POINTS) if LEVEL[p] == lv) for lv in range(4)] == \
        [16, 9, 4, 1]
    heights = sorted({CENTRE[p][2] for p in range(NUM_POINTS)})
    assert all(math.isclose(b - a, 1 / math.sqrt(2)) for a, b in zip(heights, heights[1:]))
    for p in range(16, NUM_POINTS):
        assert all(math.isclose(math.dist(CENTRE[p], CENTRE[q]), 1) for q in SUPPORTS[p])


def test_spinimax_fills_the_pyramid():
    game = shibumi.load("spinimax")
    final = game.random_playout(game.initial_state(), random.Random(2026)).position
    assert final.count() == 30
    assert final.hidden() == INTERIOR_MASK and final.visible().bit_count() == 25


# -- placement -------------------------------------------------------------------------

def test_activation_eight_to_eleven():
    before = play("spline", ACTIVATION).state.position
    c5 = P("c5.0")
    after = before.place(c5, WHITE)
    assert before.playable().bit_count() == 8 and after.playable().bit_count() == 11
    assert names(before.activated_by(c5)) == ["b4", "b6", "d4.1", "d6"]
    assert after == play("spline", ACTIVATION + " c5").state.position


def test_never_more_than_sixteen_playable():
    assert Position.empty().playable().bit_count() == 16
    for p in range(16, NUM_POINTS):
        lv, x, y = COORDS[p]
        assert any(COORDS[q] == (lv - 1, x, y) for q in SUPPORTS[p])
    rng = random.Random(7)
    for name in ("spline", "spyramid"):
        game = shibumi.load(name)
        for _ in range(30):
            state = game.initial_state(rng)
            while not game.is_terminal(state):
                assert state.position.playable().bit_count() <= 16
                state = game.random_step(state, rng)


def test_touching_and_diagonals():
    later = play("spline", ACTIVATION + " c5 d4").state.position
    assert names(later.touching(P("c5.0"))) == ["a5", "c3.0", "c7", "d4.1", "e5.0"]
    assert names(SUPPORTS[P("d4.1")]) == ["c3.0", "c5.0", "e3.0", "e5.0"]


# -- removal, drops, pinning -------------------------------------------------------------

def test_two_ball_drop_cuts_black_and_joins_white():
    pos = Position(DROP)
    after, drops = pos.remove(P("a1"))
    assert [(point_name(a), point_name(b)) for a, b in drops] == [("b2", "a1"), ("c3.2", "b2")]
    assert names(pos.hidden()) == ["c3.0", "c5.0"] and names(after.hidden()) == ["c5.0"]
    assert len(pos.groups(WHITE)) == 2 and len(after.groups(WHITE)) == 1
    assert after.groups(WHITE)[0] == mask("a5", "b4", "c3.0", "d4.1", "e5.0")
    assert [g.bit_count() for g in pos.groups(BLACK)] == [8]
    assert sorted(g.bit_count() for g in after.groups(BLACK)) == [4, 4]


def test_pinned_movable_free():
    pos = Position(DROP)
    pinned = [p for p in points_of(pos.occupied) if pos.is_pinned(p)]
    assert names(pinned) == ["a3", "a5", "b4", "c1", "c3.0", "c5.0", "c7", "d4.1",
                             "e3.0", "e5.0"]
    assert names(pos.movable()) == ["a1", "a7", "b2", "b6", "c3.2", "c5.2", "d2", "d6",
                                    "e1", "e7"]
    assert names([p for p in points_of(pos.occupied) if pos.is_free(p)]) == ["c3.2", "c5.2"]
    for p in pinned:
        with pytest.raises(IllegalMoveError, match="pinned"):
            pos.remove(p)


def test_relocation_targets_skip_the_dropped_column():
    pos = Position(DROP)
    assert {point_name(t) for _, t, _, _ in relocations(pos, mask("a1"))} == \
        {"g1", "g3", "g5", "g7"}
    lifted, _ = pos.remove(P("a1"))
    assert lifted.is_playable(P("c3.2"))
    with pytest.raises(IllegalMoveError, match="dropped"):
        relocate(pos, P("a1"), P("c3.2"))


# -- visibility ----------------------------------------------------------------------------

def test_interior_points_and_covers():
    assert names(INTERIOR) == ["c3.0", "c5.0", "d4.1", "e3.0", "e5.0"]
    assert {point_name(p): point_name(COVER[p]) for p in INTERIOR}["d4.1"] == "d4.3"


def test_red_core_keeps_every_later_ball_visible_except_in_spice():
    rng = random.Random(11)
    hidden_seen = {}
    for name in ("sparro", "sponnect", "spice"):
        game = shibumi.load(name)
        assert game.initial_state(rng).position == INTERIOR_REDS
        hidden_seen[name] = 0
        for _ in range(60):
            state = game.initial_state(rng)
            while True:
                if state.position.hidden() & ~state.position.red:
                    hidden_seen[name] += 1
                    break
                if game.is_terminal(state):
                    break
                state = game.random_step(state, rng)
    assert hidden_seen["sparro"] == hidden_seen["sponnect"] == 0
    assert hidden_seen["spice"] > 0


# -- connectivity and ownership ----------------------------------------------------------------

def test_overpass_cuts_the_red_pair():
    pos = Position(CUT)
    assert [names(g) for g in pos.groups(WHITE)] == [["d2", "d4.1"]]
    assert sorted(names(g) for g in pos.groups(RED)) == [["c3.0"], ["e3.0"]]
    assert [names(g) for g in pos.groups(RED, visible_only=False)] == [["c3.0", "e3.0"]]
    assert not pos.hidden()


def test_sixteen_of_ninety_six_contacts_can_be_cut():
    assert len(CONTACTS) == 96 and sum(1 for *_, over in CONTACTS if over) == 16


def test_neutral_reds_join_no_group():
    pos = play("sponnect", "a3 c7 a5 e7 b4").state.position
    assert [names(g) for g in pos.groups(WHITE)] == [["a3", "a5", "b4"]]
    assert pos.touching(P("b4")) & pos.red


# -- cycles ---------------------------------------------------------------------------------------

def test_rebuilding_the_dropped_column_loops_and_is_forbidden():
    pos = Position(LOOP)
    once, _ = relocate(pos, P("a1"), P("b2"), forbid_on_dropped=False)
    twice, _ = relocate(once, P("a1"), P("b2"), forbid_on_dropped=False)
    assert twice == pos != once
    with pytest.raises(IllegalMoveError, match="dropped"):
        relocate(pos, P("a1"), P("b2"))
    with pytest.raises(IllegalMoveError, match="unchanged"):
        relocate(pos, P("e1"), P("e1"))
    assert repeats(CHANGE, pos, pos)


def test_ko_forbids_white_undoing_blacks_entry_in_splush():
    ko = play("splush(cycle='ko')", KO_GAME)
    change = play("splush", KO_GAME)
    assert change.game.params["cycle"] == CHANGE
    assert {m.text() for m in change.legal_moves()} - {m.text() for m in ko.legal_moves()} \
        == {"Wf6+w"}
    after_white = play("splush(cycle='ko')", "Wf6+w").state.position
    again = enter(ko.state.position, P("f6"), "w", WHITE)
    assert again.position == after_white


def test_superko_forbids_what_ko_allows_in_spline_plus():
    legal = {rule: {m.text() for m in play(f"spline+(cycle={rule!r})", SUPERKO_GAME).legal_moves()}
             for rule in ("none", "ko", "superko")}
    assert legal["none"] == legal["ko"]
    assert legal["none"] - legal["superko"] == {"e1>a3", "e1>c5.0"}
    assert shibumi.load("spline+").params["cycle"] == SUPERKO
    seen = [play("spline+", " ".join(SUPERKO_GAME.split()[:k])).state.position
            for k in range(1, 9)]
    back = relocate(seen[-1], P("e1"), P("a3"))[0]
    assert back == seen[3]
    assert repeats(SUPERKO, back, seen[-1], seen) and not repeats(KO, back, seen[-1], seen)


# -- slides, pushes, entries ---------------------------------------------------------------------------

def test_slides_pushes_and_carried_balls():
    pos = Position(SLIDES)
    assert [(point_name(s), point_name(t)) for s, t, _ in slides(pos)] == \
        [("d2", "f2"), ("d4.1", "f4"), ("b6", "d6"), ("d6", "f6"), ("c3.2", "c5.2")]
    assert slide(pos, P("b6"), P("d6")).drops == ((P("d6"), P("f6")), (P("b6"), P("d6")))
    assert slide(pos, P("d2"), P("f2")).drops == ((P("d2"), P("f2")), (P("c3.2"), P("d2")))
    with pytest.raises(IllegalMoveError, match="resting on it"):
        slide(pos, P("b2"), P("d2"))
    with pytest.raises(IllegalMoveError, match="pushed off"):
        slide(pos, P("d6"), P("b6"))


def test_slide_drops_one_level_and_only_when_certain():
    pos = Position(DROPS)
    assert [point_name(t) for t, _ in slide_targets(pos, P("d4.1"))] == ["d6", "c1", "b4"]
    with pytest.raises(IllegalMoveError, match="one of g3 g5"):
        slide(pos, P("d4.1"), P("g3"))
    with pytest.raises(IllegalMoveError, match="more than one level"):
        slide(Position(STEEP), P("c3.2"), P("f2"))


def test_entry_pushes_the_column():
    pos = Position(ENTRY)
    entered = enter(pos, P("d6"), "s", RED)
    assert entered.position == Position("BWBW/WBWB/BWBW/WBWB|.R./.W./.R.|../..|.")
    assert len(entry_moves(pos, RED)) == 12
    full = Position("BWBW/WBWB/BWBW/WBWB|.W./.R./.B.|../..|.")
    with pytest.raises(IllegalMoveError, match="pushed off"):
        enter(full, P("d6"), "s", RED)
    assert enter(full, P("d6"), "s", RED, allow_off=True).off == (BLACK,)


# -- notation ---------------------------------------------------------------------------------------

def test_shared_squares_resolve_in_a_game():
    match = shibumi.load("spline").new_match()
    assert match.parse("c3") == Move("Wc3.0")
    for text in NOTATION_GAME.split():
        match.push(text)
    assert match.parse("c3") == Move("Bc3.2")
    assert point_candidates("c3") == (P("c3.0"), P("c3.2"))
    pos = match.state.position
    assert Position(pos.text()) == pos == Position.from_int(pos.to_int())


@pytest.mark.parametrize("text, kind", [
    ("d6", "place"), ("Rd6", "place"), ("xb2", "remove"), ("b2>d4.1", "move"),
    ("b4~d4.1", "slide"), ("Wb4+e", "enter"), ("pass", "pass"), ("=R", "choose"),
    ("=3", "choose")])
def test_move_texts(text, kind):
    assert Move(text).kind == kind and Move(text).text() == text


def test_italian_lines_are_on_level_one():
    for text in ("b6-d4-f2", "d6-f6", "b4-d6", "b6-b4-b2", "f6-f4-f2"):
        assert {LEVEL[p] for p in parse_line(text)} == {1}
