"""Spone: placements and pushing entries around a red core; the largest group's parity wins."""
import random

import pytest

from conformance import (check_playouts, check_random_games, check_symmetries,
                         random_walk)
from reference import ABOVE, ALL, below, cells_of, open_points, playable
from shibumi import IllegalMoveError, NotationError, UnknownGameError, load
from shibumi.analysis import perft
from shibumi.games.spone import (MOVES, SIDES, START, entered, largest_groups,
                                 largest_when_full, pushes)
from shibumi.games.spone import entries as entries_of
from shibumi.geometry import ALL_MASK
from shibumi.interaction import Table
from shibumi.mechanics import enter
from shibumi.notation import parse_point
from shibumi.position import BLACK, WHITE, Position, group_of

GAME = load("spone")
ALL_CONTACTS = load("spone", contacts="all")
CORE = "..../.RR./.RR./...."


def state(text, game=GAME):
    """The state of a position, with the player to move given by the ball counts."""
    pos = Position(text)
    return game.parse_state(f"{text} {(pos.count(WHITE) + pos.count(BLACK)) % 2 + 1}")


def texts(moves):
    return sorted(m.text() for m in moves)


def entries(s, game=GAME):
    return texts(m for m in game.legal_moves(s) if m.kind == "enter")


def at(position, name):
    return position.colour_at(parse_point(name))


# -- conformance -----------------------------------------------------------------------

def test_conformance():
    check_random_games("spone", seeds=range(12))
    check_random_games("spone", seeds=range(4), contacts="all")


def test_the_fast_playout_plays_the_rules_games_with_every_contact_too():
    check_playouts("spone", games=100, contacts="all")


def test_the_count_of_a_full_pyramid_agrees_with_largest_groups():
    for seed in range(100):
        final = GAME.random_playout(GAME.initial_state(), random.Random(seed)).position
        for visible in (True, False):
            assert largest_when_full(final.white, final.black, visible) \
                == largest_groups(final, visible)[0]


def test_entries_on_masks_agree_with_the_shared_push_rule():
    """The occupancy-only entries (the fast path's) give the positions that
    mechanics.enter gives, for every entry side, along random games."""
    for seed in range(30):
        rng = random.Random(seed)
        s = GAME.initial_state()
        while not GAME.is_terminal(s):
            pos = s.position
            expected = {}
            for p, d in SIDES:
                if pos.occupied >> p & 1:
                    try:
                        expected[p, d] = enter(pos, p, d, WHITE).position
                    except IllegalMoveError:
                        pass
            found = {}
            for side, toggles in entries_of(pos.occupied):
                masks = [0, pos.white, pos.black, pos.red]
                entered(masks, toggles, side[0], WHITE)
                found[side] = Position.from_masks(*masks[1:])
            assert found == expected and list(found) == [sd for sd in SIDES if sd in found]
            s = GAME.apply(s, rng.choice(GAME.legal_moves(s)))


def test_symmetries_along_random_games():
    for seed in range(6):
        for steps in (3, 9, 17, 25, 26):
            check_symmetries(GAME, random_walk(GAME, seed, steps))


def test_declaration():
    info = GAME.info
    assert (info.name, info.designer, info.year) == ("Spone", "Giacomo Galimberti", "2012")
    assert info.source == "Annexe 1 of the French edition of the Shibumi Rule Book"
    assert info.max_length == MOVES == 26 and GAME.symmetries == tuple(range(8))
    with pytest.raises(UnknownGameError):
        load("spone", contacts="some")
    with pytest.raises(UnknownGameError):
        load("spone", contacts=1)


# -- the start and the length ----------------------------------------------------------

def test_the_start_is_four_reds_in_the_centre_of_the_board():
    s = GAME.initial_state()
    assert s.position == Position(CORE + "|.../.../...|../..|.")
    assert s.position.red == sum(1 << parse_point(p) for p in ("c3.0", "e3.0", "c5.0", "e5.0"))
    assert s.to_move == 0 and GAME.length(s) == 0
    # The 12 empty holes, and d4 on the red core; no ball to push yet.
    assert texts(GAME.legal_moves(s)) == sorted(
        ["Wa1", "Wc1", "We1", "Wg1", "Wa3", "Wg3", "Wa5", "Wg5", "Wa7", "Wc7", "We7",
         "Wg7", "Wd4.1"])


