"""Spawn: three colours in, one ball out, never three of a colour in contact."""
import random

import pytest

import shibumi.games.spawn  # noqa: F401  (registers the game)
from conformance import (check_playouts, check_random_games, check_symmetries,
                         check_uniform_draws, random_walk)
from shibumi import IllegalMoveError, NotationError, load
from shibumi.analysis import perft
from shibumi.geometry import COORDS, points_of
from shibumi.games.spawn import no_triplets
from shibumi.notation import Move, parse_point
from shibumi.position import BLACK, RED, Position
from reference import (ABOVE as _ABOVE, cells_of as _cells, open_points as _open,
                       square as _square, touch as _touch)

# From random play: Player 2 to start the last turn, 27 balls down.
LAST_TURN = "WRBR/BRWW/WBRB/BWRW|BWB/WBR/RWB|R./B.|. 2 ply=51"
# From random play: Player 1 has no whole turn with 17 balls down.
STUCK = "RWWB/RBBR/WRWW/.BRB|.R./.../.B.|../..|. 1 ply=31"


def state(text, **params):
    return load("spawn", **params).parse_state(text)


def match_at(text, **params):
    return load("spawn", **params).new_match(state=state(text, **params))


def texts(game, s):
    return sorted(m.text() for m in game.legal_moves(s))


def test_conformance():
    check_random_games("spawn", seeds=range(12))
    check_random_games("spawn", seeds=range(3), visible=False)


def test_the_opening_turn_places_three_colours_and_removes_nothing():
    m = load("spawn").new_match()
    assert len(m.legal_moves()) == 16 * 3          # any colour in any hole
    m.push("Wc3")
    assert {mv.colour for mv in m.legal_moves()} == {BLACK, RED}
    with pytest.raises(IllegalMoveError):
        m.push("Wc1")                              # white is done for this turn
    m.push("Bc1")
    m.push("Re3")
    assert m.current_player == 1 and m.state.placed == ()
    assert all(mv.kind == "place" for mv in m.legal_moves())


def test_one_ball_is_next_to_the_other_two():
    m = load("spawn").new_match()
    m.push("Wa1")
    m.push("Be1")                                  # not next to a1 ...
    # ... so the red must be next to both: c1 touches both, c3 is the diagonal
    # neighbour of both.
    thirds = texts(m.game, m.state)
    assert thirds == ["Rc1", "Rc3.0"]
    m.pop()
    # a1 and g7 have no common neighbour: the second ball cannot go there
    assert "Bg7" not in texts(m.game, m.state)
    m.push("Bc3")                                  # diagonal neighbours on the board
    thirds = {mv.point for mv in m.legal_moves()}
    near = {parse_point(p) for p in ("a3", "c1", "a5", "c5.0", "e5.0", "e1", "e3.0")}
    assert thirds == near


def test_no_ball_touches_two_of_its_colour():
    game = load("spawn")
    # Reds on a1 and e1; c1 would touch both.
    s = state("..../..../..../R.R.|.../.../...|../..|. 1 ply=3")
    firsts = texts(game, s)
    assert "Rc1" not in firsts and "Wc1" in firsts
    # Red on a1 touching red c1: a red on a3 would touch a1 only, but a1 would then
    # touch two reds (a chain of three), so it is refused too.
    s = state("..../..../..../RR..|.../.../...|../..|. 1 ply=3")
    assert "Ra3" not in texts(game, s) and "Re1" not in texts(game, s)
    assert "Re3.0" in texts(game, s)               # diagonal to c1: allowed
    assert "Rc3.0" not in texts(game, s)           # touches c1, already linked to a1
    assert not no_triplets(Position("..../..../R.../RR..|.../.../...|../..|."))


