"""Spin: a colour-flipping solitaire on the board alone, from graded hands."""

import itertools
import random

import pytest
from hypothesis import given, strategies as st

from conformance import (check_playouts, check_random_games,
                         check_symmetries, random_walk)
from reference import ALL as _ALL, cells_of, touch as _touch
from shibumi import IllegalMoveError, NotationError, UnknownGameError, load
from shibumi.analysis import perft
from shibumi.games.spin import (HANDS, SpinOutcome, SpinState, analyse, fewest_flips,
                                flips_needed, parse_hand, solution_moves, solve, targets)
from shibumi.geometry import BOARD_MASK
from shibumi.notation import Move, parse_point
from shibumi.position import BLACK, RED, WHITE, Position

EMPTY_BOARD = "..../..../..../....|.../.../...|../..|."


def game(**params):
    return load("spin", **params)


def moves_of(match):
    return sorted(m.text() for m in match.legal_moves())


def board_row(state, row=1):
    """One rank of the board, a-g, as letters (rank 1 by default)."""
    return state.position.text().split("|")[0].split("/")[4 - row]


# -- conformance ------------------------------------------------------------------

def test_conformance():
    for level in (1, 2, 3, 4):
        check_random_games("spin", level=level)
    check_random_games("spin", seeds=range(10), hand="W6 B6 R4")
    check_playouts("spin", games=200, level=4)


@pytest.mark.parametrize("params", [{"level": 1}, {"level": 2}, {"level": 3},
                                    {"hand": "W6 B6 R4"}])
def test_fast_playouts_agree_with_the_rules_for_every_hand(params):
    check_playouts("spin", games=150, **params)


def test_board_tables_agree_with_the_point_by_point_packing():
    # The playout packs and unpacks boards by byte tables; compare them with
    # board_of and position_of, which go hole by hole.
    from shibumi.games.spin import _board_of_masks, _masks_of_board, board_of, position_of
    rng = random.Random(6)
    for _ in range(500):
        colours = [rng.randrange(4) for _ in range(16)]
        masks = [sum(1 << p for p, c in enumerate(colours) if c == k) for k in (1, 2, 3)]
        pos = Position.from_masks(*masks)
        board = board_of(pos)
        assert _board_of_masks(*masks) == board
        assert _masks_of_board(board) == tuple(masks)
        assert position_of(board) == pos


# -- hands and levels ---------------------------------------------------------------

def test_the_four_levels_and_custom_hands():
    assert HANDS == {1: (2, 1, 1), 2: (3, 3, 0), 3: (5, 2, 0), 4: (15, 1, 0)}
    assert game().hand == (3, 3, 0)                      # the default is "easy"
    assert [game(level=k).hand for k in (1, 2, 3, 4)] == list(HANDS.values())
    assert game(hand="W4 B4 R1").hand == (4, 4, 1)
    assert load('spin(hand="r2 w1")').hand == (1, 0, 2)
    assert all(sum(h) <= 16 for h in HANDS.values())
    assert parse_hand("W2, B1, R1") == (2, 1, 1)
    for bad in (dict(level=0), dict(level=5), dict(hand="X3"), dict(hand="W17"),
                dict(hand="W9 B9"), dict(hand="W2 W1"), dict(hand="W"), dict(level="2")):
        with pytest.raises(UnknownGameError):
            game(**bad)


def test_the_start_is_an_empty_board_and_the_whole_hand():
    s = game().initial_state()
    assert s.position.occupied == 0 and s.stock == (3, 3, 0) and s.pending == -1
    moves = game().legal_moves(s)
    assert len(moves) == 2 * 16                          # white or black, any hole
    assert {m.colour for m in moves} == {WHITE, BLACK}    # no red in this hand
    assert all(BOARD_MASK >> m.point & 1 for m in moves)
    assert game(level=1).legal_moves(game(level=1).initial_state())[0].text() == "Wa1"


# -- the rules -----------------------------------------------------------------------

def test_a_lone_ball_or_a_ball_beside_its_own_colour_stays():
    m = game().new_match()
    m.push("Wa1")
    m.push("Wc1")
    assert board_row(m.state) == "WW.." and m.state.stock == (1, 3, 0)


def test_diagonal_neighbours_do_not_touch():
    m = game().new_match()
    m.push("Wa1")
    m.push("Bc3")                                        # diagonal to a1
    assert m.state.position.colour_at(parse_point("a1")) == WHITE
    assert m.state.position.colour_at(parse_point("c3.0")) == BLACK


