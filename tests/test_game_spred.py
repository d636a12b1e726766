"""Spred pinned down: straight lines, the most removals in the best order, red balls, the end."""
import math
import random

import pytest

import shibumi.games.spred  # noqa: F401  (registers the game)
from conformance import (check_random_games, check_symmetries,
                         random_walk)
from shibumi import IllegalMoveError, NotationError, load
from shibumi.analysis import perft
from shibumi.games.spred import STRAIGHT_LINES, lines_of, most_removable
from shibumi.interaction import Table
from shibumi.notation import parse_point
from shibumi.position import BLACK, RED, WHITE, Position
from reference import ABOVE, ALL, HEIGHT, below, centre, cells_of, playable, top_balls

GAME = load("spred")

#: White's row a1 c1 e1 already on the board under two black level-1 balls,
#: b2 and d2; c1 carries both, so it is pinned until a1 or e1 goes.
PINNED_ROW = "..../..../BBB./WWW.|.../.../BB.|../..|. 1 ply=7"
#: A full pyramid except the apex; White's a1 b2 c3.2 ridge is waiting for it.
RIDGE = "BWBW/WBWB/BWBW/WBWB|BWB/WBW/WBW|BW/WB|. 1 ply=29"


def at(text, *moves):
    match = GAME.new_match(state=GAME.parse_state(text))
    for move in moves:
        match.push(move)
    return match


def names(moves):
    return sorted(m.text() for m in moves)


def test_conformance():
    check_random_games("spred", seeds=range(5))


def test_symmetries_along_random_games():
    for seed in range(4):
        for steps in (20, 45, 70):
            state = random_walk(GAME, seed, steps)
            check_symmetries(GAME, state)


def test_the_start():
    match = GAME.new_match()
    assert match.state.reds == (8, 8) and match.state.position.count() == 0
    assert names(match.legal_moves())[:2] == ["Wa1", "Wa3"] and len(match.legal_moves()) == 16
    assert "Ra1" not in names(match.legal_moves())          # never a red ball by choice


def test_the_straight_lines():
    # 8 board rows and columns, 6 on level 1, 4 ridges, 12 shorter sloped lines.
    lengths = sorted(len(line) for line, _ in STRAIGHT_LINES)
    assert lengths == [3] * 18 + [4] * 12
    # No line runs diagonally along a level: those balls do not touch.
    diagonal = Position("..../..W./.W../W...|.../.../...|../..|.")
    assert lines_of(diagonal, WHITE) == []
    # Up a ridge: a1 b2 c3.2 climbs a level at each ball.
    ridge = Position("..../RRR./RRR./WRR.|.../RR./WR.|../W.|.")
    assert [sorted(p for p in range(30) if m >> p & 1) for m in lines_of(ridge, WHITE)] \
        == [[0, 16, 25]]


def test_a_zigzag_is_no_line():
    # c1 d2 e1: straight from above, but it goes up then down.
    pos = Position("..../..../RRRR/RWRW|.../.../.W.|../..|.")
    assert lines_of(pos, WHITE) == []


def test_a_hidden_ball_and_an_overpass_break_lines():
    # The sloped line c3.0 d4.1 e5.2 through the middle: c3.2 buries c3.0.
    open_ = Position("..../.RW./.WR./....|.../.W./...|../..|.")
    assert lines_of(Position("RRRR/RRWR/RWRR/RRRR|RRR/RWR/RRR|.W/..|."), WHITE)
    buried = Position("RRRR/RRWR/RWRR/RRRR|RRR/RWR/RRR|.W/R.|.")
    assert buried.hidden() >> parse_point("c3.0") & 1 and not lines_of(buried, WHITE)
    assert not lines_of(open_, WHITE)                  # a pair only, no line
    # Board row a3 c3 e3: the contact a3-c3 lies under b2 and b4.
    cut = Position("..../RRRR/WWW./RRRR|.../R../R..|../..|.")
    assert not lines_of(cut, WHITE)
    assert lines_of(Position("..../RRRR/WWW./RRRR|.../.../R..|../..|."), WHITE)


