"""Sphlag: place in your base or move a ball up to four steps; two balls at the enemy flag win."""
import random

import pytest

from conformance import (check_playouts, check_random_games, check_symmetries,
                         random_walk)
from shibumi import IllegalMoveError, Move, NotationError, load
from shibumi.analysis import perft
from shibumi.games.sphlag import (BASES, FLAG_CONTACTS, FLAGS, REACH, steps_between,
                                  touching_flag)
from shibumi.geometry import COORDS, SYMMETRIES
from shibumi.notation import parse_point
from shibumi.position import Position
from reference import ABOVE, ALL, below, cells_of, open_points, square, touch

GAME = load("sphlag")
BALANCED = load("sphlag", balanced=True)
EMPTY = "...R/.R../..R./R...|.../.../...|../..|."


def pts(*names):
    return {parse_point(n) for n in names}


def texts(moves):
    return sorted(m.text() for m in moves)


def moved(state, source):
    """Targets of the moves of the ball on ``source`` (names)."""
    p = parse_point(source)
    return sorted(m.text().split(">")[1] for m in GAME.legal_moves(state)
                  if m.kind == "move" and m.point == p)


def at(text, to_move=1, extra=""):
    return GAME.parse_state(f"{text} {to_move} ply=20 {extra}".strip())


def play(moves, game=GAME, start=None):
    m = game.new_match(state=start)
    for text in moves.split():
        m.push(text)
    return m


def test_conformance():
    check_random_games("sphlag", seeds=range(12))
    check_random_games("sphlag", seeds=range(3), balanced=True, turn_limit=40)
    for seed in range(10):
        check_symmetries(GAME, random_walk(GAME, seed, 4 * seed + 1))



def test_move_rooms_agree_with_lifting_the_ball_point_by_point():
    # move_rooms works out the playable points after a lift from those before;
    # here each ball is lifted with Position.remove and the playable points
    # recomputed from scratch, on positions met in random games.
    from shibumi.games.sphlag import move_rooms
    from shibumi.position import playable_mask
    checked = 0
    for seed in range(25):
        st = random_walk(GAME, seed, 10 + 3 * seed)
        pos = st.position
        masks = (pos.white, pos.black, pos.red)
        for player in (0, 1):
            expected = []
            own = masks[player]
            for source in range(30):
                if not own >> source & 1 or pos.is_pinned(source):
                    continue
                after, _ = pos.remove(source)
                room = playable_mask(after.occupied) & REACH[source]
                for target in range(30):
                    if room >> target & 1 and after.place(
                            target, (1, 2)[player]) == pos:     # no change: barred
                        room &= ~(1 << target)
                if room:
                    expected.append((source, room, (after.white, after.black, after.red)))
            assert move_rooms(masks, player) == expected
            checked += len(expected)
    assert checked > 100


def test_fast_playouts_play_the_rules_games_with_every_option():
    """random_playout on masks ends exactly where legal_moves and apply end."""
    check_playouts("sphlag", games=100, balanced=True)
    check_playouts("sphlag", games=100, turn_limit=40)


def reference_playout(game, state, rng):
    """The MCTS playout's policy through the rules' API: a move that puts a second
    ball at the enemy flag if there is one (drawn among those), else any legal turn."""
    while state.result is None:
        legal = game.legal_moves(state)
        winning = [m for m in legal if m.kind == "move" and touching_flag(
            _masks(game.apply(state, m)), state.to_move).bit_count() >= 2]
        if winning:
            return game.apply(state, winning[int(rng.random() * len(winning))])
        state = game.apply(state, legal[int(rng.random() * len(legal))])
    return state


def _masks(state):
    p = state.position
    return (p.white, p.black, p.red)


