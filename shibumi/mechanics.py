"""Shared move mechanics: relocations, slides, pushes, entries and cycle rules.

Games of the system reuse a handful of ways to move balls besides plain
placement.  Each is a pure function of a :class:`~shibumi.position.Position`
and returns new positions; illegal requests raise
:class:`~shibumi.errors.IllegalMoveError` saying what went wrong and what is
allowed instead.

* **Relocation** (``b2>d4``): lift a movable ball, let the balls above it
  drop, put it on another playable point.
* **Slide** (``b4~d4``): a ball on level 1 or 2 rolls along its row or
  column, possibly pushing the balls ahead of it, or dropping one level.
* **Entry** (``Wb4+e``): a new ball comes in from the edge of a raised
  level, pushing the balls in its way.
* **Cycle rules**: the options that stop a game from repeating itself.

Slides and entries report a :class:`Displacement`: the new position, every
ball that moved, in an order that can be replayed one step at a time (so a
viewer can animate it), and the colours pushed off the board.

>>> pos = Position('WWWW/WWWW/WWWW/WWWW|.../.../B..|../..|.')
>>> [point_name(t) for t, _ in slide_targets(pos, 16)]
['b4', 'b6', 'd2', 'f2']
>>> slide(pos, 16, 18).position
Position('WWWW/WWWW/WWWW/WWWW|.../.../..B|../..|.')
"""

from __future__ import annotations

from typing import NamedTuple

from .errors import IllegalMoveError, UnknownGameError
from .geometry import (ALL_MASK, COORDS, DIRECTIONS, LEVEL, LEVEL_MASK, NUM_POINTS,
                       SUPPORT_MASK, SUPPORTED_MASK, point_at, points_of)
from .notation import point_name
from .position import COLOURS, Position, playable_mask

__all__ = [
    "Displacement", "relocations", "relocate", "slide", "slide_targets", "slides",
    "enter", "entry_moves", "NONE", "CHANGE", "KO", "SUPERKO", "CYCLE_RULES",
    "repeats",
]

DIRECTION_NAMES = {"n": "north", "e": "east", "s": "south", "w": "west"}
OPPOSITE = {"n": "s", "e": "w", "s": "n", "w": "e"}

#: STEP[d][p]: the next point from p in direction d on p's level, or None.
STEP: dict[str, tuple[int | None, ...]] = {
    d: tuple(point_at(lv, x + dx, y + dy) for lv, x, y in COORDS)
    for d, (dx, dy) in DIRECTIONS.items()}


class Displacement(NamedTuple):
    """The outcome of a slide or an entry.

    ``drops`` lists every ball that moved as ``(from, to)`` pairs, in an
    order that can be replayed one at a time without two balls ever sharing
    a point.  ``from`` is None for a ball entering play and ``to`` is None
    for a ball pushed off the board.  ``off`` holds the colours of the balls
    pushed off (a push moves a line one step, so at most one leaves).
    """
    position: Position
    drops: tuple[tuple[int | None, int | None], ...]
    off: tuple[int, ...] = ()


def _names(points) -> str:
    return " ".join(point_name(p) for p in points) or "none"


def _check_point(p, what: str) -> None:
    if not isinstance(p, int) or not 0 <= p < NUM_POINTS:
        raise IllegalMoveError(f"{what} must be a point number 0-{NUM_POINTS - 1}, "
                               f"not {p!r}")


# -- relocation ------------------------------------------------------------

def _on_dropped(drops) -> int:
    """Points that would rest on a ball that has just dropped.

    A ball put there would rebuild the column the removal just lowered, and
    doing that over and over is the classic cycle the rule book warns about.
    """
    mask = 0
    for _, to in drops:
        mask |= SUPPORTED_MASK[to]
    return mask


def _relocation_targets(lifted: Position, drops, forbid_on_dropped: bool) -> int:
    mask = lifted.playable()
    if forbid_on_dropped:
        mask &= ~_on_dropped(drops)
    return mask


