"""Sensei: conformance, the rules and readings, and perft against an engine-free model."""
import random

import pytest

from conformance import (check_declaration, check_playouts, check_random_games,
                         check_symmetries, check_terminal_play, random_walk)
from shibumi import IllegalMoveError, NotationError, UnknownGameError, load
from shibumi.analysis import perft
from shibumi.interaction import Table


# -- the rules again, engine-free: cells are (file, rank) from 0, a board is a dict
# from cells to (colour letter, carries the character) -------------------------------

SIZE = 7
CHASMS_EXPERT = {(2, 2), (4, 2), (3, 3), (2, 4), (4, 4)}


def ref_start(start):
    board = {}
    for f in range(SIZE):
        board[(f, 0)] = ("W", f == 3)
        board[(f, SIZE - 1)] = ("B", f == 3)
    if start == "variant":
        for f in (1, 5):
            board[(f, 0)], board[(f, SIZE - 1)] = ("B", False), ("W", False)
    return board, (CHASMS_EXPERT if start == "expert" else set())


def inside(x, y):
    return 0 <= x < SIZE and 0 <= y < SIZE


def ref_actions(node, slide):
    board, chasms, player, moves, carried = node["board"], node["chasms"], \
        node["player"], node["moves"], node["carried"]
    if node["over"]:
        return []
    me = "WB"[player]
    acts = []
    if moves < 2:
        for (f, r), (c, ch) in board.items():
            if c != me or ch:
                continue
            for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                x, y = f + df, r + dr
                while inside(x, y) and (x, y) not in board and (x, y) not in chasms:
                    acts.append(((f, r), (x, y)))
                    if not slide:
                        break
                    x, y = x + df, y + dr
    if not carried:
        src = next(cell for cell, (c, ch) in board.items() if c == me and ch)
        for df in (-1, 0, 1):
            for dr in (-1, 0, 1):
                if df == dr == 0:
                    continue
                x, y = src[0] + df, src[1] + dr
                while inside(x, y):
                    piece = board.get((x, y))
                    if piece and piece[0] != me:
                        break
                    if piece:
                        acts.append((src, (x, y)))
                    x, y = x + df, y + dr
    if moves or carried or not acts:
        acts.append("pass")
    return acts


def ref_walled(board, chasms, player):
    me, other = "WB"[player], "WB"[1 - player]
    goal = SIZE - 1 if player == 0 else 0
    seen = [cell for cell, (c, _) in board.items() if c == me]
    todo = list(seen)
    seen = set(seen)
    while todo:
        f, r = todo.pop()
        if r == goal:
            return False
        for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            q = (f + df, r + dr)
            if inside(*q) and q not in seen and q not in chasms \
                    and board.get(q, ("",))[0] != other:
                seen.add(q)
                todo.append(q)
    return True


def ref_touching(board, player):
    me, other = "WB"[player], "WB"[1 - player]
    return sum(1 for (f, r), (c, _) in board.items() if c == me and any(
        board.get((f + df, r + dr), ("",))[0] == other
        for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))))


def ref_apply(node, act, limit):
    node = dict(node)
    if act == "pass":
        return ref_end_turn(node, limit)
    board = dict(node["board"])
    a, b = act
    colour, ch = board.pop(a)
    if ch:                                           # the character moves
        board[a] = (colour, False)
        board[b] = (board[b][0], True)
        node["carried"] = True
    else:
        board[b] = (colour, False)
        node["moves"] += 1
    node["board"] = board
    mover = node["player"]
    for p in (mover, 1 - mover):
        goal = SIZE - 1 if p == 0 else 0
        if any(c == "WB"[p] and char and r == goal for (_, r), (c, char) in board.items()):
            node["over"] = ("won", p)
            return node
    for p in (1 - mover, mover):
        if ref_walled(board, node["chasms"], p) and ref_touching(board, p) >= 3:
            node["over"] = ("anti-game", p)
            return node
    if node["moves"] == 2 and node["carried"]:
        return ref_end_turn(node, limit)
    return node


