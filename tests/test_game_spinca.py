"""Spinca: an optional step, then a placement; locks; the smallest group on each face."""
import random

import pytest

from conformance import (check_playouts, check_random_games,
                         check_symmetries, random_walk)
from shibumi import IllegalMoveError, Move, NotationError, load
from shibumi.analysis import perft
from shibumi.games.spinca import FACES, KEPT, TEMPLE, face_scores, smallest_group
from shibumi.geometry import APEX, COORDS, SYMMETRIES, transform_mask
from shibumi.notation import parse_point
from shibumi.position import BLACK, RED, WHITE, Position
from reference import ALL, ABOVE, below, cells_of, open_points

GAME = load("spinca")
GAME3 = load("spinca", players=3)
#: A finished temple whose faces score as the text's example: White 4, 1, 1, 6 and
#: Black 1, 6, 1, 1 on its four faces (left, right, bottom, top here: 6-1, 4-1, 1-6, 1-1).
EXAMPLE = "BBWB/WWWW/WBWW/WBWB|WBW/WBW/BBB|BB/WB|."


def texts(moves):
    return sorted(m.text() for m in moves)


def steps(state):
    return texts(m for m in GAME.legal_moves(state) if m.kind == "move")


def play(moves, game=GAME, start=None):
    m = game.new_match(state=start)
    for text in moves.split():
        m.push(text)
    return m


def test_conformance():
    check_random_games("spinca", seeds=range(10))
    check_random_games("spinca", seeds=range(5), players=3)
    check_playouts("spinca", games=100)
    for seed in range(8):
        for game in (GAME, GAME3):
            check_symmetries(game, random_walk(game, seed, 3 * seed + 1))


def test_declaration():
    info = GAME.info
    assert (info.name, info.designer, info.year, info.family) == \
        ("Spinca", "Phil Leduc", "2011", "Counting")
    assert (info.min_players, info.max_players, info.max_length) == (2, 3, 58)
    assert GAME3.num_players == 3 and GAME3.player_name(2) == "Red"


# -- the geometry of faces -------------------------------------------------------------

def test_four_faces_of_nine_points_sharing_ridges_and_no_apex():
    assert [bin(f).count("1") for f in FACES] == [9, 9, 9, 9]
    assert not any(f >> APEX & 1 for f in FACES)
    ridges = [a & b for i, a in enumerate(FACES) for b in FACES[i + 1:]]
    assert sorted(bin(r).count("1") for r in ridges) == [0, 0, 3, 3, 3, 3]
    union = FACES[0] | FACES[1] | FACES[2] | FACES[3]
    assert bin(union).count("1") == 24          # the 25 outside points but the apex
    assert [bin(f & k).count("1") for k in KEPT for f in FACES[:1]] == [9, 7, 4]


def test_face_scores_take_the_smallest_group_and_zero_without_a_ball():
    pos = Position("BWWW/B..W/B..W/BWWW|.../.../...|../..|.")
    assert face_scores(pos.white) == (0, 4, 3, 3)
    assert face_scores(pos.black) == (4, 0, 1, 1)
    # The text's example: groups of 1, 1 and 3 on a face score 1.
    row = Position("W.WW/..../..../....|.../.../...|../..|.").white | 1 << parse_point("a3")
    assert smallest_group(row & FACES[3]).bit_count() == 1


def test_groups_on_a_face_join_across_levels():
    # a1 and a3 on the board, b2 above them: one group of three on the left face,
    # and a1, c1 with b2 on the bottom face; c3 is on no face.
    pos = Position("..../..../WW../WW..|.../.../W..|../..|.")
    assert face_scores(pos.white) == (3, 0, 3, 0)


def test_the_texts_scoring_example_twelve_to_nine():
    s = GAME.parse_state(f"{EXAMPLE} 2")
    pos = s.position
    assert pos.count(WHITE) == 15 and pos.count(BLACK) == 14
    pairs = sorted(zip(face_scores(pos.white), face_scores(pos.black)))
    assert pairs == sorted([(4, 1), (1, 6), (1, 1), (6, 1)])
    out = GAME.outcome(s)
    assert out.winners == (0,) and out.scores == (12.0, 9.0)
    assert GAME.winning_points(s) & ~pos.white == 0


# -- a turn ----------------------------------------------------------------------------

