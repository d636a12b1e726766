"""Spangle: secret colours, proposals put to a vote, the scarcest colour in the bag wins."""

import json
import random

import pytest

from conformance import (check_honest_ai, check_playouts,
                         check_random_games, check_symmetries)
from shibumi import CHANCE, SIMULTANEOUS, TERMINAL, IllegalMoveError, Move, NotationError, load
from shibumi.games.spangle import (ACCEPT, OPPOSE, PERMUTATIONS, SLOTS, UNSEEN,
                                   competition_points, first_veto, winning_colours)
from shibumi.interaction import Table
from shibumi.notation import parse_point
from shibumi.position import BLACK, RED, WHITE
from reference import below as _below, cells_of as _cells, open_points as _open

EMPTY = "..../..../..../....|.../.../...|../..|."
START4 = f"{EMPTY} 1 colours=WWBR veto=2 actions=1"
#: White on a1, a3, c3 and black on c1 (the corner of the board).
CORNER = "..../..../WW../WB..|.../.../...|../..|."
#: A full board, rows from the top (rank 7) down.
FULL_BOARD = "WBRW/BRWB/WWBR/WWRB"


def game(players=4):
    return load("spangle", players=players)


def state(text, players=4):
    return game(players).parse_state(text)


def texts(moves):
    return sorted(m.text() for m in moves)


def accept_all(g, s, move):
    """The state after ``move`` is proposed and nobody opposes it."""
    s = g.apply(s, move)
    if g.current_player(s) == SIMULTANEOUS:
        s = g.apply_joint(s, [PASS if p == s.to_move else ACCEPT
                              for p in range(g.num_players)])
    return s


PASS = Move("pass")


def chosen(g, seed, slots=None):
    """A match after the deal and the slot choice (slot 1 for everyone by default)."""
    m = g.new_match(seed=seed)
    m.push_joint(slots or ["=1"] * g.num_players)
    return m


# -- conformance ---------------------------------------------------------------

@pytest.mark.parametrize("players", [4, 5, 10])
def test_random_games_and_playouts(players):
    check_random_games("spangle", seeds=range(4), players=players)
    check_playouts("spangle", games=60, players=players)


@pytest.mark.parametrize("players", range(4, 11))
def test_fast_playouts_play_the_rules_games_draw_for_draw(players):
    """Every table size, one start in five before the deal (the benchmark's
    start): the same deals, slots, proposals and votes as the generic loop."""
    check_playouts("spangle", games=100, players=players)


@pytest.mark.parametrize("players", [4, 7])
def test_the_ai_is_honest(players):
    check_honest_ai(game(players), seeds=range(2), iterations=12)


@pytest.mark.slow
@pytest.mark.parametrize("players", [4, 5, 6, 8, 10])
def test_the_ai_is_honest_longer(players):
    check_honest_ai(game(players), seeds=range(4), steps=(0, 3, 6, 9, 20), iterations=40)


def test_symmetries_of_random_positions():
    g = game(5)
    for seed in range(6):
        s = chosen(g, seed).state
        rng = random.Random(seed)
        for _ in range(rng.randrange(10, 40)):
            if g.current_player(s) == TERMINAL:
                break
            s = g.random_step(s, rng)
        if g.current_player(s) >= 0:
            check_symmetries(g, s)


# -- the secret colours ------------------------------------------------------------

def test_the_deal_of_slot_orders_and_the_choice():
    g = game(4)
    s = g.initial_state()
    assert g.current_player(s) == CHANCE and s.veto == 2
    odds = g.chance_outcomes(s)
    assert len(odds) == 6 and {p for _, p in odds} == {1 / 6}
    assert g.legal_moves(s) == [] and g.legal_moves(s, 0) == []
    for k in (0, 5, 2, 3):
        s = g.apply(s, Move(f"={k}"))
    assert g.current_player(s) == SIMULTANEOUS and s.keys == (0, 5, 2, 3)
    assert g.legal_moves(s, 2) == list(SLOTS)
    after = g.apply_joint(s, [Move("=1"), Move("=1"), Move("=2"), Move("=3")])
    expected = (PERMUTATIONS[0][0], PERMUTATIONS[5][0], PERMUTATIONS[2][1], PERMUTATIONS[3][2])
    assert after.colours == expected and after.keys == () and after.actions == 1
    assert g.current_player(after) == 0


