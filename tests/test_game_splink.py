"""Splink: an auction for roles, a shared pool, white-red contacts seen on the pyramid."""
import itertools
import math
import random

import pytest
from hypothesis import given, settings, strategies as st

from conformance import (check_playouts, check_random_games,
                         check_symmetries, random_walk)
from reference import ABOVE, ALL, cells_of, open_points, touch
from shibumi import IllegalMoveError, Move, NotationError, load
from shibumi.analysis import perft
from shibumi.games.splink import (FULL_CONTACTS, MAX_BID, SIDES, SIDES_DETAIL, contacts,
                                  has_turn, relocation_targets, side_counts)
from shibumi.geometry import (ALL_MASK, APEX, COORDS, INTERIOR_MASK, LEVEL, NUM_POINTS,
                              SUPPORT_MASK, points_of)
from shibumi.notation import parse_point, point_name
from shibumi.position import RED, WHITE, Position, playable_mask

FULL = ALL_MASK
EMPTY = "..../..../..../....|.../.../...|../..|."


def plain_targets(occupied, source):
    """The relocation rule as written: lift the ball through Position.remove, then
    any playable point but the one it came from."""
    position = Position.from_masks(white=occupied)
    if position.is_pinned(source):
        return 0
    lifted, _ = position.remove(source)
    return playable_mask(lifted.occupied) & ~(1 << source)


def test_relocation_targets_match_the_plain_rule_on_any_position():
    rng = random.Random(11)
    for _ in range(3000):
        occ = 0
        for _ in range(rng.randrange(1, 31)):    # any stable occupancy
            occ |= 1 << rng.choice(list(points_of(playable_mask(occ))))
        for source in points_of(occ):
            assert relocation_targets(occ, source) == plain_targets(occ, source)


def game(**params):
    return load("splink", **params)


def state(text, to_move=1, extras="", **params):
    return game(**params).parse_state(f"{text} {to_move} {extras}".strip())


def match_at(text, to_move=1, extras="", **params):
    return game(**params).new_match(state=state(text, to_move, extras, **params))


def play(moves, **params):
    m = game(**params).new_match()
    for text in moves.split():
        m.push(text)
    return m


def playing(attractor=1, target=30):
    """A match whose auction is over: the given player is the Attractor."""
    return match_at(EMPTY, attractor, f"attractor={attractor} target={target}")


# -- conformance ---------------------------------------------------------------------

def test_conformance():
    check_random_games("splink", seeds=range(12), mode="duel")
    check_playouts("splink", games=300)
    check_playouts("splink", games=150, mode="duel")


def test_a_bad_mode_is_refused():
    from shibumi import UnknownGameError
    with pytest.raises(UnknownGameError):
        game(mode="auction")


# -- the auction ------------------------------------------------------------------------

def test_player_1_must_open_the_bidding_with_1_to_60():
    m = game().new_match()
    assert m.current_player == 0 and m.state.attractor is None
    assert [mv.text() for mv in m.legal_moves()] == [f"={v}" for v in range(1, 61)]
    for bad in ("pass", "=0", "=61", "Wa1"):
        with pytest.raises((IllegalMoveError, NotationError)):
            m.push(bad)
    assert m.state == game().initial_state()            # nothing changed


def test_bids_rise_and_the_first_pass_makes_the_passer_the_repulsor():
    m = play("=20")
    assert m.current_player == 1
    assert "pass" in {mv.text() for mv in m.legal_moves()}
    with pytest.raises(IllegalMoveError):
        m.push("=20")                                   # a bid must be higher
    m.push("=25")
    m.push("=26")
    assert m.current_player == 1 and m.state.bid == 26
    m.push("pass")                                      # Player 2 passes first
    assert m.state.attractor == 0 and m.state.bid == 26
    assert m.current_player == 0                        # the Attractor moves first
    assert len(m.legal_moves()) == 32                   # 16 holes x 2 colours


def test_a_bid_of_60_leaves_only_a_pass():
    m = play("=1 =60")
    assert [mv.text() for mv in m.legal_moves()] == ["pass"]
    m.push("pass")
    assert m.state.attractor == 1 and m.state.bid == 60 and m.current_player == 1


def test_the_attractor_wins_by_reaching_the_bid_exactly_and_loses_one_short():
    final = play(BOOK_GAME).state.position
    assert contacts(final) == 33
    for target, winner in ((33, 1), (34, 0), (1, 1), (60, 0)):
        s = state(final.text(), 1, f"attractor=2 target={target}")
        outcome = game().outcome(s)
        assert outcome.winners == (winner,)
        assert outcome.scores == (float(target), 33.0)   # Repulsor: the bid; Attractor: 33
        assert "the Attractor, made 33 contacts against a bid of" in outcome.reason


# -- a turn -------------------------------------------------------------------------------

def test_a_turn_places_a_white_and_a_red_ball_in_either_order():
    m = playing()
    m.push("Rc3")
    assert m.current_player == 0 and m.state.pending == WHITE
    assert {mv.colour for mv in m.legal_moves()} == {WHITE}
    assert len(m.legal_moves()) == 15                   # anywhere else, touching or not
    with pytest.raises(IllegalMoveError):
        m.push("Rc1")
    m.push("g7")
    assert m.current_player == 1 and m.state.pending is None
    assert m.state.position.count(WHITE) == m.state.position.count(RED) == 1


def test_the_second_ball_may_rest_on_a_platform_the_first_completed():
    m = match_at("..../..../W.../WR..|.../.../...|../..|.", 1, "attractor=1 target=5")
    m.push("Rc3")                                      # completes the platform under b2
    assert "Wb2" in {mv.text() for mv in m.legal_moves()}
    m.push("Wb2")
    assert m.state.position.colour_at(parse_point("b2")) == WHITE


