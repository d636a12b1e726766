"""Spuzzle solved (shibumi.maths.spuzzle): the highest possible score is 27.

The solver (gap sets up to symmetry, then a colouring search) is checked
against two searches written here from the rules alone, sharing no code with
it or the engine: the whole game tree on the small pyramids of bases 2 and 3
(with one, two or three colours), and a branch and bound over the full
pyramid that never looks at gap sets.
"""
import itertools
import json
import subprocess
import sys

import pytest

from shibumi import load
from shibumi.geometry import SUPPORT_MASK, SYMMETRIES, TOUCHING_MASK
from shibumi.maths.spuzzle import (Pyramid, count_optimal, gap_sets, largest_colour_class,
                                   solve_spuzzle)
from shibumi.notation import parse_point
from reference import below as _below, touch as _touch


def test_the_pyramid_of_base_4_is_the_engines():
    pyr = Pyramid(4)
    assert pyr.size == 30
    assert list(pyr.touching) == list(TOUCHING_MASK)
    assert list(pyr.supports) == list(SUPPORT_MASK)
    assert list(pyr.symmetries) == list(SYMMETRIES)


def test_the_highest_score_is_27_and_nothing_above_is_possible():
    result = solve_spuzzle()
    assert result["score"] == 27
    assert result["refuted"] == {30: 1, 29: 1, 28: 1}
    # left empty: the apex and two diagonally opposite points of level 2
    gaps = {parse_point(p) for p in result["gaps"]}
    assert gaps in ({29, 25, 28}, {29, 26, 27})
    assert result["nodes"] < 10 ** 6 and result["seconds"] < 30


def test_the_optimal_line_is_a_legal_game_that_ends_with_27():
    result = solve_spuzzle()
    match = load("spuzzle").new_match()
    for text in result["line"]:
        assert not match.is_over()
        match.push(text)
    assert match.is_over()
    assert match.outcome().scores == (27.0,)
    assert match.state.position.text() == result["position"]
    assert len(result["line"]) == 27


def test_192_final_positions_score_27_on_two_of_the_ten_gap_sets(monkeypatch):
    from shibumi.maths import spuzzle
    from shibumi.maths.spuzzle import _Search
    counted = count_optimal()
    assert (counted["score"], counted["positions"]) == (27, 192)
    assert (counted["gap_sets"], counted["gap_sets_used"]) == (10, 2)
    # the two usable gap sets: the apex and a diagonal pair of level 2
    assert sorted(counted["used"]) == [[25, 28, 29], [26, 27, 29]]
    # the two are images of each other under a symmetry of the board
    masks = [sum(1 << p for p in gaps) for gaps in counted["used"]]
    assert any(sum(1 << perm[p] for p in counted["used"][0]) == masks[1] for perm in SYMMETRIES)
    # each admits 96 labelled colourings: 16 patterns up to renaming, times 6
    pyr = Pyramid(4)
    for gaps in masks:
        assert _Search(pyr).run(pyr.full & ~gaps, count=True) == 96
        assert _Search(pyr, colours=2).run(pyr.full & ~gaps, count=True) == 0
    monkeypatch.setattr(spuzzle, "_renamings", lambda used, colours: 1)
    assert [_Search(pyr).run(pyr.full & ~gaps, count=True) for gaps in masks] == [16, 16]


def test_gap_sets_are_the_upward_closed_sets():
    pyr = Pyramid(4)
    for k in range(4):
        closed = [sum(1 << p for p in combo) for combo in itertools.combinations(range(30), k)
                  if all(pyr.above[p] & ~sum(1 << q for q in combo) == 0 for p in combo)]
        assert sorted(closed) == gap_sets(pyr, k, canonical=False)
    assert [len(gap_sets(pyr, k, canonical=False)) for k in range(4)] == [1, 1, 4, 10]
    assert [len(gap_sets(pyr, k)) for k in range(4)] == [1, 1, 1, 3]


def test_one_colour_never_needs_more_than_12_balls():
    assert largest_colour_class() == 12
    # base 3, against every subset of its 14 points
    pyr = Pyramid(3)
    best = 0
    for subset in range(1 << pyr.size):
        if all((pyr.touching[p] & subset).bit_count() <= 1 for p in range(pyr.size)
               if subset >> p & 1):
            best = max(best, subset.bit_count())
    assert largest_colour_class(3) == best


# -- second method 1: the whole game tree on small pyramids -------------------


def _points(n):
    return [(lv, x, y) for lv in range(n) for y in range(n - lv) for x in range(n - lv)]


