"""Spinout pinned down: placements and spins, running out, lines of three, the tie-break."""
import random

import pytest

import shibumi.games.spinout  # noqa: F401  (registers the game)
from conformance import (check_playouts, check_random_games, check_symmetries,
                         random_walk)
from shibumi import IllegalMoveError, NotationError, UnknownGameError, load
from shibumi.analysis import perft
from shibumi.games.spinout import LINES3, lines_of, spins, spun_mask
from shibumi.geometry import INTERIOR_MASK, SUPPORTED_MASK, points_of
from shibumi.notation import parse_point, point_name
from shibumi.position import RED, WHITE, Position, column_above
from reference import ABOVE, ALL, cells_of, centre, open_points

GAME = load("spinout")
FULL = "WWRW/RRRW/RRWW/WWWR|WWR/WWR/WRR|WR/RR|R"
#: A random game (seed 1169) that ends as the text's example does: four lines
#: each, and Red wins on balls in view.
EXAMPLE = ("Wa1 Rc5.0 We1 Rg3 Wg7 Rc3.0 Wc7 Re5.0 Wg5 Ra5 Wc1 Rg1 Wa7 Re7 We3.0 Rf6 Wf4 "
           "g3>f4 Wd6 Rf2 g7>f6 Ra3 Wb6 g7>f6 Wb4 Rd2 Wd4.1 Re5.2 Wc5.2 f4>e5.2 Wb2 Rc3.2 "
           "f4>e5.2 Re3.2 g1>e3.2 Rd4.3")
#: A game of the longest possible length, 54 actions: White places balls 5 to
#: 17 while Red spins after each, then Red places 18 to 30 while White spins.
LONGEST = ("Wa1 Rc1 Wa3 Rc3.0 Wb2 c3.0>b2 We5.0 a1>b2 Wa5 c3.0>b2 Wa7 a3>b2 We7 a3>b2 Wg3 "
           "c1>b2 We3.0 c1>b2 We1 a3>b2 Wg7 c1>b2 Wg5 a1>b2 Wf6 c1>b2 Wc7 g7>f6 Wg1 Rf2 "
           "e3.0>f2 Rd2 g3>f2 Rf4 e7>f6 Rc5.0 a1>b2 Rb4 a1>b2 Rd6 c7>d6 Rd4.1 g7>f6 Re5.2 "
           "d4.1>e5.2 Rb6 f4>e5.2 Rc5.2 g1>f2 Rc3.2 g7>e5.2 Re3.2 a7>c5.2 Rd4.3")


def state(text, to_move=1, extras="ply=30", game=GAME):
    return game.parse_state(f"{text} {to_move} {extras}".strip())


def play(moves, start=None, game=GAME):
    match = game.new_match(state=start)
    for move in moves.split():
        match.push(move)
    return match


def names(moves):
    return sorted(m.text() for m in moves)


def test_conformance():
    check_random_games("spinout", seeds=range(30))
    for seed in range(6):
        check_symmetries(GAME, random_walk(GAME, seed, 8 + 4 * seed))


def test_the_fast_playout_plays_the_rules_games_in_the_variant_too():
    check_playouts("spinout", games=100, hidden_count=True)


def test_spins_on_masks_agree_with_the_shared_lift():
    """Each spin's chain is the lifted ball and the column above it, its sources are
    the balls holding up exactly one, and turning the chain's colours gives what
    lifting the ball (Position.remove) and putting it on top gives."""
    for seed in range(40):
        rng = random.Random(seed)
        s = GAME.initial_state()
        while not GAME.is_terminal(s):
            pos = s.position
            occ = pos.occupied
            chains = spins(occ)
            assert [c[0] for c in chains] == [
                p for p in range(30) if occ >> p & 1 and (SUPPORTED_MASK[p] & occ).bit_count() == 1]
            for chain in chains:
                p = chain[0]
                assert chain[1:] == tuple(points_of(column_above(p, occ)))
                lifted, _ = pos.remove(p)
                after = lifted.place(chain[-1], pos.colour_at(p))
                assert (spun_mask(pos.white, chain), spun_mask(pos.red, chain)) \
                    == (after.white, after.red)
            s = GAME.apply(s, rng.choice(GAME.legal_moves(s)))