def test_a_relocation_then_a_ball_of_the_other_colour():
    # a1 white carries b2 red; lifting a1 drops b2 into a1, and the lifted ball
    # may go straight back on top, to b2 (the text allows balls that dropped).
    m = match_at("..../..../RW../WR..|.../.../R..|../..|.", 1, "attractor=1 target=5")
    moves = {mv.text() for mv in m.legal_moves()}
    assert "a1>b2" in moves
    m.push("a1>b2")
    pos = m.state.position
    assert pos.colour_at(parse_point("a1")) == RED and pos.colour_at(parse_point("b2")) == WHITE
    assert m.state.pending == RED and m.current_player == 0
    assert {mv.colour for mv in m.legal_moves()} == {RED}
    m.push("g7")
    assert m.current_player == 1 and m.state.position.count() == 6


def test_a_pinned_ball_cannot_be_lifted_and_a_ball_must_move_elsewhere():
    # c3 carries b2 and d2 (both on level 1): pinned.
    text = "..../..../WRW./RWRW|.../.../RW.|../..|."
    m = match_at(text, 1, "attractor=1 target=5")
    sources = {mv.point for mv in m.legal_moves() if mv.kind == "move"}
    assert parse_point("c3.0") not in sources and parse_point("c1") not in sources
    assert parse_point("a1") in sources and parse_point("b2") in sources
    with pytest.raises(IllegalMoveError):
        m.push("c3>g7")
    # A free ball never goes back where it was lifted from.
    assert not any(mv.kind == "move" and mv.point == mv.target for mv in m.legal_moves())
    b2 = parse_point("b2")
    lifted, _ = m.state.position.remove(b2)
    assert {mv.target for mv in m.legal_moves() if mv.point == b2} \
        == set(points_of(lifted.playable())) - {b2}


def test_a_relocation_may_rebuild_the_same_position():
    # a1 and b2 both white: lifting a1 and setting it on b2 changes nothing,
    # but it is a different point, and the red ball still goes in.
    m = match_at("..../..../RR../WR..|.../.../W..|../..|.", 1, "attractor=1 target=5")
    before = m.state.position
    m.push("a1>b2")
    assert m.state.position == before and m.state.pending == RED
    m.push("g7")
    assert m.state.position.count() == before.count() + 1


def test_the_pool_decides_which_kind_of_turn_is_possible():
    # Sixteen red balls in play: no pair can be taken from the pool, and
    # lifting a white ball would need a red one to add, of which none is left;
    # so only red balls can be lifted, each turn adding a white one.
    text = "RRRR/RRRR/RRRR/RRRR|.../.../...|../..|."
    m = match_at(text, 1, "attractor=1 target=5")
    moves = m.legal_moves()
    assert moves and all(mv.kind == "move" for mv in moves)
    assert {m.state.position.colour_at(mv.point) for mv in moves} == {RED}
    m.push(moves[0])
    assert m.state.pending == WHITE
    # Now sixteen reds and one white: whites cannot be lifted (no red left).
    m.push(m.legal_moves()[0])
    sources = {m.state.position.colour_at(mv.point) for mv in m.legal_moves()}
    assert sources == {RED}


# A chequered pyramid, but for e3.2 and the apex.
NEAR_END = "RWRW/WRWR/RWRW/WRWR|RWR/WRW/RWR|WR/R.|."


def test_with_28_balls_the_second_ball_may_go_on_the_apex():
    s = state(NEAR_END, 1, "attractor=1 target=5")
    g = game()
    firsts = [mv for mv in g.legal_moves(s) if mv.kind == "place"]
    assert {mv.point for mv in firsts} == {parse_point("e3.2")}
    after = g.apply(s, Move("We3.2"))
    assert [mv.text() for mv in g.legal_moves(after)] == ["Rd4.3"]
    final = g.apply(after, Move("Rd4.3"))
    assert final.result is not None and final.position.occupied == FULL


def test_with_29_balls_only_a_relocation_remains():
    s = state("RWRW/WRWR/RWRW/WRWR|RWR/WRW/RWR|WR/RW|.", 1, "attractor=1 target=5")
    moves = game().legal_moves(s)
    assert moves and all(mv.kind == "move" for mv in moves)
    # only the eight corners (board and level 1) can be lifted to another point
    corners = {parse_point(p) for p in ("a1", "g1", "a7", "g7", "b2", "f2", "b6", "f6")}
    assert {mv.point for mv in moves} == corners
    assert {mv.target for mv in moves} == {parse_point(p) for p in ("c3.2", "e3.2", "c5.2",
                                                                       "e5.2")}


# A dead end from random play: 29 balls, all 16 white balls in play (a red
# ball can only be added by lifting a white one) and all eight corners red.
STUCK = "RWWR/WWWW/WWWR/RWRR|RRR/WRW/RWR|WR/WW|."


def test_a_player_without_a_legal_turn_ends_the_game_scored_as_it_stands():
    s = state(STUCK, 2, "attractor=2 target=30")
    pos = s.position
    assert pos.count(WHITE) == 16 and pos.count() == 29
    assert not has_turn(pos)
    assert s.result is not None and "Player 2 has no legal turn" in s.result.reason
    # With the apex empty, d4 of level 1 is in view and its contacts count.
    assert contacts(pos) == _ref_contacts(cells_of(pos)) == 34
    assert s.result.winners == (1,)                     # the Attractor made 34 >= 30
    assert state(STUCK, 2, "attractor=2 target=35").result.winners == (0,)
    assert perft(game(), 1, s) == 0


