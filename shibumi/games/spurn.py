"""Spurn: three players, each avoiding a group of four of their own colour.

Spuzzle for three: each player places only their own colour, and a group of
four or more touching balls (hidden contacts included) puts its maker out.
A player must keep clear of that while they can; when every playable point
would make such a group, any of them is played and the player is out.  The
last player left wins.

>>> from shibumi import load
>>> match = load('spurn').new_match()
>>> for move in 'a1 g7 a7 c1 g5 c7 e1 e7 a5'.split():
...     _ = match.push(move)
>>> match.state.position.text()                         # a white chain of three on rank 1
'RRBB/R..B/..../WWW.|.../.../...|../..|.'
>>> sorted(m.text() for m in match.legal_moves())       # no white ball may touch it
['Wc5.0', 'We5.0', 'Wg3']
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..bits import points_in, raised
from ..errors import NotationError, shown
from ..game import Game, GameInfo, Outcome, State
from ..geometry import ALL_MASK, TOUCHING_MASK
from ..position import COLOUR_NAMES, Position, playable_mask
from ..registry import register
from .placement import PLACE_MOVES, PLAYER_COLOURS, playable_points

#: A group of this many balls of one colour puts its player out.
LIMIT = 4
#: All three players, as a bit mask of player indices.
EVERYONE = 0b111


def group_with(mine: int, p: int, cap: int = LIMIT) -> int:
    """The group a ball at ``p`` would join, among the balls of ``mine``, as a mask
    (``p`` included); every contact counts, seen or hidden.

    The search stops once ``cap`` balls are found: only "too big or not"
    matters to the rules.
    """
    group = frontier = 1 << p
    mine |= group
    while frontier and group.bit_count() < cap:
        q = (frontier & -frontier).bit_length() - 1
        frontier &= frontier - 1
        new = TOUCHING_MASK[q] & mine & ~group
        group |= new
        frontier |= new
    return group


def is_safe(mine: int, p: int) -> bool:
    """Whether a ball at ``p`` keeps its colour's group below four balls.

    >>> is_safe(0b111, 3)          # a1 c1 e1 are white: g1 would make four
    False
    >>> is_safe(0b11, 3)           # a1 and c1 only: g1 does not even touch them
    True
    """
    return not unsafe_mask(mine) >> p & 1


def unsafe_mask(mine: int) -> int:
    """The points where a ball would join the groups of ``mine`` into one of four
    or more (every contact counts): the rules' core, on a colour mask.

    A new ball joins every group it touches, so it is unsafe where the groups
    it touches hold three balls or more between them. Each group adds its size
    to the points around it, counted bit-sliced in ``ones``/``twos`` (one bit of
    the count each), and ``over`` marks the points past three.
    """
    ones = twos = over = 0
    left = mine
    while left:
        group = frontier = left & -left
        around = 0
        while frontier:
            q = (frontier & -frontier).bit_length() - 1
            frontier &= frontier - 1
            near = TOUCHING_MASK[q]
            around |= near
            new = near & mine & ~group
            group |= new
            frontier |= new
        left &= ~group
        around &= ~mine
        size = group.bit_count()
        if size >= LIMIT - 1:             # three already: any ball touching it makes four
            over |= around
        elif size == 2:
            over |= twos & around
            twos ^= around
        else:
            carry = ones & around
            ones ^= around
            over |= twos & carry
            twos ^= carry
    return over | ones & twos


def safe_points(position: Position, player: int) -> list[int]:
    """The playable points where ``player``'s ball makes no group of four."""
    unsafe = unsafe_mask(position.mask(PLAYER_COLOURS[player]))
    return [p for p in playable_points(position.occupied) if not unsafe >> p & 1]


def big_groups(position: Position, player: int) -> int:
    """The union of ``player``'s groups of four or more balls (every contact counts)."""
    return sum(g for g in position.groups(PLAYER_COLOURS[player], visible_only=False)
               if g.bit_count() >= LIMIT)


def out_mask(position: Position) -> int:
    """The players who are out (bit ``p`` for player ``p``): those whose colour
    holds a group of four or more. Groups never shrink, so the position alone
    says who is out."""
    return sum(1 << p for p in range(3) if big_groups(position, p))


def largest(position: Position, player: int) -> int:
    """The size of ``player``'s largest group, every contact counting."""
    return max([0] + [g.bit_count() for g in
                      position.groups(PLAYER_COLOURS[player], visible_only=False)])


def next_in(after: int, out: int) -> int:
    """The first player after ``after``, in turn order, who is not out."""
    for step in (1, 2, 3):
        p = (after + step) % 3
        if not out >> p & 1:
            return p
    raise ValueError("every player is out")


