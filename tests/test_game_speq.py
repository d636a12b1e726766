"""Speq: any colour on a hole; a raised ball must top a face of three colours;
most balls of your colour wins."""
import functools
import itertools
import random

import pytest
from hypothesis import given, settings, strategies as st

from conformance import (check_playouts, check_random_games,
                         check_symmetries, random_walk)
from shibumi import IllegalMoveError, NotationError, load
from shibumi.analysis import perft
from shibumi.games.speq import FACES, allowed_colours, tricolour_faces
from shibumi.geometry import BOARD_MASK, points_of
from shibumi.notation import parse_point, point_name
from shibumi.position import BLACK, RED, WHITE
from reference import ALL, below, cells_of, centre, open_points

GAME = load("speq")
GAME3 = load("speq", players=3)

#: The annex's lost example, rebuilt: before White's ball on c3.2. The white
#: c3.0 (hidden once c3.2 is filled) is a corner of the faces that let d2,
#: b4 and d4 go on level 1.
EXAMPLE = "..../BRW./RWB./RBRB|.../BR./WR.|../..|. 1"


def state(text, game=GAME):
    return game.parse_state(text)


def faces_text(position, point):
    return sorted("-".join(point_name(p) for p in points_of(face & ~(1 << parse_point(point))))
                  for face in tricolour_faces(position, parse_point(point)))


# -- conformance -------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3])
def test_conformance(players):
    check_random_games("speq", seeds=range(20), players=players)
    check_playouts("speq", games=100, players=players)
    assert GAME.info.max_length == 30 and GAME.symmetries == tuple(range(8))


@pytest.mark.parametrize("players", [2, 3])
def test_fast_playouts_play_the_rules_games_counting_visible_balls(players):
    check_playouts("speq", games=100, players=players, visible=True)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2 ** 32), st.integers(0, 30))
def test_symmetries_keep_moves_and_results(seed, steps):
    s = random_walk(GAME3, seed, steps)
    for image in check_symmetries(GAME3, s):
        again = GAME3.parse_state(GAME3.state_text(image))
        assert GAME3.state_key(again) == GAME3.state_key(image)


# -- the triangle rule ---------------------------------------------------------------

def _under(pt):
    """Every point of the pile a ball at ``pt`` stands on, down to the board."""
    out = set()
    todo = below(pt)
    while todo:
        q = todo.pop()
        if q not in out:
            out.add(q)
            todo += below(q)
    return out


def _equilateral(pt):
    """Pairs of points of one level in the pile under pt making an equilateral
    triangle with pt (3D centres)."""
    out = []
    for a, b in itertools.combinations(sorted(_under(pt)), 2):
        d = [sum((u - v) ** 2 for u, v in zip(centre(x), centre(y)))
             for x, y in ((pt, a), (pt, b), (a, b))]
        if a[0] == b[0] and max(d) - min(d) < 1e-9:
            out.append((a, b))
    return out


TRIANGLES = {pt: _equilateral(pt) for pt in ALL}


def test_faces_are_the_equilateral_triangles_in_the_pile_below():
    for p, pt in enumerate(ALL):
        found = {frozenset(ALL.index(q) for q in pair) for pair in TRIANGLES[pt]}
        assert {frozenset(points_of(pair)) for pair in FACES[p]} == found
        assert len(found) == 4 * pt[0]               # four faces per pyramid height


def test_far_triangles_do_not_count():
    # d2 (level 1) and the far board corners a7 and g7 make an equilateral
    # triangle of side 3, but a7 and g7 are not under d2: no face of its pyramid.
    a7, g7, d2 = centre((0, 0, 3)), centre((0, 3, 3)), centre((1, 1, 0))
    d = [sum((u - v) ** 2 for u, v in zip(x, y)) for x, y in ((d2, a7), (d2, g7), (a7, g7))]
    assert max(d) - min(d) < 1e-9
    assert 1 << parse_point("a7") | 1 << parse_point("g7") not in FACES[parse_point("d2")]


