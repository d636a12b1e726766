"""Sprout: a cooperative game of chance — grow the whole pyramid from balls drawn one by one.

The whole set (sixteen balls of each colour) goes into a bag, and every
player holds one ball drawn from it, in full view.  On your turn you put
your ball on a playable point, then draw a new one.  Two patterns are
forbidden: two balls of one colour diagonally next to each other on a level,
and a raised ball resting on two balls of its own colour.  A few times a
game (three, two or one, by level) the active player may trade the ball in
hand for a ball of another colour.  Everyone wins when the pyramid is
complete; everyone loses when the active player's ball fits nowhere and no
trade is left.

Draws are chance actions (``=W`` draws a white ball for the player who
needs one); a trade is the player's own ``=B`` (give back the ball, take a
black one).

>>> from shibumi import load
>>> game = load('sprout', players=2)
>>> state = game.apply(game.apply(game.initial_state(), Move('=W')), Move('=R'))
>>> game.state_text(state)
'..../..../..../....|.../.../...|../..|. 1 hands=WR swaps=2'
>>> len(game.legal_moves(state)), [m.text() for m in game.legal_moves(state)][-2:]
(18, ['=B', '=R'])
>>> pos = Position('..../..../WB../RW..|.../.../...|../..|.')
>>> [point_name(p) for p in points_of(allowed(pos, WHITE) & ~BOARD_MASK)]
[]
>>> [point_name(p) for p in points_of(allowed(pos, RED) & ~BOARD_MASK)]
['b2']
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass

from ..errors import NotationError, UnknownGameError, shown
from ..game import CHANCE, TERMINAL, Game, GameInfo, Outcome, State
from ..geometry import (BOARD_MASK, DIAGONAL_NEIGHBOURS, NUM_POINTS, SUPPORT_MASK,
                        points_of)
from ..notation import Move, point_name
from ..position import BLACK, COLOUR_LETTERS, COLOUR_NAMES, EMPTY, RED, WHITE, Position
from ..registry import register
from .placement import PLACE_MOVES, playable_bits

COLOURS = (WHITE, BLACK, RED)
#: Balls of each colour in the set, all of them in the bag at the start.
PER_COLOUR = 16
#: Draws from the bag and trades: one ``=W``/``=B``/``=R`` move per colour.
CHOICES = {c: Move.choose(c) for c in COLOURS}
#: Trades allowed in a game, by level.
LEVELS = {"easy": 3, "medium": 2, "hard": 1}
#: A lost game is worth at most this share of a won one to the search (see the notes).
LOSS_WEIGHT = 0.5
MAX_PLAYERS = 5

#: The same-level diagonal neighbours of each point, as a mask: a ball forbids its
#: colour there.
DIAGONAL_MASK = tuple(sum(1 << q for q in DIAGONAL_NEIGHBOURS[p]) for p in range(NUM_POINTS))


def allowed(position: Position, colour: int) -> int:
    """Mask of the playable points where a ball of ``colour`` may go: no ball of that
    colour diagonally next to it on its level, and, above the board, at most one
    ball of that colour among the four it rests on."""
    return allowed_in(position.white, position.black, position.red, colour)


def allowed_in(white: int, black: int, red: int, colour: int) -> int:
    """:func:`allowed` on colour masks."""
    mine = (0, white, black, red)[colour]
    spots = playable_bits(white | black | red)
    out = 0
    while spots:
        low = spots & -spots
        spots ^= low
        p = low.bit_length() - 1
        if DIAGONAL_MASK[p] & mine:
            continue
        if p >= 16 and (SUPPORT_MASK[p] & mine).bit_count() >= 2:
            continue
        out |= low
    return out


def broken_rule(position: Position) -> str | None:
    """The first forbidden pattern in a position, in words, or None when there is none.

    Balls never move, so a position the rules reach has neither pattern.

    >>> broken_rule(Position('..../..../W.../.W..|.../.../...|../..|.'))
    'the white balls at c1 and a3 are diagonal neighbours on one level'
    """
    masks = (0, position.white, position.black, position.red)
    for p in points_of(position.occupied):
        colour = position.colour_at(p)
        mine = masks[colour]
        name = COLOUR_NAMES[colour]
        for q in points_of(DIAGONAL_MASK[p] & mine):
            if q > p:
                return (f"the {name} balls at {point_name(p)} and {point_name(q)} are "
                        "diagonal neighbours on one level")
        if p >= 16 and (SUPPORT_MASK[p] & mine).bit_count() >= 2:
            return f"the {name} ball at {point_name(p)} rests on two {name} balls"
    return None


@dataclass(frozen=True)
class SproutState(State):
    hands: tuple[int, ...] = ()
    """The colour of each player's ball (EMPTY while a draw for that seat is due)."""
    swaps: int = 0
    """Trades of the active ball still allowed in this game."""


