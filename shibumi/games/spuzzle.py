"""Spuzzle: a solitaire — place as many balls as you can without a group of three.

>>> from shibumi import load
>>> match = load('spuzzle').new_match()
>>> match.push('Wa1'), match.push('Wc1')
(Move('Wa1'), Move('Wc1'))
>>> 'Wa3' in [m.text() for m in match.legal_moves()]     # a1 would have two white neighbours
False
"""

from __future__ import annotations

from dataclasses import dataclass

from ..bits import playable_cached
from ..errors import NotationError, shown
from ..game import Game, GameInfo, Outcome, State
from ..geometry import TOUCHING_MASK
from ..position import BLACK, RED, WHITE, Position
from ..registry import register
from .placement import PLACE_MOVES, playable_points

COLOURS = (WHITE, BLACK, RED)
#: Largest group allowed: a ball may touch at most one ball of its colour, and
#: that one may touch no other.
MAX_GROUP = 2
#: The highest possible score, found by ``shibumi.maths.spuzzle.solve_spuzzle``.
BEST_SCORE = 27


def fits(position: Position, p: int, colour: int) -> bool:
    """Whether a ball of ``colour`` at ``p`` keeps every group of that colour to
    at most two balls (counting every contact, hidden or not).

    The position is assumed legal (no group of three yet), so only the new
    ball's group can grow: it is too big exactly when the new ball touches two
    balls of its colour, or one that already touches another.
    """
    mine = position.mask(colour)
    same = TOUCHING_MASK[p] & mine
    if not same:
        return True
    if same & (same - 1):
        return False
    q = same.bit_length() - 1
    return not TOUCHING_MASK[q] & mine


def largest_group(position: Position) -> int:
    """Size of the largest group of one colour, every contact counting."""
    best = 0
    for colour in COLOURS:
        for group in position.groups(colour, visible_only=False):
            best = max(best, group.bit_count())
    return best


def _add(masks: list, once: list, closed: list, c: int, p: int) -> None:
    """Put a ball of colour index ``c`` at ``p``, updating the points the colour
    touches (``once``) and those closed to it (``closed``, see :func:`fits`)."""
    touch = TOUCHING_MASK[p]
    closed[c] |= once[c] & touch          # now touching two balls of the colour
    once[c] |= touch
    mate = touch & masks[c]
    if mate:                              # a pair: nothing more may touch either ball
        closed[c] |= touch | TOUCHING_MASK[mate.bit_length() - 1]
    masks[c] |= 1 << p


def _nth_option(open_: list, k: int) -> tuple[int, int]:
    """The k-th (point, colour index) of the open masks, by point, then colour."""
    left = open_[0] | open_[1] | open_[2]
    while True:
        low = left & -left
        left ^= low
        for c in range(3):
            if open_[c] & low:
                if not k:
                    return low.bit_length() - 1, c
                k -= 1


@dataclass(frozen=True)
class SpuzzleOutcome(Outcome):
    """A finished solitaire: ``scores[0]`` balls placed.

    ``returns`` grows with the score (the best possible score gives 1), so a
    search player such as MCTS aims for a high score rather than for the end.
    """

    def returns(self, num_players: int) -> tuple[float, ...]:
        return (self.scores[0] / BEST_SCORE,) if self.scores else super().returns(num_players)


