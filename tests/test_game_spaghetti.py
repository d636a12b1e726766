"""Spaghetti: play next to the last ball, else a black ball; longest unbranched strand wins."""
import random

import pytest

import shibumi.games.spaghetti  # noqa: F401  (registers the game)
from conformance import check_playouts, random_walk
from shibumi import IllegalMoveError, Move, load
from shibumi.analysis import perft
from shibumi.bits import links_and_pinned
from shibumi.games.spaghetti import NEAR, longest_path, longest_strand, strand_length
from shibumi.geometry import ALL_MASK, APEX, SYMMETRIES, point_at, points_of
from shibumi.notation import parse_point, point_name
from shibumi.position import BLACK, RED, WHITE, Position, hidden_mask, linked

GAME = load("spaghetti")


def names(moves):
    return sorted(point_name(m.point) for m in moves)


def at(text, to_move, last=None, black=None):
    extras = []
    if last:
        extras.append(f"last={last}")
    if black:
        extras.append(f"black={black}")
    return GAME.parse_state(" ".join([text, str(to_move)] + extras))


def test_declaration():
    info = GAME.info
    assert (info.name, info.designer, info.year, info.complexity) == \
        ("Spaghetti", "Phil Leduc", "2011", 2)
    assert info.max_length == 29 and GAME.player_names[:2] == ("White", "Red")
    assert GAME.symmetries == tuple(range(8))


# -- the opening ------------------------------------------------------------------

def test_white_opens_with_a_black_ball_in_any_hole_and_red_plays_next_to_it():
    match = GAME.new_match()
    moves = match.legal_moves()
    assert len(moves) == 16 and {m.colour for m in moves} == {BLACK}
    assert match.push("a1") == Move("Ba1")
    assert match.current_player == 1
    # a1's neighbours: c1 and a3 along the board, c3 diagonally.
    assert match.legal_moves() == [Move("Rc1"), Move("Ra3"), Move("Rc3.0")]
    with pytest.raises(IllegalMoveError):
        match.push("e1")                      # not next to a1
    with pytest.raises(IllegalMoveError):
        match.push(Move("Bc1"))               # black only when forced
    match.push("c3")
    assert match.state.black_by == 0 and match.state.anchor == parse_point("c3.0")


# -- what "next to" covers ----------------------------------------------------------

def test_next_to_includes_same_level_diagonals_and_the_points_resting_on_the_ball():
    # The last ball is c3 on the board, with a1, c1, a3 filled: b2 rests on c3
    # (and is now a full platform), e3 and c5 are orthogonal, e1 a5 e5 diagonal.
    s = at("..../..../RR../BW..|.../.../...|../..|.", 1, last="c3.0", black=1)
    assert names(GAME.legal_moves(s)) == ["a5", "b2", "c5.0", "e1", "e3.0", "e5.0"]
    assert {m.colour for m in GAME.legal_moves(s)} == {WHITE}


def test_next_to_a_level_one_ball_excludes_far_points_and_lower_holes():
    # Board full, d2 the only ball above: its level-1 neighbours b2 f2 d4 and the
    # diagonals b4 f4 are open; b6 d6 f6 are not next to it.
    board = "WRWR/RWRW/WRWR/BWRW"
    s = at(board + "|.../.../.W.|../..|.", 2, last="d2", black=1)
    assert names(GAME.legal_moves(s)) == ["b2", "b4", "d4.1", "f2", "f4"]
    assert {m.colour for m in GAME.legal_moves(s)} == {RED}


def test_near_table():
    assert len(NEAR) == 30
    b2, d4 = parse_point("b2"), parse_point("d4.1")
    # b2: level-1 d2 b4 d4 (d4 diagonal), its four supports, and c3.2 above it
    assert sorted(point_name(p) for p in points_of(NEAR[b2])) == \
        ["a1", "a3", "b4", "c1", "c3.0", "c3.2", "d2", "d4.1"]
    assert bin(NEAR[d4]).count("1") == 8 + 4 + 4
    assert sorted(point_name(p) for p in points_of(NEAR[APEX])) == \
        ["c3.2", "c5.2", "e3.2", "e5.2"]


# -- forced black balls -------------------------------------------------------------

FORCED = "..../..../WR../BR..|.../.../W..|../..|."