@pytest.mark.parametrize("params", [{}, {"balanced": True}, {"turn_limit": 40}])
def test_the_search_playout_plays_legal_turns(params):
    """The greedy playout the search runs takes only legal turns: it is the policy
    played through legal_moves and apply, draw for draw."""
    game = load("sphlag", **params)
    for seed in range(60):
        start = random_walk(game, seed, seed % 6 * 5)
        fast_rng, slow_rng = random.Random(seed), random.Random(seed)
        assert game.playout(start, fast_rng) == reference_playout(game, start, slow_rng)
        assert fast_rng.getstate() == slow_rng.getstate()


def test_declaration():
    info = GAME.info
    assert (info.name, info.designer, info.year) == ("Sphlag", "Lars Rose", "2011")
    assert info.source == "Annexe 2 of the French edition of the Shibumi Rule Book"
    assert (info.min_players, info.max_players, info.max_length) == (2, 2, 200)
    assert GAME.turn_limit == 150
    with pytest.raises(Exception):
        load("sphlag", turn_limit=201)


# -- the start (figure lost: inferred) ----------------------------------------------------

def test_the_start_flags_border_and_bases():
    s = GAME.initial_state()
    assert s.position.text() == EMPTY
    assert FLAGS == (parse_point("a1"), parse_point("g7"))
    assert {p for p in range(16) if BASES[0] >> p & 1} == pts("c1", "e1", "a3", "c3.0", "a5")
    assert {p for p in range(16) if BASES[1] >> p & 1} == pts("g3", "e5.0", "g5", "c7", "e7")
    # The border diagonal a7-g1 splits the board: each half is a flag and its base.
    for player, flag in enumerate(FLAGS):
        half = {p for p in range(16) if (COORDS[p][1] + COORDS[p][2] < 3) == (player == 0)
                and COORDS[p][1] + COORDS[p][2] != 3}
        assert half == {flag} | {p for p in range(16) if BASES[player] >> p & 1}
    assert texts(GAME.legal_moves(s)) == ["Wa3", "Wa5", "Wc1", "Wc3.0", "We1", "pass"]
    assert {p for p in range(30) if FLAG_CONTACTS[0] >> p & 1} == pts("c1", "a3", "b2")


def test_the_balanced_opening_variant():
    s = BALANCED.initial_state()
    assert texts(BALANCED.legal_moves(s)) == ["Wa3", "Wc1", "pass"]
    m = play("a3", game=BALANCED)
    assert len([x for x in m.legal_moves() if x.kind == "place"]) == 5      # Black is free
    m.push("e5")
    assert "Wa5" in texts(m.legal_moves())


# -- steps ---------------------------------------------------------------------------------

def test_steps_are_half_holes_along_files_and_ranks():
    d = lambda a, b: steps_between(parse_point(a), parse_point(b))  # noqa: E731
    assert d("a1", "c1") == 2           # a neighbouring hole
    assert d("a1", "b2") == 2           # onto a platform the ball belongs to
    assert d("a1", "d2") == 4           # a neighbouring platform
    assert d("g1", "f4") == 4           # one step left and three up
    assert d("g1", "c1") == 4           # four steps left
    assert d("a1", "c3.0") == 4 and d("a1", "e3.0") == 6 and d("b2", "d4.3") == 4
    assert REACH[parse_point("a1")] >> parse_point("e1") & 1
    assert not REACH[parse_point("a1")] >> parse_point("a1") & 1


def test_the_texts_white_example_four_left_or_one_left_three_up():
    # White's ball on g1; Black's g3, e5 and g5 with the red e3 make the platform f4.
    s = at("...R/.RBB/..RB/R..W|.../.../...|../..|.")
    targets = moved(s, "g1")
    assert "c1" in targets and "f4" in targets          # the two moves of the text
    assert targets == ["c1", "e1", "f4"]
    after = GAME.apply(s, Move("g1>f4"))
    assert after.position.text() == "...R/.RBB/..RB/R...|.../..W/...|../..|."


