"""Spy: a Master's secret pyramid, Agents who copy it a ball a round."""

import dataclasses
import random

import pytest
from hypothesis import given, settings, strategies as st

from conformance import (check_honest_ai, check_playouts,
                         check_random_games, check_symmetries)
from conftest import random_position
from reference import ALL, ABOVE, cells_of, open_points
from shibumi import SIMULTANEOUS, IllegalMoveError, NotationError, load
from shibumi.analysis import perft
from shibumi.game import CHANCE
from shibumi.game import Game
from shibumi.games.spy import (ROUND_LIMIT, START, _moved_board, board_moves, carried, choices,
                               draw_code, playable_fast, random_change, random_changes, score)
from shibumi.geometry import INTERIOR_MASK, SYMMETRIES
from shibumi.notation import parse_point, point_name, transform_move
from shibumi.position import RED, Position

GAME = load("spy")

# -- the rule book's example (figures lost), rebuilt ---------------------------------
#: A code of our own whose lower right ridge g1, f2, e3.2 is black, white, red.
CODE = "WBRW/RWBR/BRWW/RWRB|RBW/WRB/BRW|WB/BR|W"
#: The Agent's board: the code without the apex, the ridge red, black, white
#: (bottom to top), seven other scoring balls wrong: 14 matches.
BOARD14 = "BBRW/RWBR/BRWW/WBRR|RRW/BRR/BRB|BB/BW|."
#: The seven other wrong balls.
WRONG = ("a1", "c1", "a7", "b4", "d6", "f4", "c5.2")


def _agent_board():
    code, board = Position(CODE), Position(BOARD14)
    return code, board


def test_example_board_scores_14():
    code, board = _agent_board()
    assert board.occupied.bit_count() == 29
    assert score(board, code) == 14
    cells = cells_of(board)
    assert (cells[(0, 3, 0)], cells[(1, 2, 0)], cells[(2, 1, 0)]) == ("R", "B", "W")
    assert cells[(1, 1, 1)] == "R"          # the middle red of level 1, not counted
    wrong = {point_name(p) for p in range(29) if board.colour_at(p) != code.colour_at(p)}
    assert wrong == set(WRONG) | {"g1", "f2", "e3.2"}


def test_example_one_relocation_gives_17():
    code, board = _agent_board()
    text = f"{CODE} 1 boards={BOARD14};{START.text()} scores=14,0 round=24"
    state = GAME.parse_state(text)
    match = GAME.new_match(state=state)
    assert "g1>e3.2" in [m.text() for m in match.legal_moves(1)]
    match.push_joint(["pass", "g1>e3.2", "Wa1"])
    after = match.state.boards[0]
    cells = cells_of(after)
    assert (cells[(0, 3, 0)], cells[(1, 2, 0)], cells[(2, 1, 0)]) == ("B", "W", "R")
    assert match.state.scores[0] == 17
    assert after.occupied == board.occupied
    # The move lands on a ball that has just dropped: allowed in Spy.
    assert match.state.rounds == 25 and match.state.result is None


# -- conformance ------------------------------------------------------------------
def test_declaration():
    assert GAME.info.family == "Multiset"
    assert GAME.info.hidden_information and GAME.info.simultaneous and GAME.info.chance
    assert (GAME.info.min_players, GAME.info.max_players) == (3, 6)
    assert GAME.info.boards == 6
    assert load("spy", players=6).agents == 5
    with pytest.raises(Exception):
        load("spy", players=2)


def test_random_games():
    check_random_games("spy", seeds=range(5))
    check_random_games("spy", seeds=range(2), players=5)


def test_playouts():
    check_playouts("spy", games=60)
    for players in (4, 5, 6):
        check_playouts("spy", games=20, players=players)


@given(st.integers(0, 2 ** 32), st.integers(0, 30))
def test_the_fast_board_helpers_match_the_position(seed, balls):
    # The playout's shifts give the playable points, the loaded and the pinned
    # balls as Position does, and its draw walks the choices in legal order.
    pos = random_position(seed, balls)
    occ = pos.occupied
    assert playable_fast(occ) == pos.playable()
    covered, pinned = carried(occ)
    assert covered == sum(1 << p for p in range(30) if pos.supported_balls(p))
    assert pinned == sum(1 << p for p in range(30) if pos.is_pinned(p))
    state = dataclasses.replace(GAME.initial_state(), boards=(pos, START))
    if occ == (1 << 30) - 1 or max(pos.count(c) for c in (1, 2, 3)) > 16:
        return
    moves = GAME.legal_moves(state, 1)
    for i, move in enumerate(moves):
        after = random_change(pos.white, pos.black, pos.red, (i + 0.5) / len(moves))
        expected = GAME.move_board(pos, move)
        assert after == (expected.white, expected.black, expected.red)


