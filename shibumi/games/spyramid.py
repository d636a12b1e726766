"""Spyramid: add or move your balls; own the five corners of a pyramid to win."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..bits import carried, nth_point, playable_of, points_in
from ..errors import NotationError, UnknownGameError
from ..game import Game, GameInfo, Outcome, State
from ..geometry import (COVER, FLAT_NEIGHBOURS, LEVELS, NUM_POINTS, SIZES, SUPPORT_MASK,
                        SUPPORTED, SUPPORTED_MASK, point_at, points_of)
from ..notation import MOVE, PASS, PASS_MOVE, Move
from ..position import BLACK, COLOUR_NAMES, WHITE, Position
from ..registry import register
from ..game import read_fields, write_fields
from .placement import PLACE_MOVES, sole_winner

PLAYER_COLOURS = (WHITE, BLACK)
SUPPLY = 16
"""Balls of each colour in a Shibumi set."""
RELOCATE_MOVES = tuple(tuple(Move.relocate(s, t) for t in range(NUM_POINTS))
                       for s in range(NUM_POINTS))


def _mask(points) -> int:
    out = 0
    for p in points:
        out |= 1 << p
    return out


def upright_pyramids(base_level: int | None = None) -> tuple[int, ...]:
    """Five-point masks of the pyramids pointing up.

    The base is a square of side ``s`` (in ball widths) on one level and the
    top is the point ``s`` levels higher straight above its centre, so every
    edge is ``s`` long. With ``base_level`` only bases on that level.
    """
    found = []
    for lv in range(LEVELS):
        if base_level is not None and lv != base_level:
            continue
        for s in range(1, SIZES[lv]):
            for y in range(SIZES[lv] - s):
                for x in range(SIZES[lv] - s):
                    top = point_at(lv + s, x, y) if lv + s < LEVELS else None
                    if top is None:
                        continue
                    corners = [point_at(lv, x + i, y + j) for i in (0, s) for j in (0, s)]
                    found.append(_mask(corners + [top]))
    return tuple(found)


def inverted_pyramids() -> tuple[int, ...]:
    """Pyramids pointing down: a point and the four points resting on it.

    A larger inverted pyramid would need its square three or more levels
    above its tip, wider than the pyramid is there, so only size 1 exists.
    """
    return tuple(_mask(SUPPORTED[p]) | 1 << p for p in range(NUM_POINTS)
                 if len(SUPPORTED[p]) == 4)


def rotated_pyramids() -> tuple[int, ...]:
    """Pyramids turned 45 degrees: the four same-level neighbours of a point
    (a square standing on a corner, seen from above) and the point two levels
    straight above that point."""
    return tuple(_mask(FLAT_NEIGHBOURS[p]) | 1 << COVER[p] for p in range(NUM_POINTS)
                 if COVER[p] is not None and len(FLAT_NEIGHBOURS[p]) == 4)


UPRIGHT = upright_pyramids()
INVERTED = inverted_pyramids()
ROTATED = rotated_pyramids()
BOOK_UPRIGHT = upright_pyramids(base_level=0)
"""The 14 upright pyramids standing on the board (9 + 4 + 1): the book's count."""
PYRAMID_SETS = {
    "all": UPRIGHT + INVERTED,              # 25: every regular pyramid, up or down
    "designer": BOOK_UPRIGHT + INVERTED,    # 19: a later listing, 14 + 5 (see notes)
    "book": BOOK_UPRIGHT,                   # 14: the book's number, all pointing up
}


# -- the moves of an occupancy, on bare masks ----------------------------------------
#
# Where balls may go depends only on which points are occupied. Lifting a free
# ball (nothing resting on it) at s leaves the playable points as they were,
# less those resting on s (their platform is broken): targets P & ~SUPPORTED[s].
# So the number of relocations of the free balls F of a colour is
# |F| * |P| less, for each playable point x above the board, the free balls
# among its supports: no loop over the balls. Loaded balls (one ball resting
# on them) are few and listed per occupancy with their targets.