def test_every_colour_can_be_chosen_whatever_the_deal():
    for perm in PERMUTATIONS:
        assert sorted(perm) == [WHITE, BLACK, RED]


def test_the_others_see_a_number_but_not_the_colour():
    g = game(5)
    s = chosen(g, 3).state
    for seat in range(5):
        seen = g.observe(s, seat)
        assert seen.colours[seat] == s.colours[seat]
        assert all(c == UNSEEN for p, c in enumerate(seen.colours) if p != seat)
        assert f"Your secret colour: {['', 'white', 'black', 'red'][s.colours[seat]]}." \
            in g.status_lines(seen)
    # the whole state, seen by no seat, names no colour before the end
    assert not any("secret colour" in line.lower() for line in g.status_lines(s))


def test_during_the_choice_a_seat_sees_its_own_slots_only():
    g = game(4)
    m = g.new_match(seed=5)
    seen = g.observe(m.state, 1)
    assert seen.keys[1] == m.state.keys[1] and seen.keys.count(UNSEEN) == 3
    assert seen.last is None                             # the deal is not shown
    line = g.status_lines(seen)[0]
    assert line.startswith("Choose your secret colour: =1 ")
    text = g.state_text(seen)
    assert text.count("???") == 3


def test_the_veto_starts_at_half_the_players_rounded_up():
    assert [first_veto(n) for n in range(4, 11)] == [2, 3, 3, 4, 4, 5, 5]
    for n in (4, 9):
        assert game(n).initial_state().veto == first_veto(n)


# -- proposals and votes -------------------------------------------------------------

def test_a_refused_proposal_raises_the_veto_and_passes_the_turn():
    g = game(4)
    m = g.new_match(state=state(START4))
    m.push("Wa1")
    assert m.current_player == SIMULTANEOUS
    assert g.legal_moves(m.state, 0) == [PASS]
    assert g.legal_moves(m.state, 1) == [ACCEPT, OPPOSE]
    m.push_joint(["pass", "=1", "=1", "=0"])          # two hands: the veto of 2
    assert m.state.position.occupied == 0 and m.state.veto == 3 and m.state.to_move == 1
    m.push("Ba1")
    m.push_joint(["=1", "pass", "=1", "=0"])          # two hands, veto now 3: placed
    assert m.state.position.colour_at(0) == BLACK and m.state.veto == 3
    assert m.state.to_move == 2 and m.state.last == Move("Ba1")


def test_the_proposer_cannot_vote_against_and_the_others_must_vote():
    g = game(4)
    m = g.new_match(state=state(START4))
    m.push("Wa1")
    with pytest.raises(IllegalMoveError):
        m.push_joint(["=1", "=1", "=1", "=1"])
    with pytest.raises(IllegalMoveError):
        m.push_joint(["pass", "pass", "=1", "=1"])
    with pytest.raises(IllegalMoveError):
        m.push("Wc1")                                  # no proposal during a vote
    assert m.state.proposal == Move("Wa1") and m.state.veto == 2


def test_once_the_veto_exceeds_the_voters_there_is_no_vote():
    g = game(4)
    s = state(f"{EMPTY} 3 colours=WWBR veto=4 actions=5")
    after = g.apply(s, Move("Rg7"))
    assert after.position.colour_at(parse_point("g7")) == RED
    assert g.current_player(after) == 3 and after.actions == 6


def test_at_most_half_the_players_are_ever_refused():
    for n in (4, 5, 10):
        g = game(n)
        m = chosen(g, 1)
        refused = 0
        while not m.is_over():
            if m.current_player == SIMULTANEOUS:
                before = m.state.veto
                m.push_joint(["pass" if p == m.state.to_move else "=1" for p in range(n)])
                refused += m.state.veto > before
            else:
                m.push(m.legal_moves()[0])
        assert refused == n // 2 and m.state.veto == first_veto(n) + n // 2 == n
        assert g.length(m.state) == 1 + 2 * refused + 30       # no vote after that