def test_the_texts_black_example_every_point_within_four_steps():
    # A black ball on level 1 (d2, on c1 e1 c3 e3) reaches every playable point
    # within four steps: the empty holes and the platform b2 completed by a3 a1 c1 c3.
    s = at("...R/.R../WWR./RWW.|.../.../.B.|../..|.", 2)
    assert moved(s, "d2") == ["b2", "e5.0", "g1", "g3"]
    for target in moved(s, "d2"):
        assert steps_between(parse_point("d2"), parse_point(target)) <= 4
    # Farther points are out of reach: a5 and c7 are 6 steps away, e7 is 8.
    assert steps_between(parse_point("d2"), parse_point("a5")) == 6


def test_onto_its_own_platform_after_the_drop():
    # White's c1 carries Black's d2: lifting c1 drops d2 into c1, and the white ball
    # takes d2 (2 steps). The rule against landing on a dropped ball is not applied.
    s = at("...R/.R../.WR./RWW.|.../.../.B.|../..|.")
    assert "d2" in moved(s, "c1")
    after = GAME.apply(s, Move("c1>d2"))
    assert after.position.text() == "...R/.R../.WR./RBW.|.../.../.W.|../..|."


def test_pinned_balls_reds_and_enemy_balls_do_not_move():
    # c3 carries b2 and d2: pinned.
    s = at("...R/.R../WWR./RWW.|.../.../WB.|../..|.")
    movers = {m.point for m in GAME.legal_moves(s) if m.kind == "move"}
    assert parse_point("c3.0") not in movers
    assert not movers & {parse_point(p) for p in ("a1", "e3.0", "c5.0", "g7")}
    assert parse_point("d2") not in movers                      # Black's
    assert parse_point("b2") in movers


def test_a_move_must_change_the_position():
    # White's c1 under White's d2: lifting c1 drops the white ball; putting it on d2
    # rebuilds the same position.
    s = at("...R/.R../.WR./RWW.|.../.../.W.|../..|.")
    assert "d2" not in moved(s, "c1")


# -- ko -------------------------------------------------------------------------------------

def test_ko_forbids_rebuilding_the_position_left_last_turn():
    start = GAME.parse_state("...R/.R../.WR./RBW.|.../.../.W.|../..|. 2 ply=10")
    m = play("c1>d2", start=start)                  # Black swaps under the white ball
    assert m.state.position.text() == "...R/.R../.WR./RWW.|.../.../.B.|../..|."
    assert "d2" not in moved(m.state, "c1")         # swapping back would rebuild the start
    m.push("a5")
    m.push("g5")
    assert "d2" in moved(m.state, "c1")             # two turns later it is allowed again
    assert GAME.state_text(m.state).split()[-1].startswith("previous=")


def test_ko_bars_only_the_swap_back():
    from shibumi.games.sphlag import move_options
    start = GAME.parse_state("...R/.R../.WR./RBW.|.../.../.W.|../..|. 2 ply=10")
    s = play("c1>d2", start=start).state
    masks = (s.position.white, s.position.black, s.position.red)
    assert len(move_options(masks, 0)) == len(GAME.moves(s)) + 1
    after = GAME.apply(s, Move("pass"))             # a pass is a turn: White's ko lapses
    assert after.previous == s.position


# -- the end ----------------------------------------------------------------------------------

def test_two_balls_at_the_enemy_flag_win_at_once():
    s = at("B.WR/.RW./..R./R...|.../.../...|../..|.")
    m = GAME.new_match(state=s)
    m.push("e5>g5")
    out = m.outcome()
    assert out.winners == (0,) and "two balls touching the enemy flag" in out.reason
    assert GAME.winning_points(m.state) == sum(1 << p for p in pts("e7", "g5", "g7"))


def test_a_drop_can_hand_the_win_to_the_opponent():
    # Black's a3 touches White's flag; Black's d2 rests on White's c1. White moves c1
    # away: d2 drops into c1, the second black ball against a1.
    s = at("...R/.R../BWR./RWW.|.../.../.B.|../..|.")
    after = GAME.apply(s, Move("c1>b2"))
    assert after.result is not None and after.result.winners == (1,)