def test_a_line_is_cleared_then_a_red_ball_goes_where_it_stood():
    match = at("..../..../B.B./WW..|.../.../...|../..|. 1 ply=4", "e1")
    assert names(match.legal_moves()) == ["xa1", "xc1", "xe1"]
    assert match.current_player == 0
    for move in ("xc1", "xa1"):
        match.push(move)
        assert match.current_player == 0
    match.push("xe1")
    # All three points are free again; the red goes on one of them.
    assert names(match.legal_moves()) == ["Ra1", "Rc1", "Re1"]
    match.push("Ra1")
    assert match.current_player == 1 and match.state.reds == (7, 8)
    assert match.state.position.red == 1 << parse_point("a1")


def test_four_in_a_row_is_one_line_of_four():
    match = at("..../..../BBB./WWW.|.../.../...|../..|. 1 ply=6", "g1")
    assert [points for points, _ in match.state.lines] == [sum(1 << p for p in range(4))]
    for move in ("xa1", "xc1", "xe1", "xg1"):
        match.push(move)
    assert match.state.position.white == 0


def test_the_order_matters_and_the_most_must_be_taken():
    match = at(PINNED_ROW, "g7")
    # c1 carries b2 and d2, so it is pinned; a1 or e1 first frees it.
    assert names(match.legal_moves()) == ["xa1", "xe1"]
    with pytest.raises(IllegalMoveError):
        match.push("xc1")
    match.push("xa1")                        # b2 drops into a1; c1 now carries only d2
    pos = match.state.position
    assert pos.colour_at(parse_point("a1")) == BLACK
    assert names(match.legal_moves()) == ["xc1", "xe1"]
    match.push("xc1")                        # d2 drops into c1
    match.push("xe1")
    # a1 and c1 were filled again by the dropping black balls: only e1 is free.
    assert names(match.legal_moves()) == ["Re1"]


def test_when_drops_refill_every_point_the_red_goes_anywhere():
    # Row a1 c1 e1 carrying b2, d2 and f2: each removal drops a black ball in.
    match = at("..../..../BBBB/WWWB|.../.../BBB|../..|. 1 ply=12", "a7")
    for move in ("xa1", "xc1", "xe1"):
        match.push(move)
    legal = match.legal_moves()
    pos = match.state.position
    assert all(pos.colour_at(parse_point(p)) == BLACK for p in ("a1", "c1", "e1"))
    assert all(m.colour == RED for m in legal) and len(legal) == 10
    assert {m.point for m in legal} == {p for p in range(30) if pos.is_playable(p)}


def test_a_line_that_drops_stays_a_line_to_take():
    # White's ridge a1 b2 c3.2: taking a1 first drops the others into the gap,
    # and they are still the line's balls.
    match = at(RIDGE, "d4")
    match.push("xa1")
    balls = [b for _, b in match.state.lines]
    assert balls == [sum(1 << parse_point(p) for p in ("a1", "b2", "c3.2"))]
    for move in ("xa1", "xa1", "xa1"):
        match.push(move)
    assert names(match.legal_moves()) == ["Ra1"]


def test_crossing_lines_take_the_shared_ball_first():
    # Column a1 a3 a5 and row a1 c1 e1 share a1; after xa1 both stay open.
    match = at("..../W.../WB../WWW.|.../.../...|../..|. 1 ply=8", "g7")
    assert len(match.state.lines) == 2
    match.push("xa1")
    assert len(match.state.lines) == 2
    match.push("xc1")                        # settles it: the row
    assert len(match.state.lines) == 1
    match.push("xe1")
    assert names(match.legal_moves()) == ["Ra1", "Rc1", "Re1"]


def test_only_one_line_is_cleared_and_the_other_waits():
    match = at("WWW./..../B.BB/WWW.|.../.../...|../..|. 1 ply=9", "g5")
    assert len(match.state.lines) == 2
    for move in ("xa7", "xc7", "xe7", "Rc7"):
        match.push(move)
    assert match.current_player == 1
    assert len(lines_of(match.state.position, WHITE)) == 1    # the row a1 c1 e1 waits
    match.push("a5")
    assert not match.state.lines                             # Black's turn: no line of his
    match.push("c3")
    assert len(match.state.lines) == 1                       # White's next placement: it counts