def test_no_point_next_to_the_last_ball_forces_a_black_ball_anywhere():
    # White's last ball b2 has nothing playable around it: d2, b4, d4 and c3.2
    # lack platforms, and its supports are all taken. Red must put a black ball
    # on any playable point (the 12 empty holes).
    s = at(FORCED, 2, last="b2", black=1)
    moves = GAME.legal_moves(s)
    assert len(moves) == 12 and {m.colour for m in moves} == {BLACK}
    match = GAME.new_match(state=s)
    with pytest.raises(IllegalMoveError):
        match.push(Move("Re1"))
    assert match.push("g7") == Move("Bg7")
    # The black ball is the new "last ball": White plays next to it, and Red
    # is now the player who placed the last black ball.
    assert match.state.black_by == 1
    assert names(match.legal_moves()) == ["e5.0", "e7", "g5"]
    assert {m.colour for m in match.legal_moves()} == {WHITE}


def test_a_forced_black_ball_can_be_the_last_ball_of_the_game():
    # Board and level 1 full, c5.2 the only open point. Red's last ball f2 holds
    # up only e3.2 (taken) and its level-1 neighbours are full, so White must put
    # a black ball on c5.2, the 29th ball, which ends the game.
    text = "WRWR/RWRW/WRWR/BWRW|WRW/RWR/WRR|.W/RW|."
    s = at(text, 1, last="f2", black=1)
    assert GAME.legal_moves(s) == [Move("Bc5.2")]
    after = GAME.apply(s, Move("Bc5.2"))
    assert after.black_by == 0 and after.position.colour_at(APEX) == BLACK
    assert after.result is not None


# -- strands --------------------------------------------------------------------------

def test_a_branch_point_does_not_lengthen_the_strand():
    # A red star on the board: c3 in the middle, a3 e3 c1 c5 around it. The five
    # balls are one group, but a strand cannot fork, so the longest has 3 balls.
    pos = Position("..../.R../RRR./.R..|.../.../...|../..|.")
    assert len(pos.groups(RED)) == 1 and pos.count(RED) == 5
    assert strand_length(pos, RED) == 3
    # Add a tail e3-g3-g5: now the strand runs a3 c3 e3 g3 g5 (5), c1 and c5 left out.
    pos = Position("..../.R.R/RRRR/.R..|.../.../...|../..|.")
    assert strand_length(pos, RED) == 5


def test_a_star_in_the_finished_pyramid():
    # b2 (level 1) with red c1, a3 and c3.2 around it: c1, a3 and c3.2 do not
    # touch one another, so the longest red strand is 3, not 4.
    text = "WWWW/WWWW/RWWW/WRWW|WWW/WWW/RWW|WW/RW|B"
    pos = Position(text)
    assert strand_length(pos, RED) == 3
    assert [bin(g).count("1") for g in pos.groups(RED)] == [4]


def test_contacts_cut_by_an_overpass_do_not_join_a_strand():
    # White a1 c1 c3 c5 on the board; red b2 alone above does not cut c1-c3, so
    # the strand runs a1 c1 c3 c5. With red d2 as well, b2-d2 passes over the
    # c1-c3 contact and cuts it: two strands of 2.
    board = "..../.W../RWR./WWR."
    assert strand_length(Position(board + "|.../.../R..|../..|."), WHITE) == 4
    assert strand_length(Position(board + "|.../.../RR.|../..|."), WHITE) == 2


def test_hidden_balls_are_not_part_of_a_strand():
    # c3 (white) is buried under c3.2; a1 and c1 are still joined, c3 is not there.
    text = "..../RRR./RWR./WWR.|.../RR./RR.|../R.|."
    pos = Position(text)
    assert pos.hidden() == 1 << parse_point("c3.0")
    assert strand_length(pos, WHITE) == 2


def test_longest_strand_on_a_bare_graph():
    # path 0-1-2-3 with a pendant 4 on 1: longest path 4 balls (4-1-2-3 or 0-1-2-3)
    adj = {0: 0b00010, 1: 0b10101, 2: 0b01010, 3: 0b00100, 4: 0b00010}
    assert longest_strand(0b11111, lambda p: adj[p]) == 4
    assert longest_strand(0, lambda p: 0) == 0


