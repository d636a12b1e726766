"""Spirit (of Shibumi): place your colour where no free ball of yours shares its row or
column on that level, or pass; most balls in play wins.

A ball stops blocking its row and column once another ball rests on it
(it is no longer *free*), so building upwards reopens lines.

>>> from shibumi import load
>>> match = load('spirit').new_match()
>>> match.push('a1'), match.push('c3')
(Move('Wa1'), Move('Bc3.0'))
>>> sorted(match.move_text(m) for m in match.legal_moves())   # not on a1's row or column
['c5', 'c7', 'e3', 'e5', 'e7', 'g3', 'g5', 'g7', 'pass']
>>> match.push('pass'), match.push('pass')
(Move('pass'), Move('pass'))
>>> match.outcome().reason
'all players passed in succession; White and Black tie at 1 ball each'
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass

from ..errors import NotationError
from ..game import GameInfo, Outcome, State, read_fields, write_fields
from ..geometry import ALL_MASK, BOARD_MASK, COORDS, NUM_POINTS, POINTS, SUPPORT_MASK, points_of
from ..notation import PASS, PASS_MOVE, point_name
from ..position import COLOUR_NAMES, RED, WHITE, BLACK, Position
from ..registry import register
from .placement import PLACE_MOVES, PLAYER_COLOURS, PlacementGame, playable_bits, uniform_index

#: Balls of each colour in a Shibumi set.
SUPPLY = 16
UPPER_MASK = ALL_MASK & ~BOARD_MASK


def _row_and_column(p: int) -> int:
    lv, x, y = COORDS[p]
    mask = 0
    for q in POINTS:
        qlv, qx, qy = COORDS[q]
        if q != p and qlv == lv and (qx == x or qy == y):
            mask |= 1 << q
    return mask


#: ROW_AND_COLUMN[p]: the other points of p's row and column on p's level.
ROW_AND_COLUMN: tuple[int, ...] = tuple(_row_and_column(p) for p in POINTS)


def covered(occupied: int) -> int:
    """Balls with at least one ball resting on them (not free)."""
    mask = 0
    for q in points_of(occupied & UPPER_MASK):
        mask |= SUPPORT_MASK[q]
    return mask & occupied


def blocked(own: int, occupied: int) -> int:
    """Points in line with a free ball of the mask ``own`` on the same level."""
    mask = 0
    for b in points_of(own & ~covered(occupied)):
        mask |= ROW_AND_COLUMN[b]
    return mask


def open_points(position: Position, colour: int) -> int:
    """Mask of the playable points where a ball of ``colour`` may go (supply aside)."""
    occupied = position.occupied
    return playable_bits(occupied) & ~blocked(position.mask(colour), occupied)


def clashes(position: Position) -> list[tuple[int, int]]:
    """Pairs of free balls of one colour sharing a row or column of a level.

    The rules never let this happen (balls are never removed, so a ball that
    stops being free never becomes free again).
    """
    free = position.occupied & ~covered(position.occupied)
    found = []
    for colour in (WHITE, BLACK, RED):
        mine = position.mask(colour) & free
        for b in points_of(mine):
            found += [(b, q) for q in points_of(ROW_AND_COLUMN[b] & mine) if q > b]
    return found


@dataclass(frozen=True)
class SpiritState(State):
    passes: int = 0
    """Passes in a row just played (the game ends when every player has passed)."""
    ply: int = 0
    """Actions played, passes included (passes leave no trace in the position)."""


@register
class Spirit(PlacementGame):
    info = GameInfo(
        name="Spirit", designer="Néstor Romeral Andrés", year="2012",
        family="Counting", source="Shibumi Rule Book (2012)",
        summary="Place your colour where no free ball of yours shares the row or column "
                "on that level, or pass; when all pass in turn, most balls in play wins.",
        min_players=2, max_players=3, complexity=2, aliases=("spirit of shibumi",),
        max_length=3 * NUM_POINTS)
    parameters = {"players": 2}

    rules = """\
Two players, White and Black, or three with Red, each place balls of their
own colour on a pyramid that starts empty. White begins and turns go round
in order.

On your turn you either place one ball of your colour on a playable point,
or pass. A placement is allowed only if no free ball of your colour lies in
the same row or column of the same level as the point, anywhere along it. A
ball is free when nothing rests on it; as soon as a ball is stacked on top
of it, it stops blocking its row and column for good. Other players' balls
never block you. Passing is always allowed.

The game ends when every player has passed, one after another, or when the
pyramid is complete. Whoever has the most balls of their colour in the
pyramid (hidden ones included) wins. If several players share the most,
they share the win; if all players have the same number, the game is a
draw.

Three players: `spirit(players=3)`, with Red playing third.
"""
    notes = """\