def test_fast_playouts_from_boards_near_full():
    """The playout plays rounds in bulk while no board can fill: from boards of 22
    to 29 balls, where games end on a full board, it still plays the rules' games
    and draws as many numbers."""
    ended_full = 0
    for seed in range(120):
        boards = tuple(random_position(2 * seed + j, 22 + (seed + j) % 8) for j in range(2))
        if any(max(b.count(c) for c in (1, 2, 3)) > 16 for b in boards):
            continue
        base = GAME.new_match(seed=seed).state
        state = dataclasses.replace(base, boards=boards, rounds=10 + seed % 25,
                                    scores=tuple(score(b, base.position) for b in boards))
        if GAME.is_terminal(GAME.settle(state)):
            continue
        fast_rng, slow_rng = random.Random(seed), random.Random(seed)
        fast = GAME.random_playout(state, fast_rng)
        assert fast == Game.random_playout(GAME, state, slow_rng), seed
        assert fast_rng.getstate() == slow_rng.getstate(), seed
        ended_full += any(b.occupied == (1 << 30) - 1 for b in fast.boards)
    assert ended_full >= 30


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2 ** 32), st.integers(5, 30))
def test_a_run_of_changes_is_the_changes_one_by_one(seed, balls):
    """random_changes (the playouts' loop, with its memo of shapes) makes the same
    boards as random_change draw by draw, and as the listed moves."""
    rng = random.Random(seed)
    pos = random_position(seed, balls)
    if max(pos.count(c) for c in (1, 2, 3)) > 16:
        return
    draws = [rng.random() for _ in range(12)]
    masks = (pos.white, pos.black, pos.red)
    board = pos
    for r in draws:
        if board.occupied == (1 << 30) - 1:
            break
        moves = board_moves(board.white, board.black, board.red)
        board = GAME.move_board(board, moves[int(r * len(moves))])
        masks = random_change(*masks, r)
        assert masks == (board.white, board.black, board.red)
    else:
        assert random_changes(pos.white, pos.black, pos.red, draws) == masks


def test_playouts_with_the_memo_of_shapes_starting_afresh(monkeypatch):
    """The memo of shapes (and of their shared parts) is cleared when full: a tiny
    memo, cleared at almost every draw, still plays the rules' games."""
    import shibumi.games.spy as spy
    monkeypatch.setattr(spy, "SHAPE_CACHE_SIZE", 3)
    spy._SHAPES.clear()
    for seed in range(8):
        state = GAME.new_match(seed=seed).state
        fast_rng, slow_rng = random.Random(seed), random.Random(seed)
        assert GAME.random_playout(state, fast_rng) == \
            Game.random_playout(GAME, state, slow_rng)
        assert fast_rng.getstate() == slow_rng.getstate()
    assert len(spy._SHAPES) <= 3


@settings(deadline=None)
@given(st.integers(0, 2 ** 32), st.integers(0, 29))
def test_moves_on_masks_match_the_position(seed, balls):
    """apply_joint's boards on masks are move_board's (Position.remove and place),
    and the memoised moves are those of choices()."""
    pos = random_position(seed, balls)
    if max(pos.count(c) for c in (1, 2, 3)) > 16:
        return
    moves = board_moves(pos.white, pos.black, pos.red)
    playable, colours, relocations = choices(pos.white, pos.black, pos.red)
    assert len(moves) == len(colours) * playable.bit_count() + sum(
        t.bit_count() for _, t in relocations)
    for move in moves:
        assert _moved_board(pos, move) == GAME.move_board(pos, move)


#: A fingerprint of codes drawn by determinise (and the generator's next number, and
#: the drawn state's moves) along random games of 3-6 players, made by the code search
#: before it was sped up: the search must draw the very same codes.
DETERMINISE_PRINT = "60685e6432d5d0a0"