def relocations(position: Position, sources_mask: int | None = None,
                forbid_on_dropped: bool = True, must_change: bool = True) -> list:
    """Every way to lift a ball of ``sources_mask`` and put it back elsewhere.

    Returns ``(source, target, new_position, drops)`` tuples, where ``drops``
    are the ``(from, to)`` drops caused by lifting the ball (as from
    :meth:`Position.remove`).  Pinned balls are skipped.  With
    ``forbid_on_dropped`` a ball may not land on a ball that dropped during
    the move; with ``must_change`` a move that rebuilds the same position
    is left out.  ``sources_mask`` defaults to every ball.

    Lifting a1 drops the black ball into a1, so b2 (resting on it) is out:

    >>> pos = Position('..../..../WW../WWW.|.../.../B..|../..|.')
    >>> sorted({point_name(t) for s, t, _, _ in relocations(pos, 1 << 0)})
    ['a5', 'a7', 'c5.0', 'c7', 'e3.0', 'e5.0', 'e7', 'g1', 'g3', 'g5', 'g7']
    """
    if sources_mask is None:
        sources_mask = ALL_MASK
    found = []
    for source in points_of(sources_mask & position.occupied):
        if position.is_pinned(source):
            continue
        lifted, drops = position.remove(source)
        colour = position.colour_at(source)
        for target in points_of(_relocation_targets(lifted, drops, forbid_on_dropped)):
            new = lifted.place(target, colour)
            if must_change and new == position:
                continue
            found.append((source, target, new, drops))
    return found


def relocate(position: Position, source: int, target: int,
             forbid_on_dropped: bool = True, must_change: bool = True):
    """Lift the ball at ``source`` and put it on ``target``.

    Returns ``(new_position, drops)``; raises IllegalMoveError when the
    ball cannot be lifted or may not land on ``target``.

    >>> pos = Position('..../..../WW../WWW.|.../.../B..|../..|.')
    >>> relocate(pos, 0, 3)
    (Position('..../..../WW../BWWW|.../.../...|../..|.'), ((16, 0),))
    >>> relocate(pos, 0, 16)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    shibumi.errors.IllegalMoveError: a1>b2: b2 is not allowed, as it would rest on ...
    >>> relocate(pos, 2, 2)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    shibumi.errors.IllegalMoveError: e1>e1 leaves the position unchanged; ...
    """
    _check_point(source, "the ball to move")
    _check_point(target, "the target")
    move = f"{point_name(source)}>{point_name(target)}"
    try:
        lifted, drops = position.remove(source)
    except IllegalMoveError as err:   # an empty or pinned point
        raise IllegalMoveError(f"{move}: {err}") from None
    allowed = _relocation_targets(lifted, drops, forbid_on_dropped)
    if not allowed >> target & 1:
        if lifted.is_playable(target):
            why = "it would rest on a ball that dropped during this move"
        else:
            why = "it is not playable once the ball is lifted"
        raise IllegalMoveError(f"{move}: {point_name(target)} is not allowed, as {why}; "
                               f"allowed targets: {_names(points_of(allowed))}")
    new = lifted.place(target, position.colour_at(source))
    if must_change and new == position:
        raise IllegalMoveError(f"{move} leaves the position unchanged; "
                               "a move must change it")
    return new, drops


# -- landing and pushing -----------------------------------------------------

def _landing(occupied: int, q: int | None, allow_off: bool, ball: int) -> int | None:
    """Where a ball rolling onto point q comes to rest (None: off the board).

    Only the levels below q matter, and no slide or push changes them, so
    the occupancy from before the move answers the question.
    """
    if q is None:
        if allow_off:
            return None
        raise IllegalMoveError(f"the ball from {point_name(ball)} would be pushed off "
                               "the board, which this game does not allow")
    missing = SUPPORT_MASK[q] & ~occupied
    if not missing:
        return q
    holes = points_of(missing)
    if len(holes) > 1:
        # The ball could settle into any of the gaps, or roll on: not a rule.
        raise IllegalMoveError(f"the ball from {point_name(ball)} would drop at "
                               f"{point_name(q)} into one of {_names(holes)}: "
                               "a slide drop needs exactly one empty point below")
    hole = holes[0]
    # The hole must itself be a resting place, else the ball keeps falling.
    if not playable_mask(occupied) >> hole & 1:
        raise IllegalMoveError(f"the ball from {point_name(ball)} would drop more "
                               f"than one level through {point_name(hole)}: "
                               "a slide drop falls one level only")
    return hole