def test_one_mismatch_turns_both_balls_into_the_third_colour_from_the_reserve():
    m = game().new_match()
    m.push("Wa1")
    m.push("Bc1")
    assert board_row(m.state) == "RR.."                   # white + black -> two reds
    assert m.state.stock == (2, 2, 0)                     # the reds come from the reserve
    assert m.state.pending == -1 and m.current_player == 0
    assert len(m.history) == 2                            # one action: nothing to choose


def test_the_rule_book_example_the_player_picks_the_pair():
    # A black ball placed between a red and a white (and, above, another white)
    # mismatches three balls; the player chooses black/white, both turn red, and
    # the turn ends although the new red c1 now touches the white c3.
    m = game(level=1).new_match()                          # W2 B1 R1
    for text in ("Ra1", "We1", "Wc3"):
        m.push(text)
    m.push("Bc1")
    assert m.state.pending == parse_point("c1")
    assert moves_of(m) == ["Rc3.0", "Re1", "Wa1"]         # the partner's new colour and hole
    assert game(level=1).describe(m.state).endswith(
        "Choose the ball that changes with c1 (Re1, Wa1, Rc3.0).")
    with pytest.raises(IllegalMoveError):
        m.push("Bg1")                                      # no placement before choosing
    m.push("e1")                                           # the black/white pair on e1
    assert board_row(m.state) == "RRR."
    assert m.state.position.colour_at(parse_point("c3.0")) == WHITE
    assert m.state.pending == -1 and m.state.stock == (0, 0, 0)
    assert m.outcome().winners == () and m.outcome().reason == \
        "not solved: the board ends with 1 white, 3 red"


def test_two_mismatches_of_one_colour_are_still_a_choice():
    m = game().new_match()
    m.push("Wa1")
    m.push("We1")
    m.push("Bc1")
    assert moves_of(m) == ["Ra1", "Re1"]
    m.push("a1")
    assert board_row(m.state) == "RRW."


def test_illegal_actions_are_refused_and_change_nothing():
    m = game().new_match()
    m.push("Wa1")
    before = m.state
    for bad, error in (("Wa1", IllegalMoveError), ("Rc1", IllegalMoveError),
                       ("Wb2", IllegalMoveError), ("xa1", IllegalMoveError),
                       ("pass", IllegalMoveError), ("c1", NotationError),
                       ("zz", NotationError)):
        with pytest.raises(error):
            m.push(bad)
        assert m.state == before
    with pytest.raises(IllegalMoveError):
        m.push(Move("Wb2"))                                 # no stacking
    assert m.state == before


def test_nothing_is_ever_stacked():
    g = game(level=4)
    rng = random.Random(5)
    for _ in range(200):
        s = g.initial_state()
        while not g.is_terminal(s):
            moves = g.legal_moves(s)
            assert all(m.point < 16 for m in moves)
            s = g.apply(s, rng.choice(moves))
        assert s.position.occupied == BOARD_MASK            # a 16-ball hand fills the board


def test_the_end_solved_or_not():
    m = game(level=1).new_match()
    for text in ("Ba1", "Rc1", "Wa3", "We1"):
        m.push(text)
    outcome = m.outcome()
    assert isinstance(outcome, SpinOutcome)
    assert outcome.winners == (0,) and outcome.reason == "solved: all 4 balls are white"
    assert outcome.returns(1) == (1.0,)
    assert "Game over: solved." in game(level=1).describe(m.state)
    m.pop()
    m.push("Wg1")                                          # far from the others: fine too
    assert m.outcome().winners == (0,)
    lost = game(level=1).new_match()
    for text in ("Ba1", "Rg7", "Wa3", "We1"):
        lost.push(text)
    assert lost.outcome().winners == () and lost.outcome().returns(1) == (0.0,)
    assert "Game over: not solved." in game(level=1).describe(lost.state)


def test_the_reserve_always_has_the_two_balls_a_flip_needs():
    # A set has 16 balls of each colour; a hand has at most 16.
    g = game(hand="W6 B5 R5")
    rng = random.Random(11)
    for _ in range(300):
        s = g.initial_state()
        while not g.is_terminal(s):
            move = rng.choice(g.legal_moves(s))
            after = g.apply(s, move)
            for c in (WHITE, BLACK, RED):
                gained = after.position.count(c) - s.position.count(c) - (move.colour == c
                                                                          and s.pending < 0)
                if gained > 0:                              # a flip made colour c
                    reserve = 16 - s.position.count(c) - s.stock[c - 1]
                    assert gained == 2 and reserve >= 2
            s = after