def test_a_turn_is_an_optional_step_then_a_placement():
    m = play("a1 g7")
    legal = m.legal_moves()
    assert steps(m.state) == ["a1>a3", "a1>c1", "a1>c3.0"]
    assert len([x for x in legal if x.kind == "place"]) == 14
    m.push("a1>c3")
    assert m.current_player == 0 and all(x.kind == "place" for x in m.legal_moves())
    with pytest.raises(IllegalMoveError):
        m.push("c3>e3")                              # one step a turn
    m.push("e5")
    assert m.current_player == 1 and GAME.length(m.state) == 4
    assert m.state.locked == 1 << parse_point("c3.0") | 1 << parse_point("e5.0")


def test_the_previous_turns_balls_are_locked_but_not_older_ones():
    m = play("a1 g7 a1>c3 e5")
    # Black may not step c3 or e5 (White's), but may step its own g7.
    assert {x.point for x in m.legal_moves() if x.kind == "move"} == {parse_point("g7")}
    m.push("g5")
    # White may now step c3 and e5 again, but not g5 (Black's); g7 is not locked.
    movers = {x.point for x in m.legal_moves() if x.kind == "move"}
    assert movers == {parse_point(p) for p in ("c3.0", "e5.0", "g7")}


def test_with_three_players_only_the_turn_just_before_locks():
    m = play("a1 g7 c3", game=GAME3)
    movers = {x.point for x in m.legal_moves() if x.kind == "move"}
    assert movers == {parse_point("a1"), parse_point("g7")}     # Red's c3 is locked
    m.push("a1>a3")
    m.push("e1")
    movers = {x.point for x in m.legal_moves() if x.kind == "move"}
    assert movers == {parse_point("g7"), parse_point("c3.0")}   # a3 and e1 locked
    m.push("g7>g5")
    m.push("e7")
    movers = {x.point for x in m.legal_moves() if x.kind == "move"}
    assert parse_point("a3") in movers and parse_point("e1") in movers
    assert movers == {parse_point(p) for p in ("a3", "e1", "c3.0")}     # g5, e7 locked


def test_a_step_drops_the_ball_above_and_may_not_drop_a_locked_one():
    # The four holes a1 c1 a3 c3 carry b2; e1 is empty.
    base = "...W/..../WB../WB..|.../.../B..|../..|."
    s = GAME.parse_state(f"{base} 1 locked=b2")
    # None of the four may step: b2 (locked) would fall.
    assert {m.split(">")[0] for m in steps(s)} == {"g7"}
    s = GAME.parse_state(f"{base} 1 locked=a3")
    assert "c1>e1" in steps(s) and "c1>e3.0" in steps(s)
    after = GAME.apply(s, Move("c1>e1"))
    assert after.position.text() == "...W/..../WB../WBB.|.../.../...|../..|."
    assert after.fresh == 1 << parse_point("e1") | 1 << parse_point("c1")
    after = GAME.apply(after, Move("We7"))
    assert after.locked == (1 << parse_point("e1") | 1 << parse_point("c1")
                            | 1 << parse_point("e7"))


def test_a_pinned_ball_does_not_step_and_steps_stay_on_their_level():
    # Board full, level 1 b2 and d2 present: c1 carries both (pinned).
    s = GAME.parse_state("WBWB/BWBW/WBWB/BWB.|.../.../WW.|../..|. 2 locked=a7")
    assert not [m for m in GAME.legal_moves(s) if m.point == parse_point("c1")
                and m.kind == "move"]
    for m in GAME.legal_moves(s):
        if m.kind == "move":
            assert (m.point < 16) == (m.target < 16)


def test_the_apex_is_never_played():
    s = GAME.parse_state("WBWB/BWBW/WBWB/BWBW|WBW/BWB/WBW|BW/.B|. 1")
    assert Move("Wd4.3") not in GAME.legal_moves(s)
    assert Move("Wc3.2") in GAME.legal_moves(s)
    after = GAME.apply(s, Move("Wc3.2"))
    assert GAME.is_terminal(after) and after.position.count() == TEMPLE
    assert not after.position.occupied >> APEX & 1


def test_every_game_lasts_29_turns():
    for seed in range(10):
        for game in (GAME, GAME3):
            s = random_walk(game, seed, 200)
            assert game.is_terminal(s) and s.position.count() == TEMPLE
            n = game.num_players
            counts = [s.position.count(c) for c in (WHITE, BLACK, RED)[:n]]
            assert counts == ([15, 14] if n == 2 else [10, 10, 9])
            assert TEMPLE <= game.length(s) <= 2 * TEMPLE


# -- the end ---------------------------------------------------------------------------

def _final(game, text):
    to_move = TEMPLE % game.num_players + 1
    return game.parse_state(f"{text} {to_move}")


