"""Spack: place balls from a hand of three colours; a ball on exactly two of its colour
goes to the opponent and lets you take two free balls; keep your weakest colour strong.

Each player holds 8 white, 8 black and 8 red balls.  A ball goes on a hole,
or on a platform with a ball of its own colour among the four.  Put on a
platform holding exactly two balls of its colour, it goes to the opponent's
hand, and the mover then takes two free balls into their own hand.  When the
player to move cannot place, the hands are compared, weakest colour first.

>>> from shibumi import load
>>> match = load('spack').new_match()
>>> for text in "Wa1 Wc1 Ba3 Rc3".split():
...     _ = match.push(text)
>>> sorted(m.text() for m in match.legal_moves() if m.point == 16)   # b2: a red needs a red
['Bb2', 'Rb2', 'Wb2']
>>> match.push('Wb2')                  # on exactly two whites: Black takes it
Move('Wb2')
>>> sorted(m.text() for m in match.legal_moves())                   # White takes two free balls
['xa1', 'xa3', 'xc1', 'xc3.0']
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass

from ..bits import nth_point
from ..errors import NotationError, UnknownGameError, shown
from ..game import Game, GameInfo, Outcome, State
from ..geometry import (BOARD_MASK, NUM_POINTS, SUPPORT_MASK, SUPPORTED, SUPPORTED_MASK,
                        SUPPORTS, points_of, transform_mask)
from ..notation import REMOVE, Move, parse_point, point_name
from ..position import COLOUR_NAMES, COLOURS, Position
from ..registry import register
from .placement import PLACE_MOVES, REMOVE_MOVES, playable_bits

#: Balls of each colour in a set, and each player's share of them at the start.
SET_BALLS = 16
HAND = SET_BALLS // 2
#: Free balls the mover takes after a ball has gone to the opponent.
TAKEN = 2
#: The most turns the ``turn_limit`` may allow.
MOST_TURNS = 300
#: The points above the board.
_RAISED = tuple(range(16, NUM_POINTS))


def _upper_by_colour(room: int, masks: tuple[int, int, int]) -> tuple[int, int, int]:
    """The playable platforms (points above the board in ``room``) that take each
    colour: those with a ball of that colour among the four they rest on."""
    white = black = red = 0
    room &= ~BOARD_MASK
    while room:
        low = room & -room
        room ^= low
        support = SUPPORT_MASK[low.bit_length() - 1]
        if support & masks[0]:
            white |= low
        if support & masks[1]:
            black |= low
        if support & masks[2]:
            red |= low
    return white, black, red


def placement_masks(masks) -> tuple[int, tuple[int, int, int]]:
    """(empty holes, the platforms each colour may go on): a hand's placements are,
    colour by colour held, these holes and that colour's platforms, ascending."""
    room = playable_bits(masks[0] | masks[1] | masks[2])
    return room & BOARD_MASK, _upper_by_colour(room, masks)


def placements(masks: tuple[int, int, int], hand: tuple[int, int, int]) -> list[Move]:
    """The placements a hand allows: any colour held on an empty hole, and on an empty
    platform only a colour one of its four balls has."""
    holes, up = placement_masks(masks)
    found = []
    for colour in COLOURS:
        if hand[colour - 1]:
            row = PLACE_MOVES[colour]
            found += [row[p] for p in points_of(holes | up[colour - 1])]
    return found


def can_place(masks: tuple[int, int, int], hand) -> bool:
    """Whether the hand has any placement (see :func:`placements`)."""
    holes, up = placement_masks(masks)
    return any(hand[c] and (holes or up[c]) for c in (0, 1, 2))


def bounces(masks: tuple[int, int, int], point: int, colour: int) -> bool:
    """True when a ball of ``colour`` put on ``point`` rests on exactly two balls of its
    colour, so that it goes to the opponent."""
    return (SUPPORT_MASK[point] & masks[colour - 1]).bit_count() == TAKEN


def free_balls(occupied: int) -> int:
    """Balls with no ball resting on them (a mask): every ball but those that carry one."""
    carrying = 0
    above = occupied & ~BOARD_MASK
    while above:
        low = above & -above
        above ^= low
        carrying |= SUPPORT_MASK[low.bit_length() - 1]
    return occupied & ~carrying