# -- what the counts decide ------------------------------------------------------------

def test_targets_and_the_fewest_flips_from_the_counts():
    assert targets((2, 1, 1)) == (WHITE,)
    assert targets((3, 3, 0)) == (WHITE, BLACK, RED)       # 3, 3 and 0 agree modulo 3
    assert [flips_needed((3, 3, 0), x) for x in (WHITE, BLACK, RED)] == [3, 3, 3]
    assert targets((5, 2, 0)) == (RED,)
    assert targets((15, 1, 0)) == (BLACK,)
    assert targets((2, 1, 0)) == () and fewest_flips((2, 1, 0)) is None
    assert targets((3, 3, 3)) == (WHITE, BLACK, RED)
    assert [fewest_flips(h) for h in HANDS.values()] == [1, 3, 5, 15]
    assert flips_needed((15, 1, 0), BLACK) == 15 and flips_needed((15, 1, 0), RED) is None
    assert fewest_flips((16, 0, 0)) == 0


@given(st.integers(0, 2 ** 32), st.integers(0, 31), st.sampled_from([1, 2, 3, 4]))
def test_the_count_differences_modulo_3_never_change(seed, steps, level):
    g = game(level=level)
    s = random_walk(g, seed, steps)
    totals = [s.position.count(c) + s.stock[c - 1] for c in (WHITE, BLACK, RED)]
    hand = g.hand
    for i, j in itertools.combinations(range(3), 2):
        assert (totals[i] - totals[j]) % 3 == (hand[i] - hand[j]) % 3


def _rename(state, perm):
    """The state with colours renamed: perm maps WHITE, BLACK, RED to new colours."""
    pos = state.position
    masks = [0, 0, 0, 0]
    for c in (WHITE, BLACK, RED):
        masks[perm[c]] |= pos.mask(c)
    stock = [0, 0, 0]
    for c in (WHITE, BLACK, RED):
        stock[perm[c] - 1] = state.stock[c - 1]
    return SpinState(Position.from_masks(masks[1], masks[2], masks[3]), 0, None, None,
                     tuple(stock), state.pending)


@given(st.integers(0, 2 ** 32), st.integers(0, 20),
       st.permutations([WHITE, BLACK, RED]))
def test_renaming_the_colours_keeps_the_rules(seed, steps, images):
    # The third colour of a pair does not favour any colour, so solving a hand
    # solves every hand with the counts permuted (the search uses this).
    perm = dict(zip((WHITE, BLACK, RED), images))
    g = game(hand="W5 B4 R3")
    s = random_walk(g, seed, steps)
    renamed_hand = [0, 0, 0]
    for c in (WHITE, BLACK, RED):
        renamed_hand[perm[c] - 1] = g.hand[c - 1]
    h = load("spin", hand=" ".join(f"{'WBR'[i]}{n}" for i, n in enumerate(renamed_hand)))
    image = _rename(s, perm)
    assert {Move.place(m.point, perm[m.colour]) for m in g.legal_moves(s)} == \
        set(h.legal_moves(image))


# -- every level is solvable: the solutions, replayed through the rules -----------------

@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_every_level_is_solved_with_the_fewest_flips_the_counts_allow(level):
    hand = HANDS[level]
    fewest = fewest_flips(hand)
    solution = solve(hand, flips=fewest)
    assert solve(hand, flips=fewest - 1) is None           # fewer flips: no solution
    match = game(level=level).new_match()
    flips = 0
    for text in solution_moves(hand, solution):
        before = match.state
        match.push(text)
        if match.state.pending < 0 and before.pending < 0:
            placed = match.state.position.count() - before.position.count()
            changed = sum(before.position.colour_at(p) != match.state.position.colour_at(p)
                          for p in range(16)) - placed
            flips += changed > 0
        elif before.pending >= 0:
            flips += 1
    assert match.outcome().winners == (0,)
    assert flips == fewest == [1, 3, 5, 15][level - 1]
    assert match.state.position.count() == sum(hand)       # one turn per ball


def test_our_own_tidy_solutions_of_the_first_three_levels():
    # The ones shown in the chapter.
    for level, line, colour in ((1, "Rc1 Ba1 Wa3 We1", "white"),
                                (2, "Wa1 Bc1 Wa7 Bc7 Wg1 Bg3", "red"),
                                (3, "Wa1 Bc1 Wg1 Bg3 We1 c1 Wc3 We3 e1", "red")):
        m = game(level=level).new_match()
        for text in line.split():
            m.push(text)
        assert m.outcome().reason == f"solved: all {sum(HANDS[level])} balls are {colour}"