def test_cut_contacts_do_not_count_unless_the_variant_says():
    # Reds on a3, c3 and e3 touch in a row, but the white b2 and the black b4
    # pass over the a3-c3 contact and cut it: seen from above, c3 touches only
    # e3. The variant counts every physical contact.
    text = "..../BW../RRR./WB..|.../B../W..|../..|."
    pos = Position(text)
    assert no_triplets(pos) and not no_triplets(pos, visible=False)
    assert state(text + " 1 ply=11").result is None
    with pytest.raises(NotationError):
        state(text + " 1 ply=11", visible=False)
    assert not _rule_physical(_cells(pos)) and _rule(_cells(pos))


def _rule_physical(board):
    return all(sum(1 for q in board if q != p and board[q] == board[p] and _touch(p, q))
               <= 1 for p in board)


def test_the_removal_spares_the_balls_just_placed_and_pinned_balls():
    game = load("spawn")
    m = game.new_match(record="Wa1 Bc1 Ra3 Wc3 Re1 Bc5")
    assert game.removing(m.state)
    removable = {mv.point for mv in m.legal_moves()}
    assert all(mv.kind == "remove" for mv in m.legal_moves())
    assert not removable & {parse_point(p) for p in ("c3.0", "e1", "c5.0")}
    assert removable == {parse_point(p) for p in ("a1", "c1", "a3")}
    with pytest.raises(IllegalMoveError):
        m.push("xc3")
    m.push("xa1")
    assert m.current_player == 0 and m.state.position.count() == 5


def test_a_removal_may_not_drop_balls_into_a_triplet():
    # From random play: Player 2's three balls are in (d6, g7, f6). Taking the
    # red g5 would drop the white f6 into g5, next to the white g3, which
    # already touches the white g1: a chain of three. So g5 stays.
    s = state("WBWB/BWBR/BWBW/.RRW|RRW/.../...|../..|. 2 ply=30 ball1=d6 ball2=g7 ball3=f6")
    game = load("spawn")
    took = texts(game, s)
    assert "xg5" not in took and not s.position.is_pinned(parse_point("g5"))
    after, drops = s.position.remove(parse_point("g5"))
    assert drops == ((parse_point("f6"), parse_point("g5")),) and not no_triplets(after)
    assert "xd6" not in took and "xf6" not in took          # placed this turn
    assert took == sorted("x" + n for n in ("a3", "a5", "a7", "b6", "c1", "c3.0", "e1",
                                            "e3.0", "g1", "g3"))


def test_completing_the_pyramid_wins():
    m = match_at(LAST_TURN)
    assert m.state.position.count() == 27
    m.push(m.legal_moves()[0])
    m.push(m.legal_moves()[0])
    assert not m.is_over()
    m.push(m.legal_moves()[0])
    assert m.outcome().winners == (1,) and "completed" in m.outcome().reason
    assert m.game.winning_points(m.state).bit_count() == 3


def test_a_player_without_a_whole_turn_loses():
    s = state(STUCK)
    assert s.result is not None and s.result.winners == (1,)
    assert "cannot play a whole turn" in s.result.reason
    assert load("spawn").legal_moves(s) == []
    assert not _finishable(_cells(s.position), [], 0)


def test_every_first_ball_offered_leads_to_a_whole_turn():
    game = load("spawn")
    rng = random.Random(2)
    for _ in range(20):
        s = game.initial_state()
        while not game.is_terminal(s):
            s = game.apply(s, rng.choice(game.legal_moves(s)))
            if not game.is_terminal(s):
                assert game.legal_moves(s)
        assert game.length(s) <= game.info.max_length


def test_bad_input_is_refused_and_changes_nothing():
    m = load("spawn").new_match(record="Wa1 Bc1 Ra3")
    before = m.state
    for bad in ("xa1", "Rb2", "pass", "Bq9", "x", "Wd4"):
        with pytest.raises((IllegalMoveError, NotationError)):
            m.push(bad)
        assert m.state == before
    for text in ("..../..../..../RRR.|.../.../...|../..|. 1",                 # triplet
                 "..../..../..../R.R.|.../.../...|../..|. 1 ball1=c1",        # empty ball
                 "..../..../..../R.R.|.../.../...|../..|. 1 ball2=a1",        # gap in slots
                 "..../..../..../R.R.|.../.../...|../..|. 1 ball1=a1 ball2=e1",  # same colour
                 "..../..../..../R.R.|.../.../...|../..|. 1 turn=3"):
        with pytest.raises(NotationError):
            load("spawn").parse_state(text)