def test_holes_take_any_colour_and_a_raised_ball_needs_a_three_colour_face():
    m = GAME.new_match()
    assert len(m.legal_moves()) == 16 * 3
    for move in ("Wa1", "Wc1", "Wa3", "Wc3"):
        m.push(move)
    assert not any(mv.point == parse_point("b2") for mv in m.legal_moves())   # all white
    m = GAME.new_match()
    for move in ("Wa1", "Bc1", "Wa3", "Wc3"):
        m.push(move)
    # faces a1-c1 and c1-c3 are white and black: only red completes them
    assert [mv.text() for mv in m.legal_moves() if mv.point == parse_point("b2")] == ["Rb2"]
    before = m.state
    for bad in ("Bb2", "Wb2"):
        with pytest.raises(IllegalMoveError):
            m.push(bad)
    assert m.state == before
    m.push("Rb2")
    assert faces_text(m.state.position, "b2") == ["a1-c1", "c1-c3.0"]


def test_the_annex_example_two_faces_one_per_level():
    s = state(EXAMPLE)
    c32 = parse_point("c3.2")
    assert allowed_colours(s.position, c32) >> WHITE & 1
    m = GAME.new_match(state=s)
    m.push("Wc3.2")
    pos = m.state.position
    assert pos.hidden() == 1 << parse_point("c3.0") and pos.colour_at(parse_point("c3.0")) == WHITE
    # one face with level 1 (b4, d4) and one with the board (a1, a5)
    assert faces_text(pos, "c3.2") == ["a1-a5", "b4-d4.1"]
    # the hidden white is the corner that let d2, b4 and d4 be placed
    for point in ("d2", "b4"):
        assert all("c3.0" in face for face in faces_text(pos, point))
    assert any("c3.0" in face for face in faces_text(pos, "d4.1"))
    # a larger pyramid reaches a hidden ball as a corner: e5 under e5.2 is a
    # corner of c3.2's board face e1-e5
    assert FACES[c32].count(1 << parse_point("e1") | 1 << parse_point("e5.0")) == 1


def test_the_apex_reaches_the_board_corners():
    assert sorted(sorted(point_name(p) for p in points_of(pair)) for pair in FACES[29]
                  if not pair & ~BOARD_MASK) == [["a1", "a7"], ["a1", "g1"], ["a7", "g7"],
                                                 ["g1", "g7"]]


# -- the end and the score -------------------------------------------------------

def test_a_board_of_one_colour_ends_the_game():
    # Sixteen white holes: every face below a raised point is white and white,
    # and the whites have run out anyway. Nobody can place: White wins 16-0.
    m = GAME.new_match()
    for square in ("a1", "c1", "e1", "g1", "a3", "c3", "e3", "g3",
                   "a5", "c5", "e5", "g5", "a7", "c7", "e7", "g7"):
        m.push("W" + square)
    assert m.is_over() and "no empty point takes any colour" in m.outcome().reason
    assert m.outcome().winners == (0,) and m.outcome().scores == (16.0, 0.0)
    assert GAME.length(m.state) == 16 and GAME.winning_points(m.state) == BOARD_MASK


def test_random_games_often_end_before_the_pyramid_is_full():
    rng = random.Random(2)
    lengths = [GAME.length(GAME.random_playout(GAME.initial_state(), rng)) for _ in range(200)]
    assert 0.55 < lengths.count(30) / 200 < 0.85 and min(lengths) >= 16


def test_two_players_who_place_only_their_own_colour_never_rise():
    rng = random.Random(3)
    s = GAME.initial_state()
    while True:
        own = [m for m in GAME.legal_moves(s) if m.colour == (WHITE, BLACK)[s.to_move]]
        if not own:
            break
        s = GAME.apply(s, rng.choice(own))
    # a raised white or black ball needs a red corner: only red can rise now
    assert s.position.occupied == BOARD_MASK and GAME.counts(s.position) == [8, 8]
    assert {m.colour for m in GAME.legal_moves(s)} == {RED}


def test_most_balls_wins_and_red_is_neutral_with_two():
    final = GAME.random_playout(GAME.initial_state(), random.Random(4))
    pos, out = final.position, final.result
    assert out.scores == (float(pos.count(WHITE)), float(pos.count(BLACK)))
    if out.scores[0] != out.scores[1]:
        assert out.winners == ((0,) if out.scores[0] > out.scores[1] else (1,))
    assert GAME.legal_moves(final) == []