* Source: the Shibumi Rule Book v1.1 (2012), game by Néstor Romeral Andrés
  (2012). Both of its figures are lost.
* The line. The rule book closes a point to a colour when a free ball of
  that colour sits on "the same orthogonal line" of the point's level, and
  says nothing of distance. We take the whole row and the whole column of
  the level, however many gaps or other balls lie between, as the Ludii
  implementation of the game does; neither text limits the line to
  neighbours or to the nearest ball, and the first example speaks of
  points lying in line with a ball, not next to it. Diagonals, and lines
  climbing from one level to another, do not count. The apex has no line.
* Free, as the rule book defines it: no ball rests on it. Since no ball is
  ever removed, a ball that stops being free stays so; so no two free balls
  of one colour ever share a row or column of a level, and state text
  breaking this is refused.
* Only the mover's own free balls block. This is what makes the book's
  second example work: stacking on two of your own balls unblocks their
  lines for you, while the same points may stay closed to the others.
* Passing is always allowed, even when a placement is possible (the book
  offers the two options side by side). It is not always bad: a ball on a
  platform frees lines for the owners of the balls under it.
* The end. The book ends the game when all players have passed in
  succession: two passes in a row with two players, three with three. We
  also stop when the pyramid is complete, since from then on every player
  could only pass and the count would not change (Ludii does the same).
* Winner: the most balls "in play", read as all the balls of one's colour
  on the pyramid, hidden ones included. The book does not say who wins a
  tie: with two players a tie is a draw; with three, players tied for the
  most share the win, and a three-way tie is a draw.
* Ties. The book calls them rare. Random play ties often under our reading:
  about half of uniformly random two-player games, and more among players
  who pass only when forced, whose games mostly stop at eight balls in a
  deadlock (each colour holds a free ball in every row and column of the
  board, no square is complete, and nobody can place). In our trials random
  play also tied often under a nearest-ball reading of the line, so the
  remark is about considered play and does not decide between the readings.
  With two players the counts differ only by the passes (and White's
  possible extra turn), so a game in which nobody passes ends level.
* Supply. A set has 16 balls of each colour, and the line rule allows more
  (the tests reach a position where a 17th white ball would be legal; random
  searches put 18 balls of one colour in a pyramid), so a player with 16
  balls in play can only pass.
* Three players: an option (two is the default). Red is the third player's
  colour; with two players there are no red balls.
* Length: at most 30 placements, never more than n - 1 passes in a row
  between two of them (n passes end the game), and at most n passes after
  the last one, so a game with n players lasts at most 30n actions: 60
  with two, 90 with three (the card gives 90, the bound for both).
* The lost figures are rebuilt in the tests and the chapter with positions
  of our own: one where White can only pass, each playable point sharing a
  line with a free white ball; and a three-player position where White
  stacks a ball on two white balls and so opens points that stay closed to
  Black and Red.