def test_start_is_empty_white_first_with_sixteen_placements():
    start = GAME.initial_state()
    assert start.position == Position.empty() and start.to_move == 0
    assert names(GAME.legal_moves(start)) == sorted(f"W{n}" for n in
                                                    "a1 c1 e1 g1 a3 c3.0 e3.0 g3 a5 c5.0 "
                                                    "e5.0 g5 a7 c7 e7 g7".split())
    assert GAME.player_names[:2] == ("White", "Red")
    assert GAME.status_lines(start) == ["Balls in hand: White 16, Red 16."]


def test_a_spin_lifts_a_support_ball_and_puts_it_on_top_of_its_column():
    match = play("a1 c1 a3 c3 b2")
    assert names(m for m in match.legal_moves() if m.kind == "move") == \
        ["a1>b2", "a3>b2", "c1>b2", "c3.0>b2"]
    match.push("c1>b2")                 # Red lifts its own c1; White's b2 drops
    pos = match.state.position
    assert pos.colour_at(parse_point("c1")) == WHITE
    assert pos.colour_at(parse_point("b2")) == RED
    assert pos.count(WHITE) == 3 and pos.count(RED) == 2     # nothing leaves the pyramid
    assert GAME.length(match.state) == 6


def test_a_spin_of_a_taller_column_drops_every_ball_one_step():
    # a1 (W) carries b2 (R), which carries c3.2 (W): lifting a1 drops both.
    text = "..../RWR./WRWR/WRWR|.../RW./RW.|../W.|."
    st = state(text, 1, "ply=16")
    spins = names(m for m in GAME.legal_moves(st) if m.kind == "move")
    assert "a1>c3.2" in spins and "c1>c3.2" not in spins     # c1 holds up b2 and d2
    after = play("a1>c3.2", st).state.position
    assert after == Position("..../RWR./WRWR/RRWR|.../RW./WW.|../W.|.")


def test_either_colour_may_be_spun_and_a_pinned_ball_may_not():
    match = play("a1 c1 a3 c3 b2 e1 e3 d2")
    spins = names(m for m in match.legal_moves() if m.kind == "move")
    # c1 and c3 hold up both b2 and d2: pinned. The others hold one ball each.
    assert spins == ["a1>b2", "a3>b2", "e1>d2", "e3.0>d2"]
    sources = [m.point for m in match.legal_moves() if m.kind == "move"]
    assert {match.state.position.colour_at(p) for p in sources} == {WHITE, RED}


def test_no_spin_answers_a_spin_but_a_spin_may_answer_a_placement():
    match = play("a1 c1 a3 c3 b2 c1>b2")
    assert all(m.kind == "place" and m.colour == WHITE for m in match.legal_moves())
    assert "Red has just spun a column, so White must place a ball." in \
        GAME.status_lines(match.state)
    match.push("e1")
    assert any(m.kind == "move" for m in match.legal_moves())


def test_a_spin_of_one_colour_changes_nothing_but_is_allowed():
    match = play("a1 c1 a3 c3 b2")
    before = match.state.position
    match.push("a1>b2")                 # white a1 under white b2
    assert match.state.position == before and match.state.spun
    assert match.current_player == 0   # White must now place


def test_a_player_out_of_balls_leaves_the_rest_to_the_other():
    # Red has all 16 balls in play after this placement: White completes.
    text = "RRRR/RRRR/RRRW/WWWW|W.W/R.R/R.R|../..|."
    st = state(text, 2, "ply=40")
    assert GAME.in_hand(st.position, 1) == 1 and GAME.in_hand(st.position, 0) == 9
    match = play("Rd2", st)
    assert match.current_player == 0
    match.push("d4.1")
    assert match.current_player == 0 and match.legal_moves()
    assert all(m.kind == "place" for m in match.legal_moves())   # no spins any more
    assert "Red has no ball left: White completes the pyramid." in \
        GAME.status_lines(match.state)
    while not match.is_over():
        match.push(match.legal_moves()[0])
    assert match.state.position.count(WHITE) == 14


def test_fifty_two_lines_of_three():
    assert len(LINES3) == 52
    assert len(set(LINES3)) == 52 and all(m.bit_count() == 3 for m in LINES3)
    assert sum(m.bit_count() for m in LINES3) == 156


def test_scoring_counts_lines_in_view_and_the_variant_counts_hidden_balls():
    st = state(FULL, 1, "ply=36")
    assert st.result is not None
    (lines, seen) = GAME.tally(st.position)
    assert lines == (4, 4) and seen == (13, 12)
    assert st.result.winners == (1,)
    hidden = load("spinout", hidden_count=True)
    assert hidden.tally(st.position) == ((6, 6), (13, 12))
    assert hidden.parse_state(f"{FULL} 1 ply=36").result.winners == (1,)


