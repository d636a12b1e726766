"""The rule book's guarantees, each checked by computation.

Several chapters of the rule book promise something about every game: a
winner always exists, a game always lasts a fixed number of moves, a tie is
impossible, so many patterns can score.  This module checks each promise,
either exhaustively or by a short proof whose every step is computed, and
says where the promise does not hold as written.

=====================  ============================================  ==========
claim                  function                                      verdict
=====================  ============================================  ==========
Spline: a winner       :func:`spline_guarantee`                      holds
before the last ball
completion games:      :func:`placer_of_ball`, :func:`apex_is_last`  holds
who places ball 30
Spinimax: exactly 16   :func:`spinimax_lengths`                      holds
moves
Spaiji: exactly 15     :func:`spaiji_turns`,                         not always
moves                  :func:`spaiji_block_chance`
Sparro: 29 balls at    :func:`sparro_end`                            holds
the end
Spyramid: 14           :func:`pyramids_in_lattice`                   see there
pyramids
Spodd: no ties         :func:`spodd_no_ties`                         see there
=====================  ============================================  ==========

It also has two small helpers for showing solved values on pictures
(:func:`spline_move_labels`, :func:`annotated_top_view`).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from itertools import combinations

from ..geometry import (ALL_MASK, APEX, BOARD_MASK, COORDS, INTERIOR_MASK, LEVEL,
                        LEVEL_MASK, NUM_POINTS, POINTS, PROJECTION, SUPPORT_MASK,
                        SUPPORTS, TOUCHING_MASK, points_of)
from ..notation import point_name
from ..position import playable_mask


def _maybe(progress, items, **kw):
    return progress(items, **kw) if progress is not None else items


# ---------------------------------------------------------------------------
# Spline.

def spline_guarantee() -> dict:
    """Spline always has a winner before the last ball.

    Uses :func:`shibumi.maths.solve.spline_game_lengths`: a position without
    a line holds at most 27 balls, so the 28th ball at the latest makes a
    line, and a search finds a game that lasts exactly 28 balls.  The
    shortest game has 7 balls.  Returns those figures and ``holds``.
    """
    from .solve import spline_game_lengths
    lengths = spline_game_lengths()
    return {"shortest": lengths["shortest"], "longest": lengths["longest"],
            "shortest_game": lengths["shortest_game"],
            "longest_game": lengths["longest_game"],
            "line_free_capacity": lengths["line_free_capacity"],
            "holds": lengths["longest"] < NUM_POINTS and not lengths["draw_possible"]}


# ---------------------------------------------------------------------------
# Completion: who places ball k.

def placer_of_ball(k: int, players: int) -> int:
    """The player (1 = first) who places the k-th ball when each turn places
    exactly one ball and the players take turns in a fixed order."""
    if k < 1 or players < 1:
        raise ValueError("balls and players are counted from 1")
    return (k - 1) % players + 1


def apex_is_last() -> bool:
    """Whether the apex rests, directly or through other balls, on all 29
    other points: then it is always the 30th ball placed."""
    below, frontier = set(), [APEX]
    while frontier:
        p = frontier.pop()
        for q in SUPPORTS[p]:
            if q not in below:
                below.add(q)
                frontier.append(q)
    return len(below) == NUM_POINTS - 1


def ball_30_table(players=range(2, 7)) -> dict[int, int]:
    """{number of players: who places the 30th ball, the apex} under plain alternation."""
    return {n: placer_of_ball(NUM_POINTS, n) for n in players}


# ---------------------------------------------------------------------------
# Spinimax.

def _closure(board: int) -> int:
    """Every point filled when the board holes `board` are, and each full
    platform carries a ball (level by level, from the bottom)."""
    occ = board
    for p in range(16, NUM_POINTS):
        if occ & SUPPORT_MASK[p] == SUPPORT_MASK[p]:
            occ |= 1 << p
    return occ


def spinimax_lengths(engine: bool = False, progress=None) -> dict:
    """Every Spinimax game lasts exactly 16 moves.

    A move fills one board hole and the automatic stackings fill exactly the
    points whose platforms are finished.  So after any sequence of moves the
    filled points are the *closure* of the filled holes (see
    :func:`_closure`), whatever the order and colours.  Checked over all
    2**16 sets of holes: the apex is in the closure only when all 16 holes
    are filled, so the game ends with the 16th move and never before.  (That
    part is immediate: the apex rests on all 16 holes, so it needs every one
    of them; the loop over hole sets only confirms it.)

    With ``engine=True`` the engine's own stacking
    (:func:`shibumi.games.spinimax.settle_stacks`) is run for every set of
    holes and every next hole (524,288 moves, colours varying), and its
    result compared with the closure: slower (about 3 s).
    """
    start = time.perf_counter()
    apex_early = [s for s in range(1 << 16)
                  if s != BOARD_MASK and _closure(s) >> APEX & 1]
    full = _closure(BOARD_MASK) == ALL_MASK
    mismatches = checked = 0
    if engine:
        from ..games.spinimax import settle_stacks
        from ..position import BLACK, RED, WHITE
        colours = (WHITE, BLACK, RED)
        for s in _maybe(progress, range(1 << 16), desc="hole sets"):
            if s == BOARD_MASK:
                continue
            before = _closure(s)
            masks = [0, 0, 0, 0]
            for i, p in enumerate(points_of(before)):   # some colouring (any will do)
                masks[colours[(i * 7 + s) % 3]] |= 1 << p
            for h in points_of(BOARD_MASK & ~s):
                trial = list(masks)
                trial[colours[(h + s) % 3]] |= 1 << h
                settle_stacks(trial, h)
                checked += 1
                if trial[1] | trial[2] | trial[3] != _closure(s | 1 << h):
                    mismatches += 1
    moves_by_player = Counter(placer_of_ball(k, 3) for k in range(1, 17))
    return {"hole_sets": 1 << 16, "apex_before_16": len(apex_early),
            "full_at_16": full, "engine_moves_checked": checked,
            "engine_mismatches": mismatches,
            "moves_by_player": dict(sorted(moves_by_player.items())),
            "last_mover": placer_of_ball(16, 3),
            "holds": not apex_early and full and not mismatches,
            "seconds": round(time.perf_counter() - start, 2)}


# ---------------------------------------------------------------------------
# Spaiji (and any game placing a touching pair each turn).

def pair_turns(occ: int) -> list[int]:
    """Occupancies after every legal touching pair from `occ`: a first ball on
    a playable point, then a second on a point playable once the first is in
    and touching it.  Written from the rules, without the game module."""
    out = set()
    for p in points_of(playable_mask(occ)):
        after = occ | 1 << p
        for q in points_of(playable_mask(after) & TOUCHING_MASK[p]):
            out.add(after | 1 << q)
    return sorted(out)


def reachable_pair_sets(start: int = 0) -> set[int]:
    """Every set of filled points reachable from `start` by touching pairs
    (:func:`pair_turns`), `start` included."""
    seen, layer = {start}, [start]
    while layer:
        nxt = {kid for occ in layer for kid in pair_turns(occ)} - seen
        seen |= nxt
        layer = sorted(nxt)
    return seen


def pair_game_ends(start: int = 0, progress=None) -> dict:
    """Every set of filled points reachable by touching pairs from `start`,
    and those where no pair fits (no legal turn exists there).

    Returns ``reachable`` (count), ``blocked`` ({balls: how many blocked sets}),
    ``example_blocked`` (the blocked set with the fewest balls, as point
    names) and ``full_reached``.
    """
    seen = {start}
    layer = [start]
    blocked = Counter()
    example = None
    rounds = range(16)
    for _ in _maybe(progress, rounds, desc="turns"):
        nxt = set()
        for occ in layer:
            kids = pair_turns(occ)
            if not kids and occ != ALL_MASK:
                blocked[occ.bit_count()] += 1
                if example is None or occ.bit_count() < example.bit_count():
                    example = occ
            nxt.update(kids)
        nxt -= seen
        seen |= nxt
        layer = sorted(nxt)
        if not layer:
            break
    return {"reachable": len(seen), "blocked": dict(sorted(blocked.items())),
            "example_blocked": [point_name(p) for p in points_of(example)] if example else [],
            "full_reached": ALL_MASK in seen}


def spaiji_turns(progress=None) -> dict:
    """How long a Spaiji game lasts: the book says exactly 15 turns.

    A full pyramid takes 15 pairs, and White, moving first, plays the odd
    turns, so the 15th.  But a search over every set of filled points
    reachable by touching pairs (:func:`pair_game_ends`) finds sets where no
    touching pair fits at all: there the rules as written allow no turn, so
    the game cannot go on to 15 turns whatever is decided about it (the
    engine ends the game there and scores it; that is the project's reading,
    not the rule book's text).  :func:`spaiji_engine_agrees` compares
    :func:`pair_turns` with the engine's own rule on every reachable set.
    """
    start = time.perf_counter()
    ends = pair_game_ends(0, progress)
    lengths = sorted({n // 2 for n in ends["blocked"]} | ({15} if ends["full_reached"] else set()))
    return {**ends, "turn_counts": lengths,
            "blocked_total": sum(ends["blocked"].values()),
            "always_15": lengths == [15],
            "white_takes_turn_15": placer_of_ball(15, 2) == 1,
            "seconds": round(time.perf_counter() - start, 2)}


def spaiji_engine_agrees(rule=None) -> dict:
    """Compare a touching-pair rule (default :func:`pair_turns`) with the
    engine's Spaiji turns (:func:`shibumi.games.spaiji.openings` and
    ``partners``) on every set of filled points reachable from the empty
    board.

    Returns ``compared`` (the number of sets, 28,249) and ``differences``
    (sets where the two disagree on the filled sets one turn can lead to).
    Passing a deliberately wrong ``rule`` shows that the comparison can fail.
    """
    from ..games.spaiji import openings, partners
    rule = pair_turns if rule is None else rule
    compared = differences = 0
    for occ in sorted(reachable_pair_sets(0)):
        theirs = {occ | 1 << p | 1 << q for p in points_of(openings(occ))
                  for q in points_of(partners(occ, p))}
        compared += 1
        differences += set(rule(occ)) != theirs
    return {"compared": compared, "differences": differences}


def spaiji_block_chance() -> float:
    """The chance that a Spaiji game played at random reaches a set of filled
    points where no touching pair fits.

    "At random" as the engine's random player plays: each ball is a uniform
    choice among the legal actions, so the first ball of a turn goes to a
    uniformly chosen point among those leaving room for a touching second
    (its colour does not change what follows), and the second to a
    uniformly chosen point among those touching it.  Computed exactly (up to
    floating point) by carrying the probability of every reachable set of
    filled points from turn to turn.
    """
    layer = {0: 1.0}
    blocked = 0.0
    while layer:
        nxt = Counter()
        for occ, chance in layer.items():
            firsts = []
            for p in points_of(playable_mask(occ)):
                seconds = points_of(playable_mask(occ | 1 << p) & TOUCHING_MASK[p])
                if seconds:
                    firsts.append((p, seconds))
            if not firsts:
                blocked += chance if occ != ALL_MASK else 0.0
                continue
            for p, seconds in firsts:
                share = chance / len(firsts) / len(seconds)
                for q in seconds:
                    nxt[occ | 1 << p | 1 << q] += share
        layer = nxt
    return blocked


def spaiji_random_games(games: int = 5000, seed: int = 1) -> dict:
    """Play `games` Spaiji games with uniformly random legal actions on the
    engine and count those that stop before the pyramid is full.

    Returns ``games``, ``stopped_early`` and ``balls_when_stopped``
    ({balls: games}).
    """
    from .. import load
    game = load("spaiji")
    rng = random.Random(seed)
    early = Counter()
    for _ in range(games):
        state = game.initial_state()
        while state.result is None:
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        if state.position.occupied != ALL_MASK:
            early[state.position.occupied.bit_count()] += 1
    return {"games": games, "stopped_early": sum(early.values()),
            "balls_when_stopped": dict(sorted(early.items()))}


# ---------------------------------------------------------------------------
# Sparro.

def sparro_end(games: int = 200, seed: int = 7) -> dict:
    """Sparro ends with 29 balls, the apex empty, and all 24 played balls visible.

    The proof: the five interior points (the only ones a ball can be hidden
    at) start filled with red, so every ball played lands on an exterior
    point and stays in view; the apex rests on all 29 other points
    (:func:`apex_is_last`), so 5 + 24 = 29 balls fill everything but the
    apex and the apex is never playable.  The random games of the engine
    played here only illustrate it (each ends after 24 moves with exactly
    the apex empty); they are not part of the proof.
    """
    from .. import load
    from ..position import RED
    game = load("sparro")
    rng = random.Random(seed)
    finals = Counter()
    visible_ok = True
    for _ in range(games):
        match = game.new_match(seed=rng.randrange(1 << 30))
        state = match.state
        moves = 0
        while state.result is None:
            state = game.apply(state, rng.choice(game.legal_moves(state)))
            moves += 1
        pos = state.position
        finals[(moves, pos.occupied == ALL_MASK & ~(1 << APEX))] += 1
        played = pos.occupied & ~pos.red
        if played & pos.hidden() or (pos.red != INTERIOR_MASK):
            visible_ok = False
    return {"games": games, "finals": dict(finals), "apex_is_last": apex_is_last(),
            "interior_prefilled": INTERIOR_MASK.bit_count(),
            "holds": set(finals) == {(24, True)} and visible_ok and apex_is_last()}


# ---------------------------------------------------------------------------
# Spyramid: regular square pyramids in the lattice, from coordinates alone.

def _doubled(p: int) -> tuple[int, int, int]:
    """Integer coordinates: x and y doubled (level l is offset by l/2), and the level.

    A ball's centre is at (x + l/2, y + l/2, l / sqrt 2) for balls of
    diameter 1, so four times a squared distance is
    ``dx2**2 + dy2**2 + 2 * dl**2`` in these coordinates: exact integers.
    """
    lv, x, y = COORDS[p]
    return 2 * x + lv, 2 * y + lv, lv


def _d4(p: int, q: int) -> int:
    a, b = _doubled(p), _doubled(q)
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + 2 * (a[2] - b[2]) ** 2


def _square_order(quad) -> tuple[int, ...] | None:
    """The four points in order round a square (equal sides s, equal diagonals
    with squared length 2 s**2: a planar square), or None."""
    a, b, c, d = quad
    for order in ((a, b, c, d), (a, b, d, c), (a, c, b, d)):
        sides = {_d4(order[i], order[(i + 1) % 4]) for i in range(4)}
        diags = {_d4(order[0], order[2]), _d4(order[1], order[3])}
        if len(sides) == 1 and len(diags) == 1 and diags.pop() == 2 * next(iter(sides)):
            return order
    return None


def pyramids_in_lattice() -> dict:
    """Every regular square pyramid whose five corners are points of the pyramid.

    Found from the coordinates of the ball centres alone (not from the game
    module): four points forming a square of side s, and a fifth point at
    distance s from all four (all eight edges equal).  Each is classified by
    where its tip points (``up``, ``down`` or ``sideways``), its size (balls
    along a base edge: 2 for a square of side 1) and the level of its base.
    Also counts the square pyramids "rotated 45 degrees" of the book's
    variant (a diamond of four same-level points round an empty centre,
    topped by the point two levels above that centre), which are not regular.
    """
    found = []
    for quad in combinations(POINTS, 4):
        order = _square_order(quad)
        if order is None:
            continue
        side = _d4(order[0], order[1])
        for tip in POINTS:
            if tip in quad or any(_d4(tip, q) != side for q in quad):
                continue
            centre = [sum(_doubled(q)[i] for q in quad) for i in range(3)]   # 4 x centre
            t = _doubled(tip)
            dx, dy, dl = 4 * t[0] - centre[0], 4 * t[1] - centre[1], 4 * t[2] - centre[2]
            way = "sideways" if dx or dy else ("up" if dl > 0 else "down")
            levels = {LEVEL[q] for q in quad}
            size = round((side / 4) ** 0.5) + 1 if side in (4, 16, 36) else None
            found.append({"points": tuple(sorted(quad)) + (tip,), "tip": tip, "way": way,
                          "size": size,
                          "base_level": levels.pop() if len(levels) == 1 else None,
                          "mask": sum(1 << q for q in quad) | 1 << tip})
    by_kind = Counter((f["way"], f["size"], f["base_level"]) for f in found)
    rotated = []
    for p in POINTS:
        lv, x, y = COORDS[p]
        ring = [q for q in POINTS if LEVEL[q] == lv and
                abs(COORDS[q][1] - x) + abs(COORDS[q][2] - y) == 1]
        above = [q for q in POINTS if LEVEL[q] == lv + 2 and _doubled(q)[:2] == _doubled(p)[:2]]
        if len(ring) == 4 and above:
            edge = {_d4(above[0], q) for q in ring}
            rotated.append({"points": tuple(ring) + (above[0],),
                            "regular": edge == {_d4(ring[0], ring[1])}})
    upright_board = sum(1 for f in found if f["way"] == "up" and f["base_level"] == 0)
    return {"pyramids": found, "by_kind": dict(sorted(by_kind.items(), key=str)),
            "total": len(found),
            "up": sum(1 for f in found if f["way"] == "up"),
            "down": sum(1 for f in found if f["way"] == "down"),
            "sideways": sum(1 for f in found if f["way"] == "sideways"),
            "upright_on_board": upright_board,
            "upright_by_size": dict(sorted(Counter(f["size"] for f in found
                                                   if f["way"] == "up").items())),
            "rotated": len(rotated),
            "rotated_regular": sum(r["regular"] for r in rotated),
            "rotated_masks": [sum(1 << q for q in r["points"]) for r in rotated]}


# ---------------------------------------------------------------------------
# Spodd.

#: The top view's squares on each diagonal "x + y = 2k" of the 7x7 grid.
def spodd_diagonals() -> list[list[int]]:
    """The seven diagonals of the top view perpendicular to the a1-g7 diagonal,
    as lists of the points whose projection lies on them."""
    diags = [[] for _ in range(7)]
    for p in POINTS:
        fx, fy = PROJECTION[p]
        diags[(fx + fy) // 2].append(p)
    return diags


def _parse_all(names) -> list[int]:
    from ..notation import parse_point
    return [parse_point(n) for n in names]


def spodd_no_ties(random_games: int = 300, seed: int = 3, progress=None) -> dict:
    """Spodd cannot end in a tie (scored on the five middle diagonals).

    The argument: on a full pyramid the top view shows 25 balls, one per
    square of the 7x7 grid with file and rank of the same parity.  The
    diagonals perpendicular to the line of the two red corner balls hold
    1, 3, 5, 7, 5, 3, 1 squares; the two reds sit alone on the two short
    ends, so the five scored diagonals show 3, 5, 7, 5, 3 white or black
    balls: an odd number each, so each has a majority, and five diagonals
    give a majority of diagonals.  (The weighted variant: weights 1, 2, 3,
    2, 1 sum to 9, odd, so no tie either.)

    The argument needs the pyramid to be full at the end.  Like Spaiji,
    Spodd places a touching pair each turn, so :func:`pair_game_ends` is
    run from the starting reds to see whether a game can stop early; where
    one can, the visible counts of such an end are computed.  If the game
    module ``shibumi.games.spodd`` is registered, random games are played
    with it and their results checked for ties.
    """
    from ..position import hidden_mask
    diags = spodd_diagonals()
    full_seen = ALL_MASK & ~hidden_mask(ALL_MASK)
    sizes = [sum(full_seen >> p & 1 for p in d) for d in diags]
    reds = (1 << 0) | (1 << 15)                       # a1 and g7
    red_diagonals = [i for i, d in enumerate(diags) if any(reds >> p & 1 for p in d)]
    ends = pair_game_ends(reds, progress)
    out = {"diagonal_squares": sizes, "red_diagonals": red_diagonals,
           "scored_counts": sizes[1:6],
           "all_odd": all(n % 2 for n in sizes[1:6]),
           "weights_total": 1 + 2 + 3 + 2 + 1,
           "pair_blocks": ends["blocked"], "full_reached": ends["full_reached"],
           "example_blocked": ends["example_blocked"]}
    if ends["blocked"]:
        # were the game to stop there, how many balls each scored diagonal would show
        occ = sum(1 << p for p in _parse_all(ends["example_blocked"]))
        seen = occ & ~hidden_mask(occ)
        out["blocked_counts"] = [sum(seen >> p & 1 for p in d) for d in diags[1:6]]
    try:
        from .. import load
        game = load("spodd")
    except Exception:                                   # noqa: BLE001 - not there yet
        out["engine"] = None
        out["holds"] = out["all_odd"] and not ends["blocked"]
        return out
    from ..position import hidden_mask
    rng = random.Random(seed)
    split = Counter()
    full_games = 0
    for _ in _maybe(progress, range(random_games), desc="games"):
        state = game.new_match(seed=rng.randrange(1 << 30)).state
        while state.result is None:
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        pos = state.position
        full_games += pos.occupied == ALL_MASK
        seen = pos.occupied & ~hidden_mask(pos.occupied)
        won = [0, 0]
        for d in diags[1:6]:
            mask = sum(1 << p for p in d)
            w, b = (pos.white & seen & mask).bit_count(), (pos.black & seen & mask).bit_count()
            split[w == b] += 1
            won[w < b] += 1
        split["game tie"] += won[0] == won[1]
    out["engine"] = {"games": random_games, "full": full_games,
                     "tied_diagonals": split[True], "tied_games": split["game tie"]}
    out["holds"] = (out["all_odd"] and full_games == random_games
                    and not split[True] and not split["game tie"])
    return out


# ---------------------------------------------------------------------------
# Showing solved values.

def spline_move_labels(position, solver=None) -> dict[int, str]:
    """{point: short text} giving the exact value of every legal Spline move:
    ``W26`` (the mover wins, the game ends with the 26th ball), ``L27``
    (loses at ball 27), ``D`` (draw, never met in Spline)."""
    from .solve import move_values
    return {p: {"win": "W", "loss": "L", "draw": "D"}[v.result] + (str(v.length)
            if v.result != "draw" else "")
            for p, v in move_values(position, solver).items()}


def annotated_top_view(position, texts: dict[int, str], colours: dict[int, str] | None = None,
                       size: int = 340, **kw) -> str:
    """The SVG top view (:func:`shibumi.views.svg.position_svg`) with a short
    text written at each given point (e.g. the value of a move there)."""
    from ..views.svg import position_svg
    svg = position_svg(position, size=size, show_playable=False, **kw)
    parts = []
    for p, text in sorted(texts.items()):
        fx, fy = PROJECTION[p]
        x, y = fx * 10.0, (6 - fy) * 10.0
        colour = (colours or {}).get(p, "#1b5e20")
        safe = str(text).replace("&", "&amp;").replace("<", "&lt;")
        parts.append(f'<g class="annotation" data-point="{point_name(p)}">'
                     f'<rect x="{x - 5.6:.1f}" y="{y - 3.6:.1f}" width="11.2" height="7.2" '
                     f'rx="1.5" fill="{colour}" opacity="0.85"/>'
                     f'<text x="{x:.1f}" y="{y + 2:.1f}" font-size="5.2" text-anchor="middle" '
                     f'fill="#ffffff" font-weight="bold">{safe}</text></g>')
    return svg.replace("</svg>", "".join(parts) + "</svg>")
