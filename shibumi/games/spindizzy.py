"""Spindizzy: three players pick a ball in secret each turn; small pyramids score.

Each seat holds ten balls: five of its own colour, three of its right-hand
neighbour's and two of its left-hand neighbour's.  Every turn the three
choose a ball at once; the colour the Master showed names who places first,
the others follow in seat order, and the last placer is the next Master.
Each 2x2 small pyramid completed scores one point for the owner of its
majority colour (or of its top ball when no colour has more than the others).

>>> from shibumi import load
>>> game = load('spindizzy')
>>> match = game.new_match()
>>> [m.text() for m in game.legal_moves(match.state, 0)]
['=W', '=B', '=R']
>>> match.push_joint(['=B', '=R', '=W'])     # the Master (White) showed black
>>> match.current_player                     # so Black places first
1
>>> game.state_text(match.state).split(maxsplit=2)[2]
'stocks=W5B1R3/W3B5R1/W1B3R5 held=BRW'
>>> for move in ('Ra1', 'Wc1', 'Ba3'):
...     _ = match.push(move)
>>> match.state.to_move                      # White placed last: the next Master
0
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import IllegalMoveError, NotationError, shown
from ..game import SIMULTANEOUS, TERMINAL, Game, GameInfo, Outcome, State
from ..geometry import APEX, NUM_POINTS, SUPPORTS
from ..notation import CHOOSE, PLACE, Move
from ..position import BLACK, COLOUR_LETTERS, COLOUR_NAMES, RED, WHITE, Position
from ..registry import register
from .placement import PLACE_MOVES, playable_bits, playable_points

COLOURS = (WHITE, BLACK, RED)
#: Seat p plays colour p + 1: seat 0 White, seat 1 Black, seat 2 Red.
OWN, GIVEN_LEFT, GIVEN_RIGHT = 5, 3, 2
#: Balls each seat holds at the start, as (white, black, red).  Seat p keeps 5
#: of its own, gets 3 from seat p - 1 (whose left neighbour it is) and 2 from
#: seat p + 1 (whose right neighbour it is).
START_STOCKS = ((5, 2, 3), (3, 5, 2), (2, 3, 5))
BALLS = 10
TURNS = 10
CHOICES = {c: Move.choose(c) for c in COLOURS}
#: The 14 small pyramids: (top point, its four supports).
PYRAMIDS = tuple((p, SUPPORTS[p]) for p in range(16, NUM_POINTS))
NO_HELD = (0, 0, 0)


@dataclass(frozen=True)
class SpindizzyState(State):
    """``stocks``: each seat's balls left, (white, black, red).  ``held``: the
    colour each seat showed this turn and has not placed yet (0 for none).
    With nothing held, ``to_move`` is the Master; otherwise the seat placing."""
    stocks: tuple[tuple[int, int, int], ...] = START_STOCKS
    held: tuple[int, int, int] = NO_HELD


def pyramid_winner(colours) -> int:
    """The colour that scores a small pyramid: ``colours`` lists its top ball
    first, then its four supports.  The colour with most balls, or the top's
    colour when two colours have two each.

    >>> pyramid_winner((RED, WHITE, WHITE, BLACK, BLACK))
    3
    >>> pyramid_winner((RED, WHITE, WHITE, WHITE, BLACK))
    1
    """
    counts = {c: 0 for c in COLOURS}
    for c in colours:
        counts[c] += 1
    best = max(counts.values())
    leaders = [c for c in COLOURS if counts[c] == best]
    return leaders[0] if len(leaders) == 1 else colours[0]


def final_result(scores, names) -> Outcome:
    """The winner from the three scores: the most points; when two seats tie
    for the most, the third seat wins."""
    best = max(scores)
    top = [p for p in range(3) if scores[p] == best]
    text = ", ".join(f"{names[p]} {scores[p]}" for p in range(3))
    if len(top) == 1:
        winner = top[0]
        reason = f"most points ({text})"
    else:                                   # 14 points: never a three-way tie
        winner = next(p for p in range(3) if p not in top)
        reason = f"{names[top[0]]} and {names[top[1]]} tie for most, so the third " \
                 f"player wins ({text})"
    rest = tuple(sorted((p for p in range(3) if p != winner), key=lambda p: -scores[p]))
    return Outcome((winner,), reason, scores=tuple(float(s) for s in scores),
                   ranking=((winner,),) + tuple((p,) for p in rest))


_STOCKS_RE = re.compile(r"W(\d+)B(\d+)R(\d+)")


@register
class Spindizzy(Game):
    info = GameInfo(
        name="Spindizzy", designer="Dieter Stein", year="2011",
        family="Counting", source="Shibumi Rule Book (2012)",
        summary="Three players each pick a ball in secret from a mixed stock; the "
                "Master's colour says who places first. Every small pyramid scores "
                "for its majority colour, or its top ball.",
        min_players=3, max_players=3, complexity=4,
        hidden_information=True, simultaneous=True, max_length=TURNS * 4)
    player_names = ("White", "Black", "Red")

    rules = """\
