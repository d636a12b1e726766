"""Spoing: jump a ball of another colour, take the ball you land on, recolour the one you cross.

Nothing is ever stacked: the sixteen holes of the board start full, White's
two home ranks white and Black's two black, and every move is a jump along a
row, a column or a diagonal of the board.  The jumping ball (the mover's own
colour or a neutral red) crosses a neighbour of another colour, replaces the
ball just beyond it, and the crossed ball turns into the third colour.  Each
move takes one ball off the board, so games are short: fourteen moves
bound them, and twelve is the real longest.

>>> from shibumi import load
>>> match = load('spoing').new_match()
>>> len(match.legal_moves())
8
>>> match.push('c3>c7')
Move('c3.0>c7')
>>> match.state.position.text()     # c3 empty, c5 now red, the white ball on c7
'BWBB/BRBB/W.WW/WWWW|.../.../...|../..|.'
>>> match.state.position.count(RED), match.state.position.count(BLACK)
(1, 6)
>>> sorted(move.text() for _, _, move in JUMPS[0])     # over a3, c3 and c1
['a1>a5', 'a1>e1', 'a1>e5.0']
"""

from __future__ import annotations

import random
from dataclasses import replace

from ..errors import NotationError
from ..game import Game, GameInfo, Outcome, State
from ..geometry import BOARD_MASK, COORDS, point_at
from ..notation import Move
from ..position import BLACK, RED, WHITE, Position
from ..registry import register

#: The eight directions of a jump on the board: along rows, columns and diagonals.
STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


def _jumps() -> tuple[tuple[tuple[int, int, Move], ...], ...]:
    """For each hole, its jumps as (hole jumped over, hole landed on, move)."""
    table = []
    for p in range(16):
        _, x, y = COORDS[p]
        found = []
        for dx, dy in STEPS:
            land = point_at(0, x + 2 * dx, y + 2 * dy)
            if land is not None:
                found.append((point_at(0, x + dx, y + dy), land, Move.relocate(p, land)))
        table.append(tuple(found))
    return tuple(table)


JUMPS = _jumps()
#: The same jumps as bits for move generation: (hole landed on, hole jumped over, move).
_CHECKS = tuple(tuple((1 << land, 1 << over, move) for over, land, move in jumps)
                for jumps in JUMPS)
#: ``THIRD[a][b]``: the colour that is neither a nor b (white 1, black 2, red 3).
THIRD = {WHITE: {BLACK: RED, RED: BLACK}, BLACK: {WHITE: RED, RED: WHITE},
         RED: {WHITE: BLACK, BLACK: WHITE}}
#: White on the two ranks nearest White (1 and 3), black on the two nearest Black.
START = Position.from_masks(white=0x00FF, black=0xFF00)
#: Balls at the start; every move removes exactly one.
START_BALLS = 16


def jump_moves(white: int, black: int, red: int, player: int) -> list[Move]:
    """The jumps open to a player, from the three colour masks of the board."""
    occupied = white | black | red
    own = (white, black)[player]
    found = []
    # each mover with the balls it may cross: those of another colour than its own
    for movers, crossable in ((own, occupied & ~own), (red, occupied & ~red)):
        while movers:
            low = movers & -movers
            movers ^= low
            for land, over, move in _CHECKS[low.bit_length() - 1]:
                if occupied & land and crossable & over:
                    found.append(move)
    return found


def final_outcome(position: Position, stuck: int) -> Outcome:
    """The result once ``stuck`` (the player to move) has no jump: most balls wins."""
    white, black = position.count(WHITE), position.count(BLACK)
    names = ("White", "Black")
    why = f"{names[stuck]} cannot jump; white {white}, black {black}"
    scores = (float(white), float(black))
    if white == black:
        return Outcome((), why, scores, ((0, 1),))
    winner = 0 if white > black else 1
    return Outcome((winner,), why, scores, ((winner,), (1 - winner,)))


