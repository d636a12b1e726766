"""Spruit: balls drawn from a bag are pushed into the pyramid; its groups are scored."""
import random
from collections import deque

import pytest
from hypothesis import given, settings, strategies as st

from conformance import (check_playouts, check_random_games, check_symmetries,
                        moves_reached_by_clicks)
from reference import ALL, cells_of, sees, visible_group
from shibumi import CHANCE, IllegalMoveError, NotationError, UnknownGameError, load
from shibumi.analysis import perft
from shibumi.games.spruit import (START, SpruitOutcome, bag_left, building, colour_score,
                                  red_path, score_parts)
from shibumi.geometry import ALL_MASK, BOARD_MASK, EXTERIOR_MASK, SYMMETRIES, points_of
from shibumi.interaction import Table
from shibumi.notation import Move, parse_point
from shibumi.position import BLACK, RED, WHITE, Position, linked

GAME = load("spruit")
LAX = load("spruit", must_push=False)


def replay(record, game=GAME):
    s = game.initial_state()
    for text in record.split():
        move = Move(text)
        legal = dict(game.chance_outcomes(s)) if text.startswith("=") else game.legal_moves(s)
        assert move in legal, text
        s = game.apply(s, move)
    return s


def texts(moves):
    return [m.text() for m in moves]


# The rule book's three scored examples, found as real games from the default
# start with exactly the text's group sizes (random play that avoids losing
# moves for 23 and 2 points; a search aimed at the colouring for 28).
EX_23 = ("=R Rf2 =W Wf2+n =W Wf2+n =B Bf6+w =W Wf4+w =R Rd6+s =R Rf6+w =B Bf2+w "
         "=B Bb2+n =R Re3.2 =W We3.2+n =B Be5.2+w =B Be3.2+w =R Rd4.3")
EX_28 = ("=W Wb2 =W Wb2+n =B Bb2+n =B Bb2+e =B Bb6+e =R Rb2+e =R Rf2+n =R Rf4+w "
         "=B Bf2+n =W Wc3.2 =W Wc3.2+n =R Rc3.2+e =R Re3.2+n =W Wd4.3")
EX_2 = ("=B Bb6 =W Wb6+e =R Rb6+s =R Rd6+s =B Bb6+s =B Bb6+e =W Wb4+e =W Wd6+s "
        "=W Wb2+e =W We3.2 =B Be3.2+w =R Re3.2+n =R Rc3.2+n =B Bd4.3")


# -- conformance --------------------------------------------------------------------

def test_conformance():
    check_random_games("spruit", seeds=range(8))
    check_playouts("spruit", games=50)
    assert GAME.info.chance and GAME.info.max_length == 14 and GAME.num_players == 1


def test_the_variant_plays_to_the_end():
    check_random_games("spruit", seeds=range(3), must_push=False)


def test_the_fast_playout_plays_the_rules_games_with_every_option():
    check_playouts("spruit", games=100, must_push=False)
    check_playouts("spruit", games=100, start="RWBW/WBWB/WBWB/BWBR|.../.../...|../..|.")


@given(st.integers(0, 2 ** 32), st.integers(0, 28))
@settings(max_examples=6, deadline=None)
def test_all_eight_symmetries_keep_moves_and_results(seed, steps):
    rng = random.Random(seed)
    s = GAME.initial_state()
    for _ in range(steps):
        if GAME.is_terminal(s):
            break
        s = GAME.random_step(s, rng)
    for image in check_symmetries(GAME, s):
        assert GAME.chance_outcomes(image) == GAME.chance_outcomes(s)
        again = GAME.parse_state(GAME.state_text(image))
        assert GAME.state_key(again) == GAME.state_key(image)


def test_every_legal_move_is_reachable_by_clicks():
    t = Table("spruit", seats="human", seed=2)
    for step in range(8):
        if t.match.is_over():
            break
        legal = t.match.legal_moves()
        assert moves_reached_by_clicks(t) == set(legal)
        safe = [m for m in legal if not GAME.apply(t.match.state, m).result]
        t.choose((safe or legal)[0])


