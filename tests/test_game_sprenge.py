"""Sprenge pinned down: the opponents' colours, two balls a turn, largest group, two tie rules."""
import random

import pytest

import shibumi.games.sprenge  # noqa: F401  (registers the game)
from conformance import (check_playouts, check_random_games,
                         check_symmetries, random_walk)
from shibumi import IllegalMoveError, NotationError, UnknownGameError, load
from shibumi.analysis import perft
from shibumi.games.sprenge import largest_groups, tie_winner
from shibumi.interaction import Table
from shibumi.position import Position
from reference import ALL, ABOVE, below, cells_of, playable, square, top_balls, touch

GAME = load("sprenge")
THIRD = load("sprenge", tiebreak="third")

#: Full pyramids from random games, with their largest groups (White, Black, Red).
TWO_WAY_WB = "RWBW/WRRW/BRRB/BWRW|BBB/WBW/BRR|RR/WB|W 1"        # 4, 4, 3
TWO_WAY_WR = "BRWB/WRBR/WBBR/WBWR|RWB/BRR/WBW|RW/WR|B 1"        # 5, 2, 5
TWO_WAY_BR = "RWBW/RWRB/RRWB/WRBB|BBW/WBB/RWR|RW/WR|B 1"        # 3, 5, 5
THREE_WAY = "RWRB/BRWB/BWWR/BRBR|WBW/RBR/BWW|RB/WR|W 1"         # 4, 4, 4
CLEAR = "WBBB/RWRB/WBWR/WRRB|RBW/WBW/RRW|BR/RW|B 1"             # 4, 7, 5


def names(moves):
    return sorted(m.text() for m in moves)


def test_conformance():
    check_random_games("sprenge", seeds=range(15))
    check_random_games("sprenge", seeds=range(5), tiebreak="third")
    check_playouts("sprenge", games=150)


def test_symmetries():
    for seed in range(3):
        for steps in (0, 7, 19, 30):
            check_symmetries(GAME, random_walk(GAME, seed, steps))


def test_each_player_places_the_two_other_colours():
    match = GAME.new_match()
    seen = []
    for square_ in ["Ra1", "c1", "Wa3", "e1", "Bc3", "g1", "Ra5", "g3"]:
        player = match.current_player
        move = match.push(square_)
        seen.append((player, "WBR"[move.colour - 1]))
    assert seen == [(0, "R"), (0, "B"), (1, "W"), (1, "R"), (2, "B"), (2, "W"),
                    (0, "R"), (0, "B")]


def test_the_mover_chooses_the_order():
    match = GAME.new_match()
    assert {m.colour for m in match.legal_moves()} == {2, 3}
    assert len(match.legal_moves()) == 32
    with pytest.raises(IllegalMoveError):
        match.push("Wa1")                              # never your own colour
    match.push("Ba1")
    assert names(match.legal_moves())[:3] == ["Ra3", "Ra5", "Ra7"]
    assert {m.colour for m in match.legal_moves()} == {3}
    with pytest.raises(IllegalMoveError):
        match.push("Bc1")                              # one ball of each colour


def test_the_second_ball_may_use_a_platform_the_first_completed():
    match = GAME.new_match()
    for move in ("Ba1", "Rc1", "Wa3", "Rg7", "Wg5", "Bg3"):
        match.push(move)
    assert "Rb2" not in names(match.legal_moves())
    match.push("Bc3")                  # White's first ball fills the platform a1 c1 a3 c3
    assert "Rb2" in names(match.legal_moves())
    match.push("Rb2")
    assert match.current_player == 1


def test_a_full_pyramid_scores_the_largest_visible_groups():
    final = GAME.parse_state(CLEAR)
    assert final.result.winners == (1,) and final.result.scores == (4.0, 7.0, 5.0)
    assert GAME.winning_points(final).bit_count() == 7
    assert final.result.ranking == ((1,), (2,), (0,))


@pytest.mark.parametrize("text, order, third", [
    (TWO_WAY_WB, 0, 2), (TWO_WAY_WR, 0, 1), (TWO_WAY_BR, 1, 0), (THREE_WAY, 0, 0),
    (CLEAR, 1, 1)])
