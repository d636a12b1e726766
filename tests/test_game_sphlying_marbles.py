"""Sphlying Marbles: a random full pyramid; each player captures the next one's balls."""
import random

import pytest

from conformance import check_playouts, check_symmetries
from shibumi import CHANCE, IllegalMoveError, Move, NotationError, load
from shibumi.analysis import perft
from shibumi.game import Game
from shibumi.games.sphlying_marbles import DRAWS, MAX_LENGTH, next_deal_point
from shibumi.geometry import point_at
from shibumi.notation import parse_point, point_name
from shibumi.position import BLACK, RED, WHITE
from reference import ABOVE, ALL, cells_of

GAME = load("sphlying marbles")
#: A full pyramid with White on the apex; White can only drop onto c5.2 or e5.2.
BOOK = "WRWR/BWRB/WRBW/BWRB|BWR/WRB/RBW|RR/BB|W 1"


def state(text):
    """A state from its text; ``actions=`` defaults to the balls captured so far."""
    if "actions=" not in text:
        balls = sum(ch in "WBR" for ch in text.split()[0])
        if balls < 30:
            text += f" actions={30 - balls}"
    return GAME.parse_state(text)


def texts(moves):
    return sorted(m.text() for m in moves)


def deal(letters):
    """The state after dealing these 30 colours, one per point in deal order."""
    s = GAME.initial_state()
    for letter in letters:
        assert GAME.current_player(s) == CHANCE
        s = GAME.apply(s, Move("=" + letter))
    return s


def walk(seed, steps):
    """A state after the deal and up to ``steps`` random actions."""
    rng = random.Random(seed)
    s = GAME.initial_state()
    while GAME.current_player(s) == CHANCE:
        s = GAME.random_step(s, rng)
    for _ in range(steps):
        if GAME.is_terminal(s):
            break
        s = GAME.random_step(s, rng)
    return s


def test_conformance():
    check_playouts("sphlying_marbles", games=200)
    for seed in range(12):
        check_symmetries(GAME, walk(seed, seed % 7))


def test_declaration():
    info = GAME.info
    assert (info.name, info.designer, info.year, info.family) == \
        ("Sphlying Marbles", "Néstor Romeral Andrés", "2016", "Capture")
    assert (info.min_players, info.max_players, info.chance) == (3, 3, True)
    assert load("sphlying marbles").info is info
    assert MAX_LENGTH == info.max_length == 29 + 2 * 28
    assert [GAME.player_name(p) for p in range(3)] == ["White", "Red", "Black"]


# -- the deal ------------------------------------------------------------------------

def test_the_deal_fills_the_pyramid_from_the_board_up_by_the_share_of_each_colour():
    s = GAME.initial_state()
    assert GAME.current_player(s) == CHANCE and GAME.legal_moves(s) == []
    assert GAME.chance_outcomes(s) == [(DRAWS[WHITE], 1 / 3), (DRAWS[RED], 1 / 3),
                                       (DRAWS[BLACK], 1 / 3)]
    for _ in range(10):
        s = GAME.apply(s, DRAWS[WHITE])
    assert s.position.white == (1 << 10) - 1                 # points 0-9, the board first
    assert GAME.chance_outcomes(s) == [(DRAWS[RED], 0.5), (DRAWS[BLACK], 0.5)]
    assert next_deal_point(s.position.occupied) == 10
    assert GAME.state_text(s).endswith(" 1 deal")
    assert GAME.state_key(GAME.parse_state(GAME.state_text(s))) == GAME.state_key(s)


def test_the_apex_colour_moves_first():
    for seed in range(30):
        m = GAME.new_match(seed=seed)
        pos = m.state.position
        assert pos.occupied.bit_count() == 30
        assert (pos.count(WHITE), pos.count(RED), pos.count(BLACK)) == (10, 10, 10)
        assert (WHITE, RED, BLACK)[m.current_player] == pos.colour_at(29)
        assert m.legal_moves() != [Move("pass")]


def test_no_first_capture_means_a_new_pyramid():
    # All ten reds sit on the board, off its corners: White on the apex has no prey
    # it can reach, so the pyramid is built again (though Red may have a capture).
    board = "W" + "RR" + "B" + "RRRR" + "RRRR" + "W" + "RW" + "B"
    s = deal(board + "WBWBWBWBWBWBB" + "W")
    assert GAME.current_player(s) == CHANCE and s.position.count() == 0
    assert s.last == DRAWS[WHITE]
    # The same pyramid with a red ball on level 2 is played.
    s = deal(board.replace("RW", "WW", 1) + "WBWBWBWBWBWBR" + "B")
    assert GAME.current_player(s) == 2 and GAME.legal_moves(s)