def test_the_longest_game_has_70_actions():
    g = game(10)
    m = chosen(g, 2)
    # 29 balls placed after a vote each, then every proposal refused while it can be
    while not m.is_over():
        if m.current_player == SIMULTANEOUS:
            s = m.state
            hands = "=1" if s.veto <= g.voters and s.position.count() == 29 else "=0"
            m.push_joint(["pass" if p == s.to_move else hands for p in range(10)])
        else:
            m.push(m.legal_moves()[0])
    assert g.length(m.state) == 70 == g.info.max_length


# -- the placement rules ---------------------------------------------------------------

def test_on_the_board_a_colour_must_go_next_to_its_own_balls():
    g = game(4)
    s = state(f"{CORNER} 1 colours=WWBR veto=2 actions=9")
    moves = texts(g.legal_moves(s))
    assert [t for t in moves if t[0] == "W" and t[1:] in
            ("e3.0", "a5", "c5.0", "e1", "g1")] == ["Wa5", "Wc5.0", "We3.0"]
    assert "Be1" in moves and "Bg1" not in moves and "Be3.0" not in moves
    assert sum(t[0] == "R" for t in moves) == 12           # red: any free hole
    assert "Wb2" in moves and "Bb2" not in moves and "Rb2" not in moves


def test_a_diagonal_neighbour_does_not_count():
    g = game(4)
    s = state(f"..../..../..../W...|.../.../...|../..|. 2 colours=WWBR veto=2 actions=3")
    whites = texts(m for m in g.legal_moves(s) if m.colour == WHITE)
    assert whites == ["Wa3", "Wc1"]                       # not c3, its diagonal


def test_a_colour_hemmed_in_on_the_board_may_go_anywhere():
    g = game(4)
    # white a1 is boxed in by black c1 and black a3: any free hole for white
    s = state(f"..../..../B.../WB..|.../.../...|../..|. 2 colours=WWBR veto=2 actions=4")
    whites = texts(m for m in g.legal_moves(s) if m.colour == WHITE)
    assert len(whites) == 13


def test_above_the_board_a_platform_of_two_of_the_colour():
    g = game(4)
    # full board and a white ball on b2: each level-1 point takes the colours with two
    # balls on its platform (d2 has two whites, f2 two blacks and two reds, ...)
    s = state(f"{FULL_BOARD}|.../.../W..|../..|. 2 colours=WWBR veto=2 actions=18")
    assert texts(g.legal_moves(s)) == ["Bb6", "Bf2", "Bf4", "Rd6", "Rf2", "Wb4", "Wd2",
                                       "Wd4.1", "Wf6"]


def test_above_the_board_next_to_its_colour_on_the_same_level():
    g = game(4)
    # level 1 full but f6; level 2 has a red ball on c3: red may go on e3.2 beside
    # it, though the platform of e3.2 has one red ball only
    level1 = "WRW/RBW/BRW"
    s = state(f"{FULL_BOARD}|{level1}|../R.|. 2 colours=WWBR veto=2 actions=27")
    assert s.position.playable() & (1 << parse_point("e3.2"))
    assert "Re3.2" in texts(g.legal_moves(s))
    s2 = state(f"{FULL_BOARD}|{level1}|../B.|. 2 colours=WWBR veto=2 actions=27")
    assert "Re3.2" not in texts(g.legal_moves(s2))


def test_a_spent_colour_cannot_be_proposed_and_a_deadlock_frees_the_rest():
    g = game(10)
    # White and black are spent (5 backers each, 11 of each placed); level 2 is
    # two white and two black: red may not go on the apex by the rules, so the
    # deadlock rule lets it.
    board = "WWBB/WWBB/RRRR/RRRW"
    level1 = "BWB/WBW/BWB"
    text = f"{board}|{level1}|WB/BW|. 1 colours=WWWWWBBBBB veto=10 spent=WB actions=40"
    s = g.parse_state(text)
    assert s.spent == (1 << WHITE) | (1 << BLACK)
    assert texts(g.legal_moves(s)) == ["Rd4.3"]
    final = g.apply(s, Move("Rd4.3"))
    assert g.is_terminal(final)