def test_every_game_lasts_26_turns_and_ends_13_13():
    for seed in range(30):
        final = GAME.random_playout(GAME.initial_state(), random.Random(seed))
        pos = final.position
        # 29 balls stand only with the apex empty: Black's last ball is forced there.
        assert final.last.text() == "Bd4.3"
        assert pos.occupied == ALL_MASK and GAME.length(final) == 26
        assert (pos.count(WHITE), pos.count(BLACK), pos.red) == (13, 13, START.red)
        assert GAME.outcome(final).winners in ((0,), (1,))


def test_each_turn_adds_one_ball_of_the_movers_colour():
    rng = random.Random(5)
    s = GAME.initial_state()
    while not GAME.is_terminal(s):
        move = rng.choice(GAME.legal_moves(s))
        after = GAME.apply(s, move)
        colour = (WHITE, BLACK)[s.to_move]
        assert after.position.count(colour) == s.position.count(colour) + 1
        assert after.position.count(WHITE + BLACK - colour) == \
            s.position.count(WHITE + BLACK - colour)
        assert after.position.red == START.red and after.position.is_stable()
        s = after


# -- entries ---------------------------------------------------------------------------

def test_an_entry_pushes_and_the_last_ball_drops_into_a_single_gap():
    m = GAME.new_match()
    for move in "a1 c1 a3 d4 b2".split():
        m.push(move)
    # The white ball on b2 is the only ball on an edge point of level 1:
    # Black may enter there from the south or from the west.
    assert entries(m.state) == ["Bb2+e", "Bb2+n"]
    m.push("b2+n")
    pos = m.state.position
    # It was pushed north to b4, which lacks a5 only: it dropped into a5.
    assert (at(pos, "b2"), at(pos, "b4"), at(pos, "a5")) == (BLACK, 0, WHITE)


def test_entries_on_level_one_stop_at_the_edge_of_the_pyramid():
    # The board full, the column b of level 1 full: pushing along it would
    # send a ball off the far side.
    s = state("WBWB/BRRW/WRRB/BWBW|B../W../W..|../..|.")
    assert s.to_move == 1
    assert entries(s) == ["Bb2+e", "Bb4+e", "Bb6+e"]
    m = GAME.new_match(state=s)
    with pytest.raises(IllegalMoveError):
        m.push("b2+n")
    assert m.state is s
    m.push("b4+e")
    assert m.state.position == Position("WBWB/BRRW/WRRB/BWBW|B../BW./W..|../..|.")


def test_no_entry_pushes_a_ball_that_carries_one():
    # b2, d2, b4 and d4 of level 1 hold up c3 of level 2.
    loaded = "WBWB/BRRW/WRRB/BWBW|.../BW./WB.|../W.|."
    s = state(loaded)
    assert s.to_move == 1
    # Every line through b2, d2, b4 or d4 carries c3.2. Pushing c3.2 itself east
    # or north ends over two gaps of level 1, which is not a clear drop.
    assert entries(s) == []
    assert not pushes(s.position.occupied)


def test_a_level_two_push_may_drop_to_level_one():
    # f2 is taken, f4 is not: pushed east, the ball on c3.2 ends over e3.2,
    # which lacks f4 only, a playable point, so it drops there.
    s = state("WBWB/BRRW/WRRB/BWBW|.../BW./WBB|../W.|.")
    assert s.to_move == 0
    assert entries(s) == ["Wc3.2+e", "Wf2+n"]
    after = GAME.apply(s, next(m for m in GAME.legal_moves(s) if m.text() == "Wc3.2+e"))
    assert after.position == Position("WBWB/BRRW/WRRB/BWBW|.../BWW/WBB|../W.|.")


def test_a_drop_must_fall_one_level_only():
    # e3.2 lacks f2 only, but f2 cannot hold a ball (g1 is empty): no drop there.
    s = state("WBWB/BRRW/WRRB/BWB.|.../WWB/WB.|../W.|.")
    assert s.to_move == 1 and "Bc3.2+e" not in entries(s)
    with pytest.raises(IllegalMoveError, match="more than one level"):
        enter(s.position, parse_point("c3.2"), "e", WHITE)