def test_the_fast_playout_deals_again_as_the_rules_do():
    # Seeds whose first deal leaves the apex colour without a capture.
    for seed in (102, 170, 207, 279, 309):
        start = GAME.initial_state()
        fast = GAME.random_playout(start, random.Random(seed))
        assert fast == Game.random_playout(GAME, start, random.Random(seed))


def test_a_match_deals_again_until_a_first_capture_exists():
    redeals = 0
    for seed in range(200):
        m = GAME.new_match(seed=seed)
        draws = [mv for mv, _ in m.history]
        assert len(draws) % 30 == 0 and all(mv.kind == "choose" for mv in draws)
        redeals += len(draws) > 30
        assert GAME.captures(m.state.position, m.current_player)
    assert redeals < 20                  # rare, as the notes say


# -- captures ------------------------------------------------------------------------

def test_the_book_examples_white_drops_then_red_steps_sideways():
    s = state(BOOK)
    assert texts(GAME.legal_moves(s)) == ["d4.3>c5.2", "d4.3>e5.2"]
    s = GAME.apply(s, Move("d4.3>e5.2"))           # White drops onto the red ball below
    assert s.position.text() == "WRWR/BWRB/WRBW/BWRB|BWR/WRB/RBW|RW/BB|."
    assert (s.position.count(WHITE), s.position.count(RED)) == (10, 9)
    assert texts(GAME.legal_moves(s)) == ["b2>a1", "c5.2>b6", "c5.2>c3.2"]
    s = GAME.apply(s, Move("c5.2>c3.2"))           # Red takes the free black ball beside
    assert s.position.text() == "WRWR/BWRB/WRBW/BWRB|BWR/WRB/RBW|.W/RB|."
    assert s.position.count(BLACK) == 9 and GAME.player_name(s.to_move) == "Black"


def test_each_player_captures_only_the_next_colour():
    pos = "..../..../..../WRB.|.../.../...|../..|."
    # a1 W, c1 R, e1 B: White takes red, Red takes black, Black takes nothing beside.
    for player, expected in ((1, ["a1>c1"]), (2, ["c1>e1"]), (3, ["pass"])):
        s = GAME.parse_state(f"{pos} {player} actions=27")
        assert texts(GAME.legal_moves(s)) == expected


def test_a_downward_capture_drops_the_whole_column():
    # f2 (white) rests on g1 (red) and carries e3.2, which carries the apex.
    s = state("RBWR/BWRB/WRBW/BWRR|BWR/WRB/RBW|WR/BB|W 1")
    assert "f2>g1" in texts(GAME.legal_moves(s))
    after = GAME.apply(s, Move("f2>g1")).position
    assert after.colour_at(parse_point("g1")) == WHITE
    assert after.colour_at(parse_point("f2")) == BLACK            # e3.2 fell into f2
    assert after.colour_at(parse_point("e3.2")) == WHITE          # the apex fell into e3.2
    assert after.colour_at(29) == 0 and after.count() == 29


def test_a_ball_under_two_balls_cannot_be_captured_from_above():
    # b2 (white) rests on a red a1 that carries nothing else; d2 (white) rests on a
    # red c1 that also carries b2: c1 is pinned, so d2 cannot drop onto it.
    s = state("..../..../BBB./RRB.|.../.../WW.|../..|. 1")
    assert texts(GAME.legal_moves(s)) == ["b2>a1"]


def test_a_capture_from_above_needs_the_capturers_ball_alone_on_the_prey():
    # Red a1 carries only a black b2: White has no drop onto it, and the white a3
    # beside it is no help, as a1 is not free. Black may still drop b2 onto a3.
    s = state("..../..../WB../RB..|.../.../B..|../..|. 1")
    assert GAME.legal_moves(s) == [Move("pass")]
    assert texts(GAME.captures(s.position, 2)) == ["b2>a3"]


