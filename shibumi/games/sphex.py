"""Sphex: two balls a turn (and a red if you like) to join opposite sides,
then, in a full pyramid, balls lifted onto the apex until someone is joined.

Chains count every contact, hidden or not ("underground connections
count"), so only a removal can ever break one.

>>> from shibumi import load
>>> match = load("sphex").new_match()
>>> _ = match.push("Wa1")                     # White's opening single ball
>>> match.legal_moves()[-1]                   # a red, or end the turn
Move('pass')
>>> for text in ("pass", "Bc3", "Rc1", "Bg7"):  # Black: two balls and a red
...     _ = match.push(text)
>>> match.current_player
0
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..bits import flood, nth_point
from ..errors import NotationError, shown
from ..game import Game, GameInfo, Outcome, State, read_fields, write_fields
from ..geometry import APEX, NUM_POINTS, SIDE_MASK, SUPPORT_MASK, SUPPORTED, TOUCHING_MASK
from ..notation import PASS_MOVE, Move, parse_point, point_name
from ..position import BLACK, RED, WHITE, Position
from ..registry import register
from .placement import PLACE_MOVES, playable_bits, playable_points, sole_winner

PLAYER_COLOURS = (WHITE, BLACK)
FULL = (1 << NUM_POINTS) - 1
#: The two pairs of opposite sides; either pair wins for either player.
SIDE_PAIRS = ((SIDE_MASK["left"], SIDE_MASK["right"]),
              (SIDE_MASK["bottom"], SIDE_MASK["top"]))
SET_BALLS = 16
"""Balls of each colour in a Shibumi set (never short here: see the notes)."""


def spans(group: int) -> bool:
    """Does a group touch two opposite sides of the board?"""
    return any(group & a and group & b for a, b in SIDE_PAIRS)


def group_at(mine: int, start: int) -> int:
    """The balls of ``mine`` joined to those of ``start`` by contacts, seen or
    hidden (``group_of`` with ``visible_only=False``)."""
    return flood(start, mine, TOUCHING_MASK)


def has_chain(mine: int) -> bool:
    """Does a group of ``mine`` join two opposite sides?"""
    for a, b in SIDE_PAIRS:
        if mine & a and mine & b and group_at(mine, mine & a) & b:
            return True
    return False


def chains(position: Position, colour: int) -> int:
    """The union of a colour's groups, by every contact seen or hidden, that
    join two opposite sides (0 when none does)."""
    mine, found = position.mask(colour), 0
    left = mine
    while left:
        group = group_at(mine, left & -left)
        if spans(group):
            found |= group
        left &= ~group
    return found


def column_up(p: int) -> list[int]:
    """In a full pyramid, a movable ball and the balls stacked on it up to the apex."""
    column = [p]
    while column[-1] != APEX:
        column.append(SUPPORTED[column[-1]][0])
    return column


#: The 12 balls of a full pyramid that may be lifted (not pinned, not the
#: apex), in point order, with their columns and the masks of their columns.
LIFTABLE = tuple(p for p in range(APEX) if len(SUPPORTED[p]) == 1)
COLUMNS = {p: tuple(column_up(p)) for p in LIFTABLE}
COLUMN_MASKS = {p: sum(1 << q for q in column) for p, column in COLUMNS.items()}
LIFT_MOVES = {p: Move.relocate(p, APEX) for p in LIFTABLE}


def lift_sources(mine: int) -> list[int]:
    """The balls of ``mine`` a lift may take in a full pyramid: not the apex,
    not pinned, and not in a column of one colour (the lift would change
    nothing)."""
    return [p for p in LIFTABLE if mine >> p & 1 and COLUMN_MASKS[p] & mine != COLUMN_MASKS[p]]


def lift(masks: list[int], p: int) -> None:
    """Lift the ball at p onto the apex (``masks``, by colour, changed in
    place): the column on it drops a level, as ``Position.remove`` then
    ``place``."""
    column = COLUMNS[p]
    colours = []
    for q in column:
        bit = 1 << q
        c = WHITE if masks[WHITE] & bit else BLACK if masks[BLACK] & bit else RED
        colours.append(c)
        masks[c] ^= bit
    for q, c in zip(column, colours[1:] + colours[:1]):
        masks[c] |= 1 << q


def unlift(position: Position, source: int) -> Position:
    """The full pyramid before the ball at ``source`` was lifted onto the apex."""
    column = column_up(source)
    colours = [position.colour_at(p) for p in column]
    masks = [0, position.white, position.black, position.red]
    restored = [colours[-1]] + colours[:-1]      # the apex ball goes back down
    for p, old, new in zip(column, colours, restored):
        masks[old] &= ~(1 << p)
        masks[new] |= 1 << p
    return Position.from_masks(masks[1], masks[2], masks[3])


@dataclass(frozen=True)
class SphexState(State):
    own: int = 0
    """Balls of their own colour the mover has placed this turn."""
    red: bool = False
    """Has the mover added the red ball of this turn?"""
    past: tuple[Position, ...] = ()
    """Removal phase: the full pyramid before each action of the phase, oldest first."""
    lifts: tuple[Move, ...] = ()
    """Removal phase: the actions played (lifts onto the apex and passes)."""
    ply: int = 0


@register
class Sphex(Game):
    info = GameInfo(
        name="Sphex", designer="Cameron Browne and Stephen Tavener", year="2011",
        family="Connection", source="Annexe 1 of the French edition of the Shibumi Rule Book",
        summary="Place two balls a turn, plus a red if you wish, to join two opposite "
                "sides; a full pyramid without a chain goes on by lifting balls to the apex.",
        complexity=2, max_length=180_226)

    rules = """\