def test_a_buried_ball_breaks_its_lines():
    # White's row a1, c1, e1 is all in view and counts; White's row c3, e3,
    # g3 does not, as c3.0 and e3.0 are buried under level 2.
    pos = Position("RWRW/RWRW/RWWW/WWWR|RRR/RRR/RRR|RR/RR|R")
    white = pos.mask(WHITE)
    assert pos.hidden() == INTERIOR_MASK
    rows = {frozenset(("a1", "c1", "e1")), frozenset(("c3.0", "e3.0", "g3"))}
    counted = {frozenset(point_name(p) for p in range(30) if m >> p & 1)
               for m in lines_of(white, pos.occupied)}
    everything = {frozenset(point_name(p) for p in range(30) if m >> p & 1)
                  for m in lines_of(white, pos.occupied, hidden_count=True)}
    assert rows <= everything and frozenset(("a1", "c1", "e1")) in counted
    assert frozenset(("c3.0", "e3.0", "g3")) not in counted


def test_the_text_example_was_twelve_balls_in_view_against_thirteen():
    # The example: Red wins with 4 lines like White. A full pyramid shows 25
    # balls, so "13 against 13" cannot be; Red, the winner, has 12 in view.
    match = GAME.new_match(record=EXAMPLE)
    final = match.state
    assert final.position == Position(FULL)
    lines, seen = GAME.tally(final.position)
    assert lines == (4, 4) and seen == (13, 12) and sum(seen) == 25
    assert match.outcome().winners == (1,)
    assert match.outcome().reason == "Red wins with 4 lines each, and 12 balls in view to 13"
    assert GAME.winning_points(final) == 0          # the tie-break decided, not the lines


def test_balls_in_view_always_add_up_to_twenty_five_so_no_draw():
    rng = random.Random(5)
    for _ in range(150):
        final = GAME.random_playout(GAME.initial_state(), rng)
        seen = GAME.tally(final.position)[1]
        assert sum(seen) == 25 and seen[0] != seen[1]
        assert len(final.result.winners) == 1


def test_lines_decide_first():
    match = GAME.new_match(record=LONGEST)
    outcome = match.outcome()
    assert outcome.winners == (0,) and outcome.scores == (3.0, 1.0)
    lines = GAME.winning_points(match.state)
    assert lines and lines & ~match.state.position.white == 0


def test_the_longest_game_lasts_fifty_four_actions():
    match = GAME.new_match(record=LONGEST)
    assert match.is_over() and GAME.length(match.state) == 54 == GAME.info.max_length
    assert sum(m.kind == "move" for m in match.moves()) == 24


def test_bad_input_is_refused_and_changes_nothing():
    match = play("a1 c1 a3 c3 b2")
    before = match.state
    for text in ("b2>a1", "xa1", "Rb4", "c1>d2", "a1>c3.2", "pass", "zz"):
        with pytest.raises((IllegalMoveError, NotationError)):
            match.push(text)
        assert match.state == before
    with pytest.raises(NotationError):
        GAME.parse_state("B.../..../..../....|.../.../...|../..|. 1 ply=1")
    with pytest.raises(NotationError):
        GAME.parse_state("W.../..../..../....|.../.../...|../..|. 2 ply=0")
    with pytest.raises(NotationError):
        GAME.parse_state("RRRR/RRRR/RRRR/RRRR|.../.../...|../..|. 2 ply=16")
    with pytest.raises(NotationError):
        GAME.parse_state("W.../..../..../....|.../.../...|../..|. 2 ply=1 spun=1")
    with pytest.raises(UnknownGameError):
        load("spinout", hidden_count=1)


def test_state_text_round_trips():
    match = play("a1 c1 a3 c3 b2 c1>b2")
    text = GAME.state_text(match.state)
    assert text.endswith(" 1 ply=6 spun")
    assert GAME.parse_state(text) == match.state.__class__(
        match.state.position, 0, None, None, 6, True)


# -- an independent model ------------------------------------------------------
# Written from the rules alone on the dict-of-cells pyramid: a spin walks up
# the column from the lifted ball; lines of three are found from 3D centres
# (three equally spaced balls a flat step, a flat diagonal or a touching
# climb apart), and a ball is in view unless one sits two levels straight above.