def test_sideways_the_prey_must_be_free_and_touch_the_capturer_on_its_level():
    s = state("..../..../.R../WR..|.../.../...|../..|. 1")
    assert texts(GAME.legal_moves(s)) == ["a1>c1"]          # c3 is a diagonal neighbour
    s = state("BB../BB../.R../W...|.../.../...|../..|. 1")
    assert GAME.legal_moves(s) == [Move("pass")]
    s = state("RW../WW../W.../R...|.../.../...|../..|. 1")
    assert texts(GAME.legal_moves(s)) == ["a3>a1", "a5>a7", "c7>a7"]


def test_a_pinned_ball_cannot_capture_but_a_ball_carrying_one_can():
    # c3 (white) carries b2 and d2: pinned, it cannot take the free red c5.
    pinned = "..../.R../WWW./WWW.|.../.../BB.|../..|. 1"
    assert GAME.legal_moves(state(pinned)) == [Move("pass")]
    # With only b2 on it, c3 may take c5, and b2 falls into c3.
    s = state("..../.R../WWW./WWW.|.../.../B..|../..|. 1")
    assert texts(GAME.legal_moves(s)) == ["c3.0>c5.0"]
    after = GAME.apply(s, Move("c3.0>c5.0")).position
    assert after.text() == "..../.W../WBW./WWW.|.../.../...|../..|."


def test_captures_match_the_rules_on_random_boards():
    for seed in range(60):
        s = walk(seed, seed % 25)
        if GAME.is_terminal(s):
            continue
        cells = cells_of(s.position)
        found = _ref_captures(cells, s.to_move)
        assert texts(GAME.captures(s.position, s.to_move)) == \
            sorted(_name(p) + ">" + _name(q) for p, q in found)


# -- passes and the end ----------------------------------------------------------------

def test_a_player_without_a_capture_must_pass_and_may_play_later():
    s = state("..../..../..../WRB.|.../.../...|../..|. 3")
    assert GAME.legal_moves(s) == [Move("pass")]
    m = GAME.new_match(state=s)
    with pytest.raises(IllegalMoveError):
        m.push("e1>c1")
    m.push("pass")                                    # Black passes; White captures
    assert m.legal_moves() == [Move("a1>c1")]
    m.push("a1>c1")
    assert m.legal_moves() == [Move("pass")]          # Red has no ball left
    m.push("pass")
    m.push("e1>c1")                                   # Black takes White's last ball
    assert m.is_over()
    out = m.outcome()
    assert out.winners == (2,) and out.scores == (0.0, 0.0, 1.0)
    assert out.ranking == ((2,), (0, 1))


def test_the_game_ends_when_nobody_can_capture_and_most_balls_wins():
    s = state("...R/..B./..../WW..|.../.../...|../..|. 1")
    assert GAME.is_terminal(s) and GAME.legal_moves(s) == []
    out = GAME.outcome(s)
    assert out.winners == (0,) and out.scores == (2.0, 1.0, 1.0)
    assert GAME.winning_points(s) == s.position.white
    assert "balls left" in out.reason


def test_players_tied_for_the_most_share_the_win():
    s = state("...R/..../..B./W...|.../.../...|../..|. 2")
    out = GAME.outcome(s)
    assert out.winners == (0, 1, 2) and out.returns(3) == (1 / 3, 1 / 3, 1 / 3)
    s = state("...R/...R/..B./W..W|.../.../...|../..|. 2")
    assert GAME.outcome(s).winners == (0, 1)


def test_status_lines_speak_of_balls_left_and_a_forced_pass():
    s = state("..../..../..../WRB.|.../.../...|../..|. 3")
    lines = GAME.status_lines(s)
    assert lines[0] == "Balls left: White 1, Red 1, Black 1."
    assert lines[-1] == "Black has no capture and must pass."
    assert "Building the pyramid" in GAME.status_lines(GAME.initial_state())[0]


def test_random_games_end_within_the_bound_with_nobody_able_to_capture():
    longest = 0
    for seed in range(100):
        s = walk(seed, 1000)
        assert GAME.is_terminal(s)
        assert not any(GAME.captures(s.position, p) for p in range(3))
        longest = max(longest, GAME.length(s))
    assert longest <= MAX_LENGTH


# -- bad input ------------------------------------------------------------------------

def test_illegal_moves_raise_and_leave_the_state_alone():
    m = GAME.new_match(state=state(BOOK))
    before = m.state
    for bad in ("c5.2>d4.3", "pass", "d4.3>c3.2", "Wa1", "=W", "zz"):
        with pytest.raises((IllegalMoveError, NotationError)):
            m.push(bad)
        assert m.state == before


