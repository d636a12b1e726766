"""Speedo: three players take one ball away and add two each turn; visible group products score.

A turn is three actions by the same player: a removal (``xa1``), then the
two colours that were not removed, in either order (``Bc3``, ``Rd4``).
Every turn adds one ball, so the pyramid is full after exactly 30 moves
(White's opening ball and 29 turns), which is 88 actions.

>>> from shibumi import load
>>> match = load('speedo').new_match()
>>> [match.push(m).text() for m in ('c3', 'xc3.0', 'Ba1', 'g7')]
['Wc3.0', 'xc3.0', 'Ba1', 'Rg7']
>>> match.state.position.text(), match.current_player
('...R/..../..../B...|.../.../...|../..|.', 2)
>>> match.push('xa1'), load('speedo').extra_text(match.state)
(Move('xa1'), 'place=WR')
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass

from ..bits import carried, nth_point, playable_points_cached, remove_ball
from ..errors import NotationError
from ..game import Game, GameInfo, Outcome, State
from ..geometry import ALL_MASK, BOARD_MASK, NUM_POINTS, points_of
from ..notation import REMOVE, Move
from ..position import BLACK, COLOUR_LETTERS, COLOUR_NAMES, RED, WHITE, Position
from ..registry import register
from .placement import PLACE_MOVES, PLAYER_COLOURS, REMOVE_MOVES, playable_points
from .spao import group_sizes, scores_outcome

#: The colours placed after removing a ball of each colour.
OTHERS = {WHITE: (BLACK, RED), BLACK: (WHITE, RED), RED: (WHITE, BLACK)}
#: Actions in a whole game: White's opening ball, then 29 turns of three.
ACTIONS = 1 + 3 * (NUM_POINTS - 1)
_MOVABLE: dict[int, int] = {}


def movable_bits(occupied: int) -> int:
    """Balls that may be removed: those resting under at most one ball (the
    pinned ones found by shifts, :func:`shibumi.bits.carried`).  Memoised, as
    playouts meet the same occupancies again; cleared past 200,000 entries."""
    mask = _MOVABLE.get(occupied)
    if mask is None:
        if len(_MOVABLE) > 200_000:
            _MOVABLE.clear()
        mask = _MOVABLE[occupied] = occupied & ~carried(occupied)[1]
    return mask


def visible_sizes(position: Position, colour: int, ignore: int = 0) -> list[int]:
    """Sizes of a colour's visible groups, largest first (``ignore``: balls left out)."""
    return group_sizes(position, colour, visible_only=True, ignore=ignore)


@dataclass(frozen=True)
class SpeedoState(State):
    pending: tuple[int, ...] = ()
    """Colours still to be placed this turn (empty between turns), in W, B, R order."""