def test_placing_the_last_red_ball_wins():
    text = "RRR./RRRR/B.B./WW..|.../.../...|../..|. 1 ply=40 white_reds=1 black_reds=8"
    match = at(text, "e1", "xa1", "xc1", "xe1", "Ra1")
    assert match.is_over() and match.outcome().winners == (0,)
    assert "every red ball" in match.outcome().reason
    over = GAME.parse_state(text.replace("WW..", "WWR.").replace("white_reds=1",
                                                                    "white_reds=0"))
    assert over.result.winners == (0,) and GAME.legal_moves(over) == []


def test_a_full_pyramid_ends_the_game_fewer_reds_win():
    # From random games: White's apex ball fills the pyramid and makes no line.
    match = at("WBWR/BBWB/BWBR/RWRB|WBB/WRR/BRR|BW/BB|. 1 ply=75 white_reds=3 black_reds=5",
               "d4")
    assert match.is_over() and match.outcome().winners == (0,)
    assert match.outcome().scores == (3.0, 5.0) and "full" in match.outcome().reason
    tie = at("WBWR/BRBB/WBWB/RWRW|RWB/BRR/WWB|RB/RR|. 1 ply=79 white_reds=3 black_reds=3",
             "d4")
    assert tie.outcome().is_draw


def test_state_text_round_trips_and_is_checked():
    match = at(PINNED_ROW, "g7", "xa1")
    text = GAME.state_text(match.state)
    assert "line=a1-c1-e1/a1-c1-e1" not in text and "line=a1-c1-e1/c1-e1" in text
    assert GAME.parse_state(text) == GAME.parse_state(text)
    assert GAME.state_key(GAME.parse_state(text)) == GAME.state_key(match.state)
    for bad in ("..../..../..../R...|.../.../...|../..|. 1",              # a red from nowhere
                "..../..../..../....|.../.../...|../..|. 1 white_reds=9",
                "..../..../..../WWW.|.../.../...|../..|. 1 line=a1-c1/a1-c1",
                "..../..../..../WWW.|.../.../...|../..|. 1 line=a1-c1-e1/a1-c1-g1",
                "..../..../..../WWW.|.../.../...|../..|. 1 line=a1-c1-e1",
                "..../..../..../....|.../.../...|../..|. 1 colour=3"):
        with pytest.raises(NotationError):
            GAME.parse_state(bad)


def test_bad_moves_are_refused_without_change():
    match = at(PINNED_ROW, "g7")
    before = match.state
    for bad in ("xc1", "Ra1", "Wa3", "xa3", "pass", "Bg5"):
        with pytest.raises((IllegalMoveError, NotationError)):
            match.push(bad)
    assert match.state == before


def test_every_move_can_be_clicked():
    for seed in range(3):
        state = random_walk(GAME, seed, 60)
        table = Table(GAME, seats="human", record=GAME.new_match(state=state).record())
        for move in table.match.legal_moves():
            probe = Table(GAME, seats="human", record=table.match.record())
            probe.click(move.point)
            if probe.match.history[-1:] and probe.match.history[-1][0] == move:
                continue
            pytest.fail(f"{move.text()} not reached by a click: {probe.view()['message']}")


def test_status_lines():
    match = at(PINNED_ROW, "g7")
    lines = GAME.status_lines(match.state)
    assert lines[0].startswith("Red balls in hand: White 8, Black 8")
    assert lines[1].startswith("White clears a line: 3 more balls to take away")
    match.push("xa1")
    match.push("xc1")
    assert "1 more ball to take" in GAME.status_lines(match.state)[1]
    match.push("xe1")
    assert GAME.status_lines(match.state)[1] == \
        "White has cleared a line: place a red ball where it stood."


# -- an independent model ----------------------------------------------------------
# Cells (level, x, y) map to [colour, id]; ids follow balls as they drop.
# Lines are found from 3D centres: steps of length 1 in one direction, six
# directions up to sign (two flat, four sloped); a ball is in view when it
# is the top ball of its square; a flat contact is cut when both balls
# above its midpoint are present.