def _stuck_by_rule(board):
    """Engine-free: with 29 balls (apex empty), no legal turn exactly when one
    colour is all in play and the eight corner balls are of the other colour."""
    corners = [(lv, x, y) for lv in (0, 1) for x in (0, 3 - lv) for y in (0, 3 - lv)]
    colours = {board[c] for c in corners}
    for c in "WR":
        if sum(1 for v in board.values() if v == c) == 16 and colours == {"R" if c == "W" else "W"}:
            return True
    return False


@given(st.integers(0, 2 ** 32), st.integers(14, 16))
def test_with_29_balls_a_dead_end_is_one_empty_pool_and_eight_corners(seed, whites):
    rng = random.Random(seed)
    points = [p for p in range(NUM_POINTS) if p != APEX]
    chosen = set(rng.sample(points, whites))
    if rng.random() < 0.5:                              # make dead ends common
        corners = [parse_point(p) for p in ("a1", "g1", "a7", "g7", "b2", "f2", "b6", "f6")]
        rest = [p for p in points if p not in corners]
        chosen = set(rng.sample(rest, min(whites, len(rest))))
    white = sum(1 << p for p in chosen)
    pos = Position.from_masks(white=white, red=(FULL & ~(1 << APEX)) & ~white)
    if pos.count(RED) > 16:
        return
    board = cells_of(pos)
    assert has_turn(pos) == (not _stuck_by_rule(board)) == bool(_brute_starts(board))


def _stable_occupancies():
    """Every stable set of occupied points, level by level."""
    def subsets(mask):
        sub = mask
        while True:
            yield sub
            if not sub:
                return
            sub = (sub - 1) & mask

    def on(occ, level_points):
        return sum(1 << p for p in level_points if occ & SUPPORT_MASK[p] == SUPPORT_MASK[p])

    for board in range(1 << 16):
        for l1 in subsets(on(board, range(16, 25))):
            for l2 in subsets(on(board | l1, range(25, 29))):
                for apex in subsets(on(board | l1 | l2, [APEX])):
                    yield board | l1 | l2 | apex


def test_dead_ends_happen_only_with_28_or_29_balls():
    # A turn is always possible while both colours are in the pool and two
    # points are free. Otherwise one colour has all 16 balls in play, and only
    # its balls may be lifted; which balls can go elsewhere depends on the
    # occupied points alone. So a dead end needs 16 balls that cannot move.
    counts, stuck = 0, {}
    for occ in _stable_occupancies():
        counts += 1
        n = occ.bit_count()
        if not 16 <= n <= 29:
            continue
        fixed = [p for p in points_of(occ) if not relocation_targets(occ, p)]
        if len(fixed) >= 16:
            stuck.setdefault(n, []).append((occ, fixed))
    assert counts == 141120
    assert sorted(stuck) == [28, 29]
    assert len(stuck[29]) == 1 and len(stuck[29][0][1]) == 21   # all but the 8 corners
    assert len(stuck[28]) == 4                                  # apex and one level-2 point free
    for occ, fixed in stuck[28]:
        assert len(fixed) == 16
        pos = Position.from_masks(white=sum(1 << p for p in fixed),
                                  red=occ & ~sum(1 << p for p in fixed))
        s = state(pos.text(), 1, "attractor=1 target=30")
        assert s.result is not None and contacts(pos) == 36
        assert not _brute_starts(cells_of(pos))


@pytest.mark.slow
def test_random_games_reach_a_dead_end_a_few_times_in_ten_thousand():
    g, rng = game(), random.Random(11)
    ends = sum(g.random_playout(g.initial_state(), rng).position.occupied != FULL
               for _ in range(20000))
    assert 2 <= ends <= 30


def test_dead_ends_with_29_balls_score_22_to_40():
    corners = [parse_point(p) for p in ("a1", "g1", "a7", "g7", "b2", "f2", "b6", "f6")]
    rest = [p for p in range(APEX) if p not in corners]
    scores = set()
    for reds in itertools.combinations(rest, 5):
        red = sum(1 << p for p in corners + list(reds))
        pos = Position.from_masks(white=(FULL & ~(1 << APEX)) & ~red, red=red)
        scores.add(contacts(pos))
    assert (min(scores), max(scores)) == (22, 40)


# -- scoring -----------------------------------------------------------------------------

def _ref_contacts(board):
    """Engine-free score: white-red pairs touching in view (both balls seen from
    above, the contact not crossed by the two balls resting across it)."""
    def hidden(pt):
        lv, x, y = pt
        return (lv + 2, x - 1, y - 1) in board

    total = 0
    for a, b in itertools.combinations(sorted(board), 2):
        if not touch(a, b) or board[a] == board[b] or hidden(a) or hidden(b):
            continue
        if a[0] == b[0]:
            lv, (x1, y1) = a[0], min((a[1], a[2]), (b[1], b[2]))
            over = ([(lv + 1, x1, y1 - 1), (lv + 1, x1, y1)] if a[2] == b[2]
                    else [(lv + 1, x1 - 1, y1), (lv + 1, x1, y1)])
            if all(o in board for o in over):
                continue
        total += 1
    return total


def test_a_complete_pyramid_shows_60_contacts_the_texts_possible_connections():
    assert len(FULL_CONTACTS) == 60
    # Engine-free: a full pyramid with a single red ball scores that ball's
    # contacts in view; summed over the balls, every contact is counted twice.
    full = {pt: "W" for pt in ALL}
    per_ball = [_ref_contacts({**full, pt: "R"}) for pt in ALL]
    assert sum(per_ball) == 2 * 60
    assert sum(1 for a, b in itertools.combinations(ALL, 2) if touch(a, b)) == 96
    # the five interior balls show none
    assert sorted(pt for pt, k in zip(ALL, per_ball) if k == 0) == \
        sorted(COORDS[p] for p in points_of(INTERIOR_MASK))