# -- the end -------------------------------------------------------------------------

def test_the_scarcest_colour_in_the_bag_wins():
    assert winning_colours((3, 5, 6), (WHITE, BLACK, RED, RED)) == (WHITE,)
    assert winning_colours((5, 3, 3), (BLACK, BLACK, RED, WHITE)) == (RED,)   # smaller group
    assert winning_colours((5, 3, 3), (BLACK, RED, WHITE, WHITE)) == (BLACK, RED)
    assert winning_colours((3, 3, 3), (WHITE,) * 2 + (BLACK,) * 2 + (RED,) * 2) == \
        (WHITE, BLACK, RED)
    assert winning_colours((3, 3, 6), (BLACK, RED, RED, RED)) == (BLACK,)
    assert winning_colours((3, 3, 6), (RED,) * 4) == ()          # tied colours unbacked
    assert winning_colours((2, 4, 6), (BLACK, BLACK, RED, RED)) == ()


def test_the_translators_competition_points():
    seats = (RED,) * 2 + (BLACK,) * 3 + (WHITE,) * 5
    assert competition_points(seats, (BLACK,)) == (0, 0) + (7,) * 3 + (0,) * 5
    assert competition_points(seats, (RED,))[:2] == (11, 11)
    assert competition_points(seats, (WHITE,))[5:] == (5,) * 5
    assert competition_points(seats, (RED, BLACK)) == (5,) * 5 + (0,) * 5
    assert competition_points(seats, ()) == (0,) * 10


def test_a_finished_game_names_its_winners_and_shows_everything():
    g = game(4)
    # 11 white, 10 black and 9 red balls placed; white backed twice, black and red
    # once: the bag holds 3 white, 5 black and 6 red balls
    full = "WBRW/BRWB/RWBR/WBRW|BRW/RWB/WBR|WB/RW|B"
    s = g.parse_state(f"{full} 3 colours=WWBR veto=2 actions=31")
    assert g.is_terminal(s) and [s.position.count(c) for c in (WHITE, BLACK, RED)] == [11, 10, 9]
    out = g.outcome(s)
    assert out.winners == (0, 1) and "3 white, 5 black, 6 red" in out.reason
    assert out.scores == (2.0, 2.0, 0.0, 0.0) and out.ranking == ((0, 1), (2, 3))
    assert g.observe(s, 3) == s
    assert g.winning_points(s) == s.position.white
    assert any(line.startswith("Secret colours: Player 1 white") for line in g.status_lines(s))


# -- text and bad input --------------------------------------------------------------------

def test_state_text_round_trips_and_observations_read_back():
    g = game(6)
    for seed in range(4):
        m = chosen(g, seed)
        rng = random.Random(seed)
        for _ in range(25):
            if m.is_over():
                break
            if m.current_player == SIMULTANEOUS:
                m.push_joint(rng.choice(g.legal_moves(m.state, p)) for p in range(6))
            else:
                m.push(rng.choice(m.legal_moves()))
        for s in (m.state, g.observe(m.state, 2)):
            again = g.parse_state(g.state_text(s))
            assert g.state_key(again) == g.state_key(s)


@pytest.mark.parametrize("text", [
    f"{EMPTY} 1 colours=WWB veto=2 actions=1",                 # three colours for four
    f"{EMPTY} 1 colours=WWBX veto=2 actions=1",
    f"{EMPTY} 1 colours=WWBR veto=1 actions=1",                # below the first veto
    f"{EMPTY} 1 colours=WWBR veto=2 actions=0",                # the choice not counted
    f"{EMPTY} 1 colours=WWBR veto=2 actions=1 spent=W",        # white is not spent
    f"{EMPTY} 1 colours=WWBR veto=2 vote=Wb2 actions=2",       # b2 is not playable
    f"{EMPTY} 1 colours=WWBR veto=2 vote=xa1 actions=2",
    f"{EMPTY} 1 keys=WBR/BRW/RRR/WBR veto=2",
    f"{EMPTY} 1 keys=WBR veto=2 colours=WWBR actions=1",
    f"W.../..../..../....|.../.../...|../..|. 1 keys=WBR veto=2",
    f"{EMPTY} 1 colours=WWBR veto=2 actions=1 colours=WWBR",
    f"{EMPTY} 1 colours=WWBR veto=2 actions=1 extra",
])
def test_bad_states_are_refused(text):
    with pytest.raises(NotationError):
        state(text)


