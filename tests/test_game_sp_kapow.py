"""SP-Kapow: place touching your own colour, or blow things up once; highest level wins."""
import random

import pytest

import shibumi.games.sp_kapow  # noqa: F401  (registers the game)
from conformance import (check_playouts, check_random_games,
                         check_symmetries, random_walk)
from shibumi import IllegalMoveError, NotationError, load
from shibumi.analysis import perft
from shibumi.games.sp_kapow import touching_own, visible_counts
from shibumi.notation import parse_point
from shibumi.position import BLACK, RED, WHITE
from reference import ABOVE, below, cells_of, open_points, touch

GAME = load("sp-kapow")

# A game from the start (found by a search over the placements, then a black
# bomb on b2): the text's first example, five white balls blown away and a black
# ball dropping and staying.
BUILD = ("Wa1 Bc5.0 Wg1 Be5.0 Wa3 Bg5 Wc3.0 Bg3 We3.0 Bg7 Wa5 Bd4.1 Wd2 Bf4 Wf2 "
         "Be3.2 Wb4")


def test_conformance():
    check_random_games("sp-kapow", seeds=range(20))
    check_playouts("sp-kapow", games=1000)


def test_touching_own_matches_the_point_by_point_rule():
    from shibumi.geometry import TOUCHING_MASK, points_of
    rng = random.Random(11)
    masks = [(rng.getrandbits(30), rng.getrandbits(30)) for _ in range(300)]
    for seed in range(100):                       # and masks of real positions
        pos = random_walk(GAME, seed, seed % 40).position
        masks += [(own, pos.playable()) for own in (pos.white, pos.black, pos.red)]
    for own, playable in masks:
        want = sum(1 << p for p in points_of(playable) if TOUCHING_MASK[p] & own)
        assert touching_own(own, playable) == want


def test_the_start_and_a_placement_must_touch_your_colour():
    m = GAME.new_match()
    assert m.state.position.text() == ".BB./..../..../.WW.|.../.../...|../..|."
    own = sorted(m.move_text(mv) for mv in m.legal_moves() if mv.colour == WHITE)
    assert own == ["Wa1", "Wc3", "We3", "Wg1"]
    assert sum(mv.colour == RED for mv in m.legal_moves()) == 12     # bomb: any hole
    before = m.state
    for bad in ("Wa7", "Bc5", "pass", "xc1"):
        with pytest.raises((IllegalMoveError, NotationError)):
            m.push(bad)
        assert m.state == before


def test_the_text_example_five_whites_blown_away_and_a_black_drops():
    m = GAME.new_match(record=BUILD)
    assert m.current_player == 1
    m.push("Rb2")
    # landing on b2 it touches a1 c1 a3 c3 (below) and d2 b4 (beside); c1, a3
    # and c3 are pinned for now, so Black picks among a1, b4 and d2.
    assert sorted(mv.text() for mv in m.legal_moves()) == ["xa1", "xb4", "xd2"]
    m.push("xd2")                        # the black ball of e3.2 drops into d2 ...
    assert m.state.position.colour_at(parse_point("d2")) == BLACK
    m.push("xb4")
    m.push("xa3")                        # a3 held only the bomb: it falls into a3
    assert m.state.blast == parse_point("a3")
    assert sorted(mv.text() for mv in m.legal_moves()) == ["xa1", "xa5"]   # c3 pinned
    m.push("xa1")
    m.push("xa5")
    assert m.current_player == 0 and m.state.blast is None
    pos = m.state.position
    assert pos.count(WHITE) == 11 - 5 and pos.count(BLACK) == 10
    assert pos.colour_at(parse_point("d2")) == BLACK        # ... and stays
    assert pos.colour_at(parse_point("a3")) == RED and not m.state.bombs[1]


# The text's final example, rebuilt in a game (found by a search that kept the
# bombs until a player had nothing else, then checked against the text): Black,
# out of placements, must play its bomb on d6; it blows away five black balls
# and nothing else, White passes and the game is over. Levels 2 and 1 are tied
# (1-1, 3-3) and Black wins on the board, 6 visible balls to 5.
FINAL = ("Wc3.0 Be5.0 Wa1 Bc5.0 We3.0 Bg5 Wd4.1 Bd6 Wa3 Ba5 Wg1 Bg7 Rb4 xd4.1 xc3.0 "
         "xe3.0 xa3 xc1 xc5.0 Ba3 Wg3 Bf6 We3.0 Bd4.1 Wf4 Bb4 Wf2 Ba7 Wc1 Bb2 Wd2 "
         "Bc3.2 We3.2 Bb6 pass")
