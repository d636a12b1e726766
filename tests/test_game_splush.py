"""Splush: entries from the side of a raised level, removal and re-entry, one group to win."""
import pytest
from hypothesis import given, strategies as st

import shibumi.games.splush  # noqa: F401  (registers the game)
from conformance import check_playouts, check_random_games
from conftest import random_position
from shibumi import IllegalMoveError, Move, UnknownGameError, load
from shibumi.analysis import perft
from shibumi.games.splush import (ENTRY_SIDES, START, allowed_after_lift, entered, fast_enter,
                                   fast_remove, lift, tables_for, visible_links)
from shibumi.geometry import APEX, SUPPORTED_MASK, SYMMETRIES, point_at, points_of
from shibumi.mechanics import enter
from shibumi.notation import parse_point
from shibumi.position import BLACK, WHITE, Position, hidden_mask

GAME = load("splush", levels=3)        # apex entries on: the widest reading
DEFAULT = load("splush")
LEVEL_ONE = load("splush", levels=1)
CHECKER = "BWBW/WBWB/BWBW/WBWB"


def state(text, to_move=1, turn=0, ply=0, game=GAME, extra=""):
    return game.parse_state(f"{text} {to_move} turn={turn} ply={ply} {extra}".strip())


def match_at(text, to_move=1, game=GAME, **kw):
    return game.new_match(state=state(text, to_move, game=game, **kw))


def texts(moves):
    return sorted(m.text() for m in moves)


@pytest.mark.parametrize("params", [{"levels": 1}, {"levels": 2}, {"levels": 3},
                                    {"cycle": "ko"}, {"cycle": "none"},
                                    {"cycle": "ko", "levels": 3, "turn_limit": 12}])
def test_variants_play_to_the_end(params):
    check_random_games("splush", seeds=range(8), **params)
    check_playouts("splush", games=150, **params)


def test_level_two_entries_by_default_and_not_with_levels_1():
    # Level 1 full, nothing above it: any push along level 1 would send a ball
    # off the far side, so the entries are the eight ways onto level 2.
    text = CHECKER + "|BWB/WBW/BWB|../..|."
    level_two = sorted(["Wc3.2+n", "Wc3.2+e", "We3.2+n", "We3.2+w",
                        "Wc5.2+s", "Wc5.2+e", "We5.2+s", "We5.2+w"])
    for game in (GAME, load("splush", levels=2)):
        entries = texts(m for m in game.legal_moves(state(text, game=game)) if m.kind == "enter")
        assert entries == level_two
    assert not any(m.kind == "enter" for m in LEVEL_ONE.legal_moves(state(text, game=LEVEL_ONE)))


def test_a_push_on_level_two_may_drop_a_ball_to_level_one():
    # f2 is empty, so e3.2 lacks one support: the white ball pushed from c3.2
    # to e3.2 drops into f2.
    m = match_at(CHECKER + "|BWB/WBW/BW.|../W.|.")
    assert "Wc3.2+e" in texts(m.legal_moves())
    m.push("c3.2+e")
    assert m.state.position == Position(CHECKER + "|BWB/WBW/BWW|../W.|.")


# The board and level 1 full, level 2 all white, the apex empty. White has all
# 16 balls on the pyramid, so it can only lift and re-enter. The corners of the
# board and of level 1 are black and every other ball below level 2 is pinned,
# so White can lift only a ball of level 2; every line of level 1 holds a ball
# carrying one of level 2, so it cannot be pushed, and any way of entering the
# lifted ball on level 2 rebuilds the same all-white level.
FULL_BUT_APEX = "BWBB/WBWW/WBBW/BWWB|BBB/WWW/BWB|WW/WW|."


