"""Spanic: 3 to 6 players, hidden hands dealt from a bag; the first to empty their hand wins.

The thirty balls of the set (ten of each colour) are dealt at random into
hidden hands.  On a turn a player places a ball from their hand, in any
empty hole or on a finished platform whose four balls include two or more
of the ball's colour, or passes.

The deal is a run of chance actions (``=W`` draws a white ball for the
next hand); a :class:`~shibumi.Match` makes it with its seeded generator.

>>> from shibumi import load
>>> game = load('spanic')
>>> match = game.new_match(seed=1)
>>> game.hand_text(match.state.hands[0]), match.current_player
('WWWWBBBRRR', 0)
>>> match.push('Wa1'), match.push('pass')
(Move('Wa1'), Move('pass'))
>>> game.state_text(game.observe(match.state, 2)).split()[2]
'hands=?????????/??????????/WWWBBBBRRR'
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass

from ..bits import nth_point, pairs_under
from ..errors import NotationError, shown
from ..game import CHANCE, TERMINAL, Game, GameInfo, Outcome, State, read_fields
from ..geometry import BOARD_MASK, SUPPORT_MASK, SUPPORTED, SYMMETRIES, points_of
from ..notation import CHOOSE, PASS, PASS_MOVE, Move
from ..position import BLACK, RED, WHITE, Position
from ..registry import register
from .placement import PLACE_MOVES, playable_bits

#: Balls of each colour in the bag at the start (white, black, red).
BAG = (10, 10, 10)
#: Balls dealt to each hand, by number of players.
HAND_SIZE = {3: 10, 4: 7, 5: 6, 6: 5}
#: Where the two balls left over in a four-player deal go: the corner holes a1
#: and g7, the first drawn on the first of them still empty.
SPARE_HOLES = (0, 15)
#: Letter of a ball nobody at the table has seen, in an observed hand.
UNSEEN = "?"
COLOURS = (WHITE, BLACK, RED)
DRAWS = {c: Move.choose(c) for c in COLOURS}


def allowed_points(masks, colour: int, playable: int) -> int:
    """Where a ball of ``colour`` may go: empty holes, and playable points above the
    board with at least two balls of that colour among the four under them.

    ``masks`` is indexed by colour (``masks[WHITE]`` is the white mask).

    >>> from shibumi.notation import point_name
    >>> pos = Position('..../..../WW../WB..|.../.../...|../..|.')
    >>> masks = (0, pos.white, pos.black, pos.red)
    >>> [point_name(p) for p in points_of(allowed_points(masks, WHITE, pos.playable()))][-2:]
    ['g7', 'b2']
    >>> bin(allowed_points(masks, BLACK, pos.playable()) >> 16)
    '0b0'
    """
    mine = masks[colour]
    allowed = playable & BOARD_MASK
    upper = playable & ~BOARD_MASK
    while upper:
        low = upper & -upper
        q = low.bit_length() - 1
        if (mine & SUPPORT_MASK[q]).bit_count() >= 2:
            allowed |= low
        upper ^= low
    return allowed


def stacking_ok(position: Position) -> bool:
    """Every ball above the board rests on at least two balls of its own colour
    (true of every position the rules can reach: nothing is ever removed)."""
    masks = (0, position.white, position.black, position.red)
    for q in points_of(position.occupied & ~BOARD_MASK):
        if (masks[position.colour_at(q)] & SUPPORT_MASK[q]).bit_count() < 2:
            return False
    return True


def room_for(position: Position, colour: int, supply=None) -> int:
    """The most balls of ``colour`` that can still be added to a position, whatever
    colours the other balls placed later are.

    ``supply`` gives the balls of each colour still to come (white, black, red);
    by default, whatever of the set's ten per colour is not on the board. An
    exhaustive search, memoised on the position: meant for positions late in a
    game, where few points are left.

    >>> room_for(Position('WWBB/RRWB/BWRR/WBRW|.../.../...|../..|.'), WHITE)
    4
    """
    if supply is None:
        supply = tuple(BAG[c - 1] - position.count(c) for c in COLOURS)
    memo: dict = {}

    def best(white: int, black: int, red: int, left: tuple) -> int:
        key = (white, black, red, left)
        found = memo.get(key)
        if found is not None:
            return found
        masks = (0, white, black, red)
        playable = playable_bits(white | black | red)
        top = 0
        for c in COLOURS:
            if not left[c - 1]:
                continue
            spots = allowed_points(masks, c, playable)
            rest = tuple(n - (i == c - 1) for i, n in enumerate(left))
            for p in points_of(spots):
                m = list(masks)
                m[c] |= 1 << p
                top = max(top, (c == colour) + best(m[1], m[2], m[3], rest))
        memo[key] = top
        return top

    return best(position.white, position.black, position.red, tuple(supply))


def _draw(bag, r: float) -> int:
    """The colour drawn from ``bag`` (counts of white, black, red) for the number
    ``r``: ``Game.sample_chance`` over :meth:`Spanic.chance_outcomes`, summed in the
    same order so that the floating-point bounds are the same."""
    total = bag[0] + bag[1] + bag[2]
    acc, colour = 0.0, WHITE
    for c in COLOURS:
        k = bag[c - 1]
        if k:
            colour = c
            acc += k / total
            if r < acc:
                return c
    return colour


@dataclass(frozen=True)
class SpanicState(State):
    """A Spanic state: the board, whose turn, and every hand.

    ``hands[i]`` is ``(white, black, red, unseen)``: the balls player ``i``
    holds, by colour; ``unseen`` counts balls of unknown colour and is 0 in a
    full state (it is what :meth:`Spanic.observe` puts in the others' hands).
    ``passes`` counts the passes since the last ball was placed, ``actions``
    the players' actions so far (history, for the length of a game).
    """
    hands: tuple[tuple[int, int, int, int], ...] = ()
    passes: int = 0
    actions: int = 0


@register
class Spanic(Game):
    info = GameInfo(
        name="Spanic", designer="Néstor Romeral Andrés", year="2012",
        family="Elimination", source="Shibumi Rule Book (2012)",
        summary="Hands of random colours are dealt in secret; balls go in empty holes "
                "or on platforms holding two of their colour, and the first player to "
                "get rid of every ball wins.",
        min_players=3, max_players=6, complexity=2, chance=True,
        hidden_information=True, max_length=150)
    parameters = {"players": 3}
    player_names = tuple(f"Player {i}" for i in range(1, 7))

    rules = """\
Spanic is for three to six players. Nobody owns a colour: thirty balls, ten
white, ten black and ten red, go into a bag, and each player draws a hand
from it without looking, keeping it hidden from the others. With three
players each hand has 10 balls, with five players 6 and with six players 5;
these use up the whole bag. With four players each hand has 7 balls and the
two balls left over are put straight onto the board, in the corner holes a1
and g7, for all to see.

Player 1 starts and turns go round in order. On your turn you do one of two
things:

* place a ball from your hand, either in an empty hole of the board, or on
  a playable point above the board (a finished platform of four balls)
  provided at least two of those four balls have the colour of the ball you
  place; or
* pass. You may pass whenever you like, and must when nothing in your hand
  fits anywhere.

Whoever places the last ball of their hand wins at once. If every player
passes, one after the other, the game ends and the player holding the
fewest balls wins (several players tied on the fewest share the win).

Everyone can count how many balls each player still holds; only the
colours are secret.
"""
    notes = """\
Source: the Shibumi Rule Book v1.1 (2012), game by Néstor Romeral Andrés,
2012, read in English and in its French translation.

* What may go where. We read the placing rule as: a ball may go into any
  empty hole, whatever its colour, or onto a playable point above the board
  (one whose four supporting balls are all in place) when at least two of
  those four balls share its colour. This is the wording of the book's
  solitaire sister game Spalone, which the book calls the solitaire version
  of Spanic. Which player placed the supporting balls does not matter.
* Passing is always allowed, even for a player who could place a ball; the
  rules offer it as an equal alternative. A player who can place nothing has
  to pass.
* The end by passing needs one full round of passes: as many passes in a
  row as there are players. Any placement starts the count again. The game
  cannot end with the pyramid full: someone runs out of balls first.
* Ties. The book does not say what happens when several players hold the
  fewest balls after the round of passes. We let them share the win.
* Four players (figure lost): 28 balls are dealt and the book only says to
  put the two spares on the board. We draw them from the bag like the rest
  and put them in two opposite corner holes, a1 and g7, the first ball drawn
  on a1. A corner hole lies under a single platform (b2 or f6), so the
  spares help their colour as little as any hole can, and they cannot share
  a platform. Because of them only the four turns of the board that keep
  a1 and g7 (the identity, the half turn and the two reflections in the
  diagonals through a1-g7 and its perpendicular) are symmetries of the
  four-player game; the other player counts have all eight.
* The deal is made ball by ball, round the table from Player 1, as chance
  actions written `=W`, `=B`, `=R`. The order of a deal does not change how
  likely each set of hands is; dealing round the table just lets a state
  say how far the deal has got.
* What a player knows. The number of balls in every hand is public (the
  deal sizes are fixed and every placement is seen); the colours in the
  other hands are not. The engine's observation of a seat shows its own
  hand and `?` for every ball of the others, and hides the colours drawn
  in the deal from everyone but the player who drew them.
* Guessing the other hands. To search, the AI fills the `?` with the balls
  nobody has seen (the set minus the board minus its own hand), shuffled.
  Any way of sharing these out is possible, since passing is always legal
  and a placed ball shows only its own colour, and a shuffle makes each
  sharing as likely as in a fresh deal. It does not try to read the
  others' strategies from their choices.
* The rule book's example of colour management (figure lost): a position in
  which only two more white balls can ever be placed, so that a player
  holding three or more white balls cannot finish. The chapter rebuilds one
  and the tests check it by trying every way of going on.
* The length of a game counts the players' actions (placements and
  passes), not the deal. At most 150: with n players at most 31 - n balls
  are placed (the others keep a ball each), each after at most n - 1
  passes, and a final round of n passes ends a game in which nobody ran
  out; n (31 - n) is largest, 150, for six players.