def test_bad_moves_are_refused_and_change_nothing():
    g = game(4)
    m = g.new_match(state=state(f"{CORNER} 1 colours=WWBR veto=2 actions=9"))
    before = m.state
    for bad in ("Wg7", "Bb2", "xa1", "a1", "=1", "pass", "Wd4.3"):
        with pytest.raises((IllegalMoveError, NotationError)):
            m.push(bad)
    with pytest.raises(IllegalMoveError):
        g.apply(before, Move("Wg7"))
    with pytest.raises(IllegalMoveError):
        m.push_joint(["=0"] * 4)
    assert m.state is before


# -- perft against an engine-free brute force -------------------------------------------

def _flat(a, b):
    return a[0] == b[0] and abs(a[1] - b[1]) + abs(a[2] - b[2]) == 1


def ref_proposals(board, bag):
    """(colour, point) proposals from the rules alone: board a dict of points."""
    free = _open(board)
    out = []
    for c in "WBR":
        if not bag[c]:
            continue
        mine = [q for q, k in board.items() if k == c]
        holes = [pt for pt in free if pt[0] == 0]
        near = [pt for pt in holes if any(_flat(pt, q) for q in mine)]
        spots = near or holes
        for pt in free:
            if pt[0] and (sum(board[q] == c for q in _below(pt)) >= 2
                          or any(_flat(pt, q) for q in mine)):
                spots.append(pt)
        out += [(c, pt) for pt in spots]
    if not out:
        out = [(c, pt) for c in "WBR" if bag[c] for pt in free]
    return out


def ref_perft(board, bag, depth):
    if depth == 0 or len(board) == 30:
        return 1
    total = 0
    for c, pt in ref_proposals(board, bag):
        board[pt] = c
        bag[c] -= 1
        total += ref_perft(board, bag, depth - 1)
        bag[c] += 1
        del board[pt]
    return total


def engine_perft(g, s, depth):
    if depth == 0 or g.is_terminal(s):
        return 1
    return sum(engine_perft(g, accept_all(g, s, m), depth - 1) for m in g.legal_moves(s))


def ref_bag(s):
    board = _cells(s.position)
    return {c: 16 - sum(k == c for k in board.values())
            - sum("WBR"[k - 1] == c for k in s.colours) for c in "WBR"}


#: (state text, depth, perft); in the last, one white ball is left in the bag.
PERFT = [
    (START4, 1, 48),
    (START4, 2, 1584),
    pytest.param(START4, 3, 32880, marks=pytest.mark.slow),
    (f"{CORNER} 1 colours=WWBR veto=2 actions=9", 2, 183),
    (f"{FULL_BOARD}|.../.../W..|../..|. 2 colours=WWBR veto=2 actions=18", 3, 820),
    ("WWBB/WWBB/RRRR/RRRW|BWB/WBW/BW.|W./..|. 1 colours=WWWWWBBBBB veto=6 actions=30",
     3, 38),
]


@pytest.mark.parametrize("text,depth,expected", PERFT)
def test_perft_matches_the_brute_force(text, depth, expected):
    players = len(text.split("colours=")[1].split()[0])
    g = game(players)
    s = g.parse_state(text)
    ref = ref_perft(_cells(s.position), ref_bag(s), depth)
    assert engine_perft(g, s, depth) == ref
    assert ref == expected


