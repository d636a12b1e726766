"""Spillway pinned down: the spill down a diagonal, connections at both ends of a
turn, the extra turn, three to win, and the designed base colours."""
import random

import pytest

from shibumi.games.spillway import (BASES, CASCADE, RED_BASES, START, connections,
                                    whiten)  # importing registers the game
from conformance import (check_random_games, check_symmetries,
                         random_walk)
from shibumi import IllegalMoveError, NotationError, load
from shibumi.analysis import perft
from shibumi.geometry import APEX, SYMMETRIES, transform_mask
from shibumi.notation import parse_point
from shibumi.players import MCTSPlayer, RandomPlayer
from shibumi.position import BLACK, RED, WHITE, Position
from reference import ABOVE, ALL as CELLS, cells_of, touch

GAME = load("spillway")
APEX_PT = (3, 0, 0)


# -- the rules again, engine-free ----------------------------------------------------

def hidden(pt, board):
    lv, x, y = pt
    return (lv + 2, x - 1, y - 1) in board


REF_CASCADE = [p for p in CELLS if len(ABOVE[p]) <= 1]          # not pinned when full
REF_BASES = [p for p in CELLS if len(ABOVE[p]) > 1 and (p[0] + 2, p[1] - 1, p[2] - 1)
             not in CELLS]


def ref_sides(pt):
    lv, x, y = pt
    edge = 3 - lv
    return {s for s, on in (("s", y == 0), ("n", y == edge), ("w", x == 0),
                            ("e", x == edge)) if on}


def seen_contact(a, b, board):
    """Two touching balls, both in view, not passed over by two balls above."""
    if hidden(a, board) or hidden(b, board):
        return False
    over = set(ABOVE[a]) & set(ABOVE[b])
    return not (len(over) == 2 and all(q in board for q in over))


def ref_connections(board, colour) -> int:
    """How many of the pairs (north-south, east-west) a colour joins base to base."""
    mine = [p for p, c in board.items() if c == colour]
    joined = set()
    for start in mine:
        if start not in REF_BASES:
            continue
        group, todo = {start}, [start]
        while todo:
            p = todo.pop()
            for q in mine:
                if q not in group and touch(p, q) and seen_contact(p, q, board):
                    group.add(q)
                    todo.append(q)
        sides = set().union(*(ref_sides(p) for p in group if p in REF_BASES))
        joined |= {pair for pair in ("ns", "ew") if set(pair) <= sides}
    return len(joined)


def ref_moves(board, mover):
    me = "RB"[mover]
    if 16 - sum(c == me for c in board.values()) == 0:
        return ["pass"]
    return [p for p in REF_CASCADE if p != APEX_PT and board[p] == "W"]


def ref_play(board, mover, scores, move):
    """(board, player to move, scores, over) after a move."""
    me = "RB"[mover]
    new = dict(board)
    if move != "pass":
        gap = move
        while gap != APEX_PT:                        # the column above spills down
            up = next(q for q in ABOVE[gap] if q in new)
            new[gap] = new[up]
            gap = up
        new[APEX_PT] = me
        made = ref_connections(new, me)
        if made:
            scores = tuple(s + made * (i == mover) for i, s in enumerate(scores))
            if scores[mover] >= 3:
                return new, mover, scores, True
            return {p: ("W" if p in REF_CASCADE and c == me else c) for p, c in new.items()}, \
                mover, scores, False
    other = 1 - mover
    made = ref_connections(new, "RB"[other])
    if made:
        scores = tuple(s + made * (i == other) for i, s in enumerate(scores))
        if scores[other] >= 3:
            return new, other, scores, True
        new = {p: ("W" if p in REF_CASCADE and c == "RB"[other] else c)
               for p, c in new.items()}
    return new, other, scores, False


def ref_perft(board, mover, scores, depth):
    if depth == 0:
        return 1
    total = 0
    for move in ref_moves(board, mover):
        new, nxt, sc, over = ref_play(board, mover, scores, move)
        total += (depth == 1) if over else ref_perft(new, nxt, sc, depth - 1)
    return total


# -- the declaration and the start ----------------------------------------------------

def test_declaration_and_random_games():
    check_random_games("spillway", seeds=range(12))


def test_geometry_thirteen_cascade_twelve_bases_three_a_side():
    assert CASCADE.bit_count() == 13 and BASES.bit_count() == 12
    full = START
    assert {p for p in range(30) if not full.is_pinned(p)} == \
        {p for p in range(30) if CASCADE >> p & 1}
    assert len(REF_CASCADE) == 13 and len(REF_BASES) == 12
    for side in "nsew":
        assert sum(side in ref_sides(p) for p in REF_BASES) == 3