def test_the_empty_apex_can_be_entered_from_any_side():
    s = state(FULL_BUT_APEX, to_move=2)
    entries = texts(m for m in GAME.legal_moves(s) if m.kind == "enter")
    assert entries == ["Bd4.3+e", "Bd4.3+n", "Bd4.3+s", "Bd4.3+w"]
    after = {GAME.apply(s, Move(e)).position for e in entries}
    assert after == {Position(FULL_BUT_APEX[:-1] + "B")}
    # The apex ball hides the middle of level 1.
    assert hidden_mask(Position(FULL_BUT_APEX[:-1] + "B").occupied) >> parse_point("d4.1") & 1
    no_apex = load("splush", levels=2)
    assert not any(m.kind == "enter" for m in no_apex.legal_moves(state(FULL_BUT_APEX, 2,
                                                                        game=no_apex)))


def test_a_taken_apex_cannot_be_entered():
    # Entering it would push its ball off the pyramid, which Splush forbids.
    text = CHECKER + "|BWB/WBW/BWB|BW/WB|W"
    for to_move in (1, 2):
        s = state(text, to_move)
        assert all(m.point != APEX for m in GAME.legal_moves(s) if m.kind == "enter")
    with pytest.raises(IllegalMoveError):
        match_at(text, to_move=2).push("d4.3+n")


def test_filling_the_pyramid_ends_the_game():
    # White passes (see below); Black's entry onto the apex completes the
    # pyramid, after which no ball can move: the game is drawn (it would be
    # Black's win had it gathered Black's balls).
    m = match_at(FULL_BUT_APEX, turn=20, ply=30)
    m.push("pass")
    m.push("d4.3+w")
    assert m.state.position.count() == 30
    assert m.outcome().is_draw and m.outcome().reason == "neither player can move"


def test_declaration_and_parameters():
    assert load("splash").info is GAME.info is DEFAULT.info       # the book's misspelt heading
    assert GAME.info.max_length == 400 and GAME.info.complexity == 3
    assert DEFAULT.params["levels"] == 2 and GAME.params["levels"] == 3
    for bad in ({"cycle": "superko"}, {"turn_limit": 201}, {"turn_limit": 0},
                {"levels": 0}, {"levels": 4}, {"levels": True}, {"level2": True}):
        with pytest.raises(UnknownGameError):
            load("splush", **bad)


def test_start_is_a_chessboard_with_eight_balls_each_in_hand():
    s = GAME.initial_state()
    assert s.position == START == Position(CHECKER + "|.../.../...|../..|.")
    assert s.position.colour_at(parse_point("a1")) == WHITE
    moves = GAME.legal_moves(s)
    # 12 ways in from the side of level 1 (corners from two sides) and the
    # 8 white balls, each of which can be taken out and entered again.
    assert texts(m for m in moves if m.kind == "enter") == sorted(
        ["Wb2+n", "Wb2+e", "Wd2+n", "Wf2+n", "Wf2+w", "Wb4+e", "Wf4+w", "Wb6+e",
         "Wb6+s", "Wd6+s", "Wf6+s", "Wf6+w"])
    assert texts(m for m in moves if m.kind == "remove") == sorted(
        ["xa1", "xe1", "xc3.0", "xg3", "xa5", "xe5.0", "xc7", "xg7"])
    assert "Wd4.1+e" not in texts(moves)             # the middle of level 1 has no side


# -- entries ---------------------------------------------------------------------

def test_an_entry_pushes_the_line_in_front_of_it():
    m = match_at(CHECKER + "|.../.../BW.|../..|.")
    m.push("b2+e")
    assert m.state.position == Position(CHECKER + "|.../.../WBW|../..|.")
    assert m.current_player == 1


def test_an_entry_may_not_push_a_ball_off_the_board():
    m = match_at(CHECKER + "|.../.../BWB|../..|.")
    assert "Wb2+e" not in texts(m.legal_moves())
    assert "Wf2+w" not in texts(m.legal_moves())
    assert "Wb2+n" in texts(m.legal_moves())         # along the column is fine
    with pytest.raises(IllegalMoveError):
        m.push("b2+e")