def test_an_empty_edge_point_is_placed_on_not_entered():
    # Level 1's edge points b2 .. f6 are playable once the board is full, but
    # with no ball on them an entry is just a placement: only placements.
    s = state("WBWB/BRRW/WRRB/BWBW|.../.../...|../..|.")
    assert entries(s) == []
    assert len(GAME.legal_moves(s)) == 9


def test_the_apex_is_never_entered():
    # Every line is full: any push would send a ball off, and the apex is placed on.
    full_but_apex = "WBWB/BRRW/WRRB/BWBW|BWB/WWW/BWB|WB/BW|."
    s = state(full_but_apex)
    assert s.to_move == 1 and texts(GAME.legal_moves(s)) == ["Bd4.3"]
    # With e3.2 empty, c3.2 and e5.2 can be pushed into it along level 2.
    full_but_one = "WBWB/BRRW/WRRB/BWBW|BWB/WWW/BWB|WB/B.|."
    assert texts(GAME.legal_moves(state(full_but_one))) == ["Wc3.2+e", "We3.2", "We5.2+s"]


# -- the count -------------------------------------------------------------------------

# Finished pyramids met in random games.
DIFF = "BBWB/WRRB/WRRB/WBBB|BWW/WWW/BBW|WW/BW|B"
THIRTEEN = "BBWB/WRRB/WRRW/WWBW|BBB/BWW/WBB|WW/BW|B"
TIE = "BBWB/WRRB/WRRW/BWBW|BWB/WWW/WBB|WB/WB|B"
EIGHT = "WBWB/WRRB/WRRB/BWBW|BWB/BWW/WBW|BW/WB|B"


@pytest.mark.parametrize("text, visible, every", [
    (DIFF, 12, 13), (THIRTEEN, 13, 13), (TIE, 9, 13), (EIGHT, 8, 13)])
def test_largest_groups_of_finished_pyramids(text, visible, every):
    pos = Position(text)
    assert largest_groups(pos)[0] == visible
    assert largest_groups(pos, visible_only=False)[0] == every
    for game, count in ((GAME, visible), (ALL_CONTACTS, every)):
        s = state(text, game)
        outcome = game.outcome(s)
        assert outcome.winners == ((0,) if count % 2 == 0 else (1,))
        assert f"largest group has {count} balls" in outcome.reason
        assert game.legal_moves(s) == []


def test_hidden_balls_and_cut_contacts_do_not_count():
    pos = Position(THIRTEEN)
    size, mask = largest_groups(pos)
    assert mask & pos.hidden() == 0
    # Every black ball is visible and in the group; the hidden d4.1 is white.
    assert mask == pos.black and at(pos, "d4.1") == WHITE
    # In EIGHT, counting hidden balls and cut contacts joins a group of thirteen.
    eight = Position(EIGHT)
    assert largest_groups(eight)[0] == 8 and largest_groups(eight, False)[0] == 13


def test_a_tie_between_a_white_and_a_black_group_counts_its_size():
    pos = Position(TIE)
    size, mask = largest_groups(pos)
    assert size == 9 and mask & pos.white and mask & pos.black
    assert mask.bit_count() == 18
    s = state(TIE)
    assert GAME.winning_points(s) == mask and GAME.outcome(s).winners == (1,)
    assert GAME.status_lines(s) == ["Largest group: 9 balls (white and black), odd: "
                                    "Black wins."]


def test_mixed_colour_groups_would_decide_every_game_in_advance():
    # The reading "a group of white and black balls together" is refused in the
    # rules notes: all of them form a single group in every finished pyramid.
    for seed in range(40):
        pos = GAME.random_playout(GAME.initial_state(), random.Random(seed)).position
        both = pos.white | pos.black
        seen = both & ~pos.hidden()
        low = (seen & -seen).bit_length() - 1
        assert group_of(low, both, pos.occupied) == seen and seen.bit_count() == 25
        assert group_of(low, both, pos.occupied, visible_only=False) == both
        assert both.bit_count() == 26


# -- text, bad input, what players read ------------------------------------------------

