"""The rules of Spinimax, pinned down by positions."""
import itertools
import random
from collections import Counter

import pytest

import shibumi.games.spinimax  # noqa: F401  (registers the game)
from conformance import check_playouts
from shibumi import IllegalMoveError, NotationError, load
from shibumi.analysis import perft
from shibumi.geometry import APEX, BOARD_MASK, NUM_POINTS, SUPPORT_MASK
from shibumi.games.spinimax import settle_stacks, stacked_colour, top_platforms
from shibumi.notation import Move, parse_point, point_name
from shibumi.position import BLACK, RED, WHITE, Position

EMPTY_UPPER = "|.../.../...|../..|."


def match(text):
    game = load("spinimax")
    return game.new_match(state=game.parse_state(text))


def colour(m, name):
    return m.state.position.colour_at(parse_point(name))


# -- placement --------------------------------------------------------------------

def test_players_take_turns_on_empty_holes_only():
    m = load("spinimax").new_match()
    for player, col in enumerate("WBR"):
        assert m.current_player == player
        legal = m.legal_moves()
        assert all(mv.text()[0] == col for mv in legal)
        assert all(BOARD_MASK >> mv.point & 1 for mv in legal)
        m.push(legal[0])
    assert m.current_player == 0
    assert len(m.legal_moves()) == 13
    # Platform a1 c1 a3 c3 finished: its top is filled at once, never by hand.
    m = match("..../..../WB../RW..|.../.../W..|../..|. 2")
    with pytest.raises(IllegalMoveError):
        m.push("b2")
    with pytest.raises(IllegalMoveError):
        m.push("Wc5")                     # Black to move: only black balls


@pytest.mark.parametrize("counts, expected", [
    ((2, 2, 0), RED), ((0, 2, 2), WHITE), ((2, 0, 2), BLACK),     # two and two: the third
    ((3, 1, 0), RED), ((0, 1, 3), WHITE), ((1, 0, 3), BLACK),     # three and one: the missing
    ((2, 1, 1), WHITE), ((1, 2, 1), BLACK), ((1, 1, 2), RED),     # all present: the pair
    ((4, 0, 0), WHITE), ((0, 4, 0), BLACK), ((0, 0, 4), RED),     # one colour: itself
])
def test_minority_else_majority(counts, expected):
    assert stacked_colour(*counts) == expected


@pytest.mark.parametrize("square, top", [
    ("WB/BW", RED),     # minority: red is absent, white and black tie for the most
    ("WW/WR", BLACK),   # minority: black is absent (three and one)
    ("WR/BW", WHITE),   # majority: black and red tie for the fewest
    ("RR/RR", RED),     # majority: white and black tie at zero
])
def test_a_finished_platform_is_topped_at_once(square, top):
    # Three of the square's holes are filled; the mover fills the fourth.
    rows = square.split("/")
    cells = {"a3": rows[0][0], "c3": rows[0][1], "a1": rows[1][0], "c1": rows[1][1]}
    player = {"W": 1, "B": 2, "R": 3}[cells["c1"]]
    board = f"..../..../{cells['a3']}{cells['c3']}../{cells['a1']}..."
    m = match(board + EMPTY_UPPER + f" {player}")
    m.push(cells["c1"] + "c1")
    assert colour(m, "b2") == top
    assert m.state.position.count() == 5
    assert m.game.length(m.state) == 4


def test_stacking_cascades_up_to_the_apex():
    # A last-move position from the book's author (see the rules notes).  The hidden
    # board balls c5 and e5, drawn arbitrarily in the copy, are set to the colours that
    # make every visible stacked ball follow the rule.  Black fills c1, the last hole.
    before = "BRRR/WBRB/BWBW/W.WR|BWW/RBB/..W|BR/..|. 2"
    m = match(before)
    m.push("c1")
    assert colour(m, "b2") == RED      # a1 c1 a3 c3 = W B B W: red missing
    assert colour(m, "d2") == RED      # c1 e1 c3 e3 = B W W B: red missing
    assert colour(m, "e3.2") == BLACK  # d2 f2 d4 f4 = R W B B: black has two
    assert colour(m, "c3.2") == WHITE  # b2 d2 b4 d4 = R R R B: white missing (the copy shows red)
    assert colour(m, "d4.3") == BLACK  # c3 e3 c5 e5 (level 2) = W B B R: black has two
    assert m.state.position.count() == NUM_POINTS
    assert m.outcome().winners == (1,)