def test_three_players_tied_leaders_share():
    rng = random.Random(1)
    shared = draws = 0
    for _ in range(300):
        out = GAME3.random_playout(GAME3.initial_state(), rng).result
        top = max(out.scores)
        leaders = tuple(p for p in range(3) if out.scores[p] == top)
        assert out.winners == (leaders if len(leaders) < 3 else ())
        shared += len(leaders) == 2
        draws += len(leaders) == 3
    assert shared > 10 and draws > 3


def test_the_visible_variant_leaves_hidden_balls_out():
    s = state(EXAMPLE)
    after = GAME.apply(s, GAME.new_match(state=s).parse("Wc3.2"))
    assert GAME.counts(after.position) == [4, 5]
    seen = load("speq", visible=True)
    assert seen.counts(after.position) == [3, 5]              # c3.0 is white and hidden


def test_a_colour_runs_out_after_sixteen():
    # From play favouring white: sixteen white balls are in, two other moves remain.
    s = state("WWWW/WWWW/WRWW/WBWW|.../.../WW.|../..|. 1")
    assert s.position.count(WHITE) == 16 and s.result is None
    assert len(GAME.legal_moves(s)) == 2
    assert not any(mv.colour == WHITE for mv in GAME.legal_moves(s))
    assert "No white balls are left." in GAME.status_lines(s)
    with pytest.raises(NotationError, match="only 16 white"):
        state("WWWW/WWWW/WRWW/WBWW|.../.../WWW|../..|. 2")


def test_state_text_is_checked():
    for bad in ("..../..../..../W...|.../.../...|../..|. 1",            # Black's turn
                "..../..../..../WBWW|.../.../...|../..|. 1 ply=4",
                "..../..../WW../WW..|.../.../W..|../..|. 2"):           # b2 with no face
        with pytest.raises(NotationError):
            state(bad)
    assert GAME.state_text(state(EXAMPLE)) == EXAMPLE


def test_status_lines_count_each_colour():
    s = state(EXAMPLE)
    assert GAME.status_lines(s) == ["Balls of each player's colour: White 3, Black 5.",
                                    "Red balls are neutral (6 placed)."]
    assert GAME3.status_lines(state(EXAMPLE.replace(" 1", " 3"), GAME3))[0] \
        == "Balls of each player's colour: White 3, Black 5, Red 6."


# -- perft, against an engine-free brute force -------------------------------------
#
# The rule again in the dict-of-points model: a hole takes any colour; a raised
# point takes a colour when two balls on one lower level form an equilateral
# triangle with it (3D centres) and, with it, show three colours. Sixteen
# balls of each colour at most.

def _moves(board):
    out = []
    for pt in open_points(board):
        for colour in "WBR":
            if list(board.values()).count(colour) >= 16:
                continue
            if pt[0] == 0 or any({board[a], board[b], colour} == set("WBR")
                                 for a, b in TRIANGLES[pt]):
                out.append((pt, colour))
    return out


@functools.lru_cache(maxsize=None)
def _brute(cells, depth):
    if depth == 0:
        return 1
    board = dict(cells)
    return sum(_brute(tuple(sorted({**board, pt: c}.items())), depth - 1)
               for pt, c in _moves(board))


PERFT = [48, 2160, 90720, 3538080]


def test_perft_matches_a_brute_force():
    assert [perft(GAME, d) for d in range(1, 4)] == PERFT[:3]
    assert PERFT == [48, 48 * 45, 48 * 45 * 42, 48 * 45 * 42 * 39]   # no ball can rise yet
    assert [_brute((), d) for d in range(1, 4)] == PERFT[:3]
    for seed, steps, depth in ((1, 14, 3), (2, 18, 3), (3, 21, 3), (5, 24, 3), (7, 26, 3)):
        s = random_walk(GAME, seed, steps)
        cells = tuple(sorted(cells_of(s.position).items()))
        assert perft(GAME, depth, s) == _brute(cells, depth)


@pytest.mark.slow
def test_perft_depth_four_and_five():
    assert perft(GAME, 4) == PERFT[3] == _brute((), 4)
    assert perft(GAME, 5) == 127400688                 # the first raised balls (b2-like points)