def test_the_two_tie_rules(text, order, third):
    assert GAME.parse_state(text).result.winners == (order,)
    won = THIRD.parse_state(text)
    assert won.result.winners == (third,)
    # The designer's rule may crown a smaller group; it is still the one shown.
    mine = largest_groups(won.position)[third][1]
    assert THIRD.winning_points(won) == mine and mine


def test_tie_winner_directly():
    assert tie_winner((3, 3, 3), "order") == (0, "tie broken by turn order")
    assert tie_winner((2, 6, 6), "third")[0] == 0
    assert tie_winner((6, 2, 6), "third")[0] == 1
    assert tie_winner((1, 2, 3), "third") == (2, "")


def test_hidden_balls_and_overpasses_do_not_join():
    # White c5.0 and e5.0 touch, but c5.2 (white too) buries c5.0 and touches
    # neither: three white balls, groups of one.
    pos = Position("RRRR/RWWR/RRRR/RRRR|RRR/RRR/RRR|W./..|.")
    sizes = [s for s, _ in largest_groups(pos)]
    assert sizes[0] == 1                    # c5.0-e5.0 would be 2 but c5.0 is buried
    assert pos.hidden()
    cut = Position("..../RR../WW../RR..|.../R../R..|../..|.")
    assert [s for s, _ in largest_groups(cut)][0] == 1     # a3-c3 under b2-b4
    uncut = Position("..../RR../WW../RR..|.../.../R..|../..|.")
    assert [s for s, _ in largest_groups(uncut)][0] == 2


def test_bad_tiebreak_and_bad_states():
    with pytest.raises(UnknownGameError):
        load("sprenge", tiebreak="coin")
    for bad in ("..../..../..../W...|.../.../...|../..|. 1",     # White never places white
                "..../..../..../B...|.../.../...|../..|. 2",     # White's turn is not over
                "..../..../..../BR..|.../.../...|../..|. 1",     # Black's turn now
                "..../..../..../....|.../.../...|../..|. 1 x=1"):
        with pytest.raises(NotationError):
            GAME.parse_state(bad)
    assert GAME.parse_state("..../..../..../BR..|.../.../...|../..|. 2").to_move == 1


def test_bad_moves_change_nothing():
    match = GAME.new_match()
    match.push("Ba1")
    before = match.state
    for bad in ("Ba3", "Wa3", "Ra1", "b2", "xa1", "pass"):
        with pytest.raises((IllegalMoveError, NotationError)):
            match.push(bad)
    assert match.state == before


def test_status_lines():
    match = GAME.new_match()
    first = GAME.status_lines(match.state)[0]
    assert first == "White places a black and a red ball (either first)."
    match.push("Ba1")
    assert GAME.status_lines(match.state)[0] == "White places a red ball to end the turn."
    assert GAME.status_lines(match.state)[1] == "Largest groups: White 0, Black 1, Red 0."


def test_every_move_can_be_clicked():
    for steps in (0, 1, 16, 29):
        state = random_walk(GAME, steps, steps)
        record = GAME.new_match(state=state).record()
        for move in GAME.legal_moves(state):
            table = Table(GAME, seats="human", record=record)
            table.click(move.point)
            if not table.match.history:
                # Two colours can go on the point: the click offers both.
                assert move in table.moves_now()[0], table.view().get("message")
                table.choose(move)
            assert table.match.history[-1][0] == move


# -- an independent model ----------------------------------------------------------
# Cells (level, x, y) in a dict. The colours a mover owes come from a count of
# the balls placed in the mover's current turn, read off a list of moves kept
# alongside. Groups: balls in view (top of their square), joined when they
# touch and, for a flat contact, the two balls over its middle are not both
# there.

OWN = "WBR"


def over_pair(a, b):
    if a[0] != b[0] or a[0] == 3:
        return None
    (lv, x1, y1), (_, x2, y2) = sorted([a, b])
    if y1 == y2:
        pair = [(lv + 1, x1, y1 - 1), (lv + 1, x1, y1)]
    else:
        pair = [(lv + 1, x1 - 1, y1), (lv + 1, x1, y1)]
    return pair if all(p in ALL for p in pair) else None


def ref_largest(board, colour):
    seen = set(top_balls(board).values())
    mine = [c for c in board if board[c] == colour and c in seen]
    best, done = 0, set()
    for start in mine:
        if start in done:
            continue
        group, todo = {start}, [start]
        while todo:
            a = todo.pop()
            for b in mine:
                pair = over_pair(a, b)
                if b not in group and touch(a, b) and not (pair and all(p in board for p in pair)):
                    group.add(b)
                    todo.append(b)
        done |= group
        best = max(best, len(group))
    return best