def test_two_passes_end_the_game_and_the_count_decides():
    s = at("...R/.R.B/W.R./R...|.../.../...|../..|.")
    m = GAME.new_match(state=s)
    m.push("pass")
    assert "a pass now ends the game" in GAME.status_lines(m.state)[2]
    m.push("pass")
    out = m.outcome()
    # Neither touches the enemy flag; one ball each in play: a draw.
    assert out.is_draw and "both players passed" in out.reason


def test_the_count_more_at_the_flag_then_fewer_balls():
    touching = GAME.count(Position("..WR/.R../..RB/R...|.../.../...|../..|."), "x")
    assert touching.winners == (0,) and "more balls at the enemy flag" in touching.reason
    # One ball each at the enemy flag; White has 1 ball in play, Black 2: White wins.
    fewer = GAME.count(Position("..WR/.R../B.RB/R...|.../.../...|../..|."), "x")
    assert fewer.winners == (0,) and "fewer balls in play" in fewer.reason
    fewer = GAME.count(Position("W.WR/.R../B.R./R...|.../.../...|../..|."), "x")
    assert fewer.winners == (1,) and fewer.scores == (1.0, 1.0)
    assert GAME.count(Position("..WR/.R../B.R./R...|.../.../...|../..|."), "x").is_draw


def test_the_turn_limit_ends_the_game_scored():
    game = load("sphlag", turn_limit=3)
    m = game.new_match()
    for text in ("c3", "e5", "a3"):
        m.push(text)
    assert m.is_over() and "3 turns were played" in m.outcome().reason
    assert m.outcome().winners == (1,)                  # fewer balls in play


def test_a_player_with_sixteen_balls_cannot_place():
    # Sixteen white balls in play; White's base hole a5 is empty but out of bounds.
    s = GAME.parse_state("WWBR/.RWB/WWRB/RWWW|.WB/.WW/WWW|.W/.W|. 1 ply=40")
    assert s.position.count(1) == 16 and s.result is None
    legal = GAME.legal_moves(s)
    assert not [m for m in legal if m.kind == "place"] and Move("pass") in legal
    assert [m for m in legal if m.kind == "move"]
    with pytest.raises(NotationError):           # a seventeenth white ball
        GAME.parse_state("WWBR/WRWB/WWRB/RWWW|.WB/.WW/WWW|.W/.W|. 1 ply=40")


def test_bad_input_is_refused_and_changes_nothing():
    m = play("c3 e5")
    before = m.state
    for bad in ("e1>g1", "Wg3", "e5>e3", "a1>a3", "c3>g5", "c3>a7", "xa3", "c3>c3",
                "e3>e1", "Wd2"):
        with pytest.raises((IllegalMoveError, NotationError)):
            m.push(bad)
        assert m.state is before
    for bad in ("..../..../..../....|.../.../...|../..|. 1",          # no reds
                "...R/.R../..R./R..R|.../.../...|../..|. 1",          # a stray red
                f"{EMPTY} 1 ply=-1", f"{EMPTY} 1 passes=3", f"{EMPTY} 1 ply=201",
                f"{EMPTY} 1 previous=zz", f"{EMPTY} 1 colour=W",
                "...R/.R../..R./RW..|.../.../...|../..|. 1 ply=0"):   # a ball, no turn
        with pytest.raises(NotationError):
            GAME.parse_state(bad)


def test_status_lines():
    m = play("c3")
    lines = GAME.status_lines(m.state)
    assert lines[0] == "Balls touching the enemy flag (two win): White 0, Black 0."
    assert lines[1].startswith("Balls in play: White 1, Black 0")
    assert lines[-1] == "Turn 2 of 150."


def test_every_legal_move_is_played_by_clicks():
    from shibumi.interaction import Table
    t = Table("sphlag", seats="human", seed=1)
    rng = random.Random(5)
    for _ in range(20):
        legal = t.match.legal_moves()
        for move in legal:
            if move.point is None:
                assert t.choose(move) == move
            else:
                played = t.click(move.point)
                if played is None:
                    played = t.click(move.point if move.target is None else move.target)
                assert played == move, (move, t.message)
            t.undo()
        t.choose(rng.choice([x for x in legal if x.kind != "pass"] or legal))
        if t.match.is_over():
            break


