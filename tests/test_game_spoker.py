"""Spoker: poker hands on the pyramid, balls drawn from a bag, one challenge at a time."""

import random

import pytest
from hypothesis import given, settings, strategies as st

from conformance import (check_playouts, check_random_games,
                         check_symmetries)
from reference import ABOVE, ALL, below, centre, cells_of, open_points, top_balls, touch
from shibumi import CHANCE, TERMINAL, IllegalMoveError, NotationError, load
from shibumi.analysis import perft
from shibumi.game import Game
from shibumi.games.spoker import (FLUSH, FOUR, FULL, STRAIGHT, THREE, LINES3, LINES4, bag_left,
                                  best_combination, combinations_at)
from shibumi.notation import Move, moves_matching, parse_point
from shibumi.position import BLACK, RED, WHITE, Position

GAME = load("spoker")


def state(text, extras=""):
    """A state from a position (the player to move follows from the balls placed)."""
    to_move = Position(text).count() % 2 + 1
    return GAME.parse_state(f"{text} {to_move} {extras}".strip())


def play(s, *texts):
    """Apply draws and placements given as texts ('=W', 'Wa1') without a match."""
    for text in texts:
        s = GAME.apply(s, Move(text))
    return s


def place(s, text):
    """Draw the ball of the colour named and place it (short names allowed)."""
    s = play(s, "=" + text[0])
    [move] = moves_matching(text, GAME.legal_moves(s))
    return GAME.apply(s, move)


def walk(seed, steps):
    """The state after up to ``steps`` placements of a random game (draws by the bag)."""
    rng = random.Random(seed)
    s = GAME.initial_state()
    placed = 0
    while not GAME.is_terminal(s) and placed < steps:
        if GAME.current_player(s) == CHANCE:
            s = GAME.apply(s, GAME.sample_chance(s, rng))
        else:
            s = GAME.apply(s, rng.choice(GAME.legal_moves(s)))
            placed += 1
    return s


def best(text, point):
    found = best_combination(Position(text), parse_point(point))
    return None if found is None else found[:2]


# -- conformance ------------------------------------------------------------------------

def test_conformance():
    check_random_games("spoker", seeds=range(15))
    check_playouts("spoker", games=120)
    assert GAME.info.chance and not GAME.info.hidden_information
    assert GAME.info.max_length == 30


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2 ** 32), st.integers(0, 30))
def test_all_eight_symmetries_keep_moves_results_and_draws(seed, steps):
    assert GAME.symmetries == tuple(range(8))
    s = walk(seed, steps)
    for image in check_symmetries(GAME, s):
        assert GAME.chance_outcomes(image) == GAME.chance_outcomes(s)
        assert image.scores == s.scores and image.challenge == s.challenge
        again = GAME.parse_state(GAME.state_text(image))
        assert GAME.state_key(again) == GAME.state_key(image)


def test_the_click_board_reaches_every_move():
    from shibumi.interaction import Table
    table = Table("spoker", seats="human", seed=5)
    rng = random.Random(5)
    while not table.match.is_over():
        view = table.view()
        assert set(view["clickable"]) == {m.point for m in table.match.legal_moves()}
        assert table.click(rng.choice(view["clickable"])) is not None, table.message
    assert table.view()["result"]


# -- the start and the draws ----------------------------------------------------------------

def test_the_start_is_an_empty_board_and_a_draw_by_player_1():
    s = GAME.initial_state()
    assert s.position.occupied == 0 and GAME.current_player(s) == CHANCE
    assert GAME.legal_moves(s) == []
    assert GAME.chance_outcomes(s) == [(Move(f"={c}"), 1 / 3) for c in "WBR"]
    m = GAME.new_match(seed=2)
    assert m.current_player == 0 and m.state.drawn in (WHITE, BLACK, RED)
    assert len(m.legal_moves()) == 16
    assert {mv.colour for mv in m.legal_moves()} == {m.state.drawn}


def test_draws_follow_the_balls_left_in_the_bag():
    s = state("WWWW/WWWW/W..B/....|.../.../...|../..|.")
    assert bag_left(s.position) == (1, 9, 10)
    assert GAME.chance_outcomes(s) == [(Move("=W"), 1 / 20), (Move("=B"), 9 / 20),
                                       (Move("=R"), 10 / 20)]
    s = state("WWWW/WWWW/WW.B/....|.../.../...|../..|.")
    assert [m.text() for m, _ in GAME.chance_outcomes(s)] == ["=B", "=R"]