HAND = 16


def ref_lines():
    found = set()
    for a in ALL:
        for b in ALL:
            if a == b:
                continue
            step = tuple(q - p for p, q in zip(centre(a), centre(b)))
            flat = a[0] == b[0] and max(abs(a[1] - b[1]), abs(a[2] - b[2])) == 1
            climb = a[0] != b[0] and abs(sum(s * s for s in step) - 1) < 1e-9
            if not (flat or climb):
                continue
            third = tuple(round(q + s, 9) for q, s in zip(centre(b), step))
            for c in ALL:
                if tuple(round(v, 9) for v in centre(c)) == third:
                    found.add(frozenset((a, b, c)))
    return found


REF_LINES = ref_lines()


def ref_hidden(board, cell):
    lv, x, y = cell
    return (lv + 2, x - 1, y - 1) in board


def ref_score(board, colour, with_hidden=False):
    return sum(all(board.get(c) == colour and (with_hidden or not ref_hidden(board, c))
                   for c in line) for line in REF_LINES)


def resting(board, cell):
    return [c for c in ABOVE[cell] if c in board]


def ref_moves(board, to_move, spun):
    colours = "WR"
    hands = [HAND - sum(v == c for v in board.values()) for c in colours]
    out = []
    if hands[to_move]:
        out += [("place", c) for c in open_points(board)]
    if not spun and hands[1 - to_move]:
        out += [("spin", c) for c in board if len(resting(board, c)) == 1]
    return out


def ref_apply(board, to_move, move):
    board = dict(board)
    kind, cell = move
    if kind == "place":
        board[cell] = "WR"[to_move]
    else:
        lifted, gap = board.pop(cell), cell
        while resting(board, gap):
            top = resting(board, gap)[0]
            board[gap] = board.pop(top)
            gap = top
        board[gap] = lifted
    hands = [HAND - sum(v == c for v in board.values()) for c in "WR"]
    following = 1 - to_move if hands[1 - to_move] else to_move
    return board, following, kind == "spin"


def ref_perft(board, to_move, spun, depth):
    if depth == 0:
        return 1
    if len(board) == len(ALL):
        return 0
    total = 0
    for move in ref_moves(board, to_move, spun):
        if depth == 1:
            total += 1
        else:
            total += ref_perft(*ref_apply(board, to_move, move), depth - 1)
    return total


def test_the_model_agrees_on_lines_and_visible_balls():
    assert len(REF_LINES) == len(LINES3) == 52
    for seed in range(40):
        final = GAME.random_playout(GAME.initial_state(), random.Random(seed))
        board = cells_of(final.position)
        lines, seen = GAME.tally(final.position)
        assert lines == (ref_score(board, "W"), ref_score(board, "R"))
        assert seen == tuple(sum(v == c and not ref_hidden(board, k) for k, v in board.items())
                             for c in "WR")
        assert load("spinout", hidden_count=True).tally(final.position)[0] == \
            (ref_score(board, "W", True), ref_score(board, "R", True))


#: perft from the start, depths 1-4 (placements only this early).
PERFT_START = [16, 240, 3360, 43680]
#: perft to depth 4 from states along random games (seed, steps): spins
#: included, and two states right after a spin.
PERFT_MIDDLE = {
    (1, 10): [6, 35, 223, 1616],
    (2, 14): [9, 66, 548, 4600],
    (3, 20): [9, 58, 421, 2878],
    (4, 26): [9, 62, 448, 2906],
    (5, 33): [2, 20, 36, 34],
    (6, 17): [4, 32, 206, 1565],
    (7, 23): [10, 50, 351, 2105],
}


def test_perft_from_the_start():
    assert [perft(GAME, d) for d in range(1, 5)] == PERFT_START
    assert [ref_perft({}, 0, False, d) for d in range(1, 4)] == PERFT_START[:3]


@pytest.mark.parametrize("seed,steps", sorted(PERFT_MIDDLE))
def test_perft_in_mid_game_matches_the_model(seed, steps):
    st = random_walk(GAME, seed, steps)
    board = cells_of(st.position)
    expected = PERFT_MIDDLE[seed, steps]
    assert [perft(GAME, d, st) for d in (1, 2, 3, 4)] == expected
    assert [ref_perft(board, st.to_move, st.spun, d) for d in (1, 2, 3, 4)] == expected