def test_chain_reported_lowest_first():
    game = load("spinimax")
    pos = game.parse_state("BRRR/WBRB/BWBW/W.WR|BWW/RBB/..W|BR/..|. 2").position
    chain = game.stacks_after(pos, parse_point("c1"), BLACK)
    names = [(point_name(p), c) for p, c in chain]
    assert names == [("b2", RED), ("d2", RED), ("c3.2", WHITE), ("e3.2", BLACK),
                     ("d4.3", BLACK)]


def test_unsettled_positions_are_rejected():
    game = load("spinimax")
    with pytest.raises(NotationError):     # a finished platform with nothing on it
        game.parse_state("..../..../WB../RW.." + EMPTY_UPPER + " 2")
    with pytest.raises(NotationError):     # topped with the wrong colour (should be red)
        game.parse_state("..../..../WB../BW..|.../.../W..|../..|. 2")
    assert game.parse_state("..../..../WB../BW..|.../.../R..|../..|. 2").result is None


# -- the end ---------------------------------------------------------------------

def test_every_game_lasts_exactly_sixteen_moves():
    game = load("spinimax")
    moves_by = Counter()
    for seed in range(500):
        rng = random.Random(seed)
        state = game.initial_state()
        moves = 0
        while state.result is None:
            assert state.position.colour_at(APEX) == 0
            assert moves < 16
            state = game.apply(state, rng.choice(game.legal_moves(state)))
            moves += 1
        assert moves == 16 and game.length(state) == 16
        pos = state.position
        assert pos.count() == NUM_POINTS
        assert pos.count(WHITE) + pos.count(BLACK) + pos.count(RED) == 30
        # Every upper ball is the one its platform calls for.
        masks = [0, pos.white, pos.black, pos.red]
        for q in range(16, NUM_POINTS):
            counts = [(masks[c] & SUPPORT_MASK[q]).bit_count() for c in (WHITE, BLACK, RED)]
            assert pos.colour_at(q) == stacked_colour(*counts)
        winner = state.result.winners
        assert winner == ((WHITE, BLACK, RED).index(pos.colour_at(APEX)),)
        moves_by[winner] += 1
    assert set(moves_by) == {(0,), (1,), (2,)}


# -- independent check -------------------------------------------------------------

def _apex_from_board(board):
    """Apex colour of the full pyramid over a full board, computed level by level.

    Independent of the engine: a dict of (x, y) -> colour letter per level, and the
    rule applied to sorted counts of the letters 'W', 'B', 'R'.
    """
    level = board
    for size in (3, 2, 1):
        upper = {}
        for x in range(size):
            for y in range(size):
                four = [level[(x + dx, y + dy)] for dx in (0, 1) for dy in (0, 1)]
                counts = sorted(((four.count(c), c) for c in "WBR"))
                if counts[0][0] < counts[1][0]:
                    upper[(x, y)] = counts[0][1]
                else:
                    upper[(x, y)] = counts[2][1]
        level = upper
    return level[(0, 0)]


