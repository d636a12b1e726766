"""An engine-free model of the pyramid, for the brute-force cross-checks.

The per-game tests count moves with a second implementation written from the
rules alone, sharing no code with ``shibumi``: points are ``(level, x, y)``
tuples (``x``, ``y`` from 0 to ``3 - level``), a board is a dict from points to
colours.  Only the geometry every game shares lives here; each test file
writes its own game's rules.
"""
from __future__ import annotations

ALL = [(lv, x, y) for lv in range(4) for y in range(4 - lv) for x in range(4 - lv)]


def below(pt):
    """The four points a ball at ``pt`` rests on (none on the board)."""
    lv, x, y = pt
    return [(lv - 1, x + dx, y + dy) for dx in (0, 1) for dy in (0, 1)] if lv else []


ABOVE = {pt: [q for q in ALL if pt in below(q)] for pt in ALL}


def touch(a, b) -> bool:
    """Two points in contact: one step apart on a level, or one resting on the other."""
    flat = a[0] == b[0] and abs(a[1] - b[1]) + abs(a[2] - b[2]) == 1
    return flat or a in below(b) or b in below(a)


def open_points(board) -> list:
    """Empty points whose supports are all filled (the playable points)."""
    return [pt for pt in ALL if pt not in board and all(b in board for b in below(pt))]


#: Height between levels, for balls of diameter 1.
HEIGHT = 1 / 2 ** 0.5


def centre(pt):
    """The 3D centre of the ball at ``pt`` (balls of diameter 1)."""
    lv, x, y = pt
    return (x + lv / 2, y + lv / 2, lv * HEIGHT)


def playable(board, pt) -> bool:
    """Whether ``pt`` is empty with all its supports filled."""
    return pt not in board and all(b in board for b in below(pt))


def cells_of(position) -> dict:
    """The balls of a position as ``{(level, x, y): 'W' | 'B' | 'R'}``.

    Read from the position's text only (levels ``|``-separated, rows ``/``-
    separated from the top row down), so nothing else of the engine is used.
    """
    board = {}
    for lv, level in enumerate(position.text().split("|")):
        rows = level.split("/")
        for i, row in enumerate(rows):
            for x, ch in enumerate(row):
                if ch != ".":
                    board[(lv, x, len(rows) - 1 - i)] = ch
    return board


def square(pt):
    """The top-view square of ``pt`` on the 7x7 grid of ball centres, as (x2, y2)."""
    lv, x, y = pt
    return (2 * x + lv, 2 * y + lv)


def top_balls(board) -> dict:
    """The highest ball over each top-view square: ``{square: point}``."""
    top = {}
    for pt in board:
        sq = square(pt)
        if sq not in top or top[sq][0] < pt[0]:
            top[sq] = pt
    return top


# -- visibility: contacts seen from above, and the groups they make ------------

def hidden(board, p) -> bool:
    """Whether the ball at p is hidden: a ball stands two levels straight above it."""
    lv, x, y = p
    return (lv + 2, x - 1, y - 1) in board


def crossing(a, b):
    """The two points of the level above whose contact passes over the a-b contact."""
    if a[0] != b[0]:
        return None
    mid = tuple(sa + sb for sa, sb in zip(square(a), square(b)))
    pairs = [(p, q) for p in ALL for q in ALL if p < q and p[0] == a[0] + 1 == q[0]
             and touch(p, q) and tuple(sp + sq for sp, sq in zip(square(p), square(q))) == mid]
    return pairs[0] if pairs else None


#: For each touching pair: the pair of the level above passing over its contact (or None).
CROSS = {(a, b): crossing(a, b) for a in ALL for b in ALL if touch(a, b)}


def sees(board, a, b) -> bool:
    """Whether the contact of two touching balls is seen from above."""
    if hidden(board, a) or hidden(board, b):
        return False
    over = CROSS[a, b]
    return not (over and over[0] in board and over[1] in board)


def visible_group(board, p) -> set:
    """The points of the ball at p's group, grown over contacts seen from above."""
    seen, todo = {p}, [p]
    while todo:
        a = todo.pop()
        for b in board:
            if b not in seen and board[b] == board[p] and touch(a, b) and sees(board, a, b):
                seen.add(b)
                todo.append(b)
    return seen