def _under(mask: int) -> int:
    """The raised points with at least one ball of ``mask`` among the four they rest
    on (playable or not): the platforms a ball of that colour may go on."""
    found = 0
    for q in _RAISED:
        if SUPPORT_MASK[q] & mask:
            found |= 1 << q
    return found


def _masks(position: Position) -> tuple[int, int, int]:
    return (position.white, position.black, position.red)


@dataclass(frozen=True)
class SpackState(State):
    """A Spack state.

    ``hands``: each player's balls in hand, as (white, black, red) counts;
    ``to_take``: free balls the mover still takes this turn (0 outside a
    taking); ``takeable``: the balls that were free when the taking began
    and are still there (the mover takes among those); ``turn``: placements
    made (turns begun); ``ply``: actions played (placements and takes).
    """
    hands: tuple[tuple[int, int, int], ...] = ((HAND,) * 3, (HAND,) * 3)
    to_take: int = 0
    takeable: int = 0
    turn: int = 0
    ply: int = 0


@register
class Spack(Game):
    info = GameInfo(
        name="Spack", designer="Markus Hagenauer", year="2012", family="Counting",
        source="Annexe 2 of the French edition of the Shibumi Rule Book",
        summary="Place from a hand of three colours; a ball on exactly two of its colour "
                "goes to the opponent and lets you take two free balls; keep your "
                "weakest colour strong.",
        complexity=2, max_length=3 * MOST_TURNS)
    parameters = {"turn_limit": MOST_TURNS}

    rules = """\
Two players, White and Black (the names only say who starts: both play all
three colours). The board starts empty. Each player takes half of the balls
of every colour: 8 white, 8 black and 8 red, their own hand.

**A turn.** Put one ball from your hand on the pyramid: on any empty hole, or
on an empty platform (four balls in a square) where at least one of the
four balls has the colour of the ball you put. So a red ball cannot go on a
platform with no red ball.

**Bounce and take.** If the ball you put rests on exactly two balls of its own
colour, then:

1. your opponent takes that ball back off the pyramid into their hand;
2. you take two free balls (balls with nothing resting on them), of any
   colour, from the pyramid into your own hand, one after the other. Both
   must have been free when the bounced ball left: a ball freed by your first
   take cannot be your second.

Then your turn is over.

**The end.** The game ends as soon as the player to move cannot put a ball:
the pyramid is full, or no colour in their hand fits an empty point. Each
player then looks at the colour they hold fewest of: whoever holds more of
it wins. If that is equal, compare the colour held second fewest, then the
colour held most. If all three are equal, the game is drawn. The same count
decides a game that reaches 300 turns (a safeguard that is not in the book).
"""
    notes = """\
Source: Annexe 2 of the French edition of the Shibumi Rule Book, game by
Markus Hagenauer (2012). Its two figures (a red ball refused on a platform
without red, and a red ball that is bounced) are lost; both are rebuilt in the
tests and the chapter.

* "Half of the balls of each colour": a set has 16 of each colour, so 8 white,
  8 black and 8 red each. The players' names (White, Black) only say who
  moves first.
* "A platform with at least one ball of the same colour as the ball played":
  the four balls the new ball would rest on. Holes take any colour.
* "Puts a ball on exactly 2 balls of the same colour" is read as: exactly two
  of the four balls under it have the colour of the ball put. (The other
  reading, any two balls of one colour under it, would fire on almost every
  platform.) A ball on three or four of its colour stays.
* "The opponent must take the ball just played" and "the active player takes
  two balls": taken balls go into the taker's hand, which is what the end
  counts. The opponent's taking is forced, so it is part of the placement,
  not a turn of the opponent.
* "Two balls of his choice that support no other": read as two balls free at
  the moment the taking begins (the bounced ball already gone). Taking a free
  ball can free the ball under it; that one may not be the second ball, since
  the pair is chosen among the free balls as they stand. The two takes are
  two actions of the mover (each chosen and checked on its own). Free balls
  carry nothing, so no ball ever drops. There are always at least two free
  balls at that moment: if a single ball were free, every other ball would
  lie under it, the empty point of the bounced ball included, and the pyramid
  would not stand (the tests also check it on random games).
* The end: the game ends when the player to move cannot place, whatever the
  other player could do ("as soon as a player can no longer place"). The
  figures catalogue's source confirms that the game may end before the
  pyramid is complete.
* Comparing hands: each player's counts are sorted from fewest to most and
  compared in that order; all three equal is a draw (the text gives no
  further tie-break). The outcome's scores are each player's fewest.
* Turn limit. Bounces take balls off, so the pyramid can shrink and grow
  again, and nothing in the text stops a game from going on for ever. We
  end it after 300 turns (a turn is a placement with its takes), scored as
  at the normal end; random games end long before. The limit can be set
  lower (`turn_limit`), not higher.
"""

    def __init__(self, **params) -> None:
        super().__init__(**params)
        limit = self.params["turn_limit"]
        if not 1 <= limit <= MOST_TURNS:
            raise UnknownGameError(f"Spack turn_limit is 1-{MOST_TURNS}, not {limit!r}")
        self.turn_limit = limit

    def initial_state(self, rng: random.Random | None = None) -> SpackState:
        return SpackState()

    def length(self, state) -> int:
        return state.ply

    # -- moves -------------------------------------------------------------------------
    def legal_moves(self, state, player: int | None = None) -> list[Move]:
        if state.result is not None:
            return []
        if state.to_take:
            return [REMOVE_MOVES[p] for p in points_of(state.takeable)]
        return placements(_masks(state.position), state.hands[state.to_move])

    def apply(self, state, move: Move) -> SpackState:
        mover = state.to_move
        hands = [list(h) for h in state.hands]
        if move.kind == REMOVE:
            colour = state.position.colour_at(move.point)
            position, _ = state.position.remove(move.point)
            hands[mover][colour - 1] += 1
            to_take, takeable = state.to_take - 1, state.takeable & ~(1 << move.point)
        else:
            colour, point = move.colour, move.point
            masks = _masks(state.position)
            hands[mover][colour - 1] -= 1
            position = state.position.place(point, colour)
            to_take, takeable = 0, 0
            if point >= 16 and bounces(masks, point, colour):
                position, _ = position.remove(point)
                hands[1 - mover][colour - 1] += 1
                # At least two balls are free here (see the notes), so both takes happen.
                takeable = free_balls(position.occupied)
                to_take = min(TAKEN, takeable.bit_count())
        hands = (tuple(hands[0]), tuple(hands[1]))
        to_move = mover if to_take else 1 - mover
        if not to_take:
            takeable = 0
        after = SpackState(position, to_move, None, move, hands, to_take, takeable,
                           state.turn + (move.kind != REMOVE), state.ply + 1)
        return self.settle(after)

    def settle(self, state) -> SpackState:
        """The state, finished when the player to move cannot place (or at the limit)."""
        if state.result is not None or state.to_take:
            return state
        if state.turn >= self.turn_limit:
            why = f"{state.turn} turns were played"
        elif not can_place(_masks(state.position), state.hands[state.to_move]):
            why = f"{self.player_name(state.to_move)} cannot place a ball"
        else:
            return state
        return dataclasses.replace(state, result=self.compare(state.hands, why))

    # -- fast random games ---------------------------------------------------------------
    def random_playout(self, state, rng: random.Random) -> SpackState:
        """Uniformly random actions to the end on bare masks: the choices of
        ``legal_moves`` in its order, one ``rng.random()`` each, so the very games
        of the generic loop."""
        if state.result is not None:
            return state
        rnd = rng.random
        pos = state.position
        masks = [pos.white, pos.black, pos.red]
        hands = [list(state.hands[0]), list(state.hands[1])]
        mover, to_take, takeable = state.to_move, state.to_take, state.takeable
        turn, ply, last, limit = state.turn, state.ply, state.last, self.turn_limit
        # Kept up to date ball by ball rather than found again at every turn: the
        # playable points, per colour the raised points with a ball of that colour
        # among their four supports (placement_masks() is then a few ands), and the
        # balls carrying one (free_balls() is then one and).
        occupied = masks[0] | masks[1] | masks[2]
        playable = playable_bits(occupied)
        under = [_under(m) for m in masks]
        carrying = occupied & ~free_balls(occupied)   # the balls with a ball on them
        while True:
            if to_take:                                # take a ball free at the bounce
                p = nth_point(takeable, int(rnd() * takeable.bit_count()))
                bit = 1 << p
                c = 0 if masks[0] & bit else 1 if masks[1] & bit else 2
                mine = masks[c] = masks[c] ^ bit
                occupied ^= bit
                # it was free: the points on it were empty, and are no longer playable
                playable = playable & ~SUPPORTED_MASK[p] | bit
                for q in SUPPORTED[p]:
                    if not SUPPORT_MASK[q] & mine:
                        under[c] &= ~(1 << q)
                for q in SUPPORTS[p]:                  # those it alone rested on
                    if not SUPPORTED_MASK[q] & occupied:
                        carrying &= ~(1 << q)
                hands[mover][c] += 1
                takeable ^= bit
                to_take, ply, last = to_take - 1, ply + 1, REMOVE_MOVES[p]
                if not to_take:
                    takeable, mover = 0, 1 - mover
                continue
            if turn >= limit:
                why = f"{turn} turns were played"
                break
            hand = hands[mover]
            holes = playable & BOARD_MASK
            platforms = playable ^ holes
            # placement_masks(): the holes, then the platforms each colour may take;
            # the colours held, in order, each over its points: counted once
            uw = holes | platforms & under[0] if hand[0] else 0
            ub = holes | platforms & under[1] if hand[1] else 0
            nw, nb = uw.bit_count(), ub.bit_count()
            ur = holes | platforms & under[2] if hand[2] else 0
            n = nw + nb + ur.bit_count()
            if not n:
                why = f"{self.player_name(mover)} cannot place a ball"
                break
            k = int(rnd() * n)
            if k < nw:
                c, p = 0, nth_point(uw, k)
            elif k < nw + nb:
                c, p = 1, nth_point(ub, k - nw)
            else:
                c, p = 2, nth_point(ur, k - nw - nb)
            hand[c] -= 1
            turn, ply, last = turn + 1, ply + 1, PLACE_MOVES[c + 1][p]
            if p >= 16 and (SUPPORT_MASK[p] & masks[c]).bit_count() == TAKEN:
                hands[1 - mover][c] += 1               # bounced: the opponent takes it
                takeable = occupied & ~carrying        # free_balls(): the board as it was
                to_take = min(TAKEN, takeable.bit_count())
                if to_take:
                    continue
                takeable = 0
            else:
                bit = 1 << p
                masks[c] |= bit
                occupied |= bit
                carrying |= SUPPORT_MASK[p]
                playable ^= bit
                for q in SUPPORTED[p]:                 # the platforms it completes
                    support = SUPPORT_MASK[q]
                    if occupied & support == support:
                        playable |= 1 << q
                    under[c] |= 1 << q
            mover = 1 - mover
        hands = (tuple(hands[0]), tuple(hands[1]))
        return SpackState(Position.from_masks(*masks), mover, self.compare(hands, why), last,
                          hands, 0, 0, turn, ply)

    # -- the end -------------------------------------------------------------------------
    def compare(self, hands, why: str) -> Outcome:
        """Hands compared weakest colour first, then the second, then the strongest."""
        ordered = [sorted(hand) for hand in hands]
        told = "; ".join(f"{self.player_name(p)} holds {self._hand_words(hands[p])}"
                         for p in (0, 1))
        scores = (float(ordered[0][0]), float(ordered[1][0]))
        for rank, word in enumerate(("fewest", "second fewest", "most")):
            a, b = ordered[0][rank], ordered[1][rank]
            if a != b:
                winner = 0 if a > b else 1
                return Outcome((winner,), f"{why}; {told}; {self.player_name(winner)} wins "
                                          f"on the colour held {word} ({max(a, b)} to "
                                          f"{min(a, b)})", scores)
        return Outcome((), f"{why}; {told}; equal hands, a draw", scores)

    @staticmethod
    def _hand_words(hand) -> str:
        return ", ".join(f"{n} {COLOUR_NAMES[c]}" for c, n in zip(COLOURS, hand))

    # -- symmetry and text ---------------------------------------------------------------
    def transform_state(self, state, perm: tuple[int, ...]) -> SpackState:
        turned = super().transform_state(state, perm)
        return dataclasses.replace(turned, takeable=transform_mask(state.takeable, perm))

    def status_lines(self, state) -> list[str]:
        """Each hand with its weakest colour, and the takes still due."""
        lines = []
        for p in (0, 1):
            hand = state.hands[p]
            lines.append(f"{self.player_name(p)}'s hand: {self._hand_words(hand)} "
                         f"(fewest: {min(hand)}).")
        if state.result is None:
            if state.to_take:
                s = "s" if state.to_take > 1 else ""
                lines.append(f"{self.player_name(state.to_move)} takes {state.to_take} "
                             f"more free ball{s}: "
                             + ", ".join(point_name(p) for p in points_of(state.takeable))
                             + ".")
            lines.append(f"Turn {state.turn + 1 - bool(state.to_take)} of "
                         f"{self.turn_limit}.")
        return lines

    def extra_text(self, state) -> str:
        fields = [f"hand{p + 1}={','.join(map(str, state.hands[p]))}" for p in (0, 1)]
        if state.to_take:
            fields.append(f"take={state.to_take}")
            fields.append("takeable=" + ",".join(point_name(p)
                                                 for p in points_of(state.takeable)))
        fields.append(f"turn={state.turn}")
        fields.append(f"ply={state.ply}")
        return " ".join(fields)

    def state_from(self, position, to_move, extras) -> SpackState:
        name = self.info.name
        fields: dict = {"hand1": None, "hand2": None, "take": 0, "takeable": 0, "turn": None,
                        "ply": None}
        seen: set = set()
        for token in extras.split():
            key, eq, value = token.partition("=")
            try:
                if key not in fields or not eq or not value or key in seen:
                    raise ValueError
                seen.add(key)
                if key in ("hand1", "hand2"):
                    parts = value.split(",")
                    if len(parts) != 3 or not all(v.isascii() and v.isdigit() and len(v) < 3
                                                  for v in parts):
                        raise ValueError
                    fields[key] = tuple(int(v) for v in parts)
                elif key == "takeable":
                    fields[key] = sum(1 << parse_point(v) for v in value.split(","))
                elif value.isascii() and value.isdigit() and len(value) < 5:
                    fields[key] = int(value)
                else:
                    raise ValueError
            except (ValueError, NotationError):
                raise NotationError(f"{name} state field {shown(token)} not understood; "
                                    "fields: hand1=<w,b,r> hand2=<w,b,r> take=<1-2> "
                                    "takeable=<points> turn=<turns> ply=<actions>") from None
        hands = tuple(fields[k] if fields[k] is not None else (HAND,) * 3
                      for k in ("hand1", "hand2"))
        for c in COLOURS:
            total = hands[0][c - 1] + hands[1][c - 1] + position.count(c)
            if total != SET_BALLS:
                raise NotationError(f"{name}: {total} {COLOUR_NAMES[c]} balls in the hands "
                                    f"and on the pyramid; a set has {SET_BALLS}")
        take, takeable = fields["take"], fields["takeable"]
        if not 0 <= take <= TAKEN or bool(take) != bool(takeable) \
                or takeable.bit_count() < take:
            raise NotationError(f"{name}: take={take} needs that many takeable balls "
                                "(and takeable balls come only with a take)")
        if takeable & ~free_balls(position.occupied):
            raise NotationError(f"{name}: takeable balls must be free balls on the pyramid")
        turn = fields["turn"] if fields["turn"] is not None else position.count()
        ply = fields["ply"] if fields["ply"] is not None else turn
        # Each turn put one ball; each bounce took it off again and was followed by two
        # takes (the last perhaps still under way).
        bounced = 2 * turn - ply - position.count()
        if turn > self.turn_limit or ply < turn or bounced < 0 \
                or ply - turn + take != TAKEN * bounced:
            raise NotationError(f"{name}: turn={turn} ply={ply} take={take} do not fit "
                                f"{position.count()} balls on the pyramid (one ball put a "
                                f"turn, a bounced ball taken off with {TAKEN} takes "
                                f"after it, at most {self.turn_limit} turns)")
        return self.settle(SpackState(position, to_move, None, None, hands, take, takeable,
                                      turn, ply))



__all__ = ["HAND", "SET_BALLS", "Spack", "SpackState", "bounces", "free_balls", "placements"]