def ball_counts(out_order: tuple[int, ...], last: tuple[int, ...]) -> list[tuple]:
    """Every (counts, player to move) a game can reach, for one order of eliminations.

    ``out_order`` lists the players who are out, first out first; ``last[i]``
    is how many balls ``out_order[i]`` had placed when they went out (the
    last one made the group). Turns go White, Black, Red round the players
    still in. Returns the reachable (counts so far, to move) pairs after the
    last elimination, for up to 30 balls.
    """
    counts, mover, out, done = [0, 0, 0], 0, 0, 0
    reached = []
    while sum(counts) <= 30:
        if done == len(out_order):
            reached.append((tuple(counts), mover))
            if out.bit_count() == 2:
                break
        counts[mover] += 1
        if done < len(out_order) and mover == out_order[done]:
            if counts[mover] > last[done]:
                return []
            if counts[mover] == last[done]:
                out |= 1 << mover
                done += 1
        mover = next_in(mover, out)
    return reached


@dataclass(frozen=True)
class SpurnState(State):
    """A Spurn state: ``out`` (bit per player) is derived from the position."""
    out: int = 0


@register
class Spurn(Game):
    info = GameInfo(
        name="Spurn", designer="Nathan Morse", year="2012",
        family="Elimination", source="Annexe 1 of the French edition of the Shibumi Rule Book",
        summary="Three players each place their own colour; making a group of four "
                "touching balls (hidden contacts count) puts you out, and the last "
                "player left wins.",
        min_players=3, max_players=3, complexity=2, max_length=30)

    rules = """\
Three players, White, Black and Red, start with an empty board and take
turns in that order, each placing balls of their own colour only. On your
turn put one ball on any playable point: an empty hole, or the hollow on top
of a complete 2x2 platform.

Balls of one colour that touch form a group: side by side on a level, or one
resting on another. Every contact counts, including those you cannot see (a
ball buried under level 2, or a contact crossed by two balls above it).

You must place your ball so that none of your groups reaches four balls. If
every playable point would give you a group of four or more, you still place
a ball on one of them (your choice), and you are out. Your balls stay where
they are, and the other two carry on, taking turns without you.

When a second player goes out, the one left wins. If the pyramid is
completed first, the players still in share the win (a draw if all three
are still in).
"""
    notes = """\
* Must or may? The text says a player must place so that no group of four
  forms, and that a player who forms one is out. We read both together: a
  ball that makes a group of four is allowed only when every playable point
  would make one, and then the player must place it (there is no passing)
  and goes out. The text's example fits this: White, to move, will be out
  whatever he chooses. Going out on purpose while a safe point remains is
  not allowed.
* The ball that puts a player out stays on the pyramid, with all their
  other balls; it may still be worth choosing where it goes, since it fills a
  point and may open a platform for the others.
* Groups count every physical contact, hidden ones included, as in Spuzzle
  (the text repeats Spuzzle's warning that hidden connections count).
* Colours and order: the text only says each player gets a colour. We use
  the usual order of three-player games in this project: White, Black, Red.
  After a player is out, turns alternate between the other two, in the same
  order.
* The winner: the text's last line trails off ("and the winner is..."); the
  only reading is the player still in after the second one goes out.
* A full pyramid before the second player goes out is not covered by the
  text. It can happen: about one random game in three hundred fills the
  pyramid with two players still in, and careful players can fill it with
  nobody out (the tests hold such a game). The players still in share the
  win; with all three still in, the game is a draw.
* The example's figure (after six balls each, White cannot avoid a group of
  four) is lost; the tests and the chapter rebuild such a position of our
  own.
* Ball supply: a set has 16 balls of each colour. A player goes out with
  their fourth ball at the earliest, so no one is out before the tenth ball;
  the other two then share at most twenty points. Counting every order of
  turns the rules allow, no one ever places more than thirteen balls (ten
  each when nobody goes out), so the supply never runs short.
* A position given as text tells who is out (a colour with a group of four
  or more). Its ball counts must fit the turn order with those
  eliminations; that the eliminating ball was forced is not checked.
"""

    def initial_state(self, rng=None) -> SpurnState:
        return SpurnState()

    def legal_moves(self, state, player=None):
        if state.result is not None:
            return []
        position, mover = state.position, state.to_move
        row = PLACE_MOVES[PLAYER_COLOURS[mover]]
        safe = safe_points(position, mover)
        return [row[p] for p in (safe or playable_points(position.occupied))]

    def apply(self, state, move):
        mover, position = state.to_move, state.position
        out = state.out
        if unsafe_mask(position.mask(move.colour)) >> move.point & 1:
            out |= 1 << mover
        position = position.place(move.point, move.colour)
        to_move = next_in(mover, out)
        return SpurnState(position, to_move, self._result(position.occupied, out), move, out)

    def random_playout(self, state, rng: random.Random):
        """Same games as the generic loop, on raw masks (the benchmark path): the safe
        points in order, or every playable point when none is safe; one draw each."""
        if state.result is not None:
            return state
        rnd = rng.random
        position, mover, out = state.position, state.to_move, state.out
        masks = [position.white, position.black, position.red]
        occ = position.occupied
        playable = playable_mask(occ)
        while True:
            unsafe = unsafe_mask(masks[mover])
            safe = points_in(playable & ~unsafe) or points_in(playable)
            point = safe[int(rnd() * len(safe))]
            bit = 1 << point
            masks[mover] |= bit
            playable = playable & ~bit | raised(occ, point)
            occ |= bit
            if unsafe & bit:
                out |= 1 << mover
            last = PLACE_MOVES[PLAYER_COLOURS[mover]][point]
            mover = next_in(mover, out)
            if occ == ALL_MASK or out.bit_count() == 2:
                break
        return SpurnState(Position.from_masks(*masks), mover, self._result(occ, out), last, out)

    def _result(self, occupied: int, out: int) -> Outcome | None:
        """The outcome once the players of ``out`` are out, or None to go on."""
        left = [p for p in range(3) if not out >> p & 1]
        if len(left) == 1:
            winner = left[0]
            losers = " and ".join(self.player_name(p) for p in range(3) if p != winner)
            return Outcome((winner,), f"{losers} made groups of four; "
                                      f"{self.player_name(winner)} is the last player left")
        if occupied == ALL_MASK:
            if len(left) == 3:
                return Outcome((), "the pyramid is complete and nobody is out")
            names = " and ".join(self.player_name(p) for p in left)
            return Outcome(tuple(left), f"the pyramid is complete: {names}, still in, "
                                        "share the win")
        return None

    def winning_points(self, state) -> int:
        """The groups of four or more that put the two losers out."""
        result = state.result
        if result is None or len(result.winners) != 1:
            return 0
        return sum(big_groups(state.position, p) for p in range(3) if p != result.winners[0])

    def status_lines(self, state) -> list[str]:
        """Who is out, everyone's largest group, and whether the mover is cornered."""
        position, out = state.position, out_mask(state.position)
        sizes = ", ".join(f"{self.player_name(p)} {largest(position, p)}" for p in range(3))
        lines = [f"Largest groups (a group of {LIMIT} is out): {sizes}."]
        gone = [self.player_name(p) for p in range(3) if out >> p & 1]
        if gone:
            lines.append(f"Out: {' and '.join(gone)}.")
        if state.result is None:
            me = self.player_name(state.to_move)
            safe = len(safe_points(position, state.to_move))
            lines.append(f"{me} has {safe} safe point{'s' * (safe != 1)}." if safe else
                         f"{me} has no safe point: any ball makes a group of four.")
        return lines

    def state_from(self, position, to_move, extras):
        if extras:
            raise NotationError(f"Spurn states have no extra fields, got {shown(extras)}")
        out = out_mask(position)
        for p in range(3):
            if len([g for g in position.groups(PLAYER_COLOURS[p], visible_only=False)
                    if g.bit_count() >= LIMIT]) > 1:
                raise NotationError(f"Spurn position: {self.player_name(p)} has two groups "
                                    "of four or more, but the first one ended their game")
        if out == EVERYONE:
            raise NotationError("Spurn position: all three players have a group of four")
        counts = tuple(position.count(c) for c in PLAYER_COLOURS)
        gone = [p for p in range(3) if out >> p & 1]
        orders = [tuple(gone)] if len(gone) < 2 else [tuple(gone), tuple(reversed(gone))]
        reachable = {pair for order in orders
                     for pair in ball_counts(order, tuple(counts[p] for p in order))}
        if (counts, to_move) not in reachable:
            names = ", ".join(f"{n} {COLOUR_NAMES[PLAYER_COLOURS[p]]}"
                              for p, n in enumerate(counts))
            who = f" with {' and '.join(self.player_name(p) for p in gone)} out" if gone else ""
            raise NotationError(
                f"Spurn: {names} balls{who} cannot be reached with "
                f"{self.player_name(to_move)} to move; players place in turn, White "
                "first, and skip those who are out")
        return SpurnState(position, to_move, self._result(position.occupied, out), None, out)


__all__ = ["LIMIT", "Spurn", "SpurnState", "ball_counts", "big_groups", "group_with",
           "is_safe", "largest", "out_mask", "safe_points", "unsafe_mask"]