def test_a_pushed_ball_drops_into_a_single_hole():
    # g1 is empty, so f2 lacks one support: the ball pushed there drops into g1.
    m = match_at("BWBW/WBWB/BWBW/WBW.|.../.../BW.|../..|.")
    m.push("b2+e")
    assert m.state.position == Position("BWBW/WBWB/BWBW/WBWW|.../.../WB.|../..|.")


def test_no_entry_onto_a_point_without_its_platform():
    m = match_at("BWBW/WBWB/BWBW/.BWB|.../.../...|../..|.")
    assert not {"Wb2+n", "Wb2+e"} & set(texts(m.legal_moves()))


def test_balls_in_hand_run_out():
    # White has all 16 balls on the pyramid (a1 still cut off under Black's
    # b2): only removals are left.
    text = CHECKER + "|WWW/WWW/BWW|../..|."
    s = state(text)
    assert s.position.count(WHITE) == 16
    assert {m.kind for m in GAME.legal_moves(s)} == {"remove"}


# -- removal and re-entry ------------------------------------------------------------

def test_removal_drops_the_ball_above_and_the_ball_is_entered_again():
    # Black's b2 rests on White's a1 (and on c1, a3, c3). Taking a1 away drops
    # b2's ball into a1; White must then enter the ball, but not on b2, which
    # now rests on the ball that has just dropped.
    m = match_at(CHECKER + "|.../.../B..|../..|.")
    m.push("xa1")
    assert m.current_player == 0                      # same player, second action
    assert m.state.position == Position("BWBW/WBWB/BWBW/BBWB|.../.../...|../..|.")
    after = texts(m.legal_moves())
    assert "Wb2+n" not in after and "Wb2+e" not in after
    assert {m.kind for m in m.legal_moves()} == {"enter"}
    with pytest.raises(IllegalMoveError):
        m.push("b2+e")
    m.push("d2+n")
    assert m.state.position == Position("BWBW/WBWB/BWBW/BBWB|.../.../.W.|../..|.")
    assert m.current_player == 1 and GAME.length(m.state) == 2


def test_pushed_balls_may_land_on_the_dropped_ball():
    # Only the entering ball is barred from the dropped ball: after xg1 drops
    # f2's ball into g1, f2 itself is closed to the entry, but a push from b2
    # may move a ball onto f2.
    m = match_at("BWBW/WBWB/BWBW/WBBW|.../.../WBB|../..|.")
    m.push("xg1")
    assert m.state.position == Position("BWBW/WBWB/BWBW/WBBB|.../.../WB.|../..|.")
    assert not {"Wf2+n", "Wf2+w"} & set(texts(m.legal_moves()))
    m.push("b2+e")
    assert m.state.position == Position("BWBW/WBWB/BWBW/WBBB|.../.../WWB|../..|.")


def test_a_turn_must_change_the_position():
    # Lift the free white ball at d2 and enter it at d2 again: nothing changed.
    m = match_at(CHECKER + "|.../.../.W.|../..|.")
    m.push("xd2")
    assert "Wd2+n" not in texts(m.legal_moves())
    loose = load("splush", cycle="none")
    m = match_at(CHECKER + "|.../.../.W.|../..|.", game=loose)
    m.push("xd2")
    assert "Wd2+n" in texts(m.legal_moves())


def test_ko_forbids_going_back_to_your_previous_position():
    # White lifts the free d2 ball. Under ko, the position White left last
    # turn (given as ko=...) may not come back: here that is d2 moved to f2.
    ko = load("splush", cycle="ko")
    text = CHECKER + "|.../.../.W.|../..|."
    left = CHECKER + "|.../.../..W|../..|."
    m = match_at(text, game=ko, extra=f"ko={left}")
    m.push("xd2")
    after = texts(m.legal_moves())
    assert "Wf2+n" not in after and "Wf2+w" not in after
    # Putting the ball back where it was is allowed under ko (it changes
    # nothing, which only the default change rule forbids).
    assert "Wd2+n" in after
    assert ko.state_key(ko.parse_state(ko.state_text(m.state))) == ko.state_key(m.state)
    m.push("d2+n")
    assert m.state.ko == Position(text)        # Black may not go back to it
    with pytest.raises(ValueError):            # ko= belongs to the ko rule only
        state(text, extra=f"ko={left}")