def test_exhaustive_analysis_of_the_first_three_levels():
    results = [analyse(HANDS[level]) for level in (1, 2, 3)]
    assert [r["states"] for r in results] == [646, 7876, 2225]
    assert all(r["solvable"] for r in results)
    assert [r["fewest_flips"] for r in results] == [1, 3, 5]
    chances = [r["random_win"] for r in results]
    assert [round(p, 6) for p in chances] == [0.154767, 0.039391, 0.001435]
    assert chances == sorted(chances, reverse=True)         # graded: each level harder


@pytest.mark.slow
def test_exhaustive_analysis_of_the_hard_level():
    r = analyse(HANDS[4])
    assert r["states"] == 144784 and r["solvable"] and r["fewest_flips"] == 15
    assert 1.2408e-6 < r["random_win"] < 1.2410e-6          # about 1 in 806,000


def test_exact_chances_agree_with_random_play_through_the_engine():
    for level, exact, games in ((1, 0.154767, 20000), (2, 0.039391, 20000)):
        g = game(level=level)
        rng = random.Random(level)
        wins = sum(bool(g.random_playout(g.initial_state(), rng).result.winners)
                   for _ in range(games))
        sigma = (exact * (1 - exact) / games) ** 0.5
        assert abs(wins / games - exact) < 4 * sigma


def _hands(most):
    """Every hand of 1 to ``most`` balls with white >= black >= red (the others are
    the same up to renaming the colours)."""
    for n in range(1, most + 1):
        for w in range(n, -1, -1):
            for b in range(n - w, -1, -1):
                if w >= b >= n - w - b:
                    yield (w, b, n - w - b)


def _check_hands(hands):
    for hand in hands:
        fewest = fewest_flips(hand)
        solution = solve(hand, flips=fewest)
        assert (solution is not None) == bool(targets(hand)), hand
        if solution is not None:
            assert len(solution) == sum(hand)
            assert sum(q >= 0 for _, _, q in solution) == fewest, hand


def test_the_counts_decide_every_hand_up_to_renaming_the_colours():
    hands = list(_hands(16))
    assert len(hands) == 203
    _check_hands(hands)
    # and a few of them replayed through the engine
    for hand in ((4, 4, 1), (6, 1, 0), (7, 3, 1)):
        text = " ".join(f"{k}{n}" for k, n in zip("WBR", hand))
        m = game(hand=text).new_match()
        for move in solution_moves(hand, solve(hand, flips=fewest_flips(hand))):
            m.push(move)
        assert m.outcome().winners == (0,)