@dataclass(frozen=True)
class SproutOutcome(Outcome):
    """A finished game: everyone wins (a complete pyramid) or nobody does.

    ``scores`` holds the balls placed, the same for every player.  ``returns``
    gives every player the same value, so every search player aims for the
    shared success: 1 for a win, and for a loss the share of the pyramid built
    weighted by :data:`LOSS_WEIGHT`, so that any loss is worth less than half
    a win but a longer one is still better than a shorter one.
    """

    def returns(self, num_players: int) -> tuple[float, ...]:
        value = 1.0 if self.winners else LOSS_WEIGHT * self.scores[0] / NUM_POINTS
        return (value,) * num_players


@register
class Sprout(Game):
    info = GameInfo(
        name="Sprout", designer="Angelo Nikolaou", year="2011-2012",
        family="Puzzle", source="Annexe 1 of the French edition of the Shibumi Rule Book",
        summary="A cooperative game of chance for 1 to 5: place drawn balls so that no "
                "two of a colour are diagonal neighbours and no raised ball rests on two "
                "of its colour; all win with a complete pyramid.",
        min_players=1, max_players=MAX_PLAYERS, complexity=2, chance=True,
        cooperative=True, max_length=NUM_POINTS + max(LEVELS.values()))
    parameters = {"players": 1, "level": "medium"}
    player_names = tuple(f"Player {i}" for i in range(1, MAX_PLAYERS + 1))

    rules = """\
Sprout is played by one to five people, all on the same side: together
they win or together they lose. It starts with an empty board and every
ball of the set (sixteen of each colour) in a bag. Each player draws one
ball, which stays in front of them where everybody can see it.

Before starting, agree on a level. It sets how many times in the game the
active player's ball may be traded: three times at the easy level, twice
at the medium level, once at the hard level.

The youngest player (Player 1) begins, and turns go round the table. On
your turn put your ball on any playable point (an empty hole, or a finished
platform of four balls whose top is free), then draw a fresh ball from the
bag. Two patterns may never appear:

1. two balls of the same colour diagonally next to each other on one level
   (diagonal neighbours do not touch, yet they are forbidden);
2. a ball above the board resting on two balls of its own colour: of the
   four balls under it, at most one may share its colour.

Instead of placing, while trades remain, the table may decide to trade:
the active player puts their ball back in the bag and takes out a ball of
another colour of their choice. The same player then plays on with the new
ball (or trades again while trades remain).

The game is won by everyone when the pyramid is complete (thirty balls).
It is lost by everyone when the active player's ball has no legal point and
no trade is left.

In the engine the draws are chance actions (`=W`, `=B`, `=R`) made by the
match's random generator; a placement names the point (`c3`), and a trade
names the colour taken (`=B`). Play it with `players=1` to 5 and
`level="easy"`, `"medium"` (the default) or `"hard"`.
"""
    notes = """\
Source: Annexe 1 of the French edition of the Shibumi Rule Book; the game
is by Angelo Nikolaou (2011, 2012). The figures (the two forbidden patterns,
and a game won) are lost.

* The second forbidden pattern. The text forbids a raised ball "touching two
  balls of the same colour" on the level below. Read as "two balls sharing
  any one colour", it would forbid every stacking: the four balls of a
  platform have only three colours, so two of them always match. So it
  means two balls of the raised ball's own colour, and "two" means two or
  more. The first rule already keeps each diagonal pair of a platform
  unlike, so a platform holds at most two balls of one colour, and a
  raised ball may rest on at most one ball of its colour.
* The first forbidden pattern concerns balls on one level only, on every
  level (the board, level 1 and level 2); orthogonal neighbours, which
  touch, may share a colour.
* The bag holds the whole set, sixteen balls of each colour. Only thirty are
  ever placed, so the bag never runs dry before the end.
* Hands are open. The text does not ask anyone to hide their ball, and the
  players cooperate, so every ball in hand is public (no hidden
  information). The draw is made at once after a placement, so the next
  player already sees it.
* Trades. The text says the players "may decide" to have the active ball
  put back and one of another colour chosen. We read: at any time on a
  turn, before placing, whether or not the ball would fit; the new colour
  is chosen (not drawn) among the colours left in the bag other than the
  ball given back. The level sets the number of trades for the whole game,
  shared by the table. Playing alone the one player decides; with several,
  the active player's choice stands for the table's.
* The loss. A ball that fits nowhere must be traded if a trade is left
  (the trade may fail to help); the game is lost when it fits nowhere and
  no trade is left. Only the active player's ball counts: another player's
  ball that does not fit now may fit by their turn.
* "The youngest begins": Player 1 is the youngest; the first draws go round
  the table from Player 1.
* A shared result. A won game lists every player as a winner; a lost game
  lists none (front ends that know only duels call it a draw). The search
  player's value is the same for every seat, 1 for a win, and for a loss
  half the share of the pyramid built (balls placed / 60), so every AI
  seat works for the shared success and a loss can never look as good as
  a win; the default value of a game with no winner (1/n each, the same as
  a shared win split n ways) would have made the AI indifferent. The score
  is the number of balls placed.
* Length. A game has at most 33 player actions: thirty placements and the
  easy level's three trades. Draws are chance actions and do not count.
"""

    def __init__(self, **params) -> None:
        super().__init__(**params)
        level = self.params["level"]
        if level not in LEVELS:
            raise UnknownGameError(f"Sprout levels are 'easy', 'medium' or 'hard' "
                                   f"(3, 2 or 1 trades), not {level!r}")
        self.trades = LEVELS[level]
        if self.num_players == 1:
            self.player_names = ("Player",)

    # -- what a state holds ---------------------------------------------------------
    def bag_left(self, state: SproutState) -> tuple[int, int, int]:
        """Balls of each colour (white, black, red) still in the bag."""
        return tuple(PER_COLOUR - state.position.count(c) - state.hands.count(c)
                     for c in COLOURS)

    def length(self, state) -> int:
        """Player actions so far: balls placed and trades made."""
        return state.position.occupied.bit_count() + self.trades - state.swaps

    def trade_options(self, state: SproutState) -> list[Move]:
        """The trades open to the active player: colours other than the ball in hand
        still in the bag, while trades are left."""
        if not state.swaps:
            return []
        held = state.hands[state.to_move]
        left = self.bag_left(state)
        return [CHOICES[c] for c in COLOURS if c != held and left[c - 1]]

    # -- rules ----------------------------------------------------------------------
    def initial_state(self, rng: random.Random | None = None) -> SproutState:
        return SproutState(hands=(EMPTY,) * self.num_players, swaps=self.trades)

    def current_player(self, state) -> int:
        if state.result is not None:
            return TERMINAL
        return CHANCE if EMPTY in state.hands else state.to_move

    def chance_outcomes(self, state):
        if self.current_player(state) != CHANCE:
            return []
        left = self.bag_left(state)
        total = sum(left)
        return [(CHOICES[c], n / total) for c, n in zip(COLOURS, left) if n]

    def legal_moves(self, state, player=None):
        if self.current_player(state) < 0:
            return []
        held = state.hands[state.to_move]
        row = PLACE_MOVES[held]
        return [row[p] for p in points_of(allowed(state.position, held))] \
            + self.trade_options(state)

    def apply(self, state, move):
        hands = list(state.hands)
        if move.kind == "choose":
            if EMPTY in hands:                       # a draw, for the first seat without a ball
                hands[hands.index(EMPTY)] = move.colour
                swaps = state.swaps
            else:                                    # a trade by the active player
                hands[state.to_move] = move.colour
                swaps = state.swaps - 1
            return self.settle(SproutState(state.position, state.to_move, None, move,
                                           tuple(hands), swaps))
        position = state.position.place(move.point, move.colour)
        hands[state.to_move] = EMPTY      # the placer draws next (unless the pyramid is done)
        return self.settle(SproutState(position, (state.to_move + 1) % self.num_players,
                                       None, move, tuple(hands), state.swaps))

    def settle(self, state):
        """Work out the result: a complete pyramid wins; a stuck active ball loses."""
        if state.result is not None:
            return state
        placed = state.position.occupied.bit_count()
        if placed == NUM_POINTS:
            return dataclasses.replace(state, result=SproutOutcome(
                tuple(range(self.num_players)), "the pyramid is complete",
                (float(placed),) * self.num_players))
        if EMPTY in state.hands:
            return state
        held = state.hands[state.to_move]
        if allowed(state.position, held) or self.trade_options(state):
            return state
        who = "" if self.num_players == 1 else f"{self.player_name(state.to_move)}'s "
        why = "no trade is left" if not state.swaps else \
            "the bag holds no ball of another colour"
        return dataclasses.replace(state, result=SproutOutcome(
            (), f"lost with {placed} balls placed: {who}{COLOUR_NAMES[held]} ball fits "
                f"nowhere and {why}", (float(placed),) * self.num_players))

    def random_playout(self, state, rng: random.Random):
        """The generic loop's games (draws by the bag, uniform choices), on masks."""
        return self._play_out(state, rng, trade_at_will=True)

    def playout(self, state, rng: random.Random):
        """The search's playouts: like random play, but a trade only for a ball that
        fits nowhere (random play spends the trades early, on balls that fit)."""
        return self._play_out(state, rng, trade_at_will=False)

    def _play_out(self, state, rng: random.Random, trade_at_will: bool):
        """Play to the end on masks: draws by the bag, placements uniformly at random;
        trades like any other choice, or only when nothing fits."""
        if state.result is not None:
            return state
        n = self.num_players
        masks = [0, state.position.white, state.position.black, state.position.red]
        hands, swaps, to_move, last = list(state.hands), state.swaps, state.to_move, state.last
        left = [PER_COLOUR - masks[c].bit_count() - hands.count(c) for c in COLOURS]
        rnd = rng.random
        placed = (masks[1] | masks[2] | masks[3]).bit_count()
        while True:
            if EMPTY in hands:                        # draw for the seat without a ball
                total = left[0] + left[1] + left[2]
                r = rnd() * total
                colour = WHITE if r < left[0] else BLACK if r < left[0] + left[1] else RED
                left[colour - 1] -= 1
                hands[hands.index(EMPTY)] = colour
                last = CHOICES[colour]
                continue
            held = hands[to_move]
            spots = points_of(allowed_in(masks[1], masks[2], masks[3], held))
            trades = [c for c in COLOURS if c != held and left[c - 1]] \
                if swaps and (trade_at_will or not spots) else []
            options = len(spots) + len(trades)
            if not options:
                break
            k = int(rnd() * options)
            if k >= len(spots):                       # a trade
                colour = trades[k - len(spots)]
                left[held - 1] += 1
                left[colour - 1] -= 1
                hands[to_move] = colour
                swaps -= 1
                last = CHOICES[colour]
                continue
            masks[held] |= 1 << spots[k]
            last = PLACE_MOVES[held][spots[k]]
            hands[to_move] = EMPTY
            to_move = (to_move + 1) % n
            placed += 1
            if placed == NUM_POINTS:
                break
        position = Position.from_masks(masks[1], masks[2], masks[3])
        return self.settle(SproutState(position, to_move, None, last, tuple(hands), swaps))

    # -- text ------------------------------------------------------------------------
    def status_lines(self, state) -> list[str]:
        """The balls in hand, the trades left and what the bag holds."""
        lines = []
        if self.num_players == 1:
            if state.hands[0] != EMPTY:
                lines.append(f"Ball in hand: {COLOUR_NAMES[state.hands[0]]}.")
        else:
            held = [f"{self.player_name(p)} {COLOUR_NAMES[c]}" for p, c in enumerate(state.hands)
                    if c != EMPTY]
            if held:
                lines.append("Balls in hand: " + ", ".join(held) + ".")
        level = self.params["level"]
        lines.append(f"Trades left: {state.swaps} of {self.trades} ({level} level).")
        white, black, red = self.bag_left(state)
        lines.append(f"In the bag: {white} white, {black} black and {red} red balls.")
        return lines

    def extra_text(self, state) -> str:
        hands = "".join(COLOUR_LETTERS[c] for c in state.hands)
        return f"hands={hands} swaps={state.swaps}"

    def state_from(self, position, to_move, extras):
        n = self.num_players
        fields = {}
        for token in extras.split():
            key, eq, value = token.partition("=")
            if not eq or key not in ("hands", "swaps") or key in fields:
                raise NotationError(f"Sprout state field {shown(token)} not understood; "
                                    "fields: hands=<one of . W B R per player> swaps=<number>")
            fields[key] = value
        text = fields.get("hands", "." * n)
        if len(text) != n or any(ch not in COLOUR_LETTERS for ch in text):
            raise NotationError(f"Sprout hands {shown(text)}: one letter (. W B R) for each "
                                f"of the {n} players")
        hands = tuple(COLOUR_LETTERS.index(ch) for ch in text)
        swaps = fields.get("swaps", str(self.trades))
        if not swaps.isdigit() or int(swaps) > self.trades:
            raise NotationError(f"Sprout swaps={shown(swaps)}: the {self.params['level']} "
                                f"level allows 0 to {self.trades} trades")
        swaps = int(swaps)
        if not position.is_stable():
            raise NotationError("Sprout position: a ball is not resting on a full platform")
        broken = broken_rule(position)
        if broken is not None:
            raise NotationError(f"Sprout position breaks a rule: {broken}")
        state = SproutState(position, to_move, None, None, hands, swaps)
        if min(self.bag_left(state)) < 0:
            raise NotationError(f"Sprout uses the set's {PER_COLOUR} balls of each colour: "
                                "this state has more of one colour")
        placed = position.occupied.bit_count()
        if to_move != placed % n:
            raise NotationError(f"Sprout: after {placed} balls placed it is "
                                f"{self.player_name(placed % n)}'s turn")
        self._check_hands(hands, placed, to_move, swaps)
        return self.settle(state)

    def _check_hands(self, hands, placed, to_move, swaps) -> None:
        """The empty hands a game can show: the first draws go round from Player 1;
        later only the last placer waits for a draw (and keeps none at the end)."""
        n = self.num_players
        empty = [p for p in range(n) if hands[p] == EMPTY]
        if placed == 0:
            ok = empty == list(range(n - len(empty), n)) and (not empty or swaps == self.trades)
        elif placed == NUM_POINTS:
            ok = empty == [(to_move - 1) % n]
        else:
            ok = empty in ([], [(to_move - 1) % n])
        if not ok:
            raise NotationError(f"Sprout hands {''.join(COLOUR_LETTERS[c] for c in hands)}: "
                                "no game reaches these empty hands here; the first draws "
                                "go round from Player 1, then only the last player to "
                                "place waits for a draw")

    def describe(self, state) -> str:
        """The board and whose turn it is; the result said as a shared win or loss
        (hands, trades and bag are in :meth:`status_lines`)."""
        text = super().describe(state)
        outcome = state.result
        if outcome is not None:
            verdict = "won" if outcome.winners else "lost"
            if self.num_players > 1:
                verdict += " together"
            head = text.split("Game over:")[0]
            return f"{head}Game over: {verdict}. {outcome.reason}"
        return text


__all__ = ["CHOICES", "DIAGONAL_MASK", "LEVELS", "LOSS_WEIGHT", "PER_COLOUR", "Sprout",
           "SproutOutcome", "SproutState", "allowed", "allowed_in", "broken_rule"]