Three players, White, Black and Red, sit in that order around the table;
play passes to the left, so White's left-hand neighbour is Black. The
board starts empty.

Each player starts with ten balls of their own colour, gives three to
the left-hand neighbour and two to the right-hand neighbour, and keeps
the other five. So White holds five white, two black and three red
balls, Black three white, five black and two red, Red two white, three
black and five red. A player's stock is kept out of the others' sight.

White is the Master of the first turn. A turn goes like this: all three
players take one ball from their stock in secret and then show them at
the same time. The colour of the ball the Master showed names the player
who places first; after them the other two place in turn, going to the
left. Each places the ball they showed on any playable point (an empty
hole, or the hollow on top of four touching balls). Whoever placed last
is the Master of the next turn.

A ball placed on a higher level completes a small pyramid of five balls
(itself and the four under it). That pyramid scores one point: for the
owner of the colour with the most balls among the five, or, when two
colours have two balls each, for the owner of the top ball's colour.

After ten turns the 30 balls make the whole pyramid and the game ends.
The player with the most points wins; when two players tie for the most,
the third player wins.

How choices are written: a secret choice is a colour, `=W`, `=B` or
`=R`; a placement names the point, such as `b2` (the colour is the one
the placer showed).
"""
    notes = """\
* Source: the Shibumi Rule Book v1.1 (2012), Dieter Stein (2011). We
  found no other public description and no later ruling. The French
  edition adds an optional eleventh ball of each colour, set in front of
  its player as a reminder; it takes no part in play and is left out.
* Who places first. In the book, placing begins with the owner of a
  colour that the Master "selected". We read this as the ball the Master
  chose in secret: its colour names the first placer (it can be the
  Master's own). The other reading, that the Master picks a player
  after the reveal, would give the secret choice no bearing on the order
  and an extra decision the text never describes.
* Direction. The book does not say which way placing goes after the first
  placer; we take the usual direction of play, to the left, which is also
  the direction of the three-ball gift. Seats are White, Black, Red in
  that order, so the left-hand neighbour of White is Black, of Black Red,
  of Red White.
* The first Master. The book has one chosen; we make it White. The set-up
  is the same for every seat up to renaming the colours, so this choice
  only fixes names.
* Majority. With five balls in three colours, the colour with the most
  balls is unique except when two colours have two each (2-2-1); a strict
  majority (three or more) exists in every other case. So "majority" and
  "most balls" agree, and the top ball decides exactly the 2-2-1 pyramids,
  whichever colour the top is. The three lost figures illustrate one point
  each for red, black and white; we rebuild one example per case in the
  tests and the chapter with pyramids of our own.
* Every ball placed above the board completes exactly one small pyramid
  (its own and its four supports), so the 14 small pyramids score 14
  points in all, each when its top ball is placed. The score is therefore
  a function of the finished position, which is how the engine counts it.
  Since 14 is not a multiple of 3 there is never a three-way tie; "two-way
  tie" means two players sharing the most points (a tie for second place
  changes nothing).