def test_any_playable_point_takes_any_colour():
    # Unlike Spalone, a ball goes on any finished platform whatever its colours.
    s = state("..../..../BB../RR..|.../.../...|../..|.", "drawn=W")
    assert "Wb2" in [m.text() for m in GAME.legal_moves(s)]
    assert len(GAME.legal_moves(s)) == 12 + 1


def test_players_alternate_draw_then_place():
    s = GAME.initial_state()
    s = play(s, "=R")
    assert GAME.current_player(s) == 0 and s.drawn == RED
    s = play(s, "Rc3.0")
    assert GAME.current_player(s) == CHANCE and s.to_move == 1
    s = play(s, "=B")
    assert GAME.current_player(s) == 1


# -- the combinations ----------------------------------------------------------------------

def test_there_are_42_lines_of_three_and_12_of_four():
    assert len({m for t in LINES3 for m, _, _ in t}) == 22 + 20
    assert len({m for t in LINES4 for m, _, _ in t}) == 8 + 4


def test_a_straight_is_three_colours_in_a_touching_line():
    assert best("..../..../..../WBR.|.../.../...|../..|.", "e1") == (STRAIGHT, 0)
    assert best("..../..../..../WBR.|.../.../...|../..|.", "a1") == (STRAIGHT, 0)
    assert best("..../..../..../WBB.|.../.../...|../..|.", "e1") is None     # two colours
    # a diagonal of a level does not touch: a1, c3, e5 is no line
    assert best("..../..R./.B../W...|.../.../...|../..|.", "e5.0") is None
    # the ball just placed must be part of it: g1 makes nothing with a1 c1 e1
    assert best("..../..../..../WBRB|.../.../...|../..|.", "g1") is None


def test_three_of_a_kind_flat_and_climbing():
    assert best("..../..../..../BBB.|.../.../...|../..|.", "c1") == (THREE, 0)
    # a1, b2, c3.2 climb the pyramid along its edge: height 2
    climb = "W.../WWW./WWW./WWW.|.../WR./WB.|../W.|."
    assert best(climb, "c3.2") == (THREE, 2)
    # a line that goes up and down again (a1, b2, c3.0) is not straight
    zigzag = "..../..../WW../WB..|.../.../W..|../..|."
    assert best(zigzag, "b2") is None


def test_four_of_a_kind_on_a_board_row_and_on_an_edge():
    assert best("..../..../..../RRRR|.../.../...|../..|.", "e1") == (FOUR, 0)
    assert best("BBBB/BBBB/BBBB/BBBB|BBB/BBB/BBB|BB/BB|B", "d4.3") == (FLUSH, 3)
    ridge = Position(LAST29).place(29, WHITE)     # a1 b2 c3.2 d4.3 all white
    assert best_combination(ridge, 29)[:2] == (FOUR, 3)


def test_full_house_and_straight_flush():
    # b2 rests on a1 c1 a3 c3 = W W B B
    assert best("..../..../BB../WW..|.../.../...|../..|.", "b2") is None
    house = Position("..../..../BB../WW..|.../.../W..|../..|.")
    assert best_combination(house, parse_point("b2"))[:2] == (FULL, 1)
    # the top must have a pair's colour
    assert best("..../..../BB../WW..|.../.../R..|../..|.", "b2") is None
    # two pairs of one colour (four whites) under a black is nothing
    assert best("..../..../WW../WW..|.../.../B..|../..|.", "b2") is None
    # where the pairs lie does not matter (diagonal pairs)
    assert best("..../..../BW../WB..|.../.../B..|../..|.", "b2") == (FULL, 1)
    # three of one colour and one other is nothing
    assert best("..../..../BW../WW..|.../.../W..|../..|.", "b2") is None
    assert best("..../..../WW../WW..|.../.../W..|../..|.", "b2") == (FLUSH, 1)


