"""Sphered: balls go into the holes; every finished platform says which colour goes
on it, and who must put it there.

A turn starts with one free ball (your colour or red) in an empty hole, unless
platforms of your colour are waiting for you: then filling them is your turn.
Whenever a platform is finished, its colour is the most common colour in it
(two and two: the colour missing).  Your colour or red: you place it at once,
as another action of your turn.  Your opponent's colour: it waits for their
next turn.  Whoever places the apex wins if it is their colour, loses if red.

>>> from shibumi import load
>>> game = load('sphered')
>>> m = game.new_match(state=game.parse_state('..../..../B.../WW..|.../.../...|../..|. 1'))
>>> m.push('Wc3.0')                      # finishes a1 c1 a3 c3: three white, one black
Move('Wc3.0')
>>> m.current_player, m.legal_moves()    # White must top it with white at once
(0, [Move('Wb2')])
"""

from __future__ import annotations

import random

from ..bits import playable_cached, points_in
from ..errors import NotationError
from ..game import Game, GameInfo, Outcome, State
from ..geometry import APEX, BOARD_MASK, NUM_POINTS, SUPPORT_MASK
from ..notation import Move, point_name
from ..position import BLACK, COLOUR_NAMES, RED, WHITE, Position
from ..registry import register
from .placement import PLACE_MOVES, sole_winner, uniform_index

PLAYER_COLOURS = (WHITE, BLACK)
_UPPER = range(16, NUM_POINTS)


def platform_colour(white: int, black: int, red: int) -> int:
    """The colour a finished platform with these numbers of balls asks for.

    The colour with the most balls; when two colours share the most (two and
    two), the colour that is missing.  Four balls in three colours split
    4-0-0, 3-1-0, 2-1-1 or 2-2-0, so the answer is always one colour:

    >>> [COLOUR_NAMES[platform_colour(*c)] for c in ((3, 1, 0), (1, 2, 1), (2, 0, 2), (0, 0, 4))]
    ['white', 'black', 'black', 'red']
    """
    counts = ((white, WHITE), (black, BLACK), (red, RED))
    high = max(white, black, red)
    top = [c for n, c in counts if n == high]
    if len(top) == 1:
        return top[0]
    return next(c for n, c in counts if n == 0)


#: PLATFORM_COLOUR[(white, black, red)] for every platform of four balls.
PLATFORM_COLOUR = {(w, b, 4 - w - b): platform_colour(w, b, 4 - w - b)
                   for w in range(5) for b in range(5 - w)}


def called_of(white: int, black: int, red: int, q: int) -> int:
    """The colour the finished platform under upper point ``q`` asks for, from the
    colour masks."""
    sup = SUPPORT_MASK[q]
    return PLATFORM_COLOUR[((white & sup).bit_count(), (black & sup).bit_count(),
                            (red & sup).bit_count())]


def called_colour(position: Position, q: int) -> int:
    """The colour the finished platform under upper point ``q`` asks for."""
    return called_of(position.white, position.black, position.red, q)


def waiting_of(white: int, black: int, red: int) -> list[tuple[int, int]]:
    """The finished platforms still empty, as (point, colour asked for), in
    increasing order of point, from the colour masks."""
    occupied = white | black | red
    return [(q, called_of(white, black, red, q))
            for q in points_in(playable_cached(occupied) & ~BOARD_MASK)]


def waiting(position: Position) -> list[tuple[int, int]]:
    """The finished platforms still empty, as (point, colour asked for)."""
    return waiting_of(position.white, position.black, position.red)


def due_of(white: int, black: int, red: int, player: int) -> list[tuple[int, int]]:
    """The platforms ``player`` must fill now: those calling for their colour or
    red (the rule of :meth:`Sphered.legal_moves`, on masks)."""
    mine = PLAYER_COLOURS[player]
    return [(q, c) for q, c in waiting_of(white, black, red) if c == mine or c == RED]