def test_the_60_contacts_are_the_four_sides_less_the_shared_ridges():
    # Each side is a triangle of 10 balls with 18 contacts; a ridge of 4 balls
    # (3 contacts) is shared by two sides: 4 x 18 - 4 x 3 = 60.
    sides = []
    for name, on in (("south", lambda lv, x, y: y == 0),
                     ("east", lambda lv, x, y: x == 3 - lv),
                     ("north", lambda lv, x, y: y == 3 - lv),
                     ("west", lambda lv, x, y: x == 0)):
        balls = {p for p in range(NUM_POINTS) if on(*COORDS[p])}
        assert len(balls) == 10
        sides.append({c for c in FULL_CONTACTS if set(c) <= balls})
    assert [len(s) for s in sides] == [18] * 4
    assert set().union(*sides) == set(FULL_CONTACTS)
    shared = [a & b for a, b in itertools.combinations(sides, 2)]
    assert sorted(len(s) for s in shared) == [0, 0, 3, 3, 3, 3]
    # the book's method: 15 per side, rows + right diagonals + left (no ridge)
    assert [len(side) for side in SIDES] == [15] * 4
    assert [[len(part) for _, part in side] for side in SIDES_DETAIL] == [[6, 6, 3]] * 4
    assert sorted(c for side in SIDES for c in side) == sorted(FULL_CONTACTS)


@given(st.integers(0, 2 ** 30 - 1))
def test_the_side_by_side_count_adds_up_to_the_score(white):
    pos = Position.from_masks(white=white, red=FULL & ~white)
    counts = side_counts(pos)
    assert sum(map(sum, counts)) == contacts(pos) == _ref_contacts(cells_of(pos))


def test_hidden_balls_and_overpasses_do_not_count():
    # c3 white and e3 red touch on the board; level 1 d2 and d4 pass over the
    # contact, so it is out of sight.
    base = "..../..../.WR./.WR.|.../.../...|../..|."
    assert contacts(Position(base)) == 2                # c3-e3 and c1-e1
    covered = Position("..../.WR./.WR./.WR.|.../.W./.W.|../..|.")
    # c3-e3 is cut (d2 and d4.1 both present); c1-e1 and c5-e5 are on view
    # c1-e1, c5-e5, d2-e1, d2-e3, d4-e3, d4-e5
    assert contacts(covered) == _ref_contacts(cells_of(covered)) == 6
    uncut = Position("..../.WR./.WR./.WR.|.../.../.W.|../..|.")
    assert contacts(uncut) == _ref_contacts(cells_of(uncut)) == 3 + 2   # c3-e3 in view
    # a hidden ball counts for nothing: red c3 under the level-2 ball
    full_white = Position.from_masks(white=FULL & ~(1 << parse_point("c3.0")),
                                     red=1 << parse_point("c3.0"))
    assert contacts(full_white) == 0


# -- what the text says about cycles -------------------------------------------------------

def test_every_turn_adds_a_ball_so_no_position_comes_back():
    g = game()
    rng = random.Random(5)
    for _ in range(200):
        s = g.initial_state()
        seen, turns, last = set(), 0, -1
        while not g.is_terminal(s):
            if s.attractor is not None and s.pending is None:
                n = s.position.count()
                assert n > last                        # the count rises every turn
                assert s.position not in seen
                seen.add(s.position)
                last, turns = n, turns + 1
            s = g.apply(s, rng.choice(g.legal_moves(s)))
        assert turns <= 29


@given(st.integers(0, 2 ** 32), st.integers(0, 100))
def test_every_complete_turn_adds_one_or_two_balls(seed, steps):
    g = game()
    s = random_walk(g, seed, steps)
    if g.is_terminal(s) or s.attractor is None or s.pending is not None:
        return
    n = s.position.count()
    for first in g.legal_moves(s):
        half = g.apply(s, first)
        for second in g.legal_moves(half):
            after = g.apply(half, second).position.count()
            assert after - n == (2 if first.kind == "place" else 1)


def test_not_every_turn_changes_the_score():
    m = play("=1 pass Wa1 Rg7")
    assert contacts(m.state.position) == 0              # 0 before, 0 after
    # and in random games such turns are common
    g, rng, same, turns = game(), random.Random(2), 0, 0
    for _ in range(100):
        s = g.initial_state()
        while not g.is_terminal(s):
            before = contacts(s.position), s.pending is None and s.attractor is not None
            s = g.apply(s, rng.choice(g.legal_moves(s)))
            if before[1]:                               # a turn began: play its second ball
                s = g.apply(s, rng.choice(g.legal_moves(s)))
                turns += 1
                same += contacts(s.position) == before[0]
    assert turns > 2000 and 0.15 < same / turns < 0.3      # about one in five


def test_max_length_is_reached_by_a_full_auction_and_a_game_of_relocations():
    g = game()
    m = g.new_match()
    for v in range(1, MAX_BID + 1):
        m.push(f"={v}")
    m.push("pass")
    assert m.state.attractor == 1 and m.state.bid == 60
    assert len(m.history) == 61
    while not m.is_over():
        moves = m.legal_moves()
        lifts = [mv for mv in moves if mv.kind == "move"]
        if m.state.pending is None and lifts:
            pos = m.state.position
            # lift the colour with more balls in play, so the pool never runs dry
            more = WHITE if pos.count(WHITE) >= pos.count(RED) else RED
            mine = [mv for mv in lifts if pos.colour_at(mv.point) == more] or lifts
            m.push(mine[0])
        else:
            m.push(moves[0])
    assert m.state.position.occupied == FULL
    assert len(m.history) == g.info.max_length == 119
    assert m.state.ply == 119


