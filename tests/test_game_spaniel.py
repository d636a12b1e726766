"""Spaniel pinned down: colour order, two-ball turns, visible lines of three, the draw."""
import math
import random

import pytest

from shibumi.games.spaniel import BALL_COLOUR, RUNS3  # importing registers the game
from conformance import check_playouts, check_random_games
from shibumi import IllegalMoveError, NotationError, load
from shibumi.analysis import perft
from shibumi.game import Game
from shibumi.position import BLACK, RED, WHITE, Position
from reference import ALL as CELLS, cells_of, centre, playable, square, top_balls

GAME = load("spaniel")

#: 23 balls in; player 3's second ball (red) on d6 makes the red chains
#: c7-d6-e5 and d6-e5-f4 at once: two lines of three, as in the book's
#: example, whose 24th ball was red.
BOOK_LIKE = "RRWB/WBRB/RWBW/WBBW|R.W/BWR/BR.|../..|. 3"
#: 29 balls with no line; player 3's red ball on the apex completes the pyramid.
DRAWN = "RRBB/RRWW/WBWW/WBRB|WBR/BRR/BWB|WW/BR|. 3"


def play(text, *moves, game=GAME):
    match = game.new_match(state=game.parse_state(text))
    for move in moves:
        match.push(move)
    return match


def test_colour_order_and_turns():
    match = GAME.new_match()
    seen = []
    for square in ["a1", "c1", "e1", "g1", "a3", "c3", "e3", "g3"]:
        player = match.current_player
        move = match.push(square)
        seen.append((player + 1, "WBR"[move.colour - 1]))
    assert seen == [(1, "B"), (1, "W"), (2, "R"), (2, "B"),
                    (3, "W"), (3, "R"), (1, "B"), (1, "W")]
    assert BALL_COLOUR[:6] == (BLACK, WHITE, RED, BLACK, WHITE, RED)


def test_colours_are_fixed():
    match = GAME.new_match()
    with pytest.raises(IllegalMoveError):
        match.push("Wa1")               # player 1 starts with black
    with pytest.raises(IllegalMoveError):
        match.push("pass")              # no passing
    assert all(m.colour == BLACK for m in match.legal_moves())


def test_second_ball_may_use_a_point_the_first_opened():
    # Three balls around b2; player 3's first ball (a white one) on c3
    # completes the platform and the second ball (red) may go on b2.
    text = "...B/..../R.../BW..|.../.../...|../..|. 3"
    match = play(text, "c3")
    assert match.current_player == 2 and "Rb2" in [m.text() for m in match.legal_moves()]
    match.push("b2")
    assert match.current_player == 0


def test_book_like_example_player_three_wins_with_two_red_lines():
    match = play(BOOK_LIKE, "d6")
    assert match.outcome().winners == (2,)
    assert match.state.position.count() == 24
    pos = match.state.position
    lines = [mask for mask, _ in RUNS3.through[match.state.last.point] if pos.red & mask == mask]
    assert len(lines) == 2


def test_first_ball_of_a_turn_can_win():
    # Player 2's first ball is red: a1 completes the red row a1 c1 e1.
    text = "B.W./W.B./B.W./.RR.|.../.../...|../..|. 2"
    match = play(text, "a1")
    assert match.outcome().winners == (1,) and match.is_over()


def test_any_colour_wins_for_whoever_placed_it():
    # Ball 8 is player 1's second, a white one: the white row a1 c1 e1 wins
    # for player 1.
    text = "..../RB../B.B./.WWR|.../.../...|../..|. 1"
    match = play(text, "a1")
    assert match.outcome().winners == (0,)
    assert "white" in match.outcome().reason


def test_lines_must_be_visible():
    # Board row a3 c3 e3 in black: seen (when crossings are ignored) until
    # c3.2 buries c3.0.
    before = Position("..../BWB./BBB./WBRW|.../RW./WR.|../..|.")
    after = Position("..../BWB./BBB./WBRW|.../RW./WR.|../R.|.")
    assert after.hidden() == 1 << 5
    assert RUNS3.seen(before.black, before.occupied, overpass_cuts=False)
    assert not RUNS3.seen(after.black, after.occupied, overpass_cuts=False)


def test_an_overpass_cuts_a_line():
    # Black a3 c3 e3, with the two touching level-1 balls b2 and b4 passing
    # over the a3-c3 contact.
    pos = Position("..../WRW./BBB./WRWR|.../W../R..|../..|.")
    assert not RUNS3.seen(pos.black, pos.occupied)
    assert RUNS3.seen(pos.black, pos.occupied, overpass_cuts=False)


def test_full_pyramid_without_a_line_is_a_draw():
    match = play(DRAWN, "d4")
    assert match.outcome().is_draw and match.state.position.count() == 30
    assert GAME.length(match.state) == 30 == GAME.info.max_length


def test_state_text_is_checked():
    with pytest.raises(NotationError):
        GAME.parse_state("..../..../..../W...|.../.../...|../..|. 1")   # ball 1 is black
    with pytest.raises(NotationError):
        GAME.parse_state("..../..../..../B...|.../.../...|../..|. 2")   # player 1 again
    won = GAME.parse_state("B.W./W.B./B.W./RRR.|.../.../...|../..|. 2")
    assert won.result.winners == (1,)


# -- an independent model ------------------------------------------------------
# Cells (level, x, y) in a dict; lines found in the top view (topmost ball of
# each square), touching checked by 3D distance, a flat contact cut when both
# level-above balls over its midpoint are present; the colour and player of
# ball n are worked out from the turn table directly.

TURNS = (("B", "W"), ("R", "B"), ("W", "R"))