@pytest.mark.slow
def test_the_counts_decide_every_hand_in_every_order():
    hands = {tuple(h) for rep in _hands(16) for h in itertools.permutations(rep)}
    assert len(hands) == sum((n + 1) * (n + 2) // 2 for n in range(1, 17)) == 968
    _check_hands(sorted(hands))


# -- state text and symmetry ------------------------------------------------------------

def test_state_text_round_trips_and_bad_states_are_refused():
    g = game(level=1)
    m = g.new_match()
    for text in ("Ra1", "We1", "Bc1"):
        m.push(text)
    text = g.state_text(m.state)
    assert text.endswith(" 1 white=1 black=0 red=0 choose=c1")
    again = g.parse_state(text)
    assert again.pending == parse_point("c1") and g.legal_moves(again) == m.legal_moves()
    for bad in (f"{EMPTY_BOARD} 1",                                   # stock missing
                "..../..../..../W...|W../.../...|../..|. 1 white=0 black=1 red=1",  # stacked
                "..../..../..../W...|.../.../...|../..|. 1 white=2 black=1 red=1",  # 5 balls
                "..../..../..../RR..|.../.../...|../..|. 1 white=0 black=1 red=1",  # mod 3
                "..../..../..../RBW.|.../.../...|../..|. 1 white=1 black=0 red=0 choose=a1",
                "..../..../..../R.W.|.../.../...|../..|. 1 white=1 black=1 red=0 choose=c1",
                f"{EMPTY_BOARD} 1 white=2 black=1 red=1 spin=3"):
        with pytest.raises(NotationError):
            g.parse_state(bad)
    finished = g.parse_state("..../..../..../WWWW|.../.../...|../..|. 1 white=0 black=0 red=0")
    assert finished.result.winners == (0,) and g.legal_moves(finished) == []


@given(st.integers(0, 2 ** 32), st.integers(0, 31), st.sampled_from([1, 2, 4]))
def test_all_eight_symmetries_keep_moves_and_results(seed, steps, level):
    g = game(level=level)
    assert g.symmetries == tuple(range(8))
    s = random_walk(g, seed, steps)
    for image in check_symmetries(g, s):
        again = g.parse_state(g.state_text(image))
        assert g.state_key(again) == g.state_key(image)


# -- perft, cross-checked by an independent brute force ----------------------------------
#
# By hand, for the default hand W3 B3: depth 1 = 2 colours x 16 holes = 32;
# depth 2 = 32 x 2 x 15 = 960, since a second ball touches at most one ball and
# never asks for a choice, and both colours are still in hand. The brute force
# shares no code with the engine: a dict from (level, x, y) to a letter,
# contact from tests/reference.py, the rules written again from the text.

_HOLES = [pt for pt in _ALL if pt[0] == 0]
_THIRD = {frozenset("WB"): "R", frozenset("WR"): "B", frozenset("BR"): "W"}


def _turn_options(board, stock, pending):
    """Each action from a state, as the state after it: (board, stock, pending)."""
    out = []
    if pending is not None:
        for q in _HOLES:
            if q in board and board[q] != board[pending] and _touch(pending, q):
                t = _THIRD[frozenset(board[pending] + board[q])]
                out.append(({**board, pending: t, q: t}, stock, None))
        return out
    for colour in "WBR":
        if not stock[colour]:
            continue
        rest = {**stock, colour: stock[colour] - 1}
        for p in _HOLES:
            if p in board:
                continue
            odd = [q for q in board if board[q] != colour and _touch(p, q)]
            after = {**board, p: colour}
            if len(odd) == 1:
                t = _THIRD[frozenset(colour + board[odd[0]])]
                after = {**after, p: t, odd[0]: t}
            out.append((after, rest, p if len(odd) > 1 else None))
    return out


def _brute(board, stock, pending, depth):
    options = _turn_options(board, stock, pending)
    if depth == 1:
        return len(options)
    return sum(_brute(b, s, p, depth - 1) for b, s, p in options)


def _brute_state(g, state):
    """The brute force's own form of a state, read from the state's text."""
    text = g.state_text(state).split()
    fields = dict(token.split("=") for token in text[2:])
    stock = {"W": int(fields["white"]), "B": int(fields["black"]), "R": int(fields["red"])}
    pending = None
    if "choose" in fields:
        square = fields["choose"].split(".")[0]
        pending = (0, (ord(square[0]) - ord("a")) // 2, (int(square[1]) - 1) // 2)
    return cells_of(state.position), stock, pending


PERFT_EASY = [32, 960, 26880, 606528]
PERFT_VERY_EASY = [48, 1680, 40320, 515008]


def test_perft_matches_a_hand_count_and_an_independent_brute_force():
    easy, very_easy = game(), game(level=1)
    assert [perft(easy, d) for d in range(1, 5)] == PERFT_EASY
    assert [perft(very_easy, d) for d in range(1, 5)] == PERFT_VERY_EASY
    assert PERFT_EASY[:2] == [2 * 16, 32 * 2 * 15]
    assert [_brute({}, {"W": 3, "B": 3, "R": 0}, None, d) for d in range(1, 4)] == \
        PERFT_EASY[:3]
    assert [_brute({}, {"W": 2, "B": 1, "R": 1}, None, d) for d in range(1, 4)] == \
        PERFT_VERY_EASY[:3]


@pytest.mark.parametrize("seed", range(6))
def test_perft_from_random_positions_matches_the_brute_force(seed):
    g = game(hand="W6 B5 R5")
    rng = random.Random(seed)
    s = g.initial_state()
    for _ in range(rng.randrange(2, 12)):
        s = g.apply(s, rng.choice(g.legal_moves(s)))
    board, stock, pending = _brute_state(g, s)
    assert [perft(g, d, s) for d in (1, 2, 3)] == [_brute(board, stock, pending, d)
                                                   for d in (1, 2, 3)]


def test_perft_through_a_choice_matches_the_brute_force():
    g = game(level=1)
    s = g.parse_state("..../..../.W../R.W.|.../.../...|../..|. 1 white=0 black=1 red=0")
    m = g.new_match(state=s)
    m.push("Bc1")
    assert m.state.pending >= 0
    board, stock, pending = _brute_state(g, m.state)
    assert pending == (0, 1, 0)
    assert [perft(g, d, m.state) for d in (1, 2)] == [3, 0] == \
        [_brute(board, stock, pending, 1), 0]