def test_a_tie_is_recounted_without_the_top_level():
    # Mirror-symmetric colourings tie on the full temple; find one decided by a recount.
    rng = random.Random(3)
    found = {"recount": 0, "draw": 0}
    for _ in range(150):
        s = random_walk(GAME, rng.randrange(10 ** 6), 200)
        totals = GAME.totals(s.position)
        out = GAME.outcome(s)
        if totals[0] != totals[1]:
            assert out.winners == ((0,) if totals[0] > totals[1] else (1,))
            continue
        smaller = [GAME.totals(s.position, k) for k in KEPT]
        decided = next((t for t in smaller if t[0] != t[1]), None)
        if decided is None:
            assert out.is_draw
            found["draw"] += 1
        else:
            assert out.winners == ((0,) if decided[0] > decided[1] else (1,))
            assert "taken away" in out.reason
            found["recount"] += 1
    assert found["recount"] > 0


def test_three_players_two_tied_at_the_top_hand_the_win_to_the_third():
    seen = 0
    for seed in range(100):
        s = random_walk(GAME3, seed, 200)
        totals = GAME3.totals(s.position)
        best = max(totals)
        top = [p for p in range(3) if totals[p] == best]
        if len(top) == 2:
            assert GAME3.outcome(s).winners == tuple(set(range(3)) - set(top))
            seen += 1
        elif len(top) == 1:
            assert GAME3.outcome(s).winners == tuple(top)
    assert seen > 0


# -- text and bad input ----------------------------------------------------------------

def test_state_text_round_trips_mid_turn():
    m = play("a1 g7 a1>c3")
    text = GAME.state_text(m.state)
    assert text.endswith("1 locked=g7 fresh=c3.0 stepped ply=3")
    again = GAME.parse_state(text)
    assert GAME.state_key(again) == GAME.state_key(m.state)


def test_bad_input_is_refused_and_changes_nothing():
    m = play("a1 g7")
    before = m.state
    for bad in ("g7>g5", "a1>e5", "Bc3", "xa1", "pass", "a1>a1", "d4.3"):
        with pytest.raises((IllegalMoveError, NotationError)):
            m.push(bad)
        assert m.state is before
    empty = "..../..../..../....|.../.../...|../..|."
    for bad in ("..../..../..../W...|.../.../...|../..|. 1",         # Black's turn
                f"{empty} 1 locked=a1",                               # nothing there
                "..../..../..../W...|.../.../...|../..|. 2 stepped",   # nothing fresh
                "..../..../..../W...|.../.../...|../..|. 2 ply=9",
                "..../..../..../W...|.../.../...|../..|. 2 colour=W",
                "WBWB/BWBW/WBWB/BWBW|WBW/BWB/WBW|BW/WB|W 2"):       # the apex
        with pytest.raises(NotationError):
            GAME.parse_state(bad)


def test_status_lines_say_what_the_mover_may_do():
    m = play("a1 g7")
    lines = GAME.status_lines(m.state)
    assert lines[0] == "White may first step a ball, then must place one."
    assert lines[1] == "Locked for White: g7."
    m.push("a1>a3")
    assert GAME.status_lines(m.state)[0] == "White must place a ball."


def test_every_legal_move_is_played_by_clicks():
    from shibumi.interaction import Table
    t = Table("spinca", seats="human", seed=1)
    rng = random.Random(4)
    for _ in range(14):
        legal = t.match.legal_moves()
        for move in legal:
            first = t.click(move.point)
            if first is None and move.target is not None:
                first = t.click(move.target)
            elif first is None:
                first = t.click(move.point)
            assert first == move, (move, t.message)
            t.undo()
        t.choose(rng.choice(legal))


# -- perft, cross-checked by an independent brute force ---------------------------------
#
# The rules again on the dict-of-points model: a step lifts an unpinned, unlocked
# ball whose fall chain touches no locked ball and puts it on an open point of its
# level one king step away; a placement ends the turn; locks are what the turn
# placed, stepped or dropped.

_COLOURS = "WBR"


def _fall(board, gap):
    """Drop the column above the empty ``gap``; returns the points that received a ball."""
    landed = []
    while True:
        above = [q for q in ABOVE[gap] if q in board]
        if not above:
            return landed
        (q,) = above
        board[gap] = board.pop(q)
        landed.append(gap)
        gap = q