FINAL_BLAST = "Rd6 xf6 xb6 xc7 xa7 xe7"


def test_the_text_final_example_black_bombs_its_own_balls_and_wins_6_to_5():
    m = GAME.new_match(record=FINAL)
    s = m.state
    assert s.to_move == 1 and s.passed and s.bombs == (False, True)
    assert GAME.placements(s, 1) == 0 and GAME.reserve(s, 1) == 0   # no placement left
    assert {mv.colour for mv in m.legal_moves()} == {RED}            # the bomb is forced
    black_before = s.position.count(BLACK)
    for mv in FINAL_BLAST.split():
        m.push(mv)
    end = m.state
    assert end.position.count(BLACK) == black_before - 5 and end.lost == (5, 6)
    assert end.position.count(WHITE) == s.position.count(WHITE)     # only its own balls
    assert [m.move_text(mv) for mv in m.legal_moves()] == ["pass"]    # White is stuck
    m.push("pass")
    result = m.outcome()
    assert result.winners == (1,) and "board, 6 to 5" in result.reason
    assert visible_counts(m.state.position) == ((0, 0), (1, 1), (3, 3), (5, 6))
    assert GAME.winning_points(m.state).bit_count() == 6


def test_blown_away_balls_leave_the_game():
    # White has 14 balls on the pyramid and 2 blown away: none left in hand.
    text = "..../WWWW/WWWW/WWWW|.../.../WW.|../..|. 1 white_lost=2 n=30"
    s = GAME.parse_state(text)
    assert GAME.reserve(s, 0) == 0 and GAME.placements(s, 0) == 0
    assert [mv.text() for mv in GAME.legal_moves(s)] == ["pass"]
    assert GAME.state_text(s).endswith("n=30 white_lost=2")
    assert GAME.status_lines(s)[0] == "White: 0 balls in hand (2 blown away), bomb used."
    s = GAME.parse_state(text.replace("white_lost=2", "white_lost=1"))
    assert GAME.reserve(s, 0) == 1 and GAME.placements(s, 0)
    with pytest.raises(NotationError):
        GAME.parse_state(text.replace("white_lost=2", "white_lost=3"))


def test_the_final_example_cannot_happen_if_blown_away_balls_came_back():
    """The evidence behind the reading (see the rules notes).

    If removed balls went back to their owners, nobody could hold all sixteen
    of a colour in the text's final position (White: 5 + 4 hidden + 4 + 2 = 15
    at most; Black 16 only with level 2 full, when White could still play the
    apex), so at the end every playable point would touch only red balls. The
    only stacks where at most two balls (the two bombs) are touched by playable
    points and the text's counts fit are full pyramids with a red apex; a bomb
    on the apex always blows away a level-2 ball and falls, so none is reachable.
    """
    from itertools import combinations

    from shibumi.geometry import ALL_MASK, LEVEL_MASK, SUPPORT_MASK, TOUCHING_MASK, points_of
    from shibumi.position import hidden_mask, playable_mask
    fits = []
    for board in range(1 << 16):
        occ = board        # every supported point filled: an empty one touches 4 balls
        for p in range(16, 30):
            if SUPPORT_MASK[p] & ~occ == 0:
                occ |= 1 << p
        touched = 0        # balls next to a playable point: they must be the reds
        for p in points_of(playable_mask(occ)):
            touched |= TOUCHING_MASK[p] & occ
        if touched.bit_count() > 2:
            continue
        seen = occ & ~hidden_mask(occ)
        others = [p for p in points_of(occ & ~touched)]
        for extra in combinations(others, 2 - touched.bit_count()):
            reds = touched | sum(1 << p for p in extra)
            w_b = [(seen & ~reds & LEVEL_MASK[lv]).bit_count() for lv in range(4)]
            if (w_b[0] == 11 and w_b[1] % 2 == 0 and w_b[2] % 2 == 0
                    and (not occ >> 29 & 1 or reds >> 29 & 1)):
                fits.append((occ, reds))
    assert len(fits) == 12 and all(occ == ALL_MASK and reds >> 29 & 1 for occ, reds in fits)
    # a bomb on the apex over four level-2 balls must blow one away and fall
    s = GAME.parse_state("WWWW/WWWW/BBBB/BBBB|WWW/BBW/BBB|WB/BW|. 2 black_bomb n=40")
    bomb = [mv for mv in GAME.legal_moves(s) if mv.colour == RED]
    assert [mv.text() for mv in bomb] == ["Rd4.3"]
    after = GAME.apply(s, bomb[0])
    assert after.blast == 29 and sorted(mv.text() for mv in GAME.legal_moves(after)) == [
        "xc3.2", "xc5.2", "xe3.2", "xe5.2"]
    fallen = GAME.apply(after, GAME.legal_moves(after)[0])
    assert fallen.position.colour_at(29) is not RED