def test_symmetries_and_state_text():
    game = load("spawn")
    for seed in range(12):
        s = random_walk(game, seed, seed * 5 % 40)
        for image in check_symmetries(game, s):
            again = game.parse_state(game.state_text(image))
            assert game.state_key(again) == game.state_key(image)


# -- perft, cross-checked by an engine-free brute force ----------------------
#
# The rules again on a dict {(level, x, y): 'W' | 'B' | 'R'}. Seen from above:
# a ball is hidden when a ball sits on the same top-view square two levels up;
# a contact on one level is cut when two touching balls of the level above
# cross it (their top-view midpoint is the contact's). The rule: no ball has
# two visible contacts with its colour.

def _hidden(board, p):
    return any(q[0] == p[0] + 2 and _square(q) == _square(p) for q in board)


def _mid(a, b):
    (ax, ay), (bx, by) = _square(a), _square(b)
    return (ax + bx, ay + by)


def _cut(board, a, b):
    if a[0] != b[0]:
        return False
    ups = [q for q in board if q[0] == a[0] + 1]
    return any(_touch(c, d) and _mid(c, d) == _mid(a, b) for c in ups for d in ups if c < d)


def _seen(board, a, b):
    return _touch(a, b) and not _hidden(board, a) and not _hidden(board, b) \
        and not _cut(board, a, b)


def _rule(board):
    return all(sum(1 for q in board if q != p and board[q] == board[p] and _seen(board, p, q))
               <= 1 for p in board)


def _near(a, b):
    return _touch(a, b) or (a[0] == b[0] and abs(a[1] - b[1]) == abs(a[2] - b[2]) == 1)


def _cluster(pts):
    return len(pts) < 2 or any(all(_near(p, q) for q in pts if q != p) for p in pts)


def _due(board, placed):
    done = {board[p] for p in placed}
    return [c for c in "WBR" if c not in done and list(board.values()).count(c) < 16]


def _lift(board, p):
    board = dict(board)
    del board[p]
    gap = p
    while True:
        above = [q for q in _ABOVE[gap] if q in board]
        if not above:
            return board
        board[gap] = board.pop(above[0])
        gap = above[0]


def _removals(board, placed):
    return [p for p in board if p not in placed
            and len([q for q in _ABOVE[p] if q in board]) <= 1 and _rule(_lift(board, p))]


def _finishable(board, placed, _mover):
    if len(board) == 30:
        return _cluster(placed)
    due = _due(board, placed)
    if not due:
        return _cluster(placed) and (len(board) == len(placed) or bool(_removals(board, placed)))
    for c in due:
        for p in _open(board):
            after = {**board, p: c}
            if _rule(after) and _finishable(after, placed + [p], _mover):
                return True
    return False


def _children(node):
    board, mover, placed = node
    if len(board) == 30 or (not placed and not _finishable(board, [], mover)):
        return []
    due = _due(board, placed)
    if placed and not due:
        return [(_lift(board, p), 1 - mover, []) for p in _removals(board, placed)]
    out = []
    for c in due:
        for p in _open(board):
            after = {**board, p: c}
            if _rule(after) and _finishable(after, placed + [p], mover):
                if len(after) < 30 and not _due(after, placed + [p]) \
                        and len(after) == len(placed) + 1:
                    out.append((after, 1 - mover, []))       # the opening turn ends
                else:
                    out.append((after, mover, placed + [p]))
    return out


def _brute(node, depth):
    if depth == 0:
        return 1
    return sum(_brute(child, depth - 1) for child in _children(node))


# By hand: 48 first balls. The second: another colour (2) on any other hole
# that is next to the first or shares a neighbour with it, that is at most two
# steps away both ways: 8 holes from a corner, 11 from an edge, 15 from a
# centre hole, 11.25 on average, so 48 x 2 x 11.25 = 1080.
PERFT = [48, 1080, 4752]