* The outcome's scores are each player's balls in play.
"""

    # -- rules ---------------------------------------------------------------
    def initial_state(self, rng=None) -> SpiritState:
        return SpiritState()

    def placements(self, position: Position, player: int) -> int:
        """Mask of the points where ``player`` may place a ball."""
        colour = PLAYER_COLOURS[player]
        if position.mask(colour).bit_count() >= SUPPLY:
            return 0
        return open_points(position, colour)

    def legal_moves(self, state: SpiritState, player: int | None = None) -> list:
        if state.result is not None:
            return []
        row = PLACE_MOVES[PLAYER_COLOURS[state.to_move]]
        return [row[p] for p in points_of(self.placements(state.position, state.to_move))] \
            + [PASS_MOVE]

    def apply(self, state: SpiritState, move) -> SpiritState:
        following = (state.to_move + 1) % self.num_players
        if move.kind == PASS:
            passes = state.passes + 1
            result = (self.final(state.position, "all players passed in succession")
                      if passes >= self.num_players else None)
            return SpiritState(state.position, following, result, move, passes,
                               state.ply + 1)
        position = state.position.place(move.point, move.colour)
        result = (self.final(position, "the pyramid is complete")
                  if position.occupied == ALL_MASK else None)
        return SpiritState(position, following, result, move, 0, state.ply + 1)

    def final(self, position: Position, reason: str) -> Outcome:
        """The outcome: most balls in play wins, shared by tied leaders."""
        n = self.num_players
        counts = [position.mask(PLAYER_COLOURS[p]).bit_count() for p in range(n)]
        levels = sorted(set(counts), reverse=True)
        ranking = tuple(tuple(p for p in range(n) if counts[p] == c) for c in levels)
        leaders = ranking[0]
        names = [self.player_name(p) for p in leaders]
        best = counts[leaders[0]]
        unit = "ball" if best == 1 else "balls"
        if len(leaders) == n:
            how = f"{' and '.join(names) if n == 2 else 'all players'} tie at {best} {unit} each"
            winners = ()
        elif len(leaders) > 1:
            how = f"{' and '.join(names)} share the most balls, {best} each"
            winners = leaders
        else:
            how = (f"{names[0]} has the most balls in play, "
                   f"{'-'.join(str(c) for c in counts)}")
            winners = leaders
        return Outcome(winners, f"{reason}; {how}", tuple(float(c) for c in counts), ranking)

    def length(self, state: SpiritState) -> int:
        """Actions played, passes included."""
        return state.ply

    def random_playout(self, state: SpiritState, rng: random.Random) -> SpiritState:
        """Same games as the generic loop, on bit masks."""
        if state.result is not None:
            return state
        pick = uniform_index(rng)
        n = self.num_players
        position = state.position
        masks = [0, position.white, position.black, position.red]
        occ, mover, passes, move = position.occupied, state.to_move, state.passes, None
        ply = state.ply
        cover = covered(occ)
        while True:
            colour = PLAYER_COLOURS[mover]
            own = masks[colour]
            if own.bit_count() < SUPPLY:
                shut = 0
                for b in points_of(own & ~cover):
                    shut |= ROW_AND_COLUMN[b]
                pts = points_of(playable_bits(occ) & ~shut)
            else:
                pts = []
            i = pick(len(pts) + 1)
            mover = (mover + 1) % n
            ply += 1
            if i == len(pts):
                move = PASS_MOVE
                passes += 1
                if passes >= n:
                    reason = "all players passed in succession"
                    break
                continue
            p = pts[i]
            move = PLACE_MOVES[colour][p]
            masks[colour] = own | 1 << p
            occ |= 1 << p
            cover |= SUPPORT_MASK[p]
            passes = 0
            if occ == ALL_MASK:
                reason = "the pyramid is complete"
                break
        position = Position.from_masks(masks[WHITE], masks[BLACK], masks[RED])
        return SpiritState(position, mover, self.final(position, reason), move, passes, ply)

    # -- text ----------------------------------------------------------------
    def status_lines(self, state) -> list[str]:
        """Balls in play (the score) and how close the passes are to ending the game."""
        n = self.num_players
        lines = ["Balls in play: " + ", ".join(
            f"{self.player_name(p)} {state.position.count(PLAYER_COLOURS[p])}"
            for p in range(n)) + "."]
        if state.result is None and 0 < state.passes < n:
            done = [self.player_name((state.to_move - i) % n) for i in range(state.passes, 0, -1)]
            rest = [self.player_name((state.to_move + i) % n) for i in range(n - state.passes)]
            lines.append(f"{' and '.join(done)} passed; the game ends if {' and '.join(rest)} "
                         f"pass{'es' * (len(rest) == 1)} too.")
        return lines

    def extra_text(self, state: SpiritState) -> str:
        return write_fields(passes=state.passes or None, ply=state.ply)

    def state_from(self, position, to_move, extras):
        fields = read_fields(self, extras, numbers=("passes", "ply"))
        passes, ply = fields["passes"], fields["ply"]
        n = self.num_players
        if passes > n:
            raise NotationError(f"Spirit state: {passes} passes in a row, but the game "
                                f"ends after {n}")
        balls = position.occupied.bit_count()
        if ply < balls + passes:
            raise NotationError(f"Spirit state: {balls} balls and {passes} passes take at "
                                f"least {balls + passes} actions, not ply={ply}")
        for colour in PLAYER_COLOURS[n:]:
            if position.mask(colour):
                raise NotationError(f"{n}-player Spirit has no {COLOUR_NAMES[colour]} balls")
        for colour in PLAYER_COLOURS[:n]:
            if position.mask(colour).bit_count() > SUPPLY:
                raise NotationError(f"Spirit: the set has {SUPPLY} {COLOUR_NAMES[colour]} "
                                    "balls")
        bad = clashes(position)
        if bad:
            a, b = bad[0]
            raise NotationError(f"Spirit position: the free balls on {point_name(a)} and "
                                f"{point_name(b)} share a colour and a line, which the "
                                "rules never allow")
        return self.settle(SpiritState(position, to_move, None, None, passes, ply))

    def settle(self, state: SpiritState) -> SpiritState:
        if state.passes >= self.num_players:
            reason = "all players passed in succession"
        elif state.position.occupied == ALL_MASK:
            reason = "the pyramid is complete"
        else:
            return state
        return dataclasses.replace(state, result=self.final(state.position, reason))


__all__ = ["ROW_AND_COLUMN", "SUPPLY", "Spirit", "SpiritState", "blocked", "clashes",
           "covered", "open_points"]