def test_the_duel_lasts_at_most_116_actions():
    g = game(mode="duel")
    m = g.new_match()
    rounds = []
    while not m.is_over():
        rnd = m.state.round
        moves = m.legal_moves()
        lifts = [mv for mv in moves if mv.kind == "move"]
        pos = m.state.position
        if m.state.pending is None and lifts:
            more = WHITE if pos.count(WHITE) >= pos.count(RED) else RED
            m.push(([mv for mv in lifts if pos.colour_at(mv.point) == more] or lifts)[0])
        else:
            m.push(moves[0])
        rounds.append(rnd)
    assert rounds.count(1) == rounds.count(2) == 58 and len(m.history) == 116


# -- the duel -------------------------------------------------------------------------------

def test_the_duel_swaps_roles_and_compares_attractor_scores():
    g = game(mode="duel")
    s = g.initial_state()
    assert s.attractor == 0 and s.to_move == 0 and s.round == 1
    assert len(g.legal_moves(s)) == 32                  # no auction
    # Round 1 near its end: the last ball completes the pyramid, round 2 starts.
    near = g.parse_state(f"{NEAR_END} 2 round=1")
    after = g.apply(g.apply(near, Move("We3.2")), Move("Rd4.3"))
    assert after.result is None and after.round == 2 and after.first_score == 42
    assert after.attractor == 1 and after.to_move == 1 and after.position.count() == 0
    text = g.state_text(after)
    assert text.endswith(" 2 round=2 first=42 ply=30")
    assert g.state_key(g.parse_state(text)) == g.state_key(after)
    # Round 2 ends: the higher Attractor score wins, equal scores draw.
    pos = play(BOOK_GAME).state.position                # 33 contacts
    for first, winners in ((32, (1,)), (33, ()), (34, (0,))):
        end = g.parse_state(f"{pos.text()} 1 round=2 first={first}")
        outcome = g.outcome(end)
        assert outcome.scores == (first, 33) and outcome.winners == winners
        assert outcome.is_draw == (first == 33)


# -- the book's example and the extremes ------------------------------------------------------

# The book's 33-point game is lost. A game played by the engine's AI (MCTS,
# 300 iterations a move), Player 2 bidding 33 and making exactly 33.
BOOK_GAME = (
    "=30 =33 pass Wg7 Rc1 c1>g5 Wc1 c1>e3.0 Ra5 We7 Rc7 a5>a3 Wc3.0 e3.0>c5.0 Ra7 "
    "c3.0>a1 Ra5 g5>b6 Wc3.0 We5.0 Re3.0 c7>d4.1 Wc1 g7>g1 Rg3 e3.0>g7 Wd4.1 g3>b2 Wg5 "
    "d4.1>b6 Rf6 e3.0>b4 Wd6 b2>e1 Wg3 c3.0>b2 Re3.0 a7>b4 Wd2 a5>d4.1 Wb6 a5>f4 Wb4 "
    "a1>e5.2 Rb2 d4.1>e5.2 Wb6 b6>f2 Rb6 b2>e3.2 Wb2 d2>e3.2 Rc5.2 g1>c3.2 Re3.2 "
    "a1>c3.2 Rd4.3")


def test_the_book_example_scores_33():
    m = play(BOOK_GAME)
    assert m.is_over() and m.state.position.occupied == FULL
    pos = m.state.position
    assert contacts(pos) == 33 == _ref_contacts(cells_of(pos))
    assert sum(map(sum, side_counts(pos))) == 33
    assert m.outcome().winners == (1,) and m.outcome().scores == (33.0, 33.0)


def _triangles():
    edges = set(FULL_CONTACTS)
    nodes = sorted({p for c in FULL_CONTACTS for p in c})
    return [t for t in itertools.combinations(nodes, 3)
            if all(pair in edges for pair in itertools.combinations(t, 2))]


def test_no_complete_pyramid_scores_more_than_42():
    triangles = _triangles()
    assert len(triangles) == 36                         # 9 small triangles a side
    on = {c: sum(1 for t in triangles if set(c) <= set(t)) for c in FULL_CONTACTS}
    assert sorted(set(on.values())) == [1, 2]
    rim = [c for c, k in on.items() if k == 1]
    assert len(rim) == 12 and all(LEVEL[a] == LEVEL[b] == 0 for a, b in rim)
    # a triangle in two colours has at most 2 mixed contacts: 2 x score <= 2 x 36 + 12
    assert (2 * len(triangles) + len(rim)) // 2 == 42


# Extremes found by the exhaustive check below (hidden balls chosen to fit the pool).
BEST = "WRWR/RWWW/WWRR/RWRW|RWR/WRW/RWR|WR/RW|R"      # 42 contacts, 15 white 15 red
WORST = "RRRR/RWWR/WWWW/WWWW|RRR/RWR/WWW|RR/RR|R"     # 10 contacts, 14 white 16 red
LOWEST = "RRRR/WWWR/WWWR/WWWR|RRR/WWR/WWR|RR/WR|R"    # 11 contacts, 14 white 16 red
TOP = [parse_point(p) for p in ("c3.2", "e3.2", "c5.2", "e5.2", "d4.3")]


