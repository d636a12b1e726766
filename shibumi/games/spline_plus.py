"""Spline+: Spline with a second kind of turn, moving one of your balls."""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..bits import lift_ball, nth_point, playable_cached, position_of
from ..errors import NotationError, UnknownGameError, is_number, shown
from ..game import Game, GameInfo, Outcome, State, replace
from ..geometry import (LEVEL_MASK, LINE_MASKS, LINES_THROUGH, NUM_POINTS, SUPPORT_MASK,
                        SUPPORTED_MASK, points_of)
from ..mechanics import KO, NONE, SUPERKO
from ..notation import PLACE, Move
from ..position import BLACK, WHITE, Position
from ..registry import register
from .placement import PLACE_MOVES, sole_winner

COLOURS = (WHITE, BLACK)
#: Balls of each colour in a set: a player with this many in play can only move.
BALLS = 16

#: A proven bound on the number of actions under superko (see the notes and
#: tests/test_game_spline_plus.py, which recomputes it): every position met
#: before the end is a distinct stable two-colour position with at most 16
#: balls of each colour and at most one ball of each colour on level 2.
SUPERKO_BOUND = 10_570_610_553


def longest_line(mine: int) -> int:
    """Balls in the longest full-length line inside a mask (0 when none)."""
    best = 0
    for line in LINE_MASKS:
        if mine & line == line:
            best = max(best, line.bit_count())
    return best


def longest_lines(mine: int) -> int:
    """The union of the longest full-length lines inside a mask (0 when none)."""
    best, out = longest_line(mine), 0
    for line in LINE_MASKS:
        if mine & line == line and line.bit_count() == best:
            out |= line
    return out


#: RELOCATE_MOVES[source][target], interned once (None where source == target).
RELOCATE_MOVES = tuple(tuple(Move.relocate(s, t) if s != t else None for t in range(NUM_POINTS))
                       for s in range(NUM_POINTS))


def _relocation_options(mine: int, theirs: int, playable: int) -> list:
    """``(source, own, other, targets)`` for each ball of ``mine`` that can move,
    sources in point order, targets as a mask (the order of ``legal_moves``).

    ``playable`` is the playable mask of the position.  A free ball (nothing
    on it) leaves the playable points as they were, less those it supported;
    a ball carrying one ball lets the column drop (see :func:`~shibumi.bits.lift_ball`); a ball
    carrying more is pinned.  No target rebuilds the position: a free ball may
    not go back where it was, and after a drop the vacated top rests on a
    ball that fell.
    """
    occ = mine | theirs
    options = []
    m = mine
    while m:
        low = m & -m
        m ^= low
        source = low.bit_length() - 1
        sup = SUPPORTED_MASK[source]
        above = sup & occ
        if not above:
            targets = playable & ~sup
            if targets:
                options.append((source, mine ^ low, theirs, targets))
        elif not above & (above - 1):
            own, other, fell = lift_ball(source, mine, theirs, occ)
            targets = playable_cached(own | other) & ~fell
            if targets:
                options.append((source, own, other, targets))
    return options


def _strike_repeats(options: list, banned: dict) -> list:
    """The options without targets that rebuild a barred position.

    ``banned`` maps an opponent mask to the mover's masks barred with it: a
    target t is barred when ``own | 1 << t`` is one of them.
    """
    out = []
    for source, own, other, targets in options:
        for barred in banned.get(other, ()):
            extra = barred ^ own
            if not extra & own and not extra & (extra - 1):
                targets &= ~extra
        if targets:
            out.append((source, own, other, targets))
    return out


def _bars(seen) -> tuple[dict, dict]:
    """The positions in ``seen`` ((white, black) pairs) as each player would
    rebuild them, as :func:`_strike_repeats` reads them: for White, black
    mask -> white masks; for Black, white mask -> black masks."""
    bars: tuple[dict, dict] = ({}, {})
    for w, b in seen:
        _bar(bars, w, b)
    return bars