# -- the start and the draws --------------------------------------------------------

def test_the_start_and_the_bag():
    s = GAME.initial_state()
    pos = s.position
    assert pos.text() == START and pos.occupied == BOARD_MASK
    assert [pos.count(c) for c in (WHITE, BLACK, RED)] == [7, 7, 2]
    assert pos.red == 1 << parse_point("a1") | 1 << parse_point("g7")
    # a half turn swaps the colours of the layout
    half = pos.transform(SYMMETRIES[2])
    assert half.white == pos.black and half.black == pos.white and half.red == pos.red
    assert GAME.current_player(s) == CHANCE and bag_left(pos) == (5, 5, 5)
    assert GAME.chance_outcomes(s) == [(Move("=W"), 1 / 3), (Move("=B"), 1 / 3),
                                       (Move("=R"), 1 / 3)]
    # fourteen balls complete the pyramid: one stays in the bag
    assert 30 - 16 == 14 == GAME.info.max_length and sum(bag_left(pos)) == 15


def test_other_start_layouts_and_bad_ones():
    other = "BWBR/WBWB/WBWB/RWBW|.../.../...|../..|."
    assert load("spruit", start=other).initial_state().position.text() == other
    assert load("spruit", start="RWBW/WBWB/WBWB/BWBR|.../.../...|../..|.")   # a7 and g1
    for bad in ("BWBR/WBWB/WBWB/WRBW|.../.../...|../..|.",     # reds not in corners
                "BWBR/WBWB/WBWB/RWBB|.../.../...|../..|.",     # 6 white, 8 black
                "BWBR/WBWB/WBWB/RWB.|.../.../...|../..|.",     # a hole empty
                "BWBR/WBWB/WBWB/RWBW|B../.../...|../..|.",     # a ball above
                "nonsense"):
        with pytest.raises(UnknownGameError):
            load("spruit", start=bad)


def test_draws_follow_the_bag():
    s = GAME.parse_state(START.replace("|...", "|RRR", 1) + " 1")
    assert bag_left(s.position) == (5, 5, 2)
    assert GAME.chance_outcomes(s) == [(Move("=W"), 5 / 12), (Move("=B"), 5 / 12),
                                       (Move("=R"), 2 / 12)]


# -- where a ball goes ----------------------------------------------------------------

def test_the_first_ball_of_a_level_goes_on_its_edge():
    s = GAME.apply(GAME.initial_state(), Move("=R"))
    assert texts(GAME.legal_moves(s)) == ["Rb2", "Rd2", "Rf2", "Rb4", "Rf4", "Rb6",
                                          "Rd6", "Rf6"]                    # not d4
    level2 = GAME.parse_state(START.split("|")[0] + "|WBW/BRB/WBW|../..|. 1 drawn=R")
    assert building(level2.position.occupied) == 2
    assert texts(GAME.legal_moves(level2)) == ["Rc3.2", "Re3.2", "Rc5.2", "Re5.2"]
    apex = GAME.parse_state(START.split("|")[0] + "|WBW/BRB/WBW|RR/RR|. 1 drawn=W")
    assert texts(GAME.legal_moves(apex)) == ["Wd4.3"]


def test_later_balls_are_pushed_in_and_must_push():
    s = replay("=B Bb2 =W")
    # b2 is a corner: the ball can push it north or east, nothing else
    assert texts(GAME.legal_moves(s)) == ["Wb2+n", "Wb2+e"]
    after = GAME.apply(s, Move("Wb2+e"))
    assert after.position.colour_at(parse_point("b2")) == WHITE
    assert after.position.colour_at(parse_point("d2")) == BLACK
    # without the push rule the ball may also come in onto any empty edge point
    lax = LAX.apply(LAX.apply(LAX.apply(LAX.initial_state(), Move("=B")), Move("Bb2")),
                    Move("=W"))
    assert set(texts(GAME.legal_moves(s))) < set(texts(LAX.legal_moves(lax)))
    assert "Wf6+s" in texts(LAX.legal_moves(lax))


