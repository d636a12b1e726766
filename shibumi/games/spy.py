"""Spy: a Master hides a finished pyramid; Agents rebuild it on their own boards.

Every player has a set of their own.  Player 1 is the Master, whose secret
code (a full pyramid of 30 balls) is laid at random by chance actions
(``=W`` puts a white ball on the next point of the code, board level first).
The other players are Agents: each round they all choose at once, in
secret, to add a ball to their own board or to move one of its balls, and
then every Agent hears how many of their visible balls match the code.

>>> from shibumi import load
>>> game = load('spy')
>>> match = game.new_match(seed=3)
>>> match.state.position.occupied.bit_count(), match.state.boards[0] == START
(30, True)
>>> game.legal_moves(match.state, 0)                  # the Master never acts
[Move('pass')]
>>> match.push_joint(['pass', 'Wa1', 'd4.1>a1'])
>>> match.state.rounds, match.state.boards[1].text()
(1, '..../.RR./.RR./R...|.../.../...|../..|.')
>>> match.state.scores                                # a1 is white in this code
(1, 0)
>>> game.state_text(game.observe(match.state, 1)).split()[-1]
'secret'
"""

from __future__ import annotations

import dataclasses
import random
import re
from dataclasses import dataclass
from itertools import accumulate, repeat, starmap

from ..bits import carried, playable_of as playable_fast, points_in
from ..errors import IllegalMoveError, NotationError, shown
from ..game import CHANCE, SIMULTANEOUS, TERMINAL, Game, GameInfo, Outcome, State
from ..geometry import (EXTERIOR_MASK, INTERIOR_MASK, NUM_POINTS, SUPPORT_MASK, SUPPORTED_MASK,
                        points_of)
from ..notation import CHOOSE, MOVE, PASS_MOVE, Move
from ..position import BLACK, RED, WHITE, Position, hidden_mask
from ..registry import register
from .placement import PLACE_MOVES

#: Balls of each colour in one player's set.
PER_COLOUR = 16
#: An Agent's board at the start: the five interior points, all red.
START = Position.from_masks(red=INTERIOR_MASK)
#: How often the code search takes a random step rather than the best one.
NOISE = 0.3
#: Steps of the code search before it starts again from a fresh random code.
RESTART = 1000
#: Rounds after which the game stops even if nobody has finished (our addition).
ROUND_LIMIT = 40
COLOURS = (WHITE, BLACK, RED)
DRAWS = {c: Move.choose(c) for c in COLOURS}
RELOCATE = tuple(tuple(Move.relocate(s, t) for t in range(NUM_POINTS))
                 for s in range(NUM_POINTS))
_STATE_FIELDS = "boards=<position>;<position>... scores=<n>,<n>... round=<n> [secret]"


def score(board: Position, code: Position) -> int:
    """Visible balls of ``board`` outside the five interior points that have the
    colour of the same point of ``code``.

    >>> score(START, START), score(Position('R.../..../..../....|.../.../...|../..|.'),
    ...                            Position('R.../..../..../....|.../.../...|../..|.'))
    (0, 1)
    """
    shown_ = board.occupied & ~hidden_mask(board.occupied) & EXTERIOR_MASK
    same = (board.white & code.white) | (board.black & code.black) | (board.red & code.red)
    return (same & shown_).bit_count()


# -- an Agent's choices, on bare masks -----------------------------------------------
#
# The playable points and the balls that can be lifted come from a few shifts
# of the level masks. Additions go on any playable point P. A ball with
# nothing on it, lifted from s, may go on P less the points resting on s
# (their platform breaks): P itself, unless s supports a playable point above
# the board. A ball carrying a column may go where the column's top ball was,
# too, unless the whole column is its colour (that would rebuild the board).
# legal_moves reads these functions; the playouts count the same choices, in
# the same order, on memoised shapes (below).


def one_colour(column: int, white: int, black: int, red: int) -> bool:
    """Whether the balls of ``column`` are all of one colour."""
    return column & white == column or column & black == column or column & red == column


def _loaded_targets(s: int, occ: int, playable: int, white: int, black: int, red: int) -> int:
    """Where the ball at ``s``, carrying a column, may be moved."""
    column, top = 1 << s, s
    above = SUPPORTED_MASK[s] & occ
    while above:
        top = above.bit_length() - 1
        column |= 1 << top
        above = SUPPORTED_MASK[top] & occ
    targets = (playable | 1 << top) & ~SUPPORTED_MASK[top]
    if one_colour(column, white, black, red):
        targets &= ~(1 << top)
    return targets


def choices(white: int, black: int, red: int) -> tuple[int, list[int], list[tuple[int, int]]]:
    """(playable points, colours that can be added, relocations as (source, targets
    mask) by source) of a board: its legal choices in the order of the moves."""
    occ = white | black | red
    playable = playable_fast(occ)
    covered, pinned = carried(occ)
    colours = [c for c, m in ((WHITE, white), (BLACK, black), (RED, red))
               if m.bit_count() < PER_COLOUR]
    moves = []
    for s in points_of(occ & ~pinned):
        if covered >> s & 1:
            moves.append((s, _loaded_targets(s, occ, playable, white, black, red)))
        else:
            moves.append((s, playable & ~SUPPORTED_MASK[s]))
    return playable, colours, moves