def test_perft_from_the_start_matches_a_brute_force():
    game = load("spawn")
    assert [perft(game, d) for d in range(1, 4)] == PERFT
    assert PERFT[1] == 48 * 2 * (4 * 8 + 8 * 11 + 4 * 15) // 16
    assert [_brute(({}, 0, []), d) for d in range(1, 4)] == PERFT


def test_perft_from_random_positions_matches_a_brute_force():
    game = load("spawn")
    checked = 0
    for seed in range(40):
        s = random_walk(game, seed, 6 + seed % 7)
        if game.is_terminal(s):
            continue
        node = (_cells(s.position), s.to_move, [COORDS[p] for p in s.placed])
        assert [perft(game, d, s) for d in (1, 2)] == [_brute(node, d) for d in (1, 2)], seed
        checked += 1
        if checked == 6:
            break
    assert checked == 6


# -- the fast rules against the plain ones ---------------------------------------

@pytest.mark.parametrize("visible", [True, False])
def test_fast_playouts_agree_with_the_rules(visible):
    # The conformance suite checks the default (300 games); the rejection draws
    # are replayed through the rules and tested for uniformity here on more
    # games, both readings.
    check_playouts("spawn", games=600 if visible else 400, visible=visible)


def _states(game, seeds):
    """Every state along random games."""
    for seed in seeds:
        rng, s = random.Random(seed), game.initial_state()
        while not game.is_terminal(s):
            yield s
            s = game.apply(s, rng.choice(game.legal_moves(s)))


@pytest.mark.parametrize("visible", [True, False])
def test_quick_proofs_agree_with_the_search(visible):
    # The placements offered (quick proofs first, the search when they fail)
    # against the search alone on every placement that obeys the rules.
    game = load("spawn", visible=visible)
    checked = 0
    for s in _states(game, range(25 if visible else 10)):
        if game.removing(s):
            continue
        masks = game.masks(s)
        plain = tuple((c, p) for c, p, after in game._placements(masks, s.placed)
                      if game._finishes(after, s.placed + (p,)))
        assert game._find_options(masks, s.placed) == plain, game.state_text(s)
        checked += 1
    assert checked > 100


@pytest.mark.parametrize("visible", [True, False])
def test_placeable_on_masks_agrees_with_fits(visible):
    # placeable() works on whole masks for many spots and point by point for a
    # few: both against fits() on the position with the ball placed.
    from shibumi.games.spawn import fits, placeable
    game = load("spawn", visible=visible)
    rng = random.Random(4)
    checked = 0
    for s in _states(game, range(15 if visible else 6)):
        occ = s.position.occupied
        spots = s.position.playable()
        for mine in game.masks(s):
            expected = sum(1 << p for p in points_of(spots)
                           if fits(p, mine | 1 << p, occ | 1 << p, visible))
            assert placeable(mine, occ, spots, visible) == expected, game.state_text(s)
            some = spots & rng.getrandbits(30)
            assert placeable(mine, occ, some, visible) == expected & some
            checked += spots.bit_count() > 5
    assert checked > 100


@pytest.mark.parametrize("visible", [True, False])
def test_removals_agree_with_a_whole_board_check(visible):
    # lift_fits looks only at the balls a removal can bring into contact.
    from shibumi.games.spawn import masks_fit
    game = load("spawn", visible=visible)
    checked = 0
    for s in _states(game, range(20 if visible else 8)):
        if not game.removing(s):
            continue
        done = set(s.placed)
        expected = [p for p in range(30) if s.position.occupied >> p & 1 and p not in done
                    and not s.position.is_pinned(p)
                    and masks_fit(game.masks(type(s)(s.position.remove(p)[0])), visible)]
        assert game.removals(game.masks(s), s.placed) == expected, game.state_text(s)
        checked += 1
    assert checked > 50


#: More than any draw's candidates (three colours on 30 points, or 30 balls).
_GRID = 90