def _game_tree(n, colours):
    """Every position reachable by legal play, each once: (best score, number of
    finished positions with it)."""
    pts = _points(n)
    near = {a: [b for b in pts if b != a and _touch(a, b)] for a in pts}

    def group(board, start):
        seen, todo = {start}, [start]
        while todo:
            a = todo.pop()
            for b in near[a]:
                if b not in seen and board.get(b) == board[start]:
                    seen.add(b)
                    todo.append(b)
        return seen

    seen, finals, stack = {frozenset()}, [], [frozenset()]
    while stack:
        pos = stack.pop()
        board, moved = dict(pos), False
        for pt in pts:
            if pt in board or not all(b in board for b in _below(pt)):
                continue
            for c in colours:
                after = {**board, pt: c}
                if len(group(after, pt)) <= 2:
                    moved = True
                    key = frozenset(after.items())
                    if key not in seen:
                        seen.add(key)
                        stack.append(key)
        if not moved:
            finals.append(len(pos))
    best = max(finals)
    return best, finals.count(best)


@pytest.mark.parametrize("n, colours", [(2, "W"), (2, "WB"), (2, "WBR"), (3, "W"), (3, "WB")])
def test_the_solver_agrees_with_the_game_tree_on_small_pyramids(n, colours):
    best, how_many = _game_tree(n, colours)
    assert solve_spuzzle(n, colours=len(colours))["score"] == best
    assert count_optimal(n, colours=len(colours))["positions"] == how_many


def test_small_pyramids_known_values():
    # base 3 with two colours cannot even be filled: a real test of the gap sets
    assert [(n, c, solve_spuzzle(n, colours=c)["score"]) for n, c in
            [(2, 1), (2, 2), (2, 3), (3, 1), (3, 2), (3, 3)]] == \
        [(2, 1, 2), (2, 2, 4), (2, 3, 5), (3, 1, 5), (3, 2, 9), (3, 3, 14)]
    # and on the real pyramid two colours fill only the board
    assert solve_spuzzle(4, colours=2)["score"] == 16


@pytest.mark.slow
def test_the_game_tree_of_base_3_with_three_colours():          # about 40 s
    assert _game_tree(3, "WBR") == (14, 252)
    assert count_optimal(3)["positions"] == 252


# -- second method 2: branch and bound over the full pyramid ------------------

def _branch_and_bound(n, colours=3):
    """The largest legal final arrangement: points from the apex down, each
    empty or coloured; a point under a ball must be filled; colours are
    introduced in order; prune when even filling every remaining point
    cannot beat the best so far."""
    pts = sorted(_points(n), key=lambda p: -p[0])
    near = {a: [b for b in pts if b != a and _touch(a, b)] for a in pts}
    above = {a: [b for b in pts if a in _below(b)] for a in pts}
    board, best = {}, [0, None]

    def dfs(i, filled, used):
        if filled + len(pts) - i <= best[0]:
            return
        if i == len(pts):
            best[:] = [filled, dict(board)]
            return
        p = pts[i]
        for c in range(min(colours, used + 1)):
            same = [q for q in near[p] if board.get(q) == c]
            if len(same) > 1 or any(board.get(r) == c for q in same for r in near[q] if r != p):
                continue
            board[p] = c
            dfs(i + 1, filled + 1, max(used, c + 1))
            del board[p]
        if not any(q in board for q in above[p]):
            dfs(i + 1, filled, used)

    dfs(0, 0, 0)
    return best


def test_an_independent_branch_and_bound_also_finds_27():      # about 3 s
    score, board = _branch_and_bound(4)
    assert score == 27 == solve_spuzzle()["score"]
    empty = {pt for pt in _points(4) if pt not in board}
    assert (3, 0, 0) in empty and len(empty) == 3
    assert [_branch_and_bound(n, c)[0] for n, c in [(3, 2), (3, 3)]] == [9, 14]


# -- the command line ------------------------------------------------------------

def test_solve_spuzzle_on_the_command_line():
    proc = subprocess.run([sys.executable, "-m", "shibumi", "solve", "spuzzle", "--json"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["score"] == 27 and len(data["line"]) == 27
    assert data["refuted"] == {"30": 1, "29": 1, "28": 1}
    assert set(data["gaps"]) in ({"c3.2", "e5.2", "d4.3"}, {"c5.2", "e3.2", "d4.3"})
    text = subprocess.run([sys.executable, "-m", "shibumi", "solve", "spuzzle"],
                          capture_output=True, text=True, timeout=120)
    assert text.returncode == 0 and "highest possible score is 27" in text.stdout