STEPS = [(1, 0, 0), (0, 1, 0)] + [(sx * 0.5, sy * 0.5, HEIGHT) for sx in (1, -1) for sy in (1, -1)]
AT = {tuple(round(c, 6) for c in centre(p)): p for p in ALL}


def cell_of(point):
    return AT.get(tuple(round(c, 6) for c in point))


def is_cut(board, a, b):
    if a[0] != b[0]:
        return False
    mid = [(u + v) / 2 for u, v in zip(centre(a), centre(b))]
    side = (0, 0.5) if a[2] == b[2] else (0.5, 0)
    over = [cell_of((mid[0] + s * side[0], mid[1] + s * side[1], mid[2] + HEIGHT))
            for s in (1, -1)]
    return all(c is not None and c in board for c in over)


def ref_lines(board, colour):
    seen = set(top_balls(board).values())
    good = {c for c, (col, _) in board.items() if col == colour and c in seen}
    found = []
    for start in good:
        for d in STEPS:
            back = cell_of([u - v for u, v in zip(centre(start), d)])
            if back in good and not is_cut(board, back, start):
                continue                  # not the start of the run
            run = [start]
            while True:
                nxt = cell_of([u + v for u, v in zip(centre(run[-1]), d)])
                if nxt not in good or is_cut(board, run[-1], nxt):
                    break
                run.append(nxt)
            if len(run) >= 3:
                found.append(frozenset(board[c][1] for c in run))
    return found


def ref_remove(board, cell):
    board = dict(board)
    del board[cell]
    gap = cell
    while True:
        on = [q for q in ABOVE[gap] if q in board]
        if not on:
            return board
        board[gap] = board.pop(on[0])
        gap = on[0]


def ref_takeable(board, ids):
    where = {v[1]: c for c, v in board.items()}
    return [where[i] for i in ids
            if sum(q in board for q in ABOVE[where[i]]) < 2]


def ref_most(board, ids):
    return max([0] + [1 + ref_most(ref_remove(board, c), ids - {board[c][1]})
                      for c in ref_takeable(board, ids)])


def ref_moves(node):
    """Legal actions as (kind, cell) and the node each leads to."""
    board, mover, reds, cands = node
    colour = "WB"[mover]
    out = []
    if not cands:
        for c in ALL:
            if playable(board, c):
                nb = dict(board)
                nb[c] = [colour, max([v[1] for v in board.values()], default=0) + 1]
                lines = [(frozenset(cell for cell in nb if nb[cell][1] in ids), ids)
                         for ids in ref_lines(nb, colour) if ref_most(nb, ids)]
                out.append((("place", c), (nb, mover, reds, tuple(lines)) if lines
                            else ref_end_turn(nb, mover, reds)))
        return out
    reds_to = set()
    taken = {}
    for cells, ids in cands:
        goal = ref_most(board, ids)
        if not goal:
            free = {c for c in cells if playable(board, c)}
            reds_to |= free or {c for c in ALL if playable(board, c)}
            continue
        for c in ref_takeable(board, ids):
            after = ref_remove(board, c)
            rest = ids - {board[c][1]}
            if 1 + ref_most(after, rest) == goal:
                taken.setdefault(c, (after, []))[1].append((cells, rest))
    for c, (after, kept) in taken.items():
        out.append((("remove", c), (after, mover, reds, tuple(kept))))
    for c in reds_to:
        nb = dict(board)
        nb[c] = ["R", -1 - len(nb)]
        left = list(reds)
        left[mover] -= 1
        out.append((("red", c), ref_end_turn(nb, mover, tuple(left))))
    return out


def ref_end_turn(board, mover, reds):
    over = 0 in reds or len(board) == 30
    return (board, 1 - mover, reds, None if over else ())


def ref_perft(node, depth):
    if depth == 0:
        return 1
    if node[3] is None:
        return 0
    return sum(ref_perft(child, depth - 1) for _, child in ref_moves(node))


def ref_node(state):
    board = {c: [v, i] for i, (c, v) in enumerate(sorted(cells_of(state.position).items()))}
    ids_at = {c: v[1] for c, v in board.items()}
    cells_text = {}
    for points, balls in state.lines:
        cells = frozenset(c for c in ALL if points >> ALL.index(c) & 1)
        ids = frozenset(ids_at[c] for c in ALL if balls >> ALL.index(c) & 1)
        cells_text[cells, ids] = True
    return (board, state.to_move, state.reds, tuple(cells_text))


