"""Splush: push balls in from the side onto any raised level; gather all your visible balls."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..bits import carried, hidden_of, links_and_pinned, neighbour_tables, nth_point
from ..errors import IllegalMoveError, NotationError, UnknownGameError
from ..game import Game, GameInfo, Outcome, State
from ..geometry import (CONTACTS, LEVEL, NUM_POINTS, POINTS, SUPPORT_MASK, SUPPORTED_MASK,
                        TOUCHING_MASK, points_of)
from ..mechanics import CHANGE, KO, NONE, OPPOSITE, STEP
from ..notation import ENTER, PASS_MOVE, REMOVE, Move, point_name
from ..position import BLACK, CHECKERBOARD, COLOUR_NAMES, WHITE, Position, hidden_mask
from ..registry import register
from .placement import REMOVE_MOVES, sole_winner
from ..game import read_fields, write_fields

PLAYER_COLOURS = (WHITE, BLACK)
SUPPLY = 16
"""Balls of each colour in a Shibumi set."""
CYCLE_CHOICES = (NONE, CHANGE, KO)

#: The board full in a checkerboard, white on a1, nothing above.
START = CHECKERBOARD

ENTER_MOVES = {c: {(p, d): Move.enter(p, d, c) for p in range(16, NUM_POINTS) for d in "nesw"}
               for c in PLAYER_COLOURS}

#: Every way in from the side: (point, direction) for the edge points of levels 1
#: and 2, travelling away from the edge they lie on, and the apex, which lies on
#: every edge of its one-point level and so can be entered from all four sides.
ENTRY_SIDES: tuple[tuple[int, str], ...] = tuple(
    (p, d) for p in range(16, NUM_POINTS) for d in "nesw" if STEP[OPPOSITE[d]][p] is None)
LEVEL_CHOICES = (1, 2, 3)
"""Values of the ``levels`` parameter: the highest level entries may reach."""


def fast_enter(white: int, black: int, point: int, d: str, colour: int):
    """The (white, black) masks after a ball enters at `point` travelling `d`,
    or None when the entry is not allowed (no full platform under the point,
    a pushed line carrying a ball, a push off the board, an unclear drop).

    The same rules as :func:`shibumi.mechanics.enter` without pushing off,
    on bare masks (the tests compare the two).
    """
    occ = white | black
    if SUPPORT_MASK[point] & ~occ:
        return None
    if not occ >> point & 1:
        return (white | 1 << point, black) if colour == WHITE else (white, black | 1 << point)
    step = STEP[d]
    run, q = [], point
    while q is not None and occ >> q & 1:
        if occ & SUPPORTED_MASK[q]:
            return None                     # a pushed ball carries another
        run.append(q)
        q = step[q]
    if q is None:
        return None                         # the last ball would go off the board
    missing = SUPPORT_MASK[q] & ~occ
    if missing:
        if missing & (missing - 1) or SUPPORT_MASK[missing.bit_length() - 1] & ~occ:
            return None                     # unclear drop, or more than one level
        q = missing.bit_length() - 1
    for src in reversed(run):               # front ball first
        bit = 1 << src
        if white & bit:
            white = white & ~bit | 1 << q
        else:
            black = black & ~bit | 1 << q
        q = src
    return (white | 1 << point, black) if colour == WHITE else (white, black | 1 << point)


def fast_remove(white: int, black: int, point: int):
    """(white, black, dropped) after lifting the ball at `point`: each ball of the
    column above drops one place; `dropped` marks where the dropped balls now are."""
    occ = white | black
    dropped, gap = 0, point
    white &= ~(1 << point)
    black &= ~(1 << point)
    above = occ & SUPPORTED_MASK[gap]
    while above:
        q = above.bit_length() - 1
        if white >> q & 1:
            white = white & ~(1 << q) | 1 << gap
        else:
            black = black & ~(1 << q) | 1 << gap
        dropped |= 1 << gap
        gap = q
        above = occ & SUPPORTED_MASK[gap]
    return white, black, dropped


# -- the rules on bare masks, memoised on the occupancy ------------------------------
#
# Whether an entry or a removal is possible, and which points its balls move
# between, depends only on which points are occupied, not on colours; and
# random games meet the same occupancies again and again. So the moves of an
# occupancy are worked out once (as paths of (from bit, to bit) pairs) and only
# the colours are moved at play time. legal_moves, apply and random_playout
# all read these tables.

#: Tables kept at most this long; past it they are emptied and filled again.
CACHE_LIMIT = 200_000
#: Occupancy records (:meth:`MoveTables.record`) kept at most: they are larger.
RECORD_LIMIT = 20_000
_LINKS: dict[int, tuple[int, tuple[int, ...]]] = {}
#: The contacts that the two balls passing over them can cut.
_CUTTABLE = tuple((a, b, over) for a, b, over in CONTACTS if over)


def side_entry(point: int, d: str, occ: int, reach: int = 0):
    """The entry at ``point`` travelling ``d`` on occupancy ``occ``, or None when it
    is not allowed: ``(point, d, point bit, path, landing bit, reach)``.  ``path``
    moves the pushed balls as (from bit, to bit) pairs, front ball first, then
    the entering ball goes on ``point``; ``landing`` is the point that was empty
    and is now taken; ``reach`` is passed through (see :func:`side_reach`).
    Same rules as :func:`fast_enter`."""
    if SUPPORT_MASK[point] & ~occ:
        return None
    pbit = 1 << point
    if not occ & pbit:
        return (point, d, pbit, (), pbit, reach)
    step, run, q = STEP[d], [], point
    while q is not None and occ >> q & 1:
        if occ & SUPPORTED_MASK[q]:
            return None                         # a pushed ball carries another
        run.append(q)
        q = step[q]
    if q is None:
        return None                             # the last ball would go off the board
    missing = SUPPORT_MASK[q] & ~occ
    if missing:
        if missing & (missing - 1) or SUPPORT_MASK[missing.bit_length() - 1] & ~occ:
            return None                         # unclear drop, or more than one level
        q = missing.bit_length() - 1
    path = []
    for src in reversed(run):
        path.append((1 << src, 1 << q))
        q = src
    return (point, d, pbit, tuple(path), path[0][1], reach)


def side_reach(point: int, d: str) -> int:
    """The points whose occupancy :func:`side_entry` may look at."""
    mask, q = SUPPORT_MASK[point], point
    while q is not None:
        mask |= 1 << q | SUPPORTED_MASK[q] | SUPPORT_MASK[q]
        for s in points_of(SUPPORT_MASK[q]):
            mask |= SUPPORT_MASK[s]
        q = STEP[d][q]
    return mask


def lift(white: int, black: int, lift_path) -> tuple[int, int]:
    """The masks after a removal's lift path (see :meth:`MoveTables.lifting`)."""
    pbit, path = lift_path
    white &= ~pbit
    black &= ~pbit
    for src, dst in path:
        if white & src:
            white ^= src | dst
        else:
            black ^= src | dst
    return white, black