def test_after_a_removal_only_pushes_into_the_gap_remain():
    # Level 1 full. White's a1 holds up b2 alone; after xa1 the only gap on
    # level 1 is b2, which rests on the dropped ball: on level 1 the ball can
    # only come in from the far end of b2's row or column, pushing the line
    # into the gap. Level 2 stays open, except c3.2, which needs b2.
    pushes = ["Wb6+s", "Wf2+w"]
    m = match_at(CHECKER + "|BWB/WBW/BWB|../..|.", game=LEVEL_ONE)
    assert "xa1" in texts(m.legal_moves())
    m.push("xa1")
    assert texts(m.legal_moves()) == pushes
    m = match_at(CHECKER + "|BWB/WBW/BWB|../..|.")
    m.push("xa1")
    assert texts(m.legal_moves()) == sorted(pushes + [
        "We3.2+n", "We3.2+w", "Wc5.2+s", "Wc5.2+e", "We5.2+s", "We5.2+w"])


def test_a_player_without_a_legal_turn_passes():
    # (Built from text.) With entries on level 1 only: White has balls that
    # could be lifted, but no way to enter them again that changes the
    # position, and level 1 is full: White passes, and Black moves on.
    text = "BWWB/BWWB/BWBB/BWBW|WWW/WWW/WBB|../BW|."
    m = match_at(text, turn=10, ply=10, game=LEVEL_ONE)
    assert m.legal_moves() == [Move("pass")]
    m.push("pass")
    assert m.outcome() is None and m.current_player == 1
    assert texts(m.legal_moves()) == ["xa7", "xg7"]
    assert (m.state.turn, m.state.ply) == (11, 11)
    # By default White can bring its last ball in onto level 2 instead (onto
    # an empty point, or pushing a ball of level 2 along), and lift balls to
    # do the same.
    moves = GAME.legal_moves(state(text, turn=10, ply=10))
    assert texts(m for m in moves if m.kind == "enter") == [
        "Wc3.2+n", "Wc5.2+e", "Wc5.2+s", "We3.2+n", "We5.2+s", "We5.2+w"]
    # With every level open: White, all 16 balls on the pyramid, can only
    # lift a ball of level 2 and put it back, which changes nothing.
    m = match_at(FULL_BUT_APEX, turn=20, ply=30)
    assert m.legal_moves() == [Move("pass")]
    m.push("pass")
    assert m.outcome() is None and "Bd4.3+n" in texts(m.legal_moves())


def test_nobody_able_to_move_is_a_draw():
    # Level 1 full and every line one colour: any re-entry rebuilds the
    # position. This needs entries kept to level 1; by default the free
    # points of level 2 are still open.
    text = "BWBB/BBBW/WWWB/WWWB|BBB/WWB/WWB|../B.|."
    s = state(text, turn=20, ply=30, game=LEVEL_ONE)
    assert s.result.is_draw and s.result.reason == "neither player can move"
    assert state(text, turn=20, ply=30).result is None


# -- winning ----------------------------------------------------------------------------

# The book's example (figure lost), rebuilt by search. White to move. White's
# main group (a5 c5 c7 e7 g7 and b4 on level 1) leaves two single balls out:
# c1, pinned under Black's b2 and d2, and g1 in the corner under Black's f2.
# Black threatens to win by lifting its lone a7 and entering it beside its
# main group. White's one winning turn: lift g1 (Black's f2 drops into g1,
# leaving a gap at the end of the bottom line of level 1), then enter at b2
# travelling east, pushing b2 and d2 along; the new white b2 joins c1 to b4.
BOOK = "BWWW/WWBB/BBBB/BWBW|.../W../BBB|../..|."