def test_the_extremes_42_and_11_are_reached_in_games():
    best, lowest = Position(BEST), Position(LOWEST)
    assert contacts(best) == _ref_contacts(cells_of(best)) == 42
    assert contacts(lowest) == _ref_contacts(cells_of(lowest)) == 11
    assert (best.count(WHITE), best.count(RED)) == (15, 15)
    assert (lowest.count(WHITE), lowest.count(RED)) == (14, 16)
    for pos in (best, lowest):
        m = play("=1 pass " + " ".join(build_game(pos)))
        assert m.is_over() and m.state.position == pos


def test_a_chequered_pyramid_scores_42():
    assert contacts(Position(NEAR_END.replace("R.|.", "RW|R"))) == 42


def test_10_needs_a_top_of_one_colour_which_no_game_can_finish():
    worst = Position(WORST)
    assert contacts(worst) == _ref_contacts(cells_of(worst)) == 10
    assert len({worst.colour_at(p) for p in TOP}) == 1
    # The completing turn either puts a ball on the last level-2 point and
    # the apex (first kind, two colours), or, from 29 balls, lifts a corner,
    # lands it on the level-2 point its column vacated and puts the other
    # colour on the apex. Either way the top five are never of one colour.
    g = game()
    for text in (NEAR_END, "RWRW/WRWR/RWRW/WRWR|RWR/WRW/RWR|RR/WR|.",
                 "RRRR/RWWR/WWWW/WWWW|RRR/RWR/WWW|RR/R.|.",
                 "RRRR/RWWR/WWWW/WWWW|RRR/RWR/WWW|RR/RR|."):
        s = state(text, 1, "attractor=1 target=30")
        finished = 0
        for first in g.legal_moves(s):
            half = g.apply(s, first)
            for second in g.legal_moves(half):
                end = g.apply(half, second)
                if end.position.occupied == FULL:
                    finished += 1
                    assert len({end.position.colour_at(p) for p in TOP}) == 2
        assert finished
    rng = random.Random(9)
    for _ in range(300):
        final = g.random_playout(g.initial_state(), rng)
        if final.position.occupied == FULL:
            assert len({final.position.colour_at(p) for p in TOP}) == 2
            assert 11 <= contacts(final.position) <= 42


@pytest.mark.slow
def test_every_colouring_the_pool_allows_scores_10_to_42_and_11_with_a_mixed_top():
    np = pytest.importorskip("numpy")
    nodes = sorted({p for c in FULL_CONTACTS for p in c})
    assert len(nodes) == 25 and not any(INTERIOR_MASK >> p & 1 for p in nodes)
    index = {p: i for i, p in enumerate(nodes)}
    edges = [(index[a], index[b]) for a, b in FULL_CONTACTS]
    low, high, low_mixed = 99, 0, 99
    chunk = 1 << 20
    for start in range(0, 1 << 25, chunk):
        x = np.arange(start, start + chunk, dtype=np.int64)
        cut = np.zeros(chunk, dtype=np.int16)
        for a, b in edges:
            cut += (((x >> a) ^ (x >> b)) & 1).astype(np.int16)
        whites = np.zeros(chunk, dtype=np.int16)
        for i in range(25):
            whites += ((x >> i) & 1).astype(np.int16)
        # 30 balls, at most 16 of a colour: 14-16 white in all, the 5 hidden
        # balls free, so 9 to 16 white balls in view
        ok = (whites >= 9) & (whites <= 16)
        low = min(low, int(cut[ok].min(initial=99)))
        high = max(high, int(cut[ok].max(initial=0)))
        top = np.zeros(chunk, dtype=np.int16)
        for p in TOP:
            top += ((x >> index[p]) & 1).astype(np.int16)
        mixed = ok & (top != 0) & (top != 5)          # what a finished game can show
        low_mixed = min(low_mixed, int(cut[mixed].min(initial=99)))
    assert (low, high, low_mixed) == (10, 42, 11)


def build_game(target: Position) -> list[str]:
    """Turns (after the auction) that build a complete pyramid of 14 to 16 white balls.

    Each turn puts down one ball of each colour, where the target wants
    them. A colour with more balls than the other needs "specials" of two
    turns each: a ball of the long colour on a point that wants it, and one
    of the short colour on another point that wants the long colour; then
    the short ball is lifted onto a point that wants it, and a ball of the
    long colour fills its old place. A search (remembering dead ends) finds
    an order.
    """
    want = {p: target.colour_at(p) for p in range(NUM_POINTS)}
    extra = target.count(WHITE) - target.count(RED)
    long_c = WHITE if extra > 0 else RED
    short_c = RED if long_c == WHITE else WHITE
    letter = {WHITE: "W", RED: "R"}
    supports = [sum(1 << q for q in _supports(p)) for p in range(NUM_POINTS)]
    dead = set()                                        # (occupancy, specials left) that fail

    def free(occ):
        return [p for p in range(NUM_POINTS)
                if not occ >> p & 1 and occ & supports[p] == supports[p]]

    def search(occ, specials):
        if occ == FULL:
            return [] if not specials else None
        if (occ, specials) in dead:
            return None
        for first in free(occ):
            for second in free(occ | 1 << first):
                if want[first] != want[second]:
                    rest = search(occ | 1 << first | 1 << second, specials)
                    if rest is not None:
                        return [letter[want[first]] + point_name(first),
                                letter[want[second]] + point_name(second)] + rest
        if specials:
            for a in free(occ):
                if want[a] != long_c:
                    continue
                for s in free(occ | 1 << a):
                    if want[s] != long_c:
                        continue
                    for t in free(occ | 1 << a):
                        if t == s or want[t] != short_c:
                            continue
                        rest = search(occ | 1 << a | 1 << s | 1 << t, specials - 1)
                        if rest is not None:
                            return [letter[long_c] + point_name(a),
                                    letter[short_c] + point_name(s),
                                    f"{point_name(s)}>{point_name(t)}",
                                    letter[long_c] + point_name(s)] + rest
        dead.add((occ, specials))
        return None

    return search(0, abs(extra))