@register
class Sphered(Game):
    info = GameInfo(
        name="Sphered", designer="Giacomo Galimberti", year="2012",
        family="Completion", source="Annexe 1 of the French edition of the Shibumi Rule Book",
        summary="Fill the holes with your colour or red; each finished platform calls for "
                "its majority colour, placed by its owner; an apex of your colour wins, "
                "a red one loses.",
        complexity=2, max_length=30)

    rules = """\
Two players, White and Black, start from an empty board; White begins.

On your turn put one ball, of your own colour or red, into any empty hole
of the board. Nobody places a ball above the board by free choice: the
platforms decide.

Whenever four balls finish a platform, at any level, the colour that must
go on it is the colour with the most balls in it; when two colours have
two balls each, it is the colour that is missing. So three white and a
black call for white, two black, a white and a red call for black, and
two white with two red call for black.

* If that colour is yours, or red, you put the ball there at once, as part
  of the same turn.
* If it is your opponent's colour, it waits: at their next turn, instead
  of putting a ball in a hole, they must put their own ball on it (on all
  of them, if several wait).

Every ball placed this way can finish another platform, and the same rule
applies to it at once, so a turn may be a whole chain of balls. Your turn
ends when no platform that calls for your colour or for red is left
waiting.

The game ends when the apex is placed. The player who places it wins if
it is their colour, and loses if it is red.

Moves: `a1` or `Ra1` for a ball in a hole, `b2` for a ball on a platform
(its colour is set by the rule).
"""
    notes = """\
Source: Annexe 1 of the French edition of the Shibumi Rule Book, game by
Giacomo Galimberti, 2012. The figure, "a game won by White", is lost; the
chapter plays a game of our own that White wins.

* Where free balls go. The text opens by saying that placements are made
  on the board and that they impose the balls to be stacked; the rules
  proper say "on the game". We read it as: free balls go into empty holes,
  and everything above the board is placed by the rule. The two readings
  play alike, because every finished platform is claimed by the rule the
  moment it appears: there is never a free platform to choose.
* The colour of a platform. "The majority colour, or the missing one in a
  tie". With four balls and three colours the only tie for most is two and
  two, where one colour is missing; two, one and one gives the colour with
  two (the most balls, though not a majority of four).
* Who places it. The text's two cases are kept: your colour or red, at
  once; your opponent's colour, by them instead of their next free ball. A
  red platform is therefore always filled by the player who finished it,
  in the same turn.
* Several platforms waiting for one player. A ball in a central hole can
  finish up to four platforms at once. We read "instead of playing a ball
  on the board, play their colour on the platform" as covering every
  platform waiting for that player: the next turn is spent filling all of
  them (and whatever their balls set off), with no free ball. Filling them
  one per turn would let the opponent keep platforms waiting for many
  turns, which the text does not suggest.
* Order. Each ball is its own action, and the player chooses the order
  when several are due; the order never changes which balls end up where,
  since a platform's colour depends only on the balls under it.
* The apex. Its colour, set by level 2, is also the colour of the player
  who places it, or red. So an apex of your colour wins for you whoever
  finished level 2, and the player who finishes a level 2 calling for red
  must place the red apex and loses.
* No player is ever stuck: at the start of a turn the only platforms
  waiting are the mover's (the opponent filled theirs), so a player with
  none waiting finds an empty hole, unless the pyramid is complete.
* Supply. A set holds 16 balls of each colour. The rules never limit the
  balls, and the platform rule can call for a 17th of a colour (two
  players who only ever choose red, for instance, end with thirty red
  balls). The engine does not count them; at the table use any stand-in.
  It is not rare: about half of the games of uniformly random moves need
  a 17th ball of some colour, nearly always red. A supply limit on free
  balls would be a rule of our own, so none is imposed.
"""

    # -- the rules ---------------------------------------------------------
    def initial_state(self, rng=None) -> State:
        return State()

    def _due(self, position: Position, player: int) -> list[tuple[int, int]]:
        """The platforms ``player`` must fill now: those calling for their colour or red."""
        return due_of(position.white, position.black, position.red, player)

    def legal_moves(self, state: State, player: int | None = None) -> list[Move]:
        if state.result is not None:
            return []
        due = self._due(state.position, state.to_move)
        if due:
            return [PLACE_MOVES[c][q] for q, c in due]
        holes = points_in(~state.position.occupied & BOARD_MASK)
        return [PLACE_MOVES[c][p] for c in (PLAYER_COLOURS[state.to_move], RED)
                for p in holes]

    def apply(self, state: State, move: Move) -> State:
        position = state.position.place(move.point, move.colour)
        mover = state.to_move
        if move.point == APEX:
            return State(position, 1 - mover, self._apex(position, mover), move)
        to_move = mover if self._due(position, mover) else 1 - mover
        return State(position, to_move, None, move)

    def random_playout(self, state: State, rng: random.Random) -> State:
        """Same games as the generic loop (legal_moves' order: the due platforms, else
        the mover's colour then red over the empty holes; one draw a ball; the turn
        passes as in apply), on raw bit masks."""
        if state.result is not None:
            return state
        pick = uniform_index(rng)
        position = state.position
        masks = [0, position.white, position.black, position.red]   # by colour
        mover = state.to_move
        due = due_of(masks[WHITE], masks[BLACK], masks[RED], mover)
        while True:
            if due:
                q, c = due[pick(len(due))]
            else:
                holes = points_in(~(masks[WHITE] | masks[BLACK] | masks[RED]) & BOARD_MASK)
                n = len(holes)
                k = pick(2 * n)
                c, q = (PLAYER_COLOURS[mover], RED)[k // n], holes[k % n]
            masks[c] |= 1 << q
            if q == APEX:
                break
            # apply's test of whose turn it is, which is also the next turn's due list.
            due = due_of(masks[WHITE], masks[BLACK], masks[RED], mover)
            if not due:
                mover ^= 1
                due = due_of(masks[WHITE], masks[BLACK], masks[RED], mover)
        # The apex is placed again by the rules, which word the outcome.
        masks[c] &= ~(1 << q)
        before = Position.from_masks(masks[WHITE], masks[BLACK], masks[RED])
        return self.apply(State(before, mover), PLACE_MOVES[c][q])

    def _apex(self, position: Position, placer: int) -> Outcome:
        colour = position.colour_at(APEX)
        if colour == RED:
            winner = 1 - placer
            return Outcome((winner,), f"{self.player_name(placer)} had to place a red apex")
        winner = PLAYER_COLOURS.index(colour)
        return Outcome((winner,), f"{self.player_name(winner)} placed an apex of their colour")

    def winning_points(self, state: State) -> int:
        """The apex, whose colour decided the game."""
        return 0 if sole_winner(state) is None else 1 << APEX

    # -- what players read ---------------------------------------------------
    def status_lines(self, state: State) -> list[str]:
        """The platforms waiting, and for whom."""
        if state.result is not None:
            return []
        lines = []
        for q, c in waiting(state.position):
            owner = (self.player_name(state.to_move) if c == RED
                     else self.player_name(PLAYER_COLOURS.index(c)))
            lines.append(f"The platform at {point_name(q)} calls for {COLOUR_NAMES[c]}: "
                         f"{owner} must place it.")
        return lines

    # -- text -----------------------------------------------------------------
    def state_from(self, position: Position, to_move: int, extras: str) -> State:
        for q in _UPPER:
            if position.occupied >> q & 1 and position.colour_at(q) != called_colour(position, q):
                raise NotationError(
                    f"Sphered position: the platform under {point_name(q)} calls for "
                    f"{COLOUR_NAMES[called_colour(position, q)]}")
        pending = waiting(position)
        if pending and not self._due(position, to_move):
            raise NotationError(
                f"Sphered position: with only {self.player_name(1 - to_move)}'s platforms "
                f"waiting, it would be {self.player_name(1 - to_move)}'s turn")
        return super().state_from(position, to_move, extras)

    def settle(self, state: State) -> State:
        if not state.position.occupied >> APEX & 1:
            return state
        return State(state.position, state.to_move,
                     self._apex(state.position, 1 - state.to_move), state.last)