def _winning_turns(s):
    wins = []
    for m in GAME.legal_moves(s):
        after = GAME.apply(s, m)
        seconds = GAME.legal_moves(after) if m.kind == "remove" else [None]
        for m2 in seconds:
            end = after if m2 is None else GAME.apply(after, m2)
            if end.result is not None and end.result.winners == (s.to_move,):
                wins.append(m.text() if m2 is None else f"{m.text()} {m2.text()}")
    return wins


def test_book_example_the_only_winning_move():
    s = state(BOOK)
    white_groups = sorted(bin(g).count("1") for g in s.position.groups(WHITE))
    assert white_groups == [1, 1, 6]
    assert s.position.is_pinned(parse_point("c1"))
    assert _winning_turns(s) == ["xg1 Wb2+e"]
    m = GAME.new_match(state=s)
    m.push("xg1")
    assert m.state.position.colour_at(parse_point("g1")) == BLACK   # f2 dropped
    m.push("b2+e")
    assert m.state.position == Position("BWWW/WWBB/BBBB/BWBB|.../W../WBB|../..|.")
    assert m.outcome().winners == (0,)
    # Had it been Black's turn, lifting a7 and entering it would have won.
    wins = _winning_turns(state(BOOK, to_move=2))
    assert any(w.startswith("xa7 ") for w in wins)


def test_a_turn_uniting_both_players_goes_to_the_mover():
    # Found in a random game: White has lifted g7 and enters it at b6 going
    # east; the push joins White's balls and Black's at the same time.
    start = "WWBW/WBWB/WWBB/WBB.|BWB/BWW/WB.|../..|."
    text = f"WWBB/WBWB/WWBB/WBB.|BW./BWW/WB.|../..|. 1 turn=14 ply=22 removed=g7 start={start}"
    m = GAME.new_match(state=GAME.parse_state(text))
    m.push("b6+e")
    assert m.outcome().winners == (0,)
    from shibumi.games.splush import united
    assert united(m.state.position, WHITE) and united(m.state.position, BLACK)


def test_the_game_is_drawn_at_the_turn_limit():
    short = load("splush", turn_limit=3)
    m = short.new_match()
    for move in ("b2+e", "f6+w", "d2+n"):
        m.push(move)
    assert m.outcome().is_draw and "3 turns" in m.outcome().reason


# -- state text and symmetry ---------------------------------------------------------------

def test_state_text_round_trips_in_the_middle_of_a_removal():
    m = match_at(CHECKER + "|.../.../B..|../..|.")
    m.push("xa1")
    text = GAME.state_text(m.state)
    assert "removed=a1" in text and "start=" + CHECKER in text
    assert GAME.state_key(GAME.parse_state(text)) == GAME.state_key(m.state)
    for bad in (text.replace("removed=a1 ", ""),               # start without removed
                text.replace("removed=a1", "removed=c1"),      # not the lifted ball
                f"{CHECKER}|.../.../...|../..|R 1 turn=0 ply=0",
                f"{CHECKER}|.../.../...|../..|. 1 turn=2 ply=1"):
        with pytest.raises(ValueError):
            GAME.parse_state(bad)


def test_symmetries_keep_the_chessboard():
    start = GAME.initial_state().position
    for index, perm in enumerate(SYMMETRIES):
        assert (start.transform(perm) == start) == (index in GAME.symmetries)


# -- the fast move helpers agree with the engine's mechanics ------------------------------

def _engine_enter(pos, point, d, colour):
    try:
        return enter(pos, point, d, colour).position
    except IllegalMoveError:
        return None


