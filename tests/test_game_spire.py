"""The rules of Spire, pinned down by positions."""
import random

import pytest

import shibumi.games.spire  # noqa: F401  (registers the game)
from conformance import check_playouts, check_random_games
from shibumi import IllegalMoveError, NotationError, load
from shibumi.analysis import perft
from shibumi.notation import PASS, parse_point
from shibumi.position import Position

EMPTY_UPPER = "|.../.../...|../..|."


def state(text, variant="book"):
    return load("spire", variant=variant).parse_state(text)


def match(text, variant="book"):
    game = load("spire", variant=variant)
    return game.new_match(state=game.parse_state(text))


def texts(m):
    return sorted(mv.text() for mv in m.legal_moves())


# -- turn structure -------------------------------------------------------------

def test_a_turn_is_one_own_ball_or_a_red_then_an_own_ball():
    m = load("spire").new_match()
    first = texts(m)
    assert len(first) == 32                      # 16 white + 16 red, no black
    assert all(t[0] in "WR" for t in first)
    m.push("Wa1")
    assert m.current_player == 1                 # one own ball ends the turn
    assert all(t[0] in "BR" for t in texts(m))
    m.push("Rc1")
    assert m.current_player == 1                 # after a red the same player goes on
    assert m.state.red_placed
    assert all(t[0] == "B" for t in texts(m))    # ... with their own colour only
    with pytest.raises(IllegalMoveError):
        m.push("Re1")                            # no second red
    with pytest.raises(IllegalMoveError):
        m.push("Wg1")                            # never the opponent's colour
    m.push("Be1")
    assert m.current_player == 0 and not m.state.red_placed
    assert m.game.length(m.state) == 3


def test_short_text_resolves_to_the_own_colour_only_when_unambiguous():
    m = load("spire").new_match()
    with pytest.raises(NotationError):
        m.push("a1")                              # white or red?
    m.push("Ra1")
    assert m.push("c1").text() == "Wc1"           # only the own colour is left


# -- the colour limit -------------------------------------------------------------

def test_two_of_a_colour_in_an_unfinished_square_close_its_other_points():
    # White on a1 and c3: the square a1 c1 a3 c3 is not complete, yet holds two whites.
    m = match("..../..../.W../W..." + EMPTY_UPPER + " 1 ply=2")
    legal = texts(m)
    for hole in ("c1", "a3"):
        assert "W" + hole not in legal
        assert "R" + hole in legal               # other colours may still go there
    assert "We1" in legal and "Wa5" in legal     # not in that square
    # c3 also lies in three other squares; their other holes stay open with one white.
    assert "We5.0" in legal


def test_three_in_a_square_is_never_reached_for_red_either():
    m = match("..../..../..../RR.." + EMPTY_UPPER + " 1 ply=2")
    legal = texts(m)
    assert "Ra3" not in legal and "Rc3" not in legal
    assert "Re3.0" in legal                        # square c1 e1 c3 e3 holds one red
    assert "Wa3" in legal


def test_no_stacking_on_a_platform_with_two_balls_of_the_colour():
    # Platform a1 c1 a3 c3 is W B W R: white may not go on b2, black and red may.
    m = match("..../..../WR../WB.." + EMPTY_UPPER + " 1 ply=4")
    assert "Wb2" not in texts(m)
    assert "Rb2" in texts(m)
    m = match("..../..../WR../WB.." + EMPTY_UPPER + " 2 ply=4")
    assert "Bb2" in texts(m)


def test_squares_on_upper_levels_count_too():
    # Level 1 holds white on b2 and d4, so the level-1 square b2 d2 b4 d4 has two
    # whites.  d2 rests on c1 e1 c3 e3 (black, red, red, black: no white) and is
    # playable, yet closed to white because of the square it would complete.
    m = match("BWRB/WRWR/WRBR/RBRW|R.B/.WB/W.B|../..|. 1 ply=22")
    assert m.state.position.is_playable(parse_point("d2"))
    supports = Position("BWRB/WRWR/WRBR/RBRW|R.B/.WB/W.B|../..|.")
    assert supports.white & shibumi.games.spire.SUPPORT_MASK[parse_point("d2")] == 0
    assert "Wd2" not in texts(m)


def test_positions_breaking_the_limit_are_rejected():
    with pytest.raises(NotationError):
        state("WW../W.../..../...." + EMPTY_UPPER + " 2 ply=5")   # three whites in a square
    with pytest.raises(NotationError):    # b2 white on a platform of two whites
        state("..../..../WR../WB..|.../.../W..|../..|. 2 ply=5")


def test_the_rule_book_example_leaves_white_exactly_two_points():
    # Rebuilt lost figure: White to move.  Every empty hole but e7 lies in a square
    # already holding two whites; of the two open platforms, f4 rests on two whites
    # (e3, g5) and is closed, f2 rests on one and is open.
    text = "RB.B/..BW/WWWB/R.RR" + EMPTY_UPPER + " 1 ply=12"
    m = match(text)
    pos = m.state.position
    playable = {p for p in range(30) if pos.is_playable(p)}
    assert playable == {parse_point(x) for x in ("c1", "a5", "c5.0", "e7", "f2", "f4")}
    white = sorted(t for t in texts(m) if t[0] == "W")
    assert white == ["We7", "Wf2"]