def _supports(p):
    lv, x, y = COORDS[p]
    return [q for q in range(NUM_POINTS) if lv and COORDS[q][0] == lv - 1
            and COORDS[q][1] in (x, x + 1) and COORDS[q][2] in (y, y + 1)]


# -- text, errors and symmetry ----------------------------------------------------------------

def test_state_text_round_trips_in_every_phase():
    g = game()
    m = g.new_match()
    texts = []
    for mv in "=12 =15 pass Wc3 Re3 c3>g7".split():
        m.push(mv)
        texts.append(g.state_text(m.state))
    assert texts[0].endswith(" 2 bid=12 ply=1")
    assert texts[2].endswith(" 2 attractor=2 target=15 ply=3")
    assert texts[5].endswith(" 1 attractor=2 target=15 next=R ply=6")
    for text in texts:
        assert g.state_key(g.parse_state(text)) == g.state_key(g.parse_state(text))
        again = g.parse_state(text)
        assert g.state_text(again) == text
    # ply may be left out; the fewest actions that fit are assumed
    assert g.parse_state(EMPTY + " 2 bid=12").ply == 1
    assert g.parse_state(EMPTY + " 1 bid=12").ply == 2


@pytest.mark.parametrize("text", [
    EMPTY + " 2",                                            # nobody has bid: Player 1 opens
    EMPTY + " 1 bid=61",
    EMPTY + " 1 bid=3 ply=5",                                # 5 rising bids cannot end at 3
    EMPTY + " 1 bid=3 ply=1",                                # after one bid Player 2 bids
    EMPTY + " 1 bid=x",
    EMPTY + " 1 colour=W",
    EMPTY + " 1 bid=3 bid=4",
    "..../..../..../W...|.../.../...|../..|. 1 bid=4",       # balls during the auction
    "..../..../..../B...|.../.../...|../..|. 1 attractor=1 target=5",
    "..../..../..../W...|.../.../...|../..|. 1 attractor=3 target=5",
    "..../..../..../W...|.../.../...|../..|. 1 attractor=1 target=0",
    "..../..../..../W...|.../.../...|../..|. 1 attractor=1",
    "..../..../..../W...|.../.../...|../..|. 1 attractor=1 target=5 next=B",
    "..../..../..../W...|.../.../...|../..|. 1 attractor=1 target=5 ply=2",
    EMPTY + " 2 attractor=1 target=5",                       # the Attractor moves first
    EMPTY + " 1 attractor=1 target=5 next=W",                # half a turn on an empty board
    "WWWW/WWWW/WWWW/WWWW|W../.../...|../..|. 1 attractor=1 target=5",   # 17 white
    "WWWW/WWWW/WWWW/WWWW|.../.../...|../..|. 1 attractor=1 target=5 next=W",  # none left
])
def test_bad_state_texts_are_refused(text):
    with pytest.raises(NotationError):
        game().parse_state(text)


@pytest.mark.parametrize("text", [
    EMPTY + " 1 round=3",
    EMPTY + " 1 round=1 first=3",
    EMPTY + " 2 round=2",
    EMPTY + " 1 round=2 first=80",
    EMPTY + " 1 bid=3",
])
def test_bad_duel_texts_are_refused(text):
    with pytest.raises(NotationError):
        game(mode="duel").parse_state(text)


def test_illegal_moves_leave_the_match_unchanged():
    m = match_at("..../..../WRW./RWRW|.../.../RW.|../..|.", 1, "attractor=1 target=5")
    before = m.state
    for bad in ("c3>g7", "a1>a1", "=40", "pass", "Bg7", "xa1", "b2>f6"):
        with pytest.raises((IllegalMoveError, NotationError)):
            m.push(bad)
        assert m.state is before
    m.push("Wg7")
    with pytest.raises(IllegalMoveError):
        m.push("Wg5")                                    # the second ball must be red
    with pytest.raises(IllegalMoveError):
        m.push("a1>c5")                                  # no relocation mid-turn


def test_every_symmetry_of_the_square_is_a_symmetry_of_the_game():
    assert game().symmetries == tuple(range(8))


@given(st.integers(0, 2 ** 32), st.integers(0, 110))
def test_symmetries_keep_moves_and_results(seed, steps):
    g = game()
    s = random_walk(g, seed, steps)
    for image in check_symmetries(g, s):
        again = g.parse_state(g.state_text(image))
        assert g.state_key(again) == g.state_key(image)


@given(st.integers(0, 2 ** 32), st.integers(3, 110))
def test_swapping_white_and_red_changes_nothing(seed, steps):
    g = game()
    s = random_walk(g, seed, steps)
    swap = Position.from_masks(white=s.position.red, red=s.position.white)
    other = {WHITE: RED, RED: WHITE}
    image = g.parse_state(g.state_text(s).replace(s.position.text(), swap.text())
                          .replace("next=W", "next=_").replace("next=R", "next=W")
                          .replace("next=_", "next=R"))
    flip = {mv.text() for mv in g.legal_moves(s)}
    flipped = {Move.make(mv.kind, mv.point, other.get(mv.colour), mv.target, None,
                         mv.value).text() for mv in g.legal_moves(image)}
    assert flip == flipped
    assert contacts(swap) == contacts(s.position)
    assert (g.outcome(image) is None) == (g.outcome(s) is None)