@register
class Speedo(Game):
    info = GameInfo(
        name="Speedo", designer="Cameron Browne", year="2012",
        family="Counting", source="Shibumi Rule Book (2012)",
        summary="Three players each take a ball away and add two of the other colours "
                "every turn; on the full pyramid the product of your visible group "
                "sizes is your score.",
        min_players=3, max_players=3, complexity=3, max_length=ACTIONS)

    rules = """\
Three players, White, Black and Red, take turns in that order. The board
starts empty, and White opens by putting one white ball in any hole. From
then on every turn, Black's first included, has two parts:

1. Take away any ball, of any colour, that is not pinned (a ball is pinned
   when two or more balls rest on it). If one ball rested on it, that ball
   drops into the gap, and so does any ball resting on it in turn.
2. Put in two balls: one of each of the two colours other than the colour
   you took away, in the order you like, each on a playable point (an empty
   hole, or the hollow on top of a complete 2x2 platform). The second may go
   on a platform the first has just completed.

So you never add a ball of the colour you removed: taking away one of your
own balls means feeding both opponents. Each turn adds one ball to the
pyramid, so it is full after exactly 30 moves (the opening and 29 turns),
and Red makes the last one.

Then everyone scores what can be seen from above. Your visible balls form
groups: two of them are joined when they touch and the contact is visible
(hidden balls do not count, and a contact passing under a crossing pair of
balls on the level above is cut). Your score is the product of the sizes
of your groups; with no visible ball at all you score 0. The highest score
wins, and players tied for it share the win.
"""
    notes = """\
* Source: the Shibumi Rule Book v1.1 (2012), game by Cameron Browne (2012),
  a companion to Spao. The reading of the turn order agrees with the Ludii
  implementation of the game.
* White's opening ball is White's first move, and Black moves next. Only
  this makes both statements of the text true: the game lasts exactly 30
  moves (1 + 29 turns, each adding one ball), and Red makes the final move
  (move 30 belongs to Red when White has move 1).
* Black's first turn must take away the lone white ball, the only ball
  there is, and then puts a black and a red ball on the empty board.
* "Movable" is the rule book's term: any ball that is not pinned, whatever
  rests on it. Taking away a ball with one ball on it drops that ball (and
  the column above it) into the gap. Nothing forbids putting a new ball on a
  dropped ball or into the place just emptied; no cycle can arise, since
  every turn adds a ball.
* The two balls are placed one after the other, and the second may rest on
  a platform completed by the first. The last turn shows this must be so:
  29 balls fill everything but the apex, and any removal empties one
  level-2 point (directly, or by a drop), so the turn can only be finished
  by filling that point and then the apex on top of it.
* In a finished pyramid every ball on the five interior points is hidden
  (four board centres under level 2, the level-1 centre under the apex), so
  exactly the 25 exterior balls are scored.
* A player with no visible ball scores 0 (an empty product would otherwise
  be 1, as much as a single ball). It needs a colour with no exterior ball
  at the end: once in 20,000 of our random games.
* Ties: the text only says the highest score wins; players tied on it
  share the win (in our random games about one game in sixteen).
* Ball supply: the rules let a colour pile up (a player who never removes
  white adds a white ball every turn), and nothing in the text limits a
  colour to the sixteen balls of a set. We follow the text and never check
  the supply; at a table, stand in any ball for the extra ones. In our
  random games a colour goes past sixteen balls in about one game in a
  hundred (at most twenty balls of one colour in 20,000 games).
* The worked example does not add up (its figure is lost). It is Red's
  final move, with 29 balls on the pyramid, and the text leaves out the
  level-1 centre because the apex will bury it. That leaves exactly 24
  balls to count, since the four board centres are already hidden; but the
  groups it lists (White 2, 2, 6; Black 3, 5; Red 1, 1, 1, 2, 2) hold 25
  balls, and White's product is written as 16 although 2 x 2 x 6 is 24.
  Red's list agrees with Red's final 2 x 3 x 3: the last turn keeps every
  other exterior ball's colour (a drop only moves the balls of one corner
  column down the same column) and adds one red ball, and 7 + 1 = 8. So the
  extra ball is most likely the level-1 centre itself, counted after all
  in White's or Black's groups. We do not test against the example's
  figures. The chapter shows the count, and a position of our own whose
  groups are exactly the listed ones when the centre is counted (the centre
  is black there), and in which Red's only winning result is the text's
  kind of move: take away a white ball of a corner column so that the
  column drops, then put black and red on top, for 2 x 3 x 3 = 18. (In our
  position either of the column's two white balls can be taken, with the
  same result.)
* A turn is three actions (removal, placement, placement), so a game is
  88 actions long; "moves" in the rule book's sense are whole turns.
* State text: between turns nothing is added; in the middle of a turn,
  `place=BR` (for example) lists the colours still to be placed.
"""

    # -- the turn --------------------------------------------------------------
    def initial_state(self, rng=None) -> SpeedoState:
        return SpeedoState()

    def legal_moves(self, state, player=None) -> list[Move]:
        if state.result is not None:
            return []
        occ = state.position.occupied
        if state.pending:
            spots = playable_points(occ)
            return [PLACE_MOVES[c][p] for c in state.pending for p in spots]
        if not occ:                                    # White's opening ball
            return [PLACE_MOVES[WHITE][p] for p in points_of(BOARD_MASK)]
        return [REMOVE_MOVES[p] for p in points_of(movable_bits(occ))]

    def apply(self, state, move: Move) -> SpeedoState:
        position = state.position
        if move.kind == REMOVE:
            colour = position.colour_at(move.point)
            lifted, _ = position.remove(move.point)
            return SpeedoState(lifted, state.to_move, None, move, OTHERS[colour])
        placed = position.place(move.point, move.colour)
        pending = tuple(c for c in state.pending if c != move.colour)
        if pending:
            return SpeedoState(placed, state.to_move, None, move, pending)
        return self.settle(SpeedoState(placed, (state.to_move + 1) % 3, None, move, ()))

    # -- the end -----------------------------------------------------------------
    def sizes(self, position: Position, ignore: int = 0) -> list[list[int]]:
        """Each player's visible group sizes, largest first."""
        return [visible_sizes(position, c, ignore) for c in PLAYER_COLOURS]

    def score(self, position: Position) -> Outcome:
        """Everyone's product of visible group sizes, and who has the highest."""
        return scores_outcome(self, self.sizes(position))

    def settle(self, state):
        if not state.pending and state.position.occupied == ALL_MASK:
            return dataclasses.replace(state, result=self.score(state.position))
        return state

    def length(self, state) -> int:
        """Actions played: White's opening ball, then three a turn."""
        balls = state.position.count()
        return {0: 3 * balls - 2 if balls else 0, 1: 3 * balls,
                2: 3 * balls + 2}[len(state.pending)]

    def moves_played(self, state) -> int:
        """Whole moves in the rule book's sense: the opening, then each finished turn."""
        return state.position.count() + (len(state.pending) == 2)

    # -- text ----------------------------------------------------------------------
    def status_lines(self, state) -> list[str]:
        """The colours still to be placed this turn."""
        if state.result is not None or not state.pending:
            return []
        balls = " and ".join(f"a {COLOUR_NAMES[c]} ball" for c in state.pending)
        return [f"Still to place this turn: {balls}."]

    def extra_text(self, state) -> str:
        if not state.pending:
            return ""
        return "place=" + "".join(COLOUR_LETTERS[c] for c in state.pending)

    def state_from(self, position, to_move, extras):
        pending = self._read_pending(extras)
        balls = position.count()
        turns = balls + (len(pending) == 2)            # whole moves made so far
        if balls + len(pending) > NUM_POINTS:
            raise NotationError(f"Speedo state: {balls} balls leave no room for "
                                f"{len(pending)} more")
        if to_move != turns % 3:
            raise NotationError(f"Speedo: {balls} balls"
                                f"{' and ' + extras if pending else ''} cannot be reached "
                                f"with {self.player_name(to_move)} to move: White opens "
                                "and every turn adds one ball, so it is "
                                f"{self.player_name(turns % 3)}'s turn")
        if turns == 1 and not pending and position.white != position.occupied:
            raise NotationError("Speedo: the single ball after the opening is white")
        if turns == 1 and pending and (WHITE in pending or position.white):
            raise NotationError("Speedo: Black's first turn removes the opening white "
                                "ball, then places black and red")
        return self.settle(SpeedoState(position, to_move, None, None, pending))

    def _read_pending(self, extras: str) -> tuple[int, ...]:
        if not extras:
            return ()
        key, eq, letters = extras.partition("=")
        colours = tuple(COLOUR_LETTERS.find(ch) for ch in letters)
        if key != "place" or not eq or not 1 <= len(colours) <= 2 \
                or any(c < 1 for c in colours) or len(set(colours)) != len(colours) \
                or " " in letters:
            raise NotationError(f"Speedo state field {extras!r} not understood: mid-turn "
                                "states end with place=<colours still to place>, "
                                "like place=BR or place=W")
        return tuple(sorted(colours))

    # -- fast random games -----------------------------------------------------------
    def random_playout(self, state, rng: random.Random):
        """The generic loop's games (the same choices from the same generator), on masks."""
        if state.result is not None:
            return state
        rnd = rng.random
        pos = state.position
        masks = [pos.white, pos.black, pos.red]        # by colour, WHITE first
        occ = pos.occupied
        mover, pending, last = state.to_move, state.pending, state.last
        while True:
            if pending:                       # a colour still to place, then where
                spots = playable_points_cached(occ)
                n = len(spots)
                i = int(rnd() * (len(pending) * n))
                colour, p = pending[i // n], spots[i % n]
                bit = 1 << p
                masks[colour - WHITE] |= bit
                occ |= bit
                last = PLACE_MOVES[colour][p]
                pending = tuple(c for c in pending if c != colour)
                if not pending:
                    mover = (mover + 1) % 3
                    if occ == ALL_MASK:
                        break
            elif not occ:                     # White's opening ball, on the board
                p = int(rnd() * 16)
                masks[0] |= 1 << p
                occ |= 1 << p
                last, mover = PLACE_MOVES[WHITE][p], 1
            else:                             # a free ball goes; its column drops
                free = movable_bits(occ)
                p = nth_point(free, int(rnd() * free.bit_count()))
                bit = 1 << p
                colour = WHITE if masks[0] & bit else BLACK if masks[1] & bit else RED
                occ = remove_ball(masks, occ, p)[0]
                pending, last = OTHERS[colour], REMOVE_MOVES[p]
        position = Position.from_masks(*masks)
        return SpeedoState(position, mover, self.score(position), last, ())


assert ACTIONS == 88

__all__ = ["ACTIONS", "OTHERS", "Speedo", "SpeedoState", "movable_bits", "visible_sizes"]