def test_the_strongest_combination_counts():
    # e1 completes a row of four reds, which holds two threes: only the four counts
    pos = "..../..../..../RRRR|.../.../...|../..|."
    ranks = sorted(c[0] for c in combinations_at(Position(pos), parse_point("e1")))
    assert ranks == [THREE, THREE, FOUR]
    assert best(pos, "e1") == (FOUR, 0)


def test_hidden_balls_and_cut_contacts_do_not_count():
    # a3 c3 e3 black, the level-1 pair b2 b4 crosses the contact a3-c3
    row = "..../..../BBB./....|.../.../...|../..|."
    assert best(row, "e3.0") == (THREE, 0)
    crossed = "WW../WWW./BBB./WW..|.../W../W..|../..|."
    assert best(crossed, "e3.0") is None
    # only one ball over the contact does not cut it
    one = "WW../WWW./BBB./WW..|.../.../W..|../..|."
    assert best(one, "e3.0") == (THREE, 0)


def test_a_hidden_ball_breaks_a_climbing_line():
    # c3.0 white, d4.1 black: a red on e5.2 makes a straight climbing to level 2 ...
    base = Position("RBBW/BWRR/RWWB/BWWR|WBR/WBB/RBW|../..|.")
    e52 = parse_point("e5.2")
    assert best_combination(base.place(e52, RED), e52)[:2] == (STRAIGHT, 2)
    # ... unless a ball on c3.2 already hides c3.0
    covered = base.place(parse_point("c3.2"), WHITE)
    assert covered.hidden() >> parse_point("c3.0") & 1
    assert best_combination(covered.place(e52, RED), e52) is None


# -- an engine-free model of the combinations, from the rules' words ------------------------

def _runs(length):
    """Straight runs of touching balls: equal steps in space between touching balls."""
    runs = set()
    for a in ALL:
        for b in ALL:
            if not touch(a, b):
                continue
            step = tuple(q - p for p, q in zip(centre(a), centre(b)))
            run = [a, b]
            while len(run) < length:
                nxt = tuple(round(p + d, 9) for p, d in zip(centre(run[-1]), step))
                found = [c for c in ALL if tuple(round(v, 9) for v in centre(c)) == nxt]
                if not found or not touch(run[-1], found[0]):
                    break
                run.append(found[0])
            if len(run) == length:
                runs.add(frozenset(run))
    return runs


RUNS3, RUNS4 = _runs(3), _runs(4)


def _cut(board, a, b):
    """A flat contact is cut when both balls resting on the pair are there."""
    if a[0] != b[0]:
        return False
    over = [q for q in ABOVE[a] if q in ABOVE[b]]
    return len(over) == 2 and all(q in board for q in over)


def _ref_best(board, pt):
    """(rank, height) of the strongest combination through ``pt``, or None."""
    seen = set(top_balls(board).values())
    found = []
    for runs, length in ((RUNS3, 3), (RUNS4, 4)):
        for run in runs:
            if pt not in run or not all(q in seen for q in run):
                continue
            if any(_cut(board, a, b) for a in run for b in run if touch(a, b)):
                continue
            colours = {board[q] for q in run}
            height = max(q[0] for q in run)
            if len(colours) == 1:
                found.append((4 if length == 4 else 2, height))
            elif length == 3 and len(colours) == 3:
                found.append((1, height))
    under = below(pt)
    if under and all(q in seen for q in under):
        colours = sorted(board[q] for q in under)
        top = board[pt]
        if colours.count(top) == 4:
            found.append((5, pt[0]))
        elif colours.count(top) == 2 and len(set(colours)) == 2:
            found.append((3, pt[0]))
    return max(found) if found else None


def _ref_game(actions):
    """Replay draws and placements by the rules: (scores, winner or None, over)."""
    board, scores, challenge, mover = {}, [0, 0], None, 0
    for text in actions:
        if text.startswith("="):
            continue
        pt = next(q for q in ALL if cells_of_name(q) == text[1:])
        assert pt in open_points(board)
        board[pt] = text[0]
        made = _ref_best(board, pt)
        if made and made[0] == 5:
            return scores, mover, True
        if challenge:
            answer = made or (0, 0)
            if answer > challenge:
                scores[mover] += 1
            elif answer == challenge:
                scores[0] += 1
                scores[1] += 1
            else:
                scores[1 - mover] += 1
            challenge = None
        elif made:
            challenge = made
        if len(board) == 30:
            if challenge:
                scores[mover] += 1
            winner = None if scores[0] == scores[1] else scores.index(max(scores))
            return scores, winner, True
        mover = 1 - mover
    return scores, None, False