def test_bad_states_are_refused():
    for bad in (BOOK.replace("|W 1", "|W 2"),                 # the apex colour starts
                "WWWW/WWWW/WWWW/..../|.../.../...|../..|. 1",
                "WWWW/WWWW/WWW./....|.../.../...|../..|. 1",  # 11 white
                "..../..../..../WR..|.../.../...|../..|. 1",   # actions too few
                "..../..../..../WR..|.../.../...|../..|. 2 deal actions=3",
                "..../..../..../WR..|.../.../...|../..|. 1 actions=28 extra"):
        with pytest.raises(NotationError):
            GAME.parse_state(bad)


# -- perft, cross-checked by an independent brute force ---------------------------------
#
# The rules written again on the dict-of-points model (no engine code): colours by
# player, pinned = two or more balls resting on a ball, drops column by column.

_OWN = "WRB"


def _carried(cells, pt):
    return [q for q in ABOVE[pt] if q in cells]


def _drop_column(cells, gap):
    """Let the ball resting on the empty point ``gap`` fall into it, and so on up."""
    while True:
        above = _carried(cells, gap)
        if not above:
            return
        (q,) = above
        cells[gap] = cells.pop(q)
        gap = q


def _ref_captures(cells, player):
    own, prey = _OWN[player], _OWN[(player + 1) % 3]
    found = []
    for q, colour in cells.items():
        if colour != prey:
            continue
        above = _carried(cells, q)
        if len(above) == 1 and cells[above[0]] == own:
            found.append((above[0], q))
        if above:
            continue
        lv, x, y = q
        for p in ((lv, x + 1, y), (lv, x - 1, y), (lv, x, y + 1), (lv, x, y - 1)):
            if cells.get(p) == own and len(_carried(cells, p)) <= 1:
                found.append((p, q))
    return found


def _ref_after(cells, p, q):
    new = dict(cells)
    del new[q]                                # the captured ball leaves the game
    if q[0] == p[0] - 1:                      # from above: the column falls
        _drop_column(new, q)
    else:                                     # beside: lift p, then set it on q
        mine = new.pop(p)
        _drop_column(new, p)
        new[q] = mine
    return new


def _ref_perft(cells, player, depth):
    if depth == 0:
        return 1
    if not any(_ref_captures(cells, k) for k in range(3)):
        return 0
    moves = _ref_captures(cells, player)
    if not moves:
        return _ref_perft(cells, (player + 1) % 3, depth - 1)        # the forced pass
    return sum(_ref_perft(_ref_after(cells, p, q), (player + 1) % 3, depth - 1)
               for p, q in moves)


def _name(pt):
    """The engine's name of a reference point (naming only, no rules)."""
    return point_name(point_at(*pt))


#: Perft from the pyramids that Match(seed=s) deals, depths 1-7.
PERFT = {1: [2, 2, 6, 7, 7, 17, 24], 2: [3, 4, 4, 11, 31, 46, 179],
         3: [2, 3, 6, 7, 9, 32, 66]}


def test_perft_matches_an_independent_brute_force():
    assert len(ALL) == 30
    for seed, golden in PERFT.items():
        s = GAME.new_match(seed=seed).state
        assert [perft(GAME, d, s) for d in range(1, 8)] == golden
        cells = cells_of(s.position)
        assert [_ref_perft(cells, s.to_move, d) for d in range(1, 8)] == golden
    for seed in (4, 5, 6, 7):
        s = walk(seed, 3 + seed)
        if GAME.is_terminal(s):
            continue
        cells = cells_of(s.position)
        assert [perft(GAME, d, s) for d in range(1, 7)] == \
            [_ref_perft(cells, s.to_move, d) for d in range(1, 7)]


def test_perft_from_the_start_counts_the_deal():
    # The first three actions are draws of the deal: three colours each time.
    assert [perft(GAME, d) for d in range(1, 4)] == [3, 9, 27]


# -- playing by clicks ---------------------------------------------------------------------

def test_every_capture_is_played_by_two_clicks():
    from shibumi.interaction import Table
    t = Table("sphlying_marbles", seats="human", seed=1)
    for step in range(12):
        if t.match.is_over():
            break
        legal = t.match.legal_moves()
        for move in legal:
            if move.kind == "pass":
                continue
            first = t.click(move.point)
            played = first if first is not None else t.click(move.target)
            assert played == move, (move, t.message)
            t.undo()
        t.choose(legal[step % len(legal)])
    assert step > 5