def _run_from(occupied: int, first: int, d: str) -> list[int]:
    """The contiguous balls from `first` onwards in direction d."""
    run, p = [], first
    while p is not None and occupied >> p & 1:
        run.append(p)
        p = STEP[d][p]
    return run


def _push(position: Position, first: int, d: str, allow_off: bool,
          mover_from: int | None, mover_colour: int) -> Displacement:
    """Push the run starting at `first` one step along d; the mover takes `first`.

    The mover is the sliding ball (from `mover_from`) or, for an entry
    (`mover_from` None), the new ball.
    """
    occ = position.occupied
    run = _run_from(occ, first, d)
    for p in ([mover_from] if mover_from is not None else []) + run:
        if position.supported_balls(p):
            # Balls resting on a moving line would be torn off their platform.
            raise IllegalMoveError(f"cannot push {DIRECTION_NAMES[d]} from "
                                   f"{point_name(first)}: the ball at {point_name(p)} "
                                   "has a ball resting on it, and pushed balls "
                                   "(pusher included) must carry none")
    landing = _landing(occ, STEP[d][run[-1]], allow_off, run[-1])
    masks = [0, position.white, position.black, position.red]
    colours = [position.colour_at(p) for p in run]
    for p, c in zip(run, colours):
        masks[c] &= ~(1 << p)
    if mover_from is not None:
        masks[mover_colour] &= ~(1 << mover_from)
    # Front ball first, so that replaying the steps never stacks two balls.
    steps, off = [], ()
    for p, c, to in reversed(list(zip(run, colours, run[1:] + [landing]))):
        if to is None:
            off = (c,)
        else:
            masks[c] |= 1 << to
        steps.append((p, to))
    masks[mover_colour] |= 1 << first
    steps.append((mover_from, first))
    return Displacement(Position.from_masks(*masks[1:]), tuple(steps), off)


# -- slides ------------------------------------------------------------------

def _plain_slides(position: Position, s: int, d: str):
    """Slides of the ball at s along d over empty points (no push).

    Returns ``(options, reason)``: the (target, Displacement) pairs, and why
    the ball can go no further when that is a rule rather than the edge or
    a ball in the way.  The ball resting on s, if one, drops into the gap
    exactly as a removal would drop it.
    """
    occ = position.occupied
    if position.is_pinned(s):
        return [], (f"the ball at {point_name(s)} is pinned (two or more balls rest "
                    "on it), so it cannot slide")
    # Lifting the ball out of s gives exactly the drop chain the slide
    # causes: the carried ball falls into s, and anything on it follows.
    lifted, carried = position.remove(s)
    colour = position.colour_at(s)
    options = []
    q = STEP[d][s]
    while q is not None and not occ >> q & 1:
        if SUPPORT_MASK[q] & ~occ:
            # The first gap in the track ends the slide: drop or refuse.
            try:
                hole = _landing(occ, q, False, s)
            except IllegalMoveError as err:
                return options, str(err)
            options.append((hole, Displacement(lifted.place(hole, colour),
                                               ((s, hole),) + carried)))
            break
        options.append((q, Displacement(lifted.place(q, colour), ((s, q),) + carried)))
        q = STEP[d][q]
    return options, None


def _slides_along(position: Position, s: int, d: str, allow_off: bool):
    """All slides of the ball at s in direction d, and why no more (or None)."""
    nxt = STEP[d][s]
    if nxt is None:
        return [], None
    if position.occupied >> nxt & 1:
        try:
            return [(nxt, _push(position, nxt, d, allow_off, s,
                                position.colour_at(s)))], None
        except IllegalMoveError as err:
            return [], str(err)
    return _plain_slides(position, s, d)


def _check_slider(position: Position, s: int) -> None:
    _check_point(s, "the ball to slide")
    if not position.occupied >> s & 1:
        raise IllegalMoveError(f"there is no ball at {point_name(s)} to slide")
    if LEVEL[s] == 0:
        raise IllegalMoveError(f"the ball at {point_name(s)} is on the board, which "
                               "has no tracks: only balls on levels 1 and 2 slide")