def _bar(bars: tuple[dict, dict], white: int, black: int) -> None:
    """Add a position to :func:`_bars`."""
    bars[0].setdefault(black, []).append(white)
    bars[1].setdefault(white, []).append(black)


def _banned(rule: str, seen, mover: int) -> dict:
    """The positions the cycle rule bars for the mover (see :func:`_bars`).

    The current position is never rebuilt by a relocation, so superko
    needs only the earlier ones, and ko the one the mover left last time.
    """
    if rule == KO:
        seen = seen[-1:]
    elif rule != SUPERKO:
        return {}
    return _bars(seen)[mover]


def _line_through(mask: int, points: int) -> bool:
    """Whether ``mask`` holds a full line through one of ``points``."""
    while points:
        low = points & -points
        points ^= low
        for line in LINES_THROUGH[low.bit_length() - 1]:
            if mask & line == line:
                return True
    return False


#: The points above the board: only balls there rest on others.
_UPPER = ((1 << NUM_POINTS) - 1) & ~LEVEL_MASK[0]
#: For each point, (bit, platform) of each point resting on it: its bit and its four supports.
_RESTING = tuple(tuple((1 << q, SUPPORT_MASK[q]) for q in range(NUM_POINTS)
                       if SUPPORT_MASK[q] >> p & 1) for p in range(NUM_POINTS))


def _put(playable: int, occupied: int, p: int) -> int:
    """The playable points once a ball is put on the playable point p (``occupied``
    includes it): p is filled, and a platform it completes opens the point above."""
    playable &= ~(1 << p)
    for above, platform in _RESTING[p]:
        if occupied & platform == platform:
            playable |= above
    return playable


@dataclass(frozen=True)
class SplinePlusState(State):
    """A Spline+ state: the position plus what the cycle rule needs.

    ``seen`` holds the positions left by the last placement and by the moves
    since, oldest first, the current position excepted (a placement adds a
    ball, so no earlier position can come back); ``ply`` counts the actions
    played.
    """
    ply: int = 0
    seen: tuple[Position, ...] = ()