def _accepted_first(game, s) -> set:
    """Every action Spawn.draw returns when its first candidate is accepted at
    once: the first number drawn runs over a grid finer than any pool of
    candidates (so every candidate comes first for some number), and a draw
    that needed a second number is not counted."""
    masks, occ, playable = game.masks(s), s.position.occupied, s.position.playable()
    found = set()
    for k in range(_GRID):
        calls = []

        def rnd():
            calls.append(None)
            return (k + 0.5) / _GRID if len(calls) == 1 else 0.0

        drawn = game.draw(masks, occ, s.placed, playable, rnd)
        if drawn is not None and len(calls) == 1:
            c, p = drawn
            found.add(Move.remove(p) if not c else Move.place(p, c))
    return found


@pytest.mark.parametrize("visible", [True, False])
def test_the_rejection_draw_accepts_exactly_the_legal_actions(visible):
    # Spawn's playouts draw by rejection (Spawn.draw) instead of listing the
    # actions: a candidate drawn first is accepted exactly when it is legal,
    # so no legal action is left out and none is added, and no whole turn
    # means None.
    from shibumi.games.spawn import Spawn
    game = load("spawn", visible=visible)
    checked = 0
    for s in _states(game, range(12 if visible else 5)):
        assert _accepted_first(game, s) == set(game.legal_moves(s)), game.state_text(s)
        checked += not s.placed and s.position.count() > 0
    assert checked > 20                         # first balls of turns after the opening
    stuck = state(STUCK)
    assert stuck.result is not None
    assert Spawn.draw(load("spawn"), load("spawn").masks(stuck), stuck.position.occupied, (),
                      stuck.position.playable(), random.Random(1).random) is None


def test_search_playouts_reach_a_legal_end():
    game = load("spawn")
    rng = random.Random(2)
    for seed in range(30):
        s = random_walk(game, seed, seed % 20)
        end = game.playout(s, rng)
        assert game.is_terminal(end) and end.result is not None
        assert game.state_key(game.parse_state(game.state_text(end))) == game.state_key(end)


def _board_states(seeds, visible=True):
    """Every state along random games (the ``_states`` of both readings)."""
    yield from _states(load("spawn", visible=visible), seeds)


@pytest.mark.parametrize("visible", [True, False])
def test_freed_holds_every_point_a_ball_lets_fit(visible):
    # A ball of another colour put at x never undoes a fit, and a point where a
    # colour comes to fit is among freed(x): checked point by point with fits()
    # before and after, for every playable x and colour on random positions.
    # And freed(x) stays within its bound _FREED_REACH[x] (a filter before it).
    from shibumi.games.spawn import _FREED_REACH, fits, freed, raised
    game = load("spawn", visible=visible)
    checked = 0
    for s in _board_states(range(20 if visible else 8), visible):
        occ = s.position.occupied
        playable = s.position.playable()
        masks = game.masks(s)
        for x in points_of(playable):
            occ2 = occ | 1 << x
            after = raised(playable, occ2, x)
            for o, mine in enumerate(masks):
                if mine >> x & 1:
                    continue
                assert not freed(x, occ, mine) & ~_FREED_REACH[x], game.state_text(s)
                for q in points_of(after & playable):
                    before = fits(q, mine | 1 << q, occ | 1 << q, visible)
                    now = fits(q, mine | 1 << q, occ2 | 1 << q, visible)
                    assert now or not before, game.state_text(s)
                    if now and not before:
                        assert visible and freed(x, occ, mine) >> q & 1, game.state_text(s)
                        checked += 1
    assert checked > (20 if visible else -1)


def test_raisers_match_the_platforms_point_by_point():
    # _raisers counts the missing supports on shifted level masks: against the
    # empty points above the board, one by one.
    from shibumi.games.spawn import _raisers
    from shibumi.geometry import SUPPORT_MASK
    rng = random.Random(7)
    for _ in range(3000):
        occ = 0                                 # a random stack, level by level
        for p in range(30):
            if SUPPORT_MASK[p] & occ == SUPPORT_MASK[p] and rng.random() < 0.7:
                occ |= 1 << p
        one, pairs = 0, set()
        for q in range(16, 30):
            missing = SUPPORT_MASK[q] & ~occ
            if occ >> q & 1 or not missing:
                continue
            if missing.bit_count() == 1:
                one |= missing
            elif missing.bit_count() == 2:
                pairs.add(missing)
        found_one, found_pairs = _raisers(occ)
        assert found_one == one and set(found_pairs) == pairs, bin(occ)