def test_perft_from_random_positions():
    for players, seed in ((4, 1), (6, 2), (10, 3)):
        g = game(players)
        m = chosen(g, seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(20, 50)):
            if m.is_over():
                break
            if m.current_player == SIMULTANEOUS:
                m.push_joint(rng.choice(g.legal_moves(m.state, p)) for p in range(players))
            else:
                m.push(rng.choice(m.legal_moves()))
        s = m.state
        if g.current_player(s) == SIMULTANEOUS:
            s = g.apply_joint(s, [PASS if p == s.to_move else ACCEPT for p in range(players)])
        if g.is_terminal(s):
            continue
        assert engine_perft(g, s, 2) == ref_perft(_cells(s.position), ref_bag(s), 2)


# -- live play: a seat never sees another seat's secret --------------------------------------

def test_a_table_of_humans_never_shows_a_seat_the_others_colours():
    g = game(4)
    t = Table(g, seats="human", seed=11)
    rng = random.Random(4)
    names = {WHITE: "white", BLACK: "black", RED: "red"}
    steps = 0
    while not t.match.is_over() and steps < 200:
        steps += 1
        if t.covered:
            cover = t.view()
            assert cover["balls"] == [] and cover["status"] == [] and cover["history"] == []
            t.reveal()
        seat = t.viewer
        view = t.view()
        true = t.match.state
        assert view["record_secret"]
        flat = json.dumps({k: v for k, v in view.items() if k != "record"})
        for line in view["status"]:
            if "secret colour" in line and true.colours:
                assert line == f"Your secret colour: {names[true.colours[seat]]}."
        for entry in view["history"]:
            assert "drawn" not in entry["text"] or "hidden" in entry["text"]
        # the view is the same whatever the other seats' secrets are
        fake = g.determinise(g.observe(true, seat), seat, random.Random(steps))
        t.match.state = fake
        t._cache = None
        other = json.dumps({k: v for k, v in t.view().items() if k not in ("record", "version")})
        t.match.state = true
        t._cache = None
        assert other == json.dumps({k: v for k, v in t.view().items()
                                    if k not in ("record", "version")}), flat
        options = t.options()
        t.choose(rng.choice(options), player=seat)
    assert t.match.is_over()
    assert "Secret colours:" in " ".join(t.view()["status"])


def test_every_proposal_is_reachable_by_clicks():
    g = game(4)
    m = g.new_match(state=state(f"{CORNER} 1 colours=WWBR veto=2 actions=9"))
    reached = set()
    for move in g.legal_moves(m.state):
        t = Table(g, seats=["human", "ai", "ai", "ai"])
        t.match = g.new_match(state=m.state)
        t.click(move.point)
        if t.match.state.proposal is None:           # several colours: pick in the list
            labels = [o["label"] for o in t.view()["options"]]
            index = next(i for i, lab in enumerate(labels) if lab.startswith(move.text()[0]))
            t.choose(index)
        reached.add(t.match.state.proposal)
    assert reached == set(g.legal_moves(m.state))


def test_the_playout_masks_give_the_allowed_points():
    """The playout's kept masks (points next to a colour, from FLAT_MASK ball by ball;
    platforms on two of a colour) give allowed_points along random games."""
    from shibumi.bits import playable_of
    from shibumi.geometry import BOARD_MASK, points_of
    from shibumi.bits import pairs_under
    from shibumi.games.spangle import FLAT_MASK, allowed_points, neighbours_of
    g = game(4)
    for seed in range(40):
        s, rng = g.initial_state(random.Random(seed)), random.Random(seed)
        while not g.is_terminal(s):
            pos = s.position
            masks = (0, pos.white, pos.black, pos.red)
            playable = playable_of(pos.occupied)
            holes, upper = playable & BOARD_MASK, playable & ~BOARD_MASK
            for c in (WHITE, BLACK, RED):
                near = 0
                for p in points_of(masks[c]):
                    near |= FLAT_MASK[p]
                assert near == neighbours_of(masks[c])
                kept = (holes & near or holes) | upper & (near | pairs_under(masks[c]))
                assert kept == allowed_points(masks, c, playable)
            s = g.random_step(s, rng)