@register
class SplinePlus(Game):
    info = GameInfo(
        name="Spline+", designer="Néstor Romeral Andrés", year="2011",
        family="N-in-a-row", source="Shibumi Rule Book (2012)",
        summary="Spline where a turn may instead move one of your balls; "
                "drops can hand the win to either side.",
        complexity=2, aliases=("spline plus", "splineplus", "spline_plus"),
        max_length=SUPERKO_BOUND)
    parameters = {"cycle": SUPERKO}

    rules = """\
Two players, White then Black, start with an empty board. On your turn do
one of two things:

* put a new ball of your colour on any playable point (an empty hole, or
  the hollow on top of four touching balls), or
* pick up one of your balls that is not pinned (a ball with two or more
  balls resting on it is pinned) and put it on another playable point.
  Lifting a ball lets the ball resting on it, if any, fall into the gap,
  and the one above that falls in turn. The ball you lifted may not be put
  on top of a ball that fell during this move.

A full-length line of one colour on any level wins: 4 in a row on the
board, 3 on level 1, 2 on level 2, along a row, a column or a diagonal.
Falling balls can complete lines for either colour, even your opponent's.
When lines appear for both colours at once, the longer line wins; lines
of equal length go to the player who moved. A line of your opponent's
colour alone wins for your opponent.

A turn may not bring back a position already seen since the last new ball
was put in play, so the game cannot go round in circles (see the notes
for the other choices).

Each player has the 16 balls of their colour: once all of yours are in
play, your turn must be a move of a ball. A player with no legal turn
loses.
"""
    notes = """\
* Who wins when several lines appear. The book's rule is followed (a
  later designer note confirms it): the longest line wins, and the mover
  wins a tie. Another implementation simply takes the first line it finds;
  that is a deviation, not a reading. The rule is applied to the colours:
  each colour's longest line is compared, so two lines of the mover's
  colour count as one.
* A move that makes a line for the opponent only (a drop completes the
  enemy's row while the mover gets none) loses: the book's tie-break speaks
  of lines of both colours, and its example is a move that loses because
  the enemy's line is longer. This is the reading, not a quoted rule.
* The book's lost figure (a losing move for Black) is rebuilt in the tests:
  Black lifts c1, the white ball on d2 falls into c1 and completes White's
  board row a1-g1 (4 balls), while the black ball on e3.2 falls into d2 and
  completes Black's level-1 column d2-d6 (3 balls). White wins.
* A moved ball may not land on a ball that fell during the same move (the
  book's rule against rebuilding the column just lowered), and a move must
  change the position (lifting a free ball and putting it back is no move).
* Cycles. The book's rule against restacking on dropped balls does not stop
  two players from shuffling free balls back and forth for ever. The default,
  superko, forbids any turn that recreates a position seen earlier in the game
  (only positions since the last placement can recur, since a placement adds a
  ball), and under it every game ends. Two variants are offered, ko (no turn
  may recreate the position its mover left last time) and no cycle rule at all
  (the book's text alone); under them a game can in principle go on for ever.
  Ko catches little here: to rebuild the position you left last turn you would
  have to undo your opponent's move, and you may only move your own balls.
* Supply. A set has 16 balls of each colour, and a player with 16 in play
  may only move a ball (the book never says what happens then; this is
  the physical limit). Position text with more than 16 of a colour is
  refused.
* Being stuck. A player below 16 balls always has a placement: a
  position with no line has at most one ball of each colour on level 2
  (any two level-2 points form a line), so the apex stays empty and the
  pyramid is never full. A player at 16 with no history to respect also
  always has a move, by cases. A ball of theirs on level 2 can go to any
  playable point. With none there, every ball of theirs on level 1 is
  unpinned (it carries at most the opponent's one level-2 ball). If a hole
  is empty, such a ball can go into it, and without one all 16 balls
  would be on a board that has a hole. If the board is full and a level-1
  point is empty, a level-1 ball can go there, and without one the board
  would hold 16 balls of one colour. If the board and level 1 are full,
  every level-1 ball except d4.1 has an empty level-2 point to go to
  (d4.1 alone carries all four, and a ball dropped into its place bars
  them all), so the other 15 balls would be on the board, which then
  holds a line. The tests check this on random positions.
* Superko, however, can take every move away from a player at 16: the
  tests replay a game where Black, moving balls rather than placing,
  leaves White at 16 balls with every possible move barred as a repeat.
  A random search from positions with a player at 16 found such games;
  random games from the start hardly ever get there (in 1,000 of them no
  player had more than 13 balls in play). The rule chosen: a player with
  no legal turn loses, and the game ends as soon as the player to move is
  in that state. A pass would need a cycle rule of its own; losing
  matches games such as Sploof, where a player who cannot move loses.
* Length. Under superko the positions of a game are distinct (the ball count
  never falls, and positions with the same count come after the same
  placement, where superko keeps them apart), and all but the last are stable
  two-colour positions without a line, with at most 16 balls of a colour and
  at most one of each colour on level 2. Counting those bounds the length: the
  longest game on the card is that count, not a length any real game
  approaches. The supply limit lowered it from 11,063,595,617 to
  10,570,610,553; a game that ends with a player stuck obeys the same bound.
* Hidden balls count in lines, as in Spline.
"""

    def __init__(self, **params) -> None:
        super().__init__(**params)
        if self.params["cycle"] not in (NONE, KO, SUPERKO):
            raise UnknownGameError(
                f"Spline+ cycle rule must be one of none, ko, superko, "
                f"not {self.params['cycle']!r}")

    def initial_state(self, rng: random.Random | None = None) -> State:
        return SplinePlusState()

    def length(self, state: State) -> int:
        return state.ply

    def transform_state(self, state: State, perm: tuple[int, ...]) -> State:
        turned = super().transform_state(state, perm)
        return replace(turned, seen=tuple(p.transform(perm) for p in state.seen))

    # -- moves -------------------------------------------------------------
    def _options(self, state: State) -> tuple[int, list]:
        """The placements (a mask) and relocations (see :func:`_relocation_options`)
        open to the player to move, barred repeats struck out."""
        pos, mover = state.position, state.to_move
        mine, theirs = (pos.white, pos.black) if mover == 0 else (pos.black, pos.white)
        playable = playable_cached(pos.occupied)
        options = _relocation_options(mine, theirs, playable)
        if state.seen:
            seen = [(p.white, p.black) for p in state.seen]
            banned = _banned(self.params["cycle"], seen, mover)
            if banned:
                options = _strike_repeats(options, banned)
        places = playable if mine.bit_count() < BALLS else 0
        return places, options

    def legal_moves(self, state: State, player: int | None = None) -> list[Move]:
        if state.result is not None:
            return []
        places, options = self._options(state)
        row = PLACE_MOVES[COLOURS[state.to_move]]
        moves = [row[p] for p in points_of(places)]
        for source, _, _, targets in options:
            row = RELOCATE_MOVES[source]
            moves += [row[t] for t in points_of(targets)]
        return moves

    def apply(self, state: State, move: Move) -> State:
        mover = state.to_move
        pos = state.position
        if move.kind == PLACE:
            position = pos.place(move.point, move.colour)
            result = self._placement_result(position, move.point, mover)
            seen = ()
        else:
            mine, theirs = (pos.white, pos.black) if mover == 0 else (pos.black, pos.white)
            own, other, _ = lift_ball(move.point, mine, theirs, pos.occupied)
            own |= 1 << move.target
            position = position_of(own, other) if mover == 0 else position_of(other, own)
            # Only a point that gained a ball of a colour can complete its line.
            result = None
            if _line_through(own, own & ~mine) or _line_through(other, other & ~theirs):
                result = self.result_after(position, mover)
            seen = () if self.params["cycle"] == NONE else state.seen + (pos,)
        after = SplinePlusState(position, 1 - mover, result, move, state.ply + 1, seen)
        return self._stuck(after) if result is None else after

    def _stuck(self, state: State) -> State:
        """The state, finished if the player to move is at the cap with no move."""
        if state.position.mask(COLOURS[state.to_move]).bit_count() < BALLS \
                or self.legal_moves(state):
            return state
        return replace(state, result=self._stuck_outcome(state.to_move))

    def _stuck_outcome(self, player: int) -> Outcome:
        return Outcome((1 - player,), f"{self.player_name(player)} has all {BALLS} balls "
                                      f"in play and no legal move")

    def random_playout(self, state: State, rng: random.Random) -> State:
        """The generic loop's games on raw masks: each step lists the same moves
        in the same order as ``legal_moves`` (placements, then relocations by
        source and target, barred repeats struck out) and takes the same draw."""
        if state.result is not None:
            return state
        rnd = rng.random
        rule = self.params["cycle"]
        white, black = state.position.white, state.position.black
        mover, ply = state.to_move, state.ply
        history = [(p.white, p.black) for p in state.seen]
        superko = rule == SUPERKO
        bars = _bars(history)             # kept up to date under superko
        move = state.last
        banned: dict = {}
        # The playable points are followed from step to step (a lift empties the
        # top of a column and unsupports the points on it; a ball put down fills
        # its point and may complete platforms), not looked up.
        playable = playable_cached(white | black)
        while True:
            mine, theirs = (white, black) if mover == 0 else (black, white)
            occ = white | black
            if history:
                banned = bars[mover] if superko else _banned(rule, history, mover)
            elif banned:
                banned = {}
            places = playable if mine.bit_count() < BALLS else 0
            total = n_places = places.bit_count()
            # The relocations counted in bulk (what _relocation_options and
            # _strike_repeats list): a free ball (nothing on it) may go to every
            # playable point but those resting on it; a ball carrying one is lifted
            # and counted alone; a ball carrying more is pinned. (This is
            # bits.carried, looped over the few balls above the board: calling
            # carried here made the playout 1.3x slower.)
            covered = pinned = 0
            u = occ & _UPPER
            while u:
                low = u & -u
                u ^= low
                sm = SUPPORT_MASK[low.bit_length() - 1]
                pinned |= covered & sm
                covered |= sm
            free = mine & ~covered
            total += free.bit_count() * playable.bit_count()
            u = playable & _UPPER
            while u:
                low = u & -u
                u ^= low
                total -= (SUPPORT_MASK[low.bit_length() - 1] & free).bit_count()
            struck = None                  # free source -> targets barred by the cycle rule
            if banned:
                near = banned.get(theirs)
                if near:
                    for barred in near:
                        # Barred is own | t for own = mine less one free source s.
                        s_bit = mine & ~barred
                        t_bit = barred & ~mine
                        if s_bit & free and not s_bit & (s_bit - 1) \
                                and t_bit and not t_bit & (t_bit - 1):
                            source = s_bit.bit_length() - 1
                            if t_bit & playable & ~SUPPORTED_MASK[source]:
                                if struck is None:
                                    struck = {}
                                if not struck.get(source, 0) & t_bit:
                                    struck[source] = struck.get(source, 0) | t_bit
                                    total -= 1
            carrying = {}
            m = mine & covered & ~pinned
            while m:
                low = m & -m
                m ^= low
                source = low.bit_length() - 1
                own, other, fell = lift_ball(source, mine, theirs, occ)
                top = occ ^ (own | other)                    # the one point left empty
                after = (playable | top) & ~SUPPORTED_MASK[top.bit_length() - 1]
                targets = after & ~fell
                if banned:
                    for barred in banned.get(other, ()):
                        extra = barred ^ own
                        if not extra & own and not extra & (extra - 1):
                            targets &= ~extra
                total += targets.bit_count()
                carrying[source] = (targets, (own, other, after))
            if not total:         # at the cap with no legal move
                return SplinePlusState(position_of(white, black), mover,
                                       self._stuck_outcome(mover), move, ply,
                                       tuple(position_of(w, b) for w, b in history))
            k = int(rnd() * total)
            ply += 1
            if k < n_places:
                point = nth_point(places, k)
                mine |= 1 << point
                white, black = (mine, theirs) if mover == 0 else (theirs, mine)
                move = PLACE_MOVES[COLOURS[mover]][point]
                if history:
                    history, bars = [], ({}, {})
                for line in LINES_THROUGH[point]:         # _line_through, inlined
                    if mine & line == line:
                        break
                else:
                    line = 0
                if line:
                    break
                playable = _put(playable, occ | 1 << point, point)
                mover = 1 - mover
                continue
            k -= n_places
            m = free | (mine & covered & ~pinned)
            while True:                   # the movable balls in order, to the k-th move
                low = m & -m
                m ^= low
                source = low.bit_length() - 1
                if low & free:
                    targets = playable & ~SUPPORTED_MASK[source]
                    if struck:
                        targets &= ~struck.get(source, 0)
                    lifted = None
                else:
                    targets, lifted = carrying[source]
                n = targets.bit_count()
                if k < n:
                    break
                k -= n
            if lifted is None:
                own, other = mine & ~(1 << source), theirs
                after = (playable | 1 << source) & ~SUPPORTED_MASK[source]
            else:
                own, other, after = lifted
            target = nth_point(targets, k)
            if rule != NONE:
                history.append((white, black))
                if superko:                               # _bar, inlined
                    bars[0].setdefault(black, []).append(white)
                    bars[1].setdefault(white, []).append(black)
            own |= 1 << target
            white, black = (own, other) if mover == 0 else (other, own)
            move = RELOCATE_MOVES[source][target]
            dropped = other & ~theirs                     # the opponent's balls that fell
            if _line_through(own, own & ~mine) or dropped and _line_through(other, dropped):
                break
            playable = _put(after, own | other, target)
            mover = 1 - mover
        position = position_of(white, black)
        return SplinePlusState(position, 1 - mover, self.result_after(position, mover),
                               move, ply, tuple(position_of(w, b) for w, b in history))

    # -- the end -----------------------------------------------------------
    def _placement_result(self, position, point, mover):
        mine = position.mask(COLOURS[mover])
        for line in LINES_THROUGH[point]:
            if mine & line == line:
                return Outcome((mover,), f"{self.player_name(mover)} completed a line")
        return None

    def result_after(self, position: Position, mover: int) -> Outcome | None:
        """The outcome once `mover` has moved to `position`: longest line, tie to the mover."""
        mine = longest_line(position.mask(COLOURS[mover]))
        theirs = longest_line(position.mask(COLOURS[1 - mover]))
        if not mine and not theirs:
            return None
        name, other = self.player_name(mover), self.player_name(1 - mover)
        if not theirs:
            return Outcome((mover,), f"{name} completed a line")
        if not mine:
            return Outcome((1 - mover,), f"{name}'s move completed a line for {other}")
        if mine == theirs:
            return Outcome((mover,), f"both colours got a line of {mine}; "
                                     f"{name} moved and wins the tie")
        if mine > theirs:
            return Outcome((mover,), f"{name}'s line of {mine} beats {other}'s line of {theirs}")
        return Outcome((1 - mover,), f"{other}'s line of {theirs} beats {name}'s line of {mine}")

    def winning_points(self, state: State) -> int:
        """The winner's longest lines: the lines the outcome compared (0 when stuck)."""
        winner = sole_winner(state)
        return 0 if winner is None else longest_lines(state.position.mask(COLOURS[winner]))

    # -- text --------------------------------------------------------------
    def status_lines(self, state) -> list[str]:
        """Balls in hand: a player with all 16 in play may only move a ball."""
        left = [BALLS - state.position.count(c) for c in COLOURS]
        lines = ["Balls in hand: " + ", ".join(
            f"{self.player_name(p)} {n}" for p, n in enumerate(left)) + "."]
        if state.result is None and not left[state.to_move]:
            lines.append(f"{self.player_name(state.to_move)} has all {BALLS} balls in play "
                         "and must move one.")
        return lines

    def extra_text(self, state: State) -> str:
        text = f"ply={state.ply}"
        if state.seen:
            text += " seen=" + ",".join(f"{p.to_int():x}" for p in state.seen)
        return text

    def state_from(self, position, to_move, extras):
        ply, seen = position.count(), ()
        for token in extras.split():
            key, _, value = token.partition("=")
            try:
                if key == "ply":
                    if not is_number(value) or len(value) > 12:
                        raise ValueError
                    ply = int(value)
                elif key == "seen":
                    seen = tuple(Position.from_int(int(h, 16)) for h in value.split(","))
                else:
                    raise ValueError
            except (ValueError, NotationError):
                raise NotationError(f"Spline+ state extras are ply=<actions> and "
                                    f"seen=<hex>,<hex>...; got {shown(token)}") from None
        if position.red:
            raise NotationError("Spline+ uses white and black balls only")
        if max(position.count(WHITE), position.count(BLACK)) > BALLS:
            raise NotationError(f"Spline+: the set has {BALLS} balls of each colour")
        if ply < position.count():
            raise NotationError(f"Spline+: ply={ply} actions cannot have put {position.count()} "
                                "balls on the board (one ball a placement)")
        return self.settle(SplinePlusState(position, to_move, None, None, ply, seen))

    def settle(self, state: State) -> State:
        result = self.result_after(state.position, 1 - state.to_move)
        if result is None:
            return self._stuck(state)
        return SplinePlusState(state.position, state.to_move, result, state.last,
                               state.ply, state.seen)