def ref_end_turn(node, limit):
    node.update(player=1 - node["player"], moves=0, carried=False, turn=node["turn"] + 1)
    if node["turn"] >= limit:
        node["over"] = ("draw",)
    return node


def ref_perft(node, depth, slide, limit):
    if depth == 0:
        return 1
    acts = ref_actions(node, slide)
    if depth == 1:
        return len(acts)
    return sum(ref_perft(ref_apply(node, a, limit), depth - 1, slide, limit) for a in acts)


def ref_node(start):
    board, chasms = ref_start(start)
    return {"board": board, "chasms": chasms, "player": 0, "moves": 0, "carried": False,
            "turn": 0, "over": None}


def from_engine(game, state):
    """The reference node of an engine state (read through its public text)."""
    rows = state.position.text().split("/")
    board = {}
    chasms = set()
    for i, row in enumerate(rows):
        r = SIZE - 1 - i
        f = 0
        for j, ch in enumerate(row):
            if ch == "*":
                continue
            if ch in "WB":
                board[(f, r)] = (ch, row[j + 1:j + 2] == "*")
            elif ch == "#":
                chasms.add((f, r))
            f += 1
    return {"board": board, "chasms": chasms, "player": state.to_move, "moves": state.moves,
            "carried": state.carried, "turn": state.turn, "over": None}


#: perft from the start, depths 1-4 (a depth is one action; a pass is an action).
GOLDEN = {
    ("shizukana", "standard"): (12, 140, 1260, 15072),
    ("shizukana", "variant"): (8, 84, 460, 4750),
    ("arashi", "standard"): (36, 1492, 20474, 659714),
    ("arashi", "expert"): (28, 858, 10406, 255454),
}


@pytest.mark.parametrize("mode, start", sorted(GOLDEN))
def test_perft_start_matches_golden_and_reference(mode, start):
    game = load("sensei", mode=mode, start=start)
    depths = (1, 2, 3, 4) if mode == "shizukana" else (1, 2, 3)
    engine = tuple(perft(game, d) for d in depths)
    reference = tuple(ref_perft(ref_node(start), d, mode == "arashi", 200) for d in depths)
    assert engine == reference == GOLDEN[(mode, start)][:len(depths)]


@pytest.mark.slow
@pytest.mark.parametrize("start", ["standard", "expert"])
def test_perft_depth_4_arashi(start):
    game = load("sensei", mode="arashi", start=start)
    assert perft(game, 4) == ref_perft(ref_node(start), 4, True, 200) \
        == GOLDEN[("arashi", start)][3]


@pytest.mark.parametrize("mode, start", sorted(GOLDEN))
def test_perft_random_positions_match_reference(mode, start):
    game = load("sensei", mode=mode, start=start)
    for seed in range(3):
        state = random_walk(game, seed, 25 + 7 * seed)
        if game.is_terminal(state):
            continue
        node = from_engine(game, state)
        for depth in (1, 2):
            assert perft(game, depth, state) == ref_perft(node, depth, mode == "arashi", 200)