def test_determinise_draws_the_codes_it_always_drew():
    import hashlib
    digest = hashlib.sha256()
    for seed in range(40):
        game, state = _random_state(seed, seed % 25, players=3 + seed % 4)
        for p in range(1, game.num_players):
            rng = random.Random(seed * 7 + p)
            drawn = game.determinise(game.observe(state, p), p, rng)
            digest.update(game.state_text(drawn).encode())
            digest.update(repr(rng.random()).encode())
            digest.update(repr([m.text() for m in game.legal_moves(drawn, p)]).encode())
    assert digest.hexdigest()[:16] == DETERMINISE_PRINT


def test_honest_ai():
    check_honest_ai(load("spy"))


def _random_state(seed, rounds, players=3):
    rng = random.Random(seed)
    game = load("spy", players=players)
    match = game.new_match(seed=seed)
    for _ in range(rounds):
        if match.is_over():
            break
        match.push_joint(rng.choice(game.legal_moves(match.state, p))
                         for p in range(game.num_players))
    return game, match.state


@pytest.mark.parametrize("seed", range(4))
def test_symmetries_on_random_states(seed):
    game, state = _random_state(seed, 6 + 5 * seed)
    check_symmetries(game, state)
    for perm in SYMMETRIES:
        image = game.transform_state(state, perm)
        assert image.scores == tuple(score(b, image.position) for b in image.boards)
        for p in range(game.num_players):
            assert set(game.legal_moves(image, p)) == {
                transform_move(m, perm) for m in game.legal_moves(state, p)}


def test_turning_one_board_alone_is_not_a_symmetry():
    """Board rotations don't count: a turned board scores against the unturned code."""
    code = Position(CODE)
    board = Position("W.../..../..../....|.../.../...|../..|.")
    assert score(board, code) == 1
    assert sorted(score(board.transform(s), code) for s in SYMMETRIES) == [0, 0, 0, 0, 1, 1, 1, 1]


# -- hidden information -------------------------------------------------------------
def test_agents_never_see_the_code_the_master_does():
    game, state = _random_state(1, 4)
    for p in (1, 2):
        seen = game.observe(state, p)
        assert seen.secret and seen.position == Position.empty()
        assert seen.boards == state.boards and seen.scores == state.scores
    assert game.observe(state, 0) == state


def test_states_differing_only_in_the_code_look_the_same_to_agents():
    game, state = _random_state(3, 3)
    code = state.position
    apex = 29                      # no Agent has a ball there yet: it cannot score
    assert not any(b.occupied >> apex & 1 for b in state.boards)
    other_colour = 1 + code.colour_at(apex) % 3
    masks = [0, code.white, code.black, code.red]
    masks[code.colour_at(apex)] &= ~(1 << apex)
    masks[other_colour] |= 1 << apex
    other = dataclasses.replace(state, position=Position.from_masks(*masks[1:]))
    assert other != state
    assert other.scores == tuple(score(b, other.position) for b in other.boards)
    for p in (1, 2):
        assert game.observe(state, p) == game.observe(other, p)
    assert game.observe(state, 0) != game.observe(other, 0)


@pytest.mark.parametrize("seed", range(6))
def test_determinise_fits_the_observation(seed):
    game, state = _random_state(seed, 3 + 4 * seed, players=3 + seed % 3)
    for p in range(game.num_players):
        seen = game.observe(state, p)
        drawn = game.determinise(seen, p, random.Random(seed))
        assert game.observe(drawn, p) == seen
        assert not drawn.secret and drawn.position.occupied.bit_count() == 30
        assert drawn.scores == tuple(score(b, drawn.position) for b in drawn.boards)
        assert max(drawn.position.count(c) for c in (1, 2, 3)) <= 16


def test_determinise_varies_the_code():
    game, state = _random_state(5, 8)
    seen = game.observe(state, 1)
    codes = {game.determinise(seen, 1, random.Random(s)).position for s in range(10)}
    assert len(codes) > 1


def test_impossible_counts_are_refused():
    board = Position("W.../..../..../....|.../.../...|../..|.")
    assert draw_code([board], [2], random.Random(0)) is None
    game, state = _random_state(0, 2)
    seen = game.observe(state, 1)
    bad = dataclasses.replace(seen, scores=(30, 0))
    with pytest.raises(NotationError):
        game.determinise(bad, 1, random.Random(0))