def ref_winner(board, rule):
    sizes = [ref_largest(board, c) for c in OWN]
    top = [p for p in range(3) if sizes[p] == max(sizes)]
    if rule == "third" and len(top) == 2:
        return 3 - sum(top)
    return top[0]


def ref_owed(turn_colours):
    """The colours still to place: `turn_colours` holds those placed this turn."""
    return lambda mover: [c for c in OWN if c != OWN[mover] and c not in turn_colours]


def ref_perft(board, turn, depth, tally=None, rule="order"):
    if depth == 0:
        return 1
    n = len(board)
    mover = (n // 2) % 3
    colours = ref_owed(turn)(mover)
    total = 0
    for cell in ALL:
        if not playable(board, cell):
            continue
        for colour in colours:
            board[cell] = colour
            if len(board) == 30:
                total += depth == 1
                if tally is not None:
                    w = ref_winner(board, rule)
                    tally[w] = tally.get(w, 0) + 1
            else:
                nxt = "" if n % 2 else turn + colour
                total += ref_perft(board, nxt, depth - 1, tally, rule)
            del board[cell]
    return total


def test_reference_numbering():
    assert [ALL.index(c) for c in ALL] == list(range(30))
    assert below(ALL[29]) == [ALL[25], ALL[27], ALL[26], ALL[28]] and ABOVE[ALL[0]] == [ALL[16]]
    assert square(ALL[29]) == (3, 3)


def test_perft_from_the_start():
    # Twice Spline's counts at every ball... until platforms: 32, 32*15, ...
    assert [perft(GAME, d) for d in range(1, 4)] == [32, 480, 13440]
    assert [ref_perft({}, "", d) for d in range(1, 4)] == [32, 480, 13440]


def _before_end(seed, back):
    rng, st, history = random.Random(seed), GAME.initial_state(), []
    while st.result is None:                   # (the walk these golden numbers came from)
        history.append(st)
        st = GAME.apply(st, rng.choice(GAME.legal_moves(st)))
    return history[len(history) - back]


def engine_endings(game, st, depth, tally):
    for move in game.legal_moves(st):
        child = game.apply(st, move)
        if child.result is not None:
            w = child.result.winners[0]
            tally[w] = tally.get(w, 0) + 1
        elif depth > 1:
            engine_endings(game, child, depth - 1, tally)
    return tally


#: Six balls from the end of random games: perft 1-6 and the finished games by
#: winner under each tie rule (turn order, the third player).
NEAR_END = {0: ([6, 14, 56, 100, 200, 200], {2: 193, 1: 7}, {2: 193, 0: 7}),
            1: ([6, 16, 80, 160, 320, 320], {0: 314, 1: 6}, {0: 302, 1: 6, 2: 12}),
            2: ([8, 26, 132, 240, 480, 480], {2: 142, 1: 254, 0: 84},
                {2: 178, 0: 194, 1: 108})}


@pytest.mark.parametrize("seed", [0, 1, pytest.param(2, marks=pytest.mark.slow)])
def test_perft_and_endings_near_the_end(seed):
    st = _before_end(seed, 6)
    board = cells_of(st.position)
    turn = "" if len(board) % 2 == 0 else "WBR"[st.last.colour - 1]
    counts, order, third = NEAR_END[seed]
    assert [perft(GAME, d, st) for d in range(1, 7)] == counts
    assert [ref_perft(dict(board), turn, d) for d in range(1, 7)] == counts
    for game, rule, expected in ((GAME, "order", order), (THIRD, "third", third)):
        tally = {}
        ref_perft(dict(board), turn, 6, tally, rule)
        assert engine_endings(game, st, 6, {}) == tally == expected


def test_largest_groups_agree_with_the_reference_on_random_pyramids():
    for seed in range(40):
        final = GAME.random_playout(GAME.initial_state(), random.Random(seed))
        board = cells_of(final.position)
        assert final.result.scores == tuple(float(ref_largest(board, c)) for c in OWN)
        assert final.result.winners == (ref_winner(board, "order"),)
        assert THIRD.settle(THIRD.parse_state(GAME.state_text(final))).result.winners == \
            (ref_winner(board, "third"),)