def test_states_must_keep_the_reds_and_the_turn_counts():
    assert state(TIE).to_move == 0
    for bad in ("..../.RR./.R../....|.../.../...|../..|. 1",      # a red missing
                "R.../.RR./.RR./....|.../.../...|../..|. 1",      # a red added
                "W.../.RR./.RR./....|.../.../...|../..|. 1",      # White to move again
                "B.../.RR./.RR./....|.../.../...|../..|. 2",      # Black moved first
                "..../.RR./.RR./....|.../.../...|../..|. 1 x=1"):  # no extra fields
        with pytest.raises(NotationError):
            GAME.parse_state(bad)
    s = GAME.parse_state("W.../.RR./.RR./....|.../.../...|../..|. 2")
    assert GAME.state_text(s) == "W.../.RR./.RR./....|.../.../...|../..|. 2"


def test_illegal_moves_are_refused_and_nothing_changes():
    m = GAME.new_match()
    m.push("a1")
    before = m.state
    for bad in ("a1", "b2", "Wc1", "d4.1+n", "a1+n", "Bb2+e", "pass", "d4.3", "zz"):
        with pytest.raises((IllegalMoveError, NotationError)):
            m.push(bad)
        assert m.state is before
    with pytest.raises(IllegalMoveError):
        GAME.new_match(state=state("WBWB/BRRW/WRRB/BWBW|B../W../W..|../..|.")).push("b6+s")


def test_status_lines_and_winning_points():
    s = GAME.initial_state()
    assert GAME.status_lines(s)[1] == "26 balls to go."
    m = GAME.new_match()
    for move in ("a1", "c1", "a3"):
        m.push(move)
    assert GAME.status_lines(m.state) == [
        "Largest group now: 2 balls (white), even (a count for White).",
        "23 balls to go before the count."]
    assert GAME.winning_points(m.state) == 0
    final = GAME.random_playout(GAME.initial_state(), random.Random(3))
    size, mask = largest_groups(final.position)
    assert GAME.winning_points(final) == mask and mask.bit_count() % size == 0


# -- playing by clicks -----------------------------------------------------------------

def test_every_legal_move_is_played_by_clicks():
    """A click on an empty point places; a click on a ball enters there. A corner
    ball that can be entered from two sides narrows the list to those two."""
    t = Table("spone", seats="human", seed=1)
    rng = random.Random(7)
    narrowed = 0
    while not t.match.is_over():
        legal = t.match.legal_moves()
        for move in legal:
            played = t.click(move.point)
            if played is None:
                options = t.options()
                assert len(options) == 2 and {m.point for m in options} == {move.point}
                assert {a["direction"] for a in t.view()["arrows"]
                        if a["kind"] == "option"} == {m.direction for m in options}
                played = t.choose(options.index(move))
                narrowed += 1
            assert played == move, (move, t.message)
            t.undo()
        t.choose(rng.choice(legal))
    assert narrowed > 0 and t.view()["winning"]


# -- perft against an engine-free brute force ------------------------------------------
#
# The rules again on the dict-of-points model: a placement on any open point;
# an entry at a taken edge point of level 1 or 2, travelling away from its
# edge, shifting the line of balls one step on; no pushed ball may carry one,
# the line may not leave the level, and its last ball ends where it arrives
# (all four supports there), or one level down in the single gap under it if
# that gap is open. At the end, the largest group of one colour seen from above.

DIRS = {"n": (0, 1), "e": (1, 0), "s": (0, -1), "w": (-1, 0)}


def _inside(lv, x, y):
    return 0 <= x < 4 - lv and 0 <= y < 4 - lv


def _brute_entry(board, pt, d):
    """The board after an entry at pt travelling d, or None; the caller puts the
    new ball on pt."""
    lv, x, y = pt
    dx, dy = DIRS[d]
    if _inside(lv, x - dx, y - dy) or pt not in board:
        return None
    run, q = [], pt
    while q in board:
        if any(a in board for a in ABOVE[q]):
            return None
        run.append(q)
        q = (lv, q[1] + dx, q[2] + dy)
        if not _inside(*q):
            return None
    gaps = [b for b in below(q) if b not in board]
    if len(gaps) > 1 or (gaps and not playable(board, gaps[0])):
        return None
    land = gaps[0] if gaps else q
    new = dict(board)
    for src, dst in zip(reversed(run), [land] + list(reversed(run))[:-1]):
        new[dst] = board[src]
    del new[pt]
    return new