_CACHE_LIMIT = 200_000
_INFO: dict[int, tuple] = {}


_CARRIED: dict[int, tuple[int, int]] = {}
_UNDERS: dict[int, tuple[int, ...]] = {}


def _carried_above(upper: int) -> tuple[int, int]:
    """:func:`shibumi.bits.carried` of a stable occupancy whose balls above the
    board are ``upper`` (``occupied >> 16``): a point with a ball resting on it is
    occupied, so the balls above the board decide it alone (a few hundred
    values, memoised)."""
    found = _CARRIED.get(upper)
    if found is None:
        found = _CARRIED[upper] = carried(upper << 16 | 0xFFFF)
    return found


def _unders(raised: int) -> tuple[int, ...]:
    """For j = 1, 2, ..., the points under at least j of the points above the
    board ``raised`` (shifted down by 16, as ``playable >> 16``), while there
    are any; memoised (a few hundred values)."""
    found = _UNDERS.get(raised)
    if found is None:
        under = [0, 0, 0, 0]            # bit-sliced counts
        rest = raised
        while rest:
            low = rest & -rest
            rest ^= low
            support = SUPPORT_MASK[low.bit_length() + 15]
            under[3] |= under[2] & support
            under[2] |= under[1] & support
            under[1] |= under[0] & support
            under[0] |= support
        found = _UNDERS[raised] = tuple(m for m in under if m)
    return found


def occupancy_info(occ: int) -> tuple:
    """``(playable, free, unders, loaded, targets, partial, places, occ, points)``
    of a stable occupancy, memoised: the playable mask, the balls with nothing resting
    on them, ``unders`` (for j = 1, 2, ..., the points under at least j playable
    points above the board, while there are any), the balls with exactly one
    ball resting on them (pinned balls cannot move), a dict of where each of
    those may be moved to (filled as asked, see :func:`loaded_targets`), the
    free balls under a playable point (the only free balls whose targets are not
    all of P), the number of playable points, the occupancy, and the playable
    points in order.

    Random games seldom meet an occupancy again, so the parts that depend on
    fewer points (the balls above the board, the playable points there) have
    memos of their own, which do not miss."""
    found = _INFO.get(occ)
    if found is None:
        if len(_INFO) > _CACHE_LIMIT:
            _INFO.clear()
        playable = playable_of(occ)
        covered, pinned = _CARRIED.get(occ >> 16) or _carried_above(occ >> 16)
        free = occ & ~covered
        unders = _UNDERS.get(playable >> 16)
        if unders is None:
            unders = _unders(playable >> 16)
        found = _INFO[occ] = (playable, free, unders, covered & ~pinned, {},
                              unders[0] & free if unders else 0, playable.bit_count(), occ,
                              points_in(playable))
    return found


def loaded_targets(s: int, info: tuple) -> int:
    """Where the loaded ball at ``s`` may go, memoised in ``info``.

    Lifting it empties the top of its column: the playable points are then P
    less the points resting on that top, plus the top itself, and the ball may
    not go back to s nor onto a ball that dropped (the top included)."""
    occ = info[7]
    banned, gap = 0, s
    above = occ & SUPPORTED_MASK[gap]
    while above:
        banned |= SUPPORTED_MASK[gap]
        gap = above.bit_length() - 1
        above = occ & SUPPORTED_MASK[gap]
    found = info[4][s] = info[0] & ~SUPPORTED_MASK[gap] & ~banned
    return found


def count_moves(mine: int, info: tuple) -> tuple[int, int]:
    """(placements, relocations) open to the balls ``mine`` (a colour's mask, with
    balls in hand) on an occupancy with :func:`occupancy_info` ``info``: every
    free ball may go to each playable point but those resting on it."""
    _, free, unders, loaded, targets, _, places, _, _ = info
    free &= mine
    n = free.bit_count() * places
    for under in unders:
        n -= (under & free).bit_count()
    loaded &= mine
    while loaded:
        low = loaded & -loaded
        loaded ^= low
        s = low.bit_length() - 1
        to = targets.get(s)
        n += (loaded_targets(s, info) if to is None else to).bit_count()
    return (places if mine.bit_count() < SUPPLY else 0), n