def cell_at(lv, sq):
    x2, y2 = sq[0] - lv, sq[1] - lv
    cell = (lv, x2 // 2, y2 // 2)
    return cell if not x2 % 2 and not y2 % 2 and cell in CELLS else None


def cut(board, a, b):
    if a[0] != b[0]:
        return False
    sa, sb = square(a), square(b)
    mid = ((sa[0] + sb[0]) // 2, (sa[1] + sb[1]) // 2)
    perp = (0, 1) if sa[1] == sb[1] else (1, 0)
    over = [cell_at(a[0] + 1, (mid[0] + s * perp[0], mid[1] + s * perp[1])) for s in (1, -1)]
    return all(c is not None and c in board for c in over)


def has_line(board, cuts=True):
    top = top_balls(board)
    for start in top:
        for dx, dy in ((2, 0), (0, 2), (1, 1), (1, -1)):
            run = [top.get((start[0] + i * dx, start[1] + i * dy)) for i in range(3)]
            if None in run or len({board[c] for c in run}) != 1:
                continue
            if any(abs(math.dist(centre(a), centre(b)) - 1) > 1e-9 for a, b in zip(run, run[1:])):
                continue
            if cuts and any(cut(board, a, b) for a, b in zip(run, run[1:])):
                continue
            return True
    return False


def brute(board, depth, tally=None):
    """Perft, and (in `tally`) finished games by winner (None for a draw)."""
    if depth == 0:
        return 1
    n = len(board)
    player, colour = (n // 2) % 3, TURNS[(n // 2) % 3][n % 2]
    total = 0
    for cell in CELLS:
        if playable(board, cell):
            board[cell] = colour
            winner = player if has_line(board) else (None if n + 1 == 30 else -1)
            if winner != -1:
                total += depth == 1
                if tally is not None:
                    tally[winner] = tally.get(winner, 0) + 1
            else:
                total += brute(board, depth - 1, tally)
            del board[cell]
    return total


def engine_endings(st, depth, tally):
    for move in GAME.legal_moves(st):
        child = GAME.apply(st, move)
        if child.result is not None:
            key = child.result.winners[0] if child.result.winners else None
            tally[key] = tally.get(key, 0) + 1
        elif depth > 1:
            engine_endings(child, depth - 1, tally)
    return tally


def test_perft_from_the_start():
    # Placement counts as in Spline (16, 16*15, ...; depth 5 adds the 9
    # platforms filled in 4! orders): no colour has three balls before ball 7,
    # so no game ends earlier. Depth 3 agrees with the brute force.
    assert [perft(GAME, d) for d in range(1, 6)] == [16, 240, 3360, 43680, 524376]
    assert [brute({}, d) for d in range(1, 4)] == [16, 240, 3360]


@pytest.mark.parametrize("text, counts, wins", [
    # Black a1 c1: player 1's black 7th ball on e1 closes a row; 91 of the
    # 930 three-ball continuations end that way.
    ("...R/..../W.W./BB..|.../.../...|../..|. 3", [11, 111, 930], {0: 91}),
    # Platform b2 is full: a black ball on b2 joins a1 and c3 (up and down).
    ("..../..../RBW./BW..|.../.../...|../..|. 3", [12, 133, 1246], {0: 32}),
])
def test_perft_where_the_first_lines_appear(text, counts, wins):
    # Balls 6-8 of a game: lines first become possible with ball 7.
    st = GAME.parse_state(text)
    board = cells_of(st.position)
    assert [perft(GAME, d, st) for d in range(1, 4)] == counts
    assert brute(board, 3) == counts[-1]
    tally = {}
    brute(board, 3, tally)
    assert tally == wins == engine_endings(st, 3, {})


@pytest.mark.slow
def test_perft_depth_eight():
    # The first depth where finished games are missing from the count (Spline
    # has 531986400 here). The brute force above, memoised on the position,
    # gave the same number outside the suite (29 minutes).
    assert perft(GAME, 8) == 518994432


def _before_end(seed, back):
    rng, st, history = random.Random(seed), GAME.initial_state(), []
    while st.result is None:
        history.append(st)
        st = Game.random_step(GAME, st, rng)
    return history[max(0, len(history) - back)]


@pytest.mark.parametrize("seed", range(5))
def test_perft_and_endings_near_the_end(seed):
    st = _before_end(seed, 3)
    board = cells_of(st.position)
    assert [perft(GAME, d, st) for d in range(1, 4)] == [brute(board, d) for d in range(1, 4)]
    tally = {}
    brute(board, 3, tally)
    assert engine_endings(st, 3, {}) == tally and tally


def test_perft_into_the_draw():
    st = GAME.parse_state(DRAWN)
    assert perft(GAME, 1, st) == 1 and perft(GAME, 2, st) == 0
    tally = {}
    brute(cells_of(st.position), 1, tally)
    assert tally == {None: 1} == engine_endings(st, 1, {})


def _random_position(rng):
    pos = Position.empty()
    for _ in range(rng.randrange(31)):
        pts = [p for p in range(30) if pos.is_playable(p)]
        pos = pos.place(rng.choice(pts), rng.choice((WHITE, BLACK, RED)))
    return pos


def test_independent_line_test_agrees_on_random_positions():
    rng = random.Random(4)
    for _ in range(400):
        pos = _random_position(rng)
        board = cells_of(pos)
        for c in (WHITE, BLACK, RED):
            # Keep one colour; give every other ball a colour of its own.
            one = {k: (v if v == "WBR"[c - 1] else str(k)) for k, v in board.items()}
            for cuts in (True, False):
                assert RUNS3.seen(pos.mask(c), pos.occupied, cuts) == has_line(one, cuts), pos


def test_conformance():
    check_random_games("spaniel", seeds=range(10), overpass_cuts=False)
    check_playouts("spaniel", games=600)