# -- perft, cross-checked by an independent brute force ------------------------------------
#
# The rules again on the dict-of-points model: reds on a1 g7 c5 e3; a placement on an
# empty hole of one's half (x + y < 3 for White, > 3 for Black) while under 16 balls;
# a move lifts an own unpinned ball, drops the column above it, and puts it on an open
# point 1-4 half-hole steps away in the top view, changing the position and not
# rebuilding the position before the opponent's last turn; a pass. Two own balls
# touching the enemy flag end the game (the mover's first), as do two passes.

_FLAG = {"W": (0, 0, 0), "B": (0, 3, 3)}
_REDS = [(0, 0, 0), (0, 3, 3), (0, 1, 2), (0, 2, 1)]


def _base(player):
    colour = "WB"[player]
    return [p for p in ALL if p[0] == 0 and p not in _REDS
            and ((p[1] + p[2] < 3) if colour == "W" else (p[1] + p[2] > 3))]


def _wins(board, colour):
    enemy = _FLAG["B" if colour == "W" else "W"]
    return sum(1 for p, c in board.items() if c == colour and touch(p, enemy)) >= 2


def _ref_moves(board, previous, player):
    colour = "WB"[player]
    found = []
    if sum(1 for c in board.values() if c == colour) < 16:
        for p in _base(player):
            if p not in board:
                after = dict(board)
                after[p] = colour
                found.append(after)
    for p in sorted(board):
        if board[p] != colour or len([q for q in ABOVE[p] if q in board]) > 1:
            continue
        new = dict(board)
        del new[p]
        gap = p
        while True:
            above = [q for q in ABOVE[gap] if q in new]
            if not above:
                break
            new[gap] = new.pop(above[0])
            gap = above[0]
        (sx, sy) = square(p)
        for t in open_points(new):
            tx, ty = square(t)
            if 0 < abs(tx - sx) + abs(ty - sy) <= 4:
                after = dict(new)
                after[t] = colour
                if after != board and after != previous:
                    found.append(after)
    found.append(None)                      # the pass
    return found


def _ref_perft(board, previous, passes, player, depth):
    if depth == 0:
        return 1
    total = 0
    for after in _ref_moves(board, previous, player):
        if after is None:
            if passes + 1 >= 2:
                total += depth == 1
            else:
                total += _ref_perft(board, board, passes + 1, 1 - player, depth - 1)
            continue
        if _wins(after, "WB"[player]) or _wins(after, "WB"[1 - player]):
            total += depth == 1
            continue
        total += _ref_perft(after, board, 0, 1 - player, depth - 1)
    return total


def _ref_state(s):
    previous = None if s.previous is None else cells_of(s.previous)
    return cells_of(s.position), previous, s.passes, s.to_move


PERFT = [6, 36, 323, 2841]


def test_perft_matches_an_independent_brute_force():
    assert [perft(GAME, d) for d in range(1, 5)] == PERFT
    assert [_ref_perft(*_ref_state(GAME.initial_state()), d) for d in (1, 2, 3, 4)] == PERFT
    for seed, steps in ((1, 12), (2, 25), (3, 40), (4, 18), (5, 60), (6, 33)):
        s = random_walk(GAME, seed, steps)
        if GAME.is_terminal(s):
            continue
        assert [perft(GAME, d, s) for d in (1, 2, 3)] == \
            [_ref_perft(*_ref_state(s), d) for d in (1, 2, 3)], seed
    assert len(ALL) == 30 and below((1, 0, 0))[0] == (0, 0, 0)


def test_symmetry_carries_the_ko_position():
    start = GAME.parse_state("...R/.R../.WR./RBW.|.../.../.W.|../..|. 2 ply=10")
    s = play("c1>d2", start=start).state
    image = GAME.transform_state(s, SYMMETRIES[6])
    assert image.previous == s.previous.transform(SYMMETRIES[6])
    check_symmetries(GAME, s)