def test_winner_counts_agree_with_an_independent_count():
    # From a position with six holes left, every order of play (6! = 720 games) is
    # played through the engine and the winners tallied; the same tally comes from
    # filling the board directly and working out the apex level by level.
    text = "W.B./RW.B/..RW/BR.W" + "|.../.../...|../..|. 2"
    game = load("spinimax")
    start = game.parse_state(text)
    holes = [p for p in range(16) if not start.position.occupied >> p & 1]
    assert len(holes) == 6
    engine, direct = Counter(), Counter()
    for order in itertools.permutations(holes):
        state = start
        for p in order:
            state = game.apply(state, Move.place(p, (WHITE, BLACK, RED)[state.to_move]))
        engine[state.result.winners[0]] += 1
        board = {}
        for p in range(16):
            c = start.position.colour_at(p)
            board[(p % 4, p // 4)] = ".WBR"[c]
        for i, p in enumerate(order):
            board[(p % 4, p // 4)] = "BRW"[i % 3]      # Black moves first here
        direct["WBR".index(_apex_from_board(board))] += 1
    assert engine == direct
    assert sum(engine.values()) == 720
    assert perft(game, 6, start) == 720


def test_perft_from_the_start():
    # Every move fills one of the empty holes, whatever the stackings: 16, 16x15, ...
    game = load("spinimax")
    assert [perft(game, d) for d in range(1, 6)] == [16, 240, 3360, 43680, 524160]


def test_position_text_round_trip_of_a_finished_game():
    game = load("spinimax")
    final = game.random_playout(game.initial_state(), random.Random(1))
    again = game.parse_state(game.state_text(final))
    assert again.result == final.result
    assert isinstance(again.position, Position)


# -- the ball supply ---------------------------------------------------------------

# Before the last move of the random playout with seed 663898: White to fill
# c1, the last hole, with 14 white balls on the pyramid already.
OVERFLOW = "WBBR/WRRB/WBRB/R.WW|WWW/WWW/..W|WW/..|. 1"


def test_automatic_stackings_may_need_more_than_sixteen_balls_of_a_colour():
    # The stacking rule alone decides the colour of an upper ball, and it is
    # kept even when a set would run out. White's c1 finishes the platforms
    # under b2 and d2 (two white, one black, one red each: white), which
    # finish c3.2 and e3.2 (four white each: white), which finish the apex.
    m = match(OVERFLOW)
    pos = m.state.position
    assert [pos.count(c) for c in (WHITE, BLACK, RED)] == [14, 5, 5]
    assert (pos.occupied & BOARD_MASK).bit_count() == 15
    m.push("c1")
    pos = m.state.position
    assert [pos.count(c) for c in (WHITE, BLACK, RED)] == [20, 5, 5]
    assert pos.count(WHITE) > 16                       # more than a set holds
    assert (pos.white & BOARD_MASK).bit_count() == 6   # White placed only six by hand
    assert pos == Position("WBBR/WRRB/WBRB/RWWW|WWW/WWW/WWW|WW/WW|W")
    assert m.outcome().winners == (0,)
    # The random playout with that seed ends in the same position.
    game = load("spinimax")
    final = game.random_playout(game.initial_state(), random.Random(663898))
    assert final.position == pos


def test_overflow_is_rare_in_random_play():
    # The rules notes give the rate over 100,000 random games (79 of them,
    # about 0.08%); a smaller sample here finds it in the same range.
    game = load("spinimax")
    over = 0
    for seed in range(20000):
        final = game.random_playout(game.initial_state(), random.Random(seed))
        if max(final.position.count(c) for c in (WHITE, BLACK, RED)) > 16:
            over += 1
    assert 0 < over < 60


def test_the_fast_playout_plays_the_rules_games():
    check_playouts("spinimax", games=1000)


def test_topping_all_platforms_at_once_matches_stacking_ball_by_ball():
    # Random boards filled hole by hole with settle_stacks after each ball, from
    # part-filled boards too: top_platforms on the balls placed by hand alone
    # gives the same pyramid.
    rng = random.Random(2)
    for _ in range(500):
        masks = [0, 0, 0, 0]
        holes = rng.sample(range(16), rng.randrange(17))
        for p in holes:
            masks[rng.choice((WHITE, BLACK, RED))] |= 1 << p
            settle_stacks(masks, p)
            board = [m & BOARD_MASK for m in masks]
            assert top_platforms(board[WHITE], board[BLACK], board[RED]) == \
                (masks[WHITE], masks[BLACK], masks[RED])
            # and from the settled masks nothing more is topped
            assert top_platforms(masks[WHITE], masks[BLACK], masks[RED]) == \
                (masks[WHITE], masks[BLACK], masks[RED])