def cells_of_name(pt):
    """The engine-free name of a point: file and rank in the top view, with the level
    where two levels share a square."""
    lv, x, y = pt
    square = "abcdefg"[2 * x + lv] + str(2 * y + lv + 1)
    shared = {("c", "3"), ("e", "3"), ("c", "5"), ("e", "5"), ("d", "4")}
    return f"{square}.{lv}" if (square[0], square[1]) in shared else square


def test_the_engine_lines_match_the_model():
    engine3 = {frozenset(p) for t in LINES3 for m, _, _ in t
               for p in [[q for q in range(30) if m >> q & 1]]}
    assert len(engine3) == len(RUNS3) == 42 and len(RUNS4) == 12


def test_combinations_match_the_model_along_random_games():
    rng = random.Random(11)
    checked = 0
    for _ in range(60):
        s = GAME.initial_state()
        while not GAME.is_terminal(s):
            if GAME.current_player(s) == CHANCE:
                s = GAME.apply(s, GAME.sample_chance(s, rng))
                continue
            move = rng.choice(GAME.legal_moves(s))
            s = GAME.apply(s, move)
            board = cells_of(s.position)
            pt = next(q for q in ALL if cells_of_name(q) == move.text()[1:])
            made = best_combination(s.position, move.point)
            assert (made[:2] if made else None) == _ref_best(board, pt)
            checked += made is not None
    assert checked > 300


def test_whole_games_score_as_the_model_says():
    rng = random.Random(5)
    for seed in range(50):
        m = GAME.new_match(seed=seed)
        while not m.is_over():
            m.push(rng.choice(m.legal_moves()))
        scores, winner, over = _ref_game(m.record().split())
        outcome = m.outcome()
        assert over
        assert outcome.scores == tuple(float(x) for x in scores)
        assert outcome.winners == (() if winner is None else (winner,))


# -- challenges ---------------------------------------------------------------------------

#: 29 balls (9 white, 10 black, 10 red) with a1, b2, c3.2 white: the last ball, white,
#: goes on the apex and makes four of a kind up the edge (height 3).
LAST29 = "WRRW/BRBB/BRRR/WRBB|WWR/BBW/WBR|BW/WR|."
THREE_LOW = "..../..../..../WW..|.../.../...|../..|."     # e1 makes three whites


def _challenged():
    s = place(state(THREE_LOW), "We1")
    assert s.challenge == (THREE, 0) and s.to_move == 1 and s.scores == (0, 0)
    return s


def test_a_combination_challenges_the_opponent():
    s = _challenged()
    assert "Player 2 must beat Player 1's three of a kind (height 0)" in GAME.status_lines(s)[1]
    assert GAME.state_text(s).endswith("2 challenge=three@0")


def test_no_combination_or_a_weaker_one_gives_the_challenger_the_point():
    s = place(_challenged(), "Bg7")
    assert s.scores == (1, 0) and s.challenge is None
    # a1 a3 a5 = W R B: Player 2's white on a7 makes a straight (a3 a5 a7 = R B W),
    # weaker than the three whites a1 c1 e1
    s = place(state("..../B.../R.../WW..|.../.../...|../..|."), "We1")
    assert s.challenge == (THREE, 0)
    weaker = place(s, "Wa7")
    assert best_combination(weaker.position, parse_point("a7"))[:2] == (STRAIGHT, 0)
    assert weaker.scores == (1, 0) and weaker.challenge is None


def test_an_equal_combination_scores_for_both():
    # Player 2 may challenge too: a1 c1 e1 = B B B
    s = state("..../..../..../BB.W|.../.../...|../..|.")
    s = place(s, "Be1")
    assert s.challenge == (THREE, 0) and s.to_move == 0
    s = place(s, "Wg3")            # g1 g3 = W W: nothing, Player 2 scores
    assert s.scores == (0, 1)