def _every_path(nodes, neighbours):
    """The longest simple path by going down every path from every ball (no cuts)."""
    adj = {p: neighbours(p) & nodes for p in points_of(nodes)}
    best, stack = 0, [(p, 1 << p, 1) for p in adj]
    while stack:
        p, used, length = stack.pop()
        best = max(best, length)
        stack.extend((q, used | 1 << q, length + 1) for q in points_of(adj[p] & ~used))
    return best


def test_the_cut_search_finds_the_longest_path_of_every_mask():
    # The finished pyramid's visible contacts (what every game is scored on),
    # random sets of up to 15 of its 25 visible balls (a colour has at most 14),
    # against the search with no cuts.
    links = links_and_pinned(ALL_MASK)[0]
    visible = points_of(ALL_MASK & ~hidden_mask(ALL_MASK))
    rng = random.Random(5)
    for n in range(640):
        nodes = sum(1 << p for p in rng.sample(visible, n % 16))
        expected = _every_path(nodes, lambda p: linked(p, ALL_MASK))
        assert longest_path(nodes, links) == expected
        assert longest_strand(nodes, links.__getitem__) == expected


def test_strand_length_reads_the_contacts_as_linked_does():
    # Positions along random games and finished games, strands counted point by
    # point: hidden balls left out, contacts from linked.
    positions = [random_walk(GAME, seed, seed % 30).position for seed in range(60)]
    positions += [GAME.random_playout(GAME.initial_state(), random.Random(seed)).position
                  for seed in range(30)]
    for position in positions:
        occupied = position.occupied
        for colour in (WHITE, RED, BLACK):
            mine = position.mask(colour) & ~hidden_mask(occupied)
            expected = _every_path(mine, lambda p: linked(p, occupied))
            assert strand_length(position, colour) == expected


def test_the_fast_playout_plays_the_rules_games():
    check_playouts("spaghetti", games=500)


# The book's final position (figure lost), rebuilt: White's strand of 9 runs
# a7 c7 e7 with b6 d6 and the four level-2 balls; Red's 9 connected balls
# a5 b4 b2 d2 f2 f4 f6 g7 + a1 give a strand of only 8, because a1 hangs off
# b2 in the middle of the strand: going out to a1 would mean coming back
# through b2. Its ball counts are a real game's (14 white, 14 red, five hidden,
# the opening black on a3 and the apex black), but the position itself cannot
# be reached with only the opening black ball (an exhaustive search finds no
# way); the chapter shows a real game with the same 9-against-8 ending.
BOOK_END = "WWWR/RRRW/BRRW/RWWW|WWR/RRR/RRR|WW/WW|B"


def test_book_example_white_nine_beats_red_eight():
    pos = Position(BOOK_END)
    assert (pos.count(WHITE), pos.count(RED), pos.count(BLACK)) == (14, 14, 2)
    assert strand_length(pos, WHITE) == 9
    assert strand_length(pos, RED) == 8
    red_group = pos.group(parse_point("a1"))
    assert bin(red_group).count("1") == 9          # a1 is connected ...
    without_a1 = Position.from_masks(pos.white, pos.black | 1, pos.red & ~1)
    assert strand_length(without_a1, RED) == 8      # ... but adds nothing
    s = GAME.parse_state(f"{BOOK_END} 2 last=c5.2 black=1")
    assert s.result.winners == (0,) and s.result.scores == (9.0, 8.0)


def test_the_last_placement_ends_the_game_with_a_black_apex():
    # Take c5.2 and the apex away: Red has just played b4, and c5.2 (resting on
    # b4) is White's only move; it fills the 29th point.
    before = "WWWR/RRRW/BRRW/RWWW|WWR/RRR/RRR|.W/WW|."
    match = GAME.new_match(state=GAME.parse_state(f"{before} 1 last=b4 black=1"))
    assert match.legal_moves() == [Move("Wc5.2")]
    match.push("c5")
    assert match.state.position == Position(BOOK_END)
    assert match.outcome().winners == (0,)
    assert GAME.length(match.state) == 29
    assert match.legal_moves() == []


def test_ties_go_against_the_player_who_placed_the_last_black_ball():
    tied = "BWWR/RRRW/BRRW/RWWW|WWR/RRR/RRR|WW/WW|B"    # a7 black: White's strand is 8
    pos = Position(tied)
    assert strand_length(pos, WHITE) == strand_length(pos, RED) == 8
    assert GAME.parse_state(f"{tied} 2 last=c5.2 black=1").result.winners == (1,)
    assert GAME.parse_state(f"{tied} 2 last=c5.2 black=2").result.winners == (0,)