@given(st.integers(0, 2 ** 32), st.integers(0, 30))
def test_fast_entries_and_removals_match_the_mechanics(seed, balls):
    pos = random_position(seed, balls, colours=(WHITE, BLACK))
    for point, d in ENTRY_SIDES:
        for colour in (WHITE, BLACK):
            fast = fast_enter(pos.white, pos.black, point, d, colour)
            slow = _engine_enter(pos, point, d, colour)
            assert (None if fast is None else Position.from_masks(*fast)) == slow
    for p in points_of(pos.occupied):
        if pos.is_pinned(p):
            continue
        w, b, dropped = fast_remove(pos.white, pos.black, p)
        lifted, drops = pos.remove(p)
        assert Position.from_masks(w, b) == lifted
        assert dropped == sum(1 << to for _, to in drops)


@given(st.integers(0, 2 ** 32), st.integers(0, 30))
def test_memoised_move_tables_match_the_fast_helpers(seed, balls):
    # The tables the rules and the playouts read: entries in side order, and
    # each lift with the entries left after it.
    pos = random_position(seed, balls, colours=(WHITE, BLACK))
    w, b, occ = pos.white, pos.black, pos.occupied
    tables = tables_for(ENTRY_SIDES)
    for colour in (WHITE, BLACK):
        expected = [((p, d), fast_enter(w, b, p, d, colour)) for p, d in ENTRY_SIDES]
        assert [((e[0], e[1]), entered(w, b, e, colour)) for e in tables.entries(occ)] == \
            [(side, new) for side, new in expected if new is not None]
    for p in points_of(occ):
        if pos.is_pinned(p):
            continue
        lift_path, cands, emptied = tables.lifting(occ, p)
        lw, lb, dropped = fast_remove(w, b, p)
        assert lift(w, b, lift_path) == (lw, lb)
        assert emptied == occ & ~(lw | lb)
        banned = 0
        for q in points_of(dropped):          # no entry onto a ball that dropped
            banned |= SUPPORTED_MASK[q]
        assert [(e[0], e[1]) for e in cands] == [
            (q, d) for q, d in ENTRY_SIDES if not banned >> q & 1
            and fast_enter(lw, lb, q, d, WHITE) is not None]


@given(st.integers(0, 2 ** 32), st.integers(8, 30), st.integers(0, 2 ** 30))
def test_re_entries_memoised_on_the_colours_they_move_match_the_rule(seed, balls, recolour):
    # The playout's re-entries under the default rule, memoised per lift on the
    # colours of the points they move, against playing each out and comparing
    # with the start; a second colouring of the same balls reads the memo.
    pos = random_position(seed, balls, colours=(WHITE, BLACK))
    occ = pos.occupied
    tables = tables_for(ENTRY_SIDES)
    record = tables.record(occ)
    for w in (pos.white, recolour & occ):
        b = occ & ~w
        for p in points_of(occ):
            if pos.is_pinned(p):
                continue
            lift_path, cands, _ = tables.lifting(occ, p)
            lw, lb = lift(w, b, lift_path)
            colour = WHITE if w >> p & 1 else BLACK
            lifted = record[6].get(p) or tables.lift_items(record, occ, p)
            assert allowed_after_lift(lifted, w, b) == tuple(
                e for e in cands if entered(lw, lb, e, colour) != (w, b))


@given(st.integers(0, 2 ** 32), st.integers(0, 30))
def test_an_occupancy_record_sorts_the_balls_as_removable_does(seed, balls):
    # The record marks at once the free balls outside what some entry looks at;
    # its visible balls come from the memo of the balls above the board.
    occ = random_position(seed, balls, colours=(WHITE, BLACK)).occupied
    tables = tables_for(ENTRY_SIDES)
    tables.records.pop(occ, None)
    record = tables.record(occ)
    assert record[0] == visible_links(occ)[0]          # the visible balls
    assert record[4] & ~tables.removable(occ, occ)[0] == 0
    tables.classify(record, occ, occ & ~record[3])
    assert (record[4], record[5]) == tables.removable(occ, occ)