# -- passing -----------------------------------------------------------------------

def test_forced_pass_at_the_start_of_a_turn():
    # Black to move: e5 is the only playable point; a square around it holds two
    # blacks (e3 g3 e5 g5 has g3 and g5) and another holds two reds (c5, e3).
    text = "BRBW/WR.B/RBRB/WWWW|W../W../RBB|../..|. 2 ply=20"
    m = match(text)
    assert texts(m) == ["pass"]
    with pytest.raises(IllegalMoveError):
        m.push("Re5")
    m.push("pass")
    assert m.current_player == 0
    assert texts(m) == ["We5.0"]                 # white can still go there
    m.push("We5")
    assert m.game.length(m.state) == 22


def test_forced_pass_after_a_red_ball():
    text = "BWRW/RRWB/WBBR/BWWR|WBB/.WR/R.B|.R/..|. 1 red-placed ply=24"
    m = match(text)
    assert m.state.red_placed
    assert texts(m) == ["pass"]                  # no open point for white after the red
    m.push("pass")
    assert m.current_player == 1 and not m.state.red_placed
    assert texts(m)                              # black has placements


def test_a_red_may_be_placed_even_if_no_own_ball_can_follow():
    m = match("WWWB/BBBR/RWWW/BRBR|R.R/W.B/W.B|../..|. 1 ply=22")
    assert "Rd4.1" in texts(m)
    m.push("Rd4.1")
    assert m.current_player == 0 and texts(m) == ["pass"]
    m.push("pass")
    assert m.current_player == 1 and m.outcome() is None


# -- the end -----------------------------------------------------------------------

def test_the_last_ball_wins_even_if_red():
    text = "BRWW/RWBR/BBWW/RRBB|WBB/R.R/WW.|../..|. 2 ply=24"
    m = match(text)
    m.push("Rf2")
    out = m.outcome()
    assert out is not None and out.winners == (1,)
    assert m.state.position.count() == 24        # the pyramid is far from complete
    assert m.legal_moves() == []
    # Read back from text, the finished state names the same winner.
    again = m.game.parse_state(m.game.state_text(m.state))
    assert again.result.winners == (1,)


def test_game_stops_when_nothing_can_be_placed_anywhere():
    text = "WWWR/BBRB/R.WR/RBWB|.RW/..B/..R|../..|. 1 ply=19"
    m = match(text)
    m.push("Rb6")
    assert m.outcome().winners == (0,)
    pos = m.state.position
    assert not shibumi.games.spire.anything_placeable(pos)
    assert pos.count() == 20


def test_full_pyramid_last_ball_wins():
    game = load("spire")
    for seed in range(400):
        final = game.random_playout(game.initial_state(), random.Random(seed))
        if final.position.count() == 30:
            assert final.result.winners == (1 - final.to_move,)
            assert final.last.point == 29
            break
    else:
        pytest.fail("no random game filled the pyramid")


def test_random_games_always_have_one_winner_and_respect_the_limit():
    game = load("spire")
    for seed in range(300):
        final = game.random_playout(game.initial_state(), random.Random(seed))
        assert len(final.result.winners) == 1
        assert shibumi.games.spire.violations(final.position) == []
        assert final.ply <= game.info.max_length


# -- the designer's update -----------------------------------------------------------

def test_update_variant_apex_in_own_colour_wins():
    m = match("BRRR/BWWB/WRBR/WBWB|WBW/RBR/BRW|RR/WW|. 2 ply=29", "update")
    assert texts(m) == ["Bd4.3"]
    m.push("Bd4.3")
    assert m.outcome().winners == (1,)


@pytest.mark.parametrize("variant, move, winner", [
    ("book", "Wd4.3", 0), ("book", "Rd4.3", 0),        # the last ball wins, any colour
    ("update", "Wd4.3", 0), ("update", "Rd4.3", 1),    # red on the apex: stuck, loses
])
def test_apex_red_or_own_in_each_variant(variant, move, winner):
    m = match("WRRW/RWBW/BWRB/RBWB|BWB/RRW/WBR|WR/BB|. 1 ply=29", variant)
    assert texts(m) == ["Rd4.3", "Wd4.3"]
    m.push(move)
    assert m.outcome().winners == (winner,)


def test_update_variant_no_pass_the_stuck_player_loses():
    # Black has no legal placement (see test_forced_pass_at_the_start_of_a_turn):
    # the book makes Black pass, the update makes Black lose.
    text = "BRBW/WR.B/RBRB/WWWW|W../W../RBB|../..|. 2 ply=20"
    assert texts(match(text)) == ["pass"]
    assert state(text, "update").result.winners == (0,)
    # After a red with no own ball to follow, the mover loses at once.
    m = match("WWWB/BBBR/RWWW/BRBR|R.R/W.B/W.B|../..|. 1 ply=22", "update")
    m.push("Rd4.1")
    assert m.outcome().winners == (1,)
    # Here Black's ball leaves nothing placeable: the book's last ball and the
    # update's stuck opponent give the same winner for different reasons.
    for variant, reason in (("book", "last ball"), ("update", "no legal placement")):
        m = match("BWRW/RWBB/BW.R/WRWR|RBR/R../...|../..|. 2 ply=19", variant)
        m.push("Bb2")
        assert m.outcome().winners == (1,) and reason in m.outcome().reason


