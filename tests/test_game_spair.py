"""Spair: two sets, a ball on each per turn, colours passed on; a line on B wins for
Player 1, on A for Player 2."""
import itertools
import random
from functools import lru_cache

import pytest

from conformance import (check_playouts, check_random_games, check_symmetries, moves_reached_by_clicks,
                        random_walk)
from reference import cells_of, open_points
from shibumi import IllegalMoveError, NotationError, load
from shibumi.analysis import perft
from shibumi.interaction import Table
from shibumi.notation import parse_point
from shibumi.position import BLACK, RED, WHITE, Position

GAME = load("spair")
EMPTY = "..../..../..../....|.../.../...|../..|."


def state(a, to_move, b, last, owe):
    return GAME.parse_state(f"{a} {to_move} B={b} last={last} owe={owe}")


def play(moves, start=None):
    match = GAME.new_match(state=start)
    for move in moves.split():
        match.push(move)
    return match


# -- conformance -----------------------------------------------------------------------

def test_declaration():
    assert GAME.info.boards == 2 and GAME.info.max_length == 57
    assert GAME.player_names == ("Player 1", "Player 2")


def test_random_games():
    check_random_games("spair", seeds=range(25))


def test_symmetries():
    for seed in range(6):
        s = random_walk(GAME, seed, 2 * seed + 3)
        for image in check_symmetries(GAME, s):
            assert image.position is image.boards[s.on]


# -- the turn: set A, then set B --------------------------------------------------------

def test_a_turn_is_a_ball_on_set_a_then_on_set_b():
    m = GAME.new_match()
    assert m.state.on == 0 and len(m.legal_moves()) == 48      # any colour, any hole
    m.push("Wa1")
    assert m.current_player == 0 and m.state.on == 1
    assert m.state.position is m.state.boards[1]
    # the second ball differs in colour, and a1 is free on set B
    assert {mv.colour for mv in m.legal_moves()} == {BLACK, RED}
    assert len(m.legal_moves()) == 32
    with pytest.raises(IllegalMoveError):
        m.push("Wa1")
    m.push("Ba1")
    assert m.current_player == 1 and m.state.on == 0
    assert [b.count() for b in m.state.boards] == [1, 1]
    assert GAME.length(m.state) == 2


def test_first_turn_allows_the_six_pairs_of_two_colours():
    pairs = set()
    for first in GAME.legal_moves(GAME.initial_state()):
        after = GAME.apply(GAME.initial_state(), first)
        pairs |= {(first.colour, mv.colour) for mv in GAME.legal_moves(after)}
    assert pairs == {(a, b) for a in (WHITE, BLACK, RED) for b in (WHITE, BLACK, RED) if a != b}


@pytest.mark.parametrize("on_a, on_b", [("B", "R"), ("R", "W")])
def test_two_choices_on_set_a_then_set_b_is_forced(on_a, on_b):
    # Player 1 used white on A, black on B, left red out.  Player 2 may not repeat
    # white on A (rule 1) and must use red somewhere (rule 2).
    m = play("Wa1 Bg7")
    assert sorted({mv.colour for mv in m.legal_moves()}) == [BLACK, RED]
    m.push(on_a + "c1")
    assert {mv.text()[0] for mv in m.legal_moves()} == {on_b}


def test_the_swap_is_forbidden_by_rule_two_only():
    # Black on A, white on B would satisfy rule 1 but leaves the owed red out.
    m = play("Wa1 Bg7 Bc1")
    with pytest.raises(IllegalMoveError):
        m.push("Wc1")
    assert "red is owed" in GAME.status_lines(m.state)[0]


def test_each_turn_turns_the_colours_one_step_round_the_cycle():
    for seed in range(20):
        rng = random.Random(seed)
        m = GAME.new_match()
        turns = []
        while not m.is_over():
            a = m.push(rng.choice(m.legal_moves()))
            if m.is_over():
                break
            b = m.push(rng.choice(m.legal_moves()))
            turns.append((a.colour, b.colour, 6 - a.colour - b.colour))
        for before, after in zip(turns, turns[1:]):
            shifts = {i for i in (1, 2) if after == before[i:] + before[:i]}
            assert len(shifts) == 1, (before, after)