@pytest.mark.parametrize("visible", [True, False])
def test_first_and_second_ball_verdicts_agree_with_the_search(visible):
    # _first_ball and _second_ball decide a placement at once (True with a
    # witness, False when no cluster can follow) or leave it to the search
    # (None): every verdict against the search, on every candidate that fits;
    # and draw()'s check of a second ball (_drawn_second, True or False).
    from shibumi.bits import next_to
    from shibumi.games.spawn import (LEVEL0, _NEAR2, _NEARBY, _raisers, placeable, raised,
                                     third_spots, under)
    game = load("spawn", visible=visible)
    verdicts = {True: 0, False: 0, None: 0}
    for s in _board_states(range(30 if visible else 12), visible):
        masks, placed = game.masks(s), s.placed
        occ, playable = s.position.occupied, s.position.playable()
        due = game.due(masks, placed)
        if len(placed) > 1 or len(due) + len(placed) != 3 or occ.bit_count() == len(placed) \
                or 30 - occ.bit_count() <= len(due):
            continue
        done = sum(1 << q for q in placed)
        bare = occ & LEVEL0 & ~under(occ)[0] & ~done
        if not placed:
            fitting = [placeable(m, occ, playable, visible) for m in masks]
            turn = (bare,) + _raisers(occ)
            near = [next_to(f, _NEARBY) for f in fitting]     # (the clusters' shortcut)
            cases = [(i, p, game._first_ball(masks, occ, playable, fitting, i, p, turn))
                     for i in range(3) for p in points_of(fitting[i])]
            assert [game._first_ball(masks, occ, playable, fitting, i, p, turn, near)
                    for i, p, _ in cases] == [v for _, _, v in cases], game.state_text(s)
        else:
            first = placed[0]
            fitting = [placeable(masks[c - 1], occ, playable & _NEAR2[first], visible)
                       for c in due]
            cases = []
            for k in (0, 1):
                o = due[1 - k] - 1
                for x in points_of(fitting[k]):
                    spread = third_spots(first, x)
                    after = raised(playable, occ | 1 << x, x)
                    cases.append((due[k] - 1, x, game._second_ball(
                        masks, occ, playable, after, x, spread, fitting[1 - k], o, bare)))
                    cases.append((due[k] - 1, x, game._drawn_second(      # draw()'s
                        masks, occ, placed, done, due[k], o + 1, x, playable)))
        for i, p, verdict in cases:
            low = 1 << p
            exact = game._search(masks[:i] + (masks[i] | low,) + masks[i + 1:], occ | low,
                                 placed + (p,), done | low, [c for c in due if c != i + 1])
            assert verdict is None or verdict == exact, (game.state_text(s), i, p)
            verdicts[verdict] += 1
    assert verdicts[True] > 500 and verdicts[False] > 200


def test_the_uniformity_check_catches_a_slightly_biased_draw(monkeypatch):
    # Spawn's playouts draw by rejection, so check_playouts tests their draws
    # for uniformity: here a draw that redraws one white in five (a lean of
    # about an eighth against white, spread over many points) must fail it.
    from shibumi.games.spawn import Spawn
    fair = Spawn.draw

    def leaning(self, masks, occ, placed, playable, rnd, due=None):
        drawn = fair(self, masks, occ, placed, playable, rnd, due)
        if drawn and drawn[0] == 1 and rnd() < 0.2:
            drawn = fair(self, masks, occ, placed, playable, rnd, due)
        return drawn

    monkeypatch.setattr(Spawn, "draw", leaning)
    with pytest.raises(AssertionError, match="not uniform"):
        check_uniform_draws(load("spawn"))