def targets_of(s: int, info: tuple) -> int:
    """Where the ball at ``s`` may be moved to (0: it cannot move)."""
    if info[1] >> s & 1:
        return info[0] & ~SUPPORTED_MASK[s]
    if info[3] >> s & 1:
        to = info[4].get(s)
        return loaded_targets(s, info) if to is None else to
    return 0


def nth_relocation(k: int, mine: int, info: tuple) -> tuple[int, int]:
    """The ``k``-th relocation of the balls ``mine``, as (from, to), in the order
    of the legal moves: by source point, then by target point.

    A free ball not under a playable point has every playable point as a
    target, so runs of such balls are skipped at once; the others (``special``)
    are counted one by one."""
    playable, free, _, loaded, targets, partial, places, _, points = info
    plain = free & mine & ~partial
    special = (partial | loaded) & mine
    passed = 0                          # the points below the one looked at
    while special:
        low = special & -special
        special ^= low
        run = plain & (low - 1) & ~passed
        size = run.bit_count() * places
        if k < size:
            break
        k -= size
        s = low.bit_length() - 1
        if loaded & low:
            to = targets.get(s)
            if to is None:
                to = loaded_targets(s, info)
        else:
            to = playable & ~SUPPORTED_MASK[s]
        c = to.bit_count()
        if k < c:
            return s, nth_point(to, k)
        k -= c
        passed = (low << 1) - 1
    else:
        run = plain & ~passed
    i, k = divmod(k, places)
    return nth_point(run, i), points[k]


def relocate(mine: int, other: int, s: int, t: int) -> tuple[int, int]:
    """(mine, other) after the ball at ``s`` (of ``mine``) is lifted, the column
    above it drops (each ball keeps its colour), and it is put on ``t``."""
    occ = mine | other
    gap = s
    mine &= ~(1 << s)
    above = occ & SUPPORTED_MASK[gap]
    while above:
        q = above.bit_length() - 1
        if mine >> q & 1:
            mine ^= 1 << q | 1 << gap
        else:
            other ^= 1 << q | 1 << gap
        gap = q
        above = occ & SUPPORTED_MASK[gap]
    return mine | 1 << t, other


# -- the playout's records: by board level and by the balls above it ----------------
#
# The playable points are the empty board holes and level-1 points over four board
# balls (which depend on the board level alone) and the level-2 points and apex
# with full supports (which depend on the balls above the board alone), less the
# occupied points. Which balls carry others, and where a loaded ball may go but
# for the playable points, also depend on the balls above the board alone. A
# board level has 2**16 values and the balls above it a few thousand in practice,
# so both records are met again, where whole occupancies are not.

_BOARD: list[int] = []
_UPPER: dict[int, tuple] = {}


def board_table() -> list[int]:
    """For each board level ``board`` (``occupied & 0xFFFF``), the playable points it
    gives before the balls above the board are taken out: its empty holes and the
    level-1 points over four of its balls. Built once, at the first playout (a
    few tens of milliseconds)."""
    if not _BOARD:
        _BOARD.extend(playable_of(board) & 0x1FFFFFF for board in range(1 << 16))
    return _BOARD