def test_no_ball_is_pushed_off_so_a_full_row_cannot_be_pushed():
    s = replay("=R Rb2 =R Rb2+e =R Rb2+e =W")
    assert texts(GAME.legal_moves(s)) == ["Wb2+n", "Wd2+n", "Wf2+n"]     # not Wb2+e


def test_a_first_ball_on_a_middle_edge_point_jams_level_one():
    # From d2 the only push is north; after two pushes the column d2-d4-d6 is
    # full, and the fourth ball has nowhere to go: the game is lost.
    for first in ("d2", "b4", "f4", "d6"):
        s = replay(f"=R R{first} =R")
        assert len(GAME.legal_moves(s)) == 1
        s = GAME.apply(GAME.apply(s, GAME.legal_moves(s)[0]), Move("=R"))
        assert len(GAME.legal_moves(s)) == 1
        s = GAME.apply(GAME.apply(s, GAME.legal_moves(s)[0]), Move("=W"))
        assert s.result is not None and s.result.winners == ()
        assert "cannot be put in" in s.result.reason and GAME.legal_moves(s) == []


def test_an_isolated_white_or_black_ball_loses_at_once():
    # b2 rests on a1 (red), c1 (black), a3 (white), c3 (black): a white ball there
    # touches a3; a black ball touches c1 and c3.
    pos = GAME.initial_state().position
    b2 = parse_point("b2")
    assert linked(b2, pos.occupied | 1 << b2) & pos.white
    # f6 rests on e5 (white), g5 (black), e7 (white), g7 (red)
    s = replay("=B Bf6")
    assert s.result is None
    # a red ball on its own is fine anywhere
    s = replay("=R Rd6 =R Rd6+s =R")
    assert s.result is None
    # A white ball pushed in at e5.2, over d4 (red), f4 and d6 (black) and f6 (red),
    # next to black c5.2 and the red it pushed to e3.2: it touches no white. Lost,
    # though the move was legal.
    text = START.split("|")[0] + "|WBR/BRB/WBW|BR/R.|. 1 drawn="
    lone = GAME.parse_state(text + "W")
    move = Move("We5.2+s")
    assert move in GAME.legal_moves(lone)
    end = GAME.apply(lone, move)
    assert end.lost == parse_point("e5.2") and end.result.winners == ()
    assert end.result.reason == "lost: the white ball brought in touches no white ball"
    assert GAME.status_lines(end)[0] == ("Lost: the white ball brought in at e5.2 touches "
                                         "no white ball.")
    assert "Game over: lost." in GAME.describe(end)
    assert GAME.state_key(GAME.parse_state(GAME.state_text(end))) == GAME.state_key(end)
    # a red ball may go there: reds need no company
    assert GAME.apply(GAME.parse_state(text + "R"), Move("Re5.2+s")).result is None


def test_illegal_moves_are_refused_and_change_nothing():
    m = GAME.new_match(state=replay("=B Bb2 =W"))
    before = m.state
    for bad, error in (("Wd4", IllegalMoveError), ("Wb2", IllegalMoveError),
                       ("Bb2+n", IllegalMoveError), ("Wb2+w", IllegalMoveError),
                       ("Wf6+s", IllegalMoveError), ("=W", IllegalMoveError),
                       ("pass", IllegalMoveError), ("Wb2+q", NotationError)):
        with pytest.raises(error):
            m.push(bad)
        assert m.state == before
    m.push("b2+n")
    assert m.state.position.colour_at(parse_point("b4")) == BLACK


# -- scoring ----------------------------------------------------------------------------