Two players, White then Black, start with an empty board.

White's first turn is a single ball of White's colour. From then on each
turn is two balls of the mover's own colour, on any playable points. At any
moment of the turn (before, between or after those balls) the mover may
also add one neutral red ball. In this program a turn without a red ends
with `pass` after the own balls.

A player wins as soon as a chain of their own balls joins two opposite sides
of the board (left and right, or bottom and top): balls in the edge holes of
a side lie on it. Every contact counts, even one hidden under other balls
("underground connections count"), so a chain can never be cut by placing.

If the pyramid is filled without a chain, play goes on in turns (starting
with the player after the one who filled it): take one of your own balls
that is not pinned out of the pyramid, let the balls that rested on it drop
into the gap, and put it on the empty apex. Only the four board corners, the
four corners of level 1 and the four balls of level 2 can go; the apex ball
itself cannot. A lift that changes nothing (a column of one colour) is not a
move; a player with no lift passes. After a lift, whoever now has a chain
wins, the mover first if both do. The game is a draw if a full pyramid
comes back with the same player to move.
"""
    notes = """\
* "A free ball": the book calls free a ball that carries nothing, but in a
  full pyramid only the apex ball carries nothing, and lifting it to put it
  back on the apex would change nothing. We read free as not pinned (the
  book's movable), as the removal phase needs: in a full pyramid exactly 13
  balls are not pinned (the 4 board corners, the 4 corners of level 1, the 4
  balls of level 2 and the apex), and lifting any of the 12 below the apex
  drops its column by one and empties the apex, ready for the lifted ball.
  The lost figure of the text shows such a winning lift.
* The red ball: "they may add a neutral red ball at any moment of their
  turn" follows the two-ball rule; we allow it on every turn, White's
  single-ball opening included, at most one a turn, before, between or after
  the own balls (so after the own balls the mover chooses a red or `pass`).
* Sides: as in Span, a ball lies on a side when it sits in an edge hole of
  the board (a corner hole on two sides); either pair of opposite sides wins
  for either player.
* "Underground connections count": every physical contact links, hidden
  balls and contacts under an overpass included. So a placement can only
  make chains, and only for the mover; the game ends on the ball that makes
  one.
* If the last point fills during a turn, the turn ends there. The removal
  phase begins with the other player.
* The removal phase has no end in the text when no lift ever makes a chain.
  We add the usual one: a draw when a full pyramid repeats with the same
  player to move. A player whose own balls cannot be lifted usefully (none
  of the 12, or only columns of one colour) passes; two passes in a row
  repeat the pyramid and draw.
* A lift can make a chain for the opponent, or for both (balls drop): the
  mover wins if they have one, else the opponent wins.
* Supply: a set has 16 balls of each colour; no game needs more (at most
  15 of each own colour and 10 reds reach the 30 points), so stocks are not
  tracked.
* Length: the placement phase takes at most 30 balls and 16 passes; the
  removal phase cannot repeat a (pyramid, player) pair, and a lift only
  rearranges the 13 balls of the corner columns, whose colours (at most 5 of
  one colour there in the worst case) make at most 13!/(4!4!5!) = 90,090
  arrangements, with two players to move: 180,180 actions. The declared
  bound is 30 + 16 + 180,180. Real games end far sooner.
"""

    def initial_state(self, rng=None) -> SphexState:
        return SphexState()

    def length(self, state) -> int:
        return state.ply

    @staticmethod
    def quota(state) -> int:
        """Own balls this turn: one for White's opening turn, else two."""
        return 1 if state.to_move == 0 and not state.position.black else 2

    # -- moves -----------------------------------------------------------------
    def lifts(self, position: Position, colour: int) -> list[Move]:
        """Lifts of a colour's unpinned balls onto the apex (a full pyramid)."""
        return [LIFT_MOVES[p] for p in lift_sources(position.mask(colour))]

    def legal_moves(self, state, player=None):
        if state.result is not None:
            return []
        position = state.position
        if position.occupied == FULL:
            return self.lifts(position, PLAYER_COLOURS[state.to_move]) or [PASS_MOVE]
        points = playable_points(position.occupied)
        moves = []
        if state.own < self.quota(state):
            row = PLACE_MOVES[PLAYER_COLOURS[state.to_move]]
            moves += [row[p] for p in points]
        if not state.red:
            moves += [PLACE_MOVES[RED][p] for p in points]
        if state.own == self.quota(state):
            moves.append(PASS_MOVE)
        return moves

    def apply(self, state, move):
        ply, mover = state.ply + 1, state.to_move
        if state.position.occupied == FULL:
            return self._lifted(state, move, ply)
        if move.kind == "pass":
            return self._end_turn(state, state.position, move, ply)
        position = state.position.place(move.point, move.colour)
        if move.colour == RED:
            own, red = state.own, True
        else:
            own, red = state.own + 1, state.red
            if spans(group_at(position.mask(move.colour), 1 << move.point)):
                return dataclasses.replace(state, position=position, last=move, ply=ply,
                                           own=own, result=self._win(mover))
        if position.occupied == FULL or (own == self.quota(state) and red):
            return self._end_turn(state, position, move, ply)
        return dataclasses.replace(state, position=position, last=move, ply=ply,
                                   own=own, red=red)

    def _end_turn(self, state, position, move, ply):
        return SphexState(position, 1 - state.to_move, None, move, 0, False, (), (), ply)

    def _win(self, player: int) -> Outcome:
        return Outcome((player,), f"{self.player_name(player)} joined two opposite sides")

    def _lifted(self, state, move, ply):
        """A removal-phase action: lift (or pass), then chains, then repetition."""
        mover = state.to_move
        position = state.position
        if move.kind != "pass":
            masks = [0, position.white, position.black, position.red]
            lift(masks, move.point)
            position = Position.from_masks(masks[1], masks[2], masks[3])
        past, lifts = state.past + (state.position,), state.lifts + (move,)
        result = self.judge(position, mover)
        if result is None and self.repeated(position, past):
            result = Outcome((), "the full pyramid came back with the same player to move")
        return SphexState(position, 1 - mover, result, move, 0, False, past, lifts, ply)

    def judge(self, position: Position, mover: int) -> Outcome | None:
        """After a lift: the mover wins with a chain, else the opponent with one."""
        for player in (mover, 1 - mover):
            if has_chain(position.mask(PLAYER_COLOURS[player])):
                return self._win(player)
        return None

    def random_playout(self, state, rng):
        """The generic loop's games on raw masks: the same options in
        :meth:`legal_moves`' order (own balls, reds, ``pass``; lifts by point),
        one draw an action."""
        if state.result is not None:
            return state
        rnd = rng.random
        pos = state.position
        masks = [0, pos.white, pos.black, pos.red]
        mover, own, red, ply, last = state.to_move, state.own, state.red, state.ply, state.last
        occupied = pos.occupied
        playable = playable_bits(occupied) if occupied != FULL else 0
        while occupied != FULL:
            quota = 1 if mover == 0 and not masks[BLACK] else 2
            points = playable.bit_count()
            owns = points if own < quota else 0
            reds = 0 if red else points
            i = int(rnd() * (owns + reds + (own == quota)))
            ply += 1
            if i >= owns + reds:
                mover, own, red, last = 1 - mover, 0, False, PASS_MOVE
                continue
            colour = PLAYER_COLOURS[mover] if i < owns else RED
            p = nth_point(playable, i if i < owns else i - owns)
            bit = 1 << p
            occupied |= bit
            masks[colour] |= bit
            playable &= ~bit
            for q in SUPPORTED[p]:
                if occupied & SUPPORT_MASK[q] == SUPPORT_MASK[q]:
                    playable |= 1 << q
            last = PLACE_MOVES[colour][p]
            if colour == RED:
                red = True
            else:
                own += 1
                if spans(group_at(masks[colour], bit)):
                    return SphexState(Position.from_masks(masks[1], masks[2], masks[3]),
                                      mover, self._win(mover), last, own, red, state.past,
                                      state.lifts, ply)
            if occupied == FULL or own == quota and red:
                mover, own, red = 1 - mover, 0, False
        return self._lift_playout(state, masks, mover, last, ply, rnd)

    def _lift_playout(self, state, masks, mover, last, ply, rnd):
        """The removal phase of :meth:`random_playout`, from a full pyramid."""
        past = [(p.white, p.black, p.red) for p in state.past]
        lifts = list(state.lifts)
        while True:
            sources = lift_sources(masks[PLAYER_COLOURS[mover]])
            i = int(rnd() * (len(sources) or 1))
            ply += 1
            past.append((masks[1], masks[2], masks[3]))
            if sources:
                lift(masks, sources[i])
                last = LIFT_MOVES[sources[i]]
            else:
                last = PASS_MOVE
            lifts.append(last)
            result = None
            for player in (mover, 1 - mover):
                if has_chain(masks[PLAYER_COLOURS[player]]):
                    result = self._win(player)
                    break
            now = (masks[1], masks[2], masks[3])
            if result is None and any(past[j] == now for j in range(len(past) - 2, -1, -2)):
                result = Outcome((), "the full pyramid came back with the same player to move")
            mover = 1 - mover
            if result is not None:
                return SphexState(Position.from_masks(*now), mover, result, last, 0, False,
                                  tuple(Position.from_masks(*m) for m in past), tuple(lifts),
                                  ply)

    @staticmethod
    def repeated(position: Position, past: tuple[Position, ...]) -> bool:
        """Was this pyramid seen with the same player to move (an even number of
        actions back)?"""
        return any(past[i] == position for i in range(len(past) - 2, -1, -2))

    def winning_points(self, state) -> int:
        """The winner's chains."""
        winner = sole_winner(state)
        return 0 if winner is None else chains(state.position, PLAYER_COLOURS[winner])

    # -- text ------------------------------------------------------------------
    def status_lines(self, state) -> list[str]:
        """The balls still due this turn, the red, or the removal phase."""
        if state.result is not None:
            return []
        me = self.player_name(state.to_move)
        if state.position.occupied == FULL:
            return [f"The pyramid is full with no chain: {me} lifts a ball of their "
                    "colour onto the apex."]
        left = self.quota(state) - state.own
        if left:
            lines = [f"{me} has {left} ball{'s' * (left != 1)} of their colour to place."]
            if not state.red:
                lines.append(f"{me} may also add one red ball this turn.")
            return lines
        return [f"{me} may add a red ball or end the turn (pass)."]

    def extra_text(self, state) -> str:
        lifts = ",".join("pass" if m.kind == "pass" else point_name(m.point)
                         for m in state.lifts)
        text = write_fields(own=state.own or None, red=state.red, ply=state.ply)
        return f"{text} lifts={lifts}" if lifts else text

    def state_from(self, position, to_move, extras):
        tokens = extras.split()
        lift_tokens = [t for t in tokens if t.startswith("lifts=")]
        if len(lift_tokens) > 1:
            raise NotationError("Sphex state field 'lifts' given twice")
        fields = read_fields(self, " ".join(t for t in tokens if not t.startswith("lifts=")),
                             numbers=("own", "ply"), flags=("red",))
        if not position.is_stable():
            raise NotationError("Sphex: every ball must be carried")
        full = position.occupied == FULL
        state = SphexState(position, to_move, None, None, fields["own"], fields["red"],
                           (), (), fields["ply"])
        if full and (state.own or state.red):
            raise NotationError("Sphex: in a full pyramid no turn is half placed")
        if not full and lift_tokens:
            raise NotationError("Sphex: lifts are only played in a full pyramid")
        if not 0 <= state.own <= self.quota(state):
            raise NotationError(f"Sphex: {state.own} own balls placed this turn; "
                                f"at most {self.quota(state)}")
        if lift_tokens:
            state = self._read_lifts(state, lift_tokens[0].partition("=")[2])
        return self.settle(state)

    def _read_lifts(self, state, text: str):
        """Rebuild the removal phase's past pyramids from its lifts, backwards."""
        names = text.split(",")
        position, player, past, moves = state.position, state.to_move, [], []
        for name in reversed(names):
            player = 1 - player
            if name == "pass":
                move = PASS_MOVE
                before = position
            else:
                try:
                    source = parse_point(name)
                except NotationError as err:
                    raise NotationError(f"Sphex lifts {shown(text)}: {err}") from None
                if source == APEX or position.colour_at(APEX) != PLAYER_COLOURS[player]:
                    raise NotationError(f"Sphex lifts {shown(text)}: {name} cannot have "
                                        f"been lifted by {self.player_name(player)}")
                move = Move.relocate(source, APEX)
                before = unlift(position, source)
                if before.is_pinned(source):
                    raise NotationError(f"Sphex lifts {shown(text)}: {name} is pinned")
            past.append(before)
            moves.append(move)
            position = before
        return dataclasses.replace(state, past=tuple(reversed(past)), lifts=tuple(reversed(moves)))

    def settle(self, state):
        """A finished game from text: a chain, or a repeated full pyramid.

        Placing only ever makes the mover's chain, so at most one side has one,
        except after a lift, which the mover (the player not to move) wins.
        """
        joined = [p for p in (1 - state.to_move, state.to_move)
                  if chains(state.position, PLAYER_COLOURS[p])]
        if joined:
            return dataclasses.replace(state, result=self._win(joined[0]))
        if state.lifts and self.repeated(state.position, state.past):
            return dataclasses.replace(state, result=Outcome(
                (), "the full pyramid came back with the same player to move"))
        return state
