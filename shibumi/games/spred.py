"""Spred: make straight lines of your colour, clear them, and spend your red balls.

A turn is one placement of the mover's own colour; if the mover then has a
straight line of three or more touching balls, the turn goes on with the
removal of as many of that line's balls as can be taken (one ``x`` action
each) and ends with a red ball from the mover's stock on a point the line
left free.  The first player to run out of red balls wins.

>>> from shibumi import load
>>> game = load('spred')
>>> st = game.parse_state('..../..../B.B./WW..|.../.../...|../..|. 1 ply=4')
>>> match = game.new_match(state=st)
>>> match.push('e1')                       # the row a1 c1 e1 is a line
Move('We1')
>>> sorted(m.text() for m in match.legal_moves())
['xa1', 'xc1', 'xe1']
>>> [match.push(m).text() for m in ('xa1', 'xc1', 'xe1', 'Rc1')]
['xa1', 'xc1', 'xe1', 'Rc1']
>>> game.status_lines(match.state)[0]
'Red balls in hand: White 7, Black 8 (the first to place all of theirs wins).'
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import lru_cache

from ..bits import follow_column, nth_point, remove_ball
from ..errors import NotationError, shown
from ..game import Game, GameInfo, Outcome, State, read_fields, write_fields
from ..geometry import (ALL_MASK, CONTACTS, SUPPORTED_MASK, point_at, points_of, sloped_runs,
                        transform_mask)
from ..notation import Move, parse_point, point_name
from ..position import BLACK, COLOUR_NAMES, RED, WHITE, Position, hidden_mask
from ..registry import register
from .placement import PLACE_MOVES, REMOVE_MOVES, playable_bits, playable_points

PLAYER_COLOURS = (WHITE, BLACK)
RED_STOCK = 8
_OVERPASS = {(a, b): over for a, b, over in CONTACTS}


def _straight_lines() -> tuple[tuple[int, ...], ...]:
    """Every longest straight line of touching points holding three or more.

    Rows and columns of the board (4 points) and of level 1 (3 points), and
    the lines climbing a level at every step: the four ridges from a board
    corner to the apex (4 points) and twelve shorter lines across the faces
    and through the middle (3 points).  Diagonal neighbours on one level do
    not touch, so no line runs diagonally along a level.
    """
    flat = []
    for level in (0, 1):
        n = 4 - level
        for i in range(n):
            flat.append(tuple(point_at(level, x, i) for x in range(n)))
            flat.append(tuple(point_at(level, i, y) for y in range(n)))
    ridges = sloped_runs(4)
    inside = {frozenset(r[i:i + 3]) for r in ridges for i in (0, 1)}
    faces = tuple(r for r in sloped_runs(3) if frozenset(r) not in inside)
    return tuple(flat) + ridges + faces


#: The straight lines, each with the overpass mask of each contact along it.
STRAIGHT_LINES = tuple(
    (line, tuple(_OVERPASS[min(a, b), max(a, b)] for a, b in zip(line, line[1:])))
    for line in _straight_lines())
#: Masks of every run of three or more consecutive points of a straight line.
RUN_MASKS = frozenset(sum(1 << p for p in line[i:j]) for line, _ in STRAIGHT_LINES
                      for i in range(len(line)) for j in range(i + 3, len(line) + 1))


#: The overpass masks that can cut a contact of a straight line, each once.
_OVERS = tuple(sorted({o for _, overs in STRAIGHT_LINES for o in overs if o}))


def _line_runs(line: tuple[int, ...], overs: tuple[int, ...]):
    """The runs of three or more points of a line, longest first, each as
    (mask, bit i set when the run has a contact that ``_OVERS[i]`` cuts)."""
    runs = []
    for size in range(len(line), 2, -1):
        for i in range(len(line) - size + 1):
            runs.append((sum(1 << p for p in line[i:i + size]),
                         sum(1 << _OVERS.index(o) for o in overs[i:i + size - 1] if o)))
    return tuple(runs)


_RUNS = tuple(_line_runs(line, overs) for line, overs in STRAIGHT_LINES)


def _core_counts() -> tuple[tuple[int, ...], ...]:
    """Tables that count, for a mask, how many of each line's second and third
    points it holds (every run of three or more holds both): two bits per line,
    line i at bits 2i and 2i + 1, one table per 10-bit third of the mask."""
    per_point = [0] * 30
    for i, (line, _) in enumerate(STRAIGHT_LINES):
        for p in line[1:3]:
            per_point[p] += 1 << 2 * i
    tables = []
    for shift in (0, 10, 20):
        table = [0] * 1024
        for v in range(1, 1024):
            low = v & -v
            table[v] = table[v ^ low] + per_point[shift + low.bit_length() - 1]
        tables.append(tuple(table))
    return tuple(tables)


_CORE_COUNTS = _core_counts()
#: The high bit of each line's two-bit count: set when both core points are held.
_BOTH = sum(2 << 2 * i for i in range(len(STRAIGHT_LINES)))
_OPEN: dict[int, tuple[tuple[int, ...], ...]] = {}


def open_runs(occupied: int) -> tuple[tuple[int, ...], ...]:
    """Per straight line, its runs in view (no hidden point, no contact cut by an
    overpass), longest first.

    Hidden points and cut contacts depend only on the balls above the board, so
    the table is memoised on them (a few thousand entries at most).
    """
    key = occupied >> 16
    found = _OPEN.get(key)
    if found is None:
        hidden = hidden_mask(occupied)
        cut = sum(1 << i for i, o in enumerate(_OVERS) if occupied & o == o)
        found = _OPEN[key] = tuple(
            tuple(mask for mask, crossed in line if not mask & hidden and not crossed & cut)
            for line in _RUNS)
    return found


def line_masks(mine: int, occupied: int) -> list[int]:
    """The lines of the balls ``mine``: on each straight line, its longest run of
    three or more of them, each in view and joined to the next by a contact in
    view.  (On a line of four, two runs of three that both hold make the run
    of four, which is tried first.)"""
    counts = _CORE_COUNTS
    both = (counts[0][mine & 1023] + counts[1][mine >> 10 & 1023]
            + counts[2][mine >> 20]) & _BOTH
    if not both:
        return []
    runs_of = _OPEN.get(occupied >> 16) or open_runs(occupied)
    found = []
    while both:
        low = both & -both
        both ^= low
        for run in runs_of[(low.bit_length() >> 1) - 1]:
            if mine & run == run:
                found.append(run)
                break
    return found


def lines_of(position: Position, colour: int) -> list[int]:
    """Masks of the lines of a colour: longest runs of three or more balls along a
    straight line, each in view and joined to the next by a contact in view.

    >>> pos = Position('..../..../..../BBBB|.../.../...|../..|.')
    >>> [' '.join(point_name(p) for p in points_of(m)) for m in lines_of(pos, BLACK)]
    ['a1 c1 e1 g1']
    """
    return line_masks(position.mask(colour), position.occupied)


def lift(occupied: int, balls: int, p: int) -> tuple[int, int]:
    """Occupancy and the line's balls (``balls``, followed as they drop) after
    taking away the ball at p (as :meth:`Position.remove` drops its column)."""
    balls &= ~(1 << p)
    gap, above = p, SUPPORTED_MASK[p] & occupied
    while above:
        # Below a ball that is not pinned, one ball at most rests on each gap.
        q = above.bit_length() - 1
        if balls >> q & 1:
            balls ^= 1 << q | 1 << gap
        gap, above = q, SUPPORTED_MASK[q] & occupied
    return occupied & ~(1 << gap), balls


def _pinned_among(occupied: int, balls: int) -> bool:
    """Whether a ball of ``balls`` has two or more balls resting on it."""
    while balls:
        low = balls & -balls
        above = SUPPORTED_MASK[low.bit_length() - 1] & occupied
        if above & (above - 1):
            return True
        balls ^= low
    return False


def most_removable(occupied: int, balls: int) -> int:
    """The most balls of ``balls`` that can be taken away one after another.

    Only balls that are not pinned can go, and taking one drops the balls
    above it, which can free a ball that was pinned: the order matters.  A
    removal only empties a point, so it never pins a ball: when none of the
    balls is pinned, all of them can go.
    """
    if not _pinned_among(occupied, balls):
        return balls.bit_count()
    return _most_removable(occupied, balls)


@lru_cache(maxsize=1 << 16)
def _most_removable(occupied: int, balls: int) -> int:
    best = 0
    for p in points_of(balls):
        above = SUPPORTED_MASK[p] & occupied
        if not above & (above - 1):
            best = max(best, 1 + most_removable(*lift(occupied, balls, p)))
            if best == balls.bit_count():
                break
    return best


def best_removals(occupied: int, balls: int) -> int:
    """Mask of the balls whose removal now keeps the most removable in reach."""
    if not _pinned_among(occupied, balls):
        return balls                     # every ball can go, in any order
    goal, out = _most_removable(occupied, balls), 0
    for p in points_of(balls):
        above = SUPPORTED_MASK[p] & occupied
        if not above & (above - 1) and 1 + most_removable(*lift(occupied, balls, p)) == goal:
            out |= 1 << p
    return out if goal else 0


def _lines_to_clear(mine: int, occupied: int) -> tuple[tuple[int, int], ...]:
    """The lines the mover must clear after placing (``(points, balls)``, sorted):
    their lines from which a ball can be taken."""
    found = line_masks(mine, occupied)
    if not found:
        return ()
    return tuple(sorted((m, m) for m in found if most_removable(occupied, m)))


def _clearing_options(occupied: int, lines) -> tuple[int, int, list[int]]:
    """While clearing: (balls that may be taken, points for the red ball, each
    line's best removals)."""
    removals, spots, bests = 0, 0, []
    for points, balls in lines:
        best = best_removals(occupied, balls)
        bests.append(best)
        if best:
            removals |= best
        else:
            playable = playable_bits(occupied)
            spots |= playable & points or playable
    return removals, spots, bests


def _after_removal(occupied: int, lines, p: int, bests) -> tuple[tuple[int, int], ...]:
    """The lines still being cleared once the ball at p is taken (``bests``: each
    line's best removals before): those it was a best removal of, followed."""
    return tuple(sorted((points, lift(occupied, balls, p)[1])
                        for (points, balls), best in zip(lines, bests) if best >> p & 1))


@dataclass(frozen=True)
class SpredState(State):
    ply: int = 0
    """Actions played so far."""
    reds: tuple[int, int] = (RED_STOCK, RED_STOCK)
    """Red balls in White's and Black's hands."""
    lines: tuple[tuple[int, int], ...] = ()
    """While the mover clears a line: ``(points, balls)`` for each line the
    removals so far could belong to, ``points`` the line as it was made and
    ``balls`` where its remaining balls are now.  Empty otherwise."""


def _names(mask: int) -> str:
    return "-".join(point_name(p) for p in points_of(mask))


@register
class Spred(Game):
    info = GameInfo(
        name="Spred", designer="Néstor Romeral Andrés", year="2012",
        family="Elimination", source="Annexe 1 of the French edition of the Shibumi Rule Book",
        summary="Place your colour; a straight line of three of it is cleared and you put "
                "down one of your eight red balls. The first to place all eight wins.",
        complexity=3, max_length=150)

    rules = """\
Two players, White and Black, start with an empty board and eight red balls
each, in view. Balls of your own colour never run out: any that are taken
away go back to their owner. White begins.

On your turn place one ball of your colour (never a red one) on a playable
point: an empty hole, or the hollow on top of a complete 2x2 platform.

Then look for lines of your colour. A line is three or more balls of your
colour in a straight line, each touching the next: along a row or a column
of one level (balls side by side diagonally on a level do not touch), or
climbing straight up or down the levels, one level at every ball, like the
ridge from a board corner to the apex. Every ball of a line must be in view
from above, and so must each contact along it: two touching balls on the
level above that pass over a contact cut the line there.

If you have at least one line (made by this ball or already there), you
must clear one of them:

1. Choose the line and take away as many of its balls as can be taken, one
   at a time (written `xa1`). A ball with two or more balls resting on it is
   pinned and cannot go; a ball resting on a ball you take drops into the
   gap, and a line ball that drops is still one of the line's balls. Taking
   them in a good order can free pinned balls, and you must reach the
   largest number possible (the board only offers the balls that keep it in
   reach). Balls of your colour that were not in the line stay.
2. Then place one of your red balls on a point where a ball of the line
   stood and that is now empty and playable. If every such point has been
   filled again by dropping balls, place the red ball on any playable point.

The game ends as soon as a player has placed the last red ball (that player
wins), or when the player to move cannot place a ball because the pyramid is
full. Then whoever has fewer red balls in hand wins; equal numbers are a
draw.
"""
    notes = """\
* Source: Annexe 1 of the French edition, a game of 2012 derived from the
  designer's board game Lot. Nothing was found about it beyond the annex,
  which has no figure for it.
* "Straight line of three or more connected balls (in contact)": straight in
  space. On a level that means a row or a column (the text excludes diagonal
  neighbours on one level); across the levels, a line that climbs one level
  at every ball, as along the four ridges and twelve shorter lines across the
  faces and through the middle. A zigzag between two levels, straight only
  from above, is not a line. "Connected" is read as the rule book defines
  it: in view, so a hidden ball is in no line and an overpass cuts one.
* A line is the whole run: four in a row is one line of four, not two lines
  of three, so all four are taken if they can be.
* Any line of the mover's colour counts, not only one through the new ball
  (the text: "if there is at least one line"). Only one is cleared per turn;
  others stay for the mover's next turn. Lines are checked only after the
  mover's own placement: a drop that makes a line for the opponent waits for
  the opponent's next placement.
* "Remove the greatest number of movable balls of the line, finding the
  order that removes the most": movable means not pinned (resting under two
  or more balls), checked at each removal. We follow the balls as they drop:
  a line ball that drops into a gap is still a ball of the line and may be
  taken next. Each removal is one action; the board offers only the balls
  after which the greatest number can still be reached, so the opponent's
  reminder in the text ("he may point out the best removal") is built in.
  A line none of whose balls could be taken would not be one to clear, but
  there is none: a flat line reaches the edge of its level, where an end
  ball can only be pinned by the two balls that cut its contact, and the top
  ball of a sloped line carries nothing but, perhaps, the apex.
* Choosing the line is done by the removals: when two lines cross, taking
  their shared ball first leaves both open until a removal, or the red ball,
  settles which one was cleared.
* "Place a red ball on one of the free points that made up the line": a
  point of the line as it was made that is empty and playable after the
  removals. Drops can fill every such point again (a row of board balls each
  carrying a ball that drops into it); the text does not cover that, and we
  let the red ball go on any playable point, so that every clearing costs a
  red ball, which is what makes the game end.
* "No more possible moves": only a full pyramid stops a player, since their
  own balls never run out. Fewer red balls in hand wins; the text does not
  settle equal numbers, which we call a draw.
* Length: each clearing takes at most four balls (no straight line is
  longer) and costs a red ball, and at most fifteen red balls are placed
  before someone has none. With P placements, X removals and R red balls,
  the board holds P + R - X <= 30 balls, so a game has at most
  P + X + R <= 30 + 2X <= 150 actions.
* Stocks: the set has 16 white and 16 black balls; the text makes the
  players' own colours inexhaustible, so no stock of them is counted.
"""

    # -- the rules -------------------------------------------------------------
    def initial_state(self, rng=None) -> SpredState:
        return SpredState()

    def length(self, state) -> int:
        return state.ply

    def legal_moves(self, state, player=None):
        if state.result is not None:
            return []
        occupied = state.position.occupied
        if not state.lines:
            row = PLACE_MOVES[PLAYER_COLOURS[state.to_move]]
            return [row[p] for p in playable_points(occupied)]
        removals, reds, _ = _clearing_options(occupied, state.lines)
        return [REMOVE_MOVES[p] for p in points_of(removals)] + \
               [PLACE_MOVES[RED][p] for p in points_of(reds)]

    @staticmethod
    def red_points(occupied: int, points: int) -> int:
        """Where the red ball may go after clearing the line on ``points``."""
        playable = playable_bits(occupied)
        return playable & points or playable

    def apply(self, state, move: Move):
        ply, mover, pos = state.ply + 1, state.to_move, state.position
        masks = [pos.white, pos.black, pos.red]
        if move.kind == "remove":
            occupied = pos.occupied
            lines = _after_removal(occupied, state.lines, move.point,
                                   [best_removals(occupied, balls) for _, balls in state.lines])
            remove_ball(masks, occupied, move.point)
            return SpredState(Position.from_masks(*masks), mover, None, move, ply, state.reds,
                              lines)
        position = pos.place(move.point, move.colour)
        if move.colour == RED:
            reds = list(state.reds)
            reds[mover] -= 1
            return self._next_turn(position, mover, move, ply, tuple(reds))
        lines = _lines_to_clear(position.mask(move.colour), position.occupied)
        if lines:
            return SpredState(position, mover, None, move, ply, state.reds, lines)
        return self._next_turn(position, mover, move, ply, state.reds)

    def _next_turn(self, position, mover, move, ply, reds) -> SpredState:
        return SpredState(position, 1 - mover, self._end(reds, (), position.occupied), move,
                          ply, reds)

    def _result(self, state) -> Outcome | None:
        """The end: a player without red balls, or a full pyramid at a turn's start."""
        return self._end(state.reds, state.lines, state.position.occupied)

    def _end(self, reds, lines, occupied) -> Outcome | None:
        """The outcome with these red balls in hand, lines to clear and occupancy."""
        if min(reds) > 0 and (lines or occupied != ALL_MASK):
            return None
        why = ("the pyramid is full" if min(reds) > 0
               else f"{self.player_name(reds.index(0))} has placed every red ball")
        scores = (float(reds[0]), float(reds[1]))
        if reds[0] == reds[1]:
            return Outcome((), f"{why}; both hold {reds[0]} red balls", scores, ((0, 1),))
        winner = 0 if reds[0] < reds[1] else 1
        return Outcome((winner,), f"{why}; {self.player_name(winner)} holds fewer red "
                                  f"balls ({reds[winner]} to {reds[1 - winner]})",
                       scores, ((winner,), (1 - winner,)))

    def random_playout(self, state, rng):
        """Same games as the generic loop (the same draws over the same moves), on
        colour masks; the state is built once, at the end."""
        if state.result is not None:
            return state
        rnd, pos = rng.random, state.position
        masks = [pos.white, pos.black, pos.red]
        occupied, mover, ply = pos.occupied, state.to_move, state.ply
        reds, lines, last = list(state.reds), state.lines, state.last
        low, middle, high = _CORE_COUNTS
        rows = tuple(PLACE_MOVES[c] for c in PLAYER_COLOURS)
        while True:
            ply += 1
            if not lines:                               # a placement of the mover's colour
                choice = playable_points(occupied)
                p = choice[int(rnd() * len(choice))]
                mine = masks[mover] = masks[mover] | 1 << p
                occupied |= 1 << p
                last = rows[mover][p]
                # line_masks' first test, inline: no line without a core held.
                if (low[mine & 1023] + middle[mine >> 10 & 1023] + high[mine >> 20]) & _BOTH:
                    lines = _lines_to_clear(mine, occupied)
                    if lines:
                        continue
                mover ^= 1
                if occupied == ALL_MASK:
                    break
                continue
            if len(lines) == 1:                         # the usual case, in short
                points, balls = lines[0]
                removals = best_removals(occupied, balls)
                if removals:
                    k = int(rnd() * removals.bit_count())
                    for _ in range(k):
                        removals &= removals - 1
                    p = (removals & -removals).bit_length() - 1
                    occupied, column = remove_ball(masks, occupied, p)
                    balls &= ~(1 << p)
                    if column:
                        balls = follow_column(balls, p, column)
                    lines = ((points, balls),)
                    last = REMOVE_MOVES[p]
                    continue
                playable = playable_bits(occupied)
                spots = playable & points or playable
                k = int(rnd() * spots.bit_count())
            else:
                removals, spots, bests = _clearing_options(occupied, lines)
                k = int(rnd() * (removals.bit_count() + spots.bit_count()))
                if k < removals.bit_count():            # a ball of a line goes
                    p = nth_point(removals, k)
                    lines = _after_removal(occupied, lines, p, bests)
                    occupied = remove_ball(masks, occupied, p)[0]
                    last = REMOVE_MOVES[p]
                    continue
            p = nth_point(spots, k - removals.bit_count())     # the red ball ends the turn
            masks[2] |= 1 << p
            occupied |= 1 << p
            last, lines = PLACE_MOVES[RED][p], ()
            reds[mover] -= 1
            mover ^= 1
            if not reds[mover ^ 1] or occupied == ALL_MASK:
                break
        reds = tuple(reds)
        return SpredState(Position.from_masks(*masks), mover, self._end(reds, (), occupied),
                          last, ply, reds)

    # -- text ------------------------------------------------------------------
    def status_lines(self, state) -> list[str]:
        """Red balls in hand, and what is left of a line being cleared."""
        white, black = state.reds
        lines = [f"Red balls in hand: White {white}, Black {black} "
                 "(the first to place all of theirs wins)."]
        if state.result is None and state.lines:
            me = self.player_name(state.to_move)
            occupied = state.position.occupied
            owed = max(most_removable(occupied, balls) for _, balls in state.lines)
            if owed:
                lines.append(f"{me} clears a line: {owed} more ball{'s' * (owed > 1)} "
                             "to take away (the most that can be taken), then a red "
                             "ball to place.")
            else:
                lines.append(f"{me} has cleared a line: place a red ball where it stood.")
        return lines

    def extra_text(self, state) -> str:
        fields = write_fields(ply=state.ply, white_reds=state.reds[0],
                              black_reds=state.reds[1])
        return " ".join([fields] + [f"line={_names(points)}/{_names(balls)}"
                                    for points, balls in state.lines])

    def state_from(self, position, to_move, extras):
        tokens = extras.split()
        rest = " ".join(t for t in tokens if not t.startswith("line="))
        fields = read_fields(self, rest, numbers=("ply", "white_reds", "black_reds"))
        given = {"white_reds", "black_reds"} & {t.partition("=")[0] for t in tokens}
        reds = tuple(fields[k] if k in given else RED_STOCK
                     for k in ("white_reds", "black_reds"))
        if not all(0 <= r <= RED_STOCK for r in reds):
            raise NotationError(f"Spred state: red balls in hand are 0-{RED_STOCK}, "
                                f"got {reds[0]} and {reds[1]}")
        if position.count(RED) != 2 * RED_STOCK - sum(reds):
            raise NotationError(f"Spred state: {position.count(RED)} red balls on the "
                                f"pyramid, but the hands hold {sum(reds)} of 16")
        colour = PLAYER_COLOURS[to_move]
        lines = tuple(sorted(self._read_line(t[5:], position, colour)
                             for t in tokens if t.startswith("line=")))
        state = SpredState(position, to_move, None, None, fields["ply"], reds, lines)
        state = dataclasses.replace(state, result=self._result(state))
        if state.result is None and not self.legal_moves(state):
            raise NotationError(f"Spred state {shown(extras)}: the player to move has "
                                "no legal move")
        return state

    def _read_line(self, text, position, colour) -> tuple[int, int]:
        where, slash, now = text.partition("/")
        try:
            points, balls = (sum(1 << parse_point(n) for n in part.split("-") if n)
                             for part in (where, now))
        except NotationError as err:
            raise NotationError(f"Spred state line {shown(text)}: {err}") from None
        if not slash or points not in RUN_MASKS:
            raise NotationError(f"Spred state line {shown(text)}: write the line's points "
                                "(three or more in a straight line), '/', then where its "
                                "remaining balls are, e.g. line=a1-c1-e1/c1-e1")
        if balls & ~position.mask(colour) or balls.bit_count() > points.bit_count():
            raise NotationError(f"Spred state line {shown(text)}: its remaining balls "
                                f"must be {COLOUR_NAMES[colour]} balls, no more than the "
                                "line had")
        if balls == points and not most_removable(position.occupied, balls):
            raise NotationError(f"Spred state line {shown(text)}: no ball of it can be "
                                "taken, so it is not a line to clear")
        return points, balls

    def transform_state(self, state, perm):
        state = super().transform_state(state, perm)
        lines = tuple(sorted((transform_mask(a, perm), transform_mask(b, perm))
                             for a, b in state.lines))
        return dataclasses.replace(state, lines=lines)


__all__ = ["Spred", "STRAIGHT_LINES", "lines_of", "lift", "most_removable",
           "best_removals"]