def slide_targets(position: Position, s: int, allow_off: bool = False) -> list:
    """Every legal slide of the ball at s, as ``(target, Displacement)`` pairs.

    The target is where the slid ball ends: a point of its level, or the
    point one level down for a slide drop.  (Naming the resting point
    rather than the point it rolls over keeps ``b4~d4`` true to the board a
    player sees after the move; each hole lies under only one reachable
    point, so the direction is never in doubt.)  Directions come in the order
    n, e, s, w.  The list is empty when s holds no ball, is on the board,
    or nothing can move.

    The hole at g1 lies under f2, so going east the ball drops into it:

    >>> pos = Position('WWWW/WWWW/WWWW/WWW.|.../.../.B.|../..|.')
    >>> [point_name(t) for t, _ in slide_targets(pos, 17)]
    ['d4.1', 'd6', 'g1', 'b2']
    """
    try:
        _check_slider(position, s)
    except IllegalMoveError:
        return []
    found = []
    for d in DIRECTIONS:
        found.extend(_slides_along(position, s, d, allow_off)[0])
    return found


def slides(position: Position, sources_mask: int | None = None,
           allow_off: bool = False) -> list:
    """Every legal slide of the balls in ``sources_mask`` (default: all balls).

    Returns ``(source, target, Displacement)`` tuples.

    >>> pos = Position('WWWW/WWWW/WWWW/WWWW|.../.../BW.|../..|.')
    >>> [(point_name(s), point_name(t)) for s, t, d in slides(pos)]
    [('b2', 'b4'), ('b2', 'b6'), ('b2', 'd2'), ('d2', 'd4.1'), ('d2', 'd6'), ('d2', 'f2')]
    """
    if sources_mask is None:
        sources_mask = ALL_MASK
    found = []
    for s in points_of(sources_mask & position.occupied & ~LEVEL_MASK[0]):
        found.extend((s, t, disp) for t, disp in slide_targets(position, s, allow_off))
    return found


def _direction_to(s: int, target: int) -> str | None:
    """The direction in which a slide from s could end at target, if any."""
    for d in DIRECTIONS:
        q = STEP[d][s]
        while q is not None:
            if q == target or SUPPORT_MASK[q] >> target & 1:
                return d
            q = STEP[d][q]
    return None


def slide(position: Position, s: int, target: int, allow_off: bool = False) -> Displacement:
    """Slide the ball at s so that it ends at ``target``.

    ``target`` is an empty point further along the ball's row or column,
    the occupied neighbour it pushes (the balls ahead move one step), or,
    for a slide drop, the empty point one level below where it falls.
    With ``allow_off`` a push may send the last ball off the board.

    >>> pos = Position('WWWW/WWWW/WWWW/WWWW|.../.../BR.|../..|.')
    >>> d = slide(pos, 16, 17)
    >>> d.position, d.drops
    (Position('WWWW/WWWW/WWWW/WWWW|.../.../.BR|../..|.'), ((17, 18), (16, 17)))
    >>> slide(pos, 17, 16)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    shibumi.errors.IllegalMoveError: d2~b2: the ball from b2 would be pushed off the board...
    >>> [point_name(t) for t, _ in slide_targets(pos, 17)]
    ['d4.1', 'd6', 'f2']
    >>> slide(pos, 17, 16, allow_off=True).off
    (2,)
    """
    _check_slider(position, s)
    _check_point(target, "the target")
    move = f"{point_name(s)}~{point_name(target)}"
    d = _direction_to(s, target)
    options, reason = _slides_along(position, s, d, allow_off) if d else ([], None)
    for t, disp in options:
        if t == target:
            return disp
    if d is None:
        reason = (f"{point_name(target)} is not on a row or column of "
                  f"{point_name(s)} (nor just below one, for a slide drop)")
    elif reason is None:
        reason = ("a slide crosses empty, fully supported points, or pushes the "
                  "ball right next to it one step")
    legal = _names(t for t, _ in slide_targets(position, s, allow_off))
    raise IllegalMoveError(f"{move}: {reason}; legal slides from {point_name(s)} "
                           f"end at: {legal}")


# -- entries -----------------------------------------------------------------

def _is_entry_point(p: int, d: str) -> bool:
    """A point on the edge a ball travelling in direction d comes in from."""
    return LEVEL[p] >= 1 and STEP[OPPOSITE[d]][p] is None