def entered(white: int, black: int, entry, colour: int) -> tuple[int, int]:
    """The masks after an entry (see :func:`side_entry`) of a ball of ``colour``."""
    for src, dst in entry[3]:
        if white & src:
            white ^= src | dst
        else:
            black ^= src | dst
    return (white | entry[2], black) if colour == WHITE else (white, black | entry[2])


def visible_links(occ: int) -> tuple[int, tuple[int, ...]]:
    """(visible balls, each point's visible contacts) of an occupancy, memoised.

    The same contacts as :func:`shibumi.position.linked`: hidden balls touch
    nothing, and a flat contact is cut when both balls passing over it are there.
    """
    found = _LINKS.get(occ)
    if found is None:
        if len(_LINKS) > CACHE_LIMIT:
            _LINKS.clear()
        visible = occ & ~hidden_mask(occ)
        links = [TOUCHING_MASK[p] & visible if visible >> p & 1 else 0 for p in POINTS]
        for a, b, over in _CUTTABLE:
            if occ & over == over:
                links[a] &= ~(1 << b)
                links[b] &= ~(1 << a)
        found = _LINKS[occ] = (visible, tuple(links))
    return found


def gathered_mask(mine: int, occ: int) -> int:
    """The visible balls of ``mine`` when they form one visibly connected group, else 0."""
    visible, links = visible_links(occ)
    mine &= visible
    if not mine:
        return 0
    group = frontier = mine & -mine
    while frontier:
        low = frontier & -frontier
        frontier ^= low
        new = links[low.bit_length() - 1] & mine & ~group
        group |= new
        frontier |= new
    return mine if group == mine else 0


#: The points touching a point of each 10-bit third of a mask (bits.next_to's
#: first half): a ball touching no other ball of its colour, even with the contacts
#: that overpasses cut, is a group of its own.
_NEAR_LOW, _NEAR_MID, _NEAR_HIGH = (tuple(once for once, _ in table)
                                    for table in neighbour_tables(TOUCHING_MASK))


_UPPER: dict[int, tuple[int, tuple[int, ...], int]] = {}


def upper_facts(upper: int) -> tuple[int, tuple[int, ...], int]:
    """``(hidden, links, covered)`` of a stable occupancy whose balls above the
    board are ``upper`` (``occupied >> 16``), memoised: they depend on those balls
    alone (a few hundred values), as a ball with a ball on it is there.  The
    hidden balls (:func:`shibumi.bits.hidden_of`), the visible contacts of each
    point (:func:`shibumi.bits.links_and_pinned`: a group floods over them, the
    contacts of :func:`visible_links`) and the balls with a ball resting on them."""
    occ = upper << 16 | 0xFFFF
    found = _UPPER[upper] = (hidden_of(occ), links_and_pinned(occ)[0], carried(occ)[0])
    return found


def allowed_after_lift(lifted: tuple, white: int, black: int) -> tuple:
    """The entries left after a lift (:meth:`MoveTables.lift_items`) of a ball of
    the start ``white``, ``black`` that do not give back that start: what the
    default rule allows.  Only an entry that fills the point the lift emptied
    can, and whether it does depends only on the colours of the points such
    entries move balls between, so the answer is memoised on those."""
    lift_path, cands, emptied, touched, memo = lifted
    key = white & touched
    found = memo.get(key)
    if found is None:
        colour = WHITE if white & lift_path[0] else BLACK
        after = lift(white, black, lift_path)
        found = memo[key] = tuple(e for e in cands if e[4] != emptied
                                  or entered(*after, e, colour) != (white, black))
    return found