@register
class Spuzzle(Game):
    info = GameInfo(
        name="Spuzzle", designer="Néstor Romeral Andrés", year="2011",
        family="Puzzle", source="Shibumi Rule Book (2012)",
        summary="A solitaire: place balls of any colour, never letting three of one colour "
                "touch in a chain or clump; your score is the number of balls placed.",
        min_players=1, max_players=1, complexity=2, max_length=BEST_SCORE)
    player_names = ("Player",)

    rules = """\
A puzzle for one person, starting from an empty board. Again and again,
put a ball of whichever colour you like (white, black or red) on any
playable point, as long as no three or more balls of one colour end up
connected: two balls of a colour may touch, but the pair may not touch a
third ball of their colour. Contacts count even where you cannot see them:
a ball buried under the level above, or a contact crossed by two balls on
top, still connects.

When no ball of any colour can be added, the puzzle is over, and your score
is the number of balls on the pyramid. What is the best you can do?
"""
    notes = """\
* "Connected" is physical contact (side by side on a level, or resting on
  one another), and the rule book stresses that hidden connections count:
  buried balls and contacts under an overpass link a group as much as any
  other. So a placement is allowed exactly when the new ball touches at most
  one ball of its colour and that ball touches no other of the colour.
* The sole player is named Player. A finished puzzle is a "win" with its
  score; there is no losing, only scoring. For search players the reward grows
  with the score.
* The question the rule book ends on, the highest possible score, is answered
  by a computer search: **27**. No colouring of 30, 29 or 28 balls avoids a
  group of three, whatever points are left empty; 27 balls fit only with the
  apex and two diagonally opposite points of level 2 left empty. The game's
  longest length is declared as 27, so the conformance test would catch a
  longer game.
* Ball supply: a set has 16 balls of each colour, but no legal position can
  hold more than 12 of one colour (also computed by the search), so the supply
  never limits play and is not checked.
* The rule book's example game of 22 balls, which can go no further (figure
  lost), is rebuilt in the tests with a blocked 22-ball position of our own.
  The English text calls 22 a poor score and the French translation a very
  good one; random play reaches 22 or more in almost half of its games (the
  tests measure it), so the English judgement is kept.
* The board level alone is easy to fill (for instance in stripes of pairs);
  the difficulty, as the text says, starts above it.
"""

    def initial_state(self, rng=None) -> State:
        return State()

    def legal_moves(self, state, player=None):
        if state.result is not None:
            return []
        pos = state.position
        return [PLACE_MOVES[c][p] for p in playable_points(pos.occupied)
                for c in COLOURS if fits(pos, p, c)]

    def apply(self, state, move):
        position = state.position.place(move.point, move.colour)
        return self.settle(State(position, 0, None, move))

    def random_playout(self, state, rng):
        """The generic loop's games on raw masks: the same moves in the same order
        (by point, then white, black, red) and the same draws.

        Per colour, the points closed to it only grow as balls are added: those
        touching two of its balls, or one that touches another.  They are kept
        up to date ball by ball (see :func:`fits`).
        """
        if state.result is not None:
            return state
        rnd = rng.random
        masks = [state.position.white, state.position.black, state.position.red]
        once, closed = [0, 0, 0], [0, 0, 0]
        for c in range(3):
            m = masks[c]
            masks[c] = 0
            while m:
                low = m & -m
                m ^= low
                _add(masks, once, closed, c, low.bit_length() - 1)
        move = state.last
        while True:
            playable = playable_cached(masks[0] | masks[1] | masks[2])
            open_ = [playable & ~closed[0], playable & ~closed[1], playable & ~closed[2]]
            n = open_[0].bit_count() + open_[1].bit_count() + open_[2].bit_count()
            if not n:
                break
            p, c = _nth_option(open_, int(rnd() * n))
            _add(masks, once, closed, c, p)
            move = PLACE_MOVES[COLOURS[c]][p]
        return self.settle(State(Position.from_masks(*masks), 0, None, move))

    def finished(self, position: Position) -> bool:
        """Whether no ball of any colour can be added."""
        return not any(fits(position, p, c) for p in playable_points(position.occupied)
                       for c in COLOURS)

    def settle(self, state):
        if state.result is None and self.finished(state.position):
            n = state.position.occupied.bit_count()
            best = " (the best possible)" if n == BEST_SCORE else ""
            outcome = SpuzzleOutcome((0,), f"score {n}{best}: no ball can be added "
                                           "without a group of three", (float(n),), ((0,),))
            return State(state.position, 0, outcome, state.last)
        return state

    def state_from(self, position, to_move, extras):
        if extras:
            raise NotationError(f"Spuzzle states have no extra fields, got {shown(extras)}")
        if not position.is_stable():
            raise NotationError("Spuzzle position: a ball is not resting on a full platform")
        if largest_group(position) > MAX_GROUP:
            raise NotationError("Spuzzle position: it already has a group of three or more")
        return self.settle(State(position=position, to_move=to_move))


__all__ = ["BEST_SCORE", "Spuzzle", "SpuzzleOutcome", "fits", "largest_group"]
