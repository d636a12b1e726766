"""Spout: a race to place all your balls; friendly platforms give bonus balls."""
import random

import pytest

import shibumi.games.spout  # noqa: F401  (registers the game)
from conformance import (check_playouts, check_random_games, check_symmetries,
                         random_walk)
from shibumi import IllegalMoveError, NotationError, UnknownGameError, load
from shibumi.analysis import perft
from shibumi.bits import playable_of, points_in, raised
from shibumi.games.spout import bonus_points, earned
from shibumi.position import BLACK, RED, WHITE
from reference import ABOVE as _ABOVE, ALL as _ALL, below as _below, cells_of as _cells


def state(text, to_move=1, extras="", players=2):
    return load("spout", players=players).parse_state(f"{text} {to_move} {extras}".strip())


def match_at(text, to_move=1, extras="", players=2):
    return load("spout", players=players).new_match(
        state=state(text, to_move, extras, players))


def legal(m):
    return sorted(mv.text() for mv in m.legal_moves())


def test_conformance():
    check_random_games("spout", seeds=range(20))
    check_random_games("spout", seeds=range(20), players=3)


def test_the_fast_playout_plays_the_rules_games():
    check_playouts("spout", games=400)
    check_playouts("spout", games=400, players=3)


def test_earned_bonuses_on_masks_match_the_point_by_point_count():
    # ``earned`` (what the playout and apply use) against ``bonus_points`` on the
    # position after the ball, for every playable point, colour and threshold.
    checked = 0
    for players in (2, 3):
        game = load("spout", players=players)
        for seed in range(40):
            s = random_walk(game, seed, seed % 28)
            occupied = s.position.occupied
            for p in points_in(playable_of(occupied)):
                for colour in (WHITE, BLACK, RED):
                    after = s.position.place(p, colour)
                    for friendly in (2, 3):
                        fast = earned(raised(occupied, p), after.mask(colour), friendly)
                        assert fast == bonus_points(after, p, colour, friendly)
                        checked += bool(fast)
    assert checked > 50


def test_symmetries_keep_moves_and_results():
    for players in (2, 3):
        game = load("spout", players=players)
        for seed in range(10):
            check_symmetries(game, random_walk(game, seed, 2 * seed + 5), range(8))


def test_supplies_and_turn_order():
    two, three = load("spout"), load("spout", players=3)
    assert two.initial_state().supply == (15, 15)
    assert three.initial_state().supply == (10, 10, 10)
    m = three.new_match()
    for name, colour in zip(("a1", "g7", "a7"), (WHITE, BLACK, RED)):
        assert {mv.colour for mv in m.legal_moves()} == {colour}
        m.push(name)
    assert m.current_player == 0
    with pytest.raises(UnknownGameError):
        load("spout", players=4)


# -- bonus balls ---------------------------------------------------------------------

def test_three_of_your_balls_on_a_platform_you_complete_earn_a_bonus_on_it():
    m = match_at("..../..../WB../.W..|.../.../...|../..|.", 1, "p1=13 p2=14")
    m.push("a1")
    assert m.current_player == 0 and legal(m) == ["Wb2"]   # W a1 c1 a3, B c3
    with pytest.raises(IllegalMoveError):
        m.push("g7")                                         # the bonus comes first
    m.push("b2")
    assert m.current_player == 1 and m.state.supply == (11, 14)


def test_two_of_your_balls_are_not_enough_with_two_players_but_are_with_three():
    text = "..../..../BR../.W..|.../.../...|../..|."
    two = match_at(text.replace("R", "B"), 1, "p1=14 p2=13")
    two.push("a1")
    assert two.current_player == 1                          # no bonus
    three = match_at(text, 1, "p1=9 p2=9 p3=9", players=3)
    three.push("a1")
    assert three.current_player == 0 and legal(three) == ["Wb2"]


def test_only_the_player_who_completes_a_platform_can_earn_its_bonus():
    # Three white balls, and Black fills the fourth place: no bonus for anyone,
    # and b2 is an ordinary point for White (the two-player example's block).
    m = match_at("..../..../W.../WW..|.../.../...|../..|.", 2, "p1=12 p2=15")
    m.push("c3")
    assert m.current_player == 0 and m.state.owed == 0
    assert "Wb2" in legal(m) and len(legal(m)) > 1


def test_a_bonus_ball_can_earn_another_bonus():
    text = "..../BBW./WBB./.WB.|.../WB./.W.|../..|."
    m = match_at(text, 1, "p1=10 p2=9")
    m.push("a1")
    assert legal(m) == ["Wb2"]
    m.push("b2")                          # b2 d2 b4 white, d4 black: level 2 is White's
    assert m.current_player == 0 and legal(m) == ["Wc3.2"]
    m.push("c3.2")
    assert m.current_player == 1 and m.state.supply == (7, 9)


def test_one_ball_can_earn_two_bonuses_placed_in_any_order():
    m = match_at("..../..../WBW./W.W.|.../.../...|../..|.", 1, "p1=11 p2=14")
    m.push("c1")
    assert legal(m) == ["Wb2", "Wd2"]
    m.push("d2")
    assert legal(m) == ["Wb2"] and m.current_player == 0
    m.push("b2")
    assert m.current_player == 1
    status = load("spout").status_lines(m.state)
    assert status == ["Balls still to place: White 8, Black 14."]


def test_the_owed_bonuses_are_shown_and_kept_in_the_state_text():
    m = match_at("..../..../WBW./W.W.|.../.../...|../..|.", 1, "p1=11 p2=14")
    m.push("c1")
    game = m.game
    assert game.status_lines(m.state)[1] == "White owes 2 bonus balls on b2 d2."
    text = game.state_text(m.state)
    assert text.endswith("owed=b2,d2")
    assert game.state_key(game.parse_state(text)) == game.state_key(m.state)