def test_observation_text_round_trips():
    game, state = _random_state(4, 5)
    seen = game.observe(state, 2)
    text = game.state_text(seen)
    assert text.endswith("secret")
    assert game.parse_state(text) == seen


# -- rules ----------------------------------------------------------------------------
def test_start_and_the_code():
    match = GAME.new_match(seed=11)
    state = match.state
    assert state.position.occupied.bit_count() == 30
    assert all(b == START for b in state.boards) and state.scores == (0, 0)
    assert GAME.current_player(state) == SIMULTANEOUS
    assert GAME.current_player(GAME.initial_state()) == CHANCE
    assert [m.text() for m, _ in GAME.chance_outcomes(GAME.initial_state())] == \
        ["=W", "=B", "=R"]
    # a colour the Master has used 16 times is no longer drawn
    full_white = GAME.initial_state()
    for _ in range(16):
        full_white = GAME.apply(full_white, GAME.chance_outcomes(full_white)[0][0])
    assert [m.text() for m, _ in GAME.chance_outcomes(full_white)] == ["=B", "=R"]


def test_master_only_passes_and_single_moves_are_refused():
    state = GAME.new_match(seed=1).state
    assert [m.text() for m in GAME.legal_moves(state, 0)] == ["pass"]
    assert GAME.legal_moves(state) == []
    with pytest.raises(IllegalMoveError):
        GAME.apply(state, GAME.legal_moves(state, 1)[0])


def test_start_moves_counted_by_hand():
    state = GAME.new_match(seed=1).state
    moves = [m.text() for m in GAME.legal_moves(state, 1)]
    # 12 empty holes x 3 colours, d4.1 to any of 12 holes, and each middle hole
    # lifted (d4.1 drops into it) with its ball to any of the 12 holes.
    assert len(moves) == 36 + 12 + 4 * 12
    assert "d4.1>d4.1" not in moves and "c3.0>d4.1" not in moves


def test_illegal_choices_raise_and_change_nothing():
    match = GAME.new_match(seed=2)
    before = match.state
    for bad in (["pass", "Wd4", "Wa1"], ["Wa1", "Wa1", "Wa1"], ["pass", "Wa1"],
                ["pass", "a1>c1", "Wa1"]):
        with pytest.raises((IllegalMoveError, NotationError)):
            match.push_joint(bad)
        assert match.state == before


def test_pinned_ball_cannot_be_lifted_and_colour_supply_runs_out():
    board = Position("RRRR/RRRR/RRRR/RRRR|WWW/W../W..|../..|.")
    rounds = 40
    count = score(board, Position(CODE))
    text = f"{CODE} 1 boards={board.text()};{START.text()} scores={count},0 " \
           f"round={rounds - 1}"
    state = GAME.parse_state(text)
    moves = [m.text() for m in GAME.legal_moves(state, 1)]
    assert not any(m.startswith("R") for m in moves)          # sixteen reds used
    assert not any(m.startswith("c3.0>") for m in moves)      # holds b2 and b4
    assert any(m.startswith("a1>") for m in moves)            # holds only b2


def test_the_game_ends_when_a_board_is_full():
    code = Position(CODE)
    state = GAME.parse_state(f"{CODE} 1 boards={BOARD14};{START.text()} "
                             f"scores=14,0 round=24")
    after = GAME.apply_joint(state, tuple(
        GAME.legal_moves(state, p)[0] if p != 1 else
        next(m for m in GAME.legal_moves(state, 1) if m.text() == "Wd4.3")
        for p in range(3)))
    assert after.boards[0].occupied.bit_count() == 30
    assert GAME.is_terminal(after)
    assert after.result.winners == (1,)
    assert after.scores[0] == score(after.boards[0], code)


def test_round_limit_and_ties():
    board = START.text()
    state = GAME.parse_state(f"{CODE} 1 boards={board};{board} scores=0,0 round=39")
    match = GAME.new_match(state=state)
    match.push_joint(["pass", "Ra1", "Ba1"])
    after = match.state
    assert after.rounds == ROUND_LIMIT and GAME.is_terminal(after)
    # a1 is red in the code
    assert after.result.winners == (1,)
    match = GAME.new_match(state=state)
    match.push_joint(["pass", "Wa1", "Ba1"])
    tied = match.state
    assert tied.scores == (0, 0)
    assert tied.result.winners == (1, 2) and tied.result.ranking == ((1, 2), (0,))