@given(st.integers(0, 2 ** 32), st.integers(1, 30))
def test_the_playouts_judge_matches_the_rules(seed, balls):
    # The playout skips the flood when a ball touches no other of its colour.
    pos = random_position(seed, balls, colours=(WHITE, BLACK))
    record = DEFAULT.tables.record(pos.occupied)
    for mover in (0, 1):
        assert DEFAULT._mask_judge(pos.white, pos.black, mover, record) == \
            DEFAULT._judge(pos.white, pos.black, mover)


# -- perft ---------------------------------------------------------------------------------------
#
# An independent count: balls as a dict {(level, x, y): colour}; entries
# simulated step by step (walk the line, check what the pushed balls carry,
# where the front ball lands); removals drop the column one ball at a time.
# Groups are found from coordinates too: a ball is hidden under the point two
# levels straight above it; a flat contact is cut when both balls of the
# level above that pass over it are there.

SIDES = {"e": (1, 0), "w": (-1, 0), "n": (0, 1), "s": (0, -1)}


def _inside(lv, x, y):
    return 0 <= lv <= 3 and 0 <= x < 4 - lv and 0 <= y < 4 - lv


def _below(lv, x, y):
    return [(lv - 1, x + dx, y + dy) for dx in (0, 1) for dy in (0, 1)]


def _above(lv, x, y):
    return [(lv + 1, x - dx, y - dy) for dx in (0, 1) for dy in (0, 1)
            if _inside(lv + 1, x - dx, y - dy)]


def _brute_enter(balls, pt, d, colour):
    lv, x, y = pt
    if not all(b in balls for b in _below(*pt)):
        return None
    new = dict(balls)
    dx, dy = SIDES[d]
    line = []
    q = pt
    while q in balls:
        if any(a in balls for a in _above(*q)):
            return None
        line.append(q)
        q = (lv, q[1] + dx, q[2] + dy)
    if line:
        if not _inside(*q):
            return None
        missing = [b for b in _below(*q) if b not in balls]
        if len(missing) > 1:
            return None
        if missing:
            hole = missing[0]
            if hole[0] > 0 and not all(b in balls for b in _below(*hole)):
                return None
            q = hole
        for src in reversed(line):
            new[q] = balls[src]
            q = src
    new[pt] = colour
    return new


def _brute_remove(balls, pt):
    new = dict(balls)
    dropped = []
    gap = pt
    del new[pt]
    while True:
        on = [a for a in _above(*gap) if a in new]
        if not on:
            return new, dropped
        top = on[0]
        new[gap] = new.pop(top)
        dropped.append(gap)
        gap = top


def _brute_entries(balls, colour, start, banned=(), levels=3):
    """Positions after an entry onto levels 1 to `levels` (3: the apex too)."""
    found = []
    for pt in [(lv, x, y) for lv in range(1, levels + 1)
               for y in range(4 - lv) for x in range(4 - lv)]:
        lv, x, y = pt
        if True:
            for d, (dx, dy) in SIDES.items():
                if _inside(lv, x - dx, y - dy):
                    continue                      # not on the edge it enters from
                if any(pt in _above(*b) for b in banned):
                    continue
                new = _brute_enter(balls, pt, d, colour)
                if new is not None and new != start:
                    found.append(new)
    return found


def _brute_touching(balls, a):
    lv, x, y = a
    out = []
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        b = (lv, x + dx, y + dy)
        if b in balls:
            lx, ly = min(x, x + dx), min(y, y + dy)
            pair = [(lv + 1, lx, ly - 1), (lv + 1, lx, ly)] if dy == 0 else \
                [(lv + 1, lx - 1, ly), (lv + 1, lx, ly)]
            if not all(q in balls for q in pair):
                out.append(b)
    out += [b for b in _below(*a) + _above(*a) if b in balls]
    return [b for b in out if (b[0] + 2, b[1] - 1, b[2] - 1) not in balls]


def _brute_united(balls, colour):
    mine = {a for a, c in balls.items() if c == colour
            and (a[0] + 2, a[1] - 1, a[2] - 1) not in balls}
    seen, todo = set(), [next(iter(mine))]
    while todo:
        a = todo.pop()
        if a not in seen:
            seen.add(a)
            todo += [b for b in _brute_touching(balls, a) if b in mine]
    return seen == mine