# -- the end ---------------------------------------------------------------------------

def test_placing_your_last_ball_wins_at_once_even_with_a_bonus_owed():
    text = "BBBB/WWWB/WWWW/WWWW|.../WW./.W.|../..|."
    m = match_at(text, 1, "p1=1 p2=10")
    m.push("b2")                         # would earn c3.2, but White has no ball left
    assert m.is_over() and m.outcome().winners == (0,)
    assert m.outcome().scores == (0.0, 10.0)


def test_the_three_player_ranking_follows_the_balls_left():
    # A won three-player game: Black placed all ten balls (as in the lost figure).
    game = load("spout", players=3)
    for seed in range(200):
        s = game.random_playout(game.initial_state(), random.Random(seed))
        if s.result.winners == (1,):
            break
    assert s.supply[1] == 0 and s.result.ranking[0] == (1,)
    left = [s.supply[p] for group in s.result.ranking[1:] for p in group]
    assert left == sorted(left) and 0 not in left


def test_games_end_by_the_29th_ball_with_two_players_and_the_28th_with_three():
    for players, bound in ((2, 29), (3, 28)):
        game = load("spout", players=players)
        assert game.info.max_length == 29
        longest = max(game.length(game.random_playout(game.initial_state(),
                                                      random.Random(s)))
                      for s in range(300))
        assert longest <= bound


# -- bad input -------------------------------------------------------------------------

def test_illegal_moves_are_refused_and_change_nothing():
    m = load("spout").new_match()
    m.push("a1")
    before = m.state
    for bad in ("Wc1", "a1", "b2", "xa1", "pass", "Rc1"):
        with pytest.raises((IllegalMoveError, NotationError)):
            m.push(bad)
        assert m.state == before


@pytest.mark.parametrize("text", [
    "..../..../..../W...|.../.../...|../..|. 2 p1=15 p2=15",     # 16 white balls
    "..../..../..../R...|.../.../...|../..|. 2 p1=15 p2=15",     # no red with two
    "..../..../..../....|.../.../...|../..|. 1 p1=15 p2=15 owed=a1",
    "..../..../..../....|.../.../...|../..|. 1 p1=15 p2=15 owed=b2",
    "..../..../..../....|.../.../...|../..|. 1 p1=15 p2=15 owed=zz",
    "..../..../..../....|.../.../...|../..|. 1 p1=15 p2=15 colour=3",
])
def test_bad_states_are_refused(text):
    with pytest.raises(NotationError):
        load("spout").parse_state(text)


# -- perft, cross-checked by an independent brute force --------------------------------
#
# The rules again on reference.py's dict of points, sharing no code with the engine.

LETTERS = "WBR"


def _kids(board, mover, supply, owed, players):
    friendly = 3 if players == 2 else 2
    mine = LETTERS[mover]
    spots = owed or [p for p in _ALL if p not in board
                     and all(b in board for b in _below(p))]
    for p in spots:
        new = {**board, p: mine}
        left = list(supply)
        left[mover] -= 1
        due = [q for q in owed if q != p]
        for q in _ABOVE[p]:
            sup = _below(q)
            if q not in new and all(b in new for b in sup) \
                    and sum(new[b] == mine for b in sup) >= friendly:
                due.append(q)
        if left[mover] == 0:
            yield new, mover, left, [], True
        elif due:
            yield new, mover, left, due, False
        else:
            yield new, (mover + 1) % players, left, [], False


def _brute(board, mover, supply, owed, players, depth):
    if depth == 0:
        return 1
    total = 0
    for new, nxt, left, due, over in _kids(board, mover, supply, owed, players):
        total += 1 if depth == 1 else (0 if over else
                                       _brute(new, nxt, left, due, players, depth - 1))
    return total


# Depth 5 tells the player counts apart: with three players White's second
# ball can complete a platform of two white balls and earn a bonus.
PERFT = {2: [16, 240, 3360, 43680, 524376], 3: [16, 240, 3360, 43680, 521784]}


def test_perft_from_the_start_matches_the_brute_force():
    for players in (2, 3):
        game = load("spout", players=players)
        counts = [perft(game, d) for d in range(1, 5)]
        assert counts == PERFT[players][:4]
        start = (15, 15) if players == 2 else (10, 10, 10)
        assert counts == [_brute({}, 0, start, [], players, d) for d in range(1, 5)]


@pytest.mark.slow
def test_perft_depth_five_tells_the_player_counts_apart():
    for players in (2, 3):
        assert perft(load("spout", players=players), 5) == PERFT[players][4]


def _positions():
    out = []
    for players, seed, steps in ((2, 1, 8), (2, 2, 14), (2, 3, 20), (3, 4, 9), (3, 5, 16)):
        game = load("spout", players=players)
        s = random_walk(game, seed, steps)
        owed = [q for q in _ALL if s.owed >> _index(q) & 1]
        out.append((game, s, (_cells(s.position), s.to_move, s.supply, owed, players)))
    return out


def _index(pt):
    lv, x, y = pt
    return (0, 16, 25, 29)[lv] + (4 - lv) * y + x


PERFT_RANDOM = [[8, 51, 274, 1371], [2, 2, 6, 14], [3, 7, 11, 20], [7, 39, 144, 439],
                [5, 17, 50, 104]]


def test_perft_from_random_positions_matches_the_brute_force():
    for (game, s, args), golden in zip(_positions(), PERFT_RANDOM):
        counts = [perft(game, d, s) for d in range(1, 5)]
        assert counts == [_brute(*args, d) for d in range(1, 5)]
        assert counts == golden