# The playouts' draw.  Most of a board's choices are decided by its balls above the
# board: they fix which balls are pinned or carry a column, which raised points are
# playable, and so which balls have other targets than the playable points.  Boards
# rarely repeat, but those few upper balls do, so that part (a "shape") is worked
# out once and kept.  What is left for each draw is counting on the board level,
# and which columns are of one colour.

#: Most shapes kept before the memo starts afresh (bounded memory: a few MB).
SHAPE_CACHE_SIZE = 20_000
_SHAPES: dict[int, tuple] = {}
#: The targets fewer than the playable points below each point, when none are.
_NONE_FEWER = (0,) * (NUM_POINTS + 1)
#: The parts shapes share, each kept once: (targets to keep, top) pairs by ball and
#: top, and the tuples of fewer targets and of odd balls.
_ODD = tuple(tuple((~SUPPORTED_MASK[top], 1 << top if top != s else 0)
                   for top in range(NUM_POINTS)) for s in range(NUM_POINTS))
_PARTS: dict[tuple, tuple] = {}


def _shape(key: int) -> tuple:
    """The choices' structure for ``key``: the occupied points above the board
    (bits 0-13) and the full squares of board balls (from bit 14, each by its
    lowest point, as ``playable_of`` finds them).  As a tuple:

    - the raised playable points and their number;
    - the balls that are not pinned (a mask to keep) and the number pinned;
    - the balls carrying a column, and the heads (below);
    - the targets fewer than the playable points in all, and for the balls below
      each point, counting every column as one colour;
    - for each point: None, or if a ball there may have other targets than the
      playable points, (the points it may go to, as a mask to keep; the top of the
      column it carries, a target too if the column is not of one colour, or 0).

    A column is a ball carrying one other, and so on up (the walk of
    :func:`_loaded_targets`); the columns that go on from the same ball ``q`` differ
    only in their foot, so a head ``(bit of q, the column from q, the feet)`` tells
    which of them are of one colour: those whose foot has q's colour, if the
    column from q has."""
    upper, full = key & 0x3FFF, key >> 14
    full = full & 0x7 | full >> 1 & 0x38 | full >> 2 & 0x1C0
    l1 = upper & 0x1FF
    square = l1 & l1 >> 1 & l1 >> 3 & l1 >> 4
    raised = ((full & ~l1) << 16 | (square & 0x3 | square >> 1 & 0xC) << 25
              | (upper >> 9 & 0xF == 0xF) << 29) & ~(upper << 16)
    # The board level only matters under balls above it, where it is full.
    occ = upper << 16 | 0xFFFF
    covered, pinned = carried(occ)
    partial = 0                              # free balls under a raised playable point
    for p in points_of(raised):
        partial |= SUPPORT_MASK[p]
    partial &= ~covered
    less, odd, feet = [0] * NUM_POINTS, [None] * NUM_POINTS, {}
    for s in points_of((partial | covered) & ~pinned):
        top = s
        if covered >> s & 1:
            column = 1 << s
            above = SUPPORTED_MASK[s] & occ
            while above:
                top = above.bit_length() - 1
                column |= 1 << top
                above = SUPPORTED_MASK[top] & occ
            head = column ^ 1 << s
            feet[head] = feet.get(head, 0) | 1 << s
        odd[s] = _ODD[s][top]
        less[s] = (raised & SUPPORTED_MASK[top]).bit_count()
    heads = tuple((head & -head, head, foot) for head, foot in feet.items())
    if len(_PARTS) >= SHAPE_CACHE_SIZE:
        _PARTS.clear()
    below = tuple(accumulate(less, initial=0))
    below = _PARTS.setdefault(below, below) if below[-1] else _NONE_FEWER
    odd = tuple(odd)
    return (raised, raised.bit_count(), ~pinned, pinned.bit_count(), covered & ~pinned, heads,
            below[-1], below, _PARTS.setdefault(odd, odd))


#: Most boards whose moves are kept (the search asks again and again for the
#: moves of the boards at its root).
MOVES_CACHE_SIZE = 20_000
_MOVES: dict[tuple[int, int, int], tuple[Move, ...]] = {}


def board_moves(white: int, black: int, red: int) -> tuple[Move, ...]:
    """An Agent's choices on a board, in the order of :func:`choices` (memoised)."""
    key = white, black, red
    moves = _MOVES.get(key)
    if moves is None:
        if len(_MOVES) >= MOVES_CACHE_SIZE:
            _MOVES.clear()
        playable, colours, relocations = choices(white, black, red)
        points = points_of(playable)
        found = [PLACE_MOVES[c][p] for c in colours for p in points]
        for s, targets in relocations:
            row = RELOCATE[s]
            found.extend(row[t] for t in points_of(targets))
        moves = _MOVES[key] = tuple(found)
    return moves


def random_change(white: int, black: int, red: int, r: float) -> tuple[int, int, int]:
    """The masks of a board after the Agent's choice drawn by the number ``r``:
    index ``int(r * n)`` among the ``n`` legal choices, in the order of
    :func:`choices`, found without listing them (see :func:`random_changes`)."""
    return random_changes(white, black, red, (r,))