def test_hidden_and_interior_balls_never_score():
    code = Position(CODE)
    assert score(code, code) == 25                   # 30 less the five interior points
    assert code.colour_at(parse_point("d4.1")) == RED
    assert score(START, code) == 0                   # five reds, d4.1 red in the code too
    # only interior points can ever be covered, so "visible" adds nothing beyond them
    assert code.occupied & ~code.visible() == INTERIOR_MASK


@pytest.mark.parametrize("text", [
    "",
    f"{CODE} 2 boards={START.text()};{START.text()} scores=0,0",
    f"{CODE} 1 boards={START.text()} scores=0",
    f"{CODE} 1 boards={START.text()};{START.text()} scores=1,0",
    f"{CODE} 1 boards={START.text()};{START.text()} scores=0,0 round=41",
    f"{CODE} 1 boards={START.text()};{START.text()} scores=0,0 round=x",
    f"{CODE} 1 boards={START.text()};{START.text()}",
    f"{CODE} 1 boards={START.text()};{START.text()} scores=0,0 colour=W",
    f"{CODE} 1 boards={BOARD14};{START.text()} scores=14,0 round=3",
    f"{CODE} 1 boards={START.text()};{START.text()} scores=0,0 secret",
    "W.../..../..../....|.../.../...|../..|. 1 boards="
    f"{START.text()};{START.text()} scores=0,0 round=2",
])
def test_bad_state_text_is_refused(text):
    with pytest.raises(NotationError):
        GAME.parse_state(text)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 30))
def test_random_states_round_trip_and_scores_hold(seed, rounds):
    game, state = _random_state(seed, rounds)
    assert game.parse_state(game.state_text(state)) == dataclasses.replace(state, last=None)
    assert state.scores == tuple(score(b, state.position) for b in state.boards)
    for b in state.boards:
        assert 5 <= b.occupied.bit_count() <= 5 + state.rounds and b.is_stable()
        assert b.count(3) >= 5


# -- an engine-free model: moves, scores, perft -----------------------------------------
def _bf_hidden(board, pt):
    lv, x, y = pt
    return (lv + 2, x - 1, y - 1) in board


def _bf_interior(pt):
    lv, x, y = pt
    return (lv + 2, x - 1, y - 1) in ALL


def _bf_score(board, code):
    return sum(1 for pt, c in board.items()
               if not _bf_interior(pt) and not _bf_hidden(board, pt) and code[pt] == c)


def _bf_choices(board):
    """Every board an Agent can make in one round (with repeats, one per choice)."""
    out = []
    for pt in open_points(board):
        for c in "WBR":
            if sum(1 for v in board.values() if v == c) < 16:
                out.append({**board, pt: c})
    for pt, c in board.items():
        if sum(1 for q in ABOVE[pt] if q in board) > 1:
            continue
        lifted = dict(board)
        del lifted[pt]
        gap = pt
        while True:
            up = [q for q in ABOVE[gap] if q in lifted]
            if not up:
                break
            lifted[gap] = lifted.pop(up[0])
            gap = up[0]
        for target in open_points(lifted):
            new = {**lifted, target: c}
            if new != board:
                out.append(new)
    return out


def _bf_perft(code, boards, rounds, depth):
    if depth == 0:
        return 1
    if rounds >= ROUND_LIMIT or any(len(b) == 30 for b in boards):
        return 0
    options = [_bf_choices(b) for b in boards]
    if depth == 1:
        total = 1
        for o in options:
            total *= len(o)
        return total
    total = 0
    for a in options[0]:
        for b in options[1]:
            total += _bf_perft(code, [a, b], rounds + 1, depth - 1)
    return total


#: Golden numbers: from the start (the Master's draws, three colours each), and
#: from the first round (two Agents with 96 choices each).
PERFT_START = [3, 9, 27]
PERFT_ROUND = [9216]
PERFT_ROUND_2 = 82519056


def test_perft_golden_numbers():
    assert [perft(GAME, d) for d in (1, 2, 3)] == PERFT_START
    state = GAME.new_match(seed=0).state
    assert [perft(GAME, 1, state)] == PERFT_ROUND
    board = cells_of(START)
    assert _bf_perft(None, [board, board], 0, 1) == PERFT_ROUND[0]