def test_colour_scores_products_and_lone_groups():
    pos = replay(EX_23).position
    assert colour_score(pos, BLACK) == (16, [8, 2])
    assert colour_score(pos, WHITE) == (7, [7, 1, 1])


def test_the_rule_books_scored_examples_add_up():
    # Examples as the text gives them: (red points, black sizes, white sizes, total)
    examples = [(0, [2, 8], [1, 1, 7], 23), (7, [2, 6], [1, 9], 28),
                (0, [1, 2, 6], [10], 2)]
    for red, black, white, total in examples:
        product = lambda xs: xs[0] * product(xs[1:]) if xs else 1  # noqa: E731
        bscore = product(black) if len(black) > 1 else -black[0]
        wscore = product(white) if len(white) > 1 else -white[0]
        assert red + bscore + wscore == total
        # the visible balls: white + black + red = 25, the whole pyramid from above
        reds = 25 - sum(black) - sum(white)
        assert 2 <= reds <= 2 + 5
        if red:
            assert reds == 7              # a path takes all five reds of the bag
    assert bin(EXTERIOR_MASK).count("1") == 25


@pytest.mark.parametrize("record,total,parts,black,white", [
    (EX_23, 23, (0, 7, 16), [8, 2], [7, 1, 1]),
    (EX_28, 28, (7, 9, 12), [6, 2], [9, 1]),
    (EX_2, 2, (0, -10, 12), [6, 2, 1], [10]),
])
def test_the_examples_rebuilt_as_games(record, total, parts, black, white):
    s = replay(record)
    pos = s.position
    assert pos.occupied == ALL_MASK and s.result.winners == (0,)
    assert s.result.scores == (float(total),) and score_parts(pos) == parts
    assert colour_score(pos, BLACK)[1] == black and colour_score(pos, WHITE)[1] == white
    assert sum(bag_left(pos)) == 1
    visible = pos.visible()
    assert visible.bit_count() == 25
    assert sum((pos.mask(c) & visible).bit_count() for c in (WHITE, BLACK, RED)) == 25
    assert bool(red_path(pos)) == (parts[0] == 7)
    assert s.result.reason.startswith(f"score {total}: red path {parts[0]}")
    if parts[0]:                          # all five reds of the bag, all seen
        assert (pos.red & visible).bit_count() == 7 and bag_left(pos)[2] == 0
    assert isinstance(s.result, SpruitOutcome)
    assert s.result.returns(1) == ((total + 40) / 120,)


def test_a_red_path_needs_all_five_reds_of_the_bag():
    # Shortest chain of visible contacts from a1 to g7 in a complete pyramid
    # that avoids the other board balls (white or black in any layout).
    a1, g7 = parse_point("a1"), parse_point("g7")
    allowed = (ALL_MASK & ~BOARD_MASK) | 1 << a1 | 1 << g7
    dist = {a1: 0}
    todo = deque([a1])
    while todo:
        p = todo.popleft()
        for q in points_of(linked(p, ALL_MASK) & allowed):
            if q not in dist:
                dist[q] = dist[p] + 1
                todo.append(q)
    assert dist[g7] - 1 == 5
    # and a complete pyramid with that path scores its 7 points
    path = Position(START.split("|")[0] + "|WBR/BWB/RBW|WR/RB|R")
    assert red_path(path) and score_parts(path)[0] == 7
    assert GAME.winning_points(GAME.parse_state(path.text() + " 1")) == red_path(path)


def test_scores_of_random_complete_pyramids():
    rng = random.Random(4)
    seen = []
    for _ in range(60):
        final = GAME.random_playout(GAME.initial_state(), rng)
        if final.result.winners:
            pos = final.position
            assert pos.occupied == ALL_MASK and final.result.scores[0] == sum(score_parts(pos))
            seen.append(final.result.scores[0])
        else:
            assert final.result.scores is None and final.result.returns(1) == (0.0,)
    assert seen and -20 <= min(seen) and max(seen) <= 79