# -- state text --------------------------------------------------------------------------

def test_state_text_keeps_the_last_ball_and_the_black_ball_owner():
    s = at(FORCED, 2, last="b2", black=1)
    assert GAME.state_text(s) == f"{FORCED} 2 last=b2 black=1"
    assert GAME.state_text(GAME.initial_state()).endswith(" 1")
    for bad in (f"{FORCED} 2 black=1",               # no last ball
                f"{FORCED} 2 last=g7 black=1",       # last ball on an empty point
                f"{FORCED} 2 last=b2",               # nobody placed the opening black
                "..../..../..../....|.../.../...|../..|. 2",
                "WWWR/RRRW/BRRW/RWWW|WWR/RRR/RRR|WW/WW|W 2 last=b2 black=1"):
        with pytest.raises(ValueError):
            GAME.parse_state(bad)


def test_symmetry_moves_the_last_ball_too():
    s = at(FORCED, 2, last="b2", black=1)
    for perm in SYMMETRIES:
        image = GAME.transform_state(s, perm)
        assert image.anchor == perm[s.anchor]
        assert len(GAME.legal_moves(image)) == 12


# -- perft ------------------------------------------------------------------------------
#
# An independent count written differently: points as (level, x, y), playable
# when empty and (on the board or) all four balls beneath are present, "next
# to" worked out from coordinates, the game stopping when 29 points are full.

def _brute_points():
    return [(lv, x, y) for lv in range(4) for y in range(4 - lv) for x in range(4 - lv)]


def _brute_playable(balls, pt):
    lv, x, y = pt
    if pt in balls:
        return False
    return lv == 0 or all((lv - 1, x + dx, y + dy) in balls for dx in (0, 1) for dy in (0, 1))


def _brute_next_to(a, b):
    (la, xa, ya), (lb, xb, yb) = a, b
    if la == lb:
        return max(abs(xa - xb), abs(ya - yb)) == 1
    if lb == la + 1:                       # b rests on a
        return xb in (xa - 1, xa) and yb in (ya - 1, ya)
    if la == lb + 1:
        return xa in (xb - 1, xb) and ya in (yb - 1, yb)
    return False


def _balls(position):
    return {pt for pt in _brute_points() if position.occupied >> point_at(*pt) & 1}


def _brute_count(balls, last, depth):
    if depth == 0:
        return 1
    if len(balls) == 29:
        return 0
    open_ = [pt for pt in _brute_points() if _brute_playable(balls, pt)]
    if last is None:
        options = [pt for pt in open_ if pt[0] == 0]
    else:
        options = [pt for pt in open_ if _brute_next_to(last, pt)] or open_
    return sum(_brute_count(balls | {pt}, pt, depth - 1) for pt in options)


def test_perft_from_the_start_matches_a_hand_count_and_a_brute_force():
    counts = [perft(GAME, d) for d in range(1, 5)]
    # By hand: 16 opening holes; then Red has 3 moves after a corner, 5 after an
    # edge hole and 8 after a centre hole: 4*3 + 8*5 + 4*8 = 84.
    assert counts[:2] == [16, 84]
    assert counts == [16, 84, 408, 1764]
    assert counts == [_brute_count(frozenset(), None, d) for d in range(1, 5)]


def test_perft_where_black_balls_are_forced():
    # From the forced position: 12 black balls, then White's replies next to them.
    s = at(FORCED, 2, last="b2", black=1)
    counts = [perft(GAME, d, s) for d in range(1, 4)]
    balls = frozenset(_balls(s.position))
    assert counts == [_brute_count(balls, (1, 0, 0), d) for d in range(1, 4)]
    assert counts == [12, 54, 216]


def test_perft_at_the_end_of_the_game():
    # Two points before the apex: Red plays e5.2 or c5.2 next to e3.2, White the
    # other one, and the game is over.
    s = GAME.parse_state("WWWR/RRRW/BRRW/RWWW|WWR/RRR/RRR|../WW|. 2 last=e3.2 black=1")
    assert [perft(GAME, d, s) for d in range(1, 4)] == [2, 2, 0]
    assert [perft(GAME, d, s) for d in range(1, 4)] == [
        _brute_count(frozenset(_balls(s.position)), (2, 1, 0), d) for d in range(1, 4)]