@pytest.mark.parametrize("seed", range(5))
def test_perft_from_random_states_matches_the_brute_force(seed):
    game, state = _random_state(seed, 4 + 7 * seed)
    boards = [cells_of(b) for b in state.boards]
    assert perft(game, 1, state) == _bf_perft(None, boards, state.rounds, 1)
    code = cells_of(state.position)
    for b, engine in zip(state.boards, state.scores):
        assert _bf_score(cells_of(b), code) == engine
    for p, b in enumerate(state.boards, 1):
        engine = sorted(tuple(sorted(cells_of(game.move_board(b, m)).items()))
                        for m in game.legal_moves(state, p))
        brute = sorted(tuple(sorted(x.items())) for x in _bf_choices(cells_of(b)))
        assert engine == brute


#: A state after two rounds (Agent 3's board put back to the start by hand).
MID = ("BRWW/WBWW/BBWB/WWBW|RWW/BRW/BRB|RW/WW|B 1 boards=..W./.RRB/.RR./....|.../.R./"
       "...|../..|.;..../.RR./.RR./....|.../.R./...|../..|. scores=1,0 round=2")
PERFT_MID = [9600, 90422136]


def test_perft_mid_depth_1():
    state = GAME.parse_state(MID)
    assert perft(GAME, 1, state) == PERFT_MID[0]
    assert _bf_perft(None, [cells_of(b) for b in state.boards], 2, 1) == PERFT_MID[0]


@pytest.mark.slow
def test_perft_depth_2_matches_the_brute_force():
    """Two rounds from MID and from the first round, by the engine and the brute force."""
    state = GAME.parse_state(MID)
    boards = [cells_of(b) for b in state.boards]
    assert _bf_perft(None, boards, state.rounds, 2) == PERFT_MID[1]
    assert perft(GAME, 2, state) == PERFT_MID[1]
    first = GAME.new_match(seed=0).state
    assert perft(GAME, 2, first) == PERFT_ROUND_2


def test_brute_force_score_of_the_example():
    code, board = _agent_board()
    assert _bf_score(cells_of(board), cells_of(code)) == 14
    after = _bf_choices(cells_of(board))
    assert max(_bf_score(b, cells_of(code)) for b in after) == 17


_JUNK = st.one_of(st.text(max_size=80), st.integers(), st.none(),
                  st.lists(st.text(max_size=8), max_size=4))


@settings(max_examples=40, deadline=None)
@given(_JUNK)
def test_junk_gives_narrow_errors_and_leaves_the_state(value):
    from shibumi import ShibumiError
    try:
        GAME.parse_state(value)
    except ShibumiError:
        pass
    match = GAME.new_match(seed=1)
    before = match.state
    try:
        match.push_joint(value)
    except ShibumiError:
        assert match.state is before


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["boards", "scores", "round"]), st.text(max_size=30))
def test_junk_fields_are_notation_errors(key, value):
    fields = {"boards": f"{START.text()};{START.text()}", "scores": "0,0", "round": "0"}
    fields[key] = value
    text = f"{CODE} 1 " + " ".join(f"{k}={v}" for k, v in fields.items())
    try:
        GAME.parse_state(text)
    except NotationError:
        pass


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10 ** 6), st.integers(2, 5))
def test_the_code_search_finds_a_code_for_boards_close_to_the_code(seed, agents):
    """Hard cases for the search: several nearly finished boards, mostly right."""
    rng = random.Random(seed)
    colours = [1] * 10 + [2] * 10 + [3] * 10
    rng.shuffle(colours)
    code = Position.from_masks(*(sum(1 << p for p, c in enumerate(colours) if c == k)
                                 for k in (1, 2, 3)))
    boards = []
    for _ in range(agents):
        n = rng.randint(20, 30)
        accuracy = rng.random()
        cols = [c if rng.random() < accuracy else rng.choice((1, 2, 3)) for c in colours[:n]]
        boards.append(Position.from_masks(*(sum(1 << p for p, c in enumerate(cols) if c == k)
                                            for k in (1, 2, 3))))
    scores = [score(b, code) for b in boards]
    found = draw_code(boards, scores, random.Random(seed))
    assert found is not None
    assert [score(b, found) for b in boards] == scores
    assert max(found.count(c) for c in (1, 2, 3)) <= 16


def test_jointly_impossible_counts_are_not_met():
    board = Position("WBRW/..../..../....|.../.../...|../..|.")
    assert draw_code([board, board], [1, 2], random.Random(0), budget=3000) is None