# -- the end ---------------------------------------------------------------------------

# Set A with three reds on the diagonal a1-c3-e5 (e5, g7 open): a red on g7 finishes it.
DIAG_A = "..B./..R./.RW./R.WB|.../.../...|../..|."
DIAG_B = "W.../.B../B.W./R.RW|.../.../...|../..|."


def test_the_lost_example_a_red_diagonal_on_set_a_wins_for_player_2():
    # Player 1 to move: Player 2 used black on A and white on B, so red is owed.
    s = state(DIAG_A, 1, DIAG_B, "BW", "R")
    m = GAME.new_match(state=s)
    m.push("Rg7")                  # Player 1 places the decisive ball...
    assert m.outcome().winners == (1,)          # ...and Player 2 wins
    assert "set A" in m.outcome().reason
    assert m.state.position is m.state.boards[0]
    assert GAME.winning_points(m.state) == sum(1 << parse_point(p)
                                               for p in ("a1", "c3.0", "e5.0", "g7"))
    assert m.legal_moves() == [] and m.state.boards[1].count() == 7


def test_a_line_on_set_b_wins_for_player_1_whoever_places_it():
    b = "...W/..W./.W../..R.|.../.../...|../..|."     # white c3 e5 g7 on B
    a = "R.../.R../..B./W..B|.../.../...|../..|."
    # Player 2 is to place on B (set A has one more ball); white is allowed.
    s = state(a, 2, b, "BR", "-")
    assert s.on == 1 and {mv.colour for mv in GAME.legal_moves(s)} == {WHITE}
    m = GAME.new_match(state=s)
    m.push("Wa1")
    assert m.outcome().winners == (0,)
    assert m.state.position is m.state.boards[1]


def test_a_line_on_a_ends_the_game_before_the_ball_on_b():
    s = state(DIAG_A, 1, DIAG_B, "BW", "R")
    after = GAME.apply(s, GAME.legal_moves(s)[[m.text() for m in GAME.legal_moves(s)]
                                              .index("Rg7")])
    assert after.result is not None and GAME.legal_moves(after) == []


@pytest.mark.parametrize("colour", "WBR")
def test_any_single_colour_makes_a_line_and_mixed_lines_do_not(colour):
    board = Position(f"..../..../..../{colour}{colour}{colour}.|.../.../...|../..|.")
    from shibumi.games.spair import lines_of_one_colour
    assert lines_of_one_colour(board.place(parse_point("g1"), "WBR".index(colour) + 1))
    other = "W" if colour != "W" else "B"
    assert not lines_of_one_colour(board.place(parse_point("g1"), "WBR".index(other) + 1))


def test_hidden_balls_still_count():
    # Some random games are won by a line with a ball hidden under level 2 (or the apex).
    hidden_wins = 0
    for seed in range(300):
        final = GAME.random_playout(GAME.initial_state(), random.Random(seed))
        if GAME.winning_points(final) & final.position.hidden():
            hidden_wins += 1
    assert hidden_wins


def test_no_draw_a_full_level_two_always_holds_a_line():
    from shibumi.games.spair import lines_of_one_colour
    base = "WBRW/BRWB/RWBR/WBRW|RBW/WBR/BRW|"
    for colours in itertools.product("WBR", repeat=4):
        level2 = f"{colours[0]}{colours[1]}/{colours[2]}{colours[3]}"
        assert lines_of_one_colour(Position(f"{base}{level2}|."))


def test_games_end_with_a_line_within_57_actions():
    lengths = []
    for seed in range(200):
        final = GAME.random_playout(GAME.initial_state(), random.Random(seed))
        assert final.result is not None and len(final.result.winners) == 1
        assert GAME.winning_points(final)
        lengths.append(GAME.length(final))
    assert max(lengths) <= 57