# -- state text ----------------------------------------------------------------------

def test_state_text_round_trips_and_bad_states_are_refused():
    s = replay("=B Bb2 =W")
    assert GAME.state_text(s) == START.split("|")[0] + "|.../.../B..|../..|. 1 drawn=W"
    assert GAME.state_key(GAME.parse_state(GAME.state_text(s))) == GAME.state_key(s)
    board = START.split("|")[0]
    for bad in (f"{board}|.../.../...|../..|. 1 drawn=X",
                f"{board}|.../.../...|../..|. 1 drawn=W drawn=B",
                f"{board}|.../.../...|W./..|. 1",                       # floating
                f"{board}|WWW/WWW/WW.|W./..|. 1",                       # level 1 unfinished
                f"{board}|WWW/WWW/WWW|../..|. 1",                       # nine whites
                "WBWR/BWBW/BWBW/RBWW|.../.../...|../..|. 1",             # not a start board
                f"{board}|.../.../B..|../..|. 1 lost=b2",                # b2 touches black
                f"{board}|BWB/WBW/BWB|WB/BW|W 1 drawn=R",                # complete, in hand
                f"{board}|.../.../...|../..|. 1 score=3"):
        with pytest.raises(NotationError):
            GAME.parse_state(bad)


# -- perft, cross-checked by an engine-free brute force -----------------------------
#
# The rules again on tests/reference.py's dict model: the level being filled is
# the lowest one with a gap; on an empty level a ball goes on an edge point; else
# it enters at an occupied edge point and the run of balls ahead moves one step,
# never off the level. A white or black ball touching (visibly) none of its colour
# ends the game, as does a ball with nowhere to go. Draws follow the bag.

def _level(board):
    return next(lv for lv in (1, 2, 3, 4) if lv == 4 or
                any(p not in board for p in ALL if p[0] == lv))


def _edge(p):
    lv, x, y = p
    n = 3 - lv
    return x in (0, n) or y in (0, n)


def _puts(board, colour):
    """Boards after putting a ball of `colour` in, with the point it ended on."""
    lv = _level(board)
    points = [p for p in ALL if p[0] == lv]
    if not any(p in board for p in points):
        return [({**board, p: colour}, p) for p in points if _edge(p)]
    out = []
    n = 3 - lv
    for p in points:
        for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            back = (lv, p[1] - dx, p[2] - dy)
            if back in points or p not in board:        # must come from outside, push
                continue
            run, q = [], p
            while q in board:
                run.append(q)
                q = (lv, q[1] + dx, q[2] + dy)
            if not (0 <= q[1] <= n and 0 <= q[2] <= n):
                continue                                 # would push one off
            new = dict(board)
            for r in reversed(run):
                new[(lv, r[1] + dx, r[2] + dy)] = board[r]
            new[p] = colour
            out.append((new, p))
    return out


def _alone(board, p):
    return board[p] != "R" and visible_group(board, p) == {p}


def _children(node):
    board, hand = node
    if hand is None:
        if len(board) == 30:
            return []
        left = {"W": 12, "B": 12, "R": 7}
        for c in board.values():
            left[c] -= 1
        return [(board, c) for c in "WBR" if left[c]]
    found = []
    for new, p in _puts(board, hand):
        found.append((new, "lost" if _alone(new, p) else None))
    return found


def _brute(node, depth):
    if node[1] == "lost":
        return 0
    kids = _children(node)
    if depth == 1:
        return len(kids)
    return sum(_brute(k, depth - 1) for k in kids)


PERFT = [3, 24, 72, 108, 324, 756, 2268]


def test_perft_from_the_start_matches_a_hand_count_and_the_brute_force():
    assert [perft(GAME, d) for d in range(1, 8)] == PERFT
    # by hand: 3 draws, 8 edge points, 3 draws, then 2 pushes from a corner
    # ball and 1 from a middle one: 3 x 3 x (4 x 2 + 4 x 1)
    assert PERFT[:4] == [3, 3 * 8, 3 * 8 * 3, 3 * 3 * (4 * 2 + 4 * 1)]
    start = cells_of(GAME.initial_state().position)
    assert [_brute((start, None), d) for d in range(1, 6)] == PERFT[:5]