def test_start_position():
    s = GAME.initial_state()
    pos = s.position
    assert pos.occupied == (1 << 30) - 1
    assert pos.count(WHITE) == 16                         # every white of the set
    assert pos.count(RED) == 7 and pos.count(BLACK) == 7  # 6 bases and 1 hidden each
    assert pos.mask(WHITE) & CASCADE == CASCADE
    assert pos.hidden().bit_count() == 5 and pos.hidden() & RED_BASES == 0
    assert len(GAME.legal_moves(s)) == 12                 # every cascade ball but the apex
    assert s.to_move == 0 and GAME.player_name(0) == "Red"


def test_bases_are_a_pinwheel_a_quarter_turn_swaps_the_colours():
    black_bases = BASES & ~RED_BASES
    for turn in (1, 3):
        assert transform_mask(RED_BASES, SYMMETRIES[turn]) == black_bases
    assert transform_mask(RED_BASES, SYMMETRIES[2]) == RED_BASES


def _cascade_colourings():
    cascade = [p for p in range(30) if CASCADE >> p & 1]
    for bits in range(1 << 13):
        reds = sum(1 << cascade[i] for i in range(13) if bits >> i & 1)
        yield Position.from_masks(white=START.white & ~CASCADE,
                                  black=START.black | CASCADE & ~reds, red=START.red | reds)


@pytest.mark.slow
def test_every_full_colouring_of_the_cascade_connects_exactly_one_player():
    for pos in _cascade_colourings():
        red, black = any(connections(pos, RED)), any(connections(pos, BLACK))
        assert red != black, pos


def test_sampled_full_colourings_connect_exactly_one_player():
    rng = random.Random(5)
    all_pos = list(_cascade_colourings())
    for pos in rng.sample(all_pos, 400):
        assert any(connections(pos, RED)) != any(connections(pos, BLACK))


# -- the turn ------------------------------------------------------------------------

def test_a_removal_spills_the_column_and_the_mover_tops_up_the_apex():
    m = GAME.new_match()
    m.push("xa1")
    pos = m.state.position
    assert pos.colour_at(APEX) == RED and pos.count(WHITE) == 15
    m.push("xg7")                                          # the red apex spills to e5.2
    pos = m.state.position
    assert pos.colour_at(parse_point("e5.2")) == RED and pos.colour_at(APEX) == BLACK


def test_apex_pinned_and_coloured_balls_cannot_be_taken():
    m = GAME.new_match()
    before = m.state
    for text in ("xd4.3", "xc1", "xd2", "xc3.0", "pass"):
        with pytest.raises((IllegalMoveError, NotationError)):
            m.push(text)
    assert m.state == before
    m.push("xc3.2")                                         # the white apex drops to c3.2
    m.push("xc3.2")                                         # then the red apex
    assert m.state.position.colour_at(parse_point("c3.2")) == RED
    with pytest.raises(IllegalMoveError):
        m.push("xc3.2")                                     # red now, not white


# -- connections ---------------------------------------------------------------------

def _state(cascade: dict, to_move=0, scores=(0, 0)):
    """A full pyramid from the start with some cascade balls coloured."""
    masks = {WHITE: START.white, BLACK: START.black, RED: START.red}
    for name, colour in cascade.items():
        p = 1 << parse_point(name)
        masks[WHITE] &= ~p
        masks[colour] |= p
    pos = Position.from_masks(masks[WHITE], masks[BLACK], masks[RED])
    fields = " ".join(f"{k}={v}" for k, v in zip(("red", "black"), scores) if v)
    return GAME.parse_state(f"{pos.text()} {to_move + 1} {fields}".strip())


def play(state, text):
    return GAME.apply(state, next(m for m in GAME.legal_moves(state) if m.text() == text))


def test_the_text_example_red_north_south_then_white_again():
    """The lost figure: Red joins north and south, scores, its cascade balls turn white."""
    # red d2 (south base) - c3.2 - c5.2 - d6 (north base)
    s = _state({"c5.2": RED, "d4.3": RED, "g1": BLACK, "a7": BLACK}, to_move=0)
    assert not any(connections(s.position, RED))
    s = play(s, "xc3.2")                 # the red apex drops to c3.2, a new red on top
    assert s.scores == (1, 0) and s.to_move == 0              # Red plays again
    assert s.position.mask(RED) & CASCADE == 0                 # red cascade balls now white
    assert "North-South" in s.note


def test_a_connection_made_by_the_opponent_scores_at_the_start_of_your_turn():
    s = _state({"c5.2": RED, "d4.3": RED}, to_move=1)
    s = play(s, "xc3.2")
    # the red apex dropped to c3.2: d2-c3.2-c5.2-d6 joins Red, found as Red's turn starts
    assert s.scores == (1, 0) and s.to_move == 0
    assert s.position.mask(RED) & CASCADE == 0
    assert "start of the turn" in s.note