def random_changes(white: int, black: int, red: int, draws) -> tuple[int, int, int]:
    """The masks of a board after one Agent's choice per number of ``draws``, each
    as :func:`random_change` (one loop: the playouts' inner loop).

    Every ball that may be lifted has the playable points as targets (``places``
    of them) but for the few odd ones of its shape (see :func:`_shape`), so the
    k-th relocation is that of the ball at index k // places, or of one near it."""
    shapes, points = _SHAPES, points_in
    for r in draws:
        occ = white | black | red
        b = occ & 0xFFFF
        square = b & b >> 1 & b >> 4 & b >> 5
        key = occ >> 16 | (square & 0x777) << 14
        shape = shapes.get(key)
        if shape is None:
            if len(shapes) >= SHAPE_CACHE_SIZE:
                shapes.clear()
            shape = shapes[key] = _shape(key)
        raised, n_raised, unpinned, n_pinned, loaded, heads, fewer, fewer_below, odd = shape
        mixed = 0                           # balls carrying a column of several colours
        if heads:
            mixed = loaded
            for bit, head, feet in heads:
                mask = white if white & bit else black if black & bit else red
                if head & mask == head:
                    mixed ^= feet & mask
            fewer -= mixed.bit_count()      # they may go on their column's top too
        playable = ~occ & 0xFFFF | raised
        places = 16 - b.bit_count() + n_raised
        balls = occ.bit_count()
        if balls < PER_COLOUR:              # no colour can have run out
            adds = 3 * places
        else:
            adds = places * ((white.bit_count() < PER_COLOUR) + (black.bit_count() < PER_COLOUR)
                             + (red.bit_count() < PER_COLOUR))
        k = int(r * (adds + (balls - n_pinned) * places - fewer))
        if k < adds:                        # an addition: colour by colour, point by point
            c, k = divmod(k, places)
            target = 1 << points(playable)[k]
            if balls >= PER_COLOUR:
                c = [i for i, m in enumerate((white, black, red))
                     if m.bit_count() < PER_COLOUR][c]
            if c == 0:
                white |= target
            elif c == 1:
                black |= target
            else:
                red |= target
            continue
        k -= adds
        if mixed:
            bit, target = _mixed_choice(points(occ & unpinned), k, places, playable,
                                        fewer_below, odd, mixed)
        elif fewer_below is _NONE_FEWER:    # the playable points for every ball
            i, k = divmod(k, places)
            bit = 1 << points(occ & unpinned)[i]
            target = 1 << points(playable)[k]
        else:
            # The choices of the ball sources[i] start at i * places less the targets
            # the balls below it lack: from the index if none lacked any, step to the
            # ball whose choices hold k.
            sources = points(occ & unpinned)
            last = len(sources) - 1
            i = min(k // places, last)
            while i * places - fewer_below[sources[i]] > k:
                i -= 1
            while i < last and (i + 1) * places - fewer_below[sources[i + 1]] <= k:
                i += 1
            s = sources[i]
            k -= i * places - fewer_below[s]
            found = odd[s]
            bit = 1 << s
            target = 1 << points(playable if found is None else playable & found[0])[k]
        if loaded & bit:
            white, black, red = _lift(white, black, red, bit, target)
        elif white & bit:                   # a free ball: only it moves
            white ^= bit | target
        elif black & bit:
            black ^= bit | target
        else:
            red ^= bit | target
    return white, black, red


def _mixed_choice(sources: tuple, k: int, places: int, playable: int, fewer_below: tuple,
                  odd: tuple, mixed: int) -> tuple[int, int]:
    """(the bit of the ball, the bit of its target) of the k-th relocation, as in
    :func:`random_changes`, when the balls of ``mixed`` carry a column of several
    colours: each has one target more than its shape says (its column's top)."""
    last = len(sources) - 1
    i = min(k // places, last)
    s = sources[i]
    while i * places - fewer_below[s] + (mixed & (1 << s) - 1).bit_count() > k:
        i -= 1
        s = sources[i]
    while i < last:
        t = sources[i + 1]
        if (i + 1) * places - fewer_below[t] + (mixed & (1 << t) - 1).bit_count() > k:
            break
        i, s = i + 1, t
    k -= i * places - fewer_below[s] + (mixed & (1 << s) - 1).bit_count()
    found = odd[s]
    if found is None:
        targets = playable
    elif mixed >> s & 1:
        targets = playable & found[0] | found[1]
    else:
        targets = playable & found[0]
    return 1 << s, 1 << points_in(targets)[k]


def _lift(white: int, black: int, red: int, bit: int, target: int) -> tuple[int, int, int]:
    """The masks after the ball at ``bit``, which carries a column, is lifted (the
    balls above it drop one place, each keeping its colour) and put on ``target``."""
    occ = white | black | red
    column, top = bit, bit.bit_length() - 1
    above = SUPPORTED_MASK[top] & occ
    while above:                            # the walk of _loaded_targets
        top = above.bit_length() - 1
        column |= 1 << top
        above = SUPPORTED_MASK[top] & occ
    top = 1 << top
    # A column of one colour: as if its top ball went to the target.
    if column & white == column:
        return white ^ top | target, black, red
    if column & black == column:
        return white, black ^ top | target, red
    if column & red == column:
        return white, black, red ^ top | target
    masks = [0, white, black, red]
    colour = 1 if white & bit else 2 if black & bit else 3
    masks[colour] ^= bit
    gap, rest = bit, column ^ bit
    while rest:                             # up the column: each ball into the gap below
        low = rest & -rest
        rest ^= low
        c = 1 if masks[1] & low else 2 if masks[2] & low else 3
        masks[c] ^= low | gap
        gap = low
    masks[colour] |= target
    return masks[1], masks[2], masks[3]


def _position(white: int, black: int, red: int) -> Position:
    """``Position.from_masks`` without its checks, for masks the rules made."""
    position = Position.__new__(Position)
    position._set(white, black, red)
    return position


def _moved_board(board: Position, move: Move) -> Position:
    """:meth:`Spy.move_board` on masks: an Agent's board after their (legal) choice."""
    white, black, red = board.white, board.black, board.red
    if move.kind == MOVE:
        bit, target = 1 << move.point, 1 << move.target
        if SUPPORTED_MASK[move.point] & board.occupied:
            return _position(*_lift(white, black, red, bit, target))
        if white & bit:
            return _position(white ^ bit | target, black, red)
        if black & bit:
            return _position(white, black ^ bit | target, red)
        return _position(white, black, red ^ bit | target)
    target = 1 << move.point
    colour = move.colour
    if colour == WHITE:
        return _position(white | target, black, red)
    if colour == BLACK:
        return _position(white, black | target, red)
    return _position(white, black, red | target)


def shown_balls(occ: int) -> int:
    """The balls that score: visible, and not on the five interior points."""
    return occ & ~hidden_mask(occ) & EXTERIOR_MASK


def code_draw(code_masks: list, r: float) -> int:
    """The colour of the Master's next ball for the number ``r``: ``Game.sample_chance``
    over :meth:`Spy.chance_outcomes` (each colour left equally likely), summed in
    the same order so the bounds are the same floats."""
    have = [c for c in COLOURS if code_masks[c].bit_count() < PER_COLOUR]
    for c, bound in zip(have, _BOUNDS[len(have)]):
        if r < bound:
            return c
    return have[-1]


def _complete_code(code: Position, rnd) -> Position:
    """The rest of the code drawn by :func:`code_draw`, one number a ball.  A colour
    gains a ball a draw at most, so until one could have run out the draws are
    made in bulk, all three colours left."""
    masks = [0, code.white, code.black, code.red]
    have = [0] + [m.bit_count() for m in masks[1:]]
    p = code.occupied.bit_count()
    third, two_thirds = _BOUNDS[3][:2]
    while p < NUM_POINTS:
        n = min(PER_COLOUR - max(have), NUM_POINTS - p)
        if n:
            for r in starmap(rnd, repeat((), n)):
                c = WHITE if r < third else BLACK if r < two_thirds else RED
                masks[c] |= 1 << p
                have[c] += 1
                p += 1
        else:
            c = code_draw(masks, rnd())
            masks[c] |= 1 << p
            have[c] += 1
            p += 1
    return Position.from_masks(masks[1], masks[2], masks[3])


#: For k colours left, the running sums ``sample_chance`` compares with (1/k added
#: k times, in order: the same floats).
_BOUNDS = {k: tuple(accumulate([1 / k] * k)) for k in (1, 2, 3)}


@dataclass(frozen=True)
class SpyState(State):
    """``position`` is the Master's code (filled point by point during the opening
    draws; empty in an Agent's observation, where ``secret`` is set).  ``boards``:
    each Agent's board, Player 2 first.  ``scores``: the matches the Master last
    announced, one per Agent.  ``rounds``: rounds played."""
    boards: tuple[Position, ...] = ()
    scores: tuple[int, ...] = ()
    rounds: int = 0
    secret: bool = False


@register
class Spy(Game):
    info = GameInfo(
        name="Spy", designer="Néstor Romeral Andrés", year="2012",
        family="Multiset", source="Shibumi Rule Book (2012)",
        summary="A Master hides a finished pyramid; the Agents change their own boards "
                "a ball a round, hear how many visible balls match, and race to copy it.",
        min_players=3, max_players=6, complexity=3, chance=True,
        hidden_information=True, simultaneous=True, boards=6, max_length=ROUND_LIMIT)
    parameters = {"players": 3}
    player_names = ("Master",) + tuple(f"Agent {i}" for i in range(2, 7))

    rules = """\
Spy is for three to six people, each with a Shibumi set of their own (16
balls of each colour): one Master (Player 1) and two to five Agents.

The Master fills their board into a complete pyramid of 30 balls, in any
colours, behind a screen: this is the code. The five interior points of a
finished pyramid (the four middle holes and the middle of level 1) cannot
be seen in the end, so they never count. Each Agent starts with those five
interior points filled (here with red balls).

The game goes in rounds. In a round every Agent, at the same time and out
of sight of the others, does one thing on their own board:

* adds a ball of any colour they still have to a playable point, or
* lifts a ball that is not pinned (one holding up at most one ball) and
  puts it on a playable point. Lifting a ball lets the balls above it drop
  down the column, and the lifted ball may go on top of a dropped ball. It
  must not end where it started.

Then all boards are shown, and the Master announces to everyone, for each
Agent, how many of that Agent's visible balls outside the interior points
have the same colour as the ball at the same point of the code. Turning a
board does not help: the points must match as they stand.

The game ends after the round in which an Agent's board becomes a full
pyramid, or after 40 rounds. The Agent with the highest announced count
wins; Agents tied on it share the win. The Master does not compete.

Moves: the Master writes `pass`; an Agent writes `Wd4` (add) or `g1>e3.2`
(lift and put back).
"""
    notes = """\
Source: the Shibumi Rule Book v1.1 (2012), game by Néstor Romeral Andrés,
2012, read in English and in its French translation. The figures of the
example are lost.

* Players and boards. The book says three or more players, one set each. We
  allow three to six (a Master and two to five Agents); three is the default.
  The state holds one board per person: the Master's code, and the Agents'
  boards, Player 2 first; a game uses six boards at most.
* The Master has no goal in the book (only Agents can win), so how the code
  is chosen cannot be decided by strategy. We let chance build it: thirty
  draws, one per point in the engine's point order (board first, so every
  ball rests on a finished platform), each colour equally likely among
  those of which the Master still has balls (16 per colour). The Master
  then passes every round; it is a seat so that the table has its Master,
  and it never wins.
* The Agents' starting stack. The book lets Agents use any balls for the
  five interior points. We make them all red, as in the book's example,
  where the middle ball is red. Their colours never score, but a lifted
  interior ball keeps its colour, so this is a real (small) choice we fix.
* "Visible" is seen from directly above: a ball covered by the ball two
  levels over it is hidden and does not score. The five interior points
  never score, even while visible: the book's example leaves out the red
  ball in the middle of level 1, which the apex is about to cover.
* Lifting and putting back. We read "replace it" as putting the same ball
  back, so it keeps its colour; a lifted ball may land on a ball that just
  dropped (the book allows it); landing where it started, leaving the board
  unchanged, is not a move, so an Agent cannot stand still. An Agent may
  add a colour only while their set still has a ball of it.
* Names: the French translation calls the Agents "Disciples"; the rules
  are the same in both texts. The example's three balls are marked in the
  text by the colour each should have; the marks are lost with the figure.
* What is announced. The book says the Master tells each Agent its count;
  the whole point of the example (a spy who deduces from the other Agents'
  boards) is that everyone learns every count, so the counts are public.
* What a seat sees. Each Agent sees every board (they are shown at the end
  of each round), the latest counts and the round number; never the code.
  The Master sees everything. An Agent's choice in a round is secret until
  the round is played: the engine makes the round one simultaneous choice.
* Memory, a simplification. At the table an Agent remembers every count
  ever announced, and all of them constrain the code. The engine's state
  keeps only the latest counts (the earlier ones are history, like the last
  move), so the AI's guesses about the code agree with the latest counts
  but not necessarily with older ones. Keeping every announcement in the
  state would make its text grow with the game beyond the engine's limit.
* Guessing the code. To search, the AI draws a code that gives exactly the
  announced counts: a random code, then a local search that recolours one
  point at a time towards the counts (in the manner of WalkSAT). This draws
  consistent codes, but not each with its exact probability; if none is
  found within its step budget the observation is refused with an error.
* The end. The book ends the game in the round an Agent completes a
  pyramid. It gives no end if nobody does, and Agents can move balls
  forever, so we stop after 40 rounds (25 additions fill a board, so 15
  rounds are spare) and compare counts then. Ties share the win: the book
  does not break them.
* The example (figures lost): an Agent scores 14 and sees that the three
  balls of the lower right corner ridge (g1, f2, e3.2, bottom to top: red,
  black, white, the apex not yet placed) should be black, white and red.
  Lifting the red ball at g1 drops the black and white balls one step and
  the red goes back on top at e3.2: 14 becomes 17. The chapter and tests
  rebuild it with a code and board of our own.
* Symmetries: turning everything (the code and every board) the same way
  changes no count, so all eight turns are symmetries of the game, though
  turning one Agent's board alone is not.
* Length: a game lasts at most 40 rounds (the Master's draws are chance
  actions and are not counted).
"""

    def __init__(self, **params) -> None:
        super().__init__(**params)
        self.agents = self.num_players - 1

    # -- structure -------------------------------------------------------------
    def initial_state(self, rng: random.Random | None = None) -> SpyState:
        return SpyState(boards=(START,) * self.agents, scores=(0,) * self.agents)

    def current_player(self, state: SpyState) -> int:
        if state.result is not None:
            return TERMINAL
        if not state.secret and state.position.occupied.bit_count() < NUM_POINTS:
            return CHANCE
        return SIMULTANEOUS

    def chance_outcomes(self, state: SpyState) -> list[tuple[Move, float]]:
        """The Master's next ball: any colour they still have, equally likely."""
        if self.current_player(state) != CHANCE:
            return []
        code = state.position
        have = [c for c in COLOURS if code.count(c) < PER_COLOUR]
        return [(DRAWS[c], 1 / len(have)) for c in have]

    def length(self, state: SpyState) -> int:
        return state.rounds

    # -- moves ---------------------------------------------------------------------
    def legal_moves(self, state: SpyState, player: int | None = None) -> list[Move]:
        """One seat's choices for the round: the Master only passes; an Agent adds
        or relocates on their own board.  Without a player: none (all choose at once)."""
        if player is None or self.current_player(state) != SIMULTANEOUS:
            return []
        if player == 0:
            return [PASS_MOVE]
        board = state.boards[player - 1]
        return list(board_moves(board.white, board.black, board.red))

    def apply(self, state: SpyState, move: Move) -> SpyState:
        if move.kind != CHOOSE or self.current_player(state) != CHANCE:
            raise IllegalMoveError(f"{self.info.name}: every seat chooses at once; play "
                                   "one choice per player together (push_joint)")
        code = state.position
        point = (~code.occupied & ((1 << NUM_POINTS) - 1))
        point = (point & -point).bit_length() - 1
        return dataclasses.replace(state, position=code.place(point, move.colour), last=None)

    def apply_joint(self, state: SpyState, moves) -> SpyState:
        boards = tuple(_moved_board(b, m) for b, m in zip(state.boards, moves[1:]))
        return self._after_round(state, boards)

    @staticmethod
    def move_board(board: Position, move: Move) -> Position:
        """An Agent's board after their choice (legality checked by the Match)."""
        if move.kind == MOVE:
            lifted, _ = board.remove(move.point)
            return lifted.place(move.target, board.colour_at(move.point))
        return board.place(move.point, move.colour)

    def _after_round(self, state: SpyState, boards) -> SpyState:
        scores = tuple(score(b, state.position) for b in boards)
        after = SpyState(state.position, 0, None, None, boards, scores, state.rounds + 1)
        return self.settle(after)

    def settle(self, state: SpyState) -> SpyState:
        """Fill in the result of a state whose round ended the game."""
        if state.result is not None:
            return state
        done = [b.occupied.bit_count() == NUM_POINTS for b in state.boards]
        if not any(done) and state.rounds < ROUND_LIMIT:
            return state
        top = max(state.scores)
        winners = tuple(i + 1 for i, s in enumerate(state.scores) if s == top)
        ranking = tuple(tuple(i + 1 for i, s in enumerate(state.scores) if s == v)
                        for v in sorted(set(state.scores), reverse=True)) + ((0,),)
        why = (f"{self.player_name(done.index(True) + 1)} completed a pyramid"
               if any(done) else f"{ROUND_LIMIT} rounds were played")
        counts = ", ".join(f"{self.player_name(i + 1)} {s}" for i, s in enumerate(state.scores))
        outcome = Outcome(winners, f"{why}; matches: {counts}",
                          scores=(0.0,) + tuple(float(s) for s in state.scores),
                          ranking=ranking)
        return SpyState(state.position, state.to_move, outcome, state.last, state.boards,
                        state.scores, state.rounds, state.secret)

    def board_of(self, state: SpyState, player: int | None) -> Position:
        """An Agent plays on their own set; the Master (and an onlooker) sees the code."""
        if player is None or player == 0 or not state.boards:
            return state.position
        return state.boards[player - 1]

    # -- hidden information -----------------------------------------------------
    def observe(self, state: SpyState, player: int) -> SpyState:
        """The Master sees everything; an Agent sees every board, the counts and the
        round, but not the code (and not the Master's draws)."""
        if player == 0 or state.secret:
            return state
        return dataclasses.replace(state, position=Position.empty(), secret=True, last=None)

    def determinise(self, observation: SpyState, player: int,
                    rng: random.Random) -> SpyState:
        """A full state with a code drawn to give every Agent its announced count."""
        if not observation.secret:
            return observation
        code = draw_code(observation.boards, observation.scores, rng)
        if code is None:
            raise NotationError("no code of 30 balls gives these counts")
        return SpyState(code, observation.to_move, observation.result, observation.last,
                        observation.boards, observation.scores, observation.rounds, False)

    def state_key(self, state: SpyState) -> tuple:
        return (state.position, state.boards, state.scores, state.rounds, state.secret,
                state.result)

    def transform_state(self, state: SpyState, perm) -> SpyState:
        return dataclasses.replace(state, position=state.position.transform(perm),
                                   boards=tuple(b.transform(perm) for b in state.boards),
                                   last=None)

    # -- fast random games ------------------------------------------------------
    def random_playout(self, state: SpyState, rng: random.Random) -> SpyState:
        """Random rounds to the end on bare masks: the same draws over the same
        choices as the generic loop (checked by the tests), so the same games: the
        rest of the code by ``sample_chance``'s sums, then each round one draw for
        the Master's pass and one for each Agent in seat order."""
        if state.secret or state.result is not None:
            return Game.random_playout(self, state, rng)
        rnd = rng.random
        code = state.position
        if code.occupied.bit_count() < NUM_POINTS:
            code = _complete_code(code, rnd)
        cw, cb, cr = code.white, code.black, code.red
        boards = [(b.white, b.black, b.red) for b in state.boards]
        rounds, full, seats = state.rounds, (1 << NUM_POINTS) - 1, len(boards) + 1
        while True:
            # A round adds at most a ball to a board, so none can be full before
            # `step` rounds: they are drawn at once (the Master's pass, then each
            # Agent's choice, round by round), and each board plays its own draws.
            step = min(NUM_POINTS - max((w | b | r).bit_count() for w, b, r in boards),
                       ROUND_LIMIT - rounds)
            draws = list(starmap(rnd, repeat((), step * seats)))
            boards = [random_changes(w, b, r, draws[i::seats])
                      for i, (w, b, r) in enumerate(boards, 1)]
            rounds += step
            if rounds >= ROUND_LIMIT or any(w | b | r == full for w, b, r in boards):
                break
        scores = tuple(((w & cw | b & cb | r & cr) & shown_balls(w | b | r)).bit_count()
                       for w, b, r in boards)
        positions = tuple(_position(w, b, r) for w, b, r in boards)
        return self.settle(SpyState(code, 0, None, None, positions, scores, rounds))

    # -- text ----------------------------------------------------------------------
    def extra_text(self, state: SpyState) -> str:
        parts = ["boards=" + ";".join(b.text() for b in state.boards),
                 "scores=" + ",".join(str(s) for s in state.scores)]
        if state.rounds:
            parts.append(f"round={state.rounds}")
        if state.secret:
            parts.append("secret")
        return " ".join(parts)

    def state_from(self, position: Position, to_move: int, extras: str) -> SpyState:
        name = self.info.name
        if to_move != 0:
            raise NotationError(f"{name}: everyone chooses at once, so the player field "
                                "is always 1")
        fields: dict = {}
        for token in extras.split():
            key, eq, value = token.partition("=")
            if key in fields or (key == "secret") == bool(eq) or \
                    key not in ("boards", "scores", "round", "secret"):
                raise NotationError(f"{name} state field {shown(token)} not understood "
                                    f"(or given twice); fields: {_STATE_FIELDS}")
            fields[key] = value
        if "boards" not in fields or "scores" not in fields:
            raise NotationError(f"{name} state needs boards= and scores=; fields: "
                                f"{_STATE_FIELDS}")
        texts = fields["boards"].split(";")
        if len(texts) != self.agents:
            raise NotationError(f"{name} with {self.num_players} players has "
                                f"{self.agents} Agents' boards, separated by ';'")
        boards = tuple(Position(t) for t in texts)
        numbers = fields["scores"].split(",")
        if len(numbers) != self.agents or not all(re.fullmatch("[0-9]{1,2}", n)
                                                  for n in numbers):
            raise NotationError(f"{name}: scores= gives one count per Agent, like "
                                f"scores={','.join(['0'] * self.agents)}")
        scores = tuple(int(n) for n in numbers)
        rounds_text = fields.get("round", "0")
        if not re.fullmatch("[0-9]{1,3}", rounds_text) or int(rounds_text) > ROUND_LIMIT:
            raise NotationError(f"{name}: round= is a number of rounds, 0-{ROUND_LIMIT}")
        rounds = int(rounds_text)
        secret = "secret" in fields
        for i, b in enumerate(boards):
            who = self.player_name(i + 1)
            if not b.is_stable():
                raise NotationError(f"{name}: {who}'s board has a ball on an unfinished "
                                    "platform")
            if max(b.count(c) for c in COLOURS) > PER_COLOUR or b.count(RED) < 5:
                raise NotationError(f"{name}: {who}'s board needs its five red balls and "
                                    f"at most {PER_COLOUR} of a colour")
            if not 5 <= b.occupied.bit_count() <= 5 + rounds:
                raise NotationError(f"{name}: {who}'s board holds five balls and at most "
                                    "one more per round played")
            if scores[i] > (b.occupied & ~hidden_mask(b.occupied) & EXTERIOR_MASK).bit_count():
                raise NotationError(f"{name}: {who}'s count is more than their scoring balls")
        if rounds == 0 and (boards != (START,) * self.agents or any(scores)):
            raise NotationError(f"{name}: before the first round every Agent has the five "
                                "interior reds and a count of 0")
        if secret:
            if position.occupied:
                raise NotationError(f"{name}: a secret state shows no code (an empty "
                                    "position)")
        else:
            if max(position.count(c) for c in COLOURS) > PER_COLOUR:
                raise NotationError(f"{name}: the code has at most {PER_COLOUR} balls "
                                    "of a colour")
            k = position.occupied.bit_count()
            if position.occupied != (1 << k) - 1:
                raise NotationError(f"{name}: the code is laid point by point from a1, "
                                    "board level first")
            if k < NUM_POINTS and rounds:
                raise NotationError(f"{name}: the code is complete before the first round")
            if k == NUM_POINTS and scores != tuple(score(b, position) for b in boards):
                raise NotationError(f"{name}: the counts do not match the code")
        return self.settle(SpyState(position, 0, None, None, boards, scores, rounds,
                                    secret))

    def describe(self, state: SpyState) -> str:
        lines = []
        if state.secret:
            lines.append("The Master's code: hidden behind the screen.")
        else:
            lines += ["The Master's code:", state.position.diagram()]
        for i, b in enumerate(state.boards):
            lines += [f"{self.player_name(i + 1)}'s board (count {state.scores[i]}):",
                      b.diagram()]
        lines.append(f"Rounds played: {state.rounds} of at most {ROUND_LIMIT}.")
        outcome = self.outcome(state)
        if outcome is not None:
            names = " and ".join(self.player_name(p) for p in outcome.winners)
            lines.append(f"Game over: {names} won. {outcome.reason}")
        elif self.current_player(state) == SIMULTANEOUS:
            lines.append("Every Agent chooses in secret; the Master passes.")
        return "\n".join(lines)


def draw_code(boards, scores, rng: random.Random, budget: int = 60_000) -> Position | None:
    """A random code of 30 balls (at most 16 of a colour) that gives each board its
    count, or None if none is found within ``budget`` steps.

    A local search in the manner of WalkSAT: start from a random code, and while
    some count is wrong, pick a wrong count at random and recolour one of its
    points in the direction that fixes it: the change that most lowers the
    total error, or now and then a random one, to escape traps.
    Runs are restarted from a fresh random code every RESTART steps (the time
    a run needs is heavy-tailed).  Points that no board scores on are coloured
    at random.

    >>> board = Position('W.../..../..../....|.../.../...|../..|.')
    >>> score(board, draw_code([board], [1], random.Random(0)))
    1
    >>> draw_code([board], [2], random.Random(0)) is None
    True
    """
    scored = [b.occupied & ~hidden_mask(b.occupied) & EXTERIOR_MASK for b in boards]
    if any(not 0 <= s <= m.bit_count() for s, m in zip(scores, scored)):
        return None
    # The search only looks at the points a board scores on: its colours there,
    # and for each point the boards that score on it.
    members = [points_of(m) for m in scored]
    want, on = [], [[] for _ in range(NUM_POINTS)]
    for k, (b, points) in enumerate(zip(boards, members)):
        colours = [0] * NUM_POINTS
        for p in points:
            colours[p] = WHITE if b.white >> p & 1 else BLACK if b.black >> p & 1 else RED
            on[p].append(k)
        want.append(colours)
    rnd = rng.random
    for _ in range(max(1, budget // RESTART)):
        code: list[int] = []
        counts = [0, 0, 0, 0]
        while len(code) < NUM_POINTS:
            # A colour gains a ball a draw at most: this many draws cannot run one
            # out, and all three colours are left for them.
            n = min(PER_COLOUR - max(counts), NUM_POINTS - len(code))
            if n:
                code += [COLOURS[int(rnd() * 3)] for _ in range(n)]
                counts = [0, code.count(WHITE), code.count(BLACK), code.count(RED)]
            else:
                have = [c for c in COLOURS if counts[c] < PER_COLOUR]
                c = have[int(rnd() * len(have))]
                code.append(c)
                counts[c] += 1
        matched = [sum(1 for p in members[k] if code[p] == want[k][p])
                   for k in range(len(boards))]
        error = sum(abs(m - s) for m, s in zip(matched, scores))
        steps = 0
        while error and steps < RESTART:
            steps += 1
            wrong = [k for k in range(len(boards)) if matched[k] != scores[k]]
            k = wrong[int(rnd() * len(wrong))]
            up = matched[k] < scores[k]
            moves = []
            for p in members[k]:
                if (code[p] == want[k][p]) == up:
                    continue
                for colour in ((want[k][p],) if up else
                               tuple(c for c in COLOURS if c != code[p])):
                    if counts[colour] >= PER_COLOUR:
                        continue
                    delta = 0
                    for j in on[p]:
                        d = (colour == want[j][p]) - (code[p] == want[j][p])
                        delta += abs(matched[j] + d - scores[j]) - abs(matched[j] - scores[j])
                    moves.append((delta, p, colour))
            if not moves:
                continue
            if rnd() < NOISE:
                delta, p, colour = moves[int(rnd() * len(moves))]
            else:
                best = min(m[0] for m in moves)
                top = [m for m in moves if m[0] == best]
                delta, p, colour = top[int(rnd() * len(top))]
            changes = []
            for j in on[p]:
                d = (colour == want[j][p]) - (code[p] == want[j][p])
                if d:
                    changes.append((j, d))
            counts[code[p]] -= 1
            counts[colour] += 1
            code[p] = colour
            for j, d in changes:
                matched[j] += d
            error += delta
        if not error:
            break
    if error:
        return None
    return _code_position(code)


#: For each colour, the table turning a code's colours (as bytes) into binary digits:
#: "1" for that colour, "0" for the others.
_DIGITS = {c: bytes.maketrans(bytes(COLOURS), b"".join(b"1" if d == c else b"0" for d in COLOURS))
           for c in COLOURS}


def _code_position(code: list[int]) -> Position:
    """The position of a code given as the colour of each point in order: each
    colour's mask read as a binary number, the last point first."""
    raw = bytes(reversed(code))
    return Position.from_masks(*(int(raw.translate(_DIGITS[c]), 2) for c in COLOURS))


__all__ = ["PER_COLOUR", "ROUND_LIMIT", "START", "Spy", "SpyState", "draw_code", "score"]
