"""Spinout: fill the pyramid, score lines of three; a turn may spin a column instead.

A turn either places a ball of your colour or *spins* a column: you lift a
support ball that is not pinned, the column resting on it drops one step, and
the lifted ball goes on top, where the highest ball was.  The engine writes a
spin as the relocation it is (``a1>b2``: lift a1, put it on b2).

>>> from shibumi import load
>>> match = load("spinout").new_match()
>>> for move in "a1 c1 a3 c3 b2".split():
...     _ = match.push(move)
>>> match.push("c1>b2")           # Red lifts c1: White's b2 drops, the red ball goes on top
Move('c1>b2')
>>> match.state.position.colour_at(1), match.state.position.colour_at(16)
(1, 3)
>>> any(m.kind == "move" for m in match.legal_moves())   # no spin answers a spin
False
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass

from ..errors import NotationError, UnknownGameError
from ..game import Game, GameInfo, Outcome, State, read_fields, write_fields
from ..geometry import (BOARD_MASK, NUM_POINTS, SUPPORT_MASK, SUPPORTED_MASK, points_of,
                        segments, sloped_runs)
from ..notation import MOVE, Move
from ..position import RED, WHITE, Position, column_above, hidden_mask
from ..registry import register
from .placement import PLACE_MOVES, playable_points, sole_winner

PLAYER_COLOURS = (WHITE, RED)
#: Balls of each colour in a set: a player with all of them in play is out of balls.
BALLS = 16
FULL = (1 << NUM_POINTS) - 1

#: The straight lines of three that score: runs along a row, column or
#: diagonal of the board or level 1 (level 2 is too small), and the sloped
#: runs that climb a level at each step along a face or ridge.  52 in all.
LINES3: tuple[int, ...] = tuple(sum(1 << p for p in run)
                                for run in segments(3) + sloped_runs(3))


def spin_sources(position: Position) -> list[int]:
    """Balls that may be spun: support balls (a ball rests on them) that are not pinned."""
    return [chain[0] for chain in spins(position.occupied)]


def spin_chain(p: int, occupied: int) -> tuple[int, ...]:
    """The points a spin of ``p`` turns over: ``p``, then the column resting on it,
    upwards (the last is where the lifted ball lands)."""
    chain = [p]
    above = occupied & SUPPORTED_MASK[p]
    while above:
        if above & (above - 1):           # never on a pyramid (see column_above)
            return (p,) + tuple(points_of(column_above(p, occupied)))
        q = above.bit_length() - 1
        chain.append(q)
        above = occupied & SUPPORTED_MASK[q]
    return tuple(chain)


_SPINS: dict[int, tuple[tuple[int, ...], ...]] = {}
_CACHE_LIMIT = 100_000


def spins(occupied: int) -> tuple[tuple[int, ...], ...]:
    """Every spin of an occupancy as its chain (see :func:`spin_chain`), in the
    order of the legal moves (:func:`spin_move` names each).

    A spin moves no ball off its point set (the column only turns over), so
    the spins depend on the occupancy alone and are memoised on it (as plain
    ints, which the garbage collector need not look into).
    """
    found = _SPINS.get(occupied)
    if found is None:
        if len(_SPINS) >= _CACHE_LIMIT:
            _SPINS.clear()
        found, sources = [], single_supports(occupied)
        while sources:
            low = sources & -sources
            sources ^= low
            found.append(spin_chain(low.bit_length() - 1, occupied))
        found = _SPINS[occupied] = tuple(found)
    return found


def single_supports(occupied: int) -> int:
    """The balls holding up exactly one ball (``SUPPORTED_MASK[p] & occupied`` has
    one bit): each raised ball counts once on its platform, in two bit-sliced
    counters (once or more, twice or more)."""
    once = twice = 0
    upper = occupied & ~BOARD_MASK
    while upper:
        low = upper & -upper
        upper ^= low
        platform = SUPPORT_MASK[low.bit_length() - 1]
        twice |= once & platform
        once |= platform
    return once & ~twice


#: Spin moves by source * NUM_POINTS + target, made once when first needed.
_SPIN_MOVES: list[Move | None] = [None] * (NUM_POINTS * NUM_POINTS)


def spin_move(chain: tuple[int, ...]) -> Move:
    """The move of a spin: its lifted ball goes to the top of its chain."""
    key = chain[0] * NUM_POINTS + chain[-1]
    move = _SPIN_MOVES[key]
    if move is None:
        move = _SPIN_MOVES[key] = Move.relocate(chain[0], chain[-1])
    return move


def spun_mask(mask: int, chain: tuple[int, ...]) -> int:
    """A colour mask after a spin of ``chain``: each ball of the column drops one
    point down the chain and the lifted ball lands on its top."""
    out = mask
    for low, high in zip(chain, chain[1:]):
        out = out & ~(1 << low) | (mask >> high & 1) << low
    top = chain[-1]
    return out & ~(1 << top) | (mask >> chain[0] & 1) << top


def lines_of(mine: int, occupied: int, hidden_count: bool = False) -> list[int]:
    """The lines of three inside the colour mask `mine` (hidden balls left out unless asked)."""
    if not hidden_count:
        mine &= ~hidden_mask(occupied)
    return [line for line in LINES3 if mine & line == line]


@dataclass(frozen=True)
class SpinoutState(State):
    ply: int = 0
    """Actions played so far (placements and spins)."""
    spun: bool = False
    """The last action was a spin, so the player to move may not spin."""


@register
class Spinout(Game):
    info = GameInfo(
        name="Spinout", designer="Giacomo Galimberti", year="2011",
        family="Counting", source="Annexe 1 of the French edition of the Shibumi Rule Book",
        summary="Fill the pyramid and score lines of three; instead of placing you may "
                "lift a support ball and put it back on top of its column.",
        complexity=2, aliases=("spin out", "spin-out"), max_length=54)
    parameters = {"hidden_count": False}
    player_names = ("White", "Red")

    rules = """\