def test_connections_are_not_looked_for_in_the_opponents_turn():
    s = _state({"c3.2": RED, "c5.2": RED, "g1": BLACK}, to_move=1)
    assert any(connections(s.position, RED)) and s.scores == (0, 0)
    s = play(s, "xg7")                       # Black's spill leaves Red joined
    assert s.scores == (1, 0) and s.to_move == 0


TWO_AT_ONCE = "WRBB/RWBB/BRWR/WBRB|WRB/BWB/BRB|WB/RR|B 1 red=2 ply=14"
"""Found by a random game: Red's spill joins Black both ways at once."""


def test_two_connections_at_once_score_two():
    s = play(GAME.parse_state(TWO_AT_ONCE), "xa7")
    assert s.scores == (2, 2) and s.to_move == 1 and s.result is None
    assert "North-South and East-West" in s.note


def test_three_connections_win_and_the_chains_are_shown():
    s = play(GAME.parse_state(TWO_AT_ONCE.replace("red=2", "red=2 black=1")), "xa7")
    assert s.scores == (2, 3) and s.result.winners == (1,)
    shown_points = GAME.winning_points(s)
    assert shown_points and shown_points & ~s.position.black == 0
    assert shown_points & BASES and shown_points & CASCADE
    assert GAME.legal_moves(s) == []


def test_whiten_only_touches_the_cascade():
    pos = whiten(START, RED)
    assert pos == START
    s = _state({"a1": RED, "g7": BLACK})
    assert whiten(s.position, RED).mask(RED) == START.red


def test_an_empty_hand_passes():
    reds = "a1 g1 a7 g7 b2 f2 b6 f6 c3.2".split()
    s = _state({n: RED for n in reds}, to_move=0)
    if any(connections(s.position, RED)):
        pytest.skip("this colouring connects")
    assert GAME.hand(s.position, 0) == 0
    assert [m.text() for m in GAME.legal_moves(s)] == ["pass"]
    after = GAME.apply(s, GAME.legal_moves(s)[0])
    assert after.to_move == 1 and after.position == s.position


# -- bad input and text --------------------------------------------------------------

def test_bad_states_refused():
    good = GAME.state_text(GAME.initial_state())
    for text in (good.replace("W", ".", 1), good.replace("R", "B", 1), good + " red=9",
                 good + " red=3 black=3", good + " blue=1"):
        with pytest.raises(NotationError):
            GAME.parse_state(text)
    assert GAME.parse_state(good) == GAME.initial_state()


def test_symmetries():
    for seed in range(4):
        check_symmetries(GAME, random_walk(GAME, seed, 5 + seed))


# -- perft, cross-checked ------------------------------------------------------------

GOLDEN = {1: 12, 2: 144, 3: 1584, 4: 15840}
#: perft 3 after 10 random actions (seed: count), cross-checked by ref_perft.
GOLDEN_WALKS = {2: 316, 10: 178, 11: 406}


def test_perft_golden_and_reference():
    board = cells_of(START)
    for depth in (1, 2, 3):
        assert perft(GAME, depth) == GOLDEN[depth] == ref_perft(board, 0, (0, 0), depth)


@pytest.mark.slow
def test_perft_depth_four_reference():
    assert perft(GAME, 4) == GOLDEN[4] == ref_perft(cells_of(START), 0, (0, 0), 4)


@pytest.mark.parametrize("seed", sorted(GOLDEN_WALKS))
def test_perft_from_random_positions(seed):
    state = random_walk(GAME, seed, 10)
    board = cells_of(state.position)
    assert perft(GAME, 3, state) == GOLDEN_WALKS[seed] == \
        ref_perft(board, state.to_move, state.scores, 3)


# -- the design check: random and MCTS play ------------------------------------------

def _play(players, seed):
    """A whole game between two players (``seed`` only names the game)."""
    state = GAME.initial_state()
    while state.result is None:
        state = GAME.apply(state, players[state.to_move].choose(GAME, state))
    return state


def test_random_play_never_stalls_and_both_colours_win():
    wins = [0, 0]
    for seed in range(100):
        s = random_walk(GAME, seed, 200)
        assert s.result is not None and len(s.result.winners) == 1
        assert max(s.scores) >= 3
        wins[s.result.winners[0]] += 1
    assert min(wins) > 100 * 0.3, wins


@pytest.mark.slow
def test_mcts_self_play_both_colours_win():
    wins = [0, 0]
    for seed in range(12):
        s = _play((MCTSPlayer(iterations=150, seed=seed),
                   MCTSPlayer(iterations=150, seed=seed + 100)), seed)
        wins[s.result.winners[0]] += 1
    assert min(wins) >= 3, wins


def test_mcts_beats_random():
    wins = 0
    for seed in range(2):
        players = [RandomPlayer(seed), RandomPlayer(seed)]
        players[seed % 2] = MCTSPlayer(iterations=60, seed=seed)
        s = _play(players, seed)
        wins += s.result.winners == (seed % 2,)
    assert wins == 2