def test_reference_agrees_on_random_games_to_the_end():
    """Along whole random games: same legal actions, same end, in both modes."""
    for mode, start in (("arashi", "expert"), ("shizukana", "variant")):
        game = load("sensei", mode=mode, start=start, turn_limit=60)
        rng = random.Random(5)
        for _ in range(3):
            state = game.initial_state()
            node = ref_node(start)
            while not game.is_terminal(state):
                legal = game.legal_moves(state)
                assert len(legal) == len(ref_actions(node, mode == "arashi"))
                move = rng.choice(legal)
                act = "pass" if move.kind == "pass" else (
                    tuple((q % SIZE, q // SIZE) for q in (move.point, move.target)))
                state, node = game.apply(state, move), ref_apply(node, act, 60)
            assert node["over"] is not None
            outcome = game.outcome(state)
            if node["over"][0] == "draw":
                assert outcome.winners == ()
            else:
                assert outcome.winners == (node["over"][1],)


# -- conformance ---------------------------------------------------------------------------

def test_declaration():
    check_declaration("sensei")
    assert load("sensei").info.family == "Companion"
    assert load("diaballik").info.name == "Sensei"


def test_random_games():
    check_random_games("sensei", seeds=range(3), mode="arashi", start="expert")
    check_random_games("sensei", seeds=range(2), turn_limit=40)


@pytest.mark.parametrize("params", [
    {"mode": "shizukana"}, {"mode": "shizukana", "start": "variant"},
    {"start": "variant"}, {"start": "expert"}, {"turn_limit": 25}])
def test_fast_playouts_play_the_rules_games_with_every_option(params):
    """random_playout on masks ends exactly where legal_moves and apply end, with
    each mode, start and a short turn limit (the defaults: test_conformance)."""
    check_playouts("sensei", games=100, **params)


def _search_playout_by_the_rules(game, state, rng):
    """The search's playout written with legal_moves and apply: the reference draw,
    except that an open winning character move ends the game (returned: the
    states any winning move makes, so the playout may pick either)."""
    while not game.is_terminal(state):
        if not state.carried:
            at = (state.position.characters & state.position.stones[state.to_move + 1]) \
                .bit_length() - 1
            wins = [after for m in game.legal_moves(state) if m.point == at
                    for after in [game.apply(state, m)]
                    if after.result is not None and "far rank" in after.result.reason]
            if wins:
                return wins
        state = game.random_step(state, rng)
    return [state]


@pytest.mark.parametrize("params", [{}, {"mode": "shizukana"}, {"start": "expert"},
                                    {"start": "variant"}])
def test_search_playouts_take_an_open_win_and_else_play_the_rules_games(params):
    from conformance import random_walk
    game = load("sensei", **params)
    taken = 0
    for seed in range(60):
        start = random_walk(game, seed, seed % 7 * 4)
        fast_rng, slow_rng = random.Random(seed), random.Random(seed)
        fast = game.playout(start, fast_rng)
        ends = _search_playout_by_the_rules(game, start, slow_rng)
        assert fast in ends, seed
        assert fast_rng.getstate() == slow_rng.getstate()
        taken += len(ends) > 1 or "far rank" in (ends[0].result.reason or "")
    assert taken >= 20


#: Positions a wall away from anti-game, White's to play and one of Black's: random
#: games from them end by anti-game often, where games from the start seldom do.
NEAR_WALLS = ["......./......./B....../.BBB*BBB/.WW..../......./W..W*WWW 1",
              "......W/......./......./BBBB*BBB/WWW..../......./...W*WW. 1",
              "......./......./......./BBBB*BBB/WW...../......./..WW*WWW 1",
              "B..B*BBB/......./.BB..../.WWW*WWW/W....../......./....... 2"]


@pytest.mark.parametrize("mode", ["arashi", "shizukana"])
def test_fast_playouts_play_the_rules_games_near_walls(mode):
    """The playout's quick anti-game looks (a watched stone with a clear file, the
    count of contacts) never skip an anti-game the rules find."""
    from shibumi.game import Game
    game = load("sensei", mode=mode)
    anti = 0
    for text in NEAR_WALLS:
        start = game.parse_state(text)
        for seed in range(60):
            state, walk = start, random.Random(seed)
            for _ in range(seed % 4):                # some from along a game, mid-turn
                if not game.is_terminal(state):
                    state = game.random_step(state, walk)
            fast_rng, slow_rng = random.Random(seed), random.Random(seed)
            fast = game.random_playout(state, fast_rng)
            assert fast == Game.random_playout(game, state, slow_rng), (text, seed)
            assert fast_rng.getstate() == slow_rng.getstate()
            anti += "anti-game" in fast.result.reason
    assert anti >= 20                                # the looks were put to the test


def test_playout_lanes_list_the_moves_in_the_rules_order():
    """In the playout's copies of the board, a stone's moves and the character's
    targets, read bit by bit, are stone_targets and sight in their order."""
    from shibumi.games.sensei import (ALL_LANES, ALL_SIGHT, BOARD, FRONT, SIGHT_CELL,
                                      SIGHT_LANES, _in_lanes, _in_sight_lanes, sight,
                                      stone_targets)
    from shibumi.grid import GridPosition
    cell_of = {}                                     # a bit of the stone copies: its cell
    for p in range(49):
        lanes = SIGHT_LANES[p] & ALL_LANES
        while lanes:
            cell_of[(lanes & -lanes).bit_length() - 1] = p
            lanes &= lanes - 1
    rng = random.Random(5)
    for _ in range(2000):
        cells = rng.sample(range(49), 19)
        own, other = (sum(1 << c for c in part) for part in (cells[:7], cells[7:14]))
        chasms = sum(1 << c for c in cells[14:]) if rng.random() < 0.3 else 0
        position = GridPosition(BOARD, (own, other), chasms=chasms)
        empty = ALL_LANES ^ _in_lanes(own | other | chasms)
        p = cells[0]
        for slide in (True, False):
            reach = empty & ~(empty + FRONT[p]) if slide else empty & FRONT[p]
            listed = []
            while reach:
                listed.append(cell_of[(reach & -reach).bit_length() - 1])
                reach &= reach - 1
            assert listed == stone_targets(position, p, slide)
        view = ALL_SIGHT ^ _in_sight_lanes(other)
        seen = _in_sight_lanes(own) & view & ~(view + (SIGHT_LANES[p] << 1))
        listed = []
        while seen:
            listed.append(SIGHT_CELL[(seen & -seen).bit_length() - 1])
            seen &= seen - 1
        assert listed == sight(p, own, other)


def test_walled_agrees_with_the_plain_walk():
    """The quick look straight ahead never changes the answer of the full walk."""
    from shibumi.games.sensei import ALL, GOAL, reachable, walled
    rng = random.Random(3)
    for _ in range(3000):
        cells = rng.sample(range(49), 19)
        own = sum(1 << c for c in cells[:7])
        other = sum(1 << c for c in cells[7:14])
        chasms = sum(1 << c for c in cells[14:]) if rng.random() < 0.5 else 0
        for player in (0, 1):
            plain = not reachable(own, ALL & ~other & ~chasms) & GOAL[player]
            assert walled(own, other, chasms, player) == plain


def test_watch_finds_the_stone_nearest_the_goal_with_a_clear_file():
    """_watch's shadows of the blockers pick what a look stone by stone picks: from
    the goal side, the first stone whose file ahead holds no blocker."""
    from shibumi.games.sensei import FILE_AHEAD, _watch
    rng = random.Random(7)
    for _ in range(3000):
        cells = rng.sample(range(49), 19)
        own = sum(1 << c for c in cells[:7])
        blockers = sum(1 << c for c in cells[7:7 + rng.randrange(1, 13)])
        for player in (0, 1):
            order = sorted(cells[:7], reverse=player == 0)        # nearest the goal first
            found = next((p for p in order if not FILE_AHEAD[player][p] & blockers), None)
            watch = [0, 0, 0, 0]
            ahead = _watch(watch, player, own, blockers)
            if found is None:
                assert (ahead, watch[player], watch[player + 2]) == (-1, 0, -1)
            else:
                assert ahead == watch[player + 2] == FILE_AHEAD[player][found]
                assert watch[player] == 1 << found


def test_positions_built_without_checks_are_the_checked_ones():
    from shibumi.games.sensei import BOARD, _position
    from shibumi.grid import GridPosition
    game = load("sensei", start="expert")
    for seed in range(3):
        for state in (random_walk(game, seed, 12 * seed + 5), game.initial_state()):
            pos = state.position
            fast = _position(pos.stones[1], pos.stones[2], pos.characters, pos.chasms)
            checked = GridPosition(BOARD, pos.stones[1:], characters=pos.characters,
                                   chasms=pos.chasms)
            assert fast == checked == pos and hash(fast) == hash(pos)
            assert (fast.stones, fast.pawns, fast.occupied) == \
                (checked.stones, checked.pawns, checked.occupied)


def test_symmetries_along_random_games():
    for start in ("standard", "variant", "expert"):
        game = load("sensei", mode="arashi" if start == "expert" else "shizukana", start=start)
        for seed in range(3):
            check_symmetries(game, random_walk(game, seed, 9 * seed + 2))


def test_terminal_play():
    check_terminal_play("sensei", mode="arashi", turn_limit=12)


# -- rules and readings ----------------------------------------------------------------------

def test_start_and_first_actions():
    game = load("sensei", mode="shizukana")
    state = game.initial_state()
    assert state.position.text() == "BBBB*BBB/......./......./......./......./......./WWWW*WWW"
    texts = sorted(m.text() for m in game.legal_moves(state))
    # six stones step up (the one carrying the character cannot move), the character
    # goes to any other stone of rank 1 (own stones do not block it); no pass yet
    assert texts == sorted([f"{f}1-{f}2" for f in "abcefg"] + [f"d1-{f}1" for f in "abcefg"])


def test_turn_of_three_actions_ends_by_itself_and_pass_ends_early():
    match = load("sensei", mode="shizukana").new_match()
    match.push("c1-c2")
    assert match.current_player == 0 and "pass" in [m.text() for m in match.legal_moves()]
    match.push("c2-c3")                  # the same stone twice
    assert not any(m.text() == "e1-e2" for m in match.legal_moves())   # no third stone move
    match.push("d1-a1")                  # the character: the third action ends the turn
    assert match.current_player == 1 and match.state.turn == 1
    match.push("a7-a6")
    match.push("pass")
    assert match.current_player == 0


def test_arashi_slides_and_stops_before_stones_and_chasms():
    game = load("sensei", mode="arashi")
    targets = {m.text() for m in game.legal_moves(game.initial_state()) if m.point == 0}
    assert {"a1-a2", "a1-a6"} <= targets and "a1-a7" not in targets
    expert = load("sensei", mode="arashi", start="expert")
    targets = {m.text() for m in expert.legal_moves(expert.initial_state())
               if m.text().startswith("c1-")}
    assert targets == {"c1-c2"}          # c3 is a chasm: no stopping on it, no crossing


def legal_texts(game, text):
    return {m.text() for m in game.legal_moves(game.parse_state(text))}


def test_character_blocked_by_opponent_stone_not_by_own_or_chasm():
    game = load("sensei")
    # d3 holds a black stone: the white stone on d5 is out of the character's reach
    found = legal_texts(game, "BBBB*BB./......./......./...W.../...B.../......./WWWW*WW. 1")
    assert "d1-d5" not in found and "d1-a1" in found      # own stones c1, b1 do not block
    found = legal_texts(game, "BBBB*BBB/......./...W.../......./...W.../......./WWWW*W.. 1")
    assert {"d1-d3", "d1-d5"} <= found                    # own stone d3 does not block
    found = legal_texts(game, "BBBB*B../......./......./......./......./WW...WW/W.BW*B.W 1")
    assert not {m for m in found if m.startswith("d1-")}  # black c1 and e1 block the rank
    expert = load("sensei", mode="arashi", start="expert")
    found = legal_texts(expert, "BBBB*BBB/......./..#W#../...#.../..#.#../......./WWWW*WW. 1")
    assert "d1-d5" in found                               # over the chasm d4


def test_win_by_reaching_the_far_rank():
    game = load("sensei")
    match = game.new_match(state=game.parse_state(
        "BBBWBBB*/B....../......./......./......./......./WWWW*WW. 1"))
    assert not match.is_over()
    match.push("d1-d7")
    outcome = match.outcome()
    assert outcome.winners == (0,) and "far rank" in outcome.reason
    assert game.winning_points(match.state) == 1 << 45     # d7


def test_anti_game_walled_player_with_three_contacts_wins():
    game = load("sensei")
    # Black's wall on rank 4 lacks a4; White's b3 and c3 face it.
    match = game.new_match(state=game.parse_state(
        "......./......./B....../.BBB*BBB/.WW..../......./W..W*WWW 1"))
    match.push("g1-g2")
    match.push("pass")
    match.push("a5-a4")             # Black closes the wall: White has two contacts only
    assert not match.is_over()
    match.push("pass")
    match.push("a1-a2")
    match.push("a2-a3")             # a third white stone faces the wall: Black loses
    outcome = match.outcome()
    assert outcome.winners == (0,) and "anti-game" in outcome.reason
    assert game.winning_points(match.state).bit_count() == 3


def test_no_anti_game_when_a_stone_is_beyond_the_wall():
    game = load("sensei")
    beyond = game.parse_state("......W/......./......./BBBB*BBB/WWW..../......./...W*WW. 1")
    assert not game.is_terminal(beyond)          # three contacts, but g7 is past the wall
    walled = game.parse_state("......./......./......./BBBB*BBB/WWW..../......./...W*WWW 1")
    assert game.outcome(walled).winners == (0,)


def test_state_text_round_trips_and_bad_input_is_refused():
    game = load("sensei", mode="shizukana")
    match = game.new_match()
    match.push("c1-c2")
    match.push("d1-c2")
    text = game.state_text(match.state)
    assert text.endswith(" 1 moves=1 carried played=2")
    assert game.state_key(game.parse_state(text)) == game.state_key(match.state)
    before = match.state
    for bad, error in (("e1-e3", IllegalMoveError), ("c2-c1", IllegalMoveError),
                       ("z9", NotationError), ("c1-c9", NotationError),
                       ("b2>d4.1", NotationError)):
        with pytest.raises(error):
            match.push(bad)
        assert match.state is before
    for bad in ("BBBB*BBB/7/7/7/7/7/WWWWWWW 1",              # no white character
                "BBBB*BBB/7/7/7/7/7/WWWW*WWW 3",
                "BBBB*BBB/7/7/7/7/WWWW*WWW 1",                # six ranks
                "BBBB*BBB/7/7/7/7/7/WWWW*WWW 1 moves=3",
                "BBBB*BBB/7/7/7/7/7/WWWW*WWW 1 moves=2 carried",
                "BBBB*BBB/7/7/3#3/7/7/WWWW*WWW 1"):             # a chasm off the expert board
        with pytest.raises(NotationError):
            game.parse_state(bad)
    with pytest.raises(UnknownGameError, match="arashi"):
        load("sensei", mode="shizukana", start="expert")
    with pytest.raises(UnknownGameError):
        load("sensei", mode="storm")


def test_variant_start():
    state = load("sensei", start="variant").initial_state()
    assert state.position.text() == "/".join(["BWBB*BWB"] + ["......."] * 5 + ["WBWW*WBW"])


def test_table_plays_every_legal_move_by_clicks():
    game = load("sensei", mode="arashi", start="expert")
    for seed in range(2):
        state = random_walk(game, seed, 5 + 4 * seed)
        for move in game.legal_moves(state):
            table = Table(game, seats="human,human", record=game.new_match(state=state).record())
            if move.kind == "pass":
                assert table.choose("pass") == move
                continue
            played = table.click(move.point)
            if played is None:
                played = table.click(move.target)
            assert played == move, (move, table.message)
            assert table.view()["last"] == [move.point, move.target]


def test_status_and_describe():
    game = load("sensei", mode="arashi")
    match = game.new_match()
    match.push("a1-a5")
    lines = game.status_lines(match.state)
    assert lines[0] == ("White may still make: 1 stone move and the character's move "
                        "(or pass to end the turn).")
    assert "Arashi" in lines[1]
    view = Table(game, seats="human,human", record=match.record()).view()
    assert any(b.get("character") for b in view["balls"])
    assert view["status"][:2] == lines