@register
class Spoing(Game):
    info = GameInfo(
        name="Spoing", designer="Stephen Tavener", year="2011",
        family="Capture", source="Shibumi Rule Book (2012)",
        summary="On a full board without stacking, jump your own or a red ball over "
                "a ball of another colour onto the ball beyond: the landing spot's ball "
                "is taken, the crossed one changes colour. Most balls left wins.",
        complexity=3, max_length=12)
    symmetries = (0, 4)           # the start is kept only by the left-right mirror

    rules = """\
Only the sixteen holes of the board are used; no ball ever rests on another.
At the start every hole is full: the eight holes of ranks 1 and 3 (White's
side) hold white balls and the eight of ranks 5 and 7 (Black's side) black
balls. There is no red ball yet. White moves first, then the players
alternate.

A move is a single jump in a straight line along a row, a column or a
diagonal. Choose a ball you may move: one of your own colour or any red
ball. Its neighbour in the chosen direction must be a ball whose colour
differs from the jumping ball's, and the hole just beyond that neighbour
must hold a ball too, of any colour. The jumping ball leaves its hole, which
stays empty, and lands in that far hole, whose ball is taken off the board.
The ball jumped over stays where it is but changes to the third colour, the
one that is neither its own nor the jumper's: white crossing black turns it
red, red crossing white turns it black, and so on.

Write a jump as its two holes, `c3>c7`. Nobody may pass. Every move takes
one ball off the board, and a jump needs at least three balls in a row, so
the game cannot go on for ever (twelve moves at most, as it turns out).

The game ends as soon as the player to move has no jump. Then each player
counts the balls of their colour on the board (reds count for nobody);
more balls wins, and equal numbers are a draw.
"""
    notes = """\
Source: the Shibumi Rule Book v1.1 (2012), game by Stephen Tavener (2011),
read in the English text and its French translation, which agree on every
point below.

* Start (figure lost). We follow the one public description of the figure
  that we found (recorded in the project's notes on lost figures): White's
  two nearest ranks (1 and 3) white, Black's two nearest (5 and 7) black,
  all sixteen holes full, no red. It fits the text: with no stacking
  and nothing ever placed, the board must start full for jumps to exist, and
  red balls then come only from conversions, as the book's example (a white
  ball crossing a black one that turns red) suggests. From this start White
  has eight jumps, four straight ahead and four diagonal.
* Who starts: not stated; White, as the book's example shows a move by
  White and as in the book's other games.
* Directions. Both texts say jumps "can be" diagonal, so diagonal jumps are
  allowed in addition to jumps along rows and columns: eight directions in
  all, on the board level only.
* The ball jumped over must differ in colour from the jumping ball (both
  texts); a red ball may therefore cross white or black balls. The ball
  landed on may be of any colour, the player's own included: the texts put
  no condition on it, and we add none. In the book's example it is black.
* The jump ends on the far ball's hole (that ball is removed), so the far
  hole must hold a ball: a jump into an empty hole is not a move.
* "Must capture when able": the same public description reads the rules
  that way. Here every move is a capture (the ball landed on always leaves
  the board), so the rule holds by construction and needs no separate
  statement; there are no plain moves and no passes.
* One jump per turn. Neither text mentions chains of jumps, so a turn is a
  single jump (a single action in the engine).
* The end: the texts end the game when "a player cannot move". We read it
  as the player whose turn it is; the other player may still have jumps
  (with white, black and white in a line and nothing else within reach,
  White could jump but Black cannot, so the game ends on Black's turn). The
  English text's closing remark, that jumping becomes impossible once no
  line of three balls is left anywhere, follows from the rules; the tests
  check it on random boards, and it is not an extra rule.
* Scoring: "most balls on the board" means balls of one's own colour; red
  balls belong to nobody. The texts do not mention ties: equal numbers are a
  draw.
* Finiteness. Each jump removes exactly one ball and adds none, so no position
  can ever come back: the rules as written cannot cycle and need no extra
  ending. From sixteen balls, with three needed for a jump, no game can last
  more than fourteen moves. An exhaustive search of every game from the start
  (2,566,179 positions; in the tests, marked slow) shows the true longest game
  is twelve moves, which is the declared longest game (on the card); the
  shortest is four moves (White left without a jump, 8 balls to 4).
* Solved: the same search finds that with best play on both sides the game
  is a draw. Six of White's eight opening jumps keep the draw; a3>e7 and
  its mirror image g3>c7 lose.
* The book's example (a white ball jumps a black one, takes the black ball
  behind it and leaves the crossed ball red) is rebuilt in the tests as
  White's opening c3>c7.
* State text is the position and the player to move, nothing else. Since
  every jump removes one ball and White starts, the number of balls fixes
  whose turn it is; a text that disagrees, a ball above the board, fewer
  than four balls (no game gets there) or more red balls than jumps made
  (each jump recolours one ball) is refused.
* Symmetry: the rules treat the eight turns and reflections of the board
  alike, but the start is kept only by the left-right mirror, so that is the
  game's one symmetry besides the identity.
"""

    def initial_state(self, rng=None) -> State:
        return State(position=START)

    def length(self, state) -> int:
        """Moves played: balls taken off the board."""
        return START_BALLS - state.position.occupied.bit_count()

    # -- moves ---------------------------------------------------------------
    def legal_moves(self, state, player=None):
        if state.result is not None:
            return []
        pos = state.position
        return jump_moves(pos.white, pos.black, pos.red, state.to_move)

    def apply(self, state, move: Move):
        pos, mover = state.position, state.to_move
        masks = {WHITE: pos.white, BLACK: pos.black, RED: pos.red}
        src, land = move.point, move.target
        over = (src + land) // 2
        jumper, crossed = pos.colour_at(src), pos.colour_at(over)
        for colour in masks:
            masks[colour] &= ~(1 << src | 1 << land | 1 << over)
        masks[jumper] |= 1 << land
        masks[THIRD[jumper][crossed]] |= 1 << over
        after = Position.from_masks(masks[WHITE], masks[BLACK], masks[RED])
        return self.settle(State(after, 1 - mover, None, move))

    def settle(self, state):
        pos = state.position
        if jump_moves(pos.white, pos.black, pos.red, state.to_move):
            return state
        return replace(state, result=final_outcome(pos, state.to_move))

    def random_playout(self, state, rng: random.Random):
        """Random jumps to the end, on bare masks; the same choices as the generic loop."""
        if state.result is not None:
            return state
        pos, player, last = state.position, state.to_move, state.last
        white, black, red = pos.white, pos.black, pos.red
        while True:
            moves = jump_moves(white, black, red, player)
            if not moves:
                break
            last = move = moves[int(rng.random() * len(moves))]
            src, land = move.point, move.target
            over = (src + land) // 2
            bits = 1 << src | 1 << land | 1 << over
            jumper = WHITE if white >> src & 1 else BLACK if black >> src & 1 else RED
            crossed = WHITE if white >> over & 1 else BLACK if black >> over & 1 else RED
            third = THIRD[jumper][crossed]
            white, black, red = white & ~bits, black & ~bits, red & ~bits
            for colour, at in ((jumper, land), (third, over)):
                if colour == WHITE:
                    white |= 1 << at
                elif colour == BLACK:
                    black |= 1 << at
                else:
                    red |= 1 << at
            player = 1 - player
        final = Position.from_masks(white, black, red)
        return State(final, player, final_outcome(final, player), last)

    # -- text ----------------------------------------------------------------
    def state_from(self, position, to_move, extras):
        if extras:
            raise NotationError(f"Spoing states have no extra fields, got {extras[:40]!r}")
        if position.occupied & ~BOARD_MASK:
            raise NotationError("Spoing never stacks: every ball is in a board hole")
        played = START_BALLS - position.occupied.bit_count()
        if to_move != played % 2:
            raise NotationError(f"Spoing: {played} balls have left the board, so it is "
                                f"{self.player_name(played % 2)}'s turn")
        if played > self.info.max_length:
            raise NotationError(f"Spoing: {position.occupied.bit_count()} balls on the board, "
                                f"but no game goes below {START_BALLS - self.info.max_length} "
                                f"(it lasts {self.info.max_length} jumps at most)")
        if position.red.bit_count() > played:
            raise NotationError(f"Spoing: after {played} jumps at most {played} balls "
                                "can be red (each jump recolours one ball)")
        return self.settle(State(position=position, to_move=to_move))


__all__ = ["JUMPS", "START", "Spoing", "final_outcome", "jump_moves"]