Two players: White has the 16 white balls, Red the 16 red ones. The board
starts empty and White moves first.

On your turn do one of two things:

* Place one of your balls on any playable point: an empty hole, or the
  hollow on top of four touching balls.
* Spin a column, unless your opponent's last turn was a spin. Choose a
  ball of either colour that holds up exactly one ball (a ball holding up
  two or more is pinned). Lift it: the ball resting on it drops into its
  place, the ball resting on that one drops after it, and so on up the
  column. Then put the lifted ball on the point the highest of them has
  just left. A spin is written as the move of the lifted ball: `a1>b2`.

If a player has placed all 16 balls, the other player places the rest of
their balls, one a turn, until the pyramid is full; no more spins are made.

The game ends when all 30 points are filled. Each player then scores one
point for every straight line of three balls of their colour that can be
seen: along a row, a column or a diagonal of the board or of level 1, or
climbing one level at each step up a face or an edge of the pyramid (such
as a1, b2, c3 of levels 0, 1 and 2). Balls hidden inside the pyramid (the
ones two levels below another ball) are out of every line. The higher score
wins. On equal scores, the player with fewer balls in view wins: a full
pyramid shows 25 balls, so this always decides.
"""
    notes = """\
* Who starts is not said; White starts, as in the other games.
* "A support ball that is not pinned": a ball holding up exactly one ball.
  Any colour may be spun, your own or your opponent's, as the text names no
  colour. (Its comment speaks of bringing an enemy ball down, which lifting
  a ball from under it does, whatever that ball's colour.)
* The lifted ball goes back on the point that the highest dropping ball
  left, as the text says; that point is always playable again, since the
  ball below it has just been replaced by the one that dropped. The
  engine's relocation rule against landing on a dropped ball does not apply
  here: landing there is the whole move.
* A spin of a column of one colour leaves the position as it was. The text
  does not forbid it, so it is allowed: it is a way to make the opponent
  place a ball, which the comment on the example counts as an aim.
* "Only if the opponent did not just choose it": two spins never follow
  each other, so at most one spin separates two placements, and the game
  always ends. Length: a spin needs a ball on level 1, so the first one can
  only follow the 5th ball, and none follows the 30th: 25 gaps between
  placements can hold a spin. A spin is always answered by a placement of
  the player who did not spin, who also made the placement before it, so
  if all 25 gaps held a spin one player would place balls 5 to 30 and,
  with two of the first four, 28 balls in all: more than 16. At least one
  gap has no spin, so a game lasts at most 30 + 24 = 54 actions, and the
  tests replay a game of exactly 54.
* Running out: balls never leave the pyramid, so a player is out once 16
  of their balls are in play, which spins make possible (the player who
  never spins places more). The text says the opponent then completes the
  pyramid; we read that the opponent places the rest of their balls, one
  action after another, with no more spins (a spin by either player would
  no longer be answered by a placement of the other).
* Lines (the figure is lost): "orthogonal, diagonal or ascending" lines of
  three balls. We take the runs of three neighbouring points along the
  rows, columns and diagonals of a level (24 on the board and 8 on level 1;
  level 2 is too small) and the 20 sloped runs that climb a level at each
  step on a straight line in space. Three balls on a line but not next to
  each other do not count.
* Hidden balls: the text does not say whether the five balls buried inside
  the finished pyramid count in lines. We leave them out: the designer's
  comment praises a spin because it "brings an enemy ball down towards the
  hidden part of the pyramid", which only hurts the enemy if hidden balls
  score nothing (a hidden ball would otherwise still count in its lines,
  and would even help its owner in the tie-break). The variant
  `hidden_count=True` counts them.
* The tie-break counts each player's balls in view from outside; a full
  pyramid shows 25, white and red, so the counts always differ and the
  game has no draw.
* The example's "13 visible balls against 13" cannot be right: 25 balls
  show, so a side with 13 faces one with 12, and the side with 12 wins the
  tie. Red won, so Red had 12 in view and White 13. The chapter rebuilds a
  finished game matching the example (4 lines each, Red wins) and counts
  them; figures.md records the same correction.
"""

    def __init__(self, **params) -> None:
        super().__init__(**params)
        if self.params["hidden_count"] not in (True, False):
            raise UnknownGameError("spinout parameter hidden_count is True or False")
        self.hidden_count = self.params["hidden_count"]

    def initial_state(self, rng=None) -> SpinoutState:
        return SpinoutState()

    def length(self, state) -> int:
        return state.ply

    def in_hand(self, position: Position, player: int) -> int:
        """Balls a player has not yet put in play (balls never leave the pyramid)."""
        return BALLS - position.count(PLAYER_COLOURS[player])

    # -- moves ---------------------------------------------------------------------
    def legal_moves(self, state, player=None):
        if state.result is not None:
            return []
        position, mover = state.position, state.to_move
        moves = []
        if self.in_hand(position, mover):
            row = PLACE_MOVES[PLAYER_COLOURS[mover]]
            moves = [row[p] for p in playable_points(position.occupied)]
        # No spin answers a spin, and none once a player is out of balls.
        if not state.spun and self.in_hand(position, 1 - mover):
            moves += [spin_move(chain) for chain in spins(position.occupied)]
        return moves

    def apply(self, state, move: Move):
        mover, position = state.to_move, state.position
        white, red = position.white, position.red
        if move.kind == MOVE:
            chain = spin_chain(move.point, position.occupied)
            white, red = spun_mask(white, chain), spun_mask(red, chain)
        elif move.colour == WHITE:
            white |= 1 << move.point
        else:
            red |= 1 << move.point
        position = Position.from_masks(white, 0, red)
        following = 1 - mover if self.in_hand(position, 1 - mover) else mover
        result = self.score(position) if position.occupied == FULL else None
        return SpinoutState(position, following, result, move, state.ply + 1,
                            move.kind == MOVE)

    def random_playout(self, state, rng: random.Random):
        """Same games as the generic loop, on raw masks (the benchmark path): the
        same moves in the same order (placements, then spins), one draw each."""
        if state.result is not None:
            return state
        rnd = rng.random
        position, mover, ply, spun = state.position, state.to_move, state.ply, state.spun
        white, red = position.white, position.red
        occ, last = white | red, state.last
        hands = [BALLS - white.bit_count(), BALLS - red.bit_count()]
        while True:
            pts = playable_points(occ) if hands[mover] else ()
            turns = spins(occ) if not spun and hands[1 - mover] else ()
            n_place = len(pts)
            i = int(rnd() * (n_place + len(turns)))
            if i < n_place:
                p = pts[i]
                occ |= 1 << p
                if mover:
                    red |= 1 << p
                else:
                    white |= 1 << p
                hands[mover] -= 1
                last, spun = PLACE_MOVES[PLAYER_COLOURS[mover]][p], False
            else:
                chain = turns[i - n_place]
                white, red, spun = spun_mask(white, chain), spun_mask(red, chain), True
                last = spin_move(chain)
            ply += 1
            if hands[1 - mover]:
                mover = 1 - mover
            if occ == FULL:
                break
        position = Position.from_masks(white, 0, red)
        return SpinoutState(position, mover, self.score(position), last, ply, spun)

    # -- the end ---------------------------------------------------------------------
    def tally(self, position: Position) -> tuple[tuple[int, int], tuple[int, int]]:
        """Lines of three and balls in view, for White and Red."""
        occ, shown = position.occupied, position.visible()
        masks = [position.mask(c) for c in PLAYER_COLOURS]
        lines = tuple(len(lines_of(m, occ, self.hidden_count)) for m in masks)
        seen = tuple((m & shown).bit_count() for m in masks)
        return lines, seen

    def score(self, position: Position) -> Outcome:
        """The outcome of a full pyramid: more lines, then fewer balls in view."""
        (white, red), (white_seen, red_seen) = self.tally(position)
        scores = (float(white), float(red))
        if white != red:
            winner = 0 if white > red else 1
            how = f"{max(white, red)} lines of three to {min(white, red)}"
        else:
            # 25 balls show on a full pyramid, all white or red: never a tie here.
            winner = 0 if white_seen < red_seen else 1
            how = (f"{white} lines each, and {min(white_seen, red_seen)} balls in view "
                   f"to {max(white_seen, red_seen)}")
        return Outcome((winner,), f"{self.player_name(winner)} wins with {how}", scores,
                       ((winner,), (1 - winner,)))

    def winning_points(self, state) -> int:
        """The winner's lines of three, when the lines decided the game."""
        winner = sole_winner(state)
        if winner is None:
            return 0
        occ = state.position.occupied
        mine, theirs = (lines_of(state.position.mask(PLAYER_COLOURS[p]), occ,
                                 self.hidden_count) for p in (winner, 1 - winner))
        if len(mine) == len(theirs):
            return 0
        out = 0
        for line in mine:
            out |= line
        return out

    # -- text ------------------------------------------------------------------------
    def status_lines(self, state) -> list[str]:
        """Balls in hand, a barred spin, the completion, and the final count."""
        position = state.position
        hands = [self.in_hand(position, p) for p in range(2)]
        lines = ["Balls in hand: " + ", ".join(
            f"{self.player_name(p)} {n}" for p, n in enumerate(hands)) + "."]
        if state.result is not None:
            (white, red), (white_seen, red_seen) = self.tally(position)
            lines.append(f"Lines of three: White {white}, Red {red}. Balls in view: "
                         f"White {white_seen}, Red {red_seen}.")
            return lines
        me, you = self.player_name(state.to_move), self.player_name(1 - state.to_move)
        if not hands[1 - state.to_move]:
            lines.append(f"{you} has no ball left: {me} completes the pyramid.")
        elif state.spun:
            lines.append(f"{you} has just spun a column, so {me} must place a ball.")
        return lines

    def extra_text(self, state) -> str:
        return write_fields(ply=state.ply, spun=state.spun)

    def state_from(self, position, to_move, extras):
        fields = read_fields(self, extras, numbers=("ply",), flags=("spun",))
        if position.black:
            raise NotationError("Spinout is played with white and red balls only")
        hands = [self.in_hand(position, p) for p in range(2)]
        if min(hands) < 0:
            raise NotationError(f"Spinout: the set has {BALLS} balls of each colour")
        if fields["ply"] < position.count():
            raise NotationError(f"Spinout: ply={fields['ply']} actions cannot have put "
                                f"{position.count()} balls in play")
        if position.occupied != FULL and not hands[to_move]:
            raise NotationError(f"Spinout: {self.player_name(to_move)} has no ball left, "
                                "so the other player is to move")
        state = SpinoutState(position, to_move, None, None, fields["ply"], fields["spun"])
        return self.settle(state)

    def settle(self, state):
        if state.position.occupied == FULL:
            return dataclasses.replace(state, result=self.score(state.position))
        return state