def upper_record(upper: int) -> tuple[int, int, dict[int, int], int]:
    """``(covered, loaded, keeps, raised)`` for the balls above the board ``upper``
    (``occupied >> 16``) of a stable occupancy, memoised: the balls with a ball
    resting on them, those with exactly one (they may move), for each of those
    (by its bit) the points it may still go to when they are playable (see
    :func:`loaded_targets`), and the points of levels 2 and 3 with full supports.
    """
    covered, pinned = _carried_above(upper)
    loaded = covered & ~pinned
    occ = upper << 16 | 0xFFFF
    keeps, rest = {}, loaded
    while rest:
        low = rest & -rest
        rest ^= low
        banned, gap = 0, low.bit_length() - 1
        above = occ & SUPPORTED_MASK[gap]
        while above:
            banned |= SUPPORTED_MASK[gap]
            gap = above.bit_length() - 1
            above = occ & SUPPORTED_MASK[gap]
        keeps[low] = ~(SUPPORTED_MASK[gap] | banned)
    if len(_UPPER) > _CACHE_LIMIT:
        _UPPER.clear()
    found = _UPPER[upper] = (covered, loaded, keeps, playable_of(occ) & ~0x1FFFFFF)
    return found


def stuck(mine: int, occ: int) -> bool:
    """Whether the balls ``mine`` (with the balls in hand) have no move on ``occ``."""
    return not sum(count_moves(mine, occupancy_info(occ)))


_STUCK = Outcome((), "neither player can move")


@dataclass(frozen=True)
class SpyramidState(State):
    ply: int = 0
    """Actions played so far (passes included)."""