def test_a_player_who_cannot_play_passes_and_two_passes_end_it():
    # Every point is filled but the apex: White's bomb is all White can play.
    full = "WWWW/WWWW/WBBB/BBBB|BWB/WBW/BWB|BB/BB|"
    s = GAME.parse_state(full + ". 1 white_bomb n=40")
    assert [mv.text() for mv in GAME.legal_moves(s)] == ["Rd4.3"]
    s = GAME.parse_state(full + "R 2 n=40")                # bombs spent, pyramid full
    assert [mv.text() for mv in GAME.legal_moves(s)] == ["pass"]
    end = GAME.apply(s, GAME.legal_moves(s)[0])         # White cannot play either
    assert end.result.winners == (1,) and "level 2, 4 to 0" in end.result.reason
    assert GAME.state_key(GAME.parse_state(GAME.state_text(end))) == GAME.state_key(end)
    # a pass when the other player can still play does not end the game
    s = GAME.parse_state(full + ". 2 white_bomb n=40")
    after = GAME.apply(s, GAME.legal_moves(s)[0])
    assert after.result is None and after.passed and GAME.legal_moves(after)


def test_highest_level_decides_then_the_next_one_down():
    s = GAME.parse_state("WWWW/WWWW/BBBB/BBBB|WWW/BBW/BBB|WB/BB|W 2 passed n=40")
    assert s.result.winners == (0,) and "apex" in s.result.reason
    s = GAME.parse_state("WWWW/WWWW/BBBB/BBBB|WWB/BBW/BBB|WB/BW|R 2 passed n=40")
    assert visible_counts(s.position)[:2] == ((0, 0), (2, 2))
    assert s.result.winners == (1,) and "level 1, 5 to 3" in s.result.reason
    assert GAME.winning_points(s) == s.position.black & 0x1FF0000 & ~s.position.hidden()


def test_bad_state_text_is_refused():
    for text in ("..../..../..../.WW.|.../.../...|../..|. 1 blast=c1",      # not a bomb
                 "..../..../..../RWW.|.../.../...|../..|. 1 white_bomb black_bomb",
                 "..../..../..../RWW.|.../.../...|../..|. 1 blast=a1 hit=g7",
                 "..../..../..../RWW.|.../.../...|../..|. 1 hit=c1",
                 "..../..../..../.WW.|.../.../...|../..|. 1 bombs"):
        with pytest.raises(NotationError):
            GAME.parse_state(text)


def test_symmetry_and_state_text_round_trip_along_random_games():
    for seed in range(15):
        for steps in (5, 20, 40):
            s = random_walk(GAME, seed, steps)
            for image in check_symmetries(GAME, s):
                again = GAME.parse_state(GAME.state_text(image))
                assert GAME.state_key(again) == GAME.state_key(image)


# -- the start, checked by computation (see the rules notes) -----------------

def test_the_start_is_fair_under_random_play():
    rng = random.Random(7)
    wins = [0, 0]
    for _ in range(400):
        result = GAME.random_playout(GAME.initial_state(), rng).result
        for w in result.winners:
            wins[w] += 1
    assert 0.42 < wins[0] / 400 < 0.58 and 0.42 < wins[1] / 400 < 0.58


@pytest.mark.slow
def test_the_start_is_not_lost_for_either_side_under_mcts():
    from shibumi.players import MCTSPlayer
    wins = [0, 0]
    for seed in range(12):
        s = GAME.initial_state()
        players = [MCTSPlayer(iterations=150, seed=seed), MCTSPlayer(iterations=150,
                                                                    seed=seed + 100)]
        while not GAME.is_terminal(s):
            s = GAME.apply(s, players[s.to_move].choose(GAME, s, s.to_move))
        for w in s.result.winners:
            wins[w] += 1
    assert wins[0] >= 3 and wins[1] >= 3


# -- perft, cross-checked by an independent brute force ---------------------
#
# The rules again on reference.py's dict of points: placements touching one's
# own colour (16 balls a colour), a bomb anywhere once, the blast removing the
# unpinned balls it touched when it landed, drops, the bomb's fall, passes.

COLOUR = "WB"