@pytest.mark.parametrize("seed,steps", [(1, 8), (2, 14), (3, 18), (5, 22)])
def test_perft_from_random_positions_matches_the_brute_force(seed, steps):
    rng = random.Random(seed)
    s = GAME.initial_state()
    for _ in range(steps):
        moves = GAME.legal_moves(s)
        if GAME.is_terminal(s):
            break
        if GAME.current_player(s) == CHANCE:
            s = GAME.random_step(s, rng)
        else:
            safe = [m for m in moves if not GAME.apply(s, m).result]
            s = GAME.apply(s, rng.choice(safe or moves))
    hand = None if s.drawn == 0 else ".WBR"[s.drawn]
    board = cells_of(s.position)
    assert [perft(GAME, d, s) for d in (1, 2, 3, 4)] == \
        [_brute((board, hand), d) for d in (1, 2, 3, 4)]


def test_the_brute_force_can_fail():
    start = cells_of(GAME.initial_state().position)
    assert _brute((start, None), 4) != PERFT[3] - 1
    assert len(ALL) == 30 and sees


# -- the lost start layout, constrained by the 28-point example ------------------------

def _allows_the_28_example(board):
    """Whether some colouring of the upper levels (five reds on a corner-to-corner
    path, at most five whites and five blacks) shows black groups of 6 and 2 and
    white groups of 9 and 1 on this start board."""
    from itertools import combinations, product
    from shibumi.position import group_of
    upper = list(range(16, 30))
    a1, g7 = parse_point("a1"), parse_point("g7")
    for reds in combinations(upper, 5):
        mask = sum(1 << p for p in reds) | board.red
        if not group_of(a1, mask, ALL_MASK) >> g7 & 1:
            continue
        free = [p for p in upper if p not in reds]
        for combo in product((WHITE, BLACK), repeat=len(free)):
            if combo.count(WHITE) > 5 or combo.count(BLACK) > 5:
                continue
            w = board.white | sum(1 << p for p, c in zip(free, combo) if c == WHITE)
            b = board.black | sum(1 << p for p, c in zip(free, combo) if c == BLACK)
            pos = Position.from_masks(w, b, mask)
            if colour_score(pos, BLACK)[1] == [6, 2] and colour_score(pos, WHITE)[1] == [9, 1]:
                return True
    return False


@pytest.mark.slow
def test_the_28_point_example_rules_out_many_layouts():
    from itertools import combinations, product
    inner = [p for p in range(16) if p not in (0, 15)]
    assert _allows_the_28_example(Position(START))
    assert not _allows_the_28_example(Position("WBWR/BWBW/BWBW/RBWB|.../.../...|../..|."))
    # layouts a half turn maps onto themselves with the colours swapped: 48 of 128
    pairs = sorted({tuple(sorted((p, 15 - p))) for p in inner})
    good = 0
    for choice in product((0, 1), repeat=7):
        white = sum(1 << pair[c] for pair, c in zip(pairs, choice))
        good += _allows_the_28_example(Position.from_masks(
            white, sum(1 << p for p in inner) & ~white, 1 | 1 << 15))
    assert good == 48
    # layouts symmetric about the a1-g7 diagonal: none
    mirror = [p for p in inner if p % 4 < p // 4]
    for whites in combinations(mirror, 3):
        for centre in (5, 10):
            white = 1 << centre
            for p in whites:
                white |= 1 << p | 1 << (p % 4 * 4 + p // 4)
            board = Position.from_masks(white, sum(1 << p for p in inner) & ~white,
                                        1 | 1 << 15)
            assert not _allows_the_28_example(board)