# -- text and bad input ------------------------------------------------------------------

def test_state_text_round_trips_and_names_set_a_first():
    m = play("Wa1 Bg7 Rc1")
    text = GAME.state_text(m.state)
    assert text == ("..../..../..../WR..|.../.../...|../..|. 2 "
                    "B=...B/..../..../....|.../.../...|../..|. last=RB owe=-")
    assert GAME.state_key(GAME.parse_state(text)) == GAME.state_key(m.state)
    assert GAME.state_text(GAME.initial_state()).endswith(" 1 B=" + EMPTY + " last=-- owe=-")


@pytest.mark.parametrize("bad", [
    f"{EMPTY} 1",                                               # fields missing
    f"{EMPTY} 1 B={EMPTY} last=-- owe=- x=1",                   # unknown field
    f"{EMPTY} 1 B={EMPTY} last=W- owe=-",                       # colour of an empty set
    f"{EMPTY} 1 B=W.../..../..../....|.../.../...|../..|. last=-W owe=-",   # B ahead of A
    "W.../..../..../....|.../.../...|../..|. 1 B=B.../..../..../....|.../.../...|../..|. "
    "last=WB owe=-",                                            # red is owed
    "W.../..../..../....|.../.../...|../..|. 1 B=B.../..../..../....|.../.../...|../..|. "
    "last=WB owe=W",
    "W.../..../..../....|.../.../...|../..|. 1 B=B.../..../..../....|.../.../...|../..|. "
    "last=WBR owe=R",
    # set A shows a line: the game ended before set B's ball
    f"{DIAG_A.replace('..B./', '..BR/')} 1 B={DIAG_B.replace('W...', 'W..W')} last=RW owe=B",
])
def test_bad_state_text_is_refused(bad):
    with pytest.raises(NotationError):
        GAME.parse_state(bad)


def test_a_finished_state_from_text_is_settled():
    s = state("..BR/..R./.RW./R.WB|.../.../...|../..|.", 1, DIAG_B, "RW", "-")
    assert s.result.winners == (1,) and s.position is s.boards[0]


def test_illegal_moves_leave_the_state_unchanged():
    m = play("Wa1")
    before = m.state
    for bad in ("Wc1", "Ra1.1", "xa1", "pass", "a1>c1"):
        with pytest.raises((IllegalMoveError, NotationError)):
            m.push(bad)
    assert m.state is before


# -- playing by clicks ---------------------------------------------------------------------

def test_every_legal_move_is_reachable_by_clicks():
    t = Table("spair", seats="human", seed=1)
    for step in range(5):
        legal = t.match.legal_moves()
        shown = t.match.state.position
        view = t.view()
        assert {b["point"] for b in view["balls"]} == {p for p in range(30)
                                                         if shown.colour_at(p)}
        assert moves_reached_by_clicks(t) == set(legal)
        t.choose(legal[(7 * step) % len(legal)])


# -- perft against an engine-free brute force ---------------------------------------------

LINE_SETS = []
for _lv in range(3):
    _n = 4 - _lv
    _rows = [[(_lv, x, y) for x in range(_n)] for y in range(_n)]
    _cols = [[(_lv, x, y) for y in range(_n)] for x in range(_n)]
    _diags = [[(_lv, i, i) for i in range(_n)], [(_lv, i, _n - 1 - i) for i in range(_n)]]
    LINE_SETS += _rows + _cols + _diags


def _one_colour_line(board) -> bool:
    return any(all(p in board for p in line) and len({board[p] for p in line}) == 1
               for line in LINE_SETS)


def _pair_ok(x, y, previous) -> bool:
    """The rules as written: two different colours; neither repeats the opponent's
    ball on the same set; one of them is the colour the opponent left out."""
    if x == y:
        return False
    if previous is None:
        return True
    px, py = previous
    left_out = ({"W", "B", "R"} - {px, py}).pop()
    return x != px and y != py and left_out in (x, y)


def _key(board):
    return tuple(sorted(board.items()))