def _after_turn(balls, player, depth, levels):
    if depth == 0:
        return 1
    if _brute_united(balls, "WB"[1 - player]) or _brute_united(balls, "WB"[player]):
        return 0
    return _brute_count(balls, player, depth, levels=levels)


def _brute_count(balls, player, depth, pending=None, levels=3):
    """Actions `depth` deep; `pending` = (start, dropped) during a re-entry."""
    if depth == 0:
        return 1
    colour = "WB"[player]
    if pending is not None:
        start, dropped = pending
        return sum(_after_turn(n, 1 - player, depth - 1, levels)
                   for n in _brute_entries(balls, colour, start, dropped, levels))
    total = 0
    if sum(1 for c in balls.values() if c == colour) < 16:
        total += sum(_after_turn(n, 1 - player, depth - 1, levels)
                     for n in _brute_entries(balls, colour, balls, (), levels))
    for pt, c in balls.items():
        if c != colour or sum(1 for a in _above(*pt) if a in balls) > 1:
            continue
        lifted, dropped = _brute_remove(balls, pt)
        if _brute_entries(lifted, colour, balls, dropped, levels):
            total += _brute_count(lifted, player, depth - 1, (balls, dropped), levels)
    return total


def _dict(position):
    out = {}
    for lv in range(4):
        for y in range(4 - lv):
            for x in range(4 - lv):
                c = position.colour_at(point_at(lv, x, y))
                if c:
                    out[(lv, x, y)] = ".WB"[c]
    return out


def test_perft_from_the_start_and_a_brute_force():
    counts = [perft(GAME, d) for d in range(1, 4)]
    # Depth 1 by hand: 12 entries + 8 removals (see the start test). Level 1
    # starts empty, so three actions cannot open level 2: the counts are the
    # same whatever levels entries may reach.
    assert counts[0] == 20
    assert counts == [_brute_count(_dict(START), 0, d) for d in range(1, 4)]
    assert counts == [20, 312, 5060]
    assert [perft(LEVEL_ONE, d) for d in range(1, 4)] == counts


# Each position with the counts of the default (entries up to the apex), of
# levels=2 (no apex) and of levels=1, all three checked by the brute force.
@pytest.mark.parametrize("text, default, no_apex, level_one", [
    # Level 1 full: pushes on it blocked, level 2 open.
    (CHECKER + "|BWB/WBW/BWB|../..|.", [14, 156, 1852], [14, 156, 1852], [6, 16, 112]),
    # The book's example, a win in one turn; level 2 opens later.
    (BOOK, [17, 230, 3102], [17, 230, 3102], [17, 226, 2908]),
    # A hole to drop into.
    ("BWBW/WBWB/BWBW/WBW.|.../.../BW.|../..|.", [18, 229, 3355], [18, 229, 3355],
     [18, 229, 3343]),
    # Level 2 full, the apex empty: the apex entries, and nothing else but
    # removals with levels=2 (with levels=1 nobody can move: a draw).
    (CHECKER + "|BWB/WBW/BWB|BW/WB|.", [8, 8, 96], [4, 8, 64], [0, 0, 0]),
    # A push along level 2 that drops its last ball into level 1.
    (CHECKER + "|BWB/WBW/BW.|../W.|.", [18, 172, 2050], [18, 172, 2050], [12, 41, 236]),
])
def test_perft_where_pushes_drops_and_bans_matter(text, default, no_apex, level_one):
    for levels, expected in ((3, default), (2, no_apex), (1, level_one)):
        game = load("splush", levels=levels)
        s = state(text, game=game)
        counts = [perft(game, d, s) for d in range(1, 4)]
        assert counts == expected, levels
        assert counts == [_brute_count(_dict(s.position), 0, d, levels=levels)
                          for d in range(1, 4)], levels