def enter(position: Position, point: int, direction: str, colour: int,
          allow_off: bool = False) -> Displacement:
    """Bring a new ball of ``colour`` in from the edge of a raised level.

    The ball travels in ``direction`` ('n', 'e', 's' or 'w') and stops at
    ``point``, which must lie on the edge it comes from and rest on a full
    platform.  If ``point`` is taken, the balls from there on are pushed
    one step first, with the same rules as a pushing slide.

    >>> pos = Position('WWWW/WWWW/WWWW/WWWW|.../.../BR.|../..|.')
    >>> d = enter(pos, 16, 'e', 3)
    >>> d.position, d.drops
    (Position('WWWW/WWWW/WWWW/WWWW|.../.../RBR|../..|.'), ((17, 18), (16, 17), (None, 16)))
    """
    _check_point(point, "the entry point")
    if colour not in COLOURS:
        raise IllegalMoveError(f"colour must be WHITE, BLACK or RED, not {colour!r}")
    if direction not in DIRECTIONS:
        raise IllegalMoveError(f"direction must be one of n, e, s, w, not {direction!r}")
    name = f"{point_name(point)}+{direction}"
    if not _is_entry_point(point, direction):
        edge = [p for p in range(16, NUM_POINTS) if _is_entry_point(p, direction)]
        side = DIRECTION_NAMES[OPPOSITE[direction]]
        raise IllegalMoveError(f"{name}: a ball travelling {DIRECTION_NAMES[direction]} "
                               f"enters on the {side} edge of a raised level, at one of "
                               f"{_names(edge)}")
    occ = position.occupied
    if SUPPORT_MASK[point] & ~occ:
        raise IllegalMoveError(f"{name}: {point_name(point)} does not rest on a full "
                               "platform; a ball may only enter onto one")
    if not occ >> point & 1:
        return Displacement(position.place(point, colour), ((None, point),))
    try:
        return _push(position, point, direction, allow_off, None, colour)
    except IllegalMoveError as err:
        raise IllegalMoveError(f"{name}: {err}") from None


def entry_moves(position: Position, colour: int, allow_off: bool = False,
                levels=(1, 2)) -> list:
    """Every legal entry of a ball of ``colour``: ``(point, direction, Displacement)``.

    Entries onto an empty point from two sides (corners) are listed once per
    direction, as they are written differently, though they give the same
    position.  The apex (level 3) can be entered from any side; include 3
    in ``levels`` for games that allow it.

    >>> pos = Position('WWWW/WWWW/WWWW/WWWW|.../.../...|../..|.')
    >>> len(entry_moves(pos, 2)), len(entry_moves(pos, 2, levels=(1,)))
    (12, 12)
    """
    found = []
    for level in levels:
        for point in points_of(LEVEL_MASK[level]):
            for d in DIRECTIONS:
                if not _is_entry_point(point, d):
                    continue
                try:
                    found.append((point, d, enter(position, point, d, colour, allow_off)))
                except IllegalMoveError:
                    continue
    return found


# -- cycle rules -------------------------------------------------------------

NONE, CHANGE, KO, SUPERKO = "none", "change", "ko", "superko"
CYCLE_RULES = (NONE, CHANGE, KO, SUPERKO)


def repeats(rule: str, new_position: Position, before: Position,
            history=(), players: int = 2) -> bool:
    """True when a cycle rule forbids a turn that leads to ``new_position``.

    ``before`` is the position at the start of the turn; ``history`` lists
    the positions left after each completed turn, oldest first (so, once a
    turn has been played, its last item is ``before``); ``players`` is the
    number of players taking turns in rotation.

    * NONE: nothing is forbidden.
    * CHANGE: the turn must not leave the position as it was.
    * KO: the turn must not rebuild the position the mover left at the end
      of their own previous turn (``players`` turns back).
    * SUPERKO: the turn must not rebuild ``before`` or any position in
      ``history``.

    >>> a, b = Position.empty(), Position.empty().place(0, 1)
    >>> repeats(CHANGE, a, a), repeats(KO, b, a, [b, a])
    (True, True)
    >>> repeats(KO, b, a, [b, a], players=3)   # b was left by another player
    False
    """
    if rule == NONE:
        return False
    if rule == CHANGE:
        return new_position == before
    if rule == KO:
        history = list(history)
        return len(history) >= players and new_position == history[-players]
    if rule == SUPERKO:
        return new_position == before or any(new_position == p for p in history)
    raise UnknownGameError(f"unknown cycle rule {rule!r}; rules: {', '.join(CYCLE_RULES)}")