@lru_cache(maxsize=None)
def _brute(a, b, previous, first, depth):
    """Leaves below a node; a and b are sorted item tuples; first is this turn's colour
    on A (None before it is placed); previous the opponent's (A, B) colours."""
    if depth == 0:
        return 1
    on_a = first is None
    board = dict(a if on_a else b)
    total = 0
    for pt in open_points(board):
        for colour in "WBR":
            if on_a:
                if not any(_pair_ok(colour, y, previous) for y in "WBR"):
                    continue
            elif not _pair_ok(first, colour, previous):
                continue
            new = dict(board)
            new[pt] = colour
            if depth == 1:
                total += 1
            elif _one_colour_line(new):
                continue
            elif on_a:
                total += _brute(_key(new), b, previous, colour, depth - 1)
            else:
                total += _brute(a, _key(new), (first, colour), None, depth - 1)
    return total


def _brute_from(s, depth):
    a, b = (_key(cells_of(board)) for board in s.boards)
    letter = {WHITE: "W", BLACK: "B", RED: "R"}
    if s.on == 0:
        previous = None if s.last_a is None else (letter[s.last_a], letter[s.last_b])
        return _brute(a, b, previous, None, depth)
    # On set B the opponent's set-A colour is gone from the state; rebuild it from owe.
    first = letter[s.last_a]
    if s.last_b is None:
        previous = None
    elif s.owe is None:                   # the owed colour went on A: it was the third
        previous = next((pa, letter[s.last_b]) for pa in "WBR"
                        if pa != letter[s.last_b] and pa != first)
    else:                                 # A repeated the opponent's B colour
        previous = next((pa, letter[s.last_b]) for pa in "WBR"
                        if pa not in (letter[s.last_b], letter[s.owe]))
    return _brute(a, b, previous, first, depth)


GOLDEN_START = {1: 48, 2: 1536, 3: 46080, 4: 691200}


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_perft_from_the_start(depth):
    assert perft(GAME, depth) == GOLDEN_START[depth]
    if depth <= 3:
        assert _brute_from(GAME.initial_state(), depth) == GOLDEN_START[depth]


#: (seed, random actions from the start): perft to depths 3 and 4.
GOLDEN_RANDOM = {(11, 12): (4004, 40404), (3, 17): (936, 11808), (4, 25): (297, 3036),
                 (6, 38): (720, 3600), (9, 44): (240, 840)}


@pytest.mark.parametrize("seed, steps", sorted(GOLDEN_RANDOM))
def test_perft_from_random_positions(seed, steps):
    s = random_walk(GAME, seed, steps)
    assert s.result is None and GAME.length(s) == steps
    three, four = GOLDEN_RANDOM[(seed, steps)]
    assert perft(GAME, 3, s) == _brute_from(s, 3) == three
    assert perft(GAME, 4, s) == four
    if steps > 20:                        # lines cut the tree here: worth the brute force
        assert _brute_from(s, 4) == four


def test_the_example_position_perft():
    s = state(DIAG_A, 1, DIAG_B, "BW", "R")
    assert perft(GAME, 2, s) == _brute_from(s, 2)


def test_the_fast_playout_plays_the_rules_games():
    check_playouts("spair", games=400)


def test_makes_line_is_a_line_of_one_colour_through_the_ball():
    """The mask test of apply and the playout agrees with the plain rule
    (lines_of_one_colour over the lines through the ball) on random sets."""
    from shibumi.games.spair import lines_of_one_colour, makes_line
    from shibumi.geometry import LINES_THROUGH
    rng = random.Random(5)
    for _ in range(300):
        state = GAME.initial_state()
        for _ in range(rng.randrange(57)):
            if GAME.is_terminal(state):
                break
            state = GAME.random_step(state, rng)
        for board in state.boards:
            for p in range(30):
                colour = board.colour_at(p)
                if colour:
                    plain = bool(lines_of_one_colour(board, LINES_THROUGH[p]))
                    assert makes_line(board.mask(colour), p) == plain