"""

    def __init__(self, **params) -> None:
        super().__init__(**params)
        self.hand_size = HAND_SIZE[self.num_players]
        #: Balls that go to the hands; the rest of the bag goes onto the spare holes.
        self.dealt_to_hands = self.hand_size * self.num_players
        self.spares = sum(BAG) - self.dealt_to_hands
        if self.spares:
            keep = set(SPARE_HOLES)
            self.symmetries = tuple(i for i, perm in enumerate(SYMMETRIES)
                                    if {perm[p] for p in SPARE_HOLES} == keep)
        self._spare_mask = sum(1 << p for p in SPARE_HOLES) if self.spares else 0

    # -- the deal ------------------------------------------------------------------
    def initial_state(self, rng: random.Random | None = None) -> SpanicState:
        """The empty board and empty hands: the deal is made by chance actions."""
        return SpanicState(hands=((0, 0, 0, 0),) * self.num_players)

    def dealt(self, state: SpanicState) -> int:
        """Balls drawn from the bag so far (all of them once play has begun)."""
        return sum(sum(h) for h in state.hands) + state.position.occupied.bit_count()

    def _placed(self, state: SpanicState) -> int:
        """Balls the players have put on the board (the spares are not theirs)."""
        return (state.position.occupied & ~self._spare_mask).bit_count()

    def bag(self, state: SpanicState) -> tuple[int, int, int]:
        """Balls of each colour still in the bag (white, black, red), in a full state."""
        pos = state.position
        return tuple(BAG[c - 1] - pos.count(c) - sum(h[c - 1] for h in state.hands)
                     for c in COLOURS)

    def current_player(self, state: SpanicState) -> int:
        if state.result is not None:
            return TERMINAL
        if self.dealt(state) < sum(BAG):
            return CHANCE
        return state.to_move

    def chance_outcomes(self, state: SpanicState) -> list[tuple[Move, float]]:
        """The next ball drawn: each colour by its share of the bag."""
        if self.current_player(state) != CHANCE:
            return []
        bag = self.bag(state)
        total = sum(bag)
        return [(DRAWS[c], n / total) for c, n in zip(COLOURS, bag) if n]

    # -- play ----------------------------------------------------------------------
    def legal_moves(self, state: SpanicState, player: int | None = None) -> list[Move]:
        if self.current_player(state) < 0:
            return []
        hand = state.hands[state.to_move]
        pos = state.position
        masks = (0, pos.white, pos.black, pos.red)
        playable = playable_bits(pos.occupied)
        moves = []
        for c in COLOURS:
            if hand[c - 1]:
                row = PLACE_MOVES[c]
                moves.extend(row[p] for p in points_of(allowed_points(masks, c, playable)))
        moves.append(PASS_MOVE)
        return moves

    def apply(self, state: SpanicState, move: Move) -> SpanicState:
        n = self.num_players
        if move.kind == CHOOSE:
            dealt = self.dealt(state)
            if dealt < self.dealt_to_hands:
                who = dealt % n
                hand = list(state.hands[who])
                hand[move.colour - 1] += 1
                hands = state.hands[:who] + (tuple(hand),) + state.hands[who + 1:]
                return SpanicState(state.position, 0, None, move, hands, 0, 0)
            hole = next(p for p in SPARE_HOLES if not state.position.occupied >> p & 1)
            return SpanicState(state.position.place(hole, move.colour), 0, None, move,
                               state.hands, 0, 0)
        mover = state.to_move
        following = (mover + 1) % n
        if move.kind == PASS:
            passes = state.passes + 1
            after = SpanicState(state.position, following, None, move, state.hands,
                                passes, state.actions + 1)
            if passes == n:
                return dataclasses.replace(after, result=self._passed_out(state.hands))
            return after
        hand = list(state.hands[mover])
        hand[move.colour - 1] -= 1
        hands = state.hands[:mover] + (tuple(hand),) + state.hands[mover + 1:]
        result = None if sum(hand) else self._emptied(mover, hands)
        return SpanicState(state.position.place(move.point, move.colour), following,
                           result, move, hands, 0, state.actions + 1)

    def _emptied(self, winner: int, hands) -> Outcome:
        others = tuple(p for p in range(self.num_players) if p != winner)
        return Outcome((winner,), f"{self.player_name(winner)} placed their last ball",
                       ranking=((winner,), others))

    def _passed_out(self, hands) -> Outcome:
        left = [sum(h) for h in hands]
        fewest = min(left)
        winners = tuple(p for p, k in enumerate(left) if k == fewest)
        others = tuple(p for p, k in enumerate(left) if k != fewest)
        counts = ", ".join(f"{self.player_name(p)} {k}" for p, k in enumerate(left))
        return Outcome(winners, f"everyone passed in turn; balls left: {counts}",
                       ranking=(winners, others) if others else (winners,))

    def length(self, state: SpanicState) -> int:
        """The players' actions so far (placements and passes; the deal is not counted)."""
        return state.actions

    def state_key(self, state: SpanicState) -> tuple:
        """What the rules look at: the board, whose turn, the hands, the passes."""
        return (state.position, state.to_move, state.result, state.hands, state.passes)

    # -- hidden information -----------------------------------------------------
    def observe(self, state: SpanicState, player: int) -> SpanicState:
        """What ``player`` knows: the board, their own hand, how many balls each other
        hand holds (colours masked) and the public history.  A ball drawn in the deal
        is not shown as the last move."""
        hands = tuple(h if i == player else (0, 0, 0, sum(h))
                      for i, h in enumerate(state.hands))
        last = None if state.last is not None and state.last.kind == CHOOSE else state.last
        return dataclasses.replace(state, hands=hands, last=last)

    def determinise(self, observation: SpanicState, player: int,
                    rng: random.Random) -> SpanicState:
        """A full state matching ``observation``: the unseen balls (the set, less the
        board and every ball whose colour is known) shuffled, and dealt to the
        unseen places of the hands; what is left stays in the bag."""
        pos = observation.position
        pool = []
        for c in COLOURS:
            known = pos.count(c) + sum(h[c - 1] for h in observation.hands)
            pool.extend([c] * (BAG[c - 1] - known))
        wanted = sum(h[3] for h in observation.hands)
        if len(pool) < wanted or any(BAG[c - 1] < pos.count(c) for c in COLOURS):
            raise NotationError("this observation does not fit in a set of thirty balls")
        rng.shuffle(pool)
        hands, at = [], 0
        for h in observation.hands:
            unseen = pool[at:at + h[3]]
            at += h[3]
            hands.append((h[0] + unseen.count(WHITE), h[1] + unseen.count(BLACK),
                          h[2] + unseen.count(RED), 0))
        return dataclasses.replace(observation, hands=tuple(hands))

    # -- fast random games ------------------------------------------------------
    def random_playout(self, state: SpanicState, rng: random.Random) -> SpanicState:
        """Uniformly random actions (and the rest of the deal) to the end, on masks.

        Same distribution of games as the generic loop: every legal action
        (each placement and the pass) equally likely.
        """
        if state.result is not None or any(h[3] for h in state.hands):
            return Game.random_playout(self, state, rng)
        n = self.num_players
        masks = [0, state.position.white, state.position.black, state.position.red]
        hands = [list(h[:3]) for h in state.hands]
        mover, passes, actions = state.to_move, state.passes, state.actions
        rnd = rng.random
        last = state.last
        dealt = self.dealt(state)
        if dealt < sum(BAG):                 # the rest of the deal, ball by ball
            bag = list(self.bag(state))
            while dealt < sum(BAG):
                c = _draw(bag, rnd())
                bag[c - 1] -= 1
                last = DRAWS[c]
                if dealt < self.dealt_to_hands:
                    hands[dealt % n][c - 1] += 1
                else:
                    occupied = masks[1] | masks[2] | masks[3]
                    masks[c] |= 1 << next(p for p in SPARE_HOLES if not occupied >> p & 1)
                dealt += 1
        occupied = masks[1] | masks[2] | masks[3]
        playable = playable_bits(occupied)
        # allowed_points of each colour is the holes and, above them, the playable
        # points of pairs[c]: both masks kept up to date (no ball ever leaves)
        pairs = [0] + [pairs_under(m) for m in masks[1:]]
        while True:
            hand = hands[mover]
            holes = playable & BOARD_MASK
            upper = playable ^ holes
            sw = holes | upper & pairs[1] if hand[0] else 0
            sb = holes | upper & pairs[2] if hand[1] else 0
            sr = holes | upper & pairs[3] if hand[2] else 0
            nw, nb = sw.bit_count(), sb.bit_count()
            total = nw + nb + sr.bit_count()
            k = int(rnd() * (total + 1))
            actions += 1
            following = (mover + 1) % n
            if k == total:
                passes += 1
                last = PASS_MOVE
                if passes == n:
                    result = self._passed_out(hands)
                    break
                mover = following
                continue
            if k < nw:
                c, p = WHITE, nth_point(sw, k)
            elif k < nw + nb:
                c, p = BLACK, nth_point(sb, k - nw)
            else:
                c, p = RED, nth_point(sr, k - nw - nb)
            bit = 1 << p
            mine = masks[c] = masks[c] | bit
            occupied |= bit
            playable ^= bit
            for q in SUPPORTED[p]:                     # the platforms it completes
                support = SUPPORT_MASK[q]
                if occupied & support == support:
                    playable |= 1 << q
                if (mine & support).bit_count() >= 2:
                    pairs[c] |= 1 << q
            hand[c - 1] -= 1
            passes = 0
            last = PLACE_MOVES[c][p]
            if not sum(hand):
                result = self._emptied(mover, hands)
                break
            mover = following
        return SpanicState(Position.from_masks(masks[1], masks[2], masks[3]), following,
                           result, last, tuple(tuple(h) + (0,) for h in hands), passes,
                           actions)

    # -- text ----------------------------------------------------------------------
    @staticmethod
    def hand_text(hand) -> str:
        """A hand as letters (``WWBR``, ``?`` for unseen balls), ``-`` when empty."""
        text = "".join(letter * k for letter, k in zip("WBR" + UNSEEN, hand))
        return text or "-"

    def extra_text(self, state: SpanicState) -> str:
        hands = "/".join(self.hand_text(h) for h in state.hands)
        rest = " ".join(f"{k}={v}" for k, v in (("passes", state.passes),
                                                 ("actions", state.actions)) if v)
        return f"hands={hands}" + (f" {rest}" if rest else "")

    def state_from(self, position: Position, to_move: int, extras: str) -> SpanicState:
        tokens = extras.split()
        found = [t for t in tokens if t.startswith("hands=")]
        if len(found) != 1:
            raise NotationError(f"a Spanic state needs one field hands=<hand>/<hand>/..., "
                                f"one hand per player, like hands=WWBR/-/???; got "
                                f"{shown(extras)}")
        fields = read_fields(self, " ".join(t for t in tokens if t not in found),
                             numbers=("passes", "actions"))
        hands = self._parse_hands(found[0][len("hands="):])
        state = SpanicState(position, to_move, None, None, hands, fields["passes"],
                            fields["actions"])
        self._check(state)
        return self.settle(state)

    def _parse_hands(self, text: str) -> tuple:
        parts = text.split("/")
        if len(parts) != self.num_players:
            raise NotationError(f"Spanic with {self.num_players} players needs "
                                f"{self.num_players} hands separated by '/', "
                                f"got {shown(text)}")
        hands = []
        for part in parts:
            if part == "-":
                hands.append((0, 0, 0, 0))
                continue
            if not part or set(part) - set("WBR" + UNSEEN) or len(part) > sum(BAG):
                raise NotationError(f"a hand is written with the letters W B R (and {UNSEEN} "
                                    f"for an unseen ball), or - when empty; got {shown(part)}")
            hands.append(tuple(part.count(x) for x in "WBR" + UNSEEN))
        return tuple(hands)

    def _check(self, state: SpanicState) -> None:
        """Reject states the rules cannot reach; NotationError says why."""
        pos, n = state.position, self.num_players
        name = "Spanic state"
        for c in COLOURS:
            known = pos.count(c) + sum(h[c - 1] for h in state.hands)
            if known > BAG[c - 1]:
                raise NotationError(f"{name}: more than {BAG[c - 1]} "
                                    f"{'white black red'.split()[c - 1]} balls")
        if not pos.is_stable() or not stacking_ok(pos):
            raise NotationError(f"{name}: every ball above the board must rest on a full "
                                "platform holding at least two balls of its colour")
        dealt = self.dealt(state)
        sizes = [sum(h) for h in state.hands]
        spares_in = (pos.occupied & self._spare_mask).bit_count()
        if dealt > sum(BAG):
            raise NotationError(f"{name}: more than {sum(BAG)} balls in hands and on the board")
        if dealt < sum(BAG):                          # the deal is not over
            to_hands = min(dealt, self.dealt_to_hands)
            expected = [to_hands // n + (i < to_hands % n) for i in range(n)]
            if (sizes != expected or pos.occupied & ~self._spare_mask
                    or spares_in != dealt - to_hands
                    or state.to_move or state.passes or state.actions):
                raise NotationError(f"{name}: during the deal the board is empty (but for "
                                    "the spares), hands are dealt round the table from "
                                    "Player 1, and no one has moved yet")
            return
        if spares_in != self.spares:
            raise NotationError(f"{name}: with four players the spares sit on a1 and g7")
        if max(sizes) > self.hand_size:
            raise NotationError(f"{name}: a hand holds at most {self.hand_size} balls "
                                f"with {n} players")
        if state.passes > n:
            raise NotationError(f"{name}: at most {n} passes in a row")
        if state.actions < self._placed(state) + state.passes:
            raise NotationError(f"{name}: actions= must count at least the balls placed "
                                "and the passes")
        empty = [p for p in range(n) if not sizes[p]]
        if len(empty) > 1 or empty and (state.passes or state.to_move != (empty[0] + 1) % n):
            raise NotationError(f"{name}: the game stops when a hand is emptied: only one "
                                "hand can be empty, and its owner has just played")

    def settle(self, state: SpanicState) -> SpanicState:
        if state.result is not None or self.dealt(state) < sum(BAG):
            return state
        for p, h in enumerate(state.hands):
            if not sum(h):
                return dataclasses.replace(state, result=self._emptied(p, state.hands))
        if state.passes == self.num_players:
            return dataclasses.replace(state, result=self._passed_out(state.hands))
        return state

    def describe(self, state: SpanicState) -> str:
        lines = [state.position.diagram()]
        if state.last is not None:
            lines.append(f"Last move: {state.last.text()}")
        hands = ", ".join(f"{self.player_name(p)} {self.hand_text(h)} ({sum(h)})"
                          for p, h in enumerate(state.hands))
        lines.append(f"Hands: {hands}.")
        if state.passes:
            lines.append(f"Passes in a row: {state.passes}.")
        outcome = self.outcome(state)
        player = self.current_player(state)
        if outcome is not None:
            names = " and ".join(self.player_name(p) for p in outcome.winners)
            lines.append(f"Game over: {names} won. {outcome.reason}")
        elif player == CHANCE:
            lines.append(f"Dealing: {self.dealt(state)} of {sum(BAG)} balls drawn.")
        else:
            lines.append(f"{self.player_name(player)} to move.")
        return "\n".join(lines)


__all__ = ["BAG", "HAND_SIZE", "SPARE_HOLES", "Spanic", "SpanicState", "allowed_points",
           "room_for", "stacking_ok"]