def test_equal_rank_and_height_score_both_and_higher_wins():
    # Player 1 opens with three whites on the board (height 0); Player 2 answers with
    # three blacks on the board: a tie, one point each.
    s = state("..../..../BB../WW..|.../.../...|../..|.")
    s = place(s, "We1")
    assert s.challenge == (THREE, 0)
    tie = place(s, "Be3")
    assert tie.scores == (1, 1) and tie.challenge is None
    # a full house (higher rank) wins for the answerer
    s2 = state("..../..../BB../WW..|.../.../...|../..|.")
    s2 = place(s2, "Ra5")          # a5 a3 a1 = R B W: a straight, height 0
    assert s2.challenge == (STRAIGHT, 0)
    won = place(s2, "Wb2")         # b2 over W W B B, white: full house
    assert won.scores == (0, 1)


def test_the_answer_never_opens_a_new_challenge():
    s = state("..../..../BB../WW..|.../.../...|../..|.")
    s = place(place(s, "Ra5"), "Wb2")
    assert s.scores == (0, 1) and s.challenge is None
    # Player 1 now plays a ball making nothing: no point for anyone
    s = place(s, "Rg7")
    assert s.scores == (0, 1) and s.challenge is None


def test_a_higher_combination_of_the_same_rank_wins():
    # three whites climbing to level 2 beat three blacks on the board
    s = state("RWRR/BRW./WRRB/WWWB|.../RB./WBR|../..|.")
    s = place(s, "Bg5")          # g1 g3 g5 = B B B: three of a kind, height 0
    assert s.challenge == (THREE, 0)
    climbed = place(s, "Wc3.2")  # a1 b2 c3.2 = W W W: height 2
    assert best_combination(climbed.position, parse_point("c3.2"))[:2] == (THREE, 2)
    assert climbed.scores == (0, 1)


def test_a_straight_flush_wins_at_once_even_when_answering():
    s = state("..../..../WW../WW..|.../.../...|../..|.")
    s = place(s, "Bg1")
    assert s.challenge is None
    s = place(s, "Re1")
    assert s.challenge == (STRAIGHT, 0)            # c1 e1 g1 = W R B
    s = place(s, "Wb2")
    assert s.result.winners == (0,) and "straight flush" in s.result.reason
    assert GAME.current_player(s) == TERMINAL and GAME.legal_moves(s) == []
    assert GAME.winning_points(s) == sum(1 << parse_point(p) for p in
                                         ("a1", "c1", "a3", "c3.0", "b2"))


def test_the_last_ball_scores_when_nobody_can_answer():
    s = state(LAST29, "score=3-4")
    assert s.to_move == 1 and GAME.chance_outcomes(s) == [(Move("=W"), 1.0)]
    made = best_combination(Position(LAST29).place(29, WHITE), 29)
    assert made[:2] == (FOUR, 3)
    end = place(s, "Wd4")
    assert end.scores == (3, 5) and end.result.winners == (1,)
    assert end.result.reason == "the pyramid is complete: 3 points to 5"


def test_equal_scores_at_the_end_are_a_draw():
    end = place(state(LAST29, "score=4-3"), "Wd4")
    assert end.scores == (4, 4) and end.result.winners == () and end.result.is_draw
    assert "Game over: a draw" in GAME.describe(end)


# -- state text and bad input ------------------------------------------------------------------

def test_state_text_round_trips():
    s = place(_challenged(), "Bg7")
    s = play(s, "=R")
    text = GAME.state_text(s)
    assert text.endswith(" 1 drawn=R score=1-0")
    assert GAME.state_key(GAME.parse_state(text)) == GAME.state_key(s)
    s = _challenged()
    assert GAME.state_key(GAME.parse_state(GAME.state_text(s))) == GAME.state_key(s)