class MoveTables:
    """The entries and removals of each occupancy, memoised, for one set of sides.

    Entries are memoised per side on the few points each looks at, and per
    occupancy as a whole.  Removals are summed up per occupancy as masks: the
    balls that can be lifted and entered again whatever the colours, and those
    whose every re-entry fills the point the lift emptied (only these can give
    back the position the turn started from, which the default rule forbids).
    """

    def __init__(self, sides) -> None:
        self.sides = tuple((point, d, side_reach(point, d), {}) for point, d in sides)
        self._entries: dict[int, tuple] = {}
        self._summary: dict[int, list[int]] = {}
        self._lifts: dict[int, tuple] = {}
        #: Per occupancy, what the playout reads each turn (see :meth:`record`).
        self.records: dict[int, list] = {}

    def entries(self, occ: int) -> tuple:
        """The allowed entries of an occupancy (:func:`side_entry`), in side order."""
        found = self._entries.get(occ)
        if found is None:
            if len(self._entries) > CACHE_LIMIT:
                self._entries.clear()
            out = []
            for point, d, reach, memo in self.sides:
                key = occ & reach
                e = memo.get(key, False)
                if e is False:
                    if len(memo) > CACHE_LIMIT:
                        memo.clear()
                    e = memo[key] = side_entry(point, d, key, reach)
                if e is not None:
                    out.append(e)
            found = self._entries[occ] = tuple(out)
        return found

    def lifting(self, occ: int, p: int):
        """Lifting the (unpinned) ball at ``p``: ``(lift path, entries left)``.

        The lift path clears ``p`` and drops the column above, lowest ball first;
        the entries left are those of the lifted occupancy that do not rest on
        a ball that dropped."""
        key = occ << 5 | p
        found = self._lifts.get(key)
        if found is None:
            if len(self._lifts) > CACHE_LIMIT:
                self._lifts.clear()
            path, gap, banned = [], p, 0
            above = occ & SUPPORTED_MASK[p]
            while above:
                q = above.bit_length() - 1
                path.append((1 << q, 1 << gap))
                banned |= SUPPORTED_MASK[gap]
                gap = q
                above = occ & SUPPORTED_MASK[gap]
            cands = tuple(e for e in self.entries(occ & ~(1 << gap)) if not banned >> e[0] & 1)
            found = self._lifts[key] = ((1 << p, tuple(path)), cands, 1 << gap)
        return found

    def removable(self, occ: int, mine: int) -> tuple[int, int]:
        """(sure, check) for the balls of ``mine``: those that can be lifted and
        entered again somewhere that changes the occupancy, and those whose
        every re-entry fills the point the lift emptied."""
        summary = self._summary.get(occ)
        if summary is None:
            if len(self._summary) > CACHE_LIMIT:
                self._summary.clear()
            summary = self._summary[occ] = [0, 0, 0]       # known, sure, check
        unknown = mine & ~summary[0]
        if unknown:
            self._sort_balls(summary, 0, occ, unknown)
        return mine & summary[1], mine & summary[2]

    def _sort_balls(self, summary: list, base: int, occ: int, balls: int) -> None:
        """Add ``balls`` to the ``known, sure, check`` masks of ``summary`` found
        from index ``base`` on (a summary of :meth:`removable` or a record)."""
        entries = self.entries(occ)
        summary[base] |= balls
        while balls:
            low = balls & -balls
            balls ^= low
            p = low.bit_length() - 1
            above = occ & SUPPORTED_MASK[p]
            if above & (above - 1):
                continue                                    # pinned
            if self._surely_removable(occ, p, above, entries):
                summary[base + 1] |= low
                continue
            _, cands, emptied = self.lifting(occ, p)
            if any(e[4] != emptied for e in cands):
                summary[base + 1] |= low
            elif cands:
                summary[base + 2] |= low

    def record(self, occ: int) -> list:
        """Everything the playout reads about an occupancy, fetched once a turn:
        ``[visible, links, entries, known, sure, check, lifts]``: the visible balls
        and the links of :func:`upper_facts`, ``entries`` :meth:`entries`; ``known``,
        ``sure`` and ``check`` are :meth:`removable`'s summary for the balls
        classified so far (see :meth:`classify`); ``lifts`` maps a point to
        :meth:`lift_items` once asked."""
        if len(self.records) > RECORD_LIMIT:
            self.records.clear()
        hidden, links, covered = _UPPER.get(occ >> 16) or upper_facts(occ >> 16)
        entries = self.entries(occ)
        # A free ball (nothing on it) outside the points some entry looks at
        # leaves that entry as it is when lifted: it is surely removable
        # (:meth:`_surely_removable` for all such balls at once).
        quick = 0
        if entries:
            looked_at = occ
            for e in entries:
                looked_at &= e[5]
            quick = occ & ~covered & ~looked_at
        rec = self.records[occ] = [occ & ~hidden, links, entries, quick, quick, 0, {}]
        return rec

    def classify(self, rec: list, occ: int, balls: int) -> None:
        """Add ``balls`` (not yet classified) to a record's summary, as
        :meth:`removable` does: ``sure`` or ``check`` or neither."""
        self._sort_balls(rec, 3, occ, balls)

    def lift_items(self, rec: list, occ: int, p: int) -> tuple:
        """Lifting the ball at ``p`` (recorded in ``rec``):
        ``(lift path, cands, emptied, touched, memo)``, :meth:`lifting` and, for
        :func:`allowed_after_lift`, the points whose balls a lift and a re-entry
        filling the emptied point move, and its memo."""
        lift_path, cands, emptied = self.lifting(occ, p)
        touched = lift_path[0]
        for src, dst in lift_path[1]:
            touched |= src | dst
        for e in cands:
            if e[4] == emptied:
                touched |= e[2]
                for src, dst in e[3]:
                    touched |= src | dst
        found = rec[6][p] = (lift_path, cands, emptied, touched, {})
        return found

    def _surely_removable(self, occ: int, p: int, above: int, entries: tuple) -> bool:
        """A quick sufficient test that the ball at ``p`` can be lifted and entered
        somewhere that changes the occupancy: an entry of ``occ`` that looks at
        no point the lift changes, and does not rest on a dropped ball, is
        still there after the lift (and fills a point other than the one emptied,
        which is taken now)."""
        changed, banned = 1 << p, 0
        gap = p
        while above:
            q = above.bit_length() - 1
            changed |= 1 << q
            banned |= SUPPORTED_MASK[gap]
            gap = q
            above = occ & SUPPORTED_MASK[gap]
        for e in entries:                       # the entries of occ
            if not e[5] & changed and not banned >> e[0] & 1:
                return True
        return False