* What is hidden. The stocks are hidden at the table, but the gift is the same
  in every game (balls of a colour are alike), so everybody knows the starting
  stocks, and every ball leaving a stock is shown at a reveal. A player with a
  memory therefore knows all three stocks at every moment. The engine gives
  players perfect memory: the only secret is the choice being made, which the
  simultaneous node keeps hidden. What a seat observes is the whole state, and
  the only state consistent with that observation is the state itself. The
  game keeps the hidden-information flag of the catalogue for the secret
  stocks.
* Length: ten turns, each one joint choice and three placements, so
  exactly 40 actions.
* State text: `stocks=W5B2R3/W3B5R2/W2B3R5` gives each seat's balls left
  (White's first) and, while balls are waiting to be placed, `held=BRW`
  the colour each seat showed (`.` once placed). The player field is the
  Master while nothing is held, else the seat placing.
"""

    # -- rules -----------------------------------------------------------------
    def initial_state(self, rng=None) -> SpindizzyState:
        return SpindizzyState()

    def current_player(self, state) -> int:
        if state.position.occupied.bit_count() == NUM_POINTS:
            return TERMINAL
        return state.to_move if state.held[state.to_move] else SIMULTANEOUS

    def legal_moves(self, state, player: int | None = None) -> list[Move]:
        """At a choice, one seat's colours left (the seat must be given); at a
        placement, the placer's ball on every playable point."""
        mover = self.current_player(state)
        if mover == TERMINAL:
            return []
        if mover == SIMULTANEOUS:
            if player is None:
                return []
            stock = state.stocks[player]
            return [CHOICES[c] for c in COLOURS if stock[c - 1]]
        if player is not None and player != mover:
            return []
        colour = state.held[mover]
        return [PLACE_MOVES[colour][p] for p in playable_points(state.position.occupied)]

    def apply(self, state, move) -> SpindizzyState:
        mover = self.current_player(state)
        name = self.info.name
        if mover == TERMINAL:
            raise IllegalMoveError(f"{name}: the game is over")
        if mover == SIMULTANEOUS:
            raise IllegalMoveError(f"{name}: all three players choose a ball at once; "
                                   "play the three choices together (push_joint)")
        colour = state.held[mover]
        if move.kind != PLACE or move.colour not in (None, colour) \
                or not playable_bits(state.position.occupied) >> move.point & 1:
            raise IllegalMoveError(f"{name}: {shown(move.text())} is not a placement of "
                                   f"{self.player_name(mover)}'s {COLOUR_NAMES[colour]} "
                                   "ball on a playable point")
        held = list(state.held)
        held[mover] = 0
        position = state.position.place(move.point, colour)
        after = (mover + 1) % 3
        to_move = after if held[after] else mover       # else: mover is the next Master
        new = SpindizzyState(position, to_move, None, PLACE_MOVES[colour][move.point],
                             state.stocks, tuple(held))
        if position.occupied.bit_count() == NUM_POINTS:
            return self.settle(new)
        return new

    def apply_joint(self, state, moves) -> SpindizzyState:
        name = self.info.name
        if self.current_player(state) != SIMULTANEOUS:
            raise IllegalMoveError(f"{name}: no secret choice is pending")
        moves = tuple(moves)
        if len(moves) != 3:
            raise IllegalMoveError(f"{name}: give one choice per player (three)")
        stocks = []
        for p, move in enumerate(moves):
            if move.kind != CHOOSE or move.colour not in COLOURS \
                    or not state.stocks[p][move.colour - 1]:
                raise IllegalMoveError(f"{name}: {self.player_name(p)} has no such ball "
                                       f"to show ({shown(move.text())})")
            stock = list(state.stocks[p])
            stock[move.colour - 1] -= 1
            stocks.append(tuple(stock))
        held = tuple(m.colour for m in moves)
        first = held[state.to_move] - 1                 # the Master's colour names them
        return SpindizzyState(state.position, first, None, None, tuple(stocks), held)

    def scores(self, position) -> tuple[int, int, int]:
        """Points of White, Black and Red: one per completed small pyramid."""
        points = [0, 0, 0]
        colour_at = position.colour_at
        for top, under in PYRAMIDS:
            c = colour_at(top)
            if c:
                points[pyramid_winner((c,) + tuple(colour_at(q) for q in under)) - 1] += 1
        return tuple(points)

    def outcome(self, state):
        return state.result

    def settle(self, state) -> SpindizzyState:
        if state.position.occupied.bit_count() != NUM_POINTS:
            return state
        return SpindizzyState(state.position, state.to_move,
                              final_result(self.scores(state.position), self.player_names),
                              state.last, state.stocks, state.held)

    def length(self, state) -> int:
        """Joint choices made plus balls placed."""
        return TURNS - sum(state.stocks[0]) + state.position.occupied.bit_count()

    def random_playout(self, state, rng):
        """The generic loop's draws, without building a state per action: a
        colour uniformly from each stock, then each placer's point uniformly."""
        rnd = rng.random
        stocks = [list(s) for s in state.stocks]
        held = list(state.held)
        to_move = state.to_move
        cells = [state.position.colour_at(p) for p in range(NUM_POINTS)]
        occupied = state.position.occupied
        while occupied != (1 << NUM_POINTS) - 1:
            if not held[to_move]:
                for p in range(3):
                    stock = stocks[p]
                    have = [c for c in COLOURS if stock[c - 1]]
                    colour = have[int(rnd() * len(have))]
                    stock[colour - 1] -= 1
                    held[p] = colour
                to_move = held[to_move] - 1
            points = playable_points(occupied)
            point = points[int(rnd() * len(points))]
            occupied |= 1 << point
            cells[point] = held[to_move]
            held[to_move] = 0
            after = (to_move + 1) % 3
            if held[after]:
                to_move = after
        masks = [0, 0, 0, 0]
        for p, c in enumerate(cells):
            masks[c] |= 1 << p
        position = Position.from_masks(masks[1], masks[2], masks[3])
        return self.settle(SpindizzyState(position, to_move, None,
                                          PLACE_MOVES[cells[APEX]][APEX],
                                          tuple(tuple(s) for s in stocks), tuple(held)))

    # -- hidden information -------------------------------------------------
    def observe(self, state, player: int) -> SpindizzyState:
        """Everything: the starting stocks are the same in every game and each
        ball that leaves a stock is shown, so a seat with a memory knows all
        three stocks; the choice being made is never part of the state."""
        return state

    def determinise(self, observation, player: int, rng) -> SpindizzyState:
        """The observation itself: it is the only state consistent with it."""
        return observation

    # -- text ------------------------------------------------------------------
    def extra_text(self, state) -> str:
        text = "stocks=" + "/".join("W{}B{}R{}".format(*s) for s in state.stocks)
        if any(state.held):
            text += " held=" + "".join(COLOUR_LETTERS[c] if c else "." for c in state.held)
        return text

    def state_from(self, position, to_move, extras) -> SpindizzyState:
        name = self.info.name
        fields = {}
        for token in extras.split():
            key, eq, value = token.partition("=")
            if not eq or key not in ("stocks", "held") or key in fields:
                raise NotationError(f"{name} state field {shown(token)} not understood "
                                    "(or given twice); fields: "
                                    "stocks=W5B2R3/W3B5R2/W2B3R5, held=BRW")
            fields[key] = value
        if "stocks" not in fields:
            raise NotationError(f"{name} state needs the stocks, like "
                                "stocks=W5B2R3/W3B5R2/W2B3R5")
        parts = fields["stocks"].split("/")
        found = [_STOCKS_RE.fullmatch(s) for s in parts]
        if len(parts) != 3 or not all(found):
            raise NotationError(f"{name} stocks {shown(fields['stocks'])}: give each "
                                "seat's white, black and red balls left, like "
                                "stocks=W5B2R3/W3B5R2/W2B3R5")
        stocks = tuple(tuple(int(g) for g in m.groups()) for m in found)
        held = NO_HELD
        if "held" in fields:
            text = fields["held"].upper()
            if len(text) != 3 or any(ch not in "WBR." for ch in text) or text == "...":
                raise NotationError(f"{name}: held= gives the colour each seat showed "
                                    "and has not placed yet, like held=BR. ")
            held = tuple(0 if ch == "." else COLOUR_LETTERS.index(ch) for ch in text)
        if not 0 <= to_move < 3:
            raise NotationError(f"{name}: the player field is 1, 2 or 3")
        if not position.is_stable():
            raise NotationError(f"{name} position: a ball is not resting on a full platform")
        sizes = {sum(s) for s in stocks}
        if len(sizes) != 1 or sizes.pop() > BALLS:
            raise NotationError(f"{name}: each turn takes one ball from every stock, so "
                                "the three stocks hold as many balls each (10 at most)")
        turns = BALLS - sum(stocks[0])
        waiting = sum(1 for c in held if c)
        if position.occupied.bit_count() != 3 * turns - waiting:
            raise NotationError(f"{name}: {turns} turns shown and {waiting} balls waiting "
                                f"need {3 * turns - waiting} balls on the board")
        for i, c in enumerate(COLOURS):
            total = (position.mask(c).bit_count() + sum(s[i] for s in stocks)
                     + sum(1 for h in held if h == c))
            if total != BALLS:
                raise NotationError(f"{name}: the game has {BALLS} {COLOUR_NAMES[c]} balls, "
                                    f"this state accounts for {total}")
        for p in range(3):
            start = START_STOCKS[p]
            used = [start[i] - stocks[p][i] - (held[p] == c) for i, c in enumerate(COLOURS)]
            if min(used) < 0:
                raise NotationError(f"{name}: {self.player_name(p)}'s stock and held ball "
                                    f"are more than the start's {start} allows")
        if waiting:
            # the seats still to place follow the placer in seat order
            order = [(to_move + k) % 3 for k in range(3)]
            flags = [bool(held[p]) for p in order]
            if flags != sorted(flags, reverse=True) or not flags[0]:
                raise NotationError(f"{name}: the seats still holding a ball must be the "
                                    "one placing and those after it in seat order")
        return self.settle(SpindizzyState(position, to_move, None, None, stocks, held))

    def describe(self, state) -> str:
        lines = [state.position.diagram()]
        if state.last is not None:
            lines.append(f"Last ball placed: {state.last.text()}")
        points = self.scores(state.position)
        for p, stock in enumerate(state.stocks):
            extra = f", showing {COLOUR_NAMES[state.held[p]]}" if state.held[p] else ""
            lines.append(f"{self.player_name(p)}: {points[p]} points; stock "
                         "{} white, {} black, {} red".format(*stock) + extra)
        outcome = self.outcome(state)
        if outcome is not None:
            lines.append(f"Game over: {self.player_name(outcome.winners[0])} won, "
                         f"{outcome.reason}.")
        elif any(state.held):
            lines.append(f"{self.player_name(state.to_move)} places the "
                         f"{COLOUR_NAMES[state.held[state.to_move]]} ball.")
        else:
            lines.append(f"{self.player_name(state.to_move)} is the Master; all three "
                         "choose a ball in secret.")
        return "\n".join(lines)


__all__ = ["PYRAMIDS", "START_STOCKS", "Spindizzy", "SpindizzyState", "final_result",
           "pyramid_winner"]