# -- perft, cross-checked by an independent brute force ------------------------------------
#
# By hand, after the auction: 16 holes x 2 colours = 32 first balls; the second
# ball goes on one of the 15 other holes: 480. The next player has 28
# placements (14 holes x 2) and 28 relocations (each ball to one of the 14 other
# holes): 480 x 56 = 26,880. Then 28 x 13 + 28 x 14 = 756 second actions.
# The auction: 60 opening bids; then 60 - b raises or a pass after a bid b:
# 1,770 + 60 = 1,830; then C(61, 3) + 60 x 32 = 37,910.

def _other(c):
    return "R" if c == "W" else "W"


def _in_pool(board, c):
    return 16 - sum(1 for v in board.values() if v == c)


def _lift(board, pt):
    """The board after lifting the ball at pt, or None when it is pinned."""
    resting = [q for q in ABOVE[pt] if q in board]
    if len(resting) > 1:
        return None
    new = dict(board)
    del new[pt]
    gap = pt
    while resting:
        q = resting[0]
        new[gap] = new.pop(q)
        gap = q
        resting = [r for r in ABOVE[q] if r in new]
    return new


def _brute_starts(board):
    """Every first action of a turn, as (board after it, colour still to place)."""
    out = []
    if _in_pool(board, "W") and _in_pool(board, "R") and len(board) <= 28:
        out += [({**board, p: c}, _other(c)) for p in open_points(board) for c in "WR"]
    for pt, c in board.items():
        if not _in_pool(board, _other(c)):
            continue
        new = _lift(board, pt)
        if new is not None:
            out += [({**new, t: c}, _other(c)) for t in open_points(new) if t != pt]
    return out


def _brute(board, depth, pending=None, duel_round=0):
    if depth == 0:
        return 1
    if pending is None:
        return sum(_brute(b, depth - 1, c, duel_round) for b, c in _brute_starts(board))
    total = 0
    for p in open_points(board):
        after = {**board, p: pending}
        if len(after) == 30 or not _brute_starts(after):
            if duel_round == 1:                         # round 2 starts on an empty board
                total += _brute({}, depth - 1, None, 2)
            else:
                total += depth == 1
        else:
            total += _brute(after, depth - 1, None, duel_round)
    return total


def _brute_auction(high, depth):
    if depth == 0:
        return 1
    total = sum(_brute_auction(v, depth - 1) for v in range(high + 1, 61))
    return total + (_brute({}, depth - 1) if high else 0)


PERFT_START = [60, 1830, 37910, 607295]
PERFT_PLAY = [32, 480, 26880, 362880, 24811968]


def test_perft_from_the_start_and_from_the_first_move():
    g = game()
    assert [perft(g, d) for d in range(1, 5)] == PERFT_START
    assert [_brute_auction(0, d) for d in range(1, 4)] == PERFT_START[:3]
    s = playing().state
    assert [perft(g, d, s) for d in range(1, 5)] == PERFT_PLAY[:4]
    assert [_brute({}, d) for d in range(1, 4)] == PERFT_PLAY[:3]
    assert PERFT_PLAY[:4] == [32, 32 * 15, 480 * (28 + 28), 480 * (28 * 13 + 28 * 14)]
    # four actions: four bids, three and a pass, two, a pass and a ball, one,
    # a pass and two balls
    assert PERFT_START == [60, 1770 + 60, 35990 + 60 * 32,
                           487635 + 34220 + 1770 * 32 + 60 * 480]
    assert [math.comb(60, k) for k in (2, 3, 4)] == [1770, 34220, 487635]


@pytest.mark.slow
def test_deeper_perft():
    g = game()
    assert perft(g, 5, playing().state) == PERFT_PLAY[4]
    assert _brute({}, 4) == PERFT_PLAY[3]
    assert _brute_auction(0, 4) == PERFT_START[3]


# Mid-game positions: from random play (stacks, pins, drops), a pool about to
# run dry, 28 balls, and the dead end.
MIDGAME = [
    ("RWR./RWWW/WRRW/RWWR|RW./WR./RRW|../..|.", 2, [53, 195, 10344]),
    ("RRR./RRRR/RRRR/RRRR|W../.../...|../..|.", 1, [125, 876, 91774]),
    (NEAR_END, 1, [22, 22, 146]),
    (STUCK, 1, [0, 0, 0]),
]


@pytest.mark.parametrize("text, to_move, counts", MIDGAME)
def test_perft_from_midgame_positions_matches_the_brute_force(text, to_move, counts):
    g = game()
    s = state(text, to_move, "attractor=1 target=30")
    assert [perft(g, d, s) for d in range(1, 4)] == counts
    assert [_brute(cells_of(s.position), d) for d in range(1, 4)] == counts


@settings(max_examples=30)
@given(st.integers(0, 2 ** 32), st.integers(20, 100))
def test_perft_from_random_positions_matches_the_brute_force(seed, steps):
    g = game()
    s = random_walk(g, seed, steps)
    if s.attractor is None:
        return
    board = cells_of(s.position)
    if s.pending is None:
        assert perft(g, 2, s) == _brute(board, 2)
    else:
        pending = "W" if s.pending == WHITE else "R"
        assert perft(g, 2, s) == _brute(board, 2, pending)


def test_duel_perft_crosses_into_the_second_round():
    g = game(mode="duel")
    s = g.parse_state(f"{NEAR_END} 2 round=1")
    board = cells_of(s.position)
    counts = [perft(g, d, s) for d in range(1, 5)]
    assert counts == [_brute(board, d, None, 1) for d in range(1, 5)]
    # two last balls complete the round: 2 x 32 and 2 x 480 of round 2's counts
    assert counts == [22, 22, 210, 1106]
    assert [perft(g, d) for d in range(1, 4)] == PERFT_PLAY[:3]