def test_update_variant_has_no_pass_moves():
    game = load("spire", variant="update")
    for seed in range(200):
        s = game.initial_state()
        rng = random.Random(seed)
        while s.result is None:
            moves = game.legal_moves(s)
            assert all(mv.kind != PASS for mv in moves)
            s = game.apply(s, rng.choice(moves))
        assert s.ply == s.position.count() <= 30


def test_bad_parameters_and_states_are_rejected():
    with pytest.raises(Exception):
        load("spire", variant="newest")
    with pytest.raises(NotationError):
        state("..../..../..../...." + EMPTY_UPPER + " 1")          # ply missing
    with pytest.raises(NotationError):
        state("..../..../..../W..." + EMPTY_UPPER + " 1 ply=0")    # too few actions
    with pytest.raises(NotationError):
        state("..../..../..../W..." + EMPTY_UPPER + " 1 red-placed ply=1")  # no red


# -- conformance and counts ----------------------------------------------------------

def test_conformance():
    check_random_games("spire", variant="update")
    check_playouts("spire", variant="update")


def _brute_force(depth):
    """Independent count of action sequences, on (level, x, y) cells and explicit squares.

    Written apart from the engine: cells in a dict, playability from the four
    cells below, the limit checked square by square (every 2x2 square of the
    level containing the cell, plus the square under it).  Passing and the end
    cannot arise within the depths counted here (checked: every node has moves).
    """
    sizes = (4, 3, 2, 1)
    cells = [(lv, x, y) for lv in range(4) for y in range(sizes[lv]) for x in range(sizes[lv])]

    def below(c):
        lv, x, y = c
        return [(lv - 1, x + dx, y + dy) for dx in (0, 1) for dy in (0, 1)]

    def squares_of(c):
        lv, x, y = c
        n = sizes[lv]
        out = []
        for sx in (x - 1, x):
            for sy in (y - 1, y):
                if 0 <= sx < n - 1 and 0 <= sy < n - 1:
                    out.append([(lv, sx + dx, sy + dy) for dx in (0, 1) for dy in (0, 1)])
        return out

    def allowed(board, c, colour):
        if c in board or (c[0] and any(b not in board for b in below(c))):
            return False
        for sq in squares_of(c) + ([below(c)] if c[0] else []):
            if sum(board.get(b) == colour for b in sq) >= 2:
                return False
        return True

    def moves(board, player, red_placed):
        own = "WB"[player]
        out = [(c, own) for c in cells if allowed(board, c, own)]
        if not red_placed:
            out += [(c, "R") for c in cells if allowed(board, c, "R")]
        assert out
        return out

    def count(board, player, red_placed, left):
        options = moves(board, player, red_placed)
        if left == 1:
            return len(options)
        total = 0
        for c, colour in options:
            board[c] = colour
            if colour == "R":
                total += count(board, player, True, left - 1)
            else:
                total += count(board, 1 - player, False, left - 1)
            del board[c]
        return total

    return count({}, 0, False, depth)


def test_perft_from_the_start():
    # Depth 1: 16 white + 16 red.  Depth 2 by hand: after a white, black has 15 black
    # and 15 red placements (16 x 30 = 480); after a red, white has 15 (16 x 15 = 240);
    # 720 in all.  Depth 3 onwards the colour limit starts to bite (two reds in a
    # square close it to a third red).  All four depths agree with _brute_force.
    game = load("spire")
    counts = [perft(game, d) for d in range(1, 5)]
    assert counts == [32, 720, 16800, 349440]
    assert [_brute_force(d) for d in range(1, 4)] == counts[:3]
    assert perft(load("spire", variant="update"), 3) == 16800


def test_symmetries_keep_the_legal_moves():
    # Both variants, on whole states rebuilt from the turned position (the
    # red-placed flag must survive); the shared property test covers the default.
    import dataclasses
    from shibumi.geometry import SYMMETRIES
    from shibumi.notation import Move
    for variant in ("book", "update"):
        game = load("spire", variant=variant)
        for seed in range(60):
            rng = random.Random(seed)
            s = game.initial_state()
            for _ in range(rng.randrange(40)):
                if s.result is not None:
                    break
                s = game.apply(s, rng.choice(game.legal_moves(s)))
            moves = game.legal_moves(s)
            for index in game.symmetries:
                perm = SYMMETRIES[index]
                image = game.settle(dataclasses.replace(
                    s, position=s.position.transform(perm), result=None, last=None))
                mapped = {mv if mv.kind == PASS else Move.place(perm[mv.point], mv.colour)
                          for mv in moves}
                assert set(game.legal_moves(image)) == mapped
                assert game.outcome(image) == game.outcome(s)