@pytest.mark.parametrize("bad", [
    "..../..../..../WW..|.../.../...|../..|. 2",                      # wrong player
    "..../..../..../WW..|.../.../...|../..|. 1 drawn=X",
    "..../..../..../WW..|.../.../...|../..|. 1 drawn=W drawn=B",
    "..../..../..../WW..|.../.../...|../..|. 1 score=3-0",           # too many points
    "..../..../..../WW..|.../.../...|../..|. 1 challenge=flush@1",
    "..../..../..../WWW.|.../.../...|../..|. 2 challenge=full@0",    # no such height
    "..../..../..../WW..|.../.../...|../..|. 1 challenge=three@0",   # two balls only
    "..../..../..../WW..|.../.../...|../..|. 1 hands=W",
    "..../..../..../....|W../.../...|../..|. 2",                      # floating
    "WWWW/WWWW/WWW./....|.../.../...|../..|. 2",                      # eleven whites
    "WW../WW../WW../WW..|W../W../...|../..|. 1",                      # two flushes
    "..WW/..WW/WW../WW..|.../.../W..|../..|. 2 drawn=R",             # play after a flush
])
def test_bad_states_are_refused(bad):
    with pytest.raises(NotationError):
        GAME.parse_state(bad)


def test_a_flush_read_from_text_is_a_finished_game():
    s = GAME.parse_state("..../..../WW../WW..|.../.../W..|../..|. 2")
    assert s.result.winners == (0,) and GAME.legal_moves(s) == []


def test_illegal_moves_are_refused_and_change_nothing():
    m = GAME.new_match(state=state(THREE_LOW, "drawn=R"))
    before = m.state
    for bad, error in (("Wg1", IllegalMoveError), ("Rb2", IllegalMoveError),
                       ("Ra1", IllegalMoveError), ("=W", IllegalMoveError),
                       ("pass", IllegalMoveError), ("q9", NotationError)):
        with pytest.raises(error):
            m.push(bad)
        assert m.state == before
    m.push("g1")
    assert m.state.position.colour_at(parse_point("g1")) == RED


# -- perft, cross-checked by an engine-free brute force ----------------------------------------
#
# By hand: 3 draws; 3 x 16 holes; x 3 draws; x 15 holes; x 3; x 14 (no platform and
# no straight flush in three balls).

def _brute(board, drawn, depth):
    if depth == 0:
        return 1
    if drawn is None:
        options = [(board, c) for c in "WBR" if list(board.values()).count(c) < 10]
    else:
        options = []
        for pt in open_points(board):
            after = {**board, pt: drawn}
            made = _ref_best(after, pt)
            over = len(after) == 30 or (made is not None and made[0] == 5)
            options.append((after, "end" if over else None))
    if depth == 1:
        return len(options)
    return sum(_brute(b, d, depth - 1) for b, d in options if d != "end")


PERFT = [3, 48, 144, 2160, 6480, 90720]


def test_perft_from_the_start():
    assert [perft(GAME, d) for d in range(1, 7)] == PERFT
    assert PERFT == [3, 48, 144, 2160, 6480, 6480 * 14]
    assert [_brute({}, None, d) for d in range(1, 5)] == PERFT[:4]


@pytest.mark.parametrize("seed,steps,depths", [(1, 12, (1, 2, 3)), (2, 17, (1, 2, 3)),
                                               (3, 22, (1, 2, 3, 4)), (4, 25, (1, 2, 3, 4)),
                                               (7, 27, (1, 2, 3, 4))])
def test_perft_from_random_positions_matches_the_brute_force(seed, steps, depths):
    s = walk(seed, steps)
    drawn = None if s.drawn == 0 else ".WBR"[s.drawn]
    board = cells_of(s.position)
    assert [perft(GAME, d, s) for d in depths] == [_brute(board, drawn, d) for d in depths]


def test_perft_counts_a_straight_flush_as_an_end():
    s = state("..../..../WW../WW..|.../.../...|../..|.", "drawn=W")
    # 12 holes + b2; b2 ends the game, so depth 2 counts draws after 12 moves only
    assert perft(GAME, 1, s) == 13
    assert perft(GAME, 2, s) == _brute(cells_of(s.position), "W", 2) == 12 * 3


def test_the_fast_playout_agrees_from_the_middle_of_a_turn():
    """check_playouts starts between turns (after an even number of actions); a
    playout may also start with a ball drawn and not yet placed."""
    for seed in range(150):
        start = GAME.initial_state()
        walk = random.Random(-seed)
        for _ in range(seed % 9 * 2 + 1):
            if GAME.is_terminal(start):
                break
            start = GAME.random_step(start, walk)
        fast = GAME.random_playout(start, random.Random(seed))
        slow = Game.random_playout(GAME, start, random.Random(seed))
        assert fast == slow, seed