def _brute_moves(board, colour):
    found = []
    for pt in open_points(board):
        new = dict(board)
        new[pt] = colour
        found.append(new)
    for pt in ALL:
        if pt[0] in (1, 2):
            for d in DIRS:
                new = _brute_entry(board, pt, d)
                if new is not None:
                    new[pt] = colour
                    found.append(new)
    return found


def _brute_perft(board, colour, depth):
    if depth == 0:
        return 1
    other = "B" if colour == "W" else "W"
    return sum(_brute_perft(b, other, depth - 1) for b in _brute_moves(board, colour))


def _hidden(board, pt):
    lv, x, y = pt
    return (lv + 2, x - 1, y - 1) in board


def _crossed(board, a, b):
    """A same-level contact with a touching pair of the level above right over it."""
    if a[0] != b[0]:
        return False
    lv, x, y = min(a, b)
    if a[2] == b[2]:                       # side by side in a row
        pair = [(lv + 1, x, y - 1), (lv + 1, x, y)]
    else:                                  # one above the other in a column
        pair = [(lv + 1, x - 1, y), (lv + 1, x, y)]
    return all(p in board for p in pair)


def _touching(a, b):
    if a[0] == b[0]:
        return abs(a[1] - b[1]) + abs(a[2] - b[2]) == 1
    return a in below(b) or b in below(a)


def _brute_largest(board, visible):
    best = 0
    for colour in "WB":
        left = {p for p, c in board.items()
                if c == colour and not (visible and _hidden(board, p))}
        while left:
            todo, size = [left.pop()], 1
            while todo:
                a = todo.pop()
                for b in list(left):
                    if _touching(a, b) and not (visible and _crossed(board, a, b)):
                        left.remove(b)
                        todo.append(b)
                        size += 1
            best = max(best, size)
    return best


def test_perft_from_the_start_and_a_brute_force():
    golden = [13, 156, 1724, 17544]
    assert [perft(GAME, d) for d in range(1, 5)] == golden
    board = cells_of(START)
    assert [_brute_perft(board, "W", d) for d in range(1, 5)] == golden


@pytest.mark.parametrize("seed, steps, golden", [
    (1, 9, [6, 33, 173, 914]), (2, 14, [8, 65, 523, 4138]), (3, 19, [7, 42, 216, 1088]),
    (4, 22, [5, 18, 54, 54])])
def test_perft_from_random_positions_matches_the_brute_force(seed, steps, golden):
    s = random_walk(GAME, seed, steps)
    assert [perft(GAME, d, s) for d in range(1, 5)] == golden
    board = cells_of(s.position)
    colour = "WB"[s.to_move]
    assert [_brute_perft(board, colour, d) for d in range(1, 5)] == golden


@pytest.mark.slow
def test_perft_depth_five_from_the_start_by_brute_force():
    assert perft(GAME, 5) == _brute_perft(cells_of(START), "W", 5) == 164888


def test_entries_match_the_brute_force_along_random_games():
    for seed in range(20):
        rng = random.Random(seed)
        s = GAME.initial_state()
        while not GAME.is_terminal(s):
            colour = "WB"[s.to_move]
            board = cells_of(s.position)
            mine = sorted(sorted(cells_of(GAME.apply(s, m).position).items())
                          for m in GAME.legal_moves(s))
            theirs = sorted(sorted(b.items()) for b in _brute_moves(board, colour))
            assert mine == theirs
            s = GAME.apply(s, rng.choice(GAME.legal_moves(s)))


def test_the_count_matches_the_brute_force():
    for seed in range(60):
        final = GAME.random_playout(GAME.initial_state(), random.Random(seed))
        board = cells_of(final.position)
        for game, visible in ((GAME, True), (ALL_CONTACTS, False)):
            count = _brute_largest(board, visible)
            assert largest_groups(final.position, visible)[0] == count
            assert game.settle(game.parse_state(GAME.state_text(final))).result.winners \
                == ((0,) if count % 2 == 0 else (1,))