def _ref_moves(board, locked, stepped, player):
    found = []
    if not stepped:
        for p in sorted(board):
            if p in locked or len([q for q in ABOVE[p] if q in board]) > 1:
                continue
            chain, gap = [], p
            while True:
                above = [q for q in ABOVE[gap] if q in board]
                if not above:
                    break
                chain.append(above[0])
                gap = above[0]
            if any(q in locked for q in chain):
                continue
            new = dict(board)
            colour = new.pop(p)
            landed = _fall(new, p)
            lv, x, y = p
            for t in open_points(new):
                if t[0] == lv and max(abs(t[1] - x), abs(t[2] - y)) == 1:
                    after = dict(new)
                    after[t] = colour
                    found.append(("step", after, frozenset(landed + [t])))
    for t in open_points(board):
        if t[0] < 3:
            after = dict(board)
            after[t] = _COLOURS[player]
            found.append(("place", after, t))
    return found


def _ref_perft(board, locked, fresh, stepped, player, depth, n=2):
    if depth == 0:
        return 1
    if len(board) == 29:
        return 0
    total = 0
    for kind, after, extra in _ref_moves(board, locked, stepped, player):
        if kind == "step":
            total += _ref_perft(after, locked, extra, True, player, depth - 1, n)
        else:
            total += _ref_perft(after, fresh | {extra}, frozenset(), False,
                                (player + 1) % n, depth - 1, n)
    return total


def _ref_state(s):
    def pts(mask):
        return frozenset(COORDS[p] for p in range(30) if mask >> p & 1)
    return cells_of(s.position), pts(s.locked), pts(s.fresh), s.stepped, s.to_move


PERFT = [16, 240, 4536, 90720]
PERFT3 = [16, 240, 4536]


def test_perft_matches_an_independent_brute_force():
    assert [perft(GAME, d) for d in range(1, 5)] == PERFT
    assert [_ref_perft({}, frozenset(), frozenset(), False, 0, d) for d in (1, 2, 3)] == \
        PERFT[:3]
    assert [perft(GAME3, d) for d in range(1, 4)] == PERFT3
    assert _ref_perft({}, frozenset(), frozenset(), False, 0, 3, 3) == PERFT3[2]
    for seed, steps_ in ((1, 9), (2, 20), (3, 31), (4, 44), (5, 5)):
        s = random_walk(GAME, seed, steps_)
        ref = _ref_state(s)
        assert [perft(GAME, d, s) for d in (1, 2, 3)] == \
            [_ref_perft(*ref, d) for d in (1, 2, 3)]
    s = random_walk(GAME3, 7, 17)
    assert [perft(GAME3, d, s) for d in (1, 2, 3)] == \
        [_ref_perft(*_ref_state(s), d, 3) for d in (1, 2, 3)]
    assert len(ALL) == 30 and below((1, 0, 0)) == [(0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 1, 1)]


def test_symmetries_carry_the_locks():
    s = play("a1 g7 a1>c3").state
    for perm in SYMMETRIES:
        image = GAME.transform_state(s, perm)
        assert image.fresh == transform_mask(s.fresh, perm)
        assert image.locked == transform_mask(s.locked, perm)


def test_fast_playouts_agree_with_the_rules_for_three_players():
    check_playouts("spinca", games=100, players=3)


def test_memoised_face_scores_agree_with_counting_the_groups():
    # face_scores remembers each face's smallest group by mask; count afresh.
    rng = random.Random(14)
    for _ in range(400):
        mask = rng.getrandbits(29)
        for kept in KEPT:
            assert face_scores(mask, kept) == tuple(
                smallest_group(mask & face & kept).bit_count() for face in FACES)


def test_steps_on_masks_agree_with_lifting_the_ball():
    # The mask rules against Position.remove and mechanics.relocate: every
    # unlocked, unpinned ball whose falling column holds no locked ball steps to
    # each level neighbour playable once it is lifted, and lands as relocate puts it.
    from shibumi.geometry import SUPPORTED_MASK
    from shibumi.games.spinca import STEPS
    from shibumi.mechanics import relocate
    from shibumi.position import playable_mask
    checked = 0
    for seed in range(40):
        for game in (GAME, GAME3):
            s = random_walk(game, seed, seed % 45)
            if s.result is not None or s.stepped:
                continue
            pos, locked, expected = s.position, s.locked, []
            for source in range(30):
                above = SUPPORTED_MASK[source] & pos.occupied
                if not pos.occupied >> source & 1 or locked >> source & 1 \
                        or above & (above - 1):
                    continue
                lifted, drops = pos.remove(source)
                if any(locked >> frm & 1 for frm, _ in drops):
                    continue
                for target in range(30):
                    if STEPS[source] >> target & 1 and playable_mask(lifted.occupied) >> target & 1:
                        expected.append(Move.relocate(source, target))
            assert game.steps(pos, locked) == expected
            for move in expected:
                after = game.apply(s, move)
                assert after.position == relocate(pos, move.point, move.target)[0]
                checked += 1
    assert checked > 100