def _pinned(board, q):
    return sum(a in board for a in ABOVE[q]) > 1


def _touched(board, pt):
    return {q for q in board if touch(pt, q)}


def _moves(node):
    board, mover, bombs, blast, hit, passed, lost = node
    if blast is not None:
        return [("x", q) for q in sorted(hit) if q in board and not _pinned(board, q)]
    mine = COLOUR[mover]
    moves = []
    if sum(c == mine for c in board.values()) + lost[mover] < 16:
        moves += [("p", q) for q in open_points(board)
                  if any(board[r] == mine for r in _touched(board, q))]
    if bombs[mover]:
        moves += [("R", q) for q in open_points(board)]
    return moves or [("pass", None)]


def _end_blast(node):
    board, mover, bombs, blast, hit, passed, lost = node
    if any(q in board and not _pinned(board, q) for q in hit):
        return node
    return (board, 1 - mover, bombs, None, frozenset(), False, lost)


def _play(node, move):
    board, mover, bombs, blast, hit, passed, lost = node
    kind, q = move
    if kind == "pass":
        return (board, 1 - mover, bombs, None, frozenset(), True, lost)
    board = dict(board)
    if kind == "p":
        board[q] = COLOUR[mover]
        return (board, 1 - mover, bombs, None, frozenset(), False, lost)
    if kind == "R":
        board[q] = "R"
        bombs = tuple(b and p != mover for p, b in enumerate(bombs))
        return _end_blast((board, mover, bombs, q, frozenset(_touched(board, q)), False,
                           lost))
    gap, hit = q, set(hit) - {q}
    lost = tuple(n + (board[q] == COLOUR[p]) for p, n in enumerate(lost))   # gone for good
    del board[q]
    while True:
        above = [a for a in ABOVE[gap] if a in board]
        if not above:
            break
        (a,) = above
        board[gap] = board.pop(a)
        if a == blast:
            blast = gap
            hit = _touched(board, blast)
        gap = a
    return _end_blast((board, mover, bombs, blast, frozenset(hit), False, lost))


def _over(node):
    board, mover, bombs, blast, hit, passed, lost = node
    return passed and blast is None and _moves(node) == [("pass", None)]


def _brute(node, depth):
    if depth == 0:
        return 1
    if _over(node):
        return 0
    return sum(_brute(_play(node, mv), depth - 1) for mv in _moves(node))


def _node(state):
    return (cells_of(state.position), state.to_move, state.bombs, _pt(state.blast),
            frozenset(_pt(p) for p in range(30) if state.hit >> p & 1), state.passed,
            state.lost)


def _pt(p):
    if p is None:
        return None
    from shibumi.geometry import COORDS
    return COORDS[p]


PERFT = [16, 128, 704, 3744]
FROM_BUILD = [7, 27, 83, 225]


def test_perft_against_an_independent_brute_force():
    assert [perft(GAME, d) for d in range(1, 5)] == PERFT
    start = _node(GAME.initial_state())
    assert [_brute(start, d) for d in range(1, 5)] == PERFT
    assert PERFT[0] == 4 + 12              # a1 c3 e3 g1 touch White's balls; the bomb: any hole
    built = GAME.new_match(record=BUILD).state
    assert [perft(GAME, d, built) for d in range(1, 5)] == FROM_BUILD
    assert [_brute(_node(built), d) for d in range(1, 5)] == FROM_BUILD


def test_blasts_against_the_brute_force_along_random_games():
    rng = random.Random(3)
    checked = 0
    for _ in range(40):
        s = GAME.initial_state()
        while not GAME.is_terminal(s):
            node = _node(s)
            assert len(_moves(node)) == len(GAME.legal_moves(s))
            checked += s.blast is not None
            s = GAME.apply(s, rng.choice(GAME.legal_moves(s)))
        assert _over(_node(s)) or s.passed
    assert checked > 20 and below((0, 0, 0)) == []


def test_every_legal_move_is_played_by_clicks():
    from shibumi.interaction import Table
    for record in (BUILD, FINAL):
        t = Table(GAME, seats="human", record=record)
        rng = random.Random(4)
        for _ in range(12):
            if t.match.is_over():
                break
            legal = t.match.legal_moves()
            for move in legal:
                if move.point is None:
                    played = t.choose(move)
                else:
                    played = t.click(move.point)
                    if played is None:           # a white ball or the bomb here
                        options = t.options()
                        assert move in options, (move, t.message)
                        played = t.choose(options.index(move))
                assert played == move, (move, t.message)
                t.undo()
            t.choose(rng.choice(legal))