@register
class Spyramid(Game):
    info = GameInfo(
        name="Spyramid", designer="Néstor Romeral Andrés", year="2012",
        family="Pattern", source="Shibumi Rule Book (2012)",
        summary="Add or move balls of your colour; own the five corners of a pyramid, "
                "upright or upside down, to win.",
        complexity=2, aliases=("spynamid",), max_length=200)
    parameters = {"pyramids": "all", "rotated": False, "move_limit": 200}

    rules = """\
Two players, White and Black, start from an empty board; each has the 16
balls of their colour. White moves first.

On your turn either put a ball from your hand on any playable point, or move
one of your balls on the pyramid: lift a ball that is not pinned (the ball
resting on it, if any, drops into its place, and so on up the column) and
put it on another playable point, but not on a point resting on a ball that
has just dropped.

You win by holding all five corners of a pyramid of any size with your
colour: four balls at the corners of a square on one level and one ball
straight above its centre, as high above it as the square is wide (2x2,
3x3 and 4x4 bases), or upside down: a ball and the four balls resting on
it. If a move completes pyramids of both colours, the mover wins; if it
completes only the opponent's, the opponent wins.

A player with no legal move passes. If neither player can move, or after
200 actions without a winner, the game is drawn.
"""
    notes = """\
* Counting pyramids. A regular pyramid here has four corners on one level in a
  square of side s and its top on the point s levels straight above the centre
  (all eight edges s long). The lattice holds 20 pointing up (14 of size 2, 5
  of size 3 and 1 of size 4: bases on the board give 9 + 4 + 1, bases on level
  1 give 4 + 1, and one base on level 2) and 5 pointing down (a ball and the
  four resting on it, under each of the four centre holes and under the middle
  of level 1), 25 in all. The book's "14 potential pyramids" equals the
  upright pyramids with their base on the board (9 + 4 + 1); a listing of the
  game's pyramids found in later public descriptions (not in the rule book)
  counts those 14 plus 5 small upside-down ones. Neither count includes the 6
  upright pyramids with a base on level 1 or 2, though they are regular
  pyramids of a size the rule names, so the rule ("any size, up or down") is
  taken as written and all 25 count by default. A variant keeps only the 19 of
  that listing. Another keeps the book's number literally: the 14 upright
  pyramids standing on the board. That count fits the sizes the book names, as
  squares of 2x2, 3x3 and 4x4 board holes number 9 + 4 + 1, but none of them
  points down, so this set drops that half of the winning rule; it is offered
  as the reading of the count alone, not as our best reading of the game.
* Rotated variant: a square standing on a corner, its four corners the four
  same-level neighbours of a point, with the top two levels straight above
  that point. No such pyramid is regular in this lattice (its top would have
  to sit between levels), so we take the point straight above the centre, as
  seen from above. There are 5 (the four centre holes and the middle of level
  1 as centres), all pointing up.
* Hidden balls count: the corners are about where balls are, not whether
  they can be seen, and an upside-down pyramid's tip under a ball of level 2
  is always hidden.
* Moving a ball: only free or singly-loaded (not pinned) balls can be lifted,
  as in every game of the system; the ball must end somewhere else, and not
  on a point that rests on a ball that dropped during the move (the book's
  rule against rebuilding the column just lowered).
* Supply: a set has 16 balls per colour. A player whose 16 balls are all on
  the pyramid can only move balls. (The pyramid has 30 points, so it can
  fill up; some full pyramids hold no single-coloured pyramid, and in a
  full pyramid no ball can move, so such a game is drawn: the designer's
  listing says ties seem possible.)
* Cycles: nothing in the book stops players moving balls back and forth. We
  add a move limit: after 200 actions (the limit can be set lower, not higher)
  without a winner the game is drawn. A player with no legal move passes; if
  the other cannot move either, the game is drawn at once.
* The book's example (Black's placement on top of a 3x3 square of black
  corner balls) is rebuilt in the tests.
"""

    def __init__(self, **params) -> None:
        super().__init__(**params)
        kind = self.params["pyramids"]
        if kind not in PYRAMID_SETS:
            raise UnknownGameError(f"Spyramid pyramids must be one of "
                                   f"{', '.join(PYRAMID_SETS)}, not {kind!r}")
        limit = self.params["move_limit"]
        if not 1 <= limit <= self.info.max_length:
            raise UnknownGameError(f"Spyramid move_limit is 1-{self.info.max_length}, "
                                   f"not {limit!r}")
        self.pyramids = PYRAMID_SETS[kind] + (ROTATED if self.params["rotated"] else ())
        #: The pyramids through each point.
        self._through = tuple(tuple(m for m in self.pyramids if m >> p & 1)
                              for p in range(NUM_POINTS))

    def initial_state(self, rng=None) -> SpyramidState:
        return SpyramidState()

    def length(self, state) -> int:
        return state.ply

    # -- moves ---------------------------------------------------------------
    def _moves(self, position: Position, player: int, first_only: bool = False):
        """The legal moves but the pass: placements, then relocations by source point."""
        mine = position.mask(PLAYER_COLOURS[player])
        info = occupancy_info(position.occupied)
        moves = []
        if mine.bit_count() < SUPPLY:
            row = PLACE_MOVES[PLAYER_COLOURS[player]]
            moves = [row[p] for p in points_of(info[0])]
            if moves and first_only:
                return moves
        for s in points_of(mine):
            row = RELOCATE_MOVES[s]
            moves.extend([row[t] for t in points_of(targets_of(s, info))])
            if moves and first_only:
                return moves
        return moves

    def legal_moves(self, state, player=None) -> list[Move]:
        if state.result is not None:
            return []
        return self._moves(state.position, state.to_move) or [PASS_MOVE]

    def apply(self, state, move: Move) -> SpyramidState:
        mover = state.to_move
        position = state.position
        if move.kind == MOVE:
            masks = [position.white, position.black]
            masks[mover], masks[1 - mover] = relocate(masks[mover], masks[1 - mover],
                                                      move.point, move.target)
            position = Position.from_masks(*masks)
        elif move.kind != PASS:
            position = position.place(move.point, move.colour)
        ply = state.ply + 1
        return SpyramidState(position, 1 - mover, self._conclude(position, 1 - mover, ply),
                             move, ply)

    def _can_move(self, masks, player: int) -> bool:
        occ = masks[0] | masks[1]
        return sum(count_moves(masks[player], occupancy_info(occ))) > 0

    def _won(self, player: int) -> Outcome:
        return Outcome((player,), f"{self.player_name(player)} holds the corners of a pyramid")

    def _new_pyramid(self, now: int, had: int) -> bool:
        """Whether a pyramid through a point the balls ``now`` of a colour have
        gained since ``had`` is complete."""
        gained = now & ~had
        while gained:
            low = gained & -gained
            gained ^= low
            for pyramid in self._through[low.bit_length() - 1]:
                if now & pyramid == pyramid:
                    return True
        return False

    # -- fast random games ---------------------------------------------------
    def random_playout(self, state, rng):
        """Random moves to the end on bare masks: the same draws over the same moves
        as the generic loop (checked by the tests), so the same games.

        Random games seldom meet an occupancy twice, so nothing is memoised per
        occupancy: the playable points come from a record of the board level and
        one of the balls above it (:func:`board_table`, :func:`upper_record`), and
        the moves are counted and the k-th one found on those, inline. Only
        pyramids through a point a colour has just gained can be new."""
        if state.result is not None:
            return state
        rnd = rng.random
        through, limit = self._through, self.params["move_limit"]
        boards, uppers, unders_of = _BOARD or board_table(), _UPPER, _UNDERS
        above = SUPPORTED_MASK
        mover, ply = state.to_move, state.ply
        mine, other = (state.position.white, state.position.black) if mover == 0 \
            else (state.position.black, state.position.white)
        occ = mine | other
        s = t = None                        # the last move: none yet
        while True:                         # mine: the mover's balls
            covered, loaded, keeps, up = uppers.get(occ >> 16) or upper_record(occ >> 16)
            playable = (boards[occ & 0xFFFF] | up) & ~occ
            places = playable.bit_count()
            unders = unders_of.get(playable >> 16)
            if unders is None:
                unders = _unders(playable >> 16)
            # relocations: every free ball to each playable point but those on it
            free = mine & ~covered
            n = free.bit_count() * places
            for under in unders:
                n -= (under & free).bit_count()
            mine_loaded = loaded & mine
            rest = mine_loaded
            while rest:
                low = rest & -rest
                rest ^= low
                n += (playable & keeps[low]).bit_count()
            n_place = places if mine.bit_count() < SUPPLY else 0
            n += n_place
            if not n:                               # stuck: a pass, or the end
                if stuck(other, occ):
                    if s is None:                   # (a state not settled: never here)
                        return dataclasses.replace(state, result=_STUCK)
                    return self._ended(mine, other, mover, ply, _STUCK, s, t)
                rnd()
                ply += 1
                s = -2
                mover = 1 - mover
                mine, other = other, mine
                if ply >= limit:
                    return self._ended(mine, other, mover, ply, None, s, t)
                continue
            k = int(rnd() * n)
            ply += 1
            result = None
            if k < n_place:
                t = nth_point(playable, k)
                s = -1                              # a placement at t
                mine |= 1 << t
                moved = False
            else:
                # the k-th relocation (nth_relocation on these records, inline):
                # runs of free balls under no playable point have `places`
                # targets each and are skipped at once
                k -= n_place
                partial = free & unders[0] if unders else 0
                plain = free ^ partial
                special = partial | mine_loaded
                passed = 0
                while special:
                    low = special & -special
                    special ^= low
                    run = plain & (low - 1) & ~passed
                    size = run.bit_count() * places
                    if k < size:
                        break
                    k -= size
                    to = playable & keeps[low] if mine_loaded & low else \
                        playable & ~above[low.bit_length() - 1]
                    c = to.bit_count()
                    if k < c:
                        s, t = low.bit_length() - 1, nth_point(to, k)
                        size = 0            # found
                        break
                    k -= c
                    passed = (low << 1) - 1
                else:
                    run = plain & ~passed
                    size = 1
                if size:
                    i, k = divmod(k, places)
                    s, t = nth_point(run, i), nth_point(playable, k)
                moved = above[s] & occ
                if moved:                           # the column above drops
                    before = mine, other
                    mine, other = relocate(mine, other, s, t)
                else:                               # a free ball: only it moves
                    mine ^= 1 << s | 1 << t
            if moved and other != before[1]:       # the drop moved both colours
                if self._new_pyramid(mine, before[0]):
                    result = self._won(mover)
                elif self._new_pyramid(other, before[1]):
                    result = self._won(1 - mover)
            else:                                   # only the mover's ball at t moved in
                for pyramid in through[t]:
                    if mine & pyramid == pyramid:
                        result = self._won(mover)
                        break
            occ = mine | other
            mover = 1 - mover
            mine, other = other, mine
            if result is None and ply >= limit:     # a stalemate is named first
                result = _STUCK if stuck(mine, occ) and stuck(other, occ) else None
                return self._ended(mine, other, mover, ply, result, s, t)
            if result is not None:
                return self._ended(mine, other, mover, ply, result, s, t)

    def _ended(self, mine, other, mover, ply, result, s, t) -> SpyramidState:
        """The final state of a playout, ``mine`` being the balls of ``mover``, after
        the move ``s``, ``t`` (see :meth:`random_playout`); no ``result``: the
        move limit."""
        if result is None:
            result = Outcome((), f"{ply} actions without a winner")
        last = PASS_MOVE if s == -2 else RELOCATE_MOVES[s][t] if s >= 0 else \
            PLACE_MOVES[PLAYER_COLOURS[1 - mover]][t]
        white, black = (mine, other) if mover == 0 else (other, mine)
        return SpyramidState(Position.from_masks(white, black), mover, result, last, ply)

    def held_pyramids(self, position: Position, colour: int) -> int:
        """The union of the pyramids whose five corners all hold `colour`."""
        mine, out = position.mask(colour), 0
        for p in self.pyramids:
            if mine & p == p:
                out |= p
        return out

    def has_pyramid(self, position: Position, colour: int) -> bool:
        return bool(self.held_pyramids(position, colour))

    def winning_points(self, state) -> int:
        """The corners of the winner's pyramid."""
        winner = sole_winner(state)
        return 0 if winner is None else self.held_pyramids(state.position, PLAYER_COLOURS[winner])

    def _conclude(self, position: Position, to_move: int, ply: int) -> Outcome | None:
        """The outcome with `to_move` next: the last mover's pyramid first, then the
        other's; a draw when nobody can move or at the move limit."""
        for player in (1 - to_move, to_move):
            if self.has_pyramid(position, PLAYER_COLOURS[player]):
                return self._won(player)
        masks = (position.white, position.black)
        if not self._can_move(masks, to_move) and not self._can_move(masks, 1 - to_move):
            return Outcome((), "neither player can move")
        if ply >= self.params["move_limit"]:
            return Outcome((), f"{ply} actions without a winner")
        return None

    # -- text ----------------------------------------------------------------
    def status_lines(self, state) -> list[str]:
        """Balls in hand and the turn count against the move limit."""
        lines = ["Balls in hand: " + ", ".join(
            f"{self.player_name(p)} {SUPPLY - state.position.count(c)}"
            for p, c in enumerate(PLAYER_COLOURS)) + "."]
        if state.result is None:
            limit = self.params["move_limit"]
            lines.append(f"Turn {state.ply + 1} of {limit} (a draw after {limit} "
                         "without a winner).")
        return lines

    def extra_text(self, state) -> str:
        return write_fields(ply=state.ply)

    def state_from(self, position, to_move, extras):
        fields = read_fields(self, extras, numbers=("ply",))
        if position.red:
            raise NotationError("Spyramid uses only white and black balls")
        for colour in PLAYER_COLOURS:
            if position.count(colour) > SUPPLY:
                raise NotationError(f"Spyramid state: more than {SUPPLY} "
                                    f"{COLOUR_NAMES[colour]} balls")
        if fields["ply"] < position.count():
            raise NotationError(f"Spyramid state: {position.count()} balls cannot be "
                                f"placed in {fields['ply']} actions")
        return self.settle(SpyramidState(position, to_move, None, None, fields["ply"]))

    def settle(self, state):
        result = self._conclude(state.position, state.to_move, state.ply)
        return dataclasses.replace(state, result=result) if result else state