def test_reference_points_match_the_engine_numbering():
    # ALL lists points in the engine's order (board, level 1, level 2, apex).
    assert [ALL.index(c) for c in ALL] == list(range(30))
    assert below(ALL[16]) == [ALL[0], ALL[4], ALL[1], ALL[5]]


def test_perft_from_the_start():
    # No line is possible before White's third ball (move 5).
    assert [perft(GAME, d) for d in range(1, 4)] == [16, 240, 3360]
    assert ref_perft(ref_node(GAME.initial_state()), 3) == 3360


@pytest.mark.slow
def test_perft_from_the_start_deeper():
    # White's third ball (move 5) can make the first line, so depth 5 still
    # counts placements only (Spline's numbers); removals start at depth 6.
    assert [perft(GAME, d) for d in range(4, 6)] == [43680, 524376]


@pytest.mark.parametrize("text, counts", [
    (PINNED_ROW, [10, 21, 44]),
    ("..../..../B.B./WW..|.../.../...|../..|. 1 ply=4", [12, 125, 1169]),
    (RIDGE, [1, 5, 14]),
])
def test_perft_where_lines_are_cleared(text, counts):
    st = GAME.parse_state(text)
    assert [perft(GAME, d, st) for d in range(1, 4)] == counts
    assert [ref_perft(ref_node(st), d) for d in range(1, 4)] == counts


def _clearing_state(seed):
    """A state of a random game where a line is being cleared."""
    rng, st = random.Random(seed), GAME.initial_state()
    skip = rng.randrange(3)
    while not st.result:
        st = GAME.apply(st, rng.choice(GAME.legal_moves(st)))
        if st.lines and not skip:
            return st
        skip -= bool(st.lines and st.last.kind == "place")
    return st


#: Perft 1-4 from the states below, as the brute force counts them too.
RANDOM_PERFT = {0: [3, 6, 6, 18], 1: [3, 6, 6, 18], 2: [3, 8, 23, 48], 3: [3, 6, 6, 18],
                4: [5, 20, 66, 193], 5: [3, 6, 6, 18], 6: [2, 2, 2, 2], 7: [2, 2, 6, 54]}


@pytest.mark.parametrize("seed", range(8))
def test_perft_from_random_positions_against_the_reference(seed):
    # Odd seeds stop where a line is being cleared; even seeds anywhere.
    state = _clearing_state(seed) if seed % 2 else random_walk(GAME, seed, 20 + 9 * seed)
    assert state.lines or seed % 2 == 0
    node = ref_node(state)
    assert [perft(GAME, d, state) for d in range(1, 5)] == RANDOM_PERFT[seed] == \
        [ref_perft(node, d) for d in range(1, 5)]


def test_line_finder_agrees_with_the_reference():
    rng = random.Random(7)
    for _ in range(200):
        pos = Position.empty()
        for _ in range(rng.randrange(31)):
            pts = [p for p in range(30) if pos.is_playable(p)]
            pos = pos.place(rng.choice(pts), rng.choice((WHITE, WHITE, BLACK, RED)))
        board = {c: [v, ALL.index(c)] for c, v in cells_of(pos).items()}
        engine = sorted(sorted(p for p in range(30) if m >> p & 1) for m in lines_of(pos, WHITE))
        assert engine == sorted(sorted(ids) for ids in ref_lines(board, "W")), pos
        for ids in ref_lines(board, "W"):
            mask = sum(1 << i for i in ids)
            assert most_removable(pos.occupied, mask) == ref_most(board, set(ids))
            assert most_removable(pos.occupied, mask) >= 1     # every line can be cleared


def test_the_length_bound_holds_in_random_games():
    lengths = [GAME.random_playout(GAME.initial_state(), random.Random(s)).ply
               for s in range(60)]
    assert max(lengths) <= GAME.info.max_length and min(lengths) >= 30
    assert math.fsum(lengths) / len(lengths) > 40