_TABLES: dict[tuple, MoveTables] = {}


def tables_for(sides) -> MoveTables:
    """The move tables of a set of sides (shared by every game with those sides)."""
    found = _TABLES.get(sides)
    if found is None:
        found = _TABLES[sides] = MoveTables(sides)
    return found


def gathered(position: Position, colour: int) -> int:
    """The visible balls of the colour when they form one visibly connected group, else 0."""
    return gathered_mask(position.mask(colour), position.occupied)


def united(position: Position, colour: int) -> bool:
    """True when every visible ball of the colour is in one visibly connected group."""
    return bool(gathered(position, colour))


@dataclass(frozen=True)
class SplushState(State):
    """A Splush state.

    ``ply`` counts actions and ``turn`` completed turns (passes included).
    During a removal turn, ``removed`` is the point the mover emptied and
    ``start`` the position before it; the removed ball must now be entered.
    ``ko`` (only with the ko rule) is the position the player to move left
    at the end of their previous turn.
    """
    ply: int = 0
    turn: int = 0
    removed: int = -1
    start: Position | None = None
    ko: Position | None = None


@register
class Splush(Game):
    info = GameInfo(
        name="Splush", designer="Cameron Browne", year="2012",
        family="Connection", source="Shibumi Rule Book (2012)",
        summary="Push balls of your colour in from the side onto a raised level, or pull "
                "one out and push it back in; first to gather all visible balls in one "
                "group wins.",
        complexity=3, aliases=("splash",), max_length=400)
    parameters = {"cycle": CHANGE, "levels": 2, "turn_limit": 200}
    symmetries = (0, 2, 6, 7)   # the turns that keep the chessboard's colours

    rules = """\
Two players, White and Black, each with the 16 balls of their colour. The 16
holes of the board start full in a chessboard pattern (white on a1), so each
player begins with 8 balls on the board and 8 in hand. White moves first.

On your turn do one of these:

1. Entry: take a ball of your colour from your hand and push it in from
   the side onto an edge point of level 1 or level 2, travelling along
   that point's row or column. The point must rest on a
   complete platform (all four balls under it present). If the point is
   taken, the balls in a row from it onwards are pushed one step along (the
   last one may drop one level into a gap, when exactly one gap lies under
   where it arrives). A push that would send a ball off the far side, or
   move a line with balls resting on it, is not allowed.
2. Removal and re-entry: take one of your own balls that is not pinned off
   the pyramid (a ball resting on it drops into the gap, and so on up the
   column), then enter that same ball as in 1. The ball may not be entered
   onto a point that rests on a ball that has just dropped.

A turn must change the position. If you have no legal turn, you pass.

You win as soon as all of your visible balls form a single group, joined by
contacts seen from above (overpasses cut underpasses). If a turn completes
both players' groups, the mover wins. If neither player can move, or after
200 turns without a winner, the game is drawn.
"""
    notes = """\
* Start (figure lost): the board full in a chessboard pattern, nothing
  above. The catalogue of figures is fairly sure of this; we put white on
  a1 (the other choice is the same game mirrored).
* Which levels. The rule lets a ball come in from the side onto a 2x2
  platform, and any 2x2 square of touching balls is a platform, on the board
  or higher; the definitions chapter also speaks of entering at the higher
  levels in general. So by default entries reach both levels that have rows to
  travel along: the edge points of level 1 and of level 2. The book's worked
  example only uses level 1, which is where most entries happen anyway, since
  level 2 needs a full 2x2 block of level 1 under the point. A variant keeps
  entries on level 1 only; another adds the apex (below).
* The apex is not entered by default. An entry pushes along a row or column of
  a level, and the apex level has none, so "from the side" gives it no meaning
  the book spells out; and allowing it changes the game (see the next note).
  In the variant that adds it, the apex, which is on all four edges at once
  and rests on the 2x2 platform of level 2, may be entered when empty (written
  with the side it came from, as below, so four moves give the same position).
  When the apex is taken, the entry would have to push its ball on, and the
  next step leaves the pyramid: that is a push off the board, which Splush
  forbids. Leaving the apex out altogether would need a rule the book does not
  state. A ball on the apex hides the centre of level 1 and touches all four
  balls of level 2.
* What the apex does to play: it can only be entered when level 2 is full, so
  the entry completes the pyramid, and under the default cycle rule nobody has
  a legal turn in a complete pyramid (no line can be pushed, and a lifted ball
  leaves its gap at the apex, which then rests on a ball that just dropped,
  unless it is the apex ball itself, which can only go back where it was). So
  entering the apex wins if it gathers the mover's balls and otherwise ends
  the game drawn: a player can steer for it to save a lost game. In 2,000
  games of random moves, 735 filled the pyramid and 731 were drawn that way;
  with entries up to level 2 (the default) or level 1 only, none of 2,000 was
  drawn. A drawing resource that ends a third of random games is not something
  the book describes, which is why the default stops at level 2.
* Supply. A set has 16 balls per colour, so each player starts with 8 in
  hand. An entry from the hand needs a ball in hand; a player whose 16 balls
  are all on the pyramid can only remove and re-enter. Balls never leave
  play (pushing off is forbidden), so hands only shrink.
* The ban on entering "onto a ball that has just dropped" is read as in the
  French edition: the entry point may not rest on a ball that dropped
  during this turn's removal. Pushed balls may come to rest on such a ball:
  the book's worked example does exactly that (the removed corner ball lets
  a black ball drop, and the re-entry pushes a line onto it).
* What the book's two rules do not stop: removing a ball and entering it where
  it was leaves the position unchanged, and two players can shuffle back and
  forth for ever. We add the "board must change" safeguard of the book's
  definitions as the default; a variant forbids instead going back to the
  position you left at your previous turn, and another drops both. Whatever
  the cycle rule, the game is drawn after 200 turns without a winner (the
  limit can be set lower, not higher); a turn is one or two actions, so a game
  lasts at most 400 actions.
* Winning is checked after the whole turn (not between the removal and the
  entry). A player with a single visible ball would be gathered, but each
  player always has at least 8 balls on the pyramid. Turns that unite both
  players go to the mover, as in the book's other connection games.
* Passing: only when the mover has no legal turn at all; if the other player
  cannot move either, the game is drawn at once.
* Entries at a corner point can come from two sides, and the apex from four;
  they are listed as separate moves (`Wb2+n`, `Wb2+e`) even when they give
  the same position, as the engine writes every entry with its direction.
* The book's worked example (White's only winning move: removing the corner
  ball under a black one, then pushing the bottom line of level 1 along) is
  rebuilt in the tests as a position with the same features.
"""

    def __init__(self, **params) -> None:
        super().__init__(**params)
        if self.params["cycle"] not in CYCLE_CHOICES:
            raise UnknownGameError(f"Splush cycle rule must be one of "
                                   f"{', '.join(CYCLE_CHOICES)}, not {self.params['cycle']!r}")
        limit = self.params["turn_limit"]
        if not 1 <= limit <= self.info.max_length // 2:
            raise UnknownGameError(f"Splush turn_limit is 1-{self.info.max_length // 2}, "
                                   f"not {limit!r}")
        top = self.params["levels"]
        if top not in LEVEL_CHOICES:
            raise UnknownGameError(f"Splush levels is the highest level entries reach, "
                                   f"1, 2 or 3, not {top!r}")
        self.sides = tuple((p, d) for p, d in ENTRY_SIDES if LEVEL[p] <= top)
        self.tables = tables_for(self.sides)

    def initial_state(self, rng=None) -> SplushState:
        return SplushState(position=START)

    def length(self, state) -> int:
        return state.ply

    # -- moves, on masks -----------------------------------------------------------
    def _forbid(self, start: tuple[int, int], ko: tuple[int, int] | None):
        """The masks the cycle rule forbids a turn to end on, or None."""
        rule = self.params["cycle"]
        if rule == CHANGE:
            return start
        return ko if rule == KO else None

    @staticmethod
    def _reentries(white: int, black: int, cands, colour: int, forbid,
                   first_only: bool = False) -> list:
        """The entries of ``cands`` allowed on masks ``white``, ``black`` (after a
        lift, or from the hand): those not ending on ``forbid``."""
        if forbid is None:
            return list(cands[:1]) if first_only else list(cands)
        # Only an entry filling the one point the forbidden position has more
        # can give it back.
        extra = (forbid[0] | forbid[1]) & ~(white | black)
        found = []
        for e in cands:
            if e[4] == extra and entered(white, black, e, colour) == forbid:
                continue
            found.append(e)
            if first_only:
                break
        return found

    def _first_actions(self, white: int, black: int, player: int, ko,
                       first_only: bool = False) -> tuple[tuple, int]:
        """A turn's first actions: (entries from the hand, mask of the balls that
        can be lifted and entered again), in the order of the legal moves.
        ``ko`` is the masks of the ko position (or None)."""
        colour = PLAYER_COLOURS[player]
        occ = white | black
        forbid = self._forbid((white, black), ko)
        mine = white if colour == WHITE else black
        tables = self.tables
        entries = ()
        if mine.bit_count() < SUPPLY:
            entries = tables.entries(occ)
            # An entry from the hand adds a ball: only a position with one more
            # ball can be forbidden.
            if forbid is not None and (forbid[0] | forbid[1]).bit_count() == occ.bit_count() + 1:
                entries = tuple(self._reentries(white, black, entries, colour, forbid))
            if entries and first_only:
                return entries, 0
        sure, check = tables.removable(occ, mine)
        if forbid is None:
            return entries, sure | check
        if forbid[0] | forbid[1] != occ:            # the ko rule: check each ball
            check |= sure
            sure = 0
        while check:
            low = check & -check
            check ^= low
            lift_path, cands, _ = tables.lifting(occ, low.bit_length() - 1)
            if self._reentries(*lift(white, black, lift_path), cands, colour, forbid, True):
                sure |= low
        return entries, sure

    def _has_turn(self, white: int, black: int, player: int, ko) -> bool:
        entries, removals = self._first_actions(white, black, player, ko, True)
        return bool(entries or removals)

    def legal_moves(self, state, player=None) -> list[Move]:
        if state.result is not None:
            return []
        colour = PLAYER_COLOURS[state.to_move]
        moves = ENTER_MOVES[colour]
        ko = None if state.ko is None else (state.ko.white, state.ko.black)
        if state.removed >= 0:
            start = state.start
            _, cands, _ = self.tables.lifting(start.occupied, state.removed)
            allowed = self._reentries(state.position.white, state.position.black, cands,
                                      colour, self._forbid((start.white, start.black), ko))
            return [moves[e[0], e[1]] for e in allowed]
        entries, removals = self._first_actions(state.position.white, state.position.black,
                                                state.to_move, ko)
        return [moves[e[0], e[1]] for e in entries] + \
            [REMOVE_MOVES[p] for p in points_of(removals)] or [PASS_MOVE]

    def apply(self, state, move: Move) -> SplushState:
        mover, ply = state.to_move, state.ply + 1
        position = state.position
        if move.kind == REMOVE:
            white, black, _ = fast_remove(position.white, position.black, move.point)
            return SplushState(Position.from_masks(white, black), mover, None, move, ply,
                               state.turn, move.point, position, state.ko)
        start = state.start if state.removed >= 0 else position
        if move.kind == ENTER:
            position = Position.from_masks(*fast_enter(position.white, position.black,
                                                       move.point, move.direction,
                                                       move.colour))
        turn = state.turn + 1
        ko = start if self.params["cycle"] == KO else None
        result = self._conclude(position, 1 - mover, turn, ko)
        return SplushState(position, 1 - mover, result, move, ply, turn, -1, None, ko)

    def _conclude(self, position: Position, to_move: int, turn: int,
                  ko: Position | None) -> Outcome | None:
        """The outcome once a turn is over and `to_move` is next, or None.

        A united player wins (the one who just moved first); if neither the
        next player nor, after their pass, the other can move, or the turn
        limit is reached, the game is drawn. It depends on the state alone,
        so a state read from text settles the same way.
        """
        white, black = position.white, position.black
        result = self._judge(white, black, 1 - to_move)
        if result is None and not self._has_turn(
                white, black, to_move, None if ko is None else (ko.white, ko.black)):
            after_pass = (white, black) if self.params["cycle"] == KO else None
            if not self._has_turn(white, black, 1 - to_move, after_pass):
                result = Outcome((), "neither player can move")
        if result is None and turn >= self.params["turn_limit"]:
            result = Outcome((), f"{turn} turns without a winner")
        return result

    def _judge(self, white: int, black: int, mover: int) -> Outcome | None:
        occ = white | black
        for player in (mover, 1 - mover):
            if gathered_mask(black if player else white, occ):
                return Outcome((player,), f"{self.player_name(player)} gathered all "
                               "their visible balls into one group")
        return None

    # -- fast random games -----------------------------------------------------------
    def random_playout(self, state, rng):
        """Random turns to the end on bare masks: the same draws over the same moves
        as the generic loop (checked by the tests), so the same games.

        Each turn reads one record of its occupancy (:meth:`MoveTables.record`):
        the judging of the turn before and the mover's choices share it.  Under
        the default rule, which re-entries after a lift give back the start is
        memoised on the colours they move (:func:`allowed_after_lift`); the ko
        rule, which looks back a turn, takes :meth:`_ko_playout`.
        """
        while state.result is None and state.removed >= 0:
            state = self.random_step(state, rng)          # finish a turn begun
        if state.result is not None:
            return state
        if self.params["cycle"] == KO:
            return self._ko_playout(state, rng)
        change = self.params["cycle"] == CHANGE
        rnd = rng.random
        limit = self.params["turn_limit"]
        tables = self.tables
        records = tables.records
        white, black = state.position.white, state.position.black
        mover, ply, turn = state.to_move, state.ply, state.turn
        last = PASS_MOVE
        while True:
            occ = white | black
            rec = records.get(occ)
            if rec is None:
                rec = tables.record(occ)
            if turn > state.turn:                 # a turn was played: judge it
                result = self._mask_judge(white, black, 1 - mover, rec)
                if result is None:
                    entries, sure = self._choices(white, black, mover, rec, occ, change)
                    if not (entries or sure) and not self._has_turn(white, black, 1 - mover,
                                                                    None):
                        result = Outcome((), "neither player can move")
                if result is None and turn >= limit:
                    result = Outcome((), f"{turn} turns without a winner")
                if result is not None:
                    if last is not PASS_MOVE:
                        last = ENTER_MOVES[PLAYER_COLOURS[1 - mover]][last[0], last[1]]
                    return SplushState(Position.from_masks(white, black), mover, result, last,
                                       ply, turn, -1, None, None)
            else:
                entries, sure = self._choices(white, black, mover, rec, occ, change)
            n_entries = len(entries)
            n = n_entries + sure.bit_count()
            k = int(rnd() * (n or 1))
            turn += 1
            if not n:
                last, ply = PASS_MOVE, ply + 1
                mover = 1 - mover
                continue
            if k < n_entries:
                entry, ply = entries[k], ply + 1
            else:
                p = nth_point(sure, k - n_entries)
                lifted = rec[6].get(p) or tables.lift_items(rec, occ, p)
                allowed = allowed_after_lift(lifted, white, black) if change else lifted[1]
                white, black = lift(white, black, lifted[0])
                entry, ply = allowed[int(rnd() * len(allowed))], ply + 2
            for src, dst in entry[3]:
                if white & src:
                    white ^= src | dst
                else:
                    black ^= src | dst
            if mover:
                black |= entry[2]
            else:
                white |= entry[2]
            last = entry                            # its move is made at the end
            mover = 1 - mover

    def _choices(self, white: int, black: int, mover: int, rec: list, occ: int,
                 change: bool) -> tuple[tuple, int]:
        """:meth:`_first_actions` without the ko rule, from the occupancy's record:
        (entries from the hand, balls that can be lifted and entered again)."""
        mine = black if mover else white
        unknown = mine & ~rec[3]
        if unknown:
            self.tables.classify(rec, occ, unknown)
        sure, check = rec[4] & mine, rec[5] & mine
        if change:
            # A ball whose every re-entry refills the point its lift emptied
            # counts if one re-entry changes the colours.
            lifts = rec[6]
            while check:
                low = check & -check
                check ^= low
                p = low.bit_length() - 1
                lifted = lifts.get(p) or self.tables.lift_items(rec, occ, p)
                allowed = lifted[4].get(white & lifted[3])      # the memo, read here
                if allowed is None:
                    allowed = allowed_after_lift(lifted, white, black)
                if allowed:
                    sure |= low
        else:
            sure |= check
        return (rec[2] if mine.bit_count() < SUPPLY else ()), sure

    def _mask_judge(self, white: int, black: int, mover: int, rec: list) -> Outcome | None:
        """:meth:`_judge` on the occupancy's record (visible balls and links)."""
        visible, links = rec[0], rec[1]
        for player in (mover, 1 - mover):
            rest = (black if player else white) & visible
            if not rest:
                continue
            if rest & (rest - 1) and rest & ~(_NEAR_LOW[rest & 1023]
                                              | _NEAR_MID[rest >> 10 & 1023]
                                              | _NEAR_HIGH[rest >> 20]):
                continue                # a ball touching none of the others
            todo = rest & -rest                     # flood from the lowest ball
            rest ^= todo
            while todo and rest:
                low = todo & -todo
                todo ^= low
                new = links[low.bit_length() - 1] & rest
                rest ^= new
                todo |= new
            if not rest:
                return Outcome((player,), f"{self.player_name(player)} gathered all "
                               "their visible balls into one group")
        return None

    def _ko_playout(self, state, rng):
        """:meth:`random_playout` under the ko rule, whose forbidden position is the
        one the mover left a turn ago.

        The next player's first actions, worked out to see whether they can
        move, are kept for their turn.
        """
        rnd = rng.random
        is_ko = self.params["cycle"] == KO
        limit = self.params["turn_limit"]
        tables = self.tables
        white, black = state.position.white, state.position.black
        mover, ply, turn = state.to_move, state.ply, state.turn
        ko = None if state.ko is None else (state.ko.white, state.ko.black)
        entries, removals = self._first_actions(white, black, mover, ko)
        while True:
            colour = PLAYER_COLOURS[mover]
            start = (white, black)
            n_entries = len(entries)
            n = n_entries + removals.bit_count()
            k = int(rnd() * (n or 1))
            if not n:
                last, ply = PASS_MOVE, ply + 1
            elif k < n_entries:
                entry, ply = entries[k], ply + 1
                white, black = entered(white, black, entry, colour)
                last = ENTER_MOVES[colour][entry[0], entry[1]]
            else:
                for _ in range(k - n_entries):
                    removals &= removals - 1
                lift_path, cands, _ = tables.lifting(white | black,
                                                     (removals & -removals).bit_length() - 1)
                white, black = lift(white, black, lift_path)
                allowed = self._reentries(white, black, cands, colour, self._forbid(start, ko))
                entry, ply = allowed[int(rnd() * len(allowed))], ply + 2
                white, black = entered(white, black, entry, colour)
                last = ENTER_MOVES[colour][entry[0], entry[1]]
            turn += 1
            ko = start if is_ko else None
            result = self._judge(white, black, mover)
            mover = 1 - mover
            if result is None:
                entries, removals = self._first_actions(white, black, mover, ko)
                if not (entries or removals) and not self._has_turn(
                        white, black, 1 - mover, (white, black) if is_ko else None):
                    result = Outcome((), "neither player can move")
            if result is None and turn >= limit:
                result = Outcome((), f"{turn} turns without a winner")
            if result is not None:
                return SplushState(Position.from_masks(white, black), mover, result, last, ply,
                                   turn, -1, None,
                                   Position.from_masks(*ko) if is_ko else None)

    def winning_points(self, state) -> int:
        """The winner's gathered group (all their visible balls)."""
        winner = sole_winner(state)
        return 0 if winner is None else gathered(state.position, PLAYER_COLOURS[winner])

    def transform_state(self, state, perm):
        state = super().transform_state(state, perm)
        return dataclasses.replace(
            state, removed=perm[state.removed] if state.removed >= 0 else -1,
            start=None if state.start is None else state.start.transform(perm),
            ko=None if state.ko is None else state.ko.transform(perm))

    # -- text --------------------------------------------------------------------
    def status_lines(self, state) -> list[str]:
        """Balls in hand, the ball being re-entered, the turn limit."""
        lines = ["Balls in hand: " + ", ".join(
            f"{self.player_name(p)} {SUPPLY - state.position.count(c)}"
            for p, c in enumerate(PLAYER_COLOURS)) + "."]
        if state.result is None:
            if state.removed >= 0:
                lines.append(f"{self.player_name(state.to_move)} took the ball off "
                             f"{point_name(state.removed)} and must now enter it.")
            limit = self.params["turn_limit"]
            lines.append(f"Turn {state.turn + 1} of {limit} (a draw after {limit} "
                         "without a winner).")
        return lines

    def extra_text(self, state) -> str:
        text = write_fields(turn=state.turn, ply=state.ply,
                            removed=("point", state.removed) if state.removed >= 0 else None)
        for key in ("start", "ko"):
            value = getattr(state, key)
            if value is not None:
                text += f" {key}={value.text()}"
        return text

    def state_from(self, position, to_move, extras):
        positions = {"start": None, "ko": None}
        rest = []
        for token in extras.split():
            key, eq, value = token.partition("=")
            if eq and key in positions:
                positions[key] = Position(value)
            else:
                rest.append(token)
        fields = read_fields(self, " ".join(rest), numbers=("turn", "ply"),
                             points=("removed",))
        removed = -1 if fields["removed"] is None else fields["removed"]
        start, ko = positions["start"], positions["ko"]
        self._check(position, to_move, fields["turn"], fields["ply"], removed, start, ko)
        return self.settle(SplushState(position, to_move, None, None, fields["ply"],
                                       fields["turn"], removed, start, ko))

    def _check(self, position, to_move, turn, ply, removed, start, ko) -> None:
        def bad(why):
            raise NotationError(f"Splush state: {why}")
        for pos in (position, start, ko):
            if pos is None:
                continue
            if pos.red:
                bad("Splush uses only white and black balls")
            for colour in PLAYER_COLOURS:
                if pos.count(colour) > SUPPLY:
                    bad(f"more than {SUPPLY} {COLOUR_NAMES[colour]} balls")
        if ply < turn:
            bad(f"{turn} turns cannot take only {ply} actions")
        if (removed >= 0) != (start is not None):
            bad("a removal turn needs both removed=<point> and start=<position>")
        if removed >= 0:
            if start.colour_at(removed) != PLAYER_COLOURS[to_move]:
                bad("the removed ball must be the mover's")
            try:
                lifted, _ = start.remove(removed)
            except IllegalMoveError:
                bad(f"the ball at removed= cannot be lifted from start=")
            if lifted != position:
                bad("the position is not start= with the removed ball taken away")
        if ko is not None and self.params["cycle"] != KO:
            bad("ko=<position> is only kept under the ko rule")

    def settle(self, state):
        """A state read from text between turns ends as :meth:`_conclude` says."""
        if state.removed >= 0:
            return state
        result = self._conclude(state.position, state.to_move, state.turn, state.ko)
        return dataclasses.replace(state, result=result) if result else state
